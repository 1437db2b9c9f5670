"""Mail: building .eml messages, the outbox and its journal, SMTP out, mailboxes in.

This module knows e-mail and nothing of games: `pbem.mail.loop` decides what to send and
what to do with orders that arrive. Every message is written to the outbox before any
attempt to send it, and the journal (`journal.yaml` beside the .eml files) records per
Message-ID whether it was delivered, so a server that is down or drops the connection
loses nothing and a second `--send` delivers each message once.

A kill (-9, a power cut) can come at any moment of a `--send`; `deliver` says what it
did before and after each message so that the next run knows where it stopped:

- queued: the .eml is written (atomically) and the journal names it; a kill before that
  leaves at most a stray .eml under a number the next queue reuses.
- sending: recorded just before the message's DATA goes to the server (after the server
  took its sender and recipient); sent: recorded as soon as the server said 250.
- A message queued but never "sending" was certainly not handed over: the next run sends
  it. A "sent" one is never sent again. Only a message killed between "sending" and "sent"
  is in doubt: the server may have taken it (the kill came after the last byte, before its
  answer was recorded) or not. SMTP cannot be asked which, and losing a report costs a
  player a turn, so the next run sends it again, byte for byte the same .eml under the same
  Message-ID: a mail program or server that saw the first copy recognises the second as the
  same message (Message-ID is how they drop duplicates), and the run says that it was sent
  again (`again` in the journal and in the result). Every other message is delivered
  exactly once whatever the moment of the kill.

The SMTP password comes from the environment (PBEM_SMTP_PASSWORD; PBEM_IMAP_PASSWORD for
IMAP) and is never written anywhere.
"""

from __future__ import annotations

import contextlib
import email
import email.errors
import email.parser
import email.policy
import email.utils
import hashlib
import imaplib
import mailbox
import os
import re
import smtplib
import ssl
from collections.abc import Collection, Iterator
from dataclasses import dataclass, field
from datetime import UTC, datetime
from email.message import EmailMessage
from pathlib import Path
from typing import Any
from urllib.parse import unquote, urlsplit

from pbem import yamlio
from pbem.errors import InputFileError, PbemError, UsageError

JOURNAL = "journal.yaml"
SMTP_PASSWORD = "PBEM_SMTP_PASSWORD"
IMAP_PASSWORD = "PBEM_IMAP_PASSWORD"
TIMEOUT = 30.0
ORDERS_SUFFIXES = (".yaml", ".yml")
YAML_TYPES = ("application/yaml", "application/x-yaml", "text/yaml", "text/x-yaml")
LOCAL = ("127.0.0.1", "localhost", "::1")  # where a password may travel unencrypted
# The limits on a mail that arrives (README.md, "Mail a referee cannot take"): what is past
# them is refused, answered with the limit, and the mail kept for the referee. These are
# the defaults; campaign.yaml's `mail: limits:` may set each (Limits, BOUNDS).
MAX_PARTS = 20  # orders files and signatures in one mail; more is not a player's mail
MAX_DEPTH = 10  # multiparts inside multiparts; a mail program nests three or four
MAX_NAME = 100  # characters of an attachment's name that pbem keeps (its suffix kept)


@dataclass(frozen=True)
class Limits:
    """What pbem reads of one mail: orders files and signatures (`parts`), multiparts
    nested (`depth`), characters of an attachment's name (`name`), bytes of one file
    (`size`)."""

    parts: int = MAX_PARTS
    depth: int = MAX_DEPTH
    name: int = MAX_NAME
    size: int = yamlio.MAX_BYTES


DEFAULTS = Limits()

# the range each limit may be set to: a depth past 50 risks Python's own recursion limit,
# a file past yamlio.MAX_BYTES is refused by the YAML reader whatever the limit says
BOUNDS = {"parts": (1, 500), "depth": (2, 50), "name": (16, 200), "size": (1024, yamlio.MAX_BYTES)}
# Headers are not folded below RFC 5322's 998 characters: Python folds a long Subject that
# starts with "[campaign]" onto a line of its own, which reads back with a leading space.
POLICY = email.policy.default.clone(max_line_length=998)


class MailError(PbemError):
    """the mail could not be sent or read"""

    exit_code = 1


# ---------------------------------------------------------------------------------------
# players and addresses


