"""One Gatling run through the Maven plugin, in a process group of its own.

The group is what an interrupt stops: SIGTERM to the whole group (the Gatling JVM's shutdown
hook then writes the complete steps as "partial"; SIGINT would not reach a forked JVM that
inherited an ignore), SIGKILL if anything is left after 20 s.
"""

from __future__ import annotations

import contextlib
import os
import signal
import subprocess
import time
from collections.abc import Callable, Sequence
from pathlib import Path

SIM_PACKAGE = "dev.isolato.gatling.simulations"
STOP_GRACE_S = 20.0


def command(repo_root: Path, simulation: str, args: Sequence[str]) -> list[str]:
    return [
        str(repo_root / "mvnw"), "-B", "-q", "--no-transfer-progress",
        "-f", str(repo_root / "pom.xml"), "-pl", "gatling", "-am", "gatling:test",
        f"-Dgatling.simulationClass={SIM_PACKAGE}.{simulation}", *args,
    ]  # fmt: skip


def _group_alive(pgid: int) -> bool:
    try:
        os.killpg(pgid, 0)
        return True
    except ProcessLookupError:
        return False


def stop_group(pgid: int, grace_s: float = STOP_GRACE_S) -> None:
    """SIGTERM to the group, SIGKILL after grace_s if any member is still there."""
    if not _group_alive(pgid):
        return
    os.killpg(pgid, signal.SIGTERM)
    deadline = time.monotonic() + grace_s
    while time.monotonic() < deadline:
        if not _group_alive(pgid):
            return
        time.sleep(0.1)
    with contextlib.suppress(ProcessLookupError):
        os.killpg(pgid, signal.SIGKILL)


def run(cmd: Sequence[str], on_start: Callable[[int], None] | None = None) -> int:
    """Runs cmd in a new session (its own process group) and returns its exit status;
    on_start gets its pid (the hygiene sampler follows its process tree). An interrupt
    (KeyboardInterrupt, or SIGTERM turned into one by the caller) stops the group and is raised
    again once it has ended."""
    proc = subprocess.Popen(list(cmd), start_new_session=True)
    try:
        if on_start:
            on_start(proc.pid)
        return proc.wait()
    except BaseException:
        stop_group(proc.pid)
        proc.wait()
        raise
