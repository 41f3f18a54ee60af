# images-test: the saas-bench and controller images as containers (Testcontainers + JUnit 5
# through podman's Docker-compatible API, which images-test/run.sh starts and stops).
.PHONY: test-images
UNIT_TEST_TARGETS += test-images
UNIT_JVM_TARGETS += test-images

test-images: saas-bench-image controller-image-context localkube-build ## image tests: non-root, read-only root, CPU quota, SIGTERM drain, readiness, bad settings
	@images-test/run.sh $(CURDIR)/build/saas-bench-image $(CURDIR)/build/controller-image
