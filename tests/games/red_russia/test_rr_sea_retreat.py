"""Red Russia: retreat before combat by sea (8.4, with 7.5 and 8.92), and the land units at
sea it leaves until they land. Each test's name starts with the rule it checks.

The battle of these tests: the North (north-inf-01) attacks the Reds in Petrograd, a Red
port of the Baltic Sea (fort 4), with a probe. The Reds' Baltic fleet (red-fleet-01, 3-2,
reduced 2-1) may be in the port; the British fleet (allied-fleet-03) is the enemy at sea.
"""

from __future__ import annotations

import importlib
from typing import Any

import pytest
from position import GAME, FixedRng, OpenSecrets, data, messages, orders, position, problems
from position import standing as standing_

from pbem import yamlio
from pbem.log import normal

fold_rules = importlib.import_module("pbem_game_red_russia.fold")
economy = importlib.import_module("pbem_game_red_russia.economy")

HIDDEN = ("phase", "standing", "segment")
BY_SEA = {"retreat_before_combat": "always", "retreat_to": ["Baltic Sea"]}


def fold(state: dict[str, Any], events: list[dict[str, Any]]) -> dict[str, Any]:
    for e in events:
        state = GAME.apply(data(), state, e)
    return state


def attacked(pieces: dict[str, str], red: dict[str, Any] | None = None, *,
             reduced: tuple[str, ...] = (), blockade: dict[str, str] | None = None,
             ) -> tuple[list[dict[str, Any]], dict[str, Any]]:
    """North attacks Petrograd (a probe) where north-inf-01 stands with `pieces`; the Reds'
    standing instructions are `red`. Returns the events shown and the state after them."""
    state = position({"north-inf-01": "Petrograd", **pieces}, actor="north", reduced=reduced)
    state["standing"] = standing_({"red": red or {}})
    if blockade:
        state["blockade"] = dict(blockade)
    body = orders({"attack": {"zone": "Petrograd"}})
    body["secret"] = {"spend": {"Petrograd": 1}}
    assert messages(state, "north", body) == []
    events = GAME.resolve(data(), state, {"north": body}, FixedRng(*[1] * 60), OpenSecrets())
    return [e for e in events if e["type"] not in HIDDEN], fold(state, events)


def retreats(events: list[dict[str, Any]]) -> list[dict[str, Any]]:
    return [e for e in events if e["type"] == "retreat"]


def notes(events: list[dict[str, Any]]) -> str:
    return " | ".join(e["text"] for e in events if e["type"] == "note")


def at_sea(pieces: dict[str, str], cargo: dict[str, str], *, actor: str = "red",
           control: dict[str, str | None] | None = None, reduced: tuple[str, ...] = (),
           ) -> dict[str, Any]:
    """A position with land units and leaders aboard fleets at sea ({piece: fleet}), as a
    retreat by sea leaves them; `actor`'s action phase."""
    state = position(pieces, actor=actor, control=control, reduced=reduced)
    state["standing"] = standing_()
    state["aboard"] = dict(cargo)
    return state


# ---------------------------------------------------------------------------------------
# 8.4 the retreat by sea


def test_8_4_a_defender_retreats_by_sea_with_the_fleet_in_its_port() -> None:
    events, after = attacked({"red-inf-01": "Petrograd", "red-fleet-01": "Petrograd"}, BY_SEA)
    (retreat,) = retreats(events)
    assert retreat == {"type": "retreat", "zone": "Petrograd", "faction": "red",
                       "units": ["red-inf-01", "red-fleet-01"], "to": "Baltic Sea",
                       "when": "before combat", "by": "sea", "fleet": "red-fleet-01"}
    # 8.4 the fleet and the land unit are placed in the adjacent sea zone
    assert after["units"]["red-inf-01"]["zone"] == "Baltic Sea"
    assert after["units"]["red-fleet-01"]["zone"] == "Baltic Sea"
    assert after["aboard"] == {"red-inf-01": "red-fleet-01"}
    assert after["units"]["red-inf-01"]["status"] == "map"
    # no battle: the money is spent all the same (8.4)
    attack = next(e for e in events if e["type"] == "attack")
    assert attack["defenders"] == [] and after["money"]["north"] == position({})["money"]["north"] - 1
    assert (GAME.summary(data(), retreat) == "red red-inf-01 retreat(s) by sea with red-fleet-01 "
            "from Petrograd to the Baltic Sea (before combat, 8.4)")


