"""`pbem mail --send` sends what is current: a report of a past phase, or a reminder that a
newer one replaces, is kept in the outbox as superseded and never sent; answers to a
player's orders mail are never superseded."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Any

import test_mail
from test_mail import PLAYERS, Server, journal

from pbem import api
from pbem.mail import loop as mailloop
from tests.conftest import Result, play

smtp_server = test_mail.smtp_server  # the SMTP server on 127.0.0.1 (a fixture)


def _camp(tmp_path: Path) -> Path:
    root = tmp_path / "camp"
    api.new_campaign(root, "red_russia", contributions=False, hot_seat=True, seed="outbox", name="camp", players=PLAYERS,
                     keys_dir=tmp_path / "keys")
    return root


def test_only_the_current_reports_are_sent(tmp_path: Path, smtp_server: Callable[..., Server],
                                           pbem: Callable[..., Result]) -> None:
    camp = _camp(tmp_path)
    first = mailloop.mail(camp)  # set-up: one report per player, not sent
    mailloop.remind(camp)
    play(camp, until_turn=0, phase="setup-reduce")
    second = mailloop.mail(camp)  # a new phase: newer reports to the same players
    assert len(first["queued"]) == len(second["queued"]) == 3
    records: list[dict[str, Any]] = journal(camp)["messages"]
    old = [r for r in records if r["n"] <= len(first["queued"]) or r["kind"] == "reminder"]
    assert old and all(r.get("superseded") for r in old)
    assert second["superseded"] == len(old)
    server = smtp_server()
    r = pbem("-C", camp, "mail", "--send", "--smtp", server.address)
    assert r.code == 0, r.err
    assert "superseded by newer ones" in r.out
    sent = {m["message_id"] for m in journal(camp)["messages"] if m.get("sent")}
    assert sent == {q["message_id"] for q in second["queued"]}
    assert len(server.messages) == 3
    assert all(not m.get("sent") for m in journal(camp)["messages"] if m.get("superseded"))
    # the superseded files are still there, for the record
    assert all((camp / ".pbem" / "outbox" / m["file"]).is_file() for m in old)
