"""The Russian revolution and the ARMISTICE house rule (campaign option `revolution: armistice`).

The house rule's text is ../shared/rules/aa1914-revolution-armistice.txt; its step numbers
(non-original 1, 2, 3a-3c; original 1, 2a-2f) are quoted at the code that does each. It gives
no trigger ("The Revolution can occur at the end of any Russian turn starting with turn 4"):
the trigger is game.yaml `revolution: trigger`, by default the official A&A 1914 rule as
../shared/research/aa1914.md reports it. The rulings where the text is silent are listed in
games/aa1914/README.md ("The revolution and the armistice"); each is said where it is made.

What happens, in order:

- at the end of each Russian turn (after income) from round `from_round`, while the option is
  `armistice` and no offer has been made, the trigger is checked and the check logged, met or
  not, with the territories that count (`revolution_check`);
- when it is met, the armistice is offered once; the power `decided_by` (Germany) answers for
  the Central Powers by its standing instruction `armistice: accept|reject`, accept by
  default (`armistice_offer`); a rejection means no revolution, ever;
- accepted, every sea zone and territory where the rule acts gets one `armistice_step`:
  Russian units removed (or one infantry left), control and contest set, the Central Powers'
  garrisons and the Allied powers that must leave noted; Russia is out of the war from then
  on (`board.out_of_war`): it takes no turns, no battle is fought where its units stand;
- afterwards, at the end of each power's moves: an Allied power's units still in Russia at
  the end of its next move are removed (`armistice_deadline`, 2e), and a contested territory
  whose Central Powers garrison has left is closed to them (`armistice_closed`, 2c); moves
  into territories the rule forbids are refused (`entry`), and so are `attack` orders where
  Russian units stand (`attack`).

The state carries `options` (the campaign's choices) and `revolution`:

    status       "waiting" (not offered yet, or the option is none), "armistice" (accepted),
                 "rejected", or "civil_war" (rules/civil_war.py, which adds its own keys)
    power        the power the revolution takes out of the war (russia)
    round        the round of the offer
    garrisons    contested original territories the Central Powers may move through while a
                 garrison of theirs stays (2c)
    closed       such territories they left, which they may not re-enter (2c)
    must_leave   Allied powers whose units must leave Russia by the end of their next move (2e)
"""

from __future__ import annotations

from typing import Any

from pbem.game import Event, GameData, State
from pbem.kit.events import Apply, Describe, recorded
from pbem.names import counted

from . import board

ARMISTICE = "armistice"  # the option's choice that plays this house rule
ANSWERS = ("accept", "reject")  # the standing instruction `armistice:` of the power deciding


def settings(data: GameData) -> dict[str, Any]:
    """game.yaml `revolution`: the power, the first round, the trigger, who answers the offer."""
    return dict(data["game"]["revolution"])


def chosen(state: State) -> str:
    """The campaign's choice of the option `revolution` (none for a state set up before it)."""
    return str((state.get("options") or {}).get("revolution", "none"))


def start(data: GameData) -> dict[str, Any]:
    """The state's `revolution` at set-up."""
    return {"status": "waiting", "power": settings(data)["power"], "round": None,
            "garrisons": [], "closed": [], "must_leave": []}


def accepted(state: State) -> bool:
    return bool((state.get("revolution") or {}).get("status") == ARMISTICE)


def _originals(data: GameData, power: str) -> list[str]:
    return [t for t, v in data["map"]["territories"].items() if v["owner"] == power]


def _held(data: GameData, state: State, territory: str, side: str, contested_counts: bool) -> bool:
    """Held by a power of `side`: controlled by it and (unless `contested_counts`) not
    contested: the project's ruling that a contested territory is held by nobody."""
    holder = state["control"].get(territory, "")
    return board.side(data, holder) == side and (contested_counts or not board.contested(state, territory))


# ---------------------------------------------------------------------------------------
# the trigger


