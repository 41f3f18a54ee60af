"""The requests as the pods received them (issue 13): a third instrument beside the two load
generators, read from each pod's network interface with kernel timestamps.

A generator's own figures say what it meant to send and how long its answers took. The capture
says what arrived: when each request's first segment reached the pod and when the pod's answer
left, so it shows a generator that sends a step faster or burstier than planned (Gatling's
rampUsers sent a 2.86 s step in 2 s, found this way) and the service time without the client's
overhead. A run whose step was sent more than SENT_RATE_TOLERANCE off its offered rate is
contaminated: its cut-off would belong to another rate.

Capture: one process per pod, in the pod's network namespace (nsenter), an AF_PACKET socket on
eth0 with SO_TIMESTAMPNS, recording TCP segments to and from the service port until SIGTERM.
Parsing and the summaries are pure.
"""

from __future__ import annotations

import collections
import contextlib
import itertools
import math
import signal
import socket
import statistics
import struct
import subprocess
import sys
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from .knee import binom_cdf

SERVICE_PORT = 8080
# The load's request line; the kubelet's probes and the controller's 1 Hz metrics scrapes reach
# the same port with GETs and are not load.
LOAD_REQUEST = b"POST /v1/tenants/"
SENT_RATE_TOLERANCE = 0.05
# An evenly spaced plan's gaps vary by a coefficient of variation of about 0.01-0.1 at the pod
# (the referee), Poisson arrivals by 1; above half way the stream is not what was planned.
MAX_GAP_CV = 0.5
# A Service spreads connections, not requests, over its pods: a generator that sends a step
# over few connections loads some pods and leaves others idle (measured: 199 of 200 requests on
# one of 2 pods, 285 of 300 on one of 3), and the step then measures fewer pods than the class
# has. Above a quarter over its fair share the busiest pod no longer stands for 1/n of the
# load, unless a random per-request split (what many clients, or a connection per request, get)
# gives such a pod often enough: 127 of 400 requests on one of 4 pods (27 % over) has p ≈ 0.005,
# 199 of 200 on one of 2 about 1e-58. A split is refused only when both hold.
MAX_POD_SHARE_EXCESS = 0.25
RANDOM_SPLIT_P = 1e-4  # per step: the chance that a random split makes any pod this busy
SO_TIMESTAMPNS = 35
ETH_P_ALL = 0x0003
_TCP, _IPV4 = 6, b"\x08\x00"
_SYN, _ACK = 0x02, 0x10


@dataclass(frozen=True)
class Segment:
    """One TCP segment with payload, or a SYN, to or from the service port."""

    t_ns: int
    inbound: bool  # to the service
    peer: str  # the client's address:port, the connection's key
    request_start: bool  # inbound, its payload starts a load request (LOAD_REQUEST)


def parse_frame(t_ns: int, frame: bytes, port: int = SERVICE_PORT) -> Segment | None:
    """An Ethernet frame as a Segment; None for anything but a TCP segment of `port` carrying
    payload (ACKs, other protocols and ports)."""
    if len(frame) < 34 or frame[12:14] != _IPV4:
        return None
    ip = frame[14:]
    ihl = (ip[0] & 0x0F) * 4
    if ip[9] != _TCP or len(ip) < ihl + 20:
        return None
    total = struct.unpack("!H", ip[2:4])[0]
    tcp = ip[ihl:]
    sport, dport = struct.unpack("!HH", tcp[0:4])
    if port not in (sport, dport):
        return None
    offset = (tcp[12] >> 4) * 4
    payload = total - ihl - offset
    if payload <= 0:
        return None
    inbound = dport == port
    addr = socket.inet_ntoa(ip[12:16] if inbound else ip[16:20])
    peer = f"{addr}:{sport if inbound else dport}"
    head = tcp[offset : offset + len(LOAD_REQUEST)]
    return Segment(t_ns, inbound, peer, inbound and head == LOAD_REQUEST)


@dataclass(frozen=True)
class Request:
    arrival_ns: int
    service_ns: int | None  # to the first segment of the answer; None if none was seen
    pod: int = 0  # which of the captured pods received it


def requests(segments: Iterable[Segment], pod: int = 0) -> list[Request]:
    """Each request one pod received, by its arrival, with the time until the pod's answer on
    its connection began (HTTP/1.1 without pipelining: one request in flight per connection)."""
    out: list[Request] = []
    pending: dict[str, int] = {}  # peer -> index in out
    for s in sorted(segments, key=lambda s: s.t_ns):
        if s.request_start:
            pending[s.peer] = len(out)
            out.append(Request(s.t_ns, None, pod))
        elif not s.inbound and s.peer in pending:
            i = pending.pop(s.peer)
            out[i] = Request(out[i].arrival_ns, s.t_ns - out[i].arrival_ns, pod)
    return out


