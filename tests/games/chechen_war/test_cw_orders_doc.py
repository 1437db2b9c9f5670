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
         "ceasefire", "reinforce", "strike", "kidnap", "underground"}


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


def test_each_side_is_shown_its_own_forms() -> None:
    """The templates' forms (pbem.game.order_forms): at the end of the turn each side sees
    its own orders only; the Chechen's movement template shows his moves and his leaders
    underground, not only arrivals."""
    from pbem.dice import KeyedRng
    from pbem.game import load_data, order_forms

    data = load_data("chechen_war")
    state = GAME.setup(data, {}, KeyedRng(b"\x01" * 32))
    state["phase"] = "end-of-turn"
    russian = "\n".join(order_forms(GAME, data, state, "russian"))
    chechen = "\n".join(order_forms(GAME, data, state, "chechen"))
    assert "ceasefire: true" in russian and "kidnap" not in russian
    assert "kidnap: true" in chechen and "ceasefire" not in chechen and "reinforce" not in chechen
    state["phase"] = "chechen-movement"
    moves = "\n".join(order_forms(GAME, data, state, "chechen"))
    assert "arrive:" in moves and "move: {units: [t03" in moves and "underground:" in moves
    assert "helicopter" not in moves


def test_the_files_that_give_the_end_of_the_turn_ahead_show_how() -> None:
    """Where the campaign takes the end of the turn ahead, the Russian's movement, combat and
    supports templates and the Chechen's movement template show the secret part that gives
    it; elsewhere, and where the campaign asks for it in its own file, none does."""
    from pbem.dice import KeyedRng
    from pbem.game import load_data, order_forms

    data = load_data("chechen_war")
    for options, shown in (({}, True), ({"end_of_turn": "asked"}, False)):
        state = GAME.setup(data, options, KeyedRng(b"\x01" * 32))
        for phase, side in (("russian-movement", "russian"), ("russian-combat", "russian"),
                            ("russian-supports", "russian"), ("chechen-movement", "chechen"),
                            ("chechen-ambush", "chechen"), ("chechen-supports", "chechen")):
            state["phase"] = phase
            forms = "\n".join(order_forms(GAME, data, state, side))
            gives = shown and phase not in ("chechen-ambush", "chechen-supports")
            assert ("end_of_turn:" in forms) == gives, (options, phase)
            if gives:
                assert ("ceasefire: true" in forms) == (side == "russian")
                assert ("kidnap: true" in forms) == (side == "chechen")
