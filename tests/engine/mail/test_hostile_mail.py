"""Hostile mail through the real `pbem inbox --maildir`, `--mbox` (and `--imap` against
pymap): attachment names that climb out of the folder, a 30 MB mail, 500 attachments,
broken MIME and charsets, a spoofed From with unsigned orders, NUL bytes in orders. Each
hostile mail is followed by a good signed orders mail, which must be applied: none of them
stops the others; each gets an answer and a clear entry in `.pbem/inbox.yaml`.
"""

from __future__ import annotations

import hashlib
import json
import mailbox
import os
import sys
import tempfile
import uuid
from collections.abc import Callable
from email.message import EmailMessage
from pathlib import Path
from typing import Any

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))
from conftest import Result, tree_state  # noqa: E402
from test_mail import imap_login, imap_server, journal, parse, player_mail  # noqa: E402, F401

from pbem import api, yamlio  # noqa: E402
from pbem.crypto.keys import keygen_files  # noqa: E402

PLAYERS = ["red=Ann <ann@example.org>", "siberian=Bob <bob@example.org>",
           "south,north=Cy <cy@example.org>"]
BOB, CY = "Bob <bob@example.org>", "Cy <cy@example.org>"
GOOD_ID = "<good@example.org>"


@pytest.fixture
def camp(tmp_path: Path) -> Path:
    """Siberian's player has registered a key (signatures required); the other factions
    have test keys and may send unsigned orders from their player's address."""
    card = tmp_path / "bob.card"
    card.write_text(keygen_files(tmp_path / "bob"))
    root = tmp_path / "camp"
    api.new_campaign(root, "red_russia", contributions=False, hot_seat=True, seed="hostile-mail", name="camp",
                     keys_dir=tmp_path / "keys", players=PLAYERS, keys=[f"siberian={card}"])
    return root


def orders(root: Path, faction: str, folder: Path, *, key: Path | None = None) -> Path:
    folder.mkdir(exist_ok=True)
    path = folder / f"orders-{faction}.yaml"
    yamlio.write_atomic(path, yamlio.dump(api.bot(root, faction, seed="mail")))
    if key is not None:
        api.sign(path, key)
    return path


def good_mail(root: Path, tmp_path: Path) -> EmailMessage:
    """Bob's orders for siberian, signed with his key: always accepted."""
    path = orders(root, "siberian", tmp_path / "good", key=tmp_path / "bob_ed25519")
    return player_mail(BOB, "siberian orders", mid=GOOD_ID, files=[path])


def attach(msg: EmailMessage, data: bytes, filename: str, ctype: str = "application/yaml") -> None:
    maintype, subtype = ctype.split("/")
    msg.add_attachment(data, maintype=maintype, subtype=subtype, filename=filename)


def run_inbox(pbem: Callable[..., Result], root: Path, tmp_path: Path, source: str,
              messages: list[bytes]) -> dict[str, Any]:
    """Put the raw messages in a Maildir or an mbox and run `pbem inbox` on it."""
    tmp_path.mkdir(parents=True, exist_ok=True)
    if source == "maildir":
        box: mailbox.Mailbox[Any] = mailbox.Maildir(tmp_path / "Maildir", create=True)
        where = ["--maildir", str(tmp_path / "Maildir")]
    else:
        box = mailbox.mbox(tmp_path / "mbox", create=True)
        where = ["--mbox", str(tmp_path / "mbox")]
    for raw in messages:
        box.add(raw)
    box.flush()
    r = pbem("-C", root, "inbox", *where, "--json")
    assert r.code == 0, (r.out, r.err)
    assert "Traceback" not in r.err and "unexpected" not in r.err, r.err
    result: dict[str, Any] = json.loads(r.out)
    return result


def by_id(result: dict[str, Any]) -> dict[str, dict[str, Any]]:
    return {r["message_id"]: r for r in result["messages"]}


def reply_to(root: Path, message_id: str) -> str:
    """The text of pbem's answer to the message."""
    found = [r for r in journal(root)["messages"] if r.get("in_reply_to") == message_id]
    assert len(found) == 1, f"no single answer to {message_id}: {found}"
    msg = parse(root / ".pbem" / "outbox" / found[0]["file"])
    body = msg.get_body(preferencelist=("plain",))
    assert body is not None
    return str(body.get_content())


def assert_good_applied(root: Path, result: dict[str, Any]) -> None:
    good = by_id(result)[GOOD_ID]
    assert good["outcome"] == "accepted", good
    assert "siberian" in api.status(root)["received"]
    assert tree_state(root)[1] == "", "the inbox left the campaign's tree dirty"


def assert_recorded(root: Path, message_id: str) -> dict[str, Any]:
    record = yamlio.read_trusted(root / ".pbem" / "inbox.yaml")["messages"]
    assert message_id in record, sorted(record)
    entry: dict[str, Any] = record[message_id]
    assert entry["outcome"] in ("accepted", "rejected"), entry
    if entry["outcome"] == "rejected":
        assert entry["problems"], entry
    return entry