@dataclass
class Player:
    """One e-mail address of campaign.yaml `factions:` and the factions it plays."""

    email: str
    name: str
    factions: list[str] = field(default_factory=list)

    @property
    def slug(self) -> str:
        return re.sub(r"[^a-z0-9]+", "-", self.email.lower()).strip("-")[:60] or "player"


def players(factions: dict[str, dict[str, Any]]) -> list[Player]:
    """The players with an e-mail address, in faction order; one per distinct address."""
    found: dict[str, Player] = {}
    for faction, info in factions.items():
        addr = str(info.get("email") or "").strip()
        if not addr or info.get("hotseat"):
            continue
        key = addr.lower()
        if key not in found:
            found[key] = Player(addr, str(info.get("player") or addr))
        found[key].factions.append(faction)
    return list(found.values())


def address(text: str) -> str:
    """The bare address of a From: or To: value, lower-case ('' if there is none)."""
    return email.utils.parseaddr(text)[1].strip().lower()


def _domain(addr: str) -> str:
    return addr.rsplit("@", 1)[-1] if "@" in addr else "pbem.invalid"


def now_utc() -> datetime:
    return datetime.now(UTC)


def iso(when: datetime) -> str:
    return when.astimezone(UTC).isoformat(timespec="seconds")


# ---------------------------------------------------------------------------------------
# building messages


@dataclass
class Attachment:
    filename: str
    text: str | bytes  # text (an orders file) is sent as UTF-8, bytes (a picture) as they are
    mime: str = "application/yaml"
    # a picture the HTML shows (<img src="cid:...">, without the <>): sent inline beside the
    # HTML (multipart/related), so that a mail program shows it in place, not as a file
    content_id: str | None = None


def build(
    *,
    sender: tuple[str, str],
    to: tuple[str, str],
    subject: str,
    text: str,
    html: str | None = None,
    attachments: list[Attachment] | None = None,
    in_reply_to: str | None = None,
    references: list[str] | None = None,
    headers: dict[str, str] | None = None,
    when: datetime | None = None,
) -> EmailMessage:
    """One message: text (and HTML as multipart/alternative), attachments, threading headers.
    Every header value is made one line (`one_line`): a subject or a Message-ID that came in
    a player's mail may carry a CR or LF, which would add a header or fail the answer."""
    msg = EmailMessage(policy=POLICY)
    msg["From"] = email.utils.formataddr((one_line(sender[0]), one_line(sender[1])))
    msg["To"] = email.utils.formataddr((one_line(to[0]), one_line(to[1])))
    msg["Subject"] = one_line(subject)
    msg["Date"] = email.utils.format_datetime(when or now_utc())
    msg["Message-ID"] = email.utils.make_msgid("pbem", domain=_domain(one_line(sender[1])))
    if in_reply_to and one_line(in_reply_to):
        msg["In-Reply-To"] = one_line(in_reply_to)
    refs = [one_line(r) for r in (references or []) if one_line(r)]
    if refs:
        msg["References"] = " ".join(dict.fromkeys(refs))
    for key, value in (headers or {}).items():
        msg[key] = one_line(value)
    # quoted-printable keeps every line short and the .eml pure ASCII whatever the report holds
    msg.set_content(text, subtype="plain", cte="quoted-printable")
    if html is not None:
        msg.add_alternative(html, subtype="html", cte="quoted-printable")
    for a in attachments or []:
        maintype, subtype = a.mime.split("/", 1)
        data = a.text.encode("utf-8") if isinstance(a.text, str) else a.text
        body = msg.get_body(("html",)) if a.content_id and html is not None else None
        if body is not None:
            body.add_related(data, maintype=maintype, subtype=subtype, cid=f"<{a.content_id}>",
                             disposition="inline", filename=a.filename)
        else:
            msg.add_attachment(data, maintype=maintype, subtype=subtype, filename=a.filename)
    return msg


def one_line(value: str) -> str:
    """A header value on one line: every control character (CR, LF, NUL, ...) a space, the
    spaces around it one."""
    return " ".join(re.sub(r"[\x00-\x1f\x7f]", " ", str(value)).split())


def message_id(msg: email.message.Message) -> str:
    """The Message-ID, or for a message without one a stable id made from its bytes."""
    mid = str(msg.get("Message-ID") or "").strip()
    if mid:
        return mid
    raw = msg.as_bytes(policy=email.policy.compat32)
    return f"<sha256-{hashlib.sha256(raw).hexdigest()}@pbem.invalid>"


# ---------------------------------------------------------------------------------------
# the outbox


