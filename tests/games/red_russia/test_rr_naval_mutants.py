"""Red Russia at sea (naval.py) cases written against the survivors of mutation testing
(benchmarks/mutation.py games/red_russia/rules/naval.py): each asserts the exact outcome -
the events, the dice asked, the units' state, the message - that a changed line of naval.py
would change. Each test's name starts with the rule it checks (rulebook:
../shared/rules/red-russia-rules.txt).

In the game's counters only red-fleet-01 and allied-fleet-03 are enemies in one sea (the
Baltic); as in test_rr_combat_mutants.py, a side of several fleets (a loss order to follow,
a side outnumbered, a second blockade) puts allied-fleet-04 or south-fleet-01 in the Baltic
Sea for the case.
"""

from __future__ import annotations

import importlib
from typing import Any

from position import SixSided, board_rules, data, position
from position import standing as standing_

naval = importlib.import_module("pbem_game_red_russia.naval")

Events = list[dict[str, Any]]
BALTIC = "Baltic Sea"


def board() -> Any:
    return board_rules.board(data())


def search(state: dict[str, Any], searcher: str, fleets: list[str], dice: list[int],
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


SEA = {"red-fleet-01": BALTIC, "allied-fleet-03": BALTIC}
AT = ("orders", 0, "search")


def test_8_92_a_search_order_gives_its_sea_fleets_and_targets_and_names_each_bad_fleet() -> None:
    # 8.92 "the player in the movement phase may seek out the enemy fleet sailing in that sea zone"
    found: list[Any] = []
    searched: set[str] = set()
    spec = naval.check_search(board(), position(SEA), "red", {"zone": BALTIC}, AT, searched, found)
    assert spec == {"zone": BALTIC, "fleets": ["red-fleet-01"], "targets": ["allied-fleet-03"]}
    assert found == [] and searched == {BALTIC}
    # every fleet named is checked: an unknown name does not hide the next one's problem
    state = position({**SEA, "red-inf-01": BALTIC})
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
    state = position(SEA)
    state["standing"] = standing_()
    events, _, rng = search(state, "red", ["red-fleet-01"], [3, 3])
    assert events == [naval_search("red", ["red-fleet-01"], ["allied-fleet-03"], [3, 3])]
    assert rng.labels == ["naval:t:search:d1", "naval:t:search:d2"]
    # 3+4: contact, one round
    events, _, rng = search(state, "red", ["red-fleet-01"], [3, 4] + [1] * 6)
    assert events == [naval_search("red", ["red-fleet-01"], ["allied-fleet-03"], [3, 4]),
                      naval_round("red", 1, [1] * 3, [1] * 3),
                      over("red", ["red-fleet-01"], ["allied-fleet-03"])]
    assert rng.labels == (["naval:t:search:d1", "naval:t:search:d2"] + labels("naval:t", "atk", 1, 3)
                          + labels("naval:t", "def", 1, 3))


def carrying(control: dict[str, Any]) -> dict[str, Any]:
    """The Red fleet in the Baltic with red-inf-01 aboard since a retreat by sea (8.4)."""
    state = position({**SEA, "red-inf-01": BALTIC}, actor="north", control=control)
    state["aboard"] = {"red-inf-01": "red-fleet-01"}
    state["standing"] = standing_()
    out: dict[str, Any] = state
    return out


def test_8_92_a_searched_fleet_s_step_lost_is_its_cargo_s_and_with_no_port_both_are_lost() -> None:
    # "If a fleet carrying units loses a step loss, then the transported unit must suffer the
    # same damage"; 8.7 a damaged fleet that cannot retreat is eliminated: Petrograd is
    # North's here, no Baltic port is friendly to the Reds; the unit aboard goes down with it
    state = carrying({"Petrograd": "north"})
    events, after, _ = search(state, "allies", ["allied-fleet-03"], [3, 4] + [6, 6, 1] + [1, 1, 1])
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
    events, after, _ = search(state, "allies", ["allied-fleet-03"], [3, 4] + [6, 6, 1] + [1, 1, 1])
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
    state = position(SEA, control=control, turn=turn)
    state["standing"] = standing_({"red": {"retreat_to": retreat_to}} if retreat_to else None)
    if blockade:
        state["blockade"] = blockade
    events, _, _ = search(state, "red", ["red-fleet-01"], [3, 4] + [1, 1, 1] + [6, 6, 1])
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
    pieces = {**SEA, "allied-fleet-04": BALTIC}
    reduced = ("allied-fleet-03", "allied-fleet-04")
    order = {"allies": {"loss_order": ["allied-fleet-04"]}}
    lost = {"type": "reduced", "unit": "allied-fleet-04", "by": "combat", "eliminated": True}
    # the British search: their loss order is the attacker's
    state = position(pieces, reduced=reduced)
    state["standing"] = standing_(order)
    events, _, _ = search(state, "allies", ["allied-fleet-03", "allied-fleet-04"], [3, 4] + [1] * 4 + [6, 1, 1])
    assert events[1:] == [naval_round("allies", 1, [1] * 4, [6, 1, 1]), lost,
                          over("allies", ["allied-fleet-03"], ["red-fleet-01"])]
    # the Reds search; with South's fleet on the British side too, the loss order of each
    # owner of the side counts (South's has none)
    state = position({**pieces, "south-fleet-01": BALTIC}, reduced=reduced)
    state["standing"] = standing_(order)
    events, _, _ = search(state, "red", ["red-fleet-01"], [3, 4] + [6, 1, 1] + [1] * 7)
    targets = ["allied-fleet-03", "allied-fleet-04", "south-fleet-01"]
    assert events == [naval_search("red", ["red-fleet-01"], targets, [3, 4]),
                      naval_round("red", 1, [6, 1, 1], [1] * 7), lost,
                      over("red", ["red-fleet-01"], ["allied-fleet-03", "south-fleet-01"])]
    # without a loss order the first by name
    state["standing"] = standing_()
    events, _, _ = search(state, "red", ["red-fleet-01"], [3, 4] + [6, 1, 1] + [1] * 7)
    assert events[2] == {**lost, "unit": "allied-fleet-03"}


# ---------------------------------------------------------------------------------------
# 8.7 retreats by choice at sea


def test_8_7_a_fleet_not_outnumbered_does_not_withdraw_by_choice() -> None:
    # one fleet against one: "when_outnumbered" does not apply, both stay after the round
    state = position(SEA)
    state["standing"] = standing_({"red": {"voluntary_retreat": "when_outnumbered"},
                                   "allies": {"voluntary_retreat": "when_outnumbered"}})
    events, _, _ = search(state, "red", ["red-fleet-01"], [3, 4] + [1] * 6)
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
    state = position({**SEA, "south-fleet-01": BALTIC})
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
