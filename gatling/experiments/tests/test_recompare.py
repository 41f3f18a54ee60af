import json
import shutil
from pathlib import Path

import pytest
from runner.__main__ import main
from runner.recompare import RecompareError, recompare

STORED = Path(__file__).resolve().parents[3] / "results/finding3/mix-1-3"


@pytest.fixture
def mix(tmp_path):
    """A copy of the stored 1:3 mix (2026-11-25 17:54): its gold pod held the SLO to 54 req/s
    with both instruments, its bronze pods had their knee at 99."""
    return Path(shutil.copytree(STORED, tmp_path / "mix-1-3"))


def comparison(directory, cls):
    return json.loads((directory / f"{cls}.comparison.json").read_text())


def test_a_stored_directory_is_compared_again_by_the_current_rule(mix):
    (mix / "f3gold.comparison.json").write_text('{"sloClass": "f3gold", "verdict": "stale"}')
    printed = "\n".join(recompare(mix))
    gold = comparison(mix, "f3gold")
    assert gold["verdict"] == "agrees", gold["reasons"]
    assert gold["cutoff"] == {"heldToRps": 54.0}
    bronze = comparison(mix, "f3bronze")
    assert (bronze["gatling"]["cutoffRps"], bronze["openloop"]["cutoffRps"]) == (99.0, 99.0)
    assert bronze == json.loads((STORED / "f3bronze.comparison.json").read_text())
    assert "both held the SLO to 54 req/s" in printed


def test_the_cli_compares_and_a_directory_without_comparisons_is_a_usage_error(mix, tmp_path):
    assert main(["compare", str(mix)]) == 0
    with pytest.raises(RecompareError, match=r"no \*\.comparison\.json"):
        recompare(tmp_path)
    assert main(["compare", str(tmp_path)]) == 2


def test_a_missing_answer_names_the_file(mix):
    (mix / "f3gold.openloop.response.json").unlink()
    with pytest.raises(RecompareError, match=r"f3gold\.openloop\.response\.json"):
        recompare(mix)


def test_a_step_comparison_is_compared_again_against_its_stored_target(tmp_path):
    plan = Path(shutil.copytree(STORED.parent / "plan-1-3", tmp_path / "plan-1-3"))
    before = comparison(plan, "f3gold")
    (plan / "f3gold.comparison.json").write_text(json.dumps({**before, "verdict": "stale"}))
    printed = "\n".join(recompare(plan))
    assert comparison(plan, "f3gold") == before
    assert "p95 per step and tenant" in printed
