"""Red Russia's secret part (8.3, the money spent on each battle) is the player's own words:
pbem's sealing fields in it are refused (the rules took a `sealed:` key as a part pbem had
sealed and checked already, so a file could spend more than the faction holds), a secret part
in a phase that takes none is refused, and its shape is the action phase's schema. The whole
orders check (pbem/orders.py) with the game's rules, in-process."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from position import GAME, data, position

from pbem import orders

PIECES = {"red-inf-01": "Petrograd", "red-inf-02": "Petrograd", "north-inf-01": "Petrograd"}
ATTACK = [{"attack": {"zone": "Petrograd"}}]


def check(tmp_path: Path, secret: Any, phase: str = "action") -> list[str]:
    state = position(PIECES)
    state["standing"] = {}
    state["phase"] = phase
    body = {"campaign": "rr", "turn": 3, "phase": phase, "faction": "red",
            "orders": ATTACK if phase == "action" else [], "secret": secret}
    path = tmp_path / "o.yaml"
    path.write_text(json.dumps(body, indent=1) + "\n")
    checked = orders.check_orders(
        path, campaign_id="rr", phase=GAME.phase(data(), state), game=GAME, data=data(),
        game_state=state, factions=["red", "siberian", "south", "north"])
    return [p.replace(str(path), "FILE") for p in checked.problems]


def test_the_spending_is_checked_when_given_as_it_should_be(tmp_path: Path) -> None:
    assert check(tmp_path, {"spend": {"Petrograd": 3}}) == []
    assert check(tmp_path, {"spend": {"Petrograd": 4}}) == [
        "FILE:14: give the money spent on Petrograd under secret: spend: (1 probe, 3 assault, 5 "
        "invasion; 8.3)"]


def test_8_3_a_secret_part_the_player_marked_sealed_himself_is_refused(tmp_path: Path) -> None:
    """Before, `sealed:` in the secret part skipped every check of the spending (8.3, 6.4)."""
    found = check(tmp_path, {"sealed": "yes", "spend": {"Petrograd": 99}})
    assert found[0] == ("FILE:14: 'sealed' is a field pbem writes when it seals a value, never "
                        "one of yours: write the value itself (pbem seals your secret part when "
                        "it records the file)")
    assert found[1].startswith("FILE:14: unknown key 'sealed' in the secret part (expected: "
                               "spend); the secret part is spend: {ZONE: 1, 3 or 5}")


def test_a_secret_part_in_the_purchase_phase_is_refused(tmp_path: Path) -> None:
    assert check(tmp_path, {"spend": {}}, phase="purchase") == [
        "FILE:7: phase purchase takes no secret part: leave 'secret:' out of these orders"]


@pytest.mark.parametrize(("secret", "expected"), [
    ({"spent": {"Petrograd": 3}},
     "FILE:14: unknown key 'spent' in the secret part; did you mean 'spend'? (expected: spend); "
     "the secret part is spend: {ZONE: 1, 3 or 5}, the money spent on each battle (8.3)"),
    ({"spend": [3]},
     "FILE:14: expected a mapping, not a list [3]; the secret part is spend: {ZONE: 1, 3 or 5}, "
     "the money spent on each battle (8.3)"),
])
def test_the_secret_part_has_the_action_phases_shape(tmp_path: Path, secret: Any,
                                                     expected: str) -> None:
    assert check(tmp_path, secret) == [expected]
