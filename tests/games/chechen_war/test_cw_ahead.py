"""The End of Turn orders given ahead (games/chechen_war/rules/ahead.py, the campaign option
`end_of_turn`): each side's orders sealed in its files of the turn, the End of Turn Phase
asking nobody and opening them, the latest given counting, what is no longer possible
passed over, and the checks of a file that gives them. In-process, without git."""

from __future__ import annotations

import importlib
from typing import Any

import pytest
from fixed_rng import FixedRng, OpenSecrets

from pbem.game import Event, State
from tests.games.chechen_war.test_cw_endturn import GAME, QUIET, data, of, position

CEASEFIRE = [{"ceasefire": True}]


def ahead(phase: str = "russian-movement", **changes: Any) -> State:
    """Turn 2 of a campaign that gives the end of the turn ahead, in `phase`."""
    s = position(**changes)
    s["options"] = {**s["options"], "end_of_turn": "ahead"}
    s["phase"] = phase
    return s


def step(s: State, orders: dict[str, Any], dice: list[int] | None = None) -> tuple[list[Event], State]:
    rng = FixedRng(*(dice or []))
    events = GAME.resolve(data(), s, orders, rng, OpenSecrets())
    assert rng.values == [], f"dice left over: {rng.values}"
    for e in events:
        s = GAME.apply(data(), s, e)
    return events, s


def sent(s: State, side: str, phase: str, given: list[dict[str, Any]] | None) -> State:
    """A file of `side` in `phase` giving `given` ahead (None: no End of Turn orders), its
    step resolved and the phase set back to where the test wants it."""
    s = {**s, "phase": phase}
    body: dict[str, Any] = {"orders": []}
    if given is not None:
        body["secret"] = {"end_of_turn": given}
    assert [p.message for p in GAME.validate(data(), s, side, body)] == []
    events, after = step(s, {side: body})
    sealed = of(events, "end_of_turn_sealed")
    assert [(e["side"], e["orders"]["value"]) for e in sealed] == [(side, given)]
    return after


def end(s: State, dice: list[int]) -> tuple[list[Event], State]:
    s = {**s, "phase": "end-of-turn"}
    assert GAME.phase(data(), s).awaiting == ()
    return step(s, {}, dice)


def test_a_new_campaign_gives_the_end_of_the_turn_ahead_and_is_not_asked_for_it() -> None:
    from pbem.dice import KeyedRng

    assert GAME.setup(data(), {}, KeyedRng(b"\x01" * 32))["options"]["end_of_turn"] == "ahead"
    events, _ = end(ahead(), QUIET)
    why = ("his End of Turn orders came ahead, sealed in {} of the turn (campaign option "
           "end_of_turn: ahead)")
    assert of(events, "not_asked") == [
        {"type": "not_asked", "faction": "russian", "why": why.format("his movement, combat or supports file")},
        {"type": "not_asked", "faction": "chechen", "why": why.format("his movement file")}]
    assert of(events, "end_of_turn_opened") == [
        {"type": "end_of_turn_opened", "side": "russian", "orders": None},
        {"type": "end_of_turn_opened", "side": "chechen", "orders": None}]
    assert of(events, "ceasefire_declared") == [] and of(events, "kidnapping") == []


def test_a_campaign_that_asks_asks_both_sides() -> None:
    s = {**ahead("end-of-turn"), "options": {"setup": "variable", "end_of_turn": "asked"}}
    assert GAME.phase(data(), s).awaiting == ("russian", "chechen")
    assert GAME.phase(data(), {**s, "options": {"setup": "variable"}}).awaiting == ("russian", "chechen")


def test_15_1_a_ceasefire_sealed_in_the_movement_file_is_declared_at_the_end_of_the_turn() -> None:
    s = sent(ahead(), "russian", "russian-movement", CEASEFIRE)
    assert s["phase"] == "chechen-ambush"
    events, _ = step(ahead(), {"russian": {"orders": [], "secret": {"end_of_turn": CEASEFIRE}}})
    told = [GAME.summary(data(), e) for e in events]
    assert "the Russian's End of Turn orders for this turn, if any, sealed until the End of Turn " \
           "Phase" in told and not any("ceasefire" in t for t in told)
    events, after = end(s, QUIET)
    assert of(events, "end_of_turn_opened")[0]["orders"] == CEASEFIRE
    assert of(events, "ceasefire_declared") == [{"type": "ceasefire_declared", "turn": 3}]
    assert after["ahead"] == {} and (after["turn"], after["phase"]) == (3, "russian-movement")


