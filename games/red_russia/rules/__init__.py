"""Red Russia: The Russian Civil War 1918-1921, refereed by pbem.

Rules: ../shared/rules/red-russia-rules.txt; each function names the rule it implements.
The phases are one table (PHASE_TABLE, pbem.kit.phases): set-up (3.0, 20.x), purchase and
politics (4.1-4.3), initiative (4.4), each faction's action phase with its battles (4.5, 7.x, 8.x),
the victory phase (4.6, 16.x) and winter (4.7-4.9).
"""

from __future__ import annotations

import copy
from collections.abc import Callable
from typing import Any

from pbem.game import Event, GameData, Orders, Problem, Rng, Secrets, State
from pbem.kit import ask
from pbem.kit import standing as standing_kit
from pbem.kit.fold import Fold
from pbem.kit.orders import order_items
from pbem.kit.phases import PhaseRules, PhaseTable, TableGame, no_orders

from . import (
    battle,
    cards,
    combat,
    decisions,
    economy,
    events,
    famine,
    fold,
    forces,
    minors,
    movement,
    naval,
    order_of_battle,
    play,
    politics,
    setup,
    siege,
    turn,
    wasted,
)
from . import board as board_
from . import boxes as boxes_
from . import headlines as headlines_
from . import report as report_
from . import standing as standing_
from .board import MAJORS, WHITES
from .common import commander, defenders_of
from .fold import apply as apply_event
from .fold import apply_all as apply_events

# the composition root: every rules module's events, in one table (rules/fold.py)
fold.EVENTS.register(events.APPLY, economy.APPLY, politics.APPLY, cards.APPLY, decisions.APPLY,
                     play.APPLY, minors.APPLY, famine.APPLY)
play.VOID.append(wasted.void_card)  # pbem plays no void card for a player (ruling 63)

STANDING_KEYS: dict[str, Any] = {
    # 10.8.1: Lenin in Moscow lets the Reds add or subtract 2 from their initiative roll
    "lenin_initiative": turn.LENIN_CHOICES,
    # 8.4 when attacked: retreat before combat where the rules allow it
    "retreat_before_combat": {"never": 0, "always": 1},
    # 8.4, 8.7: zones to retreat to, in order of preference
    "retreat_to": list,
    # 8.6: units (ids) or types (inf, cav, tank, air) to take losses first
    "loss_order": list,
    # 8.3: how many rounds an invasion is fought before the attacker stops
    "invasion_rounds": int,
    # 8.7: retreat by choice after a round when outnumbered (default never)
    "voluntary_retreat": {"never": 0, "when_outnumbered": 1},
    # 10.82: how many Red infantry units Stalin's commissars drive on (0, 1 or 2)
    "stalin_commissars": {0: 0, 1: 1, 2: 2},
    # 5.5: units (ids or types) to supply first when a zone cannot feed them all
    "supply_order": list,
    # 5.6: units (ids or types) to lose a step first when maintenance cannot be paid
    "unpaid_order": list,
    # 14.2: battle cards (ids) to play when a battle you defend begins
    "battle_cards": list,
    # 14.2: pbem plays at the start of its phase every card that needs no choice
    "play_cards": {"never": 0, "auto": 1},
    # 10.2: leaders (ids) who do not lead your units when you are attacked (no 10.4 test)
    "leaders_stay_out": list,
    # 14.4, 14.73, 14.74: discard in the card phase every card you can never play
    "discard_dead": bool,
    # 14.2: cards to play at a moment of another's action phase (checked in play.py)
    "play_when": dict,
    # 13.54: once eliminated, play on with Poland as a major faction when the rules allow
    "play_poland": bool,
    # 8.92: out of your phase, search the enemy fleets that sail where yours lie
    "naval_search": {"never": 0, "always": 1},
    # 19.2: the zones struck by famine the Reds try to save, in order, one rail point each
    "famine_relief": list,
}

PHASES: dict[str, tuple[str, str]] = {
    "setup-place": ("Set-up: White placement (3.0)",
                    "place every drawn unit and leader, your minors (20.5) and the allied units you drew"),
    "setup-place-red": ("Set-up: Red placement (3.0)",
                        "place every drawn unit and leader, and Makhno's anarchists (20.5)"),
    "setup-reduce": ("Set-up: first reductions (3.0)",
                     "reduce one of your own units; the White faction drawn also names Red units"),
    "setup-reduce-red": ("Set-up: Red reduces the Whites (3.0)",
                         "reduce one unit of each White faction"),
    "purchase": ("Card phase, purchase and politics (4.1-4.3)",
                 "discard cards, place the units arriving this turn, buy and repair units, "
                 "call on the Allies and the minor factions"),
    "initiative": ("Initiative (4.4)", "dice are rolled by pbem"),
    "action": ("Action phase: movement (4.5, 7.0)", "move your stacks"),
    "decision": ("Before combat: retreat? (8.4)", "answer the questions of the battles declared against you"),
    "victory": ("Victory phase (4.6)", "victory points are counted by pbem"),
    "winter": ("Winter: attrition, maintenance, money and manpower (4.7-4.9)",
               "pbem applies them, following your standing instructions"),
    "over": ("Game over", ""),
}


