"""`pbem audit` against a dishonest referee (docs/design.md "Trust model": nobody, the referee
included, is trusted for integrity).

The referee holds the signing key of the log, so every doctored entry here is signed
again with it, the `prev` hashes of the entries after it are put right and signed again,
every snapshot is made the fold of the doctored log, and git history is rewritten (turn
tags moved along), as a careful cheat would do. What is left is one thing that only one
check of the audit can see; each test asserts that check's own message, naming the step.
"""

from __future__ import annotations

import hashlib
import json
import os
import shutil
import subprocess
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest
from audit_fast import cached_base, own
from conftest import git, run_pbem, tree_state

from pbem import api, dice, step, yamlio
from pbem.campaign import ENTRY_ORDER, STATE, Campaign
from pbem.crypto import sealed
from pbem.crypto.keys import load_ssh_private_file, sign_entry
from pbem.log import Folder, entry_hash, entry_name, normal


# the base campaign: every faction's key from --keys-dir, every orders file signed except
# Red's for setup-reduce-red (unsigned orders are allowed for these factions), played by
# the bot to turn 2's action phase. Its steps (seq):
#   2-4 sealed set-up orders, 5 resolved with them revealed; 6 Red's public signed orders,
#   7 resolved; 13 Red's public unsigned orders, 14 resolved (tag turn-0001);
#   15-18 sealed purchase orders, 19 resolved; 20 initiative; 21 Siberian action orders
#   with a sealed secret part (the attack spending), 22 resolved, opening it; ...
#   29 victory: the turn's orders files revealed (tag turn-0002); 35 initiative of turn 2.
@pytest.fixture(scope="module")
def base(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Path]:
    """The campaign above, built once per version of the code (tests/audit_fast.py)."""
    root = cached_base(tmp_path_factory) / "camp"
    assert api.audit(root)["ok"]
    yield root


@pytest.fixture
def camp(base: Path, tmp_path: Path) -> Path:
    """A fresh copy of the base campaign for one test to doctor. The copy forgets what the
    base's audit verified (.git/pbem-verified.json): these tests are the audit's checks of a
    history seen for the first time, as a fresh clone sees it (test_history_witness.py
    tests the memory)."""
    shutil.copytree(base.parent, tmp_path / "copy", symlinks=True)
    (tmp_path / "copy" / "camp" / ".git" / "pbem-verified.json").unlink(missing_ok=True)
    return tmp_path / "copy" / "camp"


# ---------------------------------------------------------------------------------------
# the dishonest referee


def dump_entry(entry: dict[str, Any]) -> str:
    order = {k: i for i, k in enumerate(ENTRY_ORDER)}
    return yamlio.dump(dict(sorted(entry.items(), key=lambda kv: order.get(kv[0], len(order)))))


