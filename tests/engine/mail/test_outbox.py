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
    assert "superseded" not in r.out  # this run queued nothing, so it superseded nothing
    sent = {m["message_id"] for m in journal(camp)["messages"] if m.get("sent")}
    assert sent == {q["message_id"] for q in second["queued"]}
    assert len(server.messages) == 3
    assert all(not m.get("sent") for m in journal(camp)["messages"] if m.get("superseded"))
    # the superseded files are still there, for the record
    assert all((camp / ".pbem" / "outbox" / m["file"]).is_file() for m in old)


def test_mail_says_only_what_this_run_superseded(tmp_path: Path,
                                                 pbem: Callable[..., Result]) -> None:
    camp = _camp(tmp_path)
    r = pbem("-C", camp, "mail")  # the set-up's reports, not sent
    assert r.code == 0, r.err
    assert "superseded" not in r.out
    play(camp, until_turn=0, phase="setup-reduce")
    r = pbem("-C", camp, "mail")  # the new phase's reports replace the 3 unsent ones
    assert r.code == 0, r.err
    assert ("3 older message(s) superseded by newer ones to the same player: kept in the "
            "outbox, never sent") in r.out
    # the next run queues nothing new: the same 3 are not told again
    r = pbem("-C", camp, "mail")
    assert r.code == 0, r.err
    assert "skipped" in r.out and "superseded" not in r.out
    assert mailloop.mail(camp)["superseded"] == 0
    # --again replaces the 3 reports queued by the second run, and only those are told
    r = pbem("-C", camp, "mail", "--again")
    assert r.code == 0, r.err
    assert "3 older message(s) superseded" in r.out
    records = journal(camp)["messages"]
    assert sum(1 for m in records if m.get("superseded")) == 6  # the journal keeps them all
