"""The odds-ratio CRT kit (pbem/kit/odds.py): odds rounded for the defender, column shifts
netted, the table's edges, the die lookup; values on both sides of every boundary, and the
worked examples of a wargame rulebook (../shared/rules/chechen-war-rules.txt, 10.7-10.8).
The table below is made up for the tests; no game's table is written in the kit."""

from __future__ import annotations

import pytest

from pbem.kit.odds import Odds, Shift, lookup, net, resolve, rounded

COLUMNS = ["1:2", "1:1", "2:1", "3:1", "4:1", "5:1", "6:1"]
TABLE = {
    "1:2": ["AE", "AE", "AE", "Ax", "-", "-"],
    "1:1": ["AE", "AE", "Ax", "-", "-", "Ex"],
    "2:1": ["AE", "Ax", "-", "-", "Ex", "DE"],
    "3:1": ["Ax", "-", "-", "Ex", "DE", "DE"],
    "4:1": ["-", "-", "Ex", "DE", "DE", "DE"],
    "5:1": ["-", "Ex", "DE", "DE", "DE", "DE"],
    "6:1": ["Ex", "DE", "DE", "DE", "DE", "DE"],
}


def test_10_7_example_seven_against_two_is_fought_at_three_to_one() -> None:
    # 10.7: CF 3 + 4 against 1 + 1 "are 7:2 or 3.5:1, which rounds down to 3:1".
    assert rounded(3 + 4, 1 + 1) == "3:1"
    assert resolve(3 + 4, 1 + 1, COLUMNS) == Odds(7, 2, "3:1", (), 0, "3:1")


@pytest.mark.parametrize(("attack", "defence", "odds"), [
    (4, 2, "2:1"), (3, 2, "1:1"), (5, 2, "2:1"), (6, 2, "3:1"),  # 2:1 exactly, under, over
    (11, 4, "2:1"), (12, 4, "3:1"), (13, 4, "3:1"),
    (5, 5, "1:1"), (9, 5, "1:1"), (10, 5, "2:1"),
    (2, 4, "1:2"), (3, 4, "1:2"), (2, 5, "1:3"), (3, 7, "1:3"), (1, 3, "1:3"), (1, 4, "1:4"),
    (6, 1, "6:1"), (20, 2, "10:1"), (1, 1, "1:1"),
])
def test_rounded_drops_fractions_in_the_defenders_favour(attack: int, defence: int, odds: str) -> None:
    assert rounded(attack, defence) == odds


@pytest.mark.parametrize(("attack", "defence", "column"), [
    (4, 2, "2:1"), (3, 2, "1:1"), (5, 2, "2:1"),
    (8, 2, "4:1"), (7, 2, "3:1"), (9, 2, "4:1"),
    (2, 4, "1:2"), (3, 4, "1:2"), (4, 4, "1:1"),
    (1, 5, "1:2"), (1, 99, "1:2"), (12, 2, "6:1"), (13, 2, "6:1"), (99, 1, "6:1"),  # the edges
])
def test_the_odds_fall_in_their_column_and_stop_at_the_tables_ends(attack: int, defence: int,
                                                                   column: str) -> None:
    odds = resolve(attack, defence, COLUMNS)
    assert odds.base == odds.column == column and odds.net == 0


def test_the_column_agrees_with_the_rounded_odds_wherever_the_table_has_them() -> None:
    for attack in range(1, 25):
        for defence in range(1, 25):
            odds = rounded(attack, defence)
            column = resolve(attack, defence, COLUMNS).base
            if odds in COLUMNS:
                assert column == odds, (attack, defence)
            else:
                assert column == ("1:2" if attack < defence else "6:1"), (attack, defence)


def test_a_table_with_uneven_columns() -> None:
    columns = ["1:3", "1:2", "1:1", "3:2", "2:1", "3:1"]
    assert resolve(3, 2, columns).base == "3:2"
    assert resolve(5, 4, columns).base == "1:1"  # 1.25:1 is short of 3:2
    assert resolve(8, 5, columns).base == "3:2"  # 1.6:1 is short of 2:1
    assert resolve(3, 7, columns).base == "1:3"  # 1:2.33 is short of 1:2
    assert resolve(1, 9, columns).base == "1:3"


def test_shifts_are_netted_and_kept_with_their_reasons() -> None:
    shifts = [Shift("left", 2, "city"), Shift("right", 1, "support marker")]
    assert net(shifts) == -1  # two left and one right is one left
    odds = resolve(7, 2, COLUMNS, shifts)
    assert (odds.base, odds.net, odds.column) == ("3:1", -1, "2:1")
    assert odds.shifts == tuple(shifts)
    assert [(s.direction, s.count, s.reason) for s in odds.shifts] == [
        ("left", 2, "city"), ("right", 1, "support marker")]
    assert resolve(7, 2, COLUMNS, [Shift("right", 2, "leaders")]).column == "5:1"
    assert net([]) == 0 and net([Shift("right", 1, "a"), Shift("right", 2, "b")]) == 3


def test_10_8_equal_shifts_cancel() -> None:
    # 10.8: "If both sides have an equal number of shifts, neither side receives any shifts."
    even = [Shift("right", 1, "marker"), Shift("right", 1, "marker"), Shift("left", 2, "city")]
    odds = resolve(4, 2, COLUMNS, even)
    assert odds.net == 0 and odds.column == odds.base == "2:1"


