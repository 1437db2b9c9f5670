"""The two tiers of the suite: a test is `slow` by what it does, read from its code.

A test is slow when its code, the code of a fixture it uses, or the code of a function or
class of the tests that it calls (at any depth) reaches something that starts a process or
a server, or plays a campaign:

- a module named in SLOW_MODULES: `subprocess` (git, `pbem` as a command, `age`,
  `ssh-keygen`, a wheel build, dovecot), `socket` and the mail servers' libraries, and the
  parts of pbem that run git or a whole campaign (the store, the campaign, api, the audit,
  the mail loop, the command line, the demo);
- whether by an import (at the top of the file or inside a function), a global name, or an
  attribute of a module (`api.new_campaign`, `pbem.api.bot`).

pbem's own functions are not followed (their closure is most of pbem); instead the marks
are checked as the tests run (`Guard`): a test left in the fast tier that starts a process
or opens a network socket fails and says what it started, so a wrong mark is never silent.
Whatever is not slow is the inner loop, `pytest -m "not slow"`: the rule tables, the unit
tests, the data checks.
"""

from __future__ import annotations

import builtins
import dis
import importlib
import importlib.util
import inspect
import socket
import subprocess
import types
from collections.abc import Callable, Iterable, Iterator
from pathlib import Path
from typing import Any

TESTS = Path(__file__).resolve().parent

SLOW_MODULES = (
    "subprocess", "multiprocessing", "socket", "smtplib", "imaplib", "aiosmtpd", "asyncio",
    "git", "build", "pbem.store", "pbem.campaign", "pbem.api", "pbem.step", "pbem.audit", "pbem.demo",
    "pbem.mail.loop", "pbem.cli", "pbem.__main__", "_pytest.pytester",
)
# what a slow test is told to be, in the error of the guard
HOW = ("tests/tiers.py marks a test slow by the modules its code reaches (SLOW_MODULES); "
       "this one reaches them through code it does not follow")


def _slow_module(name: str) -> bool:
    return any(name == m or name.startswith(m + ".") for m in SLOW_MODULES)


def _ours(obj: Any) -> bool:
    """Whether `obj` is a function or class written in tests/ (followed, not judged)."""
    try:
        source = inspect.getsourcefile(obj)
    except TypeError:
        return False
    return source is not None and Path(source).resolve().is_relative_to(TESTS)


def _helpers(name: str) -> object:
    """The module `name` if it is a module of the tests (`from audit_fast import build` in a
    fixture), imported, so that what is imported from it is followed; else None."""
    if not name or name.startswith("."):
        return None
    try:
        spec = importlib.util.find_spec(name)
    except (ImportError, ValueError):
        return None
    origin = getattr(spec, "origin", None)
    if origin is None or not Path(origin).resolve().is_relative_to(TESTS):
        return None
    return importlib.import_module(name)


class Reach:
    """What the code of a test reaches, followed through the tests' own functions."""

    def __init__(self) -> None:
        self._seen: set[int] = set()

    def slow(self, obj: Any) -> str | None:
        """The first slow thing `obj` (a function, class or module) reaches, or None."""
        if isinstance(obj, types.ModuleType):
            return f"module {obj.__name__}" if _slow_module(obj.__name__) else None
        obj = inspect.unwrap(obj) if callable(obj) else obj
        if id(obj) in self._seen:
            return None
        self._seen.add(id(obj))
        module = getattr(obj, "__module__", None)
        if isinstance(module, str) and _slow_module(module):
            return f"{module}.{getattr(obj, '__qualname__', obj)}"
        if not _ours(obj):
            return None
        if isinstance(obj, type):
            for member in vars(obj).values():
                found = self.slow(member.__func__ if isinstance(member, (staticmethod, classmethod))
                                  else member)
                if found:
                    return found
            return None
        if isinstance(obj, types.FunctionType):
            return self._code(obj.__code__, obj.__globals__)
        return None

    def _code(self, code: types.CodeType, namespace: dict[str, Any]) -> str | None:
        last: Any = None  # the object the previous instruction loaded, for an attribute
        module = ""  # the module of the last import, for its `from ... import` names
        for ins in dis.get_instructions(code):
            found = None
            if ins.opname == "IMPORT_NAME":
                module = str(ins.argval)
                found = f"import {module}" if _slow_module(module) else None
                last = None
            elif ins.opname == "IMPORT_FROM":
                full = f"{module}.{ins.argval}"
                found = (f"import {full}" if _slow_module(full)
                         else self.slow(getattr(_helpers(module), str(ins.argval), None)))
            elif ins.opname in ("LOAD_GLOBAL", "LOAD_NAME"):
                name = str(ins.argval)
                last = namespace.get(name, getattr(builtins, name, None))
                found = self.slow(last) if last is not None else None
            elif ins.opname in ("LOAD_ATTR", "LOAD_METHOD") and isinstance(last, types.ModuleType):
                last = getattr(last, str(ins.argval), None)
                found = self.slow(last) if last is not None else None
            else:
                last = None
            if found:
                return found
        for const in code.co_consts:
            if isinstance(const, types.CodeType):
                found = self._code(const, namespace)
                if found:
                    return found
        return None


_FOUND: dict[int, tuple[Any, str | None]] = {}  # a function's answer, by its id (kept alive)


def reaches(obj: Any) -> str | None:
    """The first slow thing a test function or a fixture's function reaches, or None."""
    key = id(obj)
    if key not in _FOUND:
        _FOUND[key] = (obj, Reach().slow(obj))
    return _FOUND[key][1]


def why_slow(test: Callable[..., Any], fixtures: Iterable[Callable[..., Any]]) -> str | None:
    """What makes a test slow: the test function and the functions of its fixtures."""
    for obj in (test, *fixtures):
        found = reaches(obj)
        if found:
            return found
    return None


class Guard:
    """Records, while a test of the fast tier runs, every process it starts and every
    network socket it binds or connects."""

    def __init__(self) -> None:
        self.test: str | None = None  # the fast test running now
        self.seen: list[str] = []

    def install(self) -> None:
        guard = self
        execute = subprocess.Popen._execute_child  # type: ignore[attr-defined]
        bind, connect = socket.socket.bind, socket.socket.connect

        def _execute_child(popen: subprocess.Popen[Any], args: Any, *rest: Any) -> Any:
            guard.saw(f"started a process: {args if isinstance(args, str) else ' '.join(map(str, args))}")
            return execute(popen, args, *rest)

        def _bind(sock: socket.socket, address: Any) -> Any:
            if sock.family in (socket.AF_INET, socket.AF_INET6):
                guard.saw(f"bound a socket to {address}")
            return bind(sock, address)

        def _connect(sock: socket.socket, address: Any) -> Any:
            if sock.family in (socket.AF_INET, socket.AF_INET6):
                guard.saw(f"connected a socket to {address}")
            return connect(sock, address)

        subprocess.Popen._execute_child = _execute_child  # type: ignore[attr-defined]
        socket.socket.bind = _bind  # type: ignore[method-assign]
        socket.socket.connect = _connect  # type: ignore[method-assign]

    def saw(self, what: str) -> None:
        if self.test is not None:
            self.seen.append(what)

    def watching(self, test: str | None) -> Iterator[None]:
        self.test, self.seen = test, []
        try:
            yield
        finally:
            self.test = None

    def take(self) -> list[str]:
        seen, self.seen = self.seen, []
        return seen
