"""The pod-size sequence: the class it posts the runs to, and the report over stored results."""

import json
import subprocess
import sys
from pathlib import Path

from runner.definition import load
from runner.pod_size import SIZES, sized_class

EXPERIMENTS = Path(__file__).resolve().parents[1]


def test_the_sized_class_declares_400m_with_every_measured_size_as_a_candidate():
    body = sized_class("r1")
    assert body["name"] == "sized-r1"
    assert body["spec"]["resources"] == {
        "cpu": "400m",
        "memory": "128Mi",
        "cpuCandidates": list(SIZES),
    }


def test_each_size_ramps_its_own_class_into_its_own_results():
    d = load(EXPERIMENTS / "defs" / "pod-size.yaml")
    e = d.resolve({"POD_CPU": "100m", "POD_SIZE_RUN": "r2"})
    assert [c.cpu for c in e.classes] == ["100m"]
    assert str(e.results) == "pod-size/r2/100m"
    assert e.simulation.properties["context"] == "podCpu=100m,podMemory=128Mi,replicas=1"


def _write_run(directory, rep, size, cutoff, rates):
    d = directory / rep / size
    d.mkdir(parents=True)
    (d / f"size-{size}.response.json").write_text(json.dumps({"perPodCutoffRps": cutoff}))
    (d / f"size-{size}.json").write_text(json.dumps({"steps": [{"offeredRps": r} for r in rates]}))


def test_the_report_gives_per_size_spread_per_core_rates_and_the_cpu_saved(tmp_path):
    _write_run(tmp_path, "r1", "100m", 6, [2, 3, 4])
    _write_run(tmp_path, "r2", "100m", 8, [2, 3, 4])
    _write_run(tmp_path, "r1", "400m", 90, [24, 36])
    plan = {
        "declared": "400m",
        "repetitions": {
            "r1": {
                "loads": [
                    {
                        "committedRps": 5,
                        "chosen": {"podCpuMillis": 100, "replicas": 1},
                        "declared": {"podCpuMillis": 400, "replicas": 1},
                    }
                ]
            }
        },
    }
    (tmp_path / "plan.json").write_text(json.dumps(plan))

    out = subprocess.run(
        [sys.executable, "pod_size.py", str(tmp_path)],
        cwd=EXPERIMENTS,
        capture_output=True,
        text=True,
        check=True,
    ).stdout

    assert "| 100m | r1: 6, r2: 8 | 7.0 ± 1.0 | 1 | 70 | 31% |" in out
    assert "| 5 | r1 | 1 → 400m | 100m × 1 → 100m | 75% |" in out
    summary = json.loads((tmp_path / "summary.json").read_text())
    assert summary["loads"][0]["saved"] == 0.75
