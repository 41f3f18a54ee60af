"""The arrivals at the pods (runner/wire.py): parsing, pairing, step summaries, the verdict, and
a real capture on the loopback interface."""

import collections
import dataclasses
import http.server
import os
import random
import socket
import struct
import subprocess
import sys
import threading
import urllib.request
from pathlib import Path

import pytest
from runner import wire
from runner.hygiene import assess
from runner.instruments import Ramp, warmup_requests

POD, CLIENT = "10.244.0.2", "10.244.0.1"


def frame(src, sport, dst, dport, payload=b"", flags=0x18):
    tcp = struct.pack("!HHIIBBHHH", sport, dport, 0, 0, 5 << 4, flags, 0, 0, 0)
    total = 20 + len(tcp) + len(payload)
    addresses = socket.inet_aton(src), socket.inet_aton(dst)
    ip = struct.pack("!BBHHHBBH4s4s", 0x45, 0, total, 0, 0, 64, 6, 0, *addresses)
    return b"\0" * 12 + b"\x08\x00" + ip + tcp + payload


def test_frames_are_parsed_and_others_skipped():
    req = wire.parse_frame(1, frame(CLIENT, 40000, POD, 8080, b"POST /v1/tenants/t/requests"))
    assert req == wire.Segment(1, True, f"{CLIENT}:40000", True)
    body = wire.parse_frame(2, frame(CLIENT, 40000, POD, 8080, b"{}"))
    assert body == wire.Segment(2, True, f"{CLIENT}:40000", False)
    answer = wire.parse_frame(3, frame(POD, 8080, CLIENT, 40000, b"HTTP/1.1 200 OK"))
    assert answer == wire.Segment(3, False, f"{CLIENT}:40000", False)
    assert wire.parse_frame(4, frame(CLIENT, 40000, POD, 8080)) is None  # a bare ACK
    assert wire.parse_frame(5, frame(CLIENT, 40000, POD, 9090, b"POST /")) is None
    assert wire.parse_frame(6, b"\0" * 12 + b"\x86\xdd" + b"\0" * 60) is None  # IPv6
    # the kubelet's probes and the controller's scrapes are not load
    probe = wire.parse_frame(7, frame(CLIENT, 40001, POD, 8080, b"GET /metrics HTTP/1.1"))
    assert probe == wire.Segment(7, True, f"{CLIENT}:40001", False)


def test_requests_pair_with_the_answer_on_their_connection():
    a, b = "c:1", "c:2"
    segs = [
        wire.Segment(0, True, a, True),
        wire.Segment(1_000_000, True, b, True),
        wire.Segment(1_500_000, True, a, False),  # body of a's request
        wire.Segment(4_000_000, False, b, False),
        wire.Segment(5_000_000, False, a, False),
        wire.Segment(6_000_000, True, a, True),  # no answer captured
    ]
    assert wire.requests(reversed(segs)) == [
        wire.Request(0, 5_000_000),
        wire.Request(1_000_000, 3_000_000),
        wire.Request(6_000_000, None),
    ]


def test_each_pod_pairs_its_own_connections_and_the_split_is_counted():
    # the same client address:port may reach two pods (different pod IPs): pairing is per pod
    pod0 = wire.requests(
        [wire.Segment(0, True, "c:1", True), wire.Segment(3, False, "c:1", False)], 0
    )
    pod1 = wire.requests(
        [
            wire.Segment(1, True, "c:1", True),
            wire.Segment(2, True, "c:2", True),
            wire.Segment(9, False, "c:1", False),
        ],
        1,
    )
    assert pod0 == [wire.Request(0, 3, 0)]
    assert pod1 == [wire.Request(1, 8, 1), wire.Request(2, None, 1)]
    assert wire.summary(pod0 + pod1, 10, pods=3)["podArrivals"] == [1, 2, 0]


def test_a_step_the_pods_shared_unevenly_contaminates_the_run_whatever_the_arrivals():
    step = {"arrivals": 200, "sentRps": 20.0, "offeredRps": 20, "gapCv": 1.0}
    # measured with the referee's keep-alive connections: 20 req/s to 2 pods, 24 to 3
    for pods, arrivals in (([199, 1], False), ([285, 8, 7], False), ([164, 94, 42], True)):
        why = wire.contamination(3, {**step, "podArrivals": pods, "evenArrivals": arrivals})
        assert why is not None and f"pods received {'/'.join(map(str, pods))}" in why
    for fair in ([112, 88], [81, 119], [100, 94, 106], [200], []):
        assert wire.contamination(3, {**step, "podArrivals": fair, "evenArrivals": False}) is None


