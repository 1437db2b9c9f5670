"""The Russian Combat Segment (10.0) as rule tables (games/chechen_war/rules/combat.py): the
attacks and their secret markers, the Chechen's answer, the odds with 10.7's worked example,
each column shift, each result at the dice on both sides of it, the losses, the advance,
collateral damage, the markers' and leaders' dice. In-process, without git."""

from __future__ import annotations

import importlib
from typing import Any

import pytest
from fixed_rng import FixedRng, OpenSecrets

from pbem.dice import KeyedRng
from pbem.game import GameData, State, get_game, load_data

GAME = get_game("chechen_war")
combat_ = importlib.import_module("pbem_game_chechen_war.combat")
B = importlib.import_module("pbem_game_chechen_war.board").board(load_data("chechen_war"))


def data() -> GameData:
    return load_data("chechen_war")


def node(token: str, unit: str) -> dict[str, Any]:
    """A token's identity, sealed as the set-up seals it (kept in plain view for the test)."""
    return {"kind": "unit", "id": token, "owner": "chechen", "turn": 0,
            "commitment": f"c-{token}", "sealed": "x", "value": unit}


def position(russians: dict[str, str], tokens: dict[str, list[str]], **changes: Any) -> State:
    """Turn 1's Russian Combat Segment: Russian units by id, Chechen units by hex (each a
    token t01, t02... with its identity sealed)."""
    s = GAME.setup(data(), {"end_of_turn": "asked"}, KeyedRng(b"\x06" * 32))  # asked: the End of Turn file (ahead: test_cw_ahead.py)
    placed: dict[str, dict[str, Any]] = {}
    for hex_id, units in tokens.items():
        for unit in units:
            token = f"t{len(placed) + 1:02d}"
            placed[token] = {"hex": hex_id, "unit": node(token, unit)}
    s.update(turn=1, phase="russian-combat",
             russians={u: {"hex": h, "reduced": False} for u, h in russians.items()},
             tokens=placed)
    s.update(changes)
    return s


def attack(target: str, *units: str, supports: int = 0, advance: list[str] | None = None) -> dict[str, Any]:
    body: dict[str, Any] = {"target": target, "units": list(units)}
    if supports:
        body["supports"] = supports
    if advance is not None:
        body["advance"] = advance
    return {"attack": body}


def russian(s: State, *items: dict[str, Any], secret: dict[str, Any] | None = None) -> list[str]:
    body: dict[str, Any] = {"orders": list(items)}
    if secret is not None:
        body["secret"] = secret
    return [p.message for p in GAME.validate(data(), s, "russian", body)]


def chechen(s: State, *items: dict[str, Any]) -> list[str]:
    return [p.message for p in GAME.validate(data(), s, "chechen", {"orders": list(items)})]


def fold(s: State, events: list[dict[str, Any]]) -> State:
    for e in events:
        s = GAME.apply(data(), s, e)
    return s


def declared(s: State, *items: dict[str, Any], secret: dict[str, Any] | None = None) -> State:
    """The Russian's combat file applied: the Chechen is asked for his supports."""
    assert russian(s, *items, secret=secret) == []
    body: dict[str, Any] = {"orders": list(items), **({"secret": secret} if secret else {})}
    return fold(s, GAME.resolve(data(), s, {"russian": body}, FixedRng(), OpenSecrets()))


def fight(s: State, dice: list[int], *supports: dict[str, Any]) -> tuple[list[dict[str, Any]], State]:
    """The Chechen's answer applied and every attack fought with exactly these dice."""
    assert s["phase"] == "chechen-supports"
    assert chechen(s, *supports) == []
    rng = FixedRng(*dice)
    events = GAME.resolve(data(), s, {"chechen": {"orders": list(supports)}}, rng, OpenSecrets())
    assert rng.values == [], f"dice left over: {rng.values}"
    return events, fold(s, events)


def of(events: list[dict[str, Any]], kind: str) -> list[dict[str, Any]]:
    return [e for e in events if e["type"] == kind]


def support(target: str, markers: int = 0, leaders: list[str] | None = None) -> dict[str, Any]:
    return {"support": {"target": target, "markers": markers, "leaders": leaders or []}}


# 0727 is clear (Chechnya); 0726 and 0728 are clear neighbours across no river; 0828, a town,
# is across a river from it. Groznyi 1324: 1424, 1425 clear with no river between; 1225
# across the Sunzha by a bridge.
def test_the_hexes_these_tables_stand_on() -> None:
    assert [B.terrain[h] for h in ("0727", "0726", "0728", "0828")] == ["clear", "clear", "clear", "town"]
    for here in ("0726", "0728", "1424", "1425"):
        target = "0727" if here.startswith("07") else "1324"
        assert B.grid.adjacent(here, target) and B.grid.hexside(here, target) not in B.rivers
    assert B.grid.hexside("0828", "0727") in B.rivers
    assert B.grid.hexside("1225", "1324") in B.bridges and B.grid.hexside("1225", "1324") in B.rivers
    assert B.region["0727"] == "chechnya" and B.names["1324"] == "Groznyi"


def example_10_7() -> State:
    # 10.7: "two Russian units with combat factors of 3 and 4 attack two Chechen units with
    # combat factors of 1 and 1, the odds are 7:2 or 3.5:1, which rounds down to 3:1"
    return position({"ru_76_airborne": "0726", "ru_81_mech_regt": "0728"},
                    {"0727": ["ch_argun_bn", "ch_militia_01"]})


def test_10_7_three_and_four_against_one_and_one_is_fought_at_3_to_1() -> None:
    s = declared(example_10_7(), attack("0727", "ru_76_airborne", "ru_81_mech_regt"))
    events, _ = fight(s, [2])
    told = of(events, "combat")[0]
    assert (told["attack"], told["defence"], told["odds"], told["shifts"], told["column"]) == \
        (7, 2, "3:1", [], "3:1")
    assert told["result"] == "-"


@pytest.mark.parametrize(("die", "result"), [(1, "Ax"), (2, "-"), (3, "-"), (4, "Ex"), (5, "Ex"), (6, "DE")])
def test_the_3_to_1_column_die_by_die(die: int, result: str) -> None:
    s = declared(example_10_7(), attack("0727", "ru_76_airborne", "ru_81_mech_regt"))
    events, _ = fight(s, [die])
    assert of(events, "combat")[0]["result"] == result


