"""Secrets in a played campaign: signed orders, sealed simultaneous orders, signed history.

These tests use the actual keys and the actual secret values, never pbem's own metadata,
to decide who can read what.
"""

from __future__ import annotations

import json
import re
import subprocess
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from conftest import git, play, tree_state
from hypothesis import given, settings
from hypothesis import strategies as st

from pbem import api, yamlio
from pbem.crypto import age, sealed
from pbem.crypto.keys import load_identity_file
from pbem.errors import CryptoError, KeyFileError
from pbem.store import Store

ARMOR = re.compile(rb"-----BEGIN AGE ENCRYPTED FILE-----.*?-----END AGE ENCRYPTED FILE-----", re.S)
FACTIONS = ("red", "siberian", "south", "north")

CARDS = yamlio.load_trusted(
    (Path(__file__).resolve().parents[3] / "games" / "red_russia" / "cards.yaml").read_text())["cards"]


@pytest.fixture
def played(tmp_path: Path) -> tuple[Path, Path]:
    """A campaign with every faction's keys, played by the bot into turn 2."""
    root, keys = tmp_path / "camp", tmp_path / "keys"
    api.new_campaign(root, "red_russia", contributions=False, hot_seat=True, seed="secrets", name="camp", keys_dir=keys)
    play(root, until_turn=2, phase="action")
    return root, keys


def identities(keys: Path, root: Path) -> dict[str, list[str]]:
    ids = {f: load_identity_file(keys / f"{f}.key") for f in FACTIONS}
    ids["referee"] = load_identity_file(root / ".pbem" / "referee.key")
    return ids


def test_every_sealed_block_in_history_opens_for_the_referee_and_at_most_one_faction(
    played: tuple[Path, Path],
) -> None:
    root, keys = played
    ids = identities(keys, root)
    # the blocks as YAML holds them (indented block scalars), as a player would copy them out
    blocks = {b"\n".join(line.strip() for line in m.group(0).splitlines()) + b"\n"
              for _, blob in Store.open(root).all_blobs() for m in ARMOR.finditer(blob)}
    assert len(blocks) >= 7  # the sealed orders of the simultaneous set-up phases
    for block in blocks:
        readers = []
        for who, identity in ids.items():
            try:
                age.decrypt(block, identity)
                readers.append(who)
            except CryptoError:
                pass
        assert "referee" in readers
        assert len([r for r in readers if r != "referee"]) <= 1, readers


def test_no_sealed_orders_appear_in_plain_text_before_they_are_revealed(
    played: tuple[Path, Path],
) -> None:
    root, keys = played
    referee = identities(keys, root)["referee"]
    store = Store.open(root)
    history = store.changes()
    entries = [yamlio.read_trusted(p) for p in sorted((root / "log").glob("*.yaml"))]
    added = {}  # seq -> index in history of the commit that added that entry
    for i, (_, changed) in enumerate(history):
        for name in changed:
            if name.startswith("log/"):
                added.setdefault(int(Path(name).stem), i)
    checked = 0
    for entry in entries:
        if entry["type"] != "orders" or "sealed" not in entry["pending"]:
            continue
        value = sealed.open_node("camp", entry["pending"]["sealed"], referee).value
        secrets = [value["file"].encode()]
        if value["body"]["orders"]:  # an empty list of orders hides nothing
            secrets += [json.dumps(value["body"]["orders"]).encode(),
                        json.dumps(value["body"]["orders"], separators=(",", ":")).encode()]
        reveal = next(e["seq"] for e in entries if e["seq"] > entry["seq"] and e["type"] == "resolve")
        for sha, _ in history[: added[reveal]]:
            for name, data in _tree_blobs(store, sha):
                assert not any(s in data for s in secrets), (entry["seq"], name, sha)
        checked += 1
    assert checked >= 7


def _tree_blobs(store: Store, sha: str) -> list[tuple[str, bytes]]:
    out = []
    for path in subprocess.run(["git", "ls-tree", "-r", "--name-only", sha], cwd=store.root,
                               capture_output=True, text=True, check=True).stdout.split():
        out.append((path, store.read_at(sha, path) or b""))
    return out


