# gatling: simulations that calibrate SLO classes (docs/gatling.md).
.PHONY: gatling-build test-gatling-unit test-gatling-simulations
BUILD_TARGETS += gatling-build
UNIT_TEST_TARGETS += test-gatling-unit test-gatling-simulations

gatling-build: ## compile the Gatling module (simulations included)
	@$(MVN) -pl gatling test-compile

test-gatling-unit: ## unit tests of the calibration statistics, JSON writer and load plans
	@$(MVN) -pl gatling test

test-gatling-simulations: ## real short Gatling runs against a loopback stub service
	@gatling/test/simulations-local.sh
