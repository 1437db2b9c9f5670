"""Famine (optional rule 19.2, with 19.0 and 19.1), carried out by pbem when the Famine card
is played. What the rulebook leaves open (the zones struck, the famine result) is
RECONSTRUCTED in game.yaml `famine:` and rules/famine.py; these tests hold the engine to
that and to what 19.2 does say: the Red response, one rail point per food zone, the die."""

from __future__ import annotations

import importlib
from pathlib import Path
from typing import Any

import pytest
from position import GAME, FixedRng, OpenSecrets, data, messages, orders, position

from pbem import api
from pbem.errors import DataError, UsageError
from pbem.game import GameData, load_data

board = importlib.import_module("pbem_game_red_russia.board")
cards = importlib.import_module("pbem_game_red_russia.cards")
economy = importlib.import_module("pbem_game_red_russia.economy")
famine = importlib.import_module("pbem_game_red_russia.famine")
movement = importlib.import_module("pbem_game_red_russia.movement")
play = importlib.import_module("pbem_game_red_russia.play")
fold_rules = importlib.import_module("pbem_game_red_russia.fold")
phases_rules = importlib.import_module("pbem_game_red_russia.phases")

ON = {"railways": True, "famine": True}
# at the start the Reds hold Moscow, Petrograd and Nizhny Novgorod (struck), the food
# zones Saratov, Tambov and Voronezh, and eight rail dots (19.1)
STRUCK = ["Moscow", "Petrograd", "Nizhny Novgorod"]
FOOD = ["Saratov", "Tambov", "Voronezh"]


def only(*zones: str) -> GameData:
    """The game's data with famine.zones overridden, as a campaign's `overrides:` would."""
    return load_data("red_russia", {"game": {"famine": {"zones": list(zones)}}})


def holding(*, options: dict[str, Any] | None = None, relief: list[str] | None = None,
            turn: int = 3) -> dict[str, Any]:
    """Turn `turn` (Winter 1918), the political phase; the Southern Whites hold Famine."""
    state = position({}, turn=turn, options=ON if options is None else options)
    state["phase"] = "purchase"
    state["standing"] = {"red": {"famine_relief": relief}} if relief is not None else {}
    state["cards"]["hands"]["south"] = [OpenSecrets().seal("card", "c1", "south", 1, "famine")]
    return state


def played(state: dict[str, Any], rng: FixedRng, game: GameData | None = None) -> list[dict[str, Any]]:
    plays = [{"holder": "south", "faction": "south", "card": "famine", "target": None, "zone": None}]
    return play.play_segment(game or data(), state, plays, "political", OpenSecrets(), rng)


def fold(state: dict[str, Any], events: list[dict[str, Any]], game: GameData | None = None) -> dict[str, Any]:
    for e in events:
        state = GAME.apply(game or data(), state, e)
    return state


def of(events: list[dict[str, Any]], kind: str) -> list[dict[str, Any]]:
    return [e for e in events if e["type"] == kind]


# ---------------------------------------------------------------------------------------
# 19.0: the option, and the card without it


def test_19_0_the_famine_option_requires_railways(tmp_path: Path, pbem: Any) -> None:
    famine_spec = next(o for o in GAME.describe(data())["options"] if o["id"] == "famine")
    assert famine_spec["default"] is False and famine_spec["requires"] == ["railways"]
    listed = {o["id"]: o for g in api.list_games() if g["id"] == "red_russia" for o in g["options"]}
    assert listed["famine"]["default"] is False and "19.2" in listed["famine"]["help"]
    r = pbem("new", tmp_path / "alone", "--game", "red_russia", "--no-contributions", "--hot-seat", "--option", "famine=true")
    assert r.code == 2
    assert ("Error: --option famine: requires --option railways=true (optional rule 19.2: the "
            "Famine card strikes Red cities; the Reds may give up rail points to avert it)") in r.err
    assert not (tmp_path / "alone").exists()
    with pytest.raises(UsageError, match="requires --option railways=true"):
        api.new_campaign(tmp_path / "off", "red_russia", contributions=False, hot_seat=True, options=["railways=false", "famine=true"])
    api.new_campaign(tmp_path / "both", "red_russia", contributions=False, hot_seat=True, seed="f", options=["railways=true", "famine=true"])


