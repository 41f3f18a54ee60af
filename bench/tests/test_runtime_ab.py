"""runtime_ab.py on recorded profiles of two runtimes (make test-bench-reports)."""

import json

import pytest
from isolato_bench import runtime_ab
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


def limited(text):
    return runtime_ab.parse_limited(text)


# the limited pods: the second runtime slower, with more CPU in the pods' cgroups
PROFILES = [
    (
        OLD,
        1,
        profile((16.0, 10.0, 20.0), (17.0, 11.0, 20.0), (18.0, 12.0, 20.0)),
        limited("4.0 40000"),
    ),
    (
        NEW,
        1,
        profile((12.0, 5.0, 20.0), (13.0, 6.0, 20.0), (14.0, 7.0, 20.0)),
        limited("5.0 50000"),
    ),
    (
        OLD,
        2,
        profile((20.0, 10.0, 20.0), (20.0, 10.0, 20.0), (20.0, 10.0, 20.0)),
        limited("5.0 40000"),
    ),
    (
        NEW,
        2,
        profile((18.0, 8.0, 20.0), (18.0, 8.0, 20.0), (18.0, 8.0, 20.0)),
        limited("5.5 48000"),
    ),
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
    # limited pods: 5.0 / 4.0 and 5.5 / 5.0; CPU 50 / 40 and 48 / 40 ms
    assert c["ratios"]["limitedSeconds"]["min"] == approx(1.1)
    assert c["ratios"]["limitedSeconds"]["max"] == approx(1.25)
    assert c["ratios"]["limitedPodCpuMs"]["median"] == approx((1.25 + 1.2) / 2)
    assert c["runtimes"][OLD]["median"]["limitedPodCpuMs"] == approx(40)


def test_every_round_needs_both_runtimes():
    with pytest.raises(ValueError, match="lacks a runtime"):
        runtime_ab.compare(PROFILES[:3], 100)
    with pytest.raises(ValueError, match="two runtimes"):
        runtime_ab.compare(PROFILES[::2], 100)


def test_report_json_and_plot(tmp_path):
    rounds = []
    for i, (label, rnd, p, lim) in enumerate(PROFILES):
        d = tmp_path / f"p{i}"
        d.mkdir()
        (d / "cpu-profile-1x100.json").write_text(json.dumps(p))
        (d / "limited.txt").write_text(
            f"{lim['limitedSeconds']} {int(lim['limitedPodCpuMs'] * 1000)}\n"
        )
        rounds.append((label, rnd, d))
    out = tmp_path / "runtime-ab-1x100.json"
    text = runtime_ab.main("vm, 2 cores, AMD EPYC", 100, 3, 5, out, rounds)
    assert "isolato-bench runtime-ab 100 3 2 5" in text
    assert "| 5 limited pods (10m, seccomp): time to all Ready (s) | 4.50 | 5.25 | +18 %" in text
    assert "| time to all pods Ready (s) | 19.00 | 16.00 | -17 % (-24 % to -10 %) |" in text
    assert json.loads(out.read_text())["rounds"] == 2
    assert out.with_suffix(".png").stat().st_size > 0
