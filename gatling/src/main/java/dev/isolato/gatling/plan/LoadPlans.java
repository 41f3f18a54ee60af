package dev.isolato.gatling.plan;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.core.type.TypeReference;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.DoubleFunction;

/**
 * Turns the simulations' parameters into step plans. Steps run back to back; each step lasts as
 * long as it takes to send {@code requestsPerStep} requests in total at that step's rate (1600 by
 * default, as in the SAC'20 paper), so every step has the same statistical weight.
 */
public final class LoadPlans {
  private static final ObjectMapper JSON = new ObjectMapper();

  private LoadPlans() {}

  /**
   * Linear ramp against one class: step i offers RR_i = startRate + i * rateStep requests/s in
   * total, each of the T tenants sending RR_i / T, or RR_i in proportion to {@code tenantShares}
   * (e.g. their committed rates).
   */
  public static List<ClassPlan> linearRamp(Settings s) {
    String sloClass = s.requiredString("sloClass");
    List<String> tenants = s.tenantIds("tenants", "tenantCount", "t", 1);
    List<Double> shares =
        s.has("tenantShares")
            ? s.positiveDoubles("tenantShares", null)
            : tenants.stream().map(t -> 1.0).toList();
    if (shares.size() != tenants.size()) {
      throw new IllegalArgumentException(
          Settings.PREFIX
              + "tenantShares lists "
              + shares.size()
              + " shares for "
              + tenants.size()
              + " tenants "
              + tenants);
    }
    List<Double> rates = rampRates(s);
    int perStep = s.positiveInt("requestsPerStep", 1600);
    List<ClassStep> steps =
        sequence(
            rates.size(),
            rates::get,
            perStep,
            (i, offset, duration) ->
                new ClassStep(i, offset, duration, split(tenants, shares, rates.get(i))));
    return List.of(
        new ClassPlan(sloClass, s.requiredString("baseUrl"), context(s, "alone"), steps));
  }

  /**
   * One aggressive tenant: every tenant sends its committed rate except the aggressive one, which
   * sends k times its committed rate, one step per factor k.
   */
  public static List<ClassPlan> aggressiveTenant(Settings s) {
    String sloClass = s.requiredString("sloClass");
    List<String> tenants = s.tenantIds("tenants", "tenantCount", "t", 3);
    double committed = s.positiveDouble("committedRps", null);
    String aggressive = s.string("aggressiveTenant", tenants.get(0));
    if (!tenants.contains(aggressive)) {
      throw new IllegalArgumentException(
          Settings.PREFIX
              + "aggressiveTenant '"
              + aggressive
              + "' is not one of the tenants "
              + tenants);
    }
    List<Double> factors = s.positiveDoubles("factors", "1,2,4");
    int perStep = s.positiveInt("requestsPerStep", 1600);
    DoubleFunction<List<TenantLoad>> loads =
        k ->
            tenants.stream()
                .map(t -> new TenantLoad(t, t.equals(aggressive) ? k * committed : committed))
                .toList();
    List<ClassStep> steps =
        sequence(
            factors.size(),
            i -> total(loads.apply(factors.get(i))),
            perStep,
            (i, offset, duration) ->
                new ClassStep(i, offset, duration, loads.apply(factors.get(i))));
    return List.of(
        new ClassPlan(sloClass, s.requiredString("baseUrl"), context(s, "aggressive"), steps));
  }

  /**
   * Gold and bronze tenants side by side in the ratio {@code mix} (e.g. {@code 4:1}): every tenant
   * sends the same per-tenant rate r_i = startRate + i * rateStep to its class, so a class offers
   * r_i times its tenant count. A class's context is {@code <class>.context} when given, else
   * {@code context}.
   */
  public static List<ClassPlan> tenantMix(Settings s) {
    int[] mix = parseMix(s.string("mix", "4:1"));
    String goldClass = s.string("goldClass", "gold");
    String bronzeClass = s.string("bronzeClass", "bronze");
    List<String> gold = tenantsOfClass(s, "goldTenants", goldClass, mix[0]);
    List<String> bronze = tenantsOfClass(s, "bronzeTenants", bronzeClass, mix[1]);
    List<Double> rates = rampRates(s);
    int perStep = s.positiveInt("requestsPerStep", 1600);
    int tenantCount = gold.size() + bronze.size();
    String label = "mix-" + mix[0] + ":" + mix[1];
    Map<String, Object> tenantMix = new LinkedHashMap<>();
    tenantMix.put(goldClass, mix[0]);
    tenantMix.put(bronzeClass, mix[1]);
    List<ClassPlan> plans = new ArrayList<>();
    for (var cls : List.of(Map.entry(goldClass, gold), Map.entry(bronzeClass, bronze))) {
      if (cls.getValue().isEmpty()) {
        continue;
      }
      List<ClassStep> steps =
          sequence(
              rates.size(),
              i -> rates.get(i) * tenantCount,
              perStep,
              (i, offset, duration) ->
                  new ClassStep(
                      i,
                      offset,
                      duration,
                      cls.getValue().stream().map(t -> new TenantLoad(t, rates.get(i))).toList()));
      String classContext = cls.getKey() + ".context"; // e.g. each class's own replicas
      Map<String, Object> context =
          context(s, label, s.has(classContext) ? classContext : "context");
      context.putIfAbsent("tenantMix", tenantMix);
      context.putIfAbsent(
          "colocated", List.of(cls.getKey().equals(goldClass) ? bronzeClass : goldClass));
      String urlName = cls.getKey().equals(goldClass) ? "goldBaseUrl" : "bronzeBaseUrl";
      plans.add(new ClassPlan(cls.getKey(), s.requiredString(urlName), context, steps));
    }
    return plans;
  }

