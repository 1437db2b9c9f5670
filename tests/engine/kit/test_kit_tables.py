"""The die-table kit (pbem/kit/tables.py): row keys and ranges, modifiers with reasons, the
clamping at both ends, halving rounded up; values on both sides of every row boundary and
the worked examples of a wargame rulebook (../shared/rules/chechen-war-rules.txt, 14.2).
The tables below are made up for the tests; no game's table is written in the kit."""

from __future__ import annotations

import pytest

from pbem.kit import tables
from pbem.kit.tables import HIGH, LOW, Modifier, Reading, halve_up, problems, read, rows, span

MORALE = {"0-": "+1", "1-2": "0", "3-4": "-1", "5": "-2", "6+": "-3"}
AMBUSH = {1: "no effect", 2: "no effect", 3: "no effect", 4: "retreat", 5: "retreat",
          6: "lose one step"}


@pytest.mark.parametrize(("key", "covers"), [
    (3, (3, 3)), ("3", (3, 3)), ("2-4", (2, 4)), ("6+", (6, HIGH)), ("0-", (LOW, 0)),
    ("-2--1", (-2, -1)), ("-1-", (LOW, -1)), ("-3", (-3, -3)), (" 2 - 4 ", (2, 4)),
])
def test_a_row_key_is_a_number_or_a_range(key: object, covers: tuple[int, int]) -> None:
    assert span(key) == covers


@pytest.mark.parametrize("key", ["4-2", "two", "2..4", "+6", True, None, "6++"])
def test_a_row_key_that_is_neither_is_refused(key: object) -> None:
    with pytest.raises(ValueError, match="row"):
        span(key)


@pytest.mark.parametrize(("total", "result"), [
    (-5, "+1"), (0, "+1"), (1, "0"), (2, "0"), (3, "-1"), (4, "-1"), (5, "-2"), (6, "-3"), (9, "-3"),
])
def test_each_total_reads_its_row_on_both_sides_of_every_boundary(total: int, result: str) -> None:
    assert read(MORALE, total).result == result


def test_modifiers_add_to_the_roll_and_are_told_with_their_reasons() -> None:
    got = read(MORALE, 4, [Modifier(-1, "casualties 3-6 (6.2)"), Modifier(+2, "Groznyi held")])
    assert (got.roll, got.total, got.row, got.result, got.clamped) == (4, 5, 5, "-2", False)
    assert got.text() == "4 -1 (casualties 3-6 (6.2)) +2 (Groznyi held) = 5"
    assert read(MORALE, 4, [Modifier(0, "nothing")]).text() == "4"  # a zero is not told


@pytest.mark.parametrize(("roll", "mods", "row", "text"), [
    (1, [-2], 1, "1 -2 (m) = -1, read as 1"),   # below the first row
    (6, [+3], 6, "6 +3 (m) = 9, read as 6"),    # past the last
    (6, [0], 6, "6"),
    (1, [0], 1, "1"),
])
def test_a_total_past_either_end_reads_the_end_row(roll: int, mods: list[int], row: int,
                                                   text: str) -> None:
    got = read(AMBUSH, roll, [Modifier(m, "m") for m in mods])
    assert got.row == row and got.result == AMBUSH[row] and got.text() == text
    assert got.clamped is (row != roll + sum(mods))


def test_14_2_the_ambush_examples_modified_rolls() -> None:
    # 14.2: "roll 3 -1 = 2, no effect"; "4 -1 +1 +1 = 5, Retreat"; "6 +1 -1 = 6, one step"
    first = read(AMBUSH, 3, [Modifier(-1, "gunship threat")])
    assert (first.total, first.result) == (2, "no effect")
    second = read(AMBUSH, 4, [Modifier(-1, "a"), Modifier(+1, "b"), Modifier(+1, "c")])
    assert (second.total, second.result) == (5, "retreat")
    chained = read(AMBUSH, 6, [Modifier(+1, "a"), Modifier(-1, "b")])
    assert (chained.total, chained.result, chained.clamped) == (6, "lose one step", False)


@pytest.mark.parametrize(("table", "message"), [
    ({1: "a", "1-2": "b"}, "rows overlap at 1"),
    ({1: "a", 3: "b"}, "no row for 2"),
    ({"2-4": "a", "4+": "b"}, "rows overlap at 4"),
    ({}, "a table needs at least one row"),
])
def test_overlapping_rows_gaps_and_empty_tables_are_refused(table: dict[object, str],
                                                            message: str) -> None:
    with pytest.raises(ValueError, match=message):
        rows(table)
    assert problems(table, "tables.yaml: morale") == [f"tables.yaml: morale: {message}"]


def test_problems_of_a_table_given_as_data() -> None:
    assert problems(MORALE, "t") == []
    assert problems(["a"], "tables.yaml: x") == [
        "tables.yaml: x: expected a mapping of rows (numbers or ranges such as 2-4, 6+) to results"]
    assert problems({"x": 1}, "t") == [
        "t: row 'x': expected a number or a range such as 2-4, 6+ or 0-"]


@pytest.mark.parametrize(("n", "half"), [(0, 0), (1, 1), (2, 1), (3, 2), (4, 2), (5, 3), (-3, -1)])
def test_halve_up_rounds_fractions_up(n: int, half: int) -> None:
    assert halve_up(n) == half


def test_a_reading_is_a_plain_value() -> None:
    assert read(AMBUSH, 4) == Reading(4, (), 4, 4, "retreat")


# a table given as rows with min and max (Red Russia's political tables)
ORI = [{"max": 1, "change": -1}, {"min": 2, "max": 5, "change": 0}, {"min": 6, "change": 1}]


@pytest.mark.parametrize(("total", "change"), [(-10, -1), (1, -1), (2, 0), (5, 0), (6, 1), (99, 1)])
def test_the_row_between_its_min_and_max_holds_the_total(total: int, change: int) -> None:
    assert tables.row_between(ORI, total)["change"] == change


def test_a_total_no_row_holds_is_an_error_and_the_row_is_a_copy() -> None:
    gap = [{"min": 1, "max": 2, "r": "a"}, {"min": 4, "max": 6, "r": "b"}]
    with pytest.raises(ValueError, match="no row of the table covers 3"):
        tables.row_between(gap, 3)
    row = tables.row_between(gap, 2)
    row["r"] = "changed"
    assert gap[0]["r"] == "a"
    assert tables.row_between([{"min": 1, "r": "x"}, {"min": 1, "r": "y"}], 5)["r"] == "x"  # first
