"""The one safe YAML loader: limits, rejected constructs and FILE:LINE in every message."""

from __future__ import annotations

import re
from typing import Any

import pytest
import yaml
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from pbem import yamlio
from pbem.errors import InputFileError

SOURCE = "orders.yaml"


def _rejected(text: str | bytes) -> tuple[int, str]:
    """Load `text`, expect InputFileError; return (line, message after FILE:LINE:)."""
    with pytest.raises(InputFileError) as info:
        yamlio.load_untrusted(text, SOURCE)
    message = info.value.message
    m = re.match(rf"^{re.escape(SOURCE)}:(\d+): (.+)$", message, re.S)
    assert m, f"message does not start with FILE:LINE: {message!r}"
    return int(m.group(1)), m.group(2)


# (name, text, expected line, a word the message must contain)
BAD = [
    ("anchor", "campaign: c\nturn: 1\nbase: &b {x: 1}\n", 3, "anchor"),
    ("alias", "campaign: c\nturn: 1\nfaction: red\nother: *b\n", 4, "alias"),
    ("python-object", "campaign: c\nturn: 1\nx: !!python/object:os.system ls\n", 3, "tag"),
    ("python-apply", "a: 1\nb: 2\nc: 3\nd: !!python/object/apply:os.system [ls]\n", 4, "tag"),
    ("custom-tag", "a: 1\n\nb: !foo bar\n", 3, "tag"),
    ("custom-tag-on-map", "a: 1\nb: !thing\n  c: 1\n", 2, "tag"),
    ("set-tag", "a: 1\nb: !!set {x: null}\n", 2, "tag"),
    ("binary-tag", "a: 1\nb: !!binary aGVsbG8=\n", 2, "tag"),
    ("duplicate-key", "campaign: c\nturn: 1\nphase: x\nturn: 2\n", 4, "duplicate"),
    ("duplicate-nested", "orders:\n  - move:\n      from: A\n      to: B\n      from: C\n", 5, "duplicate"),
    ("duplicate-int", "x:\n  1: a\n  01: b\n", 3, "duplicate"),
    ("merge-key", "a: 1\nb:\n  c: 2\n  <<: {d: 3}\n", 4, "merge"),
    ("two-documents", "a: 1\nb: 2\n---\nc: 3\n", 3, "document"),
    ("two-documents-explicit", "---\na: 1\n---\nb: 2\n", 3, "document"),
    ("syntax-mapping", "campaign: c\nturn: 1\nphase: a: b\norders: []\n", 3, "syntax"),
    ("syntax-tab", "campaign: c\norders:\n\t- x\n", 3, "syntax"),
    ("complex-key", "a: 1\n? [x, y]\n: 2\n", 2, "key"),
    ("nul-byte", "a: 1\nb: x\x00y\n", 2, "u+0000 (nul)"),
    ("nul-in-quotes", "a: 1\n\nb: 'x\x00'\n", 3, "nul"),
    ("escape-sequence", "a: \x1b[31mred\n", 1, "esc"),
    ("bell-in-key", "a: 1\nb\x07: 2\n", 2, "bel"),
    ("c1-control", "a: 1\nb: \x9b\n", 2, "u+009b"),
    ("noncharacter", "a: 1\nb: \ufffe\n", 2, "u+fffe"),
]


@pytest.mark.parametrize(("text", "line", "word"), [b[1:] for b in BAD], ids=[b[0] for b in BAD])
def test_rejected_with_file_and_line(text: str, line: int, word: str) -> None:
    got_line, message = _rejected(text)
    assert word in message.lower(), message
    assert got_line == line, message


@pytest.mark.parametrize(("text", "line"), [
    ("a: 1\nb: 2\nc: 3\nd: 'open\n\ne: 5\n", 4),
    ("campaign: c\nturn: 1\nphase: [x,\n", 3),
], ids=["unclosed-quote", "unclosed-bracket"])
def test_unclosed_construct_reports_where_it_opens(text: str, line: int) -> None:
    got_line, message = _rejected(text)
    assert "syntax" in message.lower()
    assert got_line <= text.count("\n"), f"line {got_line} is past the end of the file"
    assert got_line == line, message


def test_too_big() -> None:
    text = "a: '" + "x" * (yamlio.MAX_BYTES) + "'\n"
    line, message = _rejected(text)
    assert line == 1
    assert "bytes" in message


