"""A history truncated and force-pushed does not audit clean on a clone that has seen it.

A clone remembers the last step its audit verified (in its own .git, never pushed); every
mail pbem sends carries the step and log head it was made at (X-Pbem-Step, X-Pbem-Head), so
a player's mailbox is a witness too (`pbem audit --witness MAILBOX`).
"""

from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path

from pbem import api, yamlio
from pbem.mail import loop as mailloop
from tests.conftest import Result, git, play


def _bot(root: Path, folder: Path, tag: str) -> list[Path]:
    files = []
    for faction in api.status(root)["awaiting"]:
        path = folder / f"{tag}-{faction}.yaml"
        yamlio.write_atomic(path, yamlio.dump(api.bot(root, faction, seed=tag)))
        files.append(path)
    return files


def _rewrite(root: Path, folder: Path, back: int) -> None:
    """The dishonest referee: drop the last `back` steps and play them otherwise."""
    git(root, "reset", "-q", "--hard", f"HEAD~{back}")
    for i in range(back):
        status = api.status(root)
        if status["awaiting"]:
            api.apply(root, _bot(root, folder, f"other{i}")[:1])
        else:
            api.resolve(root)


def test_a_clone_reports_a_history_rewritten_since_it_last_verified(
        new_campaign: Callable[..., Path], tmp_path: Path, pbem: Callable[..., Result]) -> None:
    camp = new_campaign(players=["red=Ann <ann@example.org>"])
    play(camp, until_turn=0, phase="setup-reduce")
    bare = tmp_path / "shared.git"
    git(tmp_path, "init", "-q", "--bare", str(bare))
    git(camp, "remote", "add", "origin", str(bare))
    git(camp, "push", "-q", "origin", "HEAD:refs/heads/main", "--tags")
    clone = tmp_path / "ann"
    git(tmp_path, "clone", "-q", "-b", "main", str(bare), str(clone))
    first = pbem("-C", clone, "audit")
    assert first.code == 0, first.err
    seen = json.loads((clone / ".git" / "pbem-verified.json").read_text())
    assert seen["seq"] == api.status(clone)["seq"]

    # the referee truncates two steps, plays them otherwise, and force-pushes
    _rewrite(camp, tmp_path, 2)
    git(camp, "push", "-q", "-f", "origin", "HEAD:refs/heads/main")
    git(clone, "fetch", "-q", "origin")
    git(clone, "reset", "-q", "--hard", "origin/main")
    assert pbem("-C", clone, "status").code == 0  # the rewritten history is self-consistent
    r = pbem("-C", clone, "audit")
    assert r.code == 3
    assert (f"problem: the history was rewritten: step {seen['seq']} "
            f"(log/{seen['seq']:06d}.yaml) is not the one this clone verified on "
            f"{seen['when']}") in r.err
    # a fresh clone of the rewritten history has nothing to compare with: it audits clean
    fresh = tmp_path / "fresh"
    git(tmp_path, "clone", "-q", "-b", "main", str(bare), str(fresh))
    assert pbem("-C", fresh, "audit").code == 0


def test_a_truncated_history_is_reported_as_gone(
        new_campaign: Callable[..., Path], tmp_path: Path, pbem: Callable[..., Result]) -> None:
    camp = new_campaign()
    play(camp, until_turn=0, phase="setup-reduce")
    assert pbem("-C", camp, "audit").code == 0
    seq = api.status(camp)["seq"]
    git(camp, "reset", "-q", "--hard", "HEAD~3")
    r = pbem("-C", camp, "audit")
    assert r.code == 3
    assert f"step {seq} (log/{seq:06d}.yaml), which this clone verified on" in r.err
    assert f"is gone (the log ends at step {seq - 3})" in r.err


def test_the_mailbox_is_a_witness(new_campaign: Callable[..., Path], tmp_path: Path,
                                  pbem: Callable[..., Result]) -> None:
    camp = new_campaign(players=["red=Ann <ann@example.org>", "south=Bob <bob@example.org>"])
    play(camp, until_turn=0, phase="setup-reduce")
    mailloop.mail(camp)
    mails = sorted((camp / ".pbem" / "outbox").glob("*.eml"))
    assert mails
    status = api.status(camp)
    text = mails[0].read_text()
    assert f"X-Pbem-Step: {status['seq']}" in text and f"X-Pbem-Head: {status['head']}" in text
    ok = pbem("-C", camp, "audit", "--witness", mails[0])
    assert ok.code == 0, ok.err
    # a history rewritten from before those mails: the mail says the log had another step
    (camp / ".git" / "pbem-verified.json").unlink()  # not the clone's memory, the mailbox
    _rewrite(camp, tmp_path, 2)
    r = pbem("-C", camp, "audit", "--witness", mails[0])
    assert r.code == 3
    assert (f"{mails[0]} ([camp] turn 0" in r.err
            and f"was made at step {status['seq']} with head {status['head'][:16]}" in r.err
            and "the history was rewritten" in r.err)
    assert pbem("-C", camp, "audit").code == 0  # without the witness, nothing to compare
