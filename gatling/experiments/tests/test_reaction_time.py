import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

import reaction_time as rt


def test_p95_is_the_nearest_rank():
    assert rt.p95(list(range(1, 101))) == 95
    assert rt.p95([7.0]) == 7.0


def test_windows_group_by_send_time_relative_to_the_start():
    s = [(10.1, 5.0), (10.9, 7.0), (11.5, 100.0), (13.0, 1.0), (9.0, 999.0)]
    assert rt.windows(s, 10.0, 13.0) == [(0.0, 7.0, 2), (1.0, 100.0, 1)]


def test_recovery_is_after_the_last_window_over_target():
    series = [
        (0.0, 10.0, 1),
        (1.0, 80.0, 1),
        (2.0, 20.0, 1),
        (3.0, 60.0, 1),
        (4.0, 30.0, 1),
        (5.0, 20.0, 1),
    ]
    assert rt.recovered_at(series, 50) == 4.0
    assert rt.recovered_at(series[:4], 50) is None
    assert rt.recovered_at([(0.0, 10.0, 1)], 50) == 0.0


def test_analysis_times_the_replica_raise_the_new_pod_ready_and_recovery():
    meta = {"stepUnixMs": 100_000, "holdSeconds": 10, "targetMs": 50}
    samples = [(100 + i * 0.5, 200.0 if i < 8 else 10.0) for i in range(20)]
    events = [(90.0, 1, 1), (102.5, 3, 1), (104.0, 3, 2), (105.0, 3, 3)]
    r = rt.analyse("direct", meta, samples, events)
    assert (r.scaled_s, r.serving_s, r.recovered_s) == (2.5, 4.0, 4.0)
    assert r.peak_p95_ms == 200.0
    assert r.over_target_pct == 40.0
    assert r.final_ready == 3
    assert (r.pods_at_step, r.step_utc) == (1, "1970-01-01 00:01")


def test_a_pool_already_scaled_at_the_step_shows_in_the_table():
    meta = {"stepUnixMs": 0, "holdSeconds": 5, "targetMs": 50}
    r = rt.analyse("keda-default", meta, [(1.0, 10.0)], [(-5.0, 4, 4)])
    assert r.pods_at_step == 4
    assert "| 4 / 4 |" in rt.table([r])


def test_no_raise_reads_never():
    meta = {"stepUnixMs": 0, "holdSeconds": 5, "targetMs": 50}
    r = rt.analyse("hpa", meta, [(1.0, 100.0)], [(0.0, 1, 1)])
    assert r.scaled_s is None and r.recovered_s is None
    assert "never" in rt.table([r])


def test_repeats_give_each_variant_its_runs_median_and_worst_and_leave_void_runs_out():
    runs = [
        [{"variant": "direct", "serving_s": 2.8}, {"variant": "keda-tuned", "serving_s": 3.5}],
        [{"variant": "direct", "serving_s": 3.1}, {"variant": "keda-tuned", "serving_s": None}],
        [{"variant": "direct", "serving_s": 2.9, "pods_at_step": 4}],
    ]
    t = rt.repeats_table(runs)
    assert "| direct path (1 Hz pod scrapes) + KEDA | 2 | 2.8 s, 3.1 s | 3.1 s | 3.1 s | yes |" in t
    assert "| 2 | 3.5 s, never | never | never | no |" in t


def test_a_raise_right_after_the_step_counts_from_the_watchs_initial_state():
    # the watch's initial event (1, 1) arrives 0.1 s after the step, the direct path's raise
    # to 2 at 0.4 s, the new pod ready at 1.4 s
    meta = {"stepUnixMs": 100_000, "holdSeconds": 5, "targetMs": 50}
    events = [(100.1, 1, 1), (100.4, 2, 1), (101.4, 2, 2), (101.5, 4, 2)]
    r = rt.analyse("direct", meta, [(100.5, 10.0)], events)
    assert (r.scaled_s, r.serving_s, r.pods_at_step) == (0.4, 1.4, 1)
