"""docs/writing-a-game.md names every optional hook of the Game protocol (pbem.game.HOOKS),
so a contributor who writes a game from the guide alone misses none of them, and pbem asks a
game for nothing else."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from pbem.game import HOOKS

ROOT = Path(__file__).resolve().parents[2]


def test_pbem_asks_a_game_for_no_hook_the_protocol_does_not_name() -> None:
    looked = {m for path in (ROOT / "pbem").rglob("*.py")
              for m in re.findall(r'getattr\([a-z_.]*game, "([a-z_]+)"', path.read_text())}
    assert looked <= set(HOOKS)


@pytest.mark.parametrize("doc", ["writing-a-game.md", "design.md"])
def test_the_guide_and_the_design_name_every_hook(doc: str) -> None:
    text = (ROOT / "docs" / doc).read_text()
    missing = sorted(h for h in HOOKS if f"`{h}(" not in text and f"`{h} " not in text
                     and f"`{h}`" not in text)
    assert missing == []


def test_the_guide_names_the_kit_a_game_is_built_of() -> None:
    guide = (ROOT / "docs" / "writing-a-game.md").read_text()
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


@pytest.mark.parametrize("game_id", ["red_russia", "chechen_war", "aa1914"])
def test_every_bundled_game_is_a_table_game_as_the_guide_says(game_id: str) -> None:
    from pbem.dice import KeyedRng
    from pbem.game import get_game, load_data
    from pbem.kit.phases import PhaseTable, TableGame

    game = get_game(game_id)
    assert isinstance(game, TableGame) and isinstance(game.phases, PhaseTable)
    assert game.phase(load_data(game_id), game.setup(load_data(game_id), {}, KeyedRng(b"k"))).name \
        in game.phases.phases  # the table answers for the game's phases
