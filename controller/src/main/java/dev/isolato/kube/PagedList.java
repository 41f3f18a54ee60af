package dev.isolato.kube;

import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.api.model.KubernetesResourceList;
import io.fabric8.kubernetes.api.model.ListOptions;
import io.fabric8.kubernetes.api.model.ListOptionsBuilder;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Function;
import java.util.function.Predicate;

/**
 * A list read from the API server a page at a time ({@link LeanItemStore#LIST_PAGE} objects, then
 * its continue token), keeping only what {@code keep} accepts: at 10,000 tenants one unpaged list
 * is a ~10 MB answer held whole in memory to find one class's few dozen.
 */
public final class PagedList {
  private PagedList() {}

  public static <T extends HasMetadata, L extends KubernetesResourceList<T>> List<T> all(
      Function<ListOptions, L> list, Predicate<T> keep) {
    List<T> out = new ArrayList<>();
    String next = null;
    do {
      L page =
          list.apply(
              new ListOptionsBuilder()
                  .withLimit(LeanItemStore.LIST_PAGE)
                  .withContinue(next)
                  .build());
      page.getItems().stream().filter(keep).forEach(out::add);
      next = page.getMetadata() == null ? null : page.getMetadata().getContinue();
    } while (next != null && !next.isEmpty());
    return out;
  }
}
