"""The End of Turn Phase (12.0, 6.0, 15.0, 13.0), the reinforcements' arrival (13.2, 13.3),
the ceasefire turn (15.2) and victory (3.1, 3.2) as rule tables: each row of each table at
the dice on both sides of it, each modifier, each clause. In-process, without git."""

from __future__ import annotations

import importlib
from typing import Any

import pytest
from fixed_rng import FixedRng, OpenSecrets

from pbem.dice import KeyedRng
from pbem.game import GameData, State, get_game, load_data

GAME = get_game("chechen_war")
B = importlib.import_module("pbem_game_chechen_war.board").board(load_data("chechen_war"))
CITIES = ["1324", "1321", "1323", "1523", "1525"]


def data() -> GameData:
    return load_data("chechen_war")


def node(token: str, unit: str) -> dict[str, Any]:
    return {"kind": "unit", "id": token, "owner": "chechen", "turn": 0,
            "commitment": f"c-{token}", "sealed": "x", "value": unit}


def position(russians: dict[str, str] | None = None, tokens: dict[str, list[str]] | None = None,
             **changes: Any) -> State:
    """Turn 2's End of Turn Phase: Russian units by id, Chechen units by hex (sealed)."""
    s = GAME.setup(data(), {"end_of_turn": "asked"}, KeyedRng(b"\x06" * 32))  # asked: the End of Turn file (ahead: test_cw_ahead.py)
    placed: dict[str, dict[str, Any]] = {}
    for hex_id, units in (tokens if tokens is not None else {"1828": ["ch_militia_01"]}).items():
        for unit in units:
            token = f"t{len(placed) + 1:02d}"
            placed[token] = {"hex": hex_id, "unit": node(token, unit)}
    s.update(turn=2, phase="end-of-turn", tokens=placed, tokens_made=len(placed),
             russians={u: {"hex": h, "reduced": False} for u, h in (russians or {"ru_76_airborne": "0731"}).items()})
    s["cup"] = 32 - len(placed)
    s.update(changes)
    return s


def messages(s: State, side: str, *items: dict[str, Any]) -> list[str]:
    return [p.message for p in GAME.validate(data(), s, side, {"orders": list(items)})]


def end(s: State, dice: list[int], russian: list[dict[str, Any]] | None = None,
        chechen: list[dict[str, Any]] | None = None) -> tuple[list[dict[str, Any]], State]:
    """The phase resolved with exactly these dice."""
    body = {"russian": {"orders": russian or []}, "chechen": {"orders": chechen or []}}
    for side, orders in body.items():
        assert messages(s, side, *orders["orders"]) == []
    rng = FixedRng(*dice)
    events = GAME.resolve(data(), s, body, rng, OpenSecrets())
    assert rng.values == [], f"dice left over: {rng.values}"
    for e in events:
        s = GAME.apply(data(), s, e)
    return events, s


def of(events: list[dict[str, Any]], kind: str) -> list[dict[str, Any]]:
    return [e for e in events if e["type"] == kind]


# dice: random event, morale, Russian reinforcements, Chechen reinforcements
QUIET = [3, 4, 1, 1]  # no event; morale 4 is no change; no reinforcements


def test_a_quiet_end_of_turn_and_the_next_turn_begins() -> None:
    s = position(casualties=2, collateral=3, leaders_lost=0,
                 used_supports={"russian": {"artillery": 2}, "chechen": {"artillery": 1}},
                 leaders={**position()["leaders"], "ch_basayev": "next_turn"})
    events, after = end(s, [3, 4, 1, 1])
    assert of(events, "random_event")[0]["event"] == "none"
    assert after["morale"] == 9 and after["casualties"] == 0 and after["collateral"] == 0
    assert (after["turn"], after["phase"]) == (3, "russian-movement")
    assert after["supports"]["russian"]["artillery"] == 7 and after["used_supports"]["russian"] == {}
    assert after["supports"]["chechen"]["artillery"] == 3
    assert after["leaders"]["ch_basayev"] == "underground"


