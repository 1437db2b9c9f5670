"""The end of the turn answered ahead (a ruling: README.md, "Rulings of the end of the turn";
the campaign option `end_of_turn`, `ahead` unless set to `asked`).

By mail the End of Turn Phase would cost each side a fourth file in most turns, for choices
that are rare (the Russian's ceasefire, 15.1; the Chechen's kidnapping, 6.3) or standing
preferences (the Russian's reinforcement picks, 13.1; the leader a random event strikes, 12.0).
So each side gives its End of Turn orders in the secret part of its files of the turn::

    secret:
      end_of_turn:
        - ceasefire: true
        - reinforce: [ru_vityaz]

in the Russian's movement, combat or supports file, the Chechen's movement file (his last of
the turn). Every such file's step seals what it gives (nothing, when it gives none) to the side
and the referee, so that nobody learns whether, or what, the other side chose; the End of Turn
Phase asks nobody, opens the turn's sealed orders, and takes each side's latest given. They
are read as if sent then: an item no longer possible (a reduced unit eliminated since, a
ceasefire already declared) is passed over, as the Russian's picks beyond those that arrive are.
"""

from __future__ import annotations

from typing import Any

from pbem.game import Event, GameData, Problem, Rng, Secrets, State
from pbem.kit.events import Apply, Describe

from . import endturn
from .board import CHECHEN, RUSSIAN
from .combat import AHEAD as KEY

OPTION = "end_of_turn"
# the segments whose files carry a side's End of Turn orders ahead
PHASES = {RUSSIAN: ("russian-movement", "russian-combat", "russian-supports"),
          CHECHEN: ("chechen-movement",)}
PART = {"type": "array", "items": {"type": "object"},
        "description": "your End of Turn orders, as that segment's file would give them"}
SEALED = "end_of_turn_sealed"    # {side, orders: sealed node}: one per file of PHASES
OPENED = "end_of_turn_opened"    # {side, orders: [...] or None}: the latest given, published


def schema(base: dict[str, Any] | None, description: str) -> dict[str, Any]:
    """A phase's secret part with the End of Turn orders beside what it held before."""
    properties = dict((base or {}).get("properties") or {})
    return {"description": description, "type": "object", "additionalProperties": False,
            "properties": {**properties, KEY: PART}}


def on(state: State) -> bool:
    """Whether this campaign gives the end of the turn ahead (a campaign begun before the
    option existed has none recorded: asked, as it was)."""
    return bool((state.get("options") or {}).get(OPTION, "asked") == "ahead")


def given(secret: Any) -> Any:
    """The End of Turn orders a secret part gives, or None."""
    return secret.get(KEY) if isinstance(secret, dict) else None


def check(data: GameData, state: State, side: str, orders: dict[str, Any],
          problems: list[Problem]) -> None:
    """The End of Turn orders of a file's secret part, checked against the position now
    (where the reader holds it in plain)."""
    value = given(orders.get("secret"))
    if value is None or (isinstance(orders.get("secret"), dict) and "sealed" in orders["secret"]):
        return
    if not on(state):
        problems.append(Problem(("secret", KEY), "this campaign asks for the end of the turn in its "
                                "own file (option end_of_turn: asked): leave end_of_turn out here"))
        return
    if not isinstance(value, list):
        problems.append(Problem(("secret", KEY), "expected a list of End of Turn orders"))
        return
    found: list[Problem] = []
    endturn.read_orders(data, state, side, {"orders": value}, found)
    problems.extend(Problem(("secret", KEY, *p.path[1:]), p.message) for p in found)


def seal(state: State, side: str, secret: Any, secrets: Secrets | None) -> list[Event]:
    """The step of a file of PHASES: what it gives of the end of the turn, sealed (None when
    nothing); no event where the campaign asks for the end of the turn in its own file."""
    if not on(state):
        return []
    if secrets is None:
        raise ValueError("the End of Turn orders given ahead are sealed: they need the secrets")
    value = secrets.compute(given, secret if secret is not None else {})
    node = secrets.seal(KEY, f"t{state['turn']}:{state['phase']}", side, int(state["turn"]), value)
    return [{"type": SEALED, "side": side, "orders": node}]