def test_19_0_an_option_may_only_require_another_option() -> None:
    bad = load_data("red_russia")
    bad_game = {**bad["game"], "options": {**bad["game"]["options"],
                                           "famine": {**bad["game"]["options"]["famine"],
                                                      "requires": ["railway"]}}}
    broken = GameData(bad.game_id, bad.folder, {**bad.files, "game": bad_game})
    assert ("game.yaml: options.famine.requires: 'railway' is not another option"
            in GAME.check_data(broken))


def test_19_2_without_the_option_the_card_stays_in_the_deck_as_dead_weight() -> None:
    """14.0: a card whose condition of use is not met has no effect and may only be
    discarded; 3.0 takes only the Czech Legion card out of the deck."""
    state = holding(options={})
    for options, removed, size in (({}, [cards.CZECH_FORMED], 53), ({"czech_legion": True}, [], 54)):
        events = cards.deal(data(), holding(options=options), OpenSecrets())
        assert [c for e in of(events, "cards_removed") for c in e["cards"]] == removed
        shuffled = of(events, "cards_shuffled")[0]
        assert shuffled["size"] == size and "famine" in shuffled["pile"]["value"]
    assert cards.dead_weight(data(), state, "south", "famine")
    assert not cards.dead_weight(data(), holding(), "south", "famine")
    found = messages(state, "south", orders({"play": {"card": "famine"}}))
    assert "famine is played only with the optional rule 19.2 (campaign option famine)" in found
    assert messages(holding(), "south", orders({"play": {"card": "famine"}})) == []
    # pbem never plays it for a player with `play_cards: auto`
    state["standing"] = {"south": {"play_cards": "auto"}}
    assert play.play_segment(data(), state, [], "political", OpenSecrets(), FixedRng()) == []
    # and a play recorded anyway (an old log, a referee's adjustment) does nothing
    effect = play.effect_events(data(), state, {"card": "famine", "faction": "south"}, {"do": "famine"},
                                FixedRng(), "card:famine:t3:e0")
    assert [e["type"] for e in effect] == ["note"] and "19.0" in effect[0]["text"]


# ---------------------------------------------------------------------------------------
# 19.2: the Red response


@pytest.mark.parametrize(("roll", "result"), [(1, "averted"), (2, "averted"), (3, "applies"),
                                              (4, "applies"), (5, "applies")])
def test_19_2_the_red_response_roll_1_2_averts_3_5_applies(roll: int, result: str) -> None:
    game = only("Moscow")
    state = holding()
    rng = FixedRng(roll)
    events = played(state, rng, game)
    assert rng.labels == ["famine:t3:moscow"]
    relief = of(events, "famine_relief")
    assert relief == [{"type": "famine_relief", "faction": "red", "zone": "Moscow", "food": "Saratov",
                       "roll": roll, "result": result}]
    starving = [e["zone"] for e in of(events, "famine")]
    assert starving == ([] if result == "averted" else ["Moscow"])
    after = fold(state, events, game)
    assert sorted(famine.starving(after)) == starving


