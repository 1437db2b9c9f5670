"""A real group's first week, by mail, for each bundled game: players whose only key is an
ed25519 key made by ssh-keygen, seated by its public line; each acts on what the mail says
(the welcome above the first mail: a salt in the contribution, `ssh-keygen -Y sign` with the
namespace it names; then each turn the orders file attached, written and signed the same
way) and replies with the file and its signature attached; the referee runs `pbem inbox` and
`pbem mail`. To the end of the first turn: every orders file is accepted, every mail is under
300 KB, Debian's `age -d -i id_ed25519` opens a secret sealed to its player, and the audits
(the public one, and the player's own with his SSH key) pass."""

from __future__ import annotations

import email
import email.policy
import json
import mailbox
import re
import shutil
import subprocess
from email.message import EmailMessage
from pathlib import Path
from typing import Any

import pytest

from pbem import api, yamlio
from pbem.campaign import Campaign
from pbem.crypto import sealed
from pbem.mail import loop as mailloop

pytestmark = pytest.mark.skipif(shutil.which("ssh-keygen") is None or shutil.which("age") is None,
                                reason="needs OpenSSH's ssh-keygen and Debian's age")

# each game's players: name, address and the factions each plays
GROUPS: dict[str, list[tuple[str, str, list[str]]]] = {
    "chechen_war": [("Ann", "ann@example.org", ["russian"]), ("Bob", "bob@example.org", ["chechen"])],
    "red_russia": [("Ann", "ann@example.org", ["red"]), ("Bob", "bob@example.org", ["siberian"]),
                   ("Cy", "cy@example.org", ["south", "north"])],
    "aa1914": [("Ann", "ann@example.org", ["austria_hungary", "germany", "ottomans"]),
               ("Bob", "bob@example.org", ["russia", "france", "britain"]),
               ("Cy", "cy@example.org", ["italy", "usa"])],
}
LIMIT = 300 * 1024


def _keygen(folder: Path) -> Path:
    folder.mkdir(parents=True)
    key = folder / "id_ed25519"
    subprocess.run(["ssh-keygen", "-q", "-t", "ed25519", "-N", "", "-C", folder.name, "-f", str(key)],
                   check=True)
    return key


def _parse(path: Path) -> EmailMessage:
    msg = email.message_from_bytes(path.read_bytes(), policy=email.policy.default)
    assert isinstance(msg, EmailMessage)
    return msg


def _text(msg: EmailMessage) -> str:
    body = msg.get_body(preferencelist=("plain",))
    return "" if body is None else str(body.get_content())


def _write_orders(root: Path, template: dict[str, Any], factions: list[str], contribution: bool,
                  n: int) -> dict[str, Any]:
    """The player's file: the template's header, his own orders (the bot's, with no salt:
    ssh-keygen signs what is written), and in the contribution a salt of his own."""
    if contribution:
        return {**template, "salt": f"{n:02x}" * 32}
    named = template["faction"]  # those of his factions awaited now, as the template names them
    factions = [named] if isinstance(named, str) else list(named)
    mine = (api.bot(root, factions[0], seed=f"week{n}", salts=False) if len(factions) == 1 else
            api.bot_several(root, factions, seed=f"week{n}", salts=False))
    return {**template, **{k: v for k, v in mine.items() if k in ("orders", "standing", "secret")}}


