"""The moderator's correction vocabulary (`pbem adjust`), every form each game's README lists,
end to end from a fresh campaign: recorded with its reason, its effect in the state, told by
the log, every report renders, and `pbem audit` replays it clean; a form given wrongly is
refused at its line with what was expected, and nothing is recorded."""

from __future__ import annotations

import re
import shutil
from pathlib import Path
from typing import Any

import pytest

from pbem import api, yamlio
from pbem.campaign import Campaign
from pbem.errors import PbemError
from pbem.reports.render import FORMATS, render

# each game: the forms, in order, and what each must have done to the game state
FORMS: dict[str, list[tuple[dict[str, Any], Any]]] = {
    "aa1914": [
        ({"type": "set_units", "where": "belarus", "power": "germany", "units": {"infantry": 3, "tank": 1}},
         lambda s: s["units"]["belarus"]["germany"] == {"infantry": 3, "tank": 1}),
        ({"type": "set_units", "where": "belarus", "power": "germany", "units": {"tank": 0}},
         lambda s: s["units"]["belarus"]["germany"] == {"infantry": 3}),
        ({"type": "set_treasury", "power": "france", "ipc": 3}, lambda s: s["treasury"]["france"] == 3),
        ({"type": "set_control", "territory": "belarus", "power": "germany"},
         lambda s: s["control"]["belarus"] == "germany"),
        ({"type": "set_control", "territory": "belarus", "power": "russia", "contested": True},
         lambda s: s["control"]["belarus"] == "russia" and "belarus" in s["contested"]),
        ({"type": "set_control", "territory": "belarus", "power": "germany", "contested": False},
         lambda s: s["control"]["belarus"] == "germany" and "belarus" not in s["contested"]),
        ({"type": "set_units", "where": "sz05", "power": "britain", "units": {"battleship": 2}},
         lambda s: s["units"]["sz05"]["britain"]["battleship"] == 2),
        ({"type": "set_damaged", "where": "sz05", "power": "britain", "battleships": 2},
         lambda s: s["damaged"]["sz05"] == {"britain": 2}),
        ({"type": "set_units", "where": "sz05", "power": "britain", "units": {"battleship": 1}},
         lambda s: s["damaged"]["sz05"] == {"britain": 1}),  # no more damaged than remain
        ({"type": "set_damaged", "where": "sz05", "power": "britain", "battleships": 0},
         lambda s: "sz05" not in s["damaged"]),
        ({"type": "at_war", "power": "usa"}, lambda s: "usa" in s["at_war"]),
        ({"type": "next", "power": "italy", "turn": 3}, lambda s: (s["power"], s["turn"]) == ("italy", 3)),
    ],
    "chechen_war": [
        ({"type": "set_russian", "unit": "ru_vityaz", "hex": "0626"},
         lambda s: s["russians"]["ru_vityaz"] == {"hex": "0626", "reduced": False}),
        ({"type": "set_russian", "unit": "ru_vityaz", "reduced": True},
         lambda s: s["russians"]["ru_vityaz"] == {"hex": "0626", "reduced": True}),
        ({"type": "set_russian", "unit": "ru_vityaz", "hex": None}, lambda s: "ru_vityaz" not in s["russians"]),
        ({"type": "set_leader", "leader": "ch_gelayev", "where": "0624"},
         lambda s: s["leaders"]["ch_gelayev"] == "0624"),
        ({"type": "move_token", "token": "t02", "hex": "0628"},  # Gelayev left alone: 11.0
         lambda s: s["tokens"]["t02"]["hex"] == "0628" and s["leaders"]["ch_gelayev"] == "underground"),
        ({"type": "set_leader", "leader": "ch_basayev", "where": "next_turn"},
         lambda s: s["leaders"]["ch_basayev"] == "next_turn"),
        ({"type": "remove_token", "token": "t01"}, lambda s: "t01" not in s["tokens"]),
        ({"type": "set_track", "track": "morale", "value": 7}, lambda s: s["morale"] == 7),
        ({"type": "set_markers", "side": "russian", "kind": "artillery", "count": 1},
         lambda s: s["supports"]["russian"]["artillery"] == 1),
        ({"type": "phase", "phase": "end-of-turn", "turn": 2}, lambda s: (s["phase"], s["turn"]) == ("end-of-turn", 2)),
    ],
    "red_russia": [
        ({"type": "set_resources", "faction": "south", "money": 17, "manpower": 21},
         lambda s: (s["money"]["south"], s["manpower"]["south"]) == (17, 21)),
        ({"type": "set_unit", "unit": "red-inf-01", "zone": "Kazan", "status": "map", "reduced": True},
         lambda s: (s["units"]["red-inf-01"]["zone"], s["units"]["red-inf-01"]["reduced"]) == ("Kazan", True)),
        ({"type": "set_unit", "unit": "red-inf-01", "status": "eliminated", "zone": None},
         lambda s: s["units"]["red-inf-01"]["status"] == "eliminated"),
        ({"type": "set_control", "zone": "Kazan", "faction": "siberian"},
         lambda s: s["control"]["Kazan"] == "siberian"),
        ({"type": "minor_status", "minor": "ukraine", "status": "active", "controller": "south"},
         lambda s: s["minors"]["ukraine"]["status"] == "active" and s["minors"]["ukraine"]["controller"] == "south"),
        ({"type": "minor_status", "minor": "ukraine", "status": "neutral"},
         lambda s: s["minors"]["ukraine"] == {"status": "neutral", "controller": None, "until": None}),
        ({"type": "ori_change", "faction": "red", "change": 2}, lambda s: s["ori"]["red"] == 2),
        ({"type": "ori_change", "faction": "red", "change": 5}, lambda s: s["ori"]["red"] == 3),  # 17.1
        ({"type": "phase", "turn": 2, "phase": "action", "actor": "south"},
         lambda s: (s["phase"], s["turn"], s["actor"]) == ("action", 2, "south")),
        ({"type": "phase", "turn": 2, "phase": "purchase"}, lambda s: (s["phase"], s["turn"]) == ("purchase", 2)),
    ],
}

