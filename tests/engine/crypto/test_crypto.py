"""pbem.crypto.keys: canonical JSON, entry signatures, padding, envelopes, commitments, key
files (docs/design.md "Secrets"): round trips and properties, known answers, exact messages
and the edges of padding and key files."""

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
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from pbem.crypto import age, sshsig
from pbem.crypto import keys as crypto
from pbem.errors import CryptoError, KeyFileError
from tests.conftest import need_tool as require_tool

IDENTITY, RECIPIENT = age.generate_identity()
REFEREE_IDENTITY, REFEREE = age.generate_identity()
SSH_PRIVATE, SSH_PUBLIC = sshsig.generate_ssh_key("referee")
SSH_KEY = sshsig.load_private_key(SSH_PRIVATE, "test key")

json_values = st.recursive(
    st.none() | st.booleans() | st.integers() | st.text(),
    lambda inner: st.lists(inner, max_size=5) | st.dictionaries(st.text(), inner, max_size=5),
    max_leaves=20,
)
contexts = st.fixed_dictionaries(
    {
        "campaign": st.text(min_size=1),
        "kind": st.sampled_from(["attack-spending", "hand", "face-down", "orders"]),
        "id": st.text(),
        "turn": st.integers(min_value=0, max_value=100),
        "owner": st.text(),
    }
)


# known answers: keys derived from a fixed seed, an entry they sign, a commitment, a key
# card (recomputed from their definitions: hashlib, hmac, the cryptography package,
# `age-keygen -y`, not through pbem)
SEED = bytes(range(32))
KEY = Ed25519PrivateKey.from_private_bytes(SEED)
PUBLIC = "ssh-ed25519 AAAAC3NzaC1lZDI1NTE5AAAAIAOhB7/zzhC+HXDdGOdLwJln5NYwm6UNXx3chmQSVTG4"
KNOWN_ENTRY = {"seq": 1, "a": "b"}
KNOWN_ENTRY_SIG = ("WPKyDEAIBqNh8tTDMG5mtS+Pi6VmPdQno499jOQj0QaCxJg3ghRtIHWXaDItaLkYS2sni6Vh3QM35wPQAt"
                   "xFBg==")
KNOWN_CTX = {"campaign": "c", "kind": "k", "id": "i", "turn": 1, "owner": "o"}
COMMIT_HEX = "d25bbb03d9c0f57b3e5a74c5fd6c1d1cf0a802d1c903e3ffe71986b711cc2582"
CARD = ("age1whawxsmfs37tj9q20rqrf9rdr5kgz0u5lszqqq0gfv4dp89pzufqm9q08r\n"
        "ssh-ed25519 AAAAC3NzaC1lZDI1NTE5AAAAIK40sDIqscoOu6Qvm0RTmiQhgZ91n06N2SuAh8zH/wNQ red\n")


# --- canonical JSON -----------------------------------------------------------------


def test_canonical_json_form() -> None:
    value = {"b": [1, True, None], "a": "é", "c": {"z": 1, "y": "x"}}
    assert (
        crypto.canonical_json(value) == '{"a":"é","b":[1,true,null],"c":{"y":"x","z":1}}'.encode()
    )


@pytest.mark.parametrize("bad", [1.5, {"a": [0.0]}, float("nan"), {1: "int key"}, {"a": b"x"}])
def test_canonical_json_rejects(bad: object) -> None:
    with pytest.raises(TypeError):
        crypto.canonical_json(bad)


@given(json_values)
def test_canonical_json_is_stable(value: object) -> None:
    encoded = crypto.canonical_json(value)
    assert crypto.canonical_json(json.loads(encoded)) == encoded


# --- entry signatures ---------------------------------------------------------------

ENTRY = {"seq": 4, "prev": "ab" * 32, "turn": 2, "phase": "combat", "events": [{"roll": 5}]}


