package dev.isolato.tenancy;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class OwnershipTest {
  static final Map<String, String> OURS = Map.of("app.kubernetes.io/managed-by", "isolato");

  @Test
  void onlyTheLabelAndTheClassUidTogetherMakeAnObjectOurs() {
    assertThat(
            Ownership.conflict(
                "Namespace", "isolato-c-gold", OURS, List.of("uid-1"), "gold", "uid-1"))
        .isEmpty();
    assertThat(
            Ownership.conflict(
                "Namespace", "isolato-c-gold", Map.of(), List.of("uid-1"), "gold", "uid-1"))
        .hasValueSatisfying(
            m ->
                assertThat(m).contains("is not Isolato's", "app.kubernetes.io/managed-by=isolato"));
    assertThat(Ownership.conflict("Namespace", "isolato-c-gold", null, null, "gold", "uid-1"))
        .isPresent();
    // the controller's own namespace: Isolato's label, no class owner
    assertThat(
            Ownership.conflict("Namespace", "isolato-system", OURS, List.of(), "system", "uid-1"))
        .hasValueSatisfying(
            m -> assertThat(m).contains("not owned by SloClass system (uid uid-1)"));
    // a class re-created under the same name while its old namespace terminates
    assertThat(
            Ownership.conflict(
                "Namespace", "isolato-c-gold", OURS, List.of("uid-old"), "gold", "uid-new"))
        .isPresent();
  }
}
