"""A side that can do nothing legal in a segment is not asked (games/chechen_war/rules/
asked.py): each test on both sides of its line, in-process; and a campaign in which the
Russian has nothing to attack gets no combat file asked of him, the step saying why."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from fixed_rng import FixedRng, OpenSecrets

from pbem.game import State
from tests.games.chechen_war.test_cw_combat import GAME, attack, data, declared, fold, position


def asked(s: State) -> tuple[str, ...]:
    return GAME.phase(data(), s).awaiting


def not_asked(s: State) -> list[dict[str, Any]]:
    """The not_asked events of the segment resolved with the files of those asked empty."""
    orders = {f: {"orders": []} for f in asked(s)}
    return [e for e in GAME.resolve(data(), s, orders, FixedRng(1, 1, 1, 1, 1, 1), OpenSecrets())
            if e["type"] == "not_asked"]


# 0726 and 0727 are neighbours, 0726 and 0728 are not; 0729 is North Ossetia, next to 0728;
# 0421 is Dagestan, next to 0521 in Chechnya.
@pytest.mark.parametrize(("russians", "tokens", "asks"), [
    ({"ru_76_airborne": "0726"}, {"0727": ["ch_argun_bn"]}, True),
    ({"ru_76_airborne": "0726"}, {"0728": ["ch_argun_bn"]}, False),
])
def test_the_russian_is_asked_to_attack_only_with_a_chechen_unit_next_to_his(
        russians: dict[str, str], tokens: dict[str, list[str]], asks: bool) -> None:
    s = position(russians, tokens)
    assert asked(s) == (("russian",) if asks else ())
    if not asks:
        assert not_asked(s) == [{"type": "not_asked", "faction": "russian", "why":
                                 "no Chechen unit is next to a Russian unit: there is nothing to "
                                 "attack (10.1)"}]
        after = fold(s, GAME.resolve(data(), s, {}, FixedRng(), OpenSecrets()))
        assert after["phase"] == "chechen-movement" and after["attacks"] == []
        assert GAME.summary(data(), not_asked(s)[0]) == (
            "the Russian is not asked: no Chechen unit is next to a Russian unit: there is "
            "nothing to attack (10.1)")


@pytest.mark.parametrize(("russians", "tokens", "asks"), [
    ({"ru_76_airborne": "0726"}, {"0727": ["ch_argun_bn"]}, True),        # in Chechnya
    ({"ru_76_airborne": "0726"}, {"0728": ["ch_argun_bn"]}, False),       # not next to it
    ({"ru_76_airborne": "0729"}, {"0728": ["ch_argun_bn"]}, False),       # North Ossetia (10.1)
    ({"ru_76_airborne": "0421"}, {"0521": ["ch_militia_01"]}, True),      # Dagestan: militia may
    ({"ru_76_airborne": "0521"}, {"0421": ["ch_militia_01"]}, False),     # from Dagestan (8.2)
])
def test_the_chechen_is_asked_to_attack_only_with_a_russian_unit_he_could_attack(
        russians: dict[str, str], tokens: dict[str, list[str]], asks: bool) -> None:
    s = position(russians, tokens, phase="chechen-combat")
    assert asked(s) == (("chechen",) if asks else ())
    if not asks:
        assert not_asked(s) == [{"type": "not_asked", "faction": "chechen", "why":
                                 "no Russian unit that the Chechen could attack is next to his "
                                 "units outside Dagestan and Ingushetia (10.1, 8.2)"}]
        after = fold(s, GAME.resolve(data(), s, {}, FixedRng(), OpenSecrets()))
        assert after["phase"] == "end-of-turn"


def _attacked(target: str = "0727", artillery: int = 0, leaders: str = "next_turn") -> State:
    where = {"0727": ("0726", "ch_argun_bn"), "0421": ("0521", "ch_militia_01")}[target]
    s = position({"ru_76_airborne": where[0]}, {target: [where[1]]})
    s = declared(s, attack(target, "ru_76_airborne"))
    s["supports"]["chechen"]["artillery"] = artillery
    s["leaders"] = {leader: leaders for leader in s["leaders"]}
    return s


@pytest.mark.parametrize(("s", "asks"), [
    (_attacked(artillery=1), True),                      # a marker for a hex of Chechnya
    (_attacked(artillery=0), False),                     # no marker, every leader away
    (_attacked(artillery=0, leaders="underground"), True),   # a leader may come (11.2)
    (_attacked(artillery=0, leaders="0727"), True),      # a leader in the attacked hex
    (_attacked(artillery=0, leaders="0626"), False),     # a leader elsewhere on the map
    (_attacked("0421", artillery=1), False),             # markers only in Chechnya (10.9)
], ids=["marker", "nothing", "underground-leader", "leader-there", "leader-elsewhere", "abroad"])
def test_the_chechen_is_asked_for_supports_only_with_a_marker_or_leader_that_may_back(
        s: State, asks: bool) -> None:
    assert s["phase"] == "chechen-supports"
    assert asked(s) == (("chechen",) if asks else ())
    if not asks:
        assert [(e["faction"], e["why"]) for e in not_asked(s)] == [("chechen", (
            "the Chechen has no support marker for a defence in Chechnya and no leader in the "
            "Underground Box or in an attacked hex (10.9, 11.2)"))]


@pytest.mark.parametrize(("left", "asks"), [
    ({"artillery": 1}, True), ({"armor": 1}, True),      # armor defends only (10.9)
    ({"tos1": 1}, False), ({}, False),                   # the TOS-1 only attacks
])
def test_the_russian_is_asked_for_supports_only_with_a_marker_that_may_defend(
        left: dict[str, int], asks: bool) -> None:
    s = position({"ru_76_airborne": "0726"}, {"0727": ["ch_argun_bn"]}, phase="russian-supports",
                 attacks=[{"target": "0726", "units": ["t01"], "advance": [], "side": "chechen"}])
    s["supports"]["russian"] = {k: left.get(k, 0) for k in s["supports"]["russian"]}
    assert asked(s) == (("russian",) if asks else ())
    if not asks:
        assert [(e["faction"], e["why"]) for e in not_asked(s)] == [(
            "russian", "the Russian has no support marker left that may back a defence (10.9)")]


def test_the_chechen_is_not_asked_at_the_end_of_the_turn_once_he_has_kidnapped() -> None:
    s = position({"ru_76_airborne": "0726"}, {"0728": ["ch_argun_bn"]}, phase="end-of-turn")
    assert asked(s) == ("russian", "chechen")
    s["kidnapped"] = True
    assert asked(s) == ("russian",)
    assert [e["why"] for e in not_asked(s)] == [
        "the kidnapping, the Chechen's one choice at the end of a turn, was done (6.3)"]


def test_a_campaign_asks_no_combat_file_of_a_russian_with_nothing_to_attack(tmp_path: Path) -> None:
    """The Russian moves nowhere near a Chechen unit on turn 1: after the Chechen's ambush
    file the Chechen is asked for his movement at once, and the step and reports say why."""
    from conftest import play

    from pbem import api
    from pbem.campaign import Campaign
    from pbem.reports.render import render

    root = tmp_path / "camp"
    api.new_campaign(root, "chechen_war", hot_seat=True, contributions=False, seed="asked", name="camp")
    play(root, until=lambda st: st["phase"] == "russian-movement", seed="asked")
    state = Campaign.open(root).state()["game"]
    near = sorted(u for u, v in state["russians"].items()
                  if any(_next_to(v["hex"], t["hex"]) for t in state["tokens"].values()))
    if near:  # the Russian units next to Chechen ones taken off the map by a correction
        _file(tmp_path, "adjust", {"events": [{"type": "set_russian", "unit": u, "hex": None}
                                              for u in near]})
        api.adjust(root, tmp_path / "adjust-0.yaml", "nobody next to anybody")
    api.resolve(root, nmr=True)  # no file from the Russian: his reinforcements placed (13.2)
    assert api.status(root)["phase"] == "chechen-ambush"
    body = {**api.bot(root, "chechen", seed="asked", template=True), "orders": []}  # no ambush
    api.apply(root, [_file(tmp_path, "chechen", body)])
    status = api.status(root)
    assert (status["phase"], status["awaiting"]) == ("chechen-movement", ["chechen"])
    last = list(Campaign.open(root).entries())[-1]
    assert {"type": "not_asked", "faction": "russian", "why": "no Chechen unit is next to a "
            "Russian unit: there is nothing to attack (10.1)"} in last["events"]
    assert "the Russian is not asked: no Chechen unit is next to a Russian unit" in \
        render(root, "russian", "text")
    assert api.audit(root)["ok"]


def _next_to(a: str, b: str) -> bool:
    from tests.games.chechen_war.test_cw_combat import B

    return bool(B.grid.adjacent(a, b))


def _file(tmp_path: Path, faction: str, body: dict[str, Any]) -> Path:
    from pbem import yamlio

    path = tmp_path / f"{faction}-{len(list(tmp_path.glob(f'{faction}-*.yaml')))}.yaml"
    path.write_text(yamlio.dump(body))
    return path
