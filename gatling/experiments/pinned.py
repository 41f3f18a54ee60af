#!/usr/bin/env python3
"""Runs a command with the pods' CPUs apart from the load generator's (runner/hygiene.py).

usage: pinned.py COMMAND [ARG...]
Narrows localkube's kubepods cpuset to the pods' CPUs, runs COMMAND with GEN_CPUS set to the
other CPUs (the command puts its generator there with `taskset -c $GEN_CPUS`), and restores
the cpuset whatever the command's outcome. Without a cgroup v1 cpuset (or with one CPU) the
command runs unpinned and GEN_CPUS is not set; the reason is printed.
"""

import json
import os
import subprocess
import sys

from runner.hygiene import CpusetPinning


def main(argv: list[str]) -> int:
    if not argv:
        print(__doc__, file=sys.stderr)
        return 2
    pinning = CpusetPinning()
    state = pinning.apply()
    print(f"[pinned] {json.dumps(state)}", file=sys.stderr)
    env = dict(os.environ)
    if state.get("pinned"):
        env["GEN_CPUS"] = state["generatorCpus"]
    try:
        return subprocess.call(argv, env=env)
    finally:
        if state.get("pinned"):
            print(f"[pinned] restored {len(pinning.restore())} cgroups", file=sys.stderr)


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
