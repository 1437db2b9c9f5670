"""The Russian revolution and the CIVIL WAR house rule (campaign option `revolution: civil_war`).

The house rule's text is ../shared/rules/aa1914-russian-civil-war.txt (everything after its
"Design Note" line is forum chatter, not rules); its steps 1-6 ("The Revolution Phase") are
quoted at the code that does each. The trigger is the armistice's (rules/revolution.py
`trigger`, game.yaml `revolution: trigger`); the places and numbers of the steps are
game.yaml `revolution: civil_war`. The rulings where the text is silent are listed in
games/aa1914/README.md ("The civil war"); each is said where it is made.

What happens, in order:

- at the end of the Mobilize phase of each Russian turn from round `from_round`, while the
  option is `civil_war` and the revolution has not happened, the trigger is checked and the
  check logged, met or not (`revolution_check`, shared with the armistice);
- when it is met the revolution takes place at once: Russia's Collect Income phase is skipped
  (`civil_war`, which records the IPC not collected), then steps 1 and 2 (the evacuations,
  `civil_war_retreat` and `civil_war_control`), 3 and 5 (the Soviet power enters with its
  treasury, `soviets_enter`), 4 and 5 (its units and control markers, `soviets_placed`), the
  treaty of Brest-Litovsk (`brest_litovsk`); step 6, Imperial Russia keeps its treasury, is
  nothing to do. The Soviet power is then seated (`seating`): the engine gives it the seat
  of the player of the Central power the option `soviets_player` names;
- afterwards: the Soviets play after the USA; moves the treaty and the text forbid are refused
  (`entry`); Imperial Russia mobilizes nothing while it does not hold Moscow
  (board.without_capital); Moscow counts for no Central Powers victory (`uncounted`); at the
  end of every turn while Imperial Russia holds Moscow, the original Russian territories
  (and Serbia and Romania) other Allies hold go back to it (`civil_war_reverted`).

The state's `revolution` (rules/revolution.py) gains, when the civil war begins:

    status       "civil_war"
    round        the round of the revolution
    soviets      the Soviet power's id
    played_by    the Central power whose player plays it
    homes        the territories the Soviet control markers were placed on (step 5): its
                 own for mobilizing (Moscow's factory, Karelia's port)
"""

from __future__ import annotations

from typing import Any

from pbem.game import Event, GameData, State, clone
from pbem.kit.events import Apply, Describe
from pbem.names import counted

from . import board, revolution

CIVIL_WAR = "civil_war"  # the option's choice that plays this house rule, and the status
STANDING = "evacuation"  # the standing instruction {TERRITORY: DESTINATION} for steps 1 and 2


def settings(data: GameData) -> dict[str, Any]:
    """game.yaml `revolution: civil_war`."""
    return dict(data["game"]["revolution"]["civil_war"])


def begun(state: State) -> bool:
    return board.civil_war(state)


def host(state: State) -> str:
    """The Central power whose player takes on the Soviets (the option `soviets_player`)."""
    return str((state.get("options") or {}).get("soviets_player", "germany"))


def seating(data: GameData, state: State) -> dict[str, str | None]:
    """The Game protocol's seating: once the civil war has begun, the Soviet power is played
    by the player of the Central power the campaign named (step 3)."""
    rev = state.get("revolution") or {}
    return {str(rev["soviets"]): str(rev["played_by"])} if begun(state) else {}


def _name(data: GameData, pid: str) -> str:
    if pid == board.NEUTRAL:
        return "neutral"
    return str(board.power(data, pid)["name"])


# ---------------------------------------------------------------------------------------
# the revolution


