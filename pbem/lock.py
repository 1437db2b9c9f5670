"""The campaign lock: shared for readers, exclusive for a writer, between processes.

An SQLite transaction on an empty lock file, as filelock's ReadWriteLock takes it (and
earlier pbem releases did, through filelock): a read transaction holds SQLite's SHARED lock,
`BEGIN EXCLUSIVE` its EXCLUSIVE one. SQLite takes them with the system's own file locks
(fcntl on POSIX, LockFileEx on Windows), so the system drops them when their holder dies,
and its unix VFS counts locks per file, so a second hold in one process waits as a second
process would. Written on the standard library's sqlite3 because importing filelock costs a
quick command more than the rest of its start (it imports asyncio).
"""

from __future__ import annotations

import contextlib
import sqlite3
import time
from collections.abc import Callable, Iterator
from pathlib import Path

# between two tries of a lock that was busy; SQLite's own busy handler sleeps likewise
POLL = 0.05


class Held(Exception):
    """The lock stayed busy for the whole time given."""


class Unusable(Exception):
    """The lock file is not one SQLite can lock (some other file in its place)."""


def _try(connection: sqlite3.Connection, exclusive: bool) -> bool:
    try:
        connection.execute("PRAGMA journal_mode=MEMORY")  # no journal file beside the lock
        if exclusive:
            connection.execute("BEGIN EXCLUSIVE TRANSACTION")
        else:
            connection.execute("BEGIN TRANSACTION")
            # a deferred transaction takes its SHARED lock at its first read
            connection.execute("SELECT name FROM sqlite_master LIMIT 1").fetchall()
        return True
    except sqlite3.OperationalError as error:
        if error.sqlite_errorcode != sqlite3.SQLITE_BUSY:
            raise  # not a lock held elsewhere: a folder in its place, say
        connection.rollback()  # a read that began and then found the file busy
        return False


def _hold(path: Path, *, exclusive: bool, wait: float,
          on_wait: Callable[[], None] | None = None) -> Iterator[None]:
    """Hold the lock on `path` (an existing file, empty or an SQLite database) for the
    block: tried at once, then, if busy, again for up to `wait` seconds (`on_wait` is called
    once, before the wait begins); Held if it stays busy. Released when the block ends,
    however it ends."""
    # timeout 0: SQLite answers busy at once; the waiting is ours, so it ends on time
    try:
        connection = sqlite3.connect(path, timeout=0, isolation_level=None)
    except sqlite3.Error as error:
        raise Unusable(f"{path}: {error}") from None
    try:
        if not _try(connection, exclusive):
            if wait <= 0:
                raise Held(str(path))
            if on_wait is not None:
                on_wait()
            deadline = time.monotonic() + wait
            while not _try(connection, exclusive):
                if time.monotonic() >= deadline:
                    raise Held(str(path))
                time.sleep(POLL)
    except sqlite3.DatabaseError as error:  # not a busy lock: "file is not a database"
        connection.close()
        raise Unusable(f"{path}: {error}") from None
    except BaseException:  # Held, or interrupted while waiting
        connection.close()
        raise
    try:
        yield
    finally:
        connection.close()  # closing rolls the transaction back and drops its lock


# a plain generator under the decorator, so that the mutation tests reach its body
hold = contextlib.contextmanager(_hold)
