"""Turn reports rendered by Jinja2: the context of pbem/reports/context.py in one format.

`render` builds the context of one reader (`pbem.reports.context.build_context`) and
renders it; `render_context` renders a context already built (`pbem mail` builds each
once for its text and HTML parts). Templates live in `templates/` (the shared layout, and
the neutral partials `position.*.j2` and `changes.*.j2`) and `games/<id>/templates/` (the
game's partials, searched first: its own `position`, `changes` and `hand`). This is the
only module of pbem that imports jinja2 and markupsafe, and only when rendering (start-up
speed). The map is also drawn as a PNG picture (`map_png`, by resvg, in a palette of 64
colours by Pillow), for mail, which shows it in place of the inline SVG that mail programs
do not show, and for a forum's [img].
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from pbem.errors import UsageError
from pbem.reports.context import build_context

FORMATS = {"text": "txt", "html": "html", "md": "md", "bbcode": "bbcode"}
PICTURE = "png"  # `pbem report --format png`: the map alone, as a picture


TEXT_WIDTH = 150  # a plain-text table is wrapped to this width (a mail reader's window)


def _column_widths(natural: list[int], limit: int) -> list[int]:
    """Columns within `limit` characters with two spaces between them: a narrow column keeps
    its width, the wide ones share what is left equally (at least 12 each)."""
    budget = limit - 2 * (len(natural) - 1)
    if sum(natural) <= budget:
        return natural
    fixed: dict[int, int] = {}
    while True:
        left = [i for i in range(len(natural)) if i not in fixed]
        share = max(12, (budget - sum(fixed.values())) // max(1, len(left)))
        narrow = [i for i in left if natural[i] <= share]
        if not narrow:
            return [fixed.get(i, share) for i in range(len(natural))]
        fixed.update({i: natural[i] for i in narrow})


def _text_table(rows: list[list[Any]], headers: list[str], limit: int = TEXT_WIDTH) -> str:
    """Rows as fixed-width columns (numbers right-aligned), for plain-text mail and BBCode;
    a table wider than `limit` has its widest cells wrapped over lines of their own."""
    import textwrap

    cells = [[str(h) for h in headers]] + [["" if c is None else str(c) for c in r] for r in rows]
    widths = _column_widths([max(len(r[i]) for r in cells) for i in range(len(headers))], limit)
    # a column is never narrower than its longest word: an id is not cut, nor does it overflow
    widths = [max([w, *(len(word) for r in cells for word in r[i].split())]) for i, w in enumerate(widths)]
    numeric = [all(r[i].lstrip("+-").isdigit() or r[i] in ("", "-") for r in cells[1:])
               for i in range(len(headers))]

    def fmt(row: list[str]) -> list[str]:
        parts = [textwrap.wrap(c, max(1, w), break_long_words=False, break_on_hyphens=False) or [""]
                 for c, w in zip(row, widths, strict=True)]
        return ["  ".join((part[k] if k < len(part) else "").rjust(w) if num else
                          (part[k] if k < len(part) else "").ljust(w)
                          for part, w, num in zip(parts, widths, numeric, strict=True)).rstrip()
                for k in range(max(len(part) for part in parts))]

    lines = [*fmt(cells[0]), "  ".join("-" * w for w in widths)]
    for r in cells[1:]:
        lines += fmt(r)
    return "\n".join(lines)


def _box_lines(rows: list[list[Any]], headers: list[str], wide: int = 160) -> str:
    """A box's rows for BBCode, with no column padding, so that a forum post of a turn's
    battles stays short: a row whose label is empty continues the row above (a cell wrapped
    over several rows). Each row a line, its label then its cells side by side (an empty one
    as -), the sides named in the first line; or, when a row would run past `wide`
    characters, each row as its label and then a line for each cell, named by its column."""
    merged: list[list[str]] = []
    for row in rows:
        cells = ["" if c is None else str(c) for c in row]
        if merged and not cells[0]:
            merged[-1] = [merged[-1][0]] + [f"{a} {b}".strip() for a, b in zip(merged[-1][1:], cells[1:], strict=True)]
        else:
            merged.append(cells)
    width = max([len(r[0]) for r in merged] or [0])
    lines = [" " * width + "  " + " | ".join(map(str, headers[1:]))]
    lines += [r[0].ljust(width) + "  " + " | ".join(c or "-" for c in r[1:]) for r in merged]
    if max(len(line) for line in lines) > wide:
        lines = []
        for r in merged:
            lines.append(r[0])
            lines += [f"  {h}: {c}" for h, c in zip(headers[1:], r[1:], strict=True) if c]
    return "\n".join(line.rstrip() for line in lines)


def _md_cell(value: Any) -> str:
    return "" if value is None else str(value).replace("|", "\\|").replace("\n", " ")


_ENVIRONMENTS: dict[tuple[str, str], Any] = {}


def environment(game_folder: Path, fmt: str) -> Any:
    """The Jinja2 environment of one format: the game's partials first, then the shared.

    Kept per process, so `pbem mail` compiles each template once for all its reports."""
    key = (str(game_folder), fmt)
    if key not in _ENVIRONMENTS:
        _ENVIRONMENTS[key] = _environment(game_folder, fmt)
    return _ENVIRONMENTS[key]


def _environment(game_folder: Path, fmt: str) -> Any:
    import jinja2

    from pbem.game import templates_dir

    env = jinja2.Environment(
        loader=jinja2.FileSystemLoader([str(game_folder / "templates"), str(templates_dir())]),
        autoescape=fmt == "html",
        undefined=jinja2.StrictUndefined,
        trim_blocks=True,
        lstrip_blocks=True,
        keep_trailing_newline=True,
    )
    env.filters["texttable"] = _text_table
    env.filters["boxlines"] = _box_lines
    env.filters["mdcell"] = _md_cell
    env.filters["signed"] = lambda n: f"{n:+d}" if isinstance(n, int) else str(n)
    env.filters["dash"] = lambda v: "-" if v is None else v
    return env


def render_context(context: dict[str, Any], game_folder: Path, fmt: str) -> str:
    if fmt not in FORMATS:
        raise UsageError(f"--format {fmt!r}: choose one of {', '.join(FORMATS)}")
    from markupsafe import Markup

    env = environment(game_folder, fmt)
    ctx = dict(context)
    if fmt == "html":  # the one value that is markup already (the game escapes its SVG)
        ctx["map_svg"] = Markup(context["map_svg"] or "")
    text: str = env.get_template(f"report.{FORMATS[fmt]}.j2").render(**ctx)
    return text


PALETTE = 64  # colours of the map's picture: a map's flat fills, and enough for its text


MAIL_PIXELS = 2_000_000  # a mail's picture at most (about 1630 x 1230): under 300 KB a mail


def _zoom(svg: str, pixels: int | None) -> float:
    """The scale that brings a map drawn at the size its <svg> tag gives within `pixels`
    (1: it is within them, the size is not given, or no bound)."""
    import re

    tag = re.search(r"<svg\b[^>]*>", svg)
    if pixels is None or tag is None:
        return 1.0
    size = [re.search(rf'\s{name}="([0-9.]+)(px)?"', tag.group(0)) for name in ("width", "height")]
    if not all(size):
        return 1.0
    area = float(size[0].group(1)) * float(size[1].group(1))  # type: ignore[union-attr]
    return 1.0 if area <= pixels else 0.998 * (pixels / area) ** 0.5  # resvg rounds up


def map_png(context: dict[str, Any], pixels: int | None = None) -> bytes | None:
    """The report's map as a PNG picture (white under it), or None for a game without one
    (or before the set-up, when nothing is on the board). With `pixels`, a map larger than
    that is drawn smaller to fit (the picture a mail carries: MAIL_PIXELS)."""
    svg = context.get("map_svg")
    if not svg or context.get("contribution_round"):
        return None
    import resvg_py

    try:
        full = bytes(resvg_py.svg_to_bytes(svg_string=str(svg), background="#ffffff",
                                           zoom=_zoom(str(svg), pixels)))
    except ValueError as exc:  # a game's SVG that resvg cannot draw: say which
        from pbem.errors import DataError

        raise DataError(f"game {context['game']['id']}: its map cannot be drawn as a picture: "
                        f"{exc}") from None
    return _palette(full)


def _palette(png: bytes, colours: int = PALETTE) -> bytes:
    """A PNG of at most `colours` colours (8-bit palette), a quarter of resvg's RGBA one: the
    palette is the picture's most frequent colours, exactly (the fills a player matches to the
    legend), and every other pixel (the anti-aliased edges) takes the nearest of them."""
    import io

    from PIL import Image

    picture = Image.open(io.BytesIO(png)).convert("RGB")
    counted = picture.getcolors(maxcolors=picture.width * picture.height) or []
    chosen: list[tuple[int, int, int]] = [
        rgb for _, rgb in sorted(counted, key=lambda c: (-c[0], c[1]))[:colours]]  # type: ignore[misc]
    palette = Image.new("P", (1, 1))
    flat = [v for rgb in chosen for v in rgb]
    palette.putpalette(flat + flat[:3] * (256 - len(chosen)))
    out = io.BytesIO()
    picture.quantize(palette=palette, dither=Image.Dither.NONE).save(out, "PNG", optimize=True)
    return out.getvalue()


def render_hand(game_folder: Path, hand: list[dict[str, Any]]) -> str | None:
    """A hand (Game.report's "hand", opened with the reader's key) as the plain-text report
    shows it, by the game's own hand.txt.j2; None for a game without one."""
    import jinja2

    from pbem.reports.context import SEALED

    try:
        template = environment(game_folder, "text").get_template("hand.txt.j2")
    except jinja2.TemplateNotFound:
        return None
    text: str = template.render(hand=hand, key_given=True, sealed_word=SEALED)
    return text


def render(root: Path, who: str, fmt: str, turn: int | None = None,
           identities: list[str] | None = None) -> str:
    """The report of `who` for `turn` (default: the latest complete turn and the current one)
    in `fmt` (text, html, md or bbcode)."""
    if fmt not in FORMATS:
        raise UsageError(f"--format {fmt!r}: choose one of {', '.join(FORMATS)}")
    from pbem.campaign import Campaign

    context = build_context(root, who, turn, identities)
    return render_context(context, Campaign.open(root).data.folder, fmt)


def report_name(context: dict[str, Any], fmt: str) -> str:
    """`<campaign>-t<turn>-<who>.<ext>`, the file name of `report --out DIR` (`.png` for the
    map's picture)."""
    ext = "png" if fmt == PICTURE else FORMATS[fmt]
    return f"{context['campaign']}-t{context['turn']}-{context['who']}.{ext}"
