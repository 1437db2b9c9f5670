"""What the referee's check tells a sender of Chechen War orders, when the Chechen's face-down
units are sealed: never anything that depends on a sealed value the sender's key cannot
open. A file is judged against the Chechen's sealed units only once its signature is the
Chechen's, and a file of the Russian's never against them; a player never writes pbem's
sealing fields himself, and a secret part has the shape its phase gives. In-process: the
sealed nodes keep their values beside them, opened as the referee's key would open them.
"""

from __future__ import annotations

import importlib
import json
from collections import Counter
from pathlib import Path
from typing import Any

import pytest
from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PrivateKey
from fixed_rng import KeyedSecrets

from pbem import orders
from pbem.crypto import sshsig
from pbem.dice import KeyedRng
from pbem.game import GameData, State, get_game, load_data

GAME = get_game("chechen_war")
B = importlib.import_module("pbem_game_chechen_war.board").board(load_data("chechen_war"))
UNITS = load_data("chechen_war")["units"]["units"]
MILITIA = sorted(u for u, v in UNITS.items() if v["side"] == "chechen"
                 and v["nationality"] == "chechen_militia")
REGULARS = sorted(u for u, v in UNITS.items() if v["side"] == "chechen"
                  and v["nationality"] != "chechen_militia")
HEAD = "ab" * 32
# a Chechnya hex beside Ingushetia, across no river, and one far inside Chechnya
EDGE, INGUSHETIA = "1029", "1030"
FAR = next(h for h, r in sorted(B.region.items()) if r == "chechnya" and B.grid.distance(h, EDGE) > 6)


def data() -> GameData:
    return load_data("chechen_war")


def node(token: str, unit: str) -> dict[str, Any]:
    """A token's identity as the set-up seals it, its value kept beside it for the test."""
    return {"kind": "unit", "id": token, "owner": "chechen", "turn": 0,
            "commitment": f"c-{token}", "sealed": "x", "value": unit}


def referee(node_: dict[str, Any]) -> Any:
    """The referee's key: it opens every sealed node."""
    return node_["value"]


def position(phase: str, identities: list[str]) -> State:
    """Turn 1 at `phase`: a Russian unit far away, three Chechen tokens on the Ingushetian
    border and one far inside, their identities the units given."""
    s = GAME.setup(data(), {"end_of_turn": "asked"}, KeyedRng(b"\x06" * 32))  # asked: the End of Turn file (ahead: test_cw_ahead.py)
    hexes = [EDGE, EDGE, EDGE, FAR]
    s.update(turn=1, phase=phase, russians={"ru_vityaz": {"hex": "0626", "reduced": False}},
             tokens={f"t{k + 1:02d}": {"hex": h, "unit": node(f"t{k + 1:02d}", u)}
                     for k, (h, u) in enumerate(zip(hexes, identities, strict=True))})
    return s


ALL_REGULAR = REGULARS[:4]
ALL_MILITIA = MILITIA[:4]


@pytest.fixture(scope="module")
def keys() -> dict[str, Any]:
    chechen, russian = Ed25519PrivateKey.generate(), Ed25519PrivateKey.generate()
    return {"chechen": chechen, "russian": russian,
            "pub": {f: sshsig.public_line(k.public_key()) for f, k in
                    (("chechen", chechen), ("russian", russian))}}


def write(tmp_path: Path, faction: str, phase: str, orders_: list[Any],
          secret: Any = None, name: str = "o.yaml") -> Path:
    body: dict[str, Any] = {"campaign": "cw", "turn": 1, "phase": phase, "faction": faction,
                            "head": HEAD, "orders": orders_}
    if secret is not None:
        body["secret"] = secret
    path = tmp_path / name
    path.write_text(json.dumps(body, indent=1) + "\n")
    return path


def sign(path: Path, key: Ed25519PrivateKey) -> Path:
    orders.signature_path(path).write_text(sshsig.sign(key, path.read_bytes(), "pbem-orders-v1"))
    return path


def check(path: Path, state: State, keys: dict[str, Any], *, sees: Any = referee,
          unsigned_ok: bool = False) -> list[str]:
    """What `pbem apply` answers, as the referee runs it: his key opens everything."""
    signing = orders.Signing(keys=dict(keys["pub"]), heads=[HEAD],
                             unsigned_ok={"russian": unsigned_ok, "chechen": unsigned_ok})
    phase = GAME.phase(data(), state)
    checked = orders.check_orders(path, campaign_id="cw", phase=phase, game=GAME, data=data(),
                                  game_state=state, factions=["russian", "chechen"],
                                  signing=signing, sees=sees)
    return [p.replace(str(path), "FILE") for p in checked.problems]


INTO_INGUSHETIA = [{"move": {"units": ["t01"], "path": [EDGE, INGUSHETIA]}},
                   {"move": {"units": ["t02", "t03"], "path": [EDGE, INGUSHETIA]}}]


