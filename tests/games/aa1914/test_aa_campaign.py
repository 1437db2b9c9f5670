"""An Axis & Allies 1914 campaign through the command line (in this process, a real git
repository): three players seating several powers each, the contribution round, then a
whole round of the bot's turns signed and applied, the treasuries after it, and the audit.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path
from typing import Any

from pbem.campaign import Campaign
from tests.conftest import Result, key_of

Cli = Callable[..., Result]
SEATS = {"ann": ["austria_hungary", "germany", "ottomans"],
         "bob": ["russia", "france", "britain"],
         "cat": ["italy", "usa"]}
ORDER = ["austria_hungary", "russia", "germany", "france", "britain", "ottomans", "italy", "usa"]


def ok(r: Result) -> Result:
    assert r.code == 0, r.err + r.out
    return r


def status(pbem: Cli, root: Path) -> dict[str, Any]:
    loaded: dict[str, Any] = json.loads(ok(pbem("-C", root, "status", "--json")).out)
    return loaded


def player_of(power: str) -> str:
    return next(p for p, powers in SEATS.items() if power in powers)


def test_the_games_list_shows_the_soviet_power_entering_later(pbem: Cli) -> None:
    games = {g["id"]: g for g in json.loads(ok(pbem("games", "--json")).out)}
    factions = games["aa1914"]["factions"]
    assert [f["id"] for f in factions] == [*ORDER, "soviets"]
    assert [f["id"] for f in factions if f.get("dormant")] == ["soviets"]
    assert "soviets (Soviet Russia, enters later)" in ok(pbem("games")).out


def test_three_players_play_a_whole_round_by_signed_files(pbem: Cli, tmp_path: Path) -> None:
    root, keys = tmp_path / "camp", tmp_path / "keys"
    players = [a for p, powers in SEATS.items()
               for a in ("--player", f"{','.join(powers)}={p.title()} <{p}@aa.invalid>")]
    ok(pbem("new", root, "--game", "aa1914", "--seed", "aa", "--keys-dir", keys, *players))
    assert sorted(status(pbem, root)["awaiting"]) == sorted(ORDER)  # the contribution round
    for player, powers in SEATS.items():
        path = tmp_path / f"{player}-salt.yaml"
        ok(pbem("-C", root, "bot", ",".join(powers), "--out", path))
        ok(pbem("-C", root, "sign", path, "--key", key_of(keys, powers[0])))
        ok(pbem("-C", root, "apply", path))
    s = status(pbem, root)
    assert (s["turn"], s["phase"], s["awaiting"]) == (1, "turn", ["austria_hungary"])
    assert "Austria-Hungary: buy units with 26 IPC" in ok(pbem("-C", root, "status")).out

    spent: dict[str, int] = {}
    earned: dict[str, int] = {}
    for power in ORDER:
        assert status(pbem, root)["awaiting"] == [power]
        path = tmp_path / f"{power}.yaml"
        ok(pbem("-C", root, "bot", power, "--seed", "1", "--out", path))
        ok(pbem("-C", root, "sign", path, "--key", key_of(keys, power)))
        ok(pbem("-C", root, "check", path))
        ok(pbem("-C", root, "apply", path))
        last = list(Campaign.open(root).entries())[-1]
        assert last["type"] == "resolve" and last["phase"] == "turn"
        spent[power] = sum(e["cost"] for e in last["events"] if e["type"] == "bought")
        earned[power] = sum(e["ipc"] for e in last["events"] if e["type"] == "income")
    game = Campaign.open(root).state()["game"]
    assert (game["turn"], game["power"]) == (2, "austria_hungary")
    start = {"austria_hungary": 26, "russia": 25, "germany": 35, "france": 24, "britain": 30,
             "ottomans": 16, "italy": 14, "usa": 20}
    taken = [e for e in (x for entry in Campaign.open(root).entries() for x in entry.get("events", []))
             if e["type"] == "capital_taken"]
    assert not taken  # (no capital falls in the first round)
    assert game["treasury"] == {p: n - spent[p] + earned[p] for p, n in start.items()}
    assert sum(spent.values()) > 0
    report = json.loads(ok(pbem("-C", root, "audit", "--json")).out)
    assert report["ok"], report["problems"]