def end_of_mobilize(data: GameData, state: State, pid: str, income: int) -> list[Event]:
    """At the end of the Mobilize phase of the revolution power's turn: the check, and when
    it is met the revolution, every step of it. `income` is what the power would collect
    now: the revolution skips its Collect Income phase."""
    rules = revolution.settings(data)
    rev = state.get("revolution") or {}
    if (revolution.chosen(state) != CIVIL_WAR or pid != rules["power"]
            or rev.get("status") != "waiting" or state["turn"] < int(rules["from_round"])):
        return []
    checked = {**revolution.trigger(data, state), "then": CIVIL_WAR}
    if not checked["met"]:
        return [checked]
    war = settings(data)
    begins: Event = {"type": CIVIL_WAR, "power": pid, "round": state["turn"],
                     "skipped_income": income, "kept": state["treasury"][pid],  # step 6
                     "soviets": war["soviets"], "played_by": host(state),
                     "homes": [t for t in war["soviet_units"] if not board.is_sea(t)]}
    return [checked, begins, *steps(data, state)]


def began(events: list[Event]) -> bool:
    """The events include the revolution (its turn collects no income)."""
    return any(e["type"] == CIVIL_WAR for e in events)


def steps(data: GameData, state: State) -> list[Event]:
    """Steps 1 to 5 and the treaty of Brest-Litovsk, on the position as the revolution finds
    it (each step's places are game.yaml's and do not overlap what the others change)."""
    war = settings(data)
    evacuate = war["evacuate"]
    out: list[Event] = []
    # 1. all Russian and other Allied forces in Moscow, Karelia and Kazakhstan retreat one space
    out += _retreats(data, state, "1", "allies", evacuate["allies"])
    # 2. all Central Powers units and control markers leave Moscow, Karelia, Tatarstan and
    # Kazakhstan in the same manner, or go to their capitals
    out += _retreats(data, state, "2", "central", evacuate["central"])
    for t in evacuate["central"]:
        if t in war["soviet_units"]:
            continue  # step 5 places a Soviet marker there
        holder = state["control"].get(t, "")
        if board.side(data, holder) == "central" or board.contested(state, t):
            # ruling: with the Central Powers' marker and units gone, an Allied holder keeps
            # it, otherwise it is its original owner's (Tatarstan: Imperial Russia's)
            to = holder if board.side(data, holder) == "allies" else board.original_owner(data, t)
            out.append({"type": "civil_war_control", "step": "2", "where": t, "power": to,
                        "was": holder})
    # 3. introduce the Soviet power, played by the player the campaign names; 5. its treasury
    soviets = board.power(data, war["soviets"])
    out.append({"type": "soviets_enter", "power": soviets["id"], "after": soviets["after"],
                "played_by": host(state), "ipc": int(war["soviet_ipc"])})
    # 4. the Soviet units; 5. a Soviet control marker on each land territory among them
    # (ruling: the cruiser is placed in SZ 12 whatever stands there; placing is not moving:
    # no minefield die and no battle then; it may be fought there on a later turn)
    for where, units in war["soviet_units"].items():
        out.append({"type": "soviets_placed", "power": soviets["id"], "where": where,
                    "units": dict(units), "control": not board.is_sea(where)})
    # the treaty, on the position the evacuations leave (units may have retreated into Outer Russia)
    evacuated = clone(state)
    for event in out:  # each of them this module's (APPLY, below)
        APPLY[event["type"]](data, evacuated, event)
    out += [_treaty(data, evacuated, t) for t in war["outer_russia"]]
    # 6. Imperial Russia keeps any leftover IPCs in its treasury: nothing to do
    return out


def refuges(data: GameData, state: State, side: str, place: str, evacuated: list[str]) -> list[str]:
    """Where units of `side` may retreat to from `place` (steps 1 and 2): an adjacent land
    territory controlled by a power of their side, or contested with units of their side
    there; never one evacuated in the same step (a ruling). Retreating onto transports is
    not refereed (README: the referee's `adjust`)."""
    out: list[str] = []
    for t in board.adjacent(data, place):
        if board.is_sea(t) or t in evacuated or data["map"]["territories"][t].get("impassable"):
            continue
        held = board.side(data, state["control"].get(t, "")) == side
        fought = board.contested(state, t) and any(
            board.side(data, o) == side and any(u.values())
            for o, u in state["units"].get(t, {}).items())
        if held or fought:
            out.append(t)
    return out


