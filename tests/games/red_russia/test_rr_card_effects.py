"""Every event card checked by its effect's amounts and targets (14.6): a rule table with
one case (or more) per card of the RECONSTRUCTED deck (cards.yaml), each played from a
position built for it, asserting the exact events: money, manpower, ORI levels, rail
points, markers; which faction, zone, unit or leader; the flags set; a minor's new status.
Where an effect rolls, the dice fall on both sides of each threshold; where an effect
cannot apply, a case asserts the "no effect" note and that nothing but the card moved.

Expected values come from the card's structured effect (`effects(card)`), the rulebook
and the data files the rules name (game.yaml, politics.yaml, map.yaml), never from a run
of the engine."""

from __future__ import annotations

import copy
import importlib
from collections.abc import Callable, Iterable
from typing import Any

import pytest
from position import GAME, FixedRng, OpenSecrets, data, position
from position import standing as standing_

from pbem.dice import KeyedRng

play = importlib.import_module("pbem_game_red_russia.play")
board = importlib.import_module("pbem_game_red_russia.board")

Event = dict[str, Any]
State = dict[str, Any]

DECK = {c["id"]: c for c in data()["cards"]["cards"]}
B = board.board(data())
YEAR_TURN = {1918: 3, 1919: 4, 1920: 8, 1921: 12}  # 1918: Winter, once minors may enter (12.1)
WHITES = ("siberian", "south", "north")
COUNTERS = {c["id"]: {**c, "faction": f} for f, cs in data()["units"]["counters"].items() for c in cs}


# ---------------------------------------------------------------------------------------
# the table: each case a function of the card id, registered with the arguments it is run with

Check = Callable[..., None]
CASES: list[Any] = []


def case(card_id: str, label: str, **kwargs: Any) -> Callable[[Check], Check]:
    """Register `fn(card_id, **kwargs)` as the case `label` of the card."""

    def register(fn: Check) -> Check:
        assert card_id in DECK, card_id
        CASES.append(pytest.param(card_id, fn, kwargs, id=f"{card_id}:{label}"))
        return fn
    return register


# ---------------------------------------------------------------------------------------
# helpers


def effects(card_id: str) -> list[dict[str, Any]]:
    return list(DECK[card_id]["effect"])


def why(card_id: str) -> str:
    return f"{card_id} (14.6)"


def note(card_id: str, text: str, zone: str = "") -> Event:
    return {"type": "note", "zone": zone, "text": f"{why(card_id)}: {text}"}


def hold(card_id: str, pieces: dict[str, str] | None = None, *, faction: str | None = None,
         turn: int | None = None, control: dict[str, str | None] | None = None,
         options: dict[str, Any] | None = None) -> tuple[State, str]:
    """A position in the first year the card is playable, `faction` (else its first
    possible player) holding it, only `pieces` on the map."""
    card = DECK[card_id]
    faction = faction or (card.get("playable_by") or ["red"])[0]
    years = card.get("years") or [1919]
    state = position(pieces or {}, turn=turn or YEAR_TURN[years[0]], control=control, options=options)
    state["standing"] = standing_()
    state["cards"]["hands"][faction] = [OpenSecrets().seal("card", "c1", faction, 1, card_id)]
    assert play.playable(data(), state, faction, card_id) is None
    return state, faction


def fold(state: State, events: Iterable[Event]) -> State:
    for e in events:
        state = GAME.apply(data(), state, e)
    return state


def play_card(state: State, faction: str, card_id: str, dice: Iterable[int] = (), *,
              target: str | None = None, zone: str | None = None) -> tuple[list[Event], State]:
    """The card played at the start of its phase (a card to play at once, 14.71, by pbem),
    with exactly these dice; the events and the state after them."""
    card = DECK[card_id]
    segment = card["phase"] if card["phase"] != "any" else "purchase"
    plays = [] if card["immediate"] else [
        {"holder": faction, "faction": faction, "card": card_id, "target": target, "zone": zone}]
    rng = FixedRng(*dice)
    before = copy.deepcopy(state)
    events = play.play_segment(data(), state, plays, segment, OpenSecrets(), rng)
    assert rng.values == [], f"dice left over: {rng.values}"
    assert state == before  # the position itself is never changed, only folded
    after = fold(state, events)
    assert after["cards"]["hands"][faction] == []
    assert card_id in after["cards"]["removed" if card["remove"] else "discard"]  # 14.72
    return events, after


def opened(card_id: str, faction: str, *, target: str | None = None, zone: str | None = None) -> Event:
    card = DECK[card_id]
    event: Event = {"type": "card_played", "holder": faction, "faction": faction, "card": card_id,
                    "slot": "c1", "removed": card["remove"], "immediate": card["immediate"]}
    if target is not None:
        event["target"] = target
    if zone is not None:
        event["zone"] = zone
    return event


def only_the_card_left(before: State, after: State, faction: str, card_id: str,
                       **changed: Any) -> None:
    """Nothing changed but the card leaving the hand (and the keys of `changed`)."""
    want = copy.deepcopy(before)
    want["cards"]["hands"][faction] = []
    key = "removed" if DECK[card_id]["remove"] else "discard"
    want["cards"][key] = [*want["cards"][key], card_id]
    for path, value in changed.items():
        where = want
        *head, last = path.split("__")
        for k in head:
            where = where[k]
        where[last] = value
    assert after == want


def counters(faction: str, spec: dict[str, Any]) -> list[str]:
    """The counters of units.yaml a card's `units` names."""
    return sorted(uid for uid, c in COUNTERS.items() if c["faction"] == faction
                  and c["type"] == spec["type"] and ("full" not in spec or c["full"] == spec["full"]))


def all_control(**owners: str) -> dict[str, str | None]:
    """Every zone uncontrolled but those named (a position with few candidates)."""
    control: dict[str, str | None] = {z: None for z in B.zones}
    control.update({z.replace("_", " "): f for z, f in owners.items()})
    return control


def distances(sources: Iterable[str]) -> dict[str, int]:
    """Zones counted along the map's routes (15.3 "at most two zones")."""
    out = {z: 0 for z in sources}
    frontier = list(out)
    while frontier:
        nxt = []
        for z in frontier:
            for n in B.routes.get(z, {}):
                if n in B.zones and n not in out:
                    out[n] = out[z] + 1
                    nxt.append(n)
        frontier = nxt
    return out


def test_every_card_has_its_case() -> None:
    assert {p.values[0] for p in CASES} == set(DECK)
    assert len(DECK) == 54


@pytest.mark.parametrize(("card_id", "check", "kwargs"), CASES)
def test_14_6_the_card_does_what_its_effect_says(card_id: str, check: Check, kwargs: dict[str, Any]) -> None:
    check(card_id, **kwargs)


# ---------------------------------------------------------------------------------------
# money and manpower: amounts, dice and 6.4's floor at zero


@case("new-economic-policy", "amount")
@case("malleson-mission", "amount")
def fixed_money(card_id: str) -> None:
    (eff,) = effects(card_id)
    state, faction = hold(card_id)
    events, after = play_card(state, faction, card_id)
    owner = eff["faction"]
    assert events == [opened(card_id, faction), {"type": "card_resources", "faction": owner,
                                                  "money": eff["amount"], "dice": [], "why": why(card_id)}]
    only_the_card_left(state, after, faction, card_id,
                       **{f"money__{owner}": state["money"][owner] + eff["amount"]})


