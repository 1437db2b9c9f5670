"""pbem.log, in-process: its pure functions (what a resolution, an undo and an unseal leave
of the engine's fields, which steps an undo takes back, the corrections every player reads,
and the heads a signed file may name: docs/design.md "Log entries", docs/verifying.md
section 10), and Folder, the fold of the log into the engine's state step by step, with a
small game made here so that every outcome is exact: a state that is a pure function of the
entries, that an undo can take back, and whose `head` is the hash chain's last link; and the
files kept sealed past a turn."""

from __future__ import annotations

import copy
from pathlib import Path
from typing import Any

import pytest

from pbem.canonical import canonical_json
from pbem.contributions import MARK, PHASE
from pbem.dice import DiceMismatch, Rng
from pbem.game import GameData, Phase, clone
from pbem.log import (
    Folder,
    after_resolve,
    after_undo,
    after_unseal,
    corrections,
    describe_correction,
    entry_hash,
    entry_name,
    finish,
    make_entry,
    recorded,
    sealed_files,
    sealed_phase,
    undone_steps,
)

NODE = {"kind": "orders-file", "id": "t1:action:red:5", "owner": "red", "turn": 1,
        "commitment": "c-file"}


def entry(seq: int, kind: str, **fields: Any) -> dict[str, Any]:
    return {"seq": seq, "type": kind, "turn": 1, "phase": "action", "summary": f"step {seq}",
            **fields}


def test_entry_names_are_six_digits() -> None:
    assert entry_name(7) == "log/000007.yaml" and entry_name(123456) == "log/123456.yaml"


def test_recorded_orders_of_one_faction_and_of_several() -> None:
    assert recorded({"faction": "red", "pending": {"file": "a"}}) == {"red": {"file": "a"}}
    several = {"factions": ["south", "north"], "faction": "ignored",
               "pending": {"south": {"file": "s"}, "north": {"file": "n"}, "red": {"file": "r"}}}
    assert recorded(several) == {"south": {"file": "s"}, "north": {"file": "n"}}


def test_after_resolve_commits_the_next_salts_and_moves_the_batch() -> None:
    before = {"pending": {"red": {"salt_next": "n-red"}, "south": {"salt_next": None},
                          "north": {}},
              "salt_commits": {"south": "old-south", "siberian": "old-sib"}, "batch": 4,
              "last_salts": {"red": "x"}}
    after = after_resolve(before, {"batch": 5, "salts": {"red": "s-red"}})
    assert after == {"pending": {}, "batch": 5,
                     "salt_commits": {"south": "old-south", "siberian": "old-sib", "red": "n-red"},
                     "last_salts": {"red": "s-red"}, "sealed_files": []}
    assert before["salt_commits"] == {"south": "old-south", "siberian": "old-sib"}  # not changed
    # a resolution without a batch (the contribution round) keeps the counter; its salts
    # become the contributions
    kept = after_resolve({"batch": 3}, {"hidden_draws": True, "salts": {"red": "c"}})
    assert kept["batch"] == 3 and kept["contributions"] == {"red": "c"}
    assert after_resolve({}, {})["batch"] == 0 and "contributions" not in after_resolve({}, {})
    assert after_resolve({}, {})["last_salts"] == {}  # a resolution without salts mixes none
    assert after_resolve({}, {"hidden_draws": True})["contributions"] == {}


def test_files_with_a_secret_wait_sealed_until_a_step_reveals_them() -> None:
    pending = {"red": {"file": "orders/r.yaml", "file_sealed": NODE, "body": {"orders": []},
                       "secret": {"commitment": "c-secret"}},
               "south": {"file": "orders/s.yaml", "body": {"orders": []}}}
    waiting = {"file": "orders/old.yaml", "node": NODE, "body": {}, "secret": "c0",
               "faction": "north"}
    before = {"pending": pending, "sealed_files": [waiting]}
    assert sealed_files(before) == [waiting, {"file": "orders/r.yaml", "node": NODE,
                                              "body": {"orders": []}, "secret": "c-secret",
                                              "faction": "red"}]
    assert after_resolve(before, {})["sealed_files"] == sealed_files(before)
    assert after_resolve(before, {"files_revealed": [{"file": "orders/r.yaml"}]})["sealed_files"] == []
    assert after_unseal(before, {"files_revealed": [{"file": "x"}]})["sealed_files"] == []
    unchanged = after_unseal(before, {})
    assert unchanged == before and unchanged is not before


