package dev.isolato.security;

import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HexFormat;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.Callable;
import java.util.function.LongSupplier;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Static bearer tokens (provider admins and tenants) from files and Secrets, re-read at most once
 * per {@code refreshNanos} so that a rotated token stops working within that time and a flood of
 * unknown tokens costs no extra reads. A source that cannot be read keeps its previous tokens and
 * is tried again after a second.
 */
final class StaticTokens {
  private static final Logger log = LoggerFactory.getLogger(StaticTokens.class);
  private static final long RETRY_NANOS = 1_000_000_000L;

  /**
   * One place tokens come from; {@code reader} maps token hashes (see {@link #hash}) to callers.
   * Tenant sources are merged first: a token listed as both gets the narrower role.
   */
  record Source(String name, boolean tenant, Callable<Map<String, Caller>> reader) {}

  private record Snapshot(
      Map<String, Map<String, Caller>> bySource,
      Map<String, Caller> all,
      long loadedAt,
      boolean complete) {}

  private final List<Source> sources;
  private final long refreshNanos;
  private final LongSupplier nanoTime;
  private volatile Snapshot snapshot;

  StaticTokens(List<Source> sources, long refreshNanos, LongSupplier nanoTime) {
    this.sources =
        sources.stream().sorted((a, b) -> Boolean.compare(b.tenant(), a.tenant())).toList();
    this.refreshNanos = refreshNanos;
    this.nanoTime = nanoTime;
  }

  Optional<Caller> find(String token) {
    return Optional.ofNullable(current().all().get(hash(token)));
  }

  private Snapshot current() {
    Snapshot s = snapshot;
    if (s != null && !stale(s)) {
      return s;
    }
    synchronized (this) {
      if (snapshot == null || stale(snapshot)) {
        snapshot = load(snapshot);
      }
      return snapshot;
    }
  }

  private boolean stale(Snapshot s) {
    return nanoTime.getAsLong() - s.loadedAt()
        >= (s.complete() ? refreshNanos : Math.min(refreshNanos, RETRY_NANOS));
  }

  private Snapshot load(Snapshot previous) {
    Map<String, Map<String, Caller>> bySource = new LinkedHashMap<>();
    Map<String, Caller> all = new HashMap<>();
    boolean complete = true;
    for (Source source : sources) {
      Map<String, Caller> tokens;
      try {
        tokens = Map.copyOf(source.reader().call());
      } catch (Exception e) {
        complete = false;
        tokens =
            previous == null ? Map.of() : previous.bySource().getOrDefault(source.name(), Map.of());
        log.warn(
            "cannot read API tokens from {} ({}); keeping the {} read before",
            source.name(),
            e.getMessage(),
            tokens.size());
      }
      bySource.put(source.name(), tokens);
      tokens.forEach(
          (hash, caller) -> {
            Caller first = all.putIfAbsent(hash, caller);
            if (first != null && !first.equals(caller)) {
              log.warn(
                  "a token of {} is also {}; it keeps the first role", caller.name(), first.name());
            }
          });
    }
    return new Snapshot(bySource, Map.copyOf(all), nanoTime.getAsLong(), complete);
  }

  /** Provider-admin tokens: every non-blank line that is not a # comment. */
  static Map<String, Caller> adminLines(List<String> lines, String source) {
    Map<String, Caller> m = new HashMap<>();
    for (int i = 0; i < lines.size(); i++) {
      String t = lines.get(i).trim();
      if (!t.isEmpty() && !t.startsWith("#")) {
        m.put(hash(t), new Caller.Admin("admin token (" + source + " line " + (i + 1) + ")"));
      }
    }
    return m;
  }

  /** Tenant tokens: lines {@code <token> <tenantId>}; blank and # lines are skipped. */
  static Map<String, Caller> tenantLines(List<String> lines, String source) {
    Map<String, Caller> m = new HashMap<>();
    List<String> errors = new ArrayList<>();
    for (int i = 0; i < lines.size(); i++) {
      String line = lines.get(i).trim();
      if (line.isEmpty() || line.startsWith("#")) {
        continue;
      }
      String[] f = line.split("\\s+", -1);
      if (f.length != 2) {
        errors.add(
            "line " + (i + 1) + " has " + f.length + " fields, expected '<token> <tenantId>'");
        continue;
      }
      m.put(
          hash(f[0]),
          new Caller.TenantUser("tenant token of '" + f[1] + "' (" + source + ")", f[1]));
    }
    if (!errors.isEmpty()) {
      throw new IllegalArgumentException(source + ": " + String.join("; ", errors));
    }
    return m;
  }

  /** Every value of a Secret is a provider-admin token. */
  static Map<String, Caller> adminValues(Map<String, String> data, String source) {
    Map<String, Caller> m = new HashMap<>();
    data.forEach(
        (key, token) -> {
          if (!token.isBlank()) {
            m.put(
                hash(token.trim()),
                new Caller.Admin("admin token (" + source + " key " + key + ")"));
          }
        });
    return m;
  }

  /** key = tenant id, value = its token. */
  static Map<String, Caller> tenantValues(Map<String, String> data, String source) {
    Map<String, Caller> m = new HashMap<>();
    data.forEach(
        (tenantId, token) -> {
          if (!token.isBlank()) {
            m.put(
                hash(token.trim()),
                new Caller.TenantUser(
                    "tenant token of '" + tenantId + "' (" + source + ")", tenantId));
          }
        });
    return m;
  }

  /** Tokens are kept and compared only as SHA-256 hashes. */
  static String hash(String token) {
    try {
      return HexFormat.of()
          .formatHex(
              MessageDigest.getInstance("SHA-256").digest(token.getBytes(StandardCharsets.UTF_8)));
    } catch (NoSuchAlgorithmException e) {
      throw new IllegalStateException(e);
    }
  }
}
