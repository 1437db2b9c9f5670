"""The mail loop: reports out, orders in, deadlines, reminders, NMR, publishing.

What `pbem mail`, `inbox`, `remind`, `tick` and `publish` do, as functions that return data
and raise PbemError (pbem/cli/mail.py prints). E-mail itself is pbem/mail/transport.py.

Settings in campaign.yaml (all optional):

    mail:
      from: Referee <referee@example.org>   # default: the referee of campaign.yaml
      smtp: smtp.example.org:587            # for --send; the password comes from
      starttls: true                        #   PBEM_SMTP_PASSWORD and is never stored
      user: referee
      outbox: .pbem/outbox                  # relative to the campaign folder
      remote: origin                        # where `pbem publish` pushes
      limits: {parts: 20, depth: 10, name: 100, size: 1048576}   # what `inbox` reads of a
                                            #   mail: files, MIME depth, name length, bytes
      timezones: {red: Europe/Berlin, default: UTC}   # each player's deadlines in their
                                            #   own time as well as UTC, in their reports
      policy: awaited                       # who gets a report: awaited (when their orders
                                            #   are awaited, and one digest as each turn
                                            #   begins) | every (every phase), or per faction
                                            #   {default: awaited, red: every}
    deadlines:
      hours: 72                             # every phase that awaits orders
      remind_hours: 24                      # reminders this long before the deadline
      grace_hours: 12                       # `tick` resolves this long after the deadline
      action: {hours: 48, grace_hours: 0}   # a phase's own policy (by phase name)
      "3:action": 2026-05-01T18:00:00Z      # one phase's fixed deadline (turn:phase)
    absences:                               # a faction away at its deadline: its deadline
      - {faction: red, from: 2026-12-20, to: 2027-01-03}   # moves to the end of `to` (UTC)
    nmr: hold                               # no orders by the deadline: hold | bot | wait |
                                            #   disorder, or per faction {default: hold,
                                            #   red: disorder}
    late: flag                              # orders dated after their deadline:
                                            #   accept | flag (applied, marked) | reject

A phase's deadline counts from the commit time of the step that opened it, so every clone
computes the same deadline. The clock is read only where a command starts (`now`, which
tests give); the rules never read it. Which mail went out and which orders mail was applied
is recorded in `.pbem/` (git-ignored): players' addresses and traffic stay out of the shared
history.
"""

from __future__ import annotations

import email.utils
import hashlib
import re
import shutil
import tempfile
import traceback
from collections.abc import Iterable
from datetime import datetime, timedelta
from pathlib import Path
from typing import TYPE_CHECKING, Any

from pbem import yamlio
from pbem.campaign import CONFIG, PRIVATE, Campaign
from pbem.contributions import is_pre_game
from pbem.errors import Busy, CampaignError, PbemError, Rejected, UsageError
from pbem.schedule import (
    _iso,
    _parse_iso,
    deadline_of,
    late_policy,
    nmr_policies,
    nmr_policy,
    opening_step,
)
from pbem.step import finish

if TYPE_CHECKING:  # pbem.mail.transport (smtplib, imaplib, mailbox) loads only when mail is handled,
    from pbem.mail import transport as m  # so that `pbem status` stays quick with deadlines set

INBOX = "inbox.yaml"
QUARANTINE = "quarantine"  # .pbem/quarantine/: the mails pbem could not read or handle
# how to sign orders written in the body of a mail
INLINE_SIGNING = ("orders in the body of a mail are signed by pasting, right after them, the "
                  "signature 'pbem sign FILE' wrote (FILE.sig: the lines from -----BEGIN SSH "
                  "SIGNATURE----- to -----END SSH SIGNATURE-----); or attach FILE and FILE.sig")
# the answer to a mail that made pbem fail: it names nothing of the referee's machine
CRASHED = ("pbem could not handle this mail (an error in pbem itself); nothing was recorded. "
           "The referee has the mail and the details")


# ---------------------------------------------------------------------------------------
# settings


def settings(campaign: Campaign) -> dict[str, Any]:
    found = campaign.config.get("mail") or {}
    if not isinstance(found, dict):
        raise CampaignError(f"{campaign.root / 'campaign.yaml'}: 'mail:' must be a mapping")
    return found


def limits_of(campaign: Campaign) -> m.Limits:
    """campaign.yaml's `mail: limits:` (any of parts, depth, name, size), over the defaults;
    a wrong one stops `pbem inbox` before any mail is read."""
    from pbem.mail import transport as m

    given = settings(campaign).get("limits") or {}
    where = f"{campaign.root / CONFIG}: mail: limits"
    if not isinstance(given, dict):
        raise CampaignError(f"{where}: expected a mapping of {', '.join(m.BOUNDS)}")
    for key, value in given.items():
        if key not in m.BOUNDS:
            raise CampaignError(f"{where}: {key!r} is not a limit; choose among {', '.join(m.BOUNDS)}")
        low, high = m.BOUNDS[key]
        if isinstance(value, bool) or not isinstance(value, int) or not low <= value <= high:
            raise CampaignError(f"{where}: {key}: expected a whole number from {low} to {high}, "
                                f"not {value!r}")
    return m.Limits(**given)


POLICIES = ("awaited", "every")


def mail_policy(campaign: Campaign, faction: str) -> str:
    """campaign.yaml's `mail: policy:` for one faction: `awaited` (the default) or `every`."""
    given = settings(campaign).get("policy", "awaited")
    where = f"{campaign.root / CONFIG}: mail: policy"
    value = given
    if isinstance(given, dict):
        unknown = sorted(set(given) - set(campaign.factions()) - {"default"})
        if unknown:
            raise CampaignError(f"{where}: {', '.join(map(str, unknown))} is not a faction of this "
                                f"campaign (factions: {', '.join(campaign.factions())}, or default)")
        value = given.get(faction, given.get("default", "awaited"))
    if value not in POLICIES:
        raise CampaignError(f"{where}: expected {' or '.join(POLICIES)} (or a mapping by faction "
                            f"with a default), not {value!r}")
    return str(value)


