"""Mutation testing of one module with mutmut 3, within a small machine's limits.

Run: python benchmarks/mutation.py pbem/dice.py [--tests T ...] [--jobs 2] [--time-limit S]

The repository is copied to a scratch folder (the working tree as it is, uncommitted
files included, never touching it), `[tool.mutmut]` of the copy's pyproject.toml is
narrowed to the one module and its tests, mutmut runs there, and the score is printed:
mutants total, killed, survived, timeout, the percentage killed, and every survivor with
its diff (`mutmut show`). The scratch folder is kept, so `mutmut browse` or
`mutmut show NAME` can be run in it afterwards (or pass --clean).

Goals: at least 90% killed for pbem/dice.py and pbem/crypto/: sshsig.py, keys.py, sealed.py.

This file is also a pytest plugin (`-p benchmarks.mutation`, set in `[tool.mutmut]`):
game rules are loaded by file path under the module name `pbem_game_<id>.<sub>`
(pbem/game.py), while mutmut names a mutant, and activates it, by the module name it
derives from the file's path (`games.<id>.rules.<sub>`). Without the plugin no mutant of
games/*/rules/*.py would ever run: every one would "survive". The plugin executes those
files under their path-derived name (registered in sys.modules under both names), so the
functions' `__module__` is what mutmut expects.
"""

from __future__ import annotations

import argparse
import fnmatch
import importlib.abc
import importlib.machinery
import importlib.util
import json
import os
import re
import shutil
import signal
import subprocess
import sys
import tempfile
import time
import tomllib
from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path
from types import ModuleType
from typing import Any

ROOT = Path(__file__).resolve().parents[1]

# The tests that exercise each module, beyond those the test layout gives it (tests_for).
# Fast unit tests only: a test that builds a campaign costs ~1.5 s and every surviving
# mutant runs all the tests that reach it (pbem/dice.py with tests/engine/test_fair_dice.py too
# takes over 30 minutes on 2 cores); add such files with --tests when there is time.
COMBAT_TESTS = [f"tests/games/red_russia/test_rr_{name}.py" for name in (
    "combat", "battle", "siege", "attack_orders", "forces", "thresholds", "clauses", "sea_retreat",
    "naval", "minors", "play", "cards", "waiting_boxes", "victory_points", "trotsky")]
TESTS: dict[str, list[str]] = {
    "pbem/dice.py": ["tests/engine/test_dice.py"],
    "pbem/crypto/sshsig.py": ["tests/engine/crypto/test_sshsig.py", "tests/engine/crypto/test_crypto.py"],
    # keys.py was pbem/crypto.py: its tests keep that name
    "pbem/crypto/keys.py": ["tests/engine/crypto/test_crypto.py"],
    # tests/engine/crypto/test_secrets.py plays campaigns (a minute for each surviving mutant)
    "pbem/crypto/sealed.py": ["tests/engine/crypto/test_sealed.py"],
    "pbem/orders.py": ["tests/engine/test_orders_fast.py", "tests/engine/test_multi_faction_orders.py",
                       "tests/engine/crypto/test_sshsig.py", "tests/engine/crypto/test_secrets.py"],
    "pbem/audit.py": ["tests/engine/test_audit_tamper.py", "tests/engine/test_audit_fast.py",
                      "tests/engine/test_fair_dice.py"],
    "pbem/lock.py": ["tests/engine/test_lock.py"],
    "pbem/log.py": ["tests/engine/test_log.py"],
    # combat.py (the attacks), battle.py (a battle's rounds), forces.py (what a battle asks
    # of the board), siege.py (9.x, partisan hunts) and naval.py (8.92, retreats by sea):
    # one set of tests, with the minors' battles (12.x) and battle cards
    **{f"games/red_russia/rules/{stem}.py": COMBAT_TESTS
       for stem in ("combat", "battle", "forces", "siege", "naval")},
    # movement.py also lands the units at sea after a retreat by sea (8.4) and from the
    # waiting boxes (7.8), and moves minors' and allied units (12.x, 13.6x)
    "games/red_russia/rules/movement.py": ["tests/games/red_russia/test_rr_movement.py",
                                           "tests/games/red_russia/test_rr_thresholds.py",
                                           "tests/games/red_russia/test_rr_clauses.py",
                                           "tests/games/red_russia/test_rr_naval.py",
                                           "tests/games/red_russia/test_rr_sea_retreat.py",
                                           "tests/games/red_russia/test_rr_minors.py",
                                           "tests/games/red_russia/test_rr_waiting_boxes.py",
                                           # what a move does to pieces alone (8.93, 10.5)
                                           "tests/games/red_russia/test_rr_combat.py"],
}

