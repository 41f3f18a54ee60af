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

.PHONY: test-gatling-e2e experiment
E2E_TEST_TARGETS += test-gatling-e2e

test-gatling-e2e: ## calibration loop on localkube: simulation -> REST -> SloClass cut-off
	@gatling/test/e2e-calibration.sh

experiment: ## run an experiment on localkube: make experiment NAME=gold-bronze-alone
	@test -n "$(NAME)" || { echo "usage: make experiment NAME=<gatling/experiments/defs/NAME.sh>"; exit 2; }
	@gatling/experiments/run.sh $(NAME)
