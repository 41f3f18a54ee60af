"""Doc claims that rest on a recorded run rather than on a test of the code: the run's own data
(results/…/results.json, or docs/results/… before the results moved) is read and checked here, so
a page cannot say more than the run recorded."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]


def recorded(name: str) -> dict:
    for base in (ROOT / "results", ROOT / "docs" / "results"):
        if (base / name).exists():
            return json.loads((base / name).read_text())
    pytest.fail(f"no recorded {name} under results/ or docs/results/")


# doc-claim: docs/api.md: the chaos run of 10 leader kills recorded HTTP 404 to
def test_the_chaos_run_recorded_404s_to_onboardings_during_a_leader_change():
    run = recorded("chaos/results.json")
    fault = next(f for f in run["faults"] if f["fault"].startswith("leader pod killed"))
    assert len(fault["kills"]) == 10
    refused = [r for r in fault["refusals_so_far"] if r.startswith("POST /api/v1/tenants")]
    with_404 = [r for r in refused if r.endswith("HTTP 404")]
    ids = sorted(re.search(r"'tenantId': '([^']+)'", r).group(1) for r in with_404)
    assert len(ids) == 6 and ids == sorted(fault["not_accepted"])
    # refused, not lost: none of them left an object behind
    assert not set(ids) & set(fault["lost"]) and fault["lost"] == []
