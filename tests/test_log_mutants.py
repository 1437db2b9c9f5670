"""pbem.log.Folder and the files kept sealed past a turn: the fold of the log into the
engine's state, step by step, with a small game made here so that every outcome is exact.

These tests kill the mutants `python benchmarks/mutation.py pbem/log.py --tests
tests/test_log.py` left alive or untested (Folder.fold had no test in test_log.py). What a
fold must give is the module's promise: a state that is a pure function of the entries
(docs/design.md "Log entries"), that an undo can take back, and whose `head` is the hash
chain's last link.
"""

from __future__ import annotations

import copy
from pathlib import Path
from typing import Any

import pytest

from pbem.contributions import MARK, PHASE
from pbem.dice import DiceMismatch, Rng
from pbem.game import GameData, clone
from pbem.log import Folder, after_resolve, entry_hash, sealed_files

DATA = GameData("tally", Path("."), {"start": 10, "unit": 1})


class Tally:
    """A game whose state says what it was set up with and which events it applied."""

    id = "tally"
    name = "Tally"

    def __init__(self) -> None:
        self.setups = 0

    def setup(self, data: GameData, options: dict[str, Any], rng: Rng) -> dict[str, Any]:
        self.setups += 1
        return {"turn": 1, "total": data["start"], "options": dict(options),
                "die": rng.roll("first", 6)}

    def apply(self, data: GameData, state: dict[str, Any], event: dict[str, Any]) -> dict[str, Any]:
        after: dict[str, Any] = clone(state)
        after["total"] += event["add"] * data["unit"]
        return after


DIE = {"label": "first", "sides": 6, "value": 4, "extra": "ignored"}


def entry(seq: int, kind: str, **fields: Any) -> dict[str, Any]:
    return {"seq": seq, "prev": f"h{seq - 1}", "type": kind, "turn": 1, "phase": "move",
            "summary": f"step {seq}", **fields}


def new(**fields: Any) -> dict[str, Any]:
    return entry(1, "new", dice=[DIE], options={"size": 2}, **fields)


def folded(*entries: dict[str, Any]) -> Folder:
    folder = Folder(Tally(), DATA)  # type: ignore[arg-type]
    for e in entries:
        folder.fold(e)
    return folder


def heads(*entries: dict[str, Any]) -> list[str]:
    return [entry_hash(e) for e in entries]


RED = {"file": "orders/red.yaml", "salt_next": "n-red"}
BLUE = {"file": "orders/blue.yaml"}


# ------------------------------------------------------------------------------ set-up


def test_new_runs_the_setup_with_the_recorded_dice_and_keeps_the_settings() -> None:
    """`new` folds to the game's set-up from the data, the options and the recorded draws,
    nothing pending, the settings campaign.yaml must keep saying, and the chain's first
    link as head and only head."""
    settings = {"factions": {"red": {"player": "Ann"}}}
    first = new(settings=settings)
    folder = folded()
    state = folder.fold(first)
    assert state == {"pending": {}, "settings": settings, "seq": 1, "head": entry_hash(first),
                     "heads": heads(first),
                     "game": {"turn": 1, "total": 10, "options": {"size": 2}, "die": 4}}
    assert folder.state is state and folder.game.setups == 1  # type: ignore[attr-defined]
    assert folder.stack == []  # a set-up is never taken back


def test_new_without_options_or_settings() -> None:
    """Without options the set-up gets {}; without settings the state has none."""
    state = folded(entry(1, "new", dice=[DIE])).state
    assert state["game"]["options"] == {} and "settings" not in state


def test_new_replays_exactly_the_recorded_dice() -> None:
    """The set-up's draws are the recorded ones, no other: a new without them cannot fold."""
    with pytest.raises(DiceMismatch):
        folded(entry(1, "new"))
    with pytest.raises(DiceMismatch):
        folded(entry(1, "new", dice=[{**DIE, "sides": 8}]))


def test_new_with_the_contribution_round_draws_nothing_yet() -> None:
    """A `new` that asks for contributions folds to the pre-game state of those factions
    (sorted) and options; the game's set-up does not run, so nothing is drawn."""
    first = entry(1, "new", contribute=["red", "blue"], options={"size": 2})
    folder = folded(first)
    assert folder.state["game"] == {MARK: {"factions": ["blue", "red"]}, "turn": 0,
                                    "phase": PHASE, "options": {"size": 2}}
    assert folder.game.setups == 0  # type: ignore[attr-defined]
    no_options = folded(entry(1, "new", contribute=["red"])).state["game"]
    assert no_options["options"] == {}
    # an empty round is no round: the set-up runs
    assert folded(new(contribute=[])).state["game"]["die"] == 4


# ---------------------------------------------------------------------- orders, resolve