def test_the_latest_file_that_gives_them_counts_and_one_that_gives_none_changes_nothing() -> None:
    s = sent(ahead(), "russian", "russian-movement", CEASEFIRE)
    s = sent(s, "russian", "russian-combat", None)
    events, _ = end(s, QUIET)
    assert of(events, "ceasefire_declared") == [{"type": "ceasefire_declared", "turn": 3}]
    s = sent(ahead(), "russian", "russian-movement", CEASEFIRE)
    s = sent(s, "russian", "russian-supports", [{"strike": ["ch_basayev"]}])
    events, _ = end(s, QUIET)
    assert of(events, "ceasefire_declared") == []  # the supports file's orders replace them
    assert of(events, "end_of_turn_opened")[0]["orders"] == [{"strike": ["ch_basayev"]}]


def test_6_3_a_kidnapping_sealed_in_the_chechen_movement_file() -> None:
    s = sent(ahead(), "chechen", "chechen-movement", [{"kidnap": True}])
    events, after = end(s, [3, 4, 2, 5, 1, 1])  # event, morale, the kidnapping's dice (the
    # Russian's 2, the Chechen's 5), the reinforcements
    assert of(events, "kidnapping")[0]["level"] == 9 - 2 and after["kidnapped"] is True
    assert GAME.summary(data(), of(events, "end_of_turn_opened")[1]) == (
        "the Chechen's End of Turn orders, given ahead: kidnap: True")


def test_13_1_a_pick_no_longer_possible_at_the_end_of_the_turn_is_passed_over() -> None:
    reduced = {"ru_76_airborne": {"hex": "0731", "reduced": True},
               "ru_131_mech_bde": {"hex": "0831", "reduced": True}}
    s = ahead(russians={"ru_76_airborne": "0731"})
    s["russians"] = reduced
    picks = [{"reinforce": [{"flip": "ru_131_mech_bde"}, "ru_vityaz", {"flip": "ru_76_airborne"}]},
             *CEASEFIRE]
    s = sent(s, "russian", "russian-movement", picks)
    s["russians"] = {"ru_76_airborne": reduced["ru_76_airborne"]}  # the 131st lost since
    s["ceasefire"] = {"declared": True, "turn": 1}                  # and a ceasefire had been
    events, after = end(s, [3, 4, 6, 1])  # the Russian's 6: three picks
    assert of(events, "end_of_turn_opened")[0]["orders"] == picks  # published as given
    assert of(events, "ceasefire_declared") == []
    recruited = of(events, "recruited")[0]
    assert recruited["units"][0] == "ru_vityaz" and recruited["flipped"][0] == "ru_76_airborne"
    assert after["russians"]["ru_76_airborne"]["reduced"] is False


@pytest.mark.parametrize(("side", "phase", "given", "expected"), [
    ("russian", "russian-movement", [{"kidnap": True}],
     [(("secret", "end_of_turn", 0, "kidnap"), "unknown order 'kidnap'; an order is one of {ceasefire: ...}, "
                                               "{reinforce: ...}, {strike: ...}")]),
    ("russian", "russian-combat", [{"strike": ["ch_nobody"]}],
     [(("secret", "end_of_turn", 0, "strike"), "strike: a list of Chechen leaders' ids")]),
    ("chechen", "chechen-movement", {"kidnap": True},
     [(("secret", "end_of_turn"), "expected a list of End of Turn orders")]),
    ("chechen", "chechen-movement", [{"kidnap": True}], []),
    ("russian", "russian-supports", [{"reinforce": ["ru_vityaz", "ru_nobody"]}],
     [(("secret", "end_of_turn", 0, "reinforce", 1), "'ru_nobody' is not in your reinforcement pool")]),
])
def test_a_file_s_end_of_turn_orders_are_checked_as_the_end_of_turn_file_is(
        side: str, phase: str, given: Any, expected: list[tuple[tuple[Any, ...], str]]) -> None:
    s = ahead(phase)
    found = GAME.validate(data(), s, side, {"orders": [], "secret": {"end_of_turn": given}})
    assert [(p.path, p.message.split(" (")[0]) for p in found] == expected


def test_a_kidnapping_done_is_refused_ahead_as_in_its_own_file() -> None:
    s = ahead("chechen-movement", kidnapped=True)
    found = GAME.validate(data(), s, "chechen", {"orders": [], "secret": {"end_of_turn": [{"kidnap": True}]}})
    assert [p.message for p in found] == ["the kidnapping is once a game, and it was done (6.3)"]