def _why(policy: str, awaited: list[str], last: dict[str, Any] | None,
         status: dict[str, Any]) -> str | None:
    """Why a player gets this phase's report, or None when the policy keeps it for later:
    awaited players always, everyone at the game's end and in their first mail, a player
    whose last report was never sent (the new one replaces it: never a stale report), and
    the others one digest when a turn has begun since their last report (or every phase)."""
    if awaited:
        return "awaited"
    if status.get("over"):
        return "over"
    if last is None:
        return "first"
    if not last.get("sent") and not last.get("superseded"):
        return "update"  # their last report is still unsent: the current one replaces it
    if policy == "every":
        return "every"
    if last.get("turn") != status["turn"]:
        return "digest"
    return None


def outbox_of(campaign: Campaign, outbox: Path | None = None) -> m.Outbox:
    from pbem.mail import transport as m

    folder = outbox or settings(campaign).get("outbox") or Path(PRIVATE) / "outbox"
    path = Path(folder)
    return m.Outbox(path if path.is_absolute() else campaign.root / path)


def smtp_of(campaign: Campaign, smtp: str | None, starttls: bool | None,
            user: str | None) -> m.Smtp:
    from pbem.mail import transport as m

    conf = settings(campaign)
    where = smtp or conf.get("smtp")
    if not where:
        raise UsageError("--send needs a server: give --smtp HOST:PORT or set mail: {smtp: "
                         "HOST:PORT} in campaign.yaml")
    tls = starttls if starttls is not None else bool(conf.get("starttls", False))
    return m.Smtp.parse(str(where), starttls=tls, user=user or conf.get("user"))


def sender(campaign: Campaign) -> tuple[str, str]:
    """Who the mail comes from: campaign.yaml `mail: from:`, else the referee of
    campaign.yaml (whose name also stands for a `from:` that gives only an address)."""
    conf = settings(campaign).get("from")
    if conf:
        name, addr = email.utils.parseaddr(str(conf))
        if addr:
            return name or campaign.referee()[0], addr
    return campaign.referee()


def signature(campaign: Campaign) -> str:
    """The end of a mail pbem writes in the moderator's name (an answer, a reminder): the
    signature separator and the sender's name, on one line."""
    return f"\n-- \n{' '.join(sender(campaign)[0].split()) or 'pbem referee'}\n"


def _subject(campaign: Campaign, status: dict[str, Any], what: str) -> str:
    phase = status.get("phase_title") or status["phase"]
    if status.get("over"):
        return f"[{campaign.id}] game over: {what}"
    return f"[{campaign.id}] turn {status['turn']}, {phase}: {what}"


def _headers(campaign: Campaign, kind: str, status: dict[str, Any]) -> dict[str, str]:
    # the step and log head the mail was made at: a player's mailbox witnesses the history
    return {"X-Pbem-Campaign": campaign.id, "X-Pbem-Kind": kind,
            "X-Pbem-Step": str(status.get("seq", "")), "X-Pbem-Head": str(status.get("head", ""))}


def _thread(outbox: m.Outbox, to: str) -> tuple[str | None, list[str]]:
    root = outbox.thread(to)
    return root, [root] if root else []


def queue_reports(root: Path, outbox: m.Outbox, *, again: bool = False,
                  now: datetime | None = None) -> dict[str, Any]:
    """One message per player: one report for all their factions (text + HTML) and one
    orders template for those awaited, attached; at most once per phase unless `again`. Who gets one
    follows the mail policy (`_why`); `again` queues one to everyone. Whom to mail is decided
    first: no report is built for a player skipped, and what the reports of this step have in
    common (the story, the dice, the map's picture when two readers' maps are the same) is
    built once; each reader's view, sealed values and template stay his own."""
    from pbem import api
    from pbem.mail import transport as m
    from pbem.reports.context import moment, seat_context
    from pbem.reports.render import render_context

    campaign = Campaign.settled(root, finish)
    state = campaign.state()
    status = api.status(root)
    opener = opening_step(campaign, state)
    who = sender(campaign)
    queued: list[dict[str, Any]] = []
    skipped: list[dict[str, Any]] = []
    folder = campaign.data.folder
    players = m.players(campaign.factions())
    policies = {p.email: "every" if any(mail_policy(campaign, f) == "every" for f in p.factions)
                else "awaited" for p in players}
    chosen: list[tuple[m.Player, str, str | None, list[str]]] = []  # player, key, why, awaited
    for player in players:
        key = f"report:{opener}:{player.email.lower()}"
        if not again and outbox.has(key):
            skipped.append({"to": player.email, "reason": "this phase's report was queued already"})
            continue
        awaited = [f for f in player.factions if f in status["awaiting"]]
        why = _why(policies[player.email], awaited, outbox.last(player.email, "report"), status)
        if why is None and not again:
            skipped.append({"to": player.email, "reason": (
                "not awaited in this phase; by the mail policy 'awaited' the next report goes "
                "when their orders are awaited or as the next turn begins")})
            continue
        chosen.append((player, key, why, awaited))
    # each player's own sealed values (their hand) are shown opened in their own mail: the
    # referee's key opens them, and a faction's report opens only that faction's nodes
    identities = (campaign.referee_identities() if chosen and (campaign.private / "referee.key").exists()
                  else None)
    common = moment(root, campaign=campaign, status=status) if chosen else None
    pictures: dict[str, bytes | None] = {}  # the map's picture by what it is drawn from
    for player, key, why, awaited in chosen:
        # one report for the player, whatever the factions they hold, and one file to answer
        context = seat_context(root, player.factions, identities=identities, common=common)
        if _first_report(outbox, player.email):  # what pbem is, the key, how to answer
            from pbem.contributions import PHASE
            from pbem.mail.welcome import facts

            context["welcome"] = facts(campaign, settings(campaign), player.factions, player.name,
                                       who[1], status["phase"] == PHASE)
        attachments = [m.Attachment(f"orders-{'-'.join(t.get('factions') or [t['faction']])}"
                                    f"-t{status['turn']}-{status['phase']}.yaml", t["text"])
                       for t in context["orders_templates"] if t["awaited"]]
        # the map as a picture, shown in place by the HTML (mail programs show no inline SVG,
        # and the SVG would double the mail); none before the set-up: nothing is on the board
        picture = _map_picture(context, pictures)
        shown = {}
        if picture is not None:
            name = f"map-t{status['turn']}-step{status['seq']}.png"
            cid = email.utils.make_msgid("map", domain=who[1].rpartition("@")[2] or "pbem.invalid")[1:-1]
            attachments.append(m.Attachment(name, picture, "image/png", content_id=cid))
            shown = {"map_image": f"cid:{cid}"}
        text = render_context(context, folder, "text")
        page = render_context({**context, **shown}, folder, "html")
        what = (f"orders awaited from {', '.join(awaited)}" if awaited else
                f"digest, turn {status['turn']} begins" if why == "digest" else "report")
        reply_to, refs = _thread(outbox, player.email)
        msg = m.build(
            sender=who, to=(player.name, player.email), subject=_subject(campaign, status, what),
            text=text, html=page, attachments=attachments,
            in_reply_to=reply_to, references=refs, headers=_headers(campaign, "report", status),
            when=now,
        )
        record = outbox.queue(msg, key=key, kind="report", slug=player.slug, when=now,
                              supersedes=("report", "reminder"),
                              meta={"turn": status["turn"], "phase": status["phase"],
                                    "seq": status["seq"], "why": why or "again"})
        queued.append(record)
    return {"queued": queued, "skipped": skipped, "turn": status["turn"],
            "this_turn": mails_this_turn(outbox, status["turn"])}


