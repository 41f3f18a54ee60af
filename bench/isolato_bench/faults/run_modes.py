"""`make run` host vs cluster mode: time to ready and time to the first served tenant.

Each run starts scripts/run.sh (MODE=host or MODE=cluster) with the cluster down (its state
kept, as between two `make run`s), and measures from the start: localkube up (its "cluster is
up" line), ready (the banner: API answering, classes ensured), and the first tenant onboarded
into gold through the printed API URL and token answered 200 by its pool. Then `make stop`.
The modes alternate, --runs times each; medians and ranges are its section of
docs/benchmarks-log.md.
`make build` (and helm) must be done; run it under `flock /tmp/isolato-cluster.lock`.
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import time
from datetime import UTC, datetime
from pathlib import Path

from runner.places import BENCHMARK_LOG, REPO_ROOT
from runner.sections import write_section

from .chaos import http, machine
from .verdict import markdown_table, spread

ROOT = REPO_ROOT
RUN_DIR = Path(os.environ.get("ISOLATO_RUN_DIR", "/var/lib/isolato-run"))
LK = str(ROOT / "localkube/localkube")


def log(msg: str) -> None:
    print(f"[run-modes] {msg}", file=sys.stderr, flush=True)


def wait_for(what: str, check, timeout_s: float) -> float:
    """Polls `check` every 0.1 s; the monotonic time it first held."""
    end = time.monotonic() + timeout_s
    while not check():
        if time.monotonic() > end:
            raise SystemExit(f"timed out after {timeout_s} s waiting for {what}")
        time.sleep(0.1)
    return time.monotonic()


def one_run(mode: str, i: int, helm: str) -> dict:
    logfile = ROOT / "build" / f"run-modes-{mode}-{i}.log"
    logfile.parent.mkdir(exist_ok=True)
    env = os.environ | {"MODE": mode, "HELM": helm}
    t0 = time.monotonic()
    with logfile.open("w") as out:
        proc = subprocess.Popen(
            [str(ROOT / "scripts/run.sh")],
            cwd=ROOT,
            env=env,
            stdout=out,
            stderr=subprocess.STDOUT,
            start_new_session=True,
        )

    def logged(text: str):
        def check() -> bool:
            if proc.poll() is not None:
                raise SystemExit(f"{mode}: make run exited:\n{logfile.read_text()[-2000:]}")
            return text in logfile.read_text()

        return check

    try:
        t_up = wait_for("localkube up", logged("cluster is up"), 600)
        t_ready = wait_for("the banner", logged("Stop with Ctrl-C"), 600)
        api = (RUN_DIR / "api-url").read_text().strip()
        token = (RUN_DIR / "api-token").read_text().strip()
        tid = f"rm-{mode}-{i}-{int(time.time())}"
        # 1 req/s: gold keeps room for it whatever earlier sessions left on this cluster
        body = {"tenantId": tid, "sloClass": "gold", "committedRps": 1}

        def accepted() -> bool:
            code = http("POST", f"{api}/api/v1/tenants", token, body)
            if 400 <= code < 500 and code not in (409, 429):
                raise SystemExit(f"{mode}: onboarding {tid} refused: HTTP {code}")
            return code in (201, 409)

        wait_for("the tenant accepted", accepted, 60)
        env_k = os.environ | {"KUBECONFIG": subprocess.check_output([LK, "kubeconfig"], text=True)
                              .strip()}  # fmt: skip

        def served() -> bool:
            ip = subprocess.run(
                ["kubectl", "-n", "isolato-c-gold", "get", "svc", "saas-bench",
                 "-o", "jsonpath={.spec.clusterIP}"],
                capture_output=True, text=True, env=env_k, check=False,
            ).stdout  # fmt: skip
            return bool(ip) and http("POST", f"http://{ip}:8080/v1/tenants/{tid}/requests") == 200

        t_served = wait_for("the tenant served", served, 300)
        # leaves gold as it was: the tenant's finalizer must run before the controller stops
        code = http("DELETE", f"{api}/api/v1/tenants/{tid}", token)
        if code != 202:
            raise SystemExit(f"{mode}: offboarding {tid}: HTTP {code}")
        wait_for("the tenant offboarded",
                 lambda: http("GET", f"{api}/api/v1/tenants/{tid}", token) == 404, 60)  # fmt: skip
    finally:
        subprocess.run([str(ROOT / "scripts/stop.sh")], cwd=ROOT, env=env, check=False,
                       capture_output=True, timeout=600)  # fmt: skip
        try:
            proc.wait(timeout=180)
        except subprocess.TimeoutExpired:
            proc.kill()
    r = {
        "mode": mode,
        "localkube_up_s": round(t_up - t0, 1),
        "ready_s": round(t_ready - t0, 1),
        "first_served_s": round(t_served - t0, 1),
    }
    log(f"{mode} #{i}: {r}")
    return r


def parser(add_help: bool = True) -> argparse.ArgumentParser:
    """run_modes's options (also the `isolato-bench run-modes` subcommand's)."""
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0], add_help=add_help)
    p.add_argument("--runs", type=int, default=3)
    p.add_argument("--helm", required=True)
    p.add_argument("--out", type=Path, default=BENCHMARK_LOG)
    p.add_argument("--json", type=Path, default=ROOT / "build/run-modes.json")
    return p


def main(argv: list[str] | None = None) -> None:
    args = parser().parse_args(argv)
    started = datetime.now(UTC).strftime("%Y-%m-%d %H:%M UTC")
    subprocess.run([str(ROOT / "scripts/stop.sh")], cwd=ROOT, check=False, capture_output=True)
    runs = []
    for i in range(args.runs):
        for mode in ("host", "cluster"):
            runs.append(one_run(mode, i, args.helm))
            args.json.write_text(json.dumps(runs, indent=2) + "\n")  # kept if a later run fails
    rows = []
    for mode in ("host", "cluster"):
        mine = [r for r in runs if r["mode"] == mode]
        rows.append(
            [f"`make run{' MODE=cluster' if mode == 'cluster' else ''}`"]
            + [spread([r[k] for r in mine]).render() for k in ("localkube_up_s", "ready_s")]
            + [
                spread([r["ready_s"] - r["localkube_up_s"] for r in mine]).render(),
                spread([r["first_served_s"] for r in mine]).render(),
                spread([r["first_served_s"] - r["ready_s"] for r in mine]).render(),
            ]
        )
    header = [
        "mode",
        "localkube up (s)",
        "ready: banner printed (s)",
        "of which after localkube up (s)",
        "first tenant served (s)",
        "of which after ready (s)",
    ]
    write_section(
        args.out,
        f"## make run: host vs cluster — {started}, {machine()}\n"
        "From `make bench-run-modes` (`isolato-bench run-modes`): scripts/run.sh"
        " from a stopped cluster (state kept) to its banner, and to a first tenant"
        " onboarded into gold and answered by its pool; median (range, runs), modes"
        " alternating. Excludes `make build`. Shared machine: other helpers' builds and"
        " tests ran meanwhile.\n\n" + markdown_table(header, rows) + "\n",
        "run-modes",
    )
    log(f"wrote its section into {args.out}")


if __name__ == "__main__":
    main()