# ORDERS.md's sections (their headings' start) and yaml blocks each phase's orders take
ORDERS_SECTIONS: dict[str, list[tuple[str, list[int] | None]]] = {
    "setup-place": [("Set-up", [0])], "setup-place-red": [("Set-up", [0])],
    "setup-reduce": [("Set-up", [1])], "setup-reduce-red": [("Set-up", [1])],
    "purchase": [("Card phase", [0])],
    "initiative": [("Questions by mail", [0])],
    "action": [("Action phase: movement", None), ("Action phase: minor", None),
               ("Action phase: fleets", None), ("Action phase: battles", None)],
    "decision": [("Questions by mail", [0])],
}


def name_takes_standing(phase: str) -> bool:
    """The phases whose orders file carries standing instructions (the bot sets them)."""
    return phase in ("purchase", "action")


def _bot_standing(faction: str, state: State) -> dict[str, Any]:
    """What a sensible player sets once, so that a turn needs no other round trip."""
    standing: dict[str, Any] = {"retreat_before_combat": "never", "invasion_rounds": 3,
                                "play_cards": "auto"}
    if faction != "red":
        standing["play_poland"] = True  # 13.54 play on with Poland if eliminated
    else:
        standing["lenin_initiative"] = "+2"
        if state["options"].get("famine"):  # 19.2: rail points only for the two capitals
            standing["famine_relief"] = ["Moscow", "Petrograd"]
    return standing


def _act(data: GameData, state: State, actor: str, body: dict[str, Any], rng: Rng,
         secrets: Secrets | None, answers: dict[str, Any]) -> list[Event]:
    """An action phase (or its rest, once the defenders answered), then the next phase."""
    found, problems = action(data, state, actor, body, rng, secrets, answers)
    if problems:
        raise ValueError(f"{actor}: {problems[0].message}")
    if found and found[-1]["type"] == "asked":
        return found  # the phase waits for the defenders (8.4)
    for e in found:
        state = apply_event(data, state, e)
    following = turn.next_actor(state)
    if following:
        return [*found, {"type": "phase", "turn": state["turn"], "phase": "action", "actor": following}]
    return [*found, {"type": "phase", "turn": state["turn"], "phase": "victory"}]


def _needed(secrets: Secrets | None) -> Secrets:
    if secrets is None:
        raise ValueError("dealing and drawing cards needs the referee's secrets (pbem.crypto.sealed)")
    return secrets


def _fold(data: GameData, state: State, events: list[Event]) -> State:
    for e in events:
        state = apply_event(data, state, e)
    return state


