"""Hostile files and headers: every bad input is exit 1 with FILE:LINE and what was expected,
and leaves the campaign exactly as it was (same HEAD, clean tree); never a traceback, never
"unexpected ..." (exit 70), never a hang. (tests/engine/mail/test_hostile_mail.py does the
same by mail.)

The fuzz tests mutate a legal orders file from the bot (random bytes, control characters,
values of the wrong type in the header, in `standing:` and in `orders:`) and run the real
`pbem check` and `pbem apply` on it.
"""

from __future__ import annotations

import copy
import os
import re
import shutil
import sys
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
from conftest import ROOT, Result, play, run_pbem, tree_state  # noqa: E402

from pbem import api, yamlio  # noqa: E402
from pbem.orders import UNCHECKABLE  # noqa: E402

# the standing instructions of Red Russia, each with a legal value, so that the fuzzer has a
# value of every shape to swap for one of another shape
STANDING: dict[str, Any] = {
    "retreat_before_combat": "never", "retreat_to": ["Omsk"], "loss_order": ["inf"],
    "invasion_rounds": 3, "voluntary_retreat": "never", "supply_order": ["inf"],
    "unpaid_order": ["cav"], "play_cards": "auto", "discard_dead": True, "play_poland": True,
    "naval_search": "never",
    "play_when": [{"card": "coup-de-main", "when": "phase_start", "of": "red", "zone": "Moscow"}],
}


@pytest.fixture(scope="module")
def template(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Path]:
    """A hot-seat campaign at turn 1, the action phase of siberian (played by the bot)."""
    root = tmp_path_factory.mktemp("hostile") / "camp"
    old = {k: os.environ.get(k) for k in ("GIT_CONFIG_GLOBAL", "GIT_CONFIG_NOSYSTEM")}
    os.environ["GIT_CONFIG_NOSYSTEM"] = "1"
    os.environ["GIT_CONFIG_GLOBAL"] = str(root.parent / ".gitconfig")
    for key in ("GIT_AUTHOR_NAME", "GIT_COMMITTER_NAME", "GIT_AUTHOR_EMAIL", "GIT_COMMITTER_EMAIL"):
        old[key] = os.environ.get(key)
        os.environ[key] = "test@pbem.invalid" if "EMAIL" in key else "pbem test"
    try:
        api.new_campaign(root, "red_russia", contributions=False, hot_seat=True, seed="s", name="camp")
        status = play(root, until_turn=1, phase="action")
        assert status["awaiting"] == ["siberian"], status
        yield root
    finally:
        for key, value in old.items():
            if value is None:
                os.environ.pop(key, None)
            else:
                os.environ[key] = value


@pytest.fixture
def camp(template: Path, tmp_path: Path) -> Path:
    root = tmp_path / "camp"
    shutil.copytree(template, root, symlinks=True)
    return root


def legal(root: Path) -> dict[str, Any]:
    """The bot's orders for siberian with every standing instruction given: a legal file."""
    data = api.bot(root, "siberian", seed="hostile")
    data["standing"] = {**data.get("standing", {}), **copy.deepcopy(STANDING)}
    return data


def write(path: Path, data: Any) -> Path:
    yamlio.write_atomic(path, yamlio.dump(data))
    return path


LINE = re.compile(r"^(?:Error: )?\s*(?P<file>.+?):(?P<line>\d+): \S")


def assert_clean_rejection(r: Result, files: list[Path], *, summary: bool) -> None:
    """Exit 1; every line on stderr is FILE:LINE: message about one of `files` (or their
    .sig), apart from apply's one summary line; no traceback, nothing unexpected."""
    assert r.code == 1, (r.code, r.out, r.err)
    assert "Traceback" not in r.err and "unexpected" not in r.err, r.err
    assert UNCHECKABLE not in r.err, f"the rules raised on this input (the last resort caught it):\n{r.err}"
    names = {str(f) for f in files} | {f"{f}.sig" for f in files}
    lines = [x for x in r.err.splitlines() if x.strip()]
    assert lines, "rejected without saying why"
    for line in lines:
        if summary and line.startswith("Error: rejected: "):
            continue
        m = LINE.match(line)
        assert m and m.group("file") in names, f"not FILE:LINE: message: {line!r}\n{r.err}"


