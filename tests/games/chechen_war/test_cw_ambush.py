"""The Chechen Ambush Segment (14.0) and the gunship threat (14.2) as rule tables
(games/chechen_war/rules/ambush.py): the 14.2 worked example's dice and outcomes under the
rulings recorded in the game's README (14.1's "not both" wins over the example's support from
1426; the example's free ambush is fought here as an ordinary one), each clause of 14.1, the
results at each row of the table, step losses and retreats. In-process, without git."""

from __future__ import annotations

import importlib
from typing import Any

import pytest
from fixed_rng import FixedRng

from pbem.dice import KeyedRng
from pbem.game import GameData, State, get_game, load_data

GAME = get_game("chechen_war")
board_ = importlib.import_module("pbem_game_chechen_war.board")
B = board_.board(load_data("chechen_war"))


def data() -> GameData:
    return load_data("chechen_war")


def position(russians: dict[str, str], tokens: dict[str, str | None], **changes: Any) -> State:
    """Turn 1's Chechen Ambush Segment; tokens by hex, each with its unit as the reader
    sees it (None: still sealed)."""
    s = GAME.setup(data(), {"end_of_turn": "asked"}, KeyedRng(b"\x06" * 32))  # asked: the End of Turn file (ahead: test_cw_ahead.py)
    s.update(turn=1, phase="chechen-ambush",
             russians={u: {"hex": h, "reduced": False} for u, h in russians.items()},
             tokens={f"t{k + 1:02d}": {"hex": h, "unit": u if u else {"sealed": "x", "commitment": "y"}}
                     for k, (h, u) in enumerate(tokens.items())})
    s.update(changes)
    return s


def ambush(frm: str, target: str, support: str | None = None, leader: str | None = None) -> dict[str, Any]:
    body: dict[str, Any] = {"from": frm, "target": target}
    if support:
        body["support"] = support
    if leader:
        body["leader"] = leader
    return {"ambush": body}


def messages(s: State, *items: dict[str, Any]) -> list[str]:
    return [p.message for p in GAME.validate(data(), s, "chechen", {"orders": list(items)})]


def fight(s: State, dice: FixedRng, *items: dict[str, Any]) -> tuple[list[dict[str, Any]], State]:
    assert messages(s, *items) == []
    events = GAME.resolve(data(), s, {"chechen": {"orders": list(items)}}, dice)
    assert dice.values == []
    after = s
    for e in events:
        after = GAME.apply(data(), after, e)
    return events, after


def of(events: list[dict[str, Any]], kind: str) -> list[dict[str, Any]]:
    return [e for e in events if e["type"] == kind]


# the 14.2 example: the 503rd in 1525, the 33rd and the 276th's partner in 1326, the 276th
# under a gunship in 1427; Chechen units in 1426 (clear), 1325 (clear), 1226 (town), 1126
EXAMPLE_RUSSIANS = {"ru_503_mr_regt": "1525", "ru_33_mr_regt": "1326", "ru_255_mr_regt": "1326",
                    "ru_276_mech_regt": "1427"}
EXAMPLE_TOKENS: dict[str, str | None] = {"1426": None, "1325": None, "1226": None, "1126": None}


def example() -> State:
    return position(EXAMPLE_RUSSIANS, EXAMPLE_TOKENS, gunships=["1427"],
                    standing={"russian": {"retreat_first": ["ru_33_mr_regt"]}})


def test_14_2_the_first_ambush_clear_3_minus_1_is_2_no_effect() -> None:
    events, after = fight(example(), FixedRng(3), ambush("1426", "1525"))
    told = of(events, "ambush")[0]
    assert (told["roll"], told["total"], told["result"]) == (3, 2, "none")
    assert told["modifiers"] == [[-1, "the ambushers in clear (14.3)"]]
    assert after["russians"] == example()["russians"]


def test_14_2_the_second_ambush_4_minus_1_plus_leader_plus_support_is_5_retreat() -> None:
    # (the example names 1426 as the support, which 14.1 forbids after it ambushed: 1226 here)
    events, after = fight(example(), FixedRng(3, 4, 1), ambush("1426", "1525"),
                          ambush("1325", "1326", support="1226", leader="ch_basayev"))
    second = of(events, "ambush")[1]
    assert (second["roll"], second["total"], second["result"]) == (4, 5, "retreat")
    assert of(events, "retreat_roll") == [{"type": "retreat_roll", "roll": 1, "count": 1}]
    retreat = of(events, "retreated")[0]
    assert retreat["units"] == ["ru_33_mr_regt"]  # the Russian's standing choice
    assert after["russians"]["ru_33_mr_regt"]["hex"] == retreat["to"] != "1326"
    assert after["leaders"]["ch_basayev"] == "1325"
    assert GAME.summary(data(), second) == (
        "ambush from 1325 on 1326, supported from 1226: die 4 -1 (the ambushers in clear (14.3)) "
        "+1 (a leader (14.3 b)) +1 (a supporting hex (14.3 c)) = 5: retreat")


