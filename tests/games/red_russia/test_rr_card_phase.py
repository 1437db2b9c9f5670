"""The card phase (4.1, 14.1-14.5, 14.8): the deal, hand limits with the ORI bonus,
discards, draws and the winter reshuffle, with every hand sealed to its player.

Rule tables run the rules with `Open`, a stand-in for the referee's secrets that keeps
values beside their (unencrypted) nodes; the campaign tests at the end use the real
referee, real keys and the real audit.
"""

from __future__ import annotations

import importlib
from pathlib import Path
from typing import Any

import pytest
from position import GAME, OpenSecrets, data, messages, orders, position

from pbem import api
from pbem.crypto import sealed

cards = importlib.import_module("pbem_game_red_russia.cards")


Open = OpenSecrets


def dealt(options: dict[str, Any] | None = None, seating: list[list[str]] | None = None,
          ori: dict[str, int] | None = None) -> tuple[dict[str, Any], list[dict[str, Any]]]:
    """The position at the end of set-up with the cards dealt (4.1)."""
    state = position({}, turn=0, options={**(options or {}), "seating": seating})
    state.update(phase="setup-reduce-red", initiative=[])
    state["ori"].update(ori or {})
    events = cards.deal(data(), state, Open())
    return fold(state, events), events


def fold(state: dict[str, Any], events: list[dict[str, Any]]) -> dict[str, Any]:
    for e in events:
        state = GAME.apply(data(), state, e)
    return state


def hand(state: dict[str, Any], who: str) -> list[str]:
    return [n["value"] for n in state["cards"]["hands"].get(who, [])]


def give(state: dict[str, Any], who: str, ids: list[str]) -> dict[str, Any]:
    """Replace a hand by these cards (taken out of the pile's order)."""
    s = Open()
    state["cards"]["hands"][who] = [s.seal("card", f"x{i}", who, 1, c) for i, c in enumerate(ids)]
    return state


def card_phase(state: dict[str, Any], bodies: dict[str, Any], winter: bool = False,
               ) -> tuple[dict[str, Any], list[dict[str, Any]]]:
    state.update(turn=3 if winter else 2, phase="purchase")
    events = cards.card_phase(data(), state, bodies, Open(), winter)
    return fold(state, events), events


# ---------------------------------------------------------------------------------------
# 14.3 hand limits


@pytest.mark.parametrize(("seating", "ori", "faction", "limit"), [
    (None, {}, "red", 6),                                   # 14.3 Red 6
    (None, {}, "siberian", 5),
    (None, {}, "south", 5),
    (None, {}, "north", 4),
    (None, {"red": 2}, "red", 8),                           # 14.3 example: 6 + ORI 2
    ([["red"], ["siberian"], ["south", "north"]], {}, "south", 6),   # 3 players
    ([["red"], ["siberian", "south", "north"]], {}, "siberian", 7),  # 2 players
    # 14.3 example: ORI 1, 2 and 0 average 1, so the White player holds 7 + 1
    ([["red"], ["siberian", "south", "north"]], {"siberian": 1, "south": 2, "north": 0}, "north", 8),
    ([["red"], ["siberian", "south", "north"]], {"siberian": 1, "south": 1, "north": 0}, "south", 7),
])
def test_14_3_hand_limit(seating: Any, ori: dict[str, int], faction: str, limit: int) -> None:
    state = position({}, options={"seating": seating})
    state["ori"].update(ori)
    assert cards.hand_limit(data(), state, faction) == limit


# ---------------------------------------------------------------------------------------
# 4.1 the deal


def test_4_1_the_deal_gives_each_player_a_hand_of_the_14_3_size() -> None:
    state, events = dealt()
    assert {h: len(hand(state, h)) for h in ("red", "siberian", "south", "north")} == \
        {"red": 6, "siberian": 5, "south": 5, "north": 4}
    every = [c for h in state["cards"]["hands"].values() for c in (n["value"] for n in h)]
    assert len(set(every)) == 20  # 20 different cards off one shuffled pile
    assert state["cards"]["size"] - state["cards"]["drawn"] == 53 - 20
    assert [e["holder"] for e in events if e["type"] == "cards_drawn"] == ["north", "siberian", "south", "red"]


def test_3_0_czech_legion_formed_leaves_the_deck_without_the_czech_legion_rule() -> None:
    state, events = dealt()
    assert events[0] == {"type": "cards_removed", "cards": [cards.CZECH_FORMED],
                         "why": "the Czech Legion rule is not used (3.0)"}
    assert state["cards"]["removed"] == [cards.CZECH_FORMED] and state["cards"]["size"] == 53
    with_rule, events = dealt({"czech_legion": True})
    assert with_rule["cards"]["removed"] == [] and with_rule["cards"]["size"] == 54


