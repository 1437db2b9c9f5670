"""Red Russia's report map (rules/report.py `map_svg`, templates/report.yaml): a colour for
every faction and minor told apart from the others, each stack's badge ("2i 1i* 1c 1L",
its units and strengths in its <title>), contested and besieged zones, the moves since the
reader's earlier view as arrows, this turn's battles, a legend entry for each mark, and no
badge covering a name, a zone, a mark or another badge. In-process (the SVG is parsed with
xml.etree and the boxes computed from the coordinates it holds), but the last test: a
campaign played by the bot, its HTML report in headless Chromium and its PNG (resvg)."""

from __future__ import annotations

import importlib
import itertools
import math
import os
import shutil
import tempfile
import xml.etree.ElementTree as ET
from collections.abc import Callable
from pathlib import Path
from typing import Any

from position import GAME, data, position
from screenshots import png_colours, screenshot

from pbem import yamlio
from pbem.game import State, game_folder

report = importlib.import_module("pbem_game_red_russia.report")
SVG = "{http://www.w3.org/2000/svg}"
STYLE: dict[str, Any] = yamlio.read_trusted(game_folder("red_russia") / "templates" / "report.yaml")
MAJORS = ("red", "siberian", "south", "north")
OTHERS = ("anarchists", "poland", "baltic", "ukraine", "finland", "allies")
# the minors' colours before this map: near-identical greys
GREYS = {"anarchists": "#4a4a4a", "poland": "#6e6e6e", "baltic": "#8c8c8c", "ukraine": "#a6a6a6",
         "finland": "#c4c4c4", "allies": "#1e8449"}
Box = tuple[float, float, float, float]


# ---------------------------------------------------------------------------------------
# colours: CIELAB distances, with normal sight and with red-green colour blindness


def _linear(c: int) -> float:
    v = c / 255
    return v / 12.92 if v <= 0.04045 else ((v + 0.055) / 1.055) ** 2.4


def _lab(rgb: tuple[float, float, float]) -> tuple[float, float, float]:
    """CIELAB (D65) of linear RGB."""
    r, g, b = rgb
    x = (0.4124 * r + 0.3576 * g + 0.1805 * b) / 0.95047
    y = 0.2126 * r + 0.7152 * g + 0.0722 * b
    z = (0.0193 * r + 0.1192 * g + 0.9505 * b) / 1.08883

    def f(t: float) -> float:
        return t ** (1 / 3) if t > 0.008856 else 7.787 * t + 16 / 116

    return 116 * f(y) - 16, 500 * (f(x) - f(y)), 200 * (f(y) - f(z))


# Machado, Oliveira and Fernandes (2009), severity 1, on linear RGB
DICHROMATS = {
    "deuteranopia": ((0.367322, 0.860646, -0.227968), (0.280085, 0.672501, 0.047413),
                     (-0.011820, 0.042940, 0.968881)),
    "protanopia": ((0.152286, 1.052583, -0.204868), (0.114503, 0.786281, 0.099216),
                   (-0.003882, -0.048116, 1.051998)),
}


def seen(colour: str, by: str | None = None) -> tuple[float, float, float]:
    """The CIELAB colour of "#rrggbb" with normal sight, or as a dichromat sees it."""
    rgb = tuple(_linear(int(colour[i:i + 2], 16)) for i in (1, 3, 5))
    if by is not None:
        rgb = tuple(min(1.0, max(0.0, sum(m * c for m, c in zip(row, rgb, strict=True))))
                    for row in DICHROMATS[by])
    return _lab((rgb[0], rgb[1], rgb[2]))


def too_close(colours: dict[str, str], normal: float = 30, dichromat: float = 20) -> list[str]:
    """The pairs of factions (one of them not a major faction) whose colours are closer
    than `normal` CIELAB units, or `dichromat` units to a deuteranope or protanope."""
    out = []
    for a, b in itertools.combinations(sorted(colours), 2):
        if a in MAJORS and b in MAJORS:
            continue
        d = math.dist(seen(colours[a]), seen(colours[b]))
        dd = min(math.dist(seen(colours[a], k), seen(colours[b], k)) for k in DICHROMATS)
        if d < normal or dd < dichromat:
            out.append(f"{a}/{b}: {d:.0f}, {dd:.0f} colour-blind")
    return out