SOURCES = ["maildir", "mbox"]


# ---------------------------------------------------------------------------------------
# attachment names that climb out


@pytest.mark.parametrize("source", SOURCES)
def test_attachment_names_never_write_outside_the_campaign(pbem: Callable[..., Result], camp: Path,
                                                           tmp_path: Path, source: str) -> None:
    tag = uuid.uuid4().hex[:12]
    climbing = [f"../../pbem-hostile-{tag}.yaml", f"../../../../../../pbem-hostile-{tag}-deep.yaml",
                f"/tmp/pbem-hostile-{tag}-abs.yaml", f"..\\..\\pbem-hostile-{tag}-win.yaml",
                f"../../pbem-hostile-{tag}", f"../../pbem-hostile-{tag}.yaml.sig", "..", ".", ""]
    south = orders(camp, "south", tmp_path / "drafts").read_bytes()
    msg = player_mail(CY, "south orders", mid="<climb@example.org>")
    for name in climbing:
        attach(msg, south, name)
    msg2 = player_mail(CY, "north orders", mid="<climb-sig@example.org>")
    attach(msg2, orders(camp, "north", tmp_path / "drafts").read_bytes(), f"/tmp/pbem-hostile-{tag}-n.yaml")
    attach(msg2, b"not a signature", f"../../../tmp/pbem-hostile-{tag}-n.yaml.sig", "application/octet-stream")
    before = set(os.listdir(camp))
    result = run_inbox(pbem, camp, tmp_path, source,
                       [msg.as_bytes(), msg2.as_bytes(), good_mail(camp, tmp_path).as_bytes()])
    places = {Path("/"), Path("/tmp"), Path(tempfile.gettempdir()), Path.cwd(), camp, camp.parent,
              camp.parent.parent, tmp_path, Path.home()}
    for place in places:
        leaked = [p for p in os.listdir(place) if tag in p]
        assert not leaked, f"written outside the campaign: {place}/{leaked}"
    assert set(os.listdir(camp)) == before
    assert_good_applied(camp, result)
    for mid in ("<climb@example.org>", "<climb-sig@example.org>"):
        entry = assert_recorded(camp, mid)
        assert all("/" not in f and "\\" not in f and not f.startswith(".") for f in entry["files"]), entry
        reply_to(camp, mid)


# ---------------------------------------------------------------------------------------
# size and number


@pytest.mark.parametrize("source", SOURCES)
def test_a_30_mb_mail_is_refused_and_answered(pbem: Callable[..., Result], camp: Path, tmp_path: Path,
                                             source: str) -> None:
    msg = player_mail(CY, "huge", mid="<huge@example.org>")
    attach(msg, b"campaign: camp\n" + b"# padding\n" * (3 * 1024 * 1024), "orders-south.yaml")
    result = run_inbox(pbem, camp, tmp_path, source, [msg.as_bytes(), good_mail(camp, tmp_path).as_bytes()])
    huge = by_id(result)["<huge@example.org>"]
    assert huge["outcome"] == "rejected"
    assert any("at most" in p and "orders-south.yaml" in p for p in huge["problems"]), huge
    assert_recorded(camp, "<huge@example.org>")
    assert "at most" in reply_to(camp, "<huge@example.org>")
    assert_good_applied(camp, result)


@pytest.mark.parametrize("source", SOURCES)
def test_a_mail_with_500_attachments(pbem: Callable[..., Result], camp: Path, tmp_path: Path,
                                     source: str) -> None:
    south = orders(camp, "south", tmp_path / "drafts").read_bytes()
    many = player_mail(CY, "many", mid="<many@example.org>")
    for i in range(500):
        attach(many, south, f"orders-{i}.yaml")
    junk = player_mail(CY, "junk", mid="<junk@example.org>", text="campaign: camp\nholiday pictures\n")
    for i in range(500):
        attach(junk, b"\x89PNG" + bytes(64), f"picture-{i}.png", "image/png")
    result = run_inbox(pbem, camp, tmp_path, source,
                       [many.as_bytes(), junk.as_bytes(), good_mail(camp, tmp_path).as_bytes()])
    entry = by_id(result)["<many@example.org>"]
    assert entry["outcome"] == "rejected"
    assert any("more than 20 attachments" in p for p in entry["problems"]), entry
    assert "more than 20 attachments" in reply_to(camp, "<many@example.org>")
    assert_recorded(camp, "<many@example.org>")
    assert "<junk@example.org>" not in by_id(result)  # no orders in it: left alone, and named
    assert {"message_id": "<junk@example.org>", "from": "cy@example.org", "subject": "junk"}.items() <= \
        next(x for x in result["left_alone"] if x["message_id"] == "<junk@example.org>").items()
    assert_good_applied(camp, result)


