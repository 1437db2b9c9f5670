"""A judge: one referee address for many campaigns.

A judge folder holds `judge.yaml` (the judge's name, its address and its mail settings) and
a folder for each campaign it serves, each an ordinary pbem campaign made with
`pbem new JUDGE/ID ...`: nothing of a campaign moves into the judge. The judge reads one
mailbox and routes each mail to its campaign, by the `campaign:` its orders files name or
else by `[ID]` in its subject, where the campaign's own `pbem inbox` takes it (records it,
applies its orders, answers the player). A mail for no campaign the judge serves, or for
two, is answered with why and the list of the campaigns (never an automatic message: no
mail loops). `tick`, `mail` and `publish` do for every campaign what they do for one. A campaign that
fails (its folder broken, its lock held) is reported with its error and the others go on.
"""

from __future__ import annotations

import email.utils
import functools
import re
import tempfile
import traceback
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from datetime import datetime
from pathlib import Path
from typing import Any

from pbem import api, yamlio
from pbem.campaign import CONFIG, COPY, STATE, Campaign
from pbem.crypto.keys import read_key_card
from pbem.errors import Busy, CampaignError, DataError, PbemError, UsageError
from pbem.mail import loop
from pbem.mail import transport as m
from pbem.step import finish

JUDGE_FILE = "judge.yaml"
PRIVATE = ".judge"  # the judge's own: its outbox, the mail it answered
SUBJECT_ID = re.compile(r"\[([A-Za-z0-9][A-Za-z0-9_.-]{0,63})\]")
# what a player may ask the judge by mail, as the first word of a subject (the case is
# free; a campaign's [ID] anywhere in it): what the judge answers itself
COMMANDS = {
    "list": "the campaigns the judge serves, where each stands and who it waits for",
    "status": "where one campaign stands: its turn, its phase, who it waits for, its deadline",
    "history": "one campaign's steps so far, one line each (the last 40)",
    "resend": "your last report of one campaign, sent again: 'resend [ID]'",
    "join": "take an open seat: 'join [ID] FACTION', your public key (id_ed25519.pub) attached "
            "or pasted in the mail",
    "help": "this list",
}
# campaign.yaml `mail: join:` how an open seat (`mail: open_seats: [FACTION, ...]`) is taken
JOIN = ("approve", "first_come")
REQUESTS = "requests.yaml"  # in .judge/: the joins awaiting the moderator, by Message-ID
HISTORY_LINES = 40


ANSWERS_PER_DAY = 20  # the judge's own answers one address gets in 24 hours, by default


@dataclass(frozen=True)
class Judge:
    root: Path
    name: str
    address: str
    mail: dict[str, Any]
    # the remote every campaign of this judge shares with other judges (judge.yaml
    # `sync: REMOTE`), or None for a judge alone: with one, each campaign is brought up to the
    # remote before the judge works on it and pushed after, and a judge that loses the race
    # to push goes back to the remote's history and takes its mails again (`_synced`)
    sync: str | None = None
    # how many of the judge's own answers (to commands, to mails it cannot route) one
    # address gets in 24 hours (judge.yaml `answers_per_day`): a forged sender or a mail
    # loop never makes it a source of a flood
    answers_per_day: int = ANSWERS_PER_DAY

    @property
    def outbox(self) -> m.Outbox:
        return m.Outbox(self.root / PRIVATE / "outbox")


def init(root: Path, name: str, address: str) -> dict[str, Any]:
    """Make `root` a judge folder: its judge.yaml (which `pbem judge` commands read)."""
    if "@" not in email.utils.parseaddr(address)[1]:
        raise UsageError(f"--address {address!r}: expected the judge's e-mail address")
    path = root / JUDGE_FILE
    if path.exists():
        raise UsageError(f"{path}: this folder is a judge already")
    root.mkdir(parents=True, exist_ok=True)
    yamlio.write_atomic(path, "# pbem judge: one referee address for the campaigns in this folder\n"
                        + yamlio.dump({"judge": {"name": name, "address": address},
                                       "mail": {}}))
    (root / PRIVATE).mkdir(mode=0o700, exist_ok=True)
    (root / ".gitignore").write_text(f"{PRIVATE}/\n", encoding="utf-8")
    return {"judge": str(root), "name": name, "address": address}