def test_8_4_a_retreat_by_sea_and_its_landing_replay_as_the_audit_replays_them() -> None:
    """The audit resolves each step again from its orders and dice and compares the events,
    then compares the folded state with the saved snapshot (pbem.audit)."""
    first, after = attacked({"red-inf-01": "Petrograd", "red-fleet-01": "Petrograd"}, BY_SEA)
    again, twice = attacked({"red-inf-01": "Petrograd", "red-fleet-01": "Petrograd"}, BY_SEA)
    assert normal(first) == normal(again) and twice == after
    assert normal(yamlio.load_trusted(yamlio.dump(after))) == normal(after)
    events, landed = land([{"move": {"units": ["red-inf-01"], "from": "Baltic Sea", "to": "Petrograd"}}])
    assert normal(yamlio.load_trusted(yamlio.dump(landed))) == normal(landed)
    assert all(not fold_rules.describe_event(data(), e).startswith(f"{e['type']}:") for e in first + events)


def test_8_4_without_a_sea_in_retreat_to_the_defender_retreats_by_land() -> None:
    events, after = attacked({"red-inf-01": "Petrograd", "red-fleet-01": "Petrograd"},
                             {"retreat_before_combat": "always", "retreat_to": ["Tver"]})
    (retreat,) = retreats(events)
    assert retreat["to"] == "Tver" and "by" not in retreat
    assert after["units"]["red-fleet-01"]["zone"] == "Petrograd"


def test_8_4_a_land_zone_named_before_the_sea_comes_first() -> None:
    events, _ = attacked({"red-inf-01": "Petrograd", "red-fleet-01": "Petrograd"},
                         {"retreat_before_combat": "always", "retreat_to": ["Tver", "Baltic Sea"]})
    assert [r["to"] for r in retreats(events)] == ["Tver"]


def test_8_4_not_by_sea_from_a_port_blockaded_by_an_enemy_fleet() -> None:
    pieces = {"red-inf-01": "Petrograd", "red-fleet-01": "Petrograd", "allied-fleet-03": "Baltic Sea"}
    red = {"retreat_before_combat": "always", "retreat_to": ["Baltic Sea", "Tver"]}
    events, after = attacked(pieces, red, blockade={"allied-fleet-03": "Petrograd"})
    assert "Petrograd is blockaded by allied-fleet-03 (8.4, 8.92)" in notes(events)
    assert [(r["to"], r.get("by")) for r in retreats(events)] == [("Tver", None)]  # by land instead
    assert after["units"]["red-fleet-01"]["zone"] == "Petrograd" and not after.get("aboard")
    # without the blockade, the same fleet at sea does not stop the retreat by sea
    events, _ = attacked(pieces, red)
    assert [r["to"] for r in retreats(events)] == ["Baltic Sea"]


def test_8_4_not_by_sea_without_a_friendly_fleet_in_the_zone() -> None:
    red = {"retreat_before_combat": "always", "retreat_to": ["Baltic Sea", "Tver"]}
    events, after = attacked({"red-inf-01": "Petrograd", "red-fleet-01": "Baltic Sea"}, red)
    assert "no red fleet of the Baltic Sea is in Petrograd to carry them (8.4)" in notes(events)
    assert after["units"]["red-inf-01"]["zone"] == "Tver"


