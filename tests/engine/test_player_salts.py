"""Player salts a player never has to manage (docs/fairness.md "Salts").

`pbem sign`, run in the player's clone, adds the salt that opens what the faction's last
orders committed to and the commitment to the next one, both derived from the player's own
signing key: nothing to keep, and a second machine with the same key agrees. Templates and
`pbem bot` carry no salt; the bot's predictable salts are used only where the bot (or an
NMR policy) writes the orders; `pbem dice` and the reports say which batches had no
player's salt.
"""

from __future__ import annotations

import json
import shutil
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from pbem import api, randomness, yamlio
from pbem.campaign import Campaign
from tests.conftest import Result, need_tool, play, tree_state

SOUTH = "south"


@pytest.fixture
def camp(south_by_bob: Path) -> Path:
    """South is Bob, with his own key; the bot plays the others, with its own salts."""
    return south_by_bob


def _key(root: Path) -> Path:
    return root.parent / "bob_ed25519"


def _bob_turn(pbem: Callable[..., Result], root: Path, name: str) -> Path:
    """Bob's way: the bot's orders as a starting point, checked, signed, applied."""
    path = root.parent / f"{name}.yaml"
    assert pbem("-C", root, "bot", SOUTH, "--out", path).code == 0
    assert "salt" not in yamlio.read_trusted(path)
    checked = pbem("-C", root, "check", path)
    assert checked.code == 0 and "not signed yet" in checked.out, checked.out + checked.err
    signed = pbem("-C", root, "sign", path, "--key", _key(root))
    assert signed.code == 0, signed.err
    assert f"added the dice salts of {SOUTH}" in signed.out
    applied = pbem("-C", root, "apply", path)
    assert applied.code == 0, applied.err
    return path


def _play_until_south(root: Path, folder: Path) -> None:
    """The bot plays the other factions (with its salts) until South is awaited."""
    play(root, seed=f"x-{folder.name}", until=lambda status: SOUTH in status["awaiting"])


def _salts_of(path: Path) -> tuple[str, str]:
    data = yamlio.read_trusted(path)
    return data["salt"], data["salt_next"]


def test_pbem_sign_fills_in_a_chain_of_salts_that_opens_each_commitment(
        camp: Path, tmp_path: Path, pbem: Callable[..., Result]) -> None:
    folder = tmp_path / "bot"
    chain: list[tuple[str, str]] = []
    for i in range(3):
        _play_until_south(camp, folder)
        path = _bob_turn(pbem, camp, f"south-{i}")
        chain.append(_salts_of(path))
    # each salt opens the commitment the file before made; none is one of the bot's
    for (_, committed), (salt, _) in zip(chain, chain[1:], strict=False):
        assert randomness.salt_commitment(salt) == committed
    for salt, _ in chain:
        assert not randomness.is_bot_salt("camp", SOUTH, salt, 1000)
    assert len({s for s, _ in chain}) == 3
    report = api.audit(camp)
    assert report["ok"], report["problems"]


def test_a_second_machine_with_the_same_key_signs_the_same_salts(
        camp: Path, tmp_path: Path, pbem: Callable[..., Result]) -> None:
    _play_until_south(camp, tmp_path / "bot")
    _bob_turn(pbem, camp, "first")
    _play_until_south(camp, tmp_path / "bot2")
    other = tmp_path / "laptop"
    shutil.copytree(camp, other, ignore=shutil.ignore_patterns(".pbem"))  # a clone, no secrets
    files = []
    for root in (camp, other):
        path = tmp_path / f"{root.name}-south.yaml"
        assert pbem("-C", camp, "bot", SOUTH, "--out", path).code == 0
        assert pbem("-C", root, "sign", path, "--key", _key(camp)).code == 0
        files.append(path)
    assert _salts_of(files[0]) == _salts_of(files[1])
    # and that salt opens what the first file committed to
    committed = Campaign.open(camp).state()["salt_commits"][SOUTH]
    assert randomness.salt_commitment(_salts_of(files[0])[0]) == committed


def _bot_plays_everyone(root: Path, *, until_turn: int, phase: str) -> None:
    """The bot plays every faction, South too (its file signed with Bob's key, the bot's
    salts in it: what an NMR policy or a lazy player sends)."""
    play(root, until_turn=until_turn, phase=phase, seed="x", sign={SOUTH: _key(root)})


