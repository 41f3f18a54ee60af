import itertools

import pytest
from isolato_bench.faults.verdict import (
    FaultResult,
    LoadWindow,
    fault_table,
    first_acceptance,
    histogram_buckets,
    kill_instants,
    latency_bound,
    load_window,
    spread,
    table_ids,
    tenant_verdict,
)

IDS = {"a", "b", "c"}


def healthy(**over):
    args = {
        "expected": IDS,
        "resources": ["a", "b", "c"],
        "phases": dict.fromkeys(IDS, "Serving"),
        "pool_tables": {"isolato-c-x": ["a", "b", "c"]},
        "served": set(IDS),
    }
    args.update(over)
    return tenant_verdict(**args)


def test_every_tenant_present_once_serving_and_served_passes():
    v = healthy()
    assert v.ok
    assert v.summary() == "all 3 present once, Serving, served"


def test_a_post_never_confirmed_counts_only_if_it_got_through():
    # "d" got through (its object exists), "e" never reached the API: not lost, reported
    v = healthy(
        resources=["a", "b", "c", "d"],
        phases=dict.fromkeys([*IDS, "d"], "Serving"),
        pool_tables={"p": ["a", "b", "c", "d"]},
        served={*IDS, "d"},
        unconfirmed=frozenset({"d", "e"}),
    )
    assert v.ok and v.expected == 4
    assert v.not_accepted == ["e"]
    assert not healthy(unconfirmed=frozenset({"d"}), resources=["a", "b", "c", "d"]).ok


def test_a_tenant_without_its_object_or_table_entry_is_lost():
    assert healthy(resources=["a", "b"]).lost == ["c"]
    v = healthy(pool_tables={"isolato-c-x": ["a", "b"]})
    assert v.lost == ["c"]
    assert not v.ok


def test_a_tenant_in_two_pools_or_twice_in_a_table_is_duplicated():
    v = healthy(pool_tables={"isolato-c-x": ["a", "b", "c"], "isolato-t-b": ["b"]})
    assert v.duplicated == ["b"]
    assert healthy(pool_tables={"p": ["a", "a", "b", "c"]}).duplicated == ["a"]
    assert "duplicated 1 (a)" in healthy(resources=["a", "a", "b", "c"]).summary()


def test_not_serving_and_not_served_fail_separately():
    v = healthy(phases={"a": "Serving", "b": "Pending", "c": "Serving"}, served={"a", "b"})
    assert v.not_serving == ["b"]
    assert v.not_served == ["c"]
    assert not v.ok


def test_objects_the_run_did_not_accept_are_reported_not_failed():
    v = healthy(resources=["a", "b", "c", "zz"])
    assert v.unexpected == ["zz"]
    assert v.ok


def test_table_ids_keeps_a_repeated_key_that_json_loads_would_merge():
    raw = (
        '{"version":"v","tenants":{"a":{"profile":{"cpu":1}},"b":{"profile":{}},'
        '"a":{"profile":{"cpu":2}}}}'
    )
    assert table_ids(raw) == ["a", "b", "a"]
    assert table_ids('{"version":"v","tenants":{}}') == []
    with pytest.raises(ValueError, match="not a tenant table"):
        table_ids('{"version":"v"}')


def test_kill_instants_are_reproducible_sorted_spaced_and_inside_the_window():
    xs = kill_instants(seed=7, count=10, window_s=90, min_gap_s=4)
    assert xs == kill_instants(seed=7, count=10, window_s=90, min_gap_s=4)
    assert xs != kill_instants(seed=8, count=10, window_s=90, min_gap_s=4)
    assert xs == sorted(xs) and len(xs) == 10
    assert all(0 <= x < 90 for x in xs)
    assert all(b - a >= 4 for a, b in itertools.pairwise(xs))
    with pytest.raises(ValueError, match="do not fit"):
        kill_instants(seed=1, count=10, window_s=30, min_gap_s=4)


def test_load_window_counts_requests_sent_inside_it():
    samples = [(0.5, True), (1.0, False), (2.0, True), (3.5, False)]
    w = load_window(samples, 1.0, 3.0)
    assert (w.requests, w.errors) == (2, 1)
    assert w.render() == "1/2 (50.00 %)"
    assert load_window(samples, 10, 11).render() == "—"