def test_an_undo_goes_back_but_never_gives_a_batch_back_and_keeps_the_seats() -> None:
    previous = {"seq": 3, "head": "h3", "batch": 2, "pending": {"red": {}}, "game": {"x": 1},
                "settings": {"factions": {"red": {"player": "Ann"}}}}
    current = {"seq": 5, "head": "h5", "batch": 3, "pending": {},
               "settings": {"factions": {"red": {"player": "Bob"}}}}
    after = after_undo(previous, current)
    assert after == {"batch": 3, "pending": {"red": {}}, "game": {"x": 1},
                     "settings": {"factions": {"red": {"player": "Bob"}}}}
    after["settings"]["factions"]["red"]["player"] = "Cy"
    assert current["settings"]["factions"]["red"]["player"] == "Bob"  # a copy
    no_seats = after_undo(previous, {"seq": 5})
    assert no_seats["batch"] == 0 and no_seats["settings"] == previous["settings"]


def test_the_steps_in_force_and_the_undos_that_took_the_others_back() -> None:
    log = [entry(1, "new"), entry(2, "orders"), entry(3, "resolve"), entry(4, "undo", undoes=3),
           entry(5, "seat"), entry(6, "resolve"), entry(7, "undo", undoes=6),
           entry(8, "undo", undoes=2), entry(9, "adjust")]
    # `new` and `seat` are never taken back: an undo reaches past them
    assert undone_steps(log) == ([9], {3: 4, 6: 7, 2: 8})


def test_corrections_name_every_undo_adjust_and_order_entered_on_behalf() -> None:
    dice = [{"label": f"d{i}", "sides": 6, "value": i % 6 + 1, "extra": 0} for i in range(14)]
    log = [entry(1, "new"),
           entry(2, "orders", faction="red", on_behalf="by phone"),
           entry(3, "resolve", batch=1, dice=dice),
           entry(4, "undo", undoes=3, reason="a late mail"),
           entry(5, "resolve", batch=2),
           entry(6, "adjust", reason="a lost purchase", events=[{}, {}]),
           entry(7, "orders", factions=["south", "north"], on_behalf="in the forum"),
           entry(8, "undo", undoes=7)]
    found = corrections(log)
    assert found[0] == {"kind": "on_behalf", "seq": 2, "turn": 1, "phase": "action",
                        "reason": "by phone", "factions": ["red"]}
    assert found[1] == {"kind": "undo", "seq": 4, "turn": 1, "phase": "action",
                        "reason": "a late mail", "undoes": 3, "undone_type": "resolve",
                        "undone_summary": "step 3", "batch": 1,
                        "dice": [{k: d[k] for k in ("label", "sides", "value")} for d in dice],
                        "rolled_again": 5, "new_batch": 2}
    assert found[2] == {"kind": "adjust", "seq": 6, "turn": 1, "phase": "action",
                        "reason": "a lost purchase", "events": 2}
    assert found[3]["factions"] == ["south", "north"]
    assert found[4] == {"kind": "undo", "seq": 8, "turn": 1, "phase": "action", "reason": "",
                        "undoes": 7, "undone_type": "orders", "undone_summary": "step 7"}
    assert len(found) == 5
    lines = [describe_correction(c) for c in found]
    assert lines[0] == ("step 2: the referee entered the orders of red, given by another "
                        "channel and not signed: by phone")
    assert lines[1] == ("step 4: the referee took back step 3 (step 3): a late mail; a RE-ROLL: "
                        "the 14 dice of batch 1 (" + ", ".join(f"d{i}={i % 6 + 1}" for i in range(12))
                        + " and 2 more) were replaced by batch 2 in step 5")
    assert lines[2] == "step 6: the referee adjusted the position (2 events): a lost purchase"
    assert lines[3].startswith("step 7: the referee entered the orders of south and north,")
    assert lines[4] == "step 8: the referee took back step 7 (step 7): "


def test_a_re_roll_not_yet_rolled_and_an_adjustment_of_one_event() -> None:
    log = [entry(1, "new"), entry(2, "resolve", batch=1, dice=[{"label": "a", "sides": 6, "value": 3}]),
           entry(3, "undo", undoes=2, reason="why"), entry(4, "adjust", reason="r", events=[{}])]
    undo, adjust = corrections(log)
    assert undo["rolled_again"] is None and undo["new_batch"] is None
    assert describe_correction(undo) == ("step 3: the referee took back step 2 (step 2): why; a "
                                         "RE-ROLL: the 1 dice of batch 1 (a=3) are to be rolled again")
    assert describe_correction(adjust) == "step 4: the referee adjusted the position (1 event): r"
    # a resolution of another phase, or one taken back itself, is not the roll again
    log = [entry(1, "new"), entry(2, "resolve", batch=1, dice=[{"label": "a", "sides": 6, "value": 3}]),
           entry(3, "undo", undoes=2), entry(4, "resolve", batch=2, phase="victory"),
           entry(5, "resolve", batch=3, turn=2), entry(6, "resolve", batch=4), entry(7, "undo", undoes=6),
           entry(8, "resolve", batch=5)]
    assert corrections(log)[0]["rolled_again"] == 8 and corrections(log)[0]["new_batch"] == 5


