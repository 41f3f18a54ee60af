"""What the pages name exists: paths, make targets, CRD fields, variables, RBAC rules, defaults;
and they point at nothing a reader of the repository cannot open (tracker numbers, outside links).

The finders live in doc_facts.py; each is also tested here on a small text with a planted fault,
so a finder that stops finding fails its own test, not only silently passes the pages.
"""

from __future__ import annotations

import re
import sys
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).parent))
sys.path.insert(0, str(Path(__file__).resolve().parents[2] / "helm" / "tools"))
import doc_facts as facts
import values_doc

ROOT = facts.ROOT
# Every page a user reads: the docs, the results' pages and the index of the raw results.
# The runs' own READMEs (results/<experiment>/…, written by the runs) and CHANGELOG.md (a
# history) are left out.
PAGES = sorted(
    [
        ROOT / "README.md",
        ROOT / "localkube/README.md",
        *ROOT.glob("docs/*.md"),
        *ROOT.glob("docs/results/*.md"),
        ROOT / "docs/reference/crds.md",
        ROOT / "results/README.md",
    ]
)
# Pages whose `spec.…` / `status.…` are an SloClass's or a Tenant's (autoscaling.md and the
# pipeline pages name Deployments' and pods' fields too).
FIELD_PAGES = [
    ROOT / "docs" / p
    for p in (
        "api.md",
        "concepts.md",
        "slo-engine.md",
        "security.md",
        "troubleshooting.md",
        "operations.md",
        "architecture.md",
        "install.md",
        "gatling.md",
        "calibration-format.md",
        "reference/crds.md",
    )
]
APPLICATION_YAML = ROOT / "controller/src/main/resources/application.yaml"


def ids(page: Path) -> str:
    return str(page.relative_to(ROOT))


@pytest.fixture(scope="module")
def targets() -> set[str]:
    return facts.make_targets()


@pytest.fixture(scope="module")
def variables() -> set[str]:
    return facts.code_variables(facts.tracked_files()) | facts.relaxed_variables(APPLICATION_YAML)


@pytest.mark.parametrize("page", PAGES, ids=ids)
def test_named_paths_exist(page: Path):
    missing = facts.missing_paths(page.read_text(), dated=ids(page) in facts.DATED_PAGES)
    assert not missing, f"{ids(page)} names missing paths: {missing}"


@pytest.mark.parametrize("page", PAGES, ids=ids)
def test_named_make_targets_exist(page: Path, targets: set[str]):
    unknown = facts.unknown_make_targets(page.read_text(), targets)
    assert not unknown, f"{ids(page)}: `make` targets no Makefile defines: {unknown}"


@pytest.mark.parametrize("page", [p for p in FIELD_PAGES if p.exists()], ids=ids)
def test_named_fields_are_in_the_crds(page: Path):
    unknown = facts.unknown_fields(
        page.read_text(), facts.crd_fields(facts.ROOT / "helm/isolato/crds")
    )
    assert not unknown, f"{ids(page)}: fields no SloClass or Tenant CRD has: {unknown}"


@pytest.mark.parametrize("page", PAGES, ids=ids)
def test_named_variables_are_read(page: Path, variables: set[str]):
    unknown = facts.unknown_variables(page.read_text(), variables)
    assert not unknown, f"{ids(page)}: variables nothing reads: {unknown}"


@pytest.mark.parametrize("page", PAGES, ids=ids)
def test_listed_members_are_the_crds(page: Path):
    fields = facts.crd_fields(ROOT / "helm/isolato/crds")
    wrong = facts.listed_members(page.read_text(), fields)
    assert not wrong, f"{ids(page)}: member lists that are not the CRD's: {wrong}"


@pytest.mark.parametrize("page", PAGES, ids=ids)
def test_link_anchors_are_headings(page: Path):
    broken = facts.broken_anchors(page.read_text(), page)
    assert not broken, f"{ids(page)}: links to anchors no heading has: {broken}"


@pytest.mark.parametrize("page", PAGES, ids=ids)
def test_no_tracker_numbers(page: Path):
    found = facts.tracker_numbers(page.read_text())
    assert not found, f"{ids(page)}: internal issue numbers a reader cannot open: {found}"


