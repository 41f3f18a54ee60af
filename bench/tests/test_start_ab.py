"""start_ab.py on recorded start lines and Spring startup steps (make test-bench-reports)."""

import json

from isolato_bench import start_ab
from pytest import approx

LINES = [
    "plain\t1\t10.0\t9.5\t300",
    "cds-aot-c1\t1\t2.0\t1.8\t250",
    "cds-aot-c1@base\t1\t3.0\t2.7\t251",
    "plain\t2\t12.0\t?\t310",
    "cds-aot-c1\t2\t2.5\t2.2\t249",
    "cds-aot-c1@base\t2\t3.5\t3.1\t250",
    "[start-ab] a log line",
    "nosuch\t1\t1.0\t1.0\t1",
]


def test_parse_keeps_known_variants_and_their_base():
    runs = start_ab.parse(LINES)
    assert set(runs) == {"plain", "cds-aot-c1", "cds-aot-c1@base"}
    assert runs["plain"][1] == (12.0, None, 310.0)


def test_table_ratios_to_plain_the_base_before_its_variant():
    rows = start_ab.table(start_ab.parse(LINES))
    body = rows[2:]
    assert body[0].startswith("| plain: ")
    assert body[1].startswith("| cds-aot-c1@base |") and "| 3.25 | 0.30 |" in body[1]
    assert body[2].startswith("| cds-aot-c1: ") and "| 2.25 | 0.20 |" in body[2]


def test_without_plain_the_base_is_the_reference():
    runs = start_ab.parse(line for line in LINES if not line.startswith("plain"))
    rows = start_ab.table(runs)
    assert "ratio to cds-aot-c1@base" in rows[0]
    assert "| 2.25 | 0.69 |" in rows[3]


def doc(operator_ms):
    """A steps file: 100 ms JVM before Spring, a refresh of 1,000 ms with two beans (one
    created inside the other), a bootstrap step and the operator's start."""
    steps = [
        {
            "id": 1,
            "parentId": None,
            "name": "spring.context.refresh",
            "tags": {},
            "startMs": 1100,
            "durationMs": 1000.0,
        },
        {
            "id": 2,
            "parentId": 1,
            "name": "spring.beans.instantiate",
            "tags": {"beanName": "outer"},
            "startMs": 1100,
            "durationMs": 300.0,
        },
        {
            "id": 3,
            "parentId": 2,
            "name": "spring.beans.instantiate",
            "tags": {"beanName": "inner"},
            "startMs": 1150,
            "durationMs": 200.0,
        },
        {
            "id": 4,
            "parentId": 1,
            "name": "isolato.operator-start",
            "tags": {},
            "startMs": 1500,
            "durationMs": operator_ms,
        },
        {
            "id": 5,
            "parentId": None,
            "name": "spring.boot.application.ready",
            "tags": {},
            "startMs": 2100,
            "durationMs": 10.0,
        },
    ]
    return {"jvmStartMs": 1000, "springStartMs": 1100, "readyMs": 2150, "steps": steps}


def test_phases_split_the_refresh():
    p = start_ab.phases(doc(400.0))
    assert p["JVM start → Spring's first step"] == 100
    assert p["refresh: bean creation"] == 300  # the outer bean holds the inner one
    assert p["refresh: isolato.operator-start"] == 400
    assert p["refresh: the rest (bean factory set-up, web servers' start, lifecycle)"] == 300
    assert p["last step → ready written"] == 40
    assert p["between Spring's steps (banner, context creation)"] == 0
    assert p["JVM start → ready"] == 1150


def test_bean_self_time_leaves_out_nested_beans():
    assert start_ab.bean_self_ms(doc(0.0)) == {"outer": approx(100.0), "inner": approx(200.0)}


def test_steps_table_from_files(tmp_path):
    (tmp_path / "cds-aot-c1-1.json").write_text(json.dumps(doc(100.0)))
    (tmp_path / "cds-aot-c1@base-1.json").write_text(json.dumps(doc(500.0)))
    docs = start_ab.read_steps(tmp_path)
    assert list(docs) == ["cds-aot-c1@base", "cds-aot-c1"]
    rows = start_ab.steps_table(docs)
    assert "| refresh: isolato.operator-start | 500 | 100 |" in rows
    assert "| inner | 200 |" in rows


def test_condensed_keeps_phases_and_beans():
    c = start_ab.condensed({"cds-aot-c1": [doc(100.0)]}, top=1)
    assert c["cds-aot-c1"][0]["beans"] == {"inner": approx(200.0)}
    assert c["cds-aot-c1"][0]["phases"]["JVM start → ready"] == 1150
