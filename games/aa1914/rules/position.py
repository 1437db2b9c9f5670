"""The position and the changes of an Axis & Allies 1914 report (Game.report's "position" and
"changes" parts), in the shape pbem's shared templates render (templates/position.*.j2:
lines and tables; templates/changes.*.j2: rows of what, before, after and the difference).

The board in short: the powers' treasuries and incomes, the territories each holds (by
power, not a power per territory), every place's units by owner in the map's letters
(`Russia 3i 1a`), the contested territories (4.2), the minefields and the revolution. The
changes are those a player reads the turn for: the treasuries and incomes, who holds what,
the contested territories, the minefields and the revolution; the moves and battles that
changed the units are the story's. From the reader's view alone (A&A hides nothing)."""

from __future__ import annotations

from typing import Any

from pbem.game import GameData

from .report import ABBREVIATIONS

LETTERS = ", ".join(f"{a} {u}" for u, a in ABBREVIATIONS.items())


def _text(value: Any) -> str:
    if isinstance(value, dict):
        return ", ".join(f"{k} {_text(v)}" for k, v in value.items())
    if isinstance(value, list):
        return ", ".join(map(_text, value))
    return str(value)


def _units(owners: dict[str, dict[str, int]], damaged: dict[str, int]) -> str:
    """A place's units by owner in the map's letters: "Russia 3i 1a; Germany 2i"."""
    order = list(ABBREVIATIONS)
    told = []
    for owner, units in owners.items():
        kinds = sorted((u for u, n in units.items() if n),
                       key=lambda u: (order.index(u) if u in order else len(order), u))
        shown = " ".join(f"{units[u]}{ABBREVIATIONS.get(u, u)}" for u in kinds)
        hurt = int(damaged.get(owner, 0))
        told.append(f"{owner} {shown}" + (f" ({hurt} damaged)" if hurt else ""))
    return "; ".join(told)


def _held(view: dict[str, Any]) -> dict[str, list[str]]:
    held: dict[str, list[str]] = {}
    for place, owner in sorted((view.get("control") or {}).items()):
        held.setdefault(str(owner), []).append(str(place))
    return held


def position(data: GameData, view: dict[str, Any]) -> dict[str, Any]:
    """The board as lines and tables."""
    powers = view.get("powers") or []
    lines = [f"Round {view.get('round')}: {view.get('turn of')}'s turn.",
             "Contested (no income, 4.2): " + (", ".join(view.get("contested") or []) or "none") + ".",
             "Minefields: " + (_text(view.get("minefields")) or "none") + ".",
             f"Revolution: {_text(view.get('revolution'))}.",
             f"Units: {LETTERS}."]
    held = _held(view)
    order = [str(p["power"]) for p in powers] + sorted(set(held) - {str(p["power"]) for p in powers})
    damaged = view.get("damaged battleships") or {}
    tables = [
        {"title": "Powers", "headers": ["Power", "Side", "At war", "IPC", "Income", "Territories"],
         "rows": [[p["power"], p["side"], "yes" if p["at war"] else "no", p["IPC"], p["income"],
                   p["territories"]] for p in powers]},
        {"title": "Territories held", "headers": ["", "Territories"],
         "rows": [[who, ", ".join(held[who])] for who in order if who in held]},
        {"title": "Units", "headers": ["Place", "Units"],
         "rows": [[place, _units(owners, damaged.get(place) or {})]
                  for place, owners in (view.get("units") or {}).items()]},
    ]
    return {"lines": lines, "tables": tables}


def changes(before: dict[str, Any] | None, view: dict[str, Any]) -> dict[str, Any]:
    """What changed since `before` (the same reader's view before the report's steps)."""
    if before is None:
        return {"rows": []}
    rows: list[dict[str, Any]] = []

    def row(what: str, old: Any, new: Any) -> None:
        if old == new:
            return
        change = new - old if isinstance(old, int) and isinstance(new, int) else None
        rows.append({"what": what, "before": old, "after": new, "change": change})

    row("Round", before.get("round"), view.get("round"))
    was = {str(p["power"]): p for p in before.get("powers") or []}
    for p in view.get("powers") or []:
        old = was.get(str(p["power"]), {})
        row(f"{p['power']} IPC", old.get("IPC"), p["IPC"])
        row(f"{p['power']} income", old.get("income"), p["income"])
        if old.get("at war") is not None and old.get("at war") != p["at war"]:
            row(f"{p['power']} at war", "yes" if old["at war"] else "no", "yes" if p["at war"] else "no")
    control, then = view.get("control") or {}, before.get("control") or {}
    for place in sorted(set(control) | set(then)):
        row(place, then.get(place), control.get(place))
    row("Contested", ", ".join(before.get("contested") or []) or "none",
        ", ".join(view.get("contested") or []) or "none")
    mines, were = view.get("minefields") or {}, before.get("minefields") or {}
    for zone in sorted(set(mines) | set(were)):
        row(f"Minefield {zone}", were.get(zone), mines.get(zone))
    row("Revolution", _text(before.get("revolution")), _text(view.get("revolution")))
    return {"rows": rows}
