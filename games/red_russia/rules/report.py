"""What only Red Russia knows of a turn report (pbem's Game protocol, `report`).

pbem/reports/ gathers the steps, the dice and the reader's sealed values, and renders
the report with Jinja2; it asks the game, through `RedRussia.report`, for the parts below,
each built from views only (never the full state), so a report cannot show what a view
hides:

- the position: a table per faction (money, manpower, ORI, VP, zones, units) and one per
  territory of its zones (control, money, manpower, fortification, stacks), for
  templates/position.*.j2;
- what changed over the report's window: zone control and the resources, for
  templates/changes.*.j2;
- the SVG map: zones at map.yaml's `xy` joined by routes drawn by kind, seas and boxes
  where templates/report.yaml places them, control colours, a badge per stack ("2i 1c*
  1L", its units and strengths on hover), contested and besieged zones, the moves since
  `before` as arrows and this turn's battles, and a legend;
- the reader's hand (the sealed `card` nodes still held, with titles and texts from
  cards.yaml), for templates/hand.*.j2, and the note of the orders template.

The view a report is built from is `view_of` (pbem's Game protocol, `view`): what a reader
may see of the state.

Pure functions over plain data: no I/O, no templates. `style` is the game's
templates/report.yaml as pbem read it (colours per faction, where seas and boxes are drawn).
"""

from __future__ import annotations

import copy
import html
import math
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from typing import Any

from pbem.game import GameData, State

from . import cards
from .board import Board, board
from .common import enemies

# the note under an orders template's header, after the bot's example orders
ORDERS_NOTE = (
    "These orders are only a legal EXAMPLE written by pbem's bot: replace them",
    "with your own, check with 'pbem check FILE', sign with 'pbem sign FILE'",
    "and send the file to the referee. It plays no card, and its 'standing:'",
    "are your own instructions in force (none written: none set).",
)


def report(data: GameData, view: dict[str, Any], before: dict[str, Any] | None, who: str,
           style: dict[str, Any], secrets: list[dict[str, Any]]) -> dict[str, Any]:
    """The game's parts of `who`'s report (see pbem.game.Game): `view` after the report's
    steps, `before` the same reader's view before them (None at the start), `secrets` the
    reader's own sealed values not yet revealed."""
    return {
        "position": position(data, view, style),
        "changes": changes(data, before, view),
        "map_svg": map_svg(data, view, style, before),
        "hand": hand(data, secrets, who),
        # the cards are shown in the hand, with their texts, not among the sealed values
        "secrets": [s for s in secrets if s["kind"] != "card"],
        "orders_note": list(ORDERS_NOTE),
    }


def view_of(state: State, who: str) -> dict[str, Any]:
    """What `who` may see. Nothing in this slice of the game is secret yet (hands, secret
    attack spending and sealed orders arrive with the secrets work), so every view is
    the whole position; the set-up phase's own lists stay with the referee."""
    view = copy.deepcopy(state)
    view["who"] = who
    view["cards"] = cards.view(state)  # hands only as counts: the cards are sealed
    return view


# ---------------------------------------------------------------------------------------
# colours (templates/report.yaml)


def _colour(style: dict[str, Any], owner: str | None) -> str:
    colours: dict[str, str] = style.get("colours", {})
    return str(colours.get(owner or "neutral", colours.get("neutral", "#ffffff")))


def _ink(fill: str) -> str:
    """Black or white text, whichever contrasts more with `fill` (#rrggbb; WCAG 2's
    relative luminance)."""
    def channel(c: int) -> float:
        v = c / 255
        return v / 12.92 if v <= 0.04045 else ((v + 0.055) / 1.055) ** 2.4

    r, g, b = (channel(int(fill[i:i + 2], 16)) for i in (1, 3, 5))
    lum = 0.2126 * r + 0.7152 * g + 0.0722 * b
    return "#000000" if (lum + 0.05) / 0.05 > 1.05 / (lum + 0.05) else "#ffffff"


# ---------------------------------------------------------------------------------------
# the reader's hand


def hand(data: GameData, own: list[dict[str, Any]], who: str) -> list[dict[str, Any]]:
    """The reader's cards still in hand (sealed `card` nodes not yet opened in the log),
    with their titles and texts from the game's deck."""
    deck = {c["id"]: c for c in (data.files.get("cards") or {}).get("cards", [])}
    out = []
    for s in own:
        if s["kind"] != "card" or s["revealed_at"] is not None or s["owner"] != who:
            continue
        card = deck.get(str(s.get("raw")), {})
        out.append({"slot": s["id"], "id": s.get("raw"), "title": card.get("title", s.get("raw")),
                    "text": card.get("text", ""), "known": "raw" in s,
                    "playable": {k: card[k] for k in ("phase", "years", "playable_by", "immediate",
                                                     "remove") if k in card}})
    return out


# ---------------------------------------------------------------------------------------
# the position, from views shaped like a board game's: units, control, resources

RESOURCES = (("money", "Money"), ("manpower", "Manpower"), ("ori", "ORI"), ("vp", "VP"))


def _places(data: GameData) -> list[tuple[str, str, dict[str, Any]]]:
    """(name, kind, spec) of every place on the map: zones, seas, boxes."""
    m = data["map"]
    out = [(n, "zone", dict(z)) for n, z in (m.get("zones") or {}).items()]
    out += [(n, "sea", dict(s or {})) for n, s in (m.get("seas") or {}).items()]
    out += [(n, "box", dict(b or {})) for n, b in (m.get("boxes") or {}).items()]
    return out


