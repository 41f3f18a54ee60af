"""What the runner reads from the cluster, through kubectl's JSON output.

A class's shared pool is found by the labels Isolato puts on its objects
(controller/.../tenancy/PoolObjects.java), never by a namespace name: the pool namespace scheme
is the controller's business.
"""

from __future__ import annotations

import json
import os
import subprocess
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

CLASS_LABEL = "isolato.dev/class"
ISOLATION_LABEL = "isolato.dev/isolation"
# The filler of a class with vertical headroom carries it: it is not the class's capacity.
ROLE_LABEL = "isolato.dev/role"
SYSTEM_NAMESPACE = "isolato-system"


class ClusterError(Exception):
    """kubectl failed, or the cluster does not hold what the run needs."""


def pool_selector(slo_class: str) -> str:
    """The label selector of a class's shared pool objects (not its filler's)."""
    return f"{CLASS_LABEL}={slo_class},{ISOLATION_LABEL}=shared,!{ROLE_LABEL}"


def service_url(services: Sequence[Mapping[str, Any]], slo_class: str) -> str:
    """The http://ClusterIP:port of the one shared-pool Service among services (kubectl items)."""
    if len(services) != 1:
        where = ", ".join(f"{s['metadata']['namespace']}/{s['metadata']['name']}" for s in services)
        raise ClusterError(
            f"class {slo_class}: expected one Service labelled {pool_selector(slo_class)}, "
            f"found {len(services)}{': ' + where if where else ''} "
            f"(kubectl get svc -A -l {pool_selector(slo_class)})"
        )
    spec = services[0]["spec"]
    ports = spec.get("ports") or []
    port = next((p["port"] for p in ports if p.get("name") == "http"), None)
    if not spec.get("clusterIP") or spec["clusterIP"] == "None" or port is None:
        raise ClusterError(f"class {slo_class}: its Service has no ClusterIP or no port 'http'")
    return f"http://{spec['clusterIP']}:{port}"


def ready_replicas(deployments: Sequence[Mapping[str, Any]]) -> int:
    """Ready pods over the given Deployments (kubectl items); 0 when there are none."""
    return sum(d.get("status", {}).get("readyReplicas", 0) or 0 for d in deployments)


@dataclass(frozen=True)
class Kubectl:
    kubeconfig: str | None = None
    binary: str = "kubectl"

    def _run(self, args: list[str], timeout: float) -> str:
        env = dict(os.environ)
        if self.kubeconfig:
            env["KUBECONFIG"] = self.kubeconfig
        try:
            done = subprocess.run(
                [self.binary, *args], env=env, capture_output=True, text=True, timeout=timeout
            )
        except (OSError, subprocess.TimeoutExpired) as e:
            raise ClusterError(f"kubectl {' '.join(args)}: {e}") from None
        if done.returncode != 0:
            raise ClusterError(f"kubectl {' '.join(args)}: {done.stderr.strip()}")
        return done.stdout

    def items(self, kind: str, selector: str) -> list[dict[str, Any]]:
        """Objects of a kind in every namespace matching a label selector."""
        out = self._run(["get", kind, "-A", "-l", selector, "-o", "json"], timeout=60)
        return list(json.loads(out)["items"])

    def class_service_url(self, slo_class: str) -> str:
        return service_url(self.items("services", pool_selector(slo_class)), slo_class)

    def class_ready_replicas(self, slo_class: str) -> int:
        return ready_replicas(self.items("deployments", pool_selector(slo_class)))

    def wait_tenant_serving(self, tenant: str, timeout_s: int) -> None:
        self._run(
            [
                "-n",
                SYSTEM_NAMESPACE,
                "wait",
                "--for=jsonpath={.status.phase}=Serving",
                f"tenant/{tenant}",
                f"--timeout={max(timeout_s, 1)}s",
            ],
            timeout=max(timeout_s, 1) + 30,
        )

    def wait_tenants_deleted(self, tenants: Sequence[str], timeout_s: int) -> None:
        if tenants:
            self._run(
                [
                    "-n",
                    SYSTEM_NAMESPACE,
                    "wait",
                    "--for=delete",
                    f"--timeout={timeout_s}s",
                    *(f"tenant/{t}" for t in tenants),
                ],
                timeout=timeout_s + 30,
            )
