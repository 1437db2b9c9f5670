"""The turn (4.0) as far as it is implemented: initiative (4.4), each faction's action
phase in initiative order with movement (4.5, 7.x), and the victory phase (4.6, 16.x).

The card, purchase and political phases (4.1-4.3), combat and siege inside the action
phase, and the winter phases (4.7-4.9) come with the whole-turn work; until then a turn
runs initiative -> action x4 -> victory.
"""

from __future__ import annotations

from typing import Any

from pbem.dice import two_d6
from pbem.game import Event, GameData, Problem, Rng, State

from .board import CORPS, MAJORS, Board, board
from .common import belongs, poland_major
from .minors import polish_comeback

LENIN_CHOICES = {2: 2, -2: -2, 0: 0, "+2": 2, "-2": -2, "none": 0}


def active(state: State) -> list[str]:
    return [f for f in MAJORS if f not in state["defeated"]]


def lenin_in_moscow(state: State) -> bool:
    lenin = state["units"].get("lenin", {})
    return bool(lenin.get("status") == "map" and lenin.get("zone") == "Moscow")


def validate_lenin(body: dict[str, Any]) -> list[Problem]:
    """`- decide: {lenin_initiative: "+2"}` when the Reds asked to be asked (10.8.1)."""
    from pbem.kit.orders import order_items

    problems: list[Problem] = []
    items = list(order_items(body, ("decide",), problems))
    if len(items) != 1:
        problems.append(Problem(("orders",), 'one order: - decide: {lenin_initiative: "+2"} '
                                             '(or "-2", or none)'))
    for i, _verb, arg in items:
        value = arg.get("lenin_initiative") if isinstance(arg, dict) else None
        if isinstance(value, bool) or value not in LENIN_CHOICES:
            problems.append(Problem(("orders", i, "decide"), 'lenin_initiative is "+2", "-2" or none'))
    return problems


def lenin_choice(body: dict[str, Any]) -> Any:
    from pbem.kit.orders import order_items

    for _i, _verb, arg in order_items(body, ("decide",), []):
        return arg.get("lenin_initiative", "none")
    return "none"


def initiative(data: GameData, state: State, rng: Rng) -> list[Event]:
    """4.4: 2d6 each; Lenin in Moscow lets the Reds add or subtract 2 (10.8.1); ties re-rolled."""
    turn = state["turn"]
    events: list[Event] = []
    totals: dict[str, int] = {}
    for faction in active(state):
        a, b_ = two_d6(rng, f"initiative:t{turn}:{faction}")
        modifier = 0
        if faction == "red" and lenin_in_moscow(state):
            modifier = LENIN_CHOICES.get(state["standing"].get("red", {}).get("lenin_initiative", 0), 0)
        totals[faction] = a + b_ + modifier
        events.append({"type": "initiative_roll", "faction": faction, "dice": [a, b_],
                       "modifier": modifier, "total": totals[faction]})
    order = _rank(totals, rng, f"initiative:t{turn}", events)
    events.append({"type": "initiative", "order": order})
    return events


def _rank(totals: dict[str, int], rng: Rng, label: str, events: list[Event], depth: int = 1) -> list[str]:
    """Highest first; each group of equal totals re-rolls among itself, unmodified (4.4)."""
    order: list[str] = []
    for value in sorted(set(totals.values()), reverse=True):
        tied = sorted(f for f, t in totals.items() if t == value)
        if len(tied) == 1:
            order += tied
            continue
        again: dict[str, int] = {}
        for faction in tied:
            a, b_ = two_d6(rng, f"{label}:reroll{depth}:{faction}")
            again[faction] = a + b_
            events.append({"type": "initiative_roll", "faction": faction, "dice": [a, b_],
                           "modifier": 0, "total": again[faction], "reroll": depth})
        order += _rank(again, rng, label, events, depth + 1)
    return order


def victory_points(b: Board, state: State) -> dict[str, int]:
    """16.0: money of the zones held minus the starting base, plus the special points."""
    vp: dict[str, int] = {}
    for f in b.game["factions"]:
        faction = f["id"]
        held = 0
        for zone, owner in state["control"].items():
            if owner == faction and zone not in (state.get("raids") or {}):  # 15.3
                money = b.zones[zone]["money"]
                held += 2 * money if (faction == "red" and zone == "Warsaw") else money  # 13.5
        vp[faction] = held - f["vp_base"]
    if state["units"].get("lenin", {}).get("status") not in ("dead", "eliminated"):
        vp["red"] += 1  # 10.8.1 Lenin alive is worth a point to the Reds
    for faction in (state.get("flags") or {}).get("lenin_killed_by") or []:
        vp[faction] += 1  # 10.8.1 "... and to the Whites if he dies"
    if state["units"].get("denikin", {}).get("status") == "dead":
        vp["red"] += 1  # 10.91 "If he is killed in combat, he yields one victory point to the Red player"
    treasure = state["treasure"]
    if treasure["owner"] in vp and treasure["zone"] is not None:
        vp[treasure["owner"]] += {0: 2, 1: 1}.get(treasure["used"], 0)  # 15.1
    if state["options"].get("czech_legion"):
        vp["siberian"] += 1  # 19.3 the handicap point
    return vp


