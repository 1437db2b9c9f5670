"""A Chechen War campaign's set-up through the command line (in this process, a real git
repository): the contribution round, the Russian's placement, the Chechen's face-down
tokens. What must stay hidden is checked with the actual values: no Chechen unit's id or
name, and not the secret part naming the regulars' hexes, in any file of any commit, nor in
any report the Russian or the public receive, until unseal; the Chechen's own key shows him
his units; audit, unseal and audit --final pass. The same when the Chechen sends nothing and
the referee resolves with his default orders; and a dishonest referee who publishes his
file at the end of the turn is named by the audit.
"""

from __future__ import annotations

import importlib
import json
import subprocess
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from pbem import api, yamlio
from pbem.campaign import Campaign
from pbem.game import load_data
from tests.conftest import Result

Cli = Callable[..., Result]
PLAYERS = ("--player", "russian=Ann <ann@cw.invalid>", "--player", "chechen=Bob <bob@cw.invalid>")


def ok(r: Result) -> Result:
    assert r.code == 0, r.err + r.out
    return r


def send(pbem: Cli, root: Path, keys: Path, faction: str, name: str) -> Path:
    path = root.parent / f"{faction}-{name}.yaml"
    ok(pbem("-C", root, "bot", faction, "--out", path))
    ok(pbem("-C", root, "sign", path, "--key", keys / f"{faction}_ed25519"))
    ok(pbem("-C", root, "apply", path))
    return path


def new(pbem: Cli, tmp_path: Path, *extra: str) -> tuple[Path, Path]:
    root, keys = tmp_path / "camp", tmp_path / "keys"
    ok(pbem("new", root, "--game", "chechen_war", "--seed", "cw", "--keys-dir", keys, *PLAYERS, *extra))
    for faction in ("russian", "chechen"):
        send(pbem, root, keys, faction, "salt")
    send(pbem, root, keys, "russian", "setup")
    return root, keys


def secrets_of_the_chechen() -> list[str]:
    """Every Chechen unit's id and printed name: none may show before unseal."""
    units = load_data("chechen_war")["units"]["units"]
    return sorted({v for u, spec in units.items() if spec["side"] == "chechen"
                   for v in (u, spec["name"])} | {"regulars:", "chechen_regular", "chechen_militia"})


def committed_text(root: Path) -> str:
    """Every file of every commit, as text."""
    revs = subprocess.run(["git", "rev-list", "--all"], cwd=root, capture_output=True, text=True,
                          check=True).stdout.split()
    out = []
    for rev in revs:
        files = subprocess.run(["git", "ls-tree", "-r", "--name-only", rev], cwd=root,
                               capture_output=True, text=True, check=True).stdout.split()
        for f in files:
            out.append(subprocess.run(["git", "show", f"{rev}:{f}"], cwd=root, capture_output=True,
                                      check=True).stdout.decode("utf-8", "replace"))
    return "\n".join(out)


def leaks(text: str) -> list[str]:
    return [s for s in secrets_of_the_chechen() if s in text]


def reports(pbem: Cli, root: Path, who: str) -> str:
    return "\n".join(ok(pbem("-C", root, "report", "--for", who, "--format", fmt)).out
                     for fmt in ("text", "html", "md", "bbcode"))


