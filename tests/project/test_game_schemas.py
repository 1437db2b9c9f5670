"""Game data checked against the game's JSON Schemas (pbem.datacheck), problems as FILE:LINE.

Red Russia has one schema per data file (games/red_russia/schemas/). A mistake of each kind
(a wrong type, a value out of range, an unknown key, a missing key) in each file is named
at its line with what was expected; an override that breaks a schema is named at its line
in campaign.yaml; `pbem new` refuses such data with the message and no traceback.
"""

from __future__ import annotations

import json
import os
import re
import shutil
import subprocess
import sys
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest
from jsonschema import Draft202012Validator

from pbem import datacheck
from pbem import game as game_module
from pbem.campaign import Campaign
from pbem.errors import DataError
from pbem.game import get_game, load_data
from pbem.yamlio import read_trusted
from tests.conftest import Result

GAME = game_module.games_dir() / "red_russia"
NAMES = ["game", "map", "units", "economy", "politics", "cards"]


def files(folder: Path) -> dict[str, Any]:
    return {name: read_trusted(folder / f"{name}.yaml") for name in NAMES}


@pytest.fixture
def game_copy(tmp_path: Path) -> Path:
    folder = tmp_path / "games" / "red_russia"
    shutil.copytree(GAME, folder, ignore=shutil.ignore_patterns("__pycache__"))
    return folder


