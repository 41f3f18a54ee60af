"""`isolato-bench scale`'s table: shapes (tenants × classes) → memory, onboarding, reconcile,
writes, table push, with ratios to the first shape measured in the same run (isolato_bench.scale
measures each shape)."""

# The controller's JVM options in the benchmark: the chart's javaOptions (helm/isolato/values.yaml)
# and the image's C1-only JIT.
# MaxRAM as the chart's memory limit: the JVM sizes its first heap and picks its collector from
# it, as in the pod (on this 24 GiB host it would start with a 256 MiB heap and hold more RSS).
JAVA_OPTS = (
    "-XX:MaxRAM=576m -Xmx256m -Xss512k -XX:+UseSerialGC -XX:TieredStopAtLevel=1"
    " -XX:+ExitOnOutOfMemoryError"
)


def heap_used_mib(heap_info: str) -> float:
    """The heap in use from `jcmd GC.heap_info` (G1's one line, or Serial's two generations)."""
    used = [
        int(line.split("used ")[1].split("K")[0])
        for line in heap_info.splitlines()
        if "used " in line and ("generation" in line or "garbage-first heap" in line)
    ]
    return sum(used) / 1024 if used else float("nan")


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