def _faction_names(data: GameData) -> dict[str, str]:
    g = data["game"]
    names = {f["id"]: f["name"] for f in g.get("factions", [])}
    names.update({k: v.get("name", k) for k, v in (g.get("minors") or {}).items()})
    names.setdefault("allies", "Allied intervention")
    return names


def _on_map(view: dict[str, Any]) -> dict[str, list[tuple[str, dict[str, Any]]]]:
    """place -> [(unit id, unit)] of the units on the map, by id."""
    out: dict[str, list[tuple[str, dict[str, Any]]]] = {}
    for uid, unit in sorted((view.get("units") or {}).items()):
        if unit.get("status") == "map" and unit.get("zone"):
            out.setdefault(unit["zone"], []).append((uid, unit))
    return out


def position(data: GameData, view: dict[str, Any], style: dict[str, Any]) -> dict[str, Any]:
    names = _faction_names(data)
    control: dict[str, Any] = view.get("control") or {}
    on_map = _on_map(view)
    majors = [f["id"] for f in data["game"].get("factions", [])]
    factions = []
    for fid in majors:
        row: dict[str, Any] = {"id": fid, "name": names[fid], "colour": _colour(style, fid)}
        for key, _title in RESOURCES:
            row[key] = (view.get(key) or {}).get(fid)
        row["zones"] = sum(1 for owner in control.values() if owner == fid)
        row["zone_money"] = sum(int((data["map"]["zones"].get(z) or {}).get("money", 0))
                                for z, owner in control.items() if owner == fid)
        units = [u for us in on_map.values() for _i, u in us if u.get("faction") == fid]
        row["units"] = sum(1 for u in units if u.get("type") != "leader")
        row["leaders"] = sum(1 for u in units if u.get("type") == "leader")
        row["reduced"] = sum(1 for u in units if u.get("reduced"))
        row["eliminated"] = sum(1 for u in (view.get("units") or {}).values()
                                if u.get("faction") == fid and u.get("status") == "eliminated")
        factions.append(row)
    territories = {k: (v or {}).get("name", k)
                   for k, v in (data["map"].get("territories") or {}).items()}
    groups: dict[str, list[dict[str, Any]]] = {}
    for name, kind, spec in _places(data):
        owner = control.get(name) if kind == "zone" else None
        pieces = on_map.get(name, [])
        if kind != "zone" and not pieces:
            continue
        stacks = []
        for fid in sorted({u["faction"] for _i, u in pieces}, key=lambda f: (f not in majors, f)):
            ids = [uid + ("(r)" if u.get("reduced") else "") for uid, u in pieces
                   if u["faction"] == fid]
            stacks.append({"faction": fid, "name": names.get(fid, fid), "units": ids,
                           "count": sum(1 for _i, u in pieces
                                        if u["faction"] == fid and u.get("type") != "leader"),
                           "colour": _colour(style, fid)})
        group = territories.get(spec.get("territory", ""), "Seas and boxes")
        groups.setdefault(group, []).append({
            "name": name, "kind": kind, "owner": owner, "owner_name": names.get(owner or "", "neutral"),
            "colour": _colour(style, owner), "money": spec.get("money"),
            "manpower": spec.get("manpower"), "fort": spec.get("fort"), "home": spec.get("home"),
            "stacks": stacks,
        })
    zones: list[dict[str, Any]] = [
        {"territory": t, "rows": sorted(rows, key=lambda r: str(r["name"]))}
        for t, rows in groups.items()]
    shown = dict(view)
    if isinstance(shown.get("minors"), dict):  # only the minors in play or conquered
        shown["minors"] = {m: s for m, s in shown["minors"].items()
                           if isinstance(s, dict) and (s.get("status") != "neutral" or s.get("conquered"))}
    extra = {k: v for k, v in shown.items()
             if k in ("initiative", "treasure", "defeated", "cards", "partisans", "raids", "famine",
                      "minors", "allied_control") and v}
    return {"factions": factions, "zones": zones, "extra": extra,
            "has_ori": any(r["ori"] is not None for r in factions),
            "has_vp": any(r["vp"] is not None for r in factions)}


def changes(data: GameData, before: dict[str, Any] | None, after: dict[str, Any]) -> dict[str, Any]:
    """Control changes and resource changes (income, spending) over the window."""
    names = _faction_names(data)
    if before is None:
        return {"control": [], "resources": []}
    b_control, a_control = before.get("control") or {}, after.get("control") or {}
    control = [{"zone": z, "before": names.get(b_control.get(z) or "", "neutral"),
                "after": names.get(a_control.get(z) or "", "neutral")}
               for z in sorted(set(b_control) | set(a_control))
               if b_control.get(z) != a_control.get(z)]
    resources = []
    for key, title in RESOURCES:
        b, a = before.get(key) or {}, after.get(key) or {}
        for fid in sorted(set(a) | set(b)):
            if b.get(fid) != a.get(fid):
                change = (a.get(fid) or 0) - (b.get(fid) or 0)
                text = (f"{title} {a.get(fid)}" if b.get(fid) is None else
                        f"{title} {b.get(fid)} -> {a.get(fid)} ({change:+d})")
                resources.append({"faction": names.get(fid, fid), "what": title,
                                  "before": b.get(fid), "after": a.get(fid), "change": change,
                                  "text": text})
    return {"control": control, "resources": resources}


