"""A judge: one address for the campaigns of a folder (pbem/mail/judge.py). Mail is routed
to its campaign by the campaign: line of its orders files or the [ID] of its subject, and
taken there as that campaign's own inbox takes it; a mail for no campaign served is answered
once with why; one campaign's failure stops none of the others."""

from __future__ import annotations

import mailbox
import os
import shutil
from collections.abc import Callable
from datetime import UTC, datetime
from email.message import EmailMessage
from pathlib import Path
from typing import Any

import pytest
from conftest import Result, git, key_of
from test_mail import imap_login, imap_server, orders_file, player_mail, smtp_server  # noqa: F401

from pbem import api, yamlio
from pbem.campaign import Campaign
from pbem.errors import PbemError, UsageError
from pbem.mail import judge, loop
from pbem.mail import transport as m

PLAYERS = {
    "red_russia": ["red=Ann <ann@example.org>", "siberian=Bob <bob@example.org>",
                   "south,north=Cy <cy@example.org>"],
    "chechen_war": ["russian=Dee <dee@example.org>", "chechen=Eve <eve@example.org>"],
}


@pytest.fixture
def club(tmp_path: Path) -> Path:
    """A judge serving a Red Russia campaign (rr1) and a Chechen War one (cw1)."""
    root = tmp_path / "club"
    judge.init(root, "Club judge", "judge@club.example")
    for cid, game in (("rr1", "red_russia"), ("cw1", "chechen_war")):
        api.new_campaign(root / cid, game, contributions=False, hot_seat=True, seed=cid, name=cid,
                         keys_dir=root / "keys", players=PLAYERS[game])
    return root


def incoming(files: dict[str, bytes]) -> m.Incoming:
    return m.Incoming("<x@example.org>", "ann@example.org", "", files=list(files.items()))


# ---------------------------------------------------------------------------------------
# routing, in-process


@pytest.mark.parametrize(("files", "subject", "expected"), [
    ({"o.yaml": b"campaign: rr1\nfaction: red\n"}, "my orders", "rr1"),
    ({}, "[cw1] a question", "cw1"),
    ({}, "Re: [rr1] turn 2, action: your report", "rr1"),
    # the orders file's campaign wins over a subject that names another
    ({"o.yaml": b"campaign: 'cw1'\n"}, "[rr1] orders", "cw1"),
    # a bracket that names no campaign served is not a campaign
    ({}, "[urgent] [cw1] help", "cw1"),
])
def test_a_mail_goes_to_the_one_campaign_it_names(files: dict[str, bytes], subject: str,
                                                   expected: str) -> None:
    assert judge.route(incoming(files), subject, {"rr1", "cw1"})[0] == expected


@pytest.mark.parametrize(("files", "subject", "why"), [
    ({}, "hello", "it names no campaign"),
    ({}, "[zz9] orders", "it names no campaign"),
    ({"o.yaml": b"campaign: zz9\n"}, "orders", "campaign zz9, which this judge does not serve"),
    ({"a.yaml": b"campaign: rr1\n", "b.yaml": b"campaign: cw1\n"}, "two",
     "several campaigns (cw1, rr1): send one mail for each"),
    ({}, "[rr1] and [cw1]", "several campaigns (cw1, rr1)"),
])
def test_a_mail_for_no_campaign_or_two_is_not_routed_and_says_why(files: dict[str, bytes],
                                                                  subject: str, why: str) -> None:
    cid, said = judge.route(incoming(files) if files else None, subject, {"rr1", "cw1"})
    assert cid is None and why in said


@pytest.mark.parametrize(("subject", "command"), [
    ("list", "list"), ("LIST please", "list"), ("Re: Re: status [rr1]", "status"),
    ("[rr1] history", "history"), ("help!", "help"), ("status: [cw1]", "status"),
    ("when is the deadline?", None), ("", None), ("[rr1]", None), ("listing", None),
])
def test_the_command_a_subject_asks(subject: str, command: str | None) -> None:
    assert judge.command_of(subject) == command


def test_a_folder_must_be_a_judge(tmp_path: Path) -> None:
    with pytest.raises(UsageError, match="not a judge folder"):
        judge.listing(tmp_path)
    with pytest.raises(UsageError, match="e-mail address"):
        judge.init(tmp_path / "j", "J", "nobody")
    judge.init(tmp_path / "j", "J", "j@example.org")
    with pytest.raises(UsageError, match="a judge already"):
        judge.init(tmp_path / "j", "J", "j@example.org")
    assert (tmp_path / "j" / ".gitignore").read_text() == ".judge/\n"


# ---------------------------------------------------------------------------------------
# a judge over campaigns


def test_the_list_names_each_campaign_and_what_it_waits_for(club: Path) -> None:
    listed = judge.listing(club)
    assert (listed["judge"], listed["address"], listed["broken"]) == ("Club judge", "judge@club.example", [])
    by_id = {c["campaign"]: c for c in listed["campaigns"]}
    assert set(by_id) == {"rr1", "cw1"}
    assert by_id["rr1"]["game"] == "red_russia" and by_id["cw1"]["game"] == "chechen_war"
    assert by_id["rr1"]["awaiting"] == api.status(club / "rr1")["awaiting"]
    assert by_id["cw1"]["phase"] == api.status(club / "cw1")["phase"]


