"""campaign.yaml cannot be changed behind the log's back (docs/design.md "campaign.yaml").

The game, its options and overrides, the dice anchor, the referee's keys and each faction's
seat (player, address, keys) are recorded by the log (`new`, then `seat` steps). Edited by
hand, committed or not, every command refuses to work with them and `pbem audit` fails,
naming the commit; a change made with `pbem seat` is a signed step that audits clean. The
moderator's other settings (deadlines, mail, absences) stay free, and pbem commits them with
its next step so that every clone agrees on deadlines.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from pbem import api, yamlio
from tests.conftest import Result, git, play, tree_state

CONFIG = "campaign.yaml"


@pytest.fixture
def camp(tmp_path: Path, pbem: Callable[..., Result]) -> Path:
    """Ann plays Red and Bob South; every faction has keys (in keys/), so the bot plays."""
    assert pbem("keygen", "--out", tmp_path / "dan").code == 0
    root = tmp_path / "camp"
    api.new_campaign(root, "red_russia", contributions=False, hot_seat=True, seed="guard", name="camp", keys_dir=tmp_path / "keys",
                     players=["red=Ann <ann@example.org>", "south=Bob <bob@example.org>"])
    return root


def _edit(root: Path, change: Callable[[dict[str, Any]], None]) -> None:
    config = yamlio.read_trusted(root / CONFIG)
    change(config)
    (root / CONFIG).write_text(yamlio.dump(config))


def _swap_ssh(config: dict[str, Any]) -> None:
    f = config["factions"]
    f["red"]["ssh"], f["south"]["ssh"] = f["south"]["ssh"], f["red"]["ssh"]


def _age_of_another(config: dict[str, Any]) -> None:
    config["factions"]["south"]["age"] = config["factions"]["red"]["age"]


def _flip_option(config: dict[str, Any]) -> None:
    config["options"]["famine"] = not config["options"]["famine"]
    config["options"]["railways"] = True  # famine requires railways


CHANGES = [(_swap_ssh, ["factions.red.ssh", "factions.south.ssh"]),
           (_age_of_another, ["factions.south.age"]),
           (_flip_option, ["options.famine", "options.railways"])]
IDS = ["two-ssh-keys-swapped", "an-age-key-replaced-by-anothers", "an-option-flipped"]


@pytest.mark.parametrize(("change", "paths"), CHANGES, ids=IDS)
def test_an_edit_committed_by_hand_fails_the_audit_naming_the_commit(
        camp: Path, pbem: Callable[..., Result], change: Callable[..., None], paths: list[str]) -> None:
    play(camp, until_turn=0, phase="setup-reduce")
    _edit(camp, change)
    git(camp, "commit", "-q", "-am", "players changed their keys")
    sha = git(camp, "rev-parse", "--short=10", "HEAD")
    r = pbem("-C", camp, "audit")
    assert r.code == 3
    assert f"problem: {CONFIG} in commit {sha} changes {', '.join(paths)} without a recorded step" in r.err


@pytest.mark.parametrize(("change", "paths"), CHANGES, ids=IDS)
def test_every_command_refuses_an_edited_campaign_yaml(
        camp: Path, pbem: Callable[..., Result], tmp_path: Path, change: Callable[..., None],
        paths: list[str]) -> None:
    play(camp, until_turn=0, phase="setup-reduce")
    orders = tmp_path / "o.yaml"
    yamlio.write_atomic(orders, yamlio.dump(api.bot(camp, "north")))
    _edit(camp, change)
    before = tree_state(camp)
    for command in (["status"], ["apply", orders], ["resolve", "--nmr"], ["log"]):
        r = pbem("-C", camp, *command)
        assert r.code == 1, (command, r.out)
        assert f"{CONFIG}: {', '.join(paths)} differ" in r.err, (command, r.err)
        assert "pbem seat" in r.err and "Traceback" not in r.err
    assert tree_state(camp) == before
    a = pbem("-C", camp, "audit")  # audit reports it, and changes nothing
    assert a.code == 3 and f"{CONFIG} in the work tree changes {', '.join(paths)}" in a.err
    assert tree_state(camp) == before


def test_a_new_player_is_seated_by_a_recorded_step_and_signs_with_their_key(
        camp: Path, pbem: Callable[..., Result], tmp_path: Path) -> None:
    play(camp, until_turn=0, phase="setup-reduce")
    r = pbem("-C", camp, "seat", "south", "--player", "Dan <dan@example.org>",
             "--key", tmp_path / "dan.card", "--reason", "Bob left the game")
    assert r.code == 0, r.err
    assert "seat south: Dan with a new key: Bob left the game" in r.out
    config = yamlio.read_trusted(camp / CONFIG)
    assert config["factions"]["south"]["player"] == "Dan"
    assert config["factions"]["south"]["ssh"] == (tmp_path / "dan.card").read_text().splitlines()[1]
    log = json.loads(pbem("-C", camp, "log", "--json").out)
    assert log[-1]["type"] == "seat" and "Bob left the game" in log[-1]["summary"]
    assert git(camp, "status", "--porcelain") == ""
    # Bob's key no longer signs South's orders; Dan's does
    orders = tmp_path / "south.yaml"
    assert pbem("-C", camp, "bot", "south", "--out", orders).code == 0
    assert pbem("-C", camp, "sign", orders, "--key", tmp_path / "keys" / "south_ed25519").code == 1
    assert pbem("-C", camp, "sign", orders, "--key", tmp_path / "keys" / "south_ed25519",
                "--force").code == 0
    refused = pbem("-C", camp, "apply", orders)
    assert refused.code == 1 and "signature" in refused.err
    assert pbem("-C", camp, "sign", orders, "--key", tmp_path / "dan_ed25519").code == 0
    assert pbem("-C", camp, "apply", orders).code == 0
    assert pbem("-C", camp, "audit").code == 0


def test_seat_needs_a_reason_and_a_player_or_hot_seat(camp: Path, pbem: Callable[..., Result]) -> None:
    before = tree_state(camp)
    assert pbem("-C", camp, "seat", "south", "--reason", "x").code == 2
    assert pbem("-C", camp, "seat", "south", "--hot-seat", "--reason", " ").code == 2
    assert pbem("-C", camp, "seat", "poland", "--hot-seat", "--reason", "x").code == 2
    assert tree_state(camp) == before


def test_allowed_edits_are_committed_with_the_next_step(
        camp: Path, pbem: Callable[..., Result], tmp_path: Path) -> None:
    play(camp, until_turn=0, phase="setup-reduce")

    def deadlines(config: dict[str, Any]) -> None:
        config["deadlines"] = {"hours": 48}
        config["absences"] = [{"faction": "red", "from": "2026-12-20", "to": "2027-01-03"}]
    _edit(camp, deadlines)
    assert pbem("-C", camp, "status").code == 0  # free to edit: pbem works on
    orders = tmp_path / "north.yaml"
    yamlio.write_atomic(orders, yamlio.dump(api.bot(camp, "north")))
    assert pbem("-C", camp, "apply", orders).code == 0
    assert git(camp, "status", "--porcelain") == ""  # committed with the step: clones agree
    committed = yamlio.load_trusted(git(camp, "show", f"HEAD:{CONFIG}"))
    assert committed["deadlines"] == {"hours": 48}
    assert pbem("-C", camp, "audit").code == 0


def _north_applied(camp: Path, pbem: Callable[..., Result], tmp_path: Path) -> None:
    """At the set-up reductions, North's orders recorded (a step an undo can take back)."""
    play(camp, until_turn=0, phase="setup-reduce")
    orders = tmp_path / "north.yaml"
    yamlio.write_atomic(orders, yamlio.dump(api.bot(camp, "north")))
    assert pbem("-C", camp, "apply", orders).code == 0


