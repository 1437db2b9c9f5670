"""Battles as boxes in a Chechen War report (Game.boxes): each combat (10.0) and each
ambush (14.0) of a step, told as a table.

A combat: the units of both sides with their values (the Russian's as their counters show
them, a reduced unit's, 2.8; the Chechen's as the combat revealed them, 10.6), the combat
factors and the odds (10.7), the support markers and leaders (10.9, 11.2), every column
shift and why (10.8, 10.10, the TEC), the die on the CRT and what its result does (10.11),
TOS-1's own die (10.9, 10.13), the losses, the advance (10.12), the markers used and
collateral damage (10.13), the Chechen markers' dice (10.9) and the leaders' (11.4).

An ambush: the ambushing and supporting hexes (their units as counts: face down, 14.3
reveals nothing), the Russian units ambushed, the leader (14.3 b), the die and each
modifier (14.3), the Ambush Table's row and result, the retreat die and where the units
went, the steps lost.

Built from the step's events, folded from the state before the step, and only from what
they say in public: a face-down Chechen unit is never named (its identity is a sealed node
no rule has opened); a revealed one is, as the log names it.
"""

from __future__ import annotations

from typing import Any

from pbem.game import Event, GameData, State
from pbem.kit.tables import span

from .board import CHECHEN, RUSSIAN, Board, board, units
from .events import EVENTS
from .order_of_battle import counter

SIDE = {RUSSIAN: "Russian", CHECHEN: "Chechen"}
# the events of a combat after its `combat` (10.11-10.13, 10.9, 11.4), and before it
AFTER_COMBAT = ("steps_lost", "chechens_eliminated", "leader_roll", "advanced",
                "russian_markers_used", "chechen_marker_roll")
BEFORE_COMBAT = ("leader_placed", "revealed")
AFTER_AMBUSH = ("steps_lost", "retreat_roll", "retreated")
AMBUSH_RESULTS = {"none": "no effect", "retreat": "half a die, rounded up, of the hex's units retreat",
                  "lose_1_step": "the hex loses one step", "lose_2_steps": "the hex loses two steps"}


def _fold(data: GameData, state: State, event: Event) -> State:
    if not EVENTS.knows(event.get("type")):  # an event of the engine's own is not the game's
        return state
    return EVENTS.apply(data, state, event)


def boxes(data: GameData, state: State, events: list[Event]) -> list[dict[str, Any]]:
    """A box for each combat and each ambush among a step's events (`state`: before them)."""
    if not any(e.get("type") in ("combat", "ambush") for e in events):
        return []  # nothing fought in the step: nothing to fold
    b = board(data)
    out: list[dict[str, Any]] = []
    work = state
    done = -1  # the last event a box covers
    for i, e in enumerate(events):
        kind = e.get("type")
        if kind in ("combat", "ambush"):
            back = BEFORE_COMBAT if kind == "combat" else ("leader_placed",)
            first = i
            while first - 1 > done and events[first - 1].get("type") in back and (
                    kind == "combat" or events[first - 1].get("leader") == e.get("leader")):
                first -= 1
            last = i
            ahead = AFTER_COMBAT if kind == "combat" else AFTER_AMBUSH
            while last + 1 < len(events) and events[last + 1].get("type") in ahead:
                last += 1
            run = {k: events[k] for k in range(first, last + 1)}
            told = (_combat if kind == "combat" else _ambush)(data, b, work, run, i)
            out.append({**told, "first": first, "last": last, "told": sorted(run)})
            done = last
        work = _fold(data, work, e)
    return out


def _russians(data: GameData, state: State, ids: list[str]) -> str:
    return ", ".join(counter(data, u, bool(state["russians"][u].get("reduced")))
                     for u in ids if u in state["russians"]) or "none"


def _chechens(data: GameData, shown: dict[str, str], ids: list[str]) -> str:
    told = []
    for t in ids:
        spec = units(data)[shown[t]]
        told.append(f"{t} {spec['name']} ({spec['cf']}-{spec['mf']})")
    return ", ".join(told) or "none"


def _lost(data: GameData, e: Event) -> str:
    spec = units(data)
    if e["type"] == "chechens_eliminated":
        return ", ".join(f"{t} {spec[u]['name']}" for t, u in zip(e["tokens"], e["units"], strict=True)) \
            + " eliminated, to the cup (10.11)"
    told = [f"{spec[u]['name']} reduced" for u in e["reduced"]]
    told += [f"{spec[u]['name']} eliminated, to the pool" for u in e["eliminated"]]
    return "; ".join(told) + f" ({e['steps']} casualt{'ies' if e['steps'] != 1 else 'y'}, 10.13)"


