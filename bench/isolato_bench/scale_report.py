"""`isolato-bench scale`'s table: shapes (tenants × classes) → memory, onboarding, reconcile,
writes, table push, with ratios to the first shape measured in the same run (isolato_bench.scale
measures each shape)."""

import re

# The controller's JVM options in the benchmark: the chart's javaOptions (helm/isolato/values.yaml)
# and the image's C1-only JIT.
# MaxRAM as the chart's memory limit: the JVM sizes its first heap and picks its collector from
# it, as in the pod (on this 24 GiB host it would start with a 256 MiB heap and hold more RSS).
JAVA_OPTS = (
    "-XX:MaxRAM=576m -Xmx256m -Xss512k -XX:+UseSerialGC -XX:TieredStopAtLevel=1"
    " -XX:+ExitOnOutOfMemoryError"
)
# The measuring run adds native memory tracking (its own few MiB show as an area of their own).
TRACKING = "-XX:NativeMemoryTracking=summary"


def heap_used_mib(heap_info: str) -> float:
    """The heap in use from `jcmd GC.heap_info` (G1's one line, or Serial's two generations)."""
    used = [
        int(line.split("used ")[1].split("K")[0])
        for line in heap_info.splitlines()
        if "used " in line and ("generation" in line or "garbage-first heap" in line)
    ]
    return sum(used) / 1024 if used else float("nan")


def nmt_committed_mib(summary: str) -> dict[str, float]:
    """Committed MiB per area from `jcmd VM.native_memory summary` ("-  Java Heap (reserved=…KB,
    committed=…KB)"); empty when native memory tracking is off."""
    out: dict[str, float] = {}
    for m in re.finditer(r"^-\s+(.+?) \(reserved=\d+KB, committed=(\d+)KB", summary, re.M):
        out[m.group(1).strip()] = int(m.group(2)) / 1024
    return out


def thread_groups(names: list[str]) -> dict[str, int]:
    """Threads counted by name with their numbers left out ("http-nio-18080-exec-12" →
    "http-nio-#-exec-#"), largest group first."""
    counts: dict[str, int] = {}
    for n in names:
        key = re.sub(r"\d+", "#", n)
        counts[key] = counts.get(key, 0) + 1
    return dict(sorted(counts.items(), key=lambda kv: (-kv[1], kv[0])))


ROWS = [
    ("controller RSS, idle, after a full GC", "rss_mib", "{:.0f} MiB"),
    ("heap in use after a full GC", "heap_used_mib", "{:.0f} MiB"),
    ("threads", "threads", "{:.0f}"),
    ("tenants accepted per second (concurrency 50)", "rate", "{:.0f}/s"),
    ("first POST → every class counts its tenants", "settled_s", "{:.1f} s"),
    ("API writes per tenant", "writes_per_tenant", "{:.2f}"),
    ("onboarding POST → Serving (watch), p50", "onboarding_p50_s", "{:.0f} ms"),
    ("onboarding POST → Serving (watch), p95", "onboarding_p95_s", "{:.0f} ms"),
    ("one class's reconcile, p50 (histogram bucket)", "class_reconcile_p50_s", "{:.0f} ms"),
    ("one class's reconcile, p95 (histogram bucket)", "class_reconcile_p95_s", "{:.0f} ms"),
    ("a table of every tenant (one row each): size", "table_kib", "{:.0f} KiB"),
    ("its PUT to gate → saas-bench on this host, median of 5", "table_push_s", "{:.1f} ms"),
]


def report(results: list[dict]) -> list[str]:
    """The table: one column per shape, the first shape the reference (ratios to it)."""
    for r in results:
        r["rate"] = r["tenants"] / r["posted_s"]
        r["table_kib"] = r["table_bytes"] / 1024
    ref = results[0]
    head = ["measure"]
    for r in results:
        head.append(f"{r['tenants']:,} × {r['classes']}")
        if r is not ref:
            head.append("ratio")
    lines = ["| " + " | ".join(head) + " |", "|" + "---|" * len(head)]
    for label, key, fmt in ROWS:
        ms = fmt.endswith("ms") and key.endswith("_s")
        cells = [label]
        for r in results:
            v = r[key] * 1000 if ms else r[key]
            cell = fmt.format(v)
            if key == "table_push_s" and r["table_push_status"] != 200:
                cell += f" (HTTP {r['table_push_status']})"
            cells.append(cell)
            if r is not ref:
                cells.append(f"{r[key] / ref[key]:.2f}×" if ref[key] else "")
        lines.append("| " + " | ".join(cells) + " |")
    big = results[-1]
    lines += breakdown(results)
    lines += [
        "",
        f"Heap histogram of the {big['tenants']:,}-tenant controller after a full GC "
        "(`jcmd GC.class_histogram`, top rows):",
        "",
        "```text",
        *[h.rstrip() for h in big["histogram"][3:18]],
        "```",
    ]
    return lines


def breakdown(results: list[dict]) -> list[str]:
    """Where each shape's RSS goes (native memory tracking's committed MiB, areas of ≥ 1 MiB, with
    the JVM's threads by name); nothing when the run had it off."""
    if not all(r.get("committed_mib") for r in results):
        return []
    areas = sorted(
        {a for r in results for a, mib in r["committed_mib"].items() if mib >= 1},
        key=lambda a: -results[-1]["committed_mib"].get(a, 0.0),
    )
    head = ["JVM area (committed)", *(f"{r['tenants']:,} × {r['classes']}" for r in results)]
    lines = [
        "",
        "Where the memory goes, after the same full GC (`-XX:NativeMemoryTracking=summary`, "
        "`jcmd VM.native_memory summary`; committed is an upper bound of what is resident, and "
        "the tracking's own area is not in a pod's RSS):",
        "",
        "| " + " | ".join(head) + " |",
        "|" + "---|" * len(head),
    ]
    for a in areas:
        cells = [f"{r['committed_mib'].get(a, 0.0):.0f} MiB" for r in results]
        lines.append(f"| {a} | " + " | ".join(cells) + " |")
    totals = [f"{sum(r['committed_mib'].values()):.0f} MiB" for r in results]
    lines.append("| all areas | " + " | ".join(totals) + " |")
    groups = results[-1].get("thread_groups") or {}
    if groups:
        top = ", ".join(f"{n} `{g}`" for g, n in list(groups.items())[:6])
        lines += ["", f"Threads of the largest shape by name (numbers as #): {top}."]
    return lines
