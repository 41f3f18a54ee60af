"""Unit tests of path_tune_report.py: what a loop's iterations look like in the benchmark log."""

from isolato_bench import path_tune_report as r

CPU = {"measured": True, "controlPlane": 0.3, "node": 0.2, "client": 0.25, "host": 1.0}


def iteration(n, **extra):
    it = {
        "iteration": n,
        "measuredSeconds": 40.0,
        "predictedSeconds": 30.0,
        "measured": {"S1": 25.0, "S5": 9.0},
        "cpu": CPU,
        "bottleneck": {"stage": "S1", "measuredShare": 0.69, "predictedShare": 0.06},
        "decision": "STOP_CPU_BOUND",
    }
    return it | extra


def analysis(shape, its):
    return {
        "id": "tx",
        "shape": shape,
        "status": "DONE",
        "outcome": "40 s → 30 s",
        "finished": "2026-11-26T03:18:34.527842296Z",
        "iterations": its,
    }


def test_an_applied_change_its_gain_and_an_undone_one_are_shown():
    a = analysis(
        {"workloads": 50, "podsPerWorkload": 1, "containersPerPod": 1},
        [
            iteration(1, decision="APPLY", applied="restarted Isolato's controller with -Dx=50"),
            iteration(
                2, measuredGain=0.021, reverted="isolato.x back to 8", repeatSeconds=[41, 40, 39.5]
            ),
        ],
    )
    text = r.section(a)
    assert "50 dedicated tenants onboarded at once (analysis tx)" in text
    assert (
        f"| 1 | 40.00 | 30.00 (-25 %) | 25.00 | 9.00 | {r.NONE} | {r.NONE} | S1 (69 vs 6 %)"
        f" | {r.NONE} | {r.NONE} |"
    ) in text
    assert "APPLY: restarted Isolato's controller with -Dx=50" in text
    assert "| 2.1 % | isolato.x back to 8 | STOP_CPU_BOUND | 30 / 20 / 25 / 100 % |" in text
    assert "| 2 | 40.00 (of 41.00, 40.00, 39.50) | 30.00 (-25 %) |" in text
    assert text.rstrip().endswith("Outcome: 40 s → 30 s.")


def test_a_scale_is_named_by_its_pods_and_a_failed_analysis_by_its_error():
    a = analysis({"workloads": 1, "podsPerWorkload": 9, "containersPerPod": 1}, [])
    a |= {"status": "FAILED", "error": "3 of 9 new pods Ready"}
    text = r.section(a)
    assert "a pool scaled from 1 to 10 pods" in text
    assert "Outcome: FAILED: 3 of 9 new pods Ready." in text


def test_the_kubelets_steps_are_per_pod_and_the_pods_cpu_limit_is_named():
    sandbox = {"count": 6, "seconds": 12.0}
    it = iteration(
        1,
        singleKubeletSteps={"S5_SANDBOX": {"count": 1, "seconds": 2.5}},
        kubeletSteps={"S5_SANDBOX": sandbox, "S6_START_CONTAINER": {"count": 6, "seconds": 18.0}},
    )
    assert "| T_cs 2.50 | T_cs 2.00 · T_sc 3.00 |" in r.row(it)
    # a step that did not run (no count) is left out
    assert r.kubelet({"S6_CREATE_CONTAINER": {"count": 0, "seconds": 0}}) == r.NONE
    shape = {"workloads": 50, "podsPerWorkload": 1, "containersPerPod": 1, "podCpuLimitMillis": 10}
    assert r.title(shape) == "50 dedicated tenants onboarded at once, pods of 10m CPU"


def test_an_analysis_that_names_its_workload_is_titled_by_it():
    a = analysis({"workloads": 1, "podsPerWorkload": 9, "containersPerPod": 1}, [])
    a["workload"] = "a new class with a pool of 9 pods"
    assert "#### a new class with a pool of 9 pods (analysis" in r.section(a)


def test_a_recommendation_not_applied_is_named():
    it = iteration(1, decision="APPLY", recommendation={"parameter": "p", "to": 50.0})
    assert "APPLY (p → 50 not applied)" in r.row(it)


def test_the_noise_is_the_widest_spread_of_an_iterations_repeats():
    shape = {"workloads": 50, "podsPerWorkload": 1, "containersPerPod": 1}
    a = analysis(shape, [iteration(1, repeatSeconds=[27.4, 23.3, 22.9])])
    b = analysis(shape, [iteration(1, repeatSeconds=[8.1, 7.2])])
    text = r.report([a, b], "vm", "1 1 1", "2 2 2")
    assert "— 2026-11-26 03:18 UTC — vm" in text
    assert "spread by up to 20 %" in text
    assert "one run per iteration" in r.report([analysis(shape, [iteration(1)])], "vm", "1", "2")


def test_the_schedulers_attempts_show_the_scheduled_first_and_leave_out_results_never_seen():
    it = {"schedulingAttempts": {"error": 960, "scheduled": 1600, "unschedulable": 0}}
    assert r.attempts(it) == "1600 scheduled · 960 error"
    assert r.attempts({"schedulingAttempts": {}}) == r.NONE
    assert r.attempts({}) == r.NONE


def test_the_bottleneck_names_its_step_where_the_components_timed_it():
    stage = {"stage": "S4", "measuredShare": 0.41, "predictedShare": 0.26}
    step = {"label": "S4 T_w", "measuredShare": 0.21, "predictedShare": 0.1}
    assert r.bottleneck({"bottleneck": stage}) == "S4 (41 vs 26 %)"
    assert (
        r.bottleneck({"bottleneck": stage, "bottleneckStep": step})
        == "S4 (41 vs 26 %) at S4 T_w (21 vs 10 %)"
    )
    assert r.bottleneck({}) == r.NONE