def test_every_faction_and_minor_has_a_colour_of_its_own() -> None:
    colours = STYLE["colours"]
    assert sorted(colours) == sorted([*MAJORS, *OTHERS, "neutral"])
    assert len(set(colours.values())) == len(colours)
    assert too_close(colours) == []
    # the majors keep their colours, which the other reports and tests know
    assert [colours[f] for f in MAJORS] == ["#c0392b", "#2e86c1", "#d4ac0d", "#7d3c98"]
    # the measure catches the old greys, each too close to its neighbours
    old = too_close({**colours, **GREYS})
    assert {"baltic/poland: 12, 12 colour-blind", "baltic/ukraine: 10, 10 colour-blind",
            "allies/red: 97, 14 colour-blind"} <= set(old)


def test_the_legend_shows_every_colour_and_names_every_faction() -> None:
    root = draw(position({}))
    legend = element(root, "legend")
    fills = {c.get("fill") for c in legend.iter(f"{SVG}circle")}
    assert set(STYLE["colours"].values()) <= fills
    texts = [t.text for t in legend.iter(f"{SVG}text")]
    for name in ("Reds", "Siberian Whites", "Southern Whites", "Northern/Asiatic Whites", "neutral",
                 "Makhno's Anarchists", "Poland", "Baltic States", "Ukraine", "Finland",
                 "Allied intervention"):
        assert name in texts, name


# ---------------------------------------------------------------------------------------
# drawing a position and reading it back


def draw(state: State, before: State | None = None, who: str = "red") -> ET.Element:
    """The map of `who`'s report, by the game's report hook, parsed."""
    return ET.fromstring(svg_of(state, before, who))


def element(root: ET.Element, cls: str) -> ET.Element:
    (found,) = groups(root, cls)
    return found


def groups(root: ET.Element, cls: str, **data_: str) -> list[ET.Element]:
    """The <g> of a class, with these data- attributes."""
    return [g for g in root.iter(f"{SVG}g") if g.get("class") == cls
            and all(g.get(f"data-{k}") == v for k, v in data_.items())]


def title(g: ET.Element) -> str:
    found = g.find(f"{SVG}title")
    assert found is not None and found.text
    return found.text


def badges(root: ET.Element, place: str) -> dict[str, str]:
    """faction -> the text of its badge in `place`."""
    out = {}
    for g in groups(root, "units", place=place):
        text = g.find(f"{SVG}text")
        assert text is not None and text.text
        out[str(g.get("data-faction"))] = text.text
    return out


def num(e: ET.Element, key: str) -> float:
    return float(e.get(key) or 0)


def circle_box(c: ET.Element) -> Box:
    r = num(c, "r") + num(c, "stroke-width") / 2
    return (num(c, "cx") - r, num(c, "cy") - r, num(c, "cx") + r, num(c, "cy") + r)


def text_box(t: ET.Element) -> Box:
    """A line of text's box: its width by the map's own bound of DejaVu Sans's advances,
    its height by the font's ascent and descent, widened by its halo."""
    size, halo = num(t, "font-size"), num(t, "stroke-width") / 2
    w = report._text_width(t.text or "", size, t.get("font-weight") == "bold")
    x = num(t, "x") - (w / 2 if t.get("text-anchor") == "middle" else 0)
    y = num(t, "y")
    return (x - halo, y - 0.76 * size - halo, x + w + halo, y + 0.24 * size + halo)


