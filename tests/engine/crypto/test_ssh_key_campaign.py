"""A player whose whole identity is one ed25519 SSH key (`ssh-keygen -t ed25519 -N ''`): a
Chechen War campaign seats the Chechen by his `id_ed25519.pub` alone; his face-down units,
sealed to that key, open with `pbem reveal --key ~/.ssh/id_ed25519` and with Debian's
`age -d -i ~/.ssh/id_ed25519`; his orders signed by `ssh-keygen -Y sign` are accepted; his own
audit and check run with the same file."""

from __future__ import annotations

import json
import subprocess
from collections.abc import Callable
from pathlib import Path

import pytest

from pbem import yamlio
from pbem.campaign import Campaign
from pbem.crypto import keys, sealed
from pbem.game import load_data
from pbem.orders import SIGNATURE_NAMESPACE
from tests.conftest import Result, need_tool
from tests.engine.crypto.test_age_ssh import ssh_keygen

Cli = Callable[..., Result]


def ok(r: Result) -> Result:
    assert r.code == 0, r.err + r.out
    return r


@pytest.fixture
def home(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """The Chechen's home: ~/.ssh/id_ed25519 and nothing else of pbem's."""
    home = tmp_path / "home"
    monkeypatch.setenv("HOME", str(home))
    ssh_keygen(home / ".ssh")
    return home


def drafted(pbem: Cli, root: Path, faction: str, name: str) -> Path:
    path = root.parent / f"{faction}-{name}.yaml"
    ok(pbem("-C", root, "bot", faction, "--out", path))
    return path


def test_a_chechen_whose_identity_is_his_ssh_key(pbem: Cli, tmp_path: Path, home: Path) -> None:
    key = home / ".ssh" / "id_ed25519"
    line = (home / ".ssh" / "id_ed25519.pub").read_text().strip()
    root, made = tmp_path / "camp", tmp_path / "keys"
    ok(pbem("new", root, "--game", "chechen_war", "--seed", "ssh", "--keys-dir", made,
            "--player", "russian=Ann <ann@cw.invalid>", "--player", "chechen=Bob <bob@cw.invalid>",
            "--key", f"chechen={key}.pub"))
    seat = Campaign.open(root).factions()["chechen"]
    assert seat["age"] == " ".join(line.split()[:2]) and seat["ssh"] == line
    assert not (made / "chechen.key").exists() and (made / "russian.key").exists()

    def russian(name: str) -> None:
        path = drafted(pbem, root, "russian", name)
        ok(pbem("-C", root, "sign", path, "--key", made / "russian_ed25519"))
        ok(pbem("-C", root, "apply", path))

    # the contribution round: pbem sign adds his salt, with the same one file
    russian("salt")
    salt = drafted(pbem, root, "chechen", "salt")
    assert "signed with the key of chechen" in ok(pbem("-C", root, "sign", salt, "--key", key)).out
    ok(pbem("-C", root, "apply", salt))
    russian("setup")
    # his set-up, signed by ssh-keygen alone
    setup = drafted(pbem, root, "chechen", "setup")
    subprocess.run([need_tool("ssh-keygen"), "-Y", "sign", "-n", SIGNATURE_NAMESPACE, "-f", str(key),
                    str(setup)], check=True, capture_output=True)
    ok(pbem("-C", root, "apply", setup))
    status = json.loads(ok(pbem("-C", root, "status", "--json")).out)
    assert (status["turn"], status["phase"], status["awaiting"]) == (1, "russian-movement", ["russian"])

    # his units, sealed to his SSH key: pbem reveal opens them all
    mine = ok(pbem("-C", root, "reveal", "--key", key)).out
    units = load_data("chechen_war")["units"]["units"]
    assert len([u for u, spec in units.items() if spec["side"] == "chechen" and u in mine]) == 24
    # ... and so does age itself, on a sealed node's envelope
    camp = Campaign.open(root)
    node = camp.state()["game"]["tokens"]["t01"]["unit"]
    truth = sealed.open_node(camp.id, node, camp.referee_identities()).value
    (tmp_path / "t01.age").write_text(node["sealed"])
    out = subprocess.run([need_tool("age"), "-d", "-i", str(key), str(tmp_path / "t01.age")],
                         capture_output=True, check=True).stdout
    assert json.loads(keys.unpad(out))["value"] == truth
    # another SSH key opens nothing
    other = ssh_keygen(tmp_path / "other")
    assert "no sealed value in this campaign opens with that key" in ok(
        pbem("-C", root, "reveal", "--key", other)).out

    # his own audit recomputes his 24 draws with his draw key, opened by the SSH key
    audited = ok(pbem("-C", root, "audit", "--key", key)).out
    assert "your own draws: 24 sealed value(s) recomputed with your own draw key" in audited
    assert "audit: OK" in audited
    # his check reads his face-down units with it, as the referee will
    russian("moves")
    draft = drafted(pbem, root, "chechen", "ambush")
    assert "add --key YOUR.key" in ok(pbem("-C", root, "check", draft)).out
    assert "--key YOUR.key" not in ok(pbem("-C", root, "check", draft, "--key", key)).out


def test_a_passphrase_protected_key_is_refused_saying_what_to_do(
        pbem: Cli, tmp_path: Path, home: Path) -> None:
    root = tmp_path / "camp"
    ok(pbem("new", root, "--game", "chechen_war", "--seed", "ssh", "--no-contributions",
            "--player", "chechen=Bob <bob@cw.invalid>", "--key",
            f"chechen={home / '.ssh' / 'id_ed25519.pub'}"))
    locked = ssh_keygen(tmp_path / "locked", passphrase="secret")
    r = pbem("-C", root, "reveal", "--key", locked)
    assert r.code == 1 and "Traceback" not in r.err
    assert f"{locked}: the SSH key is encrypted (pbem needs a key without a passphrase); " \
           "remove it from a copy kept for pbem (ssh-keygen -p -N '' -f COPY)" in r.err


def test_a_seat_takes_a_new_players_ssh_key(pbem: Cli, tmp_path: Path, home: Path) -> None:
    root = tmp_path / "camp"
    ok(pbem("new", root, "--game", "chechen_war", "--seed", "ssh", "--no-contributions",
            "--hot-seat"))
    key = home / ".ssh" / "id_ed25519"
    ok(pbem("-C", root, "seat", "chechen", "--player", "Bob <bob@cw.invalid>", "--key",
            f"{key}.pub", "--reason", "Bob joins"))
    line = (home / ".ssh" / "id_ed25519.pub").read_text().strip()
    seat = yamlio.read_trusted(root / "campaign.yaml")["factions"]["chechen"]
    assert (seat["age"], seat["ssh"]) == (" ".join(line.split()[:2]), line)
    assert ok(pbem("-C", root, "audit")).code == 0
