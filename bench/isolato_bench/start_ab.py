"""`isolato-bench start-ab`: the controller's start, variants alternated in one run
(bench/sh/start-ab.sh prints one TSV line per start); the summary, with each variant's ratio to
the plain start measured in the same run; and where a start's time goes, from the Spring startup
steps the controller writes with -Disolato.startup-steps (dev.isolato.StartupSteps)."""

from __future__ import annotations

import json
import statistics
import sys
from collections.abc import Iterable, Mapping
from pathlib import Path
from typing import Any

VARIANTS = {
    "plain": "no application CDS archive",
    "cds": "AppCDS archive of a training start to Spring's refresh",
    "cds-c1": "the same, C1 compiler only (-XX:TieredStopAtLevel=1)",
    "cds-lazy": "the same, Spring beans created on first use (lazy initialization)",
    "aot": "Spring AOT bean definitions (-Dspring.aot.enabled=true)",
    "cds-aot": "Spring AOT and an AppCDS archive trained with it",
    "cds-aot-c1": "the same, C1 compiler only",
    "image": "the controller image (its entrypoint: AOT + AppCDS + C1), `podman run` on the host",
}
BASE = "@base"  # the same variant of BASE_JAR: the jar before a change, in the same run

Run = tuple[float, float | None, float]


def describe(variant: str) -> str | None:
    name, base, _ = variant.partition(BASE)
    if name not in VARIANTS:
        return None
    return f"{name}{BASE}: the jar before the change, {name}" if base else VARIANTS[name]


def parse(lines: Iterable[str]) -> dict[str, list[Run]]:
    runs: dict[str, list[Run]] = {}
    for line in lines:
        f = line.rstrip("\n").split("\t")
        if len(f) != 5 or describe(f[0]) is None:
            continue
        spring = None if f[3] == "?" else float(f[3])
        runs.setdefault(f[0], []).append((float(f[2]), spring, float(f[4])))
    return runs


def order(variant: str) -> tuple[int, bool]:
    """VARIANTS' order, each variant's base (before) ahead of it (after)."""
    name = variant.partition(BASE)[0]
    return list(VARIANTS).index(name), variant == name


def table(runs: Mapping[str, list[Run]]) -> list[str]:
    """The variants' medians, with their ratio to the plain start or, in a run without it (a
    before/after run), to the first variant: the base's."""
    ref_name = "plain" if "plain" in runs else min(runs, key=order)
    ref = statistics.median(r[0] for r in runs[ref_name])
    out = [
        f"| variant | launch → /readyz 200, median (s) | ratio to {ref_name} | Spring's own "
        "`Started … in`, median (s) | RSS at ready, median (MiB) | runs (s) |",
        "|---|---|---|---|---|---|",
    ]
    for v in sorted(runs, key=order):
        rs = runs[v]
        ready = statistics.median(r[0] for r in rs)
        springs = [r[1] for r in rs if r[1] is not None]
        spring = f"{statistics.median(springs):.2f}" if springs else "?"
        name = v if BASE in v else f"{v}: {describe(v)}"
        out.append(
            f"| {name} | {ready:.2f} | {ready / ref:.2f} | {spring} | "
            f"{statistics.median(r[2] for r in rs):.0f} | "
            f"{' '.join(f'{r[0]:.2f}' for r in rs)} |"
        )
    return out


# --- where a start's time goes -----------------------------------------------------------------

# Spring Boot's top-level steps, in the order they run, and the names they get here.
PHASES = {
    "spring.boot.application.starting": "Spring Boot starting (listeners)",
    "spring.boot.application.environment-prepared": "environment (properties, logging)",
    "spring.boot.application.context-prepared": "context prepared",
    "spring.boot.application.context-loaded": "context loaded",
    "spring.context.refresh": "context refresh",
    "spring.boot.application.started": "started (runners)",
    "spring.boot.application.ready": "ready (listeners, readiness)",
}
BEAN = "spring.beans.instantiate"


