"""Chechen War set-up (4.0-4.4) as rule tables (games/chechen_war/rules/setup.py): the
Russian's placement clause by clause, variable and historical, stacking at its limit and one
past it; the Chechen's face-down tokens, their secret part, and the identities drawn for
them: regulars to the tokens the secret part names, militia to the rest, each sealed to the
Chechen. In-process, without git; the secrets are a stand-in that records what is sealed."""

from __future__ import annotations

import importlib
from collections import Counter
from collections.abc import Sequence
from typing import Any, TypeVar

import pytest
from fixed_rng import FixedRng

from pbem.dice import KeyedRng
from pbem.game import GameData, State, get_game, load_data

T = TypeVar("T")
GAME = get_game("chechen_war")
setup = importlib.import_module("pbem_game_chechen_war.setup")
board = importlib.import_module("pbem_game_chechen_war.board")


def data() -> GameData:
    return load_data("chechen_war")


def state(**options: Any) -> State:
    return GAME.setup(data(), options, KeyedRng(b"\x05" * 32))


class Sealer:
    """Secrets for a rule table: shuffles reverse the cup (so the draw is not the sorted
    order), compute calls the function, seal keeps the value in the node."""

    def __init__(self) -> None:
        self.sealed: list[tuple[str, str, str]] = []

    def shuffle(self, label: str, items: Sequence[T], owner: str | None = None) -> list[T]:
        assert owner == "chechen"  # the Chechen's draws, with his own key
        return list(reversed(list(items)))

    def compute(self, fn: Any, *args: Any) -> Any:
        return fn(*args)

    def seal(self, kind: str, id_: str, owner: str, turn: int, value: Any) -> dict[str, Any]:
        self.sealed.append((kind, id_, owner))
        return {"kind": kind, "id": id_, "owner": owner, "value": value}

    def open(self, node: dict[str, Any]) -> Any:
        raise AssertionError("the set-up opens nothing")


def russian(*places: tuple[str, list[str]]) -> dict[str, Any]:
    return {"orders": [{"place": {"hex": h, "units": us}} for h, us in places]}


def legal_russian(s: State) -> dict[str, Any]:
    return GAME.bot(data(), s, "russian", FixedRng())


def messages(s: State, faction: str, orders: dict[str, Any]) -> list[str]:
    return [p.message for p in GAME.validate(data(), s, faction, orders)]


def without(orders: dict[str, Any], unit: str) -> dict[str, Any]:
    items = [{"place": {"hex": i["place"]["hex"], "units": [u for u in i["place"]["units"] if u != unit]}}
             for i in orders["orders"]]
    return {"orders": [i for i in items if i["place"]["units"]]}


# ---------------------------------------------------------------------------------------
# the Russian set-up


@pytest.mark.parametrize("mode", ["variable", "historical"])
def test_the_bots_russian_set_up_is_legal_and_places_every_at_start_unit(mode: str) -> None:
    s = state(setup=mode)
    orders = legal_russian(s)
    assert messages(s, "russian", orders) == []
    placed = [u for i in orders["orders"] for u in i["place"]["units"]]
    assert sorted(placed) == sorted(board.at_start(data())) and len(placed) == 24


@pytest.mark.parametrize(("hex_id", "legal"), [
    ("0731", True),    # Mozdok itself
    ("0732", True),    # adjacent to Mozdok
    ("0733", False),   # two hexes from Mozdok
    ("0618", False),   # adjacent to Pervomaiskoye, but in Chechnya
    ("0617", True),
])
def test_4_2_1_regulars_set_up_on_or_adjacent_to_the_three_towns_outside_chechnya(
        hex_id: str, legal: bool) -> None:
    s = state()
    orders = without(legal_russian(s), "ru_131_mech_bde")
    orders["orders"].append({"place": {"hex": hex_id, "units": ["ru_131_mech_bde"]}})
    found = [m for m in messages(s, "russian", orders) if "ru_131_mech_bde" in m]
    assert (found == []) is legal
    if not legal:
        assert found == [f"ru_131_mech_bde may not set up in {board.board(data()).label(hex_id)}: "
                         "4.2.1: regular army units set up on or adjacent to 1632 (Vladikavkaz), "
                         "0731 (Mozdok), 0617 (Pervomaiskoye), not in Chechnya"]


