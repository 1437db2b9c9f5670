"""The Russian Combat Segment (10.0): attacks declared with support markers whose types stay
secret, the Chechen's supports and leaders, the defenders revealed, the odds, the shifts, the
die and the results, with casualties, collateral damage and leaders lost (11.4).

The Russian's combat file declares every attack of the segment, in the order they are
fought (10.4), with the number of support markers each gets (10.9: told to the Chechen);
their types go in the file's secret part, sealed to him and the referee until the die is
rolled::

    orders:
      - attack: {target: "1324", units: [ru_131_mech_bde, ru_74_mech_bde], supports: 2,
                 advance: [ru_131_mech_bde]}
    secret:
      supports: {"1324": [artillery, airstrike]}

Then the Chechen, who has seen the counts, answers with his own supports, for each attack
he backs (11.2, 10.9)::

    orders:
      - support: {target: "1324", markers: 1, leaders: [ch_dudayev]}

What is refereed, rule by rule:
- 10.1-10.5: an attack on a hex of Chechen units by Russian units next to it; each hex
  attacked once, each unit attacking once; every unit in the hex defends;
- 10.9: none, one or two Russian markers of the kinds available; armor only in defence,
  TOS-1 only against a town or city; none in the first attack on Groznyi (10.10);
  the Chechen's markers and leaders together two at most, no marker outside Chechnya, a
  leader from the underground or already in the defending hex;
- 10.6: the defenders revealed once the supports are committed, face up from then on (a
  ruling); the Russian's marker types opened at the die;
- 10.7, 10.8, 10.10: the units' combat factors (a reduced unit's, 2.8), the odds with
  fractions dropped (pbem/kit/odds.py), the defender's terrain (the first Russian attack on
  Groznyi: one shift, not two), the river when more than half the attacking factors attack
  across one (a bridge does not stop it), every marker's and leader's shifts, netted;
- 10.11: -, AE, Ax, Ex, DE (tables.yaml `crt`), the attacker's losses first; the
  Russian's steps lost as his standing `step_losses` orders, else the ambush ruling; the
  Chechen's units (one step each, 2.8) the weakest first (a ruling); eliminated Russian
  units to the reinforcement pool, Chechen units to the cup;
- 10.12: the attack's `advance` units that survive move into an emptied hex, within
  stacking;
- 10.13: a Russian casualty a step lost; a collateral damage point a Russian marker used
  where either side is in a town or city, two for TOS-1 when its own die is a 1 (10.9);
- 10.9: each Chechen marker used is lost for good on a 6, else used; Russian markers
  used; 11.4: leaders in a hex whose units are all eliminated die on a 5-6, else wait a
  turn.
"""

from __future__ import annotations

from collections import Counter
from typing import Any

from pbem.game import Event, GameData, Problem, Rng, Secrets, State
from pbem.kit import odds
from pbem.names import suggest

from .ambush import cf, chechen_hexes, step_losses, steps_left
from .board import CHECHEN, RUSSIAN, Board, board, bodies, hex_in, stacking, units

Path_ = tuple[str | int, ...]
URBAN = ("town", "city")


def groznyi(b: Board) -> str:
    """The Groznyi city hex (10.10), by its name on the map."""
    return next(h for h, name in b.names.items() if name == "Groznyi")


def marker_kinds(data: GameData, side: str) -> dict[str, dict[str, Any]]:
    """A side's support markers by kind (units.yaml `support_markers`)."""
    return {m["kind"]: m for m in data["units"]["support_markers"].values() if m["side"] == side}


def _first_on_groznyi(b: Board, state: State, target: str) -> bool:
    return target == groznyi(b) and not state.get("groznyi_attacked")


# --- the Russian's declarations --------------------------------------------------------------

