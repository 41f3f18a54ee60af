"""The settings a tuning-loop analysis kept: applied and not undone, as KEY=BEFORE:AFTER lines
(BEFORE: the value when the loop started, AFTER: the one it kept), the argument format of
controller/bench/pipeline-bench.sh and tenants-bench.sh.

python3 controller/bench/pipeline_winners.py ANALYSIS.json
"""

import json
import sys


def winners(analysis):
    kept, before = {}, {}
    for it in analysis["iterations"]:
        if it.get("reverted"):
            kept.pop(it["reverted"].split(" back to ")[0], None)
        applied = it.get("applied") or ""
        if applied.startswith("localkube config set "):
            key, value = applied.split(" && ")[0].removeprefix("localkube config set ").split(" ")
            kept[key] = value
            before.setdefault(key, f"{it['recommendation']['from']:g}")
    return {k: f"{before[k]}:{v}" for k, v in kept.items()}


if __name__ == "__main__":
    if len(sys.argv) != 2:
        sys.exit(__doc__)
    with open(sys.argv[1]) as f:
        for k, v in winners(json.load(f)).items():
            print(f"{k}={v}")
