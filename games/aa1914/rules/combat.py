"""Land battles: one round a turn, as A&A 1914 fights them.

The A&A 1914 rulebook is not among the project's sources. What is refereed here follows the
facts gathered for the project from public previews, the designer's own turn reports, forum
answers and three implementations of the game (games/aa1914/README.md lists them, with what
is a ruling of this project):

- a battle is fought in every territory the power's land units moved into that was hostile
  (held by the other side or a neutral, or holding the other side's units), and in every
  contested territory where the power orders `attack` (fighting again there is a choice);
  every unit of the power there fights, every unit of the other side defends;
- fighters first fight each other, hitting on 2, round after round until one side has none;
  a side left with fighters while the other has none has air supremacy: its artillery hit on
  one more (4), attacking or defending, and its fighters then fire in the land round;
- then one round: every attacking artillery raises one attacking infantry or tank from 2 to
  3; each unit hits on a roll at or under its value; both sides fire before losses are taken;
  each attacking tank cancels one of the defender's hits;
- each side takes its own losses, by its standing loss order, keeping its last infantry
  until nothing else is left; a side of several powers loses from the largest stack first;
- the attacker takes a territory whose defenders are all gone if its land units remain (an
  ally's own territory goes back to that ally); where both sides remain it is contested;
- the power that takes another's capital takes the IPCs in that power's treasury (in the
  civil war, Moscow taken from the Soviets by any Ally goes to Imperial Russia, and the
  Soviet treasury with it);
- after the armistice (the revolution house rule, rules/revolution.py) no battle is fought
  where Russian units stand, a territory retaken never goes back to Russia, and Russia's
  aligned neutrals join nobody;
- an amphibious assault (land units landing from transports into a territory that was not
  contested when the turn began) first meets the coastal defence: each defending artillery
  fires once at the landing units, hitting at its defence (3), each hit a landing unit lost
  before it fights; then the power's battleships in the sea zones the units came from
  bombard, one for each unit landed, once each at their attack (4), their hits counted with
  the attacker's in the round (the defenders they hit still fire).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from pbem.game import Event, GameData, Rng, State
from pbem.kit import pools
from pbem.kit.events import Apply, Describe
from pbem.names import counted

from . import board

LOSS_ORDER = ("infantry", "artillery", "tank", "fighter")  # the default standing loss order


@dataclass(frozen=True)
class Landing:
    """An amphibious assault's part of a battle: the land units that came ashore from
    transports this turn, and the power's battleships in the sea zones they came from."""

    units: dict[str, int]
    battleships: int
AIR_HIT = 2  # a fighter's value in the air battle (the XML's airAttack/airDefense)


def hostile(data: GameData, state: State, pid: str, territory: str) -> bool:
    """A territory a move of the power's land units into is an attack: held by another side
    or a neutral, or holding units of another side."""
    mine = board.side(data, pid)
    held = state["control"].get(territory)
    if any(board.out_of_war(state, o) and any(u.values())
           for o, u in state["units"].get(territory, {}).items()):
        return False  # the armistice: no battle where Russian units stand
    return board.side(data, held or "") != mine or any(
        board.side(data, owner) != mine and any(units.values())
        for owner, units in state["units"].get(territory, {}).items())


def sides_present(data: GameData, state: State, territory: str) -> set[str | None]:
    """The sides with units in a territory (None: neutrals)."""
    return {board.side(data, owner) for owner, units in state["units"].get(territory, {}).items()
            if any(units.values())}


def _force(data: GameData, state: State, territory: str, owners: Sequence[str]) -> dict[str, dict[str, int]]:
    here = state["units"].get(territory, {})
    return {o: {u: n for u, n in here.get(o, {}).items() if n} for o in owners
            if any(here.get(o, {}).values())}


def _count(force: dict[str, dict[str, int]], unit: str) -> int:
    return sum(units.get(unit, 0) for units in force.values())


def loss_order(state: State, pid: str) -> list[str]:
    """The power's standing loss order (standing `losses`), then the default for the rest."""
    given = [u for u in (state.get("standing", {}).get(pid, {}).get("losses") or [])
             if u in LOSS_ORDER]
    return [*given, *(u for u in LOSS_ORDER if u not in given)]


