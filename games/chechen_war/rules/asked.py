"""Who is asked: a side that can do nothing legal in a segment gets no mail and sends no
file for it (PhaseRules.idle); the step records why (a `not_asked` event, in the log and
every report). Each test reads the public position alone (where the units stand, the
markers and leaders in hand), never which unit a face-down token is, and says "can do
nothing" only when no file but an empty one could be legal.
"""

from __future__ import annotations

from pbem.game import GameData, State

from . import ahead
from .ambush import chechen_hexes, russian_hexes
from .board import CHECHEN, RUSSIAN, board
from .combat import ABROAD, marker_kinds


def _adjacent(data: GameData, targets: list[str], sources: list[str]) -> bool:
    grid = board(data).grid
    return any(grid.adjacent(s, t) for t in targets for s in sources)


def russian_attack(data: GameData, state: State, side: str) -> str | None:
    """10.1: combat is between units in adjacent hexes; no Chechen unit next to a Russian
    one leaves the Russian nothing to attack."""
    if _adjacent(data, list(chechen_hexes(state)), list(russian_hexes(state))):
        return None
    return "no Chechen unit is next to a Russian unit: there is nothing to attack (10.1)"


def chechen_attack(data: GameData, state: State, side: str) -> str | None:
    """10.1, 8.2: the Chechen attacks Russian units next to his in hexes his units could
    enter (Chechnya; Dagestan and Ingushetia for militia), never from those two oblasts."""
    b = board(data)
    targets = [h for h in russian_hexes(state) if b.region[h] == "chechnya" or b.region[h] in ABROAD]
    sources = [h for h in chechen_hexes(state) if b.region[h] not in ABROAD]
    if _adjacent(data, targets, sources):
        return None
    return ("no Russian unit that the Chechen could attack is next to his units outside "
            "Dagestan and Ingushetia (10.1, 8.2)")


def chechen_support(data: GameData, state: State, side: str) -> str | None:
    """10.9, 11.2: the Chechen backs a defence with support markers (in Chechnya) or leaders
    (from the Underground Box or in the defending hex); with neither, nothing to answer."""
    b = board(data)
    targets = [a["target"] for a in state.get("attacks") or []]
    if int(state["supports"][CHECHEN].get("artillery", 0)) and any(
            b.region[t] == "chechnya" for t in targets):
        return None
    if any(where == "underground" or where in targets for where in state["leaders"].values()):
        return None
    return ("the Chechen has no support marker for a defence in Chechnya and no leader in the "
            "Underground Box or in an attacked hex (10.9, 11.2)")


def russian_support(data: GameData, state: State, side: str) -> str | None:
    """10.9: the Russian backs his defence with markers of a kind used in defence; with none
    left, nothing to answer."""
    kinds = marker_kinds(data, RUSSIAN)
    if any(int(n) and "defence" in kinds[k]["use"] for k, n in state["supports"][RUSSIAN].items()):
        return None
    return "the Russian has no support marker left that may back a defence (10.9)"


def end_of_turn(data: GameData, state: State, side: str) -> str | None:
    """6.3: the Chechen's one choice at the end of the turn is to kidnap civilians, once a
    game; done, he has nothing to answer. Where the campaign gives the end of the turn ahead
    (ahead.py), neither side is asked: their orders came sealed in their files of the turn;
    else the Russian is always asked (ceasefire, reinforcements, strikes)."""
    if side == CHECHEN and state.get("kidnapped"):
        return "the kidnapping, the Chechen's one choice at the end of a turn, was done (6.3)"
    return ahead.idle(state, side)


def describe(side: str, why: str) -> str:
    who = {RUSSIAN: "the Russian", CHECHEN: "the Chechen"}.get(side, side)
    return f"{who} is not asked: {why}"
