# isolato-gate: the tenant gate sidecar (C++20, CMake + Ninja). It is built in saas-bench's
# build directories (one CMake project: cpp-common, saas-bench, gate), see saas-bench/part.mk.
#   build/saas-bench/gate/isolato-gate   release build with gcc, static binary (the image's)
#   build/saas-bench-asan/gate           the same sources and tests with clang + ASan/UBSan, plus libFuzzer
.PHONY: gate-build test-gate-unit test-gate-asan test-gate-fuzz test-gate-lint gate-image gate-image-load
BUILD_TARGETS += gate-build
UNIT_TEST_TARGETS += test-gate-unit test-gate-asan test-gate-fuzz test-gate-lint
UNIT_TEST_PREREQS += gate-build

GATE_BIN := $(SAAS_BENCH_BUILD)/gate/isolato-gate
GATE_IMAGE ?= localhost/isolato/gate:dev
GATE_FUZZ_SECONDS ?= 30

gate-build: saas-bench-build ## build isolato-gate (static binary) and its tests

test-gate-unit: gate-build ## isolato-gate unit, HTTP (abuse table, 4,000 idle connections) and process tests; its memory in a pool pod's cgroup
	@cd $(SAAS_BENCH_BUILD) && ctest --output-on-failure -R '^gate_'
	@python3 gate/test/memory_test.py $(GATE_BIN) controller/src/main/java/dev/isolato/tenancy/Workload.java
	@echo "[gate] unit + HTTP + process tests passed"

test-gate-asan: saas-bench-asan-build ## the isolato-gate tests again under ASan+UBSan (LSan on)
	@cd $(SAAS_BENCH_ASAN) && ASAN_OPTIONS=detect_leaks=1:abort_on_error=1 UBSAN_OPTIONS=print_stacktrace=1 \
	  ctest --output-on-failure -R '^gate_'
	@echo "[gate] ASan+UBSan tests passed"

test-gate-fuzz: saas-bench-asan-build ## libFuzzer: the gate's request path and tenant-key extraction, bounded
	@saas-bench/test/fuzz.sh $(SAAS_BENCH_ASAN)/gate $(GATE_FUZZ_SECONDS) $(CURDIR)/gate/fuzz fuzz_gate_request fuzz_tenant_key

test-gate-lint: gate-build ## clang-format and clang-tidy on isolato-gate (any finding fails)
	@SAAS_BENCH_JOBS=$(SAAS_BENCH_JOBS) saas-bench/test/lint.sh $(SAAS_BENCH_BUILD) gate

gate-image: gate-build ## stage the FROM-scratch image context of isolato-gate; prints its directory
	@saas-bench/image/stage.sh $(GATE_BIN) $(CURDIR)/build/gate-image $(CURDIR)/gate/image/Containerfile

gate-image-load: ## build the gate image into localkube (as $(GATE_IMAGE)); holds the cluster lock
	@ctx=$$($(MAKE) -s --no-print-directory gate-image | tail -1) && \
	  flock /tmp/isolato-cluster.lock $(LOCALKUBE) load-image --build "$$ctx" --tag $(GATE_IMAGE)

.PHONY: test-gate-bench-report bench-gate-overhead bench-gate-share
UNIT_TEST_TARGETS += test-gate-bench-report
test-gate-bench-report: ## unit tests of the gate-overhead and gate-share reports (no measuring)
	@source gatling/experiments/venv.sh && cd bench && "$$PY" -m pytest -q tests/test_gate_overhead.py tests/test_gate_share.py

# after `make experiment NAME=httpbin-alone` on the cluster (KUBECONFIG), whose class stays
bench-gate-share: openloop-build ## the gate's CPU beside the app's at the httpbin class's cut-off → docs/benchmarks-log.md
	@bench/isolato-bench gate-share

bench-gate-overhead: saas-bench-build openloop-build ## isolato-gate vs direct vs HAProxy 2.6 → docs/benchmarks-log.md
	@bench/isolato-bench gate-overhead
