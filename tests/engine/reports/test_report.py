"""Turn reports (pbem/reports/, pbem/cli/reports.py, templates/).

Golden files: tests/golden/report/ holds every format's report for `public`, `red` and
`referee` of a seeded campaign played to turn 2, and text reports of a campaign with sealed
orders pending. What varies between runs (log heads, commitments, salts: any 64-digit hex)
is normalised before comparing. To regenerate them after a deliberate change, run

    PBEM_REGEN_GOLDEN=1 python -m pytest tests/engine/reports/test_report.py

and review the diff of tests/golden/report/ like any other change.
"""

from __future__ import annotations

import os
import re
import shutil
import sys
from collections.abc import Callable, Iterator
from html.parser import HTMLParser
from pathlib import Path
from typing import Any

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))
from conftest import Result, isolate, play  # noqa: E402
from screenshots import png_colours, screenshot  # noqa: E402

GOLDEN = Path(__file__).resolve().parents[2] / "golden" / "report"
REGEN = os.environ.get("PBEM_REGEN_GOLDEN") == "1"
FORMATS = ("text", "html", "md", "bbcode")
READERS = ("public", "red", "referee")
EXT = {"text": "txt", "html": "html", "md": "md", "bbcode": "bbcode"}


@pytest.fixture(scope="module")
def isolated(tmp_path_factory: pytest.TempPathFactory) -> Iterator[None]:
    """Module fixtures run before the autouse HOME fixture, so they isolate git themselves."""
    with pytest.MonkeyPatch.context() as mp:
        isolate(mp, tmp_path_factory.mktemp("report-home"))
        yield


@pytest.fixture(scope="module")
def golden(tmp_path_factory: pytest.TempPathFactory, isolated: None) -> Path:
    """The golden campaign: seeded, played by the bot to turn 2's action phase."""
    from pbem import api

    root = tmp_path_factory.mktemp("report") / "golden"
    api.new_campaign(root, "red_russia", contributions=False, hot_seat=True, seed="golden", name="golden")
    play(root, until_turn=2, phase="action", seed="golden")
    return root


@pytest.fixture(scope="module")
def sealed_camp(tmp_path_factory: pytest.TempPathFactory, isolated: None) -> dict[str, Any]:
    """A campaign in the simultaneous White placement, with the Siberians' orders sealed."""
    from pbem import api, yamlio
    from pbem.campaign import Campaign
    from pbem.crypto import sealed

    base = tmp_path_factory.mktemp("report-sealed")
    root, keys = base / "sealed", base / "keys"
    api.new_campaign(root, "red_russia", contributions=False, hot_seat=True, seed="sealed", name="sealed", keys_dir=keys)
    orders = base / "siberian.yaml"
    yamlio.write_atomic(orders, yamlio.dump(api.bot(root, "siberian", seed="sealed")))
    api.apply(root, [orders])
    campaign = Campaign.open(root)
    node = campaign.state()["pending"]["siberian"]["sealed"]
    opened = sealed.open_node(campaign.id, node, campaign.referee_identities())
    return {"root": root, "keys": keys, "value": opened.value}


def normalise(text: str) -> str:
    """What changes from run to run: hashes, commitments, salts (64 hex digits, or their
    first 16 in a forum report's appendix), age armor. A hex value that happens to read as
    a number (all digits, or digits around one 'e') is quoted by the YAML writer: its quotes
    go with it."""
    text = re.sub(r"-----BEGIN AGE ENCRYPTED FILE-----.*?-----END AGE ENCRYPTED FILE-----",
                  "<age>", text, flags=re.S)
    return re.sub(r"'?\b(?:[0-9a-f]{64}|[0-9a-f]{16})\b'?", "<hex>", text)


def test_normalise_a_number_like_hex_as_any_other() -> None:
    from pbem import yamlio

    for value in ("1234567890123456", "12345e7890123456", "abcdef0123456789"):
        assert normalise(yamlio.dump({"head": value})) == "{head: <hex>}\n", value


def check_golden(name: str, text: str) -> None:
    path = GOLDEN / name
    got = normalise(text)
    if REGEN:
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(got)
        return
    if not path.exists():
        pytest.fail(f"{path} is missing: run PBEM_REGEN_GOLDEN=1 pytest {__file__}")
    want = path.read_text()
    assert got == want, f"{name} differs from its golden file (PBEM_REGEN_GOLDEN=1 regenerates)"


# ---------------------------------------------------------------------------------------
# golden files