def test_twelve_dice_are_shown_and_the_rest_counted() -> None:
    def undo_of(count: int) -> str:
        dice = [{"label": f"d{i}", "sides": 6, "value": 1} for i in range(count)]
        log = [entry(1, "new"), entry(2, "resolve", batch=1, dice=dice), entry(3, "undo", undoes=2)]
        return describe_correction(corrections(log)[0])

    assert undo_of(12).endswith("d11=1) are to be rolled again")
    assert undo_of(13).endswith("d11=1 and 1 more) are to be rolled again")


def test_an_adjustment_without_a_reason_says_none() -> None:
    (adjust,) = corrections([entry(1, "new"), entry(2, "adjust")])
    assert adjust["reason"] == "" and adjust["events"] == 0
    assert describe_correction(adjust) == "step 2: the referee adjusted the position (0 events): "


def test_an_entry_is_made_with_its_fields_and_hashed_without_its_signature() -> None:
    made = make_entry(seq=4, prev="h3", kind="orders", turn=2, phase="purchase", summary="s",
                      faction="red", empty=None)
    assert made == {"seq": 4, "prev": "h3", "type": "orders", "turn": 2, "phase": "purchase",
                    "summary": "s", "faction": "red"}
    import hashlib

    assert entry_hash(made) == hashlib.sha256(canonical_json(made)).hexdigest()
    assert entry_hash({**made, "signature": "sig"}) == entry_hash(made)
    assert entry_hash({**made, "summary": "t"}) != entry_hash(made)


def test_a_resolution_taken_back_without_dice_is_no_re_roll() -> None:
    log = [entry(1, "new"), entry(2, "resolve", batch=1), entry(3, "undo", undoes=2, reason="r")]
    assert describe_correction(corrections(log)[0]) == "step 3: the referee took back step 2 (step 2): r"


def test_the_heads_a_signed_file_may_name() -> None:
    new, orders, resolve = entry(1, "new"), entry(2, "orders"), entry(3, "resolve")
    after_new = finish({}, new)
    assert after_new == {"seq": 1, "head": entry_hash(new), "heads": [entry_hash(new)]}
    after_orders = finish(after_new, orders)
    assert after_orders["heads"] == [entry_hash(new), entry_hash(orders)]
    assert after_orders["seq"] == 2 and after_orders["head"] == entry_hash(orders)
    assert finish(after_orders, resolve)["heads"] == [entry_hash(resolve)]
    assert finish({}, orders)["heads"] == [entry_hash(orders)]
    assert finish({"heads": ["older"]}, new)["heads"] == [entry_hash(new)]  # new starts afresh


def test_a_phase_is_sealed_when_several_factions_act_at_once() -> None:
    assert sealed_phase(Phase(name="p", turn=1, awaiting=("red", "south")))
    assert not sealed_phase(Phase(name="p", turn=1, awaiting=("red",)))
    assert not sealed_phase(Phase(name="p", turn=1, awaiting=()))


# ---------------------------------------------------------------------------------------
# Folder: the fold of the log, entry by entry, for a small game made here (Tally); `chained`
# makes an entry linked to the one before it (`prev`)


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


def chained(seq: int, kind: str, **fields: Any) -> dict[str, Any]:
    return {"seq": seq, "prev": f"h{seq - 1}", "type": kind, "turn": 1, "phase": "move",
            "summary": f"step {seq}", **fields}


def new(**fields: Any) -> dict[str, Any]:
    return chained(1, "new", dice=[DIE], options={"size": 2}, **fields)


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
    state = folded(chained(1, "new", dice=[DIE])).state
    assert state["game"]["options"] == {} and "settings" not in state


def test_new_replays_exactly_the_recorded_dice() -> None:
    """The set-up's draws are the recorded ones, no other: a new without them cannot fold."""
    with pytest.raises(DiceMismatch):
        folded(chained(1, "new"))
    with pytest.raises(DiceMismatch):
        folded(chained(1, "new", dice=[{**DIE, "sides": 8}]))


