"""The gate stays inside a pool pod's memory when clients pile up: the real isolato-gate binary, in
a memory cgroup of the pool's gate limit, in front of an upstream that never answers (every request
waits, holding a client and an upstream connection: the most a connection can cost), is sent one
request on each of --max-connections + EXTRA connections. Passes when the gate is alive and was
never OOM-killed, the extra connections were closed at once, and its peak charge (user and kernel
memory) plus the size of its binary stayed under the limit: in a pod the binary's pages are charged
to the container too (they are cached here already, charged elsewhere). Prints the memory a
waiting request costs. The limit and the cap are the controller's one definition of them
(Workload.GATE_MEMORY, Workload.GATE_MAX_CONNECTIONS), read from its source.

Usage: memory_test.py GATE WORKLOAD_JAVA (root: it makes a cgroup of its own, under the v1 memory
hierarchy or cgroup v2, and removes it)."""

import os
import re
import resource
import selectors
import signal
import socket
import subprocess
import sys
import tempfile
import time
from pathlib import Path

EXTRA = 64
V1 = Path("/sys/fs/cgroup/memory")
V2 = Path("/sys/fs/cgroup")


class Cgroup:
    """A memory cgroup of this test's own, v1 or v2, named after this process."""

    def __init__(self, limit: int):
        self.v1 = (V1 / "cgroup.procs").exists()
        self.path = (V1 if self.v1 else V2) / f"isolato-gate-memtest-{os.getpid()}"
        self.path.mkdir()
        self._write("memory.limit_in_bytes" if self.v1 else "memory.max", str(limit))
        if not self.v1:
            self._write("memory.swap.max", "0")

    def _write(self, name: str, value: str) -> None:
        (self.path / name).write_text(value)

    def add(self, pid: int) -> None:
        self._write("cgroup.procs", str(pid))

    def peak(self) -> int:
        return int(
            (self.path / ("memory.max_usage_in_bytes" if self.v1 else "memory.peak")).read_text()
        )

    def current(self) -> int:
        return int(
            (self.path / ("memory.usage_in_bytes" if self.v1 else "memory.current")).read_text()
        )

    def oom_kills(self) -> int:
        name = "memory.oom_control" if self.v1 else "memory.events"
        for line in (self.path / name).read_text().splitlines():
            key, _, value = line.partition(" ")
            if key == "oom_kill":
                return int(value)
        return 0

    def remove(self) -> None:
        deadline = time.monotonic() + 10
        while time.monotonic() < deadline:
            try:
                self.path.rmdir()
                return
            except OSError:  # its last process is still exiting
                time.sleep(0.05)
        print(f"memory_test: could not remove {self.path}", file=sys.stderr)


def stalled_upstream() -> socket.socket:
    """Accepts (the kernel's backlog does) and never answers."""
    s = socket.socket()
    s.bind(("127.0.0.1", 0))
    s.listen(4096)
    return s


def wait_for(what: str, check, seconds: float = 20.0) -> None:
    deadline = time.monotonic() + seconds
    while not check():
        if time.monotonic() > deadline:
            raise SystemExit(f"memory_test: FAIL: {what} within {seconds:.0f} s")
        time.sleep(0.05)


def pool_settings(workload_java: str) -> tuple[int, int]:
    """(GATE_MAX_CONNECTIONS, GATE_MEMORY in bytes) from Workload.java."""
    src = Path(workload_java).read_text()
    cap = re.search(r"GATE_MAX_CONNECTIONS = (\d+);", src)
    mem = re.search(r'GATE_MEMORY = "(\d+)Mi";', src)
    if not cap or not mem:
        raise SystemExit(
            f"memory_test: GATE_MAX_CONNECTIONS / GATE_MEMORY not found in {workload_java}"
        )
    return int(cap.group(1)), int(mem.group(1)) * 2**20


