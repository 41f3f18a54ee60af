"""Doc tests: every shell block a user is told to run is run; generated pages are current.

Convention (checked here): a fence tagged `bash` is run; a fence tagged `shell` is shown but not
run and its first line says why (`# not run here: <reason>`); output and data blocks carry their
own tag (`text`, `json`, `yaml`). An untagged fence is an error, so no command escapes the test.

The static tests need nothing; `-m cluster` runs the blocks against a running localkube with
`make run`'s controller (docs/part.mk starts it) and replays the commands `make run` prints.
"""

from __future__ import annotations

import re
import subprocess
import sys
import threading
import time
from collections import deque
from pathlib import Path

import mktestdocs
import pytest
import yaml

sys.path.insert(0, str(Path(__file__).parent))
import crd_reference

ROOT = Path(__file__).resolve().parents[2]
# Pages a user follows, in the order the cluster test runs them: localkube's README last, as it
# ends with `localkube down`.
PAGES = [
    "README.md",
    "docs/concepts.md",
    "docs/operations.md",
    "docs/api.md",
    "docs/security.md",
    "docs/install.md",
    "docs/troubleshooting.md",
    "docs/gatling.md",
    "docs/saas-bench.md",
    "docs/gate.md",
    "docs/slo-engine.md",
    "docs/pipeline.md",
    "docs/architecture.md",
    "docs/calibration-format.md",
    "docs/results/README.md",
    "docs/bring-your-service.md",
    "localkube/README.md",
]
TAGS = ("bash", "shell", "text", "json", "yaml", "java", "python", "promql")
NOT_RUN = re.compile(r"^# not run here: \S.{8,}")
BLOCK_TIMEOUT_S = 900


def pages() -> list[Path]:
    return [ROOT / p for p in PAGES if (ROOT / p).exists()]


def test_every_page_with_commands_is_listed():
    listed = set(pages())
    for md in [*ROOT.glob("docs/**/*.md"), ROOT / "README.md", ROOT / "localkube/README.md"]:
        text = md.read_text()
        if md not in listed and (
            mktestdocs.grab_code_blocks(text, lang="bash")
            or mktestdocs.grab_code_blocks(text, lang="shell")
        ):
            pytest.fail(f"{md.relative_to(ROOT)} has shell blocks but is not in PAGES of this file")


@pytest.mark.parametrize("page", pages(), ids=lambda p: str(p.relative_to(ROOT)))
def test_every_fence_is_tagged(page: Path):
    text = page.read_text()
    tagged = sum(len(mktestdocs.grab_code_blocks(text, lang=tag)) for tag in TAGS)
    assert tagged == len(mktestdocs.grab_code_blocks(text, lang=None)), (
        f"{page.relative_to(ROOT)}: a fence without one of the tags {TAGS}"
        " (bash runs, shell is not run, the rest is data)"
    )


@pytest.mark.parametrize("page", pages(), ids=lambda p: str(p.relative_to(ROOT)))
def test_a_block_not_run_says_why(page: Path):
    for block in mktestdocs.grab_code_blocks(page.read_text(), lang="shell"):
        assert NOT_RUN.match(block), (
            f"{page.relative_to(ROOT)}: a `shell` block must start with"
            f" '# not run here: <reason>':\n{block[:200]}"
        )


@pytest.mark.parametrize("page", pages(), ids=lambda p: str(p.relative_to(ROOT)))
def test_relative_links_resolve(page: Path):
    for target in re.findall(r"\]\(([^)#:\s]+)(?:#[^)]*)?\)", page.read_text()):
        assert (page.parent / target).exists(), (
            f"{page.relative_to(ROOT)} links to missing {target}"
        )


def test_crd_reference_is_current():
    assert crd_reference.OUT.read_text() == crd_reference.render(crd_reference.CRD_DIR), (
        "run `make docs-reference`"
    )