def _retreats(data: GameData, state: State, step: str, side: str, places: list[str]) -> list[Event]:
    """One event for each power's units in each place: where they go, by the owner's
    standing `evacuation: {PLACE: DESTINATION}` when it names a refuge, else by the default
    (a ruling): the refuge where most units of their side stand, ties in map.yaml's order of
    the neighbours. With no refuge, step 1's units are removed, step 2's go to their power's
    capital if it holds it (otherwise removed: a ruling)."""
    out: list[Event] = []
    for place in places:
        options = refuges(data, state, side, place, places)
        for owner, units in state["units"].get(place, {}).items():
            here = {u: n for u, n in units.items() if n}
            if board.side(data, owner) != side or not here:
                continue
            asked = ((state.get("standing") or {}).get(owner, {}).get(STANDING) or {}).get(place)
            capital = board.power(data, owner)["capital"]
            to: str | None
            if asked in options:
                to, how = asked, "standing"
            elif options:
                to, how = max(options, key=lambda t: (_side_units(data, state, t, side),
                                                      -options.index(t))), "default"
            elif side == "central" and board.controls(state, owner, capital):
                to, how = capital, "capital"
            else:
                to, how = None, "removed"
            out.append({"type": "civil_war_retreat", "step": step, "where": place, "power": owner,
                        "units": here, "to": to, "how": how})
    return out


def _side_units(data: GameData, state: State, place: str, side: str) -> int:
    return sum(n for o, u in state["units"].get(place, {}).items() if board.side(data, o) == side
               for n in u.values())


def _treaty(data: GameData, state: State, t: str) -> Event:
    """The treaty of Brest-Litovsk: Outer Russia ceded to the Central Powers. Rulings: a
    territory a Central Powers power holds stays with it; one Allied forces hold with none of
    the Central Powers' units there stays with its holder (the Imperial forces do not sign:
    the Central Powers must take it); one contested goes to the Central Powers power with
    most units there (ties: turn order) and stays contested ("the Imperial White forces there
    remain in combat"); any other goes to game.yaml `ceded_to` (Germany)."""
    holder = state["control"].get(t, "")
    here = {o: sum(u.values()) for o, u in state["units"].get(t, {}).items() if any(u.values())}
    central = [o for o in here if board.side(data, o) == "central"]
    allied = [o for o in here if board.side(data, o) == "allies"]
    event: Event = {"type": "brest_litovsk", "where": t, "was": holder,
                    "contested": board.contested(state, t)}
    if board.side(data, holder) == "central":
        return {**event, "power": holder, "case": "held"}
    if allied and not central:
        return {**event, "power": holder, "case": "defended"}
    if central:
        order = [p["id"] for p in board.powers(data)]
        first = min(central, key=lambda p: (-here[p], order.index(p)))
        return {**event, "power": first, "case": "contested"}
    return {**event, "power": settings(data)["ceded_to"], "case": "ceded"}


# ---------------------------------------------------------------------------------------
# afterwards


def end_of_turn(data: GameData, state: State, pid: str) -> list[Event]:
    """After the battles of every turn of the civil war, before mobilization and income: once
    Moscow is back in Imperial hands (held by Imperial Russia, uncontested), every original
    Russian territory, and Serbia and Romania (game.yaml `revert_also`), that another Allied
    power controls reverts to it at once (ruling: Serbia and Romania whether or not they had
    joined Russia before), so that Imperial Russia collects for them in the turn it retakes
    Moscow and an Ally that retakes it does not."""
    if not begun(state):
        return []
    russia = state["revolution"]["power"]
    if board.without_capital(data, state, russia):
        return []
    places = [t for t, v in data["map"]["territories"].items() if v["owner"] == russia]
    places += [t for t in settings(data)["revert_also"] if t not in places]
    back = {t: state["control"][t] for t in places
            if board.side(data, state["control"].get(t, "")) == "allies"
            and state["control"][t] != russia}
    return [{"type": "civil_war_reverted", "power": russia, "from": back}] if back else []


