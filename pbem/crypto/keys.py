"""The cryptography the rest of pbem uses (docs/design.md "Secrets").

Canonical JSON, entry signatures, padded age envelopes (`seal`/`unseal`), commitments
and the key files `pbem keygen` writes. The formats underneath are in `pbem.crypto.age`
and `pbem.crypto.sshsig`; this module only combines them.
"""

from __future__ import annotations

import base64
import binascii
import contextlib
import hashlib
import hmac
import json
import os
import struct
from collections.abc import Sequence
from pathlib import Path

from cryptography.exceptions import InvalidSignature
from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PrivateKey

from pbem.canonical import canonical_json
from pbem.crypto import age, sshsig
from pbem.errors import CryptoError, KeyFileError

__all__ = [
    "COMMIT_CONTEXT_KEYS",
    "PAD_SIZE",
    "canonical_json",
    "check_commitment",
    "commit",
    "keygen_files",
    "load_identity_file",
    "load_ssh_private_file",
    "pad",
    "read_key_card",
    "seal",
    "ssh_recipient",
    "sign_entry",
    "unpad",
    "unseal",
    "verify_entry",
]

PAD_SIZE = 512
# Orders files sealed until their phase resolves (with their body and signature) pad to
# this block: one size for every ordinary file, so an envelope does not tell how long a
# faction's orders are (a file past 16 KiB shows only its 16 KiB block count).
ORDERS_PAD_SIZE = 16384
PAD_SIZES = (PAD_SIZE, ORDERS_PAD_SIZE)
COMMIT_PREFIX = b"pbem-commit-v1\0"
COMMIT_CONTEXT_KEYS = frozenset({"campaign", "kind", "id", "turn", "owner"})
NONCE_SIZE = 32


# --- entry signatures (docs/design.md "Log entries": the referee's signature) -------


def sign_entry(private_key: Ed25519PrivateKey, obj: object) -> str:
    """The base64 Ed25519 signature of the canonical JSON of obj."""
    return base64.b64encode(private_key.sign(canonical_json(obj))).decode("ascii")


def verify_entry(public_line: str, obj: object, sig: str) -> bool:
    """Whether sig is the signature of obj's canonical JSON by the key on public_line.

    A malformed signature is simply False; a malformed public key raises KeyFileError.
    """
    key = sshsig.load_public_key(public_line, "the signer's public key")
    try:
        raw = base64.b64decode(sig, validate=True)
        key.verify(raw, canonical_json(obj))
    except (binascii.Error, ValueError, InvalidSignature):
        return False
    return True


# --- padding (docs/design.md "Envelopes": a sealed "3" and "5", one length) ---------