@pytest.mark.parametrize("mode", ["variable", "historical"])
def test_the_set_up_by_mail_hides_the_chechens_units_until_unseal(
        pbem: Cli, tmp_path: Path, mode: str) -> None:
    root, keys = new(pbem, tmp_path, "--option", f"setup={mode}")
    assert json.loads(ok(pbem("-C", root, "status", "--json")).out)["awaiting"] == ["chechen"]
    draft = root.parent / "draft.yaml"
    ok(pbem("-C", root, "bot", "chechen", "--out", draft))
    told = ok(pbem("-C", root, "check", draft)).out
    assert "--key YOUR.key" not in told  # nothing of his is sealed yet: the key adds nothing
    path = send(pbem, root, keys, "chechen", "setup")
    assert "regulars:" in path.read_text()  # the file as the Chechen wrote it holds the secret
    status = json.loads(ok(pbem("-C", root, "status", "--json")).out)
    assert (status["turn"], status["phase"], status["awaiting"]) == (1, "russian-movement", ["russian"])
    # the Russian has no face-down unit: his check never asks for a key; the Chechen's does
    russian = root.parent / "russian-draft.yaml"
    ok(pbem("-C", root, "bot", "russian", "--out", russian))
    assert "--key YOUR.key" not in ok(pbem("-C", root, "check", russian)).out
    send(pbem, root, keys, "russian", "moves")  # the Russian Movement Segment
    chechen = root.parent / "chechen-draft.yaml"
    ok(pbem("-C", root, "bot", "chechen", "--out", chechen))
    assert "add --key YOUR.key to check those as the referee will" in ok(pbem("-C", root, "check", chechen)).out
    assert "--key YOUR.key" not in ok(pbem("-C", root, "check", chechen, "--key", keys / "chechen.key")).out
    status = json.loads(ok(pbem("-C", root, "status", "--json")).out)
    assert (status["turn"], status["phase"], status["awaiting"]) == (1, "chechen-ambush", ["chechen"])
    send(pbem, root, keys, "chechen", "ambushes")  # the Chechen Ambush Segment
    status = json.loads(ok(pbem("-C", root, "status", "--json")).out)
    # the Russian is asked to attack only with a Chechen unit next to his (asked.py)
    skipped = [e for e in list(Campaign.open(root).entries())[-1]["events"] if e["type"] == "not_asked"]
    assert (status["turn"], status["phase"], status["awaiting"]) == (
        (1, "chechen-movement", ["chechen"]) if skipped else (1, "russian-combat", ["russian"]))
    assert leaks(committed_text(root)) == []
    assert leaks(reports(pbem, root, "russian")) == []
    assert leaks(reports(pbem, root, "public")) == []
    html = ok(pbem("-C", root, "report", "--for", "russian", "--format", "html")).out
    assert "<svg" in html and "face down" in html and "Groznyi" in html
    # the Chechen's own key opens his units
    mine = ok(pbem("-C", root, "reveal", "--key", keys / "chechen.key")).out
    units = load_data("chechen_war")["units"]["units"]
    shown = [u for u, spec in units.items() if spec["side"] == "chechen" and u in mine]
    assert len(shown) == 24
    assert api.audit(root)["ok"]
    ok(pbem("-C", root, "unseal", "--force"))
    final = json.loads(ok(pbem("-C", root, "audit", "--final", "--json")).out)
    assert final["ok"], final["problems"]
    assert "regulars:" in committed_text(root)  # published by unseal


def test_a_chechen_who_sends_nothing_is_set_up_by_the_bot_with_nothing_shown(
        pbem: Cli, tmp_path: Path) -> None:
    root, _keys = new(pbem, tmp_path)
    ok(pbem("-C", root, "resolve", "--nmr"))
    assert json.loads(ok(pbem("-C", root, "status", "--json")).out)["phase"] == "russian-movement"
    assert leaks(committed_text(root)) == []
    assert api.audit(root)["ok"]
    ok(pbem("-C", root, "unseal", "--force"))
    final = json.loads(ok(pbem("-C", root, "audit", "--final", "--json")).out)
    assert final["ok"], final["problems"]


def test_a_referee_who_publishes_the_face_down_units_at_the_end_of_the_turn_is_named(
        pbem: Cli, tmp_path: Path) -> None:
    from tests.engine.test_audit_tamper import Referee

    root, keys = new(pbem, tmp_path)
    send(pbem, root, keys, "chechen", "setup")
    cheat = Referee(root)
    seq = next(e["seq"] for e in cheat.original if e["type"] == "orders"
               and e.get("phase") == "setup-chechen")
    record: dict[str, Any] = cheat.entry(seq)["pending"]
    assert record.pop("keep_sealed") is True
    cheat.rewrite()
    problems = api.audit(root)["problems"]
    assert any(f"log/{seq:06d}.yaml: the file of chechen is kept sealed only to the end of the "
               "turn, but its phase keeps it until unseal" in p for p in problems), problems


def test_the_data_files_are_read_as_yaml_with_quoted_hex_ids() -> None:
    # the bot writes hex ids YAML could read as octal numbers quoted: read back, they are text
    data = yamlio.load_untrusted("hex: '0731'\nother: 0528\n", "t").data
    assert data == {"hex": "0731", "other": "0528"}