# (card, dice, the faction's money or manpower before, the change, what is left): written
# from the card's text and 6.4 (never below zero); the test checks the data says the same
DICE_CASES = [
    ("british-supplies", (1, 1), 15, +2, 17),
    ("british-supplies", (6, 6), 15, +12, 27),
    ("cheka-terror", (1,), 40, +1, 41),
    ("cheka-terror", (6,), 40, +6, 46),
    ("entente-blockade", (3,), 4, -3, 1),  # one short of the threshold of 6.4
    ("entente-blockade", (4,), 4, -4, 0),  # exactly all
    ("entente-blockade", (6,), 4, -6, 0),  # more than all: zero, not -2
    ("typhus", (2,), 3, -2, 1),
    ("typhus", (3,), 3, -3, 0),
    ("typhus", (6,), 3, -6, 0),
    ("siberian-winter", (3, 3), 7, -6, 1),
    ("siberian-winter", (3, 4), 7, -7, 0),
    ("siberian-winter", (6, 6), 7, -12, 0),
    ("semenov-corruption", (3, 4), 23, -3, 20),  # 7 halved, rounded down
    ("semenov-corruption", (4, 4), 23, -4, 19),  # 8 halved
    ("semenov-corruption", (6, 6), 5, -6, 0),
]


def _dice_case(card_id: str, dice: tuple[int, ...], have: int, change: int, left: int) -> None:
    eff = next(e for e in effects(card_id) if e["do"] in ("money", "manpower"))
    # the card's data says the same as the case (cards.yaml header: dice, lose, halve)
    assert eff["dice"] == len(dice)
    total = sum(dice) // 2 if eff.get("halve") else sum(dice)
    assert change == (-total if eff.get("lose") else total)
    key = eff["do"]
    target = "south" if eff["faction"] == "target" else None
    state, faction = hold(card_id)
    owner = target or (faction if eff["faction"] == "self" else eff["faction"])
    state[key][owner] = have
    events, after = play_card(state, faction, card_id, dice, target=target)
    assert events == [opened(card_id, faction, target=target),
                      {"type": "card_resources", "faction": owner, key: change, "dice": list(dice),
                       "why": why(card_id)}]
    only_the_card_left(state, after, faction, card_id, **{f"{key}__{owner}": left})


for _card, _dice, _have, _change, _left in DICE_CASES:
    case(_card, f"dice-{'-'.join(map(str, _dice))}-from-{_have}", dice=_dice, have=_have,
         change=_change, left=_left)(_dice_case)


@case("semenov-corruption", "kolchak-supreme-ruler-not-halved")  # 10.93
def semenov_under_kolchak(card_id: str) -> None:
    (eff,) = effects(card_id)
    state, faction = hold(card_id, {"kolchak": "Omsk"})
    state["flags"] = {eff["unless"]: "siberian"}
    events, after = play_card(state, faction, card_id, (3, 4))
    assert events[1:] == [{"type": "card_resources", "faction": "siberian", "money": -7, "dice": [3, 4],
                           "why": why(card_id)}]
    assert after["money"]["siberian"] == state["money"]["siberian"] - 7


@case("war-communism", "dice-and-ori", dice=(2, 5), ori=1)
@case("war-communism", "ori-stays-at-its-floor", dice=(6, 6), ori=0)
def war_communism(card_id: str, dice: tuple[int, int], ori: int) -> None:
    money, level = effects(card_id)
    assert (money["do"], money["dice"], level["do"]) == ("money", 2, "ori")
    state, faction = hold(card_id)
    state["ori"]["red"] = ori
    events, after = play_card(state, faction, card_id, dice)
    assert events == [opened(card_id, faction),
                      {"type": "card_resources", "faction": "red", "money": sum(dice), "dice": list(dice),
                       "why": why(card_id)},
                      {"type": "ori_change", "faction": "red", "change": level["change"], "why": why(card_id)}]
    only_the_card_left(state, after, faction, card_id, money__red=state["money"]["red"] + sum(dice),
                       ori__red=max(0, ori + level["change"]))  # 17.1: 0 to 3


# ---------------------------------------------------------------------------------------
# ORI (17.1: levels 0 to 3)


@case("land-decree", "plus-one", ori=1, level=2)
@case("land-decree", "at-the-ceiling", ori=3, level=3)
def land_decree(card_id: str, ori: int, level: int) -> None:
    (eff,) = effects(card_id)
    state, faction = hold(card_id)
    state["ori"]["red"] = ori
    events, after = play_card(state, faction, card_id)
    assert events == [opened(card_id, faction),
                      {"type": "ori_change", "faction": eff["faction"], "change": eff["change"], "why": why(card_id)}]
    only_the_card_left(state, after, faction, card_id, ori__red=level)


# ---------------------------------------------------------------------------------------
# the Infighting roll (10.8.1; politics.yaml's RECONSTRUCTED table): every row's edges


INFIGHTING = data()["politics"]["infighting"]["table"]


def infighting_result(total: int) -> str:
    row = next(r for r in INFIGHTING if r.get("min", total) <= total <= r.get("max", total))
    return str(row["result"])


def _infighting(card_id: str, roll: int, lenin: str | None, faction: str | None = None) -> None:
    (eff,) = effects(card_id)
    pieces = {"lenin": lenin} if lenin else {}
    state, holder = hold(card_id, pieces)
    victim = "red" if eff["faction"] == "red" else str(faction)
    state["ori"][victim] = 1  # a level to lose (17.1: never below 0)
    modifier = 1 if victim == "red" and lenin != "Moscow" else 0  # 10.8.1
    result = infighting_result(roll + modifier)
    money_die = 4
    dice = [roll] + ([money_die] if result in ("money", "both") else [])
    events, after = play_card(state, holder, card_id, dice,
                              target=victim if eff["faction"] == "target" else None)
    expected: list[Event] = [{"type": "infighting", "faction": victim, "roll": roll, "modifier": modifier,
                              "result": result}]
    changed: dict[str, Any] = {}
    if result in ("money", "both"):
        expected.append({"type": "card_resources", "faction": victim, "money": -money_die, "dice": [money_die],
                         "why": why(card_id)})
        changed[f"money__{victim}"] = state["money"][victim] - money_die
    if result in ("ori", "both"):
        expected.append({"type": "ori_change", "faction": victim, "change": -1, "why": why(card_id)})
        changed[f"ori__{victim}"] = state["ori"][victim] - 1
    assert events[1:] == expected
    assert events[0]["card"] == card_id and events[0].get("target") == (
        victim if eff["faction"] == "target" else None)
    only_the_card_left(state, after, holder, card_id, **changed)


def test_the_infighting_cases_cross_every_edge_of_the_table() -> None:
    """The rolls below (1-6, and 1-6 plus Lenin's 1) reach each row's first and last total."""
    edges = {r[k] for r in INFIGHTING for k in ("min", "max") if k in r}
    assert edges <= set(range(1, 8)) and len({infighting_result(t) for t in range(1, 8)}) == len(INFIGHTING)


for _roll in range(1, 7):  # the edges 2|3, 4|5 and 5|6 and each row, for a White faction
    case("infighting", f"south-rolls-{_roll}", roll=_roll, lenin="Moscow", faction="south")(_infighting)
    case("left-sr-uprising", f"lenin-in-moscow-rolls-{_roll}", roll=_roll, lenin="Moscow")(_infighting)
