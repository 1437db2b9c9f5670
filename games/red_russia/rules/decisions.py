"""Decisions put to a player by mail: when no standing instruction answers a question the
rules ask, or the player's standing instruction is `ask`, pbem stops and waits for that
player's answer (a phase of its own, `decision`, with the campaign's deadline and NMR
policy), then carries on where it stopped.

Two questions can be asked:
- **8.4 retreat before combat.** Asked of every major faction defending a battle the
  active player declared, once the moves are made and before the first battle, when its
  standing `retreat_before_combat` is `ask` (not given, it is `never`: the defender stands
  and fights, as an unanswered question would, and no round trip is spent). The battles then follow
  in their order with the answers (`decide: {zone, retreat, to}`; `to` may name a sea
  area for a retreat by sea with a fleet in the port, 8.4). Face to face the
  defender decides just before each battle; by mail all of one phase's questions are
  asked at once, so an answer cannot depend on an earlier battle of the same phase.
- **10.8.1 Lenin's initiative modifier.** Asked of the Reds in the initiative phase when
  Lenin is in Moscow and their standing `lenin_initiative` is `ask` (the rulebook's
  default, without an instruction, is no modifier, so pbem does not ask then).

Everything else a battle asks (which unit takes a loss, a voluntary retreat, Stalin's
commissars, how long an invasion lasts) has a rule-given default that standing
instructions change; see ORDERS.md.
"""

from __future__ import annotations

from typing import Any

from pbem.game import Event, Problem, State
from pbem.kit import ask
from pbem.kit.events import Describe, Ruled
from pbem.kit.orders import order_items

from .board import MAJORS, Board
from .common import Path_, allegiance, defenders_of

ASK = "ask"
ASKABLE = ("retreat_before_combat", "lenin_initiative")


def retreat_questions(state: State, actor: str, specs: list[dict[str, Any]],
                      answers: dict[str, Any], b: Board | None = None, data: Any = None,
                      ) -> tuple[list[dict[str, Any]], list[Event]]:
    """8.4: the defenders of the declared battles who must be asked, and a note for each
    one not asked because no retreat before combat is open to it (it stands and fights)."""
    from .naval import retreat_before_possible

    out = []
    notes: list[Event] = []
    for spec in specs:
        zone = spec["zone"]
        # a minor's units answer through its controller (12.12)
        for faction in sorted({allegiance(state, f) for f in defenders_of(state, zone, actor)}):
            if faction not in MAJORS or faction in answers.get(zone, {}):
                continue
            # asked only when the player asked to be: without the instruction a defender
            # stands and fights, as an unanswered question would (README ruling 31)
            if state["standing"].get(faction, {}).get("retreat_before_combat") != ASK:
                continue
            why = retreat_before_possible(b, data, state, actor, spec, faction) if b else None
            if why is not None:  # no legal answer but to stand: nothing to ask
                notes.append({"type": "note", "zone": zone, "text": f"{faction} is not asked "
                              f"whether to retreat before combat at {zone}: {why}"})
                continue
            out.append({"faction": faction, "zone": zone, "attacker": actor,
                        "question": "retreat_before_combat", "rule": "8.4"})
    return out, notes


def lenin_asked(state: State) -> bool:
    from .turn import lenin_in_moscow

    return bool(lenin_in_moscow(state)
                and state["standing"].get("red", {}).get("lenin_initiative") == ASK
                and "red" not in state["defeated"])


def awaiting(state: State) -> tuple[str, ...]:
    return ask.awaiting(state)


def prompt(state: State) -> str:
    return "; ".join(f"{q['faction']}: {q['attacker']} attacks {q['zone']}; retreat before "
                     "combat? (8.4)" for q in ask.questions(state))


def validate(state: State, faction: str, body: dict[str, Any], b: Board) -> list[Problem]:
    """`- decide: {zone: Kazan, retreat: true, to: [Tver]}` for each battle asked about;
    a battle left unanswered is fought (the rulebook has no default; staying is the only
    choice that is always legal). `to` may name a sea area (8.4 by sea)."""
    problems: list[Problem] = []
    answering = ask.Answering(state, faction, "zone")
    for i, _verb, arg in order_items(body, ("decide",), problems):
        path: tuple[str | int, ...] = ("orders", i, "decide")
        if not isinstance(arg, dict) or not isinstance(arg.get("zone"), str):
            problems.append(Problem(path, "decide: {zone: ZONE, retreat: true|false, to: [ZONES]}"))
            continue
        answering.check(path, arg["zone"], problems)
        if not isinstance(arg.get("retreat"), bool):
            problems.append(Problem(path + ("retreat",), "retreat is true or false"))
        to = arg.get("to", [])
        if not isinstance(to, list) or not all(isinstance(z, str) for z in to):
            problems.append(Problem(path + ("to",), "to is a list of zones, in order of preference"))
        else:
            check_retreat_places(b, to, path + ("to",), problems)
    return problems


