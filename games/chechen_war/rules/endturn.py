"""The End of Turn Phase (5.0): random events (12.0), the Russian morale (6.0), the ceasefire
declaration (15.1) and the reinforcement determination (13.1); then the end of the game
(3.2) or the next turn's start (markers and leaders back, 10.9, 11.4).

Both players send one file for the phase, sealed until both are in (the Chechen decides on
kidnapping before he knows whether the Russian will declare a ceasefire, as 6.3 comes before
15.1); every item is optional::

    # the Russian
    orders:
      - ceasefire: true                      # 15.1: the next turn is a ceasefire turn
      - reinforce: [ru_mvd_sofrino_bde, {flip: ru_131_mech_bde}, ru_vityaz]   # 13.1, in order
      - strike: [ch_basayev]                 # 12.0: the leader a "leader eliminated" event hits
    # the Chechen
    orders:
      - kidnap: true                         # 6.3: once a game

What is refereed, rule by rule:
- 12.0: the Russian's die on the Random Events Table (tables.yaml `random_events`), not on the
  ceasefire turn: a leader on the map eliminated (the Russian's `strike` order, else the
  lowest id), morale down, a modifier to the Russian reinforcement roll, an infiltrator drawn
  from the cup, sealed to the Chechen, arriving with his reinforcements;
- 6.2: the morale die with its modifiers (casualties, leaders eliminated this turn, Groznyi
  occupied), or +3 on the ceasefire turn; 6.3: a raid (a Chechen unit, necessarily militia
  by 8.2, in a town of Dagestan or Ingushetia) -1 once; the kidnapping once a game, both
  dice, the difference halved up toward the higher roller; 6.1: between 0 and 13; 3.1: the
  Chechen's sudden death; 6.4: casualties back to 0;
- 15.1: the ceasefire declared for the next turn, once a game;
- 13.1: each side's die on its Reinforcement Table with its modifiers; the Russian's picks
  (pool units or reduced units flipped back), the Chechen's units drawn from the cup by
  hidden randomness and sealed to him; both wait in their recruitment boxes; 13.1, 10.13:
  collateral damage back to 0;
- 3.2: after turn nine, the result; else the next turn begins: the used markers return
  (10.9), leaders waiting a turn return to the underground (11.4).
"""

from __future__ import annotations

from typing import Any

from pbem.game import Event, GameData, Problem, Rng, Secrets, State
from pbem.kit.events import Apply, Describe, Ruled, Told, recorded
from pbem.kit.orders import order_items
from pbem.kit.tables import Modifier, halve_up, read
from pbem.names import suggest

from .board import CHECHEN, RUSSIAN, board, ceasefire_turn, folding, units
from .combat import groznyi

Path_ = tuple[str | int, ...]
RUSSIAN_ORDERS = ("ceasefire", "reinforce", "strike")
CHECHEN_ORDERS = ("kidnap",)


def russians_hold_groznyi(data: GameData, state: State) -> bool:
    where = groznyi(board(data))
    return any(v["hex"] == where for v in state["russians"].values())


# --- the files --------------------------------------------------------------------------------

def read_orders(data: GameData, state: State, side: str, orders: dict[str, Any],
                problems: list[Problem]) -> dict[str, Any]:
    """A side's End of Turn file, checked: {ceasefire, reinforce, strike} or {kidnap}."""
    allowed = RUSSIAN_ORDERS if side == RUSSIAN else CHECHEN_ORDERS
    out: dict[str, Any] = {}
    for i, key, value in order_items(orders, allowed, problems):
        at: Path_ = ("orders", i)
        if key in out:
            problems.append(Problem((*at, key), f"{key} is given once"))
        elif key in ("ceasefire", "kidnap"):
            used = (state.get("ceasefire") or {}).get("declared") if key == "ceasefire" \
                else state.get("kidnapped")
            if value is not True:
                problems.append(Problem((*at, key), f"{key}: true, or leave it out"))
            elif used:
                problems.append(Problem((*at, key), f"the {'ceasefire' if key == 'ceasefire' else 'kidnapping'}"
                                        f" is once a game, and it was {'declared' if key == 'ceasefire' else 'done'} "
                                        f"({'15.1' if key == 'ceasefire' else '6.3'})"))
            else:
                out[key] = True
        elif key == "reinforce":
            out[key] = _choices(data, state, value, (*at, key), problems)
        else:
            out[key] = _leaders(state, value, (*at, key), problems)
    return out