def action(
    data: GameData, state: State, faction: str, body: dict[str, Any], rng: Rng | None = None,
    secrets: Secrets | None = None, answers: dict[str, Any] | None = None,
) -> tuple[list[Event], list[Problem]]:
    """4.5: all the moves first (7.x), then the battles in the order given (8.2)."""
    events, problems = movement.plan(data, state, faction, body, rng)
    work = state
    for e in events:
        work = apply_event(data, work, e)
    later = [p for p in play.queued(data, work, {faction: body}) if play.after_moves(data, p)]
    if rng is not None and secrets is not None and later:  # 14.2 Coup de main, battle cards
        found = play.play_segment(data, work, later, "action", secrets, rng, auto_for=[])
        events += found
        work = _fold(data, work, found)
    if rng is not None and secrets is not None and not answers:  # 14.2 the others' cards
        found = play.triggered(data, work, "after_moves", faction, secrets, rng)
        events += found
        work = _fold(data, work, found)
    if faction == "red":  # 10.83 Trotsky in company, at the start or on the way
        met = battle.trotsky_distracted(board_.board(data), state, events)
        if met is not None:
            events.append(met)
            work = apply_event(data, work, met)
    attacks = [(i, arg) for i, _verb, arg in order_items(body, ("attack",), [], others=("move", "siege"))]
    sieges = [(i, arg) for i, _verb, arg in order_items(body, ("siege",), [], others=("move", "attack"))]
    b = board_.board(data)
    specs = combat.check_attacks(b, work, faction, attacks, body.get("secret"), problems)
    if rng is None:
        # 9.1 sieges after the battles: a zone attacked this phase may be cleared by then
        secret = body.get("secret")
        spent = 0
        if isinstance(secret, dict) and "sealed" not in secret:
            spent = sum(v for v in (secret.get("spend") or {}).values() if isinstance(v, int))
        siege.check_sieges(b, work, faction, sieges, work["money"][faction] - spent, problems,
                            after_battle={s["zone"] for s in specs})
        return events, problems
    if problems:
        # the orders were legal when received (checked without dice): a battle that this
        # phase's own dice made impossible (a tank broken down, a transport turned back at
        # sea, 8.91, 8.92) is not fought, and the log says why
        specs = []
        for i, arg in attacks:
            trial: list[Problem] = []
            found = combat.check_attacks(b, work, faction, [(i, arg)], {"sealed": "received"}, trial)
            if trial:
                events.append({"type": "note", "zone": str(arg.get("zone", "")) if isinstance(arg, dict) else "",
                               "text": f"no battle: {trial[0].message}"})
            specs += [] if trial else found
        problems = []
    questions, notes = decisions.retreat_questions(work, faction, specs, answers or {}, b, data)
    if not answers:  # once: a phase resumed with the answers says it no more
        events += notes
    if questions:  # 8.4 asked by mail: the battles wait for the answers
        return [*events, decisions.asked_event(faction, body, questions)], problems
    fought, work = combat.resolve_attacks(b, data, work, faction, specs, body.get("secret"), rng,
                                          secrets, answers or {})
    events += fought
    if secrets is not None:  # 14.2 e.g. a Coup de main where a battle left no defender
        found = play.triggered(data, work, "after_battles", faction, secrets, rng)
        events += found
        work = _fold(data, work, found)
    ok: list[Problem] = []
    siege_specs = siege.check_sieges(b, work, faction, sieges, work["money"][faction], ok)
    if ok:  # a battle changed the position: the sieges it made impossible do not happen
        events.append({"type": "note", "zone": "", "text": "sieges not possible after the battles: "
                       + "; ".join(p.message for p in ok)})
        siege_specs = [s for s in siege_specs if not any(s["zone"] in p.message for p in ok)]
    besieged, work = siege.resolve_sieges(b, data, work, faction, siege_specs, rng)
    events += besieged
    events += siege.lift_sieges(b, work)
    return events, problems


def _check_options(data: GameData) -> list[str]:
    """game.yaml options: `requires` names other options (19.0: famine needs railways)."""
    options = data["game"].get("options") or {}
    problems = []
    for key, spec in options.items():
        for needed in spec.get("requires") or []:
            if needed not in options or needed == key:
                problems.append(f"game.yaml: options.{key}.requires: {needed!r} is not another option")
    return problems


def _standing_check(key: str, spec: Any) -> standing_kit.Check:
    """The check of one instruction of STANDING_KEYS (pbem.kit.standing); `ask` asks by mail
    where the instruction may (rules/decisions.py)."""
    choices = None if spec in (dict, list, bool, int) else standing_kit.one_of(list(spec), key)

    def test(data: GameData, state: State, faction: str, value: Any) -> str | standing_kit.Placed | None:
        if decisions.standing_ok(key, value) or spec is dict:
            return None  # a structured instruction its own module checks
        if spec is list:
            ok = isinstance(value, list) and all(isinstance(v, str) for v in value)
            return None if ok else f"{key} is a list of names"
        if spec is bool:
            return None if isinstance(value, bool) else f"{key} is true or false"
        if spec is int:
            ok = not isinstance(value, bool) and isinstance(value, int) and 1 <= value <= battle.MAX_ROUNDS
            return None if ok else f"{key} is a number of rounds, 1 to {battle.MAX_ROUNDS}"
        assert choices is not None
        return choices(data, state, faction, value)
    return test


STANDING_CHECKS = {key: _standing_check(key, spec) for key, spec in STANDING_KEYS.items()}


fold.EVENTS.describes(events.DESCRIBE, economy.DESCRIBE, politics.DESCRIBE, cards.DESCRIBE,
                      decisions.DESCRIBE, play.DESCRIBE, naval.DESCRIBE, minors.DESCRIBE,
                      famine.DESCRIBE)


def describe_event(data: GameData, e: Event) -> str:
    """An event's line for the log and the reports: its description in the event table, or
    its fields for a type none tells."""
    told = fold.EVENTS.describe(board_.board(data), e)
    if told is not None:
        return told
    kind = e.get("type")
    return f"{kind}: " + ", ".join(f"{k}={v}" for k, v in e.items() if k != "type")



