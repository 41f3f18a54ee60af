package dev.isolato.metrics;

import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.MultiGauge;
import io.micrometer.core.instrument.Tags;
import java.util.List;
import java.util.Map;

/**
 * A set of gauges of one name whose rows change over time (one per class, per class and phase): a
 * row stays registered while it exists and reads the latest value when scraped. Re-registering rows
 * (MultiGauge's overwrite) removes and re-adds their gauges, and a Prometheus scrape in between saw
 * a row twice and failed with DuplicateLabelsException (micrometer#6851; CI's /actuator/prometheus
 * answered 500).
 */
public final class LiveMultiGauge {

  private final MultiGauge gauge;
  private volatile Map<Tags, Double> values = Map.of();

  public LiveMultiGauge(String name, String description, MeterRegistry registry) {
    this.gauge = MultiGauge.builder(name).description(description).register(registry);
  }

  /** The rows from now on: new ones are added, missing ones removed, the others keep reading. */
  public synchronized void set(Map<Tags, Double> rows) {
    values = Map.copyOf(rows);
    List<MultiGauge.Row<?>> registered =
        rows.keySet().stream()
            .<MultiGauge.Row<?>>map(t -> MultiGauge.Row.of(t, t, this::value))
            .toList();
    gauge.register(registered, false);
  }

  private double value(Tags row) {
    Double v = values.get(row);
    return v == null ? Double.NaN : v;
  }
}
