package dev.isolato.scaling;

import dev.isolato.metrics.ServiceMetrics;
import dev.isolato.tenancy.KedaSettings;
import dev.isolato.tenancy.PoolObjects;
import dev.isolato.tenancy.SloClass;
import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.api.model.ObjectMetaBuilder;
import io.fabric8.kubernetes.api.model.autoscaling.v2.HorizontalPodAutoscaler;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * Pure: a pool's KEDA ScaledObject in place of its CPU HorizontalPodAutoscaler. It keeps the HPA's
 * name, labels, owner, target and bounds (minReplicaCount = the planner's replicas) and scales on
 * what the calibration measured instead of CPU:
 *
 * <ul>
 *   <li>{@code rate}: the pool's request rate, as an average per pod, against the per-pod cut-off ×
 *       pivot ({@link ScaleThreshold});
 *   <li>{@code latency}: the pool's p95 (the class percentile) against the class target: the HPA
 *       asks for current × p95 / target pods.
 * </ul>
 *
 * The HPA KEDA creates takes the larger of the two.
 */
public final class ScaledObjects {
  public static final String API_VERSION = "keda.sh/v1alpha1";
  public static final String KIND = "ScaledObject";

  private ScaledObjects() {}

  /** The pool's ScaledObject: what its HorizontalPodAutoscaler would be, on KEDA's triggers. */
  public static GenericKubernetesResource forPool(PoolObjects.Input in, KedaSettings s) {
    return forPool(in, in.plan().replicas(), s);
  }

  /** The same with {@code min} as its floor (the plan, or a direct-path raise that holds). */
  public static GenericKubernetesResource forPool(PoolObjects.Input in, int min, KedaSettings s) {
    return of((HorizontalPodAutoscaler) PoolObjects.autoscaler(in, min), in.sloClass(), s);
  }

  static GenericKubernetesResource of(HorizontalPodAutoscaler hpa, SloClass cls, KedaSettings s) {
    String ns = hpa.getMetadata().getNamespace();
    Map<String, Object> spec = new LinkedHashMap<>();
    spec.put(
        "scaleTargetRef",
        Map.of(
            "apiVersion",
            hpa.getSpec().getScaleTargetRef().getApiVersion(),
            "kind",
            hpa.getSpec().getScaleTargetRef().getKind(),
            "name",
            hpa.getSpec().getScaleTargetRef().getName()));
    spec.put("pollingInterval", s.pollingSeconds());
    spec.put("cooldownPeriod", s.cooldownSeconds());
    spec.put("minReplicaCount", hpa.getSpec().getMinReplicas());
    spec.put("maxReplicaCount", hpa.getSpec().getMaxReplicas());
    spec.put(
        "advanced",
        Map.of(
            "horizontalPodAutoscalerConfig",
            Map.of(
                "behavior",
                Map.of(
                    // up at once, by as many pods as the metric asks for; down only after the
                    // window
                    "scaleUp",
                        Map.of(
                            "stabilizationWindowSeconds",
                            0,
                            "selectPolicy",
                            "Max",
                            "policies",
                            List.of(Map.of("type", "Percent", "value", 900, "periodSeconds", 1))),
                    "scaleDown",
                        Map.of("stabilizationWindowSeconds", s.scaleDownStabilizationSeconds())))));
    spec.put(
        "triggers",
        List.of(
            trigger(
                "rate",
                "AverageValue",
                s,
                rateQuery(ns, s.rateWindowSeconds()),
                ScaleThreshold.perPodRps(cls)),
            trigger(
                "latency",
                "Value",
                s,
                latencyQuery(ns, cls.getSpec().latency.percentile, s.rateWindowSeconds()),
                cls.getSpec().latency.targetMs / 1000.0)));
    GenericKubernetesResource so = new GenericKubernetesResource();
    so.setApiVersion(API_VERSION);
    so.setKind(KIND);
    so.setMetadata(
        new ObjectMetaBuilder()
            .withName(hpa.getMetadata().getName())
            .withNamespace(ns)
            .withLabels(hpa.getMetadata().getLabels())
            .withOwnerReferences(hpa.getMetadata().getOwnerReferences())
            .build());
    so.setAdditionalProperty("spec", spec);
    return so;
  }

  private static Map<String, Object> trigger(
      String name, String metricType, KedaSettings s, String query, double threshold) {
    return Map.of(
        "type",
        "prometheus",
        "name",
        name,
        "metricType",
        metricType,
        "metadata",
        Map.of(
            "serverAddress",
            s.prometheusUrl(),
            "query",
            query,
            "threshold",
            number(threshold),
            // no sample (no traffic, a pod not yet scraped) counts as 0, not as an error
            "ignoreNullValues",
            "true"));
  }

  /** Requests per second the pool's pods answered, any status. */
  public static String rateQuery(String namespace, int windowSeconds) {
    return "sum(rate("
        + ServiceMetrics.REQUESTS
        + "{namespace=\""
        + namespace
        + "\"}["
        + windowSeconds
        + "s]))";
  }

  /** The pool's latency percentile in seconds; 0 without traffic (histogram_quantile gives NaN). */
  public static String latencyQuery(String namespace, double percentile, int windowSeconds) {
    return "(histogram_quantile("
        + number(percentile / 100.0)
        + ", sum by (le) (rate("
        + ServiceMetrics.DURATION_BUCKET
        + "{namespace=\""
        + namespace
        + "\"}["
        + windowSeconds
        + "s]))) >= 0) or vector(0)";
  }

  /** A threshold as KEDA reads it: a plain decimal string, no exponent. */
  static String number(double v) {
    String s = String.format(Locale.ROOT, "%.6f", v);
    return s.contains(".") ? s.replaceAll("0+$", "").replaceAll("\\.$", "") : s;
  }
}
