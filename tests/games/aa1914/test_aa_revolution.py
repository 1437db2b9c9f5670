"""The Russian revolution and the ARMISTICE house rule as rule tables
(games/aa1914/rules/revolution.py, ../shared/rules/aa1914-revolution-armistice.txt): the
trigger on both sides of each clause, its check logged when not met, the offer accepted and
rejected, every step of the armistice in one position (the exact position after), each ban
afterwards refused with its message beside the legal move, and the revolution only once.
In-process, without git: Russia's turns played with the rules' own functions.
"""

from __future__ import annotations

import importlib
from typing import Any

import pytest
from aa_play import of, refused
from fixed_rng import FixedRng

from pbem.dice import KeyedRng
from pbem.game import GameData, State, get_game, load_data

GAME = get_game("aa1914")
revolution = importlib.import_module("pbem_game_aa1914.revolution")
board = importlib.import_module("pbem_game_aa1914.board")
combat = importlib.import_module("pbem_game_aa1914.combat")
turns = importlib.import_module("pbem_game_aa1914.turns")

Units = dict[str, dict[str, dict[str, int]]]


def data(**trigger: Any) -> GameData:
    """The game's data, the trigger changed as a campaign's overrides would change it."""
    if not trigger:
        return load_data("aa1914")
    return load_data("aa1914", {"game": {"revolution": {"trigger": trigger}}})


def position(units: Units, control: dict[str, str] | None = None, contested: tuple[str, ...] = (),
             turn: int = 4, power: str = "russia", option: str = "armistice") -> State:
    """Round `turn`, `power`'s turn, the campaign playing `option`; only `units` on the map."""
    state = GAME.setup(data(), {"revolution": option}, KeyedRng(b"\x02" * 32))
    state.update(power=power, turn=turn, units=units, at_war=list(state["order"]))
    state["control"].update(control or {})
    state["contested"] = sorted(contested)
    return state


def play(state: State, *items: dict[str, Any], standing: dict[str, Any] | None = None,
         dice: tuple[int, ...] = (), d: GameData | None = None) -> tuple[list[dict[str, Any]], State]:
    """The turn of the power whose turn it is, checked and resolved, its events folded."""
    d = d or data()
    orders: dict[str, Any] = {"orders": list(items)}
    if standing is not None:
        orders["standing"] = standing
    assert GAME.validate(d, state, state["power"], orders) == []
    rng = FixedRng(*dice)
    events = GAME.resolve(d, state, {state["power"]: orders}, rng)
    assert rng.values == [], "every die fed was rolled"
    after = state
    for e in events:
        after = GAME.apply(d, after, e)
    return events, after


def move(frm: str, to: str, units: dict[str, int]) -> dict[str, Any]:
    return {"move": {"from": frm, "to": to, "units": units}}


def here(state: State, place: str) -> dict[str, dict[str, int]]:
    """The units in a place by owner, owners with none left out."""
    return {o: u for o, u in state["units"].get(place, {}).items() if any(u.values())}


def told(events: list[dict[str, Any]], kind: str) -> list[str]:
    return [GAME.summary(data(), e) for e in of(events, kind)]


# The trigger met: Germany holds Belarus, Karelia and Tatarstan (three next to Moscow) and
# Poland (another original Russian territory); Moscow is Russia's.
MET_CONTROL = {"belarus": "germany", "karelia": "germany", "tatarstan": "germany", "poland": "germany"}
MET_UNITS: Units = {"moscow": {"russia": {"infantry": 2}}, "belarus": {"germany": {"infantry": 1}}}


# ---------------------------------------------------------------------------------------
# the option