@contextlib.contextmanager
def file_lock(path: Path) -> Iterator[None]:
    """A lock for the mail files (outbox journal, inbox record), separate from the campaign
    lock: building reports takes the campaign lock, so mail must not hold it meanwhile."""
    from filelock import FileLock

    path.parent.mkdir(parents=True, exist_ok=True)
    # waits as long as it takes, as flock did; no soft (marker file) fallback where the file
    # system has no flock: a marker left by a killed pbem would make the next one wait forever
    with FileLock(path, fallback_to_soft=False):
        yield


class Outbox:
    """A folder of NNNN-<player>.eml files and journal.yaml: per Message-ID, queued or sent."""

    def __init__(self, folder: Path) -> None:
        self.folder = folder
        self.path = folder / JOURNAL

    def load(self) -> dict[str, Any]:
        if not self.path.exists():
            return {"threads": {}, "messages": []}
        try:
            data = yamlio.read_trusted(self.path)
        except Exception as exc:  # a hand edit gone wrong
            raise MailError(f"{self.path}: cannot be read: {exc}") from None
        if not isinstance(data, dict):
            raise MailError(f"{self.path}: not an outbox journal")
        data.setdefault("threads", {})
        data.setdefault("messages", [])
        return data

    def save(self, data: dict[str, Any]) -> None:
        yamlio.write_atomic(self.path, "# pbem outbox: what was queued and sent, per Message-ID\n"
                            + yamlio.dump(data))

    @contextlib.contextmanager
    def journal(self) -> Iterator[dict[str, Any]]:
        """The journal, locked; saved when the block ends without an error."""
        with file_lock(self.folder / ".lock"):
            data = self.load()
            yield data
            self.save(data)

    def has(self, key: str) -> bool:
        return self.find(key) is not None

    def find(self, key: str) -> dict[str, Any] | None:
        """The last message queued under this key, if any."""
        return next((m for m in reversed(self.load()["messages"]) if m.get("key") == key), None)

    def last(self, to: str, kind: str) -> dict[str, Any] | None:
        """The last message of this kind queued to this address, if any."""
        to = to.lower()
        return next((m for m in reversed(self.load()["messages"])
                     if m.get("to") == to and m.get("kind") == kind), None)

    def thread(self, to: str) -> str | None:
        """The first message queued to this address: later ones answer it (In-Reply-To)."""
        found = self.load()["threads"].get(to.lower())
        return str(found) if found else None

    def queue(self, msg: EmailMessage, *, key: str, kind: str, slug: str,
              meta: dict[str, Any] | None = None, when: datetime | None = None,
              supersedes: tuple[str, ...] = ()) -> dict[str, Any]:
        """Write the .eml (atomically) and record it as queued; returns the journal record.

        Messages of the `supersedes` kinds to the same address that are still unsent (a
        report of a past phase, its reminder) are marked superseded by this one: they stay
        in the outbox and the journal, and are never sent."""
        with self.journal() as data:
            n = max((int(m["n"]) for m in data["messages"]), default=0) + 1
            name = f"{n:04d}-{slug}.eml"
            yamlio.write_atomic(self.folder / name, msg.as_string(policy=POLICY))
            to = address(str(msg["To"]))
            record: dict[str, Any] = {
                "n": n, "file": name, "message_id": str(msg["Message-ID"]), "kind": kind,
                "key": key, "to": to, "subject": str(msg["Subject"]),
                **(meta or {}),
                "queued": iso(when or now_utc()), "sent": None,
            }
            for old in data["messages"]:
                if (old["to"] == to and old["kind"] in supersedes and not old.get("sent")
                        and not old.get("superseded")):
                    old["superseded"] = record["message_id"]
            data["messages"].append(record)
            data["threads"].setdefault(to, record["message_id"])
        return record

    def withdraw(self, keys: Collection[str], why: str) -> list[dict[str, Any]]:
        """Mark the unsent messages queued under these keys as never to be sent (`why` in
        their `superseded`): a judge that lost the race to push withdraws the answers its
        dropped steps queued. Returns them."""
        withdrawn = []
        with self.journal() as data:
            for record in data["messages"]:
                if record.get("key") in keys and not record.get("sent") and not record.get("superseded"):
                    record["superseded"] = why
                    withdrawn.append(dict(record))
        return withdrawn

    def pending(self) -> list[dict[str, Any]]:
        """What is still to be sent: queued, not sent, not superseded by a newer message."""
        return [m for m in self.load()["messages"] if not m.get("sent") and not m.get("superseded")]

    def superseded(self, by: Collection[str] | None = None) -> list[dict[str, Any]]:
        """The messages never sent because a newer one replaced them; with `by`, only those
        replaced by one of these Message-IDs (what one run queued superseded)."""
        return [m for m in self.load()["messages"] if m.get("superseded") and not m.get("sent")
                and (by is None or m["superseded"] in by)]

    def read(self, record: dict[str, Any]) -> EmailMessage:
        path = self.folder / record["file"]
        try:
            raw = path.read_bytes()
        except OSError as exc:
            raise MailError(f"{path}: queued but cannot be read: {exc.strerror}") from None
        parsed = email.message_from_bytes(raw, policy=POLICY)
        assert isinstance(parsed, EmailMessage)
        return parsed

    def mark(self, message_id: str, **values: Any) -> None:
        with self.journal() as data:
            for m in data["messages"]:
                if m["message_id"] == message_id:
                    m.update(values)


