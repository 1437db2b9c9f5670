"""Axis & Allies 1914 for pbem: the powers' turns in order, round after round.

One orders file is one power's whole turn (most powers are played by different people, so a
turn is one mail round trip). What is refereed so far: the economy of a turn (purchase,
mobilization, income: rules/economy.py), movement (rules/movement.py), land battles
(rules/combat.py), the turn order with the USA joining the war in round 4, the victory
pairs, and the Russian revolution with the armistice house rule (rules/revolution.py) or
the civil-war house rule (rules/civil_war.py), the campaign option `revolution`; README.md
lists what is not yet. The position:

    turn       the round, from 1
    phase      "turn" (a power's turn) or "over"
    power      whose turn it is
    order      the powers in turn order (the civil war inserts the Soviets after the USA)
    at_war     the powers at war (all but the USA until its round-4 turn)
    treasury   IPC by power
    control    who controls each land territory (a power, or "neutral")
    contested  territories where both sides stand (they produce nothing, no one holds them)
    standing   each power's standing instructions (its loss orders; when its ships withdraw
               from a sea battle and whether its submarines submerge; Germany's answer to
               the armistice; where its units retreat at the civil war's revolution)
    units      by place, owner and type: counts
    options    the campaign's options (revolution: none, armistice or civil_war;
               soviets_player: the Central power whose player takes on the Soviets)
    revolution where the revolution stands (rules/revolution.py)
"""

from __future__ import annotations

from typing import Any

from pbem.game import Event, GameData, Orders, Problem, Rng, Secrets, State, clone
from pbem.kit import standing as standing_kit
from pbem.kit.orders import order_items
from pbem.kit.phases import PhaseRules, PhaseTable, TableGame
from pbem.names import suggest

from . import (
    board,
    civil_war,
    combat,
    corrections,
    economy,
    movement,
    naval,
    order_of_battle,
    revolution,
)
from . import boxes as boxes_
from . import headlines as headlines_
from . import position as position_
from . import report as report_
from . import standing as standing_
from .events import EVENTS

ORDERS = ("buy", "move", "attack", "mobilize")  # the items of a power's turn refereed so far
LATER = ("retreat", "repair")  # the rest of a turn, not refereed yet
# the loss orders; withdrawing and submerging at sea (rules/naval.py); the armistice's
# answer; the civil war's retreats (steps 1 and 2)
# each standing instruction a power may give, with its check (pbem.kit.standing)
STANDING: dict[str, standing_kit.Check] = {
    "losses": standing_kit.ordering(combat.LOSS_ORDER, "the order your land units and fighters are "
                                    "lost in, each type once: " + ", ".join(combat.LOSS_ORDER)),
    "sea_losses": standing_kit.ordering(naval.SEA_LOSSES, "the order your ships take hits (battleship: "
                                        "a sound one is damaged) are lost in, each type once: "
                                        + ", ".join(naval.SEA_LOSSES)),
    "sea_withdraw": lambda data, state, pid, value: naval.check_withdrawal(value),
    "submerge": standing_kit.boolean("whether your defending submarines submerge when they are the "
                                     "last warships of your side in a sea battle"),
    "armistice": revolution.check_standing,
    civil_war.STANDING: civil_war.check_standing,
}
USA = "usa"


def _awaiting(data: GameData, state: State) -> list[str]:
    return [state["power"]]


def _shown(data: GameData, state: State, title: str, prompt: str) -> tuple[str, str]:
    name = board.power(data, state["power"])["name"]
    told = (f"; {civil_war.view(data, state)}"
            if revolution.chosen(state) == civil_war.CIVIL_WAR else "")
    return (f"{name}'s turn",
            f"{name}: buy units with {state['treasury'][state['power']]} IPC and say where to "
            f"mobilize them, move and attack{told}")


def _items(orders: Orders, problems: list[Problem]) -> list[tuple[int, str, Any]]:
    """The orders file's items as (index, key, value), each of a kind refereed now; the
    others named in `problems` (pbem.kit.orders)."""
    later = {k: f"{k!r} is not refereed yet in Axis & Allies 1914 (games/aa1914/README.md lists "
                "what is)" for k in LATER}
    return list(order_items(orders, ORDERS, problems, later=later))


