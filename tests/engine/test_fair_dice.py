"""Dice in a campaign (docs/fairness.md): the seed chain, salts, hidden draws, tampering.

The tampering tests re-sign the doctored entry with the referee's own key, so that only
the dice checks themselves can catch it: a referee is trusted with secrets, not integrity.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from conftest import git, play

from pbem import api, dice, yamlio
from pbem.campaign import ENTRY_ORDER
from pbem.crypto.keys import load_ssh_private_file, sign_entry


@pytest.fixture
def played(tmp_path: Path) -> Path:
    root = tmp_path / "camp"
    api.new_campaign(root, "red_russia", contributions=False, hot_seat=True, seed="fair", name="camp")
    play(root, until_turn=3, phase="action")
    return root


def entries(root: Path) -> list[dict[str, Any]]:
    return [yamlio.read_trusted(p) for p in sorted((root / "log").glob("*.yaml"))]


def test_every_batch_is_verified_and_hidden_draws_wait_for_unseal(played: Path, pbem: Any) -> None:
    result = pbem("-C", played, "dice", "--json")
    assert result.code == 0, result.err
    rolls = json.loads(result.out)
    states = {r["state"] for r in rolls if r["seq"] > 1}
    assert states == {"verified"}
    assert {r["state"] for r in rolls if r["seq"] == 1} == {"hidden"}  # set-up draws
    assert pbem("-C", played, "unseal", "--force").code == 0
    rolls = json.loads(pbem("-C", played, "dice", "--json").out)
    assert {r["state"] for r in rolls} == {"verified"}
    final = json.loads(pbem("-C", played, "audit", "--final", "--json").out)
    assert final["ok"] and final["checked"]["rolls_recomputed"] == len(rolls)


def test_the_published_seeds_form_the_chain_of_the_anchor(played: Path) -> None:
    log = entries(played)
    config = yamlio.read_trusted(played / "campaign.yaml")
    assert log[0]["randomness"]["anchor"] == config["dice"]["anchor"]
    previous = bytes.fromhex(config["dice"]["anchor"])
    batches = [e for e in log if e["type"] == "resolve"]
    assert [e["batch"] for e in batches] == list(range(1, len(batches) + 1))
    for e in batches:
        seed = bytes.fromhex(e["seed"])
        assert dice.verify_link(previous, seed)
        previous = seed


def test_the_salts_sent_with_orders_change_the_dice(played: Path) -> None:
    rolled = [e for e in entries(played) if e["type"] == "resolve" and e["dice"] and e["salts"]]
    assert rolled
    e = rolled[0]
    seed = bytes.fromhex(e["seed"])
    label, sides = e["dice"][0]["label"], e["dice"][0]["sides"]
    values = [dice.die(dice.batch_key(seed, e["salts"]), d["label"], d["sides"]) for d in e["dice"]]
    assert values == [d["value"] for d in e["dice"]]
    # without the players' salts (what the referee knows before the orders are in) or with
    # one salt changed, the same seed gives other dice
    changed = dict(e["salts"])
    faction = sorted(changed)[0]
    changed[faction] = "00" * 16
    for salts in ({}, changed):
        key = dice.batch_key(seed, salts)
        others = [dice.die(key, f"{label}:{i}", 6) for i in range(40)]
        mine = [dice.die(dice.batch_key(seed, e["salts"]), f"{label}:{i}", 6) for i in range(40)]
        assert others != mine
    assert sides >= 2


def test_a_salt_must_open_last_times_commitment(played: Path, tmp_path: Path, pbem: Any) -> None:
    status = api.status(played)
    faction = status["awaiting"][0]
    orders = api.bot(played, faction)
    assert orders["salt"] and orders["salt_next"]
    orders["salt"] = "ab" * 16
    path = tmp_path / "o.yaml"
    yamlio.write_atomic(path, yamlio.dump(orders))
    result = pbem("-C", played, "check", path)
    assert result.code == 1 and "not the one" in result.err


def _rewrite_last(root: Path, change: Any) -> None:
    """Change the last entry, re-sign it with the referee's key, commit."""
    path = sorted((root / "log").glob("*.yaml"))[-1]
    entry = yamlio.read_trusted(path)
    change(entry)
    body = {k: v for k, v in entry.items() if k != "signature"}
    entry["signature"] = sign_entry(load_ssh_private_file(root / ".pbem" / "referee_ed25519"), body)
    order = {k: i for i, k in enumerate(ENTRY_ORDER)}
    entry = dict(sorted(entry.items(), key=lambda kv: order.get(kv[0], len(order))))
    path.write_text(yamlio.dump(entry))
    git(root, "commit", "-q", "-a", "--amend", "--no-edit")  # as a doctored history would be