def test_8_4_not_by_sea_to_a_sea_the_port_does_not_touch() -> None:
    red = {"retreat_before_combat": "always", "retreat_to": ["Black Sea", "Tver"]}
    events, after = attacked({"red-inf-01": "Petrograd", "red-fleet-01": "Petrograd"}, red)
    assert "Petrograd is not a port of the Black Sea" in notes(events)
    assert after["units"]["red-inf-01"]["zone"] == "Tver"


@pytest.mark.parametrize("unit", ["red-cav-01", "red-air-01", "red-tank-01"])
def test_8_4_cavalry_aircraft_and_tanks_may_not_retreat_by_sea(unit: str) -> None:
    red = {"retreat_before_combat": "always", "retreat_to": ["Baltic Sea", "Tver"]}
    events, after = attacked({unit: "Petrograd", "red-fleet-01": "Petrograd"}, red)
    assert "cavalry, aircraft and tanks may not retreat by sea (8.4)" in notes(events)
    assert after["units"][unit]["zone"] == "Tver"
    assert after["units"]["red-fleet-01"]["zone"] == "Petrograd"


def test_8_4_the_infantry_goes_by_sea_and_the_cavalry_by_land() -> None:
    pieces = {"red-inf-01": "Petrograd", "red-cav-01": "Petrograd", "red-fleet-01": "Petrograd"}
    red = {"retreat_before_combat": "always", "retreat_to": ["Baltic Sea", "Tver"]}
    events, after = attacked(pieces, red)
    assert [(r["units"], r["to"]) for r in retreats(events)] == [
        (["red-inf-01", "red-fleet-01"], "Baltic Sea"), (["red-cav-01"], "Tver")]
    assert after["units"]["red-cav-01"]["zone"] == "Tver"


def test_7_5_a_fleet_carries_one_unit_and_one_leader_the_rest_go_by_land() -> None:
    pieces = {"red-inf-01": "Petrograd", "red-inf-02": "Petrograd", "trotsky": "Petrograd",
              "frunze": "Petrograd", "red-fleet-01": "Petrograd"}
    red = {"retreat_before_combat": "always", "retreat_to": ["Baltic Sea", "Tver"]}
    events, after = attacked(pieces, red)
    sea, ashore = retreats(events)
    assert sea["units"] == ["red-inf-01", "trotsky", "red-fleet-01"] and sea["to"] == "Baltic Sea"
    assert ashore["units"] == ["red-inf-02", "frunze"] and ashore["to"] == "Tver"
    assert after["aboard"] == {"red-inf-01": "red-fleet-01", "trotsky": "red-fleet-01"}


def test_7_5_units_a_fleet_cannot_take_and_that_cannot_go_by_land_stay_and_fight() -> None:
    pieces = {"red-inf-01": "Petrograd", "red-inf-02": "Petrograd", "red-fleet-01": "Petrograd"}
    events, _ = attacked(pieces, BY_SEA)
    # retreat_to names only the sea: the unit the fleet cannot take falls back on the first
    # open land zone by name (Novgorod), as any retreat without a preference does
    sea, ashore = retreats(events)
    assert sea["units"] == ["red-inf-01", "red-fleet-01"] and ashore["units"] == ["red-inf-02"]
    assert ashore["to"] == "Novgorod"
    # with no land zone open, the unit left over fights
    closed = {z: "north" for z in ("Vyborg", "Petrozavodsk", "Vologda", "Novgorod", "Tver",
                                   "Pskov", "Reval")}
    state = position({"north-inf-01": "Petrograd", **pieces}, actor="north", control=closed)
    state["standing"] = standing_({"red": BY_SEA})
    body = orders({"attack": {"zone": "Petrograd"}})
    body["secret"] = {"spend": {"Petrograd": 1}}
    events = GAME.resolve(data(), state, {"north": body}, FixedRng(*[1] * 60), OpenSecrets())
    assert "red-inf-02 cannot retreat by sea or by land: they stay and fight (8.4)" in notes(events)
    attack = next(e for e in events if e["type"] == "attack")
    assert attack["defenders"] == ["red"] and any(e["type"] == "combat_round" for e in events)
    assert fold(state, events)["units"]["red-inf-01"]["zone"] == "Baltic Sea"