def test_a_player_decrypts_their_sealed_orders_with_debian_age(
    played: tuple[Path, Path], require_tool: Callable[[str], None], tmp_path: Path,
) -> None:
    require_tool("age")
    root, keys = played
    entry = yamlio.read_trusted(root / "log" / "000002.yaml")
    node = entry["pending"]["sealed"]
    block = tmp_path / "secret.age"
    block.write_text(node["sealed"])
    out = subprocess.run(["age", "-d", "-i", str(keys / f"{node['owner']}.key"), str(block)],
                         capture_output=True, check=True).stdout
    length = int.from_bytes(out[:4], "big")  # pbem pads: 4-byte length, value, zeros
    opened = json.loads(out[4: 4 + length])
    assert opened["ctx"]["owner"] == node["owner"]
    assert sealed.check_opening("camp", node, opened["nonce"], opened["value"])


def test_reveal_lists_a_factions_own_secrets_verified(played: tuple[Path, Path], pbem: Any) -> None:
    root, keys = played
    result = pbem("-C", root, "reveal", "--key", keys / "south.key", "--json")
    assert result.code == 0, result.err
    found = json.loads(result.out)
    assert found and {s["kind"] for s in found} == {"orders", "card"}
    assert all(s["verified"] and s["owner"] == "south" for s in found)
    hand = [s["value"] for s in found if s["kind"] == "card"]
    assert len(hand) >= 5 and set(hand) <= {c["id"] for c in CARDS}  # 14.3: South holds 5
    assert set(found[0]) >= {"kind", "id", "value", "commitment", "verified"}


def test_reveal_shows_the_hand_card_by_card_and_the_rest_readably(played: tuple[Path, Path],
                                                                    pbem: Any) -> None:
    """Without --json: the hand as the reports show it (each card's slot, title and text),
    the other values sealed to the key as written, the published ones one line each; no
    truncated JSON, and nobody else's secret."""
    root, keys = played
    found = json.loads(pbem("-C", root, "reveal", "--key", keys / "south.key", "--json").out)
    result = pbem("-C", root, "reveal", "--key", keys / "south.key")
    assert result.code == 0, result.err
    text = "".join(result.out.split())  # the card texts are wrapped, words split at hyphens
    by_id = {c["id"]: c for c in CARDS}
    mine = {s["id"]: s["value"] for s in found if s["kind"] == "card"}
    shown = [line for line in result.out.splitlines() if line.startswith("c") and ": " in line]
    assert len(shown) >= 5 and f"YOUR HAND ({len(shown)} cards" in result.out
    for line in shown:  # "c26: Kronstadt rising [kronstadt-rising] ..."
        slot, rest = line.split(": ", 1)
        card = by_id[mine[slot]]
        assert rest.startswith(f"{card['title']} [{card['id']}]"), line
        assert "".join(str(card["text"]).split()) in text
    assert "{" not in result.out  # no JSON dump
    published = [line for line in result.out.splitlines() if "public at step" in line]
    assert published and all(line.endswith(": verified") for line in published)
    assert len(published) + len(shown) <= len(found)
    assert not any(s["owner"] != "south" for s in found)


def test_audit_checks_signatures_and_commitments(played: tuple[Path, Path]) -> None:
    root, _ = played
    report = api.audit(root)
    assert report["ok"], report["problems"]
    assert report["checked"]["signatures"] >= report["checked"]["entries"]
    assert report["checked"]["commitments"] >= 7


# ---------------------------------------------------------------------------------------
# tampering


def _commit_all(root: Path, message: str) -> None:
    git(root, "add", "-A")
    git(root, "commit", "-q", "-m", message)


def test_a_changed_byte_in_a_committed_entry_is_caught(played: tuple[Path, Path], pbem: Any) -> None:
    root, _ = played
    path = root / "log" / "000005.yaml"
    text = path.read_text()
    path.write_text(text.replace("turn: 0", "turn: 1", 1))
    _commit_all(root, "edit")
    result = pbem("-C", root, "audit")
    assert result.code == 3
    assert "log/000005.yaml" in result.err


def test_a_history_rewritten_with_valid_git_is_caught(played: tuple[Path, Path], pbem: Any) -> None:
    root, _ = played
    # rewrite entry 3 in every commit, as a force-push of a doctored history would
    subprocess.run(
        ["git", "filter-branch", "-f", "--tree-filter",
         "test -f log/000003.yaml && sed -i 's/^summary: .*/summary: nothing happened/' "
         "log/000003.yaml || true", "HEAD"],
        cwd=root, check=True, capture_output=True, env={**__import__("os").environ,
                                                        "FILTER_BRANCH_SQUELCH_WARNING": "1"})
    result = pbem("-C", root, "audit", "--json")
    assert result.code == 3
    problems = json.loads(result.out)["problems"]
    assert any("log/000003.yaml" in p and "signature" in p for p in problems), problems