for _roll in (1, 2, 4, 5):  # 10.8.1: +1 with Lenin away, or wounded off the map
    case("infighting", f"red-lenin-away-rolls-{_roll}", roll=_roll, lenin="Tver", faction="red")(_infighting)
    case("left-sr-uprising", f"lenin-away-rolls-{_roll}", roll=_roll, lenin=None)(_infighting)


# ---------------------------------------------------------------------------------------
# flags


@case("kolchak-coup", "flag")
@case("on-to-berlin", "flag")
@case("greater-poland", "flag")
def flag_card(card_id: str) -> None:
    (eff,) = effects(card_id)
    state, faction = hold(card_id)
    events, after = play_card(state, faction, card_id)
    assert events == [opened(card_id, faction),
                      {"type": "flag_set", "flag": eff["name"], "faction": faction, "why": why(card_id)}]
    only_the_card_left(state, after, faction, card_id, flags={eff["name"]: faction})  # 13.52 who played it


# ---------------------------------------------------------------------------------------
# units into a pool (20.4, 19.3, README ruling 62) and out of the game (14.6, ruling 38)


ADD_CARDS = [c for c, card in DECK.items() if any(e["do"] == "add_units" for e in card["effect"])]


def test_20_4_every_unit_a_card_brings_waits_for_it_from_the_set_up() -> None:
    """Each add_units counter is set aside at set-up and never drawn; the Whites' two
    (ruling 62) are not the Czech Legion's 4-2 (19.3), which wait for their own card."""
    for options in ({}, {"czech_legion": True}):
        state = GAME.setup(data(), options, KeyedRng(b"\x03" * 32))
        claimed: set[str] = set()
        for card_id in ADD_CARDS:
            if card_id == "czech-legion-formed" and not options:
                continue  # 3.0: out of the deck without the rule
            for eff in effects(card_id):
                waiting = [u for u in counters(eff["faction"], eff["units"])
                           if u not in claimed and state["units"][u]["status"] in ("removed", "card")]
                assert len(waiting) >= eff["units"]["count"], (card_id, options)
                claimed.update(waiting[: eff["units"]["count"]])
        assert {u for u, p in state["units"].items() if p["status"] in ("removed", "card")
                and p["type"] != "tank"} == claimed


@case("universal-conscription", "set-aside-counters")
@case("latvian-riflemen", "set-aside-counters")
@case("first-cavalry-army", "set-aside-counters")
@case("don-cossacks-rise", "set-aside-counter")
@case("izhevsk-rising", "set-aside-counter")
@case("izhevsk-rising", "with-the-czech-legion", options={"czech_legion": True})
@case("czech-legion-formed", "the-czech-legion", options={"czech_legion": True})
def add_units(card_id: str, options: dict[str, Any] | None = None) -> None:
    state, faction = hold(card_id, options=options)
    expected: list[Event] = []
    changed: dict[str, Any] = {}
    units = copy.deepcopy(state["units"])
    for eff in effects(card_id):
        spec = eff["units"]
        waiting = [u for u in counters(eff["faction"], spec) if state["units"][u]["status"] in ("removed", "card")]
        assert len(waiting) == spec["count"], waiting  # exactly the counters set aside for it
        expected.append({"type": "units_in", "faction": eff["faction"], "units": waiting, "why": why(card_id)})
        for u in waiting:
            units[u].update(status="pool", zone=None)
        if eff.get("money"):
            expected.append({"type": "card_resources", "faction": eff["faction"], "money": eff["money"],
                             "dice": [], "why": why(card_id)})
            changed[f"money__{eff['faction']}"] = state["money"][eff["faction"]] + eff["money"]
    events, after = play_card(state, faction, card_id)
    assert events == [opened(card_id, faction), *expected]
    only_the_card_left(state, after, faction, card_id, units=units, **changed)
    if options:  # the Czech Legion's two 4-2 still wait for their card (19.3)
        czech = counters("siberian", {"type": "inf", "full": [4, 2]})
        assert sum(after["units"][u]["status"] == "removed" for u in czech) == (
            0 if card_id == "czech-legion-formed" else 2)


@case("universal-conscription", "counters-gone")
@case("latvian-riflemen", "counters-gone")
@case("first-cavalry-army", "counters-gone")
@case("don-cossacks-rise", "counter-gone")
@case("izhevsk-rising", "counter-gone")
@case("czech-legion-formed", "counters-gone-the-money-alone", options={"czech_legion": True})
def add_units_gone(card_id: str, options: dict[str, Any] | None = None) -> None:
    """The counters a card waits for are gone (Baku commissars, Czech Legion quits): the
    card brings none; only Czech Legion formed's money is left of it."""
    state, faction = hold(card_id, options=options)
    for eff in effects(card_id):
        for u in counters(eff["faction"], eff["units"]):
            if state["units"][u]["status"] in ("removed", "card"):
                state["units"][u].update(status="gone", zone=None)
    expected: list[Event] = []
    changed: dict[str, Any] = {}
    for eff in effects(card_id):
        expected.append(note(card_id, f"only 0 of {eff['units']['count']} counters of {eff['faction']} "
                                      "were set aside for a card"))
        if eff.get("money"):
            expected.append({"type": "card_resources", "faction": eff["faction"], "money": eff["money"],
                             "dice": [], "why": why(card_id)})
            changed[f"money__{eff['faction']}"] = state["money"][eff["faction"]] + eff["money"]
    events, after = play_card(state, faction, card_id)
    assert events == [opened(card_id, faction), *expected]
    only_the_card_left(state, after, faction, card_id, **changed)


def _gone(state: State, units: list[str]) -> dict[str, Any]:
    out = copy.deepcopy(state["units"])
    for u in units:
        out[u].update(status="gone", zone=None)
    return out


@case("czech-legion-quits", "the-set-aside-legion-first", options={"czech_legion": True})
def czech_quits_set_aside(card_id: str, options: dict[str, Any]) -> None:
    legion, reds = effects(card_id)
    state, faction = hold(card_id, {"siberian-inf-01": "Omsk"}, options=options)
    waiting = [u for u in counters("siberian", legion["units"]) if state["units"][u]["status"] == "removed"]
    assert len(waiting) == legion["units"]["count"] == 2
    events, after = play_card(state, faction, card_id)
    assert events == [opened(card_id, faction),
                      {"type": "units_out", "faction": "siberian", "units": waiting, "why": why(card_id)},
                      {"type": "card_resources", "faction": "siberian", "money": -legion["money"], "dice": [],
                       "why": why(card_id)},
                      {"type": "card_resources", "faction": reds["faction"], "money": reds["amount"], "dice": [],
                       "why": why(card_id)}]
    only_the_card_left(state, after, faction, card_id, units=_gone(state, waiting),
                       money__siberian=state["money"]["siberian"] - legion["money"],
                       money__red=state["money"]["red"] + reds["amount"])


