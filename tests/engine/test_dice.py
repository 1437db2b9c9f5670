"""Tests for pbem.dice: known answers frozen from docs/fairness.md, fairness, replay, and
the exact messages and edges: the error messages users see (word for word), the off-by-one
edges of every check, and the roll numbers in replay and verify messages.

The known-answer vectors were computed by pbem.dice and cross-checked with OpenSSL's
command line (see the end of docs/fairness.md); if one of them changes, every finished
campaign's audit breaks, so fix the code, not the vector.
"""

from __future__ import annotations

import hashlib
import hmac
import re
from collections import Counter
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from pbem import dice
from pbem.dice import DiceMismatch, KeyedRng, ReplayRng, Roll

DOC = Path(__file__).resolve().parents[2] / "docs" / "fairness.md"

# ---------------------------------------------------------------- frozen vectors (doc)

TOP = hashlib.sha256(b"example top seed").digest()
CHAIN_HEX = [
    "7783fa131a26219db84eb779686b779bac6a534dfb6b40bd50484166a9d55ace",  # s_0 anchor
    "4bb8b17d150175a44a5d718200133a7625ac30f365265cea07f225c47f006a9a",  # s_1
    "7c852893aef70425e31e486257c8043b96bc63a7904d4596ae9da57d57316c7f",  # s_2
    "a5aaa871caa5bb23f20ebf1830d47e858b2f40d3ae726b1d7e721b4b480c1b23",  # s_3 = top
]
SALTS = {"red": "00ff", "south": "a1b2"}
CANONICAL_HEX = "7b22726564223a2230306666222c22736f757468223a2261316232227d"
SALTS_DIGEST = "72001caff8b126559487bbd00e1fbd882339c56354fce2880347c7dd9791c9fb"
EMPTY_SALTS_DIGEST = "44136fa355b3678a1146ad16f7e8649e94fb4fc21fe77e8310c060f61caaff8a"
DICE_TAG_HEX = "7062656d2d646963652d7631"
KEY1 = "2ad1566758f1539db1eb9e9752bb5fa5e6c48b012870cce8ff9cfc1c47461313"
KEY1_NO_SALTS = "8e93e90e4acfe4873dbe90b91afa96a64b624f798a89c26c82582ebe3e3f9c67"
KEY1_RED_00FE = "793c3229dbf4bcef1da83f594ebbae734ed7a27c636b7cc96f7363565e8101c3"

D6_LIMIT = 4294967292
FIRST_LABEL_HEX = "636f6d6261743a6b617a616e3a74333a61746b3a72313a6431"
FIRST_MAC = "e23efc63e7bc33692434c444969bcf52327826b5277b646a0c51e05fcc118ebb"
# label suffix -> (first 4 bytes of the HMAC at counter 0, w, w mod 6, die)
ATK_DICE = {
    "d1": ("e23efc63", 3795778659, 3, 4),
    "d2": ("7df5ef26", 2113269542, 2, 3),
    "d3": ("6ac95009", 1791578121, 3, 4),
    "d4": ("b2fbc33d", 3002843965, 1, 2),
    "d5": ("04a3b17c", 77836668, 0, 1),
    "d6": ("fa4a029d", 4199154333, 3, 4),
}
TWO_D6 = {
    "combat:kazan:t3:def:r1:d1": ("dba119ac", 3684768172, 5),
    "combat:kazan:t3:def:r1:d2": ("b1514a4d", 2974894669, 2),
}
# i -> (first 4 bytes, w, die, list after the swap)
SHUFFLE_STEPS = {
    4: ("1573ed80", 359918976, 2, "aecdb"),
    3: ("be666fc7", 3194384327, 4, "aecdb"),
    2: ("5aa51deb", 1520770539, 1, "ceadb"),
    1: ("dc9054da", 3700446426, 1, "ecadb"),
}
SHUFFLED = ["e", "c", "a", "d", "b"]