def test_entry_signature_round_trip() -> None:
    sig = crypto.sign_entry(SSH_KEY, ENTRY)
    assert crypto.verify_entry(SSH_PUBLIC, ENTRY, sig)


@pytest.mark.parametrize(
    "change",
    [
        {"seq": 5},
        {"prev": "ab" * 31 + "ac"},
        {"turn": 3},
        {"phase": "movement"},
        {"events": [{"roll": 6}]},
        {"extra": None},
    ],
)
def test_entry_signature_fails_on_changed_field(change: dict[str, object]) -> None:
    sig = crypto.sign_entry(SSH_KEY, ENTRY)
    assert not crypto.verify_entry(SSH_PUBLIC, {**ENTRY, **change}, sig)


def test_entry_signature_fails_on_other_key_or_bad_sig() -> None:
    sig = crypto.sign_entry(SSH_KEY, ENTRY)
    _, other = sshsig.generate_ssh_key("other")
    assert not crypto.verify_entry(other, ENTRY, sig)
    assert not crypto.verify_entry(SSH_PUBLIC, ENTRY, "not base64!")
    assert not crypto.verify_entry(SSH_PUBLIC, ENTRY, base64.b64encode(b"short").decode())


def test_entry_signature_known_answer() -> None:
    assert crypto.sign_entry(KEY, KNOWN_ENTRY) == KNOWN_ENTRY_SIG
    assert base64.b64decode(KNOWN_ENTRY_SIG) == KEY.sign(b'{"a":"b","seq":1}')
    assert crypto.verify_entry(PUBLIC, KNOWN_ENTRY, KNOWN_ENTRY_SIG) is True
    assert crypto.verify_entry(PUBLIC, {"seq": 2, "a": "b"}, KNOWN_ENTRY_SIG) is False
    assert crypto.verify_entry(PUBLIC, KNOWN_ENTRY, KNOWN_ENTRY_SIG[:-4]) is False  # too short
    assert crypto.verify_entry(PUBLIC, KNOWN_ENTRY, "*" + KNOWN_ENTRY_SIG[1:]) is False  # not base64
    with pytest.raises(KeyFileError) as exc:
        crypto.verify_entry("nonsense", KNOWN_ENTRY, KNOWN_ENTRY_SIG)
    assert str(exc.value) == "the signer's public key: not an OpenSSH public key line"


def test_a_signature_with_a_stray_character_is_false() -> None:
    assert crypto.verify_entry(PUBLIC, KNOWN_ENTRY, KNOWN_ENTRY_SIG[:10] + "*" + KNOWN_ENTRY_SIG[10:]) is False
    assert crypto.verify_entry(PUBLIC, KNOWN_ENTRY, KNOWN_ENTRY_SIG[:10] + "\n" + KNOWN_ENTRY_SIG[10:]) is False



# --- padding ------------------------------------------------------------------------


