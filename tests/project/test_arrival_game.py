"""A power that enters mid-game (tests/games/arrival/): Grey is dormant at `pbem new` and
enters at the end of turn 1, seated by the step whose events make it enter.

Through the command line (in this process) and a real git repository: no player, key or
contribution for Grey at the start; the resolution that makes it enter gives it the seat of
the player the rules name (their keys and mail from then on, recorded in the log and in
campaign.yaml); or, when the rules leave it to the moderator, `pbem seat`. A dishonest
referee who leaves out, changes or makes up such a seat, and signs again, is named by the
audit.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from conftest import git

from pbem import audit, yamlio
from pbem.campaign import CONFIG, Campaign
from tests.conftest import Result
from tests.engine.test_audit_tamper import Referee

GAMES = Path(__file__).resolve().parents[1] / "games"
PLAYERS = ("blue=Ann <ann@arrival.invalid>", "gold=Bo <bo@arrival.invalid>")
SEAT = ("player", "email", "age", "ssh", "hotseat", "unsigned_ok")
Cli = Callable[..., Result]


@pytest.fixture
def cli(monkeypatch: pytest.MonkeyPatch, pbem: Cli) -> Cli:
    monkeypatch.setenv("PBEM_GAMES_PATH", str(GAMES))
    return pbem


def ok(r: Result) -> Result:
    assert r.code == 0, r.err + r.out
    return r


def new(cli: Cli, tmp_path: Path, *extra: str) -> tuple[Path, Path]:
    root, keys = tmp_path / "camp", tmp_path / "keys"
    ok(cli("new", root, "--game", "arrival", "--seed", "arrival", "--keys-dir", keys,
           *(a for p in PLAYERS for a in ("--player", p)), *extra))
    return root, keys


def status(cli: Cli, root: Path) -> dict[str, Any]:
    loaded: dict[str, Any] = json.loads(ok(cli("-C", root, "status", "--json")).out)
    return loaded


def orders(cli: Cli, root: Path, factions: str, key: Path, call: str = "hello", *,
           wrong_key: bool = False) -> Path:
    """The bot's file for `factions` with one call each, signed with `key` (with
    `wrong_key`, a key pbem sign itself would refuse: to see the campaign refuse it)."""
    path = root.parent / f"{factions.replace(',', '+')}-{len(list(root.parent.glob('*.yaml')))}.yaml"
    ok(cli("-C", root, "bot", factions, "--out", path))
    body = yamlio.load_trusted(path.read_text())
    if isinstance(body["faction"], list):
        body["orders"] = {f: [{"call": call}] for f in body["faction"]}
    else:
        body["orders"] = [{"call": call}]
    yamlio.write_atomic(path, yamlio.dump(body))
    ok(cli("-C", root, "sign", path, "--key", key, *(["--force"] if wrong_key else [])))
    return path


def turn_one(cli: Cli, root: Path, keys: Path) -> None:
    """The contribution round and turn 1, by Blue and Gold."""
    for faction in ("blue", "gold"):
        path = root.parent / f"{faction}-contribution.yaml"
        ok(cli("-C", root, "bot", faction, "--out", path))
        ok(cli("-C", root, "sign", path, "--key", keys / f"{faction}_ed25519"))
        ok(cli("-C", root, "apply", path))
    for faction in ("blue", "gold"):
        ok(cli("-C", root, "apply", orders(cli, root, faction, keys / f"{faction}_ed25519")))


def seat_of(root: Path, faction: str) -> dict[str, Any]:
    seat = Campaign.open(root).factions()[faction]
    return {k: seat[k] for k in SEAT if k in seat}


# ---------------------------------------------------------------------------------------
# the rules seat it


def test_a_dormant_power_has_no_seat_until_the_rules_give_it_gold_s(cli: Cli, tmp_path: Path) -> None:
    ok(cli("keygen", "--out", tmp_path / "cy"))
    for flag in ("--player", "--key"):
        value = "grey=Cy <cy@arrival.invalid>" if flag == "--player" else f"grey={tmp_path}/cy.card"
        r = cli("new", tmp_path / "refused", "--game", "arrival", flag, value)
        assert r.code == 2 and "grey enters later in the game" in r.err, r.err
        assert not (tmp_path / "refused").exists()
    root, keys = new(cli, tmp_path)
    assert sorted(p.name for p in keys.glob("*_ed25519")) == ["blue_ed25519", "gold_ed25519"]
    s = status(cli, root)
    assert s["unseated"] == ["grey", "pink"] and s["awaiting"] == ["blue", "gold"]  # contributions
    assert "grey" not in s["unsigned_ok"]
    text = ok(cli("-C", root, "status")).out
    assert "grey enters later in the game: it is seated when it does" in text
    assert "pink enters later in the game: it is seated when it does" in text
    first = next(iter(Campaign.open(root).entries()))
    assert first["contribute"] == ["blue", "gold"]
    assert first["settings"]["factions"]["grey"] == {"player": "nobody yet", "email": "",
                                                     "hotseat": False, "dormant": True}

    # Grey's orders are refused while nobody plays it (before it is even awaited)
    early = root.parent / "early.yaml"
    ok(cli("-C", root, "bot", "blue", "--out", early))
    body = yamlio.load_trusted(early.read_text())
    yamlio.write_atomic(early, yamlio.dump({**body, "faction": "grey"}))
    r = cli("-C", root, "check", early)
    assert r.code != 0 and "grey has no player yet (it enters later in the game)" in r.out + r.err

    turn_one(cli, root, keys)
    s = status(cli, root)
    assert (s["turn"], s["awaiting"], s["unseated"]) == (2, ["blue", "gold", "grey"], ["pink"])
    assert seat_of(root, "grey") == seat_of(root, "gold")  # the player of Gold, keys and all
    assert "dormant" not in Campaign.open(root).factions()["grey"]
    (step,) = [e for e in Campaign.open(root).entries() if e.get("seats")]
    assert step["type"] == "resolve" and step["seats"] == {"grey": seat_of(root, "gold")}
    assert "grey enters the game, played by Bo" in step["summary"]
    assert git(root, "show", "--stat", "--format=", "HEAD").count(CONFIG) == 1  # with the step

    # Grey's orders: signed by Gold's player, not by Blue's; one file for Gold and Grey
    wrong = orders(cli, root, "grey", keys / "blue_ed25519", wrong_key=True)
    r = cli("-C", root, "apply", wrong)
    assert r.code != 0 and "signature" in r.out + r.err
    ok(cli("-C", root, "apply", orders(cli, root, "blue", keys / "blue_ed25519")))
    both = orders(cli, root, "gold,grey", keys / "gold_ed25519", call="ahoy")
    ok(cli("-C", root, "apply", both))
    s = status(cli, root)  # Pink entered at the end of turn 2: the player of Blue's
    assert (s["turn"], s["awaiting"], s["unseated"]) == (3, ["blue", "gold", "grey", "pink"], [])
    assert seat_of(root, "pink") == seat_of(root, "blue")
    assert Campaign.open(root).state()["game"]["score"] == {"blue": 2, "gold": 2, "grey": 1,
                                                            "pink": 0}
    seated = [(e["seq"], sorted(e["seats"])) for e in Campaign.open(root).entries()
              if e.get("seats")]
    assert seated == [(7, ["grey"]), (10, ["pink"])]  # each once, by the step it entered at
    report = json.loads(ok(cli("-C", root, "audit", "--json")).out)
    assert report["ok"], report["problems"]
    # mail: Grey's report goes to the player of Gold, in Bo's one message
    ok(cli("-C", root, "mail", "--outbox", tmp_path / "outbox"))
    sent = sorted(p.name for p in (tmp_path / "outbox").glob("*.eml"))
    assert sent == ["0001-ann-arrival-invalid.eml", "0002-bo-arrival-invalid.eml"]
    assert "grey" in (tmp_path / "outbox" / sent[1]).read_text()


def test_the_games_list_says_which_power_enters_later(cli: Cli) -> None:
    assert ("factions: blue (Blue), gold (Gold), grey (Grey, enters later), pink (Pink, enters "
            "later)" in ok(cli("games")).out)


def test_an_option_outside_its_choices_is_refused_before_anything_is_written(
        cli: Cli, tmp_path: Path) -> None:
    r = cli("new", tmp_path / "camp", "--game", "arrival", "--option", "grey_to=purple")
    assert r.code == 2, r.out + r.err
    assert "--option grey_to=purple: expected one of gold, blue, pink, moderator" in r.err
    assert not (tmp_path / "camp").exists()
    assert "--option grey_to=gold|blue|pink|moderator (default gold)" in ok(cli("games")).out


def test_a_power_takes_on_its_hosts_seat_as_it_is_when_it_enters(cli: Cli, tmp_path: Path) -> None:
    """Gold's player has a new key before Grey enters: Grey takes on that one."""
    root, keys = new(cli, tmp_path)
    ok(cli("keygen", "--out", tmp_path / "bo2"))
    ok(cli("-C", root, "seat", "gold", "--player", "Bo <bo@arrival.invalid>",
           "--key", tmp_path / "bo2.card", "--reason", "Bo has a new machine"))
    keys_gold = tmp_path / "bo2_ed25519"
    for faction, key in (("blue", keys / "blue_ed25519"), ("gold", keys_gold)):
        path = root.parent / f"{faction}-contribution.yaml"
        ok(cli("-C", root, "bot", faction, "--out", path))
        ok(cli("-C", root, "sign", path, "--key", key))
        ok(cli("-C", root, "apply", path))
    ok(cli("-C", root, "apply", orders(cli, root, "blue", keys / "blue_ed25519")))
    ok(cli("-C", root, "apply", orders(cli, root, "gold", keys_gold)))
    assert seat_of(root, "grey") == seat_of(root, "gold")
    first = next(iter(Campaign.open(root).entries()))["settings"]["factions"]["gold"]
    assert seat_of(root, "grey")["ssh"] != first["ssh"]  # the new key, not the first
    report = json.loads(ok(cli("-C", root, "audit", "--json")).out)
    assert report["ok"], report["problems"]