# ---------------------------------------------------------------------------------------
# the phases (4.0 the sequence of play), one row each: who is awaited, the orders each
# takes, how it resolves, the bot's orders and what a faction that sent nothing does


def _whites_to_place(data: GameData, state: State) -> tuple[str, ...]:
    return tuple(f for f in WHITES if setup.to_place(state, f))


def _red(data: GameData, state: State) -> tuple[str, ...]:
    return ("red",)


def _majors(data: GameData, state: State) -> tuple[str, ...]:
    return MAJORS


def _then(found: list[Event], turn_: int, phase: str) -> list[Event]:
    return [*found, {"type": "phase", "turn": turn_, "phase": phase}]


def _resolve_place(next_phase: str) -> Callable[..., list[Event]]:
    def resolve(data: GameData, work: State, orders: dict[str, Orders], rng: Rng,
                secrets: Secrets | None) -> list[Event]:
        return _then(setup.resolve_place(data, work, orders), 0, next_phase)
    return resolve


def _resolve_reduce(data: GameData, work: State, orders: dict[str, Orders], rng: Rng,
                    secrets: Secrets | None) -> list[Event]:
    return _then(setup.resolve_reduce(data, work, orders), 0, "setup-reduce-red")


def _resolve_reduce_red(data: GameData, work: State, orders: dict[str, Orders], rng: Rng,
                        secrets: Secrets | None) -> list[Event]:
    found = setup.resolve_reduce(data, work, orders)
    dealt = cards.deal(data, apply_events(data, work, found), _needed(secrets))
    return _then(found + dealt, 1, "purchase")


def _shown_reduce(data: GameData, state: State, title: str, prompt: str) -> tuple[str, str]:
    return title, f"{prompt} (drawn: {state['white_reducer']})"


def _validate_place(data: GameData, state: State, faction: str, orders: Orders) -> list[Problem]:
    return setup.validate_place(data, state, faction, orders)


def _validate_reduce(data: GameData, state: State, faction: str, orders: Orders) -> list[Problem]:
    return setup.validate_reduce(data, state, faction, orders)


def _bot_place(data: GameData, state: State, faction: str, rng: Rng) -> Orders:
    return setup.bot_place(data, state, faction, rng)


def _bot_reduce(data: GameData, state: State, faction: str, rng: Rng) -> Orders:
    return setup.bot_reduce(data, state, faction, rng)


def _purchasing(data: GameData, state: State) -> tuple[str, ...]:
    return tuple(turn.active(state))


def _validate_purchase(data: GameData, state: State, faction: str, orders: Orders) -> list[Problem]:
    """One file for 4.2 purchase and 4.3 politics, with the card phase's discards (14.4)
    and the cards played in any of them (14.2)."""
    problems = economy.validate_purchase(data, state, faction, orders)
    problems += politics.validate_political(data, state, faction, orders)
    discards = [(i, arg) for i, _verb, arg in order_items(orders, ("discard",), [], others=cards.OTHERS)]
    problems += cards.validate_discard(data, state, faction, discards)
    problems += play.validate(data, state, faction, orders, "purchase",
                              others=(*[v for v in cards.OTHERS if v != "play"], "discard"))
    return problems


def _resolve_purchase(data: GameData, work: State, orders: dict[str, Orders], rng: Rng,
                      secrets: Secrets | None) -> list[Event]:
    # 4.1 the card phase, 4.2 purchase, then 4.3 the political phase: ORI (4.31),
    # foreign intervention (4.32), minor factions (4.33), each in initiative order
    # 14.2 the cards played at the start of each of these phases, in that order
    plays = play.queued(data, work, orders)
    b = board_.board(data)
    segments: tuple[tuple[str, str, list[Callable[[State], list[Event]]]], ...] = (
        ("4.1", "card phase", [
            lambda w: play.play_segment(data, w, plays, "card", _needed(secrets), rng),
            lambda w: cards.card_phase(data, w, orders, _needed(secrets), turn.is_winter(data, w))]),
        ("4.2", "purchase", [
            # 12.3 conquest and liberation as the last turn left them; 12.42 the
            # minors' own repairs, and their new units in spring
            lambda w: minors.conquest(b, w),
            lambda w: minors.upkeep(b, w, turn.is_season(data, w, "Spring")),
            lambda w: play.play_segment(data, w, plays, "purchase", _needed(secrets), rng),
            lambda w: economy.resolve_purchase(data, w, orders)]),
    )
    fold = Fold(lambda s, e: apply_event(data, s, e), work)
    for rule, title, steps in segments:  # each step sees what the one before did
        fold.emit({"type": "segment", "rule": rule, "name": title})
        for step in steps:
            fold.take(step(fold.state))
    fold.emit({"type": "segment", "rule": "4.3", "name": "political phase"})
    fold.take(play.play_segment(data, fold.state, plays, "political", _needed(secrets), rng))
    later = [p for p in plays if cards.deck(data)[p["card"]]["phase"] == "initiative"]
    if later:  # played at the start of 4.4 (14.2)
        fold.emit({"type": "cards_queued", "plays": later})
    fold.take(politics.ori_phase(data, fold.state, rng))
    fold.take(politics.intervention(data, fold.state, orders, rng))
    fold.take(politics.minor_activation(data, fold.state, orders, rng))
    return _then(fold.events, fold.state["turn"], "initiative")


