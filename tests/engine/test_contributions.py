"""The contribution round (pbem.contributions, docs/fairness.md "Hidden draws"): nothing
hidden is drawn at `new`; the set-up and every shuffle are keyed by the referee's hidden
secret mixed with the salts the players sign after its commitment is published.

The base campaign: keys for every faction from --keys-dir, orders signed by the players'
keys (so each salt is the player's own, from `pbem sign`), played to turn 1's action phase.
Its steps: 1 new (the round), 2-5 the contributions, 6 the set-up drawn, then the game.
"""

from __future__ import annotations

import json
import shutil
from collections.abc import Iterator
from pathlib import Path

import pytest
from audit_fast import ENV
from conftest import git, play, run_pbem
from test_audit_tamper import Referee, audit_problems

from pbem import api, dice, randomness, yamlio
from pbem.campaign import Campaign
from pbem.contributions import PHASE, is_pre_game

SEED = "contrib"
ROUND = 6  # the step that resolves the round and draws the set-up


def _play(root: Path, keys: Path, *, until: tuple[int, str], sign: bool = True) -> None:
    """The bot's orders to `until`; signed, each player's own salts added by `pbem sign`."""
    keyed = {f: keys / f"{f}_ed25519" for f in ("red", "siberian", "south", "north")} if sign else None
    play(root, until=lambda s: (s["turn"], s["phase"]) == until, max_steps=300, sign=keyed,
         salts=not sign)


@pytest.fixture(scope="module")
def base(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Path]:
    folder = tmp_path_factory.mktemp("contrib-base")
    with pytest.MonkeyPatch.context() as mp:
        mp.setenv("HOME", str(folder))
        mp.setenv("GIT_CONFIG_GLOBAL", str(folder / ".gitconfig"))
        for key, value in ENV.items():
            mp.setenv(key, value)
        root, keys = folder / "camp", folder / "keys"
        api.new_campaign(root, "red_russia", seed=SEED, name="camp", keys_dir=keys)
        _play(root, keys, until=(1, "action"))
        assert api.audit(root)["ok"]
        yield root


@pytest.fixture
def camp(base: Path, tmp_path: Path) -> Path:
    shutil.copytree(base.parent, tmp_path / "copy", symlinks=True)
    (tmp_path / "copy" / "camp" / ".git" / "pbem-verified.json").unlink(missing_ok=True)
    return tmp_path / "copy" / "camp"


def _entries(root: Path) -> list[dict]:
    return list(Campaign.open(root).entries())


def _hidden(root: Path) -> bytes:
    secret = bytes.fromhex((root / ".pbem" / "secret").read_text().strip())
    return dice.hidden_key(randomness.hidden_secret(secret))


# ---------------------------------------------------------------------------------------
# the round


def test_new_draws_nothing_hidden_and_asks_every_faction(tmp_path: Path) -> None:
    root = tmp_path / "c"
    api.new_campaign(root, "red_russia", seed=SEED, name="c")
    s = api.status(root)
    assert (s["turn"], s["phase"]) == (0, PHASE)
    assert s["awaiting"] == ["north", "red", "siberian", "south"]
    assert s["hidden_draws"].startswith("the contribution round")
    first = _entries(root)[0]
    assert "dice" not in first
    assert first["contribute"] == ["red", "siberian", "south", "north"]  # the game's order
    state = Campaign.open(root).state()
    assert is_pre_game(state["game"]) and "units" not in state["game"]
    assert "contributions" not in state


def test_the_round_takes_no_orders(tmp_path: Path, pbem) -> None:
    root = tmp_path / "c"
    api.new_campaign(root, "red_russia", seed=SEED, name="c")
    orders = api.bot(root, "red")
    orders["orders"] = [{"move": {"unit": "x", "to": "Moscow"}}]
    path = tmp_path / "red.yaml"
    yamlio.write_atomic(path, yamlio.dump(orders))
    before = git(root, "rev-parse", "HEAD")
    r = pbem("-C", root, "apply", path)
    assert r.code == 1
    assert f"{path}:7: the contribution round takes no orders" in r.err, r.err
    assert git(root, "rev-parse", "HEAD") == before


