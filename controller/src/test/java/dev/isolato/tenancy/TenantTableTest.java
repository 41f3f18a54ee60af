package dev.isolato.tenancy;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.isolato.DocClaim;
import dev.isolato.slo.CapacityPlan;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class TenantTableTest {
  static final SloClassSpec.Admission ENFORCE = SloClassSpec.Admission.enforce;
  final ObjectMapper json = new ObjectMapper();

  @Test
  @DocClaim("docs/api.md: (default: one second of the committed rate)")
  void entriesCarryProfileAdmittedRateAndBurst() throws Exception {
    var a = Fixtures.tenant("acme", "gold", 12.5, TenantSpec.Isolation.shared);
    var plan = new CapacityPlan(1, Map.of("acme", 10.0), 50, "m", List.of());
    JsonNode t = json.readTree(TenantTable.json(List.of(a), plan, ENFORCE));
    assertThat(t.at("/tenants/acme/rateRps").asDouble()).isEqualTo(10.0);
    assertThat(t.at("/tenants/acme/burst").asDouble()).isEqualTo(13.0);
    assertThat(t.at("/tenants/acme/profile/cpu").asInt()).isEqualTo(3);
    assertThat(t.at("/tenants/acme/profile/memory").asInt()).isEqualTo(64);
    assertThat(t.at("/tenants/acme/profile/fsync").asBoolean()).isFalse();
    assertThat(t.get("version").asText()).hasSize(16);
  }

  @Test
  void theSameTenantsGiveByteIdenticalJsonAndOtherTenantsAnotherVersion() throws Exception {
    var a = Fixtures.tenant("a", "gold", 1, TenantSpec.Isolation.shared);
    var b = Fixtures.tenant("b", "gold", 2, TenantSpec.Isolation.shared);
    var plan = new CapacityPlan(1, Map.of(), 50, "m", List.of());
    String one = TenantTable.json(List.of(a, b), plan, ENFORCE);
    assertThat(TenantTable.json(List.of(b, a), plan, ENFORCE)).isEqualTo(one);
    String other = TenantTable.json(List.of(a), plan, ENFORCE);
    assertThat(json.readTree(other).get("version")).isNotEqualTo(json.readTree(one).get("version"));
  }

  @Test
  void thePodsGetThePoolsGenerationAsTheTablesRevision() throws Exception {
    var a = Fixtures.tenant("a", "gold", 1, TenantSpec.Isolation.shared);
    String table =
        TenantTable.json(List.of(a), new CapacityPlan(1, Map.of(), 50, "m", List.of()), ENFORCE);
    JsonNode served = json.readTree(TenantTable.withRevision(table, 17L));
    assertThat(served.get("revision").asLong()).isEqualTo(17);
    assertThat(served.get("version")).isEqualTo(json.readTree(table).get("version"));
    assertThat(served.get("tenants")).isEqualTo(json.readTree(table).get("tenants"));
    assertThat(TenantTable.version(TenantTable.withRevision(table, 17L)))
        .isEqualTo(TenantTable.version(table));
    assertThat(TenantTable.withRevision(table, null)).as("no generation yet").isEqualTo(table);
  }

  @Test
  void admissionOffLeavesTenantsWithoutRateLimit() throws Exception {
    var a = Fixtures.tenant("acme", "gold", 12.5, TenantSpec.Isolation.shared);
    var plan = new CapacityPlan(1, Map.of("acme", 10.0), 50, "m", List.of());
    String off = TenantTable.json(List.of(a), plan, SloClassSpec.Admission.off);
    JsonNode t = json.readTree(off);
    assertThat(t.at("/tenants/acme").has("rateRps")).isFalse();
    assertThat(t.at("/tenants/acme").has("burst")).isFalse();
    assertThat(t.at("/tenants/acme/profile/cpu").asInt()).isEqualTo(3);
    assertThat(t.get("version"))
        .as("switching admission is a new table version")
        .isNotEqualTo(json.readTree(TenantTable.json(List.of(a), plan, ENFORCE)).get("version"));
  }
}