def test_8_92_a_unit_may_not_board_a_fleet_with_fewer_steps() -> None:
    red = {"retreat_before_combat": "always", "retreat_to": ["Baltic Sea", "Tver"]}
    pieces = {"red-inf-01": "Petrograd", "red-fleet-01": "Petrograd"}
    events, after = attacked(pieces, red, reduced=("red-fleet-01",))
    assert "fewer steps" in notes(events) and "(8.92)" in notes(events)
    assert after["units"]["red-inf-01"]["zone"] == "Tver"
    # a reduced unit boards the reduced fleet; the full-strength one goes by land
    events, after = attacked({**pieces, "red-inf-02": "Petrograd"}, red,
                             reduced=("red-fleet-01", "red-inf-02"))
    assert [(r["units"], r["to"]) for r in retreats(events)] == [
        (["red-inf-02", "red-fleet-01"], "Baltic Sea"), (["red-inf-01"], "Tver")]


def test_8_4_the_answer_by_mail_may_retreat_by_sea() -> None:
    state = position({"north-inf-01": "Petrograd", "red-inf-01": "Petrograd",
                      "red-fleet-01": "Petrograd"}, actor="north")
    state["standing"] = standing_()
    state["standing"]["red"] = {"retreat_before_combat": "ask"}  # the Reds are asked (decisions.py)
    body = orders({"attack": {"zone": "Petrograd"}})
    body["secret"] = {"spend": {"Petrograd": 1}}
    state = fold(state, GAME.resolve(data(), state, {"north": body}, FixedRng(*[1] * 20),
                                     OpenSecrets()))
    assert state["phase"] == "decision"
    answer = orders({"decide": {"zone": "Petrograd", "retreat": True, "to": ["Baltic Sea"]}})
    assert messages(state, "red", answer) == []
    events = GAME.resolve(data(), state, {"red": answer}, FixedRng(*[1] * 60), OpenSecrets())
    (retreat,) = retreats(events)
    assert retreat["by"] == "sea" and retreat["to"] == "Baltic Sea"
    assert fold(state, events)["aboard"] == {"red-inf-01": "red-fleet-01"}


# ---------------------------------------------------------------------------------------
# the names of a retreat


@pytest.mark.parametrize(("given", "message"), [
    ("Baltik Sea", "unknown zone or sea 'Baltik Sea'"),
    ("Caspian Sea", "no fleet sails the Caspian Sea (7.7)"),
])
def test_8_4_a_bad_sea_in_retreat_to_is_a_clear_problem(given: str, message: str) -> None:
    state = position({"red-inf-01": "Moscow"})
    state["standing"] = standing_()
    found = problems(state, "red", orders(standing={"retreat_to": ["Tver", given]}))
    assert [(p.path, message in p.message) for p in found] == [(("standing", "retreat_to", 1), True)]
    assert "Baltic Sea" in found[0].message  # the seas a retreat may go to are named
    assert messages(state, "red", orders(standing={"retreat_to": ["Tver", "Baltic Sea"]})) == []


def test_7_8_a_waiting_box_may_be_named_in_retreat_to() -> None:
    state = position({"red-inf-01": "Moscow"})
    state["standing"] = standing_()
    assert messages(state, "red", orders(standing={"retreat_to": ["Tver", "Baltic box"]})) == []


def test_8_4_a_misspelt_sea_gets_a_suggestion() -> None:
    state = position({"red-inf-01": "Moscow"})
    (message,) = messages(state, "red", orders(standing={"retreat_to": ["Baltik Sea"]}))
    assert message.startswith("unknown zone or sea 'Baltik Sea'; did you mean 'Baltic Sea'?")


