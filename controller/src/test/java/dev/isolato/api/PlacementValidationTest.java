package dev.isolato.api;

import static org.assertj.core.api.Assertions.assertThat;

import dev.isolato.DocClaim;
import dev.isolato.calibration.FieldError;
import dev.isolato.tenancy.PlacementSpec;
import dev.isolato.tenancy.SloClassSpec;
import dev.isolato.tenancy.StorageSpec;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** spec.placement and spec.storage as the REST API checks them (400 with these fields). */
class PlacementValidationTest {
  @Test
  @DocClaim("docs/security.md: checked by the API (400 naming the field)")
  void badNodeSelectorsTolerationsAndScratchSizesAreNamed() {
    SloClassSpec s = ValidationTest.spec();
    assertThat(Validation.sloClass("gold", s)).isEmpty();
    s.placement = new PlacementSpec();
    s.placement.nodeSelector = Map.of("pool/", "gold");
    PlacementSpec.Toleration t = new PlacementSpec.Toleration();
    t.key = null;
    s.placement.tolerations = List.of(t);
    s.storage = new StorageSpec();
    s.storage.scratch = "-1Gi";
    assertThat(Validation.sloClass("gold", s))
        .extracting(FieldError::field)
        .containsExactlyInAnyOrder(
            "spec.placement.nodeSelector",
            "spec.placement.tolerations[0].key",
            "spec.storage.scratch");
  }
}
