"""The mail loop (pbem/mail/transport.py, pbem/mail/loop.py, pbem/cli/mail.py) against real servers on
127.0.0.1: aiosmtpd for SMTP (plain; STARTTLS with AUTH and a self-signed certificate made
here; a refused login; a server that drops the connection), pymap for IMAP, Maildir and
mbox files written by the tests, and a local bare repository for publish; late orders,
grace periods, absences, NMR policies and malformed mail.
(tests/engine/mail/test_mail_servers.py runs the inbox against dovecot and publish against
`git daemon`.)
"""

from __future__ import annotations

import datetime as dt
import email
import email.policy
import imaplib
import ipaddress
import json
import mailbox
import socket
import ssl
import subprocess
import sys
import time
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from email.message import EmailMessage
from pathlib import Path
from typing import Any

import pytest
import typer

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))
from conftest import Result, git, key_of, play  # noqa: E402

from pbem import api, schedule, yamlio  # noqa: E402
from pbem.campaign import Campaign  # noqa: E402
from pbem.mail import loop as mailloop  # noqa: E402
from pbem.mail.transport import MailError  # noqa: E402

PASSWORD = "s3cret-pass-Xy7"
PLAYERS = ["red=Ann <ann@example.org>", "siberian=Bob <bob@example.org>",
           "south,north=Cy <cy@example.org>"]


# ---------------------------------------------------------------------------------------
# fixtures


@pytest.fixture
def cli(pbem: Callable[..., Result]) -> Callable[..., Result]:
    """The command line as pbem/cli/ builds it (the mail commands are its own)."""
    return pbem


@pytest.fixture
def camp(tmp_path: Path) -> Path:
    root = tmp_path / "camp"
    api.new_campaign(root, "red_russia", contributions=False, hot_seat=True, seed="mail", name="camp", keys_dir=tmp_path / "keys",
                     players=PLAYERS)
    return root


def set_config(root: Path, **values: Any) -> None:
    path = root / "campaign.yaml"
    config = yamlio.read_trusted(path)
    config.update(values)
    yamlio.write_atomic(path, yamlio.dump(config))


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def parse(path: Path) -> EmailMessage:
    msg = email.message_from_bytes(path.read_bytes(), policy=email.policy.default)
    assert isinstance(msg, EmailMessage)
    return msg


def journal(root: Path) -> dict[str, Any]:
    data: dict[str, Any] = yamlio.read_trusted(root / ".pbem" / "outbox" / "journal.yaml")
    return data


# -- SMTP --------------------------------------------------------------------------------


@dataclass
class Server:
    port: int
    messages: list[dict[str, Any]] = field(default_factory=list)
    drop_after: int | None = None

    @property
    def address(self) -> str:
        return f"127.0.0.1:{self.port}"

    def ids(self) -> list[str]:
        return [str(m["message"]["Message-ID"]) for m in self.messages]


class Handler:
    def __init__(self, server: Server) -> None:
        self.server = server

    async def handle_DATA(self, smtp: Any, session: Any, envelope: Any) -> str:
        if self.server.drop_after is not None and len(self.server.messages) >= self.server.drop_after:
            smtp.transport.close()  # the connection goes away in the middle of a message
            return "421 going away"
        msg = email.message_from_bytes(envelope.content, policy=email.policy.default)
        self.server.messages.append({
            "from": envelope.mail_from, "to": list(envelope.rcpt_tos), "message": msg,
            "tls": session.ssl is not None, "authenticated": bool(session.authenticated),
        })
        return "250 OK"


def self_signed(folder: Path) -> tuple[Path, Path]:
    """A certificate for 127.0.0.1 made with `cryptography`, and its key."""
    from cryptography import x509
    from cryptography.hazmat.primitives import hashes, serialization
    from cryptography.hazmat.primitives.asymmetric import ec
    from cryptography.x509.oid import NameOID

    key = ec.generate_private_key(ec.SECP256R1())
    name = x509.Name([x509.NameAttribute(NameOID.COMMON_NAME, "127.0.0.1")])
    now = dt.datetime.now(dt.UTC)
    cert = (
        x509.CertificateBuilder().subject_name(name).issuer_name(name)
        .public_key(key.public_key()).serial_number(x509.random_serial_number())
        .not_valid_before(now - dt.timedelta(hours=1)).not_valid_after(now + dt.timedelta(days=1))
        .add_extension(x509.SubjectAlternativeName([x509.IPAddress(ipaddress.ip_address("127.0.0.1")),
                                                    x509.DNSName("localhost")]), critical=False)
        .add_extension(x509.BasicConstraints(ca=True, path_length=None), critical=True)
        .sign(key, hashes.SHA256())
    )
    cert_path, key_path = folder / "cert.pem", folder / "key.pem"
    cert_path.write_bytes(cert.public_bytes(serialization.Encoding.PEM))
    key_path.write_bytes(key.private_bytes(serialization.Encoding.PEM,
                                           serialization.PrivateFormat.PKCS8,
                                           serialization.NoEncryption()))
    return cert_path, key_path


