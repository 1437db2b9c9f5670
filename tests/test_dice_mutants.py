"""pbem.dice: the exact messages and boundaries that mutation testing found unpinned.

Each test kills mutants that `python benchmarks/mutation.py pbem/dice.py` reported as
surviving: the error messages users see (exactly), the off-by-one edges of every check,
and the roll numbers in replay and verify messages.
"""

from __future__ import annotations

import hashlib
import hmac
from typing import Any

import pytest

from pbem import dice
from pbem.dice import DiceMismatch, KeyedRng, ReplayRng, Roll

TOP = hashlib.sha256(b"example top seed").digest()
KEY = bytes.fromhex("2ad1566758f1539db1eb9e9752bb5fa5e6c48b012870cce8ff9cfc1c47461313")


def test_chain_input_messages() -> None:
    with pytest.raises(ValueError) as exc:
        dice.make_chain(b"short", 3)
    assert str(exc.value) == "the top seed must be 32 bytes"
    with pytest.raises(ValueError) as exc:
        dice.make_chain(TOP, 0)
    assert str(exc.value) == "the chain length must be a positive integer"
    with pytest.raises(ValueError) as exc:
        dice.make_chain(TOP, True)  # a bool is an int, but not a length
    assert str(exc.value) == "the chain length must be a positive integer"
    with pytest.raises(ValueError) as exc:
        dice.seed_at(TOP, 3, 4)
    assert str(exc.value) == "k must be in 0..3"
    with pytest.raises(ValueError) as exc:
        dice.seed_at(TOP, 3, True)
    assert str(exc.value) == "k must be in 0..3"


def test_a_chain_of_length_one() -> None:
    assert dice.make_chain(TOP, 1) == [hashlib.sha256(TOP).digest(), TOP]
    assert dice.anchor(TOP, 1) == hashlib.sha256(TOP).digest()
    assert dice.seed_at(TOP, 1, 1) == TOP


def test_verify_link_of_non_bytes_is_false() -> None:
    s1 = dice.seed_at(TOP, 3, 1)
    s0 = dice.anchor(TOP, 3)
    assert dice.verify_link(s0, s1) is True
    assert dice.verify_link(s0, s1.hex()) is False  # type: ignore[arg-type]
    assert dice.verify_link(s0.hex(), s1) is False  # type: ignore[arg-type]
    assert dice.verify_link(None, None) is False  # type: ignore[arg-type]


def test_salts_and_key_messages() -> None:
    with pytest.raises(ValueError) as exc:
        dice.check_salts(["red", "00"])  # type: ignore[arg-type]
    assert str(exc.value) == "salts must be a mapping of faction to hex string"
    with pytest.raises(ValueError) as exc:
        dice.batch_key(b"short", {})
    assert str(exc.value) == "a chain seed must be 32 bytes"


def test_a_secret_of_exactly_the_minimum_length() -> None:
    secret = bytes(range(16))
    assert dice.hidden_key(secret) == hmac.new(secret, b"pbem-hidden-v1", hashlib.sha256).digest()
    assert dice.commit_secret(secret) == hashlib.sha256(
        b"pbem-hidden-commit-v1\x00" + secret).hexdigest()
    with pytest.raises(ValueError) as exc:
        dice.hidden_key(secret[:15])
    assert str(exc.value) == "a hidden secret must be at least 16 bytes"


def test_choice_from_nothing_message() -> None:
    with pytest.raises(ValueError) as exc:
        KeyedRng(KEY).choice("pick:3", [])
    assert str(exc.value) == "choice from nothing: pick:3"


def _recorded() -> list[Roll]:
    rng = KeyedRng(KEY)
    rng.roll("a:1")
    rng.roll("a:2", 8)
    return rng.rolls


