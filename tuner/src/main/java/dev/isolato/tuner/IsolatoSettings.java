package dev.isolato.tuner;

import dev.isolato.pipeline.Parameter;
import dev.isolato.pipeline.run.ClusterSettings;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * Settings of localkube and of Isolato's own controller, for the loop on Isolato's paths: a
 * localkube key goes to {@link LocalkubeSettings}; an {@code isolato.*} property restarts the
 * controller with it ({@link ControllerProcess}), which is what a change of the Helm values does on
 * a shared cluster.
 */
final class IsolatoSettings implements ClusterSettings {

  private final LocalkubeSettings localkube;
  private final ControllerProcess controller;
  private final Map<String, String> properties = new LinkedHashMap<>();

  IsolatoSettings(LocalkubeSettings localkube, ControllerProcess controller) {
    this.localkube = localkube;
    this.controller = controller;
  }

  /** Starts the controller with the settings applied so far (none at first). */
  void startController() throws InterruptedException {
    controller.start(properties);
  }

  @Override
  public Parameter.Cluster cluster() {
    return Parameter.Cluster.LOCALKUBE;
  }

  @Override
  public Map<String, Double> current() {
    Map<String, Double> out = new HashMap<>(localkube.current());
    properties.forEach((k, v) -> out.put(k, Double.parseDouble(v)));
    return out;
  }

  @Override
  public String apply(Parameter p, double value) {
    if (p.apply().where() != Parameter.Apply.Where.ISOLATO) {
      return localkube.apply(p, value);
    }
    String key = p.apply().how();
    properties.put(key, ClusterSettings.format(value));
    restart();
    return "restarted Isolato's controller with -D" + key + "=" + ClusterSettings.format(value);
  }

  /** localkube's keys back; the controller is the loop's own and stops with it. */
  @Override
  public void restore() {
    localkube.restore();
    properties.clear();
  }

  private void restart() {
    try {
      controller.start(properties);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IllegalStateException("interrupted while restarting the controller", e);
    }
  }
}
