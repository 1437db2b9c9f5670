"""Axis & Allies 1914's turn as rule tables: the set-up, the order of the powers' turns, the
purchase (at and one over the treasury; tanks at and one before round 4), mobilization
(where each power's factories and ports put land units, fighters and ships), income
(contested territories pay nothing), the USA entering the war, and the victory pairs at the
end of a round. In-process, without git: the rules' own functions on positions built here.

The rules are those of ../shared/research/aa1914.md and the TripleA game file's facts
(games/aa1914/rules/economy.py says which).
"""

from __future__ import annotations

import importlib
from collections.abc import Sequence
from typing import Any, TypeVar

import pytest

from pbem.dice import KeyedRng
from pbem.game import GameData, Problem, State, clone, get_game, load_data

T = TypeVar("T")
GAME = get_game("aa1914")
economy = importlib.import_module("pbem_game_aa1914.economy")
turns = importlib.import_module("pbem_game_aa1914.turns")

ORDER = ["austria_hungary", "russia", "germany", "france", "britain", "ottomans", "italy", "usa"]
START_IPC = {"austria_hungary": 26, "russia": 25, "germany": 35, "france": 24, "britain": 30,
             "ottomans": 16, "italy": 14, "usa": 20}


def data() -> GameData:
    return load_data("aa1914")


def position(power: str = "austria_hungary", turn: int = 2, **changes: Any) -> State:
    state = GAME.setup(data(), {}, KeyedRng(b"\x02" * 32))
    state.update(power=power, turn=turn, **changes)
    return state


def orders(*items: dict[str, Any]) -> dict[str, Any]:
    return {"orders": list(items)}


def problems(state: State, *items: dict[str, Any], faction: str | None = None) -> list[Problem]:
    return GAME.validate(data(), state, faction or state["power"], orders(*items))


def messages(state: State, *items: dict[str, Any]) -> list[str]:
    return [p.message for p in problems(state, *items)]


def resolve(state: State, *items: dict[str, Any]) -> list[dict[str, Any]]:
    return GAME.resolve(data(), state, {state["power"]: orders(*items)}, KeyedRng(b"\x03" * 32))


def after(state: State, events: list[dict[str, Any]]) -> State:
    for event in events:
        state = GAME.apply(data(), state, event)
    return state


class Dice:
    """A bot's choices: always the first item offered (for the bot's tests only)."""

    def roll(self, label: str, sides: int = 6) -> int:
        return 1

    def shuffle(self, label: str, items: Sequence[T]) -> list[T]:
        return list(items)

    def choice(self, label: str, items: Sequence[T]) -> T:
        return items[-1]


# ---------------------------------------------------------------------------------------
# set-up and description


def test_sources_9_4_setup_starts_round_1_with_austria_hungary_and_every_treasury_full() -> None:
    s = position(turn=1)
    assert (s["turn"], s["phase"], s["power"]) == (1, "turn", "austria_hungary")
    assert s["order"] == ORDER
    assert s["treasury"] == START_IPC
    assert s["at_war"] == ORDER[:-1]  # the USA is not at war before round 4
    assert s["contested"] == [] and s["over"] is False
    assert s["control"]["moscow"] == "russia" and s["control"]["switzerland"] == "neutral"
    assert "himalayas" not in s["control"]  # impassable: nobody's
    assert s["units"]["moscow"] == {"russia": {"infantry": 6, "artillery": 2}}
    phase = GAME.phase(data(), s)
    assert phase.awaiting == ("austria_hungary",) and phase.title == "Austria-Hungary's turn"
    assert "26 IPC" in phase.prompt


def test_civil_war_step_3_the_soviet_power_is_described_dormant_and_every_other_power_seated() -> None:
    factions = GAME.describe(data())["factions"]
    assert [f["id"] for f in factions] == [*ORDER, "soviets"]
    assert [f["id"] for f in factions if f.get("dormant")] == ["soviets"]
    assert {f["side"] for f in factions if f["id"] in ("germany", "soviets")} == {"central"}


