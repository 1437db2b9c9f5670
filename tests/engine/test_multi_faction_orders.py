"""One orders file per phase for a player of several factions (`faction: [south, north]`).

Red Russia's three-player seating gives one player the South and the North. Such a player
has one key pair, may send one file naming both (with orders, standing instructions,
secret parts and salts by faction), signed once, and the campaign keeps the file as
received so that `pbem audit` checks its signature again. Everything here goes through
the real command line and a real git repository.
"""

from __future__ import annotations

import email.utils
import hashlib
import json
import mailbox
from collections.abc import Callable
from email.message import EmailMessage
from pathlib import Path
from typing import Any

import pytest

from pbem import api, yamlio
from pbem.campaign import Campaign
from pbem.crypto import sealed
from pbem.dice import KeyedRng
from pbem.errors import Rejected
from tests.conftest import Result, git, play, tree_state

Cli = Callable[..., Result]
PLAYERS = ["red=Ann <ann@example.org>", "siberian=Bob <bob@example.org>",
           "south,north=Cy <cy@example.org>"]


# ---------------------------------------------------------------------------------------
# fixtures and helpers


@pytest.fixture
def signed(tmp_path: Path, pbem: Cli) -> Path:
    """A campaign where Cy plays South and North with one registered key: Cy must sign.
    The other players' keys are in keys/ (unsigned orders allowed for them)."""
    assert pbem("keygen", "--out", tmp_path / "cy").code == 0
    root = tmp_path / "camp"
    args: list[str | Path] = ["new", root, "--game", "red_russia", "--no-contributions", "--hot-seat", "--seed", "multi", "--keys-dir",
                              tmp_path / "keys", "--key", f"south,north={tmp_path / 'cy.card'}"]
    for player in PLAYERS:
        args += ["--player", player]
    result = pbem(*args)
    assert result.code == 0, result.err
    assert api.status(root)["awaiting"] == ["siberian", "south", "north"]
    return root


def hotseat_keys(tmp_path: Path, name: str = "camp") -> Path:
    """The same seating with every key from --keys-dir (unsigned orders allowed)."""
    root = tmp_path / name / "camp"
    api.new_campaign(root, "red_russia", contributions=False, hot_seat=True, seed="multi", name="camp", keys_dir=tmp_path / name / "keys",
                     players=PLAYERS)
    return root


def write(path: Path, data: dict[str, Any]) -> Path:
    yamlio.write_atomic(path, yamlio.dump(data))
    return path


def bot_file(pbem: Cli, root: Path, factions: str, out: Path) -> Path:
    result = pbem("-C", root, "bot", factions, "--out", out)
    assert result.code == 0, result.err
    return out


def commits(root: Path) -> int:
    return int(git(root, "rev-list", "--count", "HEAD"))


def header(root: Path, factions: list[str] | str) -> dict[str, Any]:
    s = api.status(root)
    return {"campaign": s["campaign"], "turn": s["turn"], "phase": s["phase"], "faction": factions,
            "head": s["head"]}


# ---------------------------------------------------------------------------------------
# check, sign, apply, audit