def test_unsigned_contributions_are_refused_unless_hot_seat(tmp_path: Path, pbem) -> None:
    """--keys-dir keys are for signing: unsigned orders only in a --hot-seat campaign."""
    for hot, code in ((False, 1), (True, 0)):
        root = tmp_path / f"c{hot}"
        api.new_campaign(root, "red_russia", seed=SEED, name="c", keys_dir=tmp_path / f"k{hot}",
                         hot_seat=hot)
        path = tmp_path / f"red{hot}.yaml"
        yamlio.write_atomic(path, yamlio.dump(api.bot(root, "red")))
        r = pbem("-C", root, "apply", path)
        assert r.code == code, r.err
        assert ("must be signed" in r.err) == (not hot), r.err
        shown = json.loads(pbem("-C", root, "status", "--json").out)["unsigned_ok"]
        assert shown == (["north", "red", "siberian", "south"] if hot else [])


def test_the_set_up_is_drawn_with_the_mixed_key(base: Path) -> None:
    """Every set-up die is what the hidden key mixed with the players' own salts gives;
    with the hidden key alone (what the referee could have ground) they differ."""
    entry = _entries(base)[ROUND - 1]
    assert entry["type"] == "resolve" and entry["phase"] == PHASE and entry["hidden_draws"] is True
    assert "batch" not in entry and "seed" not in entry  # the seed chain is not used
    salts = entry["salts"]
    assert sorted(salts) == ["north", "red", "siberian", "south"]
    assert randomness.player_salted("camp", entry, 50) == sorted(salts)  # the players' own
    mixed = dice.mixed_key(_hidden(base), salts)
    rolls = entry["dice"]
    assert len(rolls) > 50
    assert all(dice.die(mixed, d["label"], d["sides"]) == d["value"] for d in rolls)
    plain = [dice.die(_hidden(base), d["label"], d["sides"]) for d in rolls]
    assert plain != [d["value"] for d in rolls]
    state = Campaign.open(base).state()
    assert state["contributions"] == salts
    assert "keyed by the referee's hidden secret and the salts of north, red, siberian, south" \
        == api.status(base)["hidden_draws"]


def test_every_later_shuffle_uses_the_mixed_key(base: Path) -> None:
    """The deck shuffled for the deal (4.1) is the shuffle under the mixed key."""
    entries = _entries(base)
    mixed = dice.mixed_key(_hidden(base), entries[ROUND - 1]["salts"])
    shuffled = [e for entry in entries for e in entry.get("events", [])
                if e.get("type") == "cards_shuffled"]
    assert shuffled
    # the pile is sealed: the referee's copy opens it and compares it with the shuffle
    from pbem.crypto import sealed

    c = Campaign.open(base)
    pile = sealed.open_node("camp", shuffled[0]["pile"], c.referee_identities()).value
    assert pile != dice.shuffle(_hidden(base), "cards:shuffle:1", sorted(pile))
    assert pile == dice.shuffle(mixed, "cards:shuffle:1", sorted(pile))


def test_a_final_audit_recomputes_the_set_up_from_the_unsealed_secret(camp: Path) -> None:
    assert api.unseal(camp, force=True)
    report = api.audit(camp, final=True)
    assert report["ok"], report["problems"]
    states = {r["state"] for r in api.dice(camp) if r["seq"] == ROUND}
    assert states == {"verified"}


def test_undoing_the_round_cannot_re_roll_the_set_up(camp: Path) -> None:
    """The set-up depends only on the hidden secret and the contributions: undone and
    resolved again with the same files, it is the same set-up, die for die."""
    first = _entries(camp)[ROUND - 1]
    for _ in range(len(_entries(camp)) - ROUND + 1):
        api.undo(camp, reason="test")
    assert api.status(camp)["phase"] == PHASE
    api.resolve(camp)
    again = _entries(camp)[-1]
    assert again["phase"] == PHASE and again["dice"] == first["dice"]
    assert again["events"] == first["events"]
    assert api.audit(camp)["ok"]


