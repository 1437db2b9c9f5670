"""The common layout of a report: the story first, commitments and dice in an appendix, a
run of orders recorded in one phase told as one line (pbem.reports.context._merged)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from pbem.reports.context import SEALED_SUFFIX, _merged

GOLDEN = Path(__file__).resolve().parents[2] / "golden" / "report"


def step(seq: int, faction: str | None = "red", kind: str = "orders", phase: str = "purchase",
         **extra: Any) -> dict[str, Any]:
    return {"seq": seq, "turn": 2, "phase": phase, "type": kind, "faction": faction,
            "summary": f"{faction} orders for {phase}{SEALED_SUFFIX}", "reason": None,
            "undone_by": None, "events": [], "dice": [],
            "sealed": [{"kind": "orders", "id": f"t2:{phase}", "owner": faction,
                        "commitment": f"{seq:064x}"}], **extra}


def test_a_run_of_orders_in_one_phase_is_one_line() -> None:
    (one,) = _merged([step(5), step(6, "south"), step(7, "north")])
    assert one["seq_label"] == "5-7" and one["seq"] == 5
    assert one["summary"] == f"orders received from red, south, north{SEALED_SUFFIX}"
    assert [s["owner"] for s in one["sealed"]] == ["red", "south", "north"]


def test_what_breaks_a_run() -> None:
    resolve = step(8, None, kind="resolve", summary="purchase resolved", events=[{"text": "x"}])
    told = _merged([step(5), step(6, "south"), resolve, step(9, phase="action"),
                    step(10, "south", phase="action"), step(11, "north", phase="initiative")])
    assert [s["seq_label"] for s in told] == ["5-6", "8", "9-10", "11"]
    # a step with a reason, taken back, or with events is told on its own
    for odd in ({"reason": "by phone"}, {"undone_by": 12}, {"events": [{"text": "e"}]},
                {"dice": [{"label": "d", "sides": 6, "value": 1}]}):
        told = _merged([step(5), step(6, "south", **odd), step(7, "north")])
        assert [s["seq_label"] for s in told] == ["5", "6", "7"], odd
    # orders not sealed keep no sealed suffix
    plain = [{**step(5), "summary": "red orders for purchase"}, step(6, "south")]
    assert _merged(plain)[0]["summary"] == "orders received from red, south"
    assert _merged([step(5)])[0]["summary"] == f"red orders for purchase{SEALED_SUFFIX}"


def test_commitments_and_dice_are_in_the_appendix_not_the_story() -> None:
    for path in sorted(GOLDEN.glob("golden-t2-*.txt")):
        text = path.read_text(encoding="utf-8")
        story, appendix = text.split("\nAPPENDIX: SEALED VALUES AND DICE\n", 1)
        assert "commitment" not in story.split("\nPOSITION after step", 1)[0], path.name
        assert " d6 = " not in story and " d6 = " in appendix, path.name
        assert "dice in this report" in appendix, path.name
        assert appendix.index("AWAITED") > 0 and "ORDERS TEMPLATE" not in appendix.split("AWAITED")[0]
