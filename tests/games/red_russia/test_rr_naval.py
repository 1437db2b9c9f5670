"""Red Russia at sea (naval.py; 8.92, and the retreats by sea of 8.4) as rule tables: a
position, the orders, the dice, the expected events or error; then the exact outcome of each
case - the events, the dice asked, the units' state, the message. Each test's name starts
with the rule it checks (rulebook: ../shared/rules/red-russia-rules.txt).

The only enemy fleets that can share a sea are the Reds' Baltic fleet (red-fleet-01) and the
British one (allied-fleet-03), both 3-2 at full strength and 2-1 reduced. A side of several
fleets (a loss order to follow, a side outnumbered, a second blockade) puts allied-fleet-04
or south-fleet-01 in the Baltic Sea for the case.
"""

from __future__ import annotations

import importlib
from typing import Any

import pytest
from position import (
    GAME,
    FixedRng,
    OpenSecrets,
    SixSided,
    board_rules,
    data,
    messages,
    orders,
    position,
    problems,
    resolve_exact,
)
from position import standing as standing_

from pbem.dice import KeyedRng

fold_rules = importlib.import_module("pbem_game_red_russia.fold")
naval = importlib.import_module("pbem_game_red_russia.naval")

Events = list[dict[str, Any]]
BALTIC = "Baltic Sea"
RED_AT_SEA = {"red-fleet-01": BALTIC, "allied-fleet-03": BALTIC}


def search(zone: str = "Baltic Sea", **more: Any) -> dict[str, Any]:
    return {"search": {"zone": zone, **more}}


def blockade(port: str, **more: Any) -> dict[str, Any]:
    return {"blockade": {"port": port, **more}}


def move(units: list[str], to: str, **more: Any) -> dict[str, Any]:
    return {"move": {"units": units, "to": to, **more}}


def setting(pieces: dict[str, str], faction: str, extra: dict[str, Any]) -> dict[str, Any]:
    state = position(pieces, actor=faction, control=extra.get("control"),
                     reduced=extra.get("reduced", ()))
    state["standing"] = standing_(extra.get("standing"))
    if "blockade" in extra:
        state["blockade"] = dict(extra["blockade"])
    return state


def play(pieces: dict[str, str], faction: str, items: list[dict[str, Any]], dice: list[int],
         extra: dict[str, Any] | None = None, secret: dict[str, Any] | None = None,
         ) -> tuple[list[dict[str, Any]], dict[str, Any], FixedRng]:
    state = setting(pieces, faction, extra or {})
    body = orders(*items)
    if secret:
        body["secret"] = secret
    return resolve_exact(state, body, dice)  # the actor is `faction`


ALLIES_SEARCH = {"standing": {"allies": {"naval_search": "always"}}}
BLOCKED_PETROGRAD = {"blockade": {"allied-fleet-03": "Petrograd"}}

