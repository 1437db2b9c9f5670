"""What an awaited faction's file must still cover (RedRussia.todo, shown by `pbem status`
and in its report): at set-up the pieces to place, grouped by the zones they may go to
(3.0, 20.5); in the purchase phase the units arriving now (5.2); nothing otherwise."""

from __future__ import annotations

from position import GAME, data, position

from pbem.dice import KeyedRng
from pbem.game import todo


def test_the_set_up_pieces_grouped_by_where_they_may_go() -> None:
    state = GAME.setup(data(), {}, KeyedRng(b"\x02" * 32))
    assert state["phase"] == "setup-place"
    lines = todo(GAME, data(), state, "siberian")
    waiting = sorted(pid for pid, p in state["units"].items()
                     if p["status"] == "setup" and p.get("by") == "siberian")
    named = sorted(pid for line in lines
                   for pid in line.removeprefix("place ").split(" in ")[0].split(", "))
    assert named == waiting  # every piece once
    assert all(line.endswith(" (3.0)") for line in lines)
    assert "place pilsudski, poland-inf-01 in one of: Lublin, Lwow, Poznan, Warsaw (3.0)" in lines
    # the Reds' pieces wait for their own phase (pbem status shows the awaited factions')
    state["phase"] = "setup-place-red"
    assert "place anarchists-cav-01, makhno in one of: Gulai Polye (3.0)" in todo(GAME, data(), state, "red")


def test_the_units_arriving_in_the_purchase_phase() -> None:
    state = position({}, actor="red")
    state["phase"] = "purchase"
    assert todo(GAME, data(), state, "red") == []
    for pid, arrives in (("red-inf-09", 3), ("red-inf-10", 3), ("red-cav-02", 4)):
        state["units"][pid].update(status="bought", zone=None, arrives=arrives)
    (line,) = todo(GAME, data(), state, "red")  # turn 3: the cavalry comes next turn
    assert line.startswith("place, arriving now, red-inf-09, red-inf-10 in one of: ")
    assert "Moscow" in line and line.endswith(" (5.2)")
    state["control"] = {z: "south" for z in state["control"]}
    (line,) = todo(GAME, data(), state, "red")
    assert line == "place, arriving now, red-inf-09, red-inf-10 in no zone open to them (5.2)"


def test_nothing_in_other_phases() -> None:
    state = position({}, actor="red")
    state["units"]["red-inf-09"].update(status="bought", zone=None, arrives=1)
    for phase in ("action", "initiative", "victory"):
        state["phase"] = phase
        assert todo(GAME, data(), state, "red") == [], phase
