"""scripts/run_targets.py on a Makefile of its own: lanes overlap, a failure stops the rest."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

RUNNER = Path(__file__).resolve().parents[1] / "run_targets.py"

# `meet-a` and `meet-b` each wait (bounded) for the other's file: both pass only if they run at
# the same time. `hang` waits up to 60 s for a file nobody writes; `fail` fails at once.
MAKEFILE = """\
D := {d}
meet-a: ; @touch $(D)/a; timeout 20 sh -c 'until [ -e $(D)/b ]; do sleep 0.05; done'; echo a-out
meet-b: ; @touch $(D)/b; timeout 20 sh -c 'until [ -e $(D)/a ]; do sleep 0.05; done'; echo b-out
hang: ; @touch $(D)/hang-started; timeout 60 sh -c 'until [ -e $(D)/never ]; do sleep 0.05; done'
fail: ; @timeout 20 sh -c 'until [ -e $(D)/hang-started ]; do sleep 0.05; done'; echo boom; exit 3
after: ; @touch $(D)/after-ran
two: ; @test -e $(D)/after-ran && echo two-out
"""


def run(tmp: Path, *args: str) -> subprocess.CompletedProcess[str]:
    (tmp / "Makefile").write_text(MAKEFILE.format(d=tmp))
    env = {**os.environ, "MAKE": f"make -f {tmp / 'Makefile'}"}
    return subprocess.run(
        [sys.executable, str(RUNNER), "t", *args],
        env=env,
        capture_output=True,
        text=True,
        timeout=50,
    )


def test_lanes_run_side_by_side_and_keep_each_output_whole(tmp_path: Path):
    r = run(tmp_path, "--lane", "meet-a", "--lane", "meet-b")
    assert r.returncode == 0, r.stdout + r.stderr
    out = r.stdout
    assert out.index("----- meet-a") < out.index("a-out") < out.index("[t] meet-a:")
    assert out.index("----- meet-b") < out.index("b-out") < out.index("[t] meet-b:")
    assert "seconds by target" in out


def test_one_lane_runs_in_order_and_streams(tmp_path: Path):
    r = run(tmp_path, "--lane", "after", "two")
    assert r.returncode == 0, r.stdout + r.stderr
    assert "two-out" in r.stdout and "-----" not in r.stdout
    assert r.stdout.index("[t] after:") < r.stdout.index("[t] two:")


def test_a_failure_stops_the_other_lane_and_what_was_left(tmp_path: Path):
    r = run(tmp_path, "--lane", "hang", "--lane", "fail", "after")
    assert r.returncode == 2, r.stdout + r.stderr  # make's status for a failed recipe
    assert "[t] fail: " in r.stdout and "FAILED (2)" in r.stdout
    assert "[t] hang: " in r.stdout and ", stopped" in r.stdout
    assert not (tmp_path / "after-ran").exists()


def test_no_target_is_an_error(tmp_path: Path):
    r = run(tmp_path)
    assert r.returncode == 2 and "no target" in r.stderr
