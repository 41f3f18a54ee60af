import json
import sys
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

import filler

STAT0 = (
    "cpu  100 0 100 800 0 0 0 0 0 0\ncpu0 50 0 50 400 0 0 0 0 0 0\n"
    "cpu1 50 0 50 400 0 0 0 0 0 0\nintr 1\n"
)
# cpu0 +100 busy of +100 ticks, cpu1 +25 busy of +100 ticks (+75 idle, iowait counts as idle)
STAT1 = (
    "cpu  225 0 100 850 25 0 0 0 0 0\ncpu0 150 0 50 400 0 0 0 0 0 0\n"
    "cpu1 75 0 50 450 25 0 0 0 0 0\n"
)


def test_utilisation_of_all_cpus_and_of_a_subset():
    assert filler.utilisation(STAT0, STAT1) == pytest.approx(125 / 200)
    assert filler.utilisation(STAT0, STAT1, {1}) == pytest.approx(0.25)
    assert filler.utilisation(STAT0, STAT1, {0}) == pytest.approx(1.0)


def test_cpu_lists_parse_like_the_kernels():
    assert filler.parse_cpus("0") == {0}
    assert filler.parse_cpus("0-2,5") == {0, 1, 2, 5}
    assert filler.parse_cpus("") == set()


def test_the_p95_ci_brackets_the_p95_by_order_statistics():
    lat = [float(i) for i in range(1, 1001)]
    low, high = filler.p95_ci(lat)
    assert low < filler.p95(lat) < high
    assert 930 <= low <= 950 and 950 <= high <= 965


def run_dir(root: Path, mode: str, rate: int, rep: int, latencies: list[float]) -> None:
    d = root / "runs" / f"{mode}-{rate}-r{rep}"
    d.mkdir(parents=True)
    meta = {"mode": mode, "rateRps": rate, "rep": rep, "wallMs": 2000}
    meta["fillerCpuMs"] = 800 if mode == "on" else 0
    (d / "meta.json").write_text(json.dumps(meta | {"classCpuMs": 400, "generatorCpus": "0"}))
    rows = "".join(f"{i},{ms},{int(ms < 1000)}\n" for i, ms in enumerate(latencies))
    (d / "samples.csv").write_text("due_unix_ms,latency_ms,ok\n" + rows)
    (d / "stat0").write_text(STAT0)
    (d / "stat1").write_text(STAT1)


def test_a_run_reports_p95_errors_cpu_and_the_pods_cpus(tmp_path):
    run_dir(tmp_path, "on", 24, 1, [10.0] * 95 + [50.0] * 4 + [2000.0])
    r = filler.analyse(tmp_path / "runs" / "on-24-r1")
    assert (r.count, r.errors, r.p95_ms) == (100, 1, 10.0)
    assert r.filler_millicores == 400 and r.class_millicores == 200
    assert r.pod_cpus_util == pytest.approx(0.25)  # cpu1: the generator has cpu0
    assert r.pods_used == pytest.approx(0.6)  # (200m + 400m) of one pod CPU
    assert r.p95_low_ms <= r.p95_ms <= r.p95_high_ms


def test_the_table_has_one_line_per_load_and_filler_and_the_section_replaces_itself(tmp_path):
    for rep in (1, 2):
        for mode in ("off", "on"):
            run_dir(tmp_path, mode, 24, rep, [float(i) for i in range(1, 101)])
    runs = [filler.analyse(d) for d in sorted((tmp_path / "runs").iterdir())]
    t = filler.table(runs)
    assert [line.split("|")[2].strip() for line in t.splitlines()[2:]] == ["off", "on"]
    meta = {"podCpu": "200m", "headroom": "800m", "cutoffRps": 48, "profileCpu": 150}
    meta |= {"targetMs": 50, "secondsPerRun": 20, "reps": 2, "generatorCpus": "0"}
    doc = tmp_path / "B.md"
    doc.write_text("# B\n\n## Next\n")
    for _ in range(2):
        filler.write_section(doc, filler.section(runs, meta, "host"), filler.KEY)
    new = doc.read_text()
    assert new.count("## Vertical headroom") == 1 and new.startswith("# B\n\n## Next\n")
