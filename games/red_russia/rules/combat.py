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
from pbem.kit import graph, pools

from . import minors
from .board import MAJORS, MINORS, WHITES, Board
from .common import (
    Path_,
    allegiance,
    check_keys,
    commander,
    defenders_of,
    enemies,
    friendly_zone,
    id_list,
    iron_cross_closed,
    label_part,
    piece_id,
    place_name,
)
from .fold import Folding, apply_with

LEVELS = {1: ("probe", 1), 3: ("assault", 2), 5: ("invasion", 0)}  # 8.3: cost -> rounds
INVASION_ROUNDS = 4  # 8.3 an invasion goes on until the attacker stops: default standing
MAX_ROUNDS = 20  # a safety bound for an invasion where nothing can be hit
REVAL = "Reval"  # 13.2


def _units(state: State, zone: str, owners: set[str] | None = None) -> list[str]:
    return sorted(pid for pid, p in state["units"].items()
                  if p["status"] == "map" and p["zone"] == zone and p["type"] != "leader"
                  and (owners is None or p["faction"] in owners))


def _leaders(state: State, zone: str, owners: set[str]) -> list[str]:
    return sorted(pid for pid, p in state["units"].items()
                  if p["status"] == "map" and p["zone"] == zone and p["type"] == "leader"
                  and p["faction"] in owners)


def commanded(state: State, zone: str, faction: str, leaders: bool = False) -> list[str]:
    """The pieces in `zone` that `faction` gives orders to: its own, an activated minor's it
    controls (12.11, 12.12) and the allied units it has taken in hand (13.63)."""
    return sorted(pid for pid, p in state["units"].items()
                  if p["status"] == "map" and p["zone"] == zone and (p["type"] == "leader") == leaders
                  and commander(state, pid) == faction)


def standing_of(state: State, standing: dict[str, dict[str, Any]], faction: str) -> dict[str, Any]:
    """The standing instructions that answer for a faction's units: a minor's are its
    controller's (12.12); a neutral minor and the Allies on their own never retreat by
    choice and take losses by the rule of 8.6."""
    if faction in MINORS:
        boss = allegiance(state, faction)
        return standing.get(boss, {}) if boss in MAJORS else {}
    return standing.get(faction, {})


# ---------------------------------------------------------------------------------------
# validation (8.1-8.3, 6.4, 8.93, 18.1)


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
        takable = minors.new_allies(state, faction, _units(state, zone, {"allies"})) if "units" in arg else []
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
            for j, text in enumerate(id_list(arg["units"])):
                pid = piece_id(b, state, text, (*path, "units", j), problems)
                if pid is None:
                    continue
                fresh = minors.new_allies(state, faction, [pid])
                why = (minors.command_problem(state, faction, pid, taking=taken_before + len(taken))
                       if fresh else None)
                if why is not None:
                    problems.append(Problem((*path, "units", j), why))
                elif pid not in mine and not fresh or state["units"][pid]["zone"] != zone:
                    problems.append(Problem((*path, "units", j), f"{pid} is not one of your land "
                                                                 f"units in {zone}"))
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


# ---------------------------------------------------------------------------------------
# resolution