def test_8_4_a_bad_sea_in_a_decision_is_a_clear_problem() -> None:
    state = position({"north-inf-01": "Petrograd", "red-inf-01": "Petrograd",
                      "red-fleet-01": "Petrograd"}, actor="north")
    state["standing"] = standing_()
    state["standing"]["red"] = {"retreat_before_combat": "ask"}
    body = orders({"attack": {"zone": "Petrograd"}})
    body["secret"] = {"spend": {"Petrograd": 1}}
    state = fold(state, GAME.resolve(data(), state, {"north": body}, FixedRng(*[1] * 20),
                                     OpenSecrets()))
    found = problems(state, "red", orders({"decide": {"zone": "Petrograd", "retreat": True,
                                                      "to": ["Caspian Sea"]}}))
    assert [p.path for p in found] == [("orders", 0, "decide", "to", 0)]
    assert "no fleet sails the Caspian Sea" in found[0].message


# ---------------------------------------------------------------------------------------
# land units at sea: landing (8.4, 7.5)

CARGO = {"red-inf-01": "Baltic Sea", "trotsky": "Baltic Sea", "red-fleet-01": "Baltic Sea"}
ABOARD = {"red-inf-01": "red-fleet-01", "trotsky": "red-fleet-01"}


def land(items: list[dict[str, Any]], *, control: dict[str, str | None] | None = None,
         ) -> tuple[list[dict[str, Any]], dict[str, Any]]:
    state = at_sea(CARGO, ABOARD, control=control)
    body = orders(*items)
    assert messages(state, "red", body) == []
    events = GAME.resolve(data(), state, {"red": body}, FixedRng(*[1] * 20), OpenSecrets())
    return [e for e in events if e["type"] not in HIDDEN], fold(state, events)


def test_8_4_the_retreat_and_the_landing_in_the_factions_next_phase() -> None:
    _, after = attacked({"red-inf-01": "Petrograd", "red-fleet-01": "Petrograd"}, BY_SEA)
    after = GAME.apply(data(), after, {"type": "phase", "turn": after["turn"] + 1, "phase": "action",
                                       "actor": "red"})
    after["control"]["Reval"] = "red"
    body = orders({"move": {"units": ["red-inf-01"], "from": "Baltic Sea", "to": "Reval"}})
    assert messages(after, "red", body) == []
    events = GAME.resolve(data(), after, {"red": body}, FixedRng(*[1] * 20), OpenSecrets())
    moved = next(e for e in events if e["type"] == "moved")
    assert moved["path"] == ["Baltic Sea", "Reval"] and moved["fleets"] == ["red-fleet-01"]
    assert moved["cost"] == 2  # 7.5 one movement point
    landed = fold(after, events)
    assert landed["units"]["red-inf-01"]["zone"] == "Reval" and not landed["aboard"]
    assert landed["units"]["red-fleet-01"]["zone"] == "Baltic Sea"  # the fleet stays at sea


def test_7_5_after_landing_a_leader_leads_the_unit_on_over_land() -> None:
    events, after = land([{"move": {"units": ["red-inf-01", "trotsky"], "from": "Baltic Sea",
                                    "to": "Tver", "via": ["Petrograd"]}}])
    moved = next(e for e in events if e["type"] == "moved")
    assert moved["path"] == ["Baltic Sea", "Petrograd", "Tver"] and moved["cost"] == 3
    assert after["units"]["trotsky"]["zone"] == "Tver"


def test_7_5_the_fleet_that_landed_them_stays_at_sea_this_phase() -> None:
    state = at_sea(CARGO, ABOARD)
    found = messages(state, "red", orders(
        {"move": {"units": ["red-inf-01", "trotsky"], "from": "Baltic Sea", "to": "Petrograd"}},
        {"move": {"units": ["red-fleet-01"], "to": "Petrograd"}}))
    assert found == ["red-fleet-01 has already moved or transported this phase"]


