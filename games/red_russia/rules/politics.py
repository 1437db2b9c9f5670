"""The political phase (4.3): the One Russia Index (4.31, 17.x), foreign intervention
(4.32, 13.61-13.64) and the activation of minor factions (4.33, 12.1-12.2, 13.51), plus the
card hand limits that depend on the ORI (14.3).

By mail the political phase takes one orders file per faction, all at once; the dice are
then rolled in initiative order (4.31-4.33) and each result is applied before the next roll:

    orders:
      - intervene: {spend: 3}        # White factions only, once a turn (13.61): 0, 1, 3 or 5
      - activate: {minor: finland}   # any major faction, from turn 3 (12.1)

The three tables are not printed in the rulebook: `politics.yaml` holds RECONSTRUCTED ones
(read through `tables(data)`, corrected per campaign with `overrides: {politics: ...}`).

State kept here (absent keys read as their starting value, see `initial_state`):
  ori            {faction: 0..3}                       17.1, 0 at the start
  ori_mods       {faction: {reason: n}}                17.5 modifiers earned in the turn,
                                                       and 17.4 Moscow as reason "moscow"
                                                       (a LEVEL change, not a die modifier)
  allied_control {faction: n}                          13.61 "move": n allied units act for
                                                       the faction this turn (13.63)
  minors         {minor: {status, controller, until}}  12.1x: neutral | limited | active
  flags          kolchak_coup, wrangel_takes_over,     set by the event cards (10.92, 10.93,
                 poland_major                          13.54); only read here
"""

from __future__ import annotations

from collections import deque
from collections.abc import Callable
from typing import Any

from pbem.game import Event, GameData, Problem, Rng, State, clone
from pbem.kit.events import Describe, Ruled, Told
from pbem.kit.fold import Fold
from pbem.kit.orders import check_keys, order_items
from pbem.kit.tables import row_between
from pbem.names import NameIndex, suggest

from .board import MAJORS, MINORS, WHITES, Board, board
from .common import label_part, minor_state, poland_major

ORI_MIN, ORI_MAX = 0, 3  # 17.1
MODIFIER_CAP = 3  # 17.5 "within a maximum limit of +3 to -3"
LEVEL_REASONS = ("moscow",)  # 17.4: changes of LEVEL, applied before the roll, not capped
MINOR_STATUSES = ("neutral", "limited", "active")
FIRST_MINOR_TURN = 3  # 12.1, 11.0: no minor before the third turn (the Allies excepted)
POLAND_FULL_TURN = 9  # 13.51: fully activated from Summer 1920 (turn 9) onwards
SHARED_HAND = {2: 7, 3: 6}  # 14.3: the player of several White factions
POLAND_HAND = 3  # 13.54: Poland played as a major faction has 3 cards
POZNAN = "Poznan"  # 13.54: where the Allies arrive for Poland played as a major faction
GONE = ("dead", "removed", "eliminated", "gone")  # a leader permanently out of the game
ORDER_VERBS = ("intervene", "activate")


def initial_state() -> dict[str, Any]:
    """The keys this module adds to a new game's state (17.1, 12.2: all minors neutral)."""
    return {
        "ori": {f: 0 for f in MAJORS},
        "ori_mods": {},
        "allied_control": {},
        "minors": {m: {"status": "neutral", "controller": None, "until": None} for m in MINORS},
        "flags": {},
    }


def tables(data: GameData) -> dict[str, Any]:
    """The RECONSTRUCTED tables of politics.yaml (game.yaml data_files: politics)."""
    if "politics" not in data.files:
        raise KeyError("politics.yaml is not loaded: add `politics` to game.yaml data_files")
    return dict(data.files["politics"])


def check_tables(data: GameData) -> list[str]:
    """Problems with politics.yaml, each naming the key (for check_data)."""
    problems: list[str] = []
    if "politics" not in data.files:
        return ["game.yaml: data_files: politics is missing (the political phase tables)"]
    t = data.files["politics"] or {}
    b = board(data)
    fields: dict[str, tuple[str, tuple[Any, ...]]] = {
        "ori": ("change", (-1, 0, 1)),
        "intervention": ("result", ("remove", "none", "move", "add")),
        "minors": ("result", ("neutral", "none", "limited", "active")),
        "infighting": ("result", ("none", "money", "ori", "both")),
    }
    for name, (key, allowed) in fields.items():
        rows = (t.get(name) or {}).get("table")
        where = f"politics.yaml: {name}.table"
        if not isinstance(rows, list) or not rows:
            problems.append(f"{where}: expected a list of rows")
            continue
        for i, row in enumerate(rows):
            if not isinstance(row, dict) or row.get(key) not in allowed:
                problems.append(f"{where}[{i}].{key}: expected one of {', '.join(map(str, allowed))}")
                continue
            for bound in ("min", "max", "count", "money"):
                v = row.get(bound)
                if v is not None and (isinstance(v, bool) or not isinstance(v, int)):
                    problems.append(f"{where}[{i}].{bound}: expected a whole number")
            if row.get(key) in ("remove", "move", "add") and not isinstance(row.get("count"), int):
                problems.append(f"{where}[{i}].count: a {row[key]} result needs a count")
        if problems:
            continue
        if "min" in rows[0] or "max" in rows[-1]:
            problems.append(f"{where}: the first row takes no min and the last no max, so every "
                            "modified roll has a row")
        for i in range(1, len(rows)):
            if rows[i].get("min") is None or rows[i - 1].get("max") is None or \
                    rows[i]["min"] != rows[i - 1]["max"] + 1:
                problems.append(f"{where}[{i}]: min must be one above the previous row's max")
    bonus = (t.get("intervention") or {}).get("spend_bonus")
    if not isinstance(bonus, dict) or not all(str(k).isdigit() and isinstance(v, int)
                                              for k, v in bonus.items()) \
            or 0 not in {int(k) for k in bonus}:
        problems.append("politics.yaml: intervention.spend_bonus: a mapping money -> bonus with 0")
    for faction, box in ((t.get("intervention") or {}).get("arrival") or {}).items():
        if faction not in WHITES or box not in b.boxes:
            problems.append(f"politics.yaml: intervention.arrival.{faction}: expected a White "
                            f"faction and a waiting box ({', '.join(b.boxes)})")
    return problems