REJ_LABEL = "example:rej:195565"
REJ_LABEL_HEX = "6578616d706c653a72656a3a313935353635"
REJ_SIDES = 60000
REJ_REMAINDER = 47296
REJ_LIMIT = 4294920000
REJ_WORD0 = ("ffff5cb0", 4294925488, 5489)  # rejected; 5489 is what a biased verifier says
REJ_MAC1 = "62e23be5b7b0c4c1ff8c018739407f4d8873a3625b059234d948739761898f57"
REJ_WORD1 = ("62e23be5", 1658993637)
REJ_DIE = 53638

HIDDEN_SECRET = "0b0780da60f1db5ad08f665adae81d032fec09d11210c95a984dce4533383c9b"
HIDDEN_COMMIT = "ad6fe44116a934536b9857be9857f6f897338a73fdc59602c990989534a11d44"
HIDDEN_KEY = "df0c3cc025fe5ebadd53b58310d6c6305aadaedbbc821508a60e765eb73f7096"
HIDDEN_SHUFFLED = ["a", "c", "d", "e", "b"]
HIDDEN_DRAW = 1  # die(hidden_key, "setup:draw:1", 6)
# worked example 7, continued: the key mixed with two contributions
CONTRIBUTIONS = {"red": "11" * 16, "south": "22" * 16}
MIX_DIGEST = "8e8552b76e95f33a480b977b919f327835bbc3968f94627304f394c59b9c49c3"
MIX_KEY = "c3185ad7e0236867603461f73f70d93187f4e5fc969048ca809a37d713533998"
MIX_SHUFFLED = ["c", "d", "a", "b", "e"]
MIX_DRAW = 4  # die(mixed_key, "setup:draw:1", 6)
# ...and the own draw key of "chechen" made from that mixed key
OWNER_KEY = "988bd31f869737c91357e0a058b69f78ac066f9db52bcdc9ab79722f70c648f5"
OWNER_SHUFFLED = ["a", "d", "e", "c", "b"]

# worked example 8: the salt chains, for campaign "camp", faction "red", signing seed 32 x 0x01
BOT_SALTS = ["3123a0773c96795d8e38e5f29778968c80367b54266ed69b57c1262436f61d82",
             "5d31ddce5b9e03be389897c4a329cf77a0f9003a6b76f7787acf8566c3fe8ba5"]
PLAYER_SALT_KEY = "e46575c530fc799f56e326278e7211d74b33fda53001ebbeddf21c3751068057"
PLAYER_SALTS = ["f7905450958dfa799af1428e3ba860bec958155e3982bc8d38c66b8f52e768bf",
                "76d9c20e0f65862e1937909420da7c1b41e2bd7216c77a3c660ebda15ceb88fd"]
PLAYER_SALT_1_COMMIT = "16b3c10c83539bae781335dedd096bfb4e6ac057c60b54a67b14bfbe6c173b45"

ITEMS = ["a", "b", "c", "d", "e"]


def key1() -> bytes:
    return bytes.fromhex(KEY1)


def mac(key: bytes, label: str, counter: int) -> bytes:
    # Straight from the spec, not through pbem.dice, so the vectors test the code.
    msg = label.encode("utf-8") + b"\x00" + counter.to_bytes(4, "big")
    return hmac.new(key, msg, hashlib.sha256).digest()


# -------------------------------------------------------------------- known answers


def test_chain_vectors() -> None:
    chain = dice.make_chain(TOP, 3)
    assert [s.hex() for s in chain] == CHAIN_HEX
    assert chain[-1] == TOP
    assert dice.anchor(TOP, 3).hex() == CHAIN_HEX[0]
    for k in range(4):
        assert dice.seed_at(TOP, 3, k).hex() == CHAIN_HEX[k]


def test_salts_and_batch_key_vectors() -> None:
    assert dice.salts_canonical(SALTS).hex() == CANONICAL_HEX
    assert bytes.fromhex(CANONICAL_HEX) == b'{"red":"00ff","south":"a1b2"}'
    assert dice.salts_digest(SALTS).hex() == SALTS_DIGEST
    assert dice.salts_digest({}).hex() == EMPTY_SALTS_DIGEST
    assert bytes.fromhex(DICE_TAG_HEX) == b"pbem-dice-v1"
    s1 = bytes.fromhex(CHAIN_HEX[1])
    assert dice.batch_key(s1, SALTS).hex() == KEY1
    # The same key straight from the written derivation.
    msg = bytes.fromhex(DICE_TAG_HEX + SALTS_DIGEST)
    assert hmac.new(s1, msg, hashlib.sha256).hexdigest() == KEY1
    assert dice.batch_key(s1, {}).hex() == KEY1_NO_SALTS
    assert dice.batch_key(s1, {"red": "00fe", "south": "a1b2"}).hex() == KEY1_RED_00FE
    # Key order in the mapping does not matter: the JSON is canonical.
    assert dice.batch_key(s1, {"south": "a1b2", "red": "00ff"}).hex() == KEY1


