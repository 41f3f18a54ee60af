package dev.isolato.it;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.isolato.DocClaim;
import dev.isolato.tenancy.SloClass;
import dev.isolato.tenancy.SloPool;
import dev.isolato.tenancy.Tenant;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;

/**
 * {@code kubectl get sloclass,tenant,slopool -A} tells an operator the state at a glance: the
 * printer columns of a reconciled class, tenant and pool, read with the kubectl of the API server's
 * version, are there and carry the values the controller wrote, none {@code <none>}.
 */
class PrinterColumnsIT extends ItBase {
  private static final Pattern HEADER_CELL = Pattern.compile("\\S+");

  @Test
  @Order(330)
  @DocClaim("docs/troubleshooting.md: A reconciled object shows no `<none>` in these columns")
  void kubectlGetShowsTheClassAndTenantStateAtAGlance() throws Exception {
    assertThat(api("POST", "/api/v1/slo-classes", classJson("cols", 4, 40, false)).status())
        .isEqualTo(201);
    assertThat(api("POST", "/api/v1/tenants", tenantJson("cols-1", "cols", 30, "shared")).status())
        .isEqualTo(201);
    assertThat(api("POST", "/api/v1/tenants", tenantJson("cols-2", "cols", 70, "shared")).status())
        .isEqualTo(201);
    await()
        .atMost(Duration.ofSeconds(30))
        .until(
            () -> {
              SloClass c = kube.resources(SloClass.class).withName("cols").get();
              Tenant t = kube.resources(Tenant.class).inNamespace(NS).withName("cols-2").get();
              return c.getStatus() != null
                  && c.getStatus().plan != null
                  && c.getStatus().tenants != null
                  && c.getStatus().tenants == 2
                  && t.getStatus() != null
                  && t.getStatus().admittedRps != null;
            });
    SloClass cls = kube.resources(SloClass.class).withName("cols").get();
    Tenant tenant = kube.resources(Tenant.class).inNamespace(NS).withName("cols-2").get();

    await()
        .atMost(Duration.ofSeconds(30))
        .until(
            () -> {
              SloPool p = kube.resources(SloPool.class).withName("isolato-c-cols").get();
              return p != null
                  && p.getStatus() != null
                  && p.getStatus().replicas == cls.getStatus().plan.replicas;
            });

    Map<String, Map<String, String>> rows = rows(kubectl("get", "sloclass,tenant", "-A"));
    // (cluster-scoped alone: with -A its row would start with an empty NAMESPACE cell)
    Map<String, Map<String, String>> pools = rows(kubectl("get", "slopool"));

    assertThat(cls.getStatus().plan.replicas)
        .as("100 req/s committed over 40 req/s per pod")
        .isGreaterThan(1);
    assertThat(rows.get("sloclass.isolato.dev/cols"))
        .as("kubectl get sloclass row of cols")
        .containsAllEntriesOf(
            Map.of(
                "TARGETMS",
                "50",
                "CUTOFFRPS",
                "40",
                "REPLICAS",
                String.valueOf(cls.getStatus().plan.replicas),
                "TENANTS",
                "2",
                "READY",
                "True",
                "SLOHELD",
                "Unknown",
                "CALIBRATED",
                "False"));
    assertThat(rows.get("tenant.isolato.dev/cols-2"))
        .as("kubectl get tenant row of cols-2")
        .containsAllEntriesOf(
            Map.of(
                "NAMESPACE",
                NS,
                "CLASS",
                "cols",
                "PHASE",
                tenant.getStatus().phase,
                "COMMITTEDRPS",
                "70",
                "ADMITTEDRPS",
                number(tenant.getStatus().admittedRps)));
    assertThat(pools.get("isolato-c-cols"))
        .as("kubectl get slopool row of the class's shared pool")
        .containsAllEntriesOf(
            Map.of(
                "CLASS",
                "cols",
                "CUTOFFRPS",
                "40",
                "REPLICAS",
                String.valueOf(cls.getStatus().plan.replicas),
                "READYREPLICAS",
                "0",
                "READY",
                "True"));
    for (String name :
        List.of(
            "sloclass.isolato.dev/cols",
            "tenant.isolato.dev/cols-1",
            "tenant.isolato.dev/cols-2")) {
      assertThat(rows.get(name).values()).as("columns of %s", name).doesNotContain("<none>", "");
    }
    assertThat(pools.get("isolato-c-cols").values())
        .as("columns of the pool")
        .doesNotContain("<none>", "");
  }

  /**
   * Every row of every table kubectl printed, by NAME, as column header → cell. Cells are cut at
   * the columns' header positions: an empty cell (another test's object, not yet reconciled) stays
   * an empty cell of its column instead of shifting the others.
   */
  static Map<String, Map<String, String>> rows(String output) {
    Map<String, Map<String, String>> rows = new LinkedHashMap<>();
    List<String> header = null;
    List<Integer> starts = new ArrayList<>();
    for (String line : output.split("\n", -1)) {
      if (line.isBlank()) {
        header = null;
        continue;
      }
      if (header == null) {
        header = new ArrayList<>();
        starts.clear();
        Matcher m = HEADER_CELL.matcher(line);
        while (m.find()) {
          header.add(m.group());
          starts.add(m.start());
        }
        assertThat(header).as("kubectl table header").contains("NAME");
        continue;
      }
      Map<String, String> row = new LinkedHashMap<>();
      for (int i = 0; i < header.size(); i++) {
        int from = Math.min(starts.get(i), line.length());
        int to = i + 1 < starts.size() ? Math.min(starts.get(i + 1), line.length()) : line.length();
        row.put(header.get(i), line.substring(from, to).trim());
      }
      rows.put(row.get("NAME"), row);
    }
    return rows;
  }

  private static String number(double v) {
    return v == Math.rint(v) ? String.valueOf((long) v) : String.valueOf(v);
  }

  private static String kubectl(String... args) throws IOException, InterruptedException {
    List<String> cmd =
        new ArrayList<>(
            List.of(
                RealApiServer.kubectl().toString(),
                "--kubeconfig",
                RealApiServer.kubeconfig().toString()));
    cmd.addAll(List.of(args));
    Process p = new ProcessBuilder(cmd).redirectErrorStream(true).start();
    assertThat(p.waitFor(30, TimeUnit.SECONDS)).as("kubectl finished").isTrue();
    String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
    assertThat(p.exitValue()).as("kubectl %s: %s", cmd, out).isZero();
    return out;
  }
}
