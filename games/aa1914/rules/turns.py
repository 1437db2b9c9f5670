"""The round of Axis & Allies 1914 and how the game ends: whose turn comes next once a power's
turn is resolved (`next_turn`), the USA going to war as its round-4 turn begins, the victory
pairs checked when a side's last power of the round has played (`victory`), and the events
that say so (`next`, `at_war`, `over`) with their lines in the log."""

from __future__ import annotations

from typing import Any

from pbem.game import Event, GameData, State
from pbem.kit.events import Apply, Describe

from . import board, civil_war, corrections

USA = "usa"


def next_turn(data: GameData, state: State) -> list[Event]:
    """Whose turn comes next, after the victory check that the end of this turn makes. The
    USA goes to war as its turn of round 4 begins (the XML's trigger,
    "before:americansCombatMove"). A power out of the war by the armistice takes no more
    turns (a ruling)."""
    order = state["order"]
    pid = state["power"]
    mine = board.side(data, pid)
    if pid == [p for p in order if board.side(data, p) == mine][-1]:
        won = victory(data, state, next(s for s in board.SIDES if s != mine))
        if won is not None:
            return [{"type": "over", "result": won}]
    at, turn = order.index(pid), state["turn"]
    while True:
        at += 1
        if at == len(order):
            at, turn = 0, turn + 1
        following = order[at]
        if not board.out_of_war(state, following):
            break
    events: list[Event] = []
    if following == USA and USA not in state["at_war"] \
            and turn >= data["game"]["usa_at_war_from_round"]:
        events.append({"type": "at_war", "power": USA})
    return [*events, {"type": "next", "power": following, "turn": turn}]


def victory(data: GameData, state: State, side: str) -> dict[str, Any] | None:
    """The victory conditions (map.yaml `victory`, the XML's): `side` wins holding both
    territories of one of its pairs, neither contested. Checked for a side when the other
    side's last power of the round has played: it must have held them through the other
    side's turns (the Allies after the Ottoman turn, the Central Powers after the USA's; in
    the civil war the Allies after the Soviets', the last Central Powers turn). In the civil
    war Moscow counts for no Central Powers victory (civil_war.uncounted)."""
    for pair in data["map"]["victory"][side]:
        if all(board.side(data, state["control"].get(t, "")) == side
               and not board.contested(state, t)
               and not (side == "central" and civil_war.uncounted(data, state, t)) for t in pair):
            winners = [p["id"] for p in board.powers(data)
                       if p["side"] == side and p["id"] in state["order"]
                       and not board.out_of_war(state, p["id"])]
            return {"winners": winners, "side": side, "reason": f"{side} hold "
                    + " and ".join(board.places(data)[t]["name"] for t in pair)}
    return None


def _turn_passed(data: GameData, state: State, event: Event) -> None:
    corrections.check_next(data, state, event)  # a correction may give it too
    state["power"], state["turn"] = event["power"], event["turn"]


def _at_war(data: GameData, state: State, event: Event) -> None:
    corrections.check_at_war(data, state, event)  # a correction may give it too
    state["at_war"].append(event["power"])


def _game_over(data: GameData, state: State, event: Event) -> None:
    state["phase"], state["over"], state["result"] = "over", True, event["result"]


def _told_next(data: GameData, event: Event) -> str:
    return f"round {event['turn']}: {board.power(data, event['power'])['name']}'s turn"


def _told_at_war(data: GameData, event: Event) -> str:
    return f"{board.power(data, event['power'])['name']} enters the war"


def _told_over(data: GameData, event: Event) -> str:
    return f"game over: {event['result']['reason']}"


APPLY: dict[str, Apply[GameData]] = {"next": _turn_passed, "at_war": _at_war, "over": _game_over}
DESCRIBE: dict[str, Describe[GameData]] = {"next": _told_next, "at_war": _told_at_war,
                                           "over": _told_over}
