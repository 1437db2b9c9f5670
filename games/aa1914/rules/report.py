"""What only Axis & Allies 1914 knows of a turn report: its map (pbem's Game protocol, `report`).

The map is an SVG drawing of the board as a schematic: every land territory a box at its
place in layout.yaml (a RECONSTRUCTED layout, see its header), filled with its controller's
colour, with its name, its IPC value, a star on a capital and a striped outline when it is
contested; every sea zone a blue disc, ringed when a minefield lies in it; the adjacencies as
lines (land to land grey, sea to sea blue and dashed, land to sea light blue); each place's
units as one badge per owner counting them by type ("3i 1a"), with a tooltip listing them in
full; and a legend of the powers' colours, treasuries and incomes.

It is drawn from the reader's view only (AxisAndAllies1914.view; A&A has no hidden
information, so every reader sees the same board) and from the game's data (map.yaml for the
places, layout.yaml for where they are drawn). The view names places and powers by their
printed names; they are turned back into ids here. Pure functions: no I/O.
"""

from __future__ import annotations

import html
import math
from dataclasses import dataclass
from typing import Any

from pbem.game import GameData

from . import board

# the letters of a unit badge ("3i 1a 1t"): the legend lists them
ABBREVIATIONS = {"infantry": "i", "artillery": "a", "tank": "t", "fighter": "f",
                 "submarine": "s", "cruiser": "c", "battleship": "b", "transport": "tr"}

# sizes in canvas units (the SVG is drawn at one unit a pixel)
FONT = 10.5           # a territory's name
LINE = 12             # the height of one line of a name
CHAR = 0.6            # the width of a character, in ems (DejaVu Sans, generous)
WRAP = 12             # characters on a line of a name before it wraps (two lines at most)
BADGE_FONT = 9
BADGE_H = 12
SEA_R = 16            # a sea zone's radius
MARK_R = 6.5          # the capital's star, the IPC disc
LEGEND_W = 370        # the legend's width
HOME = (960, 360)     # the frame around a capital in which a power's own territories are shown
                      # first: about the part of the map box a 1200 x 900 window shows at first
FOCUS_MARGIN = 40     # around them

LAND_LINE = "#9a9a9a"
SEA_LINE = "#3f78b5"
COAST_LINE = "#a9c8e6"
SEA_FILL, SEA_STROKE, SEA_INK = "#cfe2f5", "#3f78b5", "#123c69"
BACKGROUND = "#f4f1e8"
CANAL = "#d08a1a"
INKS = ("#111111", "#ffffff")


@dataclass(frozen=True)
class Rect:
    """An axis-aligned rectangle: its top-left corner, width and height."""

    x: float
    y: float
    w: float
    h: float

    def overlaps(self, other: Rect) -> bool:
        return (self.x < other.x + other.w and other.x < self.x + self.w
                and self.y < other.y + other.h and other.y < self.y + self.h)


# ---------------------------------------------------------------------------------------
# the game's part of a report


def report(data: GameData, view: dict[str, Any], who: str) -> dict[str, Any]:
    """The parts of a report only this game gives (pbem.game.Game.report): the map, and the
    part of it the reader sees first."""
    shown = focus(data, view, who)
    return {"map_svg": map_svg(data, view),
            "map_focus": {"x": round(shown.x), "y": round(shown.y),
                          "width": round(shown.w), "height": round(shown.h)}}


# ---------------------------------------------------------------------------------------
# what the reader sees first: the map is twice as wide as a report's page and taller than a
# window, so the HTML report opens its map box on the reader's own powers


def focus(data: GameData, view: dict[str, Any], who: str) -> Rect:
    """The part of the map the reader sees first: a power's capital and its own territories
    around it, or, for the public and the referee, the places of layout.yaml's `opens_on`
    (Europe's capitals), or the whole canvas without it; with a margin, inside the canvas."""
    now = Board.of(data, view)
    capital = next((p["capital"] for p in board.powers(data) if p["id"] == who), None)
    width, height = data["layout"]["canvas"]
    if capital is None:
        places = [p for p in data["layout"].get("opens_on") or [] if p in data["layout"]["places"]]
        if not places:
            return Rect(0, 0, width, height)
    else:
        places = [capital, *near_home(data, capital,
                                      [t for t, o in now.control.items() if o == who])]
    shapes = [box(data, p) for p in places]
    for p in places:
        texts = [badge_text(units) for units in now.units.get(p, {}).values()]
        shapes += badges(data, p, texts)
    left = min(s.x for s in shapes) - FOCUS_MARGIN
    top = min(s.y for s in shapes) - FOCUS_MARGIN
    right = max(s.x + s.w for s in shapes) + FOCUS_MARGIN
    bottom = max(s.y + s.h for s in shapes) + FOCUS_MARGIN
    left, top = max(0.0, left), max(0.0, top)
    return Rect(left, top, min(float(width), right) - left, min(float(height), bottom) - top)


