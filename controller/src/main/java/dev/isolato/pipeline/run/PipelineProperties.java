package dev.isolato.pipeline.run;

import java.time.Duration;
import org.springframework.boot.context.properties.ConfigurationProperties;

/**
 * Settings under {@code isolato.pipeline.*}: how the controller benchmarks deployments
 * (docs/pipeline.md "The tuning loop").
 *
 * @param localkube path of the {@code localkube} script when the cluster is localkube: then the
 *     analyses also read its control plane's CPU and metrics; its settings are recommended, never
 *     changed by the controller ({@code make tune}, tuner/, applies them); empty = a shared cluster
 * @param image the benchmark pods' image (present on the node; never pulled)
 * @param runTimeout how long one benchmark run may take until every pod is Ready
 * @param history analyses kept for {@code GET} (oldest dropped first)
 * @param controlPlaneCores U_c of the model; 0 = the largest node's CPU capacity (localkube: the
 *     control plane shares the node)
 */
@ConfigurationProperties("isolato.pipeline")
public record PipelineProperties(
    String localkube, String image, Duration runTimeout, int history, int controlPlaneCores) {

  public static final String PAUSE_IMAGE = "localhost/localkube/pause:3.10";

  public PipelineProperties {
    localkube = localkube == null ? "" : localkube.strip();
    image = image == null || image.isBlank() ? PAUSE_IMAGE : image;
    runTimeout = runTimeout == null ? Duration.ofMinutes(3) : runTimeout;
    history = history <= 0 ? 20 : history;
    controlPlaneCores = Math.max(0, controlPlaneCores);
  }

  public static PipelineProperties defaults() {
    return new PipelineProperties(null, null, null, 0, 0);
  }
}
