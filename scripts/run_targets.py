#!/usr/bin/env python3
"""Runs make targets in lanes and says how long each took, so a CI log shows where its minutes went.

A lane runs its targets one after the other, in the order given; lanes run side by side. With one
lane a target's output streams as it comes; with more, each target's output is kept in
build/test-logs/<label>/<target>.log and printed whole when the target ends (no interleaved
lines), and a line every minute says what is still running. The first failure stops the run:
the targets still running are stopped (their process groups, which this script started) and
the exit status is the failed target's.

Usage: run_targets.py <label> --lane T1 T2 ... [--lane T3 ...]
"""

from __future__ import annotations

import argparse
import contextlib
import os
import signal
import subprocess
import sys
import threading
import time
from dataclasses import dataclass, field
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
PROGRESS_EVERY_S = 60


@dataclass
class Outcome:
    target: str
    seconds: int
    rc: int


@dataclass
class Run:
    label: str
    streaming: bool
    make: list[str]
    log_dir: Path
    lock: threading.Lock = field(default_factory=threading.Lock)
    outcomes: list[Outcome] = field(default_factory=list)
    running: dict[str, tuple[subprocess.Popen[bytes], float]] = field(default_factory=dict)
    failed: threading.Event = field(default_factory=threading.Event)

    def say(self, text: str) -> None:
        with self.lock:
            print(f"[{self.label}] {text}", flush=True)

    def run_one(self, target: str) -> int:
        cmd = [*self.make, "--no-print-directory", target]
        start = time.monotonic()
        if self.streaming:
            proc = subprocess.Popen(cmd, cwd=ROOT, start_new_session=True)
            log = None
        else:
            log = self.log_dir / f"{target}.log"
            with log.open("wb") as out:
                proc = subprocess.Popen(
                    cmd, cwd=ROOT, stdout=out, stderr=subprocess.STDOUT, start_new_session=True
                )
        with self.lock:
            self.running[target] = (proc, start)
        rc = proc.wait()
        seconds = round(time.monotonic() - start)
        with self.lock:
            del self.running[target]
            if log is not None:
                sys.stdout.write(f"----- {target} ({log.relative_to(ROOT)}) -----\n")
                sys.stdout.write(log.read_text(errors="replace"))
            self.outcomes.append(Outcome(target, seconds, rc))
            stopped = rc != 0 and self.failed.is_set()
            status = "" if rc == 0 else (", stopped" if stopped else f", FAILED ({rc})")
            print(f"[{self.label}] {target}: {seconds} s{status}", flush=True)
        return rc

    def lane(self, targets: list[str]) -> None:
        for target in targets:
            if self.failed.is_set():
                return
            if self.run_one(target) != 0 and not self.failed.is_set():
                self.failed.set()
                self.stop_others()

    def stop_others(self) -> None:
        with self.lock:
            procs = [p for p, _ in self.running.values()]
        for proc in procs:
            with contextlib.suppress(ProcessLookupError):
                os.killpg(proc.pid, signal.SIGTERM)

    def progress(self, done: threading.Event) -> None:
        while not done.wait(PROGRESS_EVERY_S):
            with self.lock:
                now = time.monotonic()
                busy = ", ".join(f"{t} ({now - s:.0f} s)" for t, (_, s) in self.running.items())
            if busy:
                self.say(f"running: {busy}")

    def report(self, total: float) -> None:
        print(f"[{self.label}] seconds by target (slowest first), {total:.0f} in all:")
        for o in sorted(self.outcomes, key=lambda o: -o.seconds):
            print(f"  {o.seconds:6d} s  {o.target}")


def parse(argv: list[str]) -> tuple[str, list[list[str]]]:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("label")
    p.add_argument("--lane", nargs="*", action="append", default=[], metavar="TARGET")
    a = p.parse_args(argv)
    lanes = [lane for lane in a.lane if lane]
    if not lanes:
        p.error("no target in any --lane")
    return a.label, lanes


def main(argv: list[str]) -> int:
    label, lanes = parse(argv)
    log_dir = ROOT / "build" / "test-logs" / label
    log_dir.mkdir(parents=True, exist_ok=True)
    run = Run(label, len(lanes) == 1, os.environ.get("MAKE", "make").split(), log_dir)
    if len(lanes) > 1:
        for i, lane in enumerate(lanes, 1):
            run.say(f"lane {i}: {' '.join(lane)}")
    start = time.monotonic()

    def interrupted(signum: int, _frame: object) -> None:
        # the targets run in sessions of their own: a Ctrl-C reaches them only through here
        run.failed.set()
        run.stop_others()

    signal.signal(signal.SIGINT, interrupted)
    signal.signal(signal.SIGTERM, interrupted)
    done = threading.Event()
    ticker = threading.Thread(target=run.progress, args=(done,), daemon=True)
    ticker.start()
    threads = [threading.Thread(target=run.lane, args=(lane,)) for lane in lanes]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    done.set()
    run.report(time.monotonic() - start)
    failures = [o for o in run.outcomes if o.rc != 0]
    return failures[0].rc if failures else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
