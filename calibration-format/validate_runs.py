"""Checks calibration run files against the format's JSON schema (JSON Schema 2020-12).

Usage: validate_runs.py FILE... — prints every violation as `FILE: path: message` and exits 1
if there is any. The schema, docs/schemas/calibration-run.schema.json, is checked against the
Java records (calibration-format/, CalibrationSchemaTest); this lets the producers written in
other languages (the Gatling output seen from a script, the Go open-loop generator, the
experiment runner's stored runs) be held to the same definition.
"""

from __future__ import annotations

import json
import sys
from pathlib import Path

from jsonschema import Draft202012Validator

SCHEMA = Path(__file__).resolve().parent.parent / "docs" / "schemas" / "calibration-run.schema.json"


def validator() -> Draft202012Validator:
    schema = json.loads(SCHEMA.read_text())
    Draft202012Validator.check_schema(schema)
    return Draft202012Validator(schema)


def violations(run: object) -> list[str]:
    """Every violation of `run` (parsed JSON), as `path: message`; empty when valid."""
    return [
        f"{e.json_path}: {e.message}"
        for e in sorted(validator().iter_errors(run), key=lambda e: e.json_path)
    ]


def main(files: list[str]) -> int:
    if not files:
        print(__doc__.strip().splitlines()[2], file=sys.stderr)
        return 2
    bad = 0
    for name in files:
        for v in violations(json.loads(Path(name).read_text())):
            print(f"{name}: {v}", file=sys.stderr)
            bad += 1
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
