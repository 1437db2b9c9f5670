"""`pbem demo` (pbem/demo.py): a sample campaign played offline by the bot, which ends as a
referee's turn does: every player's reports and mail written under the git-ignored .pbem/.
"""

from __future__ import annotations

import email
import email.policy
import sys
from collections.abc import Callable
from email.message import EmailMessage
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
from conftest import Result, git  # noqa: E402

from pbem import api  # noqa: E402
from pbem.campaign import Campaign  # noqa: E402


def test_demo_writes_every_players_reports_and_mail(tmp_path: Path,
                                                     pbem: Callable[..., Result]) -> None:
    root = tmp_path / "demo"
    r = pbem("demo", root, "--turns", "1")
    assert r.code == 0, r.err
    assert "audit: OK" in r.out
    assert api.audit(root)["ok"]

    factions = list(Campaign.open(root).factions())
    reports = root / ".pbem" / "reports"
    assert str(reports) in r.out and "rendered in" in r.out
    names = {p.name for p in reports.iterdir()}
    for who in [*factions, "public"]:
        for ext in ("txt", "html"):
            assert f"demo-t1-{who}.{ext}" in names, (who, ext, sorted(names))
    public = (reports / "demo-t1-public.txt").read_text() + (reports / "demo-t1-public.html").read_text()
    assert "-----BEGIN AGE" not in public
    assert "<html" in (reports / "demo-t1-red.html").read_text().lower()

    outbox = root / ".pbem" / "outbox"
    assert str(outbox) in r.out
    mails = sorted(outbox.glob("*.eml"))
    assert len(mails) == len(factions)  # one player per faction in the demo
    to = set()
    for path in mails:
        msg = email.message_from_bytes(path.read_bytes(), policy=email.policy.default)
        assert isinstance(msg, EmailMessage)
        to.add(msg["To"].addresses[0].addr_spec)
        assert msg.get_body(preferencelist=("plain",)) is not None
        assert msg.get_body(preferencelist=("html",)) is not None
    assert to == {f"{f}@demo.invalid" for f in factions}

    # reports and mail hold secrets: never committed, and the campaign is clean
    assert git(root, "status", "--porcelain") == ""
    assert git(root, "log", "--all", "--format=%H", "--", ".pbem") == ""


def test_demo_json_says_where_things_are(tmp_path: Path, pbem: Callable[..., Result]) -> None:
    import json

    r = pbem("demo", tmp_path / "demo", "--turns", "1", "--json")
    assert r.code == 0, r.err
    out = json.loads(r.out)
    assert out["audit"]["ok"]
    assert Path(out["reports"]["folder"]) == tmp_path / "demo" / ".pbem" / "reports"
    assert len(out["reports"]["files"]) == 2 * len(out["reports"]["readers"])
    assert out["reports"]["seconds"] >= 0
    assert len(out["mail"]["files"]) == 4


def test_a_demo_whose_audit_fails_exits_3(tmp_path: Path, pbem: Callable[..., Result],
                                          monkeypatch) -> None:
    # CI runs the demo as a check: a failed audit must not end in exit 0
    real = api.audit

    def broken(root: Path, *, final: bool = False) -> dict:
        report = real(root, final=final)
        return {**report, "ok": False, "problems": ["log/000002.yaml: planted problem"]}

    monkeypatch.setattr(api, "audit", broken)
    r = pbem("demo", tmp_path / "demo", "--turns", "1")
    assert r.code == 3
    assert "problem: log/000002.yaml: planted problem" in r.err
    assert "audit: FAILED" in r.out


def test_the_demo_plays_the_game_that_says_demo_and_refuses_an_unknown_one(
        tmp_path: Path, pbem: Callable[..., Result], monkeypatch) -> None:
    from pbem import demo, game

    assert demo.demo_game() == "red_russia" == demo.demo_game("red_russia")
    r = pbem("demo", tmp_path / "d", "--game", "chess")
    assert r.code == 2 and "--game 'chess': no such game (known: aa1914, chechen_war, red_russia" in r.err
    assert not (tmp_path / "d").exists()
    real = game.load_data

    def no_demo(game_id: str, overrides: dict | None = None) -> game.GameData:
        data = real(game_id, overrides)
        files = {**data.files, "game": {k: v for k, v in data.files["game"].items() if k != "demo"}}
        return game.GameData(data.game_id, data.folder, files)

    monkeypatch.setattr(demo, "load_data", no_demo)
    r = pbem("demo", tmp_path / "e")
    assert r.code == 2 and "no bundled game says demo: true in its game.yaml; name one with --game" in r.err


def test_demo_plays_every_bundled_game(tmp_path: Path, pbem: Callable[..., Result]) -> None:
    """`pbem demo --game ID` for each game pbem ships, a power that enters mid-game
    (A&A 1914's Soviets) included: it is seated by the rules, never at the start."""
    from pbem.game import game_ids

    for game in game_ids():
        root = tmp_path / game
        r = pbem("demo", root, "--game", game, "--turns", "1")
        assert r.code == 0, (game, r.err)
        assert "audit: OK" in r.out, game
        factions = Campaign.open(root).factions()
        assert all(not v.get("email") for v in factions.values() if v.get("dormant")), game
        # every plain-text report reads in a mail window: lists and tables wrapped, no line
        # runs on (an A&A position line ran to 1,800 characters, a battle's round to 300)
        texts = sorted((root / ".pbem" / "reports").glob("*.txt"))
        assert texts, game
        for path in texts:
            longest = max(path.read_text().splitlines(), key=len)
            assert len(longest) <= 160, (path.name, longest)


def test_a_game_the_bots_never_end_stops_at_its_demo_length(
        tmp_path: Path, pbem: Callable[..., Result], monkeypatch) -> None:
    """A&A 1914's bots take no capitals: its game.yaml gives the demo a length (demo_turns),
    where `pbem demo` stops and says so; --turns says otherwise."""
    from pbem import demo, game

    assert game.load_data("aa1914")["game"]["demo_turns"] == 4
    real = game.load_data

    def short(game_id: str, overrides: dict | None = None) -> game.GameData:
        data = real(game_id, overrides)
        return game.GameData(data.game_id, data.folder, {**data.files, "game": {**data.files["game"],
                                                                                "demo_turns": 1}})

    monkeypatch.setattr(demo, "load_data", short)
    r = pbem("demo", tmp_path / "a", "--game", "aa1914")
    assert r.code == 0, r.err
    assert "the demo stops after turn 1; the game goes on" in r.out and "game over" not in r.out
    status = Campaign.open(tmp_path / "a").state()["game"]
    assert status["turn"] == 2 and not status["over"]
    r = pbem("demo", tmp_path / "b", "--game", "red_russia", "--turns", "1")
    assert "the demo stops after turn 1" in r.out
