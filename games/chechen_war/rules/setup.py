"""Set-up (4.0): the Russian places his at-start units (4.2.1 variable, 4.3.1 historical),
then the Chechen places his units face down as anonymous tokens (4.2.2, 4.3.2), and only
then are the tokens' identities drawn, sealed to the Chechen (4.2.2: "may not be examined
... until he has completed his set-up") and hidden from the Russian (10.6).

A Russian set-up file::

    orders:
      - place: {hex: "0731", units: [ru_131_mech_bde, ru_74_mech_bde]}

A Chechen set-up file: the tokens placed in each hex, in public (the Russian sees face-down
counters), and in the secret part, sealed to the Chechen and the referee, the hexes of the
eight tokens that are regulars (4.2.2: drawn from the regulars' cup; the rest are militia),
one entry a token::

    orders:
      - place: {hex: "1324", tokens: 3}
    secret:
      regulars: ["1324", "1324", "1523", ...]

Identities are drawn by hidden randomness (`secrets.shuffle`, keyed by the hidden secret and
recomputed by `audit --final` after unseal; docs/fairness.md): a hidden order of all the
tokens says which of each hex's tokens are its regulars (never the first placed: a token's id
tells nothing of what it is), then the first eight of the regulars' cup go to the regular
tokens in id order, the militia's cup to the rest.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable, Sequence
from typing import Any

from pbem.game import Event, GameData, Problem, Rng, Secrets, State
from pbem.kit.events import Apply, Describe, Told
from pbem.names import suggest

from .board import CHECHEN, RUSSIAN, Board, at_start, board, chechen, hex_in, stacking, units

REGULAR, MILITIA = "chechen_regular", "chechen_militia"


def russian_allowed(data: GameData, options: dict[str, Any], unit: str) -> tuple[list[str], str]:
    """The hexes an at-start Russian unit may be placed in, and the rule that says so."""
    b = board(data)
    u = units(data)[unit]
    setup = data["units"]["setup"]
    every = sorted(b.terrain)
    if options.get("setup") == "historical":  # 4.3.1: each unit with its group
        group = setup["groups"][u["group"]]
        near = b.grid.within(group["hex"], 1) if group.get("hex") else every
        out = [h for h in near if b.region[h] not in group.get("not_in", [])]
        where = (f"on or adjacent to {b.label(group['hex'])}" if group.get("hex")
                 else "anywhere in Russia")
        banned = " and ".join(r.replace("_", " ").title() for r in group.get("not_in", []))
        return out, (f"4.3.1: the {group['name']} sets up {where}"
                     + (f", not in {banned}" if banned else ""))
    variable = setup["russian"]["variable"]
    if u["nationality"] == "regular_army":  # 4.2.1
        towns = variable["regulars_on_or_adjacent"]
        near = sorted({h for t in towns for h in b.grid.within(t, 1)})
        out = [h for h in near if b.region[h] not in variable["regulars_not_in"]]
        return out, ("4.2.1: regular army units set up on or adjacent to "
                     + ", ".join(b.label(t) for t in towns) + ", not in Chechnya")
    out = [h for h in every if b.region[h] not in variable["mvd_not_in"]]
    return out, "4.2.1: MVD units set up anywhere outside Chechnya and Georgia"


def check_russian(data: GameData, state: State, orders: dict[str, Any]) -> list[Problem]:
    b = board(data)
    problems: list[Problem] = []
    known = at_start(data)
    placed: dict[str, str] = {}
    per_hex: Counter[str] = Counter()
    for i, item in enumerate(orders.get("orders") or []):
        where: tuple[str | int, ...] = ("orders", i)
        body = item.get("place") if isinstance(item, dict) and set(item) == {"place"} else None
        if not isinstance(body, dict) or set(body) != {"hex", "units"} \
                or not isinstance(body["units"], list):
            problems.append(Problem(where, 'expected {place: {hex: "CCRR", units: [UNIT, ...]}}'))
            continue
        hex_id = hex_in(b, body["hex"], (*where, "place", "hex"), problems)
        if hex_id is None:
            continue
        for k, unit in enumerate(body["units"]):
            at = (*where, "place", "units", k)
            if unit not in known:
                problems.append(Problem(at, f"{unit!r} is not a Russian at-start unit"
                                        f"{suggest(str(unit), known)}"))
                continue
            if unit in placed:
                problems.append(Problem(at, f"{unit} is placed twice (in {placed[unit]} too)"))
                continue
            allowed, rule = russian_allowed(data, state["options"], unit)
            if hex_id not in allowed:
                problems.append(Problem(at, f"{unit} may not set up in {b.label(hex_id)}: {rule}"))
            placed[unit] = hex_id
            per_hex[hex_id] += 1
    _stacking(data, b, per_hex, problems)
    missing = [u for u in known if u not in placed]
    if missing and not any(p.path[:1] == ("orders",) and len(p.path) == 2 for p in problems):
        problems.append(Problem(("orders",), "every at-start unit is set up (4.1); not placed: "
                                + ", ".join(missing)))
    return problems


def _stacking(data: GameData, b: Board, per_hex: Counter[str], problems: list[Problem]) -> None:
    for hex_id, n in sorted(per_hex.items()):
        limit = stacking(data, b, hex_id)
        if n > limit:
            problems.append(Problem(("orders",), f"{b.label(hex_id)} holds {n} units; its "
                                    f"terrain ({b.terrain[hex_id]}) stacks {limit} (7.0)"))


def tokens(data: GameData) -> tuple[int, int]:
    """How many regulars and militia the Chechen places face down (4.2.2)."""
    c = data["units"]["setup"]["chechen"]
    return int(c["regulars_drawn"]), int(c["militia_drawn"])


def check_chechen(data: GameData, state: State, orders: dict[str, Any]) -> list[Problem]:
    b = board(data)
    problems: list[Problem] = []
    per_hex: Counter[str] = Counter()
    for i, item in enumerate(orders.get("orders") or []):
        where: tuple[str | int, ...] = ("orders", i)
        body = item.get("place") if isinstance(item, dict) and set(item) == {"place"} else None
        count = body.get("tokens") if isinstance(body, dict) else None
        if not isinstance(body, dict) or set(body) != {"hex", "tokens"} \
                or isinstance(count, bool) or not isinstance(count, int) or count < 1:
            problems.append(Problem(where, 'expected {place: {hex: "CCRR", tokens: COUNT}}, a '
                                    "count of face-down units of at least 1"))
            continue
        hex_id = hex_in(b, body["hex"], (*where, "place", "hex"), problems)
        if hex_id is None:
            continue
        if b.region[hex_id] != "chechnya":
            problems.append(Problem((*where, "place", "hex"), f"{b.label(hex_id)} is not in "
                                    "Chechnya: the Chechen sets up within Chechnya (4.2.2)"))
        per_hex[hex_id] += count
    regulars, militia = tokens(data)
    if sum(per_hex.values()) != regulars + militia:
        problems.append(Problem(("orders",), f"{sum(per_hex.values())} tokens placed; the Chechen "
                                f"places {regulars} regulars and {militia} militia face down "
                                f"(4.2.2): {regulars + militia}"))
    _stacking(data, b, per_hex, problems)
    _check_regulars(data, b, state, orders.get("secret"), per_hex, regulars, problems)
    return problems


# the secret part of the Chechen's set-up (pbem/orders.py checks its shape, these rules the rest)
SECRET = {
    "description": 'the secret part of the Chechen set-up is regulars: ["CCRR", ...], the hex of '
                   "each regular token (4.2.2)",
    "type": "object", "required": ["regulars"], "additionalProperties": False,
    "properties": {"regulars": {"type": "array"}},
}


def _check_regulars(data: GameData, b: Board, state: State, secret: Any, per_hex: Counter[str],
                    regulars: int, problems: list[Problem]) -> None:
    """The secret part: the hexes of the regular tokens. Sealed when the referee resolves; in
    clear when the player checks the file and when the referee applies it."""
    if isinstance(secret, dict) and "sealed" in secret:
        return
    given = secret.get("regulars") if isinstance(secret, dict) and set(secret) == {"regulars"} else None
    if not isinstance(given, list) or len(given) != regulars:
        problems.append(Problem(("secret",), f"secret: regulars: the hexes of your {regulars} "
                                "regular tokens, one entry a token (the rest are militia)"))
        return
    valid: list[str] = []
    for k, hex_id in enumerate(given):
        if hex_in(b, hex_id, ("secret", "regulars", k), problems) is None:
            continue
        valid.append(hex_id)
        if state["options"].get("setup") == "historical" and b.terrain[hex_id] not in ("town", "city"):
            problems.append(Problem(("secret", "regulars", k), f"{b.label(hex_id)} is not a town "
                                    "or city: the regulars set up in a city or town hex within "
                                    "Chechnya (4.3.2)"))
    for hex_id, n in Counter(valid).items():
        if n > per_hex.get(hex_id, 0):
            problems.append(Problem(("secret", "regulars"), f"{n} regulars in {hex_id}, where "
                                    f"{per_hex.get(hex_id, 0)} tokens are placed"))


def place_russian(data: GameData, state: State, orders: dict[str, Any]) -> list[Event]:
    placed = {u: item["place"]["hex"] for item in orders.get("orders") or []
              for u in item["place"]["units"]}
    return [{"type": "russians_placed", "units": dict(sorted(placed.items()))}]


def token_hexes(orders: dict[str, Any]) -> dict[str, str]:
    """The tokens' ids (t01, t02, ...) in the order the file places them, and their hexes."""
    out: dict[str, str] = {}
    for item in orders.get("orders") or []:
        for _ in range(item["place"]["tokens"]):
            out[f"t{len(out) + 1:02d}"] = item["place"]["hex"]
    return out


