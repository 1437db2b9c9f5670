"""The Reinforcement Arrival Segments (13.2, 13.3): the units waiting in a side's recruitment
box placed on the map, at the head of that side's movement file (the segment comes just
before the movement segment, 5.0; the units may then move)::

    # the Russian: his units by id
    orders:
      - arrive: {hex: "0626", units: [ru_mvd_sofrino_bde, ru_vityaz]}
    # the Chechen: his recruits by their place in his box (1 the first drawn; `pbem reveal
    # --key chechen.key` shows which units they are), face down; they become the next
    # tokens, t25, t26, ... in the order placed
    orders:
      - arrive: {hex: "1523", recruits: [1, 2]}

What is refereed, rule by rule:
- 13.2: Russian units in Russian Federation hexes of Stavropol and Dagestan (tables.yaml
  `reinforcements: russian: regions`), pro-Russian Chechen units also in any city a Russian
  unit occupies; 13.3: Chechen units in any Chechnya hex;
- 7.0: not into a hex of enemy units; 7.1: within the hex's stacking limit;
- 13.2, 13.3: every unit in the box is placed ("must be placed"); a side that sends nothing
  has them placed for it by the bot's rule (the first hexes with room, a ruling).
"""

from __future__ import annotations

from collections import Counter
from typing import Any

from pbem.game import Event, GameData, Problem, Rng, Secrets, State, clone
from pbem.kit.events import Apply, Describe
from pbem.names import suggest

from .board import CHECHEN, RUSSIAN, Board, board, hex_in, stacking, units
from .events import EVENTS

Path_ = tuple[str | int, ...]


def allowed(data: GameData, b: Board, state: State, side: str, unit: str | None) -> list[str]:
    """The hexes where a side's arriving unit may be placed (13.2, 13.3), before stacking."""
    enemy = {v["hex"] for v in (state["tokens"] if side == RUSSIAN else state["russians"]).values()}
    if side == CHECHEN:
        regions = set(data["tables"]["reinforcements"]["chechen"]["regions"])
        return sorted(h for h, r in b.region.items() if r in regions and h not in enemy)
    regions = set(data["tables"]["reinforcements"]["russian"]["regions"])
    out = {h for h, r in b.region.items() if r in regions and h not in enemy}
    if unit is not None and units(data)[unit]["nationality"] == "pro_russian_chechen":  # 13.2
        out |= {v["hex"] for v in state["russians"].values() if b.terrain[v["hex"]] == "city"}
    return sorted(out)


def read(data: GameData, state: State, side: str, orders: dict[str, Any],
         problems: list[Problem]) -> tuple[list[Event], State]:
    """The side's `arrive` orders, checked; their events, and the position after them (the
    movement orders of the same file are read against it)."""
    b = board(data)
    box = list(state["recruits"][side])
    placed: list[int] = []  # indexes into the box
    per_hex: Counter[str] = Counter(v["hex"] for v in (state["russians"] if side == RUSSIAN
                                                        else state["tokens"]).values())
    events: list[Event] = []
    made = int(state.get("tokens_made", len(state["tokens"])))
    for i, item in enumerate(orders.get("orders") or []):
        if not (isinstance(item, dict) and set(item) == {"arrive"}):
            continue
        at: Path_ = ("orders", i, "arrive")
        body = item["arrive"]
        key = "units" if side == RUSSIAN else "recruits"
        if not isinstance(body, dict) or set(body) != {"hex", key} or not isinstance(body[key], list) \
                or not body[key]:
            problems.append(Problem(at, f'expected {{hex: "CCRR", {key}: [...]}}'))
            continue
        found = len(problems)
        hex_id = hex_in(b, body["hex"], (*at, "hex"), problems)
        chosen = _chosen(side, box, body[key], placed, (*at, key), problems)
        if hex_id is None or len(problems) > found:
            continue
        for k in chosen:
            unit = box[k] if side == RUSSIAN else None
            if hex_id not in allowed(data, b, state, side, unit):
                problems.append(Problem((*at, "hex"), _where(data, b, side, hex_id, unit)))
                break
        if len(problems) > found:
            continue
        if per_hex[hex_id] + len(chosen) > stacking(data, b, hex_id):
            problems.append(Problem((*at, "hex"), f"{b.label(hex_id)} would hold "
                                    f"{per_hex[hex_id] + len(chosen)} units; its terrain "
                                    f"({b.terrain[hex_id]}) stacks {stacking(data, b, hex_id)} (7.1)"))
            continue
        per_hex[hex_id] += len(chosen)
        placed += chosen
        if side == RUSSIAN:
            events.append({"type": "arrived", "side": RUSSIAN, "hex": hex_id,
                           "units": [box[k] for k in chosen]})
        else:
            tokens = {}
            for k in chosen:
                made += 1
                tokens[f"t{made:02d}"] = box[k]
            events.append({"type": "arrived", "side": CHECHEN, "hex": hex_id, "tokens": tokens,
                           "recruits": [_box_id(box[k]) for k in chosen]})
    left = len(box) - len(placed)
    if left and not any(p.path[:1] == ("orders",) and "arrive" in p.path for p in problems):
        problems.append(Problem(("orders",), f"your recruitment box holds {left} more unit"
                                f"{'s' if left != 1 else ''}: place each with "
                                f"{{arrive: {{hex: \"CCRR\", {'units' if side == RUSSIAN else 'recruits'}: [...]}}}} "
                                f"({'13.2' if side == RUSSIAN else '13.3'})"))
    work = clone(state)
    for e in events:
        work = EVENTS.apply(data, work, e)
    return events, work


