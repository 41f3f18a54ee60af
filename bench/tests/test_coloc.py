import json
import math

import pytest
from isolato_bench import coloc

DISK0 = " 254       0 vda 10 0 80 5 100 0 2048 50 0 1000 1200 0 0 0 0 40 30\n 1 0 ram0 1 2 3\n"
# 10 s later: 20 MiB written (40960 sectors), 4 s of IO, 200 flushes
DISK1 = " 254       0 vda 10 0 80 5 300 0 43008 90 0 5000 6200 0 0 0 0 240 130\n 1 0 ram0 1 2 3\n"
STAT0 = "cpu  100 0 100 700 100 0 0 0 0 0\ncpu0 1 0 1 1 0 0 0 0 0 0\n"
STAT1 = "cpu  250 0 150 800 100 0 0 0 0 0\ncpu0 1 0 1 1 0 0 0 0 0 0\n"  # 200 busy of 300


def openloop(p95, low, high, offered=40.0, achieved=39.8, errors=0, cpu=3.5):
    total = {"count": 1200, "errors": errors, "p95": p95, "p95Low": low, "p95High": high}
    return {
        "steps": [{"offeredRps": offered, "achievedRps": achieved, "total": total}],
        "generator": {"cpuPct": cpu},
    }


def write_run(root, guard, rep, alone, beside, node2="localkube-2"):
    d = root / "runs" / f"guard-{'true' if guard else 'false'}-r{rep}"
    d.mkdir(parents=True)
    meta = {"guard": guard, "rep": rep, "sensitiveNode": "localkube"}
    meta["noisyNode"] = node2 if guard else "localkube"
    (d / "meta.json").write_text(json.dumps(meta))
    (d / "alone.json").write_text(json.dumps(openloop(*alone)))
    (d / "beside.json").write_text(json.dumps(openloop(*beside)))
    (d / "noisy.json").write_text(json.dumps(openloop(50, 40, 60, offered=8, achieved=7.5)))
    for part in ("alone", "beside"):
        (d / f"{part}0.diskstats").write_text(DISK0)
        (d / f"{part}1.diskstats").write_text(DISK1)
        (d / f"{part}0.t").write_text("1000000000")
        (d / f"{part}1.t").write_text("11000000000")
        (d / f"{part}0.stat").write_text(STAT0)
        (d / f"{part}1.stat").write_text(STAT1)
        (d / f"{part}.csv").write_text("due,ms,ok\n0.0,2.5,1\n0.025,30.0,1\n")
    return d


META = {
    "reps": 2,
    "secondsPerRun": 30,
    "aloneSeconds": 15,
    "sensitiveRps": 40,
    "noisyRps": 8,
    "noisyIoBlocks": 2048,
    "targetMs": 100,
    "node1": "localkube",
    "node2": "localkube-2",
    "disk": "/dev/vda",
}


@pytest.fixture
def result(tmp_path):
    (tmp_path / "meta.json").write_text(json.dumps(META))
    write_run(tmp_path, False, 1, (5, 4, 6), (40, 30, 50))
    write_run(tmp_path, True, 1, (5, 4, 6), (20, 16, 25))
    write_run(tmp_path, True, 2, (6, 5, 7), (30, 25, 36))
    write_run(tmp_path, False, 2, (6, 5, 7), (30, 24, 40))
    return tmp_path


def test_disk_counters_become_rates_of_the_named_device():
    d = coloc.disk(DISK0, DISK1, "vda", 10.0)
    assert d.write_mib_s == pytest.approx(2.0)
    assert d.flushes_s == pytest.approx(20.0)
    assert d.busy_pct == pytest.approx(40.0)
    with pytest.raises(ValueError, match="no device sdz"):
        coloc.disk(DISK0, DISK1, "sdz", 10.0)


def test_cpu_busy_leaves_out_idle_and_iowait():
    assert coloc.cpu_busy(STAT0, STAT1) == pytest.approx(100 * 200 / 300)


def test_a_generator_run_keeps_its_rate_errors_ci_and_own_cpu():
    g = coloc.load(openloop(12.5, 11, 14, offered=40, achieved=39, errors=2, cpu=4.2))
    assert (g.offered_rps, g.achieved_rps, g.errors, g.generator_cpu_pct) == (40, 39, 2, 4.2)
    assert (g.p95_ms, g.p95_low_ms, g.p95_high_ms) == (12.5, 11, 14)
    # a run without the CI or self-stats: the CI collapses to the p95, the CPU is unknown
    bare = openloop(12.5, None, None)
    del bare["generator"]
    g = coloc.load(bare)
    assert (g.p95_low_ms, g.p95_high_ms) == (12.5, 12.5) and math.isnan(g.generator_cpu_pct)


def test_the_ratio_pairs_repetitions_and_bounds_them_by_the_cis(result):
    runs, _ = coloc.read(result)
    q = coloc.ratio(runs)
    assert q.per_rep == pytest.approx([0.5, 1.0])
    assert q.ratio == pytest.approx(25 / 35)
    assert q.low == pytest.approx(16 / 50)  # rep 1: with-guard low over without-guard high
    assert q.high == pytest.approx(36 / 24)  # rep 2: with-guard high over without-guard low


def test_a_run_without_both_modes_has_no_ratio(result):
    runs, _ = coloc.read(result)
    with pytest.raises(ValueError, match="both"):
        coloc.ratio([r for r in runs if r.guard])


def test_the_report_has_a_row_per_run_and_the_ratio(result):
    runs, meta = coloc.read(result)
    text = coloc.report(runs, meta, "2026-11-27 21:00 UTC, host, 2 CPUs", "results/coloc")
    rows = [ln for ln in text.splitlines() if ln.startswith("| ") and ln[2].isdigit()]
    assert len(rows) == 4
    assert rows[0].startswith("| 1 | on | localkube / localkube-2 | 5.0 [4.0, 6.0] | 20.0")
    assert "**With / without guard: 0.71**" in text
    assert "per repetition 0.50, 1.00; from the p95s' CIs 0.32 to 1.50" in text
    assert "2, 20, 40 %" in text  # the disk beside the neighbour: MiB/s, flushes/s, busy
    assert "(results/coloc/coloc.png)" in text


def test_summary_means_per_mode(result):
    runs, _ = coloc.read(result)
    s = coloc.summary(runs)
    assert s["meanP95Ms"]["guardOff"]["beside"] == pytest.approx(35)
    assert s["meanP95Ms"]["guardOn"]["alone"] == pytest.approx(5.5)
    assert len(s["runs"]) == 4


def test_samples_are_the_latency_column():
    assert coloc.samples("due,ms,ok\n0.0,2.5,1\n0.1,7,0\n") == [2.5, 7.0]


def test_no_runs_is_an_error(tmp_path):
    (tmp_path / "meta.json").write_text(json.dumps(META))
    with pytest.raises(ValueError, match="no runs"):
        coloc.read(tmp_path)


def test_the_plot_is_written(result, tmp_path):
    runs, _ = coloc.read(result)
    out = tmp_path / "plots"
    out.mkdir()
    png = coloc.plot(result, out, runs)
    assert png == out / "coloc.png" and png.stat().st_size > 1000


def test_a_stored_run_is_dated_by_its_own_end():
    host = "2026-11-28 09:00 UTC, vm, 2 CPUs, load average 1.00 at the end"
    assert coloc.when({}, host, 2) == host
    meta = {"ended": "2026-11-27 21:27 UTC", "loadAverage": "2.08"}
    assert (
        coloc.when(meta, host, 2)
        == "2026-11-27 21:27 UTC, vm, 2 CPUs, load average 2.08 at the end"
    )
