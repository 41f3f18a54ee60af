"""Facts a doc states that the repository can check: what it names must exist.

Each finder takes a page's text and returns what is wrong with it, so that the tests
(test_doc_facts.py) run them over every page and also on small texts of their own:

- repository paths (`controller/…`, `helm/…`, …) name files or folders that exist;
- `make TARGET` names a target of the Makefile or a part.mk;
- `spec.…` / `status.…` fields of an SloClass or Tenant are in the CRDs' schemas;
- `ISOLATO_…` variables are read somewhere outside the docs;
- no internal tracker numbers (`issue 12`, `#35`): a reader cannot open them;
- no http(s) links outside the repository, unless ALLOWED_URLS says why;
- a link's `#anchor` is a heading of the page it names (GitHub's slugs);
- install.md's RBAC table, chart objects and status member lists match the chart and CRDs.
"""

from __future__ import annotations

import re
import subprocess
from collections.abc import Iterable
from pathlib import Path

import yaml

ROOT = Path(__file__).resolve().parents[2]
# the top-level folders whose paths docs name from the repository root
TOP = (
    "controller",
    "helm",
    "docs",
    "localkube",
    "saas-bench",
    "gatling",
    "scripts",
    "images-test",
    "calibration-format",
    "bench",
    "results",
)
# a path, or a glob of paths (`runs-2026-11-2*-split`)
PATH = re.compile(r"(?<![\w./-])((?:" + "|".join(map(re.escape, TOP)) + r")/[\w./*-]*[\w/*])")
# Names that look like repository paths and are not: why each is not a file of the repository.
NOT_PATHS = {
    "localkube/control-plane": "a cgroup localkube creates at run time",
    "localkube/node": "a cgroup localkube creates at run time",
    "localkube/pause": "an image name (localhost/localkube/pause:3.10)",
}
# Folders that moved, which a page of dated records may still name: a dated run names the script
# it ran then.
MOVED = {
    "controller/bench": "bench/: the bench tool (bench/isolato-bench) and its helpers (bench/sh/)",
}
# Pages of dated records (each section a run as it was measured)
DATED_PAGES = ("docs/benchmarks-log.md",)
# `make bench-*` names a family of targets, not one
MAKE = re.compile(r"(?:^[ \t]*|`|\$ |&& )make ([a-z][\w-]*)(?![\w*-])", re.MULTILINE)
FIELD = re.compile(r"`((?:spec|status)\.[\w.\[\]]+)`")
VARIABLE = re.compile(r"\bISOLATO_[A-Z0-9_]*[A-Z0-9]\b")
TRACKER = re.compile(r"\b[Ii]ssues? \d+\b|(?<![\w&/])#\d+\b")
URL = re.compile(r"https?://[^\s)`'\"<>|\]]+")
# this machine, a cluster's private network, or an address the reader fills in
LOCAL = re.compile(
    r"https?://(?:127\.0\.0\.1|localhost|\[::1\]|10\.\d|192\.168\.|\$[\w({]|<[^>]+>)"
)
# Addresses outside the repository a page may show, and why: none of them is a link to follow.
ALLOWED_URLS = {
    "http://prometheus.monitoring:9090": "an example in-cluster address a user sets",
    "https://gatling.io": "Gatling's own warm-up default, named to say why it is switched off",
}


def fenced_free(text: str) -> str:
    """The page without its code blocks (prose only)."""
    return re.sub(r"^```.*?^```", "", text, flags=re.MULTILINE | re.DOTALL)


def missing_paths(text: str, root: Path = ROOT, dated: bool = False) -> list[str]:
    """Repository paths that do not exist; a build output (`…/target/…`) or an elided path
    (`…/.../…`) is not checked, nor a link's target (relative to its page: paths_outside), nor,
    on a page of dated records (`dated`), a path under a folder that MOVED."""
    found = []
    for path in PATH.findall(re.sub(r"\]\([^)\s]*\)", "]()", text)):
        if path in NOT_PATHS or "/target/" in path + "/" or "..." in path:
            continue
        if dated and any(path == m or path.startswith(m + "/") for m in MOVED):
            continue
        if not ((root / path).exists() or ("*" in path and any(root.glob(path)))):
            found.append(path)
    return sorted(set(found))


def make_targets(root: Path = ROOT) -> set[str]:
    """Every target the Makefile and its parts define (`a b: deps`, not `A := x`)."""
    targets = set()
    for mk in [root / "Makefile", *root.glob("*/part.mk")]:
        for line in mk.read_text().splitlines():
            m = re.match(r"^([\w.%-]+(?:[ \t]+[\w.%-]+)*)[ \t]*:(?![=:])", line)
            if m:
                targets.update(m.group(1).split())
    return targets


