"""How pbem reads a campaign's history and files fast, each shown to give what the slow way
gave: the audit folds every commit's tree from what the commit changed (one `git log`), an
undo in the audit reads the checked snapshot again from git, the parsed snapshot and game
data are kept as JSON keyed by content (pbem.cache), and the quick commands never start
GitPython.
"""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest
from audit_fast import copy_of
from conftest import git

from pbem import audit, cache, yamlio
from pbem.campaign import STATE, Campaign
from pbem.log import Folder
from pbem.store import Store

KEPT = "orders/t00-setup-reduce-red-red-000013.yaml"  # named by step 13


@pytest.fixture
def camp(fast_base: Path, tmp_path: Path) -> Path:
    return copy_of(fast_base, tmp_path / "copy")


def commit_all(root: Path, message: str) -> str:
    git(root, "add", "-A", "--", ".")
    git(root, "commit", "-q", "--no-verify", "-m", message)
    return git(root, "rev-parse", "HEAD").strip()


# -------------------------------------------------------------- one git log for history


def test_changes_fold_to_every_commits_tree(camp: Path) -> None:
    """Store.changes: folding each commit's changes gives exactly `git ls-tree` of it."""
    tree: dict[str, str] = {}
    history = Store.open(camp).changes()
    assert [sha for sha, _ in history] == git(camp, "rev-list", "--first-parent", "--reverse",
                                              "HEAD").split()
    for sha, changed in history:
        for path, blob in changed.items():
            if blob is None:
                del tree[path]
            else:
                tree[path] = blob
        listed = {line.split("\t")[1]: line.split()[2]
                  for line in git(camp, "ls-tree", "-r", sha).splitlines()}
        assert tree == listed, sha


def test_changes_name_a_removed_file_with_none(camp: Path) -> None:
    (camp / KEPT).unlink()
    sha = commit_all(camp, "remove a file")
    last, changed = Store.open(camp).changes()[-1]
    assert (last, changed) == (sha, {KEPT: None})


def test_an_entry_changed_then_put_back_is_named_once_at_the_commit_that_changed_it(camp: Path) -> None:
    name = "log/000005.yaml"
    original = (camp / name).read_bytes()
    (camp / name).write_bytes(original + b"# edited\n")
    changed = commit_all(camp, "edit an entry")
    (camp / name).write_bytes(original)
    commit_all(camp, "put it back")
    assert audit.audit(camp)["problems"] == [f"{name}: changed or removed in commit {changed[:10]}"]


def test_a_named_file_removed_then_put_back_is_named_once(camp: Path) -> None:
    original = (camp / KEPT).read_bytes()
    (camp / KEPT).unlink()
    removed = commit_all(camp, "remove a named file")
    (camp / KEPT).write_bytes(original)
    commit_all(camp, "put it back")
    assert audit.audit(camp)["problems"] == [
        f"{KEPT} (named by log/000013.yaml) is removed in commit {removed[:10]}"]


def test_a_named_file_changed_later_is_named(camp: Path) -> None:
    (camp / KEPT).write_text((camp / KEPT).read_text() + "# later\n")
    changed = commit_all(camp, "change a named file")
    assert audit.audit(camp)["problems"] == [
        f"{KEPT} (named by log/000013.yaml) is changed in commit {changed[:10]}"]


def test_campaign_yaml_changed_in_a_later_commit_is_read_again(camp: Path) -> None:
    """campaign.yaml is parsed where a commit changes it, not once for the whole history."""
    config = yamlio.read_trusted(camp / "campaign.yaml")
    config["options"] = {**(config.get("options") or {}), "railways": True}
    (camp / "campaign.yaml").write_text(yamlio.dump(config))
    sha = commit_all(camp, "change an option by hand")
    found = audit.audit(camp)["problems"]
    assert any(p.startswith(f"campaign.yaml in commit {sha[:10]} changes options") for p in found), found


# ----------------------------------------------------- undo: the snapshot read again


class Recalled:
    """A recall that counts its calls."""

    def __init__(self, state: dict[str, Any]) -> None:
        self.state, self.calls = state, 0

    def __call__(self) -> dict[str, Any]:
        self.calls += 1
        return self.state


