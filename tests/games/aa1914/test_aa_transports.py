"""Axis & Allies 1914 land units carried by sea (games/aa1914/rules/movement.py `_by_sea`):
the transports needed at two units each, exactly enough and one short; the crossing's length
at the transport's reach and one more; enemy warships and minefields on the way; a transport
that has moved already; an amphibious assault fought as a land battle. In-process."""

from __future__ import annotations

from typing import Any

from aa_play import play
from fixed_rng import FixedRng

from pbem.dice import KeyedRng
from pbem.game import GameData, State, get_game, load_data

GAME = get_game("aa1914")


def data() -> GameData:
    return load_data("aa1914")


def position(units: dict[str, dict[str, dict[str, int]]], **changes: Any) -> State:
    state = GAME.setup(data(), {}, KeyedRng(b"\x02" * 32))
    state.update(power="britain", units=units, turn=2)
    state.update(changes)
    return state


def move(frm: str, to: str, units: dict[str, int], via: list[str]) -> dict[str, Any]:
    return {"move": {"from": frm, "to": to, "units": units, "via": via}}


def messages(s: State, *items: dict[str, Any]) -> list[str]:
    return [p.message for p in GAME.validate(data(), s, s["power"], {"orders": list(items)})]


ARMY = {"london": {"britain": {"infantry": 3, "artillery": 1}}}


def test_two_land_units_a_transport_exactly_enough_and_one_short() -> None:
    s = position({**ARMY, "sz09": {"britain": {"transport": 1}}})
    assert messages(s, move("london", "picardy", {"infantry": 1, "artillery": 1}, ["sz09"])) == []
    assert messages(s, move("london", "picardy", {"infantry": 3}, ["sz09"])) == [
        "3 land units need 2 transports of britain in SZ 9 that have not moved this turn; there is 1"]


def test_the_transports_sail_with_their_cargo_within_their_reach() -> None:
    s = position({**ARMY, "sz09": {"britain": {"transport": 1}}})
    assert messages(s, move("london", "scotland", {"infantry": 2}, ["sz09", "sz04"])) == []
    events, after = play(s, FixedRng(), move("london", "scotland", {"infantry": 2}, ["sz09", "sz04"]))
    assert events[0] == {"type": "moved", "power": "britain", "from": "london", "to": "scotland",
                         "via": ["sz09", "sz04"], "units": {"infantry": 2}, "transports": 1}
    assert after["units"]["sz04"]["britain"] == {"transport": 1} and after["units"]["sz09"]["britain"] == {}
    assert after["units"]["scotland"]["britain"]["infantry"] == 2
    assert GAME.summary(data(), events[0]) == (
        "Britain moves 2 infantry from London to Scotland by SZ 9, SZ 4 on 1 transport")
    too_far = move("london", "ireland", {"infantry": 1}, ["sz09", "sz04", "sz03", "sz07"])
    assert messages(s, too_far) == ["a transport moves at most 2 spaces a turn; this crossing is 3"]


def test_enemy_warships_and_minefields_on_the_way_stop_the_crossing() -> None:
    s = position({**ARMY, "sz09": {"britain": {"transport": 1}}, "sz04": {"germany": {"cruiser": 1}}})
    assert messages(s, move("london", "scotland", {"infantry": 2}, ["sz09", "sz04"])) == [
        "enemy cruiser in SZ 4: transports sail only through and unload in zones clear of them"]
    s["units"]["sz04"] = {"germany": {"submarine": 1}}  # a submarine does not
    assert messages(s, move("london", "scotland", {"infantry": 2}, ["sz09", "sz04"])) == []
    s["units"]["sz04"] = {}
    assert messages(s, move("london", "holland", {"infantry": 2}, ["sz09", "sz10"])) == [
        "carrying land units through the enemy minefield of SZ 10 is not refereed yet "
        "(games/aa1914/README.md)"]


def test_a_transport_that_has_moved_carries_nothing_more() -> None:
    s = position({**ARMY, "sz09": {"britain": {"transport": 1}}})
    assert messages(s, {"move": {"from": "sz09", "to": "sz04", "units": {"transport": 1}}},
                    move("london", "picardy", {"infantry": 1}, ["sz09"])) == [
        "1 land unit needs 1 transport of britain in SZ 9 that have not moved this turn; there are 0"]
    assert messages(s, move("london", "picardy", {"infantry": 2}, ["sz09"]),
                    move("london", "picardy", {"infantry": 1}, ["sz09"])) == [
        "1 land unit needs 1 transport of britain in SZ 9 that have not moved this turn; there are 0"]


def test_landing_in_hostile_territory_is_an_amphibious_assault() -> None:
    s = position({**ARMY, "sz09": {"britain": {"transport": 1}}, "picardy": {"germany": {"infantry": 1}}})
    s["control"]["picardy"] = "germany"
    # Britain's infantry 2 raised to 3 by the artillery, the artillery 3: dice 3, 6; Germany's 3: 6
    events, after = play(s, FixedRng(3, 6, 6), move("london", "picardy", {"infantry": 1, "artillery": 1}, ["sz09"]))
    assert [e["type"] for e in events if e["type"] in ("moved", "battle", "control")] == [
        "moved", "battle", "control"]
    assert after["control"]["picardy"] == "france"  # an ally's own territory goes back to it
