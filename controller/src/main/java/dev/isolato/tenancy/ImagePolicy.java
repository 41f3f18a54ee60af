package dev.isolato.tenancy;

import java.util.List;
import java.util.Optional;

/**
 * Which images a class may run (the controller's configuration, not the class's author, decides).
 * An entry is an exact image reference, or a prefix ending in {@code *} ({@code
 * registry.example.com/isolato/*}). {@code gateImage} is the sidecar every pool pod runs
 * (isolato.pools.gate-image): checked like the class's images, so an operator's registry must be
 * allowed too.
 */
public record ImagePolicy(List<String> allowed, String gateImage) {
  public ImagePolicy {
    allowed = List.copyOf(allowed);
  }

  /** The allowlist with the default gate image. */
  public ImagePolicy(List<String> allowed) {
    this(allowed, Workload.GATE_IMAGE);
  }

  public boolean allows(String image) {
    return allowed.stream()
        .anyMatch(
            a ->
                a.endsWith("*")
                    ? image.startsWith(a.substring(0, a.length() - 1))
                    : image.equals(a));
  }

  /**
   * Why an image the class's pods run is refused (its app's, the gate's, its filler's), or empty
   * when all are allowed.
   */
  public Optional<String> problem(SloClassSpec spec) {
    List<String> images = new java.util.ArrayList<>(List.of(Workload.imageOf(spec)));
    images.add(gateImage);
    if (spec != null && spec.headroom != null && spec.headroom.filler) {
      images.add(Workload.saasBenchImage(spec));
    }
    return images.stream().map(this::problem).flatMap(Optional::stream).findFirst();
  }

  /** Why an image a pool pod runs (the app's, the gate's) is refused, or empty when allowed. */
  public Optional<String> problem(String image) {
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
