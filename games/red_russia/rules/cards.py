"""Event cards: the deal (4.1), the card phase (4.1, 14.1-14.5) and the winter reshuffle
(14.8), with every hand sealed to its player (docs/design.md "What stays secret").

The deck is cards.yaml (RECONSTRUCTED, see its header). What the state holds, all of it
public except what is sealed:

    cards:
      pile      the draw pile in order, sealed to the referee alone (kind deck)
      size      cards in the pile when it was shuffled; drawn: how many were drawn since
      shuffles  how many times the pile was made
      hands     {holder: [sealed card nodes]}: each card sealed to its player and the
                referee, opened in the log when it is discarded or played
      discard   the cards discarded since the last shuffle, face up
      removed   the cards out of the game (3.0 Czech Legion; 14.72 played and removed)
      dealt     how many card nodes were made (their ids: c1, c2, ...)

A player of several factions holds one hand (14.3), kept under the first of their
factions in the order red, siberian, south, north: the "holder".

Hidden values (the pile's order, each card drawn) go through `secrets`: the referee's copy
knows them, a public audit replays the same events with the sealed nodes masked, and
`audit --final` recomputes them from the hidden secret that `unseal` publishes.
"""

from __future__ import annotations

from typing import Any

from pbem.game import Event, GameData, Problem, Secrets, State
from pbem.kit.events import Describe, Ruled, Told

from .board import MAJORS, Board, board
from .common import poland_major
from .turn import seating

# 13.54: no longer playable once an eliminated player plays Poland as a major faction
NOT_WITH_POLAND_MAJOR = ("greater-poland", "curzon-intervenes")

CZECH_FORMED = "czech-legion-formed"  # 3.0: removed when the Czech Legion rule is not used
# 19.3: "if this rule is not used, the Siberian faction may remove two infantry units (any)"
CZECH_QUITS = "czech-legion-quits"
# 13.53: "If Poland is a fully activated minor faction", Curzon makes it neutral again
ONLY_FULLY_ACTIVE = ("curzon-intervenes",)
# the places a card's remove_units takes its counters from first (the effect's note)
FIRST_FROM = {"north-russia-evacuation": ("Murmansk", "Archangel", "White Sea", "White Sea box")}


def deck(data: GameData) -> dict[str, dict[str, Any]]:
    return {c["id"]: c for c in data["cards"]["cards"]}


def check(data: GameData) -> list[str]:
    """The parts of cards.yaml the engine reads (the full field check is a test)."""
    problems = []
    cards = data.files.get("cards", {}).get("cards")
    if not isinstance(cards, list) or not cards:
        return ["cards.yaml: cards: expected the list of the deck's cards"]
    seen: set[str] = set()
    for i, card in enumerate(cards):
        where = f"cards.yaml: cards[{i}]"
        if not isinstance(card, dict) or not isinstance(card.get("id"), str):
            problems.append(f"{where}: expected a mapping with an id")
            continue
        if card["id"] in seen:
            problems.append(f"{where}: id {card['id']} appears twice")
        seen.add(card["id"])
        for key in ("immediate", "remove"):
            if not isinstance(card.get(key), bool):
                problems.append(f"{where} ({card['id']}): {key} must be true or false")
        by = card.get("playable_by", list(MAJORS))
        if not isinstance(by, list) or not set(by) <= set(MAJORS):
            problems.append(f"{where} ({card['id']}): playable_by lists major factions")
        if not isinstance(card.get("years", []), list):
            problems.append(f"{where} ({card['id']}): years is a list of years")
        if "option" in card and card["option"] not in (data["game"].get("options") or {}):
            problems.append(f"{where} ({card['id']}): option {card['option']!r} is not a campaign "
                            "option of game.yaml")
    hands = data["game"].get("seat_hands", {})
    for seat, size in hands.items():
        if not set(str(seat).split("+")) <= set(MAJORS) or not isinstance(size, int):
            problems.append(f"game.yaml: seat_hands.{seat}: expected factions joined by + and a number")
    return problems


def initial_state() -> dict[str, Any]:
    return {"cards": {"pile": None, "size": 0, "drawn": 0, "shuffles": 0, "hands": {},
                      "discard": [], "removed": [], "dealt": 0}}


# ---------------------------------------------------------------------------------------
# who holds which hand, and how big it may be


