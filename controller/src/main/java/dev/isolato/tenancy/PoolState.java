package dev.isolato.tenancy;

/**
 * What a reconcile found out about one pool, the input of every tenant's status.
 *
 * @param namespace the pool namespace
 * @param desiredReplicas replicas the plan asks for
 * @param readyReplicas replicas the Deployment reports ready
 * @param tableSynced whether every ready pod holds the current table
 * @param syncMessage why the table is or is not in sync
 */
public record PoolState(
    String namespace,
    int desiredReplicas,
    int readyReplicas,
    boolean tableSynced,
    String syncMessage) {}