# ---------------------------------------------------------------------------------------
# broken MIME, wrong and unknown charsets

BROKEN: list[tuple[str, bytes]] = [
    ("unterminated multipart", b'From: Cy <cy@example.org>\nSubject: o\nMessage-ID: <m1@x>\n'
     b'Content-Type: multipart/mixed; boundary="zz"\n\n--zz\nContent-Type: application/yaml\n'
     b'Content-Disposition: attachment; filename="orders-south.yaml"\n\ncampaign: camp\n'),
    ("no boundary", b'From: Cy <cy@example.org>\nSubject: o\nMessage-ID: <m2@x>\n'
     b'Content-Type: multipart/mixed\n\n--zz\nContent-Type: application/yaml\n\ncampaign: camp\n'),
    ("bad base64", b'From: Cy <cy@example.org>\nSubject: o\nMessage-ID: <m3@x>\n'
     b'Content-Type: multipart/mixed; boundary="zz"\n\n--zz\nContent-Type: application/yaml\n'
     b'Content-Disposition: attachment; filename="orders-south.yaml"\n'
     b'Content-Transfer-Encoding: base64\n\n!!!*** not base64 ***\n--zz--\n'),
    ("unknown charset inline", b'From: Cy <cy@example.org>\nSubject: o\nMessage-ID: <m4@x>\n'
     b'Content-Type: text/plain; charset=x-klingon\n\ncampaign: camp\nturn: 0\nfaction: south\n'
     b'orders: []\n'),
    ("wrong charset inline", b'From: Cy <cy@example.org>\nSubject: o\nMessage-ID: <m5@x>\n'
     b'Content-Type: text/plain; charset=utf-8\nContent-Transfer-Encoding: 8bit\n\n'
     b'campaign: camp\nturn: 0\nfaction: south\norders: [\xe9\xe8\xff]\n'),
    ("unknown charset attachment", b'From: Cy <cy@example.org>\nSubject: o\nMessage-ID: <m6@x>\n'
     b'Content-Type: multipart/mixed; boundary="zz"\n\n--zz\n'
     b'Content-Type: text/yaml; charset=x-unknown\n'
     b'Content-Disposition: attachment; filename="orders-south.yaml"\n\n'
     b'campaign: camp\nturn: 0\nfaction: south\norders: []\n--zz--\n'),
    ("utf-16 attachment", b'From: Cy <cy@example.org>\nSubject: o\nMessage-ID: <m7@x>\n'
     b'Content-Type: multipart/mixed; boundary="zz"\n\n--zz\n'
     b'Content-Type: application/yaml; charset=utf-16\n'
     b'Content-Disposition: attachment; filename="orders-south.yaml"\n'
     b'Content-Transfer-Encoding: base64\n\n'
     + __import__("base64").encodebytes("campaign: camp\nfaction: south\n".encode("utf-16")) + b'--zz--\n'),
    ("encoded words", b'From: =?x-klingon?q?Cy?= <cy@example.org>\nSubject: =?utf-8?b?broken\n'
     b'Message-ID: <m8@x>\nContent-Type: text/plain; charset="=?bad?="\n\n'
     b'campaign: camp\nturn: 0\nfaction: south\norders: []\n'),
    ("header bytes", b'From: \xff\xfe Cy <cy@example.org>\nSubject: \x01\x00\nMessage-ID: <m9@x>\n'
     b'Date: yesterday\nContent-Type: text/plain\n\ncampaign: camp\nfaction: south\norders: []\n'),
]


@pytest.mark.parametrize("source", SOURCES)
@pytest.mark.parametrize(("raw"), [b[1] for b in BROKEN], ids=[b[0] for b in BROKEN])
def test_broken_mime_and_charsets_never_stop_the_others(pbem: Callable[..., Result], camp: Path,
                                                        tmp_path: Path, source: str, raw: bytes) -> None:
    before = tree_state(camp)[0]
    result = run_inbox(pbem, camp, tmp_path, source, [raw, good_mail(camp, tmp_path).as_bytes()])
    assert_good_applied(camp, result)
    assert tree_state(camp)[0] != before
    others = [r for r in result["messages"] if r["message_id"] != GOOD_ID]
    left = result["left_alone"]
    assert len(others) + len(left) == 1, result
    for r in others:  # recorded, and answered when it can be told who sent it
        entry = assert_recorded(camp, r["message_id"])
        if entry["outcome"] == "rejected":
            assert all(isinstance(p, str) and p for p in entry["problems"])
        if r["from"] == "cy@example.org":
            assert r["reply"], r
    for x in left:  # left alone, and named
        assert x["message_id"] and "from" in x and "subject" in x


# ---------------------------------------------------------------------------------------
# a spoofed From


