"""What a Chechen War report says first (ChechenWar.headlines, rules/headlines.py): a phrase
for each kind of event, each outcome of an ambush and of a combat; and what an awaited
side's file must still cover (ChechenWar.todo, shown by `pbem status`): the set-up, the
reinforcements arriving now, the attacks a supports file answers, nothing otherwise.
Neither ever names a Chechen unit: the face-down ones are sealed, and `pbem status` is
public. In-process, without git."""

from __future__ import annotations

import importlib
from typing import Any

import pytest
from fixed_rng import FixedRng, OpenSecrets

from pbem.dice import KeyedRng
from pbem.game import GameData, State, get_game, headlines, load_data, todo

GAME = get_game("chechen_war")
board = importlib.import_module("pbem_game_chechen_war.board")
R, C = "Russian Federation", "Chechen Republic of Ichkeria"


def data() -> GameData:
    return load_data("chechen_war")


def said(*events: dict[str, Any]) -> list[str]:
    return headlines(GAME, data(), list(events))


def node(token: str, unit: str) -> dict[str, Any]:
    """A sealed identity, its value (a real unit) kept beside it as the referee's copy has it."""
    return {"kind": "unit", "id": token, "owner": "chechen", "turn": 0,
            "commitment": f"c-{token}", "sealed": "x", "value": unit}


# ---------------------------------------------------------------------------------------
# the headlines, event by event


def test_the_set_up() -> None:
    assert said({"type": "russians_placed", "units": {"ru_131_mech_bde": "0731", "ru_74_mech_bde": "0731"}},
                {"type": "tokens_placed", "tokens": {"t01": "1324", "t02": "1324", "t03": "1523"}},
                {"type": "identities_sealed", "tokens": {}, "cup": 8}) == [
        f"{R} set up 2 units", f"{C} set up 3 units face down"]


def ambush(result: str, free: bool = False) -> dict[str, Any]:
    return {"type": "ambush", "from": "1426", "target": "1325", "support": None, "leader": None,
            "roll": 4, "modifiers": [], "total": 4, "result": result, **({"free": True} if free else {})}


def lost(steps: int, reduced: list[str], eliminated: list[str], why: str = "ambush from 1426") -> dict[str, Any]:
    return {"type": "steps_lost", "steps": steps, "reduced": reduced, "eliminated": eliminated, "why": why}


@pytest.mark.parametrize(("events", "phrase"), [
    ([ambush("none")], f"{C} ambushed 1325: no effect"),
    ([ambush("retreat"), {"type": "retreat_roll", "roll": 3, "count": 2},
      {"type": "retreated", "units": ["ru_33_mr_regt", "ru_68_recon_bn"], "from": "1325", "to": "1324"}],
     f"{C} ambushed 1325: 2 Russian units retreated to 1324 (Groznyi)"),
    ([ambush("retreat"), {"type": "retreat_roll", "roll": 1, "count": 1},
      {"type": "retreated", "units": ["ru_33_mr_regt"], "from": "1325", "to": "1325"}],
     f"{C} ambushed 1325: 1 Russian unit had no room to retreat"),
    ([ambush("lose_1_step"), lost(1, ["ru_131_mech_bde"], [])], f"{C} ambushed 1325: 1 Russian step lost"),
    ([ambush("lose_2_steps"), lost(2, ["ru_131_mech_bde"], ["ru_68_recon_bn"])],
     f"{C} ambushed 1325: 2 Russian steps lost (1 unit eliminated)"),
    ([ambush("lose_1_step", free=True), lost(1, [], ["ru_68_recon_bn"])],
     f"{C} sprang a free ambush on 1325: 1 Russian step lost (1 unit eliminated)"),
])
def test_14_3_each_result_of_an_ambush(events: list[dict[str, Any]], phrase: str) -> None:
    assert said(*events) == [phrase]


