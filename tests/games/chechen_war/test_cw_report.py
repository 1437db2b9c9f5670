"""What the Chechen War's reports show beyond pbem's common parts (rules/report.py): the map's
legend with the General Data Track and the cities' control, and the Chechen's own units in
his report only. In-process."""

from __future__ import annotations

import importlib
import re
from typing import Any

from pbem.dice import KeyedRng
from pbem.game import State, get_game, load_data

GAME = get_game("chechen_war")
report = importlib.import_module("pbem_game_chechen_war.report")


def state(**changes: Any) -> State:
    s = GAME.setup(load_data("chechen_war"), {}, KeyedRng(b"\x02" * 32))
    s.update(turn=3, phase="russian-movement", **changes)
    return s


def legend(s: State, who: str = "russian") -> list[str]:
    svg = report.map_svg(load_data("chechen_war"), GAME.view(load_data("chechen_war"), s, who))
    return re.findall(r'<text x="[^"]+" y="[^"]+">([^<]*)</text>', svg.split('class="legend"')[1])


def test_the_legend_gives_the_tracks_and_the_cities_control() -> None:
    s = state(morale=4, casualties=3, collateral=2,
              russians={"ru_131_mech_bde": {"hex": "1324", "reduced": False}})
    s["leaders"]["ch_basayev"] = "1525"
    lines = legend(s)
    assert lines[0] == "Turn 3: Russian Movement Segment (8.0)"
    assert "Russian morale 4 (0-13" in lines[1] and "casualties this turn 3" in lines[1]
    assert "collateral damage 2" in lines[1]
    assert lines[2] == ("Chechen cities (3.2, 4.5): Groznyi Russian, Gudermes Chechen, Argun Chechen, "
                        "Shali Chechen, Urus-Martan Chechen")
    assert lines[3] == "Chechen leaders on the map: Shamil Basayev in 1525 (Urus-Martan)"


def test_the_chechens_units_are_in_his_report_only() -> None:
    node = {"kind": "unit", "id": "t01", "owner": "chechen", "turn": 0, "commitment": "c1",
            "revealed_at": None, "raw": "ch_borz_regt"}
    s = state(tokens={"t01": {"hex": "1324", "unit": {"sealed": "x", "commitment": "c1"}}})
    data = load_data("chechen_war")
    mine = report.report(data, GAME.view(data, s, "chechen"), "chechen", [node])
    assert mine["hand"] == [{"slot": "t01", "where": "1324 (Groznyi)", "known": True, "id": "ch_borz_regt",
                             "name": "Borz Special Regiment", "type": "special_ops", "cf": 3, "mf": 5,
                             "militia": False}]
    assert mine["secrets"] == []  # shown as his units, not again as sealed values
    theirs = report.report(data, GAME.view(data, s, "russian"), "russian", [])
    assert theirs["hand"] == [] and "your tokens" not in GAME.view(data, s, "russian")


def test_the_legend_explains_every_line_and_colour_and_asks_for_no_hover() -> None:
    """A player reads the map without hovering (a mail's picture cannot be hovered): the
    legend says what the heavy red line, the dashed borders, rivers and roads are, and shows
    each terrain's colour; Chechnya's border is drawn apart from the others."""
    s = state()
    data = load_data("chechen_war")
    svg = report.map_svg(data, GAME.view(data, s, "russian"))
    text = " ".join(legend(s))
    for words in ("Heavy red line: the border of Chechnya", "dashed", "rivers", "roads", "terrain"):
        assert words in text, words
    assert "hover" not in text.lower()
    for colour in report.TERRAIN.values():
        assert f'fill="{colour}"' in svg.split('class="legend"')[1], colour