def _read(data: GameData, state: State, pid: str, orders: Orders, problems: list[Problem]
          ) -> tuple[dict[str, int], list[Event], list[str], list[tuple[str, dict[str, int]]]]:
    """The purchase, the moves, the attacks and the mobilizations of a power's orders, checked."""
    items = _items(orders, problems)
    bought, placed = economy.read(data, state, pid,
                                  [x for x in items if x[1] in ("buy", "mobilize")], problems)
    moves = movement.read(data, state, pid, [(i, v) for i, k, v in items if k == "move"], problems)
    attacks = _attacks(data, state, pid, [(i, v) for i, k, v in items if k == "attack"], moves,
                       problems)
    _check_standing(data, state, pid, orders.get("standing"), problems)
    return bought, moves, attacks, placed


def _attacks(data: GameData, state: State, pid: str, items: list[tuple[int, Any]],
             moves: list[Event], problems: list[Problem]) -> list[str]:
    """`attack: {where: PLACE}`: a battle again in a contested territory where the power
    has units (or moves some in), or at sea against the other side's submarines and transports
    alone (its warships are always fought); a battle is fought anyway where land units move
    into hostile territory."""
    out: list[str] = []
    for i, value in items:
        where = value.get("where") if isinstance(value, dict) and set(value) == {"where"} else None
        if isinstance(where, str) and where in data["map"]["sea_zones"]:
            ships = board.stack(state, where, pid) or any(m["to"] == where for m in moves)
            if not ships or not movement.enemy_units(data, state, pid, where):
                problems.append(Problem(("orders", i, "attack", "where"), f"{board.name(data, where)} "
                                        f"holds no ships of the other side with {pid}'s ships"))
            elif where not in out:
                out.append(where)
            continue
        if not isinstance(where, str) or where not in data["map"]["territories"]:
            problems.append(Problem(("orders", i, "attack"), "expected {where: TERRITORY}, a "
                                    "contested territory where your units stand"
                                    + (suggest(str(where), list(data["map"]["territories"]))
                                       if isinstance(where, str) else "")))
            continue
        banned = revolution.attack(data, state, where)
        if banned is not None:
            problems.append(Problem(("orders", i, "attack", "where"), banned))
            continue
        mine = board.stack(state, where, pid) or any(m["to"] == where for m in moves)
        if not board.contested(state, where) or not mine:
            problems.append(Problem(("orders", i, "attack", "where"), f"{board.name(data, where)} "
                                    f"is not a contested territory where {pid}'s units stand: a "
                                    "battle is fought where land units move into hostile territory"))
        elif where not in out:
            out.append(where)
    return out


def _check_standing(data: GameData, state: State, pid: str, standing: Any,
                    problems: list[Problem]) -> None:
    standing_kit.check(data, state, pid, standing, STANDING, problems)


def _validate(data: GameData, state: State, faction: str, orders: Orders) -> list[Problem]:
    if faction != state["power"]:
        return [Problem(("faction",), f"it is {state['power']}'s turn, not {faction}'s")]
    problems: list[Problem] = []
    _, moves, _, _ = _read(data, state, faction, orders, problems)
    first = _first_attack(data, state, faction)
    if first is not None and not any(
            m["to"] == first and any(board.domain(data, u) == "land" for u in m["units"]) for m in moves):
        problems.append(Problem(("orders",), f"{board.power(data, faction)['name']} attacks "
                                f"{board.name(data, first)} in round {state['turn']}: the war "
                                f"begins there; move land units into {board.name(data, first)}"))
    return problems


def _first_attack(data: GameData, state: State, pid: str) -> str | None:
    """The territory the power must attack this round (game.yaml `first_attack`), if any."""
    first = data["game"].get("first_attack")
    if first is None or first["power"] != pid or first["round"] != state["turn"]:
        return None
    return str(first["territory"])