def test_the_option_is_described_with_its_choices_and_carried_by_the_state() -> None:
    options = GAME.describe(data())["options"]
    assert options == [
        {"id": "revolution", "default": "none", "choices": ["none", "armistice", "civil_war"],
         "help": "the Russian revolution house rule: none, armistice or civil_war "
                 "(games/aa1914/README.md)"},
        {"id": "soviets_player", "default": "germany",
         "choices": ["germany", "austria_hungary", "ottomans"],
         "help": "with revolution=civil_war: the Central power whose player plays Soviet Russia "
                 "when it enters"},
        {"id": "capital_income", "default": "collect", "choices": ["collect", "none"],
         "help": "a power whose capital another power holds: collect (its income as usual, "
                 "pbem's ruling) or none (nothing until it is back, the rule of the other A&A "
                 "editions; games/aa1914/README.md)"}]
    assert GAME.setup(data(), {}, KeyedRng(b"\x02" * 32))["options"] == {
        "revolution": "none", "soviets_player": "germany", "capital_income": "collect"}
    s = GAME.setup(data(), {"revolution": "armistice"}, KeyedRng(b"\x02" * 32))
    assert s["options"] == {"revolution": "armistice", "soviets_player": "germany",
                            "capital_income": "collect"}
    assert s["revolution"] == {"status": "waiting", "power": "russia", "round": None,
                               "garrisons": [], "closed": [], "must_leave": []}
    assert GAME.check_data(data()) == []


def test_check_data_names_an_unknown_power_and_a_decider_not_of_the_central_powers() -> None:
    d = data()
    broken = GameData(d.game_id, d.folder, {**d.files, "game": {**d["game"], "revolution": {
        **d["game"]["revolution"], "power": "tsardom", "armistice": {"decided_by": "france",
                                                                     "default": "accept"}}}})
    assert GAME.check_data(broken) == [
        "game.yaml: revolution: power 'tsardom' is not a power of map.yaml (austria_hungary, "
        "russia, germany, france, britain, ottomans, italy, usa)",
        "game.yaml: revolution: armistice: decided_by 'france' is not a Central Powers power of "
        "map.yaml"]


# ---------------------------------------------------------------------------------------
# the trigger, both sides of each clause


@pytest.mark.parametrize(("control", "contested", "met"), [
    (MET_CONTROL, (), True),
    # two next to Moscow, not three (Tatarstan Russian again), and two others: not met
    ({**MET_CONTROL, "tatarstan": "russia", "finland": "germany"}, (), False),
    # three next to Moscow but no other: not met
    ({k: v for k, v in MET_CONTROL.items() if k != "poland"}, (), False),
    # a fourth next to Moscow is "another original Russian territory" (a ruling)
    ({"belarus": "germany", "karelia": "germany", "tatarstan": "austria_hungary",
      "livonia": "ottomans"}, (), True),
    # a contested territory is held by nobody: Karelia contested does not count
    (MET_CONTROL, ("karelia",), False),
    # Moscow held by the Central Powers: not met; contested (whoever holds it): met
    ({**MET_CONTROL, "moscow": "germany"}, (), False),
    ({**MET_CONTROL, "moscow": "germany"}, ("moscow",), True),
    (MET_CONTROL, ("moscow",), True),
    # Moscow held by another Ally: neither Russian-held nor contested
    ({**MET_CONTROL, "moscow": "britain"}, (), False),
])
def test_sources_10_4_the_trigger(
        control: dict[str, str], contested: tuple[str, ...], met: bool) -> None:
    s = position(MET_UNITS, control, contested)
    assert revolution.trigger(data(), s)["met"] is met


def test_sources_10_4_a_campaign_overrides_the_trigger() -> None:
    two = {k: v for k, v in MET_CONTROL.items() if k != "tatarstan"}  # two next to Moscow
    s = position(MET_UNITS, two)
    assert revolution.trigger(data(), s)["met"] is False
    assert revolution.trigger(data(adjacent=2), s)["met"] is True
    contested = position(MET_UNITS, MET_CONTROL, ("karelia",))
    assert revolution.trigger(data(contested_counts=True), contested)["met"] is True