@pytest.mark.parametrize("fmt", FORMATS)
@pytest.mark.parametrize("who", READERS)
def test_golden(golden: Path, who: str, fmt: str) -> None:
    from pbem.reports.render import render

    check_golden(f"golden-t2-{who}.{EXT[fmt]}", render(golden, who, fmt))


@pytest.mark.parametrize("who", ["public", "siberian", "south", "referee"])
def test_golden_sealed(sealed_camp: dict[str, Any], who: str) -> None:
    from pbem.crypto.keys import load_identity_file
    from pbem.reports.render import render

    ids = load_identity_file(sealed_camp["keys"] / "siberian.key") if who == "siberian" else None
    check_golden(f"sealed-t0-{who}.txt", render(sealed_camp["root"], who, "text",
                                                       identities=ids))


def test_every_report_warns_of_a_reproducible_campaign(golden: Path) -> None:
    from pbem.reports.render import render

    for fmt in FORMATS:
        text = render(golden, "south", fmt)
        assert "this campaign is reproducible" in text, fmt


def test_report_of_an_earlier_turn(golden: Path) -> None:
    from pbem.reports.context import build_context

    ctx = build_context(golden, "public", turn=1)
    assert {s["turn"] for s in ctx["steps"]} == {1}
    assert ctx["orders_templates"] == []
    assert ctx["dice_count"] == sum(len(s["dice"]) for s in ctx["steps"]) > 0
    assert all({"label", "sides", "value"} == set(d) for s in ctx["steps"] for d in s["dice"])


def test_orders_template_is_the_bots(golden: Path) -> None:
    from pbem import api, yamlio
    from pbem.reports.context import build_context

    awaited = api.status(golden)["awaiting"][0]
    idle = next(f for f in ("red", "siberian", "south", "north") if f != awaited)
    ctx = build_context(golden, awaited)
    (template,) = ctx["orders_templates"]
    assert template["text"].startswith(f"# Orders template for {awaited}")
    assert "only a legal EXAMPLE" in template["text"]
    body = yamlio.load_trusted(template["text"])
    # the game's template: the bot's orders, the standing in force, no salts (pbem sign adds them)
    assert body == api.bot(golden, awaited, seed="golden", template=True)
    assert "salt" not in body and "salt_next" not in body
    (bare,) = build_context(golden, idle)["orders_templates"]
    assert yamlio.load_trusted(bare["text"])["orders"] == []


# ---------------------------------------------------------------------------------------
# secrets


def test_no_sealed_plaintext_in_others_reports(sealed_camp: dict[str, Any]) -> None:
    """The public and the other factions see that the Siberians sent orders, never what."""
    from pbem.reports.render import render

    value = sealed_camp["value"]
    raw = value["file"]
    assert "place" in raw  # the bot's placement orders, as the player's file holds them
    secrets = [raw, value["salt"], *(line.strip() for line in raw.splitlines()
                                     if line.strip().startswith(("salt", "units: [")))]
    for who in ("public", "south", "north", "red", "siberian"):
        for fmt in FORMATS:
            text = render(sealed_camp["root"], who, fmt)
            assert "-----BEGIN AGE" not in text, (who, fmt)
            for secret in secrets:
                assert secret not in text, (who, fmt, secret)
            assert "sealed" in text


def test_own_sealed_values_with_the_own_key(sealed_camp: dict[str, Any]) -> None:
    from pbem.crypto.keys import load_identity_file
    from pbem.reports.context import build_context
    from pbem.reports.render import render

    root, keys, value = sealed_camp["root"], sealed_camp["keys"], sealed_camp["value"]
    mine = build_context(root, "siberian", identities=load_identity_file(keys / "siberian.key"))
    (secret,) = mine["secrets"]
    assert secret["verified"] and value["salt"] in secret["value"]
    # another faction's key opens nothing of the Siberians'
    other = build_context(root, "siberian", identities=load_identity_file(keys / "south.key"))
    assert other["secrets"][0]["value"] is None
    south = build_context(root, "south", identities=load_identity_file(keys / "south.key"))
    assert south["secrets"] == []
    referee = render(root, "referee", "text")
    assert value["salt"] in referee  # the referee's report carries everything


def test_golden_reports_hold_no_age_armor(golden: Path) -> None:
    from pbem.reports.render import render

    for who in ("public", "red", "siberian", "referee"):
        for fmt in FORMATS:
            assert "-----BEGIN AGE" not in render(golden, who, fmt)