WRONG: dict[str, list[tuple[dict[str, Any], str]]] = {
    "aa1914": [({"type": "set_units", "where": "belarus", "power": "germny", "units": {"infantry": 1}},
                "power: 'germny' is not a power of the game; did you mean 'germany'?"),
               ({"type": "set_units", "where": "sz01", "power": "germany", "units": {"infantry": 1}},
                "units: a infantry cannot stand in"),
               ({"type": "set_treasury", "power": "france", "ipc": -1},
                "ipc: expected a whole number 0 or more, not -1"),
               ({"type": "next", "power": "italy", "turn": 0}, "turn: expected a round 1 or more, not 0"),
               ({"type": "set_damaged", "where": "sz05", "power": "britain", "battleships": 5},
                "battleships: Britain has 0 battleship(s) in"),
               ({"type": "set_control", "territory": "belarus", "power": "russia", "contested": "yes"},
                "contested: expected true or false, not 'yes'"),
               ({"type": "at_war", "power": "germany"}, "power: germany is at war already"),
               ({"type": "at_war", "power": "usaa"}, "did you mean 'usa'?"),
               ({"type": "at_war", "power": "soviets"},
                "power: soviets is not in the game now (it enters by the rules alone)"),
               ({"type": "next", "power": "soviets", "turn": 3},
                "power: soviets is not in the game now"),
               ({"type": "set_units", "where": "belarus", "power": "germany", "units": [3]},
                "units: expected a mapping of unit types to counts ({infantry: 2})"),
               ({"type": "set_units", "where": "belarus", "power": "germany", "units": {"tanck": 1}},
                "units: 'tanck' is not a unit type; did you mean 'tank'?"),
               ({"type": "set_units", "where": "belarus", "power": "germany", "units": {"tank": -1}},
                "units: tank: expected a whole number 0 or more, not -1"),
               ({"type": "set_units", "where": "belarusia", "power": "germany", "units": {"tank": 1}},
                "where: 'belarusia' is no territory or sea zone; did you mean 'belarus'?"),
               ({"type": "set_control", "territory": "belaruss", "power": "germany"},
                "territory: 'belaruss' is no land territory; did you mean 'belarus'?"),
               ({"type": "set_damaged", "where": "sz05", "power": "britain", "battleships": -1},
                "battleships: expected a whole number 0 or more, not -1")],
    "chechen_war": [({"type": "set_russian", "unit": "ru_vityas", "hex": "0626"},
                     "unit: 'ru_vityas' is not a Russian unit; did you mean 'ru_vityaz'?"),
                    ({"type": "set_track", "track": "moral", "value": 3},
                     "track: 'moral' is not one of morale, casualties, collateral"),
                    ({"type": "set_leader", "leader": "ch_basayev", "where": "0626"},
                     "where: 0626 holds no Chechen unit: a leader stands only with Chechen units "
                     "or in a box (11.0)"),
                    ({"type": "move_token", "token": "t01", "hex": "0128"},
                     "hex: 0128 holds Russian units"),
                    ({"type": "move_token", "token": "t01", "hex": 624},
                     "hex: expected a hex of the map as quoted text"),
                    ({"type": "phase", "phase": "over", "turn": 2}, "phase: 'over' is not a segment"),
                    ({"type": "phase", "phase": "end-of-the-turn", "turn": 2},
                     "phase: 'end-of-the-turn' is not a segment; did you mean 'end-of-turn'?")],
    "red_russia": [({"type": "set_resources", "faction": "south", "money": -2},
                    "money cannot be below zero (6.4)"),
                   ({"type": "set_resources", "faction": "south", "mony": 2},
                    "set_resources takes faction, manpower (optional), money (optional); "
                    "unknown: mony"),
                   ({"type": "set_resources", "faction": "south", "money": "17"},
                    "money: expected a whole number, not '17'"),
                   ({"type": "set_unit", "unit": "red-inf-01", "zone": "Kazan", "reducd": True},
                    "unknown: reducd"),
                   ({"type": "set_control", "zone": "Kazan", "faction": "red", "from": "south"},
                    "unknown: from"),
                   ({"type": "phase", "turn": 2, "phase": "purchse"},
                    "unknown phase 'purchse'; did you mean 'purchase'? (known: setup-place"),
                   ({"type": "phase", "turn": 2, "phase": "action"},
                    "actor: the action phase is a faction's (4.5): give actor: one of red, "
                    "siberian, south, north, not None"),
                   ({"type": "phase", "turn": 2, "phase": "decision"},
                    "phase: decision is entered only by the rules"),
                   ({"type": "phase", "turn": 2, "phase": "over"}, "phase: over is entered only"),
                   ({"type": "phase", "turn": "2", "phase": "purchase"},
                    "turn: expected a turn 0 or more, not '2'")],
}


