"""The SVG hex map kit (pbem/kit/hexmap.py): one polygon a hex, rivers and borders on the
shared hexside, roads centre to centre, badges with hover texts, every text escaped; read
back with an XML parser. The map below is made up for the tests."""

from __future__ import annotations

import math
import xml.etree.ElementTree as ET

import pytest

from pbem.kit.hexes import Grid
from pbem.kit.hexmap import SCALE, Badge, Cell, Lines, shared_edge, svg

GRID = Grid(even_columns_shifted="up", columns=(10, 12), rows=(20, 22))
NS = {"s": "http://www.w3.org/2000/svg"}
CELLS = {h: Cell("#eee", title="clear") for h in ("1020", "1021", "1120", "1121", "1220")}


def parse(text: str) -> ET.Element:
    return ET.fromstring(text)


def test_one_polygon_a_hex_with_its_id_and_hover_text() -> None:
    cells = {**CELLS, "1121": Cell("#c99", "Groznyi", "city")}
    root = parse(svg(GRID, cells, title="Chechnya"))
    polygons = root.findall(".//s:polygon", NS)
    assert sorted(p.get("data-hex") or "" for p in polygons) == sorted(cells)
    city = next(p for p in polygons if p.get("data-hex") == "1121")
    assert city.get("fill") == "#c99"
    assert city.findtext("s:title", namespaces=NS) == "1121 city"
    texts = [t.text for t in root.iter("{http://www.w3.org/2000/svg}text")]
    assert "Groznyi" in texts and "1121" in texts
    assert root.findtext("s:title", namespaces=NS) == "Chechnya"


def test_a_river_is_drawn_on_the_hexside_the_two_hexes_share() -> None:
    p, q = shared_edge(GRID, "1120", "1121")
    assert math.isclose(math.dist(p, q), 1 / math.sqrt(3))  # one side of a hex
    for corner in (p, q):  # on both hexes' outlines
        assert any(math.dist(corner, c) < 1e-9 for c in GRID.corners("1120"))
        assert any(math.dist(corner, c) < 1e-9 for c in GRID.corners("1121"))
    root = parse(svg(GRID, CELLS, Lines(rivers=[("1120", "1121")], borders=[("1020", "1120")])))
    river = root.find(".//s:line[@class='river']", NS)
    assert river is not None
    ends = {(float(river.get("x1", "")), float(river.get("y1", ""))),
            (float(river.get("x2", "")), float(river.get("y2", "")))}
    assert ends == {(round(x * SCALE, 1), round(y * SCALE, 1)) for x, y in (p, q)}
    assert len(root.findall(".//s:line[@class='border']", NS)) == 1


def test_a_road_runs_from_centre_to_centre() -> None:
    root = parse(svg(GRID, CELLS, Lines(roads=[("1021", "1120")])))
    road = root.find(".//s:line[@class='road']", NS)
    assert road is not None
    (x1, y1), (x2, y2) = GRID.centre("1021"), GRID.centre("1120")
    got = [float(road.get(k, "")) for k in ("x1", "y1", "x2", "y2")]
    assert got == [round(v * SCALE, 1) for v in (x1, y1, x2, y2)]


@pytest.mark.parametrize("kind", ["rivers", "borders", "roads"])
def test_a_line_between_hexes_that_do_not_touch_is_refused(kind: str) -> None:
    with pytest.raises(ValueError, match="not adjacent"):
        svg(GRID, CELLS, Lines(**{kind: [("1020", "1220")]}))


def test_badges_carry_their_hover_text_and_every_text_is_escaped() -> None:
    hostile = '<script>alert("x")</script> & "quotes"'
    text = svg(GRID, {"1020": Cell('"red"', hostile, hostile)},
               badges={"1020": [Badge("3 ?", "#2a2", "3 face-down units"),
                                Badge(hostile, "#22a", hostile)]}, title=hostile)
    assert "<script>" not in text
    root = parse(text)  # still well-formed
    stacks = root.findall(".//s:g[@class='stack']", NS)
    assert [s.findtext("s:title", namespaces=NS) for s in stacks] == ["3 face-down units", hostile]
    assert [s.findtext("s:text", namespaces=NS) for s in stacks] == ["3 ?", hostile]


def test_an_empty_map_is_refused() -> None:
    with pytest.raises(ValueError, match="at least one hex"):
        svg(GRID, {})


def test_the_legend_is_written_under_the_map_which_grows_to_hold_it() -> None:
    plain = parse(svg(GRID, CELLS))
    with_legend = parse(svg(GRID, CELLS, legend=["Russian morale 9 <of 13>", "casualties 2"]))
    height = [float(r.get("viewBox", "0 0 0 0").split()[3]) for r in (plain, with_legend)]
    assert height[1] == pytest.approx(height[0] + 2.5 * 16)
    lines = [t.text for t in with_legend.iter("{http://www.w3.org/2000/svg}text")][-2:]
    assert lines == ["Russian morale 9 <of 13>", "casualties 2"]
    legend = with_legend.find(".//s:g[@class='legend']", NS)
    assert legend is not None and float(legend[0].get("y") or 0) > max(
        float(t.get("y") or 0) for t in plain.iter("{http://www.w3.org/2000/svg}text"))
