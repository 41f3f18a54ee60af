"""clang-tidy over translation units, skipping those already found clean with the same input.

A clean clone (CI's) otherwise tidies every unit again: 5 of its minutes on a 2-core host. A
unit's key is what clang-tidy's verdict depends on: its version, the repository's .clang-tidy,
the compile flags, and the unit's preprocessed text with comments kept (headers included, and
NOLINT comments, so that removing one is a new key). Only a clean verdict is remembered; a unit
with a finding runs again every time and fails the lint.

Usage: tidy_cached.py <build dir with compile_commands.json> <jobs> <unit> ...
"""

from __future__ import annotations

import hashlib
import json
import os
import shlex
import subprocess
import sys
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
CACHE = Path(os.environ.get("XDG_CACHE_HOME", Path.home() / ".cache")) / "isolato" / "clang-tidy"


def compile_args(entry: dict) -> list[str]:
    args = entry.get("arguments") or shlex.split(entry["command"])
    if Path(args[0]).name == "ccache":
        args = args[1:]
    out: list[str] = []
    skip = False
    for a in args:
        if skip:
            skip = False
        elif a == "-o":
            skip = True
        elif a != "-c":
            out.append(a)
    return out


def key(entry: dict, tool: bytes, root: Path = ROOT) -> str:
    """The hash of everything the verdict depends on, free of the clone's own path (root)."""
    args = compile_args(entry)
    text = subprocess.run(
        [*args, "-E", "-P", "-C"],
        cwd=entry["directory"],
        check=True,
        capture_output=True,
    ).stdout
    at = str(root).encode()
    h = hashlib.sha256(tool)
    h.update((root / ".clang-tidy").read_bytes())
    h.update(" ".join(args).encode().replace(at, b"<root>"))
    h.update(text.replace(at, b"<root>"))
    return h.hexdigest()


def tidy(build: str, entry: dict, tool: bytes) -> tuple[str, bool, bool]:
    """(unit, clean, from cache)."""
    k = key(entry, tool)
    mark = CACHE / k
    if mark.exists():
        return entry["file"], True, True
    run = subprocess.run(["clang-tidy", "-p", build, "--quiet", entry["file"]], check=False)
    if run.returncode == 0:
        CACHE.mkdir(parents=True, exist_ok=True)
        mark.touch()
    return entry["file"], run.returncode == 0, False


def main(argv: list[str]) -> int:
    build, jobs, units = argv[0], int(argv[1]), set(argv[2:])
    entries = {}
    for e in json.loads((Path(build) / "compile_commands.json").read_text()):
        entries.setdefault(e["file"], e)
    missing = units - entries.keys()
    if missing:
        print(f"tidy_cached.py: not in {build}/compile_commands.json: {sorted(missing)}")
        return 2
    tool = subprocess.run(["clang-tidy", "--version"], check=True, capture_output=True).stdout
    with ThreadPoolExecutor(max_workers=jobs) as pool:
        results = list(pool.map(lambda u: tidy(build, entries[u], tool), sorted(units)))
    failed = [u for u, clean, _ in results if not clean]
    cached = sum(1 for _, _, hit in results if hit)
    print(f"clang-tidy: {len(results) - cached} units run, {cached} found clean before unchanged")
    for u in failed:
        print(f"clang-tidy: findings in {u}")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