# (name, pieces, extra position, faction, orders, dice, expected event types)
CASES: list[tuple[str, dict[str, str], dict[str, Any], str, list[dict[str, Any]], list[int], list[str]]] = [
    ("8.92 a search makes contact on 7: one round, the damaged fleet retreats into a friendly port",
     RED_AT_SEA, {}, "red", [search()], [3, 4] + [6, 6, 1] + [1, 1, 1],
     ["naval_search", "combat_round", "reduced", "retreat", "naval_battle_over"]),
    ("8.92 a search of 6 or less makes no contact",
     RED_AT_SEA, {}, "red", [search()], [3, 3], ["naval_search"]),
    ("8.92 contact brings a single round of naval combat",
     RED_AT_SEA, {}, "red", [search()], [4, 4] + [1] * 6,
     ["naval_search", "combat_round", "naval_battle_over"]),
    ("8.92 a fleet may search the sea it has just sailed into",
     {"red-fleet-01": "Petrograd", "allied-fleet-03": "Baltic Sea"}, {}, "red",
     [move(["red-fleet-01"], "Baltic Sea"), search()], [1, 1], ["moved", "naval_search"]),
    ("8.92 a damaged fleet with no friendly port in its sea is eliminated",
     RED_AT_SEA, {"control": {"Petrograd": "north"}}, "red", [search()],
     [3, 4] + [1, 1, 1] + [6, 6, 1],
     ["naval_search", "combat_round", "reduced", "eliminated", "naval_battle_over"]),
    ("8.92 a blockade is declared from the sea next to the port",
     {"red-fleet-01": "Baltic Sea"}, {}, "red", [blockade("Reval")], [], ["blockade"]),
    ("8.92 a blockade ends when its fleet leaves the sea",
     {"red-fleet-01": "Baltic Sea"}, {}, "red",
     [blockade("Reval"), move(["red-fleet-01"], "Petrograd")], [],
     ["blockade", "moved", "blockade_lifted"]),
    ("8.92 the owner lifts his blockade",
     {"red-fleet-01": "Baltic Sea"}, {"blockade": {"red-fleet-01": "Reval"}}, "red",
     [{"lift_blockade": {"port": "Reval"}}], [], ["blockade_lifted"]),
    ("8.92 a blockade whose fleet is gone ends",
     {"red-inf-01": "Moscow"}, {"blockade": {"red-fleet-01": "Reval"}}, "red", [], [],
     ["blockade_lifted"]),
    ("8.92 a fleet leaving a blockaded port fights and breaks out",
     {"red-fleet-01": "Petrograd", "allied-fleet-03": "Baltic Sea"}, BLOCKED_PETROGRAD, "red",
     [move(["red-fleet-01"], "Baltic Sea")], [6, 6, 1] + [1, 1, 1],
     ["moved", "blockade_run", "combat_round", "reduced", "retreat", "blockade_lifted",
      "naval_battle_over"]),
    ("8.92 a fleet leaving a blockaded port that retreats returns to its port",
     {"red-fleet-01": "Petrograd", "allied-fleet-03": "Baltic Sea"}, BLOCKED_PETROGRAD, "red",
     [move(["red-fleet-01"], "Baltic Sea")], [1, 1, 1] + [6, 6, 1],
     ["moved", "blockade_run", "combat_round", "reduced", "retreat", "naval_battle_over"]),
    ("8.92 the fight at a blockaded port goes on until one side is gone",
     {"red-fleet-01": "Petrograd", "allied-fleet-03": "Baltic Sea"}, BLOCKED_PETROGRAD, "red",
     [move(["red-fleet-01"], "Baltic Sea")], [1] * 6 + [1] * 6 + [6, 6, 1] + [1, 1, 1],
     ["moved", "blockade_run", "combat_round", "combat_round", "combat_round", "reduced",
      "retreat", "blockade_lifted", "naval_battle_over"]),
    ("8.92 a fleet entering a blockaded port that retreats withdraws into the sea",
     RED_AT_SEA, BLOCKED_PETROGRAD, "red",
     [move(["red-fleet-01"], "Petrograd")], [1, 1, 1] + [6, 6, 1],
     ["moved", "blockade_run", "combat_round", "reduced", "retreat", "naval_battle_over"]),
    ("8.92 an opponent searches a transport sailing where his fleet lies: contact stops it",
     {**RED_AT_SEA, "red-inf-01": "Petrograd"}, {**ALLIES_SEARCH, "control": {"Riga": "red"}},
     "red", [move(["red-inf-01"], "Riga", via=["Baltic Sea"])], [4, 3] + [6, 6, 1] + [1, 1, 1],
     ["naval_search", "combat_round", "reduced", "reduced", "retreat", "naval_battle_over",
      "note", "moved"]),
    ("8.92 without contact the player in the phase goes on moving",
     {**RED_AT_SEA, "red-inf-01": "Petrograd"}, {**ALLIES_SEARCH, "control": {"Riga": "red"}},
     "red", [move(["red-inf-01"], "Riga", via=["Baltic Sea"])], [1, 2], ["naval_search", "moved"]),
    ("8.92 the unit aboard a sunk fleet suffers the same two steps",
     {**RED_AT_SEA, "red-inf-01": "Petrograd"}, {**ALLIES_SEARCH, "control": {"Riga": "red"}},
     "red", [move(["red-inf-01"], "Riga", via=["Baltic Sea"])], [4, 3] + [6, 6, 6] + [1, 1, 1],
     ["naval_search", "combat_round", "reduced", "reduced", "reduced", "reduced",
      "naval_battle_over", "note"]),
    ("8.92 an opponent searches a fleet putting to sea where his fleet lies",
     {"red-fleet-01": "Petrograd", "allied-fleet-03": "Baltic Sea"}, ALLIES_SEARCH, "red",
     [move(["red-fleet-01"], "Baltic Sea")], [6, 6] + [1] * 6,
     ["moved", "naval_search", "combat_round", "naval_battle_over"]),
    ("8.92 an opponent searches only when his standing instructions say so",
     {**RED_AT_SEA, "red-inf-01": "Petrograd"}, {"control": {"Riga": "red"}},
     "red", [move(["red-inf-01"], "Riga", via=["Baltic Sea"])], [], ["moved"]),
    ("8.92 an order the naval dice made impossible is noted and skipped",
     {**RED_AT_SEA, "red-inf-01": "Petrograd"}, {**ALLIES_SEARCH, "control": {"Riga": "red"}},
     "red", [move(["red-inf-01"], "Riga", via=["Baltic Sea"]), search()],
     [4, 3] + [6, 6, 1] + [1, 1, 1],
     ["naval_search", "combat_round", "reduced", "reduced", "retreat", "naval_battle_over",
      "note", "moved", "note"]),
]


@pytest.mark.parametrize(("name", "pieces", "extra", "faction", "items", "dice", "expected"), CASES,
                         ids=[c[0] for c in CASES])
def test_naval(name: str, pieces: dict[str, str], extra: dict[str, Any], faction: str,
               items: list[dict[str, Any]], dice: list[int], expected: list[str]) -> None:
    events, _, _ = play(pieces, faction, items, dice, extra)
    assert [e["type"] for e in events] == expected
    for e in events:  # every event has its own report line
        assert not fold_rules.describe_event(data(), e).startswith(f"{e['type']}:"), e


# (name, pieces, extra position, orders, expected message fragment, its path in the orders)
REFUSED: list[tuple[str, dict[str, str], dict[str, Any], list[dict[str, Any]], str, tuple[Any, ...]]] = [
    ("8.92 a search is made at sea",
     RED_AT_SEA, {}, [search("Reval")], "Reval is not a sea zone", ("orders", 0, "search", "zone")),
    ("8.92 a search needs an enemy fleet in the sea",
     {"red-fleet-01": "Baltic Sea"}, {}, [search()], "no enemy fleet at sea in the Baltic Sea",
     ("orders", 0, "search", "zone")),
    ("8.92 a search needs a fleet of yours at sea there",
     {"red-fleet-01": "Petrograd", "allied-fleet-03": "Baltic Sea"}, {}, [search()],
     "you have no fleet at sea in the Baltic Sea", ("orders", 0, "search", "zone")),
    ("8.92 only fleets search",
     {**RED_AT_SEA, "red-inf-01": "Petrograd"}, {}, [search(fleets=["red-inf-01"])],
     "red-inf-01 is not a fleet", ("orders", 0, "search", "fleets", 0)),
    ("8.92 a sea is searched once a phase",
     RED_AT_SEA, {}, [search(), search()], "searched once a phase", ("orders", 1, "search", "zone")),
    ("8.92 a blockading fleet lies at sea next to the port",
     {"red-fleet-01": "Petrograd"}, {}, [blockade("Reval")], "adjacent to Reval",
     ("orders", 0, "blockade", "port")),
    ("8.92 a fleet blockades only a port of its own sea",
     {"red-fleet-01": "Baltic Sea"}, {}, [blockade("Odessa", fleets=["red-fleet-01"])],
     "red-fleet-01 is not adjacent to Odessa", ("orders", 0, "blockade", "fleets", 0)),
    ("8.92 only fleets blockade",
     {"red-fleet-01": "Baltic Sea", "red-inf-01": "Petrograd"}, {},
     [blockade("Reval", fleets=["red-inf-01"])], "red-inf-01 is not a fleet",
     ("orders", 0, "blockade", "fleets", 0)),
    ("8.92 only a port is blockaded",
     {"red-fleet-01": "Baltic Sea"}, {}, [blockade("Moscow")], "Moscow is not a port",
     ("orders", 0, "blockade", "port")),
    ("8.92 a blockade closes an enemy or neutral port",
     {"red-fleet-01": "Baltic Sea"}, {}, [blockade("Petrograd")], "Petrograd is friendly to red",
     ("orders", 0, "blockade", "port")),
    ("8.92 a fleet blockades a port once",
     {"red-fleet-01": "Baltic Sea"}, {"blockade": {"red-fleet-01": "Reval"}}, [blockade("Reval")],
     "already blockade", ("orders", 0, "blockade", "port")),
    ("8.92 only a blockade of yours is lifted",
     {"red-fleet-01": "Baltic Sea"}, {}, [{"lift_blockade": {"port": "Reval"}}],
     "no blockade of Reval to lift", ("orders", 0, "lift_blockade", "port")),
    ("8.92 the blockade order names a port",
     {"red-fleet-01": "Baltic Sea"}, {}, [{"blockade": {"zone": "Reval"}}], "unknown key 'zone'",
     ("orders", 0, "blockade", "zone")),
]