class Referee:
    """The referee gone bad: the log at HEAD as data to doctor, the referee's keys and
    secret to sign, seal and roll with, and a rewrite of git history that makes every
    other thing agree with the doctored log."""

    def __init__(self, root: Path) -> None:
        self.root = root
        self.campaign = Campaign.open(root)
        self.key = load_ssh_private_file(root / ".pbem" / "referee_ed25519")
        self.secret = bytes.fromhex((root / ".pbem" / "secret").read_text().strip())
        self.original = [yamlio.read_trusted(p) for p in sorted((root / "log").glob("*.yaml"))]
        # one slot per original entry: the doctored entry, or None for an entry taken out
        self.log: list[dict[str, Any] | None] = [json.loads(json.dumps(e)) for e in self.original]

    def entry(self, seq: int) -> dict[str, Any]:
        found = self.log[seq - 1]
        assert found is not None
        return found

    def fold(self, upto: int) -> dict[str, Any]:
        """The state after the first `upto` slots of the doctored log."""
        folder = Folder(self.campaign.game, self.campaign.data)
        for entry in self.log[:upto]:
            if entry is not None:
                folder.fold(entry)
        return folder.state

    def reseal(self, node: dict[str, Any], value: Any) -> None:
        """Replace a sealed node's commitment (and envelope) by one to another value."""
        ctx = sealed.node_context(self.campaign.id, node)
        fresh = sealed.seal(ctx, value, [self.campaign.config["referee"]["age"]])
        node["commitment"], node["sealed"] = fresh["commitment"], fresh["sealed"]

    def resolve_again(self, seq: int, rng: Any = None) -> None:
        """Adjudicate resolution `seq` again with the rules, from the doctored log before
        it: its events, dice and openings become what the rules give (dice from its
        batch's seed and salts, unless another rng is given)."""
        entry = self.entry(seq)
        before = self.fold(seq - 1)
        orders, _revealed = step.open_orders(self.campaign, before["pending"])
        orders.update(entry.get("nmr_orders") or {})
        if rng is None:
            rng = dice.KeyedRng(dice.batch_key(bytes.fromhex(entry["seed"]), entry["salts"]))
        secrets = step.referee_secrets(self.campaign, self.secret, before.get("contributions"))
        events = normal(self.campaign.game.resolve(self.campaign.data, before["game"], orders,
                                                   rng, secrets))
        old = entry["events"]
        # new sealed nodes get fresh random commitments: keep the recorded ones where the
        # event is otherwise the same, as the referee's own copy would
        entry["events"] = [old[i] if i < len(old) and sealed.masked(old[i]) == sealed.masked(e)
                           else e for i, e in enumerate(events)]
        entry["dice"] = normal([r._asdict() for r in rng.rolls])
        entry.pop("opened", None)
        if secrets.openings:
            entry["opened"] = normal(secrets.openings)

    def rewrite(self, *, keep_prev: frozenset[int] = frozenset(), snapshots: bool = True,
                files: Callable[[int, dict[str, bytes | None]], None] | None = None) -> None:
        """Rewrite git history so that each commit holds the doctored log entries it held
        (signed again where changed; `prev` made right but in the slots `keep_prev`), a
        snapshot that is
        the fold of them (when `snapshots`), and what `files(commit index, changes)` adds
        to the changes (path -> bytes, None to delete). Tags follow their commits."""
        prev = self.original[0]["prev"]
        for i, entry in enumerate(self.log):
            if entry is None:
                continue
            if i not in keep_prev:
                entry["prev"] = prev
            if entry != self.original[i] or entry["signature"] != self.original[i]["signature"]:
                body = {k: v for k, v in entry.items() if k != "signature"}
                entry["signature"] = sign_entry(self.key, body)
            prev = entry_hash(entry)
        shas = git(self.root, "rev-list", "--first-parent", "--reverse", "HEAD").split()
        tags = {t: git(self.root, "rev-parse", f"{t}^{{commit}}") for t in git(self.root, "tag").split()}
        index = self.root / ".git" / "cheat-index"
        env = {**os.environ, "GIT_INDEX_FILE": str(index)}
        new_of: dict[str, str] = {}
        blobs: dict[bytes, str] = {}  # content -> blob id, written once
        parent: str | None = None
        folder = Folder(self.campaign.game, self.campaign.data)
        folded = 0
        for n, sha in enumerate(shas):
            names = git(self.root, "ls-tree", "--name-only", sha, "log/").split()
            slots = len(names)  # entries are added one by one, in order
            changes: dict[str, bytes | None] = {name: None for name in names}
            for slot, entry in enumerate(self.log[:slots]):
                if entry is None:
                    continue
                name = entry_name(entry["seq"])
                if entry == self.original[slot] and name == names[slot]:
                    changes.pop(name, None)  # as committed
                else:
                    changes[name] = dump_entry(entry).encode()
            for entry in self.log[folded:slots]:
                if entry is not None:
                    folder.fold(entry)
            folded = slots
            if snapshots and slots and self.log[:slots] != self.original[:slots]:
                changes[STATE] = yamlio.dump(folder.state).encode()
            if files is not None:
                files(n, changes)
            subprocess.run(["git", "read-tree", sha], cwd=self.root, env=env, check=True)
            lines = []
            for path, data in changes.items():
                if data is None:
                    lines.append(f"0 {'0' * 40}\t{path}\n")
                    continue
                if data not in blobs:
                    blobs[data] = subprocess.run(
                        ["git", "hash-object", "-w", "--stdin"], cwd=self.root, input=data,
                        capture_output=True, check=True).stdout.decode().strip()
                lines.append(f"100644 {blobs[data]}\t{path}\n")
            subprocess.run(["git", "update-index", "--index-info"], cwd=self.root, env=env,
                           input="".join(lines), text=True, check=True)
            tree = subprocess.run(["git", "write-tree"], cwd=self.root, env=env, capture_output=True,
                                  text=True, check=True).stdout.strip()
            who = git(self.root, "log", "-1", "--date=raw",
                      "--format=%an%x00%ae%x00%ad%x00%cn%x00%ce%x00%cd", sha).split("\0")
            message = git(self.root, "log", "-1", "--format=%B", sha)
            if parent is not None and tree == git(self.root, "rev-parse", f"{parent}^{{tree}}"):
                new_of[sha] = parent  # an entry taken out: its commit goes too
                continue
            stamp = dict(zip(("GIT_AUTHOR_NAME", "GIT_AUTHOR_EMAIL", "GIT_AUTHOR_DATE",
                              "GIT_COMMITTER_NAME", "GIT_COMMITTER_EMAIL", "GIT_COMMITTER_DATE"),
                             who, strict=True))
            parent = subprocess.run(["git", "commit-tree", tree, "-m", message,
                                     *(["-p", parent] if parent else [])],
                                    cwd=self.root, env={**os.environ, **stamp}, capture_output=True,
                                    text=True, check=True).stdout.strip()
            new_of[sha] = parent
        index.unlink()
        assert parent is not None
        git(self.root, "update-ref", "refs/heads/main", parent)
        for tag, sha in tags.items():
            git(self.root, "tag", "-f", tag, new_of[sha])
        git(self.root, "reset", "-q", "--hard")


