"""Chechen leaders on the map (11.0, 11.3), as rule tables: a leader left alone in a hex goes
back to the Chechen Leader Underground Box, and the Chechen may take his leaders off the map
in his own Movement Segment. In-process, without git."""

from __future__ import annotations

from typing import Any

from test_cw_movement import GAME, B, chechen, chechen_position, data, move

from pbem.game import State


def with_leader(s: State, leader: str, where: str) -> State:
    s["leaders"] = {**s["leaders"], leader: where}
    return s


def resolved(s: State, *items: dict[str, Any]) -> tuple[list[dict[str, Any]], State]:
    assert chechen(s, *items) == []
    events = GAME.resolve(data(), s, {"chechen": {"orders": list(items)}}, None)  # type: ignore[arg-type]
    after = s
    for e in events:
        after = GAME.apply(data(), after, e)
    return events, after


def test_11_0_a_leader_whose_last_unit_moves_away_goes_back_underground() -> None:
    """"Chechen leaders may only exist in the Chechen Leader Underground Box, or in a hex with
    Chechen units": Basayev's stack leaves 1325, so he returns to the box, told as such, before
    the segment ends."""
    s = with_leader(chechen_position({"1325": None}), "ch_basayev", "1325")
    there = next(h for h in sorted(B.grid.neighbours("1325")) if B.region[h] == "chechnya")
    events, after = resolved(s, move(["t01"], "1325", there))
    assert [e["type"] for e in events] == ["moved", "leaders_underground", "phase"]
    assert events[1] == {"type": "leaders_underground", "leaders": ["ch_basayev"], "rule": "11.0"}
    assert after["leaders"]["ch_basayev"] == "underground"
    assert GAME.summary(data(), events[1]) == ("Shamil Basayev back to the Chechen Leader Underground "
                                               "Box: no Chechen unit is left in his hex (11.0)")


def test_11_0_a_leader_with_a_unit_left_beside_him_stays() -> None:
    s = with_leader(chechen_position({"1325": None, "1324": None}), "ch_basayev", "1325")
    s["tokens"]["t02"]["hex"] = "1325"  # two units with him, one moves away
    there = next(h for h in sorted(B.grid.neighbours("1325")) if B.region[h] == "chechnya")
    events, after = resolved(s, move(["t01"], "1325", there))
    assert [e["type"] for e in events] == ["moved", "phase"]
    assert after["leaders"]["ch_basayev"] == "1325"


def test_11_3_the_chechen_takes_a_leader_off_the_map_in_his_movement_segment() -> None:
    s = with_leader(chechen_position({"1325": None}), "ch_basayev", "1325")
    events, after = resolved(s, {"underground": ["ch_basayev"]})
    assert events[0] == {"type": "leaders_underground", "leaders": ["ch_basayev"], "rule": "11.3"}
    assert after["leaders"]["ch_basayev"] == "underground" and after["tokens"]["t01"]["hex"] == "1325"
    assert GAME.summary(data(), events[0]) == ("Shamil Basayev back to the Chechen Leader Underground "
                                               "Box: removed by the Chechen (11.3)")


def test_11_3_only_a_leader_on_the_map_is_removed_once_and_named_right() -> None:
    s = with_leader(chechen_position({"1325": None}), "ch_basayev", "1325")
    assert chechen(s, {"underground": ["ch_dudayev", "ch_basayev", "ch_basayev", "ch_basaev"]}) == [
        "ch_dudayev is not on the map (he is in the Underground Box): only a leader on the map "
        "returns to the Underground Box (11.3)",
        "ch_basayev is named twice",
        "'ch_basaev' is not a Chechen leader; did you mean 'ch_basayev'?"]
    assert chechen(s, {"underground": []}) == [
        "expected {underground: [LEADER, ...]}: leaders on the map back to the Underground Box (11.3)"]
