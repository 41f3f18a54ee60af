# calibration-format: the one definition of the calibration run (records, validator, JSON schema).
.PHONY: test-calibration-format calibration-format-install
UNIT_TEST_TARGETS += test-calibration-format
UNIT_JVM_TARGETS += test-calibration-format

# The records against the schema and the stored runs (Java), the schema against the docs'
# examples and the open-loop generator's output (Python, jsonschema).
test-calibration-format: ## the calibration format: records = schema; docs, stored and open-loop runs valid
	@$(MVN) -pl calibration-format test
	@source gatling/experiments/venv.sh && cd calibration-format && "$$PY" -m pytest -q tests

# The module (and the parent POM) in the local Maven repository, for the builds that take it from
# there instead of building it again (gatling/part.mk says why).
CALIBRATION_FORMAT_INSTALLED := build/stamps/calibration-format.installed
calibration-format-install: $(CALIBRATION_FORMAT_INSTALLED)
$(CALIBRATION_FORMAT_INSTALLED): $(call JAVA_INPUTS,calibration-format)
	@$(MVN) -pl calibration-format -am install -DskipTests
	@mkdir -p $(@D) && touch $@