def open_judge(root: Path) -> Judge:
    """The judge of folder `root`, its judge.yaml checked."""
    path = root / JUDGE_FILE
    if not path.is_file():
        raise UsageError(f"{root}: not a judge folder (no {JUDGE_FILE}; make one with "
                         f"'pbem judge init {root} --address ADDRESS')")
    data = yamlio.read_trusted(path)
    head = data.get("judge") if isinstance(data, dict) else None
    if not isinstance(head, dict) or not isinstance(head.get("address"), str):
        raise DataError(f"{path}: expected judge: {{name: NAME, address: ADDRESS}}")
    settings = data.get("mail") or {}
    if not isinstance(settings, dict):
        raise DataError(f"{path}: mail: expected a mapping (smtp, starttls, user)")
    sync = data.get("sync")
    if sync is not None and not (isinstance(sync, str) and sync.strip()):
        raise DataError(f"{path}: sync: expected the name of the git remote the judges share")
    per_day = data.get("answers_per_day", ANSWERS_PER_DAY)
    if isinstance(per_day, bool) or not isinstance(per_day, int) or per_day < 1:
        raise DataError(f"{path}: answers_per_day: expected a whole number 1 or more, not {per_day!r}")
    return Judge(root, str(head.get("name") or "pbem judge"), head["address"], settings,
                 sync.strip() if sync else None, per_day)


def campaigns(judge: Judge) -> tuple[dict[str, Path], list[dict[str, str]]]:
    """The campaigns the judge serves, by id (each a folder of the judge holding a
    campaign.yaml), and those it cannot serve, each with why: a campaign.yaml that does not
    read, or an id two folders claim."""
    found: dict[str, list[Path]] = {}
    broken: list[dict[str, str]] = []
    for folder in sorted(p for p in judge.root.iterdir() if (p / CONFIG).is_file()):
        try:
            found.setdefault(Campaign.open(folder).id, []).append(folder)
        except Exception as exc:  # one broken campaign never stops the judge
            broken.append({"folder": folder.name, "error": _error(exc)})
    served: dict[str, Path] = {}
    for cid, folders in found.items():
        if len(folders) == 1:
            served[cid] = folders[0]
        else:
            broken += [{"folder": f.name, "error": f"campaign {cid} is in {len(folders)} folders "
                        f"({', '.join(p.name for p in folders)}): the judge serves none of them"}
                       for f in folders]
    return served, broken


def listing(root: Path) -> dict[str, Any]:
    """Each campaign the judge serves: its game, where it stands, who it waits for."""
    judge = open_judge(root)
    served, broken = campaigns(judge)
    out: list[dict[str, Any]] = []
    for cid, folder in served.items():
        try:
            status = api.status(folder)
        except Exception as exc:
            broken.append({"folder": folder.name, "error": _error(exc)})
            continue
        try:
            seats = open_seats(Campaign.open(folder))
        except Exception as exc:
            broken.append({"folder": folder.name, "error": _error(exc)})
            continue
        out.append({"campaign": cid, "folder": folder.name, "game": status["game"],
                    "turn": status["turn"], "phase": status["phase"], "over": status["over"],
                    "awaiting": status["awaiting"], "unseated": status.get("unseated", []),
                    "open": seats})
    return {"judge": judge.name, "address": judge.address, "campaigns": out, "broken": broken}


