"""Canonical JSON: the one byte form that is hashed and signed (docs/design.md "Log entries").

Signing YAML bytes would be fragile (YAML 1.1 reads `no` as false and `012` as 10), so
log entries, commitments and signatures all work on this form: UTF-8, sorted keys, no
spaces, non-ASCII kept, and no floats (they have no single text form).
"""

from __future__ import annotations

import json


def _check_json(value: object) -> None:
    """Only JSON values that serialize one way: no floats, string keys only."""
    if value is None or isinstance(value, (bool, int, str)):
        return
    if isinstance(value, float):
        raise TypeError("floats have no canonical JSON form in pbem; use integers or strings")
    if isinstance(value, (list, tuple)):
        for item in value:
            _check_json(item)
        return
    if isinstance(value, dict):
        for key, item in value.items():
            if not isinstance(key, str):
                raise TypeError(f"canonical JSON object keys must be strings, not {key!r}")
            _check_json(item)
        return
    raise TypeError(f"{type(value).__name__} is not a JSON value")


def canonical_json(obj: object) -> bytes:
    """UTF-8 JSON with sorted keys, no spaces, non-ASCII kept; floats are a TypeError."""
    _check_json(obj)
    text = json.dumps(obj, sort_keys=True, separators=(",", ":"), ensure_ascii=False)
    return text.encode("utf-8")
