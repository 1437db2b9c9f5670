"""Git, through GitPython: the only module that imports git.

GitPython's exceptions never escape: they become CampaignError with the command's message.
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import git

from pbem.errors import CampaignError


@dataclass(frozen=True)
class Commit:
    sha: str
    message: str
    parents: tuple[str, ...]


class Store:
    """A campaign's git repository."""

    def __init__(self, root: Path, repo: git.Repo) -> None:
        self.root = root
        self._repo = repo

    # -- opening -------------------------------------------------------------------------
    @classmethod
    def init(cls, root: Path) -> Store:
        try:
            repo = git.Repo.init(root, initial_branch="main")
        except git.GitError as exc:
            raise CampaignError(f"{root}: git init failed: {_msg(exc)}") from None
        return cls(root, repo)

    @classmethod
    def open(cls, root: Path) -> Store:
        try:
            repo = git.Repo(root)
        except (git.InvalidGitRepositoryError, git.NoSuchPathError):
            raise CampaignError(f"{root}: not a git repository (is this a campaign folder?)") from None
        return cls(root, repo)

    # -- writing -------------------------------------------------------------------------
    def recover(self, managed: list[str]) -> list[str]:
        """Bring the work tree back to HEAD after a crash; return what was done.

        Called while pbem holds the campaign lock, so a git lock file left behind can only
        be stale (a git process killed mid-commit). Only the paths pbem manages are reset,
        and untracked files pbem may have half-written there are removed.
        """
        done: list[str] = []
        git_dir = Path(self._repo.git_dir)
        for lock in ("index.lock", "HEAD.lock", "refs/heads/main.lock"):
            if (git_dir / lock).exists():
                (git_dir / lock).unlink()
                done.append(f"removed stale .git/{lock}")
        if not self._repo.head.is_valid():
            return done
        status = self._git("status", "--porcelain", "--untracked-files=all", "--", *managed)
        if status.strip():
            tracked = [p for p in managed if self._git("ls-tree", "--name-only", "HEAD", "--", p).strip()]
            self._git("reset", "--quiet", "--", *managed)
            if tracked:
                self._git("checkout", "--quiet", "HEAD", "--", *tracked)
            self._git("clean", "--quiet", "-f", "--", *managed)
            done.append("discarded an unfinished step: " + ", ".join(
                line[3:] for line in status.splitlines()))
        return done

    def commit(self, paths: list[str], message: str, author: tuple[str, str]) -> str:
        env = {
            "GIT_AUTHOR_NAME": author[0],
            "GIT_AUTHOR_EMAIL": author[1],
            "GIT_COMMITTER_NAME": author[0],
            "GIT_COMMITTER_EMAIL": author[1],
        }
        self._git("add", "--", *paths)
        with self._repo.git.custom_environment(**env):
            self._git("commit", "--quiet", "--no-verify", "--no-gpg-sign", "-m", message)
        return self.head()

    def tag(self, name: str) -> None:
        """A lightweight tag (turn-NNNN); --force because an undo may move it."""
        self._git("tag", "--force", name)

    # -- reading -------------------------------------------------------------------------
    @property
    def git_dir(self) -> str:
        return str(self._repo.git_dir)

    def head(self) -> str:
        try:
            return str(self._repo.head.commit.hexsha)
        except ValueError:
            return ""

    def is_clean(self) -> bool:
        return not self._git("status", "--porcelain").strip()

    def history(self) -> list[Commit]:
        """First-parent history from the root commit to HEAD."""
        out: list[Commit] = []
        for c in self._repo.iter_commits("HEAD", first_parent=True):
            out.append(Commit(c.hexsha, str(c.message), tuple(p.hexsha for p in c.parents)))
        out.reverse()
        return out

    def read_at(self, sha: str, path: str) -> bytes | None:
        """A file's bytes at a commit, from git objects (no checkout)."""
        tree = self._repo.commit(sha).tree
        try:
            blob = tree / path
        except KeyError:
            return None
        return bytes(blob.data_stream.read())

    def blobs_at(self, sha: str, folder: str) -> dict[str, str]:
        """path -> blob id of every file under `folder` at a commit (one tree read)."""
        tree = self._repo.commit(sha).tree
        try:
            sub = tree / folder
        except KeyError:
            return {}
        return {str(item.path): str(item.hexsha) for item in _blobs(sub)}

    def blob(self, blob_id: str) -> bytes:
        return bytes(self._repo.odb.stream(bytes.fromhex(blob_id)).read())

    def commit_of(self, path: str) -> str | None:
        """The commit that added `path` (first parent line)."""
        out = self._git("log", "--first-parent", "--diff-filter=A", "--format=%H", "--", path)
        lines = out.split()
        return lines[-1] if lines else None

    def parent(self, sha: str) -> str | None:
        parents = self._repo.commit(sha).parents
        return str(parents[0].hexsha) if parents else None

    def tags(self) -> dict[str, str]:
        return {str(t.name): str(t.commit.hexsha) for t in self._repo.tags}

    def all_blobs(self) -> Iterator[tuple[str, bytes]]:
        """Every blob reachable from any commit, once: (path, bytes)."""
        seen: set[str] = set()
        for c in self._repo.iter_commits("--all"):
            for item in _blobs(c.tree):
                if item.hexsha not in seen:
                    seen.add(item.hexsha)
                    yield str(item.path), bytes(item.data_stream.read())

    # -- remotes -------------------------------------------------------------------------
    def added_at(self, path: str) -> int | None:
        """Unix time of the commit that added `path` (first-parent line), or None."""
        out = self._git("log", "--first-parent", "--diff-filter=A", "--format=%ct", "--", path)
        return int(out.split()[-1]) if out.split() else None

    def remotes(self) -> list[str]:
        return self._git("remote").split()

    def tracked(self, path: str) -> list[str]:
        return self._git("ls-files", "--", path).splitlines()

    def publish(self, remote: str, branch: str = "main") -> None:
        """Push the branch and every tag: turn tags are lightweight (and an undo may move
        one), which --follow-tags would leave behind."""
        self._git("push", "--quiet", remote, f"HEAD:refs/heads/{branch}")
        self._git("push", "--quiet", remote, "refs/tags/*:refs/tags/*")  # never forced

    def remote_head(self, remote: str) -> str | None:
        """The branch the remote's HEAD names, if it names one that exists there."""
        for line in self._git("ls-remote", "--symref", remote, "HEAD").splitlines():
            if line.startswith("ref: ") and line.endswith("\tHEAD"):
                return line[5:].split("\t")[0]
        return None

    def point_local_head(self, remote: str, branch: str) -> bool:
        """Make a bare repository on this machine name `branch` as its HEAD (what `git
        init --bare` left as master), so that a plain clone checks it out. False for a
        remote elsewhere, which only its host can change."""
        url = self._git("remote", "get-url", remote).strip()
        path = Path(url.removeprefix("file://"))
        if not (path / "HEAD").is_file() or not (path / "objects").is_dir():
            return False
        try:
            git.Git().execute(["git", f"--git-dir={path}", "symbolic-ref", "HEAD",
                               f"refs/heads/{branch}"])
        except git.GitCommandError:
            return False
        return True

    def commit_if_changed(self, path: str, message: str, author: tuple[str, str]) -> bool:
        if not self._git("status", "--porcelain", "--", path).strip():
            return False
        self.commit([path], message, author)
        return True

    def _git(self, *args: str) -> str:
        try:
            return str(self._repo.git.execute(["git", *args]))
        except git.GitCommandError as exc:
            raise CampaignError(f"git {args[0]} failed: {_msg(exc)}") from None


def _blobs(tree: Any) -> Iterator[Any]:
    """The blobs below a tree (GitPython's traverse() is loosely typed)."""
    for item in tree.traverse():
        if getattr(item, "type", None) == "blob":
            yield item


def _msg(exc: Exception) -> str:
    text = getattr(exc, "stderr", "") or str(exc)
    return " ".join(str(text).split()).removeprefix("stderr: ").strip("' ")
