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
from typing import Any, Literal

from pbem.game import Event, GameData, Problem, Rng, Secrets, State
from pbem.kit import odds
from pbem.kit.events import Apply, Describe, Ruled, Told
from pbem.names import suggest

from .ambush import cf, chechen_hexes, may_strike, russian_hexes, step_losses, steps_left
from .board import CHECHEN, RUSSIAN, Board, board, bodies, folding, hex_in, stacking, units

Path_ = tuple[str | int, ...]
URBAN = ("town", "city")


def groznyi(b: Board) -> str:
    """The Groznyi city hex (10.10), by its name on the map."""
    return next(h for h, name in b.names.items() if name == "Groznyi")


def _markers(n: int) -> str:
    return f"{n} marker{'s' if n != 1 else ''}"


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
    available = sum(int(n) for kind, n in state["supports"][RUSSIAN].items()
                    if "attack" in marker_kinds(data, RUSSIAN)[kind]["use"])
    committed = 0
    named: set[str] = set()  # every target named, legal or not: the secret part is read against them
    out: list[dict[str, Any]] = []
    for _i, at, body in bodies(orders, "attack", {"target", "units"}, {"supports", "advance"},
                               '{attack: {target: "CCRR", units: [...]}}, with supports: N and '
                               "advance: [...] if you wish", problems):
        found = len(problems)
        target = _target(b, body, at, theirs, named, "Chechen", problems)
        if target is None:
            continue
        attackers = _pieces(b, state["russians"], body["units"], target, used, (*at, "units"), problems)
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


def read_types(data: GameData, state: State, attacks: list[dict[str, Any]], named: set[str],
               secret: dict[str, Any], problems: list[Problem], use: str = "attack") -> None:
    """The secret part: each combat's marker kinds, as many as its count, of kinds the
    Russian has available and that may be used there (10.9): `use` is "attack" for his
    attacks, "defence" for his answer to the Chechen's."""
    b = board(data)
    kinds = marker_kinds(data, RUSSIAN)
    given = secret.get("supports") or {}
    if not isinstance(given, dict) or not set(secret) <= {"supports", AHEAD}:
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
            if target not in named:  # else its order's own problem is told
                problems.append(Problem(at, f"no combat on {b.label(target)} is declared"))
            continue
        if not isinstance(value, list) or len(value) != attack["supports"]:
            problems.append(Problem(at, f"the combat on {b.label(target)} has "
                                    f"{_markers(attack['supports'])}: name as many kinds"))
            continue
        for k, kind in enumerate(value):
            spec = kinds.get(kind)
            if spec is None:
                problems.append(Problem((*at, k), f"{kind!r} is not a Russian marker"
                                        f"{suggest(str(kind), sorted(kinds))}"))
            elif use not in spec["use"]:
                problems.append(Problem((*at, k), f"{kind} is used only by "
                                        f"{'defending' if use == 'attack' else 'attacking'} "
                                        "Russian units (10.9)"))
            elif "defender_terrain" in spec and b.terrain[target] not in spec["defender_terrain"]:
                problems.append(Problem((*at, k), f"{kind} is used only where the defender is in "
                                        f"{' or '.join(spec['defender_terrain'])} (10.9)"))
            else:
                wanted[kind] += 1
    for target, attack in declared.items():
        if attack["supports"] and target not in {str(k) for k in given}:
            problems.append(Problem(("secret", "supports"), f"the combat on {b.label(target)} "
                                    f"has {_markers(attack['supports'])}: name their kinds"))
    for kind, n in sorted(wanted.items()):
        have = int(state["supports"][RUSSIAN].get(kind, 0))
        if n > have:
            problems.append(Problem(("secret", "supports"), f"{_markers(n)} of kind {kind} "
                                    f"named, {have} available (10.9)"))


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
    spent = 0
    leaders_used: set[str] = set()
    out: dict[str, dict[str, Any]] = {}
    for _i, at, body in bodies(orders, "support", {"target"}, {"markers", "leaders"},
                               '{support: {target: "CCRR", markers: N, leaders: [...]}}', problems):
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
        backing = _backing(data, b, state, body, at, target, {target}, "the defending hex",
                           leaders_used, spent, problems)
        if backing is not None:
            spent += backing["markers"]
            leaders_used.update(backing["leaders"])
            out[target] = backing
    return out