def test_check_data_names_a_dormant_power_with_unknown_ids() -> None:
    d = data()
    broken = GameData(d.game_id, d.folder, {**d.files, "game": {
        **d["game"], "dormant_powers": [{"id": "soviets", "name": "S", "side": "central",
                                         "capital": "atlantis", "after": "usa"},
                                        {"id": "greeks", "name": "G", "side": "allies",
                                         "capital": "moscow", "after": "sparta"}]}})
    found = GAME.check_data(broken)
    assert any("capital 'atlantis' is not a territory" in p for p in found)
    assert any("after 'sparta' is not a power" in p for p in found)
    assert GAME.check_data(d) == []


# ---------------------------------------------------------------------------------------
# purchase


def test_sources_0_purchase_costing_the_whole_treasury_is_legal_and_one_ipc_more_is_not() -> None:
    s = position()  # Austria-Hungary: 26 IPC
    assert messages(s, {"buy": {"infantry": 6, "artillery": 2}}) == []  # 18 + 8 = 26
    assert messages(s, {"buy": {"infantry": 5, "artillery": 3}}) == [  # 15 + 12 = 27
        "the purchase costs 27 IPC and Austria-Hungary has 26"]


def test_sources_0_two_buy_items_count_together_against_the_treasury() -> None:
    s = position()
    assert messages(s, {"buy": {"infantry": 4}}, {"buy": {"infantry": 4}}) == []  # 24
    assert messages(s, {"buy": {"infantry": 5}}, {"buy": {"infantry": 4}}) == [
        "the purchase costs 27 IPC and Austria-Hungary has 26"]


@pytest.mark.parametrize(("turn", "legal"), [(3, False), (4, True)])
def test_sources_10_2_tanks_are_bought_from_round_4(turn: int, legal: bool) -> None:
    s = position(turn=turn)
    found = problems(s, {"buy": {"tank": 1, "infantry": 1}})
    if legal:
        assert found == []
    else:
        assert found == [Problem(("orders", 0, "buy", "tank"),
                                 "tanks may be bought from round 4 on; this is round 3")]
    assert ("tank" in economy.buyable(data(), s)) is legal


@pytest.mark.parametrize(("count", "wrong"), [(0, True), (-1, True), (True, True), ("2", True),
                                              (1.5, True), (1, False)])
def test_a_count_is_a_whole_number_of_at_least_one(count: Any, wrong: bool) -> None:
    found = messages(position(), {"buy": {"infantry": count}})
    assert (found == [f"expected a whole number of at least 1, not {count!r}"]) is wrong
    assert (found == []) is not wrong


def test_an_unknown_unit_is_named_with_a_near_miss() -> None:
    found = problems(position(), {"buy": {"infantri": 1}})
    assert found[0].path == ("orders", 0, "buy", "infantri")
    assert "'infantri' is not a unit type you may buy now; did you mean 'infantry'?" in found[0].message


def test_an_empty_or_malformed_buy_is_refused() -> None:
    assert messages(position(), {"buy": {}}) == [
        "expected buy as {TYPE: COUNT}, e.g. {infantry: 2}"]
    assert messages(position(), {"buy": ["infantry"]}) == [
        "expected buy as {TYPE: COUNT}, e.g. {infantry: 2}"]


def test_orders_not_refereed_yet_and_unknown_orders_are_refused_by_name() -> None:
    s = position()
    assert messages(s, {"retreat": {"where": "serbia"}}) == [
        "'retreat' is not refereed yet in Axis & Allies 1914 (games/aa1914/README.md lists what is)"]
    assert messages(s, {"buyy": {"infantry": 1}}) == [
        "unknown order 'buyy'; did you mean 'buy'?; an order is one of {buy: ...}, {move: ...}, "
        "{attack: ...}, {mobilize: ...}"]
    assert messages(s, {"buy": {"infantry": 1}, "mobilize": {}}) == [
        "an order is one of {buy: ...}, {move: ...}, {attack: ...}, {mobilize: ...}: a mapping "
        "with one key"]


def test_only_the_power_whose_turn_it_is_sends_orders() -> None:
    assert [p.message for p in problems(position(), {"buy": {"infantry": 1}}, faction="russia")] \
        == ["it is austria_hungary's turn, not russia's"]