def near_home(data: GameData, capital: str, held: list[str]) -> list[str]:
    """The territories of `held` whose place lies in the first screen's frame (HOME) centred
    on the capital: Austria-Hungary's six, not Britain's India or Canada."""
    at: dict[str, list[float]] = data["layout"]["places"]
    cx, cy = at[capital]
    return [t for t in held
            if t in at and abs(at[t][0] - cx) <= HOME[0] / 2 and abs(at[t][1] - cy) <= HOME[1] / 2]


# ---------------------------------------------------------------------------------------
# layout.yaml against map.yaml


def drawn(data: GameData) -> list[str]:
    """The places the map draws: every territory but the impassable ones, and every sea zone."""
    return [p for p, spec in board.places(data).items() if not spec.get("impassable")]


def check_layout(data: GameData) -> list[str]:
    """What layout.yaml's schema cannot say: each place drawn has a position inside the
    canvas, no other place has one, the map opens on places it draws, and each power and
    the neutrals have a colour."""
    layout = data["layout"]
    width, height = layout["canvas"]
    placed: dict[str, list[float]] = layout["places"]
    wanted = drawn(data)
    problems = [f"layout.yaml: places: {p}: no position (it is a place of map.yaml)"
                for p in wanted if p not in placed]
    problems += [f"layout.yaml: places: {p}: not a territory or sea zone of map.yaml"
                 + (" (an impassable one, not drawn)" if p in board.places(data) else "")
                 for p in placed if p not in wanted]
    problems += [f"layout.yaml: places: {p}: [{x}, {y}] is outside the canvas ({width} x {height})"
                 for p, (x, y) in placed.items() if not (0 <= x <= width and 0 <= y <= height)]
    problems += [f"layout.yaml: opens_on: {p}: not a place it draws"
                 for p in layout.get("opens_on") or [] if p not in placed]
    colours = layout["colours"]
    problems += [f"layout.yaml: colours: {pid}: no colour"
                 for pid in [*(p["id"] for p in board.powers(data)), board.NEUTRAL]
                 if pid not in colours]
    return problems


# ---------------------------------------------------------------------------------------
# the shapes, and where they go (tests and the layout's checks measure them)


def name_lines(name: str) -> list[str]:
    """A territory's name in one or two lines, broken between words."""
    words, lines = name.split(), [""]
    for word in words:
        if lines[-1] and len(lines[-1]) + 1 + len(word) > WRAP and len(lines) < 2:
            lines.append(word)
        else:
            lines[-1] = f"{lines[-1]} {word}".strip()
    return lines


def text_width(text: str, size: float) -> float:
    return len(text) * size * CHAR


def box(data: GameData, place: str) -> Rect:
    """Where a place's shape lies: a land territory's box with its name, a sea zone's disc."""
    x, y = data["layout"]["places"][place]
    if board.is_sea(place):
        return Rect(x - SEA_R, y - SEA_R, 2 * SEA_R, 2 * SEA_R)
    lines = name_lines(board.name(data, place))
    w = max(34.0, max(text_width(line, FONT) for line in lines) + 10)
    h = len(lines) * LINE + 6
    return Rect(x - w / 2, y - h / 2, w, h)


def in_order(units: dict[str, int]) -> dict[str, int]:
    """The units by type in units.yaml's order (infantry first, transports last), none at 0."""
    order = list(ABBREVIATIONS)
    return {u: n for u, n in sorted(units.items(), key=lambda un: (
        order.index(un[0]) if un[0] in order else len(order), un[0])) if n}


def badge_text(units: dict[str, int]) -> str:
    """{infantry: 3, artillery: 1} as "3i 1a"."""
    return " ".join(f"{n}{ABBREVIATIONS.get(u, u)}" for u, n in in_order(units).items())