def test_sources_10_4_a_check_not_met_is_logged_with_the_territories_that_count() -> None:
    s = position(MET_UNITS, {**MET_CONTROL, "tatarstan": "russia", "finland": "germany"})
    events, after = play(s)
    assert of(events, "revolution_check") == [{
        "type": "revolution_check", "power": "russia", "round": 4, "met": False,
        "capital": {"where": "moscow", "holder": "russia", "contested": False, "ok": True,
                    "needed": ["held", "contested"]},
        "adjacent": ["belarus", "karelia"], "others": ["finland", "poland"],
        "needed": {"adjacent": 3, "others": 1}}]
    assert told(events, "revolution_check") == [
        "the revolution in Russia, checked at the end of its round-4 turn: not met. Moscow is "
        "held by Russia (held by Russia or contested needed: yes); the Central Powers hold 2 "
        "territories next to Moscow (Belarus, Karelia; 3 needed) and 2 other original "
        "territories of Russia (Finland, Poland; 1 more needed)"]
    assert after["revolution"]["status"] == "waiting" and not of(events, "armistice_offer")
    assert events[-1] == {"type": "next", "power": "germany", "turn": 4}


@pytest.mark.parametrize(("turn", "power", "option", "checked"), [
    (3, "russia", "armistice", False),  # before round 4
    (4, "russia", "armistice", True),
    (4, "russia", "none", False),  # the option off
    (4, "austria_hungary", "armistice", False),  # only at the end of Russia's turn
])
def test_armistice_procedure_the_check_comes_at_the_end_of_russian_turns_from_round_4_with_the_option(
        turn: int, power: str, option: str, checked: bool) -> None:
    s = position(MET_UNITS, MET_CONTROL, turn=turn, power=power, option=option)
    events, after = play(s)
    assert len(of(events, "revolution_check")) == int(checked)
    assert (after["revolution"]["status"] == "armistice") is checked


# ---------------------------------------------------------------------------------------
# the offer


def test_ruling_the_offer_is_accepted_by_default() -> None:
    events, after = play(position(MET_UNITS, MET_CONTROL))
    offer = of(events, "armistice_offer")
    assert offer == [{"type": "armistice_offer", "power": "russia", "round": 4, "by": "germany",
                      "answer": "accept", "standing": False}]
    assert told(events, "armistice_offer") == [
        "Soviet Russia offers the Central Powers an armistice; Germany accepts (no standing "
        "instruction: the default): Russia is out of the war"]
    assert after["revolution"]["status"] == "armistice" and after["revolution"]["round"] == 4
    assert told(events, "revolution_check")[0].startswith(
        "the revolution in Russia, checked at the end of its round-4 turn: met: an armistice is offered.")
    assert GAME.view(data(), after, "public")["revolution"] == \
        "armistice accepted in round 4: Russia is out of the war"


def test_armistice_procedure_germany_rejects_by_its_standing_instruction_and_no_revolution_ever_comes() -> None:
    s = position(MET_UNITS, MET_CONTROL, power="germany", turn=3)
    events, s = play(s, standing={"armistice": "reject"})
    assert GAME.summary(data(), of(events, "standing")[0]) == (
        "Germany loses units in this order: infantry, artillery, tank, fighter; at sea: "
        "battleship, submarine, cruiser, damaged_battleship, transport; it will reject an "
        "armistice offered")
    s.update(power="russia", turn=4)
    events, after = play(s)
    assert of(events, "armistice_offer")[0]["answer"] == "reject"
    assert told(events, "armistice_offer") == [
        "Soviet Russia offers the Central Powers an armistice; Germany rejects it by its "
        "standing instruction: there will be no revolution"]
    assert not of(events, "armistice_step")
    assert after["units"] == s["units"] and after["revolution"]["status"] == "rejected"
    after.update(power="russia", turn=5)  # the offer is one-time: no check again
    events, _ = play(after)
    assert not of(events, "revolution_check")


@pytest.mark.parametrize(("power", "option", "answer", "message"), [
    ("germany", "armistice", "reject", None),
    ("germany", "armistice", "accept", None),
    ("austria_hungary", "armistice", "reject",
     "Germany answers the armistice offer for the Central Powers (game.yaml revolution: "
     "armistice: decided_by), not Austria-Hungary"),
    ("germany", "none", "reject",
     "the armistice is answered only in a campaign with the option revolution: armistice; "
     "this one plays with revolution: none"),
    ("germany", "armistice", "maybe", "expected armistice: accept or reject, not 'maybe'"),
])
def test_ruling_only_germany_answers_and_only_accept_or_reject(
        power: str, option: str, answer: str, message: str | None) -> None:
    s = position(MET_UNITS, MET_CONTROL, power=power, option=option, turn=3)
    assert refused(s, standing={"armistice": answer}) == ([message] if message else [])