@pytest.mark.parametrize(("hex_id", "legal"), [("0430", True), ("1324", False), ("2430", False)])
def test_4_2_1_mvd_sets_up_anywhere_outside_chechnya_and_georgia(hex_id: str, legal: bool) -> None:
    b = board.board(data())
    assert (b.region[hex_id] in ("chechnya", "georgia")) is not legal
    s = state()
    orders = without(legal_russian(s), "ru_mvd_regt_1")
    orders["orders"].append({"place": {"hex": hex_id, "units": ["ru_mvd_regt_1"]}})
    found = [m for m in messages(s, "russian", orders) if "ru_mvd_regt_1" in m]
    assert found == ([] if legal else [f"ru_mvd_regt_1 may not set up in {b.label(hex_id)}: 4.2.1: "
                                       "MVD units set up anywhere outside Chechnya and Georgia"])


@pytest.mark.parametrize(("unit", "hex_id", "legal"), [
    ("ru_131_mech_bde", "0731", True),    # North: on Mozdok
    ("ru_131_mech_bde", "1632", False),   # not with the West group
    ("ru_255_mr_regt", "0618", False),    # North-East: adjacent to 0617 but in Chechnya
    ("ru_255_mr_regt", "0616", True),
    ("ru_129_mr_regt", "1419", False),    # East: adjacent to 1418 but in Chechnya
    ("ru_129_mr_regt", "1418", True),
    ("ru_245_mr_regt", "0430", True),     # General Reserve: anywhere in Russia outside Chechnya
    ("ru_245_mr_regt", "2430", False),    # ... and Georgia is not Russia
])
def test_4_3_1_each_historical_group_sets_up_where_its_group_does(unit: str, hex_id: str,
                                                                   legal: bool) -> None:
    s = state(setup="historical")
    orders = without(legal_russian(s), unit)
    orders["orders"].append({"place": {"hex": hex_id, "units": [unit]}})
    found = [m for m in messages(s, "russian", orders) if unit in m]
    assert (found == []) is legal, found
    if not legal:
        assert "4.3.1: the " in found[0]


def test_stacking_at_the_limit_and_one_past_it() -> None:
    s = state()
    b = board.board(data())
    limit = board.stacking(data(), b, "0731")  # Mozdok, a town
    regulars = [u for u in board.at_start(data())
                if board.units(data())[u]["nationality"] == "regular_army"]
    rest = regulars[limit + 1:]
    spread = ["0730", "0732", "0831", "0832", "0631", "0632", "1632", "1631", "1633", "0617", "0616"]
    places = [("0731", regulars[:limit]), *((spread[k % len(spread)], [u]) for k, u in enumerate(rest))]
    mvd = [u for u in board.at_start(data()) if u not in regulars]
    base = russian(*places, ("0430", mvd[:3]), ("0431", mvd[3:6]), ("0432", mvd[6:]),
                   ("0730", [regulars[limit]]))
    assert [m for m in messages(s, "russian", base) if "holds" in m] == []
    over = russian(("0731", regulars[:limit + 1]), *((spread[k % len(spread)], [u]) for k, u in enumerate(rest)),
                   ("0430", mvd[:3]), ("0431", mvd[3:6]), ("0432", mvd[6:]))
    assert f"0731 (Mozdok) holds {limit + 1} units; its terrain (town) stacks {limit} (7.0)" in messages(
        s, "russian", over)


def test_a_unit_placed_twice_unknown_or_missing_is_named() -> None:
    s = state()
    orders = legal_russian(s)
    first = orders["orders"][0]["place"]
    orders["orders"].append({"place": {"hex": first["hex"], "units": [first["units"][0]]}})
    assert any(m.startswith(f"{first['units'][0]} is placed twice") for m in messages(s, "russian", orders))
    assert messages(s, "russian", russian(("0731", ["ru_131_mech"])))[0] == (
        "'ru_131_mech' is not a Russian at-start unit; did you mean 'ru_131_mech_bde'?")
    missing = messages(s, "russian", without(legal_russian(s), "ru_74_mech_bde"))
    assert missing == ["every at-start unit is set up (4.1); not placed: ru_74_mech_bde"]
    assert messages(s, "russian", russian(("731", ["ru_74_mech_bde"])))[0].startswith(
        "hex id '731' is not 4 digits")
    assert messages(s, "russian", {"orders": [{"place": ["0731"]}]})[0] == (
        'expected {place: {hex: "CCRR", units: [UNIT, ...]}}')


def test_the_russian_set_up_resolves_to_the_units_on_the_map_then_the_chechens_turn() -> None:
    s = state()
    orders = legal_russian(s)
    events = GAME.resolve(data(), s, {"russian": orders}, FixedRng())
    assert [e["type"] for e in events] == ["russians_placed", "phase"]
    after = s
    for e in events:
        after = GAME.apply(data(), after, e)
    assert len(after["russians"]) == 24 and after["phase"] == "setup-chechen"
    assert GAME.phase(data(), after).awaiting == ("chechen",)


