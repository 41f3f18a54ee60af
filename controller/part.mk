# controller: the Isolato Spring Boot service (REST API + reconcilers).
.PHONY: test-calibration-e2e test-burst-e2e test-scale-e2e bench-cpu-profile bench-runtime-ab bench-token-bucket controller-build test-controller test-controller-e2e test-capacity-e2e test-keda-e2e test-filler-e2e test-placement-e2e bench-filler bench-coloc test-tune-e2e test-kwok-e2e tune bench-path-tune test-bench-reports bench-controller bench-reaction-time schemathesis bench-neighbour bench-incontext-check
BUILD_TARGETS += controller-build
UNIT_TEST_TARGETS += test-controller
UNIT_JVM_TARGETS += test-controller
E2E_TEST_TARGETS += test-controller-e2e test-capacity-e2e test-calibration-e2e test-keda-e2e test-filler-e2e test-tune-e2e test-kwok-e2e test-burst-e2e test-scale-e2e test-placement-e2e

# The benchmarks are subcommands of one tool, bench/isolato-bench (`bench/isolato-bench --help`).
BENCH := bench/isolato-bench

# Maven packages again on every call (Spring's AOT step starts the application: 34 s on a quiet
# 2-core host) even when nothing changed; a dozen targets need the jar, so make decides instead,
# from the sources of the modules the jar is built from.
CONTROLLER_JAR := controller/target/isolato-controller.jar
CONTROLLER_INPUTS := $(call JAVA_INPUTS,calibration-format api-client controller)
# The jar extracted with an AppCDS archive (controller/host/stage.sh), which the end-to-end tests
# and benchmarks start (controller/test/lib.sh).
CONTROLLER_HOST := $(CURDIR)/build/controller-host
controller-build: $(CONTROLLER_JAR) $(CONTROLLER_HOST)/app.jsa ## build controller/target/isolato-controller.jar (only when its sources changed) and stage it for host starts
$(CONTROLLER_JAR): $(CONTROLLER_INPUTS)
	@$(MVN) -pl controller -am -DskipTests package
	@# make's own date: Spring Boot's repackaging dates the jar at project.build.outputTimestamp
	@touch $@

$(CONTROLLER_HOST)/app.jsa: $(CONTROLLER_JAR)
	@controller/host/stage.sh $< $(CONTROLLER_HOST) --no-aot

test-controller: localkube-build schemathesis ## controller and tuner unit tests + integration tests on a real kube-apiserver/etcd, API fuzzing
	@$(MVN) -pl controller,tuner -am verify -Disolato.schemathesis=$(SCHEMATHESIS)
	@# the jars verify built are current: controller-build need not package them again
	@touch $(CONTROLLER_JAR) $(TUNER_JAR)

# The API fuzzer (controller/src/test/java/dev/isolato/it/FuzzIT.java), pinned, in a venv of its own.
SCHEMATHESIS := $(CURDIR)/build/schemathesis/bin/st
schemathesis: $(SCHEMATHESIS) ## install the pinned schemathesis into build/schemathesis
$(SCHEMATHESIS): controller/test/requirements-fuzz.txt
	@python3 -m venv build/schemathesis
	@build/schemathesis/bin/pip install -q --disable-pip-version-check -r controller/test/requirements-fuzz.txt
	@touch $@

# The OpenAPI document clients are generated from (docs/api.md "Generating a client"):
# ApiContractIT rewrites it from what the controller serves; api-client/ generates from it.
.PHONY: api-spec
api-spec: localkube-build ## rewrite docs/reference/openapi.json from the controller's /v3/api-docs
	@$(MVN) -pl controller -am verify -Dtest=none -Dsurefire.failIfNoSpecifiedTests=false -Dit.test=ApiContractIT -Disolato.openapi.update=true

test-controller-e2e: controller-build ## controller end-to-end on localkube (gold/bronze served, kill/restart)
	@controller/test/e2e.sh

test-capacity-e2e: controller-build openloop-build ## drift on localkube: a class declared far above what its pod delivers, under load: SloHeld=False within 60 s, plan raised, p95 back under target
	@controller/test/capacity-e2e.sh

test-calibration-e2e: controller-build openloop-build ## one in-context calibration on localkube: a replica out of the Service ramped by the referee as a Job; cut-off plausible, generator CPU and rate recorded, nothing left
	@controller/test/calibration-e2e.sh

test-keda-e2e: controller-build openloop-build ## KEDA on localkube: a load step makes it add a replica from the cut-off trigger
	@controller/test/keda-e2e.sh

test-filler-e2e: controller-build openloop-build saas-bench-build ## vertical headroom on localkube: the filler soaks idle CPU and is starved when the class needs it
	@controller/test/filler-e2e.sh

test-placement-e2e: controller-build openloop-build saas-bench-build ## 2 real nodes (one joins, then leaves): a pool spreads over both, a tenant filling its scratch gets only its own pod evicted, another class's p95 holds
	@controller/test/placement-e2e.sh

test-burst-e2e: controller-build ## 1,000 tenants + 200 repeated POSTs at concurrency 50 on localkube: exact, every one Serving
	@$(BENCH) burst-check

# No cluster: a bare kube-apiserver + etcd of its own (bench/sh/bare-apiserver.sh), ~1.5 min
test-scale-e2e: controller-build gate-build ## 1,000 tenants in 20 classes on a bare API server: all created and counted, one class served through a real gate → saas-bench
	@$(BENCH) scale --check

