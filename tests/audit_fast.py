"""One small campaign for fast audit tests, built once and kept on disk between runs.

Mutation testing (benchmarks/mutation.py) runs the selected tests anew for every mutant,
so a module- or session-scoped fixture that plays a campaign would be played again for
each of ~1,750 mutants. The campaign is therefore built once per version of the code that
builds it: the folder is named by a hash of every file of pbem/, of the game it plays
(games/red_russia/), of this file and of conftest.py (whose `play` it uses), so a change to
the referee or to Red Russia builds a new one and a change to another game does not; it is
written only when no mutant is active (a campaign built by a mutant is used for that run
only). The build holds a file lock, so that the workers of a parallel run (pytest-xdist)
build it once between them. Each test gets a copy (`fresh`), so nothing a test does reaches
the cached folder.

The campaign is the one of test_audit_tamper.py (seed "tamper", every faction's key from
--keys-dir, every file signed but Red's for setup-reduce-red), played by the bot to turn
2's action phase; its steps are listed there.
"""

from __future__ import annotations

import hashlib
import os
import shutil
import tempfile
from pathlib import Path

import pytest

ENV = {"GIT_CONFIG_NOSYSTEM": "1", "GIT_AUTHOR_NAME": "pbem test", "GIT_COMMITTER_NAME": "pbem test",
       "GIT_AUTHOR_EMAIL": "test@pbem.invalid", "GIT_COMMITTER_EMAIL": "test@pbem.invalid"}
UNSIGNED_PHASE = "setup-reduce-red"
# what the audit says once when signed orders name heads the log no longer has: every
# rewrite of an entry (the cheats of the tamper tests) changes the hashes of the entries
# after it, so it follows each of them; `own` leaves it out where a test looks at the rest
HEADS = "names a log head its phase never had"


def own(problems: list[str]) -> list[str]:
    """The problems a tamper caused itself, without the one that follows any rewrite."""
    return [p for p in problems if HEADS not in p]


GAME = "red_russia"


def code_key() -> str:
    """A hash of the code and data a campaign is built with."""
    import pbem
    from pbem.game import games_dir

    digest = hashlib.sha256(Path(__file__).read_bytes())
    digest.update(Path(__file__).with_name("conftest.py").read_bytes())
    for base in (Path(pbem.__file__).resolve().parent, (games_dir() / GAME).resolve()):
        for path in sorted(base.rglob("*")):
            if path.is_file() and "__pycache__" not in path.parts and path.suffix != ".pyc":
                digest.update(path.relative_to(base).as_posix().encode() + b"\0")
                digest.update(path.read_bytes() + b"\0")
    return digest.hexdigest()[:24]


def _mutant_active() -> bool:
    return os.environ.get("MUTANT_UNDER_TEST", "") not in ("", "stats", "list_all_tests")


def build(folder: Path) -> None:
    from conftest import play

    from pbem import api

    root, keys = folder / "camp", folder / "keys"
    api.new_campaign(root, GAME, seed="tamper", name="camp", keys_dir=keys,
                     contributions=False, hot_seat=True)
    play(root, until_turn=2, phase="action", max_steps=300, unsigned=(UNSIGNED_PHASE,),
         sign={f: keys / f"{f}_ed25519" for f in ("red", "siberian", "south", "north")})


def cached_base(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The folder holding `camp` (the campaign), `keys` and `drafts`; never change it."""
    from filelock import FileLock

    cache = Path(tempfile.gettempdir()) / f"pbem-audit-fast-{code_key()}"
    if (cache / "done").is_file():
        return cache
    with FileLock(f"{cache}.lock"):  # another worker may be building it: wait for it
        return _build_once(cache, tmp_path_factory)


def _build_once(cache: Path, tmp_path_factory: pytest.TempPathFactory) -> Path:
    if (cache / "done").is_file():
        return cache
    folder = tmp_path_factory.mktemp("audit-fast-build")
    with pytest.MonkeyPatch.context() as mp:
        mp.setenv("HOME", str(folder))
        mp.setenv("GIT_CONFIG_GLOBAL", str(folder / ".gitconfig"))
        for key, value in ENV.items():
            mp.setenv(key, value)
        build(folder / "base")
    (folder / "base" / "done").write_text("built\n")
    if _mutant_active():
        return folder / "base"
    partial = Path(tempfile.mkdtemp(prefix=cache.name + ".", dir=cache.parent))
    shutil.copytree(folder / "base", partial / "base", symlinks=True)
    try:
        os.rename(partial / "base", cache)  # atomic: another run may have won the race
    except OSError:
        pass
    shutil.rmtree(partial, ignore_errors=True)
    return cache if (cache / "done").is_file() else folder / "base"


def copy_of(base: Path, dest: Path) -> Path:
    """A copy of the cached folder; returns its campaign (a history seen for the first time:
    no .git/pbem-verified.json)."""
    shutil.copytree(base, dest, symlinks=True)
    (dest / "done").unlink()
    (dest / "camp" / ".git" / "pbem-verified.json").unlink(missing_ok=True)
    return dest / "camp"
