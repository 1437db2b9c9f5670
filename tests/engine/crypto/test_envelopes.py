"""Sealed envelopes do not tell how long what they hold is (docs/design.md "Envelopes").

Every value pads to a block before it is sealed: small values (a card, an attack spending)
to 512 bytes, whole orders files sealed until their phase resolves to 16 KiB, so the orders
of every faction in a simultaneous phase come in envelopes of one size.
"""

from __future__ import annotations

from pathlib import Path

from pbem import api
from pbem.campaign import Campaign
from pbem.crypto import sealed
from tests.conftest import play


def _recipient(tmp_path: Path) -> str:
    from pbem.crypto.keys import keygen_files

    return keygen_files(tmp_path / "k").split()[0]


def test_small_values_of_different_lengths_seal_to_one_size(tmp_path: Path) -> None:
    to = [_recipient(tmp_path)]
    ctx = sealed.context("camp", "card", "c001", 1, "red")
    sizes = {len(sealed.seal(ctx, value, to)["sealed"])
             for value in (3, 12345, "Czech Legion formed", {"spend": {"Kazan": 30, "Tver": 1}})}
    assert len(sizes) == 1, sizes


def test_orders_files_of_very_different_lengths_seal_to_one_size(tmp_path: Path) -> None:
    to = [_recipient(tmp_path)]
    ctx = sealed.context("camp", "orders", "t1:purchase", 1, "red")
    short = {"body": {"orders": []}, "file": "orders: []\n", "signature": None}
    long = {"body": {"orders": [{"buy": {"type": "inf"}}] * 60},
            "file": "orders:\n" + "  - buy: {type: inf}\n" * 300, "signature": "x" * 400}
    assert len(sealed.seal(ctx, short, to)["sealed"]) == len(sealed.seal(ctx, long, to)["sealed"])


def test_the_sealed_orders_of_a_simultaneous_phase_look_alike(new_campaign) -> None:
    root = new_campaign()
    play(root, until_turn=1, phase="purchase")
    for faction in api.status(root)["awaiting"]:  # the purchase phase awaits all four at once
        path = root.parent / f"{faction}.yaml"
        body = api.bot(root, faction)
        if faction == "red":
            body["orders"] = []  # one faction sends next to nothing
        from pbem import yamlio

        yamlio.write_atomic(path, yamlio.dump(body))
        if faction != api.status(root)["awaiting"][-1]:
            api.apply(root, [path])
    pending = Campaign.open(root).state()["pending"]
    assert len(pending) == 3
    sizes = {len(r["sealed"]["sealed"]) for r in pending.values()}
    assert len(sizes) == 1, sizes