def test_a_removed_entry_is_caught(played: tuple[Path, Path], pbem: Any) -> None:
    root, _ = played
    last = sorted((root / "log").glob("*.yaml"))[-1]
    last.unlink()
    _commit_all(root, "remove")
    assert pbem("-C", root, "audit").code == 3


def test_reordered_entries_are_caught(played: tuple[Path, Path], pbem: Any) -> None:
    root, _ = played
    a, b = root / "log" / "000003.yaml", root / "log" / "000004.yaml"
    ta, tb = a.read_text(), b.read_text()
    a.write_text(tb)
    b.write_text(ta)
    _commit_all(root, "swap")
    result = pbem("-C", root, "audit", "--json")
    assert result.code == 3
    assert any("000003" in p for p in json.loads(result.out)["problems"])


def test_a_swapped_envelope_is_caught(played: tuple[Path, Path], pbem: Any) -> None:
    root, _ = played
    a, b = root / "log" / "000002.yaml", root / "log" / "000003.yaml"
    block_b = ARMOR.search(b.read_bytes())
    assert block_b is not None
    a.write_bytes(ARMOR.sub(lambda _m: block_b.group(0), a.read_bytes()))
    _commit_all(root, "swap envelope")
    assert pbem("-C", root, "audit").code == 3


def test_a_changed_die_is_caught(played: tuple[Path, Path], pbem: Any) -> None:
    root, _ = played
    for path in sorted((root / "log").glob("*.yaml")):
        entry = yamlio.read_trusted(path)
        if entry.get("dice") and entry["type"] == "resolve":
            text = path.read_text()
            value = entry["dice"][0]["value"]
            other = 1 if value != 1 else 2
            old = f"value: {value}}}"
            assert old in text
            path.write_text(text.replace(old, f"value: {other}}}", 1))
            break
    _commit_all(root, "die")
    assert pbem("-C", root, "audit").code == 3


# ---------------------------------------------------------------------------------------
# signed orders


@pytest.fixture
def signed(tmp_path: Path, pbem: Any) -> tuple[Path, Path]:
    """A campaign where south is a remote player with a registered key card."""
    assert pbem("keygen", "--out", tmp_path / "bob").code == 0
    assert pbem("keygen", "--out", tmp_path / "eve").code == 0
    root = tmp_path / "camp"
    result = pbem("new", root, "--game", "red_russia", "--no-contributions", "--hot-seat", "--seed", "signed", "--name", "camp",
                  "--player", "south=Bob <bob@example.org>", "--key", f"south={tmp_path / 'bob.card'}")
    assert result.code == 0, result.err
    return root, tmp_path


def _orders(root: Path, folder: Path, name: str = "south.yaml") -> Path:
    path = folder / name
    yamlio.write_atomic(path, yamlio.dump(api.bot(root, "south")))
    return path


def test_unsigned_orders_are_rejected_where_a_signature_is_required(
    signed: tuple[Path, Path], pbem: Any,
) -> None:
    root, folder = signed
    orders = _orders(root, folder)
    before = tree_state(root)
    result = pbem("-C", root, "apply", orders)
    assert result.code == 1
    assert "must be signed" in result.err
    assert tree_state(root) == before


def test_pbem_sign_is_accepted_and_verifies_with_ssh_keygen(
    signed: tuple[Path, Path], pbem: Any, require_tool: Callable[[str], None],
) -> None:
    require_tool("ssh-keygen")
    root, folder = signed
    orders = _orders(root, folder)
    assert pbem("sign", orders, "--key", folder / "bob_ed25519").code == 0
    allowed = folder / "allowed"
    allowed.write_text("south " + (folder / "bob_ed25519.pub").read_text())
    with orders.open("rb") as handle:
        subprocess.run(["ssh-keygen", "-Y", "verify", "-f", str(allowed), "-I", "south",
                        "-n", "pbem-orders-v1", "-s", f"{orders}.sig"], stdin=handle, check=True,
                       capture_output=True)
    result = pbem("-C", root, "apply", orders)
    assert result.code == 0, result.err


def test_a_signature_made_by_ssh_keygen_is_accepted(
    signed: tuple[Path, Path], pbem: Any, require_tool: Callable[[str], None],
) -> None:
    require_tool("ssh-keygen")
    root, folder = signed
    orders = _orders(root, folder)
    subprocess.run(["ssh-keygen", "-Y", "sign", "-n", "pbem-orders-v1", "-f",
                    str(folder / "bob_ed25519"), str(orders)], check=True, capture_output=True)
    result = pbem("-C", root, "apply", orders)
    assert result.code == 0, result.err
    assert "signed" in api.log(root)[-1]["summary"]