def test_the_batch_of_a_phase_mixes_the_players_salt_and_dice_says_which_had_none(
        camp: Path, tmp_path: Path, pbem: Callable[..., Result]) -> None:
    _bot_plays_everyone(camp, until_turn=2, phase="purchase")
    rolls = json.loads(pbem("-C", camp, "dice", "--json").out)
    bare = sorted({r["batch"] for r in rolls if r["batch"]})
    assert bare and all(not r["player_salts"] for r in rolls)  # the bot's salts only
    # Bob's first file must open the bot's last commitment, so its salt is the bot's; the
    # one it commits to, and every one after, is his own
    first = _bob_turn(pbem, camp, "first")
    assert randomness.is_bot_salt("camp", SOUTH, _salts_of(first)[0], 1000)
    # Bob plays on until a phase his own salt went into rolled dice (not every phase does)
    own: set[str] = set()
    mixed: list[dict[str, Any]] = []
    for turn in range(6):
        _play_until_south(camp, tmp_path / f"bot{turn + 2}")
        salt, _ = _salts_of(_bob_turn(pbem, camp, f"bob-{turn}"))
        assert not randomness.is_bot_salt("camp", SOUTH, salt, 1000)
        own.add(salt)
        _play_until_south(camp, tmp_path / f"after{turn}")  # the others' orders in: it resolves
        mixed = [e for e in Campaign.open(camp).entries()
                 if e["type"] == "resolve" and e.get("salts", {}).get(SOUTH) in own]
        if any(e.get("dice") for e in mixed):
            break
    assert any(e.get("dice") for e in mixed), "no batch with dice mixed South's own salt"
    rolls = json.loads(pbem("-C", camp, "dice", "--json").out)
    by_batch: dict[int, Any] = {r["batch"]: r["player_salts"] for r in rolls if r["batch"]}
    for entry in mixed:
        if entry.get("dice"):
            assert by_batch[entry["batch"]] == [SOUTH]
    assert all(by_batch[b] == [] for b in bare)
    text = pbem("-C", camp, "dice").out
    line = next(t for t in text.splitlines() if t.startswith("batches with no player's salt"))
    listed = [int(b) for b in line.split(": ")[-1].split(", ")]
    assert set(bare) <= set(listed) and not {e["batch"] for e in mixed} & set(listed)


def test_templates_and_pbem_bot_carry_no_salt(camp: Path, tmp_path: Path,
                                              pbem: Callable[..., Result]) -> None:
    from pbem.reports.context import build_context

    _play_until_south(camp, tmp_path / "bot")
    out = pbem("-C", camp, "bot", SOUTH)
    assert out.code == 0 and "salt" not in out.out
    (template,) = build_context(camp, SOUTH)["orders_templates"]
    assert "salt" not in yamlio.load_trusted(template["text"])
    # the bot's own orders (demo, NMR, tests) keep the bot's salts
    assert api.bot(camp, SOUTH)["salt"] == next(randomness.bot_salts("camp", SOUTH))


def test_signing_outside_a_campaign_adds_no_salt_and_says_so(
        camp: Path, tmp_path: Path, pbem: Callable[..., Result]) -> None:
    _play_until_south(camp, tmp_path / "bot")
    path = tmp_path / "o.yaml"
    assert pbem("-C", camp, "bot", SOUTH, "--out", path).code == 0
    before = path.read_text()
    elsewhere = tmp_path / "nowhere"
    elsewhere.mkdir()
    r = pbem("-C", elsewhere, "sign", path, "--key", _key(camp))
    assert r.code == 0, r.err
    assert r.err.splitlines()[0] == (
        f"WARNING: no campaign in {elsewhere}: NO DICE SALT of yours was added, so this phase's "
        "dice mix none of yours; run pbem sign in your clone of the campaign (or with -C DIR) "
        "to add them")
    assert "signed with the key of" not in r.out  # outside a clone nobody's key is known
    after = path.read_text()  # the time of signing only (ORDERS.md: which file is newer)
    assert after.startswith(before) and after[len(before):].startswith("signed: '")
    assert "salt" not in yamlio.read_trusted(path)
    # pbem check says so too, of a signed file (of a draft, `pbem sign` will add it)
    checked = pbem("-C", camp, "check", path)
    assert checked.code == 0
    assert (f"note: {path}:1: no dice salt of south's: this phase's dice will mix none of "
            "south's; 'pbem sign' in your clone adds it") in checked.out
    # accepted all the same: that phase's dice then have no salt of South's
    assert pbem("-C", camp, "apply", path).code == 0


