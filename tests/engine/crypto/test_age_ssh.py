"""age's `ssh-ed25519` recipient type in pbem.crypto.age: a player's own OpenSSH ed25519 key
opens what is sealed to `ssh-ed25519 AAAA...`, in-process and with Debian's `age` and
`ssh-keygen` (the age spec's ssh-ed25519 stanza, as filippo.io/age's agessh writes it)."""

from __future__ import annotations

import base64
import hashlib
import subprocess
from pathlib import Path

import pytest
from cryptography.hazmat.primitives.asymmetric.x25519 import X25519PrivateKey

from pbem.crypto import age, keys, sshsig
from pbem.errors import CryptoError, KeyFileError
from tests.conftest import need_tool


def ssh_keygen(folder: Path, name: str = "id_ed25519", passphrase: str = "") -> Path:
    """A key made by ssh-keygen, as a player has one: FOLDER/NAME and NAME.pub."""
    folder.mkdir(parents=True, exist_ok=True)
    path = folder / name
    subprocess.run([need_tool("ssh-keygen"), "-q", "-t", "ed25519", "-N", passphrase, "-C",
                    "player@example.org", "-f", str(path)], check=True, capture_output=True)
    return path


def pub(path: Path) -> str:
    return path.with_name(path.name + ".pub").read_text().strip()


def generated() -> tuple[str, str]:
    """(private key text, public line) of a fresh key made in-process."""
    private, public = sshsig.generate_ssh_key("made-here")
    return private.decode("ascii"), public


# --- in-process ---------------------------------------------------------------------


@pytest.mark.parametrize("armor", [True, False], ids=["armored", "binary"])
def test_a_round_trip_with_an_ssh_key_and_an_x25519_key(armor: bool) -> None:
    private, public = generated()
    x_identity, x_recipient = age.generate_identity()
    data = age.encrypt(b"face down: militia 4", [public, x_recipient], armor=armor)
    assert age.decrypt(data, [private]) == b"face down: militia 4"
    assert age.decrypt(data, [x_identity]) == b"face down: militia 4"
    assert age.recipient_of(private) == " ".join(public.split()[:2])
    other, _ = generated()
    with pytest.raises(CryptoError, match="no identity matches"):
        age.decrypt(data, [other])


def test_the_stanza_is_the_specs() -> None:
    """`-> ssh-ed25519 TAG SHARE`: TAG is base64 (raw) of SHA-256 of the SSH wire key, 4
    bytes; SHARE a 32-byte X25519 share; the body a wrapped 16-byte file key."""
    private, public = generated()
    data = age.encrypt(b"x", [public], armor=False)
    stanza = data.split(b"\n")[1].decode().split(" ")
    wire = base64.b64decode(public.split()[1])
    tag = base64.b64encode(hashlib.sha256(wire).digest()[:4]).decode().rstrip("=")
    assert stanza[:3] == ["->", "ssh-ed25519", tag] and len(stanza) == 4
    assert len(base64.b64decode(stanza[3] + "=")) == 32
    assert len(base64.b64decode(data.split(b"\n")[2] + b"=")) == 32  # 16 + the Poly1305 tag


def test_the_montgomery_key_of_the_public_key_is_that_of_the_private_scalar() -> None:
    """u = (1 + y) / (1 - y) of the ed25519 key is X25519(SHA-512(seed)[:32], 9)."""
    for _ in range(8):
        private, public = generated()
        ours = age.parse_identity(private)
        theirs = age.parse_recipient(public)
        assert isinstance(ours, age.SshIdentity) and isinstance(theirs, age.SshRecipient)
        seed = sshsig.load_private_key(private.encode(), "k").private_bytes_raw()
        scalar = X25519PrivateKey.from_private_bytes(hashlib.sha512(seed).digest()[:32])
        assert theirs.montgomery == ours.montgomery == scalar.public_key().public_bytes_raw()
        assert theirs.tag == ours.tag


def _edited(data: bytes, old: bytes, new: bytes) -> bytes:
    lines = data.split(b"\n")
    assert lines[1].startswith(b"-> ssh-ed25519 ")
    lines[1] = lines[1].replace(old, new)
    return b"\n".join(lines)


def _short(share: bytes) -> bytes:
    """The share cut to 31 bytes, in canonical unpadded base64."""
    return base64.b64encode(base64.b64decode(share + b"=")[:31]).rstrip(b"=")


def test_another_keys_tag_is_no_match_and_a_malformed_stanza_is_a_header_failure() -> None:
    private, public = generated()
    data = age.encrypt(b"x", [public], armor=False)
    _, _, tag, share = data.split(b"\n")[1].split(b" ")
    other_tag = base64.b64encode(bytes(4)).rstrip(b"=")
    with pytest.raises(CryptoError) as caught:
        age.decrypt(_edited(data, tag, other_tag), [private])
    assert caught.value.message.startswith("no identity matches")
    for edited, said in [
            (_edited(data, b" " + share, b""), "ssh-ed25519 stanza with the wrong number of arguments"),
            (_edited(data, share, share + b" more"), "ssh-ed25519 stanza with the wrong number of arguments"),
            (_edited(data, share, share[:-1] + b"!"), "malformed ssh-ed25519 share"),
            (_edited(data, share, _short(share)), "the ssh-ed25519 share is not 32 bytes")]:
        with pytest.raises(CryptoError) as caught:
            age.decrypt(edited, [private])
        assert caught.value.message.startswith(f"header failure: {said}"), caught.value.message
    # the tag names this key but the share is not the one the file key was wrapped with
    forged = base64.b64encode(X25519PrivateKey.generate().public_key().public_bytes_raw()).rstrip(b"=")
    with pytest.raises(CryptoError) as caught:
        age.decrypt(_edited(data, share, forged), [private])
    assert caught.value.message == (f"header failure: the ssh-ed25519 stanza for this key (tag "
                                    f"{tag.decode()}) does not open with it")