# ---------------------------------------------------------------------------------------
# every step of the armistice in one position

ALL_UNITS: Units = {
    # original Russian territories
    "moscow": {"russia": {"infantry": 6, "artillery": 2}},              # 1, 2f
    "belarus": {"germany": {"infantry": 2}},                             # 2a
    "karelia": {},                                                       # 2a, no units
    "tatarstan": {"austria_hungary": {"infantry": 1}},                   # 2a
    "poland": {"germany": {"infantry": 3}},                              # 2a
    "livonia": {"germany": {"infantry": 1}, "britain": {"infantry": 1}},  # 2b, 2c, 2e
    "ukraine": {"russia": {"infantry": 3, "artillery": 1},
                "austria_hungary": {"infantry": 2}},                     # 1, 2c
    "finland": {"russia": {"artillery": 1}, "france": {"infantry": 1}},  # 1, 2e
    "sevastopol": {"britain": {"infantry": 1}},                          # 2d, 2e
    "kazakhstan": {"russia": {"fighter": 1}},                            # 1, 2f
    # sea zones: non-original 2
    "sz12": {"russia": {"battleship": 1}},
    "sz21": {"russia": {"cruiser": 2}},
    # non-original territories
    "prussia": {"germany": {"infantry": 2}, "russia": {"infantry": 1}},  # 1 (not Russian-held)
    "galicia": {"russia": {"infantry": 2}, "britain": {"infantry": 1},
                "austria_hungary": {"infantry": 1}},                     # 1, 3a
    "serbia": {"russia": {"infantry": 1}, "austria_hungary": {"infantry": 1}},  # 1, 3b captured
    "romania": {"russia": {"infantry": 1}, "britain": {"infantry": 2},
                "france": {"infantry": 1}},                              # 1, 3b their choice
    "burgundy": {"russia": {"infantry": 1}, "britain": {"infantry": 1},
                 "france": {"infantry": 1}},                             # 1, 3b original power
    "bohemia": {},                                                       # 3c original
    "persia": {},                                                        # 3c neutral
    "berlin": {"germany": {"infantry": 1}},
}
ALL_CONTROL = {
    "belarus": "germany", "karelia": "germany", "tatarstan": "austria_hungary", "poland": "germany",
    "livonia": "germany",
    "galicia": "russia", "serbia": "russia", "romania": "russia", "burgundy": "russia",
    "bohemia": "russia", "persia": "russia",
}
ALL_CONTESTED = ("livonia", "ukraine", "prussia", "galicia", "serbia")


def armistice() -> tuple[list[dict[str, Any]], State]:
    s = position(ALL_UNITS, ALL_CONTROL, ALL_CONTESTED)
    s["damaged"] = {"sz12": {"russia": 1}}
    return play(s)


