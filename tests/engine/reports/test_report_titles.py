"""A report's title names the turn the game is in: one made as a turn begins (its steps all
of the turn before) is of the new turn, and a game without turn names says "turn N" once."""

from __future__ import annotations

from pathlib import Path

from conftest import play

from pbem import api
from pbem.reports.render import FORMATS, render


def test_the_first_report_after_the_contribution_round_is_of_round_one(tmp_path: Path) -> None:
    root = tmp_path / "aa"
    api.new_campaign(root, "aa1914", hot_seat=True, seed="titles", name="aa")
    play(root, until=lambda s: s["turn"] == 1, seed="titles")
    text = render(root, "austria_hungary", "text")
    assert text.splitlines()[1] == "Campaign aa: report for Austria-Hungary, turn 1"
    assert "Set-up (turn 0)" not in text.splitlines()[1] and "(turn 1)" not in text.splitlines()[1]
    for fmt in FORMATS:
        assert "report for" in render(root, "austria_hungary", fmt)


def test_a_digest_as_a_turn_begins_is_titled_with_that_turn(tmp_path: Path) -> None:
    root = tmp_path / "rr"
    api.new_campaign(root, "red_russia", hot_seat=True, contributions=False, seed="titles", name="rr")
    status = play(root, until_turn=2, seed="titles")
    assert status["turn"] == 2
    header = render(root, "red", "text").splitlines()[1]
    assert header.endswith("(turn 2)"), header
    assert header.endswith(f"{status['turn_name']} (turn 2)") if status.get("turn_name") else True
    # a turn asked for is titled with that turn
    assert render(root, "red", "text", turn=1).splitlines()[1].endswith("(turn 1)")
