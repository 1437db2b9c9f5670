"""The phase table of Axis & Allies 1914 (PHASES): a power's turn, round after round, then the
game over. For a power's turn: whose orders are awaited and what its player is shown, its
orders file read and checked (the items of ORDERS; those of LATER named as not refereed yet),
the turn resolved in the order of play (purchase, movement, the sea and land battles,
mobilization, income, the revolution, whose turn is next: rules/turns.py), the bot's orders
and an absent power's (`opening`: the attack that opens the war, which it owes)."""

from __future__ import annotations

from typing import Any

from pbem.game import Event, GameData, Orders, Problem, Rng, Secrets, State
from pbem.kit.orders import order_items
from pbem.kit.phases import PhaseRules, PhaseTable
from pbem.names import suggest

from . import board, civil_war, combat, economy, movement, naval, revolution
from . import standing as standing_
from .events import EVENTS
from .turns import USA, next_turn

ORDERS = ("buy", "move", "attack", "mobilize")  # the items of a power's turn refereed so far
LATER = ("retreat", "repair")  # the rest of a turn, not refereed yet


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
    standing_.check(data, state, pid, orders.get("standing"), problems)
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


def opening(data: GameData, state: State, pid: str) -> list[dict[str, Any]]:
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
    turn.take(next_turn(data, turn.state))
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
    owed = opening(data, state, faction)
    moves = [] if owed else _bot_moves(data, state, faction, rng, label)
    return {"orders": ([{"buy": buy}] if buy else []) + owed + moves}


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


def orders_sections(state: State) -> list[tuple[str, list[int] | None]]:
    """ORDERS.md's section of a power's turn file, in a power's turn; none once the game is
    over."""
    return [("The orders", None)] if state.get("phase") == "turn" else []


def _nothing(data: GameData, state: State, faction: str, rng: Rng) -> Orders:
    """A power that sent nothing buys nothing; its income is collected. Austria-Hungary's
    round-1 attack on Serbia is made for it (`opening`)."""
    return {"orders": opening(data, state, faction)}


PHASES = PhaseTable({
    "turn": PhaseRules("A power's turn", awaiting=_awaiting, shown=_shown, validate=_validate,
                       resolve=_resolve, bot=_bot, default_orders=_nothing),
    "over": PhaseRules("Game over"),
})