def _meaning(data: GameData, result: str) -> str:
    """What a CRT result does (10.11, tables.yaml `crt: effects`)."""
    effect = data["tables"]["crt"]["effects"][result]
    attacker = {"all": "the attacker eliminated",
                "defender_steps": "the attacker loses as many steps as the defender has",
                "exchange": "exchange: the weaker side eliminated, the other loses as many steps"}.get(str(effect["attacker"]))
    defender = "the defender eliminated" if effect["defender"] == "all" else None
    return attacker or defender or "no effect"


def _combat(data: GameData, b: Board, state: State, run: dict[int, Event], at: int) -> dict[str, Any]:
    e = run[at]
    side = str(e["side"])
    other = CHECHEN if side == RUSSIAN else RUSSIAN
    shown = {str(t): str(u) for t, u in (e.get("chechens") or {}).items()}

    def pieces(who: str, ids: list[str]) -> str:
        return _russians(data, state, ids) if who == RUSSIAN else _chechens(data, shown, ids)

    def row(label: str, by: str, text: str) -> list[str]:
        """A row with `text` in the column of side `by`."""
        return [label, text, ""] if by == side else [label, "", text]

    rows = [["Units", pieces(side, list(e["attackers"])), pieces(other, list(e["defenders"]))],
            ["Combat factors (10.7)", str(e["attack"]), str(e["defence"])],
            ["Odds (10.7)", f"{e['attack']} to {e['defence']}, fractions dropped: {e['odds']}", ""]]
    kinds = {m["kind"]: m for m in data["units"]["support_markers"].values() if m["side"] == RUSSIAN}
    n = int(e["chechen_markers"])
    if e["russian_markers"] or n:
        backed = {RUSSIAN: ", ".join(f"{k} ({kinds[k]['shifts']} column{'s' if int(kinds[k]['shifts']) != 1 else ''})"
                                     for k in e["russian_markers"]) or "none",
                  CHECHEN: f"{n} artillery marker{'s' if n != 1 else ''}" if n else "none"}
        rows.append(["Supports (10.9)", backed[side], backed[other]])
    if e["leaders"]:
        came = {x["leader"] for x in run.values() if x["type"] == "leader_placed"}
        rows.append(row("Leaders (11.2)", CHECHEN, ", ".join(
            data["units"]["leaders"][x]["name"] + (" (out of the underground)" if x in came else "")
            for x in e["leaders"])))
    for direction, count, why in e["shifts"]:  # right helps the attacker, left the defender
        rows.append(row("Column shift (10.8)", side if direction == "right" else other,
                        f"{count} {direction}: {why}"))
    rows.append(["CRT (10.11)", f"fought at {e['column']}; die {e['roll']}: {e['result']}, "
                 f"{_meaning(data, str(e['result']))}", ""])
    if e.get("tos1_roll") is not None:
        die = data["units"]["support_markers"]
        tos = next(m for m in die.values() if m["kind"] == "tos1")["collateral_die"]
        fate = (f"{tos['points']} collateral damage points in a town or city" if e["tos1_roll"] in tos["rolls"]
                else "no more collateral damage than any marker")
        rows.append(row("TOS-1 die (10.9, 10.13)", RUSSIAN, f"{e['tos1_roll']}: {fate}"))
    losses: dict[str, list[str]] = {RUSSIAN: [], CHECHEN: []}
    for _k, x in sorted(run.items()):
        if x["type"] == "steps_lost":
            losses[RUSSIAN].append(_lost(data, x))
        elif x["type"] == "chechens_eliminated":
            losses[CHECHEN].append(_lost(data, x))
    rows.append(["Losses (10.11)", "; ".join(losses[side]) or "none", "; ".join(losses[other]) or "none"])
    for _k, x in sorted(run.items()):
        if x["type"] == "advanced":
            moving = ", ".join(x["units"]) if x.get("side") == CHECHEN else \
                ", ".join(units(data)[u]["name"] for u in x["units"])
            rows.append(row("Advance (10.12)", str(x.get("side", RUSSIAN)), f"{moving} into {b.label(x['to'])}"))
        elif x["type"] == "russian_markers_used":
            extra = f"; collateral damage +{x['collateral']} (10.13)" if x["collateral"] else ""
            rows.append(row("Markers used (10.9)", RUSSIAN, f"{', '.join(x['kinds'])} to the used box{extra}"))
        elif x["type"] == "chechen_marker_roll":
            fate = "lost for good" if x["lost"] else "to the used box"
            rows.append(row("Artillery marker die (10.9)", CHECHEN, f"{x['roll']}: {fate}"))
        elif x["type"] == "leader_roll":
            name = data["units"]["leaders"][x["leader"]]["name"]
            fate = "eliminated" if x["eliminated"] else "back in the underground next turn"
            rows.append(row("Leader's die (11.4)", CHECHEN, f"{name}: {x['roll']}, {fate}"))
    return {"title": f"Combat on {b.label(str(e['target']))}: the {SIDE[side]} attacks the "
                     f"{SIDE[other]}, fought at {e['column']}, die {e['roll']}: {e['result']}",
            "columns": ["", f"{SIDE[side]} (attacker)", f"{SIDE[other]} (defender)"], "rows": rows}