def test_without_the_round_status_and_reports_say_so(tmp_path: Path) -> None:
    root = tmp_path / "c"
    api.new_campaign(root, "red_russia", seed=SEED, name="c", contributions=False)
    s = api.status(root)
    assert s["phase"] == "setup-place"
    assert "without the contribution round" in s["hidden_draws"]
    assert _entries(root)[0]["dice"]
    from pbem.reports.render import render

    text = " ".join(render(root, "public", "text").split())
    assert ("Hidden draws (the set-up, every shuffle) are keyed by the referee's hidden secret "
            "alone: this campaign was made without the contribution round") in text


def test_cli_new_says_what_the_round_is(tmp_path: Path) -> None:
    r = run_pbem("new", tmp_path / "c", "--game", "red_russia", "--seed", "x")
    assert r.code == 0, r.err
    assert "Contributions to the hidden draws" in r.out
    assert "hidden draws: the contribution round" in r.out
    r = run_pbem("new", tmp_path / "d", "--game", "red_russia", "--seed", "x", "--no-contributions")
    assert r.code == 0, r.err
    assert "keyed by the referee's hidden secret alone" in r.out


# ---------------------------------------------------------------------------------------
# a dishonest referee, who changes one thing and signs again


def test_a_resolution_marked_hidden_skips_no_check(camp: Path) -> None:
    """hidden_draws on an ordinary resolution would take its dice off the seed chain."""
    cheat = Referee(camp)
    seq = next(e["seq"] for e in cheat.original if e["type"] == "resolve" and e["seq"] > ROUND
               and e.get("dice"))
    cheat.entry(seq)["hidden_draws"] = True
    cheat.rewrite()
    problems = audit_problems(camp)
    assert any(p.startswith(f"log/{seq:06d}.yaml: marks its dice hidden (hidden_draws), but only "
                            "the set-up after the contribution round") for p in problems), problems


def test_the_round_resolved_as_an_ordinary_resolution(camp: Path) -> None:
    cheat = Referee(camp)
    del cheat.entry(ROUND)["hidden_draws"]
    cheat.rewrite()
    problems = audit_problems(camp)
    assert f"log/{ROUND:06d}.yaml: resolves the contribution round without marking its dice " \
           "hidden" in problems, problems


def test_a_faction_left_out_of_the_round(camp: Path) -> None:
    cheat = Referee(camp)
    cheat.entry(1)["contribute"] = ["north", "red", "siberian"]
    cheat.rewrite()
    problems = audit_problems(camp)
    assert ("log/000001.yaml: the contribution round asks north, red, siberian, not every "
            "faction of the game (differs for south)") in problems, problems


def test_a_contribution_replaced_by_the_referee(camp: Path) -> None:
    """The referee mixes a salt of their own choosing instead of South's: the salts differ
    from the signed files' and a final audit finds the dice are not what the key gives."""
    cheat = Referee(camp)
    entry = cheat.entry(ROUND)
    entry["salts"] = {**entry["salts"], "south": "00" * 32}
    cheat.rewrite()
    problems = audit_problems(camp)
    assert any(p.startswith(f"log/{ROUND:06d}.yaml: the set-up mixes salts other than those "
                            "sent with the orders (they differ for south)") for p in problems), problems


def test_a_set_up_die_changed_is_found_by_the_final_audit(camp: Path) -> None:
    """Before unseal nobody can check a hidden die; after it, one changed die is WRONG."""
    cheat = Referee(camp)
    entry = cheat.entry(ROUND)
    d = entry["dice"][0]
    original = d["value"]
    d["value"] = 1 if original != 1 else 2
    cheat.rewrite()
    assert api.unseal(camp, force=True)
    report = api.audit(camp, final=True)
    assert not report["ok"]
    assert any(f"log/{ROUND:06d}.yaml: die {d['label']} = {d['value']} is WRONG" == p
               or "cannot be replayed" in p or "not what the rules produce" in p
               for p in report["problems"]), report["problems"]