def test_a_broken_campaign_or_one_claimed_twice_is_said_and_the_others_listed(club: Path) -> None:
    (club / "junk").mkdir()
    (club / "junk" / "campaign.yaml").write_text("campaign: [not, a, campaign\n")
    shutil.copytree(club / "cw1", club / "cw1-copy")
    listed = judge.listing(club)
    assert [c["campaign"] for c in listed["campaigns"]] == ["rr1"]
    broken = {b["folder"]: b["error"] for b in listed["broken"]}
    assert set(broken) == {"junk", "cw1", "cw1-copy"}
    assert "campaign cw1 is in 2 folders (cw1, cw1-copy)" in broken["cw1"]


def maildir(root: Path, messages: list[EmailMessage]) -> Path:
    folder = root / "Maildir"
    box = mailbox.Maildir(folder, create=True)
    for msg in messages:
        box.add(msg.as_bytes())
    return folder


def test_one_mailbox_serves_every_campaign_and_answers_a_stray_mail_once(club: Path,
                                                                        tmp_path: Path) -> None:
    drafts = tmp_path / "drafts"
    drafts.mkdir()
    orders = orders_file(club / "rr1", "siberian", drafts, sign=True)
    stray = player_mail("Zed <zed@example.org>", "[zz9] my orders", mid="<stray@example.org>")
    auto = player_mail("Bot <bot@example.org>", "out of office", mid="<auto@example.org>")
    auto["Auto-Submitted"] = "auto-replied"
    folder = maildir(tmp_path, [
        player_mail("Bob <bob@example.org>", "orders", mid="<rr1-1@example.org>", files=[orders]),
        player_mail("Dee <dee@example.org>", "[cw1] when is the deadline?", mid="<cw1-q@example.org>"),
        stray, auto])
    before = git(club / "rr1", "rev-parse", "HEAD")
    result = judge.inbox(club, maildir=folder)
    rr1 = result["campaigns"]["rr1"]
    assert rr1["ok"] and [x["outcome"] for x in rr1["result"]["messages"]] == ["accepted"]
    assert api.status(club / "rr1")["received"] == ["siberian"]
    assert git(club / "rr1", "rev-list", "--count", f"{before}..HEAD") == "1"
    cw1 = result["campaigns"]["cw1"]  # no orders in it: the campaign leaves it alone
    assert cw1["ok"] and [x["message_id"] for x in cw1["result"]["left_alone"]] == ["<cw1-q@example.org>"]
    assert [(x["message_id"], x["from"]) for x in result["misrouted"]] == [
        ("<stray@example.org>", "zed@example.org")]  # the automatic one is never answered
    answers = judge.open_judge(club).outbox.pending()
    assert [(a["to"], a["kind"]) for a in answers] == [("zed@example.org", "judge")]
    text = judge.open_judge(club).outbox.read(answers[0]).get_body(
        preferencelist=("plain",)).get_content()
    assert "campaign zz9, which this judge does not serve" not in text  # a subject id unknown
    assert "it names no campaign" in text and "[cw1]" in text and "[rr1]" in text
    # read again: nothing applied twice, nobody answered twice
    head = git(club / "rr1", "rev-parse", "HEAD")
    again = judge.inbox(club, maildir=folder)
    assert [x["outcome"] for x in again["campaigns"]["rr1"]["result"]["messages"]] == ["duplicate"]
    assert git(club / "rr1", "rev-parse", "HEAD") == head
    assert len(judge.open_judge(club).outbox.load()["messages"]) == 1


def test_one_address_gets_at_most_answers_per_day_of_the_judges_own_answers(club: Path,
                                                                             tmp_path: Path) -> None:
    """judge.yaml `answers_per_day` (here 3): a forged sender's or a looping mailer's mails are
    each reported, but the address is answered 3 times in 24 hours, then again after."""
    from datetime import timedelta

    config = yamlio.read_trusted(club / "judge.yaml")
    yamlio.write_atomic(club / "judge.yaml", yamlio.dump({**config, "answers_per_day": 3}))
    flood = [player_mail("Zed <zed@example.org>", f"help {n}", mid=f"<z{n}@example.org>") for n in range(5)]
    other = player_mail("Yan <yan@example.org>", "help", mid="<y@example.org>")
    now = datetime(2026, 12, 6, 12, 0, tzinfo=UTC)
    result = judge.inbox(club, maildir=maildir(tmp_path, [*flood, other]), now=now)
    got = [(x["from"], x["reply"] is not None) for x in result["commands"] + result["misrouted"]]
    assert sorted(got) == sorted([("zed@example.org", True)] * 3 + [("zed@example.org", False)] * 2
                                 + [("yan@example.org", True)])
    later = player_mail("Zed <zed@example.org>", "help", mid="<z9@example.org>")
    (tmp_path / "next").mkdir()
    folder = maildir(tmp_path / "next", [later])
    assert [x["reply"] for x in judge.inbox(club, maildir=folder, now=now + timedelta(hours=23))[
        "commands"]] == [None]
    assert judge.inbox(club, maildir=folder, now=now + timedelta(hours=25))["commands"][0]["reply"]
    for bad in (0, "many", True):
        yamlio.write_atomic(club / "judge.yaml", yamlio.dump({**config, "answers_per_day": bad}))
        with pytest.raises(PbemError, match="answers_per_day: expected a whole number 1 or more"):
            judge.open_judge(club)