def _box_id(recruit: Any) -> str:
    """A recruit's name in the box: its sealed node's id (the unit itself where a reader's
    key has put the value in its place, pbem.crypto.sealed.substitute)."""
    return str(recruit["id"]) if isinstance(recruit, dict) else str(recruit)


def _chosen(side: str, box: list[Any], value: list[Any], placed: list[int], at: Path_,
            problems: list[Problem]) -> list[int]:
    """Indexes into the box of the units an `arrive` order names."""
    out: list[int] = []
    for k, item in enumerate(value):
        if side == RUSSIAN:
            index = box.index(item) if item in box else None
            wrong = f"{item!r} is not in your recruitment box{suggest(str(item), [str(x) for x in box])}"
        else:
            index = item - 1 if isinstance(item, int) and not isinstance(item, bool) \
                and 1 <= item <= len(box) else None
            wrong = f"{item!r} is not a place in your recruitment box (1 to {len(box)})"
        if index is None:
            problems.append(Problem((*at, k), wrong))
        elif index in placed or index in out:
            problems.append(Problem((*at, k), f"{item} is placed once"))
        else:
            out.append(index)
    return out


def _where(data: GameData, b: Board, side: str, hex_id: str, unit: str | None) -> str:
    enemy = "holds enemy units (7.0)"
    if side == CHECHEN:
        return f"{b.label(hex_id)} is not a Chechnya hex free of Russian units: reinforcements arrive there (13.3)"
    extra = ", or a city a Russian unit occupies for pro-Russian Chechen units" \
        if unit is not None and units(data)[unit]["nationality"] == "pro_russian_chechen" else ""
    return (f"{b.label(hex_id)} is not a Stavropol or Dagestan hex free of enemy units{extra}: "
            f"Russian reinforcements arrive there (13.2); or it {enemy}")


def resealed(event: Event, secrets: Secrets, turn: int) -> Event:
    """A Chechen arrival with each unit sealed anew under its token's id, so that the
    Chechen's key shows "t25: Borz Special Regiment" as it does for his first tokens."""
    if event["type"] != "arrived" or event["side"] != CHECHEN:
        return event
    return {**event, "tokens": {token: secrets.seal("unit", token, CHECHEN, turn,
                                                    secrets.compute(lambda v: v, node))
                                for token, node in event["tokens"].items()}}


def default(data: GameData, state: State, side: str, rng: Rng | None = None) -> list[dict[str, Any]]:
    """Every unit of the box placed (a ruling for a side that sends none: the first hexes
    with room in id order; the bot picks at random)."""
    b = board(data)
    per_hex: Counter[str] = Counter(v["hex"] for v in (state["russians"] if side == RUSSIAN
                                                        else state["tokens"]).values())
    out: list[dict[str, Any]] = []
    for k, item in enumerate(state["recruits"][side]):
        unit = item if side == RUSSIAN else None
        room = [h for h in allowed(data, b, state, side, unit) if per_hex[h] < stacking(data, b, h)]
        if not room:
            continue
        hex_id = rng.choice(f"bot:arrive:t{state['turn']}:{side}:{k}", room) if rng else room[0]
        per_hex[hex_id] += 1
        out.append({"arrive": {"hex": hex_id, "units" if side == RUSSIAN else "recruits":
                               [item if side == RUSSIAN else k + 1]}})
    return out


def _arrived(data: GameData, state: State, event: Event) -> None:
    if event["side"] == RUSSIAN:
        for unit in event["units"]:
            state["russians"][unit] = {"hex": event["hex"], "reduced": False}
        state["recruits"][RUSSIAN] = [u for u in state["recruits"][RUSSIAN] if u not in event["units"]]
    else:
        for token, node in event["tokens"].items():
            state["tokens"][token] = {"hex": event["hex"], "unit": node}
        state["recruits"][CHECHEN] = [n for n in state["recruits"][CHECHEN]
                                      if _box_id(n) not in event["recruits"]]
        state["tokens_made"] = int(state.get("tokens_made", 0)) + len(event["tokens"])


APPLY: dict[str, Apply[GameData]] = {"arrived": _arrived}


def _told_arrived(data: GameData, event: Event) -> str:
    b = board(data)
    if event["side"] == RUSSIAN:
        names = ", ".join(units(data)[u]["name"] for u in event["units"])
        return f"{names} arrive{'s' if len(event['units']) == 1 else ''} in {b.label(event['hex'])} (13.2)"
    n = len(event["tokens"])
    return (f"the Chechen places {n} reinforcement{'s' if n != 1 else ''} face down in "
            f"{b.label(event['hex'])}: {', '.join(event['tokens'])} (13.3)")


DESCRIBE: dict[str, Describe[GameData]] = {"arrived": _told_arrived}