def _pct(sorted_ms: Sequence[float], q: float) -> float | None:
    if not sorted_ms:
        return None
    return round(sorted_ms[min(len(sorted_ms) - 1, math.ceil(q * len(sorted_ms)) - 1)], 3)


def summary(reqs: Sequence[Request], offered_rps: float, pods: int = 1) -> dict[str, Any]:
    """One step's arrivals: the rate they were sent at (first to last arrival), the spacing,
    the service time at the pod (request in -> answer out), in ms, and how the class Service
    split them over its `pods` (kube-proxy picks a pod per connection, not per request)."""
    times = [r.arrival_ns for r in reqs]
    gaps = [(b - a) / 1e6 for a, b in itertools.pairwise(times)]
    span = (times[-1] - times[0]) / 1e9 if len(times) > 1 else 0.0
    service = sorted(r.service_ns / 1e6 for r in reqs if r.service_ns is not None)
    per_pod = collections.Counter(r.pod for r in reqs)
    return {
        "arrivals": len(reqs),
        "sentRps": round((len(times) - 1) / span, 2) if span > 0 else None,
        "offeredRps": offered_rps,
        "largestGapMs": round(max(gaps), 1) if gaps else None,
        "gapCv": round(statistics.pstdev(gaps) / statistics.mean(gaps), 3) if gaps else None,
        "serviceP50Ms": _pct(service, 0.50),
        "serviceP95Ms": _pct(service, 0.95),
        "serviceP99Ms": _pct(service, 0.99),
        "podArrivals": [per_pod[i] for i in range(pods)],
    }


def steps(
    reqs: Sequence[Request], warmup: int, per_step: int, rates: Sequence[float], pods: int = 1
) -> list[dict[str, Any]]:
    """The run's requests in send order, less the warm-up, cut into its steps (the generators
    send each step's requests after the previous step's, evenly spaced)."""
    ordered = sorted(reqs, key=lambda r: r.arrival_ns)[warmup:]
    return [
        summary(ordered[i * per_step : (i + 1) * per_step], rate, pods)
        for i, rate in enumerate(rates)
    ]


def contamination(i: int, s: Mapping[str, Any]) -> str | None:
    """Why step i is contaminated, if it is: too few of its requests arrived, or (evenly spaced
    plans only: a Poisson step's rate varies by about 1/sqrt(n) by design) it arrived at the
    pods more than SENT_RATE_TOLERANCE off its offered rate or with gaps varying by more than
    MAX_GAP_CV; or the class's pods shared it unevenly (any plan): the busiest pod received more
    than MAX_POD_SHARE_EXCESS over its fair share."""
    sent, offered = s["sentRps"], s["offeredRps"]
    if sent is None:
        return f"step {i}: {s['arrivals']} requests arrived at the pods"
    if split := uneven_split(i, s.get("podArrivals") or []):
        return split
    if not s.get("evenArrivals", True):
        return None
    if abs(sent - offered) > SENT_RATE_TOLERANCE * offered:
        return (
            f"step {i}: arrived at the pods at {sent} req/s, not the offered {offered} "
            f"(tolerance {100 * SENT_RATE_TOLERANCE:.0f} %): the generator did not send the plan"
        )
    if (s.get("gapCv") or 0) > MAX_GAP_CV:
        return (
            f"step {i}: arrived at the pods unevenly (gaps' CV {s['gapCv']} > {MAX_GAP_CV}): "
            "the generator did not send an evenly spaced stream"
        )
    return None


def uneven_split(i: int, per_pod: Sequence[int]) -> str | None:
    total = sum(per_pod)
    if len(per_pod) < 2 or total == 0:
        return None
    fair = total / len(per_pod)
    busiest = max(per_pod)
    if busiest <= fair * (1 + MAX_POD_SHARE_EXCESS):
        return None
    chance = random_split_chance(busiest, total, len(per_pod))
    if chance >= RANDOM_SPLIT_P:
        return None
    return (
        f"step {i}: its {len(per_pod)} pods received {'/'.join(map(str, per_pod))} of "
        f"{total} requests (busiest over {100 * MAX_POD_SHARE_EXCESS:.0f} % above its fair share "
        f"{fair:.0f}, which a random split gives with p = {chance:.1g}): the generator's "
        "connections did not spread the load over the class's pods"
    )


