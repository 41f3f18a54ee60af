#!/usr/bin/env python3
"""Compares two iptables snapshots for the host-safety test.

usage: iptables_diff.py snapshot FILE
       iptables_diff.py check BEFORE AFTER --foreign REGEX --network NAME
`check` fails when a foreign line (matching REGEX, or in or declaring a chain such a line jumps
to) of BEFORE is missing from AFTER, or when AFTER has a line BEFORE had not that is not
explained by another CNI network at work meanwhile (a rule tagged with another network's
name, its chains, podman's firewall-plugin chains).
"""

import argparse
import os
import re
import sys
from pathlib import Path

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "lib"))
import iptables_owned as owned

# The CNI firewall plugin (podman's networks) adds untagged per-container rules here.
FIREWALL_PLUGIN_CHAINS = {"CNI-FORWARD", "CNI-ADMIN"}


def snapshot():
    lines = []
    for family in owned.available_families():
        for table in owned.TABLES:
            for line in (owned.save(family, table) or "").splitlines():
                if line.startswith(":"):
                    lines.append(f"{family} {table} {' '.join(line.split()[:2])}")
                elif line.startswith("-A "):
                    lines.append(f"{family} {table} {line}")
    return sorted(set(lines))


def split(entry):
    family, table, line = entry.split(" ", 2)
    return family, table, line


def chain_of(line):
    return line[1:].split()[0] if line.startswith(":") else line.split()[1]


def closure(entries, seed):
    """Entries matching seed, plus the chains those jump to (declarations and rules)."""
    chosen = [e for e in entries if seed(split(e)[2])]
    chains = set()
    for e in chosen:
        family, table, line = split(e)
        if line.startswith("-A "):
            target = owned.Rule(line).target
            if target and target not in owned.BUILTIN:
                chains.add((family, table, target))
    return set(chosen) | {
        e for e in entries if (split(e)[0], split(e)[1], chain_of(split(e)[2])) in chains
    }


def check(before_file, after_file, foreign, network):
    before = set(Path(before_file).read_text().splitlines())
    after = set(Path(after_file).read_text().splitlines())
    failures = []
    pattern = re.compile(foreign)
    for entry in sorted(closure(before, lambda line: bool(pattern.search(line))) - after):
        failures.append("foreign line removed: " + entry)
    added = after - before

    def other_network(line):
        return line.startswith("-A ") and owned.Rule(line).network not in (None, network)

    explained = closure(added, other_network)
    explained |= {e for e in added if chain_of(split(e)[2]) in FIREWALL_PLUGIN_CHAINS}
    for entry in sorted(added - explained):
        failures.append("left behind: " + entry)
    for entry in sorted(after):
        line = split(entry)[2]
        if line.startswith("-A ") and owned.Rule(line).network == network and entry not in added:
            failures.append("left behind (was there before too): " + entry)
    for f in failures:
        print(f)
    return 1 if failures else 0


def main(argv):
    parser = argparse.ArgumentParser()
    sub = parser.add_subparsers(dest="command", required=True)
    snap = sub.add_parser("snapshot")
    snap.add_argument("file")
    chk = sub.add_parser("check")
    chk.add_argument("before")
    chk.add_argument("after")
    chk.add_argument("--foreign", required=True)
    chk.add_argument("--network", required=True)
    args = parser.parse_args(argv)
    if args.command == "snapshot":
        with open(args.file, "w") as f:
            f.write("\n".join(snapshot()) + "\n")
        return 0
    return check(args.before, args.after, args.foreign, args.network)


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