# What an operator would look at when a documented command fails; printed with the failure so
# that a CI log (which keeps only the end) says why, not just which command.
DIAGNOSE = """
export KUBECONFIG=$(localkube/localkube kubeconfig)
echo '--- kubectl get sloclass,tenant -A'; kubectl get sloclass,tenant -A -o wide
echo '--- tenant conditions'; kubectl get tenant -A -o jsonpath='{range .items[*]}\
{.metadata.name}{" "}{.status.phase}{" "}{.status.conditions}{"\\n"}{end}'
echo '--- pool pods'; kubectl get pods -A -l app.kubernetes.io/managed-by=isolato -o wide
echo '--- recent events'; kubectl get events -A --sort-by=.lastTimestamp | tail -15
echo '--- controller log (make run)'
tail -40 "${ISOLATO_RUN_DIR:-/var/lib/isolato-run}/controller.log"
"""


APPLICATION_YAML = ROOT / "controller/src/main/resources/application.yaml"


def yaml_defaults(text: str) -> dict[str, str]:
    """`${VAR:default}` placeholders of a Spring YAML file, nested ones kept as written."""
    found = {}
    for m in re.finditer(r"\$\{(\w+):", text):
        depth, i = 1, m.end()
        while depth:
            depth += {"{": 1, "}": -1}.get(text[i], 0)
            i += 1
        found[m.group(1)] = text[m.end() : i - 1]
    return found


def java_duration_defaults(text: str) -> dict[str, str]:
    """`x = x == null ? Duration.ofSeconds(N)` → {"x": "Ns"} (record defaults)."""
    pattern = r"(\w+) = \1 == null \? Duration\.ofSeconds\((\d+)\)"
    return {name.lower(): f"{n}s" for name, n in re.findall(pattern, text)}


def documented_variables(page: str) -> list[tuple[str, str]]:
    """(variable, default cell) of the configuration table: `A`, `B` | a, b pair up."""
    lines = (ROOT / page).read_text().split("\n")
    start = lines.index("| variable | default | meaning |") + 2
    pairs = []
    for row in lines[start:]:
        if not row.startswith("|"):
            break
        names_cell, default_cell = (c.strip() for c in row.strip("|").split("|")[:2])
        names = re.findall(r"`([\w.-]+)`", names_cell)
        # `A_B`, `_C` → A_B, A_C; a property `a.b.c`, `.d` → a.b.c, a.b.d
        names = [names[0].rsplit(n[0], 1)[0] + n if n[0] in "_." else n for n in names]
        defaults = [d.strip() for d in default_cell.split(", ")]
        if " / " in names_cell:  # alternatives: one default
            defaults = defaults * len(names)
        assert len(names) == len(defaults), f"{page}: {row}"
        pairs += zip(names, defaults, strict=True)
    return pairs


# doc-claim: docs/operations.md: | variable | default | meaning |
def test_documented_controller_defaults_are_the_configured_ones():
    configured = yaml_defaults(APPLICATION_YAML.read_text())
    props = ROOT / "controller/src/main/java/dev/isolato/config/IsolatoProperties.java"
    durations = java_duration_defaults(props.read_text())
    unset = ("—", "fabric8 lookup")
    pairs = documented_variables("docs/operations.md")
    assert len(pairs) >= 15
    for name, doc in pairs:
        if name == "KUBECONFIG":  # fabric8's own variable, not a property of ours
            continue
        if "." in name:  # a property without a variable of its own
            node = yaml.safe_load(APPLICATION_YAML.read_text())
            for key in name.split("."):
                node = node[key]
            assert str(node) == doc, (
                f"{name}: docs/operations.md says {doc!r}, application.yaml {node!r}"
            )
            continue
        if name in configured:
            value = configured[name]
            fallback = doc.strip("`")
            assert (
                value == doc
                or (doc in unset and value == "")
                or (fallback in configured and value in ("", "${" + fallback + "}"))
                or value.startswith("${" + fallback + ":")
            ), f"{name}: docs/operations.md says {doc!r}, application.yaml {value!r}"
        else:
            key = name.removeprefix("ISOLATO_LEADERELECTION_").lower()
            code = durations.get(key)
            assert code == doc, f"{name}: documented {doc!r}, code {code!r}"


