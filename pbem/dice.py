"""Dice anyone can re-check: a published seed chain, player salts, keyed rolls.

Every derivation here is documented byte for byte in ``docs/fairness.md`` and frozen by
known-answer tests in ``tests/engine/test_dice.py``; changing a single byte of any of them breaks
every finished campaign's audit, so a new scheme needs a new version tag
(``pbem-dice-v2``), never an edit of this one.

Open dice (combat, tables)::

    s_N = top (32 random bytes, kept by the referee)
    s_{k-1} = SHA-256(s_k)                   anchor s_0 published at `pbem new`
    batch k uses s_k, revealed after use     anyone checks SHA-256(s_k) == s_{k-1}
    key_k = HMAC-SHA-256(s_k, b"pbem-dice-v1" + salts_digest(salts))
    die   = rejection sampling over HMAC-SHA-256(key_k, label + NUL + counter32)

Hidden randomness (deck order, face-down draws) uses ``hidden_key(secret)`` with the same
``die``/``shuffle``; the secret is committed at `new` and revealed by `unseal`.

Python's ``random`` is never used: its sequences are not promised across versions, and
nobody outside Python could reproduce them.
"""

from __future__ import annotations

import hashlib
import hmac
import json
from abc import ABC, abstractmethod
from collections.abc import Callable, Iterable, Sequence
from typing import NamedTuple, Protocol, TypeVar

__all__ = [
    "DICE_TAG",
    "HIDDEN_COMMIT_TAG",
    "HIDDEN_TAG",
    "MIX_TAG",
    "MAX_SIDES",
    "MIN_SECRET_BYTES",
    "SEED_BYTES",
    "DiceMismatch",
    "KeyedRng",
    "ReplayRng",
    "Rng",
    "Roll",
    "anchor",
    "batch_key",
    "check_label",
    "check_salts",
    "commit_secret",
    "die",
    "draw_key",
    "hidden_key",
    "mixed_key",
    "make_chain",
    "salts_canonical",
    "salts_digest",
    "seed_at",
    "shuffle",
    "two_d6",
    "verify_chain",
    "verify_link",
    "verify_rolls",
]

T = TypeVar("T")

# Domain-separation tags: the same seed or secret must never yield the same bytes in two
# roles (a batch key that equals a hidden key would let one reveal leak the other).
DICE_TAG = b"pbem-dice-v1"
HIDDEN_TAG = b"pbem-hidden-v1"
MIX_TAG = b"pbem-hidden-mix-v1"
OWNER_TAG = b"pbem-owner-draw-v1\x00"
HIDDEN_COMMIT_TAG = b"pbem-hidden-commit-v1\x00"

SEED_BYTES = 32
MAX_SIDES = 2**16
# A hidden secret shorter than this could be brute-forced from its published commitment.
MIN_SECRET_BYTES = 16

_WORD_SPACE = 2**32
_MAX_COUNTER = 2**32  # the counter is 4 bytes on the wire
_HEX_DIGITS = frozenset("0123456789abcdef")


class DiceMismatch(ValueError):
    """A replayed roll does not match the record (label, sides, value or count)."""


class Roll(NamedTuple):
    """One die as recorded in the log: enough to replay it and to recompute it."""

    label: str
    sides: int
    value: int


# --------------------------------------------------------------------------- seed chain


def _sha256(data: bytes) -> bytes:
    return hashlib.sha256(data).digest()


def _check_top(top: bytes) -> None:
    if not isinstance(top, bytes) or len(top) != SEED_BYTES:
        raise ValueError(f"the top seed must be {SEED_BYTES} bytes")


def _check_length(length: int) -> None:
    if isinstance(length, bool) or not isinstance(length, int) or length < 1:
        raise ValueError("the chain length must be a positive integer")


def make_chain(top: bytes, length: int) -> list[bytes]:
    """Return ``[s_0, s_1, ..., s_N]`` with ``s_N = top`` and ``s_{k-1} = SHA-256(s_k)``.

    ``s_0`` is the anchor published at campaign creation; batch k (1..N) uses ``s_k``.
    The chain runs backwards so that revealing ``s_k`` proves it was fixed in advance
    (it hashes to the already public ``s_{k-1}``) while saying nothing about ``s_{k+1}``.
    """
    _check_top(top)
    _check_length(length)
    chain = [top]
    for _ in range(length):
        chain.append(_sha256(chain[-1]))
    chain.reverse()
    return chain


