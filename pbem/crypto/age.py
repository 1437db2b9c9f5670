"""age v1 files with X25519 and ssh-ed25519 recipients, written from the spec
(docs/design.md "Envelopes").

Implements https://age-encryption.org/v1 (the C2SP age specification) with the
`cryptography` package's primitives only: X25519, HKDF-SHA-256, ChaCha20-Poly1305 and
HMAC-SHA-256. Bech32 is done by hand. The `ssh-ed25519` recipient type (a player's own
OpenSSH ed25519 key, public line `ssh-ed25519 AAAA...`, private key the unencrypted
`-----BEGIN OPENSSH PRIVATE KEY-----` file) follows the age spec and its reference
implementation, filippo.io/age's `agessh` package. Decryption is strict: it must behave as the C2SP
CCTV test vectors (`../shared/testdata/age-vectors/`) expect. Every failure is a
`CryptoError` whose message names the stage that failed: "armor", "header", "header MAC",
"payload", or "no identity matches".

Passphrase (scrypt), ssh-rsa and post-quantum (mlkem768x25519) recipients are not
implemented: pbem never writes them, and their stanzas are treated as stanzas no identity matches.
"""

from __future__ import annotations

import base64
import binascii
import functools
import hashlib
import hmac
import os
from collections.abc import Iterator
from dataclasses import dataclass
from datetime import datetime

from cryptography.exceptions import InvalidTag
from cryptography.hazmat.primitives import hashes
from cryptography.hazmat.primitives.asymmetric.x25519 import X25519PrivateKey, X25519PublicKey
from cryptography.hazmat.primitives.ciphers.aead import ChaCha20Poly1305
from cryptography.hazmat.primitives.kdf.hkdf import HKDF

from pbem.crypto import sshsig
from pbem.errors import CryptoError, KeyFileError

__all__ = [
    "Identity",
    "Recipient",
    "SshIdentity",
    "SshRecipient",
    "decrypt",
    "encrypt",
    "generate_identity",
    "identity_file_text",
    "parse_identity",
    "parse_recipient",
    "read_identities",
    "recipient_of",
]

# Spec "Header": the version line, stanza and MAC line prefixes.
INTRO = b"age-encryption.org/v1\n"
STANZA_PREFIX = b"-> "
FOOTER_PREFIX = b"---"
BODY_COLUMNS = 64  # a stanza body line holds 48 bytes as 64 base64 characters
BODY_LINE_BYTES = 48
FILE_KEY_SIZE = 16

# Spec "X25519 recipient stanza".
X25519_LABEL = b"age-encryption.org/v1/X25519"
X25519_TYPE = "X25519"
RECIPIENT_HRP = "age"
IDENTITY_HRP = "AGE-SECRET-KEY-"

# Spec "ssh-ed25519 recipient stanza" (agessh.go: ed25519Label, sshFingerprint).
SSH_ED25519_TYPE = "ssh-ed25519"
SSH_ED25519_LABEL = b"age-encryption.org/v1/ssh-ed25519"
SSH_TAG_SIZE = 4  # the tag: the first 4 bytes of SHA-256 of the SSH wire-format public key
CURVE25519_P = 2**255 - 19

# Spec "Payload": STREAM with 64 KiB chunks.
NONCE_SIZE = 16
CHUNK_SIZE = 64 * 1024
TAG_SIZE = 16
ENC_CHUNK_SIZE = CHUNK_SIZE + TAG_SIZE
MAX_CHUNKS = 1 << 88  # the counter is 11 bytes

# Spec "ASCII armor" (strict PEM, RFC 7468).
ARMOR_BEGIN = b"-----BEGIN AGE ENCRYPTED FILE-----"
ARMOR_END = b"-----END AGE ENCRYPTED FILE-----"
ARMOR_COLUMNS = 64
ARMOR_MAX_WHITESPACE = 1024  # as age's Go reader: bounded leading/trailing whitespace
WHITESPACE = b" \t\r\n\v\f"


# --- bech32 (BIP 173), used by age for recipients and identities --------------------