# ---------------------------------------------------------------------------------------
# SMTP


class _Client(smtplib.SMTP):
    """smtplib's client, telling `before_data` when a message's DATA is about to go out
    (after MAIL FROM and RCPT TO were accepted): the moment from which the server may have
    the message, which the journal records as "sending"."""

    before_data: Any = None

    def data(self, msg: Any) -> tuple[int, bytes]:
        if self.before_data is not None:
            self.before_data()
        return super().data(msg)


@dataclass
class Smtp:
    host: str
    port: int
    starttls: bool = False
    user: str | None = None

    @classmethod
    def parse(cls, text: str, *, starttls: bool = False, user: str | None = None) -> Smtp:
        host, sep, port = text.strip().rpartition(":")
        if not sep or not host or not port.isdigit():
            raise UsageError(f"--smtp {text!r}: expected HOST:PORT (e.g. smtp.example.org:587)")
        return cls(host.strip("[]"), int(port), starttls, user or None)

    def __str__(self) -> str:
        return f"{self.host}:{self.port}"


def deliver(outbox: Outbox, smtp: Smtp, *, password: str | None = None,
            now: datetime | None = None) -> list[dict[str, Any]]:
    """Send every queued message over one SMTP connection; record each as it is accepted.

    A message the server refuses (its recipient, say) is recorded with the error and stays
    queued; a connection that fails stops the run and leaves the rest queued for next time.
    Each message is journalled as "sending" before its DATA and "sent" after the server's
    250 (see the module's docstring): a message that a killed run left "sending" is sent
    again, the same bytes under the same Message-ID, and returned with `again: True`.
    """
    queued = outbox.pending()
    if not queued:
        return []
    if smtp.user and password is None:
        password = os.environ.get(SMTP_PASSWORD)
        if password is None:
            raise UsageError(f"--user {smtp.user}: set the password in the environment variable "
                             f"{SMTP_PASSWORD} (pbem never stores it)")
    if smtp.user and not smtp.starttls and smtp.host not in LOCAL:
        raise UsageError(f"--user {smtp.user}: pbem sends a password only over an encrypted "
                         "connection; add --starttls")
    sent: list[dict[str, Any]] = []

    def stay(reason: str) -> MailError:
        left = len(queued) - len(sent)
        return MailError(
            f"{smtp}: {reason}; delivered {len(sent)} of {len(queued)} message(s), the other "
            f"{left} stay queued in {outbox.folder} (run 'pbem mail --send' again)",
            details=[f"delivered: {m['file']} to {m['to']}" for m in sent])

    try:
        client = _Client(smtp.host, smtp.port, timeout=TIMEOUT)
    except (OSError, smtplib.SMTPException) as exc:
        raise stay(f"cannot connect: {_reason(exc)}") from None
    try:
        client.ehlo()
        if smtp.starttls:
            client.starttls(context=ssl.create_default_context())
            client.ehlo()
        if smtp.user:
            client.login(smtp.user, password or "")
        for record in queued:
            msg = outbox.read(record)
            mid, again = record["message_id"], bool(record.get("sending"))
            client.before_data = lambda mid=mid: outbox.mark(mid, sending=iso(now or now_utc()))
            try:
                client.send_message(msg, to_addrs=[record["to"]])
            except (smtplib.SMTPRecipientsRefused, smtplib.SMTPSenderRefused) as exc:
                outbox.mark(mid, error=_reason(exc))
                continue
            except smtplib.SMTPDataError as exc:  # answered: certainly not taken
                outbox.mark(mid, error=_reason(exc), sending=None)
                if exc.smtp_code >= 500:
                    continue  # refused for good: the others go on
                raise  # a server that says "later" (4xx) is tried again next run
            done: dict[str, Any] = {"sent": iso(now or now_utc()), "error": None}
            if again:
                done["again"] = True  # a killed run may have delivered it: same Message-ID
            outbox.mark(mid, **done)
            sent.append({**record, **done})
        with contextlib.suppress(smtplib.SMTPException, OSError):
            client.quit()
    except smtplib.SMTPAuthenticationError as exc:
        raise stay(f"the server refused the login of {smtp.user!r}: {_reason(exc)}") from None
    except smtplib.SMTPNotSupportedError as exc:
        raise stay(f"the server does not offer what was asked: {_reason(exc)}") from None
    except (smtplib.SMTPException, OSError, ssl.SSLError) as exc:
        raise stay(f"the connection failed: {_reason(exc)}") from None
    finally:
        with contextlib.suppress(Exception):
            client.close()
    return sent