@case("czech-legion-quits", "out-of-play-then-reduced-on-the-map", options={"czech_legion": True})
def czech_quits_on_the_map(card_id: str, options: dict[str, Any]) -> None:
    """Ruling 38: a 4-2 out of play first, then the weakest on the map, reduced first."""
    state, faction = hold(card_id, {"siberian-inf-02": "Omsk", "siberian-inf-03": "Omsk",
                                    "siberian-inf-05": "Omsk"}, options=options)
    state["units"]["siberian-inf-03"]["reduced"] = True
    state["units"]["siberian-inf-04"].update(status="eliminated", zone=None)
    events, after = play_card(state, faction, card_id)
    assert events[1] == {"type": "units_out", "faction": "siberian",
                         "units": ["siberian-inf-04", "siberian-inf-03"], "why": why(card_id)}
    assert after["units"]["siberian-inf-02"]["status"] == "map"


@case("czech-legion-quits", "without-the-rule-any-two-infantry")
def czech_quits_any(card_id: str) -> None:
    """19.3: without the rule, any two Siberian infantry, not only 4-2 (the effect's
    note): the weakest on the map (3-2) before the 5-2 and the 4-2 (ruling 38)."""
    legion, _reds = effects(card_id)
    infantry = counters("siberian", {"type": "inf"})
    state, faction = hold(card_id, {u: "Omsk" for u in infantry})
    weakest = sorted(u for u in infantry if COUNTERS[u]["full"] == [3, 2])[:2]
    assert legion["units"]["full"] == [4, 2] and all(COUNTERS[u]["full"] != [4, 2] for u in weakest)
    events, after = play_card(state, faction, card_id)
    assert events[1] == {"type": "units_out", "faction": "siberian", "units": weakest, "why": why(card_id)}
    assert [after["units"][u]["status"] for u in weakest] == ["gone", "gone"]


@case("baku-commissars", "weakest-on-the-map")
@case("baku-commissars", "out-of-play-first", eliminated="red-inf-02")
@case("baku-commissars", "reduced-first", reduced="red-inf-03")
def baku(card_id: str, eliminated: str | None = None, reduced: str | None = None) -> None:
    """Ruling 38: a counter out of play first, then reduced, then the weakest on the map
    (a 3-2 before the 5-2 and 4-2)."""
    (eff,) = effects(card_id)
    infantry = counters("red", eff["units"])
    state, faction = hold(card_id, {u: "Moscow" for u in infantry})
    if eliminated:
        state["units"][eliminated].update(status="eliminated", zone=None)
    if reduced:
        state["units"][reduced]["reduced"] = True
    weakest = min((u for u in infantry if state["units"][u]["status"] == "map"),
                  key=lambda u: (sum(COUNTERS[u]["full"]), u))
    chosen = eliminated or reduced or weakest
    assert COUNTERS[weakest]["full"] == [3, 2]
    events, after = play_card(state, faction, card_id)
    assert events == [opened(card_id, faction),
                      {"type": "units_out", "faction": "red", "units": [chosen], "why": why(card_id)}]
    only_the_card_left(state, after, faction, card_id, units=_gone(state, [chosen]))


@case("kronstadt-rising", "the-fleet", ori=1)
@case("kronstadt-rising", "ori-at-its-floor", ori=0)
def kronstadt(card_id: str, ori: int) -> None:
    fleet_eff, ori_eff = effects(card_id)
    (fleet,) = counters("red", fleet_eff["units"])
    state, faction = hold(card_id, {fleet: "Petrograd"})
    state["ori"]["red"] = ori
    events, after = play_card(state, faction, card_id)
    assert events == [opened(card_id, faction),
                      {"type": "units_out", "faction": "red", "units": [fleet], "why": why(card_id)},
                      {"type": "ori_change", "faction": "red", "change": ori_eff["change"], "why": why(card_id)}]
    only_the_card_left(state, after, faction, card_id, units=_gone(state, [fleet]),
                       ori__red=max(0, ori + ori_eff["change"]))


@case("kronstadt-rising", "no-fleet-left")
def kronstadt_no_fleet(card_id: str) -> None:
    fleet_eff, ori_eff = effects(card_id)
    state, faction = hold(card_id)
    for u in counters("red", fleet_eff["units"]):
        state["units"][u].update(status="gone", zone=None)
    state["ori"]["red"] = 2
    events, after = play_card(state, faction, card_id)
    assert events == [opened(card_id, faction), note(card_id, "only 0 of 1 counters of red were left to remove"),
                      {"type": "ori_change", "faction": "red", "change": ori_eff["change"], "why": why(card_id)}]
    only_the_card_left(state, after, faction, card_id, ori__red=2 + ori_eff["change"])


ALLIES_ON_MAP = {"allied-fleet-01": "Sea of Japan", "allied-fleet-02": "Black Sea", "allied-fleet-03": "Baltic Sea",
                 "allied-fleet-04": "White Sea", "allied-inf-01": "Vladivostok", "allied-inf-02": "Archangel",
                 "allied-inf-03": "Odessa", "allied-inf-04": "Murmansk"}


@case("allied-withdrawal", "reduced-first", reduced=("allied-fleet-03", "allied-inf-03"))
@case("allied-withdrawal", "out-of-play-first", off=("allied-fleet-04", "allied-inf-04"),
      reduced=("allied-fleet-03", "allied-inf-03"))
@case("allied-withdrawal", "weakest-fleet-a-2-2", gone=("allied-fleet-01",))
def allied_withdrawal(card_id: str, reduced: tuple[str, ...] = (), off: tuple[str, ...] = (),
                      gone: tuple[str, ...] = ()) -> None:
    fleet_eff, inf_eff = effects(card_id)
    state, faction = hold(card_id, ALLIES_ON_MAP)
    for u in reduced:
        state["units"][u]["reduced"] = True
    for u in off:
        state["units"][u].update(status="pool", zone=None)
    for u in gone:
        state["units"][u].update(status="gone", zone=None)
    picks = []
    for eff in (fleet_eff, inf_eff):
        kind = [u for u in counters("allies", eff["units"]) if u not in gone]
        pick = next((u for u in kind if u in off), None) or next((u for u in kind if u in reduced), None) or min(
            kind, key=lambda u: (COUNTERS[u]["full"], u))  # a 2-2 fleet before a 3-2 (ruling 38)
        picks.append(pick)
    events, after = play_card(state, faction, card_id)
    assert events == [opened(card_id, faction),
                      {"type": "units_out", "faction": "allies", "units": [picks[0]], "why": why(card_id)},
                      {"type": "units_out", "faction": "allies", "units": [picks[1]], "why": why(card_id)}]
    only_the_card_left(state, after, faction, card_id, units=_gone(state, picks))


@case("allied-withdrawal", "no-allied-unit-left")
def allied_withdrawal_none(card_id: str) -> None:
    state, faction = hold(card_id)
    for piece in state["units"].values():
        if piece["faction"] == "allies" and piece["type"] != "leader":
            piece.update(status="gone", zone=None)
    events, after = play_card(state, faction, card_id)
    assert events == [opened(card_id, faction),
                      note(card_id, "only 0 of 1 counters of allies were left to remove"),
                      note(card_id, "only 0 of 1 counters of allies were left to remove")]
    only_the_card_left(state, after, faction, card_id)


