"""Unit tests of steps_report.py: the control plane's steps and rate limiters in the log."""

from isolato_bench import steps_report as r

CM = {"count": 362, "seconds": 67.19}


def iteration(n, **extra):
    it = {
        "iteration": n,
        "measuredSeconds": 19.25,
        "measured": {"S3": 3.21, "S5": 16.02},
        "controlPlaneSteps": {
            "S3_WRITE": {"count": 100, "seconds": 2.2},
            "S4_READ": {"count": 0, "seconds": 0},
        },
        "throttled": {
            "CONTROLLER_MANAGER": CM,
            "SCHEDULER": {"count": 201, "seconds": 0.0},
            "APISERVER": {"count": 900, "seconds": 0.04},
        },
        "decision": "STOP_CPU_BOUND",
        "schedulingAttempts": {"scheduled": 100, "error": 0},
    }
    return it | extra


ANALYSIS = {
    "id": "tx",
    "shape": {"workloads": 1, "podsPerWorkload": 100, "containersPerPod": 1},
    "status": "DONE",
    "hardware": {"nodes": 1},
    "outcome": "19.25 s → 16.00 s",
    "finished": "2026-11-26T13:40:00Z",
    "iterations": [
        iteration(
            1,
            decision="APPLY",
            applied="localkube config set controller-manager.kube-api-qps 100",
            recommendation={"parameter": "controller-manager.kube-api-qps", "predictedGain": 0.06},
            repeatSeconds=[19.67, 18.12, 19.25],
            createSpanSeconds=5.1,
        ),
        iteration(2, measuredSeconds=16.0, measuredGain=0.169, throttled={}),
    ],
}


def test_each_iteration_shows_its_steps_waits_and_the_gain_predicted_for_it():
    text = r.report(ANALYSIS, "vm", "1.0", "2.0", 20, 30, "`token-bucket.sh`.")
    assert "1 × 100 pods on 1 node from the controller manager's QPS 20 — 2026-11-26 13:40" in text
    assert "`token-bucket.sh`. The controller manager's `kube-api-qps` was 20 to begin with" in text
    # the bucket's arithmetic: 70 creates beyond the burst at 20 per second
    assert (
        "at least 3.50 s for 100 pod creates ((pods − burst) / QPS), and 0.70 s at QPS 100" in text
    )
    assert (
        "| 1 | 19.25 (of 19.67, 18.12, 19.25) | 3.21 | 5.10 | S3 T_w 22 ms ×100 | 100 scheduled"
        " | controller manager 67.19 s / 362 · scheduler 0.00 s / 201"
        " · API server's queues 0.04 s / 900"
        " | APPLY: localkube config set controller-manager.kube-api-qps 100 | 6.0 %"
        f" | {r.NONE} | {r.NONE} |"
    ) in text
    # the next row carries the gain predicted for it beside the one measured; no waits read
    assert (
        f"| 2 | 16.00 | 3.21 | {r.NONE} | S3 T_w 22 ms ×100 | 100 scheduled | {r.NONE}"
        f" | STOP_CPU_BOUND | {r.NONE}"
        " | 6.0 % | 16.9 % |"
    ) in text
    assert text.rstrip().endswith("Outcome: 19.25 s → 16.00 s.")


def test_the_bucket_floor_is_zero_within_the_burst():
    assert r.bucket_floor(20, 20, 30) == 0
    assert r.bucket_floor(1600, 100, 30) == 15.7