# ---------------------------------------------------------------------------------------
# HTML and the map

VOID = {"meta", "br", "hr", "img", "input", "link", "circle", "line", "rect", "ellipse", "path"}


class Checker(HTMLParser):
    """Checks that elements nest and close, and counts the map's zone groups."""

    def __init__(self) -> None:
        super().__init__()
        self.stack: list[str] = []
        self.problems: list[str] = []
        self.zones: list[str] = []
        self.svgs = 0

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        a = dict(attrs)
        if tag == "svg":
            self.svgs += 1
        if tag == "g" and a.get("class") == "zone" and "svg" in self.stack:
            self.zones.append(str(a.get("data-zone")))
        if tag not in VOID:
            self.stack.append(tag)

    def handle_startendtag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        pass  # <circle .../>: nothing to close

    def handle_endtag(self, tag: str) -> None:
        if tag in VOID:
            return
        if not self.stack or self.stack[-1] != tag:
            self.problems.append(f"</{tag}> closes {self.stack[-1:] or 'nothing'} at {self.getpos()}")
            return
        self.stack.pop()


@pytest.mark.parametrize("who", READERS)
def test_html_parses_and_maps_every_zone(golden: Path, who: str) -> None:
    from pbem.campaign import Campaign
    from pbem.reports.render import render

    checker = Checker()
    checker.feed(render(golden, who, "html"))
    checker.close()
    assert checker.problems == []
    assert checker.stack == []
    assert checker.svgs == 1
    zones = Campaign.open(golden).data["map"]["zones"]
    assert sorted(checker.zones) == sorted(zones)


def test_html_renders_in_chromium(golden: Path, tmp_path: Path,
                                  require_tool: Callable[[str], None]) -> None:
    """The HTML report, map included, renders in a real browser (headless Chromium)."""
    from pbem.reports.render import render

    require_tool("chromium")
    page = tmp_path / "report.html"
    page.write_text(render(golden, "red", "html"))
    png = tmp_path / "report.png"
    proc = screenshot(page, png, "1200,1600", tmp_path / "profile")
    assert png.exists(), proc.stderr[-2000:]
    keep = os.environ.get("PBEM_KEEP_SCREENSHOT")
    if keep:
        shutil.copy(png, keep)
    colours = png_colours(png)
    assert len(colours) > 20
    # the map drew zones in the factions' colours
    for hex_ in ("c0392b", "2e86c1", "d4ac0d", "7d3c98"):
        assert bytes.fromhex(hex_) in colours, hex_


# ---------------------------------------------------------------------------------------
# the command


@pytest.fixture
def cli(pbem: Callable[..., Result]) -> Callable[..., Result]:
    """The in-process CLI as pbem/cli/ builds it (`report` is its own)."""
    return pbem


def test_cli_report(golden: Path, tmp_path: Path, cli: Callable[..., Result]) -> None:
    r = cli("-C", golden, "report", "--for", "red", "--format", "md")
    assert r.code == 0, r.err
    assert r.out.startswith("# Red Russia")
    out = tmp_path / "reports"
    r = cli("-C", golden, "report", "--for", "referee", "--format", "html", "--out", out)
    assert r.code == 0, r.err
    assert r.out.strip() == str(out / "golden-t2-referee.html")
    assert (out / "golden-t2-referee.html").read_text().startswith("<!DOCTYPE html>")
    r = cli("-C", golden, "report", "--turn", "1", "--out", out)
    assert r.out.strip() == str(out / "golden-t1-public.txt")


@pytest.mark.parametrize(("args", "message"), [
    (["--for", "reds"], "Error: --for 'reds': not a reader of this campaign"),
    (["--format", "pdf"], "Error: --format 'pdf': choose one of text, html, md, bbcode"),
    (["--turn", "7"], "Error: --turn 7: no such turn in this campaign"),
])
def test_cli_report_usage_errors(golden: Path, cli: Callable[..., Result], args: list[str],
                                 message: str) -> None:
    r = cli("-C", golden, "report", *args)
    assert r.code == 2
    assert r.err.startswith(message)


def test_cli_report_key(sealed_camp: dict[str, Any], cli: Callable[..., Result]) -> None:
    root, keys = sealed_camp["root"], sealed_camp["keys"]
    r = cli("-C", root, "report", "--for", "siberian", "--key", keys / "siberian.key")
    assert r.code == 0, r.err
    assert sealed_camp["value"]["salt"] in r.out
    r = cli("-C", root, "report", "--for", "siberian")
    assert sealed_camp["value"]["salt"] not in r.out
    assert "sealed (give --key to see it)" in r.out


