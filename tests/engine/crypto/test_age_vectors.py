"""pbem.crypto.age against the C2SP/CCTV age test vectors (docs/design.md "Envelopes").

Every vector whose identities include an X25519 one (only those are passed), or that
has no identity, must behave as its `expect` line says; failures must also name the
stage the vector expects. Passphrase (scrypt) and post-quantum (hybrid) vectors that
pbem cannot open are skipped by name.
"""

from __future__ import annotations

import hashlib
import zlib
from dataclasses import dataclass, field
from pathlib import Path

import pytest

from pbem.crypto import age
from pbem.errors import CryptoError
from tests.conftest import SHARED, need_shared

VECTORS = need_shared(SHARED / "testdata" / "age-vectors", module=True)
NOT_VECTORS = frozenset({"LICENSE", "SOURCE.md"})

SCRYPT_REASON = "passphrase (scrypt) recipients are not used by pbem"
HYBRID_REASON = "post-quantum (mlkem768x25519 hybrid) recipients are not used by pbem"

# Frozen by name. Not here although named so: scrypt_and_x25519 and hybrid_x25519_arg,
# which carry an X25519 identity and must fail; they are run.
SKIPPED: dict[str, str] = {
    **{
        name: SCRYPT_REASON
        for name in (
            "armor_scrypt scrypt scrypt_bad_tag scrypt_double scrypt_extra_argument "
            "scrypt_long_file_key scrypt_no_match scrypt_not_canonical_body "
            "scrypt_not_canonical_salt scrypt_salt_long scrypt_salt_missing scrypt_salt_short "
            "scrypt_uppercase scrypt_work_factor_23 scrypt_work_factor_hex "
            "scrypt_work_factor_leading_garbage scrypt_work_factor_leading_plus "
            "scrypt_work_factor_leading_zero_decimal scrypt_work_factor_leading_zero_octal "
            "scrypt_work_factor_missing scrypt_work_factor_negative scrypt_work_factor_overflow "
            "scrypt_work_factor_trailing_garbage scrypt_work_factor_wrong "
            "scrypt_work_factor_zero"
        ).split()
    },
    **{
        name: HYBRID_REASON
        for name in (
            "armor_hybrid hybrid hybrid_and_x25519 hybrid_bad_tag hybrid_currupted_enc_mlkem "
            "hybrid_currupted_enc_x25519 hybrid_extra_argument hybrid_grease hybrid_identity "
            "hybrid_long_file_key hybrid_long_share hybrid_low_order hybrid_multiple_recipients "
            "hybrid_no_match hybrid_not_canonical_body hybrid_not_canonical_enc "
            "hybrid_short_share hybrid_uppercase"
        ).split()
    },
}

# What the message of the CryptoError starts with, for each kind of expected failure.
FAILURE_PREFIX = {
    "armor failure": "armor failure",
    "header failure": "header failure",
    "HMAC failure": "header MAC failure",
    "payload failure": "payload failure",
    "no match": "no identity matches",
}
MIN_X25519_VECTORS = 98


@dataclass
class Vector:
    name: str
    expect: str
    identities: list[str] = field(default_factory=list)
    payload: str | None = None
    passphrases: int = 0
    armored: bool = False
    data: bytes = b""

    @property
    def x25519_identities(self) -> list[str]:
        return [i for i in self.identities if i.startswith("AGE-SECRET-KEY-1")]

    @property
    def runnable(self) -> bool:
        """Has an X25519 identity, or no identity and no passphrase at all."""
        if self.identities:
            return bool(self.x25519_identities)
        return self.passphrases == 0


def parse_vector(path: Path) -> Vector:
    """The header lines up to the first blank line, then the age file (maybe zlib'd)."""
    raw = path.read_bytes()
    head, sep, body = raw.partition(b"\n\n")
    assert sep, f"{path.name}: no blank line after the vector header"
    vector = Vector(name=path.name, expect="")
    compressed = False
    for line in head.decode("utf-8").split("\n"):
        key, _, value = line.partition(": ")
        if key == "expect":
            vector.expect = value
        elif key == "payload":
            vector.payload = value
        elif key == "identity":
            vector.identities.append(value)
        elif key == "passphrase":
            vector.passphrases += 1
        elif key == "armored":
            vector.armored = value == "yes"
        elif key == "compressed":
            assert value == "zlib", f"{path.name}: unknown compression {value!r}"
            compressed = True
        else:
            assert key in {"file key", "comment"}, f"{path.name}: unknown header {line!r}"
    vector.data = zlib.decompress(body) if compressed else body
    assert vector.expect in {"success", *FAILURE_PREFIX}, f"{path.name}: {vector.expect!r}"
    return vector


def all_vector_paths() -> list[Path]:
    return sorted(p for p in VECTORS.iterdir() if p.is_file() and p.name not in NOT_VECTORS)


ALL = [parse_vector(p) for p in all_vector_paths()]
RUN = [v for v in ALL if v.runnable]


@pytest.mark.parametrize("vector", ALL, ids=[v.name for v in ALL])
def test_vector(vector: Vector) -> None:
    if vector.name in SKIPPED:
        pytest.skip(SKIPPED[vector.name])
    assert vector.runnable, f"{vector.name} can be run by pbem and must not be skipped"
    identities = vector.x25519_identities
    if vector.expect == "success":
        plaintext = age.decrypt(vector.data, identities)
        assert hashlib.sha256(plaintext).hexdigest() == vector.payload
    else:
        with pytest.raises(CryptoError) as caught:
            age.decrypt(vector.data, identities)
        assert caught.value.message.startswith(FAILURE_PREFIX[vector.expect]), (
            f"{vector.name}: expected {vector.expect}, got {caught.value.message!r}"
        )


def test_skip_list_is_exactly_the_vectors_pbem_cannot_run() -> None:
    not_runnable = {v.name for v in ALL if not v.runnable}
    assert set(SKIPPED) == not_runnable


def test_enough_x25519_vectors_run() -> None:
    assert len(RUN) >= MIN_X25519_VECTORS, f"only {len(RUN)} vectors run"
    assert len(RUN) + len(SKIPPED) == len(ALL)
    assert any(v.armored for v in RUN) and any(v.expect == "success" for v in RUN)
