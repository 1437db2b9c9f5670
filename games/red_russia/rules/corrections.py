"""The moderator's corrections to the cards (`pbem adjust FILE --reason TEXT`, README
"Corrections"): a card in a hand is sealed to its player, so a correction that takes one out
or puts one in opens or seals it, as the card phase does (14.4, 14.5).

    - {type: discard_card, holder: FACTION, card: CARD, to: discard | removed}
      the card out of the player's hand, face up to the discards (or out of the game, `to:
      removed`): pbem opens the sealed card that holds it and publishes the opening with
      the step, so that anyone's audit checks that the player did hold it
    - {type: give_card, holder: FACTION, card: CARD}
      a face-up card (in the discards, or out of the game) into the player's hand, sealed
      to him and the referee anew (everyone saw which card it was; only its later use is
      hidden again)

`holder` is the faction the player's one hand is kept under (14.3). The card phase's own
discards stay `cards_discarded` events; these are corrections, told as such. A mistake is
refused with what was expected; nothing is recorded then.
"""

from __future__ import annotations

from pbem.game import Event, GameData, Secrets, State
from pbem.kit.corrections import fields
from pbem.kit.events import Apply, Describe
from pbem.names import suggest

from .board import Board
from .cards import deck, holder

KINDS = ("discard_card", "give_card")
PLACES = ("discard", "removed")  # where a face-up card lies


def _holder(data: GameData, state: State, event: Event) -> str:
    who = event.get("holder")
    factions = [f["id"] for f in data["game"]["factions"]]
    if who not in factions:
        raise ValueError(f"holder: {who!r} is not a major faction{suggest(str(who), factions)}")
    if holder(state, str(who)) != who:
        raise ValueError(f"holder: the cards of {who} are held under {holder(state, str(who))} "
                         "(14.3: one hand a player)")
    return str(who)


def _card(data: GameData, event: Event) -> str:
    card = event.get("card")
    known = sorted(deck(data))
    if card not in known:
        raise ValueError(f"card: {card!r} is not a card of the deck{suggest(str(card), known)}")
    return str(card)


def _face_up(state: State, card: str) -> str:
    """Where a face-up card lies (the discards, or out of the game)."""
    cards = state["cards"]
    for place in PLACES:
        if card in cards[place]:
            return place
    raise ValueError(f"card: {card} is neither among the discards nor out of the game: only a "
                     "face-up card can be given (one in a hand or the pile is sealed)")


def correct(data: GameData, state: State, event: Event, secrets: Secrets | None) -> list[Event]:
    """A correction as it is recorded: discard_card with the slot its sealed card opened
    from, give_card with the card sealed anew; any other as it is."""
    kind = event.get("type")
    if kind not in KINDS:
        return [event]
    if kind == "discard_card":
        fields(event, {"holder", "card"}, frozenset({"to", "slot"}))
    else:
        fields(event, {"holder", "card"}, frozenset({"from", "node"}))
    who, card = _holder(data, state, event), _card(data, event)
    if secrets is None:
        raise ValueError(f"{kind} needs the referee's keys")
    if kind == "discard_card":
        to = event.get("to", "discard")
        if to not in PLACES:
            raise ValueError(f"to: expected discard or removed, not {to!r}")
        hand = state["cards"]["hands"].get(who, [])
        found = secrets.reveal_where(hand, lambda value: value == card, first=True)
        if not found:
            raise ValueError(f"card: {who} holds no {card}")
        slot = found[0][0]["id"]
        if "slot" in event and event["slot"] != slot:
            raise ValueError(f"slot: {card} is {who}'s card {slot}, not {event['slot']!r}")
        return [{"type": kind, "holder": who, "card": card, "slot": slot, "to": to}]
    where = _face_up(state, card)
    if event.get("from", where) != where:
        raise ValueError(f"from: {card} lies in {where}, not {event['from']!r}")
    node = secrets.seal("card", f"c{int(state['cards']['dealt']) + 1}", who, int(state["turn"]), card)
    return [{"type": kind, "holder": who, "card": card, "from": where, "node": node}]


def _apply(b: Board, state: State, event: Event) -> None:
    """Fold a correction as `correct` records it into `state` (a copy the caller owns)."""
    cards = state["cards"]
    if event["type"] == "discard_card":
        fields(event, {"holder", "card", "slot", "to"})
        hand = cards["hands"].get(event["holder"], [])
        if not any(node["id"] == event["slot"] for node in hand):
            raise ValueError(f"slot: {event['holder']} holds no card {event['slot']}")
        if event["to"] not in PLACES:
            raise ValueError(f"to: expected discard or removed, not {event['to']!r}")
        cards["hands"][event["holder"]] = [n for n in hand if n["id"] != event["slot"]]
        cards[event["to"]] = [*cards[event["to"]], event["card"]]
        return
    fields(event, {"holder", "card", "from", "node"})
    node = event["node"]
    if not isinstance(node, dict) or node.get("kind") != "card" or node.get("owner") != event["holder"]:
        raise ValueError(f"node: expected the card sealed to {event['holder']} (write give_card "
                         "with the holder and the card alone)")
    if event["card"] not in cards.get(event["from"], []):
        raise ValueError(f"from: {event['card']} is not in {event['from']}")
    cards[event["from"]] = [c for c in cards[event["from"]] if c != event["card"]]
    cards["hands"].setdefault(event["holder"], []).append(node)
    cards["dealt"] = int(cards["dealt"]) + 1


APPLY: dict[str, Apply[Board]] = dict.fromkeys(KINDS, _apply)


def _told(b: Board, event: Event) -> str:
    if event["type"] == "discard_card":
        to = "out of the game" if event["to"] == "removed" else "to the discards"
        return f"correction: {event['card']} out of {event['holder']}'s hand, {to}"
    source = "the discards" if event["from"] == "discard" else "the cards out of the game"
    return f"correction: {event['card']} from {source} into {event['holder']}'s hand, sealed to the player"


DESCRIBE: dict[str, Describe[Board]] = dict.fromkeys(KINDS, _told)