@pytest.mark.parametrize(("attack", "defence", "shifts", "column"), [
    (11, 2, [Shift("right", 1, "x")], "6:1"),   # 5:1 one right: the last column
    (11, 2, [Shift("right", 2, "x")], "6:1"),   # a second right runs off the table
    (20, 2, [Shift("left", 1, "x")], "5:1"),    # 10:1 is placed at 6:1 first, then shifted
    (2, 2, [Shift("left", 1, "x")], "1:2"),     # 1:1 one left: the first column
    (2, 2, [Shift("left", 3, "x")], "1:2"),
    (1, 9, [Shift("right", 1, "x")], "1:1"),    # 1:9 is placed at 1:2 first, then shifted
    (1, 9, [Shift("right", 9, "x")], "6:1"),
])
def test_shifts_stop_at_the_tables_ends(attack: int, defence: int, shifts: list[Shift],
                                        column: str) -> None:
    assert resolve(attack, defence, COLUMNS, shifts).column == column


@pytest.mark.parametrize(("column", "roll", "result"), [
    ("3:1", 1, "Ax"), ("3:1", 2, "-"), ("3:1", 3, "-"), ("3:1", 4, "Ex"), ("3:1", 5, "DE"),
    ("3:1", 6, "DE"), ("1:2", 3, "AE"), ("1:2", 4, "Ax"), ("6:1", 1, "Ex"), ("6:1", 2, "DE"),
])
def test_lookup_on_both_sides_of_each_threshold(column: str, roll: int, result: str) -> None:
    assert lookup(TABLE, column, roll) == result


def test_a_whole_combat_from_strengths_to_result() -> None:
    odds = resolve(9, 4, COLUMNS, [Shift("left", 1, "rough"), Shift("right", 2, "artillery")])
    assert odds.column == "3:1" and lookup(TABLE, odds.column, 4) == "Ex"


def test_lookup_with_rolls_numbered_from_another_first() -> None:
    table = {"1:1": ["a", "b", "c"]}
    assert [lookup(table, "1:1", r, first=0) for r in (0, 1, 2)] == ["a", "b", "c"]
    with pytest.raises(ValueError, match=r"^a roll of 3 is not on the table \(0-2\)$"):
        lookup(table, "1:1", 3, first=0)


@pytest.mark.parametrize("roll", [0, 7, -1])
def test_lookup_refuses_a_roll_off_the_table(roll: int) -> None:
    with pytest.raises(ValueError, match=rf"^a roll of {roll} is not on the table \(1-6\)$"):
        lookup(TABLE, "3:1", roll)


def test_lookup_refuses_a_column_it_does_not_have() -> None:
    with pytest.raises(ValueError, match=r"^the table has no column '7:1'$"):
        lookup(TABLE, "7:1", 3)


@pytest.mark.parametrize(("attack", "defence"), [(0, 3), (3, 0), (-1, 2), (0, 0)])
def test_strengths_below_one_have_no_odds(attack: int, defence: int) -> None:
    message = rf"^odds need strengths of 1 or more, not {attack} against {defence}$"
    with pytest.raises(ValueError, match=message):
        rounded(attack, defence)
    with pytest.raises(ValueError, match=message):
        resolve(attack, defence, COLUMNS)


@pytest.mark.parametrize(("columns", "message"), [
    (["1:1", 181], 'odds column 181 (int) is not a string: columns must be quoted strings "A:D" '
                   'such as "3:1" (YAML reads an unquoted 3:1 as the number 181)'),
    (["1:1", "3-1"], 'odds column \'3-1\' is not "A:D" with A and D whole numbers from 1, such as "3:1"'),
    (["0:1", "1:1"], 'odds column \'0:1\' is not "A:D" with A and D whole numbers from 1, such as "3:1"'),
    (["1:1", "3:1 "], 'odds column \'3:1 \' is not "A:D" with A and D whole numbers from 1, such as "3:1"'),
    (["1:1", "3:1", "2:1"], "odds columns must rise from left to right: ['1:1', '3:1', '2:1']"),
    (["1:1", "2:2"], "odds columns must rise from left to right: ['1:1', '2:2']"),
    ([], "a table needs at least one column"),
])
def test_bad_columns_are_refused(columns: list[str], message: str) -> None:
    with pytest.raises(ValueError) as refused:
        resolve(3, 1, columns)
    assert str(refused.value) == message


@pytest.mark.parametrize(("direction", "count"), [("up", 1), ("left", 0), ("right", -1)])
def test_a_shift_is_one_or_more_columns_left_or_right(direction: str, count: int) -> None:
    with pytest.raises(ValueError, match=rf"^a shift is 1 or more columns left or right, not "
                                         rf"{count} '{direction}' \(why\)$"):
        Shift(direction, count, "why")  # type: ignore[arg-type]


def test_a_one_column_table() -> None:
    assert resolve(1, 9, ["1:1"], [Shift("right", 2, "x")]).column == "1:1"
    assert resolve(9, 1, ["1:1"]).column == "1:1"
