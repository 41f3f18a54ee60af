package dev.isolato.slo;

import java.util.ArrayList;
import java.util.List;

/**
 * The outcome of fitting a {@link LatencyModel} form to calibration steps, trusted or refused.
 *
 * @param status {@code trusted} or {@code refused}
 * @param form the model form fitted: {@value UslModel#FORM} or {@value QueueModel#FORM}
 * @param model the fitted parameters; null when fitting was not attempted (too few points)
 * @param percentile the latency percentile the model predicts
 * @param pointsUsed healthy steps the fit used
 * @param pointsExcluded steps left out: errors or saturation (see {@link DetectionPolicy}) or
 *     outliers (listed in {@code notes})
 * @param sigmaFitted whether σ was fitted (steps at ≥ 2 replica counts) or assumed
 * @param rSquared coefficient of determination of the fit (0 when not fitted)
 * @param rmseMs root mean square residual (ms; 0 when not fitted)
 * @param maxMeasuredLoadRps highest effective per-replica load measured; the planner refuses to
 *     extrapolate far beyond it
 * @param residuals per step used
 * @param reasons why the fit was refused; empty when trusted
 * @param notes caveats (σ assumed, outliers left out)
 */
public record ModelFit(
    String status,
    String form,
    LatencyModel model,
    double percentile,
    int pointsUsed,
    int pointsExcluded,
    boolean sigmaFitted,
    double rSquared,
    double rmseMs,
    double maxMeasuredLoadRps,
    List<Residual> residuals,
    List<String> reasons,
    List<String> notes) {

  public static final String TRUSTED = "trusted";
  public static final String REFUSED = "refused";

  public ModelFit {
    if (model != null && !model.form().equals(form)) {
      throw new IllegalArgumentException("form " + form + " but a " + model.form() + " model");
    }
    residuals = List.copyOf(residuals);
    reasons = List.copyOf(reasons);
    notes = List.copyOf(notes);
  }

  /** This fit with {@code note} added to its notes. */
  public ModelFit withNote(String note) {
    List<String> more = new ArrayList<>(notes);
    more.add(note);
    return new ModelFit(
        status,
        form,
        model,
        percentile,
        pointsUsed,
        pointsExcluded,
        sigmaFitted,
        rSquared,
        rmseMs,
        maxMeasuredLoadRps,
        residuals,
        reasons,
        more);
  }

  public boolean trusted() {
    return TRUSTED.equals(status) && model != null;
  }
}
