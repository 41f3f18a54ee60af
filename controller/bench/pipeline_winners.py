"""The settings a tuning-loop analysis kept: applied and not undone, as KEY=VALUE lines.

python3 controller/bench/pipeline_winners.py ANALYSIS.json
"""

import json
import sys


def winners(analysis):
    kept = {}
    for it in analysis["iterations"]:
        if it.get("reverted"):
            kept.pop(it["reverted"].split(" back to ")[0], None)
        applied = it.get("applied") or ""
        if applied.startswith("localkube config set "):
            key, value = applied.split(" && ")[0].removeprefix("localkube config set ").split(" ")
            kept[key] = value
    return kept


if __name__ == "__main__":
    if len(sys.argv) != 2:
        sys.exit(__doc__)
    with open(sys.argv[1]) as f:
        for k, v in winners(json.load(f)).items():
            print(f"{k}={v}")
