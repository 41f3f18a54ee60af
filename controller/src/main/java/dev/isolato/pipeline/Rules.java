package dev.isolato.pipeline;

import java.util.Comparator;
import java.util.EnumSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

/**
 * Columbo's rule-based parameter attribution (Section 5.2): of the catalog entries that limit the
 * bottleneck step (or any step of the bottleneck stage), keep those whose value is below the number
 * of objects the workload needs processed, and raise the most limiting one to that number. The
 * predicted gain is the model's: the bottleneck's potential gain.
 */
public final class Rules {

  private final List<Parameter> catalog;

  public Rules(List<Parameter> catalog) {
    this.catalog = List.copyOf(catalog);
  }

  public static Rules kubernetes134() {
    return new Rules(ParameterCatalog.KUBERNETES_1_34);
  }

  /**
   * Every violated rule for the bottleneck, most limiting first (most rounds at the current value).
   * {@code current} holds values that differ from the defaults, by parameter id.
   */
  public List<Recommendation> candidates(
      Bottleneck b, WorkloadShape w, Hardware h, Map<String, Double> current) {
    Set<Step> steps = b.step().<Set<Step>>map(EnumSet::of).orElseGet(() -> stepsOf(b.stage()));
    return catalog.stream()
        .filter(p -> p.limit().isPresent() && p.steps().stream().anyMatch(steps::contains))
        .map(
            p -> {
              double value = current.getOrDefault(p.id(), p.limit().getAsDouble());
              int required = p.counts().required(w, h);
              return new Recommendation(
                  p,
                  value,
                  required,
                  required,
                  p.throttle().rounds(required, value),
                  b,
                  b.potentialGain());
            })
        .filter(r -> r.required() > r.currentValue())
        .sorted(Comparator.comparingDouble(Recommendation::rounds).reversed())
        .toList();
  }

  /** The most limiting candidate Isolato may apply on this cluster; the others are reported. */
  public Optional<Recommendation> recommend(
      Bottleneck b,
      WorkloadShape w,
      Hardware h,
      Map<String, Double> current,
      Parameter.Cluster cluster) {
    return candidates(b, w, h, current).stream().filter(r -> r.appliesOn(cluster)).findFirst();
  }

  private static Set<Step> stepsOf(Stage stage) {
    EnumSet<Step> steps = EnumSet.noneOf(Step.class);
    for (Step s : Step.values()) {
      if (s.stage() == stage) {
        steps.add(s);
      }
    }
    return steps;
  }
}