def test_new_with_the_contribution_round_draws_nothing_yet() -> None:
    """A `new` that asks for contributions folds to the pre-game state of those factions
    (sorted) and options; the game's set-up does not run, so nothing is drawn."""
    first = chained(1, "new", contribute=["red", "blue"], options={"size": 2})
    folder = folded(first)
    assert folder.state["game"] == {MARK: {"factions": ["blue", "red"]}, "turn": 0,
                                    "phase": PHASE, "options": {"size": 2}}
    assert folder.game.setups == 0  # type: ignore[attr-defined]
    no_options = folded(chained(1, "new", contribute=["red"])).state["game"]
    assert no_options["options"] == {}
    # an empty round is no round: the set-up runs
    assert folded(new(contribute=[])).state["game"]["die"] == 4


# ---------------------------------------------------------------------- orders, resolve


def test_orders_wait_in_pending_and_leave_the_state_before_as_it_was() -> None:
    """Orders are held in `pending` by faction (one file for several factions: each of
    them) and change nothing else; the state before is not changed."""
    first, one = new(), chained(2, "orders", faction="red", pending=RED)
    folder = folded(first)
    before = copy.deepcopy(folder.state)
    kept = folder.state
    folder.fold(one)
    assert kept == before  # a new state, not the old one changed
    assert folder.state == {**before, "pending": {"red": RED}, "seq": 2,
                            "head": entry_hash(one), "heads": heads(first, one)}
    two = chained(3, "orders", factions=["blue"], pending={"blue": BLUE, "green": {}})
    folder.fold(two)
    assert folder.state["pending"] == {"red": RED, "blue": BLUE}
    assert folder.state["heads"] == heads(first, one, two)


def test_a_resolution_applies_its_events_and_clears_the_orders() -> None:
    """`resolve` folds the game through its events and sets the engine's fields as
    after_resolve says (orders gone, batch used, salts committed); the chain's heads start
    again from it."""
    first, orders = new(), chained(2, "orders", faction="red", pending=RED)
    resolve = chained(3, "resolve", events=[{"add": 5}, {"add": -2}], batch=7, salts={"red": "s"})
    folder = folded(first, orders)
    before = copy.deepcopy(folder.state)
    state = folder.fold(resolve)
    assert state == {"pending": {}, "batch": 7, "salt_commits": {"red": "n-red"},
                     "last_salts": {"red": "s"}, "sealed_files": [],
                     "game": {**before["game"], "total": 13},
                     "seq": 3, "head": entry_hash(resolve), "heads": heads(resolve)}
    assert folded(first, chained(2, "resolve")).state["game"] == before["game"]  # no events


def test_an_adjustment_applies_its_events_and_keeps_the_orders() -> None:
    """`adjust` changes the game by its events only: orders pending stay pending, the
    seed-chain counter is not moved, and the heads grow."""
    first, orders = new(), chained(2, "orders", faction="red", pending=RED)
    adjust = chained(3, "adjust", events=[{"add": 1}], batch=9, reason="a lost unit")
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
    first, orders = new(settings=settings), chained(2, "orders", faction="red", pending=RED)
    seat = chained(3, "seat", seats={"red": {"player": "Cy"}}, reason="Ann left")
    folder = folded(first, orders)
    before = copy.deepcopy(folder.state)
    state = folder.fold(seat)
    assert state == {**before, "settings": {"factions": {"red": {"player": "Cy"},
                                                         "blue": {"player": "Bo"}}, "x": 1},
                     "seq": 3, "head": entry_hash(seat), "heads": heads(first, orders, seat)}
    assert folder.stack[-1][0] == 2  # a seat is not a step an undo takes back
    # without settings yet, the seats make them
    bare = folded(new(), chained(2, "seat", seats={"red": {"player": "Cy"}})).state
    assert bare["settings"] == {"factions": {"red": {"player": "Cy"}}}
    assert "settings" not in folded(new(), chained(2, "seat")).state


def test_a_power_seated_by_a_resolution_or_an_adjustment() -> None:
    """A resolve or adjust whose events made a power enter records its seat; orders and
    the set-up never seat anyone."""
    seats = {"green": {"player": "Di"}}
    for kind in ("resolve", "adjust"):
        state = folded(new(), chained(2, kind, seats=seats)).state
        assert state["settings"] == {"factions": seats}, kind
    assert "settings" not in folded(new(seats=seats)).state
    orders = chained(2, "orders", faction="red", pending=RED, seats=seats)
    assert "settings" not in folded(new(), orders).state


def test_unseal_publishes_the_files_kept_sealed() -> None:
    """`unseal` with files revealed leaves none waiting, and changes nothing else; it is no
    step an undo takes back."""
    waiting = [{"file": "orders/red.yaml", "keep": True}]
    first = new()
    folder = folded(first)
    folder.state["sealed_files"] = waiting
    before = copy.deepcopy(folder.state)
    unseal = chained(2, "unseal", files_revealed=[{"file": "orders/red.yaml"}])
    assert folder.fold(unseal) == {**before, "sealed_files": [], "seq": 2,
                                   "head": entry_hash(unseal), "heads": heads(first, unseal)}
    assert folder.stack == []


