"""The standing instructions offered in the template of a power's turn
(games/aa1914/rules/standing.py, pbem.game.standing_offer): each one the rules take, in
ORDERS.md's order, with its value in force; the armistice's only to Germany and the
evacuation only to the powers of a side, each with its revolution option and until its
revolution; none once the game is over. In-process, without git."""

from __future__ import annotations

import importlib
import re
from pathlib import Path

import pytest

from pbem.dice import KeyedRng
from pbem.game import GameData, State, get_game, load_data, standing_lines, standing_offer

GAME = get_game("aa1914")
standing_rules = importlib.import_module("pbem_game_aa1914.standing")
ORDERS_MD = Path(__file__).resolve().parents[3] / "games" / "aa1914" / "ORDERS.md"
EVERY = ["losses", "sea_losses", "sea_withdraw", "submerge"]
POWERS = ["austria_hungary", "russia", "germany", "france", "britain", "ottomans", "italy", "usa"]


def data() -> GameData:
    return load_data("aa1914")


def position(option: str = "none", power: str = "germany") -> State:
    """Round 2, `power`'s turn, the campaign playing `revolution: option`."""
    state = GAME.setup(data(), {"revolution": option}, KeyedRng(b"\x03" * 32))
    state.update(turn=2, power=power)
    return state


def keys(state: State, power: str) -> list[str]:
    return [item["key"] for item in standing_offer(GAME, data(), state, power)]


def test_every_instruction_the_rules_take_is_offered_in_orders_md_order() -> None:
    assert list(standing_rules.OFFER) == list(standing_rules.STANDING)
    text = ORDERS_MD.read_text(encoding="utf-8")
    section = text[text.index("## Standing instructions"):]
    assert re.findall(r"^\| `(\w+)` \|", section, re.M) == list(standing_rules.OFFER)
    assert "The template pbem mails for a power's turn lists" in section
    assert keys(position("armistice"), "germany") == [*EVERY, "armistice"]
    assert keys(position("civil_war"), "germany") == [*EVERY, "evacuation"]


@pytest.mark.parametrize("power", POWERS)
def test_without_a_revolution_every_power_has_the_battle_instructions(power: str) -> None:
    assert keys(position(), power) == EVERY


@pytest.mark.parametrize("power", POWERS)
def test_the_armistice_is_germanys_alone(power: str) -> None:
    expected = [*EVERY, "armistice"] if power == "germany" else EVERY
    assert keys(position("armistice"), power) == expected


def test_the_armistice_only_until_it_is_offered() -> None:
    for status in ("armistice", "rejected"):
        state = position("armistice")
        state["revolution"].update(status=status, round=5)
        assert keys(state, "germany") == EVERY, status


@pytest.mark.parametrize("power", POWERS)
def test_the_evacuation_goes_to_every_power_with_the_civil_war(power: str) -> None:
    assert keys(position("civil_war"), power) == [*EVERY, "evacuation"]


def test_each_side_is_offered_the_places_its_units_leave() -> None:
    state = position("civil_war")

    def values(power: str) -> str:
        item = next(i for i in standing_offer(GAME, data(), state, power) if i["key"] == "evacuation")
        return str(item["values"])

    assert values("france") == "{moscow | karelia | kazakhstan: a land territory next to it}"
    assert values("ottomans") == ("{moscow | karelia | tatarstan | kazakhstan: a land territory "
                                  "next to it}")


def test_no_evacuation_once_the_revolution_took_place() -> None:
    state = position("civil_war")
    state["revolution"].update(status="civil_war", round=5)
    assert keys(state, "germany") == EVERY
    assert keys(state, "soviets") == EVERY


def test_the_offer_matches_what_the_turn_accepts() -> None:
    """An instruction offered is taken in that power's turn; the armistice not offered to
    France is refused in France's turn, and the evacuation without the civil war."""
    state = position("armistice", power="germany")
    assert GAME.validate(data(), state, "germany", {"orders": [], "standing": {
        "armistice": "reject", "submerge": True}}) == []
    state = position("armistice", power="france")
    assert [p.path for p in GAME.validate(data(), state, "france", {"orders": [], "standing": {
        "armistice": "accept"}})] == [("standing", "armistice")]
    state = position("civil_war", power="france")
    assert GAME.validate(data(), state, "france", {"orders": [], "standing": {
        "evacuation": {"moscow": "belarus"}}}) == []
    state = position("armistice", power="france")
    assert [p.path for p in GAME.validate(data(), state, "france", {"orders": [], "standing": {
        "evacuation": {"moscow": "belarus"}}})] == [("standing", "evacuation")]