def test_one_signed_file_for_two_factions_is_one_step_and_audits_clean(
        signed: Path, tmp_path: Path, pbem: Cli) -> None:
    both = bot_file(pbem, signed, "south,north", tmp_path / "both.yaml")
    data = yamlio.read_trusted(both)
    assert data["faction"] == ["south", "north"] and sorted(data["orders"]) == ["north", "south"]
    unsigned = pbem("-C", signed, "check", both)  # a player checks, then signs
    assert unsigned.code == 0, unsigned.err
    assert "both.yaml:1: not signed yet: orders of south and north must be signed" in unsigned.out
    assert pbem("-C", signed, "sign", both, "--key", tmp_path / "cy_ed25519").code == 0
    checked = pbem("-C", signed, "check", both)
    assert checked.code == 0 and "OK (south, north)" in checked.out, checked.err

    before = commits(signed)
    applied = pbem("-C", signed, "apply", both, "--json")
    assert applied.code == 0, applied.err
    recorded = json.loads(applied.out)["recorded"]
    assert [(r["faction"], r["seq"]) for r in recorded] == [("south", 2), ("north", 2)]
    assert commits(signed) == before + 1  # one file, one step, one commit
    s = api.status(signed)
    assert s["received"] == ["north", "south"] and s["awaiting"] == ["siberian"]
    log = json.loads(pbem("-C", signed, "log", "--json").out)
    assert log[-1]["factions"] == ["south", "north"] and log[-1]["type"] == "orders"

    siberian = bot_file(pbem, signed, "siberian", tmp_path / "siberian.yaml")
    done = pbem("-C", signed, "apply", siberian, "--json")
    assert done.code == 0 and json.loads(done.out)["resolved"], done.err
    stored = sorted((signed / "orders").glob("*south+north*"))
    assert [p.name for p in stored] == ["t00-setup-place-south+north-000002.yaml",
                                        "t00-setup-place-south+north-000002.yaml.sig"]
    assert stored[0].read_bytes() == both.read_bytes()  # the file as received
    assert stored[1].read_bytes() == both.with_name("both.yaml.sig").read_bytes()

    audit = pbem("-C", signed, "audit", "--json")
    report = json.loads(audit.out)
    assert audit.code == 0 and report["ok"], report["problems"]
    # the referee's four entries, and the combined file's signature for each of its factions
    assert report["checked"]["signatures"] == 4 + 2


def test_a_signature_by_another_key_is_refused(signed: Path, tmp_path: Path, pbem: Cli) -> None:
    both = bot_file(pbem, signed, "south,north", tmp_path / "both.yaml")
    assert pbem("-C", signed, "sign", both, "--key", tmp_path / "keys" / "siberian_ed25519",
                "--force").code == 0  # pbem sign itself refuses it without --force
    before = tree_state(signed)
    result = pbem("-C", signed, "apply", both)
    assert result.code == 1
    assert f"{both}.sig:1:" in result.err
    assert "the signature must be by the key of the player of south and north" in result.err
    assert tree_state(signed) == before


def test_factions_of_two_players_are_refused(signed: Path, tmp_path: Path, pbem: Cli) -> None:
    sib, south = api.bot(signed, "siberian"), api.bot(signed, "south")
    path = write(tmp_path / "mixed.yaml", {
        **header(signed, ["siberian", "south"]),
        "orders": {"siberian": sib["orders"], "south": south["orders"]}})
    before = tree_state(signed)
    result = pbem("-C", signed, "apply", path)
    assert result.code == 1
    assert (f"{path}:4: one orders file may name several factions only if one player plays "
            "them all (siberian: Bob <bob@example.org>, south: Cy <cy@example.org>)") in result.err
    assert tree_state(signed) == before
    refused = pbem("-C", signed, "bot", "siberian,south")
    assert refused.code == 1 and "not all played by one player" in refused.err


def test_a_faction_in_two_files_at_once_is_refused(tmp_path: Path, pbem: Cli) -> None:
    root = hotseat_keys(tmp_path)
    both = bot_file(pbem, root, "south,north", tmp_path / "both.yaml")
    north = bot_file(pbem, root, "north", tmp_path / "north.yaml")
    before = tree_state(root)
    result = pbem("-C", root, "apply", both, north)
    assert result.code == 1
    assert f"{north}:4: a second orders file for north (the first is {both})" in result.err
    assert tree_state(root) == before


