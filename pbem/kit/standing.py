"""Standing instructions checked the same way in every game: a faction's `standing:` is a
mapping of the instructions its game knows, each value checked by the game's own test, and
`null` drops one given before (the orders template says so: pbem.game.standing_lines).

A game lists its instructions as {key: check}, where a check returns what is wrong with a
value (a message, or a place inside the value and a message) or None; the helpers below
make the common ones.
"""

from __future__ import annotations

from collections.abc import Callable, Collection, Mapping, Sequence
from typing import Any

from pbem.game import GameData, Problem, State
from pbem.names import suggest

Inside = tuple[str | int, ...]
Placed = tuple[Inside, str]  # a place inside the value, and what is wrong there
# what is wrong with `value` for `faction` in this position (at the key, or Placed), or None
Check = Callable[[GameData, State, str, Any], str | Placed | None]


def check(data: GameData, state: State, faction: str, standing: Any,
          instructions: Mapping[str, Check], problems: list[Problem]) -> None:
    """Every problem of a file's `standing:` part, each at its key."""
    if standing is None:
        return
    known = list(instructions)
    if not isinstance(standing, dict):
        problems.append(Problem(("standing",), "standing instructions are a mapping of "
                                + (", ".join(known) or "none in this game")))
        return
    for key, value in standing.items():
        if key not in instructions:
            problems.append(Problem(("standing", key), f"unknown standing instruction {key!r}"
                                    f"{suggest(str(key), known)} (known: {', '.join(known) or 'none'})"))
        elif value is not None:  # null drops an instruction given before
            refused = instructions[key](data, state, faction, value)
            if isinstance(refused, tuple):
                problems.append(Problem(("standing", key, *refused[0]), refused[1]))
            elif refused is not None:
                problems.append(Problem(("standing", key), refused))


def boolean(what: str) -> Check:
    """true or false; `what` says what it decides."""
    return lambda data, state, faction, value: None if isinstance(value, bool) else f"{what}: true or false"


def one_of(choices: Sequence[Any], key: str) -> Check:
    """One of `choices` (a number is not a boolean)."""
    def test(data: GameData, state: State, faction: str, value: Any) -> str | None:
        if not isinstance(value, bool) and isinstance(value, str | int) and value in choices:
            return None
        named = [str(c) for c in choices if isinstance(c, str)] or [str(c) for c in choices]
        return f"{key} is one of {', '.join(named)}, not {value!r}"
    return test


def names(message: str) -> Check:
    """A list of names (ids, types, places), checked as names only."""
    def test(data: GameData, state: State, faction: str, value: Any) -> str | None:
        ok = isinstance(value, list) and all(isinstance(v, str) for v in value)
        return None if ok else message
    return test


def ordering(kinds: Collection[str], message: str) -> Check:
    """An order of some of `kinds`, each once."""
    def test(data: GameData, state: State, faction: str, value: Any) -> str | None:
        ok = isinstance(value, list) and set(value) <= set(kinds) and len(set(value)) == len(value)
        return None if ok else message
    return test
