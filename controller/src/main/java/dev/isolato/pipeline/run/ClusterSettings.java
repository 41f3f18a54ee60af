package dev.isolato.pipeline.run;

import dev.isolato.pipeline.Parameter;
import java.util.Map;

/**
 * Where the loop's recommendations go. On localkube the control plane's settings are changed (the
 * tuner's {@code LocalkubeSettings}, tuner/); on a shared cluster Isolato applies only what it owns
 * and reports the rest ({@link #shared()}).
 */
public interface ClusterSettings {

  Parameter.Cluster cluster();

  /** Current values of the catalog's settings, by parameter id, where they can be read. */
  Map<String, Double> current();

  /** Sets one parameter and restarts only the component concerned; returns what was done. */
  String apply(Parameter p, double value);

  /** Undoes what {@link #apply} changed (for reduced runs that must leave the cluster as found). */
  void restore();

  /** A setting's value as the cluster's configuration takes it: integers without a fraction. */
  static String format(double value) {
    return value == Math.rint(value) ? Long.toString((long) value) : Double.toString(value);
  }

  /** A shared cluster: the control plane is the admin's; Isolato's settings apply on restart. */
  static ClusterSettings shared() {
    return new ClusterSettings() {
      @Override
      public Parameter.Cluster cluster() {
        return Parameter.Cluster.SHARED;
      }

      @Override
      public Map<String, Double> current() {
        return Map.of();
      }

      @Override
      public String apply(Parameter p, double value) {
        // Isolato's own settings are read at start-up: the loop records the value to set
        return "set "
            + p.apply().how()
            + "="
            + format(value)
            + " in the controller's configuration (Helm values) and restart it";
      }

      @Override
      public void restore() {}
    };
  }
}