def test_the_segment_is_a_phase_of_its_own_and_the_chechen_answers_only_when_attacked() -> None:
    s = example_10_7()
    assert GAME.phase(data(), s).awaiting == ("russian",)
    nothing = fold(s, GAME.resolve(data(), s, {"russian": {"orders": []}}, FixedRng(), OpenSecrets()))
    assert nothing["phase"] == "chechen-movement" and nothing["attacks"] == []
    s = declared(s, attack("0727", "ru_76_airborne"))
    assert s["phase"] == "chechen-supports" and GAME.phase(data(), s).awaiting == ("chechen",)
    _, after = fight(s, [2])
    assert after["phase"] == "chechen-movement" and after["attacks"] == []


# --- the results (10.11) ----------------------------------------------------------------------

def test_de_eliminates_the_defenders_to_the_cup_and_the_advance_listed_moves_in() -> None:
    s = declared(example_10_7(), attack("0727", "ru_76_airborne", "ru_81_mech_regt",
                                        advance=["ru_81_mech_regt"]))
    events, after = fight(s, [6])
    assert of(events, "chechens_eliminated")[0]["units"] == ["ch_argun_bn", "ch_militia_01"]
    assert after["tokens"] == {} and after["cup"] == 2 and after["cup_known"] == ["ch_argun_bn", "ch_militia_01"]
    assert after["russians"]["ru_81_mech_regt"]["hex"] == "0727"
    assert after["russians"]["ru_76_airborne"]["hex"] == "0726"  # not listed: stays
    assert after["casualties"] == 0


def test_no_advance_without_the_advance_list() -> None:
    s = declared(example_10_7(), attack("0727", "ru_76_airborne", "ru_81_mech_regt"))
    events, after = fight(s, [6])
    assert of(events, "advanced") == [] and after["russians"]["ru_81_mech_regt"]["hex"] == "0728"


def test_ex_the_stronger_attacker_loses_as_many_steps_as_the_defenders_had() -> None:
    # 7 against 2: the Chechen is weaker and eliminated (2 steps); the Russian loses 2 steps:
    # the 81st reduced, then the weakest one-step or reduced unit: the reduced 81st (2 < 3)
    s = declared(example_10_7(), attack("0727", "ru_76_airborne", "ru_81_mech_regt",
                                        advance=["ru_76_airborne", "ru_81_mech_regt"]))
    events, after = fight(s, [4])
    lost = of(events, "steps_lost")[0]
    assert (lost["steps"], lost["reduced"], lost["eliminated"]) == (2, [], ["ru_81_mech_regt"])
    assert events.index(lost) < events.index(of(events, "chechens_eliminated")[0])  # 10.7: attacker first
    assert after["tokens"] == {} and after["casualties"] == 2 and "ru_81_mech_regt" in after["pool"]
    assert of(events, "advanced")[0]["units"] == ["ru_76_airborne"]  # the survivor only


def test_ex_with_equal_steps_eliminates_both_sides() -> None:
    s = position({"ru_76_airborne": "0726", "ru_98_airborne": "0728"},
                 {"0727": ["ch_argun_bn", "ch_militia_01"]})
    s = declared(s, attack("0727", "ru_76_airborne", "ru_98_airborne"))  # 6:2, 3:1
    events, after = fight(s, [4])
    assert of(events, "combat")[0]["result"] == "Ex"
    assert after["russians"] == {} and after["tokens"] == {} and after["casualties"] == 2


def test_ex_the_weaker_attacker_is_eliminated_and_the_chechen_loses_as_many_steps() -> None:
    # 4 (two steps) against 2 + 2 + 1 (three steps), an artillery marker: 1:2 shifted to 1:1,
    # a 6 is Ex; the Russian is weaker: all his units go (2 steps), the Chechen loses two, the
    # weakest first
    s = position({"ru_81_mech_regt": "0726"},
                 {"0727": ["ch_groznyi_bn", "ch_gudermes_bn", "ch_argun_bn"]})
    s = declared(s, attack("0727", "ru_81_mech_regt", supports=1),
                 secret={"supports": {"0727": ["artillery"]}})
    events, after = fight(s, [6])
    told = of(events, "combat")[0]
    assert (told["odds"], told["column"], told["result"]) == ("1:2", "1:1", "Ex")
    assert of(events, "steps_lost")[0]["eliminated"] == ["ru_81_mech_regt"]
    assert after["casualties"] == 2
    assert of(events, "chechens_eliminated")[0]["units"] == ["ch_argun_bn", "ch_groznyi_bn"]
    assert [t["unit"] for t in after["tokens"].values()] == ["ch_gudermes_bn"]


def test_ex_with_equal_combat_factors_the_attacker_is_the_weaker() -> None:
    # RULED (tables.yaml crt.exchange.tie): 6 against 2 + 2 + 2 at 1:1, a 6
    s = position({"ru_131_mech_bde": "0726"},
                 {"0727": ["ch_groznyi_bn", "ch_gudermes_bn", "ch_vedeno_bn"]})
    s = declared(s, attack("0727", "ru_131_mech_bde"))
    events, after = fight(s, [6])
    assert of(events, "combat")[0]["result"] == "Ex"
    assert "ru_131_mech_bde" not in after["russians"] and after["casualties"] == 2
    assert len(after["tokens"]) == 1


@pytest.mark.parametrize(("die", "result"), [(2, "AE"), (3, "Ax")])
def test_at_1_to_2_ae_eliminates_every_attacker_and_ax_costs_the_defenders_steps(die: int, result: str) -> None:
    # 2 + 4 against 3 + 3 + 3 (three steps): 6:9 is fought at 1:2
    s = position({"ru_mvd_regt_1": "0726", "ru_81_mech_regt": "0728"},
                 {"0727": ["ch_presidential_guard", "ch_abkhaz_bn", "ch_borz_regt"]},
                 standing={"russian": {"step_losses": ["ru_mvd_regt_1"]}})
    s = declared(s, attack("0727", "ru_mvd_regt_1", "ru_81_mech_regt"))
    events, after = fight(s, [die])
    assert of(events, "combat")[0]["result"] == result
    lost = of(events, "steps_lost")[0]
    assert lost["steps"] == 3  # AE: every step of both; Ax: the defenders' three steps (10.11)
    assert after["russians"] == {} and after["casualties"] == 3
    assert len(after["tokens"]) == 3


