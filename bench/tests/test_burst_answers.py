"""burst_answers.py: a burst's answers judged against the REST API's retry contract."""

from isolato_bench.burst_answers import Attempt, tally

CREATED, SAME = Attempt(201), Attempt(200)
TIMED_OUT = Attempt(503, "1", "Kubernetes API server: unreachable")


def test_plain_answers_are_exact():
    t = tally([[CREATED], [CREATED]], [[SAME]])
    assert (t.created, t.again, t.other, t.retried) == (2, 1, 0, 0)
    assert t.exact(2, 1)


def test_a_create_stored_before_its_timeout_counts_once_when_its_retry_answers_200():
    t = tally([[TIMED_OUT, SAME], [TIMED_OUT, CREATED]], [])
    assert (t.created, t.other, t.retried) == (2, 0, 2)


def test_a_503_without_retry_after_is_not_retryable():
    t = tally([[Attempt(503, None, "Kubernetes API server: HTTP 500"), CREATED]], [])
    assert (t.created, t.other) == (0, 1)
    assert t.others == ("503 Kubernetes API server: HTTP 500 → 201",)


def test_a_final_error_or_a_wrong_status_is_other():
    t = tally([[Attempt(409, None, "Tenant exists")], [SAME]], [[CREATED], [TIMED_OUT]])
    assert (t.created, t.again, t.other) == (0, 0, 4)
    assert not t.exact(2, 2)


def test_a_repeated_post_answered_200_after_a_retry_counts():
    t = tally([], [[Attempt(429, "1"), SAME]])
    assert (t.again, t.other, t.retried) == (1, 0, 1)
