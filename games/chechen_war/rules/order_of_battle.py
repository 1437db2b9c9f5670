"""A side's order of battle in its own report (Game.report's "own" part), from the reader's
view and, for the Chechen, his own sealed units as his key opens them.

The Russian: every unit on the map with its hex, its values as the counter prints them (a
reduced unit's, 2.8), its steps and what else it may do (heliborne, 8.8); the units in his
recruitment box, which arrive at the head of his next movement file (13.2); his
Reinforcement Pool (13.1) and the roll that draws from it; his morale, casualties and
collateral damage (6.0, 10.13), his support markers (10.9) and the ceasefire (15.1).

The Chechen: his units on the map by token, face down with the identity his key opens
(`report.own_units`: the reader's own sealed nodes, never another reader's) or face up as
the combat revealed them (10.6); his recruitment box (13.3); his leaders and what each adds
(10.9, 11.2, 14.3); his artillery markers (10.9), the cup and his reinforcement roll (13.1).

Nothing for the public and the referee. The view gives the Russian units as text
(`counter`); they are found again by their exact text, which `counter` writes for the view
too, so the two cannot drift apart.
"""

from __future__ import annotations

from typing import Any

from pbem.game import GameData

from .board import CHECHEN, RUSSIAN, units

PLACES = {"underground": "underground", "back next turn": "back next turn (11.4)",
          "eliminated": "eliminated (11.4)"}


def counter(data: GameData, unit: str, reduced: bool) -> str:
    """A Russian unit as the view tells it: "131st Mech Brigade (6-6)", or "(3-6, reduced)"
    with a reduced unit's values (2.8)."""
    spec = units(data)[unit]
    values = spec["reduced"] if reduced and "reduced" in spec else spec
    return f"{spec['name']} ({values['cf']}-{values['mf']}" + (", reduced)" if reduced else ")")


def _values(spec: dict[str, Any], reduced: bool = False) -> str:
    values = spec["reduced"] if reduced and "reduced" in spec else spec
    return f"{values['cf']}-{values['mf']}"


def _found(text: Any, candidates: dict[Any, str]) -> list[Any]:
    """The keys of `candidates` whose text is an item of the list `text` ("A, B, C"), in
    the order they stand there."""
    padded = f", {text}, "
    at = {key: padded.find(f", {told}, ") for key, told in candidates.items()}
    return sorted((key for key, k in at.items() if k >= 0), key=lambda key: at[key])


def _roll_line(data: GameData, side: str) -> str:
    """13.1: the side's Reinforcement Table and its modifiers, as tables.yaml gives them."""
    spec = data["tables"]["reinforcements"][side]
    rows = ", ".join(f"{k}: {v}" for k, v in spec["table"].items())
    mods = "; ".join(f"{m['drm']:+d} {m['when']}" if "drm" in m
                     else f"the {m['when']}: " + ", ".join(f"{k} {int(v):+d}" for k, v in m["bands"].items())
                     for m in spec["modifiers"])
    return f"End of turn (13.1): a die on your Reinforcement Table ({rows} units; {mods})"


def _markers(data: GameData, view: dict[str, Any], side: str) -> dict[str, int]:
    """The side's support markers available by kind, from the view's line
    "russian: artillery 5, airstrike 2; chechen: artillery 2"."""
    line = str(view.get("support markers available") or "")
    for part in line.split("; "):
        who, _, told = part.partition(": ")
        if who == side and told != "none":
            return {kind: int(n) for kind, n in (item.rsplit(" ", 1) for item in told.split(", "))}
    return {}


def _totals(data: GameData, side: str) -> dict[str, int]:
    out: dict[str, int] = {}
    for marker in data["units"]["support_markers"].values():
        if marker["side"] == side:
            out[marker["kind"]] = out.get(marker["kind"], 0) + int(marker["count"])
    return out


def own(data: GameData, view: dict[str, Any], who: str,
        hand: list[dict[str, Any]]) -> dict[str, Any] | None:
    """The order of battle of `who`, or None for the public and the referee. `hand` is the
    Chechen's own units as his key opens them (report.own_units), [] for anyone else. None
    too in the contribution round (pbem.contributions), before anything is set up."""
    if view.get("contribute"):
        return None
    if who == RUSSIAN:
        return _russian(data, view)
    if who == CHECHEN:
        return _chechen(data, view, hand)
    return None


def _turn(data: GameData, view: dict[str, Any]) -> str:
    return f"Turn {view.get('turn')} of {data['game']['turns']}: {view.get('segment')}."


