package dev.isolato.api;

import dev.isolato.tenancy.SloClass;
import dev.isolato.tenancy.SloClassSpec;
import dev.isolato.tenancy.SloClassStatus;
import java.util.List;

/**
 * An SLO class in the API: name and spec on the way in; resourceVersion and status added on
 * the way out.
 */
public record SloClassBody(String name, SloClassSpec spec, String resourceVersion, SloClassStatus status) {
  static SloClassBody of(SloClass c) {
    return new SloClassBody(c.getMetadata().getName(), c.getSpec(), c.getMetadata().getResourceVersion(), c.getStatus());
  }

  /** One page of a list; pass {@code continueToken} back as {@code continue} for the next. */
  public record Page(List<SloClassBody> items, String continueToken) {}
}
