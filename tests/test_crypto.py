"""pbem.crypto.keys: canonical JSON, entry signatures, padding, envelopes, commitments, key
files (docs/design.md "Secrets")."""

from __future__ import annotations

import base64
import hashlib
import json
import stat
import subprocess
from pathlib import Path

import pytest
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