def test_just_under_size_limit_is_accepted() -> None:
    text = "a: " + "x" * (yamlio.MAX_BYTES - 10) + "\n"
    assert len(text.encode()) <= yamlio.MAX_BYTES
    assert yamlio.load_untrusted(text, SOURCE).data == {"a": "x" * (yamlio.MAX_BYTES - 10)}


def test_size_limit_counts_bytes_not_characters() -> None:
    # 600 000 two-byte characters: fewer characters than the limit, more bytes
    text = "a: " + "é" * 600_000 + "\n"
    assert len(text) < yamlio.MAX_BYTES < len(text.encode())
    line, message = _rejected(text)
    assert line == 1 and "bytes" in message


def test_deep_block_nesting_reports_the_line_where_the_limit_is_passed() -> None:
    lines = [f"{'  ' * i}k{i}:" for i in range(yamlio.MAX_DEPTH + 1)]
    text = "\n".join(lines) + " 1\n"
    line, message = _rejected(text)
    # the 41st mapping starts on line 41 (its first key)
    assert line == yamlio.MAX_DEPTH + 1
    assert "deeper" in message


def test_deep_nesting_bomb_is_rejected_quickly() -> None:
    text = "x: " + "[" * 200_000 + "]" * 200_000 + "\n"
    line, message = _rejected(text)
    assert (line, message) == (1, f"nested deeper than {yamlio.MAX_DEPTH} levels")


def _nested(levels: int, *, flow: bool) -> str:
    if flow:
        return "x: " + "[" * (levels - 1) + "1" + "]" * (levels - 1) + "\n"
    return "".join(" " * (2 * i) + f"k{i}:\n" for i in range(levels - 1)) + " " * (2 * levels - 2) + "k: 1\n"


@pytest.mark.parametrize("flow", [True, False], ids=["flow", "block"])
def test_the_depth_limit_is_exact(flow: bool) -> None:
    # the top mapping is one level: MAX_DEPTH levels load, one more does not
    assert yamlio.load_untrusted(_nested(yamlio.MAX_DEPTH, flow=flow), SOURCE).data is not None
    line, message = _rejected(_nested(yamlio.MAX_DEPTH + 1, flow=flow))
    assert message == f"nested deeper than {yamlio.MAX_DEPTH} levels"
    assert line == (1 if flow else yamlio.MAX_DEPTH + 1)  # where the 41st level opens


class _StrictParser(yaml.SafeLoader):
    """A parser with a nesting limit and wording of its own, as libyaml has had since
    PyYAML 6.0.4 ("exceeded maximum nesting depth"), lower than pbem's."""

    def check_event(self, *choices: Any) -> bool:
        if len(getattr(self, "states", [])) > 5:
            raise yaml.scanner.ScannerError("while increasing flow level", None,
                                            "exceeded maximum nesting depth", self.get_mark())
        return bool(super().check_event(*choices))


@pytest.mark.parametrize("flow", [True, False], ids=["flow", "block"])
def test_pbem_says_why_whatever_limits_the_yaml_library_has(monkeypatch, flow: bool) -> None:
    monkeypatch.setattr(yamlio, "_Loader", _StrictParser)
    line, message = _rejected(_nested(yamlio.MAX_DEPTH + 5, flow=flow))
    assert message == f"nested deeper than {yamlio.MAX_DEPTH} levels"
    # a file within pbem's limits that the library alone refuses keeps the library's words
    line, message = _rejected(_nested(10, flow=flow))
    assert "maximum nesting depth" in message
    # and a file the library's limits do not reach loads as before
    assert yamlio.load_untrusted("a: [1, 2]\n", SOURCE).data == {"a": [1, 2]}


def test_the_pure_python_parser_gives_the_same_messages(monkeypatch) -> None:
    cases = [_nested(yamlio.MAX_DEPTH + 1, flow=True), "a: &x 1\nb: *x\n", "a: [1, 2\n"]
    fast = [_rejected(text) for text in cases]
    monkeypatch.setattr(yamlio, "_Loader", yaml.SafeLoader)
    assert [_rejected(text) for text in cases] == fast


def test_not_utf8_reports_the_line_of_the_bad_byte() -> None:
    line, message = _rejected(b"campaign: c\nturn: 1\nphase: caf\xe9\n")
    assert line == 3
    assert "UTF-8" in message