def _opening(data: GameData, state: State, pid: str) -> list[dict[str, Any]]:
    """The attack that opens the war, when the power owes it this round: the infantry and
    artillery of its neighbouring territory with the most of them (what the bot and an
    absent player send; a ruling)."""
    target = _first_attack(data, state, pid)
    if target is None:
        return []
    near = [t for t in board.adjacent(data, target) if board.stack(state, t, pid)]
    if not near:
        return []
    source = max(near, key=lambda t: (sum(board.stack(state, t, pid).values()), t))
    units = {u: n for u, n in board.stack(state, source, pid).items()
             if u in ("infantry", "artillery") and n}
    return [{"move": {"from": source, "to": target, "units": units}}] if units else []


def _resolve(data: GameData, state: State, orders: dict[str, Orders], rng: Rng,
             secrets: Secrets | None) -> list[Event]:
    """A power's turn: purchase, movement, battles, mobilization, income, then whose turn is
    next."""
    pid = state["power"]
    problems: list[Problem] = []
    mine = orders.get(pid) or {}
    bought, moves, attacks, placed = _read(data, state, pid, mine, problems)
    if problems:  # checked before: orders reach resolve only when valid
        raise ValueError(f"{pid}'s orders: {problems[0].message}")
    turn = EVENTS.fold(data, state)
    given = mine.get("standing") or {}
    standing = {k: v for k, v in {**state["standing"].get(pid, {}), **given}.items()
                if v is not None}  # null drops one
    if given and standing != state["standing"].get(pid, {}):
        turn.emit({"type": "standing", "power": pid, "standing": standing})
    turn.take(naval.repairs(data, turn.state, pid))
    turn.take(economy.purchase(data, pid, bought))
    for move in moves:
        turn.emit(move)
        turn.take(naval.mines(data, turn.state, pid, move, rng))
    turn.take(revolution.after_moves(data, turn.state, pid))  # the armistice's 2e and 2c
    for zone in _sea_battles(data, state, turn.state, pid, moves, attacks):
        turn.take(naval.battle(data, turn.state, pid, zone, rng, naval.entries(moves, zone)))
    for where in combat.battlefields(data, state, pid, moves, [a for a in attacks if not board.is_sea(a)]):
        if not board.stack(turn.state, where, pid):
            continue  # every unit moving in went down with its transports in a minefield
        if USA not in turn.state["at_war"] and (turn.state["control"].get(where) == USA
                                                or board.stack(turn.state, where, USA)):
            turn.emit({"type": "at_war", "power": USA})  # the USA enters the war when attacked
        turn.take(combat.neutral_entry(data, turn.state, pid, where))
        if combat.hostile(data, turn.state, pid, where):
            turn.take(combat.battle(data, turn.state, pid, where, rng,
                                    _landing(data, state, turn.state, pid, where, moves,
                                             naval.cargo_lost(turn.events, where))))
    # "Once Moscow is back in Imperial hands" the Allies' Russian territories revert at once,
    # before any income of this turn is counted (Russian Civil War house rule)
    turn.take(civil_war.end_of_turn(data, turn.state, pid))
    turn.take(economy.mobilize(data, turn.state, pid, bought, placed))
    # the civil war: checked after mobilizing; the revolution skips the income
    revolt = civil_war.end_of_mobilize(data, turn.state, pid, economy.income(data, turn.state, pid)[0])
    turn.take(revolt)
    if not civil_war.began(revolt):
        turn.take(economy.collect(data, turn.state, pid))
    turn.take(revolution.end_of_turn(data, turn.state, pid))  # the armistice: after the income
    turn.take(_next(data, turn.state))
    return turn.events