def _choices(data: GameData, state: State, value: Any, at: Path_, problems: list[Problem]) -> list[Any]:
    """13.1: the Russian's picks in order: a pool unit's id, or {flip: UNIT} for a reduced
    unit of his on the map."""
    if not isinstance(value, list):
        problems.append(Problem(at, "reinforce: a list of pool units and {flip: UNIT} items, in order"))
        return []
    out: list[Any] = []
    for k, choice in enumerate(value):
        if isinstance(choice, dict) and set(choice) == {"flip"}:
            unit = choice["flip"]
            if not state["russians"].get(unit, {}).get("reduced"):
                problems.append(Problem((*at, k, "flip"), f"{unit!r} is not a reduced unit of yours "
                                        "on the map (13.1)"))
            else:
                out.append({"flip": str(unit)})
        elif isinstance(choice, str) and choice in state["pool"]:
            earliest = int(units(data)[choice].get("earliest_turn", 1))
            if earliest > state["turn"] + 1:
                problems.append(Problem((*at, k), f"{choice} arrives from turn {earliest}"))
            else:
                out.append(choice)
        else:
            problems.append(Problem((*at, k), f"{choice!r} is not in your reinforcement pool"
                                    f"{suggest(str(choice), state['pool'])} (13.1)"))
    return out


def _leaders(state: State, value: Any, at: Path_, problems: list[Problem]) -> list[str]:
    if not isinstance(value, list) or not all(isinstance(x, str) and x in state["leaders"] for x in value):
        problems.append(Problem(at, "strike: a list of Chechen leaders' ids "
                                f"({', '.join(sorted(state['leaders']))})"))
        return []
    return list(value)


# --- the phase --------------------------------------------------------------------------------

def resolve(data: GameData, state: State, orders: dict[str, dict[str, Any]], rng: Rng,
            secrets: Secrets | None) -> list[Event]:
    """The four segments in order, then the end of the game or the next turn."""
    end = folding(data, state)
    label = f"t{state['turn']}"
    if not ceasefire_turn(end.state):  # 12.0, 15.2
        end.take(_random_event(data, end.state, orders[RUSSIAN], rng, secrets, label))
    end.take(_morale(data, end.state, orders[CHECHEN], rng, label))
    if end.state.get("over"):
        return end.events
    if orders[RUSSIAN].get("ceasefire"):  # 15.1
        end.emit({"type": "ceasefire_declared", "turn": end.state["turn"] + 1})
    end.take(_russian_reinforcements(data, end.state, orders[RUSSIAN].get("reinforce") or [], rng, label))
    end.take(_chechen_reinforcements(data, end.state, rng, secrets, label))
    end.emit({"type": "turn_end"})  # 13.1: collateral damage to 0
    if end.state["turn"] >= int(data["game"]["turns"]):
        end.emit(_end_of_game(data, end.state))
    else:
        end.emit({"type": "turn_start", "turn": end.state["turn"] + 1})
    return end.events


def _random_event(data: GameData, state: State, mine: dict[str, Any], rng: Rng,
                  secrets: Secrets | None, label: str) -> list[Event]:
    roll = rng.roll(f"{label}:random-event")
    got = read(data["tables"]["random_events"]["table"], roll)
    spec = got.result
    out: list[Event] = [{"type": "random_event", "roll": roll, "event": spec["event"], "text": spec["text"]}]
    if spec.get("leaders_eliminated"):
        on_map = sorted(x for x, where in state["leaders"].items()
                        if where not in ("underground", "next_turn", "eliminated"))
        chosen = [x for x in mine.get("strike") or [] if x in on_map] + on_map
        for leader in list(dict.fromkeys(chosen))[:int(spec["leaders_eliminated"])]:
            out.append({"type": "leader_struck", "leader": leader})
    if spec.get("morale"):
        out.append(_morale_change(data, state["morale"], int(spec["morale"]), "random event (12.0)"))
    if spec.get("chechen_draws"):
        out += draw(data, state, secrets, int(spec["chechen_draws"]), f"{label}:infiltration",
                    "infiltration (12.0)")
    return out