def test_a_whole_campaign_with_undo_adjust_a_key_change_and_an_nmr_audits_clean(
        camp: Path, pbem: Callable[..., Result], tmp_path: Path) -> None:
    _north_applied(camp, pbem, tmp_path)
    assert pbem("-C", camp, "undo", "--reason", "wrong file").code == 0
    assert pbem("-C", camp, "seat", "south", "--player", "Dan <dan@example.org>", "--key",
                tmp_path / "dan.card", "--reason", "Bob left").code == 0
    fix = tmp_path / "fix.yaml"
    money = yamlio.read_trusted(camp / "state.yaml")["game"]["money"]["red"]
    fix.write_text(f"- type: set_resources\n  faction: red\n  money: {money + 1}\n")
    assert pbem("-C", camp, "adjust", fix, "--reason", "a lost purchase").code == 0
    assert pbem("-C", camp, "resolve", "--nmr").code == 0  # nobody sent orders
    # on to turn 1's action phase, Dan signing South's orders
    play(camp, until_turn=1, phase="action", seed="x", sign={"south": tmp_path / "dan_ed25519"})
    r = pbem("-C", camp, "audit")
    assert r.code == 0, r.err
    assert "correction: " in r.out


def test_orders_given_by_another_channel_are_entered_on_the_record(
        camp: Path, pbem: Callable[..., Result], tmp_path: Path) -> None:
    # South's player has a key and must sign; he phoned his orders in: the referee enters
    # them unsigned, with the reason, which every player sees
    assert pbem("-C", camp, "seat", "south", "--player", "Dan <dan@example.org>", "--key",
                tmp_path / "dan.card", "--reason", "Bob left").code == 0
    orders = tmp_path / "south.yaml"
    assert pbem("-C", camp, "bot", "south", "--out", orders).code == 0
    before = tree_state(camp)
    assert pbem("-C", camp, "apply", orders).code == 1  # unsigned: refused
    assert pbem("-C", camp, "apply", orders, "--on-behalf", " ").code == 2
    assert tree_state(camp) == before
    r = pbem("-C", camp, "apply", orders, "--on-behalf", "Dan phoned them in, 20:10 UTC")
    assert r.code == 0, r.err
    log = json.loads(pbem("-C", camp, "log", "--json").out)
    entry = next(e for e in log if "entered by the referee" in e["summary"])
    assert entry["summary"].endswith("entered by the referee: Dan phoned them in, 20:10 UTC")
    a = pbem("-C", camp, "audit")
    assert a.code == 0, a.err
    assert ("the referee entered the orders of south, given by another channel and not signed: "
            "Dan phoned them in, 20:10 UTC") in a.out


