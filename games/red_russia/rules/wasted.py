"""Orders that are legal but will do nothing, or waste something: `pbem check` warns.

`validate` refuses what the rules forbid; this finds what they allow for nothing:

- a card whose every effect is void when it is played (14.6): a minor faction that may not
  enter play before the third turn (12.1), Poland played as a major faction (13.54), a leader who is not there to come or to be wounded
  (10.4, 10.6), no tank or counter waiting for the card (15.4, 20.4), a battle card on a
  zone without a railway hub (2.1) or where the file fights no battle, a Coup de main
  that cannot take its zone (9.0), a Cossack Raid with no Red zone in reach (15.3);
- a move to the zone its units are in (7.1), which may even use a rail movement (7.6).

Each condition is the one resolution tests (the functions of play.py that `effect_events`
calls), so `check` and the log cannot disagree; and each is taken only where nothing
between the check and the play can change it. A warning is certain, never a guess.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from pbem.game import GameData, Problem, State
from pbem.kit.orders import order_items

from . import movement, play
from .board import board
from .cards import deck
from .fold import apply_all

# the statuses a piece never leaves: a leader killed (10.4, 10.5), a counter a card took
# out of the game (14.6)
FOR_GOOD = ("dead", "gone")


def warnings(data: GameData, state: State, faction: str, body: dict[str, Any]) -> list[Problem]:
    """The warnings on a legal orders file of `faction` in the phase of `state`."""
    if state["phase"] == "purchase":
        return cards(data, state, faction, body, "purchase")
    if state["phase"] != "action":
        return []
    idle: list[int] = []
    events, _problems = movement.plan(data, state, faction, body, idle=idle)
    paths = [list(e["path"]) for e in events if e["type"] == "moved"]
    found = [_idle_move(body, i) for i in idle]
    return found + cards(data, state, faction, body, "action", apply_all(data, state, events), paths)


def _idle_move(body: dict[str, Any], index: int) -> Problem:
    """7.1: a move to the zone its units are in."""
    arg = body["orders"][index]["move"]
    rail = "; it would use a rail movement too (7.6)" if arg.get("rail") else ""
    return Problem(("orders", index, "move", "to"),
                   f"this move ends where it began: its units are in {arg['to']} already, so "
                   f"they do not move (7.1){rail}")


def cards(data: GameData, state: State, faction: str, body: dict[str, Any], file_phase: str,
          moved: State | None = None, paths: Sequence[Sequence[str]] = ()) -> list[Problem]:
    """The `play` orders whose card will have no effect (14.6): every effect void when it is
    played. A card is judged in `state`, the position the file is checked in; a card played
    once the moves are made (Coup de main, the battle cards) in `moved`, the position after
    the file's moves, whose `paths` the dice may still send units back along (8.92)."""
    found: list[Problem] = []
    fought = _fought(data, body) if file_phase == "action" else None
    for i, _verb, arg in order_items(body, ("play",), []):
        name = str(arg["card"])
        if deck(data)[name]["immediate"]:
            continue  # pbem plays it at the start of its phase all the same (14.71)
        who = str(arg.get("as", faction))
        card = {"holder": faction, "faction": who, "card": name, "target": arg.get("target"),
                "zone": arg.get("zone")}
        where = moved if moved is not None and play.after_moves(data, card) else state
        reasons = [futile(data, where, card, effect, fought if who == faction else None, paths)
                   for effect in deck(data)[name]["effect"]]
        if reasons and all(reasons):
            told = "; ".join(dict.fromkeys(r for r in reasons if r))
            found.append(Problem(("orders", i, "play", "card"),
                                 f"{name} will have no effect: {told}; played now, the card "
                                 "is spent for nothing"))
    return found


def _fought(data: GameData, body: dict[str, Any]) -> set[str]:
    """The zones the file attacks or besieges (8.2, 9.1)."""
    places = board(data).places
    zones = set()
    for _i, _verb, arg in order_items(body, ("attack", "siege"), []):
        zone = places.get(arg.get("zone")) if isinstance(arg, dict) else None
        if zone is not None:
            zones.add(zone)
    return zones


