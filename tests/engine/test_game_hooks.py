"""The Game protocol's optional hooks (pbem.game.HOOKS): each bundled game's extra names are
hooks pbem knows, with the hook's parameters, and a game without a hook gets the default."""

from __future__ import annotations

import inspect
from pathlib import Path
from typing import Any

import pytest

from pbem import game as game_mod
from pbem.game import HOOKS, Game, get_game, load_data

ROOT = Path(__file__).resolve().parents[2]
REQUIRED = {n for n in dir(Game) if not n.startswith("_")} | set(Game.__annotations__)
KIT = {"phases"}  # pbem.kit.phases.TableGame's table of phases
GAMES = [*game_mod.game_ids(), "tiny"]  # the bundled games and the guide's


def game_of(game_id: str, monkeypatch: pytest.MonkeyPatch) -> Game:
    monkeypatch.setenv("PBEM_GAMES_PATH", str(ROOT / "tests" / "games"))  # the guide's Tiny
    return get_game(game_id)


@pytest.mark.parametrize("game_id", GAMES)
def test_a_games_every_other_name_is_a_hook_pbem_asks_for(game_id: str,
                                                         monkeypatch: pytest.MonkeyPatch) -> None:
    names = {n for n in dir(game_of(game_id, monkeypatch)) if not n.startswith("_")}
    assert names - REQUIRED - set(HOOKS) - KIT == set()  # a misspelt hook is never asked for


@pytest.mark.parametrize("game_id", GAMES)
def test_each_hook_a_game_offers_takes_the_hooks_parameters(game_id: str,
                                                            monkeypatch: pytest.MonkeyPatch) -> None:
    game = game_of(game_id, monkeypatch)
    for name, protocol in HOOKS.items():
        if not hasattr(game, name) or not callable(getattr(game, name)):
            continue
        assert isinstance(game, protocol)
        wanted = list(inspect.signature(getattr(protocol, name)).parameters)[1:]  # not self
        assert list(inspect.signature(getattr(game, name)).parameters) == wanted, name


class Bare:
    """A game with none of the hooks (only what the accessors read besides them)."""

    id, name = "bare", "Bare"

    def apply(self, data: Any, state: dict[str, Any], event: dict[str, Any]) -> dict[str, Any]:
        return {**state, "n": state["n"] + event["n"]}


def test_without_its_hook_each_accessor_gives_the_default() -> None:
    bare: Any = Bare()
    data = load_data("red_russia")
    state: dict[str, Any] = {"n": 0}
    assert game_mod.standing_offer(bare, data, state, "red") == []
    assert game_mod.todo(bare, data, state, "red") == []
    assert game_mod.order_warnings(bare, data, state, "red", {}) == []
    assert game_mod.headlines(bare, data, []) == []
    assert game_mod.boxes(bare, data, state, []) == []
    assert game_mod.order_forms(bare, data, state, "red") == []
    assert game_mod.seating(bare, data, state) == {}
    assert game_mod.corrected(bare, data, state, {"type": "x"}, None) == [{"type": "x"}]
    assert game_mod.apply_all(bare, data, state, [{"n": 2}, {"n": 3}]) == {"n": 5}
    assert game_mod.sees_sealed(bare) is False


def test_a_hook_given_is_asked_and_its_answer_taken() -> None:
    class Hooked(Bare):
        sees_sealed = True

        def todo(self, data: Any, state: Any, faction: str) -> list[str]:
            return [f"place {faction}", 3]  # type: ignore[list-item]

        def apply_all(self, data: Any, state: Any, events: list[Any]) -> dict[str, Any]:
            return {"n": -1}

        def seating(self, data: Any, state: Any) -> dict[str, str | None]:
            return {"soviets": None}

    hooked: Any = Hooked()
    data = load_data("red_russia")
    assert game_mod.todo(hooked, data, {}, "red") == ["place red", "3"]  # lines as text
    assert game_mod.apply_all(hooked, data, {"n": 0}, [{"n": 2}]) == {"n": -1}
    assert game_mod.seating(hooked, data, {}) == {"soviets": None}
    assert game_mod.sees_sealed(hooked) is True
    hooked.sees_sealed = False
    assert game_mod.sees_sealed(hooked) is False
