"""Chechen War 1994-1996 for pbem (../shared/rules/chechen-war-rules.txt).

Refereed: the set-up (4.0-4.4: rules/setup.py), the Russian's placement and the Chechen's
face-down tokens with their identities drawn and sealed; each turn's Russian Movement Segment
(8.0: rules/movement.py) with the reinforcements' arrival (13.2-13.3: rules/arrival.py), the
Chechen Ambush Segment with the gunship threat (14.0: rules/ambush.py), both combat segments
with their supports (10.0: rules/combat.py), the Chechen Movement Segment, the End of Turn
Phase (12.0, 6.0, 15.0, 13.0: rules/endturn.py) and victory (3.1, 3.2); README.md lists each
part and what is not yet.
The position:

    turn, phase   the game turn (0 during set-up) and the segment
    options       the campaign's options (setup: variable or historical)
    russians      the Russian units on the map: {id: {hex, reduced}} (public: 10.6)
    tokens        the Chechen units on the map, face down: {t01: {hex, unit}}, `unit` a
                  node sealed to the Chechen and the referee (4.2.2, 10.6)
    cup           how many Chechen units are in the cup (which ones is hidden)
    morale, casualties, collateral   the General Data Track (4.4)
    leaders       where each Chechen leader is (4.2.2: all underground)
    supports      each side's support markers available, by kind (4.2.1, 4.2.2); used_supports
                  those in the used boxes (10.9)
    attacks       the Russian's attacks declared and not fought yet, each marker's kind sealed
    groznyi_attacked   whether the Russian has attacked Groznyi (10.10)
    cup_known     the eliminated Chechen units back in the cup (public: they were revealed)
    leaders_lost  Chechen leaders eliminated this turn (6.2)
    recruits      each side's recruitment box (13.1): Russian unit ids; the Chechen's units
                  sealed to him, in the order drawn
    ceasefire     {declared, turn}: the ceasefire declared once a game and its turn (15.1)
    kidnapped     whether the Chechen has kidnapped civilians (6.3: once a game)
    event         this turn's random event (12.0), for the reinforcement roll's modifier
    tokens_made   how many tokens have been numbered (the next is t25, say)
"""

from __future__ import annotations

import dataclasses
import functools
from collections import Counter
from collections.abc import Callable
from typing import Any

from pbem.game import Event, GameData, Orders, Phase, Problem, Rng, Secrets, State
from pbem.kit import standing as standing_kit
from pbem.kit.events import recorded
from pbem.kit.phases import NOT_ASKED, PhaseRules, PhaseTable, TableGame

from . import (
    ahead,
    ambush,
    arrival,
    asked,
    combat,
    corrections,
    endturn,
    leaders,
    movement,
    order_of_battle,
    setup,
)
from . import boxes as boxes_
from . import headlines as headlines_
from . import report as report_
from . import standing as standing_
from .board import CHECHEN, RUSSIAN, board, ceasefire_turn, folding, units
from .events import EVENTS


def _russian(data: GameData, state: State) -> list[str]:
    return [RUSSIAN]


def _chechen(data: GameData, state: State) -> list[str]:
    return [CHECHEN]


def _resolve_russian(data: GameData, state: State, orders: dict[str, Orders], rng: Rng,
                     secrets: Secrets | None) -> list[Event]:
    return [*setup.place_russian(data, state, orders.get(RUSSIAN) or {}),
            {"type": "phase", "phase": "setup-chechen", "turn": 0}]


def _resolve_chechen(data: GameData, state: State, orders: dict[str, Orders], rng: Rng,
                     secrets: Secrets | None) -> list[Event]:
    if secrets is None:
        raise ValueError("the Chechen set-up seals the tokens' identities: it needs the secrets")
    return [*setup.place_chechen(data, state, orders.get(CHECHEN) or {}, secrets),
            {"type": "phase", "phase": "russian-movement", "turn": 1}]


def _check_standing(data: GameData, state: State, standing: Any, problems: list[Problem]) -> None:
    standing_kit.check(data, state, RUSSIAN, standing, standing_.CHECKS, problems)


def _standing(state: State, orders: Orders) -> list[Event]:
    given = orders.get("standing") or {}
    now = {k: v for k, v in {**state.get("standing", {}).get(RUSSIAN, {}), **given}.items()
           if v is not None}  # null drops one
    return [{"type": "standing", "side": RUSSIAN, "standing": now}] if given else []