def _bot_purchase(data: GameData, state: State, faction: str, rng: Rng) -> Orders:
    bought = economy.bot_purchase(data, state, faction, rng)
    bought["orders"] += politics.bot_political(data, state, faction, rng)["orders"]
    bought["standing"] = _bot_standing(faction, state)
    if cards.holder(state, faction) == faction:
        bought["standing"]["discard_dead"] = True  # 14.73, 14.74
    return bought


def _absent_purchase(data: GameData, state: State, faction: str, rng: Rng) -> Orders:
    """Arrivals are placed; nothing is bought."""
    body = economy.bot_purchase(data, state, faction, rng)
    return {"orders": [o for o in body["orders"] if "place" in o]}


def _hold(data: GameData, state: State, faction: str, rng: Rng) -> Orders:
    """Hold; stand and fight (8.4); Lenin's default, no modifier (10.8.1)."""
    return {"orders": []}


def _resolve_winter(data: GameData, work: State, orders: dict[str, Orders], rng: Rng,
                    secrets: Secrets | None) -> list[Event]:
    """4.7 attrition, 4.8 maintenance, 4.9 money and manpower."""
    fold = Fold(lambda s, e: apply_event(data, s, e), work)
    fold.emit({"type": "segment", "rule": "4.7", "name": "winter attrition"})
    fold.take(economy.winter_attrition(data, fold.state, rng))
    fold.emit({"type": "segment", "rule": "4.8", "name": "maintenance"})
    fold.take(economy.maintenance(data, fold.state))
    fold.emit({"type": "segment", "rule": "4.9", "name": "money and manpower"})
    found = economy.collection(data, fold.state)
    found += famine.ended(fold.state)  # 19.2 the famine lasts until this collection
    return _then(fold.events + found, fold.state["turn"] + 1, "purchase")


def _lenin_awaited(data: GameData, state: State) -> tuple[str, ...]:
    return ("red",) if decisions.lenin_asked(state) else ()


def _shown_initiative(data: GameData, state: State, title: str, prompt: str) -> tuple[str, str]:
    if decisions.lenin_asked(state):
        prompt = "Lenin is in Moscow: add or subtract 2 from your initiative roll, or neither (10.8.1)"
    return title, prompt


def _validate_initiative(data: GameData, state: State, faction: str, orders: Orders) -> list[Problem]:
    if decisions.lenin_asked(state) and faction == "red":
        return turn.validate_lenin(orders)
    return no_orders("initiative")


def _resolve_initiative(data: GameData, work: State, orders: dict[str, Orders], rng: Rng,
                        secrets: Secrets | None) -> list[Event]:
    events: list[Event] = [{"type": "segment", "rule": "4.4", "name": "initiative"}]
    found = play.play_segment(data, work, work["cards"].get("queued", []), "initiative",
                              _needed(secrets), rng)
    if work["cards"].get("queued"):
        found.append({"type": "cards_queued", "plays": []})
    events += found
    work = apply_events(data, work, found)
    if decisions.lenin_asked(work):  # 10.8.1 the answer the Reds sent for this turn
        choice = turn.lenin_choice(orders.get("red", {}))
        work = {**work, "standing": {**work["standing"],
                                     "red": {**work["standing"]["red"], "lenin_initiative": choice}}}
    events += turn.initiative(data, work, rng)
    order = events[-1]["order"]
    return [*events, {"type": "phase", "turn": work["turn"], "phase": "action", "actor": order[0]}]


def _bot_initiative(data: GameData, state: State, faction: str, rng: Rng) -> Orders:
    return {"orders": [{"decide": {"lenin_initiative": "+2"}}]}  # 10.8.1


def _actor(data: GameData, state: State) -> tuple[str, ...]:
    return (state["actor"],)