def test_none_once_the_game_is_over() -> None:
    state = position("civil_war")
    state["phase"] = "over"
    assert standing_offer(GAME, data(), state, "germany") == []


def test_the_value_in_force_and_the_default() -> None:
    state = position("armistice")
    state["standing"]["germany"] = {"losses": ["artillery", "infantry"],
                                    "sea_withdraw": {"after_round": 2, "when_outnumbered": True},
                                    "armistice": "reject"}
    offer = {i["key"]: i for i in standing_offer(GAME, data(), state, "germany")}
    assert offer["losses"]["value"] == ["artillery", "infantry"]
    assert offer["submerge"]["value"] is None
    lines = standing_lines(list(offer.values()))
    assert lines[3:] == [
        "  losses: [artillery, infantry]  [[infantry, artillery, tank, fighter], in any order; "
        "SOURCES.md 3.1, 3.3]",
        "      which of your land units and fighters are lost first in a land battle",
        # a line past 148 characters goes on, indented, on the next (a mail window's width)
        "  sea_losses not set (battleship (a sound one damaged), submarine, cruiser, "
        "damaged_battleship, transport)  [[battleship, submarine, cruiser,",
        "      damaged_battleship, transport], in any order; SOURCES.md 6.5, 6.6]",
        "      which of your ships take hits first in a sea battle",
        "  sea_withdraw: {after_round: 2, when_outnumbered: true}  [never | {after_round: N, "
        "when_outnumbered: true} (either or both); SOURCES.md 6.1]",
        "      when your attacking ships break off a sea battle, to the zone they came from",
        "  submerge not set (false: they fight to the end)  [true | false; SOURCES.md 6.4]",
        "      your defending submarines leave a battle once they are your side's last warships "
        "there",
        "  armistice: reject  [accept | reject; armistice house rule, the offer]",
        "      your answer for the Central Powers when the armistice is offered "
        "(revolution: armistice)",
    ]


def test_an_evacuation_in_force() -> None:
    state = position("civil_war")
    state["standing"]["austria_hungary"] = {"evacuation": {"moscow": "belarus"}}
    lines = standing_lines(standing_offer(GAME, data(), state, "austria_hungary"))
    assert lines[-2:] == [
        "  evacuation: {moscow: belarus}  [{moscow | karelia | tatarstan | kazakhstan: a land "
        "territory next to it}; civil war, steps 1 and 2]",
        "      where your units there go at the revolution (revolution: civil_war)"]
    assert "  submerge not set (false: they fight to the end)  [true | false; SOURCES.md 6.4]" \
        in lines


@pytest.mark.parametrize(("given", "found"), [
    ({"losses": ["infantry", "infantry"]}, [(("standing", "losses"), "the order your land units and "
                                           "fighters are lost in, each type once: ")]),
    ({"sea_losses": ["tank"]}, [(("standing", "sea_losses"), "the order your ships take hits")]),
    ({"submerge": "yes"}, [(("standing", "submerge"), "whether your defending submarines submerge when "
                                                      "they are the last warships of your side in a "
                                                      "sea battle: true or false")]),
    ({"losses": ["artillery", "infantry"], "submerge": None}, []),  # null drops one
    ({"lossses": []}, [(("standing", "lossses"), "unknown standing instruction 'lossses'; did you mean "
                                                 "'losses'?")]),
    ("losses", [(("standing",), "standing instructions are a mapping of losses, sea_losses")]),
])
def test_each_instruction_is_checked_at_its_place(given: object, found: list[tuple[tuple[object, ...], str]]) -> None:
    """pbem.kit.standing: an unknown key named with a suggestion, each value by its own test."""
    problems = [p for p in GAME.validate(data(), position(), "germany", {"orders": [], "standing": given})
                if p.path[:1] == ("standing",)]
    assert len(problems) == len(found), problems
    for problem, (path, words) in zip(problems, found, strict=True):
        assert problem.path == path and problem.message.startswith(words), problem
    assert list(standing_rules.STANDING) == [*EVERY, "armistice", "evacuation"]


def test_null_drops_an_instruction_given_before() -> None:
    from fixed_rng import FixedRng, OpenSecrets

    state = position()
    state["standing"]["germany"] = {"submerge": True, "losses": ["artillery", "infantry"]}
    body = {"orders": [], "standing": {"submerge": None}}
    assert GAME.validate(data(), state, "germany", body) == []
    events = GAME.resolve(data(), state, {"germany": body}, FixedRng(*([1] * 20)), OpenSecrets())
    said = [e for e in events if e["type"] == "standing"]
    assert said == [{"type": "standing", "power": "germany", "standing": {"losses": ["artillery", "infantry"]}}]