# Not copied to the scratch folder (caches, build output, another run's mutants).
IGNORED = (".git", "mutants", "__pycache__", ".pytest_cache", ".mypy_cache", ".ruff_cache",
           ".hypothesis", "build", "dist", ".venv", "*.egg-info")

COUNTED = ("killed", "survived", "timeout", "no tests", "not checked", "suspicious",
           "segfault", "skipped", "caught by type check", "check was interrupted by user")


# ------------------------------------------------------------------ the pytest plugin


class _PathNamedLoader(importlib.machinery.SourceFileLoader):
    """Executes a rules file under the name mutmut derives from its path."""

    def __init__(self, fullname: str, path: str, path_name: str) -> None:
        super().__init__(fullname, path)
        self.path_name = path_name

    def exec_module(self, module: ModuleType) -> None:
        code = self.get_code(self.name)
        assert code is not None
        # dataclasses and typing look classes' modules up in sys.modules by __module__.
        sys.modules[self.path_name] = module
        module.__name__ = self.path_name
        try:
            exec(code, module.__dict__)
        finally:
            module.__name__ = self.name


class _GameRulesFinder(importlib.abc.MetaPathFinder):
    """Finds `pbem_game_<id>.<sub>` (the submodules of a game's rules package)."""

    def find_spec(self, fullname: str, path: Sequence[str] | None,
                  target: ModuleType | None = None) -> importlib.machinery.ModuleSpec | None:
        head, dot, sub = fullname.partition(".")
        if not head.startswith("pbem_game_") or not dot or "." in sub:
            return None
        from pbem.game import games_dir

        games = games_dir()
        file = games / head.removeprefix("pbem_game_") / "rules" / f"{sub}.py"
        if not file.is_file():
            return None
        rel = file.relative_to(games.parent).with_suffix("")
        loader = _PathNamedLoader(fullname, str(file), ".".join(rel.parts))
        return importlib.util.spec_from_file_location(fullname, file, loader=loader)


def pytest_configure(config: Any) -> None:
    if not any(isinstance(f, _GameRulesFinder) for f in sys.meta_path):
        sys.meta_path.insert(0, _GameRulesFinder())


# ---------------------------------------------------------------------------- the run


@dataclass
class Score:
    statuses: dict[str, str] = field(default_factory=dict)  # mutant name -> status

    def count(self) -> Counter[str]:
        return Counter(self.statuses.values())

    def survivors(self) -> list[str]:
        return sorted(n for n, s in self.statuses.items() if s == "survived")


def tests_for(module: str, override: list[str] | None) -> list[str]:
    if override:
        return override
    tests = list(TESTS.get(module, []))
    # the layout of tests/ mirrors the code: pbem/<sub>/<stem>.py is tested by
    # tests/engine/<sub>/test_<stem>*.py (or test_<sub>_<stem>*.py: test_kit_events.py),
    # games/<id>/rules/<stem>.py by tests/games/<id>/test_<prefix>_<stem>.py (test_rr_siege.py)
    path = Path(module)
    own: list[Path] = []
    if path.parts[0] == "pbem":
        folder = ROOT / "tests" / "engine" / Path(*path.parts[1:-1])
        names = [f"test_{path.stem}"] + [f"test_{path.parts[-2]}_{path.stem}"] * (len(path.parts) > 2)
        own = [p for p in folder.glob("test_*.py")
               if any(p.stem == n or p.stem.startswith(n + "_") for n in names)]
    elif path.parts[0] == "games" and len(path.parts) == 4 and path.parts[2] == "rules":
        own = [p for p in (ROOT / "tests" / "games" / path.parts[1]).glob("test_*.py")
               if re.fullmatch(rf"test_[a-z0-9]+_{re.escape(path.stem)}", p.stem)]
    for extra in sorted(p.relative_to(ROOT).as_posix() for p in own):
        if extra not in tests:
            tests.append(extra)
    missing = [t for t in tests if not (ROOT / t).exists()]
    if missing:
        raise SystemExit(f"no such test file: {', '.join(missing)} (benchmarks/mutation.py TESTS)")
    if not tests:
        raise SystemExit(f"no tests known for {module}; name them with --tests")
    return tests


def copy_tree(dest: Path) -> None:
    """The working tree as it is now (tracked and untracked files, not ignored ones)."""
    files: list[str] | None = None
    if (ROOT / ".git").exists() and shutil.which("git"):
        proc = subprocess.run(
            ["git", "ls-files", "-z", "--cached", "--others", "--exclude-standard"],
            cwd=ROOT, capture_output=True, check=False)
        if proc.returncode == 0:
            files = [f for f in proc.stdout.decode().split("\0") if f]
    if files is None:
        shutil.copytree(ROOT, dest, ignore=shutil.ignore_patterns(*IGNORED), dirs_exist_ok=True)
        return
    for name in files:
        src = ROOT / name
        if not src.is_file() or any(fnmatch.fnmatch(p, pat) for p in Path(name).parts
                                    for pat in IGNORED):
            continue  # deleted in the working tree, or a cache
        target = dest / name
        target.parent.mkdir(parents=True, exist_ok=True)
        shutil.copy2(src, target)