def read_attacks(data: GameData, state: State, orders: dict[str, Any],
                 problems: list[Problem]) -> list[dict[str, Any]]:
    """The Russian's attacks, checked in order (10.1-10.5, 10.9's count), and their secret
    part when the reader holds it in plain (the player's check, the referee's apply)."""
    b = board(data)
    theirs = chechen_hexes(state)
    used: set[str] = set()
    targets: set[str] = set()
    available = sum(int(n) for kind, n in state["supports"][RUSSIAN].items()
                    if "attack" in marker_kinds(data, RUSSIAN)[kind]["use"])
    committed = 0
    named: set[str] = set()  # every target named, legal or not: the secret part is read against them
    out: list[dict[str, Any]] = []
    for _i, at, body in bodies(orders, "attack", {"target", "units"}, {"supports", "advance"},
                               '{attack: {target: "CCRR", units: [...]}}, with supports: N and '
                               "advance: [...] if you wish", problems):
        found = len(problems)
        target = hex_in(b, body["target"], (*at, "target"), problems)
        if target is None:
            continue
        named.add(target)
        if target not in theirs:
            problems.append(Problem((*at, "target"), f"{b.label(target)} holds no Chechen unit"))
            continue
        if target in targets:
            problems.append(Problem((*at, "target"), f"{b.label(target)} is attacked once a "
                                    "segment (10.2)"))
            continue
        attackers = _attackers(b, state, body["units"], target, used, (*at, "units"), problems)
        supports = body.get("supports", 0)
        if isinstance(supports, bool) or not isinstance(supports, int) or not 0 <= supports <= 2:
            problems.append(Problem((*at, "supports"), "supports: 0, 1 or 2 markers (10.9)"))
            supports = 0
        elif supports and _first_on_groznyi(b, state, target):
            problems.append(Problem((*at, "supports"), "no support markers in the first attack "
                                    "on Groznyi (10.9, 10.10)"))
        elif committed + supports > available:
            problems.append(Problem((*at, "supports"), f"{available} of your markers may be "
                                    f"used in an attack; this file commits {committed + supports} (10.9)"))
        advance = body.get("advance", [])
        if not isinstance(advance, list) or not set(map(str, advance)) <= set(attackers):
            problems.append(Problem((*at, "advance"), "advance: a list of this attack's units "
                                    "(10.12)"))
        if len(problems) == found:
            used.update(attackers)
            targets.add(target)
            committed += supports
            out.append({"target": target, "units": attackers, "supports": supports,
                        "advance": [str(u) for u in advance]})
    secret = orders.get("secret")
    if isinstance(secret, dict) and "sealed" not in secret:
        read_types(data, state, out, named, secret, problems)
    elif secret is None and any(a["supports"] for a in out):
        problems.append(Problem(("secret",), "name your markers' types in the secret part: "
                                'supports: {"CCRR": [KIND, ...]} for each attack with supports (10.9)'))
    return out


def _attackers(b: Board, state: State, value: Any, target: str, used: set[str], at: Path_,
               problems: list[Problem]) -> list[str]:
    if not isinstance(value, list) or not value:
        problems.append(Problem(at, "units: a list of your units' ids"))
        return []
    out: list[str] = []
    for k, unit in enumerate(value):
        if unit not in state["russians"]:
            problems.append(Problem((*at, k), f"{unit!r} is not a Russian unit on the map"
                                    f"{suggest(str(unit), sorted(state['russians']))}"))
        elif unit in used or unit in out:
            problems.append(Problem((*at, k), f"{unit} attacks once a segment (10.3, 10.4)"))
        elif not b.grid.adjacent(state["russians"][unit]["hex"], target):
            problems.append(Problem((*at, k), f"{unit} in {b.label(state['russians'][unit]['hex'])} "
                                    f"is not next to {b.label(target)} (10.1)"))
        else:
            out.append(str(unit))
    return out