def audit_problems(root: Path) -> list[str]:
    """The audit's problems, but the one any rewrite of an entry brings (audit_fast.own)."""
    report = api.audit(root)
    assert not report["ok"]
    return own(list(report["problems"]))


def cli_audit(root: Path) -> list[str]:
    """`pbem audit` in a new process: exit 3, and the problems it prints."""
    result = run_pbem("-C", root, "audit")
    assert result.code == 3, (result.code, result.out, result.err)
    assert "Traceback" not in result.err
    return own([line.removeprefix("problem: ") for line in result.err.splitlines()
                if line.startswith("problem: ")])


def test_the_untouched_campaign_and_an_honest_rewrite_audit_clean(camp: Path) -> None:
    """The cheat's tools themselves leave no trace: a rewrite that changes nothing (entries
    signed again, history rebuilt commit by commit) audits clean, so every finding below is
    the one thing each test doctors."""
    assert api.audit(camp)["ok"]
    cheat = Referee(camp)
    cheat.entry(30)["signature"] = "resigned"  # force a new signature, same entry
    cheat.rewrite()
    report = api.audit(camp)
    assert report["ok"], report["problems"]
    assert report["checked"]["snapshots"] == 35


# ---------------------------------------------------------------------------------------
# commitments and openings


def test_revealed_sealed_orders_with_a_changed_nonce(camp: Path) -> None:
    cheat = Referee(camp)
    opening = cheat.entry(19)["revealed"]["red"]
    opening["nonce"] = hashlib.sha256(b"another nonce").hexdigest()
    cheat.rewrite()
    assert audit_problems(camp) == [
        "log/000019.yaml: the revealed orders of red do not open their commitment"]


