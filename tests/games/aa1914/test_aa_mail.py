"""Axis & Allies 1914, a whole campaign by mail, of the base game and of each revolution
variant (plan step 9): three players seating several powers each; `pbem mail` writes each
player's report, the players answer with the bot's orders signed and attached, `pbem inbox`
takes them from a Maildir. The contribution round and rounds 1 to 3 go by the same commands
without the mail (`pbem bot`, `sign`, `apply`: the mail loop's report of every step for
every player makes six rounds of it too slow for the suite); rounds 4 to 6, the revolution
among them, go by mail. The referee brings the revolution's trigger about before Russia's
round-4 turn (`pbem adjust`), and Russia's player sends an empty turn then. Afterwards
`audit` is OK, `unseal --force`, and `audit --final` is OK. What is counted: the orders
files and mails of each power each round, and the mails each player receives."""

from __future__ import annotations

import json
import mailbox
from collections.abc import Callable
from email.message import EmailMessage
from pathlib import Path
from typing import Any

import pytest

from pbem import yamlio
from pbem.campaign import Campaign
from tests.conftest import Result, key_of

Cli = Callable[..., Result]
SEATS = {"ann": ["austria_hungary", "germany", "ottomans"],
         "bob": ["russia", "france", "britain"],
         "cat": ["italy", "usa"]}
SOVIETS_WITH = "ann"  # the option soviets_player's default, Germany: its player
LAST_ROUND = 6
BY_MAIL_FROM = 4  # the round the mail loop takes over from the commands
# where the referee puts the Central Powers before Russia's round-4 turn: three territories
# next to Moscow and one more original Russian territory (game.yaml revolution: trigger)
TRIGGER = ("karelia", "livonia", "tatarstan", "poland")
TURNS = {"none": [8] * 6, "armistice": [8, 8, 8, 8, 7, 7], "civil_war": [8, 8, 8, 9, 9, 9]}


def ok(r: Result) -> Result:
    assert r.code == 0, r.err + r.out
    return r


def player_of(power: str) -> str:
    return SOVIETS_WITH if power == "soviets" else next(p for p, ps in SEATS.items() if power in ps)


class Table:
    """The campaign and its three players: orders written by the bot, signed with the
    player's key, applied or mailed."""

    def __init__(self, pbem: Cli, tmp: Path, revolution: str) -> None:
        self.pbem, self.tmp, self.root, self.keys = pbem, tmp, tmp / "camp", tmp / "keys"
        self.maildir = tmp / "Maildir"
        self.box = mailbox.Maildir(self.maildir, create=True)
        self.n = 0
        players = [a for p, powers in SEATS.items()
                   for a in ("--player", f"{','.join(powers)}={p.title()} <{p}@aa.invalid>")]
        ok(pbem("new", self.root, "--game", "aa1914", "--seed", f"mail-{revolution}", "--keys-dir",
                self.keys, *players, "--option", f"revolution={revolution}"))

    def status(self) -> dict[str, Any]:
        loaded: dict[str, Any] = json.loads(ok(self.pbem("-C", self.root, "status", "--json")).out)
        return loaded

    def orders(self, player: str, powers: list[str], empty: bool = False) -> Path:
        """The player's orders file for `powers`, by the bot, signed with the player's key."""
        self.n += 1
        path = self.tmp / f"orders-{player}-{self.n}.yaml"
        ok(self.pbem("-C", self.root, "bot", ",".join(powers), "--seed", str(self.n), "--out", path))
        if empty:
            body = yamlio.load_trusted(path.read_text())
            yamlio.write_atomic(path, yamlio.dump({**body, "orders": []}))
        ok(self.pbem("-C", self.root, "sign", path, "--key", key_of(self.keys, SEATS[player][0])))
        return path

    def post(self, player: str, path: Path) -> None:
        """The player's answer: the orders and their signature attached."""
        msg = EmailMessage()
        msg["From"] = f"{player.title()} <{player}@aa.invalid>"
        msg["To"] = "referee@pbem.invalid"
        msg["Subject"] = "my orders"
        msg["Message-ID"] = f"<{path.stem}@aa.invalid>"
        msg.set_content("My orders.\n")
        for part in (path, path.with_name(path.name + ".sig")):
            msg.add_attachment(part.read_bytes(), maintype="application", subtype="octet-stream",
                               filename=part.name)
        self.box.add(msg.as_bytes())

    def trigger(self) -> None:
        """The referee's adjustment that meets the revolution's trigger: the Central Powers
        hold TRIGGER, the Allied units there sent to Moscow."""
        game = Campaign.open(self.root).state()["game"]
        events: list[dict[str, Any]] = []
        for where in TRIGGER:
            for owner, units in game["units"].get(where, {}).items():
                if units and owner in ("russia", "france", "britain", "italy", "usa"):
                    events.append({"type": "moved", "power": owner, "from": where, "to": "moscow",
                                   "via": [], "units": {u: n for u, n in units.items() if n}})
            events.append({"type": "control", "where": where, "power": "germany", "contested": False})
        fix = self.tmp / "trigger.yaml"
        yamlio.write_atomic(fix, yamlio.dump(events))
        ok(self.pbem("-C", self.root, "adjust", fix, "--reason", "a test: the revolution's trigger met"))