def _russian_moves(data: GameData, state: State, orders: Orders, problems: list[Problem]) -> list[Event]:
    """The Russian movement file's arrivals (13.2), moves, then the gunships it places where
    units end (14.2)."""
    arrived, state = arrival.read(data, state, RUSSIAN, orders, problems)
    moves = movement.read(data, state, orders, problems)
    gunships = [(i, item["gunship"]) for i, item in enumerate(orders.get("orders") or [])
                if isinstance(item, dict) and set(item) == {"gunship"}]
    threatened = ambush.read_gunships(data, state, gunships, movement.ends(state, moves), problems)
    return arrived + moves + ([{"type": "gunships", "hexes": threatened}] if threatened else [])


def _resolve_moves(data: GameData, state: State, orders: dict[str, Orders], rng: Rng,
                   secrets: Secrets | None) -> list[Event]:
    problems: list[Problem] = []
    mine = orders.get(RUSSIAN) or {}
    events = _russian_moves(data, state, mine, problems)
    if problems:  # checked before: orders reach resolve only when valid
        raise ValueError(f"the Russian's moves: {problems[0].message}")
    after = "chechen-movement" if ceasefire_turn(state) else "chechen-ambush"  # 15.2
    return [*_standing(state, mine), *events, *ahead.seal(state, RUSSIAN, mine.get("secret"), secrets),
            {"type": "phase", "phase": after, "turn": state["turn"]}]


Reader = Callable[[GameData, State, Orders, list[Problem]], Any]


def _checks(reader: Reader) -> Callable[[GameData, State, str, Orders], list[Problem]]:
    """A phase's validate: what `reader` finds wrong in a file."""
    def validate(data: GameData, state: State, faction: str, orders: Orders) -> list[Problem]:
        problems: list[Problem] = []
        reader(data, state, orders, problems)
        return problems
    return validate


def _russian_checks(reader: Reader) -> Callable[[GameData, State, str, Orders], list[Problem]]:
    """A Russian file's validate: what `reader` finds wrong in it, then in its standing
    instructions and in the End of Turn orders it gives ahead (rules/ahead.py)."""
    def validate(data: GameData, state: State, faction: str, orders: Orders) -> list[Problem]:
        problems = _checks(reader)(data, state, faction, orders)
        _check_standing(data, state, orders.get("standing"), problems)
        ahead.check(data, state, RUSSIAN, orders, problems)
        return problems
    return validate


def _valid(reader: Reader, data: GameData, state: State, orders: Orders, what: str) -> Any:
    """What `reader` reads of a file checked before (orders reach resolve only when valid)."""
    problems: list[Problem] = []
    out = reader(data, state, orders, problems)
    if problems:
        raise ValueError(f"{what}: {problems[0].message}")
    return out


def _check_ambushes(data: GameData, state: State, faction: str, orders: Orders) -> list[Problem]:
    return [*_checks(ambush.read_ambushes)(data, state, faction, orders),
            *_checks(ambush.read_free)(data, state, faction, orders)]


def _resolve_ambushes(data: GameData, state: State, orders: dict[str, Orders], rng: Rng,
                      secrets: Secrets | None) -> list[Event]:
    mine = orders.get(CHECHEN) or {}
    declared = _valid(ambush.read_ambushes, data, state, mine, "the Chechen's ambushes")
    frees = _valid(ambush.read_free, data, state, mine, "the Chechen's free ambushes")
    return [*ambush.resolve(data, state, declared, rng, frees), {"type": "segment_over"},
            {"type": "phase", "phase": "russian-combat", "turn": state["turn"]}]


def _resolve_attacks(data: GameData, state: State, orders: dict[str, Orders], rng: Rng,
                     secrets: Secrets | None) -> list[Event]:
    """The attacks on record with their markers' types sealed (10.9); the Chechen answers
    with his supports, or, with no attack, his Chechen Phase begins."""
    mine = orders.get(RUSSIAN) or {}
    attacks = _valid(combat.read_attacks, data, state, mine, "the Russian's attacks")
    declared = combat.declare(data, state, attacks, mine.get("secret"), secrets)
    after = "chechen-supports" if declared else "chechen-movement"
    return [*_standing(state, mine), *declared, *ahead.seal(state, RUSSIAN, mine.get("secret"), secrets),
            {"type": "phase", "phase": after, "turn": state["turn"]}]


def _resolve_defence(data: GameData, state: State, orders: dict[str, Orders], rng: Rng,
                     secrets: Secrets | None) -> list[Event]:
    defence = _valid(combat.read_defence, data, state, orders.get(CHECHEN) or {},
                     "the Chechen's supports")
    fought = combat.fight_all(data, state, rng, secrets, chechen=defence)
    won = _sudden_death(data, state, fought)
    return [*fought, *(won or [{"type": "phase", "phase": "chechen-movement", "turn": state["turn"]}])]


