"""A power whose capital another power holds (games/aa1914/README.md, the rulings): it collects
its income by default (our sources are silent), and nothing with the campaign option
`capital_income: none` (the rule of the other A&A editions). In-process, without git."""

from __future__ import annotations

import importlib

import pytest
from aa_play import of
from fixed_rng import FixedRng

from pbem.dice import KeyedRng
from pbem.game import State, get_game, load_data

GAME = get_game("aa1914")
economy = importlib.import_module("pbem_game_aa1914.economy")


def france_without_paris(option: str | None) -> State:
    s = GAME.setup(load_data("aa1914"), {"capital_income": option} if option else {},
                   KeyedRng(b"\x05" * 32))
    s["control"]["paris"] = "germany"
    s["units"]["paris"] = {}
    s["power"] = "france"
    return s


def income_of(s: State) -> dict:
    events = GAME.resolve(load_data("aa1914"), s, {"france": {"orders": []}}, FixedRng(), None)
    return of(events, "income")[0]


@pytest.mark.parametrize("option", [None, "collect"])
def test_ruling_capital_income_by_default_a_power_without_its_capital_still_collects(
        option: str | None) -> None:
    s = france_without_paris(option)
    got = income_of(s)
    assert got["ipc"] == economy.income(load_data("aa1914"), s, "france")[0] > 0
    assert "capital_lost" not in got


def test_ruling_capital_income_none_it_collects_nothing_and_the_log_says_why() -> None:
    s = france_without_paris("none")
    got = income_of(s)
    assert got == {"type": "income", "power": "france", "ipc": 0, "contested": [],
                   "capital_lost": "paris"}
    assert GAME.summary(load_data("aa1914"), got) == (
        "France collects nothing: its capital, Paris, is in another power's hands (option "
        "capital_income: none)")
    s["control"]["paris"] = "france"  # liberated: the income again
    assert income_of(s)["ipc"] == economy.income(load_data("aa1914"), s, "france")[0] > 0


def test_ruling_capital_income_the_option_is_offered_with_its_choices() -> None:
    options = {o["id"]: o for o in GAME.describe(load_data("aa1914"))["options"]}
    assert options["capital_income"]["default"] == "collect"