def unknown_make_targets(text: str, targets: set[str]) -> list[str]:
    return sorted({t for t in MAKE.findall(text) if t not in targets})


def crd_fields(crd_dir: Path) -> set[str]:
    """`spec.x.y` / `status.x.y` of every CRD version's schema (array items add `[]`-free steps)."""
    fields: set[str] = set()

    def walk(node: dict, path: str) -> None:
        fields.add(path)
        for name, child in (node.get("properties") or {}).items():
            walk(child, f"{path}.{name}")
        if "items" in node:
            walk(node["items"], path)
        extra = node.get("additionalProperties")
        if isinstance(extra, dict):
            walk(extra, path + ".*")

    for crd in crd_dir.glob("*.yaml"):
        doc = yaml.safe_load(crd.read_text())
        for version in doc["spec"]["versions"]:
            props = version["schema"]["openAPIV3Schema"]["properties"]
            for top in ("spec", "status"):
                if top in props:
                    walk(props[top], top)
    return fields


def unknown_fields(text: str, fields: set[str]) -> list[str]:
    bad = []
    for name in FIELD.findall(text):
        path = re.sub(r"\[[^\]]*\]", "", name).rstrip(".")
        # a map's keys: `status.tenants.acme` names a key, not a field
        parts = path.split(".")
        known = any(
            ".".join(parts[:i]) + ".*" in fields and ".".join(parts[:i]) in fields
            for i in range(1, len(parts))
        )
        if path not in fields and not known:
            bad.append(name)
    return sorted(set(bad))


def tracked_files(root: Path = ROOT) -> list[Path]:
    listed = subprocess.run(
        ["git", "ls-files", "--cached", "--others", "--exclude-standard"],
        cwd=root,
        capture_output=True,
        text=True,
        check=True,
    ).stdout.split()
    return [root / f for f in listed]


def code_variables(files: Iterable[Path]) -> set[str]:
    """ISOLATO_* names used outside Markdown (what the code, scripts and charts read)."""
    names: set[str] = set()
    for f in files:
        if f.suffix == ".md" or not f.is_file():
            continue
        try:
            names.update(VARIABLE.findall(f.read_text()))
        except UnicodeDecodeError:
            continue
    return names


def relaxed_variables(application_yaml: Path) -> set[str]:
    """The variables Spring's relaxed binding maps to the `isolato.*` properties of
    application.yaml (`isolato.profiler.interval` ← ISOLATO_PROFILER_INTERVAL)."""
    names = set()

    def walk(node: object, path: str) -> None:
        if isinstance(node, dict):
            for key, child in node.items():
                walk(child, f"{path}_{key}" if path else str(key))
        else:
            names.add(path.replace("-", "").replace(".", "_").upper())

    walk(yaml.safe_load(application_yaml.read_text()).get("isolato", {}), "isolato")
    return names


def unknown_variables(text: str, known: set[str]) -> list[str]:
    """Variables that neither code nor a property of application.yaml reads."""
    return sorted({v for v in VARIABLE.findall(text) if v not in known})


def paths_outside(text: str, page: Path, root: Path = ROOT) -> list[str]:
    """Relative links and `../` paths that leave the repository or name nothing in it (a reader
    has the repository only)."""
    prose = re.sub(r"`[^`\n]*`", "", fenced_free(text))
    links = re.findall(r"\]\(([^)#:\s]+)(?:#[^)]*)?\)", prose)
    ups = re.findall(r"(?<![\w./])((?:\.\./)+[\w.-]+(?:/[\w.-]+)*)", text)
    inside = root.resolve()
    return sorted(
        t
        for t in {*links, *ups}
        if not (page.parent / t).resolve().is_relative_to(inside) or not (page.parent / t).exists()
    )


def tracker_numbers(text: str) -> list[str]:
    return sorted(set(TRACKER.findall(fenced_free(text))))


def outside_urls(text: str) -> list[str]:
    bad = []
    for url in URL.findall(text):
        url = url.rstrip(".,;:")
        if LOCAL.match(url) or any(url.startswith(a) for a in ALLOWED_URLS):
            continue
        bad.append(url)
    return sorted(set(bad))


def rbac_rules(template: Path) -> set[tuple[str, str, str]]:
    """(kind, group/resource, verbs) of the chart's ClusterRole and Role rules."""
    text = re.sub(r"\{\{[^}]*\}\}", "x", template.read_text())
    rules = set()
    for doc in yaml.safe_load_all(text):
        if not doc or doc.get("kind") not in ("ClusterRole", "Role"):
            continue
        for rule in doc["rules"]:
            for group in rule["apiGroups"]:
                for resource in rule["resources"]:
                    rules.add((doc["kind"], f"{group}/{resource}", " ".join(rule["verbs"])))
    return rules


