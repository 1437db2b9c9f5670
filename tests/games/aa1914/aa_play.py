"""A power's turn played in a rule table: its orders checked, resolved with dice that come up
as given (every one of them rolled), and the events folded into the position."""

from __future__ import annotations

from typing import Any

from fixed_rng import FixedRng

from pbem.dice import KeyedRng
from pbem.game import State, get_game, load_data

GAME = get_game("aa1914")


def play(state: State, dice: FixedRng, *items: dict[str, Any],
         standing: dict[str, Any] | None = None) -> tuple[list[dict[str, Any]], State]:
    data = load_data("aa1914")
    orders: dict[str, Any] = {"orders": list(items)}
    if standing is not None:
        orders["standing"] = standing
    assert GAME.validate(data, state, state["power"], orders) == []
    events = GAME.resolve(data, state, {state["power"]: orders}, dice)  # type: ignore[arg-type]
    assert dice.values == [], "every die fed was rolled"
    after = state
    for e in events:
        after = GAME.apply(data, after, e)
    return events, after


def refused(state: State, *items: dict[str, Any], standing: dict[str, Any] | None = None) -> list[str]:
    """What `validate` says of the power-to-move's orders (these items, this standing)."""
    orders: dict[str, Any] = {"orders": list(items)}
    if standing is not None:
        orders["standing"] = standing
    return [p.message for p in GAME.validate(load_data("aa1914"), state, state["power"], orders)]


def of(events: list[dict[str, Any]], kind: str) -> list[dict[str, Any]]:
    return [e for e in events if e["type"] == kind]


def position(power: str, units: dict[str, dict[str, dict[str, int]]], **changes: Any) -> State:
    """A round-2 position: `power` to move, these units by place and owner."""
    state = GAME.setup(load_data("aa1914"), {}, KeyedRng(b"\x02" * 32))
    state.update(power=power, units=units, turn=2)
    state.update(changes)
    return state


def move(frm: str, to: str, units: dict[str, int], via: list[str] | None = None) -> dict[str, Any]:
    return {"move": {"from": frm, "to": to, "units": units, **({"via": via} if via else {})}}

