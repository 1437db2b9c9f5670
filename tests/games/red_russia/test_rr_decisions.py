"""Decisions asked by mail (decisions.py): retreat before combat (8.4) when the defender
asked to be asked (without an instruction it stands and fights: no round trip), and Lenin's initiative modifier
(10.8.1) when the Reds asked to be asked. The phase stops, waits for the answer, and
carries on where it stopped."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from position import GAME, FixedRng, OpenSecrets, data, messages, orders, position
from position import standing as standing_

from pbem import api, yamlio


def declared(defender_standing: dict[str, Any] | None) -> tuple[dict[str, Any], list[dict[str, Any]]]:
    """Red moves to Tver and attacks the South there (probe, 1 money)."""
    state = position({"red-inf-01": "Moscow", "south-inf-01": "Tver"},
                     control={"Tver": "south", "Petrograd": "south"})
    state["standing"] = standing_({"red": {}})
    state["standing"]["south"] = defender_standing or {}
    if defender_standing is None:
        del state["standing"]["south"]
    body = orders({"move": {"units": ["red-inf-01"], "to": "Tver"}}, {"attack": {"zone": "Tver"}})
    body["secret"] = {"spend": {"Tver": 1}}
    assert messages(state, "red", body) == []
    events = GAME.resolve(data(), state, {"red": body}, FixedRng(*[1] * 60), OpenSecrets())
    return fold(state, events), events


def fold(state: dict[str, Any], events: list[dict[str, Any]]) -> dict[str, Any]:
    for e in events:
        state = GAME.apply(data(), state, e)
    return state


ASKING = {"retreat_before_combat": "ask"}


def test_8_4_with_ask_the_defender_is_asked() -> None:
    state, events = declared(ASKING)
    assert [e["type"] for e in events][-2:] == ["moved", "asked"]
    assert state["phase"] == "decision" and state["units"]["red-inf-01"]["zone"] == "Tver"
    phase = GAME.phase(data(), state)
    assert phase.awaiting == ("south",) and "Tver" in phase.prompt and "8.4" in phase.prompt
    assert events[-1]["questions"] == [{"faction": "south", "zone": "Tver", "attacker": "red",
                                        "question": "retreat_before_combat", "rule": "8.4"}]
    # the moves are done; what is left waits: the battle and the sealed spending
    assert [next(iter(o)) for o in state["asked"]["orders"]["orders"]] == ["attack"]
    assert state["asked"]["orders"]["secret"] == {"spend": {"Tver": 1}}


@pytest.mark.parametrize("given", [None, {}, {"retreat_before_combat": "never"}])
def test_8_4_without_ask_the_defender_stands_unasked(given: Any) -> None:
    # README ruling 31: never is the default, so an ordinary turn costs no round trip
    state, events = declared(given)
    assert "asked" not in [e["type"] for e in events] and state["phase"] != "decision"
    attack = next(e for e in events if e["type"] == "attack")
    assert attack["defenders"] == ["south"]
    assert not any(e["type"] == "retreat" and e.get("when") == "before combat" for e in events)


def test_8_4_the_answer_retreat_is_carried_out_before_the_battle() -> None:
    state, _ = declared(ASKING)
    answer = orders({"decide": {"zone": "Tver", "retreat": True, "to": ["Petrograd"]}})
    assert messages(state, "south", answer) == []
    events = GAME.resolve(data(), state, {"south": answer}, FixedRng(*[1] * 60), OpenSecrets())
    kinds = [e["type"] for e in events]
    assert kinds[0] == "answered" and "retreat" in kinds
    retreat = next(e for e in events if e["type"] == "retreat")
    assert retreat["when"] == "before combat" and retreat["faction"] == "south"
    assert retreat["to"] == "Petrograd"
    after = fold(state, events)
    assert "asked" not in after and after["phase"] == "action" and after["actor"] == "siberian"


def test_8_4_the_answer_stand_fights_the_battle() -> None:
    state, _ = declared(ASKING)
    answer = orders({"decide": {"zone": "Tver", "retreat": False}})
    events = GAME.resolve(data(), state, {"south": answer}, FixedRng(*[1] * 60), OpenSecrets())
    attack = next(e for e in events if e["type"] == "attack")
    assert attack["spend"] == 1 and attack["defenders"] == ["south"]


def test_8_4_no_answer_means_the_defender_stands() -> None:
    state, _ = declared(ASKING)
    events = GAME.resolve(data(), state, {"south": GAME.default_orders(data(), state, "south", FixedRng())},
                          FixedRng(*[1] * 60), OpenSecrets())
    assert events[0]["answers"] == {"Tver": {"south": {"retreat_before_combat": "never"}}}
    assert "(no answer)" in GAME.summary(data(), events[0])
    assert any(e["type"] == "attack" for e in events)


@pytest.mark.parametrize(("answer", "message"), [
    ({"zone": "Kazan", "retreat": True}, "you are not asked about Kazan (asked: Tver)"),
    ({"zone": "Tver", "retreat": "yes"}, "retreat is true or false"),
    ({"zone": "Tver", "retreat": True, "to": "Moscow"}, "to is a list of zones"),
])
def test_8_4_answers_are_checked(answer: dict[str, Any], message: str) -> None:
    state, _ = declared(ASKING)
    assert any(message in m for m in messages(state, "south", orders({"decide": answer})))


def test_8_4_only_the_defender_asked_may_answer() -> None:
    state, _ = declared(ASKING)
    found = messages(state, "north", orders({"decide": {"zone": "Tver", "retreat": True}}))
    assert any("not asked about Tver (asked: nothing)" in m for m in found)


# ---------------------------------------------------------------------------------------
# 10.8.1 Lenin's modifier


def lenin(standing: Any) -> dict[str, Any]:
    state = position({"lenin": "Moscow", "red-inf-01": "Moscow"})
    state.update(phase="initiative")
    state["standing"] = standing_({"red": {"lenin_initiative": standing}})
    return state


def test_10_8_1_the_reds_are_asked_only_when_they_asked_to_be() -> None:
    assert GAME.phase(data(), lenin("ask")).awaiting == ("red",)
    assert GAME.phase(data(), lenin("+2")).awaiting == ()


@pytest.mark.parametrize(("choice", "modifier"), [("+2", 2), ("-2", -2), ("none", 0)])
def test_10_8_1_the_answer_sets_this_turns_modifier(choice: str, modifier: int) -> None:
    state = lenin("ask")
    body = orders({"decide": {"lenin_initiative": choice}})
    assert messages(state, "red", body) == []
    events = GAME.resolve(data(), state, {"red": body}, FixedRng(3, 4, 1, 1, 2, 2, 5, 6), OpenSecrets())
    red = next(e for e in events if e["type"] == "initiative_roll" and e["faction"] == "red")
    assert red["modifier"] == modifier
    assert fold(state, events)["standing"]["red"]["lenin_initiative"] == "ask"  # asked again next turn


def test_10_8_1_a_wrong_answer_is_refused() -> None:
    found = messages(lenin("ask"), "red", orders({"decide": {"lenin_initiative": "+3"}}))
    assert any('lenin_initiative is "+2", "-2" or none' in m for m in found)


# ---------------------------------------------------------------------------------------
# by mail, through the referee's commands


def test_a_question_by_mail_stops_the_phase_and_the_answer_resumes_it(tmp_path: Path) -> None:
    """Every faction asks to be asked (8.4). Each battle declared stops the action phase
    with the spending still sealed; the defenders' answers resume it; audit is clean."""
    from conftest import play

    from pbem.campaign import Campaign

    root = tmp_path / "camp"
    api.new_campaign(root, "red_russia", contributions=False, hot_seat=True, seed="ask", name="camp")
    play(root, until_turn=1, phase="purchase", seed="ask")
    drafts = tmp_path / "drafts"
    asked: set[int] = set()
    answered = 0
    for step in range(200):
        s = api.status(root)
        if s["turn"] >= 3 or s["over"]:
            break
        files = []
        for faction in s["awaiting"]:
            body = api.bot(root, faction, seed="ask")
            if s["phase"] in ("purchase", "action"):
                body["standing"] = {**(body.get("standing") or {}), "retreat_before_combat": "ask"}
            if s["phase"] == "decision":
                body["orders"] = [{"decide": {**o["decide"], "retreat": True}} for o in body["orders"]]
                answered += 1
            path = drafts / f"{step:03d}-{faction}.yaml"
            yamlio.write_atomic(path, yamlio.dump(body))
            files.append(path)
        if files:
            api.apply(root, files)
        else:
            api.resolve(root)
        entries = list(Campaign.open(root).entries())
        stopped = [e for e in entries[-3:] if e["type"] == "resolve"
                   and any(ev["type"] == "asked" for ev in e.get("events") or [])]
        for entry in stopped:
            if entry["seq"] not in asked and entry is entries[-1]:
                from pbem.reports.context import build_context

                attacker = next(ev["actor"] for ev in entry["events"] if ev["type"] == "asked")
                secrets = build_context(root, attacker)["secrets"]
                commitments = [x["commitment"] for x in secrets]
                assert len(commitments) == len(set(commitments))  # the waiting spending, once
            asked.add(entry["seq"])
            # 8.3: the spending stays sealed until after 8.4 (cards played may be opened)
            assert all(o["node"]["kind"] == "card" for o in entry.get("opened") or []), entry.get("opened")
            assert api.status(root)["phase"] == "decision" or entry is not entries[-1]
    assert asked and answered
    resumed = [e for e in Campaign.open(root).entries() if e["type"] == "resolve"
               and (e.get("events") or [{}])[0].get("type") == "answered"]
    assert len(resumed) == len(asked)
    # the spending is opened with the battles it paid for (12.41: minors alone spend nothing)
    assert all(e.get("opened") for e in resumed if any(ev["type"] == "attack" and ev["spend"]
                                                       for ev in e["events"]))
    report = api.audit(root)
    assert report["ok"], report["problems"]


def test_8_4_no_question_when_no_retreat_before_combat_is_open() -> None:
    # "units may not retreat ... into an enemy zone" (8.4): every zone next to Tver is Red,
    # so the South defender can only stand; pbem does not ask, and says why
    from position import board_rules

    b = board_rules.board(data())
    around = {z: "red" for z in b.routes["Tver"]}
    state = position({"red-inf-01": "Moscow", "south-inf-01": "Tver"},
                     control={"Tver": "south", **around})
    state["standing"] = standing_({"red": {}})
    state["standing"]["south"] = dict(ASKING)  # it would be asked if it could retreat
    body = orders({"move": {"units": ["red-inf-01"], "to": "Tver"}}, {"attack": {"zone": "Tver"}})
    body["secret"] = {"spend": {"Tver": 1}}
    events = GAME.resolve(data(), state, {"red": body}, FixedRng(*[1] * 60), OpenSecrets())
    kinds = [e["type"] for e in events]
    assert "asked" not in kinds and "combat_round" in kinds
    note = next(e for e in events if e["type"] == "note" and "not asked" in e["text"])
    assert note["text"].startswith("south is not asked whether to retreat before combat at Tver: "
                                   "no zone it may retreat to")
    assert note["text"].endswith("(8.4)")
