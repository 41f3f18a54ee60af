package dev.isolato.incontext;

import dev.isolato.calibration.CalibrationContext;
import dev.isolato.calibration.CalibrationRun;
import dev.isolato.tenancy.SloClass;
import dev.isolato.tenancy.SloClassStatus;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * The generator's run as stored: its steps, under the context the controller knows it measured (the
 * referee only knows its own flags): the site's label, the pod size, one replica, the neighbour
 * classes as {@code colocated}, and the site and the generator's own figures kept as evidence.
 */
final class InContextRun {
  private InContextRun() {}

  static CalibrationRun of(
      CalibrationRun measured,
      Site site,
      SloClass cls,
      SloClassStatus.InContext s,
      String podCpu,
      GeneratorOutput.Generator g) {
    Map<String, Object> more = new LinkedHashMap<>();
    more.put("inContext", s.id);
    more.put("node", site.node());
    put(more, "cpuModel", site.cpuModel());
    put(more, "cpuMhz", site.cpuMhz());
    put(more, "nodeBusyPct", site.nodeBusyPct());
    more.put("neighbourRps", site.neighbourRps());
    if (g != null) {
      put(more, "generatorCpuPct", g.cpuPct());
      put(more, "generatorNode", g.node());
    }
    more.put("neighbourPods", site.neighbourPods());
    Map<String, Integer> mix = new LinkedHashMap<>();
    if (cls.getStatus() != null && cls.getStatus().tenants != null) {
      mix.put(cls.getMetadata().getName(), cls.getStatus().tenants);
    }
    CalibrationContext context =
        new CalibrationContext(
            site.label(),
            podCpu,
            cls.getSpec().resources.memory,
            1,
            new ArrayList<>(site.neighbourPods().keySet()),
            mix,
            more);
    return new CalibrationRun(
        measured.schemaVersion(),
        measured.runId(),
        cls.getMetadata().getName(),
        measured.partial(),
        context,
        measured.steps());
  }

  private static void put(Map<String, Object> m, String k, Object v) {
    if (v != null) {
      m.put(k, v);
    }
  }
}