def _resolve_chechen_attacks(data: GameData, state: State, orders: dict[str, Orders], rng: Rng,
                             secrets: Secrets | None) -> list[Event]:
    """The Chechen's attacks on record with his answers sealed (10.9); the Russian answers
    with his markers, or, with no attack, the End of Turn Phase begins."""
    mine = orders.get(CHECHEN) or {}
    attacks = _valid(combat.read_chechen_attacks, data, state, mine, "the Chechen's attacks")
    declared = combat.declare_chechen(data, state, attacks, mine.get("secret"), secrets)
    return [*declared, {"type": "phase", "phase": "russian-supports" if declared else "end-of-turn",
                        "turn": state["turn"]}]


def _resolve_russian_defence(data: GameData, state: State, orders: dict[str, Orders], rng: Rng,
                             secrets: Secrets | None) -> list[Event]:
    mine = orders.get(RUSSIAN) or {}
    counts = _valid(combat.read_russian_defence, data, state, mine, "the Russian's supports")
    kinds = combat.russian_kinds(mine.get("secret"), counts, secrets)
    fought = [*_standing(state, mine), *ahead.seal(state, RUSSIAN, mine.get("secret"), secrets),
              *combat.fight_all(data, state, rng, secrets, russian=kinds)]
    won = _sudden_death(data, state, fought)
    return [*fought, *(won or [{"type": "phase", "phase": "end-of-turn", "turn": state["turn"]}])]


def _both(data: GameData, state: State) -> list[str]:
    return [RUSSIAN, CHECHEN]


def _end_orders(side: str, data: GameData, state: State, orders: Orders,
                problems: list[Problem]) -> dict[str, Any]:
    return endturn.read_orders(data, state, side, orders, problems)


def _check_end(data: GameData, state: State, faction: str, orders: Orders) -> list[Problem]:
    return _checks(functools.partial(_end_orders, faction))(data, state, faction, orders)


def _resolve_end(data: GameData, state: State, orders: dict[str, Orders], rng: Rng,
                 secrets: Secrets | None) -> list[Event]:
    if ahead.on(state):  # the orders sealed in the turn's files, opened (ahead.py)
        opened, read = ahead.opened(data, state, secrets)
        events = [*opened, *endturn.resolve(data, state, read, rng, secrets)]
    else:
        read = {side: _valid(functools.partial(_end_orders, side), data, state, orders.get(side) or {},
                             f"the {side} end of turn file") for side in (RUSSIAN, CHECHEN)}
        events = endturn.resolve(data, state, read, rng, secrets)
    if any(e["type"] == "over" for e in events):
        return events
    return [*events, {"type": "phase", "phase": "russian-movement", "turn": state["turn"] + 1}]


def _chechen_moves(data: GameData, state: State, orders: Orders, problems: list[Problem]) -> list[Event]:
    """The Chechen movement file's arrivals (13.3), then his moves."""
    arrived, state = arrival.read(data, state, CHECHEN, orders, problems)
    return [*arrived, *movement.read(data, state, orders, problems, side=CHECHEN),
            *leaders.read(data, state, orders, problems)]  # 11.3


def _arrivals_only(side: str) -> Any:
    """A side that sends no movement file: its reinforcements placed, nothing moved (13.2,
    13.3: they must be placed)."""
    return lambda d, s, f, r: {"orders": arrival.default(d, s, side)}


def _russian_bot(data: GameData, state: State, faction: str, rng: Rng) -> Orders:
    arrive = arrival.default(data, state, RUSSIAN, rng)
    problems: list[Problem] = []
    _, work = arrival.read(data, state, RUSSIAN, {"orders": arrive}, problems)
    return ahead.bot(data, state, RUSSIAN, rng, {"orders": [*arrive, *movement.bot(data, work, rng)["orders"]]})


def _sudden_death(data: GameData, state: State, events: list[Event]) -> list[Event]:
    """3.1: the Russian wins at once when no Chechen unit is left on the map, with morale 1
    or more and Groznyi occupied by his units."""
    work = state
    for e in events:
        work = GAME.apply(data, work, e)
    if work["tokens"] or int(work["morale"]) < 1 or not endturn.russians_hold_groznyi(data, work):
        return []
    return [{"type": "over", "result": {"winners": [RUSSIAN], "reason": "every Chechen unit on the "
                                        "map eliminated, morale 1 or more, Groznyi occupied (3.1)"}}]