def test_two_ambushes_keep_their_own_results() -> None:
    assert said(ambush("lose_1_step"), lost(1, ["ru_131_mech_bde"], []), ambush("none"),
                {"type": "segment_over"}) == [f"{C} ambushed 1325: 1 Russian step lost",
                                              f"{C} ambushed 1325: no effect"]


def combat(result: str, side: str = "russian", target: str = "1324") -> dict[str, Any]:
    return {"type": "combat", "side": side, "target": target, "attackers": [], "defenders": [],
            "chechens": {"t01": "ch_borz_regt"}, "russian_markers": [], "chechen_markers": 0,
            "leaders": [], "attack": 7, "defence": 2, "odds": "3:1", "shifts": [], "column": "2:1",
            "roll": 5, "tos1_roll": None, "result": result, "groznyi": target == "1324"}


def gone(*tokens: str) -> dict[str, Any]:
    return {"type": "chechens_eliminated", "tokens": list(tokens),
            "units": ["ch_borz_regt", "ch_militia_01"][:len(tokens)], "why": "combat on 1324"}


@pytest.mark.parametrize(("events", "phrases"), [
    ([combat("-")], [f"{R} attacked 1324 (Groznyi) at 2:1: no effect"]),
    ([combat("DE"), gone("t01", "t02"),
      {"type": "advanced", "side": "russian", "units": ["ru_131_mech_bde"], "to": "1324"},
      {"type": "russian_markers_used", "kinds": ["artillery"], "collateral": 1}],
     [f"{R} attacked 1324 (Groznyi) at 2:1: DE, 2 Chechen units eliminated", f"{R} took 1324 (Groznyi)"]),
    ([combat("DE"), gone("t01")], [f"{R} attacked 1324 (Groznyi) at 2:1: DE, 1 Chechen unit eliminated"]),
    ([combat("AE"), lost(3, ["ru_131_mech_bde"], ["ru_131_mech_bde", "ru_68_recon_bn"], "combat on 1324")],
     [f"{R} attacked 1324 (Groznyi) at 2:1: AE, 3 Russian steps lost (2 units eliminated)"]),
    ([combat("Ex"), lost(1, ["ru_131_mech_bde"], [], "combat on 1324"), gone("t01")],
     [f"{R} attacked 1324 (Groznyi) at 2:1: Ex, 1 Russian step lost, 1 Chechen unit eliminated"]),
    ([combat("Ax", side="chechen", target="1325"), gone("t01")],
     [f"{C} attacked 1325 at 2:1: Ax, 1 Chechen unit eliminated"]),
    ([combat("DE", side="chechen", target="1325"), lost(1, [], ["ru_68_recon_bn"], "combat on 1325"),
      {"type": "advanced", "side": "chechen", "units": ["t01"], "to": "1325"},
      {"type": "chechen_marker_roll", "roll": 6, "lost": True}, {"type": "attacks_over"}],
     [f"{C} attacked 1325 at 2:1: DE, 1 Russian step lost (1 unit eliminated)", f"{C} took 1325"]),
])
def test_10_11_each_result_of_a_combat(events: list[dict[str, Any]], phrases: list[str]) -> None:
    assert said(*events) == phrases


def position(russians: dict[str, str], tokens: dict[str, list[str]]) -> State:
    s = GAME.setup(data(), {}, KeyedRng(b"\x06" * 32))
    placed = {f"t{k:02d}": {"hex": h, "unit": node(f"t{k:02d}", u)}
              for k, (h, u) in enumerate(((h, u) for h, us in tokens.items() for u in us), start=1)}
    s.update(turn=1, phase="russian-combat", tokens=placed,
             russians={u: {"hex": h, "reduced": False} for u, h in russians.items()})
    return s


def resolved(s: State, orders: dict[str, Any], *dice: int) -> tuple[list[dict[str, Any]], State]:
    events = GAME.resolve(data(), s, orders, FixedRng(*dice), OpenSecrets())
    for e in events:
        s = GAME.apply(data(), s, e)
    return events, s


