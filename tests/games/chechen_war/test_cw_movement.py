"""The Chechen War Russian Movement Segment (8.0) as rule tables
(games/chechen_war/rules/movement.py): terrain costs, rivers, bridges and roads; a move of
exactly the unit's MF and one past it; the minimum move; enemy hexes; zones of control
(9.1's two examples); stacks; stacking at the end of the segment; helicopter moves, the
fourth and the fifth. Positions are built on the reconstructed map; the hexes each case needs
are looked up from it, so a corrected map keeps the cases meaningful. In-process."""

from __future__ import annotations

import importlib
from typing import Any

import pytest
from fixed_rng import FixedRng

from pbem.dice import KeyedRng
from pbem.game import GameData, State, get_game, load_data

GAME = get_game("chechen_war")
movement = importlib.import_module("pbem_game_chechen_war.movement")
board_ = importlib.import_module("pbem_game_chechen_war.board")


def data() -> GameData:
    return load_data("chechen_war")


B = board_.board(data())


def position(russians: dict[str, str], tokens: list[str] = (), **changes: Any) -> State:  # type: ignore[assignment]
    """Turn 1's Russian Movement Segment with these units only."""
    s = GAME.setup(data(), {"end_of_turn": "asked"}, KeyedRng(b"\x06" * 32))  # asked: the End of Turn file (ahead: test_cw_ahead.py)
    s.update(turn=1, phase="russian-movement",
             russians={u: {"hex": h, "reduced": False} for u, h in russians.items()},
             tokens={f"t{k + 1:02d}": {"hex": h, "unit": {"sealed": "x"}} for k, h in enumerate(tokens)})
    s.update(changes)
    return s


def move(units: list[str], *path: str) -> dict[str, Any]:
    return {"move": {"units": units, "path": list(path)}}


def messages(s: State, *items: dict[str, Any]) -> list[str]:
    return [p.message for p in GAME.validate(data(), s, "russian", {"orders": list(items)})]


def pair(test: Any) -> tuple[str, str]:
    """The first two adjacent hexes (a, b), sorted by id, that pass `test(a, b)`."""
    for a in sorted(B.terrain):
        for b in B.grid.neighbours(a):
            if test(a, b):
                return a, b
    raise AssertionError("the map has no such pair")


def plain(a: str, b: str, terrain: str) -> bool:
    side = B.grid.hexside(a, b)
    return (B.terrain[b] == terrain and side not in B.rivers and side not in B.roads
            and B.region[a] != "georgia")


MECH = "ru_131_mech_bde"   # MF 6 (units.yaml)
MVD = "ru_mvd_regt_1"      # MF 5


# ---------------------------------------------------------------------------------------
# costs


@pytest.mark.parametrize("terrain", ["clear", "rough", "mountain", "town", "city"])
def test_8_4_entering_a_hex_costs_its_terrains_mf(terrain: str) -> None:
    a, b = pair(lambda x, y: plain(x, y, terrain))
    assert movement.cost(data(), B, a, b) == data()["tables"]["terrain"][terrain]["mf"]


def test_8_4_a_river_hexside_costs_more_and_8_7_a_bridge_does_not() -> None:
    a, b = pair(lambda x, y: B.grid.hexside(x, y) in B.rivers and B.grid.hexside(x, y) not in B.bridges
                and B.grid.hexside(x, y) not in B.roads)
    river = data()["tables"]["hexsides"]["river"]["mf"]
    assert movement.cost(data(), B, a, b) == data()["tables"]["terrain"][B.terrain[b]]["mf"] + river
    c, d = sorted(next(iter(sorted(B.bridges))))
    assert movement.cost(data(), B, c, d) == data()["tables"]["road"]["mf"]


def test_8_6_along_a_road_a_hex_costs_one_mf_whatever_its_terrain() -> None:
    a, b = pair(lambda x, y: B.grid.hexside(x, y) in B.roads and B.terrain[y] in ("rough", "mountain"))
    assert movement.cost(data(), B, a, b) == 1
    assert data()["tables"]["terrain"][B.terrain[b]]["mf"] > 1