def campaign(tmp_path: Path, game: str) -> Path:
    from conftest import play

    root = tmp_path / "camp"
    api.new_campaign(root, game, hot_seat=True, contributions=False, seed="corrections", name="camp")
    if game == "chechen_war":  # the Chechen's tokens on the map
        play(root, until=lambda s: s["phase"] == "russian-movement", seed="corrections")
    return root


def adjust(root: Path, tmp_path: Path, event: dict[str, Any], n: int) -> dict[str, Any]:
    path = tmp_path / f"adjust-{n}.yaml"
    path.write_text(yamlio.dump({"events": [event]}))
    return api.adjust(root, path, f"correction {n}")


@pytest.mark.parametrize("game", sorted(FORMS))
def test_every_correction_form_end_to_end(tmp_path: Path, game: str) -> None:
    root = campaign(tmp_path, game)
    if game == "chechen_war":  # a leader with the token that will be taken away
        token = Campaign.open(root).state()["game"]["tokens"]["t01"]["hex"]
        adjust(root, tmp_path, {"type": "set_leader", "leader": "ch_dudayev", "where": token}, 99)
    for n, (event, done) in enumerate(FORMS[game]):
        adjust(root, tmp_path, event, n)
        state = Campaign.open(root).state()["game"]
        assert done(state), (game, event)
        last = list(Campaign.open(root).entries())[-1]
        assert last["type"] == "adjust" and last["summary"].endswith(f": correction {n}")
        assert Campaign.open(root).game.summary(Campaign.open(root).data, event).strip()
    if game == "chechen_war":  # 11.0: his token gone, Dudayev went back underground
        assert Campaign.open(root).state()["game"]["leaders"]["ch_dudayev"] == "underground"
    for who in ("public", "referee"):
        for fmt in FORMATS:
            assert render(root, who, fmt).strip()
    report = api.audit(root)
    assert report["ok"], report["problems"]
    assert len(report["corrections"]) >= len(FORMS[game])


@pytest.mark.parametrize(("game", "event", "said"),
                         [(g, e, m) for g, cases in sorted(WRONG.items()) for e, m in cases])
def test_a_correction_given_wrongly_is_refused_at_its_line(tmp_path: Path, game: str,
                                                            event: dict[str, Any], said: str) -> None:
    root = campaign(tmp_path, game)
    before = Campaign.open(root).state()["seq"]
    with pytest.raises(PbemError) as caught:
        adjust(root, tmp_path, event, 0)
    assert "adjust-0.yaml:2: cannot apply this event: " in caught.value.message
    assert said in caught.value.message, caught.value.message
    assert Campaign.open(root).state()["seq"] == before


# --- a face-down unit turned face up, or face down again (the Chechen War) ------------------


def _keyed_campaign(tmp_path: Path, game: str, phase: str) -> tuple[Path, Path]:
    """A campaign whose every faction has a key of its own (in `keys`), played to `phase`."""
    from conftest import play

    root, keys = tmp_path / "camp", tmp_path / "keys"
    api.new_campaign(root, game, hot_seat=True, keys_dir=keys, contributions=False,
                     seed="corrections", name="camp")
    play(root, until=lambda s: s["phase"] == phase, seed="corrections")
    return root, keys


