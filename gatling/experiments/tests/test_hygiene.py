from dataclasses import replace
from pathlib import Path

from runner.hygiene import (
    CpusetPinning,
    Sample,
    assess,
    cpuacct_dir,
    format_cpulist,
    parse_cpu_stat,
    parse_cpuacct_stat,
    parse_cpulist,
    parse_pid_stat,
    parse_proc_stat,
    pod_cgroup_dirs,
    pod_cpu_per_request,
    split_cpus,
    step_windows,
    window,
)

PROC_STAT = """cpu  300 0 60 500 5 0 1 30 0 0
cpu0 100 0 20 300 2 0 1 10 0 0
cpu1 200 0 40 200 3 0 0 20 0 0
intr 12345
"""


def test_cpulists_round_trip():
    assert parse_cpulist("0-1,3\n") == {0, 1, 3}
    assert parse_cpulist("") == frozenset()
    assert format_cpulist({3, 0, 1, 5, 6}) == "0-1,3,5-6"


def test_proc_parsers():
    assert parse_proc_stat(PROC_STAT) == {0: (10, 433, 302), 1: (20, 463, 203)}
    line = "4242 (java (main)) S 1 4242 4242 0 -1 4194560 10 0 0 0 1500 250 0 0 20 0 30 0"
    assert parse_pid_stat(line) == 1750
    stat = "nr_periods 100\nnr_throttled 25\nthrottled_time 5000000\nnr_bursts 0\n"
    assert parse_cpu_stat(stat) == {
        "nr_periods": 100,
        "nr_throttled": 25,
        "throttled_time": 5000000,
    }


def sample(t, ticks, steal1, total1, periods=0, throttled=0, pods="1", gen="0", idle1=None):
    return Sample(
        t,
        ticks,
        {0: (0, 100 * t, 0), 1: (steal1, total1, total1 - steal1 if idle1 is None else idle1)},
        {"nr_periods": periods, "nr_throttled": throttled, "throttled_time": throttled * 1_000_000},
        parse_cpulist(pods),
        parse_cpulist(gen),
    )


def test_window_in_percent_of_the_time_and_cpus():
    w = window(sample(0, 0, 0, 0), sample(2, 120, 10, 200, periods=20, throttled=5))
    assert w == {
        "seconds": 2,
        "generatorCpuPct": 60.0,  # 1.2 s of CPU in 2 s on one CPU
        "stealPct": 5.0,
        "throttledPeriodsPct": 25.0,
        "throttledMs": 5.0,
        "sharedCpus": "",
    }
    shared = window(sample(0, 0, 0, 0, pods="0-1"), sample(1, 0, 0, 100, pods="0-1"))
    assert shared["sharedCpus"] == "0"


def test_a_window_has_the_pods_own_cpu_when_it_was_read(tmp_path):
    a, b = sample(0, 0, 0, 0), sample(2, 0, 0, 200)
    assert "podCpuPct" not in window(a, b)  # cpuacct not readable: nothing claimed
    a = replace(a, pod_usage_ns=10**9, pod_system_ticks=100)
    b = replace(b, pod_usage_ns=10**9 + 5 * 10**8, pod_system_ticks=110)
    w = window(a, b)
    assert w["podCpuPct"] == 25.0  # 0.5 s of CPU in 2 s
    assert w["podSystemCpuPct"] == 5.0  # 0.1 s of it in the kernel
    assert parse_cpuacct_stat("user 1234\nsystem 56\n") == {"user": 1234, "system": 56}
    cpu, acct = tmp_path / "cpu", tmp_path / "cpuacct"
    pod = cpu / "kubepods" / "burstable" / "podx"
    assert cpuacct_dir(pod, cpu, acct) == acct / "kubepods" / "burstable" / "podx"
    pod.mkdir(parents=True)
    (pod / "cpuacct.usage").write_text("1\n")  # cpu,cpuacct mounted together
    assert cpuacct_dir(pod, cpu, acct) == pod