def route(incoming: m.Incoming | None, subject: str, served: Iterable[str]) -> tuple[str | None, str]:
    """The campaign a mail is for, or None with why: the ids its orders files name
    (`campaign:`), else the `[ID]`s of its subject that the judge serves."""
    known = set(served)
    named = incoming.campaigns() if incoming is not None else set()
    how = "its orders files name"
    if not named:
        named = {i for i in SUBJECT_ID.findall(subject or "") if i in known}
        how = "its subject names"
    if len(named) == 1:
        (cid,) = named
        if cid in known:
            return cid, f"{how} campaign {cid}"
        return None, f"{how} campaign {cid}, which this judge does not serve"
    if named:
        return None, f"{how} several campaigns ({', '.join(sorted(named))}): send one mail for each"
    return None, ("it names no campaign: put the campaign's id in the subject, as [ID], or "
                  "send an orders file (its campaign: line names it)")


def inbox(root: Path, maildir: Path | None = None, mbox: Path | None = None,
          imap: str | None = None, *, now: datetime | None = None) -> dict[str, Any]:
    """Read the judge's mailbox once and route each mail to its campaign's inbox (pbem.mail
    .loop.inbox, which records, applies and answers it); answer the mails for no campaign
    served. Every campaign's mail is taken, whatever another campaign's failure."""
    judge = open_judge(root)
    served, broken = campaigns(judge)
    by_campaign: dict[str, list[bytes]] = {}
    misrouted: list[dict[str, Any]] = []
    commands: list[dict[str, Any]] = []
    for raw in loop.mailbox(maildir, mbox, imap):
        msg = m.parse(raw)
        try:
            incoming = m.extract(msg)
        except Exception:  # unreadable: its campaign (if its subject names one) keeps it
            incoming = None
        mid, sender, subject = m.describe(msg)
        asked = command_of(subject) if incoming is None and not m.automatic(msg) else None
        if asked is not None:
            commands.append({"message_id": mid, "from": sender, "command": asked,
                             "reply": _reply(judge, msg, mid, sender, asked,
                                             _command(judge, asked, msg, mid, sender, served),
                                             now)})
            continue
        cid, why = route(incoming, subject, served)
        if cid is not None:
            by_campaign.setdefault(cid, []).append(raw)
        elif not m.automatic(msg):
            misrouted.append({"message_id": mid, "from": sender, "subject": subject, "why": why,
                              "reply": _reply(judge, msg, mid, sender, "not routed",
                                              _not_routed(judge, why, served), now)})
    results: dict[str, Any] = {}
    for cid, raws in by_campaign.items():
        take = functools.partial(loop.inbox, messages=raws, now=now)
        results[cid] = _each(functools.partial(_synced, judge, work=take, reads_mailbox=True),
                             served[cid])
    return {"campaigns": results, "commands": commands, "misrouted": misrouted,
            "broken": broken}


def tick(root: Path, now: datetime | None = None, *, send: bool = False) -> dict[str, Any]:
    """`pbem tick` for every campaign (deadlines, reminders, reports of a new phase)."""
    judge = open_judge(root)
    served, broken = campaigns(judge)
    def ticked(folder: Path, landed_from: int | None) -> dict[str, Any]:
        return loop.tick(folder, now, send=send)

    results = {cid: _each(lambda f: _synced(judge, f, ticked), folder)
               for cid, folder in served.items()}
    sent = _send_own(judge, now) if send else []
    return {"campaigns": results, "broken": broken, "sent": sent}


def mail(root: Path, *, send: bool = False, now: datetime | None = None) -> dict[str, Any]:
    """`pbem mail` for every campaign (each phase's reports queued once), and with `send`
    every outbox delivered: each campaign's, by its own SMTP settings, and the judge's."""
    judge = open_judge(root)
    served, broken = campaigns(judge)
    results = {cid: _each(lambda f: loop.mail(f, send=send, now=now), folder)
               for cid, folder in served.items()}
    sent = _send_own(judge, now) if send else []
    return {"campaigns": results, "broken": broken, "sent": sent,
            "pending": len(judge.outbox.pending())}


def publish(root: Path) -> dict[str, Any]:
    """`pbem publish` for every campaign: its history and turn tags pushed to its own remote
    (mail: remote in its campaign.yaml, else origin), never forced."""
    judge = open_judge(root)
    served, broken = campaigns(judge)
    return {"campaigns": {cid: _each(loop.publish, folder) for cid, folder in served.items()},
            "broken": broken}


