"""Run.wait_planned_pods: both instruments measure the planned pool, not one on its way there
(finding3-plan 2026-11-25 23:23: the referee started on 3 of the plan's 4 pods)."""

import json
from pathlib import Path

import pytest
from runner.definition import catalogue
from runner.run import Run, RunError


class Plans:
    def __init__(self, replicas):
        self.replicas = replicas
        self.asked = []

    def call(self, method, path, body=None):
        self.asked.append((method, path))
        return json.dumps({"plan": {"replicas": self.replicas}}).encode()


class Growing:
    """A pool whose autoscaler adds one ready pod each time it is looked at, from `start`."""

    def __init__(self, start):
        self.ready = start - 1
        self.looks = 0

    def class_ready_replicas(self, slo_class):
        self.looks += 1
        self.ready += 1
        return self.ready


def run(api, kube, tmp_path, timeout=240):
    e = catalogue()["smoke"].resolve({})
    return Run(e, api, kube, Path("."), tmp_path / "r", tmp_path, "t1", ready_timeout_s=timeout)


def test_it_waits_until_each_class_has_its_plans_pods(tmp_path, monkeypatch):
    monkeypatch.setattr("runner.run.time.sleep", lambda s: None)
    api, kube = Plans(4), Growing(start=2)
    r = run(api, kube, tmp_path)
    r.wait_planned_pods()
    assert kube.ready == 4 and kube.looks == 3  # 2, 3, 4
    assert api.asked == [
        ("GET", f"/api/v1/slo-classes/{c.name}/plan") for c in r.experiment.classes
    ]


def test_a_pool_that_never_reaches_its_plan_stops_the_run_with_the_counts(tmp_path):
    r = run(Plans(4), Growing(start=1), tmp_path, timeout=0)
    with pytest.raises(RunError, match="has 1 of its plan's 4 pods ready after 0s"):
        r.wait_planned_pods()


def test_a_pool_at_or_above_its_plan_is_measured_at_once(tmp_path):
    kube = Growing(start=5)
    run(Plans(4), kube, tmp_path, timeout=0).wait_planned_pods()
    assert kube.looks == len(catalogue()["smoke"].resolve({}).classes)
