"""Sea battles, minefields and the repair of battleships.

Gathered from the same sources as the land battles (games/aa1914/README.md), with the
project's rulings where they are silent:

- a sea battle is fought in every sea zone where the power's ships end their move holding
  the other side's warships (or, by an `attack` order, its submarines and transports alone);
  it goes on round after round until one side has no warships left (TripleA: "Sea Battle
  Rounds" -1); withdrawing is not refereed yet (the attacker fights to the end);
- each round both sides fire, each ship hitting at or under its value; submarines fire with
  everyone (no first strike: TripleA's notes; submerging is not refereed);
- a battleship takes two hits: the first damages it (it fights on), the second sinks it;
  losses by the owner's standing `sea_losses` order, by default damage to sound battleships
  first, then submarines, cruisers, damaged battleships, and transports last (TripleA
  "Transport Casualties Restricted"); transports left alone against warships are all lost
  (TripleA "Unescorted Transport Dies");
- a ship entering a sea zone of another side's minefield rolls a die: on a 1 it takes a
  hit (a sound battleship is damaged); its move goes on (the tournament rules add a stop);
- at the start of its turn a power repairs, for nothing, its damaged battleships in a sea
  zone next to a territory with a port (map.yaml `mobilize: [sea]`) that it holds.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from pbem.game import Event, GameData, Rng, State
from pbem.kit import pools

from . import board

SEA_LOSSES = ("battleship", "submarine", "cruiser", "damaged_battleship", "transport")
MAX_ROUNDS = 100  # a guard: a battle where every die keeps missing still ends


def damaged(state: State, zone: str, owner: str) -> int:
    return int(state.get("damaged", {}).get(zone, {}).get(owner, 0))


def sea_losses(state: State, pid: str) -> list[str]:
    given = [u for u in (state.get("standing", {}).get(pid, {}).get("sea_losses") or [])
             if u in SEA_LOSSES]
    return [*given, *(u for u in SEA_LOSSES if u not in given)]


def _fleet(state: State, zone: str, owners: Sequence[str]) -> dict[str, dict[str, int]]:
    """The ships of `owners` in `zone`, a damaged battleship counted as `damaged_battleship`."""
    here = state["units"].get(zone, {})
    out: dict[str, dict[str, int]] = {}
    for owner in owners:
        units = {u: n for u, n in here.get(owner, {}).items() if n}
        if not units:
            continue
        hurt = min(damaged(state, zone, owner), units.get("battleship", 0))
        if hurt:
            units["battleship"] -= hurt
            units["damaged_battleship"] = hurt
        out[owner] = {u: n for u, n in units.items() if n}
    return out


def take_hits(fleet: dict[str, dict[str, int]], hits: int,
              order: Sequence[str]) -> dict[str, dict[str, int]]:
    """The fleet after `hits`, taken by `order`: a sound battleship hit becomes damaged, any
    other ship hit sinks; of several powers, the largest stack of the kind first."""
    left = {o: dict(u) for o, u in fleet.items()}
    for _ in range(hits):
        kind = next((k for k in order if any(units.get(k, 0) for units in left.values())), None)
        if kind is None:
            break
        owner = max(left, key=lambda o: (left[o].get(kind, 0), -list(left).index(o)))
        left[owner][kind] -= 1
        if kind == "battleship":
            left[owner]["damaged_battleship"] = left[owner].get("damaged_battleship", 0) + 1
    return left


def _ships(units: dict[str, int]) -> int:
    return sum(units.values())


def _fire(data: GameData, fleet: dict[str, dict[str, int]], attacking: bool) -> list[tuple[str, int]]:
    key = "attack" if attacking else "defence"
    types = board.unit_types(data)
    out = []
    for units in fleet.values():
        for kind, n in sorted(units.items()):
            value = int(types["battleship" if kind == "damaged_battleship" else kind][key])
            out += [(kind, value)] * n if value > 0 else []
    return out


def _armed(fleet: dict[str, dict[str, int]]) -> bool:
    return any(n for units in fleet.values() for u, n in units.items() if u != "transport")


def _losses(before: dict[str, dict[str, int]], after: dict[str, dict[str, int]]) -> dict[str, dict[str, int]]:
    """The ships sunk, by owner and type (a battleship, damaged or not, is a battleship)."""
    out: dict[str, dict[str, int]] = {}
    for owner, units in before.items():
        now = after.get(owner, {})
        for kind in sorted({"battleship", *units} - {"damaged_battleship"}):
            was = units.get(kind, 0) + (units.get("damaged_battleship", 0) if kind == "battleship" else 0)
            left = now.get(kind, 0) + (now.get("damaged_battleship", 0) if kind == "battleship" else 0)
            if was > left:
                out.setdefault(owner, {})[kind] = was - left
    return out


def battle(data: GameData, state: State, pid: str, zone: str, rng: Rng) -> list[Event]:
    """The sea battle of the power's turn in `zone`, to the end."""
    label = f"r{state['turn']}:{pid}:{zone}"
    mine = board.side(data, pid)
    here = state["units"].get(zone, {})
    start_a = _fleet(state, zone, [pid])
    start_d = _fleet(state, zone, [o for o in here if board.side(data, o) != mine])
    a, d = start_a, start_d
    rounds: list[dict[str, Any]] = []
    while _armed(a) and _armed(d) and len(rounds) < MAX_ROUNDS:
        k = len(rounds) + 1
        fa, fd = _fire(data, a, True), _fire(data, d, False)
        da = pools.roll(rng, f"{label}:sea{k}:attacker", len(fa))
        dd = pools.roll(rng, f"{label}:sea{k}:defender", len(fd))
        ha = sum(1 for (_, v), r in zip(fa, da, strict=True) if r <= v)
        hd = sum(1 for (_, v), r in zip(fd, dd, strict=True) if r <= v)
        rounds.append({"attacker": da, "defender": dd, "hits": [ha, hd]})
        a, d = take_hits(a, hd, sea_losses(state, pid)), take_hits(d, ha, _order(state, d))
    for fleet, other in ((a, d), (d, a)):  # unescorted transports against warships are lost
        if not _armed(fleet) and _armed(other):
            for units in fleet.values():
                units["transport"] = 0
    sunk = {**_losses(start_a, a), **_losses(start_d, d)}
    hurt = {o: units.get("damaged_battleship", 0) for o, units in {**a, **d}.items()}
    return [{"type": "sea_battle", "power": pid, "where": zone,
             "attackers": _plain(start_a), "defenders": _plain(start_d), "rounds": rounds,
             "sunk": sunk, "damaged": {o: n for o, n in hurt.items() if n}}]


