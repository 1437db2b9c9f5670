"""Axis & Allies 1914 land units carried by sea (games/aa1914/rules/movement.py `_by_sea`):
the transports needed at two units each, exactly enough and one short; the crossing's length
at the transport's reach and one more; enemy warships on the way (minefields: the
transports roll, test_aa_sea_choices.py); a transport that has moved already; an amphibious
assault fought as a land battle. In-process."""

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


def test_sources_7_1_two_land_units_a_transport_exactly_enough_and_one_short() -> None:
    s = position({**ARMY, "sz09": {"britain": {"transport": 1}}})
    assert messages(s, move("london", "picardy", {"infantry": 1, "artillery": 1}, ["sz09"])) == []
    assert messages(s, move("london", "picardy", {"infantry": 3}, ["sz09"])) == [
        "3 land units need 2 transports of britain in SZ 9 that have not moved this turn; there is 1"]


def test_sources_0_the_transports_sail_with_their_cargo_within_their_reach() -> None:
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


def test_sources_7_5_enemy_warships_on_the_way_stop_the_crossing_and_minefields_do_not() -> None:
    s = position({**ARMY, "sz09": {"britain": {"transport": 1}}, "sz04": {"germany": {"cruiser": 1}}})
    assert messages(s, move("london", "scotland", {"infantry": 2}, ["sz09", "sz04"])) == [
        "enemy cruiser in SZ 4: transports sail only through and unload in zones clear of them"]
    s["units"]["sz04"] = {"germany": {"submarine": 1}}  # a submarine does not
    assert messages(s, move("london", "scotland", {"infantry": 2}, ["sz09", "sz04"])) == []
    s["units"]["sz04"] = {}
    # the transport rolls in SZ 10, Germany's field (test_aa_sea_choices.py: its cargo lost on a 1)
    assert messages(s, move("london", "holland", {"infantry": 2}, ["sz09", "sz10"])) == []


def test_sources_1_1_a_transport_that_has_moved_carries_nothing_more() -> None:
    s = position({**ARMY, "sz09": {"britain": {"transport": 1}}})
    assert messages(s, {"move": {"from": "sz09", "to": "sz04", "units": {"transport": 1}}},
                    move("london", "picardy", {"infantry": 1}, ["sz09"])) == [
        "1 land unit needs 1 transport of britain in SZ 9 that have not moved this turn; there are 0"]
    assert messages(s, move("london", "picardy", {"infantry": 2}, ["sz09"]),
                    move("london", "picardy", {"infantry": 1}, ["sz09"])) == [
        "1 land unit needs 1 transport of britain in SZ 9 that have not moved this turn; there are 0"]


def test_sources_7_2_landing_in_hostile_territory_is_an_amphibious_assault() -> None:
    s = position({**ARMY, "sz09": {"britain": {"transport": 1}}, "picardy": {"germany": {"infantry": 1}}})
    s["control"]["picardy"] = "germany"
    # Britain's infantry 2 raised to 3 by the artillery, the artillery 3: dice 3, 6; Germany's 3: 6
    events, after = play(s, FixedRng(3, 6, 6), move("london", "picardy", {"infantry": 1, "artillery": 1}, ["sz09"]))
    assert [e["type"] for e in events if e["type"] in ("moved", "battle", "control")] == [
        "moved", "battle", "control"]
    assert after["control"]["picardy"] == "france"  # an ally's own territory goes back to it


# ---------------------------------------------------------------------------------------
# an amphibious assault: coastal defence and bombardment


def assault(dice: FixedRng, battleships: int = 0, contested: bool = False,
            units: dict[str, int] | None = None) -> list[dict[str, Any]]:
    s = position({**ARMY, "sz09": {"britain": {"transport": 1, "battleship": battleships}},
                  "picardy": {"germany": {"artillery": 1}}})
    s["control"]["picardy"] = "germany"
    if contested:
        s["units"]["picardy"]["britain"] = {"infantry": 1}
        s["contested"] = ["picardy"]
    events, _ = play(s, dice, move("london", "picardy", units or {"infantry": 2}, ["sz09"]))
    return [e for e in events if e["type"] == "battle"]


def test_sources_7_4_coastal_defence_hits_a_landing_unit_at_3_and_misses_at_4() -> None:
    # the German artillery's coastal shot: 3 hits one infantry before it fights
    hit = assault(FixedRng(3, 6, 6))[0]
    assert hit["coastal"] == {"dice": [3], "hits": 1, "lost": {"infantry": 1}}
    assert hit["fire"]["attacker"] == [["infantry", 2, 6]] and hit["bombard"] == []
    assert "from the sea (coastal defence: 1 of 1 hit; bombardment: 0 shots)" in GAME.summary(data(), hit)
    miss = assault(FixedRng(4, 6, 6, 6))[0]
    assert miss["coastal"]["hits"] == 0 and len(miss["fire"]["attacker"]) == 2


def test_sources_7_3_battleships_bombard_once_each_and_no_more_than_the_units_landed() -> None:
    # coastal 6 misses; two battleships, one unit landed: one bombardment die, 4 hits;
    # then the infantry's 6 misses and the artillery's 6 misses
    battle = assault(FixedRng(6, 4, 6, 6), battleships=2, units={"infantry": 1})[0]
    assert battle["bombard"] == [4] and battle["hits"]["attacker"] == 1
    assert battle["losses"] == {"germany": {"artillery": 1}}
    missed = assault(FixedRng(6, 5, 6, 6), battleships=2, units={"infantry": 1})[0]
    assert missed["bombard"] == [5] and missed["hits"]["attacker"] == 0


def test_sources_7_2_reinforcing_a_contested_territory_by_sea_is_no_assault() -> None:
    battle = assault(FixedRng(6, 6, 6, 6), battleships=1, contested=True)
    assert len(battle) == 1 and "coastal" not in battle[0] and "bombard" not in battle[0]