# doc-claim: docs/operations.md: (default `127.0.0.1:9090`,
def test_localkube_prometheus_scrapes_the_controllers_default_management_port():
    conf = (ROOT / "localkube/config/defaults.conf").read_text()
    target = re.search(r"^prometheus\.controller-target = (\S+)$", conf, re.M).group(1)
    assert target == "127.0.0.1:9090"
    configured = yaml_defaults(APPLICATION_YAML.read_text())
    assert configured["ISOLATO_MANAGEMENT_PORT"] == target.split(":")[1]


def run_bash(source: str) -> None:
    """mktestdocs executor: one page's blocks in one strict bash, from the repository root.

    Output is streamed (long commands show progress) and its end kept for the failure message.
    """
    print(f"[doc-test] running:\n{source}", flush=True)
    last: deque[str] = deque(maxlen=40)
    with subprocess.Popen(
        ["bash", "-euo", "pipefail", "-c", source],
        cwd=ROOT,
        stdout=subprocess.PIPE,
        stderr=subprocess.STDOUT,
        text=True,
    ) as proc:
        timer = threading.Timer(BLOCK_TIMEOUT_S, proc.kill)
        timer.start()
        try:
            for line in proc.stdout:
                print(line, end="", flush=True)
                last.append(line.rstrip("\n"))
        finally:
            timer.cancel()
        rc = proc.wait()
    if rc != 0:
        state = subprocess.run(
            ["bash", "-c", DIAGNOSE], cwd=ROOT, capture_output=True, text=True, timeout=60
        )
        pytest.fail(
            f"exit status {rc} (killed after {BLOCK_TIMEOUT_S} s if negative); the commands' last"
            f" output:\n" + "\n".join(last) + "\n--- state after the failure\n"
            f"{_tail(state.stdout + state.stderr, 120)}",
            pytrace=False,
        )


def _tail(text: str, lines: int) -> str:
    return "\n".join(text.splitlines()[-lines:])


mktestdocs.register_executor("bash", run_bash)


@pytest.fixture(scope="session")
def make_run():
    """`make run`'s script in the background until its banner is printed; stopped by PID after."""
    log = ROOT / "build" / "doc-test-make-run.log"
    log.parent.mkdir(exist_ok=True)
    with log.open("w") as out:
        proc = subprocess.Popen(
            [str(ROOT / "scripts/run.sh")],
            cwd=ROOT,
            stdout=out,
            stderr=subprocess.STDOUT,
            start_new_session=True,
        )
    deadline = time.monotonic() + 600
    while "Stop with Ctrl-C" not in log.read_text():
        if proc.poll() is not None or time.monotonic() > deadline:
            pytest.fail(f"make run did not come up:\n{log.read_text()[-3000:]}")
        time.sleep(0.5)  # polling a log file for a banner: no event to wait on
    yield log.read_text()
    proc.terminate()
    proc.wait(timeout=120)


def printed_commands(banner: str) -> str:
    """The lines `make run` tells the user to run: its `export` lines, then the examples."""
    exports = [line.split("#")[0].strip() for line in banner.splitlines() if "export " in line]
    exports = [line[line.index("export ") :] for line in exports]
    section = banner.split("send it a request:", 1)[1].split("Stop with", 1)[0]
    return "\n".join(exports + [line.strip() for line in section.strip().splitlines()])


# doc-claim: docs/operations.md: **Why host is the default**
@pytest.mark.cluster
def test_commands_make_run_prints(make_run):
    run_bash(printed_commands(make_run))


@pytest.mark.cluster
@pytest.mark.parametrize("page", pages(), ids=lambda p: str(p.relative_to(ROOT)))
def test_page_commands_run(make_run, page: Path):
    if not mktestdocs.grab_code_blocks(page.read_text(), lang="bash"):
        pytest.skip("no bash block")
    mktestdocs.check_md_file(page, memory=True, lang="bash")
