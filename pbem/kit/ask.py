"""A question put to players by mail in the middle of a step, and the step resumed with
their answers.

By mail nobody can be asked live. When the rules reach a choice that a player makes then
and there (retreat before a battle; which units take the losses), and no standing
instruction answers it, the rules stop: an `asked` event records the questions and what is
left of the step (`resume`, the rest of the actor's orders). The game then awaits the
players asked (`awaiting`), in a phase of its own with the campaign's deadline and NMR
policy; each answers in its orders file, one item per question, naming what the question
is about (`about`, a zone say). The answers, and for a question nobody answered the rules'
default, make an `answered` event, and the step goes on where it stopped.

A question is a mapping with at least `faction` (who is asked) and the `about` key; a game
puts in it whatever its reports and its bot need. The events keep the game's own shape:
`{type: asked, actor, orders: RESUME, questions}` and `{type: answered, answers, given}`.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from pbem.game import Event, Problem, State

KEY = "asked"  # where the state keeps the open questions
Answers = dict[str, dict[str, Any]]  # {about: {faction: answer}}


def ask(actor: str, resume: Any, questions: list[dict[str, Any]]) -> Event:
    """The step stops here: `questions` wait for their answers, `resume` for the rest."""
    return {"type": "asked", "actor": actor, "orders": resume, "questions": questions}


def apply_asked(state: State, event: Event) -> None:
    state[KEY] = {"actor": event["actor"], "orders": event["orders"],
                  "questions": list(event["questions"])}


def apply_answered(state: State, event: Event) -> None:
    state.pop(KEY, None)


def questions(state: State, faction: str | None = None) -> list[dict[str, Any]]:
    """The open questions (of one faction)."""
    found: list[dict[str, Any]] = (state.get(KEY) or {}).get("questions", [])
    return [q for q in found if faction is None or q["faction"] == faction]


def awaiting(state: State) -> tuple[str, ...]:
    """The factions asked, each once, in order of their names."""
    return tuple(sorted({q["faction"] for q in questions(state)}))


class Answering:
    """The answers of one faction's orders file, checked one by one as they are read: each
    answers a question put to that faction, and no question is answered twice."""

    def __init__(self, state: State, faction: str, about: str) -> None:
        self.mine = {q[about] for q in questions(state, faction)}
        self.seen: set[str] = set()

    def check(self, path: tuple[str | int, ...], subject: str, problems: list[Problem]) -> None:
        if subject not in self.mine:
            asked = ", ".join(sorted(self.mine)) or "nothing"
            problems.append(Problem(path, f"you are not asked about {subject} (asked: {asked})"))
        elif subject in self.seen:
            problems.append(Problem(path, f"{subject} is answered twice"))
        self.seen.add(subject)


def answered(state: State, given: Answers, about: str,
             default: Callable[[dict[str, Any]], Any]) -> Event:
    """The `answered` event: the answers `given`, and for each question nobody answered
    the rules' `default(question)`."""
    full: Answers = {}
    for q in questions(state):
        if q["faction"] not in given.get(q[about], {}):
            full.setdefault(q[about], {})[q["faction"]] = default(q)
    for subject, by in given.items():
        full.setdefault(subject, {}).update(by)
    return {"type": "answered", "answers": full, "given": given}