def test_8_2_the_referee_still_judges_the_chechens_own_signed_moves_by_his_units(
        tmp_path: Path, keys: dict[str, Any]) -> None:
    """The check that needs the sealed values still runs once the file is the Chechen's."""
    path = sign(write(tmp_path, "chechen", "chechen-movement", INTO_INGUSHETIA), keys["chechen"])
    found = check(path, position("chechen-movement", ALL_REGULAR), keys)
    assert any("t01 is not militia: only militia enter Ingushetia (8.2)" in p for p in found)
    assert check(path, position("chechen-movement", ALL_MILITIA), keys) == []


@pytest.mark.parametrize("how", ["the russian's key", "no signature", "a broken signature"])
def test_a_file_for_the_chechen_not_signed_by_him_is_told_nothing_his_units_decide(
        tmp_path: Path, keys: dict[str, Any], how: str) -> None:
    """The oracle: a file naming the Chechen, signed by the Russian's key (or not at all), is
    answered with the signature's problem alone, the same whichever units the tokens are."""
    path = write(tmp_path, "chechen", "chechen-movement", INTO_INGUSHETIA)
    if how == "the russian's key":
        sign(path, keys["russian"])
    elif how == "a broken signature":
        sign(path, keys["chechen"])
        path.write_text(path.read_text().replace('"t01"', '"t01" '))
    answers = [check(path, position("chechen-movement", who), keys)
               for who in (ALL_REGULAR, ALL_MILITIA, [*REGULARS[:2], *MILITIA[:2]])]
    assert answers[0] == answers[1] == answers[2]
    assert len(answers[0]) == 1 and "8.2" not in answers[0][0] and "militia" not in answers[0][0]
    assert ("must be signed" in answers[0][0]) == (how == "no signature")


def test_the_russians_own_file_is_never_judged_by_the_chechens_units(
        tmp_path: Path, keys: dict[str, Any]) -> None:
    """A file of the Russian's, signed by him, is checked on what is public: whichever units
    the Chechen's tokens are, the answer is the same."""
    path = sign(write(tmp_path, "russian", "russian-movement",
                      [{"move": {"units": ["ru_vityaz"], "path": ["0626", EDGE]}}]), keys["russian"])
    answers = [check(path, position("russian-movement", who), keys)
               for who in (ALL_REGULAR, ALL_MILITIA)]
    assert answers[0] == answers[1]


def test_sealed_values_other_than_the_files_factions_stay_sealed_for_the_rules(
        tmp_path: Path, keys: dict[str, Any]) -> None:
    """What the rules are given: the Chechen's file sees his own units opened; the Russian's
    sees them sealed, even when the checker's key opens everything."""
    seen: list[State] = []

    class Spy:
        sees_sealed = True

        def validate(self, data_: Any, state: State, faction: str, body: Any) -> list[Any]:
            seen.append(state)
            return []

        def warnings(self, *args: Any) -> list[Any]:
            return []

    state = position("chechen-movement", ALL_MILITIA)
    for faction, key in (("chechen", keys["chechen"]), ("russian", keys["russian"])):
        path = sign(write(tmp_path, faction, "chechen-movement", [], name=f"{faction}.yaml"), key)
        signing = orders.Signing(keys=dict(keys["pub"]), heads=[HEAD])
        phase = GAME.phase(data(), state)
        phase = type(phase)(phase.name, phase.turn, ("russian", "chechen"))
        orders.check_orders(path, campaign_id="cw", phase=phase, game=Spy(), data=data(),  # type: ignore[arg-type]
                            game_state=state, factions=["russian", "chechen"], signing=signing,
                            sees=referee)
    assert [seen[0]["tokens"][t]["unit"] for t in ("t01", "t04")] == ALL_MILITIA[0:4:3]
    assert all(isinstance(t["unit"], dict) for t in seen[1]["tokens"].values())


# --- the secret parts: a player's own words, of the phase's shape -------------------------


def combat_position() -> State:
    s = position("russian-combat", ALL_REGULAR)
    s["russians"] = {"ru_vityaz": {"hex": "1129", "reduced": False}}
    return s


def test_a_secret_part_holding_pbems_sealing_fields_is_refused(
        tmp_path: Path, keys: dict[str, Any]) -> None:
    """The self-sealed secret: one TOS-1 marker in public, six in a `sealed:` secret part the
    player wrote himself. Refused at its line; before, the rules took it as checked."""
    attack = [{"attack": {"target": EDGE, "units": ["ru_vityaz"], "supports": 1}}]
    secret = {"sealed": "-----BEGIN AGE ENCRYPTED FILE-----", "supports": {EDGE: ["tos1"] * 6}}
    path = sign(write(tmp_path, "russian", "russian-combat", attack, secret), keys["russian"])
    found = check(path, combat_position(), keys)
    assert found == ["FILE:19: 'sealed' is a field pbem writes when it seals a value, never one of "
                     "yours: write the value itself (pbem seals your secret part when it records "
                     "the file)",
                     "FILE:19: unknown key 'sealed' in the secret part (expected: supports); the "
                     'secret part is supports: {"CCRR": [KIND, ...]}, the kinds of the markers '
                     "committed to each combat (10.9)"]


