"""pbem.contributions on its own: the round answers for the game before the set-up, and
from the set-up on every call is the game's own, with the same arguments (a stand-in game
records each call). The campaigns that hold the round are in test_contributions.py."""

from __future__ import annotations

from typing import Any

import pytest

from pbem.contributions import (
    MARK,
    PHASE,
    PROMPT,
    TITLE,
    WITHOUT,
    Contributing,
    hidden_draws,
    is_pre_game,
    pre_game,
    without,
)
from pbem.game import GameData, Phase, Problem

DATA = GameData("stand-in", __import__("pathlib").Path("."))
STATE = {"turn": 3, "phase": "action", "units": {}}


class StandIn:
    """A game that answers every call with a value naming the call and its arguments."""

    id = "stand-in"
    name = "Stand-in"

    def __init__(self) -> None:
        self.calls: list[tuple[str, tuple[Any, ...]]] = []

    def _answer(self, method: str, *args: Any) -> Any:
        self.calls.append((method, args))
        return {"from": method, "args": len(args)}

    def describe(self, data: GameData) -> Any:
        return self._answer("describe", data)

    def check_data(self, data: GameData) -> Any:
        return self._answer("check_data", data)

    def setup(self, data: GameData, options: dict[str, Any], rng: Any) -> Any:
        return self._answer("setup", data, options, rng)

    def phase(self, data: GameData, state: Any) -> Any:
        return self._answer("phase", data, state)

    def validate(self, data: GameData, state: Any, faction: str, orders: Any) -> Any:
        return self._answer("validate", data, state, faction, orders)

    def resolve(self, data: GameData, state: Any, orders: Any, rng: Any, secrets: Any = None) -> Any:
        return self._answer("resolve", data, state, orders, rng, secrets)

    def apply(self, data: GameData, state: Any, event: Any) -> Any:
        return self._answer("apply", data, state, event)

    def view(self, data: GameData, state: Any, who: str) -> Any:
        return self._answer("view", data, state, who)

    def bot(self, data: GameData, state: Any, faction: str, rng: Any) -> Any:
        return self._answer("bot", data, state, faction, rng)

    def template(self, data: GameData, state: Any, faction: str, rng: Any) -> Any:
        return self._answer("template", data, state, faction, rng)

    def default_orders(self, data: GameData, state: Any, faction: str, rng: Any) -> Any:
        return self._answer("default_orders", data, state, faction, rng)

    def summary(self, data: GameData, event: Any) -> Any:
        return self._answer("summary", data, event)

    def extra(self) -> str:  # anything else a game offers is reached too
        return "extra"


RNG, SECRETS = object(), object()
CALLS = [
    ("describe", (DATA,)), ("check_data", (DATA,)), ("setup", (DATA, {"o": 1}, RNG)),
    ("phase", (DATA, STATE)), ("validate", (DATA, STATE, "red", {"orders": [1]})),
    ("resolve", (DATA, STATE, {"red": {}}, RNG, SECRETS)),
    ("apply", (DATA, STATE, {"type": "moved"})), ("view", (DATA, STATE, "red")),
    ("bot", (DATA, STATE, "red", RNG)), ("template", (DATA, STATE, "red", RNG)),
    ("default_orders", (DATA, STATE, "red", RNG)), ("summary", (DATA, {"type": "moved"})),
]


@pytest.mark.parametrize(("method", "args"), CALLS, ids=[c[0] for c in CALLS])
def test_after_the_set_up_every_call_is_the_games_own(method: str, args: tuple[Any, ...]) -> None:
    game = StandIn()
    wrapped = Contributing(game)  # type: ignore[arg-type]
    assert getattr(wrapped, method)(*args) == {"from": method, "args": len(args)}
    assert game.calls == [(method, args)]


def test_the_wrapper_keeps_the_games_names_and_the_rest() -> None:
    wrapped = Contributing(StandIn())  # type: ignore[arg-type]
    assert (wrapped.id, wrapped.name, wrapped.extra()) == ("stand-in", "Stand-in", "extra")


FACTIONS = ["red", "white", "green"]
ROUND = {MARK: {"factions": ["green", "red", "white"]}, "turn": 0, "phase": PHASE,
         "options": {"famine": True}}


