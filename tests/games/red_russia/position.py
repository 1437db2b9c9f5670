"""Build Red Russia positions for rule tables: an empty map with the pieces a case names."""

from __future__ import annotations

import importlib
from collections.abc import Sequence
from typing import Any

from fixed_rng import FixedRng as FixedRng  # re-exported: the rule tables import them from here
from fixed_rng import OpenSecrets as OpenSecrets

from pbem.dice import KeyedRng
from pbem.game import GameData, Problem, State, get_game, load_data

GAME = get_game("red_russia")
# the rules package is loaded by file path under this name (pbem.game.get_game)
setup_rules = importlib.import_module("pbem_game_red_russia.setup")
board_rules = importlib.import_module("pbem_game_red_russia.board")


def data() -> GameData:
    return load_data("red_russia")


def position(
    pieces: dict[str, str],
    *,
    actor: str = "red",
    turn: int = 3,
    control: dict[str, str | None] | None = None,
    reduced: Sequence[str] = (),
    options: dict[str, Any] | None = None,
) -> State:
    """Turn `turn`, `actor`'s action phase; only `pieces` ({id: place}) on the map."""
    state = GAME.setup(data(), dict(options or {}), KeyedRng(b"\x01" * 32))
    for piece in state["units"].values():
        if piece["status"] in ("map", "setup", "drawing"):
            piece.update(status="pool", zone=None)
        piece.pop("place", None)
        piece.pop("by", None)
    for pid, place in pieces.items():
        if pid == "treasure":
            state["treasure"]["zone"] = place
            continue
        state["units"][pid].update(status="map", zone=place, reduced=pid in reduced)
    state["control"].update(control or {})
    state.update(turn=turn, phase="action", actor=actor, initiative=["red", "siberian", "south", "north"])
    return state


def standing(given: dict[str, dict[str, Any]] | None = None) -> dict[str, dict[str, Any]]:
    """Standing instructions for a rule table: every major faction stands and fights when
    attacked (8.4), so no battle stops to ask by mail (decisions.py), then `given`."""
    out: dict[str, dict[str, Any]] = {f: {"retreat_before_combat": "never"}
                                      for f in ("red", "siberian", "south", "north")}
    for faction, rules in (given or {}).items():
        out[faction] = {**out.get(faction, {}), **rules}
    return out


def orders(*items: dict[str, Any], standing: dict[str, Any] | None = None) -> dict[str, Any]:
    return {"orders": list(items), "standing": standing or {}}


def problems(state: State, faction: str, body: dict[str, Any]) -> list[Problem]:
    return GAME.validate(data(), state, faction, body)


def messages(state: State, faction: str, body: dict[str, Any]) -> list[str]:
    return [p.message for p in problems(state, faction, body)]


class SixSided(FixedRng):
    """FixedRng that also records how many sides each die asked for had."""

    def __init__(self, *values: int) -> None:
        super().__init__(*values)
        self.sides: list[int] = []

    def roll(self, label: str, sides: int = 6) -> int:
        self.sides.append(sides)
        return super().roll(label, sides)


def resolve_phase(state: State, body: dict[str, Any], dice: Sequence[int]) -> tuple[list[dict[str, Any]], State]:
    """The actor's orders, checked, then resolved with these dice: the events (without the
    bookkeeping of phases, standing instructions and segments) and the state after them."""
    actor = state["actor"]
    assert messages(state, actor, body) == []
    events = GAME.resolve(data(), state, {actor: body}, FixedRng(*dice), OpenSecrets())
    after = state
    for e in events:
        after = GAME.apply(data(), after, e)
    return [e for e in events if e["type"] not in ("phase", "standing", "segment")], after


def resolve_exact(state: State, body: dict[str, Any], dice: Sequence[int],
                  ) -> tuple[list[dict[str, Any]], State, FixedRng]:
    """As resolve_phase, but the dice must be exactly those the rules ask for: a threshold
    test whose dice run out, or are left over, does not test what it says."""
    actor = state["actor"]
    assert messages(state, actor, body) == []
    rng = FixedRng(*dice)
    events = GAME.resolve(data(), state, {actor: body}, rng, OpenSecrets())
    assert rng.values == [], f"dice left over: {rng.values}"
    after = state
    for e in events:
        after = GAME.apply(data(), after, e)
    return [e for e in events if e["type"] not in ("phase", "standing", "segment")], after, rng