# ---------------------------------------------------------------------------------------
# the map
#
# Drawn in layers, bottom to top: the territories' faint names, the seas and boxes, the
# routes, this report's moves (arrows), the marks of battles, contested zones and sieges,
# the zones (a circle in the controller's colour and the name), then one badge per faction
# with units in a place ("3i 1c* 1L", its units and strengths in its <title>), and the
# legend. Every name, zone, mark and badge has a box (x0, y0, x1, y1) computed from the
# coordinates written into the SVG; the badges are placed where their boxes meet no other
# box (`_place_badges`), so no name or badge is ever covered.

Box = tuple[float, float, float, float]

SIZE = (1000, 724)      # the canvas, when report.yaml gives no size
LEGEND = 54             # pixels under the map for the legend
ZONE_R = 9.0            # a zone's circle (stroke 1.2)
CONTESTED_R = 11.5      # the ring of a contested zone (stroke 2.5)
BESIEGED_R = 15.5       # the ring of a besieged zone (stroke 3)
BATTLE_R = (17.0, 11.0)  # the points of a battle's burst, outer and inner radius
NAME_FONT = 9
BADGE_FONT = 8
BADGE_H = 11.0
BADGE_PAD = 3.0         # text to a badge's edge, left and right
GAP = 1.0               # the least room between two boxes
CONTESTED = "#e7298a"
SIEGE = "#4a2c0f"
BATTLE, BATTLE_EDGE = "#ff8c1a", "#8a3b00"
BACKGROUND = "#f3efe2"
TYPE_LETTERS = {"inf": "i", "cav": "c", "tank": "t", "air": "a", "fleet": "f"}
# where a badge may go around its place: directions in degrees (0 east, -90 north: SVG's y
# runs down), tried in this order at each distance from the place's marks, the first
# distance touching them, the others with a leader line
DIRECTIONS = (0, -30, 30, 180, -150, 150, -90, 90, -60, -120, 60, 120,
              -15, 15, -165, 165, -45, 45, -135, 135, -75, 75, -105, 105)
REACH = (2.0, 9.0, 17.0, 27.0, 40.0, 55.0, 72.0, 92.0)
LEADER_FROM = 9.0  # from this reach on, a line leads from the place to its badges
CLEAR = 8.0  # how much nearer a place's badges beside it must be to it than to any other
APART = 4.0  # the least room between the badges of two places

# the width of a character in em of DejaVu Sans (the map's first font; the others are
# narrower), rounded up per class: (regular, bold)
_NARROW, _SEMI, _WIDE = set("ijlI'|.,:;"), set(" -frt()/!"), set("mwMW@%")


def _text_width(text: str, size: float, bold: bool = False) -> float:
    """An upper bound of the width of `text` in pixels at font size `size`."""
    em = 0.0
    for c in text:
        if c in _NARROW:
            em += 0.38 if bold else 0.30
        elif c in _SEMI:
            em += 0.50 if bold else 0.42
        elif c in _WIDE:
            em += 1.11 if bold else 1.0
        elif c.isupper():
            em += 0.86 if bold else 0.80
        else:
            em += 0.72 if bold else 0.64
    return em * size


def _hits(a: Box, b: Box, gap: float = 0.0) -> bool:
    """Whether two boxes overlap, or come closer than `gap`."""
    return a[0] < b[2] + gap and b[0] < a[2] + gap and a[1] < b[3] + gap and b[1] < a[3] + gap


def _square(x: float, y: float, r: float) -> Box:
    return (x - r, y - r, x + r, y + r)


def _text_box(x: float, baseline: float, text: str, size: float, anchor: str = "middle",
              halo: float = 0.0) -> Box:
    """The box of a line of text (DejaVu Sans: ascent 0.76 em, descent 0.24 em)."""
    w = _text_width(text, size)
    x0 = x - w / 2 if anchor == "middle" else x
    return (x0 - halo, baseline - 0.76 * size - halo, x0 + w + halo, baseline + 0.24 * size + halo)


@dataclass
class _Stack:
    """One faction's pieces in one place, and its badge."""

    faction: str
    units: list[tuple[str, dict[str, Any]]]
    text: str
    title: str
    width: float
    box: Box = (0.0, 0.0, 0.0, 0.0)


@dataclass
class _Place:
    """A zone, sea or box as the map draws it: where, how far its marks reach, its badges."""

    name: str
    kind: str
    x: float
    y: float
    reach: float                 # the radius its circle and marks take
    inside: float | None = None  # a sea's or box's: the top of the room under its name
    stacks: list[_Stack] = field(default_factory=list)
    leader: tuple[float, float, float, float] | None = None  # the line to far badges


def _stack_text(units: list[tuple[str, dict[str, Any]]]) -> str:
    """The print label of a stack: counts by type (i inf, c cav, t tank, a air, f fleet),
    the reduced ones apart with a star, then the leaders: "2i 1i* 1c 1L"."""
    order = list(TYPE_LETTERS)
    kinds = sorted({str(u.get("type")) for _i, u in units if u.get("type") != "leader"},
                   key=lambda k: (order.index(k) if k in order else len(order), k))
    parts = []
    for kind in kinds:
        letter = TYPE_LETTERS.get(kind, kind[:1])
        full = sum(1 for _i, u in units if u.get("type") == kind and not u.get("reduced"))
        reduced = sum(1 for _i, u in units if u.get("type") == kind and u.get("reduced"))
        parts += [f"{full}{letter}"] * bool(full) + [f"{reduced}{letter}*"] * bool(reduced)
    leaders = sum(1 for _i, u in units if u.get("type") == "leader")
    return " ".join(parts + [f"{leaders}L"] * bool(leaders))


