"""Red Russia's event cards (2.3, 14.0): the RECONSTRUCTED deck in cards.yaml.

The printed cards are not in the rulebook, so these tests check the shape of the data and
what the rulebook does say about the cards it names (3.0, 10.6, 10.8.1, 10.92, 10.93,
13.52, 13.53, 15.2-15.4, 19.1-19.3, 20.4)."""

from __future__ import annotations

from collections import Counter
from pathlib import Path
from typing import Any

import pytest
import yaml
from conftest import need_shared

GAME_DIR = Path(__file__).resolve().parents[3] / "games" / "red_russia"
RULES = Path(__file__).resolve().parents[4] / "shared" / "rules" / "red-russia-rules.txt"

DECK_SIZE = 54  # 2.3
PHASES = {"card", "purchase", "political", "initiative", "action", "any"}  # 4.1-4.5, 14.2
YEARS = {1918, 1919, 1920, 1921}  # 1.0, 14.74
MAJORS = {"red", "siberian", "south", "north"}  # 14.73
WHITES = MAJORS - {"red"}
FACTION_REFS = MAJORS | {"self", "target"}
UNIT_FACTIONS = FACTION_REFS | {"allies"}  # 13.61: Allied units may be added or removed
MINORS = {"finland", "baltic", "poland", "ukraine", "anarchists"}  # 10.7
MINOR_STATUSES = {"limited", "active", "neutral"}  # 12.11, 12.12, 12.2
FLAGS = {"kolchak_coup", "wrangel_takes_over", "greater_poland", "on_to_berlin", "curzon"}
MAX_REFEREE = 8

# Every card title the rulebook names (frozen: 3.0, 9.0, 10.8.1, 10.92, 10.93, 13.52,
# 13.53, 15.3, 15.4, 19.2, 19.3).
RULEBOOK_TITLES = (
    "Czech Legion formed",
    "Czech Legion quits",
    "Wrangel takes over",
    "Kolchak coup",
    "Semenov corruption",
    "Tank",
    "Cossack Raid",
    "Coup de main",
    "On to Berlin!",
    "Greater Poland",
    "Curzon intervenes",
    "Famine",
    "Infighting",
)

# kind -> (required fields, optional fields); "do" and "note" are always allowed
EFFECTS: dict[str, tuple[set[str], set[str]]] = {
    "money": ({"faction"}, {"amount", "dice", "halve", "lose", "unless"}),
    "manpower": ({"faction"}, {"amount", "dice", "halve", "lose", "unless"}),
    "add_units": ({"faction", "units"}, {"money"}),
    "remove_units": ({"faction", "units"}, {"money"}),
    "leader": ({"faction", "leader"}, set()),
    "replace_leader": ({"remove", "add"}, set()),
    "rail": ({"faction", "amount"}, set()),
    "ori": ({"faction", "change"}, set()),
    "minor": ({"minor", "status"}, {"controller"}),
    "partisans": ({"where"}, set()),
    "cossack_raid": (set(), set()),
    "tank": ({"faction"}, set()),
    "coup_de_main": (set(), set()),
    "flag": ({"name"}, set()),
    "famine": (set(), set()),
    "infighting": ({"faction"}, set()),
    "combat": ({"modifier", "note"}, set()),
    "referee": ({"decide"}, set()),
    "wound_leader": ({"leader"}, set()),
}


def _load(name: str) -> Any:
    with open(GAME_DIR / f"{name}.yaml", encoding="utf-8") as f:
        return yaml.safe_load(f)


CARDS: list[dict[str, Any]] = _load("cards")["cards"]
UNITS = _load("units")
GAME = _load("game")
LEADERS = {lead["id"]: lead["faction"] for lead in UNITS["leaders"]}
UNIT_TYPES = set(UNITS["types"])
BY_TITLE = {c["title"].casefold(): c for c in CARDS}


def card(title: str) -> dict[str, Any]:
    return BY_TITLE[title.casefold()]


def effects(title: str) -> list[dict[str, Any]]:
    return card(title)["effect"]


def all_effects() -> list[tuple[str, dict[str, Any]]]:
    return [(c["id"], e) for c in CARDS for e in c["effect"]]


