package dev.isolato.tenancy;

import java.util.List;
import java.util.Optional;

/**
 * Which images a class may run (the controller's configuration, not the class's author, decides).
 * An entry is an exact image reference, or a prefix ending in {@code *} ({@code
 * registry.example.com/isolato/*}).
 */
public record ImagePolicy(List<String> allowed) {
  public ImagePolicy {
    allowed = List.copyOf(allowed);
  }

  public boolean allows(String image) {
    return allowed.stream()
        .anyMatch(
            a ->
                a.endsWith("*")
                    ? image.startsWith(a.substring(0, a.length() - 1))
                    : image.equals(a));
  }

  /** Why the class's image is refused, or empty when it is allowed. */
  public Optional<String> problem(SloClassSpec spec) {
    String image = Workload.imageOf(spec);
    return allows(image)
        ? Optional.empty()
        : Optional.of(
            "image '"
                + image
                + "' is not in the controller's image allowlist "
                + allowed
                + " (isolato.pools.image-allowlist)");
  }
}
