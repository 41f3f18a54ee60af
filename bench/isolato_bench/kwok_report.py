"""The KWOK Fig. 8 run (`isolato-bench kwok-tune`) as a docs/benchmarks-log.md section: each
iteration of the loop beside the paper's runs (Columbo, ICPE '25, Fig. 8: 1600 containers on 16
nodes, 80.9 s → 31.1 s → 16.9 s, best case 11.9 s).

report(ANALYSIS, MACHINE, LOAD_START, LOAD_END) → the section
"""

from datetime import UTC, datetime

from .path_tune_report import attempts, bottleneck, measured

PAPER = [80.9, 31.1, 16.9]
PAPER_BEST = 11.9
NONE = "\u2013"  # an en dash: the table cell of a value that does not exist


def per_iteration(its):
    """How many runs each iteration measured: 'the median of 3 runs per iteration'."""
    n = max(len(it.get("repeatSeconds") or []) for it in its)
    return "one measurement per iteration" if n < 2 else f"the median of {n} runs per iteration"


def report(a, machine, load0, load1):
    its = a["iterations"]
    hw = a["hardware"]
    shape = a["shape"]
    pods = shape["workloads"] * shape["podsPerWorkload"]
    when = datetime.now(UTC).strftime("%Y-%m-%d %H:%M")
    out = [
        f"\n### KWOK: {pods} pods on {hw['nodes']} fake nodes, the loop from Kubernetes' defaults,"
        f" beside Columbo's Fig. 8 — {when} UTC — {machine}\n"
    ]
    out.append(
        f"`isolato-bench kwok-tune`: 1 Deployment × {pods} pods on {hw['nodes']} KWOK v0.8.0"
        " fake nodes (`localkube kwok up`: real etcd, kube-apiserver, controller-manager and"
        " scheduler of Kubernetes 1.34.4; the kubelet's stages simulated by kwok), seconds from"
        f" the first create to the last pod Ready (traced), {per_iteration(its)}. Load"
        f" average at the start {load0}, at the end {load1}: 2 cores shared with other work."
        " The paper: Kubernetes 1.27 on 16 real worker nodes.\n"
    )
    out.append(
        "| run | paper (s) | localkube + KWOK (s) | change applied after it"
        " | bottleneck (measured vs predicted share) | model best case (s)"
        " | scheduling attempts | CPU control plane / node / host |"
    )
    out.append("|---|---|---|---|---|---|---|---|")
    for k, it in enumerate(its):
        applied = (it.get("applied") or "").split(" && ")[0].removeprefix(
            "localkube config set "
        ) or NONE
        if it.get("reverted"):
            applied = f"(its change undone: {it['reverted']}) {applied}"
        c = it["cpu"]
        paper = f"{PAPER[k]:.1f}" if k < len(PAPER) else NONE
        out.append(
            f"| {it['iteration']} | {paper} | {measured(it)} | {applied} | {bottleneck(it)} | "
            f"{it['predictedSeconds']:.2f} | {attempts(it)} | {100 * c['controlPlane']:.0f}"
            f" / {100 * c['node']:.0f} / {100 * c['host']:.0f} % |"
        )
    kept = [it for it in its if not (it.get("reverted"))]
    # the tuned configuration: the last run whose change was kept (a run that undid a change
    # measured the undone one)
    tuned = min(its[1:] or its, key=lambda it: it["measuredSeconds"])
    first = its[0]["measuredSeconds"]
    best = min(it["predictedSeconds"] for it in kept or its)
    out.append(
        f"\nDefault {first:.2f} s → tuned {tuned['measuredSeconds']:.2f} s"
        f" (run {tuned['iteration']}):"
        f" **{100 * (1 - tuned['measuredSeconds'] / first):.1f} % less**;"
        f" the paper {PAPER[0]} s → {PAPER[-1]} s ({100 * (1 - PAPER[-1] / PAPER[0]):.1f} % less)."
        f" Model best case (lowest of the iterations) {best:.2f} s ="
        f" {100 * (best / tuned['measuredSeconds'] - 1):+.0f} % of the tuned measurement;"
        f" the paper's {PAPER_BEST} s = {100 * (PAPER_BEST / PAPER[-1] - 1):+.0f} % of its run 3."
        f" Loop outcome: {a.get('outcome') or a.get('error')}. "
        "Plots: [kwok-16x100.png](results/pipeline/kwok-16x100.png), "
        "[kwok-16x100-vs-paper.png](results/pipeline/kwok-16x100-vs-paper.png)."
    )
    return "\n".join(out)
