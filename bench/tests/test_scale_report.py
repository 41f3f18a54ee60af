"""isolato-bench scale's table: ratios to the reference shape, the failed push shown, the heap
read from either collector's `jcmd GC.heap_info`."""

from isolato_bench import scale_report


def shape(tenants, classes, rss, p95, push_status=200):
    return {
        "tenants": tenants,
        "classes": classes,
        "posted_s": tenants / 100,
        "settled_s": 10.0,
        "writes_per_tenant": 2.0,
        "onboarding_p50_s": 0.05,
        "onboarding_p95_s": p95,
        "class_reconcile_p50_s": 0.01,
        "class_reconcile_p95_s": 0.02,
        "table_bytes": tenants * 100,
        "table_push_s": 0.002,
        "table_push_status": push_status,
        "rss_mib": rss,
        "heap_used_mib": 50.0,
        "threads": 80,
        "histogram": ["pid:", " num", "---", "   1:  10  100  [B"],
    }


def test_ratios_to_the_reference_and_a_refused_push():
    md = "\n".join(
        scale_report.report([shape(1000, 20, 200.0, 0.1), shape(10000, 200, 250.0, 0.15, 413)])
    )
    assert "| measure | 1,000 × 20 | 10,000 × 200 | ratio |" in md
    assert "| controller RSS, idle, after a full GC | 200 MiB | 250 MiB | 1.25× |" in md
    assert "| onboarding POST → Serving (watch), p95 | 100 ms | 150 ms | 1.50× |" in md
    assert "| 2.0 ms | 2.0 ms (HTTP 413) | 1.00× |" in md
    assert "   1:  10  100  [B" in md


def test_heap_used_from_g1_or_serial():
    g1 = " garbage-first heap   total 147456K, used 54860K [0x0, 0x1)\n  region size 1024K"
    serial = (
        " def new generation   total 39296K, used 1024K [0x0, 0x1)\n"
        "  eden space 34944K,   2% used [0x0, 0x1)\n"
        " tenured generation   total 87424K, used 51200K [0x0, 0x1)\n"
    )
    assert scale_report.heap_used_mib(g1) == 54860 / 1024
    assert scale_report.heap_used_mib(serial) == 51.0


NMT = """Native Memory Tracking:

Total: reserved=1500000KB, committed=300000KB
-                 Java Heap (reserved=262144KB, committed=110592KB)
                            (mmap: reserved=262144KB, committed=110592KB)

-                     Class (reserved=1056768KB, committed=13312KB)
-                    Thread (reserved=30000KB, committed=29696KB)
-                        GC (reserved=600KB, committed=512KB)
"""


def test_breakdown_from_native_memory_tracking_and_thread_names():
    committed = scale_report.nmt_committed_mib(NMT)
    assert committed == {"Java Heap": 108.0, "Class": 13.0, "Thread": 29.0, "GC": 0.5}
    groups = scale_report.thread_groups(["http-nio-8080-exec-1", "http-nio-8080-exec-12", "main"])
    assert groups == {"http-nio-#-exec-#": 2, "main": 1}
    small, big = shape(1000, 20, 200.0, 0.1), shape(10000, 200, 250.0, 0.15)
    small["committed_mib"] = {"Java Heap": 80.0, "Thread": 20.0, "GC": 0.5}
    big["committed_mib"] = committed
    big["thread_groups"] = groups
    md = "\n".join(scale_report.report([small, big]))
    assert "| Java Heap | 80 MiB | 108 MiB |" in md
    assert "| Class | 0 MiB | 13 MiB |" in md
    assert "GC" not in md.split("| Java Heap")[1].split("all areas")[0]
    assert "| all areas | 100 MiB | 150 MiB |" in md
    assert "2 `http-nio-#-exec-#`, 1 `main`" in md


def test_no_breakdown_without_tracking():
    md = "\n".join(scale_report.report([shape(1000, 20, 200.0, 0.1), shape(10, 2, 1.0, 0.1)]))
    assert "JVM area" not in md