@pytest.mark.parametrize("game", sorted(GROUPS))
def test_the_first_week_by_mail_with_ssh_keys_alone(tmp_path: Path, game: str) -> None:
    group = GROUPS[game]
    keys = {addr: _keygen(tmp_path / name.lower()) for name, addr, _ in group}
    root = tmp_path / "camp"
    api.new_campaign(root, game, seed=f"week-{game}", name="camp",
                     players=[f"{f}={name} <{addr}>" for name, addr, fs in group for f in fs],
                     keys=[f"{','.join(fs)}={keys[addr]}.pub" for _n, addr, fs in group])
    bare = tmp_path / "shared.git"
    subprocess.run(["git", "init", "-q", "--bare", str(bare)], check=True)
    subprocess.run(["git", "-C", str(root), "remote", "add", "origin", str(bare)], check=True)
    mailloop.publish(root)
    outbox = root / ".pbem" / "outbox"
    maildir = tmp_path / "Maildir"
    box = mailbox.Maildir(maildir, create=True)
    factions_of = {addr: fs for _n, addr, fs in group}
    welcomed: set[str] = set()
    namespace: dict[str, str] = {}
    seen: set[str] = set()
    n = 0
    while True:
        status = api.status(root)
        if status["over"] or status["turn"] >= 2:
            break
        mailloop.mail(root)
        replies: list[str] = []
        for path in sorted(outbox.glob("*.eml")):
            if path.name in seen:
                continue
            seen.add(path.name)
            assert path.stat().st_size < LIMIT, (path.name, path.stat().st_size)
            msg = _parse(path)
            if msg["X-Pbem-Kind"] != "report":
                continue
            to = email.utils.parseaddr(str(msg["To"]))[1]
            text = _text(msg)
            if to not in welcomed:  # his first mail: the welcome, his own key in it
                assert "WELCOME" in text, text[:400]
                own = " ".join(Path(f"{keys[to]}.pub").read_text().split()[:2])
                assert own in text and f"git clone {bare} camp" in text
                found = re.search(r"ssh-keygen -Y sign -n (\S+) -f ~/.ssh/id_ed25519 FILE.yaml", text)
                assert found is not None
                namespace[to] = found.group(1)
                welcomed.add(to)
            templates = [p for p in msg.iter_attachments() if str(p.get_filename()).endswith(".yaml")]
            for part in templates:
                n += 1
                template = yamlio.load_untrusted(part.get_content(), str(part.get_filename())).data
                body = _write_orders(root, template, factions_of[to], status["phase"] == "contribute", n)
                draft = tmp_path / "drafts" / f"{n:03d}-{part.get_filename()}"
                draft.parent.mkdir(exist_ok=True)
                draft.write_text(yamlio.dump(body))
                subprocess.run(["ssh-keygen", "-q", "-Y", "sign", "-n", namespace[to], "-f",
                                str(keys[to]), str(draft)], check=True, capture_output=True)
                reply = EmailMessage()
                reply["From"], reply["To"] = to, str(msg["From"])
                reply["Subject"] = f"Re: {msg['Subject']}"
                reply["Message-ID"] = f"<{n}.{to}>"
                reply["In-Reply-To"] = str(msg["Message-ID"])
                reply.set_content("My orders.\n")
                for file in (draft, draft.with_name(draft.name + ".sig")):
                    reply.add_attachment(file.read_bytes(), maintype="application",
                                         subtype="octet-stream", filename=file.name[4:])
                box.add(reply.as_bytes())
                replies.append(str(reply["Message-ID"]))
        if replies:
            taken = mailloop.inbox(root, maildir=maildir)
            outcomes = {m["message_id"]: m["outcome"] for m in taken["messages"]}
            assert [outcomes.get(r) for r in replies] == ["accepted"] * len(replies), taken["messages"]
        else:
            assert not api.status(root)["awaiting"], ("nobody was mailed a file", status)
            api.resolve(root)
    assert welcomed == set(factions_of)
    assert api.status(root)["turn"] >= 2 or api.status(root)["over"]
    assert n >= len(group) + 2, n  # the contributions, then the turn's files
    campaign = Campaign.open(root)
    # Debian's age opens with his SSH key what is sealed to him (his face-down units, his hand)
    mine = {addr: fs for addr, fs in factions_of.items()}
    checked = 0
    for node in sealed.find_sealed(campaign.state()["game"]):
        holder = next((a for a, fs in mine.items() if node["owner"] in fs), None)
        if holder is None:
            continue
        envelope = tmp_path / f"node-{checked}.age"
        envelope.write_text(node["sealed"])
        opened = subprocess.run(["age", "-d", "-i", str(keys[holder]), str(envelope)],
                                capture_output=True, check=True).stdout
        value = sealed.open_node(campaign.id, node, campaign.referee_identities()).value
        length = int.from_bytes(opened[:4], "big")  # docs/verifying.md: length, JSON, padding
        assert json.loads(opened[4:4 + length])["value"] == value
        checked += 1
        if checked == 3:
            break
    if game != "aa1914":  # A&A 1914 hides nothing
        assert checked, "nothing sealed to a player was found"
    report = api.audit(root)
    assert report["ok"], report["problems"]
    for _name, addr, _fs in group:
        own = api.audit(root, key=keys[addr])
        assert own["ok"], (addr, own["problems"])