def _plain(fleet: dict[str, dict[str, int]]) -> dict[str, dict[str, int]]:
    """A fleet as the state counts it: damaged battleships among the battleships."""
    out = {}
    for owner, units in fleet.items():
        u = {k: n for k, n in units.items() if k != "damaged_battleship"}
        if units.get("damaged_battleship"):
            u["battleship"] = u.get("battleship", 0) + units["damaged_battleship"]
        out[owner] = u
    return out


def _order(state: State, fleet: dict[str, dict[str, int]]) -> list[str]:
    largest = max(fleet, key=lambda o: _ships(fleet[o])) if fleet else ""
    return sea_losses(state, largest)


def mines(data: GameData, state: State, pid: str, move: Event, rng: Rng) -> list[Event]:
    """The dice of the ships of a move that enter another side's minefields."""
    out: list[Event] = []
    ships = [(u, n) for u, n in sorted(move["units"].items()) if board.domain(data, u) == "sea"]
    mine = board.side(data, pid)
    for zone in [*move["via"], move["to"]]:
        owner = board.minefield(data, state, zone)
        if owner is None or board.side(data, owner) == mine:
            continue
        count = sum(n for _, n in ships)
        dice = pools.roll(rng, f"r{state['turn']}:{pid}:{move['from']}:{zone}:mines", count)
        hit = [u for (u, n) in ships for _ in range(n)]
        struck = [u for u, r in zip(hit, dice, strict=True) if r == 1]
        sound = board.stack(state, move["to"], pid).get("battleship", 0) - damaged(state, move["to"], pid)
        sunk: dict[str, int] = {}
        hurt = 0
        for unit in struck:  # a sound battleship is damaged, any other ship (or a damaged one) sunk
            if unit == "battleship" and sound - hurt > 0:
                hurt += 1
            else:
                sunk[unit] = sunk.get(unit, 0) + 1
        out.append({"type": "mines", "power": pid, "where": zone, "moved_to": move["to"],
                    "dice": dice, "sunk": sunk, "damaged": hurt})
    return out