# ---------------------------------------------------------------------------------------
# reading the state


def ori_level(state: State, faction: str) -> int:
    return int((state.get("ori") or {}).get(faction, 0))


def clamp(level: int) -> int:
    return max(ORI_MIN, min(ORI_MAX, level))


def flags(state: State) -> dict[str, Any]:
    return dict(state.get("flags") or {})


def in_play(state: State, leader: str) -> bool:
    """Alive and not removed: a wounded leader (in the unused box, 10.4) is still in play."""
    unit = state["units"].get(leader)
    return unit is not None and unit["status"] not in GONE


def denikin_rules(state: State) -> bool:
    """10.91: Denikin in play and not replaced by Wrangel (10.92)."""
    return in_play(state, "denikin") and not flags(state).get("wrangel_takes_over")


def wrangel_rules(state: State) -> bool:
    """10.92: from the "Wrangel takes over" card while Wrangel is in play."""
    return bool(flags(state).get("wrangel_takes_over")) and in_play(state, "wrangel")


def kolchak_rules(state: State) -> bool:
    """10.93: from the "Kolchak coup" card until Kolchak is permanently removed."""
    return bool(flags(state).get("kolchak_coup")) and in_play(state, "kolchak")


def political_order(b: Board, state: State) -> list[str]:
    """4.31-4.33: initiative order (the previous turn's, 4.2); before any initiative was
    rolled, the order of set-up (3.0: the White factions in order, then the Reds)."""
    order = [str(f) for f in state.get("initiative") or []]
    if not order:
        order = [*b.game.get("white_order", WHITES), "red"]
    defeated = set(state.get("defeated") or [])
    return [f for f in order if f in MAJORS and f not in defeated]


def _apply(b: Board, state: State, event: Event) -> State:
    new: State = clone(state)
    APPLY[event["type"]](b, new, event)
    return new


# ---------------------------------------------------------------------------------------
# 17.4, 17.5: the modifiers a turn's events earn for the next political phase


def ori_modifiers(data: GameData, state: State, events_of_turn: list[Event]) -> dict[str, dict[str, int]]:
    """{faction: {reason: n}} earned in a turn, from its events and the state at its end.

    Reasons: allied_combat, invasion, assault, zones, petrograd, archangel (17.5 die
    modifiers, capped together at +-3 when rolled: `capped_total`) and moscow (17.4, a
    change of level). How the events are read:

    * a battle is an `attack` event and the `battle_over` that closes it (same zone and
      attacker); its sides are the attacker and the attack's `defenders` plus the factions
      whose units retreated before combat in that zone just before the attack (8.4: they
      "retreated" in the face of it). No `battle_over` and no defenders left: everybody
      retreated before combat, the attacker holds the zone. Aircraft caught alone (8.93,
      `air_alone`) are no combat ("not supposed to have taken place").
    * won/lost (invasion, assault): the side with units left when the other has none won;
      a side with none left lost (both, if neither has any left); both still there: no
      result. Once per faction and level, nothing if a faction both won and lost (17.5).
    * allied unit in combat: "allies" among the defenders with a White faction (stacked),
      or allied units taking part on a White attacker's side (named in the attack's
      optional `units`, or losing steps, retreating or eliminated in its battle). Once.
    * zones: every `control` event: the new owner captured a zone, the old owner lost one,
      each counting only if the zone is not one of that faction's home zones (map.yaml
      `home`). Nothing if a faction both captured and lost.
    * Petrograd (+3/-3) and Moscow (17.4, +1/-1 level): the city changed hands during the
      turn (a `control` event) and its owner at the end of the turn is not the one at the
      start: the new owner gains, the old owner loses. Retaken in the same turn: nothing.
    * Archangel: North/Asia -3 if another faction captured it during the turn, even if
      North/Asia took it back (17.5 sets no "kept until the end of the turn" for it).
    """
    b = board(data)
    mods: dict[str, dict[str, int]] = {f: {} for f in MAJORS}
    results: dict[str, dict[str, set[str]]] = {lvl: {"won": set(), "lost": set()}
                                               for lvl in ("invasion", "assault")}
    allied: set[str] = set()
    for battle in _battles(state, events_of_turn):
        if battle["air_alone"]:
            continue
        attackers = {battle["attacker"]}
        defenders = set(battle["defenders"])
        fled = set(battle["fled"]) - defenders
        # 17.5 allied unit in combat, stacked with a White faction's units
        if "allies" in defenders:
            allied |= defenders & set(WHITES)
        elif battle["allied_units"] and battle["attacker"] in WHITES:
            allied.add(battle["attacker"])
        if battle["level"] not in results:
            continue
        outcome = battle["outcome"]
        if outcome is None:
            continue  # the battle's end is not among the events: no result
        atk_left, def_left = outcome
        won, lost = results[battle["level"]]["won"], results[battle["level"]]["lost"]
        lost |= fled  # 8.4 retreated before the combat
        if atk_left and not def_left:
            won |= attackers
            lost |= defenders
        elif def_left and not atk_left:
            won |= defenders
            lost |= attackers
        elif not atk_left and not def_left:
            lost |= attackers | defenders
    for faction in MAJORS:
        if faction in allied:
            mods[faction]["allied_combat"] = -1
        for level, value in (("invasion", 2), ("assault", 1)):
            won, lost = results[level]["won"], results[level]["lost"]
            if faction in won and faction not in lost:
                mods[faction][level] = value
            elif faction in lost and faction not in won:
                mods[faction][level] = -value
    # 17.5 capture / loss of zones that are not the faction's own
    captured: set[str] = set()
    lost_zones: set[str] = set()
    start_owner: dict[str, Any] = {}
    archangel_taken = False
    for e in events_of_turn:
        if e.get("type") != "control":
            continue
        zone, new, old = e["zone"], e.get("faction"), e.get("from")
        if new == old:
            continue
        home = b.zones.get(zone, {}).get("home")
        if new in MAJORS and home != new:
            captured.add(new)
        if old in MAJORS and home != old:
            lost_zones.add(old)
        start_owner.setdefault(zone, old)
        if zone == "Archangel" and old == "north":
            archangel_taken = True
    for faction in MAJORS:
        if faction in captured and faction not in lost_zones:
            mods[faction]["zones"] = 1
        elif faction in lost_zones and faction not in captured:
            mods[faction]["zones"] = -1
    for city, reason, value in (("Petrograd", "petrograd", 3), ("Moscow", "moscow", 1)):
        if city not in start_owner:
            continue
        before, after = start_owner[city], state["control"].get(city)
        if after == before or after is None:
            continue
        if after in MAJORS:
            mods[after][reason] = mods[after].get(reason, 0) + value
        if before in MAJORS:
            mods[before][reason] = mods[before].get(reason, 0) - value
    if archangel_taken:
        mods["north"]["archangel"] = -3
    return {f: {r: v for r, v in m.items() if v} for f, m in mods.items()}