def _backing(data: GameData, b: Board, state: State, body: dict[str, Any], at: Path_, target: str,
             hexes: set[str], where: str, leaders_used: set[str], spent: int,
             problems: list[Problem]) -> dict[str, Any] | None:
    """One combat's Chechen markers and leaders (10.9, 11.2), checked: two at most together,
    none of the markers (`spent` already elsewhere) outside Chechnya, each leader from the
    underground or in one of `hexes` (`where`), not used in another combat (`leaders_used`)."""
    found = len(problems)
    markers = int(state["supports"][CHECHEN].get("artillery", 0))
    per_combat = int(data["tables"]["support"]["chechen_per_combat"])
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
        now = state["leaders"].get(leader)
        if now is None:
            problems.append(Problem((*at, "leaders", k), f"{leader!r} is not a leader"
                                    f"{suggest(str(leader), sorted(state['leaders']))}"))
        elif leader in leaders_used or leaders.count(leader) > 1:
            problems.append(Problem((*at, "leaders", k), f"{leader} backs one combat a segment"))
        elif now != "underground" and now not in hexes:
            problems.append(Problem((*at, "leaders", k), f"{leader} is neither in the "
                                    f"underground box nor in {where} (11.2)"))
    if len(problems) == found and n + len(leaders) > per_combat:
        problems.append(Problem(at, f"markers and leaders together: {per_combat} at most (10.9)"))
    if len(problems) > found:
        return None
    return {"markers": n, "leaders": [str(x) for x in leaders]}


# --- the Chechen attacking, the Russian answering ---------------------------------------------

def read_chechen_attacks(data: GameData, state: State, orders: dict[str, Any],
                         problems: list[Problem], others: tuple[str, ...] = ()
                         ) -> list[dict[str, Any]]:
    """The Chechen's attacks, checked in order (10.1-10.5), and his answers to the
    Russian's count in the secret part when the reader holds it in plain (10.9); items of
    the `others` kinds (the moves of the same file) are left to their own readers."""
    b = board(data)
    theirs = russian_hexes(state)
    used: set[str] = set()
    named: set[str] = set()
    out: list[dict[str, Any]] = []
    for _i, at, body in bodies(orders, "attack", {"target", "units"}, {"advance"},
                               '{attack: {target: "CCRR", units: [t01, ...]}}, with advance: '
                               "[...] if you wish", problems, others):
        found = len(problems)
        target = _target(b, body, at, theirs, named, "Russian", problems)
        if target is None:
            continue
        tokens = _pieces(b, state["tokens"], body["units"], target, used, (*at, "units"), problems)
        abroad = [t for t in tokens if b.region[state["tokens"][t]["hex"]] in ABROAD]
        if abroad:  # 8.2 where they stand is public: only militia are ever there
            where = sorted({b.region[state["tokens"][t]["hex"]].title() for t in abroad})
            problems.append(Problem((*at, "units"), f"{', '.join(abroad)} "
                                    f"{'stands' if len(abroad) == 1 else 'stand'} in "
                                    f"{' and '.join(where)}: militia there may not conduct "
                                    "attacks, only ambushes (8.2)"))
        if tokens and len(problems) == found:
            why = may_strike(data, b, state, tokens, target, verb="attack")
            if why is not None:
                problems.append(Problem((*at, "target"), why))
        advance = body.get("advance", [])
        if not isinstance(advance, list) or not set(map(str, advance)) <= set(tokens):
            problems.append(Problem((*at, "advance"), "advance: a list of this attack's units (10.12)"))
        if len(problems) == found:
            used.update(tokens)
            out.append({"side": CHECHEN, "target": target, "units": tokens,
                        "advance": [str(u) for u in advance]})
    secret = orders.get("secret")
    if isinstance(secret, dict) and "sealed" not in secret:
        read_answers(data, state, out, named, secret, problems)
    return out


def _target(b: Board, body: dict[str, Any], at: Path_, held: dict[str, Any], named: set[str],
            whose: str, problems: list[Problem]) -> str | None:
    """An attack's target: a hex holding `whose` units (`held`), attacked once a segment
    (10.2); every target named, legal or not, joins `named`."""
    target = hex_in(b, body["target"], (*at, "target"), problems)
    if target is None:
        return None
    why = (f"{b.label(target)} holds no {whose} unit" if target not in held
           else f"{b.label(target)} is attacked once a segment (10.2)" if target in named else None)
    named.add(target)
    if why is not None:
        problems.append(Problem((*at, "target"), why))
        return None
    return target