def _strength(b: Board, uid: str, unit: dict[str, Any]) -> tuple[int, int] | None:
    """A combat unit's attack and defence as it stands (units.yaml), None if unknown."""
    values = b.counters.get(uid, {}).get("reduced" if unit.get("reduced") else "full")
    return (int(values[0]), int(values[1])) if isinstance(values, list) and len(values) == 2 else None


def _unit_line(b: Board, uid: str, unit: dict[str, Any]) -> str:
    """One piece of a stack's hover text: its type and strength, or a leader's level."""
    if unit.get("type") == "leader":
        leader = b.leaders.get(uid, {})
        return f"{leader.get('name', uid)}: leader, level {leader.get('level', '?')}"
    types: dict[str, Any] = b.data["units"].get("types") or {}
    kind = (types.get(str(unit.get("type"))) or {}).get("name", unit.get("type"))
    now = _strength(b, uid, unit)
    text = f"{uid}: {kind}" + (f" {now[0]}-{now[1]}" if now else "")
    if unit.get("reduced"):
        full = b.counters.get(uid, {}).get("full")
        text += " REDUCED" + (f" (full {full[0]}-{full[1]})" if isinstance(full, list) else "")
    return text


def _stacks(b: Board, place: str, pieces: list[tuple[str, dict[str, Any]]],
            names: dict[str, str], majors: list[str]) -> list[_Stack]:
    """The badges of a place: one per faction, the majors first."""
    out = []
    for fid in sorted({u["faction"] for _i, u in pieces}, key=lambda f: (f not in majors, f)):
        mine = [(i, u) for i, u in pieces if u["faction"] == fid]
        text = _stack_text(mine)
        strengths = [s for s in (_strength(b, i, u) for i, u in mine if u.get("type") != "leader") if s]
        title = f"{names.get(fid, fid)} in {place}: {text}"
        if strengths:
            title += (f" (attack {sum(s[0] for s in strengths)}, "
                      f"defence {sum(s[1] for s in strengths)})")
        title += "\n" + "\n".join(_unit_line(b, i, u) for i, u in mine)
        out.append(_Stack(fid, mine, text, title, _text_width(text, BADGE_FONT, bold=True) + 2 * BADGE_PAD))
    return out


def _contested(view: dict[str, Any], pieces: list[tuple[str, dict[str, Any]]]) -> list[str]:
    """The factions whose combat units share the zone with an enemy's (7.3), or []."""
    fighting = sorted({str(u["faction"]) for _i, u in pieces if u.get("type") != "leader"})
    if "minors" not in view or "turn" not in view:
        return []
    return [f for f in fighting if any(enemies(view, f, g) for g in fighting if g != f)]


def _new_turn_events(view: dict[str, Any], before: dict[str, Any] | None) -> list[dict[str, Any]]:
    """The events of the view's `turn_events` that happened in the report's window."""
    events = [e for e in view.get("turn_events") or [] if isinstance(e, dict)]
    if before is not None and before.get("turn") == view.get("turn"):
        old = [e for e in before.get("turn_events") or [] if isinstance(e, dict)]
        if events[:len(old)] == old:
            events = events[len(old):]
    return events


def _battles(view: dict[str, Any], before: dict[str, Any] | None,
             names: dict[str, str]) -> dict[str, list[str]]:
    """zone -> what happened there: the battles this turn, and the zones taken by siege.

    The view has no log, but the state keeps the turn's attacks, their outcomes and the
    control changes (`turn_events`, kept for 17.5 and emptied at each purchase phase), so
    the battles marked are those of the report's last turn, by what the state records
    rather than by guessing from the units; the siege rounds themselves are not kept, so
    a siege shows by its ring (`siege`) and, once it takes the zone, as a battle here."""
    out: dict[str, list[str]] = {}
    events = _new_turn_events(view, before)
    for i, e in enumerate(events):
        zone = e.get("zone")
        if not isinstance(zone, str):
            continue
        if e.get("type") == "attack":
            defenders = ", ".join(names.get(d, d) for d in e.get("defenders") or []) or "nobody"
            text = (f"{names.get(e.get('attacker', ''), e.get('attacker'))} attacked {defenders}"
                    f" ({e.get('level', 'attack')}, {e.get('rounds', '?')} rounds)")
            over = next((o for o in events[i + 1:] if o.get("type") == "battle_over"
                         and o.get("zone") == zone), None)
            if over is not None:
                left = (bool(over.get("attacker_left")), bool(over.get("defender_left")))
                text += {(True, True): ": both sides are still there",
                         (True, False): ": the defenders are gone",
                         (False, True): ": the attackers are gone",
                         (False, False): ": neither side is left"}[left]
            out.setdefault(zone, []).append(text)
        elif e.get("type") == "control" and str(e.get("why", "")).startswith("siege"):
            out.setdefault(zone, []).append(
                f"taken by {names.get(e.get('faction', ''), e.get('faction'))} from "
                f"{names.get(e.get('from') or '', e.get('from') or 'neutral')} after a siege")
    return out


def _moves(before: dict[str, Any] | None, view: dict[str, Any]) -> list[tuple[str, str, str, list[str]]]:
    """(from, to, faction, pieces) of the pieces on the map in both views that are
    somewhere else now: the report's moves, retreats and landings."""
    if before is None:
        return []
    old: dict[str, Any] = before.get("units") or {}
    grouped: dict[tuple[str, str, str], list[str]] = {}
    for uid, unit in sorted((view.get("units") or {}).items()):
        was = old.get(uid)
        if not isinstance(was, dict) or was.get("status") != "map" or unit.get("status") != "map":
            continue
        start, end = was.get("zone"), unit.get("zone")
        if start and end and start != end:
            grouped.setdefault((str(start), str(end), str(unit.get("faction"))), []).append(uid)
    return [(a, b, f, ids) for (a, b, f), ids in grouped.items()]


