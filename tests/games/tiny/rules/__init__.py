"""Tiny: a test game for pbem, small enough to read in one sitting.

Two factions, Blue and Gold, each with one army, on three places in a row (map.yaml). Each
turn both say at once where their army marches: to a place next to it, or nowhere (no
order). Two armies that end in one place fight: each rolls a die, the higher holds the
place and the other falls back where it stood (if it stood there, to the first place next
to it); on a tie both fall back. Armies that swap places pass each other. An army alone in
a place holds it, until the other army takes it. At the end of turn 1 each faction is
dealt a secret goal (game.yaml `goals`), drawn by a hidden shuffle and sealed to it; at the
end of the last turn the goals are revealed, and a faction scores 1 for each place it holds
and 2 more if it holds its goal.

Made up for tests/project/test_tiny_game.py and docs/writing-a-game.md; no rulebook stands behind
it. The rules are pure functions of the data, the state and the dice, like every game's.
"""

from __future__ import annotations

import html
from typing import Any

from pbem.game import Event, GameData, Orders, Problem, Rng, Secrets, State, clone
from pbem.kit import standing
from pbem.kit.events import EventTable, Told
from pbem.kit.orders import order_items
from pbem.kit.phases import PhaseRules, PhaseTable, TableGame


def _factions(data: GameData) -> list[str]:
    return [f["id"] for f in data["game"]["factions"]]


def _places(data: GameData) -> dict[str, dict[str, Any]]:
    places: dict[str, dict[str, Any]] = data["map"]["places"]
    return places


def _name(data: GameData, faction: str | None) -> str:
    names = {f["id"]: f["name"] for f in data["game"]["factions"]}
    return str(names.get(faction or "", "nobody"))


def _validate(data: GameData, state: State, faction: str, orders: Orders) -> list[Problem]:
    items = orders.get("orders") or []
    if not isinstance(items, list):
        return [Problem(("orders",), "orders is a list: [{move: PLACE}] or []")]
    problems = []
    if len(items) > 1:
        problems.append(Problem(("orders",), "one order at most: your army marches once"))
    here = state["army"][faction]
    for i, _kind, to in order_items(orders, ("move",), problems):  # each {move: PLACE}
        if to not in _places(data)[here]["next"]:
            problems.append(Problem(("orders", i, "move"),
                                    f"{to!r} is not next to {here} (next: "
                                    f"{', '.join(_places(data)[here]['next'])})"))
    standing.check(data, state, faction, orders.get("standing"), {}, problems)  # Tiny has none
    return problems


def _resolve(data: GameData, state: State, orders: dict[str, Orders], rng: Rng,
             secrets: Secrets | None) -> list[Event]:
    turn, places = state["turn"], _places(data)
    events: list[Event] = []
    at = dict(state["army"])
    for f in _factions(data):
        items = (orders.get(f) or {}).get("orders") or []
        if items:
            events.append({"type": "moved", "faction": f, "from": at[f], "to": items[0]["move"]})
            at[f] = items[0]["move"]
    blue, gold = _factions(data)
    if at[blue] == at[gold]:  # a battle: the higher die holds the place
        place = at[blue]
        rolls = {f: rng.roll(f"t{turn}:battle:{place}:{f}", 6) for f in (blue, gold)}
        winner = None if rolls[blue] == rolls[gold] else max(rolls, key=lambda f: rolls[f])
        events.append({"type": "battle", "place": place, "rolls": rolls, "winner": winner})
        for f in (blue, gold):
            if f != winner:
                back = state["army"][f]
                at[f] = back if back != place else places[place]["next"][0]
                events.append({"type": "fell_back", "faction": f, "to": at[f]})
    for f in (blue, gold):
        if state["held"][at[f]] != f:
            events.append({"type": "held", "place": at[f], "faction": f,
                           "from": state["held"][at[f]]})
    if secrets is None:
        raise ValueError("Tiny's goals need the referee's secrets (pbem.crypto.sealed)")
    if turn == 1:  # the secret goals: a hidden shuffle, each sealed to its faction
        drawn = secrets.shuffle("t1:goals", sorted(data["game"]["goals"]))
        events.append({"type": "goals", "goals": {
            f: secrets.seal("goal", f"goal-{f}", f, turn, drawn[i])
            for i, f in enumerate((blue, gold))}})
    if turn < len(data["game"]["turns"]):
        events.append({"type": "turn", "turn": turn + 1})
        return events
    held = dict(state["held"])
    for e in events:
        if e["type"] == "held":
            held[e["place"]] = e["faction"]
    score = {f: sum(1 for owner in held.values() if owner == f) for f in (blue, gold)}
    for f in (blue, gold):  # the goals are revealed at the end
        goal = secrets.open(state["goals"][f])
        place = data["game"]["goals"][goal]
        kept = held[place] == f
        score[f] += 2 if kept else 0
        events.append({"type": "goal_revealed", "faction": f, "goal": goal, "place": place,
                       "kept": kept})
    best = max(score.values())
    events.append({"type": "over", "score": score, "result": {
        "winners": [f for f in (blue, gold) if score[f] == best], "reason": "score"}})
    return events


