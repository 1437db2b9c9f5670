"""The welcome above a player's first mail (pbem/mail/welcome.py): it says what pbem is, the
player's key and how to make their own, how to answer with OpenSSH alone and with pbem, and
where to clone the campaign; and a player who has nothing but what it says (an ssh-keygen
key, the mail) takes part: the contribution signed with ssh-keygen alone is accepted, and
the clone URL it gives clones the campaign, where `pbem check` runs."""

from __future__ import annotations

import email
import email.policy
import mailbox
import re
import shutil
import subprocess
from pathlib import Path
from typing import Any

import pytest
from conftest import git

from pbem import api, yamlio
from pbem.campaign import Campaign
from pbem.errors import PbemError
from pbem.mail import loop as mailloop

pytestmark = pytest.mark.skipif(shutil.which("ssh-keygen") is None, reason="needs ssh-keygen")


def _keygen(folder: Path, name: str) -> Path:
    folder.mkdir(parents=True, exist_ok=True)
    key = folder / name
    subprocess.run(["ssh-keygen", "-q", "-t", "ed25519", "-N", "", "-C", name, "-f", str(key)],
                   check=True)
    return key


def _campaign(tmp_path: Path, *, remote: bool = True) -> tuple[Path, dict[str, Path]]:
    keys = {f: _keygen(tmp_path / f, "id_ed25519") for f in ("russian", "chechen")}
    root = tmp_path / "camp"
    api.new_campaign(root, "chechen_war", seed="welcome", name="cw-1",
                     players=["russian=Ann <ann@example.org>", "chechen=Bob <bob@example.org>"],
                     keys=[f"{f}={k}.pub" for f, k in keys.items()])
    if remote:
        bare = tmp_path / "shared.git"
        subprocess.run(["git", "init", "-q", "--bare", str(bare)], check=True)
        git(root, "remote", "add", "origin", str(bare))
        mailloop.publish(root)
    return root, keys


def _mail(root: Path, record: dict[str, Any]) -> email.message.EmailMessage:
    raw = (root / ".pbem" / "outbox" / record["file"]).read_bytes()
    msg = email.message_from_bytes(raw, policy=email.policy.default)
    assert isinstance(msg, email.message.EmailMessage)
    return msg


def _bodies(msg: email.message.EmailMessage) -> tuple[str, str]:
    text = msg.get_body(preferencelist=("plain",))
    html = msg.get_body(preferencelist=("html",))
    assert text is not None and html is not None
    return text.get_content(), html.get_content()


def test_the_first_mail_welcomes_each_player_with_what_they_need(tmp_path: Path) -> None:
    root, keys = _campaign(tmp_path)
    config = yamlio.read_trusted(root / "campaign.yaml")
    config.setdefault("mail", {})["welcome"] = {"install": "pipx install ./pbem"}
    (root / "campaign.yaml").write_text(yamlio.dump(config))
    sent = mailloop.mail(root)
    assert [r["to"] for r in sent["queued"]] == ["ann@example.org", "bob@example.org"]
    for record, faction in zip(sent["queued"], ("russian", "chechen"), strict=True):
        text, html = _bodies(_mail(root, record))
        mine = " ".join(Path(f"{keys[faction]}.pub").read_text().split()[:2])
        other = " ".join(Path(f"{keys['russian' if faction == 'chechen' else 'chechen']}.pub")
                         .read_text().split()[:2])
        flat = " ".join(text.split())
        assert "WELCOME" in text and f"you play {'Russian' if faction == 'russian' else 'Chechen'}" in flat
        assert mine in text and other not in text  # his own key, nobody else's
        assert f"git clone {tmp_path / 'shared.git'} cw-1" in text
        assert "ssh-keygen -Y sign -n pbem-orders-v1 -f ~/.ssh/id_ed25519 FILE.yaml" in text
        assert "add a line 'salt: ' followed by 64 random hex digits" in flat  # the contribution
        assert "pipx install ./pbem" in text and "referee@pbem.invalid" in flat
        assert '<section class="welcome">' in html and mine in html
        assert "pbem-orders-v1" in html and "pipx install ./pbem" in html
    # the next mail of the campaign holds no welcome
    again = mailloop.mail(root, again=True)
    for record in again["queued"]:
        text, html = _bodies(_mail(root, record))
        assert "WELCOME" not in text and 'class="welcome"' not in html


