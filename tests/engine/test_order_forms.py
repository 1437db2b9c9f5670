"""The forms of the orders a phase takes, in every orders template (pbem.game.order_forms):
the examples of the game's own ORDERS.md, tested against the rules by each game's
test_*_orders_doc.py, so that a player writes a turn's orders from the report alone."""

from __future__ import annotations

import importlib
from typing import Any

import pytest

from pbem.dice import KeyedRng
from pbem.game import get_game, load_data, order_forms, orders_examples

DOC = """# A game

## Moving

```yaml
orders:
  - move: {from: a, to: b}
```

Some text.

```yaml
orders:
  - fly: {to: c}
```

## Moving on

```yaml
orders:
  - wait: true
```
"""


def test_the_examples_of_a_section_in_their_order() -> None:
    assert orders_examples(DOC, "Moving") == ["orders:\n  - move: {from: a, to: b}",
                                             "orders:\n  - fly: {to: c}"]
    assert orders_examples(DOC, "Moving on") == ["orders:\n  - wait: true"]
    assert orders_examples(DOC, "Flying") == []


SECTIONS = {"red_russia": "pbem_game_red_russia.phases", "chechen_war": "pbem_game_chechen_war.forms"}


@pytest.mark.parametrize("game", sorted(SECTIONS))
def test_every_phase_names_sections_and_blocks_its_orders_md_has(game: str) -> None:
    data = load_data(game)
    text = (data.folder / "ORDERS.md").read_text(encoding="utf-8")
    table: dict[str, list[tuple[str, list[int] | None]]] = importlib.import_module(SECTIONS[game]).ORDERS_SECTIONS
    phases = set(get_game(game).describe(data)["phases"])
    assert set(table) <= phases, set(table) - phases
    for phase, wanted in table.items():
        for heading, picks in wanted:
            blocks = orders_examples(text, heading)
            assert blocks, (phase, heading)
            assert all(0 <= k < len(blocks) for k in picks or []), (phase, heading, picks, len(blocks))


def _state(game: str, **changes: Any) -> tuple[Any, dict[str, Any]]:
    data = load_data(game)
    state = get_game(game).setup(data, {}, KeyedRng(b"\x05" * 32))
    state.update(changes)
    return data, state


def test_a_red_russia_purchase_template_shows_the_purchase_forms() -> None:
    data, state = _state("red_russia", phase="purchase", turn=2)
    lines = order_forms(get_game("red_russia"), data, state, "red")
    assert lines[:2] == ["The orders this phase takes, as ORDERS.md shows them (its examples: put your own",
                         "units, places and numbers):"]
    body = [line.strip() for line in lines[2:]]
    assert body[0] == "orders:"
    assert any(line.startswith("- buy: {type: inf, count: 2}") for line in body)
    assert any(line.startswith("- discard: [famine, kolchak-coup]") for line in body)
    assert not any("move:" in line for line in body)  # the action phase's, not this one's


def test_an_action_template_shows_every_action_section_and_a_winter_none() -> None:
    data, state = _state("red_russia", phase="action", turn=2)
    body = "\n".join(order_forms(get_game("red_russia"), data, state, "red"))
    for form in ("- move: {units: [red-inf-02, red-inf-15], from: Moscow, to: Orel}",
                 "- search: {zone: Baltic Sea}", "- attack: {zone: Kazan}", "spend: {Kazan: 3, Ufa: 1}"):
        assert form in body, form
    data, state = _state("red_russia", phase="winter", turn=3)
    assert order_forms(get_game("red_russia"), data, state, "red") == []


def test_a_chechen_war_segment_shows_only_its_own_sides_form() -> None:
    data, state = _state("chechen_war", phase="chechen-supports")
    body = "\n".join(order_forms(get_game("chechen_war"), data, state, "chechen"))
    assert "- support: {target: \"1324\", markers: 1, leaders: [ch_dudayev]}" in body
    assert "- attack:" not in body


def test_a_power_of_aa1914_sees_buy_move_attack_and_mobilize() -> None:
    data, state = _state("aa1914", phase="turn")
    body = "\n".join(order_forms(get_game("aa1914"), data, state, "germany"))
    for verb in ("- buy:", "- move:", "- attack:", "- mobilize:"):
        assert verb in body, verb
