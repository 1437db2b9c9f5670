"""Fast `pbem audit` cases, one doctored thing each, with the exact problems reported.

The campaign is played once and kept on disk (tests/audit_fast.py), every test works on a
copy of it and calls pbem.audit in this process. The steps of the campaign are listed in
tests/engine/test_audit_tamper.py; the dishonest referee (`Referee`) is the one of that file.
"""

from __future__ import annotations

import hashlib
import json
import mailbox
from email.message import EmailMessage
from pathlib import Path
from typing import Any

import pytest
from audit_fast import copy_of, own
from conftest import git
from test_audit_tamper import Referee, dump_entry

from pbem import api, audit, dice, yamlio
from pbem.campaign import CONFIG, STATE, Campaign
from pbem.crypto import sshsig
from pbem.crypto.keys import sign_entry
from pbem.log import entry_hash

SIGNED = "orders/t00-setup-place-red-red-000006.yaml"  # step 6, signed
UNSIGNED = "orders/t00-setup-reduce-red-red-000013.yaml"  # step 13, unsigned
REVEALED = "orders/t01-action-siberian-000021.yaml"  # sealed for its secret, revealed by 29


@pytest.fixture
def camp(fast_base: Path, tmp_path: Path) -> Path:
    return copy_of(fast_base, tmp_path / "copy")


def problems(root: Path, **kwargs: Any) -> list[str]:
    """The audit's problems, but the one any rewrite of an entry brings (audit_fast.own)."""
    report = audit.audit(root, **kwargs)
    assert report["ok"] is (not report["problems"])
    return own(list(report["problems"]))


def shas(root: Path) -> list[str]:
    return git(root, "rev-list", "--first-parent", "--reverse", "HEAD").split()


def amend_head(root: Path, name: str, entry: dict[str, Any], *, sign: bool = True) -> str:
    """Rewrite the entry `name` of the last commit (signed again unless `sign` is false),
    its snapshot made the fold of the log so changed."""
    if sign:
        key = Referee(root).key
        entry["signature"] = sign_entry(key, {k: v for k, v in entry.items() if k != "signature"})
    (root / name).write_text(dump_entry(entry))
    cheat = Referee(root)
    (root / STATE).write_text(yamlio.dump(cheat.fold(len(cheat.log))))
    git(root, "commit", "-q", "--amend", "-a", "--no-edit")
    return git(root, "rev-parse", "HEAD")


def commit_all(root: Path, message: str = "by hand") -> str:
    git(root, "add", "-A")
    git(root, "commit", "-q", "-m", message)
    return git(root, "rev-parse", "HEAD")


# ---------------------------------------------------------------------------------------
# the honest campaign


def test_the_campaign_audits_clean_and_counts_what_it_checked(camp: Path) -> None:
    report = audit.audit(camp)
    assert report["problems"] == [] and report["ok"] is True
    assert report["checked"] == {"entries": 35, "snapshots": 35, "rolls": 271, "signatures": 55,
                                 "commitments": 48}
    assert report["recovered"] == [] and report["corrections"] == []
    assert report["unopened"] == []  # every sealed thing of the log was opened
    # the clone remembers the step it verified
    seen = json.loads((camp / ".git" / audit.VERIFIED).read_text())
    last = yamlio.read_trusted(camp / "log" / "000035.yaml")
    assert (seen["seq"], seen["head"]) == (35, entry_hash(last))


# ---------------------------------------------------------------------------------------
# the log in git


def test_an_entry_removed_in_a_later_commit(camp: Path) -> None:
    git(camp, "rm", "-q", "log/000035.yaml")
    sha = commit_all(camp)
    assert problems(camp) == [f"log/000035.yaml: changed or removed in commit {sha[:10]}"]


def test_an_entry_changed_in_a_later_commit(camp: Path) -> None:
    path = camp / "log" / "000034.yaml"
    path.write_text(path.read_text() + "# tidied\n")
    sha = commit_all(camp)
    assert problems(camp) == [f"log/000034.yaml: changed or removed in commit {sha[:10]}"]


def test_an_entry_that_is_not_a_mapping_stops_the_audit(camp: Path) -> None:
    (camp / "log" / "000036.yaml").write_text("- seq: 36\n")
    commit_all(camp)
    report = audit.audit(camp)
    assert report["problems"] == ["log/000036.yaml: not a log entry"]
    assert report["checked"]["entries"] == 35 and report["ok"] is False


def test_an_entry_that_cannot_be_read_stops_the_audit(camp: Path) -> None:
    text = "seq: [36\n"
    (camp / "log" / "000036.yaml").write_text(text)
    commit_all(camp)
    try:
        yamlio.load_trusted(text)
    except Exception as exc:  # noqa: BLE001 - the message the audit quotes
        why = str(exc)
    assert problems(camp) == [f"log/000036.yaml: cannot be read: {why}"]


def test_an_entry_out_of_order_and_unsigned(camp: Path) -> None:
    """A step added by hand: named 38 where 36 is due, not signed by the referee, its prev
    not the hash of step 35; the replay stops at it (it has no type)."""
    (camp / "log" / "000038.yaml").write_text("seq: 36\nprev: x\n")
    commit_all(camp)
    assert problems(camp) == [
        "log/000038.yaml: expected step 36 here (entries missing or out of order)",
        "log/000038.yaml: 'prev' is not the hash of the step before it",
        "log/000038.yaml: the referee's signature does not verify (changed entry?)",
        "log/000038.yaml: cannot be replayed: 'type'"]