BECH32_CHARSET = "qpzry9x8gf2tvdw0s3jn54khce6mua7l"
BECH32_GENERATOR = (0x3B6A57B2, 0x26508E6D, 0x1EA119FA, 0x3D4233DD, 0x2A1462B3)


def _bech32_polymod(values: list[int]) -> int:
    chk = 1
    for value in values:
        top = chk >> 25
        chk = (chk & 0x1FFFFFF) << 5 ^ value
        for i, gen in enumerate(BECH32_GENERATOR):
            if (top >> i) & 1:
                chk ^= gen
    return chk


def _hrp_expand(hrp: str) -> list[int]:
    return [ord(c) >> 5 for c in hrp] + [0] + [ord(c) & 31 for c in hrp]


def _convert_bits(data: bytes | list[int], from_bits: int, to_bits: int, pad: bool) -> list[int]:
    acc = 0
    bits = 0
    out: list[int] = []
    maxv = (1 << to_bits) - 1
    for value in data:
        acc = (acc << from_bits) | value
        bits += from_bits
        while bits >= to_bits:
            bits -= to_bits
            out.append((acc >> bits) & maxv)
    if pad:
        if bits:
            out.append((acc << (to_bits - bits)) & maxv)
    elif bits >= from_bits or (acc << (to_bits - bits)) & maxv:
        raise ValueError("invalid padding bits")
    return out


def _bech32_encode(hrp: str, data: bytes) -> str:
    """Encode lowercase bech32 (BIP 173 checksum constant 1, as age uses)."""
    hrp = hrp.lower()
    values = _convert_bits(data, 8, 5, pad=True)
    polymod = _bech32_polymod(_hrp_expand(hrp) + values + [0] * 6) ^ 1
    checksum = [(polymod >> 5 * (5 - i)) & 31 for i in range(6)]
    return hrp + "1" + "".join(BECH32_CHARSET[v] for v in values + checksum)


def _bech32_decode(text: str) -> tuple[str, bytes]:
    """Decode bech32, returning the HRP in the case it was written in."""
    if text.lower() != text and text.upper() != text:
        raise ValueError("mixed upper and lower case")
    pos = text.rfind("1")
    if pos < 1 or pos + 7 > len(text):
        raise ValueError("no separator '1' in the right place")
    hrp = text[:pos]
    if any(not 33 <= ord(c) <= 126 for c in hrp):
        raise ValueError("invalid character in the prefix")
    values = []
    for c in text[pos + 1 :].lower():
        index = BECH32_CHARSET.find(c)
        if index < 0:
            raise ValueError(f"invalid character {c!r}")
        values.append(index)
    if _bech32_polymod(_hrp_expand(hrp.lower()) + values) != 1:
        raise ValueError("bad checksum")
    return hrp, bytes(_convert_bits(values[:-6], 5, 8, pad=False))


# --- keys (spec "X25519 recipient stanza": recipient and identity encodings) --------


@dataclass(frozen=True)
class SshRecipient:
    """An `ssh-ed25519 AAAA...` recipient: its SSH wire-format key, its tag and its key
    converted to X25519 (Montgomery u, 32 bytes little-endian)."""

    wire: bytes
    tag: str
    montgomery: bytes


@dataclass(frozen=True)
class SshIdentity:
    """An OpenSSH ed25519 private key used as an age identity."""

    wire: bytes
    tag: str
    scalar: X25519PrivateKey  # SHA-512(seed)[:32], the ed25519 secret scalar
    montgomery: bytes  # X25519(scalar, basepoint)
    public_line: str


Recipient = X25519PublicKey | SshRecipient
Identity = X25519PrivateKey | SshIdentity


def parse_recipient(text: str) -> Recipient:
    """Parse a recipient: `age1...` (X25519) or `ssh-ed25519 AAAA... [comment]`."""
    if text.lstrip().startswith("ssh-"):
        return _parse_ssh_recipient(text)
    return _parse_x25519_recipient(text)


def _parse_x25519_recipient(text: str) -> X25519PublicKey:
    """Parse an `age1...` recipient strictly (lowercase bech32, HRP `age`, 32 bytes)."""
    return X25519PublicKey.from_public_bytes(_x25519_key(text, RECIPIENT_HRP, f"recipient {text!r}"))


