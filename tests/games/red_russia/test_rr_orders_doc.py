"""games/red_russia/ORDERS.md tells the truth about the rules and the command line.

- Every example is YAML pbem reads (the fenced blocks, the one-order examples in backquotes
  and the indented code line), and each is checked by the rules in a position built for it:
  an example the rules refuse, or warn about, fails here. Each example has its own check,
  found by its text, so an example added or changed without one fails too.
- The order verbs ORDERS.md shows are the verbs the rules take (every `order_items(...)`
  call in rules/), no more and no fewer.
- The standing instructions' table gives the values and defaults the rules take
  (test_rr_standing_offer.py checks its keys against the offer, in order).
- Every `pbem ...` command ORDERS.md names exists with the options it uses, and what
  ORDERS.md says status, bot, check, sign, reveal, report, mail, log and adjust show or do
  is true of one small campaign, played once per module and copied by each test.
"""

from __future__ import annotations

import ast
import email
import email.policy
import importlib
import re
import shutil
import subprocess
import textwrap
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from datetime import datetime
from email.message import EmailMessage
from pathlib import Path
from typing import Any

import pytest
from conftest import Result, isolate, play
from position import GAME, FixedRng, OpenSecrets, data, messages, orders, position, problems
from position import standing as standing_

from pbem import yamlio
from pbem.dice import KeyedRng
from pbem.game import State, order_warnings
from pbem.orders import BODY_KEYS, HEADER_KEYS, REQUIRED, body_of

battle_rules = importlib.import_module("pbem_game_red_russia.battle")
board_rules = importlib.import_module("pbem_game_red_russia.board")
cards_rules = importlib.import_module("pbem_game_red_russia.cards")
decisions_rules = importlib.import_module("pbem_game_red_russia.decisions")
phases_rules = importlib.import_module("pbem_game_red_russia.phases")
play_rules = importlib.import_module("pbem_game_red_russia.play")
setup_rules = importlib.import_module("pbem_game_red_russia.setup")
standing_rules = importlib.import_module("pbem_game_red_russia.standing")

ROOT = Path(__file__).resolve().parents[3]
FOLDER = ROOT / "games" / "red_russia"
TEXT = (FOLDER / "ORDERS.md").read_text(encoding="utf-8")
FENCED = re.compile(r"^ *```yaml\n(.*?)^ *```$", re.S | re.M)
Cli = Callable[..., Result]


# ---------------------------------------------------------------------------------------
# the examples of ORDERS.md


def yaml_blocks() -> list[str]:
    """Every fenced YAML block, dedented (one sits in a list item)."""
    return [textwrap.dedent(block) for block in FENCED.findall(TEXT)]


def one_liners() -> list[str]:
    """The one-order examples outside the blocks: `- verb: ...` in backquotes, and the lines
    of an indented code block."""
    prose = FENCED.sub("", TEXT)
    return (re.findall(r"`(- \w+: [^`]*)`", prose)
            + re.findall(r"^ {4}(- \w+: .*?)\s*$", prose, re.M))


def read(text: str) -> Any:
    return yamlio.load_untrusted(text, "ORDERS.md example").data


def body(example: dict[str, Any]) -> dict[str, Any]:
    """What the rules validate: the orders, standing instructions and secret part."""
    return {k: v for k, v in example.items() if k in BODY_KEYS}


def legal(state: State, faction: str, given: dict[str, Any]) -> None:
    """The rules take these orders of `faction` in `state`, and warn of nothing."""
    assert messages(state, faction, given) == []
    assert [w.message for w in order_warnings(GAME, data(), state, faction, given)] == []


def acting(pieces: dict[str, str], actor: str = "red", **kwargs: Any) -> State:
    """`actor`'s action phase of turn 3; every faction stands and fights when attacked."""
    state = position(pieces, actor=actor, **kwargs)
    state["standing"] = standing_()
    return state


def purchasing(pieces: dict[str, str] | None = None, **kwargs: Any) -> State:
    """The card phase, purchase and politics of turn 3 (12.1: the minors may be called)."""
    state = position(pieces or {}, **kwargs)
    state.update(phase="purchase", actor=None)
    state["standing"] = standing_()
    return state


def owner(state: State, item: dict[str, Any]) -> str:
    """The faction of the first unit a move names."""
    return str(state["units"][item["move"]["units"][0]]["faction"])


def fold(state: State, events: list[dict[str, Any]]) -> State:
    for e in events:
        state = GAME.apply(data(), state, e)
    return state


# one check per block, found by a text only that block holds


def check_header(example: dict[str, Any]) -> None:
    assert set(REQUIRED) <= set(example) <= set(HEADER_KEYS)
    assert example["phase"] in phases_rules.PHASES and example["faction"] in board_rules.MAJORS
    state = acting({"red-inf-04": "Moscow", "trotsky": "Moscow"}, turn=example["turn"])
    legal(state, example["faction"], body(example))


def check_several(example: dict[str, Any]) -> None:
    assert set(example) <= set(HEADER_KEYS)
    # every faction named has its orders entry, [] for none
    assert list(example["orders"]) == example["faction"]
    state = purchasing()
    for faction in example["faction"]:
        legal(state, faction, body_of(example, faction))


