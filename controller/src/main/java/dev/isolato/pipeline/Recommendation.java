package dev.isolato.pipeline;

/**
 * One configuration update (Section 3.1, step 4): set {@code parameter} from {@code currentValue}
 * to {@code newValue}, the count of objects the workload needs processed (Columbo's rate-limiting
 * throughput analysis), predicted to save {@code predictedGain} of the measured deployment time.
 *
 * @param rounds sequential rounds (or seconds, for rates) the current value imposes on {@code
 *     required} objects; the rule ranks candidates by it
 */
public record Recommendation(
    Parameter parameter,
    double currentValue,
    int required,
    double newValue,
    double rounds,
    Bottleneck bottleneck,
    double predictedGain) {

  public boolean appliesOn(Parameter.Cluster cluster) {
    return parameter.apply().appliesOn(cluster);
  }
}