def test_a_step_numbered_wrong_inside_its_entry(camp: Path) -> None:
    entry = yamlio.read_trusted(camp / "log" / "000035.yaml")
    entry["seq"] = 36
    amend_head(camp, "log/000035.yaml", entry)
    assert problems(camp) == ["log/000035.yaml: expected step 35 here (entries missing or out "
                              "of order)"]


def test_an_entry_changed_without_signing_it_again(camp: Path) -> None:
    entry = yamlio.read_trusted(camp / "log" / "000035.yaml")
    entry["summary"] += " (edited)"
    amend_head(camp, "log/000035.yaml", entry, sign=False)
    assert problems(camp) == [
        "log/000035.yaml: the referee's signature does not verify (changed entry?)"]


def test_a_snapshot_removed_or_not_the_replay_at_the_last_step(camp: Path) -> None:
    state = yamlio.read_trusted(camp / STATE)
    state["game"]["money"]["red"] += 1
    (camp / STATE).write_text(yamlio.dump(state))
    sha = commit_all(camp)
    assert problems(camp) == [f"state.yaml in commit {sha[:10]} is not the replay of the log up "
                              "to step 35 (log/000035.yaml)"]
    git(camp, "rm", "-q", STATE)
    gone = commit_all(camp)
    assert problems(camp) == [
        f"state.yaml in commit {sha[:10]} is not the replay of the log up to step 35 "
        "(log/000035.yaml)",
        f"state.yaml is missing from commit {gone[:10]} (after log/000035.yaml)"]


def test_a_history_without_log_entries(camp: Path) -> None:
    """One commit holding campaign.yaml and nothing else."""
    git(camp, "rm", "-q", "-r", "log", "orders", STATE)
    tree = git(camp, "write-tree")
    root = git(camp, "commit-tree", tree, "-m", "empty")
    git(camp, "update-ref", "refs/heads/main", root)
    for tag in git(camp, "tag").split():
        git(camp, "tag", "-d", tag)
    (camp / STATE).write_text((camp / ".git" / "HEAD").read_text() and "")
    (camp / STATE).unlink()
    assert problems(camp) == ["no log entries in the history"]


# ---------------------------------------------------------------------------------------
# campaign.yaml and the work tree


def test_campaign_yaml_removed_or_its_keys_changed_in_a_commit(camp: Path) -> None:
    config = yamlio.read_trusted(camp / CONFIG)
    config["factions"]["red"]["ssh"] = config["factions"]["south"]["ssh"]
    (camp / CONFIG).write_text(yamlio.dump(config))
    changed = commit_all(camp)
    git(camp, "rm", "-q", CONFIG)
    gone = commit_all(camp)
    git(camp, "checkout", "-q", changed, "--", CONFIG)  # back in the work tree, uncommitted
    git(camp, "reset", "-q")
    assert problems(camp) == [
        f"campaign.yaml in commit {changed[:10]} changes factions.red.ssh without a recorded "
        "step (a change of the game, options, keys or seats is a 'pbem seat' step, with its "
        "reason)",
        f"campaign.yaml is missing from commit {gone[:10]}",
        "campaign.yaml in the work tree changes factions.red.ssh without a recorded step: pbem "
        "refuses to work with it"]


def test_free_settings_change_without_a_step(camp: Path) -> None:
    config = yamlio.read_trusted(camp / CONFIG)
    config["deadline_days"] = 9
    (camp / CONFIG).write_text(yamlio.dump(config))
    assert problems(camp) == []
    commit_all(camp)
    assert problems(camp) == []


def test_uncommitted_and_untracked_files_both_named(camp: Path) -> None:
    (camp / "orders" / "new.yaml").write_text("x: 1\n")
    (camp / "orders" / "other.yaml").write_text("x: 2\n")
    path = camp / UNSIGNED
    path.write_text(path.read_text() + "# edited\n")
    (camp / STATE).write_text((camp / STATE).read_text() + "# edited\n")
    assert problems(camp) == [
        f"the work tree differs from the last commit: uncommitted changes in {UNSIGNED}, "
        "state.yaml; files not committed: orders/new.yaml, orders/other.yaml (audit checked "
        "the committed history and changed nothing)"]


def test_stale_temporary_files_are_named_once_and_not_in_pbem(camp: Path) -> None:
    """write_atomic's temporary files left by a killed write: the one under orders/ is
    untracked too (named once), the one in reports/ is outside the managed paths, the one in
    .pbem/ is the referee's own business."""
    for rel in ("orders/.a.yaml.abcd1234.tmp", "reports/.r.html.abcd_234.tmp",
                ".pbem/.key.abcd1234.tmp"):
        (camp / rel).parent.mkdir(exist_ok=True)
        (camp / rel).write_text("half")
    assert problems(camp) == [
        "the work tree differs from the last commit: files not committed: "
        "orders/.a.yaml.abcd1234.tmp, reports/.r.html.abcd_234.tmp (audit checked the committed "
        "history and changed nothing)"]


def test_audit_names_each_untracked_file_in_a_new_folder_and_writes_no_index(camp: Path) -> None:
    """An untracked file in a new folder under orders/ is named as a file (not the folder);
    a managed file touched (same content, new time) makes a plain `git status` refresh and
    rewrite the index: the audit's never does (docs/design.md "The audit": it changes nothing)."""
    import os

    extra = camp / "orders" / "extra" / "a.yaml"
    extra.parent.mkdir()
    extra.write_text("x: 1\n")
    state = camp / "state.yaml"
    stat = state.stat()
    os.utime(state, (stat.st_atime + 100, stat.st_mtime + 100))
    index = (camp / ".git" / "index").read_bytes()
    report = api.audit(camp)
    assert report["problems"] == [
        "the work tree differs from the last commit: files not committed: orders/extra/a.yaml (audit "
        "checked the committed history and changed nothing)"]
    assert (camp / ".git" / "index").read_bytes() == index