def test_the_round_before_the_set_up() -> None:
    assert pre_game({"famine": True}, FACTIONS) == {MARK: {"factions": ["green", "red", "white"]}, "turn": 0, "phase": PHASE,
                     "options": {"famine": True}}
    assert is_pre_game(ROUND) and not is_pre_game(STATE) and not is_pre_game(None)
    game = StandIn()
    wrapped = Contributing(game)  # type: ignore[arg-type]
    assert wrapped.phase(DATA, ROUND) == Phase(name="contribute", turn=0,
                                               awaiting=("green", "red", "white"),
                                               title=TITLE, prompt=PROMPT)
    assert wrapped.bot(DATA, ROUND, "red", RNG) == {"orders": []}
    assert wrapped.template(DATA, ROUND, "red", RNG) == {"orders": []}
    assert wrapped.default_orders(DATA, ROUND, "red", RNG) == {"orders": []}
    assert wrapped.view(DATA, ROUND, "red") == {"who": "red", "turn": 0, "phase": PHASE,
                                               "contribute": True,
                                               "factions": ["green", "red", "white"]}
    assert game.calls == []  # the game is asked nothing before its set-up


def test_the_round_takes_files_with_nothing_in_them() -> None:
    wrapped = Contributing(StandIn())  # type: ignore[arg-type]
    for empty in ({"orders": []}, {"orders": {}}, {"orders": None, "standing": None}, {}):
        assert wrapped.validate(DATA, ROUND, "red", empty) == []
    found = wrapped.validate(DATA, ROUND, "red", {"orders": [{"move": 1}], "standing": {"a": 1},
                                                  "secret": None})
    assert [p.path for p in found] == [("orders",), ("standing",)]
    assert found[0] == Problem(("orders",), "the contribution round takes no orders: send the "
                               "file as it came, with 'orders: []' (pbem sign adds the salt)")


def test_resolving_the_round_draws_the_set_up_with_the_rng_it_is_given() -> None:
    game = StandIn()
    wrapped = Contributing(game)  # type: ignore[arg-type]
    events = wrapped.resolve(DATA, ROUND, {"red": {"orders": []}}, RNG, SECRETS)
    assert events == [{"type": "set_up", "state": {"from": "setup", "args": 3}}]
    assert game.calls == [("setup", (DATA, {"famine": True}, RNG))]
    set_up = {"type": "set_up", "state": {"turn": 0, "units": {"a": [1]}}}
    after = wrapped.apply(DATA, ROUND, set_up)
    assert after == set_up["state"] and after is not set_up["state"]
    after["units"]["a"].append(2)
    assert set_up["state"]["units"]["a"] == [1]  # a copy: the event is never changed
    # a `set_up` event after the set-up is the game's to apply
    assert wrapped.apply(DATA, STATE, set_up) == {"from": "apply", "args": 3}
    assert wrapped.summary(DATA, set_up) == (
        "the set-up is drawn with the hidden key and the players' contributions "
        "(checkable by everyone after pbem unseal)")


def test_how_the_hidden_draws_are_keyed_in_every_case() -> None:
    assert hidden_draws({"game": ROUND}) == (
        "the contribution round: nothing hidden is drawn until every salt is in")
    assert not without({"game": ROUND})
    assert without({"game": STATE})
    assert hidden_draws({"game": STATE}) == WITHOUT
    assert WITHOUT == ("keyed by the referee's hidden secret alone: this campaign was made "
                       "without the contribution round (pbem new --no-contributions)")
    held = {"game": STATE, "contributions": {"white": "aa", "red": "bb"}}
    assert not without(held)
    assert hidden_draws(held) == "keyed by the referee's hidden secret and the salts of red, white"
    assert hidden_draws({"game": STATE, "contributions": {}}) == (
        "keyed by the referee's hidden secret and the salts of nobody (no faction sent one)")


def test_the_hidden_draws_line_and_note_name_the_salts_missing() -> None:
    from pbem.contributions import SHORT, WITHOUT, hidden_draws, note, short_of

    state = {"game": {}, "contributions": {"red": "s1", "south": "s2"}}
    asked = ["red", "south", "north", "siberian"]
    assert short_of(state, asked) == ["north", "siberian"]
    assert short_of(state, None) == [] and short_of(state, []) == []
    assert short_of({"game": {}}, asked) == []  # no round held
    assert hidden_draws(state, asked) == ("keyed by the referee's hidden secret and the salts of "
                                          f"red, south; without the salts of north, siberian: {SHORT}")
    assert hidden_draws(state, ["red", "south"]) == ("keyed by the referee's hidden secret and the "
                                                     "salts of red, south")
    assert note(state, asked) == ("Hidden draws (the set-up, every shuffle) are keyed without the "
                                  f"salts of north, siberian: {SHORT}.")
    assert note(state, ["red", "south"]) == ""
    assert note({"game": {}}, None) == f"Hidden draws (the set-up, every shuffle) are {WITHOUT}."
    assert hidden_draws({"game": {}, "contributions": {}}, ["red"]) == (
        "keyed by the referee's hidden secret and the salts of nobody (no faction sent one); "
        f"without the salts of red: {SHORT}")