@pytest.mark.parametrize("source", SOURCES)
def test_spoofed_from_with_unsigned_orders_for_a_faction_with_a_key(
        pbem: Callable[..., Result], camp: Path, tmp_path: Path, source: str) -> None:
    """Mallory writes From: Bob; siberian has a key, so unsigned orders are refused, and the
    answer goes to Bob's real address (Bob learns of it), never to Mallory."""
    forged = player_mail(BOB, "siberian orders", mid="<forged@example.net>",
                         files=[orders(camp, "siberian", tmp_path / "forged")])
    forged["Reply-To"] = "Mallory <mallory@example.net>"
    head = tree_state(camp)[0]
    result = run_inbox(pbem, camp, tmp_path, source, [forged.as_bytes()])
    entry = by_id(result)["<forged@example.net>"]
    assert entry["outcome"] == "rejected"
    assert any("must be signed" in p for p in entry["problems"]), entry
    assert all(p.startswith("orders-siberian.yaml:") for p in entry["problems"]), entry
    assert tree_state(camp)[0] == head
    assert "must be signed" in reply_to(camp, "<forged@example.net>")
    replies = [r for r in journal(camp)["messages"] if r.get("in_reply_to") == "<forged@example.net>"]
    assert [r["to"] for r in replies] == ["bob@example.org"]
    assert_recorded(camp, "<forged@example.net>")
    again = run_inbox(pbem, camp, tmp_path / "second", source, [good_mail(camp, tmp_path).as_bytes()])
    assert_good_applied(camp, again)


# ---------------------------------------------------------------------------------------
# NUL bytes in an attached orders file


@pytest.mark.parametrize("source", SOURCES)
def test_nul_bytes_in_attached_orders_are_rejected_with_file_and_line(
        pbem: Callable[..., Result], camp: Path, tmp_path: Path, source: str) -> None:
    text = orders(camp, "south", tmp_path / "drafts").read_bytes().splitlines(keepends=True)
    text[3] = text[3][:2] + b"\x00\x00" + text[3][2:]
    msg = player_mail(CY, "south orders", mid="<nul@example.org>")
    attach(msg, b"".join(text), "orders-south.yaml")
    result = run_inbox(pbem, camp, tmp_path, source, [msg.as_bytes(), good_mail(camp, tmp_path).as_bytes()])
    entry = by_id(result)["<nul@example.org>"]
    assert entry["outcome"] == "rejected", entry
    assert entry["problems"] == [
        "orders-south.yaml:4: column 3: character U+0000 (NUL) is not allowed; expected plain text "
        "(tabs, line breaks and printable characters)"], entry
    assert entry["problems"][0] in reply_to(camp, "<nul@example.org>")
    assert_recorded(camp, "<nul@example.org>")
    assert_good_applied(camp, result)


@pytest.mark.parametrize("source", SOURCES)
def test_wrong_types_in_attached_orders_are_rejected_with_file_and_line(
        pbem: Callable[..., Result], camp: Path, tmp_path: Path, source: str) -> None:
    header = api.bot(camp, "south", seed="mail")
    header["turn"] = False
    standing = api.bot(camp, "north", seed="mail")
    standing["standing"] = {"retreat_before_combat": ["never"]}
    mails = []
    for mid, data, name in (("<types-header@example.org>", header, "orders-south.yaml"),
                            ("<types-standing@example.org>", standing, "orders-north.yaml")):
        msg = player_mail(CY, "orders", mid=mid)
        attach(msg, yamlio.dump(data).encode(), name)
        mails.append(msg.as_bytes())
    result = run_inbox(pbem, camp, tmp_path, source, [*mails, good_mail(camp, tmp_path).as_bytes()])
    found = by_id(result)
    assert found["<types-header@example.org>"]["problems"] == [
        "orders-south.yaml:2: 'turn' must be a whole number (turn: 0), not false"]
    problems = found["<types-standing@example.org>"]["problems"]
    assert len(problems) == 1 and problems[0].startswith("orders-north.yaml:"), problems
    assert "retreat_before_combat is one of never, always, not ['never']" in problems[0], problems
    for mid in found:
        assert_recorded(camp, mid)
    assert_good_applied(camp, result)


# ---------------------------------------------------------------------------------------
# what is left alone is named


