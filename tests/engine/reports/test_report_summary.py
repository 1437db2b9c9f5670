"""What a report says first: the turn's headlines (Game.headlines; Red Russia's in
rules/headlines.py) and the deadline in the reader's own time zone as well as UTC
(campaign.yaml mail: timezones:, pbem.schedule)."""

from __future__ import annotations

import importlib
import sys
from pathlib import Path
from typing import Any

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parents[2] / "games" / "red_russia"))
from position import data  # noqa: E402

from pbem.errors import CampaignError  # noqa: E402
from pbem.schedule import local_time, timezone_of  # noqa: E402

headlines = importlib.import_module("pbem_game_red_russia.headlines").headlines


@pytest.mark.parametrize(("iso", "zone", "told"), [
    ("2026-12-08T18:00:00+00:00", None, "Tue 8 Dec 2026, 18:00 UTC"),
    ("2026-12-08T18:00:00+00:00", "UTC", "Tue 8 Dec 2026, 18:00 UTC"),
    ("2026-12-08T18:00:00+00:00", "Europe/Berlin", "Tue 8 Dec 2026, 19:00 CET (18:00 UTC)"),
    ("2026-07-08T18:00:00+00:00", "Europe/Berlin", "Wed 8 Jul 2026, 20:00 CEST (18:00 UTC)"),
    # another day there than in UTC: the UTC day is said too
    ("2026-12-08T23:30:00+00:00", "Asia/Tokyo", "Wed 9 Dec 2026, 08:30 JST (Tue 8 Dec, 23:30 UTC)"),
    ("2026-12-08T02:00:00+00:00", "America/New_York", "Mon 7 Dec 2026, 21:00 EST (Tue 8 Dec, 02:00 UTC)"),
])
def test_a_deadline_in_the_readers_time(iso: str, zone: str | None, told: str) -> None:
    assert local_time(iso, zone) == told


class Config:
    """What timezone_of reads of a campaign."""

    def __init__(self, mail: Any) -> None:
        self.config = {"mail": mail}

    def factions(self) -> dict[str, dict[str, Any]]:
        return {"red": {}, "south": {}}


def test_each_players_time_zone() -> None:
    assert timezone_of(Config({}), "red") is None  # type: ignore[arg-type]
    zones = Config({"timezones": {"red": "Europe/Berlin", "default": "America/Chicago"}})
    assert timezone_of(zones, "red") == "Europe/Berlin"  # type: ignore[arg-type]
    assert timezone_of(zones, "south") == "America/Chicago"  # type: ignore[arg-type]
    assert timezone_of(Config({"timezones": {"red": "Asia/Tokyo"}}), "south") is None  # type: ignore[arg-type]


@pytest.mark.parametrize(("zones", "message"), [
    ({"reds": "Europe/Berlin"}, "reds is not a faction of this campaign (factions: red, south, or default)"),
    ({"reds": "UTC", "whites": "UTC"}, "reds, whites is not a faction of this campaign"),
    ({"red": "Europe/Berlinn"}, "red: 'Europe/Berlinn' is not a time zone (e.g. Europe/Berlin, "
                                "America/New_York)"),
    ({"default": "Mars/Base"}, "default: 'Mars/Base' is not a time zone"),
    ("Europe/Berlin", "expected a mapping of factions to time zones, e.g. "
                      "{red: Europe/Berlin, default: UTC}"),
])
def test_a_wrong_time_zone_is_named(zones: Any, message: str) -> None:
    with pytest.raises(CampaignError) as bad:
        timezone_of(Config({"timezones": zones}), "red")  # type: ignore[arg-type]
    assert bad.value.message.startswith(f"campaign.yaml: mail: timezones: {message}")


def test_mail_settings_that_are_no_mapping_give_no_time_zone() -> None:
    assert timezone_of(Config("nonsense"), "red") is None  # type: ignore[arg-type]


