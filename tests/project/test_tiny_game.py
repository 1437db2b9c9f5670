"""A whole campaign of a game pbem/ knows nothing of: Tiny (tests/games/tiny/).

Through the command line only: new, bot, sign, apply for two turns (orders of both
factions, a battle with its dice, a secret goal dealt to each faction and revealed at the
end), report in every format for every reader, mail into the outbox (no network), reveal,
audit, unseal and audit --final. Tiny gives only its map to the reports (`Game.report`);
its position and changes are pbem's neutral tables of its view, and a game without
`report` at all still gets a sound report.

pbem finds games in the folders of $PBEM_GAMES_PATH, then in its own games/; the fixture
`tiny` sets PBEM_GAMES_PATH to tests/games, as a game's author would, so that no line of
pbem/ names the test game.
"""

from __future__ import annotations

import email
import email.policy
import json
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from pbem import yamlio
from tests.conftest import Result
from tests.engine.reports.test_report import Checker

GAMES = Path(__file__).resolve().parents[1] / "games"
FORMATS = ("text", "html", "md", "bbcode")
PLAYERS = ("blue=Alice <alice@tiny.invalid>", "gold=Bob <bob@tiny.invalid>")
EMAIL = {"blue": "alice@tiny.invalid", "gold": "bob@tiny.invalid"}


@pytest.fixture
def tiny(monkeypatch: pytest.MonkeyPatch, pbem: Callable[..., Result]) -> Callable[..., Result]:
    """The in-process command line, with tests/games among the folders of game definitions."""
    monkeypatch.setenv("PBEM_GAMES_PATH", str(GAMES))
    return pbem


