"""The standing instructions every purchase and action template offers (rules/standing.py,
pbem.game.standing_offer): each of ORDERS.md's table with its value in force, what applies
when it is not set, and what setting it saves; none in the other phases."""

from __future__ import annotations

import importlib
import re
from pathlib import Path

from position import GAME, data, position

from pbem.game import standing_lines, standing_offer

standing_rules = importlib.import_module("pbem_game_red_russia.standing")
ORDERS_MD = Path(__file__).resolve().parents[3] / "games" / "red_russia" / "ORDERS.md"


def keys(faction: str, **options: bool) -> list[str]:
    state = position({}, options=options)
    return [item["key"] for item in standing_offer(GAME, data(), state, faction)]


def test_every_instruction_the_rules_take_is_offered_and_only_those() -> None:
    assert set(standing_rules.OFFER) == set(standing_rules.STANDING_KEYS)
    text = ORDERS_MD.read_text(encoding="utf-8")
    section = text[text.index("## Standing instructions"):text.index("## Questions by mail")]
    table = re.findall(r"^\| `(\w+)` \|", section, re.M)
    assert list(standing_rules.OFFER) == table  # in ORDERS.md's order


def test_the_reds_own_instructions_go_to_the_reds_only() -> None:
    red, south = keys("red"), keys("south")
    for key in ("lenin_initiative", "stalin_commissars"):
        assert key in red and key not in south
    assert "retreat_before_combat" in red and "retreat_before_combat" in south
    assert set(red) - set(south) == {"lenin_initiative", "stalin_commissars"}


def test_famine_relief_only_with_the_famine_option() -> None:
    assert "famine_relief" not in keys("red")
    assert "famine_relief" in keys("red", famine=True, railways=True)
    assert "famine_relief" not in keys("siberian", famine=True, railways=True)


def test_only_the_phases_that_take_instructions_offer_them() -> None:
    state = position({})
    assert state["phase"] == "action" and standing_offer(GAME, data(), state, "red")
    state["phase"] = "purchase"
    assert standing_offer(GAME, data(), state, "red")
    for phase in ("initiative", "decision", "setup-place", "victory"):
        state["phase"] = phase
        assert standing_offer(GAME, data(), state, "red") == [], phase


def test_the_value_in_force_and_the_default() -> None:
    state = position({})
    state["standing"]["south"] = {"retreat_before_combat": "always", "retreat_to": ["Tver", "Kursk"]}
    offer = {i["key"]: i for i in standing_offer(GAME, data(), state, "south")}
    assert offer["retreat_before_combat"]["value"] == "always"
    assert offer["retreat_to"]["value"] == ["Tver", "Kursk"]
    assert offer["loss_order"]["value"] is None
    lines = standing_lines(list(offer.values()))
    assert "  retreat_before_combat: always  [never | always | ask; 8.4]" in lines
    assert "  retreat_to: [Tver, Kursk]  [[zones in order]; 8.4, 8.7]" in lines
    assert "  voluntary_retreat not set (never)  [never | when_outnumbered; 8.7]" in lines
    # what asking costs is said where the question can be asked
    at = lines.index("  retreat_before_combat: always  [never | always | ask; 8.4]")
    assert "ask costs a mail round trip" in lines[at + 1]


def test_standing_lines_of_nothing_is_nothing() -> None:
    assert standing_lines([]) == []
    one = [{"key": "k", "value": True, "values": "true | false", "default": "false",
            "rule": "1.1", "saves": "a round trip"}]
    assert standing_lines(one)[-2:] == ["  k: true  [true | false; 1.1]", "      a round trip"]
    assert standing_lines([{**one[0], "value": {"a": [1, False]}}])[-2] == \
        "  k: {a: [1, false]}  [true | false; 1.1]"