def _battles(state: State, events: list[Event]) -> list[dict[str, Any]]:
    """The battles of a list of events, in order, with their sides and outcome."""
    battles: list[dict[str, Any]] = []
    fled: dict[str, set[str]] = {}
    current: dict[str, Any] | None = None

    def allied_unit(pid: Any) -> bool:
        unit = state["units"].get(pid)
        return bool(unit and unit["faction"] == "allies") or str(pid).startswith("allied-")

    def close() -> None:
        if current is not None and current["outcome"] is None and not current["defenders"] \
                and not current["air_alone"]:
            current["outcome"] = (True, False)  # 8.4 all the defenders retreated before combat

    for e in events:
        kind = e.get("type")
        if kind == "retreat" and e.get("when") == "before combat":
            fled.setdefault(e["zone"], set()).add(str(e["faction"]))
        elif kind == "attack":
            close()
            current = {"zone": e["zone"], "attacker": e["attacker"], "level": e.get("level"),
                       "defenders": list(e.get("defenders") or []),
                       "fled": sorted(fled.pop(e["zone"], set())), "outcome": None,
                       "air_alone": False,
                       "allied_units": [u for u in e.get("units") or [] if allied_unit(u)]}
            battles.append(current)
        elif kind in ("siege", "phase"):
            close()
            current = None
        elif current is None:
            continue
        elif kind == "air_alone" and e.get("zone") == current["zone"]:
            current["air_alone"] = True
        elif kind in ("reduced", "retreat", "eliminated") and "allies" not in current["defenders"]:
            named = [e["unit"]] if "unit" in e else list(e.get("units") or [])
            if kind != "retreat" or e.get("zone") == current["zone"]:
                current["allied_units"] += [u for u in named if allied_unit(u)]
        elif kind == "battle_over" and e.get("zone") == current["zone"] \
                and e.get("attacker") == current["attacker"]:
            current["outcome"] = (bool(e["attacker_left"]), bool(e["defender_left"]))
            current = None
    close()
    return battles


def capped_total(reasons: dict[str, int]) -> int:
    """17.5: the turn's die modifiers add up within +3 / -3 (17.4 level changes excluded)."""
    total = sum(v for r, v in reasons.items() if r not in LEVEL_REASONS)
    return max(-MODIFIER_CAP, min(MODIFIER_CAP, total))


def ori_mods_event(data: GameData, state: State, events_of_turn: list[Event]) -> Event:
    """The event that records a turn's modifiers at its end (for the next political phase)."""
    return {"type": "ori_mods", "turn": state["turn"],
            "mods": ori_modifiers(data, state, events_of_turn)}


# ---------------------------------------------------------------------------------------
# 4.31, 17.2: the ORI rolls


def leader_ori_mods(state: State, faction: str) -> dict[str, int]:
    """10.91 Denikin -1 to the South; 10.93 Kolchak +1 to the Siberians. Added after the
    +-3 cap, which 17.5 sets on its own table modifiers."""
    out: dict[str, int] = {}
    if faction == "south" and denikin_rules(state):
        out["denikin"] = -1
    if faction == "siberian" and kolchak_rules(state):
        out["kolchak"] = 1
    return out