def _x25519_key(text: str, hrp: str, what: str) -> bytes:
    """The 32 key bytes of a bech32 X25519 recipient or identity whose prefix must be `hrp`
    (in the case it is written in); `what` names it in every error."""
    try:
        found, key = _bech32_decode(text)
    except ValueError as exc:
        raise CryptoError(f"not a valid age {what}: {exc}") from None
    if found != hrp:
        raise CryptoError(f"not an age X25519 {what}: it must start with '{hrp}1'")
    if len(key) != 32:
        raise CryptoError(f"not a valid age {what}: wrong key length")
    return key


def is_ssh_identity(text: str) -> bool:
    """Whether text is a PEM-armored key (an OpenSSH private key, or another PEM key that
    `parse_identity` refuses by name), not an age identity file."""
    return text.lstrip().startswith("-----BEGIN ")


def parse_identity(text: str) -> Identity:
    """Parse an identity: `AGE-SECRET-KEY-1...` or an unencrypted OpenSSH ed25519 key."""
    if is_ssh_identity(text):
        return _parse_ssh_identity(text)
    return _parse_x25519_identity(text)


def _parse_x25519_identity(text: str) -> X25519PrivateKey:
    """Parse an `AGE-SECRET-KEY-1...` identity strictly (uppercase bech32, 32 bytes)."""
    # Never echo the secret key itself into an error message: "identity" alone names it.
    return X25519PrivateKey.from_private_bytes(_x25519_key(text, IDENTITY_HRP, "identity"))


def _ssh_tag(wire: bytes) -> str:
    # agessh.go sshFingerprint: base64 (raw) of SHA-256(wire key)[:4]
    return _b64_raw(hashlib.sha256(wire).digest()[:SSH_TAG_SIZE])


def _montgomery_u(ed25519_public: bytes, what: str) -> bytes:
    """The X25519 public key of an ed25519 public key (agessh.go
    ed25519PublicKeyToCurve25519): the key is y little-endian with x's sign in the top bit;
    u = (1 + y) / (1 - y) mod 2^255 - 19, written 32 bytes little-endian."""
    y = int.from_bytes(ed25519_public, "little") & ((1 << 255) - 1)
    try:
        inverse = pow((1 - y) % CURVE25519_P, -1, CURVE25519_P)
    except ValueError:  # y = 1: the neutral point, no X25519 key (age would fail too)
        raise CryptoError(f"{what}: the ed25519 key is the neutral point, not a usable key") from None
    return ((1 + y) * inverse % CURVE25519_P).to_bytes(32, "little")


def _parse_ssh_recipient(text: str) -> SshRecipient:
    shown = " ".join(text.split()[:2])
    what = f"not a valid ssh-ed25519 recipient {shown!r}"
    try:
        key = sshsig.load_public_key(text, what)
    except KeyFileError as exc:
        raise CryptoError(exc.message) from None
    wire = sshsig.key_blob(key)
    return SshRecipient(wire, _ssh_tag(wire), _montgomery_u(key.public_bytes_raw(), what))


@functools.lru_cache(maxsize=8)  # reveal and audit open every envelope with the same key
def _parse_ssh_identity(text: str) -> SshIdentity:
    try:
        key = sshsig.load_private_key(text.encode("utf-8"), "the SSH identity")
    except KeyFileError as exc:
        raise CryptoError(exc.message) from None
    # agessh.go ed25519PrivateKeyToCurve25519: the first 32 bytes of SHA-512 of the seed
    # (X25519 clamps them as ed25519 does), and the public key X25519(scalar, basepoint)
    scalar = X25519PrivateKey.from_private_bytes(
        hashlib.sha512(key.private_bytes_raw()).digest()[:32])
    wire = sshsig.key_blob(key.public_key())
    return SshIdentity(wire, _ssh_tag(wire), scalar, scalar.public_key().public_bytes_raw(),
                       sshsig.public_line(key.public_key()))


def _encode_recipient(public: X25519PublicKey) -> str:
    return _bech32_encode(RECIPIENT_HRP, public.public_bytes_raw())