def test_another_factions_key_or_a_changed_byte_is_rejected(signed: tuple[Path, Path], pbem: Any) -> None:
    root, folder = signed
    orders = _orders(root, folder)
    assert pbem("sign", orders, "--key", folder / "eve_ed25519").code == 0
    result = pbem("-C", root, "check", orders)
    assert result.code == 1 and "south's key" in result.err
    # signing again replaces the signature; then one byte of the file changes
    assert pbem("sign", orders, "--key", folder / "bob_ed25519").code == 0
    orders.write_text(orders.read_text().replace("faction: south", "faction: south "))
    result = pbem("-C", root, "check", orders)
    assert result.code == 1 and "signature" in result.err


def test_a_replayed_signed_file_is_rejected(signed: tuple[Path, Path], pbem: Any) -> None:
    root, folder = signed
    first = _orders(root, folder, "first.yaml")
    assert pbem("sign", first, "--key", folder / "bob_ed25519").code == 0
    assert pbem("-C", root, "apply", first).code == 0
    result = pbem("-C", root, "apply", first)
    assert result.code == 1 and "recorded already" in result.err
    second = _orders(root, folder, "second.yaml")  # names the newer head
    assert pbem("sign", second, "--key", folder / "bob_ed25519").code == 0
    assert pbem("-C", root, "apply", second).code == 0
    result = pbem("-C", root, "apply", first)
    assert result.code == 1 and "newer orders" in result.err


def test_signed_orders_of_another_phase_are_rejected(signed: tuple[Path, Path], pbem: Any) -> None:
    root, folder = signed
    orders = _orders(root, folder)
    data = yamlio.read_trusted(orders)
    data["head"] = "0" * 64
    yamlio.write_atomic(orders, yamlio.dump(data))
    assert pbem("sign", orders, "--key", folder / "bob_ed25519").code == 0
    result = pbem("-C", root, "check", orders)
    assert result.code == 1 and "log head" in result.err


def test_a_missing_or_wrong_key_file_is_a_clear_error(tmp_path: Path, pbem: Any) -> None:
    result = pbem("new", tmp_path / "c", "--game", "red_russia", "--no-contributions", "--hot-seat", "--key", f"south={tmp_path / 'none'}")
    assert result.code == 1 and "no such file" in result.err
    assert not (tmp_path / "c").exists()
    bad = tmp_path / "bad.card"
    bad.write_text("hello\n")
    result = pbem("new", tmp_path / "c", "--game", "red_russia", "--no-contributions", "--hot-seat", "--key", f"south={bad}")
    assert result.code == 1 and "public key card" in result.err


# ---------------------------------------------------------------------------------------
# the sealed-secret API that card hands and hidden units will use


json_values = st.recursive(
    st.none() | st.booleans() | st.integers(-10**6, 10**6) | st.text(max_size=20),
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=8), inner, max_size=4),
    max_leaves=12,
)


@settings(max_examples=40, deadline=None)
@given(value=json_values)
def test_sealed_values_round_trip_and_bind_their_commitment(value: Any) -> None:
    owner, owner_pub = age.generate_identity()
    ref, ref_pub = age.generate_identity()
    ctx = sealed.context("c", "hand", "red:t3", 3, "red")
    node = sealed.seal(ctx, value, [ref_pub, owner_pub])
    for identity in (owner, ref):
        opened = sealed.open_node("c", node, [identity])
        assert opened.value == value and opened.verified
    assert sealed.check_opening("c", node, opened.nonce, value)
    assert not sealed.check_opening("c", node, opened.nonce, [value])
    assert not sealed.check_opening("other", node, opened.nonce, value)
    stranger, _ = age.generate_identity()
    with pytest.raises(CryptoError):
        sealed.open_node("c", node, [stranger])


def test_sealed_small_values_have_equal_lengths() -> None:
    _, pub = age.generate_identity()
    ctx = sealed.context("c", "spend", "kazan:t3", 3, "red")
    assert len(sealed.seal(ctx, 3, [pub])["sealed"]) == len(sealed.seal(ctx, 5, [pub])["sealed"])