def test_a_revealed_orders_file_with_a_changed_value(camp: Path) -> None:
    """At the end of turn 1 the orders files that held a secret are revealed; one of them
    is published with other content than its commitment holds."""
    cheat = Referee(camp)
    out = cheat.entry(29)["files_revealed"][0]
    assert out["file"] == "orders/t01-action-siberian-000021.yaml"
    out["value"]["file"] = out["value"]["file"].replace("head:", "# edited\nhead:")

    def publish(n: int, changes: dict[str, bytes | None]) -> None:
        if n == 28:  # the commit of step 29 writes the revealed file as published
            changes[out["file"]] = out["value"]["file"].encode()

    cheat.rewrite(files=publish)
    assert cli_audit(camp) == [
        "log/000029.yaml: the revealed orders/t01-action-siberian-000021.yaml does not open "
        "its commitment"]


def test_a_sealed_secret_whose_commitment_is_swapped(camp: Path) -> None:
    """The referee swaps the commitment of Siberia's sealed attack spending for one to
    another value (sealed again, a proper envelope), and resolves with that value. Only
    Siberia's signed file, revealed at the end of the turn, shows the spending it sent."""
    cheat = Referee(camp)
    secret = cheat.entry(21)["pending"]["secret"]
    cheat.reseal(secret, {"spend": {"Simbirsk": 3}, "note": "not what Siberia sent"})
    cheat.resolve_again(22)
    assert cheat.entry(22)["opened"][0]["node"]["commitment"] == secret["commitment"]
    assert cheat.entry(22)["events"] == cheat.original[21]["events"]
    cheat.rewrite()
    assert audit_problems(camp) == [
        "log/000029.yaml: the secret part of orders/t01-action-siberian-000021.yaml is not the "
        "one opened"]


# ---------------------------------------------------------------------------------------
# the chain of entries


def test_two_entries_reordered_break_the_prev_chain(camp: Path) -> None:
    """Steps 2 and 3 (two sealed orders of one phase) swapped and renumbered, each signed
    again, and the entries after them chained onto the new order: only the `prev` of the
    two moved entries can show it."""
    cheat = Referee(camp)
    second, third = cheat.entry(2), cheat.entry(3)
    second["seq"], third["seq"] = 3, 2
    cheat.log[1], cheat.log[2] = third, second
    cheat.rewrite(keep_prev=frozenset({1, 2}))
    assert cli_audit(camp) == ["log/000002.yaml: 'prev' is not the hash of the step before it",
                               "log/000003.yaml: 'prev' is not the hash of the step before it"]


# ---------------------------------------------------------------------------------------
# orders


def test_a_signed_orders_file_that_differs_from_the_recorded_body(camp: Path) -> None:
    """Red's signed file for its set-up placement is kept as received; the entry records a
    standing instruction that the file does not hold, and the resolution follows it."""
    cheat = Referee(camp)
    cheat.entry(6)["pending"]["body"]["standing"] = {"invasion_rounds": 3}
    cheat.resolve_again(7)
    assert cheat.entry(7)["events"] != cheat.original[6]["events"]
    cheat.rewrite()
    assert audit_problems(camp) == [
        "log/000006.yaml: orders/t00-setup-place-red-red-000006.yaml is not the orders of red "
        "that were recorded"]


def test_illegal_orders_recorded_as_legal(camp: Path) -> None:
    """Red's unsigned set-up file and its record both given a standing instruction the rules
    reject (pbem check would refuse the file); the resolution is what the rules make of it
    (nothing: the rules skip it), so only the audit's legality check can see it."""
    cheat = Referee(camp)
    record = cheat.entry(13)["pending"]
    bad = {"retreat_before_combt": None}  # a misspelt key: no such instruction
    state = cheat.fold(12)
    found = cheat.campaign.game.validate(cheat.campaign.data, state["game"], "red",
                                         {**record["body"], "standing": bad})
    assert found
    record["body"]["standing"] = bad
    raw = (camp / record["file"]).read_text() + "standing: {retreat_before_combt: null}\n"
    cheat.resolve_again(14)

    def edited(n: int, changes: dict[str, bytes | None]) -> None:
        if n >= 12:  # from the commit of step 13 on
            changes[record["file"]] = raw.encode()

    cheat.rewrite(files=edited)
    assert audit_problems(camp) == [f"log/000013.yaml: the orders of red are not legal: {found[0].message}"]


# ---------------------------------------------------------------------------------------
# dice