def test_14_2_the_last_ambush_6_plus_support_minus_town_is_6_one_step() -> None:
    s = position({"ru_33_mr_regt": "1227"}, {"1226": None, "1126": None})
    events, after = fight(s, FixedRng(6), ambush("1226", "1227", support="1126"))
    told = of(events, "ambush")[0]
    assert (told["total"], told["result"]) == (6, "lose_1_step")
    assert of(events, "steps_lost")[0]["reduced"] == ["ru_33_mr_regt"]
    assert after["russians"]["ru_33_mr_regt"]["reduced"] is True and after["casualties"] == 1


@pytest.mark.parametrize(("die", "result"), [(3, "none"), (4, "none"), (5, "retreat"), (6, "retreat")])
def test_the_table_at_each_row_from_a_clear_hex(die: int, result: str) -> None:
    s = position({"ru_503_mr_regt": "1525"}, {"1426": None})
    dice = FixedRng(die, 6) if result == "retreat" else FixedRng(die)
    events, _ = fight(s, dice, ambush("1426", "1525"))
    assert of(events, "ambush")[0]["result"] == result


def test_two_steps_eliminate_a_full_two_step_unit_to_the_pool() -> None:
    # 6 +1 rough +1 support +1 leader = 9: the table's 8+ (a clear hex reaches only 7)
    rough = next(h for h in B.grid.neighbours("1525") if B.terrain[h] in ("rough", "mountain")
                 and B.region[h] == "chechnya")
    s = position({"ru_503_mr_regt": "1525"}, {rough: None, "1426": None})
    events, after = fight(s, FixedRng(6), ambush(rough, "1525", support="1426", leader="ch_dudayev"))
    assert of(events, "ambush")[0]["result"] == "lose_2_steps"
    assert of(events, "steps_lost")[0]["eliminated"] == ["ru_503_mr_regt"]
    assert "ru_503_mr_regt" not in after["russians"] and "ru_503_mr_regt" in after["pool"]
    assert after["casualties"] == 2


# ---------------------------------------------------------------------------------------
# 14.1, 14.2, 10.1: who may ambush whom


def test_14_1_each_clause() -> None:
    s = example()
    assert messages(s, ambush("1126", "1525")) == ["1525 (Urus-Martan) is not in the zone of control of 1126 (14.1)"]
    assert messages(s, ambush("1426", "1427")) == [
        "a gunship threatens 1427 (Achkhoy-Martan): it cannot be ambushed (14.2)"]
    assert messages(s, ambush("1426", "1326"), ambush("1325", "1326")) == [
        "1326 is ambushed once a segment (14.1)"]
    assert messages(s, ambush("1426", "1525"), ambush("1325", "1326", support="1426")) == [
        "1426 conducts or supports one ambush a segment, not both (14.1)"]
    assert messages(s, ambush("1325", "1326", support="1126")) == [
        "a support hex is another hex of your units next to 1326 (14.1)"]
    assert messages(s, ambush("1325", "1326", leader="ch_basayev"),
                    ambush("1426", "1525", leader="ch_basayev")) == [
        "ch_basayev is not in the underground box (14.3: a leader comes from there)"]
    assert messages(s, ambush("1427", "1326")) == ["1427 (Achkhoy-Martan) holds none of your units"]


def test_10_1_no_ambush_into_a_hex_the_ambushers_could_not_enter() -> None:
    a, b = next((x, y) for x in sorted(B.terrain) for y in B.grid.neighbours(x)
                if B.region[x] == "chechnya" and B.region[y] == "stavropol")
    s = position({"ru_68_recon_bn": b}, {a: "ch_militia_01"})
    assert messages(s, ambush(a, b)) == [
        f"{B.label(b)} is outside Chechnya: Chechen units cannot enter it, so they cannot ambush "
        "there (10.1, 8.2)"]
    c, d = next((x, y) for x in sorted(B.terrain) for y in B.grid.neighbours(x)
                if B.region[x] == "chechnya" and B.region[y] == "dagestan")
    assert messages(position({"ru_68_recon_bn": d}, {c: "ch_militia_01"}), ambush(c, d)) == []
    assert messages(position({"ru_68_recon_bn": d}, {c: "ch_presidential_guard"}), ambush(c, d)) == [
        "t01 is not militia: only militia enter Dagestan, and so ambush there (10.1, 8.2)"]