def test_a_campaign_that_fails_is_reported_and_the_others_go_on(club: Path) -> None:
    shutil.rmtree(club / "cw1" / ".git")  # its repository gone
    result = judge.tick(club)
    assert result["campaigns"]["rr1"]["ok"], result["campaigns"]["rr1"]
    assert not result["campaigns"]["cw1"]["ok"]
    assert result["campaigns"]["cw1"]["error"]
    assert [q["to"] for q in result["campaigns"]["rr1"]["result"]["reported"]] == [
        "ann@example.org", "bob@example.org", "cy@example.org"]  # rr1's reports, queued once
    mailed = judge.mail(club)
    assert mailed["campaigns"]["rr1"]["ok"] and mailed["campaigns"]["rr1"]["result"]["queued"] == []
    assert not mailed["campaigns"]["cw1"]["ok"]


def answers(club: Path) -> dict[str, str]:
    """The judge's answers by the Message-ID they answer: their text."""
    box = judge.open_judge(club).outbox
    return {r["in_reply_to"]: box.read(r).get_body(preferencelist=("plain",)).get_content()
            for r in box.load()["messages"]}


def test_list_status_history_and_help_are_answered_by_mail(club: Path, tmp_path: Path) -> None:
    folder = maildir(tmp_path, [
        player_mail("Zed <zed@example.org>", "list", mid="<list@example.org>"),
        player_mail("Ann <ann@example.org>", "Re: status [rr1]", mid="<status@example.org>"),
        player_mail("Ann <ann@example.org>", "history [cw1]", mid="<history@example.org>"),
        player_mail("Ann <ann@example.org>", "history", mid="<which@example.org>"),
        player_mail("Zed <zed@example.org>", "help", mid="<help@example.org>")])
    result = judge.inbox(club, maildir=folder)
    assert [(c["message_id"], c["command"]) for c in result["commands"]] == [
        ("<list@example.org>", "list"), ("<status@example.org>", "status"),
        ("<history@example.org>", "history"), ("<which@example.org>", "history"),
        ("<help@example.org>", "help")]
    assert result["campaigns"] == {} and result["misrouted"] == []
    said = answers(club)
    rr1 = api.status(club / "rr1")
    assert f"[rr1] red_russia: turn {rr1['turn']}, {rr1['phase']}" in said["<list@example.org>"]
    assert "[cw1] chechen_war: turn" in said["<list@example.org>"]
    assert f"[rr1] red_russia: turn {rr1['turn']}, {rr1['phase']}, step {rr1['seq']}" in said[
        "<status@example.org>"]
    assert f"awaiting the orders of {', '.join(rr1['awaiting'])}" in said["<status@example.org>"]
    first = api.log(club / "cw1")[0]
    assert f"   {first['seq']}  turn {first['turn']} {first['phase']}: {first['summary']}" in said[
        "<history@example.org>"]
    assert "history needs one campaign" in said["<which@example.org>"]
    assert "status [ID]" in said["<help@example.org>"] and "list:" in said["<help@example.org>"]
    again = judge.inbox(club, maildir=folder)  # each answered once
    assert len(judge.open_judge(club).outbox.load()["messages"]) == 5 == len(again["commands"])


def test_each_campaign_is_published_to_its_own_remote(club: Path, tmp_path: Path) -> None:
    bare = tmp_path / "host" / "rr1.git"
    git(tmp_path, "init", "-q", "--bare", str(bare))
    git(club / "rr1", "remote", "add", "origin", str(bare))
    result = judge.publish(club)
    rr1 = result["campaigns"]["rr1"]
    assert rr1["ok"] and rr1["result"]["remote"] == "origin"
    assert git(bare, "rev-parse", "main") == git(club / "rr1", "rev-parse", "HEAD")
    assert not result["campaigns"]["cw1"]["ok"]  # no remote: said, and rr1 went out all the same
    assert "no such remote" in result["campaigns"]["cw1"]["error"]


def open_campaign(club: Path, join: str) -> Path:
    """A campaign of the club whose north seat is open to a player by mail."""
    root = club / "op1"
    api.new_campaign(root, "red_russia", contributions=False, seed="op1", name="op1",
                     keys_dir=club / "keys-op1", players=PLAYERS["red_russia"][:2])
    config = yamlio.read_trusted(root / "campaign.yaml")
    config["mail"] = {**(config.get("mail") or {}), "open_seats": ["north"], "join": join}
    yamlio.write_atomic(root / "campaign.yaml", yamlio.dump(config))
    return root


def join_mail(tmp_path: Path, subject: str, mid: str, *, key: bool = True) -> EmailMessage:
    from pbem.crypto.keys import keygen_files

    msg = player_mail("Nora <nora@example.org>", subject, mid=mid, text="I would like to play.\n")
    if key:
        keygen_files(tmp_path / mid.strip("<>").split("@")[0])
        pub = tmp_path / f"{mid.strip('<>').split('@')[0]}_ed25519.pub"
        msg.add_attachment(pub.read_bytes(), maintype="application", subtype="octet-stream",
                           filename="id_ed25519.pub")
    return msg


