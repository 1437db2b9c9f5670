"""Random playouts: the bot plays whole games and many shorter ones, with different seeds.

Every game must end in a result (or reach its turn), audit clean, and replay to the exact
snapshot: Red Russia's equivalent of an adjudicator test suite. Kept small enough for CI.
"""

from __future__ import annotations

from pathlib import Path

import pytest
from conftest import play

from pbem import api


@pytest.mark.parametrize("seed", ["whole-1", "whole-2"])
def test_a_whole_game_ends_in_a_result_and_audits_clean(tmp_path: Path, seed: str) -> None:
    root = tmp_path / "camp"
    api.new_campaign(root, "red_russia", seed=seed, name="camp")
    status = play(root, until_turn=99, seed=seed, max_steps=1000)
    assert status["over"] and status["result"]["winners"]
    report = api.audit(root)
    assert report["ok"], report["problems"]
    assert not report["unopened"]  # every sealed order was revealed by the end
    phases = {e["phase"] for e in api.log(root)}
    assert {"purchase", "initiative", "action", "victory", "winter"} <= phases
    # every part of the turn, 4.1 to 4.9, is in the log
    from pbem.campaign import Campaign

    rules = {e.get("rule") for entry in Campaign.open(root).entries()
             for e in entry.get("events") or [] if e.get("type") == "segment"}
    assert {f"4.{i}" for i in range(1, 10)} <= rules
    # the hands and the deck, sealed until the end, are recomputed from the hidden secret
    api.unseal(root)
    final = api.audit(root, final=True)
    assert final["ok"], final["problems"]
    assert final["checked"]["sealed_recomputed"] > 21


@pytest.mark.parametrize("seed", [f"short-{i}" for i in range(6)])
def test_short_games_audit_clean(tmp_path: Path, seed: str) -> None:
    root = tmp_path / "camp"
    api.new_campaign(root, "red_russia", seed=seed, name="camp",
                     players=["siberian,south,north=White <w@example.org>"] if seed.endswith("1") else None)
    play(root, until_turn=4, phase="action", seed=seed)
    report = api.audit(root)
    assert report["ok"], report["problems"]


SEATS = {2: ["siberian,south,north=White <white@example.org>"],
         3: ["south,north=South and North <sn@example.org>"],
         4: None}


@pytest.mark.parametrize(("players", "options"), [(2, True), (3, False), (3, True), (4, True), (2, False)])
def test_whole_games_in_every_seating_with_the_options_on_and_off(tmp_path: Path, players: int,
                                                                  options: bool) -> None:
    """1.0, 14.3, 16.0-16.1, 19.1-19.3: two-, three- and four-player games with the optional
    rules on and off end in a result, and audit clean before and after unseal."""
    seed = f"seats-{players}-{options}"
    root = tmp_path / "camp"
    api.new_campaign(root, "red_russia", seed=seed, name="camp", players=SEATS[players],
                     options=["railways=true", "czech_legion=true", "famine=true"] if options else None)
    status = play(root, until_turn=99, seed=seed, max_steps=1000)
    assert status["over"] and status["result"]["reason"]
    from pbem.campaign import Campaign

    state = Campaign.open(root).state()["game"]
    assert len(state["cards"]["hands"]) == players  # 14.3: one hand a player
    # 14.6: every card is carried out by pbem, Famine (19.2) included: none is left to the referee
    assert not [e for entry in Campaign.open(root).entries() for e in entry.get("events") or []
                if e.get("type") == "referee_decides"]
    assert api.audit(root)["ok"]
    api.unseal(root)
    final = api.audit(root, final=True)
    assert final["ok"], final["problems"]
    assert not final["unopened"]