def test_14_2_gunships_threaten_russian_hexes_at_the_end_of_the_movement_segment() -> None:
    s = position({"ru_503_mr_regt": "1525", "ru_33_mr_regt": "0731"}, {}, phase="russian-movement")
    orders = {"orders": [{"gunship": "1525"}, {"gunship": "0731"}]}
    assert GAME.validate(data(), s, "russian", orders) == []
    events = GAME.resolve(data(), s, {"russian": orders}, FixedRng())
    assert events[0] == {"type": "gunships", "hexes": ["1525", "0731"]}
    after = GAME.apply(data(), s, events[0])
    assert after["gunships"] == ["1525", "0731"] and after["supports"]["russian"]["gunship"] == 0
    found = [p.message for p in GAME.validate(data(), s, "russian", {"orders": [
        {"gunship": "1525"}, {"gunship": "0731"}, {"gunship": "1525"}, {"gunship": "1426"}]})]
    assert found == ["1525 (Urus-Martan) is threatened already",
                     "1426 holds no Russian unit at the end of the segment: a gunship threatens a "
                     "Russian-occupied hex (14.2)"]
    three = position({"ru_503_mr_regt": "1525", "ru_33_mr_regt": "0731", "ru_255_mr_regt": "0617"},
                     {}, phase="russian-movement")
    assert [p.message for p in GAME.validate(data(), three, "russian", {"orders": [
        {"gunship": "1525"}, {"gunship": "0731"}, {"gunship": "0617"}]})] == [
        "2 gunship markers available (14.2)"]


# ---------------------------------------------------------------------------------------
# the Russian's choices, by his standing instructions or the rulings


ambush_ = importlib.import_module("pbem_game_chechen_war.ambush")


@pytest.mark.parametrize(("steps", "standing", "lost"), [
    (1, None, {"ru_131_mech_bde": 1}),                          # the strongest full two-step unit
    (2, None, {"ru_131_mech_bde": 1, "ru_81_mech_regt": 1}),    # then the next full two-step one
    # then the weakest: the reduced 81st (CF 2) and the MVD (CF 2) tie; the lower id goes
    (3, None, {"ru_131_mech_bde": 1, "ru_81_mech_regt": 2}),
    (1, ["ru_mvd_regt_1"], {"ru_mvd_regt_1": 1}),               # the standing order first
    (2, ["ru_131_mech_bde"], {"ru_131_mech_bde": 2}),
])
def test_which_units_lose_the_steps(steps: int, standing: list[str] | None, lost: dict[str, int]) -> None:
    here = {"ru_131_mech_bde": "1525", "ru_81_mech_regt": "1525", "ru_mvd_regt_1": "1525"}
    s = position(here, {}, standing={"russian": {"step_losses": standing}} if standing else {})
    assert ambush_.step_losses(data(), s, sorted(here), steps) == lost


def test_a_reduced_unit_counts_at_its_reduced_strength() -> None:
    here = {"ru_131_mech_bde": "1525", "ru_mvd_regt_1": "1525"}  # CF 6 (3 reduced) and 2
    s = position(here, {})
    s["russians"]["ru_131_mech_bde"]["reduced"] = True
    assert ambush_.step_losses(data(), s, sorted(here), 1) == {"ru_mvd_regt_1": 1}  # 2 < 3
    s["russians"]["ru_131_mech_bde"]["reduced"] = False
    assert ambush_.step_losses(data(), s, sorted(here), 1) == {"ru_131_mech_bde": 1}


def test_retreats_go_out_of_zones_of_control_then_away_from_the_ambushers() -> None:
    s = position({"ru_33_mr_regt": "1326"}, {"1325": None})
    b = B
    to = ambush_._retreat_hex(data(), b, s, {"from": "1325", "target": "1326"}, 1)
    zoc = set(b.grid.neighbours("1325"))
    free = [h for h in b.grid.neighbours("1326") if h != "1325" and h not in zoc]
    best = max(b.grid.distance(h, "1325") for h in free)
    assert to in free and b.grid.distance(to, "1325") == best
    assert to == min(h for h in free if b.grid.distance(h, "1325") == best)


def test_a_retreat_with_no_room_anywhere_stays() -> None:
    around = B.grid.neighbours("1326")
    tokens: dict[str, str | None] = {h: None for h in around}
    s = position({"ru_33_mr_regt": "1326"}, tokens)
    assert ambush_._retreat_hex(data(), B, s, {"from": around[0], "target": "1326"}, 1) == "1326"