def read_types(data: GameData, state: State, attacks: list[dict[str, Any]], named: set[str],
               secret: dict[str, Any], problems: list[Problem]) -> None:
    """The secret part: each attack's marker types, as many as it declares, of kinds the
    Russian has available and that may be used there (10.9)."""
    b = board(data)
    kinds = marker_kinds(data, RUSSIAN)
    given = secret.get("supports") or {}
    if not isinstance(given, dict) or not set(secret) <= {"supports"}:
        problems.append(Problem(("secret",), 'the secret part is supports: {"CCRR": [KIND, ...]}'))
        return
    declared = {a["target"]: a for a in attacks}
    wanted: Counter[str] = Counter()
    for key, value in given.items():
        at: Path_ = ("secret", "supports", key)
        target = hex_in(b, key, at, problems)
        if target is None:
            continue
        attack = declared.get(target)
        if attack is None:
            if target not in named:  # else its attack's own problem is told
                problems.append(Problem(at, f"no attack on {b.label(target)} is declared"))
            continue
        if not isinstance(value, list) or len(value) != attack["supports"]:
            problems.append(Problem(at, f"the attack on {b.label(target)} declares "
                                    f"{attack['supports']} markers: name as many kinds"))
            continue
        for k, kind in enumerate(value):
            spec = kinds.get(kind)
            if spec is None:
                problems.append(Problem((*at, k), f"{kind!r} is not a Russian marker"
                                        f"{suggest(str(kind), sorted(kinds))}"))
            elif "attack" not in spec["use"]:
                problems.append(Problem((*at, k), f"{kind} is used only by defending Russian "
                                        "units (10.9)"))
            elif "defender_terrain" in spec and b.terrain[target] not in spec["defender_terrain"]:
                problems.append(Problem((*at, k), f"{kind} is used only against "
                                        f"{' or '.join(spec['defender_terrain'])} hexes (10.9)"))
            else:
                wanted[kind] += 1
    for target, attack in declared.items():
        if attack["supports"] and target not in {str(k) for k in given}:
            problems.append(Problem(("secret", "supports"), f"the attack on {b.label(target)} "
                                    f"declares {attack['supports']} markers: name their kinds"))
    for kind, n in sorted(wanted.items()):
        have = int(state["supports"][RUSSIAN].get(kind, 0))
        if n > have:
            problems.append(Problem(("secret", "supports"), f"{n} {kind} markers named, "
                                    f"{have} available (10.9)"))


def declare(data: GameData, state: State, attacks: list[dict[str, Any]], secret: Any,
            secrets: Secrets | None) -> list[Event]:
    """The attacks on record, each with its marker types sealed to the Russian (10.9: the
    count is told, the types are not)."""
    out = []
    for attack in attacks:
        types = None
        if attack["supports"]:
            if secrets is None:
                raise ValueError("secret support markers need the referee's secrets")
            target = attack["target"]
            value = secrets.compute(lambda s, t=target: list((s.get("supports") or {}).get(t) or []),
                                    secret)
            types = secrets.seal("supports", f"t{state['turn']}:{target}", RUSSIAN,
                                 int(state["turn"]), value)
        out.append({**attack, "types": types})
    return [{"type": "attacks_declared", "attacks": out}] if out else []


# --- the Chechen's answer ---------------------------------------------------------------------

def read_defence(data: GameData, state: State, orders: dict[str, Any],
                 problems: list[Problem]) -> dict[str, dict[str, Any]]:
    """The Chechen's supports for the declared attacks (10.9, 11.2): markers and leaders,
    two at most together, no marker outside Chechnya, a leader from the underground or in
    the defending hex, each leader and marker once."""
    b = board(data)
    declared = {a["target"]: a for a in state.get("attacks") or []}
    markers = int(state["supports"][CHECHEN].get("artillery", 0))
    per_combat = int(data["tables"]["support"]["chechen_per_combat"])
    spent = 0
    leaders_used: set[str] = set()
    out: dict[str, dict[str, Any]] = {}
    for _i, at, body in bodies(orders, "support", {"target"}, {"markers", "leaders"},
                               '{support: {target: "CCRR", markers: N, leaders: [...]}}', problems):
        found = len(problems)
        target = hex_in(b, body["target"], (*at, "target"), problems)
        if target is None:
            continue
        if target not in declared:
            problems.append(Problem((*at, "target"), f"no Russian attack on {b.label(target)} is "
                                    "declared" + (f" (attacked: {', '.join(sorted(declared))})"
                                                  if declared else "")))
            continue
        if target in out:
            problems.append(Problem((*at, "target"), f"the attack on {b.label(target)} is "
                                    "supported once"))
            continue
        n = body.get("markers", 0)
        leaders = body.get("leaders", [])
        if isinstance(n, bool) or not isinstance(n, int) or not 0 <= n <= per_combat:
            problems.append(Problem((*at, "markers"), f"markers: 0 to {per_combat} (10.9)"))
            n = 0
        elif n and b.region[target] != "chechnya":
            problems.append(Problem((*at, "markers"), f"{b.label(target)} is outside Chechnya: "
                                    "no Chechen support markers there, leaders only (10.9)"))
        elif spent + n > markers:
            problems.append(Problem((*at, "markers"), f"{markers} support marker"
                                    f"{'s' if markers != 1 else ''} available (10.9)"))
        if not isinstance(leaders, list):
            problems.append(Problem((*at, "leaders"), "leaders: a list of leaders' ids"))
            leaders = []
        for k, leader in enumerate(leaders):
            where = state["leaders"].get(leader)
            if where is None:
                problems.append(Problem((*at, "leaders", k), f"{leader!r} is not a leader"
                                        f"{suggest(str(leader), sorted(state['leaders']))}"))
            elif leader in leaders_used:
                problems.append(Problem((*at, "leaders", k), f"{leader} backs one combat a segment"))
            elif where not in ("underground", target):
                problems.append(Problem((*at, "leaders", k), f"{leader} is neither in the "
                                        "underground box nor in the defending hex (11.2)"))
        if len(problems) == found and n + len(leaders) > per_combat:
            problems.append(Problem(at, f"markers and leaders together: {per_combat} at most (10.9)"))
        if len(problems) == found:
            spent += n
            leaders_used.update(map(str, leaders))
            out[target] = {"markers": n, "leaders": [str(x) for x in leaders]}
    return out


