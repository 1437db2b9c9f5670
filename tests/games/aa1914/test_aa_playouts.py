"""Seeded random playouts of Axis & Allies 1914 (in-process, without git): the bot plays
every power's turn from the set-up for several rounds; the playout fails on a crash, on
orders of the bot's that its own rules refuse, on a power awaited with no legal orders, or on
a position that breaks what the rules keep (no negative count or treasury, every unit
counted: the start plus what was mobilized, less what battles destroyed)."""

from __future__ import annotations

import pytest

from pbem.dice import KeyedRng
from pbem.game import GameData, State, get_game, load_data

GAME = get_game("aa1914")
ROUNDS = 6


def data() -> GameData:
    return load_data("aa1914")


def total(state: State) -> int:
    return sum(n for owners in state["units"].values() for units in owners.values()
               for n in units.values())


def check(state: State, mobilized: int, start: int) -> None:
    assert all(n >= 0 for n in state["treasury"].values()), state["treasury"]
    assert all(n >= 0 for owners in state["units"].values() for units in owners.values()
               for n in units.values())
    assert total(state) == start + mobilized


@pytest.mark.parametrize("seed", range(4))
def test_the_bot_plays_rounds_of_every_power_legally(seed: int) -> None:
    rng = KeyedRng(seed.to_bytes(32, "big"))
    state = GAME.setup(data(), {}, rng)
    start, mobilized, moves, battles = total(state), 0, 0, 0
    while state["turn"] <= ROUNDS and not state["over"]:
        phase = GAME.phase(data(), state)
        assert phase.awaiting == (state["power"],)
        sent = GAME.bot(data(), state, state["power"], rng)
        assert GAME.validate(data(), state, state["power"], sent) == [], sent
        for event in GAME.resolve(data(), state, {state["power"]: sent}, rng):
            assert GAME.summary(data(), event)
            mobilized += sum(event["units"].values()) if event["type"] == "mobilized" else 0
            if event["type"] == "battle":  # losses leave the board
                mobilized -= sum(n for units in event["losses"].values() for n in units.values())
                battles += 1
            if event["type"] == "sea_battle":
                mobilized -= sum(n for units in event["sunk"].values() for n in units.values())
            if event["type"] == "mines":
                mobilized -= sum(event["sunk"].values())
            moves += event["type"] == "moved"
            state = GAME.apply(data(), state, event)
        check(state, mobilized, start)
    assert state["turn"] == ROUNDS + 1 and moves > 0 and battles > 0
    assert "usa" in state["at_war"]
