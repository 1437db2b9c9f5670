"""Each side's order of battle in its own report (rules/order_of_battle.py, the report's
"own" part): the Russian's units with their hexes, values, steps and state, his
recruitment box, pool, markers and morale; the Chechen's tokens with the units his key
opens, those face up, his recruitment box, leaders and markers; nothing for the public and
the referee; and the Chechen's secret identities in his report only. In-process."""

from __future__ import annotations

import importlib
import json
from typing import Any

from pbem.dice import KeyedRng
from pbem.game import GameData, State, game_folder, get_game, load_data
from pbem.reports.render import environment

GAME = get_game("chechen_war")
own = importlib.import_module("pbem_game_chechen_war.order_of_battle").own


def data() -> GameData:
    return load_data("chechen_war")


# the Chechen's face-down units: t01's and the first recruit's identities sealed to him
SECRET = {"t01": "ch_borz_regt", "r1": "ch_militia_12"}


def sealed(node_id: str) -> dict[str, Any]:
    """A node as the referee's state holds it, its value beside it (OpenSecrets' way): a
    report that read it would show it."""
    return {"kind": "unit", "id": node_id, "owner": "chechen", "turn": 2, "commitment": f"c-{node_id}",
            "sealed": "x", "value": SECRET[node_id]}


def pending(raw: bool = True) -> list[dict[str, Any]]:
    """The Chechen's sealed values not yet revealed, as pbem.reports.context lists them,
    `raw` where his key opened them."""
    return [{"kind": "unit", "id": n, "owner": "chechen", "turn": 2, "commitment": f"c-{n}",
             "revealed_at": None, **({"raw": unit} if raw else {})} for n, unit in SECRET.items()]


def state() -> State:
    s = GAME.setup(data(), {}, KeyedRng(b"\x02" * 32))
    s.update(turn=3, phase="russian-movement", morale=7, casualties=2, collateral=1, cup=9)
    s["russians"] = {"ru_131_mech_bde": {"hex": "1324", "reduced": True},
                     "ru_76_airborne": {"hex": "1324", "reduced": False},
                     "ru_mvd_regt_1": {"hex": "0731", "reduced": False}}
    s["pool"] = ["ru_naval_inf_bf", "ru_pro_avturkhanov", "ru_vityaz"]
    s["recruits"]["russian"] = ["ru_pro_gantamirov", "ru_mvd_omon"]
    s["supports"]["russian"]["artillery"] = 3  # two in the used box
    s["supports"]["chechen"]["artillery"] = 1
    s["tokens"] = {"t01": {"hex": "1523", "unit": sealed("t01")},
                   "t02": {"hex": "1321", "unit": "ch_presidential_guard", "revealed": True}}
    s["recruits"]["chechen"] = [sealed("r1")]
    s["leaders"].update(ch_basayev="1523", ch_dudayev="next_turn")
    return s


def report(who: str, secrets: list[dict[str, Any]]) -> dict[str, Any]:
    s = state()
    return dict(GAME.report(data(), GAME.view(data(), s, who), None, who, {}, secrets))


def test_the_russians_order_of_battle() -> None:
    told = report("russian", [])["own"]
    assert told["lines"] == [
        "Turn 3 of 9: Russian Movement Segment (8.0).",
        "Morale 7 (6.1: 0 to 13; at 0 without Groznyi the Chechen wins, 3.1); casualties this turn 2 "
        "(6.2); collateral damage 1 (10.13: the Chechen's reinforcement roll).",
        "Support markers available (10.9): artillery 3 of 5, airstrike 2 of 2, armor 2 of 2, gunship 2 "
        "of 2, tos1 1 of 1; 2 in the used box, back at the next turn's start.",
        "Ceasefire (15.1, once a game): none declared.",
        "End of turn (13.1): a die on your Reinforcement Table (1-: 0, 2-3: 1, 4-5: 2, 6+: 3 units; +1 "
        "Russian morale 10 or more; -1 Russian morale 3 or less; +1 random event 5 this turn); each a "
        "pool unit, or a reduced unit flipped back; they arrive at the head of your next movement "
        "file (13.2)."]
    onmap, box, pool = told["tables"]
    assert onmap == {"title": "Your units on the map",
                     "columns": ["Unit", "Name", "Hex", "CF-MF", "Steps", "Notes"],
                     "rows": [["ru_mvd_regt_1", "MVD Regiment 1", "0731 (Mozdok)", "2-5", "1", ""],
                              ["ru_131_mech_bde", "131st Mech Brigade", "1324 (Groznyi)", "3-6", "1 of 2",
                               "reduced (full 6-6; 13.1 may flip it back)"],
                              ["ru_76_airborne", "76th Airborne Regt", "1324 (Groznyi)", "3-5", "1",
                               "heliborne (8.8)"]]}
    assert box == {"title": "Recruitment box: to place in your next movement file (13.2)",
                   "columns": ["Unit", "Name", "CF-MF", "Where (13.2)"],
                   "rows": [["ru_pro_gantamirov", "Gantamirov's Militia", "2-5",
                             "Stavropol or Dagestan, or a city a Russian unit holds"],
                            ["ru_mvd_omon", "OMON/SOBR Composite Bn", "2-5", "Stavropol or Dagestan"]]}
    assert pool["title"] == "Reinforcement pool (13.1)"
    assert pool["rows"] == [["ru_naval_inf_bf", "Naval Infantry Bn (336th)", "2-5", "1", "now"],
                            ["ru_pro_avturkhanov", "Provisional Council Forces", "2-5", "1", "now"],
                            ["ru_vityaz", "Vityaz", "3-6", "1", "now"]]


