package dev.isolato.tenancy;

import io.fabric8.kubernetes.api.model.Condition;
import java.util.ArrayList;
import java.util.List;

/**
 * What the pool reconciler found: its objects applied or why not (condition Ready), the pods, and
 * which table and master key the ready pods hold.
 */
public class SloPoolStatus {
  /** The spec generation this status was computed for. */
  public Long observedGeneration;

  /** Replicas of the pool's Deployment (the plan's, or more when the autoscaler added pods). */
  public int replicas;

  public int readyReplicas;

  /** The table version every ready pod accepted; absent until a push reached them all. */
  public String tableVersion;

  /**
   * Ready pods when {@link #tableVersion} was pushed; a pod that became ready since needs it too.
   */
  public int tablePods;

  /** Why the table is or is not on every ready pod. */
  public String tableMessage;

  /** Fingerprint of the master key whose pool token every ready pod accepts. */
  public String adminKey;

  /**
   * Ready: True when the pool's objects are applied; False with reason NamespaceConflict (an object
   * is not Isolato's) or ApplyFailed (retried).
   */
  public List<Condition> conditions = new ArrayList<>();
}