def route(mf: int) -> list[str]:
    """A path of clear hexes outside Chechnya, off roads and rivers, costing exactly `mf`."""
    start = "0430"
    path = [start]
    while len(path) <= mf:
        here = path[-1]
        step = next(n for n in B.grid.neighbours(here) if n not in path and plain(here, n, "clear")
                    and B.region[n] != "chechnya")
        path.append(step)
    return path


def test_a_move_of_exactly_the_mf_and_one_hex_more() -> None:
    path = route(7)
    s = position({MECH: path[0]})  # MF 6, clear hexes at 1 MF each
    assert messages(s, move([MECH], *path[:7])) == []
    legs = ", ".join(f"{h} 1" for h in path[1:])  # what each hex entered costs, told
    assert messages(s, move([MECH], *path)) == [
        f"the move costs 7 MF ({legs}) and ru_131_mech_bde has 6 (8.1, 8.4-8.7; one hex may "
        "always be entered, 8.3)"]


def test_a_stack_moves_at_its_slowest_units_mf() -> None:
    path = route(6)
    s = position({MECH: path[0], MVD: path[0]})
    assert messages(s, move([MECH, MVD], *path[:6])) == []  # 5 MF
    legs = ", ".join(f"{h} 1" for h in path[1:7])
    assert messages(s, move([MECH, MVD], *path[:7])) == [
        f"the move costs 6 MF ({legs}) and ru_mvd_regt_1 has 5 (8.1, 8.4-8.7; one hex may always "
        "be entered, 8.3)"]


def test_8_3_one_hex_may_always_be_entered() -> None:
    d = data()
    steep = {**d["tables"], "terrain": {**d["tables"]["terrain"],
                                        "mountain": {**d["tables"]["terrain"]["mountain"], "mf": 9}}}
    costly = GameData(d.game_id, d.folder, {**d.files, "tables": steep})
    a, b = pair(lambda x, y: plain(x, y, "mountain"))
    c = next(h for h in B.grid.neighbours(b) if h != a and B.terrain[h] == "mountain"
             and B.grid.hexside(b, h) not in B.roads)
    s = position({MVD: a})
    one = GAME.validate(costly, s, "russian", {"orders": [move([MVD], a, b)]})
    two = GAME.validate(costly, s, "russian", {"orders": [move([MVD], a, b, c)]})
    assert one == [] and [p.message for p in two] == [
        f"the move costs {9 + movement.cost(costly, B, b, c)} MF ({b} 9, {c} "
        f"{movement.cost(costly, B, b, c)}) and ru_mvd_regt_1 has 5 (8.1, 8.4-8.7; one hex may "
        "always be entered, 8.3)"]


# ---------------------------------------------------------------------------------------
# enemy units, zones of control


def test_7_0_no_unit_enters_a_hex_holding_enemy_units() -> None:
    assert messages(position({MECH: "1525"}, tokens=["1426"]), move([MECH], "1525", "1426")) == [
        "1426 holds enemy units: no unit enters it (7.0)"]


def approach(token: str, entering: str) -> tuple[str, str]:
    """A hex outside the zone next to `entering` to come from, and one beyond it, outside."""
    around = set(B.grid.neighbours(token)) | {token}
    outside = [h for h in B.grid.neighbours(entering) if h not in around]
    return outside[0], outside[-1]


def test_9_2_a_unit_entering_an_enemy_zoc_stops_there() -> None:
    token = "1029"
    entering = B.grid.neighbours(token)[0]
    start, beyond = approach(token, entering)
    assert start != beyond
    s = position({MECH: start}, tokens=[token])
    assert messages(s, move([MECH], start, entering)) == []
    assert messages(s, move([MECH], start, entering, beyond)) == [
        f"{B.label(entering)} is in an enemy zone of control: a unit entering it stops there (9.2)"]


