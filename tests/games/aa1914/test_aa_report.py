"""Axis & Allies 1914's report map (rules/report.py): layout.yaml against map.yaml, the SVG
drawn from a view (a place each, colours, contested territories, units in tooltips, escaped
text, no badge over another place), `pbem report --format html` of a new campaign, and the
map as headless Chromium draws it."""

from __future__ import annotations

import copy
import importlib
import itertools
import os
import shutil
import xml.etree.ElementTree as ET
from collections.abc import Callable
from pathlib import Path
from typing import Any

import game_files
import pytest
from aa_play import play
from fixed_rng import FixedRng
from jsonschema import Draft202012Validator
from screenshots import png_colours, screenshot

from pbem.dice import KeyedRng
from pbem.game import GameData, State, get_game, load_data
from tests.conftest import Result

GAME = get_game("aa1914")
rules = importlib.import_module("pbem_game_aa1914")
report = importlib.import_module("pbem_game_aa1914.report")
SVG = "{http://www.w3.org/2000/svg}"
POWERS = ["austria_hungary", "russia", "germany", "france", "britain", "ottomans", "italy",
          "usa", "soviets"]


def data() -> GameData:
    return load_data("aa1914")


def start() -> State:
    return GAME.setup(data(), {}, KeyedRng(b"\x02" * 32))


def svg_text(state: State, game_data: GameData | None = None) -> str:
    """The map of the public report, by the game's report hook."""
    game_data = game_data or data()
    view = GAME.view(game_data, state, "public")
    text: str = rules.GAME.report(game_data, view, None, "public", {}, [])["map_svg"]
    return text


def draw(state: State, game_data: GameData | None = None) -> ET.Element:
    return ET.fromstring(svg_text(state, game_data))


def place(svg: ET.Element, pid: str) -> ET.Element:
    found = [e for e in svg.iter() if e.get("data-place") == pid]
    assert len(found) == 1, pid
    return found[0]


def tooltip(element: ET.Element) -> str:
    title = element.find(f"{SVG}title")
    assert title is not None and title.text is not None
    return title.text


# ---------------------------------------------------------------------------------------
# layout.yaml


def test_layout_matches_its_schema_and_places_every_territory_and_sea_zone() -> None:
    layout, m = game_files.load("aa1914", "layout"), game_files.load("aa1914", "map")
    Draft202012Validator.check_schema(game_files.schema("aa1914", "layout"))
    assert game_files.errors("aa1914", "layout", layout) == []
    passable = {t for t, spec in m["territories"].items() if not spec.get("impassable")}
    assert set(layout["places"]) == passable | set(m["sea_zones"])
    assert len(passable) == 94 and {"himalayas", "sahara"}.isdisjoint(layout["places"])
    width, height = layout["canvas"]
    assert all(0 <= x <= width and 0 <= y <= height for x, y in layout["places"].values())


def test_the_game_refuses_a_layout_that_misses_or_adds_a_place() -> None:
    broken = GameData("aa1914", data().folder, copy.deepcopy(data().files))
    places = broken.files["layout"]["places"]
    places.pop("alsace")
    places["atlantis"] = [10, 10]
    places["sahara"] = [10, 10]
    places["sz01"] = [5000, 10]
    broken.files["layout"]["colours"].pop("soviets")
    assert GAME.check_data(broken) == [
        "layout.yaml: places: alsace: no position (it is a place of map.yaml)",
        "layout.yaml: places: atlantis: not a territory or sea zone of map.yaml",
        "layout.yaml: places: sahara: not a territory or sea zone of map.yaml (an impassable one, not drawn)",
        "layout.yaml: places: sz01: [5000, 10] is outside the canvas (2090 x 1690)",
        "layout.yaml: colours: soviets: no colour",
    ]


@pytest.mark.parametrize(("change", "expected"), [
    (lambda d: d["places"].update(alsace=[10]), "too short"),
    (lambda d: d["places"].update(alsace=[10, -1]), "minimum"),
    (lambda d: d["colours"].update(germany="grey"), "does not match"),
    (lambda d: d.update(legnd=[1, 1]), "Additional properties"),
])
def test_layout_schema_refuses_a_typo(change: Callable[[dict[str, Any]], None], expected: str) -> None:
    layout = copy.deepcopy(game_files.load("aa1914", "layout"))
    change(layout)
    found = game_files.errors("aa1914", "layout", layout)
    assert any(expected in e for e in found), found


def test_a_campaign_may_move_a_place() -> None:
    moved = load_data("aa1914", {"layout": {"places": {"alsace": [100, 200]}}})
    svg = draw(start(), moved)
    box = place(svg, "alsace").find(f"{SVG}rect")
    assert box is not None
    assert float(box.get("x", 0)) + float(box.get("width", 0)) / 2 == pytest.approx(100)


# ---------------------------------------------------------------------------------------
# the SVG