def _pieces(b: Board, mine: dict[str, dict[str, Any]], value: Any, target: str, used: set[str],
            at: Path_, problems: list[Problem]) -> list[str]:
    """A combat's attacking pieces: the side's own, each once a segment, next to `target`."""
    if not isinstance(value, list) or not value:
        problems.append(Problem(at, "units: a list of your units' ids"))
        return []
    out: list[str] = []
    for k, unit in enumerate(value):
        if unit not in mine:
            problems.append(Problem((*at, k), f"{unit!r} is not one of your units on the map"
                                    f"{suggest(str(unit), sorted(mine))}"))
        elif unit in used or unit in out:
            problems.append(Problem((*at, k), f"{unit} attacks once a segment (10.3, 10.4)"))
        elif not b.grid.adjacent(mine[unit]["hex"], target):
            problems.append(Problem((*at, k), f"{unit} in {b.label(mine[unit]['hex'])} "
                                    f"is not next to {b.label(target)} (10.1)"))
        else:
            out.append(str(unit))
    return out


# the secret parts of the combat files (pbem/orders.py checks their shape, these rules the rest)
SECRET_KINDS = {
    "description": 'the secret part is supports: {"CCRR": [KIND, ...]}, the kinds of the markers '
                   "committed to each combat (10.9)",
    "type": "object", "additionalProperties": False,
    "properties": {"supports": {"type": "object", "additionalProperties": {"type": "array"}}},
}
SECRET_ANSWERS = {
    "description": 'the secret part is supports: {"CCRR": {markers: N, leaders: [...]}}, or one '
                   "such for each count the Russian may commit: {0: ..., 1: ..., 2: ...} (10.9)",
    "type": "object", "additionalProperties": False,
    "properties": {"supports": {"type": "object", "additionalProperties": {"type": "object"}}},
}
# beside the supports, a secret part may give the side's End of Turn orders (ahead.py)
AHEAD = "end_of_turn"
ABROAD = ("dagestan", "ingushetia")  # 8.2 the oblasts only militia enter, to raid and ambush
COUNTS = ("0", "1", "2")  # 10.9: the Russian commits none, one or two markers


def read_answers(data: GameData, state: State, attacks: list[dict[str, Any]], named: set[str],
                 secret: dict[str, Any], problems: list[Problem]) -> dict[str, dict[str, Any]]:
    """The secret part of the Chechen's attacks: for each, his markers and leaders, the
    same whatever the Russian commits, or by the Russian's count (0, 1, 2) as he would
    answer once told it (10.9); as {target: {count: backing}}."""
    b = board(data)
    given = secret.get("supports") or {}
    if not isinstance(given, dict) or not set(secret) <= {"supports", AHEAD}:
        problems.append(Problem(("secret",), 'the secret part is supports: {"CCRR": {markers: N, '
                                "leaders: [...]}}, or by the Russian's count {0: ..., 1: ..., 2: ...}"))
        return {}
    declared = {a["target"]: a for a in attacks}
    spent = 0
    leaders_used: set[str] = set()
    out: dict[str, dict[str, Any]] = {}
    for key, value in given.items():
        at: Path_ = ("secret", "supports", key)
        target = hex_in(b, key, at, problems)
        if target is None:
            continue
        attack = declared.get(target)
        if attack is None:
            if target not in named:
                problems.append(Problem(at, f"no attack on {b.label(target)} is declared"))
            continue
        if not isinstance(value, dict):
            problems.append(Problem(at, "expected {markers: N, leaders: [...]}, or one such for "
                                    "each count the Russian may commit: {0: ..., 1: ..., 2: ...}"))
            continue
        per_count = bool(value) and set(map(str, value)) <= set(COUNTS)
        asked = {str(k): (v, (*at, str(k))) for k, v in value.items()} if per_count \
            else {"any": (value, at)}
        hexes = {state["tokens"][t]["hex"] for t in attack["units"]}
        answers: dict[str, Any] = {}
        for count, (body, where) in sorted(asked.items()):
            if not isinstance(body, dict) or not set(body) <= {"markers", "leaders"}:
                problems.append(Problem(where, "expected {markers: N, leaders: [...]}"))
                continue
            backing = _backing(data, b, state, body, where, target, hexes, "an attacking hex",
                               leaders_used, spent, problems)
            if backing is not None:
                answers[count] = backing
        if len(answers) == len(asked):
            if not per_count:
                answers = dict.fromkeys(COUNTS, answers["any"])
            spent += max((a["markers"] for a in answers.values()), default=0)
            leaders_used.update(x for a in answers.values() for x in a["leaders"])
            out[target] = answers
    return out


def declare_chechen(data: GameData, state: State, attacks: list[dict[str, Any]], secret: Any,
                    secrets: Secrets | None) -> list[Event]:
    """The Chechen's attacks on record, his answers to the Russian's count sealed to him
    until the Russian has committed (10.9)."""
    if not attacks:
        return []
    if secrets is None:
        raise ValueError("the Chechen's answers are sealed: they need the referee's secrets")
    out = []
    for attack in attacks:
        target = attack["target"]

        def read(s: Any, t: str = target, a: dict[str, Any] = attack) -> dict[str, Any]:
            problems: list[Problem] = []
            return read_answers(data, state, [a], {t}, s if isinstance(s, dict) else {}, problems).get(t) or {}

        value = secrets.compute(read, secret if secret is not None else {})
        answers = secrets.seal("answers", f"t{state['turn']}:{target}", CHECHEN, int(state["turn"]), value)
        out.append({**attack, "answers": answers})
    return [{"type": "attacks_declared", "attacks": out}]