def repairs(data: GameData, state: State, pid: str) -> list[Event]:
    """The power's damaged battleships next to a port it holds, repaired for nothing."""
    ports = [t for t, v in data["map"]["territories"].items()
             if "sea" in (v.get("mobilize") or []) and state["control"].get(t) == pid
             and not board.contested(state, t)]
    out = []
    for zone, owners in sorted((state.get("damaged") or {}).items()):
        n = owners.get(pid, 0)
        if n and any(zone in board.adjacent(data, p) for p in ports):
            out.append({"type": "repaired", "power": pid, "where": zone, "battleships": n})
    return out


def apply(state: State, event: Event) -> bool:
    kind = event["type"]
    if kind == "sea_battle":
        here = state["units"][event["where"]]
        for owner, units in event["sunk"].items():
            for unit, n in units.items():
                if here.get(owner, {}).get(unit, 0) < n:
                    raise ValueError(f"{event['where']} has fewer than {n} {unit} of {owner}")
                here[owner][unit] -= n
            here[owner] = {u: n for u, n in here[owner].items() if n}
        fought = set(event["attackers"]) | set(event["defenders"])
        kept = {o: n for o, n in state.setdefault("damaged", {}).get(event["where"], {}).items()
                if o not in fought}
        state["damaged"][event["where"]] = {**kept, **event["damaged"]}
        if not state["damaged"][event["where"]]:
            del state["damaged"][event["where"]]
    elif kind == "mines":
        to, pid = event["moved_to"], event["power"]
        here = state["units"][to][pid]
        hurt = damaged(state, to, pid) + event["damaged"] - event["sunk"].get("battleship", 0)
        for unit, n in event["sunk"].items():
            if here.get(unit, 0) < n:
                raise ValueError(f"{to} has fewer than {n} {unit} of {pid}")
            here[unit] -= n
        state["units"][to][pid] = {u: n for u, n in here.items() if n}
        if hurt or damaged(state, to, pid):
            state.setdefault("damaged", {}).setdefault(to, {})[pid] = hurt
            state["damaged"] = {z: {o: k for o, k in owners.items() if k}
                                for z, owners in state["damaged"].items() if any(owners.values())}
    elif kind == "repaired":
        zone = event["where"]
        state["damaged"][zone][event["power"]] -= event["battleships"]
        state["damaged"][zone] = {o: n for o, n in state["damaged"][zone].items() if n}
        if not state["damaged"][zone]:
            del state["damaged"][zone]
    else:
        return False
    return True


def describe(data: GameData, event: Event) -> str | None:
    kind = event["type"]
    if kind == "sea_battle":
        sunk = "; ".join(f"{_name(data, o)} loses {board.units_text(u)}" for o, u in event["sunk"].items()
                         if any(u.values())) or "no ship sunk"
        return (f"{_name(data, event['power'])} attacks at {board.name(data, event['where'])}: "
                f"{len(event['rounds'])} round{'s' if len(event['rounds']) != 1 else ''}; {sunk}")
    if kind == "mines":
        told = [board.units_text(event["sunk"]) + " sunk"] if event["sunk"] else []
        if event["damaged"]:
            told.append(f"{event['damaged']} battleship{'s' if event['damaged'] != 1 else ''} damaged")
        hit = "; ".join(told) or "no ship struck"
        return f"{_name(data, event['power'])}'s ships cross the minefield of {board.name(data, event['where'])}: {hit}"
    if kind == "repaired":
        return (f"{_name(data, event['power'])} repairs {event['battleships']} battleship"
                f"{'s' if event['battleships'] != 1 else ''} at {board.name(data, event['where'])}")
    return None


def _name(data: GameData, owner: str) -> str:
    try:
        return str(board.power(data, owner)["name"])
    except KeyError:
        return owner