# --- the fights -------------------------------------------------------------------------------

def fight_all(data: GameData, state: State, defence: dict[str, dict[str, Any]], rng: Rng,
              secrets: Secrets | None) -> list[Event]:
    """Every declared attack in order, each finished before the next (10.4)."""
    from . import GAME  # the game's own apply folds each event as it comes

    events: list[Event] = []
    work = state
    for k, attack in enumerate(state.get("attacks") or [], start=1):
        step = _fight(data, work, k, attack, defence.get(attack["target"]) or
                      {"markers": 0, "leaders": []}, rng, secrets)
        for e in step:
            work = GAME.apply(data, work, e)
        events += step
    return [*events, {"type": "attacks_over"}]


def _fight(data: GameData, state: State, k: int, attack: dict[str, Any], backing: dict[str, Any],
           rng: Rng, secrets: Secrets | None) -> list[Event]:
    from . import GAME

    b = board(data)
    target = attack["target"]
    label = f"t{state['turn']}:combat{k}:{target}"
    steps: list[Event] = []
    work = state

    def emit(*new: Event) -> None:
        nonlocal work
        for e in new:
            work = GAME.apply(data, work, e)
            steps.append(e)

    for leader in backing["leaders"]:
        if state["leaders"][leader] != target:
            emit({"type": "leader_placed", "leader": leader, "hex": target})
    types: list[str] = []
    if attack.get("types") is not None:
        if secrets is None:
            raise ValueError("the Russian's support markers are sealed: opening them needs the secrets")
        types = [str(t) for t in secrets.open(attack["types"])]
    defenders = sorted(t for t, v in state["tokens"].items() if v["hex"] == target)
    hidden = {t: state["tokens"][t]["unit"] for t in defenders
              if not isinstance(state["tokens"][t]["unit"], str)}
    if hidden:  # 10.6: revealed once the supports are committed
        if secrets is None:
            raise ValueError("the defenders are face down: revealing them needs the secrets")
        emit({"type": "revealed", "tokens": {t: str(secrets.open(node)) for t, node in hidden.items()}})
    shown = {t: str(work["tokens"][t]["unit"]) for t in defenders}
    attack_cf = sum(cf(data, work, u) for u in attack["units"])
    defence_cf = sum(int(units(data)[u]["cf"]) for u in shown.values())
    shifts = _shifts(data, b, work, attack, types, backing)
    crt = data["tables"]["crt"]
    found = odds.resolve(attack_cf, defence_cf, crt["columns"], shifts)
    roll = rng.roll(label)
    result = str(odds.lookup(crt["results"], found.column, roll))
    tos = rng.roll(f"{label}:tos1") if "tos1" in types else None
    emit({"type": "combat", "target": target, "attackers": attack["units"], "defenders": shown,
          "russian_markers": types, "chechen_markers": backing["markers"],
          "leaders": backing["leaders"], "attack": attack_cf, "defence": defence_cf,
          "odds": found.base, "shifts": [[s.direction, s.count, s.reason] for s in shifts],
          "column": found.column, "roll": roll, "tos1_roll": tos, "result": result,
          "groznyi": target == groznyi(b)})
    urban = b.terrain[target] in URBAN or any(b.terrain[work["russians"][u]["hex"]] in URBAN
                                             for u in attack["units"])
    emit(*_losses(data, work, attack, shown, result))
    emit(*_afterwards(data, b, work, attack, types, tos, urban, backing, label, rng))
    return steps


