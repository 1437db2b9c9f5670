"""Axis & Allies 1914's map in the HTML report opens on the reader's own powers: the map is
twice as wide as the page and taller than a window, so its box scrolls both ways and opens on
the part rules/report.py `focus` gives (a power's territories around its capital; Europe for
the public). Checked as a player sees it: the report of a fresh campaign in headless Chromium
in a 1200 x 900 window (its page 1200 x 757, under the browser's bars, as --dump-dom lays it
out), where each place the reader looks for must lie in the part of the map box inside the
page, with the whole map still reachable by scrolling."""

from __future__ import annotations

import copy
import importlib
import json
import re
import subprocess
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from pbem import api
from pbem.dice import KeyedRng
from pbem.game import GameData, get_game, load_data
from tests.conftest import Result

GAME = get_game("aa1914")
rules = importlib.import_module("pbem_game_aa1914")
report = importlib.import_module("pbem_game_aa1914.report")
WINDOW = (1200, 900)
EUROPE = ["london", "paris", "berlin", "vienna", "rome", "constantinople", "moscow"]

# added to a copy of the report by the test alone: where the map box and each territory's
# shape lie in the window once the page has opened, written into the page for --dump-dom
MEASURE = """<script>
addEventListener("load", () => {
  const box = document.querySelector("div.map");
  const at = box.getBoundingClientRect();
  const left = at.left + box.clientLeft, top = at.top + box.clientTop;
  const page = document.documentElement;
  const seen = [Math.max(left, 0), Math.max(top, 0),
                Math.min(left + box.clientWidth, page.clientWidth),
                Math.min(top + box.clientHeight, page.clientHeight)];
  const places = {};
  for (const g of document.querySelectorAll("g.land[data-place]")) {
    const r = g.querySelector("rect").getBoundingClientRect();
    places[g.dataset.place] = {owner: g.dataset.owner, box: [r.left, r.top, r.right, r.bottom]};
  }
  const out = document.createElement("pre");
  out.id = "measured";
  out.textContent = JSON.stringify({seen, places, scroll: [box.scrollWidth, box.scrollHeight],
                                    map: [box.querySelector("svg").getBoundingClientRect().width,
                                          box.querySelector("svg").getBoundingClientRect().height]});
  document.body.append(out);
});
</script>"""


def opened(page: Path, profile: Path) -> dict[str, Any]:
    """What Chromium shows of the report `page` when it opens in the window (MEASURE)."""
    measured = page.with_name("measured.html")
    measured.write_text(page.read_text().replace("</body>", MEASURE + "</body>"))
    proc = subprocess.run(
        ["chromium", "--headless", "--no-sandbox", "--disable-gpu", "--no-first-run",
         "--disable-background-networking", "--disable-component-update", "--disable-sync",
         f"--user-data-dir={profile}", f"--window-size={WINDOW[0]},{WINDOW[1]}",
         "--virtual-time-budget=3000", "--dump-dom", measured.as_uri()],
        capture_output=True, text=True, timeout=120)
    found = re.search(r'<pre id="measured">(.*?)</pre>', proc.stdout, re.S)
    assert found, proc.stderr[-2000:]
    shown: dict[str, Any] = json.loads(found.group(1).replace("&quot;", '"').replace("&amp;", "&"))
    return shown


def inside(place: list[float], seen: list[float]) -> bool:
    return (place[0] >= seen[0] and place[1] >= seen[1]
            and place[2] <= seen[2] and place[3] <= seen[3])


@pytest.fixture(scope="module")
def campaign(tmp_path_factory: pytest.TempPathFactory) -> Path:
    root = tmp_path_factory.mktemp("aa") / "camp"
    api.new_campaign(root, "aa1914", hot_seat=True, contributions=False, seed="first-screen",
                     name="camp")
    return root