def _shown_action(data: GameData, state: State, title: str, prompt: str) -> tuple[str, str]:
    return f"{title}, {data['game']['factions'][MAJORS.index(state['actor'])]['name']}", prompt


def _validate_action(data: GameData, state: State, faction: str, orders: Orders) -> list[Problem]:
    return action(data, state, faction, orders)[1] + play.validate(
        data, state, faction, orders, "action", others=("attack", "siege", *movement.ORDER_VERBS))


def _resolve_action(data: GameData, work: State, orders: dict[str, Orders], rng: Rng,
                    secrets: Secrets | None) -> list[Event]:
    actor = work["actor"]
    fold = Fold(lambda s, e: apply_event(data, s, e), work)
    fold.emit({"type": "segment", "rule": "4.5", "name": f"action phase of {actor}"})
    # 14.2 the active player's action cards, before the moves
    plays = [p for p in play.queued(data, work, {actor: orders.get(actor, {})})
             if not play.after_moves(data, p)]
    fold.take(play.play_segment(data, fold.state, plays, "action", _needed(secrets), rng,
                                auto_for=[cards.holder(fold.state, actor)]))
    fold.take(play.triggered(data, fold.state, "phase_start", actor, _needed(secrets), rng))  # 14.2
    return fold.events + _act(data, fold.state, actor, orders.get(actor, {}), rng, secrets, {})


def _bot_action(data: GameData, state: State, faction: str, rng: Rng) -> Orders:
    body: Orders = {"orders": movement.bot(data, state, faction, rng)}
    _bot_attacks(data, state, faction, body, rng)
    body["standing"] = _bot_standing(faction, state)
    return body


def _bot_attacks(data: GameData, state: State, faction: str, body: Orders, rng: Rng) -> None:
    """8.2, 8.3: attack where the odds look good and the money allows it."""
    work = apply_events(data, state, movement.plan(data, state, faction, body)[0])
    money = work["money"][faction]
    spend: dict[str, int] = {}
    for zone in sorted({p["zone"] for pid, p in work["units"].items()
                        if p["status"] == "map" and commander(work, pid) == faction}):
        if zone not in board_.board(data).zones or not defenders_of(work, zone, faction):
            continue
        mine = [u for u in forces.commanded(work, zone, faction)
                if work["units"][u]["type"] in ("inf", "cav", "tank")]
        if not mine:
            continue
        if minors.free_force(work, forces.commanded(work, zone, faction)):
            body["orders"].append({"attack": {"zone": zone}})  # 12.41 nothing to spend
            continue
        cost = rng.choice(f"bot:spend:{faction}:{zone}", [1, 3, 3, 5])
        if cost > money:
            continue
        money -= cost
        spend[zone] = cost
        body["orders"].append({"attack": {"zone": zone}})
    if spend:
        body["secret"] = {"spend": spend}
    # 9.1 besiege the zones the moves reached that hold no enemy
    b = board_.board(data)
    for zone in sorted({p["zone"] for pid, p in work["units"].items()
                        if p["status"] == "map" and commander(work, pid) == faction
                        and p["type"] in ("inf", "cav", "tank")}):
        if zone in spend or zone not in b.zones:
            continue
        trial: list[Problem] = []
        siege.check_sieges(b, work, faction, [(0, {"zone": zone, "rounds": 2})], money, trial)
        if not trial and money >= 2 * forces.siege_cost(b):
            money -= 2 * forces.siege_cost(b)
            body["orders"].append({"siege": {"zone": zone, "rounds": 2}})


def _asked(data: GameData, state: State) -> tuple[str, ...]:
    return tuple(decisions.awaiting(state))


def _shown_decision(data: GameData, state: State, title: str, prompt: str) -> tuple[str, str]:
    return title, decisions.prompt(state)


def _validate_decision(data: GameData, state: State, faction: str, orders: Orders) -> list[Problem]:
    return decisions.validate(state, faction, orders, board_.board(data))


def _resolve_decision(data: GameData, work: State, orders: dict[str, Orders], rng: Rng,
                      secrets: Secrets | None) -> list[Event]:
    """8.4 the answers came: the battles are fought."""
    asked = work["asked"]
    answered = decisions.answered_event(work, decisions.answers(orders))
    return [answered, *_act(data, apply_event(data, work, answered), asked["actor"], asked["orders"],
                            rng, secrets, answered["answers"])]


def _bot_decision(data: GameData, state: State, faction: str, rng: Rng) -> Orders:
    """8.4: stand and fight."""
    return {"orders": [{"decide": {"zone": q["zone"], "retreat": False}}
                       for q in ask.questions(state, faction)]}