# ---------------------------------------------------------------------------------------
# files the log names


@pytest.mark.parametrize(("path", "how"), [(SIGNED, "edited"), (f"{SIGNED}.sig", "deleted")])
def test_an_orders_file_or_signature_touched_in_a_later_commit(camp: Path, path: str,
                                                               how: str) -> None:
    if how == "edited":
        (camp / path).write_text((camp / path).read_text() + "# tidied up\n")
    else:
        git(camp, "rm", "-q", path)
    head = commit_all(camp)
    word = "changed" if how == "edited" else "removed"
    assert problems(camp) == [f"{path} (named by log/000006.yaml) is {word} in commit {head[:10]}"]


def test_a_file_named_twice_and_a_file_outside_orders(camp: Path) -> None:
    cheat = Referee(camp)
    cheat.entry(13)["pending"]["file"] = SIGNED
    cheat.rewrite()
    sha = shas(camp)[12]
    assert problems(camp) == [f"log/000013.yaml: names {SIGNED}, which log/000006.yaml named already"]
    cheat = Referee(camp)
    cheat.entry(13)["pending"]["file"] = CONFIG
    cheat.rewrite()
    sha = shas(camp)[12]
    assert problems(camp) == [f"log/000013.yaml: campaign.yaml is not in the commit of this step "
                              f"({sha[:10]})"]


def test_an_unsigned_orders_file_that_cannot_be_read(camp: Path) -> None:
    cheat = Referee(camp)
    bad = b"orders: [\n"

    def broken(n: int, changes: dict[str, bytes | None]) -> None:
        if n >= 12:
            changes[UNSIGNED] = bad

    cheat.rewrite(files=broken)
    try:
        yamlio.load_untrusted(bad, UNSIGNED)
    except Exception as exc:  # noqa: BLE001
        why = exc.message  # type: ignore[attr-defined]
    assert problems(camp) == [f"log/000013.yaml: {UNSIGNED} cannot be read: {why}"]


def test_a_signature_beside_an_unsigned_record(camp: Path) -> None:
    """A .sig put beside Red's unsigned file in its step: the record has no digest of it,
    and it is not Red's signature of that file."""
    cheat = Referee(camp)
    sig = (camp / f"{SIGNED}.sig").read_bytes()

    def signed(n: int, changes: dict[str, bytes | None]) -> None:
        if n >= 12:
            changes[f"{UNSIGNED}.sig"] = sig

    cheat.rewrite(files=signed)
    key = Campaign.open(camp).config["factions"]["red"]["ssh"]
    try:
        sshsig.verify(key, (camp / UNSIGNED).read_bytes(), sig.decode(), "pbem-orders-v1")
    except Exception as exc:  # noqa: BLE001
        why = exc.message  # type: ignore[attr-defined]
    assert problems(camp) == [
        f"log/000013.yaml: {UNSIGNED}.sig is not the signature that was recorded",
        f"log/000013.yaml: the signature of red's orders does not verify: {why}"]


def test_a_signature_digest_that_is_not_the_signature_file(camp: Path) -> None:
    cheat = Referee(camp)
    cheat.entry(6)["pending"]["sig_digest"] = hashlib.sha256(b"other").hexdigest()
    cheat.rewrite()
    assert problems(camp) == [f"log/000006.yaml: {SIGNED}.sig is not the signature that was recorded"]


def test_a_signature_of_the_record_missing_from_its_step(camp: Path) -> None:
    cheat = Referee(camp)

    def unsigned(n: int, changes: dict[str, bytes | None]) -> None:
        if n >= 5:
            changes[f"{SIGNED}.sig"] = None

    cheat.rewrite(files=unsigned)
    sha = shas(camp)[5]
    assert problems(camp) == [
        f"log/000006.yaml: {SIGNED}.sig is not in the commit of this step ({sha[:10]})"]


# ---------------------------------------------------------------------------------------
# dice, seeds, salts


def test_a_die_the_rules_never_asked_for_and_a_label_used_twice(camp: Path) -> None:
    cheat = Referee(camp)
    entry, before = cheat.entry(35), cheat.entry(34)
    label = before["dice"][0]["label"]
    key = dice.batch_key(bytes.fromhex(entry["seed"]), entry["salts"])
    entry["dice"].append({"label": label, "sides": 6, "value": dice.die(key, label, 6)})
    cheat.rewrite()
    assert problems(camp) == [
        f"log/000035.yaml: die label {label} was used already at step 34",
        "log/000035.yaml: recorded dice that the rules never asked for"]


def test_a_resolution_without_its_seed(camp: Path) -> None:
    cheat = Referee(camp)
    del cheat.entry(34)["seed"]
    cheat.rewrite()
    assert problems(camp) == [
        "log/000034.yaml: no seed published for its dice",
        "log/000035.yaml: its seed is not the next element of the seed chain (SHA-256 of it "
        "must be the seed before it, or the anchor)"]  # the chain resumes from step 33's


