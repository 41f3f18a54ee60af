package dev.isolato.gatling.plan;

import java.util.ArrayList;
import java.util.List;

/**
 * Evenly spaced arrivals in the form Gatling injects exactly.
 *
 * <p>Gatling's {@code rampUsers(n).during(d)} spreads its users over {@code d} truncated to whole
 * seconds, and the next injection step still starts after the full {@code d}: a 2.86 s step (300
 * requests at 105 req/s) was sent in 2 s, at 150 req/s, followed by a 0.86 s hole. So a step is a
 * ramp over its whole seconds, which Gatling spreads evenly to the millisecond, followed by the
 * arrivals of the fractional rest as groups of users due at the same millisecond, each after a
 * pause from the previous one ({@code nothingFor}, {@code atOnceUsers}: exact). Only the rest is
 * spelled out, because Gatling nests one iterator per injection step.
 *
 * @param rampSeconds whole seconds of {@code rampUsers}
 * @param rampUsers users spread over them (0 when {@code rampSeconds} is 0)
 * @param rest the remaining arrivals, the first pause counted from the end of the ramp
 */
public record Arrivals(long rampSeconds, long rampUsers, List<Arrivals.Group> rest) {

  /** {@code users} arrive together after {@code pauseMillis} since the previous group. */
  public record Group(long pauseMillis, int users) {}

  public Arrivals {
    rest = List.copyOf(rest);
  }

  /**
   * {@code users} arrivals spread evenly over {@code seconds}: arrival {@code i} is due at {@code i
   * * seconds / users} (the rest's rounded to the millisecond, so rounding never accumulates).
   */
  public static Arrivals evenly(long users, double seconds) {
    if (users < 1 || !(seconds >= 0) || Double.isInfinite(seconds)) {
      throw new IllegalArgumentException(
          "need users >= 1 and a finite duration >= 0, not " + users + " over " + seconds + " s");
    }
    long whole = (long) Math.floor(seconds);
    // arrivals due before the last whole second ends: i * seconds / users < whole
    long ramped = whole == 0 ? 0 : Math.min(users, (long) Math.ceil(whole * users / seconds));
    List<Group> rest = new ArrayList<>();
    long previous = whole * 1000;
    for (long i = ramped; i < users; i++) {
      long due = Math.round(i * seconds * 1000 / users);
      if (!rest.isEmpty() && due == previous) {
        Group last = rest.remove(rest.size() - 1);
        rest.add(new Group(last.pauseMillis(), last.users() + 1));
      } else {
        rest.add(new Group(due - previous, 1));
      }
      previous = due;
    }
    return new Arrivals(ramped == 0 ? 0 : whole, ramped, rest);
  }

  /** When the last arrival is due, in milliseconds from the start. */
  public long lastDueMillis() {
    long ramp = rampSeconds * 1000;
    if (rest.isEmpty()) {
      return ramp - (rampUsers > 0 ? ramp / rampUsers : 0);
    }
    return ramp + rest.stream().mapToLong(Group::pauseMillis).sum();
  }

  /** Every user's count: the ramp's and the rest's. */
  public long users() {
    return rampUsers + rest.stream().mapToLong(Group::users).sum();
  }
}