def test_d6_vectors() -> None:
    assert 2**32 - 2**32 % 6 == D6_LIMIT
    assert (FIRST_LABEL_HEX + "00" + "00000000") == (
        b"combat:kazan:t3:atk:r1:d1\x00\x00\x00\x00\x00".hex()
    )
    assert mac(key1(), "combat:kazan:t3:atk:r1:d1", 0).hex() == FIRST_MAC
    for suffix, (first4, w, mod, value) in ATK_DICE.items():
        label = f"combat:kazan:t3:atk:r1:{suffix}"
        assert mac(key1(), label, 0)[:4].hex() == first4
        assert int(first4, 16) == w and w < D6_LIMIT and w % 6 == mod and mod + 1 == value
        assert dice.die(key1(), label, 6) == value


def test_two_d6_vector() -> None:
    rng = KeyedRng(key1())
    assert dice.two_d6(rng, "combat:kazan:t3:def:r1") == (5, 2)
    assert [r.label for r in rng.rolls] == list(TWO_D6)
    for roll in rng.rolls:
        first4, w, value = TWO_D6[roll.label]
        assert mac(key1(), roll.label, 0)[:4].hex() == first4 and int(first4, 16) == w
        assert roll == Roll(roll.label, 6, value) and w % 6 + 1 == value


def test_shuffle_vector() -> None:
    items = list(ITEMS)
    for i in (4, 3, 2, 1):
        first4, w, value, after = SHUFFLE_STEPS[i]
        label = f"deck:t1:{i}"
        assert mac(key1(), label, 0)[:4].hex() == first4 and int(first4, 16) == w
        assert dice.die(key1(), label, i + 1) == value == w % (i + 1) + 1
        j = value - 1
        items[i], items[j] = items[j], items[i]
        assert "".join(items) == after
    assert items == SHUFFLED
    assert dice.shuffle(key1(), "deck:t1", ITEMS) == SHUFFLED
    assert ITEMS == ["a", "b", "c", "d", "e"]  # a new list; the input is untouched
    rng = KeyedRng(key1())
    assert rng.shuffle("deck:t1", ITEMS) == SHUFFLED
    assert [(r.label, r.sides, r.value) for r in rng.rolls] == [
        (f"deck:t1:{i}", i + 1, SHUFFLE_STEPS[i][2]) for i in (4, 3, 2, 1)
    ]


def test_rejection_vector() -> None:
    assert 2**32 % REJ_SIDES == REJ_REMAINDER and 2**32 - REJ_REMAINDER == REJ_LIMIT
    assert REJ_LABEL.encode().hex() == REJ_LABEL_HEX
    first4, w0, naive = REJ_WORD0
    assert mac(key1(), REJ_LABEL, 0)[:4].hex() == first4 and int(first4, 16) == w0
    assert w0 >= REJ_LIMIT and w0 % REJ_SIDES + 1 == naive
    assert mac(key1(), REJ_LABEL, 1).hex() == REJ_MAC1
    first4, w1 = REJ_WORD1
    assert REJ_MAC1.startswith(first4) and int(first4, 16) == w1 < REJ_LIMIT
    assert w1 % REJ_SIDES + 1 == REJ_DIE
    assert dice.die(key1(), REJ_LABEL, REJ_SIDES) == REJ_DIE != naive