def test_orders_wait_in_pending_and_leave_the_state_before_as_it_was() -> None:
    """Orders are held in `pending` by faction (one file for several factions: each of
    them) and change nothing else; the state before is not changed."""
    first, one = new(), entry(2, "orders", faction="red", pending=RED)
    folder = folded(first)
    before = copy.deepcopy(folder.state)
    kept = folder.state
    folder.fold(one)
    assert kept == before  # a new state, not the old one changed
    assert folder.state == {**before, "pending": {"red": RED}, "seq": 2,
                            "head": entry_hash(one), "heads": heads(first, one)}
    two = entry(3, "orders", factions=["blue"], pending={"blue": BLUE, "green": {}})
    folder.fold(two)
    assert folder.state["pending"] == {"red": RED, "blue": BLUE}
    assert folder.state["heads"] == heads(first, one, two)


def test_a_resolution_applies_its_events_and_clears_the_orders() -> None:
    """`resolve` folds the game through its events and sets the engine's fields as
    after_resolve says (orders gone, batch used, salts committed); the chain's heads start
    again from it."""
    first, orders = new(), entry(2, "orders", faction="red", pending=RED)
    resolve = entry(3, "resolve", events=[{"add": 5}, {"add": -2}], batch=7, salts={"red": "s"})
    folder = folded(first, orders)
    before = copy.deepcopy(folder.state)
    state = folder.fold(resolve)
    assert state == {"pending": {}, "batch": 7, "salt_commits": {"red": "n-red"},
                     "last_salts": {"red": "s"}, "sealed_files": [],
                     "game": {**before["game"], "total": 13},
                     "seq": 3, "head": entry_hash(resolve), "heads": heads(resolve)}
    assert folded(first, entry(2, "resolve")).state["game"] == before["game"]  # no events


def test_an_adjustment_applies_its_events_and_keeps_the_orders() -> None:
    """`adjust` changes the game by its events only: orders pending stay pending, the
    seed-chain counter is not moved, and the heads grow."""
    first, orders = new(), entry(2, "orders", faction="red", pending=RED)
    adjust = entry(3, "adjust", events=[{"add": 1}], batch=9, reason="a lost unit")
    folder = folded(first, orders)
    before = copy.deepcopy(folder.state)
    state = folder.fold(adjust)
    assert state == {**before, "game": {**before["game"], "total": 11}, "seq": 3,
                     "head": entry_hash(adjust), "heads": heads(first, orders, adjust)}
    assert "batch" not in state


def test_a_seat_step_changes_the_seats_and_nothing_else() -> None:
    """`seat` records a faction's new player: settings.factions takes the entry's seats
    (others kept); the game and the orders are as they were."""
    settings = {"factions": {"red": {"player": "Ann"}, "blue": {"player": "Bo"}}, "x": 1}
    first, orders = new(settings=settings), entry(2, "orders", faction="red", pending=RED)
    seat = entry(3, "seat", seats={"red": {"player": "Cy"}}, reason="Ann left")
    folder = folded(first, orders)
    before = copy.deepcopy(folder.state)
    state = folder.fold(seat)
    assert state == {**before, "settings": {"factions": {"red": {"player": "Cy"},
                                                         "blue": {"player": "Bo"}}, "x": 1},
                     "seq": 3, "head": entry_hash(seat), "heads": heads(first, orders, seat)}
    assert folder.stack[-1][0] == 2  # a seat is not a step an undo takes back
    # without settings yet, the seats make them
    bare = folded(new(), entry(2, "seat", seats={"red": {"player": "Cy"}})).state
    assert bare["settings"] == {"factions": {"red": {"player": "Cy"}}}
    assert "settings" not in folded(new(), entry(2, "seat")).state


def test_a_power_seated_by_a_resolution_or_an_adjustment() -> None:
    """A resolve or adjust whose events made a power enter records its seat; orders and
    the set-up never seat anyone."""
    seats = {"green": {"player": "Di"}}
    for kind in ("resolve", "adjust"):
        state = folded(new(), entry(2, kind, seats=seats)).state
        assert state["settings"] == {"factions": seats}, kind
    assert "settings" not in folded(new(seats=seats)).state
    orders = entry(2, "orders", faction="red", pending=RED, seats=seats)
    assert "settings" not in folded(new(), orders).state


def test_unseal_publishes_the_files_kept_sealed() -> None:
    """`unseal` with files revealed leaves none waiting, and changes nothing else; it is no
    step an undo takes back."""
    waiting = [{"file": "orders/red.yaml", "keep": True}]
    first = new()
    folder = folded(first)
    folder.state["sealed_files"] = waiting
    before = copy.deepcopy(folder.state)
    unseal = entry(2, "unseal", files_revealed=[{"file": "orders/red.yaml"}])
    assert folder.fold(unseal) == {**before, "sealed_files": [], "seq": 2,
                                   "head": entry_hash(unseal), "heads": heads(first, unseal)}
    assert folder.stack == []


def test_an_unknown_entry_type_is_refused() -> None:
    """The log holds only the known entry types; another cannot be folded. The audit
    reports the reason as it is ("cannot be replayed: ..."), naming the types it knows."""
    with pytest.raises(ValueError) as exc:
        folded(new(), entry(2, "merge"))
    assert str(exc.value) == ("unknown entry type 'merge' (known: new, orders, resolve, adjust, "
                              "undo, unseal, seat, override)")


# ------------------------------------------------------------------------------- undo


