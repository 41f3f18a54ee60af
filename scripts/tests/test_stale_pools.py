"""scripts/stale_pools.py: which pool namespaces run pods older than the images just built."""

from __future__ import annotations

import sys
from datetime import UTC, datetime
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from stale_pools import parse_time, stale_namespaces


def test_reads_podmans_and_kubernetes_times_alike():
    assert parse_time("2026-11-29 16:51:18.21956092 +0000 UTC") == datetime(
        2026, 11, 29, 16, 51, 18, 219560, tzinfo=UTC
    )
    assert parse_time("2026-11-29 17:51:18 +0100 CET") == datetime(
        2026, 11, 29, 16, 51, 18, tzinfo=UTC
    )
    assert parse_time("2026-11-29T16:51:18Z") == datetime(2026, 11, 29, 16, 51, 18, tzinfo=UTC)


def pod(ns: str, started: str | None) -> dict:
    status = {"startTime": started} if started else {}
    return {"metadata": {"namespace": ns}, "status": status}


def test_a_namespace_is_stale_when_one_of_its_pods_started_before_the_build():
    built = parse_time("2026-11-29T16:00:00Z")
    pods = {
        "items": [
            pod("isolato-c-gold", "2026-11-29T15:59:59Z"),
            pod("isolato-c-gold", "2026-11-29T16:30:00Z"),
            pod("isolato-c-bronze", "2026-11-29T16:00:00Z"),
            pod("isolato-t-acme", None),  # not started yet: it will start from the new image
            pod("isolato-c-silver", "2026-11-29T10:00:00Z"),
        ]
    }
    assert stale_namespaces(pods, built) == ["isolato-c-gold", "isolato-c-silver"]
    assert stale_namespaces({"items": []}, built) == []
