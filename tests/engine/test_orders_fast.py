"""pbem/orders.py in isolation: check_orders on files written here, with a stand-in game
whose validation reports fixed problems, so each test is a few milliseconds and asserts the
exact FILE:LINE: message; the parts of a file (body_of, secret_of) and the line a problem is
placed at, exactly."""

from __future__ import annotations

import hashlib
from pathlib import Path
from typing import Any

import pytest
from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PrivateKey

from pbem import orders, yamlio
from pbem.crypto import sshsig
from pbem.game import Phase, Problem
from pbem.randomness import salt_commitment

PHASE = Phase("action", 3, ("south", "north"), secret={"type": "object"})  # takes any secret part
FACTIONS = ["red", "south", "north"]
DATA = object()  # the game's data, handed to its validation as it is
SALT = "ab" * 16
SALT2 = "cd" * 32


class Game:
    """Reports what `found` says for each faction; remembers what it was given."""

    def __init__(self, found: dict[str, list[Problem]] | None = None,
                 error: Exception | None = None, only: str | None = None) -> None:
        self.found = found or {}
        self.error, self.only = error, only  # raise `error` (for the faction `only`)
        self.seen: list[tuple[str, dict[str, Any]]] = []
        self.given: list[tuple[Any, Any]] = []

    def validate(self, data: Any, state: Any, faction: str, body: dict[str, Any]) -> list[Problem]:
        self.seen.append((faction, body))
        self.given.append((data, state))
        if self.error is not None and self.only in (None, faction):
            raise self.error
        return self.found.get(faction, [])


def check(path: Path, game: Game | None = None, **kwargs: Any) -> orders.Checked:
    return orders.check_orders(path, campaign_id="camp", phase=kwargs.pop("phase", PHASE),
                               game=game or Game(), data=DATA, game_state={"s": 1},  # type: ignore[arg-type]
                               factions=kwargs.pop("factions", FACTIONS), **kwargs)


def write(tmp_path: Path, text: str, name: str = "o.yaml") -> Path:
    path = tmp_path / name
    path.write_text(text)
    return path


GOOD = "campaign: camp\nturn: 3\nphase: action\nfaction: south\norders: []\n"


def test_a_good_file_is_split_into_its_part_and_validated(tmp_path: Path) -> None:
    game = Game()
    path = write(tmp_path, GOOD + f"standing: {{a: 1}}\nsecret: {{spend: 2}}\nsalt: {SALT}\n"
                 f"salt_next: {SALT2}\n")
    checked = check(path, game)
    assert checked.problems == [] and checked.ok and not checked.several
    assert checked.factions == ["south"]
    assert checked.parts == [orders.Part("south", {"orders": [], "standing": {"a": 1}},
                                         {"spend": 2}, SALT, SALT2)]
    assert game.seen == [("south", {"orders": [], "standing": {"a": 1}, "secret": {"spend": 2}})]
    assert game.given == [(DATA, {"s": 1})]
    assert checked.raw == path.read_text() and checked.raw_bytes == path.read_bytes()
    assert checked.signature is None and checked.head_index is None and checked.notes == []


def test_the_games_problems_are_placed_at_their_line(tmp_path: Path) -> None:
    path = write(tmp_path, GOOD.replace("orders: []", "orders:\n- move: x\n- move: y\n"))
    game = Game({"south": [Problem(("orders", 1, "move"), "no such zone"), Problem((), "all wrong")]})
    checked = check(path, game)
    assert checked.problems == [f"{path}:7: no such zone", f"{path}:1: all wrong"]
    assert checked.parts and not checked.ok
    assert game.seen == [("south", {"orders": [{"move": "x"}, {"move": "y"}], "standing": {}})]


@pytest.mark.parametrize("error", [TypeError("t"), KeyError("k"), ValueError("v"),
                                   AttributeError("a"), IndexError("i")])
def test_rules_that_crash_on_hostile_input_reject_the_file(tmp_path: Path, error: Exception) -> None:
    path = write(tmp_path, GOOD)
    checked = check(path, Game(error=error))
    assert checked.problems == [
        f"{path}:5: the rules could not check these orders ({type(error).__name__}: {error}); "
        "check the types of your orders and standing instructions against the game's ORDERS.md"]


def test_a_file_that_cannot_be_read_or_is_not_a_mapping(tmp_path: Path) -> None:
    missing = tmp_path / "none.yaml"
    checked = check(missing)
    assert checked.path == missing
    assert checked.doc is None and checked.problems == [
        f"{missing}:1: no such file; expected an orders file (YAML text), a regular file"]
    listed = write(tmp_path, "- a\n- b\n")
    assert check(listed).problems == [
        f"{listed}:1: expected a mapping with keys campaign, turn, phase, faction, orders"]
    with pytest.raises(Exception) as info:
        orders.read_orders(missing)
    assert info.value.message == checked.problems[0]  # type: ignore[attr-defined]
    assert orders.read_orders(listed).data == ["a", "b"]
    assert orders.read_orders(listed).where((1,)) == f"{listed}:2"


