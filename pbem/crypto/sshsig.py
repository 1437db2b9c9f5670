"""OpenSSH ed25519 keys and SSHSIG signatures (docs/design.md "Keys", "Orders signatures").

SSHSIG is OpenSSH's PROTOCOL.sshsig, the format `ssh-keygen -Y sign` writes and
`ssh-keygen -Y verify` checks. pbem signs with sha512, as ssh-keygen does, and accepts
sha256 or sha512 signatures.
"""

from __future__ import annotations

import base64
import binascii
import hashlib
import struct

from cryptography.exceptions import InvalidSignature, UnsupportedAlgorithm
from cryptography.hazmat.primitives import serialization
from cryptography.hazmat.primitives.asymmetric.ed25519 import (
    Ed25519PrivateKey,
    Ed25519PublicKey,
)

from pbem.errors import KeyFileError, SignatureError

__all__ = [
    "OPENSSH_PRIVATE_BEGIN",
    "generate_ssh_key",
    "key_blob",
    "load_private_key",
    "load_public_key",
    "public_line",
    "sign",
    "verify",
]

# PROTOCOL.sshsig: the blob and the armor around it.
MAGIC = b"SSHSIG"
SIG_VERSION = 1
ARMOR_BEGIN = "-----BEGIN SSH SIGNATURE-----"
ARMOR_END = "-----END SSH SIGNATURE-----"
ARMOR_COLUMNS = 70  # as ssh-keygen wraps it
HASHES = {"sha256": hashlib.sha256, "sha512": hashlib.sha512}
SIGN_HASH = "sha512"
KEY_TYPE = b"ssh-ed25519"
OPENSSH_PRIVATE_BEGIN = "-----BEGIN OPENSSH PRIVATE KEY-----"  # PROTOCOL.key's armor


# --- keys ---------------------------------------------------------------------------


def generate_ssh_key(comment: str) -> tuple[bytes, str]:
    """A new ed25519 key: (OpenSSH private key file bytes, `ssh-ed25519 AAAA... comment`)."""
    key = Ed25519PrivateKey.generate()
    private = key.private_bytes(
        serialization.Encoding.PEM,
        serialization.PrivateFormat.OpenSSH,
        serialization.NoEncryption(),
    )
    return private, public_line(key.public_key(), comment)


def ssh_key_from_bytes(raw: bytes, comment: str) -> tuple[bytes, str]:
    """The ed25519 key whose private seed is `raw` (32 bytes), as generate_ssh_key returns."""
    key = Ed25519PrivateKey.from_private_bytes(raw)
    private = key.private_bytes(
        serialization.Encoding.PEM,
        serialization.PrivateFormat.OpenSSH,
        serialization.NoEncryption(),
    )
    return private, public_line(key.public_key(), comment)


def public_line(key: Ed25519PublicKey, comment: str = "") -> str:
    """The `ssh-ed25519 AAAA... comment` line of a public key."""
    line = key.public_bytes(
        serialization.Encoding.OpenSSH, serialization.PublicFormat.OpenSSH
    ).decode("ascii")
    return f"{line} {comment}" if comment else line


def load_private_key(data: bytes, source: str) -> Ed25519PrivateKey:
    """An unencrypted OpenSSH ed25519 private key; KeyFileError naming `source` otherwise."""
    try:
        key = serialization.load_ssh_private_key(data, password=None)
    except TypeError:
        raise KeyFileError(
            f"{source}: the SSH key is encrypted (pbem needs a key without a passphrase); "
            "remove it from a copy kept for pbem (ssh-keygen -p -N '' -f COPY) or make a key "
            "without one (ssh-keygen -t ed25519 -N '')"
        ) from None
    except (ValueError, UnicodeError):
        raise KeyFileError(f"{source}: not an OpenSSH private key") from None
    except UnsupportedAlgorithm as exc:
        raise KeyFileError(f"{source}: unsupported SSH private key ({exc})") from None
    if not isinstance(key, Ed25519PrivateKey):
        raise KeyFileError(f"{source}: the SSH key is not ed25519 (pbem needs ssh-ed25519)")
    return key


def load_public_key(line: str, source: str) -> Ed25519PublicKey:
    """An `ssh-ed25519 AAAA... [comment]` line; KeyFileError naming `source` otherwise."""
    try:
        key = serialization.load_ssh_public_key(line.strip().encode("utf-8"))
    except (ValueError, UnicodeError, UnsupportedAlgorithm):
        raise KeyFileError(f"{source}: not an OpenSSH public key line") from None
    if not isinstance(key, Ed25519PublicKey):
        raise KeyFileError(f"{source}: the SSH public key is not ssh-ed25519")
    return key


# --- SSH wire encoding (RFC 4251 section 5) -----------------------------------------


def _string(data: bytes) -> bytes:
    return struct.pack(">I", len(data)) + data


