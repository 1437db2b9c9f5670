"""kill -9 at named moments of `pbem mail --send` and `pbem inbox`, proven to land there.

Like tests/engine/test_crash_points.py, nothing here depends on timing or on the machine's
load: each run stops pbem at one named moment and kills it there. The moment is one of:

- the n-th call of a function of pbem, in a pbem started through a stand-in (`STUB`) that
  wraps that function to leave a mark and wait, before or after the real one ran;
- the n-th `git commit` (the stand-in git of test_crash_points);
- the test SMTP server (aiosmtpd on 127.0.0.1) holding the n-th message's DATA, before or
  after it kept the message: the kill then lands while the message is on the wire.

Each run asserts that the kill landed mid-command (some messages sent or mails taken, not
all), that the campaign is at the old or the new commit, that the next command, run as the
moderator would run it again, recovers unaided, that `pbem audit` passes, and that no mail
is lost or sent twice: the SMTP server's messages are counted per recipient across the kill
and the rerun, and each current message arrived exactly once. The one exception is a
message killed after its DATA went out and before the server's answer was recorded: SMTP
cannot say whether the server took it, so pbem sends it again, the same bytes under the
same Message-ID, and says so (pbem/mail/transport.py's docstring); those moments assert exactly that.
"""

from __future__ import annotations

import asyncio
import mailbox
import os
import shutil
import signal
import subprocess
import sys
import threading
import time
from collections import Counter
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from email.message import EmailMessage
from pathlib import Path
from typing import Any

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))
from conftest import git, key_of, run_pbem  # noqa: E402
from test_mail import PLAYERS, Handler, Server, free_port, player_mail  # noqa: E402

from pbem import api, yamlio  # noqa: E402
from pbem.mail import loop as mailloop  # noqa: E402
from tests.engine.test_crash_points import WRAPPER  # noqa: E402

# `python -c STUB ARGS...` runs `pbem ARGS...`, with PBEM_STOP_FUNC ("module:Class.name")
# wrapped: its PBEM_STOP_AT-th call (counting only calls given the keyword PBEM_STOP_KW,
# when set) leaves the file PBEM_STOP_MARK and sleeps, before or after (PBEM_STOP_WHEN) the
# real call. Only the test's pbem is changed; the code it runs is the installed one.
STUB = r"""
import importlib, os, sys, time
spec = os.environ.get("PBEM_STOP_FUNC")
if spec:
    module, _, attr = spec.partition(":")
    owner = importlib.import_module(module)
    *path, name = attr.split(".")
    for part in path:
        owner = getattr(owner, part)
    real = getattr(owner, name)
    at, when = int(os.environ["PBEM_STOP_AT"]), os.environ["PBEM_STOP_WHEN"]
    keyword = os.environ.get("PBEM_STOP_KW")
    calls = [0]

    def stop():
        open(os.environ["PBEM_STOP_MARK"], "w").close()
        time.sleep(600)

    def stand_in(*args, **kwargs):
        counted = keyword is None or keyword in kwargs
        if counted:
            calls[0] += 1
        here = counted and calls[0] == at
        if here and when == "before":
            stop()
        result = real(*args, **kwargs)
        if here and when == "after":
            stop()
        return result

    setattr(owner, name, stand_in)
from pbem.cli import main
main(sys.argv[1:])
"""


@dataclass(frozen=True)
class Stop:
    """Where to stop: a function of pbem (`func`), the n-th `git VERB` (`git`), or nothing
    in pbem (the SMTP server holds the message instead)."""

    func: str | None = None
    at: int = 1
    when: str = "before"
    kw: str | None = None
    git: str | None = None

    def env(self, tmp: Path) -> dict[str, str]:
        env = {"PBEM_STOP_MARK": str(tmp / "stopped"), "PBEM_STOP_AT": str(self.at),
               "PBEM_STOP_WHEN": self.when}
        if self.func:
            env["PBEM_STOP_FUNC"] = self.func
            if self.kw:
                env["PBEM_STOP_KW"] = self.kw
        if self.git:
            bin_dir = tmp / "bin"
            bin_dir.mkdir(exist_ok=True)
            (bin_dir / "git").write_text(WRAPPER)
            (bin_dir / "git").chmod(0o755)
            env.update({"PATH": f"{bin_dir}{os.pathsep}{os.environ['PATH']}",
                        "PBEM_REAL_GIT": str(shutil.which("git")), "PBEM_STOP_VERB": self.git,
                        "PBEM_STOP_COUNT": str(tmp / "count")})
        return env