def test_a_combat_as_resolved_10_7s_example_won_and_its_hex_taken() -> None:
    s = position({"ru_76_airborne": "0726", "ru_81_mech_regt": "0728"},
                 {"0727": ["ch_argun_bn", "ch_militia_01"]})
    attack = {"attack": {"target": "0727", "units": ["ru_76_airborne", "ru_81_mech_regt"],
                         "advance": ["ru_81_mech_regt"]}}
    declared, s = resolved(s, {"russian": {"orders": [attack]}})
    assert said(*declared) == []  # the attacks declared: fought in the next step
    fought, _ = resolved(s, {"chechen": {"orders": []}}, 6)  # 3:1, a 6: DE
    assert said(*fought) == [f"{R} attacked 0727 at 3:1: DE, 2 Chechen units eliminated", f"{R} took 0727"]


def test_a_russian_move_into_a_chechen_city_once_each() -> None:
    moved = [{"type": "moved", "side": "russian", "units": ["ru_131_mech_bde"], "path": ["1424", "1324"], "mf": 1},
             {"type": "moved", "side": "russian", "units": ["ru_74_mech_bde"], "path": ["1425", "1324"], "mf": 1},
             {"type": "moved", "side": "russian", "units": ["ru_81_mech_regt"], "path": ["1424", "1425"], "mf": 1},
             {"type": "moved", "side": "chechen", "units": ["t01"], "path": ["1422", "1321"], "mf": 1}]
    assert said(*moved) == [f"{R} entered 1324 (Groznyi)"]


def test_leaders_lost() -> None:
    assert said({"type": "leader_roll", "leader": "ch_dudayev", "roll": 5, "eliminated": True},
                {"type": "leader_roll", "leader": "ch_basayev", "roll": 2, "eliminated": False},
                {"type": "leader_struck", "leader": "ch_khattab"}) == [
        "Dzhokhar Dudayev eliminated", "Ibn al-Khattab eliminated by the random event"]


@pytest.mark.parametrize(("roll", "phrase"), [
    (1, "random event: Federal strike on a field headquarters"),
    (2, "random event: Press reports of civilian casualties"),
    (3, None), (4, None),
    (5, "random event: Moscow sends more troops"),
    (6, "random event: Infiltration"),
])
def test_12_0_each_random_event(roll: int, phrase: str | None) -> None:
    spec = next(v for k, v in data()["tables"]["random_events"]["table"].items()
                if roll in range(int(k[0]), int(k[-1]) + 1))
    event = {"type": "random_event", "roll": roll, "event": spec["event"], "text": spec["text"]}
    assert said(event) == ([phrase] if phrase else [])


@pytest.mark.parametrize(("event", "phrase"), [
    ({"type": "morale_roll", "change": -2, "why": "the morale roll (6.2)", "level": 7, "roll": 1,
      "modifiers": [], "total": 1}, "Russian morale -2, now 7: the morale roll (6.2)"),
    ({"type": "morale_roll", "change": 1, "why": "the morale roll (6.2)", "level": 10, "roll": 6,
      "modifiers": [], "total": 6}, "Russian morale +1, now 10: the morale roll (6.2)"),
    ({"type": "morale_roll", "change": 0, "why": "the morale roll (6.2)", "level": 9, "roll": 4,
      "modifiers": [], "total": 4}, None),
    ({"type": "morale", "change": 3, "why": "the ceasefire turn (15.2)", "level": 12},
     "Russian morale +3, now 12: the ceasefire turn (15.2)"),
    ({"type": "morale", "change": -1, "why": "Chechen raids (6.3)", "level": 8, "hexes": ["1418"]},
     "Russian morale -1, now 8: Chechen raids (6.3)"),
    ({"type": "kidnapping", "change": -2, "why": "the kidnapping (6.3)", "level": 6, "russian_roll": 1,
      "chechen_roll": 4}, f"{C} kidnapped civilians: Russian morale -2, now 6"),
    ({"type": "ceasefire_declared", "turn": 5}, f"{R} declared a ceasefire for turn 5"),
    ({"type": "casualties_reset"}, None),
    ({"type": "turn_end"}, None),
])
def test_6_0_morale_and_15_1_the_ceasefire(event: dict[str, Any], phrase: str | None) -> None:
    assert said(event) == ([phrase] if phrase else [])


