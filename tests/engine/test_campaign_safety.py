"""A campaign survives crashes, stale locks, concurrent runs and tampering (docs/design.md
"The campaign folder")."""

from __future__ import annotations

import contextlib
import json
import os
import signal
import subprocess
import sys
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from pbem import api, yamlio
from pbem.campaign import Campaign
from pbem.errors import Busy
from pbem.log import Folder, normal
from tests.conftest import git, play, run_pbem, tree_state


@pytest.fixture
def camp(new_campaign: Callable[..., Path]) -> Path:
    return new_campaign("camp")


@pytest.fixture
def reducing(camp: Path) -> Path:
    """A campaign at the set-up reductions (all four factions awaited, simultaneously),
    with orders/ in HEAD (see test_half_written_step_on_a_fresh_campaign for why)."""
    play(camp, until_turn=0, phase="setup-reduce")
    assert git(camp, "ls-tree", "--name-only", "HEAD", "orders")
    return camp


def _bot_file(root: Path, faction: str, folder: Path) -> Path:
    path = folder / f"{faction}.yaml"
    yamlio.write_atomic(path, yamlio.dump(api.bot(root, faction)))
    return path


def _committed_seq(root: Path) -> int:
    """The number of log entries in HEAD (what the campaign 'is' after recovery)."""
    return len(git(root, "ls-tree", "--name-only", "HEAD", "log/").split())


def _audit(pbem: Callable[..., Any], root: Path) -> dict[str, Any]:
    r = pbem("-C", root, "audit", "--json")
    report: dict[str, Any] = json.loads(r.out)
    assert (r.code == 0) == report["ok"]
    return report


# ---------------------------------------------------------------------------------------
# kill -9 at random moments

DELAYS = [0.0, 0.07, 0.15, 0.22, 0.3, 0.36, 0.42, 0.48, 0.54, 0.6, 0.68, 0.8]
WORK_TREE = "the work tree differs from the last commit"


def test_kill_apply_at_any_moment(pbem, reducing: Path, tmp_path: Path) -> None:
    camp = reducing
    orders = _bot_file(camp, "siberian", tmp_path)
    interrupted = 0
    for delay in DELAYS:
        old = _committed_seq(camp)
        proc = subprocess.Popen(
            [sys.executable, "-m", "pbem", "-C", str(camp), "apply", str(orders)],
            stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
        )
        time.sleep(delay)
        proc.send_signal(signal.SIGKILL)
        proc.wait()
        st = run_pbem("-C", camp, "status", "--json")
        assert st.code == 0, f"status after kill at {delay}s: {st.err}"
        shown = json.loads(st.out)["seq"]
        assert shown in (old, old + 1), (delay, old, shown)
        report = _audit(pbem, camp)
        if not report["ok"]:
            # status does not recover (see test_status_recovers_a_half_written_step); the
            # only acceptable finding is the unfinished step in the work tree, and the next
            # command that takes the lock must put it right
            assert all(p.startswith(WORK_TREE) for p in report["problems"]), report
            interrupted += 1
            r = pbem("-C", camp, "resolve")  # takes the lock, recovers, then refuses
            assert r.code == 1 and "--nmr" in r.err, r.err
            report = _audit(pbem, camp)
            assert report["ok"], (delay, report)
        new = _committed_seq(camp)
        assert new in (old, old + 1), (delay, old, new)
        assert git(camp, "status", "--porcelain") == "", delay
        assert api.status(camp)["seq"] == new
    # the last round finished normally (or was killed): either way the campaign works on
    r = pbem("-C", camp, "apply", orders)
    assert r.code == 0, r.err
    assert _audit(pbem, camp)["ok"]
    log = json.loads(pbem("-C", camp, "log", "--json").out)
    assert [e["seq"] for e in log] == list(range(1, len(log) + 1))
    assert all(e["type"] == "orders" for e in log if e["seq"] > 10)
    assert api.status(camp)["received"] == ["siberian"]


# ---------------------------------------------------------------------------------------
# stale git lock, half-written step


def test_stale_index_lock_is_removed_by_the_next_apply(pbem, camp: Path, tmp_path: Path) -> None:
    orders = _bot_file(camp, "north", tmp_path)
    (camp / ".git" / "index.lock").write_text("")
    r = pbem("-C", camp, "apply", orders)
    assert r.code == 0, r.err
    assert "pbem: recovered: removed stale .git/index.lock" in r.err
    assert not (camp / ".git" / "index.lock").exists()
    assert git(camp, "status", "--porcelain") == ""
    assert _audit(pbem, camp)["ok"]
    assert api.status(camp)["received"] == ["north"]