def run_until(args: list[str], stop: Stop, tmp: Path, landed: Callable[[], bool] | None = None,
              env: dict[str, str] | None = None) -> None:
    """Start `pbem ARGS` stopping at `stop`; wait until it is there (its mark, or
    `landed()`), then kill it and all it started with -9."""
    tmp.mkdir(parents=True, exist_ok=True)
    mark = tmp / "stopped"
    proc = subprocess.Popen([sys.executable, "-c", STUB, *args],
                            env={**os.environ, **(env or {}), **stop.env(tmp)},
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, start_new_session=True)
    limit = time.monotonic() + 300
    try:
        while not (landed() if landed is not None else mark.exists()):
            if proc.poll() is not None:
                out, err = proc.communicate()
                raise AssertionError(f"pbem {args[2:]} ended (exit {proc.returncode}) before "
                                     f"{stop}: {out.decode()} {err.decode()}")
            assert time.monotonic() < limit, f"pbem never reached {stop}"
            time.sleep(0.02)
    finally:
        if proc.poll() is None:
            os.killpg(proc.pid, signal.SIGKILL)  # pbem and a stopped git with it
        proc.communicate()


def head(root: Path) -> str:
    return git(root, "rev-parse", "HEAD")


def commits(root: Path) -> int:
    return int(git(root, "rev-list", "--count", "HEAD"))


def journal(root: Path) -> list[dict[str, Any]]:
    path = root / ".pbem" / "outbox" / "journal.yaml"
    return list(yamlio.read_trusted(path)["messages"]) if path.exists() else []


def audit_ok(root: Path) -> None:
    r = run_pbem("-C", root, "audit", "--json")
    assert r.code == 0, r.out + r.err


# ---------------------------------------------------------------------------------------
# the SMTP server, able to hold a message


class Holding(Handler):
    """The test server's handler; the `hold_at`-th DATA is held until `release`, having
    kept the message first (`keep`) or not: the client is killed while it waits for the
    answer, so the server took the message or did not."""

    def __init__(self, server: Server) -> None:
        super().__init__(server)
        self.hold_at: int | None = None
        self.keep = False
        self.datas = 0
        self.held = threading.Event()
        self.release = threading.Event()

    async def handle_DATA(self, smtp: Any, session: Any, envelope: Any) -> str:
        self.datas += 1
        if self.datas != self.hold_at:
            return await super().handle_DATA(smtp, session, envelope)
        if self.keep:
            await super().handle_DATA(smtp, session, envelope)
        self.held.set()
        while not self.release.is_set():
            await asyncio.sleep(0.02)
        return "451 the client went away"


@pytest.fixture
def smtp() -> Iterator[tuple[Server, Holding]]:
    from aiosmtpd.controller import Controller

    server = Server(free_port())
    handler = Holding(server)
    controller = Controller(handler, hostname="127.0.0.1", port=server.port)
    controller.start()
    try:
        yield server, handler
    finally:
        handler.release.set()
        controller.stop()


def received(server: Server) -> dict[str, Counter[str]]:
    """Per recipient: how many times each Message-ID arrived."""
    out: dict[str, Counter[str]] = {}
    for m in server.messages:
        out.setdefault(m["to"][0], Counter())[str(m["message"]["Message-ID"])] += 1
    return out


# ---------------------------------------------------------------------------------------
# a campaign with reports of a past phase queued and a new phase open


def contributions(root: Path, folder: Path, keys: Path) -> dict[str, Path]:
    """Each awaited faction's orders, as its player makes them: the template, signed."""
    folder.mkdir(parents=True, exist_ok=True)
    files = {}
    for faction in api.status(root)["awaiting"]:
        path = folder / f"orders-{faction}.yaml"
        yamlio.write_atomic(path, yamlio.dump(api.bot(root, faction, template=True)))
        api.sign(path, key_of(keys, faction))  # Cy's one key for south and north
        files[faction] = path
    return files


