package dev.isolato.tuner;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.json.JsonMapper;
import dev.isolato.api.SloClassBody;
import dev.isolato.api.TenantRequest;
import dev.isolato.api.Validation;
import dev.isolato.pipeline.WorkloadShape;
import dev.isolato.pipeline.run.CpuMeter;
import dev.isolato.pipeline.run.PipelineBenchmark;
import java.time.Duration;
import org.junit.jupiter.api.Test;

/** What the path benchmark asks of Isolato's API, checked by the API's own validation. */
class IsolatoPathBenchmarkTest {
  static final JsonMapper JSON = JsonMapper.builder().findAndAddModules().build();

  static IsolatoPathBenchmark bench(IsolatoPathBenchmark.Path path) {
    return new IsolatoPathBenchmark(
        null,
        null,
        path,
        "tune",
        "localhost/isolato/saas-bench:dev",
        "isolato-system",
        CpuMeter.unavailable(),
        () -> 0,
        Duration.ofSeconds(1));
  }

  @Test
  void aTenantsPathIsJPoolsOfOnePodAndAScaleOrANewClassOneOfPNewPods() {
    assertThat(IsolatoPathBenchmark.shape(IsolatoPathBenchmark.Path.TENANTS, 50, 9))
        .isEqualTo(new WorkloadShape(50, 1, 1, IsolatoPathBenchmark.POD_CPU_MILLIS));
    assertThat(IsolatoPathBenchmark.shape(IsolatoPathBenchmark.Path.SCALE, 50, 9))
        .isEqualTo(new WorkloadShape(1, 9, 1, IsolatoPathBenchmark.POD_CPU_MILLIS));
    assertThat(IsolatoPathBenchmark.shape(IsolatoPathBenchmark.Path.CLASS, 50, 9))
        .isEqualTo(new WorkloadShape(1, 9, 1, IsolatoPathBenchmark.POD_CPU_MILLIS));
  }

  @Test
  void eachPathSaysWhatItDeploys() {
    WorkloadShape nine = IsolatoPathBenchmark.shape(IsolatoPathBenchmark.Path.CLASS, 1, 9);
    assertThat(bench(IsolatoPathBenchmark.Path.CLASS).workload(nine))
        .isEqualTo("a new class with a pool of 9 pods");
    assertThat(bench(IsolatoPathBenchmark.Path.SCALE).workload(nine))
        .isEqualTo("a pool scaled from 1 to 10 pods");
    assertThat(
            bench(IsolatoPathBenchmark.Path.TENANTS)
                .workload(IsolatoPathBenchmark.shape(IsolatoPathBenchmark.Path.TENANTS, 50, 1)))
        .isEqualTo("50 dedicated tenants onboarded at once");
    assertThat(PipelineBenchmark.deployments(new WorkloadShape(10, 10, 2)))
        .isEqualTo("10 Deployments × 10 pods, 2 containers each");
  }

  @Test
  void itsClassAndTenantsAreValidRequestsForDedicatedPools() throws Exception {
    IsolatoPathBenchmark b = bench(IsolatoPathBenchmark.Path.SCALE);
    SloClassBody cls = JSON.readValue(b.classJson("tune", 10), SloClassBody.class);
    assertThat(Validation.sloClass(cls.name(), cls.spec())).isEmpty();
    assertThat(cls.spec().allowDedicated).isTrue();
    assertThat(cls.spec().minReplicas).isEqualTo(10);
    // the model's pod CPU limit is the one the class asks for
    assertThat(JSON.readTree(b.classJson("tune", 1)).at("/spec/resources/cpu").asText())
        .isEqualTo(IsolatoPathBenchmark.POD_CPU_MILLIS + "m");
    TenantRequest t = JSON.readValue(b.tenantJson("tn-1-0"), TenantRequest.class);
    assertThat(Validation.tenant(t)).isEmpty();
    assertThat(t.isolation()).isEqualTo("dedicated");
    // the new class path's per-run classes: <class>-<n>
    SloClassBody created = JSON.readValue(b.classJson("tune-12", 9), SloClassBody.class);
    assertThat(Validation.sloClass(created.name(), created.spec())).isEmpty();
  }

  @Test
  void aScaleOrANewClassAppliesOnePoolSoIsolatosPoolSettingsAreNotProposedForIt() {
    assertThat(bench(IsolatoPathBenchmark.Path.SCALE).notExercised())
        .contains("isolato.pool-apply-threads", "isolato.reconcile-threads");
    assertThat(bench(IsolatoPathBenchmark.Path.CLASS).notExercised())
        .contains("isolato.pool-apply-threads", "isolato.reconcile-threads");
    assertThat(bench(IsolatoPathBenchmark.Path.TENANTS).notExercised())
        .doesNotContain("isolato.pool-apply-threads", "isolato.reconcile-threads")
        .contains("kubelet.maxParallelImagePulls");
  }
}