def _map_picture(context: dict[str, Any], drawn: dict[str, bytes | None]) -> bytes | None:
    """The map's picture of a report (`map_png`), drawn once for every report whose map is
    the same: `drawn` keeps them by a digest of everything of the map that the context
    gives (its SVG, focus...), so two readers share a picture only when their maps are
    identical, and nothing of one reader's map reaches another's."""
    from pbem.reports.render import MAIL_PIXELS, map_png

    if not context.get("map_svg") or context.get("contribution_round"):
        return None
    parts = sorted((k, repr(v)) for k, v in context.items() if k.startswith("map_"))
    digest = hashlib.sha256(repr((parts, context["game"]["id"])).encode("utf-8")).hexdigest()
    if digest not in drawn:
        drawn[digest] = map_png(context, MAIL_PIXELS)
    return drawn[digest]


def _first_report(outbox: m.Outbox, to: str) -> bool:
    """No report went or is going to this address yet (one superseded before it was sent
    does not count: the welcome goes with the report that replaces it)."""
    return not any(r.get("to") == to.lower() and r.get("kind") == "report"
                   and (r.get("sent") or not r.get("superseded"))
                   for r in outbox.load()["messages"])


def mails_this_turn(outbox: m.Outbox, turn: int) -> dict[str, int]:
    """How many mails each address has been sent or will be in this turn (reports, reminders
    and answers; superseded ones are never sent and not counted)."""
    counts: dict[str, int] = {}
    for record in outbox.load()["messages"]:
        if record.get("superseded"):
            continue
        if record.get("turn") == turn:
            counts[record["to"]] = counts.get(record["to"], 0) + 1
    return counts


def mail(root: Path, outbox: Path | None = None, send: bool = False, smtp: str | None = None,
         starttls: bool | None = None, user: str | None = None, *, again: bool = False,
         now: datetime | None = None) -> dict[str, Any]:
    """`pbem mail`: queue this phase's reports in the outbox; with `send`, deliver every
    message still queued (reports, reminders, replies) and record each delivery."""
    from pbem.mail import transport as m

    campaign = Campaign.open(root)
    box = outbox_of(campaign, outbox)
    server = smtp_of(campaign, smtp, starttls, user) if send else None
    result = queue_reports(root, box, again=again, now=now)
    result["outbox"] = str(box.folder)
    result["sent"] = m.deliver(box, server, now=now) if server is not None else []
    result["pending"] = len(box.pending())
    # what this run's reports replaced, not every message ever superseded (the journal
    # keeps those, and a later run would count them again)
    result["superseded"] = len(box.superseded(by={r["message_id"] for r in result["queued"]}))
    return result


def send(root: Path, outbox: Path | None = None, smtp: str | None = None,
         starttls: bool | None = None, user: str | None = None,
         now: datetime | None = None) -> list[dict[str, Any]]:
    """Deliver what is queued, with the campaign's SMTP settings unless given."""
    from pbem.mail import transport as m

    campaign = Campaign.open(root)
    return m.deliver(outbox_of(campaign, outbox), smtp_of(campaign, smtp, starttls, user), now=now)


# ---------------------------------------------------------------------------------------
# reminders


