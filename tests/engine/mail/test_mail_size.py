"""Every mail of a bundled game's demo, played by mail (benchmarks/mail_size.py: the
contribution round, reports, digests, reminders and answers), is under 300 KB: a report mail
once weighed 0.4 to 1 MB (an RGBA picture of the map attached, the SVG in the HTML as well).
The first turn of each game; `python benchmarks/mail_size.py` measures whole demos."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parents[3] / "benchmarks"))
from mail_size import GOAL, measure, play  # noqa: E402

from pbem.game import game_ids  # noqa: E402


@pytest.mark.slow
@pytest.mark.parametrize("game", game_ids())
def test_every_mail_of_the_demo_is_under_the_goal(game: str, tmp_path: Path) -> None:
    play(tmp_path / game, game, turns=1)
    found = measure(tmp_path / game)
    assert {"contribution round", "report", "answer"} <= set(found), sorted(found)
    over = [f"{kind}: {path.name} {size:,} bytes" for kind, sizes in found.items()
            for size, path in sizes if size >= GOAL]
    largest = max(size for sizes in found.values() for size, _ in sizes)
    assert not over, f"mails of {GOAL:,} bytes or more (largest {largest:,}): " + "; ".join(over)
