"""usage: runner.sh run NAME | runner.sh list | runner.sh model-accuracy [DIR]
       | runner.sh pod-size-plan [DIR] | runner.sh compare DIR...

run NAME: the experiment gatling/experiments/defs/NAME.yaml on localkube (docs/gatling.md).
  Its parameters come from the environment (see `list`); ISOLATO_API_URL, ISOLATO_API_TOKEN or
  ISOLATO_API_TOKEN_FILE, else what `make run` wrote in ISOLATO_RUN_DIR (/var/lib/isolato-run);
  ISOLATO_KUBECONFIG (default: localkube's, `make run`'s; KUBECONFIG is not read); READY_TIMEOUT
  (s, default 240); results in a new build/experiments/<results>/<runId>/, or the stored
  results/<results>/ with REPLACE=1, or RESULTS_DIR. Measuring (docs/gatling.md, "Measurement
  hygiene"): INSTRUMENT=gatling|openloop|both (the open-loop referee drives every simulation, from
  the plan the Gatling module exports; both: side by side and compared), HYGIENE=on|off (generator
  and pods on disjoint CPUs), CONTAMINATED=refuse|post, REFINE=1|0 (bisect near the knee),
  ARRIVALS=even|poisson and CONNECTIONS=reuse|per-request (both generators), OPENLOOP (default
  build/openloop), WIRE=on|off (capture the requests at the pods; ramps only).
list: the definitions with their parameters and a line each.
model-accuracy [DIR]: posts the accuracy runs of DIR (default results/model-accuracy) to
  one class and compares the predicted cut-off with the measured one; INSTRUMENT=openloop
  fits and checks on the open-loop referee's runs instead of Gatling's, both on each in turn.
pod-size-plan [DIR]: posts the pod-size runs of DIR (default results/pod-size) to a class
  with candidate sizes and asks the planner which size it runs for a range of committed loads.
compare DIR...: compares each directory's stored runs again by today's rule (offline: from the
  runs and the controller's stored answers to them) and rewrites its *.comparison.json.
Exit status: 0 done, 1 failed, 2 usage or definition error, 130 interrupted.
"""

from __future__ import annotations

import os
import signal
import sys
import tempfile
from collections.abc import Mapping
from datetime import UTC, datetime
from pathlib import Path
from types import FrameType

from .api import ApiError, ApiUnreachable, IsolatoApi
from .cluster import ClusterError, Kubectl
from .definition import Definition, DefinitionError, ParameterError, catalogue
from .instruments import InstrumentError, Options
from .model_accuracy import model_accuracy
from .places import REPO_ROOT, RESULTS
from .pod_size import pod_size_plan
from .recompare import RecompareError, recompare
from .run import Run, RunError, log
from .settings import (
    SettingsError,
    api_settings,
    cluster_settings,
    localkube_kubeconfig,
    results_dir,
)


def listing(defs: Mapping[str, Definition]) -> str:
    """One line per definition: its name, its parameters with their defaults, its description."""
    lines = []
    for name, d in defs.items():
        params = " ".join(f"[{p.usage()}]" for p in d.parameters)
        lines.append(f"  {name:<14} {params + ' ' if params else ''}{d.description}")
    return "\n".join(lines)


def _usage(defs: Mapping[str, Definition], problem: str) -> int:
    print(
        f"{problem}\nusage: make experiment NAME=<name> [PARAMETER=value ...] [REPLACE=1]\n"
        f"definitions (gatling/experiments/defs/<name>.yaml):\n{listing(defs)}",
        file=sys.stderr,
    )
    return 2


def _interrupt(signum: int, frame: FrameType | None) -> None:
    raise KeyboardInterrupt  # SIGTERM stops the run as Ctrl-C does


def run(name: str, environ: Mapping[str, str]) -> int:
    defs = catalogue()
    if not name:
        return _usage(defs, "no experiment named")
    if name not in defs:
        return _usage(defs, f"unknown experiment '{name}'")
    try:
        experiment = defs[name].resolve(environ)
        run_id = f"{name}-{datetime.now(UTC):%Y%m%dT%H%M%SZ}"
        out, replaces = results_dir(environ, REPO_ROOT, experiment.results, run_id)
        settings = api_settings(environ)
        cluster = cluster_settings(environ, lambda: localkube_kubeconfig(REPO_ROOT))
        kube = Kubectl(cluster.kubeconfig)
        timeout = int(environ.get("READY_TIMEOUT") or 240)
        options = Options.from_env(environ, REPO_ROOT)
    except (ParameterError, SettingsError, InstrumentError, ValueError) as e:
        print(f"[experiment] error: {e}", file=sys.stderr)
        return 2
    log(f"API {settings.url} ({settings.source}), cluster {cluster.kubeconfig}")
    if cluster.note:
        log(cluster.note)
    if replaces:
        log(f"REPLACE=1: writing over the stored results in {out}")
    signal.signal(signal.SIGTERM, _interrupt)
    with tempfile.TemporaryDirectory(prefix="isolato-experiment-") as work:
        r = Run(
            experiment,
            IsolatoApi(settings.url, settings.token),
            kube,
            REPO_ROOT,
            out,
            Path(work),
            run_id,
            timeout,
            options,
        )
        try:
            r.execute()
        except KeyboardInterrupt:
            return 130
        except ApiUnreachable as e:
            log(f"error: {e} (is `make run` up? ISOLATO_API_URL sets another URL)")
            return 1
        except (RunError, ApiError, ClusterError) as e:
            log(f"error: {e}")
            return 1
    return 0


def main(argv: list[str]) -> int:
    environ = os.environ
    try:
        if argv[:1] == ["list"]:
            print(listing(catalogue()))
            return 0
        if argv[:1] == ["run"] and len(argv) <= 2:
            return run(argv[1] if len(argv) == 2 else "", environ)
        if argv[:1] == ["model-accuracy"] and len(argv) <= 2:
            directory = Path(argv[1]).resolve() if len(argv) == 2 else RESULTS / "model-accuracy"
            instrument = environ.get("INSTRUMENT") or "gatling"
            fits = {"gatling": ["gatling"], "openloop": ["openloop"]}
            fits["both"] = fits["gatling"] + fits["openloop"]
            if instrument not in fits:
                problem = f"INSTRUMENT must be gatling, openloop or both, not '{instrument}'"
                print(problem, file=sys.stderr)
                return 2
            settings = api_settings(environ)
            for one in fits[instrument]:
                model_accuracy(IsolatoApi(settings.url, settings.token), directory, one)
            return 0
        if argv[:1] == ["compare"] and len(argv) >= 2:
            for directory in argv[1:]:
                print("\n".join(recompare(Path(directory))))
            return 0
        if argv[:1] == ["pod-size-plan"] and len(argv) <= 2:
            directory = Path(argv[1]) if len(argv) == 2 else RESULTS / "pod-size"
            settings = api_settings(environ)
            pod_size_plan(IsolatoApi(settings.url, settings.token), directory)
            return 0
    except DefinitionError as e:
        print(f"[experiment] error: {e}", file=sys.stderr)
        return 2
    except (SettingsError, RecompareError) as e:
        print(f"[experiment] error: {e}", file=sys.stderr)
        return 2
    except (RunError, ApiError, ApiUnreachable) as e:
        log(f"error: {e}")
        return 1
    print(__doc__, file=sys.stderr)
    return 2


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