class Battle:
    """One battle (8.2-8.8): the state it works on is updated event by event."""

    def __init__(self, b: Board, data: Any, state: State, attacker: str, spec: dict[str, Any],
                 rng: Rng) -> None:
        self.b, self.data, self.state = b, data, state
        self.attacker, self.zone, self.rng = attacker, spec["zone"], rng
        self.spec = spec
        self.events: list[Event] = []
        self.lost = {"atk": 0, "def": 0}
        self.label = f"combat:{label_part(self.zone)}:t{state['turn']}:{attacker}"

    def emit(self, event: Event) -> None:
        self.events.append(event)
        self.state = apply_with(self.b, self.state, event)

    # -- sides -----------------------------------------------------------------------------
    def side_units(self, side: str) -> list[str]:
        if side == "atk":
            return [u for u in self.spec["units"] if self._here(u)]
        foes = defenders_of(self.state, self.zone, self.attacker)
        port = bool(self.b.zones.get(self.zone, {}).get("ports"))  # 8.92
        return [u for u in _units(self.state, self.zone, foes)
                if self.state["units"][u]["type"] != "fleet" or port]

    def side_leaders(self, side: str) -> list[str]:
        if side == "atk":
            return [lid for lid in self.spec["leaders"] if self._here(lid)]
        standing = self.state.get("standing", {})
        # 10.2: a defender may keep leaders out of the battle (standing leaders_stay_out)
        return [lid for lid in _leaders(self.state, self.zone, defenders_of(self.state, self.zone, self.attacker))
                if lid not in (standing.get(self.state["units"][lid]["faction"], {}).get("leaders_stay_out") or [])]

    def _here(self, pid: str) -> bool:
        p = self.state["units"][pid]
        return bool(p["status"] == "map" and p["zone"] == self.zone)

    def value(self, pid: str, index: int) -> int:
        c = self.b.counters[pid]
        return int((c["reduced"] if self.state["units"][pid]["reduced"] else c["full"])[index])

    # -- 8.4 retreat before combat ----------------------------------------------------------
    def retreat_before(self, standing: dict[str, dict[str, Any]]) -> None:
        """8.4: a defender whose standing (or answer by mail) says `always` goes to the first
        place of its `retreat_to` it may reach: a land zone (everybody, together), or a sea
        area, by sea with its fleets in the port; without one, to the first open zone by
        name. Only a sea that is named is sailed to. After a retreat by sea the units no
        fleet takes (cavalry, aircraft, tanks, more than the fleets carry) retreat by land
        if they can, to their next preferred zone, else stay and fight."""
        foes = sorted(defenders_of(self.state, self.zone, self.attacker))
        atk_cav = sum(1 for u in self.side_units("atk") if self.state["units"][u]["type"] == "cav")
        for faction in foes:
            rules = standing_of(self.state, standing, faction)
            if rules.get("retreat_before_combat", "never") != "always":
                continue
            units = [u for u in _units(self.state, self.zone, {faction})
                     if self.state["units"][u]["type"] != "fleet"]
            cav = sum(1 for u in units if self.state["units"][u]["type"] == "cav")
            only_cav = bool(units) and cav == len(units)
            if atk_cav > cav and not only_cav:
                self.emit({"type": "note", "zone": self.zone, "text": f"{faction} cannot retreat "
                           "before combat: the attacker has more cavalry (8.4)"})
                continue
            leaders = _leaders(self.state, self.zone, {faction})
            by_land = self.retreat_options(faction, units, forced=False)
            sailed = False
            for place in self.preferred(rules):
                if place in by_land:
                    break  # a land zone comes first: everybody goes there
                if place in self.b.seas:
                    left = self.retreat_by_sea(faction, place, units, leaders)
                    if left is not None:
                        units, leaders = left
                        sailed = True
                        break
            if sailed and not units and not leaders:
                continue
            dest = self.retreat_zone(faction, units, forced=False, rules=rules)
            if dest is None:
                if sailed and units:
                    self.emit({"type": "note", "zone": self.zone, "text": f"{', '.join(units)} "
                               "cannot retreat by sea or by land: they stay and fight (8.4)"})
                continue
            self.emit({"type": "retreat", "zone": self.zone, "faction": faction,
                       "units": units + leaders, "to": dest, "when": "before combat"})

    def retreat_by_sea(self, faction: str, sea: str, units: list[str],
                       leaders: list[str]) -> tuple[list[str], list[str]] | None:
        """8.4 retreat by sea: each fleet of the faction in the port puts to sea with the
        unit it carries and at most one leader (7.5), the highest first. Returns the units
        and leaders left in the zone, or None (with a note saying why) if nobody can go."""
        pairs, why = sea_passage(self.b, self.state, self.zone, faction, sea, units)
        if not pairs:
            self.emit({"type": "note", "zone": self.zone, "text": f"{faction} cannot retreat by "
                       f"sea from {self.zone} to the {sea}: {why}"})
            return None
        riders = sorted(leaders, key=lambda lid: (-int(self.b.leaders[lid]["level"]), lid))
        for k, (fleet, unit) in enumerate(pairs):
            rider = riders[k: k + 1]  # 7.5 one leader a fleet
            self.emit({"type": "retreat", "zone": self.zone, "faction": faction,
                       "units": [unit, *rider, fleet], "to": sea, "when": "before combat",
                       "by": "sea", "fleet": fleet})
        gone = {u for _, u in pairs}
        return [u for u in units if u not in gone], riders[len(pairs):]

    def preferred(self, rules: dict[str, Any]) -> list[str]:
        """The player's `retreat_to`, as place names (unknown names were refused with the
        orders and are skipped)."""
        return [z for z in (self.b.places.get(t) for t in rules.get("retreat_to", []) or [])
                if z is not None]

    def retreat_options(self, faction: str, units: list[str], *, forced: bool,
                        origin: str | None = None) -> list[str]:
        """8.4 / 8.7: the land zones these units may retreat to from the battle (or from
        `origin`, the first step of a longer retreat), by name."""
        origin = origin or self.zone
        entered_from = {e["from"] for e in self.state.get("entered", {}).get(origin, [])
                        if e["faction"] != faction}
        options = []
        for there, kind in sorted(self.b.routes.get(origin, {}).items()):
            if there == self.zone:
                continue
            if kind != "easy" and not forced:
                continue  # 8.4; forced retreats after a round may use them (8.7)
            if there in entered_from or iron_cross_closed(self.b, self.state, there):
                continue
            if not friendly_zone(self.state, there, faction):
                continue  # never into an enemy or neutral zone
            if any(minors.own_ground_only(self.state, self.state["units"][u]["faction"])
                   and self.state["control"].get(there) != self.state["units"][u]["faction"] for u in units):
                continue  # 12.11, 13.1-13.3 only into a zone of their own, or they are lost
            foes_there = [u for u in _units(self.state, there)
                          if enemies(self.state, faction, self.state["units"][u]["faction"])]
            if len(foes_there) > len(units):
                continue
            options.append(there)
        return options

    def retreat_zone(self, faction: str, units: list[str], *, forced: bool,
                     rules: dict[str, Any]) -> str | None:
        """8.4 / 8.7: where these units may retreat by land, by the player's preference, or
        None. A sea in `retreat_to` is for a retreat by sea (retreat_by_sea) and skipped here."""
        options = self.retreat_options(faction, units, forced=forced)
        # 8.4 a zone where a declared attack is still to be fought is no place to stop: if it
        # is the only way, the units go on from it to a zone they may retreat to
        pending = set(self.spec.get("pending") or [])
        direct = [z for z in options if z not in pending]
        if not direct:
            for step in options:
                direct += [z for z in self.retreat_options(faction, units, forced=forced, origin=step)
                           if z not in pending and z not in direct]
        for zone in self.preferred(rules):
            if zone in direct:
                return zone
        return direct[0] if direct else None

    # -- 8.5-8.8 the rounds ------------------------------------------------------------------
    def fight(self, spend: int, standing: dict[str, dict[str, Any]]) -> None:
        level, rounds = LEVELS[spend] if spend else ("minors' battle", minors.FREE_ROUNDS)  # 12.41
        if rounds == 0:
            rounds = int(standing.get(self.attacker, {}).get("invasion_rounds", INVASION_ROUNDS))
            rounds = max(1, min(rounds, MAX_ROUNDS))
        defenders = sorted(defenders_of(self.state, self.zone, self.attacker))
        self.emit({"type": "attack", "zone": self.zone, "attacker": self.attacker,
                   "defenders": defenders, "spend": spend, "level": level, "rounds": rounds})
        if self.air_alone():
            return
        difficult = any(e["faction"] == self.attacker and e["kind"] != "easy"
                        for e in self.state.get("entered", {}).get(self.zone, []))
        for r in range(1, rounds + 1):
            if not self.land("atk") or not self.land("def"):
                break  # fleets alone do not carry on a land battle (8.92)
            self.round(r, difficult and r == 1, standing)
        self.after(defenders)

    def card_mods(self, side: str, key: str) -> list[dict[str, Any]]:
        """The battle cards played this phase on this zone by the factions of a side (14.6),
        not yet used, that carry `key` (armoured trains, stubborn defence, Perekop)."""
        owners = {self.attacker} if side == "atk" else defenders_of(self.state, self.zone, self.attacker)
        return [c for c in (self.state.get("battle_cards") or {}).get(self.zone, [])
                if c["faction"] in owners and key in c["modifier"] and not c.get("used")]

    def land(self, side: str) -> list[str]:
        return [u for u in self.side_units(side) if self.state["units"][u]["type"] != "fleet"]

    def air_alone(self) -> bool:
        """8.93: aircraft caught alone retreat at once and lose a step on 1-2."""
        units = self.land("def")
        if not units or any(self.state["units"][u]["type"] != "air" for u in units):
            return False
        for u in units:
            faction = self.state["units"][u]["faction"]
            roll = self.rng.roll(f"{self.label}:air-alone:{u}", 6)
            self.emit({"type": "air_alone", "unit": u, "zone": self.zone, "roll": roll})
            if roll <= 2:
                self.emit({"type": "reduced", "unit": u, "by": "combat"})
            if self._here(u):
                self.retreat_or_die(u, faction, {})
        return True

    def dice(self, side: str, r: int, plus_one: bool) -> list[dict[str, Any]]:
        """The groups of dice one side rolls this round: (count, what hits)."""
        groups: list[dict[str, Any]] = []
        units = self.side_units(side)
        air = sum(self.value(u, 0) for u in units if self.state["units"][u]["type"] == "air")
        tanks = sum(self.value(u, 0) for u in units if self.state["units"][u]["type"] == "tank")
        rest = sum(self.value(u, 0) for u in units if self.state["units"][u]["type"] not in ("air", "tank"))
        leaders = self.leader_dice(side)
        trotsky = leaders.pop("trotsky", 0) if side == "atk" and r == 1 else 0
        base = 5 if plus_one and side == "def" else 6  # 8.5 +1 after a difficult route
        if air:
            groups.append({"what": "aircraft", "count": air, "hit": base})  # 8.93 fire first
        if tanks:
            # 8.91 a tank hits on 5-6 in the first round; 8.5 the defender's +1 after a
            # difficult route adds to that die as to any other (a 4 becomes a 5)
            groups.append({"what": "tanks", "count": tanks, "hit": base - 1 if r == 1 else base})
        if trotsky:
            groups.append({"what": "Trotsky", "count": trotsky, "hit": 5})  # 10.83
        chosen = self.commissars(side, r)
        if chosen:  # 10.82 their dice are doubled in the first round
            groups.append({"what": "Stalin's commissars", "count": sum(self.value(u, 0) for u in chosen),
                           "hit": base})
        count = rest + sum(leaders.values())
        if side == "def":
            count += self.fortification()
        if count:
            groups.append({"what": "units", "count": count, "hit": base})
        for card in self.card_mods(side, "extra_dice"):  # a battle card (armoured trains)
            if r <= int(card["modifier"].get("rounds", 1)):
                groups.append({"what": card["card"], "count": int(card["modifier"]["extra_dice"]),
                               "hit": base})
        return groups

    def commissars(self, side: str, r: int) -> list[str]:
        """10.82: with Stalin in the battle, one or two Red infantry units of the player's
        choice (standing `stalin_commissars`: 0, 1 or 2; the strongest are taken) roll double
        dice in the first round, and lose a step for it."""
        if r != 1 or "stalin" not in self.side_leaders(side):
            return []
        count = int(self.state.get("standing", {}).get("red", {}).get("stalin_commissars", 0))
        infantry = sorted((u for u in self.side_units(side)
                           if self.state["units"][u]["type"] == "inf"
                           and self.state["units"][u]["faction"] == "red"),
                          key=lambda u: (-self.value(u, 0), u))
        return infantry[: max(0, min(count, 2))]

    def commissar_losses(self, side: str, r: int) -> None:
        """10.82: before the hits on the Reds are taken, the commissars' units lose a step,
        without retreating."""
        for pid in self.commissars(side, r):
            self.lost[side] += 1
            self.emit({"type": "reduced", "unit": pid, "by": "Stalin's commissars (10.82)"})

    def leader_dice(self, side: str) -> dict[str, int]:
        """10.2 each leader adds his level; Lenin 2 only at Moscow or Petrograd (10.8.1);
        Trotsky 2 instead of 3 when Stalin or Lenin is with him (10.83)."""
        out: dict[str, int] = {}
        leaders = self.side_leaders(side)
        for lid in leaders:
            level = int(self.b.leaders[lid]["level"])
            if lid == "lenin":
                level = 2 if self.zone in ("Moscow", "Petrograd") else 0
            if lid == "trotsky" and ({"stalin", "lenin"} & set(_leaders(self.state, self.zone, {"red"}))):
                level = min(level, 2)
            out[lid] = level
        return out

    def fortification(self) -> int:
        """8.5: the defender adds the zone's fortification if it controls the zone; not a
        White faction defending in another White faction's zone (18.1)."""
        owner = self.state["control"].get(self.zone)
        if owner in defenders_of(self.state, self.zone, self.attacker):
            return fort_now(self.b, self.state, self.zone)
        return 0

    def round(self, r: int, plus_one: bool, standing: dict[str, dict[str, Any]]) -> None:
        rolled: dict[str, list[dict[str, Any]]] = {}
        hits = {"atk": 0, "def": 0}
        for side in ("atk", "def"):
            rolled[side], hits[side] = roll_groups(self.rng, f"{self.label}:{side}:r{r}",
                                                   self.dice(side, r, plus_one))
        self.emit({"type": "combat_round", "zone": self.zone, "round": r, "attacker": self.attacker,
                   "dice": rolled, "hits": hits})
        for side in ("atk", "def"):
            self.commissar_losses(side, r)
        # 8.6 losses are taken at once by both sides
        reduced: list[tuple[str, str]] = []
        for side, other in (("atk", "def"), ("def", "atk")):
            units = self.side_units(side)
            faction = None
            order = self.loss_order(side, standing)
            listed = [(u, self.value(u, 1), bool(self.state["units"][u]["reduced"])) for u in units]
            for pid in allocate(hits[other], listed, order, lambda u: self.value_if_reduced(u, 1)):
                self.lost[side] += 1
                self.emit({"type": "reduced", "unit": pid, "by": "combat"})
                if self._here(pid):
                    reduced.append((pid, faction or self.state["units"][pid]["faction"]))
        # 8.7 reduced units retreat, or are eliminated if they cannot
        for pid, faction in reduced:
            side = "atk" if pid in self.spec["units"] else "def"
            stubborn = [c for c in self.card_mods(side, "cancel_retreat") if c["faction"] == faction]
            if stubborn and self._here(pid):  # a battle card cancels one retreat; the loss stands
                self.emit({"type": "battle_card_used", "zone": self.zone, "card": stubborn[0]["card"],
                           "faction": faction, "unit": pid})
                continue
            if self._here(pid):
                self.retreat_or_die(pid, faction, standing_of(self.state, standing, faction))
        self.voluntary_retreats(standing)

    def voluntary_retreats(self, standing: dict[str, dict[str, Any]]) -> None:
        """8.7: then the defender, and after it the attacker, may retreat with what is left;
        by mail the standing `voluntary_retreat: when_outnumbered` says when (default never),
        under the restrictions of 8.4."""
        for side in ("def", "atk"):
            mine, theirs = self.side_units(side), self.side_units("atk" if side == "def" else "def")
            if not mine or not theirs:
                continue
            for faction in sorted({self.state["units"][u]["faction"] for u in mine}):
                rules = standing_of(self.state, standing, faction)
                if rules.get("voluntary_retreat", "never") != "when_outnumbered":
                    continue
                if len(mine) >= len(theirs):
                    continue
                units = [u for u in mine if self.state["units"][u]["faction"] == faction
                         and self.state["units"][u]["type"] != "fleet"]
                if units:
                    dest = self.retreat_zone(faction, units, forced=False, rules=rules)
                    if dest is None:
                        continue
                    leaders = [lid for lid in _leaders(self.state, self.zone, {faction})
                               if side == "def" or lid in self.spec["leaders"]]
                    self.emit({"type": "retreat", "zone": self.zone, "faction": faction,
                               "units": units + leaders, "to": dest,
                               "when": "by choice after a round"})
                # 8.92 its fleets put to sea with them, never overland, and stay in a blockaded port
                fleets = [u for u in mine if self.state["units"][u]["faction"] == faction
                          and self.state["units"][u]["type"] == "fleet"]
                if fleets and not blockaders(self.b, self.state, self.zone, faction):
                    for fid in fleets:
                        self.emit({"type": "retreat", "zone": self.zone, "faction": faction,
                                   "units": [fid], "to": self.b.counters[fid]["sea"],
                                   "when": "by choice after a round (8.92)"})

    def value_if_reduced(self, pid: str, index: int) -> int:
        return int(self.b.counters[pid]["reduced"][index])

    def owners(self, side: str) -> set[str]:
        """The factions of a side's pieces: the attacker's own and the minor and allied
        units it commands here (12.12, 13.63), or the defenders."""
        if side == "atk":
            return {self.attacker} | {self.state["units"][u]["faction"]
                                      for u in [*self.spec["units"], *self.spec["leaders"]]}
        return defenders_of(self.state, self.zone, self.attacker)

    def loss_order(self, side: str, standing: dict[str, dict[str, Any]]) -> list[str]:
        order: list[str] = []
        for faction in sorted({allegiance(self.state, f) if f in MINORS else f for f in self.owners(side)}):
            order += [str(x) for x in standing.get(faction, {}).get("loss_order", []) or []]
        return order

    def retreat_or_die(self, pid: str, faction: str, rules: dict[str, Any]) -> None:
        if self.state["units"][pid]["type"] == "fleet":  # 8.92 a damaged fleet puts to sea
            if blockaders(self.b, self.state, self.zone, faction):
                # 8.92 a fleet may not retreat from a blockaded port: 8.7, it is eliminated
                self.emit({"type": "eliminated", "unit": pid, "zone": self.zone,
                           "why": "a fleet may not retreat from a blockaded port (8.92, 8.7)"})
                return
            self.emit({"type": "retreat", "zone": self.zone, "faction": faction, "units": [pid],
                       "to": self.b.counters[pid]["sea"], "when": "after a round (8.92)"})
            return
        dest = self.retreat_zone(faction, [pid], forced=True, rules=rules)
        if dest is None:
            self.emit({"type": "eliminated", "unit": pid, "zone": self.zone,
                       "why": "no retreat (8.7)"})
        else:
            self.emit({"type": "retreat", "zone": self.zone, "faction": faction, "units": [pid],
                       "to": dest, "when": "after a round"})

    # -- 10.4, 10.5 after the battle ---------------------------------------------------------
    def after(self, defenders: list[str]) -> None:
        for side, owners in (("atk", self.owners("atk")), ("def", set(defenders))):
            leaders = [lid for lid in (self.spec["leaders"] if side == "atk"
                                       else _leaders(self.state, self.zone, owners))
                       if self._here(lid)]
            if not leaders:
                continue
            if not _units(self.state, self.zone, owners):
                for lid in leaders:  # 10.5 the units are gone: capture
                    self.capture(lid)
                continue
            if side == "def":  # 10.2 those kept out of the battle take no loss test
                leaders = [lid for lid in leaders if lid in self.side_leaders("def")]
            for lid in leaders:  # 10.4 one loss at most per side and battle
                a = self.rng.roll(f"{self.label}:leader:{lid}:d1", 6)
                b = self.rng.roll(f"{self.label}:leader:{lid}:d2", 6)
                hit = a + b + self.lost[side] >= 12
                result = "safe"
                second = None
                if hit:
                    second = self.rng.roll(f"{self.label}:leader:{lid}:fate", 6)
                    result = "wounded" if second <= 3 else "killed"
                self.emit({"type": "leader_loss", "leader": lid, "zone": self.zone, "dice": [a, b],
                           "steps": self.lost[side], "fate": second, "result": result})
                if hit:
                    if lid == "lenin" and result == "killed":
                        self.lenin_killed()
                    break
        self.emit({"type": "battle_over", "zone": self.zone, "attacker": self.attacker,
                   "attacker_left": bool(self.side_units("atk")),
                   "defender_left": bool(self.side_units("def"))})

    def capture(self, lid: str) -> None:
        a = self.rng.roll(f"{self.label}:capture:{lid}:d1", 6)
        b = self.rng.roll(f"{self.label}:capture:{lid}:d2", 6)
        level = int(self.b.leaders[lid]["level"])
        faction = self.state["units"][lid]["faction"]
        if a + b + level > 10:
            dest = nearest_friendly(self.b, self.state, self.zone, faction)
            self.emit({"type": "leader_capture", "leader": lid, "zone": self.zone, "dice": [a, b],
                       "result": "escaped", "to": dest})
        else:
            self.emit({"type": "leader_capture", "leader": lid, "zone": self.zone, "dice": [a, b],
                       "result": "captured", "to": None})
            if lid == "lenin":
                self.lenin_killed()

    def lenin_killed(self) -> None:
        """10.8.1: two dice of manpower and money lost by the Reds."""
        manpower = self.rng.roll(f"{self.label}:lenin:manpower", 6)
        money = self.rng.roll(f"{self.label}:lenin:money", 6)
        self.emit({"type": "lenin_killed", "manpower": manpower, "money": money})


