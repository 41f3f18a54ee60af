"""The gate-overhead report: the cut-off rule, the medians and differences, the goal check."""

from __future__ import annotations

import json

from isolato_bench import gate_overhead as go


def step(offered, achieved, errors=0, p50=1.0, p99=2.0):
    return {
        "offeredRps": offered,
        "achievedRps": achieved,
        "total": {"errors": errors, "p50": p50, "p99": p99},
    }


def test_cutoff_is_the_last_step_of_the_unbroken_served_run():
    ramp = {"steps": [step(500, 500), step(1000, 990), step(1500, 1200), step(2000, 2000)]}
    assert go.cutoff(ramp) == 1000  # 1500 fell short; 2000 after it does not count
    assert go.cutoff({"steps": [step(500, 500, errors=1)]}) == 0


def write_runs(tmp_path, p99: dict[str, float], proxy_s: dict[str, float]):
    lines = []
    for rep in (1, 2):
        for rate in (200, 500, 800, 1000):
            for mode in go.MODES:
                run = {"steps": [step(rate, rate, p50=1.0, p99=p99[mode] + rep * 0.1)]}
                (tmp_path / f"{mode}-{rate}-{rep}.json").write_text(json.dumps(run))
                lines.append(f"{mode}\t{rate}\t{rep}\t1.0\t{proxy_s[mode]}\t10000")
    (tmp_path / "cpu.tsv").write_text("\n".join(lines) + "\n")


def test_report_differences_are_per_repeat_and_the_goal_is_checked(tmp_path):
    write_runs(
        tmp_path,
        {"direct": 2.0, "gate": 2.5, "haproxy": 3.0, "relay": 2.1},
        {"direct": 0, "gate": 0.05, "haproxy": 0.08, "relay": 0.03},
    )
    latency, cpu = go.load_runs(tmp_path)
    table = go.cells(latency, cpu)
    gate = table[("gate", 800)]
    assert abs(gate.added_p99 - 0.5) < 1e-9
    assert gate.app_us == 100.0 and abs(gate.proxy_us - 5.0) < 1e-9
    v = go.verdict(table, 800)
    assert v["p99_ok"] and v["cpu_ok"] and v["vs_haproxy_ok"]
    assert abs(v["floor_us"] - 3.0) < 1e-9 and abs(v["floor_share"] - 0.03) < 1e-9
    assert abs(v["floor_app_us"] - 30.0) < 1e-9  # the relay's 3 µs is 10 % of a 30 µs app
    text = go.report(
        [go.Measured(2, tmp_path, 1000, [200, 500, 800, 1000])], 2, "host", "0 0 0", "0 0 0"
    )
    assert "Goal met." in text and "| 80 % (800/s) | gate |" in text
    assert "| 80 % (800/s) | relay |" in text and "cheaper than 30 µs a request" in text


def test_a_gate_slower_than_haproxy_misses_the_goal(tmp_path):
    write_runs(
        tmp_path,
        {"direct": 2.0, "gate": 2.5, "haproxy": 2.2, "relay": 2.1},
        {"direct": 0, "gate": 0.2, "haproxy": 0.08, "relay": 0.03},
    )
    text = go.report(
        [go.Measured(2, tmp_path, 1000, [200, 500, 800, 1000])], 2, "host", "0 0 0", "0 0 0"
    )
    assert "Goal MISSED." in text


def test_each_app_cost_gets_its_own_table(tmp_path):
    cheap, dear = tmp_path / "cpu2", tmp_path / "cpu20"
    for d, gate_s in ((cheap, 0.2), (dear, 0.05)):
        d.mkdir()
        write_runs(
            d,
            {"direct": 2.0, "gate": 2.1, "haproxy": 2.2, "relay": 2.05},
            {"direct": 0, "gate": gate_s, "haproxy": 0.3, "relay": 0.03},
        )
    text = go.report(
        [
            go.Measured(2, cheap, 1000, [200, 500, 800, 1000]),
            go.Measured(20, dear, 1000, [200, 500, 800, 1000]),
        ],
        2,
        "host",
        "0 0 0",
        "0 0 0",
    )
    assert text.index("profile cpu 2 ") < text.index("profile cpu 20 ")
    assert text.count("Goal MISSED.") == 1 and text.count("Goal met.") == 1
