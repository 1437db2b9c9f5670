"""The moderator's correction vocabulary (`pbem adjust`), every form each game's README lists,
end to end from a fresh campaign: recorded with its reason, its effect in the state, told by
the log, every report renders, and `pbem audit` replays it clean; a form given wrongly is
refused at its line with what was expected, and nothing is recorded."""

from __future__ import annotations

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
        ({"type": "next", "power": "italy", "turn": 3}, lambda s: (s["power"], s["turn"]) == ("italy", 3)),
    ],
    "chechen_war": [
        ({"type": "set_russian", "unit": "ru_vityaz", "hex": "0626"},
         lambda s: s["russians"]["ru_vityaz"] == {"hex": "0626", "reduced": False}),
        ({"type": "set_russian", "unit": "ru_vityaz", "reduced": True},
         lambda s: s["russians"]["ru_vityaz"] == {"hex": "0626", "reduced": True}),
        ({"type": "set_russian", "unit": "ru_vityaz", "hex": None}, lambda s: "ru_vityaz" not in s["russians"]),
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
        ({"type": "ori_change", "faction": "red", "change": 2}, lambda s: s["ori"]["red"] == 2),
        ({"type": "ori_change", "faction": "red", "change": 5}, lambda s: s["ori"]["red"] == 3),  # 17.1
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
               ({"type": "next", "power": "italy", "turn": 0}, "turn: expected a round 1 or more, not 0")],
    "chechen_war": [({"type": "set_russian", "unit": "ru_vityas", "hex": "0626"},
                     "unit: 'ru_vityas' is not a Russian unit; did you mean 'ru_vityaz'?"),
                    ({"type": "set_track", "track": "moral", "value": 3},
                     "track: 'moral' is not one of morale, casualties, collateral"),
                    ({"type": "set_leader", "leader": "ch_basayev", "where": "0626"},
                     "where: 0626 holds no Chechen unit: a leader stands only with Chechen units "
                     "or in a box (11.0)"),
                    ({"type": "phase", "phase": "end-of-the-turn", "turn": 2},
                     "phase: 'end-of-the-turn' is not a segment; did you mean 'end-of-turn'?")],
    "red_russia": [({"type": "set_resources", "faction": "south", "money": -2},
                    "money cannot be below zero (6.4)")],
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
