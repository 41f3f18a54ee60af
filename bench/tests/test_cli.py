"""The command line: every subcommand answers --help, and every make target that runs a
benchmark names one of them."""

from __future__ import annotations

import ast
import os
import re
import subprocess
import sys
from pathlib import Path

import pytest
from isolato_bench.__main__ import PASSTHROUGH, parser, subcommands
from runner.places import BENCHMARK_LOG

ROOT = Path(__file__).resolve().parents[2]
SUBCOMMANDS = subcommands()
ENV = os.environ | {"PYTHONPATH": f"{ROOT / 'bench'}:{ROOT / 'gatling/experiments'}"}


def run(*args: str) -> subprocess.CompletedProcess:
    return subprocess.run(
        [sys.executable, "-m", "isolato_bench", *args],
        env=ENV,
        capture_output=True,
        text=True,
        timeout=60,
    )


def test_the_top_level_help_lists_every_subcommand():
    out = run("--help")
    assert out.returncode == 0, out.stderr
    for name in SUBCOMMANDS:
        assert name in out.stdout


@pytest.mark.parametrize("name", SUBCOMMANDS)
def test_every_subcommand_answers_help_without_measuring(name):
    out = run(name, "--help")
    assert out.returncode == 0, out.stderr
    assert out.stdout.startswith(f"usage: isolato-bench {name}")


def test_an_unknown_option_of_a_subcommand_that_runs_nothing_else_is_refused():
    out = run("pipeline-winners", "--no-such-option", "x.json")
    assert out.returncode == 2 and "unrecognized arguments" in out.stderr


def test_passthrough_subcommands_exist():
    assert set(PASSTHROUGH) <= set(SUBCOMMANDS)


def make_recipes() -> dict[str, list[str]]:
    """target → its recipe lines, over the Makefile and every part.mk."""
    recipes: dict[str, list[str]] = {}
    for mk in [ROOT / "Makefile", *sorted(ROOT.glob("*/part.mk"))]:
        target = None
        for line in mk.read_text().splitlines():
            if m := re.match(r"^([a-z][\w-]*):(?!=)", line):
                target = m.group(1)
                recipes.setdefault(target, [])
            elif line.startswith("\t") and target:
                recipes[target].append(line.strip())
            elif line and not line.startswith("#"):
                target = None
    return recipes


BENCH_CALL = re.compile(r"(?:\$\(BENCH\)|bench/isolato-bench)\s+([\w-]+)")


def test_every_bench_target_calls_the_tool_with_an_existing_subcommand():
    recipes = make_recipes()
    measured = {t for t in recipes if t.startswith("bench-") or t in ("chaos", "tune")}
    # bench-saas-bench measures saas-bench against nginx with wrk (saas-bench/bench/), not here
    measured -= {"bench-saas-bench"}
    assert {"bench-controller", "bench-path-tune", "chaos", "tune"} <= measured
    for target in sorted(measured):
        calls = [m.group(1) for line in recipes[target] for m in BENCH_CALL.finditer(line)]
        assert calls, f"make {target} does not run bench/isolato-bench"
        for name in calls:
            assert name in SUBCOMMANDS, f"make {target} runs a missing subcommand '{name}'"


def test_no_make_target_runs_the_old_scripts():
    for target, lines in make_recipes().items():
        for line in lines:
            assert "controller/bench" not in line, f"make {target}: {line}"


def test_section_writes_stdin_between_its_markers_and_replaces_it_on_a_rerun(tmp_path):
    page = tmp_path / "B.md"
    page.write_text("# B\n")
    for text in ("first\n", "second\n"):
        out = subprocess.run(
            [sys.executable, "-m", "isolato_bench", "section", "x", "--page", str(page)],
            input=text,
            env=ENV,
            capture_output=True,
            text=True,
            timeout=60,
        )
        assert out.returncode == 0, out.stderr
    assert page.read_text() == "# B\n\n<!-- x:begin -->\nsecond\n<!-- x:end -->\n"