def test_a_faction_not_awaited_is_refused_and_one_file_per_faction_still_counts(
        tmp_path: Path, pbem: Cli) -> None:
    root = hotseat_keys(tmp_path)
    s = play(root, until_turn=1, phase="action")
    for step in range(8):  # 4.4: one faction acts at a time, in initiative order
        if s["awaiting"] in (["south"], ["north"]):
            break
        path = write(tmp_path / f"{step}.yaml", api.bot(root, s["awaiting"][0]))
        assert pbem("-C", root, "apply", path).code == 0
        s = api.status(root)
    assert s["phase"] == "action" and s["awaiting"] in (["south"], ["north"]), s
    awaited = s["awaiting"][0]
    other = "north" if awaited == "south" else "south"
    mine = api.bot(root, awaited)
    path = write(tmp_path / "both.yaml", {
        **header(root, [awaited, other]),
        "orders": {awaited: mine["orders"], other: []}})
    before = tree_state(root)
    result = pbem("-C", root, "apply", path)
    assert result.code == 1
    assert (f"{path}:4: {other} is not awaited in phase action (awaiting: {awaited}); name only "
            "your factions that are awaited") in result.err
    assert tree_state(root) == before
    # the file for the awaited faction alone, either form
    alone = write(tmp_path / "alone.yaml", {**header(root, [awaited]),
                                            "orders": {awaited: mine["orders"]},
                                            "salt": {awaited: mine["salt"]},
                                            "salt_next": {awaited: mine["salt_next"]}})
    assert pbem("-C", root, "check", alone).code == 0
    single = write(tmp_path / "single.yaml", mine)
    applied = pbem("-C", root, "apply", single)
    assert applied.code == 0, applied.err
    assert api.status(root)["awaiting"] != [awaited]


def test_every_problem_of_a_file_for_several_factions_has_its_line(
        signed: Path, tmp_path: Path, pbem: Cli) -> None:
    head = api.status(signed)["head"]
    path = tmp_path / "bad.yaml"
    path.write_text(
        "campaign: camp\n"                 # 1
        "turn: 0\n"                        # 2
        "phase: setup-place\n"             # 3
        "faction: [south, north, south]\n"  # 4
        f"head: {head}\n"                  # 5
        "orders:\n"                        # 6
        "  south: []\n"                    # 7
        "  sibirian: []\n"                 # 8
        "standing:\n"                      # 9
        "  north: 3\n"                     # 10
        "secret: [1]\n"                    # 11
        "salt: {south: '00ff00ff00ff00ff00ff00ff00ff00ff', north: XYZ}\n",  # 12
        encoding="utf-8")
    before = tree_state(signed)
    result = pbem("-C", signed, "check", path)
    assert result.code == 1
    lines = result.err.splitlines()
    expected = [
        f"{path}:4: south is named twice",
        f"{path}:8: orders of 'sibirian', which the header does not name (faction: [south, "
        "north])",
        f"{path}:7: no orders for north, which the header names: add 'north: [...]' under "
        "'orders' ([] for none)",
        f"{path}:10: 'standing' of north must be a mapping",
        f"{path}:11: in a file for several factions 'secret' is a mapping by faction (secret: "
        "{south: ...})",
        f"{path}:12: salt is 16 to 64 bytes in lower-case hex",
    ]
    missing = [line for line in expected if line not in lines]
    assert not missing, result.err
    assert pbem("-C", signed, "apply", path).code == 1
    assert tree_state(signed) == before


def test_the_game_rules_problems_point_into_the_factions_part(
        tmp_path: Path, pbem: Cli) -> None:
    root = hotseat_keys(tmp_path)
    data = api.bot_several(root, ["south", "north"])
    data["orders"]["north"][0]["place"]["zone"] = "Atlantis"
    path = write(tmp_path / "both.yaml", data)
    result = pbem("-C", root, "check", path)
    assert result.code == 1
    text = path.read_text().splitlines()
    north = text.index("  north:")
    atlantis = next(i for i, line in enumerate(text) if "Atlantis" in line and i > north) + 1
    assert f"{path}:{atlantis}:" in result.err and "Atlantis" in result.err, result.err


# ---------------------------------------------------------------------------------------
# salts and the same result as separate files


