from runner.__main__ import main
from runner.definition import catalogue


def test_no_name_lists_the_definitions_and_exits_2(capsys):
    assert main(["run"]) == 2
    err = capsys.readouterr().err
    assert "no experiment named" in err
    assert "usage: make experiment NAME=<name>" in err
    assert "  gold-alone " in err and "  verify         [VERIFY_REPLICAS=N]" in err
    assert "[BRONZE_PROFILE=cpu|memory|io]" in err


def test_an_unknown_name_lists_the_definitions_and_exits_2(capsys):
    assert main(["run", "gold-bronze-alone"]) == 2
    err = capsys.readouterr().err
    assert "unknown experiment 'gold-bronze-alone'" in err
    assert "  smoke " in err


def test_list_prints_one_line_per_definition(capsys):
    assert main(["list"]) == 0
    lines = capsys.readouterr().out.splitlines()
    assert len(lines) == len(catalogue())
    assert lines[0].split()[0] == "accuracy"


def test_a_bad_parameter_exits_2_before_anything_is_contacted(capsys, monkeypatch, tmp_path):
    monkeypatch.setenv("ISOLATO_RUN_DIR", str(tmp_path))  # no token there: not reached
    monkeypatch.setenv("MIX", "9")
    assert main(["run", "finding3"]) == 2
    assert "MIX must be gold:bronze pods" in capsys.readouterr().err


def test_a_missing_token_says_where_make_run_writes_it(capsys, monkeypatch, tmp_path):
    for v in ("ISOLATO_API_TOKEN", "ISOLATO_API_TOKEN_FILE", "RESULTS_DIR", "REPLACE"):
        monkeypatch.delenv(v, raising=False)
    monkeypatch.setenv("ISOLATO_RUN_DIR", str(tmp_path))
    assert main(["run", "smoke"]) == 2
    assert f"`make run` writes {tmp_path}/api-token" in capsys.readouterr().err


def test_an_unknown_command_prints_the_usage(capsys):
    assert main(["frobnicate"]) == 2
    assert "usage: runner.sh run NAME" in capsys.readouterr().err


def test_model_accuracy_names_its_instruments(capsys, monkeypatch):
    monkeypatch.setenv("INSTRUMENT", "wrk")
    assert main(["model-accuracy"]) == 2
    assert "INSTRUMENT must be gatling, openloop or both, not 'wrk'" in capsys.readouterr().err


def test_model_accuracy_with_both_fits_each_instrument_in_turn(monkeypatch, tmp_path):
    import runner.__main__ as cli

    fitted = []
    monkeypatch.setenv("INSTRUMENT", "both")
    monkeypatch.setenv("ISOLATO_API_TOKEN", "t")
    monkeypatch.setattr(cli, "model_accuracy", lambda api, d, one: fitted.append((d, one)))
    assert main(["model-accuracy", str(tmp_path)]) == 0
    assert fitted == [(tmp_path.resolve(), "gatling"), (tmp_path.resolve(), "openloop")]


def test_model_accuracy_names_each_instruments_files():
    from runner.model_accuracy import response_file

    assert response_file("gatling") == "acc.response.json"
    assert response_file("openloop") == "acc.openloop.response.json"


def test_model_accuracy_refuses_a_contaminated_run(tmp_path):
    import json

    import pytest
    from runner.model_accuracy import model_accuracy
    from runner.run import RunError

    for r in (1, 2, 3):
        (tmp_path / f"replicas-{r}").mkdir()
        status = "contaminated" if r == 3 else "clean"
        run = {"hygiene": {"status": status, "reasons": ["step 0: its 3 pods received 150/0/150"]}}
        (tmp_path / f"replicas-{r}" / f"acc{r}.json").write_text(json.dumps(run))
    with pytest.raises(RunError, match=r"acc3\.json is contaminated \(step 0: its 3 pods received"):
        model_accuracy(None, tmp_path, "gatling")  # refused before the API is called
