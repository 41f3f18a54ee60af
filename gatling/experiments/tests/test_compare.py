from runner.compare import (
    compare,
    compare_steps,
    cutoff_of,
    lines,
    p95_agree,
    pods_changed,
    rate_step,
    step_lines,
)


def run(run_id, *steps):
    return {
        "runId": run_id,
        "sloClass": "gold",
        "steps": [{"offeredRps": r, "total": {"count": 300, "p95": p}} for r, p in steps],
    }


def low_run(run_id, p95, low, high, count=152):
    """One low-load step whose generator wrote the p95's confidence interval."""
    total = {"count": count, "p95": p95, "p95Low": low, "p95High": high}
    return {"runId": run_id, "sloClass": "bronze", "steps": [{"offeredRps": 3, "total": total}]}


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


def test_a_low_load_difference_says_whether_it_is_beyond_the_sampling_error():
    # bronze-alone 2026-11-24: 8.075 vs 6.071 ms over 152 requests each
    c = compare(low_run("g", 8.075, 6.3, 10.9), 28.5, low_run("o", 6.071, 5.4, 8.2), 30.0, 3.0)
    assert c["verdict"] == "disagrees"  # the goal is 2 ms, whatever the error
    assert c["lowLoad"]["ciOverlap"] is True
    assert c["lowLoad"]["openloop"]["p95Ci"] == [5.4, 8.2]
    assert "within the measurement error (95 % CIs [6.3, 10.9] vs [5.4, 8.2] ms" in c["reasons"][0]
    apart = compare(low_run("g", 19.9, 15.0, 30.0), 24, low_run("o", 8.8, 7.0, 9.5), 28, 4.0)
    assert apart["lowLoad"]["ciOverlap"] is False
    assert "beyond the measurement error" in apart["reasons"][0]
    few = compare(low_run("g", 9.0, 6.0, None, 40), 28, low_run("o", 6.0, 5.0, 6.5, 40), 28, 4.0)
    assert "[6.0, ∞]" in few["reasons"][0] and few["lowLoad"]["ciOverlap"] is True


def test_a_missing_cutoff_is_inconclusive_and_a_rate_mismatch_is_named():
    c = compare(GATLING, None, run("o", (20, 5.0)), 105.0, 15.0)
    assert c["verdict"] == "inconclusive"
    assert c["cutoff"] is None
    assert c["reasons"][0] == "no cut-off measured by gatling"
    assert "differ in rate (15 vs 20 req/s)" in c["reasons"][1]


def test_two_runs_that_held_the_slo_to_the_same_top_agree_on_a_lower_bound():
    """finding3's gold pods: neither instrument reaches a 400m pod's knee at 54 req/s."""
    c = compare(GATLING, None, OPENLOOP, None, 15.0, held_to=(45.0, 45.0))
    assert c["verdict"] == "agrees", c["reasons"]
    assert c["cutoff"] == {"heldToRps": 45.0}
    assert "both held the SLO to 45 req/s" in "\n".join(lines(c))
    apart = compare(GATLING, None, OPENLOOP, None, 15.0, held_to=(45.0, 30.0))
    assert apart["verdict"] == "disagrees"
    assert "these differ (45 vs 30 req/s)" in apart["reasons"][0]
    # a knee found by one instrument only is no agreement on a lower bound
    one = compare(GATLING, 40.0, OPENLOOP, None, 15.0, held_to=(None, 45.0))
    assert one["verdict"] == "inconclusive"
    assert one["reasons"][0] == "no cut-off measured by openloop"


def test_the_controllers_answer_says_a_cutoff_a_lower_bound_or_neither():
    def answer(status, rps):
        return {"cutoff": {"status": status, "cutoffRps": rps}}

    assert cutoff_of(answer("found", 99.0)) == (99.0, None)
    assert cutoff_of(answer("not-reached", 54.0)) == (None, 54.0)
    assert cutoff_of(answer("none", None)) == (None, None)
    assert cutoff_of({}) == (None, None)


def test_what_a_request_cost_the_pods_is_reported_beside_not_judged():
    g = {**GATLING, "hygiene": {"podCpu": {"msPerRequest": 2.8}}}
    o = {**OPENLOOP, "hygiene": {"podCpu": {"msPerRequest": 2.4}}}
    c = compare(g, 100.0, o, 105.0, 15.0)
    assert c["podCpuMsPerRequest"] == {"gatling": 2.8, "openloop": 2.4}
    assert c["verdict"] == "agrees"
    assert "  pod CPU:      2.8 vs 2.4 ms per request" in lines(c)
    assert "podCpuMsPerRequest" not in compare(GATLING, 100.0, OPENLOOP, 105.0, 15.0)


def test_lines_print_both_instruments():
    text = "\n".join(lines(compare(GATLING, 100.0, OPENLOOP, 105.0, 15.0)))
    assert "Gatling vs open-loop: agrees" in text
    assert "100.0 vs 105.0 req/s (-4.8 %, tolerance ±15.0)" in text