def test_one_salt_counts_for_each_faction_named(signed: Path, tmp_path: Path, pbem: Cli) -> None:
    salt, salt2 = "a1" * 16, "b2" * 16
    after = hashlib.sha256(bytes.fromhex(salt2)).hexdigest()
    both = api.bot_several(signed, ["south", "north"])
    both.update(salt=salt, salt_next=after)
    path = write(tmp_path / "both.yaml", both)
    key = tmp_path / "cy_ed25519"
    assert pbem("-C", signed, "sign", path, "--key", key).code == 0
    assert pbem("-C", signed, "apply", path).code == 0
    assert pbem("-C", signed, "apply", bot_file(pbem, signed, "siberian", tmp_path / "s.yaml")).code == 0
    resolved = [e for e in Campaign.open(signed).entries() if e["type"] == "resolve"][-1]
    assert resolved["salts"]["south"] == resolved["salts"]["north"] == salt
    state = Campaign.open(signed).state()
    assert state["salt_commits"]["south"] == state["salt_commits"]["north"] == after
    play_red = bot_file(pbem, signed, "red", tmp_path / "red.yaml")
    assert pbem("-C", signed, "apply", play_red).code == 0
    assert api.status(signed)["phase"] == "setup-reduce"

    # the next file for both must open both commitments: salt2 does, another salt does not
    wrong = {**header(signed, ["south", "north"]), "orders": {"south": [], "north": []},
             "salt": "c3" * 16}
    path = write(tmp_path / "wrong.yaml", wrong)
    assert pbem("-C", signed, "sign", path, "--key", key).code == 0
    result = pbem("-C", signed, "check", path)
    assert result.code == 1
    for faction in ("south", "north"):
        assert (f"{path}:9: this salt is not the one {faction} committed to last time"
                in result.err), result.err
    # the bot cannot write its own salts now (salt2 is Cy's own); a player's 'pbem bot'
    # writes none, for 'pbem sign' to add
    with pytest.raises(Rejected, match="the bot cannot know it"):
        api.bot_several(signed, ["south", "north"])
    plain = pbem("-C", signed, "bot", "south,north")
    assert plain.code == 0 and "salt" not in plain.out
    campaign = Campaign.open(signed)
    orders = {f: campaign.game.bot(campaign.data, campaign.state()["game"], f,
                                   KeyedRng(f.encode() * 4))["orders"] for f in ("south", "north")}
    path = write(tmp_path / "good.yaml", {**header(signed, ["south", "north"]), "orders": orders,
                                          "salt": salt2})
    assert pbem("-C", signed, "sign", path, "--key", key).code == 0
    checked = pbem("-C", signed, "check", path)
    assert checked.code == 0, checked.err


def _separate_and_combined(a: Path, b: Path, tmp_path: Path, pbem: Cli, step: int) -> bool:
    """Campaign b gets one file per awaited faction; campaign a the same orders, with those
    of South and North in one file when both are awaited. Returns whether it combined."""
    s = api.status(b)
    assert api.status(a)["awaiting"] == s["awaiting"] and api.status(a)["phase"] == s["phase"]
    files = {f: api.bot(b, f, seed="same") for f in s["awaiting"]}
    separate = [write(tmp_path / f"b-{step}-{f}.yaml", d) for f, d in files.items()]
    seat = [f for f in ("south", "north") if f in files]
    together: list[Path] = [write(tmp_path / f"a-{step}-{f}.yaml", {**d, "head": api.status(a)["head"]})
                            for f, d in files.items() if f not in seat or len(seat) == 1]
    if len(seat) == 2:
        data = header(a, seat)
        data["orders"] = {f: files[f]["orders"] for f in seat}
        standing = {f: files[f]["standing"] for f in seat if files[f].get("standing")}
        if standing:
            data["standing"] = standing
        data["salt"] = {f: files[f]["salt"] for f in seat}
        data["salt_next"] = {f: files[f]["salt_next"] for f in seat}
        together.append(write(tmp_path / f"a-{step}-both.yaml", data))
    for root, paths in ((b, separate), (a, together)):
        result = pbem("-C", root, "apply", *paths) if paths else pbem("-C", root, "resolve")
        assert result.code == 0, result.err
    return len(seat) == 2


def opened(root: Path, data: Any) -> Any:
    """Data with every sealed node opened by the referee's key: envelopes and commitments
    are random, what they hold is what must be equal."""
    if sealed.is_sealed(data):
        campaign = Campaign.open(root)
        return ["sealed", sealed.open_node(campaign.id, data, campaign.referee_identities()).value]
    if isinstance(data, dict):
        return {k: opened(root, v) for k, v in data.items()}
    if isinstance(data, list):
        return [opened(root, v) for v in data]
    return data


