package dev.isolato.tenancy;

import static org.assertj.core.api.Assertions.assertThat;

import dev.isolato.DocClaim;
import dev.isolato.slo.TenantDemand;
import dev.isolato.slo.TenantProfiler;
import java.time.Instant;
import java.util.List;
import org.junit.jupiter.api.Test;

class TenantProfilesTest {
  static final Instant NOW = Instant.parse("2026-11-23T12:00:00Z");
  final TenantProfiler profiler = new TenantProfiler(new TenantProfiler.Policy(1.1, 0.25, 600));

  static Tenant serving(String id, double committed, String since) {
    Tenant t = Fixtures.tenant(id, "gold", committed, TenantSpec.Isolation.shared);
    t.setStatus(new TenantStatus());
    t.getStatus().servingSince = since;
    return t;
  }

  TenantStatus.RateProfile profiled(
      Tenant t, Double offered, TenantStatus.RateProfile prev, Instant at) {
    return TenantProfiles.toStatus(
        TenantProfiles.classify(profiler, t, offered, at), prev, 600, at);
  }

  @Test
  void aTenantIsProfiledOnlyAfterAFullWindowOfService() {
    Tenant t = serving("a", 20, "2026-11-23T11:55:00Z");

    assertThat(profiled(t, 0.0, null, NOW).behaviour).isEqualTo("unknown");
    assertThat(profiled(t, 0.0, null, NOW.plusSeconds(300)).behaviour).isEqualTo("passive");
    assertThat(profiled(serving("b", 20, null), 0.0, null, NOW).behaviour)
        .as("not served")
        .isEqualTo("unknown");
    assertThat(profiled(serving("c", 20, "garbage"), 0.0, null, NOW).behaviour)
        .isEqualTo("unknown");
  }

  @Test
  void sinceCarriesOverWhileTheBehaviourStays() {
    Tenant t = serving("a", 20, "2026-11-23T10:00:00Z");
    TenantStatus.RateProfile first = profiled(t, 30.0, null, NOW);
    TenantStatus.RateProfile same = profiled(t, 31.0, first, NOW.plusSeconds(30));
    TenantStatus.RateProfile calmer = profiled(t, 20.0, same, NOW.plusSeconds(60));

    assertThat(first)
        .satisfies(
            p -> {
              assertThat(p.behaviour).isEqualTo("aggressive");
              assertThat(p.offeredRps).isEqualTo(30.0);
              assertThat(p.committedRps).isEqualTo(20.0);
              assertThat(p.windowSeconds).isEqualTo(600);
              assertThat(p.since).isEqualTo(NOW.toString());
            });
    assertThat(same.since).isEqualTo(NOW.toString());
    assertThat(calmer.behaviour).isEqualTo("abiding");
    assertThat(calmer.since).isEqualTo(NOW.plusSeconds(60).toString());
  }

  @Test
  void aStatusIsRewrittenOnAChangeOfBehaviourOrOfTheRateByATenthOfTheCommitment() {
    Tenant t = serving("a", 20, "2026-11-23T10:00:00Z");
    TenantStatus.RateProfile p = profiled(t, 10.0, null, NOW);

    assertThat(TenantProfiles.worthWriting(null, p)).isTrue();
    assertThat(TenantProfiles.worthWriting(p, profiled(t, 11.9, p, NOW.plusSeconds(30)))).isFalse();
    assertThat(TenantProfiles.worthWriting(p, profiled(t, 12.0, p, NOW.plusSeconds(30)))).isTrue();
    assertThat(TenantProfiles.worthWriting(p, profiled(t, 40.0, p, NOW.plusSeconds(30)))).isTrue();
  }

  @Test
  void eventsMarkChangesToAKnownBehaviourAggressiveAsAWarning() {
    Tenant t = serving("a", 20, "2026-11-23T10:00:00Z");
    TenantStatus.RateProfile abiding = profiled(t, 20.0, null, NOW);
    TenantStatus.RateProfile aggressive = profiled(t, 40.0, abiding, NOW);
    TenantStatus.RateProfile unknown = profiled(t, null, aggressive, NOW);

    assertThat(TenantProfiles.event(null, abiding))
        .hasValueSatisfying(
            e -> {
              assertThat(e.reason()).isEqualTo("TenantAbiding");
              assertThat(e.type()).isEqualTo("Normal");
            });
    assertThat(TenantProfiles.event(abiding, aggressive))
        .hasValueSatisfying(
            e -> {
              assertThat(e.reason()).isEqualTo("TenantAggressive");
              assertThat(e.type()).isEqualTo("Warning");
              assertThat(e.message())
                  .isEqualTo(
                      "aggressive (was abiding): offered 40.00 rps over 600 s, 200% of its commitment "
                          + "20.00 rps (aggressive above 110%)");
            });
    assertThat(TenantProfiles.event(abiding, profiled(t, 21.0, abiding, NOW))).isEmpty();
    assertThat(TenantProfiles.event(aggressive, unknown)).as("no measurement is no news").isEmpty();
  }

  @Test
  @DocClaim("docs/api.md: `passiveTenants`: `commitment` (default) or `measured`")
  @DocClaim(
      "docs/operations.md: A class with `spec.passiveTenants: measured` (default `commitment`)")
  void aClassThatOptsInPlansItsPassiveTenantsAtTheirStoredRate() {
    SloClass cls = Fixtures.sloClass("gold", 1, 4, 50);
    Tenant passive = serving("p", 20, "2026-11-23T10:00:00Z");
    passive.getStatus().profile = profiled(passive, 2.0, null, NOW);
    Tenant aggressive = serving("g", 20, "2026-11-23T10:00:00Z");
    aggressive.getStatus().profile = profiled(aggressive, 40.0, null, NOW);
    Tenant handWritten = serving("h", 20, "2026-11-23T10:00:00Z");
    handWritten.getStatus().profile = new TenantStatus.RateProfile();
    handWritten.getStatus().profile.behaviour = "sleepy";
    List<Tenant> tenants = List.of(passive, aggressive, handWritten);

    assertThat(ClassPlans.demands(cls, tenants))
        .as("default: commitments")
        .containsExactly(
            new TenantDemand("p", 20), new TenantDemand("g", 20), new TenantDemand("h", 20));
    cls.getSpec().passiveTenants = SloClassSpec.PassiveTenants.measured;
    assertThat(ClassPlans.demands(cls, tenants))
        .containsExactly(
            new TenantDemand("p", 20, 2.0), new TenantDemand("g", 20), new TenantDemand("h", 20));
  }
}