@given(st.binary(max_size=2000), st.sampled_from([16, 64, 512]))
def test_pad_round_trip(data: bytes, size: int) -> None:
    padded = crypto.pad(data, size)
    assert len(padded) % size == 0
    assert len(padded) == max(size, -(-(len(data) + 4) // size) * size)
    assert crypto.unpad(padded, size) == data


def test_pad_sizes() -> None:
    assert len(crypto.pad(b"")) == crypto.PAD_SIZE == 512
    assert len(crypto.pad(b"x" * 508)) == 512
    assert len(crypto.pad(b"x" * 509)) == 1024


@pytest.mark.parametrize(
    "padded",
    [
        b"",
        b"\x00\x00\x00",
        b"\x00\x00\x00\x01x" + bytes(506),  # one byte short of the pad size
        b"\x00\x00\x00\x01x" + bytes(508),  # one byte too many
        b"\x00\x00\x00\x01x" + bytes(506) + b"\x01",  # non-zero padding
        b"\x00\x00\x02\x00" + bytes(508),  # length larger than the data
        b"\x00\x00\x00\x01x" + bytes(1019),  # padded further than needed
    ],
)
def test_unpad_is_strict(padded: bytes) -> None:
    with pytest.raises(CryptoError):
        crypto.unpad(padded)


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


def test_a_length_with_the_high_bit_set_does_not_match() -> None:
    with pytest.raises(CryptoError) as exc:
        crypto.unpad(b"\xff\xff\xff\xff" + bytes(508))
    assert str(exc.value) == "malformed padding: the length does not match"



# --- envelopes ----------------------------------------------------------------------


@settings(max_examples=40, deadline=None)
@given(json_values)
def test_seal_round_trip(value: object) -> None:
    sealed = crypto.seal(value, [RECIPIENT, REFEREE])
    assert sealed.startswith("-----BEGIN AGE ENCRYPTED FILE-----\n")
    assert sealed.endswith("-----END AGE ENCRYPTED FILE-----\n")
    assert crypto.unseal(sealed, [IDENTITY]) == value
    assert crypto.unseal(sealed, [REFEREE_IDENTITY]) == value


def test_sealed_3_and_5_have_equal_length() -> None:
    lengths = {len(crypto.seal(v, [RECIPIENT, REFEREE])) for v in (3, 5, "3", {"v": 5}, None)}
    assert len(lengths) == 1


def test_ciphertexts_differ_for_the_same_value() -> None:
    assert crypto.seal(3, [RECIPIENT]) != crypto.seal(3, [RECIPIENT])


def test_unseal_with_wrong_identity_fails() -> None:
    other, _ = age.generate_identity()
    with pytest.raises(CryptoError, match="no identity matches"):
        crypto.unseal(crypto.seal(3, [RECIPIENT]), [other])


def test_unseal_tampered_fails() -> None:
    sealed = crypto.seal({"a": 1}, [RECIPIENT])
    lines = sealed.splitlines()
    line = lines[3]
    lines[3] = line[:10] + ("A" if line[10] != "A" else "B") + line[11:]
    with pytest.raises(CryptoError):
        crypto.unseal("\n".join(lines) + "\n", [IDENTITY])


def test_unseal_rejects_non_canonical_content() -> None:
    sealed = age.encrypt(crypto.pad(b'{"b":1, "a":2}'), [RECIPIENT]).decode()
    with pytest.raises(CryptoError, match="canonical JSON"):
        crypto.unseal(sealed, [IDENTITY])


def test_sealed_value_opens_with_age(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    age_cmd = require_tool("age")
    monkeypatch.setenv("HOME", str(tmp_path))
    key = tmp_path / "key.txt"
    key.write_text(age.identity_file_text(IDENTITY))
    sealed = crypto.seal({"units": ["2-6-4"]}, [RECIPIENT, REFEREE])
    out = subprocess.run(
        [age_cmd, "-d", "-i", str(key)], input=sealed.encode(), capture_output=True
    )
    assert out.returncode == 0
    assert crypto.unpad(out.stdout) == b'{"units":["2-6-4"]}'


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



# --- commitments --------------------------------------------------------------------

CTX = {"campaign": "demo", "kind": "hand", "id": "card-7", "turn": 3, "owner": "red"}


@given(contexts, json_values)
def test_commit_round_trip(ctx: dict[str, object], value: object) -> None:
    c, nonce = crypto.commit(ctx, value)
    assert len(nonce) == 32 and len(c) == 64
    assert crypto.check_commitment(c, ctx, nonce, value)


@given(contexts, json_values, json_values)
def test_commitment_binds_the_value(ctx: dict[str, object], value: object, other: object) -> None:
    c, nonce = crypto.commit(ctx, value)
    if crypto.canonical_json(other) != crypto.canonical_json(value):
        assert not crypto.check_commitment(c, ctx, nonce, other)


@settings(suppress_health_check=[HealthCheck.too_slow])
@given(st.sampled_from(sorted(crypto.COMMIT_CONTEXT_KEYS)), st.text())
def test_commitment_binds_the_context(key: str, text: str) -> None:
    c, nonce = crypto.commit(CTX, 5)
    changed = {**CTX, key: text}
    if changed != CTX:
        assert not crypto.check_commitment(c, changed, nonce, 5)


def test_commitment_layout() -> None:
    nonce = bytes(range(32))
    ctx = b'{"campaign":"demo","id":"card-7","kind":"hand","owner":"red","turn":3}'
    expected = hashlib.sha256(
        b"pbem-commit-v1\0" + len(ctx).to_bytes(4, "big") + ctx + nonce + b'{"cost":3}'
    ).hexdigest()
    assert crypto.commit(CTX, {"cost": 3}, nonce) == (expected, nonce)
    assert crypto.check_commitment(expected.upper(), CTX, nonce, {"cost": 3})


def test_commitment_rejects_wrong_nonce_and_context() -> None:
    c, nonce = crypto.commit(CTX, 5)
    assert not crypto.check_commitment(c, CTX, bytes(32), 5)
    assert not crypto.check_commitment(c, CTX, nonce[:31], 5)
    with pytest.raises(ValueError, match="missing"):
        crypto.commit({"campaign": "demo"}, 5)
    with pytest.raises(ValueError, match="extra"):
        crypto.commit({**CTX, "more": 1}, 5)


def test_commitment_known_answer() -> None:
    context = json.dumps(KNOWN_CTX, sort_keys=True, separators=(",", ":")).encode()
    expected = hashlib.sha256(b"pbem-commit-v1\x00" + struct.pack(">I", len(context)) + context
                              + bytes(32) + b'{"v":3}').hexdigest()
    assert expected == COMMIT_HEX
    assert crypto.commit(KNOWN_CTX, {"v": 3}, bytes(32)) == (COMMIT_HEX, bytes(32))
    assert crypto.check_commitment(COMMIT_HEX, KNOWN_CTX, bytes(32), {"v": 3}) is True
    assert crypto.check_commitment(COMMIT_HEX.upper(), KNOWN_CTX, bytes(32), {"v": 3}) is True
    assert crypto.check_commitment(COMMIT_HEX, KNOWN_CTX, bytes(32), {"v": 4}) is False
    assert crypto.check_commitment(COMMIT_HEX, KNOWN_CTX, bytes(31), {"v": 3}) is False
    assert crypto.check_commitment(COMMIT_HEX, KNOWN_CTX, bytes(33), {"v": 3}) is False
    c, nonce = crypto.commit(KNOWN_CTX, {"v": 3})
    assert len(nonce) == 32 and nonce != bytes(32)
    assert crypto.check_commitment(c, KNOWN_CTX, nonce, {"v": 3}) is True


def test_commitment_messages() -> None:
    with pytest.raises(ValueError) as exc:
        crypto.commit({**KNOWN_CTX, "extra": 1, "turn": 2}, 1, bytes(32))
    assert str(exc.value) == (
        "commitment context needs exactly ['campaign', 'id', 'kind', 'owner', 'turn']; "
        "missing [], extra ['extra']")
    ctx = dict(KNOWN_CTX)
    del ctx["owner"], ctx["id"]
    with pytest.raises(ValueError) as exc:
        crypto.commit(ctx, 1, bytes(32))
    assert str(exc.value) == (
        "commitment context needs exactly ['campaign', 'id', 'kind', 'owner', 'turn']; "
        "missing ['id', 'owner'], extra []")
    with pytest.raises(ValueError) as exc:
        crypto.commit(KNOWN_CTX, 1, bytes(31))
    assert str(exc.value) == "a commitment nonce is 32 bytes"



# --- key files ----------------------------------------------------------------------


def test_keygen_files(tmp_path: Path) -> None:
    card = crypto.keygen_files(tmp_path / "red")
    key, ssh_key, ssh_pub = (tmp_path / n for n in ("red.key", "red_ed25519", "red_ed25519.pub"))
    assert stat.S_IMODE(key.stat().st_mode) == 0o600
    assert stat.S_IMODE(ssh_key.stat().st_mode) == 0o600
    recipient_line, ssh_line = card.splitlines()
    assert ssh_pub.read_text().strip() == ssh_line
    identities = crypto.load_identity_file(key)
    assert age.recipient_of(identities[0]) == recipient_line
    private = crypto.load_ssh_private_file(ssh_key)
    assert crypto.verify_entry(ssh_line, ENTRY, crypto.sign_entry(private, ENTRY))
    card_file = tmp_path / "red.card"
    card_file.write_text(f"# red's public card\n\n{ssh_line}\n{recipient_line}\n")
    assert crypto.read_key_card(card_file) == (recipient_line, ssh_line)
    with pytest.raises(KeyFileError, match="already exists"):
        crypto.keygen_files(tmp_path / "red")


def test_keygen_identity_file_works_with_age(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    age_cmd = require_tool("age")
    monkeypatch.setenv("HOME", str(tmp_path))
    card = crypto.keygen_files(tmp_path / "red")
    sealed = crypto.seal("hello", [card.splitlines()[0]])
    out = subprocess.run(
        [age_cmd, "-d", "-i", str(tmp_path / "red.key")], input=sealed.encode(), capture_output=True
    )
    assert out.returncode == 0 and crypto.unpad(out.stdout) == b'"hello"'


def test_missing_key_files_list_every_place(tmp_path: Path) -> None:
    places = [tmp_path / "a.key", tmp_path / "b" / "a.key"]
    with pytest.raises(KeyFileError) as caught:
        crypto.load_identity_file(places)
    assert all(str(p) in "\n".join(caught.value.lines()) for p in places)
    with pytest.raises(KeyFileError) as caught:
        crypto.load_ssh_private_file(tmp_path / "none_ed25519")
    assert str(tmp_path / "none_ed25519") in "\n".join(caught.value.lines())


def test_wrong_key_files(tmp_path: Path) -> None:
    (tmp_path / "x.key").write_text("# nothing but a comment\n")
    with pytest.raises(KeyFileError, match="x.key"):
        crypto.load_identity_file(tmp_path / "x.key")
    (tmp_path / "y.key").write_text("AGE-SECRET-KEY-1QQQQ\n")
    with pytest.raises(KeyFileError, match="y.key"):
        crypto.load_identity_file(tmp_path / "y.key")
    (tmp_path / "z_ed25519").write_text(age.identity_file_text(IDENTITY))
    with pytest.raises(KeyFileError, match="z_ed25519.*not an OpenSSH private key"):
        crypto.load_ssh_private_file(tmp_path / "z_ed25519")
    (tmp_path / "dir.key").mkdir()
    with pytest.raises(KeyFileError, match="unreadable"):
        crypto.load_identity_file(tmp_path / "dir.key")


@pytest.mark.parametrize(
    "text",
    [
        f"{RECIPIENT}\n",
        f"{SSH_PUBLIC}\n{SSH_PUBLIC}\n",
        f"{RECIPIENT}\n{RECIPIENT}\n{SSH_PUBLIC}\n",
        f"{RECIPIENT}\n{SSH_PUBLIC}\nsomething else\n",
        f"{RECIPIENT[:-1]}{'q' if RECIPIENT[-1] != 'q' else 'p'}\n{SSH_PUBLIC}\n",
    ],
    ids=["no-ssh", "two-ssh", "two-age", "junk", "bad-checksum"],
)
def test_bad_key_card(tmp_path: Path, text: str) -> None:
    (tmp_path / "card").write_text(text)
    with pytest.raises(KeyFileError, match="card"):
        crypto.read_key_card(tmp_path / "card")


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
    out = subprocess.run([require_tool("age-keygen"), "-y", str(key)], capture_output=True,
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
