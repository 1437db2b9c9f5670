"""Combat in the action phase (8.1-8.8, 8.91, 8.93, 10.2, 10.4, 10.5, 18.1).

By mail a battle is decided without live questions: the attacker's orders name the battles
(in the order they are fought) and, in the `secret:` part sealed to the referee, the money
spent on each (8.3); every other choice comes from standing instructions:

    orders:
      - attack: {zone: Kazan}                       # all your units and leaders there fight
      - attack: {zone: Ufa, units: [red-cav-02], leaders: []}
    secret:
      spend: {Kazan: 3, Ufa: 1}                     # 1 probe, 3 assault, 5 invasion
    standing:
      retreat_before_combat: never                  # 8.4 when defending: never | always
      retreat_to: [Moscow, Tver]                    # 8.4, 8.7 preferred retreat zones
      # a sea area in retreat_to (Baltic Sea) is a retreat by sea before combat (8.4)
      loss_order: [red-inf-07, cav]                 # 8.6 who takes losses first (ids or types)
      invasion_rounds: 4                            # 8.3 rounds of an invasion before stopping

The spending is revealed only after the defender's retreat before combat (8.4).
"""

from __future__ import annotations

from typing import Any

from pbem.game import Event, Problem, Rng, Secrets, State
from pbem.kit.orders import check_keys

from . import minors
from .battle import LEVELS, Battle
from .board import Board
from .common import (
    Path_,
    defenders_of,
    enemies,
    id_list,
    piece_id,
    pieces,
    place_name,
)
from .forces import commanded, joined, units_at
from .siege import PartisanHunt

# ---------------------------------------------------------------------------------------
# validation (8.1-8.3, 6.4, 8.93, 18.1)


# the secret part of an action file (pbem/orders.py checks its shape, check_attacks the rest)
SECRET = {
    "description": "the secret part is spend: {ZONE: 1, 3 or 5}, the money spent on each battle "
                   "(8.3)",
    "type": "object", "additionalProperties": False,
    "properties": {"spend": {"type": "object"}},
}


def check_attacks(
    b: Board, state: State, faction: str, attacks: list[tuple[int, Any]], secret: Any,
    problems: list[Problem],
) -> list[dict[str, Any]]:
    """The declared battles, checked against the position after the moves."""
    out: list[dict[str, Any]] = []
    sealed = isinstance(secret, dict) and "sealed" in secret  # checked when it was received
    spend = secret.get("spend") if isinstance(secret, dict) and not sealed else None
    seen: set[str] = set()
    total = 0
    taken_before = 0  # 13.61 allied units taken in hand by the attacks checked so far
    for i, arg in attacks:
        path: Path_ = ("orders", i, "attack")
        if not check_keys(arg, path, ("zone",), ("units", "leaders"), problems):
            continue
        zone = place_name(b, arg["zone"], (*path, "zone"), problems)
        if zone is None:
            continue
        if zone not in b.zones:  # 8.0, 8.1; land units at sea attack only once landed (8.4, 7.5)
            problems.append(Problem((*path, "zone"), f"{zone} is not a land zone: battles are fought "
                                                     "in land zones (8.0, 8.1); units at sea land "
                                                     "first (move ... from the sea), fleets at sea "
                                                     "fight with search (8.92)"))
            continue
        if zone in seen:
            problems.append(Problem((*path, "zone"), f"{zone} is attacked twice"))
            continue
        seen.add(zone)
        mine = [u for u in commanded(state, zone, faction) if state["units"][u]["type"] != "fleet"]
        foes = defenders_of(state, zone, faction)
        # 13.61 allied units named in `units` may be taken in hand for this attack
        takable = minors.new_allies(state, faction, units_at(state, zone, {"allies"})) if "units" in arg else []
        if not mine and not takable:
            problems.append(Problem((*path, "zone"), f"you have no land units in {zone} to attack "
                                                     "with (8.1: only units in the zone fight)"))
            continue
        placer = (state.get("partisans") or {}).get(zone)
        hunt = not foes and placer is not None and enemies(state, faction, placer)  # 15.2
        if not foes and not hunt:
            problems.append(Problem((*path, "zone"), f"there are no enemy units in {zone} "
                                                     "(White factions never attack each other, 18.1)"))
            continue
        # 8.92 fleets in a port zone fight in its land battles
        units = mine + [u for u in commanded(state, zone, faction)
                        if state["units"][u]["type"] == "fleet" and b.zones[zone].get("ports")]
        taken: list[str] = []
        if "units" in arg:
            units = []
            for pid, at in pieces(b, state, arg["units"], (*path, "units"), problems):
                fresh = minors.new_allies(state, faction, [pid])
                why = (minors.command_problem(state, faction, pid, taking=taken_before + len(taken))
                       if fresh else None)
                if why is not None:
                    problems.append(Problem(at, why))
                elif pid not in mine and not fresh or state["units"][pid]["zone"] != zone:
                    problems.append(Problem(at, f"{pid} is not one of your land units in {zone}"))
                else:
                    units.append(pid)
                    taken += fresh  # 13.61 an allied unit taken in hand to attack
        if units and all(state["units"][u]["type"] == "air" for u in units):
            problems.append(Problem((*path, "units"), "aircraft cannot fight alone (8.93)"))
        leaders = commanded(state, zone, faction, leaders=True)
        if "leaders" in arg:
            named = [piece_id(b, state, t, (*path, "leaders", j), problems)
                     for j, t in enumerate(id_list(arg["leaders"]))]
            leaders = [lid for lid in named if lid is not None]
            for lid in leaders:
                if lid not in commanded(state, zone, faction, leaders=True):
                    problems.append(Problem((*path, "leaders"), f"{lid} is not your leader in {zone}"))
        amount = spend.get(zone) if isinstance(spend, dict) else None
        free = minors.free_force(state, units)
        if free:  # 12.41 minors alone have paid two rounds: nothing to spend
            if amount is not None and not sealed:
                problems.append(Problem(("secret", "spend", zone), f"the force attacking {zone} is "
                                        "made of minor or allied units only: it is presumed to have "
                                        "paid for two rounds (12.41); spend nothing on it"))
        elif sealed:
            pass
        elif amount not in LEVELS:
            problems.append(Problem(("secret", "spend"), f"give the money spent on {zone} under "
                                                         "secret: spend: (1 probe, 3 assault, "
                                                         "5 invasion; 8.3)"))
        else:
            total += amount
        out.append({"zone": zone, "units": units, "leaders": leaders, **({"partisans": placer} if hunt else {}),
                    **({"free": True} if free else {}), **({"allies": taken} if taken else {})})
        taken_before += len(taken)
    if isinstance(spend, dict):
        for zone in spend:
            if b.places.get(zone) not in seen:
                problems.append(Problem(("secret", "spend", zone), f"money spent on {zone}, "
                                                                   "which is not attacked"))
    if not sealed and total > state["money"][faction]:  # 6.4 no deficit
        problems.append(Problem(("secret", "spend"), f"the attacks cost {total} money; "
                                                     f"{faction} has {state['money'][faction]} (6.4)"))
    return out