def test_a_campaign_that_asks_refuses_them_ahead_and_its_movement_file_takes_no_secret() -> None:
    s = {**ahead("russian-combat"), "options": {"setup": "variable", "end_of_turn": "asked"}}
    found = GAME.validate(data(), s, "russian", {"orders": [], "secret": {"end_of_turn": CEASEFIRE}})
    assert [(p.path, p.message) for p in found] == [(("secret", "end_of_turn"), (
        "this campaign asks for the end of the turn in its own file (option end_of_turn: asked): "
        "leave end_of_turn out here"))]
    assert GAME.phase(data(), {**s, "phase": "russian-movement"}).secret is None
    assert "end_of_turn" in GAME.phase(data(), ahead("russian-movement")).secret["properties"]
    events, _ = step({**s, "phase": "russian-movement"}, {"russian": {"orders": []}})
    assert of(events, "end_of_turn_sealed") == []


class Chooses(FixedRng):
    """The bot's End of Turn choice taken (the last item), every other choice the first."""

    def choice(self, label: str, items: Any) -> Any:
        return items[-1] if label.startswith("bot:end") else items[0]

    def roll(self, label: str, sides: int = 6) -> int:
        return 1


def test_the_bot_gives_its_choices_ahead_and_the_template_none() -> None:
    s = ahead("russian-movement")
    assert GAME.bot(data(), s, "russian", Chooses())["secret"] == {"end_of_turn": CEASEFIRE}
    assert "secret" not in GAME.bot(data(), s, "russian", FixedRng(*([1] * 40)))
    assert "secret" not in GAME.template(data(), s, "russian", Chooses())
    s = ahead("chechen-movement")
    assert GAME.bot(data(), s, "chechen", Chooses())["secret"]["end_of_turn"] == [{"kidnap": True}]
    assert "secret" not in GAME.template(data(), s, "chechen", Chooses())


def test_a_sealed_secret_part_is_not_read_and_nothing_is_sealed_without_the_secrets() -> None:
    """The public checks of a file whose secret part is a sealed node leave it to the referee;
    a step that would seal End of Turn orders, or open them, needs the referee's secrets."""
    node = {"kind": "orders-secret", "id": "x", "owner": "russian", "turn": 2, "commitment": "c",
            "sealed": "s", "end_of_turn": "anything"}
    assert GAME.validate(data(), ahead(), "russian", {"orders": [], "secret": node}) == []
    with pytest.raises(ValueError, match="^the End of Turn orders given ahead are sealed: they need the secrets$"):
        GAME.resolve(data(), ahead(), {"russian": {"orders": []}}, FixedRng(), None)
    s = sent(ahead(), "russian", "russian-movement", CEASEFIRE)
    with pytest.raises(ValueError, match="^the End of Turn orders given ahead are sealed: they need the secrets$"):
        GAME.resolve(data(), {**s, "phase": "end-of-turn"}, {}, FixedRng(*QUIET), None)


def test_each_file_seals_under_its_own_name() -> None:
    events, _ = step(ahead("russian-combat"), {"russian": {"orders": [], "secret": {"end_of_turn": CEASEFIRE}}})
    node = of(events, "end_of_turn_sealed")[0]["orders"]
    assert (node["kind"], node["id"], node["owner"], node["turn"]) == ("end_of_turn", "t2:russian-combat",
                                                                      "russian", 2)


def test_a_files_other_secrets_are_kept_with_its_end_of_turn_orders() -> None:
    ahead_ = importlib.import_module("pbem_game_chechen_war.ahead")
    supports = {"supports": {"1324": {"markers": 1}}}
    given = ahead_.bot(data(), ahead("chechen-movement"), "chechen", Chooses(), {"orders": [], "secret": supports})
    assert given["secret"] == {**supports, "end_of_turn": [{"kidnap": True}]}
    assert ahead_.without(given) == {"orders": [], "secret": supports}
    assert ahead_.without({"orders": [], "secret": {"end_of_turn": CEASEFIRE}}) == {"orders": []}
    assert ahead_.without({"orders": []}) == {"orders": []}
    assert ahead_.bot(data(), {**ahead(), "options": {"end_of_turn": "asked"}}, "russian", Chooses(),
                      {"orders": []}) == {"orders": []}


def test_the_opened_orders_are_told_as_given() -> None:
    def told(side: str, orders: Any) -> str:
        return GAME.summary(data(), {"type": "end_of_turn_opened", "side": side, "orders": orders})

    assert told("russian", None) == "the Russian gave no End of Turn orders ahead"
    assert told("russian", [{"reinforce": ["ru_vityaz", {"flip": "ru_131_mech_bde"}]}, {"ceasefire": True}]) == (
        "the Russian's End of Turn orders, given ahead: reinforce: ru_vityaz, flip ru_131_mech_bde; "
        "ceasefire: True")
    assert GAME.summary(data(), {"type": "end_of_turn_sealed", "side": "chechen", "orders": {}}) == (
        "the Chechen's End of Turn orders for this turn, if any, sealed until the End of Turn Phase")
