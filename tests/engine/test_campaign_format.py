"""campaign.yaml's `pbem:` is the campaign format: a format this pbem does not know is
refused by every command, the campaign left as it was, and named by the audit in any commit
that carries it."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

import pytest
from conftest import Result, git, tree_state

from pbem import yamlio
from pbem.campaign import CONFIG, FORMAT

# every command that opens the campaign, with what it needs beside it
COMMANDS: list[list[str]] = [
    ["status"], ["log"], ["resolve", "--nmr"], ["bot", "siberian"], ["undo", "--reason", "x"],
    ["adjust", "ADJUSTMENT", "--reason", "x"], ["audit"], ["dice"],
    ["report"], ["mail"], ["remind"], ["tick"], ["unseal", "--force"], ["apply", "ORDERS"],
    ["check", "ORDERS"], ["seat", "red", "--player", "Ann <ann@example.org>", "--reason", "x"],
    ["inbox", "--maildir", "MAILDIR"], ["publish"], ["reveal", "--key", "KEY"],
]


def set_format(camp: Path, value: object) -> None:
    config = yamlio.read_trusted(camp / CONFIG)
    if value is None:
        del config["pbem"]
    else:
        config["pbem"] = value
    (camp / CONFIG).write_text(yamlio.dump(config))


@pytest.mark.parametrize("value", [2, 0, "1", 1.0, None])
def test_every_command_refuses_a_format_it_does_not_know(
        new_campaign: Callable[..., Path], pbem: Callable[..., Result], tmp_path: Path,
        value: object) -> None:
    camp = new_campaign()
    orders = tmp_path / "orders.yaml"
    assert pbem("-C", camp, "bot", "siberian", "--out", orders).code == 0
    adjustment = tmp_path / "adjust.yaml"
    adjustment.write_text("- {type: note, text: a correction}\n")
    for sub in ("cur", "new", "tmp"):
        (tmp_path / "Maildir" / sub).mkdir(parents=True)
    given = {"ORDERS": str(orders), "ADJUSTMENT": str(adjustment),
             "MAILDIR": str(tmp_path / "Maildir"), "KEY": str(camp / ".pbem" / "referee.key")}
    assert yamlio.read_trusted(camp / CONFIG)["pbem"] == FORMAT == 1
    set_format(camp, value)
    before = tree_state(camp)
    told = (f"pbem: {value!r} is not a campaign format this pbem knows (it reads format 1); "
            "open the campaign with the pbem that made it" if value is not None
            else "no 'pbem:' campaign format (this pbem reads 'pbem: 1')")
    for command in COMMANDS:
        r = pbem("-C", camp, *[given.get(a, a) for a in command])
        assert r.code != 0, command
        assert r.err.strip().splitlines() == [f"Error: {camp / CONFIG}: {told}"], (command, r.err)
        assert tree_state(camp) == before, command


def test_the_audit_names_a_commit_whose_format_it_does_not_know(
        new_campaign: Callable[..., Path], pbem: Callable[..., Result]) -> None:
    """A referee who committed a campaign.yaml of format 2, then put format 1 back."""
    camp = new_campaign()
    assert pbem("-C", camp, "audit").code == 0
    set_format(camp, 2)
    git(camp, "commit", "-qam", "format 2")
    bad = git(camp, "rev-parse", "HEAD")
    set_format(camp, FORMAT)
    git(camp, "commit", "-qam", "format 1 again")
    r = pbem("-C", camp, "audit")
    assert r.code == 3
    assert (f"{CONFIG} in commit {bad[:10]}: pbem: 2 is not a campaign format this pbem knows "
            "(it reads format 1); open the campaign with the pbem that made it") in r.out + r.err


def test_the_audit_names_a_commit_whose_campaign_yaml_is_no_mapping(
        new_campaign: Callable[..., Path], pbem: Callable[..., Result]) -> None:
    camp = new_campaign()
    kept = (camp / CONFIG).read_text()
    (camp / CONFIG).write_text("- pbem: 1\n- game: red_russia\n")
    git(camp, "commit", "-qam", "a list")
    bad = git(camp, "rev-parse", "HEAD")
    (camp / CONFIG).write_text(kept)
    git(camp, "commit", "-qam", "put back")
    r = pbem("-C", camp, "audit")
    assert r.code == 3 and "Traceback" not in r.err
    assert f"problem: {CONFIG} in commit {bad[:10]}: not a mapping of settings" in r.err
