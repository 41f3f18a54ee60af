import pytest
from runner.knee import bracket, next_probe, p95_ci, passes, past_the_knee, quantile_ci_ranks


def step(rate, p95, errors=0, count=300):
    return {"offeredRps": rate, "total": {"count": count, "errors": errors, "p95": p95}}


@pytest.mark.parametrize(
    ("n", "ranks"),
    # normal approximation 0.95 n ± 1.96 sqrt(n 0.95 0.05), rounded outwards
    [(300, (277, 293)), (1600, (1503, 1538))],
)
def test_p95_ci_ranks_match_the_binomial(n, ranks):
    assert quantile_ci_ranks(n) == ranks


def test_ci_ranks_cover_at_least_the_confidence_and_shrink_with_n():
    low, high = quantile_ci_ranks(80)
    assert low < 0.95 * 80 < high
    assert (high - low) / 80 > (1538 - 1503) / 1600


def test_a_small_sample_clamps_to_the_largest_rank():
    assert quantile_ci_ranks(20)[1] == 20


def test_bad_arguments_are_refused():
    with pytest.raises(ValueError):
        quantile_ci_ranks(0)
    with pytest.raises(ValueError):
        quantile_ci_ranks(10, q=1.0)


def test_p95_ci_in_ms_is_bracketed_by_the_known_percentiles():
    s = {"count": 300, "errors": 0, "p50": 5.0, "p90": 6.0, "p95": 7.0, "p99": 9.0, "max": 20.0}
    ci = p95_ci(s)
    assert ci["ranks"] == [277, 293]
    assert ci["percentiles"] == [92.33, 97.67]
    assert (ci["lowMs"], ci["highMs"]) == (6.0, 9.0)
    few = p95_ci({**s, "count": 20})  # the upper rank is the largest sample
    assert few["highMs"] == 20.0


def test_passes_needs_the_p95_within_the_target_and_errors_within_one_percent():
    assert passes(step(10, 50.0, errors=3), 50)
    assert not passes(step(10, 50.1), 50)
    assert not passes(step(10, 5.0, errors=4), 50)


def test_bracket_is_the_last_pass_and_the_first_failure_above_it():
    steps = [step(45, 80), step(15, 5), step(30, 6), step(60, 300)]
    assert bracket(steps, 50) == (30, 45)
    assert bracket([step(15, 5), step(30, 6)], 50) is None  # no failure: a lower bound only
    assert bracket([step(15, 90), step(30, 95)], 50) is None  # the lowest step fails


def test_only_failing_steps_above_a_clean_first_failure_are_past_the_knee():
    # ramp 24..168 by 24, then probes 78 and 81: bracket (78, 81); the 2026-11-24 00:29 3-pod
    # run was refused for an uneven split at 168 req/s, a collapsed step far past the knee
    steps = [step(r, 5) for r in (24, 48, 72)] + [step(r, 900) for r in (96, 120, 144, 168)]
    steps += [step(78, 30), step(81, 70)]
    assert bracket(steps, 50) == (78, 81)
    assert past_the_knee(steps, 50, {6}) == {6}
    assert past_the_knee(steps, 50, {8, 6}) == set()  # the first failure itself is dirty
    assert past_the_knee(steps, 50, {1, 6}) == {6}  # a dirty passing step still counts
    steps[5] = step(144, 40)  # a pass above the first failure: it could move the cut-off
    assert past_the_knee(steps, 50, {5, 6}) == {6}
    assert past_the_knee([step(15, 5), step(30, 6)], 50, {1}) == set()  # no failure at all


def test_bisection_stops_at_five_percent_of_the_cutoff():
    assert next_probe(90, 105) == 97.5
    assert next_probe(97.5, 105) == 101.2
    assert next_probe(101.2, 105) is None  # 3.8 <= 5.06
    with pytest.raises(ValueError):
        next_probe(105, 90)


def test_bisection_reaches_the_resolution_from_a_coarse_ramp():
    """A service whose true cut-off is 103: from the bracket (90, 105) the probes end with a
    passing rate within 5 % of the failing one, around the true value."""
    passing, failing, probes = 90.0, 105.0, 0
    while (rate := next_probe(passing, failing)) is not None:
        probes += 1
        passing, failing = (rate, failing) if rate <= 103 else (passing, rate)
    assert probes == 2
    assert passing <= 103 < failing
    assert failing - passing <= 0.05 * passing