def assign(placed: dict[str, str], secret: dict[str, Any], regulars: Sequence[str],
           militia: Sequence[str], stack: Sequence[str]) -> dict[str, str]:
    """Each token's unit. In each hex the regular tokens are the first ones of the hidden
    order `stack` (a shuffle of every token) that stand there, as many as the secret part
    names in that hex, so that a token's id says nothing of what it is (4.2.2: the tokens
    "may not be examined"); then, token by token in id order, the regulars' cup in its drawn
    order to the regular tokens and the militia's cup to the rest."""
    slots = Counter(secret["regulars"])
    chosen: set[str] = set()
    for token in stack:
        if slots[placed[token]] > 0:
            slots[placed[token]] -= 1
            chosen.add(token)
    reg, mil = iter(regulars), iter(militia)
    return {token: next(reg) if token in chosen else next(mil) for token in placed}


def place_chechen(data: GameData, state: State, orders: dict[str, Any],
                  secrets: Secrets) -> list[Event]:
    """The tokens on the map, then their identities drawn and sealed to the Chechen."""
    placed = token_hexes(orders)
    # drawn with the Chechen's own key: they concern him alone, and he can check them at once
    regular_cup = secrets.shuffle("setup:regulars", chechen(data, REGULAR), owner=CHECHEN)
    militia_cup = secrets.shuffle("setup:militia", chechen(data, MILITIA), owner=CHECHEN)
    stack = secrets.shuffle("setup:tokens", list(placed), owner=CHECHEN)  # which tokens are regulars
    secret = orders.get("secret")

    def unit_of(token: str) -> Callable[[Any, Any, Any, Any], str]:
        return lambda s, r, m, k: assign(placed, s, r, m, k)[token]

    nodes = {t: secrets.seal("unit", t, CHECHEN, int(state["turn"]),
                             secrets.compute(unit_of(t), secret, regular_cup, militia_cup, stack))
             for t in placed}
    n_reg, _ = tokens(data)
    return [{"type": "tokens_placed", "tokens": placed},
            {"type": "identities_sealed", "tokens": nodes,
             "cup": len(chechen(data, REGULAR)) - n_reg}]