def _template(root: Path, factions: list[str], status: dict[str, Any],
              seed: str | None) -> m.Attachment | None:
    """The orders template of a reminder: one file for all the player's factions awaited."""
    from pbem import api
    from pbem.mail import transport as m

    try:  # pbem sign adds the salts
        body = (api.bot(root, factions[0], seed=seed, template=True) if len(factions) == 1 else
                api.bot_several(root, factions, seed=seed, template=True))
    except Rejected:
        return None
    from pbem.contributions import PHASE, TEMPLATE_NOTE
    from pbem.reports.context import standing_comments

    note = ("\n".join(TEMPLATE_NOTE) if status["phase"] == PHASE else
            "# A legal EXAMPLE written by pbem's bot: replace it with your own orders.")
    offered = standing_comments(Campaign.open(root), factions)
    for faction in factions:
        lines = ([f"For {faction}:"] if len(factions) > 1 and offered[faction] else []) + offered[faction]
        note += "".join(f"\n# {line}" for line in lines)
    both = " and ".join(factions)
    head = f"# Orders template for {both}: turn {status['turn']}, {status['phase']}.\n{note}\n"
    return m.Attachment(f"orders-{'-'.join(factions)}-t{status['turn']}-{status['phase']}.yaml",
                        head + yamlio.dump(body))


def remind(root: Path, *, outbox: Path | None = None, now: datetime | None = None,
           once: bool = False, due_only: bool = False) -> dict[str, Any]:
    """Queue a reminder to every player still awaited in this phase. With `once`, only to
    those not reminded in this phase yet; with `due_only`, only for the factions whose own
    reminder time (remind_hours before their deadline) has come: what `tick` does."""
    from pbem import api
    from pbem.mail import transport as m

    campaign = Campaign.settled(root, finish)
    box = outbox_of(campaign, outbox)
    state = campaign.state()
    status = api.status(root)
    due = deadline_of(campaign, state)
    opener = opening_step(campaign, state)
    when = now or m.now_utc()
    queued, awaiting = [], list(status["awaiting"])
    for player in m.players(campaign.factions()):
        missing = [f for f in player.factions if f in awaiting]
        if due_only and due:
            missing = [f for f in missing if when >= _parse_iso(due["factions"][f])
                       - timedelta(hours=float(due["remind_hours"]))]
        if not missing:
            continue
        key = f"remind:{opener}:{player.email.lower()}"
        if once and box.has(key):
            continue
        own = sorted({due["factions"][f] for f in missing}) if due else []
        by = f" by {own[-1]}" if own else ""
        away = [f"{f} is marked absent from {due['absent'][f]['from']} to "
                f"{due['absent'][f]['to']}, so its deadline is {due['absent'][f]['until']}"
                for f in missing if due and f in due["absent"]]
        policies = sorted({_policy_text(nmr_policy(campaign, f)) for f in missing})
        text = (f"Dear {player.name},\n\n"
                f"campaign {campaign.id}, turn {status['turn']}, "
                f"{status.get('phase_title') or status['phase']}: pbem is still waiting for the "
                f"orders of {', '.join(missing)}{by}.\n\n"
                + ("".join(f"{a[0].upper()}{a[1:]}.\n" for a in away) + "\n" if away else "")
                + (f"If none arrive in time, the campaign's policy for missing orders applies: "
                   f"{'; '.join(policies)}.\n\n" if due else "")
                + "Attached is a template to start from. Reply with your orders file attached "
                  "(and its .sig when you sign it).\n"
                + (f"It is one file for {' and '.join(missing)} (faction: [{', '.join(missing)}], "
                   "'orders:' by faction); separate files per faction are fine too.\n"
                   if len(missing) > 1 else "")
                + signature(campaign))
        template = _template(root, missing, status, campaign.config.get("seed"))
        attachments = [template] if template is not None else []
        reply_to, refs = _thread(box, player.email)
        msg = m.build(sender=sender(campaign), to=(player.name, player.email),
                      subject=_subject(campaign, status, f"reminder: orders of {', '.join(missing)}"
                                       + (f" due {own[-1]}" if own else "")),
                      text=text, attachments=attachments, in_reply_to=reply_to, references=refs,
                      headers=_headers(campaign, "reminder", status), when=now)
        queued.append(box.queue(msg, key=key, kind="reminder", slug=player.slug, when=now,
                                supersedes=("reminder",),
                                meta={"turn": status["turn"], "phase": status["phase"],
                                      "seq": status["seq"]}))
    return {"queued": queued, "awaiting": awaiting, "deadline": due["deadline"] if due else None,
            "outbox": str(box.folder)}


def _policy_text(policy: str) -> str:
    # the words fit every phase: a purchase buys nothing, an action phase moves nobody
    return {"hold": "your standing orders apply: nothing new is ordered, and choices that "
                    "cannot be skipped (a set-up, say) are made for you",
            "bot": "pbem's bot writes orders for you",
            "wait": "the referee waits for your orders",
            "disorder": "civil disorder: your faction does nothing and its standing "
                        "instructions are set aside for the phase"}[policy]


# ---------------------------------------------------------------------------------------
# tick: what a cron job runs


def _policies_text(campaign: Campaign, factions: list[str]) -> str:
    """'hold for south, north' or 'hold for south; disorder for north'."""
    by: dict[str, list[str]] = {}
    for faction in factions:
        by.setdefault(nmr_policy(campaign, faction), []).append(faction)
    return "; ".join(f"{p} for {', '.join(fs)}" for p, fs in by.items())