def effect_problems(e: dict[str, Any]) -> list[str]:
    """What is wrong with one structured effect (empty when it is valid)."""
    kind = e.get("do")
    if kind not in EFFECTS:
        return [f"unknown effect kind {kind!r}"]
    required, optional = EFFECTS[kind]
    out = [f"{kind}: missing {k}" for k in sorted(required - set(e))]
    out += [f"{kind}: unknown field {k}" for k in sorted(set(e) - required - optional - {"do", "note"})]
    if "note" in e and not (isinstance(e["note"], str) and e["note"].strip()):
        out.append(f"{kind}: note must be text")
    if kind in ("money", "manpower"):
        if ("amount" in e) == ("dice" in e):
            out.append(f"{kind}: exactly one of amount and dice")
        if "amount" in e and (type(e["amount"]) is not int or e["amount"] == 0):
            out.append(f"{kind}: amount must be a non-zero integer")
        if "dice" in e and e["dice"] not in (1, 2):
            out.append(f"{kind}: dice must be 1 or 2")
        if "lose" in e and ("dice" not in e or e["lose"] is not True):
            out.append(f"{kind}: lose: true goes with dice")
        if "halve" in e and e["halve"] is not True:
            out.append(f"{kind}: halve must be true")
        if "unless" in e and ("halve" not in e or e["unless"] not in FLAGS):
            out.append(f"{kind}: unless names a flag and goes with halve")
        if e.get("faction") not in FACTION_REFS:
            out.append(f"{kind}: bad faction {e.get('faction')!r}")
    elif kind in ("add_units", "remove_units"):
        if e.get("faction") not in UNIT_FACTIONS:
            out.append(f"{kind}: bad faction {e.get('faction')!r}")
        units = e.get("units")
        if not isinstance(units, dict) or set(units) - {"type", "full", "count"}:
            out.append(f"{kind}: units must be {{type, full?, count}}")
        else:
            if units.get("type") not in UNIT_TYPES:
                out.append(f"{kind}: bad unit type {units.get('type')!r}")
            count = units.get("count")
            if type(count) is not int or count < 1:
                out.append(f"{kind}: count must be a positive integer")
            full = units.get("full")
            if full is not None and not (isinstance(full, list) and len(full) == 2
                                         and all(type(v) is int and v >= 0 for v in full)):
                out.append(f"{kind}: full must be [attack, defence]")
        if "money" in e and (type(e["money"]) is not int or e["money"] < 0):
            out.append(f"{kind}: money must be a non-negative integer")
    elif kind == "leader":
        faction, leader = e.get("faction"), e.get("leader")
        if faction not in FACTION_REFS - {"target"}:
            out.append(f"leader: bad faction {faction!r}")
        if leader != "random_unused" and (leader not in LEADERS
                                          or faction in MAJORS and LEADERS[leader] != faction):
            out.append(f"leader: {leader!r} is not a leader of {faction}")
    elif kind == "replace_leader":
        for key in ("remove", "add"):
            if e.get(key) not in LEADERS:
                out.append(f"replace_leader: unknown leader {e.get(key)!r}")
    elif kind == "rail":
        if e.get("faction") not in FACTION_REFS - {"target"}:
            out.append(f"rail: bad faction {e.get('faction')!r}")
        if type(e.get("amount")) is not int or e["amount"] < 1:
            out.append("rail: amount must be a positive integer")
    elif kind == "ori":
        if e.get("faction") not in FACTION_REFS:
            out.append(f"ori: bad faction {e.get('faction')!r}")
        if e.get("change") not in (1, -1) or type(e.get("change")) is not int:
            out.append("ori: change must be +1 or -1")
    elif kind == "minor":
        if e.get("minor") not in MINORS:
            out.append(f"minor: unknown minor {e.get('minor')!r}")
        if e.get("status") not in MINOR_STATUSES:
            out.append(f"minor: bad status {e.get('status')!r}")
        controller = e.get("controller")
        if e.get("status") == "neutral" and controller is not None:
            out.append("minor: a neutral minor has no controller")
        if e.get("status") in ("limited", "active") and controller not in MAJORS | {"self"}:
            out.append(f"minor: bad controller {controller!r}")
    elif kind == "partisans":
        if e.get("where") not in ("red_zone", "white_zone"):
            out.append(f"partisans: bad where {e.get('where')!r}")
    elif kind in ("tank", "infighting"):
        allowed = {"self"} if kind == "tank" else MAJORS | {"self", "target"}
        if e.get("faction") not in allowed:
            out.append(f"{kind}: bad faction {e.get('faction')!r}")
    elif kind == "flag":
        if e.get("name") not in FLAGS:
            out.append(f"flag: unknown flag {e.get('name')!r}")
    elif kind == "combat":
        if not (isinstance(e.get("modifier"), dict) and e["modifier"]):
            out.append("combat: modifier must be a non-empty mapping")
        if not (isinstance(e.get("note"), str) and e["note"].strip()):
            out.append("combat: note must describe the field")
    elif kind == "referee":
        if not (isinstance(e.get("decide"), str) and e["decide"].strip()):
            out.append("referee: decide must say what the referee decides")
    return out


# --- the deck as a whole --------------------------------------------------------------------

def test_2_3_the_deck_has_54_cards():
    assert len(CARDS) == DECK_SIZE