def bot_russian(data: GameData, state: State, rng: Rng) -> dict[str, Any]:
    """Each at-start unit in a random hex its rule allows, within the stacking limits."""
    b = board(data)
    per_hex: Counter[str] = Counter()
    places: dict[str, list[str]] = {}
    for unit in at_start(data):
        allowed, _ = russian_allowed(data, state["options"], unit)
        room = [h for h in allowed if per_hex[h] < stacking(data, b, h)]
        hex_id = rng.choice(f"bot:setup:{unit}", room)
        per_hex[hex_id] += 1
        places.setdefault(hex_id, []).append(unit)
    return {"orders": [{"place": {"hex": h, "units": us}} for h, us in sorted(places.items())]}


def bot_chechen(data: GameData, state: State, rng: Rng) -> dict[str, Any]:
    """Tokens in random hexes of Chechnya within the stacking limits; the regulars among the
    first placed in towns and cities when the historical set-up asks for it."""
    b = board(data)
    regulars, militia = tokens(data)
    chechnya = sorted(h for h, r in b.region.items() if r == "chechnya")
    urban = [h for h in chechnya if b.terrain[h] in ("town", "city")]
    per_hex: Counter[str] = Counter()
    chosen: list[str] = []
    for k in range(regulars + militia):
        pool = urban if (k < regulars and state["options"].get("setup") == "historical") else chechnya
        room = [h for h in pool if per_hex[h] < stacking(data, b, h)]
        hex_id = rng.choice(f"bot:setup:token{k}", room)
        per_hex[hex_id] += 1
        chosen.append(hex_id)
    return {"orders": [{"place": {"hex": h, "tokens": n}} for h, n in sorted(per_hex.items())],
            "secret": {"regulars": sorted(chosen[:regulars])}}