def own(pbem: Cli, root: Path, keys: Path, faction: str, name: str, orders: list[Any],
        secret: dict[str, Any] | None = None) -> Path:
    """A file written by the player (the bot's header, these orders), signed and applied."""
    path = root.parent / f"{faction}-{name}.yaml"
    ok(pbem("-C", root, "bot", faction, "--out", path))
    body = yamlio.load_untrusted(path.read_text(), str(path)).data
    body["orders"] = orders
    body.pop("secret", None)
    if secret is not None:
        body["secret"] = secret
    path.write_text(json.dumps(body, indent=1) + "\n")  # JSON is YAML, with every hex id quoted
    ok(pbem("-C", root, "sign", path, "--key", keys / f"{faction}_ed25519"))
    ok(pbem("-C", root, "apply", path))
    return path


def test_a_russian_attack_by_mail_keeps_its_markers_secret_until_the_chechen_answers(
        pbem: Cli, tmp_path: Path) -> None:
    """10.6, 10.9: the Russian's marker types stay sealed while the Chechen answers; then the
    die is rolled, the defenders are revealed, and nothing else of the Chechen's shows."""
    from pbem.campaign import Campaign

    root, keys = new(pbem, tmp_path)
    game = Campaign.open(root).state()["game"]
    b = importlib.import_module("pbem_game_chechen_war.board").board(load_data("chechen_war"))
    # a Chechnya hex next to a Russian stack, across no river
    here, there = next((v["hex"], n) for _u, v in sorted(game["russians"].items())
                       for n in b.grid.neighbours(v["hex"])
                       if b.region[n] == "chechnya" and b.grid.hexside(v["hex"], n) not in b.rivers)
    attackers = sorted(u for u, v in game["russians"].items() if v["hex"] == here)
    others = sorted(h for h, r in b.region.items() if r == "chechnya"
                    and b.grid.distance(h, here) > 3)[:23]
    own(pbem, root, keys, "chechen", "setup", [{"place": {"hex": h, "tokens": 1}} for h in [there, *others]],
        secret={"regulars": [there, *others[:7]]})
    own(pbem, root, keys, "russian", "moves", [])
    own(pbem, root, keys, "chechen", "ambushes", [])
    own(pbem, root, keys, "russian", "attacks",
        [{"attack": {"target": there, "units": attackers, "supports": 1}}],
        secret={"supports": {there: ["airstrike"]}})
    status = json.loads(ok(pbem("-C", root, "status", "--json")).out)
    assert (status["phase"], status["awaiting"]) == ("chechen-supports", ["chechen"])
    told = reports(pbem, root, "chechen") + reports(pbem, root, "public")
    assert "1 marker (their kinds sealed until the die)" in told and "Russian markers: airstrike" not in told
    assert "[airstrike]" not in committed_text(root) and '"airstrike"' not in committed_text(root)
    own(pbem, root, keys, "chechen", "supports", [{"support": {"target": there, "markers": 1}}])
    status = json.loads(ok(pbem("-C", root, "status", "--json")).out)
    assert (status["phase"], status["awaiting"]) == ("chechen-movement", ["chechen"])
    after = Campaign.open(root).state()["game"]
    shown = reports(pbem, root, "russian")
    # the combat told as a box (rules/boxes.py): its title, the markers opened at the die
    assert f"Combat on {b.label(there)}: the Russian attacks the Chechen" in shown
    assert "airstrike (2 columns)" in shown
    units = load_data("chechen_war")["units"]["units"]
    # the attacked unit, face up now or eliminated to the cup: public; every other stays hidden
    public = [*after["cup_known"], *(t["unit"] for t in after["tokens"].values() if isinstance(t["unit"], str))]
    assert len(public) == 1 and sum(not isinstance(t["unit"], str) for t in after["tokens"].values()) == 23
    hidden = [s for s in secrets_of_the_chechen()
              if not any(s in p or s in units[p]["name"] for p in public)]
    for text in (committed_text(root), shown, reports(pbem, root, "public")):
        assert [s for s in hidden if s in text] == []
    assert api.audit(root)["ok"]
    ok(pbem("-C", root, "unseal", "--force"))
    final = json.loads(ok(pbem("-C", root, "audit", "--final", "--json")).out)
    assert final["ok"], final["problems"]


