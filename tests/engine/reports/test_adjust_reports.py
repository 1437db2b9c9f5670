"""Reports stay whole whatever state an adjustment makes: in every game, adjustments that jump
the game several turns on, then back to an earlier phase, are recorded, audit clean, and every
report of every reader renders in every format (before, `pbem report` failed with an
IndexError when no step was recorded in the report's turns)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from conftest import play

from pbem import api, yamlio
from pbem.campaign import Campaign
from pbem.reports.render import FORMATS, render

JUMPS: dict[str, list[list[dict[str, Any]]]] = {
    "aa1914": [[{"type": "next", "power": "germany", "turn": 4}],
               [{"type": "next", "power": "france", "turn": 2}]],
    "chechen_war": [[{"type": "phase", "phase": "end-of-turn", "turn": 5}],
                    [{"type": "phase", "phase": "russian-movement", "turn": 2}]],
    "red_russia": [[{"type": "phase", "turn": 4, "phase": "purchase"}],
                   [{"type": "phase", "turn": 2, "phase": "purchase"}]],
}


@pytest.mark.parametrize("game", sorted(JUMPS))
def test_every_report_renders_after_adjustments_that_jump_turns(tmp_path: Path, game: str) -> None:
    root = tmp_path / "camp"
    api.new_campaign(root, game, hot_seat=True, contributions=False, seed="jump", name="camp")
    play(root, until=lambda s: s["turn"] >= 1 and s["seq"] >= 4, seed="jump", max_steps=100)
    readers = ["public", "referee", *Campaign.open(root).factions()]
    for n, events in enumerate(JUMPS[game]):
        path = tmp_path / f"jump-{n}.yaml"
        path.write_text(yamlio.dump(events))
        api.adjust(root, path, f"the moderator moves the game (test {n})")
        status = api.status(root)
        assert status["turn"] == events[0]["turn"], status
        for who in readers:
            for fmt in FORMATS:
                text = render(root, who, fmt)
                assert text.strip(), (who, fmt)
        report = api.audit(root)
        assert report["ok"], report["problems"]


@pytest.mark.parametrize("game", sorted(JUMPS))
def test_no_report_of_the_contribution_round_shows_a_python_none(tmp_path: Path, game: str) -> None:
    """Before the set-up nothing is on the board: no report says "Morale None" or "Turn 0 of 9:
    None" (the Chechen War's order of battle did)."""
    import re

    root = tmp_path / "camp"
    api.new_campaign(root, game, hot_seat=True, seed="round", name="camp")
    for who in ["public", "referee", *Campaign.open(root).factions()]:
        for fmt in FORMATS:
            text = render(root, who, fmt)
            assert not re.search(r"\bNone\b", text), (who, fmt, re.findall(r".{40}\bNone\b.{20}", text))