class Loaded(dice.KeyedRng):
    """The batch's dice, but one of them set to the value the referee wants."""

    def __init__(self, key: bytes, label: str, value: int) -> None:
        super().__init__(key)
        self.label, self.value = label, value

    def roll(self, label: str, sides: int = 6) -> int:
        self._claim(label, sides)
        value = self.value if label == self.label else dice.die(self._key, label, sides)
        self.rolls.append(dice.Roll(label, sides, value))
        return value


def _batch_key(entry: dict[str, Any], seed: str | None = None) -> bytes:
    return dice.batch_key(bytes.fromhex(seed or entry["seed"]), entry["salts"])


def test_a_die_changed_and_the_resolution_made_to_follow_it(camp: Path) -> None:
    cheat = Referee(camp)
    entry = cheat.entry(35)  # initiative of turn 2
    first = entry["dice"][0]
    wanted = first["value"] % first["sides"] + 1
    cheat.resolve_again(35, rng=Loaded(_batch_key(entry), first["label"], wanted))
    assert entry["events"] != cheat.original[34]["events"]
    cheat.rewrite()
    assert cli_audit(camp) == [f"log/000035.yaml: die {first['label']} = {wanted} is not what "
                               "the seed and salts give"]


def test_a_seed_chain_element_changed(camp: Path) -> None:
    """Another seed for the last batch, every die of it rolled honestly from that seed."""
    cheat = Referee(camp)
    entry = cheat.entry(35)
    entry["seed"] = hashlib.sha256(b"a seed the referee likes better").hexdigest()
    cheat.resolve_again(35)
    cheat.rewrite()
    assert audit_problems(camp) == [
        "log/000035.yaml: its seed is not the next element of the seed chain (SHA-256 of it "
        "must be the seed before it, or the anchor)"]


def test_a_seed_chain_element_reused(camp: Path) -> None:
    """The last batch takes again the batch and seed of the one before (a second try at
    the same dice), its dice rolled from it."""
    cheat = Referee(camp)
    entry, before = cheat.entry(35), cheat.entry(34)
    entry["batch"], entry["seed"] = before["batch"], before["seed"]
    cheat.resolve_again(35)
    cheat.rewrite()
    assert audit_problems(camp) == [
        f"log/000035.yaml: uses batch {before['batch']} of the seed chain; the next unused one is "
        f"{before['batch'] + 1} (a reused or skipped chain element)",
        "log/000035.yaml: its seed is not the next element of the seed chain (SHA-256 of it "
        "must be the seed before it, or the anchor)"]


def test_the_salts_of_a_batch_changed(camp: Path) -> None:
    """The referee cannot choose the seed, but could try salts until the dice suit them:
    the batch's salts are replaced and its dice rolled honestly from seed and those salts."""
    cheat = Referee(camp)
    entry = cheat.entry(35)  # initiative: the salts of the purchase orders before it
    entry["salts"] = {**entry["salts"], "red": "ab" * 32}
    cheat.resolve_again(35)
    assert entry["dice"] != cheat.original[34]["dice"]
    cheat.rewrite()
    assert audit_problems(camp) == [
        "log/000035.yaml: batch 13 mixes salts other than those sent with the orders (they "
        "differ for red), so its dice are not the players' dice"]


def test_a_salt_that_does_not_open_its_commitment(camp: Path) -> None:
    """Red's unsigned set-up file gets another salt (file, record and the batch alike), not
    the one its orders before committed to with salt_next."""
    cheat = Referee(camp)
    record = cheat.entry(13)["pending"]
    old, new = record["salt"], "cd" * 32
    record["salt"] = new
    cheat.entry(14)["salts"] = {"red": new}
    cheat.resolve_again(14)
    raw = (camp / record["file"]).read_text().replace(old, new).encode()

    def edited(n: int, changes: dict[str, bytes | None]) -> None:
        if n >= 12:
            changes[record["file"]] = raw

    cheat.rewrite(files=edited)
    assert audit_problems(camp) == [
        "log/000014.yaml: the salt of red's orders does not open the salt_next its orders "
        "before committed to"]


