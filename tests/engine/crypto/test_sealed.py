"""pbem.crypto.sealed, unit by unit with real age keys: nodes, openings, the three openers.

The played-campaign tests of secrets are in tests/engine/crypto/test_secrets.py.
"""

from __future__ import annotations

from typing import Any

import pytest

from pbem import dice
from pbem.crypto import age, sealed
from pbem.crypto import keys as crypto
from pbem.crypto.sealed import HIDDEN, MASK, FinalSecrets, PublishedSecrets, RefereeSecrets
from pbem.errors import CryptoError

REFEREE_ID, REFEREE = age.generate_identity()
RED_ID, RED = age.generate_identity()
OTHER_ID, OTHER = age.generate_identity()
CTX = sealed.context("camp", "hand", "t1:red", 1, "red")


def test_context_and_node_shape() -> None:
    assert CTX == {"campaign": "camp", "kind": "hand", "id": "t1:red", "turn": 1, "owner": "red"}
    node = sealed.seal(CTX, ["c1", "c2"], [RED, REFEREE])
    assert sorted(node) == ["commitment", "id", "kind", "owner", "sealed", "turn"]
    assert (node["kind"], node["id"], node["owner"], node["turn"]) == ("hand", "t1:red", "red", 1)
    assert sealed.node_context("camp", node) == CTX
    inner = crypto.unseal(node["sealed"], [RED_ID])
    assert isinstance(inner, dict) and sorted(inner) == ["ctx", "nonce", "value"]
    assert inner["ctx"] == CTX and inner["value"] == ["c1", "c2"]
    assert node["commitment"] == crypto.commit(CTX, ["c1", "c2"], bytes.fromhex(inner["nonce"]))[0]
    for identity in (RED_ID, REFEREE_ID):
        opened = sealed.open_node("camp", node, [identity])
        assert opened == sealed.Opened("hand", "t1:red", "red", ["c1", "c2"], inner["nonce"],
                                       node["commitment"], True)
    with pytest.raises(CryptoError):
        sealed.open_node("camp", node, [OTHER_ID])
    assert sealed.check_opening("camp", node, inner["nonce"], ["c1", "c2"]) is True
    assert sealed.check_opening("camp", node, inner["nonce"], ["c2", "c1"]) is False
    assert sealed.check_opening("other", node, inner["nonce"], ["c1", "c2"]) is False
    assert sealed.check_opening("camp", node, "zz", ["c1", "c2"]) is False
    assert sealed.check_opening("camp", node, None, ["c1", "c2"]) is False  # type: ignore[arg-type]
    # another campaign's name in the context: it opens but is not verified
    assert sealed.open_node("other", node, [RED_ID]).verified is False


def test_an_envelope_that_is_not_pbem_is_refused() -> None:
    node = {"kind": "hand", "id": "x", "owner": "red", "turn": 1, "commitment": "00",
            "sealed": crypto.seal({"ctx": CTX, "value": 1}, [RED])}
    with pytest.raises(CryptoError) as exc:
        sealed.open_node("camp", node, [RED_ID])
    assert str(exc.value) == "sealed hand x: not a pbem envelope"
    node["sealed"] = crypto.seal([1, 2, 3], [RED])
    with pytest.raises(CryptoError) as exc:
        sealed.open_node("camp", node, [RED_ID])
    assert str(exc.value) == "sealed hand x: not a pbem envelope"


def test_find_and_mask_sealed_nodes() -> None:
    a = {"sealed": "s", "commitment": "c", "kind": "k", "id": "a", "owner": "o", "turn": 2}
    b = {**a, "id": "b"}
    data = {"x": [1, {"y": a}], "z": b, "w": {"sealed": "only"}, "v": {"commitment": "only"}}
    assert sealed.find_sealed(data) == [a, b]
    assert sealed.find_sealed([[a], (b,)]) == [a]  # tuples are not walked
    assert sealed.is_sealed(a) is True
    assert sealed.is_sealed({"sealed": 1}) is False
    assert sealed.is_sealed({"commitment": 1}) is False
    assert sealed.is_sealed(["sealed", "commitment"]) is False
    assert sealed.masked(data) == {"x": [1, {"y": {"sealed-node": ["k", "a", "o", 2]}}],
                                   "z": {"sealed-node": ["k", "b", "o", 2]},
                                   "w": {"sealed": "only"}, "v": {"commitment": "only"}}


def test_hidden_is_one_value() -> None:
    assert sealed.Hidden() is HIDDEN
    assert repr(HIDDEN) == "<hidden>"
    assert HIDDEN["anything"] is HIDDEN
    assert MASK == "(masked)"


def referee(**kwargs: Any) -> RefereeSecrets:
    return RefereeSecrets("camp", [REFEREE_ID], lambda owner: [RED, REFEREE], **kwargs)