def trigger(data: GameData, state: State) -> Event:
    """The trigger (game.yaml `revolution: trigger`), as the event that logs it. By default,
    the official A&A 1914 rule as research reports it: the capital (Moscow) held by Russia or
    contested, the Central Powers holding `adjacent` (3) territories next to it plus `others`
    (1) other original Russian territory. Ruling: the "other" territory may be one more
    territory next to Moscow (a fourth); a contested territory counts for nobody."""
    rules = settings(data)
    power, trigger = rules["power"], rules["trigger"]
    capital = board.power(data, power)["capital"]
    counts = bool(trigger.get("contested_counts", False))
    holder = state["control"].get(capital)
    fought = board.contested(state, capital)
    capital_ok = (("held" in trigger["capital"] and holder == power and not fought)
                  or ("contested" in trigger["capital"] and fought))
    near = board.adjacent(data, capital)
    originals = [t for t in _originals(data, power) if t != capital]
    held = [t for t in originals if _held(data, state, t, "central", counts)]
    adjacent = [t for t in held if t in near]
    others = [t for t in held if t not in near]
    need_adjacent, need_others = int(trigger["adjacent"]), int(trigger["others"])
    met = (capital_ok and len(adjacent) >= need_adjacent
           and len(adjacent) - need_adjacent + len(others) >= need_others)
    return {"type": "revolution_check", "power": power, "round": state["turn"], "met": met,
            "capital": {"where": capital, "holder": holder, "contested": fought, "ok": capital_ok,
                        "needed": list(trigger["capital"])},
            "adjacent": adjacent, "others": others,
            "needed": {"adjacent": need_adjacent, "others": need_others}}


def end_of_turn(data: GameData, state: State, pid: str) -> list[Event]:
    """At the end of the revolution power's turn (after its income, research point 1): the
    check, and when it is met the one-time offer and, accepted, the armistice."""
    rules = settings(data)
    rev = state.get("revolution") or {}
    if (chosen(state) != ARMISTICE or pid != rules["power"] or rev.get("status") != "waiting"
            or state["turn"] < int(rules["from_round"])):
        return []
    checked = trigger(data, state)
    if not checked["met"]:
        return [checked]
    decider = rules["armistice"]["decided_by"]
    given = (state.get("standing") or {}).get(decider, {}).get("armistice")
    answer = given or rules["armistice"]["default"]
    offer: Event = {"type": "armistice_offer", "power": rules["power"], "round": state["turn"],
                    "by": decider, "answer": answer, "standing": given is not None}
    return [checked, offer, *(steps(data, state) if answer == "accept" else [])]


# ---------------------------------------------------------------------------------------
# the armistice, step by step


def steps(data: GameData, state: State) -> list[Event]:
    """Every step of the accepted armistice, one event a place: sea zones (non-original step
    2), non-original territories (steps 1 and 3), then the original Russian territories
    (steps 1 and 2)."""
    power = settings(data)["power"]
    out: list[Event] = []
    for zone in data["map"]["sea_zones"]:
        ships = board.stack(state, zone, power)
        if any(ships.values()):  # non-original 2: remove all Russian sea units
            out.append({"type": "armistice_step", "where": zone, "part": "non-original",
                        "steps": ["2"], "russian": ships, "left": {}})
    for t in data["map"]["territories"]:
        if board.original_owner(data, t) != power:
            step = _non_original(data, state, power, t)
            if step is not None:
                out.append(step)
    out += [_original(data, state, power, t) for t in _originals(data, power)]
    return out


def _others(data: GameData, state: State, power: str, t: str) -> dict[str, dict[str, int]]:
    """The units of every other owner in a territory, by owner."""
    return {o: {u: n for u, n in units.items() if n}
            for o, units in state["units"].get(t, {}).items() if o != power and any(units.values())}


def _first(data: GameData, force: dict[str, dict[str, int]], among: list[str]) -> str:
    """Of several powers, the one with most units there, ties to the first in turn order
    (the ruling for 3b's "their choice")."""
    order = [p["id"] for p in board.powers(data)]
    return min(among, key=lambda p: (-sum(force.get(p, {}).values()), order.index(p)))


