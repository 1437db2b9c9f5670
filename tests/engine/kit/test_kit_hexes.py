"""The hex grid kit (pbem/kit/hexes.py): ids, neighbours, distance, hexsides, zones of
control and drawing, checked against the adjacencies a wargame rulebook's own examples state
(../shared/rules/chechen-war-rules.txt; the table in ../shared/research/chechen-war-map.md).
"P" is that map's parity (even columns half a hex toward lower row numbers), "Q" the other."""

from __future__ import annotations

import math
from collections import deque

import pytest

from pbem.kit.hexes import Grid

P = Grid(even_columns_shifted="up")
Q = Grid(even_columns_shifted="down")


def _mirror(hex_id: str) -> str:
    """The hex at the same place upside down: row r becomes row 100 - r."""
    return f"{hex_id[:2]}{100 - int(hex_id[2:]):02d}"


# Each adjacency the examples need: (rule, a, b, adjacent under P, adjacent under Q).
EXAMPLES = [
    ("14.2 ambush from 1426 against the 503rd in 1525", "1426", "1525", True, False),
    ("14.2 ambush from 1325 against the two units in 1326", "1325", "1326", True, True),
    ("14.2 1426 supports the ambush of 1326 (14.1: adjacent)", "1426", "1326", True, True),
    ("14.2 the 33rd retreats from 1326 into 1227", "1326", "1227", True, False),
    ("14.2 the unit in 1226 ambushes the 33rd in 1227", "1226", "1227", True, True),
    ("14.2 the unit in 1126 supports that ambush", "1126", "1227", True, False),
    ("14.2 1226 'supported the initial ambush' of 1326", "1226", "1326", True, True),
    ("9.1 ex. 2 both units project ZOC into 1129 and 1230", "1129", "1230", True, False),
]


@pytest.mark.parametrize(("rule", "a", "b", "under_p", "under_q"), EXAMPLES,
                         ids=[e[0] for e in EXAMPLES])
def test_the_rulebooks_adjacencies(rule: str, a: str, b: str, under_p: bool, under_q: bool) -> None:
    assert P.adjacent(a, b) is under_p and P.adjacent(b, a) is under_p
    assert (b in P.neighbours(a)) is under_p and (a in P.neighbours(b)) is under_p
    assert Q.adjacent(a, b) is under_q and Q.adjacent(b, a) is under_q


def test_only_parity_p_fits_every_14_2_example() -> None:
    pairs = [(a, b) for rule, a, b, _, _ in EXAMPLES if rule.startswith("14.2")]
    assert all(P.adjacent(a, b) for a, b in pairs)
    assert sum(not Q.adjacent(a, b) for a, b in pairs) == 3


def test_9_1_example_2_two_units_whose_zocs_overlap_without_cancelling() -> None:
    # 9.1 ex. 2: the only hexes next to both 1129 and 1230 are 1229 and 1130, either parity.
    for grid in (P, Q):
        assert set(grid.neighbours("1129")) & set(grid.neighbours("1230")) == {"1229", "1130"}
        assert {"1129", "1230"} <= grid.zoc({"1229"}) and {"1129", "1230"} <= grid.zoc({"1130"})
    assert P.distance("1229", "1130") == 2 and Q.distance("1229", "1130") == 1


def test_14_2_ambushers_have_their_targets_in_their_zoc() -> None:
    # 14.1: an ambush is against a hex in the ambusher's ZOC; the support hex is adjacent.
    assert "1525" in P.zoc({"1426"}) and "1326" in P.zoc({"1325"})
    assert "1227" in P.zoc({"1226"}) and "1227" in P.zoc({"1126"})
    assert "1525" not in Q.zoc({"1426"})


def test_neighbours_in_their_documented_order() -> None:
    # above (row - 1), then clockwise as printed: upper right, lower right, below, lower left,
    # upper left. Under P an odd column sits half a hex below its even neighbours.
    assert P.neighbours("1326") == ["1325", "1426", "1427", "1327", "1227", "1226"]
    assert P.neighbours("1426") == ["1425", "1525", "1526", "1427", "1326", "1325"]
    assert Q.neighbours("1326") == ["1325", "1425", "1426", "1327", "1226", "1225"]
    assert Q.neighbours("1426") == ["1425", "1526", "1527", "1427", "1327", "1326"]


@pytest.mark.parametrize("hex_id", ["0101", "0150", "0250", "1326", "1426", "9999", "5001", "9850"])
def test_the_other_parity_is_the_mirror_image(hex_id: str) -> None:
    # Turned upside down (row r to row 100 - r), a P map is a Q map: same neighbours, and
    # "above, upper right, lower right, below, lower left, upper left" becomes "below, lower
    # right, upper right, above, upper left, lower left".
    mirrored = [_mirror(h) for h in P.neighbours(hex_id)]
    assert sorted(Q.neighbours(_mirror(hex_id))) == sorted(mirrored)
    if len(mirrored) == 6:
        assert Q.neighbours(_mirror(hex_id)) == [mirrored[i] for i in (3, 2, 1, 0, 5, 4)]
    assert Q.within(_mirror(hex_id), 3) == sorted(_mirror(h) for h in P.within(hex_id, 3))
    assert Q.distance(_mirror(hex_id), "5050") == P.distance(hex_id, "5050")