def test_the_referee_opens_and_records_each_opening_once() -> None:
    calls: list[int] = []

    def identities() -> list[str]:
        calls.append(1)
        return [REFEREE_ID]

    ref = RefereeSecrets("camp", identities, [RED, REFEREE])
    node = ref.seal("hand", "t1:red", "red", 1, "card-7")
    assert calls == []  # sealing needs no identity
    assert ref.compute(lambda v, n: (v, n), node, 3) == ("card-7", 3)
    assert ref.openings == [] and ref.used == set()
    assert ref.open(node) == "card-7"
    assert ref.open(node) == "card-7"
    nonce = crypto.unseal(node["sealed"], [REFEREE_ID])["nonce"]  # type: ignore[index]
    assert ref.openings == [{"node": {"kind": "hand", "id": "t1:red", "owner": "red", "turn": 1,
                                      "commitment": node["commitment"]},
                             "nonce": nonce, "value": "card-7"}]
    assert ref.used == {node["commitment"]}
    assert calls == [1]  # loaded once
    with pytest.raises(ValueError) as exc:
        ref.seal("hand", "t2:red", "red", 2, HIDDEN)
    assert str(exc.value) == "sealing hand t2:red: the referee must know the value"


def test_the_referee_refuses_a_node_that_does_not_match_its_commitment() -> None:
    ref = referee()
    node = ref.seal("hand", "t1:red", "red", 1, "card-7")
    forged = {**node, "id": "t1:other"}
    with pytest.raises(CryptoError) as exc:
        ref.open(forged)
    assert str(exc.value) == "sealed hand t1:other does not match its commitment"


def test_reveal_where_publishes_only_what_passes() -> None:
    ref = referee()
    nodes = [ref.seal("hand", f"c{i}", "red", 1, i) for i in range(4)]
    assert ref.reveal_where(nodes, lambda v: v % 2 == 1) == [(nodes[1], 1), (nodes[3], 3)]
    assert ref.reveal_where(nodes, lambda v: v >= 2, first=True) == [(nodes[2], 2)]
    assert [o["value"] for o in ref.openings] == [1, 3, 2]
    public = PublishedSecrets("camp", ref.openings)
    assert public.reveal_where(nodes, lambda v: True) == [(nodes[1], 1), (nodes[2], 2),
                                                          (nodes[3], 3)]
    assert public.reveal_where(nodes, lambda v: True, first=True) == [(nodes[1], 1)]
    assert public.used == {nodes[1]["commitment"], nodes[2]["commitment"], nodes[3]["commitment"]}


def test_a_public_audit_knows_only_what_was_published() -> None:
    ref = referee()
    shown, kept = ref.seal("hand", "a", "red", 1, "x"), ref.seal("hand", "b", "red", 1, "y")
    ref.open(shown)
    public = PublishedSecrets("camp", ref.openings)
    assert public.open(shown) == "x"
    assert public.compute(lambda v: v, kept) is HIDDEN
    assert public.compute(lambda v, w: (v, w), 1, 2) == (1, 2)
    with pytest.raises(ValueError) as exc:
        public.open(kept)
    assert str(exc.value) == "the rules open sealed hand b, but the log publishes no opening for it"
    assert public.shuffle("deck", [1, 2, 3]) is HIDDEN
    # a node the replay sealed itself (masked), opened at once, is found by its name
    masked_node = public.seal("hand", "a", "red", 1, HIDDEN)
    assert masked_node == {"kind": "hand", "id": "a", "owner": "red", "turn": 1,
                           "commitment": MASK, "sealed": MASK}
    assert public.open(masked_node) == "x"
    assert public.used == {shown["commitment"]}
    assert public.seal("hand", "c", "red", 1, 5)["value"] == 5
    assert public.compute(lambda v: v, public.seal("hand", "d", "red", 1, 6)) == 6  # its own
    bad = PublishedSecrets("camp", [{**ref.openings[0], "value": "z"}])
    with pytest.raises(ValueError) as exc:
        bad.open(shown)
    assert str(exc.value) == "the published opening of hand a does not match its commitment"


def test_a_final_audit_knows_everything_and_shuffles() -> None:
    ref = referee(hidden_key=bytes(range(32)))
    node = ref.seal("hand", "a", "red", 1, "x")
    final = FinalSecrets("camp", [], {node["commitment"]: "x"}, bytes(range(32)))
    assert final.compute(lambda v: v + "!", node) == "x!"
    assert final.shuffle("deck:t1", ["a", "b", "c", "d", "e"]) == dice.shuffle(
        bytes(range(32)), "deck:t1", ["a", "b", "c", "d", "e"])
    assert ref.shuffle("deck:t1", ("a", "b", "c", "d", "e")) == ["c", "e", "d", "a", "b"]
    assert final.shuffle("deck:t3", HIDDEN) is HIDDEN
    assert referee().shuffle("deck:t1", [1, 2]) is HIDDEN  # no hidden key
    assert final.compute(lambda v: v, {**node, "commitment": "other"}) is HIDDEN