def test_ax_the_standing_step_losses_choose_which_units_lose() -> None:
    # 10.11's example: defenders of 3 steps cost the attacker 3 steps
    s = position({"ru_131_mech_bde": "0726", "ru_81_mech_regt": "0728", "ru_76_airborne": "0628"},
                 {"0727": ["ch_argun_bn", "ch_shali_bn", "ch_militia_01"]},
                 standing={"russian": {"step_losses": ["ru_76_airborne", "ru_131_mech_bde"]}})
    s = declared(s, attack("0727", "ru_131_mech_bde", "ru_81_mech_regt", "ru_76_airborne"))  # 13:3
    events, after = fight(s, [1])  # 4:1, a 1: "-"; the Ax is a 1 at 3:1 and at 2:1
    assert of(events, "combat")[0]["column"] == "4:1" and of(events, "steps_lost") == []
    s = position({"ru_131_mech_bde": "0726", "ru_76_airborne": "0628"},
                 {"0727": ["ch_argun_bn", "ch_shali_bn", "ch_militia_01"]},
                 standing={"russian": {"step_losses": ["ru_76_airborne", "ru_131_mech_bde"]}})
    s = declared(s, attack("0727", "ru_131_mech_bde", "ru_76_airborne"))  # 9:3
    events, after = fight(s, [1])
    assert of(events, "combat")[0]["result"] == "Ax"
    lost = of(events, "steps_lost")[0]
    assert (lost["steps"], lost["eliminated"]) == (3, ["ru_76_airborne", "ru_131_mech_bde"])
    assert after["casualties"] == 3 and len(after["tokens"]) == 3


# --- the column shifts (10.8-10.10, the TEC) --------------------------------------------------

def shifts_of(s: State, *items: dict[str, Any], secret: dict[str, Any] | None = None,
              answer: tuple[dict[str, Any], ...] = (), dice: list[int] | None = None) -> list[list[Any]]:
    events, _ = fight(declared(s, *items, secret=secret), dice or [3], *answer)
    return [[d, n] for d, n, _why in of(events, "combat")[0]["shifts"]]


def test_the_defenders_terrain_shifts_left() -> None:
    s = position({"ru_131_mech_bde": "0927"}, {"0828": ["ch_argun_bn"]})
    assert B.terrain["0828"] == "town" and B.grid.hexside("0927", "0828") not in B.rivers
    assert shifts_of(s, attack("0828", "ru_131_mech_bde")) == [["left", 1]]


def test_the_first_russian_attack_on_groznyi_gives_one_shift_the_next_two() -> None:
    s = position({"ru_131_mech_bde": "1424", "ru_74_mech_bde": "1425"}, {"1324": ["ch_argun_bn"]})
    events, after = fight(declared(s, attack("1324", "ru_131_mech_bde")), [1])  # 5:1, "-"
    told = of(events, "combat")[0]
    assert told["shifts"] == [["left", 1, "Groznyi, the first Russian attack on it (10.10)"]]
    assert after["groznyi_attacked"] is True
    after.update(phase="russian-combat")
    assert shifts_of(after, attack("1324", "ru_74_mech_bde")) == [["left", 2]]


@pytest.mark.parametrize(("across", "beside", "shifted"), [
    ("ru_81_mech_regt", "ru_76_airborne", True),    # 4 of 7 across: more than half
    ("ru_76_airborne", "ru_98_airborne", False),    # 3 of 6: half is not more than half
])
def test_the_river_shift_when_more_than_half_the_factors_attack_across_it(
        across: str, beside: str, shifted: bool) -> None:
    s = position({across: "0828", beside: "0726"}, {"0727": ["ch_argun_bn"]})
    got = shifts_of(s, attack("0727", across, beside))
    assert got == ([["left", 1]] if shifted else [])


def test_a_bridge_does_not_stop_the_river_shift() -> None:
    # RULED (tables.yaml hexsides.bridge): 8.7 negates the movement effects only
    s = position({"ru_131_mech_bde": "1225"}, {"1324": ["ch_argun_bn"]}, groznyi_attacked=True)
    assert shifts_of(s, attack("1324", "ru_131_mech_bde")) == [["left", 2], ["left", 1]]


def test_markers_and_leaders_shift_and_are_netted() -> None:
    # 10.8: artillery 1 + airstrike 2 right against a marker and a leader left: one right
    s = position({"ru_131_mech_bde": "0726"}, {"0727": ["ch_argun_bn", "ch_shali_bn"]})
    events, _ = fight(declared(s, attack("0727", "ru_131_mech_bde", supports=2),
                               secret={"supports": {"0727": ["artillery", "airstrike"]}}),
                      [1, 5], support("0727", 1, ["ch_dudayev"]))
    told = of(events, "combat")[0]
    assert [[d, n] for d, n, _ in told["shifts"]] == [["right", 1], ["right", 2], ["left", 1], ["left", 1]]
    assert (told["odds"], told["column"]) == ("3:1", "4:1")
    assert told["russian_markers"] == ["artillery", "airstrike"]


def test_equal_shifts_cancel() -> None:
    # 10.8's note: "If both sides have an equal number of shifts, neither side receives any"
    s = position({"ru_131_mech_bde": "0726"}, {"0727": ["ch_argun_bn", "ch_shali_bn"]})
    events, _ = fight(declared(s, attack("0727", "ru_131_mech_bde", supports=1),
                               secret={"supports": {"0727": ["artillery"]}}),
                      [3, 5], support("0727", 1))
    told = of(events, "combat")[0]
    assert (told["odds"], told["column"]) == ("3:1", "3:1")


# --- what the Russian may declare (10.1-10.5, 10.9) -------------------------------------------

def test_each_clause_of_the_attack_declaration() -> None:
    s = example_10_7()
    assert russian(s, attack("0726", "ru_81_mech_regt", supports=1),
                   secret={"supports": {"0726": ["artillery"]}}) == ["0726 holds no Chechen unit"]
    far = position({"ru_76_airborne": "0730"}, {"0727": ["ch_argun_bn"]})
    assert russian(far, attack("0727", "ru_76_airborne")) == ["ru_76_airborne in 0730 is not next to 0727 (10.1)"]
    assert russian(s, attack("0727", "ru_76_airborne", "ru_76_airborne")) == \
        ["ru_76_airborne attacks once a segment (10.3, 10.4)"]
    assert russian(s, attack("0727", "ru_76_airborne"), attack("0727", "ru_81_mech_regt")) == \
        ["0727 is attacked once a segment (10.2)"]
    assert russian(s, attack("0727", "ru_76_airborne", supports=3)) == ["supports: 0, 1 or 2 markers (10.9)"]
    assert russian(s, attack("0727", "ru_76_airbone"))[0].startswith("'ru_76_airbone' is not one of your units on the map")
    assert russian(s, attack("0727", "ru_76_airborne", advance=["ru_81_mech_regt"])) == \
        ["advance: a list of this attack's units (10.12)"]
    assert russian(s, attack("0727", "ru_76_airborne", "ru_81_mech_regt", advance=["ru_81_mech_regt"])) == []


