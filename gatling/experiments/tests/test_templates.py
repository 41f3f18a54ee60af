import pytest
from runner.templates import TemplateError, check, render, render_all


def test_a_whole_template_keeps_the_value_type():
    assert render("{45 * R}", {"R": 2}) == 90
    assert render("{work}", {"work": {"cpu": 0, "io": 3}}) == {"cpu": 0, "io": 3}
    assert render("{'off' if N else None}", {"N": None}) is None
    assert render("{N if N else 3}", {"N": 2}) == 2


def test_embedded_fields_are_formatted_into_text():
    assert render("acc{R}-t1,acc{R}-t2", {"R": 3}) == "acc3-t1,acc3-t2"
    assert render("mix-{G}-{B}", {"G": 1, "B": 3}) == "mix-1-3"
    assert render("{{literal}} {R}", {"R": 1}) == "{literal} 1"
    assert render("rate {R / 2}", {"R": 3}) == "rate 1.5"


def test_ids_lists_the_tenants_of_a_class():
    assert render("{ids('f3gold', G)}", {"G": 3}) == "f3gold-t1,f3gold-t2,f3gold-t3"


def test_render_all_walks_lists_and_mappings_but_not_keys():
    assert render_all({"{x}": ["{x}", 1, {"a": "{x + 1}"}]}, {"x": 1}) == {"{x}": [1, 1, {"a": 2}]}


@pytest.mark.parametrize(
    ("template", "message"),
    [
        ("{Q}", "unknown name 'Q'"),
        ("{R.__class__}", "not allowed"),
        ("{__import__('os')}", "not allowed"),
        ("{open('x')}", "not allowed"),
        ("{[R]}", "not allowed"),
        ("{R +}", "does not parse"),
    ],
)
def test_a_bad_template_is_rejected_before_use(template, message):
    with pytest.raises(TemplateError, match=message):
        check(f"a {template} b", {"R"})
