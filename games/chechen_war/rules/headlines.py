"""What a Chechen War report says first (Game.headlines): the set-up, each ambush and its
result (14.3), each combat with its CRT result and losses, and the hexes taken by an
advance (10.7-10.12), Russian units entering a Chechen city (3.2), leaders eliminated
(11.4, 12.0), the random event (12.0), the morale changes and the kidnapping (6.2, 6.3), the
ceasefire (15.1), the reinforcements recruited, drawn and placed (13.1-13.3), and the end of
the game (3.1, 3.2).

Public events only, and of them only what the log's own lines say: a Chechen unit is told
as a count, never by its identity, not even once revealed (the face-down ones are sealed;
counting every Chechen unit the same way leaves nothing to slip).

And what an awaited side's file must still cover (Game.todo, shown by `pbem status`, which is
public): the Russian's at-start units and where each may set up (4.2.1, 4.3.1), the
Chechen's face-down tokens (4.2.2, 4.3.2: counts only), the reinforcements to place now (13.2,
13.3: the Chechen's by their places in his box), and the attacks a supports file answers
(10.9)."""

from __future__ import annotations

from typing import Any

from pbem.game import Event, GameData, State
from pbem.names import counted

from .board import CHECHEN, RUSSIAN, Board, at_start, board, units
from .setup import tokens

# the events that tell what became of an ambush or a combat, until the next one
AFTERMATH = ("steps_lost", "chechens_eliminated", "advanced", "retreat_roll", "retreated",
             "leader_roll", "russian_markers_used", "chechen_marker_roll")


def names(data: GameData) -> dict[str, str]:
    """The two sides' names (game.yaml `factions`)."""
    return {str(f["id"]): str(f["name"]) for f in data["game"]["factions"]}


def _losses(after: list[Event]) -> list[str]:
    """The losses an ambush's or a combat's events tell: Russian steps (and the units they
    eliminated), Chechen units as a count."""
    steps = sum(int(e["steps"]) for e in after if e["type"] == "steps_lost")
    gone = sum(len(e["eliminated"]) for e in after if e["type"] == "steps_lost")
    chechens = sum(len(e["tokens"]) for e in after if e["type"] == "chechens_eliminated")
    out = []
    if steps:
        out.append(f"{counted(steps, 'Russian step')} lost"
                   + (f" ({counted(gone, 'unit')} eliminated)" if gone else ""))
    if chechens:
        out.append(f"{counted(chechens, 'Chechen unit')} eliminated")
    return out


def _aftermath(events: list[Event], k: int) -> list[Event]:
    """The events following the ambush or combat at `k` that belong to it."""
    out: list[Event] = []
    for e in events[k + 1:]:
        if e.get("type") not in AFTERMATH:
            break
        out.append(e)
    return out


def _ambush(data: GameData, called: dict[str, str], event: Event, after: list[Event]) -> str:
    b = board(data)
    result = str(event["result"])
    if result == "retreat":
        moved = next((e for e in after if e["type"] == "retreated"), None)
        if moved is None or not moved["units"]:
            told = "no Russian unit retreats"
        elif moved["to"] == moved["from"]:
            told = f"{counted(len(moved['units']), 'Russian unit')} had no room to retreat"
        else:
            told = f"{counted(len(moved['units']), 'Russian unit')} retreated to {b.label(moved['to'])}"
    else:
        told = ", ".join(_losses(after)) or "no effect"
    what = "sprang a free ambush on" if event.get("free") else "ambushed"
    return f"{called[CHECHEN]} {what} {b.label(event['target'])}: {told}"


def _combat(data: GameData, called: dict[str, str], event: Event, after: list[Event]) -> list[str]:
    b = board(data)
    side = str(event.get("side", RUSSIAN))
    result = str(event["result"])
    losses = _losses(after)
    told = ", ".join(["no effect" if result == "-" else result, *losses])
    out = [f"{called[side]} attacked {b.label(event['target'])} at {event['column']}: {told}"]
    for e in after:
        if e["type"] == "advanced" and e["units"]:
            out.append(f"{called[str(e.get('side', RUSSIAN))]} took {b.label(e['to'])}")
    return out