def _bot(data: GameData, state: State, faction: str, rng: Rng) -> Orders:
    here = state["army"][faction]
    to = rng.choice(f"bot:t{state['turn']}:{faction}", [here, *_places(data)[here]["next"]])
    return {"orders": [] if to == here else [{"move": to}]}


PHASES = PhaseTable({
    "march": PhaseRules(
        "March", "name where your army marches ({move: PLACE}), or send no order to stay",
        awaiting=lambda data, state: _factions(data),
        shown=lambda data, state, title, prompt: (
            f"{title} ({data['game']['turns'][state['turn'] - 1]})", prompt),
        validate=_validate, resolve=_resolve, bot=_bot,
        default_orders=lambda data, state, faction, rng: {"orders": []}),  # an absent army stays
    "over": PhaseRules("Game over"),
})


# each event's apply: the state it is given is a copy to change (pbem.kit.events)
def _marched(data: GameData, state: State, event: Event) -> None:
    state["army"][event["faction"]] = event["to"]


def _held(data: GameData, state: State, event: Event) -> None:
    state["held"][event["place"]] = event["faction"]


def _goals(data: GameData, state: State, event: Event) -> None:
    state["goals"] = clone(event["goals"])


def _goal_revealed(data: GameData, state: State, event: Event) -> None:
    state["revealed"][event["faction"]] = event["goal"]


def _turn(data: GameData, state: State, event: Event) -> None:
    state["turn"] = event["turn"]


def _over(data: GameData, state: State, event: Event) -> None:
    state["score"], state["result"] = dict(event["score"]), event["result"]
    state["phase"], state["over"] = "over", True


# each event's line for the log and the reports
def _told_moved(data: GameData, event: Event) -> str:
    return f"{_name(data, event['faction'])} marches from {event['from']} to {event['to']}"


def _told_battle(data: GameData, event: Event) -> str:
    rolls = ", ".join(f"{_name(data, f)} rolled {n}" for f, n in event["rolls"].items())
    won = (f"{_name(data, event['winner'])} holds {event['place']}" if event["winner"]
           else "a tie: both fall back")
    return f"battle at {event['place']}: {rolls}: {won}"


def _told_fell_back(data: GameData, event: Event) -> str:
    return f"{_name(data, event['faction'])} falls back to {event['to']}"


def _told_held(data: GameData, event: Event) -> str:
    return (f"{_name(data, event['faction'])} holds {event['place']} "
            f"(held by {_name(data, event['from'])} before)")


def _told_goal_revealed(data: GameData, event: Event) -> str:
    return (f"{_name(data, event['faction'])}'s goal was {event['goal']} (hold "
            f"{event['place']}): {'kept, +2' if event['kept'] else 'missed'}")


def _told_over(data: GameData, event: Event) -> str:
    score = ", ".join(f"{_name(data, f)} {n}" for f, n in event["score"].items())
    winners = " and ".join(_name(data, f) for f in event["result"]["winners"])
    return f"game over: {score}; {winners} won"


# a battle is its dice: what it does are the events after it
EVENTS: EventTable[GameData] = EventTable("Tiny", record_only=["battle"])
EVENTS.register({"moved": _marched, "fell_back": _marched, "held": _held, "goals": _goals,
                 "goal_revealed": _goal_revealed, "turn": _turn, "over": _over})
EVENTS.describes({"moved": _told_moved, "battle": _told_battle, "fell_back": _told_fell_back,
                  "held": _told_held, "goal_revealed": _told_goal_revealed, "over": _told_over,
                  "goals": Told("each faction is dealt a secret goal, sealed to it"),
                  "turn": Told("turn {turn} begins")})


