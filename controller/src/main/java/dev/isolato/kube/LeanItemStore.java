package dev.isolato.kube;

import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.api.model.ObjectMeta;
import io.fabric8.kubernetes.client.dsl.Informable;
import io.fabric8.kubernetes.client.informers.SharedIndexInformer;
import io.fabric8.kubernetes.client.informers.cache.BasicItemStore;
import io.fabric8.kubernetes.client.informers.cache.Cache;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.function.Consumer;

/**
 * An informer store that drops each object's {@code metadata.managedFields} as it is cached. The
 * controller never reads them for the kinds it caches this way (Tenants, classes, pool resources,
 * the autoscaler's pods and Deployments), and they were most of an object's size: a Tenant's field
 * sets parse into ~15 nested maps, so at 10,000 tenants, cached by three informers, they held more
 * heap than everything else together (docs/scale.md). Not for the pool workflow's dependents, whose
 * server-side apply matching compares them.
 */
public final class LeanItemStore<T extends HasMetadata> extends BasicItemStore<T> {
  /**
   * Objects per list page of the informers of sets that grow with the tenants: their first list
   * (and a relist after a watch expired) reads 10,000 tenants in bounded answers, not in one.
   */
  public static final long LIST_PAGE = 500;

  private final Consumer<T> alsoDrop;

  public LeanItemStore() {
    this(o -> {});
  }

  /** {@code alsoDrop} removes what else its readers never read, e.g. a status. */
  public LeanItemStore(Consumer<T> alsoDrop) {
    super(Cache::metaNamespaceKeyFunc);
    this.alsoDrop = alsoDrop;
  }

  /** A started informer of {@code what}, listed in pages, its copies without managed fields. */
  public static <T extends HasMetadata> SharedIndexInformer<T> inform(Informable<T> what) {
    return inform(what, new LeanItemStore<>());
  }

  /** A started informer of {@code what}, listed in pages, its copies kept in {@code store}. */
  public static <T extends HasMetadata> SharedIndexInformer<T> inform(
      Informable<T> what, LeanItemStore<T> store) {
    SharedIndexInformer<T> i = what.withLimit(LIST_PAGE).runnableInformer(0).itemStore(store);
    i.run();
    return i;
  }

  @Override
  public T put(String key, T obj) {
    ObjectMeta m = obj.getMetadata();
    if (m != null) {
      m.setManagedFields(null);
      // the same few values on every object of a kind: one instance each
      m.setNamespace(intern(m.getNamespace()));
      if (m.getFinalizers() != null) {
        m.getFinalizers().replaceAll(LeanItemStore::intern);
      }
      if (m.getAnnotations() != null) {
        m.setAnnotations(internKeys(m.getAnnotations()));
      }
      if (m.getLabels() != null) {
        m.setLabels(internKeys(m.getLabels()));
      }
    }
    alsoDrop.accept(obj);
    return super.put(key, obj);
  }

  private static String intern(String s) {
    return s == null ? null : s.intern();
  }

  /** The map with its keys (and its values, label values repeat too) shared. */
  private static Map<String, String> internKeys(Map<String, String> map) {
    Map<String, String> out = new LinkedHashMap<>(map.size() * 4 / 3 + 1);
    map.forEach((k, v) -> out.put(intern(k), intern(v)));
    return out;
  }
}