def test_9_1_example_2_both_zones_reach_1129_and_1230_and_neither_cancels() -> None:
    # the example's Russian unit in 1229, the Chechen unit in 1130: each exerts a zone into
    # 1129 and 1230; a Russian unit moving through either must stop there
    s = position({MECH: "1229", MVD: "1228"}, tokens=["1130"])
    assert {"1129", "1230"} <= set(B.grid.neighbours("1229")) & set(B.grid.neighbours("1130"))
    beyond = next(h for h in B.grid.neighbours("1129") if h not in B.grid.neighbours("1130")
                  and h not in ("1130", "1229"))
    assert messages(s, move([MECH], "1229", "1129", beyond)) == [
        "1129 is in an enemy zone of control: a unit entering it stops there (9.2)"]
    assert messages(s, move([MECH], "1229", "1129")) == []  # from a zone into a zone: one hex


def test_9_1_example_1_a_zone_reaches_across_a_river() -> None:
    # a Chechen unit on one bank: the hex across the river from it is in its zone all the same
    token, entering = next(
        (t, e) for side in sorted(B.rivers) for t, e in (side, side[::-1])
        if B.region[t] != "georgia" and B.grid.hexside(t, e) not in B.roads
        and len([h for h in B.grid.neighbours(e) if h not in B.grid.neighbours(t) and h != t]) >= 2)
    start, beyond = approach(token, entering)
    s = position({MECH: start}, tokens=[token])
    assert B.grid.hexside(token, entering) in B.rivers
    assert messages(s, move([MECH], start, entering, beyond)) == [
        f"{B.label(entering)} is in an enemy zone of control: a unit entering it stops there (9.2)"]


def test_a_unit_that_starts_in_a_zone_may_leave_it() -> None:
    s = position({MECH: "1229"}, tokens=["1130"])
    away = [h for h in B.grid.neighbours("1229") if h not in B.grid.neighbours("1130") and h != "1130"]
    further = next(h for h in B.grid.neighbours(away[0]) if h not in B.grid.neighbours("1130")
                   and h not in ("1229", "1130"))
    assert messages(s, move([MECH], "1229", away[0], further)) == []


# ---------------------------------------------------------------------------------------
# stacks, stacking, helicopters


def test_a_stack_moves_from_the_hex_it_starts_in_and_each_unit_once() -> None:
    s = position({MECH: "0731", MVD: "0732"})
    assert messages(s, move([MECH, MVD], "0731", "0730")) == [
        "ru_mvd_regt_1 is not in 0731 (Mozdok): a stack moves together only from the hex it starts in (7.3)"]
    assert messages(s, move([MECH], "0731", "0730"), move([MECH], "0730", "0729")) == [
        "ru_131_mech_bde moves once a segment (8.1)"]
    assert messages(s, move(["ru_131"], "0731", "0730"))[0].startswith(
        "'ru_131' is not a Russian unit on the map")
    assert messages(s, move([MECH], "0731", "0929")) == ["0929 is not next to 0731"]


def test_7_1_stacking_at_the_end_of_the_segment() -> None:
    a, b = pair(lambda x, y: plain(x, y, "clear") and B.region[x] == "stavropol")
    limit = board_.stacking(data(), B, b)
    crowd = {f"ru_mvd_regt_{k}": a for k in range(1, limit + 2)}
    s = position(crowd)
    assert messages(s, move(list(crowd)[:limit], a, b)) == []
    assert messages(s, move(list(crowd), a, b)) == [
        f"{B.label(b)} holds {limit + 1} units at the end of the segment; its terrain (clear) "
        f"stacks {limit} (7.1)"]


HELI = ["ru_76_airborne", "ru_106_airborne", "ru_98_airborne", "ru_7_airborne", "ru_104_airborne"]