def _encode_identity(private: X25519PrivateKey) -> str:
    return _bech32_encode(IDENTITY_HRP, private.private_bytes_raw()).upper()


def generate_identity() -> tuple[str, str]:
    """A new X25519 key pair: (`AGE-SECRET-KEY-1...`, `age1...`)."""
    private = X25519PrivateKey.generate()
    return _encode_identity(private), _encode_recipient(private.public_key())


def identity_from_bytes(raw: bytes) -> tuple[str, str]:
    """The key pair whose X25519 private key is `raw` (32 bytes): (identity, recipient)."""
    private = X25519PrivateKey.from_private_bytes(raw)
    return _encode_identity(private), _encode_recipient(private.public_key())


def recipient_of(identity: str) -> str:
    """The recipient of an identity: `age1...`, or `ssh-ed25519 AAAA...` for an SSH key."""
    parsed = parse_identity(identity)
    if isinstance(parsed, SshIdentity):
        return parsed.public_line
    return _encode_recipient(parsed.public_key())


def identity_file_text(identity: str, *, created: datetime | None = None) -> str:
    """An identity file in age-keygen's format (created line, public key line, key)."""
    recipient = recipient_of(identity)
    when = (created or datetime.now().astimezone()).isoformat(timespec="seconds")
    when = when.replace("+00:00", "Z")  # RFC 3339 as Go writes it
    return f"# created: {when}\n# public key: {recipient}\n{identity}\n"


def read_identities(text: str) -> list[str]:
    """The identities in an age identity file; `#` comments and blank lines are ignored.

    A file that is an OpenSSH private key (as age's `-i` reads it) is one identity: the
    whole text."""
    if is_ssh_identity(text):
        parse_identity(text)
        return [text]
    identities = []
    for number, raw in enumerate(text.splitlines(), start=1):
        line = raw.strip()
        if not line or line.startswith("#"):
            continue
        try:
            _parse_x25519_identity(line)
        except CryptoError as exc:
            raise CryptoError(f"line {number} of the identity file: {exc.message}") from None
        identities.append(line)
    if not identities:
        raise CryptoError("the identity file holds no age identity (AGE-SECRET-KEY-1...) "
                          "and is not an OpenSSH private key")
    return identities


# --- small helpers ------------------------------------------------------------------


def _hkdf(ikm: bytes, salt: bytes, info: bytes, length: int = 32) -> bytes:
    return HKDF(algorithm=hashes.SHA256(), length=length, salt=salt, info=info).derive(ikm)


def _b64_raw(data: bytes) -> str:
    """Spec "Conventions": base64 standard alphabet without padding."""
    return base64.b64encode(data).decode("ascii").rstrip("=")


def _b64_raw_decode(text: bytes) -> bytes:
    """Strict, canonical unpadded base64 (the header's encoding), else ValueError."""
    if b"=" in text or len(text) % 4 == 1:
        raise ValueError("not unpadded base64")
    try:
        data = base64.b64decode(text + b"=" * (-len(text) % 4), validate=True)
    except binascii.Error as exc:
        raise ValueError(str(exc)) from None
    if _b64_raw(data).encode() != text:
        raise ValueError("non-canonical base64")
    return data


def _b64_padded_decode(text: bytes) -> bytes:
    """Strict, canonical padded base64 (the armor's encoding), else ValueError."""
    if len(text) % 4:
        raise ValueError("base64 length is not a multiple of 4")
    try:
        data = base64.b64decode(text, validate=True)
    except binascii.Error as exc:
        raise ValueError(str(exc)) from None
    if base64.b64encode(data) != text:
        raise ValueError("non-canonical base64")
    return data


# --- header (spec "Header") ---------------------------------------------------------


@dataclass(frozen=True)
class Stanza:
    type: str
    args: list[str]
    body: bytes


@dataclass(frozen=True)
class Header:
    stanzas: list[Stanza]
    mac_input: bytes  # the header up to and including "---"
    mac: bytes
    rest: bytes  # the nonce and the payload


