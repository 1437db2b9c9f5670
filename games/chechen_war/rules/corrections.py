"""The moderator's corrections (`pbem adjust FILE --reason TEXT`, README "Corrections"): each
a validated event, recorded with its reason, replayed by `pbem audit` and told in every report.

    - {type: set_russian, unit: UNIT, hex: "CCRR", reduced: false}
      a Russian unit placed or moved (hex), or taken off the map (hex: null), its side flipped
      (reduced); either key may be left out
    - {type: remove_token, token: tNN}     a face-down Chechen unit off the map, back to the
      cup unseen (which unit it is stays sealed); a leader left alone goes underground (11.0)
    - {type: move_token, token: tNN, hex: "CCRR"}   a Chechen unit moved to another hex (face
      down or up as it is); a leader left alone goes underground (11.0)
    - {type: set_leader, leader: LEADER, where: "CCRR" | underground | next_turn | eliminated}
    - {type: set_track, track: morale | casualties | collateral, value: N}
    - {type: set_markers, side: russian | chechen, kind: KIND, count: N}   support markers
    - {type: phase, phase: SEGMENT, turn: N}   the game moved to a segment of a turn
    - {type: reveal_token, token: tNN}   a face-down unit turned face up: pbem opens its
      sealed identity and publishes the opening with the step, so that anyone's audit checks
      it is the unit sealed at the draw (`unit: UNIT` may be given: then it must be that one)
    - {type: hide_token, token: tNN}     a face-up unit turned face down again: its identity
      sealed anew to the Chechen and the referee (what was seen stays seen)

A mistake is refused with what was expected; nothing is recorded then. No correction names
which unit a face-down token is: only its sealed value can (reveal_token).
"""

from __future__ import annotations

from typing import Any

from pbem.game import Event, GameData, Secrets, State
from pbem.kit.corrections import count, fields
from pbem.kit.events import Apply, Describe
from pbem.names import suggest

from . import leaders
from .board import CHECHEN, RUSSIAN, board, units

KINDS = ("set_russian", "remove_token", "move_token", "set_leader", "set_track", "set_markers", "reveal_token",
         "hide_token")
TRACKS = ("morale", "casualties", "collateral")
BOXES = ("underground", "next_turn", "eliminated")
def _hex(data: GameData, value: Any, what: str) -> str:
    b = board(data)
    if not isinstance(value, str) or value not in b.terrain:
        raise ValueError(f"{what}: expected a hex of the map as quoted text (\"1325\"), not {value!r}")
    return value


def check_phase(event: Event, segments: list[str]) -> None:
    """The game's own `phase` event, as a correction gives it: a known segment, a turn >= 0."""
    if event.get("phase") not in segments:
        raise ValueError(f"phase: {event.get('phase')!r} is not a segment"
                         f"{suggest(str(event.get('phase')), segments)} (segments: {', '.join(segments)})")
    if isinstance(event.get("turn"), bool) or not isinstance(event.get("turn"), int) or event["turn"] < 0:
        raise ValueError(f"turn: expected a turn 0 or more, not {event.get('turn')!r}")


def _token(state: State, event: Event, face_up: bool) -> str:
    token = event.get("token")
    if token not in state["tokens"]:
        raise ValueError(f"token: {token!r} is not on the map{suggest(str(token), sorted(state['tokens']))}")
    up = isinstance(state["tokens"][token].get("unit"), str)
    if up != face_up:
        raise ValueError(f"token: {token} is face {'down' if face_up else 'up'} already")
    return str(token)


def correct(data: GameData, state: State, event: Event, secrets: Secrets | None) -> list[Event]:
    """A correction as it is recorded: reveal_token with the unit its sealed value opens to,
    hide_token with the unit sealed anew; any other as it is."""
    kind = event.get("type")
    if kind not in ("reveal_token", "hide_token"):
        return [event]
    fields(event, {"token"}, frozenset({"unit"}))
    if secrets is None:
        raise ValueError(f"{kind} needs the referee's keys")
    if kind == "reveal_token":
        token = _token(state, event, face_up=False)
        unit = str(secrets.open(state["tokens"][token]["unit"]))
        if "unit" in event and event["unit"] != unit:
            raise ValueError(f"unit: {token} is sealed as {unit}, not {event['unit']!r}")
        return [{"type": "reveal_token", "token": token, "unit": unit}]
    token = _token(state, event, face_up=True)
    unit = state["tokens"][token]["unit"]
    if "unit" in event and not (isinstance(event["unit"], dict) or event["unit"] == unit):
        raise ValueError(f"unit: {token} is {unit}, not {event['unit']!r}")
    return [{"type": "hide_token", "token": token,
             "unit": secrets.seal("unit", token, CHECHEN, int(state["turn"]), unit)}]


