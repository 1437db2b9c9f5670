"""An independent verifier (tests/verifier.py: the standard library and `cryptography`,
never pbem) checks a whole seeded campaign that pbem's own bot played, and
docs/verifying.md's worked examples are asserted here, so the document and the code
cannot drift apart. Only this test imports pbem, to build the campaign."""

from __future__ import annotations

import ast
import hashlib
import hmac
import re
import shutil
import subprocess
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest
import yaml

from tests import verifier as v
from tests.conftest import isolate

ROOT = Path(__file__).resolve().parents[2]
DOC = ROOT / "docs" / "verifying.md"
SEED = "verify-doc"
ROUND_SEED = "verify-round"  # section 12's campaign, with the contribution round


def _orders(root: Path, step: int) -> None:
    """Bot orders for every awaited faction (or a resolution when nobody is awaited)."""
    from pbem import api, yamlio

    status = api.status(root)
    files = []
    for faction in status["awaiting"]:
        path = root.parent / "orders" / f"{step:04d}-{faction}.yaml"
        yamlio.write_atomic(path, yamlio.dump(api.bot(root, faction, seed="verify")))
        files.append(path)
    if files:
        api.apply(root, files)
    else:
        api.resolve(root)


def build(root: Path) -> Path:
    """The campaign of docs/verifying.md: seeded, hot-seat, played by the bot to turn 1's
    actions, with an undo of a resolution (a re-roll), an adjustment, a resolution with a
    faction missing (NMR), a seat step, and at last `pbem unseal`."""
    from pbem import api, yamlio

    api.new_campaign(root, "red_russia", contributions=False, hot_seat=True, seed=SEED, name=SEED)
    step = 0
    while api.status(root)["phase"] != "action":
        _orders(root, step)
        step += 1
    api.undo(root, "the initiative dice were rolled before a late mail came")
    api.resolve(root)  # the initiative again: the next batch of the chain
    adjust = root.parent / "adjust.yaml"
    adjust.write_text("- type: set_resources\n  faction: red\n  money: 9\n")
    api.adjust(root, adjust, "a purchase lost in the mail")
    api.resolve(root, nmr=True)  # the faction awaited sent nothing
    api.seat(root, ["north"], "a new player takes the Northern Whites",
             player="Nora <nora@example.org>")
    for _ in range(3):
        _orders(root, step)
        step += 1
    api.unseal(root, force=True)
    assert yamlio.read_trusted(root / "log" / "000001.yaml")["seq"] == 1
    return root


def build_round(root: Path) -> Path:
    """Section 12's campaign: the contribution round held, every faction's file of the round
    written by the bot (so each salt is that faction's first bot salt), then `pbem unseal`."""
    from pbem import api, yamlio

    api.new_campaign(root, "red_russia", hot_seat=True, seed=ROUND_SEED, name=ROUND_SEED)
    files = []
    for faction in api.status(root)["awaiting"]:
        path = root.parent / "orders" / f"round-{faction}.yaml"
        yamlio.write_atomic(path, yamlio.dump(api.bot(root, faction, seed="verify")))
        files.append(path)
    api.apply(root, files)
    api.unseal(root, force=True)
    return root


def _isolated(tmp_path_factory: pytest.TempPathFactory,
              make: Callable[[Path], Path], name: str) -> Iterator[Path]:
    """A campaign built once for the module, with conftest's isolation (HOME, git config,
    identity)."""
    with pytest.MonkeyPatch.context() as mp:
        isolate(mp, tmp_path_factory.mktemp("home"))
        yield make(tmp_path_factory.mktemp(name) / name)


@pytest.fixture(scope="module")
def round_campaign(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Path]:
    yield from _isolated(tmp_path_factory, build_round, ROUND_SEED)


@pytest.fixture(scope="module")
def campaign(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Path]:
    yield from _isolated(tmp_path_factory, build, SEED)


# --------------------------------------------------------------------------------------
# the verifier is independent