def test_inbox_names_each_mail_it_leaves_alone(pbem: Callable[..., Result], camp: Path,
                                               tmp_path: Path) -> None:
    lunch = player_mail("Ann <ann@example.org>", "lunch on Sunday?", mid="<lunch@example.org>",
                        text="Shall we meet before turn 2?\n")
    spam = player_mail("Win Big <promo@spam.example>", "You won!", mid="<spam@spam.example>",
                       text="Click here.\n")
    elsewhere = player_mail(CY, "orders for another game", mid="<elsewhere@example.org>",
                            text="campaign: another-one\nturn: 1\nphase: action\nfaction: red\norders: []\n")
    box = mailbox.mbox(tmp_path / "mbox", create=True)
    for msg in (lunch, spam, elsewhere, good_mail(camp, tmp_path)):
        box.add(msg.as_bytes())
    box.flush()
    r = pbem("-C", camp, "inbox", "--mbox", tmp_path / "mbox")
    assert r.code == 0, r.err
    assert "3 not orders (left alone)" in r.out, r.out
    for who, subject, why in (("ann@example.org", "lunch on Sunday?", "no orders"),
                              ("promo@spam.example", "You won!", "no orders"),
                              ("cy@example.org", "orders for another game", "another-one")):
        line = next((x for x in r.out.splitlines() if who in x and subject in x), None)
        assert line is not None and line.startswith("left alone: ") and why in line, r.out
    j = pbem("-C", camp, "inbox", "--mbox", tmp_path / "mbox", "--json")
    left = json.loads(j.out)["left_alone"]
    assert [(x["message_id"], x["from"], x["subject"]) for x in left] == [
        ("<lunch@example.org>", "ann@example.org", "lunch on Sunday?"),
        ("<spam@spam.example>", "promo@spam.example", "You won!"),
        ("<elsewhere@example.org>", "cy@example.org", "orders for another game")]


# ---------------------------------------------------------------------------------------
# the same through IMAP (pymap on 127.0.0.1)


def test_hostile_mail_through_imap(camp: Path, tmp_path: Path, imap_server: int,  # noqa: F811
                                   monkeypatch: pytest.MonkeyPatch) -> None:
    from pbem.mail import loop as mailloop

    text = orders(camp, "south", tmp_path / "drafts").read_bytes()
    nul = player_mail(CY, "south orders", mid="<imap-nul@example.org>")
    attach(nul, text.replace(b"\n", b"\n\x00", 1), "orders-south.yaml")
    climb = player_mail(CY, "north orders", mid="<imap-climb@example.org>")
    attach(climb, orders(camp, "north", tmp_path / "drafts").read_bytes(), "../../../../pbem-imap-x.yaml")
    client = imap_login(imap_server)
    for msg in (nul, BROKEN[0][1], climb, good_mail(camp, tmp_path)):
        client.append("INBOX", None, None, msg if isinstance(msg, bytes) else msg.as_bytes())
    client.logout()
    monkeypatch.setenv("PBEM_IMAP_PASSWORD", "p")
    result = mailloop.inbox(camp, imap=f"imap://u@127.0.0.1:{imap_server}/INBOX")
    found = by_id(result)
    assert found["<imap-nul@example.org>"]["outcome"] == "rejected"
    assert found["<imap-nul@example.org>"]["problems"][0].startswith("orders-south.yaml:2: column 1: ")
    assert found["<imap-climb@example.org>"]["outcome"] == "accepted"
    assert not Path("/pbem-imap-x.yaml").exists() and not Path("/tmp/pbem-imap-x.yaml").exists()
    assert_good_applied(camp, result)
    assert result["left_alone"], "the server's own demo messages are named as left alone"


# ---------------------------------------------------------------------------------------
# mails that stopped the loop or answered with the referee's paths: each is answered once
# with a reason that names nothing of the referee's machine, and the next mail is taken

def _nested(depth: int) -> bytes:
    """A mail of `depth` multiparts, each inside the last, with orders at the bottom."""
    head = (b'From: Cy <cy@example.org>\nSubject: deep\nMessage-ID: <deep@example.org>\n'
            b'MIME-Version: 1.0\n')
    opening = b"".join(b'Content-Type: multipart/mixed; boundary="b%d"\n\n--b%d\n' % (i, i)
                       for i in range(depth))
    bottom = (b'Content-Type: application/yaml\nContent-Disposition: attachment; '
              b'filename="orders-south.yaml"\n\ncampaign: camp\nfaction: south\n')
    closing = b"".join(b"\n--b%d--\n" % i for i in reversed(range(depth)))
    return head + opening + bottom + closing


def _long_name(camp: Path, tmp_path: Path) -> bytes:
    msg = player_mail(CY, "long name", mid="<long-name@example.org>")
    attach(msg, orders(camp, "south", tmp_path / "drafts").read_bytes(), "o" * 295 + ".yaml")
    return msg.as_bytes()


CR_LF_SUBJECT = (b'From: Cy <cy@example.org>\nSubject: =?utf-8?q?orders=0D=0ABcc:_all@example.org?=\n'
                 b'Message-ID: <crlf@example.org>\nContent-Type: text/plain\n\n'
                 b'campaign: camp\nturn: 0\nfaction: south\norders: []\n')


@pytest.mark.parametrize("source", SOURCES)
@pytest.mark.parametrize("kind", ["3000 nested multiparts", "40 nested multiparts",
                                  "a name of 300 characters", "a subject with CR LF"])
