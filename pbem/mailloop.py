"""The mail loop: reports out, orders in, deadlines, reminders, NMR, publishing.

What `pbem mail`, `inbox`, `remind`, `tick` and `publish` do, as functions that return data
and raise PbemError (pbem/cli_mail.py prints). E-mail itself is pbem/mail.py.

Settings in campaign.yaml (all optional):

    mail:
      from: Referee <referee@example.org>   # default: the referee of campaign.yaml
      smtp: smtp.example.org:587            # for --send; the password comes from
      starttls: true                        #   PBEM_SMTP_PASSWORD and is never stored
      user: referee
      outbox: .pbem/outbox                  # relative to the campaign folder
      remote: origin                        # where `pbem publish` pushes
    deadlines:
      hours: 72                             # every phase that awaits orders
      remind_hours: 24                      # reminders this long before the deadline
      action: {hours: 48}                   # a phase's own policy (by phase name)
      "3:action": 2026-05-01T18:00:00Z      # one phase's fixed deadline (turn:phase)
    nmr: hold                               # no orders by the deadline: hold | bot | wait

A phase's deadline counts from the commit time of the step that opened it, so every clone
computes the same deadline. Which mail went out and which orders mail was applied is
recorded in `.pbem/` (git-ignored): players' addresses and traffic stay out of the shared
history.
"""

from __future__ import annotations

import email.utils
import re
import shutil
import tempfile
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import TYPE_CHECKING, Any

from pbem import yamlio
from pbem.campaign import PRIVATE, Campaign
from pbem.errors import Busy, CampaignError, PbemError, Rejected, UsageError
from pbem.game import Phase
from pbem.log import entry_name

if TYPE_CHECKING:  # pbem.mail (smtplib, imaplib, mailbox) loads only when mail is handled,
    from pbem import mail as m  # so that `pbem status` stays quick with deadlines set

INBOX = "inbox.yaml"
NMR_POLICIES = ("hold", "bot", "wait")
DEFAULT_REMIND_HOURS = 24.0
# steps that do not open a phase: the phase awaiting orders goes on after them
_NOT_OPENING = ("orders", "adjust")


# ---------------------------------------------------------------------------------------
# settings


def settings(campaign: Campaign) -> dict[str, Any]:
    found = campaign.config.get("mail") or {}
    if not isinstance(found, dict):
        raise CampaignError(f"{campaign.root / 'campaign.yaml'}: 'mail:' must be a mapping")
    return found


def outbox_of(campaign: Campaign, outbox: Path | None = None) -> m.Outbox:
    from pbem import mail as m

    folder = outbox or settings(campaign).get("outbox") or Path(PRIVATE) / "outbox"
    path = Path(folder)
    return m.Outbox(path if path.is_absolute() else campaign.root / path)


def smtp_of(campaign: Campaign, smtp: str | None, starttls: bool | None,
            user: str | None) -> m.Smtp:
    from pbem import mail as m

    conf = settings(campaign)
    where = smtp or conf.get("smtp")
    if not where:
        raise UsageError("--send needs a server: give --smtp HOST:PORT or set mail: {smtp: "
                         "HOST:PORT} in campaign.yaml")
    tls = starttls if starttls is not None else bool(conf.get("starttls", False))
    return m.Smtp.parse(str(where), starttls=tls, user=user or conf.get("user"))


def sender(campaign: Campaign) -> tuple[str, str]:
    conf = settings(campaign).get("from")
    if conf:
        name, addr = email.utils.parseaddr(str(conf))
        if addr:
            return name or "pbem referee", addr
    return campaign.referee()


def nmr_policy(campaign: Campaign) -> str:
    policy = str(campaign.config.get("nmr") or "hold")
    if policy not in NMR_POLICIES:
        raise CampaignError(f"{campaign.root / 'campaign.yaml'}: nmr: {policy!r}; choose one of "
                            f"{', '.join(NMR_POLICIES)}")
    return policy


# ---------------------------------------------------------------------------------------
# deadlines


def _hours(value: Any, where: str) -> float | None:
    if value is None:
        return None
    if isinstance(value, dict):
        if "hours" in value or "days" in value:
            return float(value.get("hours") or 0) + 24 * float(value.get("days") or 0)
        return None
    if isinstance(value, bool) or not isinstance(value, int | float):
        raise CampaignError(f"campaign.yaml deadlines: {where}: expected a number of hours or "
                            f"{{hours: N}}, not {value!r}")
    return float(value)


