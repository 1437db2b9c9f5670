"""The Russian's standing instructions offered in the templates of his movement, combat and
supports files (games/chechen_war/rules/standing.py, pbem.game.standing_offer): each one the
rules take, in ORDERS.md's order, with its value in force; none for the Chechen, none in the
other segments. In-process, without git."""

from __future__ import annotations

import importlib
import re
from pathlib import Path
from typing import Any

import pytest

from pbem.dice import KeyedRng
from pbem.game import GameData, State, get_game, load_data, standing_lines, standing_offer

GAME = get_game("chechen_war")
standing_rules = importlib.import_module("pbem_game_chechen_war.standing")
ORDERS_MD = Path(__file__).resolve().parents[3] / "games" / "chechen_war" / "ORDERS.md"
KEYS = ["retreat_first", "step_losses", "retreat_to"]


def data() -> GameData:
    return load_data("chechen_war")


def position(phase: str = "russian-movement") -> State:
    state = GAME.setup(data(), {}, KeyedRng(b"\x07" * 32))
    state.update(turn=2, phase=phase)
    return state


def keys(state: State, side: str) -> list[str]:
    return [item["key"] for item in standing_offer(GAME, data(), state, side)]


def test_every_instruction_the_rules_take_is_offered_in_orders_md_order() -> None:
    assert list(standing_rules.OFFER) == list(standing_rules.CHECKS)
    text = ORDERS_MD.read_text(encoding="utf-8")
    paragraph = text[text.index("The Russian's standing instructions"):]
    paragraph = paragraph[:paragraph.index("\n\n")]
    assert list(dict.fromkeys(re.findall(r"`(\w+)`", paragraph))) == KEYS
    assert "templates pbem mails" in paragraph
    assert keys(position(), "russian") == KEYS


def test_only_the_russian_files_that_record_them_offer_them() -> None:
    for phase in ("russian-movement", "russian-combat", "russian-supports"):
        assert keys(position(phase), "russian") == KEYS, phase
    for phase in ("setup-russian", "setup-chechen", "chechen-ambush", "chechen-supports",
                  "chechen-movement", "chechen-combat", "end-of-turn", "over"):
        assert standing_offer(GAME, data(), position(phase), "russian") == [], phase


def test_the_chechen_has_none() -> None:
    for phase in ("russian-movement", "chechen-ambush", "chechen-movement", "end-of-turn"):
        assert standing_offer(GAME, data(), position(phase), "chechen") == [], phase


def test_each_phase_that_offers_them_checks_them() -> None:
    """What is offered is what the file takes: a key outside the offer is refused there."""
    for phase in ("russian-movement", "russian-combat", "russian-supports"):
        state = position(phase)
        wrong = GAME.validate(data(), state, "russian", {"orders": [], "standing": {"losses": []}})
        assert [(p.path, p.message) for p in wrong] == [
            (("standing", "losses"), "unknown standing instruction 'losses'; did you mean "
                                     "'step_losses'? (known: retreat_first, step_losses, retreat_to)")], phase
        right = GAME.validate(data(), state, "russian",
                              {"orders": [], "standing": {"retreat_to": ["1227"]}})
        assert right == [], phase


def test_the_value_in_force_and_the_default() -> None:
    state = position("russian-combat")
    state["standing"]["russian"] = {"step_losses": ["ru_mvd_regt_1", "ru_131_mech_bde"],
                                    "retreat_to": ["1227", "1327"]}
    offer = {i["key"]: i for i in standing_offer(GAME, data(), state, "russian")}
    assert offer["step_losses"]["value"] == ["ru_mvd_regt_1", "ru_131_mech_bde"]
    assert offer["retreat_to"]["value"] == ["1227", "1327"]
    assert offer["retreat_first"]["value"] is None
    lines = standing_lines(list(offer.values()))
    assert lines[:3] == [
        "Standing instructions: each answers a question in advance and is kept until you",
        "change it. Set them under 'standing:' (standing: {KEY: VALUE}); KEY: null drops one.",
        "In force now:"]
    assert lines[3:] == [
        "  retreat_first not set (the weakest retreat first)  [[your unit ids, in order]; 14.3]",
        "      which of your units retreat when an ambush makes some retreat",
        "  step_losses: [ru_mvd_regt_1, ru_131_mech_bde]  [[your unit ids, in order]; 14.3, 10.11]",
        "      which of your units lose steps first, in ambushes and in combat",
        '  retreat_to: [1227, 1327]  [["CCRR" hexes, in order]; 14.3]',
        "      where your ambushed units retreat: the first of these next to them with room",
    ]


def test_a_value_recorded_by_a_file_is_the_one_offered_next() -> None:
    """The movement file's standing is recorded (rules/standing.py `record`) and offered
    in force in the next Russian file."""
    state = position("russian-movement")
    state["standing"]["russian"] = {"retreat_first": ["ru_33_mr_regt"]}
    events = standing_rules.record(state, {"standing": {"retreat_to": ["1227"]}})
    for e in events:
        state = GAME.apply(data(), state, e)
    state["phase"] = "russian-supports"
    offer = {i["key"]: i["value"] for i in standing_offer(GAME, data(), state, "russian")}
    assert offer == {"retreat_first": ["ru_33_mr_regt"], "step_losses": None,
                     "retreat_to": ["1227"]}


@pytest.mark.parametrize(("given", "found"), [
    ({"retreat_to": ["1227", "9999"]}, [(("standing", "retreat_to", 1), "hex id '9999' is off the map")]),
    ({"retreat_to": "1227"}, [(("standing", "retreat_to"), 'expected a list of hexes, "CCRR", in order')]),
    ({"step_losses": ["ch_argun_bn"]}, [(("standing", "step_losses"), "expected a list of your units' ids, in order")]),
    ({"retreat_first": ["ru_76_airborne"], "step_losses": None}, []),  # null drops one
    ({"step_loses": []}, [(("standing", "step_loses"), "did you mean 'step_losses'?")]),
    (["retreat_to"], [(("standing",), "standing instructions are a mapping of retreat_first, step_losses, "
                                      "retreat_to")]),
])
def test_each_instruction_is_checked_at_its_place(given: Any, found: list[tuple[tuple[Any, ...], str]]) -> None:
    problems = GAME.validate(data(), position(), "russian", {"orders": [], "standing": given})
    assert len(problems) == len(found), problems
    for problem, (path, words) in zip(problems, found, strict=True):
        assert problem.path == path and words in problem.message, problem


def test_null_drops_an_instruction_given_before() -> None:
    state = position("russian-movement")
    state["standing"]["russian"] = {"retreat_first": ["ru_33_mr_regt"], "retreat_to": ["1227"]}
    body = {"orders": [], "standing": {"retreat_to": None}}
    assert GAME.validate(data(), state, "russian", body) == []
    events = standing_rules.record(state, body)
    assert events == [{"type": "standing", "side": "russian", "standing": {"retreat_first": ["ru_33_mr_regt"]}}]
    assert GAME.summary(data(), events[0]) == "the Russian's standing instructions: retreat_first: ru_33_mr_regt"
