"""A Red Russia campaign played entirely by mail for two turns, against the test servers on
127.0.0.1: dovecot for the referee's mailbox (IMAP), aiosmtpd for the mail going out.

The moderator only ever runs `pbem inbox --imap URL` and `pbem mail --send --smtp HOST:PORT`.
The players only ever read what reached the SMTP server for them: they take each orders
template attached to their mail, sign it with their own key (`pbem sign`), and send it back
in answer, the file and its .sig attached, into the referee's IMAP mailbox. Nothing else is
done by hand: no `apply`, no `resolve`, no editing of the campaign.
"""

from __future__ import annotations

import json
import sys
from collections import Counter
from collections.abc import Callable
from email.message import EmailMessage
from pathlib import Path
from typing import Any

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))
from conftest import Result, git, key_of  # noqa: E402
from test_mail import PLAYERS, Server, player_mail
from test_mail import smtp_server as smtp_server  # noqa: E402 - the fixture
from test_mail_crash import imap as imap  # noqa: E402 - the fixture
from test_mail_crash import journal

from pbem import api, yamlio  # noqa: E402
from pbem.campaign import Campaign  # noqa: E402
from pbem.schedule import opening_step  # noqa: E402

PLAYER_OF = {"ann@example.org": "Ann <ann@example.org>", "bob@example.org": "Bob <bob@example.org>",
             "cy@example.org": "Cy <cy@example.org>"}
MAX_ROUNDS = 80


def templates(msg: EmailMessage) -> list[tuple[str, bytes]]:
    """The orders templates attached to a mail (name, bytes)."""
    out = []
    for part in msg.iter_attachments():
        name = part.get_filename() or ""
        if name.startswith("orders-") and name.endswith(".yaml"):
            payload = part.get_payload(decode=True)
            assert isinstance(payload, bytes)
            out.append((name, payload))
    return out