def test_spread_gives_median_and_range():
    s = spread([3.0, 1.0, 2.0, 10.0])
    assert (s.median, s.low, s.high, s.n) == (2.5, 1.0, 10.0, 4)
    assert s.render() == "2.5 (1.0-10.0, n=4)"
    with pytest.raises(ValueError):
        spread([])


def result(load, goal=True, converge=5.0, verdict=None):
    return FaultResult("f", 3, verdict or healthy(), converge, load, goal)


def test_a_fault_passes_only_with_zero_load_errors_where_the_goal_applies():
    assert result(LoadWindow(100, 0)).passed
    assert not result(LoadWindow(100, 1)).passed
    assert not result(LoadWindow(0, 0)).passed  # no load measured is not a pass
    assert result(LoadWindow(100, 40), goal=False).passed
    assert not result(None, goal=False, converge=None).passed
    assert not result(None, goal=False, verdict=healthy(served={"a"})).passed
    incomplete = result(LoadWindow(100, 0))
    incomplete.complete = False  # e.g. a planned kill found no leader to kill
    assert not incomplete.passed


def test_fault_table_renders_one_row_per_fault():
    out = fault_table([result(LoadWindow(10, 0)), result(LoadWindow(10, 2))])
    lines = out.splitlines()
    assert lines[0].startswith("| fault | tenants | lost | duplicated | served again |")
    assert lines[2] == "| f | 3 | 0 | 0 | 3/3 | 5.0 | 0/10 (0.00 %) | pass |  |"
    assert "| FAIL |" in lines[3]
    v = healthy(unconfirmed=frozenset({"zz"}))
    row = FaultResult("f", 4, v, 1.0, LoadWindow(1, 0), True, "seed 1").row()
    assert row[-1] == "1 never accepted (no answer, or refused: see refusals); seed 1"


LEASE_PUTS = """# HELP apiserver_request_duration_seconds x
apiserver_request_duration_seconds_bucket{resource="leases",verb="PUT",le="0.005"} {a}
apiserver_request_duration_seconds_bucket{resource="leases",verb="PUT",le="0.025"} {b}
apiserver_request_duration_seconds_bucket{resource="leases",verb="PUT",le="0.1"} {c}
apiserver_request_duration_seconds_bucket{resource="leases",verb="PUT",le="+Inf"} {c}
apiserver_request_duration_seconds_bucket{group="",resource="pods",verb="PUT",le="0.005"} 7
apiserver_request_duration_seconds_bucket{group="",resource="pods",verb="PUT",le="+Inf"} 9
"""


def scrape(a, b, c):
    return LEASE_PUTS.replace("{a}", str(a)).replace("{b}", str(b)).replace("{c}", str(c))


def test_latency_bound_counts_only_the_matching_series_between_two_scrapes():
    match = {"resource": {"leases"}, "verb": {"PUT", "PATCH"}}
    before = histogram_buckets(scrape(10, 10, 10), "apiserver_request_duration_seconds", match)
    after = histogram_buckets(scrape(100, 199, 200), "apiserver_request_duration_seconds", match)
    b = latency_bound(before, after)
    assert (b.count, b.p50_le, b.p99_le, b.max_le) == (190, 0.025, 0.025, 0.1)
    assert "p99 ≤ 0.025 s" in b.render()


def test_latency_bound_of_nothing_says_so():
    assert latency_bound({}, {}).render() == "no requests"


def test_the_first_acceptance_is_the_first_accepted_try_sent_after_the_fault():
    t0 = 100.0
    tries = [
        (99.0, 201, 99.1),  # before the fault: not counted
        (100.2, 0, 100.21),  # refused at once
        (100.3, 0, 102.3),  # hung until its timeout (sent into the dead pod's address)
        (101.5, 201, 102.4),  # accepted, but sent after the next one
        (101.2, 503, 101.25),
        (101.4, 201, 102.0),  # the first accepted by sending time
    ]
    first = first_acceptance(tries, t0)
    assert first == {
        "sent_s": 1.4,
        "answer_ms": 600,
        "tries_before": {"0": 2, "503": 1},
        "slowest_failed_ms": 2000,
        "last_failed_sent_s": 1.2,
    }


def test_no_acceptance_after_the_fault_is_none():
    assert first_acceptance([(99.0, 201, 99.1), (100.5, 0, 101.5)], 100.0) is None