def test_a_player_with_only_openssh_and_the_welcome_takes_part(tmp_path: Path) -> None:
    """Bob follows the welcome to the letter: the contribution attached, a salt added as it
    says, signed with ssh-keygen as it says, mailed back: accepted. And the clone it names
    is the campaign, where pbem check runs."""
    root, keys = _campaign(tmp_path)
    sent = mailloop.mail(root)
    bob = next(r for r in sent["queued"] if r["to"] == "bob@example.org")
    msg = _mail(root, bob)
    text, _ = _bodies(msg)
    (template,) = [p for p in msg.iter_attachments() if p.get_filename().endswith(".yaml")]
    draft = tmp_path / "bob-mail" / template.get_filename()
    draft.parent.mkdir()
    draft.write_bytes(template.get_payload(decode=True))
    draft.write_text(draft.read_text() + f"salt: '{'5a' * 32}'\n")
    command = re.search(r"ssh-keygen -Y sign -n (\S+) -f ~/.ssh/id_ed25519 FILE.yaml", text)
    assert command is not None
    subprocess.run(["ssh-keygen", "-q", "-Y", "sign", "-n", command.group(1), "-f",
                    str(keys["chechen"]), str(draft)], check=True, capture_output=True)
    box = mailbox.mbox(tmp_path / "mbox", create=True)
    answer = email.message.EmailMessage()
    answer["From"], answer["To"] = "Bob <bob@example.org>", "referee@pbem.invalid"
    answer["Subject"], answer["Message-ID"] = "Re: " + str(msg["Subject"]), "<bob-1@example.org>"
    answer.set_content("My contribution.\n")
    for part in (draft, draft.with_name(draft.name + ".sig")):
        answer.add_attachment(part.read_bytes(), maintype="application", subtype="octet-stream",
                              filename=part.name)
    box.add(answer.as_bytes())
    box.flush()
    result = mailloop.inbox(root, mbox=tmp_path / "mbox")
    assert [r["outcome"] for r in result["messages"]] == ["accepted"], result["messages"]
    assert "chechen" in Campaign.open(root).state()["pending"]
    # pbem's way: the clone the welcome names
    clone = re.search(r"git clone (\S+) cw-1", text)
    assert clone is not None
    subprocess.run(["git", "clone", "-q", clone.group(1), str(tmp_path / "bob-clone")], check=True)
    assert api.status(tmp_path / "bob-clone")["campaign"] == "cw-1"


def test_without_a_published_repository_the_welcome_says_to_ask(tmp_path: Path) -> None:
    root, _keys = _campaign(tmp_path, remote=False)
    text, _ = _bodies(_mail(root, mailloop.mail(root)["queued"][0]))
    assert "the moderator has not published the campaign's repository yet: ask for it" in text
    assert "git clone" not in text
    assert "the moderator tells you where to get it" in text


@pytest.mark.parametrize(("welcome", "said"), [
    ("https://x", "mail: welcome: expected a mapping of clone, install"),
    ({"clon": "https://x"}, "mail: welcome: 'clon' is not a setting; choose among clone, install"),
    ({"clone": 3}, "mail: welcome: clone: expected text, not 3"),
])
def test_a_wrong_welcome_setting_is_named(tmp_path: Path, welcome: Any, said: str) -> None:
    root, _keys = _campaign(tmp_path, remote=False)
    config = yamlio.read_trusted(root / "campaign.yaml")
    config.setdefault("mail", {})["welcome"] = welcome
    (root / "campaign.yaml").write_text(yamlio.dump(config))
    with pytest.raises(PbemError) as caught:
        mailloop.mail(root)
    assert said in caught.value.message
