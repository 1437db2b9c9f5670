"""Git: the only module that runs it or imports GitPython.

A command that only writes steps or checks the work tree (status, apply, resolve) runs
git's own commands, each one process, and never imports GitPython (~50 ms of start-up and
two `git version` probes of its own). Reading objects (audit, reports, undo) opens one
`git.Repo` for the Store's life: GitPython's `GitCmdObjectDB` keeps one `git cat-file
--batch` process for every blob and tree it reads.

Neither git's nor GitPython's errors escape: they become CampaignError with the message.
"""

from __future__ import annotations

import os
import re
import subprocess
from collections.abc import Iterator
from pathlib import Path
from typing import TYPE_CHECKING, Any

from pbem.errors import CampaignError

if TYPE_CHECKING:
    import git

_SHA = re.compile(r"[0-9a-f]{40}")


class Store:
    """A campaign's git repository."""

    def __init__(self, root: Path, git_dir: Path) -> None:
        self.root = root
        self._git_dir = git_dir
        self._opened: git.Repo | None = None

    # -- opening -------------------------------------------------------------------------
    @classmethod
    def init(cls, root: Path) -> Store:
        root.mkdir(parents=True, exist_ok=True)
        store = cls(root, root / ".git")
        try:
            store._git("init", "--quiet", "--initial-branch=main")
        except CampaignError as exc:
            raise CampaignError(f"{root}: {exc.message}") from None
        return store

    @classmethod
    def open(cls, root: Path) -> Store:
        """The repository whose top level is `root` (a campaign folder is one)."""
        dot_git = root / ".git"
        if dot_git.is_dir() and (dot_git / "HEAD").is_file():
            return cls(root, dot_git)
        if dot_git.is_file():  # a linked worktree or a submodule: .git names the repository
            try:
                out = subprocess.run(["git", "rev-parse", "--absolute-git-dir"], cwd=root,
                                     capture_output=True, text=True, check=True).stdout
                return cls(root, Path(out.strip()))
            except (OSError, subprocess.CalledProcessError):
                pass
        # never a repository further up: a campaign folder copied without its .git into
        # another repository must not have that one's files put right
        raise CampaignError(f"{root}: not a git repository (is this a campaign folder?)")

    @property
    def _repo(self) -> git.Repo:
        """GitPython's view of the repository, opened at the first object read."""
        if self._opened is None:
            import git

            try:
                self._opened = git.Repo(self.root)
            except (git.InvalidGitRepositoryError, git.NoSuchPathError):
                raise CampaignError(f"{self.root}: not a git repository (is this a campaign "
                                    "folder?)") from None
        return self._opened

    # -- writing -------------------------------------------------------------------------
    def recover(self, managed: list[str]) -> list[str]:
        """Bring the work tree back to HEAD after a crash; return what was done.

        Called while pbem holds the campaign lock, so a git lock file left behind can only
        be stale (a git process killed mid-commit). Only the paths pbem manages are reset,
        and untracked files pbem may have half-written there are removed.
        """
        done: list[str] = []
        for lock in ("index.lock", "HEAD.lock", "refs/heads/main.lock"):
            if (self._git_dir / lock).exists():
                (self._git_dir / lock).unlink()
                done.append(f"removed stale .git/{lock}")
        if not self.head():
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

    def commit(self, paths: list[str], message: str, author: tuple[str, str],
               committer: tuple[str, str] | None = None) -> str:
        """Commit `paths`; the committer is the author unless given (a copy of the campaign
        a judge serves with others commits as itself: pbem.campaign.COPY)."""
        committer = committer or author
        env = {
            "GIT_AUTHOR_NAME": author[0],
            "GIT_AUTHOR_EMAIL": author[1],
            "GIT_COMMITTER_NAME": committer[0],
            "GIT_COMMITTER_EMAIL": committer[1],
        }
        self._git("add", "--", *paths)
        self._git("commit", "--quiet", "--no-verify", "--no-gpg-sign", "-m", message, env=env)
        return self.head()

    def tag(self, name: str) -> None:
        """A lightweight tag (turn-NNNN); --force because an undo may move it."""
        self._git("tag", "--force", name)

    # -- reading -------------------------------------------------------------------------
    @property
    def git_dir(self) -> str:
        return str(self._git_dir)

    def head(self) -> str:
        """The commit HEAD names, "" before the first commit: read from the ref file HEAD
        names, as GitPython reads it, without starting git; git answers for any other
        layout (packed refs, a linked worktree, a detached HEAD, no commit yet)."""
        try:
            text = (self._git_dir / "HEAD").read_text(encoding="utf-8")
            if text.startswith("ref: "):
                sha = (self._git_dir / text.removeprefix("ref: ").strip()).read_text(encoding="utf-8").strip()
                if _SHA.fullmatch(sha):
                    return sha
        except OSError:
            pass
        try:
            return self._git("rev-parse", "--verify", "--quiet", "HEAD^{commit}")
        except CampaignError:
            return ""

    def is_clean(self) -> bool:
        return not self._git("status", "--porcelain").strip()

    def changes(self) -> list[tuple[str, dict[str, str | None]]]:
        """The first-parent history, root first, each commit with the files it changed
        against its first parent (the root commit: every file it holds): path -> the new
        blob id, None where the file was removed. One `git log`, whatever the history's
        length; folding the changes gives every commit's tree without reading one."""
        out = self._git("log", "--first-parent", "--reverse", "--root", "--raw", "--no-abbrev",
                        "--no-renames", "-z", "--format=%x01%H")
        history: list[tuple[str, dict[str, str | None]]] = []
        for chunk in out.split("\x01")[1:]:
            sha, _, rest = chunk.partition("\0")
            fields = rest.lstrip("\n").split("\0")
            changed: dict[str, str | None] = {}
            # ":MODE MODE OLD NEW STATUS", then the path (-z: each ends with NUL, so the last
            # field is empty and zip leaves it out)
            for meta, path in zip(fields[0::2], fields[1::2], strict=False):
                parts = meta.split()
                changed[path] = None if parts[4].startswith("D") else parts[3]
            history.append((sha, changed))
        return history

    def read_at(self, sha: str, path: str) -> bytes | None:
        """A file's bytes at a commit, from git objects (no checkout)."""
        tree = self._repo.commit(sha).tree
        try:
            blob = tree / path
        except KeyError:
            return None
        return bytes(blob.data_stream.read())

    def blob(self, blob_id: str) -> bytes:
        return bytes(self._repo.odb.stream(bytes.fromhex(blob_id)).read())

    def commit_of(self, path: str) -> str | None:
        """The commit that added `path` (first parent line)."""
        out = self._git("log", "--first-parent", "--diff-filter=A", "--format=%H", "--", path)
        lines = out.split()
        return lines[-1] if lines else None

    def committer(self, sha: str) -> str:
        """The name of a commit's committer."""
        return self._git("show", "-s", "--format=%cn", sha)

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

    def remote_url(self, remote: str) -> str | None:
        """Where a remote points (`git remote get-url`), or None when there is no such remote."""
        if remote not in self.remotes():
            return None
        return self._git("remote", "get-url", remote).strip() or None

    def tracked(self, path: str) -> list[str]:
        return self._git("ls-files", "--", path).splitlines()

    def publish(self, remote: str, branch: str = "main") -> None:
        """Push the branch and every tag: turn tags are lightweight (and an undo may move
        one), which --follow-tags would leave behind."""
        self._git("push", "--quiet", remote, f"HEAD:refs/heads/{branch}")
        self._git("push", "--quiet", remote, "refs/tags/*:refs/tags/*")  # never forced

    def fetch(self, remote: str, branch: str = "main") -> str | None:
        """The remote's branch as it is now (fetched into refs/remotes/REMOTE/BRANCH), or
        None when the remote has no such branch yet. Tags are not fetched: a turn tag of
        the remote lands with the history that holds it (`take_tags`)."""
        track = f"refs/remotes/{remote}/{branch}"
        if not self._git("ls-remote", "--heads", remote, branch).strip():
            return None
        self._git("fetch", "--quiet", "--no-tags", remote, f"+refs/heads/{branch}:{track}")
        return self._git("rev-parse", "--verify", track).strip()

    def contains(self, ancestor: str, descendant: str) -> bool:
        """Whether commit `ancestor` is in the history of `descendant`."""
        proc = subprocess.run(["git", "merge-base", "--is-ancestor", ancestor, descendant],
                              cwd=self.root, capture_output=True, check=False)
        if proc.returncode not in (0, 1):
            raise CampaignError(f"git merge-base failed: {_msg(proc.stderr.decode('utf-8', 'replace'))}")
        return proc.returncode == 0

    def merge_base(self, a: str, b: str) -> str:
        return self._git("merge-base", a, b).strip()

    def reset_to(self, sha: str) -> None:
        """The branch, the index and the work tree moved to commit `sha` (the ignored
        .pbem/ untouched); turn tags no longer in the history are deleted."""
        self._git("reset", "--quiet", "--hard", sha)
        for name, tagged in self.tags().items():
            if not self.contains(tagged, sha):
                self._git("tag", "-d", name)

    def take_tags(self, remote: str) -> None:
        """The remote's turn tags, where they name commits of this history."""
        self._git("fetch", "--quiet", "--no-tags", remote, "+refs/tags/*:refs/tags/*")

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
            self._git(f"--git-dir={path}", "symbolic-ref", "HEAD", f"refs/heads/{branch}")
        except CampaignError:
            return False
        return True

    def commit_if_changed(self, path: str, message: str, author: tuple[str, str]) -> bool:
        if not self._git("status", "--porcelain", "--", path).strip():
            return False
        self.commit([path], message, author)
        return True

    def _git(self, *args: str, env: dict[str, str] | None = None) -> str:
        """Run one git command in the campaign folder; its output without the last newline
        (as GitPython gave it)."""
        try:
            proc = subprocess.run(["git", *args], cwd=self.root, capture_output=True,
                                  env={**os.environ, **env} if env else None, check=False)
        except OSError as exc:
            raise CampaignError(f"git {args[0]} failed: {exc.strerror}: is git installed?") from None
        if proc.returncode != 0:
            text = (proc.stderr or proc.stdout).decode("utf-8", "replace")
            raise CampaignError(f"git {args[0]} failed: {_msg(text)}")
        return proc.stdout.decode("utf-8", "replace").removesuffix("\n")


def _blobs(tree: Any) -> Iterator[Any]:
    """The blobs below a tree (GitPython's traverse() is loosely typed)."""
    for item in tree.traverse():
        if getattr(item, "type", None) == "blob":
            yield item


def _msg(text: str) -> str:
    return " ".join(text.split()).strip("' ")