def test_the_verifier_imports_only_the_standard_library_and_cryptography() -> None:
    import sys

    tree = ast.parse((ROOT / "tests" / "verifier.py").read_text(encoding="utf-8"))
    names = {alias.name.split(".")[0] for node in ast.walk(tree) if isinstance(node, ast.Import)
             for alias in node.names}
    names |= {node.module.split(".")[0] for node in ast.walk(tree)
              if isinstance(node, ast.ImportFrom) and node.module}
    assert names - set(sys.stdlib_module_names) == {"cryptography"}, names


# --------------------------------------------------------------------------------------
# docs/verifying.md: every `name = value` line is what the verifier computes


def doc_values() -> dict[str, str]:
    found = re.findall(r"^([a-z]\w*\.[\w.]+) = (.+)$", DOC.read_text(encoding="utf-8"), re.M)
    names = [n for n, _ in found]
    assert len(names) == len(set(names)), "a name printed twice in docs/verifying.md"
    return {n: value.strip() for n, value in found}


def computed(root: Path) -> dict[str, str]:
    """Each documented value, computed by the verifier from the campaign's git history
    (or, for the frozen commitment example, from the document's own inputs)."""
    history = v.read_history(root)
    e = {entry["seq"]: entry for entry in history.entries}
    doc = doc_values()
    salts = e[19]["salts"]
    key = v.batch_key(bytes.fromhex(e[19]["seed"]), salts)
    die1 = e[19]["dice"][0]
    b0 = hashlib.sha256(f"pbem-bot-salt-v1\0{SEED}\0siberian".encode()).hexdigest()
    b1 = hashlib.sha256(b"pbem-bot-salt-v1\0" + bytes.fromhex(b0)).hexdigest()
    hidden = bytes.fromhex(e[33]["hidden"])
    hidden_key = hmac.digest(hidden, b"pbem-hidden-v1", "sha256")
    pile1 = next(o["value"] for o in e[33]["opened"] if o["node"]["id"] == "pile-1")
    ctx = v.load_yaml(doc["commit.ctx"])  # JSON is flow YAML
    ctx_bytes = v.canonical_json(ctx)
    return {
        "canonical.example": v.canonical_json({"zone": "Kazań", "n": -3, "ok": True, "x": None}).hex(),
        "referee.ssh": history.config["referee"]["ssh"],
        "entry1.canonical_bytes": str(len(v.canonical_json(v.body(e[1])))),
        "entry1.signature": e[1]["signature"],
        "entry1.hash": v.entry_hash(e[1]),
        "entry2.prev": e[2]["prev"],
        "bot.siberian.b0": b0,
        "bot.siberian.b1": b1,
        "step2.salt_next": v.salt_commitment(b1),
        "step19.batch": str(e[19]["batch"]),
        "step19.seed": e[19]["seed"],
        "step14.seed": hashlib.sha256(bytes.fromhex(e[19]["seed"])).hexdigest(),
        "step19.salts_digest": hashlib.sha256(v.canonical_json(salts)).hexdigest(),
        "step19.key": key.hex(),
        "step19.die1.hmac": hmac.digest(key, die1["label"].encode() + b"\0" + bytes(4), "sha256").hex(),
        "commit.ctx": ctx_bytes.decode(),
        "commit.ctx_len": len(ctx_bytes).to_bytes(4, "big").hex(),
        "commit.nonce": doc["commit.nonce"],
        "commit.value": doc["commit.value"],
        "commit.C": v.commitment(ctx, bytes.fromhex(doc["commit.nonce"]),
                                 v.load_yaml(doc["commit.value"])),
        "unseal.hidden": e[33]["hidden"],
        "unseal.hidden_key": hidden_key.hex(),
        "pile1.first": " ".join(pile1[:5]),
        "step20.batch": str(e[20]["batch"]),
        "step22.batch": str(e[22]["batch"]),
        "step24.batch": str(e[24]["batch"]),
    }


def computed_round(root: Path) -> dict[str, str]:
    """Section 12's values, computed by the verifier's own functions from the history."""
    e = {entry["seq"]: entry for entry in v.read_history(root).entries}
    digest = hashlib.sha256(v.canonical_json(e[6]["salts"])).digest()
    hidden = bytes.fromhex(e[7]["hidden"])
    mixed = hmac.digest(hmac.digest(hidden, b"pbem-hidden-v1", "sha256"),
                        b"pbem-hidden-mix-v1" + digest, "sha256")
    die1 = e[6]["dice"][0]
    assert v.die(mixed, die1["label"], die1["sides"]) == die1["value"]
    return {
        "round.salts.red": hashlib.sha256(f"pbem-bot-salt-v1\0{ROUND_SEED}\0red".encode()).hexdigest(),
        "round.salts_digest": digest.hex(),
        "round.hidden": e[7]["hidden"],
        "round.mixed_key": mixed.hex(),
        "round.die1.label": die1["label"],
        "round.die1.value": str(die1["value"]),
    }