def _morale_change(data: GameData, level: int, change: int, why: str) -> Event:
    bounds = data["tables"]["morale"]
    new = min(max(level + change, int(bounds["min"])), int(bounds["max"]))  # 6.1
    return {"type": "morale", "change": change, "why": why, "level": new}


def modifiers(data: GameData, state: State) -> list[Modifier]:
    """6.2's die-roll modifiers."""
    spec = data["tables"]["morale"]["modifiers"]
    out = []
    casualties = read(spec["casualties"], int(state["casualties"])).result
    if casualties:
        out.append(Modifier(int(casualties), f"casualties {state['casualties']} (6.2)"))
    lost = int(state.get("leaders_lost", 0))
    if lost:
        out.append(Modifier(lost * int(spec["per_leader_eliminated"]),
                            f"{lost} Chechen leader{'s' if lost != 1 else ''} eliminated this turn (6.2)"))
    if russians_hold_groznyi(data, state):
        out.append(Modifier(int(spec["groznyi_russian_occupied"]), "Groznyi occupied by Russian units (6.2)"))
    return out


def _morale(data: GameData, state: State, theirs: dict[str, Any], rng: Rng, label: str) -> list[Event]:
    """The Russian Morale Segment (6.2-6.4) and the Chechen's sudden death (3.1)."""
    table = data["tables"]["morale"]
    morale = folding(data, state)
    emit = morale.emit

    if ceasefire_turn(state):  # 6.2 Exception, 15.2
        emit(_morale_change(data, morale.state["morale"], int(data["tables"]["ceasefire"]["russian_morale"]),
                            "the ceasefire turn (15.2)"))
    else:
        roll = rng.roll(f"{label}:morale")
        got = read(table["table"], roll, modifiers(data, morale.state))
        change = _morale_change(data, morale.state["morale"], int(got.result), "the morale roll (6.2)")
        emit({**change, "type": "morale_roll", "roll": roll,
              "modifiers": [[m.amount, m.reason] for m in got.modifiers], "total": got.total})
    b = board(data)
    raids = sorted({t["hex"] for t in morale.state["tokens"].values()
                    if b.region[t["hex"]] in table["raid_regions"] and b.terrain[t["hex"]] == "town"})
    if raids:  # 6.3: once a turn however many towns
        emit({**_morale_change(data, morale.state["morale"], int(table["raid"]), "Chechen raids (6.3)"),
              "hexes": raids})
    if theirs.get("kidnap") and not morale.state.get("kidnapped"):  # 6.3, after all other adjustments
        mine_roll, their_roll = rng.roll(f"{label}:kidnap:russian"), rng.roll(f"{label}:kidnap:chechen")
        levels = halve_up(abs(mine_roll - their_roll))
        shift = levels if mine_roll > their_roll else -levels
        emit({**_morale_change(data, morale.state["morale"], shift, "the kidnapping (6.3)"),
              "type": "kidnapping", "russian_roll": mine_roll, "chechen_roll": their_roll})
    if int(morale.state["morale"]) == 0 and not russians_hold_groznyi(data, morale.state):  # 3.1
        emit({"type": "over", "result": {"winners": [CHECHEN], "reason": "Russian morale at zero with "
                                         "Groznyi not occupied by Russian units (3.1)"}})
        return morale.events
    emit({"type": "casualties_reset"})  # 6.4
    return morale.events