def test_14_3_a_player_of_several_factions_holds_one_hand() -> None:
    state, _ = dealt(seating=[["red"], ["siberian", "south", "north"]])
    assert set(state["cards"]["hands"]) == {"red", "siberian"}
    assert len(hand(state, "siberian")) == 7


def test_4_1_the_deal_is_a_shuffle_of_the_hidden_secret() -> None:
    a, _ = dealt()
    state = position({}, turn=0)
    state.update(initiative=[])

    class Other(Open):
        def _hidden_key(self) -> bytes | None:
            return b"\x08" * 32

    b = fold(state, cards.deal(data(), state, Other()))
    assert hand(a, "red") != hand(b, "red")


# ---------------------------------------------------------------------------------------
# 4.1, 14.4, 14.5 discards and draws


def test_4_1_worked_example_north_with_ori_1_discards_three_of_four() -> None:
    """4.1's example: North/Asia, ORI 1, holds 4 and discards 3, keeping 1. The text of
    4.1 and 14.3 (limit 4 + ORI 1 = 5) lets it draw 4; the example's own arithmetic,
    4 - (1 + 1) = 2, subtracts the ORI instead, contradicting both rules and 14.3's own
    examples. pbem follows the rules (games/red_russia/README.md lists this choice)."""
    state, _ = dealt()
    state["ori"]["north"] = 1  # "during the game"
    north = hand(state, "north")
    assert len(north) == 4
    after, events = card_phase(state, {"north": orders({"discard": north[:3]})})
    discard = next(e for e in events if e["type"] == "cards_discarded" and e["holder"] == "north")
    assert discard["cards"] == north[:3]
    drawn = next(e for e in events if e["type"] == "cards_drawn" and e["holder"] == "north")
    assert len(drawn["cards"]) == 4 and len(hand(after, "north")) == 5
    assert hand(after, "north")[0] == north[3]
    assert after["cards"]["discard"] == north[:3]  # 14.8: face up until the winter shuffle


def test_14_5_a_full_hand_draws_nothing() -> None:
    state, _ = dealt()
    after, events = card_phase(state, {})
    assert not [e for e in events if e["type"] in ("cards_drawn", "cards_discarded")]


def test_14_3_a_higher_ori_draws_more() -> None:
    state, _ = dealt()
    state["ori"]["red"] = 2
    after, _events = card_phase(state, {})
    assert len(hand(after, "red")) == 8


def test_14_4_a_card_not_held_is_named_in_the_event() -> None:
    state, _ = dealt()
    gone = hand(state, "south")[0]
    other = next(c for c in cards.deck(data()) if c not in hand(state, "south")
                 and not cards.deck(data())[c]["immediate"])
    _after, events = card_phase(state, {"south": orders({"discard": [gone, other]})})
    discard = next(e for e in events if e["type"] == "cards_discarded")
    assert discard["cards"] == [gone] and discard["not_held"] == [other]


def test_14_73_14_74_discard_dead_weight_by_standing_instruction() -> None:
    state, _ = dealt()
    give(state, "red", ["kolchak-coup", "tank", "latvian-riflemen"])  # Kolchak coup: Siberians only
    state["standing"]["red"] = {"discard_dead": True}
    after, events = card_phase(state, {})
    discard = next(e for e in events if e["type"] == "cards_discarded")
    assert discard["cards"] == ["kolchak-coup"]
    assert "kolchak-coup" not in hand(after, "red") and len(hand(after, "red")) == 6


def test_14_74_a_card_of_past_years_is_dead_weight() -> None:
    state = position({}, turn=5)  # Summer 1919
    assert cards.dead_weight(data(), state, "siberian", "czech-legion-formed")  # 1918 only
    assert not cards.dead_weight(data(), state, "siberian", "czech-legion-quits")  # 1919-1920
    assert cards.dead_weight(data(), state, "red", "left-sr-uprising")  # 14.71, but 1918 only
    assert not cards.dead_weight(data(), position({}, turn=2), "red", "left-sr-uprising")


@pytest.mark.parametrize(("faction", "body", "message"), [
    ("south", {"discard": ["no-such-card"]}, "no card 'no-such-card'"),
    ("south", {"discard": ["tank", "tank"]}, "card tank is named twice"),
    ("red", {"discard": ["left-sr-uprising"]}, "left-sr-uprising must be played, not discarded (14.71)"),
])
def test_14_4_discard_orders_are_checked(faction: str, body: dict[str, Any], message: str) -> None:
    state, _ = dealt()
    state.update(turn=2, phase="purchase")
    assert any(message in m for m in messages(state, faction, orders(body)))


def test_14_3_only_the_holder_names_the_discards_of_a_shared_hand() -> None:
    state, _ = dealt(seating=[["red"], ["siberian", "south", "north"]])
    state.update(turn=2, phase="purchase")
    found = messages(state, "south", orders({"discard": ["tank"]}))
    assert any("held under siberian" in m for m in found)


# ---------------------------------------------------------------------------------------
# 14.8 the winter reshuffle


