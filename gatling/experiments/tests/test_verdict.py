import pytest
from runner.verdict import holds, verdict

PLAN = {
    "plan": {"replicas": 3, "method": "usl-model"},
    "linearBaseline": {"replicas": 2},
    "totalCommittedRps": 90,
    "perPodCutoffRps": 24,
    "targetMs": 50,
}


def run(*tenants):
    return {
        "sloClass": "verify",
        "steps": [
            {
                "achievedRps": 89.5,
                "total": {"count": 1600, "errors": sum(t[1] for t in tenants), "p95": 20.0},
                "tenants": {
                    f"t{i}": {"p95": p95, "errors": e} for i, (p95, e) in enumerate(tenants)
                },
            }
        ],
    }


def test_fields_in_the_definitions_order_with_constants():
    v = verdict(
        ["readyReplicas", "planReplicas", {"onePodPerTenant": 3}, "linearReplicas", "violations"],
        run((10.0, 0), (12.0, 0)),
        PLAN,
        3,
    )
    assert list(v) == [
        "readyReplicas",
        "planReplicas",
        "onePodPerTenant",
        "linearReplicas",
        "violations",
    ]
    assert v == {
        "readyReplicas": 3,
        "planReplicas": 3,
        "onePodPerTenant": 3,
        "linearReplicas": 2,
        "violations": 0,
    }
    assert holds(v)


def test_a_tenant_over_the_target_or_with_errors_is_a_violation():
    fields = ["worstTenantP95Ms", "requests", "errors", "p95Ms", "achievedRps", "violations"]
    v = verdict(fields, run((50.0, 0), (50.1, 0), (10.0, 2)), PLAN, 2)
    assert v["violations"] == 2  # 50.0 is within the target; 50.1 and the errors are not
    assert v["worstTenantP95Ms"] == 50.1
    assert (v["requests"], v["errors"], v["achievedRps"]) == (1600, 2, 89.5)
    assert not holds(v)


def test_a_run_without_a_complete_step_has_no_verdict():
    with pytest.raises(ValueError, match="no complete step"):
        verdict(["violations"], {"sloClass": "verify", "steps": []}, PLAN, 1)