def _russian(data: GameData, view: dict[str, Any]) -> dict[str, Any]:
    spec = units(data)
    mine = [u for u, v in spec.items() if v["side"] == RUSSIAN]
    texts = {(u, r): counter(data, u, r) for u in mine for r in (False, True)}
    rows = []
    for label, stack in sorted((view.get("Russian units") or {}).items()):
        for unit, reduced in _found(stack, texts):
            u = spec[unit]
            steps = int(u.get("steps", 1))
            notes = [f"reduced (full {_values(u)}; 13.1 may flip it back)"] if reduced else []
            if u.get("heliborne"):
                notes.append("heliborne (8.8)")
            rows.append([unit, u["name"], label, _values(u, reduced),
                         f"1 of {steps}" if reduced else str(steps), "; ".join(notes)])
    have = _markers(data, view, RUSSIAN)
    total = _totals(data, RUSSIAN)
    used = sum(total.values()) - sum(have.values())
    markers = ", ".join(f"{kind} {have.get(kind, 0)} of {n}" for kind, n in total.items())
    ceasefire = view.get("ceasefire turn")
    lines = [
        _turn(data, view),
        f"Morale {view.get('Russian morale')} (6.1: 0 to 13; at 0 without Groznyi the Chechen "
        f"wins, 3.1); casualties this turn {view.get('Russian casualties')} (6.2); collateral "
        f"damage {view.get('collateral damage')} (10.13: the Chechen's reinforcement roll).",
        f"Support markers available (10.9): {markers}"
        + (f"; {used} in the used box, back at the next turn's start" if used else "") + ".",
        ("Ceasefire (15.1, once a game): none declared." if ceasefire in (None, "none declared")
         else f"Ceasefire (15.1): declared, for turn {ceasefire}."),
        _roll_line(data, RUSSIAN) + "; each a pool unit, or a reduced unit flipped back; they "
        "arrive at the head of your next movement file (13.2).",
    ]
    tables: list[dict[str, Any]] = [{"title": "Your units on the map",
                                     "columns": ["Unit", "Name", "Hex", "CF-MF", "Steps", "Notes"],
                                     "rows": rows}]
    names = {u: spec[u]["name"] for u in mine}
    box = _found(view.get("Russian recruitment box") or "", names)
    if box:
        tables.append({"title": "Recruitment box: to place in your next movement file (13.2)",
                       "columns": ["Unit", "Name", "CF-MF", "Where (13.2)"],
                       "rows": [[u, spec[u]["name"], _values(spec[u]),
                                 "Stavropol or Dagestan" + (", or a city a Russian unit holds"
                                                            if spec[u]["nationality"] == "pro_russian_chechen"
                                                            else "")] for u in box]})
    pool = _found(view.get("your reinforcement pool (13.1)") or "",
                  {u: counter(data, u, False) for u in mine})
    if pool:
        turn = int(view.get("turn") or 0)
        tables.append({"title": "Reinforcement pool (13.1)",
                       "columns": ["Unit", "Name", "CF-MF", "Steps", "May be picked"],
                       "rows": [[u, spec[u]["name"], _values(spec[u]), str(spec[u].get("steps", 1)),
                                 "now" if int(spec[u].get("earliest_turn", 1)) <= turn + 1
                                 else f"at the end of turn {int(spec[u]['earliest_turn']) - 1}"]
                                for u in sorted(pool)]})
    return {"lines": lines, "tables": tables}


def _chechen(data: GameData, view: dict[str, Any], hand: list[dict[str, Any]]) -> dict[str, Any]:
    spec = units(data)
    names = {u: v["name"] for u, v in spec.items() if v["side"] == CHECHEN}
    rows = []
    faces = {u["slot"]: u for u in hand if not u["slot"].startswith("recruit")}
    for token, where in sorted((view.get("your tokens") or {}).items()):
        label, _, up = str(where).partition(", face up: ")
        if up:  # 10.6: revealed by a combat, face up from then on
            unit = next(iter(_found(up, names)), None)
            u = spec.get(str(unit), {})
            rows.append([token, label, up, _values(u) if u else "", _kind(u), "face up (10.6)"])
            continue
        known = faces.get(token)
        if known is None or not known["known"]:
            rows.append([token, label, "sealed: open it with your key", "", "", "face down"])
            continue
        rows.append([token, label, known["name"], f"{known['cf']}-{known['mf']}",
                     "militia" if known["militia"] else "regular", "face down"])
    recruits = [[u["slot"], u["name"] if u["known"] else "sealed: open it with your key",
                 f"{u['cf']}-{u['mf']}" if u["known"] else "",
                 ("militia" if u["militia"] else "regular") if u["known"] else ""]
                for u in hand if u["slot"].startswith("recruit")]
    leaders = {v["name"]: (k, v) for k, v in data["units"]["leaders"].items()}
    leader_rows = []
    for name, where in (view.get("Chechen leaders") or {}).items():
        lid, lspec = leaders.get(name, (name, {}))
        leader_rows.append([lid, name, PLACES.get(str(where), str(where)),
                            f"{lspec.get('combat_shifts', 0)} column", f"{int(lspec.get('ambush_drm', 0)):+d}"])
    have = _markers(data, view, CHECHEN)
    total = _totals(data, CHECHEN)
    markers = ", ".join(f"{kind} {have.get(kind, 0)} of {n}" for kind, n in total.items())
    lines = [
        _turn(data, view),
        f"Support markers available (10.9): {markers} (only in Chechnya; each one used is lost "
        "for good on a 6).",
        f"In the cup: {view.get('Chechen units in the cup')} units (your reinforcements and "
        f"infiltrators are drawn from it, 13.1, 12.0). Russian morale {view.get('Russian morale')} "
        "(3.1: at 0 without Groznyi held by the Russian, you win).",
        _roll_line(data, CHECHEN) + "; the units drawn wait in your recruitment box and arrive "
        "face down at the head of your next movement file (13.3).",
    ]
    tables: list[dict[str, Any]] = [{"title": "Your units on the map",
                                     "columns": ["Token", "Hex", "Unit", "CF-MF", "Kind", "State"],
                                     "rows": rows}]
    if recruits:
        tables.append({"title": "Recruitment box: to place in your next movement file (13.3)",
                       "columns": ["Place", "Unit", "CF-MF", "Kind"], "rows": recruits})
    tables.append({"title": "Leaders (11.0)",
                   "columns": ["Leader", "Name", "Where", "Combat shift (10.9, 11.2)",
                               "Ambush (14.3 b)"], "rows": leader_rows})
    return {"lines": lines, "tables": tables}


def _kind(spec: dict[str, Any]) -> str:
    if not spec:
        return ""
    return "militia" if spec.get("nationality") == "chechen_militia" else "regular"