def seed_at(top: bytes, length: int, k: int) -> bytes:
    """Return ``s_k`` of the chain of ``length`` from ``top`` without keeping the list."""
    _check_top(top)
    _check_length(length)
    if isinstance(k, bool) or not isinstance(k, int) or not 0 <= k <= length:
        raise ValueError(f"k must be in 0..{length}")
    seed = top
    for _ in range(length - k):
        seed = _sha256(seed)
    return seed


def anchor(top: bytes, length: int) -> bytes:
    """The public commitment to the whole chain: ``s_0 = SHA-256^length(top)``."""
    return seed_at(top, length, 0)


def verify_link(prev: bytes, seed: bytes) -> bool:
    """True if ``seed`` is the chain element after ``prev``: ``SHA-256(seed) == prev``."""
    if not isinstance(prev, bytes) or not isinstance(seed, bytes):
        return False
    return hmac.compare_digest(_sha256(seed), prev)


def verify_chain(anchor_: bytes, seeds: Iterable[bytes]) -> bool:
    """True if ``seeds`` (s_1, s_2, ... in batch order) each link to the one before."""
    prev = anchor_
    for seed in seeds:
        if not verify_link(prev, seed):
            return False
        prev = seed
    return True


# ------------------------------------------------------------------------ salts and keys


def check_salts(salts: dict[str, str]) -> None:
    """Raise ValueError unless ``salts`` has a single canonical JSON form.

    Factions must be printable ASCII without ``"`` or ``\\`` and salts lowercase hex of
    even length: then the canonical JSON needs no escaping and sorts the same in every
    language, so an independent verifier can build it with string concatenation. "00FF"
    and "00ff" would otherwise be the same salt with two digests.
    """
    if not isinstance(salts, dict):
        raise ValueError("salts must be a mapping of faction to hex string")
    for faction, salt in salts.items():
        if (
            not isinstance(faction, str)
            or not faction
            or not (faction.isascii() and faction.isprintable())
            or '"' in faction
            or "\\" in faction
        ):
            raise ValueError(f"bad faction name in salts: {faction!r}")
        if not isinstance(salt, str) or len(salt) % 2 or not set(salt) <= _HEX_DIGITS:
            raise ValueError(f"the salt of {faction} must be lowercase hex: {salt!r}")


def salts_canonical(salts: dict[str, str]) -> bytes:
    """The canonical JSON bytes of the salts: sorted keys, no spaces, UTF-8."""
    check_salts(salts)
    text = json.dumps(salts, sort_keys=True, separators=(",", ":"), ensure_ascii=False)
    return text.encode("utf-8")


def salts_digest(salts: dict[str, str]) -> bytes:
    """SHA-256 of the canonical JSON of the faction -> salt mapping (``{}`` when empty)."""
    return _sha256(salts_canonical(salts))


def batch_key(seed: bytes, salts: dict[str, str]) -> bytes:
    """``HMAC-SHA-256(key=seed, msg=b"pbem-dice-v1" + salts_digest(salts))``.

    The referee fixed the seed before seeing the salts and the players committed their
    salts before seeing the seed, so neither side alone can steer the key.
    """
    if not isinstance(seed, bytes) or len(seed) != SEED_BYTES:
        raise ValueError(f"a chain seed must be {SEED_BYTES} bytes")
    return hmac.digest(seed, DICE_TAG + salts_digest(salts), "sha256")


def hidden_key(secret: bytes) -> bytes:
    """``HMAC-SHA-256(key=secret, msg=b"pbem-hidden-v1")``: the key of hidden draws."""
    _check_secret(secret)
    return hmac.digest(secret, HIDDEN_TAG, "sha256")


def mixed_key(hidden: bytes, contributions: dict[str, str]) -> bytes:
    """``HMAC-SHA-256(key=hidden, msg=b"pbem-hidden-mix-v1" + salts_digest(contributions))``:
    the key of hidden draws once the players' contributions are in (pbem.contributions),
    `hidden` being ``hidden_key(secret)``."""
    if not isinstance(hidden, bytes) or len(hidden) != 32:
        raise ValueError("a hidden key is 32 bytes")
    return hmac.digest(hidden, MIX_TAG + salts_digest(contributions), "sha256")


def draw_key(hidden: bytes, contributions: dict[str, str] | None) -> bytes:
    """The key of hidden draws: `mixed_key` once a campaign's contribution round is over,
    the hidden key itself before it, or in a campaign made without the round (None)."""
    return hidden if contributions is None else mixed_key(hidden, contributions)