def roll_groups(rng: Rng, label: str, groups: list[dict[str, Any]]) -> tuple[list[dict[str, Any]], int]:
    """Each group's dice (`count` of them, hitting on `hit` or more: 8.5, 8.6), numbered on
    from one group to the next under `label`: the groups as rolled, and the hits in all."""
    rolled: list[dict[str, Any]] = []
    hits = rolled_so_far = 0
    for group in groups:
        values = pools.roll(rng, label, group["count"], first=rolled_so_far + 1)
        rolled_so_far += group["count"]
        got = pools.hits_at_or_over(values, group["hit"])
        hits += got
        rolled.append({**group, "values": values, "hits": got})
    return rolled, hits


def allocate(hits: int, units: list[tuple[str, int, bool]], order: list[str],
             reduced_defence: Any) -> list[str]:
    """8.6: losses go to whole steps, leaving as few hits unallocated as possible; every
    unit loses a step before any loses a second. Among equally good choices the player's
    loss_order (unit ids or types first) decides, then the weaker units.

    Returns the units that lose a step, a unit twice when it is eliminated.
    """
    out: list[str] = []
    alive = list(units)
    while hits > 0 and alive:
        best = _best_subset(hits, [(u, d) for u, d, _ in alive], order)
        if not best:
            break
        out += best
        hits -= sum(d for u, d, _ in alive if u in best)
        if len(best) < len(alive):
            break  # 8.6: a second step only once every unit has lost one
        # every unit lost a step: the full ones are now reduced, the reduced ones are gone
        alive = [(u, reduced_defence(u), True) for u, _, was_reduced in alive if not was_reduced]
    return out


