"""pbem.crypto.keys: known answers, exact messages and the edges of padding and key files.

These tests kill the mutants `python benchmarks/mutation.py pbem/crypto/keys.py` found alive.
The derivations are recomputed here from their definitions (hashlib, hmac, the
cryptography package, `age-keygen -y`), not through pbem.
"""

from __future__ import annotations

import base64
import hashlib
import hmac
import json
import os
import stat
import struct
import subprocess
from pathlib import Path

import pytest
from cryptography.hazmat.primitives import serialization
from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PrivateKey

from pbem.crypto import age, sshsig
from pbem.crypto import keys as crypto
from pbem.errors import CryptoError, KeyFileError
from tests.conftest import need_tool

SEED = bytes(range(32))
KEY = Ed25519PrivateKey.from_private_bytes(SEED)
PUBLIC = "ssh-ed25519 AAAAC3NzaC1lZDI1NTE5AAAAIAOhB7/zzhC+HXDdGOdLwJln5NYwm6UNXx3chmQSVTG4"
ENTRY = {"seq": 1, "a": "b"}
ENTRY_SIG = ("WPKyDEAIBqNh8tTDMG5mtS+Pi6VmPdQno499jOQj0QaCxJg3ghRtIHWXaDItaLkYS2sni6Vh3QM35wPQAt"
             "xFBg==")
CTX = {"campaign": "c", "kind": "k", "id": "i", "turn": 1, "owner": "o"}
COMMIT_HEX = "d25bbb03d9c0f57b3e5a74c5fd6c1d1cf0a802d1c903e3ffe71986b711cc2582"
CARD = ("age1whawxsmfs37tj9q20rqrf9rdr5kgz0u5lszqqq0gfv4dp89pzufqm9q08r\n"
        "ssh-ed25519 AAAAC3NzaC1lZDI1NTE5AAAAIK40sDIqscoOu6Qvm0RTmiQhgZ91n06N2SuAh8zH/wNQ red\n")


# ------------------------------------------------------------------ entry signatures


def test_entry_signature_known_answer() -> None:
    assert crypto.sign_entry(KEY, ENTRY) == ENTRY_SIG
    assert base64.b64decode(ENTRY_SIG) == KEY.sign(b'{"a":"b","seq":1}')
    assert crypto.verify_entry(PUBLIC, ENTRY, ENTRY_SIG) is True
    assert crypto.verify_entry(PUBLIC, {"seq": 2, "a": "b"}, ENTRY_SIG) is False
    assert crypto.verify_entry(PUBLIC, ENTRY, ENTRY_SIG[:-4]) is False  # too short
    assert crypto.verify_entry(PUBLIC, ENTRY, "*" + ENTRY_SIG[1:]) is False  # not base64
    with pytest.raises(KeyFileError) as exc:
        crypto.verify_entry("nonsense", ENTRY, ENTRY_SIG)
    assert str(exc.value) == "the signer's public key: not an OpenSSH public key line"


# --------------------------------------------------------------------------- padding


def test_pad_exact_bytes_and_sizes() -> None:
    assert crypto.pad(b"abc", 8) == b"\x00\x00\x00\x03abc\x00"
    assert crypto.pad(b"abcd", 8) == b"\x00\x00\x00\x04abcd"  # exactly full
    assert crypto.pad(b"abcde", 8) == b"\x00\x00\x00\x05abcde" + bytes(7)  # the next block
    assert crypto.pad(b"", 5) == bytes(5)
    assert crypto.pad(b"x") == b"\x00\x00\x00\x01x" + bytes(507)
    assert len(crypto.pad(bytes(508))) == 512
    assert len(crypto.pad(bytes(509))) == 1024
    assert crypto.PAD_SIZE == 512
    with pytest.raises(ValueError) as exc:
        crypto.pad(b"", 4)
    assert str(exc.value) == "the pad size must leave room for the length and data"