@pytest.mark.parametrize(("roll", "event"), [(1, "leader_eliminated"), (2, "press_reports"), (3, "none"),
                                             (4, "none"), (5, "moscow_sends_troops"), (6, "infiltration")])
def test_the_random_events_table_row_by_row(roll: int, event: str) -> None:
    events, _ = end(position(), [roll, 4, 1, 1])
    assert of(events, "random_event")[0]["event"] == event


def test_a_leader_struck_is_the_russians_choice_among_those_on_the_map() -> None:
    leaders = {**position()["leaders"], "ch_basayev": "1828", "ch_dudayev": "1828", "ch_gelayev": "next_turn"}
    events, after = end(position(leaders=leaders), [1, 4, 1, 1], russian=[{"strike": ["ch_gelayev", "ch_dudayev"]}])
    assert of(events, "leader_struck") == [{"type": "leader_struck", "leader": "ch_dudayev"}]
    assert after["leaders"]["ch_dudayev"] == "eliminated" and after["leaders"]["ch_basayev"] == "1828"
    _, after = end(position(leaders=leaders), [1, 4, 1, 1])  # no choice: the lowest id
    assert after["leaders"]["ch_basayev"] == "eliminated"
    events, _ = end(position(), [1, 4, 1, 1])  # none on the map: no effect
    assert of(events, "leader_struck") == []


def test_a_struck_leader_counts_in_this_turns_morale_roll() -> None:
    leaders = {**position()["leaders"], "ch_basayev": "1828"}
    events, after = end(position(leaders=leaders), [1, 5, 1, 1])  # 5 +1 = 6: +1
    assert of(events, "morale_roll")[0]["modifiers"] == [[1, "1 Chechen leader eliminated this turn (6.2)"]]
    assert after["morale"] == 10


def test_press_reports_lower_morale_and_moscow_raises_the_russian_reinforcement_roll() -> None:
    _, after = end(position(), [2, 4, 1, 1])
    assert after["morale"] == 8
    events, after = end(position(), [5, 4, 1, 1])  # 1 +1 = 2: one unit
    roll = [e for e in of(events, "reinforcement_roll") if e["side"] == "russian"][0]
    assert (roll["total"], roll["count"]) == (2, 1) and len(after["recruits"]["russian"]) == 1


def test_infiltration_draws_a_unit_from_the_cup_sealed_to_the_chechen() -> None:
    events, after = end(position(), [6, 4, 1, 1])
    drawn = of(events, "drawn")[0]["units"]
    assert len(drawn) == 1 and drawn[0]["owner"] == "chechen" and drawn[0]["kind"] == "unit"
    assert drawn[0]["value"] != "ch_militia_01"  # on the map, so not in the cup
    assert after["recruits"]["chechen"] == drawn and after["cup"] == 30


@pytest.mark.parametrize(("casualties", "amount"), [(2, 0), (3, -1), (6, -1), (7, -2)])
def test_6_2_the_casualty_modifiers_at_each_band(casualties: int, amount: int) -> None:
    events, _ = end(position(casualties=casualties), QUIET)
    mods = of(events, "morale_roll")[0]["modifiers"]
    assert [a for a, _ in mods] == ([amount] if amount else [])


@pytest.mark.parametrize(("die", "change"), [(1, -2), (2, -1), (3, -1), (4, 0), (5, 0), (6, 1)])
def test_the_morale_table_row_by_row(die: int, change: int) -> None:
    _, after = end(position(), [3, die, 1, 1])
    assert after["morale"] == 9 + change


def test_groznyi_held_adds_one_and_morale_stays_within_0_and_13() -> None:
    events, after = end(position({"ru_76_airborne": "1324"}, morale=13), [3, 6, 1, 1])
    assert of(events, "morale_roll")[0]["modifiers"] == [[1, "Groznyi occupied by Russian units (6.2)"]]
    assert after["morale"] == 13