@pytest.mark.parametrize(("event", "phrase"), [
    ({"type": "recruited", "units": ["ru_7_airborne", "ru_vityaz"], "flipped": ["ru_131_mech_bde"]},
     f"{R} recruited 2 units for next turn and restored 1 unit to full strength"),
    ({"type": "recruited", "units": ["ru_7_airborne"], "flipped": []}, f"{R} recruited 1 unit for next turn"),
    ({"type": "recruited", "units": [], "flipped": ["ru_131_mech_bde"]}, f"{R} restored 1 unit to full strength"),
    ({"type": "drawn", "units": [node("a", "ch_borz_regt"), node("b", "ch_militia_02")],
      "why": "reinforcements (13.1)"}, f"{C} drew 2 units for next turn, face down"),
    ({"type": "drawn", "units": [node("a", "ch_borz_regt")], "why": "infiltration (12.0)"},
     f"{C} drew 1 infiltrator, face down"),
    ({"type": "reinforcement_roll", "side": "russian", "roll": 4, "modifiers": [], "total": 4, "count": 2}, None),
])
def test_13_1_the_reinforcements_recruited_and_drawn(event: dict[str, Any], phrase: str | None) -> None:
    assert said(event) == ([phrase] if phrase else [])


def test_13_2_13_3_the_reinforcements_placed_one_phrase_a_side_where_they_came() -> None:
    russian = [{"type": "arrived", "side": "russian", "hex": "0626", "units": ["ru_7_airborne", "ru_vityaz"]},
               {"type": "arrived", "side": "russian", "hex": "0625", "units": ["ru_mvd_omon"]},
               {"type": "moved", "side": "russian", "units": ["ru_7_airborne"], "path": ["1424", "1324"], "mf": 1}]
    assert said(*russian) == [f"{R} placed 3 reinforcements", f"{R} entered 1324 (Groznyi)"]
    chechen = {"type": "arrived", "side": "chechen", "hex": "1523", "tokens": {"t25": node("t25", "ch_borz_regt")},
               "recruits": ["t3:reinforcements:1"]}
    assert said(chechen) == [f"{C} placed 1 reinforcement face down"]


@pytest.mark.parametrize(("winners", "phrase"), [
    (["russian"], f"the game is over: {R} won"),
    (["chechen"], f"the game is over: {C} won"),
    ([], "the game is over: a draw"),
])
def test_3_1_3_2_the_end(winners: list[str], phrase: str) -> None:
    assert said({"type": "over", "result": {"winners": winners, "reason": "..."}}) == [phrase]


def test_nothing_of_note() -> None:
    assert said() == []
    assert said({"type": "gunships", "hexes": ["1325"]}, {"type": "segment_over"},
                {"type": "phase", "phase": "russian-combat", "turn": 1},
                {"type": "leader_placed", "leader": "ch_dudayev", "hex": "1426"}) == []


# ---------------------------------------------------------------------------------------
# what an awaited side's file must still cover


def fresh(**options: Any) -> State:
    return GAME.setup(data(), options, KeyedRng(b"\x02" * 32))