def _best_subset(hits: int, units: list[tuple[str, int]], order: list[str]) -> list[str]:
    """The units whose defences add up to the most hits without exceeding them (8.6);
    ties broken by the loss order. A small knapsack over the hit count."""
    def rank(pid: str) -> int:
        for i, key in enumerate(order):
            if key == pid or pid.split("-")[1:2] == [key]:
                return i
        return len(order)

    ranked = sorted(units, key=lambda ud: (rank(ud[0]), ud[0]))
    best: dict[int, list[int]] = {0: []}
    for i, (_, defence) in enumerate(ranked):
        for total, chosen in sorted(best.items(), reverse=True):
            t = total + defence
            if t <= hits and (t not in best or _better([*chosen, i], best[t])):
                best[t] = [*chosen, i]
    top = max(best)
    return [ranked[i][0] for i in best[top]]


def _better(a: list[int], b: list[int]) -> bool:
    return sorted(a) < sorted(b)


def nearest_friendly(b: Board, state: State, start: str, faction: str) -> str | None:
    """The nearest zone the faction controls, by routes, ties by name."""
    return graph.nearest(start, lambda here: sorted(b.routes.get(here, {})),
                         lambda there: state["control"].get(there) == faction)


def joined(b: Board, state: State, faction: str, spec: dict[str, Any], rng: Rng, *,
           siege: bool) -> tuple[list[Event], State]:
    """Before a battle or siege: the allied units taken in hand for it (13.61) and the
    minors it brings into play (12.1, 13.1-13.5, 13.52)."""
    log = Folding(b, state)
    if spec.get("allies"):
        log.emit({"type": "allies_taken", "faction": faction, "units": list(spec["allies"])})
    minors.activations(b, log.state, faction, spec["zone"], rng, siege=siege, emit=log.emit)
    return log.events, log.state


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


# ---------------------------------------------------------------------------------------
# 9.x siege


def fort_now(b: Board, state: State, zone: str) -> int:
    """The fortification left after the hits of a siege in progress (9.2)."""
    siege = state.get("siege", {}).get(zone)
    return max(0, int(b.zones[zone]["fort"]) - (int(siege["hits"]) if siege else 0))


def siege_cost(b: Board) -> int:
    return int(b.game["siege"]["cost_per_round"])


def check_sieges(
    b: Board, state: State, faction: str, sieges: list[tuple[int, Any]], money_left: int,
    problems: list[Problem], after_battle: set[str] | None = None,
) -> list[dict[str, Any]]:
    """9.1: a zone with your land units and no enemy or neutral land units, not yours, and
    for a White faction not another White faction's (18.1)."""
    from .board import WHITES

    out = []
    total = 0
    for i, arg in sieges:
        path: Path_ = ("orders", i, "siege")
        if not check_keys(arg, path, ("zone", "rounds"), ("leaders", "liberate"), problems):
            continue
        zone = place_name(b, arg["zone"], (*path, "zone"), problems)
        rounds = arg["rounds"]
        if zone is None:
            continue
        if zone not in b.zones:
            problems.append(Problem((*path, "zone"), f"{zone} is not a land zone (9.1)"))
            continue
        if isinstance(rounds, bool) or not isinstance(rounds, int) or not 1 <= rounds <= MAX_ROUNDS:
            problems.append(Problem((*path, "rounds"), f"rounds is a number from 1 to {MAX_ROUNDS}"))
            continue
        owner = state["control"].get(zone)
        if owner == faction:
            problems.append(Problem((*path, "zone"), f"{zone} is yours already (9.0)"))
            continue
        if faction in WHITES and allegiance(state, owner) in WHITES:
            problems.append(Problem((*path, "zone"), f"{zone} belongs to {owner}: White factions "
                                                     "never besiege each other (9.0, 18.1)"))
            continue
        if owner in MINORS and allegiance(state, owner) == faction:
            problems.append(Problem((*path, "zone"), f"{zone} belongs to {owner}, which you command (12.12)"))
            continue
        liberate = arg.get("liberate", False)
        home = b.zones[zone].get("home")
        if not isinstance(liberate, bool):
            problems.append(Problem((*path, "liberate"), "liberate is true or false (12.3)"))
            continue
        if liberate and (home not in MINORS or owner not in MAJORS):
            problems.append(Problem((*path, "liberate"), f"only a minor faction's home zone held by a "
                                                         f"major faction is given back (12.3); {zone} is not"))
            continue
        mine = [u for u in commanded(state, zone, faction) if state["units"][u]["type"] != "fleet"]
        if not mine:
            problems.append(Problem((*path, "zone"), f"you have no land units in {zone} (9.1)"))
            continue
        others = [u for u in _units(state, zone) if state["units"][u]["faction"] != faction
                  and state["units"][u]["type"] != "fleet"
                  and enemies(state, faction, state["units"][u]["faction"])]
        if others and zone not in (after_battle or set()):
            problems.append(Problem((*path, "zone"), f"there are enemy or neutral units in {zone}; "
                                                     "a siege needs them gone first (9.1)"))
            continue
        if iron_cross_closed(b, state, zone):
            problems.append(Problem((*path, "zone"), f"{zone} is out of play on turns 1-2 (11.0)"))
            continue
        leaders = commanded(state, zone, faction, leaders=True)
        if "leaders" in arg:
            leaders = [lid for j, t in enumerate(id_list(arg["leaders"]))
                       if (lid := piece_id(b, state, t, (*path, "leaders", j), problems)) in leaders]
        free = minors.free_force(state, mine)
        if free and rounds > minors.FREE_ROUNDS:  # 12.41 two rounds, presumed paid
            problems.append(Problem((*path, "rounds"), f"minor or allied units alone besiege for "
                                                       f"{minors.FREE_ROUNDS} rounds, presumed paid (12.41)"))
            continue
        total += 0 if free else rounds * siege_cost(b)
        out.append({"zone": zone, "rounds": rounds, "units": mine, "leaders": leaders,
                    **({"free": True} if free else {}), **({"liberate": home} if liberate else {})})
    if total > money_left:
        problems.append(Problem(("orders",), f"the sieges cost {total} money ({siege_cost(b)} a "
                                             f"round); {faction} has {money_left} left (6.4)"))
    return out


class OneSided(Battle):
    """A fight where only the attacker has units (a siege, a partisan hunt): its dice, and
    its losses from what fires back (8.6, 8.7)."""

    def attacker_dice(self, r: int, label: str) -> tuple[list[dict[str, Any]], int]:
        return roll_groups(self.rng, label, self.dice("atk", r, False))

    def attacker_losses(self, hits: int, standing: dict[str, dict[str, Any]]) -> None:
        listed = [(u, self.value(u, 1), bool(self.state["units"][u]["reduced"]))
                  for u in self.side_units("atk")]
        reduced = []
        for pid in allocate(hits, listed, self.loss_order("atk", standing),
                            lambda u: self.value_if_reduced(u, 1)):
            self.lost["atk"] += 1
            self.emit({"type": "reduced", "unit": pid, "by": "combat"})
            if self._here(pid):
                reduced.append(pid)
        for pid in reduced:
            if self._here(pid):
                self.retreat_or_die(pid, self.state["units"][pid]["faction"],
                                    standing_of(self.state, standing, self.state["units"][pid]["faction"]))