def read_russian_defence(data: GameData, state: State, orders: dict[str, Any],
                         problems: list[Problem]) -> dict[str, int]:
    """The Russian's markers against the Chechen's attacks: how many each (told), their
    kinds in the secret part (10.9: armor defending in clear; not TOS-1)."""
    b = board(data)
    declared = {a["target"]: a for a in state.get("attacks") or []}
    available = sum(int(n) for kind, n in state["supports"][RUSSIAN].items()
                    if "defence" in marker_kinds(data, RUSSIAN)[kind]["use"])
    committed = 0
    named: set[str] = set()
    out: dict[str, int] = {}
    for _i, at, body in bodies(orders, "support", {"target", "markers"}, set(),
                               '{support: {target: "CCRR", markers: N}}', problems):
        target = hex_in(b, body["target"], (*at, "target"), problems)
        if target is None:
            continue
        n = body["markers"]
        named.add(target)
        if target not in declared:
            problems.append(Problem((*at, "target"), f"no Chechen attack on {b.label(target)} is "
                                    "declared"))
        elif target in out:
            problems.append(Problem((*at, "target"), f"{b.label(target)} is supported once"))
        elif isinstance(n, bool) or not isinstance(n, int) or not 0 <= n <= 2:
            problems.append(Problem((*at, "markers"), "markers: 0, 1 or 2 (10.9)"))
        elif committed + n > available:
            problems.append(Problem((*at, "markers"), f"{available} of your markers may be used "
                                    f"in defence; this file commits {committed + n} (10.9)"))
        else:
            committed += n
            out[target] = n
    secret = orders.get("secret")
    attacks = [{"target": t, "supports": n} for t, n in out.items()]
    if isinstance(secret, dict) and "sealed" not in secret:
        read_types(data, state, attacks, named, secret, problems, use="defence")
    elif secret is None and any(out.values()):
        problems.append(Problem(("secret",), "name your markers' kinds in the secret part: "
                                'supports: {"CCRR": [KIND, ...]} for each combat with markers (10.9)'))
    return out


def russian_kinds(secret: Any, counts: dict[str, int], secrets: Secrets | None) -> dict[str, list[str]]:
    """The Russian's marker kinds by target, his file's secret part opened (published)."""
    if not any(counts.values()):
        return {}
    if isinstance(secret, dict) and "sealed" in secret:
        if secrets is None:
            raise ValueError("the Russian's markers are sealed: opening them needs the secrets")
        secret = secrets.open(secret)
    given = (secret or {}).get("supports") or {}
    return {str(t): [str(k) for k in given.get(t) or []] for t, n in counts.items() if n}


# --- the fights -------------------------------------------------------------------------------

NO_BACKING: dict[str, Any] = {"markers": 0, "leaders": []}


def fight_all(data: GameData, state: State, rng: Rng, secrets: Secrets | None,
              chechen: dict[str, dict[str, Any]] | None = None,
              russian: dict[str, list[str]] | None = None) -> list[Event]:
    """Every declared attack in order, each finished before the next (10.4). The Chechen's
    backing of each is `chechen` by target (his answer to a Russian attack), or his own
    attack's answer to the Russian's count; the Russian's marker kinds are his attack's
    sealed ones, opened now, or `russian` by target (his answer to a Chechen attack)."""
    segment = folding(data, state)
    for k, attack in enumerate(state.get("attacks") or [], start=1):
        target = attack["target"]
        if attack.get("side", RUSSIAN) == RUSSIAN:
            backing = (chechen or {}).get(target) or NO_BACKING
            types: list[str] = []
            if attack.get("types") is not None:
                if secrets is None:
                    raise ValueError("the Russian's markers are sealed: opening them needs the secrets")
                types = [str(t) for t in secrets.open(attack["types"])]
        else:
            types = list((russian or {}).get(target) or [])
            answers = attack.get("answers")
            if answers is not None and "sealed" in answers:
                if secrets is None:
                    raise ValueError("the Chechen's answers are sealed: opening them needs the secrets")
                answers = secrets.open(answers)
            backing = dict((answers or {}).get(str(len(types))) or NO_BACKING)
        segment.take(_fight(data, segment.state, k, attack, types, backing, rng, secrets))
    return [*segment.events, {"type": "attacks_over"}]


