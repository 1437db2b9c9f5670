"""9.x sieges, and the one-sided battles they share with partisan hunts (15.2)."""

from __future__ import annotations

from typing import Any

from pbem.game import Event, Problem, Rng, State
from pbem.kit import pools
from pbem.kit.orders import check_keys

from . import minors
from .battle import MAX_ROUNDS, Battle
from .board import HARD_ROUTES, MAJORS, MINORS, WHITES, Board
from .common import (
    REVAL,
    Path_,
    allegiance,
    enemies,
    id_list,
    iron_cross_closed,
    label_part,
    piece_id,
    place_name,
)
from .forces import (
    allocate,
    commanded,
    fort_now,
    joined,
    roll_groups,
    siege_cost,
    standing_of,
    units_at,
)


def check_sieges(
    b: Board, state: State, faction: str, sieges: list[tuple[int, Any]], money_left: int,
    problems: list[Problem], after_battle: set[str] | None = None,
) -> list[dict[str, Any]]:
    """9.1: a zone with your land units and no enemy or neutral land units, not yours, and
    for a White faction not another White faction's (18.1)."""

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
        others = [u for u in units_at(state, zone) if state["units"][u]["faction"] != faction
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
        if "leaders" in arg:  # 10.2 the leaders named, each yours and there (as in an attack)
            named = [piece_id(b, state, t, (*path, "leaders", j), problems)
                     for j, t in enumerate(id_list(arg["leaders"]))]
            strangers = [lid for lid in named if lid is not None and lid not in leaders]
            for lid in strangers:
                problems.append(Problem((*path, "leaders"), f"{lid} is not your leader in {zone}"))
            if strangers:
                continue
            leaders = [lid for lid in named if lid is not None]
        free = minors.free_force(state, mine)
        if free and rounds > minors.FREE_ROUNDS:  # 12.41 two rounds, presumed paid
            problems.append(Problem((*path, "rounds"), f"minor or allied units alone besiege for "
                                                       f"{minors.FREE_ROUNDS} rounds, presumed paid (12.41)"))
            continue
        total += 0 if free else rounds * siege_cost(b)
        # 9.1 "A fleet may take part in a siege as long as a friendly land unit is engaged"
        fleets = [u for u in commanded(state, zone, faction) if state["units"][u]["type"] == "fleet"]
        out.append({"zone": zone, "rounds": rounds, "units": mine + fleets, "leaders": leaders,
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
                owner = self.state["units"][pid]["faction"]
                self.retreat_or_die(pid, owner, standing_of(self.state, standing, owner, [pid]))


class PartisanHunt(OneSided):
    """15.2: partisans alone in a zone, attacked: as many rounds as it takes for one money
    (a probe's price, 8.3), whatever the spending set aside. They defend normally: their
    dice (their attack, game.yaml partisans) hit on a six, and a hit on their defence of 1
    destroys them. The attacker's losses and retreats are those of any battle (8.6, 8.7)."""

    def run(self) -> None:
        spec = self.b.game.get("partisans") or {}
        raised = (self.state.get("partisans") or {}).get(self.zone)  # 15.2 the side that raised them
        self.opposed["atk"] = {str(raised)} if raised else set()
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
            self.commissar_losses("atk", r)  # 10.82 "a battle or siege": a hunt is a battle
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
        holder = self.state["control"].get(self.zone)
        self.opposed["atk"] = {str(holder)} if holder else set()  # the fortification's side
        cost = 0 if self.spec.get("free") else rounds * siege_cost(self.b)  # 12.41
        self.emit({"type": "siege", "zone": self.zone, "faction": self.attacker, "rounds": rounds,
                   "cost": cost, "fort": fort_now(self.b, self.state, self.zone)})
        difficult = any(e["faction"] == self.attacker and e["kind"] in HARD_ROUTES
                        for e in self.state.get("entered", {}).get(self.zone, []))
        for r in range(1, rounds + 1):
            if not self.land("atk") or fort_now(self.b, self.state, self.zone) == 0:
                break  # the land besiegers are gone (9.1), or the hits reach the fortification
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
        left = bool(self.land("atk"))  # a fleet takes no zone
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
                    self.lenin_killed("atk")
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