def test_8_8_four_heliborne_units_a_turn_fly_alone_anywhere_not_held_by_the_enemy() -> None:
    s = position({u: "1632" for u in HELI} | {MECH: "0731"}, tokens=["1426"])
    fly = [{"helicopter": {"unit": u, "to": "1525"}} for u in HELI]
    assert messages(s, *fly[:4]) == []  # 1525: next to 1426, in a zone of control
    assert messages(s, *fly) == ["four heliborne units a turn move by helicopter (8.8); 4 may this turn"]
    assert messages(s, {"helicopter": {"unit": HELI[0], "to": "1426"}}) == [
        "1426 holds enemy units: a helicopter move ends anywhere else (8.8)"]
    assert messages(s, {"helicopter": {"unit": MECH, "to": "1525"}}) == [
        "ru_131_mech_bde is not heliborne: special ops, naval infantry and parachute infantry move "
        "by helicopter (8.8)"]
    assert messages(s, {"helicopter": {"unit": HELI[0], "to": "1525"}},
                    move([HELI[0]], "1525", "1524")) == [f"{HELI[0]} moves once a segment (8.1)"]
    flown = position({u: "1632" for u in HELI}, flown=3)
    assert messages(flown, *fly[:2])[-1] == (
        "four heliborne units a turn move by helicopter (8.8); 1 may this turn")


def test_the_segment_resolves_to_the_moves_then_the_ambush_segment() -> None:
    s = position({MECH: "0731"})
    events = GAME.resolve(data(), s, {"russian": {"orders": [move([MECH], "0731", "0730")]}}, FixedRng())
    assert events[0] == {"type": "moved", "side": "russian", "units": [MECH], "path": ["0731", "0730"],
                         "mf": movement.cost(data(), B, "0731", "0730")}
    assert events[-1] == {"type": "phase", "phase": "chechen-ambush", "turn": 1}
    after = s
    for e in events:
        after = GAME.apply(data(), after, e)
    assert after["russians"][MECH]["hex"] == "0730"
    assert GAME.summary(data(), events[0]).startswith("131st Mech Brigade moves from 0731 (Mozdok) to 0730")
    assert GAME.validate(data(), after, "chechen", {"orders": []}) == []  # no ambush: legal


def test_the_bots_moves_are_legal() -> None:
    s = position({u: "0731" for u in ("ru_131_mech_bde", "ru_74_mech_bde")} | {MVD: "0617"},
                 tokens=["0929", "1324"])
    for seed in range(5):
        sent = GAME.bot(data(), s, "russian", KeyedRng(bytes([seed]) * 32))
        assert messages(s, *sent["orders"]) == []


# ---------------------------------------------------------------------------------------
# the Chechen Movement Segment: face-down units whose identity only some readers see


def chechen_position(tokens: dict[str, str | None], russians: dict[str, str] | None = None) -> State:
    """The Chechen Movement Segment: tokens by hex, each with its unit as the reader sees it
    (a unit id: opened by the reader's key; None: still sealed)."""
    s = position(russians or {})
    s.update(phase="chechen-movement",
             tokens={f"t{k + 1:02d}": {"hex": h, "unit": u if u is not None else {"sealed": "x", "commitment": "y"}}
                     for k, (h, u) in enumerate(tokens.items())})
    return s


def chechen(s: State, *items: dict[str, Any]) -> list[str]:
    return [p.message for p in GAME.validate(data(), s, "chechen", {"orders": list(items)})]


MILITIA, REGULAR = "ch_militia_01", "ch_presidential_guard"  # MF 4 and 4 (units.yaml)


def border(region: str) -> tuple[str, str]:
    """A Chechen hex and a neighbour in `region`, off roads and rivers."""
    return pair(lambda x, y: B.region[x] == "chechnya" and B.region[y] == region
                and B.grid.hexside(x, y) not in B.rivers and B.grid.hexside(x, y) not in B.roads)


@pytest.mark.parametrize("region", ["dagestan", "ingushetia"])
def test_8_2_only_militia_enter_dagestan_and_ingushetia(region: str) -> None:
    a, b = border(region)
    assert chechen(chechen_position({a: MILITIA}), move(["t01"], a, b)) == []
    assert chechen(chechen_position({a: REGULAR}), move(["t01"], a, b)) == [
        f"t01 is not militia: only militia enter {region.title()} (8.2)"]


