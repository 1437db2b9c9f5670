"""Undo and adjust keep the seed chain and the audit whole (docs/design.md "Undo and re-rolls").

An undo takes the state back to what it was before the step it undoes, every engine field
included (the orders pending, the players' salt commitments, the sealed orders files), except
the seed chain: a batch whose seed was published with its dice is never used again, so a
resolution after an undo rolls with a fresh element that nobody could compute beforehand.
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Any

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from pbem import api, yamlio
from pbem.campaign import Campaign
from pbem.errors import Rejected
from tests.conftest import git, play


def _apply_bot(root: Path, faction: str, name: str) -> None:
    path = root.parent / f"{root.name}-{name}-{faction}.yaml"
    yamlio.write_atomic(path, yamlio.dump(api.bot(root, faction, seed="undo")))
    api.apply(root, [path])


def _batches(root: Path) -> list[int]:
    """The seed-chain batch of every resolution in the log, in order."""
    from pbem.campaign import Campaign

    return [e["batch"] for e in Campaign.open(root).entries() if e["type"] == "resolve"]


def _state(root: Path) -> dict[str, Any]:
    out: dict[str, Any] = yamlio.read_trusted(root / "state.yaml")
    return out


def _assert_audit_clean(root: Path) -> None:
    report = api.audit(root)
    assert report["ok"], report["problems"]


def _snapshot_at(root: Path, rev: str) -> dict[str, Any]:
    out: dict[str, Any] = yamlio.load_trusted(git(root, "show", f"{rev}:state.yaml"))
    return out


def _same_but_chain(undone: dict[str, Any], previous: dict[str, Any]) -> None:
    """Every engine field as it was before the step taken back, but seq, head and heads
    (the undo is a step of its own) and the batch (the chain never goes back)."""
    skip = {"seq", "head", "heads", "batch"}
    assert {k: v for k, v in undone.items() if k not in skip} == \
        {k: v for k, v in previous.items() if k not in skip}
    assert undone["heads"][:-1] == previous["heads"]


def test_undo_of_orders_in_the_purchase_phase_then_play_on_audits_clean(new_campaign) -> None:
    # the reproduction: a seeded campaign, play to the purchase phase, undo, apply the rest
    root = new_campaign()
    status = play(root, until_turn=1, phase="purchase")
    previous = _state(root)
    _apply_bot(root, status["awaiting"][0], "a")
    api.undo(root, "x")
    undone = _state(root)
    _same_but_chain(undone, previous)
    assert undone["batch"] == previous["batch"]
    for faction in api.status(root)["awaiting"]:
        _apply_bot(root, faction, "b")
    _assert_audit_clean(root)
    used = _batches(root)
    assert used == list(range(1, len(used) + 1)), f"chain elements reused or skipped: {used}"


def test_undo_of_a_resolution_burns_its_batch(new_campaign) -> None:
    root = new_campaign()
    play(root, until_turn=1, phase="purchase")
    for faction in api.status(root)["awaiting"]:  # the last file completes the phase
        _apply_bot(root, faction, "a")
    resolved = _state(root)
    assert _entries(root)[-1]["type"] == "resolve"
    previous = _snapshot_at(root, "HEAD~1")  # the step before the last resolution
    assert resolved["batch"] == previous["batch"] + 1
    api.undo(root, "the wrong file")  # takes back the resolution
    undone = _state(root)
    # the orders are pending again, with the salt commitments they were checked against
    # and the sealed orders files still waiting, but the batch stays used: its seed is public
    _same_but_chain(undone, previous)
    assert undone["batch"] == resolved["batch"]
    api.resolve(root)
    assert _state(root)["batch"] == resolved["batch"] + 1
    _assert_audit_clean(root)
    used = _batches(root)
    assert used == list(range(1, len(used) + 1)), f"chain elements reused or skipped: {used}"
    redo = [e for e in _entries(root) if e["type"] == "resolve"][-2:]
    assert redo[0]["seed"] != redo[1]["seed"]


def test_unseal_cannot_be_undone(new_campaign) -> None:
    # its openings are public once committed; the last step in force stays the one before
    root = new_campaign()
    play(root, until_turn=1, phase="purchase")
    api.unseal(root, force=True)
    before = _entries(root)[-1]["seq"]
    api.undo(root, "changed my mind")
    last = _entries(root)[-1]
    assert last["type"] == "undo" and last["undoes"] < before
    _assert_audit_clean(root)


def _entries(root: Path) -> list[dict[str, Any]]:
    from pbem.campaign import Campaign

    return list(Campaign.open(root).entries())


# --- any sequence of steps ------------------------------------------------------------------

def _play_steps(root: Path, steps: list[str], correction: Callable[[str], list[dict[str, Any]]]) -> None:
    """Each step in turn: `orders` (the bot's, for the first faction awaited), `resolve`
    (with defaults for the missing), `undo`, or any other name an adjustment of the events
    `correction` gives for it (none: nothing); a step refused changes nothing."""
    for i, step in enumerate(steps):
        status = api.status(root)
        if status["over"]:
            break
        try:
            if step == "orders":
                if status["awaiting"]:
                    _apply_bot(root, status["awaiting"][0], f"s{i}")
            elif step == "resolve":
                api.resolve(root, nmr=True)
            elif step == "undo":
                api.undo(root, f"step {i}")
            elif events := correction(step):
                fix = root.parent / f"{root.name}-adjust-{i}.yaml"
                fix.write_text(yamlio.dump(events))
                api.adjust(root, fix, f"{step} {i}")
        except Rejected:
            continue  # nothing to undo, or nothing awaited: a refusal changes nothing


STEPS = st.lists(st.sampled_from(["orders", "resolve", "undo", "adjust"]), min_size=1, max_size=7)


@settings(max_examples=6, deadline=None, derandomize=True,
          suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow])
@given(steps=STEPS)
def test_any_sequence_of_apply_resolve_undo_adjust_audits_clean(new_campaign, steps) -> None:

    root = new_campaign(name=f"prop-{next(_COUNTER)}")
    play(root, until_turn=1, phase="purchase")

    def adjustment(step: str) -> list[dict[str, Any]]:
        money = _state(root)["game"]["money"]["red"]
        return [{"type": "set_resources", "faction": "red", "money": money + 1}]

    _play_steps(root, steps, adjustment)
    _assert_audit_clean(root)
    used = _batches(root)
    assert used == list(range(1, len(used) + 1)), f"chain elements reused or skipped: {used}"


_COUNTER = iter(range(10**6))

SECRET_STEPS = st.lists(st.sampled_from(["orders", "resolve", "undo", "discard", "give"]),
                        min_size=2, max_size=7)


@settings(max_examples=8, deadline=None, derandomize=True,
          suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow])
@given(steps=SECRET_STEPS)
def test_any_sequence_among_secrets_audits_clean_and_final_after_unseal(new_campaign, steps) -> None:
    """From the action phase, whose orders seal their battles' spending, with every hand
    sealed: orders, resolutions, undos and the corrections that open a card out of a hand or
    seal one into it, in any order; the public audit is clean, and after unseal the final
    audit recomputes every hidden value."""
    from pbem.crypto import sealed

    root = new_campaign(name=f"secret-{next(_COUNTER)}")
    play(root, until_turn=1, phase="action")

    def correction(step: str) -> list[dict[str, Any]]:
        camp = Campaign.open(root)
        cards = camp.state()["game"]["cards"]
        if step == "discard" and cards["hands"].get("red"):
            card = sealed.open_node(camp.id, cards["hands"]["red"][0], camp.referee_identities()).value
            return [{"type": "discard_card", "holder": "red", "card": card}]
        if step == "give" and cards["discard"]:
            return [{"type": "give_card", "holder": "south", "card": cards["discard"][-1]}]
        return []

    _play_steps(root, steps, correction)
    _assert_audit_clean(root)
    api.unseal(root, force=True)
    final = api.audit(root, final=True)
    assert final["ok"], final["problems"]


# --- re-rolls and adjustments stand out -----------------------------------------------------


def test_a_re_roll_and_an_adjustment_are_listed_by_audit_and_in_the_public_report(
        new_campaign, pbem) -> None:
    from pbem.reports.context import build_context
    from pbem.reports.render import render_context

    root = new_campaign()
    play(root, until_turn=1, phase="action")
    while True:  # the action phase of the first faction that rolls dice
        status = api.status(root)
        _apply_bot(root, status["awaiting"][0], f"r{_state(root)['seq']}")
        last = _entries(root)[-1]
        if last["type"] == "resolve" and last.get("dice"):
            break
    undone = last
    api.undo(root, "Bob's orders went to the wrong thread")
    api.resolve(root)
    again = _entries(root)[-1]
    fix = root.parent / "fix.yaml"
    money = _state(root)["game"]["money"]["red"]
    fix.write_text(f"- type: set_resources\n  faction: red\n  money: {money + 2}\n")
    api.adjust(root, fix, "a lost purchase")

    result = api.audit(root)
    assert result["ok"], result["problems"]
    undo, adjust = result["corrections"][-2:]
    assert undo["kind"] == "undo" and undo["undoes"] == undone["seq"]
    assert undo["reason"] == "Bob's orders went to the wrong thread"
    assert undo["dice"] == [{k: d[k] for k in ("label", "sides", "value")} for d in undone["dice"]]
    assert (undo["batch"], undo["rolled_again"], undo["new_batch"]) == \
        (undone["batch"], again["seq"], again["batch"])
    assert undo["new_batch"] == undo["batch"] + 1
    assert adjust == {"kind": "adjust", "seq": again["seq"] + 1, "turn": again["turn"],
                      "phase": adjust["phase"], "reason": "a lost purchase", "events": 1}

    out = pbem("-C", root, "audit").out
    first = undone["dice"][0]
    assert (f"correction: step {undo['seq']}: the referee took back step {undone['seq']}" in out)
    assert f"a RE-ROLL: the {len(undone['dice'])} dice of batch {undone['batch']}" in out
    assert f"{first['label']}={first['value']}" in out
    assert f"were replaced by batch {again['batch']} in step {again['seq']}" in out
    assert "the referee adjusted the position (1 event): a lost purchase" in out

    ctx = build_context(root, "public")
    text = render_context(ctx, Campaign.open(root).data.folder, "md")
    assert "**Referee corrections**" in text and "a RE-ROLL" in text and "a lost purchase" in text


def _turn_end_with_a_sealed_file(tmp_path: Path) -> tuple[Path, dict[str, Any]]:
    """The demo's first turn: north's action orders hold a secret part, so their file is
    published by the step that ends the turn (the victory phase); that step's entry."""
    from pbem import demo

    root = tmp_path / "demo"
    demo.run(root, turns=1)
    entries = list(Campaign.open(root).entries())
    last = entries[-1]
    assert last["type"] == "resolve" and last.get("files_revealed"), "the turn's end publishes"
    return root, last


def test_a_file_an_undone_step_published_may_be_published_again_as_it_was(tmp_path: Path) -> None:
    """An undo erases nothing: the file the undone turn's end published stays in the tree,
    and the resolution that ends the turn again (or unseal) names it again, the very same
    bytes; the audit accepts that, and the final audit after unseal too."""
    root, ending = _turn_end_with_a_sealed_file(tmp_path)
    published = ending["files_revealed"][0]["file"]
    api.undo(root, "the victory phase again")
    api.resolve(root)
    again = list(Campaign.open(root).entries())[-1]
    assert [f["file"] for f in again["files_revealed"]] == [published]
    _assert_audit_clean(root)
    api.undo(root, "once more")
    api.undo(root, "and the movement before it")
    api.unseal(root, force=True)
    report = api.audit(root, final=True)
    assert report["ok"], report["problems"]


def test_a_file_published_again_must_hold_what_was_published_first(tmp_path: Path) -> None:
    """The same path named again after an undo with other bytes is still refused."""
    root, ending = _turn_end_with_a_sealed_file(tmp_path)
    published = ending["files_revealed"][0]["file"]
    api.undo(root, "the victory phase again")
    api.resolve(root)
    seq = list(Campaign.open(root).entries())[-1]["seq"]
    # a dishonest referee rewrites the file the new step publishes, in that step's commit
    path = root / published
    path.write_text(path.read_text() + "# changed\n")
    git(root, "commit", "-q", "--amend", "--no-edit", "--", published)
    report = api.audit(root)
    assert any(f"log/{seq:06d}.yaml" in p and published in p for p in report["problems"]), report
