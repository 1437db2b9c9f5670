"""The command-line contract of docs/design.md ("Command line"): help, exit codes, FILE:LINE
problems, the log."""

from __future__ import annotations

import json
import re
import tempfile
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
import typer

import pbem.cli
from pbem import api, yamlio
from tests.conftest import git, play, run_pbem, tree_state

# every command of the command-line contract (docs/design.md "Commands"), as pbem/cli/
# itself registers them
DESIGN_COMMANDS = ["games", "new", "keygen", "status", "check", "sign", "apply", "resolve", "bot",
                   "report", "mail", "inbox", "audit", "dice", "log", "undo", "adjust", "reveal",
                   "unseal", "publish", "demo"]


# ---------------------------------------------------------------------------------------
# help


def _walk(cmd: Any, prefix: str) -> list[tuple[str, Any]]:
    # typer may bring its own copy of click, so look for sub-commands by duck typing
    out = [(prefix, cmd)]
    if isinstance(getattr(cmd, "commands", None), dict):
        for name, sub in cmd.commands.items():
            out += _walk(sub, f"{prefix} {name}")
    return out


def test_every_command_and_option_has_help() -> None:
    root = typer.main.get_command(pbem.cli.app)
    missing = []
    commands = _walk(root, "pbem")
    assert len(commands) > len(DESIGN_COMMANDS)
    for name, cmd in commands:
        if not (cmd.help or cmd.short_help):
            missing.append(f"command '{name}'")
        for param in cmd.params:
            if not (getattr(param, "help", None) or "").strip():
                label = "/".join(getattr(param, "opts", [])) or param.name
                missing.append(f"'{name}' {param.param_type_name} {label}")
    assert not missing, "no help text: " + "; ".join(missing)


def test_help_lists_the_commands(pbem) -> None:
    r = pbem("--help")
    assert r.code == 0
    listed = set(re.findall(r"^\W*([a-z]+)\s{2,}\S", r.out, re.M))
    absent = [c for c in DESIGN_COMMANDS if c not in listed]
    assert not absent, f"pbem --help does not list {absent}:\n{r.out}"


def test_a_new_process_has_every_command_of_the_contract() -> None:
    # the product as a user starts it: no test registers a command of its own
    r = run_pbem("--help")
    assert r.code == 0, r.err
    listed = set(re.findall(r"^\W*([a-z]+)\s{2,}\S", r.out, re.M))
    absent = [c for c in DESIGN_COMMANDS if c not in listed]
    assert not absent, f"python -m pbem --help does not list {absent}:\n{r.out}"


@pytest.mark.parametrize("command", DESIGN_COMMANDS)
def test_each_command_has_help(pbem, command: str) -> None:
    r = pbem(command, "--help")
    assert r.code == 0
    assert "Usage:" in r.out and command in r.out


USAGE_ERRORS = {
    "unknown-command": ["frobnicate"],
    "missing-option": ["new", "somewhere"],
    "unknown-option": ["status", "--bogus"],
    "bad-value": ["demo", "--turns", "many"],
    "missing-reason": ["undo"],
}


@pytest.mark.parametrize("args", list(USAGE_ERRORS.values()), ids=list(USAGE_ERRORS))
def test_usage_errors_exit_2(pbem, args: list[str], tmp_path: Path,
                             monkeypatch: pytest.MonkeyPatch) -> None:
    crashes = tmp_path / "crashes"
    crashes.mkdir()
    monkeypatch.setattr(tempfile, "tempdir", str(crashes))
    monkeypatch.chdir(tmp_path)
    r = pbem(*args)
    assert list(crashes.iterdir()) == [], "a usage error was treated as a crash"
    assert "unexpected" not in r.err, r.err
    assert r.code == 2, r.err


