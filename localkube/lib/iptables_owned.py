#!/usr/bin/env python3
"""Removes from iptables what localkube's components left there, and nothing else.

`kube-proxy --cleanup` removes kube-proxy's own chains. What remains is recognised here:
  - the bridge and portmap plugins tag every per-pod rule with a comment
    `name: "<network>" id: "<container>"` (portmap: `dnat name: ...`); a rule tagged with
    localkube's network name is ours, and so is a CNI-* chain such a rule jumps to;
  - a few chains have well-known names shared with any other kubelet, kube-proxy or CNI
    portmap on the host (SHARED). `record`, run before localkube's components start, notes
    which of them already exist; `clean` removes only those that did not, and keeps one
    anyway while a rule tagged with another network still uses it.
Rules are deleted through `iptables-restore --noflush` with the lines iptables-save printed
(`-A` turned into `-D`): host data is parsed, never evaluated by a shell.

usage: iptables_owned.py record STATE_FILE
       iptables_owned.py clean --network NAME --state STATE_FILE
"""

import argparse
import json
import re
import shlex
import shutil
import subprocess
import sys

FAMILIES = ("iptables", "ip6tables")
TABLES = ("nat", "filter", "mangle")
BUILTIN = {"PREROUTING", "INPUT", "FORWARD", "OUTPUT", "POSTROUTING"}
# Created by kubelet (hint, canary, firewall), kube-proxy (firewall) and portmap (hostport
# chains); other instances of those programs on the host use the same names.
SHARED = {
    "KUBE-IPTABLES-HINT",
    "KUBE-KUBELET-CANARY",
    "KUBE-FIREWALL",
    "CNI-HOSTPORT-DNAT",
    "CNI-HOSTPORT-SETMARK",
    "CNI-HOSTPORT-MASQ",
}
TAG = re.compile(r'(?:^|\s)name: "([^"]*)" id: "')


class Rule:
    def __init__(self, line):
        self.line = line
        tokens = shlex.split(line)
        self.chain = tokens[1]
        self.target = _value_after(tokens, ("-j", "--jump", "-g", "--goto"))
        comment = _value_after(tokens, ("--comment",))
        match = TAG.search(comment) if comment else None
        self.network = match.group(1) if match else None


def _value_after(tokens, flags):
    for i, token in enumerate(tokens[:-1]):
        if token in flags:
            return tokens[i + 1]
    return None


def parse_save(text):
    """iptables-save output of one table -> (chain names, rules)."""
    chains, rules = set(), []
    for line in text.splitlines():
        if line.startswith(":"):
            chains.add(line[1:].split()[0])
        elif line.startswith("-A "):
            rules.append(Rule(line))
    return chains, rules


def plan(chains, rules, network, preexisting):
    """What to remove from one table: (rules to delete, chains to flush and delete)."""
    ours = {
        r.target
        for r in rules
        if r.network == network
        and r.target
        and r.target.startswith("CNI-")
        and r.target in chains
        and r.target not in SHARED
    }
    shared = {c for c in chains & SHARED if c not in preexisting}
    # A shared chain stays while something we do not remove still relies on it.
    changed = True
    while changed:
        doomed = ours | shared
        keep = {
            c
            for c in shared
            if any(r.chain == c and r.network not in (None, network) for r in rules)
            or any(
                r.target == c
                and (
                    r.network not in (None, network)
                    or (r.chain not in BUILTIN and r.chain not in doomed)
                )
                for r in rules
            )
        }
        changed = bool(keep)
        shared -= keep
    doomed = ours | shared
    delete = [
        r for r in rules if r.chain not in doomed and (r.network == network or r.target in doomed)
    ]
    return delete, sorted(doomed)


def restore_input(table, delete, doomed):
    lines = ["*" + table]
    lines += ["-D " + r.line[3:] for r in delete]
    lines += [f":{c} - [0:0]" for c in doomed]  # with --noflush: flushes the chain
    lines += ["-X " + c for c in doomed]
    lines.append("COMMIT")
    return "\n".join(lines) + "\n"


def save(family, table):
    result = subprocess.run([family + "-save", "-t", table], capture_output=True, text=True)
    return result.stdout if result.returncode == 0 else None


def available_families():
    return [f for f in FAMILIES if shutil.which(f + "-save") and shutil.which(f + "-restore")]


def record(state_file):
    present = {}
    for family in available_families():
        for table in TABLES:
            text = save(family, table)
            if text is not None:
                chains, _ = parse_save(text)
                present.setdefault(family, {})[table] = sorted(chains & SHARED)
    with open(state_file, "w") as f:
        json.dump(present, f, indent=1)


def load_preexisting(state_file):
    """Shared chains present before localkube started; without a record, assume all were."""
    try:
        with open(state_file) as f:
            return json.load(f)
    except FileNotFoundError:
        return None


def clean(network, state_file):
    recorded = load_preexisting(state_file)
    failures = 0
    for family in available_families():
        for table in TABLES:
            preexisting = (
                SHARED if recorded is None else set(recorded.get(family, {}).get(table, SHARED))
            )
            # A rule may vanish between save and restore (another program at work): re-plan.
            for _attempt in range(3):
                text = save(family, table)
                if text is None:
                    break
                delete, doomed = plan(*parse_save(text), network, preexisting)
                if not delete and not doomed:
                    break
                result = subprocess.run(
                    [family + "-restore", "--noflush"],
                    input=restore_input(table, delete, doomed),
                    capture_output=True,
                    text=True,
                )
                if result.returncode == 0:
                    break
            else:
                failures += 1
                print(
                    f"localkube: could not remove its {family} rules from table {table}: "
                    f"{result.stderr.strip()}",
                    file=sys.stderr,
                )
    return 1 if failures else 0


def main(argv):
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    sub = parser.add_subparsers(dest="command", required=True)
    rec = sub.add_parser("record")
    rec.add_argument("state")
    cln = sub.add_parser("clean")
    cln.add_argument("--network", required=True)
    cln.add_argument("--state", required=True)
    args = parser.parse_args(argv)
    if args.command == "record":
        record(args.state)
        return 0
    return clean(args.network, args.state)


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
