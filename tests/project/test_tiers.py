"""The tiers (tests/tiers.py): what makes a test slow is read from its code, and a test
left in the fast tier that starts a process or opens a socket fails."""

from __future__ import annotations

import importlib
import socket
import subprocess
import textwrap
from pathlib import Path
from types import ModuleType

import pytest
import tiers

pytest_plugins = ["pytester"]


def samples() -> ModuleType:
    """tests/tiers_samples.py, reached by name so that these tests' code does not reach it."""
    return importlib.import_module("tiers_samples")


@pytest.mark.parametrize(("name", "reached"), [
    ("starts_git", "module subprocess"),
    ("through_a_helper", "module subprocess"),
    ("through_two_helpers", "module subprocess"),
    ("imports_api_inside", "import pbem.api"),
    ("imports_a_submodule_inside", "import pbem.store"),
    ("an_attribute_of_a_module", "module pbem.campaign"),
    ("a_global_module", "module pbem.api"),
    ("in_a_comprehension", "module subprocess"),
    ("in_a_lambda", "module subprocess"),
    ("through_a_class", "module subprocess"),
    ("imports_a_helper_inside", "module subprocess"),
])
def test_what_a_function_reaches_makes_it_slow(name: str, reached: str) -> None:
    assert tiers.Reach().slow(getattr(samples(), name)) == reached


@pytest.mark.parametrize("name", ["pure", "one", "opaque"])
def test_a_function_that_reaches_nothing_slow(name: str) -> None:
    """`one` and `two` call each other: read once each; `opaque` hides what it starts."""
    assert tiers.Reach().slow(getattr(samples(), name)) is None


def test_a_fixture_makes_its_tests_slow() -> None:
    module = samples()
    assert tiers.why_slow(module.pure, [module.one, module.starts_git]) == "module subprocess"
    assert tiers.why_slow(module.pure, [module.one]) is None


def test_pbem_functions_are_judged_by_their_module_not_followed() -> None:
    import pbem.api
    import pbem.dice

    assert tiers.Reach().slow(pbem.api.status) == "pbem.api.status"
    assert tiers.Reach().slow(pbem.dice.verify_link) is None


@pytest.fixture
def guard(monkeypatch: pytest.MonkeyPatch) -> tiers.Guard:
    """A second guard over the session's, both taken away after the test."""
    monkeypatch.setattr(subprocess.Popen, "_execute_child", subprocess.Popen._execute_child)  # type: ignore[attr-defined]
    monkeypatch.setattr(socket.socket, "bind", socket.socket.bind)
    monkeypatch.setattr(socket.socket, "connect", socket.socket.connect)
    g = tiers.Guard()
    g.install()
    return g


def test_the_guard_sees_processes_and_network_sockets_of_a_fast_test(guard: tiers.Guard) -> None:
    subprocess.run(["true"], check=True)  # no test is watched: nothing is recorded
    assert guard.take() == []
    watch = guard.watching("tests/test_x.py::test_y")
    next(watch)
    subprocess.run(["true"], check=True)
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        listening = sock.getsockname()
        sock.listen()
        with socket.create_connection(listening):
            pass
    left, right = socket.socketpair()  # a local pipe, as an event loop makes: not the network
    left.close()
    right.close()
    with pytest.raises(StopIteration):
        next(watch)
    assert guard.take() == ["started a process: true", f"bound a socket to {('127.0.0.1', 0)}",
                            f"connected a socket to {listening}"]
    subprocess.run(["true"], check=True)  # the test has ended
    assert guard.take() == []


def test_a_run_marks_slow_tests_and_fails_a_fast_one_that_starts_a_process(
        pytester: pytest.Pytester) -> None:
    here = Path(__file__).resolve().parents[1]  # tests/: conftest.py and the tiers
    pytester.makeconftest((here / "conftest.py").read_text())
    for name in ("tiers.py", "tiers_samples.py"):
        (pytester.path / name).write_text((here / name).read_text())
    pytester.makepyfile(test_sample=textwrap.dedent("""
        import importlib
        import subprocess

        def test_plain():
            assert 1 + 1 == 2

        def test_git():
            subprocess.run(["git", "--version"], check=True, capture_output=True)

        def test_hidden():
            importlib.import_module("tiers_samples").opaque()
    """))
    fast = pytester.runpytest_subprocess("-p", "no:cacheprovider", "-m", "not slow", "-p", "no:xdist")
    fast.assert_outcomes(passed=1, failed=1, deselected=1)
    fast.stdout.fnmatch_lines(["*test_sample.py::test_hidden is in the fast tier, but it started "
                               "a process: true. tests/tiers.py marks a test slow*"])
    slow = pytester.runpytest_subprocess("-p", "no:cacheprovider", "-m", "slow", "-p", "no:xdist")
    slow.assert_outcomes(passed=1, deselected=2)
