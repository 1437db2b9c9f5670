"""Red Russia at sea (8.92) as rule tables: a position, the orders, the dice, the expected
events or error. Each case's name starts with the rule it tests.

The only enemy fleets that can share a sea are the Reds' Baltic fleet (red-fleet-01) and the
British one (allied-fleet-03), both 3-2 at full strength and 2-1 reduced.
"""

from __future__ import annotations

import importlib
from typing import Any

import pytest
from position import (
    GAME,
    FixedRng,
    OpenSecrets,
    data,
    messages,
    orders,
    position,
    problems,
    resolve_exact,
)
from position import standing as standing_

from pbem.dice import KeyedRng

rules = importlib.import_module("pbem_game_red_russia")

RED_AT_SEA = {"red-fleet-01": "Baltic Sea", "allied-fleet-03": "Baltic Sea"}


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
        assert not rules.describe_event(data(), e).startswith(f"{e['type']}:"), e


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