def _last_with_dice(root: Path) -> None:
    """The fixture needs its last entry to be a resolution that rolled dice."""
    last = entries(root)[-1]
    assert last["type"] == "resolve" and last["dice"], last["summary"]


def _problems(pbem: Any, root: Path) -> list[str]:
    result = pbem("-C", root, "audit", "--json")
    assert result.code == 3, result.out
    return list(json.loads(result.out)["problems"])


@pytest.fixture
def at_initiative(tmp_path: Path) -> Path:
    root = tmp_path / "camp"
    api.new_campaign(root, "red_russia", contributions=False, hot_seat=True, seed="fair", name="camp")
    play(root, until_turn=2, phase="action")
    _last_with_dice(root)
    return root


def test_a_changed_die_is_caught_even_when_re_signed(at_initiative: Path, pbem: Any) -> None:
    def change(entry: dict[str, Any]) -> None:
        entry["dice"][0]["value"] = entry["dice"][0]["value"] % 6 + 1

    _rewrite_last(at_initiative, change)
    assert any("is not what the seed and salts give" in p for p in _problems(pbem, at_initiative))


def test_a_swapped_seed_is_caught(at_initiative: Path, pbem: Any) -> None:
    def change(entry: dict[str, Any]) -> None:
        entry["seed"] = "11" * 32

    _rewrite_last(at_initiative, change)
    assert any("not the next element of the seed chain" in p for p in _problems(pbem, at_initiative))


def test_a_reused_chain_element_is_caught(at_initiative: Path, pbem: Any) -> None:
    previous = [e for e in entries(at_initiative) if e["type"] == "resolve"][-2]

    def change(entry: dict[str, Any]) -> None:
        entry["batch"], entry["seed"] = previous["batch"], previous["seed"]

    _rewrite_last(at_initiative, change)
    problems = _problems(pbem, at_initiative)
    assert any("reused or skipped chain element" in p for p in problems)


def test_a_duplicate_label_is_caught(at_initiative: Path, pbem: Any) -> None:
    earlier = next(e for e in entries(at_initiative) if e["type"] == "resolve" and e["dice"])

    def change(entry: dict[str, Any]) -> None:
        entry["dice"][0]["label"] = earlier["dice"][0]["label"]

    _rewrite_last(at_initiative, change)
    assert any("was used already" in p for p in _problems(pbem, at_initiative))


def test_a_wrong_hidden_secret_fails_the_final_audit(at_initiative: Path, pbem: Any) -> None:
    assert pbem("-C", at_initiative, "unseal", "--force").code == 0

    def change(entry: dict[str, Any]) -> None:
        entry["hidden"] = "22" * 32

    _rewrite_last(at_initiative, change)
    result = pbem("-C", at_initiative, "audit", "--final", "--json")
    assert result.code == 3
    assert any("hidden" in p for p in json.loads(result.out)["problems"])


def test_unseal_waits_for_the_end_of_the_game(at_initiative: Path, pbem: Any) -> None:
    result = pbem("-C", at_initiative, "unseal")
    assert result.code == 1 and "not over" in result.err