def _shifts(data: GameData, b: Board, state: State, attack: dict[str, Any], types: list[str],
            backing: dict[str, Any]) -> list[odds.Shift]:
    """Every column shift of a Russian attack, with its reason (10.8-10.10, the TEC)."""
    tables = data["tables"]
    target = attack["target"]
    out: list[odds.Shift] = []
    terrain = b.terrain[target]
    if _first_on_groznyi(b, state, target):
        n = int(tables["combat_shifts"]["groznyi_first_russian_attack"]["defender_shifts"])
        why = "Groznyi, the first Russian attack on it (10.10)"
    else:
        n = int(tables["terrain"][terrain]["defender_shifts"])
        why = f"{terrain} (TEC)"
    if n:
        out.append(odds.Shift("left", n, why))
    river = tables["hexsides"]["river"]
    across = sum(cf(data, state, u) for u in attack["units"]
                 if _across_river(data, b, state["russians"][u]["hex"], target))
    total = sum(cf(data, state, u) for u in attack["units"])
    if int(river["defender_shifts"]) and 2 * across > total:
        out.append(odds.Shift("left", int(river["defender_shifts"]),
                              f"more than half the attack across a river (10.10, TEC): {across} of {total}"))
    kinds = marker_kinds(data, RUSSIAN)
    for kind in types:
        out.append(odds.Shift("right", int(kinds[kind]["shifts"]), f"Russian {kind} marker (10.9)"))
    chechen = marker_kinds(data, CHECHEN)["artillery"]
    for _ in range(int(backing["markers"])):
        out.append(odds.Shift("left", int(chechen["shifts"]), "Chechen artillery marker (10.9)"))
    for leader in backing["leaders"]:
        spec = data["units"]["leaders"][leader]
        out.append(odds.Shift("left", int(spec["combat_shifts"]), f"{spec['name']} (10.9, 11.2)"))
    return out


def _across_river(data: GameData, b: Board, here: str, there: str) -> bool:
    side = b.grid.hexside(here, there)
    if side not in b.rivers:
        return False
    return not (side in b.bridges and data["tables"]["hexsides"]["bridge"]["negates_river_shifts"])


def _losses(data: GameData, state: State, attack: dict[str, Any], shown: dict[str, str],
            result: str) -> list[Event]:
    """10.11's result as losses, the attacker's first (10.7)."""
    effect = data["tables"]["crt"]["effects"][result]
    attackers = list(attack["units"])
    their_steps = len(shown)  # 2.8: every Chechen unit has one step
    my_steps = sum(steps_left(data, state, u) for u in attackers)
    lose_mine = 0
    lose_theirs = 0
    if effect["attacker"] == "all":
        lose_mine = my_steps
    elif effect["attacker"] == "defender_steps":
        lose_mine = their_steps
    if effect["defender"] == "all":
        lose_theirs = their_steps
    if effect["attacker"] == "exchange":
        mine_cf = sum(cf(data, state, u) for u in attackers)
        their_cf = sum(int(units(data)[u]["cf"]) for u in shown.values())
        if my_steps == their_steps:  # 10.11 note: both eliminated
            lose_mine, lose_theirs = my_steps, their_steps
        elif mine_cf < their_cf or (mine_cf == their_cf
                                    and data["tables"]["crt"]["exchange"]["tie"] == "attacker"):
            lose_mine, lose_theirs = my_steps, min(my_steps, their_steps)
        else:
            lose_mine, lose_theirs = min(their_steps, my_steps), their_steps
    out: list[Event] = []
    why = f"combat on {attack['target']}"
    if lose_mine:
        lost = step_losses(data, state, attackers, min(lose_mine, my_steps))
        reduced = [u for u, n in lost.items() if n == 1 and steps_left(data, state, u) == 2]
        out.append({"type": "steps_lost", "steps": sum(lost.values()), "reduced": reduced,
                    "eliminated": [u for u in lost if u not in reduced], "why": why})
    if lose_theirs:
        weakest = sorted(shown, key=lambda t: (int(units(data)[shown[t]]["cf"]), t))
        gone = weakest[:lose_theirs]
        out.append({"type": "chechens_eliminated", "tokens": gone,
                    "units": [shown[t] for t in gone], "why": why})
    return out