def bot(data: GameData, state: State, side: str, rng: Rng, orders: dict[str, Any]) -> dict[str, Any]:
    """The bot's file with its End of Turn choices given ahead (endturn.bot), where the campaign
    takes them so."""
    if not on(state):
        return orders
    chosen = endturn.bot(data, state, side, rng)["orders"]
    if not chosen:
        return orders
    secret = orders.get("secret")
    return {**orders, "secret": {**(secret if isinstance(secret, dict) else {}), KEY: chosen}}


def without(orders: dict[str, Any]) -> dict[str, Any]:
    """A file without End of Turn orders (a template's choice is the player's)."""
    secret = orders.get("secret")
    if not isinstance(secret, dict) or KEY not in secret:
        return orders
    rest = {k: v for k, v in secret.items() if k != KEY}
    out = {k: v for k, v in orders.items() if k != "secret"}
    return {**out, "secret": rest} if rest else out


def idle(state: State, side: str) -> str | None:
    if not on(state):
        return None
    where = {RUSSIAN: "his movement, combat or supports file",
             CHECHEN: "his movement file"}[side]
    return (f"his End of Turn orders came ahead, sealed in {where} of the turn "
            "(campaign option end_of_turn: ahead)")


def opened(data: GameData, state: State, secrets: Secrets | None) -> tuple[list[Event], dict[str, dict[str, Any]]]:
    """Each side's sealed orders of the turn opened (published); the latest given, read as if
    sent now (endturn.read_orders), by side."""
    events: list[Event] = []
    orders: dict[str, dict[str, Any]] = {}
    for side in (RUSSIAN, CHECHEN):
        nodes = (state.get("ahead") or {}).get(side) or []
        if nodes and secrets is None:
            raise ValueError("the End of Turn orders given ahead are sealed: they need the secrets")
        values = [secrets.open(node) for node in nodes] if secrets is not None else []
        latest = next((v for v in reversed(values) if v is not None), None)
        events.append({"type": OPENED, "side": side, "orders": latest})
        # read now, what is no longer possible passed over: a pick that cannot be made, a
        # once-a-game choice made already (the reading's problems are not the player's now)
        orders[side] = endturn.read_orders(data, state, side, {"orders": latest or []}, [])
    return events, orders


def _sealed(data: GameData, state: State, event: Event) -> None:
    ahead = state.setdefault("ahead", {})
    ahead[event["side"]] = [*(ahead.get(event["side"]) or []), event["orders"]]


def _opened(data: GameData, state: State, event: Event) -> None:
    (state.get("ahead") or {}).pop(event["side"], None)


APPLY: dict[str, Apply[GameData]] = {SEALED: _sealed, OPENED: _opened}


def _who(event: Event) -> str:
    return {RUSSIAN: "the Russian", CHECHEN: "the Chechen"}.get(str(event.get("side")), "")


def _told_sealed(data: GameData, event: Event) -> str:
    return f"{_who(event)}'s End of Turn orders for this turn, if any, sealed until the End of Turn Phase"


def _told_opened(data: GameData, event: Event) -> str:
    if not event["orders"]:
        return f"{_who(event)} gave no End of Turn orders ahead"
    return f"{_who(event)}'s End of Turn orders, given ahead: " + "; ".join(
        f"{k}: {', '.join(map(_entry, v)) if isinstance(v, list) else v}"
        for item in event["orders"] for k, v in item.items())


def _entry(value: Any) -> str:
    """A pick as a player reads it: a unit's id, or `flip UNIT`."""
    return " ".join(f"{k} {v}" for k, v in value.items()) if isinstance(value, dict) else str(value)


DESCRIBE: dict[str, Describe[GameData]] = {SEALED: _told_sealed, OPENED: _told_opened}