def test_19_2_a_6_spreads_the_famine_to_an_adjacent_red_zone_beyond_saving() -> None:
    game = only("Moscow", "Tver")
    state = holding(relief=["Moscow", "Ryazan", "Tver"])
    state["control"]["Nizhny Novgorod"] = "siberian"  # not Red: the famine cannot go there
    rng = FixedRng(6, 4)
    events = played(state, rng, game)
    # to one of Moscow's Red neighbours not struck already, drawn with the dice (here the
    # first); Ryazan, where it spread, cannot be saved; Tver, struck, has the next attempt
    assert rng.labels == ["famine:t3:moscow", "famine:t3:tver"]
    assert [(e["zone"], e["food"], e["result"]) for e in of(events, "famine_relief")] == [
        ("Moscow", "Saratov", "spreads"), ("Tver", "Tambov", "applies")]
    assert [(e["zone"], e["from"]) for e in of(events, "famine")] == [
        ("Ryazan", "Moscow"), ("Moscow", None), ("Tver", None)]
    after = fold(state, events, game)
    assert sorted(famine.starving(after)) == ["Moscow", "Ryazan", "Tver"]
    assert famine.starving(after)["Ryazan"]["from"] == "Moscow"


def test_19_2_the_spread_is_drawn_among_the_red_neighbours_with_the_dice() -> None:
    game = only("Moscow")
    state = holding()
    b = board.board(game)
    near = sorted(n for n in b.routes["Moscow"] if state["control"].get(n) == "red")

    class Draw(FixedRng):
        def choice(self, label: str, items: Any) -> Any:
            self.labels.append(label)
            assert list(items) == near
            return items[-1]

    rng = Draw(6)
    events = played(state, rng, game)
    assert rng.labels == ["famine:t3:moscow", "famine:t3:moscow:spread"]
    assert of(events, "famine")[0] == {"type": "famine", "zone": near[-1], "from": "Moscow",
                                       "why": "famine (14.6)"}


def test_19_2_a_6_with_no_red_neighbour_left_spreads_nowhere() -> None:
    game = only("Moscow")
    state = holding()
    for zone in board.board(game).routes["Moscow"]:
        state["control"][zone] = "south"
    events = played(state, FixedRng(6), game)
    assert any(e["type"] == "note" and "no other Red zone next to Moscow" in e["text"] for e in events)
    assert [e["zone"] for e in of(events, "famine")] == ["Moscow"]


def test_19_2_relief_is_limited_by_the_red_food_zones() -> None:
    state = holding()
    for zone in FOOD[1:]:
        state["control"][zone] = "south"  # the Reds keep Saratov only
    rng = FixedRng(1)
    events = played(state, rng)
    assert [(e["zone"], e["food"]) for e in of(events, "famine_relief")] == [("Moscow", "Saratov")]
    assert [e["zone"] for e in of(events, "famine")] == ["Petrograd", "Nizhny Novgorod"]


def test_19_2_relief_is_limited_by_the_rail_points_left() -> None:
    state = holding()
    b = board.board(data())
    state["rail_used"]["red"] = movement.rail_capacity(b, state, "red") - 2
    events = played(state, FixedRng(1, 1))
    assert [e["zone"] for e in of(events, "famine_relief")] == ["Moscow", "Petrograd"]
    assert [e["zone"] for e in of(events, "famine")] == ["Nizhny Novgorod"]
    assert famine.rail_left(b, fold(state, events)) == 0


def test_19_2_the_rail_points_given_up_reduce_this_turn_s_capacity_only() -> None:
    state = holding()
    b = board.board(data())
    before = movement.rail_capacity(b, state, "red")
    after = fold(state, played(state, FixedRng(3, 3, 3)))
    assert movement.rail_capacity(b, after, "red") == before - 3
    assert movement.rail_capacity(b, after, "siberian") == movement.rail_capacity(b, state, "siberian")
    next_turn = GAME.apply(data(), after, {"type": "phase", "turn": 4, "phase": "purchase"})
    assert movement.rail_capacity(b, next_turn, "red") == before