def resolve_attacks(
    b: Board, data: Any, state: State, faction: str, attacks: list[dict[str, Any]],
    secret: Any, rng: Rng, secrets: Secrets | None, answers: dict[str, Any] | None = None,
) -> tuple[list[Event], State]:
    """Fight the declared battles in order; the spending is opened after 8.4. `answers`
    are the defenders' answers by mail, {zone: {faction: instructions}} (decisions.py)."""
    events: list[Event] = []
    if not attacks:
        return events, state
    if secrets is None:
        raise ValueError("battles need the sealed spending opened")
    standing = dict(state.get("standing", {}))
    spend: dict[str, int] | None = None
    for k, spec in enumerate(attacks):
        spec["pending"] = [s["zone"] for s in attacks[k + 1:]]  # 8.4 battles still to come
        if spec.get("partisans") and spec["zone"] in (state.get("partisans") or {}):
            hunt = PartisanHunt(b, data, state, faction, spec, rng)
            hunt.run()
            events += hunt.events
            state = hunt.state
            continue
        if not [u for u in spec["units"] if state["units"][u]["zone"] == spec["zone"]
                and state["units"][u]["status"] == "map"] or not defenders_of(state, spec["zone"], faction):
            events.append({"type": "note", "zone": spec["zone"],
                           "text": "no battle: one side is no longer there"})
            continue
        found, state = joined(b, state, faction, spec, rng, siege=False)
        events += found
        battle = Battle(b, data, state, faction, spec, rng)
        asked = (answers or {}).get(spec["zone"], {})
        battle.retreat_before({**standing, **{f: {**standing.get(f, {}), **a} for f, a in asked.items()}})
        if spend is None:  # 8.3 revealed after the defender's choice (8.4)
            opened = secrets.open(secret) if isinstance(secret, dict) and "sealed" in secret else secret
            spend = {b.places.get(z) or z: int(v) for z, v in (opened or {}).get("spend", {}).items()}
            missing = [s["zone"] for s in attacks if spend.get(s["zone"]) not in LEVELS and not s.get("free")]
            if missing:
                raise ValueError(f"the sealed spending names no level for {', '.join(missing)}")
        paid = 0 if spec.get("free") else spend[spec["zone"]]  # 12.41
        if not battle.side_units("def"):
            battle.emit({"type": "attack", "zone": spec["zone"], "attacker": faction,
                         "defenders": [], "spend": paid,
                         "level": LEVELS[paid][0] if paid else "minors' battle", "rounds": 0})
        else:
            from .play import defend_with

            for e in defend_with(data, battle.state, spec["zone"], faction, secrets, rng):
                battle.emit(e)  # 14.2 the defenders' battle cards, by standing instruction
            battle.fight(paid, standing)
        events += battle.events
        state = battle.state
    return events, state
