"""pbem.lock, the campaign lock, on its own: shared and exclusive holds in one process and
between processes, the wait and its end, a lock file that is not one, and the same locks as
filelock's ReadWriteLock takes (what pbem used before, and what an older pbem still running
on the campaign holds)."""

from __future__ import annotations

import sqlite3
import subprocess
import sys
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest

from pbem import lock
from pbem.campaign import Campaign
from tests.conftest import run_pbem, tree_state


@pytest.fixture
def path(tmp_path: Path) -> Path:
    lock_file = tmp_path / "lock"
    lock_file.write_bytes(b"")
    return lock_file


def busy(path: Path, exclusive: bool) -> bool:
    """Whether a hold of this kind is refused at once now."""
    try:
        with lock.hold(path, exclusive=exclusive, wait=0):
            return False
    except lock.Held:
        return True


def test_readers_share_and_a_writer_excludes(path: Path) -> None:
    with lock.hold(path, exclusive=False, wait=0):
        assert not busy(path, exclusive=False)
        assert busy(path, exclusive=True)
    with lock.hold(path, exclusive=True, wait=0):
        assert busy(path, exclusive=False)
        assert busy(path, exclusive=True)
    assert not busy(path, exclusive=True) and not busy(path, exclusive=False)
    assert [p.name for p in path.parent.iterdir()] == ["lock"]  # no journal left beside it
    assert path.read_bytes() == b""  # nothing is ever written into it


def test_released_whatever_ends_the_block(path: Path) -> None:
    with pytest.raises(KeyError), lock.hold(path, exclusive=True, wait=0):
        raise KeyError("the step failed")
    assert not busy(path, exclusive=True)


class Clock:
    """pbem.lock's clock and sleep, faked: a wait takes no real time, and what the lock does
    while it waits is counted instead of timed."""

    def __init__(self) -> None:
        self.now = 1000.0
        self.sleeps: list[float] = []

    def monotonic(self) -> float:
        return self.now

    def sleep(self, seconds: float) -> None:
        self.sleeps.append(seconds)
        self.now += seconds


@pytest.fixture
def clock(monkeypatch: pytest.MonkeyPatch) -> Clock:
    fake = Clock()
    monkeypatch.setattr(lock.time, "monotonic", fake.monotonic)
    monkeypatch.setattr(lock.time, "sleep", fake.sleep)
    return fake


def test_the_wait_lasts_its_whole_time_then_gives_up(path: Path, clock: Clock) -> None:
    told: list[float] = []
    with lock.hold(path, exclusive=True, wait=0):
        with pytest.raises(lock.Held, match=str(path)):
            with lock.hold(path, exclusive=False, wait=0.3, on_wait=lambda: told.append(clock.now)):
                pass
        # tried every POLL seconds until the deadline had passed, and not a moment more
        assert clock.now >= 1000.3
        assert clock.now - lock.POLL < 1000.3  # its last sleep was needed
        assert set(clock.sleeps) == {lock.POLL}
        clock.sleeps.clear()
        with pytest.raises(lock.Held, match=str(path)):
            with lock.hold(path, exclusive=False, wait=0, on_wait=lambda: told.append(0)):
                pass
        assert clock.sleeps == []
    assert told == [1000.0]  # told once, before waiting, and not when told not to wait
    told.clear()
    with lock.hold(path, exclusive=False, wait=5, on_wait=lambda: told.append(1)):
        pass
    assert told == [] and clock.sleeps == []  # free: no wait, no progress line