def test_a_chechen_attack_by_mail_keeps_his_answers_sealed_until_the_russian_commits(
        pbem: Cli, tmp_path: Path) -> None:
    """10.9 in the Chechen Combat Segment: the Chechen's markers and leaders, as he would
    answer each count, are sealed in his file; the Russian commits his count; then both are
    opened and the die is rolled. The End of Turn orders each gave ahead (his kidnapping,
    the Russian's ceasefire) stay sealed until the End of Turn Phase, which asks nobody,
    opens them and ends the turn; audits pass."""
    from pbem.campaign import Campaign

    root, keys = new(pbem, tmp_path)
    game = Campaign.open(root).state()["game"]
    b = importlib.import_module("pbem_game_chechen_war.board").board(load_data("chechen_war"))
    # a Russian stack next to Chechnya, a Chechen token beside it, and a hex of Chechnya next
    # to both where a Russian unit steps
    here, there, step = next(
        (v["hex"], n, x) for _u, v in sorted(game["russians"].items())
        for n in b.grid.neighbours(v["hex"]) if b.region[n] == "chechnya"
        for x in b.grid.neighbours(n)
        if x in b.grid.neighbours(v["hex"]) and b.region[x] == "chechnya")
    mover = sorted(u for u, v in game["russians"].items() if v["hex"] == here)[0]
    others = sorted(h for h, r in b.region.items() if r == "chechnya"
                    and b.grid.distance(h, here) > 3)[:23]
    own(pbem, root, keys, "chechen", "setup", [{"place": {"hex": h, "tokens": 1}} for h in [there, *others]],
        secret={"regulars": [there, *others[:7]]})
    own(pbem, root, keys, "russian", "moves", [{"move": {"units": [mover], "path": [here, step]}}])
    own(pbem, root, keys, "chechen", "ambushes", [])
    own(pbem, root, keys, "russian", "attacks", [])
    # his movement file carries his attacks: no file of its own for the Combat Segment
    own(pbem, root, keys, "chechen", "moves", [{"attack": {"target": step, "units": ["t01"]}}],
        secret={"supports": {step: {"0": {"leaders": ["ch_gelayev"]}, "1": {"markers": 1},
                                    "2": {"markers": 2}}},
                "end_of_turn": [{"kidnap": True}]})
    status = json.loads(ok(pbem("-C", root, "status", "--json")).out)
    assert (status["phase"], status["awaiting"]) == ("russian-supports", ["russian"])
    text = committed_text(root)
    assert '["ch_gelayev"]' not in text and "[ch_gelayev]" not in text  # the answer, sealed
    assert "Ruslan Gelayev (10.9, 11.2)" not in reports(pbem, root, "russian")
    kidnap = ("kidnap: true", '"kidnap": true', "kidnap: True", "kidnaps")
    assert [k for k in kidnap if k in text + reports(pbem, root, "russian")] == []
    own(pbem, root, keys, "russian", "supports", [{"support": {"target": step, "markers": 1}}],
        secret={"supports": {step: ["artillery"]}, "end_of_turn": [{"ceasefire": True}]})
    status = json.loads(ok(pbem("-C", root, "status", "--json")).out)
    assert (status["turn"], status["phase"], status["awaiting"]) == (2, "russian-movement", ["russian"])
    shown = reports(pbem, root, "russian")
    assert "Chechen artillery marker" in shown and "Russian artillery marker" in shown
    assert "Ruslan Gelayev (10.9, 11.2)" not in shown  # the answer to a count not committed
    opened = [(e["side"], e["orders"]) for entry in Campaign.open(root).entries()
              for e in entry.get("events") or [] if e["type"] == "end_of_turn_opened"]
    assert opened == [("russian", [{"ceasefire": True}]), ("chechen", [{"kidnap": True}])]
    ended = Campaign.open(root).state()["game"]
    assert ended["kidnapped"] is True and ended["ceasefire"] == {"declared": True, "turn": 2}
    assert api.audit(root)["ok"]
    ok(pbem("-C", root, "unseal", "--force"))
    final = json.loads(ok(pbem("-C", root, "audit", "--final", "--json")).out)
    assert final["ok"], final["problems"]