def _hidden_campaign(tmp_path: Path) -> tuple[Path, Path]:
    """The Chechen War with the Chechen's units face down on the map."""
    return _keyed_campaign(tmp_path, "chechen_war", "russian-movement")


def _sealed_unit(root: Path, token: str) -> tuple[dict[str, Any], str]:
    from pbem.crypto import sealed

    camp = Campaign.open(root)
    node = camp.state()["game"]["tokens"][token]["unit"]
    return node, str(sealed.open_node(camp.id, node, camp.referee_identities()).value)


def test_a_face_down_unit_turned_face_up_and_down_again_by_correction(tmp_path: Path) -> None:
    from pbem.crypto import age, sealed

    root, keys = _hidden_campaign(tmp_path)
    node, truth = _sealed_unit(root, "t01")
    name = Campaign.open(root).data["units"]["units"][truth]["name"]
    assert name not in render(root, "russian", "text")
    for n, (event, said) in enumerate([
            ({"type": "reveal_token", "token": "t01", "unit": "ch_not_this"},
             f"unit: t01 is sealed as {truth}, not 'ch_not_this'"),
            ({"type": "hide_token", "token": "t01"}, "token: t01 is face down already"),
            ({"type": "reveal_token", "token": "t99"}, "token: 't99' is not on the map"),
            ({"type": "reveal_token", "token": "t01", "hex": "0626"}, "unknown: hex")]):
        with pytest.raises(PbemError) as caught:
            adjust(root, tmp_path, event, 10 + n)
        assert said in caught.value.message, caught.value.message
    seq = Campaign.open(root).state()["seq"]
    adjust(root, tmp_path, {"type": "reveal_token", "token": "t01"}, 0)
    entry = list(Campaign.open(root).entries())[-1]
    assert entry["seq"] == seq + 1
    assert entry["events"] == [{"type": "reveal_token", "token": "t01", "unit": truth}]
    assert [o["node"]["commitment"] for o in entry["opened"]] == [node["commitment"]]
    assert Campaign.open(root).state()["game"]["tokens"]["t01"]["unit"] == truth
    assert f"t01 turned face up: {name}" in render(root, "russian", "text")
    with pytest.raises(PbemError) as caught:
        adjust(root, tmp_path, {"type": "reveal_token", "token": "t01"}, 1)
    assert "token: t01 is face up already" in caught.value.message

    adjust(root, tmp_path, {"type": "hide_token", "token": "t01"}, 2)
    again = Campaign.open(root).state()["game"]["tokens"]["t01"]
    assert sealed.is_sealed(again["unit"]) and not again.get("revealed")
    assert again["unit"]["owner"] == "chechen"
    assert _sealed_unit(root, "t01")[1] == truth  # the referee's key opens it, and so does his
    assert sealed.open_node(Campaign.open(root).id, again["unit"],
                            age.read_identities((keys / "chechen.key").read_text())).value == truth
    adjust(root, tmp_path, {"type": "reveal_token", "token": "t01", "unit": truth}, 3)
    assert Campaign.open(root).state()["game"]["tokens"]["t01"]["unit"] == truth
    for who in ("public", "russian", "chechen", "referee"):
        for fmt in FORMATS:
            assert render(root, who, fmt).strip()
    assert api.audit(root)["ok"]
    own = api.audit(root, key=keys / "chechen.key")
    assert own["ok"], own["problems"]


def _other_chechen(root: Path, truth: str) -> str:
    spec = Campaign.open(root).data["units"]["units"]
    return next(u for u, v in sorted(spec.items()) if v["side"] == "chechen" and u != truth)


def test_a_referee_who_reveals_another_unit_than_the_sealed_one_is_named(tmp_path: Path) -> None:
    """The referee writes another unit into the reveal (and, the second time, into its
    published opening too) and signs the log again: the public audit names the step."""
    root, _keys = _hidden_campaign(tmp_path)
    _node, truth = _sealed_unit(root, "t01")
    adjust(root, tmp_path, {"type": "reveal_token", "token": "t01"}, 0)
    other = _other_chechen(root, truth)
    _opened_another(root, tmp_path, "unit", other,
                    f"cannot be replayed: unit: t01 is sealed as {truth}, not '{other}'")