def test_a_resolution_that_cannot_be_replayed(camp: Path) -> None:
    cheat = Referee(camp)
    del cheat.entry(34)["dice"][0]["sides"]
    cheat.rewrite()
    report = audit.audit(camp)
    assert report["problems"] == ["log/000034.yaml: cannot be replayed: 'sides'"]
    assert report["checked"]["entries"] == 34


def test_undone_and_resolved_again_audits_clean(camp: Path) -> None:
    """An undo takes back step 35; the new resolution rolls the same labels again (the
    next batch of the chain); both are listed as corrections."""
    api.undo(camp, "a mistake")
    api.resolve(camp)
    report = audit.audit(camp)
    assert report["problems"] == []
    assert [c["undoes"] if "undoes" in c else c.get("seq") for c in report["corrections"]]
    assert report["checked"]["entries"] == 37


def test_the_salts_of_a_sealed_phase_changed(camp: Path) -> None:
    """Step 19 resolves the sealed purchase orders: the salts sent are inside the openings."""
    cheat = Referee(camp)
    entry = cheat.entry(19)
    entry["salts"] = {**entry["salts"], "north": "ab" * 32}
    cheat.resolve_again(19)
    cheat.rewrite()
    assert problems(camp) == [
        f"log/000019.yaml: batch {entry['batch']} mixes salts other than those sent with the "
        "orders (they differ for north), so its dice are not the players' dice",
        # the initiative after it mixes the salts of the last phase that took orders
        f"log/000020.yaml: batch {entry['batch'] + 1} mixes salts other than those sent with "
        "the orders (they differ for north), so its dice are not the players' dice"]


def test_a_salt_left_out_of_a_batch(camp: Path) -> None:
    cheat = Referee(camp)
    entry = cheat.entry(35)
    del entry["salts"]["south"]
    entry["salts"]["west"] = "cd" * 32
    cheat.resolve_again(35)
    cheat.rewrite()
    assert problems(camp) == [
        f"log/000035.yaml: batch {entry['batch']} mixes salts other than those sent with the "
        "orders (they differ for south, west), so its dice are not the players' dice"]


# ---------------------------------------------------------------------------------------
# openings


def test_an_opening_published_that_the_rules_did_not_open(camp: Path) -> None:
    cheat = Referee(camp)
    extra = cheat.entry(22)["opened"][0]
    cheat.entry(35).setdefault("opened", []).append(extra)
    cheat.rewrite()
    node = extra["node"]
    assert problems(camp) == [f"log/000035.yaml: publishes the opening of {node['kind']} "
                              f"{node['id']}, which the rules did not open"]


def test_sealed_orders_resolved_but_not_revealed(camp: Path) -> None:
    cheat = Referee(camp)
    del cheat.entry(19)["revealed"]["red"]
    cheat.rewrite()
    assert problems(camp) == [
        "log/000019.yaml: batch 5 mixes salts other than those sent with the orders (they "
        "differ for red), so its dice are not the players' dice",  # red's salt was inside
        "log/000019.yaml: the sealed orders of red were resolved but not revealed",
        "log/000019.yaml: cannot be replayed: roll 1: rules asked for "
        "card:semenov-corruption:t1:e0:d1 (d6), record has card:red-commanders:t1:e0:leader (d6)"]


def test_a_resolution_that_reveals_nothing_at_all(camp: Path) -> None:
    """The whole `revealed` record left out, not one faction's: every sealed file is named,
    and the audit goes on to the replay."""
    cheat = Referee(camp)
    sealed = sorted(cheat.entry(19)["revealed"])
    del cheat.entry(19)["revealed"]
    cheat.rewrite()
    found = problems(camp)
    assert [p for p in found if "were resolved but not revealed" in p] == [
        f"log/000019.yaml: the sealed orders of {f} were resolved but not revealed" for f in sealed]
    assert any("cannot be replayed" in p for p in found)


def test_revealed_orders_that_are_not_the_signed_file(camp: Path) -> None:
    """The opening of Red's sealed purchase orders holds another body than the file it
    publishes (sealed again, so the commitment opens)."""
    cheat = Referee(camp)
    opening = cheat.entry(19)["revealed"]["red"]
    opening["value"]["body"]["standing"]["invasion_rounds"] = 2
    cheat.rewrite()
    assert problems(camp) == [
        "log/000019.yaml: the revealed orders of red do not open their commitment",
        "log/000019.yaml: the revealed orders of red are not the signed file",
        "log/000019.yaml: the recorded events are not what the rules produce from the orders "
        "and dice"]


def test_files_revealed_not_sealed_or_left_sealed(camp: Path) -> None:
    cheat = Referee(camp)
    out = cheat.entry(29)["files_revealed"]
    kept = out.pop(1)  # red's stays sealed
    out.append({**out[0], "file": "orders/t01-action-made-up.yaml"})
    cheat.rewrite()
    assert problems(camp) == [
        "log/000029.yaml: reveals orders/t01-action-made-up.yaml, which was not sealed",
        f"log/000029.yaml: leaves {kept['file']} sealed at the end of the turn"]


def test_a_revealed_file_whose_body_is_not_the_record(camp: Path) -> None:
    cheat = Referee(camp)
    cheat.entry(21)["pending"]["body"]["standing"]["invasion_rounds"] = 2
    cheat.resolve_again(22)
    cheat.rewrite()
    assert problems(camp) == [
        f"log/000029.yaml: {REVEALED} is not the orders that were recorded",
        # the standing instruction recorded is in force at the next initiative
        "log/000034.yaml: the recorded events are not what the rules produce from the orders "
        "and dice"]