def toml_value(value: object) -> str:
    # JSON strings, numbers, booleans and lists of them are valid TOML.
    return json.dumps(value)


def narrow_config(work: Path, module: str, tests: list[str], extra_pytest: list[str]) -> None:
    """Rewrite [tool.mutmut] of the copy: this module only, these tests only."""
    pyproject = work / "pyproject.toml"
    text = pyproject.read_text(encoding="utf-8")
    conf: dict[str, Any] = dict(tomllib.loads(text).get("tool", {}).get("mutmut", {}))
    configured = conf.get("only_mutate", [])
    if configured and not any(fnmatch.fnmatch(module, p) for p in configured):
        print(f"note: {module} is not in [tool.mutmut] only_mutate of pyproject.toml")
    conf["only_mutate"] = [module]
    conf["pytest_add_cli_args_test_selection"] = tests
    conf["pytest_add_cli_args"] = [*conf.get("pytest_add_cli_args", []), *extra_pytest]
    # drop the old table: from its header to the next table header
    kept, skipping = [], False
    for line in text.splitlines():
        if line.strip().startswith("["):
            skipping = line.strip() == "[tool.mutmut]"
        if not skipping:
            kept.append(line)
    table = "\n".join(f"{k} = {toml_value(v)}" for k, v in conf.items())
    pyproject.write_text("\n".join(kept) + "\n\n[tool.mutmut]\n" + table + "\n", encoding="utf-8")


def prepare(work: Path, module: str, tests: list[str], extra_pytest: list[str]) -> None:
    copy_tree(work)
    missing = [p for p in [module, *tests] if not (work / p.partition("::")[0]).exists()]
    if missing:
        raise SystemExit(f"not found in {ROOT}: {', '.join(missing)}")
    # The tests find ../shared/testdata (the age vectors) beside the repository; under
    # mutants/ that is the scratch folder itself.
    shared = ROOT.parent / "shared"
    if shared.is_dir() and not (work / "shared").exists():
        (work / "shared").symlink_to(shared, target_is_directory=True)
    narrow_config(work, module, tests, extra_pytest)


_STATUS_LINE = re.compile(r"^\S*\s*\d+/\d+\s")


def run_mutmut(work: Path, jobs: int, time_limit: float | None, every: float,
               names: list[str], log: Path) -> int:
    """Run `mutmut run`, echoing a progress line every `every` seconds; stop it gently
    (Ctrl-C, as mutmut expects: finished results are kept) when the time limit is up."""
    env = {**os.environ, "PYTHONDONTWRITEBYTECODE": "1", "PYTHONUNBUFFERED": "1"}
    cmd = [sys.executable, "-m", "mutmut", "run", "--max-children", str(jobs), *names]
    start = time.monotonic()
    stopped = False
    deadline = last_echo = 0.0
    status = ""
    with log.open("wb") as out:
        proc = subprocess.Popen(cmd, cwd=work, env=env, stdout=subprocess.PIPE,
                                stderr=subprocess.STDOUT, start_new_session=True)
        assert proc.stdout is not None
        os.set_blocking(proc.stdout.fileno(), False)
        pending = b""
        while True:
            chunk = proc.stdout.read()
            if chunk:
                out.write(chunk)
                pending += chunk
                *parts, pending = re.split(rb"[\r\n]", pending)
                for raw in parts:
                    line = raw.decode("utf-8", "replace").strip()
                    if not line:
                        continue
                    if _STATUS_LINE.match(line) or line.startswith(("⠋", "⠙", "⠹", "⠸", "⠼",
                                                                   "⠴", "⠦", "⠧", "⠇", "⠏")):
                        status = line
                    elif not line.startswith(("also copying", "pbem/", "games/")):
                        print(f"[{time.monotonic() - start:6.0f}s] {line}", flush=True)
            elif proc.poll() is not None:
                break
            else:
                time.sleep(0.2)
            now = time.monotonic()
            if status and now - last_echo >= every:
                print(f"[{now - start:6.0f}s] {status}", flush=True)
                last_echo = now
            if time_limit is not None and not stopped and now - start > time_limit:
                print(f"[{now - start:6.0f}s] time limit reached: stopping mutmut", flush=True)
                os.killpg(proc.pid, signal.SIGINT)
                stopped = True
                deadline = now + 60
            if stopped and now > deadline and proc.poll() is None:
                os.killpg(proc.pid, signal.SIGKILL)
        if status:
            print(f"[{time.monotonic() - start:6.0f}s] {status}", flush=True)
    return proc.wait()


