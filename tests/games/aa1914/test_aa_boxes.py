"""Axis & Allies 1914's battles as boxes in the report (rules/boxes.py): a land battle with its
air battle, supremacy, artillery support and the tanks' cancelled hits; an amphibious assault
with its coastal defence and bombardment; a sea battle replayed die by die with a damaged
battleship and unescorted transports; submarines submerging and a withdrawal; several
defending powers; no box without a battle. Dice fed on both sides of each value (a 2 against
a 2 hits, a 3 misses), so every hit count is exact. In-process, without git."""

from __future__ import annotations

from typing import Any

from aa_play import GAME, move, play, position
from fixed_rng import FixedRng

from pbem.game import GameData, State, boxes, load_data


def data() -> GameData:
    return load_data("aa1914")


def kinds(events: list[dict[str, Any]]) -> list[str]:
    return [e["type"] for e in events]


def boxed(state: State, events: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """The boxes pbem asks the game for (pbem.game.boxes), from the state before the step."""
    return boxes(GAME, data(), state, events)


# ---------------------------------------------------------------------------------------
# on land


def test_sources_2_a_land_battle_with_air_battle_supremacy_support_and_tanks() -> None:
    army = {"infantry": 4, "artillery": 2, "tank": 2, "fighter": 1}
    s = position("germany", {"alsace": {"germany": army},
                             "lorraine": {"france": {"infantry": 3, "artillery": 1, "fighter": 1}}})
    # the air battle: the German 2 hits, the French 3 misses: German air supremacy (4 artillery);
    # the round: 2 infantry raised to 3 (3 hits, 4 misses), 2 at 2 (2 hits, 3 misses), the
    # artillery at 4 (4 hits, 5 misses), the tanks at 2 (2, 3), the fighter at 2 (1);
    # France: its infantry at 3 (3 and 1 hit, 4 misses), its artillery at 3 (4 misses)
    dice = FixedRng(2, 3, 3, 4, 2, 3, 4, 5, 2, 3, 1, 3, 4, 1, 4)
    events, _ = play(s, dice, move("alsace", "lorraine", army))
    (box,) = boxed(s, events)
    assert kinds(events)[box["first"]:box["last"] + 1] == ["battle", "control"]
    assert box["told"] == [box["first"]]  # "Germany takes Lorraine" stays below, as the log says it
    assert box["title"] == "Battle of Lorraine: Germany attacks France"
    assert box["columns"] == ["", "Germany (attacker)", "France (defender)"]
    assert box["rows"] == [
        ["Units", "4 infantry at 2, 2 artillery at 3, 2 tanks at 2, 1 fighter at 2",
         "3 infantry at 3, 1 artillery at 3, 1 fighter at 2"],
        ["Air battle 1 (2.1)", "fighter hit on 1-2 (fighters at fighters): 2 = 1 hit",
         "fighter hit on 1-2 (fighters at fighters): 3 = 0 hits"],
        ["Air supremacy (2.2)", "artillery +1", ""],
        ["Round (2.5)",
         "infantry hit on 1-3 (attack 2, +1 artillery support 2.4): 3 4 = 1 hit; "
         "infantry hit on 1-2 (attack 2): 2 3 = 1 hit; "
         "artillery hit on 1-4 (attack 3, +1 air supremacy 2.2): 4 5 = 1 hit; "
         "tank hit on 1-2 (attack 2): 2 3 = 1 hit; "
         "fighter hit on 1-2 (attack 2, after the air battle 2.3): 1 = 1 hit",
         "infantry hit on 1-3 (defence 3): 3 4 1 = 2 hits; artillery hit on 1-3 (defence 3): 4 = 0 hits"],
        ["Hits", "5", "2, 2 cancelled by the attacking tanks (2.6)"],
        ["Losses (3.3)", "none", "3 infantry, 1 artillery, 1 fighter"],
    ]


def test_sources_7_3_7_4_an_amphibious_assault_tells_the_coastal_defence_and_the_bombardment() -> None:
    s = position("britain", {"london": {"britain": {"infantry": 2}},
                             "sz09": {"britain": {"transport": 1, "battleship": 2}},
                             "picardy": {"germany": {"artillery": 2}}})
    s["control"]["picardy"] = "germany"
    # coastal defence: 3 hits a landing infantry, 4 misses; bombardment (one battleship for
    # each of the two units landed): 4 hits, 5 misses; the infantry left: 2 hits; the German
    # artillery: 3 hits, 4 misses
    events, _ = play(s, FixedRng(3, 4, 4, 5, 2, 3, 4),
                     move("london", "picardy", {"infantry": 2}, ["sz09"]))
    (box,) = boxed(s, events)
    assert box["title"] == "Battle of Picardy: Britain attacks Germany from the sea"
    assert box["rows"] == [
        ["Units", "2 infantry at 2", "2 artillery at 3"],
        ["Coastal defence (7.4)", "lost before landing: 1 infantry",
         "artillery hit on 1-3 (defence 3, one shot each at the units landing): 3 4 = 1 hit"],
        ["Bombardment (7.3)", "battleship hit on 1-4 (attack 4, one for each unit landed): 4 5 = 1 hit", ""],
        ["Round (2.5)", "infantry hit on 1-2 (attack 2): 2 = 1 hit",
         "artillery hit on 1-3 (defence 3): 3 4 = 1 hit"],
        ["Hits", "2 (with the bombardment's)", "1"],
        ["Losses (3.3)", "2 infantry", "2 artillery"],
    ]
    notes = [GAME.summary(data(), events[k]) for k in range(box["first"], box["last"] + 1)
             if k not in box["told"]]
    assert notes == ["Picardy stays with Germany"]  # nobody is left: the log's line tells the end


def test_ruling_several_defending_powers_are_named_and_lose_from_the_largest_stack() -> None:
    s = position("germany", {"alsace": {"germany": {"infantry": 1}},
                             "lorraine": {"france": {"infantry": 1}, "britain": {"infantry": 2}}})
    # Germany's 2 hits; the defenders' 3 hits, 4 and 6 miss
    events, _ = play(s, FixedRng(2, 3, 4, 6), move("alsace", "lorraine", {"infantry": 1}))
    (box,) = boxed(s, events)
    assert box["title"] == "Battle of Lorraine: Germany attacks France and Britain"
    assert box["columns"][2] == "France and Britain (defender)"
    assert box["rows"][0] == ["Units", "1 infantry at 2", "France: 1 infantry at 3; Britain: 2 infantry at 3"]
    assert box["rows"][-2:] == [["Hits", "1", "1"],
                                ["Losses (3.3)", "1 infantry", "Britain: 1 infantry"]]


# ---------------------------------------------------------------------------------------
# at sea


def test_sources_6_a_sea_battle_replayed_die_by_die() -> None:
    s = position("britain", {"sz09": {"britain": {"cruiser": 2, "battleship": 1}},
                             "sz05": {"germany": {"cruiser": 2, "transport": 1, "battleship": 1}}},
                 damaged={"sz05": {"germany": 1}})
    # round 1, Britain: the battleship's 4 hits, the cruisers' 3 hits and 5 misses; Germany:
    # the cruisers' 3 hits and 6 misses, the damaged battleship's 4 hits. Britain's battleship
    # is damaged and a cruiser sunk, both German cruisers sunk. Round 2: Britain's cruiser 3
    # hits, its damaged battleship's 6 misses; the German battleship's 5 misses and it sinks;
    # the transport, alone, is lost
    events, _ = play(s, FixedRng(4, 3, 5, 3, 6, 4, 3, 6, 5),
                     move("sz09", "sz05", {"cruiser": 2, "battleship": 1}))
    (box,) = boxed(s, events)
    at = kinds(events).index("sea_battle")
    assert (box["first"], box["last"], box["told"]) == (at, at, [at])
    assert box["title"] == "Sea battle in SZ 5: Britain attacks Germany"
    assert box["columns"] == ["", "Britain (attacker)", "Germany (defender)"]
    damaged = "battleship (damaged) hit on 1-4 ({} 4; a damaged battleship fights on 6.8)"
    assert box["rows"] == [
        ["Ships", "2 cruisers at 3, 1 battleship at 4",
         "2 cruisers at 3, 1 battleship (damaged) at 4, 1 transport (no dice)"],
        ["Round 1", "battleship hit on 1-4 (attack 4): 4 = 1 hit; cruiser hit on 1-3 (attack 3): 3 5 = 1 hit "
         "(total 2 hits)",
         f"cruiser hit on 1-3 (defence 3): 3 6 = 1 hit; {damaged.format('defence')}: 4 = 1 hit (total 2 hits)"],
        ["Round 1: lost (6.5)", "1 battleship damaged, 1 cruiser sunk", "2 cruisers sunk"],
        ["Round 2", f"cruiser hit on 1-3 (attack 3): 3 = 1 hit; {damaged.format('attack')}: 6 = 0 hits "
         "(total 1 hit)", f"{damaged.format('defence')}: 5 = 0 hits (total 0 hits)"],
        ["Round 2: lost (6.5)", "nothing", "1 battleship sunk"],
        ["Unescorted transports (6.6)", "", "1 transport lost"],
        ["Sunk", "1 cruiser", "2 cruisers, 1 battleship, 1 transport"],
        ["Damaged battleships (6.5)", "1 battleship", "none"],
    ]


def test_sources_6_5_a_sound_battleship_hit_twice_in_a_round_is_damaged_and_sunk() -> None:
    s = position("britain", {"sz09": {"britain": {"cruiser": 2}}, "sz05": {"germany": {"battleship": 1}}})
    # the cruisers' 3 and 2 hit; the battleship's 5 misses
    events, _ = play(s, FixedRng(3, 2, 5), move("sz09", "sz05", {"cruiser": 2}))
    (box,) = boxed(s, events)
    assert box["rows"][2] == ["Round 1: lost (6.5)", "nothing", "1 battleship damaged, 1 battleship sunk"]
    assert box["rows"][-1] == ["Sunk", "none", "1 battleship"]


def test_sources_6_4_the_defenders_submarine_submerges_after_the_round() -> None:
    s = position("britain", {"sz09": {"britain": {"cruiser": 2}},
                             "sz05": {"germany": {"cruiser": 1, "submarine": 1}}},
                 standing={"germany": {"submerge": True, "sea_losses": ["cruiser"]}})
    # the British 3 sinks the cruiser, 4 misses; the cruiser's 4 and the sub's 3 miss
    events, _ = play(s, FixedRng(3, 4, 4, 3), move("sz09", "sz05", {"cruiser": 2}))
    (box,) = boxed(s, events)
    assert box["rows"] == [
        ["Ships", "2 cruisers at 3", "1 submarine at 2, 1 cruiser at 3"],
        ["Round 1", "cruiser hit on 1-3 (attack 3): 3 4 = 1 hit (total 1 hit)",
         "cruiser hit on 1-3 (defence 3): 4 = 0 hits; submarine hit on 1-2 (defence 2): 3 = 0 hits "
         "(total 0 hits)"],
        ["Round 1: lost (6.5)", "nothing", "1 cruiser sunk"],
        ["After round 1: submerged (6.4)", "", "1 submarine"],
        ["Sunk", "none", "1 cruiser"],
    ]


def test_sources_6_1_the_attacker_withdraws() -> None:
    s = position("britain", {"sz09": {"britain": {"cruiser": 2}}, "sz05": {"germany": {"cruiser": 2}}})
    # a 3 hits and a 4 misses on each side; Britain withdraws after round 1
    events, _ = play(s, FixedRng(3, 4, 3, 4), move("sz09", "sz05", {"cruiser": 2}),
                     standing={"sea_withdraw": {"after_round": 1}})
    (box,) = boxed(s, events)
    assert box["rows"][-3:] == [
        ["Round 1: lost (6.5)", "1 cruiser sunk", "1 cruiser sunk"],
        ["Sunk", "1 cruiser", "1 cruiser"],
        ["Withdrew (6.1)", "1 cruiser to SZ 9 (after round 1)", ""],
    ]


def test_a_land_and_a_sea_battle_in_one_step_each_get_their_box() -> None:
    s = position("britain", {"sz09": {"britain": {"cruiser": 1}}, "sz05": {"germany": {"cruiser": 1}},
                             "london": {"britain": {"infantry": 1}}, "sz08": {"britain": {"transport": 1}},
                             "picardy": {"germany": {"infantry": 1}}})
    s["control"]["picardy"] = "germany"
    # at sea: the British 3 sinks the German cruiser, whose 4 misses; ashore (no artillery: no
    # coastal defence, no battleship: no bombardment): the British 3 misses, the German 3 hits
    events, _ = play(s, FixedRng(3, 4, 3, 3), move("sz09", "sz05", {"cruiser": 1}),
                     move("london", "picardy", {"infantry": 1}, ["sz08"]))
    sea, land = boxed(s, events)
    assert sea["title"] == "Sea battle in SZ 5: Britain attacks Germany"
    assert land["title"] == "Battle of Picardy: Britain attacks Germany from the sea"
    assert land["rows"][1:3] == [["Coastal defence (7.4)", "lost before landing: none", "no artillery"],
                                 ["Bombardment (7.3)", "no battleship", ""]]
    assert sea["last"] < land["first"]


# ---------------------------------------------------------------------------------------
# no battle


def test_a_step_without_a_battle_has_no_box() -> None:
    s = position("germany", {"alsace": {"germany": {"infantry": 1}}})
    events, _ = play(s, FixedRng(), move("alsace", "munich", {"infantry": 1}), {"buy": {"infantry": 1}})
    assert "battle" not in kinds(events) and boxed(s, events) == []
    assert boxed(s, []) == []