def test_two_turns_played_by_mail(tmp_path: Path, pbem: Callable[..., Result],
                                  smtp_server: Callable[..., Server], imap: Callable[[], Any],
                                  monkeypatch: pytest.MonkeyPatch) -> None:
    camp, keys = tmp_path / "camp", tmp_path / "keys"
    api.new_campaign(camp, "red_russia", seed="by-mail", name="camp", keys_dir=keys,
                     players=PLAYERS)
    smtp = smtp_server()
    mailbox = imap()
    monkeypatch.setenv("PBEM_IMAP_PASSWORD", mailbox.password)
    start = api.status(camp)
    sent_at: dict[str, int] = {}  # Message-ID of each report -> the step it was sent at
    seen = 0  # messages of the SMTP server the players have read
    orders_mails: list[str] = []

    player_of = {"red": "ann@example.org", "siberian": "bob@example.org",
                 "south": "cy@example.org", "north": "cy@example.org"}
    awaited: dict[tuple[str, int], set[int]] = {}  # (player, turn) -> phases awaited in
    for n in range(MAX_ROUNDS):
        status = api.status(camp)
        if status["over"] or status["turn"] >= start["turn"] + 2:
            break
        campaign = Campaign.open(camp)
        opener = opening_step(campaign, campaign.state())
        for faction in status["awaiting"]:
            awaited.setdefault((player_of[faction], status["turn"]), set()).add(opener)
        # the moderator: the reports (and answers) go out
        r = pbem("-C", camp, "mail", "--send", "--smtp", smtp.address)
        assert r.code == 0, r.err
        for m in smtp.messages[seen:]:
            if m["message"]["X-Pbem-Kind"] == "report":
                sent_at[str(m["message"]["Message-ID"])] = status["seq"]
        # the players: each signs the templates mailed to them and answers with them
        box = mailbox.login()
        answered = 0
        for m in smtp.messages[seen:]:
            msg, to = m["message"], m["to"][0]
            files = []
            for name, raw in templates(msg):
                folder = tmp_path / "players" / to / f"round-{n:03d}"
                folder.mkdir(parents=True, exist_ok=True)
                path = folder / name
                path.write_bytes(raw)
                named = yamlio.load_untrusted(raw, name).data["faction"]
                faction = named if isinstance(named, str) else named[0]  # one key a player
                signed = pbem("sign", path, "--key", key_of(keys, faction))
                assert signed.code == 0, signed.err
                files.append(path)
            if files:
                mid = f"<round-{n}-{to.split('@')[0]}@example.org>"
                reply = player_mail(PLAYER_OF[to], f"Re: {msg['Subject']}", mid=mid, files=files)
                reply["In-Reply-To"] = str(msg["Message-ID"])
                assert box.append("INBOX", None, None, reply.as_bytes())[0] == "OK"
                orders_mails.append(mid)
                answered += 1
        box.logout()
        seen = len(smtp.messages)
        assert answered, f"round {n}: {status['awaiting']} awaited, but no template was mailed"
        # the moderator: the orders come in; complete phases resolve
        r = pbem("-C", camp, "inbox", "--imap", mailbox.url(), "--json")
        assert r.code == 0, r.err
        result = json.loads(r.out)
        assert result["rejected"] == 0, result
        assert result["accepted"] == answered, result
        assert api.status(camp)["seq"] > status["seq"], f"round {n}: nothing was recorded"
    else:
        raise AssertionError(f"two turns took more than {MAX_ROUNDS} rounds of mail")

    # the last answers and the reports of the new turn go out
    assert pbem("-C", camp, "mail", "--send", "--smtp", smtp.address).code == 0
    end = api.status(camp)
    assert end["turn"] == start["turn"] + 2  # the turn advanced twice
    assert "turn-0002" in git(camp, "tag").split()
    played = {(e["turn"], e["phase"]) for e in api.log(camp) if e["type"] == "resolve"}
    assert {(0, "setup-place"), (1, "purchase"), (1, "action"), (1, "victory")} <= played, played
    r = pbem("-C", camp, "audit", "--json")
    assert r.code == 0 and json.loads(r.out)["ok"], r.out
    assert git(camp, "status", "--porcelain") == ""

    # every orders mail taken once and answered once, accepted
    record = yamlio.read_trusted(camp / ".pbem" / "inbox.yaml")["messages"]
    assert sorted(record) == sorted(orders_mails)
    assert {x["outcome"] for x in record.values()} == {"accepted"}
    replies = Counter(str(m["message"]["In-Reply-To"]) for m in smtp.messages
                      if m["message"]["X-Pbem-Kind"] == "reply")
    assert replies == Counter(dict.fromkeys(orders_mails, 1))

    # each player got exactly the current mails: each message once, every report the one
    # of the step it was sent at, and nothing superseded ever went out
    by_player: dict[str, Counter[str]] = {}
    for m in smtp.messages:
        by_player.setdefault(m["to"][0], Counter())[str(m["message"]["Message-ID"])] += 1
    assert set(by_player) == set(PLAYER_OF)
    assert all(n == 1 for counts in by_player.values() for n in counts.values()), by_player
    for m in smtp.messages:
        msg = m["message"]
        if msg["X-Pbem-Kind"] == "report":
            mid = str(msg["Message-ID"])
            assert int(msg["X-Pbem-Step"]) == sent_at.get(mid, end["seq"]), mid
    records = journal(camp)
    assert not [r for r in records if r.get("superseded") and r["sent"]]
    assert all(r["sent"] for r in records if not r.get("superseded"))  # nothing left behind
    reports = Counter(m["to"][0] for m in smtp.messages if m["message"]["X-Pbem-Kind"] == "report")
    rounds = len(set(sent_at.values())) + 1
    assert all(reports[p] <= rounds for p in PLAYER_OF), (reports, rounds)
    # the mail policy: a player's reports of a turn are one a phase they were awaited in, and
    # one digest at most (Cy, who plays two factions, no more than the others)
    sent = [r for r in records if r["kind"] == "report" and r["sent"]]
    per_turn = Counter((r["to"], r["turn"]) for r in sent)
    for (to, turn), count in per_turn.items():
        phases = len(awaited.get((to, turn), set()))
        digests = sum(1 for r in sent if (r["to"], r["turn"]) == (to, turn) and r["why"] == "digest")
        assert digests <= 1 and count <= phases + 1, (to, turn, count, phases)
    assert {r["why"] for r in sent} <= {"awaited", "digest", "first", "over"}
    # an ordinary turn (the first): fewer reports than phases, for those who wait their turn
    phases_of_turn = len(set().union(*(v for (_, t), v in awaited.items() if t == 1)))
    assert sum(per_turn[(p, 1)] for p in PLAYER_OF) < len(PLAYER_OF) * phases_of_turn