def random_split_chance(busiest: int, total: int, pods: int) -> float:
    """Bonferroni bound on the chance that a uniformly random split of total requests over pods
    gives some pod at least busiest: pods x P(Binomial(total, 1/pods) >= busiest), the tail
    summed as the other pods' lower one, P(Binomial(total, 1 - 1/pods) <= total - busiest)."""
    return min(1.0, pods * binom_cdf(total - busiest, total, 1 - 1 / pods))


# ---------------------------------------------------------------------------- capture (adapter)


def write_segments(segments: Iterable[Segment], path: Path) -> None:
    with path.open("w") as f:
        for s in segments:
            f.write(f"{s.t_ns},{int(s.inbound)},{s.peer},{int(s.request_start)}\n")


def read_segments(path: Path) -> list[Segment]:
    out = []
    for line in path.read_text().splitlines():
        t, inbound, peer, start = line.split(",")
        out.append(Segment(int(t), inbound == "1", peer, start == "1"))
    return out


def _capture(interface: str, port: int, out: Path) -> None:
    """Records until SIGTERM or SIGINT, then writes `out`."""
    stop = False

    def _stop(*_: Any) -> None:
        nonlocal stop
        stop = True

    signal.signal(signal.SIGTERM, _stop)
    signal.signal(signal.SIGINT, _stop)
    sock = socket.socket(socket.AF_PACKET, socket.SOCK_RAW, socket.htons(ETH_P_ALL))
    sock.bind((interface, 0))
    sock.setsockopt(socket.SOL_SOCKET, SO_TIMESTAMPNS, 1)
    sock.settimeout(0.2)
    segments: list[Segment] = []
    print("capturing", flush=True)  # the parent waits for this line
    while not stop:
        _receive(sock, interface, port, segments)
    sock.setblocking(False)  # what is still queued arrived before the stop: drain it
    while _receive(sock, interface, port, segments):
        pass
    write_segments(segments, out)


def _receive(sock: socket.socket, interface: str, port: int, into: list[Segment]) -> bool:
    """Reads one frame into `into` if it is a segment of `port`; False when none was waiting."""
    try:
        frame, ancillary, _flags, addr = sock.recvmsg(256, 64)
    except (TimeoutError, InterruptedError, BlockingIOError):
        return False
    if interface == "lo" and addr[2] == socket.PACKET_OUTGOING:
        return True  # loopback shows each packet leaving and arriving: keep one (tests use lo)
    for level, kind, data in ancillary:
        if level == socket.SOL_SOCKET and kind == SO_TIMESTAMPNS:
            sec, nsec = struct.unpack("qq", data[:16])
            if s := parse_frame(sec * 1_000_000_000 + nsec, frame, port):
                into.append(s)
    return True


class Capture:
    """One capture process per pod, in the pod's network namespace, for one generator run."""

    def __init__(self, pids: Sequence[int], work: Path, prefix: Sequence[str] = ()) -> None:
        self.files = [work / f"wire-{pid}.csv" for pid in pids]
        self.procs: list[subprocess.Popen[str]] = []
        here = Path(__file__).resolve().parent.parent
        for pid, f in zip(pids, self.files, strict=True):
            cmd = [*prefix, "nsenter", "-t", str(pid), "-n", sys.executable, "-m", "runner.wire"]
            p = subprocess.Popen(
                [*cmd, "eth0", str(SERVICE_PORT), str(f)],
                cwd=here,
                stdout=subprocess.PIPE,
                text=True,
            )
            self.procs.append(p)
            if p.stdout is None or p.stdout.readline().strip() != "capturing":
                self.stop()
                raise OSError(f"the capture in pod process {pid}'s network namespace did not start")

    def stop(self) -> list[Request]:
        """Ends every capture (by PID: its own children) and returns the requests seen."""
        for p in self.procs:
            if p.poll() is None:
                p.terminate()
        for p in self.procs:
            with contextlib.suppress(subprocess.TimeoutExpired):
                p.wait(timeout=30)
        return [
            r
            for pod, f in enumerate(self.files)
            if f.is_file()
            for r in requests(read_segments(f), pod)
        ]


def pod_pids(pod_dirs: Iterable[Path]) -> list[int]:
    """A process of each pod (any of its containers shares the pod's network namespace), from
    the pods' cgroup directories."""
    pids = []
    for d in pod_dirs:
        for procs in sorted(d.glob("*/cgroup.procs")):
            first = procs.read_text().split()
            if first:
                pids.append(int(first[0]))
                break
    return pids


if __name__ == "__main__":
    _capture(sys.argv[1], int(sys.argv[2]), Path(sys.argv[3]))