@pytest.mark.parametrize("grid", [P, Q], ids=["P", "Q"])
def test_adjacency_is_symmetric_and_distance_one_is_exactly_the_neighbours(grid: Grid) -> None:
    area = grid.within("1326", 3)
    for a in area:
        near = set(grid.neighbours(a))
        assert len(near) == 6 and a not in near
        for b in area:
            assert grid.adjacent(a, b) is grid.adjacent(b, a) is (b in near)
            assert grid.distance(a, b) == grid.distance(b, a)
            assert (grid.distance(a, b) == 1) is (b in near)
        assert grid.distance(a, a) == 0 and not grid.adjacent(a, a)


@pytest.mark.parametrize("grid", [P, Q], ids=["P", "Q"])
def test_distance_is_the_number_of_steps_between_neighbours(grid: Grid) -> None:
    steps = {"1326": 0}
    queue = deque(["1326"])
    while queue:
        here = queue.popleft()
        for there in grid.neighbours(here):
            if there not in steps and steps[here] < 7:
                steps[there] = steps[here] + 1
                queue.append(there)
    assert len(steps) == 1 + 3 * 7 * 8  # a full hexagon of radius 7
    assert all(grid.distance("1326", h) == n for h, n in steps.items())


def test_distance_on_both_sides_of_a_threshold() -> None:
    assert P.distance("1326", "1328") == 2 and P.distance("1326", "1329") == 3
    assert P.distance("1326", "1526") == 2 and P.distance("1326", "1527") == 2
    assert P.distance("1326", "1528") == 3 and P.distance("1326", "1524") == 3
    assert P.distance("0101", "0199") == 98 and P.distance("0110", "1110") == 10
    assert P.distance("0101", "9999") == 98 + 49  # 98 column steps gain only 49 rows
    assert [P.within("1326", n).__len__() for n in range(4)] == [1, 7, 19, 37]
    assert [len(P.ring("1326", n)) for n in range(4)] == [1, 6, 12, 18]
    assert P.within("0731", 1) == sorted(["0731", *P.neighbours("0731")])  # 4.3.1 "on or adjacent"
    with pytest.raises(ValueError, match="a range of -1 hexes"):
        P.within("0731", -1)


def test_the_edges_of_the_grid() -> None:
    assert P.neighbours("0101") == ["0201", "0202", "0102"]
    assert Q.neighbours("0101") == ["0201", "0102"]
    assert P.neighbours("9999") == ["9998", "9899"]
    assert Q.neighbours("9999") == ["9998", "9899", "9898"]
    assert P.neighbours("0199") == ["0198", "0299"]
    assert P.neighbours("9901") == ["9902", "9802", "9801"]
    assert P.neighbours("0201") == ["0301", "0202", "0101"]
    assert P.within("0101", 1) == ["0101", "0102", "0201", "0202"]


def test_a_smaller_map_ends_where_its_extent_says() -> None:
    small = Grid(even_columns_shifted="up", columns=(1, 26), rows=(1, 40))
    assert small.neighbours("2640") == ["2639", "2540", "2539"]
    assert small.neighbours("2540") == ["2539", "2640", "2440"]
    with pytest.raises(ValueError, match=r"^hex id '2701' is off the map \(columns 01-26, rows 01-40\)$"):
        small.neighbours("2701")
    with pytest.raises(ValueError, match=r"^hex id '0141' is off the map"):
        small.offset("0141")
    assert small.hex_id(26, 40) == "2640"
    with pytest.raises(ValueError, match=r"^column 27, row 1 is off the map \(columns 01-26, rows 01-40\)$"):
        small.hex_id(27, 1)
    with pytest.raises(ValueError, match="columns must run from 1 to at most 99, not 0-26"):
        Grid(even_columns_shifted="up", columns=(0, 26))
    with pytest.raises(ValueError, match="rows must run from 1 to at most 99, not 5-4"):
        Grid(even_columns_shifted="up", rows=(5, 4))
    with pytest.raises(ValueError, match="even_columns_shifted must be 'up' or 'down', not 'odd'"):
        Grid(even_columns_shifted="odd")  # type: ignore[arg-type]


QUOTE = 'hex ids must be quoted 4-digit strings "CCRR" (column then row), e.g. "0731"'