def rbac_table(text: str) -> set[tuple[str, str, str]]:
    """The same triples from install.md's table `| API group | resources | verbs | why |`."""
    lines = text.split("\n")
    start = lines.index("| API group | resources | verbs | why |") + 2
    rows = set()
    for row in lines[start:]:
        if not row.startswith("|"):
            break
        group, resources, verbs = (c.strip() for c in row.strip("|").split("|")[:3])
        group = "" if group == '""' else group
        kind = "Role" if "(Role" in resources else "ClusterRole"
        for resource in re.sub(r"\(.*?\)", "", resources).split(","):
            rows.add((kind, f"{group}/{resource.strip()}", verbs))
    return rows


def values_leaves(values_yaml: Path) -> set[str]:
    """Dotted keys of values.yaml's values (an empty map counts: it is a default, `{}`)."""
    leaves = set()

    def walk(node: object, path: str) -> None:
        if isinstance(node, dict) and node:
            for key, child in node.items():
                walk(child, f"{path}.{key}" if path else str(key))
        else:
            leaves.add(path)

    walk(yaml.safe_load(values_yaml.read_text()), "")
    return leaves


def values_table_defaults(text: str) -> dict[str, str]:
    """key → default cell of install.md's generated values table (cells split at unescaped |)."""
    found = {}
    for line in text.splitlines():
        if line.startswith("| `"):
            cells = [c.strip() for c in re.split(r"(?<!\\)\|", line)[1:-1]]
            if len(cells) == 4:
                found[cells[0].strip("`")] = cells[2]
    return found


def chart_kinds(templates: Path) -> tuple[set[str], set[str]]:
    """(every kind the chart's templates create, those `helm uninstall` keeps); tests/ excluded."""
    kinds, kept = set(), set()
    for template in templates.glob("*.yaml"):
        for doc in re.split(r"^---", template.read_text(), flags=re.M):
            m = re.search(r"^kind: (\w+)", doc, re.M)
            if m:
                kinds.add(m.group(1))
                if "helm.sh/resource-policy: keep" in doc:
                    kept.add(m.group(1))
    return kinds, kept


def paragraph(text: str, start: str) -> str:
    """The paragraph of text that begins with start (up to the next blank line)."""
    return text[text.index(start) :].split("\n\n", 1)[0]


def unnamed(kinds: set[str], text: str) -> list[str]:
    """Kinds a text does not name as a word (PodDisruptionBudget is not a Role)."""
    return sorted(k for k in kinds if not re.search(rf"\b{k}\b", text))


def listed_members(text: str, fields: set[str]) -> list[str]:
    """A status object's members written out, "`model` {form, scaleMs, … | queueMs}" or
    "`status.profile` of the Tenant {behaviour, …}", must be exactly its CRD's members."""
    wrong = []
    pattern = r"`((?:status\.)?\w+)`[^{`\n]{0,20}\{([^}`]+)\}"
    for name, listed in re.findall(pattern, text):
        path = name if name.startswith("status.") else f"status.{name}"
        members = {f.rsplit(".", 1)[1] for f in fields if f.rsplit(".", 1)[0] == path}
        if not members:
            continue
        said = {m.strip() for m in re.split(r"[,|]", listed) if m.strip()}
        if said != members:
            wrong.append(
                f"{path}: missing {sorted(members - said)}, unknown {sorted(said - members)}"
            )
    return wrong


def slug(heading: str) -> str:
    """GitHub's anchor of a heading: lower case, punctuation dropped, spaces to hyphens."""
    text = re.sub(r"\[([^\]]*)\]\([^)]*\)", r"\1", heading.strip().lower())  # a link: its text
    text = re.sub(r"[`*]", "", text)
    text = re.sub(r"[^\w\- ]", "", text)
    return text.replace(" ", "-")


def anchors(page: Path) -> set[str]:
    """Every heading's anchor of a page (GitHub numbers repeats: -1, -2, …)."""
    seen: dict[str, int] = {}
    found = set()
    for line in fenced_free(page.read_text()).splitlines():
        m = re.match(r"^#{1,6} (.+)$", line)
        if m:
            base = slug(m.group(1))
            n = seen.get(base, 0)
            found.add(base if n == 0 else f"{base}-{n}")
            seen[base] = n + 1
    return found


def broken_anchors(text: str, page: Path) -> list[str]:
    """Links `page.md#anchor` / `#anchor` whose anchor is no heading of the target page."""
    prose = re.sub(r"`[^`\n]*`", "", fenced_free(text))
    bad = []
    for target, anchor in re.findall(r"\]\(([^)#:\s]*)#([^)\s]+)\)", prose):
        linked = (page.parent / target) if target else page
        if linked.suffix == ".md" and linked.is_file() and anchor not in anchors(linked):
            bad.append(f"{target}#{anchor}")
    return sorted(set(bad))