def ori_phase(data: GameData, state: State, rng: Rng) -> list[Event]:
    """4.31, 17.2: each major faction in initiative order rolls 1d6 + modifiers on the ORI
    table; 17.4 Moscow first; the level stays within 0..3 (17.1). Poland played as a major
    faction never rolls (13.54). The turn's modifiers are then cleared."""
    b = board(data)
    rows = tables(data)["ori"]["table"]
    events: list[Event] = []
    work = state
    for faction in political_order(b, state):
        if faction == poland_major(work):
            continue  # 13.54 Poland's ORI stays at zero: no roll
        before = ori_level(work, faction)
        earned = {str(r): int(v) for r, v in ((work.get("ori_mods") or {}).get(faction) or {}).items()}
        moscow = sum(earned.pop(r, 0) for r in LEVEL_REASONS)
        leaders = leader_ori_mods(work, faction)
        modifier = capped_total(earned) + sum(leaders.values())
        roll = rng.roll(f"ori:t{state['turn']}:{faction}", 6)
        total = roll + modifier
        change = int(row_between(rows, total)["change"])
        level = clamp(clamp(before + moscow) + change)
        event: Event = {"type": "ori_roll", "faction": faction, "before": before, "moscow": moscow,
                        "roll": roll, "modifier": modifier, "reasons": {**earned, **leaders},
                        "total": total, "change": change, "level": level}
        events.append(event)
        work = _apply(b, work, event)
    events.append({"type": "ori_mods_cleared"})
    return events


# ---------------------------------------------------------------------------------------
# 4.32, 13.61-13.63: foreign intervention


def _spend_bonus(data: GameData) -> dict[int, int]:
    return {int(k): int(v) for k, v in tables(data)["intervention"]["spend_bonus"].items()}


def _orders_of(body: Any, verb: str) -> list[Any]:
    if not isinstance(body, dict):
        return []
    return [item[verb] for item in body.get("orders") or []
            if isinstance(item, dict) and len(item) == 1 and verb in item]


def _spend(arg: Any) -> int:
    value = arg.get("spend", 0) if isinstance(arg, dict) else 0
    return value if isinstance(value, int) and not isinstance(value, bool) else 0


def intervention_mods(data: GameData, state: State, faction: str, spend: int) -> dict[str, int]:
    """13.61 the money's bonus; 17.3 the ORI (if politics.yaml says so); 10.92 Wrangel -1
    for the South; 10.93 Kolchak +1 for the Siberians."""
    t = tables(data)["intervention"]
    mods = {"money": _spend_bonus(data)[spend]}
    if t.get("add_ori", True):
        mods["ori"] = ori_level(state, faction)
    if faction == "south" and wrangel_rules(state):
        mods["wrangel"] = -1
    if faction == "siberian" and kolchak_rules(state):
        mods["kolchak"] = 1
    return {k: v for k, v in mods.items() if v}


def intervention(data: GameData, state: State, orders: dict[str, Any], rng: Rng) -> list[Event]:
    """4.32: each White faction that asks (`intervene`) rolls, in initiative order, on the
    foreign intervention table; results are applied at once. Last turn's allied control
    (13.63: one turn) ends first."""
    b = board(data)
    t = tables(data)["intervention"]
    bonus = _spend_bonus(data)
    fold = Fold(lambda s, e: _apply(b, s, e), state)

    if fold.state.get("allied_control"):
        fold.emit({"type": "allied_control_cleared"})
    for faction in political_order(b, state):
        asked = _orders_of(orders.get(faction), "intervene")
        if faction not in WHITES or not asked:
            continue
        wanted = _spend(asked[0])  # 13.61 once a turn: validation refuses a second one
        # 6.4: money spent since the orders were checked: the highest level still affordable
        spend = max(s for s in bonus if s <= min(wanted, fold.state["money"][faction]))
        mods = intervention_mods(data, fold.state, faction, spend)
        roll = rng.roll(f"intervention:t{state['turn']}:{faction}", 6)
        total = roll + sum(mods.values())
        row = row_between(t["table"], total)
        result = str(row["result"])
        count = int(row.get("count", 0))
        event: Event = {"type": "intervention_roll", "faction": faction, "spend": spend,
                        "roll": roll, "modifier": sum(mods.values()), "reasons": mods,
                        "total": total, "result": result, "count": count}
        if spend != wanted:
            event["asked"] = wanted
        fold.emit(event)
        if result == "remove":
            gone = removal_order(b, data, fold.state, faction)[:count]
            if gone:
                fold.emit({"type": "allies_removed", "faction": faction, "units": gone})
        elif result == "move":
            fold.emit({"type": "allied_control", "faction": faction, "count": count,
                  "turn": state["turn"]})
        elif result == "add":
            units = allied_pool(fold.state)[:count]
            money = int(row.get("money", 0)) + (count - len(units)) * int(t["money_per_missing_unit"])
            # 13.54 the Allies come to Poznan for the player of Poland
            arrival = POZNAN if faction == poland_major(fold.state) else t["arrival"][faction]
            fold.emit({"type": "allies_added", "faction": faction, "units": units, "zone": arrival, "money": money})
    return fold.events


def _theatre(b: Board, data: GameData, faction: str) -> set[str]:
    """A White faction's allied front: its waiting box, that box's sea and landing zones."""
    box = tables(data)["intervention"]["arrival"].get(faction)
    if box is None:
        return set()
    landing = set((b.boxes.get(box) or {}).get("disembark") or [])
    seas = {sea for z in landing for sea in b.zones.get(z, {}).get("ports") or []}
    return {box} | landing | seas


def removal_order(b: Board, data: GameData, state: State, faction: str) -> list[str]:
    """13.61 "remove": which allied units leave the game, the referee's choice by mail:
    first those on the rolling faction's own front (its waiting box, that box's sea and
    landing zones: the Allies give up the faction that failed them), then the rest; land
    units before fleets (a fleet is never rebuilt, 7.43); then by id."""
    front = _theatre(b, data, faction)
    units = [pid for pid, p in state["units"].items()
             if p["faction"] == "allies" and p["type"] != "leader" and p["status"] == "map"]
    return sorted(units, key=lambda pid: (state["units"][pid]["zone"] not in front,
                                          state["units"][pid]["type"] == "fleet", pid))