# ---------------------------------------------------------------------------------------
# the Chechen set-up: face-down tokens and their identities


def chechen_state(mode: str = "variable") -> State:
    s = state(setup=mode)
    for e in GAME.resolve(data(), s, {"russian": legal_russian(s)}, FixedRng()):
        s = GAME.apply(data(), s, e)
    return s


def tokens(places: dict[str, int], regulars: list[str] | None) -> dict[str, Any]:
    body: dict[str, Any] = {"orders": [{"place": {"hex": h, "tokens": n}} for h, n in places.items()]}
    if regulars is not None:
        body["secret"] = {"regulars": regulars}
    return body


# 24 tokens: 8 regulars in Groznyi (city, 5) and Gudermes (city, 5), 16 militia elsewhere
PLACES = {"1324": 5, "1321": 5, "1323": 4, "1523": 4, "1525": 4, "1327": 2}
REGULARS = ["1324"] * 4 + ["1321"] * 4


def test_the_bots_chechen_set_up_is_legal_in_both_set_ups() -> None:
    for mode in ("variable", "historical"):
        s = chechen_state(mode)
        orders = GAME.bot(data(), s, "chechen", KeyedRng(b"\x09" * 32))
        assert messages(s, "chechen", orders) == [], mode
        assert sum(i["place"]["tokens"] for i in orders["orders"]) == 24


def test_a_legal_placement_of_tokens_with_its_secret_part() -> None:
    assert messages(chechen_state(), "chechen", tokens(PLACES, REGULARS)) == []


@pytest.mark.parametrize(("change", "message"), [
    ({"1327": 3}, "25 tokens placed; the Chechen places 8 regulars and 16 militia face down (4.2.2): 24"),
    ({"1327": 1, "0731": 1}, "0731 (Mozdok) is not in Chechnya: the Chechen sets up within Chechnya (4.2.2)"),
    ({"1324": 6, "1327": 1}, "1324 (Groznyi) holds 6 units; its terrain (city) stacks 5 (7.0)"),
])
def test_tokens_are_24_inside_chechnya_within_the_stacking_limits(change: dict[str, int],
                                                                  message: str) -> None:
    assert message in messages(chechen_state(), "chechen", tokens({**PLACES, **change}, REGULARS))


@pytest.mark.parametrize(("regulars", "message"), [
    (None, "secret: regulars: the hexes of your 8 regular tokens, one entry a token (the rest are militia)"),
    (REGULARS[:7], "secret: regulars: the hexes of your 8 regular tokens, one entry a token (the rest are militia)"),
    (["1327"] * 3 + REGULARS[3:], "3 regulars in 1327, where 2 tokens are placed"),
    (["1324"] * 6 + ["1321"] * 2, "6 regulars in 1324, where 5 tokens are placed"),
])
def test_the_secret_part_names_the_hexes_of_eight_regular_tokens(regulars: list[str] | None,
                                                                 message: str) -> None:
    assert message in messages(chechen_state(), "chechen", tokens(PLACES, regulars))


def test_4_3_2_historical_regulars_stand_in_towns_and_cities() -> None:
    places = {"1324": 5, "1321": 5, "1323": 4, "1523": 4, "1327": 2, "1426": 3, "1226": 1}
    assert sum(places.values()) == 24  # 1426 is clear, 1226 a town (14.2)
    regulars = ["1426"] + REGULARS[1:]
    found = messages(chechen_state("historical"), "chechen", tokens(places, regulars))
    assert found == ["1426 is not a town or city: the regulars set up in a city or town hex "
                     "within Chechnya (4.3.2)"]
    assert messages(chechen_state("variable"), "chechen", tokens(places, regulars)) == []