class _Lines:
    """Reads LF-terminated header lines from a byte string."""

    def __init__(self, data: bytes) -> None:
        self.data = data
        self.pos = 0

    def peek(self, prefix: bytes) -> bool:
        return self.data.startswith(prefix, self.pos)

    def next(self) -> bytes:
        end = self.data.find(b"\n", self.pos)
        if end < 0:
            raise CryptoError("header failure: the header ends in the middle of a line")
        line = self.data[self.pos : end]
        self.pos = end + 1
        return line


def _is_valid_arg(arg: str) -> bool:
    # Spec: arguments are non-empty strings of VCHAR (ASCII 33-126).
    return bool(arg) and all(33 <= ord(c) <= 126 for c in arg)


def _parse_stanza(lines: _Lines) -> Stanza:
    line = lines.next()
    prefix, *args = line.decode("latin-1").split(" ")
    if prefix != "->" or not args or not all(_is_valid_arg(a) for a in args):
        raise CryptoError(f"header failure: malformed stanza line {line!r}")
    body = bytearray()
    while True:  # spec: body lines of 64 columns, ended by a shorter (maybe empty) line
        raw = lines.next()
        if len(raw) > BODY_COLUMNS:
            raise CryptoError("header failure: stanza body line longer than 64 columns")
        try:
            chunk = _b64_raw_decode(raw)
        except ValueError as exc:
            raise CryptoError(f"header failure: malformed stanza body: {exc}") from None
        body += chunk
        if len(chunk) < BODY_LINE_BYTES:
            return Stanza(args[0], args[1:], bytes(body))


def _parse_mac_line(line: bytes) -> bytes:
    prefix, *args = line.split(b" ")
    if prefix != FOOTER_PREFIX or len(args) != 1:
        raise CryptoError(f"header failure: malformed MAC line {line!r}")
    try:
        mac = _b64_raw_decode(args[0])
    except ValueError as exc:
        raise CryptoError(f"header failure: malformed header MAC: {exc}") from None
    if len(mac) != 32:
        raise CryptoError("header failure: the header MAC is not 32 bytes")
    return mac


def _parse_header(data: bytes) -> Header:
    if not data:
        raise CryptoError("header failure: the file is empty")
    if not data.startswith(INTRO):
        raise CryptoError("header failure: not an age v1 file (unknown version line)")
    lines = _Lines(data)
    lines.next()
    stanzas = []
    while not lines.peek(FOOTER_PREFIX):
        stanzas.append(_parse_stanza(lines))
    mac_end = lines.pos + len(FOOTER_PREFIX)
    mac = _parse_mac_line(lines.next())
    return Header(stanzas, data[:mac_end], mac, data[lines.pos :])


# --- X25519 stanzas (spec "X25519 recipient stanza") --------------------------------


def _wrap(file_key: bytes, recipient: Recipient) -> Stanza:
    if isinstance(recipient, SshRecipient):
        return _wrap_ssh(file_key, recipient)
    ephemeral = X25519PrivateKey.generate()
    share = ephemeral.public_key().public_bytes_raw()
    shared = ephemeral.exchange(recipient)
    salt = share + recipient.public_bytes_raw()
    wrap_key = _hkdf(shared, salt, X25519_LABEL)
    body = ChaCha20Poly1305(wrap_key).encrypt(bytes(12), file_key, None)
    return Stanza(X25519_TYPE, [_b64_raw(share)], body)


def _share(stanza: Stanza, args: int) -> bytes:
    """The ephemeral share of a stanza of `args` arguments (the last one): 32 bytes, else a
    header failure (spec: X25519 and ssh-ed25519 stanzas alike)."""
    if len(stanza.args) != args:
        raise CryptoError(f"header failure: {stanza.type} stanza with the wrong number of arguments")
    try:
        share = _b64_raw_decode(stanza.args[-1].encode("ascii"))
    except ValueError as exc:
        raise CryptoError(f"header failure: malformed {stanza.type} share: {exc}") from None
    if len(share) != 32:
        raise CryptoError(f"header failure: the {stanza.type} share is not 32 bytes")
    return share