def _commit_to(cheat: Referee, node: dict[str, Any], value: Any) -> str:
    """Make `node` a commitment to `value`, as a referee who sealed it so would: the
    nonce of its opening is returned."""
    from pbem.crypto import keys, sealed

    node["commitment"], nonce = keys.commit(sealed.node_context(cheat.campaign.id, node), value)
    return nonce.hex()


def _unreadable(text: str, path: str) -> str:
    """The problem the audit names for an orders file `path` whose text does not parse."""
    try:
        yamlio.load_untrusted(text, path)
    except Exception as exc:  # noqa: BLE001
        return f"{path} cannot be read: {exc.message}"  # type: ignore[attr-defined]
    raise AssertionError("the text parses")


def test_a_revealed_file_that_cannot_be_read(camp: Path) -> None:
    """The file Siberia sealed its attack spending in is revealed at the end of the turn as
    text that is not YAML, committed to so (a referee who sealed that text): the audit names
    it and goes on to the steps after it."""
    cheat = Referee(camp)
    bad = "orders: [\n"
    out = cheat.entry(29)["files_revealed"][0]
    assert out["file"] == REVEALED
    out["value"] = {"file": bad}
    out["nonce"] = _commit_to(cheat, cheat.entry(21)["pending"]["file_sealed"], out["value"])

    def publish(n: int, changes: dict[str, bytes | None]) -> None:
        if n >= 28:  # the commit of step 29 writes the revealed file as published
            changes[REVEALED] = bad.encode()
            changes[f"{REVEALED}.sig"] = None

    cheat.rewrite(files=publish)
    assert problems(camp) == [f"log/000029.yaml: {_unreadable(bad, REVEALED)}"]


def test_revealed_sealed_orders_whose_file_cannot_be_read(camp: Path) -> None:
    """Red's sealed purchase orders opened at step 19 with a file that is not YAML beside
    the body they were resolved with (sealed so): the file is named unreadable, it is not the
    file committed, and its signature is not Red's signature of it."""
    cheat = Referee(camp)
    bad = "orders: [\n"
    opening = cheat.entry(19)["revealed"]["red"]
    opening["value"]["file"] = bad
    record = cheat.entry(15)["pending"]  # red's orders for purchase, sealed
    assert cheat.entry(15)["faction"] == "red"
    opening["nonce"] = _commit_to(cheat, record["sealed"], opening["value"])
    cheat.rewrite()
    path = record["file"]
    assert problems(camp) == [
        f"log/000019.yaml: {path} as committed is not the file the log reveals",
        "log/000019.yaml: the signature of red's orders does not verify: the signature does "
        "not match the signed file",
        f"log/000019.yaml: {_unreadable(bad, path)}"]


def test_a_revealed_signature_committed_otherwise(camp: Path) -> None:
    """Red's sealed purchase orders are published at step 19 with a .sig file that is not
    the signature the log reveals (one more line at its end)."""
    cheat = Referee(camp)
    value = cheat.entry(19)["revealed"]["red"]["value"]
    sig = f"{cheat.entry(15)['pending']['file']}.sig"

    def files(n: int, changes: dict[str, bytes | None]) -> None:
        if n >= 18:
            changes[sig] = (value["signature"] + "\n").encode()

    cheat.rewrite(files=files)
    assert problems(camp) == [f"log/000019.yaml: {sig} as committed is not the file the log "
                              "reveals"]


def test_signed_orders_of_a_faction_campaign_yaml_does_not_seat(camp: Path) -> None:
    """Red's signed orders of step 6 recorded as orders of Poland, a minor that no player
    plays: its signature has no key to be checked with."""
    cheat = Referee(camp)
    cheat.entry(6)["faction"] = "poland"
    cheat.rewrite()
    found = problems(camp)
    assert "log/000006.yaml: orders of poland are signed but campaign.yaml has no key for it" \
        in found
    assert found[0] == ("log/000006.yaml: records orders of poland, which the phase does not "
                        "await (it awaits red)")


def test_a_log_without_the_settings_in_its_first_step(camp: Path) -> None:
    """A log from before the first step recorded campaign.yaml's settings: the seats and
    keys are those of campaign.yaml as first committed, and every signature is checked
    with them."""
    signatures = audit.audit(camp)["checked"]["signatures"]
    (camp / ".git" / audit.VERIFIED).unlink()  # this clone saw the history before: forget it
    cheat = Referee(camp)
    del cheat.entry(1)["settings"]
    cheat.rewrite()
    report = audit.audit(camp)
    # made by a rewrite, every hash after step 1 changed: the heads the signed files name
    # are its only trace (a real older log has its own); `own` leaves that one out
    assert own(report["problems"]) == []
    assert report["checked"]["signatures"] == signatures


def test_a_first_step_without_the_anchor_of_the_seed_chain(camp: Path) -> None:
    """With no anchor published, the first batch's seed links to nothing: that step is
    named, and the first step still replays."""
    cheat = Referee(camp)
    del cheat.entry(1)["randomness"]["anchor"]
    cheat.rewrite()
    assert problems(camp) == ["log/000005.yaml: its seed is not the next element of the seed "
                              "chain (SHA-256 of it must be the seed before it, or the anchor)"]


def test_a_resolution_without_dice_may_leave_out_the_key(camp: Path) -> None:
    """Step 7 (Red's placement) rolled nothing: `dice` left out is no dice, not a problem."""
    cheat = Referee(camp)
    assert cheat.entry(7)["dice"] == []
    del cheat.entry(7)["dice"]
    cheat.rewrite()
    assert problems(camp) == []