def _afterwards(data: GameData, b: Board, state: State, attack: dict[str, Any], types: list[str],
                tos: int | None, urban: bool, backing: dict[str, Any], label: str, rng: Rng
                ) -> list[Event]:
    """Advance (10.12), collateral damage (10.13: `urban`, either side in a town or city when
    the combat began), the markers (10.9) and leaders (11.4)."""
    target = attack["target"]
    out: list[Event] = []
    emptied = not any(v["hex"] == target for v in state["tokens"].values())
    if emptied:
        going = [u for u in attack["advance"] if u in state["russians"]]
        going = going[:stacking(data, b, target)]
        if going:
            out.append({"type": "advanced", "units": going, "to": target})
        lost = []
        for leader in sorted(x for x, where in state["leaders"].items() if where == target):
            die = rng.roll(f"{label}:leader:{leader}")
            dead = die in data["tables"]["leaders"]["eliminated_on"]
            lost.append({"type": "leader_roll", "leader": leader, "roll": die, "eliminated": dead})
        out += lost
    if types:
        points = 0
        if urban:
            tos_die = marker_kinds(data, RUSSIAN)["tos1"]["collateral_die"]
            for kind in types:
                points += (int(tos_die["points"]) if kind == "tos1" and tos in tos_die["rolls"]
                           else int(data["tables"]["collateral_damage"]["per_russian_marker"]))
        out.append({"type": "russian_markers_used", "kinds": types, "collateral": points})
    lost_on = marker_kinds(data, CHECHEN)["artillery"]["lost_on"]
    for j in range(int(backing["markers"])):
        die = rng.roll(f"{label}:marker{j + 1}")
        out.append({"type": "chechen_marker_roll", "roll": die, "lost": die in lost_on})
    return out


# --- the position -----------------------------------------------------------------------------

def apply(state: State, event: Event) -> bool:
    kind = event["type"]
    if kind == "attacks_declared":
        state["attacks"] = [dict(a) for a in event["attacks"]]
    elif kind == "revealed":
        for token, unit in event["tokens"].items():
            state["tokens"][token]["unit"] = unit
            state["tokens"][token]["revealed"] = True
    elif kind == "combat":
        if event["groznyi"]:  # 10.10: the next attacks on it are ordinary
            state["groznyi_attacked"] = True
        have = state["supports"][CHECHEN]
        have["artillery"] = int(have.get("artillery", 0)) - int(event["chechen_markers"])
    elif kind == "chechens_eliminated":  # 10.11: to the cup
        for token in event["tokens"]:
            del state["tokens"][token]
        state["cup"] = int(state["cup"]) + len(event["tokens"])
        state["cup_known"] = sorted([*state.get("cup_known", []), *event["units"]])
    elif kind == "advanced":
        for unit in event["units"]:
            state["russians"][unit]["hex"] = event["to"]
    elif kind == "leader_roll":
        state["leaders"][event["leader"]] = "eliminated" if event["eliminated"] else "next_turn"
        if event["eliminated"]:
            state["leaders_lost"] = int(state.get("leaders_lost", 0)) + 1
    elif kind == "russian_markers_used":
        have, used = state["supports"][RUSSIAN], state["used_supports"][RUSSIAN]
        for marker in event["kinds"]:
            have[marker] = int(have.get(marker, 0)) - 1
            used[marker] = int(used.get(marker, 0)) + 1
        state["collateral"] = int(state["collateral"]) + int(event["collateral"])
    elif kind == "chechen_marker_roll":
        if not event["lost"]:
            used = state["used_supports"][CHECHEN]
            used["artillery"] = int(used.get("artillery", 0)) + 1
    elif kind == "attacks_over":
        state["attacks"] = []
    else:
        return False
    return True