def rejected(pbem: Callable[..., Result], root: Path, path: Path) -> str:
    """check and apply both reject `path` cleanly and change nothing; returns check's stderr."""
    before = tree_state(root)
    c = pbem("-C", root, "check", path)
    assert_clean_rejection(c, [path], summary=False)
    a = pbem("-C", root, "apply", path)
    assert_clean_rejection(a, [path], summary=True)
    assert tree_state(root) == before, "a rejected orders file changed the campaign"
    return c.err


def test_the_legal_file_is_legal(pbem: Callable[..., Result], camp: Path, tmp_path: Path) -> None:
    r = pbem("-C", camp, "check", write(tmp_path / "o.yaml", legal(camp)))
    assert r.code == 0, r.err


# ---------------------------------------------------------------------------------------
# NUL bytes and control characters


@pytest.mark.parametrize(("char", "name"), [
    ("\0", "NUL"), ("\x07", "BEL"), ("\x1b", "ESC"), ("\x08", "BS"), ("\x7f", "DEL"),
    ("\x9b", "U+009B"), ("\ufffe", "U+FFFE"),
])
def test_control_characters_are_rejected_at_their_line(pbem: Callable[..., Result], camp: Path,
                                                       tmp_path: Path, char: str, name: str) -> None:
    text = yamlio.dump(legal(camp)).splitlines(keepends=True)
    text[5] = text[5][:3] + char + text[5][3:]  # line 6
    path = tmp_path / "ctl.yaml"
    path.write_bytes("".join(text).encode("utf-8"))
    err = rejected(pbem, camp, path)
    assert err.startswith(f"{path}:6: column 4: "), err
    assert name in err and "expected plain text" in err, err


def test_a_nul_byte_inside_quotes_is_rejected_too(pbem: Callable[..., Result], camp: Path,
                                                  tmp_path: Path) -> None:
    path = tmp_path / "nul.yaml"
    path.write_bytes(yamlio.dump(legal(camp)).encode() + b'note: "a\x00b"\n')
    err = rejected(pbem, camp, path)
    lines = yamlio.dump(legal(camp)).count("\n") + 1
    assert err.startswith(f"{path}:{lines}: column 9: character U+0000 (NUL)"), err


# ---------------------------------------------------------------------------------------
# values of the wrong type deep in standing:


@pytest.mark.parametrize(("key", "value", "word"), [
    ("retreat_before_combat", ["never"], "retreat_before_combat is one of never, always"),
    ("voluntary_retreat", {"when": "outnumbered"}, "voluntary_retreat is one of"),
    ("stalin_commissars", {"n": 1}, "stalin_commissars is one of 0, 1, 2"),
    ("lenin_initiative", [2], "lenin_initiative is one of"),
    ("play_cards", {"auto": True}, "play_cards is one of never, auto"),
    ("naval_search", [["always"]], "naval_search is one of"),
])
def test_wrong_type_in_standing_is_rejected_at_its_line(pbem: Callable[..., Result], camp: Path,
                                                        tmp_path: Path, key: str, value: Any,
                                                        word: str) -> None:
    data = legal(camp)
    data["standing"][key] = value
    path = write(tmp_path / "standing.yaml", data)
    err = rejected(pbem, camp, path)
    line = yamlio.load_untrusted(path.read_bytes(), "x").line(("standing", key))
    assert f"{path}:{line}: {word}" in err, err


def test_wrong_type_deep_in_play_when(pbem: Callable[..., Result], camp: Path, tmp_path: Path) -> None:
    data = legal(camp)
    data["standing"]["play_when"] = [{"card": "coup-de-main", "when": ["phase_start"]}]
    path = write(tmp_path / "play_when.yaml", data)
    err = rejected(pbem, camp, path)
    line = yamlio.load_untrusted(path.read_bytes(), "x").line(("standing", "play_when", 0, "when"))
    assert f"{path}:{line}: when is one of phase_start" in err, err


