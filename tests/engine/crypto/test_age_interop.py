"""pbem.crypto.age round-trips with Debian's `age` and `age-keygen` (docs/design.md
"Envelopes")."""

from __future__ import annotations

import os
import subprocess
from pathlib import Path

import pytest

from pbem.crypto import age
from pbem.errors import CryptoError
from tests.conftest import need_tool as require_tool


@pytest.fixture
def home(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """A fake home, so the tools never see the real one."""
    monkeypatch.setenv("HOME", str(tmp_path))
    monkeypatch.chdir(tmp_path)
    return tmp_path


PLAINTEXTS = [b"", b"3", "sealed orders: é\n".encode(), os.urandom(64 * 1024), os.urandom(150_000)]


@pytest.mark.parametrize("armor", [True, False], ids=["armored", "binary"])
@pytest.mark.parametrize("plaintext", PLAINTEXTS, ids=lambda p: f"{len(p)}B")
def test_pbem_encrypts_age_decrypts(home: Path, armor: bool, plaintext: bytes) -> None:
    age_cmd = require_tool("age")
    identity, recipient = age.generate_identity()
    key = home / "key.txt"
    key.write_text(age.identity_file_text(identity))
    (home / "f.age").write_bytes(age.encrypt(plaintext, [recipient], armor=armor))
    out = subprocess.run(
        [age_cmd, "-d", "-i", str(key), str(home / "f.age")], capture_output=True, check=True
    )
    assert out.stdout == plaintext


def test_pbem_encrypts_to_several_recipients(home: Path) -> None:
    age_cmd = require_tool("age")
    pairs = [age.generate_identity() for _ in range(3)]
    data = age.encrypt(b"for all", [r for _, r in pairs])
    for n, (identity, _) in enumerate(pairs):
        key = home / f"key{n}.txt"
        key.write_text(age.identity_file_text(identity))
        out = subprocess.run([age_cmd, "-d", "-i", str(key)], input=data, capture_output=True)
        assert out.returncode == 0 and out.stdout == b"for all"


@pytest.mark.parametrize("flags", [[], ["-a"]], ids=["binary", "armored"])
@pytest.mark.parametrize("plaintext", PLAINTEXTS, ids=lambda p: f"{len(p)}B")
def test_age_encrypts_pbem_decrypts(home: Path, flags: list[str], plaintext: bytes) -> None:
    age_cmd = require_tool("age")
    keygen = require_tool("age-keygen")
    subprocess.run([keygen, "-o", "key.txt"], capture_output=True, check=True)
    identities = age.read_identities((home / "key.txt").read_text())
    recipient = age.recipient_of(identities[0])
    assert f"# public key: {recipient}" in (home / "key.txt").read_text()
    out = subprocess.run(
        [age_cmd, *flags, "-r", recipient], input=plaintext, capture_output=True, check=True
    )
    assert age.decrypt(out.stdout, identities) == plaintext


def test_age_keygen_recipient_matches(home: Path) -> None:
    keygen = require_tool("age-keygen")
    identity, recipient = age.generate_identity()
    (home / "key.txt").write_text(age.identity_file_text(identity))
    out = subprocess.run([keygen, "-y", "key.txt"], capture_output=True, text=True, check=True)
    assert out.stdout.strip() == recipient


def test_wrong_identity_from_age(home: Path) -> None:
    age_cmd = require_tool("age")
    _, recipient = age.generate_identity()
    other, _ = age.generate_identity()
    out = subprocess.run([age_cmd, "-a", "-r", recipient], input=b"x", capture_output=True)
    with pytest.raises(CryptoError, match="no identity matches"):
        age.decrypt(out.stdout, [other])