def check_place(example: dict[str, Any]) -> None:
    """The set-up's White placement, with these three pieces the South's last to place."""
    state = GAME.setup(data(), {}, KeyedRng(b"\x01" * 32))
    b = board_rules.board(data())
    named = example["orders"][0]["place"]["units"]
    for pid in setup_rules.to_place(state, "south"):
        if pid not in named:
            state["units"][pid].update(status="map", zone=setup_rules.allowed_places(b, state, pid)[0])
            state["units"][pid].pop("place")
    for pid in named:  # drawn for Greater Russia (20.2)
        state["units"][pid].update(status="setup", by="south", zone=None,
                                   place={"region": "greater_russia"})
    assert state["phase"] == "setup-place" and setup_rules.to_place(state, "south") == sorted(named)
    legal(state, "south", body(example))


def check_reduce(example: dict[str, Any]) -> None:
    """The first reductions; the South is the White faction drawn to reduce a Red unit."""
    state = position({"south-fleet-01": "Novorossiysk", "red-inf-06": "Moscow",
                      "red-inf-08": "Moscow", "red-inf-13": "Moscow"}, turn=0)
    state.update(phase="setup-reduce", actor=None, white_reducer="south")
    legal(state, "south", body(example))


def check_purchase(example: dict[str, Any]) -> None:
    state = purchasing({"red-inf-03": "Moscow", "red-fleet-01": "Petrograd", "treasure": "Kazan"},
                       reduced=["red-inf-03", "red-fleet-01"], control={"Kazan": "red"})
    state["units"]["red-inf-09"].update(status="bought", zone=None, arrives=3)  # 5.2
    state["units"]["red-cav-04"].update(status="pool")  # not one of the five set aside (20.4)
    state["money"]["red"] = 40
    # the example is a menu of the Reds' orders, but `intervene` is a White faction's (its
    # comment says so, 13.61): the Reds' file without it, and the South's with it alone
    red = [o for o in example["orders"] if "intervene" not in o]
    white = [o for o in example["orders"] if "intervene" in o]
    assert len(white) == 1
    assert ("only the White factions may call on the Western Allies (4.32, 13.61)"
            in messages(state, "red", {"orders": example["orders"]}))
    legal(state, "red", {**body(example), "orders": red})
    legal(state, "south", {"orders": white})


def check_play_when(example: dict[str, Any]) -> None:
    state = acting({}, actor="south")
    legal(state, "south", body(example))
    for item in example["standing"]["play_when"]:
        assert play_rules.playable(data(), state, "south", item["card"]) is None, item


def check_moves(example: dict[str, Any]) -> None:
    # the Reds' moves, and the South's transport over the Black Sea (7.5): one file each
    reds = acting({"red-inf-02": "Moscow", "red-inf-15": "Moscow", "red-inf-13": "Vologda",
                   "red-fleet-01": "Petrograd"})
    south = acting({"south-inf-01": "Novorossiysk", "denikin": "Novorossiysk",
                    "south-fleet-01": "Black Sea"}, actor="south",
                   control={"Odessa": "south", "Novorossiysk": "south"})
    items = example["orders"]
    assert {owner(reds, o) for o in items} == {"red", "south"}
    legal(reds, "red", orders(*[o for o in items if owner(reds, o) == "red"]))
    legal(south, "south", orders(*[o for o in items if owner(reds, o) == "south"]))


def check_minors(example: dict[str, Any]) -> None:
    """The South controls Finland (12.12) and one allied unit (13.61); Ukraine is conquered
    (12.3), Kiev held by the Reds, where the South besieges it."""
    ukraine = {z: "red" for z in ("Kiev", "Zhitomir", "Vinnitsa", "Poltava")}
    state = acting({"finland-inf-01": "Helsinki", "mannerheim": "Helsinki",
                    "finland-inf-02": "Petrograd", "red-inf-01": "Petrograd",
                    "allied-inf-01": "Archangel", "south-inf-01": "Kiev"},
                   actor="south", control={**ukraine, "Archangel": "south"})
    state["minors"]["finland"] = {"status": "active", "controller": "south", "until": None}
    state["minors"]["ukraine"] = {"status": "neutral", "controller": None, "until": None,
                                  "conquered": True}
    state["allied_control"] = {"south": 1}
    legal(state, "south", body(example))


def check_fleets(example: dict[str, Any]) -> None:
    state = acting({"red-fleet-01": "Petrograd", "allied-fleet-03": "Baltic Sea"},
                   control={"Reval": "north"})
    legal(state, "red", body(example))


def check_battles(example: dict[str, Any]) -> None:
    state = acting({"red-inf-04": "Moscow", "trotsky": "Moscow", "siberian-inf-01": "Kazan",
                    "red-cav-02": "Ufa", "siberian-inf-02": "Ufa", "red-inf-05": "Simbirsk"},
                   control={"Kazan": "siberian", "Ufa": "siberian", "Simbirsk": "siberian"})
    assert sum(example["secret"]["spend"].values()) + 2 <= state["money"]["red"]  # 6.4
    legal(state, "red", body(example))


