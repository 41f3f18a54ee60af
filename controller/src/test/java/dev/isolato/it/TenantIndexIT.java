package dev.isolato.it;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.isolato.DocClaim;
import dev.isolato.api.TenantIndex;
import dev.isolato.config.ClusterBootstrapped;
import dev.isolato.config.IsolatoProperties;
import java.time.Duration;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;

/**
 * The API's watched copy of the tenants starts with the replica, not with its first POST: a standby
 * that takes the lease over must not list every tenant while its first onboarding waits.
 */
class TenantIndexIT extends ItBase {
  @Autowired IsolatoProperties props;

  @Test
  @DocClaim("docs/install.md: Every replica keeps the API's watched copy of the tenants")
  void theCopyWatchesOnceTheClusterIsBootstrappedBeforeAnyPost() {
    TenantIndex index = new TenantIndex(kube, props);
    try {
      // mayHave is false only for an id a running watch has not seen
      assertThat(index.mayHave("no-such-tenant")).as("no watch before the event").isTrue();
      index.onBootstrapped(new ClusterBootstrapped());
      await()
          .atMost(Duration.ofSeconds(30))
          .untilAsserted(() -> assertThat(index.mayHave("no-such-tenant")).isFalse());
    } finally {
      index.destroy();
    }
  }
}