def test_an_undo_gives_back_the_state_before_the_step_it_takes_back() -> None:
    """An undo folds to the state before the last step in force (seq and head of the undo
    itself, the heads grown by it), except that the batch used is not given back; a second
    undo takes back the step before."""
    first, orders = new(), entry(2, "orders", faction="red", pending=RED)
    resolve = entry(3, "resolve", events=[{"add": 5}], batch=7)
    folder = folded(first, orders)
    after_orders = copy.deepcopy(folder.state)
    folder.fold(resolve)
    assert [seq for seq, _ in folder.stack] == [2, 3]
    undo = entry(4, "undo", undoes=3)
    state = folder.fold(undo)
    assert state == {**after_orders, "batch": 7, "seq": 4, "head": entry_hash(undo),
                     "heads": [*after_orders["heads"], entry_hash(undo)]}
    again = entry(5, "undo", undoes=2)
    assert folder.fold(again)["pending"] == {}
    assert folder.stack == []
    with pytest.raises(ValueError, match="^nothing to undo$"):  # the audit reports it as is
        folder.fold(entry(6, "undo", undoes=1))


def test_an_undo_must_name_the_last_step_in_force() -> None:
    """An undo that names another step than the last one in force is refused."""
    folder = folded(new(), entry(2, "orders", faction="red", pending=RED),
                    entry(3, "adjust", events=[]))
    with pytest.raises(ValueError, match="^undo names step 2 but the last step in force is 3$"):
        folder.fold(entry(4, "undo", undoes=2))


def test_only_orders_resolutions_and_adjustments_can_be_taken_back() -> None:
    """set-up, seat, unseal and undo itself are never on the undo stack: an undo reaches
    past them to the last orders, resolve or adjust."""
    folder = folded(new())
    with pytest.raises(ValueError, match="^nothing to undo$"):
        folder.fold(entry(2, "undo", undoes=1))
    folder = folded(new(), entry(2, "orders", faction="red", pending=RED),
                    entry(3, "seat", seats={"red": {"player": "Cy"}}), entry(4, "unseal"))
    state = folder.fold(entry(5, "undo", undoes=2))
    assert state["pending"] == {} and state["settings"] == {"factions": {"red": {"player": "Cy"}}}


def test_a_reader_that_can_fetch_the_state_again_keeps_no_copy() -> None:
    """With `recall` set, the undo stack keeps that function (not the state) for the next
    step, an undo calls it for the state to go back to, and `recall` serves one fold only."""
    first, orders = new(), entry(2, "orders", faction="red", pending=RED)
    folder = folded(first)
    fetched = {"pending": {}, "game": {"fetched": True}, "seq": 1, "head": "x"}

    def recall() -> dict[str, Any]:
        return copy.deepcopy(fetched)

    folder.recall = recall
    folder.fold(orders)
    assert folder.stack == [(2, recall)] and folder.recall is None
    folder.fold(entry(3, "adjust", events=[]))
    assert isinstance(folder.stack[-1][1], dict)  # recall was for one fold
    folder.fold(entry(4, "undo", undoes=3))
    state = folder.fold(entry(5, "undo", undoes=2))
    assert state["game"] == {"fetched": True} and state["pending"] == {}
    # a step that is not taken back ignores the recall, and still clears it
    folder.recall = recall
    folder.fold(entry(6, "seat"))
    assert folder.recall is None and folder.stack == []


# ----------------------------------------------------------- files kept past the turn


def test_a_file_kept_sealed_until_unseal_outlives_the_resolution_that_reveals_the_rest() -> None:
    """A secret of a phase that keeps its secrets (face-down units) is marked `keep` and
    stays waiting when the turn's resolution reveals the other files; only unseal
    publishes it (docs/design.md "What stays secret", docs/verifying.md)."""
    node = {"kind": "orders-file", "id": "n"}
    pending = {"red": {"file": "r.yaml", "file_sealed": node, "body": {}, "keep_sealed": True,
                       "secret": {"commitment": "c-red"}},
               "blue": {"file": "b.yaml", "file_sealed": node, "body": {}, "keep_sealed": False,
                        "secret": {"commitment": "c-blue"}}}
    waiting = sealed_files({"pending": pending})
    assert waiting == [{"file": "b.yaml", "node": node, "body": {}, "secret": "c-blue",
                        "faction": "blue"},
                       {"file": "r.yaml", "node": node, "body": {}, "secret": "c-red",
                        "faction": "red", "keep": True}]
    revealed = after_resolve({"pending": pending}, {"files_revealed": [{"file": "b.yaml"}]})
    assert revealed["sealed_files"] == [waiting[1]]
    # the resolution folded: the kept file waits for unseal, which publishes it
    first = new()
    folder = folded(first, entry(2, "orders", faction="red", pending=pending["red"]))
    folder.fold(entry(3, "resolve", files_revealed=[]))
    assert folder.state["sealed_files"] == [waiting[1]]
    folder.fold(entry(4, "resolve", files_revealed=[{"file": "x"}]))
    assert folder.state["sealed_files"] == [waiting[1]]
    folder.fold(entry(5, "unseal", files_revealed=[{"file": "r.yaml"}]))
    assert folder.state["sealed_files"] == []
