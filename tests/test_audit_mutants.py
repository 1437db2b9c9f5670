"""`pbem audit` cases written against the survivors of mutation testing
(benchmarks/mutation.py pbem/audit.py), in the style of test_audit_tamper.py: one thing
changed, the exact problems the audit reports.
"""

from __future__ import annotations

from pathlib import Path

from test_audit_fast import camp  # noqa: F401 - a fixture

from pbem import api, audit
from pbem.campaign import Campaign


def test_a_final_audit_before_unseal_says_it_needs_unseal_and_lists_twenty_unverified_dice(
        camp: Path) -> None:  # noqa: F811
    """Before `pbem unseal` the set-up dice (rolled with the hidden key) cannot be checked:
    a final audit says it needs the unseal, then names the first twenty such dice only, and
    counts the dice it did recompute."""
    rolls = audit.dice_states(list(Campaign.open(camp).entries()))
    hidden = [r for r in rolls if r["state"] != "verified"]
    assert len(hidden) > 20 and {r["state"] for r in hidden} == {"hidden"}
    report = api.audit(camp, final=True)
    assert report["problems"] == [
        "audit --final needs the campaign to be unsealed first (pbem unseal)",
        *[f"log/{r['seq']:06d}.yaml: die {r['label']} = {r['value']} is hidden" for r in hidden[:20]]]
    assert report["ok"] is False
    assert report["checked"]["rolls_recomputed"] == len(rolls) - len(hidden) > 0


def test_audit_names_each_untracked_file_in_a_new_folder_and_writes_no_index(camp: Path) -> None:  # noqa: F811
    """An untracked file in a new folder under orders/ is named as a file (not the folder);
    a managed file touched (same content, new time) makes a plain `git status` refresh and
    rewrite the index: the audit's never does (docs/design.md "The audit": it changes nothing)."""
    import os

    extra = camp / "orders" / "extra" / "a.yaml"
    extra.parent.mkdir()
    extra.write_text("x: 1\n")
    state = camp / "state.yaml"
    stat = state.stat()
    os.utime(state, (stat.st_atime + 100, stat.st_mtime + 100))
    index = (camp / ".git" / "index").read_bytes()
    report = api.audit(camp)
    assert report["problems"] == [
        "the work tree differs from the last commit: files not committed: orders/extra/a.yaml (audit "
        "checked the committed history and changed nothing)"]
    assert (camp / ".git" / "index").read_bytes() == index
