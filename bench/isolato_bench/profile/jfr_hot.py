#!/usr/bin/env python3
"""Where a JVM's CPU went in a JDK Flight Recorder file: its share of the machine, its busiest
threads, and the methods on the most CPU samples, by themselves (self) and with what they call
(inclusive). Used by `isolato-bench tenants` (PROFILE=DIR) on the controller during an
onboarding; any recording with execution samples will do.

  isolato-bench jfr-hot FILE.jfr [--top N] [--prefix dev.isolato.]
"""

from __future__ import annotations

import argparse
import json
import re
import subprocess
import sys
from collections import Counter, defaultdict
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from typing import Any

EVENTS = "jdk.ExecutionSample,jdk.ThreadCPULoad,jdk.CPULoad"
STACK_DEPTH = 128  # deep enough for JOSDK → fabric8 → Jackson stacks


def method_name(frame: Mapping[str, Any]) -> str:
    m = frame["method"]
    return f"{m['type']['name'].replace('/', '.')}.{m['name']}"


def thread_group(name: str) -> str:
    """Pool threads by their name without numbers: `pool-3-thread-7` → `pool-N-thread-N`."""
    return re.sub(r"\d+", "N", name)


@dataclass
class Profile:
    samples: int = 0
    self_counts: Counter[str] = field(default_factory=Counter)
    inclusive: Counter[str] = field(default_factory=Counter)
    by_thread: Counter[str] = field(default_factory=Counter)
    jvm_cpu: list[float] = field(default_factory=list)  # share of all the machine's cores
    thread_cpu: dict[str, list[float]] = field(default_factory=lambda: defaultdict(list))


def summarize(events: Iterable[Mapping[str, Any]]) -> Profile:
    p = Profile()
    for e in events:
        v = e["values"]
        if e["type"] == "jdk.ExecutionSample":
            frames = (v.get("stackTrace") or {}).get("frames") or []
            if not frames:
                continue
            p.samples += 1
            names = [method_name(f) for f in frames]
            p.self_counts[names[0]] += 1
            p.inclusive.update(set(names))  # recursion counts once
            p.by_thread[thread_group(v["sampledThread"]["javaName"] or "?")] += 1
        elif e["type"] == "jdk.CPULoad":
            p.jvm_cpu.append(v["jvmUser"] + v["jvmSystem"])
        elif e["type"] == "jdk.ThreadCPULoad":
            name = thread_group((v.get("eventThread") or {}).get("javaName") or "?")
            p.thread_cpu[name].append(v["user"] + v["system"])
    return p


def report(p: Profile, top: int, prefix: str) -> str:
    def pct(n: int) -> str:
        return f"{100 * n / p.samples:5.1f} %"

    out = [f"{p.samples} execution samples"]
    if p.jvm_cpu:
        mean = sum(p.jvm_cpu) / len(p.jvm_cpu)
        out.append(f"JVM CPU: mean {100 * mean:.1f} % of the machine over {len(p.jvm_cpu)} s")
    if not p.samples:
        return "\n".join(out)
    out.append("\nsamples by thread (numbers folded):")
    out += [f"  {pct(n)}  {t}" for t, n in p.by_thread.most_common(top)]
    if p.thread_cpu:
        busy = sorted(((sum(v) / len(v), t) for t, v in p.thread_cpu.items()), reverse=True)
        out.append("\nthread CPU (JFR's per-thread load, mean, share of the machine):")
        out += [f"  {100 * c:5.1f} %  {t}" for c, t in busy[:top] if c >= 0.005]
    out.append("\nself (the method on top of the stack):")
    out += [f"  {pct(n)}  {m}" for m, n in p.self_counts.most_common(top)]
    mine = [(m, n) for m, n in p.inclusive.most_common() if m.startswith(prefix)]
    out.append(f"\ninclusive, {prefix}* (the method anywhere on the stack):")
    out += [f"  {pct(n)}  {m}" for m, n in mine[:top]]
    out.append("\ninclusive, any method:")
    out += [f"  {pct(n)}  {m}" for m, n in p.inclusive.most_common(top)]
    return "\n".join(out)


def read(path: str) -> list[dict[str, Any]]:
    cmd = ["jfr", "print", "--json", "--events", EVENTS, "--stack-depth", str(STACK_DEPTH), path]
    text = subprocess.run(cmd, check=True, capture_output=True, text=True).stdout
    return json.loads(text)["recording"]["events"]


def parser(add_help: bool = True) -> argparse.ArgumentParser:
    """jfr_hot's options (also the `isolato-bench jfr-hot` subcommand's)."""
    ap = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawTextHelpFormatter, add_help=add_help
    )
    ap.add_argument("file")
    ap.add_argument("--top", type=int, default=25)
    ap.add_argument("--prefix", default="dev.isolato.")
    return ap


def main(argv: list[str] | None = None) -> int:
    a = parser().parse_args(argv)
    try:
        events = read(a.file)
    except (OSError, subprocess.CalledProcessError) as err:
        print(f"jfr_hot: cannot read {a.file}: {err}", file=sys.stderr)
        return 1
    print(report(summarize(events), a.top, a.prefix))
    return 0


if __name__ == "__main__":
    sys.exit(main())