def test_19_2_each_food_zone_once_and_each_zone_one_attempt_per_turn() -> None:
    state = holding()
    first = played(state, FixedRng(1, 4, 4))  # Moscow saved; Petrograd and Nizhny starve
    after = fold(state, first)
    assert famine._used(after) == {"turn": 3, "food": FOOD, "zones": STRUCK}
    # the same turn again (a referee's adjustment): Moscow is struck, but no attempt is left
    after["cards"]["hands"]["south"] = [OpenSecrets().seal("card", "c2", "south", 1, "famine")]
    rng = FixedRng()
    again = played(after, rng)
    assert rng.labels == [] and not of(again, "famine_relief")
    assert [e["zone"] for e in of(again, "famine")] == ["Moscow"]
    # the log cannot count a food zone or a zone twice either
    with pytest.raises(ValueError, match="Saratov was counted already this turn"):
        GAME.apply(data(), after, {"type": "famine_relief", "faction": "red", "zone": "Kazan",
                                   "food": "Saratov", "roll": 1, "result": "averted"})
    with pytest.raises(ValueError, match="tried to save Moscow already"):
        after["control"]["Samara"] = "red"
        GAME.apply(data(), after, {"type": "famine_relief", "faction": "red", "zone": "Moscow",
                                   "food": "Samara", "roll": 1, "result": "averted"})
    with pytest.raises(ValueError, match="Moscow is no food-producing zone"):
        GAME.apply(data(), after, {"type": "famine_relief", "faction": "red", "zone": "Kazan",
                                   "food": "Moscow", "roll": 1, "result": "averted"})
    # a new turn: everything may be counted again
    later = GAME.apply(data(), after, {"type": "phase", "turn": 4, "phase": "purchase"})
    assert famine.food_left(board.board(data()), later) == sorted(["Samara", *FOOD])


# ---------------------------------------------------------------------------------------
# the standing instruction famine_relief


def test_19_2_without_famine_relief_the_reds_try_every_struck_zone_in_the_listed_order() -> None:
    rng = FixedRng(3, 3, 3)
    events = played(holding(), rng)
    assert [(e["zone"], e["food"]) for e in of(events, "famine_relief")] == list(zip(STRUCK, FOOD, strict=True))
    assert rng.labels == ["famine:t3:moscow", "famine:t3:petrograd", "famine:t3:nizhny-novgorod"]


@pytest.mark.parametrize(("relief", "tried"), [
    ([], []),
    (["Petrograd"], ["Petrograd"]),
    (["Nizhny Novgorod", "Moscow", "Kazan", "Moscow"], ["Nizhny Novgorod", "Moscow"]),
])
def test_19_2_famine_relief_names_the_zones_to_save_in_order(relief: list[str], tried: list[str]) -> None:
    events = played(holding(relief=relief), FixedRng(*[2] * len(tried)))
    assert [e["zone"] for e in of(events, "famine_relief")] == tried
    assert [e["zone"] for e in of(events, "famine")] == [z for z in STRUCK if z not in tried]


def test_19_2_famine_relief_is_checked_with_the_orders() -> None:
    state = holding()
    assert messages(state, "red", orders(standing={"famine_relief": ["Moscow", "Petrograd"]})) == []
    assert any("no zone 'Moscw'" in m for m in
               messages(state, "red", orders(standing={"famine_relief": ["Moscw"]})))
    assert "famine_relief is a list of names" in messages(state, "red", orders(standing={"famine_relief": "all"}))


def test_19_2_the_bot_sets_famine_relief_only_with_the_option() -> None:
    assert phases_rules._bot_standing("red", holding())["famine_relief"] == ["Moscow", "Petrograd"]
    assert "famine_relief" not in phases_rules._bot_standing("red", holding(options={"railways": True}))
    assert "famine_relief" not in phases_rules._bot_standing("south", holding())


# ---------------------------------------------------------------------------------------
# the famine result (RECONSTRUCTED): no money, no manpower at the next collection


