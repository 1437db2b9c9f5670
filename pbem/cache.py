"""Parsed files kept as JSON, keyed by their content: under the referee's private folder
(the game data, the snapshot) and, for the audit, in the clone's .git (git blobs).

Parsing YAML is most of what a quick command costs: the game's data files (~80 KB, checked
against their schemas and the rules too) and the snapshot, on every start. JSON loads many
times faster, so the parse is kept in `.pbem/cache/NAME.json` with the SHA-256 of what it
was parsed from; a command that finds the same bytes (or the same key) uses it, anything
else parses again and replaces it. One file per NAME, so the cache never grows.

Only what YAML parsing gives is kept. A mapping with keys that are not text (YAML's `0:`)
is kept as a list of pairs under the one key PAIRS; a value JSON cannot hold (a date, a
set) is not kept at all: a cached value is always what parsing would give. Nothing committed comes
from a cache. A blob's parse is as good as the blob: the audit of a clone keeps them in
that clone's own .git, where only its owner writes.
"""

from __future__ import annotations

import hashlib
import json
import os
import tempfile
from collections.abc import Callable
from pathlib import Path
from typing import Any

PAIRS = "\0pairs"  # a mapping whose keys are not all text, as [[key, value], ...]


def _encode(value: Any) -> Any:
    if isinstance(value, dict):
        if all(isinstance(k, str) for k in value) and list(value) != [PAIRS]:
            return {k: _encode(v) for k, v in value.items()}
        # keys that are not text, or the one key that would read as this form itself
        return {PAIRS: [[k, _encode(v)] for k, v in value.items()]}
    if isinstance(value, list):
        return [_encode(v) for v in value]
    return value


def _decode(obj: dict[str, Any]) -> Any:
    if len(obj) == 1 and PAIRS in obj:
        return {k: v for k, v in obj[PAIRS]}
    return obj


def _loads(text: str | bytes) -> Any:
    return json.loads(text, object_hook=_decode)


def key_of(*parts: bytes) -> str:
    digest = hashlib.sha256()
    for part in parts:
        digest.update(len(part).to_bytes(8, "big"))
        digest.update(part)
    return digest.hexdigest()


def by_blob(folder: Path | None, blob_id: str, build: Callable[[], Any]) -> Any:
    """`build()`, the parse of a git blob, or what it gave the last time: a blob cannot
    change (its id is the hash of its bytes), so the id is the whole key. Each is kept in
    FOLDER/ab/cdef....json.z (JSON, compressed), read only when that blob is asked for, so
    that a long history costs no memory for it."""
    import zlib

    if folder is None:
        return build()
    path = folder / blob_id[:2] / f"{blob_id[2:]}.json.z"
    try:
        return _loads(zlib.decompress(path.read_bytes()))
    except (OSError, ValueError, zlib.error):
        pass  # not parsed yet, or damaged: parse again
    value = build()
    text = _exact(value)
    if text is not None:
        _write(path, zlib.compress(text.encode("utf-8"), 1))
    return value


def _exact(value: Any) -> str | None:
    """The JSON text of `value`, which JSON gives back exactly, or None.

    For what a YAML safe loader gives (the only values kept here): mappings, lists, text,
    numbers, booleans and None come back as they were (a mapping's keys of other kinds are
    kept as pairs by `_encode`); a date, a set or bytes json refuses, as it refuses NaN
    here, and those are not kept. (A tuple would come back a list; no loader makes one.)"""
    try:
        return json.dumps(_encode(value), ensure_ascii=False, allow_nan=False)
    except (TypeError, ValueError):
        return None  # not plain JSON data


def _write(path: Path, data: bytes) -> None:
    try:
        path.parent.mkdir(mode=0o700, parents=True, exist_ok=True)
        fd, tmp = tempfile.mkstemp(prefix=f".{path.name}.", suffix=".tmp", dir=path.parent)
        with os.fdopen(fd, "wb") as handle:
            handle.write(data)
        os.replace(tmp, path)
    except OSError:
        pass  # a read-only folder: nothing kept, the value stands


def cached(folder: Path | None, name: str, key: str, build: Callable[[], Any]) -> Any:
    """`build()`, or what it gave last time for this `key` (kept in FOLDER/NAME.json).
    Without a folder (a clone without the referee's private folder) it just builds."""
    if folder is None:
        return build()
    path = folder / f"{name}.json"
    try:
        kept = _loads(path.read_bytes())
        if isinstance(kept, dict) and kept.get("key") == key and "value" in kept:
            return kept["value"]
    except (OSError, ValueError):
        pass  # missing, or half-written by a command that was killed: parse again
    value = build()
    text = _exact(value)
    if text is not None:
        _write(path, ('{"key": ' + json.dumps(key) + ', "value": ' + text + "}").encode("utf-8"))
    return value
