package dev.isolato.tenancy;

import io.fabric8.generator.annotation.Required;
import java.util.ArrayList;
import java.util.List;

/**
 * What one pool must be, as its class reconciler planned it: everything the pool's objects are
 * built from, so that the pool reconciler needs nothing else (but the pool master key, a Secret).
 */
public class SloPoolSpec {
  /** The class the pool belongs to (also its owner). */
  @Required public String sloClass;

  /** The tenant whose own pool this is; absent for the class's shared pool. */
  public String dedicatedTenant;

  /** The ids of the tenants the pool serves (its table's rows). */
  public List<String> tenants = new ArrayList<>();

  /** The class's spec the plan was made for. */
  @Required public SloClassSpec classSpec;

  /** Pods the plan asks for: a floor, the autoscaler may add more up to the class's maximum. */
  public int replicas;

  /** Pod CPU (millicores) the plan chose among the class's candidates; absent: spec.resources. */
  public Long podCpuMillis;

  /** The per-pod cut-off (req/s) the plan rests on. */
  public double perPodCutoffRps;

  /**
   * Whether the tenants' committed writes or syncs make the pool IO-heavy ({@link PoolIo}): the
   * pods' objects are built from this resource, which names the tenants but does not hold them.
   */
  public boolean ioHeavy;

  /** The largest io (4 KiB blocks per request) of the tenants: the derived scratch's size. */
  public int maxIo;

  /** The tenant table (JSON) the pool's pods admit by. */
  @Required public String table;

  /** The autoscaler of the pool: {@code hpa} (CPU) or {@code keda} (a ScaledObject). */
  public String autoscaler = HPA;

  /** How the ScaledObject polls; set when {@link #autoscaler} is {@code keda}. */
  public KedaSettings keda;

  /** Who may reach the pool's Service port. */
  @Required public NetworkPeers peers;

  /**
   * The isolato-gate sidecar's image (the controller's isolato.pools.gate-image); absent: {@link
   * Workload#GATE_IMAGE}.
   */
  public String gateImage;

  public static final String HPA = "hpa";
  public static final String KEDA = "keda";

  /** The table's version (its "version" field), or "?" when it has none. */
  public String tableVersion() {
    return TenantTable.version(table);
  }
}