def _when(value: Any, where: str) -> datetime:
    if isinstance(value, datetime):
        return value if value.tzinfo else value.replace(tzinfo=UTC)
    try:
        parsed = datetime.fromisoformat(str(value).replace("Z", "+00:00"))
    except ValueError:
        raise CampaignError(f"campaign.yaml deadlines: {where}: expected a date and time like "
                            f"2026-05-01T18:00:00Z, not {value!r}") from None
    return parsed if parsed.tzinfo else parsed.replace(tzinfo=UTC)


def opening_step(campaign: Campaign, state: dict[str, Any]) -> int:
    """The step that opened the current phase: the last one that was not orders (or an
    adjustment), or an undo that took back more than orders. Reads back from the head only
    as far as needed."""
    seq = int(state["seq"])
    while seq > 1:
        entry = campaign.entry(seq)
        kind = entry["type"]
        if kind == "undo":
            undone = campaign.entry(int(entry["undoes"]))
            if undone["type"] not in _NOT_OPENING:
                return seq
        elif kind not in _NOT_OPENING:
            return seq
        seq -= 1
    return 1


def committed_at(campaign: Campaign, seq: int) -> datetime:
    """When the step's log entry was committed (the commit time, UTC)."""
    stamp = campaign.store().added_at(entry_name(seq))
    if stamp is None:
        raise CampaignError(f"{entry_name(seq)} is not committed; cannot tell when its phase opened")
    return datetime.fromtimestamp(stamp, UTC)


def deadline_of(campaign: Campaign, state: dict[str, Any] | None = None,
                phase: Phase | None = None) -> dict[str, Any] | None:
    """The current phase's deadline: {deadline, remind_at, opened, opened_by (seq)}, or
    None when campaign.yaml sets none for it or nobody is awaited."""
    deadlines = campaign.config.get("deadlines")
    if not deadlines:
        return None
    if not isinstance(deadlines, dict):
        raise CampaignError("campaign.yaml deadlines: expected a mapping, e.g. {hours: 72}")
    state = state if state is not None else campaign.state()
    phase = phase if phase is not None else campaign.phase(state)
    if phase.over or not phase.awaiting:
        return None
    own = deadlines.get(phase.name)
    remind = _hours(deadlines.get("remind_hours", DEFAULT_REMIND_HOURS), "remind_hours")
    if isinstance(own, dict) and "remind_hours" in own:
        remind = _hours(own["remind_hours"], f"{phase.name}.remind_hours")
    opener = opening_step(campaign, state)
    opened = committed_at(campaign, opener)
    fixed = deadlines.get(f"{phase.turn}:{phase.name}")
    if fixed is not None:
        deadline = _when(fixed, f"{phase.turn}:{phase.name}")
    else:
        hours = _hours(own, phase.name) if own is not None else _hours(deadlines.get("hours"), "hours")
        if hours is None:
            return None
        deadline = opened + timedelta(hours=hours)
    return {
        "deadline": _iso(deadline),
        "remind_at": _iso(deadline - timedelta(hours=remind or 0)),
        "opened": _iso(opened),
        "opened_by": opener,
    }


def _iso(when: datetime) -> str:
    return when.astimezone(UTC).isoformat(timespec="seconds")


def _parse_iso(text: str) -> datetime:
    return datetime.fromisoformat(text)


# ---------------------------------------------------------------------------------------
# mail out: reports


def _join_html(pages: list[str]) -> str:
    """One HTML document from several reports (a player of several factions)."""
    if len(pages) == 1:
        return pages[0]
    bodies = []
    for page in pages[1:]:
        found = re.search(r"<body[^>]*>(.*)</body>", page, re.S | re.I)
        bodies.append(found.group(1) if found else page)
    first = pages[0]
    cut = first.lower().rfind("</body>")
    if cut < 0:
        return "\n<hr>\n".join(pages)
    return first[:cut] + "".join(f"\n<hr>\n{b}" for b in bodies) + first[cut:]


def _subject(campaign: Campaign, status: dict[str, Any], what: str) -> str:
    phase = status.get("phase_title") or status["phase"]
    if status.get("over"):
        return f"[{campaign.id}] game over: {what}"
    return f"[{campaign.id}] turn {status['turn']}, {phase}: {what}"


