package dev.isolato.tenancy;

import dev.isolato.calibration.FieldError;
import dev.isolato.calibration.RequestMix;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Collectors;

/**
 * The requests an in-context calibration replays for a class: its {@code spec.requestMix}, the
 * tenant where its tenantKey says; saas-bench's route for an image class without one. A provider's
 * service has no default: replaying saas-bench's route to it measures its 404s, not its capacity.
 */
public final class ClassRequests {
  static final String HEADER = "header:";
  static final String PATH = "path:";

  private ClassRequests() {}

  /** What is wrong with a class's request mix, each naming its field; empty when it has none. */
  public static List<FieldError> problems(SloClassSpec spec) {
    List<FieldError> e = new ArrayList<>();
    List<SloClassSpec.MixEndpoint> mix = spec.requestMix;
    if (absent(mix)) {
      return e;
    }
    if (mix.size() > RequestMix.MAX_ENDPOINTS) {
      e.add(
          new FieldError(
              "spec.requestMix",
              "must have at most " + RequestMix.MAX_ENDPOINTS + " endpoints, had " + mix.size()));
    }
    String key = Workload.tenantKey(spec);
    if (key.equals("host")) {
      e.add(
          new FieldError(
              "spec.requestMix",
              "cannot be replayed for tenantKey host: the calibration's generator names the tenant"
                  + " in a header or the path; use one of those keys, or leave requestMix out"));
    }
    for (int i = 0; i < mix.size(); i++) {
      SloClassSpec.MixEndpoint m = mix.get(i);
      String field = "spec.requestMix[" + i + "]";
      if (m == null) {
        e.add(new FieldError(field, "is required"));
        continue;
      }
      var problem = RequestMix.endpointProblem(m.method, m.path, m.weight);
      if (problem.isPresent()) {
        e.add(new FieldError(field + "." + problem.get().field(), problem.get().message()));
      } else if (key.startsWith(PATH)
          && !m.path.startsWith(key.substring(PATH.length()) + "{tenant}")) {
        e.add(
            new FieldError(
                field + ".path",
                "must start with "
                    + key.substring(PATH.length())
                    + "{tenant}: the gate finds the tenant after tenantKey's prefix, was '"
                    + m.path
                    + "'"));
      }
    }
    return e;
  }

  /** An empty mix is none: generated clients send {@code []} for a list they were not given. */
  private static boolean absent(List<SloClassSpec.MixEndpoint> mix) {
    return mix == null || mix.isEmpty();
  }

  /**
   * The mix a calibration of the class replays.
   *
   * @throws IllegalArgumentException saying what the class lacks, in words a provider can act on
   */
  public static RequestMix of(String className, SloClassSpec spec) {
    List<FieldError> problems = problems(spec);
    if (!problems.isEmpty()) {
      throw new IllegalArgumentException(
          "class "
              + className
              + ": "
              + problems.stream()
                  .map(p -> p.field() + " " + p.message())
                  .collect(Collectors.joining("; ")));
    }
    String key = Workload.tenantKey(spec);
    String header = key.startsWith(HEADER) ? key.substring(HEADER.length()) : "";
    if (absent(spec.requestMix)) {
      if (Workload.isProvided(spec)) {
        throw new IllegalArgumentException(
            "class "
                + className
                + " runs its own workload and has no spec.requestMix: set it to the endpoints"
                + " its tenants call (docs/bring-your-service.md, \"Calibrating your service\")");
      }
      if (key.equals("host")) {
        throw new IllegalArgumentException(
            "class "
                + className
                + " has tenantKey host: the calibration's generator names the tenant in a header"
                + " or the path");
      }
      return RequestMix.of(RequestMix.saasBench().endpoints(), header);
    }
    return RequestMix.of(
        spec.requestMix.stream()
            .map(m -> new RequestMix.Endpoint(m.method, m.path, m.weight))
            .toList(),
        header);
  }
}