def _opened_another(root: Path, tmp_path: Path, field: str, other: str, said: str) -> None:
    """The referee writes `other` into the last step's opened value's `field` (and, the
    second time, into its published opening too) and signs again: the public audit names
    the step, first with `said`, then for an opening that does not open its commitment."""
    from test_audit_tamper import Referee

    seq = Campaign.open(root).state()["seq"]
    for also_opening, why in ((False, said), (True, "does not match its commitment")):
        work = tmp_path / f"cheat-{also_opening}"
        shutil.copytree(root, work, symlinks=True)
        cheat = Referee(work)
        cheat.entry(seq)["events"][0][field] = other
        if also_opening:
            cheat.entry(seq)["opened"][0]["value"] = other
        cheat.rewrite()
        report = api.audit(work)
        assert not report["ok"]
        assert [p for p in report["problems"] if p.startswith(f"log/{seq:06d}.yaml")
                and why in p], report["problems"]


def test_a_referee_who_hides_another_unit_is_named_by_the_chechens_own_audit(tmp_path: Path) -> None:
    """hide_token seals the face-up unit anew; a referee who seals another one (to the
    Chechen, so that his key opens it) is named by the Chechen's own audit."""
    from test_audit_tamper import Referee

    root, keys = _hidden_campaign(tmp_path)
    _node, truth = _sealed_unit(root, "t01")
    adjust(root, tmp_path, {"type": "reveal_token", "token": "t01"}, 0)
    adjust(root, tmp_path, {"type": "hide_token", "token": "t01"}, 1)
    seq = Campaign.open(root).state()["seq"]
    assert api.audit(root, key=keys / "chechen.key")["ok"]
    cheat = Referee(root)
    node = cheat.entry(seq)["events"][0]["unit"]
    camp = Campaign.open(root)
    fresh = sealed_seal(camp, node, _other_chechen(root, truth))
    node["commitment"], node["sealed"] = fresh["commitment"], fresh["sealed"]
    cheat.rewrite()
    own = api.audit(root, key=keys / "chechen.key")
    assert not own["ok"]
    assert [p for p in own["problems"] if p.startswith(f"log/{seq:06d}.yaml") and "unit t01" in p], \
        own["problems"]


def sealed_seal(camp: Campaign, node: dict[str, Any], value: str) -> dict[str, Any]:
    from pbem.crypto import sealed

    recipients = [camp.config["referee"]["age"], camp.config["factions"]["chechen"]["age"]]
    return sealed.seal(sealed.node_context(camp.id, node), value, recipients)


def test_hide_token_checks_a_unit_named_and_seals_in_the_turn_of_the_step(tmp_path: Path) -> None:
    """hide_token may name the face-up unit it hides (another is refused, nothing recorded);
    the new sealed node is of the turn the game is in; a token mistyped gets a suggestion;
    without the referee's keys neither form can be made."""
    from pbem.game import get_game, load_data

    root, _keys = _hidden_campaign(tmp_path)
    _node, truth = _sealed_unit(root, "t01")
    adjust(root, tmp_path, {"type": "reveal_token", "token": "t01"}, 0)
    other = _other_chechen(root, truth)
    seq = Campaign.open(root).state()["seq"]
    with pytest.raises(PbemError) as caught:
        adjust(root, tmp_path, {"type": "hide_token", "token": "t01", "unit": other}, 1)
    assert f"unit: t01 is {truth}, not '{other}'" in caught.value.message
    assert Campaign.open(root).state()["seq"] == seq
    with pytest.raises(PbemError) as caught:
        adjust(root, tmp_path, {"type": "reveal_token", "token": "T01"}, 2)
    assert "token: 'T01' is not on the map; did you mean 't01'" in caught.value.message
    adjust(root, tmp_path, {"type": "hide_token", "token": "t01", "unit": truth}, 3)
    state = Campaign.open(root).state()["game"]
    assert state["tokens"]["t01"]["unit"]["turn"] == state["turn"] == 1
    work = tmp_path / "unsealed"  # the unit turned face down again is opened with the rest
    shutil.copytree(root, work, symlinks=True)
    api.unseal(work, force=True)
    final = api.audit(work, final=True)
    assert final["ok"], final["problems"]
    game = get_game("chechen_war")
    for kind in ("reveal_token", "hide_token"):
        with pytest.raises(ValueError, match=f"^{kind} needs the referee's keys$"):
            game.correct(load_data("chechen_war"), state, {"type": kind, "token": "t01"}, None)  # type: ignore[attr-defined]


# --- a card out of a hand, or into one (Red Russia) ------------------------------------------


def _cards_campaign(tmp_path: Path) -> tuple[Path, Path]:
    """Red Russia after the deal, every hand sealed to its player."""
    return _keyed_campaign(tmp_path, "red_russia", "purchase")


