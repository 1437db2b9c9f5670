"""Red Russia: The Russian Civil War 1918-1921, refereed by pbem.

Rules: ../shared/rules/red-russia-rules.txt; each function names the rule it implements.
The phases implemented so far: set-up (3.0, 20.x), initiative (4.4), movement in each
faction's action phase (4.5, 7.x) and the victory phase (4.6, 16.x).
"""

from __future__ import annotations

import copy
from typing import Any

from pbem.game import Event, GameData, Orders, Phase, Problem, Rng, State
from pbem.names import suggest

from . import board as board_
from . import movement, setup, turn
from .board import MAJORS, WHITES
from .events import apply as apply_event

STANDING_KEYS: dict[str, dict[Any, int]] = {
    # 10.8.1: Lenin in Moscow lets the Reds add or subtract 2 from their initiative roll
    "lenin_initiative": turn.LENIN_CHOICES,
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
    "initiative": ("Initiative (4.4)", "dice are rolled by pbem"),
    "action": ("Action phase: movement (4.5, 7.0)", "move your stacks"),
    "victory": ("Victory phase (4.6)", "victory points are counted by pbem"),
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
            "options": [{"id": k, "default": v["default"], "help": v["help"]}
                        for k, v in g.get("options", {}).items()],
            "phases": list(PHASES),
            "seatings": g.get("seatings", {}),
        }

    def check_data(self, data: GameData) -> list[str]:
        return board_.check(data)

    def setup(self, data: GameData, options: dict[str, Any], rng: Rng) -> State:
        return setup.setup(data, options, rng)

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
        elif name == "action":
            awaiting = (state["actor"],)
            title = f"{title}, {data['game']['factions'][MAJORS.index(state['actor'])]['name']}"
        if name == "setup-reduce":
            prompt += f" (drawn: {state['white_reducer']})"
        return Phase(name=name, turn=state["turn"], awaiting=awaiting, title=title, prompt=prompt,
                     over=bool(state["over"]), result=state["result"])

    def validate(self, data: GameData, state: State, faction: str, orders: Orders) -> list[Problem]:
        problems = _check_standing(orders.get("standing") or {})
        name = state["phase"]
        if name in setup.PLACE_PHASES:
            problems += setup.validate_place(data, state, faction, orders)
        elif name in ("setup-reduce", "setup-reduce-red"):
            problems += setup.validate_reduce(data, state, faction, orders)
        elif name == "action":
            problems += movement.plan(data, state, faction, orders)[1]
        else:
            problems.append(Problem(("phase",), f"no orders are taken in phase {name}"))
        return problems

    def resolve(self, data: GameData, state: State, orders: dict[str, Orders], rng: Rng) -> list[Event]:
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
            events += setup.resolve_reduce(data, work, orders)
            events.append({"type": "phase", "turn": 1, "phase": "initiative"})
        elif name == "initiative":
            events += turn.initiative(data, work, rng)
            order = events[-1]["order"]
            events.append({"type": "phase", "turn": work["turn"], "phase": "action", "actor": order[0]})
        elif name == "action":
            actor = work["actor"]
            moves, problems = movement.plan(data, work, actor, orders.get(actor, {}), rng)
            if problems:
                raise ValueError(f"{actor}: {problems[0].message}")
            events += moves
            for e in moves:
                work = apply_event(data, work, e)
            following = turn.next_actor(work)
            if following:
                events.append({"type": "phase", "turn": work["turn"], "phase": "action", "actor": following})
            else:
                events.append({"type": "phase", "turn": work["turn"], "phase": "victory"})
        elif name == "victory":
            events += turn.victory(data, work)
        else:
            raise ValueError(f"phase {name} does not resolve")
        return events

    def apply(self, data: GameData, state: State, event: Event) -> State:
        return apply_event(data, state, event)

    def view(self, data: GameData, state: State, who: str) -> dict[str, Any]:
        """What `who` may see. Nothing in this slice of the game is secret yet (hands, secret
        attack spending and sealed orders arrive with the secrets work), so every view is
        the whole position; the set-up phase's own lists stay with the referee."""
        view = copy.deepcopy(state)
        view["who"] = who
        return view

    def bot(self, data: GameData, state: State, faction: str, rng: Rng) -> Orders:
        name = state["phase"]
        if name in setup.PLACE_PHASES:
            return setup.bot_place(data, state, faction, rng)
        if name in ("setup-reduce", "setup-reduce-red"):
            return setup.bot_reduce(data, state, faction, rng)
        if name == "action":
            body: Orders = {"orders": movement.bot(data, state, faction, rng)}
            if faction == "red":
                body["standing"] = {"lenin_initiative": "+2"}
            return body
        return {"orders": []}

    def default_orders(self, data: GameData, state: State, faction: str, rng: Rng) -> Orders:
        """A faction that sent nothing: set-up choices are made for it (they cannot be
        skipped); in the action phase its units hold."""
        if state["phase"] == "action":
            return {"orders": []}
        return self.bot(data, state, faction, rng)

    def summary(self, data: GameData, event: Event) -> str:
        return describe_event(data, event)


def _check_standing(standing: dict[str, Any]) -> list[Problem]:
    problems = []
    for key, value in standing.items():
        if key not in STANDING_KEYS:
            problems.append(Problem(("standing", key), f"unknown standing instruction {key!r}"
                                    f"{suggest(str(key), list(STANDING_KEYS))} "
                                    f"(known: {', '.join(STANDING_KEYS)})"))
        elif isinstance(value, bool) or value not in STANDING_KEYS[key]:
            choices = ", ".join(str(c) for c in STANDING_KEYS[key] if isinstance(c, str))
            problems.append(Problem(("standing", key), f"{key} is one of {choices}, not {value!r}"))
    return problems


def describe_event(data: GameData, e: Event) -> str:
    kind = e.get("type")
    if kind == "placed":
        return f"{e['faction']} placed {', '.join(e['units'])} in {e['zone']}"
    if kind == "reduced":
        return f"{e['by']} reduced {e['unit']}"
    if kind == "moved":
        how = " by rail" if e.get("rail") else ""
        stop = " (stopped by enemy units)" if e.get("stopped") else ""
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
        return f"{e['faction']} standing instructions: {e['standing']}"
    if kind == "victory_points":
        return "victory points: " + ", ".join(f"{f} {v:+d}" for f, v in e["vp"].items())
    if kind == "defeated":
        return f"{e['faction']} has no corps left on the map: automatic defeat (16.2)"
    if kind == "game_over":
        return f"game over: {', '.join(e['result']['winners']) or 'nobody'} won ({e['result']['reason']})"
    return f"{kind}: " + ", ".join(f"{k}={v}" for k, v in e.items() if k != "type")


GAME = RedRussia()
