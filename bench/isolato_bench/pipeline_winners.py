"""The settings a tuning-loop analysis kept: applied and not undone, as KEY=BEFORE:AFTER lines
(BEFORE: the value when the loop started, AFTER: the one it kept), the argument format of
`isolato-bench pipeline` and `isolato-bench tenants`.

isolato-bench pipeline-winners ANALYSIS.json
"""


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
