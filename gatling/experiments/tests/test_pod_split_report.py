"""pod_split_report.py: how the pods shared each run's steps, from stored runs."""

import json

import pod_split_report as r


def stored(tmp_path, name, instrument, splits, cutoff=None, extra=None):
    steps = [{"index": i, "total": {"p95": 5.0 + i}} for i in range(len(splits))]
    hygiene = [
        {"index": i, "offeredRps": 16.0 * (i + 1), "wire": {"serviceP95Ms": 3.0, "podArrivals": p}}
        for i, p in enumerate(splits)
    ]
    run = {"steps": steps, "hygiene": {"instrument": instrument, "steps": hygiene, **(extra or {})}}
    (tmp_path / f"{name}.json").write_text(json.dumps(run))
    if cutoff:
        answer = {
            "cutoff": {"status": "found", "cutoffRps": cutoff} if cutoff > 0 else {"status": "none"}
        }
        (tmp_path / f"{name}.response.json").write_text(json.dumps(answer))


def test_a_row_per_run_counts_the_steps_the_runners_rule_calls_uneven(tmp_path):
    extra = {"arrivals": "poisson", "connections": "reuse", "knee": {"bracket": [32, 33]}}
    stored(tmp_path, "acc2.openloop", "openloop", [[199, 1], [112, 88], [90, 110]], 32, extra)
    stored(tmp_path, "acc3.openloop", "openloop", [[285, 8, 7]], -1, extra)
    stored(tmp_path, "acc2", "gatling", [[100, 100], [101, 99]], 32)
    stored(tmp_path, "acc1", "gatling", [[100]])
    stored(tmp_path, "acc3", "gatling", [[97, 104, 99]], None, {"connections": "per-request"})
    (tmp_path / "acc2.comparison.json").write_text("{}")  # not a run: skipped
    out = tmp_path / "README.md"
    out.write_text("# splits\n")
    assert r.main([str(tmp_path), "--write", str(out)]) == 0
    text = out.read_text()
    assert (
        "| referee (poisson, reuse) | 2 | 32.0 | 32 to 33 | 1 / 3 | 16: 199 / 1 | 32: 112 / 88 |"
        in text
    )
    assert (
        "| referee (poisson, reuse) | 3 | none | 32 to 33 | 1 / 1 | 16: 285 / 8 / 7 | n/a |" in text
    )
    assert (
        "| Gatling (even, shared pool) | 2 | 32.0 | n/a | 0 / 2 | 32: 101 / 99 | 32: 101 / 99 |"
        in text
    )
    assert "| Gatling (even, shared pool) | 1 | n/a | n/a | 0 / 1 | n/a | n/a |" in text
    per_request = "| Gatling (even, per-request) | 3 | n/a | n/a | 0 / 1 | 16: 97 / 104 / 99 |"
    assert per_request in text
    assert "(acc2.openloop.json)" in text and text.startswith("# splits\n")
    assert r.main([str(tmp_path), "--write", str(out)]) == 0
    assert out.read_text().count("<!-- podsplit:begin -->") == 1  # rewritten in place


def test_runs_without_a_capture_at_the_pods_are_refused(tmp_path, capsys):
    (tmp_path / "x.json").write_text(json.dumps({"steps": [], "hygiene": {"steps": []}}))
    assert r.main([str(tmp_path)]) == 1
    assert "no step captured at the pods" in capsys.readouterr().out
