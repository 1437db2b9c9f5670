"""SSHSIG orders signatures (pbem.crypto.sshsig) interoperate with `ssh-keygen -Y`
(docs/design.md "Orders signatures"); a known-answer signature and every error message,
exactly."""

from __future__ import annotations

import base64
import struct
import subprocess
from pathlib import Path

import pytest
from cryptography.hazmat.primitives import serialization
from cryptography.hazmat.primitives.asymmetric import ec
from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PrivateKey

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


# ---------------------------------------------------------------------------------------
# exactly: Ed25519 is deterministic, so a fixed key signs a fixed file to one armored text,
# which `ssh-keygen -Y sign` writes byte for byte too. The malformed signatures are built
# field by field (PROTOCOL.sshsig), one wrong field each, so each message is reached on its
# own.

NS = "pbem-orders-v1"
DATA = b"campaign: demo\n"
SEED = bytes(range(32))
PUBLIC = "ssh-ed25519 AAAAC3NzaC1lZDI1NTE5AAAAIAOhB7/zzhC+HXDdGOdLwJln5NYwm6UNXx3chmQSVTG4"
SIGNATURE = """\
-----BEGIN SSH SIGNATURE-----
U1NIU0lHAAAAAQAAADMAAAALc3NoLWVkMjU1MTkAAAAgA6EHv/POEL4dcN0Y50vAmWfk1j
CbpQ1fHdyGZBJVMbgAAAAOcGJlbS1vcmRlcnMtdjEAAAAAAAAABnNoYTUxMgAAAFMAAAAL
c3NoLWVkMjU1MTkAAABAvrmVnexBYTT9dBFbvaqb59IIbNZjAE6/E+6N9e1tL9/QlG/YIJ
BE+1Isfzwbvwh6xscMCN5WvL0iwATwUPjpBg==
-----END SSH SIGNATURE-----
"""


def string(data: bytes) -> bytes:
    return struct.pack(">I", len(data)) + data


def key() -> Ed25519PrivateKey:
    return Ed25519PrivateKey.from_private_bytes(SEED)


def key_blob() -> bytes:
    return string(b"ssh-ed25519") + string(key().public_key().public_bytes_raw())


def signed_data(namespace: bytes, hash_name: bytes, digest: bytes) -> bytes:
    return b"SSHSIG" + string(namespace) + string(b"") + string(hash_name) + string(digest)


def blob(*, magic: bytes = b"SSHSIG", version: int = 1, signer: bytes | None = None,
         namespace: bytes = NS.encode(), hash_name: bytes = b"sha512", sig_type: bytes = b"ssh-ed25519",
         raw: bytes | None = None, sig_tail: bytes = b"", tail: bytes = b"") -> bytes:
    """An SSHSIG blob, right unless told otherwise (the signature covers `hash_name`)."""
    import hashlib

    if raw is None:
        digest = hashlib.new(hash_name.decode() if hash_name in (b"sha256", b"sha512")
                             else "sha512", DATA).digest()
        raw = key().sign(signed_data(namespace, hash_name, digest))
    signature = string(sig_type) + string(raw) + sig_tail
    return (magic + struct.pack(">I", version) + string(key_blob() if signer is None else signer)
            + string(namespace) + string(b"") + string(hash_name) + string(signature) + tail)


def armor(data: bytes, columns: int = 70) -> str:
    text = base64.b64encode(data).decode()
    body = [text[i:i + columns] for i in range(0, len(text), columns)]
    return "\n".join(["-----BEGIN SSH SIGNATURE-----", *body, "-----END SSH SIGNATURE-----"]) + "\n"


def verify_error(signature: str, namespace: str = NS) -> str:
    with pytest.raises(SignatureError) as exc:
        sshsig.verify(PUBLIC, DATA, signature, namespace)
    return str(exc.value)


# ---------------------------------------------------------------------- known answers


def test_known_answer_key_and_signature() -> None:
    private, public = sshsig.ssh_key_from_bytes(SEED, "red")
    assert public == PUBLIC + " red"
    loaded = sshsig.load_private_key(private, "k")
    assert loaded.private_bytes_raw() == SEED
    assert sshsig.public_line(loaded.public_key()) == PUBLIC  # no comment, no trailing space
    assert sshsig.sign(loaded, DATA, NS) == SIGNATURE
    assert armor(blob()) == SIGNATURE
    sshsig.verify(PUBLIC, DATA, SIGNATURE, NS)
    sshsig.verify(PUBLIC + " red", DATA, SIGNATURE, NS)