# ---------------------------------------------------------------------------------------
# mobilization


def test_sources_4_8_where_each_power_mobilizes_land_units_and_ships() -> None:
    s = position()
    places = {p: (economy.mobilize_places(data(), s, p, "infantry"),
                  economy.mobilize_places(data(), s, p, "cruiser")) for p in ORDER}
    assert places == {
        "austria_hungary": (["vienna"], ["sz18"]),
        "russia": (["moscow"], ["sz06", "sz12", "sz21", "sz30"]),
        "germany": (["berlin"], ["sz11", "sz10"]),
        "france": (["paris"], ["sz08", "sz15", "sz16"]),
        "britain": (["london", "india"], ["sz08", "sz09"]),
        "ottomans": (["constantinople"], ["sz20"]),
        "italy": (["rome"], ["sz17"]),
        "usa": (["united_states_of_america"], ["sz01"]),
    }
    assert economy.mobilize_places(data(), s, "britain", "fighter") == ["london", "india"]


def test_sources_4_8_a_lost_or_contested_factory_mobilizes_nothing() -> None:
    s = position(power="britain")
    s["contested"] = ["india"]
    assert economy.mobilize_places(data(), s, "britain", "infantry") == ["london"]
    s["control"]["london"] = "germany"
    assert economy.mobilize_places(data(), s, "britain", "infantry") == []
    assert economy.mobilize_places(data(), s, "britain", "cruiser") == ["sz08"]  # Wales's port
    assert messages(s, {"buy": {"infantry": 1}}) == [
        "britain has no place to mobilize an infantry now (its factory territories are lost "
        "or contested)"]
    # a captured factory is not the captor's: Germany holding London mobilizes in Berlin only
    assert economy.mobilize_places(data(), s, "germany", "infantry") == ["berlin"]


def test_sources_4_8_mobilize_names_a_place_that_takes_the_type_and_no_more_than_was_bought() -> None:
    s = position(power="britain")
    assert messages(s, {"buy": {"infantry": 2, "cruiser": 1}},
                    {"mobilize": {"where": "india", "units": {"infantry": 2}}},
                    {"mobilize": {"where": "sz09", "units": {"cruiser": 1}}}) == []
    assert messages(s, {"buy": {"infantry": 2}},
                    {"mobilize": {"where": "sz09", "units": {"infantry": 1}}}) == [
        "britain mobilizes land units and fighters in london, india, not 'sz09'"]
    assert messages(s, {"buy": {"cruiser": 1}},
                    {"mobilize": {"where": "india", "units": {"cruiser": 1}}}) == [
        "britain mobilizes ships in sz08, sz09, not 'india'"]
    assert messages(s, {"buy": {"infantry": 2}},
                    {"mobilize": {"where": "india", "units": {"infantry": 2}}},
                    {"mobilize": {"where": "london", "units": {"infantry": 1}}}) == [
        "mobilizes 1 infantry but this turn's purchase leaves 0 to mobilize"]
    assert messages(s, {"mobilize": {"where": "india"}}) == [
        "expected {where: PLACE, units: {TYPE: COUNT}}"]


# ---------------------------------------------------------------------------------------
# a turn resolved


def test_a_turn_buys_mobilizes_the_named_and_the_rest_and_collects_income() -> None:
    s = position(power="britain")
    events = resolve(s, {"buy": {"infantry": 3, "cruiser": 1}},
                     {"mobilize": {"where": "india", "units": {"infantry": 1}}})
    assert events == [
        {"type": "bought", "power": "britain", "units": {"cruiser": 1, "infantry": 3}, "cost": 18},
        {"type": "mobilized", "power": "britain", "where": "india", "units": {"infantry": 1}},
        {"type": "mobilized", "power": "britain", "where": "london", "units": {"infantry": 2}},
        {"type": "mobilized", "power": "britain", "where": "sz08", "units": {"cruiser": 1}},
        {"type": "income", "power": "britain", "ipc": 30, "contested": []},
        {"type": "next", "power": "ottomans", "turn": 2},
    ]
    t = after(s, events)
    assert t["treasury"]["britain"] == 30 - 18 + 30
    assert t["units"]["india"]["britain"]["infantry"] == s["units"]["india"]["britain"]["infantry"] + 1
    assert "sz08" not in s["units"] and t["units"]["sz08"] == {"britain": {"cruiser": 1}}
    assert (t["power"], t["turn"]) == ("ottomans", 2)
    assert s["treasury"]["britain"] == 30  # apply leaves the old state as it was


