# localkube: the real single-node Kubernetes that `make run` and the end-to-end tests use.
.PHONY: localkube-build test-localkube-unit test-localkube-e2e
BUILD_TARGETS += localkube-build
UNIT_TEST_TARGETS += test-localkube-unit
E2E_TEST_TARGETS += test-localkube-e2e

localkube-build: ## build (or reuse cached) Kubernetes binaries
	@localkube/lib/build.sh

test-localkube-unit: ## localkube's pure logic (what `down` removes from iptables; cni0, node IP, kube-proxy chains only when `up` made them)
	@python3 localkube/test/test_iptables_owned.py
	@localkube/test/test_owned.sh

test-localkube-e2e: localkube-build ## localkube smoke test and host-safety test on a real cluster; the NetworkPolicy enforcer under churn (own namespaces and control plane)
	@localkube/test/smoke.sh
	@localkube/test/host-safety.sh
	@localkube/test/netpol-churn.sh