@case("north-russia-evacuation", "murmansk-and-archangel-first")
def north_russia_evacuation(card_id: str) -> None:
    """The effect's note: those at Murmansk, Archangel or the White Sea first, before one
    out of play and before a reduced one elsewhere; and North/Asia's ORI -1."""
    inf_eff, ori_eff = effects(card_id)
    assert "Murmansk, Archangel or the White Sea first" in inf_eff["note"]
    state, faction = hold(card_id, {"allied-inf-01": "Vladivostok", "allied-inf-02": "Archangel",
                                    "allied-inf-04": "Murmansk"})
    state["units"]["allied-inf-01"]["reduced"] = True
    assert state["units"]["allied-inf-03"]["status"] == "pool"  # out of play
    state["ori"]["north"] = 2
    events, after = play_card(state, faction, card_id)
    assert events == [opened(card_id, faction),
                      {"type": "units_out", "faction": "allies", "units": ["allied-inf-02", "allied-inf-04"],
                       "why": why(card_id)},
                      {"type": "ori_change", "faction": ori_eff["faction"], "change": ori_eff["change"],
                       "why": why(card_id)}]
    assert inf_eff["units"]["count"] == 2
    only_the_card_left(state, after, faction, card_id, units=_gone(state, ["allied-inf-02", "allied-inf-04"]),
                       ori__north=1)


@case("north-russia-evacuation", "one-in-the-white-sea-box-then-out-of-play")
def north_russia_box(card_id: str) -> None:
    state, faction = hold(card_id, {"allied-inf-02": "White Sea box", "allied-inf-01": "Vladivostok"})
    state["units"]["allied-inf-01"]["reduced"] = True
    events, _after = play_card(state, faction, card_id)
    assert events[1]["units"] == ["allied-inf-02", "allied-inf-03"]  # then out of play (ruling 38)


@case("tank", "the-faction-s-tank", faction="south")
@case("tank", "the-reds-tank", faction="red")
def tank(card_id: str, faction: str) -> None:
    (eff,) = effects(card_id)
    assert eff["faction"] == "self"
    state, holder = hold(card_id, faction=faction)
    (mine,) = counters(faction, {"type": "tank"})
    assert state["units"][mine]["status"] == "card"  # 15.4: waiting for the card
    events, after = play_card(state, holder, card_id)
    assert events == [opened(card_id, holder),
                      {"type": "units_in", "faction": faction, "units": [mine], "why": why(card_id)}]
    units = copy.deepcopy(state["units"])
    units[mine].update(status="pool", zone=None)
    only_the_card_left(state, after, holder, card_id, units=units)


@case("tank", "no-tank-waiting")
def tank_again(card_id: str) -> None:
    state, faction = hold(card_id)
    (mine,) = counters(faction, {"type": "tank"})
    state["units"][mine]["status"] = "pool"  # a second Tank card (remove: false)
    events, after = play_card(state, faction, card_id)
    assert events == [opened(card_id, faction),
                      {"type": "note", "zone": "", "text": f"{faction} has no tank waiting for the card"}]
    only_the_card_left(state, after, faction, card_id)


# ---------------------------------------------------------------------------------------
# leaders (10.4, 10.6, 10.92)


@case("yudenich-offensive", "in-the-zone-named", zone="Archangel")
@case("yudenich-offensive", "zone-not-held-first-by-name", zone="Moscow")
@case("miller-in-archangel", "in-the-zone-named", zone="Murmansk")
@case("miller-in-archangel", "no-zone-named", zone=None)
def named_leader(card_id: str, zone: str | None) -> None:
    (eff,) = effects(card_id)
    state, faction = hold(card_id)
    held = sorted(z for z, owner in state["control"].items() if owner == eff["faction"])
    placed = zone if zone in held else held[0]  # ruling 38: else its first zone by name
    assert state["units"][eff["leader"]]["status"] == "unused"
    events, after = play_card(state, faction, card_id, zone=zone)
    assert events == [opened(card_id, faction, zone=zone),
                      {"type": "leader_in", "leader": eff["leader"], "zone": placed, "faction": eff["faction"],
                       "why": why(card_id)}]
    units = copy.deepcopy(state["units"])
    units[eff["leader"]].update(status="map", zone=placed)
    only_the_card_left(state, after, faction, card_id, units=units)


@case("yudenich-offensive", "already-in-play")
@case("miller-in-archangel", "already-in-play")
def named_leader_in_play(card_id: str) -> None:
    (eff,) = effects(card_id)
    state, faction = hold(card_id, {eff["leader"]: "Archangel"})
    events, after = play_card(state, faction, card_id, zone="Archangel")
    assert events == [opened(card_id, faction, zone="Archangel"),
                      note(card_id, f"{eff['leader']} is not among the unused leaders (10.6): no effect")]
    only_the_card_left(state, after, faction, card_id)


def _only_unused(state: State, faction: str, keep: Iterable[str]) -> None:
    for u, piece in state["units"].items():
        if piece["type"] == "leader" and piece["faction"] == faction and piece["status"] == "unused" \
                and u not in keep:
            piece["status"] = "dead"


@case("red-commanders", "the-one-unused-leader", faction="red", leader="voroshilov", zone="Tver")
@case("officers-rally", "never-wrangel", faction="south", leader="krasnov", zone="Rostov")
@case("officers-rally", "zone-not-held", faction="siberian", leader="kappel", zone="Moscow")
def random_leader(card_id: str, faction: str, leader: str, zone: str) -> None:
    """10.6: a leader from the unused ones (never one a card brings by name: Wrangel,
    20.3), placed in a zone the faction controls."""
    (eff,) = effects(card_id)
    assert eff["leader"] == "random_unused"
    state, holder = hold(card_id, faction=faction)
    _only_unused(state, faction, {leader, "wrangel"})
    held = sorted(z for z, owner in state["control"].items() if owner == faction)
    placed = zone if zone in held else held[0]
    events, after = play_card(state, holder, card_id, zone=zone)
    assert events == [opened(card_id, holder, zone=zone),
                      {"type": "leader_in", "leader": leader, "zone": placed, "faction": faction, "why": why(card_id)}]
    assert after["units"][leader] == {**state["units"][leader], "status": "map", "zone": placed}
    assert after["units"]["wrangel"]["status"] == "unused"


@case("red-commanders", "no-unused-leader", faction="red")
@case("officers-rally", "only-wrangel-unused", faction="south")
def random_leader_none(card_id: str, faction: str) -> None:
    state, holder = hold(card_id, faction=faction)
    _only_unused(state, faction, {"wrangel"})
    events, after = play_card(state, holder, card_id)
    assert events == [opened(card_id, holder), note(card_id, f"{faction} has no unused leader (10.6)")]
    only_the_card_left(state, after, holder, card_id)


@case("wrangel-takes-over", "in-denikins-zone")
def wrangel(card_id: str) -> None:
    swap, flag = effects(card_id)
    state, faction = hold(card_id, {swap["remove"]: "Novocherkassk"})
    events, after = play_card(state, faction, card_id, zone="Rostov")  # 10.92: Denikin's zone, not Rostov
    assert events == [opened(card_id, faction, zone="Rostov"),
                      {"type": "units_out", "faction": "south", "units": [swap["remove"]], "why": why(card_id)},
                      {"type": "leader_in", "leader": swap["add"], "zone": "Novocherkassk", "faction": "south",
                       "why": why(card_id)},
                      {"type": "flag_set", "flag": flag["name"], "faction": faction, "why": why(card_id)}]
    units = copy.deepcopy(state["units"])
    units[swap["remove"]].update(status="gone", zone=None)
    units[swap["add"]].update(status="map", zone="Novocherkassk")
    only_the_card_left(state, after, faction, card_id, units=units, flags={flag["name"]: faction})