def _reason(exc: BaseException) -> str:
    code = getattr(exc, "smtp_code", None)
    text = getattr(exc, "smtp_error", None)
    if isinstance(text, bytes):
        text = text.decode("utf-8", "replace")
    if code is not None:
        return f"{code} {text}".strip()
    return " ".join(str(exc).split()) or type(exc).__name__


# ---------------------------------------------------------------------------------------
# reading mail


def read_maildir(folder: Path) -> Iterator[bytes]:
    """Every message of a Maildir (new/ and cur/), as sent, read only: flags are left as
    they are. (`parse` reads each, one at a time, where a bad one stops nothing.)"""
    if not (folder / "cur").is_dir() and not (folder / "new").is_dir():
        raise InputFileError(f"--maildir {folder}: not a Maildir (no cur/ or new/ inside)")
    box = mailbox.Maildir(folder, factory=None, create=False)
    for key in sorted(box.keys(), key=_delivery_order):
        try:
            with box.get_file(key) as handle:
                raw = handle.read()
        except (KeyError, OSError):
            continue  # moved or deleted meanwhile (by a mail program): not ours to read now
        yield raw


def _delivery_order(key: str) -> tuple[int, int, int, str]:
    """Maildir names start with the delivery time: SECONDS.M<microseconds>...Q<n>... (not
    zero-padded, so plain string order is wrong within a second)."""
    seconds = re.match(r"(\d+)\.", key)
    micro = re.search(r"M(\d+)", key)
    count = re.search(r"Q(\d+)", key)
    return (int(seconds.group(1)) if seconds else 0, int(micro.group(1)) if micro else 0,
            int(count.group(1)) if count else 0, key)


def read_mbox(path: Path) -> Iterator[bytes]:
    if not path.is_file():
        raise InputFileError(f"--mbox {path}: no such file")
    box = mailbox.mbox(path, factory=None, create=False)
    for key in box.keys():
        yield box.get_bytes(key)