@pytest.mark.slow
@pytest.mark.parametrize("revolution", ["none", "armistice", "civil_war"])
def test_a_whole_campaign_by_mail(pbem: Cli, tmp_path: Path, revolution: str) -> None:
    table = Table(pbem, tmp_path, revolution)
    for player, powers in SEATS.items():  # the contribution round: a file a player
        ok(pbem("-C", table.root, "apply", table.orders(player, powers)))
    files: dict[tuple[int, str], int] = {}  # (round, power): orders files
    mails_in: dict[tuple[int, str], int] = {}  # (round, power): orders mails taken
    mails_out: dict[tuple[int, str], int] = {}  # (round, player): reports received
    triggered = False
    while True:
        s = table.status()
        if s["turn"] > LAST_ROUND or s["phase"] == "over":
            break
        (power,) = s["awaiting"]
        player = player_of(power)
        key = (s["turn"], power)
        if (s["turn"], power) == (4, "russia") and not triggered:
            table.trigger()
            triggered = True
        path = table.orders(player, [power], empty=power == "russia" and s["turn"] == 4)
        files[key] = files.get(key, 0) + 1
        if s["turn"] < BY_MAIL_FROM:
            ok(pbem("-C", table.root, "apply", path))
            continue
        out = json.loads(ok(pbem("-C", table.root, "mail", "--json")).out)
        for record in out["queued"]:
            who = record["to"].split("@")[0]
            mails_out[(s["turn"], who)] = mails_out.get((s["turn"], who), 0) + 1
        table.post(player, path)
        took = json.loads(ok(pbem("-C", table.root, "inbox", "--maildir", table.maildir, "--json")).out)
        assert (took["accepted"], took["rejected"]) == (1, 0), took
        mails_in[key] = mails_in.get(key, 0) + 1

    game = Campaign.open(table.root).state()["game"]
    assert game["turn"] == LAST_ROUND + 1 and not game["over"]
    entries = list(Campaign.open(table.root).entries())
    events = [e for entry in entries for e in entry.get("events") or []]
    # the revolution, as the variant plays it
    checks = [e for e in events if e["type"] == "revolution_check"]
    if revolution == "none":
        assert checks == []
    else:
        assert checks and checks[0]["round"] == 4 and checks[0]["met"]
    if revolution == "armistice":
        assert game["revolution"]["status"] == "armistice"
        assert all(p != "russia" for (r, p) in files if r > 4)  # out of the war: no more turns
    if revolution == "civil_war":
        assert "soviets" in game["order"]
        assert {p for (r, p) in files if r == 5} >= {"russia", "soviets"}
    # each power's turn is one orders file and, by mail, one mail: one round trip
    assert set(files.values()) == {1} and set(mails_in.values()) == {1}
    playing = {r: sorted(p for (rr, p) in files if rr == r) for r in range(1, LAST_ROUND + 1)}
    # the turns of each round: eight; Russia's none after the armistice; the Soviets' from
    # the revolution's round on (games/aa1914/README.md gives these numbers)
    assert [len(playing[r]) for r in playing] == TURNS[revolution]
    for r in range(BY_MAIL_FROM, LAST_ROUND + 1):
        assert sorted(p for (rr, p) in mails_in if rr == r) == playing[r]
        # every player receives one report a turn: the round's turns, each
        assert {who: mails_out.get((r, who), 0) for who in SEATS} == {who: len(playing[r]) for who in SEATS}
    audit = json.loads(ok(pbem("-C", table.root, "audit", "--json")).out)
    assert audit["ok"], audit["problems"]
    ok(pbem("-C", table.root, "unseal", "--force"))
    final = json.loads(ok(pbem("-C", table.root, "audit", "--final", "--json")).out)
    assert final["ok"], final["problems"]

