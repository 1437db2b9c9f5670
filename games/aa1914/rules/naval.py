"""Sea battles, minefields and the repair of battleships.

Gathered from the same sources as the land battles (games/aa1914/README.md), with the
project's rulings where they are silent:

- a sea battle is fought in every sea zone where the power's ships end their move holding
  the other side's warships (or, by an `attack` order, its submarines and transports alone);
  it goes on round after round until one side has no warships left (TripleA: "Sea Battle
  Rounds" -1), or the attacker withdraws (SOURCES.md 6.1) by its standing `sea_withdraw`
  (`withdrawal`; by default never: it fights to the end);
- each round both sides fire, each ship hitting at or under its value; submarines fire with
  everyone (no first strike: TripleA's notes); a defending power's submarines submerge by
  its standing `submerge` (SOURCES.md 6.4, `_submerging`);
- a battleship takes two hits: the first damages it (it fights on), the second sinks it;
  losses by the owner's standing `sea_losses` order, by default damage to sound battleships
  first, then submarines, cruisers, damaged battleships, and transports last (TripleA
  "Transport Casualties Restricted"); transports left alone against warships are all lost
  (TripleA "Unescorted Transport Dies");
- a ship entering a sea zone of another side's minefield rolls a die: on a 1 it takes a
  hit (a sound battleship is damaged); its move goes on (the tournament rules add a stop);
  a transport carrying land units rolls likewise, and its cargo is lost with it (SOURCES.md
  6.7: "a 1 sinks it (cargo lost)"; `_cargo_mines`);
- at the start of its turn a power repairs, for nothing, its damaged battleships in a sea
  zone next to a territory with a port (map.yaml `mobilize: [sea]`) that it holds.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from pbem.game import Event, GameData, Rng, State
from pbem.kit import pools
from pbem.kit.events import Apply, Describe
from pbem.names import counted

from . import board, combat

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


SURFACE = ("cruiser", "battleship", "damaged_battleship")  # the warships that make a zone hostile (6.2)
WITHDRAW_KEYS = ("after_round", "when_outnumbered")


def withdrawal(state: State, pid: str) -> dict[str, Any]:
    """The power's standing `sea_withdraw` (6.1, a ruling): `{after_round: N}` and/or
    `{when_outnumbered: true}`; `never` or nothing: it fights to the end."""
    given = state.get("standing", {}).get(pid, {}).get("sea_withdraw")
    return dict(given) if isinstance(given, dict) else {}


def check_withdrawal(value: Any) -> str | None:
    """What is wrong with a standing `sea_withdraw`, or None."""
    if value == "never":
        return None
    if isinstance(value, dict) and value and set(value) <= set(WITHDRAW_KEYS):
        rounds = value.get("after_round", 1)
        if isinstance(rounds, int) and not isinstance(rounds, bool) and rounds >= 1 \
                and isinstance(value.get("when_outnumbered", False), bool):
            return None
    return ("when your attacking ships withdraw from a sea battle: never (the default), or "
            "{after_round: N} (a whole number from 1: after that round), {when_outnumbered: true} "
            "(after a round that leaves your ships' total attack below the defenders' total "
            "defence), or both")


def submerges(state: State, pid: str) -> bool:
    """The power's standing `submerge` (6.4, a ruling): true, its defending submarines
    submerge (`_submerging`); false or nothing: they fight to the end."""
    return state.get("standing", {}).get(pid, {}).get("submerge") is True


def _strength(data: GameData, fleet: dict[str, dict[str, int]], attacking: bool) -> int:
    """The fleet's total attack (or defence): the sum of its ships' values."""
    return sum(v for _, v in _fire(data, fleet, attacking))


def _withdraws(data: GameData, state: State, pid: str, fought: int,
               a: dict[str, dict[str, int]], d: dict[str, dict[str, int]]) -> str | None:
    """Why the attacker withdraws after round `fought` by its standing `sea_withdraw`, or None:
    the round is its `after_round`, or `when_outnumbered` and its ships' total attack left is
    below the defenders' total defence left (equal: it fights on)."""
    rule = withdrawal(state, pid)
    if rule.get("after_round") == fought:
        return f"after round {fought}"
    if rule.get("when_outnumbered") and _strength(data, a, True) < _strength(data, d, False):
        return (f"outnumbered: attack {_strength(data, a, True)} against defence "
                f"{_strength(data, d, False)}")
    return None


