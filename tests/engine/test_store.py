"""pbem.store against a real git: HEAD read without git and by git, the history's changes
in every layout git may give them, and git's failures as one clear message."""

from __future__ import annotations

from pathlib import Path

import pytest
from conftest import git

from pbem.errors import CampaignError
from pbem.store import Store


def repo(root: Path) -> Store:
    store = Store.init(root)
    (root / "a.txt").write_text("one\n")
    store.commit(["a.txt"], "first", ("Ref Eree", "ref@pbem.invalid"))
    return store


def commit_all(root: Path, message: str) -> str:
    git(root, "add", "-A", "--", ".")
    git(root, "commit", "-q", "--no-verify", "-m", message)
    return git(root, "rev-parse", "HEAD")


# ---------------------------------------------------------------------------------- HEAD


def test_head_is_read_from_the_ref_file_without_git(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    store = repo(tmp_path / "r")
    sha = git(tmp_path / "r", "rev-parse", "HEAD")
    monkeypatch.setenv("PATH", str(tmp_path / "nowhere"))  # no git to ask
    assert store.head() == sha


def test_head_by_git_for_packed_refs_a_detached_head_and_no_commit(tmp_path: Path) -> None:
    root = tmp_path / "r"
    store = repo(root)
    sha = git(root, "rev-parse", "HEAD")
    git(root, "pack-refs", "--all")
    assert not (root / ".git" / "refs" / "heads" / "main").exists()
    assert store.head() == sha
    (root / "a.txt").write_text("two\n")
    second = commit_all(root, "second")
    git(root, "checkout", "-q", "--detach", sha)
    assert store.head() == sha != second
    assert Store.init(tmp_path / "empty").head() == ""


def test_commit_is_by_the_author_given_and_returns_its_sha(tmp_path: Path) -> None:
    root = tmp_path / "r"
    repo(root)
    assert git(root, "log", "-1", "--format=%an <%ae> / %cn <%ce> / %s") == (
        "Ref Eree <ref@pbem.invalid> / Ref Eree <ref@pbem.invalid> / first")


# -------------------------------------------------------------------------- git's errors


def test_a_failing_git_command_is_one_line_naming_it_with_gits_words(tmp_path: Path) -> None:
    store = repo(tmp_path / "r")
    with pytest.raises(CampaignError) as failed:
        store._git("frobnicate")
    assert failed.value.message.startswith("git frobnicate failed: git: 'frobnicate' is not a git command.")
    assert "\n" not in failed.value.message
    with pytest.raises(CampaignError) as nothing:  # git says this one on its standard output
        store._git("commit", "-m", "nothing")
    assert nothing.value.message.startswith("git commit failed: On branch main nothing to commit")


def test_without_git_the_message_says_so(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    store = repo(tmp_path / "r")
    monkeypatch.setenv("PATH", str(tmp_path / "nowhere"))
    with pytest.raises(CampaignError) as failed:
        store._git("status")
    assert failed.value.message == "git status failed: No such file or directory: is git installed?"


def test_output_keeps_all_but_its_last_newline_and_survives_bytes_that_are_not_utf8(tmp_path: Path) -> None:
    root = tmp_path / "r"
    store = repo(root)
    (root / "b.bin").write_bytes(b"\n\xff\n\n")
    commit_all(root, "bytes")
    assert store._git("show", "HEAD:b.bin") == "\n\ufffd\n"
    assert store._git("rev-parse", "HEAD") == git(root, "rev-parse", "HEAD")


# ---------------------------------------------------------------------- the history's changes


def test_changes_follow_the_first_parent_whatever_the_config(tmp_path: Path) -> None:
    """A merged side branch's own commits are not the campaign's; the root commit's files
    are listed even with log.showRoot off; a rename is a removal and an addition."""
    root = tmp_path / "r"
    store = repo(root)
    git(root, "config", "log.showRoot", "false")
    git(root, "config", "diff.renames", "true")
    first = git(root, "rev-parse", "HEAD")
    git(root, "checkout", "-q", "-b", "side")
    (root / "side.txt").write_text("side\n")
    commit_all(root, "on the side")
    git(root, "checkout", "-q", "main")
    git(root, "merge", "-q", "--no-ff", "-m", "merge", "side")
    merge = git(root, "rev-parse", "HEAD")
    git(root, "mv", "a.txt", "renamed.txt")
    renamed = commit_all(root, "rename")
    blob_a = git(root, "rev-parse", f"{first}:a.txt")
    assert store.changes() == [
        (first, {"a.txt": blob_a}),
        (merge, {"side.txt": git(root, "rev-parse", "side:side.txt")}),
        (renamed, {"a.txt": None, "renamed.txt": blob_a}),
    ]


def test_an_empty_commit_changes_nothing(tmp_path: Path) -> None:
    root = tmp_path / "r"
    store = repo(root)
    git(root, "commit", "-q", "--allow-empty", "-m", "empty")
    assert store.changes()[-1] == (git(root, "rev-parse", "HEAD"), {})


def test_commit_ignores_the_clones_hooks_and_signing_settings(tmp_path: Path) -> None:
    """A step is committed whatever hooks or gpg settings the referee's git has."""
    root = tmp_path / "r"
    store = repo(root)
    hook = root / ".git" / "hooks" / "pre-commit"
    hook.write_text("#!/bin/sh\nexit 1\n")
    hook.chmod(0o755)
    git(root, "config", "commit.gpgsign", "true")
    git(root, "config", "gpg.program", str(tmp_path / "no-gpg"))
    (root / "a.txt").write_text("two\n")
    sha = store.commit(["a.txt"], "second", ("Ref Eree", "ref@pbem.invalid"))
    assert sha == git(root, "rev-parse", "HEAD") and git(root, "log", "-1", "--format=%s") == "second"


# ------------------------------------------------------------------------------ opening


def test_open_a_linked_worktree_and_refuse_a_git_folder_that_is_no_repository(tmp_path: Path) -> None:
    root = tmp_path / "r"
    repo(root)
    git(root, "worktree", "add", "-q", "-b", "other", str(tmp_path / "wt"))
    linked = Store.open(tmp_path / "wt")
    assert Path(linked.git_dir) == (root / ".git" / "worktrees" / "wt").resolve()
    assert linked.head() == git(root, "rev-parse", "HEAD")
    (tmp_path / "wt" / "a.txt").write_text("in the worktree\n")
    sha = linked.commit(["a.txt"], "there", ("Ref Eree", "ref@pbem.invalid"))
    assert git(root, "rev-parse", "other") == sha == linked.head()
    (tmp_path / "hollow" / ".git").mkdir(parents=True)  # a .git folder without HEAD
    (tmp_path / "bogus").mkdir()
    (tmp_path / "bogus" / ".git").write_text("gitdir: /nowhere\n")
    for folder in ("hollow", "bogus"):
        with pytest.raises(CampaignError, match="not a git repository"):
            Store.open(tmp_path / folder)


def test_init_makes_the_folders_it_needs(tmp_path: Path) -> None:
    store = Store.init(tmp_path / "a" / "b")
    assert (tmp_path / "a" / "b" / ".git" / "HEAD").read_text() == "ref: refs/heads/main\n"
    assert store.head() == ""