def _non_original(data: GameData, state: State, power: str, t: str) -> Event | None:
    """A territory not originally Russian where Russia has units or control (Serbia and
    Romania among them). Step 1 removes the Russian units; step 3 (where Russia held it: its
    control token removed) gives it a holder as 3a-3c say. Ruling: where Russia had units
    but not control, only step 1 applies; control stays, and it stays contested only while
    both sides still stand there."""
    here = {u: n for u, n in board.stack(state, t, power).items() if n}
    held = state["control"].get(t) == power
    if not here and not held:
        return None
    others = _others(data, state, power, t)
    sides = {board.side(data, o) for o in others}
    event: Event = {"type": "armistice_step", "where": t, "part": "non-original",
                    "steps": ["1"] if here else [], "russian": here, "left": {}}
    original = board.original_owner(data, t)
    if not held:
        return {**event, "contested": board.contested(state, t) and len(sides) > 1}
    if len(sides) > 1:
        # 3a contested: no further action. Ruling: with the Russian token gone, the
        # territory is its original owner's (a neutral's for Serbia and Romania) while it
        # stays contested; it pays nobody, and the next battle there decides it
        return {**event, "steps": [*event["steps"], "3a"], "control": original, "contested": True}
    if others:
        return {**event, "steps": [*event["steps"], "3b"], "control": _3b(data, state, t, others),
                "contested": False}
    # 3c no units of any power: an original territory goes to its original power (any power,
    # no exception for a captured capital: the text has none here); the others (Serbia,
    # Romania, a neutral Russia took) are uncontrolled: neutral again, empty, joining nobody
    return {**event, "steps": [*event["steps"], "3c"], "control": original, "contested": False}


def _3b(data: GameData, state: State, t: str, others: dict[str, dict[str, int]]) -> str:
    """3b, other AP or CP powers only: an original territory of a power of the side standing
    there goes to that power, unless it is an Allied power whose capital is captured, then
    to another Allied power there (if any); a captured territory (original to the other
    side or to a neutral) goes to the remaining power, or to their choice, ruled as the one
    with most units there (ties: turn order)."""
    original = board.original_owner(data, t)
    present = list(others)
    side = board.side(data, present[0])
    if original != board.NEUTRAL and board.side(data, original) == side:
        capital = board.power(data, original)["capital"]
        others_here = [p for p in present if p != original]
        if side == "allies" and state["control"].get(capital) != original and others_here:
            return _first(data, others, others_here)
        return original
    return _first(data, others, present)


def _original(data: GameData, state: State, power: str, t: str) -> Event:
    """An original Russian territory. Step 1: remove all Russian units but one infantry where
    Russian units stand (ruling: where only artillery, tanks or fighters stand, one of them
    stays as an infantry). Step 2: the cases a-f."""
    before = {u: n for u, n in board.stack(state, t, power).items() if n}
    left = {"infantry": 1} if before else {}
    others = _others(data, state, power, t)
    cp = [o for o in others if board.side(data, o) == "central"]
    ap = [o for o in others if board.side(data, o) == "allies"]
    holder = state["control"].get(t, "")
    event: Event = {"type": "armistice_step", "where": t, "part": "original",
                    "steps": ["1"] if before else [], "russian": before}
    if not left and not ap and board.side(data, holder) == "central":
        # 2a controlled by a CP power: it stays that power's, which collects its income, an
        # ordinary territory of its holder from now on (the war may go on there); it never
        # becomes Russian again (combat: no liberation to a power out of the war)
        return {**event, "steps": [*event["steps"], "2a"], "left": left, "control": holder,
                "contested": False}
    if cp:
        # 2b contested, but only with non-Russian powers: add 1 Russian infantry, then 2c
        added = ["2b"] if not left else []
        # 2c contested for the rest of the game; the CP may move through while it keeps a
        # garrison; the AP may not enter; plus 2e for Allied units there (ruling: both apply)
        return {**event, "steps": [*event["steps"], *added, "2c", *(["2e"] if ap else [])],
                "left": {"infantry": 1}, "control": holder, "contested": True,
                "garrison": True, "must_leave": ap}
    if ap:
        # 2d occupied with other AP powers only: add 1 Russian infantry, then 2e: the AP
        # must leave by the end of their next move. Ruling: the territory is Russia's
        added = ["2d"] if not left else []
        return {**event, "steps": [*event["steps"], *added, "2e"], "left": {"infantry": 1},
                "control": power, "contested": False, "must_leave": ap}
    # 2f controlled by Russians only: add 1 Russian infantry if none exists; entry by AP/CP
    # is forbidden. Ruling: an original territory an Allied power held with no units there
    # goes back to Russia the same way
    return {**event, "steps": [*event["steps"], "2f"], "left": {"infantry": 1}, "control": power,
            "contested": False}