@case("wrangel-takes-over", "denikin-wounded-off-the-map")
def wrangel_denikin_away(card_id: str) -> None:
    swap, flag = effects(card_id)
    state, faction = hold(card_id)
    state["units"][swap["remove"]].update(status="unused", zone=None)  # 10.4 wounded
    events, after = play_card(state, faction, card_id, zone="Rostov")
    assert events[2] == {"type": "leader_in", "leader": swap["add"], "zone": "Rostov", "faction": "south",
                         "why": why(card_id)}
    assert after["units"][swap["remove"]]["status"] == "gone"


@case("attempt-on-lenin", "wounded-in-moscow")
def attempt_on_lenin(card_id: str) -> None:
    (eff,) = effects(card_id)
    state, faction = hold(card_id, {eff["leader"]: "Moscow"})
    events, after = play_card(state, faction, card_id)
    assert events == [opened(card_id, faction),
                      {"type": "leader_wounded", "leader": eff["leader"], "zone": "Moscow", "why": why(card_id)}]
    units = copy.deepcopy(state["units"])
    units[eff["leader"]].update(status="unused", zone=None)  # 10.4; 10.8.1: no money, no manpower lost
    only_the_card_left(state, after, faction, card_id, units=units)


@case("attempt-on-lenin", "not-on-the-map")
def attempt_on_lenin_away(card_id: str) -> None:
    (eff,) = effects(card_id)
    state, faction = hold(card_id)
    state["units"][eff["leader"]].update(status="unused", zone=None)
    events, after = play_card(state, faction, card_id)
    assert events == [opened(card_id, faction), note(card_id, f"{eff['leader']} is not on the map: no effect")]
    only_the_card_left(state, after, faction, card_id)


# ---------------------------------------------------------------------------------------
# rail movements (7.6, 19.1)


@case("railway-commissariat", "rail-points")
@case("trans-siberian-railway", "rail-points")
@case("captured-rolling-stock", "rail-points", faction="north")
def rail(card_id: str, faction: str | None = None) -> None:
    (eff,) = effects(card_id)
    state, holder = hold(card_id, faction=faction)
    owner = holder if eff["faction"] == "self" else eff["faction"]
    events, after = play_card(state, holder, card_id)
    assert events == [opened(card_id, holder),
                      {"type": "rail_bonus", "faction": owner, "amount": eff["amount"], "why": why(card_id)}]
    only_the_card_left(state, after, holder, card_id, rail_bonus={owner: eff["amount"]})


# ---------------------------------------------------------------------------------------
# minor factions (12.1, 12.11, 12.12, 12.2, 13.x)


@case("makhno-switches-sides", "active-for-the-player", faction="red")
@case("ukrainian-directorate", "active-for-the-player")
@case("estonian-war-of-independence", "active-for-the-player", faction="north")
@case("aunus-expedition", "limited-this-turn", pieces={"finland-inf-01": "Helsinki", "finland-inf-02": "Vyborg"})
@case("kiev-offensive", "limited-this-turn", faction="north", pieces={"poland-inf-01": "Warsaw"})
def minor_in(card_id: str, faction: str | None = None, pieces: dict[str, str] | None = None) -> None:
    (eff,) = effects(card_id)
    state, holder = hold(card_id, pieces, faction=faction)
    controller = holder if eff["controller"] == "self" else eff["controller"]
    until = state["turn"] if eff["status"] == "limited" else None  # 12.11: this turn only
    events, after = play_card(state, holder, card_id)
    assert events == [opened(card_id, holder),
                      {"type": "minor_status", "minor": eff["minor"], "status": eff["status"],
                       "controller": controller, "until": until, "result": "card", "why": why(card_id)}]
    entry: dict[str, Any] = {"status": eff["status"], "controller": controller, "until": until}
    if eff["status"] == "limited":  # 12.11: the zones it occupies when activated
        entry["zones"] = sorted(set((pieces or {}).values()))
    only_the_card_left(state, after, holder, card_id, minors={**state["minors"], eff["minor"]: entry})


@case("ukrainian-directorate", "before-the-third-turn", turn=2)
@case("estonian-war-of-independence", "before-the-third-turn", turn=1)
def minor_too_early(card_id: str, turn: int) -> None:
    state, faction = hold(card_id, turn=turn)
    events, after = play_card(state, faction, card_id)
    assert events == [opened(card_id, faction),
                      note(card_id, "no effect, no minor faction enters play before the third turn (12.1)")]
    only_the_card_left(state, after, faction, card_id)


@case("kiev-offensive", "poland-played-as-a-major")
def kiev_poland_major(card_id: str) -> None:
    state, faction = hold(card_id)
    state["flags"] = {"poland_major": "siberian"}
    events, after = play_card(state, faction, card_id)
    assert events == [opened(card_id, faction), note(card_id, "no effect, Poland is played as a major faction (13.54)")]
    only_the_card_left(state, after, faction, card_id)


@case("makhno-switches-sides", "changes-sides", faction="south")
def makhno_changes(card_id: str, faction: str) -> None:
    """Makhno leaves the Reds for the player of the card (13.4)."""
    (eff,) = effects(card_id)
    state, holder = hold(card_id, faction=faction)
    state["minors"][eff["minor"]] = {"status": "active", "controller": "red", "until": None}
    events, after = play_card(state, holder, card_id)
    assert events[1]["controller"] == faction
    assert after["minors"][eff["minor"]] == {"status": "active", "controller": faction, "until": None}


@case("petliura-pogroms", "neutral-and-home", minor_units={"ukraine-inf-01": "Kiev", "ukraine-cav-01": "Brest-Litovsk"},
      home={"ukraine-cav-01": "Zhitomir"})
@case("curzon-intervenes", "neutral-and-home", minor_units={"poland-inf-01": "Wilno", "poland-inf-02": "Warsaw"},
      home={"poland-inf-01": "Warsaw"})
def minor_neutral(card_id: str, minor_units: dict[str, str], home: dict[str, str]) -> None:
    """12.2: a fully activated minor made neutral; its units outside its zones go to the
    nearest zone it controls (Brest-Litovsk: Zhitomir, one zone; Wilno: Warsaw)."""
    eff = effects(card_id)[0]
    minor = eff["minor"]
    state, faction = hold(card_id, minor_units)
    state["minors"][minor] = {"status": "active", "controller": "south", "until": None}
    for unit, to in home.items():
        assert state["control"][to] == minor and distances([minor_units[unit]])[to] == 1
    events, after = play_card(state, faction, card_id)
    expected: list[Event] = [
        {"type": "minor_status", "minor": minor, "status": "neutral", "controller": None, "until": None,
         "result": "card", "why": why(card_id)},
        *({"type": "minor_recalled", "minor": minor, "unit": u, "from": minor_units[u], "to": to}
          for u, to in home.items())]
    changed: dict[str, Any] = {}
    for extra in effects(card_id)[1:]:  # Curzon's line (13.56)
        expected.append({"type": "flag_set", "flag": extra["name"], "faction": faction, "why": why(card_id)})
        changed["flags"] = {extra["name"]: faction}
    assert events == [opened(card_id, faction), *expected]
    units = copy.deepcopy(state["units"])
    for u, to in home.items():
        units[u]["zone"] = to
    only_the_card_left(state, after, faction, card_id, units=units,
                       minors={**state["minors"], minor: {"status": "neutral", "controller": None, "until": None}},
                       **changed)