class _Reader:
    def __init__(self, data: bytes) -> None:
        self.data = data
        self.pos = 0

    def raw(self, size: int) -> bytes:
        if self.pos + size > len(self.data):
            raise SignatureError("malformed SSH signature: truncated")
        out = self.data[self.pos : self.pos + size]
        self.pos += size
        return out

    def uint32(self) -> int:
        value: int = struct.unpack(">I", self.raw(4))[0]
        return value

    def string(self) -> bytes:
        return self.raw(self.uint32())

    def end(self) -> None:
        if self.pos != len(self.data):
            raise SignatureError("malformed SSH signature: trailing data")


def key_blob(key: Ed25519PublicKey) -> bytes:
    """The SSH wire format of an ed25519 public key (RFC 8709: string "ssh-ed25519",
    string the 32-byte key), what `ssh-ed25519 AAAA...` holds in base64."""
    return _string(KEY_TYPE) + _string(key.public_bytes_raw())


def _signed_data(namespace: str, hash_name: str, data: bytes) -> bytes:
    # PROTOCOL.sshsig: what is actually signed.
    digest = HASHES[hash_name](data).digest()
    return b"".join(
        [
            MAGIC,
            _string(namespace.encode()),
            _string(b""),
            _string(hash_name.encode()),
            _string(digest),
        ]
    )


# --- armor --------------------------------------------------------------------------


def _armor(blob: bytes) -> str:
    encoded = base64.b64encode(blob).decode("ascii")
    lines = [encoded[i : i + ARMOR_COLUMNS] for i in range(0, len(encoded), ARMOR_COLUMNS)]
    return "\n".join([ARMOR_BEGIN, *lines, ARMOR_END]) + "\n"


def _dearmor(text: str) -> bytes:
    lines = [line.strip() for line in text.strip().splitlines()]
    if len(lines) < 3 or lines[0] != ARMOR_BEGIN or lines[-1] != ARMOR_END:
        raise SignatureError("malformed SSH signature: missing BEGIN/END SSH SIGNATURE lines")
    try:
        return base64.b64decode("".join(lines[1:-1]), validate=True)
    except (binascii.Error, ValueError):
        raise SignatureError("malformed SSH signature: invalid base64") from None


# --- sign and verify ----------------------------------------------------------------


def sign(private_key: Ed25519PrivateKey, data: bytes, namespace: str) -> str:
    """The armored SSHSIG signature of data, as `ssh-keygen -Y sign -n NAMESPACE` writes."""
    if not namespace:
        raise ValueError("an SSHSIG namespace must not be empty")
    raw = private_key.sign(_signed_data(namespace, SIGN_HASH, data))
    signature = _string(KEY_TYPE) + _string(raw)
    blob = b"".join(
        [
            MAGIC,
            struct.pack(">I", SIG_VERSION),
            _string(key_blob(private_key.public_key())),
            _string(namespace.encode()),
            _string(b""),
            _string(SIGN_HASH.encode()),
            _string(signature),
        ]
    )
    return _armor(blob)


def verify(public_line: str, data: bytes, signature: str, namespace: str) -> None:
    """Check an armored SSHSIG signature of data by the key on `public_line`.

    Raises SignatureError saying what is wrong: malformed, another key, another
    namespace, or a signature that does not match the data; KeyFileError if
    `public_line` is not an ssh-ed25519 public key.
    """
    key = load_public_key(public_line, "the signer's public key")
    reader = _Reader(_dearmor(signature))
    if reader.raw(len(MAGIC)) != MAGIC:
        raise SignatureError("malformed SSH signature: not an SSHSIG blob")
    if reader.uint32() != SIG_VERSION:
        raise SignatureError("unsupported SSH signature version")
    signer, sig_namespace = reader.string(), reader.string()
    reader.string()  # reserved
    hash_name = reader.string().decode("ascii", "replace")
    sig_blob = reader.string()
    reader.end()
    if signer != key_blob(key):
        raise SignatureError("the signature was made with another key than the expected signer's")
    if sig_namespace != namespace.encode():
        raise SignatureError(
            f"the signature is for namespace {sig_namespace.decode(errors='replace')!r}, "
            f"not {namespace!r}"
        )
    if hash_name not in HASHES:
        raise SignatureError(f"unsupported SSH signature hash {hash_name!r}")
    _check_ed25519(key, sig_blob, _signed_data(namespace, hash_name, data))


def _check_ed25519(key: Ed25519PublicKey, sig_blob: bytes, message: bytes) -> None:
    reader = _Reader(sig_blob)
    if reader.string() != KEY_TYPE:
        raise SignatureError("malformed SSH signature: not an ssh-ed25519 signature")
    raw = reader.string()
    reader.end()
    try:
        key.verify(raw, message)
    except InvalidSignature:
        raise SignatureError("the signature does not match the signed file") from None
