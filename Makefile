# Isolato: the README's two commands are `make run` and `make test`; the rest are helpers.
# Each part of the project contributes its own targets through <part>/part.mk, which append
# to BUILD_TARGETS / UNIT_TEST_TARGETS / E2E_TEST_TARGETS (and UNIT_JVM_TARGETS /
# UNIT_TEST_PREREQS, below).
SHELL := /bin/bash
.DEFAULT_GOAL := help
export ISOLATO_ROOT := $(CURDIR)
LOCALKUBE := $(CURDIR)/localkube/localkube
# Tests and scripts use the kubectl that matches localkube's Kubernetes, not whatever is on PATH.
export PATH := $(shell bash -c 'source localkube/lib/build.sh && echo $$LK_BIN_DIR'):$(PATH)
MVN := $(CURDIR)/mvnw -B -q --no-transfer-progress
BUILD_TARGETS :=
UNIT_TEST_TARGETS :=
E2E_TEST_TARGETS :=
# The unit targets that call Maven (or need what it builds): they share module target
# directories, so they run one at a time, in a lane of their own beside the other unit targets.
UNIT_JVM_TARGETS :=
# What targets of both lanes need, built once before the lanes start (two makes must not build
# the same thing at the same time).
UNIT_TEST_PREREQS :=
# The files a Java module's build reads (main sources, POMs) under the folders $(1): make decides
# from them whether a Maven build is due.
JAVA_INPUTS = pom.xml .mvn/jvm.config docs/reference/openapi.json $(shell find $(1) \( -name target -prune \) \
  -o -type f \( -path '*/src/main/*' -o -name pom.xml \) -print)

include localkube/part.mk
-include scripts/part.mk
-include saas-bench/part.mk
-include gate/part.mk
-include calibration-format/part.mk
-include controller/part.mk
-include tuner/part.mk
-include gatling/part.mk
-include helm/part.mk
-include images-test/part.mk
-include go-httpbin/part.mk
-include docs/part.mk

.PHONY: help deps build run stop test test-unit test-e2e clean
help: ## list the targets
	@grep -hE '^[a-z0-9-]+:.*## ' $(MAKEFILE_LIST) | sed 's/:.*## /\t/' | sort

deps: ## install missing Debian packages and toolchains (idempotent)
	@scripts/install-deps.sh

build: deps $(BUILD_TARGETS) ## build everything

# MODE=host (default): the controller as a host process; MODE=cluster: the Helm chart on
# localkube (controller image, 2 replicas). docs/operations.md says why host is the default.
MODE ?= host
# What `make run` serves with; the tuner's rig and the Gatling module are built by the targets
# that use them (`make tune`, `make experiment`), not before the first banner.
RUN_BUILD_TARGETS := localkube-build saas-bench-build gate-build controller-build openloop-build
run: deps $(RUN_BUILD_TARGETS) $(if $(filter cluster,$(MODE)),helm-tool) ## bring up localkube and Isolato on it (MODE=cluster: the Helm chart; Ctrl-C or `make stop` ends it)
	@MODE=$(MODE) HELM=$(HELM) scripts/run.sh

stop: ## stop what `make run` started (either MODE)
	@HELM=$(HELM) scripts/stop.sh

# The unit targets in two lanes: the Maven ones one at a time, the others beside them.
UNIT_LANES = --lane $(filter $(UNIT_JVM_TARGETS),$(UNIT_TEST_TARGETS)) \
  --lane $(filter-out $(UNIT_JVM_TARGETS),$(UNIT_TEST_TARGETS))

# The other lane ends ~10 min before the Maven one (test-controller is the long pole): it runs
# localkube's smoke test and brings the end-to-end cluster up meanwhile, so the end-to-end
# suite starts when the unit targets end. A failure takes that cluster down again.
test: deps ## every test of the project: unit, integration, end-to-end
	@$(MAKE) --no-print-directory $(UNIT_TEST_PREREQS) localkube-build
	@rc=0; MAKE="$(MAKE)" scripts/run_targets.py test-unit $(UNIT_LANES) test-e2e-smoke test-e2e-up || rc=$$?; \
	  if [ $$rc != 0 ]; then LOCALKUBE_HOME=$(TEST_LOCALKUBE_HOME) $(LOCALKUBE) down; exit $$rc; fi
	@$(MAKE) --no-print-directory test-e2e-suite
	@echo "[make test] all tests passed"

test-unit: ## unit and integration tests (no cluster needed), in two lanes side by side
	@$(MAKE) --no-print-directory $(UNIT_TEST_PREREQS)
	@MAKE="$(MAKE)" scripts/run_targets.py test-unit $(UNIT_LANES)

# End-to-end tests run on a cluster of their own state directory, purged first, so nothing a
# developer left on the `make run` cluster (classes, pods, CPU requests) can change a result.
# Only one cluster can run at a time: a running `make run` cluster is stopped (its state kept).
# The localkube smoke test cycles the cluster up and down itself; the other end-to-end tests
# share one cluster, which is taken down at the end whatever their outcome.
TEST_LOCALKUBE_HOME := /var/lib/localkube-test
.PHONY: test-e2e-smoke test-e2e-up test-e2e-suite
test-e2e: localkube-build ## end-to-end tests on localkube
	@$(MAKE) --no-print-directory test-e2e-smoke test-e2e-up
	@$(MAKE) --no-print-directory test-e2e-suite

test-e2e-smoke: localkube-build
	@$(LOCALKUBE) down >/dev/null
	@LOCALKUBE_HOME=$(TEST_LOCALKUBE_HOME) $(LOCALKUBE) down --purge >/dev/null
	@LOCALKUBE_HOME=$(TEST_LOCALKUBE_HOME) $(MAKE) --no-print-directory test-localkube-e2e
	@# the other tests start from a cluster of their own too, not the one the localkube test shaped
	@LOCALKUBE_HOME=$(TEST_LOCALKUBE_HOME) $(LOCALKUBE) down --purge >/dev/null

test-e2e-up: localkube-build
	@$(LOCALKUBE) down >/dev/null
	@LOCALKUBE_HOME=$(TEST_LOCALKUBE_HOME) $(LOCALKUBE) up

test-e2e-suite: localkube-build
	@export LOCALKUBE_HOME=$(TEST_LOCALKUBE_HOME); rc=0; \
	  MAKE="$(MAKE)" scripts/run_targets.py test-e2e --lane $(filter-out test-localkube-e2e,$(E2E_TEST_TARGETS)) || rc=$$?; \
	  $(LOCALKUBE) down; exit $$rc

clean: ## remove build outputs (not the toolchain or Kubernetes caches)
	rm -rf build target */target
