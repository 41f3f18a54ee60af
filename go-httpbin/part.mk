# go-httpbin: a third-party HTTP service as an SLO class's workload (issue 33; docs/bring-your-service.md).
.PHONY: go-httpbin-image test-httpbin-e2e
E2E_TEST_TARGETS += test-httpbin-e2e

go-httpbin-image: ## build go-httpbin (pinned, Go module proxy) and stage its FROM-scratch image context; prints its directory
	@go-httpbin/stage.sh $(CURDIR)/build/go-httpbin-image

test-httpbin-e2e: controller-build openloop-build gate-image ## go-httpbin as a class's workload on localkube: 429 for the tenant at 3x, the other's p95 holds, a replica added from the gate's metrics, offboarding
	@controller/test/httpbin-e2e.sh