def describe(data: GameData, event: Event) -> str | None:
    b = board(data)
    spec = units(data)
    kind = event["type"]
    if kind == "attacks_declared":
        told = []
        for a in event["attacks"]:
            names = ", ".join(spec[u]["name"] for u in a["units"])
            markers = f", {a['supports']} support marker{'s' if a['supports'] != 1 else ''}" \
                if a["supports"] else ""
            told.append(f"{names} on {b.label(a['target'])}{markers}")
        return "the Russian attacks: " + "; ".join(told)
    if kind == "revealed":
        return "revealed (10.6): " + ", ".join(f"{t} is {spec[u]['name']}"
                                               for t, u in sorted(event["tokens"].items()))
    if kind == "combat":
        shifts = "".join(f"; {n} column{'s' if n != 1 else ''} {d} ({why})"
                         for d, n, why in event["shifts"])
        markers = f", Russian markers: {', '.join(event['russian_markers'])}" \
            if event["russian_markers"] else ""
        tos = f", TOS-1 die {event['tos1_roll']}" if event["tos1_roll"] is not None else ""
        return (f"combat on {b.label(event['target'])}: {event['attack']} against "
                f"{event['defence']}, {event['odds']}{shifts}: fought at {event['column']}"
                f"{markers}; die {event['roll']}{tos}: {event['result']}")
    if kind == "chechens_eliminated":
        return ", ".join(spec[u]["name"] for u in event["units"]) + \
            f" eliminated, to the cup ({event['why']})"
    if kind == "advanced":
        return (", ".join(spec[u]["name"] for u in event["units"])
                + f" advance into {b.label(event['to'])} (10.12)")
    if kind == "leader_roll":
        name = data["units"]["leaders"][event["leader"]]["name"]
        fate = "eliminated" if event["eliminated"] else "back in the underground next turn"
        return f"{name}'s units are all eliminated: die {event['roll']}, {fate} (11.4)"
    if kind == "russian_markers_used":
        extra = f"; collateral damage +{event['collateral']} (10.13)" if event["collateral"] else ""
        return f"the Russian's markers go to the used box: {', '.join(event['kinds'])}{extra}"
    if kind == "chechen_marker_roll":
        fate = "lost for good" if event["lost"] else "to the used box"
        return f"the Chechen artillery marker's die {event['roll']}: {fate} (10.9)"
    if kind == "attacks_over":
        return "the Russian Combat Segment ends"
    return None


def bot(data: GameData, state: State, rng: Rng) -> dict[str, Any]:
    """Each hex of Chechen units next to Russian units, attacked or not at random, by every
    free unit next to it when they outnumber its counters two to one in combat factors;
    an artillery marker now and then."""
    b = board(data)
    used: set[str] = set()
    chosen: list[dict[str, Any]] = []
    types: dict[str, list[str]] = {}
    artillery = int(state["supports"][RUSSIAN].get("artillery", 0))
    for target, tokens in sorted(chechen_hexes(state).items()):
        near = [u for u, v in sorted(state["russians"].items())
                if u not in used and b.grid.adjacent(v["hex"], target)]
        if not near or sum(cf(data, state, u) for u in near) < 2 * len(tokens):
            continue
        if not rng.choice(f"bot:attack:t{state['turn']}:{target}", [True, False]):
            continue
        body: dict[str, Any] = {"target": target, "units": near, "advance": near}
        if artillery and not _first_on_groznyi(b, state, target) and \
                rng.choice(f"bot:support:t{state['turn']}:{target}", [True, False]):
            artillery -= 1
            body["supports"] = 1
            types[target] = ["artillery"]
        used.update(near)
        chosen.append({"attack": body})
    return {"orders": chosen, **({"secret": {"supports": types}} if types else {})}


def bot_defence(data: GameData, state: State, rng: Rng) -> dict[str, Any]:
    """An artillery marker to each attack on a hex of Chechnya while any are left."""
    b = board(data)
    left = int(state["supports"][CHECHEN].get("artillery", 0))
    out = []
    for attack in state.get("attacks") or []:
        if left and b.region[attack["target"]] == "chechnya":
            left -= 1
            out.append({"support": {"target": attack["target"], "markers": 1}})
    return {"orders": out}