def start(data: GameData, options: dict[str, Any]) -> State:
    """The position before the set-up (its keys: the game's docstring, rules/__init__.py):
    the campaign's options, each not given at its default; each side's support markers;
    nothing yet on the map."""
    chosen = {k: options.get(k, v["default"]) for k, v in data["game"].get("options", {}).items()}
    supports: dict[str, dict[str, int]] = {RUSSIAN: {}, CHECHEN: {}}
    for marker in data["units"]["support_markers"].values():
        side = supports[marker["side"]]
        side[marker["kind"]] = side.get(marker["kind"], 0) + int(marker["count"])
    return {
        "turn": 0, "phase": "setup-russian", "options": chosen,
        "russians": {}, "tokens": {}, "cup": 0,
        "pool": sorted(u for u, v in units(data).items()
                       if v["side"] == RUSSIAN and v.get("arrival") == "reinforcement"),
        "morale": 9, "casualties": 0, "collateral": 0,  # 4.4
        "leaders": {leader: "underground" for leader in data["units"]["leaders"]},  # 4.2.2
        "supports": supports, "used_supports": {RUSSIAN: {}, CHECHEN: {}},
        "gunships": [], "standing": {},
        "attacks": [], "groznyi_attacked": False, "cup_known": [], "leaders_lost": 0,
        "recruits": {RUSSIAN: [], CHECHEN: []}, "ceasefire": {"declared": False, "turn": None},
        "kidnapped": False, "event": None,
        "over": False, "result": None,
    }


def check_data(data: GameData) -> list[str]:
    """What is wrong in the game's data beyond its schemas: the map unreadable, a
    historical group's hex off the map (4.3.1), a terrain of map.yaml with no entry in
    tables.yaml, more units drawn face down than the cups hold (4.2.2)."""
    problems: list[str] = []
    try:
        b = board(data)
    except (ValueError, KeyError) as exc:
        return [str(exc)]
    for group, spec in data["units"]["setup"]["groups"].items():
        if spec.get("hex") is not None and spec["hex"] not in b.terrain:
            problems.append(f"units.yaml: setup: groups: {group}: hex {spec['hex']} is not on the map")
    for terrain in set(b.terrain.values()):
        if terrain not in data["tables"]["terrain"]:
            problems.append(f"tables.yaml: terrain: no entry for {terrain!r}, a terrain of map.yaml")
    regulars, militia = tokens(data)
    if regulars > len(chechen(data, REGULAR)) or militia > len(chechen(data, MILITIA)):
        problems.append("units.yaml: setup: chechen: more units drawn than the cups hold")
    return problems


SIDES = (RUSSIAN, CHECHEN)


def _russians_placed(data: GameData, state: State, event: Event) -> None:
    for unit, hex_id in event["units"].items():
        state["russians"][unit] = {"hex": hex_id, "reduced": False}


def _tokens_placed(data: GameData, state: State, event: Event) -> None:
    for token, hex_id in event["tokens"].items():
        state["tokens"][token] = {"hex": hex_id}
    state["tokens_made"] = len(state["tokens"])


def _identities_sealed(data: GameData, state: State, event: Event) -> None:
    for token, node in event["tokens"].items():
        if token not in state["tokens"]:
            raise ValueError(f"no token {token} on the map")
        state["tokens"][token]["unit"] = node
    state["cup"] = int(event["cup"])


APPLY: dict[str, Apply[GameData]] = {"russians_placed": _russians_placed, "tokens_placed": _tokens_placed,
                                     "identities_sealed": _identities_sealed}


def _told_russians_placed(data: GameData, event: Event) -> str:
    hexes = len(set(event["units"].values()))
    return f"the Russian sets up {len(event['units'])} units in {hexes} hexes"


def _told_tokens_placed(data: GameData, event: Event) -> str:
    hexes = len(set(event["tokens"].values()))
    return (f"the Chechen places {len(event['tokens'])} units face down in {hexes} hexes "
            "of Chechnya")


DESCRIBE: dict[str, Describe[GameData]] = {
    "russians_placed": _told_russians_placed,
    "tokens_placed": _told_tokens_placed,
    "identities_sealed": Told("the face-down units are drawn from the cups and sealed to the "
                              "Chechen; {cup} regulars stay in the cup", "4.2.2"),
}
