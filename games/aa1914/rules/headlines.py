"""What an Axis & Allies 1914 report says first (Game.headlines): each battle on land and at
sea, who attacked where and how it ended, the territories captured or liberated and the
neutrals joining a power, the capitals taken with their treasuries, ships lost to mines,
the USA entering the war, the revolution (the armistice offered and answered, its
deadlines; the civil war, the Soviets entering, the treaty of Brest-Litovsk, Imperial
Russia's territories reverting to it), and the end of the game. A&A hides nothing: every
event is public.

And what the power whose turn it is must still cover in its file (Game.todo): the war's
opening attack it owes (game.yaml `first_attack`), its units the armistice sends out of
Russia (2e), and where this turn's purchase may be mobilized (its factories and ports)."""

from __future__ import annotations

from typing import Any

from pbem.game import Event, GameData, State

from . import board, economy, revolution

SIDES = {"central": "the Central Powers", "allies": "the Allies"}


def _called(data: GameData, owner: Any) -> str:
    """A power's name (game.yaml, map.yaml); neutral troops as such."""
    if owner is None or owner == board.NEUTRAL:
        return "neutral troops"
    try:
        return str(board.power(data, str(owner))["name"])
    except KeyError:
        return str(owner)


def _who(data: GameData, owners: Any) -> str:
    return " and ".join(_called(data, o) for o in owners) or "nobody"


def _left(force: dict[str, dict[str, int]], lost: dict[str, dict[str, int]]) -> bool:
    """Some unit of `force` is left after `lost`."""
    return any(n - lost.get(o, {}).get(u, 0) > 0 for o, units in force.items() for u, n in units.items())


def _battle(data: GameData, event: Event) -> str | None:
    """A land battle's end, as Red Russia says its battles'; None where nobody defended (the
    capture says it)."""
    defenders = {o: u for o, u in event["defenders"].items() if any(u.values())}
    if not defenders:
        return None
    where = board.name(data, event["where"])
    attacker, held = _called(data, event["power"]), _who(data, defenders)
    a_left = _left(event["attackers"], event["losses"])
    d_left = _left(defenders, event["losses"])
    return _ended(a_left, d_left, won=f"{attacker} won the battle of {where} against {held}",
                  held=f"{held} held {where} against {attacker}",
                  both=f"{attacker} attacked {held} at {where}: both sides stay",
                  nobody=f"the battle of {where} between {attacker} and {held} left nobody there")


def _sea_battle(data: GameData, event: Event) -> str:
    where = board.name(data, event["where"])
    attacker = _called(data, event["power"])
    held = _who(data, event["defenders"])
    gone = dict(event["sunk"])
    for owner, n in (event.get("submerged") or {}).items():  # out of the battle, not sunk
        gone[owner] = {**gone.get(owner, {}), "submarine": gone.get(owner, {}).get("submarine", 0) + n}
    if event.get("withdrew"):
        return f"{attacker} withdrew from the sea battle in {where} against {held}"
    a_left, d_left = _left(event["attackers"], gone), _left(event["defenders"], gone)
    return _ended(a_left, d_left, won=f"{attacker} won the sea battle in {where} against {held}",
                  held=f"{held} held {where} against {attacker}",
                  both=f"{attacker} attacked {held} in {where}: both fleets stay",
                  nobody=f"the sea battle in {where} between {attacker} and {held} left no ship afloat")


def _ended(attacker_left: bool, defender_left: bool, *, won: str, held: str, both: str,
           nobody: str) -> str:
    """A battle's headline by who is left: the attacker alone, the defender alone, both, or
    nobody."""
    if attacker_left and not defender_left:
        return won
    if defender_left and not attacker_left:
        return held
    return both if attacker_left else nobody