def badges(data: GameData, place: str, texts: list[str]) -> list[Rect]:
    """Where a place's unit badges go: one row per owner, under its shape, centred."""
    shape = box(data, place)
    cx, top = shape.x + shape.w / 2, shape.y + shape.h + 2
    out = []
    for i, text in enumerate(texts):
        w = text_width(text, BADGE_FONT) + 8
        out.append(Rect(cx - w / 2, top + i * (BADGE_H + 1), w, BADGE_H))
    return out


# ---------------------------------------------------------------------------------------
# the map


def luminance(colour: str) -> float:
    """The relative luminance of #rrggbb (WCAG 2)."""
    def channel(v: int) -> float:
        c = v / 255
        return c / 12.92 if c <= 0.03928 else ((c + 0.055) / 1.055) ** 2.4
    r, g, b = (channel(int(colour[i:i + 2], 16)) for i in (1, 3, 5))
    return 0.2126 * r + 0.7152 * g + 0.0722 * b


def contrast(a: str, b: str) -> float:
    """The WCAG contrast ratio of two colours (1 to 21)."""
    light, dark = sorted((luminance(a), luminance(b)), reverse=True)
    return (light + 0.05) / (dark + 0.05)


def ink(fill: str) -> str:
    """The text colour, near-black or white, that reads better on `fill`."""
    return max(INKS, key=lambda i: contrast(fill, i))


@dataclass(frozen=True)
class Board:
    """The reader's view as the map needs it: by ids (the view speaks in printed names)."""

    control: dict[str, str]                     # territory -> power or neutral
    contested: set[str]
    units: dict[str, dict[str, dict[str, int]]]  # place -> owner -> type -> count (in order)
    damaged: dict[str, dict[str, int]]          # sea zone -> owner -> damaged battleships
    mines: dict[str, str]                       # sea zone -> the owner of its minefield
    names: dict[str, str]                       # power id -> name
    order: list[str]                            # the powers, then neutral

    @classmethod
    def of(cls, data: GameData, view: dict[str, Any]) -> Board:
        place: dict[str, str] = {spec["name"]: pid for pid, spec in board.places(data).items()}
        powers: dict[str, str] = {p["name"]: p["id"] for p in board.powers(data)}

        def power(name: str) -> str:
            return powers.get(name, name)  # "neutral" is its own name
        order = [*(p["id"] for p in board.powers(data)), board.NEUTRAL]
        return cls(
            control={place[t]: power(o) for t, o in (view.get("control") or {}).items()},
            contested={place[t] for t in view.get("contested") or []},
            units={place[p]: {power(o): in_order(u) for o, u in sorted(
                       owners.items(), key=lambda ou: _rank(order, power(ou[0]))) if any(u.values())}
                   for p, owners in (view.get("units") or {}).items()},
            damaged={place[z]: {power(o): n for o, n in owners.items()}
                     for z, owners in (view.get("damaged battleships") or {}).items()},
            mines={place[z]: power(o) for z, o in (view.get("minefields") or {}).items()},
            names={p["id"]: p["name"] for p in board.powers(data)} | {board.NEUTRAL: "neutral"},
            order=order)


def _rank(order: list[str], owner: str) -> int:
    return order.index(owner) if owner in order else len(order)


def _star(cx: float, cy: float, r: float) -> str:
    points = []
    for k in range(10):
        radius = r if k % 2 == 0 else r * 0.45
        angle = math.pi / 2 + k * math.pi / 5
        points.append(f"{cx + radius * math.cos(angle):.1f},{cy - radius * math.sin(angle):.1f}")
    return (f'<polygon class="capital" points="{" ".join(points)}" fill="#ffd21f" '
            'stroke="#3a3a3a" stroke-width="0.8"/>')


