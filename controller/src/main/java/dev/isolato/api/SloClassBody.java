package dev.isolato.api;

import dev.isolato.tenancy.SloClass;
import dev.isolato.tenancy.SloClassSpec;
import dev.isolato.tenancy.SloClassStatus;
import dev.isolato.tenancy.SpecLimits;
import io.fabric8.generator.annotation.Pattern;
import io.fabric8.generator.annotation.Required;
import io.fabric8.generator.annotation.Size;
import io.swagger.v3.oas.annotations.media.Schema;
import java.util.List;

/**
 * An SLO class in the API: name and spec on the way in; resourceVersion and status added on the way
 * out.
 */
public record SloClassBody(
    @Required
        @Pattern(SpecLimits.DNS1123_LABEL)
        @Size(min = 1, max = Validation.MAX_CLASS_NAME)
        @Schema(
            description = "DNS-1123 label; on PUT it may be left out (it must match the path)",
            example = "gold")
        String name,
    @Required SloClassSpec spec,
    @Schema(
            accessMode = Schema.AccessMode.READ_ONLY,
            description = "the class's version (its ETag)")
        String resourceVersion,
    @Schema(
            accessMode = Schema.AccessMode.READ_ONLY,
            description = "measured cut-offs, model, plan, conditions")
        SloClassStatus status) {
  static SloClassBody of(SloClass c) {
    return new SloClassBody(
        c.getMetadata().getName(),
        c.getSpec(),
        c.getMetadata().getResourceVersion(),
        c.getStatus());
  }

  /** One page of a list; pass {@code continueToken} back as {@code continue} for the next. */
  @io.swagger.v3.oas.annotations.media.Schema(name = "SloClassPage")
  public record Page(List<SloClassBody> items, String continueToken) {}
}
