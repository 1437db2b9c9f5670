"""Arrival: a test game for pbem, about a power that enters mid-game.

Blue and Gold play from the start; Grey and Pink are dormant (game.yaml) and enter at the
end of turns 1 and 2 (game.yaml `enters`). The option `grey_to` says who then plays Grey:
the player of Gold (the default), of Blue, or of Pink (who has no seat yet then: a game
that names such a host is wrong, and pbem says so), or `moderator` (the moderator seats it
with `pbem seat`). Pink is played by the player of Blue. Each turn every faction in
the game calls out one word, or nothing (`orders: [{call: WORD}]` or `orders: []`); a
faction's score is the number of its calls; after turn 3 the highest score wins.

Made up for tests/project/test_arrival_game.py; the rules are pure functions of the data, the state
and the dice, like every game's. Only `describe` (dormant) and `seating` concern the seats.
"""

from __future__ import annotations

import re
from typing import Any

from pbem.game import Event, GameData, Orders, Phase, Problem, Rng, Secrets, State, clone

WORD = re.compile(r"^[a-z]{1,20}$")
HOSTS = ("gold", "blue", "pink", "moderator")
PINK_TO = "blue"


def _factions(data: GameData) -> list[str]:
    return [f["id"] for f in data["game"]["factions"]]


class Arrival:
    id = "arrival"
    name = "Arrival: a test game"

    def describe(self, data: GameData) -> dict[str, Any]:
        g = data["game"]
        return {"id": self.id, "name": g["name"],
                "factions": [{"id": f["id"], "name": f["name"], "dormant": bool(f.get("dormant"))}
                             for f in g["factions"]],
                "options": [{"id": "grey_to", "default": "gold", "choices": list(HOSTS),
                             "help": "who plays Grey when it enters: gold, blue, pink or moderator"}],
                "phases": ["call", "over"]}

    def check_data(self, data: GameData) -> list[str]:
        return [] if isinstance(data["game"].get("turns"), int) else ["game.yaml: turns: a number"]

    def setup(self, data: GameData, options: dict[str, Any], rng: Rng) -> State:
        host = options.get("grey_to", "gold")
        if host not in HOSTS:
            raise ValueError(f"grey_to is one of {', '.join(HOSTS)}, not {host!r}")
        return {"turn": 1, "in_game": ["blue", "gold"], "grey_to": host,
                "score": {f: 0 for f in _factions(data)}, "result": None}

    def seating(self, data: GameData, state: State) -> dict[str, str | None]:
        hosts = {"grey": None if state["grey_to"] == "moderator" else state["grey_to"],
                 "pink": PINK_TO}
        return {f["id"]: hosts[f["id"]] for f in data["game"]["factions"]
                if f.get("dormant") and f["id"] in state["in_game"]}

    def phase(self, data: GameData, state: State) -> Phase:
        if state["result"] is not None:
            return Phase("over", state["turn"], (), "Game over", over=True, result=state["result"])
        return Phase("call", state["turn"], tuple(state["in_game"]), f"Calls of turn {state['turn']}",
                     "call out one word ({call: WORD}), or nothing")

    def validate(self, data: GameData, state: State, faction: str, orders: Orders) -> list[Problem]:
        if faction not in state["in_game"]:
            return [Problem(("faction",), f"{faction} is not in the game yet")]
        items = orders.get("orders") or []
        if not isinstance(items, list) or len(items) > 1:
            return [Problem(("orders",), "orders is [] or [{call: WORD}]")]
        if items and (not isinstance(items[0], dict) or set(items[0]) != {"call"}
                      or not WORD.match(str(items[0]["call"]))):
            return [Problem(("orders", 0), "a call is {call: WORD}, a word of 1-20 small letters")]
        return []

    def resolve(self, data: GameData, state: State, orders: dict[str, Orders], rng: Rng,
                secrets: Secrets | None = None) -> list[Event]:
        events: list[Event] = []
        for f in state["in_game"]:
            for item in (orders.get(f) or {}).get("orders") or []:
                events.append({"type": "called", "faction": f, "word": item["call"]})
        for faction, turn in sorted(data["game"]["enters"].items()):
            if turn == state["turn"]:
                played_by = state["grey_to"] if faction == "grey" else PINK_TO
                events.append({"type": "arrived", "faction": faction, "played_by": played_by})
        if state["turn"] < data["game"]["turns"]:
            events.append({"type": "turn", "turn": state["turn"] + 1})
            return events
        score = dict(state["score"])
        for e in events:
            score[e["faction"]] += 1
        best = max(score.values())
        events.append({"type": "over", "result": {
            "winners": [f for f in _factions(data) if score[f] == best], "reason": "calls"}})
        return events

    def apply(self, data: GameData, state: State, event: Event) -> State:
        s: State = clone(state)
        kind = event["type"]
        if kind == "called":
            if event["faction"] not in s["in_game"]:
                raise ValueError(f"{event['faction']} is not in the game")
            s["score"][event["faction"]] += 1
        elif kind == "arrived":
            if event["faction"] in s["in_game"]:
                raise ValueError(f"{event['faction']} is in the game already")
            s["in_game"].append(event["faction"])
        elif kind == "turn":
            s["turn"] = event["turn"]
        elif kind == "over":
            s["result"] = event["result"]
        else:
            raise ValueError(f"Arrival has no event {kind!r}")
        return s

    def view(self, data: GameData, state: State, who: str) -> dict[str, Any]:
        return {"turn": state["turn"], "in game": list(state["in_game"]),
                "score": dict(state["score"])}

    def bot(self, data: GameData, state: State, faction: str, rng: Rng) -> Orders:
        word = rng.choice(f"bot:t{state['turn']}:{faction}", ["hello", "ahoy", ""])
        return {"orders": [{"call": word}] if word else []}

    def template(self, data: GameData, state: State, faction: str, rng: Rng) -> Orders:
        return {"orders": []}

    def default_orders(self, data: GameData, state: State, faction: str, rng: Rng) -> Orders:
        return {"orders": []}

    def summary(self, data: GameData, event: Event) -> str:
        kind = event["type"]
        if kind == "called":
            return f"{event['faction']} calls out {event['word']!r}"
        if kind == "arrived":
            who = ("a player the moderator seats" if event["played_by"] == "moderator"
                   else f"the player of {event['played_by']}")
            return f"{event['faction']} enters the game, played by {who}"
        if kind == "turn":
            return f"turn {event['turn']} begins"
        if kind == "over":
            return f"game over: {' and '.join(event['result']['winners'])} won"
        return str(kind)


GAME = Arrival()