def test_a_draft_without_a_salt_is_not_told_it_lacks_one(camp: Path, tmp_path: Path,
                                                          pbem: Callable[..., Result]) -> None:
    _play_until_south(camp, tmp_path / "bot")
    path = tmp_path / "o.yaml"
    assert pbem("-C", camp, "bot", SOUTH, "--out", path).code == 0
    checked = pbem("-C", camp, "check", path)
    assert checked.code == 0 and "no dice salt" not in checked.out


def test_sign_says_whose_key_and_refuses_another_factions(
        camp: Path, tmp_path: Path, pbem: Callable[..., Result]) -> None:
    _play_until_south(camp, tmp_path / "bot")
    path = tmp_path / "o.yaml"
    assert pbem("-C", camp, "bot", SOUTH, "--out", path).code == 0
    assert pbem("keygen", "--out", tmp_path / "eve").code == 0
    before = path.read_bytes()
    r = pbem("-C", camp, "sign", path, "--key", tmp_path / "eve_ed25519")
    assert r.code == 1
    assert r.err.strip() == (f"Error: {tmp_path / 'eve_ed25519'}: the key of no faction of this "
                             f"campaign, not of south, which {path} orders; sign with south's key "
                             "(or --force for a key that player shares between factions)")
    assert path.read_bytes() == before and not path.with_name("o.yaml.sig").exists()
    forced = pbem("-C", camp, "sign", path, "--key", tmp_path / "eve_ed25519", "--force")
    assert forced.code == 0 and "signed with a key of no faction of this campaign" in forced.out
    assert pbem("-C", camp, "check", path).code == 1  # and the campaign refuses it, as before
    mine = pbem("-C", camp, "sign", path, "--key", _key(camp))
    assert mine.code == 0 and "signed with the key of south" in mine.out
    assert pbem("-C", camp, "check", path).code == 0


def test_a_salt_written_by_hand_is_kept(camp: Path, tmp_path: Path,
                                        pbem: Callable[..., Result]) -> None:
    _play_until_south(camp, tmp_path / "bot")
    path = tmp_path / "o.yaml"
    assert pbem("-C", camp, "bot", SOUTH, "--out", path).code == 0
    own = "5a" * 16
    path.write_text(path.read_text() + f"salt: {own}\nsalt_next: {'ab' * 32}\n")
    assert pbem("-C", camp, "sign", path, "--key", _key(camp)).code == 0
    assert _salts_of(path) == (own, "ab" * 32)


def test_ssh_keygen_signs_a_file_pbem_sign_salted(camp: Path, tmp_path: Path,
                                                   pbem: Callable[..., Result]) -> None:
    # the salts are in the file before it is signed: the signature covers them, and an
    # independent `ssh-keygen -Y verify` agrees
    import subprocess

    keygen = need_tool("ssh-keygen")
    _play_until_south(camp, tmp_path / "bot")
    path = tmp_path / "o.yaml"
    assert pbem("-C", camp, "bot", SOUTH, "--out", path).code == 0
    assert pbem("-C", camp, "sign", path, "--key", _key(camp)).code == 0
    public = (tmp_path / "bob_ed25519.pub").read_text().split()
    allowed = tmp_path / "allowed"
    allowed.write_text(f"bob {public[0]} {public[1]}\n")
    with path.open("rb") as data:
        verified = subprocess.run([keygen, "-Y", "verify", "-f", str(allowed), "-I", "bob", "-n",
                                   "pbem-orders-v1", "-s", f"{path}.sig"], stdin=data,
                                  capture_output=True, text=True)
    assert verified.returncode == 0, verified.stderr
    before = tree_state(camp)
    assert pbem("-C", camp, "check", path).code == 0
    assert tree_state(camp) == before

