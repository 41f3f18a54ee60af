# Sourced with a requirements file: makes (or reuses) a virtualenv under ~/.cache/isolato/venvs
# holding exactly those pinned PyPI packages, and sets PY to its python.
#   source scripts/venv.sh path/to/requirements.txt
_reqs=$(cd "$(dirname "$1")" && pwd)/$(basename "$1")
VENV="${ISOLATO_VENV_ROOT:-$HOME/.cache/isolato/venvs}/$(sha256sum "$_reqs" | cut -c1-12)"
# .complete is written last: an interrupted install is redone, not half-used.
if [ ! -f "$VENV/.complete" ]; then
  printf '[venv] preparing %s (%s)\n' "$VENV" "$(grep -v '^#' "$_reqs" | tr '\n' ' ')" >&2
  rm -rf "$VENV"
  python3 -m venv "$VENV"
  "$VENV/bin/pip" install -q --disable-pip-version-check -r "$_reqs"
  touch "$VENV/.complete"
fi
PY="$VENV/bin/python"
unset _reqs
