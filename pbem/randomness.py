"""Where a campaign's randomness comes from (DESIGN.md "Randomness", docs/fairness.md).

From the referee's secret (`.pbem/secret`, 32 bytes) two things derive:

- the **seed chain**: top = HMAC-SHA-256(secret, "pbem-chain-top-v1"); its anchor
  SHA-256^N(top) is published at `new` (campaign.yaml `dice:` and the first log entry).
  Each resolution that rolls dice uses the next element s_k (k = 1, 2, ...) and publishes it
  in its log entry, so anyone can check SHA-256(s_k) == s_{k-1} and recompute every die:
  key = HMAC(s_k, "pbem-dice-v1" || SHA-256(salts)), salts being those the players revealed
  with the orders of that phase;
- the **hidden secret**: HMAC-SHA-256(secret, "pbem-hidden-v1"), committed at `new`
  (SHA-256("pbem-hidden-commit-v1\\0" || hidden)) and published only by `pbem unseal`; it
  keys draws that must stay unknown until then (the set-up draws today, decks later).

The chain is fixed before the first order arrives, so the referee cannot choose dice; the
salts arrive with the orders, so nobody can compute a batch before every order is in.
"""

from __future__ import annotations

import hashlib
import hmac
from typing import Any

from pbem import dice

CHAIN_LENGTH = 4096  # batches; a long campaign with many undos uses a few hundred


def _derive(secret: bytes, purpose: bytes) -> bytes:
    return hmac.new(secret, purpose, hashlib.sha256).digest()


def chain_top(secret: bytes) -> bytes:
    return _derive(secret, b"pbem-chain-top-v1")


def hidden_secret(secret: bytes) -> bytes:
    return _derive(secret, b"pbem-hidden-v1")


def published(secret: bytes) -> dict[str, Any]:
    """What `new` publishes: the chain's anchor and length, the hidden secret's commitment."""
    return {
        "anchor": dice.anchor(chain_top(secret), CHAIN_LENGTH).hex(),
        "length": CHAIN_LENGTH,
        "hidden_commitment": dice.commit_secret(hidden_secret(secret)),
    }


def batch_seed(secret: bytes, k: int) -> bytes:
    if not 1 <= k <= CHAIN_LENGTH:
        raise ValueError(f"the seed chain has {CHAIN_LENGTH} batches; batch {k} is past its end")
    return dice.seed_at(chain_top(secret), CHAIN_LENGTH, k)


def batch_rng(secret: bytes, k: int, salts: dict[str, str]) -> tuple[dice.KeyedRng, str]:
    """The live dice of batch k, and its seed (hex) to publish with the results."""
    seed = batch_seed(secret, k)
    return dice.KeyedRng(dice.batch_key(seed, salts)), seed.hex()


def hidden_rng(secret: bytes) -> dice.KeyedRng:
    return dice.KeyedRng(dice.hidden_key(hidden_secret(secret)))


def bot_key(secret: bytes, purpose: str) -> bytes:
    """Choices pbem makes for a player (defaults when no orders came): never recorded as dice."""
    return _derive(secret, b"pbem-bot-v1\0" + purpose.encode())


def salt_commitment(salt: str) -> str:
    """A player commits to the salt of their next orders file with SHA-256 of its bytes."""
    return hashlib.sha256(bytes.fromhex(salt)).hexdigest()