def test_the_secret_part_names_each_attacks_markers() -> None:
    s = example_10_7()
    one = attack("0727", "ru_76_airborne", supports=1)
    assert russian(s, one) == ['name your markers\' types in the secret part: supports: {"CCRR": '
                               "[KIND, ...]} for each attack with supports (10.9)"]
    assert russian(s, one, secret={"supports": {"0727": ["artillery", "airstrike"]}}) == \
        ["the combat on 0727 has 1 marker: name as many kinds"]
    assert russian(s, one, secret={"supports": {"0727": ["armor"]}}) == \
        ["armor is used only by defending Russian units (10.9)"]
    assert russian(s, one, secret={"supports": {"0727": ["tos1"]}}) == \
        ["tos1 is used only where the defender is in town or city (10.9)"]
    assert russian(s, one, secret={"supports": {"0727": ["artilery"]}})[0].startswith("'artilery' is not a Russian marker")
    assert russian(s, one, secret={"supports": {"0726": ["artillery"]}}) == [
        "no combat on 0726 is declared",
        "the combat on 0727 has 1 marker: name their kinds"]
    assert russian(s, one, secret={"supports": {"0727": ["artillery"]}}) == []


def test_no_more_markers_than_are_available() -> None:
    s = example_10_7()
    s["supports"]["russian"]["airstrike"] = 1
    two = attack("0727", "ru_76_airborne", supports=2)
    assert russian(s, two, secret={"supports": {"0727": ["airstrike", "airstrike"]}}) == \
        ["2 markers of kind airstrike named, 1 available (10.9)"]
    s["supports"]["russian"] = {"artillery": 1, "armor": 2}
    assert russian(s, two, secret={"supports": {"0727": ["artillery", "artillery"]}}) == \
        ["1 of your markers may be used in an attack; this file commits 2 (10.9)"]


def test_no_markers_in_the_first_attack_on_groznyi_then_markers_and_tos1_against_the_city() -> None:
    s = position({"ru_131_mech_bde": "1424"}, {"1324": ["ch_argun_bn"]})
    with_tos = attack("1324", "ru_131_mech_bde", supports=1)
    assert russian(s, with_tos, secret={"supports": {"1324": ["tos1"]}}) == \
        ["no support markers in the first attack on Groznyi (10.9, 10.10)"]
    s["groznyi_attacked"] = True
    assert russian(s, with_tos, secret={"supports": {"1324": ["tos1"]}}) == []


# --- the Chechen's answer (10.9, 11.2) --------------------------------------------------------

def test_each_clause_of_the_chechens_answer() -> None:
    s = declared(example_10_7(), attack("0727", "ru_76_airborne", "ru_81_mech_regt"))
    assert chechen(s, support("0726", 1)) == ["no Russian attack on 0726 is declared (attacked: 0727)"]
    assert chechen(s, support("0727", 1, ["ch_dudayev", "ch_basayev"])) == \
        ["markers and leaders together: 2 at most (10.9)"]
    assert chechen(s, support("0727", 3)) == ["markers: 0 to 2 (10.9)"]
    assert chechen(s, support("0727", 1), support("0727", 1)) == ["the attack on 0727 is supported once"]
    assert chechen(s, support("0727", 0, ["ch_dudajev"]))[0].startswith("'ch_dudajev' is not a leader")
    s["supports"]["chechen"]["artillery"] = 1
    assert chechen(s, support("0727", 2)) == ["1 support marker available (10.9)"]
    s["supports"]["chechen"]["artillery"] = 2
    s["leaders"]["ch_basayev"] = "1525"
    assert chechen(s, support("0727", 0, ["ch_basayev"])) == \
        ["ch_basayev is neither in the underground box nor in the defending hex (11.2)"]
    s["leaders"]["ch_basayev"] = "0727"
    assert chechen(s, support("0727", 2)) == []
    assert chechen(s, support("0727", 0, ["ch_basayev", "ch_dudayev"])) == []  # 10.9: two leaders


def test_no_chechen_marker_outside_chechnya_but_a_leader_may_go() -> None:
    hex_id = "0617"
    assert B.region[hex_id] == "dagestan"
    near = next(h for h in B.grid.neighbours(hex_id) if B.grid.hexside(h, hex_id) not in B.rivers)
    s = declared(position({"ru_131_mech_bde": near}, {hex_id: ["ch_militia_01"]}),
                 attack(hex_id, "ru_131_mech_bde"))
    assert chechen(s, support(hex_id, 1)) == \
        [f"{B.label(hex_id)} is outside Chechnya: no Chechen support markers there, leaders only (10.9)"]
    assert chechen(s, support(hex_id, 0, ["ch_raduyev"])) == []


# --- what follows a combat (10.6, 10.9, 10.13, 11.4) ------------------------------------------

def test_only_the_attacked_hex_is_revealed_and_it_stays_face_up() -> None:
    s = position({"ru_131_mech_bde": "0726"}, {"0727": ["ch_presidential_guard"], "0627": ["ch_borz_regt"]})
    assert B.grid.adjacent("0726", "0627")
    events, after = fight(declared(s, attack("0727", "ru_131_mech_bde")), [3])  # 2:1, "-"
    assert of(events, "revealed") == [{"type": "revealed", "tokens": {"t01": "ch_presidential_guard"}}]
    assert after["tokens"]["t01"]["unit"] == "ch_presidential_guard" and after["tokens"]["t01"]["revealed"]
    assert isinstance(after["tokens"]["t02"]["unit"], dict)  # still sealed
    view = GAME.view(data(), after, "russian")
    assert view["Chechen units revealed"] == {"0727": "Presidential Guard"}
    assert view["Chechen units (face down)"] == {"0627": 1}


def test_the_markers_types_stay_sealed_until_the_die() -> None:
    s = declared(example_10_7(), attack("0727", "ru_76_airborne", supports=1),
                 secret={"supports": {"0727": ["airstrike"]}})
    sealed_types = s["attacks"][0]["types"]
    assert sealed_types["kind"] == "supports" and sealed_types["owner"] == "russian"
    assert "airstrike" not in GAME.summary(data(), {"type": "attacks_declared", "attacks": s["attacks"]})
    assert s["supports"]["russian"]["airstrike"] == 2  # spent when fought