def seat_of(state: State, faction: str) -> list[str]:
    for seat in seating(state):
        if faction in seat:
            return sorted(seat, key=MAJORS.index)
    return [faction]


def holder(state: State, faction: str) -> str:
    """The faction under which a player's one hand is kept (14.3)."""
    return seat_of(state, faction)[0]


def holders(data: GameData, state: State) -> list[str]:
    """Every hand, in the order the cards are dealt and drawn: the order of the purchase
    phase (4.2: the previous turn's initiative, on turn 1 clockwise from the Red player's
    left, the Reds, who deal, last: 4.1)."""
    from .economy import phase_order

    out: list[str] = []
    for faction in phase_order(board(data), state):
        if holder(state, faction) not in out:
            out.append(holder(state, faction))
    return out


def hand_limit(data: GameData, state: State, faction: str) -> int:
    """14.3: the faction's hand (6 Reds, 5 Siberians, 5 South, 4 North/Asia; 6 for a player
    of South and North/Asia, 7 for the single White player) plus the ORI level; a player of
    several factions adds the average of their ORI levels, rounded down (the 14.3 example:
    1, 2 and 0 give 1)."""
    seat = seat_of(state, faction)
    levels = [int((state.get("ori") or {}).get(f, 0)) for f in seat]
    if len(seat) == 1:
        base = next(int(f["hand"]) for f in data["game"]["factions"] if f["id"] == seat[0])
        return base + levels[0]
    return int(data["game"]["seat_hands"]["+".join(seat)]) + sum(levels) // len(seat)


def year(data: GameData, state: State) -> int:
    return int(str(board(data).game["turns"][max(1, int(state["turn"])) - 1]).split()[-1])


def dead_weight(data: GameData, state: State, faction: str, card_id: str) -> bool:
    """14.73, 14.74: a card none of the player's factions may ever play (wrong faction, or
    every year it names is past) only fills the hand; so does a card to play at once
    (14.71) that can never be played, which is the only way such a card is discarded; and
    so does a card of an optional rule the campaign does not use (14.0, 19.0: Famine)."""
    card = deck(data)[card_id]
    if card.get("option") and not state["options"].get(card["option"]):
        return True
    if card_id in NOT_WITH_POLAND_MAJOR and poland_major(state):
        return True
    by = set(card.get("playable_by") or MAJORS)
    years = card.get("years") or []
    return not by & set(seat_of(state, faction)) or bool(years) and max(years) < year(data, state)


# ---------------------------------------------------------------------------------------
# orders: `discard` in the purchase file (the card phase comes first, 4.1)


def validate_discard(data: GameData, state: State, faction: str, items: list[tuple[int, Any]]) -> list[Problem]:
    """`- discard: [card, ...]`: card ids from the deck, each once, never one to be played
    at once (14.71); only the player's holder faction names them (14.3: one hand)."""
    problems: list[Problem] = []
    known = deck(data)
    seen: set[str] = set()
    from pbem.names import suggest

    for i, arg in items:
        path: tuple[str | int, ...] = ("orders", i, "discard")
        names = arg if isinstance(arg, list) else [arg]
        if holder(state, faction) != faction:
            problems.append(Problem(path, f"your cards are held under {holder(state, faction)}: "
                                          "name the discards in that faction's orders"))
            continue
        for name in names:
            if not isinstance(name, str) or name not in known:
                problems.append(Problem(path, f"no card {name!r}{suggest(str(name), list(known))}"))
            elif name in seen:
                problems.append(Problem(path, f"card {name} is named twice"))
            elif known[name]["immediate"] and not dead_weight(data, state, faction, name):
                problems.append(Problem(path, f"{name} must be played, not discarded (14.71)"))
            seen.add(str(name))
    return problems


# ---------------------------------------------------------------------------------------
# the deal and the card phase


def _shuffle(state: State, secrets: Secrets, items: Any, size: int, why: str) -> Event:
    n = int(state["cards"]["shuffles"]) + 1
    order = secrets.shuffle(f"cards:shuffle:{n}", items)
    pile = secrets.seal("deck", f"pile-{n}", "referee", int(state["turn"]), order)
    return {"type": "cards_shuffled", "shuffle": n, "size": size, "pile": pile, "why": why}


