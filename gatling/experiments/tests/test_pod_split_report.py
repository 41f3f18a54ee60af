"""pod_split_report.py: the pods' split of each step, from stored runs."""

import json

import pod_split_report as r


def stored(tmp_path, name, instrument, splits, extra=None):
    steps = [{"index": i, "total": {"p95": 5.0 + i}} for i in range(len(splits))]
    hygiene = [
        {"index": i, "offeredRps": 16.0 * (i + 1), "wire": {"serviceP95Ms": 3.0, "podArrivals": p}}
        for i, p in enumerate(splits)
    ]
    run = {"steps": steps, "hygiene": {"instrument": instrument, "steps": hygiene, **(extra or {})}}
    (tmp_path / name).write_text(json.dumps(run))


def test_each_captured_step_is_a_row_judged_by_the_runners_rule(tmp_path, capsys):
    extra = {"arrivals": "poisson", "connections": "reuse"}
    stored(tmp_path, "acc2.openloop.json", "openloop", [[199, 1], [112, 88]], extra)
    stored(tmp_path, "acc2.json", "gatling", [[100, 100]])
    (tmp_path / "acc2.comparison.json").write_text("{}")  # not a run: skipped
    out = tmp_path / "README.md"
    out.write_text("# splits\n")
    assert r.main([str(tmp_path), "--write", str(out)]) == 0
    text = out.read_text()
    assert "| referee (poisson, reuse) | 0 | 16 | 5.0 | 3.0 | 199 / 1 | uneven |" in text
    assert "| referee (poisson, reuse) | 1 | 32 | 6.0 | 3.0 | 112 / 88 | even |" in text
    assert "| Gatling (even, shared pool) | 0 | 16 | 5.0 | 3.0 | 100 / 100 | even |" in text
    assert "(acc2.openloop.json)" in text and text.startswith("# splits\n")
    assert r.main([str(tmp_path), "--write", str(out)]) == 0
    assert out.read_text().count(r.BEGIN) == 1  # rewritten in place


def test_runs_without_a_capture_at_the_pods_are_refused(tmp_path, capsys):
    (tmp_path / "x.json").write_text(json.dumps({"steps": [], "hygiene": {"steps": []}}))
    assert r.main([str(tmp_path)]) == 1
    assert "no step captured at the pods" in capsys.readouterr().out