def test_utf16_is_not_utf8() -> None:
    line, message = _rejected("a: 1\n".encode("utf-16"))
    assert line == 1 and "UTF-8" in message


def test_utf8_bom_is_accepted() -> None:
    assert yamlio.load_untrusted(b"\xef\xbb\xbfa: 1\n", SOURCE).data == {"a": 1}


def test_message_is_also_the_exception_text() -> None:
    with pytest.raises(InputFileError, match=r"^orders\.yaml:2: duplicate key 'a'$"):
        yamlio.load_untrusted("a: 1\na: 2\n", SOURCE)


def test_empty_document_is_none() -> None:
    assert yamlio.load_untrusted("", SOURCE).data is None
    assert yamlio.load_untrusted("# only a comment\n", SOURCE).data is None


def test_timestamps_stay_text_and_yaml11_scalars() -> None:
    doc = yamlio.load_untrusted("d: 2026-01-05\nn: no\no: 012\nf: 1.5\ne: ~\n", SOURCE)
    assert doc.data == {"d": "2026-01-05", "n": False, "o": 10, "f": 1.5, "e": None}


def test_keys_that_are_not_text_or_int_keep_their_spelling() -> None:
    doc = yamlio.load_untrusted("yes: 1\n~: 2\n1.5: 3\n7: 4\n", SOURCE)
    assert doc.data == {"yes": 1, "~": 2, "1.5": 3, 7: 4}


GOOD = """\
campaign: rr-2026-01
turn: 3
phase: action
faction: red
orders:
  - move: {units: [red-inf-04, red-cav-02], from: Moscow, to: Kazan}
  - attack:
      zone: Kazan
      spend: 3
standing:
  retreat_before_combat: never
  losses:
    - reduced-first
    - cavalry-last
"""


def test_lines_of_nested_paths() -> None:
    doc = yamlio.load_untrusted(GOOD, SOURCE)
    assert doc.data["orders"][0]["move"]["units"] == ["red-inf-04", "red-cav-02"]
    expected = {
        (): 1,
        ("campaign",): 1,
        ("turn",): 2,
        ("phase",): 3,
        ("faction",): 4,
        ("orders", 0): 6,
        ("orders", 0, "move"): 6,
        ("orders", 0, "move", "units", 1): 6,
        ("orders", 0, "move", "to"): 6,
        ("orders", 1): 7,
        ("orders", 1, "attack"): 8,
        ("orders", 1, "attack", "zone"): 8,
        ("orders", 1, "attack", "spend"): 9,
        ("standing", "retreat_before_combat"): 11,
        ("standing", "losses"): 13,
        ("standing", "losses", 0): 13,
        ("standing", "losses", 1): 14,
    }
    for path, line in expected.items():
        assert doc.line(path) == line, path
    assert doc.where(("orders", 1, "attack", "spend")) == f"{SOURCE}:9"


def test_line_of_a_missing_path_is_its_nearest_ancestor() -> None:
    doc = yamlio.load_untrusted(GOOD, SOURCE)
    assert doc.line(("orders", 1, "attack", "nothing", 3)) == 8
    assert doc.line(("orders", 99)) == doc.line(("orders",))
    assert doc.line(("no-such-key",)) == 1


def test_line_numbers_after_comments_and_blank_lines() -> None:
    text = "# header\n\n# more\ncampaign: c\n\n\norders:\n  # a comment\n  - place: {zone: Kiev}\n"
    doc = yamlio.load_untrusted(text, SOURCE)
    assert doc.line(("campaign",)) == 4
    assert doc.line(("orders", 0, "place", "zone")) == 9


def test_no_internal_key_marker_left_in_lines() -> None:
    doc = yamlio.load_untrusted(GOOD, SOURCE)
    assert not any("\0key" in p for p in doc.lines if isinstance(p, tuple))


# ---------------------------------------------------------------------------------------
# round trip: what pbem dumps, the strict loader reads back as it was

_text = st.text(st.characters(blacklist_categories=("Cc", "Cs")), max_size=30)
_json_like = st.recursive(
    st.none() | st.booleans() | st.integers() | _text,
    lambda children: st.lists(children, max_size=5) | st.dictionaries(_text, children, max_size=5),
    max_leaves=30,
)


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(_json_like)
def test_dump_then_load_untrusted_round_trips(value: object) -> None:
    text = yamlio.dump(value)
    assert yamlio.load_untrusted(text, SOURCE).data == value


