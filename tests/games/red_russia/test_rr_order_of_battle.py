"""A faction's order of battle in its own report (rules/order_of_battle.py): its units on
the map with their counter values, reduced ones marked, its leaders' levels, what it may
buy and repair and at what cost (5.3, 5.4), what arrives when (5.2); nothing for the
public or the referee."""

from __future__ import annotations

import importlib

from position import GAME, data, position

own = importlib.import_module("pbem_game_red_russia.order_of_battle").own
board = importlib.import_module("pbem_game_red_russia.board").board


def test_the_reds_order_of_battle() -> None:
    state = position({"red-inf-01": "Moscow", "red-cav-02": "Tver", "trotsky": "Tver",
                      "south-inf-01": "Kursk"}, reduced=("red-cav-02",))
    state["units"]["red-inf-09"].update(status="bought", zone=None, arrives=5)
    state["units"]["red-fleet-01"].update(status="eliminated", zone=None)
    state["money"]["red"], state["manpower"]["red"] = 12, 30
    told = own(data(), GAME.view(data(), state, "red"), "red")
    assert told is not None
    assert told["lines"] == ["Money 12, manpower 30."]
    onmap, tobuy, arriving = told["tables"]
    b = board(data())
    inf, cav = b.counters["red-inf-01"]["full"], b.counters["red-cav-02"]["reduced"]
    assert onmap["rows"] == [
        ["red-inf-01", "inf", "Moscow", f"{inf[0]}-{inf[1]}", ""],
        ["red-cav-02", "cav", "Tver", f"{cav[0]}-{cav[1]}", "reduced"],
        ["trotsky", "leader", "Tver", f"level {b.leaders['trotsky']['level']}", ""]]
    pool = {row[0]: row for row in tobuy["rows"]}
    in_pool = sum(1 for u in state["units"].values() if u["faction"] == "red" and u["type"] == "inf"
                  and u["status"] in ("pool", "eliminated"))
    assert pool["inf"] == ["inf", in_pool, "3 money, 5 manpower", "2 turns later",
                           "1 money, 2 manpower"]  # economy.yaml (5.3, 5.4)
    assert "fleet" not in pool  # the Reds' one fleet was sunk: never rebuilt (5.3)
    assert arriving == {"title": "Bought, arriving (5.2)", "columns": ["Unit", "Type", "On turn"],
                        "rows": [["red-inf-09", "inf", 5]]}


def test_nothing_for_the_public_and_the_referee() -> None:
    state = position({"red-inf-01": "Moscow"})
    for who in ("public", "referee"):
        assert own(data(), GAME.view(data(), state, who), who) is None


def test_another_factions_units_are_not_in_it() -> None:
    state = position({"red-inf-01": "Moscow", "south-inf-01": "Kursk"})
    told = own(data(), GAME.view(data(), state, "south"), "south")
    assert told is not None
    assert [row[0] for row in told["tables"][0]["rows"]] == ["south-inf-01"]


def test_3_0_at_set_up_the_pieces_drawn_each_with_where_it_may_go() -> None:
    # the Siberians' set-up (3.0): the pieces they drew, their own and those they place for
    # the Allies and Poland (20.5), each with its values and the zones open to it; no empty
    # table of units on the map
    from pbem.dice import KeyedRng

    setup = importlib.import_module("pbem_game_red_russia.setup")
    state = GAME.setup(data(), {}, KeyedRng(b"\x07" * 32))
    told = own(data(), GAME.view(data(), state, "siberian"), "siberian")
    assert told is not None
    assert told["lines"] == [f"Money {state['money']['siberian']}, manpower {state['manpower']['siberian']}.",
                             "No unit of yours is on the map yet."]
    drawn = told["tables"][0]
    assert drawn["title"] == "Drawn at set-up, to place (3.0, 20.5)"
    assert drawn["columns"] == ["Piece", "Type", "Values", "May go to"]
    b = board(data())
    pieces = setup.to_place(state, "siberian")
    assert [row[0] for row in drawn["rows"]] == pieces and pieces
    for pid, kind, values, where in drawn["rows"]:
        assert kind == state["units"][pid]["type"]
        full = b.counters[pid]["full"] if kind != "leader" else None
        assert values == (f"level {b.leaders[pid]['level']}" if full is None else f"{full[0]}-{full[1]}")
        assert where == ", ".join(sorted(setup.allowed_places(b, state, pid)))
    assert "On the map" not in [t["title"] for t in told["tables"]]
    # the Reds place after the Whites: their pieces drawn are listed already, with their zones
    reds = own(data(), GAME.view(data(), state, "red"), "red")
    assert reds is not None
    assert [row[0] for row in reds["tables"][0]["rows"]] == setup.to_place(state, "red")