def _headers(campaign: Campaign, kind: str, status: dict[str, Any]) -> dict[str, str]:
    return {"X-Pbem-Campaign": campaign.id, "X-Pbem-Kind": kind,
            "X-Pbem-Step": str(status.get("seq", ""))}


def _thread(outbox: m.Outbox, to: str) -> tuple[str | None, list[str]]:
    root = outbox.thread(to)
    return root, [root] if root else []


def queue_reports(root: Path, outbox: m.Outbox, *, again: bool = False,
                  now: datetime | None = None) -> dict[str, Any]:
    """One message per player: the reports of their factions (text + HTML) and an orders
    template per awaited faction; at most once per phase unless `again`."""
    from pbem import api
    from pbem import mail as m
    from pbem import report as report_

    campaign = Campaign.settled(root)
    state = campaign.state()
    status = api.status(root)
    opener = opening_step(campaign, state)
    who = sender(campaign)
    queued: list[dict[str, Any]] = []
    skipped: list[dict[str, Any]] = []
    folder = campaign.data.folder
    for player in m.players(campaign.factions()):
        key = f"report:{opener}:{player.email.lower()}"
        if not again and outbox.has(key):
            skipped.append({"to": player.email, "reason": "this phase's report was queued already"})
            continue
        texts, pages, attachments = [], [], []
        for faction in player.factions:
            context = report_.build_context(root, faction)
            texts.append(report_.render_context(context, folder, "text"))
            pages.append(report_.render_context(context, folder, "html"))
            for t in context["orders_templates"]:
                if t["awaited"]:
                    name = f"orders-{t['faction']}-t{status['turn']}-{status['phase']}.yaml"
                    attachments.append(m.Attachment(name, t["text"]))
        awaited = [f for f in player.factions if f in status["awaiting"]]
        what = f"orders awaited from {', '.join(awaited)}" if awaited else "report"
        reply_to, refs = _thread(outbox, player.email)
        msg = m.build(
            sender=who, to=(player.name, player.email), subject=_subject(campaign, status, what),
            text="\n\n".join(texts), html=_join_html(pages), attachments=attachments,
            in_reply_to=reply_to, references=refs, headers=_headers(campaign, "report", status),
            when=now,
        )
        record = outbox.queue(msg, key=key, kind="report", slug=player.slug, when=now,
                              meta={"turn": status["turn"], "phase": status["phase"],
                                    "seq": status["seq"]})
        queued.append(record)
    return {"queued": queued, "skipped": skipped}


def mail(root: Path, outbox: Path | None = None, send: bool = False, smtp: str | None = None,
         starttls: bool | None = None, user: str | None = None, *, again: bool = False,
         now: datetime | None = None) -> dict[str, Any]:
    """`pbem mail`: queue this phase's reports in the outbox; with `send`, deliver every
    message still queued (reports, reminders, replies) and record each delivery."""
    from pbem import mail as m

    campaign = Campaign.open(root)
    box = outbox_of(campaign, outbox)
    server = smtp_of(campaign, smtp, starttls, user) if send else None
    result = queue_reports(root, box, again=again, now=now)
    result["outbox"] = str(box.folder)
    result["sent"] = m.deliver(box, server, now=now) if server is not None else []
    result["pending"] = len(box.pending())
    return result


def send(root: Path, outbox: Path | None = None, smtp: str | None = None,
         starttls: bool | None = None, user: str | None = None,
         now: datetime | None = None) -> list[dict[str, Any]]:
    """Deliver what is queued, with the campaign's SMTP settings unless given."""
    from pbem import mail as m

    campaign = Campaign.open(root)
    return m.deliver(outbox_of(campaign, outbox), smtp_of(campaign, smtp, starttls, user), now=now)


# ---------------------------------------------------------------------------------------
# reminders


def _template(root: Path, faction: str, status: dict[str, Any],
              seed: str | None) -> m.Attachment | None:
    from pbem import api
    from pbem import mail as m

    try:
        body = api.bot(root, faction, seed=seed)
    except Rejected:
        return None
    head = (f"# Orders template for {faction}: turn {status['turn']}, {status['phase']}.\n"
            "# A legal EXAMPLE written by pbem's bot: replace it with your own orders.\n")
    return m.Attachment(f"orders-{faction}-t{status['turn']}-{status['phase']}.yaml",
                        head + yamlio.dump(body))