def test_unknown_and_missing_header_keys(tmp_path: Path) -> None:
    path = write(tmp_path, "campain: camp\nturn: 3\nphase: action\nfaction: south\nstandnig: {}\n")
    assert check(path).problems == [
        f"{path}:1: unknown key 'campain'; did you mean 'campaign'? (expected: campaign, turn, "
        "phase, faction, head, signed, salt, salt_next, orders, standing, secret)",
        f"{path}:5: unknown key 'standnig'; did you mean 'standing'? (expected: campaign, turn, "
        "phase, faction, head, signed, salt, salt_next, orders, standing, secret)",
        f"{path}:1: missing key 'campaign'",
        f"{path}:1: missing key 'orders'"]
    bare = write(tmp_path, "zzz: 1\n", "bare.yaml")
    assert check(bare).problems == [
        f"{bare}:1: unknown key 'zzz' (expected: campaign, turn, phase, faction, head, signed, "
        "salt, salt_next, orders, standing, secret)",
        *[f"{bare}:1: missing key {k!r}" for k in orders.REQUIRED]]


def test_a_header_for_another_campaign_turn_or_phase(tmp_path: Path) -> None:
    path = write(tmp_path, "turn: 2\ncampaign: other\nphase: purchase\nfaction: south\norders: []\n")
    assert check(path).problems == [
        f"{path}:2: these orders are for campaign 'other', this campaign is 'camp'",
        f"{path}:1: orders for turn 2, but it is turn 3",
        f"{path}:3: orders for phase 'purchase', but the phase is 'action'"]
    no_campaign = write(tmp_path, "turn: 3\nphase: 5\nfaction: south\norders: []\n", "n.yaml")
    assert check(no_campaign).problems == [
        f"{no_campaign}:1: missing key 'campaign'",
        f"{no_campaign}:2: 'phase' must be the phase name as text (phase: action), not the whole "
        "number 5"]


def test_header_values_of_the_wrong_type(tmp_path: Path) -> None:
    path = write(tmp_path, "campaign: 7\nturn: true\nphase: ' '\nfaction: south\nhead: XYZ\n"
                 "orders: []\n")
    assert check(path).problems == [
        f"{path}:1: 'campaign' must be the campaign id as text (campaign: camp), not the whole "
        "number 7",
        f"{path}:3: 'phase' must be the phase name as text (phase: action), not the text ' '",
        f"{path}:5: 'head' must be the log head you saw, in hex digits (head: from pbem status), "
        "not the text 'XYZ'",
        f"{path}:2: 'turn' must be a whole number (turn: 3), not true"]
    floats = write(tmp_path, "campaign: camp\nturn: 3.0\nphase: action\nfaction: south\n"
                   "head: abcde\norders: []\n", "f.yaml")
    assert check(floats).problems == [
        f"{floats}:5: 'head' must be the log head you saw, in hex digits (head: from pbem status), "
        "not the text 'abcde'",
        f"{floats}:2: 'turn' must be a whole number (turn: 3), not the number 3.0"]
    empty_head = write(tmp_path, GOOD + "head:\n", "h.yaml")
    assert check(empty_head).problems == []
    long_head = write(tmp_path, GOOD + f"head: {'a' * 65}\n", "l.yaml")
    assert check(long_head).problems == [
        f"{long_head}:6: 'head' must be the log head you saw, in hex digits (head: from pbem "
        f"status), not the text '{'a' * 56}..."]
    ok_head = write(tmp_path, GOOD + f"head: {'a' * 64}\n", "k.yaml")
    assert check(ok_head).problems == []
    six = write(tmp_path, GOOD + "head: abcdef\n", "six.yaml")
    assert check(six).problems == []


def test_shown() -> None:
    assert orders.shown(None) == "nothing (null)"
    assert orders.shown(False) == "false"
    assert orders.shown(True) == "true"
    assert orders.shown(3) == "the whole number 3"
    assert orders.shown(2.5) == "the number 2.5"
    assert orders.shown("x") == "the text 'x'"
    assert orders.shown([1]) == "a list [1]"
    assert orders.shown({"a": 1}) == "a mapping {'a': 1}"
    assert orders.shown(b"x") == "bytes b'x'"
    assert orders.shown("a" * 58) == f"the text '{'a' * 58}'"  # 60 characters with the quotes
    assert orders.shown("a" * 59) == f"the text '{'a' * 56}..."


def test_factions_named_wrong(tmp_path: Path) -> None:
    path = write(tmp_path, "campaign: camp\nturn: 3\nphase: action\nfaction: [sooth, 3, north, "
                 "north, red]\norders: {}\n")
    assert check(path).problems == [
        f"{path}:4: unknown faction 'sooth'; did you mean 'south'? (factions: red, south, north)",
        f"{path}:4: a faction is named as text (faction: red, or faction: [FACTION, FACTION] for "
        "several of yours), not the whole number 3",
        f"{path}:4: north is named twice",
        f"{path}:4: red is not awaited in phase action (awaiting: south, north); name only your "
        "factions that are awaited",
        f"{path}:5: no orders for sooth, which the header names: add 'sooth: [...]' under 'orders' "
        "([] for none)",
        f"{path}:5: no orders for north, which the header names: add 'north: [...]' under "
        "'orders' ([] for none)",
        f"{path}:5: no orders for red, which the header names: add 'red: [...]' under 'orders' "
        "([] for none)"]