def steps_run(run_id, *steps):
    """Steps as (index, {tenant: p95})."""
    return {
        "runId": run_id,
        "sloClass": "agg",
        "steps": [
            {
                "index": i,
                "offeredRps": 75.0 * (i + 1),
                "tenants": {t: {"p95": p} for t, p in c.items()},
            }
            for i, c in steps
        ],
    }


def test_p95_agree_within_the_larger_of_2_ms_and_a_tenth_of_the_target_or_both_above_it():
    assert p95_agree(10.0, 14.9, 50.0)  # within 5 ms (10 % of 50 > 2)
    assert not p95_agree(10.0, 15.1, 50.0)
    assert p95_agree(10.0, 11.9, 5.0)  # within 2 ms (> 10 % of 5)
    assert p95_agree(60.0, 900.0, 50.0)  # both see the target violated
    assert not p95_agree(45.0, 60.0, 50.0)  # one above, one below, 15 ms apart
    assert not p95_agree(None, 5.0, 50.0) and p95_agree(None, None, 50.0)


def test_compare_steps_puts_each_tenants_p95_side_by_side():
    g = steps_run("g", (0, {"t1": 8.0, "t2": 8.5}), (1, {"t1": 70.0, "t2": 30.0}))
    o = steps_run("o", (0, {"t1": 7.0, "t2": 8.0}), (1, {"t1": 400.0, "t2": 12.0}))
    c = compare_steps(g, o, 50.0)
    assert c["kind"] == "steps" and c["verdict"] == "disagrees"
    assert c["steps"][1]["tenants"]["t1"] == {"gatling": 70.0, "openloop": 400.0, "agrees": True}
    assert c["reasons"] == ["step 1 tenant t2: p95 30.0 vs open-loop 12.0 ms"]
    assert c["rule"]["text"] == "both above 50 ms, or within 5 ms"
    text = "\n".join(step_lines(c))
    assert "step 1 (150 req/s), ms: t1 70.0 vs 400.0, t2 30.0 vs 12.0 (!)" in text


def test_a_differing_cell_says_whether_it_is_within_the_sampling_error():
    """finding3-plan 2026-11-25 23:33, bronze t2 near the knee: 43.2 vs 33.6 ms of 400 each."""
    g = steps_run("g", (0, {"t2": 43.227}))
    o = steps_run("o", (0, {"t2": 33.594}))
    g["steps"][0]["tenants"]["t2"] |= {"count": 400, "p95Low": 33.153, "p95High": 57.808}
    o["steps"][0]["tenants"]["t2"] |= {"count": 400, "p95Low": 26.969, "p95High": 43.632}
    c = compare_steps(g, o, 50.0)
    assert c["verdict"] == "disagrees"  # the rule is the rule
    assert c["steps"][0]["tenants"]["t2"]["ciOverlap"] is True
    assert "within the measurement error (95 % CIs [33.2, 57.8] vs [27.0, 43.6]" in c["reasons"][0]
    o["steps"][0]["tenants"]["t2"] |= {"p95": 20.0, "p95Low": 18.0, "p95High": 22.0}
    apart = compare_steps(g, o, 50.0)
    assert apart["steps"][0]["tenants"]["t2"]["ciOverlap"] is False
    assert "beyond the measurement error" in apart["reasons"][0]


def test_compare_steps_names_a_step_only_one_instrument_has():
    g = steps_run("g", (0, {"t1": 8.0}), (1, {"t1": 9.0}))
    o = steps_run("o", (0, {"t1": 8.0}))
    assert compare_steps(g, o, 50.0)["reasons"] == ["step 1: no open-loop step"]
    assert compare_steps(o, g, 50.0)["reasons"] == ["step 1: no Gatling step"]
    assert compare_steps(o, o, 50.0)["verdict"] == "agrees"


def test_rate_step_of_a_run_that_is_not_a_ramp():
    assert rate_step(run("g", (30, 1), (10, 1), (20, 1))) == 10
    assert rate_step(run("g", (90, 1))) == 90


def with_pods(r, at_start, at_end):
    return {**r, "hygiene": {"pods": {"atStart": at_start, "atEnd": at_end}}}


def test_a_scale_out_during_either_run_makes_the_comparison_inconclusive():
    g = steps_run("g", (0, {"t1": 8.0}))
    o = steps_run("o", (0, {"t1": 8.5}))
    same = compare_steps(with_pods(g, 4, 4), with_pods(o, 4, 4), 50.0)
    assert same["verdict"] == "agrees" and same["reasons"] == []
    c = compare_steps(with_pods(g, 4, 5), with_pods(o, 4, 4), 50.0)
    assert c["verdict"] == "inconclusive"
    assert c["reasons"] == [
        "the class's ready pods changed (referee 4 → 4, Gatling 4 → 5): "
        "the instruments measured different pods"
    ]
    # between the runs too, and in a cut-off comparison; runs without the record are not judged
    assert pods_changed(with_pods(g, 5, 5), with_pods(o, 4, 4)) is not None
    assert pods_changed(g, with_pods(o, 4, 5)) is None
    cut = compare(with_pods(GATLING, 1, 1), 30, with_pods(OPENLOOP, 1, 2), 30, 15)
    assert cut["verdict"] == "inconclusive" and "ready pods changed" in cut["reasons"][0]
