"""The rules kit (pbem/kit/): folds, dice pools and paths, on their own, with values on
both sides of every threshold."""

from __future__ import annotations

import pytest

from pbem.dice import KeyedRng, ReplayRng, Roll
from pbem.game import Problem
from pbem.kit import graph, pools
from pbem.kit.fold import Fold


def test_a_pool_rolls_named_dice_in_order() -> None:
    rng = ReplayRng([Roll("c:d1", 6, 4), Roll("c:d2", 6, 6), Roll("c:d3", 6, 1)])
    assert pools.roll(rng, "c", 3) == [4, 6, 1]
    later = ReplayRng([Roll("c:d4", 10, 9), Roll("c:d5", 10, 2)])
    assert pools.roll(later, "c", 2, sides=10, first=4) == [9, 2]
    assert pools.roll(ReplayRng([]), "c", 0) == []
    with pytest.raises(ValueError, match="a pool of -1 dice"):
        pools.roll(ReplayRng([]), "c", -1)


def test_a_pool_is_the_dice_of_its_labels() -> None:
    key = bytes(range(32))
    assert pools.roll(KeyedRng(key), "x", 4, sides=8) == [KeyedRng(key).roll(f"x:d{i}", 8) for i in range(1, 5)]


@pytest.mark.parametrize(("need", "hits"), [(7, 0), (6, 1), (5, 2), (4, 3), (2, 5), (1, 6)])
def test_hits_at_or_over_on_both_sides_of_the_number(need: int, hits: int) -> None:
    assert pools.hits_at_or_over([1, 2, 3, 4, 5, 6], need) == hits


@pytest.mark.parametrize(("value", "hits"), [(0, 0), (1, 1), (2, 2), (3, 3), (5, 5), (6, 6)])
def test_hits_at_or_under_on_both_sides_of_the_value(value: int, hits: int) -> None:
    assert pools.hits_at_or_under([6, 5, 4, 3, 2, 1], value) == hits


def test_fold_applies_each_event_as_it_comes() -> None:
    seen: list[int] = []

    def apply(state: dict, event: dict) -> dict:  # type: ignore[type-arg]
        seen.append(state["n"])
        return {"n": state["n"] + event["add"]}

    start = {"n": 0}
    fold = Fold(apply, start)
    fold.emit({"add": 2})
    fold.take([{"add": 3}, {"add": 4}])
    assert fold.state == {"n": 9} and seen == [0, 2, 5] and start == {"n": 0}
    assert fold.events == [{"add": 2}, {"add": 3}, {"add": 4}]
    fold.join([{"add": 100}], {"n": 109})
    assert fold.state == {"n": 109} and len(fold.events) == 4 and seen == [0, 2, 5]


LINKS = {"a": {"b": 1, "c": 4}, "b": {"c": 1, "d": 5}, "c": {"d": 1}, "d": {}, "e": {"a": 1}}


def _links(here: str) -> list[tuple[str, int]]:
    return sorted(LINKS.get(here, {}).items())


def test_cheapest_path_and_its_limit() -> None:
    assert graph.cheapest_path("a", "d", _links, limit=3) == ["a", "b", "c", "d"]
    assert graph.cheapest_path("a", "d", _links, limit=2) is None  # one short of the cost
    assert graph.cheapest_path("a", "d", _links, limit=5, spent=2) == ["a", "b", "c", "d"]
    assert graph.cheapest_path("a", "d", _links, limit=4, spent=2) is None  # spent counts
    assert graph.cheapest_path("a", "a", _links, limit=0) == ["a"]
    assert graph.cheapest_path("d", "a", _links, limit=99) is None  # no way back


def test_a_place_that_may_not_be_passed_ends_a_path_only() -> None:
    assert graph.cheapest_path("a", "d", _links, limit=9, may_pass=lambda p: p != "c") == ["a", "b", "d"]
    assert graph.cheapest_path("a", "c", _links, limit=9, may_pass=lambda p: p != "c") == ["a", "b", "c"]
    assert graph.cheapest_path("a", "d", _links, limit=9, may_pass=lambda p: p not in "bc") is None
    assert graph.cheapest_path("a", "b", _links, limit=9, may_pass=lambda p: p != "a") == ["a", "b"]