def test_sqlite_is_asked_not_to_wait_on_its_own(path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """The waiting is pbem's, so that it ends on time: SQLite's own busy handler would add
    its timeout (5 s by default) to every try."""
    made: list[dict[str, Any]] = []
    connect = sqlite3.connect

    def recording(*args: Any, **kwargs: Any) -> sqlite3.Connection:
        made.append(kwargs)
        return connect(*args, **kwargs)

    monkeypatch.setattr(lock.sqlite3, "connect", recording)
    for exclusive in (True, False):
        with lock.hold(path, exclusive=exclusive, wait=1):
            pass
    assert [m.get("timeout") for m in made] == [0, 0]


HOLDER = """
import sys, time
from pathlib import Path
kind, path = sys.argv[1], Path(sys.argv[2])
if kind.startswith("filelock"):
    from filelock import ReadWriteLock
    held = ReadWriteLock(path, is_singleton=False)
    (held.acquire_write if kind == "filelock-write" else held.acquire_read)(timeout=5)
else:
    from pbem import lock
    held = lock.hold(path, exclusive=kind == "write", wait=5)
    held.__enter__()  # kept in a name: a dropped hold is released
print("held", flush=True)
if sys.stdin.readline() == "die\\n":
    import os, signal
    os.kill(os.getpid(), signal.SIGKILL)  # dies holding it: no release, no clean-up
"""


@pytest.fixture
def holder(path: Path) -> Iterator[Callable[[str], subprocess.Popen[str]]]:
    """Another process holding the lock (its kind: read, write, filelock-read or
    filelock-write) until it is told to end, or to die where it stands."""
    procs: list[subprocess.Popen[str]] = []

    def start(kind: str) -> subprocess.Popen[str]:
        proc = subprocess.Popen([sys.executable, "-c", HOLDER, kind, str(path)], text=True,
                                stdin=subprocess.PIPE, stdout=subprocess.PIPE)
        procs.append(proc)
        assert proc.stdout is not None and proc.stdout.readline() == "held\n"
        return proc

    yield start
    for proc in procs:
        proc.kill()
        proc.wait(timeout=30)


def end(proc: subprocess.Popen[str], how: str = "end") -> None:
    assert proc.stdin is not None
    proc.stdin.write(how + "\n")
    proc.stdin.close()
    proc.wait(timeout=30)


@pytest.mark.parametrize("kind", ["write", "filelock-write"])
def test_a_writer_in_another_process_excludes_every_hold(path: Path, holder: Callable[..., Any],
                                                         kind: str) -> None:
    proc = holder(kind)
    assert busy(path, exclusive=False) and busy(path, exclusive=True)
    end(proc)
    assert not busy(path, exclusive=True)


@pytest.mark.parametrize("kind", ["read", "filelock-read"])
def test_a_reader_in_another_process_excludes_only_writers(path: Path, holder: Callable[..., Any],
                                                           kind: str) -> None:
    proc = holder(kind)
    assert not busy(path, exclusive=False)
    assert busy(path, exclusive=True)
    end(proc)
    assert not busy(path, exclusive=True)


def test_a_waiting_writer_gets_the_lock_when_the_other_ends(path: Path,
                                                            holder: Callable[..., Any]) -> None:
    proc = holder("read")
    waited: list[int] = []

    def reader_ends() -> None:
        """Once the writer has begun to wait (its progress call), and not before: the
        reader is told to end; the writer's own tries see the lock come free."""
        waited.append(1)
        assert proc.stdin is not None
        proc.stdin.write("end\n")
        proc.stdin.close()

    with lock.hold(path, exclusive=True, wait=120, on_wait=reader_ends):
        # the lock came with the reader's end: the process has ended (or is ending), cleanly
        assert proc.wait(timeout=60) == 0
        assert busy(path, exclusive=False)
    assert waited == [1]


def test_the_lock_of_a_killed_holder_is_free(path: Path, holder: Callable[..., Any]) -> None:
    proc = holder("write")
    assert busy(path, exclusive=True)
    end(proc, "die")
    assert proc.returncode == -9
    assert not busy(path, exclusive=True)


def test_a_reader_that_loses_the_race_tries_again_cleanly(path: Path) -> None:
    """The file was free when the read began and taken before its first read: the reader
    ends its transaction, so that its next try can begin one."""
    writer = sqlite3.connect(path, timeout=0, isolation_level=None)
    races = [True]  # once

    class Racing(sqlite3.Connection):
        def execute(self, sql: str, *args: Any) -> sqlite3.Cursor:
            if sql.startswith("SELECT") and races and races.pop():
                writer.execute("BEGIN EXCLUSIVE TRANSACTION")  # after BEGIN, before the read
            return super().execute(sql, *args)

    reader = sqlite3.connect(path, timeout=0, isolation_level=None, factory=Racing)
    assert lock._try(reader, exclusive=False) is False
    assert not reader.in_transaction
    writer.close()
    assert lock._try(reader, exclusive=False) is True
    reader.close()


@pytest.mark.parametrize("exclusive", [True, False])
def test_a_lock_file_that_is_not_one(path: Path, exclusive: bool) -> None:
    path.write_text("the moderator's notes, saved here by mistake\n" * 20)
    with pytest.raises(lock.Unusable, match=f"{path}: file is not a database"):
        with lock.hold(path, exclusive=exclusive, wait=0):
            pass


@pytest.mark.parametrize("exclusive", [True, False])
def test_a_folder_in_the_lock_files_place(tmp_path: Path, exclusive: bool, clock: Clock) -> None:
    """Not a busy lock, so no waiting: told at once, even with time to wait."""
    folder = tmp_path / "lock"
    folder.mkdir()
    with pytest.raises(lock.Unusable, match=f"{folder}: unable to open database file"):
        with lock.hold(folder, exclusive=exclusive, wait=5):
            pass
    assert clock.sleeps == []
    assert list(folder.iterdir()) == []


def test_the_campaign_with_a_lock_file_that_is_not_one(new_campaign: Callable[..., Path]) -> None:
    camp = new_campaign()
    lock_file = Campaign.open(camp).private / "lock"
    lock_file.write_text("not a lock\n" * 50)
    before = tree_state(camp)
    r = run_pbem("-C", camp, "status")
    assert r.code != 0 and "Traceback" not in r.err
    assert r.err.strip().splitlines() == [
        f"Error: {lock_file}: file is not a database; expected the campaign's lock file "
        "(empty): remove it when no pbem is running and run the command again"]
    assert tree_state(camp) == before
    lock_file.unlink()
    assert run_pbem("-C", camp, "status").code == 0