def _retreat(data: GameData, state: State, pid: str, came_from: Sequence[str]) -> str | None:
    """Where the attacking ships withdraw to (6.1, a ruling): the sea zone the first of its
    moves into the battle came from (the last zone before it) that holds none of the other
    side's cruisers or battleships now (6.2: submarines and transports do not make a zone
    hostile); None when there is none (ships that did not move in this turn have nowhere to
    withdraw to: they fight on)."""
    mine = board.side(data, pid)
    for zone in came_from:
        here = state["units"].get(zone, {})
        if not any(n and u in SURFACE for o, units in here.items() if board.side(data, o) != mine
                   for u, n in units.items()):
            return zone
    return None


def entries(moves: Sequence[Event], zone: str) -> list[str]:
    """The sea zones the power's ships entered `zone` from, in the order of its moves."""
    out: list[str] = []
    for m in moves:
        if m["to"] == zone and not m.get("transports"):
            last = (m.get("via") or [m["from"]])[-1]
            if last not in out:
                out.append(last)
    return out


def _submerging(state: State, d: dict[str, dict[str, int]]) -> dict[str, int]:
    """The defending submarines that submerge as a round after the first begins (6.4, a
    ruling): when every warship the defending side has left in the battle is a submarine,
    those of each defending power whose standing says `submerge: true`. They stay in the
    zone, out of the battle; the attacker's do not (it withdraws instead)."""
    if any(n for units in d.values() for u, n in units.items() if u in SURFACE):
        return {}
    return {o: units["submarine"] for o, units in d.items()
            if units.get("submarine") and submerges(state, o)}


def battle(data: GameData, state: State, pid: str, zone: str, rng: Rng,
           came_from: Sequence[str] = ()) -> list[Event]:
    """The sea battle of the power's turn in `zone`, to the end, or until the attacker
    withdraws to one of `came_from` (the zones its ships entered from) or the defender's
    submarines submerge."""
    label = f"r{state['turn']}:{pid}:{zone}"
    mine = board.side(data, pid)
    here = state["units"].get(zone, {})
    start_a = _fleet(state, zone, [pid])
    start_d = _fleet(state, zone, [o for o in here if board.side(data, o) != mine])
    a, d = start_a, start_d
    rounds: list[dict[str, Any]] = []
    under: dict[str, int] = {}
    withdrew: dict[str, Any] | None = None
    while _armed(a) and _armed(d) and len(rounds) < MAX_ROUNDS:
        k = len(rounds) + 1
        if k > 1:
            going = _submerging(state, d)
            if going:
                d = {o: {u: n for u, n in units.items() if not (u == "submarine" and o in going)}
                     for o, units in d.items()}
                under = {o: under.get(o, 0) + going.get(o, 0) for o in {*under, *going}}
                if not _armed(d):
                    break
        fa, fd = _fire(data, a, True), _fire(data, d, False)
        da = pools.roll(rng, f"{label}:sea{k}:attacker", len(fa))
        dd = pools.roll(rng, f"{label}:sea{k}:defender", len(fd))
        ha = sum(1 for (_, v), r in zip(fa, da, strict=True) if r <= v)
        hd = sum(1 for (_, v), r in zip(fd, dd, strict=True) if r <= v)
        rounds.append({"attacker": da, "defender": dd, "hits": [ha, hd]})
        a, d = take_hits(a, hd, sea_losses(state, pid)), take_hits(d, ha, _order(state, d))
        why = _withdraws(data, state, pid, k, a, d) if _armed(a) and _armed(d) else None
        to = _retreat(data, state, pid, came_from) if why else None
        if why and to:
            withdrew = {"to": to, "why": why}
            break
    if withdrew is None:
        for fleet, other in ((a, d), (d, a)):  # unescorted transports against warships are lost
            if not _armed(fleet) and _armed(other):
                for units in fleet.values():
                    units["transport"] = 0
    kept = {o: {**units, **({"submarine": units.get("submarine", 0) + under[o]} if o in under else {})}
            for o, units in d.items()}
    kept.update({o: {"submarine": n} for o, n in under.items() if o not in kept})
    sunk = {**_losses(start_a, a), **_losses(start_d, kept)}
    hurt = {o: units.get("damaged_battleship", 0) for o, units in {**a, **d}.items()}
    event: Event = {"type": "sea_battle", "power": pid, "where": zone,
                    "attackers": _plain(start_a), "defenders": _plain(start_d), "rounds": rounds,
                    "sunk": sunk, "damaged": {o: n for o, n in hurt.items() if n}}
    if under:
        event["submerged"] = dict(sorted(under.items()))
    if withdrew is not None:
        ships = _plain(a).get(pid, {})
        withdrew.update(units={u: n for u, n in sorted(ships.items()) if n},
                        damaged=event["damaged"].pop(pid, 0))
        event["withdrew"] = withdrew
    return [event]


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
    """The dice of the ships of a move that enter another side's minefields (6.7)."""
    if move.get("transports"):
        return _cargo_mines(data, state, pid, move, rng)
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