def test_the_position_is_what_separate_files_give(tmp_path: Path, pbem: Cli) -> None:
    a, b = hotseat_keys(tmp_path, "a"), hotseat_keys(tmp_path, "b")
    combined = 0
    for step in range(40):
        if api.status(b)["turn"] >= 1 and api.status(b)["phase"] == "action":
            break
        combined += _separate_and_combined(a, b, tmp_path, pbem, step)
        state_a, state_b = Campaign.open(a).state(), Campaign.open(b).state()
        assert opened(a, state_a["game"]) == opened(b, state_b["game"]), \
            f"the positions differ after step {step}"
        assert state_a["salt_commits"] == state_b["salt_commits"]
    assert combined >= 3  # White placement, reductions, turn 1's purchases
    resolved = {root: [(e["phase"], e["salts"], e["dice"], opened(root, e.get("events")))
                       for e in Campaign.open(root).entries() if e["type"] == "resolve"]
                for root in (a, b)}
    assert resolved[a] == resolved[b]
    assert sum(len(dice) for _p, _s, dice, _e in resolved[a]) > 0  # the salts went into real dice
    assert len(list(Campaign.open(a).entries())) < len(list(Campaign.open(b).entries()))
    audit = pbem("-C", a, "audit", "--json")
    assert audit.code == 0 and json.loads(audit.out)["ok"], audit.out


# ---------------------------------------------------------------------------------------
# keys, mail and the templates a player receives


def test_a_player_of_two_factions_gets_one_key_pair_from_keys_dir(tmp_path: Path) -> None:
    root = hotseat_keys(tmp_path)
    keys = tmp_path / "camp" / "keys"
    # one pair per player, named by the player's factions: 3 players, 9 files
    assert sorted(p.name for p in keys.iterdir()) == sorted(
        f"{stem}{suffix}" for stem in ("red", "siberian", "south+north")
        for suffix in (".key", "_ed25519", "_ed25519.pub"))
    assert (keys / "red.key").read_bytes() != (keys / "siberian.key").read_bytes()
    # the public key's comment names the player's factions, as campaign.yaml records it
    line = (keys / "south+north_ed25519.pub").read_text().strip()
    assert line.split()[2] == "south+north"
    factions = Campaign.open(root).factions()
    assert factions["south"]["ssh"] == factions["north"]["ssh"] == line != factions["red"]["ssh"]
    assert (keys / "red_ed25519.pub").read_text().split()[2] == "red"


def test_pbem_new_says_whose_key_is_which(tmp_path: Path, pbem: Any) -> None:
    keys = tmp_path / "keys"
    r = pbem("new", tmp_path / "camp", "--game", "aa1914", "--seed", "keys", "--keys-dir", keys,
             "--player", "austria_hungary,germany,ottomans=Ann <ann@aa.invalid>",
             "--player", "russia,france,britain=Bob <bob@aa.invalid>", "--player", "usa=Cy <cy@aa.invalid>")
    assert r.code == 0, r.err
    central = keys / "austria_hungary+germany+ottomans"
    assert (f"Keys of Ann <ann@aa.invalid> (austria_hungary, germany, ottomans): {central}.key and "
            f"{central}_ed25519 (secret: for that player alone), {central}_ed25519.pub (public)") in r.out
    assert f"Keys of Cy <cy@aa.invalid> (usa): {keys / 'usa'}.key" in r.out
    assert f"Keys of the hot seat (italy): {keys / 'italy'}.key" in r.out  # no player: its own
    assert len(list(keys.iterdir())) == 4 * 3
    assert (keys / "russia+france+britain_ed25519.pub").read_text().split()[2] == "russia+france+britain"
    # made again into the same folder: refused before anything is written
    r = pbem("new", tmp_path / "again", "--game", "aa1914", "--keys-dir", keys,
             "--player", "austria_hungary,germany,ottomans=Ann <ann@aa.invalid>")
    assert r.code == 2 and f"{central}.key exists; pbem will not overwrite keys" in r.err
    assert not (tmp_path / "again").exists()