def test_equal_costs_go_to_the_path_that_sorts_first() -> None:
    square = {"s": {"y": 1, "x": 1}, "x": {"t": 1}, "y": {"t": 1}}
    backwards = lambda here: sorted(square.get(here, {}).items(), reverse=True)  # noqa: E731
    assert graph.cheapest_path("s", "t", backwards, limit=9) == ["s", "x", "t"]


def test_nearest_by_steps_not_by_cost() -> None:
    def neighbours(here: str) -> list[str]:
        return sorted(LINKS.get(here, {}))

    assert graph.nearest("a", neighbours, lambda p: p in ("c", "d")) == "c"  # one step, first by order
    assert graph.nearest("a", neighbours, lambda p: p == "d") == "d"
    assert graph.nearest("a", neighbours, lambda p: p == "a") is None  # not the start itself
    assert graph.nearest("d", neighbours, lambda p: True) is None


def _table() -> phases.PhaseTable:
    from pbem.game import Problem

    def awaiting(data: object, state: dict) -> list[str]:  # type: ignore[type-arg]
        return ["blue", "gold"]

    def validate(data: object, state: dict, faction: str, orders: dict) -> list[Problem]:  # type: ignore[type-arg]
        return [] if orders.get("orders") else [Problem(("orders",), f"{faction}: say something")]

    def resolve(data: object, state: dict, orders: dict, rng: object, secrets: object) -> list[dict]:  # type: ignore[type-arg]
        return [{"type": "said", "by": sorted(orders)}]

    def shown(data: object, state: dict, title: str, prompt: str) -> tuple[str, str]:  # type: ignore[type-arg]
        return f"{title}, turn {state['turn']}", prompt.upper()

    return phases.PhaseTable({
        "talk": phases.PhaseRules("Talk", "say it", awaiting=awaiting, shown=shown, validate=validate,
                                  resolve=resolve, bot=lambda d, s, f, r: {"orders": [f]},
                                  default_orders=lambda d, s, f, r: {"orders": ["nothing"]}),
        "count": phases.PhaseRules("Count", resolve=resolve),
        "end": phases.PhaseRules("The end"),
    })


from pbem.kit import phases  # noqa: E402


def test_a_phase_table_dispatches_by_the_states_phase() -> None:
    table = _table()
    talk = {"phase": "talk", "turn": 3}
    shown = table.phase(None, talk)  # type: ignore[arg-type]
    assert (shown.name, shown.turn, shown.awaiting, shown.title, shown.prompt, shown.over, shown.result) == (
        "talk", 3, ("blue", "gold"), "Talk, turn 3", "SAY IT", False, None)
    assert table.validate(None, talk, "blue", {"orders": []})[0].message == "blue: say something"  # type: ignore[arg-type]
    assert table.validate(None, talk, "blue", {"orders": ["hi"]}) == []  # type: ignore[arg-type]
    assert table.resolve(None, talk, {"gold": {}, "blue": {}}, None, None) == [  # type: ignore[arg-type]
        {"type": "said", "by": ["blue", "gold"]}]
    assert table.bot(None, talk, "gold", None) == {"orders": ["gold"]}  # type: ignore[arg-type]
    assert table.default_orders(None, talk, "gold", None) == {"orders": ["nothing"]}  # type: ignore[arg-type]