@pytest.mark.parametrize(("hexes", "drop"), [(["0617"], 1), (["0617", "0716"], 1), (["0717"], 0)])
def test_6_3_a_raid_lowers_morale_once_a_turn(hexes: list[str], drop: int) -> None:
    assert [B.terrain[h] for h in ("0617", "0716", "0717")] == ["town", "town", "clear"]
    s = position(tokens={h: ["ch_militia_01"] for h in hexes})
    events, after = end(s, QUIET)
    assert after["morale"] == 9 - drop and len(of(events, "morale")) == drop


@pytest.mark.parametrize(("mine", "theirs", "change"), [(5, 2, 2), (2, 5, -2), (4, 4, 0), (6, 5, 1)])
def test_6_3_the_kidnapping_moves_morale_half_the_difference_rounded_up(mine: int, theirs: int, change: int) -> None:
    events, after = end(position(), [3, 4, mine, theirs, 1, 1], chechen=[{"kidnap": True}])
    assert of(events, "kidnapping")[0]["change"] == change
    assert after["morale"] == 9 + change and after["kidnapped"] is True
    after.update(phase="end-of-turn")
    assert messages(after, "chechen", {"kidnap": True}) == ["the kidnapping is once a game, and it was done (6.3)"]


def test_3_1_the_chechen_wins_at_zero_morale_unless_groznyi_is_russian() -> None:
    events, after = end(position(morale=1), [3, 3, 1, 1][:2])
    assert after["over"] and after["result"]["winners"] == ["chechen"]
    assert of(events, "reinforcement_roll") == []  # the game ended in the morale segment
    _, after = end(position({"ru_76_airborne": "1324"}, morale=1), [3, 1, 1, 1])  # 1 +1 = 2: -1
    assert not after.get("over") and after["morale"] == 0


def test_15_a_ceasefire_declared_then_its_turn() -> None:
    _, after = end(position(), QUIET, russian=[{"ceasefire": True}])
    assert after["ceasefire"] == {"declared": True, "turn": 3}
    after.update(phase="end-of-turn")
    assert messages(after, "russian", {"ceasefire": True}) == \
        ["the ceasefire is once a game, and it was declared (15.1)"]
    # the ceasefire turn: no random event, morale +3, the Chechen +2 to his reinforcements
    after.update(phase="end-of-turn")
    events, later = end(after, [1, 1])  # Russian 1: none; Chechen 1 +2 = 3: one unit
    assert of(events, "random_event") == [] and later["morale"] == 12
    chechen = [e for e in of(events, "reinforcement_roll") if e["side"] == "chechen"][0]
    assert chechen["modifiers"] == [[2, "the ceasefire game turn (15.2)"]] and chechen["count"] == 1


@pytest.mark.parametrize(("die", "count"), [(1, 0), (2, 1), (3, 1), (4, 2), (5, 2), (6, 3)])
def test_13_the_russian_table_and_his_picks(die: int, count: int) -> None:
    s = position(pool=["ru_mvd_omon", "ru_vityaz", "ru_mvd_101_bde", "ru_pro_labazanov"])
    _, after = end(s, [3, 4, die, 1], russian=[{"reinforce": ["ru_pro_labazanov", "ru_mvd_omon"]}])
    # his order first, then the strongest left (Vityaz 3, 101st 3: the lower id)
    assert after["recruits"]["russian"] == ["ru_pro_labazanov", "ru_mvd_omon", "ru_mvd_101_bde"][:count]


def test_13_1_a_pick_may_flip_a_reduced_unit_back() -> None:
    s = position({"ru_131_mech_bde": "0731"}, pool=["ru_mvd_omon"])
    s["russians"]["ru_131_mech_bde"]["reduced"] = True
    _, after = end(s, [3, 4, 2, 1], russian=[{"reinforce": [{"flip": "ru_131_mech_bde"}]}])
    assert after["russians"]["ru_131_mech_bde"]["reduced"] is False and after["recruits"]["russian"] == []
    after.update(phase="end-of-turn")
    assert messages(after, "russian", {"reinforce": [{"flip": "ru_131_mech_bde"}]}) == \
        ["'ru_131_mech_bde' is not a reduced unit of yours on the map (13.1)"]
    assert messages(after, "russian", {"reinforce": ["ru_74_mech_bde"]})[0].startswith(
        "'ru_74_mech_bde' is not in your reinforcement pool")


