package dev.isolato.tenancy;

import java.nio.charset.StandardCharsets;
import java.security.GeneralSecurityException;
import java.security.MessageDigest;
import java.security.SecureRandom;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.List;
import javax.crypto.Mac;
import javax.crypto.spec.SecretKeySpec;

/**
 * Pool admin tokens. Each pool's token is HMAC-SHA256(master key, pool namespace): a token read out
 * of one pool's Secret opens only that pool's admin endpoint, and the controller keeps one secret
 * (the master key) however many pools exist.
 *
 * <p>Rotation keeps the previous master key beside the new one. While a pool has not yet shown that
 * its pods accept the new token, its token file lists both, new first (saas-bench accepts any token
 * of the file and re-reads it when the kubelet updates the mount).
 */
public final class PoolTokens {
  private static final int KEY_BYTES = 32;
  private static final SecureRandom RANDOM = new SecureRandom();

  private PoolTokens() {}

  /**
   * The master keys, hex-encoded.
   *
   * @param current signs the tokens pushes use first
   * @param previous the key before the last rotation, or null when none is still in use
   */
  public record Keys(String current, String previous) {
    public Keys {
      if (current == null || current.isBlank()) {
        throw new IllegalArgumentException("the current pool master key is missing");
      }
      previous =
          previous == null || previous.isBlank() || previous.equals(current) ? null : previous;
    }

    /** A short, non-secret name of the current key (for logs and "which key is confirmed"). */
    public String fingerprint() {
      return PoolTokens.fingerprint(current);
    }
  }

  public static String newKey() {
    byte[] raw = new byte[KEY_BYTES];
    RANDOM.nextBytes(raw);
    return HexFormat.of().formatHex(raw);
  }

  /** The admin token of the pool in {@code namespace} under {@code key}. */
  public static String token(String key, String namespace) {
    try {
      Mac mac = Mac.getInstance("HmacSHA256");
      mac.init(new SecretKeySpec(key.getBytes(StandardCharsets.UTF_8), "HmacSHA256"));
      return HexFormat.of().formatHex(mac.doFinal(namespace.getBytes(StandardCharsets.UTF_8)));
    } catch (GeneralSecurityException e) {
      throw new IllegalStateException("HmacSHA256 unavailable", e);
    }
  }

  /**
   * Tokens a pool accepts, the one to push with first: the current key's, then the previous key's
   * unless the pool already confirmed the current key.
   */
  public static List<String> tokens(Keys keys, String namespace, boolean confirmed) {
    List<String> t = new ArrayList<>(List.of(token(keys.current(), namespace)));
    if (keys.previous() != null && !confirmed) {
      t.add(token(keys.previous(), namespace));
    }
    return List.copyOf(t);
  }

  /** The token file: one token a line. */
  public static String file(List<String> tokens) {
    return String.join("\n", tokens) + "\n";
  }

  /** Tokens of a token file (blank lines and surrounding spaces ignored). */
  public static List<String> parse(String file) {
    return file == null
        ? List.of()
        : file.lines().map(String::strip).filter(l -> !l.isEmpty()).toList();
  }

  static String fingerprint(String key) {
    try {
      byte[] d = MessageDigest.getInstance("SHA-256").digest(key.getBytes(StandardCharsets.UTF_8));
      return HexFormat.of().formatHex(d, 0, 6);
    } catch (GeneralSecurityException e) {
      throw new IllegalStateException("SHA-256 unavailable", e);
    }
  }
}