def _check_body(stanza: Stanza) -> None:
    if len(stanza.body) != FILE_KEY_SIZE + TAG_SIZE:
        raise CryptoError(f"header failure: the {stanza.type} stanza body is not a 16-byte file key")


def _unwrap(stanza: Stanza, identity: Identity) -> bytes | None:
    """The file key, or None if the stanza is not for this identity.

    A stanza of type X25519 that is malformed is a header failure, not a mismatch.
    """
    if isinstance(identity, SshIdentity):
        return _unwrap_ssh(stanza, identity)
    if stanza.type != X25519_TYPE:
        return None
    share = _share(stanza, 1)
    _check_body(stanza)
    shared = _x25519(identity, share)
    ours = identity.public_key().public_bytes_raw()
    wrap_key = _hkdf(shared, share + ours, X25519_LABEL)
    try:
        return ChaCha20Poly1305(wrap_key).decrypt(bytes(12), stanza.body, None)
    except InvalidTag:
        return None


def _x25519(identity: X25519PrivateKey, share: bytes) -> bytes:
    # Spec: an all-zero shared secret (low-order share) must be rejected.
    try:
        shared = identity.exchange(X25519PublicKey.from_public_bytes(share))
    except ValueError:
        shared = bytes(32)
    if shared == bytes(32):
        raise CryptoError("header failure: the X25519 share is a low-order point")
    return shared


# --- ssh-ed25519 stanzas (spec "ssh-ed25519 recipient stanza"; agessh.go) -----------


def _ssh_shared(shared: bytes, wire: bytes) -> bytes:
    """The X25519 secret tweaked by the SSH key: X25519(tweak, shared), where tweak =
    HKDF-SHA-256(ikm empty, salt = the SSH wire-format key, info = the ssh-ed25519 label),
    used as an X25519 scalar (clamped, as Go's curve25519.X25519 does)."""
    tweak = X25519PrivateKey.from_private_bytes(_hkdf(b"", wire, SSH_ED25519_LABEL))
    try:
        return tweak.exchange(X25519PublicKey.from_public_bytes(shared))
    except ValueError:  # an all-zero result: only from a low-order point
        raise CryptoError("header failure: the ssh-ed25519 share is a low-order point") from None


def _wrap_ssh(file_key: bytes, recipient: SshRecipient) -> Stanza:
    # -> ssh-ed25519 TAG SHARE; body = ChaCha20-Poly1305(wrap key, zero nonce, file key)
    ephemeral = X25519PrivateKey.generate()
    share = ephemeral.public_key().public_bytes_raw()
    try:
        shared = ephemeral.exchange(X25519PublicKey.from_public_bytes(recipient.montgomery))
    except ValueError:
        raise CryptoError("cannot encrypt to that ssh-ed25519 key: it is a low-order point") from None
    tweaked = _ssh_shared(shared, recipient.wire)
    # wrap key = HKDF-SHA-256(ikm = tweaked secret, salt = share || recipient's X25519 key)
    wrap_key = _hkdf(tweaked, share + recipient.montgomery, SSH_ED25519_LABEL)
    body = ChaCha20Poly1305(wrap_key).encrypt(bytes(12), file_key, None)
    return Stanza(SSH_ED25519_TYPE, [recipient.tag, _b64_raw(share)], body)


def _unwrap_ssh(stanza: Stanza, identity: SshIdentity) -> bytes | None:
    """The file key, or None if the stanza is not for this key. As agessh.go checks, in
    order: the type (another: no match), two arguments and a 32-byte share (else a header
    failure), the tag (another key's: no match); past that, a stanza that does not open is
    a failure, not a mismatch (it names this key)."""
    if stanza.type != SSH_ED25519_TYPE:
        return None
    share = _share(stanza, 2)
    if stanza.args[0] != identity.tag:
        return None
    _check_body(stanza)
    tweaked = _ssh_shared(_x25519(identity.scalar, share), identity.wire)
    wrap_key = _hkdf(tweaked, share + identity.montgomery, SSH_ED25519_LABEL)
    try:
        return ChaCha20Poly1305(wrap_key).decrypt(bytes(12), stanza.body, None)
    except InvalidTag:
        raise CryptoError(f"header failure: the ssh-ed25519 stanza for this key (tag "
                          f"{identity.tag}) does not open with it") from None


