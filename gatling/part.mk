# gatling: simulations that calibrate SLO classes, and the experiment runner (docs/gatling.md).
.PHONY: gatling-build test-gatling-unit test-gatling-simulations test-python openloop-build test-openloop
BUILD_TARGETS += gatling-build openloop-build
UNIT_TEST_TARGETS += test-gatling-unit test-gatling-simulations test-python test-openloop
UNIT_TEST_PREREQS += python-venv openloop-build calibration-format-install

# The Gatling module's builds take calibration-format from the local Maven repository
# (calibration-format-install), not from the reactor (-am): so they never write
# calibration-format/target, and in `make test` they run in the lane beside the Maven targets
# (UNIT_JVM_TARGETS) that do. gatling/test/lib.sh does the same for the scripts.
GATLING_MVN := $(MVN) -pl gatling

gatling-build: calibration-format-install ## compile the Gatling module (simulations included)
	@$(GATLING_MVN) test-compile

test-gatling-unit: calibration-format-install ## unit tests of the calibration statistics, JSON writer and load plans
	@$(GATLING_MVN) test

# The independent open-loop generator (Go, stdlib only): the referee of the Gatling calibrations.
OPENLOOP := build/openloop
openloop-build: ## build the open-loop load generator into build/openloop
	@cd gatling/openloop && go build -trimpath -o $(CURDIR)/$(OPENLOOP) .

# The same referee as an image: the generator Job of in-context calibrations (issue 34).
.PHONY: openloop-image
openloop-image: ## build the referee statically and stage its FROM-scratch image context; prints its directory
	@gatling/openloop/image/stage.sh $(CURDIR)/build/openloop-image

test-openloop: ## go vet + go test of the open-loop generator (httptest services of known service time)
	@cd gatling/openloop && test -z "$$(gofmt -l .)" || { echo "gofmt: $$(gofmt -l .)"; exit 1; } \
	  && go vet ./... && go test -count=1 ./...

test-gatling-simulations: calibration-format-install ## real short Gatling runs of every simulation against a loopback stub service
	@gatling/test/simulations-local.sh

# ruff (pinned in gatling/experiments/requirements-dev.txt, settings in ruff.toml) covers every
# Python file of the repository; pytest the experiment runner.
test-python: ## ruff check + format check on all Python, pytest of the experiment runner and of scripts/
	@source gatling/experiments/venv.sh && "$$PY" -m ruff check . && "$$PY" -m ruff format --check . \
	  && "$$PY" -m pytest -q scripts/tests && cd gatling/experiments && "$$PY" -m pytest -q tests

.PHONY: python-venv
python-venv: ## make the pinned Python venv (gatling/experiments/venv.sh) if it is missing or stale
	@source gatling/experiments/venv.sh

.PHONY: test-gatling-e2e experiment
E2E_TEST_TARGETS += test-gatling-e2e

test-gatling-e2e: ## calibration loop on localkube: simulation -> REST -> SloClass cut-off
	@gatling/test/e2e-calibration.sh

# Parameters (REPLICAS=2, MIX=1:3, ...) and REPLACE=1 reach the runner as environment variables.
experiment: openloop-build ## run an experiment with `make run` up: make experiment NAME=gold-alone (no NAME: the list)
	@gatling/experiments/runner.sh run $(NAME)