def main(gate: str, max_connections: int, limit: int) -> None:
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    need = 3 * (max_connections + EXTRA) + 256
    if hard < need:
        raise SystemExit(f"memory_test: needs {need} open files, the hard limit is {hard}")
    resource.setrlimit(resource.RLIMIT_NOFILE, (max(soft, need), hard))
    upstream = stalled_upstream()
    work = Path(tempfile.mkdtemp(prefix="gate-memtest-"))
    (work / "tenants.json").write_text('{"version":"v1","tenants":{"a":{"profile":{}}}}')
    (work / "token").write_text("t0ken\n")
    log = (work / "gate.log").open("w")
    cg = Cgroup(limit)
    gate_proc = None
    clients: list[socket.socket] = []
    forwarded: list[socket.socket] = []  # the upstream's ends of the held requests
    try:
        gate_proc = subprocess.Popen(
            [
                gate,
                "--listen",
                "127.0.0.1:0",
                "--upstream",
                f"127.0.0.1:{upstream.getsockname()[1]}",
                "--tenants",
                str(work / "tenants.json"),
                "--admin-token-file",
                str(work / "token"),
                "--max-connections",
                str(max_connections),
                "--upstream-timeout-ms",
                "60000",
                # every request relayed at once, none waiting in the gate: each holds an upstream
                # connection too, the most it can cost (pool pods relay at most 64)
                "--max-upstream-requests",
                "0",
            ],
            stderr=log,
            start_new_session=True,
        )
        cg.add(gate_proc.pid)
        text = lambda: (work / "gate.log").read_text()  # noqa: E731
        wait_for("the gate to listen", lambda: "listening on" in text())
        port = int(text().split("listening on", 1)[1].split()[0].rstrip(",").rsplit(":", 1)[1])
        base = cg.current()
        request = b"POST /work HTTP/1.1\r\nHost: gate\r\nX-Tenant: a\r\nContent-Length: 0\r\n\r\n"
        try:
            for _ in range(max_connections + EXTRA):
                c = socket.create_connection(("127.0.0.1", port), timeout=5)
                c.sendall(request)
                clients.append(c)
        except OSError as e:  # the gate died (OOM) or stopped accepting
            raise SystemExit(
                f"memory_test: FAIL: connection {len(clients) + 1} refused ({e}); gate exit "
                f"{gate_proc.poll()}, OOM kills {cg.oom_kills()}"
            ) from e
        # the gate holds max_connections and closes the rest: wait until every extra one is shut
        sel = selectors.DefaultSelector()
        for c in clients:
            c.setblocking(False)
            sel.register(c, selectors.EVENT_READ)
        closed: set[socket.socket] = set()
        upstream.setblocking(False)

        def drained() -> bool:
            while True:
                try:
                    forwarded.append(upstream.accept()[0])
                except BlockingIOError:
                    break
            for key, _ in sel.select(timeout=0):
                s = key.fileobj
                try:
                    data = s.recv(4096)
                except ConnectionResetError:
                    data = b""
                if not data:
                    closed.add(s)
                    sel.unregister(s)
            return len(closed) >= EXTRA and len(forwarded) >= max_connections

        wait_for(
            f"the gate to close {EXTRA} connections over its cap and forward the others",
            drained,
        )
        peak, held = cg.peak(), len(clients) - len(closed)
        alive = gate_proc.poll() is None
        per = (peak - base) / max(held, 1)
        binary = os.path.getsize(gate)
        print(
            f"[gate-memory] --max-connections {max_connections}: {held} waiting requests held, "
            f"{len(closed)} closed over the cap; cgroup peak {peak / 2**20:.1f} MiB + the binary "
            f"{binary / 2**20:.1f} MiB of {limit / 2**20:.0f} MiB (idle {base / 2**20:.1f} MiB, "
            f"{per / 1024:.1f} KiB per waiting request), OOM kills {cg.oom_kills()}, "
            f"gate {'alive' if alive else 'DEAD'}",
            flush=True,
        )
        assert alive and cg.oom_kills() == 0, "the gate was OOM-killed: --max-connections too high"
        assert peak + binary < limit, (
            f"peak {peak} + binary {binary} reach the pod's gate memory {limit}: lower "
            "Workload.GATE_MAX_CONNECTIONS"
        )
        assert len(closed) == EXTRA and held == max_connections, (held, len(closed))
    finally:
        for c in clients + forwarded:
            c.close()
        if gate_proc is not None and gate_proc.poll() is None:
            os.killpg(gate_proc.pid, signal.SIGKILL)
            gate_proc.wait()
        cg.remove()
        upstream.close()
        log.close()
        for f in work.iterdir():
            f.unlink()
        work.rmdir()


if __name__ == "__main__":
    main(sys.argv[1], *pool_settings(sys.argv[2]))
