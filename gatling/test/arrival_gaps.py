#!/usr/bin/env python3
"""Checks the arrival times a stub recorded (a Unix time a line): their count, and that no two
consecutive arrivals are further apart than --max-gap-ms (a step sent faster than planned
leaves a hole before the next one). Exit 1 with the figures otherwise."""

import argparse
import itertools
import sys


def main() -> int:
    ap = argparse.ArgumentParser()
    ap.add_argument("file")
    ap.add_argument("--count", type=int, required=True)
    ap.add_argument("--max-gap-ms", type=float, required=True)
    a = ap.parse_args()
    with open(a.file) as f:
        times = sorted(float(line) for line in f if line.strip())
    gaps = [(b - x) * 1000 for x, b in itertools.pairwise(times)]
    worst = max(gaps, default=0.0)
    print(f"{len(times)} arrivals over {times[-1] - times[0]:.2f} s, largest gap {worst:.0f} ms")
    if len(times) != a.count or worst > a.max_gap_ms:
        expected = f"expected {a.count} arrivals and no gap above {a.max_gap_ms:.0f} ms"
        print(expected, file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
