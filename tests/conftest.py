"""Test isolation and shared fixtures.

Every test runs with HOME in a temporary folder, no system or global git config, and a
test git identity, so nothing touches the real home directory (an autouse fixture).

The layout: tests/engine/ mirrors pbem/ (its top-level modules there, a subpackage's tests in
tests/engine/<subpackage>/), tests/games/<id>/ holds each game's, tests/project/ those of the
project as a whole (the wheel, the documents, whole games end to end, the tiers), and the
helpers every folder shares are here at the top (this file, audit_fast, fixed_rng, tiers, ...).
No folder has an __init__.py: pytest imports each test file under its own name with its
folder on sys.path, so a test file's name is unique in all of tests/. A test imports a
helper of the top by name (`from conftest import play`), a test file of its own folder by
name (`from test_mail import camp`), one of another folder by its path from the repository
(`from tests.engine.mail.test_mail import camp`), as tests/games/chechen_war imports the
dishonest referee of tests/engine/test_audit_tamper.py.
"""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
import tempfile
from collections.abc import Callable, Generator, Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any, NoReturn

import pytest
import tiers  # noqa: E402  (tests/ is on the path: conftest.py is its rootdir conftest)

ROOT = Path(__file__).resolve().parents[1]
SHARED = ROOT.parent / "shared"
GUARD = tiers.Guard()


# ---------------------------------------------------------------------------------------
# the tiers: `slow` by what a test does (tests/tiers.py), checked while the tests run

def pytest_configure(config: pytest.Config) -> None:
    config.addinivalue_line(
        "markers", "slow: starts a process, a server or a whole campaign (set by tests/tiers.py "
                   "from the test's code; the inner loop is -m 'not slow')")
    GUARD.install()


@pytest.hookimpl(tryfirst=True)  # before -m deselects by the marks
def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    for item in items:
        test = getattr(item, "obj", None)
        if test is None or item.get_closest_marker("slow") is not None:
            continue
        info = getattr(item, "_fixtureinfo", None)
        fixtures = [] if info is None else [
            d.func for name in item.fixturenames for d in info.name2fixturedefs.get(name, ())]
        why = tiers.why_slow(test, fixtures)
        if why is not None:
            item.add_marker(pytest.mark.slow(why))


@pytest.hookimpl(hookwrapper=True)
def pytest_runtest_protocol(item: pytest.Item, nextitem: pytest.Item | None) -> Generator[None, None, None]:
    fast = item.get_closest_marker("slow") is None
    yield from GUARD.watching(item.nodeid if fast else None)


@pytest.hookimpl(hookwrapper=True)
def pytest_runtest_makereport(item: pytest.Item, call: pytest.CallInfo[None]) -> Generator[None, Any, None]:
    outcome = yield
    seen = GUARD.take()
    if not seen:
        return
    report = outcome.get_result()
    told = (f"{item.nodeid} is in the fast tier, but it {seen[0]}"
            + (f" (and {len(seen) - 1} more)" if len(seen) > 1 else "") + f". {tiers.HOW}: "
            "add the module or name it reaches there, or mark the test @pytest.mark.slow")
    if report.failed:
        report.sections.append(("fast tier", told))
    else:
        report.outcome = "failed"
        report.longrepr = told


@pytest.fixture
def short_tmp() -> Iterator[Path]:
    """A folder with a short path, for unix sockets (107 bytes at most): a test's own
    tmp_path is longer under pytest-xdist."""
    folder = Path(tempfile.mkdtemp(prefix="pbem-"))
    try:
        yield folder
    finally:
        shutil.rmtree(folder, ignore_errors=True)