def check_decision(example: dict[str, Any]) -> None:
    """The Reds attack the South in Tver and Kazan; the South asked to be asked (8.4)."""
    state = acting({"red-inf-01": "Moscow", "south-inf-01": "Tver",
                    "red-inf-02": "Simbirsk", "south-inf-02": "Kazan"},
                   control={"Tver": "south", "Petrograd": "south", "Kazan": "south",
                            "Nizhny Novgorod": "south"})
    state["standing"]["south"] = {"retreat_before_combat": "ask"}
    attack = orders({"move": {"units": ["red-inf-01"], "to": "Tver"}},
                    {"move": {"units": ["red-inf-02"], "to": "Kazan"}},
                    {"attack": {"zone": "Tver"}}, {"attack": {"zone": "Kazan"}})
    attack["secret"] = {"spend": {"Tver": 1, "Kazan": 1}}
    state = fold(state, GAME.resolve(data(), state, {"red": attack}, FixedRng(*[1] * 60), OpenSecrets()))
    assert state["phase"] == example["phase"]
    legal(state, "south", body(example))


def check_landing(example: dict[str, Any]) -> None:
    """A unit and a leader aboard the Reds' fleet after a retreat by sea (8.4)."""
    state = acting({"red-inf-01": "Baltic Sea", "trotsky": "Baltic Sea", "red-fleet-01": "Baltic Sea"},
                   control={"Petrograd": "red", "Tver": "red"})
    state["aboard"] = {"red-inf-01": "red-fleet-01", "trotsky": "red-fleet-01"}
    legal(state, "red", body(example))


def check_adjust(example: dict[str, Any]) -> None:
    after = fold(position({}), example["events"])
    assert after["control"]["Kazan"] == "red"  # the last event wins
    assert (after["units"]["red-inf-04"]["zone"], after["units"]["red-inf-04"]["reduced"]) == ("Kazan", True)
    assert (after["money"]["south"], after["manpower"]["south"]) == (17, 21)


BLOCKS: dict[str, Callable[[dict[str, Any]], None]] = {
    "campaign: rr-2026-01": check_header,
    "faction: [south, north]": check_several,
    "place: {zone: Novorossiysk": check_place,
    "reduce: south-fleet-01": check_reduce,
    "discard: [famine, kolchak-coup]": check_purchase,
    "play_when:": check_play_when,
    "to: Orel": check_moves,
    "mannerheim], to: Vyborg": check_minors,
    "search: {zone: Baltic Sea}": check_fleets,
    "attack: {zone: Ufa": check_battles,
    "phase: decision": check_decision,
    "from: Baltic Sea, to: Tver": check_landing,
    "type: set_control": check_adjust,
}


# one check per one-order example, by its text


def check_placeholder(items: list[dict[str, Any]]) -> None:
    # `ID` stands for a card's id: the rules know the order and its key, not the card
    found = messages(purchasing(), "red", orders(*items))
    assert found and all(m.startswith("no card 'ID'") for m in found), found


def check_red_reduces(items: list[dict[str, Any]]) -> None:
    state = position({"north-inf-02": "Archangel", "siberian-cav-01": "Omsk",
                      "south-inf-04": "Novorossiysk"}, turn=0)
    state.update(phase="setup-reduce-red", actor=None, white_reducer="south")
    legal(state, "red", orders(*items))


def check_coup(items: list[dict[str, Any]]) -> None:
    legal(acting({"red-inf-01": "Tver"}, control={"Tver": "south"}), "red", orders(*items))


def check_lenin(items: list[dict[str, Any]]) -> None:
    state = position({"lenin": "Moscow"}, control={"Moscow": "red"})
    state.update(phase="initiative", actor=None)
    state["standing"] = standing_({"red": {"lenin_initiative": "ask"}})
    legal(state, "red", orders(*items))


def check_lift(items: list[dict[str, Any]]) -> None:
    state = acting({"red-fleet-01": "Baltic Sea"}, control={"Reval": "north", "Riga": "north"})
    state["blockade"] = {"red-fleet-01": "Reval"}
    legal(state, "red", orders(*items))
    # a fleet blockades one port at a time: blockading Riga ends its blockade of Reval
    elsewhere = orders({"blockade": {"port": "Riga"}}, *items)
    assert messages(state, "red", elsewhere) == ["you have no blockade of Reval to lift"]


def check_lands(items: list[dict[str, Any]]) -> None:
    state = acting({"red-inf-01": "Baltic Sea", "red-fleet-01": "Baltic Sea"}, control={"Reval": "red"})
    state["aboard"] = {"red-inf-01": "red-fleet-01"}
    legal(state, "red", orders(*items))


def check_from_a_box(items: list[dict[str, Any]]) -> None:
    state = acting({"allied-inf-03": "Japan box", "graves": "Japan box"}, actor="siberian",
                   control={"Vladivostok": "siberian", "Khabarovsk": "siberian"})
    state["allied_control"] = {"siberian": 2}
    legal(state, "siberian", orders(*items))