def test_hidden_vectors() -> None:
    secret = hashlib.sha256(b"example hidden secret").digest()
    assert secret.hex() == HIDDEN_SECRET
    assert dice.commit_secret(secret) == HIDDEN_COMMIT
    assert hashlib.sha256(b"pbem-hidden-commit-v1\x00" + secret).hexdigest() == HIDDEN_COMMIT
    hk = dice.hidden_key(secret)
    assert hk.hex() == HIDDEN_KEY
    assert dice.shuffle(hk, "deck:t1", ITEMS) == HIDDEN_SHUFFLED
    assert dice.die(hk, "setup:draw:1", 6) == HIDDEN_DRAW
    # The hidden key and a batch key never coincide, even from the same bytes.
    assert dice.hidden_key(secret) != dice.batch_key(secret, {})


def test_mixed_key_vectors() -> None:
    """HMAC(hidden_key, "pbem-hidden-mix-v1" || SHA-256(canonical contributions))."""
    hk = dice.hidden_key(hashlib.sha256(b"example hidden secret").digest())
    assert dice.salts_digest(CONTRIBUTIONS).hex() == MIX_DIGEST
    mixed = dice.mixed_key(hk, CONTRIBUTIONS)
    assert mixed.hex() == MIX_KEY
    assert mixed == hmac.digest(hk, b"pbem-hidden-mix-v1" + bytes.fromhex(MIX_DIGEST), "sha256")
    assert dice.shuffle(mixed, "deck:t1", ITEMS) == MIX_SHUFFLED
    assert dice.die(mixed, "setup:draw:1", 6) == MIX_DRAW
    # every contribution counts: one salt changed, or one left out, gives another key
    assert dice.mixed_key(hk, {**CONTRIBUTIONS, "south": "23" * 16}) != mixed
    assert dice.mixed_key(hk, {"red": CONTRIBUTIONS["red"]}) != mixed
    assert dice.mixed_key(hk, {}) != hk != mixed
    assert dice.draw_key(hk, None) == hk and dice.draw_key(hk, CONTRIBUTIONS) == mixed
    for bad in (hk[:31], hk + b"x", hk.hex()):
        with pytest.raises(ValueError, match="^a hidden key is 32 bytes$"):
            dice.mixed_key(bad, CONTRIBUTIONS)  # type: ignore[arg-type]


def test_owner_key_vectors() -> None:
    """HMAC(draw key, "pbem-owner-draw-v1" || 0x00 || owner): one key a faction, none another's."""
    mixed = bytes.fromhex(MIX_KEY)
    own = dice.owner_key(mixed, "chechen")
    assert own.hex() == OWNER_KEY
    assert own == hmac.digest(mixed, b"pbem-owner-draw-v1\x00chechen", "sha256")
    assert dice.shuffle(own, "deck:t1", ITEMS) == OWNER_SHUFFLED
    assert dice.owner_key(mixed, "russian") != own != dice.owner_key(bytes.fromhex(HIDDEN_KEY), "chechen")
    for bad in (mixed[:31], mixed.hex()):
        with pytest.raises(ValueError, match="^a draw key is 32 bytes$"):
            dice.owner_key(bad, "chechen")  # type: ignore[arg-type]


def test_salt_chain_vectors() -> None:
    import hmac
    import itertools

    from pbem import randomness

    assert list(itertools.islice(randomness.bot_salts("camp", "red"), 2)) == BOT_SALTS
    key = randomness.player_salt_key(bytes([1]) * 32)
    assert key.hex() == PLAYER_SALT_KEY
    assert [randomness.player_salt(key, "camp", "red", i) for i in (0, 1)] == PLAYER_SALTS
    assert randomness.salt_commitment(PLAYER_SALTS[1]) == PLAYER_SALT_1_COMMIT
    # by the document's words alone, with the standard library
    k = hmac.new(bytes([1]) * 32, b"pbem-player-salt-v1", hashlib.sha256).digest()
    assert k.hex() == PLAYER_SALT_KEY
    assert hmac.new(k, b"camp\0red\x000", hashlib.sha256).hexdigest() == PLAYER_SALTS[0]
    assert hashlib.sha256(b"pbem-bot-salt-v1\0camp\0red").hexdigest() == BOT_SALTS[0]
    assert hashlib.sha256(b"pbem-bot-salt-v1\0" + bytes.fromhex(BOT_SALTS[0])).hexdigest() == \
        BOT_SALTS[1]
    assert hashlib.sha256(bytes.fromhex(PLAYER_SALTS[1])).hexdigest() == PLAYER_SALT_1_COMMIT


