"""kill -9 at named moments of a step, proven to land there (docs/design.md "Steps").

A stand-in `git` first on PATH passes every call to the real git, except one: the n-th call of
a given git command (`add`, `commit`, `tag`), where it stops, before or after running the real
one, leaves a mark and waits to be killed. So each run knows, whatever the machine's load,
that the kill landed inside the step at that moment. Each run then asserts that the campaign
is at the old or the new commit, that the next command (any command: `status`) recovers
unaided and finishes what the killed one meant to do, that audit passes, and that the
position is the one an uninterrupted run gives.
"""

from __future__ import annotations

import json
import os
import shutil
import signal
import subprocess
import sys
import time
from collections.abc import Callable
from pathlib import Path

import pytest

from pbem import api, yamlio
from tests.conftest import git, play, run_pbem

WRAPPER = """#!/bin/sh
# the pbem test's stand-in git: stop at the $PBEM_STOP_AT-th "git $PBEM_STOP_VERB"
if [ "$1" = "$PBEM_STOP_VERB" ]; then
  n=$(( $(cat "$PBEM_STOP_COUNT" 2>/dev/null || echo 0) + 1 ))
  echo "$n" > "$PBEM_STOP_COUNT"
  if [ "$n" = "$PBEM_STOP_AT" ]; then
    if [ "$PBEM_STOP_WHEN" = after ]; then "$PBEM_REAL_GIT" "$@"; fi
    : > "$PBEM_STOP_MARK"
    exec sleep 600
  fi
fi
exec "$PBEM_REAL_GIT" "$@"
"""


def _bot_file(root: Path, faction: str, folder: Path) -> Path:
    path = folder / f"{faction}.yaml"
    yamlio.write_atomic(path, yamlio.dump(api.bot(root, faction)))
    return path


def _commits(root: Path) -> int:
    return int(git(root, "rev-list", "--count", "HEAD"))


def _completing(camp: Path, tmp_path: Path, *, ends_turn: bool) -> tuple[Path, Path]:
    """Play `camp` on until the next orders file completes a phase (and, with `ends_turn`,
    the turn as well). Returns that file, and a twin campaign where it was applied without
    interruption: the position a killed apply must come to."""
    for i in range(100):
        status = api.status(camp)
        orders = _bot_file(camp, status["awaiting"][0], tmp_path / f"{i:03d}")
        twin = tmp_path / f"twin-{i:03d}"
        shutil.copytree(camp, twin, symlinks=True)
        applied = api.apply(twin, [orders])
        if applied.resolved and (not ends_turn or applied.status["turn"] != status["turn"]):
            return orders, twin
        shutil.rmtree(twin)
        api.apply(camp, [orders])
    raise AssertionError("no orders file completed a phase")


@pytest.fixture(params=["setup", "turn"])
def last_orders(request: pytest.FixtureRequest, new_campaign: Callable[..., Path],
                tmp_path: Path) -> tuple[Path, Path, Path]:
    """A campaign where one orders file completes a phase (the set-up reductions: it is
    recorded, then the phase resolves), or a turn (the last action phase: recorded, then the
    action and the victory phase resolve, then the turn is tagged)."""
    camp = new_campaign("camp")
    if request.param == "setup":
        play(camp, until_turn=0, phase="setup-reduce")
    else:
        play(camp, until_turn=1, phase="action")
    orders, twin = _completing(camp, tmp_path, ends_turn=request.param == "turn")
    return camp, orders, twin


def _kill_at(camp: Path, orders: Path, verb: str, nth: int, when: str, tmp_path: Path) -> None:
    bin_dir = tmp_path / "bin"
    bin_dir.mkdir()
    wrapper = bin_dir / "git"
    wrapper.write_text(WRAPPER)
    wrapper.chmod(0o755)
    mark = tmp_path / "stopped"
    env = {**os.environ, "PATH": f"{bin_dir}{os.pathsep}{os.environ['PATH']}",
           "PBEM_REAL_GIT": str(shutil.which("git")), "PBEM_STOP_VERB": verb,
           "PBEM_STOP_AT": str(nth), "PBEM_STOP_WHEN": when,
           "PBEM_STOP_COUNT": str(tmp_path / "count"), "PBEM_STOP_MARK": str(mark)}
    proc = subprocess.Popen([sys.executable, "-m", "pbem", "-C", str(camp), "apply", str(orders)],
                            env=env, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                            start_new_session=True)
    limit = time.monotonic() + 300
    while not mark.exists():
        if proc.poll() is not None:
            out, err = proc.communicate()
            raise AssertionError(f"apply ended (exit {proc.returncode}) before git {verb} "
                                 f"#{nth}: {out.decode()} {err.decode()}")
        assert time.monotonic() < limit, "apply never reached the moment"
        time.sleep(0.02)
    os.killpg(proc.pid, signal.SIGKILL)  # pbem and the stopped git with it
    proc.wait()