ONE_LINERS: dict[str, Callable[[list[dict[str, Any]]], None]] = {
    "- play: {card: ID}": check_placeholder,
    "- reduce: [north-inf-02, siberian-cav-01, south-inf-04]": check_red_reduces,
    "- play: {card: coup-de-main, zone: Tver}": check_coup,
    '- decide: {lenin_initiative: "+2"}': check_lenin,
    "- lift_blockade: {port: Reval}": check_lift,
    "- move: {units: [red-inf-01], from: Baltic Sea, to: Reval}": check_lands,
    "- move: {units: [allied-inf-03, graves], from: Japan box, to: Khabarovsk, via: [Vladivostok]}":
        check_from_a_box,
}


def test_every_block_has_its_check_and_only_one() -> None:
    blocks = yaml_blocks()
    assert len(blocks) == len(BLOCKS)
    for k, block in enumerate(blocks):
        assert [key for key in BLOCKS if key in block] != [], f"block {k + 1} has no check:\n{block}"
        assert len([key for key in BLOCKS if key in block]) == 1, f"block {k + 1}:\n{block}"


@pytest.mark.parametrize("key", list(BLOCKS))
def test_each_block_is_yaml_the_rules_take(key: str) -> None:
    (block,) = [b for b in yaml_blocks() if key in b]
    BLOCKS[key](read(block))


def test_every_one_order_example_has_its_check() -> None:
    assert sorted(one_liners()) == sorted(ONE_LINERS)


@pytest.mark.parametrize("line", list(ONE_LINERS))
def test_each_one_order_example_is_yaml_the_rules_take(line: str) -> None:
    items = read(line)
    assert isinstance(items, list) and len(items) == 1
    ONE_LINERS[line](items)


def test_names_are_matched_forgivingly() -> None:
    """Case and spaces, aliases, a near miss's suggestion, a leader by id or by name."""
    state = acting({"red-inf-01": "Tver", "s-kamenev": "Tver"}, control={"Petrograd": "red"})
    legal(state, "red", orders({"move": {"units": ["RED-INF-01", "S. Kamenev"], "from": "tver",
                                         "to": "Saint  Petersburg"}}))
    legal(state, "red", orders({"move": {"units": ["red-inf-01", "s-kamenev"], "to": "Petrograd"}}))
    assert messages(state, "red", orders({"move": {"units": ["red-inf-01"], "to": "Petrogrd"}})) == [
        "unknown zone 'Petrogrd'; did you mean 'Petrograd'?"]


def test_the_warnings_named_are_given() -> None:
    """A card whose effect cannot happen yet (12.1) and a move to where the units are (7.1)."""
    minor = orders({"play": {"card": "ukrainian-directorate"}})
    early = purchasing(turn=1)
    assert messages(early, "south", minor) == []
    (card,) = order_warnings(GAME, data(), early, "south", minor)
    assert "12.1" in card.message
    state = acting({"red-inf-01": "Tver"})
    idle = orders({"move": {"units": ["red-inf-01"], "to": "Tver"}})
    assert messages(state, "red", idle) == []
    (move,) = order_warnings(GAME, data(), state, "red", idle)
    assert "(7.1)" in move.message


def test_the_set_up_table_names_the_set_up_phases() -> None:
    table = set(re.findall(r"^\| `([a-z-]+)` \|", TEXT, re.M))
    assert table == {p for p in phases_rules.PHASES if p.startswith("setup")} | {"contribute"}


def test_the_files_and_keys_named_are_there() -> None:
    game, board = data()["game"], board_rules.board(data())
    assert game["movement"]["rail_moves"] == {"red": 1, "siberian": 0, "south": 0, "north": 0}  # 7.6
    assert game["options"]["famine"]["requires"] == ["railways"]  # 19.0
    assert game["famine"]["zones"]  # 19.2 famine_relief's default order
    boxes = board.boxes
    assert {"Japan box", "Black Sea box", "Baltic box", "White Sea box"} <= set(boxes)
    assert boxes["Persia box 1"]["disembark"] == ["Erevan"]
    assert boxes["Persia box 2"]["disembark"] == ["Merv"]
    assert (ROOT / "docs" / "fairness.md").is_file()


# ---------------------------------------------------------------------------------------
# the order verbs


def _strings(node: ast.expr, module: Any, assigned: dict[str, list[ast.expr]]) -> set[str]:
    """The strings a verbs argument of order_items(...) holds: literals, names of the
    module (or assigned in it) and attributes of the modules it imports."""
    if isinstance(node, ast.Constant) and isinstance(node.value, str):
        return {node.value}
    if isinstance(node, ast.Tuple | ast.List | ast.Set):
        return set().union(*(_strings(e, module, assigned) for e in node.elts))
    if isinstance(node, ast.Starred):
        return _strings(node.value, module, assigned)
    if isinstance(node, ast.Name) and node.id in assigned:
        return set().union(*(_strings(v, module, assigned) for v in assigned[node.id]))
    if isinstance(node, ast.Name | ast.Attribute):
        value: Any = module
        for part in ast.unparse(node).split("."):
            value = getattr(value, part)
        assert isinstance(value, tuple) and all(isinstance(v, str) for v in value), ast.unparse(node)
        return set(value)
    raise AssertionError(f"order verbs given as {ast.unparse(node)}: teach this test to read them")