def take_losses(force: dict[str, dict[str, int]], hits: int, order: Sequence[str],
                only: Sequence[str] | None = None) -> dict[str, dict[str, int]]:
    """The units a side loses to `hits`: by `order`, the last infantry only when nothing else
    is left; of several powers, from the largest stack of the type first (ties: the first
    named). `only` limits the units that may be hit (the air battle's fighters)."""
    left = {o: dict(u) for o, u in force.items()}
    lost: dict[str, dict[str, int]] = {}
    allowed = list(only or order)

    def total() -> int:
        return sum(n for units in left.values() for u, n in units.items() if u in allowed)

    for _ in range(hits):
        if total() == 0:
            break
        others = sum(n for units in left.values() for u, n in units.items()
                     if u in allowed and u != "infantry")
        infantry = _count(left, "infantry") if "infantry" in allowed else 0
        pick = next(u for u in order if u in allowed and _count(left, u) > 0
                    and (u != "infantry" or infantry > 1 or others == 0))
        owner = max(left, key=lambda o: (left[o].get(pick, 0), -list(left).index(o)))
        left[owner][pick] -= 1
        lost.setdefault(owner, {})[pick] = lost.get(owner, {}).get(pick, 0) + 1
    return lost


def _minus(force: dict[str, dict[str, int]], lost: dict[str, dict[str, int]]) -> dict[str, dict[str, int]]:
    return {o: {u: n - lost.get(o, {}).get(u, 0) for u, n in units.items()} for o, units in force.items()}


def values(data: GameData, force: dict[str, dict[str, int]], attacking: bool,
           supremacy: bool) -> list[tuple[str, int]]:
    """Each unit's value in the land round, as (type, hit at or under): artillery raise one
    infantry or tank each when attacking; air supremacy raises artillery by one."""
    types = board.unit_types(data)
    key = "attack" if attacking else "defence"
    out: list[tuple[str, int]] = []
    raised = _count(force, "artillery") if attacking else 0
    for unit in LOSS_ORDER + tuple(u for u in types if u not in LOSS_ORDER):
        n = _count(force, unit)
        for _ in range(n):
            value = int(types[unit][key])
            if unit == "artillery" and supremacy:
                value += 1
            if unit in ("infantry", "tank") and raised > 0:
                value, raised = value + 1, raised - 1
            out.append((unit, value))
    return [(u, v) for u, v in out if v > 0]


def battle(data: GameData, state: State, pid: str, territory: str, rng: Rng,
           landing: Landing | None = None) -> list[Event]:
    """The land battle of the power's turn in `territory`: for an amphibious assault the
    coastal defence and the bombardment, then the air battle, the round, the losses, and
    what becomes of the territory."""
    label = f"r{state['turn']}:{pid}:{territory}"
    mine = board.side(data, pid)
    here = state["units"].get(territory, {})
    attackers = _force(data, state, territory, [pid])
    defenders = _force(data, state, territory, [o for o in here if board.side(data, o) != mine])
    if not any(n for units in defenders.values() for n in units.values()):
        # no unit defends it: no battle, no coastal defence, bombardment or round of dice;
        # the attacker's land units take it
        return _outcome(data, state, pid, territory, attackers, defenders)
    air: list[dict[str, Any]] = []
    a_lost: dict[str, dict[str, int]] = {}
    d_lost: dict[str, dict[str, int]] = {}
    a, d = attackers, defenders
    coastal: dict[str, Any] | None = None
    bombard: list[int] = []
    if landing is not None and landing.units:
        # coastal defence: each defending artillery one shot at the units landing (they take
        # their losses by their loss order, among themselves only)
        guns = _count(d, "artillery")
        shots = pools.roll(rng, f"{label}:coastal", guns)
        hits = pools.hits_at_or_under(shots, int(board.unit_types(data)["artillery"]["defence"]))
        sunk = take_losses({pid: dict(landing.units)}, hits, loss_order(state, pid),
                           only=list(landing.units))
        coastal = {"dice": shots, "hits": hits, "lost": sunk.get(pid, {})}
        a, a_lost = _minus(a, sunk), _add(a_lost, sunk)
        # bombardment: a battleship in the sea zone for each unit landed, one shot each
        ships = min(landing.battleships, sum(landing.units.values()))
        bombard = pools.roll(rng, f"{label}:bombard", ships)
    while _count(a, "fighter") and _count(d, "fighter"):  # the air battle, to the end
        k = len(air) + 1
        a_dice = pools.roll(rng, f"{label}:air{k}:attacker", _count(a, "fighter"))
        d_dice = pools.roll(rng, f"{label}:air{k}:defender", _count(d, "fighter"))
        a_hits, d_hits = pools.hits_at_or_under(a_dice, AIR_HIT), pools.hits_at_or_under(d_dice, AIR_HIT)
        hit_d = take_losses(d, a_hits, ["fighter"], only=["fighter"])
        hit_a = take_losses(a, d_hits, ["fighter"], only=["fighter"])
        air.append({"attacker": a_dice, "defender": d_dice, "hits": [a_hits, d_hits]})
        a, d = _minus(a, hit_a), _minus(d, hit_d)
        a_lost, d_lost = _add(a_lost, hit_a), _add(d_lost, hit_d)
    supremacy = ("attacker" if _count(a, "fighter") and not _count(d, "fighter") else
                 "defender" if _count(d, "fighter") and not _count(a, "fighter") else None)
    a_values = values(data, a, True, supremacy == "attacker")
    d_values = values(data, d, False, supremacy == "defender")
    a_dice = pools.roll(rng, f"{label}:attacker", len(a_values))
    d_dice = pools.roll(rng, f"{label}:defender", len(d_values))
    a_hits = sum(1 for (_, v), r in zip(a_values, a_dice, strict=True) if r <= v)
    a_hits += pools.hits_at_or_under(bombard, int(board.unit_types(data)["battleship"]["attack"]))
    d_hits = sum(1 for (_, v), r in zip(d_values, d_dice, strict=True) if r <= v)
    cancelled = min(d_hits, _count(a, "tank"))
    hit_d = take_losses(d, a_hits, loss_order(state, _largest(d)) if d else LOSS_ORDER)
    hit_a = take_losses(a, d_hits - cancelled, loss_order(state, pid))
    a_lost, d_lost = _add(a_lost, hit_a), _add(d_lost, hit_d)
    event: Event = {
        "type": "battle", "power": pid, "where": territory,
        "attackers": attackers, "defenders": defenders, "air": air, "supremacy": supremacy,
        "fire": {"attacker": [[u, v, r] for (u, v), r in zip(a_values, a_dice, strict=True)],
                 "defender": [[u, v, r] for (u, v), r in zip(d_values, d_dice, strict=True)]},
        "hits": {"attacker": a_hits, "defender": d_hits, "cancelled": cancelled},
        "losses": _add(a_lost, d_lost),
    }
    if coastal is not None:
        event["coastal"] = coastal
        event["bombard"] = bombard
    return [event, *_outcome(data, state, pid, territory, _minus(a, hit_a), _minus(d, hit_d))]


