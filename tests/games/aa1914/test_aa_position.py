"""The position and the changes of an A&A 1914 report (rules/position.py): the board in short
(the powers, the territories each holds, every place's units in the map's letters) and the
changes a player reads the turn for, from the reader's view."""

from __future__ import annotations

import importlib
from typing import Any

from pbem.dice import KeyedRng
from pbem.game import get_game, load_data

GAME = get_game("aa1914")
position = importlib.import_module("pbem_game_aa1914.position")


def view(**changes: Any) -> dict[str, Any]:
    data = load_data("aa1914")
    state = GAME.setup(data, {}, KeyedRng(b"\x02" * 32))
    state.update(changes)
    return GAME.view(data, state, "public")


def test_the_position_in_short() -> None:
    data = load_data("aa1914")
    v = view()
    v["damaged battleships"] = {"SZ 6": {"Russia": 1}}
    v["units"]["SZ 6"] = {"Russia": {"battleship": 2, "transport": 1}}
    shown = position.position(data, v)
    lines, (powers, held, units) = shown["lines"], shown["tables"]
    assert lines[0] == f"Round {v['round']}: {v['turn of']}'s turn."
    assert lines[1] == "Contested (no income, 4.2): none."
    assert lines[3] == f"Revolution: {v['revolution']}."
    assert lines[4] == ("Units: i infantry, a artillery, t tank, f fighter, s submarine, c cruiser, "
                        "b battleship, tr transport.")
    assert powers["headers"] == ["Power", "Side", "At war", "IPC", "Income", "Territories"]
    first = v["powers"][0]
    assert powers["rows"][0] == [first["power"], first["side"], "yes" if first["at war"] else "no",
                                 first["IPC"], first["income"], first["territories"]]
    rows = dict((r[0], r[1]) for r in held["rows"])
    assert rows["Russia"].split(", ") == sorted(p for p, o in v["control"].items() if o == "Russia")
    assert [r[0] for r in held["rows"]][:len(v["powers"])] == [p["power"] for p in v["powers"]]
    placed = dict((r[0], r[1]) for r in units["rows"])
    assert placed["SZ 6"] == "Russia 2b 1tr (1 damaged)"
    moscow = v["units"]["Moscow"]["Russia"]
    assert placed["Moscow"] == "Russia " + " ".join(
        f"{moscow[u]}{a}" for u, a in position.ABBREVIATIONS.items() if moscow.get(u))


def test_the_changes_a_player_reads_the_turn_for() -> None:
    before = view()
    after = view()
    assert position.changes(None, after) == {"rows": []}
    assert position.changes(before, after) == {"rows": []}
    after["round"] = before["round"] + 1
    after["powers"][1] = {**after["powers"][1], "IPC": after["powers"][1]["IPC"] - 5}
    after["control"]["Albania"] = "Italy"
    after["contested"] = ["Belgium"]
    after["minefields"] = {**after["minefields"], "SZ 99": "Germany"}
    p = after["powers"][1]
    assert position.changes(before, after)["rows"] == [
        {"what": "Round", "before": before["round"], "after": before["round"] + 1, "change": 1},
        {"what": f"{p['power']} IPC", "before": p["IPC"] + 5, "after": p["IPC"], "change": -5},
        {"what": "Albania", "before": before["control"]["Albania"], "after": "Italy", "change": None},
        {"what": "Contested", "before": "none", "after": "Belgium", "change": None},
        {"what": "Minefield SZ 99", "before": None, "after": "Germany", "change": None},
    ]