@pytest.mark.parametrize(("name", "pieces", "extra", "items", "expected", "where"), REFUSED,
                         ids=[c[0] for c in REFUSED])
def test_naval_orders_refused(name: str, pieces: dict[str, str], extra: dict[str, Any],
                              items: list[dict[str, Any]], expected: str, where: tuple[Any, ...]) -> None:
    state = setting(pieces, "red", extra)
    found = problems(state, "red", orders(*items))
    assert any(expected in p.message and p.path == where for p in found), \
        [(p.path, p.message) for p in found]


def test_8_92_search_dice_and_rounds_are_labelled_from_the_game_state() -> None:
    _, _, rng = play(RED_AT_SEA, "red", [search()], [3, 4] + [1] * 6)
    assert rng.labels[:3] == ["naval:baltic-sea:t3:red:o0:search:d1",
                              "naval:baltic-sea:t3:red:o0:search:d2",
                              "naval:baltic-sea:t3:red:o0:atk:r1:d1"]
    assert rng.labels[-1] == "naval:baltic-sea:t3:red:o0:def:r1:d3"


def test_8_92_the_naval_round_is_land_combats_fire_and_costs_nothing() -> None:
    events, after, _ = play(RED_AT_SEA, "red", [search()], [3, 4] + [6, 6, 1] + [1, 1, 1])
    search_event, rnd = events[0], events[1]
    assert (search_event["dice"], search_event["contact"]) == ([3, 4], True)
    assert rnd["dice"]["atk"] == [{"what": "fleets", "count": 3, "hit": 6, "values": [6, 6, 1], "hits": 2}]
    assert rnd["hits"] == {"atk": 2, "def": 0}
    assert after["money"]["red"] == 30  # 8.92 no need to pay
    fleet = after["units"]["allied-fleet-03"]
    assert (fleet["zone"], fleet["reduced"]) == ("Reval", True)  # a White port (18.1)


def test_8_92_a_declared_blockade_stays_in_the_state() -> None:
    _, after, _ = play({"red-fleet-01": "Baltic Sea"}, "red", [blockade("Reval")], [])
    assert after["blockade"] == {"red-fleet-01": "Reval"}
    _, after, _ = play({"red-fleet-01": "Baltic Sea"}, "red",
                       [blockade("Reval"), move(["red-fleet-01"], "Petrograd")], [])
    assert after["blockade"] == {}


def _attack_reval(blockaded: bool) -> tuple[list[dict[str, Any]], dict[str, Any]]:
    # 10 Red dice, two sixes: two hits, taken by the British fleet (north's loss_order)
    pieces = {"red-inf-01": "Reval", "red-inf-02": "Reval", "north-inf-01": "Reval",
              "allied-fleet-03": "Reval", "red-fleet-01": "Baltic Sea"}
    items = ([blockade("Reval")] if blockaded else []) + [{"attack": {"zone": "Reval"}}]
    # the defender rolls north-inf-01's 4, the fleet's 3 and Reval's fortification 2
    events, after, _ = play(pieces, "red", items, [6, 6] + [1] * 8 + [1] * 9,
                            {"standing": {"north": {"loss_order": ["allied-fleet-03"]}}},
                            secret={"spend": {"Reval": 1}})
    return events, after


def test_8_92_a_fleet_may_not_retreat_from_a_blockaded_port() -> None:
    events, after = _attack_reval(blockaded=True)
    gone = next(e for e in events if e["type"] == "eliminated")
    assert gone["unit"] == "allied-fleet-03" and "blockaded port" in gone["why"]
    assert after["units"]["allied-fleet-03"]["status"] == "eliminated"


def test_8_92_without_the_blockade_the_damaged_fleet_puts_to_sea() -> None:
    events, after = _attack_reval(blockaded=False)
    assert not any(e["type"] == "eliminated" for e in events)
    assert after["units"]["allied-fleet-03"]["zone"] == "Baltic Sea"


