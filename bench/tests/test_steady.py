from isolato_bench import neighbour as nb
from isolato_bench import steady as st
from test_neighbour import meta as neighbour_meta

T0 = 1_800_000_000.0  # the observed span's start, Unix s


def meta() -> dict:
    """The neighbour benchmark's meta, without a neighbour, observed for 10 min."""
    base = neighbour_meta() | {"kind": "none", "neighbourStartedAt": "", "commitPct": 75}
    return base | {"applyUnixUs": int(T0 * 1e6), "observeSeconds": 600}


def samples(slow: set[int]) -> list[tuple[float, float]]:
    """10 req/s from T0 - 30 to T0 + 600: 5 ms, 200 ms in the 5 s windows whose index is slow."""
    out = []
    for i in range(6300):
        t = T0 - 30 + i / 10
        w = int((t - T0) // 5)
        out.append((t, 200.0 if t >= T0 and w in slow else 5.0))
    return out


def line(t_rel: float, plan: int, held: str, eff: str = "") -> str:
    return f"{int((T0 + t_rel) * 1e6)}|{plan}|{held}|{eff}|"


def test_the_poisson_bound_is_the_rule_of_three_at_zero_and_exact_above():
    assert abs(st.poisson_upper(0) - 2.996) < 0.001
    assert abs(st.poisson_upper(1) - 4.744) < 0.001  # tabulated one-sided 95 % bounds
    assert abs(st.poisson_upper(5) - 10.513) < 0.001
    assert st.rate(0, 1 / 6) == "0 in 10.0 min = 0.0 per hour (95 % upper bound 18.0 per hour)"
    assert st.rate(2, 0.5).startswith("2 in 30.0 min = 4.0 per hour (95 % upper bound 12.6")


def test_a_quiet_steady_run_counts_no_alarm():
    events = nb.parse_class("\n".join([line(-20, 1, "True", "125"), line(300, 1, "True", "125")]))
    s = st.analyse(meta(), samples(set()), 0, events, [(T0 - 20, 1, 1)], T0)
    assert (s.windows, s.windows_over, s.longest_over, s.k_of_n_windows) == (120, 0, 0, 0)
    assert s.held_false_at == s.plan_raised_at == s.replicas_raised_at == []
    assert s.requests == 6000 and s.p95_ms == 5.0 and s.effective_end_rps == 125.0
    text = "\n".join(st.lines(s))
    assert "**false alarms (SloHeld=False): 0 in 10.0 min = 0.0 per hour" in text
    assert "upper bound 18.0 per hour)**" in text


def test_alarms_and_raises_are_transitions_inside_the_span():
    events = nb.parse_class(
        "\n".join(
            [
                line(-20, 1, "False"),  # failing before the span: no new alarm at its start
                line(10, 1, "True"),
                line(100, 1, "False", "90"),
                line(101, 2, "False", "90"),
                line(160, 2, "True", "90"),
                line(400, 2, "False", "90"),
                line(700, 3, "False", "90"),  # after the span
            ]
        )
    )
    reps = [(T0 - 20, 1, 1), (T0 + 102, 2, 1), (T0 + 110, 2, 2), (T0 + 300, 1, 1)]
    s = st.analyse(meta(), samples({18, 19, 20, 40}), 0, events, reps, T0)
    assert s.held_false_at == [100.0, 400.0]
    assert s.plan_raised_at == [101.0] and s.replicas_raised_at == [102.0]
    assert (s.windows_over, s.longest_over, s.k_of_n_windows) == (4, 3, 2)
    assert s.peak_p95_ms == 200.0 and s.effective_end_rps == 90.0
    text = "\n".join(st.lines(s))
    assert "2 in 10.0 min = 12.0 per hour" in text and "(at 100 s, 400 s)" in text


def test_one_noisy_window_is_not_three_of_four():
    assert st.k_of_n([False, True, False, False, True, False]) == 0
    assert st.k_of_n([True, True, False, True, True]) == 2


def test_the_section_says_every_alarm_is_false_and_links_the_plot():
    s = st.analyse(meta(), samples(set()), 0, [], [], T0)
    text = st.section("20270115T080000", s, meta(), "host", "results/x/p.png", "a note\n")
    assert text.startswith("## Steady run, no neighbour: false alarms")
    assert "every SloHeld=False and every scale-out is a false alarm" in text
    assert "results/neighbour-none/20270115T080000/" in text
    assert "a note\n" in text and "![p95 over time on a steady run](results/x/p.png)" in text