def test_a_standalone_svg_with_one_element_per_territory_and_sea_zone() -> None:
    text = svg_text(start())
    svg = ET.fromstring(text)
    assert svg.tag == f"{SVG}svg"
    assert svg.get("viewBox") == "0 0 2090 1690"
    drawn = [e.get("data-place") for e in svg.iter() if e.get("data-place")]
    assert sorted(drawn) == sorted(game_files.load("aa1914", "layout")["places"])
    assert len([e for e in svg.iter() if "sea" in (e.get("class") or "").split()]) == 30
    # nothing from outside: no links, images, scripts or styles fetched
    assert not any(e.tag in (f"{SVG}image", f"{SVG}script", f"{SVG}a", f"{SVG}use") for e in svg.iter())
    assert "href" not in text and "url(" not in text


def test_the_start_shows_owners_capitals_ipc_and_a_legend_with_each_treasury() -> None:
    svg = draw(start())
    alsace, vienna, spain = place(svg, "alsace"), place(svg, "vienna"), place(svg, "spain")
    assert (alsace.get("data-owner"), spain.get("data-owner")) == ("germany", "neutral")
    assert tooltip(alsace).splitlines()[:2] == ["Alsace", "held by Germany, IPC 3"]
    assert [e.get("class") for e in vienna.iter() if e.tag == f"{SVG}polygon"] == ["capital"]
    assert not [e for e in alsace.iter() if e.tag == f"{SVG}polygon"]
    colours = game_files.load("aa1914", "layout")["colours"]
    rect = alsace.find(f"{SVG}rect")
    assert rect is not None and rect.get("fill") == colours["germany"]
    texts = ["".join(e.itertext()) for e in svg.iter(f"{SVG}text")]
    assert "3" in [t for e in alsace.iter(f"{SVG}text") for t in e.itertext()]  # its IPC
    assert "Alsace" in texts
    legend = {e.get("data-power"): ["".join(t.itertext()) for t in e.iter(f"{SVG}text")]
              for e in svg.iter() if e.get("class") == "legend-power"}
    assert legend["germany"] == ["Germany (central)", "35", "35", "12"]
    assert legend["usa"] == ["USA (allies)", "20", "20", "1, not at war"]
    assert legend["soviets"] == ["Soviet Russia", "not in play"]
    assert "Round 1: Austria-Hungary\u2019s turn" in texts
    sz06 = place(svg, "sz06")
    assert sz06.get("data-mines") == "russia" and "minefield of Russia" in tooltip(sz06)


def test_every_power_has_its_own_colour_and_readable_text_on_it() -> None:
    colours = game_files.load("aa1914", "layout")["colours"]
    assert sorted(colours) == sorted([*POWERS, "neutral"])

    def rgb(c: str) -> tuple[int, ...]:
        return tuple(int(c[i:i + 2], 16) for i in (1, 3, 5))
    for (a, ca), (b, cb) in itertools.combinations(colours.items(), 2):
        distance = sum((x - y) ** 2 for x, y in zip(rgb(ca), rgb(cb), strict=True)) ** 0.5
        assert distance >= 60, (a, b)
    for power, colour in colours.items():
        assert report.contrast(colour, report.ink(colour)) >= 4.5, power
    legend = {e.get("data-power"): e for e in draw(start()).iter() if e.get("class") == "legend-power"}
    assert {p: e[0].get("fill") for p, e in legend.items()} == colours


def test_a_contested_territory_is_marked_and_its_units_are_counted_exactly() -> None:
    # Germany attacks Lorraine from Alsace; one German hit, no French one: one round of fire
    # leaves both sides there, the territory contested (and still French)
    state = start()
    state.update(power="germany", turn=2, units={
        "alsace": {"germany": {"infantry": 4, "artillery": 2}},
        "lorraine": {"france": {"infantry": 3, "artillery": 1}}})
    dice = FixedRng(1, 6, 6, 6, 6, 6, 6, 6, 6)  # the 5 attackers' dice, then the 4 defenders'
    move = {"move": {"from": "alsace", "to": "lorraine", "units": {"infantry": 3, "artillery": 2}}}
    _events, after = play(state, dice, move)
    assert after["contested"] == ["lorraine"]
    svg = draw(after)
    lorraine, alsace = place(svg, "lorraine"), place(svg, "alsace")
    assert lorraine.get("data-contested") == "true" and "contested" in (lorraine.get("class") or "")
    assert alsace.get("data-contested") is None
    striped = [e for e in lorraine.iter(f"{SVG}rect") if e.get("stroke-dasharray")]
    assert striped and not [e for e in alsace.iter(f"{SVG}rect") if e.get("stroke-dasharray")]
    assert tooltip(lorraine).splitlines() == [
        "Lorraine", "held by France, IPC 2, contested",
        "Germany: 3 infantry, 2 artillery", "France: 2 infantry, 1 artillery"]
    assert tooltip(alsace).splitlines()[2:] == ["Germany: 1 infantry"]
    badges = next(e for e in svg.iter() if e.get("data-units") == "lorraine")
    assert ["".join(t.itertext()) for t in badges.iter(f"{SVG}text")] == ["3i 2a", "2i 1a"]
    assert tooltip(badges) == ("Germany in Lorraine: 3 infantry, 2 artillery\n"
                               "France in Lorraine: 2 infantry, 1 artillery")