@pytest.fixture
def smtp_server(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[Callable[..., Server]]:
    """Start aiosmtpd on 127.0.0.1: plain, or STARTTLS + AUTH (user 'referee', PASSWORD)
    with a self-signed certificate that the client trusts through SSL_CERT_FILE."""
    from aiosmtpd.controller import Controller
    from aiosmtpd.smtp import AuthResult, LoginPassword

    controllers: list[Any] = []

    def start(*, tls: bool = False, drop_after: int | None = None) -> Server:
        server = Server(free_port(), drop_after=drop_after)
        kwargs: dict[str, Any] = {}
        if tls:
            cert, key = self_signed(tmp_path)
            context = ssl.create_default_context(ssl.Purpose.CLIENT_AUTH)
            context.load_cert_chain(cert, key)
            monkeypatch.setenv("SSL_CERT_FILE", str(cert))

            def authenticator(_server: Any, _session: Any, _envelope: Any, _mechanism: str,
                              data: Any) -> AuthResult:
                ok = (isinstance(data, LoginPassword) and data.login == b"referee"
                      and data.password == PASSWORD.encode())
                return AuthResult(success=ok, handled=False)

            kwargs = {"tls_context": context, "require_starttls": True, "auth_required": True,
                      "authenticator": authenticator}
        controller = Controller(Handler(server), hostname="127.0.0.1", port=server.port, **kwargs)
        controller.start()
        controllers.append(controller)
        return server

    yield start
    for controller in controllers:
        controller.stop()


# -- IMAP --------------------------------------------------------------------------------


@pytest.fixture(params=["plain", "starttls"])
def imap_server(request: pytest.FixtureRequest, tmp_path: Path,
                monkeypatch: pytest.MonkeyPatch) -> Iterator[int]:
    """pymap (a real IMAP server in Python, in-memory) on 127.0.0.1, user u / password p;
    without TLS, or offering STARTTLS with a self-signed certificate the client trusts."""
    port = free_port()
    log = (tmp_path / "pymap.log").open("w")
    if request.param == "starttls":
        cert, key = self_signed(tmp_path)
        monkeypatch.setenv("SSL_CERT_FILE", str(cert))
        tls = ["--cert", str(cert), "--key", str(key)]
    else:
        tls = ["--no-tls"]
    proc = subprocess.Popen(
        [sys.executable, "-c", "from pymap.main import main; main()", "--host", "127.0.0.1",
         "--port", str(port), *tls, "dict", "--demo-data", "--demo-user", "u",
         "--demo-password", "p"],
        stdout=log, stderr=subprocess.STDOUT,
    )
    try:
        deadline = time.monotonic() + 20
        while True:
            try:
                socket.create_connection(("127.0.0.1", port), timeout=1).close()
                break
            except OSError:
                if proc.poll() is not None or time.monotonic() > deadline:
                    raise AssertionError(f"pymap did not start: {(tmp_path / 'pymap.log').read_text()}") from None
                time.sleep(0.1)
        yield port
    finally:
        proc.terminate()
        proc.wait(timeout=10)
        log.close()


def imap_login(port: int) -> imaplib.IMAP4:
    client = imaplib.IMAP4("127.0.0.1", port)
    if "STARTTLS" in client.capabilities:
        client.starttls(ssl_context=ssl.create_default_context())
    client.login("u", "p")
    return client


# -- mail written by players --------------------------------------------------------------


def orders_file(root: Path, faction: str, folder: Path, *, sign: bool = False,
                name: str | None = None) -> Path:
    path = folder / (name or f"orders-{faction}.yaml")
    yamlio.write_atomic(path, yamlio.dump(api.bot(root, faction, seed="mail")))
    if sign:
        api.sign(path, key_of(root.parent / "keys", faction))
    return path


def player_mail(sender: str, subject: str, *, mid: str, files: list[Path] | None = None,
                text: str = "Here are my orders.\n", date: dt.datetime | None = None,
                dated: bool = True) -> EmailMessage:
    msg = EmailMessage()
    msg["From"] = sender
    msg["To"] = "referee@example.org"
    msg["Subject"] = subject
    msg["Message-ID"] = mid
    if dated:
        msg["Date"] = email.utils.format_datetime(date or dt.datetime.now(dt.UTC))
    msg.set_content(text)
    for path in files or []:
        sig = path.with_name(path.name + ".sig")
        for part in [path, sig] if sig.exists() else [path]:
            maintype, subtype = ("application", "yaml") if part.suffix == ".yaml" else ("application", "octet-stream")
            msg.add_attachment(part.read_bytes(), maintype=maintype, subtype=subtype,
                               filename=part.name)
    return msg


def bad_orders(root: Path, folder: Path) -> Path:
    """Orders for south with two problems: an unknown zone and an unknown top-level key."""
    data = api.bot(root, "south", seed="mail")
    data["orderz"] = []
    first = data["orders"][0]
    key = next(iter(first))
    if isinstance(first[key], dict) and "zone" in first[key]:
        first[key]["zone"] = "Atlantis"
    path = folder / "orders-south.yaml"
    yamlio.write_atomic(path, yamlio.dump(data))
    return path


def mailbag(root: Path, folder: Path) -> list[EmailMessage]:
    """One good signed orders mail, one bad, one unrelated, one duplicate of the good one,
    one for another campaign."""
    folder.mkdir(exist_ok=True)
    good = player_mail("Bob <bob@example.org>", "orders siberian", mid="<good-1@example.org>",
                       files=[orders_file(root, "siberian", folder, sign=True)])
    bad = player_mail("Cy <cy@example.org>", "orders south", mid="<bad-1@example.org>",
                      files=[bad_orders(root, folder)])
    other = player_mail("Ann <ann@example.org>", "lunch on Sunday?", mid="<lunch@example.org>",
                        text="Shall we meet before turn 2?\n")
    elsewhere = EmailMessage()
    elsewhere["From"], elsewhere["Subject"] = "Ann <ann@example.org>", "orders for another game"
    elsewhere["Message-ID"] = "<elsewhere@example.org>"
    elsewhere.set_content("campaign: another-one\nturn: 1\nphase: action\nfaction: red\norders: []\n")
    return [good, bad, other, good, elsewhere]


# ---------------------------------------------------------------------------------------
# mail out


def test_mail_writes_one_well_formed_message_per_player(camp: Path) -> None:
    result = mailloop.mail(camp)
    assert [r["to"] for r in result["queued"]] == ["ann@example.org", "bob@example.org",
                                                   "cy@example.org"]
    outbox = camp / ".pbem" / "outbox"
    files = sorted(outbox.glob("*.eml"))
    assert [f.name for f in files] == ["0001-ann-example-org.eml", "0002-bob-example-org.eml",
                                       "0003-cy-example-org.eml"]
    ids = set()
    status = api.status(camp)
    for path, record in zip(files, result["queued"], strict=True):
        msg = parse(path)
        # multipart/mixed around multipart/alternative when templates are attached
        assert msg.get_content_type() in ("multipart/mixed", "multipart/alternative")
        alternative = msg if msg.get_content_type() == "multipart/alternative" else next(
            p for p in msg.iter_parts() if p.get_content_type() == "multipart/alternative")
        kinds = [p.get_content_type() for p in alternative.iter_parts()]
        # the HTML with the map's picture beside it, shown in place (test_report_png)
        assert kinds == ["text/plain", "multipart/related"]
        text = alternative.get_body(preferencelist=("plain",)).get_content()
        html = alternative.get_body(preferencelist=("html",)).get_content()
        assert "Campaign camp" in text and "<html" in html.lower()
        assert msg["Subject"].startswith(f"[camp] turn {status['turn']}, ")
        assert status["phase_title"] in msg["Subject"]
        assert msg["Message-ID"] == record["message_id"]
        assert "In-Reply-To" not in msg  # the first message of each player's thread
        ids.add(msg["Message-ID"])
        attached = {p.get_filename(): p.get_content() for p in msg.iter_attachments()
                    if p.get_content_type() != "image/png"}  # the map's picture: test_report_png
        to = record["to"]
        if to == "ann@example.org":  # red is not awaited in the White placement
            assert attached == {}
        else:
            # one file to answer, for every faction of the player awaited
            want = {"bob@example.org": "siberian", "cy@example.org": ["south", "north"]}[to]
            stem = want if isinstance(want, str) else "-".join(want)
            assert list(attached) == [f"orders-{stem}-t0-{status['phase']}.yaml"]
            for name, content in attached.items():
                body = content.decode() if isinstance(content, bytes) else content
                loaded = yamlio.load_untrusted(body, name).data
                assert loaded["campaign"] == "camp" and loaded["faction"] == want
    assert len(ids) == 3
    # a second run in the same phase queues nothing new
    again = mailloop.mail(camp)
    assert again["queued"] == [] and len(again["skipped"]) == 3
    # the next phase's messages answer each player's first message (one thread per player)
    first = {r["to"]: r["message_id"] for r in result["queued"]}
    play(camp, until_turn=1, seed="mail")
    later = mailloop.mail(camp)
    assert len(later["queued"]) == 3
    for record in later["queued"]:
        msg = parse(outbox / record["file"])
        assert msg["In-Reply-To"] == first[record["to"]]
        assert first[record["to"]] in msg["References"]
        assert msg["Message-ID"] not in ids
    assert Campaign.open(camp).store().is_clean()  # the outbox is git-ignored


def test_mail_for_a_player_of_several_factions_is_one_message(camp: Path) -> None:
    result = mailloop.mail(camp)
    cy = next(r for r in result["queued"] if r["to"] == "cy@example.org")
    msg = parse(camp / ".pbem" / "outbox" / cy["file"])
    text = msg.get_body(preferencelist=("plain",)).get_content()
    html = msg.get_body(preferencelist=("html",)).get_content()
    # one report: one story, one position, one map, each faction's hand, one template
    assert "report for Southern Whites and Northern/Asiatic Whites" in text
    assert text.count("WHAT HAPPENED") == 1 and text.count("POSITION after step") == 1
    assert html.lower().count("<html") == 1 and html.lower().count("</body>") == 1
    assert html.count('<img src="cid:') == 1  # one map, as a picture (no SVG: test_report_png)
    assert text.count("ORDERS TEMPLATE") == 1
    assert "ORDERS TEMPLATE (south + north)" in text
    assert "One orders file for south and north" in text


def test_mail_shows_each_player_their_own_hand_and_nobody_elses(camp: Path) -> None:
    """docs/design.md "Reports": a player's report holds their own hand; the referee's key
    opens it for the mail, and only the nodes of the player's own factions are opened."""
    from pbem.crypto import sealed

    play(camp, until_turn=1, seed="mail")
    c = Campaign.open(camp)
    deck = {card["id"]: card["title"] for card in c.data["cards"]["cards"]}
    ids = c.referee_identities()
    hands = {holder: [deck[sealed.open_node(c.id, n, ids).value] for n in nodes]
             for holder, nodes in c.state()["game"]["cards"]["hands"].items()}
    result = mailloop.mail(camp)
    texts = {}
    for record in result["queued"]:
        msg = parse(camp / ".pbem" / "outbox" / record["file"])
        texts[record["to"]] = msg.get_body(preferencelist=("plain",)).get_content()
    mine = {"ann@example.org": "red", "bob@example.org": "siberian", "cy@example.org": "south"}
    for to, holder in mine.items():
        assert "YOUR HAND" in texts[to]
        for other, cards in hands.items():
            for title in cards:
                if other == holder:
                    assert title in texts[to], f"{to} does not see {title}"
                elif not any(title in hands[h] for h in hands if h != other):
                    assert f": {title} [" not in texts[to], f"{to} sees {other}'s {title}"


def test_send_plain(camp: Path, smtp_server: Callable[..., Server]) -> None:
    server = smtp_server()
    result = mailloop.mail(camp, send=True, smtp=server.address)
    assert len(result["sent"]) == 3 and result["pending"] == 0
    assert sorted(m["to"][0] for m in server.messages) == ["ann@example.org", "bob@example.org",
                                                           "cy@example.org"]
    assert all(m["from"] == "referee@pbem.invalid" for m in server.messages)
    assert all(r["sent"] for r in journal(camp)["messages"])
    # nothing is delivered twice
    assert mailloop.send(camp, smtp=server.address) == []
    assert len(server.messages) == 3


def test_send_starttls_with_auth(camp: Path, smtp_server: Callable[..., Server],
                                 cli: Callable[..., Result], monkeypatch: pytest.MonkeyPatch) -> None:
    server = smtp_server(tls=True)
    monkeypatch.setenv("PBEM_SMTP_PASSWORD", PASSWORD)
    r = cli("-C", camp, "mail", "--send", "--smtp", server.address, "--starttls", "--user", "referee")
    assert r.code == 0, r.err
    assert r.out.count("sent 000") == 3
    assert len(server.messages) == 3
    assert all(m["tls"] and m["authenticated"] for m in server.messages)
    # the password is never written anywhere in the campaign
    for path in camp.rglob("*"):
        if path.is_file():
            assert PASSWORD.encode() not in path.read_bytes(), path


def test_settings_come_from_campaign_yaml(camp: Path, smtp_server: Callable[..., Server],
                                          cli: Callable[..., Result],
                                          monkeypatch: pytest.MonkeyPatch) -> None:
    server = smtp_server(tls=True)
    monkeypatch.setenv("PBEM_SMTP_PASSWORD", PASSWORD)
    set_config(camp, mail={"smtp": server.address, "starttls": True, "user": "referee",
                           "from": "The Referee <ref@example.org>"})
    r = cli("-C", camp, "mail", "--send", "--json")
    assert r.code == 0, r.err
    assert len(server.messages) == 3
    assert all(m["from"] == "ref@example.org" for m in server.messages)
    assert all(m["message"]["Message-ID"].endswith("@example.org>") for m in server.messages)


def test_refused_login_keeps_everything_queued(camp: Path, smtp_server: Callable[..., Server],
                                               cli: Callable[..., Result],
                                               monkeypatch: pytest.MonkeyPatch) -> None:
    server = smtp_server(tls=True)
    monkeypatch.setenv("PBEM_SMTP_PASSWORD", "wrong")
    r = cli("-C", camp, "mail", "--send", "--smtp", server.address, "--starttls", "--user", "referee")
    assert r.code == 1
    assert "refused the login of 'referee'" in r.err
    assert "delivered 0 of 3 message(s), the other 3 stay queued" in r.err
    assert server.messages == []
    assert not any(m["sent"] for m in journal(camp)["messages"])
    monkeypatch.setenv("PBEM_SMTP_PASSWORD", PASSWORD)
    r = cli("-C", camp, "mail", "--send", "--smtp", server.address, "--starttls", "--user", "referee")
    assert r.code == 0, r.err
    assert len(server.messages) == 3


def test_user_needs_the_password_variable(camp: Path, cli: Callable[..., Result],
                                          monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("PBEM_SMTP_PASSWORD", raising=False)
    r = cli("-C", camp, "mail", "--send", "--smtp", "127.0.0.1:1", "--starttls", "--user", "referee")
    assert r.code == 2 and "PBEM_SMTP_PASSWORD" in r.err
    assert len(list((camp / ".pbem" / "outbox").glob("*.eml"))) == 3  # written first


def test_dropped_connection_then_second_send_delivers_each_once(
        camp: Path, smtp_server: Callable[..., Server]) -> None:
    server = smtp_server(drop_after=1)
    with pytest.raises(MailError) as caught:
        mailloop.mail(camp, send=True, smtp=server.address)
    assert "delivered 1 of 3 message(s), the other 2 stay queued" in caught.value.message
    assert len(server.messages) == 1
    records = journal(camp)["messages"]
    assert [bool(r["sent"]) for r in records] == [True, False, False]
    server.drop_after = None
    sent = mailloop.send(camp, smtp=server.address)
    assert [r["file"] for r in sent] == [records[1]["file"], records[2]["file"]]
    assert sorted(server.ids()) == sorted(r["message_id"] for r in records)  # each once
    assert mailloop.send(camp, smtp=server.address) == []
    assert len(server.messages) == 3


def test_server_down_keeps_messages_queued(camp: Path) -> None:
    port = free_port()  # nobody listens there
    with pytest.raises(MailError) as caught:
        mailloop.mail(camp, send=True, smtp=f"127.0.0.1:{port}")
    assert "cannot connect" in caught.value.message
    assert len(list((camp / ".pbem" / "outbox").glob("*.eml"))) == 3
    assert len(mailloop.outbox_of(Campaign.open(camp)).pending()) == 3


# ---------------------------------------------------------------------------------------
# mail in


def _check_mailbag_result(camp: Path, result: dict[str, Any], head_before: str) -> None:
    assert [(r["message_id"], r["outcome"]) for r in result["messages"]] == [
        ("<good-1@example.org>", "accepted"), ("<bad-1@example.org>", "rejected"),
        ("<good-1@example.org>", "duplicate")]
    assert (result["accepted"], result["rejected"], result["duplicates"], result["ignored"]) == (1, 1, 1, 2)
    s = api.status(camp)
    assert s["received"] == ["siberian"]
    assert git(camp, "rev-list", "--count", f"{head_before}..HEAD") == "1"  # one step: one mail
    bad = next(r for r in result["messages"] if r["outcome"] == "rejected")
    assert bad["problems"], bad
    assert all(p.startswith("orders-south.yaml:") for p in bad["problems"]), bad["problems"]
    assert any("orderz" in p for p in bad["problems"])
    record = yamlio.read_trusted(camp / ".pbem" / "inbox.yaml")["messages"]
    assert set(record) == {"<good-1@example.org>", "<bad-1@example.org>"}
    assert record["<bad-1@example.org>"]["problems"] == bad["problems"]
    assert record["<good-1@example.org>"]["signed"] == ["orders-siberian.yaml"]
    # an answer to each player, in their thread; the rejection lists every problem
    replies = {r["to"]: r for r in journal(camp)["messages"] if r["kind"] == "reply"}
    assert set(replies) == {"bob@example.org", "cy@example.org"}
    rejected = parse(camp / ".pbem" / "outbox" / replies["cy@example.org"]["file"])
    assert rejected["In-Reply-To"] == "<bad-1@example.org>"
    assert rejected["Auto-Submitted"] == "auto-replied"
    assert "[rejected]" in rejected["Subject"]
    body = rejected.get_body(preferencelist=("plain",)).get_content()
    for p in bad["problems"]:
        assert p in body


def test_inbox_from_maildir(camp: Path, tmp_path: Path, cli: Callable[..., Result]) -> None:
    box = mailbox.Maildir(tmp_path / "Maildir", create=True)
    for msg in mailbag(camp, tmp_path / "drafts"):
        box.add(msg.as_bytes())
    before = git(camp, "rev-parse", "HEAD")
    r = cli("-C", camp, "inbox", "--maildir", tmp_path / "Maildir", "--json")
    assert r.code == 0, r.err
    import json

    _check_mailbag_result(camp, json.loads(r.out), before)
    # a second run applies nothing and answers nothing again
    head = git(camp, "rev-parse", "HEAD")
    replies = len(journal(camp)["messages"])
    again = mailloop.inbox(camp, maildir=tmp_path / "Maildir")
    assert again["accepted"] == 0 and again["rejected"] == 0 and again["duplicates"] == 3
    assert git(camp, "rev-parse", "HEAD") == head
    assert len(journal(camp)["messages"]) == replies
    # the mailbox is left as it was: nothing moved from new/ to cur/
    assert len(list((tmp_path / "Maildir" / "new").iterdir())) == 5


def test_inbox_from_mbox_with_inline_orders(camp: Path, tmp_path: Path) -> None:
    box = mailbox.mbox(tmp_path / "mbox", create=True)
    for msg in mailbag(camp, tmp_path / "drafts"):
        box.add(msg.as_bytes())
    box.flush()
    before = git(camp, "rev-parse", "HEAD")
    _check_mailbag_result(camp, mailloop.inbox(camp, mbox=tmp_path / "mbox"), before)
    # orders written in the body of the mail (no attachment), a signature below them
    inline = yamlio.dump(api.bot(camp, "south", seed="mail"))
    box.add(player_mail("Cy <cy@example.org>", "south", mid="<inline@example.org>",
                        text=f"Hello referee,\n\n{inline}\n-- \nCy, from my phone\n").as_bytes())
    # unsigned orders for north from an address that is not north's player
    stranger = orders_file(camp, "north", tmp_path / "drafts")
    box.add(player_mail("Mallory <m@example.net>", "north", mid="<stranger@example.net>",
                        files=[stranger]).as_bytes())
    box.flush()
    result = mailloop.inbox(camp, mbox=tmp_path / "mbox")
    by_id = {r["message_id"]: r for r in result["messages"]}
    assert by_id["<inline@example.org>"]["outcome"] == "accepted"
    assert by_id["<stranger@example.net>"]["outcome"] == "rejected"
    assert "must come from its player's address" in by_id["<stranger@example.net>"]["problems"][0]
    assert by_id["<stranger@example.net>"]["reply"] is None  # no answer to a stranger
    assert api.status(camp)["received"] == ["siberian", "south"]


def test_orders_signed_in_the_body_of_a_mail(tmp_path: Path) -> None:
    """Bob's faction has a key (no hot seat): he pastes the template pbem mailed him, signed
    with `pbem sign`, into the body of his answer, the signature's armour below it."""
    root = tmp_path / "keyed"
    api.new_campaign(root, "red_russia", contributions=False, seed="mail", name="camp",
                     keys_dir=tmp_path / "keys", players=PLAYERS)
    sent = mailloop.mail(root)
    bob = next(r for r in sent["queued"] if r["to"] == "bob@example.org")
    (template,) = [p for p in parse(root / ".pbem" / "outbox" / bob["file"]).iter_attachments()
                   if p.get_content_type() != "image/png"]
    path = tmp_path / "bob" / "orders.yaml"
    path.parent.mkdir()
    path.write_bytes(template.get_payload(decode=True))
    api.sign(path, tmp_path / "keys" / "siberian_ed25519", root)
    signed = path.read_text()
    assert signed.startswith("# Orders template for siberian")  # the header is signed too
    armour = path.with_name("orders.yaml.sig").read_text()
    box = mailbox.mbox(tmp_path / "mbox", create=True)
    # unsigned, changed after signing, then as signed: two refusals, then accepted
    box.add(player_mail("Bob <bob@example.org>", "o", mid="<unsigned@example.org>",
                        text=f"My orders:\n\n{signed}\n-- \nBob\n").as_bytes())
    box.add(player_mail("Bob <bob@example.org>", "o", mid="<changed@example.org>",
                        text=f"{signed.replace('zone: ', 'zone:  ', 1)}\n{armour}").as_bytes())
    box.add(player_mail("Bob <bob@example.org>", "o", mid="<signed@example.org>",
                        text=f"My orders:\n\n{signed}\n{armour}\n-- \nBob\n").as_bytes())
    box.flush()
    before = git(root, "rev-parse", "HEAD")
    result = mailloop.inbox(root, mbox=tmp_path / "mbox")
    by_id = {r["message_id"]: r for r in result["messages"]}
    unsigned = by_id["<unsigned@example.org>"]
    assert unsigned["outcome"] == "rejected"
    assert unsigned["problems"][-1] == mailloop.INLINE_SIGNING
    changed = by_id["<changed@example.org>"]
    assert changed["outcome"] == "rejected" and mailloop.INLINE_SIGNING not in changed["problems"]
    assert any("signature" in p for p in changed["problems"]), changed["problems"]
    assert by_id["<signed@example.org>"]["outcome"] == "accepted"
    assert api.status(root)["received"] == ["siberian"]
    assert git(root, "rev-parse", "HEAD") != before
    assert api.audit(root)["ok"]  # the file kept is the one signed, byte for byte


def test_bad_signature_is_rejected(camp: Path, tmp_path: Path) -> None:
    drafts = tmp_path / "drafts"
    drafts.mkdir()
    path = orders_file(camp, "siberian", drafts, sign=True)
    path.write_text(path.read_text() + "# changed after signing\n")
    box = mailbox.mbox(tmp_path / "mbox", create=True)
    box.add(player_mail("Bob <bob@example.org>", "o", mid="<tampered@example.org>",
                        files=[path]).as_bytes())
    box.flush()
    before = git(camp, "rev-parse", "HEAD")
    result = mailloop.inbox(camp, mbox=tmp_path / "mbox")
    assert result["rejected"] == 1
    assert any("signature" in p for p in result["messages"][0]["problems"])
    assert git(camp, "rev-parse", "HEAD") == before


def test_inbox_from_imap(camp: Path, tmp_path: Path, imap_server: int,
                         monkeypatch: pytest.MonkeyPatch, request: pytest.FixtureRequest) -> None:
    client = imap_login(imap_server)
    for msg in mailbag(camp, tmp_path / "drafts"):
        client.append("INBOX", None, None, msg.as_bytes())
    client.logout()
    monkeypatch.setenv("PBEM_IMAP_PASSWORD", "p")
    upgraded = []
    original = imaplib.IMAP4.starttls

    def starttls(self: imaplib.IMAP4, ssl_context: ssl.SSLContext | None = None) -> Any:
        upgraded.append(ssl_context)
        return original(self, ssl_context=ssl_context)

    monkeypatch.setattr(imaplib.IMAP4, "starttls", starttls)
    before = git(camp, "rev-parse", "HEAD")
    result = mailloop.inbox(camp, imap=f"imap://u@127.0.0.1:{imap_server}/INBOX")
    assert len(upgraded) == (request.node.callspec.params["imap_server"] == "starttls")
    # the server's own demo messages are not orders: left alone with the two of the bag
    assert result["ignored"] >= 2
    result["ignored"] = 2
    _check_mailbag_result(camp, result, before)
    # nothing in the mailbox changed: no message was marked as read
    client = imap_login(imap_server)
    client.select("INBOX", readonly=True)
    status, data = client.search(None, "SEEN")
    seen = data[0].split()
    status, data = client.search(None, "FROM", '"bob@example.org"')
    bob = data[0].split()
    assert bob and not set(bob) & set(seen)
    client.logout()


def test_imap_wrong_password(camp: Path, imap_server: int, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("PBEM_IMAP_PASSWORD", "nope")
    with pytest.raises(MailError) as caught:
        mailloop.inbox(camp, imap=f"imap://u@127.0.0.1:{imap_server}/INBOX")
    assert f"127.0.0.1:{imap_server}" in caught.value.message


def test_inbox_needs_exactly_one_source(camp: Path, cli: Callable[..., Result]) -> None:
    r = cli("-C", camp, "inbox")
    assert r.code == 2 and "exactly one of" in r.err


# ---------------------------------------------------------------------------------------
# deadlines, reminders, tick


def opened(camp: Path) -> dt.datetime:
    due = schedule.deadline_of(Campaign.open(camp))
    assert due is not None
    return dt.datetime.fromisoformat(due["opened"])


def test_deadline_counts_from_the_commit_that_opened_the_phase(camp: Path) -> None:
    assert schedule.deadline_of(Campaign.open(camp)) is None  # none configured
    set_config(camp, deadlines={"hours": 72, "remind_hours": 24})
    stamp = int(git(camp, "log", "-1", "--format=%ct"))
    due = schedule.deadline_of(Campaign.open(camp))
    assert due is not None and due["opened_by"] == 1
    start = dt.datetime.fromtimestamp(stamp, dt.UTC)
    assert dt.datetime.fromisoformat(due["deadline"]) == start + dt.timedelta(hours=72)
    assert dt.datetime.fromisoformat(due["remind_at"]) == start + dt.timedelta(hours=48)
    # orders do not open a phase: the deadline stays
    drafts = camp.parent / "drafts"
    drafts.mkdir()
    api.apply(camp, [orders_file(camp, "siberian", drafts)])
    assert schedule.deadline_of(Campaign.open(camp))["deadline"] == due["deadline"]
    # a per-phase policy and a fixed deadline for one phase
    phase = api.status(camp)["phase"]
    set_config(camp, deadlines={"hours": 72, phase: {"hours": 10}})
    again = schedule.deadline_of(Campaign.open(camp))
    assert dt.datetime.fromisoformat(again["deadline"]) == start + dt.timedelta(hours=10)
    set_config(camp, deadlines={"hours": 72, f"0:{phase}": "2030-01-02T03:04:05Z"})
    assert schedule.deadline_of(Campaign.open(camp))["deadline"] == "2030-01-02T03:04:05+00:00"


def test_remind_writes_to_the_players_still_awaited(camp: Path, cli: Callable[..., Result]) -> None:
    set_config(camp, deadlines={"hours": 72})
    r = cli("-C", camp, "remind", "--json")
    assert r.code == 0, r.err
    import json

    result = json.loads(r.out)
    assert sorted(q["to"] for q in result["queued"]) == ["bob@example.org", "cy@example.org"]
    cy = next(q for q in result["queued"] if q["to"] == "cy@example.org")
    msg = parse(camp / ".pbem" / "outbox" / cy["file"])
    assert "reminder" in msg["Subject"] and result["deadline"] in msg["Subject"]
    attached = list(msg.iter_attachments())  # one file for both of Cy's factions
    assert [p.get_filename() for p in attached] == ["orders-south-north-t0-setup-place.yaml"]
    template = yamlio.load_untrusted(attached[0].get_content(), "template").data
    assert template["faction"] == ["south", "north"] and set(template["orders"]) == {"south", "north"}
    bob = next(q for q in result["queued"] if q["to"] == "bob@example.org")
    bobs = list(parse(camp / ".pbem" / "outbox" / bob["file"]).iter_attachments())
    assert [p.get_filename() for p in bobs] == ["orders-siberian-t0-setup-place.yaml"]
    text = " ".join(msg.get_body(preferencelist=("plain",)).get_content().split())
    assert "It is one file for south and north (faction: [south, north]" in text
    assert ("your standing orders apply: nothing new is ordered, and choices that cannot be skipped "
            "(a set-up, say) are made for you") in text


def test_tick_reports_reminds_then_resolves_by_the_nmr_policy(camp: Path) -> None:
    set_config(camp, deadlines={"hours": 72, "remind_hours": 24}, nmr="hold")
    start = opened(camp)
    first = mailloop.tick(camp, start + dt.timedelta(hours=1))
    assert len(first["reported"]) == 3 and first["reminded"] == [] and first["resolved"] == []
    quiet = mailloop.tick(camp, start + dt.timedelta(hours=2))
    assert quiet["reported"] == [] and quiet["actions"] == []
    # Bob sends his orders; only Cy is reminded, once
    drafts = camp.parent / "drafts"
    drafts.mkdir()
    api.apply(camp, [orders_file(camp, "siberian", drafts)])
    near = mailloop.tick(camp, start + dt.timedelta(hours=50))
    assert [r["to"] for r in near["reminded"]] == ["cy@example.org"]
    assert mailloop.tick(camp, start + dt.timedelta(hours=51))["reminded"] == []
    phase = api.status(camp)["phase"]
    late = mailloop.tick(camp, start + dt.timedelta(hours=73))
    assert [r["phase"] for r in late["resolved"]] == [phase]
    assert late["resolved"][0]["nmr"] == ["south", "north"]
    assert late["status"]["phase"] != phase
    # the new phase's reports to all three: none of the first ones was sent (no --send), so
    # each is replaced by the current one, whoever is awaited
    assert len(late["reported"]) == 3
    assert "resolved with nmr: hold" in late["actions"][0]
    assert api.audit(camp)["ok"]


def test_tick_waits_under_nmr_wait(camp: Path, cli: Callable[..., Result]) -> None:
    set_config(camp, deadlines={"hours": 1}, nmr="wait")
    start = opened(camp)
    head = git(camp, "rev-parse", "HEAD")
    when = (start + dt.timedelta(hours=5)).isoformat()
    r = cli("-C", camp, "tick", "--now", when)
    assert r.code == 0, r.err
    assert "nmr: wait, so still waiting for" in r.out
    assert git(camp, "rev-parse", "HEAD") == head
    reminders = [m for m in journal(camp)["messages"] if m["kind"] == "reminder"]
    assert len(reminders) == 2


def test_tick_sends_with_the_campaign_settings(camp: Path, smtp_server: Callable[..., Server]) -> None:
    server = smtp_server()
    set_config(camp, deadlines={"hours": 72}, mail={"smtp": server.address})
    result = mailloop.tick(camp, opened(camp) + dt.timedelta(hours=1), send=True)
    assert len(result["sent"]) == 3 and result["pending"] == 0
    assert len(server.messages) == 3


def test_bad_nmr_policy(camp: Path) -> None:
    from pbem.errors import CampaignError

    set_config(camp, deadlines={"hours": 1}, nmr="pray")
    with pytest.raises(CampaignError, match="nmr: 'pray'"):
        mailloop.tick(camp, opened(camp) + dt.timedelta(hours=2))


# ---------------------------------------------------------------------------------------
# publish


def test_publish_pushes_history_and_tags_not_private(camp: Path, tmp_path: Path,
                                                     cli: Callable[..., Result]) -> None:
    play(camp, until_turn=1, seed="mail")
    mailloop.mail(camp)  # something in .pbem/outbox too
    bare = tmp_path / "shared.git"
    subprocess.run(["git", "init", "--quiet", "--bare", "--initial-branch=main", str(bare)],
                   check=True)
    git(camp, "remote", "add", "origin", str(bare))
    r = cli("-C", camp, "publish", "--json")
    assert r.code == 0, r.err
    clone = tmp_path / "clone"
    subprocess.run(["git", "clone", "--quiet", str(bare), str(clone)], check=True)
    assert git(clone, "rev-parse", "HEAD") == git(camp, "rev-parse", "HEAD")
    tags = git(clone, "tag").split()
    assert tags == git(camp, "tag").split() and "turn-0001" in tags
    assert not (clone / ".pbem").exists()
    assert git(clone, "log", "--all", "--format=%H", "--", ".pbem") == ""
    assert api.status(clone)["head"] == api.status(camp)["head"]
    # more steps, published again: the remote follows
    play(camp, until_turn=1, phase="action", seed="mail")
    assert mailloop.publish(camp)["head"] == git(camp, "rev-parse", "HEAD")
    assert git(bare, "rev-parse", "main") == git(camp, "rev-parse", "HEAD")


def test_publish_unknown_remote(camp: Path, cli: Callable[..., Result]) -> None:
    r = cli("-C", camp, "publish", "--remote", "nowhere")
    assert r.code == 2 and "no such remote" in r.err


# ---------------------------------------------------------------------------------------
# the command line


def test_mail_commands_have_help(cli: Callable[..., Result]) -> None:
    from pbem.cli import app

    root = typer.main.get_command(app)
    missing = []
    for name in ("mail", "inbox", "remind", "tick", "publish"):
        cmd = root.commands[name]  # type: ignore[attr-defined]
        if not (cmd.help or "").strip():
            missing.append(name)
        missing += [f"{name} {p.name}" for p in cmd.params if not (getattr(p, "help", "") or "").strip()]
        r = cli(name, "--help")
        assert r.code == 0 and "Usage:" in r.out
    assert not missing


def test_cli_mail_without_players_mails_nothing(tmp_path: Path, cli: Callable[..., Result]) -> None:
    root = tmp_path / "hot"
    api.new_campaign(root, "red_russia", contributions=False, hot_seat=True, seed="hot", name="hot")
    r = cli("-C", root, "mail")
    assert r.code == 0, r.err
    assert "nothing to mail" in r.out



# ---------------------------------------------------------------------------------------
# malformed mail, late orders


def test_a_malformed_mail_never_stops_the_others(camp: Path, tmp_path: Path,
                                                 monkeypatch: pytest.MonkeyPatch) -> None:
    from pbem.mail import transport as m

    drafts = tmp_path / "drafts"
    drafts.mkdir()
    box = mailbox.mbox(tmp_path / "mbox", create=True)
    # broken MIME: an unterminated multipart, an attachment that is not base64, a bad
    # encoded-word; then raw bytes that are not UTF-8 in the headers and in inline orders
    box.add(b'From: Cy <cy@example.org>\nSubject: =?utf-8?b?broken\nMessage-ID: <mime@x>\n'
            b'Content-Type: multipart/mixed; boundary="x"\n\n--x\nContent-Type: application/yaml\n'
            b'Content-Disposition: attachment; filename="orders.yaml"\n'
            b'Content-Transfer-Encoding: base64\n\n!!!notbase64***\n')
    box.add(b'From: \xff\xfe <cy@example.org>\nDate: not a date\nSubject: \x01\nMessage-ID: <bytes@x>\n'
            b'Content-Type: text/plain; charset=utf-8\n\ncampaign: camp\nfaction: south\n'
            b'orders: [\xff\xfe]\n')
    box.add(player_mail("Cy <cy@example.org>", "explodes", mid="<explodes@x>",
                        files=[orders_file(camp, "north", drafts)]).as_bytes())
    box.add(player_mail("Bob <bob@example.org>", "orders", mid="<good@x>",
                        files=[orders_file(camp, "siberian", drafts, sign=True)]).as_bytes())
    box.flush()
    real = m.extract

    def extract(msg: EmailMessage, limits: m.Limits = m.DEFAULTS) -> m.Incoming | None:
        if "explodes" in str(msg.get("Message-ID")):
            raise ValueError("a parser bug")
        return real(msg, limits)

    monkeypatch.setattr(m, "extract", extract)
    result = mailloop.inbox(camp, mbox=tmp_path / "mbox")
    outcomes = {r["message_id"]: r["outcome"] for r in result["messages"]}
    assert outcomes == {"<mime@x>": "rejected", "<bytes@x>": "rejected",
                        "<explodes@x>": "rejected", "<good@x>": "accepted"}
    exploded = next(r for r in result["messages"] if r["message_id"] == "<explodes@x>")
    assert "could not be read: a parser bug" in exploded["problems"][0]
    assert api.status(camp)["received"] == ["siberian"]
    record = yamlio.read_trusted(camp / ".pbem" / "inbox.yaml")["messages"]
    assert set(record) == set(outcomes)
    assert all(m.get("error") or m.get("problems") for k, m in record.items() if k != "<good@x>")


def _late_setup(camp: Path, tmp_path: Path, policy: str) -> tuple[Path, dt.datetime]:
    set_config(camp, deadlines={"hours": 72}, late=policy)
    start = opened(camp)
    drafts = tmp_path / "drafts"
    drafts.mkdir(exist_ok=True)
    box = mailbox.mbox(tmp_path / "mbox", create=True)
    box.add(player_mail("Bob <bob@example.org>", "orders siberian", mid="<late@x>",
                        files=[orders_file(camp, "siberian", drafts, sign=True)],
                        date=start + dt.timedelta(hours=80)).as_bytes())
    box.add(player_mail("Cy <cy@example.org>", "orders south", mid="<in-time@x>",
                        files=[orders_file(camp, "south", drafts, sign=True)],
                        date=start + dt.timedelta(hours=71)).as_bytes())
    box.flush()
    return tmp_path / "mbox", start


def test_late_orders_are_flagged(camp: Path, tmp_path: Path, cli: Callable[..., Result]) -> None:
    mbox, start = _late_setup(camp, tmp_path, "flag")
    r = cli("-C", camp, "inbox", "--mbox", mbox, "--now", (start + dt.timedelta(hours=90)).isoformat())
    assert r.code == 0, r.err
    assert "accepted LATE: <late@x>" in r.out and "accepted: <in-time@x>" in r.out
    assert "2 accepted (1 late)" in r.out
    assert api.status(camp)["received"] == ["siberian", "south"]
    record = yamlio.read_trusted(camp / ".pbem" / "inbox.yaml")["messages"]
    late = record["<late@x>"]["late"]
    assert late == [{"file": "orders-siberian.yaml", "faction": "siberian",
                     "dated": schedule._iso(start + dt.timedelta(hours=80)),
                     "deadline": schedule._iso(start + dt.timedelta(hours=72))}]
    assert "late" not in record["<in-time@x>"]
    receipt = next(x for x in journal(camp)["messages"] if x.get("in_reply_to") == "<late@x>")
    msg = parse(camp / ".pbem" / "outbox" / receipt["file"])
    assert "[accepted, late]" in msg["Subject"] and msg["X-Pbem-Late"] == "yes"
    body = msg.get_body(preferencelist=("plain",))
    assert body is not None and "came late" in body.get_content()


def test_late_orders_rejected_or_accepted_by_policy(camp: Path, tmp_path: Path) -> None:
    mbox, start = _late_setup(camp, tmp_path, "reject")
    head = git(camp, "rev-parse", "HEAD")
    result = mailloop.inbox(camp, mbox=mbox, now=start + dt.timedelta(hours=90))
    by_id = {r["message_id"]: r for r in result["messages"]}
    assert by_id["<late@x>"]["outcome"] == "rejected"
    assert "takes no late orders" in by_id["<late@x>"]["problems"][0]
    assert by_id["<in-time@x>"]["outcome"] == "accepted"
    assert api.status(camp)["received"] == ["south"]
    assert git(camp, "rev-list", "--count", f"{head}..HEAD") == "1"
    # accept: the same mail is taken without a mark
    (camp / ".pbem" / "inbox.yaml").unlink()
    set_config(camp, late="accept")
    again = mailloop.inbox(camp, mbox=mbox, now=start + dt.timedelta(hours=90))
    late = next(r for r in again["messages"] if r["message_id"] == "<late@x>")
    assert late["outcome"] == "accepted" and "late" not in late


def test_mail_without_a_date_is_timed_by_the_clock(camp: Path, tmp_path: Path) -> None:
    set_config(camp, deadlines={"hours": 72})
    start = opened(camp)
    drafts = tmp_path / "drafts"
    drafts.mkdir()
    box = mailbox.mbox(tmp_path / "mbox", create=True)
    box.add(player_mail("Bob <bob@example.org>", "o", mid="<undated@x>", dated=False,
                        files=[orders_file(camp, "siberian", drafts, sign=True)]).as_bytes())
    box.flush()
    result = mailloop.inbox(camp, mbox=tmp_path / "mbox", now=start + dt.timedelta(hours=73))
    assert result["messages"][0]["outcome"] == "accepted" and result["late"] == 1


def test_bad_late_policy(camp: Path, tmp_path: Path) -> None:
    from pbem.errors import CampaignError

    set_config(camp, late="sometimes")
    mailbox.mbox(tmp_path / "mbox", create=True).flush()
    with pytest.raises(CampaignError, match="late: 'sometimes'"):
        mailloop.inbox(camp, mbox=tmp_path / "mbox")


# ---------------------------------------------------------------------------------------
# grace periods and absences


def test_grace_period_delays_resolution_not_reminders(camp: Path) -> None:
    set_config(camp, deadlines={"hours": 10, "remind_hours": 2, "grace_hours": 5})
    start = opened(camp)
    due = schedule.deadline_of(Campaign.open(camp))
    assert due is not None
    assert dt.datetime.fromisoformat(due["grace_until"]) == start + dt.timedelta(hours=15)
    assert api.status(camp)["deadline"] == due["deadline"] == schedule._iso(start + dt.timedelta(hours=10))
    head = git(camp, "rev-parse", "HEAD")
    assert mailloop.tick(camp, start + dt.timedelta(hours=7))["reminded"] == []
    near = mailloop.tick(camp, start + dt.timedelta(hours=8))
    assert sorted(r["to"] for r in near["reminded"]) == ["bob@example.org", "cy@example.org"]
    grace = mailloop.tick(camp, start + dt.timedelta(hours=12))
    assert grace["resolved"] == [] and git(camp, "rev-parse", "HEAD") == head
    assert any("grace period until" in a for a in grace["actions"])
    done = mailloop.tick(camp, start + dt.timedelta(hours=15))
    assert len(done["resolved"]) == 1
    assert api.audit(camp)["ok"]


def test_an_absence_pushes_that_factions_deadline(camp: Path, cli: Callable[..., Result]) -> None:
    set_config(camp, deadlines={"hours": 72, "remind_hours": 24})
    start = opened(camp)
    base = start + dt.timedelta(hours=72)
    first = base.date() - dt.timedelta(days=1)
    last = base.date() + dt.timedelta(days=3)
    back = dt.datetime.combine(last + dt.timedelta(days=1), dt.time(), dt.UTC)
    set_config(camp, deadlines={"hours": 72, "remind_hours": 24},
               absences=[{"faction": "south", "from": str(first), "to": str(last)},
                         {"faction": "red", "from": str(first), "to": str(last)}])
    due = schedule.deadline_of(Campaign.open(camp))
    assert due is not None
    assert due["phase_deadline"] == schedule._iso(base)
    assert due["factions"] == {"siberian": schedule._iso(base), "south": schedule._iso(back),
                               "north": schedule._iso(base)}
    assert due["absent"] == {"south": {"from": str(first), "to": str(last),
                                       "until": schedule._iso(back)}}  # red is not awaited
    assert due["deadline"] == schedule._iso(back)  # the phase waits for south
    r = cli("-C", camp, "status")
    assert r.code == 0 and f"(by {schedule._iso(back)})" in r.out
    # the others are reminded before their own deadline; south before its own
    near = mailloop.tick(camp, base - dt.timedelta(hours=1))
    assert [x["to"] for x in near["reminded"]] == ["bob@example.org", "cy@example.org"]
    cy = next(x for x in near["reminded"] if x["to"] == "cy@example.org")
    body = parse(camp / ".pbem" / "outbox" / cy["file"]).get_body(preferencelist=("plain",))
    assert body is not None and "orders of north" in body.get_content()  # south is not due yet
    head = git(camp, "rev-parse", "HEAD")
    assert mailloop.tick(camp, base + dt.timedelta(hours=1))["resolved"] == []
    assert git(camp, "rev-parse", "HEAD") == head
    # once south sent its orders, the phase's deadline is the others' again
    drafts = camp.parent / "drafts"
    drafts.mkdir()
    api.apply(camp, [orders_file(camp, "south", drafts)])
    due = schedule.deadline_of(Campaign.open(camp))
    assert due is not None and due["deadline"] == schedule._iso(base)
    late = mailloop.tick(camp, base + dt.timedelta(hours=1))
    assert [r["nmr"] for r in late["resolved"]] == [["siberian", "north"]]


def test_absence_must_name_a_faction(camp: Path) -> None:
    from pbem.errors import CampaignError

    set_config(camp, deadlines={"hours": 72},
               absences=[{"faction": "blue", "from": "2026-12-20", "to": "2027-01-03"}])
    with pytest.raises(CampaignError, match="'blue' is not a faction"):
        schedule.deadline_of(Campaign.open(camp))
    set_config(camp, absences=[{"faction": "red", "from": "2027-01-03", "to": "2026-12-20"}])
    with pytest.raises(CampaignError, match="'to' is before 'from'"):
        schedule.deadline_of(Campaign.open(camp))


# ---------------------------------------------------------------------------------------
# NMR policies per faction


def test_nmr_policies_per_faction(camp: Path) -> None:
    from pbem.errors import CampaignError

    set_config(camp, nmr={"default": "bot", "south": "disorder", "north": "wait"})
    campaign = Campaign.open(camp)
    assert mailloop.nmr_policies(campaign) == {"red": "bot", "siberian": "bot",
                                               "south": "disorder", "north": "wait"}
    assert schedule.nmr_policy(campaign) == "mixed"
    set_config(camp, nmr={"sout": "hold"})
    with pytest.raises(CampaignError, match="'sout' is not a faction"):
        mailloop.nmr_policies(Campaign.open(camp))
    set_config(camp, nmr={"south": "riot"})
    with pytest.raises(CampaignError, match="nmr: south: 'riot'"):
        mailloop.nmr_policies(Campaign.open(camp))


def test_nmr_orders_by_policy(camp: Path) -> None:
    from pbem.dice import KeyedRng

    set_config(camp, nmr={"default": "hold", "south": "disorder", "north": "bot"})
    campaign = Campaign.open(camp)
    state = campaign.state()["game"]
    def rng() -> KeyedRng:
        return KeyedRng(b"k" * 32)

    # set-up choices cannot be skipped: civil disorder there is hold (the game's defaults)
    used, body = schedule.nmr_orders(campaign, state, "south", rng())
    assert used == "hold"
    assert body == campaign.game.default_orders(campaign.data, state, "south", rng())
    assert schedule.nmr_orders(campaign, state, "north", rng())[0] == "bot"
    play(camp, until_turn=1, phase="action", seed="mail")
    campaign = Campaign.open(camp)
    state = campaign.state()["game"]
    actor = api.status(camp)["awaiting"][0]
    set_config(camp, nmr={actor: "disorder"})
    campaign = Campaign.open(camp)
    assert schedule.nmr_orders(campaign, state, actor, rng()) == ("disorder", {"orders": [], "standing": {}})


def test_tick_waits_for_a_faction_under_nmr_wait(camp: Path) -> None:
    set_config(camp, deadlines={"hours": 1}, nmr={"default": "hold", "north": "wait"})
    start = opened(camp)
    head = git(camp, "rev-parse", "HEAD")
    result = mailloop.tick(camp, start + dt.timedelta(hours=2))
    assert result["resolved"] == [] and git(camp, "rev-parse", "HEAD") == head
    assert "nmr: wait, so still waiting for north" in result["actions"][0]
    # north's player sends orders: the rest resolve by their policy
    drafts = camp.parent / "drafts"
    drafts.mkdir()
    api.apply(camp, [orders_file(camp, "north", drafts)])
    done = mailloop.tick(camp, start + dt.timedelta(hours=3))
    assert done["resolved"][0]["nmr"] == ["siberian", "south"]
    assert "resolved with nmr: hold for siberian, south" in done["actions"][0]


def test_resolve_nmr_records_the_policy_used(camp: Path, cli: Callable[..., Result]) -> None:
    play(camp, until_turn=1, phase="action", seed="mail")
    actor = api.status(camp)["awaiting"][0]
    set_config(camp, nmr={"default": "hold", actor: "disorder"})
    r = cli("-C", camp, "resolve", "--nmr", "--json")
    assert r.code == 0, r.err
    entry = Campaign.open(camp).entry(int(json.loads(r.out)["resolved"][0]["seq"]))
    assert entry["nmr_orders"] == {actor: {"orders": [], "standing": {}}}
    assert entry["nmr_policy"] == {actor: "disorder"}
    assert "disorder" in entry["summary"]
    assert api.audit(camp)["ok"]


def test_every_problem_of_a_mail_is_told_and_the_record_names_no_temporary_folder(
        camp: Path, tmp_path: Path) -> None:
    """A late mail under `late: reject` from an address that is not the player's: both
    problems; a file naming a faction the campaign has not and then one of Cy's, unsigned
    from Ann: the one of Cy's is still checked; bad orders: the record keeps pbem apply's
    headline, and its problems name the file as sent, not where pbem checked it."""
    set_config(camp, deadlines={"hours": 72}, late="reject")
    start = opened(camp)
    drafts = tmp_path / "drafts"
    drafts.mkdir()
    box = mailbox.mbox(tmp_path / "mbox", create=True)
    box.add(player_mail("Ann <ann@example.org>", "south, late", mid="<late-ann@x>",
                        files=[orders_file(camp, "south", drafts)],
                        date=start + dt.timedelta(hours=80)).as_bytes())
    two = drafts / "two" / "orders-two.yaml"
    two.parent.mkdir()
    body = yamlio.read_trusted(orders_file(camp, "south", drafts / "two"))
    body["faction"] = ["makhno", "south"]
    yamlio.write_atomic(two, yamlio.dump(body))
    box.add(player_mail("Ann <ann@example.org>", "two", mid="<two-ann@x>", files=[two],
                        date=start + dt.timedelta(hours=1)).as_bytes())
    bad = drafts / "bad"
    bad.mkdir()
    box.add(player_mail("Cy <cy@example.org>", "bad", mid="<bad-cy@x>", files=[bad_orders(camp, bad)],
                        date=start + dt.timedelta(hours=1)).as_bytes())
    box.flush()
    result = {r["message_id"]: r for r in mailloop.inbox(
        camp, mbox=tmp_path / "mbox", now=start + dt.timedelta(hours=90))["messages"]}
    wrong = ("unsigned orders for south must come from its player's address; sign them or send "
             "them from that address")
    assert result["<late-ann@x>"]["problems"] == [
        f"orders-south.yaml: {wrong}",
        f"orders-south.yaml: sent {schedule._iso(start + dt.timedelta(hours=80))}, after the deadline "
        f"of south ({schedule._iso(start + dt.timedelta(hours=72))}); this campaign takes no late orders"]
    assert result["<two-ann@x>"]["problems"] == [f"orders-two.yaml: {wrong}"]
    record = yamlio.read_trusted(camp / ".pbem" / "inbox.yaml")["messages"]["<bad-cy@x>"]
    assert record["outcome"] == "rejected" and record["error"] == "rejected: 1 problem; nothing was recorded"
    assert all(p.startswith("orders-south.yaml:") for p in record["problems"]), record["problems"]


def test_the_answer_to_accepted_orders_tells_every_step_warning_and_lateness(camp: Path, tmp_path: Path) -> None:
    """pbem's answer to a player's accepted orders, word for word: the files, each faction's
    step, each phase the orders completed, the warnings of legal orders that do nothing, and
    the lateness the referee sees; threaded to the player's mail."""
    from pbem.mail import transport as m

    campaign = Campaign.open(camp)
    box = mailloop.outbox_of(campaign)
    sent = player_mail("Cy <cy@example.org>", "orders", mid="<cy-orders@x>", files=[
        orders_file(camp, "south", tmp_path / "a"), orders_file(camp, "north", tmp_path / "b")])
    sent["References"] = "<first@x>"
    msg = m.parse(sent.as_bytes())
    incoming = m.extract(msg)
    assert incoming is not None
    done = {"files": ["orders-south.yaml", "orders-north.yaml"], "outcome": "accepted",
            "recorded": [{"faction": "south", "seq": 7}, {"faction": "north", "seq": 8}],
            "resolved": [{"turn": 1, "phase": "purchase", "seq": 9}],
            "warnings": ["orders-south.yaml:8: WARNING: the move ends where it began"],
            "late": [{"file": "orders-north.yaml", "faction": "north", "dated": "2026-03-04T10:00:00+00:00",
                      "deadline": "2026-03-04T09:00:00+00:00"}]}
    now = dt.datetime(2026, 3, 4, 11, 0, tzinfo=dt.UTC)
    mid = mailloop._reply(campaign, box, msg, incoming, done, now)
    (record,) = [r for r in journal(camp)["messages"] if r.get("in_reply_to") == "<cy-orders@x>"]
    assert record["message_id"] == mid and record["outcome"] == "accepted, late"
    answer = parse(camp / ".pbem" / "outbox" / record["file"])
    assert answer["Subject"] == "Re: orders [accepted, late]"
    assert answer["In-Reply-To"] == "<cy-orders@x>"
    assert answer["References"].split() == ["<first@x>", "<cy-orders@x>"]
    assert (answer["Auto-Submitted"], answer["X-Pbem-Kind"], answer["X-Pbem-Late"]) == ("auto-replied", "reply", "yes")
    body = answer.get_body(preferencelist=("plain",))
    assert body is not None
    assert body.get_content() == (
        "Dear Cy,\n\n"
        "Your orders (orders-south.yaml, orders-north.yaml) were accepted:\n"
        "  south: recorded as step 7\n"
        "  north: recorded as step 8\n"
        "  turn 1 purchase resolved (step 9)\n"
        "\n"
        "Legal, but these will do nothing:\n"
        "  orders-south.yaml:8: WARNING: the move ends where it began\n"
        "\n"
        "They came late, and the referee sees that they did:\n"
        "  orders-north.yaml: sent 2026-03-04T10:00:00+00:00, the deadline of north was "
        "2026-03-04T09:00:00+00:00\n"
        "\n-- \npbem referee\n")
    # the same answer again (a killed inbox): not queued twice
    assert mailloop._reply(campaign, box, msg, incoming, done, now) == mid
    assert len([r for r in journal(camp)["messages"] if r.get("in_reply_to") == "<cy-orders@x>"]) == 1


@pytest.mark.parametrize(("config", "signed"), [
    ({"mail": {"from": "Mara the Moderator <mara@example.org>"}}, "Mara the Moderator"),
    # no name in mail: from:, or no mail: from: at all: the referee's name of campaign.yaml
    ({"mail": {"from": "mara@example.org"}, "referee": {"name": "Mara", "email": "r@example.org"}},
     "Mara"),
    ({"referee": {"name": "Mara  Ivanova", "email": "r@example.org"}}, "Mara Ivanova"),
])
def test_answers_and_reminders_are_signed_by_the_sender(camp: Path, tmp_path: Path,
                                                        config: dict[str, Any], signed: str) -> None:
    referee = {**yamlio.read_trusted(camp / "campaign.yaml")["referee"], **config.pop("referee", {})}
    set_config(camp, referee=referee, **config)
    reminders = mailloop.remind(camp)["queued"]
    box = mailbox.mbox(tmp_path / "mbox", create=True)
    box.add(player_mail("Cy <cy@example.org>", "bad", mid="<bad-cy@x>",
                        files=[bad_orders(camp, tmp_path)]).as_bytes())
    box.flush()
    (done,) = mailloop.inbox(camp, mbox=tmp_path / "mbox")["messages"]
    (answer,) = [r for r in journal(camp)["messages"] if r["message_id"] == done["reply"]]
    assert reminders
    for record in [*reminders, answer]:
        body = parse(camp / ".pbem" / "outbox" / record["file"]).get_body(preferencelist=("plain",))
        assert body is not None
        text = body.get_content()
        assert text.endswith(f"\n-- \n{signed}\n"), text[-80:]
        assert "pbem referee" not in text