def test_a_hostile_mail_is_answered_once_and_the_next_is_taken(
        pbem: Callable[..., Result], camp: Path, tmp_path: Path, source: str, kind: str) -> None:
    raw, mid, why = {
        "3000 nested multiparts": (_nested(3000), "<deep@example.org>", "multiparts more than 10 deep"),
        "40 nested multiparts": (_nested(40), "<deep@example.org>", "multiparts more than 10 deep"),
        "a name of 300 characters": (_long_name(camp, tmp_path), "<long-name@example.org>", None),
        "a subject with CR LF": (CR_LF_SUBJECT, "<crlf@example.org>", None),
    }[kind]
    result = run_inbox(pbem, camp, tmp_path / "box", source, [raw, good_mail(camp, tmp_path).as_bytes()])
    entry = by_id(result)[mid]
    recorded = assert_recorded(camp, mid)
    if why is not None:
        assert entry["outcome"] == "rejected" and any(why in p for p in entry["problems"]), entry
    answer = reply_to(camp, mid)
    for place in (str(tmp_path), tempfile.gettempdir(), str(Path.home()), str(camp)):
        assert place not in answer and place not in json.dumps(recorded), place
    assert "Error" not in answer or "Errno" not in answer
    assert_good_applied(camp, result)
    for record in journal(camp)["messages"]:  # every answer is a valid message
        msg = parse(camp / ".pbem" / "outbox" / record["file"])
        assert not msg.defects and all("\r" not in v and "\n" not in v for v in msg.values())
    assert api.audit(camp)["ok"]