def test_4_2_1_the_russians_units_in_the_variable_set_up() -> None:
    s = fresh()
    regulars, mvd = todo(GAME, data(), s, "russian")
    assert regulars.startswith("place ru_131_mech_bde, ru_74_mech_bde, ")
    assert regulars.endswith(" ru_324_rifle_regt on or adjacent to 1632 (Vladikavkaz), 0731 (Mozdok) "
                             "or 0617 (Pervomaiskoye), not in Chechnya (4.2.1)")
    assert mvd == ("place " + ", ".join(f"ru_mvd_regt_{k}" for k in range(1, 10))
                   + " anywhere outside Chechnya and Georgia (4.2.1)")
    named = [w.rstrip(",") for line in (regulars, mvd) for w in line.split() if w.startswith("ru_")]
    assert sorted(named) == sorted(board.at_start(data()))  # each once
    assert todo(GAME, data(), s, "chechen") == []


def test_4_3_1_the_russians_units_by_group_in_the_historical_set_up() -> None:
    lines = todo(GAME, data(), fresh(setup="historical"), "russian")
    assert lines == [
        "place ru_131_mech_bde, ru_74_mech_bde, ru_81_mech_regt, ru_276_mech_regt, ru_mvd_regt_1, "
        "ru_mvd_regt_2, ru_mvd_regt_3, ru_mvd_regt_4 on or adjacent to 0731 (Mozdok) (4.3.1)",
        "place ru_255_mr_regt, ru_33_mr_regt, ru_68_recon_bn, ru_mvd_regt_5, ru_mvd_regt_6, "
        "ru_mvd_regt_7 on or adjacent to 0617 (Pervomaiskoye), not in Chechnya (4.3.1)",
        "place ru_693_mr_regt, ru_503_mr_regt, ru_76_airborne, ru_mvd_regt_8, ru_mvd_regt_9 on or "
        "adjacent to 1632 (Vladikavkaz) (4.3.1)",
        "place ru_129_mr_regt, ru_106_airborne, ru_98_airborne on or adjacent to 1418 (Khasav-Yurt), "
        "not in Chechnya (4.3.1)",
        "place ru_245_mr_regt, ru_324_rifle_regt anywhere outside Chechnya and Georgia (4.3.1)",
    ]


@pytest.mark.parametrize(("mode", "regulars"), [
    ("variable", "name the hexes of your 8 regular tokens under secret: regulars (4.2.2)"),
    ("historical", "name the hexes of your 8 regular tokens under secret: regulars, each in a town or "
                   "city (4.3.2)"),
])
def test_4_2_2_the_chechens_tokens_as_counts(mode: str, regulars: str) -> None:
    s = fresh(setup=mode)
    s["phase"] = "setup-chechen"
    assert todo(GAME, data(), s, "chechen") == [
        "place 24 units face down in Chechnya, within stacking (4.2.2)", regulars]
    assert todo(GAME, data(), s, "russian") == []


def test_13_2_the_russians_reinforcements_the_pro_russian_chechens_also_in_a_held_city() -> None:
    s = position({"ru_131_mech_bde": "1324", "ru_74_mech_bde": "1425"}, {})
    s.update(phase="russian-movement")
    assert todo(GAME, data(), s, "russian") == []
    s["recruits"]["russian"] = ["ru_7_airborne", "ru_pro_avturkhanov", "ru_vityaz"]
    assert todo(GAME, data(), s, "russian") == [
        "place, arriving now, ru_7_airborne, ru_vityaz in a hex of Stavropol or Dagestan free of "
        "Chechen units (13.2)",
        "place, arriving now, ru_pro_avturkhanov in a hex of Stavropol or Dagestan free of Chechen units, "
        "or in 1324 (Groznyi) (13.2)"]
    del s["russians"]["ru_131_mech_bde"]  # no city held: where the others go
    assert todo(GAME, data(), s, "russian") == [
        "place, arriving now, ru_7_airborne, ru_pro_avturkhanov, ru_vityaz in a hex of Stavropol or "
        "Dagestan free of Chechen units (13.2)"]
    assert todo(GAME, data(), s, "chechen") == []