def test_pbems_sealing_fields_are_refused_anywhere_in_a_players_file(
        tmp_path: Path, keys: dict[str, Any]) -> None:
    """A forged sealed node inside the orders or deep in the secret part: each at its line."""
    forged = {"kind": "orders-secret", "id": "t1", "owner": "russian", "turn": 1,
              "commitment": "00" * 32, "sealed": "x"}
    attack = [{"attack": {"target": EDGE, "units": ["ru_vityaz"], "supports": 1, "extra": forged}}]
    path = sign(write(tmp_path, "russian", "russian-combat", attack,
                      {"supports": {EDGE: [forged]}}), keys["russian"])
    found = check(path, combat_position(), keys)
    fields = [p.split(": ")[1] for p in found if "pbem writes" in p]
    assert fields == ["'commitment' is a field pbem writes when it seals a value, never one of yours",
                      "'sealed' is a field pbem writes when it seals a value, never one of yours"] * 2


def test_a_secret_part_in_a_phase_that_takes_none_is_refused(
        tmp_path: Path, keys: dict[str, Any]) -> None:
    path = sign(write(tmp_path, "russian", "russian-movement", [], {"supports": {}}), keys["russian"])
    assert check(path, position("russian-movement", ALL_REGULAR), keys) == [
        "FILE:8: phase russian-movement takes no secret part: leave 'secret:' out of these orders"]


@pytest.mark.parametrize(("phase", "secret", "expected"), [
    ("setup-chechen", {"regular": []},
     ["FILE:8: missing 'regulars'; the secret part of the Chechen set-up is regulars: "
      '["CCRR", ...], the hex of each regular token (4.2.2)',
      "FILE:9: unknown key 'regular' in the secret part; did you mean 'regulars'? (expected: "
      'regulars); the secret part of the Chechen set-up is regulars: ["CCRR", ...], the hex of '
      "each regular token (4.2.2)"]),
    ("russian-combat", {"supports": {EDGE: "tos1"}},
     ["FILE:10: expected a list, not the text 'tos1'; the secret part is supports: "
      '{"CCRR": [KIND, ...]}, the kinds of the markers committed to each combat (10.9)']),
    ("chechen-combat", {"supports": []},
     ["FILE:9: expected a mapping, not a list []; the secret part is supports: "
      '{"CCRR": {markers: N, leaders: [...]}}, or one such for each count the Russian may '
      "commit: {0: ..., 1: ..., 2: ...} (10.9)"]),
])
def test_each_secret_part_is_checked_against_its_phases_schema(
        tmp_path: Path, keys: dict[str, Any], phase: str, secret: Any, expected: list[str]) -> None:
    faction = "russian" if phase.startswith("russian") else "chechen"
    path = sign(write(tmp_path, faction, phase, [], secret), keys[faction])
    state = position(phase, ALL_REGULAR)
    if phase.endswith("-combat"):  # a Russian unit next to the Chechen's: both may attack
        state["russians"] = combat_position()["russians"]
    assert check(path, state, keys) == expected


# --- token ids say nothing of what they hide -----------------------------------------------


# 24 tokens: in Groznyi five with two regulars, in Gudermes five with all but one regular,
# Argun two with one; the rest militia
STACKS = {"1324": 5, "1321": 5, "1323": 4, "1523": 4, "1525": 4, "1327": 2}
NAMED = ["1324"] * 2 + ["1321"] * 4 + ["1327"] + ["1323"]
SEEDS = 300


def test_4_2_2_which_of_a_stacks_tokens_are_regulars_is_drawn_not_their_order() -> None:
    """Over many hidden keys, each token of a stack is a regular about as often as every other
    one: its id (the order placed) tells nothing. Before, the first placed were the regulars
    in every stack, every game."""
    s = GAME.setup(data(), {"end_of_turn": "asked"}, KeyedRng(b"\x06" * 32))  # asked: the End of Turn file (ahead: test_cw_ahead.py)
    s.update(phase="setup-chechen")
    body = {"orders": [{"place": {"hex": h, "tokens": n}} for h, n in STACKS.items()],
            "secret": {"regulars": NAMED}}
    assert GAME.validate(data(), s, "chechen", body) == []
    regular: Counter[str] = Counter()
    for seed in range(SEEDS):
        events = GAME.resolve(data(), s, {"chechen": body}, KeyedRng(b"\x00" * 32),
                              KeyedSecrets(seed.to_bytes(32, "big")))
        sealed_ = next(e for e in events if e["type"] == "identities_sealed")["tokens"]
        regular.update(t for t, n in sealed_.items() if n["value"] in REGULARS)
        assert sum(n["value"] in REGULARS for n in sealed_.values()) == len(NAMED)
    placed = next(e for e in events if e["type"] == "tokens_placed")["tokens"]
    for hex_id, n in STACKS.items():
        share = NAMED.count(hex_id) / n  # each of the stack's tokens is a regular this often
        mean, sd = SEEDS * share, (SEEDS * share * (1 - share)) ** 0.5
        for token in (t for t, h in placed.items() if h == hex_id):
            assert abs(regular[token] - mean) <= 4.5 * sd + 1e-9, (hex_id, token, regular[token], mean)