@settings(max_examples=100, deadline=None)
@given(st.lists(st.text(st.sampled_from("ab \n\t:#-'\"|>"), max_size=12), max_size=4))
def test_multi_line_text_round_trips(lines: list[str]) -> None:
    value = {"reason": "\n".join(lines), "more": lines}
    assert yamlio.load_untrusted(yamlio.dump(value), SOURCE).data == value


@pytest.mark.parametrize("word", ["yes", "no", "on", "off", "null", "~", "012", "0x1f", "1e3",
                                  "2026-01-05", "", " lead", "trail ", "- x", "a: b", "#c"])
def test_text_that_looks_like_something_else_round_trips(word: str) -> None:
    value = {word: [word], "k": word}
    assert yamlio.load_untrusted(yamlio.dump(value), SOURCE).data == value


def test_write_atomic_leaves_no_temp_file(tmp_path) -> None:
    target = tmp_path / "sub" / "f.yaml"
    yamlio.write_atomic(target, "a: 1\n")
    yamlio.write_atomic(target, "a: 2\n")
    assert target.read_text() == "a: 2\n"
    assert sorted(p.name for p in target.parent.iterdir()) == ["f.yaml"]


def test_control_characters_name_their_column() -> None:
    line, message = _rejected("campaign: c\nturn: 1\nphase: ac\x00tion\n")
    assert (line, message.split(":")[0]) == (3, "column 10"), message
    assert "expected plain text" in message


def test_read_input_takes_only_regular_files(tmp_path) -> None:
    import os

    good = tmp_path / "good.yaml"
    good.write_text("a: 1\n")
    assert yamlio.read_input(good) == b"a: 1\n"
    (tmp_path / "dev.yaml").symlink_to("/dev/zero")
    os.mkfifo(tmp_path / "fifo.yaml")
    (tmp_path / "dir.yaml").mkdir()
    big = tmp_path / "big.yaml"
    big.write_bytes(b"#" * 11)
    for path, why in ((tmp_path / "dev.yaml", "is a device"), (tmp_path / "fifo.yaml", "is a FIFO"),
                      (tmp_path / "dir.yaml", "is a directory"), (tmp_path / "none.yaml", "no such file")):
        with pytest.raises(InputFileError) as info:
            yamlio.read_input(path, what="an orders file")
        assert info.value.message.startswith(f"{path}:1: {why}"), info.value.message
        assert info.value.message.endswith("expected an orders file, a regular file")
    with pytest.raises(InputFileError) as info:
        yamlio.read_input(big, limit=10)
    assert info.value.message.startswith(f"{big}:1: file is more than 10 bytes")
    assert yamlio.read_input(big, limit=11) == b"#" * 11


def test_what_pbem_writes_has_no_anchors_even_for_shared_values() -> None:
    # a bot's orders may use one list twice (a Chechen War attack's units and its advance):
    # written with an anchor, the file would be refused by pbem's own reader when signed
    units = ["ru_131_mech_bde", "ru_74_mech_bde"]
    text = yamlio.dump({"orders": [{"attack": {"target": "1324", "units": units, "advance": units}}]})
    assert "&" not in text and "*" not in text
    assert yamlio.load_untrusted(text, "orders.yaml").data["orders"][0]["attack"]["advance"] == units


@pytest.mark.parametrize("text", ["0832", "0121", "12", "-3", "1.5", "1e5", "0x1F", "0o17", "0b101", "1_000"])
def test_text_that_reads_as_a_number_is_written_quoted(text: str) -> None:
    """A hex id like 0832 is text: pbem writes it quoted (PyYAML would leave 0832 plain, which
    a YAML 1.2 reader, and a player copying it, takes for the number 832)."""
    written = yamlio.dump({"hex": text, "units": [text]})
    assert written == f"hex: '{text}'\nunits: ['{text}']\n"
    assert yamlio.load_untrusted(written, "t").data == {"hex": text, "units": [text]}


@pytest.mark.parametrize("text", ["t01", "x12", "0832a", "Groznyi", "1324 Groznyi", "0b3f9a", "0o8", "0b12"])
def test_other_text_is_written_plain(text: str) -> None:
    written = yamlio.dump({"hex": text, "units": [text]})
    assert written == f"hex: {text}\nunits: [{text}]\n"
