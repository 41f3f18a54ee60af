# tuner: the deploy-pipeline tuning rig for localkube (`make tune`, the path tracer of
# bench/sh/tenants-bench.sh): TuneMain and PathTraceMain on the controller's plain jar.
# Not part of the product: the controller jar holds none of it (ControllerJarIT).
.PHONY: tuner-build
BUILD_TARGETS += tuner-build

tuner-build: ## build tuner/target/isolato-tuner.jar (make tune's rig) and the controller jar it runs
	@$(MVN) -pl tuner -am -DskipTests package