def _morale(event: Event) -> str:
    return f"Russian morale {int(event['change']):+d}, now {event['level']}: {event['why']}"


def headlines(data: GameData, events: list[Event]) -> list[str]:
    """The phrases of one step's events, in their order; the reinforcements placed as one
    phrase a side."""
    b = board(data)
    called = names(data)
    leaders = {str(k): str(v["name"]) for k, v in data["units"]["leaders"].items()}
    out: list[str] = []
    placed: dict[str, int] = {}  # reinforcements placed this step, by side
    at = 0  # where the reinforcements' phrase goes
    entered: set[str] = set()
    for k, e in enumerate(events):
        kind = e.get("type")
        if kind == "russians_placed":
            out.append(f"{called[RUSSIAN]} set up {counted(len(e['units']), 'unit')}")
        elif kind == "tokens_placed":
            out.append(f"{called[CHECHEN]} set up {counted(len(e['tokens']), 'unit')} face down")
        elif kind == "ambush":
            out.append(_ambush(data, called, e, _aftermath(events, k)))
        elif kind == "combat":
            out += _combat(data, called, e, _aftermath(events, k))
        elif kind == "moved" and e.get("side") == RUSSIAN:
            start, end = e["path"][0], e["path"][-1]
            if end in b.cities and start != end and end not in entered:
                entered.add(end)
                out.append(f"{called[RUSSIAN]} entered {b.label(end)}")
        elif kind == "leader_roll" and e.get("eliminated"):
            out.append(f"{leaders.get(str(e['leader']), e['leader'])} eliminated")
        elif kind == "leader_struck":
            out.append(f"{leaders.get(str(e['leader']), e['leader'])} eliminated by the random event")
        elif kind == "random_event" and e.get("event") != "none":
            out.append("random event: " + str(e["text"]).split(":")[0].rstrip("."))
        elif kind in ("morale", "morale_roll") and int(e["change"]):
            out.append(_morale(e))
        elif kind == "kidnapping":
            out.append(f"{called[CHECHEN]} kidnapped civilians: Russian morale "
                       f"{int(e['change']):+d}, now {e['level']}")
        elif kind == "ceasefire_declared":
            out.append(f"{called[RUSSIAN]} declared a ceasefire for turn {e['turn']}")
        elif kind == "recruited":
            told = [f"recruited {counted(len(e['units']), 'unit')} for next turn"] if e["units"] else []
            if e["flipped"]:
                told.append(f"restored {counted(len(e['flipped']), 'unit')} to full strength")
            out.append(f"{called[RUSSIAN]} " + " and ".join(told))
        elif kind == "drawn":
            n = len(e["units"])
            what = (counted(n, "infiltrator") if "infiltration" in str(e.get("why"))
                    else f"{counted(n, 'unit')} for next turn")
            out.append(f"{called[CHECHEN]} drew {what}, face down")
        elif kind == "arrived":
            side = str(e["side"])
            if not placed:
                at = len(out)
            count = len(e["units"]) if side == RUSSIAN else len(e["tokens"])
            placed[side] = placed.get(side, 0) + count
        elif kind == "over":
            winners = [called.get(str(w), str(w)) for w in e["result"].get("winners") or []]
            out.append("the game is over: " + (" and ".join(winners) + " won" if winners
                                               else "a draw"))
    told = [f"{called[side]} placed {counted(n, 'reinforcement')}"
            + (" face down" if side == CHECHEN else "") for side, n in placed.items()]
    return out[:at] + told + out[at:]


# ---------------------------------------------------------------------------------------
# what an awaited side's file must still cover


def _regions(ids: list[str]) -> str:
    """Region ids as the rules name them: "Stavropol or Dagestan"."""
    return " or ".join(r.replace("_", " ").title() for r in ids)


def _outside(ids: list[str]) -> str:
    return " and ".join(r.replace("_", " ").title() for r in ids)