def loads(data: GameData, state: State, pid: str, move: Event) -> list[dict[str, int]]:
    """The cargo of each transport of a move of land units by sea (a ruling): the units in the
    order the power's standing `losses` loses them, `capacity` a transport, the first
    transports full and the last taking what is left."""
    capacity = int(board.unit_types(data)["transport"].get("capacity", 2))
    order = [*combat.loss_order(state, pid), *sorted(move["units"])]
    units = [u for kind in dict.fromkeys(order) for u in [kind] * move["units"].get(kind, 0)]
    out: list[dict[str, int]] = []
    for i in range(0, len(units), capacity):
        load: dict[str, int] = {}
        for u in units[i:i + capacity]:
            load[u] = load.get(u, 0) + 1
        out.append(load)
    return out


def _cargo_mines(data: GameData, state: State, pid: str, move: Event, rng: Rng) -> list[Event]:
    """The transports of a move of land units by sea, in each enemy minefield they enter (the
    zones of `via` after the first, where they stand): one die each, a 1 sinks it and its
    cargo (6.7 "a 1 sinks it (cargo lost)"); the others sail on. The position already has the
    transports in the last zone and the land units ashore."""
    out: list[Event] = []
    mine = board.side(data, pid)
    afloat = loads(data, state, pid, move)
    for zone in move["via"][1:]:
        owner = board.minefield(data, state, zone)
        if owner is None or board.side(data, owner) == mine or not afloat:
            continue
        dice = pools.roll(rng, f"r{state['turn']}:{pid}:{move['from']}:{zone}:mines:cargo", len(afloat))
        lost: dict[str, int] = {}
        for load, die in zip(afloat, dice, strict=True):
            for u, n in load.items():
                lost[u] = lost.get(u, 0) + (n if die == 1 else 0)
        afloat = [load for load, die in zip(afloat, dice, strict=True) if die != 1]
        sunk = sum(1 for die in dice if die == 1)
        out.append({"type": "mines", "power": pid, "where": zone, "moved_to": move["via"][-1],
                    "dice": dice, "sunk": {"transport": sunk} if sunk else {}, "damaged": 0,
                    "landed_in": move["to"], "cargo_lost": {u: n for u, n in lost.items() if n}})
    return out


def cargo_lost(events: Sequence[Event], territory: str) -> dict[str, int]:
    """The land units bound for `territory` lost with their transports in minefields."""
    out: dict[str, int] = {}
    for e in events:
        if e["type"] == "mines" and e.get("landed_in") == territory:
            for u, n in e["cargo_lost"].items():
                out[u] = out.get(u, 0) + n
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


def _sea_battle(data: GameData, state: State, event: Event) -> None:
    combat.remove_losses(state, event["where"], event["sunk"])
    fought = set(event["attackers"]) | set(event["defenders"])
    kept = {o: n for o, n in state.setdefault("damaged", {}).get(event["where"], {}).items()
            if o not in fought}
    state["damaged"][event["where"]] = {**kept, **event["damaged"]}
    if not state["damaged"][event["where"]]:
        del state["damaged"][event["where"]]
    if event.get("withdrew"):
        _withdraw(state, event["power"], event["where"], event["withdrew"])