@pytest.mark.parametrize(("move", "message", "where"), [
    ({"units": ["red-inf-01"], "from": "Baltic Sea", "to": "Riga"},
     "units land in a friendly port (7.5); Riga is not friendly to red", "to"),
    ({"units": ["red-inf-01"], "from": "Baltic Sea", "to": "Odessa"},
     "land in one of its ports (Helsinki, Petrograd, Reval, Riga, Vyborg); Odessa is not one", "to"),
    ({"units": ["red-inf-01"], "from": "Baltic Sea", "to": "Tver"},
     "to go further, name the port in via", "to"),
    ({"units": ["red-inf-01"], "from": "Baltic Sea", "to": "Petrograd", "rail": True},
     "a landing from the sea cannot also be a rail move", "rail"),
    ({"units": ["red-inf-01"], "from": "Baltic Sea", "to": "Tver", "via": ["Petrograd"]},
     "this path costs 1.5 movement points; red-inf-01 has 1 left", "to"),
])
def test_8_4_a_landing_is_checked(move: dict[str, Any], message: str, where: str) -> None:
    state = at_sea(CARGO, ABOARD)
    found = problems(state, "red", orders({"move": move}))
    assert [(p.path[-1], message in p.message) for p in found] == [(where, True)], found


def test_8_4_the_fleet_may_not_sail_away_from_the_units_it_carries() -> None:
    state = at_sea(CARGO, ABOARD)
    (message,) = messages(state, "red", orders({"move": {"units": ["red-fleet-01"], "to": "Petrograd"}}))
    assert message.startswith("red-fleet-01 carries red-inf-01, trotsky at sea (8.4): land them first")


def test_7_5_a_fleet_full_with_units_at_sea_carries_no_other_transport() -> None:
    state = at_sea({**CARGO, "red-inf-02": "Petrograd"}, ABOARD, control={"Reval": "red"})
    found = messages(state, "red", orders({"move": {"units": ["red-inf-02"], "to": "Reval",
                                                    "via": ["Baltic Sea"]}}))
    assert found == ["no red fleet at sea in the Baltic Sea is free to carry them this phase (7.5)"]


def test_8_1_units_at_sea_do_not_attack_from_the_sea() -> None:
    state = at_sea({**CARGO, "allied-fleet-03": "Baltic Sea", "north-inf-01": "Reval"}, ABOARD)
    body = orders({"attack": {"zone": "Baltic Sea"}}, {"attack": {"zone": "Reval"}})
    body["secret"] = {"spend": {"Baltic Sea": 1, "Reval": 1}}
    found = problems(state, "red", body)
    assert [p.path for p in found if "attack" in p.path] == [("orders", 0, "attack", "zone"),
                                                            ("orders", 1, "attack", "zone")]
    assert "Baltic Sea is not a land zone" in found[0].message
    assert "you have no land units in Reval" in found[1].message


def test_8_4_the_bot_lands_units_at_sea() -> None:
    state = at_sea(CARGO, ABOARD)
    body = GAME.bot(data(), state, "red", FixedRng(*[1] * 20))
    assert {"move": {"units": ["red-inf-01", "trotsky"], "from": "Baltic Sea", "to": "Petrograd"}} \
        in body["orders"]


# ---------------------------------------------------------------------------------------
# land units at sea share their fleet's fate (8.92)

SEA_FIGHT = {**CARGO, "allied-fleet-03": "Baltic Sea"}


def test_8_92_units_at_sea_share_their_fleets_step_loss_and_land_with_it() -> None:
    # red searches: contact on 3+4; the Reds miss, the British hit twice (defence 2)
    state = at_sea(SEA_FIGHT, ABOARD)
    body = orders({"search": {"zone": "Baltic Sea"}})
    assert messages(state, "red", body) == []
    rng = FixedRng(3, 4, 1, 1, 1, 6, 6, 1)
    events = GAME.resolve(data(), state, {"red": body}, rng, OpenSecrets())
    assert rng.values == []
    shown = [e for e in events if e["type"] not in HIDDEN]
    assert [e["type"] for e in shown] == ["naval_search", "combat_round", "reduced", "reduced",
                                          "retreat", "naval_battle_over"]
    assert shown[3] == {"type": "reduced", "unit": "red-inf-01",
                        "by": "a step lost by its carrier red-fleet-01 (8.92)"}
    # the damaged fleet retreats into a friendly port; what it carries lands with it
    assert shown[4]["units"] == ["red-fleet-01", "red-inf-01", "trotsky"] and shown[4]["to"] == "Petrograd"
    after = fold(state, events)
    assert after["units"]["red-inf-01"] == {**after["units"]["red-inf-01"], "zone": "Petrograd",
                                            "reduced": True}
    assert not after["aboard"]