def _frozen_tokens() -> set[str]:
    tokens = {*CHAIN_HEX, CANONICAL_HEX, SALTS_DIGEST, EMPTY_SALTS_DIGEST, DICE_TAG_HEX}
    tokens |= {KEY1, KEY1_NO_SALTS, KEY1_RED_00FE, FIRST_LABEL_HEX, FIRST_MAC, REJ_MAC1}
    tokens |= {REJ_LABEL_HEX, HIDDEN_SECRET, HIDDEN_COMMIT, HIDDEN_KEY, "00000000", "00000001"}
    tokens |= {MIX_DIGEST, MIX_KEY, CONTRIBUTIONS["red"], CONTRIBUTIONS["south"], OWNER_KEY}
    tokens |= {str(D6_LIMIT), str(REJ_LIMIT), REJ_WORD0[0], str(REJ_WORD0[1]), REJ_WORD1[0]}
    tokens |= {str(REJ_WORD1[1]), *BOT_SALTS, PLAYER_SALT_KEY, *PLAYER_SALTS, PLAYER_SALT_1_COMMIT}
    rows: list[tuple[str, int]] = [(row[0], row[1]) for row in ATK_DICE.values()]
    rows += [(row[0], row[1]) for row in TWO_D6.values()]
    rows += [(row[0], row[1]) for row in SHUFFLE_STEPS.values()]
    for first4, w in rows:
        tokens |= {first4, str(w)}
    return tokens


def test_doc_shows_exactly_the_frozen_values() -> None:
    text = DOC.read_text(encoding="utf-8")
    # Every long hex/decimal number the doc shows is frozen here...
    shown = set(re.findall(r"\b[0-9a-f]{8,}\b", text))
    assert shown - _frozen_tokens() == set()
    # ...and every frozen one is shown.
    assert _frozen_tokens() - shown == set()
    # The small values too: the dice, shuffles and results as the doc prints them.
    for suffix, (first4, w, mod, value) in ATK_DICE.items():
        row = rf"`combat:kazan:t3:atk:r1:{suffix}`\s*\|\s*`{first4}`\s*\|\s*{w}\s*\|\s*{mod}"
        assert re.search(row + rf"\s*\|\s*{value}\s*\|", text), suffix
    for label, (first4, w, value) in TWO_D6.items():
        assert re.search(rf"`{label}`\s*\|\s*`{first4}`\s*\|\s*{w}\s*\|\s*{value}\s*\|", text)
    assert "The result is (5, 2), a total of 7." in text
    for i, (first4, w, value, after) in SHUFFLE_STEPS.items():
        row = rf"\| {i} \| `deck:t1:{i}` \| {i + 1}\s*\|\s*`{first4}`\s*\|\s*{w}\s*\|\s*{value}"
        assert re.search(row + rf"\s*\|\s*{value - 1}\s*\|\s*{' '.join(after)}\s*\|", text)
    assert 'The result is `["e", "c", "a", "d", "b"]`.' in text
    assert f"sides = {REJ_SIDES}" in text and f"2^32 mod {REJ_SIDES} = {REJ_REMAINDER}" in text
    assert f"w mod 60000 + 1 = {REJ_WORD0[2]}" in text
    assert f"{REJ_WORD1[1]} mod 60000 + 1 = {REJ_DIE}" in text
    assert '-> ["a", "c", "d", "e", "b"]' in text
    assert f'die(hidden_key, "setup:draw:1", 6) = {HIDDEN_DRAW}' in text
    assert '-> ["c", "d", "a", "b", "e"]' in text
    assert f'die(mixed_key, "setup:draw:1", 6) = {MIX_DRAW}' in text
    assert '-> ["a", "d", "e", "c", "b"]' in text


# --------------------------------------------------------------- the doc's verifier


