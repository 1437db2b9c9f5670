"""Red Russia 10.83 (rulebook: ../shared/rules/red-russia-rules.txt): "If Trotsky finds
himself at any moment during the Red turn in a zone with Stalin or Lenin, his leadership
value is reduced from 3 to 2 (for combats and sieges only). He nevertheless continues to
hit on a 5 or 6 for the first round of each land combat."

"At any moment" is the start of the Red action phase and every zone of every move in it
(README ruling 58), not only the zone of the battle. Each case moves, attacks with exact
dice and asserts the number of Trotsky's dice (2 or 3) and the event that says why.
"""

from __future__ import annotations

import importlib
from typing import Any

import pytest
from position import GAME, data, orders, position
from position import standing as standing_
from test_rr_combat import run

from pbem.game import Event

battle = importlib.import_module("pbem_game_red_russia.battle")
board = importlib.import_module("pbem_game_red_russia.board")
fold_rules = importlib.import_module("pbem_game_red_russia.fold")


def red_turn(pieces: dict[str, str], *items: dict[str, Any], dice: list[int],
             flags: dict[str, Any] | None = None) -> list[Event]:
    """The Red action phase: `items` (moves, then an attack on Tver held by South with
    one money) resolved with exactly `dice`."""
    state = position(pieces, control={"Tver": "south"})
    state["standing"] = standing_()
    state["flags"] = {**state.get("flags", {}), **(flags or {})}
    body = orders(*items, {"attack": {"zone": "Tver"}})
    body["secret"] = {"spend": {"Tver": 1}}
    events, _, _ = run(state, body, dice)
    return events


def trotsky_dice(events: list[Event]) -> list[dict[str, Any]]:
    first = next(e for e in events if e["type"] == "combat_round")
    return [g for side in ("atk", "def") for g in first["dice"][side] if g["what"] == "Trotsky"]


def distracted(events: list[Event]) -> list[Event]:
    return [e for e in events if e["type"] == "trotsky_distracted"]


MOVE_IN = {"move": {"units": ["trotsky", "red-inf-01"], "to": "Tver"}}
# after Trotsky's dice: red-inf-01's 5, south-inf-01's 5 and the fortification's 1 (8.5), Trotsky's loss test
NO_HITS = [1] * 11 + [1, 1]


def test_10_83_trotsky_alone_on_his_way_keeps_three() -> None:
    # Lenin in Yaroslavl, never on Trotsky's way from Moscow to Tver: 3 dice, hit on 5
    events = red_turn({"trotsky": "Moscow", "red-inf-01": "Moscow", "lenin": "Yaroslavl",
                       "south-inf-01": "Tver"}, MOVE_IN, dice=[1] * 3 + NO_HITS)
    assert distracted(events) == []
    assert trotsky_dice(events) == [{"what": "Trotsky", "count": 3, "hit": 5, "values": [1, 1, 1], "hits": 0}]


def test_10_83_trotsky_who_began_the_turn_with_lenin_has_two_in_a_battle_away_from_him() -> None:
    # Lenin stays in Moscow; Trotsky was with him when the Red turn began
    events = red_turn({"trotsky": "Moscow", "red-inf-01": "Moscow", "lenin": "Moscow",
                       "south-inf-01": "Tver"}, MOVE_IN, dice=[5, 1] + NO_HITS)
    assert distracted(events) == [{"type": "trotsky_distracted", "with": "lenin", "zone": "Moscow"}]
    # still a hit on 5 in the first round of an attack
    assert trotsky_dice(events) == [{"what": "Trotsky", "count": 2, "hit": 5, "values": [5, 1], "hits": 1}]
    assert fold_rules.describe_event(data(), distracted(events)[0]) == (
        "Trotsky was in Moscow with Lenin during the Red turn: his leadership value is 2 in its "
        "combats and sieges (10.83)")


