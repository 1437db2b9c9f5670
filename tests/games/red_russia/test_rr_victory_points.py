"""Red Russia's special victory points for two leaders (rulebook:
../shared/rules/red-russia-rules.txt):

- 10.8.1 "he is worth one victory point to one side or the other: to the Reds if he remains
  alive, and to the Whites if he dies." The point goes to the White factions his side
  fought in the battle, siege or partisan hunt that killed him (README ruling 57).
- 10.91 Denikin: "If he is killed in combat, he yields one victory point to the Red player."

Each case plays the fight that kills (or spares) the leader with exact dice, then counts
the victory points before and after (16.0).
"""

from __future__ import annotations

import importlib
from typing import Any

import pytest
from position import GAME, data, orders, position
from position import standing as standing_
from test_rr_combat import fight_exact, run

from pbem.game import Event

board = importlib.import_module("pbem_game_red_russia.board")
turn_rules = importlib.import_module("pbem_game_red_russia.turn")
fold_rules = importlib.import_module("pbem_game_red_russia.fold")


def vp(state: dict[str, Any]) -> dict[str, int]:
    return dict(turn_rules.victory_points(board.board(data()), state))


def gained(before: dict[str, Any], after: dict[str, Any]) -> dict[str, int]:
    """Each faction's change of victory points, zeros left out."""
    old, new = vp(before), vp(after)
    return {f: new[f] - old[f] for f in new if new[f] != old[f]}


def killed(events: list[Event]) -> list[Event]:
    return [e for e in events if e["type"] == "lenin_killed"]


# ---------------------------------------------------------------------------------------
# 10.8.1 Lenin


def test_10_8_1_lenin_killed_attacking_gives_his_point_to_the_white_faction_he_attacked() -> None:
    # Red attacks North at Petrograd; Lenin's loss test 6+6, fate 4: killed (10.4)
    pieces = {"red-inf-01": "Petrograd", "lenin": "Petrograd", "trotsky": "Petrograd",
              "north-inf-01": "Petrograd"}
    before = position(pieces, control={"Petrograd": "north"})
    events, after, _ = fight_exact(pieces, "Petrograd", 1, [1] * 17 + [6, 6, 4] + [3, 2],
                                   control={"Petrograd": "north"})
    assert killed(events) == [{"type": "lenin_killed", "manpower": 3, "money": 2, "by": ["north"]}]
    # the Reds lose the point of Lenin alive; North has it
    assert gained(before, after) == {"red": -1, "north": 1}
    assert after["flags"]["lenin_killed_by"] == ["north"]
    assert fold_rules.describe_event(data(), killed(events)[0]) == (
        "Lenin is dead: the Reds lose 3 manpower and 2 money; his victory point goes to north (10.8.1)")


def test_10_8_1_lenin_killed_by_a_minor_gives_his_point_to_the_white_faction_commanding_it() -> None:
    # Finland, commanded by North/Asia, defends Helsinki; Lenin's loss test 6+6, fate 4
    pieces = {"red-inf-01": "Helsinki", "lenin": "Helsinki", "finland-inf-01": "Helsinki"}
    state = position(pieces, control={"Helsinki": "finland"})
    state["minors"]["finland"] = {"status": "active", "controller": "north", "until": None}
    state["standing"] = standing_()
    body = orders({"attack": {"zone": "Helsinki"}})
    body["secret"] = {"spend": {"Helsinki": 1}}
    events, after, _ = run(state, body, [1] * 12 + [6, 6, 4] + [1, 1])
    assert killed(events) == [{"type": "lenin_killed", "manpower": 1, "money": 1, "by": ["north"]}]
    assert gained(state, after) == {"red": -1, "north": 1}


def test_10_8_1_lenin_wounded_keeps_his_point_for_the_reds() -> None:
    # the same battle, fate 3: wounded, to the unused leaders (10.4): still alive
    pieces = {"red-inf-01": "Petrograd", "lenin": "Petrograd", "trotsky": "Petrograd",
              "north-inf-01": "Petrograd"}
    before = position(pieces, control={"Petrograd": "north"})
    events, after, _ = fight_exact(pieces, "Petrograd", 1, [1] * 17 + [6, 6, 3], control={"Petrograd": "north"})
    assert killed(events) == []
    assert after["units"]["lenin"]["status"] == "unused"
    assert gained(before, after) == {}


def test_10_8_1_lenin_captured_defending_gives_his_point_to_the_attacker() -> None:
    # South attacks Moscow; the reduced Red unit is eliminated and Lenin, alone, rolls
    # 1+1+2 = 4: captured and killed (10.5)
    pieces = {"south-inf-01": "Moscow", "south-inf-02": "Moscow", "red-inf-01": "Moscow", "lenin": "Moscow"}
    before = position(pieces, actor="south", reduced=("red-inf-01",))
    events, after, _ = fight_exact(pieces, "Moscow", 1, [6, 6, 6] + [1] * 7 + [1] * 8 + [1, 1, 1, 3],
                                   actor="south", reduced=("red-inf-01",))
    assert killed(events) == [{"type": "lenin_killed", "manpower": 1, "money": 3, "by": ["south"]}]
    assert gained(before, after) == {"red": -1, "south": 1}