class PartisanHunt(OneSided):
    """15.2: partisans alone in a zone, attacked: as many rounds as it takes for one money
    (a probe's price, 8.3), whatever the spending set aside. They defend normally: their
    dice (their attack, game.yaml partisans) hit on a six, and a hit on their defence of 1
    destroys them. The attacker's losses and retreats are those of any battle (8.6, 8.7)."""

    def run(self) -> None:
        spec = self.b.game.get("partisans") or {}
        self.emit({"type": "attack", "zone": self.zone, "attacker": self.attacker,
                   "defenders": ["partisans"], "spend": 1, "level": "probe", "rounds": 0})
        standing: dict[str, dict[str, Any]] = dict(self.state.get("standing", {}))
        for r in range(1, MAX_ROUNDS + 1):
            if not self.land("atk") or self.zone not in (self.state.get("partisans") or {}):
                break
            hits = {"atk": 0, "def": 0}
            atk, hits["atk"] = self.attacker_dice(r, f"{self.label}:partisans:atk:r{r}")
            rolled: dict[str, list[dict[str, Any]]] = {"atk": atk, "def": []}
            values = pools.roll(self.rng, f"{self.label}:partisans:def:r{r}", int(spec.get("attack", 2)))
            hits["def"] = pools.hits_at_or_over(values, 6)
            rolled["def"].append({"what": "partisans", "count": len(values), "hit": 6, "values": values,
                                  "hits": hits["def"]})
            self.emit({"type": "combat_round", "zone": self.zone, "round": r, "attacker": self.attacker,
                       "dice": rolled, "hits": hits})
            self.attacker_losses(hits["def"], standing)
            if hits["atk"] >= int(spec.get("defence", 1)):
                self.emit({"type": "partisans_gone", "zone": self.zone, "why": "destroyed in battle"})
        self.after([])


class Siege(OneSided):
    """9.2-9.6: the besieger's dice against the fortification, which fires back."""

    def side_units(self, side: str) -> list[str]:
        if side == "atk":
            return [u for u in self.spec["units"] if self._here(u)]
        return []

    def run(self, standing: dict[str, dict[str, Any]]) -> None:
        rounds = int(self.spec["rounds"])
        cost = 0 if self.spec.get("free") else rounds * siege_cost(self.b)  # 12.41
        self.emit({"type": "siege", "zone": self.zone, "faction": self.attacker, "rounds": rounds,
                   "cost": cost, "fort": fort_now(self.b, self.state, self.zone)})
        difficult = any(e["faction"] == self.attacker and e["kind"] != "easy"
                        for e in self.state.get("entered", {}).get(self.zone, []))
        for r in range(1, rounds + 1):
            if not self.side_units("atk") or fort_now(self.b, self.state, self.zone) == 0:
                break  # the besiegers are gone, or the hits already reach the fortification
            self.siege_round(r, difficult and r == 1, standing)
        self.after_siege()

    def siege_round(self, r: int, plus_one: bool, standing: dict[str, dict[str, Any]]) -> None:
        hits = {"atk": 0, "def": 0}
        atk, hits["atk"] = self.attacker_dice(r, f"{self.label}:r{r}")
        rolled: dict[str, list[dict[str, Any]]] = {"atk": atk, "def": []}
        fort = fort_now(self.b, self.state, self.zone)  # 9.3 the fortification fires back
        if self.card_mods("atk", "no_defensive_fire"):  # a battle card (Storming of Perekop)
            fort = 0
        values = pools.roll(self.rng, f"{self.label}:r{r}:fort", fort)
        need = 5 if plus_one else 6
        if self.state["control"].get(self.zone) == "finland":
            need -= 1  # 13.3 Finnish fortifications hit on 5-6 (4-6 after a difficult route)
        hits["def"] = pools.hits_at_or_over(values, need)
        if values:
            rolled["def"].append({"what": "fortification", "count": fort, "hit": need,
                                  "values": values, "hits": hits["def"]})
        self.emit({"type": "combat_round", "zone": self.zone, "round": r, "attacker": self.attacker,
                   "dice": rolled, "hits": hits, "siege": True})
        self.emit({"type": "siege_hits", "zone": self.zone, "faction": self.attacker,
                   "hits": hits["atk"]})
        self.commissar_losses("atk", r)
        self.attacker_losses(hits["def"], standing)

    def taken(self) -> Event:
        """9.2 the besieger takes the zone, or gives it back to its minor (12.3); Reval
        taken by the Reds the first time goes to the Baltic States (13.2)."""
        owner = self.state["control"].get(self.zone)
        if self.spec.get("liberate"):
            return {"type": "control", "zone": self.zone, "faction": self.spec["liberate"], "from": owner,
                    "why": f"siege (9.2): {self.attacker} gives it back to {self.spec['liberate']} (12.3)"}
        if self.zone == REVAL and self.attacker == "red" and owner == "north" \
                and not (self.state.get("flags") or {}).get("reval_baltic"):
            return {"type": "control", "zone": self.zone, "faction": "baltic", "from": owner,
                    "why": "siege (9.2): Reval taken from North/Asia goes to the Baltic States (13.2)"}
        return {"type": "control", "zone": self.zone, "faction": self.attacker, "from": owner,
                "why": "siege (9.2)"}

    def fortification(self) -> int:
        return 0  # the besieger has no fortification of its own

    def dice(self, side: str, r: int, plus_one: bool) -> list[dict[str, Any]]:
        groups = super().dice(side, r, plus_one)
        # 10.83 Trotsky's 5-6 is for land combat only, not sieges
        for g in groups:
            if g["what"] == "Trotsky":
                g["what"], g["hit"] = "leaders", 6
        return groups

    def after_siege(self) -> None:
        """9.2 control changes when the hits reach the fortification; 9.4 not if no
        besieger is left (a Pyrrhic victory); 10.4 leader losses."""
        siege = self.state.get("siege", {}).get(self.zone)
        left = bool(self.side_units("atk"))
        if siege and siege["hits"] >= int(self.b.zones[self.zone]["fort"]):
            if left:
                self.emit(self.taken())
            else:
                self.emit({"type": "siege_lifted", "zone": self.zone,
                           "why": "Pyrrhic victory: no besieger left (9.4)"})
        elif not left and siege:
            self.emit({"type": "siege_lifted", "zone": self.zone, "why": "no besieger left (9.5)"})
        leaders = [lid for lid in self.spec["leaders"] if self._here(lid)]
        for lid in leaders:
            a = self.rng.roll(f"{self.label}:leader:{lid}:d1", 6)
            b = self.rng.roll(f"{self.label}:leader:{lid}:d2", 6)
            hit = a + b + self.lost["atk"] >= 12
            second = self.rng.roll(f"{self.label}:leader:{lid}:fate", 6) if hit else None
            result = "safe" if not hit else ("wounded" if second is not None and second <= 3 else "killed")
            self.emit({"type": "leader_loss", "leader": lid, "zone": self.zone, "dice": [a, b],
                       "steps": self.lost["atk"], "fate": second, "result": result})
            if hit:
                if lid == "lenin" and result == "killed":
                    self.lenin_killed()
                break


def resolve_sieges(b: Board, data: Any, state: State, faction: str, sieges: list[dict[str, Any]],
                   rng: Rng) -> tuple[list[Event], State]:
    events: list[Event] = []
    standing = dict(state.get("standing", {}))
    for spec in sieges:
        found, state = joined(b, state, faction, spec, rng, siege=True)
        events += found
        siege = Siege(b, data, state, faction, spec, rng)
        siege.label = f"siege:{label_part(spec['zone'])}:t{state['turn']}:{faction}"
        siege.run(standing)
        events += siege.events
        state = siege.state
    return events, state


def lift_sieges(b: Board, state: State) -> list[Event]:
    """9.5: at the end of a phase a siege with no besieger left is lifted."""
    out = []
    for zone, siege in sorted(state.get("siege", {}).items()):
        if not [u for u in commanded(state, zone, siege["faction"]) if state["units"][u]["type"] != "fleet"]:
            out.append({"type": "siege_lifted", "zone": zone, "why": "no besieger left (9.5)"})
    return out


