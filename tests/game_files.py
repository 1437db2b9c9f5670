"""A game's data files and their JSON Schemas, for the data tests of each game: read with
pbem's own loader, checked with jsonschema, each read once."""

from __future__ import annotations

import json
from functools import cache
from pathlib import Path
from typing import Any

from jsonschema import Draft202012Validator

from pbem import yamlio

GAMES = Path(__file__).resolve().parents[1] / "games"


@cache
def load(game: str, name: str) -> Any:
    return yamlio.read_trusted(GAMES / game / f"{name}.yaml")


@cache
def schema(game: str, name: str) -> dict[str, Any]:
    data: dict[str, Any] = json.loads(
        (GAMES / game / "schemas" / f"{name}.schema.json").read_text(encoding="utf-8"))
    return data


def errors(game: str, name: str, data: Any) -> list[str]:
    """What the file's schema says of `data` (the file as read, or a changed copy)."""
    return [e.message for e in Draft202012Validator(schema(game, name)).iter_errors(data)]
