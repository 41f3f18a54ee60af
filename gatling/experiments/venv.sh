# Sourced: makes ~/.cache/isolato/venv with the pinned plotting packages (PyPI) and sets PY.
VENV="${ISOLATO_VENV:-$HOME/.cache/isolato/venv}"
REQS="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)/requirements.txt"
if [ ! -x "$VENV/bin/python" ] || ! cmp -s "$REQS" "$VENV/.requirements.txt"; then
  printf '[plots] preparing %s (%s)\n' "$VENV" "$(tr '\n' ' ' < "$REQS")" >&2
  python3 -m venv "$VENV"
  "$VENV/bin/pip" install -q --disable-pip-version-check -r "$REQS"
  cp "$REQS" "$VENV/.requirements.txt"
fi
PY="$VENV/bin/python"