# ---------------------------------------------------------------------------------------
# 8.92 fleets at sea: searches, blockades and naval combat
#
#   - search: {zone: Baltic Sea}                  # your fleets there seek out the enemy's
#   - blockade: {port: Reval}                     # your fleets at sea next to it close it
#   - lift_blockade: {port: Reval}
#
# Both take an optional `fleets: [...]` (default: all your fleets at sea there). They are
# given among the moves, in the order they happen; movement.plan reads them.

SEARCH_CONTACT = 7  # 8.92 two dice, contact on 7 or more
NAVAL_MAX_ROUNDS = 100  # a blockade run is fought to a decision; a bound for dice that never hit
NAVAL_ORDER = (*MAJORS, "allies")  # who searches first when several players could


def fleets_at(state: State, sea: str) -> list[str]:
    """The fleets on the map at sea in `sea` (fleets in its ports are not at sea)."""
    return sorted(pid for pid, p in state["units"].items()
                  if p["status"] == "map" and p["zone"] == sea and p["type"] == "fleet")


def enemy_fleets_at(state: State, sea: str, faction: str) -> list[str]:
    return [f for f in fleets_at(state, sea) if enemies(state, faction, state["units"][f]["faction"])]


def blockaders(b: Board, state: State, port: str, faction: str) -> list[str]:
    """8.92: the fleets that blockade `port` against `faction`: fleets of its enemies whose
    blockade of the port was declared and which still lie at sea next to it."""
    seas = (b.zones.get(port) or {}).get("ports") or []
    out = []
    for fid, blockaded in sorted(state.get("blockade", {}).items()):
        fleet = state["units"].get(fid)
        if (blockaded == port and fleet is not None and fleet["status"] == "map"
                and fleet["zone"] in seas and enemies(state, faction, fleet["faction"])):
            out.append(fid)
    return out


def stale_blockades(b: Board, state: State) -> list[Event]:
    """8.92: a blockade lasts until its fleet leaves the sea next to the port or is destroyed;
    the blockades whose fleet is gone (a step lost to upkeep, a card, a retreat) end."""
    out: list[Event] = []
    for fid, port in sorted(state.get("blockade", {}).items()):
        fleet = state["units"].get(fid)
        seas = (b.zones.get(port) or {}).get("ports") or []
        if fleet is None or fleet["status"] != "map":
            out.append({"type": "blockade_lifted", "port": port, "fleets": [fid],
                        "why": "the fleet is destroyed"})
        elif fleet["zone"] not in seas:
            out.append({"type": "blockade_lifted", "port": port, "fleets": [fid],
                        "why": f"the fleet left for {fleet['zone']}"})
    return out


def steps(state: State, pid: str) -> int:
    """Steps a counter has left: two at full strength, one reduced (5.5, 8.6)."""
    return 1 if state["units"][pid]["reduced"] else 2


def retreat_before_possible(b: Board, data: Any, state: State, attacker: str,
                            spec: dict[str, Any], faction: str) -> str | None:
    """8.4: whether `faction`, defending the battle of `spec`, has any retreat before combat
    it may make: None if it has, else why not (the rule's words), so that pbem asks the
    question only when the answer can matter."""
    battle = Battle(b, data, state, attacker, spec, rng=None)  # type: ignore[arg-type]
    units = [u for u in _units(state, battle.zone, {faction}) if state["units"][u]["type"] != "fleet"]
    if not units:
        return None  # leaders alone: 10.5 decides, not 8.4
    cav = sum(1 for u in units if state["units"][u]["type"] == "cav")
    atk_cav = sum(1 for u in battle.side_units("atk") if state["units"][u]["type"] == "cav")
    if atk_cav > cav and cav != len(units):
        return "the attacker has more cavalry (8.4)"
    if battle.retreat_options(faction, units, forced=False):
        return None
    if any(sea_passage(b, state, battle.zone, faction, sea, units)[0] for sea in b.seas):
        return None
    return ("no zone it may retreat to: not along a difficult route, nor the attacker's route, "
            "nor into an enemy zone or one with more enemy units, and no fleet to go by sea (8.4)")


def sea_passage(
    b: Board, state: State, zone: str, faction: str, sea: str, units: list[str],
) -> tuple[list[tuple[str, str]], str]:
    """8.4 a retreat by sea from `zone` into `sea`: the (fleet, unit) pairs that may go, or
    ([], why not). Only from a port of that sea not blockaded by an enemy fleet (8.4,
    8.92); only with a fleet of the faction's own in the zone (8.4; the faction's own, as
    for 7.5 transport); infantry only: cavalry, aircraft and tanks may not (8.4); one unit
    a fleet (7.5), with no more steps than the fleet (8.92: a full-strength unit needs a
    full-strength fleet; pbem does not sacrifice a step to board). The most units that can
    go, the strongest first: full-strength units take the full-strength fleets."""
    if sea not in ((b.zones.get(zone) or {}).get("ports") or []):
        return [], f"{zone} is not a port of the {sea} (8.4, 7.43)"
    blockers = blockaders(b, state, zone, faction)
    if blockers:
        return [], f"{zone} is blockaded by {', '.join(blockers)} (8.4, 8.92)"
    fleets = sorted((f for f in _units(state, zone, {faction})
                     if state["units"][f]["type"] == "fleet" and b.counters[f]["sea"] == sea),
                    key=lambda f: (-steps(state, f), f))
    if not fleets:
        return [], f"no {faction} fleet of the {sea} is in {zone} to carry them (8.4)"
    infantry = sorted((u for u in units if state["units"][u]["type"] == "inf"),
                      key=lambda u: (-steps(state, u), -int(b.counters[u]["full"][0]), u))
    if not infantry:
        return [], ("cavalry, aircraft and tanks may not retreat by sea (8.4)" if units
                    else "there is no land unit to carry (8.4)")
    pairs: list[tuple[str, str]] = []
    left = list(infantry)
    for fleet in fleets:  # full fleets first, each taking the strongest unit it can carry
        unit = next((u for u in left if steps(state, u) <= steps(state, fleet)), None)
        if unit is not None:
            pairs.append((fleet, unit))
            left.remove(unit)
    if not pairs:
        return [], ("a unit may not board a fleet that has fewer steps than it has: "
                    f"{', '.join(fleets)} lost a step and {', '.join(infantry)} did not (8.92)")
    return pairs, ""


def aboard(b: Board, state: State, fleet: str) -> list[str]:
    """8.4: the land units and leaders at sea aboard `fleet`, since they retreated by sea
    with it (state `aboard`, {piece: fleet}); they stay with it until they land (7.5)."""
    where = state["units"][fleet]
    return sorted(pid for pid, fid in (state.get("aboard") or {}).items()
                  if fid == fleet and state["units"][pid]["status"] == "map"
                  and where["status"] == "map" and state["units"][pid]["zone"] == where["zone"]
                  and where["zone"] in b.seas)


def stranded(b: Board, state: State) -> list[Event]:
    """8.4, 8.92: land units and leaders at sea whose fleet is gone (sunk, or off the sea for
    any other reason: upkeep, a card, the referee) are lost; by sea no unit moves without a
    fleet to carry it (8.4)."""
    out: list[Event] = []
    for pid, fid in sorted((state.get("aboard") or {}).items()):
        unit = state["units"][pid]
        if unit["status"] != "map" or unit["zone"] not in b.seas:
            continue  # landed or lost already
        fleet = state["units"].get(fid)
        if fleet is None or fleet["status"] != "map" or fleet["zone"] != unit["zone"]:
            out.append({"type": "eliminated", "unit": pid, "zone": unit["zone"],
                        "why": f"lost at sea with its fleet {fid}, which is gone (8.4, 8.92)"})
    return out


def friendly_port(state: State, zone: str, faction: str) -> bool:
    """A port a fleet may retreat into: its faction's; for the Allies a White one (18.1)."""
    if faction == "allies":
        return state["control"].get(zone) in WHITES
    return friendly_zone(state, zone, faction)


