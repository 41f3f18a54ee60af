"""The sections the measuring subcommands render from what their shell helpers left behind
(pipeline_report, tenants_report, slo_report, image_report)."""

from __future__ import annotations

import json
from pathlib import Path

from isolato_bench import image_report, pipeline_report, slo_report, tenants_report

ROOT = Path(__file__).resolve().parents[2]
STORED = ROOT / "results" / "pipeline" / "kwok-16x100.json"


def analysis(seconds: float, predicted: float) -> dict:
    a = json.loads(STORED.read_text())
    a["iterations"] = a["iterations"][:1]
    a["iterations"][0] |= {"measuredSeconds": seconds, "predictedSeconds": predicted}
    return a


def test_pipeline_rows_per_repeat_and_the_median_reduction(tmp_path):
    for r, (d, t) in enumerate([(100.0, 50.0), (80.0, 60.0), (90.0, 45.0)], start=1):
        (tmp_path / f"default-{r}.json").write_text(json.dumps(analysis(d, 30.0)))
        (tmp_path / f"tuned-{r}.json").write_text(json.dumps(analysis(t, 40.0)))
    md = pipeline_report.report(tmp_path, 1, 100, 3, ["k=1:2"], "vm", "1.0", "2.0", kwok="16")
    assert "1 × 100 pods on 16 KWOK fake nodes" in md
    assert "`KWOK_NODES=16 isolato-bench pipeline 1 100 3 k=1:2`" in md
    assert "| 1 | 100.00 | 50.00 | 50.0 % | S3 → S3 | 40.00 |" in md
    # medians 90 and 50: 44.4 % less; per repeat 50, 25 and 50 %
    assert "Median default 90.00 s, tuned 50.00 s: **44.4 % less**" in md
    assert "(per-repeat reductions 25.0\u201350.0 %, ± 12.5 points)" in md


def test_tenants_timings_medians_and_traces(tmp_path):
    (tmp_path / "timings.tsv").write_text(
        "default 1 10 20 40 8\ntuned 1 5 10 20 4\ndefault 2 12 22 44 9\ntuned 2 6 11 22 5\n"
    )
    (tmp_path / "traces").mkdir()
    trace = {
        "name": "tenants",
        "tracedSeconds": 39.5,
        "stages": {"S1": 3.0, "S5": 20.0},
        "cpu": {"controlPlane": 0.5, "node": 0.2, "client": 0.1, "host": 0.9},
        "decision": "applied",
    }
    (tmp_path / "traces" / "default-1.json").write_text(json.dumps([trace]))
    md = tenants_report.report(tmp_path, 50, 2, ["a=1:2"], "vm", "1", "2")
    assert "| 1 | 10.00 / 5.00 | 20.00 / 10.00 | 40.00 / 20.00 | 50.0 % |" in md
    assert "- 50 dedicated tenants Serving: median default 42.00 s, tuned 21.00 s" in md
    assert "| 50 dedicated tenants | default | 39.50 | 3.00 | 0.00 | 0.00 | 0.00 | 20.00 |" in md
    assert "| \u2013 | applied | 50 / 20 / 10 / 90 % |" in md


def jmh(name: str, score_us: float, error_us: float, raw: list[float]) -> dict:
    return {
        "benchmark": f"dev.isolato.slo.bench.SloEngineBenchmark.{name}",
        "primaryMetric": {"score": score_us, "scoreError": error_us, "rawData": [raw]},
    }


def test_slo_goals_are_met_or_missed_by_mean_plus_error(tmp_path):
    names = [n for n, *_ in slo_report.ROWS]
    results = [jmh(n, 1000.0, 100.0, [900.0, 1000.0, 1100.0]) for n in names]
    f = tmp_path / "jmh.json"
    f.write_text(json.dumps(results))
    md, ok = slo_report.report(f, "vm", 2, "EPYC", "openjdk 17", "0.5 0.4 0.3")
    assert ok and "| 1.000 | 0.100 | 1.000 | 0.900\u20131.100 | 3 | ≤ 50 ms: met | 1.0× |" in md
    results[0] = jmh(names[0], 49_000.0, 2_000.0, [49_000.0])
    f.write_text(json.dumps(results))
    md, ok = slo_report.report(f, "vm", 2, "EPYC", "openjdk 17", "9.0 1 1")
    assert not ok and "≤ 50 ms: MISSED" in md and "Contended run" in md


def test_image_medians_and_hand_over(tmp_path):
    (tmp_path / "image").write_text("localhost/isolato/controller:dev\n")
    (tmp_path / "size").write_text("123456789\n")
    (tmp_path / "history").write_text("20MB\n0 B\n60MB\n40MB\n")
    for v in image_report.VARIANTS:
        (tmp_path / v).write_text("5.1 3.0 2.0\n4.2 2.5 1.8\n6.3 3.5 2.2\n")
    (tmp_path / "gap-graceful").write_text("1.1\n0.9\n1.0\n")
    (tmp_path / "gap-crash").write_text("12.0\n11.0\n13.0\n")
    md = image_report.report(tmp_path, ROOT, 3, 2)
    assert image_report.si(1_234_567_890) == "1.3G" and image_report.si(999) == "999"
    assert "124MB uncompressed (CDS archive 20MB, app (extracted jar) 60MB, JRE + libraries" in md
    assert "| cds | 5.1 | 3.0 | 2.0 | 5.1 4.2 6.3 |" in md
    assert "releases the lease) 1.0 s (1.1 0.9 1.0)" in md and "expires) 12.0 s" in md