class Sides:
    """Who fights in one combat: each side's pieces (Russian unit ids, Chechen token ids),
    their strengths and steps (2.8: a reduced unit's; a Chechen unit one step)."""

    def __init__(self, data: GameData, state: State, attack: dict[str, Any]) -> None:
        self.data, self.state = data, state
        self.side = str(attack.get("side", RUSSIAN))
        target = attack["target"]
        if self.side == RUSSIAN:
            self.russians = list(attack["units"])
            self.chechens = sorted(t for t, v in state["tokens"].items() if v["hex"] == target)
        else:
            self.russians = sorted(u for u, v in state["russians"].items() if v["hex"] == target)
            self.chechens = list(attack["units"])
        self.attackers = self.russians if self.side == RUSSIAN else self.chechens
        self.defenders = self.chechens if self.side == RUSSIAN else self.russians

    def of(self, side: str) -> list[str]:
        return self.russians if side == RUSSIAN else self.chechens

    def unit(self, token: str) -> str:
        return str(self.state["tokens"][token]["unit"])

    def cf(self, side: str, pieces: list[str] | None = None) -> int:
        chosen = self.of(side) if pieces is None else pieces
        if side == RUSSIAN:
            return sum(cf(self.data, self.state, u) for u in chosen)
        return sum(int(units(self.data)[self.unit(t)]["cf"]) for t in chosen)

    def steps(self, side: str) -> int:
        if side == RUSSIAN:
            return sum(steps_left(self.data, self.state, u) for u in self.russians)
        return len(self.chechens)

    def hex(self, side: str, piece: str) -> str:
        return str((self.state["russians"] if side == RUSSIAN else self.state["tokens"])[piece]["hex"])


def _fight(data: GameData, state: State, k: int, attack: dict[str, Any], types: list[str],
           backing: dict[str, Any], rng: Rng, secrets: Secrets | None) -> list[Event]:
    b = board(data)
    target = attack["target"]
    side = str(attack.get("side", RUSSIAN))
    other = CHECHEN if side == RUSSIAN else RUSSIAN
    label = f"t{state['turn']}:{side}:combat{k}:{target}"
    combat = folding(data, state)

    def emit(*new: Event) -> None:
        combat.take(new)

    fighting = Sides(data, combat.state, attack)
    # 11.2: a leader goes where the combat is: the defending hex, or the hex of the first
    # attacking unit named unless he stands in one of the attacking hexes already (a ruling)
    theirs = {fighting.hex(CHECHEN, t) for t in fighting.chechens}
    for leader in backing["leaders"]:
        if state["leaders"][leader] not in theirs:
            emit({"type": "leader_placed", "leader": leader,
                  "hex": fighting.hex(CHECHEN, fighting.chechens[0])})
    hidden = {t: combat.state["tokens"][t]["unit"] for t in fighting.chechens
              if not isinstance(combat.state["tokens"][t]["unit"], str)}
    if hidden:  # 10.6: revealed once the supports are committed (a Chechen attacker too)
        if secrets is None:
            raise ValueError("the Chechen units are face down: revealing them needs the secrets")
        emit({"type": "revealed", "tokens": {t: str(secrets.open(node)) for t, node in hidden.items()}})
    fighting = Sides(data, combat.state, attack)
    attack_cf, defence_cf = fighting.cf(side), fighting.cf(other)
    shifts = _shifts(data, b, combat.state, attack, fighting, types, backing)
    crt = data["tables"]["crt"]
    found = odds.resolve(attack_cf, defence_cf, crt["columns"], shifts)
    roll = rng.roll(label)
    result = str(odds.lookup(crt["results"], found.column, roll))
    tos = rng.roll(f"{label}:tos1") if "tos1" in types else None
    emit({"type": "combat", "side": side, "target": target, "attackers": fighting.attackers,
          "defenders": fighting.defenders,
          "chechens": {t: fighting.unit(t) for t in fighting.chechens},
          "russian_markers": types, "chechen_markers": backing["markers"],
          "leaders": backing["leaders"], "attack": attack_cf, "defence": defence_cf,
          "odds": found.base, "shifts": [[s.direction, s.count, s.reason] for s in shifts],
          "column": found.column, "roll": roll, "tos1_roll": tos, "result": result,
          "groznyi": side == RUSSIAN and target == groznyi(b)})
    urban = any(b.terrain[h] in URBAN for h in {target, *(fighting.hex(side, p) for p in fighting.attackers)})
    chechen_hexes_ = {fighting.hex(CHECHEN, t) for t in fighting.chechens}
    emit(*_losses(data, fighting, result, f"combat on {target}"))
    emit(*_afterwards(data, b, combat.state, attack, chechen_hexes_, types, tos, urban, backing, label, rng))
    return combat.events