def _own_fleets(
    b: Board, state: State, faction: str, arg: dict[str, Any], path: Path_, seas: list[str],
    where: str, problems: list[Problem],
) -> list[str]:
    """The fleets an order names (`fleets`), each the faction's, at sea in one of `seas`; by
    default all of them. `where` describes the place for messages."""
    if "fleets" not in arg:
        return [f for sea in seas for f in fleets_at(state, sea)
                if state["units"][f]["faction"] == faction]
    out = []
    for j, text in enumerate(id_list(arg["fleets"])):
        at = (*path, "fleets", j)
        pid = piece_id(b, state, text, at, problems)
        if pid is None:
            continue
        if pid == "treasure" or state["units"][pid]["type"] != "fleet":
            problems.append(Problem(at, f"{pid} is not a fleet (8.92)"))
            continue
        fleet = state["units"][pid]
        if fleet["faction"] != faction:
            problems.append(Problem(at, f"{pid} belongs to {fleet['faction']}, not {faction}"))
        elif fleet["status"] != "map" or fleet["zone"] not in seas:
            now = ("off the map" if fleet["status"] != "map" else
                   f"in the {fleet['zone']}" if fleet["zone"] in b.seas else f"in {fleet['zone']}")
            problems.append(Problem(at, f"{pid} is not {where}: it is {now} (8.92)"))
        elif pid in out:
            problems.append(Problem(at, f"{pid} is named twice"))
        else:
            out.append(pid)
    return out


def check_search(
    b: Board, state: State, faction: str, arg: Any, path: Path_, searched: set[str],
    problems: list[Problem],
) -> dict[str, Any] | None:
    """8.92: the player in his phase seeks out the enemy fleets in a sea where his own are;
    one search of a sea a phase (a failed search is free, so it may not be repeated until it
    succeeds). Returns {zone, fleets, targets}."""
    if not check_keys(arg, path, ("zone",), ("fleets",), problems):
        return None
    sea = place_name(b, arg["zone"], (*path, "zone"), problems)
    if sea is None:
        return None
    if sea not in b.seas:
        problems.append(Problem((*path, "zone"), f"{sea} is not a sea zone: fleets search at sea "
                                                 f"({', '.join(b.seas)}) (8.92)"))
        return None
    if sea in searched:
        problems.append(Problem((*path, "zone"), f"the {sea} is searched once a phase (8.92)"))
        return None
    found: list[Problem] = []
    fleets = _own_fleets(b, state, faction, arg, path, [sea], f"at sea in the {sea}", found)
    problems += found
    if found:
        return None
    if not fleets:
        problems.append(Problem((*path, "zone"), f"you have no fleet at sea in the {sea} to "
                                                 "search with (8.92)"))
        return None
    targets = enemy_fleets_at(state, sea, faction)
    if not targets:
        problems.append(Problem((*path, "zone"), f"there is no enemy fleet at sea in the {sea} to "
                                                 "search for (8.92)"))
        return None
    searched.add(sea)
    return {"zone": sea, "fleets": fleets, "targets": targets}


def check_blockade(
    b: Board, state: State, faction: str, arg: Any, path: Path_, problems: list[Problem],
) -> Event | None:
    """8.92: the owner places the fleet next to the port (at sea in the port's sea) and
    declares the blockade; the port is not friendly to him."""
    if not check_keys(arg, path, ("port",), ("fleets",), problems):
        return None
    port = place_name(b, arg["port"], (*path, "port"), problems)
    if port is None:
        return None
    seas = (b.zones.get(port) or {}).get("ports") or []
    if not seas:
        problems.append(Problem((*path, "port"), f"{port} is not a port: a blockade closes a port "
                                                 "(8.92)"))
        return None
    if friendly_zone(state, port, faction):
        problems.append(Problem((*path, "port"), f"{port} is friendly to {faction}: a blockade "
                                                 "closes an enemy or neutral port (8.92)"))
        return None
    found: list[Problem] = []
    sea_names = " or the ".join(seas)
    fleets = _own_fleets(b, state, faction, arg, path, seas,
                         f"adjacent to {port}, at sea in the {sea_names}", found)
    problems += found
    if found:
        return None
    if not fleets:
        problems.append(Problem((*path, "port"), f"you have no fleet at sea in the {sea_names}, "
                                                 f"adjacent to {port}, to blockade it (8.92)"))
        return None
    already = [f for f in fleets if state.get("blockade", {}).get(f) == port]
    if already:
        problems.append(Problem((*path, "port"), f"{', '.join(already)} already blockade(s) {port}"))
        return None
    sea = str(state["units"][fleets[0]]["zone"])
    return {"type": "blockade", "faction": faction, "port": port, "sea": sea, "fleets": fleets}


def check_lift(
    b: Board, state: State, faction: str, arg: Any, path: Path_, problems: list[Problem],
) -> Event | None:
    """8.92: the owner may lift his blockade."""
    if not check_keys(arg, path, ("port",), ("fleets",), problems):
        return None
    port = place_name(b, arg["port"], (*path, "port"), problems)
    if port is None:
        return None
    mine = [f for f, p in sorted(state.get("blockade", {}).items())
            if p == port and state["units"][f]["faction"] == faction]
    if "fleets" in arg:
        named = [piece_id(b, state, t, (*path, "fleets", j), problems)
                 for j, t in enumerate(id_list(arg["fleets"]))]
        for j, pid in enumerate(named):
            if pid is not None and pid not in mine:
                problems.append(Problem((*path, "fleets", j), f"{pid} does not blockade {port}"))
        mine = [pid for pid in named if pid in mine]
    if not mine:
        problems.append(Problem((*path, "port"), f"you have no blockade of {port} to lift"))
        return None
    return {"type": "blockade_lifted", "port": port, "fleets": mine, "why": f"{faction} lifts it"}


class NavalBattle(Battle):
    """8.92 fleets against fleets: a search's single round, or a blockade run fought until one
    side is eliminated or has retreated. The dice and the losses are those of land combat
    (8.5 sixes hit, 8.6 whole steps, the `loss_order`); damaged fleets retreat (8.7) into a
    friendly port of their sea, or where the blockade rule sends them.

    spec: zone (the sea), units (the attacker's fleets), defenders (the other side's fleets),
    where {fleet: place it fights from, default the sea}, back_to {fleet: the only place it
    may retreat to}, cargo {fleet: the pieces it carries}, port (of a blockade run).
    """

    def __init__(self, b: Board, data: Any, state: State, attacker: str, spec: dict[str, Any],
                 rng: Rng, label: str) -> None:
        super().__init__(b, data, state, attacker, {"leaders": [], **spec}, rng)
        self.label = label
        self.where: dict[str, str] = dict(spec.get("where") or {})
        self.back_to: dict[str, str] = dict(spec.get("back_to") or {})
        self.cargo: dict[str, list[str]] = dict(spec.get("cargo") or {})
        for fid in [*spec.get("units", []), *spec.get("defenders", [])]:
            carried = aboard(b, state, fid)  # 8.4 units at sea since a retreat by sea
            if carried:
                self.cargo[fid] = [*self.cargo.get(fid, []), *carried]

    def emit(self, event: Event) -> None:
        super().emit(event)
        if event["type"] == "reduced" and event["unit"] in self.cargo:
            # 8.92 the unit a fleet carries suffers the same damage, eliminated if necessary
            for pid in self.cargo[event["unit"]]:
                piece = self.state["units"][pid]
                if piece["type"] != "leader" and piece["status"] == "map":
                    super().emit({"type": "reduced", "unit": pid,
                                  "by": f"a step lost by its carrier {event['unit']} (8.92)"})
        if event["type"] in ("reduced", "retreat", "eliminated"):
            for lost in stranded(self.b, self.state):  # 8.4 their fleet sank under them
                super().emit(lost)
            for lifted in stale_blockades(self.b, self.state):  # 8.92 its fleet left or sank
                super().emit(lifted)

    def side_units(self, side: str) -> list[str]:
        return [u for u in self.spec["units" if side == "atk" else "defenders"] if self._here(u)]

    def side_leaders(self, side: str) -> list[str]:
        return []  # leaders do not fight at sea

    def _here(self, pid: str) -> bool:
        p = self.state["units"][pid]
        return bool(p["status"] == "map" and p["zone"] == self.where.get(pid, self.zone))

    def fortification(self) -> int:
        return 0

    def dice(self, side: str, r: int, plus_one: bool) -> list[dict[str, Any]]:
        groups = super().dice(side, r, False)  # 8.5 one die per attack point, sixes hit
        for g in groups:
            g["what"] = "fleets"
        return groups

    def loss_order(self, side: str, standing: dict[str, dict[str, Any]]) -> list[str]:
        fleets = self.spec["units" if side == "atk" else "defenders"]
        owners = {self.state["units"][u]["faction"] for u in fleets}
        order: list[str] = []
        for faction in sorted(owners):
            order += [str(x) for x in standing.get(faction, {}).get("loss_order", []) or []]
        return order

    def fleet_retreat(self, pid: str, faction: str, rules: dict[str, Any]) -> str | None:
        """8.92 where a fleet at sea may retreat: a blockade runner only back where it came
        from; any other fleet into a friendly port of its sea, never one blockaded against it
        (entering it would be a fight), by the player's `retreat_to`, then by name."""
        if pid in self.back_to:
            return self.back_to[pid]
        sea = self.b.counters[pid]["sea"]
        options = [p for p in sorted(self.b.ports.get(sea, []))
                   if friendly_port(self.state, p, faction) and not iron_cross_closed(self.b, self.state, p)
                   and not blockaders(self.b, self.state, p, faction)]
        for zone in [self.b.places.get(z) for z in rules.get("retreat_to", []) or []]:
            if zone in options:
                return zone
        return options[0] if options else None

    def retreat_or_die(self, pid: str, faction: str, rules: dict[str, Any]) -> None:
        """8.7: a damaged fleet must retreat; one that cannot is eliminated."""
        dest = self.fleet_retreat(pid, faction, rules)
        here = self.where.get(pid, self.zone)
        if dest is None:
            self.emit({"type": "eliminated", "unit": pid, "zone": here,
                       "why": "no friendly port to retreat to (8.7, 8.92)"})
        else:  # 8.4 the units aboard go with their fleet: they land in the port
            self.emit({"type": "retreat", "zone": here, "faction": faction,
                       "units": [pid, *aboard(self.b, self.state, pid)],
                       "to": dest, "when": "after a round at sea (8.92)"})

    def voluntary_retreats(self, standing: dict[str, dict[str, Any]]) -> None:
        """8.7: the defender, then the attacker, may withdraw when outnumbered (standing
        `voluntary_retreat: when_outnumbered`), to where a forced retreat would go."""
        for side in ("def", "atk"):
            mine, theirs = self.side_units(side), self.side_units("atk" if side == "def" else "def")
            if not mine or not theirs or len(mine) >= len(theirs):
                continue
            for faction in sorted({self.state["units"][u]["faction"] for u in mine}):
                rules = standing_of(self.state, standing, faction)
                if rules.get("voluntary_retreat", "never") != "when_outnumbered":
                    continue
                for pid in [u for u in mine if self.state["units"][u]["faction"] == faction]:
                    dest = self.fleet_retreat(pid, faction, rules)
                    if dest is not None:
                        self.emit({"type": "retreat", "zone": self.where.get(pid, self.zone),
                                   "faction": faction,
                                   "units": [pid, *aboard(self.b, self.state, pid)], "to": dest,
                                   "when": "by choice after a round at sea (8.92)"})

    def naval_rounds(self, rounds: int | None) -> None:
        """`rounds` rounds, or (None) until one side is eliminated or has retreated (8.92)."""
        standing: dict[str, dict[str, Any]] = dict(self.state.get("standing", {}))
        r = 0
        while self.side_units("atk") and self.side_units("def"):
            r += 1
            if rounds is not None and r > rounds:
                break
            if r > NAVAL_MAX_ROUNDS:  # no decision: the runners turn back
                for pid in self.side_units("atk"):
                    self.emit({"type": "retreat", "zone": self.where.get(pid, self.zone),
                               "faction": self.attacker, "units": [pid],
                               "to": self.back_to.get(pid, self.zone),
                               "when": f"no decision after {NAVAL_MAX_ROUNDS} rounds (8.92)"})
                break
            self.round(r, False, standing)
        over: Event = {"type": "naval_battle_over", "zone": self.zone, "attacker": self.attacker,
                       "attacker_left": self.side_units("atk"),
                       "defender_left": self.side_units("def")}
        if self.spec.get("port"):
            over["port"] = self.spec["port"]
        self.emit(over)