def _chechen_turn(data: GameData, state: State, orders: Orders,
                  problems: list[Problem]) -> tuple[list[Event], list[dict[str, Any]], State]:
    """The Chechen's movement file: his arrivals, moves and leaders gone underground, then
    his attacks (10.0) from where the moves leave his units: no mail round trip between the
    two segments, where nothing happens that he does not decide (a ruling). On the ceasefire
    turn he makes none (15.2). Returns the moves' events, the attacks and the position
    after the moves."""
    events = _chechen_moves(data, state, orders, problems)
    work = folding(data, state)
    work.take(events)
    if ceasefire_turn(state):
        for i, item in enumerate(orders.get("orders") or []):
            if isinstance(item, dict) and set(item) == {"attack"}:
                problems.append(Problem(("orders", i), "no attacks on the ceasefire turn (15.2)"))
        return events, [], work.state
    # every other item is the moves' (movement.read tells what the file takes)
    attacks = combat.read_chechen_attacks(data, work.state, orders, problems, others=("*",))
    return events, attacks, work.state


def _check_chechen_turn(data: GameData, state: State, faction: str, orders: Orders) -> list[Problem]:
    problems = _checks(_chechen_turn)(data, state, faction, orders)
    ahead.check(data, state, CHECHEN, orders, problems)
    return problems


def _resolve_chechen_moves(data: GameData, state: State, orders: dict[str, Orders], rng: Rng,
                           secrets: Secrets | None) -> list[Event]:
    """The Chechen's moves and attacks as checked when the referee applied them (with every
    identity seen); here, with the tokens sealed, what is public is checked again. The
    attacks on record with his answers sealed (10.9); the Russian answers with his markers,
    or, with no attack, the End of Turn Phase begins."""
    mine = orders.get(CHECHEN) or {}
    events, attacks, after = _valid(_chechen_turn, data, state, mine, "the Chechen's moves and attacks")
    if secrets is not None:  # each recruit placed sealed anew under its token's id (`pbem reveal`)
        events = [arrival.resealed(e, secrets, int(state["turn"])) for e in events]
    declared = combat.declare_chechen(data, after, attacks, mine.get("secret"), secrets)
    return [*events, *declared, *ahead.seal(state, CHECHEN, mine.get("secret"), secrets),
            {"type": "phase", "phase": "russian-supports" if declared else "end-of-turn",
             "turn": state["turn"]}]


def _chechen_bot(data: GameData, state: State, faction: str, rng: Rng) -> Orders:
    """His recruits placed, then attacks from there (combat.bot_chechen)."""
    arrive = arrival.default(data, state, CHECHEN, rng)
    problems: list[Problem] = []
    _, work = arrival.read(data, state, CHECHEN, {"orders": arrive}, problems)
    if ceasefire_turn(state):
        return ahead.bot(data, state, CHECHEN, rng, {"orders": arrive})
    attacks = combat.bot_chechen(data, work, rng)
    return ahead.bot(data, state, CHECHEN, rng, {**attacks, "orders": [*arrive, *attacks["orders"]]})


# ORDERS.md's sections (their headings' start) and yaml blocks each segment's file takes
ORDERS_SECTIONS: dict[str, list[tuple[str, list[int] | None]]] = {
    "setup-russian": [("Set-up", [0])], "setup-chechen": [("Set-up", [1])],
    "russian-movement": [("Movement", [0, 2])],
    "chechen-movement": [("Movement", [1, 3]), ("Combat", [2])],
    "chechen-ambush": [("Ambushes", None)],
    "russian-combat": [("Combat", [0])], "chechen-supports": [("Combat", [1])],
    "chechen-combat": [("Combat", [2])], "russian-supports": [("Combat", [3])],
    "end-of-turn": [("End of the turn", None)],  # each side's own block: _sections
}
# the segments whose section of ORDERS.md shows each side its own block, by side
SIDE_SECTIONS: dict[str, dict[str, list[tuple[str, list[int] | None]]]] = {
    "end-of-turn": {RUSSIAN: [("End of the turn", [0])], CHECHEN: [("End of the turn", [1])]},
}

# the secret parts of the files that may give the End of Turn orders ahead (ahead.py)
_EOT = "end_of_turn: [your End of Turn orders] (where the campaign gives them ahead)"
SECRET_MOVES = f"the secret part is {_EOT}"
SECRET_RUSSIAN = f'the secret part is supports: {{"CCRR": [KIND, ...]}} (10.9), and {_EOT}'
SECRET_CHECHEN = ('the secret part is supports: {"CCRR": {markers: N, leaders: [...]}}, or one '
                  "such for each count the Russian may commit: {0: ..., 1: ..., 2: ...} (10.9), "
                  f"and {_EOT}")