def test_sealed_values_of_a_final_audit() -> None:
    def node(id_: str, commitment: str, **extra: Any) -> dict[str, Any]:
        return {"kind": "hand", "id": id_, "owner": "red", "turn": 1, "commitment": commitment,
                "sealed": "s", **extra}

    recorded = [node("a", "ca"), node("b", "cb"), node("c", "cc"), node("d", "cd")]
    replayed = [node("a", MASK, value=1), node("b", MASK, value=2), node("c", MASK),
                node("d", MASK, value=4)]
    problems, checked = sealed.sealed_values(recorded, replayed, {"ca": 1, "cb": 3})
    assert checked == 3
    assert problems == [
        "sealed hand b holds something other than what the rules give from the hidden secret",
        "sealed hand d was never opened, not even by unseal",
    ]
    assert sealed.sealed_values(recorded[:1], replayed[:1], {"ca": 1}) == ([], 1)


def test_a_node_whose_commitment_was_changed_is_not_verified() -> None:
    node = sealed.seal(CTX, 5, [RED])
    assert sealed.open_node("camp", {**node, "commitment": "00" * 32}, [RED_ID]).verified is False


def test_masked_nodes_are_found_by_their_whole_name() -> None:
    ref = referee()
    names = [("hand", "a", "red", 1), ("deck", "a", "red", 1), ("hand", "b", "red", 1),
             ("hand", "a", "south", 1), ("hand", "a", "red", 2)]
    for n, (kind, id_, owner, turn) in enumerate(names):
        ref.open(ref.seal(kind, id_, owner, turn, n))
    public = PublishedSecrets("camp", ref.openings)
    for n, (kind, id_, owner, turn) in enumerate(names):
        assert public.open(public.seal(kind, id_, owner, turn, HIDDEN)) == n
    # a masked node with no value of its own stays hidden
    assert public.compute(lambda v: v, public.seal("hand", "e", "red", 1, HIDDEN)) is HIDDEN


def test_every_opener_keeps_its_campaign() -> None:
    ref = RefereeSecrets("camp", [REFEREE_ID], lambda owner: {"red": [RED, REFEREE]}[owner])
    node = ref.seal("hand", "a", "red", 1, "x")  # the owner's recipients, by name
    assert crypto.unseal(node["sealed"], [RED_ID])["value"] == "x"  # type: ignore[index]
    ref.open(node)
    final = FinalSecrets("camp", ref.openings, {}, bytes(range(32)))
    public = PublishedSecrets("camp", ref.openings)
    assert (ref.campaign, public.campaign, final.campaign) == ("camp", "camp", "camp")
    assert final.open(node) == "x" and public.open(node) == "x"


def test_sealed_values_pairs_what_both_sides_have() -> None:
    node = {"kind": "hand", "id": "a", "owner": "red", "turn": 1, "commitment": "ca", "sealed": "s"}
    replayed = {**node, "commitment": MASK, "value": 1}
    assert sealed.sealed_values([node, node], [replayed], {"ca": 1}) == ([], 1)
    assert sealed.sealed_values([node], [replayed, replayed], {"ca": 1}) == ([], 1)


# ---------------------------------------------------------------------------------------
# what a reader holding a key sees of a state (sealed.substitute, sealed.opener)


def test_a_state_seen_with_a_key_shows_the_values_that_key_opens_and_no_others() -> None:
    from pbem.crypto import age

    owner, owner_pub = age.generate_identity()
    other, other_pub = age.generate_identity()
    mine = sealed.seal(sealed.context("c", "unit", "t01", 0, "chechen"), "ch_borz_regt", [owner_pub])
    theirs = sealed.seal(sealed.context("c", "unit", "t02", 0, "russian"), "secret", [other_pub])
    state = {"tokens": {"t01": {"hex": "1324", "unit": mine}, "t02": {"hex": "1321", "unit": theirs}},
             "list": [mine, 3]}
    seen = sealed.substitute(state, sealed.opener("c", [owner]))
    assert seen == {"tokens": {"t01": {"hex": "1324", "unit": "ch_borz_regt"},
                               "t02": {"hex": "1321", "unit": theirs}},
                    "list": ["ch_borz_regt", 3]}
    assert state["tokens"]["t01"]["unit"] is mine  # the state itself is left as it was
    forged = {**mine, "commitment": "0" * 64}  # opens, but not to its commitment: not shown
    assert sealed.substitute(forged, sealed.opener("c", [owner])) == forged
    assert sealed.substitute(mine, sealed.opener("another campaign", [owner])) == mine