def rule_verbs() -> set[str]:
    """Every verb an `order_items(body, VERBS, ...)` call of the rules accepts."""
    verbs: set[str] = set()
    calls = 0
    for path in sorted((FOLDER / "rules").glob("*.py")):
        name = "pbem_game_red_russia" + ("" if path.stem == "__init__" else f".{path.stem}")
        module = importlib.import_module(name)
        tree = ast.parse(path.read_text(encoding="utf-8"))
        assigned: dict[str, list[ast.expr]] = {}
        for node in ast.walk(tree):
            if isinstance(node, ast.Assign):
                for target in node.targets:
                    if isinstance(target, ast.Name):
                        assigned.setdefault(target.id, []).append(node.value)
            elif isinstance(node, ast.AnnAssign) and isinstance(node.target, ast.Name) and node.value:
                assigned.setdefault(node.target.id, []).append(node.value)
        for node in ast.walk(tree):
            if (isinstance(node, ast.Call) and isinstance(node.func, ast.Name)
                    and node.func.id == "order_items" and len(node.args) >= 2):
                verbs |= _strings(node.args[1], module, assigned)
                calls += 1
    assert calls >= 10, "the rules no longer read orders with order_items: update this test"
    return verbs


def documented_verbs() -> set[str]:
    verbs: set[str] = set()
    for block in yaml_blocks():
        example = read(block)
        given = example.get("orders") or []
        lists = given.values() if isinstance(given, dict) else [given]
        verbs |= {next(iter(item)) for items in lists for item in items}
    verbs |= {next(iter(read(line)[0])) for line in one_liners()}
    return verbs


def test_the_verbs_shown_are_the_verbs_the_rules_take() -> None:
    taken = rule_verbs()
    assert {"move", "attack", "siege", "place", "decide"} <= taken  # the reading works
    assert documented_verbs() == taken


# ---------------------------------------------------------------------------------------
# the standing instructions' table


def table() -> dict[str, str]:
    """The `values` cell of each row of the table."""
    section = TEXT[TEXT.index("## Standing instructions"):TEXT.index("## Questions by mail")]
    return dict(re.findall(r"^\| `(\w+)` \| (.*?) \| [^|]* \|$", section, re.M))


def written(cell: str) -> list[Any]:
    """The values a cell gives in backquotes (read as YAML), else its bare numbers."""
    quoted = re.findall(r"`([^`]+)`", cell)
    if quoted:
        return [read(q) for q in quoted]
    return [int(n) for n in re.findall(r"\b\d+\b", cell)]


def default(cell: str) -> str | None:
    """The value a cell marks `(default)`, or names in it: `(default 4)`."""
    found = re.search(r"\(default (\w+)\)", cell) or re.search(r"`?([^`\s,]+)`? \(default[;)]", cell)
    return found.group(1) if found else None


def test_the_table_gives_the_values_the_rules_take() -> None:
    rows = table()
    assert rows and set(rows) == set(standing_rules.STANDING_KEYS)
    for key, spec in standing_rules.STANDING_KEYS.items():
        cell = rows[key]
        if isinstance(spec, dict):  # a choice among values
            asks = {decisions_rules.ASK} if key in decisions_rules.ASKABLE else set()
            shown = {v for v in spec if isinstance(v, str)} or set(spec)
            assert set(written(cell)) == shown | asks, key
        elif spec is bool:
            assert set(written(cell)) == {True, False}, key
        elif spec is int:
            assert f"1 to {battle_rules.MAX_ROUNDS}" in cell, key


def test_the_table_gives_the_defaults_the_rules_apply() -> None:
    for key, cell in table().items():
        offered = standing_rules.OFFER[key][1]  # what applies when it is not set
        if standing_rules.STANDING_KEYS[key] not in (list, dict):  # a value, not a list: its default
            assert offered.split(":")[0] == default(cell), key
    assert default(table()["invasion_rounds"]) == str(battle_rules.INVASION_ROUNDS)


# the examples the table gives of the instructions that are lists
LISTS = {"retreat_to": ["Baltic Sea", "Japan box"], "loss_order": ["inf", "cav", "tank", "air"],
         "battle_cards": ["armoured-trains", "stubborn-defence"],
         "famine_relief": ["[Moscow, Petrograd]", "[]"]}


def test_every_value_the_table_writes_is_taken() -> None:
    state = acting({}, options={"railways": True, "famine": True})
    rows = table()
    for key, spec in standing_rules.STANDING_KEYS.items():
        if spec is list:
            assert all(f"`{x}`" in rows[key] for x in LISTS.get(key, [])), key
            values = [read(x) if x.startswith("[") else [x] for x in LISTS.get(key, [])]
        elif spec is dict:  # play_when: the example above (check_play_when)
            values = []
        else:
            values = written(rows[key])
        for value in [*values, None]:  # `key: null` drops one
            given = {"orders": [], "standing": {key: value}}
            assert problems(state, "red", given) == [], (key, value)
    retreat = {"orders": [], "standing": {"retreat_to": read("[Baltic Sea, Tver]")}}  # 8.4
    assert messages(state, "red", retreat) == []


