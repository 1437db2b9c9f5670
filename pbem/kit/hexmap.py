"""An SVG picture of a hex map (pbem.kit.hexes.Grid), for a game's report: each hex filled
by its terrain with its name, rivers and borders drawn on the hexsides, roads from centre to
centre, and on each hex a badge per stack, whose hover text (an SVG <title>) lists what the
reader may know of it. The game decides the colours and every text; this module only draws,
and escapes every text it is given.

The picture is laid out as the map is printed (columns left to right, rows top to bottom);
a game whose printed map is turned says so in its legend.
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from html import escape

from pbem.kit.hexes import Grid, Hexside

SCALE = 48.0  # pixels across a hex's flats


@dataclass(frozen=True)
class Cell:
    """One hex: its fill colour, the name printed in it (a town), its hover text."""

    fill: str
    name: str = ""
    title: str = ""


@dataclass(frozen=True)
class Badge:
    """A stack on a hex: the short text on it ("3 ?", "74 Mech"), its colours, the hover
    text listing what the reader may know of it."""

    text: str
    fill: str
    title: str = ""
    colour: str = "#ffffff"


@dataclass(frozen=True)
class Lines:
    """The hexsides or links to draw: rivers and borders on hexsides, roads centre to centre."""

    rivers: Iterable[Hexside] = ()
    borders: Iterable[Hexside] = ()
    roads: Iterable[Hexside] = ()
    # the hexsides around an area the game marks (the one the game is about): a heavy line
    outline: Iterable[Hexside] = ()
    styles: Mapping[str, str] = field(default_factory=lambda: {
        "river": 'stroke="#3b7dd8" stroke-width="4" stroke-linecap="round"',
        "border": 'stroke="#5a3d1e" stroke-width="2.5" stroke-dasharray="6 4"',
        "road": 'stroke="#a0522d" stroke-width="2"',
        "outline": 'stroke="#c62828" stroke-width="4" stroke-linecap="round"',
    })


def _point(p: tuple[float, float]) -> str:
    return f"{p[0] * SCALE:.1f},{p[1] * SCALE:.1f}"


def shared_edge(grid: Grid, a: str, b: str) -> tuple[tuple[float, float], tuple[float, float]]:
    """The two corners that adjacent hexes `a` and `b` share: the ends of their hexside."""
    grid.hexside(a, b)  # refuses hexes that are not adjacent
    other = grid.corners(b)
    near = [p for p in grid.corners(a) if any(math.dist(p, q) < 1e-6 for q in other)]
    if len(near) != 2:  # pragma: no cover - adjacency guarantees two
        raise ValueError(f"hexes {a} and {b} share {len(near)} corners")
    return near[0], near[1]


LEGEND_LINE = 16.0  # pixels a line of the legend takes under the map


def svg(grid: Grid, cells: Mapping[str, Cell], lines: Lines = Lines(),
        badges: Mapping[str, Sequence[Badge]] | None = None, *, title: str = "",
        legend: Sequence[str] = (), keys: Sequence[tuple[str, str]] = ()) -> str:
    """The map as one <svg> element: `cells` by hex id, `lines` over them, `badges` by hex id,
    and the `legend`'s lines (the game's tracks, what the badges mean) under the map, then
    one line of `keys`: a swatch of each colour (a terrain's fill) with what it means."""
    legend = [*legend, *([""] if keys else [])]  # the keys' line
    if not cells:
        raise ValueError("a map needs at least one hex")
    corners = {h: grid.corners(h) for h in cells}
    xs = [x for cs in corners.values() for x, _ in cs]
    ys = [y for cs in corners.values() for _, y in cs]
    pad = 0.1
    under = (len(legend) + 0.5) * LEGEND_LINE if legend else 0.0
    box = (f"{(min(xs) - pad) * SCALE:.1f} {(min(ys) - pad) * SCALE:.1f} "
           f"{(max(xs) - min(xs) + 2 * pad) * SCALE:.1f} "
           f"{(max(ys) - min(ys) + 2 * pad) * SCALE + under:.1f}")
    out = [f'<svg xmlns="http://www.w3.org/2000/svg" viewBox="{box}" role="img" '
           f'aria-label="{escape(title or "hex map")}" font-family="sans-serif">']
    if title:
        out.append(f"<title>{escape(title)}</title>")
    out.append('<g class="hexes" stroke="#888" stroke-width="1">')
    for hex_id in sorted(cells):
        cell = cells[hex_id]
        points = " ".join(_point(p) for p in corners[hex_id])
        hover = escape(f"{hex_id} {cell.title}".strip())
        out.append(f'<polygon points="{points}" fill="{escape(cell.fill)}" data-hex="{hex_id}">'
                   f"<title>{hover}</title></polygon>")
    out.append("</g>")
    out.append('<g class="lines" fill="none">')
    for kind, edges in (("river", lines.rivers), ("border", lines.borders), ("outline", lines.outline)):
        for a, b in sorted(edges):
            p, q = shared_edge(grid, a, b)
            out.append(f'<line class="{kind}" x1="{p[0] * SCALE:.1f}" y1="{p[1] * SCALE:.1f}" '
                       f'x2="{q[0] * SCALE:.1f}" y2="{q[1] * SCALE:.1f}" {lines.styles[kind]}/>')
    for a, b in sorted(lines.roads):
        grid.hexside(a, b)
        p, q = grid.centre(a), grid.centre(b)
        out.append(f'<line class="road" x1="{p[0] * SCALE:.1f}" y1="{p[1] * SCALE:.1f}" '
                   f'x2="{q[0] * SCALE:.1f}" y2="{q[1] * SCALE:.1f}" {lines.styles["road"]}/>')
    out.append("</g>")
    out.append('<g class="labels" font-size="8" text-anchor="middle" fill="#222">')
    for hex_id in sorted(cells):
        x, y = grid.centre(hex_id)
        out.append(f'<text x="{x * SCALE:.1f}" y="{(y - 0.32) * SCALE:.1f}" fill="#666" '
                   f'font-size="6">{hex_id}</text>')
        if cells[hex_id].name:
            out.append(f'<text x="{x * SCALE:.1f}" y="{(y + 0.38) * SCALE:.1f}">'
                       f"{escape(cells[hex_id].name)}</text>")
    out.append("</g>")
    out.append('<g class="stacks" font-size="8" text-anchor="middle">')
    for hex_id, stack in sorted((badges or {}).items()):
        x, y = grid.centre(hex_id)
        width = 0.62 / max(1, len(stack))
        for k, badge in enumerate(stack):
            left = x - 0.31 + k * width
            out.append(f'<g class="stack" data-hex="{hex_id}"><title>{escape(badge.title or badge.text)}'
                       f'</title><rect x="{left * SCALE:.1f}" y="{(y - 0.2) * SCALE:.1f}" '
                       f'width="{width * SCALE - 1:.1f}" height="{0.36 * SCALE:.1f}" rx="2" '
                       f'fill="{escape(badge.fill)}" stroke="#222" stroke-width="0.5"/>'
                       f'<text x="{(left + width / 2) * SCALE:.1f}" y="{(y + 0.04) * SCALE:.1f}" '
                       f'fill="{escape(badge.colour)}">{escape(badge.text)}</text></g>')
    out.append("</g>")
    if legend:
        left, top = (min(xs) - pad) * SCALE + 8, (max(ys) + pad) * SCALE
        out.append('<g class="legend" font-size="12" fill="#222">')
        for k, line in enumerate(legend, start=1):
            if line:
                out.append(f'<text x="{left:.1f}" y="{top + k * LEGEND_LINE:.1f}">{escape(line)}</text>')
        x, y = left, top + len(legend) * LEGEND_LINE
        for colour, meaning in keys:
            out.append(f'<rect class="key" x="{x:.1f}" y="{y - 10:.1f}" width="12" height="12" '
                       f'fill="{escape(colour)}" stroke="#888"/>'
                       f'<text x="{x + 16:.1f}" y="{y:.1f}">{escape(meaning)}</text>')
            x += 16 + 7.2 * len(meaning) + 14  # 12px text: about 7 px a character
        out.append("</g>")
    out.append("</svg>")
    return "\n".join(out)
