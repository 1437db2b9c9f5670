"""`pbem check` and `pbem apply` warn of legal orders that will do nothing (Game.warnings):
the file is accepted (exit 0), each warning is a `FILE:LINE: WARNING: message` line on
stdout, and `--json` lists them. The engine's part is tested with a stand-in game (fast);
the command line on a Red Russia campaign, with the testers' case: a minor faction's card
before the third turn (12.1)."""

from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path
from typing import Any

from pbem import orders, yamlio
from pbem.game import Phase, Problem
from tests.conftest import Result, play

Cli = Callable[..., Result]
PHASE = Phase("action", 3, ("south", "north"))
GOOD = "campaign: camp\nturn: 3\nphase: action\nfaction: south\norders:\n- move: x\n- move: y\n"


class Game:
    """Validates with `problems`, warns with `warned`; remembers whom it was asked about."""

    def __init__(self, problems: list[Problem] | None = None,
                 warned: list[Problem] | None = None, error: Exception | None = None) -> None:
        self.problems, self.warned, self.error = problems or [], warned or [], error
        self.asked: list[tuple[str, dict[str, Any]]] = []

    def validate(self, data: Any, state: Any, faction: str, body: dict[str, Any]) -> list[Problem]:
        return list(self.problems)

    def warnings(self, data: Any, state: Any, faction: str, body: dict[str, Any]) -> list[Problem]:
        self.asked.append((faction, body))
        if self.error is not None:
            raise self.error
        return list(self.warned)


class Silent:
    """A game without the hook."""

    def validate(self, data: Any, state: Any, faction: str, body: dict[str, Any]) -> list[Problem]:
        return []


def check(path: Path, game: Any) -> orders.Checked:
    return orders.check_orders(path, campaign_id="camp", phase=PHASE, game=game, data=object(),  # type: ignore[arg-type]
                               game_state={}, factions=["red", "south", "north"])


def write(tmp_path: Path, text: str) -> Path:
    path = tmp_path / "o.yaml"
    path.write_text(text)
    return path


def test_a_warning_is_placed_at_its_line_and_the_file_stays_good(tmp_path: Path) -> None:
    path = write(tmp_path, GOOD)
    game = Game(warned=[Problem(("orders", 1, "move"), "goes nowhere (7.1)"), Problem((), "all idle")])
    checked = check(path, game)
    assert checked.ok and checked.problems == []
    assert checked.warnings == [f"{path}:7: WARNING: goes nowhere (7.1)", f"{path}:1: WARNING: all idle"]
    assert game.asked == [("south", {"orders": [{"move": "x"}, {"move": "y"}], "standing": {}})]


def test_a_file_with_problems_is_not_asked_for_warnings(tmp_path: Path) -> None:
    game = Game(problems=[Problem(("orders", 0, "move"), "no such zone")],
                warned=[Problem(("orders", 1, "move"), "goes nowhere")])
    checked = check(write(tmp_path, GOOD), game)
    assert not checked.ok and checked.warnings == [] and game.asked == []


def test_a_game_without_the_hook_warns_of_nothing(tmp_path: Path) -> None:
    checked = check(write(tmp_path, GOOD), Silent())
    assert checked.ok and checked.warnings == [] and checked.notes == []


def test_warnings_that_fail_are_a_note_never_a_refusal(tmp_path: Path) -> None:
    path = write(tmp_path, GOOD)
    checked = check(path, Game(error=KeyError("card")))
    assert checked.ok and checked.warnings == []
    assert checked.notes == [f"{path}:6: the rules could not look for orders that do nothing "
                             "(KeyError: 'card')"]


def test_a_file_for_two_factions_warns_at_each_factions_orders(tmp_path: Path) -> None:
    path = write(tmp_path, "campaign: camp\nturn: 3\nphase: action\nfaction: [south, north]\n"
                           "orders:\n  south:\n  - move: x\n  north:\n  - move: y\n")
    game = Game(warned=[Problem(("orders", 0, "move"), "idle")])
    checked = check(path, game)
    assert checked.warnings == [f"{path}:7: WARNING: idle", f"{path}:9: WARNING: idle"]
    assert [f for f, _ in game.asked] == ["south", "north"]


# ---------------------------------------------------------------------------------------
# the command line, on Red Russia


def test_check_and_apply_warn_of_a_minor_card_before_the_third_turn(
        new_campaign: Callable[..., Path], tmp_path: Path, pbem: Cli) -> None:
    root = new_campaign()
    assert play(root, until_turn=1, phase="purchase")["turn"] == 1
    from pbem import api

    body = api.bot(root, "south", salts=False)
    body["orders"] = [{"play": {"card": "ukrainian-directorate"}}, *body["orders"]]
    path = tmp_path / "south.yaml"
    text = yamlio.dump(body)
    path.write_text(text)
    line = 1 + text.splitlines().index("- play: {card: ukrainian-directorate}")
    warning = (f"{path}:{line}: WARNING: ukrainian-directorate will have no effect: no minor "
               "faction enters play before the third turn (12.1); played now, the card is spent "
               "for nothing")

    done = pbem("-C", root, "check", path)
    assert done.code == 0, done.err
    assert done.out.splitlines()[:2] == [f"{path}: OK (south)", warning]
    assert "WARNING" not in done.err

    done = pbem("-C", root, "check", path, "--json")
    assert done.code == 0
    (found,) = json.loads(done.out)
    assert (found["file"], found["ok"], found["problems"], found["warnings"]) == (
        str(path), True, [], [warning])

    done = pbem("-C", root, "apply", path)  # recorded all the same, the warning said
    assert done.code == 0, done.err
    assert done.out.splitlines()[0] == warning
    assert "recorded orders of south" in done.out


def test_the_answer_to_an_orders_mail_says_the_warnings(
        new_campaign: Callable[..., Path], tmp_path: Path) -> None:
    import mailbox

    from pbem import api
    from pbem.mail import loop as mailloop
    from tests.engine.mail.test_mail import PLAYERS, journal, parse, player_mail

    root = new_campaign(players=PLAYERS, keys_dir=tmp_path / "keys")
    play(root, until_turn=1, phase="purchase")
    body = api.bot(root, "south", salts=False)
    body["orders"] = [{"play": {"card": "ukrainian-directorate"}}, *body["orders"]]
    path = tmp_path / "orders-south.yaml"
    path.write_text(yamlio.dump(body))
    box = mailbox.mbox(tmp_path / "mbox", create=True)
    box.add(player_mail("Cy <cy@example.org>", "o", mid="<warned@example.org>", files=[path]).as_bytes())
    box.flush()
    (done,) = mailloop.inbox(root, mbox=tmp_path / "mbox")["messages"]
    assert done["outcome"] == "accepted"
    (warning,) = done["warnings"]
    assert warning.startswith("orders-south.yaml:") and "WARNING: ukrainian-directorate will " \
        "have no effect: no minor faction enters play before the third turn (12.1)" in warning
    (reply,) = [r for r in journal(root)["messages"] if r["kind"] == "reply"]
    text = parse(root / ".pbem" / "outbox" / reply["file"]).get_body(
        preferencelist=("plain",)).get_content()
    assert f"Legal, but these will do nothing:\n  {warning}\n" in text
    assert str(tmp_path) not in text  # nothing of the referee's machine
