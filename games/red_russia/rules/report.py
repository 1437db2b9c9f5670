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
  where templates/report.yaml places them, control colours and unit counts;
- the reader's hand (the sealed `card` nodes still held, with titles and texts from
  cards.yaml), for templates/hand.*.j2, and the note of the orders template.

Pure functions over plain data: no I/O, no templates. `style` is the game's
templates/report.yaml as pbem read it (colours per faction, where seas and boxes are drawn).
"""

from __future__ import annotations

import html
from typing import Any

from pbem.game import GameData

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
        "map_svg": map_svg(data, view, style),
        "hand": hand(data, secrets, who),
        # the cards are shown in the hand, with their texts, not among the sealed values
        "secrets": [s for s in secrets if s["kind"] != "card"],
        "orders_note": list(ORDERS_NOTE),
    }


# ---------------------------------------------------------------------------------------
# colours (templates/report.yaml)


def _colour(style: dict[str, Any], owner: str | None) -> str:
    colours: dict[str, str] = style.get("colours", {})
    return str(colours.get(owner or "neutral", colours.get("neutral", "#ffffff")))


def _ink(fill: str) -> str:
    """Black or white text, whichever reads better on `fill` (#rrggbb)."""
    r, g, b = (int(fill[i:i + 2], 16) for i in (1, 3, 5))
    return "#000000" if 0.299 * r + 0.587 * g + 0.114 * b > 150 else "#ffffff"


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

LEGEND = 44  # pixels under the map for the legend
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


def map_svg(data: GameData, view: dict[str, Any], style: dict[str, Any]) -> str:
    """An SVG map of the game's zones (from map.yaml `xy`), seas and boxes (positions in
    the game's templates/report.yaml), routes by kind, control colours and unit counts."""
    m = data["map"]
    zones: dict[str, dict[str, Any]] = m.get("zones") or {}
    layout = style.get("layout", {})
    width, height = layout.get("size", [1000, 724])
    control: dict[str, Any] = view.get("control") or {}
    on_map = _on_map(view)
    names = _faction_names(data)
    majors = [f["id"] for f in data["game"].get("factions", [])]
    esc = html.escape
    out: list[str] = [
        f'<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 {width} {height}" '
        f'width="{width}" height="{height}" class="map" role="img" '
        f'aria-label="Map of {esc(data["game"]["name"])}" '
        'font-family="DejaVu Sans, Arial, Helvetica, sans-serif">',
        f'<rect x="0" y="0" width="{width}" height="{height}" fill="#f3efe2"/>',
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
    areas = {**{n: ("sea", s) for n, s in (layout.get("seas") or {}).items()},
             **{n: ("box", s) for n, s in (layout.get("boxes") or {}).items()}}
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
    for a, b, kind in m.get("routes") or []:
        if a not in zones or b not in zones:
            continue
        (x1, y1), (x2, y2) = zones[a]["xy"], zones[b]["xy"]
        out.append(_route(x1, y1, x2, y2, kind))
    # zones: a circle in the controller's colour, the name, unit counts per faction
    for name, z in zones.items():
        x, y = z["xy"]
        owner = control.get(name)
        fill = _colour(style, owner)
        title = f"{name}: {names.get(owner or '', 'neutral')}"
        out.append(f'<g class="zone" id="zone-{_slug(name)}" data-zone="{esc(name)}">'
                   f'<title>{esc(title)}</title>'
                   f'<circle cx="{x}" cy="{y}" r="9" fill="{fill}" stroke="#222" '
                   'stroke-width="1.2"/>'
                   f'<text x="{x}" y="{y + 19}" font-size="9" fill="#111" text-anchor="middle" '
                   'stroke="#f3efe2" stroke-width="2.5" paint-order="stroke">'
                   f'{esc(name)}</text></g>')
    # unit counts, drawn last so no zone covers them
    for place, pieces in on_map.items():
        if place in zones:
            x, y = zones[place]["xy"]
            bx, by = x + 10, y - 15
        elif place in areas:
            x, y = areas[place][1]["xy"]
            bx, by = x - 20, y + 2
        else:
            continue
        for fid in sorted({u["faction"] for _i, u in pieces}, key=lambda f: (f not in majors, f)):
            mine = [(i, u) for i, u in pieces if u["faction"] == fid]
            count = sum(1 for _i, u in mine if u.get("type") != "leader")
            leaders = len(mine) - count
            text = (str(count) if count else "") + ("L" if leaders else "")
            fill = _colour(style, fid)
            w = 7 + 6 * len(text)
            tip = f"{names.get(fid, fid)} in {place}: " + ", ".join(i for i, _u in mine)
            out.append(f'<g class="units"><title>{esc(tip)}</title><rect x="{bx}" y="{by}" '
                       f'width="{w}" height="12" rx="3" fill="{fill}" stroke="#222" '
                       f'stroke-width="0.6"/><text x="{bx + w / 2}" y="{by + 9.5}" font-size="9" '
                       f'font-weight="bold" fill="{_ink(fill)}" text-anchor="middle">{text}</text></g>')
            bx += w + 1
    out.append(_legend(style, names, majors, width, height))
    out.append("</svg>")
    return "\n".join(out)


def _legend(style: dict[str, Any], names: dict[str, str], majors: list[str],
            width: int, height: int) -> str:
    """Two rows under the map: the major factions, then the others and the route kinds."""
    others = [f for f in style.get("colours", {}) if f not in majors and f != "neutral"]
    parts = [f'<g class="legend"><rect x="0" y="{height - LEGEND}" width="{width}" '
             f'height="{LEGEND}" fill="#ffffff"/>']
    for row, fids in enumerate(([*majors, "neutral"], others)):
        x, y = 8.0, height - LEGEND + 16 + 18 * row
        for fid in fids:
            label = names.get(fid, fid) if fid != "neutral" else "neutral"
            fill = _colour(style, fid)
            parts.append(f'<circle cx="{x + 6}" cy="{y - 4}" r="6" fill="{fill}" stroke="#222"/>'
                         f'<text x="{x + 15}" y="{y}" font-size="10" fill="#111">'
                         f'{html.escape(label)}</text>')
            x += 28 + 6.2 * len(label)
    x, y = width - 370, height - LEGEND + 12
    for kind, label in (("easy", "easy"), ("difficult", "difficult"),
                        ("very_difficult", "very difficult")):
        parts.append(_route(x, y, x + 26, y, kind) + f'<text x="{x + 31}" y="{y + 4}" '
                     f'font-size="10" fill="#111">{label}</text>')
        x += 36 + 6.2 * len(label)
    parts.append(f'<text x="{width - 370}" y="{height - LEGEND + 34}" font-size="10" fill="#111">'
                 "badge: units of a faction in a zone (L: with leaders)</text></g>")
    return "".join(parts)


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