def test_the_independent_verifier_checks_the_round(camp: Path) -> None:
    """tests/verifier.py, written from the documents alone, recomputes the set-up under the
    mixed key and the deck from it, and agrees with pbem's own final audit."""
    import verifier as v

    assert api.unseal(camp, force=True)
    report = v.verify(camp)
    assert report.ok, report.problems
    drawn = len(_entries(camp)[ROUND - 1]["dice"])
    assert report.checked["hidden_dice"] == drawn and report.checked["piles"] == 1
    audit = api.audit(camp, final=True)
    assert audit["ok"] and report.checked["dice"] + drawn == audit["checked"]["rolls"]


def test_the_independent_verifier_finds_a_set_up_die_changed(camp: Path) -> None:
    import verifier as v

    cheat = Referee(camp)
    d = cheat.entry(ROUND)["dice"][3]
    d["value"] = d["value"] % d["sides"] + 1
    cheat.rewrite()
    assert api.unseal(camp, force=True)
    report = v.verify(camp)
    assert (f"step {ROUND}: set-up draw {d['label']} = {d['value']} is not what the hidden "
            "secret gives") in report.problems, report.problems


def test_the_report_of_the_round_says_what_to_do_and_shows_no_empty_board(tmp_path: Path) -> None:
    from pbem.reports.render import render

    root = tmp_path / "c"
    api.new_campaign(root, "red_russia", seed=SEED, name="c")
    text = render(root, "red", "text")
    assert "THE CONTRIBUTION ROUND" in text and "POSITION after" not in text
    assert "Nothing is on the board yet." in " ".join(text.split())
    assert "phase: contribute" in text and "orders: []" in text  # the file to sign
    assert "# Your contribution to the hidden draws: nothing to fill in." in text
    assert "legal EXAMPLE" not in text
    html = render(root, "red", "html")
    assert "<h2>The contribution round</h2>" in html and "<svg" not in html
    for fmt in ("md", "bbcode"):
        assert "The contribution round" in render(root, "public", fmt)
    # from the set-up on, the board is back
    _play(root, tmp_path / "keys", until=(0, "setup-place"), sign=False)
    text = render(root, "red", "text")
    assert "POSITION after" in text and "THE CONTRIBUTION ROUND" not in text


# ---------------------------------------------------------------------------------------
# signatures the seats require (every faction here has a key and none is hot-seat)


def test_orders_recorded_unsigned_for_a_faction_that_must_sign(camp: Path) -> None:
    """The referee records South's contribution as if it had come unsigned (orders of
    their own invention would look so): the seat requires a signature, and the file that
    the resolution reveals carries one that the record does not name."""
    cheat = Referee(camp)
    entry = next(e for e in cheat.log if e and e["type"] == "orders" and e.get("faction") == "south")
    seq = entry["seq"]
    entry["pending"]["sig_digest"] = None
    cheat.rewrite()
    problems = audit_problems(camp)
    assert (f"log/{seq:06d}.yaml: the orders of south were recorded without a signature, but "
            "its seat requires one (a key, not hot-seat) and the referee did not enter them on "
            "the player's behalf") in problems, problems
    assert (f"log/{ROUND:06d}.yaml: the revealed signature of south's orders is not the one "
            "recorded with them") in problems, problems


def test_orders_entered_on_behalf_need_no_signature(camp: Path) -> None:
    cheat = Referee(camp)
    entry = next(e for e in cheat.log if e and e["type"] == "orders" and e.get("faction") == "south")
    entry["pending"]["sig_digest"] = None
    entry["on_behalf"] = "South phoned their contribution in"
    cheat.rewrite()
    report = api.audit(camp)
    assert not any("were recorded without a signature" in p for p in report["problems"])
    assert any(c["kind"] == "on_behalf" for c in report["corrections"])


