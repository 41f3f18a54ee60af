from datetime import UTC, datetime

from isolato_bench import neighbour as nb

T0 = 1_800_000_000.0  # the neighbour's start, Unix s
STAT_A = "cpu  100 0 100 800 0 0 0 0 0 0\ncpu0 50 0 50 400 0 0 0 0 0 0\n"
STAT_B = "cpu  400 0 200 1000 0 0 0 0 0 0\ncpu0 200 0 100 500 0 0 0 0 0 0\n"


def meta(phase: str = "on") -> dict:
    return {
        "phase": phase,
        "kind": "cpu",
        "applyUnixUs": int((T0 - 0.5) * 1e6),
        "neighbourStartedAt": "2027-01-15T08:00:00Z",  # == T0
        "rateRps": 100,
        "calibratedRps": 125,
        "sharePct": 80,
        "leadSeconds": 30,
        "observeSeconds": 60,
        "targetMs": 50,
        "podCpu": "400m",
        "profileCpu": 150,
        "declaredRps": 165,
        "pivotPercent": 90,
        "maxReplicas": 3,
        "neighbourCpuRequest": "1",
        "neighbourThreads": 2,
    }


def samples(slow_from: float, slow_to: float) -> list[tuple[float, float]]:
    """10 req/s from T0 - 30 to T0 + 60: 5 ms, 200 ms between slow_from and slow_to (rel. T0)."""
    out = []
    for i in range(900):
        t = T0 - 30 + i / 10
        out.append((t, 200.0 if slow_from <= t - T0 < slow_to else 5.0))
    return out


def line(t_rel: float, plan: int, held: str, eff: str = "", msg: str = "") -> str:
    return f"{int((T0 + t_rel) * 1e6)}|{plan}|{held}|{eff}|{msg}"


CPU = {  # every gold pod's cgroup summed ("goldPods")
    "start": {"unixUs": int((T0 - 30) * 1e6), "goldCpuNs": 0, "neighbourCpuNs": 0},
    "apply": {"unixUs": int(T0 * 1e6), "goldCpuNs": 300 * 10**6 * 2, "neighbourCpuNs": 0},
    "end": {"unixUs": int((T0 + 60) * 1e6), "goldCpuNs": 300 * 10**6 * 8, "neighbourCpuNs": 6e10},
}
CPU = {m: c | {"goldPods": 1} for m, c in CPU.items()}
LOAD = {  # a first step at half the rate, then the rate's
    "steps": [
        {"offeredRps": 50, "achievedRps": 50},
        {"offeredRps": 100, "achievedRps": 99},
        {"offeredRps": 100, "achievedRps": 100},
    ],
    "generator": {"cpuPct": 3.2},
}


def test_neighbour_start_is_the_container_start_never_before_the_apply():
    assert nb.neighbour_start(meta()) == T0
    assert nb.neighbour_start(meta() | {"neighbourStartedAt": ""}) == T0 - 0.5
    early = meta() | {"neighbourStartedAt": "2027-01-15T07:59:58Z"}
    assert nb.neighbour_start(early) == T0 - 0.5


def test_watch_lines_parse_with_and_without_the_sloheld_condition():
    events = nb.parse_class(
        "\n".join([line(-5, 1, ""), line(12, 1, "False", "90.5", "p95 80 ms > 50 ms"), "junk"])
    )
    assert [(e.plan, e.held, e.effective_rps) for e in events] == [
        (1, "", None),
        (1, "False", 90.5),
    ]
    assert events[1].message == "p95 80 ms > 50 ms"
    reps = nb.parse_replicas(f"{int(T0 * 1e6)}|2|\n{int((T0 + 9) * 1e6)}|2|2\n")
    assert reps == [(T0, 2, 0), (T0 + 9, 2, 2)]