def allied_pool(state: State) -> list[str]:
    """13.61 "add": allied land units out of play but not removed from the game: unused
    counters, then eliminated ones (5.3: all but fleets may be rebuilt); never fleets
    (5.3, 7.43) or tanks (15.4: only by the Tank card); by id."""
    units = [pid for pid, p in state["units"].items()
             if p["faction"] == "allies" and p["type"] in ("inf", "air", "cav")
             and p["status"] in ("pool", "eliminated")]
    return sorted(units, key=lambda pid: (state["units"][pid]["status"] != "pool", pid))


# ---------------------------------------------------------------------------------------
# 4.33, 12.1x, 13.51: minor factions


def minor_names(b: Board) -> NameIndex:
    aliases: dict[str, list[str]] = {}
    for minor, spec in (b.game.get("minors") or {}).items():
        aliases[minor] = [str(spec.get("name", minor)), str(spec.get("leader", minor))]
    aliases.setdefault("baltic", []).extend(["Baltic States", "Baltics"])
    aliases.setdefault("anarchists", []).extend(["Anarchists", "Makhno"])
    return NameIndex(MINORS, aliases)


def _has_units(state: State, minor: str) -> bool:
    return any(p["faction"] == minor and p["type"] != "leader" and p["status"] == "map"
               for p in state["units"].values())


def minor_mods(data: GameData, state: State, faction: str, minor: str) -> dict[str, int]:
    """17.3 the ORI (if politics.yaml says so); 10.93 Kolchak -1 to the Siberians for
    Finland and the Baltic States."""
    mods: dict[str, int] = {}
    if tables(data)["minors"].get("add_ori", True):
        mods["ori"] = ori_level(state, faction)
    if faction == "siberian" and minor in ("finland", "baltic") and kolchak_rules(state):
        mods["kolchak"] = -1
    return {k: v for k, v in mods.items() if v}


def minor_activation(data: GameData, state: State, orders: dict[str, Any], rng: Rng) -> list[Event]:
    """4.33: each major faction that asks (`activate`) rolls, in initiative order, on the
    minor activation table; a later result may cancel an earlier one. Limited control
    from an earlier turn ends first (12.11: one turn)."""
    b = board(data)
    rows = tables(data)["minors"]["table"]
    per_turn = int(tables(data)["minors"].get("attempts_per_turn", 1))
    turn = int(state["turn"])
    fold = Fold(lambda s, e: _apply(b, s, e), state)

    for name in MINORS:
        m = minor_state(fold.state, name)
        if m["status"] == "limited" and m.get("until") is not None and int(m["until"]) < turn:
            fold.emit({"type": "minor_status", "minor": name, "faction": None, "roll": None,
                  "result": "expired", "status": "neutral", "controller": None, "until": None,
                  "why": "limited control lasts one turn (12.11)"})
            for e in recall(b, fold.state, name, rng):
                fold.emit(e)
    names = minor_names(b)
    for faction in political_order(b, state):
        seen: list[str] = []
        for arg in _orders_of(orders.get(faction), "activate"):
            minor = names.get(arg.get("minor") if isinstance(arg, dict) else arg)
            if minor is None or minor in seen or len(seen) >= per_turn:
                continue
            seen.append(minor)
            event = _activation(data, fold.state, faction, minor, rows, rng)
            was = minor_state(fold.state, minor)["status"]
            fold.emit(event)
            if was != "neutral" and event["status"] == "neutral":
                for e in recall(b, fold.state, minor, rng):
                    fold.emit(e)
    return fold.events


def _activation(data: GameData, state: State, faction: str, minor: str,
                rows: list[dict[str, Any]], rng: Rng) -> Event:
    """One roll on the minor activation table and the status it leaves (12.11, 12.12,
    12.2, 13.51, 13.55)."""
    turn = int(state["turn"])
    now = minor_state(state, minor)
    base: Event = {"type": "minor_status", "minor": minor, "faction": faction,
                   "status": now["status"], "controller": now["controller"], "until": now["until"]}
    ignored = None
    if turn < FIRST_MINOR_TURN:
        ignored = "no minor faction enters play before turn 3 (12.1)"
    elif minor == "poland" and faction not in WHITES:
        ignored = "only a White faction activates Poland on the table (13.5)"
    elif minor == "poland" and flags(state).get("poland_major"):
        ignored = "Poland is played as a major faction: results for it are ignored (13.54)"
    elif not _has_units(state, minor):
        ignored = "all its units are gone: results are ignored until it is liberated (12.3)"
    if ignored:
        return {**base, "roll": None, "result": "ignored", "why": ignored}
    mods = minor_mods(data, state, faction, minor)
    roll = rng.roll(f"minor:t{turn}:{faction}:{label_part(minor)}", 6)
    total = roll + sum(mods.values())
    result = str(row_between(rows, total)["result"])
    event: Event = {**base, "roll": roll, "modifier": sum(mods.values()), "reasons": mods,
                    "total": total, "result": result, "why": ""}
    if result == "neutral":  # 12.2, 4.33 a later result may cancel an earlier one
        event.update(status="neutral", controller=None, until=None)
        return event
    if result == "none":
        return event
    wanted = result
    if wanted == "active" and faction == "red":
        wanted, event["why"] = "limited", "the Reds never fully activate a minor by the table (12.12)"
    elif wanted == "active" and minor == "poland" and turn < POLAND_FULL_TURN:
        wanted, event["why"] = "limited", "Poland is only under limited control before Summer 1920 (13.51)"
    elif wanted == "active" and minor == "poland" and not in_play(state, "pilsudski"):
        wanted, event["why"] = "limited", "without Pilsudski Poland is only under limited control (13.55)"
    if wanted == "limited" and now["status"] == "active" and now["controller"] == faction:
        event["why"] = "already fully activated for this faction: limited control changes nothing"
        return event
    event.update(status=wanted, controller=faction, until=turn if wanted == "limited" else None)
    return event