def test_replay_messages_name_the_roll() -> None:
    replay = ReplayRng(_recorded())
    with pytest.raises(DiceMismatch) as exc:
        replay.roll("a:x")
    assert str(exc.value) == "roll 1: rules asked for a:x (d6), record has a:1 (d6)"
    replay.roll("a:1")
    with pytest.raises(DiceMismatch) as exc:
        replay.roll("a:2", 6)
    assert str(exc.value) == "roll 2: rules asked for a:2 (d6), record has a:2 (d8)"
    replay.roll("a:2", 8)
    with pytest.raises(DiceMismatch) as exc:
        replay.roll("a:3", 4)
    assert str(exc.value) == "no recorded roll left for a:3 (d4)"


@pytest.mark.parametrize("value", [True, "3", 3.0])
def test_replay_rejects_a_value_that_is_not_an_integer(value: Any) -> None:
    with pytest.raises(DiceMismatch) as exc:
        ReplayRng([Roll("a:1", 6, value)]).roll("a:1")
    assert str(exc.value) == "roll 1: a:1: value is not an integer"


@pytest.mark.parametrize("value", [0, 7])
def test_replay_rejects_a_value_out_of_range(value: int) -> None:
    with pytest.raises(DiceMismatch) as exc:
        ReplayRng([Roll("a:1", 6, value)]).roll("a:1")
    assert str(exc.value) == f"roll 1: a:1: {value} is not 1..6"


def test_verify_rolls_messages_count_from_one_and_go_on() -> None:
    first, second = _recorded()
    wrong = second.value % 8 + 1
    problems = dice.verify_rolls(KEY, [Roll("", 6, 1), Roll("a:0", 1, 1), first,
                                       second._replace(value=wrong)])
    assert problems == [
        "roll 1: a dice label must be non-empty printable ASCII: ''",
        "roll 2: sides must be an integer in 2..65536: 1",
        f"roll 4: a:2 (d8) recorded {wrong}, recomputed {second.value}",
    ]


def test_a_word_equal_to_the_limit_is_rejected() -> None:
    # Found by search: the first word of this label is exactly the largest multiple of
    # 37253 below 2**32, so it must be rejected (a `<=` would accept it and give 1).
    label, sides = "example:edge:46570", 37253
    limit = 2**32 - 2**32 % sides
    first = hmac.new(KEY, label.encode() + b"\x00" + (0).to_bytes(4, "big"), hashlib.sha256)
    assert int.from_bytes(first.digest()[:4], "big") == limit == 0xFFFF8447
    second = hmac.new(KEY, label.encode() + b"\x00" + (1).to_bytes(4, "big"), hashlib.sha256)
    assert second.digest()[:4].hex() == "650fd07f"
    assert dice.die(KEY, label, sides) == 0x650FD07F % sides + 1 == 2190


def test_an_exhausted_counter_raises(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(dice, "_MAX_COUNTER", 0)
    with pytest.raises(RuntimeError) as exc:
        dice.die(KEY, "x", 6)
    assert str(exc.value) == "dice counter exhausted"


@pytest.mark.parametrize("key", [b"", "not bytes", bytearray(b"k")])
def test_a_dice_key_must_be_non_empty_bytes(key: Any) -> None:
    with pytest.raises(ValueError) as exc:
        dice.die(key, "x", 6)
    assert str(exc.value) == "a dice key must be non-empty bytes"
    with pytest.raises(ValueError) as exc:
        KeyedRng(key)
    assert str(exc.value) == "a dice key must be non-empty bytes"


@pytest.mark.parametrize(
    ("salts", "message"),
    [
        ({"re\\d": "00"}, "bad faction name in salts: 're\\\\d'"),
        ({'re"d': "00"}, "bad faction name in salts: 're\"d'"),
        ({"": "00"}, "bad faction name in salts: ''"),
        ({"red": "0F"}, "the salt of red must be lowercase hex: '0F'"),
        ({"red": "0f0"}, "the salt of red must be lowercase hex: '0f0'"),
    ],
)
def test_salt_messages(salts: dict[str, str], message: str) -> None:
    with pytest.raises(ValueError) as exc:
        dice.check_salts(salts)
    assert str(exc.value) == message
