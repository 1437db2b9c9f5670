"""A step's events folded with one copy of the state (`Game.apply_all`) give exactly the
states that folding them one by one (`Game.apply`, a copy per event) gives, for every step
of a played campaign, and neither changes the log's own entries."""

from __future__ import annotations

import copy

import pytest
from audit_fast import cached_base

from pbem.campaign import Campaign
from pbem.game import apply_all
from pbem.log import normal


@pytest.fixture(scope="module")
def played(tmp_path_factory: pytest.TempPathFactory) -> Campaign:
    return Campaign.open(cached_base(tmp_path_factory) / "camp")


def _one_by_one(campaign: Campaign, state: dict, events: list[dict]) -> dict:  # type: ignore[type-arg]
    for event in events:
        state = campaign.game.apply(campaign.data, state, event)
    return state


def test_every_step_folds_to_the_same_state(played: Campaign) -> None:
    game, data = played.game, played.data
    steps = 0
    # the folder of the log itself, step by step
    from pbem.log import Folder

    folder = Folder(game, data)
    for entry in played.entries():
        before = copy.deepcopy(folder.state)
        kept = copy.deepcopy(entry)
        folder.fold(entry)
        assert entry == kept  # the log's entry is not changed by folding it
        if entry["type"] in ("resolve", "adjust") and entry.get("events"):
            steps += 1
            expected = _one_by_one(played, before["game"], entry["events"])
            assert normal(folder.state["game"]) == normal(expected), entry["seq"]
            snapshot = copy.deepcopy(before["game"])
            assert normal(apply_all(game, data, before["game"], entry["events"])) == normal(expected)
            assert before["game"] == snapshot  # apply_all left its input as it was
    assert steps >= 13


def test_apply_all_changes_neither_the_state_nor_the_events(played: Campaign) -> None:
    entries = [e for e in played.entries() if e["type"] == "resolve" and len(e.get("events", [])) > 3]
    from pbem.log import Folder

    folder = Folder(played.game, played.data)
    for entry in played.entries():
        if entry is entries[-1] or entry["seq"] == entries[-1]["seq"]:
            break
        folder.fold(entry)
    state, events = folder.state["game"], entries[-1]["events"]
    state_copy, events_copy = copy.deepcopy(state), copy.deepcopy(events)
    after = apply_all(played.game, played.data, state, events)
    assert state == state_copy and events == events_copy and after != state
    # what the events put into the new state is not the events' own objects
    after2 = apply_all(played.game, played.data, state, events)
    assert after2 == after


def test_a_game_without_apply_all_is_folded_event_by_event() -> None:
    class Counting:
        def apply(self, data: object, state: dict, event: dict) -> dict:  # type: ignore[type-arg]
            return {**state, "n": state["n"] + event["add"]}

    start = {"n": 1}
    assert apply_all(Counting(), None, start, [{"add": 2}, {"add": 5}]) == {"n": 8}  # type: ignore[arg-type]
    assert start == {"n": 1}
    assert apply_all(Counting(), None, start, []) is start  # type: ignore[arg-type]


def test_an_unknown_event_is_refused_by_apply_all(played: Campaign) -> None:
    state = played.state()["game"]
    with pytest.raises(ValueError, match="^Red Russia has no event 'nonsense'$"):
        apply_all(played.game, played.data, state, [{"type": "note"}, {"type": "nonsense"}])


def test_what_a_step_records_in_the_state_is_a_copy_of_its_events(played: Campaign) -> None:
    """The turn's record (turn_events) keeps events with lists inside (an attack's units):
    changing them in the new state leaves the log's events as recorded."""
    from pbem.log import Folder

    folder = Folder(played.game, played.data)
    for entry in played.entries():
        nested = [e for e in entry.get("events", []) if e.get("type") == "attack"
                  and any(isinstance(v, list | dict) for v in e.values())]
        if entry["type"] == "resolve" and nested:
            break
        folder.fold(entry)
    else:
        raise AssertionError("the campaign has no attack")
    recorded = copy.deepcopy(entry["events"])
    after = apply_all(played.game, played.data, folder.state["game"], entry["events"])
    kept = [e for e in after["turn_events"] if e.get("type") == "attack"]
    assert kept
    for event in kept:
        for value in event.values():
            if isinstance(value, list | dict):
                value.clear()
    assert entry["events"] == recorded