@pytest.mark.parametrize(("target", "attacker_hex", "kinds", "tos_die", "points"), [
    ("0828", "0927", ["artillery"], None, 1),      # the defender in a town
    ("0727", "0726", ["artillery"], None, 0),      # both sides in clear
    ("0727", "0828", ["artillery"], None, 1),      # the attacker in a town
    ("0828", "0927", ["tos1"], 1, 2),              # TOS-1's own die a 1: two points
    ("0828", "0927", ["tos1"], 2, 1),              # a 2: one
    ("0828", "0927", ["tos1", "airstrike"], 1, 3),
])
def test_collateral_damage_for_each_marker_where_a_side_is_in_a_town(
        target: str, attacker_hex: str, kinds: list[str], tos_die: int | None, points: int) -> None:
    s = position({"ru_131_mech_bde": attacker_hex}, {target: ["ch_presidential_guard", "ch_abkhaz_bn"]})
    s = declared(s, attack(target, "ru_131_mech_bde", supports=len(kinds)),
                 secret={"supports": {target: kinds}})
    dice = [3] + ([tos_die] if tos_die is not None else [])
    events, after = fight(s, dice)
    assert after["collateral"] == points
    for kind in kinds:
        assert after["used_supports"]["russian"][kind] == 1
    assert of(events, "combat")[0]["tos1_roll"] == tos_die


@pytest.mark.parametrize(("die", "lost"), [(5, False), (6, True)])
def test_a_chechen_marker_is_lost_for_good_on_a_6(die: int, lost: bool) -> None:
    s = declared(example_10_7(), attack("0727", "ru_76_airborne"))
    events, after = fight(s, [3, die], support("0727", 1))
    assert of(events, "chechen_marker_roll")[0]["lost"] is lost
    assert after["supports"]["chechen"]["artillery"] == 1
    assert after["used_supports"]["chechen"].get("artillery", 0) == (0 if lost else 1)


@pytest.mark.parametrize(("die", "fate"), [(4, "next_turn"), (5, "eliminated")])
def test_leaders_of_a_hex_wiped_out_die_on_5_or_6(die: int, fate: str) -> None:
    s = declared(example_10_7(), attack("0727", "ru_76_airborne", "ru_81_mech_regt"))
    s["leaders"]["ch_basayev"] = "0727"  # there before: it rolls too (11.4)
    events, after = fight(s, [6, die, 1], support("0727", 0, ["ch_dudayev"]))
    assert of(events, "leader_placed")[0]["leader"] == "ch_dudayev"
    assert [e["leader"] for e in of(events, "leader_roll")] == ["ch_basayev", "ch_dudayev"]
    assert after["leaders"]["ch_basayev"] == fate and after["leaders"]["ch_dudayev"] == "next_turn"
    assert after["leaders_lost"] == (1 if fate == "eliminated" else 0)


def test_a_leader_whose_hex_holds_stays_there() -> None:
    s = declared(example_10_7(), attack("0727", "ru_76_airborne", "ru_81_mech_regt"))
    events, after = fight(s, [2], support("0727", 0, ["ch_dudayev"]))
    assert of(events, "leader_roll") == [] and after["leaders"]["ch_dudayev"] == "0727"


def test_several_attacks_are_fought_in_the_order_declared() -> None:
    s = position({"ru_131_mech_bde": "0726", "ru_74_mech_bde": "1424"},
                 {"0727": ["ch_argun_bn"], "1324": ["ch_militia_02"]})
    s = declared(s, attack("1324", "ru_74_mech_bde"), attack("0727", "ru_131_mech_bde"))
    events, after = fight(s, [6, 6])
    assert [e["target"] for e in of(events, "combat")] == ["1324", "0727"]
    assert after["tokens"] == {} and after["cup"] == 2


def test_the_bots_file_is_legal_and_names_its_markers() -> None:
    s = position({"ru_131_mech_bde": "0726", "ru_74_mech_bde": "0728"}, {"0727": ["ch_argun_bn"]})
    found = None
    for seed in range(12):
        orders = GAME.bot(data(), s, "russian", KeyedRng(bytes([seed]) * 32))
        assert russian(s, *orders["orders"], secret=orders.get("secret")) == []
        if orders.get("secret"):
            found = orders
    assert found is not None and found["secret"] == {"supports": {"0727": ["artillery"]}}


# --- the Chechen Combat Segment (10.0 with the Chechen attacking, 10.9's order kept) -----------

def opened(s: State) -> State:
    """The position as the referee (or the Chechen with his key) checks it: every identity seen."""
    out = dict(s)
    out["tokens"] = {t: {**v, "unit": v["unit"]["value"] if isinstance(v["unit"], dict) else v["unit"]}
                     for t, v in s["tokens"].items()}
    return out


def chechen_phase(russians: dict[str, str], tokens: dict[str, list[str]], **changes: Any) -> State:
    return position(russians, tokens, phase="chechen-combat", **changes)


def c_attack(target: str, *tokens: str, advance: list[str] | None = None) -> dict[str, Any]:
    body: dict[str, Any] = {"target": target, "units": list(tokens)}
    if advance is not None:
        body["advance"] = advance
    return {"attack": body}


def c_messages(s: State, *items: dict[str, Any], secret: dict[str, Any] | None = None) -> list[str]:
    body: dict[str, Any] = {"orders": list(items), **({"secret": secret} if secret is not None else {})}
    return [p.message for p in GAME.validate(data(), opened(s), "chechen", body)]


def c_declared(s: State, *items: dict[str, Any], secret: dict[str, Any] | None = None) -> State:
    assert c_messages(s, *items, secret=secret) == []
    body: dict[str, Any] = {"orders": list(items), **({"secret": secret} if secret is not None else {})}
    return fold(s, GAME.resolve(data(), s, {"chechen": body}, FixedRng(), OpenSecrets()))


def r_support(target: str, markers: int) -> dict[str, Any]:
    return {"support": {"target": target, "markers": markers}}


def r_messages(s: State, *items: dict[str, Any], secret: dict[str, Any] | None = None) -> list[str]:
    body: dict[str, Any] = {"orders": list(items), **({"secret": secret} if secret is not None else {})}
    return [p.message for p in GAME.validate(data(), s, "russian", body)]


def r_fight(s: State, dice: list[int], *items: dict[str, Any],
            secret: dict[str, Any] | None = None) -> tuple[list[dict[str, Any]], State]:
    assert s["phase"] == "russian-supports"
    assert r_messages(s, *items, secret=secret) == []
    body: dict[str, Any] = {"orders": list(items), **({"secret": secret} if secret is not None else {})}
    rng = FixedRng(*dice)
    events = GAME.resolve(data(), s, {"russian": body}, rng, OpenSecrets())
    assert rng.values == [], f"dice left over: {rng.values}"
    return events, fold(s, events)


def raid() -> State:
    # the Chechen units in 0726 and 0728 against the 76th in 0727 (clear, Chechnya)
    return chechen_phase({"ru_76_airborne": "0727"},
                         {"0726": ["ch_presidential_guard"], "0728": ["ch_abkhaz_bn", "ch_militia_01"]})