def _apply(data: GameData, state: State, event: Event) -> None:
    """Fold a correction into `state` (a copy the caller owns)."""
    kind = event["type"]
    if kind == "set_russian":
        fields(event, {"unit"}, frozenset({"hex", "reduced"}))
        unit = event["unit"]
        russians = sorted(u for u, v in units(data).items() if v["side"] == RUSSIAN)
        if unit not in russians:
            raise ValueError(f"unit: {unit!r} is not a Russian unit{suggest(str(unit), russians)}")
        if "hex" in event and event["hex"] is None:
            state["russians"].pop(unit, None)
            return
        where = state["russians"].get(unit) or {"hex": None, "reduced": False}
        if "hex" in event:
            where["hex"] = _hex(data, event["hex"], "hex")
        if where["hex"] is None:
            raise ValueError(f"hex: {unit} is not on the map: give the hex to place it in")
        if "reduced" in event:
            if not isinstance(event["reduced"], bool):
                raise ValueError(f"reduced: expected true or false, not {event['reduced']!r}")
            where["reduced"] = event["reduced"]
        state["russians"][unit] = where
    elif kind in ("remove_token", "move_token"):
        fields(event, {"token", "hex"} if kind == "move_token" else {"token"})
        token = event["token"]
        if token not in state["tokens"]:
            raise ValueError(f"token: {token!r} is not on the map{suggest(str(token), sorted(state['tokens']))}")
        if kind == "move_token":
            where = _hex(data, event["hex"], "hex")
            if any(r["hex"] == where for r in state["russians"].values()):
                raise ValueError(f"hex: {where} holds Russian units: a Chechen unit cannot stand "
                                 "with them")
            state["tokens"][token]["hex"] = where
        else:
            del state["tokens"][token]
            state["cup"] = int(state["cup"]) + 1
        alone = leaders.stranded(state)  # 11.0: a leader left alone goes back underground
        if alone is not None:
            leaders.APPLY[leaders.EVENT](data, state, alone)
    elif kind == "set_leader":
        fields(event, {"leader", "where"})
        leader = event["leader"]
        if leader not in state["leaders"]:
            raise ValueError(f"leader: {leader!r} is not a Chechen leader{suggest(str(leader), sorted(state['leaders']))}")
        where = event["where"]
        if where not in BOXES:
            where = _hex(data, where, f"where (a hex, or one of {', '.join(BOXES)})")
            if not any(t["hex"] == where for t in state["tokens"].values()):
                raise ValueError(f"where: {where} holds no Chechen unit: a leader stands only "
                                 "with Chechen units or in a box (11.0)")
        state["leaders"][leader] = where
    elif kind == "reveal_token":  # as `correct` records it: the unit opened
        fields(event, {"token", "unit"})
        token = _token(state, event, face_up=False)
        if event["unit"] not in units(data) or units(data)[event["unit"]]["side"] != CHECHEN:
            raise ValueError(f"unit: {event['unit']!r} is not a Chechen unit")
        state["tokens"][token].update(unit=event["unit"], revealed=True)
    elif kind == "hide_token":  # as `correct` records it: the unit sealed anew
        fields(event, {"token", "unit"})
        token = _token(state, event, face_up=True)
        if not isinstance(event["unit"], dict):
            raise ValueError("unit: a face-down unit's identity is sealed (write hide_token "
                             "with the token alone)")
        state["tokens"][token]["unit"] = event["unit"]
        state["tokens"][token].pop("revealed", None)
    elif kind == "set_track":
        fields(event, {"track", "value"})
        if event["track"] not in TRACKS:
            raise ValueError(f"track: {event['track']!r} is not one of {', '.join(TRACKS)}")
        state[event["track"]] = count(event["value"], "value")
    else:
        fields(event, {"side", "kind", "count"})
        side = event["side"]
        if side not in (RUSSIAN, CHECHEN):
            raise ValueError(f"side: expected russian or chechen, not {side!r}")
        known = sorted({m["kind"] for m in data["units"]["support_markers"].values() if m["side"] == side})
        if event["kind"] not in known:
            raise ValueError(f"kind: {event['kind']!r} is not a {side} marker{suggest(str(event['kind']), known)} "
                             f"(kinds: {', '.join(known)})")
        state["supports"][side][event["kind"]] = count(event["count"], "count")


APPLY: dict[str, Apply[GameData]] = dict.fromkeys(KINDS, _apply)


def _told(data: GameData, event: Event) -> str:
    kind = event["type"]
    if kind == "set_russian":
        name = units(data)[event["unit"]]["name"]
        if "hex" in event and event["hex"] is None:
            return f"correction: {name} taken off the map"
        parts = ([f"in {board(data).label(event['hex'])}"] if "hex" in event else []) + (
            ["reduced" if event["reduced"] else "at full strength"] if "reduced" in event else [])
        return f"correction: {name} {', '.join(parts)}"
    if kind == "remove_token":
        return f"correction: face-down unit {event['token']} taken off the map, back to the cup"
    if kind == "move_token":
        return f"correction: Chechen unit {event['token']} moved to {board(data).label(event['hex'])}"
    if kind == "set_leader":
        where = event["where"]
        shown = {"underground": "the Underground Box", "next_turn": "the next Game Turn Box",
                 "eliminated": "eliminated"}.get(where) or board(data).label(where)
        return f"correction: {data['units']['leaders'][event['leader']]['name']}: {shown}"
    if kind == "reveal_token":
        return f"correction: face-down unit {event['token']} turned face up: {units(data)[event['unit']]['name']}"
    if kind == "hide_token":
        return f"correction: {event['token']} turned face down again"
    if kind == "set_track":
        return f"correction: {event['track']} set to {event['value']}"
    return f"correction: the {event['side']} has {event['count']} {event['kind']} marker(s)"


DESCRIBE: dict[str, Describe[GameData]] = dict.fromkeys(KINDS, _told)