def test_utc_is_utc_whatever_the_referees_clock(monkeypatch: pytest.MonkeyPatch) -> None:
    import time

    monkeypatch.setenv("TZ", "Asia/Tokyo")
    time.tzset()
    try:
        assert local_time("2026-12-08T18:00:00+00:00", None) == "Tue 8 Dec 2026, 18:00 UTC"
        assert local_time("2026-12-08T18:00:00+00:00", "Europe/Berlin") == \
            "Tue 8 Dec 2026, 19:00 CET (18:00 UTC)"
    finally:
        monkeypatch.delenv("TZ")
        time.tzset()


def battle(attacker_left: bool, defender_left: bool) -> list[dict[str, Any]]:
    return [{"type": "attack", "zone": "Tver", "attacker": "red", "defenders": ["south", "poland"]},
            {"type": "combat_round", "zone": "Tver"},
            {"type": "battle_over", "zone": "Tver", "attacker": "red",
             "attacker_left": attacker_left, "defender_left": defender_left}]


@pytest.mark.parametrize(("left", "said"), [
    ((True, False), "Reds won the battle of Tver against Southern Whites and Poland"),
    ((False, True), "Southern Whites and Poland held Tver against Reds"),
    ((True, True), "Reds attacked Southern Whites and Poland at Tver: both sides stay"),
    ((False, False), "the battle of Tver between Reds and Southern Whites and Poland left nobody there"),
])
def test_8_0_each_end_of_a_battle(left: tuple[bool, bool], said: str) -> None:
    assert headlines(data(), battle(*left)) == [said]


def test_what_else_makes_the_summary() -> None:
    events = [
        {"type": "card_played", "card": "typhus", "faction": "red"},
        {"type": "control", "faction": "red", "from": "south", "zone": "Kursk", "why": "battle"},
        {"type": "control", "faction": "siberian", "from": None, "zone": "Omsk"},
        {"type": "leader_loss", "leader": "denikin", "zone": "Kursk", "result": "killed"},
        {"type": "leader_loss", "leader": "wrangel", "zone": "Kursk", "result": "wounded"},
        {"type": "leader_loss", "leader": "kutepov", "zone": "Kursk", "result": "safe"},
        {"type": "leader_capture", "leader": "dutov", "zone": "Barnaul", "result": "captured"},
        {"type": "leader_capture", "leader": "gajda", "zone": "Barnaul", "result": "escaped"},
        {"type": "minor_status", "minor": "poland", "status": "active", "controller": "south"},
        {"type": "minor_status", "minor": "ukraine", "status": "limited", "controller": "red"},
        {"type": "card_played", "card": "tank", "faction": "south"},
        {"type": "moved", "faction": "red", "units": ["red-inf-01"], "path": ["Moscow", "Tver"]},
        {"type": "game_over", "result": {}},
    ]
    assert headlines(data(), events) == [
        "Reds took Kursk from Southern Whites", "Siberian Whites took Omsk",
        "denikin killed at Kursk", "wrangel wounded at Kursk", "dutov captured and killed at Barnaul",
        "Poland fully active under Southern Whites", "the game is over",
        "cards played: typhus (Reds), tank (Southern Whites)"]
    assert headlines(data(), []) == []


def test_the_report_says_the_deadline_in_the_readers_time(
        new_campaign: Any, pbem: Any) -> None:
    from pbem import api, yamlio

    root = new_campaign()
    config = yamlio.read_trusted(root / "campaign.yaml")
    config.update(deadlines={"hours": 72}, mail={"timezones": {"siberian": "Asia/Tokyo"}})
    yamlio.write_atomic(root / "campaign.yaml", yamlio.dump(config))
    status = api.status(root)
    local = local_time(status["deadline"], "Asia/Tokyo")
    assert "JST" in local
    text = " ".join(pbem("-C", root, "report", "--for", "siberian").out.split())
    assert f"SUMMARY (Set-up) {'-' * 78} Nothing of note yet this turn." in text
    assert f"Your orders are awaited: {status['prompt']}, by {local}." in text
    red = " ".join(pbem("-C", root, "report", "--for", "red").out.split())
    by = local_time(status["deadline"], None)  # no zone given: UTC
    assert f"Awaiting Siberian Whites, Southern Whites, Northern/Asiatic Whites, by {by}; nothing from you now." in red