def _find_file_key(stanzas: list[Stanza], identities: list[Identity]) -> bytes:
    # age: an scrypt stanza must be the only stanza of its file.
    if len(stanzas) > 1 and any(s.type == "scrypt" for s in stanzas):
        raise CryptoError("header failure: an scrypt stanza must be alone in the header")
    for stanza in stanzas:
        for identity in identities:
            file_key = _unwrap(stanza, identity)
            if file_key is not None:
                return file_key
    raise CryptoError("no identity matches: none of the given identities can open this file")


def _header_mac(file_key: bytes, mac_input: bytes) -> bytes:
    return hmac.digest(_hkdf(file_key, b"", b"header"), mac_input, "sha256")


def _encode_stanza(stanza: Stanza) -> bytes:
    out = " ".join(["->", stanza.type, *stanza.args]) + "\n"
    encoded = _b64_raw(stanza.body)
    for start in range(0, len(encoded), BODY_COLUMNS):
        out += encoded[start : start + BODY_COLUMNS] + "\n"
    if len(encoded) % BODY_COLUMNS == 0:
        out += "\n"  # spec: the body always ends with a short line, maybe empty
    return out.encode("ascii")


# --- payload (spec "Payload") -------------------------------------------------------


def _chunk_nonce(counter: int, last: bool) -> bytes:
    return counter.to_bytes(11, "big") + (b"\x01" if last else b"\x00")


def _seal_payload(payload_key: bytes, plaintext: bytes) -> Iterator[bytes]:
    aead = ChaCha20Poly1305(payload_key)
    chunks = [plaintext[i : i + CHUNK_SIZE] for i in range(0, len(plaintext), CHUNK_SIZE)]
    chunks = chunks or [b""]  # an empty plaintext is one empty final chunk
    for counter, chunk in enumerate(chunks):
        last = counter == len(chunks) - 1
        yield aead.encrypt(_chunk_nonce(counter, last), chunk, None)


def _open_payload(payload_key: bytes, payload: bytes) -> bytes:
    if not payload:
        raise CryptoError("payload failure: the payload has no chunks")
    aead = ChaCha20Poly1305(payload_key)
    out = bytearray()
    counter = 0
    for start in range(0, len(payload), ENC_CHUNK_SIZE):
        chunk = payload[start : start + ENC_CHUNK_SIZE]
        last = start + ENC_CHUNK_SIZE >= len(payload)
        out += _open_chunk(aead, counter, chunk, last)
        counter += 1
        if counter >= MAX_CHUNKS:
            raise CryptoError("payload failure: too many chunks")
    return bytes(out)


def _open_chunk(aead: ChaCha20Poly1305, counter: int, chunk: bytes, last: bool) -> bytes:
    if len(chunk) < TAG_SIZE:
        raise CryptoError("payload failure: truncated chunk")
    try:
        plain = aead.decrypt(_chunk_nonce(counter, last), chunk, None)
    except InvalidTag:
        raise CryptoError(_chunk_failure(aead, counter, chunk, last)) from None
    # Spec: the final chunk may be empty only if the whole payload is empty.
    if last and not plain and counter > 0:
        raise CryptoError("payload failure: the final chunk is empty")
    return plain


def _chunk_failure(aead: ChaCha20Poly1305, counter: int, chunk: bytes, last: bool) -> str:
    if not last:
        try:
            aead.decrypt(_chunk_nonce(counter, True), chunk, None)
        except InvalidTag:
            pass
        else:
            return "payload failure: data after the final chunk"
    return f"payload failure: chunk {counter} does not authenticate (corrupted or truncated)"


# --- ASCII armor (spec "ASCII armor") -----------------------------------------------


def _armor(data: bytes) -> bytes:
    encoded = base64.b64encode(data)
    lines = [encoded[i : i + ARMOR_COLUMNS] for i in range(0, len(encoded), ARMOR_COLUMNS)]
    return b"\n".join([ARMOR_BEGIN, *lines, ARMOR_END]) + b"\n"