def test_unpad_edges_and_messages() -> None:
    assert crypto.unpad(bytes(4), 4) == b""
    assert crypto.unpad(b"\x00\x00\x00\x04abcd", 8) == b"abcd"
    assert crypto.unpad(crypto.pad(b"abcde", 8), 8) == b"abcde"
    assert crypto.unpad(crypto.pad(b"hello")) == b"hello"

    def error(padded: bytes, size: int = 8) -> str:
        with pytest.raises(CryptoError) as exc:
            crypto.unpad(padded, size)
        return str(exc.value)

    assert error(b"\x00\x00\x00") == "malformed padding: too short"
    assert error(b"\x00\x00\x00\x05abcd") == "malformed padding: the length does not match"
    assert error(b"\x00\x00\x00\x03abc\x00" + bytes(8)) == (
        "malformed padding: the length does not match")
    assert error(b"\x00\x00\x00\x02abc\x00") == "malformed padding: non-zero padding bytes"
    assert error(b"\x00\x00\x00\x03abc\x01") == "malformed padding: non-zero padding bytes"


# ------------------------------------------------------------------------- envelopes


def test_seal_and_unseal_known_parts() -> None:
    identity, recipient = age.generate_identity()
    sealed = crypto.seal({"b": 1, "a": [True, None]}, [recipient])
    assert isinstance(sealed, str)
    assert sealed.startswith("-----BEGIN AGE ENCRYPTED FILE-----\n")
    plain = age.decrypt(sealed.encode(), [identity])
    assert plain == crypto.pad(b'{"a":[true,null],"b":1}')
    assert crypto.unseal(sealed, [identity]) == {"b": 1, "a": [True, None]}


@pytest.mark.parametrize("content", [b'{"a": 1}', b'{"a":1', b'"\xff"', b"NaN"])
def test_unseal_refuses_what_is_not_canonical_json(content: bytes) -> None:
    identity, recipient = age.generate_identity()
    text = age.encrypt(crypto.pad(content), [recipient], armor=True).decode()
    with pytest.raises(CryptoError) as exc:
        crypto.unseal(text, [identity])
    assert str(exc.value) == "the sealed value is not canonical JSON"


# ----------------------------------------------------------------------- commitments


def test_commitment_known_answer() -> None:
    context = json.dumps(CTX, sort_keys=True, separators=(",", ":")).encode()
    expected = hashlib.sha256(b"pbem-commit-v1\x00" + struct.pack(">I", len(context)) + context
                              + bytes(32) + b'{"v":3}').hexdigest()
    assert expected == COMMIT_HEX
    assert crypto.commit(CTX, {"v": 3}, bytes(32)) == (COMMIT_HEX, bytes(32))
    assert crypto.check_commitment(COMMIT_HEX, CTX, bytes(32), {"v": 3}) is True
    assert crypto.check_commitment(COMMIT_HEX.upper(), CTX, bytes(32), {"v": 3}) is True
    assert crypto.check_commitment(COMMIT_HEX, CTX, bytes(32), {"v": 4}) is False
    assert crypto.check_commitment(COMMIT_HEX, CTX, bytes(31), {"v": 3}) is False
    assert crypto.check_commitment(COMMIT_HEX, CTX, bytes(33), {"v": 3}) is False
    c, nonce = crypto.commit(CTX, {"v": 3})
    assert len(nonce) == 32 and nonce != bytes(32)
    assert crypto.check_commitment(c, CTX, nonce, {"v": 3}) is True


def test_commitment_messages() -> None:
    with pytest.raises(ValueError) as exc:
        crypto.commit({**CTX, "extra": 1, "turn": 2}, 1, bytes(32))
    assert str(exc.value) == (
        "commitment context needs exactly ['campaign', 'id', 'kind', 'owner', 'turn']; "
        "missing [], extra ['extra']")
    ctx = dict(CTX)
    del ctx["owner"], ctx["id"]
    with pytest.raises(ValueError) as exc:
        crypto.commit(ctx, 1, bytes(32))
    assert str(exc.value) == (
        "commitment context needs exactly ['campaign', 'id', 'kind', 'owner', 'turn']; "
        "missing ['id', 'owner'], extra []")
    with pytest.raises(ValueError) as exc:
        crypto.commit(CTX, 1, bytes(31))
    assert str(exc.value) == "a commitment nonce is 32 bytes"


# ------------------------------------------------------------------------- key files


