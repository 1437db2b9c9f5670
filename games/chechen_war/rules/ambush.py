"""The Chechen Ambush Segment (14.0) and the Russian gunship threat (14.2).

In the Russian movement file, gunship markers threaten hexes (14.2: "at the end of any
Russian Movement Segment ... in any Russian occupied hexes")::

    orders:
      - gunship: "1525"

The Chechen's ambush file, the ambushes in the order he declares them (14.1: one at a time,
each resolved before the next)::

    orders:
      - ambush: {from: "1426", target: "1525"}
      - ambush: {from: "1325", target: "1326", support: "1226", leader: ch_basayev}
      - free: {from: "1226", support: "1126"}

and the free ambushes (the `free` orders) he holds ready for units that retreat (14.3).

What is refereed, rule by rule:
- 14.1: an ambush from a Chechen-occupied hex against a Russian-occupied hex in its zone of
  control; one ambush against a hex; a hex conducts one ambush or supports one (a support
  hex: Chechen-occupied, next to the ambushed hex, not the ambushing hex), not both;
- 10.1: not against a hex the ambushers could not enter (8.2: outside Chechnya only militia,
  and only in Dagestan and Ingushetia; which units are militia is sealed, checked where the
  reader's key opens them, as for movement);
- 14.2: no ambush against a hex a gunship threatens;
- 14.3: one leader from the underground into the ambushing hex; one die with the table's
  modifiers (tables.yaml `ambush`); the results no effect, retreat (half a die rounded up of
  the hex's units retreat), the loss of one or two steps; nothing is revealed, nobody
  advances. The Russian's choices (which units retreat, which lose steps, where they go)
  come from his standing instructions `retreat_first`, `step_losses` (unit ids, in order)
  and `retreat_to` (hexes, in order), else from the rulings in README.md;
- 14.3: a retreat springs the first free ambush ready next to the hex retreated into, even
  from a hex that ambushed or supported already; its retreat may spring another.
"""

from __future__ import annotations

from typing import Any

from pbem.game import Event, GameData, Problem, Rng, State
from pbem.kit.events import Apply, Describe, Ruled, Told, recorded
from pbem.kit.tables import Modifier, halve_up, read
from pbem.names import suggest

from .board import (
    CHECHEN,
    RUSSIAN,
    Board,
    board,
    bodies,
    ceasefire_turn,
    folding,
    hex_in,
    stacking,
    units,
)
from .movement import chechen_zoc, identity

Path_ = tuple[str | int, ...]


def chechen_hexes(state: State) -> dict[str, list[str]]:
    out: dict[str, list[str]] = {}
    for token, spec in sorted(state["tokens"].items()):
        out.setdefault(spec["hex"], []).append(token)
    return out


def russian_hexes(state: State) -> dict[str, list[str]]:
    out: dict[str, list[str]] = {}
    for unit, spec in sorted(state["russians"].items()):
        out.setdefault(spec["hex"], []).append(unit)
    return out


def read_gunships(data: GameData, state: State, items: list[tuple[int, Any]], ends: dict[str, str],
                  problems: list[Problem]) -> list[str]:
    """The hexes the Russian's gunship orders threaten, checked against where his units end
    the segment (`ends`: unit -> hex)."""
    b = board(data)
    hexes: list[str] = []
    have = int(state["supports"][RUSSIAN].get("gunship", 0))
    occupied = set(ends.values())
    for i, value in items:
        at: Path_ = ("orders", i, "gunship")
        hex_id = hex_in(b, value, at, problems)
        if hex_id is None:
            continue
        if ceasefire_turn(state):
            problems.append(Problem(at, "no ambush in the ceasefire turn: no gunship threatens (15.2)"))
        elif hex_id not in occupied:
            problems.append(Problem(at, f"{b.label(hex_id)} holds no Russian unit at the end of "
                                    "the segment: a gunship threatens a Russian-occupied hex (14.2)"))
        elif hex_id in hexes:
            problems.append(Problem(at, f"{b.label(hex_id)} is threatened already"))
        elif len(hexes) == have:
            problems.append(Problem(at, f"{have} gunship marker{'s' if have != 1 else ''} "
                                    "available (14.2)"))
        else:
            hexes.append(hex_id)
    return hexes