def test_the_chechen_attacks_then_the_russian_answers_then_the_turn_ends() -> None:
    s = raid()
    assert GAME.phase(data(), s).awaiting == ("chechen",)
    nothing = fold(s, GAME.resolve(data(), s, {"chechen": {"orders": []}}, FixedRng(), OpenSecrets()))
    assert nothing["phase"] == "end-of-turn"
    s = c_declared(s, c_attack("0727", "t01", "t02"))
    assert s["phase"] == "russian-supports" and GAME.phase(data(), s).awaiting == ("russian",)
    events, after = r_fight(s, [2])
    told = of(events, "combat")[0]
    # 3 + 3 against 3, clear: 2:1; a 2 is Ax: the Chechen loses a step for the 76th's one
    assert (told["side"], told["attack"], told["defence"], told["column"], told["result"]) == \
        ("chechen", 6, 3, "2:1", "Ax")
    assert of(events, "revealed")[0]["tokens"] == {"t01": "ch_presidential_guard", "t02": "ch_abkhaz_bn"}
    assert of(events, "chechens_eliminated")[0]["tokens"] == ["t01"]  # the weaker, then the lower id
    assert after["phase"] == "end-of-turn" and "t03" not in of(events, "revealed")[0]["tokens"]


def test_each_clause_of_the_chechens_declaration() -> None:
    s = raid()
    assert c_messages(s, c_attack("0726", "t02")) == ["0726 holds no Russian unit"]
    assert c_messages(s, c_attack("0727", "t01", "t01")) == ["t01 attacks once a segment (10.3, 10.4)"]
    assert c_messages(s, c_attack("0727", "t01"), c_attack("0727", "t02")) == \
        ["0727 is attacked once a segment (10.2)"]
    far = chechen_phase({"ru_76_airborne": "0727"}, {"0730": ["ch_argun_bn"]})
    assert c_messages(far, c_attack("0727", "t01")) == ["t01 in 0730 is not next to 0727 (10.1)"]
    assert c_messages(s, c_attack("0727", "t09"))[0].startswith("'t09' is not one of your units on the map")
    assert c_messages(s, c_attack("0727", "t01", advance=["t02"])) == \
        ["advance: a list of this attack's units (10.12)"]


def test_10_1_units_in_chechnya_cannot_attack_the_68th_in_stavropol() -> None:
    # 10.1's example: "Since Chechen units cannot enter Stavropol, they could not attack the 68th"
    assert (B.region["0425"], B.region["0524"]) == ("stavropol", "chechnya")
    s = chechen_phase({"ru_68_recon_bn": "0425"}, {"0524": ["ch_militia_01", "ch_argun_bn"]})
    assert c_messages(s, c_attack("0425", "t01", "t02")) == [
        "0425 is outside Chechnya: Chechen units cannot enter it, so they cannot attack there (10.1, 8.2)"]


def test_only_militia_attack_into_dagestan() -> None:
    s = chechen_phase({"ru_mvd_regt_1": "0617"}, {"0618": ["ch_militia_02", "ch_argun_bn"]})
    assert c_messages(s, c_attack("0617", "t01", "t02")) == [
        "t02 is not militia: only militia enter Dagestan, and so attack there (10.1, 8.2)"]
    assert c_messages(s, c_attack("0617", "t01")) == []


def test_the_chechens_answers_are_sealed_until_the_russian_has_committed() -> None:
    s = c_declared(raid(), c_attack("0727", "t01", "t02"),
                   secret={"supports": {"0727": {"markers": 1, "leaders": ["ch_basayev"]}}})
    node = s["attacks"][0]["answers"]
    assert node["kind"] == "answers" and node["owner"] == "chechen"
    assert "ch_basayev" not in GAME.summary(data(), {"type": "attacks_declared", "attacks": s["attacks"]})
    events, after = r_fight(s, [1, 3])  # 6:3 with 2 shifts right: 4:1; a 1 is "-"; the marker's die
    told = of(events, "combat")[0]
    assert [[d, n] for d, n, _ in told["shifts"]] == [["right", 1], ["right", 1]]
    assert told["column"] == "4:1" and told["leaders"] == ["ch_basayev"]
    assert of(events, "leader_placed")[0] == {"type": "leader_placed", "leader": "ch_basayev", "hex": "0726"}
    assert after["leaders"]["ch_basayev"] == "0726"


@pytest.mark.parametrize(("count", "shifts"), [(0, [["right", 1], ["right", 1]]), (1, [["left", 1], ["right", 1]]),
                                               (2, [["left", 1], ["left", 1]])])
def test_an_answer_by_the_russians_count(count: int, shifts: list[list[Any]]) -> None:
    # the Chechen: two markers if the Russian commits none, one if one, none if two
    answers = {0: {"markers": 2}, 1: {"markers": 1}, 2: {"markers": 0}}
    s = c_declared(raid(), c_attack("0727", "t01", "t02"), secret={"supports": {"0727": answers}})
    items = [r_support("0727", count)] if count else []
    secret = {"supports": {"0727": ["artillery"] * count}} if count else None
    dice = [3] + [5] * (2 - count)  # the combat die, then a die for each Chechen marker
    events, _ = r_fight(s, dice, *items, secret=secret)
    assert [[d, n] for d, n, _ in of(events, "combat")[0]["shifts"]] == shifts


def test_each_clause_of_the_chechens_answers() -> None:
    s = raid()
    one = c_attack("0727", "t01", "t02")
    assert c_messages(s, one, secret={"supports": {"0727": {"markers": 3}}}) == ["markers: 0 to 2 (10.9)"]
    assert c_messages(s, one, secret={"supports": {"0727": {1: {"markers": 1, "leaders": ["ch_gelayev", "ch_raduyev"]}}}}) == \
        ["markers and leaders together: 2 at most (10.9)"]
    assert c_messages(s, one, secret={"supports": {"0726": {"markers": 1}}}) == ["no attack on 0726 is declared"]
    assert c_messages(s, one, secret={"supports": {"0727": [1]}})[0].startswith("expected {markers: N")
    s["leaders"]["ch_gelayev"] = "1525"
    assert c_messages(s, one, secret={"supports": {"0727": {"leaders": ["ch_gelayev"]}}}) == \
        ["ch_gelayev is neither in the underground box nor in an attacking hex (11.2)"]
    s["leaders"]["ch_gelayev"] = "0728"  # in an attacking hex: he may back it
    assert c_messages(s, one, secret={"supports": {"0727": {"leaders": ["ch_gelayev"]}}}) == []


def test_no_chechen_marker_in_a_raid_but_a_leader() -> None:
    s = chechen_phase({"ru_mvd_regt_1": "0617"}, {"0618": ["ch_militia_02"]})
    one = c_attack("0617", "t01")
    assert c_messages(s, one, secret={"supports": {"0617": {"markers": 1}}}) == \
        [f"{B.label('0617')} is outside Chechnya: no Chechen support markers there, leaders only (10.9)"]
    assert c_messages(s, one, secret={"supports": {"0617": {"leaders": ["ch_raduyev"]}}}) == []


