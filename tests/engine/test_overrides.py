"""Campaign overrides (corrections to a game's data) given at `pbem new --override FILE`: each
game's example is taken, checked against the game's schemas and rules, recorded in step 1,
used by the rules, shown by status and every report, and audits clean; a bad file is named at
its line and nothing is created; an edit of the recorded overrides by hand is refused."""

from __future__ import annotations

import html
from pathlib import Path
from typing import Any

import pytest

from pbem import api, yamlio
from pbem.campaign import Campaign
from pbem.reports.render import FORMATS, render
from tests.conftest import ROOT

EXAMPLES = {
    "red_russia": ("override-map-victory-levels.yaml", "game.victory",
                   lambda d: d["game"]["victory"]["automatic"]["red"] == 32),
    "chechen_war": ("override-printed-crt.yaml", "tables.crt, tables.terrain",
                    lambda d: d["tables"]["crt"]["results"]["3:1"] == ["Ax", "-", "Ex", "Ex", "DE", "DE"]
                    and d["tables"]["crt"]["results"]["1:1"][0] == "AE"  # the rest as it was
                    and d["tables"]["terrain"]["mountain"]["defender_shifts"] == 3
                    and d["tables"]["terrain"]["clear"]["stacking"] == 3),
    "aa1914": ("override-revolution-trigger.yaml", "game.revolution",
               lambda d: d["game"]["revolution"]["trigger"]["adjacent"] == 2
               and d["game"]["revolution"]["trigger"]["others"] == 1),
}


@pytest.mark.parametrize("game", sorted(EXAMPLES))
def test_each_games_example_is_taken_used_shown_and_audited(pbem: Any, tmp_path: Path, game: str) -> None:
    name, told, used = EXAMPLES[game]
    example = ROOT / "games" / game / "examples" / name
    root = tmp_path / "camp"
    r = pbem("new", root, "--game", game, "--seed", "ov", "--hot-seat", "--no-contributions",
             "--override", example)
    assert r.code == 0, r.err
    assert f"this campaign corrects the game's data: {told} (campaign.yaml overrides)" in r.out
    campaign = Campaign.open(root)
    assert used(campaign.data.files)
    first = yamlio.read_trusted(root / "log" / "000001.yaml")
    assert first["settings"]["overrides"] == yamlio.load_untrusted(example.read_bytes(), "x").data["overrides"]
    assert api.status(root)["overrides"] == told.split(", ")
    for fmt in FORMATS:
        assert f"This campaign corrects the game's data: {told}" in html.unescape(" ".join(
            render(root, "public", fmt).split()))
    audit = pbem("-C", root, "audit")
    assert audit.code == 0 and "audit: OK" in audit.out, audit.err


@pytest.mark.parametrize(("text", "said"), [
    ("overrides:\n  tables:\n    crt:\n      results:\n        '3:1': [Ax, '-', Ex, Ex, DE, XX]\n",
     "bad.yaml:5: overrides.tables.crt.results.3:1[5]: expected one of -, AE, Ax, Ex, DE, got 'XX'"),
    ("overrides:\n  tablez: {crt: {}}\n",
     "bad.yaml: overrides.tablez: no such data file (known: game, map, tables, units); did you "
     "mean 'tables'?"),
    ("tables: {crt: {}}\n",
     "bad.yaml:1: expected 'overrides:' alone at the top, a mapping of the game's data files to "
     "their corrections (overrides: {tables: {...}}); see the game's README, 'Campaign overrides'"),
])
def test_a_bad_overrides_file_is_named_and_nothing_is_made(pbem: Any, tmp_path: Path, text: str,
                                                           said: str) -> None:
    bad = tmp_path / "bad.yaml"
    bad.write_text(text)
    r = pbem("-C", tmp_path, "new", tmp_path / "camp", "--game", "chechen_war", "--override", bad)
    assert r.code != 0 and "Traceback" not in r.err
    assert said in r.err.replace(str(tmp_path) + "/", ""), r.err
    assert not (tmp_path / "camp").exists()


def test_the_recorded_overrides_cannot_be_edited_by_hand(pbem: Any, tmp_path: Path) -> None:
    root = tmp_path / "camp"
    example = ROOT / "games" / "chechen_war" / "examples" / "override-printed-crt.yaml"
    assert pbem("new", root, "--game", "chechen_war", "--seed", "ov", "--hot-seat",
                "--override", example).code == 0
    config = yamlio.read_trusted(root / "campaign.yaml")
    config["overrides"]["tables"]["crt"]["results"]["3:1"][0] = "DE"
    (root / "campaign.yaml").write_text(yamlio.dump(config))
    r = pbem("-C", root, "status")
    assert r.code != 0 and "overrides.tables" in r.err and "differ" in r.err


def test_overrides_changed_later_as_a_recorded_step_that_audit_replays(pbem: Any, tmp_path: Path) -> None:
    """`pbem override FILE --reason`: a step with the reason, campaign.yaml and the log agree,
    the rules use the new data from then on, status and the reports name it, and the audit
    replays the turn before with the data it was played with (the Chechen's reinforcement
    table changed after turn 1's End of Turn drew with the old one)."""
    from conftest import play

    root = tmp_path / "camp"
    api.new_campaign(root, "chechen_war", hot_seat=True, contributions=False, seed="later", name="camp")
    play(root, until=lambda s: s["turn"] >= 2, seed="later")
    drawn = [e for entry in Campaign.open(root).entries() for e in entry.get("events") or []
             if e.get("type") == "reinforcement_roll" and e.get("side") == "chechen"]
    assert drawn and drawn[0]["count"] > 0  # turn 1 drew with the game's own table
    path = tmp_path / "none.yaml"
    none = {"1-": 0, "2-3": 0, "4-5": 0, "6-7": 0, "8+": 0}  # a mapping merges: every row given
    path.write_text(yamlio.dump({"overrides": {"tables": {"reinforcements": {"chechen": {"table": none}}}}}))
    r = pbem("-C", root, "override", path, "--reason", "no Chechen reinforcements in our game")
    assert r.code == 0, r.err
    assert "recorded as step" in r.out and "tables.reinforcements" in r.out
    assert Campaign.open(root).data["tables"]["reinforcements"]["chechen"]["table"] == none
    last = list(Campaign.open(root).entries())[-1]
    assert last["type"] == "override" and last["reason"] == "no Chechen reinforcements in our game"
    assert api.status(root)["overrides"] == ["tables.reinforcements"]
    assert "This campaign corrects the game's data: tables.reinforcements" in " ".join(
        render(root, "public", "text").split())
    play(root, until=lambda s: s["turn"] >= 3, seed="later")  # turn 2 draws with the new table
    rolls = [e for entry in Campaign.open(root).entries() for e in entry.get("events") or []
             if e.get("type") == "reinforcement_roll" and e.get("side") == "chechen"]
    assert len(rolls) > len(drawn) and rolls[-1]["count"] == 0
    report = api.audit(root)
    assert report["ok"], report["problems"]
    # back to the game's own data, recorded too; the same overrides again are refused
    empty = tmp_path / "empty.yaml"
    empty.write_text("overrides: {}\n")
    assert pbem("-C", root, "override", empty, "--reason", "back to the book").code == 0
    assert api.status(root)["overrides"] == []
    again = pbem("-C", root, "override", empty, "--reason", "again")
    assert again.code != 0 and "overrides in force already" in again.err
    assert pbem("-C", root, "override", empty, "--reason", " ").code != 0
    assert api.audit(root)["ok"]