def may_strike(data: GameData, b: Board, state: State, tokens: list[str], target: str,
               verb: str = "ambush") -> str | None:
    """Why Chechen units may not ambush (or attack) a hex they could not enter (10.1, 8.2),
    or None."""
    region = b.region[target]
    if region == "chechnya":
        return None
    if region not in ("dagestan", "ingushetia"):
        return (f"{b.label(target)} is outside Chechnya: Chechen units cannot enter it, so they "
                f"cannot {verb} there (10.1, 8.2)")
    regulars = [t for t in tokens if identity(state, CHECHEN, t) is not None
                and units(data)[str(identity(state, CHECHEN, t))]["nationality"] != "chechen_militia"]
    if regulars:
        return (f"{', '.join(regulars)} {'is' if len(regulars) == 1 else 'are'} not militia: only "
                f"militia enter {region.title()}, and so {verb} there (10.1, 8.2)")
    return None


def read_ambushes(data: GameData, state: State, orders: dict[str, Any],
                  problems: list[Problem]) -> list[dict[str, Any]]:
    """The Chechen's ambushes, checked in order (14.1-14.3)."""
    b = board(data)
    mine, theirs = chechen_hexes(state), russian_hexes(state)
    zoc_of = {h: set(b.grid.neighbours(h)) for h in mine}
    threatened = set(state.get("gunships") or [])
    used: set[str] = set()
    targets: set[str] = set()
    leaders: set[str] = set()
    out: list[dict[str, Any]] = []
    for _i, at, body in bodies(orders, "ambush", {"from", "target"}, {"support", "leader"},
                               '{ambush: {from: "CCRR", target: "CCRR"}}, with support: "CCRR" and '
                               'leader: LEADER if you wish; or {free: {from: "CCRR"}}', problems,
                               others=("free",)):
        found = len(problems)
        frm = hex_in(b, body["from"], (*at, "from"), problems)
        target = hex_in(b, body["target"], (*at, "target"), problems)
        support = hex_in(b, body["support"], (*at, "support"), problems) if "support" in body else None
        if frm is None or target is None or len(problems) > found:
            continue
        if frm not in mine:
            problems.append(Problem((*at, "from"), f"{b.label(frm)} holds none of your units"))
        elif target not in theirs:
            problems.append(Problem((*at, "target"), f"{b.label(target)} holds no Russian unit"))
        elif target not in zoc_of[frm]:
            problems.append(Problem((*at, "target"), f"{b.label(target)} is not in the zone of "
                                    f"control of {b.label(frm)} (14.1)"))
        elif target in threatened:
            problems.append(Problem((*at, "target"), f"a gunship threatens {b.label(target)}: it "
                                    "cannot be ambushed (14.2)"))
        elif target in targets:
            problems.append(Problem((*at, "target"), f"{b.label(target)} is ambushed once a segment (14.1)"))
        elif frm in used:
            problems.append(Problem((*at, "from"), f"{b.label(frm)} conducts or supports one "
                                    "ambush a segment, not both (14.1)"))
        else:
            why = may_strike(data, b, state, mine[frm], target)
            if why is not None:
                problems.append(Problem((*at, "target"), why))
        if support is not None and len(problems) == found:
            if support not in mine or support == frm or target not in zoc_of.get(support, set()):
                problems.append(Problem((*at, "support"), f"a support hex is another hex of your "
                                        f"units next to {b.label(target)} (14.1)"))
            elif support in used:
                problems.append(Problem((*at, "support"), f"{b.label(support)} conducts or supports "
                                        "one ambush a segment, not both (14.1)"))
        leader = body.get("leader")
        if leader is not None and len(problems) == found:
            known = sorted(state["leaders"])
            if leader not in state["leaders"]:
                problems.append(Problem((*at, "leader"), f"{leader!r} is not a leader"
                                        f"{suggest(str(leader), known)}"))
            elif state["leaders"][leader] != "underground" or leader in leaders:
                problems.append(Problem((*at, "leader"), f"{leader} is not in the underground box "
                                        "(14.3: a leader comes from there)"))
        if len(problems) == found:
            used.update({frm, *([support] if support else [])})
            targets.add(target)
            if leader is not None:
                leaders.add(str(leader))
            out.append({"from": frm, "target": target, "support": support, "leader": leader})
    return out