def test_sources_4_2_contested_territories_produce_no_income() -> None:
    s = position(power="russia", contested=["poland", "ukraine"])
    events = resolve(s)
    assert events[0] == {"type": "income", "power": "russia", "ipc": 25 - 3 - 3,
                         "contested": ["poland", "ukraine"]}
    assert GAME.summary(data(), events[0]) == (
        "Russia collects 19 IPC (nothing from contested Poland, Ukraine)")


def test_sources_4_1_income_counts_what_the_power_controls_now() -> None:
    s = position(power="germany")
    s["control"]["poland"] = "germany"
    assert economy.income(data(), s, "germany") == (35 + 3, [])
    assert economy.income(data(), s, "russia") == (25 - 3, [])


def test_sources_9_4_after_the_usa_a_new_round_begins() -> None:
    events = resolve(position(power="usa", turn=3))
    assert [e["type"] for e in events] == ["income", "next"]
    assert events[-1] == {"type": "next", "power": "austria_hungary", "turn": 4}


@pytest.mark.parametrize(("turn", "joins"), [(3, False), (4, True), (5, True)])
def test_sources_8_1_the_usa_joins_the_war_as_its_turn_of_round_4_begins(
        turn: int, joins: bool) -> None:
    s = position(power="italy", turn=turn)
    events = resolve(s)
    assert events[-1] == {"type": "next", "power": "usa", "turn": turn}
    assert ({"type": "at_war", "power": "usa"} in events) is joins
    if joins:
        assert events[-2] == {"type": "at_war", "power": "usa"}
        assert after(s, events)["at_war"] == ORDER
        assert GAME.summary(data(), events[-2]) == "USA enters the war"
    s["at_war"] = ORDER
    assert "at_war" not in [e["type"] for e in resolve(s)]  # once


def test_sources_9_4_a_round_of_no_purchases_doubles_every_treasury() -> None:
    s = position()
    for power in ORDER:
        assert s["power"] == power
        s = after(s, resolve(s))
    assert (s["power"], s["turn"]) == ("austria_hungary", 3)
    assert s["treasury"] == {p: 2 * n for p, n in START_IPC.items()}


# ---------------------------------------------------------------------------------------
# the war begins with Austria-Hungary's attack on Serbia


SERBIA = "Austria-Hungary attacks Serbia in round 1: the war begins there; move land units into Serbia"


@pytest.mark.parametrize(("turn", "power", "owed"), [
    (1, "austria_hungary", True), (2, "austria_hungary", False), (1, "russia", False)])
def test_sources_9_5_austria_hungary_attacks_serbia_in_round_1(
        turn: int, power: str, owed: bool) -> None:
    s = position(power=power, turn=turn)
    assert (SERBIA in messages(s)) is owed


def test_sources_9_5_an_attack_on_serbia_by_land_pays_the_debt_a_fighter_alone_does_not() -> None:
    s = position(turn=1)
    assert messages(s, {"move": {"from": "budapest", "to": "serbia", "units": {"infantry": 1}}}) == []
    s["units"]["budapest"]["austria_hungary"]["fighter"] = 1
    assert SERBIA in messages(s, {"move": {"from": "budapest", "to": "serbia", "units": {"fighter": 1}}})


def test_sources_9_5_the_bot_and_an_absent_austria_hungary_attack_serbia_from_budapest() -> None:
    s = position(turn=1)
    for sent in (GAME.bot(data(), s, "austria_hungary", Dice()),
                 GAME.default_orders(data(), s, "austria_hungary", Dice())):
        assert {"move": {"from": "budapest", "to": "serbia",
                         "units": {"infantry": 12, "artillery": 2}}} in sent["orders"]
        assert problems(s, *sent["orders"]) == []
    events = resolve(s, *GAME.default_orders(data(), s, "austria_hungary", Dice())["orders"])
    assert [e["type"] for e in events][:3] == ["moved", "neutral_joins", "battle"]
    assert events[1] == {"type": "neutral_joins", "where": "serbia", "power": "russia"}


