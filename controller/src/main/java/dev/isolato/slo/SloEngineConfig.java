package dev.isolato.slo;

/** The engine's tunables; {@link #defaults()} are the values documented in docs/slo-engine.md. */
public record SloEngineConfig(
    DetectionPolicy detection, FitPolicy fit, PlanPolicy plan, StabilityPolicy stability) {

  public static SloEngineConfig defaults() {
    return new SloEngineConfig(
        DetectionPolicy.defaults(),
        FitPolicy.defaults(),
        PlanPolicy.defaults(),
        StabilityPolicy.defaults());
  }
}
