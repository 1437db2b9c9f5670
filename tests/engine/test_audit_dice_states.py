"""`audit.dice_states`, what `pbem dice` lists, on a hand-made log: every field of every
die, for each kind of entry that rolls (the set-up under the hidden key, the hidden draws
after the contribution round, a seeded batch, a batch without a seed) and each way the
hidden secret can be published (right, wrong, not yet)."""

from __future__ import annotations

import itertools
from typing import Any

from pbem import audit, dice, randomness

HIDDEN = bytes(range(32))
OTHER = bytes(range(1, 33))
SEED = bytes(range(100, 132))
CAMPAIGN = "c-17"


def _bot(campaign: str, faction: str, index: int) -> str:
    return next(itertools.islice(randomness.bot_salts(campaign, faction), index, None))


def _roll(key: bytes, label: str, sides: int, *, wrong: bool = False) -> dict[str, Any]:
    value = dice.die(key, label, sides)
    return {"label": label, "sides": sides, "value": value % sides + 1 if wrong else value}


def _log(campaign: str, *, hidden: bytes | None = HIDDEN, commitment: bool = True) -> list[dict[str, Any]]:
    """Six entries (so the bot's first 8 salts count as the bot's, the 9th as a player's)."""
    hkey = dice.hidden_key(HIDDEN)
    round_salts = {"red": "aa" * 32, "white": "bb" * 32}
    batch_salts = {"red": _bot(campaign, "red", 7), "white": _bot(campaign, "white", 8),
                   "green": "", "black": "cd" * 32}
    new: dict[str, Any] = {"seq": 1, "turn": 0, "type": "new",
                           "dice": [_roll(hkey, "setup.a", 6), _roll(hkey, "setup.b", 10, wrong=True)]}
    if commitment:
        new["randomness"] = {"hidden_commitment": dice.commit_secret(HIDDEN)}
    entries = [
        new,
        {"seq": 2, "turn": 0, "type": "resolve", "salts": {"red": "ee" * 32}},
        {"seq": 3, "turn": 0, "type": "resolve", "hidden_draws": True, "salts": round_salts,
         "dice": [_roll(dice.mixed_key(hkey, round_salts), "deal.1", 20),
                  _roll(hkey, "deal.2", 6)]},
        {"seq": 4, "turn": 2, "type": "resolve", "batch": 7, "seed": SEED.hex(), "salts": batch_salts,
         "dice": [_roll(dice.batch_key(SEED, batch_salts), "combat.1", 6),
                  _roll(dice.batch_key(SEED, batch_salts), "combat.2", 12, wrong=True)]},
        {"seq": 5, "turn": 3, "type": "resolve", "batch": 8, "dice": [{"label": "x", "sides": 6, "value": 4}]},
    ]
    entries.append({"seq": 6, "turn": 3, "type": "resolve"} if hidden is None else
                   {"seq": 6, "turn": 3, "type": "unseal", "hidden": hidden.hex()})
    return entries


def _row(seq: int, turn: int, label: str, sides: int, value: int, state: str, batch: int | None,
         salted: list[str]) -> dict[str, Any]:
    return {"seq": seq, "turn": turn, "label": label, "sides": sides, "value": value, "state": state,
            "batch": batch, "player_salts": salted}


def _expected(entries: list[dict[str, Any]], states: list[str]) -> list[dict[str, Any]]:
    rolled = [(e, d) for e in entries for d in e.get("dice", [])]
    salted = {1: [], 3: ["red", "white"], 4: ["black", "white"], 5: []}
    return [_row(e["seq"], e["turn"], d["label"], d["sides"], d["value"], state, e.get("batch"),
                 salted[e["seq"]])
            for (e, d), state in zip(rolled, states, strict=True)]


def test_every_field_of_every_die_once_unsealed() -> None:
    """With the right secret published: the set-up dice and the hidden draws are checked
    (the round's draws under the mixed key, so one drawn under the plain hidden key is
    WRONG), a seeded batch under its key, and a batch that lost its seed is WRONG. The bot's
    first len(log)+2 salts are not a player's; the ninth is, as is every other salt."""
    entries = _log(CAMPAIGN)
    assert audit.dice_states(entries, CAMPAIGN) == _expected(
        entries, ["verified", "WRONG", "verified", "WRONG", "verified", "WRONG", "WRONG"])


def test_the_campaign_id_names_the_bot_chain() -> None:
    """Without the campaign's id the bot's salts of another campaign read as players'."""
    entries = _log("")
    assert audit.dice_states(entries) == _expected(
        entries, ["verified", "WRONG", "verified", "WRONG", "verified", "WRONG", "WRONG"])
    other = audit.dice_states(entries, CAMPAIGN)
    assert [r["player_salts"] for r in other if r["seq"] == 4] == [["black", "red", "white"]] * 2


def test_before_unseal_the_hidden_dice_are_hidden_and_the_rest_checked() -> None:
    entries = _log(CAMPAIGN, hidden=None)
    assert audit.dice_states(entries, CAMPAIGN) == _expected(
        entries, ["hidden", "hidden", "hidden", "hidden", "verified", "WRONG", "WRONG"])