  /**
   * Several classes ramped side by side on the same node (the SAC'20 co-located tables): in step i
   * class c offers {@code c.startRate + i * c.rateStep} req/s in total, split evenly over its
   * tenants. All classes step together and every step lasts {@code stepSeconds}, so a class with a
   * low cut-off gets as many seconds of load per step as one with a high cut-off. Per class, under
   * {@code isolato.<class>.}: {@code baseUrl}, {@code tenants} (or {@code tenantCount}, ids {@code
   * <class>-t1..}), {@code startRate}, {@code rateStep}, {@code context}. One calibration JSON per
   * class, label {@code colocated}.
   */
  public static List<ClassPlan> colocatedRamp(Settings s) {
    List<String> classes = s.list("classes", null);
    if (classes.size() < 2) {
      throw new IllegalArgumentException(
          Settings.PREFIX
              + "classes must name at least two "
              + "co-located classes (use LinearRampCalibration for one): '"
              + String.join(",", classes)
              + "'");
    }
    int count = s.positiveInt("steps", 10);
    double seconds = s.positiveDouble("stepSeconds", 6.0);
    List<ClassPlan> plans = new ArrayList<>();
    for (String cls : classes) {
      String p = cls + ".";
      List<String> tenants = s.tenantIds(p + "tenants", p + "tenantCount", cls + "-t", 1);
      double start = s.positiveDouble(p + "startRate", null);
      double step = s.positiveDouble(p + "rateStep", start);
      List<ClassStep> steps = new ArrayList<>();
      for (int i = 0; i < count; i++) {
        steps.add(new ClassStep(i, i * seconds, seconds, evenSplit(tenants, start + i * step)));
      }
      Map<String, Object> context = context(s, "colocated", p + "context");
      context.putIfAbsent("colocated", classes.stream().filter(c -> !c.equals(cls)).toList());
      plans.add(new ClassPlan(cls, s.requiredString(p + "baseUrl"), context, steps));
    }
    return plans;
  }

  /**
   * The plans of the named simulation (its class name in dev.isolato.gatling.simulations): the one
   * place a simulation's name meets its plan, for the simulations and for {@link PlanExport}.
   */
  public static List<ClassPlan> of(String simulation, Settings s) {
    return switch (simulation) {
      case "LinearRampCalibration" -> linearRamp(s);
      case "AggressiveTenant" -> aggressiveTenant(s);
      case "TenantMix" -> tenantMix(s);
      case "CoLocatedRamp" -> colocatedRamp(s);
      default ->
          throw new IllegalArgumentException(
              "unknown simulation '"
                  + simulation
                  + "': LinearRampCalibration, AggressiveTenant, TenantMix or CoLocatedRamp");
    };
  }

  /**
   * Seconds of unrecorded load at the first step's rate before step 0 ({@code isolato.warmup},
   * {@code isolato.warmupSeconds}; 0 when off).
   */
  public static double warmupSeconds(Settings s) {
    return s.bool("warmup", true) ? s.positiveDouble("warmupSeconds", 5.0) : 0;
  }

  /** startRate, startRate + rateStep, ... for {@code steps} steps or up to {@code maxRate}. */
  static List<Double> rampRates(Settings s) {
    double start = s.positiveDouble("startRate", null);
    double step = s.positiveDouble("rateStep", start);
    int count;
    if (s.has("maxRate")) {
      if (s.has("steps")) {
        throw new IllegalArgumentException(
            "give either " + Settings.PREFIX + "steps or " + Settings.PREFIX + "maxRate, not both");
      }
      double max = s.positiveDouble("maxRate", null);
      if (max < start) {
        throw new IllegalArgumentException(
            Settings.PREFIX
                + "maxRate "
                + max
                + " is below "
                + Settings.PREFIX
                + "startRate "
                + start);
      }
      count = (int) Math.floor((max - start) / step + 1e-9) + 1;
    } else {
      count = s.positiveInt("steps", 10);
    }
    List<Double> rates = new ArrayList<>();
    for (int i = 0; i < count; i++) {
      rates.add(start + i * step);
    }
    return rates;
  }