@pytest.mark.parametrize(("die", "collateral", "count"), [(1, 0, 0), (2, 0, 1), (3, 0, 1), (1, 1, 1),
                                                          (1, 3, 1), (1, 5, 2), (5, 0, 2), (6, 0, 3)])
def test_13_the_chechen_table_with_collateral_damage(die: int, collateral: int, count: int) -> None:
    _, after = end(position(collateral=collateral), [3, 4, 1, die])
    assert len(after["recruits"]["chechen"]) == count


@pytest.mark.parametrize(("held", "morale", "winners"), [
    (CITIES, 1, ["russian"]), (CITIES[:4], 5, []), (CITIES, 0, ["chechen"]), ([], 0, ["chechen"])])
def test_3_2_the_result_after_turn_nine(held: list[str], morale: int, winners: list[str]) -> None:
    russians = dict(zip(["ru_131_mech_bde", "ru_74_mech_bde", "ru_81_mech_regt", "ru_276_mech_regt",
                         "ru_76_airborne"], held, strict=False))
    s = position(russians or {"ru_68_recon_bn": "0731"}, turn=9, morale=morale)
    s["russians"] = {u: {"hex": h, "reduced": False} for u, h in (russians or {"ru_68_recon_bn": "0731"}).items()}
    sudden = morale == 0 and "1324" not in held  # 3.1 ends it in the morale segment
    _, after = end(s, [3, 4] if sudden else [3, 4, 1, 1])
    assert after["over"] and after["result"]["winners"] == winners and after["phase"] == "over"
    assert GAME.phase(data(), after).over


# --- arrivals (13.2, 13.3) --------------------------------------------------------------------

def movement(side: str, **changes: Any) -> State:
    s = position(phase=f"{side}-movement", turn=3, **changes)
    return s


def test_13_2_russian_reinforcements_arrive_in_stavropol_or_dagestan() -> None:
    s = movement("russian", recruits={"russian": ["ru_mvd_omon", "ru_pro_labazanov"], "chechen": []})
    stav = next(h for h, r in sorted(B.region.items()) if r == "stavropol")
    chech = "1828"
    assert messages(s, "russian", {"arrive": {"hex": stav, "units": ["ru_mvd_omon"]}}) == [
        'your recruitment box holds 1 more unit: place each with {arrive: {hex: "CCRR", units: [...]}} (13.2)']
    assert messages(s, "russian", {"arrive": {"hex": chech, "units": ["ru_mvd_omon", "ru_pro_labazanov"]}})[0] \
        .startswith(f"{chech} is not a Stavropol or Dagestan hex")
    ok = {"arrive": {"hex": stav, "units": ["ru_mvd_omon", "ru_pro_labazanov"]}}
    assert messages(s, "russian", ok) == []
    events = GAME.resolve(data(), s, {"russian": {"orders": [ok]}}, FixedRng(), OpenSecrets())
    after = s
    for e in events:
        after = GAME.apply(data(), after, e)
    assert after["russians"]["ru_mvd_omon"]["hex"] == stav and after["recruits"]["russian"] == []


def test_13_2_pro_russian_chechens_may_arrive_in_a_city_the_russians_hold() -> None:
    s = movement("russian", recruits={"russian": ["ru_pro_labazanov", "ru_mvd_omon"], "chechen": []})
    s["russians"]["ru_76_airborne"]["hex"] = "1321"
    stav = next(h for h, r in sorted(B.region.items()) if r == "stavropol")
    assert messages(s, "russian", {"arrive": {"hex": "1321", "units": ["ru_pro_labazanov"]}},
                    {"arrive": {"hex": stav, "units": ["ru_mvd_omon"]}}) == []
    assert messages(s, "russian", {"arrive": {"hex": "1321", "units": ["ru_mvd_omon", "ru_pro_labazanov"]}}) == [
        "1321 (Gudermes) is not a Stavropol or Dagestan hex free of enemy units: Russian reinforcements "
        "arrive there (13.2); or it holds enemy units (7.0)"]