def _landing(data: GameData, before: State, now: State, pid: str, where: str,
             moves: list[Event], lost: dict[str, int]) -> combat.Landing | None:
    """The amphibious part of a battle: land units that came ashore from transports into a
    territory not contested when the turn began (a reinforcement is no assault), less those
    `lost` with their transports in minefields."""
    ashore = [m for m in moves if m["to"] == where and m.get("transports")]
    if not ashore or board.contested(before, where):
        return None
    units: dict[str, int] = {}
    for m in ashore:
        for u, n in m["units"].items():
            units[u] = units.get(u, 0) + n
    units = {u: n - lost.get(u, 0) for u, n in units.items() if n > lost.get(u, 0)}
    zones = sorted({m["via"][-1] for m in ashore})
    ships = sum(board.stack(now, z, pid).get("battleship", 0) for z in zones)
    return combat.Landing(units, ships)


def _sea_battles(data: GameData, before: State, now: State, pid: str, moves: list[Event],
                 attacks: list[str]) -> list[str]:
    """The sea zones where the power fights: where its ships ended their move with the other
    side's warships, then those its `attack` orders name; in the order of its orders."""
    out: list[str] = []
    for move in moves:
        zone = move["to"]
        if board.is_sea(zone) and zone not in out and any(
                u not in movement.SCREENS for u in movement.enemy_units(data, now, pid, zone)):
            out.append(zone)
    out += [a for a in attacks if board.is_sea(a) and a not in out]
    return [z for z in out if board.stack(now, z, pid) and movement.enemy_units(data, now, pid, z)]


def _next(data: GameData, state: State) -> list[Event]:
    """Whose turn comes next, after the victory check that the end of this turn makes. The
    USA goes to war as its turn of round 4 begins (the XML's trigger,
    "before:americansCombatMove"). A power out of the war by the armistice takes no more
    turns (a ruling)."""
    order = state["order"]
    pid = state["power"]
    mine = board.side(data, pid)
    if pid == [p for p in order if board.side(data, p) == mine][-1]:
        won = victory(data, state, next(s for s in board.SIDES if s != mine))
        if won is not None:
            return [{"type": "over", "result": won}]
    at, turn = order.index(pid), state["turn"]
    while True:
        at += 1
        if at == len(order):
            at, turn = 0, turn + 1
        following = order[at]
        if not board.out_of_war(state, following):
            break
    events: list[Event] = []
    if following == USA and USA not in state["at_war"] \
            and turn >= data["game"]["usa_at_war_from_round"]:
        events.append({"type": "at_war", "power": USA})
    return [*events, {"type": "next", "power": following, "turn": turn}]


def victory(data: GameData, state: State, side: str) -> dict[str, Any] | None:
    """The victory conditions (map.yaml `victory`, the XML's): `side` wins holding both
    territories of one of its pairs, neither contested. Checked for a side when the other
    side's last power of the round has played: it must have held them through the other
    side's turns (the Allies after the Ottoman turn, the Central Powers after the USA's; in
    the civil war the Allies after the Soviets', the last Central Powers turn). In the civil
    war Moscow counts for no Central Powers victory (civil_war.uncounted)."""
    for pair in data["map"]["victory"][side]:
        if all(board.side(data, state["control"].get(t, "")) == side
               and not board.contested(state, t)
               and not (side == "central" and civil_war.uncounted(data, state, t)) for t in pair):
            winners = [p["id"] for p in board.powers(data)
                       if p["side"] == side and p["id"] in state["order"]
                       and not board.out_of_war(state, p["id"])]
            return {"winners": winners, "side": side, "reason": f"{side} hold "
                    + " and ".join(board.places(data)[t]["name"] for t in pair)}
    return None