def _reference_verifier() -> dict[str, Any]:
    text = DOC.read_text(encoding="utf-8")
    section = text.split("## A reference verifier", 1)[1]
    match = re.search(r"```python\n(.*?)```", section, re.S)
    assert match, "no python block under '## A reference verifier'"
    code = match.group(1)
    assert 15 <= len(code.strip().splitlines()) <= 34
    namespace: dict[str, Any] = {}
    exec(compile(code, str(DOC), "exec"), namespace)
    return namespace


def test_reference_verifier_agrees_with_pbem() -> None:
    ref = _reference_verifier()
    ref_die: Callable[[bytes, str, int], int] = ref["die"]

    chain = dice.make_chain(TOP, 3)
    for prev, seed in zip(chain, chain[1:], strict=False):
        assert ref["link_ok"](prev, seed)
    assert not ref["link_ok"](chain[0], chain[2])

    keys = [
        dice.batch_key(chain[1], SALTS),
        dice.batch_key(chain[2], {}),
        dice.batch_key(chain[3], {"white": "", "red": "ff", "green": "0123456789abcdef"}),
        dice.hidden_key(b"another hidden secret, 32 bytes!"),
    ]
    assert ref["batch_key"](chain[1], SALTS) == keys[0]
    assert ref["batch_key"](chain[2], {}) == keys[1]
    three = {"white": "", "red": "ff", "green": "0123456789abcdef"}
    assert ref["batch_key"](chain[3], three) == keys[2]
    assert ref["hidden_key"](b"another hidden secret, 32 bytes!") == keys[3]
    mixed = dice.mixed_key(keys[3], CONTRIBUTIONS)
    assert ref["mixed_key"](keys[3], CONTRIBUTIONS) == mixed
    keys.append(mixed)

    sides_list = [2, 3, 5, 6, 7, 10, 12, 20, 100, 60000, 65535, 65536]
    for key in keys:
        for n in range(300):
            label = f"combat:z{n % 17}:t{n}:atk:r{n % 3}:d{n % 6 + 1}"
            sides = sides_list[n % len(sides_list)]
            assert ref_die(key, label, sides) == dice.die(key, label, sides), (label, sides)
        for n in range(20):
            items, label = list(range(n)), f"deck:t{n}"
            assert ref["shuffle"](key, label, items) == dice.shuffle(key, label, items)
    # The one vector that exercises the rejection loop.
    assert ref_die(key1(), REJ_LABEL, REJ_SIDES) == REJ_DIE


# ------------------------------------------------------------------------ chi-squared


def chi_squared(counts: Counter[int], expected: dict[int, float]) -> float:
    return sum((counts[face] - e) ** 2 / e for face, e in expected.items())


CHI_KEY = hashlib.sha256(b"pbem chi-squared test key").digest()
SAMPLE = 100_000


def test_d6_chi_squared() -> None:
    counts = Counter(dice.die(CHI_KEY, f"chi:d6:{n}", 6) for n in range(SAMPLE))
    assert set(counts) == {1, 2, 3, 4, 5, 6}
    stat = chi_squared(counts, {face: SAMPLE / 6 for face in range(1, 7)})
    assert stat < 20.515  # p = 0.001, 5 degrees of freedom


def test_2d6_chi_squared() -> None:
    rng = KeyedRng(CHI_KEY)
    counts = Counter(sum(dice.two_d6(rng, f"chi:2d6:{n}")) for n in range(SAMPLE))
    assert set(counts) == set(range(2, 13))
    # Triangular: ways to make total t with two d6 is 6 - |t - 7|.
    expected = {t: SAMPLE * (6 - abs(t - 7)) / 36 for t in range(2, 13)}
    assert chi_squared(counts, expected) < 29.588  # p = 0.001, 10 degrees of freedom


def test_d7_chi_squared_no_modulo_bias() -> None:
    # 7 does not divide 2**32, the case rejection sampling exists for.
    counts = Counter(dice.die(CHI_KEY, f"chi:d7:{n}", 7) for n in range(SAMPLE))
    stat = chi_squared(counts, {face: SAMPLE / 7 for face in range(1, 8)})
    assert stat < 22.458  # p = 0.001, 6 degrees of freedom


# ------------------------------------------------------------------------- behaviour