def test_a_signed_file_headed_for_another_step(camp: Path) -> None:
    """The audit's header check: a genuinely signed file of another phase, turn, campaign
    or faction recorded as this step's orders is named, each field that differs."""
    from pbem.audit import _Audit

    auditor = _Audit(camp)
    entry = {"turn": 1, "phase": "action"}
    good = {"campaign": "camp", "turn": 1, "phase": "action", "faction": ["south", "north"]}
    auditor._header("log/000009.yaml", "south", "orders/x.yaml", good, entry)
    assert auditor.problems == []
    for change, named in (({"turn": 0}, "turn"), ({"phase": "purchase"}, "phase"),
                          ({"campaign": "other"}, "campaign"), ({"faction": "red"}, "faction"),
                          ({"faction": "southern"}, "faction"), ({"faction": ["north"]}, "faction"),
                          ({"turn": 2, "phase": "victory"}, "turn, phase")):
        auditor.problems.clear()
        auditor._header("log/000009.yaml", "south", "orders/x.yaml", {**good, **change}, entry)
        assert auditor.problems == [f"log/000009.yaml: orders/x.yaml is headed for another {named} "
                                    "than the step that records it (turn 1, action, south)"]


@pytest.mark.parametrize(("seat", "on_behalf", "flagged"), [
    ({"ssh": "ssh-ed25519 AAAA", "unsigned_ok": False}, None, True),
    ({"ssh": "ssh-ed25519 AAAA"}, None, True),  # a key and no word on it: signing required
    ({"ssh": "ssh-ed25519 AAAA", "unsigned_ok": True}, None, False),  # hot-seat
    ({"unsigned_ok": False}, None, False),  # no key to sign with
    ({}, None, False),
    (None, None, False),  # no seat at all for the faction
    ({"ssh": "ssh-ed25519 AAAA", "unsigned_ok": False}, "phoned in", False),
])
def test_which_seats_must_sign(base: Path, seat: dict | None, on_behalf: str | None,
                               flagged: bool) -> None:
    """The seat in force is the one the log records (state `settings`, which `pbem seat`
    changes), and campaign.yaml's only for a log that records none."""
    from pbem.audit import _Audit

    entry = {"on_behalf": on_behalf} if on_behalf else {}
    for recorded in (True, False):
        auditor = _Audit(base)
        seats = {} if seat is None else {"south": seat}
        if recorded:
            auditor.folder.state = {"settings": {"factions": {"red": {}, **seats}}}
            # campaign.yaml's seat says the opposite: it must not be the one used
            auditor.factions = {"south": {"ssh": "x", "unsigned_ok": flagged}}
        else:
            auditor.folder.state = {}
            auditor.factions = {"red": {}, **seats}
        auditor._unsigned("log/000009.yaml", "south", entry)
        assert bool(auditor.problems) == flagged, (recorded, auditor.problems)
        if flagged:
            assert auditor.problems == [
                "log/000009.yaml: the orders of south were recorded without a signature, but its "
                "seat requires one (a key, not hot-seat) and the referee did not enter them on "
                "the player's behalf"]


def test_the_mailed_template_of_the_round_says_sign_it_as_it_is(tmp_path: Path) -> None:
    from pbem.mail import loop as mailloop

    root = tmp_path / "c"
    api.new_campaign(root, "red_russia", seed=SEED, name="c")
    attached = mailloop._template(root, ["red"], api.status(root), None)
    assert attached is not None and attached.filename == "orders-red-t0-contribute.yaml"
    assert attached.text.startswith("# Orders template for red: turn 0, contribute.\n"
                                    "# Your contribution to the hidden draws: nothing to fill in.")
    assert "legal EXAMPLE" not in attached.text
    _play(root, tmp_path / "keys", until=(0, "setup-place"), sign=False)
    later = mailloop._template(root, ["south"], api.status(root), None)
    assert later is not None and "# A legal EXAMPLE written by pbem's bot" in later.text


# ---------------------------------------------------------------------------------------
# the round is never resolved without every salt, unless the moderator says so


def _one_salt_in(root: Path, keys: Path, faction: str = "siberian") -> None:
    path = root.parent / f"{faction}-contribution.yaml"
    yamlio.write_atomic(path, yamlio.dump(api.bot(root, faction, salts=False)))
    api.sign(path, keys / f"{faction}_ed25519", root)
    api.apply(root, [path])