def owner_key(draw: bytes, owner: str) -> bytes:
    """``HMAC-SHA-256(key=draw, msg=b"pbem-owner-draw-v1\\0" + owner)``: the key of the hidden
    draws that concern `owner` alone (the Chechen's face-down units), sealed to that owner
    and the referee, so that the owner can check them as soon as he sees them
    (docs/fairness.md, "Draws you can check at once")."""
    if not isinstance(draw, bytes) or len(draw) != 32:
        raise ValueError("a draw key is 32 bytes")
    return hmac.digest(draw, OWNER_TAG + owner.encode("utf-8"), "sha256")


def commit_secret(secret: bytes) -> str:
    """``SHA-256(b"pbem-hidden-commit-v1\\0" + secret)`` as hex, published at `new`."""
    _check_secret(secret)
    return _sha256(HIDDEN_COMMIT_TAG + secret).hex()


def _check_secret(secret: bytes) -> None:
    if not isinstance(secret, bytes) or len(secret) < MIN_SECRET_BYTES:
        raise ValueError(f"a hidden secret must be at least {MIN_SECRET_BYTES} bytes")


# -------------------------------------------------------------------------- dice proper


def check_label(label: str) -> None:
    """Raise ValueError unless ``label`` is non-empty printable ASCII (so no NUL).

    Printable ASCII encodes the same in every language a verifier may be written in
    (no Unicode normalisation, no escaping), and a label cannot hide control characters
    in a report or in the log.
    """
    if not isinstance(label, str) or not label or not (label.isascii() and label.isprintable()):
        raise ValueError(f"a dice label must be non-empty printable ASCII: {label!r}")


def _check_sides(sides: int) -> None:
    if isinstance(sides, bool) or not isinstance(sides, int) or not 2 <= sides <= MAX_SIDES:
        raise ValueError(f"sides must be an integer in 2..{MAX_SIDES}: {sides!r}")


def die(key: bytes, label: str, sides: int) -> int:
    """One die in ``1..sides`` for ``label`` under ``key``, by rejection sampling.

    For counter = 0, 1, ...: w = the first 4 bytes (big-endian) of
    ``HMAC-SHA-256(key, label_utf8 + b"\\0" + counter.to_bytes(4, "big"))``; words at or
    above the largest multiple of ``sides`` are rejected so every face is exactly equally
    likely (plain ``w % sides`` would favour the low faces).
    """
    check_label(label)
    _check_sides(sides)
    if not isinstance(key, bytes) or not key:
        raise ValueError("a dice key must be non-empty bytes")
    return _draw(key, label, sides)


def _draw(key: bytes, label: str, sides: int) -> int:
    # die() without the checks, for callers that have already validated their inputs
    # (KeyedRng checks each label once when it claims it).
    limit = _WORD_SPACE - _WORD_SPACE % sides
    prefix = label.encode("utf-8") + b"\x00"
    for counter in range(_MAX_COUNTER):
        mac = hmac.digest(key, prefix + counter.to_bytes(4, "big"), "sha256")
        word = int.from_bytes(mac[:4], "big")
        if word < limit:
            return word % sides + 1
    # Each try is rejected with probability < 2**-16; 2**32 rejections in a row means
    # the HMAC is broken, not that we were unlucky.
    raise RuntimeError("dice counter exhausted")  # pragma: no cover


def _fisher_yates(roll: Callable[[str, int], int], label: str, items: Sequence[T]) -> list[T]:
    # From the last index down, each position takes a uniform pick among those not yet
    # fixed; one shared implementation keeps the module function and the Rng classes
    # byte-identical.
    out = list(items)
    for i in range(len(out) - 1, 0, -1):
        j = roll(f"{label}:{i}", i + 1) - 1
        out[i], out[j] = out[j], out[i]
    return out


def shuffle(key: bytes, label: str, items: Sequence[T]) -> list[T]:
    """A new list: Fisher-Yates with ``j = die(key, f"{label}:{i}", i + 1) - 1``."""
    check_label(label)
    return _fisher_yates(lambda sub, sides: die(key, sub, sides), label, items)


# ------------------------------------------------------------------------- Rng objects