def test_an_undo_takes_the_recalled_state_and_keeps_no_copy(camp: Path) -> None:
    campaign = Campaign.open(camp)
    entries = list(campaign.entries())
    folder = Folder(campaign.game, campaign.data)
    for entry in entries[:-1]:
        folder.fold(entry)
    before = folder.state
    recall = Recalled(before)
    folder.recall = recall
    folder.fold(entries[-1])
    assert folder.stack[-1] == (entries[-1]["seq"], recall)  # the function, not the state
    assert folder.recall is None  # used by one fold only
    undo = {"seq": entries[-1]["seq"] + 1, "type": "undo", "undoes": entries[-1]["seq"],
            "turn": entries[-1]["turn"], "phase": entries[-1]["phase"], "summary": "undo",
            "prev": "", "reason": "test"}
    after = folder.fold(undo)
    assert recall.calls == 1
    assert after["game"] == before["game"]


def test_without_a_recall_the_stack_keeps_the_state(camp: Path) -> None:
    campaign = Campaign.open(camp)
    entries = list(campaign.entries())
    folder = Folder(campaign.game, campaign.data)
    for entry in entries:
        before = folder.state
        folder.fold(entry)
    assert folder.stack[-1] == (entries[-1]["seq"], before)


def test_audit_of_an_undo_is_clean_and_tells_the_correction(camp: Path) -> None:
    from pbem import api

    api.undo(camp, reason="a test of undo")
    report = audit.audit(camp)
    assert report["problems"] == []
    undone = [c for c in report["corrections"] if c["kind"] == "undo"]
    assert len(undone) == 1 and undone[0]["reason"] == "a test of undo"


# ------------------------------------------------------------------ the JSON caches


def test_cached_gives_what_build_gives_and_rebuilds_on_a_new_key(tmp_path: Path) -> None:
    calls: list[int] = []

    def build() -> Any:
        calls.append(1)
        return {"a": [1, 2], 3: {"x": None}, "b": {4: "four"}}

    first = cache.cached(tmp_path, "thing", "k1", build)
    again = cache.cached(tmp_path, "thing", "k1", build)
    assert first == again == build() and len(calls) == 2  # the second came from the file
    calls.clear()
    cache.cached(tmp_path, "thing", "k2", build)
    assert calls == [1]
    assert json.loads((tmp_path / "thing.json").read_text())["key"] == "k2"  # one file per name


def test_cached_never_keeps_what_json_cannot_hold(tmp_path: Path) -> None:
    import datetime

    for value in ({"a": datetime.date(1918, 6, 1)}, {"a": {1, 2}}, [b"x"], [float("nan")]):
        assert cache.cached(tmp_path, "t", "k", lambda v=value: v) is value
        assert not (tmp_path / "t.json").exists()
        assert cache.by_blob(tmp_path, "ab" * 20, lambda v=value: v) is value
        assert not (tmp_path / "ab").exists()


def test_cached_keeps_keys_of_every_kind_and_the_marker_key_itself(tmp_path: Path) -> None:
    for value in ({1: "a", "b": {True: None, 2.5: [1]}}, {cache.PAIRS: [[1, 2]]}, {cache.PAIRS: 1},
                  [1.5, -0.0, 10**30, None, "\u00e9"]):
        cache.cached(tmp_path, "t", repr(value), lambda v=value: v)
        assert cache.cached(tmp_path, "t", repr(value), lambda: None) == value
        blob = f"{abs(hash(repr(value))):040x}"[:40]
        cache.by_blob(tmp_path, blob, lambda v=value: v)
        assert cache.by_blob(tmp_path, blob, lambda: None) == value


def test_a_damaged_cache_file_is_parsed_again(tmp_path: Path) -> None:
    (tmp_path / "t.json").write_text('{"key": "k", "val')
    assert cache.cached(tmp_path, "t", "k", lambda: [1]) == [1]
    assert json.loads((tmp_path / "t.json").read_text()) == {"key": "k", "value": [1]}


def test_without_a_folder_nothing_is_kept(tmp_path: Path) -> None:
    assert cache.cached(None, "t", "k", lambda: 5) == 5


def test_the_snapshot_is_keyed_by_its_content(camp: Path) -> None:
    """A state.yaml edited by hand (same size, same mtime) is parsed again, not taken from
    the cache of the old bytes."""
    campaign = Campaign.open(camp)
    campaign.private.mkdir(exist_ok=True)
    state = campaign.state()
    kept = camp / ".pbem" / "cache" / "state.json"
    assert json.loads(kept.read_text())["value"] == state
    text = (camp / STATE).read_text()
    assert "seq: 35" in text
    (camp / STATE).write_text(text.replace("seq: 35", "seq: 36"))
    assert Campaign.open(camp).state()["seq"] == 36