def test_no_line_of_a_plain_text_report_runs_on(golden: Path) -> None:
    """Lists (the resources changed, the cards discarded) are broken into lines: today's
    longest line of the story is about 135 characters; a list on one line ran to 500."""
    from pbem.reports.render import render

    for who in ("public", "red", "referee"):
        text = render(golden, who, "text")
        longest = max(text.splitlines(), key=len)
        assert len(longest) <= 160, (who, longest)
    changes = render(golden, "public", "text").split("Resources:\n", 1)[1].split("\n\n", 1)[0]
    assert changes.splitlines()[1] == "  Reds: Money 30 -> 6 (-24), Manpower 40 -> 32 (-8), VP -5"


def test_a_box_in_bbcode_is_its_rows_without_padding() -> None:
    """A forum post must stay short: a box's rows a line each, the cells side by side; a
    row with an empty label continues the row above (a wrapped cell); a row that would run
    past the width is told as its label and a line for each cell."""
    from pbem.reports.render import _box_lines

    columns = ["", "Reds (attacker)", "Whites"]
    rows = [["Units", "red-inf-01 5-2", "south-inf-01 4-2"], ["Fortification", "", "1 (8.5)"],
            ["Round 1", "units 6+: 6 1", None]]
    assert _box_lines(rows, columns) == (
        "               Reds (attacker) | Whites\n"
        "Units          red-inf-01 5-2 | south-inf-01 4-2\n"
        "Fortification  - | 1 (8.5)\n"
        "Round 1        units 6+: 6 1 | -")
    wrapped = [["Reds", "a step lost: inf-01,", "58 money"], ["", "inf-02", ""], ["Whites", "none", "7 money"]]
    assert _box_lines(wrapped, ["", "Maintained", "Collected"], wide=30) == (
        "Reds\n  Maintained: a step lost: inf-01, inf-02\n  Collected: 58 money\n"
        "Whites\n  Maintained: none\n  Collected: 7 money")
    assert _box_lines(wrapped, ["", "Maintained", "Collected"]).splitlines()[1] == (
        "Reds    a step lost: inf-01, inf-02 | 58 money")


def test_a_wide_text_table_is_wrapped_within_its_width() -> None:
    """A table wider than the limit: the narrow columns keep their width, the wide ones share
    what is left, each cell wrapped on words (a unit id is never cut at its hyphens)."""
    from pbem.reports.render import _text_table

    rows = [["Round 1", "infantry hit on 1-2: 6 1 = 1 hit", "red-inf-01 red-inf-02 red-inf-03 red-inf-04"],
            ["Hits", "1", "0"]]
    assert _text_table(rows, ["", "Attacker", "Defender"], limit=60) == (
        "         Attacker                  Defender\n"
        "-------  ------------------------  ------------------------\n"
        "Round 1  infantry hit on 1-2: 6 1  red-inf-01 red-inf-02\n"
        "         = 1 hit                   red-inf-03 red-inf-04\n"
        "Hits     1                         0")
    assert _text_table(rows, ["", "Attacker", "Defender"]).splitlines()[2] == (
        "Round 1  infantry hit on 1-2: 6 1 = 1 hit  red-inf-01 red-inf-02 red-inf-03 red-inf-04")


PROBE = """<script>
(function () {
  const out = {viewport: [window.innerWidth, window.innerHeight]};
  const h2 = (start) => [...document.querySelectorAll("h2")].find((h) => h.textContent.startsWith(start));
  const seen = (el) => !!el && el.getClientRects().length > 0 && el.checkVisibility();
  const top = (el) => (el ? el.getBoundingClientRect().top : null);
  out.summary_top = top(h2("Summary"));
  const awaited = document.querySelector("p.awaited");
  out.awaited_top = top(awaited);
  out.awaited = awaited ? awaited.textContent : null;
  out.order_of_battle = seen(h2("Your order of battle"));
  out.hand = seen(h2("Your hand"));
  const template = [...document.querySelectorAll("pre")].find((p) => p.textContent.includes("# Orders template for north"));
  out.template = seen(template);
  out.forms = !!template && template.textContent.includes("The orders this phase takes");
  const svg = document.querySelector(".map svg");
  out.labels = svg ? [...svg.querySelectorAll("text")].filter((t) => {
    const box = t.getBBox(); return box.width > 0 && box.height > 0 && seen(t);
  }).map((t) => t.textContent.trim()) : [];
  out.details_open = [...document.querySelectorAll("details")].filter((d) => d.open).length;
  out.dice_shown = [...document.querySelectorAll("details table")].some(seen);
  out.scroll_width = document.documentElement.scrollWidth;
  const probe = document.createElement("pre");
  probe.id = "probe";
  probe.textContent = JSON.stringify(out);
  document.body.appendChild(probe);
})();
</script>"""