def test_changing_one_salt_changes_the_dice() -> None:
    seed = bytes.fromhex(CHAIN_HEX[1])
    base = dice.batch_key(seed, SALTS)
    labels = [f"combat:kazan:t3:atk:r1:d{i}" for i in range(1, 21)]
    rolls = [dice.die(base, label, 6) for label in labels]
    for changed in ({"red": "00fe", "south": "a1b2"}, {"red": "00ff"}, {**SALTS, "blue": "00"}):
        other = dice.batch_key(seed, changed)
        assert other != base
        assert [dice.die(other, label, 6) for label in labels] != rolls


def test_replay_reproduces_a_live_run() -> None:
    def rules(rng: dice.Rng) -> tuple[object, ...]:
        return (
            rng.roll("combat:kazan:t3:atk:r1:d1"),
            rng.roll("table:weather:t3", 10),
            dice.two_d6(rng, "combat:kazan:t3:def:r1"),
            rng.shuffle("deck:t3", ITEMS),
            rng.choice("draw:t3:leader", ["x", "y", "z"]),
            rng.choice("draw:t3:only", ["solo"]),
        )

    live = KeyedRng(key1())
    result = rules(live)
    assert len(live.rolls) == 1 + 1 + 2 + 4 + 1  # the one-item choice rolls nothing
    assert dice.verify_rolls(key1(), live.rolls) == []

    replay = ReplayRng(live.rolls)
    assert not replay.finished()
    assert rules(replay) == result
    assert replay.finished()


def _recorded() -> list[Roll]:
    rng = KeyedRng(key1())
    rng.roll("a:1")
    rng.roll("a:2", 8)
    return rng.rolls


def test_replay_fails_on_changed_label() -> None:
    replay = ReplayRng(_recorded())
    with pytest.raises(DiceMismatch, match="a:x"):
        replay.roll("a:x")


def test_replay_fails_on_changed_sides() -> None:
    replay = ReplayRng(_recorded())
    replay.roll("a:1")
    with pytest.raises(DiceMismatch, match="d6"):
        replay.roll("a:2", 6)


def test_replay_fails_on_extra_roll_and_reports_unconsumed() -> None:
    replay = ReplayRng(_recorded())
    replay.roll("a:1")
    assert not replay.finished()  # a roll the rules no longer ask for
    replay.roll("a:2", 8)
    assert replay.finished()
    with pytest.raises(DiceMismatch):
        replay.roll("a:3")
    assert issubclass(DiceMismatch, ValueError)


def test_replay_rejects_impossible_value() -> None:
    with pytest.raises(DiceMismatch):
        ReplayRng([Roll("a:1", 6, 7)]).roll("a:1")


def test_verify_rolls_finds_a_changed_value() -> None:
    rolls = _recorded()
    forged = [rolls[0], rolls[1]._replace(value=rolls[1].value % 8 + 1)]
    problems = dice.verify_rolls(key1(), forged)
    assert len(problems) == 1 and "a:2" in problems[0]


def test_duplicate_labels_raise() -> None:
    rng = KeyedRng(key1())
    rng.roll("combat:kazan:t3:atk:r1:d1")
    with pytest.raises(ValueError, match="twice"):
        rng.roll("combat:kazan:t3:atk:r1:d1")
    with pytest.raises(ValueError, match="twice"):
        rng.roll("combat:kazan:t3:atk:r1:d1", 10)  # other sides: still the same label
    # A shuffle's rolls count as labels too.
    rng.shuffle("deck:t1", ITEMS)
    with pytest.raises(ValueError, match="twice"):
        rng.roll("deck:t1:4", 5)
    with pytest.raises(ValueError, match="twice"):
        rng.shuffle("deck:t1", ITEMS)
    # Labels used earlier in the campaign, passed in.
    earlier = {"combat:kazan:t2:atk:r1:d1"}
    later = KeyedRng(key1(), used=earlier)
    with pytest.raises(ValueError, match="twice"):
        later.roll("combat:kazan:t2:atk:r1:d1")
    later.roll("combat:kazan:t3:atk:r1:d9")
    assert earlier == {"combat:kazan:t2:atk:r1:d1"}  # the caller's set is not changed
    assert "combat:kazan:t3:atk:r1:d9" in later.used
    # A log that records one label twice does not replay.
    replay = ReplayRng([Roll("x:1", 6, 1), Roll("x:1", 6, 1)])
    replay.roll("x:1")
    with pytest.raises(ValueError, match="twice"):
        replay.roll("x:1")