# ---------------------------------------------------------------------------------------
# afterwards: the deadlines and the bans


def russian_here(data: GameData, state: State, place: str) -> bool:
    """Units of the power out of the war stand in the place."""
    return any(board.out_of_war(state, o) and any(u.values())
               for o, u in state["units"].get(place, {}).items())


def after_moves(data: GameData, state: State, pid: str) -> list[Event]:
    """At the end of a power's moves after the armistice: 2e, an Allied power's units still
    in Russia at the end of its next move are removed (ruling: "Russia" is every original
    Russian territory where Russian units stand; a power's next move is its next turn's);
    2c, a garrison territory with no Central Powers units left is closed to them (ruling:
    any Central Powers unit keeps the garrison, checked at the end of a CP power's moves)."""
    if not accepted(state):
        return []
    rev = state["revolution"]
    out: list[Event] = []
    if pid in rev["must_leave"]:
        removed = {t: board.stack(state, t, pid) for t in _originals(data, rev["power"])
                   if russian_here(data, state, t) and any(board.stack(state, t, pid).values())}
        out.append({"type": "armistice_deadline", "power": pid, "removed": removed})
    if board.side(data, pid) == "central":
        for t in rev["garrisons"]:
            if not any(any(u.values()) for o, u in state["units"].get(t, {}).items()
                       if board.side(data, o) == "central"):
                out.append({"type": "armistice_closed", "where": t, "power": pid})
    return out


def entry(data: GameData, state: State, pid: str, steps: list[str]) -> str | None:
    """Why a move along `steps` may not go where it goes under the armistice, or None."""
    if not accepted(state):
        return None
    rev = state["revolution"]
    originals = _originals(data, rev["power"])
    for place in steps[1:]:
        name = board.name(data, place)
        if board.side(data, pid) == "central" and place in rev["closed"]:
            return f"the armistice (original step 2c): the Central Powers left {name} and may not re-enter it"
        if not russian_here(data, state, place):
            continue
        if all(board.out_of_war(state, o) for o, u in state["units"][place].items() if any(u.values())):
            return f"the armistice: no travel into {name}, where only Russian units stand"
        if place in originals and board.side(data, pid) == "allies":
            return (f"the armistice (original steps 2c, 2e): the Allies may not enter {name}, an "
                    "original Russian territory where Russian units stand")
        if place in originals and place not in rev["garrisons"]:
            return (f"the armistice (original step 2c): the Central Powers enter an original "
                    f"Russian territory where Russian units stand only where they have kept a "
                    f"garrison since the armistice; {name} is not one")
    return None


def attack(data: GameData, state: State, where: str) -> str | None:
    """Why an `attack` order may not be given there under the armistice, or None."""
    if accepted(state) and russian_here(data, state, where):
        return (f"the armistice: no battle against Russian units, nor where they stand "
                f"({board.name(data, where)})")
    return None


def frees(data: GameData, state: State, pid: str, start: str) -> bool:
    """2e: the contested movement restriction (pg 15) does not apply to an Allied power's
    units leaving Russia after the armistice."""
    return (accepted(state) and pid in state["revolution"]["must_leave"]
            and board.original_owner(data, start) == state["revolution"]["power"])


def check_standing(data: GameData, state: State, pid: str, value: Any) -> str | None:
    """The standing instruction `armistice: accept|reject`, or why it is refused."""
    rules = settings(data)
    decider = rules["armistice"]["decided_by"]
    if chosen(state) != ARMISTICE:
        return ("the armistice is answered only in a campaign with the option revolution: "
                f"armistice; this one plays with revolution: {chosen(state)}")
    if pid != decider:
        return (f"{board.power(data, decider)['name']} answers the armistice offer for the "
                f"Central Powers (game.yaml revolution: armistice: decided_by), not "
                f"{board.power(data, pid)['name']}")
    if value not in ANSWERS:
        return f"expected armistice: accept or reject, not {value!r}"
    rev = state["revolution"]
    if rev["status"] != "waiting":
        return f"the armistice was offered in round {rev['round']} and answered: {rev['status']}"
    return None


