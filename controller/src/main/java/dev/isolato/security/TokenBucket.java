package dev.isolato.security;

import java.util.function.LongSupplier;

/** A token bucket: {@code capacity} at once, refilled at {@code perSecond}. Thread-safe. */
final class TokenBucket {
  private final double capacity;
  private final double perNano;
  private final LongSupplier nanoTime;
  private double tokens;
  private long last;

  TokenBucket(double capacity, double perSecond, LongSupplier nanoTime) {
    if (capacity < 1 || perSecond <= 0) {
      throw new IllegalArgumentException(
          "capacity must be ≥ 1 and the rate > 0, was " + capacity + ", " + perSecond);
    }
    this.capacity = capacity;
    this.perNano = perSecond / 1e9;
    this.nanoTime = nanoTime;
    this.tokens = capacity;
    this.last = nanoTime.getAsLong();
  }

  /** Takes one token if there is one. */
  synchronized boolean tryTake() {
    refill();
    if (tokens >= 1) {
      tokens -= 1;
      return true;
    }
    return false;
  }

  synchronized double available() {
    refill();
    return tokens;
  }

  private void refill() {
    long now = nanoTime.getAsLong();
    tokens = Math.min(capacity, tokens + (now - last) * perNano);
    last = now;
  }
}
