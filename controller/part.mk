# controller: the Isolato Spring Boot service (REST API + reconcilers).
.PHONY: controller-build test-controller test-controller-e2e bench-controller
BUILD_TARGETS += controller-build
UNIT_TEST_TARGETS += test-controller
E2E_TEST_TARGETS += test-controller-e2e

controller-build: ## build controller/target/isolato-controller.jar
	@$(MVN) -pl controller -DskipTests package

test-controller: localkube-build ## controller unit tests + integration tests on a real kube-apiserver/etcd
	@$(MVN) -pl controller verify

test-controller-e2e: controller-build ## controller end-to-end on localkube (gold/bronze served, kill/restart)
	@controller/test/e2e.sh

bench-controller: controller-build ## onboarding latency / burst benchmark on localkube → docs/BENCHMARKS.md
	@controller/bench/onboarding.sh