  static int[] parseMix(String raw) {
    String[] parts = raw.split(":", -1);
    try {
      if (parts.length == 2) {
        int g = Integer.parseInt(parts[0].trim());
        int b = Integer.parseInt(parts[1].trim());
        if (g >= 0 && b >= 0 && g + b > 0) {
          return new int[] {g, b};
        }
      }
    } catch (NumberFormatException e) {
      // reported below with the expected shape
    }
    throw new IllegalArgumentException(
        Settings.PREFIX
            + "mix must look like 4:1 "
            + "(gold:bronze tenant counts, not both 0): '"
            + raw
            + "'");
  }

  private static List<String> tenantsOfClass(Settings s, String idsName, String cls, int count) {
    if (s.has(idsName)) {
      List<String> ids = s.list(idsName, null);
      if (ids.size() != count) {
        throw new IllegalArgumentException(
            Settings.PREFIX
                + idsName
                + " lists "
                + ids.size()
                + " tenants but "
                + Settings.PREFIX
                + "mix asks for "
                + count);
      }
      return ids;
    }
    List<String> ids = new ArrayList<>();
    for (int i = 1; i <= count; i++) {
      ids.add(cls + "-" + i);
    }
    return ids;
  }

  private static List<TenantLoad> evenSplit(List<String> tenants, double classRate) {
    return split(tenants, tenants.stream().map(t -> 1.0).toList(), classRate);
  }

  /** The class rate split over the tenants in proportion to their shares. */
  private static List<TenantLoad> split(
      List<String> tenants, List<Double> shares, double classRate) {
    double sum = shares.stream().mapToDouble(Double::doubleValue).sum();
    List<TenantLoad> loads = new ArrayList<>();
    for (int i = 0; i < tenants.size(); i++) {
      loads.add(new TenantLoad(tenants.get(i), classRate * shares.get(i) / sum));
    }
    return loads;
  }

  private static double total(List<TenantLoad> loads) {
    return loads.stream().mapToDouble(TenantLoad::rps).sum();
  }

  private interface StepFactory {
    ClassStep create(int index, double offsetSeconds, double durationSeconds);
  }

  private interface RateOfStep {
    double totalRps(int index);
  }

  /** Lays steps back to back; a step lasts requestsPerStep / (total rate of all classes). */
  private static List<ClassStep> sequence(
      int count, RateOfStep rate, int requestsPerStep, StepFactory factory) {
    List<ClassStep> steps = new ArrayList<>();
    double offset = 0;
    for (int i = 0; i < count; i++) {
      double duration = requestsPerStep / rate.totalRps(i);
      steps.add(factory.create(i, offset, duration));
      offset += duration;
    }
    return steps;
  }

  /**
   * {@code isolato.context} with {@code isolato.label} as its label: a JSON object, or {@code
   * key=value,key=value} (numbers become numbers). The second form exists because the Gatling Maven
   * plugin escapes double quotes when it forwards -D values to its forked JVM.
   */
  private static Map<String, Object> context(Settings s, String defaultLabel) {
    return context(s, defaultLabel, "context");
  }

  /** As above, the context read from {@code isolato.<contextName>}. */
  private static Map<String, Object> context(Settings s, String defaultLabel, String contextName) {
    Map<String, Object> context = new LinkedHashMap<>();
    context.put("label", s.string("label", defaultLabel));
    if (s.has(contextName)) {
      String text = s.requiredString(contextName).trim();
      Map<String, Object> given =
          text.startsWith("{") ? jsonContext(contextName, text) : pairsContext(contextName, text);
      given.forEach(context::putIfAbsent);
    }
    return context;
  }

  private static Map<String, Object> jsonContext(String name, String text) {
    try {
      return JSON.readValue(text, new TypeReference<LinkedHashMap<String, Object>>() {});
    } catch (JsonProcessingException e) {
      throw new IllegalArgumentException(
          Settings.PREFIX
              + name
              + " must be a JSON object or "
              + "key=value,...: "
              + e.getOriginalMessage());
    }
  }

  private static Map<String, Object> pairsContext(String name, String text) {
    Map<String, Object> given = new LinkedHashMap<>();
    for (String pair : text.split(",", -1)) {
      int eq = pair.indexOf('=');
      if (eq <= 0) {
        throw new IllegalArgumentException(
            Settings.PREFIX
                + name
                + " must be a JSON object or "
                + "key=value,...: '"
                + pair
                + "' has no key=value");
      }
      String value = pair.substring(eq + 1).trim();
      given.put(pair.substring(0, eq).trim(), numberOrText(value));
    }
    return given;
  }

  private static Object numberOrText(String value) {
    if (value.matches("-?\\d{1,9}")) {
      return Integer.parseInt(value);
    }
    if (value.matches("-?\\d+(\\.\\d+)?([eE]-?\\d+)?")) {
      return Double.parseDouble(value);
    }
    return value;
  }
}
