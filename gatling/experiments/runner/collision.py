"""An object the run would reuse: does the live one say what the definition says?"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any


def differences(wanted: Any, live: Any, path: str = "") -> list[str]:
    """'path: live here, wanted in the definition' for every field the definition sets that the
    live object has otherwise; fields only the live object has (server defaults) are ignored."""
    if isinstance(wanted, Mapping):
        if not isinstance(live, Mapping):
            return [f"{path or '.'}: {live!r} here, an object in the definition"]
        out: list[str] = []
        for k, w in wanted.items():
            out += differences(w, live.get(k), f"{path}.{k}" if path else k)
        return out
    if _number(wanted) and _number(live):
        same = float(wanted) == float(live)
    elif isinstance(wanted, bool) or isinstance(live, bool):
        same = wanted is live
    else:
        same = wanted == live
    return [] if same else [f"{path}: {live!r} here, {wanted!r} in the definition"]


def _number(v: Any) -> bool:
    return isinstance(v, int | float) and not isinstance(v, bool)