def test_what_a_phase_leaves_out() -> None:
    table = _table()
    count = {"phase": "count", "turn": 1}
    shown = table.phase(None, count)  # type: ignore[arg-type]
    assert (shown.awaiting, shown.title, shown.prompt) == ((), "Count", "")
    problems = table.validate(None, count, "blue", {"orders": ["x"]})  # type: ignore[arg-type]
    assert [(p.path, p.message) for p in problems] == [(("phase",), "no orders are taken in phase count")]
    assert table.bot(None, count, "blue", None) == {"orders": []}  # type: ignore[arg-type]
    assert table.default_orders(None, count, "blue", None) == {"orders": []}  # type: ignore[arg-type]
    end = {"phase": "end", "turn": 9, "over": True, "result": {"winners": ["gold"]}}
    assert table.phase(None, end).over is True  # type: ignore[arg-type]
    assert table.phase(None, end).result == {"winners": ["gold"]}  # type: ignore[arg-type]
    with pytest.raises(ValueError, match="phase end does not resolve"):
        table.resolve(None, end, {}, None, None)  # type: ignore[arg-type]
    with pytest.raises(ValueError, match=r"unknown phase 'chat' \(known: talk, count, end\)"):
        table.phase(None, {"phase": "chat", "turn": 1})  # type: ignore[arg-type]


# ---------------------------------------------------------------------------------------
# asking by mail

from pbem.kit import ask  # noqa: E402

QUESTIONS = [{"faction": "blue", "zone": "Ford", "rule": "1.1"},
             {"faction": "gold", "zone": "Ford", "rule": "1.1"},
             {"faction": "blue", "zone": "Hill", "rule": "1.1"}]


def asked_state() -> dict[str, object]:
    state: dict[str, object] = {"turn": 2}
    ask.apply_asked(state, ask.ask("gold", {"orders": [{"attack": "Ford"}]}, QUESTIONS))
    return state


def test_asked_stops_the_step_and_awaits_each_faction_asked_once() -> None:
    event = ask.ask("gold", {"orders": []}, QUESTIONS)
    assert event == {"type": "asked", "actor": "gold", "orders": {"orders": []},
                     "questions": QUESTIONS}
    state = asked_state()
    assert state["asked"] == {"actor": "gold", "orders": {"orders": [{"attack": "Ford"}]},
                              "questions": QUESTIONS}
    assert ask.awaiting(state) == ("blue", "gold")
    assert [q["zone"] for q in ask.questions(state, "blue")] == ["Ford", "Hill"]
    assert ask.questions(state, "red") == [] and len(ask.questions(state)) == 3
    ask.apply_answered(state, {"type": "answered"})
    assert state == {"turn": 2} and ask.awaiting(state) == ()
    ask.apply_answered(state, {"type": "answered"})  # nothing asked: nothing to take back
    assert state == {"turn": 2}


def test_each_answer_answers_a_question_of_its_own_faction_once() -> None:
    problems: list[Problem] = []
    answering = ask.Answering(asked_state(), "blue", "zone")
    answering.check(("orders", 0), "Ford", problems)
    answering.check(("orders", 1), "Hill", problems)
    assert problems == []
    answering.check(("orders", 2), "Ford", problems)
    answering.check(("orders", 3), "Mill", problems)
    assert problems == [Problem(("orders", 2), "Ford is answered twice"),
                        Problem(("orders", 3), "you are not asked about Mill (asked: Ford, Hill)")]
    nobody: list[Problem] = []
    ask.Answering(asked_state(), "red", "zone").check(("orders", 0), "Ford", nobody)
    assert nobody == [Problem(("orders", 0), "you are not asked about Ford (asked: nothing)")]


def test_a_question_nobody_answered_gets_the_rules_default() -> None:
    given = {"Ford": {"blue": "retreat"}}
    event = ask.answered(asked_state(), given, "zone", lambda q: f"stand ({q['rule']})")
    assert event == {"type": "answered", "given": given,
                     "answers": {"Ford": {"blue": "retreat", "gold": "stand (1.1)"},
                                 "Hill": {"blue": "stand (1.1)"}}}
    everyone = {"Ford": {"blue": "a", "gold": "b"}, "Hill": {"blue": "c"}}
    assert ask.answered(asked_state(), everyone, "zone", lambda q: "x")["answers"] == everyone