def test_loop_on_detects_raises_and_recovers_within_the_goals():
    events = nb.parse_class(
        "\n".join(
            [
                line(-20, 1, "True"),
                line(14, 1, "False", "80"),
                line(16, 2, "False", "80"),
                line(50, 2, "True", "80"),
            ]
        )
    )
    reps = [(T0 - 20, 1, 1), (T0 + 16, 2, 1), (T0 + 21, 2, 2)]
    p = nb.analyse(
        meta(),
        samples(5, 25),
        0,
        LOAD,
        events,
        reps,
        CPU,
        {"start": STAT_A, "apply": STAT_B, "end": STAT_B},
    )
    assert p.held_at_start == "True"
    assert (p.held_false_s, p.plan_raised_s) == (14.0, 16.0)
    assert (p.spec_raised_s, p.ready_raised_s) == (16.0, 21.0)
    assert p.back_s == 25.0  # the first window after the last slow one
    # over target from 5 s (its window's start), reported by SloHeld=False at 14 s
    assert (p.silent_longest_s, p.silent_total_s) == (9.0, 9.0)
    assert p.goals() == (True, True)
    assert p.peak_p95_ms == 200.0 and p.p95_before_ms == 5.0
    assert (p.achieved_rps, p.generator_cpu_pct, p.plan_end) == (99.5, 3.2, 2)
    # 600 ms of CPU over 295 requests alone (the first is at T0 - 30), 1,800 ms over 600 beside it
    assert p.gold_cpu_ms_per_req_alone == round(600 / 300, 3)
    assert p.gold_cpu_ms_per_req_neighbour == 3.0
    assert (p.gold_millicores_neighbour, p.neighbour_millicores) == (30.0, 1000.0)
    assert p.node_busy_alone_pct == round(100 * 400 / 600, 1)  # busy Δ 400 of 600 ticks


def test_cpu_per_request_of_a_scaled_pool_needs_every_pods_cgroup():
    reps = [(T0 - 20, 1, 1), (T0 + 16, 2, 1)]
    first_pod = {m: {k: v for k, v in c.items() if k != "goldPods"} for m, c in CPU.items()}
    first_pod_only = nb.analyse(meta(), samples(5, 25), 0, LOAD, [], reps, first_pod, {})
    assert first_pod_only.gold_cpu_ms_per_req_neighbour is None
    p = nb.analyse(meta(), samples(5, 25), 0, LOAD, [], reps, CPU, {})
    assert p.gold_cpu_ms_per_req_neighbour == 3.0


def test_loop_off_never_reports_and_its_violation_counts_whole():
    events = nb.parse_class(line(-20, 1, ""))
    p = nb.analyse(meta("off"), samples(5, 60), 0, LOAD, events, [], CPU, {})
    assert p.held_at_start == "none" and p.held_false_s is None and p.plan_raised_s is None
    assert p.back_s is None  # still over target at the end
    assert p.silent_longest_s == 55.0
    assert p.goals() == (False, False)
    assert p.node_busy_alone_pct is None


def test_a_neighbour_that_does_no_harm_meets_the_goals_trivially():
    p = nb.analyse(
        meta(), samples(99, 99), 0, LOAD, nb.parse_class(line(-20, 1, "True")), [], CPU, {}
    )
    assert p.back_s == 0.0 and p.silent_longest_s == 0.0 and p.goals() == (True, True)


def test_separate_violations_are_not_one_stretch():
    series = [(0.0, 80.0, 50), (5.0, 10.0, 50), (10.0, 80.0, 50), (15.0, 80.0, 50)]
    assert nb.silent_violation(series, [], T0, 50) == (10.0, 15.0)
    # reported from 12 s on: the second stretch is 10 → 12 s
    said = nb.parse_class(line(12, 1, "False"))
    assert nb.silent_violation(series, said, T0, 50) == (5.0, 7.0)


