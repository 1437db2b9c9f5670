"""Battles as boxes in the report (rules/boxes.py): the forces as the battle begins, each
round's dice with what they hit on and why (8.5, 8.91, 10.83), the events the table tells
and those it leaves to the log's lines."""

from __future__ import annotations

import importlib
from typing import Any

from position import GAME, FixedRng, OpenSecrets, data, orders, position
from position import standing as standing_

boxes = importlib.import_module("pbem_game_red_russia.boxes").boxes


def fought(pieces: dict[str, str], *moves: dict[str, Any], dice: int = 6,
           zone: str = "Tver", control: dict[str, str] | None = None,
           reduced: tuple[str, ...] = ()) -> tuple[dict[str, Any], list[dict[str, Any]]]:
    """Red moves and attacks `zone` (a probe: one round); the state before and the events."""
    state = position(pieces, control=control or {"Tver": "south", "Moscow": "red"}, reduced=reduced)
    state["standing"] = standing_()
    body = orders(*moves, {"attack": {"zone": zone}})
    body["secret"] = {"spend": {zone: 1}}
    events = GAME.resolve(data(), state, {"red": body}, FixedRng(*[dice] * 80), OpenSecrets())
    return state, events


def test_8_5_a_probe_in_a_box() -> None:
    state, events = fought({"red-inf-01": "Moscow", "trotsky": "Moscow", "south-inf-01": "Tver"},
                           {"move": {"units": ["red-inf-01", "trotsky"], "to": "Tver"}})
    (box,) = boxes(data(), state, events)
    kinds = [e["type"] for e in events]
    assert (box["first"], box["last"]) == (kinds.index("attack"), kinds.index("battle_over"))
    assert box["title"] == "Battle of Tver: Reds attack Southern Whites (probe, up to 1 round, 1 money)"
    assert box["columns"] == ["", "Reds (attacker)", "Southern Whites"]
    units, leaders, fort, round1 = box["rows"]
    assert units[0] == "Units" and units[1].startswith("red-inf-01 ") and units[2].startswith("south-inf-01 ")
    assert leaders == ["Leaders", "trotsky (level 3)", "none"]
    assert fort[0] == "Fortification" and fort[2].endswith(" (8.5)")
    assert round1[0] == "Round 1"
    assert "Trotsky 5+ (10.83): 6 6 6 = 3 hits" in round1[1]
    assert round1[2].startswith("units 6+: 6")
    # the table tells the attack and its round; the losses and the end stay as lines
    told = set(box["told"])
    assert {kinds.index("attack"), kinds.index("combat_round")} == told
    assert kinds.index("battle_over") not in told


def test_8_5_the_defenders_plus_one_after_a_difficult_route_is_said() -> None:
    b = importlib.import_module("pbem_game_red_russia.board").board(data())
    hard = next((a, z) for a, routes in b.routes.items() for z, kind in routes.items()
                if kind in ("difficult", "very_difficult") and not b.zones[z].get("iron_cross")
                and not b.zones[a].get("iron_cross"))
    start, zone = hard
    state, events = fought({"red-inf-01": start, "south-inf-01": zone},
                           {"move": {"units": ["red-inf-01"], "to": zone}}, dice=5, zone=zone,
                           control={zone: "south", start: "red"})
    (box,) = boxes(data(), state, events)
    round1 = box["rows"][-1]
    assert round1[2].startswith("units 5+ (+1 after a difficult route 8.5): 5")
    assert "(+1" not in round1[1]  # only the defender's


def test_no_battle_no_box() -> None:
    state = position({"red-inf-01": "Moscow"})
    assert boxes(data(), state, []) == []
    assert boxes(data(), state, [{"type": "moved", "faction": "red", "units": ["red-inf-01"], "cost": 1,
                                  "path": ["Moscow", "Tver"]}]) == []