def test_orders_recorded_for_another_phase(camp: Path) -> None:
    """Red's orders of step 6 (Red's placement) relabelled as orders of the reductions."""
    cheat = Referee(camp)
    cheat.entry(6)["phase"] = "setup-reduce"
    cheat.rewrite()
    assert problems(camp) == [
        "log/000006.yaml: records orders for turn 0 setup-reduce, but the game is at turn 0 "
        "setup-place-red",
        f"log/000006.yaml: {SIGNED} is headed for another phase than the step that records it "
        "(turn 0, setup-reduce, red)"]


def test_orders_recorded_for_a_faction_the_phase_does_not_await(camp: Path) -> None:
    """Siberia's action orders of step 21 recorded as Red's, in Siberia's impulse."""
    cheat = Referee(camp)
    cheat.entry(21)["faction"] = "red"
    cheat.rewrite()
    found = problems(camp)
    assert found[0] == ("log/000021.yaml: records orders of red, which the phase does not await "
                        "(it awaits siberian)")
    assert [p for p in found if "does not await" in p] == found[:1]


def test_orders_of_a_phase_where_all_act_at_once_recorded_in_the_open(camp: Path) -> None:
    """Red's purchase orders (step 15) recorded in the open, the file and its signature
    committed with them, as a referee who shows them to the Whites before they send theirs
    would: the resolution and its dice are as before."""
    cheat = Referee(camp)
    value = cheat.entry(19)["revealed"].pop("red")["value"]
    record = cheat.entry(15)["pending"]
    del record["sealed"]
    record.update(body=value["body"], salt=value["salt"])

    def publish(n: int, changes: dict[str, bytes | None]) -> None:
        if n >= 14:
            changes[record["file"]] = value["file"].encode()
            changes[f"{record['file']}.sig"] = value["signature"].encode()

    cheat.rewrite(files=publish)
    assert problems(camp) == [
        "log/000015.yaml: the orders of red are recorded in the open in a phase where several "
        "factions act at once (they stay sealed until it resolves)"]


# ---------------------------------------------------------------------------------------
# tags


def test_turn_tags_moved_missing_or_made_up(camp: Path) -> None:
    one, two = git(camp, "rev-parse", "turn-0001"), git(camp, "rev-parse", "turn-0002")
    git(camp, "tag", "-f", "turn-0001", "HEAD~3")
    wrong = git(camp, "rev-parse", "HEAD~3")
    git(camp, "tag", "-d", "turn-0002")
    git(camp, "tag", "turn-0007", "HEAD")
    git(camp, "tag", "release-1", "HEAD")  # not a turn tag: ignored
    assert problems(camp) == [
        f"tag turn-0001 points at commit {wrong[:10]}, not at the commit of log/000014.yaml "
        f"({one[:10]}), the step that began that turn",
        f"tag turn-0002 is missing (it marks log/000029.yaml, commit {two[:10]})",
        "tag turn-0007 names a turn that no step of the log began"]


# ---------------------------------------------------------------------------------------
# what a clone remembers, and mail as a witness


def test_a_history_rewritten_since_this_clone_verified_it(camp: Path) -> None:
    assert problems(camp) == []
    seen = json.loads((camp / ".git" / audit.VERIFIED).read_text())
    head = seen["head"]
    cheat = Referee(camp)
    cheat.entry(35)["summary"] += " (again)"
    cheat.rewrite()
    now = entry_hash(yamlio.read_trusted(camp / "log" / "000035.yaml"))
    assert problems(camp) == [
        f"the history was rewritten: step 35 (log/000035.yaml) is not the one this clone "
        f"verified on {seen['when']} (hash {head[:16]}, now {now[:16]})"]
    assert json.loads((camp / ".git" / audit.VERIFIED).read_text()) == seen  # not forgotten
    git(camp, "reset", "-q", "--hard", "HEAD~1")
    assert problems(camp) == [
        f"the history was rewritten: step 35 (log/000035.yaml), which this clone verified on "
        f"{seen['when']}, is gone (the log ends at step 34)"]


def test_a_memory_that_cannot_be_read_is_ignored_and_replaced(camp: Path) -> None:
    memory = camp / ".git" / audit.VERIFIED
    for text in ("not json", '{"seq": 3}', '{"seq": "x", "head": "y"}', "[1]"):
        memory.write_text(text)
        assert problems(camp) == []
        seen = json.loads(memory.read_text())
        assert seen["seq"] == 35 and len(seen["when"]) == 20 and seen["when"].endswith("Z")
    memory.write_text(json.dumps({"seq": 35, "head": seen["head"]}))
    assert problems(camp) == []
    memory.write_text(json.dumps({"seq": 35, "head": "ab" * 32}))
    now = json.loads('"' + entry_hash(yamlio.read_trusted(camp / "log" / "000035.yaml")) + '"')
    assert problems(camp) == [
        f"the history was rewritten: step 35 (log/000035.yaml) is not the one this clone "
        f"verified on ? (hash {'ab' * 8}, now {now[:16]})"]


def test_a_memory_kept_only_when_the_audit_is_clean(camp: Path) -> None:
    (camp / STATE).write_text((camp / STATE).read_text() + "# x\n")
    assert problems(camp) != []
    assert not (camp / ".git" / audit.VERIFIED).exists()