def _resolve_victory(data: GameData, work: State, orders: dict[str, Orders], rng: Rng,
                     secrets: Secrets | None) -> list[Event]:
    events: list[Event] = [{"type": "segment", "rule": "4.6", "name": "victory"}]
    # 17.5 the modifiers earned this turn, for the next political phase
    events.append(politics.ori_mods_event(data, work, work.get("turn_events", [])))
    found = turn.victory(data, work)
    if work.get("raids"):  # 15.3 removed once the points are counted
        found.insert(next(i for i, e in enumerate(found) if e["type"] == "victory_points") + 1,
                     {"type": "raids_over"})
    return events + found


def _rules(name: str, **parts: Any) -> PhaseRules:
    title, prompt = PHASES[name]
    return PhaseRules(title=title, prompt=prompt, **parts)


PHASE_TABLE = PhaseTable({
    "setup-place": _rules("setup-place", awaiting=_whites_to_place, validate=_validate_place,
                          resolve=_resolve_place("setup-place-red"), bot=_bot_place),
    "setup-place-red": _rules("setup-place-red", awaiting=_red, validate=_validate_place,
                              resolve=_resolve_place("setup-reduce"), bot=_bot_place),
    "setup-reduce": _rules("setup-reduce", awaiting=_majors, shown=_shown_reduce,
                           validate=_validate_reduce, resolve=_resolve_reduce, bot=_bot_reduce),
    "setup-reduce-red": _rules("setup-reduce-red", awaiting=_red, validate=_validate_reduce,
                               resolve=_resolve_reduce_red, bot=_bot_reduce),
    "purchase": _rules("purchase", awaiting=_purchasing, validate=_validate_purchase,
                       resolve=_resolve_purchase, bot=_bot_purchase, default_orders=_absent_purchase),
    "initiative": _rules("initiative", awaiting=_lenin_awaited, shown=_shown_initiative,
                         validate=_validate_initiative, resolve=_resolve_initiative,
                         bot=_bot_initiative, default_orders=_hold),
    "action": _rules("action", awaiting=_actor, shown=_shown_action, validate=_validate_action,
                     resolve=_resolve_action, bot=_bot_action, default_orders=_hold,
                     secret=combat.SECRET),
    "decision": _rules("decision", awaiting=_asked, shown=_shown_decision, validate=_validate_decision,
                       resolve=_resolve_decision, bot=_bot_decision, default_orders=_hold),
    "victory": _rules("victory", resolve=_resolve_victory),
    "winter": _rules("winter", resolve=_resolve_winter),
    "over": _rules("over"),
})