def recall(b: Board, state: State, minor: str, rng: Rng) -> list[Event]:
    """12.2: units of a minor that becomes neutral, outside the zones it controls, go at
    once to the nearest zone it controls (counted in zones crossed; ties drawn at random).
    A unit with no zone of its minor left stays where it is."""
    events: list[Event] = []
    own = {z for z, owner in state["control"].items() if owner == minor}
    for pid in sorted(state["units"]):
        p = state["units"][pid]
        if p["faction"] != minor or p["status"] != "map" or p["zone"] in own:
            continue
        nearest = _nearest(b, str(p["zone"]), own)
        dest = rng.choice(f"minor:t{state['turn']}:{minor}:recall:{pid}", nearest) \
            if len(nearest) > 1 else (nearest[0] if nearest else None)
        events.append({"type": "minor_recalled", "minor": minor, "unit": pid,
                       "from": p["zone"], "to": dest})
    return events


def _nearest(b: Board, start: str, targets: set[str]) -> list[str]:
    """The targets fewest routes away (all of them at that distance), by breadth."""
    seen = {start}
    frontier = deque([start])
    while frontier:
        layer = list(frontier)
        frontier.clear()
        found: list[str] = []
        for here in layer:
            for there in sorted(b.routes.get(here, {})):
                if there in seen:
                    continue
                seen.add(there)
                if there in targets:
                    found.append(there)
                frontier.append(there)
        if found:
            return sorted(found)
    return []


# ---------------------------------------------------------------------------------------
# orders of the political phase


def validate_political(data: GameData, state: State, faction: str, body: dict[str, Any]) -> list[Problem]:
    """`intervene` (4.32, 13.61) and `activate` (4.33, 12.1, 13.5, 13.54)."""
    b = board(data)
    problems: list[Problem] = []
    bonus = _spend_bonus(data)
    per_turn = int(tables(data)["minors"].get("attempts_per_turn", 1))
    names = minor_names(b)
    intervened = False
    minors: list[str] = []
    # the same file carries the purchase phase's orders (4.2), checked by economy.py
    for i, verb, arg in order_items(body, ORDER_VERBS, problems,
                                    others=("place", "treasure", "buy", "repair", "discard", "play")):
        path: tuple[str | int, ...] = ("orders", i, verb)
        if verb == "intervene":
            if faction not in WHITES:
                problems.append(Problem(path, "only the White factions may call on the Western "
                                              "Allies (4.32, 13.61)"))
                continue
            if intervened:
                problems.append(Problem(path, "the foreign intervention table is used once a turn "
                                              "(13.61)"))
                continue
            intervened = True
            if arg is None:
                continue
            if not check_keys(arg, path, (), ("spend",), problems):
                continue
            spend = arg.get("spend", 0)
            levels = ", ".join(str(s) for s in sorted(bonus))
            if isinstance(spend, bool) or not isinstance(spend, int) or spend not in bonus:
                problems.append(Problem((*path, "spend"), f"spend is one of {levels} (13.61)"))
            elif spend > state["money"][faction]:
                problems.append(Problem((*path, "spend"), f"{faction} has {state['money'][faction]} "
                                                          f"money, not {spend} (6.4)"))
            continue
        # activate
        text = arg.get("minor") if isinstance(arg, dict) else arg
        if isinstance(arg, dict) and not check_keys(arg, path, ("minor",), (), problems):
            continue
        minor = names.get(text)
        if minor is None:
            problems.append(Problem((*path, "minor") if isinstance(arg, dict) else path,
                                    f"unknown minor faction {text!r}"
                                    f"{suggest(str(text), MINORS) or names.suggest(text)} "
                                    f"(known: {', '.join(MINORS)})"))
            continue
        if state["turn"] < FIRST_MINOR_TURN:
            problems.append(Problem(path, "no minor faction may be activated before turn 3 (12.1)"))
        elif minor == "poland" and faction not in WHITES:
            problems.append(Problem(path, "Poland is activated on the table by a White faction "
                                          "only (13.5)"))
        elif minor == "poland" and flags(state).get("poland_major"):
            problems.append(Problem(path, "Poland is played as a major faction: the table no "
                                          "longer concerns it (13.54)"))
        elif minor in minors:
            problems.append(Problem(path, f"{minor} is named twice"))
        elif len(minors) >= per_turn:
            problems.append(Problem(path, f"a faction tries {per_turn} activation(s) a turn "
                                          "(politics.yaml minors.attempts_per_turn)"))
        minors.append(minor)
    return problems


def bot_political(data: GameData, state: State, faction: str, rng: Rng) -> dict[str, Any]:
    """A legal body: the White factions call on the Allies with what they can afford; from
    turn 3 every faction tries a minor it may activate."""
    turn = state["turn"]
    orders: list[dict[str, Any]] = []
    if faction in WHITES:
        levels = [s for s in sorted(_spend_bonus(data)) if s <= state["money"][faction]]
        orders.append({"intervene": {"spend": rng.choice(f"bot:intervene:t{turn}:{faction}", levels)}})
    if turn >= FIRST_MINOR_TURN:
        choices = [m for m in MINORS if not (m == "poland" and (faction not in WHITES
                                                                or flags(state).get("poland_major")))]
        orders.append({"activate": {"minor": rng.choice(f"bot:activate:t{turn}:{faction}", choices)}})
    return {"orders": orders}


# ---------------------------------------------------------------------------------------
# 14.3 hand limits


