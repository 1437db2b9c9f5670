"""SSHSIG orders signatures interoperate with `ssh-keygen -Y` (docs/design.md
"Orders signatures")."""

from __future__ import annotations

import subprocess
from pathlib import Path

import pytest

from pbem.crypto import sshsig
from pbem.errors import KeyFileError, SignatureError
from tests.conftest import need_tool as require_tool

NAMESPACE = "pbem-orders-v1"
ORDERS = b"campaign: demo\nturn: 3\nfaction: red\nhead: abc123\norders:\n  - move A1 B2\n"




@pytest.fixture
def home(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """A fake home, so ssh-keygen never reads or writes the real ~/.ssh."""
    monkeypatch.setenv("HOME", str(tmp_path))
    monkeypatch.chdir(tmp_path)
    return tmp_path


def ssh_keygen_key(home: Path, name: str, *args: str) -> Path:
    tool = require_tool("ssh-keygen")
    path = home / name
    subprocess.run(
        [tool, "-q", *args, "-N", "", "-C", name, "-f", str(path)], check=True, capture_output=True
    )
    return path


def test_pbem_signs_ssh_keygen_verifies(home: Path) -> None:
    tool = require_tool("ssh-keygen")
    private, public = sshsig.generate_ssh_key("red")
    key = sshsig.load_private_key(private, "generated")
    (home / "orders.yaml").write_bytes(ORDERS)
    (home / "orders.yaml.sig").write_text(sshsig.sign(key, ORDERS, NAMESPACE))
    (home / "allowed_signers").write_text(f"faction {public}\n")
    with (home / "orders.yaml").open("rb") as stdin:
        out = subprocess.run(
            [tool, "-Y", "verify", "-f", "allowed_signers", "-I", "faction", "-n", NAMESPACE,
             "-s", "orders.yaml.sig"],
            stdin=stdin, capture_output=True, text=True,
        )  # fmt: skip
    assert out.returncode == 0, out.stderr
    assert "Good" in out.stdout


def test_ssh_keygen_signs_pbem_verifies(home: Path) -> None:
    tool = require_tool("ssh-keygen")
    key = ssh_keygen_key(home, "red", "-t", "ed25519")
    (home / "orders.yaml").write_bytes(ORDERS)
    subprocess.run(
        [tool, "-Y", "sign", "-n", NAMESPACE, "-f", str(key), "orders.yaml"],
        check=True, capture_output=True,
    )  # fmt: skip
    signature = (home / "orders.yaml.sig").read_text()
    public = (home / "red.pub").read_text()
    sshsig.verify(public, ORDERS, signature, NAMESPACE)
    # Ed25519 is deterministic, so pbem writes exactly what ssh-keygen wrote.
    private = sshsig.load_private_key(key.read_bytes(), str(key))
    assert sshsig.sign(private, ORDERS, NAMESPACE) == signature


@pytest.fixture
def signed() -> tuple[str, str]:
    private, public = sshsig.generate_ssh_key("red")
    key = sshsig.load_private_key(private, "generated")
    return public, sshsig.sign(key, ORDERS, NAMESPACE)


def test_round_trip(signed: tuple[str, str]) -> None:
    public, signature = signed
    sshsig.verify(public, ORDERS, signature, NAMESPACE)


@pytest.mark.parametrize("index", [0, 17, len(ORDERS) - 1])
def test_changed_byte_fails(signed: tuple[str, str], index: int) -> None:
    public, signature = signed
    changed = bytearray(ORDERS)
    changed[index] ^= 1
    with pytest.raises(SignatureError, match="does not match"):
        sshsig.verify(public, bytes(changed), signature, NAMESPACE)


def test_another_key_fails(signed: tuple[str, str]) -> None:
    _, signature = signed
    _, other = sshsig.generate_ssh_key("blue")
    with pytest.raises(SignatureError, match="another key"):
        sshsig.verify(other, ORDERS, signature, NAMESPACE)


def test_another_namespace_fails(signed: tuple[str, str]) -> None:
    public, signature = signed
    with pytest.raises(SignatureError, match="namespace"):
        sshsig.verify(public, ORDERS, signature, "file")


@pytest.mark.parametrize(
    "mangle",
    [
        lambda s: s.replace("BEGIN SSH SIGNATURE", "BEGIN PGP SIGNATURE"),
        lambda s: s.replace("-----END SSH SIGNATURE-----", ""),
        lambda s: s[:40] + "*" + s[41:],
        lambda s: "\n".join(s.splitlines()[:2] + s.splitlines()[-1:]),
        lambda s: "",
    ],
    ids=["wrong-type", "no-end", "bad-char", "truncated", "empty"],
)
def test_malformed_armor_fails(signed: tuple[str, str], mangle: object) -> None:
    public, signature = signed
    assert callable(mangle)
    with pytest.raises(SignatureError, match="malformed"):
        sshsig.verify(public, ORDERS, mangle(signature), NAMESPACE)


def test_rsa_key_file_is_refused(home: Path) -> None:
    key = ssh_keygen_key(home, "rsa", "-t", "rsa", "-b", "2048")
    with pytest.raises(KeyFileError, match="rsa.*not ed25519"):
        sshsig.load_private_key(key.read_bytes(), str(key))
    with pytest.raises(KeyFileError, match="not ssh-ed25519"):
        sshsig.load_public_key((home / "rsa.pub").read_text(), "rsa.pub")


def test_encrypted_key_file_is_refused(home: Path) -> None:
    tool = require_tool("ssh-keygen")
    path = home / "locked"
    subprocess.run(
        [tool, "-q", "-t", "ed25519", "-N", "secret", "-f", str(path)],
        check=True, capture_output=True,
    )  # fmt: skip
    with pytest.raises(KeyFileError, match="locked.*encrypted"):
        sshsig.load_private_key(path.read_bytes(), str(path))


@pytest.mark.parametrize("data", [b"", b"garbage", b"-----BEGIN OPENSSH PRIVATE KEY-----\nAAAA\n"])
def test_garbage_key_file_is_refused(data: bytes) -> None:
    with pytest.raises(KeyFileError, match="keyfile: "):
        sshsig.load_private_key(data, "keyfile")
    with pytest.raises(KeyFileError, match="keyfile: "):
        sshsig.load_public_key(data.decode(), "keyfile")