TRIES = 3  # races a judge may lose in a row on one campaign before it says so


def _synced(judge: Judge, folder: Path, work: Callable[..., dict[str, Any]], *,
            reads_mailbox: bool = False) -> dict[str, Any]:
    """`work(folder, landed_from=STEP)` on a campaign, for a judge that shares its campaigns
    with other judges through the remote `judge.sync`: the campaign is brought up to the
    remote first, and what the work recorded is pushed after (fast-forward only: the push is
    the lock). A judge whose push is refused lost the race: it goes back to the remote's
    history, whose steps the other judge recorded, takes its mails again (those the other
    judge recorded too are found in its steps and accepted, not applied twice) and pushes
    again. A judge alone just works."""
    if judge.sync is None:
        return work(folder, landed_from=None)
    said: list[str] = []
    _name_copy(judge, Campaign.open(folder))
    for _ in range(TRIES):
        campaign = Campaign.open(folder)
        with campaign.locked(finish=finish):
            landed_from, how = _pull(campaign, judge.sync)
            pulled = int(campaign.state()["seq"])
        said.append(how)
        # a mail this copy has no record of may be in any step after the last run that read
        # the whole mailbox and pushed (one killed after its pull leaves no mark)
        result = work(folder, landed_from=min(landed_from, _synced_to(campaign)))
        try:
            loop.publish(folder, judge.sync)
        except PbemError as exc:
            if "rejected" not in exc.message:
                raise
            said.append("lost the race to push: another judge's steps went first")
            continue
        if reads_mailbox:  # every mail of the mailbox now has a record here
            yamlio.write_atomic(campaign.private / SYNCED, f"{pulled}\n")
        return {**result, "sync": said}
    raise CampaignError(f"{folder.name}: lost the race to push to {judge.sync} {TRIES} times "
                        "in a row; nothing of this run is lost, the next run takes its mails again")


SYNCED = "synced"  # in a campaign's .pbem/: the step its last whole judge run pulled to


def _synced_to(campaign: Campaign) -> int:
    """The step this copy was at when its last run that read the whole mailbox and pushed
    began (0 before any): every mail another judge recorded after it may be one this copy
    has never seen."""
    path = campaign.private / SYNCED
    text = path.read_text(encoding="utf-8").strip() if path.is_file() else ""
    return int(text) if text.isdigit() else 0


def _name_copy(judge: Judge, campaign: Campaign) -> None:
    """Name this judge's copy of the campaign after the judge (.pbem/copy, the judge's own
    id from .judge/id, made once), which its commits carry (Campaign.committer): two judges
    that take the same mail in the same second then make two commits, not one, and the
    second push is refused as it must be. A .pbem/ copied from another judge's copy is
    renamed here."""
    import secrets

    own = judge.root / PRIVATE / "id"
    if not own.is_file():
        yamlio.write_atomic(own, secrets.token_hex(4) + "\n")
    name = own.read_text(encoding="utf-8")
    path = campaign.private / COPY
    if not path.is_file() or path.read_text(encoding="utf-8") != name:
        yamlio.write_atomic(path, name)


