"""Checks one analysis of tune-e2e.sh's reduced loops: complete and consistent.

    tune_check.py ANALYSIS.json --applied PREFIX... [--must-apply PARAMETER...]
                  [--started-from KEY=VALUE...] [--workload TEXT] [--bottleneck-step STEP]

Every stage S1-S7 measured and predicted, CPU (with its idle rate and the run's CPU floor), the
kubelet's and the control plane's step timings, the waits for the clients' rate limiters and the
API server's queues and the scheduler's attempts read, a decision taken; a setting applied was
applied as a --applied PREFIX says and the run after it was measured. With --must-apply the first
iteration must have applied one of those parameters; --started-from is what the analysis must
record as set before its first run (nothing when absent); --workload what it must say it
deployed; --bottleneck-step the step the first iteration must name (e.g. S3_WRITE).
"""

import argparse
import json

STAGES = {"S1", "S2", "S3", "S4", "S5", "S6", "S7"}
DECISIONS = ("APPLY", "STOP_CPU_BOUND", "STOP_SMALL_GAIN", "STOP_NO_RULE")
LIMITS = {"CONTROLLER_MANAGER", "SCHEDULER", "KUBELET", "APISERVER"}


def fail(why, *context):
    raise SystemExit(f"[tune-e2e] {why}: {context}")


def check_first(a, first):
    if not (set(first["measured"]) <= STAGES and {"S1", "S3", "S4"} <= set(first["measured"])):
        fail("stages missing", first["measured"])
    if abs(sum(first["measured"].values()) - first["measuredSeconds"]) >= 1e-6:
        fail("stages do not add up to the run", first["measured"], first["measuredSeconds"])
    if not (first["predictedSeconds"] > 0 and first["single"]):
        fail("no prediction or single-pod input", first["predictedSeconds"], first["single"])
    if not (first["cpu"]["measured"] and first["cpu"]["controlPlane"] > 0):
        fail("CPU not measured", first["cpu"])
    # idle read before the runs; the run's work above it fits in no less than the CPU floor
    if not first["idleCpu"]["measured"]:
        fail("idle CPU not measured", first["idleCpu"])
    floor = first["cpuFloor"]
    if not (floor and 0 < floor["floorSeconds"] <= 1.02 * first["measuredSeconds"]):
        fail("CPU floor out of range", floor, first["cpu"], first["idleCpu"])
    # the kubelet timed every new pod's sandbox, in the run and in the single-pod input
    pods = a["shape"]["workloads"] * a["shape"]["podsPerWorkload"]
    sandbox = (first.get("kubeletSteps") or {}).get("S5_SANDBOX") or {}
    if not (sandbox.get("count", 0) >= pods and sandbox["seconds"] > 0):
        fail("the kubelet's sandboxes not timed", first.get("kubeletSteps"))
    single = (first.get("singleKubeletSteps") or {}).get("S5_SANDBOX") or {}
    if single.get("count", 0) < 1:
        fail("the single pod's sandbox not timed", first.get("singleKubeletSteps"))
    # the API server timed every pod's create and binding and the Deployments' writes; every
    # client's rate limiter and the API server's queues were read; the scheduler scheduled
    # every pod
    cp = first.get("controlPlaneSteps") or {}
    for step, least in (("S1_WRITE", 1), ("S3_WRITE", pods), ("S4_WRITE", pods), ("S2_READ", 1)):
        if (cp.get(step) or {}).get("count", 0) < least:
            fail(f"{step} timed fewer than {least} times", cp)
    if set(first.get("throttled") or {}) != LIMITS:
        fail("limits not read", first.get("throttled"))
    if (first.get("schedulingAttempts") or {}).get("scheduled", 0) < pods:
        fail("the scheduler's attempts not read", first.get("schedulingAttempts"))
    if first.get("createSpanSeconds") is None or first["createSpanSeconds"] < 0:
        fail("no create span", first.get("createSpanSeconds"))
    if first["decision"] not in DECISIONS:
        fail("no decision", first["decision"])


def main():
    args = argparse.ArgumentParser()
    args.add_argument("analysis")
    args.add_argument("--applied", nargs="+", required=True)
    args.add_argument("--must-apply", nargs="+", default=[])
    args.add_argument("--started-from", nargs="+", default=[], metavar="KEY=VALUE")
    args.add_argument("--workload")
    args.add_argument("--bottleneck-step")
    opt = args.parse_args()
    must, prefixes = opt.must_apply, tuple(opt.applied)
    with open(opt.analysis) as f:
        a = json.load(f)
    if a["status"] != "DONE":
        fail("the analysis did not finish", a.get("error"))
    if opt.workload and a["workload"] != opt.workload:
        fail("another workload", a["workload"], opt.workload)
    started = {k: float(v) for k, v in (kv.split("=") for kv in opt.started_from)}
    if a.get("startedFrom") != started:
        fail("not started from the settings given", a.get("startedFrom"), started)
    its = a["iterations"]
    if not 1 <= len(its) <= 3:
        fail("iterations", len(its))
    first = its[0]
    check_first(a, first)
    if must:
        change = first.get("recommendation") or {}
        if first["decision"] != "APPLY" or change.get("parameter") not in must:
            fail(f"expected one of {must} applied", first["decision"], change)
    step = (first.get("bottleneckStep") or {}).get("step")
    if opt.bottleneck_step and step != opt.bottleneck_step:
        fail(f"expected the bottleneck at {opt.bottleneck_step}", first.get("bottleneckStep"))
    if first["decision"] == "APPLY":
        if not first.get("applied", "").startswith(prefixes):
            fail("applied elsewhere", first.get("applied"))
        if not (len(its) == 2 and its[1]["measuredSeconds"] > 0 and "measuredGain" in its[1]):
            fail("the run after the change was not measured", its)
    bottleneck = (first.get("bottleneck") or {}).get("stage")
    print(
        f"[tune-e2e] {a['shape']}: {len(its)} iteration(s); first {first['measuredSeconds']:.2f} s,"
        f" bottleneck {bottleneck}, decision {first['decision']}"
        f"{' (' + first['applied'] + ')' if first.get('applied') else ''}; {a['outcome']}"
    )


if __name__ == "__main__":
    main()