def layout(root: ET.Element) -> tuple[list[tuple[str, Box]], list[tuple[str, Box]]]:
    """(the badges, what they must not cover: names, zones, marks), each with its box."""
    badges_, covered = [], []
    for g in root.iter(f"{SVG}g"):
        cls = g.get("class")
        if cls == "units":
            rect = g.find(f"{SVG}rect")
            assert rect is not None
            x, y = num(rect, "x"), num(rect, "y")
            badges_.append((f"badge {g.get('data-faction')} in {g.get('data-place')}",
                            (x, y, x + num(rect, "width"), y + num(rect, "height"))))
        elif cls == "zone":
            covered += [(f"zone {g.get('data-zone')}", circle_box(c)) for c in g.iter(f"{SVG}circle")]
            covered += [(f"name {t.text}", text_box(t)) for t in g.iter(f"{SVG}text")]
        elif cls in ("sea", "box"):
            covered += [(f"name {t.text}", text_box(t)) for t in g.iter(f"{SVG}text")]
        elif cls in ("contested", "besieged"):
            covered += [(f"{cls} {g.get('data-zone')}", circle_box(c)) for c in g.iter(f"{SVG}circle")]
        elif cls == "battle":
            polygon = g.find(f"{SVG}polygon")
            assert polygon is not None
            xy = [tuple(map(float, p.split(","))) for p in (polygon.get("points") or "").split()]
            covered.append((f"battle {g.get('data-zone')}", (min(p[0] for p in xy), min(p[1] for p in xy),
                                                             max(p[0] for p in xy), max(p[1] for p in xy))))
    return badges_, covered


def overlaps(root: ET.Element) -> list[str]:
    """Every badge that covers a name, a zone, a mark or another badge, or leaves the map."""
    badges_, covered = layout(root)
    legend = element(root, "legend").find(f"{SVG}rect")
    assert legend is not None
    width, top = num(legend, "width"), num(legend, "y")

    def meet(a: Box, b: Box) -> bool:
        return a[0] < b[2] and b[0] < a[2] and a[1] < b[3] and b[1] < a[3]

    out = [f"{a} and {b}" for (a, ab), (b, bb) in itertools.combinations(badges_, 2) if meet(ab, bb)]
    out += [f"{a} covers {b}" for a, ab in badges_ for b, bb in covered if meet(ab, bb)]
    out += [f"{a} is off the map" for a, ab in badges_
            if ab[0] < 0 or ab[1] < 0 or ab[2] > width or ab[3] > top]
    return out


# ---------------------------------------------------------------------------------------
# the stacks


def test_a_stack_is_written_by_type_its_reduced_units_starred_and_titled_with_strengths() -> None:
    state = position({"red-inf-01": "Moscow", "red-inf-09": "Moscow", "red-cav-01": "Moscow",
                      "trotsky": "Moscow", "south-inf-01": "Ekaterinodar"}, reduced=["red-inf-09"])
    root = draw(state)
    assert badges(root, "Moscow") == {"red": "1i 1i* 1c 1L"}
    assert badges(root, "Ekaterinodar") == {"south": "1i"}
    (moscow,) = groups(root, "units", place="Moscow")
    assert title(moscow) == ("Reds in Moscow: 1i 1i* 1c 1L (attack 12, defence 5)\n"
                             "red-cav-01: Cavalry 5-2\n"
                             "red-inf-01: Infantry 5-2\n"
                             "red-inf-09: Infantry 2-1 REDUCED (full 4-2)\n"
                             "Trotsky: leader, level 3")
    rect = moscow.find(f"{SVG}rect")
    assert rect is not None and rect.get("fill") == "#c0392b"
    # the zone's own title tells the same, under its controller
    (zone,) = groups(root, "zone", zone="Moscow")
    assert title(zone).startswith("Moscow: Reds\nReds in Moscow: 1i 1i* 1c 1L")
    # nothing off the map: no badge for pieces in the pool
    assert {g.get("data-place") for g in groups(root, "units")} == {"Moscow", "Ekaterinodar"}


def test_stacks_at_sea_and_in_a_box_are_drawn_in_them() -> None:
    state = position({"red-fleet-01": "Baltic Sea", "allied-inf-01": "Japan box",
                      "allied-fleet-01": "Sea of Japan"})
    root = draw(state)
    assert badges(root, "Baltic Sea") == {"red": "1f"}
    assert badges(root, "Japan box") == {"allies": "1i"}
    (box,) = groups(root, "box", place="Japan box")
    frame = box.find(f"{SVG}rect")
    assert frame is not None
    (badge,) = groups(root, "units", place="Japan box")
    b = badge.find(f"{SVG}rect")
    assert b is not None
    assert num(frame, "x") <= num(b, "x") and num(b, "x") + num(b, "width") <= num(frame, "x") + num(frame, "width")
    assert num(frame, "y") <= num(b, "y") and num(b, "y") + num(b, "height") <= num(frame, "y") + num(frame, "height")
    assert overlaps(root) == []