def read_imap(url: str, *, password: str | None = None) -> Iterator[bytes]:
    """Every message of the folder of imap://user@host:port/FOLDER (or imaps://), fetched
    with BODY.PEEK so that nothing in the mailbox changes (not even the \\Seen flag)."""
    parts = urlsplit(url)
    if parts.scheme not in ("imap", "imaps") or not parts.hostname:
        raise UsageError(f"--imap {url!r}: expected imap://USER@HOST[:PORT]/FOLDER or imaps://...")
    user = unquote(parts.username or "")
    if password is None:
        password = unquote(parts.password) if parts.password else os.environ.get(IMAP_PASSWORD)
    if user and password is None:
        raise UsageError(f"--imap: set the password of {user} in the environment variable "
                         f"{IMAP_PASSWORD} (pbem never stores it)")
    folder = unquote(parts.path.lstrip("/")) or "INBOX"
    secure = parts.scheme == "imaps"
    port = parts.port or (993 if secure else 143)
    where = f"{parts.hostname}:{port}"
    try:
        if secure:
            client: imaplib.IMAP4 = imaplib.IMAP4_SSL(parts.hostname, port,
                                                      ssl_context=ssl.create_default_context(),
                                                      timeout=TIMEOUT)
        else:
            client = imaplib.IMAP4(parts.hostname, port, timeout=TIMEOUT)
    except (OSError, imaplib.IMAP4.error) as exc:
        raise MailError(f"--imap {where}: cannot connect: {_reason(exc)}") from None
    try:
        if user:
            if not secure and "STARTTLS" in client.capabilities:
                client.starttls(ssl_context=ssl.create_default_context())
            elif not secure and parts.hostname not in LOCAL:
                raise UsageError(f"--imap {where}: the server offers no STARTTLS; pbem sends a "
                                 "password only encrypted: use imaps://")
            client.login(user, password or "")
        status, _ = client.select(_quote(folder), readonly=True)
        if status != "OK":
            raise MailError(f"--imap {where}: no folder {folder!r}")
        status, found = client.uid("SEARCH", "ALL")
        uids = found[0].split() if status == "OK" and found and found[0] else []
        for uid in uids:
            status, data = client.uid("FETCH", uid, "(BODY.PEEK[])")
            raw = next((item[1] for item in data if isinstance(item, tuple)), None)
            if status == "OK" and isinstance(raw, bytes):
                yield raw
    except imaplib.IMAP4.error as exc:
        raise MailError(f"--imap {where}: {_reason(exc)}") from None
    except (OSError, ssl.SSLError) as exc:
        raise MailError(f"--imap {where}: the connection failed: {_reason(exc)}") from None
    finally:
        with contextlib.suppress(Exception):
            client.logout()


def _quote(folder: str) -> str:
    return folder if re.fullmatch(r"[A-Za-z0-9._/-]+", folder) else '"' + folder.replace('"', r'\"') + '"'


class TooDeep(email.errors.MessageDefect):
    """Multiparts nested deeper than pbem reads: the message keeps its headers only."""


def _depth(msg: email.message.Message, limit: int = MAX_DEPTH) -> int:
    """How deep multiparts nest in a parsed message (1 for a message of one part), counted
    without recursion, and no further than one past `limit`."""
    deepest, stack = 0, [(msg, 1)]
    while stack:
        part, depth = stack.pop()
        deepest = max(deepest, depth)
        payload = part.get_payload()
        if part.is_multipart() and isinstance(payload, list) and depth <= limit:
            stack.extend((sub, depth + 1) for sub in payload if isinstance(sub, email.message.Message))
    return deepest


def parse(raw: bytes, limits: Limits = DEFAULTS) -> EmailMessage:
    """The message, or, for one nested deeper than `limits.depth` (which Python's parser may
    not even finish: its recursion has a limit), its headers alone with a TooDeep defect,
    so that nothing after this ever walks such a tree."""
    try:
        parsed = email.message_from_bytes(raw, policy=email.policy.default)
        if _depth(parsed, limits.depth) <= limits.depth:
            assert isinstance(parsed, EmailMessage)
            return parsed
    except RecursionError:
        pass
    headers = email.parser.BytesParser(policy=email.policy.default).parsebytes(raw, headersonly=True)
    assert isinstance(headers, EmailMessage)
    headers.set_payload("")
    headers.defects.append(TooDeep(f"multiparts nested more than {limits.depth} deep"))
    return headers


# ---------------------------------------------------------------------------------------
# orders in a message


@dataclass
class Incoming:
    """What a message carries for pbem: orders files (name, bytes) and their signatures."""

    message_id: str
    sender: str
    subject: str
    files: list[tuple[str, bytes]] = field(default_factory=list)
    signatures: dict[str, bytes] = field(default_factory=dict)
    inline: bool = False
    problems: list[str] = field(default_factory=list)
    refused: list[str] = field(default_factory=list)  # orders files not taken (too big)
    date: datetime | None = None  # the Date: header (set by the sender's mail program)
    unreadable: bool = False  # the mail itself could not be read (kept for the referee)

    def names(self) -> list[str]:
        """The names of the orders files of the mail, those refused included."""
        return [name for name, _ in self.files] + self.refused

    def campaigns(self) -> set[str]:
        """The campaign ids the orders files name (a quick look, before any checking)."""
        found = set()
        for _, raw in self.files:
            m = re.search(rb"^campaign\s*:\s*['\"]?([^'\"#\s]+)", raw, re.M)
            if m:
                found.add(m.group(1).decode("utf-8", "replace"))
        return found

    def factions(self) -> list[tuple[str, list[str]]]:
        """(file name, the factions it names: one, several for a file of a player of several
        factions, none if it names none), a quick look before any checking."""
        out: list[tuple[str, list[str]]] = []
        for name, raw in self.files:
            try:
                named = yamlio.load_untrusted(raw, name).data.get("faction")
            except (PbemError, AttributeError):
                named = None  # `pbem apply` reports what is wrong with the file
            names = named if isinstance(named, list) else [] if named is None else [named]
            out.append((name, [str(f) for f in names if isinstance(f, (str, int))]))
        return out

    def write(self, folder: Path) -> list[Path]:
        """The orders files and their .sig beside them, as `pbem apply` expects."""
        paths = []
        for name, raw in self.files:
            path = folder / name
            path.write_bytes(raw)
            if name in self.signatures:
                (folder / f"{name}.sig").write_bytes(self.signatures[name])
            paths.append(path)
        return paths