def test_several_regular_ambushers_are_named_together() -> None:
    c, d = next((x, y) for x in sorted(B.terrain) for y in B.grid.neighbours(x)
                if B.region[x] == "chechnya" and B.region[y] == "dagestan")
    s = position({"ru_68_recon_bn": d}, {c: "ch_presidential_guard"})
    s["tokens"]["t02"] = {"hex": c, "unit": "ch_abkhaz_bn"}
    assert messages(s, ambush(c, d)) == [
        "t01, t02 are not militia: only militia enter Dagestan, and so ambush there (10.1, 8.2)"]


# ---------------------------------------------------------------------------------------
# 14.3: free ambushes on units that retreat


def free(frm: str, support: str | None = None, leader: str | None = None) -> dict[str, Any]:
    body: dict[str, Any] = {"from": frm}
    if support:
        body["support"] = support
    if leader:
        body["leader"] = leader
    return {"free": body}


def test_14_2_the_whole_example_with_its_free_ambush() -> None:
    # the 33rd retreats next to 1226, which supported the second ambush and still springs a
    # free one on it, supported by 1126: 6 +1 (support) -1 (a town) = 6, one step (14.2)
    s = example()
    s["standing"]["russian"]["retreat_to"] = ["1227"]  # "He chooses to retreat the 33rd ... into hex 1227"
    events, after = fight(s, FixedRng(3, 4, 1, 6), ambush("1426", "1525"),
                          ambush("1325", "1326", support="1226", leader="ch_basayev"),
                          free("1226", support="1126"))
    to = of(events, "retreated")[0]["to"]
    assert to == "1227"
    third = of(events, "ambush")[2]
    assert (third["from"], third["target"], third["support"], third["free"]) == ("1226", to, "1126", True)
    assert (third["total"], third["result"]) == (6, "lose_1_step")
    assert after["russians"]["ru_33_mr_regt"]["reduced"] is True
    assert GAME.summary(data(), third).startswith(f"free ambush (14.3) from 1226 on {to}, supported from 1126")


def test_a_free_ambush_springs_only_next_to_the_hex_retreated_into_and_once() -> None:
    s = example()
    # 1525's retreat on a 5 (retreat), die 2 halved: one unit; nothing ready next to it
    events, _ = fight(s, FixedRng(6, 2), ambush("1426", "1525"), free("1126"))
    assert len(of(events, "ambush")) == 1 and len(of(events, "retreated")) == 1


def test_free_ambush_orders_are_checked() -> None:
    s = example()
    assert messages(s, free("1524")) == ["1524 holds none of your units"]
    assert messages(s, free("1226", support="1226")) == ["a support hex is another hex of your units (14.1)"]
    assert messages(s, free("1226", leader="ch_nobody"))[0].startswith("'ch_nobody' is not a leader")
    assert messages(s, free("1226", support="1126", leader="ch_dudayev")) == []


def test_the_russians_retreat_to_hexes_are_followed_where_they_may_be() -> None:
    s = example()
    s["standing"]["russian"]["retreat_to"] = ["1226", "1227"]  # 1226 holds Chechen units: skipped
    events, _ = fight(s, FixedRng(4, 1), ambush("1325", "1326", support="1226", leader="ch_basayev"))
    assert of(events, "retreated")[0]["to"] == "1227"
    s["standing"]["russian"]["retreat_to"] = ["0101"]  # not next to 1326: the ruling decides
    events, _ = fight(s, FixedRng(4, 1), ambush("1325", "1326", support="1226", leader="ch_basayev"))
    assert of(events, "retreated")[0]["to"] == "1327"
    moves = {"orders": [], "standing": {"retreat_to": [1227]}}
    s.update(phase="russian-movement")
    assert [p.message for p in GAME.validate(data(), s, "russian", moves)][0].startswith("hex id 1227")


def test_the_bots_ambushes_are_legal_and_hold_a_free_one_ready() -> None:
    s = example()
    seen = []
    for seed in range(8):
        orders = GAME.bot(data(), s, "chechen", KeyedRng(bytes([seed]) * 32))
        assert messages(s, *orders["orders"]) == []
        seen.append(orders["orders"])
    assert any(any("ambush" in o for o in orders) for orders in seen)
    assert all(any("free" in o for o in orders) for orders in seen)
    assert all(o["ambush"]["target"] != "1427" for orders in seen for o in orders if "ambush" in o)  # the gunship