def test_armistice_if_accepted_every_step_and_the_position_after() -> None:
    events, after = armistice()
    steps = {e["where"]: e["steps"] for e in of(events, "armistice_step")}
    assert steps == {
        "sz12": ["2"], "sz21": ["2"],
        "bohemia": ["3c"], "burgundy": ["1", "3b"], "galicia": ["1", "3a"], "persia": ["3c"],
        "prussia": ["1"], "romania": ["1", "3b"], "serbia": ["1", "3b"],
        "belarus": ["2a"], "finland": ["1", "2e"], "karelia": ["2a"], "kazakhstan": ["1", "2f"],
        "livonia": ["2b", "2c", "2e"], "moscow": ["1", "2f"], "poland": ["2a"],
        "sevastopol": ["2d", "2e"], "tatarstan": ["2a"], "ukraine": ["1", "2c"],
    }
    units = {place: here(after, place) for place in after["units"] if here(after, place)}
    assert units == {
        "moscow": {"russia": {"infantry": 1}},
        "belarus": {"germany": {"infantry": 2}},
        "tatarstan": {"austria_hungary": {"infantry": 1}},
        "poland": {"germany": {"infantry": 3}},
        "livonia": {"germany": {"infantry": 1}, "britain": {"infantry": 1}, "russia": {"infantry": 1}},
        "ukraine": {"russia": {"infantry": 1}, "austria_hungary": {"infantry": 2}},
        "finland": {"russia": {"infantry": 1}, "france": {"infantry": 1}},
        "sevastopol": {"britain": {"infantry": 1}, "russia": {"infantry": 1}},
        "kazakhstan": {"russia": {"infantry": 1}},
        "prussia": {"germany": {"infantry": 2}},
        "galicia": {"britain": {"infantry": 1}, "austria_hungary": {"infantry": 1}},
        "serbia": {"austria_hungary": {"infantry": 1}},
        "romania": {"britain": {"infantry": 2}, "france": {"infantry": 1}},
        "burgundy": {"britain": {"infantry": 1}, "france": {"infantry": 1}},
        "berlin": {"germany": {"infantry": 1}},
    }
    control = {t: after["control"][t] for t in [*ALL_CONTROL, "moscow", "ukraine", "finland",
                                                "sevastopol", "kazakhstan", "prussia"]}
    assert control == {
        "belarus": "germany", "karelia": "germany", "tatarstan": "austria_hungary",  # 2a
        "poland": "germany", "livonia": "germany",  # 2a; 2c keeps its holder
        "galicia": "austria_hungary",  # 3a: contested, its original owner's (a ruling)
        "serbia": "austria_hungary",  # 3b: a captured territory to the remaining power
        "romania": "britain",  # 3b: their choice, ruled as the most units there
        "burgundy": "france",  # 3b: an original territory to its original power
        "bohemia": "austria_hungary",  # 3c: an original territory to its original power
        "persia": "neutral",  # 3c: uncontrolled
        "moscow": "russia", "ukraine": "russia", "finland": "russia", "sevastopol": "russia",
        "kazakhstan": "russia", "prussia": "germany",
    }
    assert after["contested"] == ["galicia", "livonia", "ukraine"]  # Prussia and Serbia no more
    assert after["damaged"] == {}
    assert after["revolution"] == {"status": "armistice", "power": "russia", "round": 4,
                                   "garrisons": ["livonia", "ukraine"], "closed": [],
                                   "must_leave": ["france", "britain"]}
    assert board.minefield(data(), after, "sz12") is None  # Russia's minefields go with its ships
    assert board.minefield(data(), after, "sz11") == "germany"
    assert events[-1] == {"type": "next", "power": "germany", "turn": 4}


def test_the_steps_are_told_in_plain_english() -> None:
    events, _ = armistice()
    said = {e["where"]: GAME.summary(data(), e) for e in of(events, "armistice_step")}
    assert said["sz12"] == ("the armistice in SZ 12 (sea zone, step 2): Russia's 1 battleship "
                            "are removed")
    assert said["livonia"] == (
        "the armistice in Livonia (original Russian territory, steps 2b, 2c, 2e): 1 Russian "
        "infantry is added; held by Germany; contested for the rest of the game; the Central "
        "Powers may move through while they keep a garrison; the Allies may not enter; Britain "
        "must leave by the end of the next move")
    assert said["moscow"] == ("the armistice in Moscow (original Russian territory, steps 1, "
                              "2f): Russia's 6 infantry, 2 artillery leave 1 infantry; held by Russia")
    assert said["persia"] == ("the armistice in Persia (non-original territory, step 3c): "
                              "uncontrolled (neutral)")
    assert said["galicia"] == ("the armistice in Galicia (non-original territory, steps 1, 3a): "
                               "Russia's 2 infantry are removed; held by Austria-Hungary; still contested")


def place(d: GameData, units: Units, control: dict[str, str], contested: tuple[str, ...] = ()
          ) -> dict[str, Any]:
    """The one armistice step of the single territory in `units`."""
    s = position(units, control, contested)
    where = next(iter(units))
    return next(e for e in revolution.steps(d, s) if e["where"] == where)