def entry(data: GameData, state: State, pid: str, steps: list[str], units: dict[str, int]) -> str | None:
    """Why a move along `steps` may not go where it goes in the civil war, or None."""
    if not begun(state):
        return None
    war = settings(data)
    soviets = state["revolution"]["soviets"]
    if board.side(data, pid) == "central" and pid != soviets:
        for place in steps[1:]:
            if place in war["inner_russia"]:
                return (f"the civil war: the Central Powers recognize Soviet Russia's claim to "
                        f"Inner Russia and may not enter {board.name(data, place)}")
        return None
    if pid != soviets:
        return None
    land = any(board.domain(data, u) == "land" for u in units)
    for place in steps[1:]:
        name = board.name(data, place)
        if board.is_sea(place):
            continue
        original = board.original_owner(data, place)
        holder = state["control"].get(place, "")
        if board.side(data, original) == "central":
            return (f"the civil war: Soviet units never enter a territory originally the Central "
                    f"Powers' ({name}, originally {_name(data, original)}'s)")
        if board.side(data, holder) == "central" and holder != soviets:
            return (f"the civil war: Soviet units never enter a territory the Central Powers "
                    f"control ({name}, held by {_name(data, holder)})")
        if board.contested(state, place) and any(
                board.side(data, o) == "central" and o != soviets and any(u.values())
                for o, u in state["units"].get(place, {}).items()):
            return (f"the civil war: Soviet units never enter a territory the Central Powers "
                    f"contest ({name})")
        if land and place in war["sovereign"]:
            return (f"the civil war: Soviet Russia respects the sovereignty of {name}; its land "
                    "units may not enter it")
    end = steps[-1]
    if board.is_sea(end) and any(board.side(data, o) == "central" and o != soviets and any(u.values())
                                 for o, u in state["units"].get(end, {}).items()):
        return (f"the civil war: Soviet ships may sail through {board.name(data, end)} but not end "
                "their move in a sea zone with Central Powers units")
    return None


def uncounted(data: GameData, state: State, territory: str) -> bool:
    """Moscow counts for no Central Powers victory once the civil war has begun: it became
    the Soviet capital without a battle, and the other Central Powers may not enter it
    (ruling: even retaken by the Soviets in combat)."""
    return begun(state) and territory == board.power(data, state["revolution"]["soviets"])["capital"]


def check_standing(data: GameData, state: State, pid: str, value: Any) -> str | None:
    """The standing instruction `evacuation: {TERRITORY: DESTINATION}`, or why it is refused."""
    if revolution.chosen(state) != CIVIL_WAR:
        return ("evacuation is given only in a campaign with the option revolution: civil_war; "
                f"this one plays with revolution: {revolution.chosen(state)}")
    if begun(state):
        return f"the revolution took place in round {state['revolution']['round']}: no more evacuations"
    side = board.side(data, pid)
    if side is None:
        return f"{pid} is not a power"
    places = settings(data)["evacuate"][side]
    if not isinstance(value, dict) or not value:
        return ("expected evacuation: {TERRITORY: DESTINATION}, where your units there retreat to "
                f"at the revolution, from {', '.join(places)}")
    for place, to in value.items():
        if place not in places:
            return (f"evacuation: {place!r} is not a territory {side} units leave at the revolution "
                    f"({', '.join(places)})")
        near = [t for t in board.adjacent(data, place) if not board.is_sea(t) and t not in places]
        if to not in near:
            return (f"evacuation: {place}: {to!r} is not a land territory next to it that is not "
                    f"itself evacuated ({', '.join(near)})")
    return None


