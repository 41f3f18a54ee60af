import json
from pathlib import Path

import pytest
from runner.knee import (
    PASSED_DESPITE_STEAL,
    binom_cdf,
    bracket,
    ci_overlap,
    moot_steps,
    next_probe,
    p95_ci,
    passes,
    past_the_knee,
    quantile_ci_ranks,
)

VECTORS = Path(__file__).parents[3] / "calibration-format/src/test/resources/quantile-ci-ranks.json"


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


def test_below_72_samples_the_p95_has_no_upper_bound():
    # 0.95^72 = 0.0249: only from 72 samples is "all below x_95" rare enough to bound it
    assert quantile_ci_ranks(71)[1] == 72
    assert quantile_ci_ranks(72)[1] == 72
    assert quantile_ci_ranks(20)[1] == 21


@pytest.mark.parametrize("case", json.loads(VECTORS.read_text())["cases"], ids=str)
def test_shared_vectors_are_the_tightest_ranks_with_both_tails_within_the_confidence(case):
    n, q, tail = case["n"], case["q"], (1 - case["confidence"]) / 2
    low, high = case["low"], case["high"]
    assert quantile_ci_ranks(n, q, case["confidence"]) == (low, high)
    # P(B < low) and P(B >= high) within the tail; one rank further in and they are not
    assert binom_cdf(low - 1, n, q) <= tail
    assert 1 - binom_cdf(high - 1, n, q) <= tail
    assert low == n or binom_cdf(low, n, q) > tail
    assert high == 1 or 1 - binom_cdf(high - 2, n, q) > tail


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
    assert ci["exact"] is False
    few = p95_ci({**s, "count": 20})  # 20 samples cannot bound the p95 from above
    assert few["highMs"] is None


def test_p95_ci_takes_the_bounds_a_generator_wrote():
    s = {"count": 300, "p90": 6.0, "p95": 7.0, "p99": 9.0, "p95Low": 6.4, "p95High": 7.9}
    ci = p95_ci(s)
    assert (ci["lowMs"], ci["highMs"], ci["exact"]) == (6.4, 7.9, True)
    assert p95_ci({"count": 38, "p95": 7.0, "p95Low": 6.1})["highMs"] is None


def test_intervals_overlap_when_they_share_a_value_and_a_missing_bound_is_open():
    def ci(low, high):
        return {"lowMs": low, "highMs": high}

    assert ci_overlap(ci(5.4, 8.2), ci(6.3, 10.9))
    assert ci_overlap(ci(5.0, 6.0), ci(6.0, 7.0))
    assert not ci_overlap(ci(5.0, 6.0), ci(6.1, 7.0))
    assert ci_overlap(ci(9.0, None), ci(6.0, 20.0))
    assert not ci_overlap(ci(30.0, None), ci(6.0, 20.0))


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


def test_a_step_that_passed_despite_steal_is_moot_unless_it_is_the_low_load_one():
    # refused on 2026-11-25 04:34 and 05:07: 5.12 and 5.02 % steal in a step that passed
    steps = [step(r, 5) for r in (4, 8, 12)] + [step(16, 90), step(14, 30), step(15, 60)]
    moot = moot_steps(steps, 50, dirty={0, 1, 3, 5}, steal_only={0, 1, 3})
    assert moot == {1: PASSED_DESPITE_STEAL}
    assert "cannot move the cut-off" in PASSED_DESPITE_STEAL
    # 0 set the low-load p95; 3 (16 req/s) failed above the first failure, 15, which is dirty
    assert 3 not in moot_steps(steps, 50, dirty={3, 5}, steal_only={3})
    assert moot_steps(steps, 50, dirty={3}, steal_only={3}) == {
        3: "failed above a clean first failure: cannot move the cut-off"
    }
    assert moot_steps(steps, 50, dirty={2}, steal_only=set()) == {}  # not steal: not moot


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
