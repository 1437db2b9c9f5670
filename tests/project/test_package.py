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


def _dependencies_of_this_interpreter(venv_python: Path, into: Path) -> None:
    """Give a new venv the packages this interpreter has, pbem itself left out, so pip finds
    the wheel's declared dependencies installed (tests never reach the network).

    `--system-site-packages` would give the base interpreter's packages, not this venv's; so
    each top-level entry of this interpreter's site directories, but pbem's own, is linked
    into a folder that a .pth file in the new venv puts on its path."""
    import site
    import sysconfig

    own = sysconfig.get_paths()
    dirs = dict.fromkeys(Path(d) for d in (own["purelib"], own["platlib"], site.getusersitepackages()))
    target = _run(venv_python, "-c", "import sysconfig; print(sysconfig.get_paths()['purelib'])")
    assert target.returncode == 0, target.stderr
    lines = []
    for i, folder in enumerate(d for d in dirs if d.is_dir()):
        linked = into / str(i)
        linked.mkdir(parents=True)
        for entry in folder.iterdir():
            name = entry.name.lower()
            if name == "pbem" or name.startswith(("pbem-", "__editable__")) or name.endswith(".pth"):
                continue
            (linked / entry.name).symlink_to(entry)
        lines.append(str(linked))
    Path(target.stdout.strip(), "pbem-test-dependencies.pth").write_text("\n".join(lines) + "\n")


def test_wheel_installs_and_runs(tmp_path: Path) -> None:
    venv = tmp_path / "venv"
    made = _run(sys.executable, "-m", "venv", venv)
    assert made.returncode == 0, made.stderr
    py = venv / "bin" / "python"
    _dependencies_of_this_interpreter(py, tmp_path / "deps")
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
    schemas = sorted((ROOT / "games" / "red_russia" / "schemas").glob("*.schema.json"))
    assert schemas
    for schema in schemas:  # pbem.datacheck checks the data against them when it loads
        assert f"pbem/games/red_russia/schemas/{schema.name}" in names, schema.name
    for example in (ROOT / "games" / "red_russia" / "examples").glob("*.yaml"):
        assert f"pbem/games/red_russia/examples/{example.name}" in names, example.name
    assert not any("__pycache__" in n or n.startswith("tests/") for n in names)

    # with its declared dependencies: pip must find every one of them installed
    installed = _run(py, "-m", "pip", "install", "--no-index", wheel)
    assert installed.returncode == 0, installed.stdout + installed.stderr
    checked = _run(py, "-m", "pip", "check")
    assert checked.returncode == 0, checked.stdout + checked.stderr
    # not from the checkout: a pbem.egg-info left there by a build would be read instead
    declared = _run(py, "-c", "import importlib.metadata as m; print('\\n'.join(m.requires('pbem')))",
                    cwd=tmp_path)
    assert declared.returncode == 0, declared.stderr
    for dependency in ("typer", "PyYAML", "Jinja2", "cryptography", "GitPython", "jsonschema",
                       "filelock", "resvg-py"):
        assert dependency in declared.stdout, f"the wheel does not declare {dependency}"

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