def _candidates(p: _Place) -> Iterator[tuple[list[Box], float]]:
    """Where `p`'s badges may go, best first: (a box per badge, the reach)."""
    widths = [s.width for s in p.stacks]
    n = len(widths)
    row_w = sum(widths) + GAP * 2 * (n - 1)
    if p.inside is not None:  # a sea or box: in a row under its name
        x = p.x - row_w / 2
        yield [_badge_box(x + sum(widths[:i]) + 2 * GAP * i, p.inside, w) for i, w in enumerate(widths)], 0.0
    for reach in REACH:
        d = p.reach + reach
        for column in ((True, False) if n > 1 else (True,)):
            bw = max(widths) if column else row_w
            bh = n * BADGE_H + (n - 1) * GAP if column else BADGE_H
            for deg in DIRECTIONS:
                ux, uy = math.cos(math.radians(deg)), math.sin(math.radians(deg))
                out = d + bw / 2 * abs(ux) + bh / 2 * abs(uy)
                cx, cy = p.x + ux * out, p.y + uy * out
                x0, y0 = cx - bw / 2, cy - bh / 2
                boxes = []
                for i, w in enumerate(widths):
                    if not column:
                        boxes.append(_badge_box(x0 + sum(widths[:i]) + 2 * GAP * i, y0, w))
                    else:
                        bx = x0 if ux > 0.3 else x0 + bw - w if ux < -0.3 else cx - w / 2
                        boxes.append(_badge_box(bx, y0 + i * (BADGE_H + GAP), w))
                yield boxes, reach


def _badge_box(x: float, y: float, w: float) -> Box:
    x, y = round(x, 1), round(y, 1)
    return (x, y, round(x + w, 1), round(y + BADGE_H, 1))


def _distance(box: Box, x: float, y: float) -> float:
    """From (x, y) to the nearest point of `box`."""
    return math.dist((x, y), (min(max(x, box[0]), box[2]), min(max(y, box[1]), box[3])))


def _place_badges(places: list[_Place], fixed: list[Box], width: float, height: float) -> None:
    """Give every stack of `places` a box that meets no box of `fixed` (zones, marks,
    names) nor another place's badges (APART pixels off), inside the map, the most crowded
    places first.

    Of the free spots of `_candidates`, the one of least `_cost`: beside the place, where
    the badges are clearly its own (nearer its marks than any other place's by CLEAR
    pixels, so that in a crowded corner a badge is not read as its neighbour's), in the
    first directions of DIRECTIONS; else a little further out, a line leading to them;
    where no spot is free (never seen on this map), the one meeting the fewest boxes."""
    with_units = [p for p in places if p.stacks]
    others = [p for p in places if p.kind == "zone" or p.stacks]
    placed: list[Box] = []  # the badges of the places done

    def crowd(p: _Place) -> int:
        return sum(1 for q in with_units if q is not p and math.dist((p.x, p.y), (q.x, q.y)) < 80)

    for p in sorted(with_units, key=lambda p: (-len(p.stacks), -crowd(p), p.name)):
        near = [q for q in others if q is not p and math.dist((p.x, p.y), (q.x, q.y)) < 160]
        around = (p.x - 160, p.y - 160, p.x + 160, p.y + 160)
        walls = [o for o in fixed if _hits(o, around)]
        badges = [o for o in placed if _hits(o, around)]
        best: tuple[float, list[Box], float] | None = None
        fewest: tuple[int, list[Box], float] | None = None
        for rank, (boxes, reach) in enumerate(_candidates(p)):
            if any(b[0] < 1 or b[1] < 1 or b[2] > width - 1 or b[3] > height - 1 for b in boxes):
                continue
            met = (sum(1 for b in boxes for o in walls if _hits(b, o, GAP))
                   + sum(1 for b in boxes for o in badges if _hits(b, o, APART)))
            if met:
                if fewest is None or met < fewest[0]:
                    fewest = (met, boxes, reach)
                continue
            cost = _cost(p, near, boxes, reach, rank)
            if best is None or cost < best[0]:
                best = (cost, boxes, reach)
        chosen = (best[1], best[2]) if best else (fewest[1], fewest[2]) if fewest else None
        if chosen is None:
            continue
        boxes, reach = chosen
        for stack, box in zip(p.stacks, boxes, strict=True):
            stack.box = box
        placed += boxes
        if reach >= LEADER_FROM:
            x0, y0 = min(b[0] for b in boxes), min(b[1] for b in boxes)
            x1, y1 = max(b[2] for b in boxes), max(b[3] for b in boxes)
            tx, ty = min(max(p.x, x0), x1), min(max(p.y, y0), y1)
            d = math.dist((p.x, p.y), (tx, ty)) or 1.0
            start = ZONE_R + 1 if p.kind == "zone" else 0.0
            p.leader = (p.x + (tx - p.x) * start / d, p.y + (ty - p.y) * start / d, tx, ty)


def _cost(p: _Place, near: list[_Place], boxes: list[Box], reach: float, rank: int) -> float:
    """How bad a free spot for `p`'s badges is: its rank among the candidates (the
    directions of choice first), a line leading to it, and above all its being unclear:
    less than CLEAR pixels nearer `p`'s marks than another place's (for far badges,
    joined by their line: less than CLEAR pixels off any other place)."""
    own = 0.0 if reach >= LEADER_FROM else max(_distance(b, p.x, p.y) for b in boxes) - p.reach
    other = min((_distance(b, q.x, q.y) - q.reach for b in boxes for q in near), default=1e9)
    unclear = max(0.0, CLEAR - (other - own))
    return rank * 0.02 + (10 + reach * 0.5 if reach >= LEADER_FROM else 0.0) + unclear * 3