def victory(data: GameData, state: State) -> list[Event]:
    """4.6: automatic victory and defeat each turn (16.0, 16.2); the final count (16.1)."""
    b = board(data)
    events: list[Event] = []
    for faction in active(state):
        corps = [u for u in state["units"].values() if belongs(state, u["faction"], faction)
                 and u["status"] == "map" and u["type"] in CORPS]
        if not corps:  # 16.2
            events.append({"type": "defeated", "faction": faction})
            state = {**state, "defeated": [*state["defeated"], faction]}
            if poland_major(state) == faction:  # 13.54 Poland is a minor again, neutral
                events.append({"type": "poland_major_over", "faction": faction})
                state = {**state, "flags": {**state["flags"], "poland_major": False}}
    for e in polish_comeback(b, state):  # 13.54 an eliminated player plays on with Poland
        events.append(e)
        state = {**state, "defeated": [f for f in state["defeated"] if f != e["faction"]],
                 "flags": {**(state.get("flags") or {}), "poland_major": e["faction"]}}
    vp = victory_points(b, state)
    events.append({"type": "victory_points", "vp": vp})
    levels = b.game["victory"]["automatic"]
    alive = [f for f in active(state) if f != poland_major(state)]  # 13.54 Poland never wins
    seats = seating(state)
    # 16.0: a player of several factions must reach the level with each of them
    reached = [f for seat in seats if all(f in alive and vp[f] >= levels[f] for f in seat)
               for f in seat]
    if reached:
        best = max(vp[f] - levels[f] for f in reached)
        winners = sorted(f for f in reached if vp[f] - levels[f] == best)
        events.append(_over(winners, "automatic victory (16.0)", vp, levels))
    elif not alive or alive == ["red"] or "red" not in alive:
        winners = alive or []
        events.append(_over(winners, "automatic defeat of the other side (16.2)", vp, levels))
    elif state["turn"] >= len(b.game["turns"]):
        events.append(_final(vp, levels, alive, seats))
    else:
        # 4.7-4.9 follow the victory phase of a winter turn
        winter = is_winter(b, state)
        events.append({"type": "phase", "turn": state["turn"] if winter else state["turn"] + 1,
                       "phase": "winter" if winter else "purchase"})
    return events


def is_season(b: Board | GameData, state: State, season: str) -> bool:
    """The turn's name in game.yaml's turns says `season` (Winter: 4.7-4.9, 14.8; Spring: 12.42)."""
    turns = b.game["turns"] if isinstance(b, Board) else b["game"]["turns"]
    return season in str(turns[int(state["turn"]) - 1])


def is_winter(b: Board | GameData, state: State) -> bool:
    return is_season(b, state, "Winter")


def seating(state: State) -> list[list[str]]:
    """The factions each player commands (1.0): campaign option `seating`, else one each."""
    seats = state["options"].get("seating") or [[f] for f in MAJORS]
    return [list(seat) for seat in seats]


def _final(vp: dict[str, int], levels: dict[str, int], alive: list[str],
           seats: list[list[str]]) -> Event:
    """16.1: the player closest to the automatic victory level wins; a player of several
    factions is as close as the average of their distances, decimals kept (the 16.1
    example: 5 and 2 points away make 3.5). Whites tied share the win; the Reds win a tie
    with the Whites."""
    from fractions import Fraction

    playing = [seat for seat in seats if any(f in alive for f in seat)]
    distance = {tuple(seat): Fraction(sum(levels[f] - vp[f] for f in seat), len(seat))
                for seat in playing}
    best = min(distance.values())
    winners = sorted(f for seat, d in distance.items() if d == best for f in seat)
    if "red" in winners:
        winners = ["red"]
    event = _over(winners, "closest to its automatic victory level at the end of Spring 1921 (16.1)",
                  vp, levels)
    event["result"]["distance"] = {"+".join(seat): str(d) for seat, d in distance.items()}
    return event


def _over(winners: list[str], reason: str, vp: dict[str, int], levels: dict[str, int]) -> Event:
    return {"type": "game_over", "result": {"winners": winners, "reason": reason, "vp": vp,
                                            "levels": {f: levels[f] for f in vp}}}


def next_actor(state: State) -> str | None:
    order = [f for f in state["initiative"] if f in active(state)]
    if state["actor"] not in order:
        return order[0] if order else None
    i = order.index(state["actor"])
    return order[i + 1] if i + 1 < len(order) else None


def standing_events(state: State, orders: dict[str, Any]) -> list[Event]:
    """Standing instructions are kept key by key until changed; a key set to null is
    dropped. The event holds the whole set in force afterwards."""
    out: list[Event] = []
    for faction in sorted(orders):
        given = orders[faction].get("standing") or {}
        before = state["standing"].get(faction) or {}
        standing = {k: v for k, v in {**before, **given}.items() if v is not None}
        if given and standing != before:
            out.append({"type": "standing", "faction": faction, "standing": standing})
    return out