def _hand(root: Path, holder: str) -> list[tuple[dict[str, Any], str]]:
    from pbem.crypto import sealed

    camp = Campaign.open(root)
    return [(node, str(sealed.open_node(camp.id, node, camp.referee_identities()).value))
            for node in camp.state()["game"]["cards"]["hands"][holder]]


def test_a_card_out_of_a_hand_and_into_it_again_by_correction(tmp_path: Path) -> None:
    """discard_card opens the one sealed card that holds it (its opening published, the
    others of the hand not); give_card seals a face-up card anew to the player, whose key
    and whose report show it; every reader's report renders and every audit passes."""
    from pbem.crypto import age, sealed

    root, keys = _cards_campaign(tmp_path)
    hand = _hand(root, "red")
    (node, card), kept = hand[0], [c for _n, c in hand[1:]]
    title = next(c["title"] for c in Campaign.open(root).data["cards"]["cards"] if c["id"] == card)
    red = age.read_identities((keys / "red.key").read_text())
    assert title in render(root, "red", "text", identities=red).split("YOUR HAND")[-1]
    adjust(root, tmp_path, {"type": "discard_card", "holder": "red", "card": card}, 0)
    entry = list(Campaign.open(root).entries())[-1]
    assert entry["events"] == [{"type": "discard_card", "holder": "red", "card": card,
                                "slot": node["id"], "to": "discard"}]
    assert [o["node"]["commitment"] for o in entry["opened"]] == [node["commitment"]]
    cards = Campaign.open(root).state()["game"]["cards"]
    assert card in cards["discard"] and len(cards["hands"]["red"]) == len(hand) - 1
    assert f"correction: {card} out of red's hand, to the discards" in render(root, "south", "text")
    assert title not in render(root, "red", "text", identities=red).split("YOUR HAND")[-1]
    published = (root / "log" / f"{entry['seq']:06d}.yaml").read_text()
    assert not [c for c in kept if c in published]  # the rest of the hand stays sealed

    adjust(root, tmp_path, {"type": "give_card", "holder": "red", "card": card}, 1)
    entry = list(Campaign.open(root).entries())[-1]
    [event] = entry["events"]
    assert (event["card"], event["from"]) == (card, "discard") and not entry.get("opened")
    cards = Campaign.open(root).state()["game"]["cards"]
    assert card not in cards["discard"] and len(cards["hands"]["red"]) == len(hand)
    given = cards["hands"]["red"][-1]
    assert given["owner"] == "red" and given["id"] == f"c{cards['dealt']}"
    assert given["turn"] == Campaign.open(root).state()["game"]["turn"] == 1
    assert sealed.open_node(Campaign.open(root).id, given, red).value == card
    assert title in render(root, "red", "text", identities=red).split("YOUR HAND")[-1]
    adjust(root, tmp_path, {"type": "discard_card", "holder": "red", "card": card, "to": "removed"}, 2)
    assert card in Campaign.open(root).state()["game"]["cards"]["removed"]
    adjust(root, tmp_path, {"type": "give_card", "holder": "south", "card": card, "from": "removed"}, 3)
    assert _hand(root, "south")[-1][1] == card
    camp = Campaign.open(root)
    assert [camp.game.summary(camp.data, e) for entry in list(camp.entries())[-4:]
            for e in entry["events"]] == [
        f"correction: {card} out of red's hand, to the discards",
        f"correction: {card} from the discards into red's hand, sealed to the player",
        f"correction: {card} out of red's hand, out of the game",
        f"correction: {card} from the cards out of the game into south's hand, sealed to the player"]
    for who in ("public", "red", "south", "referee"):
        for fmt in FORMATS:
            assert render(root, who, fmt).strip()
    report = api.audit(root)
    assert report["ok"], report["problems"]
    assert len(report["corrections"]) == 4
    for who in ("red", "south"):
        own = api.audit(root, key=keys / f"{who}.key")
        assert own["ok"], own["problems"]
    api.unseal(root, force=True)  # the card given by correction is opened with the rest
    final = api.audit(root, final=True)
    assert final["ok"], final["problems"]