def test_a_player_takes_an_open_seat_by_mail_first_come(club: Path, tmp_path: Path) -> None:
    root = open_campaign(club, "first_come")
    listed = {c["campaign"]: c for c in judge.listing(club)["campaigns"]}
    assert listed["op1"]["open"] == ["north"] and listed["rr1"]["open"] == []
    folder = maildir(tmp_path, [join_mail(tmp_path, "join [op1] north", "<j1@example.org>"),
                                join_mail(tmp_path, "join [op1] south", "<j2@example.org>"),
                                join_mail(tmp_path, "join [op1] north", "<j3@example.org>",
                                          key=False)])
    result = judge.inbox(club, maildir=folder)
    assert [c["command"] for c in result["commands"]] == ["join", "join", "join"]
    seat = yamlio.read_trusted(root / "campaign.yaml")["factions"]["north"]
    assert (seat["player"], seat["email"], seat["hotseat"]) == ("Nora", "nora@example.org", False)
    assert seat["ssh"].startswith("ssh-ed25519 ")
    assert [e["type"] for e in api.log(root)][-1] == "seat"
    said = answers(club)
    assert "you play north now" in said["<j1@example.org>"]
    assert "join needs one open seat" in said["<j2@example.org>"]  # south is someone's
    assert "join needs one open seat" in said["<j3@example.org>"]  # north is taken now
    assert judge.listing(club)["campaigns"][1]["open"] == []
    assert api.audit(root)["problems"] == []


def test_a_join_waits_for_the_moderator_who_approves_it(club: Path, tmp_path: Path,
                                                        pbem: Callable[..., Result]) -> None:
    root = open_campaign(club, "approve")
    folder = maildir(tmp_path, [join_mail(tmp_path, "Join [op1] north", "<ask@example.org>"),
                                join_mail(tmp_path, "join [op1] north", "<nokey@example.org>",
                                          key=False)])
    judge.inbox(club, maildir=folder)
    said = answers(club)
    assert "went to the moderator" in said["<ask@example.org>"]
    assert "no public key to seat you with" in said["<nokey@example.org>"]
    assert yamlio.read_trusted(root / "campaign.yaml")["factions"]["north"].get("email", "") == ""
    listed = judge.requests(club)["requests"]
    assert [(r["message_id"], r["campaign"], r["faction"], r["player"]) for r in listed] == [
        ("<ask@example.org>", "op1", "north", "Nora <nora@example.org>")]
    r = pbem("-C", club, "judge", "approve", "<ask@example.org>")
    assert r.code == 0, r.err
    assert "[op1] Nora <nora@example.org> plays north" in r.out
    assert yamlio.read_trusted(root / "campaign.yaml")["factions"]["north"]["email"] == "nora@example.org"
    assert judge.requests(club)["requests"] == []
    assert "The moderator seated you: you play north of [op1]" in answers(club)["<ask@example.org>"]
    with pytest.raises(UsageError, match="no join request"):
        judge.approve(club, "<ask@example.org>")


def test_resend_queues_a_players_last_report_again_to_that_player_alone(club: Path,
                                                                      tmp_path: Path) -> None:
    judge.mail(club)  # every campaign's reports queued
    folder = maildir(tmp_path, [
        player_mail("Bob <bob@example.org>", "resend [rr1]", mid="<again@example.org>"),
        player_mail("Zed <zed@example.org>", "resend [rr1]", mid="<stranger@example.org>")])
    judge.inbox(club, maildir=folder)
    box = loop.outbox_of(Campaign.open(club / "rr1"))
    sent = [r for r in box.load()["messages"] if r["kind"] == "report-again"]
    first = box.last("bob@example.org", "report")
    assert first is not None
    assert [(r["to"], r["resends"], r["subject"]) for r in sent] == [
        ("bob@example.org", first["message_id"], first["subject"])]
    assert sent[0]["message_id"] != first["message_id"]
    said = answers(club)
    assert "is sent again" in said["<again@example.org>"]
    assert "has no report for zed@example.org" in said["<stranger@example.org>"]
    judge.inbox(club, maildir=folder)  # asked once, sent once
    assert len([r for r in box.load()["messages"] if r["kind"] == "report-again"]) == 1