def _zone_reach(contested: bool, besieged: bool, battle: bool) -> float:
    """How far a zone's circle and marks reach from its centre, strokes included."""
    return max(ZONE_R + 0.6, CONTESTED_R + 1.25 if contested else 0.0,
               BESIEGED_R + 1.5 if besieged else 0.0, BATTLE_R[0] + 0.5 if battle else 0.0)


def _name_baseline(y: float, reach: float) -> float:
    return y + max(19.0, reach + 9.5)


def _burst(x: float, y: float, outer: float, inner: float) -> str:
    points = []
    for k in range(20):
        r = outer if k % 2 == 0 else inner
        a = math.pi * k / 10 - math.pi / 2
        points.append(f"{x + r * math.cos(a):.1f},{y + r * math.sin(a):.1f}")
    return (f'<polygon points="{" ".join(points)}" fill="{BATTLE}" stroke="{BATTLE_EDGE}" '
            'stroke-width="0.8"/>')


def _contested_ring(x: float, y: float, r: float = CONTESTED_R, w: float = 2.5) -> str:
    return f'<circle cx="{x}" cy="{y}" r="{r}" fill="none" stroke="{CONTESTED}" stroke-width="{w}"/>'


def _siege_ring(x: float, y: float, r: float = BESIEGED_R, w: float = 3.0) -> str:
    return (f'<circle cx="{x}" cy="{y}" r="{r}" fill="none" stroke="{SIEGE}" stroke-width="{w}" '
            'stroke-dasharray="3 2"/>')


def _arrow(x1: float, y1: float, x2: float, y2: float, colour: str) -> str:
    """A thin arrow from (x1, y1) to (x2, y2): a dark casing under the faction's colour."""
    length = math.dist((x1, y1), (x2, y2)) or 1.0
    ux, uy = (x2 - x1) / length, (y2 - y1) / length
    bx, by = x2 - ux * 7, y2 - uy * 7  # the head's base
    head = (f"{x2:.1f},{y2:.1f} {bx - uy * 3.5:.1f},{by + ux * 3.5:.1f} "
            f"{bx + uy * 3.5:.1f},{by - ux * 3.5:.1f}")
    line = f'x1="{x1:.1f}" y1="{y1:.1f}" x2="{bx + ux:.1f}" y2="{by + uy:.1f}"'
    return (f'<line {line} stroke="#222" stroke-opacity="0.5" stroke-width="3.6"/>'
            f'<line {line} stroke="{colour}" stroke-width="2"/>'
            f'<polygon points="{head}" fill="{colour}" stroke="#222" stroke-width="0.7"/>')