def test_what_a_player_must_see_in_chromium(golden: Path, tmp_path: Path,
                                            require_tool: Callable[[str], None]) -> None:
    """North, whose orders are awaited, opens the HTML report in a browser window of
    1200 x 900: the summary and what is awaited are on the first screen; the map draws every
    zone's name; the order of battle, the hand and the orders template, with the forms of
    the phase's orders, are shown; the dice of the appendix are folded away; nothing makes
    the page scroll sideways."""
    import html
    import json
    import subprocess

    from pbem.campaign import Campaign
    from pbem.reports.render import render

    require_tool("chromium")
    page = tmp_path / "report.html"
    page.write_text(render(golden, "north", "html").replace("</body>", PROBE + "</body>"))
    proc = subprocess.run(
        ["chromium", "--headless", "--no-sandbox", "--disable-gpu", "--no-first-run",
         "--disable-background-networking", "--disable-component-update", "--disable-sync",
         f"--user-data-dir={tmp_path / 'profile'}", "--window-size=1200,900",
         "--virtual-time-budget=5000", "--dump-dom", page.as_uri()],
        capture_output=True, text=True, timeout=120)
    found = re.search(r'<pre id="probe">(.*?)</pre>', proc.stdout, re.S)
    assert found, proc.stderr[-2000:]
    seen = json.loads(html.unescape(found.group(1)))
    height = seen["viewport"][1]
    assert 0 < seen["summary_top"] < height, seen["summary_top"]
    assert 0 < seen["awaited_top"] < height and seen["awaited"].startswith("Your orders are awaited"), seen
    assert seen["order_of_battle"] and seen["hand"] and seen["template"] and seen["forms"], seen
    zones = set(Campaign.open(golden).data["map"]["zones"])
    assert zones <= set(seen["labels"]), sorted(zones - set(seen["labels"]))
    assert seen["details_open"] == 0 and not seen["dice_shown"]
    assert seen["scroll_width"] <= seen["viewport"][0], seen["scroll_width"]


def test_a_text_tables_numbers_blanks_long_ids_and_its_width_at_the_limit() -> None:
    """Numbers right-aligned (signed ones too), an empty cell for None, a unit id longer than
    its column kept whole and never cut at its hyphens, a number column blank on a wrapped
    row's further lines; a table exactly as wide as the limit is not wrapped, one character
    more is (the cases of a bounded mutation run of pbem/reports/render.py)."""
    from pbem.reports.render import _box_lines, _text_table

    rows = [["red", 12, "+3"], ["south", None, "-"]]
    assert _text_table(rows, ["Faction", "Money", "Change"]) == (
        "Faction  Money  Change\n"
        "-------  -----  ------\n"
        "red         12      +3\n"
        "south                -")
    long = [["Units", "allied-inf-01-reserve allied-inf-02", 7]]
    assert _text_table(long, ["", "Who", "N"], limit=30) == (
        "       Who                    N\n"
        "-----  ---------------------  -\n"
        "Units  allied-inf-01-reserve  7\n"
        "       allied-inf-02")
    exact = [["a" * 10, "b" * 10]]  # 10 + 2 + 10 = 22 characters
    assert _text_table(exact, ["x", "y"], limit=22).splitlines()[2] == "a" * 10 + "  " + "b" * 10
    assert len(_text_table([["a" * 10, "b c d e f g h i j k"]], ["x", "y"], limit=21).splitlines()) == 4
    # a box with no rows: its sides named, no label column; a row exactly as wide as the
    # limit stays a line
    assert _box_lines([], ["", "Reds", "Whites"]) == "  Reds | Whites"
    row = [["R", "x" * 10, "y" * 10]]  # "R  " + 10 + " | " + 10 = 26 characters
    assert _box_lines(row, ["", "A", "B"], wide=26).splitlines()[1] == "R  " + "x" * 10 + " | " + "y" * 10
    assert _box_lines(row, ["", "A", "B"], wide=25).splitlines()[1] == "  A: " + "x" * 10