def test_apply_without_the_referee_key_fails_cleanly(played: tuple[Path, Path]) -> None:
    root, _ = played
    (root / ".pbem" / "referee_ed25519").unlink()
    before = tree_state(root)
    with pytest.raises(KeyFileError) as caught:
        api.resolve(root, nmr=True)
    assert "referee_ed25519" in " ".join(caught.value.lines())
    assert tree_state(root) == before


def test_a_player_of_several_factions_has_one_key_pair(tmp_path: Path, pbem: Any) -> None:
    assert pbem("keygen", "--out", tmp_path / "bob").code == 0
    root = tmp_path / "camp"
    result = pbem("new", root, "--game", "red_russia", "--no-contributions", "--hot-seat", "--player", "south,north=Bob <bob@example.org>",
                  "--key", f"south,north={tmp_path / 'bob.card'}")
    assert result.code == 0, result.err
    config = yamlio.read_trusted(root / "campaign.yaml")
    assert config["factions"]["south"]["ssh"] == config["factions"]["north"]["ssh"]
    assert config["factions"]["north"]["player"] == "Bob"


def test_1_0_only_the_seatings_of_the_rules_are_allowed(tmp_path: Path, pbem: Any) -> None:
    result = pbem("new", tmp_path / "c", "--game", "red_russia", "--no-contributions", "--hot-seat", "--player", "south,siberian=Bob <b@x>")
    assert result.code == 2 and "not a seating the rules allow" in result.err
    assert pbem("new", tmp_path / "d", "--game", "red_russia", "--no-contributions", "--hot-seat",
                "--player", "siberian,south,north=Bob <b@x>").code == 0


def test_8_3_attack_spending_stays_sealed_until_its_battle(tmp_path: Path) -> None:
    root, keys = tmp_path / "camp", tmp_path / "keys"
    api.new_campaign(root, "red_russia", contributions=False, hot_seat=True, seed="secrets", name="camp", keys_dir=keys)
    play(root, until_turn=3, phase="action")
    referee = identities(keys, root)["referee"]
    store = Store.open(root)
    history = store.changes()
    added = {}
    for i, (_, changed) in enumerate(history):
        for name in changed:
            if name.startswith("log/"):
                added.setdefault(int(Path(name).stem), i)
    log = [yamlio.read_trusted(p) for p in sorted((root / "log").glob("*.yaml"))]
    checked = 0
    for entry in log:
        if entry["type"] != "orders" or "secret" not in entry["pending"]:
            continue
        node = entry["pending"]["secret"]
        spend = sealed.open_node("camp", node, referee).value["spend"]
        raw = sealed.open_node("camp", entry["pending"]["file_sealed"], referee).value["file"]
        spend_line = next(line for line in raw.splitlines() if "spend:" in line).encode()
        # the battle's resolution opens it; nothing before that commit shows it
        opening = next(e for e in log if e["seq"] > entry["seq"] and any(
            o["node"]["commitment"] == node["commitment"] for o in e.get("opened", [])))
        assert next(o for o in opening["opened"]
                    if o["node"]["commitment"] == node["commitment"])["value"]["spend"] == spend
        for sha, _ in history[: added[opening["seq"]]]:
            for name, data in _tree_blobs(store, sha):
                assert raw.encode() not in data and spend_line not in data, (entry["seq"], name)
        checked += 1
    assert checked >= 3
    assert api.audit(root)["ok"]


def test_reveal_exits_3_and_names_a_value_that_does_not_match_its_commitment(
        played: tuple[Path, Path], pbem: Any) -> None:
    """A commitment changed in the log (the envelope still opens): both forms say so."""
    root, keys = played
    found = json.loads(pbem("-C", root, "reveal", "--key", keys / "south.key", "--json").out)
    target = next(s for s in found if s["kind"] == "orders")
    log = next(p for p in sorted((root / "log").glob("*.yaml")) if target["commitment"] in p.read_text())
    forged = ("0" if target["commitment"][0] != "0" else "1") + target["commitment"][1:]
    log.write_text(log.read_text().replace(target["commitment"], forged))
    _commit_all(root, "a referee rewrites a commitment")
    text = pbem("-C", root, "reveal", "--key", keys / "south.key")
    assert text.code == 3, text.err
    assert f"{target['kind']} {target['id']} (step {target['seq']}): DOES NOT MATCH ITS COMMITMENT" in text.out
    as_json = pbem("-C", root, "reveal", "--key", keys / "south.key", "--json")
    assert as_json.code == 3
    assert [s["verified"] for s in json.loads(as_json.out) if s["id"] == target["id"]] == [False]