def hand_limit(data: GameData, state: State, faction: str, seats: list[list[str]]) -> int:
    """14.3: Red 6, Siberian 5, South 5, North/Asia 4, plus the faction's ORI; the player of
    several White factions holds 7 (two players) or 6 (three players) plus the average ORI
    of his factions, rounded down. Poland as a major faction: 3 cards (13.54)."""
    if faction == "poland" or faction == poland_major(state):
        return POLAND_HAND
    seat = next((list(s) for s in seats if faction in s), [faction])
    if len(seat) == 1:
        hands = {f["id"]: int(f["hand"]) for f in board(data).game["factions"]}
        if faction not in hands:
            raise ValueError(f"no hand size for {faction!r} (game.yaml factions)")
        return hands[faction] + ori_level(state, faction)
    if len(seats) not in SHARED_HAND:
        raise ValueError(f"14.3 gives no hand for several factions with {len(seats)} players")
    return SHARED_HAND[len(seats)] + sum(ori_level(state, f) for f in seat) // len(seat)


# ---------------------------------------------------------------------------------------
# applying the events (each checks what it reads)


def _major(value: Any, group: tuple[str, ...] = MAJORS) -> str:
    if value not in group:
        raise ValueError(f"expected one of {', '.join(group)}, got {value!r}")
    return str(value)


def _int(value: Any, what: str) -> int:
    if isinstance(value, bool) or not isinstance(value, int):
        raise ValueError(f"{what} must be a whole number, got {value!r}")
    return value


def _ori_mods(b: Board, s: State, e: Event) -> None:
    """17.5: the modifiers earned in a turn, kept for the next political phase; a reason
    given again replaces the earlier value (each counts once a turn)."""
    mods = s.setdefault("ori_mods", {})
    for faction, reasons in dict(e["mods"]).items():
        mine = mods.setdefault(_major(faction), {})
        for reason, value in dict(reasons).items():
            mine[str(reason)] = _int(value, f"the {reason} modifier")


def _ori_mods_cleared(b: Board, s: State, e: Event) -> None:
    s["ori_mods"] = {}


def _ori_roll(b: Board, s: State, e: Event) -> None:
    faction = _major(e["faction"])
    level = _int(e["level"], "an ORI level")
    if not ORI_MIN <= level <= ORI_MAX:
        raise ValueError(f"an ORI level is {ORI_MIN}..{ORI_MAX} (17.1), got {level}")
    now = ori_level(s, faction)
    if "before" in e and _int(e["before"], "the level before") != now:
        raise ValueError(f"the ORI of {faction} is {now}, the roll was made at {e['before']}")
    expected = clamp(clamp(now + int(e.get("moscow", 0))) + _int(e["change"], "the change"))
    if level != expected:
        raise ValueError(f"ORI {now} with Moscow {e.get('moscow', 0)} and change {e['change']} "
                         f"gives {expected}, not {level}")
    s.setdefault("ori", {})[faction] = level


def _ori_change(b: Board, s: State, e: Event) -> None:
    """17.0: a card (or the referee) moves a faction's level; kept within 0..3 (17.1)."""
    faction = _major(e["faction"])
    s.setdefault("ori", {})[faction] = clamp(ori_level(s, faction) + _int(e["change"], "the change"))


def _intervention_roll(b: Board, s: State, e: Event) -> None:
    """13.61: the money is spent before the roll."""
    faction = _major(e["faction"], WHITES)
    spend = _int(e["spend"], "the money spent")
    if not 0 <= spend <= s["money"][faction]:
        raise ValueError(f"{faction} cannot spend {spend} money (6.4)")
    s["money"][faction] -= spend


def _allied(s: State, pid: Any) -> dict[str, Any]:
    unit = s["units"].get(pid)
    if unit is None or unit["faction"] != "allies" or unit["type"] == "leader":
        raise ValueError(f"{pid!r} is not an allied unit")
    found: dict[str, Any] = unit
    return found


def _allies_removed(b: Board, s: State, e: Event) -> None:
    """13.61 "remove": out of the game for good."""
    _major(e["faction"], WHITES)
    for pid in e["units"]:
        _allied(s, pid).update(status="removed", zone=None, reduced=False)


def _allies_added(b: Board, s: State, e: Event) -> None:
    """13.61 "add": units into the faction's waiting box (7.8), and money."""
    faction = _major(e["faction"], WHITES)
    if e["zone"] not in b.boxes and e["zone"] not in b.zones:
        raise ValueError(f"no waiting box or zone {e['zone']!r}")
    for pid in e["units"]:
        unit = _allied(s, pid)
        if unit["status"] not in ("pool", "eliminated"):
            raise ValueError(f"{pid} is not in the allied pool (it is {unit['status']})")
        unit.update(status="map", zone=e["zone"], reduced=False)
    s["money"][faction] += _int(e.get("money", 0), "the money")


def _allied_control(b: Board, s: State, e: Event) -> None:
    """13.61 "move", 13.63: n allied units act for the faction this turn."""
    faction = _major(e["faction"], WHITES)
    s.setdefault("allied_control", {})[faction] = _int(e["count"], "the number of units")


def _allied_control_cleared(b: Board, s: State, e: Event) -> None:
    s["allied_control"] = {}
    s.pop("allied_used", None)  # 13.63 the units taken in hand go back with it


def _minor_status(b: Board, s: State, e: Event) -> None:
    minor = _major(e["minor"], MINORS)
    status = e["status"]
    if status not in MINOR_STATUSES:
        raise ValueError(f"a minor's status is one of {', '.join(MINOR_STATUSES)}, got {status!r}")
    controller = e.get("controller")
    until = e.get("until")
    if status == "neutral":
        controller = until = None
    else:
        controller = _major(controller)
        if status == "limited":
            until = _int(until, "limited control's last turn")
    entry: dict[str, Any] = {"status": status, "controller": controller, "until": until}
    if status == "limited":  # 12.11 the zones it holds when activated bound its moves
        entry["zones"] = sorted({str(p["zone"]) for p in s["units"].values()
                                 if p["faction"] == minor and p["status"] == "map" and p["zone"] in b.zones})
    if minor_state(s, minor).get("conquered"):
        entry["conquered"] = True  # 12.3 until liberated, whatever its status
    s.setdefault("minors", {})[minor] = entry