# ---------------------------------------------------------------------------------------
# contested and besieged zones, battles


def test_a_zone_with_enemies_is_contested_but_not_one_the_whites_share() -> None:
    state = position({"red-inf-01": "Kharkov", "south-inf-01": "Kharkov",
                      "siberian-inf-01": "Samara", "south-cav-01": "Samara",
                      "trotsky": "Orel", "north-inf-01": "Orel"})
    root = draw(state)
    (kharkov,) = groups(root, "contested")
    assert kharkov.get("data-zone") == "Kharkov"
    assert title(kharkov) == "Kharkov is contested: Reds, Southern Whites"
    ring = kharkov.find(f"{SVG}circle")
    assert ring is not None and ring.get("stroke") == report.CONTESTED and ring.get("fill") == "none"
    assert "contested" in title(groups(root, "zone", zone="Kharkov")[0]).split("\n")
    assert badges(root, "Kharkov") == {"red": "1i", "south": "1i"}
    # a leader alone contests nothing; the Whites are no enemies of one another (18.1)
    assert badges(root, "Samara") == {"siberian": "1i", "south": "1c"}


def test_a_minor_nobody_commands_contests_a_zone_and_one_on_our_side_does_not() -> None:
    state = position({"red-inf-01": "Zhitomir", "ukraine-inf-01": "Zhitomir",
                      "red-inf-02": "Kiev", "poland-inf-01": "Kiev"})
    state["minors"]["poland"] = {"status": "active", "controller": "red", "until": None}
    root = draw(state)
    assert [g.get("data-zone") for g in groups(root, "contested")] == ["Zhitomir"]


def test_a_siege_is_ringed_and_titled_with_its_hits() -> None:
    state = position({"north-inf-01": "Vitebsk", "north-inf-02": "Vitebsk"}, control={"Vitebsk": "red"})
    state["siege"] = {"Vitebsk": {"faction": "north", "hits": 1}}
    root = draw(state)
    (siege,) = groups(root, "besieged")
    assert siege.get("data-zone") == "Vitebsk"
    assert title(siege) == "Vitebsk is besieged by Northern/Asiatic Whites: 1 hits on its fortification 1 (9.2)"
    ring = siege.find(f"{SVG}circle")
    assert ring is not None and ring.get("stroke-dasharray") and float(ring.get("r") or 0) > report.ZONE_R
    assert groups(root, "contested") == []  # the besiegers are alone in the zone
    assert title(groups(root, "zone", zone="Vitebsk")[0]).split("\n")[:2] == [
        "Vitebsk: Reds", "besieged by Northern/Asiatic Whites"]


BATTLE_EVENTS = [
    {"type": "attack", "zone": "Tambov", "attacker": "south", "defenders": ["red"],
     "level": "invasion", "rounds": 3, "spend": 5},
    {"type": "reduced", "unit": "south-cav-01", "by": "combat"},
    {"type": "battle_over", "zone": "Tambov", "attacker": "south", "attacker_left": False,
     "defender_left": True},
    {"type": "control", "zone": "Novonikolaevsk", "faction": "red", "from": "siberian",
     "why": "siege (9.2)"},
    {"type": "control", "zone": "Omsk", "faction": "red", "from": None, "why": "moved in (7.9)"},
]


