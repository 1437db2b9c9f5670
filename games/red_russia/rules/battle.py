"""A battle (8.1-8.8, 8.91, 8.93, 10.2, 10.4, 10.5, 18.1): rounds, fire, losses, retreats
and pursuit, on a copy of the state; the land, siege and naval battles build on it."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

from pbem.game import Event, Rng, State

from . import minors
from .board import HARD_ROUTES, MINORS, WHITES, Board
from .common import (
    allegiance,
    defenders_of,
    enemies,
    friendly_zone,
    iron_cross_closed,
    label_part,
    landed_from,
    last_step,
)
from .fold import apply_with
from .forces import (
    allocate,
    blockaders,
    fort_now,
    leaders_at,
    nearest_friendly,
    roll_groups,
    sea_passage,
    standing_of,
    units_at,
)

LEVELS = {1: ("probe", 1), 3: ("assault", 2), 5: ("invasion", 0)}  # 8.3: cost -> rounds
INVASION_ROUNDS = 4  # 8.3 an invasion goes on until the attacker stops: default standing
MAX_ROUNDS = 20  # a safety bound for an invasion where nothing can be hit
AIR_ALONE = "no combat: aircraft alone (8.93)"  # the level of an attack on them
RIVALS = ("stalin", "lenin")  # 10.83 the company that distracts Trotsky


def trotsky_distracted(b: Board, state: State, events: list[Event]) -> Event | None:
    """10.83 "If Trotsky finds himself at any moment during the Red turn in a zone with
    Stalin or Lenin, his leadership value is reduced from 3 to 2": the event saying so, if
    Trotsky shared a zone with either at the start of the Red action phase (`state`) or
    at any point of its moves (`events`, each zone of a path counted); None otherwise, or
    when this turn's event was already given (README ruling 58)."""
    if (state.get("flags") or {}).get("trotsky_distracted") == state["turn"]:
        return None
    work = state
    for e in [None, *events]:  # None: the position as the phase begins
        if e is not None:
            for rival in RIVALS if e["type"] == "moved" else ():
                met = _met_on_the_way(work, e["path"], set(e["units"]), rival)
                if met:
                    return {"type": "trotsky_distracted", "with": rival, "zone": met}
            work = apply_with(b, work, e)
        where = _on_map(work, "trotsky")
        for rival in RIVALS:
            if where is not None and _on_map(work, rival) == where:
                return {"type": "trotsky_distracted", "with": rival, "zone": where}
    return None


def _on_map(state: State, pid: str) -> str | None:
    unit = state["units"].get(pid)
    return str(unit["zone"]) if unit is not None and unit["status"] == "map" else None


