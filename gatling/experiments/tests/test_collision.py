"""A class or tenant that already exists is reused only when it is the definition's."""

import pytest
from runner.collision import differences
from runner.run import Run, RunError


def test_fields_the_definition_sets_must_match_server_defaults_do_not_count():
    wanted = {"resources": {"cpu": "400m"}, "minReplicas": 1, "perPodCutoffRps": 200}
    live = {"resources": {"cpu": "400m", "memory": "256Mi"}, "minReplicas": 1.0,
            "perPodCutoffRps": 200, "pivotPercent": 70}  # fmt: skip
    assert differences(wanted, live) == []


def test_each_difference_names_its_field_and_both_values():
    wanted = {"resources": {"cpu": "400m"}, "maxReplicas": 1, "admission": "off"}
    live = {"resources": {"cpu": "500m"}, "maxReplicas": 3}
    assert differences(wanted, live) == [
        "resources.cpu: '500m' here, '400m' in the definition",
        "maxReplicas: 3 here, 1 in the definition",
        "admission: None here, 'off' in the definition",
    ]
    assert differences({"profile": {"cpu": 1}}, {"profile": 5}) == [
        "profile: 5 here, an object in the definition"
    ]
    assert differences({"x": True}, {"x": 1}) == ["x: 1 here, True in the definition"]


def test_a_run_refuses_a_class_it_would_measure_instead_of_its_own():
    live = {"name": "gold", "spec": {"resources": {"cpu": "500m"}, "maxReplicas": 3}}
    with pytest.raises(RunError, match=r"SLO class gold already exists and differs .*500m"):
        Run.reuse("SLO class", "gold", {"resources": {"cpu": "400m"}}, live, "spec")
    Run.reuse("SLO class", "gold", {"maxReplicas": 3}, live, "spec")  # as defined: reused
    Run.reuse("tenant", "t1", {"committedRps": 5}, None, None)  # created: nothing to check