def test_this_turns_battles_are_marked_from_what_the_state_keeps_of_the_turn() -> None:
    state = position({"red-inf-01": "Tambov", "red-inf-02": "Novonikolaevsk"})
    state["turn_events"] = BATTLE_EVENTS
    root = draw(state)
    marks = {g.get("data-zone"): title(g) for g in groups(root, "battle")}
    assert marks == {
        "Tambov": "Battle in Tambov this turn:\nSouthern Whites attacked Reds (invasion, 3 rounds): "
                  "the attackers are gone",
        "Novonikolaevsk": "Battle in Novonikolaevsk this turn:\ntaken by Reds from Siberian Whites "
                          "after a siege",
    }
    burst = groups(root, "battle", zone="Tambov")[0].find(f"{SVG}polygon")
    assert burst is not None and burst.get("fill") == report.BATTLE
    # the battles already in the earlier view of the same turn are not this report's
    before = position({"red-inf-01": "Tambov", "red-inf-02": "Novonikolaevsk"})
    before["turn_events"] = BATTLE_EVENTS[:3]
    assert [g.get("data-zone") for g in groups(draw(state, before), "battle")] == ["Novonikolaevsk"]
    before["turn"] = 2  # an earlier turn's events are gone from the state: all are new
    assert len(groups(draw(state, before), "battle")) == 2


# ---------------------------------------------------------------------------------------
# moves


def test_the_moves_since_the_earlier_view_are_arrows_by_faction() -> None:
    before = position({"red-inf-01": "Moscow", "red-inf-02": "Moscow", "trotsky": "Moscow",
                       "south-inf-01": "Rostov", "south-inf-02": "Kursk", "north-inf-01": "Archangel",
                       "red-fleet-01": "Petrograd"})
    after = position({"red-inf-01": "Tula", "red-inf-02": "Tula", "trotsky": "Moscow",
                      "south-inf-01": "Novocherkassk", "north-inf-01": "Archangel",
                      "red-fleet-01": "Baltic Sea", "red-inf-03": "Kazan"})
    root = draw(after, before)
    arrows = {(g.get("data-from"), g.get("data-to"), g.get("data-faction")): title(g)
              for g in groups(root, "move")}
    assert arrows == {
        ("Moscow", "Tula", "red"): "Reds moved from Moscow to Tula: red-inf-01, red-inf-02",
        ("Rostov", "Novocherkassk", "south"): "Southern Whites moved from Rostov to Novocherkassk: south-inf-01",
        ("Petrograd", "Baltic Sea", "red"): "Reds moved from Petrograd to Baltic Sea: red-fleet-01",
    }  # not south-inf-02 (off the map now), red-inf-03 (not on it before), Trotsky (stayed)
    # the arrow runs from one place towards the other, short of both, in the mover's colour
    (arrow,) = groups(root, "move", **{"from": "Moscow", "to": "Tula"})
    lines = arrow.findall(f"{SVG}line")
    assert lines[-1].get("stroke") == "#c0392b"
    (mx, my), (tx, ty) = data()["map"]["zones"]["Moscow"]["xy"], data()["map"]["zones"]["Tula"]["xy"]
    x1, y1, x2, y2 = (num(lines[-1], k) for k in ("x1", "y1", "x2", "y2"))
    assert math.dist((x1, y1), (mx, my)) > report.ZONE_R and math.dist((x2, y2), (tx, ty)) > report.ZONE_R
    assert math.dist((x1, y1), (tx, ty)) > math.dist((x2, y2), (tx, ty))
    # drawn under the zones and the badges
    order = [g.get("class") for g in root.iter(f"{SVG}g")]
    assert order.index("move") < order.index("zone") < order.index("units")
    # the first report has no earlier view: no arrows
    assert groups(draw(after), "move") == []


# ---------------------------------------------------------------------------------------
# the legend


def test_the_legend_explains_every_mark() -> None:
    legend = element(draw(position({})), "legend")
    texts = [t.text or "" for t in legend.iter(f"{SVG}text")]
    for wanted in ("moved (this report's turns)", "battle this turn", "contested",
                   "besieged", "2i 1c* 1L", "easy", "difficult", "very difficult"):
        assert wanted in texts, wanted
    assert any(t.startswith("a faction's units: 2 infantry, 1 reduced (*) cavalry, 1 leader") for t in texts)
    assert legend.find(f".//{SVG}polygon[@fill='{report.BATTLE}']") is not None
    assert legend.find(f".//{SVG}circle[@stroke='{report.CONTESTED}']") is not None
    assert legend.find(f".//{SVG}circle[@stroke='{report.SIEGE}']") is not None