@pytest.mark.parametrize(("box", "line"), [
    (0, None),
    (1, "place, arriving now, recruit 1 face down in a hex of Chechnya free of Russian units (13.3)"),
    (3, "place, arriving now, recruits 1, 2, 3 face down in a hex of Chechnya free of Russian units (13.3)"),
])
def test_13_3_the_chechens_recruits_by_their_places_in_his_box(box: int, line: str | None) -> None:
    s = position({}, {})
    s.update(phase="chechen-movement")
    s["recruits"]["chechen"] = [node(f"r{k}", u) for k, u in enumerate(["ch_borz_regt", "ch_militia_03",
                                                                       "ch_abkhaz_bn"][:box])]
    assert todo(GAME, data(), s, "chechen") == ([line] if line else [])
    assert todo(GAME, data(), s, "russian") == []


def test_10_9_the_attacks_a_supports_file_answers() -> None:
    s = position({"ru_131_mech_bde": "1424"}, {"1324": ["ch_borz_regt"], "1325": ["ch_militia_01"]})
    s.update(phase="chechen-supports", attacks=[
        {"target": "1324", "units": ["ru_131_mech_bde"], "supports": 2, "advance": [], "types": {"sealed": "x"}},
        {"target": "1325", "units": ["ru_74_mech_bde"], "supports": 0, "advance": [], "types": None}])
    assert todo(GAME, data(), s, "chechen") == [
        "back the defence of 1324 (Groznyi) (2 Russian markers), 1325 (0 Russian markers), or not: "
        "markers and leaders, two at most a combat (10.9, 11.2)"]
    s.update(phase="russian-supports", attacks=[
        {"side": "chechen", "target": "1424", "units": ["t01"], "advance": ["t01"], "answers": {"sealed": "x"}}])
    assert todo(GAME, data(), s, "russian") == [
        "back the defence of 1424, or not: 0 to 2 markers a combat, their kinds under secret (10.9)"]
    assert todo(GAME, data(), s, "chechen") == []


@pytest.mark.parametrize("phase", ["chechen-ambush", "russian-combat", "chechen-combat", "end-of-turn", "over"])
def test_nothing_to_cover_in_the_other_segments(phase: str) -> None:
    s = position({"ru_131_mech_bde": "1424"}, {"1324": ["ch_borz_regt"]})
    s["recruits"] = {"russian": ["ru_7_airborne"], "chechen": [node("r1", "ch_abkhaz_bn")]}
    s["phase"] = phase
    assert todo(GAME, data(), s, "russian") == todo(GAME, data(), s, "chechen") == []


# ---------------------------------------------------------------------------------------
# no Chechen unit named: a bot game with every identity a real unit, in the referee's copy


def chechen_names() -> list[str]:
    return [w for u, v in board.units(data()).items() if v["side"] == "chechen" for w in (u, v["name"])]


def test_no_headline_or_todo_line_names_a_chechen_unit() -> None:
    d = data()
    rng = KeyedRng(b"\x03" * 32)
    s = GAME.setup(d, {}, rng)
    secrets = OpenSecrets()
    told: list[str] = []
    kinds: set[str] = set()
    while not GAME.phase(d, s).over:
        awaiting = GAME.phase(d, s).awaiting
        told += [line for side in ("russian", "chechen") for line in todo(GAME, d, s, side)]
        events = GAME.resolve(d, s, {f: GAME.bot(d, s, f, rng) for f in awaiting}, rng, secrets)
        for e in events:
            s = GAME.apply(d, s, e)
        kinds.update(e["type"] for e in events)
        told += headlines(GAME, d, events)
    # the game drew, placed, revealed and eliminated Chechen units, and told of it
    assert {"identities_sealed", "drawn", "arrived", "revealed", "chechens_eliminated", "over"} <= kinds
    assert any("face down" in line for line in told) and any("Chechen unit" in line for line in told)
    text = "\n".join(told)
    secret = repr(s["tokens"]) + repr(s["recruits"]) + repr(s["cup_known"])
    assert "ch_" in secret  # the referee's copy holds the identities in plain
    leaks = [name for name in chechen_names() if name in text]
    assert leaks == [], leaks