def test_no_arguments_prints_help(pbem, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    crashes = tmp_path / "crashes"
    crashes.mkdir()
    monkeypatch.setattr(tempfile, "tempdir", str(crashes))
    r = pbem()
    assert "Usage:" in r.out + r.err


# ---------------------------------------------------------------------------------------
# games / new


def test_games_json(pbem) -> None:
    r = pbem("games", "--json")
    assert r.code == 0
    games = {g["id"]: g for g in json.loads(r.out)}
    rr = games["red_russia"]
    assert rr["name"]
    assert [f["id"] for f in rr["factions"]] == ["red", "siberian", "south", "north"]
    options = {o["id"]: o for o in rr["options"]}
    assert options, "red_russia has options"
    for o in options.values():
        assert "default" in o and o["help"]
    assert options["czech_legion"]["default"] is False


def test_games_text(pbem) -> None:
    r = pbem("games")
    assert r.code == 0
    assert "red_russia" in r.out and "siberian" in r.out


def test_new_then_status(pbem, tmp_path: Path) -> None:
    root = tmp_path / "c1"
    r = pbem("new", root, "--game", "red_russia", "--no-contributions", "--hot-seat", "--seed", "s")
    assert r.code == 0, r.err
    assert "NOT secret" in r.out
    assert "Next: set your address as referee" in r.out and "'pbem mail' writes each player" in r.out
    r = pbem("-C", root, "status", "--json")
    assert r.code == 0, r.err
    s = json.loads(r.out)
    assert {"game", "turn", "phase", "awaiting", "head"} <= set(s)
    assert s["game"] == "red_russia"
    assert s["turn"] == 0
    assert sorted(s["awaiting"]) == ["north", "siberian", "south"]
    assert s["head"] == yamlio.read_trusted(root / "state.yaml")["head"]
    text = pbem("-C", root, "status").out
    assert f"head: {s['head']} (the head: line an orders file names)" in text
    # what each awaited faction must still place (ORDERS.md says status shows it), not red's
    assert sorted(s["todo"]) == ["north", "siberian", "south"]
    assert "  siberian must still:\n    place " in text and "red must" not in text
    assert "    place pilsudski, poland-inf-01 in one of: Lublin, Lwow, Poznan, Warsaw (3.0)" in text
    report = " ".join(pbem("-C", root, "report", "--for", "siberian").out.split())  # its report
    assert "- place pilsudski, poland-inf-01 in one of: Lublin, Lwow, Poznan, Warsaw (3.0)" in report
    assert "must still" not in pbem("-C", root, "report", "--for", "red").out
    assert git(root, "status", "--porcelain") == ""


def test_new_with_players_and_options(pbem, tmp_path: Path) -> None:
    root = tmp_path / "c2"
    r = pbem("new", root, "--game", "red_russia", "--no-contributions", "--hot-seat", "--seed", "s",
             "--player", "red=Lenin <lenin@example.org>", "--option", "czech_legion=true")
    assert r.code == 0, r.err
    config = yamlio.read_trusted(root / "campaign.yaml")
    assert config["factions"]["red"] == {"player": "Lenin", "email": "lenin@example.org",
                                         "hotseat": False}
    assert config["factions"]["north"]["hotseat"] is True
    assert config["options"]["czech_legion"] is True


def test_new_into_non_empty_folder_is_usage_error(pbem, tmp_path: Path) -> None:
    root = tmp_path / "full"
    root.mkdir()
    (root / "keep.txt").write_text("mine\n")
    r = pbem("new", root, "--game", "red_russia", "--no-contributions", "--hot-seat")
    assert r.code == 2
    assert "not empty" in r.err
    assert sorted(p.name for p in root.iterdir()) == ["keep.txt"]


def test_new_unknown_game_suggests(pbem, tmp_path: Path) -> None:
    r = pbem("new", tmp_path / "x", "--game", "red_rusia")
    assert r.code == 2
    assert "'red_russia'" in r.err and "did you mean" in r.err
    assert not (tmp_path / "x").exists()


def test_new_unknown_player_faction(pbem, tmp_path: Path) -> None:
    r = pbem("new", tmp_path / "x", "--game", "red_russia", "--no-contributions", "--hot-seat", "--player", "reds=Lenin <l@x.org>")
    assert r.code == 2
    assert "unknown faction 'reds'" in r.err and "'red'" in r.err
    assert not (tmp_path / "x").exists()


def test_new_unknown_option(pbem, tmp_path: Path) -> None:
    r = pbem("new", tmp_path / "x", "--game", "red_russia", "--no-contributions", "--hot-seat", "--option", "czech_legon=true")
    assert r.code == 2
    assert "czech_legion" in r.err


# ---------------------------------------------------------------------------------------
# the orders pipeline


@pytest.fixture
def camp(new_campaign: Callable[..., Path]) -> Path:
    return new_campaign("camp")


def _north_orders(root: Path) -> list[dict[str, Any]]:
    orders: list[dict[str, Any]] = api.bot(root, "north")["orders"]
    return orders


def _orders_text(orders: list[dict[str, Any]], *, campaign: str = "camp", turn: int = 0,
                 phase: str = "setup-place", faction: str = "north", extra: str = "") -> str:
    """Header on lines 1-4, extra lines, then 'orders:' and one order per line."""
    lines = [f"campaign: {campaign}", f"turn: {turn}", f"phase: {phase}", f"faction: {faction}"]
    lines += [x for x in extra.splitlines() if x]
    lines.append("orders:")
    for order in orders:
        lines.append("  - " + json.dumps(order))
    return "\n".join(lines) + "\n"


def _problem_lines(err: str, name: str) -> list[tuple[int, str]]:
    return [(int(m.group(1)), m.group(2))
            for m in re.finditer(rf"^\s*{re.escape(name)}:(\d+): (.+)$", err, re.M)]


def _rejected(pbem, root: Path, path: Path) -> list[tuple[int, str]]:
    before = tree_state(root)
    r = pbem("-C", root, "apply", path)
    assert r.code == 1, (r.out, r.err)
    assert "Traceback" not in r.err
    assert tree_state(root) == before, "a rejected orders file changed the campaign"
    found = _problem_lines(r.err, str(path))
    assert found, f"no FILE:LINE: message on stderr:\n{r.err}"
    # check gives the same verdict
    c = pbem("-C", root, "check", path)
    assert c.code == 1
    assert _problem_lines(c.err, str(path)) == found
    assert tree_state(root) == before
    return found


def _one(found: list[tuple[int, str]], line: int, *words: str) -> None:
    assert len(found) == 1, found
    assert found[0][0] == line, found
    for w in words:
        assert w in found[0][1], found


def test_yaml_syntax_error(pbem, camp: Path, tmp_path: Path) -> None:
    f = tmp_path / "syntax.yaml"
    f.write_text("campaign: camp\nturn: 0\nphase: setup-place: x\nfaction: north\norders: []\n")
    _one(_rejected(pbem, camp, f), 3, "YAML")


def test_wrong_campaign(pbem, camp: Path, tmp_path: Path) -> None:
    f = tmp_path / "o.yaml"
    f.write_text(_orders_text(_north_orders(camp), campaign="rr-other"))
    _one(_rejected(pbem, camp, f), 1, "rr-other", "camp")


def test_wrong_turn(pbem, camp: Path, tmp_path: Path) -> None:
    f = tmp_path / "o.yaml"
    f.write_text(_orders_text(_north_orders(camp), turn=3))
    _one(_rejected(pbem, camp, f), 2, "turn 3")


def test_wrong_phase(pbem, camp: Path, tmp_path: Path) -> None:
    f = tmp_path / "o.yaml"
    f.write_text(_orders_text(_north_orders(camp), phase="action"))
    _one(_rejected(pbem, camp, f), 3, "'action'", "setup-place")


def test_faction_not_awaited(pbem, camp: Path, tmp_path: Path) -> None:
    f = tmp_path / "o.yaml"
    f.write_text(_orders_text([], faction="red"))
    _one(_rejected(pbem, camp, f), 4, "red", "not awaited")


def test_unknown_faction_suggests(pbem, camp: Path, tmp_path: Path) -> None:
    f = tmp_path / "o.yaml"
    f.write_text(_orders_text([], faction="nort"))
    _one(_rejected(pbem, camp, f), 4, "'nort'", "did you mean 'north'")


def test_unknown_top_level_key_suggests(pbem, camp: Path, tmp_path: Path) -> None:
    f = tmp_path / "o.yaml"
    f.write_text(_orders_text(_north_orders(camp), extra="oders: []"))
    _one(_rejected(pbem, camp, f), 5, "'oders'", "did you mean 'orders'")


def test_unknown_zone_suggests(pbem, camp: Path, tmp_path: Path) -> None:
    orders = _north_orders(camp)
    orders[2]["place"]["zone"] = "Moskow"
    f = tmp_path / "o.yaml"
    f.write_text(_orders_text(orders))
    found = _rejected(pbem, camp, f)
    assert (8, found[0][1]) == found[0]
    assert "unknown zone 'Moskow'" in found[0][1] and "did you mean 'Moscow'" in found[0][1]
    assert len(found) == 1


def test_zone_names_are_matched_forgivingly(pbem, camp: Path, tmp_path: Path) -> None:
    orders = _north_orders(camp)
    for order in orders:
        order["place"]["zone"] = order["place"]["zone"].upper()
    f = tmp_path / "o.yaml"
    f.write_text(_orders_text(orders))
    r = pbem("-C", camp, "check", f)
    assert r.code == 0, r.err


def test_unit_placed_where_it_may_not_go(pbem, camp: Path, tmp_path: Path) -> None:
    orders = _north_orders(camp)
    moved = orders[0]["place"]["units"][0]
    orders[0]["place"]["zone"] = "Moscow"
    f = tmp_path / "o.yaml"
    f.write_text(_orders_text(orders))
    found = _rejected(pbem, camp, f)
    assert any(line == 6 and moved in msg and "cannot be placed in Moscow" in msg
               for line, msg in found), found


def test_header_problems_all_reported_at_once(pbem, camp: Path, tmp_path: Path) -> None:
    f = tmp_path / "o.yaml"
    f.write_text(_orders_text(_north_orders(camp), campaign="zzz", turn=7, phase="action",
                              extra="oders: 1\nstandin: {}"))
    found = _rejected(pbem, camp, f)
    assert sorted(line for line, _ in found) == [1, 2, 3, 5, 6], found
    r = pbem("-C", camp, "apply", f)
    assert "rejected: 5 problems" in r.err


def test_orders_problems_all_reported_at_once(pbem, camp: Path, tmp_path: Path) -> None:
    orders = _north_orders(camp)
    orders[0]["place"]["zone"] = "Moscow"  # line 6: may not go there
    orders[1]["place"]["zone"] = "Moskow"  # line 7: unknown zone
    orders[2]["place"]["units"].append("north-inf-99")  # line 8: unknown unit
    orders.append({"plaec": {"zone": "Kiev", "units": []}})  # unknown order
    last = 5 + len(orders)
    f = tmp_path / "o.yaml"
    f.write_text(_orders_text(orders))
    found = _rejected(pbem, camp, f)
    lines = [line for line, _ in found]
    for want in (6, 7, 8, last):
        assert want in lines, found
    assert any("did you mean 'place'" in msg for line, msg in found if line == last), found
    assert len(found) >= 4


def test_missing_orders_file(pbem, camp: Path, tmp_path: Path) -> None:
    before = tree_state(camp)
    r = pbem("-C", camp, "apply", tmp_path / "nope.yaml")
    assert r.code == 1
    assert "nope.yaml" in r.err
    assert tree_state(camp) == before


def test_one_bad_file_rejects_all(pbem, camp: Path, tmp_path: Path) -> None:
    good = tmp_path / "north.yaml"
    yamlio.write_atomic(good, yamlio.dump(api.bot(camp, "north")))
    bad = tmp_path / "south.yaml"
    bad.write_text(_orders_text([], faction="south", turn=9))
    before = tree_state(camp)
    r = pbem("-C", camp, "apply", good, bad)
    assert r.code == 1
    assert tree_state(camp) == before


def test_check_good_file_changes_nothing_and_apply_records(pbem, camp: Path,
                                                           tmp_path: Path) -> None:
    f = tmp_path / "north.yaml"
    r = pbem("-C", camp, "bot", "north", "--out", f)
    assert r.code == 0, r.err
    before = tree_state(camp)
    r = pbem("-C", camp, "check", f)
    assert r.code == 0, r.err
    assert "OK" in r.out
    assert tree_state(camp) == before
    r = pbem("-C", camp, "apply", f)
    assert r.code == 0, r.err
    head, porcelain = tree_state(camp)
    assert head != before[0] and porcelain == ""
    assert git(camp, "rev-list", "--count", f"{before[0]}..{head}") == "1"
    s = api.status(camp)
    assert s["received"] == ["north"] and "north" not in s["awaiting"]
    assert s["seq"] == 2


# ---------------------------------------------------------------------------------------
# exit codes


def test_audit_clean_campaign(pbem, camp: Path) -> None:
    r = pbem("-C", camp, "audit")
    assert r.code == 0, r.err
    assert "OK" in r.out
    r = pbem("-C", camp, "audit", "--json")
    report = json.loads(r.out)
    assert report["ok"] is True and report["problems"] == []
    assert {"entries", "rolls", "signatures", "commitments"} <= set(report["checked"])


def test_outside_a_campaign(tmp_path: Path) -> None:
    empty = tmp_path / "empty"
    empty.mkdir()
    r = run_pbem("status", cwd=empty)
    assert r.code == 1
    lines = r.err.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("Error: "), r.err
    assert "Traceback" not in r.err and r.out == ""


def test_dash_c(pbem, camp: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(tmp_path)
    r = pbem("-C", camp.name, "status", "--json")
    assert r.code == 0, r.err
    assert json.loads(r.out)["campaign"] == "camp"
    monkeypatch.chdir(camp)
    r = pbem("status", "--json")
    assert r.code == 0 and json.loads(r.out)["campaign"] == "camp"


def test_undo_empty_reason_is_usage_error(pbem, camp: Path) -> None:
    before = tree_state(camp)
    r = pbem("-C", camp, "undo", "--reason", "")
    assert r.code == 2
    assert "reason" in r.err
    assert tree_state(camp) == before


def test_undo_nothing_in_force(pbem, camp: Path) -> None:
    before = tree_state(camp)
    r = pbem("-C", camp, "undo", "--reason", "oops")
    assert r.code == 1
    assert tree_state(camp) == before


def test_resolve_with_missing_orders_then_nmr(pbem, camp: Path) -> None:
    before = tree_state(camp)
    r = pbem("-C", camp, "resolve")
    assert r.code == 1
    assert "--nmr" in r.err
    assert tree_state(camp) == before
    r = pbem("-C", camp, "resolve", "--nmr", "--json")
    assert r.code == 0, r.err
    out = json.loads(r.out)
    assert out["resolved"][0]["phase"] == "setup-place"
    assert sorted(out["resolved"][0]["nmr"]) == ["north", "siberian", "south"]
    s = api.status(camp)
    assert s["phase"] == "setup-place-red" and s["awaiting"] == ["red"]
    assert pbem("-C", camp, "audit").code == 0


def test_bot_for_a_faction_not_awaited(pbem, camp: Path) -> None:
    assert pbem("-C", camp, "bot", "red").code == 1
    assert pbem("-C", camp, "bot", "reds").code == 2


# ---------------------------------------------------------------------------------------
# log, commits, tags


def test_log_commits_and_turn_tags(pbem, camp: Path) -> None:
    play(camp, until_turn=2, phase="action")
    r = pbem("-C", camp, "log", "--json")
    assert r.code == 0
    entries = json.loads(r.out)
    for e in entries:
        assert {"seq", "turn", "phase", "type", "faction", "summary"} <= set(e)
    assert [e["seq"] for e in entries] == list(range(1, len(entries) + 1))
    assert {e["type"] for e in entries} >= {"new", "orders", "resolve"}
    assert all(e["faction"] for e in entries if e["type"] == "orders")
    # each step is one commit that adds exactly its log entry and names it
    for e in entries:
        name = f"log/{e['seq']:06d}.yaml"
        added = git(camp, "log", "--format=%H", "--diff-filter=A", "--", name).split()
        assert len(added) == 1, name
        files = git(camp, "show", "--name-only", "--format=", added[0]).split()
        assert [f for f in files if f.startswith("log/")] == [name]
        message = git(camp, "log", "-1", "--format=%s", added[0])
        if e["type"] == "new":
            assert message.startswith("new")
        else:
            assert message == f"step {e['seq']}: {e['summary']}"
    tags = git(camp, "tag", "-l").split()
    assert "turn-0001" in tags and "turn-0002" in tags
    # the tag marks the step where the turn began
    first_t2 = min(e["seq"] for e in entries if e["turn"] == 2)
    tagged = git(camp, "rev-parse", "turn-0002^{commit}")
    assert tagged == git(camp, "log", "--format=%H", "--diff-filter=A", "--",
                         f"log/{first_t2 - 1:06d}.yaml")
    r = pbem("-C", camp, "log")
    assert r.code == 0 and len(r.out.strip().splitlines()) == len(entries)
    assert pbem("-C", camp, "audit").code == 0


# ---------------------------------------------------------------------------------------
# undo / adjust


def test_undo_after_apply(pbem, camp: Path, tmp_path: Path) -> None:
    f = tmp_path / "siberian.yaml"
    assert pbem("-C", camp, "bot", "siberian", "--out", f).code == 0
    before = api.status(camp)
    state_before = yamlio.read_trusted(camp / "state.yaml")
    assert pbem("-C", camp, "apply", f).code == 0
    assert "siberian" not in api.status(camp)["awaiting"]
    r = pbem("-C", camp, "undo", "--reason", "typo")
    assert r.code == 0, r.err
    after = api.status(camp)
    assert after["awaiting"] == before["awaiting"] and after["received"] == []
    assert after["seq"] == 3
    state_after = yamlio.read_trusted(camp / "state.yaml")
    assert state_after["game"] == state_before["game"]
    assert state_after["pending"] == {}
    last = json.loads(pbem("-C", camp, "log", "--json").out)[-1]
    assert last["type"] == "undo" and "typo" in last["summary"]
    assert git(camp, "status", "--porcelain") == ""
    # the orders can be sent again after an undo
    assert pbem("-C", camp, "apply", f).code == 0
    assert api.status(camp)["received"] == ["siberian"]




def test_audit_after_undo(pbem, camp: Path, tmp_path: Path) -> None:
    f = tmp_path / "siberian.yaml"
    assert pbem("-C", camp, "bot", "siberian", "--out", f).code == 0
    assert pbem("-C", camp, "apply", f).code == 0
    assert pbem("-C", camp, "undo", "--reason", "typo").code == 0
    r = pbem("-C", camp, "audit")
    assert r.code == 0, r.err


def test_adjust_set_resources(pbem, camp: Path, tmp_path: Path) -> None:
    money = yamlio.read_trusted(camp / "state.yaml")["game"]["money"]
    f = tmp_path / "adjust.yaml"
    f.write_text(f"- type: set_resources\n  faction: red\n  money: {money['red'] + 7}\n")
    r = pbem("-C", camp, "adjust", f, "--reason", "lost mail")
    assert r.code == 0, r.err
    state = yamlio.read_trusted(camp / "state.yaml")
    assert state["game"]["money"] == {**money, "red": money["red"] + 7}
    last = json.loads(pbem("-C", camp, "log", "--json").out)[-1]
    assert last["type"] == "adjust" and "lost mail" in last["summary"]
    assert git(camp, "status", "--porcelain") == ""


def test_audit_after_adjust(pbem, camp: Path, tmp_path: Path) -> None:
    f = tmp_path / "adjust.yaml"
    f.write_text("- type: set_resources\n  faction: red\n  money: 3\n")
    assert pbem("-C", camp, "adjust", f, "--reason", "lost mail").code == 0
    r = pbem("-C", camp, "audit")
    assert r.code == 0, r.err


def test_adjust_unknown_event_type(pbem, camp: Path, tmp_path: Path) -> None:
    f = tmp_path / "adjust.yaml"
    f.write_text("events:\n  - type: set_resources\n    faction: red\n    money: 1\n"
                 "  - type: teleport\n    unit: red-inf-01\n")
    before = tree_state(camp)
    r = pbem("-C", camp, "adjust", f, "--reason", "test")
    assert r.code == 1
    assert f"{f}:5:" in r.err and "teleport" in r.err
    assert tree_state(camp) == before


def test_adjust_needs_a_reason(pbem, camp: Path, tmp_path: Path) -> None:
    f = tmp_path / "adjust.yaml"
    f.write_text("- type: set_resources\n  faction: red\n  money: 1\n")
    before = tree_state(camp)
    assert pbem("-C", camp, "adjust", f, "--reason", " ").code == 2
    assert tree_state(camp) == before


# ---------------------------------------------------------------------------------------
# unexpected errors


def _boom(*_args: object, **_kwargs: object) -> None:
    raise RuntimeError("boom in status")


def test_unexpected_error_is_one_line(pbem, camp: Path, tmp_path: Path,
                                      monkeypatch: pytest.MonkeyPatch) -> None:
    crashes = tmp_path / "crashes"
    crashes.mkdir()
    monkeypatch.setattr(tempfile, "tempdir", str(crashes))
    monkeypatch.setattr(api, "status", _boom)
    r = pbem("-C", camp, "status")
    assert r.code not in (0, 1, 2, 3, 4)
    lines = r.err.strip().splitlines()
    assert len(lines) == 1, r.err
    assert "Traceback" not in r.err
    written = list(crashes.iterdir())
    assert len(written) == 1 and str(written[0]) in lines[0]
    assert "RuntimeError: boom in status" in written[0].read_text()
    assert "--debug" in lines[0]


def test_unexpected_error_with_debug_shows_traceback(pbem, camp: Path, tmp_path: Path,
                                                     monkeypatch: pytest.MonkeyPatch) -> None:
    crashes = tmp_path / "crashes"
    crashes.mkdir()
    monkeypatch.setattr(tempfile, "tempdir", str(crashes))
    monkeypatch.setattr(api, "status", _boom)
    r = pbem("--debug", "-C", camp, "status")
    assert r.code != 0
    assert "Traceback" in r.err and "RuntimeError: boom in status" in r.err
    # the next run without --debug is quiet again
    r = pbem("-C", camp, "status")
    assert "Traceback" not in r.err


def test_audit_after_an_adjustment_in_the_middle_of_a_campaign(pbem, tmp_path: Path) -> None:
    # a campaign with dice, salts and sealed orders behind it: the snapshot after the
    # adjustment keeps every engine field, so it is still the fold of the log
    camp = tmp_path / "played"
    assert pbem("demo", camp, "--turns", "1").code == 0
    f = tmp_path / "adjust.yaml"
    f.write_text("- type: set_resources\n  faction: red\n  money: 20\n")
    assert pbem("-C", camp, "adjust", f, "--reason", "a lost mail").code == 0
    r = pbem("-C", camp, "audit")
    assert r.code == 0, r.out + r.err
    files = []
    for faction in ("red", "siberian", "south", "north"):  # and the campaign plays on
        files.append(tmp_path / f"{faction}.yaml")
        assert pbem("-C", camp, "bot", faction, "--out", files[-1]).code == 0
    assert pbem("-C", camp, "apply", *files).code == 0
    r = pbem("-C", camp, "audit")
    assert r.code == 0, r.out + r.err


def test_option_metavars_read_like_the_help_not_like_python_types() -> None:
    # `--reason REASON`, not `--reason <str>` nor `<list[str]>`
    for command in [*DESIGN_COMMANDS, "seat", "remind", "tick"]:
        r = run_pbem(command, "--help")
        assert r.code == 0, (command, r.err)
        for line in r.out.splitlines():
            if line.strip().startswith("--"):
                assert not re.search(r"<(str|int|path|list\[\w+\])>", line), (command, line)


def test_shell_completion_is_offered(tmp_path: Path) -> None:
    # the shell named, not the one Typer finds among the test's parent processes (a test
    # run from cron or a detached job has none)
    r = run_pbem("--show-completion", "bash",
                 env={"SHELL": "/bin/bash", "HOME": str(tmp_path),
                      "_TYPER_COMPLETE_TEST_DISABLE_SHELL_DETECTION": "1"})
    assert r.code == 0, r.err
    assert "_pbem_completion" in r.out and "complete" in r.out