def test_every_worked_example_of_the_document_is_what_the_verifier_computes(
        campaign: Path, round_campaign: Path, chechen_war: Path) -> None:
    doc, got = doc_values(), {**computed(campaign), **computed_round(round_campaign),
                              **computed_chechen_war(chechen_war)}
    assert set(doc) == set(got), set(doc) ^ set(got)
    assert {k: got[k] for k in doc} == doc


def test_the_documented_values_are_those_of_the_log_itself(campaign: Path) -> None:
    """What the document says it took from the campaign is in the log as pbem wrote it."""
    from pbem import api, randomness, yamlio

    doc = doc_values()
    log = {p.name: yamlio.read_trusted(p) for p in (campaign / "log").glob("*.yaml")}
    assert log["000002.yaml"]["faction"] == "siberian"
    assert log["000002.yaml"]["pending"]["salt_next"] == doc["step2.salt_next"]
    assert log["000005.yaml"]["revealed"]["siberian"]["value"]["salt"] == doc["bot.siberian.b0"]
    assert log["000014.yaml"]["seed"] == doc["step14.seed"]
    first = log["000019.yaml"]["dice"][0]
    assert (first["label"], first["sides"], first["value"]) == ("card:war-communism:t1:e0:d1", 6, 2)
    word = int(doc["step19.die1.hmac"][:8], 16)
    assert word == 4279644433 and word % 6 + 1 == 2
    assert log["000021.yaml"]["undoes"] == 20
    assert log["000023.yaml"]["type"] == "adjust" and "batch" not in log["000023.yaml"]
    assert log["000024.yaml"]["nmr_policy"] == {"red": "hold"}
    assert log["000024.yaml"]["salts"] == log["000022.yaml"]["salts"]
    assert log["000025.yaml"]["type"] == "seat"
    assert randomness.hidden_secret(api.seed_secret(SEED)).hex() == doc["unseal.hidden"]
    assert (yamlio.read_trusted(campaign / "campaign.yaml")["referee"]["ssh"]
            == doc["referee.ssh"])


def test_the_round_of_section_12_is_as_the_log_records_it(round_campaign: Path) -> None:
    """The steps section 12 names, and the verifier passes the campaign."""
    from pbem import api, randomness, yamlio

    doc = doc_values()
    log = {p.name: yamlio.read_trusted(p) for p in (round_campaign / "log").glob("*.yaml")}
    assert log["000001.yaml"]["contribute"] == ["red", "siberian", "south", "north"]
    assert "dice" not in log["000001.yaml"]
    assert [log[f"{n:06d}.yaml"]["type"] for n in range(2, 8)] == ["orders"] * 4 + ["resolve", "unseal"]
    round_ = log["000006.yaml"]
    assert round_["hidden_draws"] is True and "batch" not in round_ and "seed" not in round_
    assert round_["salts"]["red"] == doc["round.salts.red"]
    assert randomness.hidden_secret(api.seed_secret(ROUND_SEED)).hex() == doc["round.hidden"]
    report = v.verify(round_campaign, deck=_deck())
    assert not report.problems, report.problems


# --------------------------------------------------------------------------------------
# the whole campaign


def _deck() -> list[str]:
    from pbem.game import load_data

    return sorted(c["id"] for c in load_data("red_russia")["cards"]["cards"]
                  if c["id"] != "czech-legion-formed")