@pytest.mark.parametrize(("units", "control", "steps", "holder"), [
    # 3b: an Allied original whose power's capital is captured goes to the other Ally there
    ({"burgundy": {"russia": {"infantry": 1}, "britain": {"infantry": 1}, "france": {"infantry": 3}}},
     {"burgundy": "russia", "paris": "germany"}, ["1", "3b"], "britain"),
    # ... and to its own power if no other Ally stands there
    ({"burgundy": {"france": {"infantry": 1}}}, {"burgundy": "russia", "paris": "germany"},
     ["3b"], "france"),
    # 3b their choice between as many units each: the first in turn order (France, then Britain)
    ({"romania": {"britain": {"infantry": 1}, "france": {"infantry": 1}}}, {"romania": "russia"},
     ["3b"], "france"),
    # 3b a Central Powers original held by Russia with another CP power's units: its own power
    ({"budapest": {"germany": {"infantry": 1}, "russia": {"infantry": 1}}}, {"budapest": "russia"},
     ["1", "3b"], "austria_hungary"),
    # 3c an empty Russian-held Galicia returns to Austria-Hungary
    ({"galicia": {}}, {"galicia": "russia"}, ["3c"], "austria_hungary"),
    # original 2f: Russian-held and empty, 1 infantry added
    ({"tatarstan": {}}, {}, ["2f"], "russia"),
    # original: held by another Ally with no units there, back to Russia (a ruling)
    ({"tatarstan": {}}, {"tatarstan": "britain"}, ["2f"], "russia"),
    # original 2a: held by a CP power, never Russian again
    ({"tatarstan": {}}, {"tatarstan": "ottomans"}, ["2a"], "ottomans"),
])
def test_armistice_if_accepted_one_step(
        units: Units, control: dict[str, str], steps: list[str], holder: str) -> None:
    step = place(data(), units, control)
    assert (step["steps"], step["control"]) == (steps, holder)


def test_armistice_2c_with_the_russians_gone_and_a_cp_holder_becomes_2b() -> None:
    step = place(data(), {"ukraine": {"germany": {"infantry": 1}, "britain": {"infantry": 1}}},
                 {"ukraine": "germany"}, ("ukraine",))
    assert (step["steps"], step["left"], step["must_leave"], step["contested"]) == (
        ["2b", "2c", "2e"], {"infantry": 1}, ["britain"], True)


# ---------------------------------------------------------------------------------------
# afterwards: the bans, each refused with its message, and the legal move beside it


def after_armistice(power: str) -> State:
    _, s = armistice()
    s["power"] = power
    return s


def test_armistice_if_accepted_no_travel_into_a_territory_with_only_russian_units() -> None:
    s = after_armistice("germany")
    assert refused(s, move("belarus", "moscow", {"infantry": 1})) == [
        "the armistice: no travel into Moscow, where only Russian units stand"]
    events, _ = play(s, move("belarus", "livonia", {"infantry": 1}))  # into its garrison
    assert not of(events, "battle")  # no battle, though British units stand there (2c, 2e)


def test_armistice_2c_the_central_powers_enter_original_russian_territories_only_where_they_keep_a_garrison() -> None:
    s = after_armistice("germany")
    s["units"]["karelia"] = {"germany": {"infantry": 1}}
    assert refused(s, move("karelia", "finland", {"infantry": 1})) == [
        "the armistice (original step 2c): the Central Powers enter an original Russian "
        "territory where Russian units stand only where they have kept a garrison since the "
        "armistice; Finland is not one"]
    assert refused(s, move("karelia", "livonia", {"infantry": 1})) == []


def test_armistice_if_accepted_no_battle_against_russian_units() -> None:
    s = after_armistice("germany")
    assert refused(s, {"attack": {"where": "livonia"}}) == [
        "the armistice: no battle against Russian units, nor where they stand (Livonia)"]
    s["power"] = "austria_hungary"
    assert refused(s, {"attack": {"where": "galicia"}}) == []  # Galicia: no Russians left