def test_19_2_a_starving_zone_yields_nothing_at_the_collection_then_the_famine_ends() -> None:
    b = board.board(data())
    state = holding(relief=[])
    after = fold(state, played(state, FixedRng()))
    assert economy.zone_yield(b, after, "red", "Moscow") == (0, 0, "famine (19.2)")
    assert economy.zone_yield(b, state, "red", "Moscow")[2] is None
    full = next(e for e in economy.collection(data(), state) if e["faction"] == "red")
    starved = next(e for e in economy.collection(data(), after) if e["faction"] == "red")
    lost = [economy.zone_yield(b, state, "red", z) for z in STRUCK]
    assert starved["money"] == full["money"] - sum(m for m, _p, _w in lost)
    assert starved["manpower"] == full["manpower"] - sum(p for _m, p, _w in lost)
    assert set(STRUCK) <= set(starved["outnumbered"])
    # the winter turn's 4.9: the famine is over once the money and manpower are collected
    after.update(phase="winter")
    found = GAME.resolve(data(), after, {}, FixedRng(*[1] * 50), OpenSecrets())
    kinds = [e["type"] for e in found]
    assert kinds.index("famine_over") > max(i for i, k in enumerate(kinds) if k == "collected")
    assert of(found, "famine_over") == [{"type": "famine_over", "zones": sorted(STRUCK)}]
    assert "famine" not in fold(after, found)


def test_19_2_a_starving_zone_is_not_struck_again() -> None:
    state = holding(relief=[])
    after = fold(state, played(state, FixedRng()))
    assert famine.struck(board.board(data()), after) == []
    after["cards"]["hands"]["south"] = [OpenSecrets().seal("card", "c2", "south", 1, "famine")]
    events = played(after, FixedRng())
    assert [e["type"] for e in events] == ["card_played", "note"]
    assert "no Red city without food" in events[1]["text"]


def test_19_2_the_zones_struck_are_data_a_campaign_may_override() -> None:
    assert famine.listed(board.board(data()))[:2] == ["Moscow", "Petrograd"]
    assert famine.listed(board.board(only("Kazan"))) == ["Kazan"]
    with pytest.raises(DataError) as err:
        only("Moscow", "Saratov", "Atlantis", "Moscow")
    assert ("game.yaml: famine.zones: Saratov is a food centre; the famine strikes the zones "
            "food must be brought to (19.2)") in err.value.details
    assert any(p.startswith("game.yaml: famine.zones: unknown zone 'Atlantis'") for p in err.value.details)
    assert "game.yaml: famine.zones: a zone is listed twice" in err.value.details


def test_19_2_the_log_tells_the_famine() -> None:
    events = played(holding(), FixedRng(2, 4, 6))
    told = [fold_rules.describe_event(data(), e) for e in events[1:]]
    assert told[0] == ("the Reds give up a rail point to save Moscow with the grain of Saratov: "
                       "rolled 2, averted (19.2)")
    assert told[1].endswith("rolled 4, the famine applies (19.2)")
    assert told[2].endswith("rolled 6, the famine spreads (19.2)")
    assert told[3].startswith("famine spreads from Nizhny Novgorod to ")
    assert "where it cannot be averted" in told[3]
    assert ("famine strikes Petrograd: it yields no money and no manpower at the next collection "
            "(4.9, 19.2)") in told
    assert fold_rules.describe_event(data(), {"type": "famine_over", "zones": ["Moscow"]}) == \
        "the famine is over in Moscow: they yield again (19.2)"


@pytest.mark.parametrize("fmt", ["txt", "md", "html"])
def test_19_2_the_position_report_names_the_starving_zones(fmt: str) -> None:
    from pbem.game import games_dir
    from pbem.reports.context import _style
    from pbem.reports.render import environment

    folder = games_dir() / "red_russia"
    state = holding(relief=[])
    after = fold(state, played(state, FixedRng()))
    view = GAME.view(data(), after, "red")
    position_ = GAME.report(data(), view, None, "red", _style(folder), [])["position"]
    text = environment(folder, fmt).get_template(f"position.{fmt}.j2").render(position=position_)
    assert ("Famine (19.2), no money or manpower at the next collection: "
            "Moscow, Petrograd, Nizhny Novgorod") in text
