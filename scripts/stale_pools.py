#!/usr/bin/env python3
"""Prints the namespaces of Isolato's pool pods that started before the newest of some images was
built, one per line, for `make run` to restart them.

The pools' images keep their :dev tags across rebuilds, so the pods of a cluster kept from an
earlier run would go on running the old build (after a change of the tenant table's format,
rejecting every table).

Usage: stale_pools.py IMAGE_TAG...   (podman on PATH; kubectl there or at $KUBECTL; KUBECONFIG set)
"""

from __future__ import annotations

import json
import os
import re
import subprocess
import sys
from datetime import datetime


def parse_time(text: str) -> datetime:
    """An RFC 3339 time (Kubernetes') or podman's "2026-11-29 16:51:18.21956092 +0000 UTC"."""
    t = text.strip()
    podman = re.fullmatch(r"(\S+) (\d\d:\d\d:\d\d)(\.\d+)? ([+-]\d{4})(?: \S+)?", t)
    if podman:
        day, clock, frac, zone = podman.groups()
        micros = (frac or ".0")[1:7].ljust(6, "0")
        return datetime.strptime(f"{day} {clock}.{micros} {zone}", "%Y-%m-%d %H:%M:%S.%f %z")
    return datetime.fromisoformat(re.sub(r"Z$", "+00:00", t))


def stale_namespaces(pods: dict, built: datetime) -> list[str]:
    """Namespaces with a pod (of a `kubectl get pods -o json` list) started before `built`."""
    stale = set()
    for pod in pods.get("items", []):
        started = pod.get("status", {}).get("startTime")
        if started and parse_time(started) < built:
            stale.add(pod["metadata"]["namespace"])
    return sorted(stale)


def main(tags: list[str]) -> int:
    if not tags:
        print(__doc__.strip().splitlines()[-1], file=sys.stderr)
        return 2
    built = max(
        parse_time(
            subprocess.run(
                ["podman", "image", "inspect", "--format", "{{.Created}}", tag],
                check=True,
                capture_output=True,
                text=True,
            ).stdout
        )
        for tag in tags
    )
    pods = subprocess.run(
        [
            os.environ.get("KUBECTL", "kubectl"),
            "get",
            "pods",
            "-A",
            "-l",
            "app.kubernetes.io/managed-by=isolato",
            "-o",
            "json",
        ],
        check=True,
        capture_output=True,
        text=True,
    ).stdout
    for ns in stale_namespaces(json.loads(pods), built):
        print(ns)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