def test_2_3_ids_and_titles_are_unique_and_ids_kebab_case():
    ids = Counter(c["id"] for c in CARDS)
    titles = Counter(c["title"].casefold() for c in CARDS)
    assert [i for i, n in ids.items() if n > 1] == []
    assert [t for t, n in titles.items() if n > 1] == []
    for c in CARDS:
        assert c["id"].replace("-", "").isalnum() and c["id"] == c["id"].lower(), c["id"]
        assert not c["id"].startswith("-") and "--" not in c["id"], c["id"]


@pytest.mark.parametrize("c", CARDS, ids=lambda c: c["id"])
def test_2_3_14_7_every_card_field_is_valid(c):
    allowed = {"id", "title", "phase", "years", "playable_by", "immediate", "remove", "rule",
               "text", "effect", "option"}
    assert set(c) - allowed == set()
    if "option" in c:  # 19.0: the campaign option of an optional rule the card belongs to
        assert c["option"] in GAME["options"] and "rule" in c
    assert {"id", "title", "phase", "immediate", "remove", "text", "effect"} <= set(c)
    assert isinstance(c["title"], str) and c["title"].strip()
    assert c["phase"] in PHASES
    if "years" in c:
        assert c["years"] and set(c["years"]) <= YEARS and len(set(c["years"])) == len(c["years"])
        assert all(type(y) is int for y in c["years"])
    if "playable_by" in c:
        assert c["playable_by"] and set(c["playable_by"]) <= MAJORS
        assert len(set(c["playable_by"])) == len(c["playable_by"])
    assert type(c["immediate"]) is bool and type(c["remove"]) is bool
    if "rule" in c:
        assert isinstance(c["rule"], str) and c["rule"][0].isdigit()
    assert isinstance(c["text"], str) and len(c["text"].strip()) > 20
    assert isinstance(c["effect"], list) and c["effect"], "at least one effect"
    for e in c["effect"]:
        assert isinstance(e, dict)
        assert effect_problems(e) == []


def test_effect_checker_rejects_what_it_should():
    assert effect_problems({"do": "teleport"})
    assert effect_problems({"do": "money", "faction": "red"})  # neither amount nor dice
    assert effect_problems({"do": "money", "faction": "red", "amount": 3, "dice": 1})
    assert effect_problems({"do": "rail", "faction": "red", "amount": 2, "stacks": 1})
    assert effect_problems({"do": "add_units", "faction": "red", "units": {"type": "zeppelin",
                                                                          "count": 1}})
    assert effect_problems({"do": "leader", "faction": "red", "leader": "wrangel"})
    assert effect_problems({"do": "minor", "minor": "poland", "status": "active"})
    assert effect_problems({"do": "flag", "name": "restore_the_tsar"})
    assert effect_problems({"do": "combat", "modifier": {"extra_dice": 1}})
    assert effect_problems({"do": "money", "faction": "red", "amount": 3}) == []


def test_every_effect_kind_is_allowed_and_referee_cards_are_few():
    kinds = Counter(e["do"] for _, e in all_effects())
    assert set(kinds) <= set(EFFECTS)
    referee_cards = {cid for cid, e in all_effects() if e["do"] == "referee"}
    assert len(referee_cards) <= MAX_REFEREE


def test_cards_are_spread_over_the_factions_and_the_years():
    """Not a rule: a deck playable by every side, with events in each year of the war."""
    for faction in MAJORS:
        own = [c for c in CARDS if faction in c.get("playable_by", MAJORS)]
        assert len(own) >= 20, faction
    for year in YEARS:
        assert len([c for c in CARDS if year in c.get("years", YEARS)]) >= 20, year


# --- the cards the rulebook names -------------------------------------------------------------

@pytest.mark.parametrize("title", RULEBOOK_TITLES)
def test_every_title_the_rulebook_names_is_in_the_deck(title):
    assert title.casefold() in BY_TITLE


@pytest.mark.parametrize("title", RULEBOOK_TITLES)
def test_the_frozen_titles_come_from_the_rulebook(title):
    assert title.casefold() in need_shared(RULES).read_text(encoding="utf-8").casefold()


def test_19_3_czech_legion_formed():
    c = card("Czech Legion formed")
    assert c["playable_by"] == ["siberian"] and c["remove"]
    assert effects("Czech Legion formed") == [
        {"do": "add_units", "faction": "siberian",
         "units": {"type": "inf", "full": [4, 2], "count": 2}, "money": 6}]
    # the same two units 19.3 sets aside (game.yaml setup.czech_legion)
    assert GAME["setup"]["czech_legion"]["remove"] == {"type": "inf", "full": [4, 2], "count": 2}


def test_19_3_czech_legion_quits():
    eff = effects("Czech Legion quits")
    removal = [e for e in eff if e["do"] == "remove_units"]
    assert len(removal) == 1 and removal[0]["faction"] == "siberian"
    assert removal[0]["units"] == {"type": "inf", "full": [4, 2], "count": 2}
    assert removal[0]["money"] == 6
    assert {"do": "money", "faction": "red", "amount": -3} in eff
    assert card("Czech Legion quits")["remove"]