def _set_up_where(data: GameData, b: Board, historical: bool, unit: str) -> tuple[str, str]:
    """Where an at-start Russian unit sets up, in words, and the rule (as
    setup.russian_allowed decides it)."""
    spec = data["units"]["setup"]
    if historical:
        group = spec["groups"][units(data)[unit]["group"]]
        banned = list(group.get("not_in") or [])
        if group.get("hex") is None:
            return "anywhere" + (f" outside {_outside(banned)}" if banned else ""), "4.3.1"
        return (f"on or adjacent to {b.label(group['hex'])}"
                + (f", not in {_outside(banned)}" if banned else "")), "4.3.1"
    variable = spec["russian"]["variable"]
    if units(data)[unit]["nationality"] == "regular_army":
        towns = [b.label(t) for t in variable["regulars_on_or_adjacent"]]
        near = ", ".join(towns[:-1]) + (" or " if len(towns) > 1 else "") + towns[-1]
        return f"on or adjacent to {near}, not in {_outside(variable['regulars_not_in'])}", "4.2.1"
    return f"anywhere outside {_outside(variable['mvd_not_in'])}", "4.2.1"


def _grouped(where: dict[str, tuple[str, str]], what: str) -> list[str]:
    """One line for the units that may go to the same places: "place A, B in ... (rule)"."""
    by_place: dict[tuple[str, str], list[str]] = {}
    for unit, place in where.items():
        by_place.setdefault(place, []).append(unit)
    return [f"{what} {', '.join(ids)} {place} ({rule})" for (place, rule), ids in by_place.items()]


def _attacked(state: State) -> list[dict[str, Any]]:
    return [a for a in state.get("attacks") or [] if isinstance(a, dict) and "target" in a]


def todo(data: GameData, state: State, faction: str) -> list[str]:
    """What `faction`'s file must still cover in this segment, from the public state
    alone ([] when nothing)."""
    b = board(data)
    phase = state.get("phase")
    historical = (state.get("options") or {}).get("setup") == "historical"
    if phase == "setup-russian" and faction == RUSSIAN:
        return _grouped({u: _set_up_where(data, b, historical, u) for u in at_start(data)}, "place")
    if phase == "setup-chechen" and faction == CHECHEN:
        regulars, militia = tokens(data)
        where = ", each in a town or city (4.3.2)" if historical else " (4.2.2)"
        return [f"place {regulars + militia} units face down in Chechnya, within stacking (4.2.2)",
                f"name the hexes of your {regulars} regular tokens under secret: regulars{where}"]
    if phase == "russian-movement" and faction == RUSSIAN:
        regions = data["tables"]["reinforcements"]["russian"]["regions"]
        cities = sorted({v["hex"] for v in state["russians"].values() if b.terrain[v["hex"]] == "city"})
        open_to = f"in a hex of {_regions(regions)} free of Chechen units"
        arriving: dict[str, tuple[str, str]] = {}
        for unit in state["recruits"][RUSSIAN]:
            pro = units(data)[unit]["nationality"] == "pro_russian_chechen" and cities
            arriving[str(unit)] = ((open_to + ", or in " + ", ".join(b.label(c) for c in cities))
                                   if pro else open_to, "13.2")
        return _grouped(arriving, "place, arriving now,")
    if phase == "chechen-movement" and faction == CHECHEN:
        n = len(state["recruits"][CHECHEN])
        if not n:
            return []
        regions = data["tables"]["reinforcements"]["chechen"]["regions"]
        places = ", ".join(str(k) for k in range(1, n + 1))
        return [f"place, arriving now, {'recruits' if n != 1 else 'recruit'} {places} face down "
                f"in a hex of {_regions(regions)} free of Russian units (13.3)"]
    if phase == "chechen-supports" and faction == CHECHEN:
        told = [f"{b.label(a['target'])} ({counted(int(a.get('supports') or 0), 'Russian marker')})"
                for a in _attacked(state)]
        return [f"back the defence of {', '.join(told)}, or not: markers and leaders, two at "
                "most a combat (10.9, 11.2)"] if told else []
    if phase == "russian-supports" and faction == RUSSIAN:
        told = [b.label(a["target"]) for a in _attacked(state)]
        return [f"back the defence of {', '.join(told)}, or not: 0 to 2 markers a combat, "
                "their kinds under secret (10.9)"] if told else []
    return []