# ---------------------------------------------------------------------------------------
# headers checked by type


@pytest.mark.parametrize(("key", "value", "expected"), [
    ("turn", True, "'turn' must be a whole number (turn: 1), not true"),
    ("turn", 1.0, "'turn' must be a whole number (turn: 1), not the number 1.0"),
    ("turn", "1", "'turn' must be a whole number (turn: 1), not the text '1'"),
    ("head", [1, 2], "'head' must be the log head you saw, in hex digits"),
    ("head", {"a": 1}, "'head' must be the log head you saw"),
    ("head", 12, "'head' must be the log head you saw"),
    ("phase", ["action"], "'phase' must be the phase name as text (phase: action), not a list"),
    ("campaign", ["camp"], "'campaign' must be the campaign id as text (campaign: camp)"),
    ("faction", {"siberian": 1}, "a faction is named as text"),
    ("faction", [["siberian"]], "a faction is named as text"),
    ("salt", True, "salt is 16 to 64 bytes in lower-case hex"),
    ("salt", ["00" * 16], "salt is 16 to 64 bytes in lower-case hex"),
    ("salt_next", {"a": "b"}, "salt_next is 16 to 64 bytes in lower-case hex"),
])
def test_header_values_are_checked_by_type(pbem: Callable[..., Result], camp: Path, tmp_path: Path,
                                           key: str, value: Any, expected: str) -> None:
    data = legal(camp)
    data[key] = value
    path = write(tmp_path / "header.yaml", data)
    err = rejected(pbem, camp, path)
    line = yamlio.load_untrusted(path.read_bytes(), "x").line((key,))
    assert f"{path}:{line}: {expected}" in err, err


@pytest.mark.parametrize(("value", "expected"), [(False, "not false"), (0.0, "not the number 0.0")])
def test_turn_zero_is_not_false_nor_a_float(pbem: Callable[..., Result], new_campaign: Callable[..., Path],
                                            tmp_path: Path, value: Any, expected: str) -> None:
    root = new_campaign()
    data = api.bot(root, "south")
    data["turn"] = value
    path = write(tmp_path / "t0.yaml", data)
    err = rejected(pbem, root, path)
    assert f"{path}:2: 'turn' must be a whole number (turn: 0), {expected}" in err, err


# ---------------------------------------------------------------------------------------
# anything that is not a regular file, at once


@pytest.fixture
def odd_files(tmp_path: Path) -> dict[str, tuple[Path, str]]:
    """(path, what the message says it is) for a device, a FIFO, a directory, a missing file."""
    odd = tmp_path / "odd"
    odd.mkdir()
    (odd / "urandom.yaml").symlink_to("/dev/urandom")
    os.mkfifo(odd / "fifo.yaml")
    (odd / "dir.yaml").mkdir()
    return {"device": (odd / "urandom.yaml", "is a device"), "fifo": (odd / "fifo.yaml", "is a FIFO (named pipe)"),
            "directory": (odd / "dir.yaml", "is a directory"),
            "missing": (odd / "missing.yaml", "no such file")}


KINDS = ["device", "fifo", "directory", "missing"]


@pytest.mark.parametrize("command", ["check", "apply"])
@pytest.mark.parametrize("kind", KINDS)
def test_check_and_apply_refuse_what_is_not_a_regular_file(camp: Path, odd_files: dict[str, tuple[Path, str]],
                                                           command: str, kind: str) -> None:
    path, what = odd_files[kind]
    before = tree_state(camp)
    r = run_pbem("-C", camp, command, path, timeout=60, env={"PYTHONPATH": str(ROOT)})
    assert_clean_rejection(r, [path], summary=command == "apply")
    assert f"{path}:1: {what}; expected an orders file (YAML text), a regular file" in r.err, r.err
    assert tree_state(camp) == before