def test_8_92_a_fleet_leaving_a_blockaded_port_breaks_out_or_goes_back() -> None:
    pieces = {"red-fleet-01": "Petrograd", "allied-fleet-03": "Baltic Sea"}
    _, after, _ = play(pieces, "red", [move(["red-fleet-01"], "Baltic Sea")],
                       [6, 6, 1] + [1, 1, 1], BLOCKED_PETROGRAD)
    assert after["units"]["red-fleet-01"]["zone"] == "Baltic Sea"
    assert after["units"]["allied-fleet-03"]["zone"] == "Reval" and after["blockade"] == {}
    events, after, _ = play(pieces, "red", [move(["red-fleet-01"], "Baltic Sea")],
                            [1, 1, 1] + [6, 6, 1], BLOCKED_PETROGRAD)
    back = next(e for e in events if e["type"] == "retreat")
    assert (back["zone"], back["to"]) == ("Baltic Sea", "Petrograd")
    assert after["units"]["red-fleet-01"]["zone"] == "Petrograd"
    assert after["blockade"] == {"allied-fleet-03": "Petrograd"}


def test_8_92_a_fleet_turned_back_from_a_blockaded_port_withdraws_into_its_sea() -> None:
    events, after, _ = play(RED_AT_SEA, "red", [move(["red-fleet-01"], "Petrograd")],
                            [1, 1, 1] + [6, 6, 1], BLOCKED_PETROGRAD)
    back = next(e for e in events if e["type"] == "retreat")
    assert (back["zone"], back["to"]) == ("Petrograd", "Baltic Sea")
    assert after["units"]["red-fleet-01"]["zone"] == "Baltic Sea"


def test_8_92_the_transported_unit_shares_its_fleets_step_loss_and_turns_back() -> None:
    events, after, rng = play({**RED_AT_SEA, "red-inf-01": "Petrograd"}, "red",
                              [move(["red-inf-01"], "Riga", via=["Baltic Sea"])],
                              [4, 3] + [6, 6, 1] + [1, 1, 1],
                              {**ALLIES_SEARCH, "control": {"Riga": "red"}})
    assert rng.labels[0] == "naval:baltic-sea:t3:allies:on-red:o0:search:d1"
    shared = [e for e in events if e["type"] == "reduced"]
    assert [e["unit"] for e in shared] == ["red-fleet-01", "red-inf-01"]
    assert "8.92" in shared[1]["by"]
    unit = after["units"]["red-inf-01"]
    assert (unit["zone"], unit["reduced"]) == ("Petrograd", True)
    back = next(e for e in events if e["type"] == "moved")
    assert (back["path"], back["stopped"]) == (["Petrograd"], True)  # no more moving this phase


def test_8_92_the_unit_aboard_a_sunk_fleet_goes_down_with_the_same_steps() -> None:
    _, after, _ = play({**RED_AT_SEA, "red-inf-01": "Petrograd"}, "red",
                       [move(["red-inf-01"], "Riga", via=["Baltic Sea"])],
                       [4, 3] + [6, 6, 6] + [1, 1, 1], {**ALLIES_SEARCH, "control": {"Riga": "red"}})
    assert after["units"]["red-fleet-01"]["status"] == "eliminated"
    assert after["units"]["red-inf-01"]["status"] == "eliminated"


def test_8_92_the_standing_instruction_is_checked() -> None:
    state = setting(RED_AT_SEA, "red", {})
    assert messages(state, "red", orders(standing={"naval_search": "always"})) == []
    assert any("naval_search is one of never, always" in m
               for m in messages(state, "red", orders(standing={"naval_search": "sometimes"})))


def test_8_92_the_bot_seeks_out_a_weaker_enemy_fleet() -> None:
    state = setting(RED_AT_SEA, "red", {"reduced": ["allied-fleet-03"]})
    body = GAME.bot(data(), state, "red", KeyedRng(b"\x02" * 32))
    assert {"search": {"zone": "Baltic Sea"}} in body["orders"]
    assert messages(state, "red", body) == []
    state = setting(RED_AT_SEA, "red", {"reduced": ["red-fleet-01"]})
    body = GAME.bot(data(), state, "red", KeyedRng(b"\x02" * 32))
    assert not any("search" in order for order in body["orders"])


def test_8_92_a_fleet_retreating_by_choice_from_a_port_battle_puts_to_sea() -> None:
    pieces = {"red-inf-01": "Novorossiysk", "red-inf-02": "Novorossiysk", "red-inf-03": "Novorossiysk",
              "south-inf-01": "Novorossiysk", "south-fleet-01": "Novorossiysk"}
    state = setting(pieces, "red", {"standing": {"south": {"voluntary_retreat": "when_outnumbered"}}})
    body = orders({"attack": {"zone": "Novorossiysk"}})
    body["secret"] = {"spend": {"Novorossiysk": 1}}
    events = GAME.resolve(data(), state, {"red": body}, FixedRng(*[1] * 40), OpenSecrets())
    retreats = {e["units"][0]: e["to"] for e in events if e["type"] == "retreat"}
    assert retreats["south-fleet-01"] == "Black Sea"
    assert retreats["south-inf-01"] in data()["map"]["zones"]


# ---------------------------------------------------------------------------------------
# 8.92 the exact outcome of each case: a search of the Baltic Sea with exactly its dice, the
# events expected in full


def board() -> Any:
    return board_rules.board(data())


def baltic_search(state: dict[str, Any], searcher: str, fleets: list[str], dice: list[int],
                  ) -> tuple[Events, dict[str, Any], SixSided]:
    """A search of the Baltic Sea in the searcher's phase (8.92) with exactly these dice,
    every one six-sided."""
    rng = SixSided(*dice)
    events, after, _ = naval.search(board(), data(), state, searcher, BALTIC, fleets, "naval:t",
                                    rng, phasing=True)
    assert rng.values == [], f"dice left over: {rng.values}"
    assert rng.sides == [6] * len(dice)
    return events, after, rng


def naval_search(faction: str, fleets: list[str], targets: list[str], dice: list[int],
                 *, phasing: bool = True) -> dict[str, Any]:
    return {"type": "naval_search", "zone": BALTIC, "faction": faction, "phasing": phasing,
            "fleets": fleets, "targets": targets, "dice": dice, "contact": sum(dice) >= 7}