def test_rules_that_seat_a_power_with_a_player_who_has_none_are_refused(
        cli: Cli, tmp_path: Path) -> None:
    """grey_to=pink: Grey would enter played by Pink's player, and Pink has no seat yet."""
    root, keys = new(cli, tmp_path, "--option", "grey_to=pink")
    head = git(root, "rev-parse", "HEAD")
    r = None
    try:
        turn_one(cli, root, keys)
    except AssertionError as exc:
        r = str(exc)
    assert r is not None and ("the rules of arrival seat a power wrongly: grey enters played by "
                              "the player of pink, who has no seat") in r
    assert git(root, "rev-parse", "HEAD") != head  # the orders were recorded
    assert Campaign.open(root).state()["game"]["turn"] == 1  # the turn did not resolve
    assert "dormant" in Campaign.open(root).factions()["grey"]


def test_the_moderator_seats_a_power_the_rules_leave_to_them(cli: Cli, tmp_path: Path) -> None:
    root, keys = new(cli, tmp_path, "--option", "grey_to=moderator")
    turn_one(cli, root, keys)
    s = status(cli, root)
    assert s["awaiting"] == ["blue", "gold", "grey"] and s["unseated"] == ["grey", "pink"]
    assert "grey has entered the game and has no player yet: seat it with 'pbem seat grey" in \
        ok(cli("-C", root, "status")).out
    assert not [e for e in Campaign.open(root).entries() if e.get("seats")]
    early = orders(cli, root, "grey", keys / "gold_ed25519", wrong_key=True)
    r = cli("-C", root, "apply", early)
    assert r.code != 0 and "grey has no player yet" in r.out + r.err

    ok(cli("keygen", "--out", tmp_path / "cy"))
    ok(cli("-C", root, "seat", "grey", "--player", "Cy <cy@arrival.invalid>",
           "--key", tmp_path / "cy.card", "--reason", "Cy takes on Grey"))
    assert status(cli, root)["unseated"] == ["pink"]
    seat = seat_of(root, "grey")
    assert (seat["player"], seat["email"]) == ("Cy", "cy@arrival.invalid")
    r = cli("-C", root, "apply", orders(cli, root, "grey", keys / "gold_ed25519", wrong_key=True))
    assert r.code != 0  # Gold's key is not Grey's now
    ok(cli("-C", root, "apply", orders(cli, root, "grey", tmp_path / "cy_ed25519")))
    assert status(cli, root)["received"] == ["grey"]
    report = json.loads(ok(cli("-C", root, "audit", "--json")).out)
    assert report["ok"], report["problems"]


