"""A Chechen War campaign by mail, the contribution round and the whole first turn: pbem mails
each player, the players answer with signed orders attached, `pbem inbox` takes them from a
Maildir. What each player receives is checked with the actual values: the Russian's mail
never names a Chechen unit no rule has revealed, the Chechen's names his own; the mails a
player gets a turn are counted; the audit passes."""

from __future__ import annotations

import email
import email.policy
import importlib
import mailbox
from email.message import EmailMessage
from pathlib import Path

import pytest

from pbem import api, yamlio
from pbem.campaign import Campaign
from pbem.game import load_data
from pbem.mail import loop as mailloop

PLAYERS = ["russian=Ann <ann@example.org>", "chechen=Bob <bob@example.org>"]
ADDRESS = {"russian": "ann@example.org", "chechen": "bob@example.org"}


def text_of(path: Path) -> str:
    """A mail as its reader sees it: every text part and attachment decoded."""
    msg = email.message_from_bytes(path.read_bytes(), policy=email.policy.default)
    parts = []
    for part in msg.walk():
        if part.is_multipart():
            continue
        content = part.get_content()
        parts.append(content.decode("utf-8", "replace") if isinstance(content, bytes) else str(content))
    return "\n".join(parts)


def answer(root: Path, faction: str, folder: Path, n: int) -> EmailMessage:
    """The player's reply: the bot's orders, signed, attached with their signature."""
    path = folder / f"orders-{faction}-{n}.yaml"
    yamlio.write_atomic(path, yamlio.dump(api.bot(root, faction, seed=f"mail{n}")))
    api.sign(path, root.parent / "keys" / f"{faction}_ed25519", root)
    msg = EmailMessage()
    msg["From"] = PLAYERS[0].split("=")[1] if faction == "russian" else PLAYERS[1].split("=")[1]
    msg["To"] = "referee@example.org"
    msg["Subject"] = f"orders {faction}"
    msg["Message-ID"] = f"<{faction}-{n}@example.org>"
    msg.set_content("My orders.\n")
    for part in (path, path.with_name(path.name + ".sig")):
        msg.add_attachment(part.read_bytes(), maintype="application",
                           subtype="yaml" if part.suffix == ".yaml" else "octet-stream", filename=part.name)
    return msg


def hidden_names(root: Path) -> list[str]:
    """The names of the Chechen units no rule has revealed yet (nor sent to the cup)."""
    game = Campaign.open(root).state()["game"]
    units = load_data("chechen_war")["units"]["units"]
    public = {*game.get("cup_known", []),  # (nothing before the contribution round is over)
              *(t["unit"] for t in game.get("tokens", {}).values() if isinstance(t.get("unit"), str))}
    return [spec["name"] for u, spec in units.items() if spec["side"] == "chechen" and u not in public
            and not any(spec["name"] in units[p]["name"] for p in public)]


def campaign(tmp_path: Path) -> tuple[Path, mailbox.Maildir, Path]:
    """A new campaign of two players by mail, the referee's Maildir, the players' drafts."""
    root = tmp_path / "camp"
    api.new_campaign(root, "chechen_war", seed="cw-mail", name="camp", keys_dir=tmp_path / "keys",
                     players=PLAYERS)
    folder = tmp_path / "drafts"
    folder.mkdir()
    return root, mailbox.Maildir(tmp_path / "Maildir", create=True), folder


@pytest.mark.slow
def test_a_whole_campaign_by_mail(tmp_path: Path) -> None:
    root, box, folder = campaign(tmp_path)
    received: dict[str, list[Path]] = {"russian": [], "chechen": []}
    answers = {"russian": 0, "chechen": 0}
    n = 0
    while not Campaign.open(root).state()["game"].get("over"):
        n += 1
        assert n < 120, "the campaign never ended"
        hidden = hidden_names(root)
        for record in mailloop.mail(root)["queued"]:
            who = next(f for f, a in ADDRESS.items() if a == record["to"])
            path = root / ".pbem" / "outbox" / record["file"]
            received[who].append(path)
            if who == "russian":  # nothing the rules have not revealed, when it is sent
                text = text_of(path)
                assert [name for name in hidden if name in text] == [], record["file"]
        awaiting = api.status(root)["awaiting"]
        for faction in awaiting:
            box.add(answer(root, faction, folder, n).as_bytes())
            answers[faction] += 1
        took = mailloop.inbox(root, maildir=tmp_path / "Maildir")
        assert took["accepted"] == len(awaiting) and took["rejected"] == 0, took
    game = Campaign.open(root).state()["game"]
    assert game["result"]["reason"].endswith("(3.2)") or game["result"]["reason"].endswith("(3.1)")
    turns = int(game["turn"])
    # measured: the orders mails (round trips) each side sends a turn, and the mails it gets
    # (at most three a turn each: the End of Turn orders come in their files, rules/ahead.py)
    assert 1 <= answers["russian"] / turns <= 3 and 2 <= answers["chechen"] / turns <= 3, answers
    assert len(received["chechen"]) <= 12 * turns and len(received["russian"]) <= 12 * turns
    chechen_mail = text_of(received["chechen"][-1])
    still = hidden_names(root)
    assert sum(name in chechen_mail for name in still) >= len(still) // 2  # his own units, in his mail
    assert api.audit(root)["ok"]
    api.unseal(root)
    final = api.audit(root, final=True)
    assert final["ok"], final["problems"]