def test_10_92_wrangel_takes_over():
    eff = effects("Wrangel takes over")
    assert {"do": "replace_leader", "remove": "denikin", "add": "wrangel"} in eff
    assert {"do": "flag", "name": "wrangel_takes_over"} in eff
    assert card("Wrangel takes over")["playable_by"] == ["south"]
    # 10.92, 20.3: Wrangel only enters through this card
    assert [lead["start"] for lead in UNITS["leaders"] if lead["id"] == "wrangel"] == ["card"]
    assert [cid for cid, e in all_effects() if e.get("leader") == "wrangel"
            or e.get("add") == "wrangel"] == ["wrangel-takes-over"]


def test_10_93_kolchak_coup_and_semenov_corruption():
    assert effects("Kolchak coup") == [{"do": "flag", "name": "kolchak_coup"}]
    assert card("Kolchak coup")["playable_by"] == ["siberian"]
    (semenov,) = effects("Semenov corruption")
    assert semenov["do"] == "money" and semenov["faction"] == "siberian"
    assert semenov["lose"] and semenov["halve"] and semenov["unless"] == "kolchak_coup"


def test_15_2_to_15_4_special_unit_cards():
    assert effects("Tank") == [{"do": "tank", "faction": "self"}]
    assert effects("Cossack Raid") == [{"do": "cossack_raid"}]
    assert set(card("Cossack Raid")["playable_by"]) <= WHITES
    places = [(cid, e["where"]) for cid, e in all_effects() if e["do"] == "partisans"]
    assert {w for _, w in places} == {"red_zone", "white_zone"}
    for cid, where in places:  # 15.2: Whites place in Red zones, the Reds in White zones
        playable = set(next(c for c in CARDS if c["id"] == cid).get("playable_by", MAJORS))
        assert playable <= ({"red"} if where == "white_zone" else WHITES), cid


def test_9_0_coup_de_main_and_19_2_famine_and_10_8_1_infighting():
    assert effects("Coup de main") == [{"do": "coup_de_main"}]
    assert card("Coup de main")["phase"] in ("action", "any")  # sieges are in the action phase
    assert effects("Famine") == [{"do": "famine"}]
    assert effects("Infighting") == [{"do": "infighting", "faction": "target"}]


def test_13_52_13_53_the_polish_cards():
    assert effects("On to Berlin!") == [{"do": "flag", "name": "on_to_berlin"}]
    assert effects("Greater Poland") == [{"do": "flag", "name": "greater_poland"}]
    # 13.52: "may be played again once these two countries are liberated"
    assert card("Greater Poland")["remove"] is False
    curzon = card("Curzon intervenes")
    assert curzon["playable_by"] == ["red"]
    assert {"do": "minor", "minor": "poland", "status": "neutral"} in curzon["effect"]
    assert {"do": "flag", "name": "curzon"} in curzon["effect"]


def test_20_4_red_reinforcement_cards_bring_back_the_five_units():
    def key(units: dict[str, Any]) -> tuple[str, tuple[int, ...]]:
        return units["type"], tuple(units["full"])

    removed: Counter[tuple[str, tuple[int, ...]]] = Counter()
    for group in GAME["setup"]["red"]["remove"]:
        removed[key(group)] += group["count"]
    brought: Counter[tuple[str, tuple[int, ...]]] = Counter()
    for c in CARDS:
        for e in c["effect"]:
            if e["do"] == "add_units" and e["faction"] == "red" and "full" in e["units"]:
                assert c.get("playable_by") == ["red"] and c["remove"], c["id"]
                brought[key(e["units"])] += e["units"]["count"]
    assert brought == removed
    assert sum(removed.values()) == 5


def test_10_6_new_leader_cards_name_leaders_that_can_arrive():
    leader_effects = [e for _, e in all_effects() if e["do"] == "leader"]
    assert len(leader_effects) >= 3
    by_id = {lead["id"]: lead for lead in UNITS["leaders"]}
    for e in leader_effects:
        if e["leader"] != "random_unused":
            assert by_id[e["leader"]]["start"] in ("spare", "random"), e


def test_7_6_19_1_rail_cards_for_reds_and_whites():
    rail = [(c, e) for c in CARDS for e in c["effect"] if e["do"] == "rail"]
    players = set().union(*(set(c.get("playable_by", MAJORS)) for c, _ in rail))
    assert "red" in players and players & WHITES


def test_14_71_immediate_cards_have_a_year():
    """2.3: an immediate card "must be played during the year indicated on it"."""
    for c in CARDS:
        if c["immediate"]:
            assert "years" in c, c["id"]
