# controller: the Isolato Spring Boot service (REST API + reconcilers).
.PHONY: controller-build test-controller test-controller-e2e bench-controller schemathesis
BUILD_TARGETS += controller-build
UNIT_TEST_TARGETS += test-controller
E2E_TEST_TARGETS += test-controller-e2e

controller-build: ## build controller/target/isolato-controller.jar
	@$(MVN) -pl controller -am -DskipTests package

test-controller: localkube-build schemathesis ## controller unit tests + integration tests on a real kube-apiserver/etcd, API fuzzing
	@$(MVN) -pl controller -am verify -Disolato.schemathesis=$(SCHEMATHESIS)

# The API fuzzer (controller/src/test/java/dev/isolato/it/FuzzIT.java), pinned, in a venv of its own.
SCHEMATHESIS := $(CURDIR)/build/schemathesis/bin/st
schemathesis: $(SCHEMATHESIS) ## install the pinned schemathesis into build/schemathesis
$(SCHEMATHESIS): controller/test/requirements-fuzz.txt
	@python3 -m venv build/schemathesis
	@build/schemathesis/bin/pip install -q --disable-pip-version-check -r controller/test/requirements-fuzz.txt
	@touch $@

test-controller-e2e: controller-build ## controller end-to-end on localkube (gold/bronze served, kill/restart)
	@controller/test/e2e.sh

bench-controller: controller-build ## onboarding latency / burst benchmark on localkube → docs/BENCHMARKS.md
	@controller/bench/onboarding.sh