def test_a_requests_cpu_is_the_slope_over_the_unthrottled_steps():
    def step(rate, cpu_pct, throttled=0.0):
        return {
            "offeredRps": rate,
            "podCpuPct": cpu_pct,
            "throttledPeriodsPct": throttled,
            "seconds": 5.0,
        }

    # 2.5 ms per request on 3 ms/s idle: 3 req/s -> 10.5 ms/s = 1.05 %
    steps = [step(r, (3.0 + 2.5 * r) / 10) for r in (3, 6, 9, 12)]
    steps.append(step(36, 10.0, throttled=78.0))  # capped by the quota: left out
    cpu = pod_cpu_per_request(steps)
    assert cpu == {"msPerRequest": 2.5, "msPerRequestSe": 0.0, "idleMsPerSecond": 3.0, "steps": 4}
    assert pod_cpu_per_request(steps[:2]) is None
    assert pod_cpu_per_request([{**s, "podCpuPct": None} for s in steps]) is None


def test_steps_are_windows_back_to_back_ending_at_the_generators_exit():
    samples = [sample(t, 50 * t, 0, 100 * t) for t in range(10)]
    ws = step_windows(samples, end=9.0, durations=[3.0, 3.0])
    assert [w["seconds"] for w in ws] == [3, 3]
    assert ws[0]["generatorCpuPct"] == 50.0
    assert step_windows(samples[:1], end=0.0, durations=[0.4])[0]["unmeasured"]


def test_assess_names_every_reason():
    pinned = {"pinned": True}
    clean = {"generatorCpuPct": 70.0, "stealPct": 5.0, "sharedCpus": ""}
    assert assess([clean], pinned)["status"] == "clean"
    busy = {**clean, "generatorCpuPct": 85.0, "stealPct": 7.5}
    v = assess([clean, busy], {"pinned": False, "reason": "no cgroup v1 cpuset"})
    assert v["status"] == "contaminated"
    assert v["reasons"] == [
        "the generator shares CPUs with the pods (no cgroup v1 cpuset)",
        "step 1: the generator used 85.0 % of its CPUs (> 70.0 %)",
        "step 1: steal 7.5 % on the pods' CPUs (> 5.0 %)",
    ]
    assert "CPUs 1 shared" in assess([{**clean, "sharedCpus": "1"}], pinned)["reasons"][0]
    assert v["thresholds"] == {"generatorCpuPct": 70.0, "stealPct": 5.0, "outsidePodsCpuPct": 10.0}
    # doc-claim: docs/gatling.md: used more than 10 % of the pods' CPUs
    crowded = {**clean, "outsidePodsCpuPct": 10.5}
    assert assess([crowded], pinned)["reasons"] == [
        "step 0: processes outside the pods used 10.5 % of the pods' CPUs (> 10.0 %)"
    ]
    assert assess([{**clean, "outsidePodsCpuPct": 10.0}], pinned)["status"] == "clean"


def test_assess_keeps_moot_steps_reasons_apart():
    clean = {"generatorCpuPct": 10.0, "stealPct": 0.0, "sharedCpus": ""}
    busy = {**clean, "generatorCpuPct": 85.0}
    v = assess(
        [clean, busy, busy],
        {"pinned": True},
        moot=lambda dirty, _: {2: "moot"} if 2 in dirty else {},
    )
    assert v["status"] == "contaminated"
    assert v["reasons"] == ["step 1: the generator used 85.0 % of its CPUs (> 70.0 %)"]
    assert v["ignored"] == ["step 2: the generator used 85.0 % of its CPUs (> 70.0 %) (moot)"]
    every = lambda dirty, _: dict.fromkeys(dirty, "moot")  # noqa: E731
    v = assess([clean, clean, busy], {"pinned": True}, moot=every)
    assert v["status"] == "clean" and len(v["ignored"]) == 1
    assert "ignored" not in assess([clean], {"pinned": True}, moot=every)


def test_assess_tells_the_moot_rule_which_steps_only_steal_contaminated():
    clean = {"generatorCpuPct": 10.0, "stealPct": 0.0, "sharedCpus": ""}
    stolen = {**clean, "stealPct": 5.1}
    both = {**stolen, "generatorCpuPct": 85.0}
    seen = []
    crowded = {**clean, "outsidePodsCpuPct": 40.0}
    moot = lambda d, s: seen.append((d, s)) or {}  # noqa: E731
    assess([clean, stolen, both, crowded, {**crowded, **stolen}], {"pinned": True}, moot=moot)
    assert seen == [({1, 2, 3, 4}, {1, 3, 4})]