# ---------------------------------------------------------------------------------------
# the command line


def command_lines() -> list[str]:
    return re.findall(r"`(pbem [^`]+)`", TEXT)


def test_every_command_named_exists_with_its_options(pbem: Cli) -> None:
    lines = command_lines()
    assert len(lines) >= 10
    for line in lines:
        command = line.split()[1]
        help_ = pbem(command, "--help")
        assert help_.code == 0, (line, help_.err)
        for option in [w for w in line.split() if w.startswith("--")]:
            assert re.search(rf"^\s+{re.escape(option)}\b", help_.out, re.M), (line, option)
    # an option named alone: the campaign made without the contribution round
    assert re.findall(r"`(--[a-z-]+)`", TEXT) == ["--no-contributions"]
    assert re.search(r"^\s+--no-contributions\b", pbem("new", "--help").out, re.M)


CY = "south,north=Cy <cy@example.org>"  # one player of South and North (1.0, three players)


@dataclass(frozen=True)
class Stages:
    """Copies of one campaign at three moments (tests copy them again: `fresh`)."""

    setup: Path      # turn 0, the Whites' placement
    purchase: Path   # turn 1, card phase, purchase and politics
    action: Path     # turn 1, the action phase of South or North
    keys: Path       # every faction's keys from --keys-dir, but South's and North's
    cy: Path         # Cy's signing key, for South and North


@pytest.fixture(scope="module")
def stages(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Stages]:
    """Module fixtures run before the autouse HOME fixture: git is isolated here too."""
    from pbem import api
    from pbem.crypto.keys import keygen_files

    base = tmp_path_factory.mktemp("rr-orders-doc")
    with pytest.MonkeyPatch.context() as mp:
        isolate(mp, base)
        (base / "cy.card").write_text(keygen_files(base / "cy"))
        cy, keys, root = base / "cy_ed25519", base / "keys", base / "camp"
        api.new_campaign(root, "red_russia", seed="orders-doc", name="rr-doc", keys_dir=keys,
                         players=[CY], keys=[f"south,north={base / 'cy.card'}"], hot_seat=True,
                         contributions=False)
        sign = {"south": cy, "north": cy}

        def keep(name: str) -> Path:
            shutil.copytree(root, base / name, symlinks=True)
            return base / name

        setup = keep("setup")
        play(root, until_turn=1, phase="purchase", sign=sign)
        purchase = keep("purchase")
        play(root, sign=sign, until=lambda s: s["phase"] == "action"
             and s["awaiting"][0] in ("south", "north"))
        yield Stages(setup, purchase, keep("action"), keys, cy)


def fresh(stage: Path, tmp_path: Path) -> Path:
    """A copy of a stage of the campaign, for one test to change."""
    copy = tmp_path / stage.name
    shutil.copytree(stage, copy, symlinks=True)
    return copy


def clone(root: Path, tmp_path: Path) -> Path:
    """A player's clone of the campaign: its history, none of the referee's secrets."""
    target = tmp_path / "clone"
    subprocess.run(["git", "clone", "-q", str(root), str(target)], check=True)
    return target


def game_state(root: Path) -> dict[str, Any]:
    from pbem.campaign import Campaign

    state: dict[str, Any] = Campaign.settled(root).state()["game"]
    return state


def write(path: Path, text: str) -> Path:
    path.write_text(textwrap.dedent(text), encoding="utf-8")
    return path


def header(pbem: Cli, root: Path) -> dict[str, Any]:
    import json

    s = json.loads(pbem("-C", root, "status", "--json").out)
    return {"campaign": s["campaign"], "turn": s["turn"], "phase": s["phase"], "head": s["head"]}


def test_status_shows_the_header_and_what_is_still_to_place_and_bot_places_it(
        stages: Stages, tmp_path: Path, pbem: Cli) -> None:
    root = fresh(stages.setup, tmp_path)
    shown = pbem("-C", root, "status")
    assert shown.code == 0, shown.err
    top = header(pbem, root)
    # the campaign's id, the turn (set-up is 0) and the log head; the phase's id in --json
    assert f"Campaign {top['campaign']} " in shown.out and f"  head: {top['head']} " in shown.out
    assert "\nTurn 0, " in shown.out and top["phase"] == "setup-place"  # --no-contributions
    todo = re.findall(r"^  (\w+) must still:\n((?:    .*\n)+)", shown.out, re.M)
    assert [f for f, _ in todo] == ["siberian", "south", "north"]
    for faction, lines in todo:
        where: dict[str, list[str]] = {}
        for line in lines.splitlines():
            found = re.fullmatch(r"    place (.+) in one of: (.+) \(3\.0\)", line)
            assert found, line
            for pid in found.group(1).split(", "):
                where[pid] = found.group(2).split(", ")
        made = pbem("-C", root, "bot", faction)
        assert made.code == 0, made.err
        written_ = read(made.out)
        assert {**written_, "orders": None} == {**top, "faction": faction, "orders": None}
        assert "salt" not in written_ and "salt_next" not in written_  # `pbem sign` adds them
        placed = {pid: o["place"]["zone"] for o in written_["orders"] for pid in o["place"]["units"]}
        assert set(placed) == set(where), faction
        assert all(zone in where[pid] for pid, zone in placed.items()), faction
        path = write(tmp_path / f"{faction}.yaml", made.out)
        checked = pbem("-C", root, "check", path)
        assert checked.code == 0 and f"{path}: OK ({faction})" in checked.out, checked.err


