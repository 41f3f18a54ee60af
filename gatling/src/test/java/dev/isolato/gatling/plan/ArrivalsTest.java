package dev.isolato.gatling.plan;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import dev.isolato.gatling.plan.Arrivals.Group;
import java.util.List;
import org.junit.jupiter.api.Test;

class ArrivalsTest {

  @Test
  void aFractionalStepKeepsItsFullDuration() {
    // 75 requests of one tenant in a 2.857 s step (300 at 105 req/s over 4 tenants): Gatling's
    // rampUsers(75).during(2.857 s) sends them within 2 s
    double seconds = 300 / 105.0;
    Arrivals a = Arrivals.evenly(75, seconds);
    assertEquals(2, a.rampSeconds());
    assertEquals(53, a.rampUsers(), "due before 2 s: i * 38.1 ms < 2000 ms for i = 0..52");
    assertEquals(75, a.users());
    assertEquals(Math.round(74 * seconds * 1000 / 75), a.lastDueMillis());
    assertEquals(Math.round(53 * seconds * 1000 / 75) - 2000, a.rest().get(0).pauseMillis());
    for (Group g : a.rest().subList(1, a.rest().size())) {
      assertEquals(38, g.pauseMillis(), 1, "even spacing of 38.1 ms");
      assertEquals(1, g.users());
    }
  }

  @Test
  void wholeSecondsAreOneRamp() {
    Arrivals a = Arrivals.evenly(300, 10);
    assertEquals(new Arrivals(10, 300, List.of()), a);
    assertEquals(9_967, a.lastDueMillis());
  }

  @Test
  void roundingInTheRestDoesNotAccumulate() {
    // 3000 arrivals in 0.999 s, 0.333 ms apart, rounded each: the last is due at 998.67 ms
    Arrivals a = Arrivals.evenly(3000, 0.999);
    assertEquals(3000, a.users());
    assertEquals(999, a.lastDueMillis());
  }

  @Test
  void arrivalsDueInTheSameMillisecondAreOneGroup() {
    // due at 0, 0.33 and 0.67 ms: rounded to 0, 0 and 1
    assertEquals(
        new Arrivals(0, 0, List.of(new Group(0, 2), new Group(1, 1))), Arrivals.evenly(3, 0.001));
    assertEquals(new Arrivals(0, 0, List.of(new Group(0, 4))), Arrivals.evenly(4, 0));
  }

  @Test
  void aNonsenseRequestIsRefused() {
    assertThrows(IllegalArgumentException.class, () -> Arrivals.evenly(0, 1));
    assertThrows(IllegalArgumentException.class, () -> Arrivals.evenly(1, Double.NaN));
    assertThrows(IllegalArgumentException.class, () -> Arrivals.evenly(1, -1));
  }
}