def _shifts(data: GameData, b: Board, state: State, attack: dict[str, Any], fighting: Sides,
            types: list[str], backing: dict[str, Any]) -> list[odds.Shift]:
    """Every column shift of a combat, with its reason (10.8-10.10, the TEC): right helps
    the attacker, left the defender."""
    tables = data["tables"]
    target = attack["target"]
    side = fighting.side
    out: list[odds.Shift] = []
    terrain = b.terrain[target]
    if side == RUSSIAN and _first_on_groznyi(b, state, target):
        n = int(tables["combat_shifts"]["groznyi_first_russian_attack"]["defender_shifts"])
        why = "Groznyi, the first Russian attack on it (10.10)"
    else:
        n = int(tables["terrain"][terrain]["defender_shifts"])
        why = f"{terrain} (TEC)"
    if n:
        out.append(odds.Shift("left", n, why))
    river = tables["hexsides"]["river"]
    across = fighting.cf(side, [p for p in fighting.attackers
                                if _across_river(data, b, fighting.hex(side, p), target)])
    total = fighting.cf(side)
    if int(river["defender_shifts"]) and 2 * across > total:
        out.append(odds.Shift("left", int(river["defender_shifts"]),
                              f"more than half the attack across a river (10.10, TEC): {across} of {total}"))
    russian_way: Literal["left", "right"] = "right" if side == RUSSIAN else "left"
    chechen_way: Literal["left", "right"] = "left" if side == RUSSIAN else "right"
    kinds = marker_kinds(data, RUSSIAN)
    for kind in types:
        out.append(odds.Shift(russian_way, int(kinds[kind]["shifts"]), f"Russian {kind} marker (10.9)"))
    artillery = marker_kinds(data, CHECHEN)["artillery"]
    for _ in range(int(backing["markers"])):
        out.append(odds.Shift(chechen_way, int(artillery["shifts"]), "Chechen artillery marker (10.9)"))
    for leader in backing["leaders"]:
        spec = data["units"]["leaders"][leader]
        out.append(odds.Shift(chechen_way, int(spec["combat_shifts"]), f"{spec['name']} (10.9, 11.2)"))
    return out


def _across_river(data: GameData, b: Board, here: str, there: str) -> bool:
    side = b.grid.hexside(here, there)
    if side not in b.rivers:
        return False
    return not (side in b.bridges and data["tables"]["hexsides"]["bridge"]["negates_river_shifts"])


def _losses(data: GameData, fighting: Sides, result: str, why: str) -> list[Event]:
    """10.11's result as each side's steps lost, the attacker's first (10.7)."""
    effect = data["tables"]["crt"]["effects"][result]
    side = fighting.side
    other = CHECHEN if side == RUSSIAN else RUSSIAN
    mine, theirs = fighting.steps(side), fighting.steps(other)
    lose = {side: 0, other: 0}
    if effect["attacker"] == "all":
        lose[side] = mine
    elif effect["attacker"] == "defender_steps":
        lose[side] = theirs
    if effect["defender"] == "all":
        lose[other] = theirs
    if effect["attacker"] == "exchange":
        my_cf, their_cf = fighting.cf(side), fighting.cf(other)
        if mine == theirs:  # 10.11 note: both eliminated
            lose = {side: mine, other: theirs}
        elif my_cf < their_cf or (my_cf == their_cf
                                  and data["tables"]["crt"]["exchange"]["tie"] == "attacker"):
            lose = {side: mine, other: mine}
        else:
            lose = {side: theirs, other: theirs}
    out: list[Event] = []
    for who in (side, other):
        n = min(lose[who], fighting.steps(who))
        if not n:
            continue
        if who == RUSSIAN:
            lost = step_losses(data, fighting.state, fighting.russians, n)
            reduced = [u for u, k in lost.items() if k == 1 and steps_left(data, fighting.state, u) == 2]
            out.append({"type": "steps_lost", "steps": sum(lost.values()), "reduced": reduced,
                        "eliminated": [u for u in lost if u not in reduced], "why": why})
        else:  # a ruling: the weakest first, then the lower token id
            gone = sorted(fighting.chechens, key=lambda t: (fighting.cf(CHECHEN, [t]), t))[:n]
            out.append({"type": "chechens_eliminated", "tokens": gone,
                        "units": [fighting.unit(t) for t in gone], "why": why})
    return out


