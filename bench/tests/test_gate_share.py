import json
from pathlib import Path

from isolato_bench import gate_share

STORED = Path(__file__).resolve().parents[2] / "results/httpbin-alone/gate-share.json"


def test_the_stored_run_renders_and_says_whether_50m_holds():
    data = json.loads(STORED.read_text())
    section = gate_share.report(data, "2 CPUs", "1.0", "2.0")
    assert section.startswith("## Gate's fixed CPU share under load")
    assert section.count("\n| ") == 1 + len(data["runs"])  # header and one row a run
    # 45m of 50m at the cut-off, throttled: not comfortably
    assert not gate_share.holds(data)
    assert "holds only just or not" in section


def test_a_gate_well_under_its_share_holds():
    run = {"shareOfCutoff": 1, "gate": {"cpuMillicores": 20.0, "throttledPeriods": 0}}
    assert gate_share.holds({"runs": [run]})