def test_identities_go_regulars_to_the_named_tokens_and_militia_to_the_rest() -> None:
    s = chechen_state()
    sealer = Sealer()
    events = GAME.resolve(data(), s, {"chechen": tokens(PLACES, REGULARS)}, FixedRng(), sealer)  # type: ignore[arg-type]
    assert [e["type"] for e in events] == ["tokens_placed", "identities_sealed", "phase"]
    placed, sealed = events[0]["tokens"], events[1]["tokens"]
    assert list(placed) == [f"t{k:02d}" for k in range(1, 25)]
    assert Counter(placed.values()) == Counter(PLACES)
    units = board.units(data())
    kinds = {t: units[n["value"]]["nationality"] for t, n in sealed.items()}
    # the hidden order of the tokens (the stand-in reverses them) says which of each hex's
    # tokens are regulars: the last four placed in each of 1324 (t01-t05) and 1321 (t06-t10)
    assert sorted(t for t, k in kinds.items() if k == "chechen_regular") == \
        [f"t{k:02d}" for k in (2, 3, 4, 5, 7, 8, 9, 10)]
    assert len({n["value"] for n in sealed.values()}) == 24  # no unit twice
    # the cups as drawn (the stand-in reverses them): the last regulars first, in id order
    regulars = setup.chechen(data(), setup.REGULAR)
    assert sealed["t02"]["value"] == regulars[-1] and sealed["t03"]["value"] == regulars[-2]
    militia = setup.chechen(data(), setup.MILITIA)
    assert sealed["t01"]["value"] == militia[-1] and sealed["t06"]["value"] == militia[-2]
    assert all(owner == "chechen" and kind == "unit" for kind, _, owner in sealer.sealed)
    assert events[1]["cup"] == 8
    after = s
    for e in events:
        after = GAME.apply(data(), after, e)
    assert after["phase"] == "russian-movement" and after["turn"] == 1 and after["cup"] == 8
    assert all("unit" in t for t in after["tokens"].values())


def test_the_russians_view_shows_counts_of_face_down_units_and_no_identity() -> None:
    s = chechen_state()
    for e in GAME.resolve(data(), s, {"chechen": tokens(PLACES, REGULARS)}, FixedRng(), Sealer()):  # type: ignore[arg-type]
        s = GAME.apply(data(), s, e)
    view = GAME.view(data(), s, "russian")
    assert view["Chechen units (face down)"]["1324 (Groznyi)"] == 5
    text = repr(view)
    for unit in board.units(data()):
        if unit.startswith("ch_"):
            assert unit not in text and board.units(data())[unit]["name"] not in text


def test_after_the_set_up_the_russian_moves_first() -> None:
    s = chechen_state()
    for e in GAME.resolve(data(), s, {"chechen": tokens(PLACES, REGULARS)}, FixedRng(), Sealer()):  # type: ignore[arg-type]
        s = GAME.apply(data(), s, e)
    assert GAME.phase(data(), s).awaiting == ("russian",)
    assert messages(s, "russian", {"orders": []}) == []  # moving nothing is legal


# ---------------------------------------------------------------------------------------
# where each problem points in the file, and malformed entries


def paths(s: State, faction: str, orders: dict[str, Any]) -> list[tuple[Any, ...]]:
    return [p.path for p in GAME.validate(data(), s, faction, orders)]


def test_each_chechen_problem_points_at_its_place_in_the_file() -> None:
    s = chechen_state()
    assert paths(s, "chechen", tokens({**PLACES, "1327": 3}, REGULARS)) == [("orders",)]
    assert paths(s, "chechen", tokens(PLACES, None)) == [("secret",)]
    assert paths(s, "chechen", tokens(PLACES, ["1327"] * 3 + REGULARS[3:])) == [("secret", "regulars")]
    assert paths(s, "chechen", tokens(PLACES, ["999"] + REGULARS[1:])) == [("secret", "regulars", 0)]
    historical = chechen_state("historical")
    places = {"1324": 5, "1321": 5, "1323": 4, "1523": 4, "1327": 2, "1426": 3, "1226": 1}
    assert paths(historical, "chechen", tokens(places, REGULARS[:7] + ["1426"])) == [
        ("secret", "regulars", 7)]


@pytest.mark.parametrize("count", [0, -1, True, "2", None])
def test_a_token_count_is_a_whole_number_of_at_least_one(count: Any) -> None:
    s = chechen_state()
    orders = tokens(PLACES, REGULARS)
    orders["orders"].append({"place": {"hex": "1422", "tokens": count}})
    found = GAME.validate(data(), s, "chechen", orders)
    assert found[0].path == ("orders", len(PLACES))
    assert found[0].message == ('expected {place: {hex: "CCRR", tokens: COUNT}}, a count of '
                                "face-down units of at least 1")


def test_regulars_named_in_a_hex_without_tokens_are_refused() -> None:
    s = chechen_state()
    assert "1 regulars in 1422, where 0 tokens are placed" in messages(
        s, "chechen", tokens(PLACES, REGULARS[:7] + ["1422"]))


def test_a_sealed_secret_part_is_checked_when_it_is_opened_not_in_the_public_audit() -> None:
    s = chechen_state()
    sealed = {"kind": "orders-secret", "sealed": "...", "commitment": "..."}
    assert messages(s, "chechen", {**tokens(PLACES, None), "secret": sealed}) == []