@pytest.mark.parametrize(("value", "message"), [
    (731, f"hex id 731 (int) is not a string: {QUOTE} (YAML reads an unquoted 0731 as the number 473)"),
    (473, f"hex id 473 (int) is not a string: {QUOTE} (YAML reads an unquoted 0731 as the number 473)"),
    (731.0, f"hex id 731.0 (float) is not a string: {QUOTE} (YAML reads an unquoted 0731 as the number 473)"),
    ("731", f"hex id '731' is not 4 digits: {QUOTE}"),
    ("12345", f"hex id '12345' is not 4 digits: {QUOTE}"),
    ("ab12", f"hex id 'ab12' is not 4 digits: {QUOTE}"),
    ("07 31", f"hex id '07 31' is not 4 digits: {QUOTE}"),
    ("0731\n", f"hex id '0731\\n' is not 4 digits: {QUOTE}"),
    ("\uff10\uff17\uff13\uff11", f"hex id '\uff10\uff17\uff13\uff11' is not 4 digits: {QUOTE}"),
    ("0000", "hex id '0000' is off the map (columns 01-99, rows 01-99)"),
    ("0100", "hex id '0100' is off the map (columns 01-99, rows 01-99)"),
    ("0001", "hex id '0001' is off the map (columns 01-99, rows 01-99)"),
])
def test_a_bad_id_is_refused_with_what_to_write(value: object, message: str) -> None:
    with pytest.raises(ValueError) as refused:
        P.offset(value)
    assert str(refused.value) == message
    with pytest.raises(ValueError):
        P.neighbours(value)  # type: ignore[arg-type]
    with pytest.raises(ValueError):
        P.distance("0731", value)  # type: ignore[arg-type]


def test_good_ids_at_the_corners() -> None:
    assert [P.offset(h) for h in ("0101", "0199", "9901", "9999", "0731")] == [
        (1, 1), (1, 99), (99, 1), (99, 99), (7, 31)]
    assert P.hex_id(7, 31) == "0731" and P.hex_id(1, 1) == "0101"


def test_a_hexside_is_one_key_from_either_side() -> None:
    assert P.hexside("1326", "1227") == P.hexside("1227", "1326") == ("1227", "1326")
    sides = [P.hexside("1326", h) for h in P.neighbours("1326")]
    assert len(set(sides)) == 6
    around = {P.hexside(a, b) for a in P.within("1326", 1) for b in P.neighbours(a)}
    assert len(around) == 6 + 6 + 6 * 3  # 6 round the centre, 6 within the ring, 18 outward
    with pytest.raises(ValueError, match="^hexes 1326 and 1328 are not adjacent: they share no hexside$"):
        P.hexside("1326", "1328")
    with pytest.raises(ValueError, match="not adjacent"):
        P.hexside("1326", "1326")
    with pytest.raises(ValueError, match="not adjacent"):
        Q.hexside("1326", "1227")  # adjacent only under P


def test_zoc_is_every_adjacent_hex_unless_a_hexside_blocks_it() -> None:
    # 9.1: the six surrounding hexes, not the unit's own; several zones do not add up.
    assert P.zoc({"1326"}) == set(P.neighbours("1326"))
    assert P.zoc([]) == set()
    two = P.zoc(["1326", "1426"])
    assert two == set(P.neighbours("1326")) | set(P.neighbours("1426"))
    assert "1326" in two and "1426" in two  # each is next to the other
    # 9.1 ex. 1 lets a ZOC cross a river hexside (the game blocks nothing); a game whose
    # rules block some hexsides names them, in either order.
    river = [("1327", "1326"), ("1326", "1226")]
    assert P.zoc({"1326"}, river) == set(P.neighbours("1326")) - {"1327", "1226"}
    assert P.zoc({"1226"}, river) == set(P.neighbours("1226")) - {"1326"}
    assert P.zoc({"1326", "1328"}, river) >= {"1327"}  # blocked from one side only
    with pytest.raises(ValueError, match="not adjacent"):
        P.zoc({"1326"}, [("1326", "1328")])
    edge = P.zoc({"0101"})
    assert edge == {"0201", "0202", "0102"}


@pytest.mark.parametrize("grid", [P, Q], ids=["P", "Q"])
def test_drawn_centres_sit_one_apart_exactly_for_neighbours(grid: Grid) -> None:
    x, y = grid.centre("1326")
    for h in grid.within("1326", 2):
        hx, hy = grid.centre(h)
        gap = math.hypot(hx - x, hy - y)
        if grid.adjacent("1326", h):
            assert math.isclose(gap, 1.0)
        elif h != "1326":
            assert gap >= math.sqrt(3) - 1e-9
    corners = grid.corners("1326")
    assert len(corners) == 6
    assert all(math.isclose(math.hypot(cx - x, cy - y), 1 / math.sqrt(3)) for cx, cy in corners)


def test_drawn_centres_under_each_parity() -> None:
    # The research note's geometry: x = column * 0.866, y = row - 0.5 in an even column (P).
    assert P.centre("0201") == pytest.approx((math.sqrt(3), 0.5))
    assert Q.centre("0201") == pytest.approx((math.sqrt(3), 1.5))
    assert P.centre("0101") == Q.centre("0101") == pytest.approx((math.sqrt(3) / 2, 1.0))
    assert P.centre("1326")[1] > P.centre("1426")[1]  # under P the even column sits higher