def _largest(force: dict[str, dict[str, int]]) -> str:
    return max(force, key=lambda o: (sum(force[o].values()), -list(force).index(o)))


def _add(x: dict[str, dict[str, int]], y: dict[str, dict[str, int]]) -> dict[str, dict[str, int]]:
    out = {o: dict(u) for o, u in x.items()}
    for owner, units in y.items():
        for unit, n in units.items():
            out.setdefault(owner, {})[unit] = out.get(owner, {}).get(unit, 0) + n
    return out


def _outcome(data: GameData, state: State, pid: str, territory: str,
             a: dict[str, dict[str, int]], d: dict[str, dict[str, int]]) -> list[Event]:
    land = sum(n for units in a.values() for u, n in units.items() if board.domain(data, u) == "land")
    anyone_a = any(n for units in a.values() for n in units.values())
    anyone_d = any(n for units in d.values() for n in units.values())
    held = state["control"].get(territory)
    if anyone_a and anyone_d:
        return [{"type": "control", "where": territory, "power": held, "contested": True}]
    if anyone_d or not land:
        return [{"type": "control", "where": territory, "power": held, "contested": False}]
    original = board.original_owner(data, territory)
    ally = (original != pid and board.side(data, original) == board.side(data, pid)
            and not board.out_of_war(state, original))  # armistice 2a: never Russian again
    capital = board.power(data, original)["capital"] if original != board.NEUTRAL else None
    # the civil war (a ruling): Moscow taken from the Soviets by any Ally goes back to
    # Imperial Russia, whose capital it is
    taker = original if ally and (state["control"].get(capital) == original or (
        board.civil_war(state) and territory == capital)) else pid
    events: list[Event] = [{"type": "control", "where": territory, "power": taker, "contested": False,
                            "taken_from": held}]
    loser = next((p["id"] for p in board.powers(data) if p["capital"] == territory
                  and p["id"] == held), None)
    if loser is not None and state["treasury"].get(loser, 0) > 0:
        # the treasury goes to the power that now holds the capital (the civil war: Imperial
        # Russia collects the Soviet bank when Moscow is retaken)
        events.append({"type": "capital_taken", "where": territory, "power": taker, "from": loser,
                       "ipc": state["treasury"][loser]})
    return events


def battlefields(data: GameData, state: State, pid: str, moves: Sequence[Event],
                 attacks: Sequence[str]) -> list[str]:
    """Where the power fights this turn, in the order its orders name them: every territory
    its land units moved into that was hostile when its turn began, then the contested
    territories its `attack` orders name."""
    out: list[str] = []
    for move in moves:
        to = move["to"]
        if not board.is_sea(to) and to not in out and hostile(data, state, pid, to) \
                and any(board.domain(data, u) == "land" for u in move["units"]):
            out.append(to)
    return out + [t for t in attacks if t not in out]