def void_card(data: GameData, state: State, card: dict[str, Any]) -> bool:
    """Whether every effect of a card played as `card` says ({holder, faction, card,
    target, zone}) would be void now: pbem's `play_cards: auto` keeps it (ruling 63)."""
    return all(futile(data, state, card, effect, None, ()) for effect in deck(data)[card["card"]]["effect"])


def futile(data: GameData, state: State, card: dict[str, Any], effect: dict[str, Any],
           fought: set[str] | None, paths: Sequence[Sequence[str]]) -> str | None:
    """Why one effect of a played card will do nothing, with its rule, or None when it may
    do something. `fought`: the zones the player's own action file fights in (None for
    another file, or a card played as another faction)."""
    do = effect["do"]
    faction = play.faction_of(effect, card)
    units = state["units"]
    if do in ("money", "manpower"):
        return None  # an `unless` flag only stops the halving (10.93): the card still acts
    if do == "minor":  # the turn, and Poland as a major (set in the victory phase), hold
        return play.minor_refused(state, effect)
    if do == "wound_leader":
        status = units[effect["leader"]]["status"]
        return f"{effect['leader']} is {status}, not on the map (10.4)" if status in FOR_GOOD else None
    if do == "leader":
        return _no_leader(data, state, faction, effect["leader"])
    if do == "tank":
        return None if play.waiting_tanks(data, state, faction) else (
            f"{faction} has no tank waiting for the card (15.4)")
    if do == "add_units":
        # only the set-up sets a counter aside for a card (the Allies' also leave, 13.6)
        if effect.get("money") or faction == "allies" or play.set_aside(
                data, state, faction, effect.get("units") or {}):
            return None
        return f"no counter of {faction} is set aside for this card (20.4)"
    if do == "combat":
        return _no_battle(data, card, effect, fought)
    if do == "coup_de_main":
        return _no_coup(data, state, card, paths)
    if do == "cossack_raid":  # control changes neither before the moves nor during them
        return None if play.raid_zones(data, state) else "no Red zone within reach (15.3)"
    return None


def _rule(data: GameData, card: dict[str, Any]) -> str:
    return str(deck(data)[card["card"]].get("rule") or "14.6")


def _no_leader(data: GameData, state: State, faction: str, leader: str) -> str | None:
    """10.6: a new leader comes from the unused leaders. A leader joins them only when
    wounded (10.4): in a battle, which no card of the purchase file or of the start of an
    action phase waits for, or by a card, which is left to resolution."""
    wounded = [e["leader"] for c in deck(data).values() for e in c["effect"]
               if e["do"] == "wound_leader"]
    if leader == "random_unused":
        if play.unused_leaders(data, state, faction) or any(
                state["units"][w]["faction"] == faction for w in wounded):
            return None
        return f"{faction} has no unused leader (10.6)"
    if state["units"][leader]["status"] == "unused" or leader in wounded:
        return None
    return f"{leader} is not among the unused leaders (10.6)"


def _no_battle(data: GameData, card: dict[str, Any], effect: dict[str, Any],
               fought: set[str] | None) -> str | None:
    """A battle card: dice only at a railway hub (2.1); and it lasts the action phase it is
    played in (14.6), in which the player fights only the battles of its own file."""
    zone = card.get("zone")
    if zone in board(data).zones and play.no_hub(data, str(zone), effect):
        return f"no railway hub in {zone} (2.1)"
    if fought is not None and zone not in fought:
        return (f"these orders neither attack nor besiege {zone}, and a battle card lasts only "
                "the action phase it is played in (14.6)")
    return None


def _no_coup(data: GameData, state: State, card: dict[str, Any],
             paths: Sequence[Sequence[str]]) -> str | None:
    """9.0 after the moves, as resolution judges it, where the dice cannot change it: a
    transport met at sea turns back to a port on its path (8.92), so units may yet be in a
    zone a move passes; enemy aircraft alone retreat from a force that enters (8.93)."""
    faction, zone = str(card["faction"]), card.get("zone")
    why_not = play.coup_refused(data, state, faction, zone)
    if why_not is None:
        return None
    assert isinstance(zone, str)  # validate asks for a zone of the map
    if play.coup_target(state, faction, zone):
        if not play.coup_force(state, faction, zone):
            if any(zone in path for path in paths):
                return None
        elif all(state["units"][u]["type"] == "air" for u in play.coup_blockers(state, faction, zone)):
            return None
    return f"{why_not} (9.0)"
