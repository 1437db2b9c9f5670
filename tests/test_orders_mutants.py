"""pbem/orders.py cases written against the survivors of mutation testing
(benchmarks/mutation.py pbem/orders.py): the exact parts, places and messages."""

from __future__ import annotations

from pathlib import Path

from pbem import orders, yamlio

SEVERAL = """campaign: c
faction: [south, north]
orders:
  south: []
  north: [{move: {units: [north-inf-01], to: Kem}}]
standing:
  north: {retreat_before_combat: never}
secret:
  south: {spend: {Tver: 1}}
  north: {spend: {Kem: 3}}
"""


def test_body_of_and_secret_of_one_faction_or_one_of_several() -> None:
    one = {"orders": [{"a": 1}], "standing": {"loss_order": ["cav"]}, "secret": {"spend": {}}}
    assert orders.body_of(one) == {"orders": [{"a": 1}], "standing": {"loss_order": ["cav"]}}
    assert orders.body_of({}) == {"orders": [], "standing": {}}
    assert orders.body_of({"orders": None, "standing": None}) == {"orders": [], "standing": {}}
    assert orders.secret_of(one) == {"spend": {}}
    data = yamlio.load_untrusted(SEVERAL, "f.yaml").data
    assert orders.body_of(data, "north") == {"orders": [{"move": {"units": ["north-inf-01"], "to": "Kem"}}],
                                             "standing": {"retreat_before_combat": "never"}}
    assert orders.body_of(data, "south") == {"orders": [], "standing": {}}
    assert orders.secret_of(data, "north") == {"spend": {"Kem": 3}}
    assert orders.secret_of(data, "south") == {"spend": {"Tver": 1}}


def test_a_problem_without_a_path_in_a_file_for_several_factions_is_placed_at_their_orders() -> None:
    doc = yamlio.load_untrusted(SEVERAL, "f.yaml")
    checked = orders.Checked(Path("f.yaml"), doc)
    assert checked.where("south", ()) == "f.yaml:4"
    assert checked.where("north", ()) == "f.yaml:5"
    assert checked.where("north", ("standing",)) == "f.yaml:7"


def _checked(tmp_path: Path, factions: list[str]) -> orders.Checked:
    path = tmp_path / "t01-red.yaml"
    path.write_text("campaign: c\n")
    checked = orders.Checked(path, yamlio.load_untrusted(path.read_text(), str(path)))
    checked.factions = factions
    return checked


def test_unsigned_orders_are_a_problem_only_for_a_faction_that_must_sign(tmp_path: Path) -> None:
    checked = _checked(tmp_path, ["red"])
    orders._check_signature(checked, orders.Signing())  # unsigned_ok not given: allowed
    assert checked.problems == [] and checked.notes == []
    orders._check_signature(checked, orders.Signing(unsigned_ok={"red": True}))
    assert checked.problems == []
    orders._check_signature(checked, orders.Signing(unsigned_ok={"red": False}))
    needed = ("orders of red must be signed: no t01-red.yaml.sig beside the file (pbem sign t01-red.yaml "
              "--key YOUR_ed25519, or ssh-keygen -Y sign -n pbem-orders-v1 -f YOUR_ed25519 t01-red.yaml)")
    assert checked.problems == [f"{checked.path}:1: {needed}"]
    draft = _checked(tmp_path, ["red"])
    orders._check_signature(draft, orders.Signing(unsigned_ok={"red": False}, draft=True))
    assert draft.problems == [] and draft.notes == [f"{draft.path}:1: not signed yet: {needed}"]


def test_a_signature_of_factions_without_a_key_cannot_be_checked(tmp_path: Path) -> None:
    checked = _checked(tmp_path, ["red"])
    sig = tmp_path / "t01-red.yaml.sig"
    sig.write_text("-----BEGIN SSH SIGNATURE-----\n")
    orders._check_signature(checked, orders.Signing(keys={"red": None}))
    assert checked.problems == [f"{sig}:1: red has no public key in campaign.yaml, so the signature cannot "
                                "be checked (register it with pbem new --key)"]
    two = _checked(tmp_path, ["south", "north"])
    orders._check_signature(two, orders.Signing(keys={}))
    assert two.problems == [f"{sig}:1: south and north have no public key in campaign.yaml, so the "
                            "signature cannot be checked (register it with pbem new --key)"]