def map_svg(data: GameData, view: dict[str, Any]) -> str:
    """The board after the report's steps, as standalone SVG text (see the module's doc)."""
    layout = data["layout"]
    width, height = layout["canvas"]
    now = Board.of(data, view)
    labels: list[str] = []  # the names, drawn last: no badge covers them
    return "\n".join([
        f'<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 {width} {height}" '
        f'width="{width}" height="{height}" style="width: {width}px; max-width: none" '
        'class="map" role="img" aria-label="Map of Axis &amp; Allies 1914" '
        'font-family="DejaVu Sans, Arial, Helvetica, sans-serif">',
        f'<rect x="0" y="0" width="{width}" height="{height}" fill="{BACKGROUND}"/>',
        '<g class="adjacency">', *_adjacency(data), "</g>",
        '<g class="places">', *(_place(data, now, p, labels) for p in drawn(data)), "</g>",
        '<g class="units">', *(_badges(data, now, p) for p in drawn(data) if now.units.get(p)), "</g>",
        '<g class="labels" pointer-events="none">', *labels, "</g>",
        _legend(data, view, now),
        "</svg>",
    ])


def _adjacency(data: GameData) -> list[str]:
    """A line for each pair of places next to each other, by kind; the canals their own."""
    esc = html.escape
    at: dict[str, list[float]] = data["layout"]["places"]
    canals = {frozenset(c["between"]): c for c in data["map"].get("canals") or []}
    out = []
    for a in drawn(data):
        for b in board.adjacent(data, a):
            if b <= a or b not in at:  # each pair once; nothing to an impassable territory
                continue
            (x1, y1), (x2, y2) = at[a], at[b]
            line = f'x1="{x1}" y1="{y1}" x2="{x2}" y2="{y2}"'
            canal = canals.get(frozenset((a, b)))
            if canal:
                out.append(f'<line {line} stroke="{CANAL}" stroke-width="2" stroke-dasharray="2 3">'
                           f'<title>{esc(canal["name"])}: open to the side holding '
                           f'{esc(board.name(data, canal["land"]))}</title></line>')
            elif board.is_sea(a) and board.is_sea(b):
                out.append(f'<line {line} stroke="{SEA_LINE}" stroke-width="1.2" '
                           'stroke-dasharray="6 4"/>')
            elif board.is_sea(a) or board.is_sea(b):
                out.append(f'<line {line} stroke="{COAST_LINE}" stroke-width="1"/>')
            else:
                out.append(f'<line {line} stroke="{LAND_LINE}" stroke-width="1"/>')
    return out


def _place(data: GameData, now: Board, place: str, labels: list[str]) -> str:
    """A place's group: its shape and markers, with a tooltip telling it all; its name is
    added to `labels`."""
    esc = html.escape
    spec = board.places(data)[place]
    colours: dict[str, str] = data["layout"]["colours"]
    x, y = data["layout"]["places"][place]
    shape = box(data, place)
    tip = [spec["name"]]
    out = []
    if board.is_sea(place):
        mine = now.mines.get(place)
        tip.append(f"minefield of {now.names.get(mine, mine)}" if mine else "sea zone")
        out.append(f'<g class="sea" data-place="{esc(place)}"'
                   + (f' data-mines="{esc(mine)}">' if mine else ">"))
        if mine:
            out.append(f'<circle cx="{x}" cy="{y}" r="{SEA_R + 3}" fill="none" '
                       f'stroke="{colours.get(mine, "#000000")}" stroke-width="2.5" '
                       'stroke-dasharray="2 2"/>')
        out.append(f'<circle cx="{x}" cy="{y}" r="{SEA_R}" fill="{SEA_FILL}" '
                   f'stroke="{SEA_STROKE}" stroke-width="1.2"/>')
        labels.append(f'<text x="{x}" y="{y + 3.5}" font-size="{BADGE_FONT}" font-style="italic" '
                      f'fill="{SEA_INK}" text-anchor="middle">{esc(spec["name"])}</text>')
    else:
        owner = now.control.get(place, spec["owner"])
        contested = place in now.contested
        fill = colours.get(owner, colours[board.NEUTRAL])
        tip.append(f"held by {now.names.get(owner, owner)}, IPC {spec.get('ipc', 0)}"
                   + (", capital" if spec.get("capital") else "")
                   + (", contested" if contested else ""))
        tip += _about(now, spec)
        out.append(f'<g class="land{" contested" if contested else ""}" data-place="{esc(place)}" '
                   f'data-owner="{esc(owner)}"' + (' data-contested="true">' if contested else ">"))
        rect = (f'x="{shape.x:.1f}" y="{shape.y:.1f}" width="{shape.w:.1f}" '
                f'height="{shape.h:.1f}" rx="5"')
        out.append(f'<rect {rect} fill="{fill}" stroke="#3a3a3a" stroke-width="1"/>')
        if contested:  # a striped outline: black dashes over yellow
            out.append(f'<rect {rect} fill="none" stroke="#ffcc00" stroke-width="5"/>'
                       f'<rect {rect} fill="none" stroke="#111111" stroke-width="5" '
                       'stroke-dasharray="4 4"/>')
        if spec.get("capital"):
            out.append(_star(shape.x + 1, shape.y + 1, MARK_R + 1))
        ix, iy = shape.x + shape.w - 1, shape.y + 1
        out.append(f'<circle cx="{ix:.1f}" cy="{iy:.1f}" r="{MARK_R}" fill="#ffffff" '
                   f'stroke="#3a3a3a" stroke-width="0.8"/><text x="{ix:.1f}" y="{iy + 3:.1f}" '
                   f'font-size="8" font-weight="bold" fill="#111111" text-anchor="middle">'
                   f'{spec.get("ipc", 0)}</text>')
        lines = name_lines(spec["name"])
        top = y - (len(lines) - 1) * LINE / 2 + FONT * 0.36
        labels += [f'<text x="{x}" y="{top + i * LINE:.1f}" font-size="{FONT}" fill="{ink(fill)}" '
                   f'text-anchor="middle">{esc(line)}</text>' for i, line in enumerate(lines)]
    for owner, units in now.units.get(place, {}).items():
        hurt = now.damaged.get(place, {}).get(owner, 0)
        tip.append(f"{now.names.get(owner, owner)}: {board.units_text(units)}"
                   + (f" ({hurt} battleship{'s' if hurt != 1 else ''} damaged)" if hurt else ""))
    return "".join([*out, f"<title>{esc(chr(10).join(tip))}</title></g>"])


