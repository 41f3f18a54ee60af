"""Where a run's API, token, cluster and results are: the environment, else what `make run` wrote.

scripts/run.sh keeps its state in ISOLATO_RUN_DIR (default /var/lib/isolato-run): the bearer
token in api-token and the API's URL in api-url. An explicit ISOLATO_API_URL,
ISOLATO_API_TOKEN or ISOLATO_API_TOKEN_FILE wins (the e2e test and session.sh start their own
controller and set them). The cluster is `make run`'s, localkube's, unless ISOLATO_KUBECONFIG
names another: an ambient KUBECONFIG, set for other work, never sends load elsewhere.
"""

from __future__ import annotations

import re
import subprocess
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from pathlib import Path, PurePosixPath

DEFAULT_RUN_DIR = "/var/lib/isolato-run"


class SettingsError(ValueError):
    """A setting that is missing or unusable; the message says what to do."""


@dataclass(frozen=True)
class ApiSettings:
    url: str
    token: str
    source: str  # where they came from, for the log


def _read(path: Path, what: str) -> str:
    try:
        value = path.read_text().strip()
    except OSError as e:
        raise SettingsError(f"cannot read {what} {path}: {e.strerror}") from None
    if not value:
        raise SettingsError(f"{what} {path} is empty")
    return value


def api_settings(environ: Mapping[str, str]) -> ApiSettings:
    """The API's URL and token: ISOLATO_API_URL/_TOKEN/_TOKEN_FILE, else `make run`'s files."""
    run_dir = Path(environ.get("ISOLATO_RUN_DIR") or DEFAULT_RUN_DIR)
    url_file, token_file = run_dir / "api-url", run_dir / "api-token"
    sources = []
    if environ.get("ISOLATO_API_TOKEN"):
        token, sources = environ["ISOLATO_API_TOKEN"], ["ISOLATO_API_TOKEN"]
    elif environ.get("ISOLATO_API_TOKEN_FILE"):
        token = _read(Path(environ["ISOLATO_API_TOKEN_FILE"]), "ISOLATO_API_TOKEN_FILE")
        sources = ["ISOLATO_API_TOKEN_FILE"]
    elif token_file.exists():
        token, sources = _read(token_file, "the token file"), [str(token_file)]
    else:
        raise SettingsError(
            f"no API token: `make run` writes {token_file} (is it up? ISOLATO_RUN_DIR if it "
            "uses another directory), or set ISOLATO_API_TOKEN or ISOLATO_API_TOKEN_FILE"
        )
    if environ.get("ISOLATO_API_URL"):
        url = environ["ISOLATO_API_URL"]
        sources.append("ISOLATO_API_URL")
    elif url_file.exists():
        url = _read(url_file, "the API URL file")
        sources.append(str(url_file))
    else:  # a `make run` from before api-url was written: its default port
        url = f"http://127.0.0.1:{environ.get('ISOLATO_PORT') or 8080}"
        sources.append("default URL")
    if not re.match(r"^https?://[^/\s]+", url):
        raise SettingsError(f"the API URL '{url}' ({sources[-1]}) is not an http(s) URL")
    return ApiSettings(url.rstrip("/"), token, " + ".join(sources))


@dataclass(frozen=True)
class ClusterSettings:
    kubeconfig: str
    note: str | None  # an ambient KUBECONFIG left aside, for the log


def localkube_kubeconfig(repo_root: Path) -> str:
    """`localkube kubeconfig`: the path `make run` exports."""
    lk = repo_root / "localkube" / "localkube"
    done = subprocess.run([str(lk), "kubeconfig"], capture_output=True, text=True)
    if done.returncode != 0:
        raise SettingsError(f"`localkube kubeconfig` failed: {done.stderr.strip()}")
    return done.stdout.strip()


def cluster_settings(environ: Mapping[str, str], localkube: Callable[[], str]) -> ClusterSettings:
    """The kubeconfig of the cluster the experiment loads: ISOLATO_KUBECONFIG, else localkube's
    (`make run`'s). KUBECONFIG is not read: it may point at any cluster the user works on."""
    if environ.get("ISOLATO_KUBECONFIG"):
        path = environ["ISOLATO_KUBECONFIG"]
        if not Path(path).is_file():
            raise SettingsError(f"ISOLATO_KUBECONFIG {path} is not a file")
        return ClusterSettings(path, None)
    path = localkube()
    ambient = environ.get("KUBECONFIG")
    note = (
        f"KUBECONFIG={ambient} left aside: the experiment runs on localkube, where `make run` is"
        " (ISOLATO_KUBECONFIG names another cluster)"
        if ambient and ambient != path
        else None
    )
    return ClusterSettings(path, note)


def results_dir(
    environ: Mapping[str, str], repo_root: Path, results: PurePosixPath, run_id: str
) -> tuple[Path, bool]:
    """Where a run writes, and whether that replaces the stored results.

    RESULTS_DIR: that directory. REPLACE=1: the stored results/<results>/ (files of the
    same name are overwritten). Otherwise a new build/experiments/<results>/<run_id>/, so a run
    never changes the tracked results unless asked to.
    """
    replace = environ.get("REPLACE", "")
    if replace not in ("", "0", "1"):
        raise SettingsError(
            f"REPLACE must be 1 (replace the stored results) or unset, not '{replace}'"
        )
    if environ.get("RESULTS_DIR"):
        if replace == "1":
            raise SettingsError("set RESULTS_DIR or REPLACE=1, not both")
        return Path(environ["RESULTS_DIR"]), False
    if replace == "1":
        return repo_root / "results" / results, True
    path = repo_root / "build" / "experiments" / results / run_id
    if path.exists():
        raise SettingsError(f"{path} exists already; a new run needs a new directory")
    return path, False