def test_a_card_correction_given_wrongly_is_refused_with_nothing_recorded(tmp_path: Path) -> None:
    root, _keys = _cards_campaign(tmp_path)
    held = _hand(root, "red")[0][1]
    other = next(c for _n, c in _hand(root, "south"))
    seq = Campaign.open(root).state()["seq"]
    for n, (event, said) in enumerate([
            ({"type": "discard_card", "holder": "red", "card": other}, f"card: red holds no {other}"),
            ({"type": "discard_card", "holder": "reds", "card": held},
             "holder: 'reds' is not a major faction; did you mean 'red'?"),
            ({"type": "discard_card", "holder": "red", "card": held[:-1]},
             f"is not a card of the deck; did you mean '{held}'?"),
            ({"type": "discard_card", "holder": "red", "card": held, "to": "pile"},
             "to: expected discard or removed, not 'pile'"),
            ({"type": "discard_card", "holder": "red", "card": held, "slot": "c999"},
             f"slot: {held} is red's card"),
            ({"type": "discard_card", "holder": "red"}, "discard_card takes card, holder"),
            ({"type": "give_card", "holder": "red", "card": other},
             f"card: {other} is neither among the discards nor out of the game"),
            ({"type": "give_card", "holder": "red", "card": held, "node": "x"},
             f"card: {held} is neither among the discards"),
    ]):
        with pytest.raises(PbemError) as caught:
            adjust(root, tmp_path, event, n)
        assert said in caught.value.message, caught.value.message
        assert Campaign.open(root).state()["seq"] == seq
    adjust(root, tmp_path, {"type": "discard_card", "holder": "red", "card": held}, 20)
    with pytest.raises(PbemError) as caught:
        adjust(root, tmp_path, {"type": "give_card", "holder": "red", "card": held, "from": "removed"}, 21)
    assert f"from: {held} lies in discard, not 'removed'" in caught.value.message
    from pbem.game import get_game, load_data

    state = Campaign.open(root).state()["game"]
    for kind in ("discard_card", "give_card"):
        with pytest.raises(ValueError, match=f"^{kind} needs the referee's keys$"):
            get_game("red_russia").correct(  # type: ignore[attr-defined]
                load_data("red_russia"), state, {"type": kind, "holder": "red", "card": held}, None)
    # the recorded forms as a log gives them to the fold, each part checked
    game, data = get_game("red_russia"), load_data("red_russia")
    slot = _hand(root, "red")[0][0]["id"]
    node = dict(_hand(root, "red")[0][0])
    for event, said in [
            ({"type": "discard_card", "holder": "red", "card": held, "slot": "c999", "to": "discard"},
             "slot: red holds no card c999"),
            ({"type": "discard_card", "holder": "red", "card": held, "slot": slot, "to": "pile"},
             "to: expected discard or removed, not 'pile'"),
            ({"type": "discard_card", "holder": "red", "card": held, "slot": slot}, "missing: to"),
            ({"type": "give_card", "holder": "south", "card": held, "from": "discard", "node": node},
             "node: expected the card sealed to south"),
            ({"type": "give_card", "holder": "red", "card": held, "from": "discard", "node": "c1"},
             "node: expected the card sealed to red"),
            ({"type": "give_card", "holder": "red", "card": other, "from": "removed", "node": node},
             f"from: {other} is not in removed")]:
        with pytest.raises(ValueError, match=re.escape(said)):
            game.apply(data, state, event)
    # 14.3: a player of the South and the North holds one hand, kept under the South
    seated = {**state, "options": {**state["options"], "seating": [["red"], ["siberian"], ["south", "north"]]}}
    with pytest.raises(ValueError, match=r"^holder: the cards of north are held under south "
                                         r"\(14.3: one hand a player\)$"):
        get_game("red_russia").correct(  # type: ignore[attr-defined]
            load_data("red_russia"), seated, {"type": "discard_card", "holder": "north", "card": held}, None)


def test_a_referee_who_discards_another_card_than_the_one_held_is_named(tmp_path: Path) -> None:
    """The referee writes another card into the discard (and, the second time, into its
    published opening too) and signs again: the public audit names the step."""
    root, _keys = _cards_campaign(tmp_path)
    held = _hand(root, "red")[0][1]
    other = next(c for _n, c in _hand(root, "south"))
    adjust(root, tmp_path, {"type": "discard_card", "holder": "red", "card": held}, 0)
    _opened_another(root, tmp_path, "card", other, f"card: red holds no {other}")


def test_a_referee_who_gives_another_card_is_named_by_the_players_own_audit(tmp_path: Path) -> None:
    """give_card seals the face-up card anew; a referee who seals another one to the player
    (so that his key opens it) is named by the player's own audit."""
    from test_audit_tamper import Referee

    root, keys = _cards_campaign(tmp_path)
    held = _hand(root, "red")[0][1]
    other = next(c for _n, c in _hand(root, "south"))
    adjust(root, tmp_path, {"type": "discard_card", "holder": "red", "card": held}, 0)
    adjust(root, tmp_path, {"type": "give_card", "holder": "red", "card": held}, 1)
    seq = Campaign.open(root).state()["seq"]
    assert api.audit(root, key=keys / "red.key")["ok"]
    cheat = Referee(root)
    node = cheat.entry(seq)["events"][0]["node"]
    camp = Campaign.open(root)
    from pbem.crypto import sealed

    recipients = [camp.config["referee"]["age"], camp.config["factions"]["red"]["age"]]
    fresh = sealed.seal(sealed.node_context(camp.id, node), other, recipients)
    node["commitment"], node["sealed"] = fresh["commitment"], fresh["sealed"]
    cheat.rewrite()
    own = api.audit(root, key=keys / "red.key")
    assert not own["ok"]
    assert [p for p in own["problems"] if p.startswith(f"log/{seq:06d}.yaml")], own["problems"]


