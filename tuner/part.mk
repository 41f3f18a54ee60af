# tuner: the deploy-pipeline tuning rig for localkube (`make tune`, the path tracer of
# bench/sh/tenants-bench.sh): TuneMain and PathTraceMain on the controller's plain jar.
# Not part of the product: the controller jar holds none of it (ControllerJarIT).
.PHONY: tuner-build
BUILD_TARGETS += tuner-build

# Like controller-build (controller/part.mk): Maven runs only when a source changed.
TUNER_JAR := tuner/target/isolato-tuner.jar
tuner-build: $(TUNER_JAR) ## build tuner/target/isolato-tuner.jar (make tune's rig) and the controller jar it runs
$(TUNER_JAR): $(CONTROLLER_INPUTS) $(call JAVA_INPUTS,tuner)
	@$(MVN) -pl tuner -am -DskipTests package
	@# Spring Boot's repackaging dates the controller jar at project.build.outputTimestamp
	@touch $@ $(CONTROLLER_JAR)