def test_a_damaged_battleship_is_told_in_its_zone() -> None:
    state = start()
    state["damaged"] = {"sz17": {"italy": 1}}
    assert "Italy: 1 cruiser, 1 battleship, 1 transport (1 battleship damaged)" in \
        tooltip(place(draw(state), "sz17"))


def test_text_is_escaped() -> None:
    odd = load_data("aa1914", {"map": {"territories": {"alsace": {"name": 'Alsace <&> "Elsass"'}}}})
    text = svg_text(start(), odd)
    assert "Alsace &lt;&amp;&gt;" in text and "<&>" not in text
    svg = ET.fromstring(text)
    assert tooltip(place(svg, "alsace")).startswith('Alsace <&> "Elsass"\nheld by Germany')


def test_no_badge_lies_over_another_place_and_no_two_places_touch() -> None:
    svg, d = draw(start()), data()
    shapes = {p: report.box(d, p) for p in report.drawn(d)}
    for (a, ra), (b, rb) in itertools.combinations(shapes.items(), 2):
        assert not ra.overlaps(rb), (a, b)
    for group in (e for e in svg.iter() if e.get("data-units")):
        here = group.get("data-units")
        for r in group.iter(f"{SVG}rect"):
            badge = report.Rect(*(float(r.get(k, 0)) for k in ("x", "y", "width", "height")))
            hit = [p for p, shape in shapes.items() if p != here and shape.overlaps(badge)]
            assert hit == [], (here, hit)


def test_badges_count_by_type_in_the_units_order() -> None:
    assert report.badge_text({"transport": 1, "infantry": 3, "tank": 1, "artillery": 1}) == "3i 1a 1t 1tr"
    assert report.name_lines("Anglo Egyptian Sudan") == ["Anglo", "Egyptian Sudan"]
    assert report.name_lines("United States of America") == ["United", "States of America"]
    assert report.name_lines("Alsace") == ["Alsace"]


# ---------------------------------------------------------------------------------------
# the command line and a browser


def new_campaign(pbem: Callable[..., Result], root: Path, keys: Path) -> None:
    players = ["--player", "austria_hungary,germany,ottomans=Ann <ann@aa.invalid>",
               "--player", "russia,france,britain,italy,usa=Bob <bob@aa.invalid>"]
    r = pbem("new", root, "--game", "aa1914", "--seed", "map", "--keys-dir", keys,
             "--no-contributions", *players)
    assert r.code == 0, r.err + r.out


def test_the_html_report_of_a_new_campaign_shows_the_map(pbem: Callable[..., Result],
                                                           tmp_path: Path) -> None:
    root = tmp_path / "camp"
    new_campaign(pbem, root, tmp_path / "keys")
    r = pbem("-C", root, "report", "--format", "html")
    assert r.code == 0, r.err
    assert '<div class="map scroll" style="max-height: 75vh; position: relative">' in r.out
    assert '</div><svg xmlns="http://www.w3.org/2000/svg"' in r.out  # after the focus's mark
    assert 'data-place="alsace"' in r.out and 'data-place="sz30"' in r.out
    r = pbem("-C", root, "report", "--format", "text")
    assert r.code == 0 and "<svg" not in r.out


def test_the_map_renders_in_chromium(tmp_path: Path, require_tool: Callable[[str], None]) -> None:
    """The map as a browser draws it: each power's colour, the sea and a contested outline.
    PBEM_KEEP_AA_MAP=FILE keeps the screenshot to look at."""
    require_tool("chromium")
    state = start()
    state["contested"] = ["alsace"]
    state["units"]["alsace"]["france"] = {"infantry": 2}
    text = svg_text(state)
    page = tmp_path / "map.svg"
    page.write_text(text)
    png = tmp_path / "map.png"
    proc = screenshot(page, png, "2090,1690", tmp_path / "profile", "--hide-scrollbars")
    assert png.exists(), proc.stderr[-2000:]
    keep = os.environ.get("PBEM_KEEP_AA_MAP")
    if keep:
        shutil.copy(png, keep)
    seen = png_colours(png)
    colours = game_files.load("aa1914", "layout")["colours"]
    for power in [*POWERS, "neutral"]:
        assert bytes.fromhex(colours[power][1:]) in seen, power
    assert bytes.fromhex(report.SEA_FILL[1:]) in seen
    assert bytes.fromhex("ffcc00") in seen  # the contested outline's stripes