# ---------------------------------------------------------------------------------------
# a dishonest referee


@pytest.fixture
def played(cli: Cli, tmp_path: Path) -> Path:
    """Turn 1 played: step 7 resolves it and makes Grey enter, Gold's player's."""
    root, keys = new(cli, tmp_path)
    turn_one(cli, root, keys)
    assert list(Campaign.open(root).entries())[6]["seats"]
    ok(cli("-C", root, "apply", orders(cli, root, "blue", keys / "blue_ed25519")))
    return root


def problems(root: Path) -> list[str]:
    return list(audit.audit(root)["problems"])


def config_with(root: Path, seat: dict[str, Any], faction: str = "grey",
                step: int = 7) -> Callable[[int, dict[str, bytes | None]], None]:
    """campaign.yaml as a careful cheat commits it from `step` on: `faction`'s seat as given."""
    config = yamlio.load_trusted((root / CONFIG).read_text())
    config["factions"][faction] = seat
    text = yamlio.dump(config).encode()

    def files(n: int, changes: dict[str, bytes | None]) -> None:
        if n >= step - 1:
            changes[CONFIG] = text

    return files


def test_a_power_that_enters_without_its_seat(played: Path) -> None:
    cheat = Referee(played)
    del cheat.entry(7)["seats"]
    cheat.rewrite(files=config_with(played, cheat.entry(1)["settings"]["factions"]["grey"]))
    assert problems(played) == ["log/000007.yaml: grey enters the game here, but the step does "
                                "not seat it"]