@pytest.fixture
def camp(tmp_path: Path) -> Path:
    """Three players (Cy plays two factions), the reports of the first phase queued but
    never sent, then that phase resolved: the reports of the new phase are the current ones
    and the old ones must never go out."""
    root = tmp_path / "camp"
    api.new_campaign(root, "red_russia", seed="crash", name="camp", keys_dir=tmp_path / "keys",
                     players=PLAYERS)
    mailloop.mail(root)  # queued, not sent: superseded by the next phase's
    api.apply(root, list(contributions(root, tmp_path / "first", tmp_path / "keys").values()))
    return root


# (where pbem stops, messages the server holds when it is killed, whether a message was
# in doubt, i.e. "sending" (the rerun sends it again and says so), and whether the server
# had in fact taken it, so that it arrives twice under one Message-ID)
SEND_MOMENTS = {
    "queueing-2nd-report": (Stop("pbem.mail.transport:Outbox.queue", 2, "before"), 0, False, False),
    "all-queued-none-sent": (Stop("pbem.mail.transport:Outbox.queue", 3, "after"), 0, False, False),
    "1st-sending-before-DATA": (Stop("pbem.mail.transport:Outbox.mark", 1, "after", "sending"), 0, True, False),
    "1st-accepted-not-recorded": (Stop("pbem.mail.transport:Outbox.mark", 1, "before", "sent"), 1, True, True),
    "2nd-recorded-3rd-not-begun": (Stop("pbem.mail.transport:Outbox.mark", 2, "after", "sent"), 2, False, False),
    "server-holds-2nd-not-kept": (Stop(at=2), 1, True, False),
    "server-holds-2nd-kept": (Stop(at=2), 2, True, True),
}


@pytest.mark.parametrize("moment", list(SEND_MOMENTS))
def test_kill_mail_send_at_any_moment(camp: Path, tmp_path: Path,
                                      smtp: tuple[Server, Holding], moment: str) -> None:
    stop, on_server, doubtful, taken = SEND_MOMENTS[moment]
    server, handler = smtp
    before = head(camp), git(camp, "status", "--porcelain")
    args = ["-C", str(camp), "mail", "--send", "--smtp", server.address]
    if stop.func is None:  # the server holds the message: the kill lands on the wire
        handler.hold_at, handler.keep = stop.at, taken  # kept: the server took it
        run_until(args, stop, tmp_path / "run", landed=handler.held.is_set)
        handler.release.set()
    else:
        run_until(args, stop, tmp_path / "run")

    # the kill landed mid-command: some (or none) of the current reports were sent, not all
    assert len(server.messages) == on_server, moment
    records = journal(camp)
    assert not any(r["sent"] for r in records if r.get("superseded"))
    assert sum(bool(r["sent"]) for r in records) < 3
    # mail makes no commit: the campaign is at the old one, clean, and audits
    assert (head(camp), git(camp, "status", "--porcelain")) == before
    audit_ok(camp)

    # the next run, as the moderator runs it again, finishes the job unaided
    r = run_pbem(*args)
    assert r.code == 0, r.out + r.err
    assert (" again: " in r.out) == doubtful, r.out
    again = run_pbem(*args)
    assert again.code == 0 and "sent " not in again.out, again.out  # nothing is left to send
    assert "skipped" in again.out  # the reports of this phase are not queued twice
    audit_ok(camp)

    records = journal(camp)
    current = {r["message_id"]: r for r in records if not r.get("superseded")}
    assert len(current) == 3 and all(r["kind"] == "report" for r in current.values())
    assert all(r["sent"] for r in current.values())
    assert all(r["seq"] == api.status(camp)["seq"] for r in current.values())
    got = received(server)
    assert set(got) == {"ann@example.org", "bob@example.org", "cy@example.org"}
    for to, counts in got.items():
        mine = {mid for mid, r in current.items() if r["to"] == to}
        assert set(counts) == mine, (to, counts)  # the current report, no superseded one
    twice = [(to, mid) for to, counts in got.items() for mid, n in counts.items() if n > 1]
    flagged = [r["message_id"] for r in records if r.get("again")]
    assert len(flagged) == (1 if doubtful else 0), records
    if taken:  # the message on the wire went again, the same one, and pbem said so
        assert len(twice) == 1, got
        assert flagged == [twice[0][1]]
        copies = [m["message"] for m in server.messages
                  if str(m["message"]["Message-ID"]) == twice[0][1]]
        assert copies[0].as_bytes() == copies[1].as_bytes()
    else:
        assert twice == [], got  # each current message exactly once
    assert sum(sum(c.values()) for c in got.values()) == 3 + len(twice)


