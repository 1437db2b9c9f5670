"""The Chechen War's segments (pbem.kit.phases): each segment's table entry in PHASES, who
is awaited, what checks a file (validate), what the file does (resolve), what a bot and a
silent side send, with the secret parts of the files (SECRET_*, ASKED_SECRET); the segment
as the game shows it (`phase`) and the step's resolution with the leaders a step strands
(`resolve`, 11.0); the table's events (`phase`, which moves the game on, and `not_asked`,
a side with nothing legal to do: asked.py), and 3.1's sudden death after each combat. The
rules of each segment are in their modules (setup.py, movement.py, arrival.py, ambush.py,
combat.py, leaders.py, endturn.py, ahead.py, standing.py)."""

from __future__ import annotations

import dataclasses
import functools
from collections.abc import Callable
from typing import Any

from pbem.game import Event, GameData, Orders, Phase, Problem, Rng, Secrets, State
from pbem.kit.events import Apply, Describe, recorded
from pbem.kit.phases import NOT_ASKED, PhaseRules, PhaseTable

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
    setup,
    standing,
)
from .board import CHECHEN, RUSSIAN, ceasefire_turn, folding
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
    return [*standing.record(state, mine), *events, *ahead.seal(state, RUSSIAN, mine.get("secret"), secrets),
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
        standing.check(data, state, orders.get("standing"), problems)
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
    return [*standing.record(state, mine), *declared, *ahead.seal(state, RUSSIAN, mine.get("secret"), secrets),
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
    fought = [*standing.record(state, mine), *ahead.seal(state, RUSSIAN, mine.get("secret"), secrets),
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
        work = EVENTS.apply(data, work, e)
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
    # a correction may give it too; the game ends by its `over` event alone (3.1, 3.2)
    corrections.check_phase(event, [p for p in PHASES.phases if p != "over"])
    state["phase"], state["turn"] = event["phase"], event["turn"]


def _told_phase(data: GameData, event: Event) -> str:
    return f"turn {event['turn']}: {PHASES.phases[event['phase']].title}"


def _told_not_asked(data: GameData, event: Event) -> str:
    return asked.describe(event["faction"], event["why"])


APPLY: dict[str, Apply[GameData]] = {NOT_ASKED: recorded,  # a side with nothing legal to do in the segment
                                     "phase": _phase}
DESCRIBE: dict[str, Describe[GameData]] = {NOT_ASKED: _told_not_asked, "phase": _told_phase}

# the secret parts of those files where the campaign asks for the End of Turn in its own file
ASKED_SECRET: dict[str, Any] = {"russian-movement": None, "russian-combat": combat.SECRET_KINDS,
                                "russian-supports": combat.SECRET_KINDS,
                                "chechen-movement": combat.SECRET_ANSWERS}


def phase(data: GameData, state: State) -> Phase:
    """The table's phase; the secret part of a file without End of Turn orders where the
    campaign asks for them in their own file (ahead.py)."""
    shown = PHASES.phase(data, state)
    if shown.name in ASKED_SECRET and not ahead.on(state):
        return dataclasses.replace(shown, secret=ASKED_SECRET[shown.name])
    return shown


def resolve(data: GameData, state: State, orders: dict[str, Orders], rng: Rng,
            secrets: Secrets | None) -> list[Event]:
    """The segment's events, then (11.0) any leader left in a hex with no Chechen unit
    back to the Underground Box, before the step moves on to the next segment."""
    events = PHASES.resolve(data, state, orders, rng, secrets)
    after = state
    for event in events:
        after = EVENTS.apply(data, after, event)
    alone = leaders.stranded(after)
    if alone is None:
        return events
    tail = len(events)
    while tail and events[tail - 1]["type"] in ("phase", "over"):
        tail -= 1
    return [*events[:tail], alone, *events[tail:]]