class Rng(Protocol):
    """What game rules receive: every random choice goes through a unique label."""

    def roll(self, label: str, sides: int = 6) -> int: ...

    def shuffle(self, label: str, items: Sequence[T]) -> list[T]: ...

    def choice(self, label: str, items: Sequence[T]) -> T: ...


class _LabelledRng(ABC):
    """Shared shuffle/choice on top of ``roll`` and the once-only label rule."""

    used: set[str]

    def _claim(self, label: str, sides: int) -> None:
        # Validate before claiming, so a bad call does not burn the label.
        check_label(label)
        _check_sides(sides)
        if label in self.used:
            # The same label under the same key gives the same value: a repeated label
            # would be a repeated die, so it is a bug in the rules, not bad luck.
            raise ValueError(f"dice label used twice: {label}")
        self.used.add(label)

    @abstractmethod
    def roll(self, label: str, sides: int = 6) -> int:
        """One die of ``sides`` under ``label``."""

    def shuffle(self, label: str, items: Sequence[T]) -> list[T]:
        """Fisher-Yates through ``roll`` (labels ``f"{label}:{i}"``), so it is recorded."""
        check_label(label)
        return _fisher_yates(self.roll, label, items)

    def choice(self, label: str, items: Sequence[T]) -> T:
        """``items[roll(label, len(items)) - 1]``; a single item is taken without a roll."""
        if not items:
            raise ValueError(f"choice from nothing: {label}")
        if len(items) == 1:
            check_label(label)
            return items[0]
        return items[self.roll(label, len(items)) - 1]


class KeyedRng(_LabelledRng):
    """Live dice from a batch (or hidden) key; every roll is appended to ``rolls``.

    ``used`` holds labels already rolled earlier in the campaign; it is copied, and the
    labels of this object's rolls are added to the copy (``self.used``).
    """

    def __init__(self, key: bytes, *, used: set[str] | None = None) -> None:
        if not isinstance(key, bytes) or not key:
            raise ValueError("a dice key must be non-empty bytes")
        self._key = key
        self.used = set(used or ())
        self.rolls: list[Roll] = []

    def roll(self, label: str, sides: int = 6) -> int:
        self._claim(label, sides)
        value = _draw(self._key, label, sides)
        self.rolls.append(Roll(label, sides, value))
        return value


class ReplayRng(_LabelledRng):
    """Replays recorded rolls in order, for audit and for re-folding history.

    It checks that the rules ask for exactly the recorded dice (same label and sides, no
    more); that the values themselves are right is ``verify_rolls``' job, given the key.
    """

    def __init__(self, rolls: Sequence[Roll]) -> None:
        self._rolls = [Roll(*r) for r in rolls]
        self._next = 0
        self.used = set()

    def roll(self, label: str, sides: int = 6) -> int:
        if self._next >= len(self._rolls):
            raise DiceMismatch(f"no recorded roll left for {label} (d{sides})")
        rec = self._rolls[self._next]
        if rec.label != label or rec.sides != sides:
            raise DiceMismatch(
                f"roll {self._next + 1}: rules asked for {label} (d{sides}),"
                f" record has {rec.label} (d{rec.sides})"
            )
        if isinstance(rec.value, bool) or not isinstance(rec.value, int):
            raise DiceMismatch(f"roll {self._next + 1}: {label}: value is not an integer")
        if not 1 <= rec.value <= sides:
            raise DiceMismatch(f"roll {self._next + 1}: {label}: {rec.value} is not 1..{sides}")
        self._claim(label, sides)
        self._next += 1
        return rec.value

    def finished(self) -> bool:
        """True once every recorded roll has been consumed (no roll went unasked)."""
        return self._next == len(self._rolls)


def verify_rolls(key: bytes, rolls: Iterable[Roll]) -> list[str]:
    """Recompute each recorded roll from ``key``; one message per wrong value."""
    problems = []
    for n, rec in enumerate(rolls, 1):
        label, sides, value = rec
        try:
            expected = die(key, label, sides)
        except ValueError as exc:
            problems.append(f"roll {n}: {exc}")
            continue
        if value != expected:
            problems.append(f"roll {n}: {label} (d{sides}) recorded {value}, recomputed {expected}")
    return problems


def two_d6(rng: Rng, label: str) -> tuple[int, int]:
    """Two d6 under ``f"{label}:d1"`` and ``f"{label}:d2"`` (kept apart for tables that
    read the dice separately, such as doubles)."""
    return rng.roll(f"{label}:d1", 6), rng.roll(f"{label}:d2", 6)
