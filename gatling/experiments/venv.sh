# Sourced: makes ~/.cache/isolato/venv (ISOLATO_VENV) with the pinned packages of the runner,
# the plots and their checks (requirements*.txt, from PyPI) and sets PY.
# shellcheck shell=bash
# shellcheck disable=SC2034 # PY is read by the script that sources this file
VENV="${ISOLATO_VENV:-$HOME/.cache/isolato/venv}"
REQS_DIR="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
if [ ! -x "$VENV/bin/python" ] \
  || ! cat "$REQS_DIR"/requirements*.txt | cmp -s - "$VENV/.requirements.txt"; then
  printf '[venv] preparing %s (%s)\n' "$VENV" "$(cat "$REQS_DIR"/requirements*.txt | tr '\n' ' ')" >&2
  python3 -m venv "$VENV"
  "$VENV/bin/pip" install -q --disable-pip-version-check \
    -r "$REQS_DIR/requirements.txt" -r "$REQS_DIR/requirements-dev.txt"
  cat "$REQS_DIR"/requirements*.txt > "$VENV/.requirements.txt"
fi
PY="$VENV/bin/python"
