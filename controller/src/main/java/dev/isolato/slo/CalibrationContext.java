package dev.isolato.slo;

import io.fabric8.generator.annotation.Min;
import io.fabric8.generator.annotation.Pattern;
import io.fabric8.generator.annotation.Required;
import java.util.List;
import java.util.Map;

/**
 * Where a calibration run was measured.
 *
 * @param label free text naming the context ("alone", "homogeneous", "mix-4:1", …)
 * @param podCpu CPU request (== limit) of one pod, Kubernetes quantity
 * @param podMemory memory request (== limit) of one pod, Kubernetes quantity
 * @param replicas pods of the class during the run
 * @param colocated classes whose pods shared the node(s)
 * @param tenantMix tenants per class during the run
 */
public record CalibrationContext(
    @Required @Pattern(CalibrationRun.NOT_BLANK) String label,
    String podCpu,
    String podMemory,
    @Required @Min(1) int replicas,
    List<String> colocated,
    Map<String, Integer> tenantMix) {

  public CalibrationContext {
    colocated = colocated == null ? List.of() : List.copyOf(colocated);
    tenantMix = tenantMix == null ? Map.of() : Map.copyOf(tenantMix);
  }
}
