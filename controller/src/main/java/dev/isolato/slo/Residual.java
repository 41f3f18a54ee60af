package dev.isolato.slo;

/** Measured against predicted latency at one step; {@code residualMs = measured − predicted}. */
public record Residual(
    int stepIndex,
    int replicas,
    double offeredRps,
    double measuredMs,
    double predictedMs,
    double residualMs) {}
