package dev.isolato.tenancy;

import io.fabric8.kubernetes.api.model.Condition;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/** What the controller and calibration know about a class. */
public class SloClassStatus {
  public Long observedGeneration;

  /** Measured cut-off points (written by calibration); empty until a calibration ran. */
  public List<CutoffPoint> cutoffs = new ArrayList<>();

  /** Fitted latency-model parameters by name (written by calibration). */
  public Map<String, Double> model;

  /** The plan the controller applied last for the class's shared pool. */
  public Plan plan;

  public int tenants;

  public List<Condition> conditions = new ArrayList<>();

  /** Highest request rate at which the latency target held, for a pool size and tenant mix. */
  public static class CutoffPoint {
    public int pods;
    public String context;
    public double rps;
  }

  /** A capacity plan as shown to users. */
  public static class Plan {
    public int replicas;
    public double capacityRps;
    public double committedRps;
    public String method;
    public List<String> explanation = new ArrayList<>();
  }
}