def test_the_verifier_passes_a_campaign_the_bot_played(campaign: Path) -> None:
    from pbem import api

    report = v.verify(campaign, deck=_deck())
    assert report.ok, report.problems
    audit = api.audit(campaign, final=True)
    assert audit["ok"], audit["problems"]
    entries = v.read_history(campaign).entries
    assert {e["type"] for e in entries} == {"new", "orders", "resolve", "undo", "adjust", "seat",
                                            "unseal"}
    c = report.checked
    assert c["entries"] == c["signatures"] == c["links"] == audit["checked"]["entries"] == 33
    assert c["batches"] == 12 and c["piles"] == 1
    assert c["dice"] + c["hidden_dice"] == audit["checked"]["rolls"]
    assert c["commitments"] == audit["checked"]["commitments"]


def test_the_yaml_reader_reads_what_pyyaml_reads(campaign: Path) -> None:
    import random

    from pbem import yamlio

    for path in [*sorted((campaign / "log").glob("*.yaml")), campaign / "state.yaml",
                 campaign / "campaign.yaml"]:
        raw = path.read_text(encoding="utf-8")
        assert v.load_yaml(raw) == yaml.safe_load(raw), path.name
    rnd = random.Random(5)
    letters = "abcXYZ019 :-#,[]{}'\"\n\\|>!&*?%@`~=._/éń€\x01\x7f\xa0\ufeff"
    specials = ["no", "012", "0x1f", "1:30", "2026-05-01", "1.5", "~", "null", "yes", "09",
                "1_000", "-", "- x", " x", "x ", "", "=", "<<", "...", "x\n", " x\ny\n", "\n"]

    def text() -> str:
        return "".join(rnd.choice(letters) for _ in range(rnd.choice([0, 1, 3, 20, 70, 130])))

    def value(depth: int = 0) -> Any:
        r = rnd.random()
        if depth > 3 or r < 0.4:
            return rnd.choice([text(), text(), rnd.randint(-5, 10**6), True, False, None,
                               rnd.choice(specials)])
        if r < 0.7:
            return [value(depth + 1) for _ in range(rnd.choice([0, 1, 3, 13]))]
        return {rnd.choice(["k", "zone", "label"]) + text()[:10].replace("\n", " "): value(depth + 1)
                for _ in range(rnd.choice([0, 1, 3, 7]))}

    for _ in range(400):
        data = {"x": value()}
        dumped = yamlio.dump(data)
        assert v.load_yaml(dumped) == data, dumped


# --------------------------------------------------------------------------------------
# tampering


def test_a_tampered_die_is_caught_in_memory(campaign: Path) -> None:
    entry = next(e for e in v.read_history(campaign).entries if e["seq"] == 19)
    clean = v.Report()
    v.check_batch(entry, clean)
    assert clean.ok and clean.checked["dice"] == 12
    entry["dice"][4]["value"] = entry["dice"][4]["value"] % entry["dice"][4]["sides"] + 1
    report = v.Report()
    v.check_batch(entry, report)
    assert report.problems == [f"step 19: die {entry['dice'][4]['label']} = {entry['dice'][4]['value']} "
                               "is not what the seed and salts give"]


def test_a_tampered_die_is_caught_even_when_the_referee_signs_it_again(campaign: Path,
                                                                       tmp_path: Path) -> None:
    """A dishonest referee changes one die in a copy of step 19 and signs it again."""
    from pbem.crypto import keys as crypto

    copy = tmp_path / "copy"
    shutil.copytree(campaign, copy)
    path = copy / "log" / "000019.yaml"
    text = path.read_text(encoding="utf-8")
    line = "- {label: 'card:war-communism:t1:e0:d1', sides: 6, value: 2}\n"
    assert line in text
    entry = v.load_yaml(text.replace(line, line.replace("value: 2", "value: 5")))
    key = crypto.load_ssh_private_file(copy / ".pbem" / "referee_ed25519")
    signature = crypto.sign_entry(key, v.body(entry))
    old = v.load_yaml(text)["signature"]
    path.write_text(text.replace(line, line.replace("value: 2", "value: 5")).replace(old, signature),
                    encoding="utf-8")
    subprocess.run(["git", "-C", str(copy), "commit", "-qam", "a better die"], check=True)
    report = v.verify(copy, deck=_deck())
    assert "step 19: die card:war-communism:t1:e0:d1 = 5 is not what the seed and salts give" \
        in report.problems
    assert "step 20: prev is not the hash of step 19" in report.problems
    assert any("log/000019.yaml: changed or removed" in p for p in report.problems)
    assert not any("signature" in p for p in report.problems)  # the new signature is good


