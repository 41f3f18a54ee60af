"""The clang-tidy cache's key: it must change with anything the verdict depends on (a header, a
NOLINT comment, a flag) and must not change with the clone's own path."""

from __future__ import annotations

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).parent))
from tidy_cached import key

TOOL = b"clang-tidy version x"


def clone(at: Path, header: str = "int f();\n", body: str = "int g() { return f(); }\n") -> dict:
    (at / "src").mkdir(parents=True)
    (at / ".clang-tidy").write_text("Checks: -*,bugprone-*\n")
    (at / "src/h.hpp").write_text(header)
    (at / "src/u.cpp").write_text('#include "h.hpp"\n' + body)
    unit = at / "src/u.cpp"
    return {
        "directory": str(at),
        "command": f"c++ -I{at}/src -std=c++20 -o u.o -c {unit}",
        "file": str(unit),
    }


# doc-claim: docs/saas-bench.md: with the same preprocessed text (comments kept)
def test_the_same_sources_in_another_clone_have_the_same_key(tmp_path):
    a, b = tmp_path / "a", tmp_path / "clone-elsewhere"
    assert key(clone(a), TOOL, a) == key(clone(b), TOOL, b)


def test_a_changed_header_is_a_new_key(tmp_path):
    a, b = tmp_path / "a", tmp_path / "b"
    assert key(clone(a), TOOL, a) != key(clone(b, header="long f();\n"), TOOL, b)


# doc-claim: docs/saas-bench.md: is not tidied again, in any clone
def test_a_removed_nolint_comment_is_a_new_key(tmp_path):
    a, b = tmp_path / "a", tmp_path / "b"
    nolint = "int g() { return f(); }  // NOLINT(bugprone-x)\n"
    assert key(clone(a, body=nolint), TOOL, a) != key(clone(b), TOOL, b)


def test_other_flags_or_another_clang_tidy_are_a_new_key(tmp_path):
    a = tmp_path / "a"
    entry = clone(a)
    other = dict(entry, command=entry["command"].replace("-std=c++20", "-std=c++20 -DX=1"))
    assert key(entry, TOOL, a) != key(other, TOOL, a)
    assert key(entry, TOOL, a) != key(entry, b"clang-tidy version y", a)


def test_a_ccache_launcher_is_not_part_of_the_key(tmp_path):
    a = tmp_path / "a"
    entry = clone(a)
    launched = dict(entry, command="/usr/bin/ccache " + entry["command"])
    assert key(entry, TOOL, a) == key(launched, TOOL, a)