PHASES = PhaseTable({
    "setup-russian": PhaseRules(
        "Russian set-up (4.2.1, 4.3.1)",
        "place every at-start unit: {place: {hex: \"CCRR\", units: [...]}}",
        awaiting=_russian, validate=lambda d, s, f, o: setup.check_russian(d, s, o),
        resolve=_resolve_russian, bot=lambda d, s, f, r: setup.bot_russian(d, s, r)),
    "setup-chechen": PhaseRules(
        "Chechen set-up (4.2.2, 4.3.2)",
        "place your units face down in Chechnya: {place: {hex: \"CCRR\", tokens: N}}, and "
        "under secret: regulars: the hexes of your regular tokens",
        awaiting=_chechen, validate=lambda d, s, f, o: setup.check_chechen(d, s, o),
        resolve=_resolve_chechen, bot=lambda d, s, f, r: setup.bot_chechen(d, s, r),
        keep_secret=True, secret=setup.SECRET),  # which tokens are regulars: hidden from the Russian (10.6)
    "russian-movement": PhaseRules(
        "Russian Movement Segment (8.0)",
        "move your units: {move: {units: [...], path: [\"CCRR\", ...]}}, "
        "{helicopter: {unit: UNIT, to: \"CCRR\"}}, {gunship: \"CCRR\"}, or nothing",
        awaiting=_russian, validate=_russian_checks(_russian_moves), resolve=_resolve_moves,
        bot=_russian_bot, default_orders=_arrivals_only(RUSSIAN), secret=ahead.schema(None, SECRET_MOVES)),
    "chechen-ambush": PhaseRules(
        "Chechen Ambush Segment (14.0)",
        "ambush Russian units in your zones of control: {ambush: {from: \"CCRR\", target: "
        "\"CCRR\", support: \"CCRR\", leader: LEADER}}; ready free ambushes on units that "
        "retreat: {free: {from: \"CCRR\", support: \"CCRR\"}}; or nothing",
        awaiting=_chechen, validate=_check_ambushes, resolve=_resolve_ambushes,
        bot=lambda d, s, f, r: ambush.bot(d, s, r), default_orders=lambda d, s, f, r: {"orders": []}),
    "russian-combat": PhaseRules(
        "Russian Combat Segment (10.0)",
        "attack hexes of Chechen units next to yours: {attack: {target: \"CCRR\", units: [...], "
        "supports: N, advance: [...]}}, the markers' kinds under secret: supports: "
        "{\"CCRR\": [KIND, ...]}, or nothing",
        awaiting=_russian, validate=_russian_checks(combat.read_attacks),
        resolve=_resolve_attacks,
        bot=lambda d, s, f, r: combat.bot(d, s, r), default_orders=lambda d, s, f, r: {"orders": []},
        secret=ahead.schema(combat.SECRET_KINDS, SECRET_RUSSIAN), idle=asked.russian_attack),
    "chechen-supports": PhaseRules(
        "Chechen supports in the Russian Combat Segment (10.9)",
        "back the defence of your attacked hexes: {support: {target: \"CCRR\", markers: N, "
        "leaders: [...]}} (two in all at most), or nothing",
        awaiting=_chechen, validate=_checks(combat.read_defence), resolve=_resolve_defence,
        bot=lambda d, s, f, r: combat.bot_defence(d, s, r),
        default_orders=lambda d, s, f, r: {"orders": []}, idle=asked.chechen_support),
    "chechen-movement": PhaseRules(
        "Chechen Movement and Combat Segments (8.0, 10.0)",
        "move your units: {move: {units: [t01, ...], path: [\"CCRR\", ...]}}, then attack "
        "hexes of Russian units next to where they end: {attack: {target: \"CCRR\", units: "
        "[t01, ...], advance: [...]}}, your markers and leaders under secret: supports: "
        "{\"CCRR\": {markers: N, leaders: [...]}}; or nothing",
        awaiting=_chechen, validate=_check_chechen_turn, resolve=_resolve_chechen_moves,
        bot=_chechen_bot, default_orders=_arrivals_only(CHECHEN),
        secret=ahead.schema(combat.SECRET_ANSWERS, SECRET_CHECHEN)),
    "chechen-combat": PhaseRules(
        "Chechen Combat Segment (10.0)",
        "attack hexes of Russian units next to yours: {attack: {target: \"CCRR\", units: [t01, "
        "...], advance: [...]}}, your markers and leaders under secret: supports: {\"CCRR\": "
        "{markers: N, leaders: [...]}} (or one such for each count the Russian may commit: "
        "{0: ..., 1: ..., 2: ...}), or nothing",
        awaiting=_chechen, validate=_checks(combat.read_chechen_attacks),
        resolve=_resolve_chechen_attacks, bot=lambda d, s, f, r: combat.bot_chechen(d, s, r),
        default_orders=lambda d, s, f, r: {"orders": []}, secret=combat.SECRET_ANSWERS,
        idle=asked.chechen_attack),
    "russian-supports": PhaseRules(
        "Russian supports in the Chechen Combat Segment (10.9)",
        "back the defence of your attacked hexes: {support: {target: \"CCRR\", markers: N}}, "
        "their kinds under secret: supports: {\"CCRR\": [KIND, ...]}, or nothing",
        awaiting=_russian, validate=_russian_checks(combat.read_russian_defence),
        resolve=_resolve_russian_defence,
        bot=lambda d, s, f, r: combat.bot_russian_defence(d, s, r),
        default_orders=lambda d, s, f, r: {"orders": []},
        secret=ahead.schema(combat.SECRET_KINDS, SECRET_RUSSIAN), idle=asked.russian_support),
    "end-of-turn": PhaseRules(
        "End of Turn Phase (12.0, 6.0, 15.0, 13.0)",
        "the Russian: {ceasefire: true}, {reinforce: [POOL_UNIT, {flip: UNIT}, ...]}, "
        "{strike: [LEADER, ...]}; the Chechen: {kidnap: true}; each optional, or nothing",
        awaiting=_both, validate=_check_end, resolve=_resolve_end,
        bot=lambda d, s, f, r: endturn.bot(d, s, f, r), default_orders=lambda d, s, f, r: {"orders": []},
        idle=asked.end_of_turn),
    "over": PhaseRules("Game over"),
})