def reinforcement_modifiers(data: GameData, state: State, side: str) -> list[Modifier]:
    """13.1's modifiers, tables.yaml `reinforcements` (RECONSTRUCTED)."""
    out = []
    if side == RUSSIAN:
        morale = int(state["morale"])
        for spec in data["tables"]["reinforcements"]["russian"]["modifiers"]:
            applies = {"morale_high": morale >= 10, "morale_low": morale <= 3,
                       "moscow_sends_troops": state.get("event") == "moscow_sends_troops"}[spec["id"]]
            if applies:
                out.append(Modifier(int(spec["drm"]), spec["when"]))
        return out
    for spec in data["tables"]["reinforcements"]["chechen"]["modifiers"]:
        if spec["id"] == "ceasefire" and ceasefire_turn(state):
            out.append(Modifier(int(spec["drm"]), spec["when"] + " (15.2)"))
        elif spec["id"] == "collateral_damage":
            amount = int(read(spec["bands"], int(state["collateral"])).result)
            if amount:
                out.append(Modifier(amount, f"collateral damage {state['collateral']} (13.1)"))
        elif spec["id"] == "leaders_eliminated" and state.get("leaders_lost"):
            lost = int(state["leaders_lost"])
            out.append(Modifier(lost * int(spec["drm"]), f"{lost} leader{'s' if lost != 1 else ''} "
                                "eliminated this turn (13.1)"))
    return out


def _russian_reinforcements(data: GameData, state: State, prefs: list[Any], rng: Rng,
                            label: str) -> list[Event]:
    roll = rng.roll(f"{label}:reinforcements:russian")
    got = read(data["tables"]["reinforcements"]["russian"]["table"], roll,
               reinforcement_modifiers(data, state, RUSSIAN))
    n = int(got.result)
    picks, flips = picked(data, state, prefs, n)
    return [{"type": "reinforcement_roll", "side": RUSSIAN, "roll": roll,
             "modifiers": [[m.amount, m.reason] for m in got.modifiers], "total": got.total,
             "count": n},
            *([{"type": "recruited", "units": picks, "flipped": flips}] if picks or flips else [])]


def picked(data: GameData, state: State, prefs: list[Any], n: int) -> tuple[list[str], list[str]]:
    """13.1: the Russian's `n` picks, his order first; then (a ruling) the strongest pool
    units that may arrive next turn, then the strongest reduced units flipped back."""
    turn = int(state["turn"]) + 1
    pool = [u for u in state["pool"] if int(units(data)[u].get("earliest_turn", 1)) <= turn]
    reduced = [u for u, v in state["russians"].items() if v.get("reduced")]
    strength = {u: int(units(data)[u]["cf"]) for u in [*pool, *reduced]}
    default = [*sorted(pool, key=lambda u: (-strength[u], u)),
               *({"flip": u} for u in sorted(reduced, key=lambda u: (-strength[u], u)))]
    picks: list[str] = []
    flips: list[str] = []
    for choice in [*prefs, *default]:
        if len(picks) + len(flips) == n:
            break
        if isinstance(choice, dict):
            if choice["flip"] in reduced and choice["flip"] not in flips:
                flips.append(choice["flip"])
        elif choice in pool and choice not in picks:
            picks.append(choice)
    return picks, flips


def _chechen_reinforcements(data: GameData, state: State, rng: Rng, secrets: Secrets | None,
                            label: str) -> list[Event]:
    roll = rng.roll(f"{label}:reinforcements:chechen")
    got = read(data["tables"]["reinforcements"]["chechen"]["table"], roll,
               reinforcement_modifiers(data, state, CHECHEN))
    n = int(got.result)
    return [{"type": "reinforcement_roll", "side": CHECHEN, "roll": roll,
             "modifiers": [[m.amount, m.reason] for m in got.modifiers], "total": got.total,
             "count": n},
            *draw(data, state, secrets, n, f"{label}:reinforcements", "reinforcements (13.1)")]


def in_cup(data: GameData, state: State) -> int:
    """How many Chechen units are in the cup: those neither on the map nor in his
    recruitment box (public, though which ones is hidden)."""
    everyone = [u for u, v in units(data).items() if v["side"] == CHECHEN]
    return len(everyone) - len(state["tokens"]) - len(state["recruits"][CHECHEN])