@pytest.mark.parametrize(("who", "looked_for"), [
    ("austria_hungary", None),  # every territory it holds
    ("usa", None),
    ("russia", ["moscow", "livonia", "belarus", "poland", "tatarstan"]),
    ("britain", ["london", "scotland", "yorkshire", "wales", "ireland"]),
    ("ottomans", ["constantinople", "smyrna", "ankara"]),
    # Europe's capitals, those of the north first (Rome's and Constantinople's a scroll away)
    ("public", ["london", "paris", "berlin", "vienna", "moscow"]),
])
def test_the_report_opens_its_map_on_the_readers_powers(
        who: str, looked_for: list[str] | None, campaign: Path, pbem: Callable[..., Result],
        tmp_path: Path, require_tool: Callable[[str], None]) -> None:
    require_tool("chromium")
    r = pbem("-C", campaign, "report", "--for", who, "--format", "html")
    assert r.code == 0, r.err
    page = tmp_path / "report.html"
    page.write_text(r.out)
    shown = opened(page, tmp_path / "profile")
    places: dict[str, dict[str, Any]] = shown["places"]
    wanted = looked_for or [p for p, at in places.items() if at["owner"] == who]
    assert wanted
    hidden = [p for p in wanted if not inside(places[p]["box"], shown["seen"])]
    assert hidden == [], f"{who}: not in the map's first screen {shown['seen']}: {hidden}"
    # the whole map is still there to scroll to, at its full size
    width, height = load_data("aa1914")["layout"]["canvas"]
    assert shown["map"] == pytest.approx([width, height], abs=2)
    assert shown["scroll"][0] >= width and shown["scroll"][1] >= height


def test_austria_hungary_is_seen_whole_in_its_first_screen(
        campaign: Path, pbem: Callable[..., Result], tmp_path: Path,
        require_tool: Callable[[str], None]) -> None:
    """The case players found: Sea Zone 5 and Norway, not Austria-Hungary."""
    require_tool("chromium")
    r = pbem("-C", campaign, "report", "--for", "austria_hungary", "--format", "html")
    page = tmp_path / "report.html"
    page.write_text(r.out)
    shown = opened(page, tmp_path / "profile")
    held = sorted(p for p, at in shown["places"].items() if at["owner"] == "austria_hungary")
    assert held == ["bohemia", "budapest", "galicia", "trieste", "tyrolia", "vienna"]
    assert all(inside(shown["places"][p]["box"], shown["seen"]) for p in held)
    assert not inside(shown["places"]["norway"]["box"], shown["seen"])


# ---------------------------------------------------------------------------------------
# rules/report.py `focus`, without a browser


def test_a_power_opens_on_its_territories_around_its_capital_and_the_public_on_europe() -> None:
    data = load_data("aa1914")
    state = GAME.setup(data, {}, KeyedRng(b"\x02" * 32))

    def focus(who: str) -> Any:
        return report.focus(data, GAME.view(data, state, who), who)

    def covers(rect: Any, place: str) -> bool:
        shape = report.box(data, place)
        return bool(rect.x <= shape.x and rect.y <= shape.y and shape.x + shape.w <= rect.x + rect.w
                    and shape.y + shape.h <= rect.y + rect.h)

    austria = focus("austria_hungary")
    assert all(covers(austria, t) for t in ["bohemia", "budapest", "galicia", "trieste",
                                            "tyrolia", "vienna"])
    assert austria.w < 600 and austria.h < 400  # its home, not the map
    britain = focus("britain")  # London's corner, not India's or Canada's
    assert covers(britain, "london") and not covers(britain, "india")
    assert britain.w < 600
    assert all(covers(focus("public"), c) for c in EUROPE)
    assert focus("referee") == focus("public")
    parts = rules.GAME.report(data, GAME.view(data, state, "usa"), None, "usa", {}, [])
    assert parts["map_focus"] == {"x": round(focus("usa").x), "y": round(focus("usa").y),
                                  "width": round(focus("usa").w), "height": round(focus("usa").h)}


def without_opens_on() -> GameData:
    data = load_data("aa1914")
    changed = GameData("aa1914", data.folder, copy.deepcopy(data.files))
    changed.files["layout"].pop("opens_on")
    return changed


def test_without_places_to_open_on_the_public_sees_the_whole_canvas() -> None:
    data = without_opens_on()
    state = GAME.setup(data, {}, KeyedRng(b"\x02" * 32))
    shown = report.focus(data, GAME.view(data, state, "public"), "public")
    assert (shown.x, shown.y, shown.w, shown.h) == (0, 0, *data["layout"]["canvas"])


def test_the_layout_refuses_to_open_on_a_place_it_does_not_draw() -> None:
    data = without_opens_on()
    data.files["layout"]["opens_on"] = ["vienna", "sahara"]
    assert GAME.check_data(data) == ["layout.yaml: opens_on: sahara: not a place it draws"]