def _mines(data: GameData, state: State, event: Event) -> None:
    to, pid = event["moved_to"], event["power"]
    here = state["units"][to][pid]
    hurt = damaged(state, to, pid) + event["damaged"] - event["sunk"].get("battleship", 0)
    for unit, n in event["sunk"].items():
        if here.get(unit, 0) < n:
            raise ValueError(f"{to} has fewer than {n} {unit} of {pid}")
        here[unit] -= n
    state["units"][to][pid] = {u: n for u, n in here.items() if n}
    if event.get("cargo_lost"):  # the land units the sunk transports carried
        ashore = state["units"][event["landed_in"]][pid]
        for unit, n in event["cargo_lost"].items():
            if ashore.get(unit, 0) < n:
                raise ValueError(f"{event['landed_in']} has fewer than {n} {unit} of {pid}")
            ashore[unit] -= n
        state["units"][event["landed_in"]][pid] = {u: n for u, n in ashore.items() if n}
    if hurt or damaged(state, to, pid):
        state.setdefault("damaged", {}).setdefault(to, {})[pid] = hurt
        state["damaged"] = {z: {o: k for o, k in owners.items() if k}
                            for z, owners in state["damaged"].items() if any(owners.values())}


def _repaired(data: GameData, state: State, event: Event) -> None:
    zone = event["where"]
    state["damaged"][zone][event["power"]] -= event["battleships"]
    state["damaged"][zone] = {o: n for o, n in state["damaged"][zone].items() if n}
    if not state["damaged"][zone]:
        del state["damaged"][zone]


APPLY: dict[str, Apply[GameData]] = {
    "sea_battle": _sea_battle,
    "mines": _mines,
    "repaired": _repaired,
}


def _withdraw(state: State, pid: str, zone: str, withdrew: dict[str, Any]) -> None:
    """The attacker's ships left after the battle sail to `withdrew['to']`, with their damage."""
    here, to = state["units"][zone][pid], withdrew["to"]
    there = state["units"].setdefault(to, {}).setdefault(pid, {})
    for unit, n in withdrew["units"].items():
        if here.get(unit, 0) < n:
            raise ValueError(f"{zone} has fewer than {n} {unit} of {pid}")
        here[unit] -= n
        there[unit] = there.get(unit, 0) + n
    state["units"][zone][pid] = {u: n for u, n in here.items() if n}
    if withdrew["damaged"]:
        dest = state.setdefault("damaged", {}).setdefault(to, {})
        dest[pid] = dest.get(pid, 0) + withdrew["damaged"]


def _told_sea_battle(data: GameData, event: Event) -> str:
    sunk = "; ".join(f"{_name(data, o)} loses {board.units_text(u)}" for o, u in event["sunk"].items()
                     if any(u.values())) or "no ship sunk"
    after = "".join(f"; {_name(data, o)}'s {counted(n, 'submarine')} submerge"
                    f"{'s' if n == 1 else ''}" for o, n in event.get("submerged", {}).items())
    if event.get("withdrew"):
        w = event["withdrew"]
        after += (f"; {_name(data, event['power'])} withdraws {board.units_text(w['units'])} to "
                  f"{board.name(data, w['to'])} ({w['why']})")
    return (f"{_name(data, event['power'])} attacks at {board.name(data, event['where'])}: "
            f"{len(event['rounds'])} round{'s' if len(event['rounds']) != 1 else ''}; {sunk}{after}")


def _told_mines(data: GameData, event: Event) -> str:
    told = [board.units_text(event["sunk"]) + " sunk"] if event["sunk"] else []
    if event["damaged"]:
        told.append(f"{event['damaged']} battleship{'s' if event['damaged'] != 1 else ''} damaged")
    if event.get("cargo_lost"):
        told[0] += f" with {board.units_text(event['cargo_lost'])} aboard"
    hit = "; ".join(told) or "no ship struck"
    return f"{_name(data, event['power'])}'s ships cross the minefield of {board.name(data, event['where'])}: {hit}"


def _told_repaired(data: GameData, event: Event) -> str:
    return (f"{_name(data, event['power'])} repairs {event['battleships']} battleship"
            f"{'s' if event['battleships'] != 1 else ''} at {board.name(data, event['where'])}")


DESCRIBE: dict[str, Describe[GameData]] = {
    "sea_battle": _told_sea_battle, "mines": _told_mines, "repaired": _told_repaired}


def _name(data: GameData, owner: str) -> str:
    try:
        return str(board.power(data, owner)["name"])
    except KeyError:
        return owner