def test_a_campaign_whose_lock_is_held_is_said_busy_and_the_others_go_on(
        club: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    from pbem import campaign as campaign_mod

    monkeypatch.setattr(campaign_mod, "LOCK_WAIT", 0.2)
    with Campaign.open(club / "cw1").locked():  # another pbem at work on cw1
        result = judge.tick(club)
    assert result["campaigns"]["rr1"]["ok"]
    assert not result["campaigns"]["cw1"]["ok"]
    assert result["campaigns"]["cw1"]["error"].startswith("busy: ")
    assert "another pbem is working on this campaign" in result["campaigns"]["cw1"]["error"]
    assert judge.tick(club)["campaigns"]["cw1"]["ok"]  # free again: served


def test_judge_mail_send_delivers_every_outbox_by_smtp(club: Path, tmp_path: Path,
                                                       smtp_server: Callable[..., Any]) -> None:  # noqa: F811
    server = smtp_server()
    for cid in ("rr1", "cw1"):  # each campaign by its own settings
        config = yamlio.read_trusted(club / cid / "campaign.yaml")
        yamlio.write_atomic(club / cid / "campaign.yaml",
                            yamlio.dump({**config, "mail": {"smtp": server.address}}))
    config = yamlio.read_trusted(club / "judge.yaml")  # and the judge's own answers by its own
    yamlio.write_atomic(club / "judge.yaml", yamlio.dump({**config, "mail": {"smtp": server.address}}))
    judge.inbox(club, maildir=maildir(tmp_path, [
        player_mail("Zed <zed@example.org>", "list", mid="<list@example.org>")]))
    result = judge.mail(club, send=True)
    assert all(one["ok"] for one in result["campaigns"].values()), result["campaigns"]
    assert [r["to"] for r in result["sent"]] == ["zed@example.org"] and result["pending"] == 0
    to = sorted(m["to"][0] for m in server.messages)
    assert to == sorted(["zed@example.org", "ann@example.org", "bob@example.org", "cy@example.org",
                         "dee@example.org", "eve@example.org"])
    assert judge.mail(club, send=True)["sent"] == [] and len(server.messages) == len(to)


def test_the_judges_own_answers_need_its_smtp_to_be_sent(club: Path, tmp_path: Path) -> None:
    folder = maildir(tmp_path, [player_mail("Zed <zed@example.org>", "hello", mid="<h@example.org>")])
    judge.inbox(club, maildir=folder)
    with pytest.raises(UsageError, match="mail: smtp: HOST:PORT is needed"):
        judge.mail(club, send=True)


def test_the_command_line_lists_and_routes(club: Path, tmp_path: Path,
                                           pbem: Callable[..., Result]) -> None:
    r = pbem("-C", club, "judge", "list")
    assert r.code == 0, r.err
    assert "Club judge <judge@club.example>: 2 campaign(s)" in r.out
    assert "[rr1] red_russia: turn" in r.out and "[cw1] chechen_war: turn" in r.out
    folder = maildir(tmp_path, [player_mail("Zed <zed@example.org>", "hello", mid="<h@example.org>")])
    r = pbem("-C", club, "judge", "inbox", "--maildir", folder)
    assert r.code == 0, r.err
    assert "not routed, answered: <h@example.org> from zed@example.org: it names no campaign" in r.out
    r = pbem("-C", tmp_path, "judge", "list")
    assert r.code != 0 and "not a judge folder" in r.err


def test_init_writes_a_judge_yaml_pbem_reads_back(tmp_path: Path) -> None:
    judge.init(tmp_path / "j", "Club", "judge@club.example")
    data = yamlio.read_trusted(tmp_path / "j" / "judge.yaml")
    assert data == {"judge": {"name": "Club", "address": "judge@club.example"}, "mail": {}}
    j = judge.open_judge(tmp_path / "j")
    assert (j.name, j.address, j.mail) == ("Club", "judge@club.example", {})


# ---------------------------------------------------------------------------------------
# the three games by one IMAP mailbox (pymap on 127.0.0.1)

AA_POWERS = ["austria_hungary", "russia", "germany", "france", "britain", "ottomans", "italy", "usa"]


def test_a_judge_serves_the_three_games_from_one_imap_mailbox(
        tmp_path: Path, imap_server: int, monkeypatch: pytest.MonkeyPatch) -> None:  # noqa: F811
    root = tmp_path / "club"
    judge.init(root, "Club judge", "judge@club.example")
    # rr1's north seat is open: a player joins it by mail
    seats = {"rr1": ("red_russia", PLAYERS["red_russia"][:2]),
             "cw1": ("chechen_war", PLAYERS["chechen_war"]),
             "aa1": ("aa1914", [f"{p}={p.title()} <{p}@aa.example>" for p in AA_POWERS])}
    for cid, (game, players) in seats.items():
        api.new_campaign(root / cid, game, contributions=False, seed=cid, name=cid,
                         keys_dir=root / f"keys-{cid}", players=players)
        bare = tmp_path / "host" / f"{cid}.git"  # a bare repository each, as on a git host
        git(tmp_path, "init", "-q", "--bare", str(bare))
        git(root / cid, "remote", "add", "origin", str(bare))
    config = yamlio.read_trusted(root / "rr1" / "campaign.yaml")
    config["mail"] = {"open_seats": ["north"], "join": "first_come"}
    yamlio.write_atomic(root / "rr1" / "campaign.yaml", yamlio.dump(config))
    drafts = tmp_path / "drafts"
    drafts.mkdir()
    client = imap_login(imap_server)
    expected: dict[str, str] = {}
    for cid in seats:
        faction = api.status(root / cid)["awaiting"][0]
        path = drafts / f"{cid}-{faction}.yaml"
        yamlio.write_atomic(path, yamlio.dump(api.bot(root / cid, faction, seed="judge")))
        api.sign(path, key_of(root / f"keys-{cid}", faction))
        sender = next(p.split("=", 1)[1] for p in seats[cid][1] if faction in p.split("=")[0].split(","))
        mail = player_mail(sender, f"my {faction} orders", mid=f"<{cid}@example.org>", files=[path])
        client.append("INBOX", None, None, mail.as_bytes())
        expected[cid] = faction
    hostile = b"From: x@evil.example\r\nSubject: [rr1] \xff\xfe\r\nContent-Type: multipart/mixed\r\n\r\n--"
    for msg in (join_mail(tmp_path, "join [rr1] north", "<join@example.org>").as_bytes(),
                player_mail("Zed <zed@example.org>", "list", mid="<list@example.org>").as_bytes(),
                player_mail("Zed <zed@example.org>", "[nope] orders", mid="<nope@example.org>").as_bytes(),
                hostile):
        client.append("INBOX", None, None, msg)
    client.logout()
    monkeypatch.setenv("PBEM_IMAP_PASSWORD", "p")
    url = f"imap://u@127.0.0.1:{imap_server}/INBOX"
    result = judge.inbox(root, imap=url)
    for cid, faction in expected.items():
        one = result["campaigns"][cid]
        assert one["ok"], one
        taken = {x["message_id"]: x["outcome"] for x in one["result"]["messages"]}
        assert taken.get(f"<{cid}@example.org>") == "accepted", one["result"]
        # its step recorded: the orders of the faction awaited, signed, in its log
        assert any(e["type"] == "orders" and faction in e["factions"] for e in api.log(root / cid))
    assert [c["command"] for c in result["commands"]] == ["join", "list"]
    assert "you play north now" in answers(root)["<join@example.org>"]
    # the server's own demo mails name no campaign either: each is answered, as a stray is
    assert "<nope@example.org>" in [x["message_id"] for x in result["misrouted"]]
    assert "[aa1] aa1914" in answers(root)["<list@example.org>"]
    # the broken mail whose subject names rr1 goes to rr1, which leaves it alone (no orders
    # in it), and stops nobody
    assert [x["from"] for x in result["campaigns"]["rr1"]["result"]["left_alone"]] == [
        "x@evil.example"]
    answered = len(judge.open_judge(root).outbox.load()["messages"])
    # the same mailbox read again: nothing applied twice, nobody answered twice
    heads = {cid: git(root / cid, "rev-parse", "HEAD") for cid in seats}
    again = judge.inbox(root, imap=url)
    assert {cid: git(root / cid, "rev-parse", "HEAD") for cid in seats} == heads
    assert all(x["outcome"] == "duplicate" for one in again["campaigns"].values()
               for x in one["result"]["messages"])
    assert len(judge.open_judge(root).outbox.load()["messages"]) == answered
    # every campaign to its own remote; the joined player's first report names where to clone
    published = judge.publish(root)["campaigns"]
    for cid in seats:
        assert published[cid]["ok"], published[cid]
        assert git(tmp_path / "host" / f"{cid}.git", "rev-parse", "main") == git(
            root / cid, "rev-parse", "HEAD")
    judge.mail(root)
    box = loop.outbox_of(Campaign.open(root / "rr1"))
    welcome = box.last("nora@example.org", "report")
    assert welcome is not None
    text = box.read(welcome).get_body(preferencelist=("plain",)).get_content()
    assert str(tmp_path / "host" / "rr1.git") in text
    for cid in seats:
        assert api.audit(root / cid)["problems"] == [], cid


# ---------------------------------------------------------------------------------------
# two judges, two copies of one campaign, one bare remote: the push is the lock


def two_judges(tmp_path: Path) -> tuple[Path, Path, Path]:
    """Judges A and B (judge.yaml sync: origin), each with its copy of campaign rr1 (the
    referee's keys and secret in both), and the bare repository they share."""
    a, b, bare = tmp_path / "A", tmp_path / "B", tmp_path / "host" / "rr1.git"
    for root in (a, b):
        judge.init(root, f"Judge {root.name}", "judge@club.example")
        config = yamlio.read_trusted(root / "judge.yaml")
        yamlio.write_atomic(root / "judge.yaml", yamlio.dump({**config, "sync": "origin"}))
    api.new_campaign(a / "rr1", "red_russia", contributions=False, seed="race", name="rr1",
                     keys_dir=a / "keys", players=PLAYERS["red_russia"])
    git(tmp_path, "init", "-q", "--bare", str(bare))
    git(a / "rr1", "remote", "add", "origin", str(bare))
    loop.publish(a / "rr1")
    shutil.copytree(a / "rr1", b / "rr1", symlinks=True)
    return a, b, bare


def signed_mail(root: Path, keys: Path, faction: str, sender: str, mid: str,
                drafts: Path) -> EmailMessage:
    drafts.mkdir(exist_ok=True)
    path = orders_file(root, faction, drafts)
    api.sign(path, key_of(keys, faction))
    return player_mail(sender, f"{faction} orders", mid=mid, files=[path])


def test_a_second_judge_finds_what_the_first_recorded_and_applies_nothing_twice(
        tmp_path: Path) -> None:
    a, b, bare = two_judges(tmp_path)
    folder = maildir(tmp_path, [signed_mail(a / "rr1", a / "keys", "siberian", "Bob <bob@example.org>",
                                            "<m1@example.org>", tmp_path / "drafts")])
    first = judge.inbox(a, maildir=folder)["campaigns"]["rr1"]
    assert [x["outcome"] for x in first["result"]["messages"]] == ["accepted"]
    assert git(bare, "rev-parse", "main") == git(a / "rr1", "rev-parse", "HEAD")
    second = judge.inbox(b, maildir=folder)["campaigns"]["rr1"]
    taken = second["result"]["messages"]
    assert [x["outcome"] for x in taken] == ["accepted"]
    assert "another copy of the campaign (a second judge) had applied" in taken[0]["recovered"]
    assert second["result"]["sync"][0].startswith("brought up to the remote's step")
    assert git(b / "rr1", "rev-parse", "HEAD") == git(bare, "rev-parse", "main")
    assert api.audit(b / "rr1")["problems"] == []
    # the player is answered once, by the judge that recorded the orders
    assert replies(a, "<m1@example.org>") == ["pending"]
    assert replies(b, "<m1@example.org>") == []


def replies(root: Path, mid: str) -> list[str]:
    """The answers to a mail in a judge's copy of rr1: pending, sent, or why withdrawn."""
    box = loop.outbox_of(Campaign.open(root / "rr1"))
    return [str(r.get("superseded") or ("sent" if r.get("sent") else "pending"))
            for r in box.load()["messages"] if r["key"] == loop.reply_key(mid)]


def test_a_judge_that_loses_the_race_takes_its_mail_again_from_the_winners_history(
        tmp_path: Path) -> None:
    a, b, bare = two_judges(tmp_path)
    mail = signed_mail(a / "rr1", a / "keys", "south", "Cy <cy@example.org>", "<m2@example.org>",
                       tmp_path / "drafts")
    folder = maildir(tmp_path, [mail])
    # B takes the mail but has not pushed (its run was cut off); A takes it too and pushes
    assert loop.inbox(b / "rr1", maildir=folder)["accepted"] == 1
    lost = git(b / "rr1", "rev-parse", "HEAD")
    assert judge.inbox(a, maildir=folder)["campaigns"]["rr1"]["ok"]
    won = git(bare, "rev-parse", "main")
    assert won != lost and git(a / "rr1", "rev-parse", "HEAD") == won
    # B's next run: its push would be refused, so it goes back to A's history first
    again = judge.inbox(b, maildir=folder)["campaigns"]["rr1"]
    assert again["ok"], again
    assert any("another judge's steps after step" in line for line in again["result"]["sync"])
    taken = again["result"]["messages"]
    assert [x["outcome"] for x in taken] == ["accepted"]
    assert "another copy of the campaign (a second judge) had applied" in taken[0]["recovered"]
    assert git(b / "rr1", "rev-parse", "HEAD") == won == git(bare, "rev-parse", "main")
    # B's answer from its dropped step is never sent; A, which recorded the orders, answers
    assert replies(b, "<m2@example.org>") == [
        f"withdrawn: the steps after {int(yamlio.read_trusted(a / 'rr1' / 'state.yaml')['seq']) - 1} "
        "lost the race to push"]
    assert replies(a, "<m2@example.org>") == ["pending"]
    orders = [e for e in api.log(b / "rr1") if e["type"] == "orders"]
    assert [e["factions"] for e in orders] == [["south"]]  # once, not twice
    for root in (a / "rr1", b / "rr1"):
        assert api.audit(root)["problems"] == []
    clone = tmp_path / "clone"
    git(tmp_path, "clone", "-q", str(bare), str(clone))
    assert api.audit(clone)["problems"] == []


def test_two_judges_that_make_the_same_step_in_the_same_second_make_two_commits(
        tmp_path: Path) -> None:
    """Each judge's copy commits as itself (.pbem/copy): the same mail taken by both in the
    same second makes two commits, so the second push is refused and that judge takes the
    mail again from the first's history (it does not answer it: the first does)."""
    from unittest import mock

    a, b, bare = two_judges(tmp_path)
    drafts = tmp_path / "drafts"
    drafts.mkdir()
    for faction in api.status(a / "rr1")["awaiting"]:  # the Whites placed: the Reds alone next
        path = orders_file(a / "rr1", faction, drafts)
        api.sign(path, key_of(a / "keys", faction))
        api.apply(a / "rr1", [path])
    loop.publish(a / "rr1", "origin")
    git(b / "rr1", "pull", "-q", "--ff-only", str(bare), "main")  # B up to the remote
    assert api.status(b / "rr1")["awaiting"] == ["red"]  # orders in the open: the same bytes
    folder = maildir(tmp_path, [signed_mail(a / "rr1", a / "keys", "red", "Ann <ann@example.org>",
                                            "<m3@example.org>", drafts)])
    judge._name_copy(judge.open_judge(a), Campaign.open(a / "rr1"))
    shutil.copy(a / "rr1" / ".pbem" / "copy", b / "rr1" / ".pbem" / "copy")  # .pbem/ copied over
    judge._name_copy(judge.open_judge(b), Campaign.open(b / "rr1"))
    assert (a / "rr1" / ".pbem" / "copy").read_text() != (b / "rr1" / ".pbem" / "copy").read_text()
    assert (b / "rr1" / ".pbem" / "copy").read_text() == (b / ".judge" / "id").read_text()
    frozen = {"GIT_AUTHOR_DATE": "2026-12-06T12:00:00+00:00",
              "GIT_COMMITTER_DATE": "2026-12-06T12:00:00+00:00"}
    now = datetime(2026, 12, 6, 12, 0, tzinfo=UTC)
    with mock.patch.dict(os.environ, frozen):  # the very same second
        for root in (a, b):
            loop.inbox(root / "rr1", maildir=folder, now=now)
    ours, theirs = (git(r / "rr1", "rev-parse", "HEAD") for r in (a, b))
    assert ours != theirs
    assert (git(a / "rr1", "show", "-s", "--format=%an|%cn", "HEAD")
            == f"pbem referee|pbem referee (copy {(a / 'rr1' / '.pbem' / 'copy').read_text().strip()})")
    assert judge.inbox(a, maildir=folder)["campaigns"]["rr1"]["ok"]
    again = judge.inbox(b, maildir=folder)["campaigns"]["rr1"]
    assert any("another judge's steps after step" in line for line in again["result"]["sync"])
    assert git(b / "rr1", "rev-parse", "HEAD") == git(bare, "rev-parse", "main") == ours
    assert replies(a, "<m3@example.org>") == ["pending"]
    assert replies(b, "<m3@example.org>")[0].startswith("withdrawn: the steps after")


def test_a_judge_killed_after_its_pull_still_finds_the_mail_the_other_recorded(
        tmp_path: Path) -> None:
    """B records a mail and pushes; A's run brings A up to B's steps and is killed before it
    reads the mailbox, and a tick follows. A's next run has nothing to pull, yet it looks for
    the mail in every step since its last run that read the mailbox: found in B's step, it is accepted without a step or an
    answer of A's (before, A took it again, refused it as sent twice, and answered so)."""
    a, b, _bare = two_judges(tmp_path)
    folder = maildir(tmp_path, [signed_mail(a / "rr1", a / "keys", "siberian", "Bob <bob@example.org>",
                                            "<m5@example.org>", tmp_path / "drafts")])
    assert judge.inbox(b, maildir=folder)["campaigns"]["rr1"]["ok"]
    judge._name_copy(judge.open_judge(a), Campaign.open(a / "rr1"))
    campaign = Campaign.open(a / "rr1")
    with campaign.locked():  # the killed run's pull
        judge._pull(campaign, "origin")
    assert judge.tick(a)["campaigns"]["rr1"]["ok"]  # a tick reads no mailbox: it marks nothing
    again = judge.inbox(a, maildir=folder)["campaigns"]["rr1"]["result"]
    assert again["sync"] == ["up to date with the remote"]
    [taken] = again["messages"]
    assert taken["outcome"] == "accepted" and taken["reply"] is None
    assert "another copy of the campaign (a second judge) had applied" in taken["recovered"]
    assert replies(a, "<m5@example.org>") == [] and replies(b, "<m5@example.org>") == ["pending"]
    assert [e["factions"] for e in api.log(a / "rr1") if e["type"] == "orders"] == [["siberian"]]


def test_two_judges_killed_at_random_moments_record_every_mail_once(tmp_path: Path) -> None:
    """Both judges read one mailbox and race to the one remote, each killed (SIGKILL) at a
    random moment of some of its runs; when they have both run to the end, both copies are
    the remote's history, each mail's orders are in it once and answered once, and every
    audit is clean (PBEM_RACE_SEED picks other moments: 24 seeds passed under load)."""
    import random
    import signal
    import subprocess
    import sys
    import time

    a, b, bare = two_judges(tmp_path)
    pick = random.Random(int(os.environ.get("PBEM_RACE_SEED", "20261206")))
    folder = tmp_path / "Maildir"
    box = mailbox.Maildir(folder, create=True)
    players = dict(p.split("=", 1) for p in PLAYERS["red_russia"])
    mailed: list[str] = []
    mids: list[str] = []
    for turn in range(2):  # two phases of orders, each mailed once all are in
        judge.tick(a)  # A up to the remote before the orders are written
        for faction in api.status(a / "rr1")["awaiting"]:
            sender = next(who for seat, who in players.items() if faction in seat.split(","))
            mid = f"<t{turn}-{faction}@example.org>"
            box.add(signed_mail(a / "rr1", a / "keys", faction, sender, mid, tmp_path / f"d{turn}"))
            mailed.append(faction)
            mids.append(mid)
        for _ in range(5):  # both at once, each maybe killed
            runs = [subprocess.Popen([sys.executable, "-m", "pbem", "-C", str(root), "judge",
                                      "inbox", "--maildir", str(folder)],
                                     stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
                    for root in (a, b)]
            for run in runs:
                if pick.random() < 0.6:
                    time.sleep(pick.uniform(0.2, 2.5))
                    run.send_signal(signal.SIGKILL)
            for run in runs:
                run.wait(timeout=120)
        for _ in range(2):  # then each runs to its end
            for root in (a, b):
                assert judge.inbox(root, maildir=folder)["campaigns"]["rr1"]["ok"]
    head = git(bare, "rev-parse", "main")
    judge.tick(a)
    judge.tick(b)
    assert git(a / "rr1", "rev-parse", "HEAD") == git(b / "rr1", "rev-parse", "HEAD") == head
    recorded = [f for e in api.log(a / "rr1") if e["type"] == "orders" for f in e["factions"]]
    assert sorted(recorded) == sorted(mailed)  # every mail's orders once
    for mid in mids:  # and every mail answered once, by one of the judges
        assert sorted(replies(a, mid) + replies(b, mid)).count("pending") == 1, (
            mid, replies(a, mid), replies(b, mid))
    clone = tmp_path / "clone"
    git(tmp_path, "clone", "-q", str(bare), str(clone))
    for root in (a / "rr1", b / "rr1", clone):
        assert api.audit(root)["problems"] == [], root
