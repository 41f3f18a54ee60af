package dev.isolato.calibration;

import com.fasterxml.jackson.annotation.JsonAnyGetter;
import com.fasterxml.jackson.annotation.JsonAnySetter;
import com.fasterxml.jackson.annotation.JsonInclude;
import io.fabric8.generator.annotation.Min;
import io.fabric8.generator.annotation.Pattern;
import io.fabric8.generator.annotation.Required;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Where a calibration run was measured.
 *
 * @param label free text naming the context ("alone", "homogeneous", "mix-4:1", …)
 * @param podCpu CPU request (== limit) of one pod, a positive Kubernetes quantity; optional, the
 *     pod size the run was measured at (the controller keeps a cut-off per size)
 * @param podMemory memory request (== limit) of one pod, Kubernetes quantity
 * @param replicas pods of the class during the run
 * @param colocated classes whose pods shared the node(s)
 * @param tenantMix tenants per class during the run
 * @param more any other key the producer recorded (e.g. {@code weight}), kept as written
 */
public record CalibrationContext(
    @Required @Pattern(CalibrationRun.NOT_BLANK) String label,
    @JsonInclude(JsonInclude.Include.NON_NULL) @Pattern(POSITIVE_QUANTITY) String podCpu,
    @JsonInclude(JsonInclude.Include.NON_NULL) String podMemory,
    @Required @Min(1) int replicas,
    @JsonInclude(JsonInclude.Include.NON_EMPTY) List<String> colocated,
    @JsonInclude(JsonInclude.Include.NON_EMPTY) Map<String, Integer> tenantMix,
    @JsonAnySetter @JsonAnyGetter Map<String, Object> more) {

  /**
   * A positive Kubernetes quantity such as 500m, 1 or 256Mi (zero is no resource): the one
   * definition, also of the controller's CRD and REST bounds (SpecLimits).
   */
  public static final String POSITIVE_QUANTITY =
      "^([0-9]*[1-9][0-9]*(\\.[0-9]+)?|[0-9]+\\.[0-9]*[1-9][0-9]*)(m|k|M|G|T|Ki|Mi|Gi|Ti)?$";

  public CalibrationContext {
    colocated = colocated == null ? List.of() : List.copyOf(colocated);
    tenantMix = ordered(tenantMix);
    more = ordered(more);
  }

  /** A context of the fields the engine reads only. */
  public CalibrationContext(
      String label,
      String podCpu,
      String podMemory,
      int replicas,
      List<String> colocated,
      Map<String, Integer> tenantMix) {
    this(label, podCpu, podMemory, replicas, colocated, tenantMix, Map.of());
  }

  /** An unmodifiable copy in the producer's order (the JSON a producer writes stays stable). */
  static <V> Map<String, V> ordered(Map<String, V> map) {
    return map == null ? Map.of() : Collections.unmodifiableMap(new LinkedHashMap<>(map));
  }
}