# --------------------------------------------------------------------------------------
# the Chechen War's face-down units, recomputed as docs/fairness.md section 6 says

CW_SEED = "verify-cw"


def build_chechen_war(root: Path) -> Path:
    """A Chechen War campaign with the contribution round, played by the bot to turn 5 (the
    set-up, reinforcements drawn from the cup and placed), then unsealed."""
    from pbem import api
    from tests.conftest import play

    api.new_campaign(root, "chechen_war", hot_seat=True, seed=CW_SEED, name=CW_SEED)
    play(root, until_turn=5, seed="verify")
    api.unseal(root, force=True)
    return root


@pytest.fixture(scope="module")
def chechen_war(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Path]:
    yield from _isolated(tmp_path_factory, build_chechen_war, CW_SEED)


def chechen_cups() -> tuple[list[str], list[str]]:
    """The Chechen regulars and militia of units.yaml, read here (not through pbem)."""
    units = yaml.safe_load((ROOT / "games" / "chechen_war" / "units.yaml").read_text())["units"]
    ids = {n: sorted(u for u, x in units.items() if x["side"] == "chechen" and x["nationality"] == n)
           for n in ("chechen_regular", "chechen_militia")}
    return ids["chechen_regular"], ids["chechen_militia"]


def computed_chechen_war(root: Path) -> dict[str, str]:
    """Section 13's values, computed by the verifier's own functions from the history."""
    history = v.read_history(root)
    e = {entry["seq"]: entry for entry in history.entries}
    drawn_with = v.draw_key(history.entries)
    assert drawn_with is not None
    key = v.owner_key(drawn_with, "chechen")
    regulars, militia = chechen_cups()
    placed = next(ev["tokens"] for ev in e[8]["events"] if ev["type"] == "tokens_placed")
    secret = next(o["value"] for o in e[max(e)]["opened"] if o["node"]["kind"] == "orders-secret"
                  and o["node"]["owner"] == "chechen" and "setup-chechen" in o["node"]["id"])
    units = v._set_up(key, placed, secret, regulars, militia)
    step, drawn = next((seq, ev) for seq in sorted(e) for ev in e[seq].get("events") or []
                       if ev["type"] == "drawn")
    return {
        "cw.draw_key": drawn_with.hex(),
        "cw.chechen_key": key.hex(),
        "cw.regular_cup.first": " ".join(v.shuffle(key, "setup:regulars", regulars)[:3]),
        "cw.tokens_order.first": " ".join(v.shuffle(key, "setup:tokens", sorted(placed))[:6]),
        "cw.t02": units["t02"],
        "cw.draw1.id": drawn["units"][0]["id"],
        "cw.draw1.step": str(step),
    }


def test_the_chechen_wars_hidden_draws_are_what_the_document_says(chechen_war: Path) -> None:
    """Every unit sealed to the Chechen (the 24 tokens of the set-up, each unit drawn from the
    cup, each recruit placed) is what docs/fairness.md's derivation gives from the draw key,
    recomputed by the verifier without pbem."""
    report = v.chechen_units(chechen_war, *chechen_cups())
    assert report.problems == []
    assert report.checked["tokens"] == 24
    assert report.checked["draws"] > 0 and report.checked["arrivals"] > 0, report.checked


def test_a_draw_from_another_key_is_caught(chechen_war: Path) -> None:
    """The same check under a key one bit off finds the set-up and the draws wrong: the check
    depends on the key, not only on the shape of the log."""
    real = v.owner_key
    try:
        v.owner_key = lambda key, owner: bytes(b ^ (i == 0) for i, b in enumerate(real(key, owner)))  # type: ignore[assignment]
        report = v.chechen_units(chechen_war, *chechen_cups())
    finally:
        v.owner_key = real  # type: ignore[assignment]
    assert any("token t" in p and "the draw gives" in p for p in report.problems)
    # a draw from the cup (at the end of a turn: reinforcements, or an infiltrator, 12.0)
    assert any(":reinforcements:" in p or ":infiltration:" in p for p in report.problems), report.problems
    assert any("own draw key is not the one" in p for p in report.problems)