def draw(data: GameData, state: State, secrets: Secrets | None, n: int, label: str,
         why: str) -> list[Event]:
    """Up to `n` units drawn at random from the cup (13.1: the units not on the map), each
    sealed to the Chechen: which units the cup holds is computed from the sealed ones on the
    map, never published."""
    n = min(n, in_cup(data, state))
    if n <= 0:
        return []
    if secrets is None:
        raise ValueError("drawing from the Chechen's cup needs the referee's secrets")
    everyone = sorted(u for u, v in units(data).items() if v["side"] == CHECHEN)
    placed = [t["unit"] for t in state["tokens"].values()] + list(state["recruits"][CHECHEN])
    cup = secrets.compute(lambda *ids: sorted(set(everyone) - set(ids)), *placed)
    order = secrets.shuffle(label, cup, owner=CHECHEN)  # the Chechen's own key: he checks it at once
    turn = int(state["turn"])
    nodes = [secrets.seal("unit", f"{label}:{k + 1}", CHECHEN, turn,
                          secrets.compute(lambda o, k=k: o[k], order)) for k in range(n)]
    return [{"type": "drawn", "units": nodes, "why": why}]


def _end_of_game(data: GameData, state: State) -> Event:
    """3.2: after the last turn."""
    b = board(data)
    held = {v["hex"] for v in state["russians"].values()}
    morale = int(state["morale"])
    if morale >= 1 and all(c in held for c in b.cities):
        return {"type": "over", "result": {"winners": [RUSSIAN], "reason": "the five Chechen cities "
                                           "occupied by Russian units and morale 1 or more (3.2)"}}
    if morale == 0:
        return {"type": "over", "result": {"winners": [CHECHEN], "reason": "Russian morale at zero (3.2)"}}
    return {"type": "over", "result": {"winners": [], "reason": "neither side's victory conditions "
                                       "are met: a draw (3.2)"}}


# --- the position -----------------------------------------------------------------------------

def _event_rolled(data: GameData, state: State, event: Event) -> None:
    state["event"] = event["event"]


def _leader_struck(data: GameData, state: State, event: Event) -> None:
    state["leaders"][event["leader"]] = "eliminated"
    state["leaders_lost"] = int(state.get("leaders_lost", 0)) + 1


def _morale_set(data: GameData, state: State, event: Event) -> None:
    state["morale"] = int(event["level"])


def _kidnapping(data: GameData, state: State, event: Event) -> None:
    state["morale"] = int(event["level"])
    state["kidnapped"] = True


def _drawn(data: GameData, state: State, event: Event) -> None:
    state["recruits"][CHECHEN] = [*state["recruits"][CHECHEN], *event["units"]]
    state["cup"] = int(state["cup"]) - len(event["units"])


def _casualties_reset(data: GameData, state: State, event: Event) -> None:
    state["casualties"] = 0


def _ceasefire_declared(data: GameData, state: State, event: Event) -> None:
    state["ceasefire"] = {"declared": True, "turn": int(event["turn"])}


def _recruited(data: GameData, state: State, event: Event) -> None:
    state["pool"] = [u for u in state["pool"] if u not in event["units"]]
    state["recruits"][RUSSIAN] = [*state["recruits"][RUSSIAN], *event["units"]]
    for unit in event["flipped"]:
        state["russians"][unit]["reduced"] = False


def _turn_end(data: GameData, state: State, event: Event) -> None:
    state["collateral"] = 0
    state["leaders_lost"] = 0
    state["event"] = None


def _turn_start(data: GameData, state: State, event: Event) -> None:
    """10.9: the used markers back; 11.4: the leaders waiting."""
    for side in (RUSSIAN, CHECHEN):
        have, used = state["supports"][side], state["used_supports"][side]
        for marker, n in used.items():
            have[marker] = int(have.get(marker, 0)) + int(n)
        state["used_supports"][side] = {}
    for leader, where in state["leaders"].items():
        if where == "next_turn":
            state["leaders"][leader] = "underground"
    state["flown"] = 0
    state["gunships"] = []


def _over(data: GameData, state: State, event: Event) -> None:
    state["over"], state["result"] = True, dict(event["result"])
    state["phase"] = "over"


