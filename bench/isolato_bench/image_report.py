"""The controller image on localkube (`isolato-bench image`) as a docs/benchmarks-log.md section,
from what bench/sh/image.sh measured into WORK: `image` (its name), `size` (bytes), `history`
(`podman history` layer sizes, newest first), per variant a file of runs ("SECONDS_TO_READY
JVM_AT_STARTED SPRING_START" per line) and `gap-graceful` / `gap-crash` (seconds until another
replica held the lease, one per line).
"""

from __future__ import annotations

import math
from datetime import UTC, datetime
from pathlib import Path

from runner.sections import cpu_model

VARIANTS = ("cds", "no-cds", "cds-cpu500m")
LAYERS = ("CDS archive", "app (extracted jar)", "JRE + libraries")


def si(n: float) -> str:
    """Bytes as `numfmt --to=si` prints them: rounded up, one decimal below 10 (124M, 1.3G)."""
    unit = ""
    for unit in ("", "k", "M", "G", "T"):
        if n < 1000 or unit == "T":
            break
        n /= 1000
    if unit and n < 10:
        return f"{math.ceil(n * 10) / 10:.1f}{unit}"
    return f"{math.ceil(n)}{unit}"


def low_median(xs: list[str]) -> str:
    """The lower middle value, as the shell's `sort -n | awk` median picked it."""
    s = sorted(xs, key=float)
    return s[(len(s) + 1) // 2 - 1]


def report(work: Path, root: Path, runs: int, cpus: int) -> str:
    image = (work / "image").read_text().strip()
    sizes = [s for s in (work / "history").read_text().splitlines() if s.strip() != "0 B"]
    layers = ", ".join(f"{what} {s}" for what, s in zip(LAYERS, sizes, strict=False))
    modules = sum(
        1
        for line in (root / "controller/image/modules").read_text().splitlines()
        if not line.startswith("#")
    )
    out = [
        "## Controller image",
        "",
        f"### {datetime.now(UTC):%Y-%m-%d %H:%M UTC} — {cpus} CPUs, {cpu_model()}, localkube"
        " v1.34.4 (`isolato-bench image`)",
        "",
        f"Image `{image}`: {si(int((work / 'size').read_text()))}B uncompressed ({layers})."
        f" FROM scratch: a jlink JRE (OpenJDK 17, {modules} modules), the 6 shared libraries it"
        " links, the extracted Spring Boot jar.",
        "",
        f"| variant | pod deleted → new pod Ready, median of {runs} (s)"
        " | JVM start → Spring Started (s) | of which Spring's own start (s) | runs (s) |",
        "|---|---|---|---|---|",
    ]
    for v in VARIANTS:
        rows = [line.split() for line in (work / v).read_text().splitlines() if line.strip()]
        cols = [[r[i] if len(r) > i else "" for r in rows] for i in range(3)]
        med = [low_median([x for x in c if x]) if any(c) else "" for c in cols]
        out.append(f"| {v} | {med[0]} | {med[1]} | {med[2]} | {' '.join(cols[0])} |")
    gaps = {h: (work / f"gap-{h}").read_text().split() for h in ("graceful", "crash")}
    out += [
        "",
        f"Leader hand-over (2 replicas, lease 10 s / renew 8 s / retry 2 s), leader's pod deleted"
        f" → the other replica holds the lease, median of {runs}: pod deleted (the leader"
        f" releases the lease) {low_median(gaps['graceful'])} s ({' '.join(gaps['graceful'])});"
        f" JVM killed with SIGKILL (the lease expires) {low_median(gaps['crash'])} s"
        f" ({' '.join(gaps['crash'])}).",
    ]
    return "\n".join(out) + "\n"
