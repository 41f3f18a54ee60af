"""runtime_ab.py on recorded profiles of two runtimes (make test-bench-reports)."""

import json

import pytest
import runtime_ab
from pytest import approx

OLD = "runc version 1.1.5+ds1 (/usr/sbin/runc)"
NEW = "runc version 1.5.2 (/cache/runc-v1.5.2/bin/runc)"


def profile(*runs):
    """A cpu_profile.py summary of runs: (seconds, runc core-seconds, other core-seconds)."""
    return {
        "runs": [
            {"seconds": s, "coreSeconds": {"runc": rc, "kubelet": other}} for s, rc, other in runs
        ]
    }


PROFILES = [
    (OLD, 1, profile((16.0, 10.0, 20.0), (17.0, 11.0, 20.0), (18.0, 12.0, 20.0))),
    (NEW, 1, profile((12.0, 5.0, 20.0), (13.0, 6.0, 20.0), (14.0, 7.0, 20.0))),
    (OLD, 2, profile((20.0, 10.0, 20.0), (20.0, 10.0, 20.0), (20.0, 10.0, 20.0))),
    (NEW, 2, profile((18.0, 8.0, 20.0), (18.0, 8.0, 20.0), (18.0, 8.0, 20.0))),
]


def test_ratios_are_taken_within_a_round_and_spread_over_rounds():
    c = runtime_ab.compare(PROFILES, 100)
    assert c["reference"] == OLD and c["other"] == NEW
    # round 1: 13 / 17; round 2: 18 / 20
    assert c["ratiosPerRound"][0]["seconds"] == approx(13 / 17)
    assert c["ratiosPerRound"][1]["seconds"] == approx(18 / 20)
    assert c["ratios"]["seconds"]["min"] == approx(13 / 17)
    assert c["ratios"]["seconds"]["max"] == approx(0.9)
    assert c["ratios"]["seconds"]["median"] == approx((13 / 17 + 0.9) / 2)
    # the runtime's CPU per pod: round 1 6 s / 11 s of 100 pods
    assert c["ratiosPerRound"][0]["runtimeMsPerPod"] == approx(6 / 11)
    assert c["runtimes"][OLD]["median"]["runtimeMsPerPod"] == approx(100)
    assert c["runtimes"][NEW]["median"]["coreSeconds"] == approx(27.5)


def test_every_round_needs_both_runtimes():
    with pytest.raises(ValueError, match="lacks a runtime"):
        runtime_ab.compare(PROFILES[:3], 100)
    with pytest.raises(ValueError, match="two runtimes"):
        runtime_ab.compare(PROFILES[::2], 100)


def test_report_json_and_plot(tmp_path, capsys):
    paths = []
    for i, (label, rnd, p) in enumerate(PROFILES):
        f = tmp_path / f"p{i}.json"
        f.write_text(json.dumps(p))
        paths += [label, str(rnd), str(f)]
    out = tmp_path / "runtime-ab-1x100.json"
    runtime_ab.main(["runtime_ab.py", "vm, 2 cores, AMD EPYC", "100", "3", str(out), *paths])
    text = capsys.readouterr().out
    assert "runtime-ab.sh 100 3 2" in text
    assert "| time to all pods Ready (s) | 19.00 | 16.00 | -17 % (-24 % to -10 %) |" in text
    assert json.loads(out.read_text())["rounds"] == 2
    assert out.with_suffix(".png").stat().st_size > 0
