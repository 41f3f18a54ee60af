package dev.isolato.tenancy;

import com.fasterxml.jackson.annotation.JsonPropertyDescription;
import io.fabric8.generator.annotation.Pattern;
import io.fabric8.generator.annotation.Required;
import io.fabric8.generator.annotation.Size;
import java.util.List;
import java.util.Map;

/**
 * Where a class's pods may run (issue 37 item 4): a dedicated node pool selected by labels, and the
 * taints of that pool the pods tolerate. Spread and the IO guard are not declared: every pool gets
 * them ({@link PodPlacement}).
 */
public class PlacementSpec {
  public static final int MAX_SELECTOR = 16;
  public static final int MAX_TOLERATIONS = 16;

  @Size(max = MAX_SELECTOR)
  @JsonPropertyDescription("Node labels the class's pods require (a Kubernetes nodeSelector).")
  public Map<String, String> nodeSelector;

  @Size(max = MAX_TOLERATIONS)
  @JsonPropertyDescription("Taints the class's pods tolerate (e.g. those of its node pool).")
  public List<Toleration> tolerations;

  /** A Kubernetes toleration without tolerationSeconds. */
  public static class Toleration {
    @Required
    @Pattern(PodPlacement.LABEL_KEY)
    public String key;

    public Operator operator = Operator.Equal;

    @Pattern(PodPlacement.LABEL_VALUE)
    public String value;

    @JsonPropertyDescription("Empty: every effect.")
    public Effect effect;
  }

  /** Kubernetes spelling, as in a pod's toleration. */
  public enum Operator {
    Equal,
    Exists
  }

  /** Kubernetes spelling, as in a node's taint. */
  public enum Effect {
    NoSchedule,
    PreferNoSchedule,
    NoExecute
  }
}