def derive(purpose: bytes) -> bytes:
    return hmac.new(SEED, b"pbem-key-v1\x00" + purpose, hashlib.sha256).digest()


def test_keygen_from_material_known_answer(tmp_path: Path) -> None:
    old = os.umask(0o077)  # the modes must be exact whatever the umask
    try:
        card = crypto.keygen_files(tmp_path / "red", material=SEED)
    finally:
        os.umask(old)
    assert card == CARD
    recipient, ssh_line = card.splitlines()
    key, private, public = (tmp_path / n for n in ("red.key", "red_ed25519", "red_ed25519.pub"))
    assert stat.S_IMODE(key.stat().st_mode) == 0o600
    assert stat.S_IMODE(private.stat().st_mode) == 0o600
    assert stat.S_IMODE(public.stat().st_mode) == 0o644
    assert public.read_text() == ssh_line + "\n"
    seed = crypto.load_ssh_private_file(private).private_bytes_raw()
    assert seed == derive(b"ssh-ed25519")
    raw = Ed25519PrivateKey.from_private_bytes(seed).public_key().public_bytes(
        serialization.Encoding.OpenSSH, serialization.PublicFormat.OpenSSH).decode()
    assert ssh_line == raw + " red"
    out = subprocess.run([need_tool("age-keygen"), "-y", str(key)], capture_output=True,
                         text=True, check=True)
    assert out.stdout == recipient + "\n"
    assert crypto.load_identity_file(key) == [age.identity_from_bytes(derive(b"age-x25519"))[0]]


def test_keygen_refuses_to_overwrite_any_of_the_three(tmp_path: Path) -> None:
    for n, name in enumerate(("a.key", "b_ed25519", "c_ed25519.pub")):
        (tmp_path / name).write_text("keep")
        stem = tmp_path / name.partition(".")[0].partition("_")[0]
        with pytest.raises(KeyFileError) as exc:
            crypto.keygen_files(stem)
        assert str(exc.value) == f"{tmp_path / name}: already exists; pbem will not overwrite a key"
        assert sorted(p.name for p in tmp_path.iterdir()) == sorted(
            ["a.key", "b_ed25519", "c_ed25519.pub"][: n + 1])


def test_write_new_messages(tmp_path: Path) -> None:
    target = tmp_path / "x"
    crypto._write_new(target, b"data", 0o640)
    assert target.read_bytes() == b"data"
    assert stat.S_IMODE(target.stat().st_mode) == 0o640
    with pytest.raises(KeyFileError) as exc:
        crypto._write_new(target, b"other", 0o600)
    assert str(exc.value) == f"{target}: already exists; pbem will not overwrite a key"
    assert target.read_bytes() == b"data"
    with pytest.raises(KeyFileError) as exc:
        crypto.keygen_files(tmp_path / "missing" / "red")
    assert str(exc.value) == f"{tmp_path / 'missing' / 'red.key'}: cannot write (No such file or directory)"


def test_key_card_reading(tmp_path: Path) -> None:
    recipient, ssh_line = CARD.splitlines()
    card = tmp_path / "card"
    card.write_text(f"  # a comment\n\n  {ssh_line}  \n#age1notakey\n{recipient}\n")
    assert crypto.read_key_card(card) == (recipient, ssh_line)

    def error(text: str) -> str:
        card.write_text(text)
        with pytest.raises(KeyFileError) as exc:
            crypto.read_key_card(card)
        return str(exc.value)

    needs = (f"{card}: a public key card needs exactly one ssh-ed25519 line (an id_ed25519.pub "
             "is a whole card) and at most one age1... line")
    assert error(f"{recipient}\n") == needs
    assert error(f"{recipient}\n{recipient}\n{ssh_line}\n") == needs
    assert error(f"{recipient}\n{ssh_line}\n{ssh_line}\n") == needs
    card.write_text(f"{ssh_line}\n")  # an id_ed25519.pub alone: the SSH key is the recipient
    assert crypto.read_key_card(card) == (" ".join(ssh_line.split()[:2]), ssh_line)
    assert error(f"{recipient}\n{ssh_line}\nsomething else that is long, longer than forty\n") == (
        f"{card}: unexpected line 'something else that is long, longer than' in a public key card")
    assert error(f"age1qqqq\n{ssh_line}\n").startswith(f"{card}: ")
    assert error(f"{recipient}\nssh-rsa AAAA\n") == f"{card}: not an OpenSSH public key line"
    with pytest.raises(KeyFileError) as exc:
        crypto.read_key_card(tmp_path / "none")
    assert str(exc.value) == f"{tmp_path / 'none'}: no such file"
    (tmp_path / "bin").write_bytes(b"\xff\xfe")
    with pytest.raises(KeyFileError) as exc:
        crypto.read_key_card(tmp_path / "bin")
    assert str(exc.value).startswith(f"{tmp_path / 'bin'}: unreadable (")


