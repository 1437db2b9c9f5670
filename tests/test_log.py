"""pbem.log's pure functions, in-process: what a resolution, an undo and an unseal leave of
the engine's fields, which steps an undo takes back, the corrections every player reads,
and the heads a signed file may name (docs/design.md "Log entries", docs/verifying.md
section 10)."""

from __future__ import annotations

from typing import Any

from pbem.canonical import canonical_json
from pbem.game import Phase
from pbem.log import (
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