def test_a_game_is_found_by_pbem_games_path_and_only_so(
        pbem: Callable[..., Result], monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    monkeypatch.delenv("PBEM_GAMES_PATH", raising=False)
    r = pbem("new", tmp_path / "c", "--game", "tiny", "--no-contributions")
    assert r.code == 2 and "unknown game 'tiny'" in r.err and "$PBEM_GAMES_PATH" in r.err
    assert not (tmp_path / "c").exists()
    monkeypatch.setenv("PBEM_GAMES_PATH", f"{tmp_path / 'nothing here'}:{GAMES}")
    listed = ok(pbem("games", "--json"))
    assert [g["id"] for g in json.loads(listed.out)] == [
        "aa1914", "arrival", "chechen_war", "red_russia", "tiny"]


def ok(r: Result) -> Result:
    assert r.code == 0, r.err + r.out
    return r


def new(tiny: Callable[..., Result], tmp_path: Path) -> tuple[Path, Path]:
    root, keys = tmp_path / "camp", tmp_path / "keys"
    ok(tiny("new", root, "--game", "tiny", "--seed", "tiny", "--keys-dir", keys,
            "--no-contributions", *(a for p in PLAYERS for a in ("--player", p))))
    return root, keys


def send(tiny: Callable[..., Result], root: Path, keys: Path,
         moves: dict[str, list[dict[str, Any]] | None]) -> None:
    """Each faction's orders file: the bot's, or with the given orders, signed and applied."""
    files = []
    for faction, orders in moves.items():
        path = root.parent / f"{faction}-{len(list(root.parent.glob('*.yaml')))}.yaml"
        ok(tiny("-C", root, "bot", faction, "--out", path))
        if orders is not None:
            body = yamlio.load_trusted(path.read_text())
            body["orders"] = orders
            yamlio.write_atomic(path, yamlio.dump(body))
        ok(tiny("-C", root, "sign", path, "--key", keys / f"{faction}_ed25519"))
        files.append(path)
    ok(tiny("-C", root, "apply", *files))


def status(tiny: Callable[..., Result], root: Path) -> dict[str, Any]:
    loaded: dict[str, Any] = json.loads(ok(tiny("-C", root, "status", "--json")).out)
    return loaded


def reports(tiny: Callable[..., Result], root: Path, keys: Path,
            *extra: str) -> dict[tuple[str, str], str]:
    out = {}
    for who in ("public", "blue", "gold", "referee"):
        key = ["--key", str(keys / f"{who}.key")] if who in EMAIL else []
        for fmt in FORMATS:
            out[who, fmt] = ok(tiny("-C", root, "report", "--for", who, "--format", fmt,
                                    *key, *extra)).out
    return out


def mails(tiny: Callable[..., Result], root: Path, outbox: Path) -> dict[str, str]:
    """The text and HTML of each player's queued message, decoded, by address."""
    ok(tiny("-C", root, "mail", "--outbox", outbox))
    out: dict[str, str] = {}
    for path in sorted(outbox.rglob("*.eml")):
        message = email.message_from_bytes(path.read_bytes(), policy=email.policy.default)
        text = "".join(str(part.get_content()) for part in message.walk()
                       if part.get_content_maintype() == "text")
        out[str(message["To"])] = out.get(str(message["To"]), "") + text
    return out


def test_a_tiny_campaign_from_new_to_audit_final(tiny: Callable[..., Result],
                                                 tmp_path: Path) -> None:
    root, keys = new(tiny, tmp_path)
    assert status(tiny, root)["awaiting"] == ["blue", "gold"]
    # turn 1: both march on the Hill, a battle; then each is dealt a secret goal
    send(tiny, root, keys, {"blue": [{"move": "Hill"}], "gold": [{"move": "Hill"}]})
    s = status(tiny, root)
    assert (s["turn"], s["awaiting"], s["over"]) == (2, ["blue", "gold"], False)
    goals = {}
    for faction in EMAIL:
        shown = json.loads(ok(tiny("-C", root, "reveal", "--key", keys / f"{faction}.key",
                                   "--json")).out)
        (goal,) = [g for g in shown if g["kind"] == "goal"]
        assert goal["verified"]
        goals[faction] = goal["value"]
    assert goals["blue"] != goals["gold"]
    assert set(goals.values()) <= {"ford-crossing", "hill-top", "mill-race"}

    texts = reports(tiny, root, keys)
    for (who, fmt), text in texts.items():
        assert "battle at Hill: Blue rolled" in text, (who, fmt)
        # every die, with its label (a forum's BBCode report: its value, the labels in pbem dice)
        assert ("t1:battle:Hill:blue" in text) == (fmt != "bbcode"), (who, fmt)
        assert "-----BEGIN AGE" not in text, (who, fmt)
        for faction, goal in goals.items():  # a goal is its faction's and the referee's alone
            assert (goal in text) == (who in (faction, "referee")), (who, fmt, faction)
    # the map is the game's; the position is pbem's neutral tables of the view
    assert texts["public", "html"].count("<svg") == 1
    assert 'data-place="Hill"' in texts["public", "html"]
    assert "Score: blue 0, gold 0" in texts["public", "text"]
    assert "Goals: blue sealed, gold sealed" in texts["gold", "text"]
    assert "### Places" in texts["public", "md"] and "| Hill |" in texts["public", "md"]

    # mail: one message per player, into the outbox; each holds its own goal only
    sent = mails(tiny, root, tmp_path / "outbox")
    assert sorted(sent) == sorted(f"{n} <{e}>" for n, e in zip(("Alice", "Bob"), EMAIL.values(),
                                                                 strict=True))
    for faction, address in EMAIL.items():
        (text,) = [t for to, t in sent.items() if address in to]
        for other, goal in goals.items():
            assert (goal in text) == (other == faction), (faction, other)

    assert json.loads(ok(tiny("-C", root, "audit", "--json")).out)["ok"]

    # turn 2: the bot's orders for both; the goals are revealed and the game ends
    send(tiny, root, keys, {"blue": None, "gold": None})
    s = status(tiny, root)
    assert s["over"] and s["result"]["winners"]
    last = reports(tiny, root, keys, "--turn", "2")
    for faction, goal in goals.items():  # revealed now: in every report
        assert f"goal was {goal}" in last["public", "text"], faction
    assert "Changes" in last["public", "md"] and "score.blue" in last["public", "md"]
    assert "The game is over." in last["blue", "text"]
    # the result first, each side's score, and nothing left to order
    winner = {"blue": "Blue", "gold": "Gold"}.get(s["result"]["winners"][0], s["result"]["winners"][0])
    for (who, fmt), text in last.items():
        assert "ORDERS TEMPLATE" not in text and "Orders template" not in text, (who, fmt)
        assert f"{winner} won" in text, (who, fmt)

    r = tiny("-C", root, "audit", "--json")
    assert r.code == 0 and json.loads(r.out)["ok"], r.out
    ok(tiny("-C", root, "unseal"))
    r = tiny("-C", root, "audit", "--final", "--json")
    assert r.code == 0 and json.loads(r.out)["ok"], r.out


def test_a_game_without_report_gets_the_neutral_report(tiny: Callable[..., Result],
                                                       tmp_path: Path,
                                                       monkeypatch: pytest.MonkeyPatch) -> None:
    from pbem.game import get_game

    root, _keys = new(tiny, tmp_path)
    with_map = ok(tiny("-C", root, "report", "--format", "html")).out
    assert "Map after step" in with_map
    monkeypatch.delattr(type(get_game("tiny")), "report")
    for fmt in FORMATS:
        text = ok(tiny("-C", root, "report", "--format", fmt)).out
        assert "Score: blue 0, gold 0" in text, fmt
        assert "Ford" in text and "Mill" in text, fmt
    html = ok(tiny("-C", root, "report", "--format", "html")).out
    assert "<svg" not in html and "Map after step" not in html
    assert "<h3>Places</h3>" in html and "<tr><td>Ford</td><td>blue</td></tr>" in html
    checker = Checker()
    checker.feed(html)
    checker.close()
    assert (checker.problems, checker.stack) == ([], [])


def test_a_report_part_pbem_does_not_know_is_refused(tiny: Callable[..., Result],
                                                     tmp_path: Path,
                                                     monkeypatch: pytest.MonkeyPatch) -> None:
    from pbem.game import get_game

    root, _keys = new(tiny, tmp_path)
    monkeypatch.setattr(type(get_game("tiny")), "report", lambda *a: {"maps": ""})
    r = tiny("-C", root, "report")
    assert r.code == 1
    assert "game tiny: report() gave 'maps'; it may give position, changes, map_svg" in r.err