def read_free(data: GameData, state: State, orders: dict[str, Any],
              problems: list[Problem]) -> list[dict[str, Any]]:
    """The Chechen's free ambushes, ready to spring on Russian units that retreat into a
    hex next to them (14.3), in the order he prefers them::

        - free: {from: "1226", support: "1126", leader: ch_gelayev}

    Each springs at most once, from a hex of his units, however many ambushes it conducted
    or supported (14.3: "an additional free ambush attempt")."""
    b = board(data)
    mine = chechen_hexes(state)
    out: list[dict[str, Any]] = []
    for _i, at, body in bodies(orders, "free", {"from"}, {"support", "leader"},
                               '{free: {from: "CCRR"}}, with support: "CCRR" and leader: LEADER if '
                               "you wish", problems, others=("ambush",)):
        found = len(problems)
        frm = hex_in(b, body["from"], (*at, "from"), problems)
        support = hex_in(b, body["support"], (*at, "support"), problems) if "support" in body else None
        if frm is not None and frm not in mine:
            problems.append(Problem((*at, "from"), f"{b.label(frm)} holds none of your units"))
        if support is not None and (support not in mine or support == frm):
            problems.append(Problem((*at, "support"), "a support hex is another hex of your units (14.1)"))
        leader = body.get("leader")
        if leader is not None and leader not in state["leaders"]:
            problems.append(Problem((*at, "leader"), f"{leader!r} is not a leader"
                                    f"{suggest(str(leader), sorted(state['leaders']))}"))
        if len(problems) == found:
            out.append({"from": frm, "support": support, "leader": leader})
    return out


def _springs(data: GameData, b: Board, state: State, frees: list[dict[str, Any]], used: set[int],
             to: str) -> dict[str, Any] | None:
    """The first free ambush ready for units that retreated into `to` (14.3), or None. Ruled:
    only into a Chechnya hex (outside it, only militia may strike, 8.2, and which units are
    militia is sealed: the referee must not decide on it where the public cannot check it),
    not where a gunship threatens (14.2); its support only if next to `to`; its leader only
    if he is in the underground box then."""
    if b.region[to] != "chechnya" or to in (state.get("gunships") or []):
        return None
    mine = chechen_hexes(state)
    for k, free in enumerate(frees):
        if k in used or free["from"] not in mine or not b.grid.adjacent(free["from"], to):
            continue
        used.add(k)
        support = free["support"] if free["support"] in mine and b.grid.adjacent(free["support"], to) else None
        leader = free["leader"] if free["leader"] and state["leaders"].get(free["leader"]) == "underground" else None
        return {"from": free["from"], "target": to, "support": support, "leader": leader, "free": True}
    return None


def modifiers(data: GameData, b: Board, ambush: dict[str, Any]) -> list[Modifier]:
    """14.3 a-d, as tables.yaml gives them."""
    mods = data["tables"]["ambush"]["modifiers"]
    terrain = b.terrain[ambush["from"]]
    out = [Modifier(int(mods["terrain"].get(terrain, 0)), f"the ambushers in {terrain} (14.3)")]
    if ambush["leader"]:
        out.append(Modifier(int(mods["leader"]), "a leader (14.3 b)"))
    if ambush["support"]:
        out.append(Modifier(int(mods["support"]), "a supporting hex (14.3 c)"))
    return [m for m in out if m.amount]


def resolve(data: GameData, state: State, ambushes: list[dict[str, Any]], rng: Rng,
            frees: list[dict[str, Any]] | None = None) -> list[Event]:
    """Each ambush in order: the leader placed, the die, the result; a retreat may spring
    one of the Chechen's free ambushes on the hex retreated into, fought at once (14.3),
    and its own retreat another."""
    b = board(data)
    segment = folding(data, state)
    queue = list(ambushes)
    used: set[int] = set()
    k = 0
    while queue:
        ambush = queue.pop(0)
        k += 1
        if ambush["leader"]:
            segment.emit({"type": "leader_placed", "leader": ambush["leader"], "hex": ambush["from"]})
        kind = "free" if ambush.get("free") else "ambush"
        roll = rng.roll(f"t{state['turn']}:{kind}{k}:{ambush['from']}-{ambush['target']}")
        got = read(data["tables"]["ambush"]["table"], roll, modifiers(data, b, ambush))
        segment.emit({"type": "ambush", **ambush, "roll": roll,
                      "modifiers": [[m.amount, m.reason] for m in got.modifiers],
                      "total": got.total, "result": got.result})
        follow = _result(data, b, segment.state, ambush, str(got.result), rng, k)
        segment.take(follow)
        moved = [e["to"] for e in follow if e["type"] == "retreated" and e["to"] != e["from"]]
        spring = _springs(data, b, segment.state, frees or [], used, moved[0]) if moved else None
        if spring is not None:
            queue.insert(0, spring)
    return segment.events