# (git command, which call, before or after the real git ran, commits made by then); the
# moments of both scenarios, then those of the one that ends a turn
MOMENTS = [
    ("add", 1, "before", 0),      # the orders step written, nothing staged
    ("commit", 1, "before", 0),   # the orders step staged, not committed
    ("commit", 1, "after", 1),    # the orders committed, the resolution not begun
    ("add", 2, "before", 1),      # the resolution written, not staged
    ("commit", 2, "before", 1),   # the resolution staged, not committed
]
TURN_MOMENTS = [
    ("commit", 2, "after", 2),    # the action phase resolved, the victory phase not
    ("commit", 3, "after", 3),    # the turn resolved, its tag not made
    ("tag", 1, "before", 3),      # inside git tag
]


@pytest.mark.parametrize("last_orders", ["setup", "turn"], indirect=True)
@pytest.mark.parametrize(("verb", "nth", "when", "made"), MOMENTS,
                         ids=[f"{w}-{v}-{n}" for v, n, w, _ in MOMENTS])
def test_a_kill_inside_apply_is_finished_by_the_next_command(
        last_orders: tuple[Path, Path, Path], tmp_path: Path, verb: str, nth: int, when: str,
        made: int) -> None:
    _kill_then_next_command(*last_orders, tmp_path, verb, nth, when, made)


@pytest.mark.parametrize("last_orders", ["turn"], indirect=True)
@pytest.mark.parametrize(("verb", "nth", "when", "made"), TURN_MOMENTS,
                         ids=[f"{w}-{v}-{n}" for v, n, w, _ in TURN_MOMENTS])
def test_a_kill_inside_apply_that_ends_a_turn_is_finished_by_the_next_command(
        last_orders: tuple[Path, Path, Path], tmp_path: Path, verb: str, nth: int, when: str,
        made: int) -> None:
    _kill_then_next_command(*last_orders, tmp_path, verb, nth, when, made)


def test_a_kill_after_the_last_commit_of_a_step_leaves_nothing_to_do(
        new_campaign: Callable[..., Path], tmp_path: Path) -> None:
    camp = new_campaign("camp")
    play(camp, until_turn=0, phase="setup-reduce")
    orders, twin = _completing(camp, tmp_path, ends_turn=False)
    old = _commits(camp)
    _kill_at(camp, orders, "commit", 2, "after", tmp_path)
    assert _commits(camp) == old + 2
    r = run_pbem("-C", camp, "status", "--json")
    assert r.code == 0 and r.err == ""  # all was done: nothing to put right, nothing said
    _same_as_uninterrupted(camp, twin)


def _same_as_uninterrupted(camp: Path, twin: Path) -> None:
    assert git(camp, "status", "--porcelain") == ""
    assert not (camp / ".pbem" / "intent.json").exists()
    report = api.audit(camp)
    assert report["ok"], report["problems"]
    mine, theirs = (yamlio.read_trusted(r / "state.yaml") for r in (camp, twin))
    assert mine["game"] == theirs["game"] and mine["seq"] == theirs["seq"]
    assert git(camp, "tag", "--list") == git(twin, "tag", "--list")


def _kill_then_next_command(camp: Path, orders: Path, twin: Path, tmp_path: Path, verb: str,
                            nth: int, when: str, made: int) -> None:
    old = _commits(camp)
    _kill_at(camp, orders, verb, nth, when, tmp_path)
    assert _commits(camp) == old + made  # the old commit, or a new one: never half of one

    r = run_pbem("-C", camp, "status", "--json")  # the next command, whatever it is
    assert r.code == 0, r.err
    if made == 0:
        # the orders were never committed: the faction is still awaited, and nothing was lost
        # but that file, which applies again as it was
        assert "pbem: recovered: discarded an unfinished step" in r.err
        assert json.loads(r.out)["awaiting"]
        assert run_pbem("-C", camp, "apply", orders).code == 0
    else:
        # the orders are in: what they complete is done now (the resolutions, the turn's
        # tag), and said
        assert "a killed pbem left" in r.err, r.err
    _same_as_uninterrupted(camp, twin)