@pytest.fixture(scope="session")
def _session_cache(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """One cache folder for the session: it holds only the digests of game data found valid
    (pbem.datacheck), so that not every test's first load checks the data again."""
    return tmp_path_factory.mktemp("cache")


def isolate(mp: pytest.MonkeyPatch, home: Path) -> None:
    """HOME, git's configuration and identity away from the real ones: every test has it
    (the autouse fixture below); a module-scoped fixture, which runs before it, calls it
    with its own `pytest.MonkeyPatch.context()`."""
    mp.setenv("HOME", str(home))
    mp.setenv("XDG_CONFIG_HOME", str(home / ".config"))
    mp.setenv("GIT_CONFIG_NOSYSTEM", "1")
    mp.setenv("GIT_CONFIG_GLOBAL", str(home / ".gitconfig"))
    for key in ("GIT_AUTHOR_NAME", "GIT_COMMITTER_NAME"):
        mp.setenv(key, "pbem test")
    for key in ("GIT_AUTHOR_EMAIL", "GIT_COMMITTER_EMAIL"):
        mp.setenv(key, "test@pbem.invalid")


@pytest.fixture(autouse=True)
def _isolated_home(tmp_path_factory: pytest.TempPathFactory, monkeypatch: pytest.MonkeyPatch,
                   _session_cache: Path) -> None:
    isolate(monkeypatch, tmp_path_factory.mktemp("home"))
    monkeypatch.setenv("XDG_CACHE_HOME", str(_session_cache))
    monkeypatch.setenv("PBEM_LOCK_WAIT", "30")


@pytest.fixture(scope="session")
def fast_base(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The small campaign of the fast audit tests (tests/audit_fast.py), built once."""
    from audit_fast import cached_base

    return cached_base(tmp_path_factory)


@dataclass
class Result:
    code: int
    out: str
    err: str


def run_pbem(*args: str | Path, cwd: Path | None = None, env: dict[str, str] | None = None,
             timeout: float = 120) -> Result:
    """Run the real command line in a new process (`python -m pbem`)."""
    proc = subprocess.run(
        [sys.executable, "-m", "pbem", *map(str, args)],
        cwd=cwd, capture_output=True, text=True, timeout=timeout,
        env={**os.environ, **(env or {})},
    )
    return Result(proc.returncode, proc.stdout, proc.stderr)


@pytest.fixture
def pbem(capsys: pytest.CaptureFixture[str]) -> Callable[..., Result]:
    """Run the command line in this process (fast); returns exit code and output."""
    from pbem.cli import main

    def call(*args: str | Path) -> Result:
        capsys.readouterr()
        try:
            main([str(a) for a in args])
            code = 0
        except SystemExit as exc:
            code = exc.code if isinstance(exc.code, int) else 1
        captured = capsys.readouterr()
        return Result(code, captured.out, captured.err)

    return call


def git(cwd: Path, *args: str) -> str:
    return subprocess.run(["git", *args], cwd=cwd, capture_output=True, text=True,
                          check=True).stdout.strip()


def tree_state(root: Path) -> tuple[str, str]:
    """HEAD and the porcelain status: what 'the campaign is unchanged' compares."""
    return git(root, "rev-parse", "HEAD"), git(root, "status", "--porcelain")


@pytest.fixture
def new_campaign(tmp_path: Path) -> Callable[..., Path]:
    """A seeded Red Russia campaign in a temporary folder."""
    from pbem import api

    def make(name: str = "camp", seed: str = "test-seed", **kwargs: Any) -> Path:
        # most tests start from the game's set-up, as a hot-seat game: the contribution
        # round and signed orders are the business of their own tests (test_contributions)
        kwargs.setdefault("contributions", False)
        kwargs.setdefault("hot_seat", True)
        root = tmp_path / name
        api.new_campaign(root, "red_russia", seed=seed, name=name, **kwargs)
        return root

    return make


def play(root: Path, *, until_turn: int = 1, phase: str | None = None, seed: str = "bot",
         max_steps: int = 500, until: Callable[[dict[str, Any]], bool] | None = None,
         sign: dict[str, Path] | None = None, salts: bool = True,
         unsigned: tuple[str, ...] = ()) -> dict[str, Any]:
    """Apply bot orders until the given turn (and phase) is reached, or `until(status)`
    holds; returns the status. The factions in `sign` have their files signed with that
    key (`pbem sign`), but in the phases named in `unsigned`; with `salts` the files carry
    the bot's salts, without them `pbem sign` adds the player's own."""
    from pbem import api, yamlio

    drafts = root.parent / f"{root.name}-orders"
    for step in range(max_steps):
        s = api.status(root)
        reached = (until(s) if until is not None
                   else s["turn"] >= until_turn and (phase is None or s["phase"] == phase))
        if s["over"] or reached:
            return s
        files = []
        for faction in s["awaiting"]:
            path = drafts / f"{step:04d}-{faction}.yaml"
            yamlio.write_atomic(path, yamlio.dump(api.bot(root, faction, seed=seed, salts=salts)))
            if faction in (sign or {}) and s["phase"] not in unsigned:
                api.sign(path, (sign or {})[faction], root)
            files.append(path)
        if files:
            api.apply(root, files)
        else:
            api.resolve(root)
    raise AssertionError("play() did not reach the wanted point")


def missing(reason: str, *, module: bool = False) -> NoReturn:
    """Skip a test whose outside part (a tool, ../shared) is absent, or fail it when CI
    demands every part (PBEM_REQUIRE_TOOLS=1), so that nothing is skipped there silently."""
    if os.environ.get("PBEM_REQUIRE_TOOLS") == "1":
        pytest.fail(f"{reason} (PBEM_REQUIRE_TOOLS=1 requires it)")
    pytest.skip(f"{reason} (set PBEM_REQUIRE_TOOLS=1 to make this fail)", allow_module_level=module)


def need_tool(name: str) -> str:
    """The path of a command-line tool the test needs (see `missing`)."""
    import shutil

    path = shutil.which(name)
    if path is None:
        missing(f"{name} is not on PATH")
    return path


def need_shared(path: Path, *, module: bool = False) -> Path:
    """A file or folder of ../shared (rulebooks, test vectors) the test reads (see `missing`)."""
    if not path.exists():
        missing(f"{path} is not here; it lives in ../shared beside the project", module=module)
    return path


@pytest.fixture
def south_by_bob(tmp_path: Path, pbem: Callable[..., Result]) -> Path:
    """A seeded campaign where South is Bob, with his own registered key
    (tmp_path/bob_ed25519, bob.card); the others are hot-seat."""
    assert pbem("keygen", "--out", tmp_path / "bob").code == 0
    root = tmp_path / "camp"
    r = pbem("new", root, "--game", "red_russia", "--no-contributions", "--hot-seat", "--seed", "bob", "--name", "camp",
             "--player", "south=Bob <bob@example.org>", "--key", f"south={tmp_path / 'bob.card'}")
    assert r.code == 0, r.err
    return root


@pytest.fixture
def require_tool() -> Callable[[str], str]:
    """Skip when a command-line tool is missing, or fail when CI demands it."""
    return need_tool


@pytest.fixture
def chdir_tmp(tmp_path: Path) -> Iterator[Path]:
    old = Path.cwd()
    os.chdir(tmp_path)
    try:
        yield tmp_path
    finally:
        os.chdir(old)


def key_of(keys: Path, faction: str, suffix: str = "_ed25519") -> Path:
    """The key --keys-dir made for the player of `faction`: named by that player's factions
    joined with '+' (south+north_ed25519), by the faction alone for a player of one."""
    (found,) = [p for p in keys.glob(f"*{suffix}") if faction in p.name.removesuffix(suffix).split("+")]
    return found
