#!/usr/bin/env bash
# usage: gatling/experiments/runner.sh run NAME | list | model-accuracy [DIR]
# The experiment runner (Python, gatling/experiments/runner/) in its pinned venv; see
# `runner.sh` without arguments and docs/gatling.md.
set -euo pipefail
HERE="$(cd "$(dirname "$0")" && pwd)"
# shellcheck source=venv.sh
source "$HERE/venv.sh"
PYTHONPATH="$HERE${PYTHONPATH:+:$PYTHONPATH}" exec "$PY" -m runner "$@"