def naval_round(attacker: str, r: int, atk: list[int], dfn: list[int]) -> dict[str, Any]:
    hits = {"atk": sum(v >= 6 for v in atk), "def": sum(v >= 6 for v in dfn)}
    return {"type": "combat_round", "zone": BALTIC, "round": r, "attacker": attacker,
            "dice": {"atk": [{"what": "fleets", "count": len(atk), "hit": 6, "values": atk, "hits": hits["atk"]}],
                     "def": [{"what": "fleets", "count": len(dfn), "hit": 6, "values": dfn, "hits": hits["def"]}]},
            "hits": hits}


def over(attacker: str, atk_left: list[str], def_left: list[str], **port: str) -> dict[str, Any]:
    return {"type": "naval_battle_over", "zone": BALTIC, "attacker": attacker,
            "attacker_left": atk_left, "defender_left": def_left, **port}


def labels(prefix: str, side: str, r: int, count: int) -> list[str]:
    return [f"{prefix}:{side}:r{r}:d{k}" for k in range(1, count + 1)]


# ---------------------------------------------------------------------------------------
# 8.4 whether a defender has a retreat before combat to be asked about


def before(pieces: dict[str, str], zone: str, attacker: str, units: list[str], faction: str, *,
           control: dict[str, Any] | None = None, turn: int = 3) -> str | None:
    state = position(pieces, actor=attacker, control=control, turn=turn)
    state["standing"] = standing_()
    why: str | None = naval.retreat_before_possible(board(), data(), state, attacker,
                                                    {"zone": zone, "units": units, "leaders": []}, faction)
    return why


NO_ZONE = ("no zone it may retreat to: not along a difficult route, nor the attacker's route, "
           "nor into an enemy zone or one with more enemy units, and no fleet to go by sea (8.4)")


def test_8_4_more_attacking_cavalry_counts_each_side_s_cavalry_units() -> None:
    # 8.4 "If the attacking forces have more cavalry units than the defender. Defending units
    # composed only of cavalry are always considered to have more cavalry units": South at
    # Tver (Red) may go to Moscow (South's), an easy route, unless the Reds have more cavalry
    red_cav = {"red-cav-01": "Tver", "red-cav-02": "Tver"}
    moscow = {"Moscow": "south"}
    two = ["red-cav-01", "red-cav-02"]
    # two Red cavalry against one (and an infantry unit): more cavalry, no retreat
    assert before({**red_cav, "south-cav-01": "Tver", "south-inf-01": "Tver"}, "Tver", "red", two,
                  "south", control=moscow) == "the attacker has more cavalry (8.4)"
    # two against two, or one against one: not more; the retreat to Moscow is open
    assert before({**red_cav, "south-cav-01": "Tver", "south-cav-02": "Tver", "south-inf-01": "Tver"},
                  "Tver", "red", two, "south", control=moscow) is None
    assert before({"red-cav-01": "Tver", "south-cav-01": "Tver", "south-inf-01": "Tver"}, "Tver", "red",
                  ["red-cav-01"], "south", control=moscow) is None
    # cavalry alone always has more cavalry than the attacker
    assert before({**red_cav, "south-cav-01": "Tver"}, "Tver", "red", two, "south", control=moscow) is None
    # two Red infantry units are no cavalry: South's infantry may go
    assert before({"red-inf-01": "Tver", "red-inf-02": "Tver", "south-inf-01": "Tver"}, "Tver", "red",
                  ["red-inf-01", "red-inf-02"], "south", control=moscow) is None


def test_8_4_without_an_easy_route_to_a_friendly_zone_only_a_fleet_in_the_port_takes_them() -> None:
    # Novorossiysk's only route leads to Ekaterinodar, here the Reds': "If they must move into
    # an enemy ... zone"; "The defender may also retreat by sea if a friendly fleet is present"
    red = {"Ekaterinodar": "red"}
    attackers = {"red-inf-01": "Novorossiysk"}
    assert before({**attackers, "south-inf-01": "Novorossiysk"}, "Novorossiysk", "red", ["red-inf-01"],
                  "south", control=red) == NO_ZONE
    assert before({**attackers, "south-inf-01": "Novorossiysk", "south-fleet-01": "Novorossiysk"},
                  "Novorossiysk", "red", ["red-inf-01"], "south", control=red) is None
    # a fleet alone is no land unit: 8.4 has nothing to ask (10.5 decides for leaders alone)
    assert before({**attackers, "south-fleet-01": "Novorossiysk"}, "Novorossiysk", "red", ["red-inf-01"],
                  "south", control=red) is None
    # with Ekaterinodar South's again, the route is open
    assert before({**attackers, "south-inf-01": "Novorossiysk"}, "Novorossiysk", "red", ["red-inf-01"],
                  "south") is None


def test_8_4_no_retreat_before_combat_along_a_difficult_route() -> None:
    # "If they must pass through a difficult or very difficult route": Murmansk's only route,
    # to Kem (here the Reds'), is difficult; a forced retreat after a round may take it (8.7)
    pieces = {"north-inf-01": "Murmansk", "red-inf-01": "Murmansk"}
    assert before(pieces, "Murmansk", "north", ["north-inf-01"], "red", control={"Kem": "red"}) == NO_ZONE


# ---------------------------------------------------------------------------------------
# 8.92 search and blockade orders


AT = ("orders", 0, "search")


def test_8_92_a_search_order_gives_its_sea_fleets_and_targets_and_names_each_bad_fleet() -> None:
    # 8.92 "the player in the movement phase may seek out the enemy fleet sailing in that sea zone"
    found: list[Any] = []
    searched: set[str] = set()
    spec = naval.check_search(board(), position(RED_AT_SEA), "red", {"zone": BALTIC}, AT, searched, found)
    assert spec == {"zone": BALTIC, "fleets": ["red-fleet-01"], "targets": ["allied-fleet-03"]}
    assert found == [] and searched == {BALTIC}
    # every fleet named is checked: an unknown name does not hide the next one's problem
    state = position({**RED_AT_SEA, "red-inf-01": BALTIC})
    found = []
    assert naval.check_search(board(), state, "red", {"zone": BALTIC, "fleets": ["nobody", "red-inf-01"]},
                              AT, set(), found) is None
    assert [(p.path, p.message) for p in found] == [
        ((*AT, "fleets", 0), "unknown unit or leader 'nobody'"),
        ((*AT, "fleets", 1), "red-inf-01 is not a fleet (8.92)")]