def sent_at(msg: email.message.Message) -> datetime | None:
    """The Date: header as a time (UTC when it names no zone), or None if it has none that
    can be read."""
    try:
        text = str(msg.get("Date") or "").strip()
        when = email.utils.parsedate_to_datetime(text) if text else None
    except (TypeError, ValueError, IndexError):
        return None
    if when is None:
        return None
    return when if when.tzinfo else when.replace(tzinfo=UTC)


def describe(msg: email.message.Message) -> tuple[str, str, str]:
    """(Message-ID, sender address, subject) of any message, however broken its headers:
    what pbem says about a mail it rejects or leaves alone."""
    try:
        mid = message_id(msg)
    except Exception:
        mid = f"<unreadable-{id(msg):x}@pbem.invalid>"
    try:
        sender = address(str(msg.get("From", "")))
    except Exception:
        sender = ""
    try:
        subject = str(msg.get("Subject", ""))
    except Exception:
        subject = ""
    return mid, sender, subject


def automatic(msg: email.message.Message) -> bool:
    """An automatic message (an auto-reply, pbem's own answers and reports): never orders."""
    try:
        return (str(msg.get("Auto-Submitted", "no")).strip().lower() not in ("", "no")
                or bool(msg.get("X-Pbem-Kind")))
    except Exception:
        return False


def unreadable(msg: email.message.Message, exc: BaseException) -> Incoming:
    """What is left of a message that `extract` could not read: enough to record it (and
    answer its sender) as rejected, so that one broken mail never stops the others."""
    mid, sender, subject = describe(msg)
    reason = " ".join(str(exc).split()) or type(exc).__name__
    return Incoming(mid, sender, subject, files=[("(unreadable)", b"")],
                    problems=[f"the mail could not be read: {reason}"], unreadable=True)


def _safe_name(name: str, taken: set[str], longest: int = MAX_NAME) -> str:
    """A name to write the file under: no folder, no odd characters, at most `longest`
    characters (its suffix kept), and no other file's name in any case."""
    base = re.sub(r"[^A-Za-z0-9._-]+", "_", Path(name.replace("\\", "/")).name).lstrip(".") or "orders"
    if len(base) > longest:
        stem, dot, ext = base.rpartition(".")
        ext = ext[:10] if dot else ""
        base = (stem if dot else base)[:longest - len(ext) - len(dot)] + dot + ext
    out, n = base, 1
    while out.lower() in taken:
        n += 1
        stem, dot, ext = base.partition(".")
        out = f"{stem}-{n}{dot}{ext}"
    taken.add(out.lower())
    return out


_INLINE_START = re.compile(r"^campaign\s*:", re.M)
_INLINE_KEYS = re.compile(r"^(faction|orders)\s*:", re.M)
ARMOUR_BEGIN = "-----BEGIN SSH SIGNATURE-----"
ARMOUR_END = "-----END SSH SIGNATURE-----"