def test_8_2_no_chechen_unit_leaves_for_anywhere_else() -> None:
    a, b = border("stavropol")
    assert chechen(chechen_position({a: MILITIA}), move(["t01"], a, b)) == [
        f"{B.label(b)} is outside Chechnya: Chechen units stay in Chechnya (8.2)"]


def test_a_reader_who_cannot_see_the_unit_cannot_check_what_it_decides() -> None:
    # the public audit replays with the tokens sealed: 8.2's militia rule and the MF are the
    # referee's check at apply (and audit --final's); what is public is still checked
    a, b = border("dagestan")
    assert chechen(chechen_position({a: None}), move(["t01"], a, b)) == []
    c, d = border("stavropol")
    assert chechen(chechen_position({c: None}), move(["t01"], c, d))[0].endswith(
        "is outside Chechnya: Chechen units stay in Chechnya (8.2)")


def chechen_route(length: int) -> list[str]:
    """A path of clear hexes in Chechnya, off roads and rivers, `length` hexes entered."""
    for start in sorted(h for h, r in B.region.items() if r == "chechnya"):
        path = [start]
        while len(path) <= length:
            here = path[-1]
            step = next((n for n in B.grid.neighbours(here) if n not in path and plain(here, n, "clear")
                         and B.region[n] == "chechnya"), None)
            if step is None:
                break
            path.append(step)
        if len(path) == length + 1:
            return path
    raise AssertionError("no such route")


def test_a_face_down_unit_moves_at_its_own_mf_as_the_referee_sees_it() -> None:
    path = chechen_route(5)
    s = chechen_position({path[0]: MILITIA})  # MF 4
    assert chechen(s, move(["t01"], *path[:5])) == []
    legs = ", ".join(f"{h} 1" for h in path[1:])
    assert chechen(s, move(["t01"], *path)) == [
        f"the move costs 5 MF ({legs}) and t01 has 4 (8.1, 8.4-8.7; one hex may always be "
        "entered, 8.3)"]
    assert chechen(chechen_position({path[0]: None}), move(["t01"], *path)) == []  # unseen


def test_a_chechen_unit_entering_a_russian_zone_stops_there() -> None:
    z = chechen_position({"1321": MILITIA}, russians={MECH: "1319"})
    entering = next(h for h in B.grid.neighbours("1321") if h in B.grid.neighbours("1319"))
    beyond = next(h for h in B.grid.neighbours(entering) if h not in B.grid.neighbours("1319")
                  and h not in ("1321", "1319") and B.region[h] == "chechnya")
    assert chechen(z, move(["t01"], "1321", entering, beyond)) == [
        f"{B.label(entering)} is in an enemy zone of control: a unit entering it stops there (9.2)"]


def test_the_chechens_moves_name_no_identity_in_the_log() -> None:
    s = chechen_position({"1324": None})
    events = GAME.resolve(data(), s, {"chechen": {"orders": [move(["t01"], "1324", "1424")]}},
                          FixedRng())
    assert events[0] == {"type": "moved", "side": "chechen", "units": ["t01"],
                         "path": ["1324", "1424"], "mf": movement.cost(data(), B, "1324", "1424")}
    assert GAME.summary(data(), events[0]) == "the Chechen moves 1 face-down unit from 1324 (Groznyi) to 1424"
    assert events[-1] == {"type": "phase", "phase": "end-of-turn", "turn": 1}  # no attack
    after = GAME.apply(data(), s, events[0])
    assert after["tokens"]["t01"]["hex"] == "1424"
    assert chechen(chechen_position({"1324": None}), {"helicopter": {"unit": "t01", "to": "1424"}}) == [
        "an order is {move: {units: [...], path: [...]}}, {underground: [LEADER, ...]} (11.3) or "
        '{attack: {target: "CCRR", units: [t01, ...]}} (10.0)']  # told once, by the moves