@pytest.mark.parametrize("kind", KINDS)
def test_sign_and_adjust_refuse_what_is_not_a_regular_file(camp: Path, tmp_path: Path,
                                                           odd_files: dict[str, tuple[Path, str]],
                                                           kind: str) -> None:
    from pbem.crypto.keys import keygen_files

    keygen_files(tmp_path / "me")
    path, what = odd_files[kind]
    env = {"PYTHONPATH": str(ROOT)}
    r = run_pbem("sign", path, "--key", tmp_path / "me_ed25519", timeout=60, env=env)
    assert r.code == 1 and "Traceback" not in r.err and "unexpected" not in r.err, r.err
    assert f"{path}:1: {what}; expected an orders file (YAML text), a regular file" in r.err, r.err
    assert not Path(f"{path}.sig").exists()
    # a key file that is a device is refused the same way
    r = run_pbem("sign", tmp_path / "me.card", "--key", odd_files["device"][0], timeout=60, env=env)
    assert r.code == 1 and "not a regular file: a device" in r.err, r.err
    before = tree_state(camp)
    r = run_pbem("-C", camp, "adjust", path, "--reason", "x", timeout=60, env=env)
    assert r.code == 1 and "Traceback" not in r.err and "unexpected" not in r.err, r.err
    assert f"{path}:1: {what}; expected an adjustment file" in r.err, r.err
    assert tree_state(camp) == before


def test_a_signature_beside_the_file_that_is_a_device_is_refused(tmp_path: Path) -> None:
    root = tmp_path / "signed"
    api.new_campaign(root, "red_russia", contributions=False, hot_seat=True, seed="hostile", name="signed", keys_dir=tmp_path / "keys",
                     players=["south=Cy <cy@example.org>"])
    path = write(tmp_path / "south.yaml", api.bot(root, "south"))
    Path(f"{path}.sig").symlink_to("/dev/urandom")
    before = tree_state(root)
    for command in ("check", "apply"):
        r = run_pbem("-C", root, command, path, timeout=60, env={"PYTHONPATH": str(ROOT)})
        assert_clean_rejection(r, [path], summary=command == "apply")
        assert f"{path}.sig:1: is a device; expected a signature" in r.err, r.err
    assert tree_state(root) == before


def test_a_file_too_big_is_refused_before_it_is_read(pbem: Callable[..., Result], camp: Path,
                                                     tmp_path: Path) -> None:
    path = tmp_path / "big.yaml"
    with path.open("wb") as handle:
        handle.truncate(yamlio.MAX_BYTES * 64)  # sparse: 64 MB of NULs that cost nothing
    err = rejected(pbem, camp, path)
    assert err.startswith(f"{path}:1: file is more than {yamlio.MAX_BYTES} bytes"), err


# ---------------------------------------------------------------------------------------
# --player


@pytest.mark.parametrize("player", [
    "red=Ann ann@example.org", "red=Ann", "red=Ann <>", "red=Ann <ann>", "red=Ann <ann@example.org",
    "red=<ann@example.org>", "red=Ann <a b@example.org>",
])
def test_player_needs_name_and_address_in_angle_brackets(pbem: Callable[..., Result], tmp_path: Path,
                                                         player: str) -> None:
    r = pbem("new", tmp_path / "c", "--game", "red_russia", "--no-contributions", "--hot-seat", "--player", player)
    assert r.code == 2, (r.out, r.err)
    assert "expected FACTION=NAME <EMAIL>" in r.err and "angle brackets" in r.err, r.err
    assert not (tmp_path / "c").exists()


def test_player_with_a_good_address_is_taken(pbem: Callable[..., Result], tmp_path: Path) -> None:
    r = pbem("new", tmp_path / "c", "--game", "red_russia", "--no-contributions", "--hot-seat", "--player", "red = Ann Smith <ann@example.org>")
    assert r.code == 0, r.err
    red = yamlio.read_trusted(tmp_path / "c" / "campaign.yaml")["factions"]["red"]
    assert (red["player"], red["email"]) == ("Ann Smith", "ann@example.org")