def test_a_stanza_of_another_type_is_no_match_for_either_kind_of_identity() -> None:
    private, public = generated()
    x_identity, x_recipient = age.generate_identity()
    with pytest.raises(CryptoError, match="no identity matches"):
        age.decrypt(age.encrypt(b"x", [public]), [x_identity])
    data = age.encrypt(b"x", [x_recipient], armor=False)
    with pytest.raises(CryptoError, match="no identity matches"):
        age.decrypt(data, [private])
    # a malformed X25519 stanza is the X25519 identity's business, not the SSH key's
    lines = data.split(b"\n")
    lines[1] += b" extra"
    with pytest.raises(CryptoError, match="no identity matches"):
        age.decrypt(b"\n".join(lines), [private])


def test_bad_ssh_recipients_and_identities_are_named(tmp_path: Path) -> None:
    with pytest.raises(CryptoError) as caught:
        age.parse_recipient("ssh-ed25519 AAAAnotakey")
    assert caught.value.message == ("not a valid ssh-ed25519 recipient 'ssh-ed25519 AAAAnotakey': "
                                    "not an OpenSSH public key line")
    rsa = tmp_path / "id_rsa"
    subprocess.run([need_tool("ssh-keygen"), "-q", "-t", "rsa", "-b", "1024", "-N", "", "-f",
                    str(rsa)], check=True, capture_output=True)
    with pytest.raises(CryptoError) as caught:
        age.parse_recipient(pub(rsa))
    assert caught.value.message.endswith(": the SSH public key is not ssh-ed25519")
    with pytest.raises(CryptoError, match="not an OpenSSH private key"):
        age.parse_identity("-----BEGIN OPENSSH PRIVATE KEY-----\nnot a key\n"
                           "-----END OPENSSH PRIVATE KEY-----\n")


# --- with Debian's age and ssh-keygen -----------------------------------------------


def test_age_encrypts_to_an_ssh_key_and_pbem_opens_it(tmp_path: Path) -> None:
    key = ssh_keygen(tmp_path / ".ssh")
    (tmp_path / "m").write_bytes(b"for the chechen\n")
    subprocess.run([need_tool("age"), "-R", f"{key}.pub", "-o", str(tmp_path / "m.age"),
                    str(tmp_path / "m")], check=True, capture_output=True)
    identities = keys.load_identity_file(key)
    assert age.decrypt((tmp_path / "m.age").read_bytes(), identities) == b"for the chechen\n"
    other = keys.load_identity_file(ssh_keygen(tmp_path / "other"))
    with pytest.raises(CryptoError, match="no identity matches"):
        age.decrypt((tmp_path / "m.age").read_bytes(), other)


@pytest.mark.parametrize("armor", [True, False], ids=["armored", "binary"])
def test_pbem_encrypts_to_an_ssh_key_and_age_opens_it(tmp_path: Path, armor: bool) -> None:
    age_cmd = need_tool("age")
    key = ssh_keygen(tmp_path / ".ssh")
    _, x_recipient = age.generate_identity()
    sealed = tmp_path / "m.age"
    sealed.write_bytes(age.encrypt(b"sealed by pbem", [x_recipient, pub(key)], armor=armor))
    out = subprocess.run([age_cmd, "-d", "-i", str(key), str(sealed)], capture_output=True)
    assert out.returncode == 0, out.stderr
    assert out.stdout == b"sealed by pbem"
    other = ssh_keygen(tmp_path / "other")
    wrong = subprocess.run([age_cmd, "-d", "-i", str(other), str(sealed)], capture_output=True)
    assert wrong.returncode != 0 and wrong.stdout == b""


def test_key_files_a_player_brings(tmp_path: Path) -> None:
    key = ssh_keygen(tmp_path / ".ssh")
    assert keys.load_identity_file(key) == [key.read_text()]
    line = pub(key)
    assert keys.read_key_card(Path(f"{key}.pub")) == (" ".join(line.split()[:2]), line)
    locked = ssh_keygen(tmp_path / "locked", passphrase="secret")
    with pytest.raises(KeyFileError) as caught:
        keys.load_identity_file(locked)
    assert caught.value.message.startswith(
        f"{locked}: the SSH key is encrypted (pbem needs a key without a passphrase); remove it "
        "from a copy kept for pbem (ssh-keygen -p -N '' -f COPY)")
    pem = tmp_path / "pem"
    pem.write_text("-----BEGIN PRIVATE KEY-----\nMC4CAQAwBQYDK2VwBCIEIA==\n-----END PRIVATE KEY-----\n")
    with pytest.raises(KeyFileError) as caught:
        keys.load_identity_file(pem)
    assert caught.value.message == f"{pem}: not an OpenSSH private key"