def test_a_pool_unit_not_yet_allowed_says_when_and_a_declared_ceasefire_its_turn() -> None:
    s = state()
    s.update(turn=0, phase="setup-russian", ceasefire={"declared": True, "turn": 5})
    told = own(data(), GAME.view(data(), s, "russian"), "russian", [])
    assert "Ceasefire (15.1): declared, for turn 5." in told["lines"]
    pool = {row[0]: row[-1] for row in told["tables"][-1]["rows"]}
    # 13.1: the pro-Russian Chechen forces come on turn two or later: picked at the end of turn 1
    assert pool == {"ru_naval_inf_bf": "now", "ru_pro_avturkhanov": "at the end of turn 1", "ru_vityaz": "now"}


def test_the_chechens_order_of_battle_from_his_own_key() -> None:
    told = report("chechen", pending())["own"]
    assert told["lines"] == [
        "Turn 3 of 9: Russian Movement Segment (8.0).",
        "Support markers available (10.9): artillery 1 of 2 (only in Chechnya; each one used is lost "
        "for good on a 6).",
        "In the cup: 9 units (your reinforcements and infiltrators are drawn from it, 13.1, 12.0). "
        "Russian morale 7 (3.1: at 0 without Groznyi held by the Russian, you win).",
        "End of turn (13.1): a die on your Reinforcement Table (1-: 0, 2-3: 1, 4-5: 2, 6-7: 3, 8+: 4 "
        "units; +2 the ceasefire game turn; the collateral damage level of the current turn: 0- +0, "
        "1-2 +1, 3-4 +2, 5+ +3; -1 each Chechen leader eliminated in the current turn); the units "
        "drawn wait in your recruitment box and arrive face down at the head of your next movement "
        "file (13.3)."]
    onmap, box, leaders = told["tables"]
    assert onmap["columns"] == ["Token", "Hex", "Unit", "CF-MF", "Kind", "State"]
    assert onmap["rows"] == [["t01", "1523 (Shali)", "Borz Special Regiment", "3-5", "regular", "face down"],
                             ["t02", "1321 (Gudermes)", "Presidential Guard", "3-4", "regular",
                              "face up (10.6)"]]
    assert box == {"title": "Recruitment box: to place in your next movement file (13.3)",
                   "columns": ["Place", "Unit", "CF-MF", "Kind"],
                   "rows": [["recruit 1", "Militia 12", "2-4", "militia"]]}
    assert leaders["columns"] == ["Leader", "Name", "Where", "Combat shift (10.9, 11.2)", "Ambush (14.3 b)"]
    assert leaders["rows"][:2] == [["ch_basayev", "Shamil Basayev", "1523 (Shali)", "1 column", "+1"],
                                   ["ch_dudayev", "Dzhokhar Dudayev", "back next turn (11.4)", "1 column", "+1"]]
    assert [row[2] for row in leaders["rows"][2:]] == ["underground"] * 4


def test_without_his_key_his_face_down_units_stay_sealed_in_it() -> None:
    told = report("chechen", pending(raw=False))["own"]
    assert told["tables"][0]["rows"][0] == ["t01", "1523 (Shali)", "sealed: open it with your key", "", "",
                                            "face down"]
    assert told["tables"][1]["rows"] == [["recruit 1", "sealed: open it with your key", "", ""]]


def test_the_secret_identities_are_in_the_chechens_report_only() -> None:
    names = {data()["units"]["units"][u]["name"] for u in SECRET.values()}
    mine = json.dumps(report("chechen", pending()))
    assert all(u in mine for u in names)  # in his order of battle (and his hand)
    for who in ("russian", "public"):
        theirs = report(who, [])
        view = GAME.view(data(), state(), who)
        told = json.dumps([theirs.get("own"), theirs.get("hand"), theirs.get("secrets"),
                           theirs["map_svg"], view])
        for secret in (*names, *SECRET.values()):
            assert secret not in told, (who, secret)
        assert "Presidential Guard" in told  # face up (10.6): everyone's
    assert report("public", [])["own"] is None


def test_nothing_for_the_referee() -> None:
    assert report("referee", pending())["own"] is None


def test_both_orders_of_battle_render_as_the_text_report_does() -> None:
    # the report's own section (templates/report.txt.j2): its lines, then each table
    page = environment(game_folder("chechen_war"), "txt").from_string(
        "{% for line in o.lines %}{{ line }}\n{% endfor %}"
        "{% for t in o.tables %}{{ t.title }}:\n{{ t.rows | texttable(t.columns) }}\n{% endfor %}")
    mine = page.render(o=report("chechen", pending())["own"])
    theirs = page.render(o=report("russian", [])["own"])
    assert "t01" in mine and "Borz Special Regiment" in mine and "Militia 12" in mine
    assert "Borz" not in theirs and "Militia 12" not in theirs and "t01" not in theirs
    assert "131st Mech Brigade" in theirs and "1 of 2" in theirs
