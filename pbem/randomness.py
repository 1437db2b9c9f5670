"""Where a campaign's randomness comes from (docs/design.md "Randomness", docs/fairness.md).

From the referee's secret (`.pbem/secret`, 32 bytes) two things derive:

- the **seed chain**: top = HMAC-SHA-256(secret, "pbem-chain-top-v1"); its anchor
  SHA-256^N(top) is published at `new` (campaign.yaml `dice:` and the first log entry).
  Each resolution that rolls dice uses the next element s_k (k = 1, 2, ...) and publishes it
  in its log entry, so anyone can check SHA-256(s_k) == s_{k-1} and recompute every die:
  key = HMAC(s_k, "pbem-dice-v1" || SHA-256(salts)), salts being those the players revealed
  with the orders of that phase;
- the **hidden secret**: HMAC-SHA-256(secret, "pbem-hidden-v1"), committed at `new`
  (SHA-256("pbem-hidden-commit-v1\\0" || hidden)) and published only by `pbem unseal`; it
  keys draws that must stay unknown until then (the set-up draws, every shuffle), mixed
  with the salts the players contribute in the round after `new` (pbem.contributions), so
  that a referee cannot have chosen a secret for the draws it gives.

The chain is fixed before the first order arrives, so the referee cannot choose dice; the
salts arrive with the orders, so nobody can compute a batch before every order is in.
"""

from __future__ import annotations

import hashlib
import hmac
import itertools
from collections.abc import Iterator
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


def hidden_draw_key(secret: bytes, contributions: dict[str, str] | None) -> bytes:
    """The key of hidden draws: the hidden key, mixed with the players' contributions once
    they are in (pbem.contributions); None for a campaign made without the round."""
    return dice.draw_key(dice.hidden_key(hidden_secret(secret)), contributions)


def referee_hidden_key(secret: bytes) -> bytes:
    """The hidden key (the one `unseal` lets everyone derive), from the referee's secret."""
    return dice.hidden_key(hidden_secret(secret))


def dice_key(entry: dict[str, Any], hidden_key: bytes | None) -> bytes | None:
    """The one place that says which key a step's dice are drawn with (docs/fairness.md):
    `new`'s set-up, the hidden key; the set-up after the contribution round (`hidden_draws`),
    the hidden key mixed with the players' salts; every other resolution, its batch's
    published seed with the salts it mixes. The referee passes his hidden key and the entry
    he is about to write; an audit, what the log publishes (the hidden key after unseal).
    None where the key cannot be known (a hidden draw, without the hidden key)."""
    if entry["type"] == "new":
        return hidden_key
    if entry.get("hidden_draws"):
        return None if hidden_key is None else dice.draw_key(hidden_key, entry.get("salts", {}))
    if entry.get("seed"):
        return dice.batch_key(bytes.fromhex(entry["seed"]), entry.get("salts", {}))
    return None


def bot_key(secret: bytes, purpose: str) -> bytes:
    """Choices pbem makes for a player (defaults when no orders came): never recorded as dice."""
    return _derive(secret, b"pbem-bot-v1\0" + purpose.encode())


def salt_commitment(salt: str) -> str:
    """A player commits to the salt of their next orders file with SHA-256 of its bytes."""
    return hashlib.sha256(bytes.fromhex(salt)).hexdigest()


# --- salts ------------------------------------------------------------------------------
# docs/fairness.md "Salts": the bot's are a public chain (predictable: they exist so that bot
# games exercise the scheme); a player's derive from their own signing key, so nothing is
# stored and every machine with that key finds the same ones.


def bot_salts(campaign_id: str, faction: str) -> Iterator[str]:
    """The bot's salts of a faction, in order: b_0 = SHA-256("pbem-bot-salt-v1\\0" ||
    campaign || "\\0" || faction), b_{k+1} = SHA-256("pbem-bot-salt-v1\\0" || bytes(b_k))."""
    salt = hashlib.sha256(f"pbem-bot-salt-v1\0{campaign_id}\0{faction}".encode()).hexdigest()
    while True:
        yield salt
        salt = bot_salt_after(salt)


def bot_salt_after(salt: str) -> str:
    return hashlib.sha256(b"pbem-bot-salt-v1\0" + bytes.fromhex(salt)).hexdigest()


def is_bot_salt(campaign_id: str, faction: str, salt: str, within: int) -> bool:
    """Whether `salt` is one of the first `within` bot salts of the faction (anyone can tell:
    the bot's chain is public)."""
    return salt in itertools.islice(bot_salts(campaign_id, faction), within)


def player_salt_key(signing_seed: bytes) -> bytes:
    """The key of a player's salts: HMAC(the 32-byte seed of their ed25519 signing key,
    "pbem-player-salt-v1"). Secret as the signing key is; unknown to the referee."""
    return _derive(signing_seed, b"pbem-player-salt-v1")


def player_salt(key: bytes, campaign_id: str, faction: str, index: int) -> str:
    """The player's salt number `index`: HMAC(key, campaign || 0 || faction || 0 || index
    in decimal), 32 bytes in hex. `pbem sign` uses index 2s for a salt of its own and 2s+1
    for the one it commits to (salt_next), s being the campaign's step when it signs."""
    message = f"{campaign_id}\0{faction}\0{index}".encode()
    return hmac.new(key, message, hashlib.sha256).hexdigest()


def opening_salt(key: bytes, campaign_id: str, faction: str, committed: str,
                 steps: int) -> str | None:
    """The salt that opens `committed` (a salt_next of an earlier file): one the player's
    key made at a step up to `steps`, else one of the bot's (a file the bot or an NMR
    policy wrote), else None (a salt the player wrote by hand)."""
    for index in range(2 * steps + 2):
        salt = player_salt(key, campaign_id, faction, index)
        if salt_commitment(salt) == committed:
            return salt
    for salt in itertools.islice(bot_salts(campaign_id, faction), steps + 2):
        if salt_commitment(salt) == committed:
            return salt
    return None


def player_salted(campaign_id: str, entry: dict[str, Any], within: int) -> list[str]:
    """The factions whose own salt a batch mixes in: its salts less the bot's, which are a
    public chain anyone can recompute (docs/fairness.md "Salts"). A batch with none has no
    player's salt in its dice: only the referee's seed chain, fixed at `new`, keys them."""
    return sorted(f for f, salt in (entry.get("salts") or {}).items()
                  if salt and not is_bot_salt(campaign_id, f, salt, within))