def _bot(data: GameData, state: State, faction: str, rng: Rng) -> Orders:
    """A random purchase the treasury pays for, mobilized where the rules put it first, and
    a few infantry moved to a neighbouring territory of their side."""
    money = state["treasury"][faction]
    label = f"bot:r{state['turn']}:{faction}"
    wanted = rng.choice(f"{label}:spend", [0, money // 2, money])
    buy: dict[str, int] = {}
    for k in range(20):
        choices = [u for u in economy.buyable(data, state)
                   if economy.cost(data, {u: 1}) <= wanted - economy.cost(data, buy)
                   and economy.mobilize_places(data, state, faction, u)]
        if not choices:
            break
        unit = rng.choice(f"{label}:{k}", choices)
        buy[unit] = buy.get(unit, 0) + 1
    opening = _opening(data, state, faction)
    moves = [] if opening else _bot_moves(data, state, faction, rng, label)
    return {"orders": ([{"buy": buy}] if buy else []) + opening + moves}


def _bot_moves(data: GameData, state: State, faction: str, rng: Rng, label: str,
               most: int = 4) -> list[dict[str, Any]]:
    """Up to `most` legal moves: one infantry into a neighbouring land territory (or across
    a sea zone on a transport there), or one warship into a neighbouring sea zone."""
    moves: list[dict[str, Any]] = []
    for place in sorted(state["units"]):
        if len(moves) == most:
            break
        stack = board.stack(state, place, faction)
        if board.is_sea(place):
            ship = next((u for u in ("cruiser", "battleship", "submarine") if stack.get(u)), None)
            if ship is None:
                continue
            to = rng.choice(f"{label}:sail:{place}", [None, *(
                t for t in board.adjacent(data, place) if board.is_sea(t))])
            move = {"move": {"from": place, "to": to, "units": {ship: 1}}}
        else:
            if not stack.get("infantry"):
                continue
            ashore = [t for t in board.adjacent(data, place) if not board.is_sea(t)]
            by_sea = [(z, t) for z in board.adjacent(data, place) if board.is_sea(z)
                      and board.stack(state, z, faction).get("transport")
                      for t in board.adjacent(data, z) if not board.is_sea(t) and t != place]
            choice = rng.choice(f"{label}:move:{place}", [None, *((None, t) for t in ashore), *by_sea])
            if choice is None:
                continue
            zone, to = choice
            move = {"move": {"from": place, "to": to, "units": {"infantry": 1},
                             **({"via": [zone]} if zone else {})}}
        if to is None:
            continue
        found: list[Problem] = []
        movement.read(data, state, faction, list(enumerate(
            [m["move"] for m in [*moves, move]])), found)
        if not found:
            moves.append(move)
    return moves


def _nothing(data: GameData, state: State, faction: str, rng: Rng) -> Orders:
    """A power that sent nothing buys nothing; its income is collected. Austria-Hungary's
    round-1 attack on Serbia is made for it (`_opening`)."""
    return {"orders": _opening(data, state, faction)}


PHASES = PhaseTable({
    "turn": PhaseRules("A power's turn", awaiting=_awaiting, shown=_shown, validate=_validate,
                       resolve=_resolve, bot=_bot, default_orders=_nothing),
    "over": PhaseRules("Game over"),
})


def _turn_passed(data: GameData, state: State, event: Event) -> None:
    corrections.check_next(data, event)  # a correction may give it too
    state["power"], state["turn"] = event["power"], event["turn"]


def _standing_set(data: GameData, state: State, event: Event) -> None:
    state["standing"][event["power"]] = dict(event["standing"])


def _at_war(data: GameData, state: State, event: Event) -> None:
    state["at_war"].append(event["power"])


def _game_over(data: GameData, state: State, event: Event) -> None:
    state["phase"], state["over"], state["result"] = "over", True, event["result"]


def _told_next(data: GameData, event: Event) -> str:
    return f"round {event['turn']}: {board.power(data, event['power'])['name']}'s turn"


def _told_at_war(data: GameData, event: Event) -> str:
    return f"{board.power(data, event['power'])['name']} enters the war"


def _told_standing(data: GameData, event: Event) -> str:
    losses = ", ".join(event["standing"].get("losses") or combat.LOSS_ORDER)
    at_sea = ", ".join(event["standing"].get("sea_losses") or naval.SEA_LOSSES)
    answer = event["standing"].get("armistice")
    told = f"; it will {answer} an armistice offered" if answer else ""
    away = event["standing"].get(civil_war.STANDING) or {}
    if away:
        told += "; at the revolution its units retreat " + ", ".join(
            f"from {board.name(data, a)} to {board.name(data, b)}" for a, b in away.items())
    at_sea += _sea_standing(event["standing"])
    return (f"{board.power(data, event['power'])['name']} loses units in this order: "
            f"{losses}; at sea: {at_sea}{told}")


def _told_over(data: GameData, event: Event) -> str:
    return f"game over: {event['result']['reason']}"


EVENTS.register(economy.APPLY, movement.APPLY, combat.APPLY, naval.APPLY, revolution.APPLY,
                civil_war.APPLY, corrections.APPLY,
                {"next": _turn_passed, "standing": _standing_set, "at_war": _at_war, "over": _game_over})
EVENTS.describes(economy.DESCRIBE, movement.DESCRIBE, combat.DESCRIBE, naval.DESCRIBE,
                 revolution.DESCRIBE, civil_war.DESCRIBE, corrections.DESCRIBE,
                 {"next": _told_next, "at_war": _told_at_war, "standing": _told_standing,
                  "over": _told_over})


class AxisAndAllies1914(TableGame):
    phases = PHASES
    id = "aa1914"
    name = "Axis & Allies 1914"

    def describe(self, data: GameData) -> dict[str, Any]:
        g = data["game"]
        return {
            "id": self.id,
            "name": g["name"],
            "factions": [{"id": p["id"], "name": p["name"], "side": p["side"]}
                         | ({"dormant": True} if p in g.get("dormant_powers", []) else {})
                         for p in board.powers(data)],
            "options": [{"id": k, "default": v["default"], "help": v["help"],
                         **({"choices": list(v["choices"])} if "choices" in v else {})}
                        for k, v in g.get("options", {}).items()],
            "phases": list(PHASES.phases),
        }

    def seating(self, data: GameData, state: State) -> dict[str, str | None]:
        """The Soviet power, once the civil war brings it in, to the Central power whose
        player takes it on (the option `soviets_player`)."""
        return civil_war.seating(data, state)

    def check_data(self, data: GameData) -> list[str]:
        problems = (board.check(data) + revolution.check_data(data) + civil_war.check_data(data)
                    + report_.check_layout(data))
        for k, v in data["game"].get("options", {}).items():
            if "choices" in v and v["default"] not in v["choices"]:
                problems.append(f"game.yaml: options: {k}: default {v['default']!r} is not one "
                                f"of its choices ({', '.join(map(str, v['choices']))})")
        return problems

    def setup(self, data: GameData, options: dict[str, Any], rng: Rng) -> State:
        chosen = {o["id"]: options.get(o["id"], o["default"]) for o in self.describe(data)["options"]}
        order = [p["id"] for p in data["map"]["powers"]]
        control = {t: v["owner"] for t, v in data["map"]["territories"].items()
                   if not v.get("impassable")}
        return {
            "turn": 1, "phase": "turn", "power": order[0], "order": order,
            "at_war": [p for p in order if p != USA],
            "treasury": {p["id"]: p["start_ipc"] for p in data["map"]["powers"]},
            "control": control, "contested": [], "standing": {}, "damaged": {},
            "units": clone(data["units"].get("start") or {}),
            "options": chosen, "revolution": revolution.start(data),
            "over": False, "result": None,
        }

    def apply(self, data: GameData, state: State, event: Event) -> State:
        return EVENTS.apply(data, state, event)

    def view(self, data: GameData, state: State, who: str) -> dict[str, Any]:
        names = {p["id"]: p["name"] for p in board.powers(data)}
        held: dict[str, list[str]] = {}
        for t, owner in state["control"].items():
            held.setdefault(owner, []).append(t)
        return {
            "round": state["turn"],
            "turn of": names.get(state["power"], state["power"]),
            "powers": [{"power": names[p], "side": board.side(data, p),
                        "at war": p in state["at_war"], "IPC": state["treasury"][p],
                        "income": economy.income(data, state, p)[0],
                        "territories": len(held.get(p, []))} for p in state["order"]],
            "contested": [board.places(data)[t]["name"] for t in state["contested"]],
            # who holds each territory, and what lies at sea (the report's map draws them)
            "control": {board.name(data, t): names.get(o, o) for t, o in state["control"].items()},
            "minefields": {board.name(data, z): names[owner] for z in data["map"]["sea_zones"]
                           if (owner := board.minefield(data, state, z)) is not None},
            "damaged battleships": {board.name(data, z): {names.get(o, o): n for o, n in owners.items()}
                                    for z, owners in sorted(state.get("damaged", {}).items())
                                    if any(owners.values())},
            "revolution": (civil_war.view(data, state)
                           if revolution.chosen(state) == civil_war.CIVIL_WAR
                           else revolution.view(data, state)),
            "units": {board.places(data)[place]["name"]: {names.get(o, o): dict(u)
                                                          for o, u in owners.items() if u}
                      for place, owners in sorted(state["units"].items()) if any(owners.values())},
        }

    def report(self, data: GameData, view: dict[str, Any], before: dict[str, Any] | None,
               who: str, style: dict[str, Any], secrets: list[dict[str, Any]]) -> dict[str, Any]:
        """The map of the HTML report and where it opens (rules/report.py), the position and
        the changes in short (rules/position.py) and, for a power, its order of battle
        (rules/order_of_battle.py); pbem's defaults for the rest."""
        return {**report_.report(data, view, who), "position": position_.position(data, view),
                "changes": position_.changes(before, view),
                "own": order_of_battle.own(data, view, who)}

    def template(self, data: GameData, state: State, faction: str, rng: Rng) -> Orders:
        """Nothing bought or moved, but the attack the rules oblige the power to make this
        round (Austria-Hungary's on Serbia in round 1), as an absent player makes it
        (`_opening`): a template sent back as it is stays legal."""
        return {"orders": _opening(data, state, faction)}

    def orders_sections(self, data: GameData, state: State, faction: str) -> list[tuple[str, list[int] | None]]:
        """ORDERS.md's examples of a power's turn file: buy, move, attack, mobilize
        (pbem.game.order_forms)."""
        return [("The orders", None)] if state.get("phase") == "turn" else []

    def standing_offer(self, data: GameData, state: State, faction: str) -> list[dict[str, Any]]:
        """The standing instructions of ORDERS.md the power may set, with their values in
        force, in a power's turn (the armistice's and the evacuation only with their option)."""
        return standing_.offer(data, state, faction) if state["phase"] in standing_.PHASES else []

    def headlines(self, data: GameData, events: list[Event]) -> list[str]:
        """What the turn's summary says of a step: battles on land and at sea and how they
        ended, territories captured or liberated, capitals taken, the USA entering, the
        revolution's steps, the end (rules/headlines.py)."""
        return headlines_.headlines(data, events)

    def boxes(self, data: GameData, state: State, events: list[Event]) -> list[dict[str, Any]]:
        """Each land and sea battle of a step as a box: the forces, every die with what it
        hits on and why, the hits and the losses (rules/boxes.py)."""
        return boxes_.boxes(data, state, events, lambda s, e: self.apply(data, s, e))

    def todo(self, data: GameData, state: State, faction: str) -> list[str]:
        """What the power's turn file must still cover: the war's opening attack, the
        armistice's deadline, where its purchase may be mobilized (rules/headlines.py)."""
        return headlines_.todo(data, state, faction)

    def summary(self, data: GameData, event: Event) -> str:
        return EVENTS.describe(data, event) or str(event["type"])


def _sea_standing(standing: dict[str, Any]) -> str:
    """A power's standing `sea_withdraw` and `submerge`, as the log says them."""
    rule = standing.get("sea_withdraw")
    told = []
    if isinstance(rule, dict) and rule.get("after_round"):
        told.append(f"after round {rule['after_round']}")
    if isinstance(rule, dict) and rule.get("when_outnumbered"):
        told.append("when outnumbered")
    out = f"; its attacking ships withdraw {' or '.join(told)}" if told else ""
    return out + ("; its defending submarines submerge" if standing.get("submerge") else "")


GAME = AxisAndAllies1914()