def remind(root: Path, *, outbox: Path | None = None, now: datetime | None = None,
           once: bool = False) -> dict[str, Any]:
    """Queue a reminder to every player still awaited in this phase (with `once`, only to
    those not reminded in this phase yet: what `tick` does)."""
    from pbem import api
    from pbem import mail as m

    campaign = Campaign.settled(root)
    box = outbox_of(campaign, outbox)
    state = campaign.state()
    status = api.status(root)
    due = deadline_of(campaign, state)
    opener = opening_step(campaign, state)
    by = f" by {due['deadline']}" if due else ""
    queued, awaiting = [], list(status["awaiting"])
    for player in m.players(campaign.factions()):
        missing = [f for f in player.factions if f in awaiting]
        if not missing:
            continue
        key = f"remind:{opener}:{player.email.lower()}"
        if once and box.has(key):
            continue
        attachments = [a for a in (_template(root, f, status, campaign.config.get("seed"))
                                   for f in missing) if a is not None]
        text = (f"Dear {player.name},\n\n"
                f"campaign {campaign.id}, turn {status['turn']}, "
                f"{status.get('phase_title') or status['phase']}: pbem is still waiting for the "
                f"orders of {', '.join(missing)}{by}.\n\n"
                + (f"If none arrive in time, the campaign's policy for missing orders applies: "
                   f"{_policy_text(nmr_policy(campaign))}.\n\n" if due else "")
                + "Attached is a template to start from. Reply with your orders file attached "
                  "(and its .sig when you sign it).\n\n-- \npbem referee\n")
        reply_to, refs = _thread(box, player.email)
        msg = m.build(sender=sender(campaign), to=(player.name, player.email),
                      subject=_subject(campaign, status, f"reminder: orders of {', '.join(missing)}"
                                       + (f" due {due['deadline']}" if due else "")),
                      text=text, attachments=attachments, in_reply_to=reply_to, references=refs,
                      headers=_headers(campaign, "reminder", status), when=now)
        queued.append(box.queue(msg, key=key, kind="reminder", slug=player.slug, when=now,
                                meta={"turn": status["turn"], "phase": status["phase"],
                                      "seq": status["seq"]}))
    return {"queued": queued, "awaiting": awaiting, "deadline": due["deadline"] if due else None,
            "outbox": str(box.folder)}


def _policy_text(policy: str) -> str:
    return {"hold": "your units hold (set-up choices are made for you)",
            "bot": "pbem's bot writes orders for you",
            "wait": "the referee waits for your orders"}[policy]


# ---------------------------------------------------------------------------------------
# tick: what a cron job runs


def tick(root: Path, now: datetime | None = None, *, send: bool = False,
         outbox: Path | None = None) -> dict[str, Any]:
    """Resolve the phase if its deadline passed (by the NMR policy), remind the awaited
    players once when the deadline is near, queue reports when a new phase opened, and with
    `send` deliver what is queued (SMTP settings from campaign.yaml)."""
    from pbem import api
    from pbem import mail as m

    when = now or m.now_utc()
    campaign = Campaign.settled(root)
    box = outbox_of(campaign, outbox)
    server = smtp_of(campaign, None, None, None) if send else None
    result: dict[str, Any] = {"now": _iso(when), "actions": [], "resolved": [], "reminded": [],
                              "reported": [], "sent": []}
    status = api.status(root)
    due = deadline_of(campaign)
    result["deadline"] = due["deadline"] if due else None
    if due and status["awaiting"]:
        policy = nmr_policy(campaign)
        if when >= _parse_iso(due["deadline"]):
            if policy == "wait":
                result["actions"].append(f"deadline passed; nmr: wait, so still waiting for "
                                         f"{', '.join(status['awaiting'])}")
                result["reminded"] = remind(root, outbox=box.folder, now=when, once=True)["queued"]
            else:
                applied = api.resolve(root, nmr=True)
                result["resolved"] = applied.resolved
                result["actions"].append(f"deadline passed: resolved with nmr: {policy} for "
                                         f"{', '.join(status['awaiting'])}")
        elif when >= _parse_iso(due["remind_at"]):
            result["reminded"] = remind(root, outbox=box.folder, now=when, once=True)["queued"]
            if result["reminded"]:
                result["actions"].append(f"reminders to {len(result['reminded'])} player(s)")
    reported = queue_reports(root, box, now=when)["queued"]
    result["reported"] = reported
    if reported:
        result["actions"].append(f"reports of the new phase to {len(reported)} player(s)")
    if server is not None:
        result["sent"] = m.deliver(box, server, now=when)
    result["pending"] = len(box.pending())
    result["status"] = api.status(root)
    return result