def _minor_recalled(b: Board, s: State, e: Event) -> None:
    """12.2: a neutral minor's unit goes home."""
    unit = s["units"].get(e["unit"])
    if unit is None or unit["faction"] != e["minor"]:
        raise ValueError(f"{e['unit']!r} is not a unit of {e['minor']!r}")
    if e.get("to") is None:
        return
    if e["to"] not in b.zones:
        raise ValueError(f"no zone {e['to']!r}")
    unit["zone"] = e["to"]


APPLY: dict[str, Callable[[Board, State, Event], None]] = {
    "ori_mods": _ori_mods,
    "ori_mods_cleared": _ori_mods_cleared,
    "ori_roll": _ori_roll,
    "ori_change": _ori_change,
    "intervention_roll": _intervention_roll,
    "allies_removed": _allies_removed,
    "allies_added": _allies_added,
    "allied_control": _allied_control,
    "allied_control_cleared": _allied_control_cleared,
    "minor_status": _minor_status,
    "minor_recalled": _minor_recalled,
}


# ---------------------------------------------------------------------------------------
# the log


def _reasons(reasons: dict[str, int]) -> str:
    return ", ".join(f"{r} {v:+d}" for r, v in reasons.items())


def _told_ori_mods(b: Board, e: Event) -> str:
    parts = [f"{f} ({_reasons(r)})" for f, r in e["mods"].items() if r]
    return f"ORI modifiers earned in turn {e['turn']}: " + ("; ".join(parts) or "none") + " (17.4, 17.5)"


def _told_ori_roll(b: Board, e: Event) -> str:
    moscow = f", Moscow {e['moscow']:+d} level first (17.4)" if e.get("moscow") else ""
    why = f" ({_reasons(e['reasons'])})" if e.get("reasons") else ""
    change = {1: "up one level", -1: "down one level", 0: "no change"}.get(e["change"], str(e["change"]))
    return (f"ORI {e['faction']}: level {e['before']}{moscow}; rolled {e['roll']} "
            f"{e['modifier']:+d}{why} = {e['total']}: {change}, now {e['level']} (17.2)")


def _told_ori_change(b: Board, e: Event) -> str:
    return f"ORI {e['faction']}: {e['change']:+d} level ({e.get('why', 'adjustment')})"


def _told_intervention_roll(b: Board, e: Event) -> str:
    asked = f" (asked {e['asked']}, could not pay)" if "asked" in e else ""
    why = f" ({_reasons(e['reasons'])})" if e.get("reasons") else ""
    result = {"remove": f"remove {e['count']} allied unit(s)", "none": "no effect",
              "move": f"{e['count']} allied unit(s) act for {e['faction']} this turn",
              "add": f"add {e['count']} allied unit(s)"}.get(e["result"], e["result"])
    return (f"foreign intervention, {e['faction']}: spent {e['spend']}{asked}; rolled {e['roll']} "
            f"{e['modifier']:+d}{why} = {e['total']}: {result} (13.62)")


def _told_allies_added(b: Board, e: Event) -> str:
    units = f"{', '.join(e['units'])} to {e['zone']}" if e["units"] else "no unit left in the pool"
    money = f", {e['money']} money to {e['faction']}" if e.get("money") else ""
    return f"the Allies send {units}{money} (13.61)"


def _told_minor_status(b: Board, e: Event) -> str:
    who = e.get("controller") or "nobody"
    status = {"neutral": "neutral", "limited": f"under limited control of {who} this turn",
              "active": f"fully activated for {who}"}[e["status"]]
    why = f" ({e['why']})" if e.get("why") else ""
    if e.get("roll") is None:
        lead = f"{e['minor']}" if e.get("faction") is None else f"{e['faction']} tries {e['minor']}"
        return f"{lead}: {status}{why}"
    mod = f" {e['modifier']:+d} ({_reasons(e['reasons'])})" if e.get("reasons") else ""
    return (f"{e['faction']} tries {e['minor']}: rolled {e['roll']}{mod} = {e['total']}: "
            f"{e['result']}; now {status}{why} (4.33)")


def _told_minor_recalled(b: Board, e: Event) -> str:
    if e.get("to") is None:
        return f"{e['unit']} of neutral {e['minor']} stays in {e['from']}: no zone of its own left (12.2)"
    return f"{e['unit']} of neutral {e['minor']} goes home from {e['from']} to {e['to']} (12.2)"


DESCRIBE: dict[str, Describe[Board]] = {
    "ori_mods": Ruled(_told_ori_mods, "17.4, 17.5"),
    "ori_mods_cleared": Told("the turn's ORI modifiers are used up", "17.5"),
    "ori_roll": _told_ori_roll,
    "ori_change": _told_ori_change,
    "intervention_roll": Ruled(_told_intervention_roll, "13.62"),
    "allies_removed": Told("the Allies withdraw {units} from the game", "13.61"),
    "allies_added": Ruled(_told_allies_added, "13.61"),
    "allied_control": Told("{faction} may use {count} allied unit(s) this turn", "13.61, 13.63"),
    "allied_control_cleared": Told("last turn's control of allied units ends", "13.63"),
    "minor_status": Ruled(_told_minor_status, "4.33"),
    "minor_recalled": Ruled(_told_minor_recalled, "12.2"),
}
