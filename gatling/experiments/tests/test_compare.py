from runner.compare import compare, lines


def run(run_id, *steps):
    return {
        "runId": run_id,
        "sloClass": "gold",
        "steps": [{"offeredRps": r, "total": {"p95": p}} for r, p in steps],
    }


GATLING = run("g", (30, 6.0), (15, 5.5), (45, 9.0))
OPENLOOP = run("o", (15, 4.8), (30, 5.0))


def test_agrees_within_ten_percent_and_two_ms():
    c = compare(GATLING, 100.0, OPENLOOP, 105.0, 15.0)
    assert c["verdict"] == "agrees", c["reasons"]
    assert c["cutoff"] == {"diffRps": -5.0, "diffPct": -4.8, "toleranceRps": 15.0}
    assert c["lowLoad"]["p95DiffMs"] == 0.7
    assert c["lowLoad"]["gatling"]["offeredRps"] == 15


def test_one_ramp_step_is_the_tolerance_when_larger_than_ten_percent():
    assert compare(GATLING, 7.0, OPENLOOP, 27.0, 6.0)["verdict"] == "disagrees"  # 20 > 6
    c = compare(GATLING, 21.0, OPENLOOP, 27.0, 6.0)
    assert c["verdict"] == "agrees"  # 6 <= max(2.7, 6)
    assert c["cutoff"]["toleranceRps"] == 6.0


def test_the_stored_gold_alone_figures_disagree_with_the_referee():
    """Issue 13: Gatling stored 90 with p95 15.8 ms at low load, the open-loop run 105 and 5 ms."""
    c = compare(run("g", (15, 15.8)), 90.0, run("o", (15, 5.0)), 105.0, 15.0)
    assert c["verdict"] == "disagrees"
    assert len(c["reasons"]) == 1  # 15 within max(10.5, 15); the low-load p95 is not
    assert "low-load p95 differs by 10.8 ms" in c["reasons"][0]


def test_a_missing_cutoff_is_inconclusive_and_a_rate_mismatch_is_named():
    c = compare(GATLING, None, run("o", (20, 5.0)), 105.0, 15.0)
    assert c["verdict"] == "inconclusive"
    assert c["cutoff"] is None
    assert c["reasons"][0] == "no cut-off measured by gatling"
    assert "differ in rate (15 vs 20 req/s)" in c["reasons"][1]


def test_lines_print_both_instruments():
    text = "\n".join(lines(compare(GATLING, 100.0, OPENLOOP, 105.0, 15.0)))
    assert "Gatling vs open-loop: agrees" in text
    assert "100.0 vs 105.0 req/s (-4.8 %, tolerance ±15.0)" in text