class Tiny(TableGame):
    """The Game protocol: phase, validate, resolve, bot and default_orders from its phase
    table (TableGame), apply from its event table, the rest its own."""

    id = "tiny"
    name = "Tiny: a test game"
    phases = PHASES

    def describe(self, data: GameData) -> dict[str, Any]:
        g = data["game"]
        return {"id": self.id, "name": g["name"],
                "factions": [{"id": f["id"], "name": f["name"]} for f in g["factions"]],
                "options": [], "phases": list(PHASES.phases)}

    def check_data(self, data: GameData) -> list[str]:
        places = _places(data)
        problems = []
        for name, spec in places.items():
            for other in spec.get("next", []):
                if other not in places:
                    problems.append(f"map.yaml: places.{name}.next: no place {other!r}")
                elif name not in places[other].get("next", []):
                    problems.append(f"map.yaml: places.{name}.next: {other} does not lead back")
        for f in data["game"]["factions"]:
            if f.get("start") not in places:
                problems.append(f"game.yaml: factions.{f['id']}.start: no place {f.get('start')!r}")
        for goal, place in data["game"]["goals"].items():
            if place not in places:
                problems.append(f"game.yaml: goals.{goal}: no place {place!r}")
        return problems

    def setup(self, data: GameData, options: dict[str, Any], rng: Rng) -> State:
        army = {f["id"]: f["start"] for f in data["game"]["factions"]}
        return {"phase": "march", "turn": 1, "army": army,
                "held": {p: next((f for f, at in army.items() if at == p), None)
                         for p in _places(data)},
                "score": {f: 0 for f in army}, "goals": {}, "revealed": {}, "result": None}

    def apply(self, data: GameData, state: State, event: Event) -> State:
        return EVENTS.apply(data, state, event)

    def view(self, data: GameData, state: State, who: str) -> dict[str, Any]:
        """Everyone sees the whole board; a goal only once revealed (its sealed node is
        in the log, where only its faction and the referee can open it)."""
        return {"turn": state["turn"],
                "armies": {f: {"at": p} for f, p in state["army"].items()},
                "places": {p: {"held by": f} for p, f in state["held"].items()},
                "score": dict(state["score"]),
                "goals": {f: state["revealed"].get(f, "sealed") for f in state["goals"]}}

    def report(self, data: GameData, view: dict[str, Any], before: dict[str, Any] | None,
               who: str, style: dict[str, Any], secrets: list[dict[str, Any]]) -> dict[str, Any]:
        """Only the map: the position and the changes are pbem's neutral tables of the view."""
        return {"map_svg": map_svg(data, view, style)}

    def template(self, data: GameData, state: State, faction: str, rng: Rng) -> Orders:
        return {"orders": []}  # stay: no choice the player did not make

    def summary(self, data: GameData, event: Event) -> str:
        return EVENTS.describe(data, event) or str(event["type"])


def map_svg(data: GameData, view: dict[str, Any], style: dict[str, Any]) -> str:
    """The places as circles in their holder's colour, joined by lines; an army as a
    square with its faction's initial."""
    colours: dict[str, str] = style.get("colours", {})
    places, esc = _places(data), html.escape
    out = ['<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 300 100" width="300" '
           'height="100" class="map" role="img" aria-label="Map of Tiny">']
    for name, spec in places.items():
        for other in spec["next"]:
            if name < other:
                (x1, y1), (x2, y2) = spec["xy"], places[other]["xy"]
                out.append(f'<line x1="{x1}" y1="{y1}" x2="{x2}" y2="{y2}" stroke="#555"/>')
    for name, spec in places.items():
        x, y = spec["xy"]
        owner = view["places"][name]["held by"]
        fill = colours.get(owner or "neutral", "#ffffff")
        out.append(f'<g class="place" data-place="{esc(name)}"><circle cx="{x}" cy="{y}" r="12" '
                   f'fill="{fill}" stroke="#222"/><text x="{x}" y="{y + 26}" font-size="11" '
                   f'text-anchor="middle">{esc(name)}</text></g>')
    for faction, army in view["armies"].items():
        x, y = places[army["at"]]["xy"]
        dx = -8 if faction == _factions(data)[0] else 2
        out.append(f'<g class="army"><rect x="{x + dx}" y="{y - 22}" width="8" height="8" '
                   f'fill="{colours.get(faction, "#999999")}" stroke="#222"/></g>')
    out.append("</svg>")
    return "\n".join(out)


GAME = Tiny()