def _pull(campaign: Campaign, remote: str) -> tuple[int, str]:
    """Bring the campaign up to the remote's history (under its lock). Returns the step
    after which the remote may hold mails this copy has not taken, and what was done."""
    store = campaign.store()
    seq = int(campaign.state()["seq"])
    theirs = store.fetch(remote)
    ours = store.head()
    if theirs is None or theirs == ours:
        return seq, "up to date with the remote"
    if store.contains(ours, theirs):
        store.reset_to(theirs)
        store.take_tags(remote)
        return seq, f"brought up to the remote's step {_seq_at(store, theirs)}"
    if store.contains(theirs, ours):
        return seq, "ahead of the remote: its steps go out now"
    base = _seq_at(store, store.merge_base(ours, theirs))
    record = loop.Record(campaign.private / loop.INBOX)
    retaken = []
    for mid, done in record.load().items():  # taken again, looked for in the remote's steps
        if done.get("outcome") == "taking":  # a run killed while it took it: never pushed
            retaken.append(mid)
            record.add(mid, {**done, "after_seq": min(int(done.get("after_seq") or base), base)})
        elif any(int(r.get("seq", 0)) > base for r in done.get("recorded") or []):
            retaken.append(mid)
            record.add(mid, {**done, "outcome": "taking", "after_seq": base})
    # the answers the dropped steps queued are never sent: the mail is answered again by
    # the judge that records it (this one, applying it anew, or the winner)
    loop.outbox_of(campaign).withdraw({loop.reply_key(mid) for mid in retaken},
                                      f"withdrawn: the steps after {base} lost the race to push")
    store.reset_to(theirs)
    store.take_tags(remote)
    return base, (f"another judge's steps after step {base} went first: this copy's steps "
                  f"after it dropped, its mails taken again")


def _seq_at(store: Any, sha: str) -> int:
    """The step a commit of the campaign is at (its snapshot's seq)."""
    raw = store.read_at(sha, STATE)
    state = yamlio.load_untrusted(raw, STATE).data if raw is not None else {}
    return int(state.get("seq", 0)) if isinstance(state, dict) else 0


def _each(work: Callable[[Path], dict[str, Any]], folder: Path) -> dict[str, Any]:
    """One campaign's part of a judge's round: its result, or its error (a lock another
    pbem holds, a broken repository) in place of a stop."""
    try:
        return {"ok": True, "result": work(folder)}
    except Busy as exc:
        return {"ok": False, "error": f"busy: {exc}"}
    except Exception as exc:
        return {"ok": False, "error": _error(exc),
                **({} if isinstance(exc, (UsageError, DataError)) else
                   {"trace": traceback.format_exc(limit=3)})}


def _error(exc: BaseException) -> str:
    return f"{type(exc).__name__}: {exc}"


def command_of(subject: str) -> str | None:
    """The command a subject asks the judge (its first word, past any "Re:" and [ID]s), or
    None for a subject that asks none."""
    words = _words(subject)
    first = words[0].lower().rstrip(":.!?") if words else ""
    return first if first in COMMANDS else None


def _words(subject: str) -> list[str]:
    """A subject's words, past any "Re:" and without its [ID]s."""
    return SUBJECT_ID.sub(" ", re.sub(r"^(\s*re\s*:\s*)+", "", subject or "", flags=re.I)).split()


def _command(judge: Judge, asked: str, msg: Any, mid: str, sender: str,
             served: dict[str, Path]) -> list[str]:
    """The judge's answer to a command, as lines of text."""
    subject = str(msg.get("Subject") or "")
    if asked in ("list", "help"):
        lines = [] if asked == "list" else [f"The judge {judge.name} answers these commands, "
                                             "each the first word of a mail's subject:", ""]
        if asked == "help":
            lines += [f"  {name}{' [ID]' if name in ('status', 'history', 'resend') else ''}: {what}"
                      for name, what in COMMANDS.items()]
            lines += ["", "Orders go to the same address: attach the orders file (its campaign: "
                      "line names the campaign)."]
            return lines
        listed = listing(judge.root)
        lines += [f"The campaigns of the judge {judge.name}:"]
        for c in listed["campaigns"]:
            where = "game over" if c["over"] else f"turn {c['turn']}, {c['phase']}"
            waits = f"; awaiting {', '.join(c['awaiting'])}" if c["awaiting"] else ""
            seats = f"; open seats: {', '.join(c['open'])}" if c.get("open") else ""
            lines.append(f"  [{c['campaign']}] {c['game']}: {where}{waits}{seats}")
        return lines if listed["campaigns"] else [*lines, "  none yet"]
    named = [i for i in SUBJECT_ID.findall(subject) if i in served]
    if len(named) != 1:
        return [f"{asked} needs one campaign: write its id in the subject, as "
                f"'{asked} [ID]'. The campaigns: {', '.join(sorted(served)) or 'none yet'}."]
    cid = named[0]
    try:
        if asked == "join":
            return _join(judge, cid, served[cid], msg, mid, sender)
        if asked == "resend":
            return _resend(cid, served[cid], mid, sender)
        if asked == "status":
            s = api.status(served[cid])
            where = "game over" if s["over"] else f"turn {s['turn']}, {s['phase']}"
            lines = [f"[{cid}] {s['game']}: {where}, step {s['seq']}"]
            if s["awaiting"]:
                lines.append(f"  awaiting the orders of {', '.join(s['awaiting'])}")
            if s.get("deadline"):
                lines.append(f"  deadline {s['deadline']}")
            return lines
        steps = api.log(served[cid])[-HISTORY_LINES:]
        return [f"[{cid}] the last {len(steps)} step(s):"] + [
            f"  {e['seq']:4d}  turn {e['turn']} {e['phase']}: {e['summary']}" for e in steps]
    except Exception as exc:  # the campaign is broken: said, and the judge goes on
        return [f"[{cid}] cannot be read now: {_error(exc)}"]