def _result(data: GameData, b: Board, state: State, ambush: dict[str, Any], result: str,
            rng: Rng, k: int) -> list[Event]:
    here = [u for u, v in sorted(state["russians"].items()) if v["hex"] == ambush["target"]]
    if result.startswith("lose_"):
        lost = step_losses(data, state, here, int(result.split("_")[1]))
        reduced = [u for u, n in lost.items() if n == 1 and steps_left(data, state, u) == 2]
        return [{"type": "steps_lost", "steps": sum(lost.values()), "reduced": reduced,
                 "eliminated": [u for u in lost if u not in reduced],
                 "why": f"ambush from {ambush['from']}"}]
    if result == "retreat":
        die = rng.roll(f"t{state['turn']}:ambush{k}:retreat")
        count = min(halve_up(die), len(here))
        order = _standing_order(state, "retreat_first", here, lambda u: (cf(data, state, u), u))
        going = order[:count]
        to = _retreat_hex(data, b, state, ambush, len(going))
        return [{"type": "retreat_roll", "roll": die, "count": count},
                {"type": "retreated", "units": going, "from": ambush["target"], "to": to}]
    return []


def cf(data: GameData, state: State, unit: str) -> int:
    spec = units(data)[unit]
    if state["russians"][unit].get("reduced") and "reduced" in spec:
        return int(spec["reduced"]["cf"])
    return int(spec["cf"])


def _standing_order(state: State, key: str, candidates: list[str], rank: Any) -> list[str]:
    """The Russian's standing order for `key` (unit ids) first, then the rest by `rank`."""
    given = [u for u in (state.get("standing", {}).get(RUSSIAN, {}).get(key) or []) if u in candidates]
    return [*given, *sorted((u for u in candidates if u not in given), key=rank)]


def steps_left(data: GameData, state: State, unit: str) -> int:
    full_two = units(data)[unit].get("steps", 1) == 2 and not state["russians"][unit].get("reduced")
    return 2 if full_two else 1


def step_losses(data: GameData, state: State, here: list[str], steps: int) -> dict[str, int]:
    """Which units lose the steps, one step at a time: the units of the standing
    `step_losses` first, in its order; else (a ruling) a full-strength two-step unit is
    reduced, the strongest of them, else a one-step or reduced unit is lost, the weakest."""
    given = [u for u in (state.get("standing", {}).get(RUSSIAN, {}).get("step_losses") or [])
             if u in here]
    out: dict[str, int] = {}
    for _ in range(steps):
        alive = [u for u in here if steps_left(data, state, u) > out.get(u, 0)]
        if not alive:
            break

        def rank(u: str) -> tuple[int, int, str]:
            full = steps_left(data, state, u) - out.get(u, 0) == 2
            strength = cf(data, state, u) if not out.get(u) else int(units(data)[u]["reduced"]["cf"])
            return (0 if full else 1, -strength if full else strength, u)

        chosen = next((u for u in given if u in alive), None) or min(alive, key=rank)
        out[chosen] = out.get(chosen, 0) + 1
    return out


def _retreat_hex(data: GameData, b: Board, state: State, ambush: dict[str, Any], count: int) -> str:
    """Where the retreating units go (14.3 does not say): an adjacent hex free of Chechen
    units with room for them, the first of the Russian's standing `retreat_to` hexes among
    them, else (a ruling) out of Chechen zones of control if one is, then the farthest from
    the ambushing hex, then the lowest id; if none has room, they stay."""
    target = ambush["target"]
    enemy = {t["hex"] for t in state["tokens"].values()}
    zoc = chechen_zoc(b, state)
    held = russian_hexes(state)
    room = [h for h in b.grid.neighbours(target) if h not in enemy
            and len(held.get(h, [])) + count <= stacking(data, b, h)]
    if not room:
        return str(target)
    chosen = [h for h in state.get("standing", {}).get(RUSSIAN, {}).get("retreat_to") or [] if h in room]
    if chosen:  # 14.2's example: the Russian chooses where
        return str(chosen[0])
    return min(room, key=lambda h: (h in zoc, -b.grid.distance(h, ambush["from"]), h))


def _gunships(data: GameData, state: State, event: Event) -> None:
    state["gunships"] = list(event["hexes"])
    have = state["supports"][RUSSIAN]
    have["gunship"] = int(have.get("gunship", 0)) - len(event["hexes"])
    used = state.setdefault("used_supports", {}).setdefault(RUSSIAN, {})
    used["gunship"] = int(used.get("gunship", 0)) + len(event["hexes"])


def _leader_placed(data: GameData, state: State, event: Event) -> None:
    state["leaders"][event["leader"]] = event["hex"]