# ---------------------------------------------------------------------------------------
# mail in


class Record:
    """`.pbem/inbox.yaml`: what was done with each orders mail, by Message-ID."""

    def __init__(self, path: Path) -> None:
        self.path = path

    def load(self) -> dict[str, Any]:
        if not self.path.exists():
            return {}
        data = yamlio.read_trusted(self.path)
        return dict(data.get("messages") or {}) if isinstance(data, dict) else {}

    def add(self, message_id: str, what: dict[str, Any]) -> None:
        data = self.load()
        data[message_id] = what
        yamlio.write_atomic(self.path, "# pbem inbox: orders mail applied or rejected, by "
                            "Message-ID (never applied twice)\n" + yamlio.dump({"messages": data}))


def _sources(maildir: Path | None, mbox: Path | None, imap: str | None) -> Any:
    from pbem import mail as m

    given = [s for s in (maildir, mbox, imap) if s]
    if len(given) != 1:
        raise UsageError("give exactly one of --maildir DIR, --mbox FILE or --imap URL")
    if maildir:
        return m.read_maildir(maildir)
    if mbox:
        return m.read_mbox(mbox)
    assert imap is not None
    return m.read_imap(imap)


def inbox(root: Path, maildir: Path | None = None, mbox: Path | None = None,
          imap: str | None = None, *, outbox: Path | None = None,
          now: datetime | None = None) -> dict[str, Any]:
    """Apply the orders found in mail, once per Message-ID; record and answer each mail.

    Mail that carries no orders, or orders for another campaign, is left alone (not even
    recorded), so another campaign's `pbem inbox` may read the same mailbox.
    """
    from pbem import mail as m

    campaign = Campaign.open(root)
    box = outbox_of(campaign, outbox)
    record = Record(campaign.private / INBOX)
    messages = _sources(maildir, mbox, imap)
    results: list[dict[str, Any]] = []
    ignored = 0
    with m.file_lock(campaign.private / "inbox.lock"):
        seen = record.load()
        for msg in messages:
            incoming = m.extract(msg)
            if incoming is None or (incoming.campaigns() and campaign.id not in incoming.campaigns()):
                ignored += 1
                continue
            if incoming.message_id in seen:
                results.append({"message_id": incoming.message_id, "from": incoming.sender,
                                "outcome": "duplicate",
                                "first": seen[incoming.message_id].get("outcome")})
                continue
            done = _take(root, campaign, incoming, now)
            done["reply"] = _reply(campaign, box, msg, incoming, done, now)
            record.add(incoming.message_id, {k: v for k, v in done.items() if k != "message_id"})
            seen[incoming.message_id] = done
            results.append(done)
    return {
        "messages": results,
        "accepted": sum(1 for r in results if r["outcome"] == "accepted"),
        "rejected": sum(1 for r in results if r["outcome"] == "rejected"),
        "duplicates": sum(1 for r in results if r["outcome"] == "duplicate"),
        "ignored": ignored,
    }