def test_a_split_a_random_one_gives_by_chance_is_not_refused_however_far_over_a_quarter():
    # measured 2026-11-25 20:24: 400 requests at random over 4 pods, one 27 % over its share
    chance = wire.random_split_chance(127, 400, 4)
    assert 1e-3 < chance < 1e-2
    assert wire.uneven_split(10, [96, 91, 127, 86]) is None
    # few requests: 4 of 4 on one of 2 pods is 100 % over its share, and a coin gives it 1 in 8
    assert wire.uneven_split(0, [4, 0]) is None
    why = wire.uneven_split(0, [199, 1])
    assert why is not None and "a random split gives with p = " in why
    # the Bonferroni bound against a simulation of the random split
    rng = random.Random(9)
    trials = 4000
    hits = sum(
        max(collections.Counter(rng.randrange(4) for _ in range(400)).values()) >= 127
        for _ in range(trials)
    )
    assert hits / trials <= chance * 1.5 + 3 * (chance / trials) ** 0.5


def evenly(n, rate, start_ns=0, service_ns=2_000_000):
    return [wire.Request(start_ns + round(i * 1e9 / rate), service_ns) for i in range(n)]


def test_steps_cut_the_warm_up_and_measure_the_sent_rate():
    warm = evenly(10, 10)
    step0 = evenly(20, 20, start_ns=1_000_000_000)
    # Gatling's old bug: 30 requests planned over 1.5 s sent in 1 s
    step1 = evenly(30, 30, start_ns=2_000_000_000, service_ns=4_000_000)
    s = wire.steps(warm + step0 + step1, 10, 20, [20, 13.33])
    assert [x["arrivals"] for x in s] == [20, 20]
    assert s[0]["sentRps"] == 20 and s[0]["largestGapMs"] == 50 and s[0]["gapCv"] == 0
    assert s[0]["serviceP95Ms"] == 2.0
    assert s[1]["sentRps"] == 30
    assert wire.contamination(0, s[0]) is None
    assert "at 30.0 req/s, not the offered 13.33" in wire.contamination(1, s[1])
    assert wire.contamination(1, {**s[1], "evenArrivals": False}) is None
    bursty = {**s[0], "gapCv": 0.78}  # Gatling's old per-tenant streams at 3 req/s
    assert "unevenly (gaps' CV 0.78 > 0.5)" in wire.contamination(0, bursty)
    assert wire.contamination(0, {**bursty, "evenArrivals": False}) is None
    assert "0 requests arrived" in wire.contamination(2, wire.summary([], 10))


def test_a_step_off_its_rate_contaminates_the_run():
    w = {"seconds": 1, "generatorCpuPct": 1, "stealPct": 0, "sharedCpus": ""}
    ok = {"arrivals": 20, "sentRps": 20.5, "offeredRps": 20}
    off = {**ok, "sentRps": 23}
    pin = {"pinned": True}
    assert assess([{**w, "wire": ok}], pin)["status"] == "clean"
    verdict = assess([{**w, "wire": ok}, {**w, "wire": off}], pin)
    assert verdict["status"] == "contaminated"
    assert verdict["reasons"] == [
        "step 1: arrived at the pods at 23 req/s, not the offered 20 (tolerance 5 %): "
        "the generator did not send the plan"
    ]


def test_warm_up_counts_are_the_plans():
    ramp = Ramp("c", (15.0,), 300, 2.5)
    assert warmup_requests(ramp, 15.0) == 38  # 37.5 rounded half up, as ClassPlan
    assert warmup_requests(ramp, 0.1) == 1  # at least 1
    assert warmup_requests(dataclasses.replace(ramp, warmup_s=0.0), 15.0) == 0


@pytest.mark.skipif(os.geteuid() != 0, reason="a packet socket needs root")
def test_a_real_capture_on_loopback(tmp_path):
    class Slow(http.server.BaseHTTPRequestHandler):
        protocol_version = "HTTP/1.1"

        def do_POST(self):
            self.rfile.read(int(self.headers["Content-Length"]))
            threading.Event().wait(0.02)  # 20 ms of service
            self.send_response(200)
            self.send_header("Content-Length", "0")
            self.end_headers()

        def do_GET(self):
            self.send_response(200)
            self.send_header("Content-Length", "0")
            self.end_headers()

        def log_message(self, *_):
            pass

    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), Slow)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    port = server.server_address[1]
    out = tmp_path / "wire.csv"
    here = Path(wire.__file__).resolve().parent.parent
    p = subprocess.Popen(
        [sys.executable, "-m", "runner.wire", "lo", str(port), str(out)],
        cwd=here,
        stdout=subprocess.PIPE,
        text=True,
    )
    try:
        assert p.stdout.readline().strip() == "capturing"
        for _ in range(5):
            req = urllib.request.Request(
                f"http://127.0.0.1:{port}/v1/tenants/t/requests", data=b"{}", method="POST"
            )
            urllib.request.urlopen(req, timeout=5).read()
        urllib.request.urlopen(f"http://127.0.0.1:{port}/metrics", timeout=5).read()
    finally:
        p.terminate()
        p.wait(timeout=30)
        server.shutdown()
    reqs = wire.requests(wire.read_segments(out))
    assert len(reqs) == 5
    assert all(20e6 <= r.service_ns < 1e9 for r in reqs)
