from pathlib import Path, PurePosixPath

import pytest
from runner.settings import SettingsError, api_settings, cluster_settings, results_dir


def test_make_runs_files_are_enough(tmp_path):
    (tmp_path / "api-token").write_text("s3cret\n")
    (tmp_path / "api-url").write_text("http://127.0.0.1:8181\n")
    s = api_settings({"ISOLATO_RUN_DIR": str(tmp_path)})
    assert (s.url, s.token) == ("http://127.0.0.1:8181", "s3cret")
    assert str(tmp_path / "api-token") in s.source


def test_without_api_url_file_the_default_port(tmp_path):
    (tmp_path / "api-token").write_text("t")
    s = api_settings({"ISOLATO_RUN_DIR": str(tmp_path), "ISOLATO_PORT": "9090"})
    assert s.url == "http://127.0.0.1:9090"


def test_the_environment_wins(tmp_path):
    (tmp_path / "api-token").write_text("from-run")
    token_file = tmp_path / "other"
    token_file.write_text("from-file")
    env = {"ISOLATO_RUN_DIR": str(tmp_path), "ISOLATO_API_URL": "http://h:1/"}
    assert api_settings({**env, "ISOLATO_API_TOKEN_FILE": str(token_file)}).token == "from-file"
    s = api_settings({**env, "ISOLATO_API_TOKEN": "direct"})
    assert (s.url, s.token) == ("http://h:1", "direct")


def test_no_token_says_where_make_run_writes_it(tmp_path):
    with pytest.raises(SettingsError, match=f"`make run` writes {tmp_path}/api-token"):
        api_settings({"ISOLATO_RUN_DIR": str(tmp_path)})


@pytest.mark.parametrize(
    ("files", "message"),
    [
        ({"api-token": ""}, "is empty"),
        ({"api-token": "t", "api-url": "127.0.0.1:8080"}, "is not an http"),
    ],
)
def test_unusable_files_are_errors(tmp_path, files, message):
    for name, text in files.items():
        (tmp_path / name).write_text(text)
    with pytest.raises(SettingsError, match=message):
        api_settings({"ISOLATO_RUN_DIR": str(tmp_path)})


RESULTS = PurePosixPath("verify/latest")


def test_a_run_writes_a_new_directory_by_default(tmp_path):
    path, replaces = results_dir({}, tmp_path, RESULTS, "verify-20260101T000000Z")
    assert path == tmp_path / "build/experiments/verify/latest/verify-20260101T000000Z"
    assert not replaces
    path.mkdir(parents=True)
    with pytest.raises(SettingsError, match="exists already"):
        results_dir({}, tmp_path, RESULTS, "verify-20260101T000000Z")


def test_replace_writes_the_stored_results(tmp_path):
    path, replaces = results_dir({"REPLACE": "1"}, tmp_path, RESULTS, "r")
    assert (path, replaces) == (tmp_path / "results/verify/latest", True)


def test_results_dir_is_taken_as_given(tmp_path):
    assert results_dir({"RESULTS_DIR": "/tmp/x"}, tmp_path, RESULTS, "r") == (Path("/tmp/x"), False)


@pytest.mark.parametrize(
    ("env", "message"),
    [
        ({"REPLACE": "yes"}, "REPLACE must be 1"),
        ({"REPLACE": "1", "RESULTS_DIR": "/x"}, "not both"),
    ],
)
def test_ambiguous_result_settings_are_refused(tmp_path, env, message):
    with pytest.raises(SettingsError, match=message):
        results_dir(env, tmp_path, RESULTS, "r")


def test_the_cluster_is_localkubes_whatever_kubeconfig_says(tmp_path):
    c = cluster_settings({"KUBECONFIG": "/home/me/.kube/prod"}, lambda: "/lk/admin.kubeconfig")
    assert c.kubeconfig == "/lk/admin.kubeconfig"
    assert "KUBECONFIG=/home/me/.kube/prod left aside" in c.note
    same = cluster_settings({"KUBECONFIG": "/lk/admin.kubeconfig"}, lambda: "/lk/admin.kubeconfig")
    assert same.note is None


def test_another_cluster_is_named_explicitly_and_must_exist(tmp_path):
    config = tmp_path / "other.kubeconfig"
    config.write_text("apiVersion: v1\n")

    def unused():
        raise AssertionError("localkube is not asked when ISOLATO_KUBECONFIG is set")

    c = cluster_settings({"ISOLATO_KUBECONFIG": str(config), "KUBECONFIG": "/x"}, unused)
    assert (c.kubeconfig, c.note) == (str(config), None)
    with pytest.raises(SettingsError, match=r"ISOLATO_KUBECONFIG .*missing is not a file"):
        cluster_settings({"ISOLATO_KUBECONFIG": str(tmp_path / "missing")}, unused)