def test_each_clause_of_the_russians_answer() -> None:
    s = c_declared(raid(), c_attack("0727", "t01", "t02"))
    assert r_messages(s, r_support("0726", 1), secret={"supports": {"0726": ["artillery"]}}) == \
        ["no Chechen attack on 0726 is declared"]
    assert r_messages(s, r_support("0727", 3)) == ["markers: 0, 1 or 2 (10.9)"]
    assert r_messages(s, r_support("0727", 1), secret={"supports": {"0727": ["tos1"]}}) == \
        ["tos1 is used only by attacking Russian units (10.9)"]
    assert r_messages(s, r_support("0727", 1), secret={"supports": {"0727": ["armor"]}}) == []
    assert r_messages(s, r_support("0727", 1)) == [
        'name your markers\' kinds in the secret part: supports: {"CCRR": [KIND, ...]} for each '
        "combat with markers (10.9)"]


def test_armor_only_when_the_russians_defend_in_clear() -> None:
    s = c_declared(chechen_phase({"ru_76_airborne": "0828"}, {"0927": ["ch_argun_bn"]}), c_attack("0828", "t01"))
    assert r_messages(s, r_support("0828", 1), secret={"supports": {"0828": ["armor"]}}) == \
        ["armor is used only where the defender is in clear (10.9)"]


def test_the_russians_markers_shift_left_in_defence_and_count_as_collateral_in_a_town() -> None:
    s = c_declared(chechen_phase({"ru_76_airborne": "0828"}, {"0927": ["ch_presidential_guard"]}),
                   c_attack("0828", "t01"))
    events, after = r_fight(s, [4], r_support("0828", 2),
                            secret={"supports": {"0828": ["artillery", "airstrike"]}})
    told = of(events, "combat")[0]
    assert [[d, n] for d, n, _ in told["shifts"]] == [["left", 1], ["left", 1], ["left", 2]]
    assert (told["odds"], told["column"], told["result"]) == ("1:1", "1:2", "Ax")
    assert after["collateral"] == 2 and after["tokens"] == {}  # Ax: 1 step for the 76th's 1


def test_de_the_russians_are_eliminated_and_the_chechen_advances() -> None:
    s = c_declared(chechen_phase({"ru_mvd_regt_1": "0727"},
                                 {"0726": ["ch_presidential_guard"], "0728": ["ch_abkhaz_bn"]}),
                   c_attack("0727", "t01", "t02", advance=["t02"]))
    events, after = r_fight(s, [6])  # 6:2 = 3:1, a 6: DE
    assert of(events, "steps_lost")[0]["eliminated"] == ["ru_mvd_regt_1"] and after["casualties"] == 1
    assert of(events, "advanced")[0] == {"type": "advanced", "side": "chechen", "units": ["t02"], "to": "0727"}
    assert after["tokens"]["t02"]["hex"] == "0727" and after["tokens"]["t01"]["hex"] == "0726"
    assert "ru_mvd_regt_1" in after["pool"]


def test_ae_the_attackers_are_eliminated_and_their_leaders_roll() -> None:
    s = chechen_phase({"ru_131_mech_bde": "0727"}, {"0726": ["ch_argun_bn"]})
    s["leaders"]["ch_maskhadov"] = "0726"
    s = c_declared(s, c_attack("0727", "t01"))
    events, after = r_fight(s, [1, 6])  # 1:6, at 1:2: a 1 is AE; the leader's die 6
    assert of(events, "combat")[0]["result"] == "AE"
    assert after["tokens"] == {} and after["cup_known"] == ["ch_argun_bn"]
    assert after["leaders"]["ch_maskhadov"] == "eliminated" and after["leaders_lost"] == 1


def test_the_bots_chechen_attacks_and_russian_answers_are_legal() -> None:
    s = raid()
    seen = set()
    for seed in range(10):
        orders = GAME.bot(data(), s, "chechen", KeyedRng(bytes([seed]) * 32))
        assert c_messages(s, *orders["orders"], secret=orders.get("secret")) == []
        seen.add(bool(orders["orders"]))
        if orders["orders"]:
            after = c_declared(s, *orders["orders"], secret=orders.get("secret"))
            answer = GAME.bot(data(), after, "russian", KeyedRng(bytes([seed]) * 32))
            assert r_messages(after, *answer["orders"], secret=answer.get("secret")) == []
    assert seen == {True, False}


# --- from a bounded mutation run of combat.py: what the tables above left unchecked ----------

def test_the_dice_are_labelled_by_turn_side_combat_and_purpose() -> None:
    s = position({"ru_76_airborne": "0726", "ru_81_mech_regt": "0728", "ru_131_mech_bde": "0927"},
                 {"0727": ["ch_argun_bn"], "0828": ["ch_militia_01"]}, groznyi_attacked=True)
    s["leaders"]["ch_basayev"] = "0727"
    s = declared(s, attack("0727", "ru_76_airborne", "ru_81_mech_regt"),
                 attack("0828", "ru_131_mech_bde", supports=1), secret={"supports": {"0828": ["tos1"]}})
    rng = FixedRng(6, 4, 3, 6, 2)
    events = GAME.resolve(data(), s, {"chechen": {"orders": [support("0727", 1)]}}, rng, OpenSecrets())
    assert rng.labels == ["t1:russian:combat1:0727", "t1:russian:combat1:0727:leader:ch_basayev",
                          "t1:russian:combat1:0727:marker1", "t1:russian:combat2:0828",
                          "t1:russian:combat2:0828:tos1"]
    assert [e["defenders"] for e in of(events, "combat")] == [["t01"], ["t02"]]


def test_a_two_step_unit_losing_one_step_is_reduced() -> None:
    # 6 against 1 + 1 at 6:1, a 1 is Ex: the 131st loses the defenders' two steps... from its two
    s = position({"ru_131_mech_bde": "0726"}, {"0727": ["ch_argun_bn"]})
    events, after = fight(declared(s, attack("0727", "ru_131_mech_bde")), [1])
    lost = of(events, "steps_lost")[0]
    assert (lost["steps"], lost["reduced"], lost["eliminated"]) == (1, ["ru_131_mech_bde"], [])
    assert after["russians"]["ru_131_mech_bde"]["reduced"] is True and after["casualties"] == 1