def test_a_window_has_the_load_outside_the_pods_when_kubepods_was_read():
    # the pods' CPU: 2 s, 200 ticks, of which 50 idle and 10 steal: 140 busy (1.4 s); all pods 0.6 s
    a = replace(sample(0, 0, 0, 0, idle1=0), kubepods_usage_ns=0)
    b = replace(sample(2, 0, 10, 200, idle1=50), kubepods_usage_ns=6 * 10**8)
    assert window(a, b)["outsidePodsCpuPct"] == 40.0  # (1.4 - 0.6) s in 2 s
    assert "outsidePodsCpuPct" not in window(replace(a, kubepods_usage_ns=None), b)
    quiet = replace(b, kubepods_usage_ns=2 * 10**9)  # the pods used more than the ticks saw
    assert window(a, quiet)["outsidePodsCpuPct"] == 0.0


def test_split_cpus_gives_the_first_to_the_generator():
    assert split_cpus(frozenset({0, 1})) == ({0}, {1})
    assert split_cpus(frozenset({0})) is None


def tree(root: Path, cpus: dict[str, str]) -> None:
    for rel, value in cpus.items():
        d = root / rel
        d.mkdir(parents=True, exist_ok=True)
        (d / "cpuset.cpus").write_text(value + "\n")


def cpus_of(root: Path, rel: str) -> str:
    return (root / rel / "cpuset.cpus").read_text().strip()


def test_pinning_narrows_the_kubepods_tree_deepest_first_and_restores_it(tmp_path):
    (tmp_path / "cpuset.effective_cpus").write_text("0-1\n")
    tree(tmp_path, {"kubepods": "0-1", "kubepods/burstable": "0-1", "kubepods/burstable/podA": "0"})
    p = CpusetPinning(tmp_path)
    done = p.apply()
    assert done["pinned"] and done["generatorCpus"] == "0" and done["podCpus"] == "1"
    assert [cpus_of(tmp_path, r) for r in ("kubepods", "kubepods/burstable")] == ["1", "1"]
    assert cpus_of(tmp_path, "kubepods/burstable/podA") == "1"  # {0} & {1} empty: the pods' set
    assert done["changed"][0] == "kubepods: 0-1 -> 1"  # listed parents first
    created = {"kubepods/besteffort": "1", "kubepods/besteffort/podB": "1", "libpod_parent": "0-1"}
    tree(tmp_path, created)  # created meanwhile, podB inheriting the narrowed set
    restored = p.restore()
    assert cpus_of(tmp_path, "kubepods") == "0-1"
    assert cpus_of(tmp_path, "kubepods/burstable/podA") == "0"
    assert cpus_of(tmp_path, "kubepods/besteffort/podB") == "0-1"  # inherited, widened
    assert any("podB: 0-1 (inherited" in r for r in restored)
    assert cpus_of(tmp_path, "libpod_parent") == "0-1"  # outside kubepods: never touched
    assert p.restore() == []  # idempotent


def test_pinning_reports_why_it_could_not_pin(tmp_path):
    assert not CpusetPinning(tmp_path).apply()["pinned"]
    (tmp_path / "cpuset.effective_cpus").write_text("0\n")
    tree(tmp_path, {"kubepods": "0"})
    v = CpusetPinning(tmp_path).apply()
    assert v == {"pinned": False, "reason": "one CPU only (0)"}


def test_pod_cgroups_of_every_qos_class(tmp_path):
    for d in ("kubepods/podg", "kubepods/burstable/podb", "kubepods/besteffort/pode"):
        (tmp_path / d).mkdir(parents=True)
    dirs = pod_cgroup_dirs(["g", "b", "e", "gone"], tmp_path)
    assert [d.relative_to(tmp_path).as_posix() for d in dirs] == [
        "kubepods/podg",
        "kubepods/burstable/podb",
        "kubepods/besteffort/pode",
    ]