def tick(root: Path, now: datetime | None = None, *, send: bool = False,
         outbox: Path | None = None) -> dict[str, Any]:
    """Resolve the phase once its deadline and grace period passed (by the NMR policies),
    remind the awaited players once when their deadline is near, queue reports when a new
    phase opened, and with `send` deliver what is queued (SMTP settings from campaign.yaml).
    `now` is the clock (the command line's); nothing below reads it."""
    from pbem import api
    from pbem.mail import transport as m

    when = now or m.now_utc()
    campaign = Campaign.settled(root, finish)
    box = outbox_of(campaign, outbox)
    server = smtp_of(campaign, None, None, None) if send else None
    result: dict[str, Any] = {"now": _iso(when), "actions": [], "resolved": [], "reminded": [],
                              "reported": [], "sent": []}
    status = api.status(root)
    due = deadline_of(campaign)
    result["deadline"] = due["deadline"] if due else None
    result["grace_until"] = due["grace_until"] if due else None
    if due and status["awaiting"]:
        missing = list(status["awaiting"])
        nmr_policies(campaign)  # a bad policy is reported at every tick, not at the deadline
        if when >= _parse_iso(due["grace_until"]):
            waiting = [f for f in missing if nmr_policy(campaign, f) == "wait"]
            if is_pre_game(campaign.state()["game"]):
                # never drawn by the clock without every salt (docs/fairness.md)
                result["actions"].append(
                    f"deadline passed; the contribution round still awaits the salts of "
                    f"{', '.join(missing)}: only the moderator may draw the set-up without "
                    "them (pbem resolve --without-salts)")
                result["reminded"] = remind(root, outbox=box.folder, now=when, once=True)["queued"]
            elif waiting:
                result["actions"].append(f"deadline passed; nmr: wait, so still waiting for "
                                         f"{', '.join(waiting)}")
                result["reminded"] = remind(root, outbox=box.folder, now=when, once=True)["queued"]
            else:
                applied = api.resolve(root, nmr=True)
                result["resolved"] = applied.resolved
                used = applied.resolved[0].get("nmr_policy") if applied.resolved else None
                text = (_policies_text(campaign, missing) if not used else "; ".join(
                    f"{p} for {', '.join(f for f in used if used[f] == p)}"
                    for p in dict.fromkeys(used.values())))
                result["actions"].append(f"deadline passed: resolved with nmr: {text}")
        else:
            if when >= _parse_iso(due["deadline"]):
                result["actions"].append(f"deadline passed; grace period until "
                                         f"{due['grace_until']} for {', '.join(missing)}")
            result["reminded"] = remind(root, outbox=box.folder, now=when, once=True,
                                        due_only=True)["queued"]
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


def mailbox(maildir: Path | None, mbox: Path | None, imap: str | None) -> Any:
    """The mails of the one mailbox given (a Maildir folder, an mbox file or an IMAP URL),
    each as its bytes."""
    from pbem.mail import transport as m

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
          now: datetime | None = None, messages: Iterable[bytes] | None = None,
          landed_from: int | None = None) -> dict[str, Any]:
    """Apply the orders found in mail, once per Message-ID; record and answer each mail.
    `messages`: the mails themselves, read already (a judge routes one mailbox's mail to
    its campaigns, pbem.mail.judge), in place of a mailbox to read. `landed_from`: a step
    after which another copy of the campaign (a second judge, through the shared remote)
    may have recorded a mail this one has not taken yet; such a mail is looked for in the
    log after that step first, and found there it is accepted, not applied again.

    Mail that carries no orders, or orders for another campaign, is left alone (not even
    recorded), so another campaign's `pbem inbox` may read the same mailbox. A mail that
    cannot be read or handled is recorded as rejected and the others are processed all the
    same. Orders dated (Date:) after their faction's deadline are taken by the campaign's
    `late:` policy. `now` is the clock (the command line's): the time of a mail without a
    usable Date: header.

    A kill at any moment loses no orders and applies none twice: before a mail's orders
    are applied, `.pbem/inbox.yaml` records it as "taking", with the step the campaign was
    at and a digest of each of its files and signatures; its outcome replaces that record
    once it is answered. The next run meets a mail still "taking" and looks in the log
    after that step (`_landed`): if its orders are there (the kill came after their commit;
    a half-done resolution was finished by the lock's recovery) the mail is recorded as
    accepted; if only some of its files are (a kill between the steps of a mail of several
    files), the others are applied now; if none, the mail is applied now. Its answer is
    queued once (by the key reply:MESSAGE-ID).
    """
    from pbem.mail import transport as m

    # a step a killed pbem left half-done is finished first, before any mail is looked at
    campaign = Campaign.settled(root, finish)
    late_policy(campaign)  # a bad setting stops here, before any mail is touched
    limits = limits_of(campaign)
    box = outbox_of(campaign, outbox)
    record = Record(campaign.private / INBOX)
    if messages is None:
        messages = mailbox(maildir, mbox, imap)
    results: list[dict[str, Any]] = []
    left_alone: list[dict[str, Any]] = []
    with m.file_lock(campaign.private / "inbox.lock"):
        seen = record.load()
        for raw in messages:
            msg = m.parse(raw, limits)  # each mail on its own: none can stop the others
            crash: str | None = None
            try:
                incoming = m.extract(msg, limits)
            except Exception as exc:  # a malformed mail: recorded, never a stop
                incoming = m.unreadable(msg, exc)
            others = incoming.campaigns() if incoming is not None else set()
            if incoming is None or (others and campaign.id not in others):
                mid, sender, subject = m.describe(msg)
                why = ("an automatic message (an auto-reply, or one of pbem's own)" if m.automatic(msg)
                       else f"orders for campaign {', '.join(sorted(others))}, not {campaign.id}"
                       if others else "no orders in it (no .yaml attachment, no orders in the text)")
                left_alone.append({"message_id": mid, "from": sender, "subject": subject,
                                   "why": why})
                continue
            prior = seen.get(incoming.message_id)
            if prior is not None and prior.get("outcome") != "taking":
                results.append({"message_id": incoming.message_id, "from": incoming.sender,
                                "outcome": "duplicate", "first": prior.get("outcome")})
                continue
            try:
                since = prior if prior is not None else (
                    {"after_seq": landed_from} if landed_from is not None else None)
                landed = _landed(campaign, incoming, since) if since is not None else None
                if landed is not None and not landed["missing"]:
                    # recorded by another copy (a second judge), which answers it
                    elsewhere = landed_from is not None and _made_elsewhere(
                        campaign, int(landed["recorded"][0]["seq"]))
                    done = _accepted(incoming, now, landed, elsewhere=elsewhere)
                else:
                    record.add(incoming.message_id, _taking(campaign, incoming, now, prior))
                    done = _take(root, campaign, _only(incoming, landed), now)
                    if landed is not None and done["outcome"] == "accepted":
                        done = {**_accepted(incoming, now, landed), **done,
                                "files": incoming.names(),
                                "recorded": landed["recorded"] + done["recorded"],
                                "resolved": landed["resolved"] + done["resolved"]}
            except Busy:
                raise
            except Exception:
                crash = traceback.format_exc()
                done = _failed(incoming, now, CRASHED)
            if crash is not None or incoming.unreadable:
                done["quarantine"] = _quarantine(campaign, incoming.message_id, raw, crash)
            if done.get("answered_elsewhere"):  # the judge that recorded it answers
                done["reply"] = None
            else:
                try:
                    done["reply"] = _reply(campaign, box, msg, incoming, done, now)
                except Exception as exc:  # the answer is lost, not the record of the orders
                    done["reply"] = None
                    done["reply_error"] = f"{type(exc).__name__}: {exc}"
            record.add(incoming.message_id, {k: v for k, v in done.items() if k != "message_id"})
            seen[incoming.message_id] = done
            results.append(done)
    return {
        "messages": results,
        "accepted": sum(1 for r in results if r["outcome"] == "accepted"),
        "rejected": sum(1 for r in results if r["outcome"] == "rejected"),
        "duplicates": sum(1 for r in results if r["outcome"] == "duplicate"),
        "late": sum(1 for r in results if r.get("late")),
        "ignored": len(left_alone),
        "left_alone": left_alone,  # each named: Message-ID, sender, subject and why
    }