def _resend(cid: str, folder: Path, mid: str, sender: str) -> list[str]:
    """The last report the campaign queued to `sender`, queued again with a Message-ID of its
    own (only to a player's own address: nobody asks for another's report)."""
    campaign = Campaign.open(folder)
    box = loop.outbox_of(campaign)
    last = box.last(sender, "report")
    if last is None:
        return [f"[{cid}] has no report for {sender}: only a player of the campaign gets one, "
                "at the address the campaign has for them."]
    key = f"resend:{mid}"
    if box.find(key) is None:
        again = box.read(last)
        del again["Message-ID"]
        again["Message-ID"] = email.utils.make_msgid("pbem", domain=sender.rsplit("@", 1)[-1])
        box.queue(again, key=key, kind="report-again", slug=last["file"].split("-", 1)[-1][:-4],
                  meta={"resends": last["message_id"]})
    return [f"[{cid}] your last report (\"{last['subject']}\") is sent again, by the campaign's "
            "own mail."]


def open_seats(campaign: Campaign) -> list[str]:
    """The seats a player may take by mail: campaign.yaml `mail: open_seats:`, less those
    taken (a seat is taken once it has a player's address)."""
    given = loop.settings(campaign).get("open_seats") or []
    where = f"{campaign.root / CONFIG}: mail: open_seats"
    if not isinstance(given, list) or not all(isinstance(f, str) for f in given):
        raise CampaignError(f"{where}: expected a list of factions")
    factions = campaign.factions()
    unknown = [f for f in given if f not in factions]
    if unknown:
        raise CampaignError(f"{where}: {', '.join(unknown)} is not a faction of this campaign "
                            f"(factions: {', '.join(factions)})")
    return [f for f in given if not (factions[f] or {}).get("email")]


def join_policy(campaign: Campaign) -> str:
    """campaign.yaml `mail: join:`: `approve` (the default: the moderator seats each player
    who asks, `pbem judge approve`) or `first_come` (the first to ask takes the seat)."""
    value = loop.settings(campaign).get("join", "approve")
    if value not in JOIN:
        raise CampaignError(f"{campaign.root / CONFIG}: mail: join: expected "
                            f"{' or '.join(JOIN)}, not {value!r}")
    return str(value)


def key_card(msg: Any) -> str:
    """The public key a mail carries, as a key card's text: its ssh-ed25519 line and at most
    one age1 line, from an attached .pub file or the mail's text ('' if none)."""
    lines: list[str] = []
    for part in msg.walk():
        if part.is_multipart():
            continue
        name = str(part.get_filename() or "")
        if part.get_content_type() != "text/plain" and not name.endswith(".pub"):
            continue
        try:
            content = part.get_content()
        except Exception:  # a part that does not decode holds no key
            continue
        text = content.decode("utf-8", "replace") if isinstance(content, bytes) else str(content)
        lines += [line.strip() for line in text.splitlines()
                  if line.strip().startswith(("ssh-ed25519 ", "age1"))]
    return "\n".join(dict.fromkeys(lines)) + ("\n" if lines else "")