APPLY: dict[str, Apply[GameData]] = {
    "random_event": _event_rolled,
    "leader_struck": _leader_struck,
    "morale": _morale_set,
    "morale_roll": _morale_set,
    "kidnapping": _kidnapping,
    "drawn": _drawn,
    "casualties_reset": _casualties_reset,
    "ceasefire_declared": _ceasefire_declared,
    "reinforcement_roll": recorded,  # the record of the die; what it brings follows
    "recruited": _recruited,
    "turn_end": _turn_end,
    "turn_start": _turn_start,
    "over": _over,
}


def _told_leader_struck(data: GameData, event: Event) -> str:
    return f"{data['units']['leaders'][event['leader']]['name']} is eliminated (12.0)"


def _told_morale(data: GameData, event: Event) -> str:
    return f"Russian morale {event['change']:+d} for {event['why']}: now {event['level']}"


def _told_morale_roll(data: GameData, event: Event) -> str:
    mods = "".join(f" {a:+d} ({why})" for a, why in event["modifiers"])
    return (f"the Russian morale die {event['roll']}{mods} = {event['total']}: "
            f"{event['change']:+d}, morale now {event['level']} (6.2)")


def _told_kidnapping(data: GameData, event: Event) -> str:
    return (f"the Chechen kidnaps civilians: the Russian rolls {event['russian_roll']}, the "
            f"Chechen {event['chechen_roll']}: morale {event['change']:+d}, now {event['level']} (6.3)")


def _told_drawn(data: GameData, event: Event) -> str:
    n = len(event["units"])
    return f"the Chechen draws {n} unit{'s' if n != 1 else ''} from the cup for {event['why']}, face down"


def _told_reinforcement_roll(data: GameData, event: Event) -> str:
    mods = "".join(f" {a:+d} ({why})" for a, why in event["modifiers"])
    side = "Russian" if event["side"] == RUSSIAN else "Chechen"
    return (f"the {side} reinforcement die {event['roll']}{mods} = {event['total']}: "
            f"{event['count']} unit{'s' if event['count'] != 1 else ''} (13.1)")


def _told_recruited(data: GameData, event: Event) -> str:
    spec = units(data)
    told = [spec[u]["name"] for u in event["units"]] + \
        [f"{spec[u]['name']} back to full strength" for u in event["flipped"]]
    return "the Russian's reinforcements: " + ", ".join(told) + " (13.1)"


def _told_over(data: GameData, event: Event) -> str:
    result = event["result"]
    return f"game over: {', '.join(result['winners']) or 'nobody'} won ({result['reason']})"


DESCRIBE: dict[str, Describe[GameData]] = {
    "random_event": Told("random event, die {roll}: {text}", "12.0"),
    "leader_struck": Ruled(_told_leader_struck, "12.0"),
    "morale": _told_morale,
    "morale_roll": Ruled(_told_morale_roll, "6.2"),
    "kidnapping": Ruled(_told_kidnapping, "6.3"),
    "drawn": _told_drawn,
    "casualties_reset": Told("the Russian casualties are set back to 0", "6.4"),
    "ceasefire_declared": Told("the Russian declares a ceasefire: turn {turn} is the ceasefire "
                               "turn", "15.1"),
    "reinforcement_roll": Ruled(_told_reinforcement_roll, "13.1"),
    "recruited": Ruled(_told_recruited, "13.1"),
    "turn_end": Told("collateral damage is set back to 0", "13.1"),
    "turn_start": Told("turn {turn} begins: the used support markers return, leaders waiting a "
                       "turn go underground"),
    "over": _told_over,
}


def bot(data: GameData, state: State, side: str, rng: Rng) -> dict[str, Any]:
    """Now and then the once-a-game choices: a ceasefire (the Russian), a kidnapping (the
    Chechen); the reinforcements by the default picks."""
    label = f"bot:end:t{state['turn']}:{side}"
    if side == RUSSIAN and not (state.get("ceasefire") or {}).get("declared") \
            and rng.choice(label, [False, False, False, False, True]):
        return {"orders": [{"ceasefire": True}]}
    if side == CHECHEN and not state.get("kidnapped") and rng.choice(label, [False, False, False, True]):
        return {"orders": [{"kidnap": True}]}
    return {"orders": []}