def test_14_8_winter_shuffles_every_card_not_in_a_hand_or_removed() -> None:
    state, _ = dealt()
    south = hand(state, "south")
    after, events = card_phase(state, {"south": orders({"discard": south[:2]})}, winter=True)
    shuffled = next(e for e in events if e["type"] == "cards_shuffled")
    assert shuffled["size"] == 53 - 18  # 53 in the game, 18 still in hands after the discards
    assert after["cards"]["discard"] == []
    pile = shuffled["pile"]["value"]
    assert set(south[:2]) <= set(pile)
    held = {c for h in after["cards"]["hands"] for c in hand(after, h)}
    assert not set(pile[after["cards"]["drawn"]:]) & held
    assert cards.CZECH_FORMED not in pile


def test_14_5_an_empty_pile_is_made_again_from_the_discards() -> None:
    state, _ = dealt()
    state["cards"]["drawn"] = state["cards"]["size"] - 1  # one card left
    state["cards"]["discard"] = ["tank", "latvian-riflemen"]
    south = hand(state, "south")
    after, events = card_phase(state, {"south": orders({"discard": south[:3]})})
    kinds = [e["type"] for e in events]
    assert kinds.count("cards_shuffled") == 1
    drawn = [e for e in events if e["type"] == "cards_drawn"]
    assert [len(e["cards"]) for e in drawn] == [1, 2]
    assert len(hand(after, "south")) == 5


# ---------------------------------------------------------------------------------------
# the whole campaign: sealed hands, views, reports, audit


@pytest.fixture
def keyed(tmp_path: Path) -> tuple[Path, Path]:
    keys = tmp_path / "keys"
    root = tmp_path / "camp"
    api.new_campaign(root, "red_russia", contributions=False, hot_seat=True, seed="cards", name="camp", keys_dir=keys)
    from conftest import play

    play(root, until_turn=2, phase="action", seed="cards")
    return root, keys


def test_hands_are_sealed_and_no_other_reader_sees_them(keyed: tuple[Path, Path]) -> None:
    from pbem.reports.context import build_context
    from pbem.reports.render import render

    root, keys = keyed
    mine = [s for s in api.reveal(root, keys / "south.key") if s["kind"] == "card"]
    shown = build_context(root, "south", identities=_identity(keys / "south.key"))["hand"]
    held = [c["id"] for c in shown]
    assert held and set(held) <= {s["value"] for s in mine}
    texts = {
        "public": render(root, "public", "md"),
        "red": render(root, "red", "text", identities=_identity(keys / "red.key")),
        "north": render(root, "north", "html", identities=_identity(keys / "north.key")),
    }
    for who, text in texts.items():
        for card in held:
            assert card not in text.split("discarded:")[0], f"{card} shows in {who}'s report"
    committed = "".join(p.read_text() for p in (root / "log").glob("*.yaml")) + \
        (root / "state.yaml").read_text()
    for card in held:
        assert f": {card}\n" not in committed and f"'{card}'" not in committed
    view = GAME.view(data(), api.status(root) and _state(root), "red")
    assert view["cards"]["hands"]["south"] == len(held) and "pile" in view["cards"]


def test_audit_final_recomputes_every_card_and_catches_a_stacked_deck(
        keyed: tuple[Path, Path], monkeypatch: pytest.MonkeyPatch) -> None:
    root, _keys = keyed
    assert api.audit(root)["ok"]
    api.unseal(root, force=True)
    report = api.audit(root, final=True)
    assert report["ok"], report["problems"]
    assert report["checked"]["sealed_recomputed"] >= 21  # the pile and 20 cards dealt
    assert not report["unopened"]


def test_audit_final_catches_a_referee_who_stacks_the_deck(tmp_path: Path,
                                                         monkeypatch: pytest.MonkeyPatch) -> None:
    from conftest import play

    root = tmp_path / "camp"
    api.new_campaign(root, "red_russia", contributions=False, hot_seat=True, seed="stacked", name="camp")
    honest = sealed.RefereeSecrets.shuffle

    def stacked(self: Any, label: str, items: Any) -> Any:
        order = honest(self, label, items)
        return sorted(order) if isinstance(order, list) else order  # the referee's choice

    monkeypatch.setattr(sealed.RefereeSecrets, "shuffle", stacked)
    play(root, until_turn=1, phase="purchase", seed="stacked")
    monkeypatch.undo()
    assert api.audit(root)["ok"]  # nobody can tell before the end
    api.unseal(root, force=True)
    report = api.audit(root, final=True)
    assert not report["ok"]
    assert any("holds something other than what the rules give" in p for p in report["problems"])


def _identity(path: Path) -> list[str]:
    from pbem.crypto.keys import load_identity_file

    return load_identity_file(path)


def _state(root: Path) -> dict[str, Any]:
    from pbem.campaign import Campaign

    return dict(Campaign.open(root).state()["game"])