def view(data: GameData, state: State) -> str:
    """Where the civil war stands, in a sentence for the players' view."""
    rules = revolution.settings(data)
    russia = _name(data, rules["power"])
    soviets = _name(data, settings(data)["soviets"])
    rev = state.get("revolution") or {}
    if begun(state):
        return (f"civil war since round {rev['round']}: {soviets} plays after the USA, played by "
                f"the player of {_name(data, rev['played_by'])}")
    return (f"civil war: checked at the end of each {russia} mobilization from round "
            f"{rules['from_round']}; then {soviets} enters, played by the player of "
            f"{_name(data, host(state))}")


def check_data(data: GameData) -> list[str]:
    """What the schema cannot say of game.yaml `revolution: civil_war`: the ids it names."""
    war = (data["game"].get("revolution") or {}).get("civil_war")
    if war is None:
        return []
    problems: list[str] = []
    dormant = {p["id"]: p for p in data["game"].get("dormant_powers", [])}
    if war["soviets"] not in dormant:
        problems.append(f"game.yaml: revolution: civil_war: soviets {war['soviets']!r} is not a "
                        "dormant power")
    if board.side(data, war["ceded_to"]) != "central" or war["ceded_to"] in dormant:
        problems.append(f"game.yaml: revolution: civil_war: ceded_to {war['ceded_to']!r} is not a "
                        "Central Powers power of map.yaml")
    known = board.places(data)
    named = [*war["evacuate"]["allies"], *war["evacuate"]["central"], *war["soviet_units"],
             *war["outer_russia"], *war["inner_russia"], *war["sovereign"], *war["revert_also"]]
    for place in named:
        if place not in known:
            problems.append(f"game.yaml: revolution: civil_war: {place!r} is not a territory or "
                            "sea zone of map.yaml")
    for units in war["soviet_units"].values():
        for unit in units:
            if unit not in data["units"]["unit_types"]:
                problems.append(f"game.yaml: revolution: civil_war: soviet_units: {unit!r} is not "
                                "a unit type")
    return problems


# ---------------------------------------------------------------------------------------
# the events


def _civil_war(data: GameData, state: State, event: Event) -> None:
    rev = state["revolution"]
    if rev["status"] != "waiting":
        raise ValueError(f"the revolution has happened already ({rev['status']})")
    rev.update(status=CIVIL_WAR, round=event["round"], soviets=event["soviets"],
               played_by=event["played_by"], homes=list(event["homes"]))


def _civil_war_retreat(data: GameData, state: State, event: Event) -> None:
    here = state["units"][event["where"]]
    mine = here.get(event["power"], {})
    for unit, n in event["units"].items():
        if mine.get(unit, 0) < n:
            raise ValueError(f"{event['where']} has fewer than {n} {unit} of {event['power']}")
        mine[unit] -= n
    here[event["power"]] = {u: n for u, n in mine.items() if n}
    if not here[event["power"]]:
        del here[event["power"]]
    if event["to"] is not None:
        _add(state, event["to"], event["power"], event["units"])


def _civil_war_control(data: GameData, state: State, event: Event) -> None:
    _control(state, event["where"], event["power"], False)


def _soviets_enter(data: GameData, state: State, event: Event) -> None:
    power = event["power"]
    if power in state["order"]:
        raise ValueError(f"{power} is in the game already")
    at = state["order"].index(event["after"]) + 1
    state["order"] = [*state["order"][:at], power, *state["order"][at:]]
    state["at_war"] = [*state["at_war"], power]
    state["treasury"][power] = event["ipc"]


def _soviets_placed(data: GameData, state: State, event: Event) -> None:
    _add(state, event["where"], event["power"], event["units"])
    if event["control"]:
        _control(state, event["where"], event["power"], False)


def _brest_litovsk(data: GameData, state: State, event: Event) -> None:
    _control(state, event["where"], event["power"], event["contested"])


def _civil_war_reverted(data: GameData, state: State, event: Event) -> None:
    for t in event["from"]:
        state["control"][t] = event["power"]


