"""Famine: optional rule 19.2, carried out when the Famine card is played (cards.yaml).

19.0: the famine rule is used only with the railways rule (19.1); the campaign option
`famine` requires the option `railways` (game.yaml `requires`, checked by `pbem new`).
Without the option the card stays in the deck and cannot be played (14.0: a card whose
condition of use is not met has no effect and may only be discarded; 3.0 takes out of the
deck only the Czech Legion card): see `cards.yaml` `option:` and `play.playable`.

What the rulebook leaves open is RECONSTRUCTED in game.yaml `famine:` (overridable by a
campaign's `overrides: {game: {famine: ...}}`):

- the zones struck: the listed large cities and industrial zones without a food centre
  that the Reds control when the card is played (and that are not starving already);
- the famine result: a starving zone yields no money and no manpower at the next
  collection (4.9), the same zone marker rule as a Cossack raid's (15.3, economy.NO_YIELD);
  the famine ends once that collection is made (`famine_over`).

The Red response (19.2), without a round trip by mail: the Reds' standing instruction
`famine_relief` lists the struck zones to try to save, in order (absent: every struck zone,
in the order of game.yaml's list; `[]`: none). Each attempt gives up one rail point for the
turn (a negative `rail_bonus`, 7.6, 19.1) and uses one food zone the Reds control, each
food zone once a turn, each struck zone at most one attempt a turn; attempts stop when the
food zones or the rail points left this turn run out. One die per attempt: 1-2 averted,
3-5 the famine applies, 6 it spreads to an adjacent Red zone (drawn with the dice among
several), where it cannot be averted.

The state holds `famine` ({zone: {turn, from}}: the starving zones until the next
collection) and `famine_relief` ({turn, food, zones}: what this turn's attempts used).
"""

from __future__ import annotations

from typing import Any

from pbem.game import Event, GameData, Problem, Rng, State
from pbem.kit.events import Describe, Ruled, Told

from .board import Board, board
from .common import label_part, rail_capacity

# 19.2: the Red response roll: 1-2 averted, 3-5 applies, 6 spreads
AVERTED, APPLIES, SPREADS = "averted", "applies", "spreads"


def result_of(roll: int) -> str:
    """19.2: what a die of the Red response does."""
    return AVERTED if roll <= 2 else APPLIES if roll <= 5 else SPREADS


def listed(b: Board) -> list[str]:
    """The zones the famine may strike (game.yaml famine.zones, RECONSTRUCTED)."""
    return [str(z) for z in (b.game.get("famine") or {}).get("zones") or []]


def check(data: GameData) -> list[str]:
    """game.yaml `famine:` (read by the data checks on load)."""
    b = board(data)
    spec = data["game"].get("famine")
    if spec is None:
        return []
    if not isinstance(spec, dict) or not isinstance(spec.get("zones"), list):
        return ["game.yaml: famine: expected {zones: [ZONE, ...]} (19.2)"]
    problems = []
    for zone in spec["zones"]:
        if zone not in b.zones:
            problems.append(f"game.yaml: famine.zones: unknown zone {zone!r}{b.places.suggest(str(zone))}")
        elif b.zones[zone].get("food"):
            problems.append(f"game.yaml: famine.zones: {zone} is a food centre; the famine strikes "
                            "the zones food must be brought to (19.2)")
    if len(set(spec["zones"])) != len(spec["zones"]):
        problems.append("game.yaml: famine.zones: a zone is listed twice")
    return problems


def check_standing(data: GameData, standing: dict[str, Any]) -> list[Problem]:
    """`famine_relief`: zone names (the list shape is checked with the other keys)."""
    zones = standing.get("famine_relief")
    if not isinstance(zones, list):
        return []
    b = board(data)
    return [Problem(("standing", "famine_relief", i), f"no zone {z!r}{b.places.suggest(z)}")
            for i, z in enumerate(zones) if isinstance(z, str) and z not in b.zones]


def starving(state: State) -> dict[str, Any]:
    return dict(state.get("famine") or {})


def _used(state: State) -> dict[str, Any]:
    """This turn's relief so far (19.2: each food zone once, each struck zone once)."""
    used = state.get("famine_relief") or {}
    if used.get("turn") != state["turn"]:
        return {"turn": state["turn"], "food": [], "zones": []}
    return {"turn": used["turn"], "food": list(used["food"]), "zones": list(used["zones"])}


def food_left(b: Board, state: State) -> list[str]:
    """19.2: the food-producing zones the Reds control not yet counted this turn, by name."""
    used = _used(state)["food"]
    return sorted(z for z, spec in b.zones.items()
                  if spec.get("food") and state["control"].get(z) == "red" and z not in used)


def rail_left(b: Board, state: State) -> int:
    """7.6, 19.1: the Reds' rail movements not yet used this turn."""
    return rail_capacity(b, state, "red") - int(state["rail_used"].get("red", 0))


def struck(b: Board, state: State) -> list[str]:
    """The listed zones the Reds control and that are not starving already."""
    return [z for z in listed(b) if state["control"].get(z) == "red" and z not in starving(state)]


