package dev.isolato.tenancy;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;
import dev.isolato.slo.CapacityPlan;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.HexFormat;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * The saas-bench tenant table (docs/saas-bench.md#tenant-table) for one pool: the only place that
 * knows its JSON shape. The version is a digest of the entries, so an unchanged set of tenants
 * yields byte-identical JSON and the pool spec needs no write (the pods get it with the pool's
 * generation as its revision: {@link #withRevision}).
 */
public final class TenantTable {
  /** ConfigMap key and file name inside the mounted volume. */
  public static final String FILE = "tenants.json";

  private static final ObjectMapper JSON =
      new ObjectMapper().configure(SerializationFeature.ORDER_MAP_ENTRIES_BY_KEYS, true);

  private TenantTable() {}

  /**
   * Table JSON for the tenants of a pool, each admitted at the rate the plan gives it, or not rate
   * limited at all when the class turned admission off.
   */
  public static String json(
      List<Tenant> tenants, CapacityPlan plan, SloClassSpec.Admission admission) {
    Map<String, Object> entries = new TreeMap<>();
    for (Tenant t : tenants) {
      String id = t.getMetadata().getName();
      TenantSpec s = t.getSpec();
      double rate = plan.admittedRps().getOrDefault(id, s.committedRps);
      Map<String, Object> profile = new LinkedHashMap<>();
      profile.put("cpu", s.profile.cpu);
      profile.put("memory", s.profile.memory);
      profile.put("io", s.profile.io);
      profile.put("fsync", s.profile.fsync);
      Map<String, Object> entry = new LinkedHashMap<>();
      entry.put("profile", profile);
      if (admission == SloClassSpec.Admission.enforce) {
        entry.put("rateRps", rate);
        entry.put("burst", burst(s));
      }
      entries.put(id, entry);
    }
    Map<String, Object> table = new LinkedHashMap<>();
    table.put("version", digest(write(entries)));
    table.put("tenants", entries);
    return write(table);
  }

  /**
   * The table as the pool's pods get it: with the pool's generation as its {@code revision}, which
   * only rises, so a pod drops a copy older than one it holds (the kubelet refreshes the mounted
   * ConfigMap up to a sync period late, after a newer push). Unchanged without a generation.
   */
  public static String withRevision(String tableJson, Long generation) {
    if (generation == null) {
      return tableJson;
    }
    try {
      @SuppressWarnings("unchecked")
      Map<String, Object> table = JSON.readValue(tableJson, LinkedHashMap.class);
      Map<String, Object> out = new LinkedHashMap<>();
      out.put("version", table.get("version"));
      out.put("revision", generation);
      out.put("tenants", table.get("tenants"));
      return write(out);
    } catch (JsonProcessingException e) {
      throw new IllegalStateException("the pool's tenant table is not JSON", e);
    }
  }

  /** The version a table JSON carries, or "?" when it has none. */
  public static String version(String tableJson) {
    int i = tableJson == null ? -1 : tableJson.indexOf("\"version\":\"");
    return i < 0 ? "?" : tableJson.substring(i + 11, tableJson.indexOf('"', i + 11));
  }

  /** Default depth: one second of the committed rate, at least one request. */
  static double burst(TenantSpec s) {
    return s.burst != null ? s.burst : Math.max(1, Math.ceil(s.committedRps));
  }

  private static String write(Object o) {
    try {
      return JSON.writeValueAsString(o);
    } catch (JsonProcessingException e) {
      throw new IllegalStateException("tenant table is not serialisable", e);
    }
  }

  private static String digest(String s) {
    try {
      byte[] d = MessageDigest.getInstance("SHA-256").digest(s.getBytes(StandardCharsets.UTF_8));
      return HexFormat.of().formatHex(d, 0, 8);
    } catch (NoSuchAlgorithmException e) {
      throw new IllegalStateException(e);
    }
  }
}