def test_13_3_chechen_reinforcements_arrive_face_down_in_chechnya_as_the_next_tokens() -> None:
    drawn = [node("d1", "ch_borz_regt"), node("d2", "ch_militia_09")]
    s = movement("chechen", recruits={"russian": [], "chechen": drawn})
    assert messages(s, "chechen", {"arrive": {"hex": "0617", "recruits": [1, 2]}})[0].startswith(
        "0617 (Pervomaiskoye) is not a Chechnya hex")
    assert messages(s, "chechen", {"arrive": {"hex": "1523", "recruits": [1, 3]}}) == \
        ["3 is not a place in your recruitment box (1 to 2)"]
    order = {"arrive": {"hex": "1523", "recruits": [2, 1]}}
    move = {"move": {"units": ["t02"], "path": ["1523", "1522"]}}
    assert messages(s, "chechen", order, move) == []
    events = GAME.resolve(data(), s, {"chechen": {"orders": [order, move]}}, FixedRng(), OpenSecrets())
    after = s
    for e in events:
        after = GAME.apply(data(), after, e)
    # sealed anew under the token's id, holding the same unit
    placed = after["tokens"]["t02"]["unit"]
    assert (placed["id"], placed["value"], placed["owner"]) == ("t02", "ch_militia_09", "chechen")
    assert after["tokens"]["t02"]["hex"] == "1522"
    assert after["tokens"]["t03"]["hex"] == "1523" and after["recruits"]["chechen"] == []
    assert "ch_borz_regt" not in GAME.summary(data(), events[0])


def test_a_side_that_sends_nothing_has_its_reinforcements_placed() -> None:
    s = movement("chechen", recruits={"russian": [], "chechen": [node("d1", "ch_borz_regt")]})
    orders = GAME.default_orders(data(), s, "chechen", FixedRng())
    assert messages(s, "chechen", *orders["orders"]) == []
    assert orders["orders"][0]["arrive"]["recruits"] == [1]


def test_the_ceasefire_turn_bans_entering_an_enemy_zone_and_skips_the_fighting() -> None:
    s = movement("russian", ceasefire={"declared": True, "turn": 3})
    start = B.grid.ring("1828", 2)[0]
    s["russians"] = {"ru_76_airborne": {"hex": start, "reduced": False}}
    s["tokens"] = {"t01": {"hex": "1828", "unit": node("t01", "ch_militia_01")}}
    into = next(h for h in B.grid.neighbours(start) if B.grid.distance(h, "1828") == 1)
    assert messages(s, "russian", {"move": {"units": ["ru_76_airborne"], "path": [start, into]}}) == \
        [f"{B.label(into)} is in an enemy zone of control: no unit enters one in the ceasefire turn (15.2)"]
    assert messages(s, "russian", {"gunship": start}) == \
        ["no ambush in the ceasefire turn: no gunship threatens (15.2)"]
    after = s
    for e in GAME.resolve(data(), s, {"russian": {"orders": []}}, FixedRng(), OpenSecrets()):
        after = GAME.apply(data(), after, e)
    assert after["phase"] == "chechen-movement"
    for e in GAME.resolve(data(), after, {"chechen": {"orders": []}}, FixedRng(), OpenSecrets()):
        after = GAME.apply(data(), after, e)
    assert after["phase"] == "end-of-turn"


def test_3_1_the_russian_wins_when_the_last_chechen_unit_is_eliminated() -> None:
    s = position({"ru_131_mech_bde": "0726", "ru_74_mech_bde": "1324"}, {"0727": ["ch_argun_bn"]},
                 phase="russian-combat", turn=2, groznyi_attacked=True)
    for e in GAME.resolve(data(), s, {"russian": {"orders": [{"attack": {"target": "0727", "units": ["ru_131_mech_bde"]}}]}},
                          FixedRng(), OpenSecrets()):
        s = GAME.apply(data(), s, e)
    events = GAME.resolve(data(), s, {"chechen": {"orders": []}}, FixedRng(6), OpenSecrets())
    for e in events:
        s = GAME.apply(data(), s, e)
    assert s["over"] and s["result"]["winners"] == ["russian"]


