"""docs/writing-a-game.md names every optional hook pbem looks for on a game (each
`getattr(game, "name")` in pbem/), so a contributor who writes a game from the guide alone
misses none of them."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]


def test_the_guide_names_every_hook_pbem_looks_for() -> None:
    hooks = {m for path in (ROOT / "pbem").rglob("*.py")
             for m in re.findall(r'getattr\((?:campaign\.)?game, "([a-z_]+)"', path.read_text())}
    assert {"headlines", "boxes", "todo", "correct"} <= hooks  # the search itself works
    guide = (ROOT / "docs" / "writing-a-game.md").read_text()
    missing = sorted(h for h in hooks if f"`{h}(" not in guide and f"`{h} " not in guide
                     and f"`{h}`" not in guide)
    assert missing == []
    for name in ("PhaseTable", "TableGame", "PhaseRules", "idle"):
        assert name in guide, name
    for name in ("EventTable", "APPLY", "DESCRIBE", "record_only", "pbem.kit.standing", "pbem.kit.orders"):
        assert name in guide, name


def test_the_guides_tiny_has_the_shape_it_describes(monkeypatch: pytest.MonkeyPatch) -> None:
    """Tiny is what the guide says: a TableGame whose apply is its event table."""
    import sys

    from pbem.game import get_game
    from pbem.kit.events import EventTable
    from pbem.kit.phases import PhaseTable, TableGame

    monkeypatch.setenv("PBEM_GAMES_PATH", str(ROOT / "tests" / "games"))
    game = get_game("tiny")
    module = sys.modules[type(game).__module__]
    assert isinstance(game, TableGame) and isinstance(game.phases, PhaseTable)
    assert isinstance(module.EVENTS, EventTable) and module.EVENTS.told  # apply and descriptions
    assert {"validate", "resolve", "bot", "default_orders", "phase"}.isdisjoint(vars(type(game)))
