package dev.isolato.tenancy;

import com.fasterxml.jackson.annotation.JsonPropertyDescription;
import io.fabric8.generator.annotation.Pattern;

/**
 * A class's local disk per pod (issue 37 item 3); absent fields are derived ({@link PodLimits}).
 */
public class StorageSpec {
  @Pattern(SpecLimits.POSITIVE_QUANTITY)
  @JsonPropertyDescription(
      "sizeLimit of each pod's scratch emptyDir; the container's ephemeral-storage request and"
          + " limit are this plus 64Mi for logs. Default: derived from the tenants' io profiles"
          + " (docs/security.md, Disk and PIDs).")
  public String scratch;
}
