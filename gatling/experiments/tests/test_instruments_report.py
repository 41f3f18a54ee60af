"""instruments_report.py: the side-by-side table and its section in docs/benchmarks-log.md."""

import instruments_report as r


def run(p95s, rates, wire_rates=None, knee=None):
    steps = [
        {"offeredRps": x, "total": {"count": 300, "p90": p - 0.5, "p95": p, "p99": p + 2}}
        for x, p in zip(rates, p95s, strict=True)
    ]
    hygiene = [
        {"wire": {"sentRps": s, "offeredRps": x, "serviceP95Ms": 3.0}} if s else {}
        for x, s in zip(rates, wire_rates or [None] * len(rates), strict=True)
    ]
    return {"steps": steps, "hygiene": {"steps": hygiene, **({"knee": knee} if knee else {})}}


def test_a_row_shows_both_cut_offs_and_both_views_of_low_load():
    comparison = {
        "gatling": {"cutoffRps": 68.0},
        "openloop": {"cutoffRps": 72.0},
        "cutoff": {"diffPct": -5.6, "toleranceRps": 8.0},
        "verdict": "agrees",
    }
    g = run([6.4, 7.6], [16, 8], wire_rates=[16.4, 8.0], knee={"resolutionPct": 2.9})
    g["hygiene"]["podCpu"] = {"msPerRequest": 2.606}
    o = run([4.3, 4.4], [16, 8], wire_rates=[16.0, 8.0])
    line = r.row("acc1", "1 × 200m", comparison, g, o)
    assert line == (
        "| acc1 | 1 × 200m | 72.0 | 68.0 | -5.6 % (±8) | 2.9 % | 8 req/s: 4.4 ≈[3.9, 6.4] / "
        "7.6 ≈[7.1, 9.6] | 3.0 / 3.0 | 0.0 / 2.5 | n/a / 2.61 | "
        "agrees (low-load Δ beyond the CIs) |"
    )
    g["steps"][1]["total"] |= {"p95Low": 7.2, "p95High": 8.0}  # a generator's own interval
    assert "7.6 [7.2, 8.0] |" in r.row("acc1", "1 × 200m", comparison, g, o)
    assert r.off_rate_pct(run([1], [10])) is None


def test_a_knee_neither_run_reached_shows_as_a_lower_bound_on_both_sides():
    comparison = {
        "gatling": {"cutoffRps": None},
        "openloop": {"cutoffRps": None},
        "cutoff": {"heldToRps": 54.0},
        "verdict": "agrees",
    }
    g, o = run([6.0, 6.2], [3, 54]), run([6.1, 6.3], [3, 54])
    line = r.row("f3gold", "1 × 400m", comparison, g, o)
    assert line.startswith("| f3gold | 1 × 400m | ≥ 54 (held) | ≥ 54 (held) | both held to")
    assert line.endswith("| agrees |")


def test_a_low_load_difference_over_the_goal_says_whether_the_intervals_overlap():
    o = {"count": 152, "p95": 6.1, "p95Low": 5.4, "p95High": 8.2}
    assert r.verdict("agrees", o, {**o, "p95": 7.9}) == "agrees"
    g = {"count": 152, "p95": 8.2, "p95Low": 6.3, "p95High": 10.9}
    assert r.verdict("disagrees", o, g) == "disagrees (low-load Δ within the CIs)"
    g = {"count": 152, "p95": 19.9, "p95Low": 15.0, "p95High": 30.0}
    assert r.verdict("disagrees", o, g) == "disagrees (low-load Δ beyond the CIs)"


def write(d, cls, comparison, gatling, openloop):
    import json

    d.mkdir(parents=True, exist_ok=True)
    for name, value in (("comparison", comparison), (None, gatling), ("openloop", openloop)):
        (d / f"{cls}.{name + '.' if name else ''}json").write_text(json.dumps(value))


def test_stored_comparisons_are_found_listed_ones_first_and_step_ones_apart(tmp_path):
    cut = {"sloClass": "gold", "verdict": "agrees"}
    ctx = {"context": {"replicas": 1, "podCpu": "400m"}}
    write(tmp_path / "colocated" / "bronze-cpu", "gold", cut, ctx, {})
    write(tmp_path / "gold-alone", "gold", cut, {}, {})
    steps = {
        "sloClass": "verify",
        "kind": "steps",
        "rule": {"text": "both above 50 ms, or within 5 ms"},
        "steps": [
            {
                "index": 0,
                "offeredRps": 90.0,
                "tenants": {
                    "v1": {"gatling": 9.0, "openloop": 8.0, "agrees": True},
                    "v2": {"gatling": 30.0, "openloop": 9.0, "agrees": False},
                },
            }
        ],
    }
    write(tmp_path / "verify" / "latest", "verify", steps, {}, {})
    entries = r.load(tmp_path)
    assert [(d, pods) for d, pods, *_ in entries] == [
        ("gold-alone", "1 × 400m"),  # CALIBRATIONS' label
        ("colocated/bronze-cpu", "1 × 400m"),  # from the run's context
    ]
    table = r.step_table(tmp_path, tmp_path)
    assert "(agree: both above 50 ms, or within 5 ms)" in table
    assert table.endswith(
        "| [verify/latest](verify/latest/) | verify | 0 | 90 | v1 8.0 / 9.0, v2 9.0 / 30.0 (!) "
        "| disagrees |"
    )
    assert r.step_table(tmp_path / "gold-alone", tmp_path) == ""


def test_a_step_row_of_different_pods_is_inconclusive_whatever_its_cells():
    reason = "the class's ready pods changed (referee 4 → 5, Gatling 5 → 5): ..."
    c = {
        "sloClass": "f3bronze",
        "verdict": "inconclusive",
        "reasons": [reason],
        "steps": [
            {
                "index": 0,
                "offeredRps": 108.0,
                "tenants": {"t1": {"gatling": 8.3, "openloop": 7.5, "agrees": True}},
            }
        ],
    }
    (row,) = r.step_rows("finding3/plan-1-3", c, "plan")
    assert row.endswith(f"| t1 7.5 / 8.3 | inconclusive: {reason} (cells: agrees) |")


def test_a_step_row_whose_differing_cells_overlap_in_their_cis_says_so():
    cell = {"gatling": 43.2, "openloop": 33.6, "agrees": False, "ciOverlap": True}
    c = {
        "sloClass": "f3bronze",
        "verdict": "disagrees",
        "reasons": ["step 0 tenant t2: ..."],
        "steps": [{"index": 0, "offeredRps": 108.0, "tenants": {"t2": cell}}],
    }
    (row,) = r.step_rows("finding3/plan-1-3", c, "plan")
    assert row.endswith(
        "| t2 33.6 / 43.2 (!) | disagrees (the differing p95s within their 95 % CIs) |"
    )
    c["steps"][0]["tenants"]["t2"] = {**cell, "ciOverlap": False}
    assert r.step_rows("finding3/plan-1-3", c, "plan")[0].endswith("| disagrees |")