def test_game_data_from_the_cache_is_the_data_checked(camp: Path, tmp_path: Path) -> None:
    from pbem import game

    checked = game.load_data("red_russia")
    game._DATA.clear()
    first = game.load_data("red_russia", {}, cache=tmp_path)
    game._DATA.clear()
    again = game.load_data("red_russia", {}, cache=tmp_path)
    assert first.files == again.files == checked.files
    assert (tmp_path / "game-data.json").is_file()


def test_game_data_key_follows_every_file_and_the_overrides(tmp_path: Path) -> None:
    import shutil

    from pbem import game

    folder = tmp_path / "red_russia"
    shutil.copytree(game.game_folder("red_russia"), folder)
    base = game._data_key(folder, "[]")
    assert game._data_key(folder, "[]") == base
    assert game._data_key(folder, '[{"map": {}}]') != base
    for name in ("map.yaml", "schemas/map.schema.json", "rules/turn.py"):
        path = folder / name
        saved = path.read_bytes()
        path.write_bytes(saved + b"\n")
        assert game._data_key(folder, "[]") != base, name
        path.write_bytes(saved)


# -------------------------------------------------------------- no GitPython to start


def test_a_campaign_copied_without_its_git_into_another_repository_is_refused(
        camp: Path, tmp_path: Path) -> None:
    """Store.open takes the folder's own repository only, never one further up (whose files
    `recover` would put right)."""
    import shutil

    from pbem.errors import CampaignError

    outer = tmp_path / "outer"
    outer.mkdir()
    git(outer, "init", "-q")
    inner = outer / "camp"
    shutil.copytree(camp, inner, ignore=shutil.ignore_patterns(".git"))
    with pytest.raises(CampaignError, match="not a git repository"):
        Store.open(inner)
    assert Store.open(camp).head() == git(camp, "rev-parse", "HEAD")


@pytest.mark.parametrize("command", ["status", "apply"])
def test_quick_commands_never_import_gitpython(new_campaign: Any, command: str) -> None:
    """status and apply (a step recorded and committed) run git's own commands; GitPython
    (and its `git version` probes) is for reading objects (audit, reports, undo). Their lock
    is pbem.lock on sqlite3: filelock (which imports asyncio) is for the mail spool alone."""
    from pbem import api

    root = new_campaign()
    args = ["status"]
    if command == "apply":
        faction = api.status(root)["awaiting"][0]
        orders = root.parent / "orders.yaml"
        orders.write_text(yamlio.dump(api.bot(root, faction)))
        args = ["apply", str(orders)]
    seq = api.status(root)["seq"]
    probe = ("import sys\nfrom pbem.cli import main\ntry:\n    main(sys.argv[1:])\n"
             "except SystemExit:\n    pass\n"
             "print(sorted({'git', 'filelock', 'asyncio'} & set(sys.modules)) or 'NONE')")
    out = subprocess.run([sys.executable, "-c", probe, "-C", str(root), *args],
                         capture_output=True, text=True, timeout=120)
    assert out.stdout.strip().splitlines()[-1] == "NONE", out.stdout + out.stderr
    assert api.status(root)["seq"] == seq + (command == "apply")


def test_cache_layout_folders_and_key(tmp_path: Path) -> None:
    """A blob's parse is at FOLDER/ab/cdef....json.z in folders made as needed, private to
    their owner; a key is SHA-256 over each part with its length (8 bytes, big-endian) in
    front, so parts never run into one another."""
    import hashlib
    import zlib

    folder = tmp_path / "not" / "yet"
    blob = "ab" + "cd" * 19
    assert cache.by_blob(folder, blob, lambda: {"x": 1}) == {"x": 1}
    kept = folder / "ab" / f"{'cd' * 19}.json.z"
    assert json.loads(zlib.decompress(kept.read_bytes())) == {"x": 1}
    assert (folder / "ab").stat().st_mode & 0o777 == 0o700
    assert sorted(p.name for p in (folder / "ab").iterdir()) == [kept.name]  # no temp left
    cache.cached(tmp_path / "other" / "deep", "t", "k", lambda: [1])
    assert (tmp_path / "other" / "deep").stat().st_mode & 0o777 == 0o700
    want = hashlib.sha256((1).to_bytes(8, "big") + b"a" + (2).to_bytes(8, "big") + b"bc").hexdigest()
    assert cache.key_of(b"a", b"bc") == want != cache.key_of(b"ab", b"c")