def view(data: GameData, state: State) -> str:
    """Where the revolution stands, in a sentence for the players' view."""
    rules = settings(data)
    rev = state.get("revolution") or {}
    russia = board.power(data, rules["power"])["name"]
    if chosen(state) != ARMISTICE:
        return f"not played (option revolution: {chosen(state)})"
    if rev.get("status") == ARMISTICE:
        return f"armistice accepted in round {rev['round']}: {russia} is out of the war"
    if rev.get("status") == "rejected":
        return f"armistice rejected in round {rev['round']}: no revolution"
    return (f"checked at the end of each {russia} turn from round {rules['from_round']}; "
            f"{board.power(data, rules['armistice']['decided_by'])['name']} answers the offer")


def check_data(data: GameData) -> list[str]:
    """What the schema cannot say of game.yaml `revolution`: the ids it names are known."""
    rules = data["game"].get("revolution")
    if rules is None:
        return []
    ids = [p["id"] for p in data["map"]["powers"]]
    problems: list[str] = []
    if rules["power"] not in ids:
        problems.append(f"game.yaml: revolution: power {rules['power']!r} is not a power of "
                        f"map.yaml ({', '.join(ids)})")
    decider = rules["armistice"]["decided_by"]
    if decider not in ids or board.side(data, decider) != "central":
        problems.append(f"game.yaml: revolution: armistice: decided_by {decider!r} is not a "
                        "Central Powers power of map.yaml")
    return problems


# ---------------------------------------------------------------------------------------
# the events


def _armistice_offer(data: GameData, state: State, event: Event) -> None:
    rev = state["revolution"]
    rev["status"] = ARMISTICE if event["answer"] == "accept" else "rejected"
    rev["round"] = event["round"]


def _armistice_step(data: GameData, state: State, event: Event) -> None:
    rev = state["revolution"]
    where, power = event["where"], rev["power"]
    here = state["units"].setdefault(where, {})
    here[power] = dict(event["left"])
    if not here[power]:
        del here[power]
    if where.startswith("sz"):
        hurt = state.get("damaged", {}).get(where, {})
        hurt.pop(power, None)
        if where in state.get("damaged", {}) and not hurt:
            del state["damaged"][where]
    if "control" in event:
        state["control"][where] = event["control"]
    if "contested" in event:
        others = [t for t in state["contested"] if t != where]
        state["contested"] = sorted([*others, where]) if event["contested"] else others
    if event.get("garrison"):
        rev["garrisons"] = [*rev["garrisons"], where]
    for p in event.get("must_leave") or []:
        if p not in rev["must_leave"]:
            rev["must_leave"] = [*rev["must_leave"], p]


def _armistice_deadline(data: GameData, state: State, event: Event) -> None:
    rev = state["revolution"]
    for where, units in event["removed"].items():
        mine = state["units"][where][event["power"]]
        for unit, n in units.items():
            if mine.get(unit, 0) < n:
                raise ValueError(f"{where} has fewer than {n} {unit} of {event['power']}")
            mine[unit] -= n
        state["units"][where][event["power"]] = {u: n for u, n in mine.items() if n}
    rev["must_leave"] = [p for p in rev["must_leave"] if p != event["power"]]


def _armistice_closed(data: GameData, state: State, event: Event) -> None:
    rev = state["revolution"]
    rev["garrisons"] = [t for t in rev["garrisons"] if t != event["where"]]
    rev["closed"] = [*rev["closed"], event["where"]]


APPLY: dict[str, Apply[GameData]] = {
    "revolution_check": recorded,  # a record: the position does not change
    "armistice_offer": _armistice_offer,
    "armistice_step": _armistice_step,
    "armistice_deadline": _armistice_deadline,
    "armistice_closed": _armistice_closed,
}


def _names(data: GameData, places: list[str]) -> str:
    return ", ".join(board.name(data, t) for t in places) or "none"


