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
 * them ({@link PodPlacement}); a class may opt out of the IO guard ({@link #ioGuard}).
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

  /**
   * False: the class's IO-heavy pods neither avoid other IO-heavy classes' nodes nor are avoided by
   * them (no io-heavy label, no anti-affinity). The guard is a required anti-affinity, so with
   * fewer nodes than IO-heavy classes one of them stays Pending; a class that would rather share a
   * node opts out. Absent: on.
   */
  @JsonPropertyDescription(
      "false: the class's IO-heavy pods neither avoid nor are avoided by other IO-heavy classes'"
          + " (the IO co-location guard off for this class). Absent: true.")
  public Boolean ioGuard;

  /** Whether the class keeps the IO guard (absent: yes). */
  public static boolean ioGuard(PlacementSpec p) {
    return p == null || p.ioGuard == null || p.ioGuard;
  }

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