def test_a_published_secret_that_does_not_open_the_commitment_checks_nothing_hidden() -> None:
    entries = _log(CAMPAIGN, hidden=OTHER)
    assert audit.dice_states(entries, CAMPAIGN) == _expected(
        entries, ["hidden", "hidden", "hidden", "hidden", "verified", "WRONG", "WRONG"])


def test_a_log_without_a_published_commitment_opens_nothing() -> None:
    entries = _log(CAMPAIGN, commitment=False)
    assert audit.dice_states(entries, CAMPAIGN) == _expected(
        entries, ["hidden", "hidden", "hidden", "hidden", "verified", "WRONG", "WRONG"])


def test_the_round_without_salts_is_drawn_under_the_mix_of_none() -> None:
    """A hidden-draw entry that records no salts is checked against the mix of no
    contributions, never the plain hidden key."""
    hkey = dice.hidden_key(HIDDEN)
    entries = _log(CAMPAIGN)
    entries[2] = {"seq": 3, "turn": 0, "type": "resolve", "hidden_draws": True,
                  "dice": [_roll(dice.mixed_key(hkey, {}), "deal.1", 20), _roll(hkey, "deal.2", 6)]}
    states = [r["state"] for r in audit.dice_states(entries, CAMPAIGN) if r["seq"] == 3]
    assert states == ["verified", "WRONG"]


def test_the_first_entry_alone_publishes_the_commitment() -> None:
    """A commitment in a later entry is not the one `new` published."""
    entries = _log(CAMPAIGN, commitment=False)
    entries[1]["randomness"] = {"hidden_commitment": dice.commit_secret(HIDDEN)}
    assert {r["state"] for r in audit.dice_states(entries, CAMPAIGN) if r["seq"] in (1, 3)} == {"hidden"}


def test_the_first_published_secret_counts() -> None:
    entries = _log(CAMPAIGN, hidden=OTHER)
    entries.append({"seq": 7, "turn": 3, "type": "unseal", "hidden": HIDDEN.hex()})
    assert {r["state"] for r in audit.dice_states(entries, CAMPAIGN) if r["seq"] == 1} == {"hidden"}
    entries[5]["hidden"] = HIDDEN.hex()
    entries[6]["hidden"] = OTHER.hex()
    assert [r["state"] for r in audit.dice_states(entries, CAMPAIGN) if r["seq"] == 1] == ["verified", "WRONG"]


def test_nothing_rolled_nothing_listed() -> None:
    assert audit.dice_states([]) == []
    assert audit.dice_states([{"seq": 1, "turn": 0, "type": "new", "dice": []}]) == []


def test_a_seeded_batch_without_salts_is_keyed_by_the_empty_mapping() -> None:
    entries = _log(CAMPAIGN)
    entries[4] = {"seq": 5, "turn": 3, "type": "resolve", "batch": 8, "seed": SEED.hex(),
                  "dice": [_roll(dice.batch_key(SEED, {}), "x", 6)]}
    assert [(r["state"], r["player_salts"]) for r in audit.dice_states(entries, CAMPAIGN)
            if r["seq"] == 5] == [("verified", [])]


def test_the_set_up_names_no_player_salt() -> None:
    """The set-up is drawn before any player has sent a salt: whatever salts its entry
    carries, none is listed as mixed into its dice."""
    entries = _log(CAMPAIGN)
    entries[0]["salts"] = {"red": "ab" * 32}
    assert [r["player_salts"] for r in audit.dice_states(entries, CAMPAIGN) if r["seq"] == 1] == [[], []]


def test_the_referee_and_the_audit_take_one_key_for_each_kind_of_step() -> None:
    """randomness.dice_key decides for both: the referee with his hidden key and the entry he
    is about to write, the audit with what the log publishes."""
    secret = bytes(range(7, 39))
    mine = randomness.referee_hidden_key(secret)
    published = dice.hidden_key(randomness.hidden_secret(secret))  # what unseal lets anyone derive
    assert mine == published
    salts = {"red": "aa" * 32}
    seed = randomness.batch_seed(secret, 3)
    assert randomness.dice_key({"type": "new"}, mine) == randomness.hidden_draw_key(secret, None)
    assert randomness.dice_key({"type": "resolve", "hidden_draws": True, "salts": salts}, published) \
        == randomness.hidden_draw_key(secret, salts) != randomness.hidden_draw_key(secret, None)
    assert randomness.dice_key({"type": "resolve", "seed": seed.hex(), "salts": salts}, None) \
        == dice.batch_key(seed, salts) != dice.batch_key(seed, {})
    assert randomness.dice_key({"type": "resolve", "hidden_draws": True, "salts": salts}, None) is None
    assert randomness.dice_key({"type": "new"}, None) is None
    assert randomness.dice_key({"type": "resolve", "salts": salts}, mine) is None  # no seed: no key