@pytest.fixture
def copied_games(game_copy: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[Path]:
    """pbem finds its games in the copy, whose rules it loads; afterwards the rules loaded
    from the tree are put back, for the tests that hold their modules."""
    get_game("red_russia")
    saved = {k: v for k, v in sys.modules.items() if k.startswith("pbem_game_")}
    monkeypatch.setattr(game_module, "_LOADED", dict(game_module._LOADED))
    monkeypatch.setattr(game_module, "games_dir", lambda: game_copy.parent)
    yield game_copy
    for name in [k for k in sys.modules if k.startswith("pbem_game_")]:
        del sys.modules[name]
    sys.modules.update(saved)


def edit(folder: Path, name: str, old: str, new: str, at: tuple[str, int]) -> int:
    """Replace `old` (found once) in NAME.yaml by `new`; return the line of `at`: the line
    where its text (found once after the edit) starts, plus its offset."""
    path = folder / f"{name}.yaml"
    text = path.read_text(encoding="utf-8")
    assert text.count(old) == 1, old
    text = text.replace(old, new)
    path.write_text(text, encoding="utf-8")
    needle, offset = at
    assert text.count(needle) == 1, needle
    return text[: text.index(needle)].count("\n") + 1 + offset


OREL = "  Orel:\n    territory: greater_russia\n    fort: 1\n    money: 2\n"
LENIN = "  - {id: lenin, name: Lenin, faction: red, level: 2, start: fixed}"
RED_INF = "    - {id: red-inf-01, type: inf, full: [5, 2], reduced: [3, 1]}"
INF_COST = "  inf: {money: 3, manpower: 5, delay: 2, repair: {money: 1, manpower: 2}}"
FIRST_CARD = "  - id: czech-legion-formed\n    title: Czech Legion formed\n"
ROUTE = "  - [Tula, Orel, easy]"
ROUTE_INDEX = next(i for i, r in enumerate(read_trusted(GAME / "map.yaml")["routes"])
                   if r[:2] == ["Tula", "Orel"])

# (file, text, its replacement, (where the problem is, lines below it), the message)
MISTAKES: dict[str, tuple[str, str, str, tuple[str, int], str]] = {
    "game-type": ("game", "  cost_per_round: 1\n", "  cost_per_round: one\n",
                  ("cost_per_round: one", 0),
                  "siege.cost_per_round: expected a whole number, got 'one'"),
    "game-range": ("game", "{id: red, name: Reds, side: red, hand: 6,",
                   "{id: red, name: Reds, side: red, hand: 12,", ("hand: 12", 0),
                   "factions[0].hand: expected at most 9, got 12"),
    "game-victory-level": ("game", "automatic: {red: 30,", "automatic: {red: -3,", ("red: -3", 0),
                           "victory.automatic.red: expected at least 1, got -3"),
    "game-unknown-key": ("game", "\nsiege:\n", "\nsiege:\n  cost_per_turn: 1\n",
                         ("cost_per_turn", 0),
                         "siege.cost_per_turn: unknown key; expected one of cost_per_round"),
    "game-missing-key": ("game", "  markers: 2\n  reach: 2\n", "  markers: 2\n",
                         ("  markers: 2\n", 0), "cossack_raid: missing key 'reach'"),
    "map-type": ("map", OREL, OREL.replace("money: 2", "money: lots"), ("\n  Orel:\n", 4),
                 "zones.Orel.money: expected a whole number, got 'lots'"),
    "map-range": ("map", OREL, OREL.replace("fort: 1", "fort: 12"), ("\n  Orel:\n", 3),
                  "zones.Orel.fort: expected at most 9, got 12"),
    "map-unknown-key": ("map", OREL, OREL.replace("  Orel:\n", "  Orel:\n    colour: red\n"),
                        ("\n  Orel:\n", 2),
                        "zones.Orel.colour: unknown key; expected one of aliases, food, fort, "
                        "home, iron_cross, manpower, money, ports, rail, territory, xy"),
    "map-missing-key": ("map", "    xy: [275, 335]\n", "", ("\n  Orel:\n", 2),
                        "zones.Orel: missing key 'xy'"),
    "map-enum": ("map", ROUTE, ROUTE.replace("easy", "eassy"), ("[Tula, Orel, eassy]", 0),
                 f"routes[{ROUTE_INDEX}][2]: expected one of easy, difficult, very_difficult, "
                 "got 'eassy'"),
    "units-type": ("units", LENIN, LENIN.replace("level: 2", "level: two"), ("id: lenin", 0),
                   "leaders[0].level: expected a whole number, got 'two'"),
    "units-range": ("units", LENIN, LENIN.replace("level: 2", "level: 4"), ("id: lenin", 0),
                    "leaders[0].level: expected at most 3, got 4"),
    "units-unknown-key": ("units", RED_INF, RED_INF.replace("}", ", colour: red}"),
                          ("id: red-inf-01", 0),
                          "counters.red[0].colour: unknown key; expected one of full, id, nation, "
                          "reduced, sea, type"),
    "units-missing-key": ("units", LENIN, LENIN.replace(", start: fixed", ""), ("id: lenin", 0),
                          "leaders[0]: missing key 'start'"),
    "economy-type": ("economy", INF_COST, INF_COST.replace("money: 3", "money: three"),
                     ("  inf: {", 0), "costs.inf.money: expected a whole number, got 'three'"),
    "economy-range": ("economy", INF_COST, INF_COST.replace("delay: 2", "delay: 0"),
                      ("  inf: {", 0), "costs.inf.delay: expected at least 1, got 0"),
    "economy-unknown-key": ("economy", "maintenance: {money: 1, manpower: 1}",
                            "maintenance: {money: 1, manpower: 1, upkeep: 1}", ("upkeep", 0),
                            "maintenance.upkeep: unknown key; expected one of manpower, money"),
    "economy-missing-key": ("economy", "maintenance: {money: 1, manpower: 1}", "",
                            ("\ncosts:", 1), "missing key 'maintenance'"),
    "politics-type": ("politics", "money_per_missing_unit: 2", "money_per_missing_unit: two",
                      ("money_per_missing_unit", 0),
                      "intervention.money_per_missing_unit: expected a whole number, got 'two'"),
    "politics-range": ("politics", "money_per_missing_unit: 2", "money_per_missing_unit: -1",
                       ("money_per_missing_unit", 0),
                       "intervention.money_per_missing_unit: expected at least 0, got -1"),
    "politics-unknown-key": ("politics", "\nori:\n", "\nori:\n  dice: 1\n", ("dice: 1", 0),
                             "ori.dice: unknown key; expected one of table"),
    "politics-missing-key": ("politics", "    - {min: 2, max: 4, result: none}",
                             "    - {min: 2, max: 4}", ("{min: 2, max: 4}", 0),
                             "minors.table[1]: missing key 'result'"),
    "cards-type": ("cards", "    immediate: false\n    remove: true\n    rule: \"19.3\"\n"
                            "    text: >-\n      The Czechoslovak",
                   "    immediate: maybe\n    remove: true\n    rule: \"19.3\"\n"
                   "    text: >-\n      The Czechoslovak", ("immediate: maybe", 0),
                   "cards[0].immediate: expected true or false, got 'maybe'"),
    "cards-range": ("cards", "units: {type: inf, full: [4, 2], count: 2}, money: 6}",
                    "units: {type: inf, full: [4, 2], count: 0}, money: 6}", ("count: 0", 0),
                    "cards[0].effect[0].units.count: expected at least 1, got 0"),
    "cards-unknown-key": ("cards", FIRST_CARD, FIRST_CARD + "    colour: red\n",
                          ("colour: red", 0),
                          "cards[0].colour: unknown key; expected one of effect, id, immediate, "
                          "option, phase, playable_by, remove, rule, text, title, years"),
    "cards-missing-key": ("cards", FIRST_CARD, "  - id: czech-legion-formed\n",
                          ("id: czech-legion-formed", 0), "cards[0]: missing key 'title'"),
}


# ---------------------------------------------------------------------------------------
# the bundled data and the schemas themselves


def test_the_bundled_data_matches_its_schemas() -> None:
    assert datacheck.problems(GAME, files(GAME)) == []
    assert load_data("red_russia")["map"]["zones"]["Orel"]["money"] == 2


@pytest.mark.parametrize("name", NAMES)
def test_each_data_file_has_a_draft_2020_12_schema_that_says_where_its_shape_comes_from(
        name: str) -> None:
    assert name == "game" or name in read_trusted(GAME / "game.yaml")["data_files"]
    schema = json.loads(datacheck.schema_path(GAME, name).read_text(encoding="utf-8"))
    Draft202012Validator.check_schema(schema)
    assert schema["$schema"] == "https://json-schema.org/draft/2020-12/schema"
    assert schema["additionalProperties"] is False  # the files are closed formats
    assert f"{name}.yaml" in schema["$comment"] and "rules/" in schema["$comment"]


# whole numbers a schema lets go below zero, each for its reason
MAY_BE_NEGATIVE = {
    ("red_russia", "cards", "/$defs/resource/properties/amount"),  # money gained or lost
    ("red_russia", "politics", "/$defs/bound"),  # an ORI table row's bound (a modified roll)
}


def _unbounded(node: Any, path: str = "") -> Iterator[str]:
    """The whole numbers of a schema with no lower bound, by their JSON pointer."""
    if isinstance(node, dict):
        if node.get("type") == "integer" and not {"minimum", "exclusiveMinimum", "enum",
                                                  "const"} & set(node):
            yield path
        for key, value in node.items():
            yield from _unbounded(value, f"{path}/{key}")
    elif isinstance(node, list):
        for i, value in enumerate(node):
            yield from _unbounded(value, f"{path}[{i}]")


def test_every_whole_number_of_every_schema_has_a_lower_bound() -> None:
    """A count, a cost or a level below zero is refused where the data (or a campaign's
    override) gives it, not met later as a strange result (Red Russia's victory levels took
    -3); the few that may be negative are named with their reason."""
    found = {(path.parent.parent.name, path.name.split(".")[0], pointer)
             for path in sorted(GAME.parent.glob("*/schemas/*.schema.json"))
             for pointer in _unbounded(json.loads(path.read_text(encoding="utf-8")))}
    assert found == MAY_BE_NEGATIVE


# ---------------------------------------------------------------------------------------
# each kind of mistake in each file


@pytest.mark.parametrize("case", list(MISTAKES))
def test_a_mistake_is_named_at_its_file_and_line_with_what_was_expected(
        game_copy: Path, case: str) -> None:
    name, old, new, at, message = MISTAKES[case]
    line = edit(game_copy, name, old, new, at)
    where = f"{game_copy / f'{name}.yaml'}:{line}"
    assert datacheck.problems(game_copy, files(game_copy)) == [f"{where}: {message}"]


def test_every_problem_is_reported_by_file_then_line(game_copy: Path) -> None:
    late = edit(game_copy, "map", OREL, OREL.replace("fort: 1", "fort: 12"), ("\n  Orel:\n", 3))
    early = edit(game_copy, "map", "    fort: 3\n    money: 3\n    manpower: 2\n    home: finland",
                 "    fort: 30\n    money: 3\n    manpower: 2\n    home: finland", ("fort: 30", 0))
    first = edit(game_copy, "game", "  cost_per_round: 1\n", "  cost_per_round: one\n",
                 ("cost_per_round: one", 0))
    assert early < late
    map_yaml, game_yaml = game_copy / "map.yaml", game_copy / "game.yaml"
    assert datacheck.problems(game_copy, files(game_copy)) == [
        f"{game_yaml}:{first}: siege.cost_per_round: expected a whole number, got 'one'",
        f"{map_yaml}:{early}: zones.Helsinki.fort: expected at most 9, got 30",
        f"{map_yaml}:{late}: zones.Orel.fort: expected at most 9, got 12",
    ]


def test_loading_reports_the_problems_of_every_file_at_once(copied_games: Path) -> None:
    first = edit(copied_games, "game", "  cost_per_round: 1\n", "  cost_per_round: one\n",
                 ("cost_per_round: one", 0))
    second = edit(copied_games, "map", OREL, OREL.replace("fort: 1", "fort: 12"),
                  ("\n  Orel:\n", 3))
    with pytest.raises(DataError) as caught:
        load_data("red_russia")
    assert caught.value.details == [
        f"{copied_games / 'game.yaml'}:{first}: siege.cost_per_round: expected a whole number, "
        "got 'one'",
        f"{copied_games / 'map.yaml'}:{second}: zones.Orel.fort: expected at most 9, got 12"]


def test_a_game_yaml_that_names_no_files_is_refused_alone(copied_games: Path) -> None:
    line = edit(copied_games, "game", "data_files: [map, units, economy, politics, cards]",
                "data_files: map", ("data_files: map", 0))
    with pytest.raises(DataError) as caught:
        load_data("red_russia")
    assert caught.value.details == [
        f"{copied_games / 'game.yaml'}:{line}: data_files: expected a list, got 'map'"]


def test_many_problems_are_cut_to_twenty_in_the_order_of_the_keys() -> None:
    routes = [["Moscow", "Tula", "uphill"]] * 25
    with pytest.raises(DataError) as caught:
        load_data("red_russia", {"map": {"routes": routes}})
    details = caught.value.details
    assert len(details) == 21 and details[-1] == "... and 5 more"
    assert details[0] == ("campaign.yaml: overrides.map.routes[0][2]: expected one of easy, "
                          "difficult, very_difficult, got 'uphill'")
    assert [d.split(":")[1] for d in details[:3]] == [
        " overrides.map.routes[0][2]", " overrides.map.routes[1][2]", " overrides.map.routes[2][2]"]


# ---------------------------------------------------------------------------------------
# campaign overrides


def _campaign_yaml(folder: Path, text: str) -> tuple[Path, dict[str, Any]]:
    folder.mkdir(parents=True, exist_ok=True)
    path = folder / "campaign.yaml"
    path.write_text(text, encoding="utf-8")
    return path, read_trusted(path)["overrides"]


def test_an_override_that_breaks_a_schema_is_refused_at_its_line_in_campaign_yaml(
        tmp_path: Path) -> None:
    path, overrides = _campaign_yaml(tmp_path, (
        "game: red_russia\n"
        "overrides:\n"
        "  map:\n"
        "    zones:\n"
        "      Orel: {money: lots}\n"                      # 5: a wrong type
        "      Atlantis: {territory: greater_russia}\n"   # 6: a new zone without its values
        "  economy:\n"
        "    maintenance: null\n"))                       # 8: a required key deleted
    with pytest.raises(DataError) as caught:
        load_data("red_russia", overrides, source=path)
    assert caught.value.message == "game data for red_russia is not valid"
    assert caught.value.details == [
        f"{path}:5: overrides.map.zones.Orel.money: expected a whole number, got 'lots'",
        f"{path}:6: overrides.map.zones.Atlantis: missing key 'fort'",
        f"{path}:6: overrides.map.zones.Atlantis: missing key 'manpower'",
        f"{path}:6: overrides.map.zones.Atlantis: missing key 'money'",
        f"{path}:6: overrides.map.zones.Atlantis: missing key 'xy'",
        f"{path}:8: overrides.economy: missing key 'maintenance'",
    ]


def test_a_campaign_names_its_own_campaign_yaml(tmp_path: Path) -> None:
    path, _ = _campaign_yaml(tmp_path / "camp", (
        "pbem: 1\ncampaign: camp\ngame: red_russia\noverrides:\n  units:\n    leaders: [{id: lenin}]\n"))
    with pytest.raises(DataError) as caught:
        _ = Campaign.open(tmp_path / "camp").data
    assert caught.value.details == [
        f"{path}:6: overrides.units.leaders[0]: missing key '{key}'"
        for key in ("faction", "level", "name", "start")]


def test_a_mistake_the_override_did_not_make_stays_in_the_data_file(
        copied_games: Path, tmp_path: Path) -> None:
    line = edit(copied_games, "map", OREL, OREL.replace("fort: 1", "fort: 12"), ("\n  Orel:\n", 3))
    path, overrides = _campaign_yaml(tmp_path, (
        "game: red_russia\noverrides:\n  map: {zones: {Orel: {manpower: 3}, Kazan: {fort: 10}}}\n"))
    with pytest.raises(DataError) as caught:
        load_data("red_russia", overrides, source=path)
    assert caught.value.details == [
        f"{copied_games / 'map.yaml'}:{line}: zones.Orel.fort: expected at most 9, got 12",
        f"{path}:3: overrides.map.zones.Kazan.fort: expected at most 9, got 10",
    ]


def test_overrides_that_are_not_a_mapping_are_refused(tmp_path: Path) -> None:
    with pytest.raises(DataError, match=r"campaign.yaml: overrides: expected a mapping of data "
                                        r"file names \(known: game, map, "):
        load_data("red_russia", ["map"])  # type: ignore[arg-type]


# ---------------------------------------------------------------------------------------
# the command line; games without schemas; the schemas' own mistakes; the cache


def test_pbem_new_refuses_data_that_breaks_a_schema_with_the_line_and_no_traceback(
        copied_games: Path, pbem: Callable[..., Result], tmp_path: Path) -> None:
    line = edit(copied_games, "map", OREL, OREL.replace("fort: 1", "fort: 12"), ("\n  Orel:\n", 3))
    r = pbem("new", tmp_path / "camp", "--game", "red_russia", "--seed", "s")
    assert r.code == 1
    assert r.err.splitlines() == [
        "Error: game data for red_russia is not valid",
        f"  {copied_games / 'map.yaml'}:{line}: zones.Orel.fort: expected at most 9, got 12"]
    assert "Traceback" not in r.err + r.out
    assert not (tmp_path / "camp").exists()


def test_a_game_without_schemas_still_loads(copied_games: Path) -> None:
    shutil.rmtree(copied_games / "schemas")
    edit(copied_games, "map", OREL, OREL.replace("  Orel:\n", "  Orel:\n    colour: red\n"),
         ("\n  Orel:\n", 2))
    assert datacheck.problems(copied_games, files(copied_games)) == []
    assert load_data("red_russia")["map"]["zones"]["Orel"]["colour"] == "red"


def test_a_file_without_a_schema_is_not_checked_by_one(game_copy: Path) -> None:
    (game_copy / "schemas" / "economy.schema.json").unlink()
    edit(game_copy, "economy", INF_COST, INF_COST.replace("delay: 2", "delay: 0"), ("  inf: {", 0))
    assert datacheck.problems(game_copy, files(game_copy)) == []


def test_a_schema_that_is_not_json_schema_is_refused_by_name(game_copy: Path) -> None:
    schema = datacheck.schema_path(game_copy, "economy")
    schema.write_text(json.dumps({"type": "mapping"}), encoding="utf-8")
    with pytest.raises(DataError) as caught:
        datacheck.problems(game_copy, files(game_copy))
    assert caught.value.message.startswith(
        f"{schema}: not a JSON Schema (Draft 2020-12): type: 'mapping' is not valid")
    schema.write_text('{"type": "object",\n "required": [}', encoding="utf-8")
    with pytest.raises(DataError, match=rf"^{re.escape(str(schema))}:2: not a JSON file: "):
        datacheck.problems(game_copy, files(game_copy))


def test_data_found_valid_is_not_checked_again(tmp_path: Path) -> None:
    """A digest of each valid file is kept in the cache folder: the next pbem does not even
    import jsonschema; different data is checked again."""
    env = {**os.environ, "XDG_CACHE_HOME": str(tmp_path / "cache")}
    code = ("import sys; from pbem.game import load_data; load_data('red_russia', {OVERRIDES}); "
            "print('jsonschema' in sys.modules)")

    def imported(overrides: str = "None") -> bool:
        proc = subprocess.run([sys.executable, "-c", code.replace("{OVERRIDES}", overrides)],
                              env=env, capture_output=True, text=True, check=True)
        return proc.stdout.strip() == "True"

    assert imported()
    assert not imported()
    assert len(list((tmp_path / "cache" / "pbem" / "valid-data").iterdir())) == len(NAMES)
    assert imported("{'map': {'zones': {'Orel': {'manpower': 3}}}}")  # a new map: checked
    assert not imported("{'map': {'zones': {'Orel': {'manpower': 3}}}}")