def _quarantine(campaign: Campaign, message_id: str, raw: bytes, crash: str | None) -> str:
    """Keep a mail pbem could not read or handle where the referee can read it
    (.pbem/quarantine/NAME.eml, and what went wrong in NAME.txt beside it); returns its path
    in the campaign folder. The inbox record says the mail was rejected, so it is never
    taken again."""
    folder = campaign.private / QUARANTINE
    folder.mkdir(parents=True, exist_ok=True)
    name = hashlib.sha256(message_id.encode("utf-8", "replace")).hexdigest()[:16]
    kept = folder / f".{name}.eml.tmp"
    kept.write_bytes(raw)
    kept.replace(folder / f"{name}.eml")
    if crash is not None:
        yamlio.write_atomic(folder / f"{name}.txt", f"Message-ID: {message_id}\n\n{crash}")
    return f"{PRIVATE}/{QUARANTINE}/{name}.eml"


def _digests(incoming: m.Incoming) -> dict[str, list[str]]:
    """What identifies each orders file of a mail in the log: the digest of its signature
    (the log's `sig_digest`) and of the file as sent."""
    out = {}
    for name, raw in incoming.files:
        found = [f"file:{hashlib.sha256(raw).hexdigest()}"]
        if name in incoming.signatures:
            found.append(f"sig:{hashlib.sha256(incoming.signatures[name]).hexdigest()}")
        out[name] = found
    return out


def _taking(campaign: Campaign, incoming: m.Incoming, now: datetime | None,
            prior: dict[str, Any] | None) -> dict[str, Any]:
    """The record of a mail whose orders are being applied: if pbem is killed now, the next
    run finds out from the log after `after_seq` whether they went in (`_landed`). A mail
    taken again after a kill keeps the step it was first taken at."""
    from pbem.mail import transport as m

    after = prior.get("after_seq") if prior is not None else None
    return {"from": incoming.sender, "subject": incoming.subject, "at": _iso(now or m.now_utc()),
            "files": incoming.names(), "outcome": "taking",
            "after_seq": int(after if after is not None else campaign.state()["seq"]),
            "digests": _digests(incoming)}


def _only(incoming: m.Incoming, landed: dict[str, Any] | None) -> m.Incoming:
    """The mail with only its files that are not in the log yet."""
    import dataclasses

    if landed is None:
        return incoming
    return dataclasses.replace(incoming, files=[f for f in incoming.files
                                                if f[0] in landed["missing"]])


def reply_key(message_id: str) -> str:
    """The outbox key of the answer to a player's mail."""
    return f"reply:{message_id}"


def _accepted(incoming: m.Incoming, now: datetime | None, landed: dict[str, Any], *,
              elsewhere: bool = False) -> dict[str, Any]:
    """A mail whose files are in the log already. `elsewhere`: another copy of the campaign
    (a second judge) recorded them, and that judge answers the player: this one does not."""
    from pbem.mail import transport as m

    who = "another copy of the campaign (a second judge)" if elsewhere else "a killed pbem inbox"

    return {"message_id": incoming.message_id, "from": incoming.sender,
            "subject": incoming.subject, "at": _iso(now or m.now_utc()),
            "dated": _iso(incoming.date) if incoming.date else None, "files": incoming.names(),
            "signed": sorted(incoming.signatures), "outcome": "accepted",
            "recorded": landed["recorded"], "resolved": landed["resolved"],
            "recovered": f"{who} had applied {', '.join(landed['found'])} of this "
                         f"mail (step {landed['recorded'][0]['seq']}); not applied again",
            **({"answered_elsewhere": True} if elsewhere else {})}


def _made_elsewhere(campaign: Campaign, seq: int) -> bool:
    """Whether step `seq` was committed by another copy of the campaign (a judge's copy
    commits under a name of its own: Campaign.committer)."""
    from pbem.log import entry_name

    store = campaign.store()
    sha = store.commit_of(entry_name(seq))
    return sha is not None and store.committer(sha) != campaign.committer()[0]