def phases(doc: Mapping[str, Any]) -> dict[str, float]:
    """A start's wall time in ms by phase: the JVM before Spring, Spring's top-level steps (the
    refresh split into bean creation, Isolato's cluster steps and the rest: the web servers'
    start and other lifecycle), and what is not in a step."""
    steps = doc["steps"]
    out = {"JVM start → Spring's first step": doc["springStartMs"] - doc["jvmStartMs"]}
    top = [s for s in steps if s["parentId"] is None]
    refresh = next((s for s in top if s["name"] == "spring.context.refresh"), None)
    for s in top:
        label = PHASES.get(s["name"], s["name"])
        out[label] = out.get(label, 0.0) + s["durationMs"]
    if refresh is not None:
        children = [s for s in steps if s["parentId"] == refresh["id"]]
        beans = sum(s["durationMs"] for s in children if s["name"] == BEAN)
        own = {s["name"]: s["durationMs"] for s in children if s["name"].startswith("isolato.")}
        rest = out.pop(PHASES["spring.context.refresh"]) - beans - sum(own.values())
        out["refresh: bean creation"] = beans
        for name, ms in own.items():
            out[f"refresh: {name}"] = ms
        out["refresh: the rest (bean factory set-up, web servers' start, lifecycle)"] = rest
    last_end = max(s["startMs"] + s["durationMs"] for s in steps)
    out["last step → ready written"] = doc["readyMs"] - last_end
    total = doc["readyMs"] - doc["jvmStartMs"]
    out["between Spring's steps (banner, context creation)"] = total - sum(out.values())
    out["JVM start → ready"] = total
    return out


def bean_self_ms(doc: Mapping[str, Any]) -> dict[str, float]:
    """Each bean's creation time in ms without the beans it created on the way (its own)."""
    steps = doc["steps"]
    children: dict[int, float] = {}
    for s in steps:
        if s["name"] == BEAN and s["parentId"] is not None:
            children[s["parentId"]] = children.get(s["parentId"], 0.0) + s["durationMs"]
    out: dict[str, float] = {}
    for s in steps:
        if s["name"] == BEAN:
            name = s["tags"].get("beanName", "?")
            out[name] = out.get(name, 0.0) + s["durationMs"] - children.get(s["id"], 0.0)
    return out


def steps_table(docs: Mapping[str, list[Mapping[str, Any]]], top: int = 12) -> list[str]:
    """Phase medians (ms) per variant, side by side, and the beans slowest to create in the last
    variant (VARIANTS' order: the image's)."""
    names = list(docs)
    per = {v: [phases(d) for d in ds] for v, ds in docs.items()}
    labels: list[str] = []
    for v in names:
        for p in per[v]:
            labels += [k for k in p if k not in labels]
    out = [
        "| phase, median (ms) | " + " | ".join(names) + " |",
        "|---|" + "---|" * len(names),
    ]
    for label in labels:
        cells = []
        for v in names:
            xs = [p[label] for p in per[v] if label in p]
            cells.append(f"{statistics.median(xs):.0f}" if xs else "—")
        out.append(f"| {label} | " + " | ".join(cells) + " |")
    last = names[-1]
    beans: dict[str, list[float]] = {}
    for d in docs[last]:
        for name, ms in bean_self_ms(d).items():
            beans.setdefault(name, []).append(ms)
    ranked = sorted(beans.items(), key=lambda kv: -statistics.median(kv[1]))[:top]
    out += [
        "",
        f"Beans slowest to create in {last} (own time, without the beans they created; median):",
        "",
        "| bean | ms |",
        "|---|---|",
    ]
    out += [f"| {name} | {statistics.median(ms):.0f} |" for name, ms in ranked]
    return out


def read_steps(directory: Path) -> dict[str, list[Mapping[str, Any]]]:
    """The steps files start-ab.sh had the starts write (<variant>-<run>.json), by variant."""
    docs: dict[str, list[Mapping[str, Any]]] = {}
    for f in sorted(directory.glob("*.json")):
        variant = f.stem.rsplit("-", 1)[0]
        docs.setdefault(variant, []).append(json.loads(f.read_text()))
    return dict(sorted(docs.items(), key=lambda kv: order(kv[0])))


def condensed(docs: Mapping[str, list[Mapping[str, Any]]], top: int = 30) -> dict[str, Any]:
    """What results/ keeps of the steps: each start's phases and its slowest beans (ms)."""
    return {
        v: [
            {
                "phases": phases(d),
                "beans": dict(sorted(bean_self_ms(d).items(), key=lambda kv: -kv[1])[:top]),
            }
            for d in ds
        ]
        for v, ds in docs.items()
    }


def main(lines: list[str]) -> list[str]:
    runs = parse(lines)
    if not runs:
        raise SystemExit("no start measured")
    return table(runs)


if __name__ == "__main__":
    print("\n".join(main(sys.stdin.readlines())))