def _about(now: Board, spec: dict[str, Any]) -> list[str]:
    """A territory's lines of the tooltip beyond its holder: a neutral's leaning, whether it
    mobilizes units."""
    out = []
    if spec.get("neutral"):
        leaning = {"true_neutral": "truly neutral", "allied": "leaning to the Allies",
                   "central": "leaning to the Central Powers"}[spec["neutral"]]
        joins = (f", joins {now.names.get(spec['joins'], spec['joins'])} when entered"
                 if spec.get("joins") else "")
        out.append(f"neutral at the start, {leaning}{joins}")
    if spec.get("mobilize"):
        out.append("mobilizes " + " and ".join(
            {"land": "land units and fighters", "sea": "ships"}[m] for m in spec["mobilize"]))
    return out


def _badges(data: GameData, now: Board, place: str) -> str:
    """A place's units: a badge per owner under its shape ("3i 1a"), with a tooltip."""
    esc = html.escape
    colours: dict[str, str] = data["layout"]["colours"]
    stacks = now.units[place]
    texts = [badge_text(units) for units in stacks.values()]
    tip = "\n".join(f"{now.names.get(o, o)} in {board.name(data, place)}: {board.units_text(u)}"
                    for o, u in stacks.items())
    out = [f'<g class="badges" data-units="{esc(place)}"><title>{esc(tip)}</title>']
    for owner, text, r in zip(stacks, texts, badges(data, place, texts), strict=True):
        fill = colours.get(owner, colours[board.NEUTRAL])
        out.append(f'<rect class="badge" x="{r.x:.1f}" y="{r.y:.1f}" width="{r.w:.1f}" '
                   f'height="{r.h}" rx="3" fill="{fill}" stroke="#222222" stroke-width="0.6"/>'
                   f'<text x="{r.x + r.w / 2:.1f}" y="{r.y + 9:.1f}" font-size="{BADGE_FONT}" '
                   f'font-weight="bold" fill="{ink(fill)}" text-anchor="middle">{esc(text)}</text>')
    return "".join([*out, "</g>"])