def test_sources_9_5_a_campaign_may_play_without_the_opening_attack() -> None:
    d = data()
    game = {k: v for k, v in d["game"].items() if k != "first_attack"}
    plain = GameData(d.game_id, d.folder, {**d.files, "game": game})
    assert GAME.validate(plain, position(turn=1), "austria_hungary", {"orders": []}) == []


def test_sources_9_3_the_allies_win_holding_a_pair_when_the_ottoman_turn_ends() -> None:
    s = position(power="britain")
    s["control"].update(berlin="france", vienna="russia")  # an Allied pair: Berlin and Vienna
    assert resolve(s)[-1] == {"type": "next", "power": "ottomans", "turn": 2}  # not yet
    s["power"] = "ottomans"
    end = resolve(s)[-1]
    assert end == {"type": "over", "result": {
        "winners": ["russia", "france", "britain", "italy", "usa"], "side": "allies",
        "reason": "allies hold Berlin and Vienna"}}
    over = after(s, [end])
    assert over["over"] is True and GAME.phase(data(), over).over
    s["power"] = "usa"  # the Central Powers' check comes after the USA: not the Allies'
    assert resolve(s)[-1]["type"] == "next"


def test_sources_9_3_the_central_powers_win_holding_a_pair_when_the_usas_turn_ends() -> None:
    s = position(power="ottomans")
    s["control"].update(paris="germany", london="ottomans")
    assert resolve(s)[-1]["type"] == "next"
    s["power"] = "usa"
    assert resolve(s)[-1]["result"]["side"] == "central"


def test_sources_4_2_a_contested_capital_is_held_by_nobody() -> None:
    s = position(power="ottomans", contested=["vienna"])
    s["control"].update(berlin="france", vienna="russia")
    assert resolve(s)[-1]["type"] == "next"


@pytest.mark.parametrize(("held", "won"), [
    ({"paris": "germany", "london": "ottomans"}, "central"),
    ({"paris": "germany"}, None),  # one of a pair is not enough
    ({"berlin": "france", "constantinople": "britain"}, "allies"),
    ({"berlin": "france", "constantinople": "neutral"}, None),
])
def test_sources_9_1_9_2_each_side_wins_with_a_whole_pair(
        held: dict[str, str], won: str | None) -> None:
    s = position(power="usa")
    s["control"].update(held)
    found = [side for side in ("central", "allies") if turns.victory(data(), s, side)]
    assert found == ([won] if won else [])


def test_apply_refuses_an_event_it_does_not_know() -> None:
    with pytest.raises(ValueError, match="no event 'teleport'"):
        GAME.apply(data(), position(), {"type": "teleport"})


# ---------------------------------------------------------------------------------------
# the bot and the absent power


def test_the_bot_buys_what_the_treasury_pays_for_and_its_orders_are_legal() -> None:
    s = position()
    for power in ORDER:
        sent = GAME.bot(data(), s, power, Dice())  # spends all it may: the last choice
        assert problems(s, *sent["orders"]) == []
        assert economy.cost(data(), sent["orders"][0]["buy"]) > START_IPC[power] - 3
        s = after(s, resolve(s, *sent["orders"]))


def test_a_power_that_sent_nothing_buys_nothing() -> None:
    s = position()
    assert GAME.default_orders(data(), s, "austria_hungary", Dice()) == {"orders": []}
    assert GAME.template(data(), s, "austria_hungary", Dice()) == {"orders": []}


def test_the_view_lists_each_power_in_turn_order() -> None:
    s = clone(position())
    s["contested"] = ["poland"]
    v = GAME.view(data(), s, "public")
    assert v["turn of"] == "Austria-Hungary" and v["contested"] == ["Poland"]
    assert [p["power"] for p in v["powers"]][:2] == ["Austria-Hungary", "Russia"]
    russia = v["powers"][1]
    assert (russia["IPC"], russia["income"], russia["territories"]) == (25, 22, 10)