def _mail(campaign: str | None, step: str | None, head: str | None,
          subject: str | None) -> EmailMessage:
    msg = EmailMessage()
    if subject is not None:
        msg["Subject"] = subject
    if campaign is not None:
        msg["X-Pbem-Campaign"] = campaign
    if step is not None:
        msg["X-Pbem-Step"] = step
    if head is not None:
        msg["X-Pbem-Head"] = head
    msg.set_content("report")
    return msg


def test_mails_witness_a_rewritten_history(camp: Path, tmp_path: Path) -> None:
    cid = Campaign.open(camp).id
    hashes = {n: entry_hash(yamlio.read_trusted(camp / "log" / f"{n:06d}.yaml")) for n in (34, 35)}
    eml = tmp_path / "one.eml"
    eml.write_bytes(_mail(cid, "35", hashes[35], "turn report").as_bytes())
    wrong = tmp_path / "two.eml"
    wrong.write_bytes(_mail(cid, "34", "ff" * 32, "reminder").as_bytes())
    box = mailbox.mbox(str(tmp_path / "box.mbox"))
    for msg in (_mail(cid, "40", hashes[35], "later report"), _mail("other", "40", "aa", "x"),
                _mail(cid, "40", None, "no head"), _mail(cid, "soon", "aa", "no step"),
                _mail(cid, "34", hashes[34], "fine")):
        box.add(msg)
    box.flush()
    maildir = mailbox.Maildir(str(tmp_path / "md"), create=True)
    key = maildir.add(_mail(cid, "36", "cc" * 32, "from the future"))
    untitled = tmp_path / "three.eml"  # a mail without a subject is named by its file alone
    untitled.write_bytes(_mail(cid, "41", hashes[35], None).as_bytes())
    report = audit.audit(camp, witnesses=[eml, wrong, tmp_path / "box.mbox", tmp_path / "md",
                                          untitled])
    assert report["problems"] == [
        f"{wrong} (reminder) was made at step 34 with head {'ff' * 8}, but the log's step 34 "
        f"is {hashes[34][:16]}: the history was rewritten",
        f"{tmp_path / 'box.mbox'}#1 (later report) was made at step 40, which the log no "
        "longer has: the history was rewritten",
        f"{tmp_path / 'md'}/{key} (from the future) was made at step 36, which the log no "
        "longer has: the history was rewritten",
        f"{untitled} was made at step 41, which the log no longer has: the history was "
        "rewritten"]
    assert report["ok"] is False
    assert not (camp / ".git" / audit.VERIFIED).exists()


# ---------------------------------------------------------------------------------------
# unseal and the final audit


def test_unsealed_the_final_audit_recomputes_every_hidden_draw(camp: Path) -> None:
    api.unseal(camp, force=True)
    plain = audit.audit(camp)
    assert plain["problems"] == [] and "rolls_recomputed" not in plain["checked"]
    report = audit.audit(camp, final=True)
    assert report["problems"] == [] and report["ok"] is True
    rolls = audit.dice_states(list(Campaign.open(camp).entries()))
    assert {r["state"] for r in rolls} == {"verified"}
    assert report["checked"]["rolls_recomputed"] == len(rolls) == report["checked"]["rolls"] == 271
    assert report["checked"]["sealed_recomputed"] == 45  # with the hidden key: every shuffle too
    assert report["checked"]["commitments"] > plain["checked"]["commitments"] - 1


def test_an_unseal_whose_opening_is_doctored(camp: Path) -> None:
    api.unseal(camp, force=True)
    name = sorted((camp / "log").glob("*.yaml"))[-1].relative_to(camp).as_posix()
    entry = yamlio.read_trusted(camp / name)
    opening = entry["opened"][0]
    opening["nonce"] = "00" * 32
    amend_head(camp, name, entry)
    node = opening["node"]
    assert problems(camp) == [f"{name}: the published opening of {node['kind']} {node['id']} "
                              "does not match its commitment"]


def test_an_unseal_with_another_hidden_secret(camp: Path) -> None:
    """The hidden secret published at unseal does not open the commitment of step 1: the
    set-up dice stay unchecked (hidden), and a final audit says so."""
    api.unseal(camp, force=True)
    name = sorted((camp / "log").glob("*.yaml"))[-1].relative_to(camp).as_posix()
    entry = yamlio.read_trusted(camp / name)
    entry["hidden"] = "11" * 32
    amend_head(camp, name, entry)
    rolls = audit.dice_states(list(Campaign.open(camp).entries()))
    hidden = [r for r in rolls if r["state"] != "verified"]
    assert hidden and {r["state"] for r in hidden} == {"hidden"}
    report = audit.audit(camp, final=True)
    assert report["problems"][:2] == [
        f"log/{r['seq']:06d}.yaml: die {r['label']} = {r['value']} is hidden" for r in hidden[:2]]


def test_dice_states_of_doctored_dice(camp: Path) -> None:
    entries = list(Campaign.open(camp).entries())
    entries[34]["dice"][0]["value"] = entries[34]["dice"][0]["value"] % 6 + 1
    del entries[33]["seed"]
    rolls = audit.dice_states(entries, Campaign.open(camp).id)
    by_seq: dict[int, set[str]] = {}
    for r in rolls:
        by_seq.setdefault(r["seq"], set()).add(r["state"])
    assert by_seq[1] == {"hidden"} and by_seq[34] == {"WRONG"}
    first = next(r for r in rolls if r["seq"] == 35)
    assert first["state"] == "WRONG" and first["batch"] == 13 and first["turn"] == 2
    assert {r["state"] for r in rolls if r["seq"] == 35} == {"WRONG", "verified"}
    assert audit.dice_states([]) == []