def test_10_83_trotsky_passing_through_stalins_zone_has_two() -> None:
    # Trotsky and his unit from Yaroslavl through Moscow (Stalin there) to Tver: 2 points
    via = {"move": {"units": ["trotsky", "red-inf-01"], "to": "Tver", "via": ["Moscow"]}}
    events = red_turn({"trotsky": "Yaroslavl", "red-inf-01": "Yaroslavl", "stalin": "Moscow",
                       "south-inf-01": "Tver"}, via, dice=[1, 1] + NO_HITS)
    assert distracted(events) == [{"type": "trotsky_distracted", "with": "stalin", "zone": "Moscow"}]
    assert trotsky_dice(events)[0]["count"] == 2


def test_10_83_stalin_passing_through_trotskys_zone_counts_too() -> None:
    # Stalin goes from Tula through Moscow, where Trotsky waits, to Ryazan; then Trotsky
    # moves on to Tver
    stalin = {"move": {"units": ["stalin"], "to": "Ryazan", "via": ["Moscow"]}}
    events = red_turn({"trotsky": "Moscow", "red-inf-01": "Moscow", "stalin": "Tula",
                       "south-inf-01": "Tver"}, stalin, MOVE_IN, dice=[1, 1] + NO_HITS)
    assert distracted(events) == [{"type": "trotsky_distracted", "with": "stalin", "zone": "Moscow"}]
    assert trotsky_dice(events)[0]["count"] == 2


def test_10_83_a_wounded_lenin_is_no_company() -> None:
    # Lenin in the unused leaders' box (10.4) is in no zone
    state = position({"trotsky": "Moscow", "red-inf-01": "Moscow"})
    state["units"]["lenin"].update(status="unused", zone=None)
    assert battle.trotsky_distracted(board.board(data()), state, []) is None


def test_10_83_once_a_turn_and_only_this_turn() -> None:
    b = board.board(data())
    together = position({"trotsky": "Moscow", "lenin": "Moscow"})
    assert battle.trotsky_distracted(b, together, []) == {
        "type": "trotsky_distracted", "with": "lenin", "zone": "Moscow"}
    # said already this turn (a phase resumed after the defenders' answers): not again
    assert battle.trotsky_distracted(b, {**together, "flags": {"trotsky_distracted": 3}}, []) is None
    # last turn's company does not count this turn: 3 dice
    events = red_turn({"trotsky": "Moscow", "red-inf-01": "Moscow", "south-inf-01": "Tver"}, MOVE_IN,
                      dice=[1] * 3 + NO_HITS, flags={"trotsky_distracted": 2})
    assert distracted(events) == [] and trotsky_dice(events)[0]["count"] == 3


def test_10_83_the_red_turns_company_does_not_follow_trotsky_into_a_white_turn() -> None:
    # he met Lenin in this turn's Red phase; South attacks him in Tver later in the turn:
    # the Red side's dice are red-inf-01's 5, Trotsky's 3 and the fortification's 1
    state = position({"trotsky": "Tver", "red-inf-01": "Tver", "south-inf-01": "Tver"}, actor="south")
    state["standing"] = standing_()
    state["flags"]["trotsky_distracted"] = state["turn"]
    body = orders({"attack": {"zone": "Tver"}})
    body["secret"] = {"spend": {"Tver": 1}}
    events, _, _ = run(state, body, [1] * 5 + [1] * 9 + [1, 1])
    first = next(e for e in events if e["type"] == "combat_round")
    assert first["dice"]["def"] == [{"what": "units", "count": 9, "hit": 6, "values": [1] * 9, "hits": 0}]


def test_10_83_only_stalin_or_lenin_distract_trotsky() -> None:
    state = position({"trotsky": "Moscow", "budyonny": "Moscow"})
    with pytest.raises(ValueError, match="10.83 names Stalin and Lenin, not 'budyonny'"):
        GAME.apply(data(), state, {"type": "trotsky_distracted", "with": "budyonny", "zone": "Moscow"})