def search(
    b: Board, data: Any, state: State, searcher: str, sea: str, fleets: list[str], label: str,
    rng: Rng, *, phasing: bool, cargo: dict[str, list[str]] | None = None,
) -> tuple[list[Event], State, bool]:
    """8.92: two dice, contact on 7 or more, then a single free round of naval combat between
    the searcher's fleets and every enemy fleet at sea there. Returns (events, state, contact)."""
    targets = enemy_fleets_at(state, sea, searcher)
    a = rng.roll(f"{label}:search:d1", 6)
    c = rng.roll(f"{label}:search:d2", 6)
    contact = a + c >= SEARCH_CONTACT
    battle = NavalBattle(b, data, state, searcher,
                         {"zone": sea, "units": fleets, "defenders": targets, "cargo": cargo or {}},
                         rng, label)
    battle.emit({"type": "naval_search", "zone": sea, "faction": searcher, "phasing": phasing,
                 "fleets": fleets, "targets": targets, "dice": [a, c], "contact": contact})
    if contact:
        battle.naval_rounds(1)
    return battle.events, battle.state, contact


def opponent_searches(
    b: Board, data: Any, state: State, mover: str, sea: str, label_tail: str, rng: Rng,
    cargo: dict[str, list[str]],
) -> tuple[list[Event], State, bool]:
    """8.92: a player who is not in his phase seeks out the mover's fleet sailing in a sea
    where his own fleets lie, when his standing instruction `naval_search` is `always`. The
    players who may, in turn order, until one makes contact. Returns (events, state, contact)."""
    events: list[Event] = []
    owners = {state["units"][f]["faction"] for f in fleets_at(state, sea)}
    ordered = sorted((f for f in owners if f != mover and enemies(state, f, mover)),
                     key=lambda f: (NAVAL_ORDER.index(f) if f in NAVAL_ORDER else len(NAVAL_ORDER), f))
    for faction in ordered:
        if state.get("standing", {}).get(faction, {}).get("naval_search", "never") != "always":
            continue
        fleets = [f for f in fleets_at(state, sea) if state["units"][f]["faction"] == faction]
        label = f"naval:{label_part(sea)}:t{state['turn']}:{faction}:on-{mover}:{label_tail}"
        found, state, contact = search(b, data, state, faction, sea, fleets, label, rng,
                                       phasing=False, cargo=cargo)
        events += found
        if contact:
            return events, state, True
    return events, state, False


def blockade_run(
    b: Board, data: Any, state: State, mover: str, runners: list[str], start: str, dest: str,
    port: str, label: str, rng: Rng,
) -> tuple[list[Event], State]:
    """8.92: fleets that have just left (start = port) or entered (dest = port) a port
    blockaded against them fight the blockaders, no search needed, until one side is
    eliminated or has retreated; a runner that retreats goes back where it came from."""
    sea = dest if start == port else start
    blockers = blockaders(b, state, port, mover)
    battle = NavalBattle(b, data, state, mover,
                         {"zone": sea, "units": runners, "defenders": blockers, "port": port,
                          "where": {f: dest for f in runners}, "back_to": {f: start for f in runners}},
                         rng, label)
    battle.emit({"type": "blockade_run", "zone": sea, "port": port, "faction": mover,
                 "fleets": runners, "blockaders": blockers,
                 "way": "leaving" if start == port else "entering"})
    battle.naval_rounds(None)
    return battle.events, battle.state


def describe(e: Event) -> str | None:
    """The report lines of the 8.92 naval events (combat_round and losses are land combat's)
    and of a retreat by sea (8.4)."""
    kind = e.get("type")
    if kind == "retreat" and e.get("by") == "sea":
        carried = ", ".join(u for u in e["units"] if u != e["fleet"])
        return (f"{e['faction']} {carried} retreat(s) by sea with {e['fleet']} from {e['zone']} "
                f"to the {e['to']} ({e['when']}, 8.4)")
    if kind == "naval_search":
        who = "" if e["phasing"] else " (not in its phase)"
        result = "contact: one round of naval combat" if e["contact"] else "no contact"
        return (f"{e['faction']}{who} searches the {e['zone']} with {', '.join(e['fleets'])} for "
                f"{', '.join(e['targets'])}: {e['dice'][0]}+{e['dice'][1]} = {sum(e['dice'])}, "
                f"{result} (8.92)")
    if kind == "blockade_run":
        return (f"{', '.join(e['fleets'])} {e['way']} blockaded {e['port']} must fight "
                f"{', '.join(e['blockaders'])} in the {e['zone']} to a decision (8.92)")
    if kind == "naval_battle_over":
        atk = ", ".join(e["attacker_left"]) or "none"
        dfn = ", ".join(e["defender_left"]) or "none"
        return (f"naval combat in the {e['zone']} over: the side of {e['attacker']} keeps {atk}, "
                f"the other side {dfn}")
    if kind == "blockade":
        return f"{e['faction']} {', '.join(e['fleets'])} blockade {e['port']} from the {e['sea']} (8.92)"
    if kind == "blockade_lifted":
        return f"blockade of {e['port']} by {', '.join(e['fleets'])} lifted: {e['why']} (8.92)"
    return None