def test_a_power_seated_with_another_key(played: Path) -> None:
    """The seat given to Grey holds the referee's own key, not Gold's player's."""
    cheat = Referee(played)
    grey = cheat.entry(7)["seats"]["grey"]
    grey["ssh"] = Campaign.open(played).config["referee"]["ssh"]
    cheat.rewrite(files=config_with(played, grey))
    assert problems(played) == ["log/000007.yaml: seats grey otherwise than the rules give (the "
                                "seat of the player who takes it on)"]


def test_a_seat_the_rules_do_not_give(played: Path) -> None:
    """Step 4 (the set-up) also reseats Blue with Gold's player."""
    cheat = Referee(played)
    cheat.entry(4)["seats"] = {"blue": cheat.entry(7)["seats"]["grey"]}
    cheat.rewrite(files=config_with(played, dict(cheat.entry(7)["seats"]["grey"]), "blue", 4))
    found = problems(played)
    assert found[0] == "log/000004.yaml: seats blue, which the rules do not make enter here"
    assert [p for p in found if "seat" in p and "blue" in p] == found[:1]


def test_a_contribution_round_that_asks_the_dormant_power(played: Path) -> None:
    cheat = Referee(played)
    cheat.entry(1)["contribute"] = ["blue", "gold", "grey"]
    cheat.rewrite()
    found = problems(played)
    assert found[0] == ("log/000001.yaml: the contribution round asks blue, gold, grey, not "
                        "every faction of the game (differs for grey)")