def test_8_92_fleets_that_already_blockade_the_port_are_all_named() -> None:
    # 8.92 "the owner of the fleet places it adjacent to the port and declares the blockade":
    # once; both British fleets already blockade Petrograd
    state = position({"allied-fleet-03": BALTIC, "allied-fleet-04": BALTIC})
    state["blockade"] = {"allied-fleet-03": "Petrograd", "allied-fleet-04": "Petrograd"}
    at = ("orders", 0, "blockade")
    found: list[Any] = []
    assert naval.check_blockade(board(), state, "allies", {"port": "Petrograd"}, at, found) is None
    assert [(p.path, p.message) for p in found] == [
        ((*at, "port"), "allied-fleet-03, allied-fleet-04 already blockade(s) Petrograd")]


# ---------------------------------------------------------------------------------------
# 8.92 a search's dice and its round: what a fleet carries, where a damaged fleet goes


def test_8_92_a_search_rolls_two_six_sided_dice_contact_on_seven() -> None:
    # "roll two dice. On a result of 7 or more, there is contact": 3+3 no contact, no round
    state = position(RED_AT_SEA)
    state["standing"] = standing_()
    events, _, rng = baltic_search(state, "red", ["red-fleet-01"], [3, 3])
    assert events == [naval_search("red", ["red-fleet-01"], ["allied-fleet-03"], [3, 3])]
    assert rng.labels == ["naval:t:search:d1", "naval:t:search:d2"]
    # 3+4: contact, one round
    events, _, rng = baltic_search(state, "red", ["red-fleet-01"], [3, 4] + [1] * 6)
    assert events == [naval_search("red", ["red-fleet-01"], ["allied-fleet-03"], [3, 4]),
                      naval_round("red", 1, [1] * 3, [1] * 3),
                      over("red", ["red-fleet-01"], ["allied-fleet-03"])]
    assert rng.labels == (["naval:t:search:d1", "naval:t:search:d2"] + labels("naval:t", "atk", 1, 3)
                          + labels("naval:t", "def", 1, 3))


def carrying(control: dict[str, Any]) -> dict[str, Any]:
    """The Red fleet in the Baltic with red-inf-01 aboard since a retreat by sea (8.4)."""
    state = position({**RED_AT_SEA, "red-inf-01": BALTIC}, actor="north", control=control)
    state["aboard"] = {"red-inf-01": "red-fleet-01"}
    state["standing"] = standing_()
    out: dict[str, Any] = state
    return out


def test_8_92_a_searched_fleet_s_step_lost_is_its_cargo_s_and_with_no_port_both_are_lost() -> None:
    # "If a fleet carrying units loses a step loss, then the transported unit must suffer the
    # same damage"; 8.7 a damaged fleet that cannot retreat is eliminated: Petrograd is
    # North's here, no Baltic port is friendly to the Reds; the unit aboard goes down with it
    state = carrying({"Petrograd": "north"})
    events, after, _ = baltic_search(state, "allies", ["allied-fleet-03"], [3, 4] + [6, 6, 1] + [1, 1, 1])
    assert events == [
        naval_search("allies", ["allied-fleet-03"], ["red-fleet-01"], [3, 4]),
        naval_round("allies", 1, [6, 6, 1], [1, 1, 1]),
        {"type": "reduced", "unit": "red-fleet-01", "by": "combat"},
        {"type": "reduced", "unit": "red-inf-01", "by": "a step lost by its carrier red-fleet-01 (8.92)"},
        {"type": "eliminated", "unit": "red-fleet-01", "zone": BALTIC,
         "why": "no friendly port to retreat to (8.7, 8.92)"},
        {"type": "eliminated", "unit": "red-inf-01", "zone": BALTIC,
         "why": "lost at sea with its fleet red-fleet-01, which is gone (8.4, 8.92)"},
        over("allies", ["allied-fleet-03"], []),
    ]
    assert after["units"]["red-fleet-01"]["status"] == "eliminated"
    assert after["units"]["red-inf-01"]["status"] == "eliminated"


def test_8_92_a_damaged_fleet_takes_its_cargo_into_a_friendly_port() -> None:
    # Petrograd the Reds': the damaged fleet and the unit aboard land there
    state = carrying({})
    events, after, _ = baltic_search(state, "allies", ["allied-fleet-03"], [3, 4] + [6, 6, 1] + [1, 1, 1])
    assert events[4:] == [
        {"type": "retreat", "zone": BALTIC, "faction": "red", "units": ["red-fleet-01", "red-inf-01"],
         "to": "Petrograd", "when": "after a round at sea (8.92)"},
        over("allies", ["allied-fleet-03"], []),
    ]
    assert after["units"]["red-inf-01"]["zone"] == "Petrograd"
    assert after["units"]["red-inf-01"]["reduced"] is True


def red_damaged(control: dict[str, Any], *, turn: int = 3, retreat_to: list[str] | None = None,
                blockade: dict[str, str] | None = None) -> Events:
    """The Reds search the British fleet and take two hits: where red-fleet-01 goes."""
    state = position(RED_AT_SEA, control=control, turn=turn)
    state["standing"] = standing_({"red": {"retreat_to": retreat_to}} if retreat_to else None)
    if blockade:
        state["blockade"] = blockade
    events, _, _ = baltic_search(state, "red", ["red-fleet-01"], [3, 4] + [1, 1, 1] + [6, 6, 1])
    assert events[:3] == [naval_search("red", ["red-fleet-01"], ["allied-fleet-03"], [3, 4]),
                          naval_round("red", 1, [1, 1, 1], [6, 6, 1]),
                          {"type": "reduced", "unit": "red-fleet-01", "by": "combat"}]
    return events[3:]