def test_one_faction_not_awaited_or_unknown(tmp_path: Path) -> None:
    path = write(tmp_path, GOOD.replace("south", "red"))
    assert check(path).problems == [f"{path}:4: red is not awaited in phase action (awaiting: "
                                    "south, north)"]
    nobody = check(path, phase=Phase("income", 3, ()))
    assert nobody.problems == [
        f"{path}:3: orders for phase 'action', but the phase is 'income'",
        f"{path}:4: red is not awaited in phase income (awaiting: nobody)"]
    other = write(tmp_path, GOOD.replace("south", "zzz"), "z.yaml")
    assert check(other, factions=[]).problems == [f"{other}:4: unknown faction 'zzz' (factions: )"]
    number = write(tmp_path, GOOD.replace("south", "5"), "n.yaml")
    assert check(number, factions=[]).problems == [
        f"{number}:4: a faction is named as text (faction: FACTION, or faction: [FACTION, "
        "FACTION] for several of yours), not the whole number 5"]
    assert check(number).problems == [  # the example is one of the game's factions
        f"{number}:4: a faction is named as text (faction: {FACTIONS[0]}, or faction: [FACTION, "
        "FACTION] for several of yours), not the whole number 5"]
    empty = write(tmp_path, GOOD.replace("south", "[]"), "e.yaml")
    assert check(empty, factions=["only"]).problems[0] == (
        f"{empty}:4: name the factions of these orders (faction: only, or faction: [only, "
        "FACTION] for several of yours)")
    assert check(empty).problems == [
        f"{empty}:4: name the factions of these orders (faction: {FACTIONS[0]}, or faction: "
        f"[{FACTIONS[0]}, {FACTIONS[1]}] for several of yours)",
        f"{empty}:5: in a file for several factions 'orders' is a mapping by faction (orders: "
        "{FACTION: ...})"]


SEVERAL = ("campaign: camp\nturn: 3\nphase: action\nfaction: [south, north]\norders:\n"
           "  south: []\n  north: [{a: 1}]\n")


def test_several_factions_of_one_player_or_of_several(tmp_path: Path) -> None:
    path = write(tmp_path, SEVERAL + "secret:\n  north: {spend: 1}\n")
    game = Game()
    checked = check(path, game, players={"south": "Bob", "north": "Bob"})
    assert checked.problems == [] and checked.several
    assert [p.faction for p in checked.parts] == ["south", "north"]
    assert checked.parts[1].secret == {"spend": 1} and checked.parts[0].secret is None
    assert game.seen == [("south", {"orders": [], "standing": {}}),
                         ("north", {"orders": [{"a": 1}], "standing": {}, "secret": {"spend": 1}})]
    assert check(path, players={"south": "Bob", "north": "Ann"}).problems == [
        f"{path}:4: one orders file may name several factions only if one player plays them all "
        "(south: Bob, north: Ann); send one file per player"]
    assert check(path, players={"south": None, "north": None}).problems == [
        f"{path}:4: one orders file may name several factions only if one player plays them all "
        "(south: hot-seat, no player, north: hot-seat, no player); send one file per player"]
    assert check(path, players={"south": "Bob"}).problems == [
        f"{path}:4: one orders file may name several factions only if one player plays them all "
        "(south: Bob, north: hot-seat, no player); send one file per player"]
    one = write(tmp_path, SEVERAL.replace("[south, north]", "[south]").replace("  north: [{a: 1}]\n", ""),
                "one.yaml")
    assert check(one, players={"south": None}).problems == []


def test_bodies_of_a_file_for_one_faction_of_the_wrong_type(tmp_path: Path) -> None:
    path = write(tmp_path, GOOD.replace("orders: []", "orders: {}") + "standing: []\nsecret: 3\n")
    assert check(path).problems == [f"{path}:5: 'orders' must be a list (use [] for none)",
                                    f"{path}:6: 'standing' must be a mapping",
                                    f"{path}:7: 'secret' must be a mapping"]
    nulls = write(tmp_path, GOOD.replace("orders: []", "orders:") + "standing:\nsecret:\n", "n.yaml")
    checked = check(nulls)
    assert checked.problems == []
    assert checked.parts == [orders.Part("south", {"orders": [], "standing": {}})]


def test_bodies_of_a_file_for_several_factions_of_the_wrong_type(tmp_path: Path) -> None:
    path = write(tmp_path, "campaign: camp\nturn: 3\nphase: action\nfaction: [south, north]\n"
                 "orders:\n  south: {}\n  north:\n  west: []\nstanding: [1]\nsecret:\n"
                 "  south: 3\n  north:\n")
    assert check(path).problems == [
        f"{path}:6: the orders of south must be a list (use [] for none)",
        f"{path}:8: orders of 'west', which the header does not name (faction: [south, north])",
        f"{path}:9: in a file for several factions 'standing' is a mapping by faction (standing: "
        "{south: ...})",
        f"{path}:11: 'secret' of south must be a mapping"]
    listed = write(tmp_path, "campaign: camp\nturn: 3\nphase: action\nfaction: [south, 7]\n"
                   "orders: []\nstanding:\n  sout: {}\n", "l.yaml")
    assert check(listed).problems == [
        f"{listed}:4: a faction is named as text (faction: red, or faction: [FACTION, FACTION] "
        "for several of yours), not the whole number 7",
        f"{listed}:5: in a file for several factions 'orders' is a mapping by faction (orders: "
        "{south: ...})",
        f"{listed}:7: standing of 'sout', which the header does not name (faction: [south]); "
        "did you mean 'south'?"]
    nobody = write(tmp_path, "campaign: camp\nturn: 3\nphase: action\nfaction: [7]\norders: []\n",
                   "x.yaml")
    assert check(nobody).problems[-1] == (
        f"{nobody}:5: in a file for several factions 'orders' is a mapping by faction (orders: "
        "{FACTION: ...})")


