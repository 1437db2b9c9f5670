"""games/chechen_war/ORDERS.md describes every segment the game awaits, and its examples are
YAML pbem reads, each order of a kind the segment takes."""

from __future__ import annotations

import re
from pathlib import Path

from pbem import yamlio
from pbem.game import get_game

GAME = get_game("chechen_war")
TEXT = (Path(__file__).parents[3] / "games" / "chechen_war" / "ORDERS.md").read_text()
KINDS = {"place", "arrive", "move", "helicopter", "gunship", "ambush", "free", "attack", "support",
         "ceasefire", "reinforce", "strike", "kidnap"}


def test_every_phase_of_the_game_is_in_the_table() -> None:
    table = set(re.findall(r"^\| `([a-z-]+)` \|", TEXT, re.M))
    phases = {p for p in GAME.phases.phases if p != "over"} | {"contribute"}
    assert table == phases


def test_every_example_is_yaml_pbem_reads_with_orders_of_known_kinds() -> None:
    blocks = re.findall(r"```yaml\n(.*?)```", TEXT, re.S)
    assert len(blocks) >= 12
    for k, block in enumerate(blocks):
        body = yamlio.load_untrusted(block, f"ORDERS.md block {k + 1}").data
        kinds = {next(iter(item)) for item in body.get("orders") or []}
        assert kinds <= KINDS, (k, kinds - KINDS)