def _phase(data: GameData, state: State, event: Event) -> None:
    corrections.check_phase(event, list(PHASES.phases))  # a correction may give it too
    state["phase"], state["turn"] = event["phase"], event["turn"]


def _told_phase(data: GameData, event: Event) -> str:
    return f"turn {event['turn']}: {PHASES.phases[event['phase']].title}"


def _told_not_asked(data: GameData, event: Event) -> str:
    return asked.describe(event["faction"], event["why"])


EVENTS.register(setup.APPLY, movement.APPLY, ambush.APPLY, combat.APPLY, endturn.APPLY, arrival.APPLY,
                leaders.APPLY, corrections.APPLY, ahead.APPLY, standing_.APPLY,
                {NOT_ASKED: recorded,  # a side with nothing legal to do in the segment
                 "phase": _phase})
EVENTS.describes(setup.DESCRIBE, movement.DESCRIBE, ambush.DESCRIBE, combat.DESCRIBE, endturn.DESCRIBE,
                 arrival.DESCRIBE, leaders.DESCRIBE, corrections.DESCRIBE, ahead.DESCRIBE,
                 standing_.DESCRIBE, {NOT_ASKED: _told_not_asked, "phase": _told_phase})

# the secret parts of those files where the campaign asks for the End of Turn in its own file
ASKED_SECRET: dict[str, Any] = {"russian-movement": None, "russian-combat": combat.SECRET_KINDS,
                                "russian-supports": combat.SECRET_KINDS,
                                "chechen-movement": combat.SECRET_ANSWERS}