def test_pbems_sealing_fields_are_refused_in_every_part_of_every_faction(tmp_path: Path) -> None:
    """A player never writes `sealed:` or `commitment:` (the rules would take such a part as
    one pbem sealed and checked): in the orders, standing instructions and secret part of a
    file for one faction or several, each at its line, and the rules are not asked."""
    path = write(tmp_path, SEVERAL + "standing:\n  south: {x: {commitment: 1}}\nsecret:\n"
                 "  north: {sealed: 2}\n")
    game = Game()
    assert check(path, game, players={"south": "Bob", "north": "Bob"}).problems == [
        f"{path}:9: 'commitment' is a field pbem writes when it seals a value, never one of yours: "
        "write the value itself (pbem seals your secret part when it records the file)",
        f"{path}:11: 'sealed' is a field pbem writes when it seals a value, never one of yours: "
        "write the value itself (pbem seals your secret part when it records the file)"]
    assert game.seen == []
    one = write(tmp_path, GOOD.replace("orders: []", "orders: [{a: [{sealed: 1}]}]"), "one.yaml")
    assert check(one).problems == [
        f"{one}:5: 'sealed' is a field pbem writes when it seals a value, never one of yours: "
        "write the value itself (pbem seals your secret part when it records the file)"]


def test_a_secret_part_only_where_the_phase_takes_one_and_of_its_shape(tmp_path: Path) -> None:
    path = write(tmp_path, GOOD + "secret: {spend: 2}\n")
    none = Phase("action", 3, ("south", "north"))
    assert check(path, phase=none).problems == [
        f"{path}:6: phase action takes no secret part: leave 'secret:' out of these orders"]
    shaped = Phase("action", 3, ("south", "north"), secret={
        "description": "the secret part is spend: N", "type": "object",
        "additionalProperties": False, "required": ["spend"],
        "properties": {"spend": {"type": "integer"}, "also": {"type": ["array", "boolean"]}}})
    assert check(path, phase=shaped).problems == []
    bad = write(tmp_path, GOOD + "secret: {spnd: 2, also: x}\n", "bad.yaml")
    assert check(bad, phase=shaped).problems == [
        f"{bad}:6: unknown key 'spnd' in the secret part; did you mean 'spend'? (expected: also, "
        "spend); the secret part is spend: N",
        f"{bad}:6: missing 'spend'; the secret part is spend: N",
        f"{bad}:6: expected a list or true or false, not the text 'x'; the secret part is spend: N"]
    several = write(tmp_path, SEVERAL + "secret:\n  north: {spend: x}\n", "several.yaml")
    assert check(several, phase=shaped, players={"south": "Bob", "north": "Bob"}).problems == [
        f"{several}:9: expected a whole number, not the text 'x'; the secret part is spend: N"]


def test_where_and_body_of(tmp_path: Path) -> None:
    path = write(tmp_path, SEVERAL + "standing:\n  north:\n    x: 1\n")
    checked = check(path)
    assert checked.where("north", ("standing", "x")) == f"{path}:10"
    assert checked.where("north", ("orders", 0)) == f"{path}:7"
    assert checked.where("south", ("head",)) == f"{path}:1"
    assert checked.where("north", ()) == f"{path}:7"
    deep = write(tmp_path, "campaign: camp\nturn: 3\nphase: action\nfaction: [south, north]\n"
                 "orders:\n  south: []\n  north:\n    - a: 1\n      b: 2\n", "d.yaml")
    assert check(deep).where("north", ("orders", 0, "b")) == f"{deep}:9"  # three levels deep
    one = check(write(tmp_path, GOOD, "g.yaml"))
    assert one.where("south", ()) == f"{tmp_path / 'g.yaml'}:1"
    assert one.where("south", ("orders",)) == f"{tmp_path / 'g.yaml'}:5"
    assert orders.several({"faction": ["a"]}) and not orders.several({"faction": "a"})
    assert not orders.several(["faction"])
    data = {"faction": ["a", "b"], "orders": [1]}
    assert orders.body_of(data, "a") == {"orders": [], "standing": {}}
    assert orders.secret_of({"faction": ["a"], "secret": {"a": 5}}, "a") == 5
    assert orders.secret_of({"faction": "a", "secret": 5}) == 5
    assert orders.signature_path(Path("/x/o.yaml")) == Path("/x/o.yaml.sig")
    assert orders._digest("abc") == hashlib.sha256(b"abc").hexdigest()


