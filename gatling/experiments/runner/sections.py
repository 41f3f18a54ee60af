"""How a generated section is written into a Markdown page (docs/benchmarks-log.md, the results'
pages): one way for the runner's reports and the bench tool alike.

A section lives between `<!-- KEY:begin -->` and `<!-- KEY:end -->`; writing it again replaces
what lies between the markers, and a page without them gets the section appended with its
markers, so a rerun updates its figures in place instead of adding another copy.
"""

from __future__ import annotations

import os
import platform
import re
import time
from pathlib import Path


def markers(key: str) -> tuple[str, str]:
    return f"<!-- {key}:begin -->", f"<!-- {key}:end -->"


def replace_section(text: str, section: str, key: str) -> str:
    """`text` with the section KEY replaced by `section` (appended with its markers if absent)."""
    begin, end = markers(key)
    block = f"{begin}\n{section.strip(chr(10))}\n{end}"
    if begin in text and end in text:
        return re.sub(re.escape(begin) + r".*?" + re.escape(end), lambda _: block, text, flags=re.S)
    return text.rstrip("\n") + "\n\n" + block + "\n"


def write_section(page: Path, section: str, key: str) -> None:
    """Writes the section KEY into `page` (created if missing)."""
    text = page.read_text() if page.exists() else ""
    page.write_text(replace_section(text, section, key))


def load_average() -> str:
    """The 1, 5 and 15 minute load averages, as /proc/loadavg gives them ("0.12 0.30 0.41")."""
    return " ".join(f"{x:.2f}" for x in os.getloadavg())


def cpu_model() -> str:
    try:
        lines = Path("/proc/cpuinfo").read_text().splitlines()
    except OSError:
        return platform.processor() or "?"
    return next((ln.split(":", 1)[1].strip() for ln in lines if ln.startswith("model name")), "?")


def machine() -> str:
    """The machine a benchmark ran on: host, cores, CPU model."""
    return f"{platform.node()}, {os.cpu_count()} cores, {cpu_model()}"


def host_line() -> str:
    """When and where a benchmark section was measured (UTC time, host, CPUs, load)."""
    return (
        f"{time.strftime('%Y-%m-%d %H:%M UTC', time.gmtime())}, {platform.node()},"
        f" {os.cpu_count()} CPUs, load average {os.getloadavg()[0]:.2f} at the end"
    )