def test_ex_counts_each_sides_own_steps() -> None:
    # 6 (two steps) against 1 + 1 + 1 (three steps) at 2:1, a 5 is Ex: the Chechen, weaker, is
    # eliminated; the 131st owes three steps and has two
    s = position({"ru_131_mech_bde": "0726"}, {"0727": ["ch_argun_bn", "ch_shali_bn", "ch_militia_01"]})
    events, after = fight(declared(s, attack("0727", "ru_131_mech_bde")), [5])
    assert of(events, "steps_lost")[0]["eliminated"] == ["ru_131_mech_bde"]
    assert after["tokens"] == {} and after["casualties"] == 2


def test_no_advance_into_a_hex_still_held() -> None:
    s = declared(example_10_7(), attack("0727", "ru_76_airborne", "ru_81_mech_regt", advance=["ru_81_mech_regt"]))
    events, after = fight(s, [2])  # "-"
    assert of(events, "advanced") == [] and after["russians"]["ru_81_mech_regt"]["hex"] == "0728"


def test_a_chechen_attack_from_two_hexes_rolls_for_the_leaders_of_the_hex_wiped_out() -> None:
    # 0726 keeps a unit that did not attack; 0728's only unit attacks and is lost with its leader
    s = position({"ru_131_mech_bde": "0727"},
                 {"0726": ["ch_argun_bn", "ch_militia_03"], "0728": ["ch_shali_bn"]}, phase="chechen-combat")
    s["leaders"]["ch_gelayev"] = "0728"
    body = {"orders": [{"attack": {"target": "0727", "units": ["t01", "t03"]}}]}
    for e in GAME.resolve(data(), s, {"chechen": body}, FixedRng(), OpenSecrets()):
        s = GAME.apply(data(), s, e)
    events = GAME.resolve(data(), s, {"russian": {"orders": []}}, FixedRng(1, 5), OpenSecrets())  # AE
    assert [e["leader"] for e in of(events, "leader_roll")] == ["ch_gelayev"]
    assert [e["defenders"] for e in of(events, "combat")] == [["ru_131_mech_bde"]]


def test_every_combat_event_told_in_words() -> None:
    s = position({"ru_76_airborne": "0726", "ru_81_mech_regt": "0728"},
                 {"0727": ["ch_argun_bn", "ch_militia_01"]}, groznyi_attacked=True)
    s["leaders"]["ch_basayev"] = "0727"
    s = declared(s, attack("0727", "ru_76_airborne", "ru_81_mech_regt", supports=1,
                           advance=["ru_81_mech_regt"]), secret={"supports": {"0727": ["artillery"]}})
    told = [GAME.summary(data(), {"type": "attacks_declared", "attacks": s["attacks"]})]
    events, _ = fight(s, [6, 5, 6], support("0727", 1))
    told += [GAME.summary(data(), e) for e in events]
    assert told == [
        "the Russian attacks: 76th Airborne Regt, 81st Mech Regt on 0727, 1 marker (their kinds sealed until the die)",
        "revealed (10.6): t01 is Argun Battalion, t02 is Militia 1",
        "combat on 0727: 7 against 2, 3:1; 1 column right (Russian artillery marker (10.9)); 1 column left "
        "(Chechen artillery marker (10.9)): fought at 3:1, Russian markers: artillery; die 6: DE",
        "Argun Battalion, Militia 1 eliminated, to the cup (combat on 0727)",
        "Shamil Basayev's units are all eliminated: die 5, eliminated (11.4)",
        "81st Mech Regt advance into 0727 (10.12)",
        "the Russian's markers go to the used box: artillery",
        "the Chechen artillery marker's die 6: lost for good (10.9)",
        "the combat segment ends",
        "turn 1: Chechen Movement and Combat Segments (8.0, 10.0)"]
    assert GAME.summary(data(), {"type": "leader_roll", "leader": "ch_basayev", "roll": 4, "eliminated": False}) == \
        "Shamil Basayev's units are all eliminated: die 4, back in the underground next turn (11.4)"
    assert GAME.summary(data(), {"type": "russian_markers_used", "kinds": ["tos1"], "collateral": 2}) == \
        "the Russian's markers go to the used box: tos1; collateral damage +2 (10.13)"
    assert GAME.summary(data(), {"type": "chechen_marker_roll", "roll": 3, "lost": False}) == \
        "the Chechen artillery marker's die 3: to the used box (10.9)"
    assert GAME.summary(data(), {"type": "advanced", "side": "chechen", "units": ["t03"], "to": "0727"}) == \
        "t03 advance into 0727 (10.12)"
    assert GAME.summary(data(), {"type": "attacks_declared", "attacks": [
        {"side": "chechen", "target": "0727", "units": ["t01", "t02"]}]}) == "the Chechen attacks: t01, t02 on 0727"


def test_the_sealed_nodes_name_their_combat_and_turn() -> None:
    s = declared(example_10_7(), attack("0727", "ru_76_airborne", supports=1),
                 secret={"supports": {"0727": ["airstrike"]}})
    node_ = s["attacks"][0]["types"]
    assert (node_["id"], node_["turn"], node_["owner"]) == ("t1:0727", 1, "russian")
    c = c_declared(raid(), c_attack("0727", "t01"), secret={"supports": {"0727": {"markers": 1}}})
    answers = c["attacks"][0]["answers"]
    assert (answers["kind"], answers["id"], answers["turn"], answers["owner"]) == ("answers", "t1:0727", 1, "chechen")


# 8.2: "While in the above oblasts they operate normally, except they may not conduct attacks,
# however if eligible they may conduct an ambush (14.0)."

def test_8_2_militia_in_ingushetia_may_not_attack() -> None:
    """A militia unit in Sleptsovskaya (1229, Ingushetia) attacking the 33rd in Karabulak
    (1230): refused, by where it stands (public: only militia are ever there)."""
    s = chechen_phase({"ru_33_mr": "1230"}, {"1229": ["ch_militia_01"]})
    assert c_messages(s, c_attack("1230", "t01")) == [
        "t01 stands in Ingushetia: militia there may not conduct attacks, only ambushes (8.2)"]


def test_8_2_only_the_units_that_stand_in_the_oblast_are_refused() -> None:
    """The Russian in 1129 (Ingushetia): militia next door in Chechnya (1128) attack it, as
    8.2 forbids only attacks from the oblasts; with one from Sleptsovskaya beside them, that
    one alone is named."""
    assert B.region["1128"] == "chechnya" and B.region["1129"] == B.region["1229"] == "ingushetia"
    s = chechen_phase({"ru_33_mr": "1129"}, {"1229": ["ch_militia_01"], "1128": ["ch_militia_02"]})
    assert c_messages(s, c_attack("1129", "t02")) == []
    assert c_messages(s, c_attack("1129", "t01", "t02")) == [
        "t01 stands in Ingushetia: militia there may not conduct attacks, only ambushes (8.2)"]
