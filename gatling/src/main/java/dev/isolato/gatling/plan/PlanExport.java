package dev.isolato.gatling.plan;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;
import dev.isolato.calibration.CalibrationContext;
import dev.isolato.calibration.TenantOrder;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Prints a simulation's load plan as JSON for the open-loop referee (gatling/openloop {@code
 * -plan}), so that both instruments send the same requests: {@code java -Disolato.…=… -cp …
 * dev.isolato.gatling.plan.PlanExport <Simulation>}, with the {@code isolato.*} properties the
 * simulation gets. Per class: base URL, context, warm-up requests and each step's offset, duration
 * and every tenant's rate and exact request count. A bad property fails as it fails the simulation
 * (exit 2, its message on stderr).
 */
public final class PlanExport {
  private static final ObjectMapper JSON =
      new ObjectMapper().enable(SerializationFeature.INDENT_OUTPUT);

  private PlanExport() {}

  public static void main(String[] args) throws JsonProcessingException {
    if (args.length != 1) {
      System.err.println(
          "usage: java -Disolato.<name>=<value>... "
              + PlanExport.class.getName()
              + " <LinearRampCalibration|AggressiveTenant|TenantMix|CoLocatedRamp>");
      System.exit(2);
    }
    String json;
    try {
      json = export(args[0], Settings.fromSystemProperties());
    } catch (IllegalArgumentException e) {
      System.err.println("plan export: " + e.getMessage());
      System.exit(2);
      return;
    }
    System.out.println(json);
  }

  /** The plan file of {@code simulation} with these settings (format: docs/gatling.md). */
  public static String export(String simulation, Settings s) throws JsonProcessingException {
    List<ClassPlan> plans = LoadPlans.of(simulation, s);
    double warmup = LoadPlans.warmupSeconds(s);
    Map<String, Object> out = new LinkedHashMap<>();
    out.put("simulation", simulation);
    out.put("runId", s.string("runId", null));
    out.put("body", s.string("body", "{}"));
    out.put("warmupSeconds", warmup);
    out.put("requests", s.requestMix().exported());
    List<Object> classes = new ArrayList<>();
    for (ClassPlan plan : plans) {
      Map<String, Object> c = new LinkedHashMap<>();
      c.put("sloClass", plan.sloClass());
      c.put("baseUrl", plan.baseUrl());
      c.put("context", recorded(plan.context()));
      c.put("warmupRequests", plan.warmupRequests(warmup));
      c.put("steps", plan.steps().stream().map(PlanExport::step).toList());
      classes.add(c);
    }
    out.put("classes", classes);
    return JSON.writeValueAsString(out);
  }

  /**
   * The context as the simulation records it in its calibration JSON (through the format's
   * CalibrationContext: replicas always present), so the referee writes the same fields.
   */
  static Map<?, ?> recorded(Map<String, Object> context) {
    return JSON.convertValue(JSON.convertValue(context, CalibrationContext.class), Map.class);
  }

  private static Map<String, Object> step(ClassStep step) {
    long[] counts = step.counts();
    List<Object> tenants = new ArrayList<>();
    for (int i = 0; i < counts.length; i++) {
      TenantLoad load = step.tenants().get(i);
      tenants.add(Map.of("tenantId", load.tenantId(), "rps", load.rps(), "count", counts[i]));
    }
    Map<String, Object> out = new LinkedHashMap<>();
    out.put("index", step.index());
    out.put("offsetSeconds", step.offsetSeconds());
    out.put("durationSeconds", step.durationSeconds());
    out.put("offeredRps", step.offeredRps());
    out.put("tenants", tenants);
    // the simulation's own order (indexes into tenants), so the referee sends it as is
    out.put("order", TenantOrder.interleave(counts));
    return out;
  }
}