def map_svg(data: GameData, view: dict[str, Any], style: dict[str, Any],
            before: dict[str, Any] | None = None) -> str:
    """An SVG map of the game's zones (from map.yaml `xy`), seas and boxes (positions in
    the game's templates/report.yaml), routes by kind, control colours, a badge for each
    stack, the moves since `before` (the same reader's earlier view), this turn's battles,
    the contested and besieged zones, and a legend."""
    b = board(data)
    m = data["map"]
    zones: dict[str, dict[str, Any]] = m.get("zones") or {}
    layout = style.get("layout", {})
    width, height = layout.get("size", SIZE)
    map_h = height - LEGEND
    control: dict[str, Any] = view.get("control") or {}
    on_map = _on_map(view)
    names = _faction_names(data)
    majors = [f["id"] for f in data["game"].get("factions", [])]
    sieges: dict[str, Any] = view.get("siege") or {}
    battles = _battles(view, before, names)
    esc = html.escape

    # where everything goes: the places, their marks, and the boxes badges keep clear of
    areas = {**{n: ("sea", s) for n, s in (layout.get("seas") or {}).items()},
             **{n: ("box", s) for n, s in (layout.get("boxes") or {}).items()}}
    places: dict[str, _Place] = {}
    fixed: list[Box] = []
    contested: dict[str, list[str]] = {}
    for name, z in zones.items():
        x, y = z["xy"]
        found = _contested(view, on_map.get(name, []))
        if found:
            contested[name] = found
        reach = _zone_reach(bool(found), name in sieges, name in battles)
        places[name] = _Place(name, "zone", x, y, reach)
        fixed += [_square(x, y, reach),
                  _text_box(x, _name_baseline(y, reach), name, NAME_FONT, halo=1.25)]
    for name, (kind, spec) in areas.items():
        x, y = spec["xy"]
        h = spec.get("size", [90, 34])[1]
        label = (_text_box(x, y + 4, name, 11) if kind == "sea"
                 else _text_box(x, y - h / 2 + 12, name, 10))
        fixed.append(label)
        places[name] = _Place(name, kind, x, y, 4.0, inside=label[3] + 1.5)
    for place, pieces in on_map.items():
        if place in places:
            places[place].stacks = _stacks(b, place, pieces, names, majors)
    _place_badges(list(places.values()), fixed, width, map_h)

    out: list[str] = [
        f'<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 {width} {height}" '
        f'width="{width}" height="{height}" class="map" role="img" '
        f'aria-label="Map of {esc(data["game"]["name"])}" '
        'font-family="DejaVu Sans, Arial, Helvetica, sans-serif">',
        f'<rect x="0" y="0" width="{width}" height="{map_h}" fill="{BACKGROUND}"/>',
    ]
    # territory names, faint, behind everything
    terr: dict[str, list[list[int]]] = {}
    for z in zones.values():
        terr.setdefault(z.get("territory", ""), []).append(z["xy"])
    for tid, spec in (m.get("territories") or {}).items():
        at = (layout.get("territories") or {}).get(tid)
        if at is None and terr.get(tid):
            pts = terr[tid]
            at = [sum(p[0] for p in pts) / len(pts), sum(p[1] for p in pts) / len(pts)]
        if at is not None:
            out.append(f'<text x="{at[0]:.0f}" y="{at[1]:.0f}" font-size="26" font-weight="bold" '
                       f'fill="#d9d1b8" text-anchor="middle">{esc((spec or {}).get("name", tid))}'
                       '</text>')
    # seas and boxes: areas with their name
    for name, (kind, spec) in areas.items():
        x, y = spec["xy"]
        w, h = spec.get("size", [90, 34])
        if kind == "sea":
            out.append(f'<g class="sea" data-place="{esc(name)}"><ellipse cx="{x}" cy="{y}" '
                       f'rx="{w / 2}" ry="{h / 2}" fill="#bcd8ee" stroke="#7fa9cc"/>'
                       f'<text x="{x}" y="{y + 4}" font-size="11" font-style="italic" '
                       f'fill="#1f4e79" text-anchor="middle">{esc(name)}</text></g>')
        else:
            out.append(f'<g class="box" data-place="{esc(name)}"><rect x="{x - w / 2}" '
                       f'y="{y - h / 2}" width="{w}" height="{h}" rx="6" fill="#fbfaf5" '
                       f'stroke="#777" stroke-dasharray="4 2"/><text x="{x}" y="{y - h / 2 + 12}" '
                       f'font-size="10" fill="#333" text-anchor="middle">{esc(name)}</text></g>')
    # routes
    for a, bb, kind in m.get("routes") or []:
        if a not in zones or bb not in zones:
            continue
        (x1, y1), (x2, y2) = zones[a]["xy"], zones[bb]["xy"]
        out.append(_route(x1, y1, x2, y2, kind))
    # the moves: an arrow a faction and a pair of places, beside the line between them (so
    # that moves both ways do not hide each other), short of both places' marks
    for start, end, fid, ids in _moves(before, view):
        p, q = places.get(start), places.get(end)
        if p is None or q is None:
            continue
        length = math.dist((p.x, p.y), (q.x, q.y))
        if length < p.reach + q.reach + 12:
            continue
        ux, uy = (q.x - p.x) / length, (q.y - p.y) / length
        ox, oy = -uy * 2.5, ux * 2.5
        tip = f"{names.get(fid, fid)} moved from {start} to {end}: " + ", ".join(ids)
        out.append(f'<g class="move" data-from="{esc(start)}" data-to="{esc(end)}" '
                   f'data-faction="{esc(fid)}" opacity="0.8"><title>{esc(tip)}</title>'
                   + _arrow(p.x + ux * (p.reach + 2) + ox, p.y + uy * (p.reach + 2) + oy,
                            q.x - ux * (q.reach + 2) + ox, q.y - uy * (q.reach + 2) + oy,
                            _colour(style, fid)) + "</g>")
    # the marks, under every zone's circle and name
    for name, events in battles.items():
        if name in zones:
            x, y = zones[name]["xy"]
            tip = f"Battle in {name} this turn:\n" + "\n".join(events)
            out.append(f'<g class="battle" data-zone="{esc(name)}"><title>{esc(tip)}</title>'
                       f'{_burst(x, y, *BATTLE_R)}</g>')
    for name, factions in contested.items():
        x, y = zones[name]["xy"]
        tip = f"{name} is contested: " + ", ".join(names.get(f, f) for f in factions)
        out.append(f'<g class="contested" data-zone="{esc(name)}"><title>{esc(tip)}</title>'
                   f'{_contested_ring(x, y)}</g>')
    for name, siege in sieges.items():
        if name in zones and isinstance(siege, dict):
            x, y = zones[name]["xy"]
            tip = (f"{name} is besieged by {names.get(siege.get('faction', ''), siege.get('faction'))}: "
                   f"{siege.get('hits', 0)} hits on its fortification {zones[name].get('fort', '?')} (9.2)")
            out.append(f'<g class="besieged" data-zone="{esc(name)}"><title>{esc(tip)}</title>'
                       f'{_siege_ring(x, y)}</g>')
    # zones: a circle in the controller's colour and the name
    for name, z in zones.items():
        x, y = z["xy"]
        owner = control.get(name)
        lines = [f"{name}: {names.get(owner or '', 'neutral')}"]
        if name in sieges and isinstance(sieges[name], dict):
            lines.append(f"besieged by {names.get(sieges[name].get('faction', ''), '?')}")
        if name in contested:
            lines.append("contested")
        lines += [s.title for s in places[name].stacks]
        out.append(f'<g class="zone" id="zone-{_slug(name)}" data-zone="{esc(name)}">'
                   f'<title>{esc(chr(10).join(lines))}</title>'
                   f'<circle cx="{x}" cy="{y}" r="{ZONE_R:g}" fill="{_colour(style, owner)}" stroke="#222" '
                   'stroke-width="1.2"/>'
                   f'<text x="{x}" y="{_name_baseline(y, places[name].reach):g}" font-size="{NAME_FONT}" '
                   f'fill="#111" text-anchor="middle" stroke="{BACKGROUND}" stroke-width="2.5" '
                   f'paint-order="stroke">{esc(name)}</text></g>')
    # the badges, drawn last so that nothing covers them
    for p in places.values():
        if p.leader is not None:
            x1, y1, x2, y2 = p.leader
            out.append(f'<line class="leader" x1="{x1:.1f}" y1="{y1:.1f}" x2="{x2:.1f}" '
                       f'y2="{y2:.1f}" stroke="#333" stroke-width="0.8"/>')
        for s in p.stacks:
            out.append(_badge(s, p.name, _colour(style, s.faction)))
    out.append(_legend(style, names, majors, width, map_h))
    out.append("</svg>")
    return "\n".join(out)


