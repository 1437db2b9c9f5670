"""Random playouts: the bot plays whole games and shorter ones, with different seeds.

Every game must end in a result (or reach its turn), audit clean, and replay to the exact
snapshot. A playout can only catch crashes and replay faults (audit replays the same rules
code), so the default run keeps one whole game per seating and two short games; the rest
are marked `playout` and run on demand: `python -m pytest -m playout`.
"""

from __future__ import annotations

from pathlib import Path

import pytest
from conftest import play

from pbem import api

LONG = pytest.mark.playout


@pytest.mark.parametrize("seed", [f"short-{i}" for i in range(2)]
                         + [pytest.param(f"short-{i}", marks=LONG) for i in range(2, 6)])
def test_short_games_audit_clean(tmp_path: Path, seed: str) -> None:
    root = tmp_path / "camp"
    api.new_campaign(root, "red_russia", hot_seat=True, seed=seed, name="camp",
                     players=["siberian,south,north=White <w@example.org>"] if seed.endswith("1") else None)
    play(root, until_turn=4, phase="action", seed=seed)
    report = api.audit(root)
    assert report["ok"], report["problems"]


SEATS = {2: ["siberian,south,north=White <white@example.org>"],
         3: ["south,north=South and North <sn@example.org>"],
         4: None}
OPTIONS = ["railways=true", "czech_legion=true", "famine=true"]


@pytest.mark.parametrize(("players", "options", "seed"), [
    (4, False, "whole-1"), (2, True, "seats-2-True"), (3, False, "seats-3-False"),
    pytest.param(4, False, "whole-2", marks=LONG), pytest.param(4, True, "seats-4-True", marks=LONG),
    pytest.param(3, True, "seats-3-True", marks=LONG), pytest.param(2, False, "seats-2-False", marks=LONG),
])
def test_whole_games_in_every_seating_with_the_options_on_and_off(tmp_path: Path, players: int,
                                                                  options: bool, seed: str) -> None:
    """1.0, 4.1-4.9, 14.3, 16.0-16.1, 19.1-19.3: two-, three- and four-player games with the
    optional rules on and off end in a result, and audit clean before and after unseal."""
    from pbem.campaign import Campaign

    root = tmp_path / "camp"
    api.new_campaign(root, "red_russia", hot_seat=True, seed=seed, name="camp", players=SEATS[players],
                     options=OPTIONS if options else None)
    status = play(root, until_turn=99, seed=seed, max_steps=1000)
    assert status["over"] and status["result"]["reason"]
    campaign = Campaign.open(root)
    state = campaign.state()["game"]
    assert len(state["cards"]["hands"]) == players  # 14.3: one hand a player
    entries = list(campaign.entries())
    events = [e for entry in entries for e in entry.get("events") or []]
    # 14.6: every card is carried out by pbem, Famine (19.2) included: none is left to the referee
    assert not [e for e in events if e.get("type") == "referee_decides"]
    # every part of the turn, 4.1 to 4.9, is in the log
    assert {"purchase", "initiative", "action", "victory", "winter"} <= {e["phase"] for e in entries}
    assert {f"4.{i}" for i in range(1, 10)} <= {e.get("rule") for e in events if e.get("type") == "segment"}
    report = api.audit(root)
    assert report["ok"], report["problems"]
    assert not report["unopened"]  # every sealed order was revealed by the end
    # the hands and the deck, sealed until the end, are recomputed from the hidden secret
    api.unseal(root)
    final = api.audit(root, final=True)
    assert final["ok"], final["problems"]
    assert not final["unopened"]
    assert final["checked"]["sealed_recomputed"] > 21
