"""Red Russia: The Russian Civil War 1918-1921, refereed by pbem.

Rules: ../shared/rules/red-russia-rules.txt; each function names the rule it implements.
The phases implemented so far: set-up (3.0, 20.x), initiative (4.4), movement in each
faction's action phase (4.5, 7.x) and the victory phase (4.6, 16.x).
"""

from __future__ import annotations

import copy
from collections.abc import Callable
from typing import Any

from pbem.game import Event, GameData, Orders, Phase, Problem, Rng, Secrets, State
from pbem.names import suggest

from . import board as board_
from . import (
    cards,
    combat,
    decisions,
    economy,
    famine,
    minors,
    movement,
    play,
    politics,
    setup,
    turn,
)
from . import report as report_
from .board import MAJORS, WHITES
from .common import commander, order_items
from .events import apply as apply_event
from .events import apply_all as apply_events

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


class RedRussia:
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

    def phase(self, data: GameData, state: State) -> Phase:
        name = state["phase"]
        title, prompt = PHASES[name]
        awaiting: tuple[str, ...] = ()
        if name == "setup-place":
            awaiting = tuple(f for f in WHITES if setup.to_place(state, f))
        elif name == "setup-place-red":
            awaiting = ("red",)
        elif name == "setup-reduce":
            awaiting = MAJORS
        elif name == "setup-reduce-red":
            awaiting = ("red",)
        elif name == "purchase":
            awaiting = tuple(turn.active(state))
        elif name == "action":
            awaiting = (state["actor"],)
            title = f"{title}, {data['game']['factions'][MAJORS.index(state['actor'])]['name']}"
        elif name == "decision":
            awaiting = decisions.awaiting(state)
            prompt = decisions.prompt(state)
        elif name == "initiative" and decisions.lenin_asked(state):
            awaiting = ("red",)
            prompt = "Lenin is in Moscow: add or subtract 2 from your initiative roll, or neither (10.8.1)"
        if name == "setup-reduce":
            prompt += f" (drawn: {state['white_reducer']})"
        return Phase(name=name, turn=state["turn"], awaiting=awaiting, title=title, prompt=prompt,
                     over=bool(state["over"]), result=state["result"])

    def validate(self, data: GameData, state: State, faction: str, orders: Orders) -> list[Problem]:
        problems = _check_standing(orders.get("standing") or {})
        problems += famine.check_standing(data, orders.get("standing") or {})
        problems += play.check_play_when(data, orders.get("standing") or {})
        standing = orders.get("standing")  # 8.4 a sea in retreat_to: a retreat by sea
        decisions.check_retreat_places(board_.board(data), standing.get("retreat_to")
                                       if isinstance(standing, dict) else None,
                                       ("standing", "retreat_to"), problems)
        name = state["phase"]
        if name in setup.PLACE_PHASES:
            problems += setup.validate_place(data, state, faction, orders)
        elif name in ("setup-reduce", "setup-reduce-red"):
            problems += setup.validate_reduce(data, state, faction, orders)
        elif name == "purchase":  # one file for 4.2 purchase and 4.3 politics
            problems += economy.validate_purchase(data, state, faction, orders)
            problems += politics.validate_political(data, state, faction, orders)
            discards = [(i, arg) for i, _verb, arg in order_items(orders, ("discard",), [],
                                                                  others=cards.OTHERS)]
            problems += cards.validate_discard(data, state, faction, discards)
            problems += play.validate(data, state, faction, orders, "purchase",
                                      others=(*[v for v in cards.OTHERS if v != "play"], "discard"))
        elif name == "action":
            problems += action(data, state, faction, orders)[1]
            problems += play.validate(data, state, faction, orders, "action",
                                      others=("attack", "siege", *movement.ORDER_VERBS))
        elif name == "decision":
            problems += decisions.validate(state, faction, orders, board_.board(data))
        elif name == "initiative" and decisions.lenin_asked(state) and faction == "red":
            problems += turn.validate_lenin(orders)
        else:
            problems.append(Problem(("phase",), f"no orders are taken in phase {name}"))
        return problems

    def resolve(self, data: GameData, state: State, orders: dict[str, Orders], rng: Rng,
                secrets: Secrets | None = None) -> list[Event]:
        name = state["phase"]
        events = turn.standing_events(state, orders)
        work = state
        for e in events:
            work = apply_event(data, work, e)
        if name == "setup-place":
            events += setup.resolve_place(data, work, orders)
            events.append({"type": "phase", "turn": 0, "phase": "setup-place-red"})
        elif name == "setup-place-red":
            events += setup.resolve_place(data, work, orders)
            events.append({"type": "phase", "turn": 0, "phase": "setup-reduce"})
        elif name == "setup-reduce":
            events += setup.resolve_reduce(data, work, orders)
            events.append({"type": "phase", "turn": 0, "phase": "setup-reduce-red"})
        elif name == "setup-reduce-red":
            found = setup.resolve_reduce(data, work, orders)
            events += found
            events += cards.deal(data, _fold(data, work, found), _needed(secrets))
            events.append({"type": "phase", "turn": 1, "phase": "purchase"})
        elif name == "purchase":
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
            for rule, title, steps in segments:  # each step sees what the one before did
                events.append({"type": "segment", "rule": rule, "name": title})
                for step in steps:
                    found = step(work)
                    events += found
                    work = _fold(data, work, found)
            events.append({"type": "segment", "rule": "4.3", "name": "political phase"})
            found = play.play_segment(data, work, plays, "political", _needed(secrets), rng)
            events += found
            work = _fold(data, work, found)
            later = [p for p in plays if cards.deck(data)[p["card"]]["phase"] == "initiative"]
            if later:  # played at the start of 4.4 (14.2)
                events.append({"type": "cards_queued", "plays": later})
            found = politics.ori_phase(data, work, rng)
            events += found
            work = _fold(data, work, found)
            found = politics.intervention(data, work, orders, rng)
            events += found
            work = _fold(data, work, found)
            events += politics.minor_activation(data, work, orders, rng)
            events.append({"type": "phase", "turn": work["turn"], "phase": "initiative"})
        elif name == "winter":  # 4.7 attrition, 4.8 maintenance, 4.9 money and manpower
            events.append({"type": "segment", "rule": "4.7", "name": "winter attrition"})
            found = economy.winter_attrition(data, work, rng)
            work = _fold(data, work, found)
            events += found
            events.append({"type": "segment", "rule": "4.8", "name": "maintenance"})
            found = economy.maintenance(data, work)
            work = _fold(data, work, found)
            events += found
            events.append({"type": "segment", "rule": "4.9", "name": "money and manpower"})
            found = economy.collection(data, work)
            events += found
            events += famine.ended(work)  # 19.2 the famine lasts until this collection
            events.append({"type": "phase", "turn": work["turn"] + 1, "phase": "purchase"})
        elif name == "initiative":
            events.append({"type": "segment", "rule": "4.4", "name": "initiative"})
            found = play.play_segment(data, work, work["cards"].get("queued", []), "initiative",
                                      _needed(secrets), rng)
            if work["cards"].get("queued"):
                found.append({"type": "cards_queued", "plays": []})
            events += found
            work = _fold(data, work, found)
            if decisions.lenin_asked(work):  # 10.8.1 the answer the Reds sent for this turn
                choice = turn.lenin_choice(orders.get("red", {}))
                work = {**work, "standing": {**work["standing"],
                                             "red": {**work["standing"]["red"], "lenin_initiative": choice}}}
            events += turn.initiative(data, work, rng)
            order = events[-1]["order"]
            events.append({"type": "phase", "turn": work["turn"], "phase": "action", "actor": order[0]})
        elif name == "action":
            actor = work["actor"]
            events.append({"type": "segment", "rule": "4.5", "name": f"action phase of {actor}"})
            # 14.2 the active player's action cards, before the moves
            plays = [p for p in play.queued(data, work, {actor: orders.get(actor, {})})
                     if not play.after_moves(data, p)]
            found = play.play_segment(data, work, plays, "action", _needed(secrets), rng,
                                      auto_for=[cards.holder(work, actor)])
            events += found
            work = _fold(data, work, found)
            found = play.triggered(data, work, "phase_start", actor, _needed(secrets), rng)  # 14.2
            events += found
            work = _fold(data, work, found)
            events += _act(data, work, actor, orders.get(actor, {}), rng, secrets, {})
        elif name == "decision":  # 8.4 the answers came: the battles are fought
            asked = work["asked"]
            given = decisions.answers(orders)
            full = {**decisions.unanswered(work, given)}
            for zone, by in given.items():
                full.setdefault(zone, {}).update(by)
            answered = {"type": "answered", "answers": full, "given": given}
            events.append(answered)
            work = apply_event(data, work, answered)
            events += _act(data, work, asked["actor"], asked["orders"], rng, secrets, full)
        elif name == "victory":
            events.append({"type": "segment", "rule": "4.6", "name": "victory"})
            # 17.5 the modifiers earned this turn, for the next political phase
            events.append(politics.ori_mods_event(data, work, work.get("turn_events", [])))
            found = turn.victory(data, work)
            if work.get("raids"):  # 15.3 removed once the points are counted
                found.insert(next(i for i, e in enumerate(found) if e["type"] == "victory_points") + 1,
                             {"type": "raids_over"})
            events += found
        else:
            raise ValueError(f"phase {name} does not resolve")
        return events

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
        """The position tables, changes, map and hand of a report (rules/report.py)."""
        return report_.report(data, view, before, who, style, secrets)

    def bot(self, data: GameData, state: State, faction: str, rng: Rng) -> Orders:
        name = state["phase"]
        if name in setup.PLACE_PHASES:
            return setup.bot_place(data, state, faction, rng)
        if name in ("setup-reduce", "setup-reduce-red"):
            return setup.bot_reduce(data, state, faction, rng)
        if name == "purchase":
            bought = economy.bot_purchase(data, state, faction, rng)
            bought["orders"] += politics.bot_political(data, state, faction, rng)["orders"]
            bought["standing"] = _bot_standing(faction, state)
            if cards.holder(state, faction) == faction:
                bought["standing"]["discard_dead"] = True  # 14.73, 14.74
            return bought
        if name == "action":
            body: Orders = {"orders": movement.bot(data, state, faction, rng)}
            self._bot_attacks(data, state, faction, body, rng)
            body["standing"] = _bot_standing(faction, state)
            return body
        if name == "decision":  # 8.4: stand and fight
            return {"orders": [{"decide": {"zone": q["zone"], "retreat": False}}
                               for q in state["asked"]["questions"] if q["faction"] == faction]}
        if name == "initiative":  # 10.8.1
            return {"orders": [{"decide": {"lenin_initiative": "+2"}}]}
        return {"orders": []}

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

    def _bot_attacks(self, data: GameData, state: State, faction: str, body: Orders, rng: Rng) -> None:
        """8.2, 8.3: attack where the odds look good and the money allows it."""
        work = state
        for e in movement.plan(data, state, faction, body)[0]:
            work = apply_event(data, work, e)
        money = work["money"][faction]
        spend: dict[str, int] = {}
        for zone in sorted({p["zone"] for pid, p in work["units"].items()
                            if p["status"] == "map" and commander(work, pid) == faction}):
            if zone not in board_.board(data).zones or not combat.defenders_of(work, zone, faction):
                continue
            mine = [u for u in combat.commanded(work, zone, faction)
                    if work["units"][u]["type"] in ("inf", "cav", "tank")]
            if not mine:
                continue
            if minors.free_force(work, combat.commanded(work, zone, faction)):
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
            combat.check_sieges(b, work, faction, [(0, {"zone": zone, "rounds": 2})], money, trial)
            if not trial and money >= 2 * combat.siege_cost(b):
                money -= 2 * combat.siege_cost(b)
                body["orders"].append({"siege": {"zone": zone, "rounds": 2}})

    def default_orders(self, data: GameData, state: State, faction: str, rng: Rng) -> Orders:
        """A faction that sent nothing: set-up choices are made for it (they cannot be
        skipped); in the action phase its units hold."""
        if state["phase"] in ("action", "decision", "initiative"):
            return {"orders": []}  # hold; stand and fight (8.4); Lenin's default, no modifier
        if state["phase"] == "purchase":  # arrivals are placed; nothing is bought
            body = economy.bot_purchase(data, state, faction, rng)
            return {"orders": [o for o in body["orders"] if "place" in o]}
        return self.bot(data, state, faction, rng)

    def summary(self, data: GameData, event: Event) -> str:
        return describe_event(data, event)


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
        raise ValueError("dealing and drawing cards needs the referee's secrets (pbem.sealed)")
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
        combat.check_sieges(b, work, faction, sieges, work["money"][faction] - spent, problems,
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
    siege_specs = combat.check_sieges(b, work, faction, sieges, work["money"][faction], ok)
    if ok:  # a battle changed the position: the sieges it made impossible do not happen
        events.append({"type": "note", "zone": "", "text": "sieges not possible after the battles: "
                       + "; ".join(p.message for p in ok)})
        siege_specs = [s for s in siege_specs if not any(s["zone"] in p.message for p in ok)]
    besieged, work = combat.resolve_sieges(b, data, work, faction, siege_specs, rng)
    events += besieged
    events += combat.lift_sieges(b, work)
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


def _check_standing(standing: dict[str, Any]) -> list[Problem]:
    problems = []
    for key, value in standing.items():
        if value is None and key in STANDING_KEYS or decisions.standing_ok(key, value):
            continue  # null drops an instruction given before; `ask` asks by mail
        if key not in STANDING_KEYS:
            problems.append(Problem(("standing", key), f"unknown standing instruction {key!r}"
                                    f"{suggest(str(key), list(STANDING_KEYS))} "
                                    f"(known: {', '.join(STANDING_KEYS)})"))
        elif STANDING_KEYS[key] is dict:
            continue  # a structured instruction its own module checks
        elif STANDING_KEYS[key] is list:
            if not isinstance(value, list) or not all(isinstance(v, str) for v in value):
                problems.append(Problem(("standing", key), f"{key} is a list of names"))
        elif STANDING_KEYS[key] is bool:
            if not isinstance(value, bool):
                problems.append(Problem(("standing", key), f"{key} is true or false"))
        elif STANDING_KEYS[key] is int:
            if isinstance(value, bool) or not isinstance(value, int) or not 1 <= value <= combat.MAX_ROUNDS:
                problems.append(Problem(("standing", key), f"{key} is a number of rounds, 1 to "
                                                           f"{combat.MAX_ROUNDS}"))
        elif isinstance(value, bool) or not isinstance(value, str | int) or value not in STANDING_KEYS[key]:
            choices = ", ".join(str(c) for c in STANDING_KEYS[key] if isinstance(c, str)) or ", ".join(
                str(c) for c in STANDING_KEYS[key])
            problems.append(Problem(("standing", key), f"{key} is one of {choices}, not {value!r}"))
    return problems


def describe_event(data: GameData, e: Event) -> str:
    kind = e.get("type")
    told = economy.describe(e)
    if told is None:
        told = politics.describe(e)
    if told is None:
        told = cards.describe(e)
    if told is None:
        told = decisions.describe(e)
    if told is None:
        told = play.describe(e)
    if told is None:
        told = combat.describe(e)  # 8.92 searches and blockades
    if told is None:
        told = minors.describe(e)
    if told is None:
        told = famine.describe(e)  # 19.2
    if told is not None:
        return told
    if kind == "placed":
        return f"{e['faction']} placed {', '.join(e['units'])} in {e['zone']}"
    if kind == "reduced":
        if e["by"] == "combat":
            return f"{e['unit']} loses a step (8.6)"
        return f"{e['by']} reduced {e['unit']}"
    if kind == "attack":
        return (f"{e['attacker']} attacks {e['zone']} ({', '.join(e['defenders']) or 'nobody left'}): "
                f"{e['level']}, {e['spend']} money revealed (8.3)")
    if kind == "combat_round":
        parts = []
        for side, name in (("atk", "attacker"), ("def", "defender")):
            rolls = "; ".join(f"{g['what']} {' '.join(map(str, g['values']))} (hit on {g['hit']}+)"
                              for g in e["dice"][side])
            parts.append(f"{name} {rolls or 'no dice'} = {e['hits'][side]} hits")
        return f"{e['zone']} round {e['round']}: " + " | ".join(parts)
    if kind == "retreat":
        return f"{e['faction']} {', '.join(e['units'])} retreat from {e['zone']} to {e['to']} ({e['when']})"
    if kind == "eliminated":
        return f"{e['unit']} is eliminated in {e['zone']}: {e['why']}"
    if kind == "leader_loss":
        fate = f", then {e['fate']}" if e.get("fate") else ""
        return (f"leader {e['leader']}: {e['dice'][0]}+{e['dice'][1]} + {e['steps']} steps lost"
                f"{fate}: {e['result']} (10.4)")
    if kind == "leader_capture":
        where = f" to {e['to']}" if e.get("to") else ""
        return f"leader {e['leader']} left alone: {e['dice'][0]}+{e['dice'][1]}: {e['result']}{where} (10.5)"
    if kind == "battle_over":
        held = ("both sides stay" if e["attacker_left"] and e["defender_left"] else
                "the attacker holds the field" if e["attacker_left"] else
                "the defender holds" if e["defender_left"] else "nobody is left")
        return f"battle of {e['zone']} over: {held}"
    if kind == "siege":
        return (f"{e['faction']} besieges {e['zone']} for {e['rounds']} round(s), {e['cost']} money; "
                f"fortification {e['fort']} (9.2)")
    if kind == "siege_hits":
        return f"siege of {e['zone']}: {e['hits']} hit(s) on the fortification"
    if kind == "siege_lifted":
        return f"siege of {e['zone']} lifted: {e['why']}"
    if kind == "control":
        return f"{e['zone']} passes from {e['from'] or 'neutral'} to {e['faction']} ({e['why']})"
    if kind == "note":
        return f"{e.get('zone', '')}: {e['text']}"
    if kind == "air_alone":
        return f"aircraft {e['unit']} caught alone in {e['zone']} retreats, rolled {e['roll']} (8.93)"
    if kind == "lenin_killed":
        return f"Lenin is dead: the Reds lose {e['manpower']} manpower and {e['money']} money (10.8.1)"
    if kind == "moved":
        how = " by rail" if e.get("rail") else ""
        stop = " (stopped by enemy units)" if e.get("stopped") else ""
        if e.get("why"):  # 8.92 a transport turned back at sea
            stop = f" ({e['why']})"
        return f"{e['faction']} moved {', '.join(e['units'])}{how}: {' -> '.join(e['path'])}{stop}"
    if kind == "tank_breakdown":
        result = "breaks down, loses a step" if e["roll"] == 6 else "runs"
        return f"tank {e['unit']} entering {e['zone']}: rolled {e['roll']} ({e['label']}), {result}"
    if kind == "initiative_roll":
        mod = f" {e['modifier']:+d}" if e["modifier"] else ""
        again = " (re-roll of a tie)" if e.get("reroll") else ""
        return f"initiative: {e['faction']} rolled {e['dice'][0]}+{e['dice'][1]}{mod} = {e['total']}{again}"
    if kind == "initiative":
        return "initiative order: " + ", ".join(e["order"])
    if kind == "phase":
        actor = f" ({e['actor']})" if e.get("actor") else ""
        return f"turn {e['turn']}: {e['phase']}{actor}"
    if kind == "standing":
        def shown(value: Any) -> str:
            if isinstance(value, bool):
                return "yes" if value else "no"
            return ", ".join(map(str, value)) if isinstance(value, list) else str(value)

        told = "; ".join(f"{k.replace('_', ' ')} {shown(v)}" for k, v in sorted(e["standing"].items()))
        return f"{e['faction']} standing instructions: {told}"
    if kind == "victory_points":
        return "victory points: " + ", ".join(f"{f} {v:+d}" for f, v in e["vp"].items())
    if kind == "defeated":
        return f"{e['faction']} has no corps left on the map: automatic defeat (16.2)"
    if kind == "game_over":
        return f"game over: {', '.join(e['result']['winners']) or 'nobody'} won ({e['result']['reason']})"
    return f"{kind}: " + ", ".join(f"{k}={v}" for k, v in e.items() if k != "type")


GAME = RedRussia()