def _steps_lost(data: GameData, state: State, event: Event) -> None:
    """2.8: units reduced, or eliminated to the pool (10.11); the casualties (10.13)."""
    for unit in event["reduced"]:
        state["russians"][unit]["reduced"] = True
    for unit in event["eliminated"]:
        del state["russians"][unit]
        state["pool"] = sorted([*state["pool"], unit])
    state["casualties"] = int(state["casualties"]) + int(event["steps"])


def _retreated(data: GameData, state: State, event: Event) -> None:
    for unit in event["units"]:
        state["russians"][unit]["hex"] = event["to"]


def _segment_over(data: GameData, state: State, event: Event) -> None:
    state["gunships"] = []


APPLY: dict[str, Apply[GameData]] = {
    "gunships": _gunships,
    "leader_placed": _leader_placed,
    "ambush": recorded,  # the record of the die; its result follows as its own events
    "steps_lost": _steps_lost,
    "retreat_roll": recorded,
    "retreated": _retreated,
    "segment_over": _segment_over,
}


def _told_gunships(data: GameData, event: Event) -> str:
    b = board(data)
    return "gunships threaten " + ", ".join(b.label(h) for h in event["hexes"]) + " (14.2)"


def _told_leader_placed(data: GameData, event: Event) -> str:
    b = board(data)
    return f"{data['units']['leaders'][event['leader']]['name']} comes out of the underground in {b.label(event['hex'])}"


def _told_ambush(data: GameData, event: Event) -> str:
    b = board(data)
    mods = "".join(f" {a:+d} ({why})" for a, why in event["modifiers"])
    support = f", supported from {b.label(event['support'])}" if event["support"] else ""
    free = "free ambush (14.3)" if event.get("free") else "ambush"
    return (f"{free} from {b.label(event['from'])} on {b.label(event['target'])}{support}: "
            f"die {event['roll']}{mods} = {event['total']}: {str(event['result']).replace('_', ' ')}")


def _told_steps_lost(data: GameData, event: Event) -> str:
    spec = units(data)
    told = [f"{spec[u]['name']} reduced" for u in event["reduced"]]
    told += [f"{spec[u]['name']} eliminated" for u in event["eliminated"]]
    return "; ".join(told) + f" ({event['why']})"


def _told_retreated(data: GameData, event: Event) -> str:
    b = board(data)
    moving = ", ".join(units(data)[u]["name"] for u in event["units"])
    return f"{moving} retreat from {b.label(event['from'])} to {b.label(event['to'])}"


DESCRIBE: dict[str, Describe[GameData]] = {
    "gunships": Ruled(_told_gunships, "14.2"),
    "leader_placed": _told_leader_placed,
    "ambush": Ruled(_told_ambush, "14.3"),
    "steps_lost": _told_steps_lost,
    "retreat_roll": Told("the Russian's retreat die {roll}, halved up: {count} unit(s) retreat", "14.3"),
    "retreated": _told_retreated,
    "segment_over": Told("the gunships go to the used box", "14.2"),
}


def bot(data: GameData, state: State, rng: Rng) -> dict[str, Any]:
    """Now and then an ambush from a hex of Chechen units on a Russian hex of Chechnya next
    to it, supported by another hex when one is free, and one hex held ready for a free
    ambush; every order checked as the referee will (identities aside: the bot never
    strikes outside Chechnya)."""
    b = board(data)
    chosen: list[dict[str, Any]] = []
    mine = chechen_hexes(state)
    for frm in sorted(mine):
        targets = [h for h in b.grid.neighbours(frm) if h in russian_hexes(state) and b.region[h] == "chechnya"]
        if not targets or not rng.choice(f"bot:ambush:t{state['turn']}:{frm}", [True, False]):
            continue
        target = targets[0]
        body: dict[str, Any] = {"from": frm, "target": target}
        helpers = [h for h in sorted(mine) if h != frm and b.grid.adjacent(h, target)]
        if helpers:
            body["support"] = helpers[0]
        for trial in ([*chosen, {"ambush": body}], [*chosen, {"ambush": {"from": frm, "target": target}}]):
            problems: list[Problem] = []
            read_ambushes(data, state, {"orders": trial}, problems)
            if not problems:
                chosen = trial
                break
    used = {v for item in chosen for k, v in item["ambush"].items() if k in ("from", "support")}
    spare = [h for h in sorted(mine) if h not in used]
    if spare:
        chosen.append({"free": {"from": spare[0]}})
    return {"orders": chosen}