def _draw(data: GameData, state: State, secrets: Secrets, who: str, count: int,
          why: str) -> list[Event]:
    """14.5: `count` cards off the pile; an empty pile is made again from the discards
    (the rulebook is silent; see the game's README)."""
    from .fold import apply

    events: list[Event] = []
    nodes: list[dict[str, Any]] = []
    dealt = int(state["cards"]["dealt"])
    while len(nodes) < count:
        cards = state["cards"]
        at, size = int(cards["drawn"]), int(cards["size"])
        if at >= size:
            if not cards["discard"]:
                events.append({"type": "note", "zone": "", "text": f"the pile is empty: {who} "
                               f"draws {len(nodes)} of {count} cards (14.5)"})
                break
            shuffled = _shuffle(state, secrets, sorted(cards["discard"]), len(cards["discard"]),
                                "the draw pile ran out: the discards are shuffled")
            events.append(shuffled)
            state = apply(data, state, shuffled)
            continue
        index = at + len(nodes)
        value = secrets.compute(lambda order, i=index: order[i], cards["pile"])
        nodes.append(secrets.seal("card", f"c{dealt + len(nodes) + 1}", who, int(state["turn"]), value))
        if at + len(nodes) >= size and len(nodes) < count:  # the old pile's cards come first
            events.append({"type": "cards_drawn", "holder": who, "cards": nodes, "why": why})
            state = apply(data, state, events[-1])
            dealt, count, nodes = dealt + len(nodes), count - len(nodes), []
    if nodes:
        events.append({"type": "cards_drawn", "holder": who, "cards": nodes, "why": why})
    return events


def deal(data: GameData, state: State, secrets: Secrets) -> list[Event]:
    """4.1, 14.0: once the units are set up the pile is shuffled and the Reds deal each
    player their hand (14.3; every ORI is 0 then). Without the Czech Legion rule its
    "formed" card leaves the game first (3.0). Famine stays without its rule (19.2): 3.0
    takes out only the Czech Legion card; 14.0 keeps a card whose condition of use is not
    met in the hand, with no effect, to be discarded (`dead_weight`)."""
    from .fold import apply

    events: list[Event] = []
    ids = sorted(deck(data))
    if not state["options"].get("czech_legion") and CZECH_FORMED in ids:
        ids.remove(CZECH_FORMED)
        events.append({"type": "cards_removed", "cards": [CZECH_FORMED],
                       "why": "the Czech Legion rule is not used (3.0)"})
    events.append(_shuffle(state, secrets, ids, len(ids), "the deck is shuffled for the deal (4.1)"))
    work = state
    for e in events:
        work = apply(data, work, e)
    for who in holders(data, work):
        found = _draw(data, work, secrets, who, hand_limit(data, work, who), "dealt (4.1, 14.3)")
        events += found
        for e in found:
            work = apply(data, work, e)
    return events


def card_phase(data: GameData, state: State, orders: dict[str, Any], secrets: Secrets,
               winter: bool) -> list[Event]:
    """4.1 in each holder's order: discards (14.4: the orders' `discard`, then with the
    standing instruction `discard_dead` every card the player can never play, 14.73-14.74),
    on a winter turn the reshuffle of every card not in a hand or removed (14.8), then a draw
    up to the hand limit with the ORI bonus (14.3, 14.5), once."""
    from pbem.kit.orders import order_items

    from .fold import apply

    events: list[Event] = []
    work = state
    hands = work["cards"]["hands"]
    for who in holders(data, work):
        hand = list(hands.get(who, []))
        wanted = [n for _i, _v, arg in order_items(orders.get(who, {}), ("discard",), [],
                                                   others=OTHERS)
                  for n in (arg if isinstance(arg, list) else [arg])]
        out: list[str] = []
        slots: list[str] = []
        missing: list[str] = []
        for name in wanted:
            found = secrets.reveal_where(hand, lambda v, n=name: v == n, first=True)
            if found:
                node, value = found[0]
                hand.remove(node)
                slots.append(node["id"])
                out.append(str(value))
            else:
                missing.append(name)
        if work["standing"].get(who, {}).get("discard_dead"):
            for node, value in secrets.reveal_where(
                    hand, lambda v, w=work, h=who: dead_weight(data, w, h, str(v))):
                hand.remove(node)
                slots.append(node["id"])
                out.append(str(value))
        if out or missing:
            event: Event = {"type": "cards_discarded", "holder": who, "cards": out, "slots": slots}
            if missing:
                event["not_held"] = missing
            events.append(event)
            work = apply(data, work, event)
    if winter:  # 14.8
        c = work["cards"]
        held = [n for h in c["hands"].values() for n in h]
        gone = set(c["removed"])
        items = secrets.compute(lambda *values: sorted(set(deck(data)) - gone - {str(v) for v in values}),
                                *held)
        size = len(deck(data)) - len(gone) - len(held)
        event = _shuffle(work, secrets, items, size, "winter: every card not in a hand is shuffled (14.8)")
        events.append(event)
        work = apply(data, work, event)
    for who in holders(data, work):
        limit = hand_limit(data, work, who)
        count = limit - len(work["cards"]["hands"].get(who, []))
        if count > 0:
            drawn = _draw(data, work, secrets, who, count, f"drawn up to {limit} (14.3, 14.5)")
            events += drawn
            for e in drawn:
                work = apply(data, work, e)
    return events