def inline_signed(text: str) -> tuple[str | None, str | None]:
    """Orders written in the body of a mail, and the signature pasted after them.

    The orders run from the line `campaign:` (with the `#` comment lines just above it, a
    template's header, which a signature covers too) to an SSH signature's armour block
    (`pbem sign`'s FILE.sig, pasted as it is), a signature separator ('-- ') or the first
    quoted line ('> ...') of a reply; each line without its trailing blanks, as pbem writes
    files. Returns (orders, armour) with None for what is not there."""
    start = _INLINE_START.search(text)
    if start is None:
        return None, None
    above = text[:start.start()].splitlines()
    header: list[str] = []
    while above and above[-1].lstrip().startswith("#"):
        header.insert(0, above.pop().rstrip())
    lines: list[str] = []
    armour: list[str] | None = None
    for line in text[start.start():].splitlines():
        if armour is not None:
            armour.append(line.strip())
            if line.strip() == ARMOUR_END:
                break
            continue
        if line.strip() == ARMOUR_BEGIN:
            armour = [ARMOUR_BEGIN]
            continue
        if line.rstrip() == "--" or line.startswith(">"):
            break
        lines.append(line.rstrip())
    body = "\n".join(header + lines).strip() + "\n"
    if not _INLINE_KEYS.search(body):
        return None, None
    signed = ("\n".join(a for a in armour if a) + "\n"
              if armour is not None and armour[-1] == ARMOUR_END else None)
    return body, signed


def extract(msg: EmailMessage, limits: Limits = DEFAULTS) -> Incoming | None:
    """The orders files of a message (attachments, or inline YAML in the text), with their
    .sig attachments; None when the message carries no orders (pbem leaves it alone)."""
    if str(msg.get("Auto-Submitted", "no")).strip().lower() not in ("", "no"):
        return None  # an automatic message (pbem's own replies among them): never orders
    if msg.get("X-Pbem-Kind"):
        return None  # a copy of a message pbem sent
    found = Incoming(message_id(msg), address(str(msg.get("From", ""))),
                     str(msg.get("Subject", "")), date=sent_at(msg))
    if any(isinstance(d, TooDeep) for d in msg.defects):
        found.unreadable = True
        found.files.append(("(unreadable)", b""))
        found.problems.append(f"the mail nests multiparts more than {limits.depth} deep; pbem "
                              "reads no deeper (send the orders file as a plain attachment)")
        return found
    taken: set[str] = set()
    safe: dict[str, str] = {}  # an orders file's name as sent (lower case) -> as kept
    sigs: list[tuple[str, bytes]] = []
    for part in msg.walk():
        if part.is_multipart():
            continue
        filename = part.get_filename()
        ctype = part.get_content_type()
        is_yaml = (filename or "").lower().endswith(ORDERS_SUFFIXES) or (
            ctype in YAML_TYPES and part.get_content_disposition() != "inline")
        is_sig = (filename or "").lower().endswith(".sig")
        if not (is_yaml or is_sig):
            continue
        if len(found.files) + len(sigs) >= limits.parts:
            found.problems.append(f"more than {limits.parts} attachments; the rest were ignored")
            break
        payload = part.get_payload(decode=True)
        raw = payload if isinstance(payload, bytes) else b""
        if len(raw) > limits.size:
            name = _safe_name(filename or ("orders.yaml.sig" if is_sig else "orders.yaml"), taken,
                              limits.name)
            found.problems.append(f"{name}:1: file is {len(raw)} bytes; at most "
                                  f"{limits.size} are accepted")
            found.refused.append(name)
            continue
        if is_sig:
            sigs.append((filename or "orders.yaml.sig", raw))
        else:
            kept = _safe_name(filename or "orders.yaml", taken, limits.name)
            safe[Path((filename or "orders.yaml").replace("\\", "/")).name.lower()] = kept
            found.files.append((kept, raw))
    if not found.files and found.problems:
        return found  # orders files it could not take: rejected and answered, not left alone
    if not found.files:
        body = msg.get_body(preferencelist=("plain",))
        text = body.get_content() if isinstance(body, EmailMessage) else ""
        inline, armour = inline_signed(str(text))
        if inline is not None:
            name = _safe_name("orders.yaml", taken, limits.name)
            found.files.append((name, inline.encode("utf-8")))
            found.inline = True
            if armour is not None and not sigs:
                found.signatures[name] = armour.encode("ascii", "replace")
    if not found.files:
        return None
    names = {**safe, **{name.lower(): name for name, _ in found.files}}
    for filename, raw in sigs:
        target = names.get(Path(filename.replace("\\", "/")).name[: -len(".sig")].lower())
        if target is None and len(found.files) == 1 and len(sigs) == 1:
            target = found.files[0][0]  # one file, one signature: they belong together
        if target is None:
            found.problems.append(f"{filename}: a signature for no orders file of this mail "
                                  f"(name it after the file it signs, e.g. "
                                  f"{found.files[0][0]}.sig)")
        else:
            found.signatures[target] = raw
    return found