# --- the game goes on from wherever a correction moves it ----------------------------------


def _moves(game: str) -> list[tuple[str, dict[str, Any]]]:
    """Every place a correction may move the game to: each phase of its table (A&A 1914:
    each power's turn), with what it is refused with when it must be ("" when it is not)."""
    from pbem.game import get_game, load_data

    if game == "aa1914":
        return [(p["id"], {"type": "next", "power": p["id"], "turn": 3})
                for p in load_data(game)["map"]["powers"]]
    table = get_game(game).phases.phases  # type: ignore[attr-defined]
    extra = {"action": {"actor": "north"}}
    return [(name, {"type": "phase", "phase": name, "turn": 3, **extra.get(name, {})}) for name in table]


REFUSED = {("red_russia", "decision"): "phase: decision is entered only by the rules",
           ("red_russia", "over"): "phase: over is entered only by the rules",
           ("chechen_war", "over"): "phase: 'over' is not a segment"}


@pytest.fixture(scope="module")
def played(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Path]:
    """Each game played into its second turn, once for the module."""
    from conftest import play

    out = {}
    for game in ("aa1914", "chechen_war", "red_russia"):
        root = tmp_path_factory.mktemp(game) / "camp"
        api.new_campaign(root, game, hot_seat=True, contributions=False, seed="moves", name="camp")
        play(root, until=lambda s: s["turn"] >= 2, seed="moves", max_steps=300)
        out[game] = root
    return out


@pytest.mark.parametrize(("game", "where", "event"),
                         [(g, w, e) for g in ("aa1914", "chechen_war", "red_russia") for w, e in _moves(g)])
def test_the_game_goes_on_from_wherever_a_correction_moves_it(
        tmp_path: Path, played: dict[str, Path], game: str, where: str, event: dict[str, Any]) -> None:
    """Moved into any phase (or power's turn) of turn 3, a game says whom it awaits, every
    reader's report renders, and the bot's orders play it on; or the correction is refused
    at its line with nothing recorded (before, a phase without what it needs was recorded and
    every later command crashed)."""
    from conftest import play

    root = tmp_path / "camp"
    shutil.copytree(played[game], root, symlinks=True)
    seq = Campaign.open(root).state()["seq"]
    said = REFUSED.get((game, where))
    if said:
        with pytest.raises(PbemError) as caught:
            adjust(root, tmp_path, event, 0)
        assert "adjust-0.yaml:2: cannot apply this event: " + said in caught.value.message
        assert Campaign.open(root).state()["seq"] == seq
        return
    adjust(root, tmp_path, event, 0)
    status = api.status(root)
    assert status["turn"] == 3 or status["over"]
    for who in ("public", "referee", *Campaign.open(root).factions()):
        assert render(root, who, "text").strip()
    assert render(root, "referee", "html").strip()
    after = play(root, until=lambda s: s["seq"] >= seq + 5, seed="moves", max_steps=10)
    assert after["seq"] >= seq + 5 or after["over"], after


@pytest.mark.parametrize(("event", "told"), [
    ({"type": "set_units", "where": "belarus", "power": "germany", "units": {"infantry": 3, "tank": 0}},
     "correction: Germany's units in Belarus set to 3 infantry, 0 tank"),
    ({"type": "set_treasury", "power": "france", "ipc": 3}, "correction: France's treasury set to 3 IPC"),
    ({"type": "set_control", "territory": "belarus", "power": "russia", "contested": True},
     "correction: Belarus now controlled by Russia, contested"),
    ({"type": "set_control", "territory": "belarus", "power": "russia", "contested": False},
     "correction: Belarus now controlled by Russia, not contested"),
    ({"type": "set_control", "territory": "belarus", "power": "russia"},
     "correction: Belarus now controlled by Russia"),
    ({"type": "set_damaged", "where": "sz05", "power": "britain", "battleships": 1},
     "correction: Britain's damaged battleships in SZ 5 set to 1"),
])
def test_each_aa1914_correction_is_told_as_the_log_shows_it(event: dict[str, Any], told: str) -> None:
    from pbem.game import get_game, load_data

    assert get_game("aa1914").summary(load_data("aa1914"), event) == told