APPLY: dict[str, Apply[GameData]] = {
    CIVIL_WAR: _civil_war,
    "civil_war_retreat": _civil_war_retreat,
    "civil_war_control": _civil_war_control,
    "soviets_enter": _soviets_enter,
    "soviets_placed": _soviets_placed,
    "brest_litovsk": _brest_litovsk,
    "civil_war_reverted": _civil_war_reverted,
}


def _add(state: State, place: str, owner: str, units: dict[str, int]) -> None:
    there = state["units"].setdefault(place, {}).setdefault(owner, {})
    for unit, n in units.items():
        there[unit] = there.get(unit, 0) + n


def _control(state: State, where: str, power: str, contested: bool) -> None:
    state["control"][where] = power
    others = [t for t in state["contested"] if t != where]
    state["contested"] = sorted([*others, where]) if contested else others


def _told_civil_war(data: GameData, event: Event) -> str:
    russia = _name(data, event["power"])
    return (f"the revolution in {russia}: the civil war begins; {russia} collects no income "
            f"this turn ({event['skipped_income']} IPC skipped) and keeps the "
            f"{event['kept']} IPC in its treasury (step 6)")


def _told_civil_war_retreat(data: GameData, event: Event) -> str:
    units = board.units_text(event["units"])
    who, where = _name(data, event["power"]), board.name(data, event["where"])
    head = f"the revolution (step {event['step']}): {who}'s units in {where} ({units})"
    if event["to"] is None:
        return f"{head} have nowhere to retreat and are removed"
    to = board.name(data, event["to"])
    if event["how"] == "capital":
        return f"{head} have no territory next to it to retreat to and go to {to}, their capital"
    how = ("by its standing instruction" if event["how"] == "standing"
           else "(no standing instruction: the default)")
    return f"{head} retreat to {to} {how}"


def _told_civil_war_control(data: GameData, event: Event) -> str:
    return (f"the revolution (step {event['step']}): the Central Powers' units and control "
            f"marker are out of {board.name(data, event['where'])}: it is held by "
            f"{_name(data, event['power'])}, uncontested")


def _told_soviets_enter(data: GameData, event: Event) -> str:
    return (f"the revolution (steps 3 and 5): {_name(data, event['power'])} enters the war "
            f"with {event['ipc']} IPC, played by the player of {_name(data, event['played_by'])}; "
            f"its turn follows {_name(data, event['after'])}'s")


def _told_soviets_placed(data: GameData, event: Event) -> str:
    marker = "; a Soviet control marker is placed (step 5)" if event["control"] else ""
    return (f"the revolution (step 4): {board.units_text(event['units'])} of "
            f"{_name(data, event['power'])} placed in {board.name(data, event['where'])}{marker}")


def _told_brest_litovsk(data: GameData, event: Event) -> str:
    where, to = board.name(data, event["where"]), _name(data, event["power"])
    told = {"held": f"stays with {to}",
            "defended": f"stays with {to} until taken (Allied forces stand there)",
            "contested": f"ceded to {to}; still contested, the Imperial forces there remain in combat",
            "ceded": f"ceded to {to}"}[event["case"]]
    return f"the treaty of Brest-Litovsk: {where} {told}"


def _told_civil_war_reverted(data: GameData, event: Event) -> str:
    back = ", ".join(f"{board.name(data, t)} (from {_name(data, p)})" for t, p in event["from"].items())
    return (f"the civil war: {_name(data, event['power'])} holds Moscow; "
            f"{counted(len(event['from']), 'territory', 'territories')} revert to it: {back}")


DESCRIBE: dict[str, Describe[GameData]] = {
    CIVIL_WAR: _told_civil_war, "civil_war_retreat": _told_civil_war_retreat,
    "civil_war_control": _told_civil_war_control, "soviets_enter": _told_soviets_enter,
    "soviets_placed": _told_soviets_placed, "brest_litovsk": _told_brest_litovsk,
    "civil_war_reverted": _told_civil_war_reverted}
