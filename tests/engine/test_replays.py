"""An older signed file never replaces newer orders of the same phase (ORDERS.md, "Sending
a correction"): only a file naming a later head, or the same head and signed later (`signed:`,
which `pbem sign` writes), replaces the orders recorded; two files from one template, sent in
the wrong order, keep the player's correction."""

from __future__ import annotations

import shutil
import subprocess
import time
from collections.abc import Callable
from pathlib import Path

import pytest

from pbem import api, yamlio
from tests.conftest import Result, need_tool, tree_state


@pytest.fixture
def camp(south_by_bob: Path) -> Path:
    return south_by_bob


def _two_from_one_template(camp: Path, tmp_path: Path, pbem: Callable[..., Result],
                           *, sign: bool = True) -> tuple[Path, Path]:
    """The same template filled twice (the second a correction), each signed in turn."""
    files = []
    for i, seed in enumerate(("first", "second")):
        path = tmp_path / f"south-{i}.yaml"
        assert pbem("-C", camp, "bot", "south", "--seed", seed, "--out", path).code == 0
        files.append(path)
    for path in files:
        if sign:
            assert pbem("-C", camp, "sign", path, "--key", tmp_path / "bob_ed25519").code == 0
            time.sleep(0.01)
    assert yamlio.read_trusted(files[0])["head"] == yamlio.read_trusted(files[1])["head"]
    return files[0], files[1]


def _recorded_body(camp: Path) -> object:
    from pbem.campaign import Campaign

    return Campaign.open(camp).state()["pending"]["south"]


def test_the_older_of_two_files_cannot_undo_the_correction(
        camp: Path, tmp_path: Path, pbem: Callable[..., Result]) -> None:
    old, new = _two_from_one_template(camp, tmp_path, pbem)
    assert yamlio.read_trusted(old)["signed"] < yamlio.read_trusted(new)["signed"]
    assert pbem("-C", camp, "apply", new).code == 0
    before = tree_state(camp)
    r = pbem("-C", camp, "apply", old)
    assert r.code == 1
    assert "orders of south naming the same head are recorded already" in r.err
    assert "only a file signed later replaces them" in r.err
    assert tree_state(camp) == before


def test_the_correction_signed_later_replaces_the_first(
        camp: Path, tmp_path: Path, pbem: Callable[..., Result]) -> None:
    old, new = _two_from_one_template(camp, tmp_path, pbem)
    assert pbem("-C", camp, "apply", old).code == 0
    r = pbem("-C", camp, "apply", new)
    assert r.code == 0, r.err
    assert "replacing the earlier file" in api.log(camp)[-1]["summary"]
    assert pbem("-C", camp, "audit").code == 0


def test_files_signed_by_hand_without_a_time_cannot_replace_each_other(
        camp: Path, tmp_path: Path, pbem: Callable[..., Result]) -> None:
    keygen = need_tool("ssh-keygen")
    old, new = _two_from_one_template(camp, tmp_path, pbem, sign=False)
    for path in (old, new):
        shutil.copy(tmp_path / "bob_ed25519", tmp_path / "k")
        (tmp_path / "k").chmod(0o600)
        done = subprocess.run([keygen, "-Y", "sign", "-n", "pbem-orders-v1", "-f",
                               str(tmp_path / "k"), str(path)], capture_output=True, text=True)
        assert done.returncode == 0, done.stderr
    assert pbem("-C", camp, "apply", old).code == 0
    r = pbem("-C", camp, "apply", new)
    assert r.code == 1 and "signed at no given time" in r.err


def test_signed_must_be_a_time(camp: Path, tmp_path: Path, pbem: Callable[..., Result]) -> None:
    keygen = need_tool("ssh-keygen")
    path = tmp_path / "o.yaml"
    assert pbem("-C", camp, "bot", "south", "--out", path).code == 0
    path.write_text(path.read_text() + "signed: yesterday\n")
    shutil.copy(tmp_path / "bob_ed25519", tmp_path / "k")
    (tmp_path / "k").chmod(0o600)
    done = subprocess.run([keygen, "-Y", "sign", "-n", "pbem-orders-v1", "-f", str(tmp_path / "k"),
                           str(path)], capture_output=True, text=True)
    assert done.returncode == 0, done.stderr
    r = pbem("-C", camp, "check", path)
    assert r.code == 1 and "'signed' is the UTC time pbem sign wrote" in r.err
    # pbem sign writes the time itself, replacing what was there
    assert pbem("-C", camp, "sign", path, "--key", tmp_path / "bob_ed25519").code == 0
    assert yamlio.read_trusted(path)["signed"].endswith("Z")
    assert pbem("-C", camp, "check", path).code == 0