def check_retreat_places(b: Board, names: Any, path: Path_, problems: list[Problem]) -> None:
    """8.4, 8.7: the places of a `retreat_to` (standing) or of a decision's `to`: land zones,
    a sea area (Black Sea, Baltic Sea, White Sea, Sea of Japan) for a retreat by sea
    before combat with a fleet in the port (8.4, 7.5), or a waiting box, taken only by units
    forced to retreat from where they landed from it this phase (7.8). Not a list: reported
    elsewhere."""
    if not isinstance(names, list):
        return
    seas = ", ".join(b.seas)
    for j, text in enumerate(names):
        if not isinstance(text, str):
            continue
        name = b.places.get(text)
        if name is None:
            problems.append(Problem((*path, j), f"unknown zone or sea {text!r}"
                                                f"{b.places.suggest(text)} (a retreat goes to a "
                                                f"land zone, by sea to one of: {seas} (8.4), or back "
                                                "into the waiting box the units landed from (7.8))"))
        elif name not in b.zones and name not in b.seas and name not in b.boxes:  # the Caspian (7.7): no fleet sails it
            problems.append(Problem((*path, j), f"no fleet sails the {name} (7.7): a retreat by sea "
                                                f"goes with a fleet to one of: {seas} (8.4)"))


def answers(orders: dict[str, Any]) -> dict[str, dict[str, dict[str, Any]]]:
    """{zone: {faction: standing for that battle}} from the `decide` orders."""
    out: dict[str, dict[str, dict[str, Any]]] = {}
    for faction, body in sorted(orders.items()):
        for _i, _verb, arg in order_items(body, ("decide",), []):
            rules: dict[str, Any] = {"retreat_before_combat": "always" if arg["retreat"] else "never"}
            if arg.get("to"):
                rules["retreat_to"] = list(arg["to"])
            out.setdefault(arg["zone"], {})[faction] = rules
    return out


def answered_event(state: State, given: dict[str, Any]) -> Event:
    """The answers, and for a question nobody answered the battle fought (retreat before
    combat never: the only choice that is always legal)."""
    return ask.answered(state, given, "zone", lambda q: {"retreat_before_combat": "never"})


def asked_event(actor: str, body: dict[str, Any], questions: list[dict[str, Any]]) -> Event:
    """The action phase stops here: the rest of the actor's orders wait for the answers."""
    rest = {k: v for k, v in body.items() if k not in ("orders", "standing")}
    rest["orders"] = [item for item in body.get("orders") or []  # the moves, searches
                      if isinstance(item, dict) and set(item) & {"attack", "siege"}]  # are done
    return ask.ask(actor, rest, questions)


def apply_asked(_b: Any, s: State, e: Event) -> None:
    ask.apply_asked(s, e)
    s["phase"] = "decision"


def apply_answered(_b: Any, s: State, e: Event) -> None:
    ask.apply_answered(s, e)
    s["phase"] = "action"  # the actor's phase goes on where it stopped


def _told_asked(b: Board, e: Event) -> str:
    asked = "; ".join(f"{q['faction']} about {q['zone']}" for q in e["questions"])
    return f"{e['actor']}'s battles wait for the defenders' answers (8.4): {asked}"


def _told_answered(b: Board, e: Event) -> str:
    told = "; ".join(f"{z}: {f} {'retreats' if r['retreat_before_combat'] == 'always' else 'stands'}"
                     f"{'' if given else ' (no answer)'}"
                     for z, by in sorted(e["answers"].items()) for f, r in sorted(by.items())
                     for given in [f in e.get("given", {}).get(z, {})])
    return f"answers before combat (8.4): {told}"


DESCRIBE: dict[str, Describe[Board]] = {
    "asked": Ruled(_told_asked, "8.4"), "answered": Ruled(_told_answered, "8.4")}


APPLY = {"asked": apply_asked, "answered": apply_answered}


def standing_ok(key: str, value: Any) -> bool:
    """`ask` is a value of the instructions pbem can ask about."""
    return key in ASKABLE and value == ASK
