# localkube: the real single-node Kubernetes that `make run` and the end-to-end tests use.
.PHONY: localkube-build test-localkube-e2e
BUILD_TARGETS += localkube-build
E2E_TEST_TARGETS += test-localkube-e2e

localkube-build: ## build (or reuse cached) Kubernetes binaries
	@localkube/lib/build.sh

test-localkube-e2e: localkube-build ## localkube smoke test on a real cluster
	@localkube/test/smoke.sh