def _afterwards(data: GameData, b: Board, state: State, attack: dict[str, Any], chechen_hexes_: set[str],
                types: list[str], tos: int | None, urban: bool, backing: dict[str, Any], label: str,
                rng: Rng) -> list[Event]:
    """Advance (10.12), leaders of the Chechen hexes wiped out (11.4), collateral damage
    (10.13: `urban`, either side in a town or city when the combat began) and the markers
    (10.9)."""
    target = attack["target"]
    side = str(attack.get("side", RUSSIAN))
    out: list[Event] = []
    held = {v["hex"] for v in state["tokens"].values()} | {v["hex"] for v in state["russians"].values()}
    for hex_id in sorted(chechen_hexes_):
        if any(v["hex"] == hex_id for v in state["tokens"].values()):
            continue
        for leader in sorted(x for x, where in state["leaders"].items() if where == hex_id):
            die = rng.roll(f"{label}:leader:{leader}")
            out.append({"type": "leader_roll", "leader": leader, "roll": die,
                        "eliminated": die in data["tables"]["leaders"]["eliminated_on"]})
    if target not in held:
        mine = state["russians"] if side == RUSSIAN else state["tokens"]
        going = [u for u in attack.get("advance") or [] if u in mine][:stacking(data, b, target)]
        if going:
            out.append({"type": "advanced", "side": side, "units": going, "to": target})
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

def _attacks_declared(data: GameData, state: State, event: Event) -> None:
    state["attacks"] = [dict(a) for a in event["attacks"]]


def _revealed(data: GameData, state: State, event: Event) -> None:
    for token, unit in event["tokens"].items():
        state["tokens"][token]["unit"] = unit
        state["tokens"][token]["revealed"] = True


def _combat(data: GameData, state: State, event: Event) -> None:
    if event["groznyi"]:  # 10.10: the next attacks on it are ordinary
        state["groznyi_attacked"] = True
    have = state["supports"][CHECHEN]
    have["artillery"] = int(have.get("artillery", 0)) - int(event["chechen_markers"])


def _chechens_eliminated(data: GameData, state: State, event: Event) -> None:
    """10.11: the eliminated Chechen units go to the cup."""
    for token in event["tokens"]:
        del state["tokens"][token]
    state["cup"] = int(state["cup"]) + len(event["tokens"])
    state["cup_known"] = sorted([*state.get("cup_known", []), *event["units"]])


def _advanced(data: GameData, state: State, event: Event) -> None:
    """10.12: the advance into the emptied hex."""
    mine = state["tokens"] if event.get("side") == CHECHEN else state["russians"]
    for unit in event["units"]:
        mine[unit]["hex"] = event["to"]


def _leader_roll(data: GameData, state: State, event: Event) -> None:
    state["leaders"][event["leader"]] = "eliminated" if event["eliminated"] else "next_turn"
    if event["eliminated"]:
        state["leaders_lost"] = int(state.get("leaders_lost", 0)) + 1


def _russian_markers_used(data: GameData, state: State, event: Event) -> None:
    have, used = state["supports"][RUSSIAN], state["used_supports"][RUSSIAN]
    for marker in event["kinds"]:
        have[marker] = int(have.get(marker, 0)) - 1
        used[marker] = int(used.get(marker, 0)) + 1
    state["collateral"] = int(state["collateral"]) + int(event["collateral"])


def _chechen_marker_roll(data: GameData, state: State, event: Event) -> None:
    if not event["lost"]:
        used = state["used_supports"][CHECHEN]
        used["artillery"] = int(used.get("artillery", 0)) + 1


def _attacks_over(data: GameData, state: State, event: Event) -> None:
    state["attacks"] = []


APPLY: dict[str, Apply[GameData]] = {
    "attacks_declared": _attacks_declared,
    "revealed": _revealed,
    "combat": _combat,
    "chechens_eliminated": _chechens_eliminated,
    "advanced": _advanced,
    "leader_roll": _leader_roll,
    "russian_markers_used": _russian_markers_used,
    "chechen_marker_roll": _chechen_marker_roll,
    "attacks_over": _attacks_over,
}


def _told_attacks_declared(data: GameData, event: Event) -> str:
    b = board(data)
    spec = units(data)
    told = []
    chechen = any(a.get("side") == CHECHEN for a in event["attacks"])
    for a in event["attacks"]:
        if chechen:  # face down: the tokens only
            told.append(f"{', '.join(a['units'])} on {b.label(a['target'])}")
            continue
        names = ", ".join(spec[u]["name"] for u in a["units"])
        markers = f", {_markers(a['supports'])} (their kinds sealed until the die)" \
            if a["supports"] else ""
        told.append(f"{names} on {b.label(a['target'])}{markers}")
    return f"the {'Chechen' if chechen else 'Russian'} attacks: " + "; ".join(told)