def test_one_file_for_south_and_north_signed_once(stages: Stages, tmp_path: Path, pbem: Cli) -> None:
    root = fresh(stages.setup, tmp_path)
    both = tmp_path / "both.yaml"
    assert pbem("-C", root, "bot", "south,north", "--out", both).code == 0
    made = yamlio.read_trusted(both)
    assert made["faction"] == ["south", "north"] and list(made["orders"]) == ["south", "north"]
    assert "salt" not in made
    # every faction named needs its orders: entry
    short = write(tmp_path / "short.yaml", yamlio.dump({**made, "orders": {"south": made["orders"]["south"]}}))
    refused = pbem("-C", root, "check", short)
    assert refused.code == 1 and f"{short}:7: no orders for north" in refused.err, refused.err
    # `pbem sign` adds each faction's dice salts and the time of signing (UTC)
    signed = pbem("-C", root, "sign", both, "--key", stages.cy)
    assert signed.code == 0, signed.err
    done = yamlio.read_trusted(both)
    assert set(done["salt"]) == set(done["salt_next"]) == {"south", "north"}
    offset = datetime.fromisoformat(str(done["signed"]).replace("Z", "+00:00")).utcoffset()
    assert offset is not None and offset.total_seconds() == 0
    checked = pbem("-C", root, "check", both)
    assert checked.code == 0 and "OK (south, north)" in checked.out, checked.err
    # signed orders name the head pbem status showed
    headless = write(tmp_path / "headless.yaml", yamlio.dump({k: v for k, v in made.items() if k != "head"}))
    unsigned = pbem("-C", root, "sign", headless, "--key", stages.cy)
    assert unsigned.code != 0 and "head:" in unsigned.err, unsigned.err


def test_check_reports_every_problem_and_the_warnings_on_a_clone(
        stages: Stages, tmp_path: Path, pbem: Cli) -> None:
    root = fresh(stages.action, tmp_path)
    top = header(pbem, root)
    state = game_state(root)
    actor = state["actor"]
    assert actor in ("south", "north")
    unit = sorted(pid for pid, p in state["units"].items() if p["faction"] == actor
                  and p["status"] == "map" and p["type"] in ("inf", "cav"))[0]
    player = clone(root, tmp_path)
    lines = [f"{k}: {v}" for k, v in {**top, "faction": actor}.items()]
    idle = write(tmp_path / "idle.yaml", "\n".join([
        *lines, "orders:", f"  - move: {{units: [{unit}], to: {state['units'][unit]['zone']}}}", ""]))
    warned = pbem("-C", player, "check", idle)
    assert warned.code == 0, warned.err
    assert re.search(rf"^{re.escape(str(idle))}:7: WARNING: .*\(7\.1\)", warned.out, re.M), warned.out
    bad = write(tmp_path / "bad.yaml", "\n".join([
        *lines, "orders:", "  - mvoe: {units: [nobody], to: Moscow}",
        f"  - move: {{units: [{unit}], to: Nowhere}}", ""]))
    refused = pbem("-C", player, "check", bad)
    assert refused.code == 1
    assert re.search(rf"^{re.escape(str(bad))}:7: .*unknown order 'mvoe'", refused.err, re.M), refused.err
    assert re.search(rf"^{re.escape(str(bad))}:8: .*Nowhere", refused.err, re.M), refused.err
    # in an action phase a file for several factions names only the awaited one
    other = "north" if actor == "south" else "south"
    several = write(tmp_path / "several.yaml", yamlio.dump(
        {**top, "faction": [actor, other], "orders": {actor: [], other: []}}))
    refused = pbem("-C", player, "check", several)
    assert refused.code == 1 and f"{other} is not awaited in phase action" in refused.err, refused.err
    alone = write(tmp_path / "alone.yaml", yamlio.dump(
        {**top, "faction": [actor], "orders": {actor: []}}))
    assert pbem("-C", player, "check", alone).code == 0


def section(report: str) -> str:
    """The hand's section of a Markdown report."""
    start = report.index("## Your hand")
    end = report.find("\n## ", start)
    return report[start:] if end < 0 else report[start:end]