@case("petliura-pogroms", "neutral-already")
@case("curzon-intervenes", "neutral-already")
def minor_neutral_already(card_id: str) -> None:
    eff = effects(card_id)[0]
    state, faction = hold(card_id)
    events, after = play_card(state, faction, card_id)
    assert events[1] == {"type": "minor_status", "minor": eff["minor"], "status": "neutral", "controller": None,
                         "until": None, "result": "card", "why": why(card_id)}
    assert after["minors"] == state["minors"] and after["units"] == state["units"]


@case("curzon-intervenes", "poland-under-limited-control")
def curzon_limited(card_id: str) -> None:
    """13.53: only a fully activated Poland becomes neutral again; the line still counts."""
    minor_eff, flag_eff = effects(card_id)
    state, faction = hold(card_id, {"poland-inf-01": "Wilno"})
    state["minors"]["poland"] = {"status": "limited", "controller": "south", "until": state["turn"],
                                 "zones": ["Warsaw"]}
    events, after = play_card(state, faction, card_id)
    assert events == [opened(card_id, faction),
                      note(card_id, "no effect, poland is not a fully activated minor (13.53)"),
                      {"type": "flag_set", "flag": flag_eff["name"], "faction": faction, "why": why(card_id)}]
    only_the_card_left(state, after, faction, card_id, flags={flag_eff["name"]: faction})


# ---------------------------------------------------------------------------------------
# partisans (15.2) and Cossack raids (15.3)


PARTISAN_CONTROL = all_control(Omsk="siberian", Ekaterinodar="south", Moscow="red", Tver="red", Kazan="red")


@case("siberian-partisans", "richest-white-zone", zone=None)
@case("siberian-partisans", "the-zone-named", zone="Omsk")
@case("green-armies", "a-red-zone-named-is-not-taken", zone="Moscow")
@case("tambov-rising", "richest-red-zone", zone=None)
@case("tambov-rising", "the-zone-named", zone="Tver")
@case("basmachi-revolt", "a-white-zone-named-is-not-taken", zone="Ekaterinodar")
def partisans(card_id: str, zone: str | None) -> None:
    """15.2: a White player's partisans in a Red zone, the Reds' in a White zone: the zone
    named if it may take them, else the richest."""
    (eff,) = effects(card_id)
    state, faction = hold(card_id, control=PARTISAN_CONTROL)
    side = WHITES if eff["where"] == "white_zone" else ("red",)
    zones = [z for z, owner in PARTISAN_CONTROL.items() if owner in side]
    richest = max(zones, key=lambda z: int(B.zones[z]["money"]))
    assert sorted(int(B.zones[z]["money"]) for z in zones).count(int(B.zones[richest]["money"])) == 1
    placed = zone if zone in zones else richest
    events, after = play_card(state, faction, card_id, zone=zone)
    assert events == [opened(card_id, faction, zone=zone),
                      {"type": "partisans_placed", "zone": placed, "faction": faction, "why": why(card_id)}]
    only_the_card_left(state, after, faction, card_id, partisans={placed: faction})


@case("green-armies", "every-counter-in-play-one-moves")
@case("basmachi-revolt", "every-counter-in-play-one-moves")
def partisans_exchange(card_id: str) -> None:
    """15.2: with every counter (game.yaml partisans.markers) in play, one moves: the first
    by name (README ruling 43)."""
    (eff,) = effects(card_id)
    markers = int(data()["game"]["partisans"]["markers"])
    state, faction = hold(card_id, control=PARTISAN_CONTROL)
    elsewhere = {z: "south" for z in ("Archangel", "Kiev", "Odessa", "Perm", "Samara")[:markers]}
    state["partisans"] = dict(elsewhere)
    target = "Ekaterinodar" if eff["where"] == "white_zone" else "Moscow"
    events, after = play_card(state, faction, card_id, zone=target)
    moved = sorted(elsewhere)[0]
    assert events[1] == {"type": "partisans_placed", "zone": target, "faction": faction, "why": why(card_id),
                         "from": moved}
    assert after["partisans"] == {**{z: f for z, f in elsewhere.items() if z != moved}, target: faction}
    assert len(after["partisans"]) == markers


@case("siberian-partisans", "no-white-zone")
@case("tambov-rising", "no-red-zone-without-partisans")
def partisans_nowhere(card_id: str) -> None:
    (eff,) = effects(card_id)
    control = all_control(Moscow="red") if eff["where"] == "white_zone" else all_control(Moscow="red", Omsk="south")
    state, faction = hold(card_id, control=control)
    if eff["where"] == "red_zone":
        state["partisans"] = {"Moscow": "north"}
    events, after = play_card(state, faction, card_id)
    assert events == [opened(card_id, faction), note(card_id, "no zone may take a partisan (15.2)")]
    only_the_card_left(state, after, faction, card_id)


def raid_position() -> tuple[dict[str, str | None], list[str], str]:
    """Rostov the one White zone; Red zones one, two and three zones from it."""
    far = distances(["Rostov"])
    by_distance = {d: sorted((z for z, n in far.items() if n == d), key=lambda z: (-int(B.zones[z]["money"]), z))
                   for d in (1, 2, 3)}
    near = [by_distance[1][0], by_distance[2][0], by_distance[2][-1]]
    out = by_distance[3][0]
    control = all_control(Rostov="south")
    control.update({z: "red" for z in [*near, out]})
    return control, near, out


@case("cossack-raid", "the-richest-in-reach", zone=None)
@case("cossack-raid", "the-zone-named-first", zone="poorest")
@case("mamontov-raid", "beyond-reach-not-taken", zone="out")
def cossack_raid(card_id: str, zone: str | None) -> None:
    """15.3: Red zones at most two zones from a White zone; game.yaml's number of markers;
    the zone named first if in reach (README ruling 41), then the richest."""
    markers = int(data()["game"]["cossack_raid"]["markers"])
    control, near, out = raid_position()
    richest = sorted(near, key=lambda z: -int(B.zones[z]["money"]))
    assert len({int(B.zones[z]["money"]) for z in near}) == len(near) == markers + 1
    named = {"poorest": richest[-1], "out": out, None: None}[zone]
    state, faction = hold(card_id, control=control)
    events, after = play_card(state, faction, card_id, zone=named)
    expected = [richest[-1], *richest[: markers - 1]] if zone == "poorest" else richest[:markers]
    assert events == [opened(card_id, faction, zone=named),
                      {"type": "raids", "zones": expected, "faction": faction, "why": why(card_id)}]
    only_the_card_left(state, after, faction, card_id, raids={z: faction for z in expected})


@case("cossack-raid", "no-red-zone-in-reach")
@case("mamontov-raid", "no-red-zone-in-reach")
def cossack_raid_nowhere(card_id: str) -> None:
    control, near, out = raid_position()
    control.update({z: None for z in near})
    state, faction = hold(card_id, control=control)
    events, after = play_card(state, faction, card_id)
    assert events == [opened(card_id, faction), note(card_id, "no Red zone within reach (15.3)")]
    only_the_card_left(state, after, faction, card_id)