def retreat(to: str) -> dict[str, Any]:
    return {"type": "retreat", "zone": BALTIC, "faction": "red", "units": ["red-fleet-01"], "to": to,
            "when": "after a round at sea (8.92)"}


SUNK = {"type": "eliminated", "unit": "red-fleet-01", "zone": BALTIC,
        "why": "no friendly port to retreat to (8.7, 8.92)"}


def test_8_92_8_7_a_damaged_fleet_retreats_into_the_friendly_open_port_it_prefers() -> None:
    # Petrograd and Riga both the Reds': by name Petrograd, by the standing retreat_to Riga
    both = {"Riga": "red"}
    assert red_damaged(both)[0] == retreat("Petrograd")
    assert red_damaged(both, retreat_to=["Riga"])[0] == retreat("Riga")
    # 11.0 Riga is an iron-cross zone, out of play on turns 1 and 2
    assert red_damaged({"Riga": "red", "Petrograd": "north"}, turn=2)[0] == SUNK
    assert red_damaged({"Riga": "red", "Petrograd": "north"}, turn=3)[0] == retreat("Riga")


def test_8_92_a_damaged_fleet_does_not_retreat_into_a_port_blockaded_against_it() -> None:
    # "A fleet may not retreat from a blockaded port": nor into one (entering is a fight)
    assert red_damaged({}, blockade={"allied-fleet-03": "Petrograd"})[0] == SUNK
    # its own blockade does not close a port against it: Riga, taken since, is open to it
    events = red_damaged({"Riga": "red", "Petrograd": "north"}, blockade={"red-fleet-01": "Riga"})
    assert events[:2] == [retreat("Riga"),
                          {"type": "blockade_lifted", "port": "Riga", "fleets": ["red-fleet-01"],
                           "why": "the fleet left for Riga"}]


# ---------------------------------------------------------------------------------------
# 8.6 losses at sea follow the loss order of the side that takes them


def test_8_6_a_hit_at_sea_goes_to_the_fleet_the_side_s_loss_order_names() -> None:
    # two reduced British fleets (1 defence each) in the Baltic, one hit: the allies'
    # loss_order chooses which is lost; without it the first by name (allied-fleet-03)
    pieces = {**RED_AT_SEA, "allied-fleet-04": BALTIC}
    reduced = ("allied-fleet-03", "allied-fleet-04")
    order = {"allies": {"loss_order": ["allied-fleet-04"]}}
    lost = {"type": "reduced", "unit": "allied-fleet-04", "by": "combat", "eliminated": True}
    # the British search: their loss order is the attacker's
    state = position(pieces, reduced=reduced)
    state["standing"] = standing_(order)
    events, _, _ = baltic_search(state, "allies", ["allied-fleet-03", "allied-fleet-04"], [3, 4] + [1] * 4 + [6, 1, 1])
    assert events[1:] == [naval_round("allies", 1, [1] * 4, [6, 1, 1]), lost,
                          over("allies", ["allied-fleet-03"], ["red-fleet-01"])]
    # the Reds search; with South's fleet on the British side too, the loss order of each
    # owner of the side counts (South's has none)
    state = position({**pieces, "south-fleet-01": BALTIC}, reduced=reduced)
    state["standing"] = standing_(order)
    events, _, _ = baltic_search(state, "red", ["red-fleet-01"], [3, 4] + [6, 1, 1] + [1] * 7)
    targets = ["allied-fleet-03", "allied-fleet-04", "south-fleet-01"]
    assert events == [naval_search("red", ["red-fleet-01"], targets, [3, 4]),
                      naval_round("red", 1, [6, 1, 1], [1] * 7), lost,
                      over("red", ["red-fleet-01"], ["allied-fleet-03", "south-fleet-01"])]
    # without a loss order the first by name
    state["standing"] = standing_()
    events, _, _ = baltic_search(state, "red", ["red-fleet-01"], [3, 4] + [6, 1, 1] + [1] * 7)
    assert events[2] == {**lost, "unit": "allied-fleet-03"}


# ---------------------------------------------------------------------------------------
# 8.7 retreats by choice at sea


def test_8_7_a_fleet_not_outnumbered_does_not_withdraw_by_choice() -> None:
    # one fleet against one: "when_outnumbered" does not apply, both stay after the round
    state = position(RED_AT_SEA)
    state["standing"] = standing_({"red": {"voluntary_retreat": "when_outnumbered"},
                                   "allies": {"voluntary_retreat": "when_outnumbered"}})
    events, _, _ = baltic_search(state, "red", ["red-fleet-01"], [3, 4] + [1] * 6)
    assert events[1:] == [naval_round("red", 1, [1] * 3, [1] * 3),
                          over("red", ["red-fleet-01"], ["allied-fleet-03"])]


# ---------------------------------------------------------------------------------------
# 8.92 blockade runs


def test_8_92_a_fleet_entering_a_blockaded_port_turns_back_to_the_sea_it_came_from() -> None:
    # "a fleet that enters a blockaded port wishing to retreat from a combat must withdraw
    # into the sea zone it came from": the Red fleet has sailed into Petrograd, blockaded by
    # the British fleet; a hundred rounds of ones and it turns back from Petrograd
    state = position({"red-fleet-01": "Petrograd", "allied-fleet-03": BALTIC})
    state["standing"] = standing_()
    state["blockade"] = {"allied-fleet-03": "Petrograd"}
    rng = SixSided(*[1] * 600)
    events, after = naval.blockade_run(board(), data(), state, "red", ["red-fleet-01"], BALTIC, "Petrograd",
                                       "Petrograd", "naval:x", rng)
    assert events[0] == {"type": "blockade_run", "zone": BALTIC, "port": "Petrograd", "faction": "red",
                         "fleets": ["red-fleet-01"], "blockaders": ["allied-fleet-03"], "way": "entering"}
    assert events[1:101] == [naval_round("red", r, [1] * 3, [1] * 3) for r in range(1, 101)]
    assert events[101:] == [
        {"type": "retreat", "zone": "Petrograd", "faction": "red", "units": ["red-fleet-01"], "to": BALTIC,
         "when": "no decision after 100 rounds (8.92)"},
        over("red", [], ["allied-fleet-03"], port="Petrograd"),
    ]
    assert rng.values == [] and after["units"]["red-fleet-01"]["zone"] == BALTIC