def test_8_92_units_at_sea_go_down_with_their_fleet() -> None:
    # reduced fleet and unit (one step each); the Reds miss, the British hit once
    state = at_sea(SEA_FIGHT, ABOARD, reduced=("red-fleet-01", "red-inf-01"))
    body = orders({"search": {"zone": "Baltic Sea"}})
    rng = FixedRng(3, 4, 1, 1, 6, 1, 1)
    events = GAME.resolve(data(), state, {"red": body}, rng, OpenSecrets())
    assert rng.values == []
    lost = [(e["type"], e.get("unit")) for e in events if e["type"] in ("reduced", "eliminated")]
    # the unit suffers the same damage (8.92); the leader aboard is lost with the fleet (8.4)
    assert lost == [("reduced", "red-fleet-01"), ("reduced", "red-inf-01"), ("eliminated", "trotsky")]
    after = fold(state, events)
    assert {p: after["units"][p]["status"] for p in CARGO} == {
        "red-inf-01": "eliminated", "trotsky": "eliminated", "red-fleet-01": "eliminated"}
    assert not after["aboard"]


def test_8_92_a_unit_at_sea_that_survives_its_sunk_fleets_steps_is_lost_with_it() -> None:
    # a full-strength unit aboard a reduced fleet (repaired at sea, 5.4): one step shared,
    # then no fleet to carry it (8.4)
    state = at_sea(SEA_FIGHT, {"red-inf-01": "red-fleet-01"}, reduced=("red-fleet-01",))
    rng = FixedRng(3, 4, 1, 1, 6, 1, 1)
    events = GAME.resolve(data(), state, {"red": orders({"search": {"zone": "Baltic Sea"}})}, rng,
                          OpenSecrets())
    lost = [(e["type"], e.get("unit")) for e in events if e["type"] in ("reduced", "eliminated")]
    assert lost == [("reduced", "red-fleet-01"), ("reduced", "red-inf-01"), ("eliminated", "red-inf-01")]


def test_8_4_units_at_sea_without_their_fleet_are_lost() -> None:
    # the fleet is gone (upkeep, a card, the referee): at the next action phase they are lost
    state = at_sea(CARGO, ABOARD)
    state["units"]["red-fleet-01"].update(status="eliminated", zone=None)
    events = GAME.resolve(data(), state, {"red": orders()}, FixedRng(), OpenSecrets())
    lost = [e for e in events if e["type"] == "eliminated"]
    assert [e["unit"] for e in lost] == ["red-inf-01", "trotsky"]
    assert "lost at sea with its fleet red-fleet-01" in GAME.summary(data(), lost[0])
    after = fold(state, events)
    assert after["units"]["red-inf-01"]["status"] == "eliminated" and not after["aboard"]


# ---------------------------------------------------------------------------------------
# 5.5, 5.6 upkeep at sea: paid for, no winter attrition (economy.py, unchanged)


def test_5_5_and_5_6_units_at_sea_are_maintained_and_suffer_no_attrition() -> None:
    state = at_sea({**CARGO, "red-inf-02": "Moscow"}, ABOARD)
    upkeep = economy.maintenance(data(), state)
    assert next(e for e in upkeep if e["type"] == "maintenance" and e["faction"] == "red")["units"] == 3
    assert not [e for e in economy.winter_attrition(data(), state, FixedRng())
                if e.get("unit") == "red-inf-01"]
