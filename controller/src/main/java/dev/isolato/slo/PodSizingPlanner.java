package dev.isolato.slo;

import java.util.ArrayList;
import java.util.List;

/**
 * Plans a class that declares candidate pod sizes: {@link PodSizeChooser} picks the size from the
 * cut-offs calibrated at each, then {@code inner} plans at that size — with the fitted model only
 * when it was measured at that size (a model of other pods would mis-predict; the linear fallback
 * with the size's measured cut-off is used instead). Requests without candidates go to {@code
 * inner} unchanged. The size lines come first in the plan's explanation.
 */
public final class PodSizingPlanner implements CapacityPlanner {
  private final CapacityPlanner inner;
  private final PodSizeChooser chooser;

  public PodSizingPlanner(CapacityPlanner inner, PodSizeChooser chooser) {
    this.inner = inner;
    this.chooser = chooser;
  }

  @Override
  public CapacityPlan plan(PlanRequest request) {
    PodSizing sizing = request.sizing();
    if (sizing == null || sizing.candidates().isEmpty()) {
      return inner.plan(request);
    }
    PodSizeChooser.Choice choice =
        chooser.choose(
            sizing, request.totalSizedRps(), request.minReplicas(), request.maxReplicas());
    List<String> why = new ArrayList<>(choice.explanation());
    long fitAt = sizing.fitCpuMillis() == null ? sizing.declaredCpuMillis() : sizing.fitCpuMillis();
    ModelFit fit = request.fit();
    if (fit != null && fitAt != choice.cpuMillis()) {
      why.add(
          Text.fmt(
              "the fitted model was measured at %s pods, not %s: not used at this size",
              PodSizeChooser.millis(fitAt), PodSizeChooser.millis(choice.cpuMillis())));
      fit = null;
    }
    double cutoff =
        choice.perPodCutoffRps() != null ? choice.perPodCutoffRps() : request.perPodCutoffRps();
    CapacityPlan plan = inner.plan(request.atSize(cutoff, fit));
    why.addAll(plan.explanation());
    return new CapacityPlan(
        plan.replicas(),
        plan.admittedRps(),
        plan.capacityRps(),
        plan.method(),
        why,
        choice.cpuMillis());
  }
}