# ---------------------------------------------------------------------------------------
# fuzz: a legal file, mutated


CONTROL = [chr(c) for c in (*range(0, 9), 11, 12, *range(14, 32), 127, 0x80, 0x9F)] + ["\ufffe", "\uffff"]
SCALARS = st.one_of(st.none(), st.booleans(), st.integers(-3, 10**20), st.floats(allow_nan=True),
                    st.text(max_size=12), st.sampled_from(["Omsk", "never", "ask", "siberian",
                                                           "move", "0" * 32]))
VALUES = st.recursive(SCALARS, lambda inner: st.one_of(
    st.lists(inner, max_size=3),
    st.dictionaries(st.sampled_from(["zone", "units", "from", "to", "card", "when", "x"]), inner,
                    max_size=3)), max_leaves=6)


def _paths(value: Any, path: tuple[Any, ...] = ()) -> Iterator[tuple[Any, ...]]:
    yield path
    if isinstance(value, dict):
        for k, v in value.items():
            yield from _paths(v, (*path, k))
    elif isinstance(value, list):
        for i, v in enumerate(value):
            yield from _paths(v, (*path, i))


def _mutate(data: st.DataObject, base: dict[str, Any]) -> bytes:
    kind = data.draw(st.sampled_from(["swap", "swap", "swap", "bytes", "control"]), label="kind")
    if kind == "swap":
        doc = copy.deepcopy(base)
        for _ in range(data.draw(st.integers(1, 3), label="swaps")):
            paths = [p for p in _paths(doc) if p]
            where = data.draw(st.sampled_from(paths), label="path")
            target = doc
            for step in where[:-1]:
                target = target[step]
            target[where[-1]] = data.draw(VALUES, label="value")
        return yamlio.dump(doc).encode("utf-8")
    raw = bytearray(yamlio.dump(base).encode("utf-8"))
    for _ in range(data.draw(st.integers(1, 4), label="edits")):
        at = data.draw(st.integers(0, len(raw)), label="at")
        if kind == "bytes":
            piece = data.draw(st.binary(min_size=1, max_size=4), label="bytes")
        else:
            piece = data.draw(st.sampled_from(CONTROL), label="char").encode("utf-8")
        if data.draw(st.booleans(), label="replace"):
            raw[at:at + len(piece)] = piece
        else:
            raw[at:at] = piece
    return bytes(raw)


FUZZ = settings(max_examples=int(os.environ.get("PBEM_FUZZ_EXAMPLES", "60")), deadline=None,
                suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow])


def _verdict(r: Result, path: Path, *, summary: bool) -> None:
    assert r.code in (0, 1), (r.code, r.err)
    if r.code == 1:
        assert_clean_rejection(r, [path], summary=summary)


@FUZZ
@given(data=st.data())
def test_fuzz_check(pbem: Callable[..., Result], camp: Path, tmp_path: Path, data: st.DataObject) -> None:
    base = legal(camp)
    path = tmp_path / "fuzz-check.yaml"
    path.write_bytes(_mutate(data, base))
    before = tree_state(camp)
    _verdict(pbem("-C", camp, "check", path), path, summary=False)
    assert tree_state(camp) == before


@FUZZ
@given(data=st.data())
def test_fuzz_apply(pbem: Callable[..., Result], template: Path, tmp_path: Path,
                    data: st.DataObject) -> None:
    root = tmp_path / "fuzz-camp"
    if not root.exists():
        shutil.copytree(template, root, symlinks=True)
    base = legal(template)
    path = tmp_path / "fuzz-apply.yaml"
    path.write_bytes(_mutate(data, base))
    before = tree_state(root)
    r = pbem("-C", root, "apply", path)
    _verdict(r, path, summary=True)
    if r.code == 1:
        assert tree_state(root) == before, "a rejected orders file changed the campaign"
    else:  # recorded (and resolved): the next example starts from the template again
        shutil.rmtree(root)