@pytest.mark.parametrize("given", [[], ["siberian"]])
def test_nmr_never_resolves_the_round_without_every_salt(tmp_path: Path, given: list[str]) -> None:
    root, keys = tmp_path / "c", tmp_path / "keys"
    api.new_campaign(root, "red_russia", seed=SEED, name="c", keys_dir=keys)
    for faction in given:
        _one_salt_in(root, keys, faction)
    before = git(root, "rev-parse", "HEAD")
    missing = [f for f in ("north", "red", "siberian", "south") if f not in given]
    r = run_pbem("-C", root, "resolve", "--nmr")
    assert r.code == 1
    assert r.err.strip() == (
        f"Error: the contribution round still awaits the salts of {', '.join(missing)}: nothing "
        "hidden is drawn until every salt is in. To draw the set-up without them, say so: pbem "
        "resolve --without-salts (status, every report and the audit will name them)")
    assert git(root, "rev-parse", "HEAD") == before and api.status(root)["phase"] == PHASE


def test_a_contribution_signed_without_a_salt_is_refused_with_the_way_to_add_one(
        tmp_path: Path) -> None:
    """Signed with ssh-keygen alone (here its format, written in-process), a contribution has
    no salt: it is refused, saying what is missing and how to add it, and nothing is recorded.
    Before, it was taken, and status then said the moderator had drawn the set-up without it."""
    from pbem.crypto import sshsig

    root, keys = tmp_path / "c", tmp_path / "keys"
    api.new_campaign(root, "red_russia", seed=SEED, name="c", keys_dir=keys)
    path = tmp_path / "red-contribution.yaml"
    yamlio.write_atomic(path, yamlio.dump(api.bot(root, "red", salts=False)))
    assert "salt" not in path.read_text()
    key = sshsig.load_private_key((keys / "red_ed25519").read_bytes(), "red_ed25519")
    (tmp_path / "red-contribution.yaml.sig").write_text(
        sshsig.sign(key, path.read_bytes(), "pbem-orders-v1"))
    before = git(root, "rev-parse", "HEAD")
    r = run_pbem("-C", root, "apply", path)
    assert r.code == 1
    assert (f"{path}:1: the contribution of red has no salt, so it would add nothing to the key "
            "of the hidden draws: sign the file in your clone with 'pbem sign FILE --key "
            "YOUR_ed25519', which adds it, or add a line 'salt: ' with 64 random hex digits "
            "(openssl rand -hex 32) before signing with ssh-keygen") in r.err
    assert git(root, "rev-parse", "HEAD") == before
    assert api.status(root)["awaiting"] == ["north", "red", "siberian", "south"]
    assert run_pbem("-C", root, "check", path).code == 1  # the player's own check says so too
    (tmp_path / "red-contribution.yaml.sig").unlink()
    assert run_pbem("-C", root, "check", path).code == 0  # before signing: nothing missing yet
    api.sign(path, keys / "red_ed25519", root)  # pbem sign adds the salt
    assert run_pbem("-C", root, "apply", path).code == 0


def test_a_contribution_signed_outside_a_clone_gets_the_first_salts_of_the_players_chain(
        tmp_path: Path) -> None:
    """A player by mail alone signs the mailed template with pbem sign and no clone: the file
    gets salt(0) of his chain and the commitment to salt(1) (docs/fairness.md section 7), it
    is taken, and his next file, signed in a clone, opens that commitment."""
    from cryptography.hazmat.primitives import serialization

    from pbem.crypto.keys import load_ssh_private_file

    root, keys = tmp_path / "c", tmp_path / "keys"
    api.new_campaign(root, "red_russia", seed=SEED, name="c", keys_dir=keys)
    path = tmp_path / "red-contribution.yaml"
    yamlio.write_atomic(path, yamlio.dump(api.bot(root, "red", salts=False)))
    signed = api.sign(path, keys / "red_ed25519")  # no clone
    assert signed.salts == {"red": "added"} and signed.no_salts is None
    seed = load_ssh_private_file(keys / "red_ed25519").private_bytes(
        serialization.Encoding.Raw, serialization.PrivateFormat.Raw, serialization.NoEncryption())
    salt_key = randomness.player_salt_key(seed)
    data = yamlio.load_untrusted(path.read_bytes(), str(path)).data
    assert data["salt"] == randomness.player_salt(salt_key, "c", "red", 0)
    assert data["salt_next"] == randomness.salt_commitment(randomness.player_salt(salt_key, "c", "red", 1))
    assert api.apply(root, [path]).recorded
    # what pbem sign in a clone looks for when it signs red's next file, at step 2
    assert randomness.opening_salt(salt_key, "c", "red", data["salt_next"], 2) == \
        randomness.player_salt(salt_key, "c", "red", 1)
    other = tmp_path / "red-outside-the-round.yaml"
    yamlio.write_atomic(other, yamlio.dump({**api.bot(root, "red", salts=False), "phase": "action"}))
    assert api.sign(other, keys / "red_ed25519").no_salts is not None  # only the round's file