@pytest.mark.parametrize("page", PAGES, ids=ids)
def test_no_links_outside_the_repository(page: Path):
    found = facts.outside_urls(page.read_text()) + facts.paths_outside(page.read_text(), page)
    assert not found, (
        f"{ids(page)}: addresses outside the repository (or add one to ALLOWED_URLS with why):"
        f" {found}"
    )


def test_install_rbac_table_is_the_charts_rules():
    chart = facts.rbac_rules(ROOT / "helm/isolato/templates/rbac.yaml")
    doc = facts.rbac_table((ROOT / "docs/install.md").read_text())
    assert chart == doc, (
        f"only in rbac.yaml: {sorted(chart - doc)}; only in install.md: {sorted(doc - chart)}"
    )


def test_install_names_what_the_chart_creates_and_what_uninstall_removes():
    kinds, kept = facts.chart_kinds(ROOT / "helm/isolato/templates")
    text = (ROOT / "docs/install.md").read_text()
    runs = facts.paragraph(text, "What runs:")
    removes = facts.paragraph(text, "Removes the")
    assert not facts.unnamed(kinds, runs), f"'What runs' omits {facts.unnamed(kinds, runs)}"
    left = facts.unnamed(kinds - kept, removes.split("**Kept**")[0])
    assert not left, f"the uninstall list omits {left}"


def test_install_values_table_is_current_with_values_yaml_defaults():
    text = (ROOT / "docs/install.md").read_text()
    assert values_doc.table() in text, "run `make helm-docs`"
    # every value values.yaml sets shows as its default
    shown = facts.values_table_defaults(text)
    leaves = facts.values_leaves(ROOT / "helm/isolato/values.yaml")
    blank = sorted(key for key in leaves if not shown.get(key))
    assert not blank, f"values.yaml sets these, the table shows no default: {blank}"


def test_benchmarks_opens_with_a_short_current_table():
    text = (ROOT / "docs/BENCHMARKS.md").read_text()
    assert len(text.splitlines()) <= 150
    first_table = next(line for line in text.splitlines() if line.startswith("|"))
    assert "current figure" in first_table
    assert (ROOT / "docs/benchmarks-log.md").exists()


def test_readme_states_the_first_runs_measured_duration():
    readme = (ROOT / "README.md").read_text()
    row = next(
        line
        for line in (ROOT / "docs/BENCHMARKS.md").read_text().splitlines()
        if line.startswith("| first start |")
    )
    minutes = re.search(r"\| (\d+) min", row).group(1)
    assert re.search(rf"\b{minutes} min\b", readme), (
        f"README does not state the first run's {minutes} min of BENCHMARKS.md"
    )


# --- the finders themselves -------------------------------------------------------------------


def test_missing_paths_finds_a_wrong_path_only(tmp_path: Path):
    (tmp_path / "helm/test").mkdir(parents=True)
    (tmp_path / "helm/test/lib.sh").write_text("")
    text = (
        "built by helm/test/images.sh, see `helm/test/lib.sh`, out: controller/target/x.jar;"
        " helm/test/l*.sh, helm/test/x*.sh"
    )
    assert facts.missing_paths(text, tmp_path) == ["helm/test/images.sh", "helm/test/x*.sh"]


def test_missing_paths_leaves_link_targets_to_their_page(tmp_path: Path):
    # relative to docs/, the link names docs/results/x.png; paths_outside checks it there
    text = "plot: [x.png](results/x.png), data in results/x.json"
    assert facts.missing_paths(text, tmp_path) == ["results/x.json"]


def test_a_dated_page_may_name_a_moved_folder_only(tmp_path: Path):
    text = "ran `controller/bench/tenants-bench.sh 50 2`, then helm/gone.sh"
    assert facts.missing_paths(text, tmp_path) == [
        "controller/bench/tenants-bench.sh",
        "helm/gone.sh",
    ]
    assert facts.missing_paths(text, tmp_path, dated=True) == ["helm/gone.sh"]


def test_make_targets_are_read_from_every_part(tmp_path: Path):
    (tmp_path / "Makefile").write_text("run: build ## x\nA := 1\n.PHONY: a\n")
    (tmp_path / "docs").mkdir()
    (tmp_path / "docs/part.mk").write_text("test-docs test-docs-static: x\n")
    found = facts.make_targets(tmp_path)
    assert {"run", "test-docs", "test-docs-static"} <= found and "A" not in found
    text = "`make run` then `make test-docs`; make sure to `make helm-docz`\n  make tunee"
    text += ", `make test-*` (a family)"
    assert facts.unknown_make_targets(text, found) == ["helm-docz", "tunee"]