def test_an_unknown_entry_type_is_refused() -> None:
    """The log holds only the known entry types; another cannot be folded. The audit
    reports the reason as it is ("cannot be replayed: ..."), naming the types it knows."""
    with pytest.raises(ValueError) as exc:
        folded(new(), chained(2, "merge"))
    assert str(exc.value) == ("unknown entry type 'merge' (known: new, orders, resolve, adjust, "
                              "undo, unseal, seat, override)")


# ------------------------------------------------------------------------------- undo


def test_an_undo_gives_back_the_state_before_the_step_it_takes_back() -> None:
    """An undo folds to the state before the last step in force (seq and head of the undo
    itself, the heads grown by it), except that the batch used is not given back; a second
    undo takes back the step before."""
    first, orders = new(), chained(2, "orders", faction="red", pending=RED)
    resolve = chained(3, "resolve", events=[{"add": 5}], batch=7)
    folder = folded(first, orders)
    after_orders = copy.deepcopy(folder.state)
    folder.fold(resolve)
    assert [seq for seq, _ in folder.stack] == [2, 3]
    undo = chained(4, "undo", undoes=3)
    state = folder.fold(undo)
    assert state == {**after_orders, "batch": 7, "seq": 4, "head": entry_hash(undo),
                     "heads": [*after_orders["heads"], entry_hash(undo)]}
    again = chained(5, "undo", undoes=2)
    assert folder.fold(again)["pending"] == {}
    assert folder.stack == []
    with pytest.raises(ValueError, match="^nothing to undo$"):  # the audit reports it as is
        folder.fold(chained(6, "undo", undoes=1))


def test_an_undo_must_name_the_last_step_in_force() -> None:
    """An undo that names another step than the last one in force is refused."""
    folder = folded(new(), chained(2, "orders", faction="red", pending=RED),
                    chained(3, "adjust", events=[]))
    with pytest.raises(ValueError, match="^undo names step 2 but the last step in force is 3$"):
        folder.fold(chained(4, "undo", undoes=2))


def test_only_orders_resolutions_and_adjustments_can_be_taken_back() -> None:
    """set-up, seat, unseal and undo itself are never on the undo stack: an undo reaches
    past them to the last orders, resolve or adjust."""
    folder = folded(new())
    with pytest.raises(ValueError, match="^nothing to undo$"):
        folder.fold(chained(2, "undo", undoes=1))
    folder = folded(new(), chained(2, "orders", faction="red", pending=RED),
                    chained(3, "seat", seats={"red": {"player": "Cy"}}), chained(4, "unseal"))
    state = folder.fold(chained(5, "undo", undoes=2))
    assert state["pending"] == {} and state["settings"] == {"factions": {"red": {"player": "Cy"}}}


def test_a_reader_that_can_fetch_the_state_again_keeps_no_copy() -> None:
    """With `recall` set, the undo stack keeps that function (not the state) for the next
    step, an undo calls it for the state to go back to, and `recall` serves one fold only."""
    first, orders = new(), chained(2, "orders", faction="red", pending=RED)
    folder = folded(first)
    fetched = {"pending": {}, "game": {"fetched": True}, "seq": 1, "head": "x"}

    def recall() -> dict[str, Any]:
        return copy.deepcopy(fetched)

    folder.recall = recall
    folder.fold(orders)
    assert folder.stack == [(2, recall)] and folder.recall is None
    folder.fold(chained(3, "adjust", events=[]))
    assert isinstance(folder.stack[-1][1], dict)  # recall was for one fold
    folder.fold(chained(4, "undo", undoes=3))
    state = folder.fold(chained(5, "undo", undoes=2))
    assert state["game"] == {"fetched": True} and state["pending"] == {}
    # a step that is not taken back ignores the recall, and still clears it
    folder.recall = recall
    folder.fold(chained(6, "seat"))
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
    folder = folded(first, chained(2, "orders", faction="red", pending=pending["red"]))
    folder.fold(chained(3, "resolve", files_revealed=[]))
    assert folder.state["sealed_files"] == [waiting[1]]
    folder.fold(chained(4, "resolve", files_revealed=[{"file": "x"}]))
    assert folder.state["sealed_files"] == [waiting[1]]
    folder.fold(chained(5, "unseal", files_revealed=[{"file": "r.yaml"}]))
    assert folder.state["sealed_files"] == []