def test_8_92_8_7_a_runner_outnumbered_withdraws_by_choice_from_the_port_it_entered() -> None:
    # both British fleets blockade Petrograd: the Red runner, outnumbered, goes back to sea
    state = position({"red-fleet-01": "Petrograd", "allied-fleet-03": BALTIC, "allied-fleet-04": BALTIC})
    state["standing"] = standing_({"red": {"voluntary_retreat": "when_outnumbered"}})
    state["blockade"] = {"allied-fleet-03": "Petrograd", "allied-fleet-04": "Petrograd"}
    rng = SixSided(*[1] * 9)
    events, after = naval.blockade_run(board(), data(), state, "red", ["red-fleet-01"], BALTIC, "Petrograd",
                                       "Petrograd", "naval:x", rng)
    assert events == [
        {"type": "blockade_run", "zone": BALTIC, "port": "Petrograd", "faction": "red",
         "fleets": ["red-fleet-01"], "blockaders": ["allied-fleet-03", "allied-fleet-04"], "way": "entering"},
        naval_round("red", 1, [1] * 3, [1] * 6),
        {"type": "retreat", "zone": "Petrograd", "faction": "red", "units": ["red-fleet-01"], "to": BALTIC,
         "when": "by choice after a round at sea (8.92)"},
        over("red", [], ["allied-fleet-03", "allied-fleet-04"], port="Petrograd"),
    ]
    assert rng.values == [] and after["units"]["red-fleet-01"]["zone"] == BALTIC


def test_8_92_only_the_blockade_of_the_runner_s_enemies_is_fought() -> None:
    # the British fleet enters Helsinki (Finland's), blockaded by the Red fleet and by the
    # other British fleet: only the Red one fights it
    state = position({"allied-fleet-03": "Helsinki", "red-fleet-01": BALTIC, "allied-fleet-04": BALTIC})
    state["standing"] = standing_()
    state["blockade"] = {"red-fleet-01": "Helsinki", "allied-fleet-04": "Helsinki"}
    rng = SixSided(*[6, 6, 1] + [1, 1, 1])
    events, _ = naval.blockade_run(board(), data(), state, "allies", ["allied-fleet-03"], BALTIC, "Helsinki",
                                   "Helsinki", "naval:h", rng)
    assert events == [
        {"type": "blockade_run", "zone": BALTIC, "port": "Helsinki", "faction": "allies",
         "fleets": ["allied-fleet-03"], "blockaders": ["red-fleet-01"], "way": "entering"},
        naval_round("allies", 1, [6, 6, 1], [1, 1, 1]),
        {"type": "reduced", "unit": "red-fleet-01", "by": "combat"},
        {"type": "retreat", "zone": BALTIC, "faction": "red", "units": ["red-fleet-01"], "to": "Petrograd",
         "when": "after a round at sea (8.92)"},
        {"type": "blockade_lifted", "port": "Helsinki", "fleets": ["red-fleet-01"],
         "why": "the fleet left for Petrograd"},
        over("allies", ["allied-fleet-03"], [], port="Helsinki"),
    ]
    assert rng.values == [] and rng.labels[:3] == labels("naval:h", "atk", 1, 3)


# ---------------------------------------------------------------------------------------
# 8.92 searches by players not in their phase


def test_8_92_opponents_search_a_passing_fleet_in_turn_order_each_one_that_says_always() -> None:
    # South (turn order before the Allies) and the Allies both lie in the Baltic: the Red
    # fleet putting to sea is searched by South first, then by the Allies; no contact
    b = board()
    state = position({**RED_AT_SEA, "south-fleet-01": BALTIC})
    state["standing"] = standing_({"south": {"naval_search": "always"}, "allies": {"naval_search": "always"}})
    rng = SixSided(1, 1, 2, 2)
    events, _, contact = naval.opponent_searches(b, data(), state, "red", BALTIC, "o5", rng, {})
    assert contact is False
    assert events == [
        naval_search("south", ["south-fleet-01"], ["red-fleet-01"], [1, 1], phasing=False),
        naval_search("allies", ["allied-fleet-03"], ["red-fleet-01"], [2, 2], phasing=False),
    ]
    assert rng.labels == ["naval:baltic-sea:t3:south:on-red:o5:search:d1",
                          "naval:baltic-sea:t3:south:on-red:o5:search:d2",
                          "naval:baltic-sea:t3:allies:on-red:o5:search:d1",
                          "naval:baltic-sea:t3:allies:on-red:o5:search:d2"]
    # South does not search: the Allies still do
    state["standing"] = standing_({"allies": {"naval_search": "always"}})
    rng = SixSided(2, 2)
    events, _, contact = naval.opponent_searches(b, data(), state, "red", BALTIC, "o5", rng, {})
    assert contact is False
    assert events == [naval_search("allies", ["allied-fleet-03"], ["red-fleet-01"], [2, 2], phasing=False)]


def test_8_92_a_friendly_fleet_does_not_search_a_passing_fleet() -> None:
    # the Black Sea: South's fleet puts to sea where the French fleet lies, a friend (18.1)
    b = board()
    state = position({"south-fleet-01": "Black Sea", "allied-fleet-02": "Black Sea"}, actor="south")
    state["standing"] = standing_({"allies": {"naval_search": "always"}})
    rng = SixSided()
    assert naval.opponent_searches(b, data(), state, "south", "Black Sea", "o1", rng, {}) == ([], state, False)
    assert rng.labels == []