# ---------------------------------------------------------------------------------------
# events and snapshots


@pytest.mark.parametrize("how", ["removed", "added"])
def test_an_event_removed_from_or_added_to_a_resolution(camp: Path, how: str) -> None:
    cheat = Referee(camp)
    events = cheat.entry(35)["events"]
    roll = next(i for i, e in enumerate(events) if e["type"] == "initiative_roll")
    if how == "removed":
        del events[roll]
    else:
        events.insert(roll, dict(events[roll]))
    cheat.rewrite()
    assert cli_audit(camp) == ["log/000035.yaml: the recorded events are not what the rules "
                               "produce from the orders and dice"]


def test_a_snapshot_that_is_not_the_replay(camp: Path) -> None:
    """One snapshot in the middle of history, rewritten (money added), the log untouched."""
    cheat = Referee(camp)
    shas = git(camp, "rev-list", "--first-parent", "--reverse", "HEAD").split()
    state = yamlio.load_trusted(git(camp, "show", f"{shas[19]}:{STATE}"))
    state["game"]["money"]["red"] += 10

    def richer(n: int, changes: dict[str, bytes | None]) -> None:
        if n == 19:  # the commit of step 20
            changes[STATE] = yamlio.dump(state).encode()

    cheat.rewrite(files=richer)
    new = git(camp, "rev-list", "--first-parent", "--reverse", "HEAD").split()[19]
    assert audit_problems(camp) == [f"state.yaml in commit {new[:10]} is not the replay of the "
                                    "log up to step 20 (log/000020.yaml)"]


# ---------------------------------------------------------------------------------------
# files the log names, in every commit (#13)

SIGNED = "orders/t00-setup-place-red-red-000006.yaml"  # recorded by step 6, signed


@pytest.mark.parametrize(("path", "how"), [(SIGNED, "edited"), (SIGNED, "deleted"),
                                           (f"{SIGNED}.sig", "edited"), (f"{SIGNED}.sig", "deleted")])
def test_an_orders_file_or_its_signature_touched_in_a_later_commit(camp: Path, path: str,
                                                                   how: str) -> None:
    """The step that recorded the file is untouched; a later commit edits or deletes it."""
    if how == "edited":
        with (camp / path).open("a") as handle:
            handle.write("# tidied up\n")
        git(camp, "commit", "-q", "-am", "tidy")
    else:
        git(camp, "rm", "-q", path)
        git(camp, "commit", "-q", "-m", "tidy")
    head = git(camp, "rev-parse", "HEAD")
    word = "changed" if how == "edited" else "removed"
    assert cli_audit(camp) == [f"{path} (named by log/000006.yaml) is {word} in commit {head[:10]}"]


def test_a_signature_missing_from_the_commit_of_its_step(camp: Path) -> None:
    """History rewritten so that Red's signed file never had its .sig beside it."""
    cheat = Referee(camp)

    def unsigned(n: int, changes: dict[str, bytes | None]) -> None:
        if n >= 5:
            changes[f"{SIGNED}.sig"] = None

    cheat.rewrite(files=unsigned)
    sha = git(camp, "rev-list", "--first-parent", "--reverse", "HEAD").split()[5]
    assert audit_problems(camp) == [
        f"log/000006.yaml: {SIGNED}.sig is not in the commit of this step ({sha[:10]})"]


def test_a_revealed_orders_file_committed_other_than_revealed(camp: Path) -> None:
    """The purchase orders revealed at step 19 are committed with other bytes than the
    opening the entry publishes (which opens its commitment)."""
    cheat = Referee(camp)
    path = cheat.entry(15)["pending"]["file"]
    raw = (camp / path).read_bytes() + b"# not what was sent\n"

    def other(n: int, changes: dict[str, bytes | None]) -> None:
        if n >= 18:
            changes[path] = raw

    cheat.rewrite(files=other)
    assert audit_problems(camp) == [
        f"log/000019.yaml: {path} as committed is not the file the log reveals"]


# ---------------------------------------------------------------------------------------
# turn tags