def _entry_digests(campaign: Campaign, entry: dict[str, Any]) -> set[str]:
    """The digests (as `_digests` makes them) of the orders an orders step recorded: its
    signature digests, and its file: in orders/, or sealed (opened with the referee's key)."""
    from pbem.crypto import sealed

    pending = entry.get("pending") or {}
    records = pending if "factions" in entry else {entry.get("faction"): pending}
    found: set[str] = set()
    for rec in records.values():
        if not isinstance(rec, dict):
            continue
        if rec.get("sig_digest"):
            found.add(f"sig:{rec['sig_digest']}")
        text: Any = None
        node = rec.get("sealed") or rec.get("file_sealed")
        if node is not None:
            try:
                text = sealed.open_node(campaign.id, node, campaign.referee_identities()).value.get("file")
            except Exception:  # no referee key here: the signature digest must do
                text = None
        elif rec.get("file") and (campaign.root / str(rec["file"])).is_file():
            text = (campaign.root / str(rec["file"])).read_bytes().decode("utf-8", "replace")
        if isinstance(text, str):
            found.add(f"file:{hashlib.sha256(text.encode('utf-8')).hexdigest()}")
    return found


def _landed(campaign: Campaign, incoming: m.Incoming, prior: dict[str, Any]) -> dict[str, Any] | None:
    """For a mail a killed `inbox` left "taking": which of its files are in the log after
    the step it was taken at, the steps that recorded them and those they completed
    ({found, missing, recorded, resolved}); None when none of them is."""
    wanted = {name: set(found) for name, found in _digests(incoming).items()}
    found: list[str] = []
    recorded: list[dict[str, Any]] = []
    resolved: list[dict[str, Any]] = []
    for seq in range(int(prior.get("after_seq") or 0) + 1, int(campaign.state()["seq"]) + 1):
        entry = campaign.entry(seq)
        hit = []
        if entry["type"] == "orders":
            there = _entry_digests(campaign, entry)
            hit = [name for name, digests in wanted.items() if digests & there and name not in found]
        if hit:
            found += hit
            recorded += [{"faction": f, "seq": seq}
                         for f in entry.get("factions") or [entry.get("faction")]]
        elif entry["type"] == "resolve" and recorded:
            resolved.append({"turn": entry["turn"], "phase": entry["phase"], "seq": seq})
        elif recorded:
            break  # another command's step: what this mail completed ends here
    if not recorded:
        return None
    return {"found": found, "missing": [n for n in wanted if n not in found],
            "recorded": recorded, "resolved": resolved}


def _failed(incoming: m.Incoming, now: datetime | None, problem: str) -> dict[str, Any]:
    from pbem.mail import transport as m

    return {"message_id": incoming.message_id, "from": incoming.sender,
            "subject": incoming.subject, "at": _iso(now or m.now_utc()),
            "files": incoming.names(), "signed": sorted(incoming.signatures),
            "outcome": "rejected", "problems": [problem]}


def _lateness(campaign: Campaign, incoming: m.Incoming,
              now: datetime | None) -> list[dict[str, str]]:
    """The orders files of the mail that came after their faction's deadline: the mail's
    Date: (else `now`) against the deadline of the phase now awaiting them."""
    from pbem.mail import transport as m

    due = deadline_of(campaign)
    if due is None:
        return []
    dated = incoming.date or now or m.now_utc()
    out = []
    for name, named in incoming.factions():
        for faction in named:
            deadline = due["factions"].get(faction)
            if deadline is not None and dated > _parse_iso(deadline):
                out.append({"file": name, "faction": faction, "dated": _iso(dated),
                            "deadline": deadline})
    return out


def _take(root: Path, campaign: Campaign, incoming: m.Incoming,
          now: datetime | None) -> dict[str, Any]:
    """Apply one mail's orders files like `pbem apply`; every problem as FILE:LINE."""
    from pbem import api
    from pbem.mail import transport as m

    done: dict[str, Any] = {"message_id": incoming.message_id, "from": incoming.sender,
                            "subject": incoming.subject, "at": _iso(now or m.now_utc()),
                            "dated": _iso(incoming.date) if incoming.date else None,
                            "files": incoming.names(),
                            "signed": sorted(incoming.signatures)}
    problems = list(incoming.problems)
    factions = campaign.factions()
    for name, named in incoming.factions():  # none: `pbem apply` reports the missing key
        for faction in named:
            if faction not in factions or name in incoming.signatures:
                continue  # an unknown faction: `pbem apply` says so; signed: the key proves them
            owner = str(factions[faction].get("email") or "").lower()
            if not owner:  # a seat with no address (the moderator's own, hot-seat): no sender proves it
                problems.append(f"{name}: {faction} has no mail address in this campaign, so "
                                "its orders are taken by mail only when signed with its key")
            elif owner != incoming.sender:
                problems.append(f"{name}: unsigned orders for {faction} must come from its "
                                "player's address; sign them or send them from that address")
    policy = late_policy(campaign)
    late = _lateness(campaign, incoming, now) if policy != "accept" else []
    if policy == "reject":
        problems += [f"{x['file']}: sent {x['dated']}, after the deadline of {x['faction']} "
                     f"({x['deadline']}); this campaign takes no late orders" for x in late]
    if not problems:
        folder = Path(tempfile.mkdtemp(prefix="pbem-inbox-"))
        try:
            applied = api.apply(root, incoming.write(folder))
        except Busy:
            raise
        except PbemError as exc:
            prefix = str(folder) + "/"
            problems = [line.replace(prefix, "") for line in (exc.details or [exc.message])]
            if exc.details:
                done["error"] = exc.message.replace(prefix, "")
            if incoming.inline and not incoming.signatures and any(
                    ".sig beside" in p for p in problems):
                problems.append(INLINE_SIGNING)
        else:
            done.update(outcome="accepted",
                        recorded=[{"faction": r["faction"], "seq": r["seq"]} for r in applied.recorded],
                        resolved=[{"turn": r["turn"], "phase": r["phase"], "seq": r["seq"]}
                                  for r in applied.resolved])
            if applied.warnings:  # legal orders that will do nothing: the player is told
                prefix = str(folder) + "/"
                done["warnings"] = [w.replace(prefix, "") for w in applied.warnings]
            if late:
                done["late"] = late
            return done
        finally:
            shutil.rmtree(folder, ignore_errors=True)
    done.update(outcome="rejected", problems=problems)
    if late and policy == "reject":
        done["late"] = late
    return done