def test_a_mail_that_makes_pbem_fail_is_kept_answered_once_and_never_taken_again(
        pbem: Callable[..., Result], camp: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    from pbem.mail import loop

    secret_place = str(tmp_path / "the-referees-machine")

    def failing(*args: Any, **kwargs: Any) -> dict[str, Any]:
        raise OSError(f"[Errno 36] File name too long: '{secret_place}/x.yaml'")

    south = player_mail(CY, "south orders", mid="<fails@example.org>")
    attach(south, orders(camp, "south", tmp_path / "drafts").read_bytes(), "orders-south.yaml")
    raw = south.as_bytes()
    with monkeypatch.context() as patch:
        patch.setattr(loop, "_take", failing)
        result = run_inbox(pbem, camp, tmp_path / "box", "maildir", [raw])
    entry = by_id(result)["<fails@example.org>"]
    assert entry["outcome"] == "rejected" and entry["problems"] == [loop.CRASHED]
    answer = reply_to(camp, "<fails@example.org>")
    assert loop.CRASHED in answer and secret_place not in answer and "Errno" not in answer
    kept = camp / entry["quarantine"]
    assert entry["quarantine"].startswith(".pbem/quarantine/") and kept.read_bytes() == raw
    told = kept.with_suffix(".txt").read_text()
    assert "<fails@example.org>" in told and secret_place in told and "Traceback" in told
    # the next run finds it recorded: not taken again, not answered again
    again = run_inbox(pbem, camp, tmp_path / "box2", "maildir", [raw, good_mail(camp, tmp_path).as_bytes()])
    assert by_id(again)["<fails@example.org>"]["outcome"] == "duplicate"
    assert len([r for r in journal(camp)["messages"] if r.get("in_reply_to") == "<fails@example.org>"]) == 1
    assert_good_applied(camp, again)


def test_a_mail_too_deep_to_read_is_kept_as_it_came(pbem: Callable[..., Result], camp: Path,
                                                    tmp_path: Path) -> None:
    raw = _nested(3000)
    other = raw.replace(b"<deep@example.org>", b"<deeper@example.org>")
    found = by_id(run_inbox(pbem, camp, tmp_path / "box", "mbox", [raw, other]))
    for mid, mail in (("<deep@example.org>", raw), ("<deeper@example.org>", other)):
        entry = found[mid]
        # each kept under a name of its own, made from its Message-ID alone
        name = hashlib.sha256(mid.encode("utf-8")).hexdigest()[:16]
        assert entry["quarantine"] == f".pbem/quarantine/{name}.eml"
        assert (camp / entry["quarantine"]).read_bytes().replace(b"\r\n", b"\n") == mail
        assert not (camp / entry["quarantine"]).with_suffix(".txt").exists()  # no crash: no details


# ---------------------------------------------------------------------------------------
# unsigned orders of a hot-seat faction: only from its player's address


@pytest.mark.parametrize("source", SOURCES)
def test_unsigned_orders_of_a_hot_seat_faction_come_only_from_its_player(
        pbem: Callable[..., Result], camp: Path, tmp_path: Path, source: str) -> None:
    """South may send unsigned orders (hot-seat), but only from Cy's address: Ann's are
    refused, Cy's are taken whatever the case of the address, and a signature by South's
    key proves the orders from any address."""
    ann = "Ann <ann@example.org>"
    south = orders(camp, "south", tmp_path / "drafts")
    from_ann = player_mail(ann, "south orders", mid="<ann-south@example.org>", files=[south])
    head = tree_state(camp)[0]
    result = run_inbox(pbem, camp, tmp_path / "one", source, [from_ann.as_bytes()])
    entry = by_id(result)["<ann-south@example.org>"]
    assert entry["outcome"] == "rejected" and entry["problems"] == [
        "orders-south.yaml: unsigned orders for south must come from its player's address; sign "
        "them or send them from that address"], entry
    assert tree_state(camp)[0] == head
    replies = [r for r in journal(camp)["messages"] if r.get("in_reply_to") == "<ann-south@example.org>"]
    assert [r["to"] for r in replies] == ["ann@example.org"]
    # Cy, from his address in capitals: the same player
    from_cy = player_mail("Cy <CY@Example.ORG>", "south orders", mid="<cy-south@example.org>",
                          files=[south])
    taken = run_inbox(pbem, camp, tmp_path / "two", source, [from_cy.as_bytes()])
    assert by_id(taken)["<cy-south@example.org>"]["outcome"] == "accepted"
    assert "south" in api.status(camp)["received"]
    # North's orders signed with Cy's key (South's and North's), from Ann's address: the
    # signature proves them
    north = orders(camp, "north", tmp_path / "drafts2", key=tmp_path / "keys" / "south+north_ed25519")
    signed = player_mail(ann, "north orders", mid="<ann-north@example.org>", files=[north])  # with its .sig
    proved = run_inbox(pbem, camp, tmp_path / "three", source, [signed.as_bytes()])
    assert by_id(proved)["<ann-north@example.org>"]["outcome"] == "accepted", proved


@pytest.mark.parametrize("sender", ["Cy <xcy@example.org>", "Cy <cy@example.org.evil.example>",
                                    "Cy <cy@evil.example>", '"cy@example.org" <mallory@evil.example>',
                                    "Mallory <mallory+cy@example.org>"])
def test_an_address_that_only_looks_like_the_players_is_not_the_player(
        pbem: Callable[..., Result], camp: Path, tmp_path: Path, sender: str) -> None:
    """Unsigned orders of South are taken from Cy's address exactly: an address that holds
    it, ends or begins like it, or a display name that shows it, is someone else."""
    south = orders(camp, "south", tmp_path / "drafts")
    mail = player_mail(sender, "south orders", mid="<lookalike@example.org>", files=[south])
    head = tree_state(camp)[0]
    result = run_inbox(pbem, camp, tmp_path / "box", "maildir", [mail.as_bytes()])
    entry = by_id(result)["<lookalike@example.org>"]
    assert entry["outcome"] == "rejected" and entry["problems"] == [
        "orders-south.yaml: unsigned orders for south must come from its player's address; sign "
        "them or send them from that address"], entry
    assert tree_state(camp)[0] == head and "south" not in api.status(camp)["received"]


@pytest.mark.parametrize("source", SOURCES)
def test_a_players_address_matches_whatever_its_case(pbem: Callable[..., Result], tmp_path: Path,
                                                     source: str) -> None:
    """campaign.yaml keeps an address as the moderator wrote it (Cy@Example.ORG); mail
    programs write it as they like (cy@example.org): the same player."""
    root = tmp_path / "camp"
    api.new_campaign(root, "red_russia", contributions=False, hot_seat=True, seed="case", name="camp",
                     keys_dir=tmp_path / "keys", players=["south,north=Cy <Cy@Example.ORG>"])
    south = orders(root, "south", tmp_path / "drafts")
    mail = player_mail("Cy <cy@example.org>", "south orders", mid="<lower@example.org>", files=[south])
    result = run_inbox(pbem, root, tmp_path / "box", source, [mail.as_bytes()])
    assert by_id(result)["<lower@example.org>"]["outcome"] == "accepted", result
    assert [r["to"] for r in journal(root)["messages"] if r.get("in_reply_to") == "<lower@example.org>"] \
        == ["cy@example.org"]


@pytest.mark.parametrize(("limits", "told"), [
    ({"depth": 1}, "depth: expected a whole number from 2 to 50, not 1"),
    ({"size": 2 * 1024 * 1024}, "size: expected a whole number from 1024 to 1048576, not 2097152"),
    ({"parts": True}, "parts: expected a whole number from 1 to 500, not True"),
    ({"files": 3}, "'files' is not a limit; choose among parts, depth, name, size"),
    ([1, 2], "expected a mapping of parts, depth, name, size"),
])
def test_a_wrong_limit_stops_the_inbox_before_any_mail(pbem: Callable[..., Result], camp: Path,
                                                       tmp_path: Path, limits: Any, told: str) -> None:
    config = yamlio.read_trusted(camp / "campaign.yaml")
    config["mail"] = {"limits": limits}
    (camp / "campaign.yaml").write_text(yamlio.dump(config))
    box = tmp_path / "Maildir"
    mailbox.Maildir(box, create=True).add(good_mail(camp, tmp_path).as_bytes())
    before = tree_state(camp)
    r = pbem("-C", camp, "inbox", "--maildir", box)
    assert r.code != 0
    assert r.err.strip() == f"Error: {camp / 'campaign.yaml'}: mail: limits: {told}"
    assert tree_state(camp) == before and not (camp / ".pbem" / "inbox.yaml").exists()


def test_a_limit_set_in_the_campaign_is_applied_and_told(pbem: Callable[..., Result], camp: Path,
                                                         tmp_path: Path) -> None:
    config = yamlio.read_trusted(camp / "campaign.yaml")
    config["mail"] = {"limits": {"depth": 3}}
    (camp / "campaign.yaml").write_text(yamlio.dump(config))
    result = run_inbox(pbem, camp, tmp_path / "box", "maildir",
                       [_nested(3), good_mail(camp, tmp_path).as_bytes()])
    entry = by_id(result)["<deep@example.org>"]
    assert entry["outcome"] == "rejected" and "multiparts more than 3 deep" in entry["problems"][0]
    assert "multiparts more than 3 deep" in reply_to(camp, "<deep@example.org>")
    assert_good_applied(camp, result)


# ---------------------------------------------------------------------------------------
# a seat with no address, a faction the campaign does not have, what the record keeps


def test_unsigned_orders_for_a_seat_with_no_address_are_refused_signed_ones_taken(tmp_path: Path) -> None:
    """Siberia has no player's address (the moderator plays it, hot-seat): no sender can prove
    unsigned orders for it, whoever sends them; orders signed with its key are proved by
    the key. The inbox's record keeps each mail's subject, when pbem took it and its Date:."""
    import datetime as dt

    from pbem.mail import loop

    root = tmp_path / "camp"
    api.new_campaign(root, "red_russia", contributions=False, hot_seat=True, seed="no-address", name="camp",
                     keys_dir=tmp_path / "keys", players=["south,north=Cy <cy@example.org>"])
    now = dt.datetime(2026, 3, 1, 12, 0, tzinfo=dt.UTC)
    sent = dt.datetime(2026, 3, 1, 9, 30, tzinfo=dt.UTC)
    siberian = orders(root, "siberian", tmp_path / "drafts")
    box = mailbox.Maildir(tmp_path / "Maildir", create=True)
    box.add(player_mail("Cy <cy@example.org>", "siberian orders", mid="<cy-siberian@example.org>", files=[siberian],
                        date=sent).as_bytes())
    head = tree_state(root)[0]
    result = loop.inbox(root, maildir=tmp_path / "Maildir", now=now)
    (entry,) = result["messages"]
    assert entry["outcome"] == "rejected" and entry["problems"] == [
        "orders-siberian.yaml: siberian has no mail address in this campaign, so its orders are taken by "
        "mail only when signed with its key"], entry
    assert tree_state(root)[0] == head
    kept = assert_recorded(root, "<cy-siberian@example.org>")
    assert (kept["subject"], kept["at"], kept["dated"]) == ("siberian orders", "2026-03-01T12:00:00+00:00",
                                                          "2026-03-01T09:30:00+00:00")
    assert "siberian has no mail address" in reply_to(root, "<cy-siberian@example.org>")
    signed = orders(root, "siberian", tmp_path / "drafts2", key=tmp_path / "keys" / "siberian_ed25519")
    box.add(player_mail("Cy <cy@example.org>", "siberian orders, signed", mid="<cy-siberian-2@example.org>",
                        files=[signed], date=sent).as_bytes())
    taken = by_id(loop.inbox(root, maildir=tmp_path / "Maildir", now=now))["<cy-siberian-2@example.org>"]
    assert taken["outcome"] == "accepted", taken
    assert (taken["subject"], taken["at"], taken["dated"]) == ("siberian orders, signed", "2026-03-01T12:00:00+00:00",
                                                             "2026-03-01T09:30:00+00:00")
    assert "siberian" in api.status(root)["received"]


def test_orders_for_a_faction_the_campaign_has_not_are_refused_by_apply_not_a_crash(
        camp: Path, tmp_path: Path) -> None:
    """A file naming a faction this campaign does not have: `pbem apply`'s own words, no
    crash, nothing quarantined."""
    from pbem.mail import loop

    path = orders(camp, "south", tmp_path / "drafts")
    path.write_text(path.read_text().replace("faction: south", "faction: makhno"))
    box = mailbox.Maildir(tmp_path / "Maildir", create=True)
    box.add(player_mail(CY, "makhno orders", mid="<cy-makhno@example.org>", files=[path]).as_bytes())
    head = tree_state(camp)[0]
    (entry,) = loop.inbox(camp, maildir=tmp_path / "Maildir")["messages"]
    assert entry["outcome"] == "rejected" and "quarantine" not in entry, entry
    assert len(entry["problems"]) == 1 and "makhno" in entry["problems"][0], entry
    assert "crash" not in entry["problems"][0].lower()
    assert tree_state(camp)[0] == head