def test_unknown_fields_names_a_field_no_crd_has():
    fields = {"spec", "spec.pivotPercent", "status", "status.model", "status.model.theta"}
    fields |= {"status.tenants", "status.tenants.*"}
    text = "`spec.pivotPercent`, `status.model.theta`, `status.tenants.acme`, `spec.pivotPct`"
    assert facts.unknown_fields(text, fields) == ["spec.pivotPct"]


def test_tracker_numbers_outside_code_blocks():
    text = "Issue 12: the leader; see #35.\n```text\nissue 3 in a log\n```\n&#35; is an entity"
    assert facts.tracker_numbers(text) == ["#35", "Issue 12"]


def test_outside_urls_keep_loopback_cluster_and_allowed_ones():
    text = (
        "http://127.0.0.1:8080/x, http://$API/v1, http://10.96.0.50:8080, <https://example.org/a>,"
        " [paper](https://doi.org/10.1/x). http://prometheus.monitoring:9090"
    )
    assert facts.outside_urls(text) == ["https://doi.org/10.1/x", "https://example.org/a"]


def test_paths_outside_the_repository(tmp_path: Path):
    (tmp_path / "docs").mkdir()
    (tmp_path / "docs/api.md").write_text("")
    page = tmp_path / "docs/page.md"
    text = "[api](api.md), the paper `../shared/papers/x`, [up](../../etc/passwd), `/x/../api`"
    assert facts.paths_outside(text, page, tmp_path) == ["../../etc/passwd", "../shared/papers/x"]


def test_rbac_table_reads_roles_and_cluster_roles():
    text = (
        "| API group | resources | verbs | why |\n|---|---|---|---|\n"
        '| "" | pods (Role: release namespace only) | get patch | x |\n'
        "| apps | deployments, deployments/scale | get | y |\n\nafter"
    )
    assert facts.rbac_table(text) == {
        ("Role", "/pods", "get patch"),
        ("ClusterRole", "apps/deployments", "get"),
        ("ClusterRole", "apps/deployments/scale", "get"),
    }


def test_chart_kinds_and_the_names_a_text_omits(tmp_path: Path):
    (tmp_path / "a.yaml").write_text(
        "kind: Role\n---\nkind: Secret\nmetadata:\n  annotations:\n"
        "    helm.sh/resource-policy: keep\n"
    )
    assert facts.chart_kinds(tmp_path) == ({"Role", "Secret"}, {"Secret"})
    assert facts.unnamed({"Role", "RoleBinding"}, "the ClusterRoleBinding and Role") == [
        "RoleBinding"
    ]


def test_listed_members_finds_a_member_left_out():
    fields = {"status.model", "status.model.form", "status.model.theta", "status.model.sigma"}
    text = "stores `model` {form, sigma | theta}; and `model` {form,\n sigma}; `plan` {x}"
    assert facts.listed_members(text, fields) == ["status.model: missing ['theta'], unknown []"]


def test_broken_anchors_follow_githubs_slugs(tmp_path: Path):
    (tmp_path / "api.md").write_text(
        "# API\n## Calibration and plans ([engine](e.md#rest))\n## `make run`: host\n## A\n## A\n"
    )
    page = tmp_path / "page.md"
    page.write_text("# Page\n")
    text = (
        "[a](api.md#calibration-and-plans-engine) [b](api.md#make-run-host) [c](api.md#a-1)"
        " [d](#page) [e](api.md#gone) [f](#nowhere) `[g](api.md#code)`"
    )
    assert facts.broken_anchors(text, page) == ["#nowhere", "api.md#gone"]


def test_relaxed_variables_follow_spring(tmp_path: Path):
    app = tmp_path / "application.yaml"
    app.write_text("isolato:\n  profiler:\n    aggressive-above: 1.1\n  port: 1\n")
    assert facts.relaxed_variables(app) == {"ISOLATO_PROFILER_AGGRESSIVEABOVE", "ISOLATO_PORT"}