class ChechenWar(TableGame):
    phases = PHASES
    id = "chechen_war"
    name = "Chechen War 1994-1996"

    def phase(self, data: GameData, state: State) -> Phase:
        """The table's phase; the secret part of a file without End of Turn orders where the
        campaign asks for them in their own file (ahead.py)."""
        shown = self.phases.phase(data, state)
        if shown.name in ASKED_SECRET and not ahead.on(state):
            return dataclasses.replace(shown, secret=ASKED_SECRET[shown.name])
        return shown
    # validate sees the sealed values the checker's key opens (pbem/orders.py): 8.2's
    # militia-only moves depend on which face-down units are militia
    sees_sealed = True

    def resolve(self, data: GameData, state: State, orders: dict[str, Orders], rng: Rng,
                secrets: Secrets | None = None) -> list[Event]:
        """The segment's events, then (11.0) any leader left in a hex with no Chechen unit
        back to the Underground Box, before the step moves on to the next segment."""
        events = self.phases.resolve(data, state, orders, rng, secrets)
        after = state
        for event in events:
            after = self.apply(data, after, event)
        alone = leaders.stranded(after)
        if alone is None:
            return events
        tail = len(events)
        while tail and events[tail - 1]["type"] in ("phase", "over"):
            tail -= 1
        return [*events[:tail], alone, *events[tail:]]

    def correct(self, data: GameData, state: State, event: Event,
                secrets: Secrets | None) -> list[Event]:
        """A correction as recorded (README "Corrections": reveal_token, hide_token)."""
        return corrections.correct(data, state, event, secrets)

    def describe(self, data: GameData) -> dict[str, Any]:
        g = data["game"]
        return {"id": self.id, "name": g["name"],
                "factions": [{"id": f["id"], "name": f["name"]} for f in g["factions"]],
                "options": [{"id": k, "default": v["default"], "help": v["help"],
                             **({"choices": list(v["choices"])} if "choices" in v else {})}
                            for k, v in g.get("options", {}).items()],
                "phases": list(PHASES.phases)}

    def check_data(self, data: GameData) -> list[str]:
        problems: list[str] = []
        try:
            b = board(data)
        except (ValueError, KeyError) as exc:
            return [str(exc)]
        for group, spec in data["units"]["setup"]["groups"].items():
            if spec.get("hex") is not None and spec["hex"] not in b.terrain:
                problems.append(f"units.yaml: setup: groups: {group}: hex {spec['hex']} is not on the map")
        for terrain in set(b.terrain.values()):
            if terrain not in data["tables"]["terrain"]:
                problems.append(f"tables.yaml: terrain: no entry for {terrain!r}, a terrain of map.yaml")
        regulars, militia = setup.tokens(data)
        if regulars > len(board_units(data, setup.REGULAR)) or militia > len(board_units(data, setup.MILITIA)):
            problems.append("units.yaml: setup: chechen: more units drawn than the cups hold")
        return problems

    def setup(self, data: GameData, options: dict[str, Any], rng: Rng) -> State:
        chosen = {o["id"]: options.get(o["id"], o["default"]) for o in self.describe(data)["options"]}
        supports: dict[str, dict[str, int]] = {RUSSIAN: {}, CHECHEN: {}}
        for marker in data["units"]["support_markers"].values():
            side = supports[marker["side"]]
            side[marker["kind"]] = side.get(marker["kind"], 0) + int(marker["count"])
        return {
            "turn": 0, "phase": "setup-russian", "options": chosen,
            "russians": {}, "tokens": {}, "cup": 0,
            "pool": sorted(u for u, v in units(data).items()
                           if v["side"] == RUSSIAN and v.get("arrival") == "reinforcement"),
            "morale": 9, "casualties": 0, "collateral": 0,  # 4.4
            "leaders": {leader: "underground" for leader in data["units"]["leaders"]},  # 4.2.2
            "supports": supports, "used_supports": {RUSSIAN: {}, CHECHEN: {}},
            "gunships": [], "standing": {},
            "attacks": [], "groznyi_attacked": False, "cup_known": [], "leaders_lost": 0,
            "recruits": {RUSSIAN: [], CHECHEN: []}, "ceasefire": {"declared": False, "turn": None},
            "kidnapped": False, "event": None,
            "over": False, "result": None,
        }

    def apply(self, data: GameData, state: State, event: Event) -> State:
        return EVENTS.apply(data, state, event)

    def view(self, data: GameData, state: State, who: str) -> dict[str, Any]:
        b = board(data)
        stacks: dict[str, list[str]] = {}
        for unit, where in sorted(state["russians"].items()):  # public (10.6), with values (2.8)
            told = order_of_battle.counter(data, unit, bool(where.get("reduced")))
            stacks.setdefault(b.label(where["hex"]), []).append(told)
        places = {"underground": "underground", "next_turn": "back next turn", "eliminated": "eliminated"}
        leaders = {data["units"]["leaders"][x]["name"]: places.get(where, b.label(where) if where in b.terrain
                                                                  else str(where))
                   for x, where in sorted(state["leaders"].items())}
        markers = "; ".join(f"{side}: " + (", ".join(f"{k} {n}" for k, n in sorted(state["supports"][side].items())
                                                      if int(n)) or "none")
                            for side in (RUSSIAN, CHECHEN))
        hidden = Counter(b.label(t["hex"]) for t in state["tokens"].values() if not t.get("revealed"))
        shown: dict[str, list[str]] = {}
        for _token, spec in sorted(state["tokens"].items()):
            if spec.get("revealed"):  # 10.6: face up once attacked (a ruling: until eliminated)
                shown.setdefault(b.label(spec["hex"]), []).append(units(data)[spec["unit"]]["name"])
        return {
            "turn": state["turn"], "segment": PHASES.phase(data, state).title,
            "Russian morale": state["morale"], "Russian casualties": state["casualties"],
            "collateral damage": state["collateral"],
            "Russian units": {h: ", ".join(us) for h, us in sorted(stacks.items())},
            "Chechen units (face down)": dict(sorted(hidden.items())),
            "Chechen units revealed": {h: ", ".join(us) for h, us in sorted(shown.items())},
            "Chechen units in the cup": state["cup"],
            "Chechen leaders": leaders,
            "support markers available": markers,
            "Russian recruitment box": ", ".join(units(data)[u]["name"] for u in state["recruits"][RUSSIAN])
            or "empty",
            "Chechen recruitment box (face down)": len(state["recruits"][CHECHEN]),
            "ceasefire turn": state["ceasefire"]["turn"] or "none declared",
            **({"your reinforcement pool (13.1)": ", ".join(
                f"{units(data)[u]['name']} ({units(data)[u]['cf']}-{units(data)[u]['mf']})"
                for u in state["pool"]) or "empty"} if who in (RUSSIAN, "referee") else {}),
            # the Chechen's tokens, those face up with the unit the combat revealed (10.6)
            **({"your tokens": {t: b.label(v["hex"]) + (f", face up: {units(data)[v['unit']]['name']}"
                                                        if v.get("revealed") else "")
                                for t, v in sorted(state["tokens"].items())},
                "your recruitment box": [n["id"] if isinstance(n, dict) else str(n)
                                         for n in state["recruits"][CHECHEN]]}
               if who in (CHECHEN, "referee") else {}),
        }

    def report(self, data: GameData, view: dict[str, Any], before: dict[str, Any] | None,
               who: str, style: dict[str, Any], secrets: list[dict[str, Any]]) -> dict[str, Any]:
        """The map, the Chechen's own units as his key opens them, and the reader's order
        of battle (rules/report.py, rules/order_of_battle.py)."""
        return dict(report_.report(data, view, who, secrets))

    def template(self, data: GameData, state: State, faction: str, rng: Rng) -> Orders:
        """The bot's file, but no attack and no End of Turn order: the Chechen's movement
        file places his recruits (13.3: they must be) and attacks nothing he did not choose."""
        bot = ahead.without(self.bot(data, state, faction, rng))
        if state.get("phase") == "chechen-movement":
            return {"orders": [o for o in bot["orders"] if "attack" not in o]}
        return bot

    def orders_sections(self, data: GameData, state: State, faction: str) -> list[tuple[str, list[int] | None]]:
        """The sections of ORDERS.md whose examples the side's orders template shows in
        this segment (pbem.game.order_forms): with the End of Turn orders a file may give
        ahead (ahead.py)."""
        phase = str(state.get("phase"))
        own = SIDE_SECTIONS.get(phase, {}).get(faction) or ORDERS_SECTIONS.get(phase, [])
        if ahead.on(state) and phase in ahead.PHASES.get(faction, ()):  # its End of Turn orders
            return [*own, ("End of the turn", [2 if faction == RUSSIAN else 3])]
        return own

    def standing_offer(self, data: GameData, state: State, faction: str) -> list[dict[str, Any]]:
        """The Russian's standing instructions (ORDERS.md, "Movement") with their values in
        force, in the segments whose file records them (movement, combat, supports)."""
        return standing_.offer(state, faction) if state["phase"] in standing_.PHASES else []

    def headlines(self, data: GameData, events: list[Event]) -> list[str]:
        """What the turn's summary says of a step: ambushes and combats with their results,
        hexes taken, leaders lost, morale, the random event, the ceasefire, reinforcements
        (counts only for the Chechen's), the end (rules/headlines.py)."""
        return headlines_.headlines(data, events)

    def boxes(self, data: GameData, state: State, events: list[Event]) -> list[dict[str, Any]]:
        """Each combat and each ambush of a step as a table: the forces, supports, leaders,
        shifts and modifiers with their rules, every die and its result (rules/boxes.py)."""
        return boxes_.boxes(data, state, events)

    def todo(self, data: GameData, state: State, faction: str) -> list[str]:
        """The units to set up and where (4.2.1, 4.3.1; the Chechen's tokens as counts,
        4.2.2), the reinforcements to place now (13.2, 13.3), the attacks a supports file
        answers (10.9): rules/headlines.py."""
        return headlines_.todo(data, state, faction)

    def summary(self, data: GameData, event: Event) -> str:
        return EVENTS.describe(data, event) or str(event["type"])


def board_units(data: GameData, nationality: str) -> list[str]:
    return [u for u, v in units(data).items() if v["nationality"] == nationality]


GAME = ChechenWar()