@pytest.mark.slow
def test_a_whole_campaign_of_bot_files_runs_to_its_result_and_audits(pbem: Cli, tmp_path: Path) -> None:
    """Every phase of nine turns by signed bot files, through the command line, to the result
    (3.1 or 3.2), from the historical set-up (test_cw_mail.py plays the variable one by
    mail); the public audit, unseal and the final audit pass, and no Chechen unit that was
    never revealed shows in any commit before unseal."""
    from pbem.campaign import Campaign

    root, keys = new(pbem, tmp_path, "--option", "setup=historical")
    files: dict[str, int] = {"russian": 1, "chechen": 0}  # the set-up sent by new()
    for step in range(400):
        status = json.loads(ok(pbem("-C", root, "status", "--json")).out)
        if status.get("over") or not status["awaiting"]:
            break
        for faction in status["awaiting"]:
            send(pbem, root, keys, faction, f"{step}")
            files[faction] += 1
    game = Campaign.open(root).state()["game"]
    assert game["over"] and game["phase"] == "over", (game["turn"], game["phase"])
    assert "game over" in reports(pbem, root, "public")
    shown = {*game["cup_known"], *(t["unit"] for t in game["tokens"].values() if isinstance(t["unit"], str))}
    units = load_data("chechen_war")["units"]["units"]
    never = [s for u, spec in units.items() if spec["side"] == "chechen" and u not in shown
             for s in (u, spec["name"]) if not any(s in x or s in units[x]["name"] for x in shown)]
    text = committed_text(root)
    assert [s for s in never if s in text] == []
    assert api.audit(root)["ok"]
    ok(pbem("-C", root, "unseal", "--force"))
    final = json.loads(ok(pbem("-C", root, "audit", "--final", "--json")).out)
    assert final["ok"], final["problems"]
    # one file a side a segment that awaits it: at most 9 a turn for the two together
    assert files["russian"] + files["chechen"] <= 1 + 9 * int(game["turn"]) + 2