# ---------------------------------------------------------------------------------------
# inbox


@pytest.fixture
def reading(tmp_path: Path) -> Path:
    """A campaign awaiting the contributions of all four factions, with nothing queued."""
    root = tmp_path / "camp"
    api.new_campaign(root, "red_russia", seed="crash", name="camp", keys_dir=tmp_path / "keys",
                     players=PLAYERS)
    return root


def orders_mails(root: Path, tmp_path: Path) -> list[EmailMessage]:
    """Ann's orders for red, Bob's for siberian, Cy's for south and north in one mail: the
    last completes the phase, which then resolves (several commits)."""
    files = contributions(root, tmp_path / "drafts", tmp_path / "keys")
    return [
        player_mail("Ann <ann@example.org>", "orders red", mid="<red-1@example.org>",
                    files=[files["red"]]),
        player_mail("Bob <bob@example.org>", "orders siberian", mid="<siberian-1@example.org>",
                    files=[files["siberian"]]),
        player_mail("Cy <cy@example.org>", "orders south and north", mid="<cy-1@example.org>",
                    files=[files["south"], files["north"]]),
    ]


@dataclass
class Source:
    args: list[str]
    env: dict[str, str]


def mail_source(kind: str, mails: list[EmailMessage], tmp_path: Path,
                imap: Callable[[], Any] | None) -> Source:
    if kind == "maildir":
        box = mailbox.Maildir(tmp_path / "Maildir", create=True)
        for msg in mails:
            box.add(msg.as_bytes())
        return Source(["--maildir", str(tmp_path / "Maildir")], {})
    if kind == "mbox":
        mbox = mailbox.mbox(tmp_path / "mail.mbox", create=True)
        for msg in mails:
            mbox.add(msg.as_bytes())
        mbox.flush()
        mbox.close()
        return Source(["--mbox", str(tmp_path / "mail.mbox")], {})
    assert imap is not None
    server = imap()
    client = server.login()
    for msg in mails:
        assert client.append("INBOX", None, None, msg.as_bytes())[0] == "OK"
    client.logout()
    return Source(["--imap", server.url()], {"PBEM_IMAP_PASSWORD": server.password})


@pytest.fixture
def imap(tmp_path: Path, short_tmp: Path) -> Iterator[Callable[[], Any]]:
    """Starts, when asked, a private dovecot on 127.0.0.1 (tests/engine/mail/test_mail_servers.py)."""
    from test_mail_servers import (
        PASSWORD,
        USER,
        Dovecot,
        dovecot_binary,
        dovecot_conf,
        stop,
        wait_for_port,
    )

    procs: list[subprocess.Popen[bytes]] = []

    def start() -> Dovecot:
        binary = dovecot_binary()
        folder = tmp_path / "dovecot"
        port = free_port()
        conf = dovecot_conf(folder, port, None, short_tmp)
        procs.append(subprocess.Popen([binary, "-F", "-c", str(conf)],
                                      stdout=subprocess.DEVNULL, stderr=subprocess.STDOUT))
        wait_for_port(port, procs[-1], "dovecot", folder / "dovecot.log")
        return Dovecot(port, USER, PASSWORD, False)

    yield start
    for proc in procs:
        stop(proc)


def inbox_record(root: Path) -> dict[str, Any]:
    path = root / ".pbem" / "inbox.yaml"
    return dict(yamlio.read_trusted(path)["messages"]) if path.exists() else {}


