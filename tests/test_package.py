"""The wheel: built offline, installed into a fresh venv, runs from an unrelated folder."""

from __future__ import annotations

import shutil
import subprocess
import sys
import zipfile
from pathlib import Path

from tests.conftest import ROOT


def _run(*args: str | Path, cwd: Path | None = None) -> subprocess.CompletedProcess[str]:
    return subprocess.run([str(a) for a in args], cwd=cwd, capture_output=True, text=True,
                          timeout=300)


def _can_build_wheels(python: Path | str) -> bool:
    """setuptools >= 70.1 builds wheels by itself; older ones need the 'wheel' package."""
    probe = ("import importlib.util, setuptools; v = tuple(int(x) for x in "
             "setuptools.__version__.split('.')[:2]); "
             "raise SystemExit(0 if v >= (70, 1) or importlib.util.find_spec('wheel') else 1)")
    return _run(python, "-c", probe).returncode == 0


def test_wheel_installs_and_runs(tmp_path: Path) -> None:
    venv = tmp_path / "venv"
    made = _run(sys.executable, "-m", "venv", "--system-site-packages", venv)
    assert made.returncode == 0, made.stderr
    py = venv / "bin" / "python"
    builder: Path | str = sys.executable
    # tests never reach the network: the test extra brings 'wheel' for older setuptools
    assert _can_build_wheels(builder), "install the test extra: pip install '.[test]'"
    # build from a copy: an in-tree build would write build/ and *.egg-info into the checkout
    source = tmp_path / "source"
    shutil.copytree(ROOT, source, ignore=shutil.ignore_patterns(
        ".git", "build", "dist", "*.egg-info", "__pycache__", ".*cache", ".hypothesis", "tests"))
    dist = tmp_path / "dist"
    built = _run(builder, "-m", "pip", "wheel", "--no-deps", "--no-build-isolation",
                 "--no-index", "--wheel-dir", dist, source, cwd=tmp_path)
    assert built.returncode == 0, built.stdout + built.stderr
    wheels = list(dist.glob("pbem-*.whl"))
    assert len(wheels) == 1, wheels
    wheel = wheels[0]

    names = set(zipfile.ZipFile(wheel).namelist())
    for data in ("game.yaml", "map.yaml", "units.yaml"):
        assert f"pbem/games/red_russia/{data}" in names, data
    rules = sorted((ROOT / "games" / "red_russia" / "rules").glob("*.py"))
    assert rules
    for rule in rules:
        assert f"pbem/games/red_russia/rules/{rule.name}" in names, rule.name
    if (ROOT / "games" / "red_russia" / "ORDERS.md").exists():
        assert "pbem/games/red_russia/ORDERS.md" in names
    for example in (ROOT / "games" / "red_russia" / "examples").glob("*.yaml"):
        assert f"pbem/games/red_russia/examples/{example.name}" in names, example.name
    assert not any("__pycache__" in n or n.startswith("tests/") for n in names)

    # --ignore-installed: a pbem already in the system site-packages must not satisfy it
    installed = _run(py, "-m", "pip", "install", "--no-deps", "--no-index", "--ignore-installed", wheel)
    assert installed.returncode == 0, installed.stdout + installed.stderr

    elsewhere = tmp_path / "elsewhere"
    elsewhere.mkdir()
    where = _run(py, "-c", "import pbem, sys; print(pbem.__file__)", cwd=elsewhere)
    assert where.returncode == 0, where.stderr
    assert str(venv) in where.stdout, f"pbem imported from {where.stdout} not the venv"

    games = _run(venv / "bin" / "pbem", "games", cwd=elsewhere)
    assert games.returncode == 0, games.stderr
    assert "red_russia" in games.stdout

    helped = _run(py, "-m", "pbem", "--help", cwd=elsewhere)
    assert helped.returncode == 0, helped.stderr
    assert "Usage:" in helped.stdout and "apply" in helped.stdout

    demo = _run(venv / "bin" / "pbem", "demo", elsewhere / "demo", "--turns", "1", cwd=elsewhere)
    assert demo.returncode == 0, demo.stdout + demo.stderr
    assert "audit: OK" in demo.stdout