def _join(judge: Judge, cid: str, folder: Path, msg: Any, mid: str, sender: str) -> list[str]:
    """A player asks for an open seat: seated at once (`first_come`), or asked of the
    moderator (`approve`); what to tell the player."""
    wanted = _words(str(msg.get("Subject") or ""))[1:]  # past the command itself
    campaign = Campaign.open(folder)
    seats = open_seats(campaign)
    if len(wanted) != 1 or wanted[0] not in seats:
        return [f"[{cid}] join needs one open seat: 'join [{cid}] FACTION', FACTION one of: "
                f"{', '.join(seats) or 'none (every seat is taken)'}."]
    faction = wanted[0]
    card = key_card(msg)
    try:
        with tempfile.TemporaryDirectory(prefix="pbem-join-") as tmp:
            path = Path(tmp) / "key.pub"
            path.write_text(card, encoding="utf-8")
            read_key_card(path)  # checked before anything is recorded or asked
    except PbemError as exc:
        return [f"[{cid}] no public key to seat you with: {exc.message.split(': ', 1)[-1]}",
                "Attach your id_ed25519.pub (or paste its one line in the mail) and ask again."]
    name = email.utils.parseaddr(str(msg.get("From") or ""))[0] or sender
    request = {"campaign": cid, "faction": faction, "player": f"{name} <{sender}>",
               "card": card, "asked": m.iso(m.now_utc())}
    if join_policy(campaign) == "first_come":
        _seat(folder, mid, request)
        return [f"[{cid}] you play {faction} now: your reports come to {sender}, and your "
                "orders are signed with the key you sent."]
    with m.file_lock(judge.root / PRIVATE / "requests.lock"):
        path = judge.root / PRIVATE / REQUESTS
        pending = yamlio.read_trusted(path) if path.is_file() else {}
        pending[mid] = request
        yamlio.write_atomic(path, yamlio.dump(pending))
    return [f"[{cid}] your request for {faction} went to the moderator, who seats players here; "
            "you will hear when it is done."]


def _seat(folder: Path, mid: str, request: dict[str, Any]) -> dict[str, Any]:
    with tempfile.TemporaryDirectory(prefix="pbem-join-") as tmp:
        path = Path(tmp) / "key.pub"
        path.write_text(request["card"], encoding="utf-8")
        return api.seat(folder, [request["faction"]], f"joined by mail ({mid})",
                        player=request["player"], key=path)


def requests(root: Path) -> dict[str, Any]:
    """The joins awaiting the moderator, by the Message-ID of the mail that asked."""
    judge = open_judge(root)
    path = judge.root / PRIVATE / REQUESTS
    found = yamlio.read_trusted(path) if path.is_file() else {}
    return {"requests": [{"message_id": k, **{f: v for f, v in r.items() if f != "card"}}
                         for k, r in found.items()]}