# (where pbem stops, commits made by then, mails fully recorded by then)
INBOX_MOMENTS = {
    "1st-taking-not-applied": (Stop("pbem.api:apply", 1, "before"), 0, 0),
    "1st-applied-not-answered": (Stop("pbem.api:apply", 1, "after"), 1, 0),
    "1st-answered-not-recorded": (Stop("pbem.mail.transport:Outbox.queue", 1, "after"), 1, 0),
    "2nd-answered-not-recorded": (Stop("pbem.mail.loop:Record.add", 4, "before"), 2, 1),
    # Cy's mail: south's file (commit 3), north's (commit 4), then the resolution (5)
    "3rd-1st-file-staged-in-git": (Stop(git="commit", at=3, when="before"), 2, 2),
    "3rd-between-its-two-files": (Stop(git="commit", at=3, when="after"), 3, 2),
    "3rd-orders-committed-resolution-not": (Stop(git="commit", at=4, when="after"), 4, 2),
    "3rd-resolution-staged-in-git": (Stop(git="commit", at=5, when="before"), 4, 2),
}
SOURCES = ["maildir", "mbox", "imap"]
CASES = [(m, "maildir") for m in INBOX_MOMENTS] + [
    ("1st-applied-not-answered", "mbox"), ("3rd-between-its-two-files", "mbox"),
    ("1st-applied-not-answered", "imap"), ("2nd-answered-not-recorded", "imap"),
]


@pytest.mark.parametrize(("moment", "source"), CASES, ids=[f"{s}-{m}" for m, s in CASES])
def test_kill_inbox_at_any_moment(reading: Path, tmp_path: Path, smtp: tuple[Server, Holding],
                                  imap: Callable[[], Any], monkeypatch: pytest.MonkeyPatch,
                                  moment: str, source: str) -> None:
    camp = reading
    stop, made, done = INBOX_MOMENTS[moment]
    mails = orders_mails(camp, tmp_path)
    where = mail_source(source, mails, tmp_path, imap)
    twin = tmp_path / "twin"
    shutil.copytree(camp, twin, symlinks=True)
    old = commits(camp)
    args = ["-C", str(camp), "inbox", *where.args]

    run_until(args, stop, tmp_path / "run", env=where.env)
    # the kill landed mid-command: at the old commit or a new one, never half of one, with
    # some of the mails taken and not all
    assert commits(camp) == old + made, moment
    finished = [mid for mid, r in inbox_record(camp).items() if r.get("outcome") != "taking"]
    assert len(finished) == done < len(mails), (moment, inbox_record(camp))

    r = run_pbem(*args, env=where.env)  # the moderator runs it again: it recovers unaided
    assert r.code == 0, r.out + r.err
    assert git(camp, "status", "--porcelain") == ""
    audit_ok(camp)

    # every mail taken once: accepted, one orders step per faction, none replacing another
    record = inbox_record(camp)
    assert {mid: x["outcome"] for mid, x in record.items()} == {
        str(m["Message-ID"]): "accepted" for m in mails}, record
    log = api.log(camp)
    orders = [e for e in log if e["type"] == "orders"]
    assert sorted(e["faction"] for e in orders) == ["north", "red", "siberian", "south"]
    assert not any("replacing" in e["summary"] for e in orders), orders
    status = api.status(camp)
    assert status["phase"] != "contribute", r.out  # the last mail completed the phase: resolved
    assert run_pbem(*args, env=where.env).out.count("already seen") == 1  # a third run: nothing
    # the same position as an inbox that was never killed
    for key, value in where.env.items():
        monkeypatch.setenv(key, value)
    mailloop.inbox(twin, **{where.args[0][2:]: (where.args[1] if source == "imap"
                                                else Path(where.args[1]))})
    mine, theirs = (yamlio.read_trusted(p / "state.yaml") for p in (camp, twin))
    assert (mine["seq"], mine["game"]) == (theirs["seq"], theirs["game"])

    # one answer to each mail, queued once and delivered once
    server, _ = smtp
    replies = [m for m in journal(camp) if m["kind"] == "reply"]
    assert sorted(m["in_reply_to"] for m in replies) == sorted(str(m["Message-ID"]) for m in mails)
    assert all(m["outcome"] == "accepted" for m in replies)
    mailloop.send(camp, smtp=server.address)
    answers = Counter((m["to"][0], str(m["message"]["In-Reply-To"])) for m in server.messages)
    assert answers == Counter({("ann@example.org", "<red-1@example.org>"): 1,
                               ("bob@example.org", "<siberian-1@example.org>"): 1,
                               ("cy@example.org", "<cy-1@example.org>"): 1})