def test_ssh_keygen_writes_the_same_signature(tmp_path: Path) -> None:
    tool = require_tool("ssh-keygen")
    private, public = sshsig.ssh_key_from_bytes(SEED, "red")
    (tmp_path / "id").write_bytes(private)
    (tmp_path / "id").chmod(0o600)
    (tmp_path / "orders.yaml").write_bytes(DATA)
    subprocess.run([tool, "-Y", "sign", "-f", str(tmp_path / "id"), "-n", NS,
                    str(tmp_path / "orders.yaml")], check=True, capture_output=True)
    assert (tmp_path / "orders.yaml.sig").read_text() == SIGNATURE
    # and a sha256 signature from ssh-keygen verifies too
    (tmp_path / "orders.yaml.sig").unlink()
    subprocess.run([tool, "-Y", "sign", "-O", "hashalg=sha256", "-f", str(tmp_path / "id"),
                    "-n", NS, str(tmp_path / "orders.yaml")], check=True, capture_output=True)
    sha256_signature = (tmp_path / "orders.yaml.sig").read_text()
    assert sha256_signature == armor(blob(hash_name=b"sha256"))
    sshsig.verify(public, DATA, sha256_signature, NS)


def test_generated_keys_carry_their_comment() -> None:
    private, public = sshsig.generate_ssh_key("south")
    key_type, body, comment = public.split(" ")
    assert (key_type, comment) == ("ssh-ed25519", "south")
    loaded = sshsig.load_private_key(private, "k")
    assert sshsig.public_line(loaded.public_key(), "south") == public
    assert private.startswith(b"-----BEGIN OPENSSH PRIVATE KEY-----\n")
    _, bare = sshsig.generate_ssh_key("")
    assert bare.count(" ") == 1


def test_any_line_wrapping_and_line_ends_are_read() -> None:
    one_line = armor(blob(), columns=10_000)
    assert len(one_line.splitlines()) == 3
    sshsig.verify(PUBLIC, DATA, one_line, NS)
    sshsig.verify(PUBLIC, DATA, "\n  " + SIGNATURE.replace("\n", "\r\n  ") + "\n\n", NS)


# ------------------------------------------------------------------------- the errors


def test_sign_needs_a_namespace() -> None:
    with pytest.raises(ValueError) as exc:
        sshsig.sign(key(), DATA, "")
    assert str(exc.value) == "an SSHSIG namespace must not be empty"


def test_armor_errors() -> None:
    missing = "malformed SSH signature: missing BEGIN/END SSH SIGNATURE lines"
    assert verify_error("-----BEGIN SSH SIGNATURE-----\n-----END SSH SIGNATURE-----\n") == missing
    assert verify_error(SIGNATURE.replace("-----BEGIN", "-----START")) == missing
    assert verify_error(SIGNATURE.replace("-----END", "-----STOP")) == missing
    assert verify_error(SIGNATURE.replace("U1NI", "U1N*")) == "malformed SSH signature: invalid base64"


@pytest.mark.parametrize(
    ("signature", "message"),
    [
        (blob(magic=b"SSHSIH"), "malformed SSH signature: not an SSHSIG blob"),
        (blob(version=2), "unsupported SSH signature version"),
        (blob()[:-1], "malformed SSH signature: truncated"),
        (blob()[:10], "malformed SSH signature: truncated"),
        (blob(tail=b"\x00"), "malformed SSH signature: trailing data"),
        (blob(signer=string(b"ssh-ed25519") + string(bytes(32))),
         "the signature was made with another key than the expected signer's"),
        (blob(namespace=b"file"), "the signature is for namespace 'file', not 'pbem-orders-v1'"),
        (blob(namespace=b"\xff"), "the signature is for namespace '\ufffd', not 'pbem-orders-v1'"),
        (blob(hash_name=b"md5"), "unsupported SSH signature hash 'md5'"),
        (blob(hash_name=b"sha\xff"), "unsupported SSH signature hash 'sha\ufffd'"),
        (blob(sig_type=b"ssh-rsa"), "malformed SSH signature: not an ssh-ed25519 signature"),
        (blob(sig_tail=b"\x00"), "malformed SSH signature: trailing data"),
        (blob(raw=bytes(64)), "the signature does not match the signed file"),
    ],
    ids=["magic", "version", "cut-1", "cut-10", "trailing", "signer", "namespace",
         "namespace-bytes", "hash", "hash-bytes", "sig-type", "sig-trailing", "sig-bytes"],
)
def test_verify_errors(signature: bytes, message: str) -> None:
    assert verify_error(armor(signature)) == message