def _told_revealed(data: GameData, event: Event) -> str:
    spec = units(data)
    return "revealed (10.6): " + ", ".join(f"{t} is {spec[u]['name']}"
                                           for t, u in sorted(event["tokens"].items()))


def _told_combat(data: GameData, event: Event) -> str:
    b = board(data)
    shifts = "".join(f"; {n} column{'s' if n != 1 else ''} {d} ({why})"
                     for d, n, why in event["shifts"])
    markers = f", Russian markers: {', '.join(event['russian_markers'])}" \
        if event["russian_markers"] else ""
    tos = f", TOS-1 die {event['tos1_roll']}" if event["tos1_roll"] is not None else ""
    return (f"combat on {b.label(event['target'])}: {event['attack']} against "
            f"{event['defence']}, {event['odds']}{shifts}: fought at {event['column']}"
            f"{markers}; die {event['roll']}{tos}: {event['result']}")


def _told_chechens_eliminated(data: GameData, event: Event) -> str:
    spec = units(data)
    return ", ".join(spec[u]["name"] for u in event["units"]) + \
        f" eliminated, to the cup ({event['why']})"


def _told_advanced(data: GameData, event: Event) -> str:
    b = board(data)
    spec = units(data)
    moving = (", ".join(spec[u]["name"] for u in event["units"]) if event.get("side") != CHECHEN
              else ", ".join(event["units"]))
    return f"{moving} advance into {b.label(event['to'])} (10.12)"


def _told_leader_roll(data: GameData, event: Event) -> str:
    name = data["units"]["leaders"][event["leader"]]["name"]
    fate = "eliminated" if event["eliminated"] else "back in the underground next turn"
    return f"{name}'s units are all eliminated: die {event['roll']}, {fate} (11.4)"


def _told_russian_markers_used(data: GameData, event: Event) -> str:
    extra = f"; collateral damage +{event['collateral']} (10.13)" if event["collateral"] else ""
    return f"the Russian's markers go to the used box: {', '.join(event['kinds'])}{extra}"


def _told_chechen_marker_roll(data: GameData, event: Event) -> str:
    fate = "lost for good" if event["lost"] else "to the used box"
    return f"the Chechen artillery marker's die {event['roll']}: {fate} (10.9)"


DESCRIBE: dict[str, Describe[GameData]] = {
    "attacks_declared": _told_attacks_declared,
    "revealed": Ruled(_told_revealed, "10.6"),
    "combat": _told_combat,
    "chechens_eliminated": _told_chechens_eliminated,
    "advanced": Ruled(_told_advanced, "10.12"),
    "leader_roll": Ruled(_told_leader_roll, "11.4"),
    "russian_markers_used": Ruled(_told_russian_markers_used, "10.13"),
    "chechen_marker_roll": Ruled(_told_chechen_marker_roll, "10.9"),
    "attacks_over": Told("the combat segment ends"),
}


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
        body: dict[str, Any] = {"target": target, "units": near, "advance": list(near)}
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


def bot_chechen(data: GameData, state: State, rng: Rng) -> dict[str, Any]:
    """Each Russian hex of Chechnya next to Chechen units, attacked or not at random, by
    every free unit next to it, with an artillery marker now and then."""
    b = board(data)
    used: set[str] = set()
    chosen: list[dict[str, Any]] = []
    answers: dict[str, Any] = {}
    artillery = int(state["supports"][CHECHEN].get("artillery", 0))
    for target, _units in sorted(russian_hexes(state).items()):
        near = [t for t, v in sorted(state["tokens"].items())
                if t not in used and b.grid.adjacent(v["hex"], target)]
        if not near or b.region[target] != "chechnya":
            continue
        if not rng.choice(f"bot:chechen-attack:t{state['turn']}:{target}", [True, False]):
            continue
        used.update(near)
        chosen.append({"attack": {"target": target, "units": near, "advance": list(near)}})
        if artillery:
            artillery -= 1
            answers[target] = {"markers": 1}
    return {"orders": chosen, **({"secret": {"supports": answers}} if answers else {})}


def bot_russian_defence(data: GameData, state: State, rng: Rng) -> dict[str, Any]:
    """An artillery marker to each hex the Chechen attacks while any are left."""
    left = int(state["supports"][RUSSIAN].get("artillery", 0))
    out, kinds = [], {}
    for attack in state.get("attacks") or []:
        if left:
            left -= 1
            out.append({"support": {"target": attack["target"], "markers": 1}})
            kinds[attack["target"]] = ["artillery"]
    return {"orders": out, **({"secret": {"supports": kinds}} if kinds else {})}