def _half_written_step(root: Path) -> None:
    (root / "log" / "999999.yaml").write_text("seq: 999999\ntype: orders\n")
    with (root / "state.yaml").open("a") as handle:
        handle.write("# half written\n")


def test_temporary_files_of_a_killed_write_are_reported_then_removed(pbem, reducing: Path,
                                                                      tmp_path: Path) -> None:
    """A write killed between its temporary file and the rename leaves `.NAME.XXXXXXXX.tmp`
    wherever it was writing, managed path or not: audit names it, the next command that
    takes the lock removes it and says so, and a file of the moderator's that merely ends
    in .tmp is left alone."""
    camp = reducing
    orders = _bot_file(camp, "north", tmp_path)
    planted = [".state.yaml.2czbe30r.tmp", "log/.000011.yaml.a_b1c2d3.tmp",
               "reports/.public.txt.zzzz9999.tmp"]
    for rel in planted:
        (camp / rel).parent.mkdir(exist_ok=True)
        (camp / rel).write_text("half")
    private = camp / ".pbem" / ".intent.json.qwertyui.tmp"
    private.write_text("{")
    mine = camp / "notes.tmp"
    mine.write_text("the moderator's")
    report = _audit(pbem, camp)
    assert not report["ok"]
    problem = " ".join(report["problems"])
    assert all(rel in problem for rel in planted), problem
    assert ".intent.json" not in problem and "notes.tmp" not in problem
    r = pbem("-C", camp, "apply", orders)
    assert r.code == 0, r.err
    assert "pbem: recovered: removed half-written temporary files: " in r.err
    assert not any((camp / rel).exists() for rel in planted) and not private.exists()
    assert mine.read_text() == "the moderator's"
    mine.unlink()
    assert git(camp, "status", "--porcelain") == ""
    assert _audit(pbem, camp)["ok"]


def test_half_written_step_is_discarded_by_the_next_apply(pbem, reducing: Path,
                                                          tmp_path: Path) -> None:
    camp = reducing
    assert pbem("-C", camp, "apply", _bot_file(camp, "north", tmp_path)).code == 0
    orders = _bot_file(camp, "south", tmp_path)
    before = tree_state(camp)[0]
    _half_written_step(camp)
    (camp / ".git" / "index.lock").write_text("")
    r = pbem("-C", camp, "apply", orders)
    assert r.code == 0, r.err
    assert "pbem: recovered: " in r.err
    assert not (camp / "log" / "999999.yaml").exists()
    assert git(camp, "status", "--porcelain") == ""
    assert git(camp, "rev-list", "--count", f"{before}..HEAD") == "1"
    assert _audit(pbem, camp)["ok"]
    assert api.status(camp)["received"] == ["north", "south"]


def test_a_rejected_apply_also_recovers(pbem, reducing: Path, tmp_path: Path) -> None:
    camp = reducing
    bad = tmp_path / "bad.yaml"
    bad.write_text("campaign: camp\nturn: 9\nphase: setup-reduce\nfaction: south\norders: []\n")
    head = tree_state(camp)[0]
    _half_written_step(camp)
    r = pbem("-C", camp, "apply", bad)
    assert r.code == 1 and "bad.yaml:2:" in r.err, r.err
    assert tree_state(camp) == (head, "")


def test_half_written_step_on_a_fresh_campaign(pbem, camp: Path, tmp_path: Path) -> None:
    orders = _bot_file(camp, "south", tmp_path)
    head = tree_state(camp)[0]
    _half_written_step(camp)
    r = pbem("-C", camp, "apply", orders)
    assert r.code == 0, r.err
    assert git(camp, "rev-list", "--count", f"{head}..HEAD") == "1"
    assert git(camp, "status", "--porcelain") == ""
    assert _audit(pbem, camp)["ok"]


def test_status_recovers_a_half_written_step(pbem, reducing: Path) -> None:
    camp = reducing
    head = tree_state(camp)[0]
    _half_written_step(camp)
    (camp / ".git" / "index.lock").write_text("")
    r = run_pbem("-C", camp, "status")
    assert r.code == 0, r.err
    assert _audit(pbem, camp)["ok"]
    assert tree_state(camp) == (head, "")
    assert not (camp / ".git" / "index.lock").exists()


