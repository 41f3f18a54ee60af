"""plot.py: the model-fit plot needs a replica count to draw the model at."""

from plot import plot_model

MODEL = {"form": "queue", "scaleMs": 4.0, "queueMs": 1.0, "capacityRps": 70.0, "sigma": 0.0}


def classes(replicas):
    run = {
        "sloClass": "c",
        "context": {"replicas": replicas},
        "steps": [{"offeredRps": r, "total": {"p95": 5.0}} for r in (10, 20, 30)],
    }
    status = {"status": {"model": MODEL}, "spec": {"latency": {"percentile": 95, "targetMs": 50}}}
    return [(run, status)]


def test_a_run_without_a_replica_count_gets_no_model_plot(tmp_path):
    assert not plot_model(classes(0), tmp_path / "fit.png")  # a planner verification
    assert not (tmp_path / "fit.png").exists()
    assert plot_model(classes(2), tmp_path / "fit.png")
    assert (tmp_path / "fit.png").stat().st_size > 0


def test_only_runs_are_loaded_not_the_files_beside_them(tmp_path):
    import json

    from plot import load

    run, status = classes(1)[0]
    (tmp_path / "c.json").write_text(json.dumps(run))
    (tmp_path / "c.status.json").write_text(json.dumps(status))
    (tmp_path / "c.response.json").write_text(json.dumps({"steps": []}))
    # a step comparison (experiments that do not calibrate) has steps without totals
    (tmp_path / "c.comparison.json").write_text(json.dumps({"kind": "steps", "steps": [{}]}))
    assert load(tmp_path) == [(run, status)]


def test_the_referees_run_is_named_as_such_and_read_with_its_class(tmp_path):
    import json

    from plot import cutoff_of, load, series_of

    run, status = classes(1)[0]
    run = {**run, "runId": "x-1", "context": {"label": "alone", "replicas": 1}}
    referee = {**run, "runId": "x-1-openloop"}
    status = {**status, "status": {"cutoffs": [{"runId": "x-1", "rps": 40.0, "pods": 1}]}}
    (tmp_path / "c.json").write_text(json.dumps(run))
    (tmp_path / "c.openloop.json").write_text(json.dumps(referee))
    (tmp_path / "c.status.json").write_text(json.dumps(status))
    loaded = load(tmp_path)
    assert [series_of(r) for r, _ in loaded] == ["c (alone)", "c (alone, open-loop referee)"]
    assert all(s == status for _, s in loaded)  # the referee's run gets its class's target
    # the stored figure is Gatling's: not drawn as the referee's cut-off
    assert [cutoff_of(r, s) for r, s in loaded] == [40.0, None]
