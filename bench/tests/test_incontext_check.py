import json
from pathlib import Path

from isolato_bench import incontext_check as ic


def run(rates, achieved, gen_cpu):
    return {
        "steps": [
            {"offeredRps": r, "achievedRps": a} for r, a in zip(rates, achieved, strict=True)
        ],
        "hygiene": {"steps": [{"generatorCpuPct": c} for c in gen_cpu]},
    }


def answer(status, rps):
    return {"cutoff": {"status": status, "cutoffRps": rps}}


CAL = {
    "phase": "Succeeded",
    "node": "localkube",
    "context": "in-context:AMD EPYC",
    "rates": [33, 66, 99, 132, 165, 206.3, 247.5],
    "requestsPerStep": 512,
    "perPodCutoffRps": 132,
    "generatorCpuPct": 3.5,
    "achievedRps": 107.5,
    "nodeBusyPct": 30.8,
    "neighbourPods": {},
}


def write(tmp: Path, gatling_cut, openloop_cut):
    host = tmp / "host"
    host.mkdir()
    rates = [15 * i for i in range(1, 13)]
    r = run(rates, [x * 0.99 for x in rates], [10.0, 30.0, 45.0])
    for stem, cut in (("gold", gatling_cut), ("gold.openloop", openloop_cut)):
        (host / f"{stem}.json").write_text(json.dumps(r))
        (host / f"{stem}.response.json").write_text(json.dumps(answer(*cut)))
    (tmp / "incontext.json").write_text(json.dumps(CAL))


def test_figures_within_the_coarser_step_agree_and_others_do_not(tmp_path):
    write(tmp_path, ("found", 150), ("found", 90))
    check = ic.load(tmp_path, "gold")
    assert check.reference.cutoff_rps == 132
    assert check.reference.step_rps == 33  # the next rate run above 132 (165) failed
    gatling, referee = check.others
    assert gatling.step_rps == 15 and gatling.generator_cpu_pct == 45.0
    assert gatling.achieved_of_offered == 0.99
    assert ic.agrees(gatling, check.reference)  # 18 ≤ 33
    assert not ic.agrees(referee, check.reference)  # 42 > 33
    section = ic.report(check, "2026-11-28 07:00 UTC, host")
    assert "| Gatling |" in section and "| agrees |" in section and "| disagrees |" in section
    assert "1 of 2 independent generators agree" in section


def test_a_ramp_that_never_failed_is_a_lower_bound_shown_as_such(tmp_path):
    write(tmp_path, ("not-reached", 180), ("none", None))
    check = ic.load(tmp_path, "gold")
    gatling, referee = check.others
    assert gatling.cutoff_rps is None and gatling.value == 180
    assert referee.value is None and not ic.agrees(referee, check.reference)
    assert "not reached (held to 180: a lower bound)" in ic.report(check, "h")


def test_an_incontext_ramp_that_held_to_its_top_is_a_lower_bound(tmp_path):
    # the 10:50 httpbin run: the ramp 80..600 held everywhere; the host knees were 550 (+25)
    write(tmp_path, ("found", 150), ("found", 60))
    cal = json.loads((tmp_path / "incontext.json").read_text())
    cal |= {"rates": [80, 160, 240, 320, 400, 500, 600], "perPodCutoffRps": 600}
    (tmp_path / "incontext.json").write_text(json.dumps(cal))
    check = ic.load(tmp_path, "gold")
    assert check.reference.cutoff_rps is None and check.reference.held_to_rps == 600
    below = ic.Figure("g", "host", 550, None, 25, None, None)
    far_below = ic.Figure("g", "host", 450, None, 25, None, None)
    assert ic.agrees(below, check.reference)  # 550 + 100 >= 600
    assert not ic.agrees(far_below, check.reference)
    assert "not reached (held to 600: a lower bound)" in ic.report(check, "h")


def test_the_fine_pass_narrows_the_incontext_error():
    cal = CAL | {"rates": [80, 160, 240, 320, 400, 500, 600], "fineRates": [425, 450, 475]}
    figure = ic.incontext_figure(cal | {"perPodCutoffRps": 450})
    assert figure.cutoff_rps == 450 and figure.step_rps == 25