def _power(data: GameData, owner: str) -> str:
    if owner == board.NEUTRAL:
        return "neutral"
    return str(board.power(data, owner)["name"])


def _told_revolution_check(data: GameData, event: Event) -> str:
    russia = _power(data, event["power"])
    cap = event["capital"]
    capital = board.name(data, cap["where"])
    held = (f"{capital} is contested" if cap["contested"] else
            f"{capital} is held by {_power(data, cap['holder'])}")
    wanted = " or ".join({"held": f"held by {russia}", "contested": "contested"}[k]
                         for k in cap["needed"])
    need = event["needed"]
    told = (f"{held} ({wanted} needed: {'yes' if cap['ok'] else 'no'}); the Central Powers "
            f"hold {counted(len(event['adjacent']), 'territory', 'territories')} next to "
            f"{capital} ({_names(data, event['adjacent'])}; {need['adjacent']} needed) and "
            f"{counted(len(event['others']), 'other original territory', 'other original territories')} "
            f"of {russia} ({_names(data, event['others'])}; {need['others']} more needed)")
    civil = event.get("then") == "civil_war"
    verdict = ("not met" if not event["met"] else
               "met: the civil war begins" if civil else "met: an armistice is offered")
    when = "mobilization" if civil else "turn"
    return (f"the revolution in {russia}, checked at the end of its round-{event['round']} "
            f"{when}: {verdict}. {told}")


def _told_armistice_offer(data: GameData, event: Event) -> str:
    by = _power(data, event["by"])
    how = "by its standing instruction" if event["standing"] else "(no standing instruction: the default)"
    if event["answer"] == "accept":
        return (f"Soviet Russia offers the Central Powers an armistice; {by} accepts {how}: "
                f"{_power(data, event['power'])} is out of the war")
    return (f"Soviet Russia offers the Central Powers an armistice; {by} rejects it {how}: "
            "there will be no revolution")


def _told_armistice_step(data: GameData, event: Event) -> str:
    return _describe_step(data, event)


def _told_armistice_deadline(data: GameData, event: Event) -> str:
    who = _power(data, event["power"])
    gone = [f"{board.units_text(u)} in {board.name(data, t)}" for t, u in event["removed"].items()
            if any(u.values())]
    if not gone:
        return f"the armistice (original step 2e): {who}'s units have left Russia in time"
    return (f"the armistice (original step 2e): {who}'s units still in Russia are removed: "
            + "; ".join(gone))


def _told_armistice_closed(data: GameData, event: Event) -> str:
    return (f"the armistice (original step 2c): the Central Powers have left "
            f"{board.name(data, event['where'])} and may not re-enter it")


DESCRIBE: dict[str, Describe[GameData]] = {
    "revolution_check": _told_revolution_check, "armistice_offer": _told_armistice_offer,
    "armistice_step": _told_armistice_step, "armistice_deadline": _told_armistice_deadline,
    "armistice_closed": _told_armistice_closed}


def _describe_step(data: GameData, event: Event) -> str:
    where = board.name(data, event["where"])
    told: list[str] = []
    if event["russian"] and event["left"]:
        told.append(f"Russia's {board.units_text(event['russian'])} leave 1 infantry")
    elif event["russian"]:
        told.append(f"Russia's {board.units_text(event['russian'])} are removed")
    elif event.get("left"):
        told.append("1 Russian infantry is added")
    if "control" in event:
        holder = event["control"]
        told.append("uncontrolled (neutral)" if holder == board.NEUTRAL
                    else f"held by {_power(data, holder)}")
    if event.get("contested"):
        told.append("contested for the rest of the game" if event["part"] == "original"
                    else "still contested")
    if event.get("garrison"):
        told.append("the Central Powers may move through while they keep a garrison; the "
                    "Allies may not enter")
    if event.get("must_leave"):
        told.append(", ".join(_power(data, p) for p in event["must_leave"])
                    + " must leave by the end of the next move")
    steps = ", ".join(event["steps"])
    part = "original Russian territory" if event["part"] == "original" else (
        "sea zone" if event["where"].startswith("sz") else "non-original territory")
    return f"the armistice in {where} ({part}, step{'s' if len(event['steps']) != 1 else ''} {steps}): " \
        + "; ".join(told)
