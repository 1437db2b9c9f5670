"""The Chechen's movement file carries his attacks (a ruling: no mail round trip between
his Movement and Combat Segments, where nothing happens that he does not decide): each
attack is checked from where his moves leave his units, declared with his answers sealed,
and the Russian is asked for his supports next; none on the ceasefire turn (15.2); the
template he is mailed attacks nothing."""

from __future__ import annotations

from typing import Any

from fixed_rng import FixedRng, OpenSecrets

from pbem.dice import KeyedRng
from pbem.game import State
from tests.games.chechen_war.test_cw_combat import GAME, B, data, fold, position

# 0726 and 0727 are neighbours; 0728 is next to 0727 but not to 0726
assert B.grid.adjacent("0726", "0727") and B.grid.adjacent("0727", "0728")
assert not B.grid.adjacent("0726", "0728")


def turn(**changes: Any) -> State:
    return position({"ru_76_airborne": "0726"}, {"0728": ["ch_argun_bn"]},
                    phase="chechen-movement", **changes)


def move(*path: str) -> dict[str, Any]:
    return {"move": {"units": ["t01"], "path": list(path)}}


ATTACK = {"attack": {"target": "0726", "units": ["t01"], "advance": []}}


def problems(s: State, *items: dict[str, Any], secret: dict[str, Any] | None = None) -> list[str]:
    body: dict[str, Any] = {"orders": list(items), **({"secret": secret} if secret else {})}
    return [p.message for p in GAME.validate(data(), s, "chechen", body)]


def test_an_attack_is_checked_from_where_the_moves_leave_the_units() -> None:
    s = turn()
    assert problems(s, move("0728", "0727"), ATTACK) == []
    # without the move t01 stands two hexes away
    assert problems(s, ATTACK) == ["t01 in 0728 is not next to 0726 (10.1)"]
    # a move after the attack in the file still counts: the moves are made first
    assert problems(s, ATTACK, move("0728", "0727")) == []


def test_the_file_resolves_the_moves_then_declares_the_attacks_and_asks_the_russian() -> None:
    s = turn()
    secret = {"supports": {"0726": {"markers": 1}}}
    assert problems(s, move("0728", "0727"), ATTACK, secret=secret) == []
    body = {"orders": [move("0728", "0727"), ATTACK], "secret": secret}
    events = GAME.resolve(data(), s, {"chechen": body}, FixedRng(), OpenSecrets())
    assert [e["type"] for e in events] == ["moved", "attacks_declared", "phase"]
    assert events[-1] == {"type": "phase", "phase": "russian-supports", "turn": 1}
    after = fold(s, events)
    assert after["tokens"]["t01"]["hex"] == "0727"
    assert [(a["target"], a["units"]) for a in after["attacks"]] == [("0726", ["t01"])]
    assert GAME.phase(data(), after).awaiting == ("russian",)


def test_no_attack_no_russian_file() -> None:
    s = turn()
    events = GAME.resolve(data(), s, {"chechen": {"orders": [move("0728", "0727")]}}, FixedRng(),
                          OpenSecrets())
    assert events[-1] == {"type": "phase", "phase": "end-of-turn", "turn": 1}


def test_no_attack_on_the_ceasefire_turn() -> None:
    s = turn(ceasefire={"declared": True, "turn": 1})
    assert problems(s, ATTACK) == ["no attacks on the ceasefire turn (15.2)"]
    events = GAME.resolve(data(), s, {"chechen": {"orders": []}}, FixedRng(), OpenSecrets())
    assert events[-1] == {"type": "phase", "phase": "end-of-turn", "turn": 1}


def test_the_template_attacks_nothing_and_the_bot_may() -> None:
    s = position({"ru_76_airborne": "0726"}, {"0727": ["ch_argun_bn"]}, phase="chechen-movement")
    for k in range(8):
        template = GAME.template(data(), s, "chechen", KeyedRng(bytes([k]) * 32))
        assert not [o for o in template["orders"] if "attack" in o] and "secret" not in template
    bots = [GAME.bot(data(), s, "chechen", KeyedRng(bytes([k]) * 32)) for k in range(8)]
    assert any(o for b in bots for o in b["orders"] if "attack" in o)


def test_a_russian_movement_file_takes_no_attack() -> None:
    s = position({"ru_76_airborne": "0726"}, {"0727": ["ch_argun_bn"]}, phase="russian-movement")
    found = [p.message for p in GAME.validate(data(), s, "russian", {"orders": [
        {"attack": {"target": "0727", "units": ["ru_76_airborne"]}}]})]
    assert found and found[0].startswith("an order is {move:")