def neutral_entry(data: GameData, state: State, pid: str, territory: str) -> list[Event]:
    """A neutral aligned with a power (map.yaml `joins`) that a power enters: its territory
    and its units become that power's (the TripleA notes' ruling). Entered by that power's
    side, it is then friendly and no battle is fought; entered by the other side, its units
    defend as that power's. A true neutral's units defend as neutrals."""
    t = data["map"]["territories"][territory]
    if state["control"].get(territory) != board.NEUTRAL or not t.get("joins") \
            or board.out_of_war(state, t["joins"]):  # a ruling: its patron out of the war, a true neutral
        return []
    return [{"type": "neutral_joins", "where": territory, "power": t["joins"]}]


def remove_losses(state: State, where: str, losses: dict[str, dict[str, int]]) -> None:
    """Each owner's units lost in `where` taken off the board (a battle's, at sea or on land)."""
    here = state["units"][where]
    for owner, units in losses.items():
        for unit, n in units.items():
            if here.get(owner, {}).get(unit, 0) < n:
                raise ValueError(f"{where} has fewer than {n} {unit} of {owner}")
            here[owner][unit] -= n
        here[owner] = {u: n for u, n in here[owner].items() if n}


def _battle(data: GameData, state: State, event: Event) -> None:
    remove_losses(state, event["where"], event["losses"])


def _control(data: GameData, state: State, event: Event) -> None:
    where = event["where"]
    if event["power"] is not None:
        state["control"][where] = event["power"]
    contested = [t for t in state["contested"] if t != where]
    state["contested"] = sorted([*contested, where]) if event["contested"] else contested


def _neutral_joins(data: GameData, state: State, event: Event) -> None:
    where, power = event["where"], event["power"]
    state["control"][where] = power
    here = state["units"].setdefault(where, {})
    raised = here.pop(board.NEUTRAL, {})
    mine = here.setdefault(power, {})
    for unit, n in raised.items():
        mine[unit] = mine.get(unit, 0) + n


def _capital_taken(data: GameData, state: State, event: Event) -> None:
    state["treasury"][event["from"]] -= event["ipc"]
    state["treasury"][event["power"]] += event["ipc"]


APPLY: dict[str, Apply[GameData]] = {
    "battle": _battle,
    "control": _control,
    "neutral_joins": _neutral_joins,
    "capital_taken": _capital_taken,
}


def _told_battle(data: GameData, event: Event) -> str:
    name = board.power(data, event["power"])["name"]
    hits = event["hits"]
    cancelled = f" ({hits['cancelled']} cancelled by tanks)" if hits["cancelled"] else ""
    air = f" after {len(event['air'])} rounds of air battle" if event["air"] else ""
    if "coastal" in event:
        air = (f" from the sea (coastal defence: {event['coastal']['hits']} of "
               f"{len(event['coastal']['dice'])} hit; bombardment: {len(event['bombard'])} "
               f"shot{'s' if len(event['bombard']) != 1 else ''})") + air
    lost = "; ".join(f"{_owner(data, o)} loses {board.units_text(u)}"
                     for o, u in event["losses"].items() if any(u.values())) or "no losses"
    return (f"{name} attacks {board.name(data, event['where'])}{air}: "
            f"{counted(hits['attacker'], 'hit')} against {hits['defender']}{cancelled}; {lost}")


def _told_control(data: GameData, event: Event) -> str:
    where = board.name(data, event["where"])
    if event["contested"]:
        return f"{where} is contested"
    if "taken_from" in event:
        return f"{_owner(data, event['power'])} takes {where}"
    return f"{where} stays with {_owner(data, event['power'] or 'neutral')}"


def _told_neutral_joins(data: GameData, event: Event) -> str:
    return (f"{board.name(data, event['where'])} joins {_owner(data, event['power'])}, "
            "its units with it")


def _told_capital_taken(data: GameData, event: Event) -> str:
    return (f"{_owner(data, event['power'])} takes {event['ipc']} IPC from "
            f"{_owner(data, event['from'])}'s treasury with its capital")


DESCRIBE: dict[str, Describe[GameData]] = {
    "battle": _told_battle, "control": _told_control, "neutral_joins": _told_neutral_joins,
    "capital_taken": _told_capital_taken}


def _owner(data: GameData, owner: str) -> str:
    try:
        return str(board.power(data, owner)["name"])
    except KeyError:
        return owner
