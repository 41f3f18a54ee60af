"""cpu_profile.py on a recorded perf report and counters (make test-bench-reports)."""

import json

from isolato_bench import cpu_profile
from pytest import approx

# `perf report --sort comm --stdio -F sample,comm` of 10 s on 2 cores at 99 Hz (1980 samples)
REPORT = """# To display the perf.data header info, please use --header/--header-only options.
#
# Samples: 1K of event 'cpu-clock:ppp'
#
     Samples  Command
# ..........  ...............
#
         396  swapper
         495  runc
          99  runc:[2:INIT]
         198  containerd-shim
          99  bridge
          50  iptables
         198  kubelet
         297  kube-apiserver
          99  etcd
          49  C2 CompilerThre
"""


def counters(busy, total, cp, node, pods):
    idle = total - busy
    return f"cpu  {busy} 0 0 {idle} 0 0 0 0 0 0\ncontrol-plane {cp}\nnode {node}\nkubepods {pods}\n"


BEFORE = counters(1000, 5000, 10**9, 2 * 10**9, 10**9)
# 2000 jiffies = 20 core-seconds; 16 busy; control plane 4 s, node 9 + 1 s
AFTER = counters(2600, 7000, 5 * 10**9, 11 * 10**9, 2 * 10**9)


def test_samples_are_grouped_by_process_and_counted_in_core_seconds():
    r = cpu_profile.run_profile(REPORT, BEFORE, AFTER, 10.0, 2)
    assert r["samples"] == 1980
    assert r["coreSeconds"]["runc"] == approx((495 + 99) / 99)
    assert r["coreSeconds"]["CNI plugins + iptables"] == approx((99 + 50) / 99)
    assert r["coreSeconds"]["other"] == approx(49 / 99)
    assert "swapper" not in r["coreSeconds"]
    assert r["perf"]["busy"] == approx((1980 - 396) / 1980)


def test_both_instruments_are_shares_of_the_same_cores():
    r = cpu_profile.run_profile(REPORT, BEFORE, AFTER, 10.0, 2)
    assert r["meters"]["busy"] == approx(1600 / 2000)
    assert r["meters"]["controlPlane"] == approx(4 / 20)
    assert r["meters"]["node"] == approx(10 / 20)
    # perf: kube-apiserver + etcd = 396 of 1980 samples
    assert r["perf"]["controlPlane"] == approx(396 / 1980)


def test_summary_report_and_plot(tmp_path):
    for n, secs in ((1, 10.0), (2, 12.0), (3, 11.0)):
        (tmp_path / f"r{n}.report").write_text(REPORT)
        (tmp_path / f"r{n}.before").write_text(BEFORE)
        (tmp_path / f"r{n}.after").write_text(AFTER)
        (tmp_path / f"r{n}.seconds").write_text(f"{secs}\n")
    out = tmp_path / "profile.json"
    md = cpu_profile.main("vm, 2 cores, AMD EPYC", 100, tmp_path, out)
    s = json.loads(out.read_text())
    assert s["seconds"] == 11.0
    assert next(iter(s["coreSeconds"])) == "runc"  # largest first
    assert s["msPerPod"]["runc"] == approx(1000 * 6 / 100)
    assert out.with_suffix(".png").stat().st_size > 0  # outside results/: beside its data
    assert "| runc | 6.00 |" in md and "(10.00, 12.00, 11.00)" in md


def test_a_run_without_samples_is_refused():
    try:
        cpu_profile.run_profile("# nothing\n", BEFORE, AFTER, 1.0, 2)
    except ValueError as e:
        assert "no samples" in str(e)
    else:
        raise AssertionError("accepted a run perf did not sample")