def _mail(sender: str, mid: str, files: list[Path]) -> EmailMessage:
    msg = EmailMessage()
    msg["From"], msg["To"], msg["Subject"] = sender, "referee@example.org", "orders"
    msg["Message-ID"], msg["Date"] = mid, email.utils.formatdate()
    msg.set_content("My orders.\n")
    for path in files:
        msg.add_attachment(path.read_bytes(), maintype="application", subtype="octet-stream",
                           filename=path.name)
    return msg


def test_a_file_for_two_factions_arrives_by_mail(signed: Path, tmp_path: Path, pbem: Cli) -> None:
    both = bot_file(pbem, signed, "south,north", tmp_path / "both.yaml")
    assert pbem("-C", signed, "sign", both, "--key", tmp_path / "cy_ed25519").code == 0
    forged = bot_file(pbem, signed, "south,north", tmp_path / "forged.yaml")
    assert pbem("-C", signed, "sign", forged, "--key", tmp_path / "keys" / "red_ed25519",
                "--force").code == 0  # pbem sign itself refuses it without --force
    box = mailbox.Maildir(tmp_path / "Maildir", create=True)
    box.add(_mail("Ann <ann@example.org>", "<forged@example.org>",
                  [forged, forged.with_name("forged.yaml.sig")]))
    box.add(_mail("Cy <cy@example.org>", "<both@example.org>", [both, both.with_name("both.yaml.sig")]))
    result = pbem("-C", signed, "inbox", "--maildir", tmp_path / "Maildir", "--json")
    assert result.code == 0, result.err
    messages = {m["message_id"]: m for m in json.loads(result.out)["messages"]}
    rejected = messages["<forged@example.org>"]
    assert rejected["outcome"] == "rejected"
    assert any(p.startswith("forged.yaml.sig:1:") and "player of south and north" in p
               for p in rejected["problems"]), rejected["problems"]
    accepted = messages["<both@example.org>"]
    assert accepted["outcome"] == "accepted", accepted
    assert accepted["recorded"] == [{"faction": "south", "seq": 2}, {"faction": "north", "seq": 2}]
    assert api.status(signed)["received"] == ["north", "south"]


def test_the_report_offers_one_file_for_the_players_awaited_factions(
        signed: Path, tmp_path: Path, pbem: Cli) -> None:
    south = pbem("-C", signed, "report", "--for", "south", "--format", "text")
    north = pbem("-C", signed, "report", "--for", "north", "--format", "text")
    siberian = pbem("-C", signed, "report", "--for", "siberian", "--format", "text")
    assert south.code == north.code == siberian.code == 0
    assert "ORDERS TEMPLATE (south + north)" in south.out
    assert "+ north" not in north.out and "+ north" not in siberian.out
    text = south.out.split("ORDERS TEMPLATE (south + north)", 1)[1].split("\n", 2)[2]
    template = text.split("\n\n--\n", 1)[0]
    path = tmp_path / "template.yaml"
    path.write_text(template, encoding="utf-8")
    assert yamlio.read_trusted(path)["faction"] == ["south", "north"]
    assert pbem("-C", signed, "sign", path, "--key", tmp_path / "cy_ed25519").code == 0
    checked = pbem("-C", signed, "check", path)
    assert checked.code == 0, checked.err + template


def test_the_story_names_the_factions_of_a_file_for_several(tmp_path: Path) -> None:
    """Two orders steps in a row, one of them a file for south and north: the report's story
    tells them as one line naming every faction (before: "orders received from ?, siberian")."""
    from pbem.reports.render import render

    root = hotseat_keys(tmp_path)
    write(tmp_path / "both.yaml", api.bot_several(root, ["south", "north"], seed="story"))
    api.apply(root, [tmp_path / "both.yaml"])
    write(tmp_path / "siberian.yaml", api.bot(root, "siberian", seed="story"))
    api.apply(root, [tmp_path / "siberian.yaml"])
    text = render(root, "public", "text")
    assert "orders received from south, north, siberian" in text
    assert "?" not in "".join(line for line in text.splitlines() if "orders received" in line)