def test_a_sha256_signature_is_accepted_and_bound_to_its_hash() -> None:
    sshsig.verify(PUBLIC, DATA, armor(blob(hash_name=b"sha256")), NS)
    import hashlib

    # a sha512 signature relabelled sha256 no longer matches
    raw = key().sign(signed_data(NS.encode(), b"sha512", hashlib.sha512(DATA).digest()))
    assert verify_error(armor(blob(hash_name=b"sha256", raw=raw))) == (
        "the signature does not match the signed file")


def test_an_encrypted_key_is_refused(tmp_path: Path) -> None:
    path = tmp_path / "locked"
    subprocess.run([require_tool("ssh-keygen"), "-q", "-t", "ed25519", "-N", "secret", "-C", "",
                    "-f", str(path)], check=True, capture_output=True)
    with pytest.raises(KeyFileError) as exc:
        sshsig.load_private_key(path.read_bytes(), "locked")
    assert str(exc.value) == (
        "locked: the SSH key is encrypted (pbem needs a key without a passphrase); remove it "
        "from a copy kept for pbem (ssh-keygen -p -N '' -f COPY) or make a key without one "
        "(ssh-keygen -t ed25519 -N '')")


def test_key_errors_name_the_source() -> None:
    with pytest.raises(KeyFileError) as exc:
        sshsig.load_private_key(b"garbage", "keyfile")
    assert str(exc.value) == "keyfile: not an OpenSSH private key"
    with pytest.raises(KeyFileError) as exc:
        sshsig.load_private_key(b"\xff\xfe", "keyfile")
    assert str(exc.value) == "keyfile: not an OpenSSH private key"
    with pytest.raises(KeyFileError) as exc:
        sshsig.load_public_key("ssh-ed25519 !!!", "the.pub")
    assert str(exc.value) == "the.pub: not an OpenSSH public key line"
    ecdsa = ec.generate_private_key(ec.SECP256R1())
    private = ecdsa.private_bytes(serialization.Encoding.PEM, serialization.PrivateFormat.OpenSSH,
                                  serialization.NoEncryption())
    with pytest.raises(KeyFileError) as exc:
        sshsig.load_private_key(private, "ec")
    assert str(exc.value) == "ec: the SSH key is not ed25519 (pbem needs ssh-ed25519)"
    public = ecdsa.public_key().public_bytes(serialization.Encoding.OpenSSH,
                                             serialization.PublicFormat.OpenSSH).decode()
    with pytest.raises(KeyFileError) as exc:
        sshsig.load_public_key(public, "ec.pub")
    assert str(exc.value) == "ec.pub: the SSH public key is not ssh-ed25519"
    with pytest.raises(KeyFileError) as exc:
        sshsig.verify("not a key", DATA, SIGNATURE, NS)
    assert str(exc.value) == "the signer's public key: not an OpenSSH public key line"


def test_an_unknown_private_key_type_is_named() -> None:
    # an unencrypted openssh-key-v1 file (PROTOCOL.key) of a key type nobody knows
    public = string(b"ssh-foo") + string(b"x" * 32)
    private = struct.pack(">II", 1, 1) + public + string(b"y" * 64) + string(b"c")
    private += bytes(range(1, 1 + (-len(private)) % 8))
    body = (b"openssh-key-v1\x00" + string(b"none") + string(b"none") + string(b"")
            + struct.pack(">I", 1) + string(public) + string(private))
    pem = (b"-----BEGIN OPENSSH PRIVATE KEY-----\n" + base64.encodebytes(body)
           + b"-----END OPENSSH PRIVATE KEY-----\n")
    with pytest.raises(KeyFileError) as exc:
        sshsig.load_private_key(pem, "k")
    assert str(exc.value) == "k: unsupported SSH private key (Unsupported key type: b'ssh-foo')"


def test_stray_characters_in_the_armor_are_not_skipped() -> None:
    lines = SIGNATURE.splitlines()
    lines[2] = lines[2][:10] + "*" + lines[2][10:]  # inserted, so the rest still decodes
    assert verify_error("\n".join(lines) + "\n") == "malformed SSH signature: invalid base64"


def test_a_length_with_the_high_bit_set_is_truncation() -> None:
    # an unsigned 32-bit length (RFC 4251); read as signed it would be negative
    signature = b"SSHSIG" + struct.pack(">I", 1) + b"\x80\x00\x00\x00" + bytes(8)
    assert verify_error(armor(signature)) == "malformed SSH signature: truncated"
    assert verify_error(armor(b"SSHSIG\xff\xff\xff\xff")) == "unsupported SSH signature version"
