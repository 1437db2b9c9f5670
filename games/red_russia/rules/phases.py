"""Red Russia's phases (4.0 the sequence of play), one table (PHASE_TABLE, pbem.kit.phases):
set-up (3.0, 20.x), purchase and politics (4.1-4.3), initiative (4.4), each faction's action
phase with its battles (4.5, 7.x, 8.x), the victory phase (4.6, 16.x) and winter (4.7-4.9).

Each row says who is awaited, what the phase is shown as, how its orders are checked and
resolved, the bot's orders and what a faction that sent nothing does, built from the rules
modules. Beside the table: the phases' titles and prompts (PHASES), the sections of ORDERS.md
each phase's orders take (ORDERS_SECTIONS), the action phase (`action`: the moves, then the
battles and sieges), the state the first phase starts from, the game's description, the
orders template and the pieces a faction must place now.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from pbem.game import Event, GameData, Orders, Problem, Rng, Secrets, State
from pbem.kit import ask
from pbem.kit.fold import Fold
from pbem.kit.orders import order_items
from pbem.kit.phases import PhaseRules, PhaseTable, no_orders

from . import (
    battle,
    cards,
    combat,
    decisions,
    economy,
    famine,
    forces,
    minors,
    movement,
    play,
    politics,
    setup,
    siege,
    turn,
)
from . import board as board_
from . import standing as standing_
from .board import MAJORS, WHITES
from .common import commander, defenders_of
from .fold import apply as apply_event
from .fold import apply_all as apply_events

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


def starting_state(data: GameData, options: dict[str, Any], rng: Rng) -> State:
    """The state the first phase starts from: the set-up's forces and draws (3.0, 20.x,
    rules/setup.py), the political tracks' (rules/politics.py) and the cards' (rules/cards.py)."""
    state = setup.setup(data, options, rng)
    state.update(politics.initial_state())
    state.update(cards.initial_state())
    return state


def describe(data: GameData) -> dict[str, Any]:
    """The game's name, factions, options and phases, from game.yaml and PHASES (all of
    Game.describe but the game's id)."""
    g = data["game"]
    return {
        "name": g["name"],
        "factions": [{"id": f["id"], "name": f["name"]} for f in g["factions"]],
        "options": [{"id": k, "default": v["default"], "help": v["help"],
                     "requires": list(v.get("requires") or [])}  # 19.0: 19.2 needs 19.1
                    for k, v in g.get("options", {}).items()],
        "phases": list(PHASES),
        "seatings": g.get("seatings", {}),
    }


def template(state: State, faction: str, bot: Orders) -> Orders:
    """The bot's legal orders as an example, less what a player must choose alone: no
    card played (14.2: `play` orders, and `play_cards` of the bot's standing) and the
    standing instructions the faction has in force, not the bot's."""
    body = dict(bot)
    body["orders"] = [o for o in body.get("orders") or []
                      if not (isinstance(o, dict) and "play" in o)]
    body.pop("standing", None)
    own = state.get("standing", {}).get(faction)
    if own and standing_.name_takes_standing(state["phase"]):
        body["standing"] = dict(own)
    return body


def todo(data: GameData, state: State, faction: str) -> list[str]:
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
