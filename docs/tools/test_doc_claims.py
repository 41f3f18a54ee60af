"""Doc claims about behaviour are backed by tests that name the doc line.

Convention: a test names the doc text it backs, quoted exactly (whitespace may differ, so a
phrase may span a line break of the page):

- Java: `@DocClaim("docs/api.md: 412 when the ETag is stale")` on the test method (repeatable;
  controller/src/test/java/dev/isolato/DocClaim.java);
- any other test source: a comment `doc-claim: docs/api.md: 412 when the ETag is stale`.

Checked here: (a) every quoted phrase is still in the page it names, so a reworded claim breaks
its test's reference; (b) every claim line of CLAIM_PAGES (outside code blocks) is named by at
least one test. A claim line states a status code, a retry or attempt count or a default
(CLAIM; headings are not claims); a phrase that quotes a table's header row claims every row
of that table.
"""

from __future__ import annotations

import re
import sys
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).parent))
from doc_facts import tracked_files

ROOT = Path(__file__).resolve().parents[2]
CLAIM_PAGES = ("docs/api.md", "docs/security.md", "docs/troubleshooting.md", "docs/operations.md")
# an HTTP status code (not a decimal like 120.0 nor a figure with a unit, 259 s), a retry or
# attempt count, a default
CLAIM = re.compile(
    r"(?<![\w.-])[245]\d\d(?![\w%]|\.\d| (?:s|ms|tenants?|pods?|req)\b)"
    r"|\bretr(?:y|ies|ied)\b|\battempts?\b|\bdefault\b(?!-)",
    re.IGNORECASE,
)
JAVA = re.compile(r'@DocClaim\(\s*"((?:[^"\\]|\\.)*)"\s*\)')
COMMENT = re.compile(r"doc-claim:\s*(.+?)\s*(?:\*/|-->)?\s*$", re.MULTILINE)
# the page's own name, ": ", the quoted text
REFERENCE = re.compile(r"^(\S+\.md): (.+)$")
SOURCES = (".java", ".py", ".sh", ".cpp", ".go", ".yaml")
# they show the convention with examples
SELF = ("docs/tools/test_doc_claims.py", "controller/src/test/java/dev/isolato/DocClaim.java")


def backing_sources() -> list[Path]:
    return [
        f
        for f in tracked_files(ROOT)
        if "test" in (rel := str(f.relative_to(ROOT))) and rel.endswith(SOURCES) and rel not in SELF
    ]


def references() -> list[tuple[str, str, str]]:
    """(source file, page, phrase) of every claim reference in the tests."""
    found = []
    for src in backing_sources():
        text = src.read_text(errors="replace")
        quoted = [re.sub(r"\\(.)", r"\1", m) for m in JAVA.findall(text)]
        for ref in quoted + COMMENT.findall(text):
            m = REFERENCE.match(ref)
            assert m, f"{src.relative_to(ROOT)}: a doc claim is '<page>.md: <phrase>', not {ref!r}"
            found.append((str(src.relative_to(ROOT)), m.group(1), m.group(2)))
    return found


def phrase_pattern(phrase: str) -> re.Pattern[str]:
    return re.compile(r"\s+".join(re.escape(w) for w in phrase.split()))


def fenced_lines(lines: list[str]) -> set[int]:
    inside, fenced = False, set()
    for i, line in enumerate(lines):
        if line.lstrip().startswith("```"):
            inside = not inside
            fenced.add(i)
        elif inside:
            fenced.add(i)
    return fenced


def table_rows(lines: list[str], header: int) -> set[int]:
    rows = set()
    for i in range(header + 1, len(lines)):
        if not lines[i].startswith("|"):
            break
        rows.add(i)
    return rows


def covered_lines(text: str, phrases: list[str]) -> set[int]:
    """0-based lines some phrase spans; a quoted table header covers its rows."""
    lines = text.split("\n")
    covered = set()
    for phrase in phrases:
        for m in phrase_pattern(phrase).finditer(text):
            first, last = text.count("\n", 0, m.start()), text.count("\n", 0, m.end())
            covered.update(range(first, last + 1))
            if (
                lines[first].startswith("|")
                and lines[first + 1 : first + 2]
                and set(lines[first + 1].replace("|", "").strip()) <= set("-: ")
            ):
                covered |= table_rows(lines, first)
    return covered


def claim_lines(text: str) -> list[int]:
    lines = text.split("\n")
    fenced = fenced_lines(lines)
    return [
        i
        for i, line in enumerate(lines)
        if i not in fenced and not line.startswith("#") and CLAIM.search(line)
    ]


def test_every_quoted_phrase_is_in_its_page():
    refs = references()
    assert refs, "no @DocClaim / doc-claim: reference found"
    stale = [
        f"{src}: {page}: {phrase!r}"
        for src, page, phrase in refs
        if not (ROOT / page).exists()
        or not phrase_pattern(phrase).search((ROOT / page).read_text())
    ]
    assert not stale, "doc claims quoting text no longer in the page:\n" + "\n".join(stale)


@pytest.mark.parametrize("page", CLAIM_PAGES)
def test_every_claim_line_is_backed_by_a_test(page: str):
    text = (ROOT / page).read_text()
    covered = covered_lines(text, [p for _, pg, p in references() if pg == page])
    lines = text.split("\n")
    unbacked = [
        f"{page}:{i + 1}: {lines[i].strip()}" for i in claim_lines(text) if i not in covered
    ]
    assert not unbacked, (
        "claim lines no test names (add @DocClaim / doc-claim: to the test that backs each,"
        " or fix the doc):\n" + "\n".join(unbacked)
    )


def test_the_claim_pattern():
    hits = ["answers **409**", "then 503", "→ 409.", "3 attempts", "retried", "(default"]
    misses = ["capacity 300.0 req/s", "port 8080", "`default-classes.yaml`", "SHA-256", "/ 100)"]
    assert all(CLAIM.search(s) for s in hits)
    assert not any(CLAIM.search(s) for s in misses)


def test_a_phrase_may_span_lines_and_a_header_claims_its_table():
    text = "a\nanswers 409 when\nit exists\n| v | default |\n|---|---|\n| X | 1 |\n\nafter 200"
    assert covered_lines(text, ["409 when it exists"]) == {1, 2}
    assert covered_lines(text, ["| v | default |"]) == {3, 4, 5}
    assert claim_lines(text) == [1, 3, 7]