OTHERS = ("place", "treasure", "buy", "repair", "intervene", "activate", "play")


# ---------------------------------------------------------------------------------------
# folding the events into the state


def _cards(s: State) -> dict[str, Any]:
    if "cards" not in s:
        s.update(initial_state())
    cards: dict[str, Any] = s["cards"]
    return cards


def _shuffled(_b: Any, s: State, e: Event) -> None:
    c = _cards(s)
    c.update(pile=e["pile"], size=int(e["size"]), drawn=0, shuffles=int(e["shuffle"]), discard=[])


def _drawn(_b: Any, s: State, e: Event) -> None:
    c = _cards(s)
    if int(c["drawn"]) + len(e["cards"]) > int(c["size"]):
        raise ValueError(f"{e['holder']} draws {len(e['cards'])} cards; the pile has "
                         f"{int(c['size']) - int(c['drawn'])}")
    c["hands"].setdefault(e["holder"], []).extend(e["cards"])
    c["drawn"] = int(c["drawn"]) + len(e["cards"])
    c["dealt"] = int(c["dealt"]) + len(e["cards"])


def _discarded(_b: Any, s: State, e: Event) -> None:
    c = _cards(s)
    hand = c["hands"].get(e["holder"], [])
    for slot in e["slots"]:
        if not any(n["id"] == slot for n in hand):
            raise ValueError(f"{e['holder']} holds no card {slot}")
    c["hands"][e["holder"]] = [n for n in hand if n["id"] not in e["slots"]]
    c["discard"] = [*c["discard"], *e["cards"]]


def _removed(_b: Any, s: State, e: Event) -> None:
    c = _cards(s)
    c["removed"] = [*c["removed"], *e["cards"]]


def _queued(_b: Any, s: State, e: Event) -> None:
    _cards(s)["queued"] = list(e["plays"])


APPLY = {"cards_shuffled": _shuffled, "cards_drawn": _drawn, "cards_discarded": _discarded,
         "cards_removed": _removed, "cards_queued": _queued}


def _told_cards_drawn(b: Board, e: Event) -> str:
    return f"{e['holder']}: {len(e['cards'])} card(s) {e['why']}, sealed to the player"


def _told_cards_discarded(b: Board, e: Event) -> str:
    text = f"{e['holder']} discards {', '.join(e['cards']) or 'nothing'} (14.4)"
    if e.get("not_held"):
        text += f"; does not hold {', '.join(e['not_held'])}"
    return text


def _told_cards_queued(b: Board, e: Event) -> str | None:
    cards = ", ".join(p["card"] for p in e["plays"])
    return f"to be played at the start of the initiative phase: {cards}" if cards else None


DESCRIBE: dict[str, Describe[Board]] = {
    "segment": Told("-- {rule} {name} --"),
    "cards_shuffled": Told("{why}: a pile of {size} cards, its order sealed to the referee"),
    "cards_drawn": _told_cards_drawn,
    "cards_discarded": Ruled(_told_cards_discarded, "14.4"),
    "cards_queued": _told_cards_queued,
    "cards_removed": Told("{cards} out of the game: {why}"),
}


def view(state: State) -> dict[str, Any]:
    """What anyone may know of the cards: how many each player holds, the pile's size,
    the discards and the removed cards. The cards in a hand are only in sealed nodes."""
    c = state.get("cards") or initial_state()["cards"]
    return {"hands": {h: len(n) for h, n in c["hands"].items()},
            "pile": int(c["size"]) - int(c["drawn"]), "discard": list(c["discard"]),
            "removed": list(c["removed"])}
