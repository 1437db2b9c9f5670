"""The rule numbers a game's event table declares (each `Told` or `Ruled` in its rules
modules) are sections of the game's rulebook."""

from __future__ import annotations

import importlib
import re
from pathlib import Path

import pytest

from pbem.game import get_game

# the rulebooks stand beside the project (../shared/rules), not in it
RULES = Path(__file__).resolve().parents[2].parent / "shared" / "rules"
GAMES = {  # game: its rulebook, the module holding its event table, a rule it must declare
    "red_russia": ("red-russia-rules.txt", "fold", ("minor_built", "12.42")),
    "chechen_war": ("chechen-war-rules.txt", "events", ("casualties_reset", "6.4")),
}


def section(number: str) -> tuple[str, str]:
    """A section number as the rulebook and the code both write it: 8.93 is 8.9.3."""
    major, _, minor = number.partition(".")
    return major, minor.replace(".", "")


def declared(game: str) -> dict[str, str]:
    get_game(game)  # its composition root registers every module's table
    module = importlib.import_module(f"pbem_game_{game}.{GAMES[game][1]}")
    rules: dict[str, str] = module.EVENTS.rules()
    return rules


@pytest.mark.parametrize("game", GAMES)
def test_the_table_declares_the_rule_of_each_told_event(game: str) -> None:
    kind, rule = GAMES[game][2]
    assert declared(game)[kind] == rule
    assert len(declared(game)) >= 5


@pytest.mark.parametrize("game", GAMES)
def test_every_declared_rule_is_a_section_of_the_rulebook(game: str) -> None:
    rulebook = RULES / GAMES[game][0]
    if not rulebook.exists():
        pytest.skip(f"{rulebook} is not beside the project")
    text = rulebook.read_text(encoding="utf-8")
    # its sections, and the numbers it cites itself: Red Russia's foreign intervention table
    # is "(13.62)" in its text but has no heading of its own
    known = {section(m) for m in re.findall(r"^(\d+\.[\d.]*\d)\b", text, re.M)}
    known |= {section(m) for m in re.findall(r"\((\d+\.[\d.]*\d)\)", text)}
    wrong = {kind: rule for kind, rule in declared(game).items()
             if any(section(part) not in known for part in re.split(r", | and ", rule))}
    assert wrong == {}


def test_a_section_is_read_alike_with_or_without_its_inner_dots() -> None:
    assert section("8.93") == section("8.9.3") == ("8", "93")
    assert section("10.8.1") == ("10", "81") != section("10.8")