def test_a_resolution_without_some_orders_replays_with_the_defaults_it_recorded(camp: Path) -> None:
    """`resolve --nmr` records the orders it gave the factions that sent none (nmr_orders,
    here the bot's, which move: not what no orders at all would do): the audit replays the
    phase with them, and finds the step sound."""
    config = camp / CONFIG
    config.write_text(config.read_text(encoding="utf-8") + "nmr: bot\n", encoding="utf-8")
    api.resolve(camp, nmr=True)
    entries = list(Campaign.open(camp).entries())
    assert entries[-1]["type"] == "resolve"
    given = entries[-1]["nmr_orders"]
    assert given and all(body["orders"] for body in given.values())
    assert problems(camp) == []


def test_a_kept_file_whose_committed_text_is_not_the_revealed_one(camp: Path) -> None:
    """The check behind a revealed orders file: the file in the step's commit must be the
    text the log reveals (one the history rewrote is named); a second naming is refused."""
    auditor = audit._Audit(camp)
    head = shas(camp)[-1]
    path = next(p.relative_to(camp).as_posix() for p in sorted((camp / "orders").rglob("*.yaml")))
    committed = (camp / path).read_bytes()
    assert auditor._keep("log/000009.yaml", path, head, committed) == committed
    assert auditor.problems == []
    again = audit._Audit(camp)
    assert again._keep("log/000009.yaml", path, head, committed + b"# more\n") == committed
    assert again.problems == [f"log/000009.yaml: {path} as committed is not the file the log reveals"]
    assert again._keep("log/000010.yaml", path, head) is None
    assert again.problems[-1] == f"log/000010.yaml: names {path}, which log/000009.yaml named already"


def test_a_die_changed_and_signed_again(camp: Path) -> None:
    """A dishonest referee changes one die of the last step and signs the entry again: the
    audit names that die, by label and value, against the seed and salts."""
    name = "log/000035.yaml"
    entry = yamlio.read_trusted(camp / name)
    die = entry["dice"][3]
    die["value"] = die["value"] % die["sides"] + 1
    amend_head(camp, name, entry)
    assert (f"{name}: die {die['label']} = {die['value']} is not what the seed and salts give"
            in problems(camp))


def test_a_batch_number_changed_and_signed_again(camp: Path) -> None:
    name = "log/000035.yaml"
    entry = yamlio.read_trusted(camp / name)
    assert entry["batch"] == 13
    entry["batch"] = 12
    amend_head(camp, name, entry)
    assert problems(camp)[0] == (f"{name}: uses batch 12 of the seed chain; the next unused one "
                                 "is 13 (a reused or skipped chain element)")


def test_a_contribution_round_that_asks_a_faction_the_game_lacks(camp: Path) -> None:
    """The round must ask exactly the game's factions: one left out, or one added."""
    everyone = ["north", "red", "siberian", "south"]
    auditor = audit._Audit(camp)
    auditor._round("log/000001.yaml", {"contribute": everyone})
    auditor._round("log/000001.yaml", {})
    assert auditor.problems == []
    auditor._round("log/000001.yaml", {"contribute": [*everyone, "martians"]})
    auditor._round("log/000001.yaml", {"contribute": ["red"]})
    auditor._round("log/000001.yaml", {"contribute": []})
    assert auditor.problems == [
        "log/000001.yaml: the contribution round asks martians, north, red, siberian, south, not "
        "every faction of the game (differs for martians)",
        "log/000001.yaml: the contribution round asks red, not every faction of the game (differs "
        "for north, siberian, south)",
        "log/000001.yaml: the contribution round asks nobody, not every faction of the game "
        "(differs for north, red, siberian, south)"]


def test_the_audit_knows_every_sealed_value_the_orders_carry(camp: Path) -> None:
    """Each sealed node of the recorded orders (a sealed file, a secret part, a file sealed
    for its secret) is listed by what it seals, so that an unopened one can be named."""
    from pbem.log import recorded

    auditor = audit._Audit(camp)
    assert auditor.run()["unopened"] == []
    expected = {}
    for entry in Campaign.open(camp).entries():
        if entry["type"] == "orders":
            for record in recorded(entry).values():
                for key in ("sealed", "secret", "file_sealed"):
                    if key in record:
                        node = record[key]
                        expected[node["commitment"]] = f"{node['kind']} {node['id']} of {node['owner']}"
    assert {k: v for k, v in auditor.sealed.items() if k in expected} == expected
    kinds = {v.split()[0] for v in expected.values()}
    assert len(kinds) >= 2 and len(expected) == 15 + 2 * 4


def test_a_final_audit_before_unseal_says_it_needs_unseal_and_lists_twenty_unverified_dice(
        camp: Path) -> None:
    """Before `pbem unseal` the set-up dice (rolled with the hidden key) cannot be checked:
    a final audit says it needs the unseal, then names the first twenty such dice only, and
    counts the dice it did recompute."""
    rolls = audit.dice_states(list(Campaign.open(camp).entries()))
    hidden = [r for r in rolls if r["state"] != "verified"]
    assert len(hidden) > 20 and {r["state"] for r in hidden} == {"hidden"}
    report = api.audit(camp, final=True)
    assert report["problems"] == [
        "audit --final needs the campaign to be unsealed first (pbem unseal)",
        *[f"log/{r['seq']:06d}.yaml: die {r['label']} = {r['value']} is hidden" for r in hidden[:20]]]
    assert report["ok"] is False
    assert report["checked"]["rolls_recomputed"] == len(rolls) - len(hidden) > 0