def test_armistice_2c_a_garrison_that_leaves_closes_the_territory_to_the_central_powers() -> None:
    s = after_armistice("germany")
    events, s = play(s, move("livonia", "poland", {"infantry": 1}))
    assert of(events, "armistice_closed") == [{"type": "armistice_closed", "where": "livonia",
                                               "power": "germany"}]
    assert told(events, "armistice_closed") == [
        "the armistice (original step 2c): the Central Powers have left Livonia and may not re-enter it"]
    assert (s["revolution"]["garrisons"], s["revolution"]["closed"]) == (["ukraine"], ["livonia"])
    assert "livonia" in s["contested"]  # "contested for remainder of game"
    s["power"] = "germany"
    assert refused(s, move("poland", "livonia", {"infantry": 1})) == [
        "the armistice (original step 2c): the Central Powers left Livonia and may not re-enter it"]
    assert refused(s, move("poland", "belarus", {"infantry": 1})) == []


def test_armistice_2c_2e_the_allies_may_not_enter_russia() -> None:
    s = after_armistice("britain")
    assert refused(s, move("sevastopol", "ukraine", {"infantry": 1})) == [
        "the armistice (original steps 2c, 2e): the Allies may not enter Ukraine, an original "
        "Russian territory where Russian units stand"]


def test_armistice_2e_allied_units_left_in_russia_after_their_next_move_are_removed() -> None:
    s = after_armistice("britain")
    # Livonia is contested: pg 15 would keep Britain's infantry to its own territories; 2e
    # lifts it, and Germany's empty Karelia (2a) is taken by Britain, not handed to Russia
    events, after = play(s, move("livonia", "karelia", {"infantry": 1}))  # empty: no battle
    assert of(events, "armistice_deadline") == [{
        "type": "armistice_deadline", "power": "britain",
        "removed": {"sevastopol": {"infantry": 1}}}]
    assert told(events, "armistice_deadline") == [
        "the armistice (original step 2e): Britain's units still in Russia are removed: "
        "1 infantry in Sevastopol"]
    assert here(after, "sevastopol") == {"russia": {"infantry": 1}}
    assert after["control"]["karelia"] == "britain"
    assert after["revolution"]["must_leave"] == ["france"]  # its turn comes before Britain's next


def test_armistice_2e_the_contested_restriction_still_holds_for_a_power_not_leaving_russia() -> None:
    s = after_armistice("britain")
    s["units"]["prussia"]["britain"] = {"infantry": 1}
    s["contested"] = sorted([*s["contested"], "prussia"])
    assert refused(s, move("prussia", "silesia", {"infantry": 1})) == [
        "out of contested Prussia an infantry moves only into a territory britain holds or "
        "where its own units stand"]


def test_armistice_2e_a_power_that_left_in_time_loses_nothing() -> None:
    s = after_armistice("france")
    events, after = play(s, move("finland", "karelia", {"infantry": 1}))
    assert told(events, "armistice_deadline") == [
        "the armistice (original step 2e): France's units have left Russia in time"]
    assert here(after, "finland") == {"russia": {"infantry": 1}}


def test_armistice_3c_an_aligned_neutral_of_russia_joins_nobody_after_the_armistice() -> None:
    s = after_armistice("austria_hungary")
    s["control"]["romania"] = "neutral"
    s["units"]["romania"] = {"neutral": {"infantry": 2}}
    assert combat.neutral_entry(data(), s, "austria_hungary", "romania") == []
    s["revolution"]["status"] = "waiting"
    assert combat.neutral_entry(data(), s, "austria_hungary", "romania") == [
        {"type": "neutral_joins", "where": "romania", "power": "russia"}]


# ---------------------------------------------------------------------------------------
# Russia out of the war, and the revolution only once


def test_sources_10_4_russia_takes_no_more_turns_and_the_revolution_comes_once() -> None:
    s = after_armistice("austria_hungary")
    s["turn"] = 5
    events, s = play(s)
    assert events[-1] == {"type": "next", "power": "germany", "turn": 5}  # Russia skipped
    s.update(power="russia", turn=5)
    assert revolution.end_of_turn(data(), s, "russia") == []
    assert turns.victory(data(), {**s, "control": {**s["control"], "berlin": "france",
                                                   "vienna": "britain"}}, "allies")["winners"] \
        == ["france", "britain", "italy", "usa"]