SEVERAL_PARTS = """campaign: c
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
    data = yamlio.load_untrusted(SEVERAL_PARTS, "f.yaml").data
    assert orders.body_of(data, "north") == {"orders": [{"move": {"units": ["north-inf-01"], "to": "Kem"}}],
                                             "standing": {"retreat_before_combat": "never"}}
    assert orders.body_of(data, "south") == {"orders": [], "standing": {}}
    assert orders.secret_of(data, "north") == {"spend": {"Kem": 3}}
    assert orders.secret_of(data, "south") == {"spend": {"Tver": 1}}


def test_a_problem_without_a_path_in_a_file_for_several_factions_is_placed_at_their_orders() -> None:
    doc = yamlio.load_untrusted(SEVERAL_PARTS, "f.yaml")
    checked = orders.Checked(Path("f.yaml"), doc)
    assert checked.where("south", ()) == "f.yaml:4"
    assert checked.where("north", ()) == "f.yaml:5"
    assert checked.where("north", ("standing",)) == "f.yaml:7"


# ---------------------------------------------------------------------------------------
# salts


def test_salts_of_the_wrong_form(tmp_path: Path) -> None:
    path = write(tmp_path, GOOD + "salt: ABCD\nsalt_next: " + "ab" * 16 + "\n")
    assert check(path).problems == [
        f"{path}:6: salt is 16 to 64 bytes in lower-case hex",
        f"{path}:7: salt_next is the SHA-256 (64 hex digits) of the salt of your next orders file"]
    short = write(tmp_path, GOOD + "salt: " + "ab" * 15 + "\n", "s.yaml")
    assert check(short).problems == [f"{short}:6: salt is 16 to 64 bytes in lower-case hex"]
    long = write(tmp_path, GOOD + "salt: " + "ab" * 65 + "\n", "l.yaml")
    assert check(long).problems == [f"{long}:6: salt is 16 to 64 bytes in lower-case hex"]
    odd = write(tmp_path, GOOD + "salt: " + "a" * 33 + "\n", "o.yaml")
    assert check(odd).problems == [f"{odd}:6: salt is 16 to 64 bytes in lower-case hex"]
    number = write(tmp_path, GOOD + "salt: 1234\n", "n.yaml")
    assert check(number).problems == [f"{number}:6: salt is 16 to 64 bytes in lower-case hex"]
    top = write(tmp_path, GOOD + "salt: " + "ab" * 64 + "\n", "t.yaml")
    assert check(top).problems == [] and check(top).parts[0].salt == "ab" * 64


def test_salts_committed_to_and_not(tmp_path: Path) -> None:
    path = write(tmp_path, GOOD + f"salt: {SALT}\n")
    right = orders.Signing(salt_commits={"south": salt_commitment(SALT)})
    assert check(path, signing=right).problems == []
    wrong = orders.Signing(salt_commits={"south": salt_commitment(SALT2)})
    assert check(path, signing=wrong).problems == [
        f"{path}:6: this salt is not the one south committed to last time (its SHA-256 must equal "
        "that salt_next)"]
    none = write(tmp_path, GOOD, "none.yaml")
    checked = check(none, signing=right)
    assert checked.problems == [] and checked.notes == [
        f"{none}:1: no dice salt of south's: south committed to one last time (salt_next); "
        "'pbem sign' in your clone adds it"]
    bad = write(tmp_path, GOOD + "salt: XX\n", "bad.yaml")
    assert check(bad, signing=wrong).problems == [f"{bad}:6: salt is 16 to 64 bytes in lower-case hex"]
    other = orders.Signing(salt_commits={"north": salt_commitment(SALT2)})
    assert check(path, signing=other).problems == []


def test_salts_in_a_file_for_several_factions(tmp_path: Path) -> None:
    path = write(tmp_path, SEVERAL + f"salt:\n  south: {SALT}\n  north:\n  west: {SALT}\n"
                 f"salt_next: {SALT2}\n")
    checked = check(path)
    assert checked.problems == [
        f"{path}:11: salt of 'west', which the header does not name (faction: [south, north])"]
    shared = write(tmp_path, SEVERAL + f"salt: {SALT}\nsalt_next:\n  north: {SALT2}\n", "s.yaml")
    signing = orders.Signing(salt_commits={"south": salt_commitment(SALT),
                                           "north": salt_commitment(SALT)})
    checked = check(shared, signing=signing)
    assert checked.problems == []
    assert [(p.salt, p.salt_next) for p in checked.parts] == [(SALT, None), (SALT, SALT2)]
    wrong = write(tmp_path, SEVERAL + f"salt:\n  south: {SALT}\n  north: {SALT2}\n", "w.yaml")
    assert check(wrong, signing=signing).problems == [
        f"{wrong}:10: this salt is not the one north committed to last time (its SHA-256 must "
        "equal that salt_next)"]
    bad = write(tmp_path, SEVERAL + "salt:\n  south: 12\n  north: zz\n", "b.yaml")
    assert check(bad).problems == [f"{bad}:9: salt is 16 to 64 bytes in lower-case hex"]


# ---------------------------------------------------------------------------------------
# signatures


@pytest.fixture(scope="module")
def keys() -> dict[str, Any]:
    one, two = Ed25519PrivateKey.generate(), Ed25519PrivateKey.generate()
    return {"one": one, "two": two, "pub1": sshsig.public_line(one.public_key()),
            "pub2": sshsig.public_line(two.public_key())}


HEAD = "ab" * 32


def signed_file(tmp_path: Path, key: Any, text: str, name: str = "o.yaml") -> Path:
    path = write(tmp_path, text, name)
    orders.signature_path(path).write_text(sshsig.sign(key, path.read_bytes(), "pbem-orders-v1"))
    return path


def test_a_signed_file_of_the_head_seen(tmp_path: Path, keys: dict[str, Any]) -> None:
    path = signed_file(tmp_path, keys["one"], GOOD + f"head: {HEAD}\n")
    signing = orders.Signing(keys={"south": keys["pub1"]}, heads=["00" * 32, HEAD])
    checked = check(path, signing=signing)
    assert checked.problems == []
    assert checked.head_index == 1
    assert checked.signature == orders.signature_path(path).read_text()
    assert check(path, signing=orders.Signing(keys={"south": keys["pub1"]}, heads=[HEAD])).head_index == 0


def test_a_signature_by_another_key_or_over_other_bytes(tmp_path: Path, keys: dict[str, Any]) -> None:
    path = signed_file(tmp_path, keys["two"], GOOD + f"head: {HEAD}\n")
    sig = orders.signature_path(path)
    signing = orders.Signing(keys={"south": keys["pub1"]}, heads=[HEAD])
    assert check(path, signing=signing).problems == [
        f"{sig}:1: the signature was made with another key than the expected signer's (the "
        "signature must be by south's key over this exact file)"]
    several = signed_file(tmp_path, keys["two"], SEVERAL + f"head: {HEAD}\n", "s.yaml")
    both = orders.Signing(keys={"south": keys["pub1"], "north": keys["pub1"]}, heads=[HEAD])
    assert check(several, signing=both).problems == [
        f"{several}.sig:1: the signature was made with another key than the expected signer's "
        "(the signature must be by the key of the player of south and north over this exact file)"]
    assert check(several, signing=orders.Signing(keys={"south": keys["pub2"], "north": keys["pub2"]},
                                                 heads=[HEAD])).problems == []
    differ = orders.Signing(keys={"south": keys["pub1"], "north": keys["pub2"]}, heads=[HEAD])
    assert check(several, signing=differ).problems == [
        f"{several}.sig:1: south and north have different keys in campaign.yaml, so one signature "
        "cannot be theirs: a file for several factions is signed by the one key of their player "
        "(pbem new --key south,north=CARD), else send one file per faction"]
    bad_key = orders.Signing(keys={"south": "not a key"}, heads=[HEAD])
    found = check(path, signing=bad_key).problems
    assert len(found) == 1 and found[0].startswith(f"{sig}:1: ") and found[0].endswith(
        " (the signature must be by south's key over this exact file)")


def test_a_signature_that_cannot_be_read(tmp_path: Path, keys: dict[str, Any]) -> None:
    path = write(tmp_path, GOOD + f"head: {HEAD}\n")
    sig = orders.signature_path(path)
    signing = orders.Signing(keys={"south": keys["pub1"]}, heads=[HEAD])
    sig.write_bytes(b"\xff\xfe")
    assert check(path, signing=signing).problems == [
        f"{sig}:1: cannot be read: 'ascii' codec can't decode byte 0xff in position 0: ordinal "
        "not in range(128)"]
    sig.write_bytes(b"x" * (orders.MAX_SIGNATURE_BYTES + 1))
    found = check(path, signing=signing).problems
    assert len(found) == 1 and found[0].startswith(f"{sig}:1: ") and "a signature (what " \
        "ssh-keygen -Y sign or pbem sign writes)" in found[0]
    sig.unlink()
    sig.mkdir()
    assert check(path, signing=signing).problems == [
        f"{sig}:1: is a directory; expected a signature (what ssh-keygen -Y sign or pbem sign "
        "writes), a regular file"]


def test_a_signed_file_must_name_a_head_of_this_phase(tmp_path: Path, keys: dict[str, Any]) -> None:
    path = signed_file(tmp_path, keys["one"], GOOD + f"head: {'cd' * 32}\n")
    signing = orders.Signing(keys={"south": keys["pub1"]}, heads=[HEAD])
    assert check(path, signing=signing).problems == [
        f"{path}:6: signed orders must name the log head you saw in this phase ('head:' from pbem "
        f"status); {'cd' * 8!r} is not one (an orders file from another phase or campaign?)"]
    none = signed_file(tmp_path, keys["one"], GOOD, "n.yaml")
    assert check(none, signing=signing).problems == [
        f"{none}:1: signed orders must name the log head you saw in this phase ('head:' from pbem "
        "status); 'None' is not one (an orders file from another phase or campaign?)"]


def test_signed_orders_recorded_already_or_older(tmp_path: Path, keys: dict[str, Any]) -> None:
    path = signed_file(tmp_path, keys["one"], GOOD + f"head: {HEAD}\n")
    digest = hashlib.sha256(orders.signature_path(path).read_bytes()).hexdigest()
    base = {"keys": {"south": keys["pub1"]}, "heads": ["00" * 32, HEAD]}
    again = orders.Signing(**base, pending={"south": {"sig_digest": digest, "head_index": 1}})
    assert check(path, signing=again).problems == [f"{path}:1: these signed orders were recorded already"]
    newer = orders.Signing(**base, pending={"south": {"sig_digest": "x", "head_index": 2}})
    assert check(path, signing=newer).problems == [
        f"{path}:6: newer orders of south are recorded already; an older signed file cannot "
        "replace them"]
    older = orders.Signing(**base, pending={"south": {"sig_digest": "x", "head_index": 0}})
    assert check(path, signing=older).problems == []
    unsigned = orders.Signing(**base, pending={"south": {"head_index": 1}})
    assert check(path, signing=unsigned).problems == []
    nothing = orders.Signing(**base, pending={"south": {}, "north": {"head_index": 9}})
    assert check(path, signing=nothing).problems == []
    same = orders.Signing(**base, pending={"south": {"sig_digest": "x", "head_index": 1}})
    assert check(path, signing=same).problems == [
        f"{path}:6: orders of south naming the same head are recorded already (signed at no "
        "given time); only a file signed later replaces them (sign the correction again with "
        "'pbem sign', which writes 'signed:', or take the new head from pbem status)"]
    no_index = orders.Signing(**base, pending={"south": {"sig_digest": "x"}})
    assert check(path, signing=no_index).problems == []


def test_a_correction_signed_later_replaces_the_same_head(tmp_path: Path, keys: dict[str, Any]) -> None:
    when = "2026-12-01T20:15:00.123456Z"
    path = signed_file(tmp_path, keys["one"], GOOD + f"head: {HEAD}\nsigned: '{when}'\n")
    base = {"keys": {"south": keys["pub1"]}, "heads": [HEAD]}

    def recorded(signed: str | None) -> orders.Signing:
        record = {"sig_digest": "x", "head_index": 0, **({"signed": signed} if signed else {})}
        return orders.Signing(**base, pending={"south": record})

    assert check(path, signing=recorded("2026-12-01T20:15:00.000000Z")).problems == []
    assert check(path, signing=recorded(None)).problems == []
    later = "2026-12-01T20:15:00.200000Z"
    assert check(path, signing=recorded(later)).problems == [
        f"{path}:7: orders of south naming the same head are recorded already (signed {later}); "
        "only a file signed later replaces them (sign the correction again with 'pbem sign', "
        "which writes 'signed:', or take the new head from pbem status)"]
    assert check(path, signing=recorded(when)).problems[0].startswith(f"{path}:7: orders of south")
    for bad in ("yesterday", "2026-12-01T20:15:00", "2026-12-01 20:15:00Z", "2026-12-01T20:15:00.1234567Z"):
        odd = signed_file(tmp_path, keys["one"], GOOD + f"head: {HEAD}\nsigned: '{bad}'\n", "b.yaml")
        assert check(odd, signing=recorded(None)).problems == [
            f"{odd}:7: 'signed' is the UTC time pbem sign wrote (2026-12-01T20:15:00.000000Z), "
            f"not the text {bad!r}"]
    plain = signed_file(tmp_path, keys["one"], GOOD + f"head: {HEAD}\nsigned: '2026-12-01T20:15:01Z'\n",
                        "p.yaml")
    assert check(plain, signing=recorded(None)).problems == []
    number = signed_file(tmp_path, keys["one"], GOOD + f"head: {HEAD}\nsigned: 5\n", "n.yaml")
    assert check(number, signing=recorded(None)).problems == [
        f"{number}:7: 'signed' is the UTC time pbem sign wrote (2026-12-01T20:15:00.000000Z), "
        "not the whole number 5"]


def test_no_signature_check_when_the_header_is_wrong(tmp_path: Path, keys: dict[str, Any]) -> None:
    path = write(tmp_path, GOOD.replace("turn: 3", "turn: 4"))
    must = orders.Signing(unsigned_ok={"south": False})
    assert check(path, signing=must).problems == [f"{path}:2: orders for turn 4, but it is turn 3"]
    game = Game()
    check(path, game)
    assert game.seen == []
    several = write(tmp_path, SEVERAL, "s.yaml")
    both = check(several, signing=orders.Signing(unsigned_ok={"south": False, "north": False}))
    assert both.problems == [
        f"{several}:1: orders of south and north must be signed: no s.yaml.sig beside the file "
        "(pbem sign s.yaml --key YOUR_ed25519, or ssh-keygen -Y sign -n pbem-orders-v1 -f "
        "YOUR_ed25519 s.yaml)"]


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


# ---------------------------------------------------------------------------------------
# edges: several factions' problems and crashes, salts, reserved fields, secret schemas


def test_several_factions_problems_and_crashes_placed_at_each_factions_orders(tmp_path: Path) -> None:
    path = write(tmp_path, SEVERAL)
    game = Game({"north": [Problem(("orders", 0), "bad move")]}, error=KeyError("k"), only="south")
    assert check(path, game).problems == [
        f"{path}:6: the rules could not check these orders (KeyError: 'k'); check the types of "
        "your orders and standing instructions against the game's ORDERS.md",
        f"{path}:7: bad move"]
    assert [f for f, _ in game.seen] == ["south", "north"]
    crash = Game(error=ValueError("v"), only="north")
    assert check(path, crash).problems == [
        f"{path}:7: the rules could not check these orders (ValueError: v); check the types of "
        "your orders and standing instructions against the game's ORDERS.md"]


def test_several_factions_with_null_orders_still_check_the_rest(tmp_path: Path) -> None:
    path = write(tmp_path, "campaign: camp\nturn: 3\nphase: action\nfaction: [south, north]\n"
                 "orders:\nstanding:\n  west: {}\n")
    assert check(path).problems == [
        f"{path}:7: standing of 'west', which the header does not name (faction: [south, north])"]


def test_the_example_faction_of_a_message_is_the_first_of_the_campaign(tmp_path: Path) -> None:
    path = write(tmp_path, GOOD.replace("faction: south", "faction: 5"))
    assert check(path, factions=["south", "north"]).problems == [
        f"{path}:4: a faction is named as text (faction: south, or faction: [FACTION, FACTION] for "
        "several of yours), not the whole number 5"]


def test_two_factions_named_one_not_awaited(tmp_path: Path) -> None:
    path = write(tmp_path, "campaign: camp\nturn: 3\nphase: action\nfaction: [south, red]\n"
                 "orders: {south: [], red: []}\n")
    assert check(path).problems == [
        f"{path}:4: red is not awaited in phase action (awaiting: south, north); name only your "
        "factions that are awaited"]


def test_a_bad_salt_next_without_a_salt(tmp_path: Path) -> None:
    path = write(tmp_path, GOOD + "salt_next: XY\n")
    assert check(path).problems == [f"{path}:6: salt_next is 16 to 64 bytes in lower-case hex"]
    short = write(tmp_path, GOOD + f"salt_next: {SALT}\n", "s.yaml")
    checked = check(short, signing=orders.Signing(salt_commits={"south": salt_commitment(SALT)}))
    assert checked.problems == [
        f"{short}:6: salt_next is the SHA-256 (64 hex digits) of the salt of your next orders file"]
    assert checked.notes == [
        f"{short}:1: no dice salt of south's: south committed to one last time (salt_next); "
        "'pbem sign' in your clone adds it"]


def test_a_bad_salt_notes_nothing_of_commitments(tmp_path: Path) -> None:
    bad = write(tmp_path, GOOD + "salt: XX\n")
    checked = check(bad, signing=orders.Signing(salt_commits={"south": salt_commitment(SALT)}))
    assert checked.problems == [f"{bad}:6: salt is 16 to 64 bytes in lower-case hex"]
    assert checked.notes == []


def test_salts_by_faction_one_left_empty(tmp_path: Path) -> None:
    path = write(tmp_path, SEVERAL + "salt:\n  south:\n  north: zz\n")
    assert check(path).problems == [f"{path}:10: salt is 16 to 64 bytes in lower-case hex"]
    right = write(tmp_path, SEVERAL + f"salt:\n  south:\n  north: {SALT2}\n", "r.yaml")
    only_north = orders.Signing(salt_commits={"north": salt_commitment(SALT)})
    assert check(right, signing=only_north).problems == [
        f"{right}:10: this salt is not the one north committed to last time (its SHA-256 must "
        "equal that salt_next)"]


def test_several_factions_one_without_a_record_the_other_newer(tmp_path: Path,
                                                               keys: dict[str, Any]) -> None:
    path = signed_file(tmp_path, keys["one"], SEVERAL + f"head: {HEAD}\n")
    signing = orders.Signing(keys={"south": keys["pub1"], "north": keys["pub1"]}, heads=[HEAD],
                             pending={"south": {}, "north": {"sig_digest": "x", "head_index": 1}})
    assert check(path, signing=signing).problems == [
        f"{path}:8: newer orders of north are recorded already; an older signed file cannot "
        "replace them"]


def test_every_reserved_field_is_named_in_every_item_of_a_list(tmp_path: Path) -> None:
    path = write(tmp_path, GOOD.replace("orders: []", "orders: [{a: {sealed: 1}}, {b: {commitment: 2}}]"))
    assert [p.split(": ")[1] for p in check(path).problems] == ["'sealed' is a field pbem writes "
                                                               "when it seals a value, never one of yours",
                                                               "'commitment' is a field pbem writes "
                                                               "when it seals a value, never one of yours"]


def test_a_secret_schema_that_takes_no_key_and_problems_in_the_parts_order(tmp_path: Path) -> None:
    closed = Phase("action", 3, ("south", "north"), secret={"type": "object", "additionalProperties": False})
    path = write(tmp_path, GOOD + "secret: {x: 1}\n")
    assert check(path, phase=closed).problems == [
        f"{path}:6: unknown key 'x' in the secret part (expected none)"]
    typed = Phase("action", 3, ("south", "north"), secret={
        "type": "object", "properties": {"b": {"type": "integer"}, "a": {"type": "integer"}}})
    both = write(tmp_path, GOOD + "secret:\n  b: x\n  a: y\n", "both.yaml")
    assert check(both, phase=typed).problems == [
        f"{both}:8: expected a whole number, not the text 'y'",
        f"{both}:7: expected a whole number, not the text 'x'"]  # by the path: a before b