def approve(root: Path, message_id: str, *, now: datetime | None = None) -> dict[str, Any]:
    """Seat the player a join request asked for (a recorded `pbem seat` step in that
    campaign) and tell the player."""
    judge = open_judge(root)
    served, _ = campaigns(judge)
    with m.file_lock(judge.root / PRIVATE / "requests.lock"):
        path = judge.root / PRIVATE / REQUESTS
        pending = yamlio.read_trusted(path) if path.is_file() else {}
        request = pending.get(message_id)
        if request is None:
            raise UsageError(f"no join request {message_id!r}; the requests: "
                             f"{', '.join(pending) or 'none'} (pbem judge requests)")
        folder = served.get(request["campaign"])
        if folder is None:
            raise UsageError(f"campaign {request['campaign']} is not served by this judge")
        if request["faction"] not in open_seats(Campaign.open(folder)):
            raise UsageError(f"{request['faction']} of {request['campaign']} is no longer open")
        seated = _seat(folder, message_id, request)
        del pending[message_id]
        yamlio.write_atomic(path, yamlio.dump(pending))
    to = email.utils.parseaddr(request["player"])[1]
    answer = m.build(sender=(judge.name, judge.address), to=("", to),
                     subject=f"[{request['campaign']}] you play {request['faction']}",
                     text=f"The moderator seated you: you play {request['faction']} of "
                          f"[{request['campaign']}]. Your reports come to this address.\n\n"
                          f"-- \n{judge.name}\n", in_reply_to=message_id, references=[message_id],
                     headers={"Auto-Submitted": "auto-replied", "X-Pbem-Kind": "judge"}, when=now)
    judge.outbox.queue(answer, key=f"seated:{message_id}", kind="judge", slug="judge", when=now,
                       meta={"in_reply_to": message_id, "answer": "seated"})
    return {"campaign": request["campaign"], "faction": request["faction"],
            "player": request["player"], "seq": seated["seq"]}


def _not_routed(judge: Judge, why: str, served: dict[str, Path]) -> list[str]:
    lines = [f"The judge {judge.name} could not take your mail: {why}.", "",
             "The campaigns it serves:"]
    lines += [f"  [{cid}]" for cid in sorted(served)] or ["  none yet"]
    return lines + ["", f"Write to {judge.address} with the campaign's id in the subject, as "
                    "[ID], or attach an orders file whose campaign: line names it; 'help' as "
                    "the subject lists what the judge answers."]


def _reply(judge: Judge, msg: Any, mid: str, sender: str, what: str, lines: list[str],
           now: datetime | None) -> str | None:
    """Queue, once per Message-ID, the judge's own answer to a mail. Returns the answer's
    Message-ID (None: no address to answer, or it had `answers_per_day` answers already)."""
    to = sender  # the bare address (transport.describe)
    if "@" not in to:
        return None
    box = judge.outbox
    key = f"judge:{mid}"
    queued = box.find(key)
    if queued is not None:
        return str(queued["message_id"])
    if _answered_today(box, to, now) >= judge.answers_per_day:
        return None  # enough for one day: the mail is reported, not answered
    answer = m.build(sender=(judge.name, judge.address), to=("", to),
                     subject=loop.reply_subject(str(msg.get("Subject") or ""), what),
                     text="\n".join([*lines, "", f"-- \n{judge.name}"]) + "\n", in_reply_to=mid,
                     references=[mid],
                     headers={"Auto-Submitted": "auto-replied", "X-Pbem-Kind": "judge"},
                     when=now)
    record = box.queue(answer, key=key, kind="judge", slug="judge", when=now,
                       meta={"in_reply_to": mid, "answer": what})
    return str(record["message_id"])


def _answered_today(box: m.Outbox, to: str, now: datetime | None) -> int:
    """How many of the judge's own answers went to `to` in the 24 hours before `now`."""
    from datetime import timedelta

    since = (now or m.now_utc()) - timedelta(hours=24)
    return sum(1 for r in box.load()["messages"]
               if r.get("kind") == "judge" and r.get("to") == to.lower()
               and datetime.fromisoformat(str(r["queued"])) > since)


def _send_own(judge: Judge, now: datetime | None) -> list[dict[str, Any]]:
    """Deliver the judge's own outbox by the SMTP settings of judge.yaml."""
    where = judge.mail.get("smtp")
    if not where:
        if not judge.outbox.pending():
            return []
        raise UsageError(f"{judge.root / JUDGE_FILE}: mail: smtp: HOST:PORT is needed to send "
                         "the judge's own answers")
    smtp = m.Smtp.parse(str(where), starttls=bool(judge.mail.get("starttls", False)),
                        user=judge.mail.get("user"))
    return m.deliver(judge.outbox, smtp, now=now)