# ---------------------------------------------------------------------------------------
# concurrency and the lock


def test_two_concurrent_applies_are_serialised(pbem, camp: Path, tmp_path: Path) -> None:
    files = [_bot_file(camp, f, tmp_path) for f in ("siberian", "south")]
    procs = [subprocess.Popen([sys.executable, "-m", "pbem", "-C", str(camp), "apply", str(f)],
                              stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
             for f in files]
    outs = [p.communicate(timeout=120) for p in procs]
    for p, (_out, err) in zip(procs, outs, strict=True):
        assert p.returncode == 0, err
    log = json.loads(pbem("-C", camp, "log", "--json").out)
    assert [e["seq"] for e in log] == [1, 2, 3]
    assert sorted(e["faction"] for e in log[1:]) == ["siberian", "south"]
    assert api.status(camp)["received"] == ["siberian", "south"]
    assert git(camp, "status", "--porcelain") == ""
    assert _audit(pbem, camp)["ok"]


def _another_pbem(camp: Path) -> contextlib.AbstractContextManager[None]:
    """The campaign lock, held as a pbem working on the campaign holds it."""
    return Campaign.open(camp).held(exclusive=True, wait=0)


def test_busy_campaign_exits_4(camp: Path, tmp_path: Path) -> None:
    orders = _bot_file(camp, "north", tmp_path)
    before = tree_state(camp)
    with _another_pbem(camp):
        r = run_pbem("-C", camp, "apply", orders, env={"PBEM_LOCK_WAIT": "0"})
        assert r.code == 4, r.err
        lines = r.err.strip().splitlines()
        assert lines[0].startswith("Error: ") and "another pbem" in lines[0]
        assert "Traceback" not in r.err
        assert tree_state(camp) == before
    r = run_pbem("-C", camp, "apply", orders, env={"PBEM_LOCK_WAIT": "0"})
    assert r.code == 0, r.err


def test_apply_waits_for_the_lock(camp: Path, tmp_path: Path) -> None:
    orders = _bot_file(camp, "north", tmp_path)
    before = tree_state(camp)
    with _another_pbem(camp):  # released when the block ends, whatever happens in it
        proc = subprocess.Popen([sys.executable, "-m", "pbem", "-C", str(camp), "apply",
                                 str(orders)], stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                                text=True, env={**os.environ, "PBEM_LOCK_WAIT": "300"})
        # proof that it reached the lock and waits there, however slow the machine: its
        # progress line, read while the lock is still held
        assert proc.stderr is not None
        line = proc.stderr.readline()
        assert line.startswith("pbem: waiting up to 300 s for another pbem"), line
        assert proc.poll() is None
        assert tree_state(camp) == before  # nothing was done while it waited
    out, err = proc.communicate(timeout=120)
    assert proc.returncode == 0, err
    assert api.status(camp)["received"] == ["north"]


def test_readers_share_the_lock_and_a_writer_excludes_them(camp: Path) -> None:
    """audit holds the lock shared: readers run together; a writer waits for them, and
    they for it (here with no patience: Busy at once)."""
    with Campaign.open(camp).held(exclusive=False), Campaign.open(camp).held(exclusive=False):
        with pytest.raises(Busy, match="another pbem is working on this campaign"):
            with Campaign.open(camp).held(exclusive=True, wait=0):
                pass
    with _another_pbem(camp):
        with pytest.raises(Busy, match=r"\(waited 0 s for .*lock\)"):
            with Campaign.open(camp).held(exclusive=False, wait=0):
                pass
    with Campaign.open(camp).held(exclusive=True, wait=0):  # all released
        pass


def test_a_second_process_that_cannot_wait_long_enough_exits_4(camp: Path, tmp_path: Path) -> None:
    orders = _bot_file(camp, "north", tmp_path)
    before = tree_state(camp)
    with _another_pbem(camp):
        started = time.monotonic()
        r = run_pbem("-C", camp, "apply", orders, env={"PBEM_LOCK_WAIT": "2"})
        waited = time.monotonic() - started
    assert r.code == 4, r.err
    assert "waiting up to 2 s" in r.err and "waited 2 s" in r.err
    assert waited >= 2  # it did wait its whole time (a lower bound: holds under any load)
    assert tree_state(camp) == before


# ---------------------------------------------------------------------------------------
# tampering


@pytest.fixture
def played(pbem, camp: Path, tmp_path: Path) -> Path:
    for faction in ("siberian", "south", "north"):
        assert pbem("-C", camp, "apply", _bot_file(camp, faction, tmp_path)).code == 0
    assert _audit(pbem, camp)["ok"]
    return camp


def _commit_all(root: Path, message: str) -> None:
    git(root, "commit", "-q", "-am", message)


def test_tamper_one_byte_of_an_entry(pbem, played: Path) -> None:
    name = "log/000003.yaml"
    path = played / name
    raw = bytearray(path.read_bytes())
    at = raw.index(b"summary: ") + len(b"summary: ") + 2
    raw[at] = ord("X") if raw[at] != ord("X") else ord("Y")
    path.write_bytes(bytes(raw))
    _commit_all(played, "fix a typo")
    r = pbem("-C", played, "audit")
    assert r.code == 3
    assert name in r.err


@pytest.mark.parametrize("entry", [1, 2, 4, 5])
def test_tamper_any_entry_byte_by_byte(pbem, played: Path, entry: int) -> None:
    name = f"log/{entry:06d}.yaml"
    raw = (played / name).read_bytes()
    # a digit changed in the middle of the file
    at = next(i for i in range(len(raw) // 2, len(raw)) if chr(raw[i]).isdigit())
    changed = raw[:at] + (b"1" if raw[at:at + 1] != b"1" else b"2") + raw[at + 1:]
    (played / name).write_bytes(changed)
    _commit_all(played, "edit")
    r = pbem("-C", played, "audit")
    assert r.code == 3
    assert name in r.err


def test_delete_the_last_entry(pbem, played: Path) -> None:
    entries = sorted((played / "log").glob("*.yaml"))
    last = entries[-1]
    git(played, "rm", "-q", str(last.relative_to(played)))
    git(played, "commit", "-q", "-m", "remove the last step")
    r = pbem("-C", played, "audit")
    assert r.code == 3
    assert f"log/{last.name}" in r.err


def test_edit_the_snapshot(pbem, played: Path) -> None:
    state = yamlio.read_trusted(played / "state.yaml")
    state["game"]["money"]["red"] += 10
    yamlio.write_atomic(played / "state.yaml", yamlio.dump(state))
    _commit_all(played, "more money")
    r = pbem("-C", played, "audit")
    assert r.code == 3
    assert "state.yaml" in r.err


def test_an_uncommitted_edit_is_reported_by_audit_and_put_back_by_the_next_step(
        pbem, played: Path, tmp_path: Path) -> None:
    # a change to a file pbem manages that was never committed is what a crash mid-step
    # leaves: audit reports it and changes nothing; the next command that writes puts the
    # committed version back and says so
    path = played / "log" / "000002.yaml"
    committed = path.read_text()
    with path.open("a") as handle:
        handle.write("# note\n")
    edited = path.read_text()
    r = pbem("-C", played, "audit")
    assert r.code == 3
    assert "the work tree differs from the last commit: uncommitted changes in log/000002.yaml" in r.err
    assert path.read_text() == edited
    r = pbem("-C", played, "status")
    assert r.code == 0, r.err
    assert "pbem: recovered: discarded an unfinished step: log/000002.yaml" in r.err
    assert path.read_text() == committed
    assert pbem("-C", played, "audit").code == 0


# ---------------------------------------------------------------------------------------
# replay


@pytest.mark.parametrize("seed", ["alpha", "beta", "gamma"])
def test_replay_of_the_log_is_the_snapshot(pbem, new_campaign: Callable[..., Path],
                                           seed: str) -> None:
    root = new_campaign(f"replay-{seed}", seed=f"campaign-{seed}")
    play(root, until_turn=3, seed=seed)
    assert _audit(pbem, root)["ok"]
    campaign = Campaign.open(root)
    folder = Folder(campaign.game, campaign.data)
    for path in sorted((root / "log").glob("*.yaml")):
        folder.fold(yamlio.read_trusted(path))
    assert folder.state == normal(yamlio.read_trusted(root / "state.yaml"))
    assert folder.state["seq"] == api.status(root)["seq"]
    assert api.status(root)["turn"] == 3