def _hex_units(data: GameData, state: State, hex_id: str) -> str:
    """The Chechen units in a hex as the public sees them: a count of the face-down ones, the
    revealed ones by name (10.6)."""
    here = [v for _t, v in sorted(state["tokens"].items()) if v["hex"] == hex_id]
    up = [units(data)[str(v["unit"])]["name"] for v in here if v.get("revealed")]
    down = len(here) - len(up)
    told = [f"{down} unit{'s' if down != 1 else ''} face down"] if down else []
    return ", ".join(told + up) or "none"


def _row_of(table: dict[Any, Any], total: int) -> str:
    """The Ambush Table's row a total reads ("4-5"; a total past either end reads the end row)."""
    keys = sorted(table, key=lambda k: span(k)[0])
    low, high = span(keys[0])[0], span(keys[-1])[1]
    row = min(max(total, low), high)
    return str(next(k for k in keys if span(k)[0] <= row <= span(k)[1]))


def _ambush(data: GameData, b: Board, state: State, run: dict[int, Event], at: int) -> dict[str, Any]:
    e = run[at]
    frm, target = str(e["from"]), str(e["target"])
    here = [u for u, v in sorted(state["russians"].items()) if v["hex"] == target]
    rows = [["Units", f"{b.label(frm)}: {_hex_units(data, state, frm)}", _russians(data, state, here)]]
    if e.get("support"):
        rows.append(["Support (14.1)", f"{b.label(str(e['support']))}: "
                     f"{_hex_units(data, state, str(e['support']))}", ""])
    if e.get("leader"):
        came = any(x["type"] == "leader_placed" for x in run.values())
        rows.append(["Leader (14.3 b)", data["units"]["leaders"][e["leader"]]["name"]
                     + (", out of the underground" if came else ""), ""])
    rows.append(["Die (14.3)", str(e["roll"]), ""])
    rows += [["Modifier (14.3)", f"{int(amount):+d}: {why}", ""] for amount, why in e["modifiers"]]
    result = str(e["result"])
    row = _row_of(data["tables"]["ambush"]["table"], int(e["total"]))
    rows.append(["Ambush Table", f"{e['total']}, row {row}: {result.replace('_', ' ')}, "
                 f"{AMBUSH_RESULTS.get(result, result)}", ""])
    for _k, x in sorted(run.items()):
        if x["type"] == "retreat_roll":
            rows.append(["Retreat die (14.3)", "", f"{x['roll']}, halved up: {x['count']} "
                         f"unit{'s' if x['count'] != 1 else ''} retreat{'' if x['count'] != 1 else 's'}"])
        elif x["type"] == "retreated":
            moving = ", ".join(units(data)[u]["name"] for u in x["units"])
            rows.append(["Retreat", "", f"{moving} to {b.label(x['to'])}" if x["to"] != x["from"]
                         else f"{moving} stay: no hex next to it has room"])
        elif x["type"] == "steps_lost":
            rows.append(["Losses", "", _lost(data, x)])
    kind = "Free ambush (14.3)" if e.get("free") else "Ambush"
    return {"title": f"{kind} on {b.label(target)} from {b.label(frm)}: die {e['roll']}, total "
                     f"{e['total']}: {result.replace('_', ' ')}",
            "columns": ["", "Chechen (ambusher)", "Russian"], "rows": rows}