def test_a_rejected_call_does_not_burn_its_label() -> None:
    rng = KeyedRng(key1())
    with pytest.raises(ValueError):
        rng.roll("combat:x", 1)
    assert rng.roll("combat:x", 6) == dice.die(key1(), "combat:x", 6)


def test_chain_links_verify_and_a_swapped_seed_fails() -> None:
    chain = dice.make_chain(TOP, 5)
    assert len(chain) == 6
    for prev, seed in zip(chain, chain[1:], strict=False):
        assert dice.verify_link(prev, seed)
    assert dice.verify_chain(chain[0], chain[1:])
    swapped = [chain[1], chain[3], chain[2], chain[4], chain[5]]
    assert not dice.verify_chain(chain[0], swapped)
    assert not dice.verify_link(chain[1], chain[3])
    assert not dice.verify_link(chain[2], chain[1])  # backwards
    other = dice.make_chain(hashlib.sha256(b"another top").digest(), 5)
    assert not dice.verify_link(chain[0], other[1])
    assert dice.seed_at(TOP, 5, 2) == chain[2]


def test_choice_is_items_of_roll() -> None:
    items = ["x", "y", "z", "w"]
    rng = KeyedRng(key1())
    assert rng.choice("pick:1", items) == items[dice.die(key1(), "pick:1", 4) - 1]
    assert rng.choice("pick:2", ["only"]) == "only"
    assert [r.label for r in rng.rolls] == ["pick:1"]
    with pytest.raises(ValueError):
        rng.choice("pick:3", [])


@pytest.mark.parametrize("label", ["", "a\x00b", "line\nbreak", "tab\t", "kazań", "\x7f"])
def test_bad_labels(label: str) -> None:
    with pytest.raises(ValueError):
        dice.die(key1(), label, 6)
    with pytest.raises(ValueError):
        KeyedRng(key1()).roll(label)
    with pytest.raises(ValueError):
        dice.shuffle(key1(), label, ITEMS)


@pytest.mark.parametrize("sides", [-6, 0, 1, 2**16 + 1, True, 6.0])
def test_bad_sides(sides: Any) -> None:
    with pytest.raises(ValueError):
        dice.die(key1(), "x", sides)


def test_sides_bounds() -> None:
    assert dice.die(key1(), "x", 2) in (1, 2)
    assert 1 <= dice.die(key1(), "x", 2**16) <= 2**16
    assert dice.die(key1(), "with space and :;!~", 6) in range(1, 7)


@pytest.mark.parametrize(
    "salts",
    [{"red": "00FF"}, {"red": "0f0"}, {"red": "zz"}, {"": "00"}, {'re"d': "00"}, {"ré": "00"}],
)
def test_bad_salts(salts: dict[str, str]) -> None:
    with pytest.raises(ValueError):
        dice.salts_digest(salts)


def test_bad_chain_and_secret_inputs() -> None:
    with pytest.raises(ValueError):
        dice.make_chain(b"short", 3)
    with pytest.raises(ValueError):
        dice.make_chain(TOP, 0)
    with pytest.raises(ValueError):
        dice.seed_at(TOP, 3, 4)
    with pytest.raises(ValueError):
        dice.batch_key(b"short", {})
    with pytest.raises(ValueError):
        dice.hidden_key(b"")
    with pytest.raises(ValueError):
        dice.commit_secret(b"tiny")


def test_small_shuffles() -> None:
    assert dice.shuffle(key1(), "deck:empty", []) == []
    assert dice.shuffle(key1(), "deck:one", ["a"]) == ["a"]
    out = dice.shuffle(key1(), "deck:big", list(range(200)))
    assert sorted(out) == list(range(200)) and out != list(range(200))


# ------------------------------------------ exact messages and the edges of every check

KEY = bytes.fromhex(KEY1)


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
