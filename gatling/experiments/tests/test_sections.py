"""The one way a generated section is written into a page (runner.sections) and where results
and plots are kept (runner.places)."""

from pathlib import Path

from runner.places import plot_dir
from runner.sections import markers, replace_section, write_section


def test_a_section_is_replaced_between_its_markers_and_nothing_else_moves():
    begin, end = markers("x")
    text = f"# B\n\n{begin}\nold\n{end}\n\n## next\n"
    assert replace_section(text, "new", "x") == f"# B\n\n{begin}\nnew\n{end}\n\n## next\n"


def test_a_page_without_the_markers_gets_the_section_appended_once(tmp_path):
    page = tmp_path / "p.md"
    page.write_text("# B\n")
    write_section(page, "one\n", "x")
    write_section(page, "two\n", "x")
    begin, end = markers("x")
    assert page.read_text() == f"# B\n\n{begin}\ntwo\n{end}\n"


def test_two_sections_keep_apart():
    text = replace_section(replace_section("# B\n", "a", "a"), "b", "b")
    assert replace_section(text, "A", "a") == text.replace("\na\n", "\nA\n")


def test_plots_of_stored_results_go_under_docs_and_any_other_stays_beside_its_data(tmp_path):
    results, plots = tmp_path / "results", tmp_path / "docs" / "results"
    (results / "verify" / "x").mkdir(parents=True)
    assert plot_dir(results / "verify" / "x", results, plots) == plots / "verify" / "x"
    assert (plots / "verify" / "x").is_dir()
    elsewhere = tmp_path / "build" / "run"
    elsewhere.mkdir(parents=True)
    assert plot_dir(elsewhere, results, plots) == elsewhere


def test_every_stored_plot_has_its_results_beside_the_docs():
    root = Path(__file__).resolve().parents[3]
    for png in (root / "docs" / "results").rglob("*.png"):
        data = root / "results" / png.parent.relative_to(root / "docs" / "results")
        assert data.is_dir(), f"{png}: no {data}"


def test_the_results_index_lists_every_experiment_folder():
    root = Path(__file__).resolve().parents[3] / "results"
    index = (root / "README.md").read_text()
    for d in sorted(p for p in root.iterdir() if p.is_dir()):
        assert f"[{d.name}/]({d.name}/)" in index, f"results/README.md does not list {d.name}/"