def test_an_undo_after_a_seat_keeps_the_new_seat(
        camp: Path, pbem: Callable[..., Result], tmp_path: Path) -> None:
    # the seat is not taken back by an undo of an earlier step: campaign.yaml and the log
    # go on agreeing (found by the independent verifier)
    _north_applied(camp, pbem, tmp_path)
    assert pbem("-C", camp, "seat", "south", "--player", "Dan <dan@example.org>", "--key",
                tmp_path / "dan.card", "--reason", "Bob left").code == 0
    r = pbem("-C", camp, "undo", "--reason", "north's file was the wrong one")
    assert r.code == 0, r.err
    assert pbem("-C", camp, "status").code == 0
    state = yamlio.read_trusted(camp / "state.yaml")
    assert state["settings"]["factions"]["south"]["player"] == "Dan"
    assert "north" not in state["pending"]
    assert pbem("-C", camp, "audit").code == 0


def test_orders_signed_with_the_previous_players_key_after_a_new_seat_are_named_by_the_audit(
        camp: Path, pbem: Callable[..., Result], tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """A dishonest referee whose pbem still takes Bob's key for South after Dan took the seat
    records orders Bob signed: the audit checks each signature against the seat in force at
    its step, Dan's, and names the step."""
    from pbem.orders import Signing

    play(camp, until=lambda s: s["phase"] == "action" and s["awaiting"] == ["south"])
    bob = yamlio.read_trusted(camp / CONFIG)["factions"]["south"]["ssh"]
    r = pbem("-C", camp, "seat", "south", "--player", "Dan <dan@example.org>",
             "--key", tmp_path / "dan.card", "--reason", "Bob left the game")
    assert r.code == 0, r.err
    orders = tmp_path / "south.yaml"
    body = api.bot(camp, "south", seed="x")
    body["orders"] = []  # public orders, no secret part: the file and its .sig are committed
    yamlio.write_atomic(orders, yamlio.dump(body))
    assert pbem("-C", camp, "sign", orders, "--key", tmp_path / "keys" / "south_ed25519",
                "--force").code == 0
    honest = api.signing

    def bobs_key(campaign: Any, state: dict[str, Any]) -> Signing:
        found = honest(campaign, state)
        found.keys["south"] = bob
        return found

    monkeypatch.setattr(api, "signing", bobs_key)
    step = api.apply(camp, [orders]).recorded[0]["seq"]
    monkeypatch.undo()
    report = api.audit(camp)
    assert not report["ok"]
    assert [p for p in report["problems"] if "signature" in p] == [
        f"log/{step:06d}.yaml: the signature of south's orders does not verify: the signature "
        "was made with another key than the expected signer's"], report["problems"]
