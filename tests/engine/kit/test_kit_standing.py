"""pbem.kit.standing: standing instructions checked the same way in every game."""

from __future__ import annotations

from typing import Any

import pytest

from pbem.game import Problem
from pbem.kit import standing

CHECKS: dict[str, standing.Check] = {
    "retreat": standing.one_of(["never", "always", 2], "retreat"),
    "submerge": standing.boolean("whether submarines submerge"),
    "places": standing.names("places is a list of names"),
    "losses": standing.ordering(["inf", "art"], "losses: each of inf, art once"),
    "deep": lambda data, state, faction, value: ((1,), f"{faction} cannot go {value[1]}") if value[1:] else None,
}


def problems(given: Any) -> list[tuple[tuple[str | int, ...], str]]:
    found: list[Problem] = []
    standing.check(None, {}, "red", given, CHECKS, found)  # type: ignore[arg-type]
    return [(p.path, p.message) for p in found]


@pytest.mark.parametrize(("given", "found"), [
    (None, []),
    ({"retreat": "always", "submerge": False, "places": ["Kazan"], "losses": ["art"], "deep": ["a"]}, []),
    ({"retreat": None, "losses": None}, []),  # null drops one given before
    ({"retreat": 2}, []),
    ({"retreat": True}, [(("standing", "retreat"), "retreat is one of never, always, not True")]),
    ({"retreat": "sometimes"}, [(("standing", "retreat"), "retreat is one of never, always, not 'sometimes'")]),
    ({"submerge": "yes"}, [(("standing", "submerge"), "whether submarines submerge: true or false")]),
    ({"places": "Kazan"}, [(("standing", "places"), "places is a list of names")]),
    ({"places": ["Kazan", 3]}, [(("standing", "places"), "places is a list of names")]),
    ({"losses": ["inf", "inf"]}, [(("standing", "losses"), "losses: each of inf, art once")]),
    ({"losses": ["tank"]}, [(("standing", "losses"), "losses: each of inf, art once")]),
    ({"deep": ["a", "b"]}, [(("standing", "deep", 1), "red cannot go b")]),
    ({"retrat": "never"}, [(("standing", "retrat"), "unknown standing instruction 'retrat'; did you mean "
                                                    "'retreat'? (known: retreat, submerge, places, losses, deep)")]),
    (["retreat"], [(("standing",), "standing instructions are a mapping of retreat, submerge, places, "
                                   "losses, deep")]),
])
def test_each_instruction_is_checked_at_its_place(given: Any, found: list[Any]) -> None:
    assert problems(given) == found


def test_a_game_with_none_says_so() -> None:
    found: list[Problem] = []
    standing.check(None, {}, "red", {"x": 1}, {}, found)  # type: ignore[arg-type]
    assert [p.message for p in found] == ["unknown standing instruction 'x' (known: none)"]