# --- from a bounded mutation run of endturn.py (70.7% killed before) -------------------------

def test_an_end_of_turn_told_in_words_with_its_dice_labelled() -> None:
    leaders = {**position()["leaders"], "ch_basayev": "1828"}
    s = position({"ru_76_airborne": "1324"}, {"0617": ["ch_militia_01"]}, leaders=leaders,
                 casualties=3, pool=["ru_vityaz"])
    rng = FixedRng(1, 5, 6, 2, 4, 2)
    body = {"russian": {"orders": [{"ceasefire": True}]}, "chechen": {"orders": [{"kidnap": True}]}}
    events = GAME.resolve(data(), s, body, rng, OpenSecrets())
    assert rng.labels == ["t2:random-event", "t2:morale", "t2:kidnap:russian", "t2:kidnap:chechen",
                          "t2:reinforcements:russian", "t2:reinforcements:chechen"]
    told = [GAME.summary(data(), e) for e in events]
    assert told == [
        "random event, die 1: Federal strike on a field headquarters: one Chechen leader on the map (the "
        "Russian player's choice) is eliminated; with none on the map, no event. (12.0)",
        "Shamil Basayev is eliminated (12.0)",
        "the Russian morale die 5 -1 (casualties 3 (6.2)) +1 (1 Chechen leader eliminated this turn (6.2)) "
        "+1 (Groznyi occupied by Russian units (6.2)) = 6: +1, morale now 10 (6.2)",
        "Russian morale -1 for Chechen raids (6.3): now 9",
        "the Chechen kidnaps civilians: the Russian rolls 6, the Chechen 2: morale +2, now 11 (6.3)",
        "the Russian casualties are set back to 0 (6.4)",
        "the Russian declares a ceasefire: turn 3 is the ceasefire turn (15.1)",
        "the Russian reinforcement die 4 +1 (Russian morale 10 or more) = 5: 2 units (13.1)",
        "the Russian's reinforcements: Vityaz (13.1)",
        "the Chechen reinforcement die 2 -1 (1 leader eliminated this turn (13.1)) = 1: 0 units (13.1)",
        "collateral damage is set back to 0 (13.1)",
        "turn 3 begins: the used support markers return, leaders waiting a turn go underground",
        "turn 3: Russian Movement Segment (8.0)"]
    raid = next(e for e in events if e["type"] == "morale")
    assert (raid["hexes"], raid["why"], raid["level"]) == (["0617"], "Chechen raids (6.3)", 9)
    roll = next(e for e in events if e["type"] == "morale_roll")
    assert (roll["roll"], roll["total"], roll["level"]) == (5, 6, 10)
    event = next(e for e in events if e["type"] == "random_event")
    assert (event["roll"], event["event"]) == (1, "leader_eliminated")


def test_the_other_events_told_in_words() -> None:
    say = lambda e: GAME.summary(data(), e)  # noqa: E731
    assert say({"type": "drawn", "units": [{}, {}], "why": "reinforcements (13.1)"}) == \
        "the Chechen draws 2 units from the cup for reinforcements (13.1), face down"
    assert say({"type": "recruited", "units": [], "flipped": ["ru_131_mech_bde"]}) == \
        "the Russian's reinforcements: 131st Mech Brigade back to full strength (13.1)"
    assert say({"type": "over", "result": {"winners": [], "reason": "a draw (3.2)"}}) == \
        "game over: nobody won (a draw (3.2))"
    assert say({"type": "morale", "change": 3, "why": "the ceasefire turn (15.2)", "level": 12}) == \
        "Russian morale +3 for the ceasefire turn (15.2): now 12"