def test_sections_go_to_the_dated_log_and_no_script_appends_or_writes_the_current_table():
    """docs/BENCHMARKS.md is the short table of current figures, kept by hand; every benchmark
    writes its section into the dated log, docs/benchmarks-log.md, between markers (replaced on
    a rerun), never by appending."""
    assert BENCHMARK_LOG == ROOT / "docs" / "benchmarks-log.md"
    assert parser().parse_args(["section", "x"]).page == BENCHMARK_LOG
    tracked = subprocess.run(
        ["git", "-C", str(ROOT), "ls-files", "*.sh", "*.py", "*.mk", "Makefile"],
        capture_output=True,
        text=True,
        check=True,
    ).stdout.split()
    page = r"(BENCHMARK|benchmarks-log)"
    append = re.compile(rf"(>>|tee -a)[^\n]*{page}|{page}[^\n]*open\([^)]*\"a\"")
    # docs/tools reads the table to check it; nothing else names it
    readers = ("bench/tests/test_cli.py", "docs/tools/")
    for f in tracked:
        if not (ROOT / f).exists() or f.startswith(readers):
            continue
        text = (ROOT / f).read_text()
        assert "BENCHMARKS.md" not in text, f"{f} names docs/BENCHMARKS.md (the log is the page)"
        assert not append.search(text), f"{f} appends to a benchmarks page"


def section_keys() -> tuple[set[str], set[str]]:
    """The keys of the sections the benchmarks write into the log: the literal ones, and the
    prefixes of those named after a run's shape (f"pipeline-{J}x{P}", f"tenants-{N}")."""
    literal, prefixes = set(), set()
    for f in (ROOT / "bench/isolato_bench").rglob("*.py"):
        for node in ast.walk(ast.parse(f.read_text())):
            name = getattr(node, "func", None)
            name = getattr(name, "id", getattr(name, "attr", None))
            if not isinstance(node, ast.Call) or name not in ("emit", "write_section"):
                continue
            key = node.args[-1]
            if isinstance(key, ast.IfExp):  # "chaos" if … else f"chaos-{…}"
                literal.add(key.body.value)
                key = key.orelse
            if isinstance(key, ast.Constant):
                literal.add(key.value)
            elif isinstance(key, ast.BinOp):  # f"pipeline-{J}x{P}" + (f"-kwok{N}" if … else "")
                key = key.left
            if isinstance(key, ast.JoinedStr):
                prefixes.add(key.values[0].value)
    for f in ("gatling/experiments/filler.py", "gatling/experiments/reaction_time.py"):
        consts = re.findall(r"^KEY(?:, REPEATS_KEY)? = (.+?)  #", (ROOT / f).read_text(), re.M)
        literal |= {k for c in consts for k in re.findall(r'"([\w-]+)"', c)}
    for f in ("saas-bench/bench/bench.sh", "saas-bench/bench/ab.sh", "localkube/bench/bench.sh"):
        text = (ROOT / f).read_text()
        literal |= set(re.findall(r'(?:^write_report|isolato-bench" section) ([\w-]+)', text, re.M))
    return literal, prefixes


def test_every_section_a_benchmark_writes_is_marked_once_in_the_log_so_a_rerun_replaces_it():
    literal, prefixes = section_keys()
    # every kind of writer is seen: the tool, the experiments' analyses, the shell benchmarks
    assert {"chaos", "path-tune", "filler", "reaction-time-repeats", "localkube"} <= literal
    assert {"pipeline-", "tenants-", "chaos-"} <= prefixes
    text = BENCHMARK_LOG.read_text()
    marked = re.findall(r"<!-- ([\w-]+):begin -->", text)
    assert len(marked) == len(set(marked)), "a section marked twice: a rerun would write both"
    for key in marked:
        begin, end = text.index(f"<!-- {key}:begin -->"), text.find(f"<!-- {key}:end -->")
        assert begin < end and text.count(f"<!-- {key}:end -->") == 1, key
    assert literal <= set(marked), f"not marked in the log: {sorted(literal - set(marked))}"
    for prefix in prefixes:
        assert any(k.startswith(prefix) for k in marked), f"no {prefix}… section in the log"