def test_the_legend_fits_in_its_three_lines_under_the_map() -> None:
    """The canvas is report.yaml's size (pbem's PNG tests know it): the legend takes its
    last LEGEND pixels, in three lines, none running off the right edge."""
    root = draw(position({}))
    assert (root.get("width"), root.get("height")) == ("1000", "724")
    legend = element(root, "legend")
    frame = legend.find(f"{SVG}rect")
    assert frame is not None and (num(frame, "y"), num(frame, "height")) == (724 - report.LEGEND, report.LEGEND)
    texts = list(legend.iter(f"{SVG}text"))
    assert sorted({num(t, "y") for t in texts if t.get("font-size") == "10"}) == [685.0, 702.0, 719.0]
    for t in texts:
        box = text_box(t)
        assert box[2] <= 1000 and box[3] <= 724, t.text


# ---------------------------------------------------------------------------------------
# no badge covers anything


CROWDED_ZONES = (
    # the Baltic
    "Tampere", "Helsinki", "Vyborg", "Reval", "Riga", "Pskov", "Petrograd", "Novgorod", "Kovno",
    "Vitebsk", "Wilno", "Minsk", "Smolensk", "Tver", "Moscow",
    # Poland and the Ukraine
    "Poznan", "Warsaw", "Brest-Litovsk", "Lublin", "Lwow", "Zhitomir", "Kiev", "Vinnitsa",
    "Chernigov", "Bryansk", "Poltava", "Kharkov", "Odessa", "Kherson", "Ekaterinoslav",
    "Gulai Polye", "Rostov",
    # the Caucasus
    "Ekaterinodar", "Novorossiysk", "Stavropol", "Vladikavkaz", "Grozny", "Petrovsk", "Baku",
    "Tiflis", "Kutais", "Batumi", "Erevan", "Elisavetpol",
)


def crowded() -> tuple[State, State]:
    """A position where every zone of the Baltic, Poland, the Ukraine and the Caucasus holds
    one to three factions' stacks, with battles, sieges, contested zones and moves, and
    the position before it."""
    state = position({})
    pool: dict[tuple[str, str], list[str]] = {}
    for uid, unit in sorted(state["units"].items()):
        if unit["status"] == "pool" or unit["type"] == "leader":
            pool.setdefault((unit["faction"], unit["type"]), []).append(uid)
    before: dict[str, str] = {}
    rota = ["red", "south", "north", "siberian", "poland", "ukraine", "baltic", "finland",
            "anarchists", "allies"]
    for i, zone in enumerate(CROWDED_ZONES):
        for k in range(1 + i % 3):
            faction = rota[(i + 3 * k) % len(rota)]
            for kind in ("inf", "cav", "leader", "inf")[:2 + (i + k) % 3]:
                if pool.get((faction, kind)):
                    uid = pool[(faction, kind)].pop(0)
                    state["units"][uid].update(status="map", zone=zone, reduced=(i + k) % 4 == 1)
                    before[uid] = CROWDED_ZONES[(i + 1) % len(CROWDED_ZONES)] if i % 5 == 0 else zone
        state["control"][zone] = rota[i % 5]
    state["siege"] = {z: {"faction": "north", "hits": 1} for z in CROWDED_ZONES[4::9]}
    state["turn_events"] = [{"type": "attack", "zone": z, "attacker": "red", "defenders": ["south"],
                             "level": "assault", "rounds": 2} for z in CROWDED_ZONES[1::4]]
    earlier = position({uid: zone for uid, zone in before.items()})
    return state, earlier


def test_no_badge_covers_a_name_a_zone_a_mark_or_another_badge_in_a_crowded_position() -> None:
    state, before = crowded()
    root = draw(state, before)
    drawn, _covered = layout(root)
    assert len(drawn) >= 50  # the position is as crowded as it says
    assert len(groups(root, "battle")) == 11 and len(groups(root, "besieged")) == 5
    assert len(groups(root, "contested")) > 10 and len(groups(root, "move")) > 5
    assert overlaps(root) == []
    # the measure finds a badge moved onto its neighbour's name
    rect = groups(root, "units", place="Warsaw")[0].find(f"{SVG}rect")
    assert rect is not None
    name = next(t for t in root.iter(f"{SVG}text") if t.text == "Lublin")
    rect.set("x", str(num(name, "x") - 5))
    rect.set("y", str(num(name, "y") - 8))
    assert any(p.startswith("badge ") and "covers name Lublin" in p for p in overlaps(root))