# ---------------------------------------------------------------------------------------
# the action cards on a zone: Coup de main (9.0), the battle cards


@case("coup-de-main", "takes-the-zone", pieces={"red-inf-01": "Tver"}, owner="south")
@case("coup-de-main", "takes-a-neutral-zone", pieces={"red-inf-01": "Tver"}, owner=None)
def coup(card_id: str, pieces: dict[str, str], owner: str | None) -> None:
    state, faction = hold(card_id, pieces, control={"Tver": owner})
    events, after = play_card(state, faction, card_id, zone="Tver")
    assert events == [opened(card_id, faction, zone="Tver"),
                      {"type": "control", "zone": "Tver", "from": owner, "faction": faction,
                       "why": "Coup de main (9.0)"}]
    assert after["control"]["Tver"] == faction


@case("coup-de-main", "enemy-land-units", pieces={"red-inf-01": "Tver", "south-inf-01": "Tver"},
      why_not="enemy land units are in Tver")
@case("coup-de-main", "no-unit-there", pieces={"red-inf-01": "Moscow"}, why_not="red has no land unit in Tver")
def coup_refused(card_id: str, pieces: dict[str, str], why_not: str) -> None:
    state, faction = hold(card_id, pieces, control={"Tver": "south"})
    events, after = play_card(state, faction, card_id, zone="Tver")
    assert events == [opened(card_id, faction, zone="Tver"), note(card_id, f"no effect, {why_not} (9.0)", "Tver")]
    only_the_card_left(state, after, faction, card_id)


@case("armoured-trains", "a-railway-hub", zone="Moscow")
@case("stubborn-defence", "a-zone", zone="Tver")
@case("storming-of-perekop", "a-red-siege", zone="Sevastopol")
def battle_card(card_id: str, zone: str) -> None:
    (eff,) = effects(card_id)
    state, faction = hold(card_id)
    modifier = {k: v for k, v in eff["modifier"].items() if k != "side"}  # side: self, the player
    events, after = play_card(state, faction, card_id, zone=zone)
    assert events == [opened(card_id, faction, zone=zone),
                      {"type": "battle_card", "zone": zone, "faction": faction, "card": card_id,
                       "modifier": modifier}]
    only_the_card_left(state, after, faction, card_id,
                       battle_cards={zone: [{"faction": faction, "card": card_id, "modifier": modifier}]})


def test_the_battle_cards_say_what_the_cases_assert() -> None:
    assert effects("armoured-trains")[0]["modifier"] == {"extra_dice": 2, "rounds": 1, "side": "self"}
    assert int(B.zones["Moscow"]["rail"]) > 0 and not B.zones["Tver"].get("rail")


@case("armoured-trains", "no-railway-hub")
def armoured_trains_no_hub(card_id: str) -> None:
    state, faction = hold(card_id)
    events, after = play_card(state, faction, card_id, zone="Tver")
    assert events == [opened(card_id, faction, zone="Tver"),
                      note(card_id, "no railway hub in Tver (2.1): no effect", "Tver")]
    only_the_card_left(state, after, faction, card_id)


@case("stubborn-defence", "no-zone-named")
@case("storming-of-perekop", "no-zone-named")
def battle_card_nowhere(card_id: str) -> None:
    state, faction = hold(card_id)
    events, after = play_card(state, faction, card_id)
    assert events == [opened(card_id, faction), note(card_id, "no zone named: no effect")]
    only_the_card_left(state, after, faction, card_id)


# ---------------------------------------------------------------------------------------
# Famine (19.2, with railways 19.1; game.yaml famine.zones RECONSTRUCTED)


FAMINE_OPTIONS = {"railways": True, "famine": True}


def famine_position(card_id: str, food: bool = True) -> tuple[State, str, str]:
    """Moscow the one listed city the Reds hold; Tambov their one food zone (unless not
    `food`); Tula Moscow's one Red neighbour."""
    listed = data()["game"]["famine"]["zones"]
    assert "Moscow" in listed and B.zones["Tambov"].get("food") and "Tula" in B.routes["Moscow"]
    control: dict[str, str | None] = {z: "south" for z in listed}
    control.update({z: "south" for z, spec in B.zones.items() if spec.get("food")})
    control.update({z: "south" for z in B.routes["Moscow"] if z in B.zones})
    control.update(Moscow="red", Tula="red")
    if food:
        control["Tambov"] = "red"
    state, faction = hold(card_id, control=control, options=FAMINE_OPTIONS)
    return state, faction, "Tambov"


@case("famine", "averted", roll=1)
@case("famine", "averted-at-the-edge", roll=2)
@case("famine", "applies-at-the-edge", roll=3)
@case("famine", "applies", roll=5)
@case("famine", "spreads", roll=6)
def famine(card_id: str, roll: int) -> None:
    """19.2: 1-2 averted, 3-5 the famine applies, 6 it spreads to an adjacent Red zone;
    one rail point given up for the try."""
    state, faction, food = famine_position(card_id)
    events, after = play_card(state, faction, card_id, [roll])
    result = "averted" if roll <= 2 else "applies" if roll <= 5 else "spreads"
    expected: list[Event] = [{"type": "famine_relief", "faction": "red", "zone": "Moscow", "food": food,
                              "roll": roll, "result": result}]
    if result == "spreads":
        expected.append({"type": "famine", "zone": "Tula", "from": "Moscow", "why": why(card_id)})
    if result != "averted":
        expected.append({"type": "famine", "zone": "Moscow", "from": None, "why": why(card_id)})
    assert events == [opened(card_id, faction), *expected]
    starving = {z["zone"]: {"turn": state["turn"], "from": z["from"]} for z in expected if z["type"] == "famine"}
    changed: dict[str, Any] = {"rail_bonus": {"red": -1},
                               "famine_relief": {"turn": state["turn"], "food": [food], "zones": ["Moscow"]}}
    if starving:
        changed["famine"] = starving
    only_the_card_left(state, after, faction, card_id, **changed)


@case("famine", "no-food-zone-no-try")
def famine_without_food(card_id: str) -> None:
    state, faction, _food = famine_position(card_id, food=False)
    events, after = play_card(state, faction, card_id)
    assert events == [opened(card_id, faction), {"type": "famine", "zone": "Moscow", "from": None,
                                                  "why": why(card_id)}]
    only_the_card_left(state, after, faction, card_id, famine={"Moscow": {"turn": state["turn"], "from": None}})


@case("famine", "no-city-to-strike")
def famine_nowhere(card_id: str) -> None:
    state, faction, _food = famine_position(card_id)
    state["control"]["Moscow"] = "south"
    events, after = play_card(state, faction, card_id)
    assert events == [opened(card_id, faction), note(card_id, "no Red city without food to strike (19.2)")]
    only_the_card_left(state, after, faction, card_id)


@case("famine", "without-the-option")
def famine_without_option(card_id: str) -> None:
    """14.0, 19.0: without its optional rule the card does nothing (it is refused when
    orders are checked, and played by no one)."""
    state, faction, _food = famine_position(card_id)
    state["options"] = {}
    events, after = play_card(state, faction, card_id)
    assert events == [opened(card_id, faction), note(
        card_id, "no effect, optional rule 19.2 (campaign option famine) is not used (19.0)")]
    only_the_card_left(state, after, faction, card_id)