def test_the_hand_is_in_the_report_reveal_opens_it_on_a_clone_and_the_log_shows_discards(
        stages: Stages, tmp_path: Path, pbem: Cli) -> None:
    root = fresh(stages.purchase, tmp_path)
    key = stages.keys / "red.key"
    opened = pbem("-C", clone(root, tmp_path), "reveal", "--key", key)
    assert opened.code == 0, opened.err
    count = re.search(r"^YOUR HAND \((\d+) cards, sealed to you and the referee\)$", opened.out, re.M)
    hand = re.findall(r"^c\d+: .* \[([a-z0-9-]+)\]", opened.out, re.M)
    assert count and int(count.group(1)) == len(hand) > 0, opened.out
    assert set(hand) <= set(cards_rules.deck(data())), opened.out
    # the report's "Your hand": sealed, and opened with the player's key
    sealed = section(pbem("-C", root, "report", "--for", "red", "--format", "md").out)
    assert sealed.startswith(f"## Your hand ({len(hand)} cards)")
    assert not any(f"`{c}`" in sealed for c in hand), sealed
    own = section(pbem("-C", root, "report", "--for", "red", "--format", "md", "--key", key).out)
    assert all(f"`{c}`" in own for c in hand), own
    # discards are face up: the log shows them
    made = read(pbem("-C", root, "bot", "red").out)
    played = {o["play"]["card"] for o in made["orders"] if "play" in o}
    card = next(c for c in hand if not cards_rules.deck(data())[c]["immediate"] and c not in played)
    made["orders"].insert(0, {"discard": [card]})
    path = write(tmp_path / "red.yaml", yamlio.dump(made))
    assert pbem("-C", root, "apply", path).code == 0
    play(root, until=lambda s: s["phase"] != "purchase", sign={"south": stages.cy, "north": stages.cy})
    log = pbem("-C", root, "log", "--events").out
    assert re.search(rf"- red discards [^\n]*\b{card}\b", log), log


def test_the_mailed_template_lists_the_standing_instructions_in_force(
        stages: Stages, tmp_path: Path, pbem: Cli) -> None:
    root = fresh(stages.action, tmp_path)
    actor = game_state(root)["actor"]
    in_force = game_state(root)["standing"][actor]
    assert in_force  # the bot's, set in the purchase phase
    assert pbem("-C", root, "mail", "--outbox", tmp_path / "out").code == 0
    (mail,) = sorted((tmp_path / "out").glob("*.eml"))
    msg = email.message_from_bytes(mail.read_bytes(), policy=email.policy.default)
    assert isinstance(msg, EmailMessage)
    (template,) = [p.get_content() for p in msg.walk() if (p.get_filename() or "").endswith(".yaml")]
    text = template.decode() if isinstance(template, bytes) else template
    offered = text.split("# In force now:", 1)[1]  # after the forms of the phase's orders
    listed = re.findall(r"^#   (\w+)(:| not set)", offered, re.M)
    keys = [k for k in table() if k not in standing_rules.REDS_ONLY]
    assert [k for k, _ in listed] == keys
    for key, value in in_force.items():
        assert re.search(rf"^#   {key}: {re.escape(yamlio.dump(value).strip())}  \[", text, re.M), key
    assert "salt" not in read(text)


def test_referee_adjustments_apply_the_events_named(stages: Stages, tmp_path: Path, pbem: Cli) -> None:
    root = fresh(stages.action, tmp_path)
    (block,) = [b for b in yaml_blocks() if "type: set_control" in b]
    done = pbem("-C", root, "adjust", write(tmp_path / "adjust.yaml", block), "--reason", "ORDERS.md")
    assert done.code == 0, done.err
    state = game_state(root)
    assert state["control"]["Kazan"] == "red"
    assert (state["units"]["red-inf-04"]["zone"], state["units"]["red-inf-04"]["reduced"]) == ("Kazan", True)
    assert (state["money"]["south"], state["manpower"]["south"]) == (17, 21)
    # the Allies' naval_search is the referee's, a `standing` event
    allies = "- {type: standing, faction: allies, standing: {naval_search: always}}\n"
    done = pbem("-C", root, "adjust", write(tmp_path / "allies.yaml", allies), "--reason", "8.92")
    assert done.code == 0, done.err
    assert game_state(root)["standing"]["allies"] == {"naval_search": "always"}


def test_the_examples_folder_holds_the_demos_orders_and_an_adjustment() -> None:
    from pbem.demo import example_orders

    used = example_orders("red_russia")
    files = sorted((FOLDER / "examples").glob("*.yaml"))
    orders_files = [p for p in files if "orders" in yamlio.read_trusted(p)]
    assert sorted(used.values()) == orders_files and len(orders_files) >= 3
    for (_turn, phase, faction), path in used.items():
        assert phase in phases_rules.PHASES and faction in board_rules.MAJORS, path
        assert yamlio.read_trusted(path)["campaign"] == "demo", path
    others = [p for p in files if p not in orders_files]
    overrides = [p for p in others if p.name.startswith("override-")]
    assert all("overrides" in yamlio.read_trusted(p) for p in overrides)  # tests/engine/test_overrides.py
    (adjustment,) = [p for p in others if p not in overrides]
    assert adjustment.name == "adjust-money.yaml"
    fold(position({}), yamlio.read_trusted(adjustment)["events"])
