"""onboarding_stages.py: one onboarding split into the controller's steps from its DEBUG lines."""

from datetime import UTC, datetime

from isolato_bench import onboarding_stages as s

T0 = datetime(2026, 11, 27, 14, 0, 0, tzinfo=UTC).timestamp()


def line(ms: int, msg: str) -> str:
    at = datetime.fromtimestamp(T0 + ms / 1000, UTC).strftime("%Y-%m-%dT%H:%M:%S.%f")[:-3] + "Z"
    return f"{at} DEBUG 1 --- [isolato-controller] [thread] some.Logger : {msg}"


LOG = "\n".join(
    [
        line(5, "class c: pass over 3 tenants"),  # before the POST: not this onboarding's
        line(12, "class c: pass over 4 tenants"),
        line(30, "pool isolato-c-c: generation 7, resourceVersion 9"),  # before the write's log
        line(31, "pool isolato-c-c: spec written, 4 tenants"),
        line(60, "pool isolato-c-c: objects reconciled"),
        line(61, "pool isolato-c-c: table pushed to 1/1 pods"),
        line(80, "class c: pass over 4 tenants"),
        line(95, "tenant t1: null -> Serving written"),
    ]
)


def test_steps_add_up_to_the_total_and_overlaps_count_from_the_later_mark():
    mark = {"tenant": "t1", "post": T0 + 0.010, "accepted": T0 + 0.020, "seen": T0 + 0.100}
    rows, missing = s.summary(LOG, [mark])
    assert missing == 0
    (r,) = rows
    assert round(r["api"]) == 10
    assert round(r["to_class"]) == 0  # the class pass started before the client read the 201
    assert round(r["class"]) == 11  # 20 (201 read) → 31 (spec written)
    assert round(r["to_pool"]) == 0  # the pool pass logged its start before the write returned
    assert round(r["objects"]) == 29
    assert round(r["push"]) == 1
    assert round(r["status"]) == 34
    assert round(r["to_client"]) == 5
    assert round(sum(r.values())) == 90


EARLY = "\n".join(
    [
        line(12, "class c: pass over 4 tenants"),
        line(31, "pool isolato-c-c: spec written, 4 tenants"),
        line(33, "pool isolato-c-c: generation 8, resourceVersion 10"),
        line(40, "pool isolato-c-c: table pushed to 1/1 pods"),
        line(52, "tenant t1: Provisioning -> Serving written (table on every ready pod)"),
        line(70, "pool isolato-c-c: objects reconciled"),
    ]
)


def test_a_push_beside_the_objects_and_the_pool_pass_s_status_write_leave_the_objects_out():
    mark = {"tenant": "t1", "post": T0 + 0.010, "accepted": T0 + 0.020, "seen": T0 + 0.060}
    (r,), missing = s.summary(EARLY, [mark])
    assert missing == 0
    assert round(r["objects"]) == 0  # they end after the status: no step of this chain
    assert round(r["push"]) == 7
    assert round(r["status"]) == 12
    assert round(sum(r.values())) == 50


def test_an_onboarding_without_its_status_line_is_left_out():
    mark = {"tenant": "t2", "post": T0 + 0.010, "accepted": T0 + 0.020, "seen": T0 + 0.100}
    assert s.summary(LOG, [mark]) == ([], 1)


def test_the_drawing_has_one_bar_per_run():
    mark = {"tenant": "t1", "post": T0 + 0.010, "accepted": T0 + 0.020, "seen": T0 + 0.100}
    rows, _ = s.summary(LOG, [mark])
    svg = s.svg([("before", rows), ("after", rows)])
    assert svg.count("(90 ms)") == 2
