"""Battles as boxes in a Red Russia report (Game.boxes): who fought (each unit with its
counter values, leaders with their levels, the fortification the defender adds:
8.5, 10.2), each round's dice by group with what each hits on and why (8.5, 8.91, 8.93,
10.82, 10.83, 14.6), and the hits; the losses, retreats and the end of the battle stay
below the table as the log tells them. Built from the step's events folded from the state
before the step, so it says nothing the log does not."""

from __future__ import annotations

from typing import Any

from pbem.game import Event, GameData, State

from .board import HARD_ROUTES, Board, board
from .fold import APPLY, RECORD_ONLY, apply_with
from .forces import fort_now, leaders_at, units_at
from .headlines import names


def _units(b: Board, state: State, ids: list[str]) -> str:
    told = []
    for u in ids:
        c, reduced = b.counters[u], bool(state["units"][u]["reduced"])
        values = c["reduced"] if reduced else c["full"]
        told.append(f"{u} {values[0]}-{values[1]}" + (" (reduced)" if reduced else ""))
    return ", ".join(told) or "none"


def _leaders(b: Board, ids: list[str]) -> str:
    return ", ".join(f"{lid} (level {b.leaders[lid]['level']})" for lid in ids) or "none"


def _why(group: dict[str, Any], side: str, r: int, defended_after_route: bool) -> str:
    """Why a group of dice hits on its number (8.5's +1, tanks, aircraft, Trotsky, cards)."""
    what, hit = str(group["what"]), int(group["hit"])
    reasons = []
    if what == "tanks" and r == 1:
        reasons.append("tanks 8.91")
    if what == "aircraft":
        reasons.append("first fire 8.93")
    if what == "Trotsky":
        reasons.append("10.83")
    if what == "Stalin's commissars":
        reasons.append("doubled 10.82")
    if what not in ("units", "tanks", "aircraft", "Trotsky", "Stalin's commissars"):
        reasons.append("battle card 14.6")
    if side == "def" and defended_after_route and r == 1 and what != "Trotsky":
        reasons.append("+1 after a difficult route 8.5")
    because = f" ({', '.join(reasons)})" if reasons else ""
    values = " ".join(str(v) for v in group.get("values") or [])
    hits = int(group.get("hits") or 0)
    return f"{what} {hit}+{because}: {values} = {hits} hit{'' if hits == 1 else 's'}"


def boxes(data: GameData, state: State, events: list[Event]) -> list[dict[str, Any]]:
    """A box for each battle among a step's events, from its `attack` to its `battle_over`."""
    if not any(e.get("type") == "attack" for e in events):
        return []  # no battle in the step (the set-up's, a purchase...): nothing to fold
    b = board(data)
    called = names(data)
    out: list[dict[str, Any]] = []
    work = state
    open_: dict[str, Any] | None = None
    for i, e in enumerate(events):
        kind = e.get("type")
        if kind == "attack" and e.get("rounds"):
            zone = str(e["zone"])
            defenders = set(map(str, e.get("defenders") or []))
            present = units_at(work, zone)
            mine = [u for u in present if work["units"][u]["faction"] not in defenders]
            theirs = [u for u in present if work["units"][u]["faction"] in defenders]
            owner = work["control"].get(zone)
            fort = fort_now(b, work, zone) if owner in defenders else 0
            attacker = called.get(str(e["attacker"]), str(e["attacker"]))
            defending = " and ".join(called.get(d, d) for d in sorted(defenders)) or "nobody"
            rows = [["Units", _units(b, work, mine), _units(b, work, theirs)],
                    ["Leaders", _leaders(b, leaders_at(work, zone, {str(e["attacker"])})),
                     _leaders(b, leaders_at(work, zone, defenders))]]
            if fort:
                rows.append(["Fortification", "", f"{fort} (8.5)"])
            spend = f", {e['spend']} money" if e.get("spend") else ""
            open_ = {"first": i, "told": [i], "columns": ["", f"{attacker} (attacker)", defending],
                     "rows": rows,
                     "title": f"Battle of {zone}: {attacker} attack {defending} "
                              f"({e.get('level')}, up to {e['rounds']} "
                              f"round{'' if e['rounds'] == 1 else 's'}{spend})"}
            entered = work.get("entered", {}).get(zone, [])
            open_["difficult"] = any(x.get("faction") == e["attacker"] and x.get("kind") in HARD_ROUTES
                                     for x in entered)
        elif open_ is not None and kind == "combat_round" and not e.get("siege"):
            r = int(e.get("round") or 0)
            dice = e.get("dice") or {}
            open_["rows"].append([f"Round {r}"] + [
                "; ".join(_why(g, side, r, open_["difficult"]) for g in dice.get(side) or []) or "no dice"
                for side in ("atk", "def")])
            open_["told"].append(i)
        elif open_ is not None and kind == "battle_over":
            open_["last"] = i
            del open_["difficult"]
            out.append(open_)
            open_ = None
        if kind in APPLY or kind in RECORD_ONLY:  # an event of the engine's own is not the game's
            work = apply_with(b, work, e)
    return out