class RedRussia(TableGame):
    """The Game protocol: phase, bot and default_orders from its phase table (TableGame),
    validate and resolve the table's after what every phase shares (the standing
    instructions), the rest its own. A faction that sent nothing has its set-up choices made
    for it (they cannot be skipped), and in the action phase its units hold (the table's
    default_orders)."""

    phases = PHASE_TABLE
    id = "red_russia"
    name = "Red Russia: The Russian Civil War 1918-1921"

    def describe(self, data: GameData) -> dict[str, Any]:
        g = data["game"]
        return {
            "id": self.id,
            "name": g["name"],
            "factions": [{"id": f["id"], "name": f["name"]} for f in g["factions"]],
            "options": [{"id": k, "default": v["default"], "help": v["help"],
                         "requires": list(v.get("requires") or [])}  # 19.0: 19.2 needs 19.1
                        for k, v in g.get("options", {}).items()],
            "phases": list(PHASES),
            "seatings": g.get("seatings", {}),
        }

    def check_data(self, data: GameData) -> list[str]:
        return (board_.check(data) + economy.check(data) + politics.check_tables(data)
                + cards.check(data) + famine.check(data) + _check_options(data))

    def setup(self, data: GameData, options: dict[str, Any], rng: Rng) -> State:
        state = setup.setup(data, options, rng)
        state.update(politics.initial_state())
        state.update(cards.initial_state())
        return state

    def validate(self, data: GameData, state: State, faction: str, orders: Orders) -> list[Problem]:
        standing = orders.get("standing")
        problems: list[Problem] = []
        standing_kit.check(data, state, faction, standing, STANDING_CHECKS, problems)
        if not isinstance(standing, dict):
            standing = {}  # none, or not a mapping (said)
        problems += famine.check_standing(data, standing)
        problems += play.check_play_when(data, standing)
        # 8.4 a sea in retreat_to: a retreat by sea
        decisions.check_retreat_places(board_.board(data), standing.get("retreat_to"),
                                       ("standing", "retreat_to"), problems)
        return problems + super().validate(data, state, faction, orders)

    def warnings(self, data: GameData, state: State, faction: str, orders: Orders) -> list[Problem]:
        """Legal orders that will do nothing or waste something (rules/wasted.py): a card
        whose effect cannot happen when it is played (12.1, 13.54, 9.0...), a move to the
        zone its units are in (7.1)."""
        return wasted.warnings(data, state, faction, orders)

    def resolve(self, data: GameData, state: State, orders: dict[str, Orders], rng: Rng,
                secrets: Secrets | None = None) -> list[Event]:
        events = turn.standing_events(state, orders)
        return events + super().resolve(data, apply_events(data, state, events), orders, rng, secrets)

    def apply(self, data: GameData, state: State, event: Event) -> State:
        return apply_event(data, state, event)

    def apply_all(self, data: GameData, state: State, events: list[Event]) -> State:
        return apply_events(data, state, events)

    def view(self, data: GameData, state: State, who: str) -> dict[str, Any]:
        """What `who` may see. Nothing in this slice of the game is secret yet (hands, secret
        attack spending and sealed orders arrive with the secrets work), so every view is
        the whole position; the set-up phase's own lists stay with the referee."""
        view = copy.deepcopy(state)
        view["who"] = who
        view["cards"] = cards.view(state)  # hands only as counts: the cards are sealed
        return view

    def report(self, data: GameData, view: dict[str, Any], before: dict[str, Any] | None,
               who: str, style: dict[str, Any], secrets: list[dict[str, Any]]) -> dict[str, Any]:
        """The position tables, changes, map and hand of a report (rules/report.py), and
        the reader's order of battle (rules/order_of_battle.py)."""
        return {**report_.report(data, view, before, who, style, secrets),
                "own": order_of_battle.own(data, view, who)}

    def template(self, data: GameData, state: State, faction: str, rng: Rng) -> Orders:
        """The bot's legal orders as an example, less what a player must choose alone: no
        card played (14.2: `play` orders, and `play_cards` of the bot's standing) and the
        standing instructions the faction has in force, not the bot's."""
        body = dict(self.bot(data, state, faction, rng))
        body["orders"] = [o for o in body.get("orders") or []
                          if not (isinstance(o, dict) and "play" in o)]
        body.pop("standing", None)
        own = state.get("standing", {}).get(faction)
        if own and name_takes_standing(state["phase"]):
            body["standing"] = dict(own)
        return body

    def orders_sections(self, data: GameData, state: State, faction: str) -> list[tuple[str, list[int] | None]]:
        """The sections of ORDERS.md whose examples the faction's orders template shows now
        (pbem.game.order_forms)."""
        return ORDERS_SECTIONS.get(str(state.get("phase")), [])

    def standing_offer(self, data: GameData, state: State, faction: str) -> list[dict[str, Any]]:
        """The standing instructions of ORDERS.md with their values in force, in the
        phases whose orders file takes them (purchase, action)."""
        return standing_.offer(state, faction) if name_takes_standing(state["phase"]) else []

    def boxes(self, data: GameData, state: State, events: list[Event]) -> list[dict[str, Any]]:
        """Each battle of a step as a box: the forces, each round's dice and why they hit
        (rules/boxes.py)."""
        return boxes_.boxes(data, state, events)

    def headlines(self, data: GameData, events: list[Event]) -> list[str]:
        """What the turn's summary says of a step: battles and their ends, zones taken,
        leaders lost, minors activated, cards played (rules/headlines.py)."""
        return headlines_.headlines(data, events)

    def todo(self, data: GameData, state: State, faction: str) -> list[str]:
        """The pieces to place at set-up (3.0, 20.5) and the units arriving now (5.2), each
        with the zones it may go to."""
        b = board_.board(data)
        if state["phase"] in ("setup-place", "setup-place-red"):
            pieces = {pid: setup.allowed_places(b, state, pid) for pid in setup.to_place(state, faction)}
            rule, what = "3.0", "place"
        elif state["phase"] == "purchase":
            pieces = {pid: economy.arrival_zones(b, state, pid) for pid in economy.arrivals(state, faction)}
            rule, what = "5.2", "place, arriving now,"
        else:
            return []
        by_places: dict[tuple[str, ...], list[str]] = {}  # the pieces that may go to the same zones
        for pid, zones in pieces.items():
            by_places.setdefault(tuple(sorted(zones)), []).append(pid)
        return [f"{what} {', '.join(ids)} in {'one of: ' + ', '.join(zones) if zones else 'no zone open to them'}"
                f" ({rule})" for zones, ids in by_places.items()]

    def summary(self, data: GameData, event: Event) -> str:
        return describe_event(data, event)


GAME = RedRussia()