def _met_on_the_way(state: State, path: list[str], movers: set[str], rival: str) -> str | None:
    """The first zone of a move's path where one of Trotsky and `rival` passes through the
    zone where the other stands (moving in one stack, they were together before it)."""
    if "trotsky" in movers:
        still = _on_map(state, rival)
    elif rival in movers:
        still = _on_map(state, "trotsky")
    else:
        return None
    return next((str(zone) for zone in path if zone == still), None)


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
        # the factions each side fights, as the battle began (10.8.1: who killed Lenin)
        self.opposed: dict[str, set[str]] = {"atk": set(), "def": set()}
        self.label = f"combat:{label_part(self.zone)}:t{state['turn']}:{attacker}"

    def emit(self, event: Event) -> None:
        if event["type"] == "reduced":
            event = {**event, **last_step(self.state, event["unit"])}
        self.events.append(event)
        self.state = apply_with(self.b, self.state, event)

    # -- sides -----------------------------------------------------------------------------
    def side_units(self, side: str) -> list[str]:
        if side == "atk":
            return [u for u in self.spec["units"] if self._here(u)]
        foes = defenders_of(self.state, self.zone, self.attacker)
        port = bool(self.b.zones.get(self.zone, {}).get("ports"))  # 8.92
        return [u for u in units_at(self.state, self.zone, foes)
                if self.state["units"][u]["type"] != "fleet" or port]

    def side_leaders(self, side: str) -> list[str]:
        if side == "atk":
            return [lid for lid in self.spec["leaders"] if self._here(lid)]
        standing = self.state.get("standing", {})
        # 10.2: a defender may keep leaders out of the battle (standing leaders_stay_out)
        return [lid for lid in leaders_at(self.state, self.zone, defenders_of(self.state, self.zone, self.attacker))
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
            units = [u for u in units_at(self.state, self.zone, {faction})
                     if self.state["units"][u]["type"] != "fleet"]
            rules = standing_of(self.state, standing, faction, units)
            if rules.get("retreat_before_combat", "never") != "always":
                continue
            cav = sum(1 for u in units if self.state["units"][u]["type"] == "cav")
            only_cav = bool(units) and cav == len(units)
            if atk_cav > cav and not only_cav:
                self.emit({"type": "note", "zone": self.zone, "text": f"{faction} cannot retreat "
                           "before combat: the attacker has more cavalry (8.4)"})
                continue
            leaders = leaders_at(self.state, self.zone, {faction})
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
        `origin`, the first step of a longer retreat), by name; last, for a forced retreat
        of units that landed here from a waiting box this phase, that box (7.8)."""
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
            foes_there = [u for u in units_at(self.state, there)
                          if enemies(self.state, faction, self.state["units"][u]["faction"])]
            if len(foes_there) > len(units):
                continue
            options.append(there)
        box = landed_from(self.state, self.zone, units) if forced and origin == self.zone else None
        if box is not None:  # 7.8 forced back into the waiting box they landed from, no other
            options.append(box)
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
        self.opposed = {"atk": set(defenders), "def": self.owners("atk")}
        if self.alone_in_the_air():
            # 8.93 "The enemy player does not have to pay for this combat, insofar as it is
            # not supposed to have taken place"
            spend, level, rounds = 0, AIR_ALONE, 0
        self.emit({"type": "attack", "zone": self.zone, "attacker": self.attacker,
                   "defenders": defenders, "spend": spend, "level": level, "rounds": rounds})
        if self.air_alone():
            return
        difficult = any(e["faction"] == self.attacker and e["kind"] in HARD_ROUTES
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

    def alone_in_the_air(self) -> bool:
        """8.93: only aircraft defend here; a fleet in a port zone takes part in its land
        battle (8.92), so aircraft with one are not alone."""
        units = self.side_units("def")
        return bool(units) and all(self.state["units"][u]["type"] == "air" for u in units)

    def air_alone(self) -> bool:
        """8.93: aircraft caught alone retreat at once and lose a step on 1-2."""
        if not self.alone_in_the_air():
            return False
        for u in self.side_units("def"):
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
            if lid == "trotsky" and (set(RIVALS) & set(leaders_at(self.state, self.zone, {"red"}))
                                     or self._trotsky_distracted()):
                level = min(level, 2)
            out[lid] = level
        return out

    def _trotsky_distracted(self) -> bool:
        """10.83: he met Stalin or Lenin during this Red turn, and this is its fight."""
        met = (self.state.get("flags") or {}).get("trotsky_distracted")
        return self.attacker == "red" and met == self.state["turn"]

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
                self.retreat_or_die(pid, faction, standing_of(self.state, standing, faction, [pid]))
        self.voluntary_retreats(standing)

    def withdrawing(
        self, standing: dict[str, dict[str, Any]]
    ) -> Iterator[tuple[str, str, list[str], dict[str, Any]]]:
        """8.7: each faction of the defender, then of the attacker, that may withdraw after a
        round: its side is outnumbered and its standing `voluntary_retreat` is
        `when_outnumbered` (default never). Yields its side, the faction, its units here and
        its standing instructions; each side is counted when its turn comes."""
        for side in ("def", "atk"):
            mine, theirs = self.side_units(side), self.side_units("atk" if side == "def" else "def")
            if not mine or not theirs or len(mine) >= len(theirs):
                continue
            for faction in sorted({self.state["units"][u]["faction"] for u in mine}):
                own = [u for u in mine if self.state["units"][u]["faction"] == faction]
                rules = standing_of(self.state, standing, faction, own)
                if rules.get("voluntary_retreat", "never") == "when_outnumbered":
                    yield side, faction, own, rules

    def voluntary_retreats(self, standing: dict[str, dict[str, Any]]) -> None:
        """8.7: then the defender, and after it the attacker, may retreat with what is left;
        by mail the standing `voluntary_retreat: when_outnumbered` says when (default never),
        under the restrictions of 8.4."""
        for side, faction, own, rules in self.withdrawing(standing):
            units = [u for u in own if self.state["units"][u]["type"] != "fleet"]
            if units:
                dest = self.retreat_zone(faction, units, forced=False, rules=rules)
                if dest is None:
                    continue
                leaders = [lid for lid in leaders_at(self.state, self.zone, {faction})
                           if side == "def" or lid in self.spec["leaders"]]
                self.emit({"type": "retreat", "zone": self.zone, "faction": faction,
                           "units": units + leaders, "to": dest,
                           "when": "by choice after a round"})
            # 8.92 its fleets put to sea with them, never overland, and stay in a blockaded port
            fleets = [u for u in own if self.state["units"][u]["type"] == "fleet"]
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
                                       else leaders_at(self.state, self.zone, owners))
                       if self._here(lid)]
            if not leaders:
                continue
            if not units_at(self.state, self.zone, owners):
                for lid in leaders:  # 10.5 the units are gone: capture
                    self.capture(lid, side)
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
                        self.lenin_killed(side)
                    break
        self.emit({"type": "battle_over", "zone": self.zone, "attacker": self.attacker,
                   "attacker_left": bool(self.side_units("atk")),
                   "defender_left": bool(self.side_units("def"))})

    def capture_lone_leaders(self) -> None:
        """10.5: the enemy leaders in the zone with no unit of their side, when the
        attacker's units enter it, roll for their capture."""
        self.opposed["def"] = self.owners("atk")
        for lid in leaders_at(self.state, self.zone, None):
            owner = self.state["units"][lid]["faction"]
            if not enemies(self.state, self.attacker, owner):
                continue
            if not any(not enemies(self.state, owner, self.state["units"][u]["faction"])
                       for u in units_at(self.state, self.zone)):
                self.capture(lid, "def")

    def capture(self, lid: str, side: str) -> None:
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
                self.lenin_killed(side)

    def lenin_killed(self, side: str) -> None:
        """10.8.1: two dice of manpower and money lost by the Reds, and "he is worth one
        victory point ... to the Whites if he dies": to the White factions `side` fought,
        a minor counting for the White faction commanding it (README ruling 57)."""
        manpower = self.rng.roll(f"{self.label}:lenin:manpower", 6)
        money = self.rng.roll(f"{self.label}:lenin:money", 6)
        by = sorted({allegiance(self.state, f) for f in self.opposed[side]} & set(WHITES))
        self.emit({"type": "lenin_killed", "manpower": manpower, "money": money, "by": by})
