package dev.isolato.config;

/**
 * Published once a replica installed (or found) Isolato's CRDs and namespace, before it competes
 * for the lease: what every replica may now watch, whether or not it leads.
 */
public record ClusterBootstrapped() {}