def test_10_8_1_lenin_killed_besieging_gives_his_point_to_the_zones_holder() -> None:
    # Red besieges Ufa (Siberian); 10.4 6+6, fate 4: killed
    pieces = {"red-inf-01": "Ufa", "lenin": "Ufa"}
    state = position(pieces)
    state["standing"] = standing_()
    events, after, _ = run(state, orders({"siege": {"zone": "Ufa", "rounds": 1}}),
                           [1] * 5 + [1] + [6, 6, 4] + [3, 2])
    assert killed(events) == [{"type": "lenin_killed", "manpower": 3, "money": 2, "by": ["siberian"]}]
    assert gained(state, after) == {"red": -1, "siberian": 1}


def test_10_8_1_lenin_killed_hunting_partisans_gives_his_point_to_the_side_that_raised_them() -> None:
    # 15.2 South's partisans in Tver, hunted by Red with Lenin: the Red unit's 6 destroys
    # them (defence 1), theirs miss; then Lenin's loss test 6+6, fate 5: killed
    state = position({"red-inf-01": "Tver", "lenin": "Tver"})
    state["standing"] = standing_()
    state["partisans"] = {"Tver": "south"}
    body = orders({"attack": {"zone": "Tver", "leaders": ["lenin"]}})
    body["secret"] = {"spend": {"Tver": 1}}
    events, after, _ = run(state, body, [6, 1, 1, 1, 1] + [1, 1] + [6, 6, 5] + [2, 2])
    assert killed(events) == [{"type": "lenin_killed", "manpower": 2, "money": 2, "by": ["south"]}]
    assert gained(state, after) == {"red": -1, "south": 1}


def test_10_8_1_every_white_faction_named_has_a_point_and_only_whites_may_be_named() -> None:
    state = position({})
    state["units"]["lenin"].update(status="dead", zone=None)
    both = GAME.apply(data(), state, {"type": "lenin_killed", "manpower": 0, "money": 0,
                                      "by": ["north", "south"]})
    assert gained(state, both) == {"north": 1, "south": 1}
    every = GAME.apply(data(), state, {"type": "lenin_killed", "manpower": 0, "money": 0,
                                       "by": ["north", "siberian", "south"]})
    assert gained(state, every) == {"north": 1, "siberian": 1, "south": 1}
    # 6.4 the Reds' manpower and money stop at zero
    poor = {**state, "manpower": {**state["manpower"], "red": 1}, "money": {**state["money"], "red": 2}}
    after = GAME.apply(data(), poor, {"type": "lenin_killed", "manpower": 3, "money": 2, "by": []})
    assert (after["manpower"]["red"], after["money"]["red"]) == (0, 0)
    with pytest.raises(ValueError, match="White factions only"):
        GAME.apply(data(), state, {"type": "lenin_killed", "manpower": 0, "money": 0, "by": ["red"]})
    # a log written before the point was recorded: no "by", no White point
    old_event = {"type": "lenin_killed", "manpower": 0, "money": 0}
    assert gained(state, GAME.apply(data(), state, old_event)) == {}
    assert fold_rules.describe_event(data(), old_event) == (
        "Lenin is dead: the Reds lose 0 manpower and 0 money (10.8.1)")
    assert fold_rules.describe_event(data(), {**old_event, "by": ["north", "south"]}) == (
        "Lenin is dead: the Reds lose 0 manpower and 0 money; his victory point goes to north and "
        "south (10.8.1)")


# ---------------------------------------------------------------------------------------
# 10.91 Denikin


def test_10_91_denikin_captured_and_shot_in_combat_gives_the_reds_a_point() -> None:
    # 10.5 his units gone, Denikin (2) rolls 1+1: 4, captured and killed
    pieces = {"red-inf-01": "Tver", "red-inf-02": "Tver", "south-inf-01": "Tver", "denikin": "Tver"}
    before = position(pieces)
    events, after, _ = fight_exact(pieces, "Tver", 1, [6, 6, 6] + [1] * 7 + [1] * 7 + [1, 1])
    assert [e for e in events if e["type"] == "leader_capture"] == [
        {"type": "leader_capture", "leader": "denikin", "zone": "Tver", "dice": [1, 1],
         "result": "captured", "to": None}]
    assert after["units"]["denikin"]["status"] == "dead"
    assert gained(before, after) == {"red": 1}


@pytest.mark.parametrize(("status", "points"), [("dead", 1), ("unused", 0), ("gone", 0), ("map", 0)])
def test_10_91_only_denikin_killed_yields_the_point(status: str, points: int) -> None:
    # killed (10.4, 10.5): the point; wounded (unused), replaced by Wrangel (gone) or in
    # play: none
    state = position({"denikin": "Novocherkassk"})
    after = position({"denikin": "Novocherkassk"})
    after["units"]["denikin"].update(status=status, zone=None if status != "map" else "Novocherkassk")
    assert gained(state, after) == ({"red": points} if points else {})
