"""Model accuracy (after `REPLACE=1 REPLICAS=N make experiment NAME=accuracy` for N = 1, 2, 3).

Posts the measured runs at 1, 2 and 3 replicas, in that order, to one fresh class accfit (no
tenants, no pods); accuracy.py then compares the cut-off the 1+2 fit predicted for 3 replicas
(in the answer to the 2-replica post) with the one measured.
"""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

from .api import IsolatoApi
from .definition import SloClass
from .run import EXPERIMENTS_DIR, RunError, log, run_file

ACCFIT = SloClass("accfit", "200m", "128Mi", None, 1, 3, 90)


def response_file(instrument: str) -> str:
    """The API's answer to one replica count's run: acc.response.json for Gatling's runs,
    acc.openloop.response.json for the referee's."""
    return run_file("acc", instrument).removesuffix(".json") + ".response.json"


def refuse_unclean(run: dict, path: Path) -> None:
    """Refuses a run the measurement hygiene did not pass: its cut-off belongs to another load
    (the runner refused to post it too)."""
    h = run.get("hygiene") or {}
    if h.get("status", "clean") != "clean":
        reasons = "; ".join(h.get("reasons") or [])
        raise RunError(f"{path} is {h['status']} ({reasons}): measure it again")


def model_accuracy(api: IsolatoApi, directory: Path, instrument: str = "gatling") -> None:
    """Fits on `instrument`'s runs (INSTRUMENT=gatling or openloop: the referee's)."""
    runs = {r: directory / f"replicas-{r}" / run_file(f"acc{r}", instrument) for r in (1, 2, 3)}
    missing = [str(p) for p in runs.values() if not p.exists()]
    if missing:
        raise RunError(f"missing accuracy runs: {', '.join(missing)}")
    for path in runs.values():
        refuse_unclean(json.loads(path.read_text()), path)
    api.delete_quietly("/api/v1/slo-classes/accfit")
    body = ACCFIT.body()
    (directory / "accfit.class.json").write_text(json.dumps(body, separators=(",", ":")))
    api.call("POST", "/api/v1/slo-classes", body)
    try:
        for r, path in runs.items():
            log(f"posting the {r}-replica run to accfit")
            run = {**json.loads(path.read_text()), "sloClass": "accfit"}
            answer = api.call("POST", "/api/v1/calibrations", run)
            (directory / f"replicas-{r}" / response_file(instrument)).write_bytes(answer)
        (directory / run_file("accfit.status", instrument)).write_bytes(
            api.call("GET", "/api/v1/slo-classes/accfit")
        )
    finally:
        api.delete_quietly("/api/v1/slo-classes/accfit")
    done = subprocess.run(
        [sys.executable, "accuracy.py", str(directory), instrument], cwd=EXPERIMENTS_DIR
    )
    if done.returncode != 0:
        raise RunError("accuracy.py failed")