def relief_order(state: State, zones: list[str]) -> list[str]:
    """The Reds' standing `famine_relief` (zones to try to save, in order), else all."""
    wanted = (state["standing"].get("red") or {}).get("famine_relief")
    if wanted is None:
        return list(zones)
    out: list[str] = []
    for zone in wanted:
        if zone in zones and zone not in out:
            out.append(zone)
    return out


def famine(data: GameData, state: State, play: dict[str, Any], rng: Rng, why: str) -> list[Event]:
    """19.2: the Famine card. The struck zones, the Red attempts to avert it (standing
    `famine_relief`), then the famine in every struck zone not saved."""
    from .fold import Folding

    if not state["options"].get("famine"):
        return [{"type": "note", "zone": "", "text": f"{why}: no effect, optional rule 19.2 "
                 "(campaign option famine) is not used (19.0)"}]
    b = board(data)
    zones = struck(b, state)
    if not zones:
        return [{"type": "note", "zone": "", "text": f"{why}: no Red city without food to strike (19.2)"}]
    turn = int(state["turn"])
    log = Folding(b, state)
    emit = log.emit
    saved: set[str] = set()
    for zone in relief_order(state, zones):
        food = food_left(b, log.state)
        if not food or rail_left(b, log.state) < 1:
            break
        if zone in _used(log.state)["zones"]:
            continue  # 19.2 one attempt per zone per turn
        roll = rng.roll(f"famine:t{turn}:{label_part(zone)}", 6)
        result = result_of(roll)
        emit({"type": "famine_relief", "faction": "red", "zone": zone, "food": food[0], "roll": roll,
              "result": result})
        if result == AVERTED:
            saved.add(zone)
        elif result == SPREADS:
            near = sorted(n for n in b.routes.get(zone, {}) if n in b.zones
                          and log.state["control"].get(n) == "red" and n not in zones
                          and n not in starving(log.state))
            if not near:
                emit({"type": "note", "zone": zone, "text": "the famine finds no other Red zone "
                      f"next to {zone} to spread to (19.2)"})
                continue
            to = rng.choice(f"famine:t{turn}:{label_part(zone)}:spread", near)
            emit({"type": "famine", "zone": to, "from": zone, "why": why})
    for zone in zones:
        if zone not in saved:
            emit({"type": "famine", "zone": zone, "from": None, "why": why})
    return log.events


def ended(state: State) -> list[Event]:
    """After the collection (4.9) the famine is over: its zones yield again."""
    zones = sorted(starving(state))
    return [{"type": "famine_over", "zones": zones}] if zones else []


# ---------------------------------------------------------------------------------------
# folding


def _famine(b: Board, s: State, e: Event) -> None:
    for key in ("zone", "from"):
        if e.get(key) is not None and e[key] not in b.zones:
            raise ValueError(f"no zone {e[key]!r}")
    s.setdefault("famine", {})[e["zone"]] = {"turn": int(s["turn"]), "from": e.get("from")}


def _relief(b: Board, s: State, e: Event) -> None:
    """19.2: one rail point given up for the turn (7.6 rail_bonus, cleared at the turn's
    end), one food zone and one attempt for the struck zone used this turn."""
    for key in ("zone", "food"):
        if e[key] not in b.zones:
            raise ValueError(f"no zone {e[key]!r}")
    if not b.zones[e["food"]].get("food"):
        raise ValueError(f"{e['food']} is no food-producing zone (19.2)")
    used = _used(s)
    if e["food"] in used["food"]:
        raise ValueError(f"{e['food']} was counted already this turn (19.2)")
    if e["zone"] in used["zones"]:
        raise ValueError(f"the Reds tried to save {e['zone']} already this turn (19.2)")
    used["food"].append(e["food"])
    used["zones"].append(e["zone"])
    s["famine_relief"] = used
    bonus = s.setdefault("rail_bonus", {})
    bonus["red"] = int(bonus.get("red", 0)) - 1


def _over(_b: Board, s: State, e: Event) -> None:
    s.pop("famine", None)


APPLY = {"famine": _famine, "famine_relief": _relief, "famine_over": _over}


def _told_famine(b: Board, e: Event) -> str:
    result = "it yields no money and no manpower at the next collection (4.9, 19.2)"
    if e.get("from"):
        return f"famine spreads from {e['from']} to {e['zone']}, where it cannot be averted: {result}"
    return f"famine strikes {e['zone']}: {result}"


def _told_famine_relief(b: Board, e: Event) -> str:
    told = {AVERTED: "averted", APPLIES: "the famine applies", SPREADS: "the famine spreads"}
    return (f"the Reds give up a rail point to save {e['zone']} with the grain of {e['food']}: "
            f"rolled {e['roll']}, {told.get(e['result'], e['result'])} (19.2)")


DESCRIBE: dict[str, Describe[Board]] = {
    "famine": Ruled(_told_famine, "4.9, 19.2"),
    "famine_relief": Ruled(_told_famine_relief, "19.2"),
    "famine_over": Told("the famine is over in {zones}: they yield again", "19.2"),
}