@pytest.mark.parametrize(("tag", "step", "to"), [("turn-0001", 14, "HEAD~3"),
                                                 ("turn-0002", 29, "turn-0002~1"),  # the newest
                                                 ("turn-0002", 29, "HEAD")])
def test_a_turn_tag_moved_to_another_commit(camp: Path, tag: str, step: int, to: str) -> None:
    right = git(camp, "rev-parse", tag)
    wrong = git(camp, "rev-parse", to)
    assert wrong != right
    git(camp, "tag", "-f", tag, wrong)
    assert cli_audit(camp) == [f"tag {tag} points at commit {wrong[:10]}, not at the commit of "
                               f"log/{step:06d}.yaml ({right[:10]}), the step that began that turn"]


def test_a_turn_tag_deleted_or_made_up(camp: Path) -> None:
    right = git(camp, "rev-parse", "turn-0002")
    git(camp, "tag", "-d", "turn-0002")
    git(camp, "tag", "turn-0003", "HEAD")
    assert audit_problems(camp) == [
        f"tag turn-0002 is missing (it marks log/000029.yaml, commit {right[:10]})",
        "tag turn-0003 names a turn that no step of the log began"]


# ---------------------------------------------------------------------------------------
# the audit changes nothing


def test_audit_reports_uncommitted_changes_and_changes_nothing(camp: Path) -> None:
    """An uncommitted edit of the snapshot, a stray log entry and a stale git lock: audit
    says what it found (exit 3) and leaves every one of them as it was."""
    state = camp / STATE
    edited = state.read_text() + "# edited by hand\n"
    state.write_text(edited)
    (camp / "log" / "000036.yaml").write_text("seq: 36\n")
    (camp / ".git" / "index.lock").write_text("")
    before = tree_state(camp)
    assert cli_audit(camp) == [
        "the work tree differs from the last commit: uncommitted changes in state.yaml; files "
        "not committed: log/000036.yaml (audit checked the committed history and changed "
        "nothing)"]
    assert tree_state(camp) == before
    assert state.read_text() == edited
    assert (camp / "log" / "000036.yaml").read_text() == "seq: 36\n"
    assert (camp / ".git" / "index.lock").exists()
    report = api.audit(camp)  # the API too
    assert report["recovered"] == [] and not report["ok"]
    assert tree_state(camp) == before and state.read_text() == edited


def test_a_history_rewritten_under_the_players_signed_heads(camp: Path) -> None:
    """A referee who changes one entry and signs every entry again (a consistent prev
    chain, every signature good): the signed orders files after it name heads the new
    history never had, said once with how many."""
    from audit_fast import HEADS

    cheat = Referee(camp)
    cheat.entry(14)["summary"] = "setup-reduce-red resolved, as the referee now tells it"
    cheat.rewrite()
    report = api.audit(camp)
    found = [p for p in report["problems"] if HEADS in p]
    assert len(found) == 1 and found[0].startswith(
        "log/000019.yaml: orders/t01-purchase-north-000018.yaml names a log head its phase never "
        "had (and "), found
    assert found[0].endswith("signed file(s) after it): a signed file of another phase, or the "
                             "history before it was rewritten")


def test_a_head_index_that_is_not_the_files(camp: Path) -> None:
    """head_index says which signed file of a faction is newer (a correction); a referee
    who changes it, to make an older file the one in force, is named."""
    cheat = Referee(camp)
    seq = next(e["seq"] for e in cheat.original if e["type"] == "orders" and e.get("phase") == "purchase"
               and e["pending"].get("sig_digest"))
    cheat.entry(seq)["pending"]["head_index"] = 3
    cheat.rewrite()
    revealed = next(e["seq"] for e in cheat.original if e["type"] == "resolve" and e["seq"] > seq)
    file = cheat.entry(seq)["pending"]["file"]
    # the purchase phase is sealed: the file is read, and its head checked, when it is revealed
    assert audit_problems(camp) == [f"log/{revealed:06d}.yaml: records head_index 3 for {file}, "
                                    "whose head is number 0 of its phase"]