def _badge(s: _Stack, place: str, fill: str) -> str:
    return (f'<g class="units" data-place="{html.escape(place)}" data-faction="{html.escape(s.faction)}">'
            f'<title>{html.escape(s.title)}</title>{_badge_shape(s.box, s.text, fill)}</g>')


def _badge_shape(box: Box, text: str, fill: str) -> str:
    x0, y0, x1, _y1 = box
    return (f'<rect class="badge" x="{x0:g}" y="{y0:g}" width="{x1 - x0:.1f}" height="{BADGE_H:g}" '
            f'rx="2.5" fill="{fill}" stroke="#222" stroke-width="0.6"/><text x="{(x0 + x1) / 2:.1f}" '
            f'y="{y0 + 8.3:.1f}" font-size="{BADGE_FONT}" font-weight="bold" fill="{_ink(fill)}" '
            f'text-anchor="middle">{html.escape(text)}</text>')


LegendItem = tuple[float, Callable[[float, float], str]]  # its width, its SVG at (x, baseline)


def _legend(style: dict[str, Any], names: dict[str, str], majors: list[str],
            width: int, top: int) -> str:
    """The legend under the map, in three rows: the major factions and the route kinds,
    the minor factions, the Allies, moves and battles, the other marks and the badges."""
    esc = html.escape

    def text(x: float, y: float, label: str) -> str:
        return f'<text x="{x:.1f}" y="{y:.1f}" font-size="10" fill="#111">{esc(label)}</text>'

    def swatch(fid: str) -> LegendItem:
        label = names.get(fid, fid) if fid != "neutral" else "neutral"
        fill = _colour(style, fid)
        return (20 + _text_width(label, 10),
                lambda x, y: f'<circle cx="{x + 6:.1f}" cy="{y - 4:.1f}" r="6" fill="{fill}" '
                             f'stroke="#222"/>' + text(x + 15, y, label))

    def route(kind: str, label: str) -> LegendItem:
        return 33 + _text_width(label, 10), lambda x, y: _route(x, y - 4, x + 26, y - 4, kind) + text(x + 31, y, label)

    def mark(draw: Callable[[float, float], str], label: str, room: float = 24) -> LegendItem:
        return room + _text_width(label, 10), lambda x, y: draw(x + 9, y - 4) + text(x + room - 4, y, label)

    sample = "2i 1c* 1L"
    sample_w = _text_width(sample, BADGE_FONT, bold=True) + 2 * BADGE_PAD
    key = ("a faction's units: 2 infantry, 1 reduced (*) cavalry, 1 leader; "
           "t tank, a aircraft, f fleet")

    def badge_key(x: float, y: float) -> str:
        return (_badge_shape(_badge_box(x, y - 9, sample_w), sample, _colour(style, "red"))
                .replace('class="badge" ', '') + text(x + sample_w + 5, y, key))

    others = [f for f in style.get("colours", {}) if f not in majors and f != "neutral"]
    rows: list[list[LegendItem]] = [
        [swatch(f) for f in [*majors, "neutral"]]
        + [route("easy", "easy"), route("difficult", "difficult"),
           route("very_difficult", "very difficult")],
        [swatch(f) for f in others]
        + [mark(lambda x, y: _arrow(x - 8, y, x + 14, y, "#777777"), "moved (this report's turns)", 30),
           mark(lambda x, y: _burst(x, y, 8.0, 5.5), "battle this turn")],
        [mark(lambda x, y: _contested_ring(x, y, 6.5, 2.0), "contested"),
         mark(lambda x, y: _siege_ring(x, y, 7.0, 2.5), "besieged"),
         (sample_w + 5 + _text_width(key, 10), badge_key)],
    ]
    parts: list[str] = []
    y = top + 15.0
    for row in rows:
        x = 8.0
        for w, draw in row:
            if x + w > width - 4 and x > 8.0:  # no room left on this line: the next one
                x, y = 8.0, y + 17
            parts.append(draw(x, y))
            x += w + 14
        y += 17
    return (f'<g class="legend"><rect x="0" y="{top}" width="{width}" height="{LEGEND}" '
            f'fill="#ffffff"/>' + "".join(parts) + "</g>")


def _route(x1: float, y1: float, x2: float, y2: float, kind: str) -> str:
    line = f'x1="{x1}" y1="{y1}" x2="{x2}" y2="{y2}"'
    if kind == "very_difficult":  # a double line
        return (f'<line {line} stroke="#5a4a3a" stroke-width="5"/>'
                f'<line {line} stroke="#f3efe2" stroke-width="2"/>')
    if kind == "difficult":
        return f'<line {line} stroke="#6b5d4f" stroke-width="1.5" stroke-dasharray="5 3"/>'
    return f'<line {line} stroke="#6b5d4f" stroke-width="1.8"/>'


def _slug(name: str) -> str:
    return "".join(c if c.isalnum() else "-" for c in name.lower())
