"""The game's end, first in every report: who won and why, each faction's scores as the
result gives them, and no orders template (pbem.reports.context.final)."""

from __future__ import annotations

from pbem.reports.context import final

NAMES = {"red": "Reds", "siberian": "Siberian Whites", "south": "Southern Whites"}
RESULT = {"winners": ["south"], "reason": "closest to its level (16.1)",
          "vp": {"red": 15, "siberian": 3, "south": 6}, "levels": {"red": 30, "south": 15},
          "side": "white", "notes": {"x": 1}}


def test_the_headline_and_a_column_for_each_value_given_by_faction() -> None:
    told = final(RESULT, NAMES, {})
    assert told["headline"] == "Southern Whites won: closest to its level (16.1)"
    assert told["columns"] == ["Faction", "Vp", "Levels"]  # 'notes' is not by faction
    assert told["rows"] == [["Reds", 15, 30], ["Siberian Whites", 3, None],
                            ["Southern Whites", 6, 15]]


def test_the_games_labels_name_and_order_the_columns() -> None:
    style = {"result": {"levels": "Automatic victory level (16.1)", "vp": "Victory points"}}
    told = final(RESULT, NAMES, style)
    assert told["columns"] == ["Faction", "Automatic victory level (16.1)", "Victory points"]
    assert told["rows"][0] == ["Reds", 30, 15]


def test_nobody_won_and_no_scores() -> None:
    told = final({"winners": [], "reason": "neither side's conditions (3.2)"}, NAMES, {})
    assert told["headline"] == "nobody won: neither side's conditions (3.2)"
    assert told["rows"] == [] and told["columns"] == ["Faction"]
    assert final({"winners": ["red", "siberian"]}, NAMES, {})["headline"] == \
        "Reds and Siberian Whites won"