def test_the_round_resolved_without_some_salts_says_so_everywhere(tmp_path: Path) -> None:
    root, keys = tmp_path / "c", tmp_path / "keys"
    api.new_campaign(root, "red_russia", seed=SEED, name="c", keys_dir=keys)
    _one_salt_in(root, keys)
    r = run_pbem("-C", root, "resolve", "--without-salts")
    assert r.code == 0, r.err
    said = ("keyed by the referee's hidden secret and the salts of siberian; without the salts "
            "of north, red, south: the set-up was drawn with no salt of theirs, so the referee's "
            "secret stood in for theirs")
    assert api.status(root)["hidden_draws"] == said
    assert f"hidden draws: {said}" in run_pbem("-C", root, "status").out
    from pbem.reports.render import render

    for reader in ("public", "red", "siberian"):
        text = " ".join(render(root, reader, "text").split())
        assert ("Hidden draws (the set-up, every shuffle) are keyed without the salts of north, "
                "red, south: the set-up was drawn with no salt of theirs") in text, reader
    audit = run_pbem("-C", root, "audit")
    assert audit.code == 0, audit.err
    assert f"hidden draws: {said}" in audit.out and "audit: OK" in audit.out
    assert api.audit(root)["hidden_draws"] == said


def test_with_every_salt_nothing_is_said_missing(base: Path) -> None:
    said = "keyed by the referee's hidden secret and the salts of north, red, siberian, south"
    assert api.status(base)["hidden_draws"] == said
    assert api.audit(base)["hidden_draws"] == said
    from pbem.reports.render import render

    assert "Hidden draws" not in render(base, "public", "text")


def test_without_salts_is_for_the_round_only(base: Path) -> None:
    r = run_pbem("-C", base, "resolve", "--without-salts")
    assert r.code == 2
    assert r.err.strip() == "Error: --without-salts is for the contribution round only; this is phase action"


def test_the_clock_never_resolves_the_round(tmp_path: Path) -> None:
    """`pbem tick` after the round's deadline reminds, and leaves the drawing to the
    moderator."""
    from datetime import timedelta

    from pbem.mail import loop
    from pbem.schedule import _parse_iso, deadline_of

    root, keys = tmp_path / "c", tmp_path / "keys"
    api.new_campaign(root, "red_russia", seed=SEED, name="c", keys_dir=keys,
                     players=["red=Ann <ann@example.org>", "siberian=Bob <bob@example.org>",
                              "south,north=Cy <cy@example.org>"])
    config = yamlio.read_trusted(root / "campaign.yaml")
    config["deadlines"] = {"hours": 24, "grace_hours": 0}
    (root / "campaign.yaml").write_text(yamlio.dump(config))
    _one_salt_in(root, keys)
    due = deadline_of(Campaign.open(root))
    assert due is not None
    done = loop.tick(root, now=_parse_iso(due["grace_until"]) + timedelta(hours=1))
    assert done["resolved"] == []
    assert ("deadline passed; the contribution round still awaits the salts of north, red, "
            "south: only the moderator may draw the set-up without them (pbem resolve "
            "--without-salts)") in done["actions"]
    assert api.status(root)["phase"] == PHASE
