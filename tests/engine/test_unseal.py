"""`pbem unseal` publishes everything still sealed, whenever it is run: the hidden secret,
the orders not yet resolved, the files kept sealed until the turn's end, and every value
sealed by the rules or in the secret part of orders that the rules never opened (spending
for a battle still waiting for the defender's answer, or never fought). `audit --final`
then checks every one and leaves nothing unopened."""

from __future__ import annotations

from pathlib import Path

from conftest import play

from pbem import api, yamlio
from pbem.campaign import Campaign


def _final_audit_clean(root: Path) -> dict:
    report = api.audit(root, final=True)
    assert report["ok"], report["problems"]
    assert report["unopened"] == []
    return report


def test_unseal_force_with_sealed_orders_pending(tmp_path: Path) -> None:
    """The purchase phase seals each faction's orders until all are in: one is in."""
    root = tmp_path / "camp"
    api.new_campaign(root, "red_russia", contributions=False, hot_seat=True, seed="us", name="camp")
    play(root, until_turn=1, phase="purchase")
    path = tmp_path / "red.yaml"
    yamlio.write_atomic(path, yamlio.dump(api.bot(root, "red", seed="bot")))
    api.apply(root, [path])
    stored = api.status(root)
    assert stored["received"] == ["red"] and stored["phase"] == "purchase"
    pending = Campaign.open(root).state()["pending"]["red"]
    assert "sealed" in pending and not (root / pending["file"]).exists()
    before = api.audit(root)
    assert before["ok"] and before["unopened"]
    result = api.unseal(root, force=True)
    assert result["revealed"] == ["red"]
    assert (root / pending["file"]).read_bytes() == path.read_bytes()  # published as sent
    _final_audit_clean(root)


def _waiting_for_an_answer(tmp_path: Path) -> Path:
    """A campaign where a battle waits for its defender's answer (8.4, asked by mail): the
    attacker's spending (the secret part of the orders) and the orders file are sealed."""
    root = tmp_path / "camp"
    api.new_campaign(root, "red_russia", contributions=False, hot_seat=True, seed="ask", name="camp")
    play(root, until_turn=1, phase="purchase", seed="ask")
    for step in range(100):
        s = api.status(root)
        if s["phase"] == "decision":
            break
        files = []
        for faction in s["awaiting"]:
            body = api.bot(root, faction, seed="ask")
            body["standing"] = {**(body.get("standing") or {}), "retreat_before_combat": "ask"}
            path = tmp_path / "drafts" / f"{step:03d}-{faction}.yaml"
            yamlio.write_atomic(path, yamlio.dump(body))
            files.append(path)
        api.apply(root, files) if files else api.resolve(root)
    else:
        raise AssertionError("no battle asked its defender")
    return root


def test_unseal_force_while_a_battle_waits_for_the_defenders_answer(tmp_path: Path) -> None:
    root = _waiting_for_an_answer(tmp_path)
    state = Campaign.open(root).state()
    waiting = state["sealed_files"]
    assert waiting and all(not (root / w["file"]).exists() for w in waiting)
    spent = [w["secret"] for w in waiting]
    assert set(spent) <= set(c for c in _unopened_commitments(root))
    api.unseal(root, force=True)
    unsealed = list(Campaign.open(root).entries())[-1]
    assert unsealed["type"] == "unseal"
    assert {o["node"]["commitment"] for o in unsealed["opened"]} >= set(spent)
    assert [f["file"] for f in unsealed["files_revealed"]] == [w["file"] for w in waiting]
    assert all((root / w["file"]).is_file() for w in waiting)
    assert Campaign.open(root).state()["sealed_files"] == []
    _final_audit_clean(root)


def _unopened_commitments(root: Path) -> list[str]:
    from pbem.audit import _Audit

    auditor = _Audit(root, False)
    auditor.run()
    return [c for c in auditor.sealed if c not in auditor.opened]


def test_an_unseal_that_keeps_a_spending_closed(tmp_path: Path) -> None:
    """A referee who leaves one opening out of the unseal step and signs it again."""
    from test_audit_tamper import Referee

    root = _waiting_for_an_answer(tmp_path)
    spent = {w["secret"] for w in Campaign.open(root).state()["sealed_files"]}
    api.unseal(root, force=True)
    cheat = Referee(root)
    last = cheat.entry(len(cheat.log))
    assert last["type"] == "unseal"
    kept = next(o for o in last["opened"] if o["node"]["commitment"] in spent)
    last["opened"].remove(kept)
    cheat.rewrite()
    report = api.audit(root, final=True)
    what = f"{kept['node']['kind']} {kept['node']['id']} of {kept['node']['owner']}"
    assert report["problems"] == [f"unsealed, yet still sealed: {what}"]