def headlines(data: GameData, events: list[Event]) -> list[str]:
    """The phrases of one step's events, in their order; the treaty of Brest-Litovsk's
    cessions as one phrase."""
    out: list[str] = []
    attackers: dict[str, str] = {}  # territory -> the power whose battle was fought there
    ceded: dict[str, list[str]] = {}  # power -> territories the treaty gives it
    for e in events:
        kind = e.get("type")
        if kind == "battle":
            attackers[str(e["where"])] = str(e["power"])
            told = _battle(data, e)
            if told is not None:
                out.append(told)
        elif kind == "sea_battle":
            out.append(_sea_battle(data, e))
        elif kind == "control" and e.get("taken_from", e["power"]) != e["power"]:
            where, taker = board.name(data, e["where"]), str(e["power"])
            by = attackers.get(str(e["where"]), taker)
            if by != taker:
                out.append(f"{_called(data, by)} liberated {where} for {_called(data, taker)}")
            else:
                before = e["taken_from"]
                out.append(f"{_called(data, taker)} took {where}" + (
                    f" from {_called(data, before)}" if before not in (None, board.NEUTRAL) else ""))
        elif kind == "capital_taken":
            out.append(f"{_called(data, e['power'])} took {_called(data, e['from'])}'s capital "
                       f"{board.name(data, e['where'])} and its {e['ipc']} IPC")
        elif kind == "neutral_joins":
            out.append(f"{board.name(data, e['where'])} joined {_called(data, e['power'])}")
        elif kind == "mines" and e["sunk"]:
            lost = board.units_text(e["sunk"]) + (
                f" with {board.units_text(e['cargo_lost'])} aboard" if e.get("cargo_lost") else "")
            out.append(f"{_called(data, e['power'])} lost {lost} to mines in "
                       f"{board.name(data, e['where'])}")
        elif kind == "at_war":
            out.append(f"{_called(data, e['power'])} entered the war")
        elif kind == "armistice_offer":
            by = _called(data, e["by"])
            out.append(f"{by} accepted Soviet Russia's armistice: {_called(data, e['power'])} is "
                       "out of the war" if e["answer"] == "accept"
                       else f"{by} rejected Soviet Russia's armistice: no revolution")
        elif kind == "armistice_deadline" and any(any(u.values()) for u in e["removed"].values()):
            out.append(f"{_called(data, e['power'])}'s units left in Russia removed (armistice)")
        elif kind == "armistice_closed":
            out.append(f"the Central Powers left {board.name(data, e['where'])} for good (armistice)")
        elif kind == "civil_war":
            out.append(f"revolution in {_called(data, e['power'])}: the civil war begins")
        elif kind == "soviets_enter":
            out.append(f"{_called(data, e['power'])} entered the war, played by "
                       f"{_called(data, e['played_by'])}'s player")
        elif kind == "brest_litovsk" and e["case"] in ("ceded", "contested"):
            ceded.setdefault(str(e["power"]), []).append(board.name(data, e["where"]))
        elif kind == "civil_war_reverted":
            back = ", ".join(board.name(data, t) for t in e["from"])
            out.append(f"{back} reverted to {_called(data, e['power'])}")
        elif kind == "over":
            side = SIDES.get(str(e["result"].get("side")))
            out.append("the game is over" + (f": {side} won" if side else ""))
    out += [f"Brest-Litovsk: {', '.join(ts)} ceded to {_called(data, p)}" for p, ts in ceded.items()]
    return out


# ---------------------------------------------------------------------------------------
# what the power whose turn it is must still cover


def todo(data: GameData, state: State, faction: str) -> list[str]:
    """The lines of `faction`'s turn file, from the public state ([] when it is not its
    turn or nothing is owed)."""
    if state.get("phase") != "turn" or state.get("power") != faction:
        return []
    out: list[str] = []
    first = data["game"].get("first_attack")
    if first is not None and first["power"] == faction and first["round"] == state["turn"]:
        where = board.name(data, first["territory"])
        out.append(f"attack {where}: move land units into it, the war begins there")
    rev = state.get("revolution") or {}
    if revolution.accepted(state) and faction in rev.get("must_leave", []):
        russia = rev["power"]
        stuck = [board.name(data, t) for t, v in data["map"]["territories"].items()
                 if v["owner"] == russia and revolution.russian_here(data, state, t)
                 and any(board.stack(state, t, faction).values())]
        if stuck:
            out.append(f"move your units out of {', '.join(stuck)}: those still there when your "
                       "moves end are removed (armistice 2e)")
    cheapest = min(int(u["cost"]) for u in board.unit_types(data).values())
    if int(state["treasury"].get(faction, 0)) >= cheapest:
        goes = mobilization(data, state, faction)
        if goes is not None:
            out.append(f"mobilize what you buy ({state['treasury'][faction]} IPC): {goes}")
        else:
            out.append(f"buy nothing: {_called(data, faction)} has no factory or port to "
                       "mobilize in now")
    return out


def mobilization(data: GameData, state: State, faction: str) -> str | None:
    """Where the power's purchase may be mobilized now (SOURCES.md 4.8: land units and
    fighters at its factories, ships next to its ports; economy.mobilize_places), as one
    phrase ("land units and fighters in Vienna; ships in SZ 18"), or None: nowhere. The
    turn file's todo and the order of battle (rules/order_of_battle.py) both say it."""
    land = economy.mobilize_places(data, state, faction, "infantry")
    sea = economy.mobilize_places(data, state, faction, "transport")
    if not land and not sea:
        return None
    return "; ".join([f"land units and fighters in {_places(data, land)}" if land else
                      "no land units or fighters (no factory held)",
                      f"ships in {_places(data, sea)}" if sea else "no ships (no port held)"])


def _places(data: GameData, places: list[str]) -> str:
    names = [board.name(data, p) for p in places]
    return names[0] if len(names) == 1 else "one of " + ", ".join(names)

