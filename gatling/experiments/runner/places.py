"""Where results and their plots live, one definition for the experiment runner, its report
scripts and the bench tool (bench/isolato_bench).

Raw results (runs, answers, analyses, logs) are kept under results/<experiment>/ (its README.md
is the index); the plots the pages show are kept under docs/results/<experiment>/, the same
relative path, so a page links its figures inside docs/ and its data in results/.
"""

from __future__ import annotations

from pathlib import Path

REPO_ROOT = Path(__file__).resolve().parents[3]
RESULTS = REPO_ROOT / "results"
PLOTS = REPO_ROOT / "docs" / "results"
BENCHMARK_LOG = REPO_ROOT / "docs" / "benchmarks-log.md"


def plot_dir(data_dir: Path, results: Path = RESULTS, plots: Path = PLOTS) -> Path:
    """The directory for the plots of the results in `data_dir` (created): its twin under
    docs/results/ for stored results, `data_dir` itself for any other (a build/ run, a test's
    temporary directory), so a run outside the repository's results keeps its plots with it."""
    try:
        rel = data_dir.resolve().relative_to(results.resolve())
    except ValueError:
        out = data_dir
    else:
        out = plots / rel
    out.mkdir(parents=True, exist_ok=True)
    return out


def plot_path(data_file: Path, suffix: str = ".png") -> Path:
    """The plot of one data file (`x.json` → `x.png`), in its directory's plot_dir."""
    return plot_dir(data_file.parent) / data_file.with_suffix(suffix).name