def _legend(data: GameData, view: dict[str, Any], now: Board) -> str:
    """The powers' colours with their treasuries and incomes (from the view), and the keys."""
    esc = html.escape
    colours: dict[str, str] = data["layout"]["colours"]
    x0, y0 = data["layout"]["legend"]
    shown = {row["power"]: row for row in view.get("powers") or []}
    line = 15
    ipc_x, income_x, held_x = 205, 245, 295
    parts = [f'<text x="10" y="18" font-size="12" font-weight="bold" fill="#111111">'
             f'Round {esc(str(view.get("round", "")))}: {esc(str(view.get("turn of", "")))}'
             "&#8217;s turn</text>",
             f'<text x="{ipc_x}" y="36" font-size="9" fill="#444444">IPC</text>'
             f'<text x="{income_x}" y="36" font-size="9" fill="#444444">income</text>'
             f'<text x="{held_x}" y="36" font-size="9" fill="#444444">territories</text>']
    y = 50.0
    for pid in now.order:
        name = now.names[pid]
        row = shown.get(name)
        fill = colours.get(pid, "#ffffff")
        parts.append(f'<g class="legend-power" data-power="{esc(pid)}">'
                     f'<rect x="10" y="{y - 9}" width="16" height="11" rx="2" fill="{fill}" '
                     f'stroke="#333333" stroke-width="0.8"/>'
                     f'<text x="32" y="{y}" font-size="10" fill="#111111">{esc(name)}'
                     + (f' ({esc(str(row["side"]))})' if row else "") + "</text>")
        if row:
            parts.append(f'<text x="{ipc_x}" y="{y}" font-size="10" fill="#111111">{row["IPC"]}</text>'
                         f'<text x="{income_x}" y="{y}" font-size="10" fill="#111111">'
                         f'{row["income"]}</text><text x="{held_x}" y="{y}" font-size="10" '
                         f'fill="#111111">{row["territories"]}'
                         f'{"" if row["at war"] else ", not at war"}</text>')
        elif pid != board.NEUTRAL:
            parts.append(f'<text x="{ipc_x}" y="{y}" font-size="10" fill="#666666">'
                         "not in play</text>")
        parts.append("</g>")
        y += line
    y += 6
    keys = [
        (_star(18, y - 4, MARK_R + 1), "a capital (a victory city)"),
        ('<circle cx="18" cy="{c}" r="6.5" fill="#ffffff" stroke="#3a3a3a" stroke-width="0.8"/>'
         '<text x="18" y="{t}" font-size="8" font-weight="bold" fill="#111111" '
         'text-anchor="middle">3</text>', "the territory's IPC value"),
        ('<rect x="8" y="{r}" width="20" height="10" rx="3" fill="none" stroke="#ffcc00" '
         'stroke-width="4"/><rect x="8" y="{r}" width="20" height="10" rx="3" fill="none" '
         'stroke="#111111" stroke-width="4" stroke-dasharray="4 4"/>',
         "contested: both sides stand there, no income"),
        ('<circle cx="18" cy="{c}" r="6" fill="none" stroke="#555555" stroke-width="2.5" '
         'stroke-dasharray="2 2"/>', "a minefield, in its owner's colour"),
        (f'<line x1="6" y1="{{c}}" x2="30" y2="{{c}}" stroke="{LAND_LINE}" stroke-width="1.5"/>',
         "land next to land"),
        (f'<line x1="6" y1="{{c}}" x2="30" y2="{{c}}" stroke="{SEA_LINE}" stroke-width="1.5" '
         'stroke-dasharray="6 4"/>', "sea zone next to sea zone"),
        (f'<line x1="6" y1="{{c}}" x2="30" y2="{{c}}" stroke="{COAST_LINE}" stroke-width="1.5"/>',
         "land next to a sea zone"),
        (f'<line x1="6" y1="{{c}}" x2="30" y2="{{c}}" stroke="{CANAL}" stroke-width="2" '
         'stroke-dasharray="2 3"/>', "a canal"),
    ]
    for shape, text in keys:
        parts.append(shape.format(c=y - 4, t=y - 1, r=y - 9)
                     + f'<text x="36" y="{y}" font-size="10" fill="#111111">{esc(text)}</text>')
        y += line
    for text in ("units, one badge per owner (in full in the report's tables):",
                 ", ".join(f"{a} {u}" for u, a in list(ABBREVIATIONS.items())[:4]),
                 ", ".join(f"{a} {u}" for u, a in list(ABBREVIATIONS.items())[4:])):
        parts.append(f'<text x="10" y="{y}" font-size="10" fill="#111111">{esc(text)}</text>')
        y += line
    return (f'<g class="legend" transform="translate({x0} {y0})">'
            f'<rect x="0" y="0" width="{LEGEND_W}" height="{y - 5}" rx="6" fill="#ffffff" '
            'fill-opacity="0.92" stroke="#8a8a8a"/>' + "".join(parts) + "</g>")