def test_a_referee_who_lets_a_regular_into_dagestan_is_named_by_the_final_audit(
        pbem: Cli, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """8.2 reads sealed values (which units are militia): the public audit cannot check it;
    after unseal, `audit --final` checks every file as the referee's apply had to."""
    from pbem.campaign import Campaign
    from pbem.game import get_game

    root, keys = new(pbem, tmp_path)
    game = Campaign.open(root).state()["game"]
    b = importlib.import_module("pbem_game_chechen_war.board").board(load_data("chechen_war"))
    russians = {v["hex"] for v in game["russians"].values()}
    start, into = next((h, n) for h in sorted(b.region) if b.region[h] == "chechnya" and h not in russians
                       for n in b.grid.neighbours(h) if b.region[n] == "dagestan" and n not in russians
                       and not any(b.grid.adjacent(n, r) for r in russians))
    others = sorted(h for h, r in b.region.items() if r == "chechnya" and h != start
                    and b.grid.distance(h, start) > 2)[:23]
    own(pbem, root, keys, "chechen", "setup", [{"place": {"hex": h, "tokens": 1}} for h in [start, *others]],
        secret={"regulars": [start, *others[:7]]})  # t01, in `start`, is a regular
    own(pbem, root, keys, "russian", "moves", [])
    own(pbem, root, keys, "chechen", "ambushes", [])
    own(pbem, root, keys, "russian", "attacks", [])
    move = [{"move": {"units": ["t01"], "path": [start, into]}}]
    path = root.parent / "chechen-into-dagestan.yaml"
    ok(pbem("-C", root, "bot", "chechen", "--out", path))
    body = yamlio.load_untrusted(path.read_text(), str(path)).data
    body["orders"] = move
    path.write_text(json.dumps(body, indent=1) + "\n")
    ok(pbem("-C", root, "sign", path, "--key", keys / "chechen_ed25519"))
    refused = pbem("-C", root, "apply", path)
    assert refused.code != 0 and "t01 is not militia: only militia enter Dagestan (8.2)" in refused.err + refused.out
    # the dishonest referee applies it without the check that needs the sealed values
    monkeypatch.setattr(type(get_game("chechen_war")), "sees_sealed", False)
    ok(pbem("-C", root, "apply", path))
    monkeypatch.undo()
    assert api.audit(root)["ok"]  # the public cannot see which units are militia
    ok(pbem("-C", root, "unseal", "--force"))
    final = json.loads(pbem("-C", root, "audit", "--final", "--json").out)
    assert not final["ok"]
    assert any("the orders of chechen are not legal: t01 is not militia: only militia enter Dagestan (8.2)"
               in p for p in final["problems"]), final["problems"]


# ---------------------------------------------------------------------------------------
# the Chechen checks his own draws at once, with his own draw key (docs/fairness.md)


def test_the_chechen_checks_his_face_down_units_at_once_with_his_own_key(
        pbem: Cli, tmp_path: Path) -> None:
    """`pbem audit --key chechen.key` on his clone recomputes every unit drawn for him (the 24
    tokens of the set-up), before the game ends; the Russian's key recomputes none of them."""
    root, keys = new(pbem, tmp_path)
    send(pbem, root, keys, "chechen", "setup")
    mine = ok(pbem("-C", root, "audit", "--key", keys / "chechen.key")).out
    assert "your own draws: 24 sealed value(s) recomputed with your own draw key" in mine
    assert "audit: OK" in mine
    theirs = ok(pbem("-C", root, "audit", "--key", keys / "russian.key")).out
    assert "your own draws: 0 sealed value(s)" in theirs and "audit: OK" in theirs
    entry = next(e for e in map(yamlio.read_trusted, sorted((root / "log").glob("*.yaml")))
                 if e.get("draw_keys"))
    assert list(entry["draw_keys"]) == ["chechen"] and entry["phase"] == "setup-chechen"
    assert entry["draw_keys"]["chechen"]["kind"] == "draw-key"


def _reseal_for_the_chechen(cheat: Any, root: Path, node: dict[str, Any], value: Any) -> None:
    """What a dishonest referee's pbem would do: seal another value, to the Chechen too."""
    from pbem.campaign import Campaign
    from pbem.crypto import sealed

    campaign = Campaign.open(root)
    fresh = sealed.seal(sealed.node_context(campaign.id, node), value,
                        [campaign.config["referee"]["age"], campaign.factions()["chechen"]["age"]])
    node["commitment"], node["sealed"] = fresh["commitment"], fresh["sealed"]


def test_a_referee_who_swaps_a_face_down_unit_is_named_by_the_chechens_own_audit(
        pbem: Cli, tmp_path: Path) -> None:
    """The referee gives token t01 another unit than the draw does (sealed to the Chechen, so
    that his key opens it) and signs the log again: the public audit cannot see it, the
    Chechen's own audit names the step at once, long before unseal."""
    from tests.engine.test_audit_tamper import Referee

    root, keys = new(pbem, tmp_path)
    send(pbem, root, keys, "chechen", "setup")
    cheat = Referee(root)
    seq = next(e["seq"] for e in cheat.original if e.get("draw_keys"))
    sealed_event = next(ev for ev in cheat.entry(seq)["events"] if ev["type"] == "identities_sealed")
    units = load_data("chechen_war")["units"]["units"]
    mine = json.loads(ok(pbem("-C", root, "reveal", "--key", keys / "chechen.key", "--json")).out)
    assert mine  # the Chechen's key opens his units
    chosen = "ch_presidential_guard"
    assert units[chosen]["side"] == "chechen"
    _reseal_for_the_chechen(cheat, root, sealed_event["tokens"]["t01"], chosen)
    cheat.rewrite()
    assert api.audit(root)["ok"]  # the public cannot tell
    own = api.audit(root, key=keys / "chechen.key")
    assert not own["ok"]
    assert [p for p in own["problems"] if "unit t01" in p] == [
        f"log/{seq:06d}.yaml: sealed unit t01 holds something other than what the rules give "
        "from the hidden secret"], own["problems"]


def test_a_resolution_that_keeps_the_chechens_draw_key_from_him_is_named(
        pbem: Cli, tmp_path: Path) -> None:
    """Without the sealed draw key the Chechen could not check his draws: the public audit
    says the step drew for him with his key and did not seal it."""
    from tests.engine.test_audit_tamper import Referee

    root, keys = new(pbem, tmp_path)
    send(pbem, root, keys, "chechen", "setup")
    cheat = Referee(root)
    seq = next(e["seq"] for e in cheat.original if e.get("draw_keys"))
    del cheat.entry(seq)["draw_keys"]
    cheat.rewrite()
    problems = api.audit(root)["problems"]
    assert f"log/{seq:06d}.yaml: seals the own draw keys of nobody, but the rules drew for " \
           "chechen with theirs for the first time here" in problems, problems


def _to_turn_two(pbem: Cli, tmp_path: Path) -> tuple[Path, Path]:
    """Turn 1 by bot files but the Russian's movement file, which declares the ceasefire
    ahead; the End of Turn Phase resolved."""
    root, keys = new(pbem, tmp_path)
    send(pbem, root, keys, "chechen", "setup")
    own(pbem, root, keys, "russian", "moves", [], secret={"end_of_turn": [{"ceasefire": True}]})
    for n in range(12):
        status = json.loads(ok(pbem("-C", root, "status", "--json")).out)
        if status["turn"] == 2:
            break
        for faction in status["awaiting"]:
            send(pbem, root, keys, faction, f"t1-{n}")
    assert Campaign.open(root).state()["game"]["ceasefire"] == {"declared": True, "turn": 2}
    return root, keys


def test_a_referee_who_drops_a_ceasefire_given_ahead_is_named(pbem: Cli, tmp_path: Path) -> None:
    """The referee opens the Russian's sealed End of Turn orders as nothing, writes the step
    as the rules give it from that, and signs the log again: the public audit names the
    opening that does not open its commitment."""
    from tests.engine.test_audit_tamper import Referee

    root, _keys = _to_turn_two(pbem, tmp_path)
    cheat = Referee(root)
    seq = next(e["seq"] for e in cheat.original
               if any(ev["type"] == "end_of_turn_opened" for ev in e.get("events") or []))
    entry = cheat.entry(seq)
    opening = next(o for o in entry["opened"] if o["value"] == [{"ceasefire": True}])
    opening["value"] = None
    entry["events"] = [{**ev, "orders": None} if ev["type"] == "end_of_turn_opened" and ev["side"] == "russian"
                       else ev for ev in entry["events"] if ev["type"] != "ceasefire_declared"]
    cheat.rewrite()
    problems = api.audit(root)["problems"]
    assert problems == [f"log/{seq:06d}.yaml: cannot be replayed: the published opening of "
                        "end_of_turn t1:russian-movement does not match its commitment"], problems


def test_a_referee_who_seals_other_end_of_turn_orders_is_named_by_the_chechens_own_audit(
        pbem: Cli, tmp_path: Path) -> None:
    """The referee seals nothing in place of the kidnapping the Chechen gave ahead in his
    movement file (his last of the turn: no signed file after it pins the log), to him too so
    that his key opens it, adjudicates the end of the turn again from that, and signs the log
    again: the public cannot tell, the Chechen's own audit names the step. Earlier in the turn
    the signed files that follow name the heads they saw, and the public audit names it."""
    from pbem.crypto import sealed
    from tests.engine.test_audit_tamper import Referee

    root, keys = new(pbem, tmp_path)
    send(pbem, root, keys, "chechen", "setup")
    for n in range(8):
        status = json.loads(ok(pbem("-C", root, "status", "--json")).out)
        if status["phase"] == "chechen-movement":
            break
        for faction in status["awaiting"]:
            send(pbem, root, keys, faction, f"t1-{n}")
    own(pbem, root, keys, "chechen", "moves", [], secret={"end_of_turn": [{"kidnap": True}]})
    assert Campaign.open(root).state()["game"]["kidnapped"] is True
    cheat = Referee(root)
    steps = [e for e in cheat.original if e["type"] == "resolve"
             and any(ev["type"] == "end_of_turn_sealed" for ev in e.get("events") or [])]
    seq = steps[-1]["seq"]
    node = next(ev for ev in cheat.entry(seq)["events"] if ev["type"] == "end_of_turn_sealed")["orders"]
    assert node["owner"] == "chechen"
    campaign = Campaign.open(root)
    fresh = sealed.seal(sealed.node_context(campaign.id, node), None,
                        [campaign.config["referee"]["age"], campaign.factions()["chechen"]["age"]])
    node["commitment"], node["sealed"] = fresh["commitment"], fresh["sealed"]
    end = next(e["seq"] for e in cheat.original
               if any(ev["type"] == "end_of_turn_opened" for ev in e.get("events") or []))
    cheat.resolve_again(end)
    assert not any(ev["type"] == "kidnapping" for ev in cheat.entry(end)["events"])
    cheat.rewrite()
    public = api.audit(root)
    assert public["ok"], public["problems"]  # the public cannot tell
    mine = api.audit(root, key=keys / "chechen.key")
    assert [p for p in mine["problems"] if "end_of_turn" in p] == [
        f"log/{seq:06d}.yaml: sealed end_of_turn t1:chechen-movement holds something other than "
        "what the rules give from the hidden secret"], mine["problems"]
