package dev.isolato.incontext;

import java.time.Duration;
import java.time.Instant;
import java.util.HashMap;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;

/**
 * Hysteresis for what a periodic look sees, per key (issue 34 item 4: the context each class's pool
 * runs in). A neighbour pool's replica that comes and goes would flip a pool's context back and
 * forth, each flip an Event and perhaps a recalibration due; so a value seen replaces the one that
 * counts only once it has been seen, unchanged, for the settle time. Seen back to the counted value
 * before then, it leaves no trace; another new value starts the wait again. When nothing counts yet
 * (a pool's first placement) the value seen counts at once: there is nothing to flap from.
 *
 * <p>What counts is the caller's (it lives in the class status, so a new leader goes on from it);
 * only the values on their way are held here, and a new leader waits for them afresh.
 *
 * @param <V> the value, compared with {@code equals}
 */
final class Settle<V> {
  /**
   * A value and since when it has been seen.
   *
   * @param value the value
   * @param since when it was first seen (in a run of looks that all saw it)
   */
  record Seen<V>(V value, Instant since) {}

  private final Duration hold;
  private final Map<String, Seen<V>> pending = new HashMap<>();

  /**
   * @param hold how long a new value must be seen before it counts; zero: at once
   */
  Settle(Duration hold) {
    if (hold.isNegative()) {
      throw new IllegalArgumentException("settle time " + hold + " is negative");
    }
    this.hold = hold;
  }

  /**
   * What counts for {@code key} after a look at {@code now} saw {@code seen}.
   *
   * @param counted what counted before; null when nothing does
   * @return {@code counted}, or the value seen with the time it was first seen once it has held for
   *     the settle time (at once when nothing counted)
   */
  Seen<V> see(String key, Seen<V> counted, V seen, Instant now) {
    if (counted == null) {
      pending.remove(key);
      return new Seen<>(seen, now);
    }
    if (Objects.equals(counted.value(), seen)) {
      pending.remove(key);
      return counted;
    }
    Seen<V> p = pending.get(key);
    if (p == null || !Objects.equals(p.value(), seen)) {
      p = new Seen<>(seen, now);
      pending.put(key, p);
    }
    if (now.isBefore(p.since().plus(hold))) {
      return counted;
    }
    pending.remove(key);
    return p;
  }

  /** The value on its way to count for {@code key}, if one is. */
  Optional<Seen<V>> pending(String key) {
    return Optional.ofNullable(pending.get(key));
  }

  /** Forgets the keys not in {@code keys} (classes gone). */
  void retain(Set<String> keys) {
    pending.keySet().retainAll(keys);
  }
}
