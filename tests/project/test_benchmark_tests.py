"""benchmarks/mutation.py names, for each module it mutates, test files that exist: the
tests it names by hand and those the layout of tests/ gives the module."""

from __future__ import annotations

import importlib.util
import sys
from pathlib import Path
from types import ModuleType

import pytest

ROOT = Path(__file__).resolve().parents[2]


def mutation() -> ModuleType:
    spec = importlib.util.spec_from_file_location("mutation_bench", ROOT / "benchmarks" / "mutation.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules["mutation_bench"] = module
    spec.loader.exec_module(module)
    return module


def test_every_test_file_named_for_a_module_exists() -> None:
    bench = mutation()
    for module in bench.TESTS:
        assert all((ROOT / t).is_file() for t in bench.tests_for(module, None)), module


@pytest.mark.parametrize(("module", "expected"), [
    ("pbem/kit/events.py", "tests/engine/kit/test_kit_events.py"),
    ("pbem/crypto/sealed.py", "tests/engine/crypto/test_sealed.py"),
    ("pbem/yamlio.py", "tests/engine/test_yamlio.py"),
    ("games/red_russia/rules/siege.py", "tests/games/red_russia/test_rr_siege.py"),
    ("games/aa1914/rules/combat.py", "tests/games/aa1914/test_aa_combat.py"),
])
def test_a_modules_own_tests_are_found_by_the_layout(module: str, expected: str) -> None:
    assert expected in mutation().tests_for(module, None)


def test_a_file_named_that_is_gone_stops_the_run_with_its_name() -> None:
    bench = mutation()
    bench.TESTS["pbem/lock.py"] = ["tests/engine/test_gone.py"]
    with pytest.raises(SystemExit, match="tests/engine/test_gone.py"):
        bench.tests_for("pbem/lock.py", None)
