"""Whose key `pbem sign` is given (api._whose_key), in-process: the factions it is the key
of, a faction the file orders with another key (refused but with --force), a faction with
no key (said), and a file for several factions."""

from __future__ import annotations

from pathlib import Path
from types import SimpleNamespace
from typing import Any

import pytest
from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PrivateKey

from pbem import api, yamlio
from pbem.crypto.sshsig import public_line
from pbem.errors import Rejected

ANN, BOB = Ed25519PrivateKey.generate(), Ed25519PrivateKey.generate()
KEY = Path("keys/ann_ed25519")


def seats() -> Any:
    """Ann plays red and south (one key, with a comment on one line), Bob siberian and
    poland; north
    is hot-seat, with no key."""
    ann, bob = public_line(ANN.public_key()), public_line(BOB.public_key())
    factions = {"red": {"ssh": ann}, "south": {"ssh": f"{ann} ann@laptop"},
                "siberian": {"ssh": bob}, "poland": {"ssh": bob}, "north": {}}
    return SimpleNamespace(factions=lambda: factions)


def whose(faction: str | list[str], *, force: bool = False) -> api.Signed:
    doc = yamlio.load_untrusted(f"faction: {faction}\n", "orders.yaml")
    out = api.Signed(Path("orders.yaml.sig"))
    api._whose_key(seats(), ANN, doc, KEY, force, out)
    return out


def test_the_factions_a_key_is_the_key_of() -> None:
    for faction in ("red", "south", ["red", "south"]):
        signed = whose(faction)
        assert signed.key_of == ["red", "south"] and signed.notes == []


@pytest.mark.parametrize(("faction", "others"), [("siberian", "siberian"),
                                                 (["red", "siberian"], "siberian"),
                                                 (["siberian", "poland"], "siberian, poland")])
def test_another_factions_key_is_refused_unless_forced(faction: Any, others: str) -> None:
    with pytest.raises(Rejected) as refused:
        whose(faction)
    assert refused.value.message == (
        f"{KEY}: the key of red, south of this campaign, not of {others}, which orders.yaml "
        f"orders; sign with {others}'s key (or --force for a key that player shares between "
        "factions)")
    assert whose(faction, force=True).key_of == ["red", "south"]


def test_a_key_of_no_faction_and_a_faction_of_no_key() -> None:
    doc = yamlio.load_untrusted("faction: [siberian, red]\n", "o.yaml")
    out = api.Signed(Path("o.yaml.sig"))
    with pytest.raises(Rejected) as refused:
        api._whose_key(seats(), Ed25519PrivateKey.generate(), doc, KEY, False, out)
    assert refused.value.message.startswith(f"{KEY}: the key of no faction of this campaign, "
                                            "not of siberian, red, which o.yaml orders")
    north = whose("north")
    assert north.key_of == ["red", "south"]
    assert north.notes == ["north has no key in this campaign: its orders are checked by the "
                           "sender's address, not by this signature"]
