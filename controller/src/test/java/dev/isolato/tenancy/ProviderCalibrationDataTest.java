package dev.isolato.tenancy;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.isolato.calibration.CalibrationRun;
import dev.isolato.slo.CapacityPlan;
import dev.isolato.slo.SloEngine;
import dev.isolato.slo.TenantDemand;
import io.fabric8.kubernetes.api.model.ObjectMetaBuilder;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * The calibration of a service nobody here wrote, as stored by {@code make experiment
 * NAME=httpbin-alone INSTRUMENT=both} (results/httpbin-alone/): go-httpbin behind the isolato-gate,
 * ramped through the gate with a GET/POST mix by both instruments. The stored runs give the
 * cut-offs the controller answered, the class as the controller then stored it carries the measured
 * per-pod cut-off, and the planner sizes the class's pool from it, not from the declared one.
 */
class ProviderCalibrationDataTest {
  private static final Path DIR = Path.of("..", "results", "httpbin-alone");
  private static final ObjectMapper JSON =
      new ObjectMapper().configure(DeserializationFeature.FAIL_ON_UNKNOWN_PROPERTIES, false);
  private final SloEngine engine = SloEngine.withDefaults();

  private static JsonNode read(String file) throws IOException {
    return JSON.readTree(DIR.resolve(file).toFile());
  }

  /** The class as GET /api/v1/slo-classes/httpbin answered after the runs were posted. */
  private static SloClass storedClass() throws IOException {
    JsonNode stored = read("httpbin.status.json");
    SloClass cls = new SloClass();
    cls.setMetadata(new ObjectMetaBuilder().withName(stored.get("name").asText()).build());
    cls.setSpec(JSON.treeToValue(stored.get("spec"), SloClassSpec.class));
    cls.setStatus(JSON.treeToValue(stored.get("status"), SloClassStatus.class));
    return cls;
  }

  @Test
  void eachStoredRunGivesTheCutoffTheControllerAnswered() throws IOException {
    SloClass cls = storedClass();
    int posted = 0;
    for (String instrument : List.of("httpbin", "httpbin.openloop")) {
      Path answer = DIR.resolve(instrument + ".response.json");
      if (!Files.exists(answer)) {
        continue; // a contaminated run is stored, not posted
      }
      CalibrationRun run =
          JSON.readValue(DIR.resolve(instrument + ".json").toFile(), CalibrationRun.class);
      double cutoff = read(instrument + ".response.json").at("/cutoff/cutoffRps").asDouble();
      assertThat(engine.ingest(run, CalibrationStatusMapper.target(cls)).perPodCutoffRps())
          .as(instrument)
          .isCloseTo(cutoff, within(1e-9));
      posted++;
    }
    assertThat(posted).isPositive();
  }

  @Test
  void thePlannerSizesTheProvidersPoolFromTheMeasuredCutoff() throws IOException {
    SloClass cls = storedClass();
    assertThat(Workload.isProvided(cls.getSpec())).isTrue();
    assertThat(Workload.imageOf(cls.getSpec())).isEqualTo("localhost/isolato/go-httpbin:dev");
    double measured = cls.getStatus().perPodCutoffRps;
    double declared = cls.getSpec().perPodCutoffRps;
    assertThat(measured).isPositive().isNotEqualTo(declared);

    cls.getSpec().maxReplicas = 8; // the stored class is pinned to the one pod it measured
    double load = 2.5 * measured; // two tenants, 1.25 pods' worth each
    List<TenantDemand> tenants =
        List.of(new TenantDemand("a", load / 2), new TenantDemand("b", load / 2));
    var request = ClassPlans.request(cls, tenants);
    assertThat(request.perPodCutoffRps()).isEqualTo(measured);
    CapacityPlan plan = engine.plan(request);
    assertThat(plan.replicas()).isBetween(3, 4); // 2.5 pods' load with 10 % headroom

    // the same tenants planned on the declared cut-off (no calibration) get another pool
    cls.setStatus(null);
    int onDeclared = engine.plan(ClassPlans.request(cls, tenants)).replicas();
    assertThat(onDeclared).isEqualTo((int) Math.ceil(1.1 * load / declared));
    assertThat(onDeclared).isNotEqualTo(plan.replicas());
  }
}