def test_the_first_turn_by_mail(tmp_path: Path) -> None:
    root, box, folder = campaign(tmp_path)
    received: dict[str, list[Path]] = {"russian": [], "chechen": []}
    n = 0
    while Campaign.open(root).state()["game"]["turn"] < 2:
        n += 1
        assert n < 40, "the first turn never ended"
        queued = mailloop.mail(root)["queued"]
        for record in queued:
            who = next(f for f, a in ADDRESS.items() if a == record["to"])
            received[who].append(root / ".pbem" / "outbox" / record["file"])
        awaiting = api.status(root)["awaiting"]
        for faction in awaiting:
            box.add(answer(root, faction, folder, n).as_bytes())
        took = mailloop.inbox(root, maildir=tmp_path / "Maildir")
        assert took["accepted"] == len(awaiting) and took["rejected"] == 0, took
    game = Campaign.open(root).state()["game"]
    units = load_data("chechen_war")["units"]["units"]
    public = {*game["cup_known"], *(t["unit"] for t in game["tokens"].values() if isinstance(t["unit"], str))}
    hidden = [spec["name"] for u, spec in units.items() if spec["side"] == "chechen" and u not in public
              and not any(spec["name"] in units[p]["name"] for p in public)]
    russian_mail = "\n".join(text_of(p) for p in received["russian"])
    assert [name for name in hidden if name in russian_mail] == []
    chechen_mail = "\n".join(text_of(p) for p in received["chechen"])
    assert sum(name in chechen_mail for name in hidden) >= 20  # his own units, in his own mail
    # one mail a player for each segment that awaits him, and one each for the others'
    assert 4 <= len(received["russian"]) <= 12 and 4 <= len(received["chechen"]) <= 12
    assert api.audit(root)["ok"]


def test_a_file_for_the_chechen_signed_by_the_russian_is_answered_with_that_alone(tmp_path: Path) -> None:
    """The oracle by mail: Ann (the Russian) sends orders that name the Chechen, every token
    moved far into Ingushetia and beyond, signed with her own key. Before, the answer listed
    each token the rules refused by what it is (militia or not, its MF); now it says only
    that the signature is not the Chechen's, and nothing is recorded."""
    root, box, folder = campaign(tmp_path)
    n = 0
    while api.status(root)["phase"] != "chechen-movement":
        n += 1
        assert n < 40, "the Chechen Movement Segment never came"
        mailloop.mail(root)
        awaiting = api.status(root)["awaiting"]
        for faction in awaiting:
            box.add(answer(root, faction, folder, n).as_bytes())
        took = mailloop.inbox(root, maildir=tmp_path / "Maildir")
        assert took["accepted"] == len(awaiting), took
    game = Campaign.open(root).state()["game"]
    status = api.status(root)
    b = importlib.import_module("pbem_game_chechen_war.board").board(load_data("chechen_war"))

    def walk(start: str) -> list[str]:
        """Nine hexes of Chechnya, each next to the one before: too far for any unit (8.1)."""
        steps = [start]
        while len(steps) < 10:
            ahead = [h for h in sorted(b.grid.neighbours(steps[-1]))
                     if b.region.get(h) == "chechnya" and h not in steps]
            if not ahead:
                break
            steps.append(ahead[0])
        return steps

    path = folder / "probe.yaml"
    body = {"campaign": "camp", "turn": status["turn"], "phase": "chechen-movement",
            "faction": "chechen", "head": status["head"],
            "orders": [{"move": {"units": [t], "path": walk(v["hex"])}}
                       for t, v in sorted(game["tokens"].items())]}
    path.write_text(yamlio.dump(body))
    api.sign(path, root.parent / "keys" / "russian_ed25519", force=True)
    msg = EmailMessage()
    msg["From"], msg["To"] = "Ann <ann@example.org>", "referee@example.org"
    msg["Subject"], msg["Message-ID"] = "probe", "<probe@example.org>"
    msg.set_content("My orders.\n")
    for part in (path, path.with_name(path.name + ".sig")):
        msg.add_attachment(part.read_bytes(), maintype="application", subtype="octet-stream",
                           filename=part.name)
    box.add(msg.as_bytes())
    head = Campaign.open(root).state()["head"]
    took = mailloop.inbox(root, maildir=tmp_path / "Maildir")
    entry = next(m for m in took["messages"] if m["message_id"] == "<probe@example.org>")
    assert entry["outcome"] == "rejected"
    # the signature's problem, and only what needs no sealed value (a path the map refuses)
    assert "probe.yaml.sig:1:" in entry["problems"][0], entry
    assert "signature" in entry["problems"][0] and "chechen's key" in entry["problems"][0]
    assert not [p for p in entry["problems"] if " MF" in p or "militia" in p], entry["problems"]
    reply = "\n".join(text_of(p) for p in sorted((root / ".pbem" / "outbox").glob("*.eml"))
                      if "probe" in p.read_text(errors="replace"))
    assert "must be by chechen's key" in reply
    for told in ("militia", " MF"):
        assert told not in reply, told
    assert Campaign.open(root).state()["head"] == head