def test_the_verdict_judges_the_loop_on_phase_and_says_not_met():
    good = nb.analyse(
        meta(), samples(5, 25), 0, LOAD, nb.parse_class(line(14, 2, "False")), [], CPU, {}
    )
    late = nb.analyse(
        meta(), samples(5, 50), 0, LOAD, nb.parse_class(line(40, 2, "False")), [], CPU, {}
    )
    off = nb.analyse(meta("off"), samples(5, 60), 0, LOAD, [], [], CPU, {})
    text = "\n".join(nb.verdict([("r1", [off, good]), ("r2", [off, late])]))
    assert "≤ 60 s after the neighbour starts** (loop on): met" in text
    assert "reports all well** (loop on): not met" in text
    assert "25 s, 50 s; 37.5 ± 17.7 s (n = 2)" in text  # each run's p95-back time, then both
    assert "longest 9 s, 35 s" in text  # the late run: 5 s → 40 s unreported
    one = "\n".join(nb.verdict([("r1", [off, good])]))
    assert "(loop on): met — 25 s; 25 s (1 run)" in one


def test_a_preempted_neighbour_is_said_and_an_earlier_phases_preemption_is_not():
    def event(t: float, reason: str = "Preempted", pod: str = "noisy-neighbour-5d8-x2") -> dict:
        stamp = datetime.fromtimestamp(t, UTC).strftime("%Y-%m-%dT%H:%M:%SZ")
        return {"reason": reason, "lastTimestamp": stamp, "involvedObject": {"name": pod}}

    # an earlier phase's, another reason's, another pod's
    earlier = [event(T0 - 200), event(T0 + 3, "Killing"), event(T0 + 5, pod="someone-else-1")]
    assert nb.preempted_after(earlier, T0, "noisy-neighbour") is None
    later = [*earlier, event(T0 + 12), event(T0 + 10)]
    assert nb.preempted_after(later, T0, "noisy-neighbour") == 10.0
    kept = nb.analyse(meta(), samples(5, 25), 0, LOAD, [], [], CPU, {}, None, earlier)
    evicted = nb.analyse(meta(), samples(5, 25), 0, LOAD, [], [], CPU, {}, None, [event(T0 + 10)])
    assert kept.neighbour_preempted_s is None and evicted.neighbour_preempted_s == 10.0
    text = "\n".join(nb.verdict([("r1", [kept]), ("r2", [evicted])]))
    assert "- r2 on: **the neighbour was preempted** 10 s after its start" in text
    assert "r1 on: **the neighbour was preempted" not in text


def test_the_section_names_the_setting_and_links_the_plot():
    cal = {"context": "in-context:AMD EPYC", "nodeBusyPct": 20, "generatorCpuPct": 2}
    p = nb.analyse(
        meta(), samples(5, 25), 0, LOAD, nb.parse_class(line(14, 2, "False")), [], CPU, {}, cal
    )
    text = nb.section([("20270115T080000", [p])], meta(), "host", ["results/x/n.png"])
    assert text.startswith("## Noisy neighbour (cpu)")
    assert "20270115T080000 on: in-context:AMD EPYC, node busy 20 %, generator 2 % CPU" in text
    assert "![p95 over time, run x](results/x/n.png)" in text
    assert text.count("\n| 20270115T080000 | on | 125 req/s | 100 (99.5) req/s |") == 1


def test_unit_costs_and_the_stored_calibration_explained():
    text = (
        '{"context":"alone","cpuSeconds":1.060,"wallSeconds":4,"units":71570}\n'
        '{"context":"other-core-busy","cpuSeconds":0.550,"wallSeconds":4,"units":37400}\n'
    )
    costs = nb.unit_costs(text)
    assert costs == [("alone", 0.01481, 71570), ("other-core-busy", 0.01471, 37400)]
    p = nb.analyse(meta(), samples(99, 99), 0, LOAD, [], [], CPU, {})  # 2 ms per request alone
    lines = "\n".join(nb.machine_lines(costs, [("r", [p])], 150))
    assert "- alone: 0.01481 ms per CPU unit (71,570 units) → profile cpu 150: 2.22 ms" in lines
    assert "2.00 ms per request alone (0.88× the stored figure)" in lines
    assert "would carry 200 req/s at most" in lines
    assert "found 125 req/s (0.76× the stored cut-off)" in lines