bench-controller: controller-build ## onboarding latency / burst benchmark on localkube → docs/benchmarks-log.md
	@$(BENCH) onboarding

bench-reaction-time: controller-build openloop-build ## reaction time to a load step: CPU HPA, KEDA default/tuned, direct path → docs/benchmarks-log.md
	@$(BENCH) reaction-time

bench-filler: controller-build openloop-build saas-bench-build ## vertical headroom: class p95 and node CPU with and without the filler → docs/benchmarks-log.md
	@$(BENCH) filler

bench-coloc: controller-build openloop-build saas-bench-build ## IO co-location guard on 2 nodes: an IO-sensitive class's p95 beside an IO-heavy one, guard on vs off → docs/benchmarks-log.md (≈ 10 min, under the cluster lock)
	@$(BENCH) coloc

# ≈ 10 min on localkube: run it under `flock /tmp/isolato-cluster.lock`
bench-neighbour: controller-build openloop-build saas-bench-build ## noisy neighbour (KIND=cpu|io|mem, NEIGHBOUR_CPU, NEIGHBOUR_THREADS): gold at 80 % of its in-context cut-off, a plain Deployment starts beside it; p95, SloHeld and replicas with the verification loop off and on; KIND=none: a 10 min steady run's false alarms → docs/benchmarks-log.md
	@$(BENCH) neighbour --kind $(or $(KIND),cpu) --neighbour-cpu $(or $(NEIGHBOUR_CPU),500m) --threads $(or $(NEIGHBOUR_THREADS),2)

bench-incontext-check: openloop-build ## with `make run` up: an in-context cut-off (POST …/calibrations) against Gatling's and the referee's from the host, unpinned (DEF=incontext-check, CLASS=gold-check) → docs/benchmarks-log.md
	@# make run loads saas-bench's image only; the provider example's image comes with its definition
	@if [ "$(DEF)" = httpbin-alone ]; then ctx=$$($(MAKE) -s --no-print-directory go-httpbin-image | tail -1) \
	  && $(LOCALKUBE) load-image --build "$$ctx" --tag localhost/isolato/go-httpbin:dev; fi
	@$(BENCH) incontext-check --definition $(or $(DEF),incontext-check) --slo-class $(or $(CLASS),gold-check)

# Control-plane faults and the `make run` modes, measured on localkube (bench/isolato_bench/faults).
# Both take the cluster for ~10 min: run them under `flock /tmp/isolato-cluster.lock`.
.PHONY: test-faults chaos bench-run-modes
UNIT_TEST_TARGETS += test-faults
test-faults: ## unit tests of the fault runs' verdicts, windows and tables (no cluster)
	@source gatling/experiments/venv.sh && cd bench && "$$PY" -m pytest -q tests/test_verdict.py

# The controller's CPU profile during an onboarding (isolato-bench tenants, PROFILE=DIR): the reader's tests.
UNIT_TEST_TARGETS += test-bench-profile
test-bench-profile: ## unit tests of bench/isolato_bench/profile/jfr_hot.py (no cluster)
	@source gatling/experiments/venv.sh && cd bench && "$$PY" -m pytest -q tests/test_jfr_hot.py

chaos: controller-build saas-bench-build helm-tool ## faults (leader kills, API server, etcd, kubelet, node) → results/chaos
	@HELM=$(HELM) $(BENCH) chaos $(ARGS)

bench-run-modes: controller-build saas-bench-build helm-tool ## make run host vs MODE=cluster: time to ready / first served tenant → docs/benchmarks-log.md
	@$(BENCH) run-modes --helm $(HELM)

tune: tuner-build localkube-build ## deploy-pipeline tuning loop on localkube, 1 × 100 pods (TUNE_ARGS="--workloads 10 --pods 10"; "--path tenants|scale" for Isolato's own paths; KWOK_NODES=16 for fake nodes)
	@$(BENCH) tune $(TUNE_ARGS)

bench-cpu-profile: localkube-build ## where the CPU goes while 100 pause pods start (perf samples by process, beside the cgroups) → docs/benchmarks-log.md
	@$(BENCH) cpu-profile $(ARGS)

bench-runtime-ab: localkube-build ## Debian's runc vs localkube's pinned build, alternating in one run (100 pause pods with perf, 5 pods shaped like Isolato's) → docs/benchmarks-log.md
	@$(BENCH) runtime-ab $(ARGS)

bench-token-bucket: tuner-build localkube-build ## the loop on 1 × 100 pods from the controller manager's QPS 20: its steps, its clients' rate-limiter waits, the predicted and measured gain → docs/benchmarks-log.md
	@$(BENCH) token-bucket $(ARGS)

bench-path-tune: tuner-build localkube-build ## the tuning loop on Isolato's paths: 50 dedicated tenants at once, a pool scaled 1 → 10 → docs/benchmarks-log.md
	@$(BENCH) path-tune $(ARGS)

UNIT_TEST_TARGETS += test-bench-reports
# every file of bench/tests (a list of files here once left two of them unrun)
test-bench-reports: ## unit tests of the bench tool's report renderers and its command line (no cluster)
	@source gatling/experiments/venv.sh && cd bench && "$$PY" -m pytest -q tests

test-tune-e2e: tuner-build ## reduced tuning loops on localkube: one 20-pod Deployment, 3 dedicated tenants; one change each, undone
	@controller/test/tune-e2e.sh

test-kwok-e2e: tuner-build ## reduced KWOK shape: 2 fake nodes × 20 pods measured, nothing on the real node, all removed
	@controller/test/kwok-e2e.sh