def _take(root: Path, campaign: Campaign, incoming: m.Incoming,
          now: datetime | None) -> dict[str, Any]:
    """Apply one mail's orders files like `pbem apply`; every problem as FILE:LINE."""
    from pbem import api
    from pbem import mail as m

    done: dict[str, Any] = {"message_id": incoming.message_id, "from": incoming.sender,
                            "subject": incoming.subject, "at": _iso(now or m.now_utc()),
                            "files": [name for name, _ in incoming.files],
                            "signed": sorted(incoming.signatures)}
    problems = list(incoming.problems)
    factions = campaign.factions()
    for name, faction in incoming.factions():
        if faction is None:
            continue  # `pbem apply` reports the missing key
        owner = str(factions.get(faction, {}).get("email") or "").lower()
        if owner and owner != incoming.sender and name not in incoming.signatures:
            problems.append(f"{name}: unsigned orders for {faction} must come from its player's "
                            f"address; sign them or send them from that address")
    if not problems:
        folder = Path(tempfile.mkdtemp(prefix="pbem-inbox-"))
        try:
            applied = api.apply(root, incoming.write(folder))
        except Busy:
            raise
        except Rejected as exc:
            prefix = str(folder) + "/"
            problems = [line.replace(prefix, "") for line in (exc.details or [exc.message])]
            if exc.details:
                done["error"] = exc.message.replace(prefix, "")
        else:
            done.update(outcome="accepted",
                        recorded=[{"faction": r["faction"], "seq": r["seq"]} for r in applied.recorded],
                        resolved=[{"turn": r["turn"], "phase": r["phase"], "seq": r["seq"]}
                                  for r in applied.resolved])
            return done
        finally:
            shutil.rmtree(folder, ignore_errors=True)
    done.update(outcome="rejected", problems=problems)
    return done


def _reply(campaign: Campaign, box: m.Outbox, msg: Any, incoming: m.Incoming,
           done: dict[str, Any], now: datetime | None) -> str | None:
    """Queue an answer to the sender when the sender is one of the players (never to a
    stranger: no backscatter). Returns the reply's Message-ID."""
    from pbem import mail as m

    players = {p.email.lower(): p for p in m.players(campaign.factions())}
    player = players.get(incoming.sender)
    if player is None:
        return None
    files = ", ".join(done["files"])
    if done["outcome"] == "accepted":
        lines = [f"Your orders ({files}) were accepted:"]
        lines += [f"  {r['faction']}: recorded as step {r['seq']}" for r in done["recorded"]]
        lines += [f"  turn {r['turn']} {r['phase']} resolved (step {r['seq']})"
                  for r in done["resolved"]]
        what = "accepted"
    else:
        lines = [f"Your orders ({files}) were rejected; nothing was recorded. The problems:", ""]
        lines += [f"  {p}" for p in done["problems"]]
        lines += ["", "Correct the file (pbem check FILE shows the same problems) and send it again."]
        what = "rejected"
    subject = str(msg.get("Subject") or "your orders")
    subject = subject if subject.lower().startswith("re:") else f"Re: {subject}"
    refs = [r for r in str(msg.get("References") or "").split() if r] + [incoming.message_id]
    reply = m.build(sender=sender(campaign), to=(player.name, player.email),
                    subject=f"{subject} [{what}]",
                    text=f"Dear {player.name},\n\n" + "\n".join(lines) + "\n\n-- \npbem referee\n",
                    in_reply_to=incoming.message_id, references=refs,
                    headers={"Auto-Submitted": "auto-replied", "X-Pbem-Campaign": campaign.id,
                             "X-Pbem-Kind": "reply"}, when=now)
    record = box.queue(reply, key=f"reply:{incoming.message_id}", kind="reply", slug=player.slug,
                       when=now, meta={"in_reply_to": incoming.message_id, "outcome": what})
    return str(record["message_id"])


# ---------------------------------------------------------------------------------------
# publish


def publish(root: Path, remote: str | None = None) -> dict[str, Any]:
    """Push the campaign's history and every turn tag to its shared remote. `.pbem/` is
    git-ignored, so the referee's keys, the outbox and the inbox record never leave."""
    campaign = Campaign.open(root)
    name = remote or settings(campaign).get("remote") or "origin"
    with campaign.locked():
        store = campaign.store()
        tracked = store.tracked(PRIVATE)
        if tracked:
            raise CampaignError(f"{PRIVATE}/ is tracked by git ({tracked[0]}...); "
                                "it holds the referee's secrets and must never be pushed")
        remotes = store.remotes()
        if name not in remotes:
            raise UsageError(f"--remote {name}: no such remote"
                             + (f" (remotes: {', '.join(remotes)})" if remotes else
                                "; add one with 'git remote add origin URL'"))
        try:
            store.publish(name)
        except CampaignError as exc:
            raise PbemError(f"publish to {name} failed: {exc.message}") from None
        head = store.head()
        tags = sorted(store.tags())
    return {"remote": name, "head": head, "tags": tags}
