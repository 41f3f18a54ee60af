package dev.isolato.tenancy;

import dev.isolato.tenancy.WorkloadTemplate.AppContainer;
import dev.isolato.tenancy.WorkloadTemplate.AppPort;
import java.util.List;

/** A go-httpbin workload: what docs/bring-your-service.md declares. */
public final class WorkloadFixtures {
  private WorkloadFixtures() {}

  public static WorkloadTemplate httpbin() {
    AppPort port = new AppPort();
    port.name = "app";
    port.containerPort = 8081;
    AppContainer c = new AppContainer();
    c.name = "httpbin";
    c.image = "localhost/isolato/go-httpbin:dev";
    c.args = List.of("-port", "8081");
    c.ports = List.of(port);
    WorkloadTemplate w = new WorkloadTemplate();
    w.containers = List.of(c);
    return w;
  }
}
