"""Red Russia's event lines in the reports: numbers agree with their nouns ("1 hit", not
"1 hits"), and a line without a zone has no empty subject (": south has no tank ...")."""

from __future__ import annotations

import importlib
from typing import Any

import pytest
from position import data

from pbem.names import counted

fold_rules = importlib.import_module("pbem_game_red_russia.fold")


def told(event: dict[str, Any]) -> str:
    return str(fold_rules.describe_event(data(), event))


@pytest.mark.parametrize(("n", "text"), [(0, "0 hits"), (1, "1 hit"), (2, "2 hits")])
def test_counted_agrees_with_its_number(n: int, text: str) -> None:
    assert counted(n, "hit") == text
    assert counted(n, "die", "dice") == text.replace("hits", "dice").replace("hit", "die")


def test_a_round_with_one_hit_says_one_hit() -> None:
    group = {"what": "units", "count": 2, "hit": 6, "values": [6, 1], "hits": 1}
    event = {"type": "combat_round", "zone": "Tver", "round": 1, "attacker": "red",
             "dice": {"atk": [group], "def": [{**group, "values": [1, 1], "hits": 0}]},
             "hits": {"atk": 1, "def": 0}}
    text = told(event)
    assert "= 1 hit" in text and "= 0 hits" in text and "1 hits" not in text


def test_a_leaders_loss_test_counts_its_steps() -> None:
    event = {"type": "leader_loss", "leader": "denikin", "zone": "Tver", "dice": [3, 4], "steps": 1,
             "fate": None, "result": "safe"}
    assert told(event).startswith("leader denikin: 3+4 + 1 step lost")


def test_a_note_without_a_zone_has_no_empty_subject() -> None:
    assert told({"type": "note", "zone": "", "text": "south has no tank waiting for the card"}) == (
        "south has no tank waiting for the card")
    assert told({"type": "note", "text": "nothing to do"}) == "nothing to do"
    assert told({"type": "note", "zone": "Tver", "text": "no battle"}) == "Tver: no battle"


def test_the_economys_counts_agree() -> None:
    attrition = {"type": "attrition", "zone": "Tver", "faction": "north", "count": 1, "zone_of": "own",
                 "limit": 0, "unit": "north-inf-01"}
    assert "1 north unit in its own zone" in told(attrition)
    upkeep = {"type": "maintenance", "faction": "north", "paid": 1, "units": 1, "money": 1, "manpower": 1}
    assert told(upkeep).startswith("north maintains 1 of 1 unit for 1 money")
    income = {"type": "collected", "faction": "north", "money": 3, "manpower": 2, "zones": 1}
    assert "from 1 zone (6.3)" in told(income)


def test_a_units_last_step_says_it_is_eliminated() -> None:
    assert told({"type": "reduced", "unit": "red-inf-01", "by": "combat"}) == "red-inf-01 loses a step (8.6)"
    assert told({"type": "reduced", "unit": "red-inf-01", "by": "combat", "eliminated": True}) == (
        "red-inf-01 loses its last step: eliminated (8.6)")
    assert told({"type": "reduced", "unit": "red-inf-01", "by": "Stalin's commissars (10.82)",
                 "eliminated": True}) == "Stalin's commissars (10.82) reduced red-inf-01: its last step, eliminated"
    attrition = {"type": "attrition", "zone": "Tver", "faction": "north", "count": 3, "zone_of": "other",
                 "limit": 1, "unit": "north-inf-01", "eliminated": True}
    assert told(attrition).endswith("limit 1: north-inf-01 loses its last step: eliminated (5.5)")
    unpaid = {"type": "unmaintained", "faction": "north", "unit": "north-inf-01", "zone": "Tver"}
    assert told(unpaid) == "north-inf-01 (north) is not maintained and loses a step (5.6)"
    assert told({**unpaid, "eliminated": True}) == (
        "north-inf-01 (north) is not maintained and loses its last step: eliminated (5.6)")