_REPLY_PREFIX = re.compile(r"^\s*((re|aw|sv|fwd?|wg)\s*(\[\d+\])?\s*:\s*)+", re.IGNORECASE)
_OUTCOME_TAG = re.compile(r"\s*\[(accepted|accepted, late|rejected)\]", re.IGNORECASE)


def reply_subject(subject: str | None, what: str) -> str:
    """The answer's subject: "Re: " once, the player's subject without the "Re:"s and the
    outcome tags earlier answers added, then this answer's outcome ("[accepted]")."""
    core = _OUTCOME_TAG.sub("", _REPLY_PREFIX.sub("", subject or "")).strip() or "your orders"
    return f"Re: {core} [{what}]"


def _reply(campaign: Campaign, box: m.Outbox, msg: Any, incoming: m.Incoming,
           done: dict[str, Any], now: datetime | None) -> str | None:
    """Queue an answer to the sender when the sender is one of the players (never to a
    stranger: no backscatter). Returns the reply's Message-ID."""
    from pbem.mail import transport as m

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
        if done.get("warnings"):
            lines += ["", "Legal, but these will do nothing:"]
            lines += [f"  {w}" for w in done["warnings"]]
        if done.get("late"):
            lines += ["", "They came late, and the referee sees that they did:"]
            lines += [f"  {x['file']}: sent {x['dated']}, the deadline of {x['faction']} was "
                      f"{x['deadline']}" for x in done["late"]]
        what = "accepted, late" if done.get("late") else "accepted"
    else:
        lines = [f"Your orders ({files}) were rejected; nothing was recorded. The problems:", ""]
        lines += [f"  {p}" for p in done["problems"]]
        lines += ["", "Correct the file (pbem check FILE shows the same problems) and send it again."]
        what = "rejected"
    subject = reply_subject(incoming.subject, what)
    refs = [r for r in str(msg.get("References") or "").split() if r] + [incoming.message_id]
    key = reply_key(incoming.message_id)
    queued = box.find(key)
    if queued is not None and not queued.get("superseded"):  # a killed inbox queued it already
        return str(queued["message_id"])
    reply = m.build(sender=sender(campaign), to=(player.name, player.email),
                    subject=subject,
                    text=f"Dear {player.name},\n\n" + "\n".join(lines) + "\n" + signature(campaign),
                    in_reply_to=incoming.message_id, references=refs,
                    headers={"Auto-Submitted": "auto-replied", "X-Pbem-Campaign": campaign.id,
                             "X-Pbem-Kind": "reply",
                             **({"X-Pbem-Late": "yes"} if done.get("late") else {})}, when=now)
    record = box.queue(reply, key=key, kind="reply", slug=player.slug,
                       when=now, meta={"in_reply_to": incoming.message_id, "outcome": what,
                             "turn": campaign.phase(campaign.state()).turn})
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
        # the moderator's own edits (deadlines, mail, absences) go out too, so that every
        # clone agrees on the deadlines (the lock checked that nothing protected changed)
        settled = store.commit_if_changed(CONFIG, "settings: the moderator's edits of "
                                          f"{CONFIG}", campaign.referee())
        try:
            store.publish(name)
        except CampaignError as exc:
            text = exc.message
            if "already exists" in text:  # a turn tag an undo moved after it was published
                raise PbemError(
                    f"publish to {name}: the history went out, but a turn tag differs on the "
                    "remote (an undo took back the step it marked, after it was published); "
                    "pbem never force-pushes, so the remote keeps the old one, and every "
                    "player's audit shows the re-roll", details=[text]) from None
            if any(k in text for k in ("[rejected]", "non-fast-forward", "fetch first")):
                raise PbemError(
                    f"publish to {name} was rejected: the remote has commits that this campaign "
                    f"does not have (not a fast-forward), so nothing was pushed. pbem never "
                    f"force-pushes: the shared history must only grow. See what is there with "
                    f"'git fetch {name} && git log HEAD..{name}/main'",
                    details=[text]) from None
            if "rejected" in text:  # a hook or a protected branch said no
                raise PbemError(f"publish to {name} was rejected by the remote: {text}") from None
            raise PbemError(f"publish to {name} failed: {text}") from None
        head = store.head()
        tags = sorted(store.tags())
        notes = []
        if store.remote_head(name) != "refs/heads/main":
            if store.point_local_head(name, "main"):
                notes.append(f"the repository of {name} named another branch as its HEAD (as "
                             "'git init --bare' leaves it): it now names main, so a plain "
                             "'git clone' checks the campaign out")
            else:
                notes.append(f"the HEAD of {name} does not name main, so a plain 'git clone' of "
                             "it comes out empty: clone with 'git clone -b main URL', or set it "
                             "on the server ('git symbolic-ref HEAD refs/heads/main' in the "
                             "bare repository)")
    return {"remote": name, "head": head, "tags": tags, "settings_committed": settled,
            "notes": notes}