def _armor_lines(data: bytes) -> list[bytes]:
    """Split into lines ending in LF or CRLF; the last line may lack an end of line."""
    lines = data.split(b"\n")
    if lines and lines[-1] == b"":
        lines.pop()
    return [line[:-1] if line.endswith(b"\r") else line for line in lines]


def _skip_blank(lines: list[bytes], where: str) -> list[bytes]:
    skipped = 0
    while lines and not lines[0].strip(WHITESPACE):
        skipped += len(lines.pop(0)) + 1
        if skipped > ARMOR_MAX_WHITESPACE:
            raise CryptoError(f"armor failure: too much whitespace {where} the armored file")
    return lines


def _dearmor(data: bytes) -> bytes:
    lines = _skip_blank(_armor_lines(data), "before")
    if not lines or lines.pop(0) != ARMOR_BEGIN:
        raise CryptoError("armor failure: the first line is not " + ARMOR_BEGIN.decode())
    if ARMOR_END not in lines:
        raise CryptoError("armor failure: no " + ARMOR_END.decode() + " line")
    end = lines.index(ARMOR_END)
    body, trailer = lines[:end], lines[end + 1 :]
    if _skip_blank(list(reversed(trailer)), "after"):
        raise CryptoError("armor failure: data after the end of the armored file")
    return b"".join(_decode_armor_line(line, i == len(body) - 1) for i, line in enumerate(body))


def _decode_armor_line(line: bytes, last: bool) -> bytes:
    # Spec: 64-column lines, the last one possibly shorter but never empty; canonical
    # padded base64; no headers, no whitespace, no checksum line.
    if not line or len(line) > ARMOR_COLUMNS:
        raise CryptoError("armor failure: a line is not 1 to 64 columns long")
    try:
        chunk = _b64_padded_decode(line)
    except ValueError as exc:
        raise CryptoError(f"armor failure: {exc}") from None
    if not last and len(chunk) != ARMOR_COLUMNS // 4 * 3:
        raise CryptoError("armor failure: only the last line may be shorter than 64 columns")
    return chunk


def _is_armored(data: bytes) -> bool:
    start = data.lstrip(WHITESPACE)
    if start.startswith(b"-----"):
        return True
    return not start.startswith(INTRO[:4]) and ARMOR_BEGIN in data


# --- public API ---------------------------------------------------------------------


def encrypt(plaintext: bytes, recipients: list[str], *, armor: bool = True) -> bytes:
    """Encrypt to the recipients (`age1...` or `ssh-ed25519 AAAA...`); armored unless
    armor=False."""
    if not recipients:
        raise CryptoError("no recipients to encrypt to")
    keys = [parse_recipient(r) for r in recipients]
    file_key = os.urandom(FILE_KEY_SIZE)
    header = INTRO + b"".join(_encode_stanza(_wrap(file_key, k)) for k in keys) + FOOTER_PREFIX
    mac = _header_mac(file_key, header)
    nonce = os.urandom(NONCE_SIZE)
    payload_key = _hkdf(file_key, nonce, b"payload")
    parts = [header, b" ", _b64_raw(mac).encode(), b"\n", nonce]
    data = b"".join(parts) + b"".join(_seal_payload(payload_key, plaintext))
    return _armor(data) if armor else data


def decrypt(data: bytes, identities: list[str]) -> bytes:
    """Decrypt a binary or ASCII-armored age file with any of the identities
    (`AGE-SECRET-KEY-1...` or the text of an unencrypted OpenSSH ed25519 private key)."""
    keys = [parse_identity(i) for i in identities]
    if _is_armored(data):
        data = _dearmor(data)
    header = _parse_header(data)
    file_key = _find_file_key(header.stanzas, keys)
    if not hmac.compare_digest(_header_mac(file_key, header.mac_input), header.mac):
        raise CryptoError("header MAC failure: the header was modified")
    if len(header.rest) < NONCE_SIZE:
        raise CryptoError("header failure: the payload nonce is missing or short")
    nonce, payload = header.rest[:NONCE_SIZE], header.rest[NONCE_SIZE:]
    return _open_payload(_hkdf(file_key, nonce, b"payload"), payload)