def _padded_length(length: int, size: int) -> int:
    needed = 4 + length
    return max(size, -(-needed // size) * size)


def pad(data: bytes, size: int = PAD_SIZE) -> bytes:
    """4-byte big-endian length, data, zero bytes up to `size`.

    A value too long to fit in `size` bytes is padded to the next multiple of `size`,
    so only values of very different lengths can be told apart by their envelopes.
    """
    if size < 5:
        raise ValueError("the pad size must leave room for the length and data")
    total = _padded_length(len(data), size)
    return struct.pack(">I", len(data)) + data + bytes(total - 4 - len(data))


def unpad(padded: bytes, size: int = PAD_SIZE) -> bytes:
    """The data inside `pad(data, size)`; CryptoError unless it is exactly that form."""
    if len(padded) < 4:
        raise CryptoError("malformed padding: too short")
    (length,) = struct.unpack(">I", padded[:4])
    if 4 + length > len(padded) or len(padded) != _padded_length(length, size):
        raise CryptoError("malformed padding: the length does not match")
    if any(padded[4 + length :]):
        raise CryptoError("malformed padding: non-zero padding bytes")
    return padded[4 : 4 + length]


# --- envelopes (docs/design.md "Envelopes") -----------------------------------------


def seal(value: object, recipients: list[str], pad_size: int = PAD_SIZE) -> str:
    """An armored age file holding the padded canonical JSON of value (`pad_size`, one of
    PAD_SIZES: the reader finds which from the envelope's length)."""
    if pad_size not in PAD_SIZES:
        raise ValueError(f"pad size {pad_size}: one of {PAD_SIZES}")
    data = age.encrypt(pad(canonical_json(value), pad_size), recipients, armor=True)
    return data.decode("ascii")


def unseal(text: str, identities: list[str]) -> object:
    """The value in a sealed envelope; CryptoError if it cannot be opened or is malformed."""
    padded = age.decrypt(text.encode("utf-8"), identities)
    plain = None
    for size in sorted(PAD_SIZES, reverse=True):  # both readings give the same data
        with contextlib.suppress(CryptoError):
            plain = unpad(padded, size)
            break
    if plain is None:
        plain = unpad(padded)  # says what is wrong with it
    try:
        value: object = json.loads(plain.decode("utf-8"))
        canonical = canonical_json(value)
    except (UnicodeError, ValueError, TypeError):
        raise CryptoError("the sealed value is not canonical JSON") from None
    if canonical != plain:
        raise CryptoError("the sealed value is not canonical JSON")
    return value


# --- commitments (docs/design.md "Commitments") -------------------------------------


def _commit_digest(ctx: dict[str, object], nonce: bytes, value: object) -> bytes:
    missing = COMMIT_CONTEXT_KEYS - ctx.keys()
    extra = ctx.keys() - COMMIT_CONTEXT_KEYS
    if missing or extra:
        raise ValueError(
            f"commitment context needs exactly {sorted(COMMIT_CONTEXT_KEYS)}; "
            f"missing {sorted(missing)}, extra {sorted(extra)}"
        )
    if len(nonce) != NONCE_SIZE:
        raise ValueError("a commitment nonce is 32 bytes")
    context = canonical_json(ctx)
    parts = [COMMIT_PREFIX, struct.pack(">I", len(context)), context, nonce, canonical_json(value)]
    return hashlib.sha256(b"".join(parts)).digest()


def commit(ctx: dict[str, object], value: object, nonce: bytes | None = None) -> tuple[str, bytes]:
    """Commit to value: returns (hex C, nonce); the nonce is random unless given.

    C = SHA-256 of these bytes, in order:

    - ``b"pbem-commit-v1\\0"`` (15 bytes, domain separation);
    - len(ctx): the length of ctx in bytes, 4 bytes big-endian;
    - ctx: canonical JSON of a dict with exactly the keys campaign, kind, id, turn
      and owner;
    - nonce: 32 bytes;
    - value: the canonical JSON of the value (last, so it needs no length).
    """
    nonce = os.urandom(NONCE_SIZE) if nonce is None else nonce
    return _commit_digest(ctx, nonce, value).hex(), nonce


def check_commitment(C: str, ctx: dict[str, object], nonce: bytes, value: object) -> bool:
    """Whether (nonce, value) opens commitment C in context ctx (see `commit`)."""
    if len(nonce) != NONCE_SIZE:
        return False
    expected = _commit_digest(ctx, nonce, value).hex()
    return hmac.compare_digest(expected, C.lower())


# --- key files (docs/design.md "Keys"; `pbem keygen`) -------------------------------


def _write_new(path: Path, data: bytes, mode: int) -> None:
    try:
        fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL, mode)
    except FileExistsError:
        raise KeyFileError(f"{path}: already exists; pbem will not overwrite a key") from None
    except OSError as exc:
        raise KeyFileError(f"{path}: cannot write ({exc.strerror})") from None
    with os.fdopen(fd, "wb") as handle:
        handle.write(data)
    os.chmod(path, mode)  # the umask may have narrowed it; make it exact


def keygen_files(out_stem: Path, material: bytes | None = None) -> str:
    """Write `<stem>.key`, `<stem>_ed25519` (both 0600) and `<stem>_ed25519.pub`.

    Returns the public card: the `age1...` line and the `ssh-ed25519 ...` line. With
    `material` (32 bytes or more) the keys derive from it, for reproducible campaigns
    (`pbem new --seed`); such keys are not secret.
    """
    stem = Path(out_stem)
    paths = [stem.with_name(stem.name + suffix) for suffix in (".key", "_ed25519", "_ed25519.pub")]
    for path in paths:  # check all first, so a refusal leaves no half-written key set
        if path.exists():
            raise KeyFileError(f"{path}: already exists; pbem will not overwrite a key")
    if material is None:
        identity, recipient = age.generate_identity()
        private, public = sshsig.generate_ssh_key(stem.name)
    else:
        identity, recipient = age.identity_from_bytes(_derive(material, b"age-x25519"))
        private, public = sshsig.ssh_key_from_bytes(_derive(material, b"ssh-ed25519"), stem.name)
    _write_new(paths[0], age.identity_file_text(identity).encode(), 0o600)
    _write_new(paths[1], private, 0o600)
    _write_new(paths[2], (public + "\n").encode(), 0o644)
    return f"{recipient}\n{public}\n"


def _derive(material: bytes, purpose: bytes) -> bytes:
    return hmac.new(material, b"pbem-key-v1\0" + purpose, hashlib.sha256).digest()


MAX_KEY_BYTES = 64 * 1024  # a key file or card is a few hundred bytes


def _read_bytes(path: Path) -> bytes:
    """A key file: only a regular file, bounded (a symlink to /dev/urandom is refused)."""
    from pbem.yamlio import read_regular

    try:
        return read_regular(path, MAX_KEY_BYTES)
    except FileNotFoundError:
        raise KeyFileError(f"{path}: no such file") from None
    except OSError as exc:
        raise KeyFileError(f"{path}: unreadable ({exc.strerror})") from None


def _read_text(path: Path) -> str:
    try:
        return _read_bytes(path).decode("utf-8")
    except UnicodeError as exc:
        raise KeyFileError(f"{path}: unreadable ({exc})") from None


def read_key_card(path: Path) -> tuple[str, str]:
    """(age recipient, ssh public line) from a public card; lines in any order, `#` comments.

    A card is one `ssh-ed25519 ...` line (a player's own `id_ed25519.pub` is a whole card:
    the SSH key is then also the age recipient, `ssh-ed25519 AAAA...` without its comment)
    and at most one `age1...` line (the X25519 recipient `pbem keygen` makes)."""
    ages, sshs = [], []
    for line in (raw.strip() for raw in _read_text(path).splitlines()):
        if not line or line.startswith("#"):
            continue
        if line.startswith("age1"):
            try:
                age.parse_recipient(line)
            except CryptoError as exc:
                raise KeyFileError(f"{path}: {exc.message}") from None
            ages.append(line)
        elif line.startswith("ssh-"):
            sshsig.load_public_key(line, str(path))
            sshs.append(line)
        else:
            raise KeyFileError(f"{path}: unexpected line {line[:40]!r} in a public key card")
    if len(ages) > 1 or len(sshs) != 1:
        raise KeyFileError(
            f"{path}: a public key card needs exactly one ssh-ed25519 line (an id_ed25519.pub "
            "is a whole card) and at most one age1... line"
        )
    return (ages[0] if ages else ssh_recipient(sshs[0])), sshs[0]


def ssh_recipient(line: str) -> str:
    """The age recipient of an `ssh-ed25519 AAAA... [comment]` line: the line without its
    comment (what campaign.yaml records)."""
    return " ".join(line.split()[:2])


def _first_existing(paths: Path | Sequence[Path], what: str) -> Path:
    candidates = [paths] if isinstance(paths, Path) else list(paths)
    for candidate in candidates:
        if candidate.exists():
            return candidate
    raise KeyFileError(
        f"no {what} found", details=[f"looked in: {candidate}" for candidate in candidates]
    )


def load_identity_file(path: Path | Sequence[Path]) -> list[str]:
    """The age identities in the first of the given files that exists: an age identity file
    (`AGE-SECRET-KEY-1...` lines) or an unencrypted OpenSSH ed25519 private key
    (`id_ed25519`), which is then the one identity."""
    found = _first_existing(path, "age identity file")
    text = _read_text(found)
    try:
        return age.read_identities(text)
    except CryptoError as exc:
        if age.is_ssh_identity(text):  # the message says what is wrong with the SSH key
            reason = exc.message.removeprefix("the SSH identity: ")
            raise KeyFileError(f"{found}: {reason}") from None
        raise KeyFileError(f"{found}: not an age identity file: {exc.message}") from None


def load_ssh_private_file(path: Path | Sequence[Path]) -> Ed25519PrivateKey:
    """The ed25519 private key in the first of the given files that exists."""
    found = _first_existing(path, "SSH private key file")
    data = _read_bytes(found)
    return sshsig.load_private_key(data, str(found))