def test_the_first_existing_key_file_is_used(tmp_path: Path) -> None:
    crypto.keygen_files(tmp_path / "red", material=SEED)
    places = [tmp_path / "nowhere.key", tmp_path / "red.key"]
    assert crypto.load_identity_file(places) == crypto.load_identity_file(tmp_path / "red.key")
    ssh_places = [tmp_path / "nowhere", tmp_path / "red_ed25519"]
    assert crypto.load_ssh_private_file(ssh_places).private_bytes_raw() == derive(b"ssh-ed25519")
    with pytest.raises(KeyFileError) as exc:
        crypto.load_identity_file([tmp_path / "a.key", tmp_path / "b.key"])
    assert str(exc.value) == "no age identity file found"
    assert exc.value.details == [f"looked in: {tmp_path / 'a.key'}", f"looked in: {tmp_path / 'b.key'}"]
    with pytest.raises(KeyFileError) as exc:
        crypto.load_ssh_private_file(tmp_path / "c")
    assert str(exc.value) == "no SSH private key file found"
    assert exc.value.details == [f"looked in: {tmp_path / 'c'}"]
    (tmp_path / "dir_ed25519").mkdir()
    with pytest.raises(KeyFileError) as exc:
        crypto.load_ssh_private_file(tmp_path / "dir_ed25519")
    assert str(exc.value) == f"{tmp_path / 'dir_ed25519'}: unreadable (Is a directory)"
    (tmp_path / "bad.key").write_text("AGE-SECRET-KEY-1QQQQ\n")
    with pytest.raises(KeyFileError) as exc:
        crypto.load_identity_file(tmp_path / "bad.key")
    assert str(exc.value).startswith(f"{tmp_path / 'bad.key'}: not an age identity file: ")
    assert sshsig.public_line(KEY.public_key()) == PUBLIC


def test_a_signature_with_a_stray_character_is_false() -> None:
    assert crypto.verify_entry(PUBLIC, ENTRY, ENTRY_SIG[:10] + "*" + ENTRY_SIG[10:]) is False
    assert crypto.verify_entry(PUBLIC, ENTRY, ENTRY_SIG[:10] + "\n" + ENTRY_SIG[10:]) is False


def test_a_length_with_the_high_bit_set_does_not_match() -> None:
    with pytest.raises(CryptoError) as exc:
        crypto.unpad(b"\xff\xff\xff\xff" + bytes(508))
    assert str(exc.value) == "malformed padding: the length does not match"


def test_a_key_file_is_never_wider_than_its_mode(tmp_path: Path,
                                                 monkeypatch: pytest.MonkeyPatch) -> None:
    # the mode is given to open(), so the key is never readable by others, not even
    # between writing it and the chmod that corrects the umask
    monkeypatch.setattr(crypto.os, "chmod", lambda *args: None)
    old = os.umask(0o022)
    try:
        crypto._write_new(tmp_path / "k", b"secret", 0o600)
    finally:
        os.umask(old)
    assert stat.S_IMODE((tmp_path / "k").stat().st_mode) == 0o600


def test_random_keys_carry_the_stem_as_comment(tmp_path: Path) -> None:
    card = crypto.keygen_files(tmp_path / "south")
    recipient, ssh_line = card.splitlines()
    assert recipient.startswith("age1") and ssh_line.startswith("ssh-ed25519 ")
    assert ssh_line.endswith(" south")
    assert (tmp_path / "south_ed25519.pub").read_text() == ssh_line + "\n"
