package dev.isolato.incontext;

import io.fabric8.kubernetes.api.model.ContainerStateWaiting;
import io.fabric8.kubernetes.api.model.ContainerStatus;
import io.fabric8.kubernetes.api.model.Pod;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;

/**
 * Why a calibration's generator pod cannot run, read from its containers' waiting states. A pod
 * whose image cannot be pulled never writes a log, so without this a calibration failed only at its
 * Job's deadline, minutes later, as "the generator failed: " and nothing after it (make run's
 * cluster had no generator image, 2026-11-28).
 */
final class GeneratorPods {
  /** Waiting reasons the kubelet does not get out of by itself within a calibration. */
  static final Set<String> STUCK =
      Set.of(
          "ErrImagePull",
          "ImagePullBackOff",
          "InvalidImageName",
          "ErrImageNeverPull",
          "CreateContainerConfigError",
          "CreateContainerError");

  private GeneratorPods() {}

  /** The first stuck container of the pods, as "REASON: message (image …)"; empty if none. */
  static Optional<String> stuck(List<Pod> pods) {
    for (Pod p : pods) {
      List<ContainerStatus> statuses =
          p.getStatus() == null ? List.of() : p.getStatus().getContainerStatuses();
      for (ContainerStatus c : Objects.requireNonNullElse(statuses, List.<ContainerStatus>of())) {
        ContainerStateWaiting w = c.getState() == null ? null : c.getState().getWaiting();
        if (w != null && STUCK.contains(w.getReason())) {
          String message = Objects.requireNonNullElse(w.getMessage(), "").strip();
          return Optional.of(
              w.getReason()
                  + (message.isEmpty() ? "" : ": " + message)
                  + " (image "
                  + c.getImage()
                  + "; make openloop-image builds it: load it into the cluster's nodes or set"
                  + " isolato.calibration.generator-image)");
        }
      }
    }
    return Optional.empty();
  }
}