def mutmut_output(work: Path, *args: str) -> str:
    proc = subprocess.run([sys.executable, "-m", "mutmut", *args], cwd=work,
                          capture_output=True, text=True, check=False)
    return proc.stdout + (proc.stderr if proc.returncode else "")


def read_score(work: Path) -> Score:
    score = Score()
    for line in mutmut_output(work, "results", "--all", "true").splitlines():
        name, sep, status = line.strip().rpartition(": ")
        if sep and "__mutmut_" in name:
            score.statuses[name] = status
    return score


def report(score: Score, work: Path, module: str, show_diffs: bool) -> None:
    counts = score.count()
    total = len(score.statuses)
    killed = counts["killed"]
    print()
    print(f"mutation score of {module}")
    print(f"  total     {total}")
    for status in COUNTED:
        if counts[status] or status in ("killed", "survived", "timeout"):
            print(f"  {status:<9} {counts[status]}")
    for status in sorted(set(counts) - set(COUNTED)):
        print(f"  {status:<9} {counts[status]}")
    pct = 100 * killed / total if total else 0.0
    caught = 100 * (killed + counts["timeout"]) / total if total else 0.0
    print(f"  killed    {pct:.1f}%  (killed or timed out: {caught:.1f}%)")
    survivors = score.survivors()
    if survivors:
        print(f"\nsurviving mutants ({len(survivors)}):")
        for name in survivors:
            if show_diffs:
                print()
                print(mutmut_output(work, "show", name).rstrip())
            else:
                print(f"  {name}")
    unchecked = sorted(n for n, s in score.statuses.items() if s not in ("killed", "survived"))
    if unchecked:
        print(f"\nnot killed for another reason ({len(unchecked)}):")
        for name in unchecked:
            print(f"  {name}: {score.statuses[name]}")


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("module", help="path of the module to mutate, e.g. pbem/dice.py")
    parser.add_argument("--tests", nargs="+", metavar="PATH",
                        help="test files or node ids to run (default: the script's mapping)")
    parser.add_argument("--jobs", type=int, default=min(2, os.cpu_count() or 1),
                        help="mutants tested at once (default: 2, or fewer cores)")
    parser.add_argument("--time-limit", type=float, metavar="SECONDS",
                        help="stop mutmut after this long and report what was checked")
    parser.add_argument("--progress", type=float, default=15.0, metavar="SECONDS",
                        help="seconds between progress lines (default: 15)")
    parser.add_argument("--mutants", nargs="+", metavar="GLOB", default=[],
                        help="only these mutants (names or globs, as `mutmut run` takes)")
    parser.add_argument("--workdir", type=Path,
                        help="scratch folder (default: a new one under the temp folder)")
    parser.add_argument("--no-diffs", action="store_true", help="list survivors without diffs")
    parser.add_argument("--clean", action="store_true", help="remove the scratch folder at the end")
    parser.add_argument("--pytest-arg", action="append", default=[], metavar="ARG",
                        help="an extra pytest argument (repeatable)")
    args = parser.parse_args(argv)

    module = Path(args.module).as_posix().removeprefix("./")
    if Path(args.module).is_absolute():
        module = Path(args.module).resolve().relative_to(ROOT).as_posix()
    tests = tests_for(module, args.tests)
    if args.workdir:
        work = args.workdir.resolve()
        if work.exists() and any(work.iterdir()):
            raise SystemExit(f"{work} is not empty; give a new folder")
        work.mkdir(parents=True, exist_ok=True)
    else:
        work = Path(tempfile.mkdtemp(prefix=f"pbem-mutation-{Path(module).stem}-"))
    print(f"mutating {module}; tests: {' '.join(tests)}")
    print(f"scratch folder: {work}  (jobs: {args.jobs}, time limit: {args.time_limit or 'none'})")
    prepare(work, module, tests, args.pytest_arg)
    started = time.monotonic()
    code = run_mutmut(work, args.jobs, args.time_limit, args.progress, args.mutants,
                      work / "mutmut.log")
    elapsed = time.monotonic() - started
    score = read_score(work)
    if not score.statuses:
        print(f"mutmut found no mutants (exit {code}); its output: {work / 'mutmut.log'}")
        return 1
    print(f"\nmutmut ran {elapsed:.0f}s (exit {code}); full output: {work / 'mutmut.log'}")
    report(score, work, module, not args.no_diffs)
    if args.clean:
        shutil.rmtree(work)
    return 0 if code == 0 else code


if __name__ == "__main__":
    sys.exit(main())