def test_the_crowded_map_as_the_reports_png_holds_every_colour() -> None:
    """`pbem report --format png` (pbem.reports.render.map_png, by resvg) draws every
    faction's and minor's colour, and the marks'."""
    from pbem.reports.render import map_png

    state, before = crowded()
    png = map_png({"map_svg": svg_of(state, before), "game": {"id": "red_russia"}})
    assert png is not None and png.startswith(b"\x89PNG")
    colours = png_colours_of(png)
    for name, hex_ in [*STYLE["colours"].items(), ("battle", report.BATTLE),
                       ("contested", report.CONTESTED), ("besieged", report.SIEGE)]:
        assert bytes.fromhex(hex_[1:]) in colours, f"{name} {hex_}"


def svg_of(state: State, before: State | None = None, who: str = "red") -> str:
    """The map of `who`'s report, by the game's report hook (Game.report: the reader's
    view and the same reader's earlier view)."""
    view = GAME.view(data(), state, who)
    earlier = GAME.view(data(), before, who) if before is not None else None
    parts: dict[str, Any] = GAME.report(data(), view, earlier, who, STYLE, [])  # type: ignore[attr-defined]
    return str(parts["map_svg"])


def png_colours_of(png: bytes) -> set[bytes]:
    with tempfile.TemporaryDirectory() as folder:
        path = Path(folder) / "map.png"
        path.write_bytes(png)
        return png_colours(path)


# ---------------------------------------------------------------------------------------
# a campaign's report, in a browser and as its picture


def test_a_campaigns_report_map_in_chromium_and_as_its_png(tmp_path: Path,
                                                           require_tool: Callable[[str], None]) -> None:
    """A campaign played by the bot to turn 3: the red player's HTML report as headless
    Chromium draws it, and its PNG (`pbem report --format png`): the colours of the
    factions on the map and of the moves, and no badge covering anything.
    PBEM_KEEP_RR_MAP=FOLDER keeps both pictures to look at."""
    from conftest import play

    from pbem import api
    from pbem.reports.context import build_context
    from pbem.reports.render import map_png, render_context

    require_tool("chromium")
    root = tmp_path / "camp"
    api.new_campaign(root, "red_russia", contributions=False, hot_seat=True, seed="map", name="camp")
    play(root, until_turn=3, phase="action", seed="map")
    context = build_context(root, "red")
    svg = str(context["map_svg"])
    drawn = ET.fromstring(svg)
    assert overlaps(drawn) == []
    assert len(groups(drawn, "units")) > 40 and len(groups(drawn, "move")) > 5
    page = tmp_path / "report.html"
    page.write_text(render_context(context, game_folder("red_russia"), "html"))
    shot = tmp_path / "chromium.png"
    proc = screenshot(page, shot, "1200,1400", tmp_path / "profile", "--hide-scrollbars")
    assert shot.exists(), proc.stderr[-2000:]
    picture = tmp_path / "resvg.png"
    png = map_png(context)
    assert png is not None
    picture.write_bytes(png)
    keep = os.environ.get("PBEM_KEEP_RR_MAP")
    if keep:
        Path(keep).mkdir(parents=True, exist_ok=True)
        shutil.copy(shot, Path(keep) / "chromium.png")
        shutil.copy(picture, Path(keep) / "resvg.png")
    on_map = {str(g.get("data-faction")) for g in groups(drawn, "units")}
    assert {"red", "siberian", "south", "north", "allies"} <= on_map
    for path in (shot, picture):
        colours = png_colours(path)
        for faction in sorted(on_map):
            hex_ = STYLE["colours"][faction]
            assert bytes.fromhex(hex_[1:]) in colours, f"{path.name}: {faction} {hex_}"
