"""games/aa1914/ORDERS.md: every example is YAML pbem reads, every order kind it shows is one
the game takes, and every standing instruction the game knows is in its table."""

from __future__ import annotations

import importlib
import re
from pathlib import Path

from pbem import yamlio
from pbem.game import get_game

get_game("aa1914")
phases = importlib.import_module("pbem_game_aa1914.phases")
standing = importlib.import_module("pbem_game_aa1914.standing")
TEXT = (Path(__file__).parents[3] / "games" / "aa1914" / "ORDERS.md").read_text()


def test_every_example_is_yaml_pbem_reads_with_orders_the_game_takes() -> None:
    blocks = re.findall(r"```yaml\n(.*?)```", TEXT, re.S)
    assert len(blocks) >= 6
    for k, block in enumerate(blocks):
        body = yamlio.load_untrusted(block, f"ORDERS.md block {k + 1}").data
        assert {next(iter(item)) for item in body.get("orders") or []} <= set(phases.ORDERS)
        assert set(body.get("standing") or {}) <= set(standing.STANDING)


def test_every_standing_instruction_is_in_the_table() -> None:
    table = set(re.findall(r"^\| `([a-z_]+)` \|", TEXT, re.M))
    assert table == set(standing.STANDING)
