"""Playing event cards (14.2, 14.6-14.74) and carrying out their effects (cards.yaml).

By mail a card is played by an order in the file of the phase it belongs to:

    - play: {card: tank}                                   # the effect needs nothing more
    - play: {card: typhus, target: red}                    # effects on `target`
    - play: {card: officers-rally, as: south, zone: Rostov} # a leader placed in a zone

The purchase file (4.1-4.3) carries the cards of the card, purchase, political and
initiative phases (and `any`); the active player's action file carries the action-phase
cards. Plays happen at the start of their phase, in the order of the purchase phase
(14.2: initiative order); a card the rules say must be played at once (14.71) is played
by pbem at the start of its phase, whoever holds it. Each play opens the card's sealed
node in the log. A played card goes to the discards, or out of the game when the card says
so (14.72). A card that its holder cannot play (14.73 playable by, 14.74 year) is refused
when the orders are checked.

Effects the engine carries out: money, manpower, ori, flag, add_units, remove_units, tank,
leader, replace_leader, rail, minor, infighting (a RECONSTRUCTED table in politics.yaml),
coup_de_main (9.0), cossack_raid (15.3), combat (the battle cards), wound_leader (10.4),
partisans (15.2) and famine (19.2, famine.py; only with the campaign option `famine`). The
`referee` effect is put to the referee: the log says what to decide, and the referee
records it with `pbem adjust`.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any, TypeVar

from pbem.game import Event, GameData, Problem, Rng, Secrets, State
from pbem.kit import pools
from pbem.kit.events import Describe, Ruled, Told
from pbem.kit.fold import Fold
from pbem.kit.orders import order_items
from pbem.kit.tables import row_between
from pbem.names import suggest

from .board import MAJORS, Board, board
from .cards import (
    CZECH_QUITS,
    FIRST_FROM,
    NOT_WITH_POLAND_MAJOR,
    ONLY_FULLY_ACTIVE,
    deck,
    holder,
    holders,
    seat_of,
    year,
)
from .common import defenders_of, minor_state, poland_major
from .politics import FIRST_MINOR_TURN

T = TypeVar("T")

AUTOMATED = ("money", "manpower", "ori", "flag", "add_units", "remove_units", "tank", "leader",
             "replace_leader", "rail", "minor", "infighting", "coup_de_main", "cossack_raid",
             "combat", "wound_leader", "partisans", "famine")
# effects that need a choice the player names in the play (a zone): never played by `auto`
CHOOSE = ("coup_de_main", "combat")
# action cards played after the moves, before the battles (their zone must be reached first)
AFTER_MOVES = ("coup_de_main", "combat")
# effects put to the referee, with what the referee must decide: none in the deck today
# (every effect is in AUTOMATED); a campaign's own card may still name one with `decide:`
TO_REFEREE: dict[str, str] = {}
# which phases' cards each orders file may play (14.2)
FILE_PHASES = {"purchase": ("card", "purchase", "political", "initiative", "any"),
               "action": ("action", "any")}


def after_moves(data: GameData, play: dict[str, Any]) -> bool:
    """An action card played once the moves are made (Coup de main, the battle cards)."""
    return any(e["do"] in AFTER_MOVES for e in deck(data)[play["card"]]["effect"])


def _card_phase_ok(card: dict[str, Any], segment: str) -> bool:
    return card["phase"] == segment or (card["phase"] == "any" and segment == "purchase")


def playable(data: GameData, state: State, faction: str, card_id: str) -> str | None:
    """Why `faction` cannot play this card now (14.73, 14.74; 19.0 its optional rule), or None."""
    card = deck(data)[card_id]
    if card.get("option") and not state["options"].get(card["option"]):
        # 14.0: its condition of use is not met; it may only be discarded
        return (f"{card_id} is played only with the optional rule {card.get('rule', '19.0')} "
                f"(campaign option {card['option']})")
    conquered = {m for m, v in (state.get("minors") or {}).items() if v.get("conquered")}
    if card_id == "greater-poland" and conquered & {"poland", "ukraine"}:
        return "Greater Poland is played only while Poland and Ukraine are not conquered (13.52)"
    if card_id in NOT_WITH_POLAND_MAJOR and poland_major(state):
        return f"{card_id} is no longer playable while Poland is played as a major faction (13.54)"
    by = card.get("playable_by") or list(MAJORS)
    if faction not in by:
        return f"{card_id} is playable by {', '.join(by)} only (14.73)"
    years = card.get("years") or []
    if years and year(data, state) not in years:
        return f"{card_id} is playable in {', '.join(map(str, years))} only, not {year(data, state)} (14.74)"
    return None


def _needs(card: dict[str, Any]) -> set[str]:
    needs: set[str] = set()
    for effect in card["effect"]:
        if effect.get("faction") == "target":
            needs.add("target")
        if effect["do"] in CHOOSE:
            needs.add("zone")
    return needs


def validate(data: GameData, state: State, faction: str, body: dict[str, Any], file_phase: str,
             others: tuple[str, ...]) -> list[Problem]:
    """The `play` orders of one file."""
    problems: list[Problem] = []
    known = deck(data)
    seen: set[str] = set()
    seat = seat_of(state, faction)
    # unknown verbs are reported by the file's other checks (economy, movement)
    for i, _verb, arg in order_items(body, ("play",), [], others=others):
        path: tuple[str | int, ...] = ("orders", i, "play")
        if not isinstance(arg, dict) or not isinstance(arg.get("card"), str):
            problems.append(Problem(path, "play: {card: CARD, as: FACTION, target: FACTION, zone: ZONE}"))
            continue
        unknown = set(arg) - {"card", "as", "target", "zone"}
        if unknown:
            problems.append(Problem(path, f"unknown key {sorted(unknown)[0]!r} (known: card, as, target, zone)"))
        name = arg["card"]
        if name not in known:
            problems.append(Problem((*path, "card"), f"no card {name!r}{suggest(name, list(known))}"))
            continue
        card = known[name]
        if name in seen:
            problems.append(Problem((*path, "card"), f"{name} is played twice"))
        seen.add(name)
        if card["phase"] not in FILE_PHASES[file_phase]:
            problems.append(Problem((*path, "card"), f"{name} is a card of the {card['phase']} phase; "
                                    f"play it in that phase's orders (14.2)"))
            continue
        who = arg.get("as", faction)
        if who not in seat:
            problems.append(Problem((*path, "as"), f"you play as one of {', '.join(seat)}, not {who!r}"))
            continue
        why = playable(data, state, who, name)
        if why:
            problems.append(Problem((*path, "card"), why))
        if "target" in _needs(card) and arg.get("target") not in MAJORS:
            problems.append(Problem((*path, "target"), f"{name} names a faction: target: one of "
                                                         f"{', '.join(MAJORS)}"))
        zone = arg.get("zone")
        if "zone" in _needs(card) and zone is None:
            problems.append(Problem(path, f"{name} needs the zone it is played on: zone: ZONE"))
        if zone is not None and zone not in board(data).zones:
            problems.append(Problem((*path, "zone"), f"no zone {zone!r}"
                                                     f"{suggest(str(zone), list(board(data).zones))}"))
    return problems


def queued(data: GameData, state: State, orders: dict[str, Any]) -> list[dict[str, Any]]:
    """The plays the orders give, in the order of the purchase phase (14.2)."""
    from .economy import phase_order

    out = []
    for who in [f for f in phase_order(board(data), state) if f in orders]:
        for _i, _verb, arg in order_items(orders[who], ("play",), []):
            out.append({"holder": holder(state, who), "faction": arg.get("as", who), "card": arg["card"],
                        "target": arg.get("target"), "zone": arg.get("zone")})
    return out


def play_segment(data: GameData, state: State, plays: list[dict[str, Any]], segment: str,
                 secrets: Secrets, rng: Rng, auto_for: list[str] | None = None) -> list[Event]:
    """14.2, 14.71: at the start of `segment`, the cards ordered for it, then the cards to be
    played at once that are of it, then for the players whose standing `play_cards` is
    `auto` (only those in `auto_for`, when given) every card of it that needs no choice,
    in the purchase phase's order."""
    from .fold import apply

    fold = Fold(lambda s, e: apply(data, s, e), state)

    for play in plays:
        if _card_phase_ok(deck(data)[play["card"]], segment):
            fold.take(_play(data, fold.state, play, secrets, rng, forced=False))
    for forced, pick in ((True, _due), (False, _auto)):
        for who in holders(data, fold.state):
            if not forced and (auto_for is not None and who not in auto_for or not any(
                    fold.state["standing"].get(f, {}).get("play_cards") == "auto" for f in seat_of(fold.state, who))):
                continue
            hand = fold.state["cards"]["hands"].get(who, [])
            for node, value in secrets.reveal_where(
                    hand, lambda v, w=fold.state, h=who, test=pick: test(data, w, h, str(v), segment)):
                faction = _as(data, fold.state, who, str(value))
                fold.take(_carry_out(data, fold.state, {"holder": who, "faction": faction, "card": str(value),
                                             "target": default_target(fold.state, faction), "zone": None},
                                node, rng, forced=forced))
    return fold.events


# the tests of a card whose every effect would be void if played now (rules/wasted.py),
# given by the composition root (rules/__init__.py): wasted.py reads this module
VOID: list[Callable[[GameData, State, dict[str, Any]], bool]] = []


def _auto(data: GameData, state: State, who: str, card_id: str, segment: str) -> bool:
    """A card pbem plays for a player who asked it to (`play_cards: auto`): of this phase,
    playable now, with effects that need no choice beyond the default target, and not one
    whose every effect would be void now (README ruling 63: kept in the hand, as `pbem
    check` would have warned a player who played it, rules/wasted.py)."""
    card = deck(data)[card_id]
    if not (not card["immediate"] and _card_phase_ok(card, segment)
            and all(e["do"] in AUTOMATED and e["do"] not in CHOOSE for e in card["effect"])
            and any(playable(data, state, f, card_id) is None for f in seat_of(state, who))):
        return False
    faction = _as(data, state, who, card_id)
    play = {"holder": who, "faction": faction, "card": card_id,
            "target": default_target(state, faction), "zone": None}
    return not any(void(data, state, play) for void in VOID)


def default_target(state: State, faction: str) -> str:
    """The faction a card played by pbem names: the Reds for a White player; for the Reds
    the White faction with the most money (ties by name)."""
    if faction != "red":
        return "red"
    whites = [f for f in MAJORS if f != "red" and f not in state["defeated"]]
    return max(sorted(whites), key=lambda f: int(state["money"][f])) if whites else "red"


def _due(data: GameData, state: State, who: str, card_id: str, segment: str) -> bool:
    card = deck(data)[card_id]
    return bool(card["immediate"] and card["phase"] == segment
                and any(playable(data, state, f, card_id) is None for f in seat_of(state, who)))


def _as(data: GameData, state: State, who: str, card_id: str) -> str:
    return next(f for f in seat_of(state, who) if playable(data, state, f, card_id) is None)


def _play(data: GameData, state: State, play: dict[str, Any], secrets: Secrets, rng: Rng,
          forced: bool) -> list[Event]:
    hand = state["cards"]["hands"].get(play["holder"], [])
    found = secrets.reveal_where(hand, lambda v, n=play["card"]: v == n, first=True)
    if not found:
        return [{"type": "note", "zone": "", "text": f"{play['faction']} does not hold {play['card']}: "
                 "not played (14.1)"}]
    return _carry_out(data, state, play, found[0][0], rng, forced)


def _carry_out(data: GameData, state: State, play: dict[str, Any], node: dict[str, Any], rng: Rng,
               forced: bool) -> list[Event]:
    from .fold import apply

    card = deck(data)[play["card"]]
    played: Event = {"type": "card_played", "holder": play["holder"], "faction": play["faction"],
                     "card": play["card"], "slot": node["id"], "removed": bool(card["remove"]),
                     "immediate": forced}
    for key in ("target", "zone"):
        if play.get(key) and (key == "zone" or key in _needs(card)):  # a target only if named
            played[key] = play[key]
    events = [played]
    work = apply(data, state, played)
    for k, effect in enumerate(card["effect"]):
        found = effect_events(data, work, play, effect, rng, f"card:{play['card']}:t{state['turn']}:e{k}")
        events += found
        for e in found:
            work = apply(data, work, e)
    return events


def faction_of(effect: dict[str, Any], play: dict[str, Any]) -> str:
    who = effect.get("faction", "self")
    if who == "self":
        return str(play["faction"])
    if who == "target":
        return str(play.get("target") or play["faction"])
    return str(who)


def happened(state: State, effect: dict[str, Any]) -> str | None:
    """The flag of an effect's `unless` once its event has happened (a flag set by a card
    stays set): the loss is then not halved (cards.yaml; 10.93: Semenov corruption under
    Kolchak as supreme ruler); None otherwise."""
    flag = effect.get("unless")
    return str(flag) if flag and (state.get("flags") or {}).get(flag) else None


def minor_refused(state: State, effect: dict[str, Any]) -> str | None:
    """Why a card's `minor` effect changes nothing in `state`, or None: no minor faction
    enters play before the third turn (12.1; a card may still make one neutral), and Poland
    played as a major faction is no minor (13.54)."""
    if effect["status"] != "neutral" and int(state["turn"]) < FIRST_MINOR_TURN:
        return "no minor faction enters play before the third turn (12.1)"
    if effect["minor"] == "poland" and poland_major(state):
        return "Poland is played as a major faction (13.54)"
    return None


def minor_unchanged(state: State, play: dict[str, Any], effect: dict[str, Any]) -> str | None:
    """Why a card that makes a minor neutral again leaves one under limited control as it
    is: the card needs it fully activated (13.53 Curzon intervenes); None otherwise."""
    now = minor_state(state, effect["minor"])["status"]
    if effect["status"] == "neutral" and play["card"] in ONLY_FULLY_ACTIVE and now == "limited":
        return f"{effect['minor']} is not a fully activated minor (13.53)"
    return None


class _Labelled:
    """The card's dice labels for a rule another phase shares (12.2's recall): each label
    under the effect's own, so that no die is asked twice under one label."""

    def __init__(self, rng: Rng, prefix: str) -> None:
        self._rng = rng
        self._prefix = prefix

    def roll(self, label: str, sides: int = 6) -> int:
        return self._rng.roll(f"{self._prefix}:{label}", sides)

    def shuffle(self, label: str, items: Sequence[T]) -> list[T]:
        return self._rng.shuffle(f"{self._prefix}:{label}", items)

    def choice(self, label: str, items: Sequence[T]) -> T:
        return self._rng.choice(f"{self._prefix}:{label}", items)


def effect_events(data: GameData, state: State, play: dict[str, Any], effect: dict[str, Any],
                  rng: Rng, label: str) -> list[Event]:
    """14.6: one effect of a card, as events (the card's own text is in cards.yaml)."""
    do = effect["do"]
    why = f"{play['card']} (14.6)"
    if do in ("money", "manpower"):
        faction = faction_of(effect, play)
        if "dice" in effect:
            rolls = pools.roll(rng, label, int(effect["dice"]))
            amount = sum(rolls)
            if effect.get("halve") and happened(state, effect) is None:
                amount //= 2
            amount = -amount if effect.get("lose") else amount
        else:
            rolls, amount = [], int(effect["amount"])
        return [{"type": "card_resources", "faction": faction, do: amount, "dice": rolls, "why": why}]
    if do == "ori":
        return [{"type": "ori_change", "faction": faction_of(effect, play), "change": int(effect["change"]),
                 "why": why}]
    if do == "flag":
        return [{"type": "flag_set", "flag": effect["name"], "faction": play["faction"], "why": why}]
    if do in ("add_units", "remove_units", "tank"):
        return _units_effect(data, state, play, effect, why)
    if do == "leader":
        return _leader_effect(data, state, play, effect, rng, label, why)
    if do == "replace_leader":
        gone = state["units"][effect["remove"]]
        zone = gone["zone"] if gone["status"] == "map" else play.get("zone")
        out: list[Event] = [{"type": "units_out", "faction": gone["faction"], "units": [effect["remove"]],
                             "why": why}]
        out.append(_arrive(state, effect["add"], zone, gone["faction"], why))
        return out
    if do == "rail":
        return [{"type": "rail_bonus", "faction": faction_of(effect, play), "amount": int(effect["amount"]),
                 "why": why}]
    if do == "infighting":
        return _infighting(data, state, faction_of(effect, play), rng, label, why)
    if do == "coup_de_main":
        return _coup_de_main(data, state, play, why)
    if do == "cossack_raid":
        return _cossack_raid(data, state, play, why)
    if do == "combat":
        return _battle_card(data, state, play, effect, why)
    if do == "partisans":
        return _partisans(data, state, play, effect, why)
    if do == "famine":
        from .famine import famine

        return famine(data, state, play, rng, why)
    if do == "wound_leader":  # 10.4: wounded, to the unused leaders; he may come back (10.6)
        leader = effect["leader"]
        if state["units"][leader]["status"] != "map":
            return [{"type": "note", "zone": "", "text": f"{why}: {leader} is not on the map: no effect"}]
        return [{"type": "leader_wounded", "leader": leader, "zone": state["units"][leader]["zone"],
                 "why": why}]
    if do == "minor":
        refused = minor_refused(state, effect) or minor_unchanged(state, play, effect)
        if refused is not None:
            return [{"type": "note", "zone": "", "text": f"{why}: no effect, {refused}"}]
        controller = faction_of({"faction": effect.get("controller", "self")}, play)
        event: Event = {"type": "minor_status", "minor": effect["minor"], "status": effect["status"],
                        "controller": None if effect["status"] == "neutral" else controller,
                        "until": int(state["turn"]) if effect["status"] == "limited" else None,
                        "result": "card", "why": why}
        if effect["status"] != "neutral" or minor_state(state, effect["minor"])["status"] == "neutral":
            return [event]
        # 12.2: its units outside the zones it controls go at once to the nearest of them
        from .politics import recall

        return [event, *recall(board(data), state, effect["minor"], _Labelled(rng, label))]
    decide = effect.get("decide") or TO_REFEREE.get(do, f"carry out {do}")
    return [{"type": "referee_decides", "card": play["card"], "faction": play["faction"],
             "target": play.get("target"), "zone": play.get("zone"), "decide": decide,
             "text": deck(data)[play["card"]]["text"]}]


def _infighting(data: GameData, state: State, faction: str, rng: Rng, label: str,
                why: str) -> list[Event]:
    """The Infighting roll (10.8.1): 1d6, +1 for the Reds while Lenin is not in Moscow, on
    politics.yaml's RECONSTRUCTED table: nothing, one die of money, an ORI level, or both."""
    from .politics import tables
    from .turn import lenin_in_moscow

    roll = rng.roll(f"{label}:infighting", 6)
    modifier = 1 if faction == "red" and not lenin_in_moscow(state) else 0
    result = row_between(tables(data)["infighting"]["table"], roll + modifier)["result"]
    events: list[Event] = [{"type": "infighting", "faction": faction, "roll": roll,
                            "modifier": modifier, "result": result}]
    if result in ("money", "both"):
        lost = rng.roll(f"{label}:infighting:money", 6)
        events.append({"type": "card_resources", "faction": faction, "money": -lost, "dice": [lost],
                       "why": why})
    if result in ("ori", "both"):
        events.append({"type": "ori_change", "faction": faction, "change": -1, "why": why})
    return events


def _coup_de_main(data: GameData, state: State, play: dict[str, Any], why: str) -> list[Event]:
    """9.0: the one way besides a siege to take a zone: the player's units are in it (after
    the moves), no enemy land unit is, and it is enemy or neutral (for a White faction, not
    another White faction's, 18.1)."""
    faction, zone = str(play["faction"]), play.get("zone")
    why_not = coup_refused(data, state, faction, zone)
    if why_not:
        return [{"type": "note", "zone": zone or "", "text": f"{why}: no effect, {why_not} (9.0)"}]
    return [{"type": "control", "zone": zone, "from": state["control"].get(zone), "faction": faction,
             "why": "Coup de main (9.0)"}]


def coup_refused(data: GameData, state: State, faction: str, zone: Any) -> str | None:
    """9.0: why a Coup de main by `faction` on `zone` takes nothing in `state`, or None."""
    if zone is None or zone not in board(data).zones:
        return "no zone named"
    if not coup_target(state, faction, zone):
        return f"{zone} is not an enemy or neutral zone"
    if not coup_force(state, faction, zone):
        return f"{faction} has no land unit in {zone}"
    if coup_blockers(state, faction, zone):
        return f"enemy land units are in {zone}"
    return None


def coup_target(state: State, faction: str, zone: str) -> bool:
    """9.0: an enemy or neutral zone (for a White faction, not another White faction's, 18.1)."""
    from .common import side

    owner = state["control"].get(zone)
    return not (owner == faction or (owner is not None and side(owner) == side(faction)))


def coup_force(state: State, faction: str, zone: str) -> list[str]:
    """9.0: the faction's own land units in the zone, which take it."""
    return [u for u, p in state["units"].items() if p["status"] == "map" and p["zone"] == zone
            and p["faction"] == faction and p["type"] in ("inf", "cav", "tank")]


def coup_blockers(state: State, faction: str, zone: str) -> list[str]:
    """9.0: the enemy units in the zone that forbid a Coup de main (all but fleets)."""
    from .common import enemy_units_at

    return [u for u in enemy_units_at(state, zone, faction) if state["units"][u]["type"] != "fleet"]


def _cossack_raid(data: GameData, state: State, play: dict[str, Any], why: str) -> list[Event]:
    """15.3: Cossack Raid markers on Red zones at most two zones from a White-controlled
    zone (game.yaml cossack_raid: how many, RECONSTRUCTED): the zone the play names if it
    may be raided, then the richest others; until the victory phase they count for nobody."""
    spec = board(data).game.get("cossack_raid") or {"markers": 2, "reach": 2}
    eligible = raid_zones(data, state)
    chosen = [z for z in [play.get("zone")] if z in eligible]
    chosen += [z for z in eligible if z not in chosen][: int(spec["markers"]) - len(chosen)]
    if not chosen:
        return [{"type": "note", "zone": "", "text": f"{why}: no Red zone within reach (15.3)"}]
    return [{"type": "raids", "zones": chosen, "faction": play["faction"], "why": why}]


def raid_zones(data: GameData, state: State) -> list[str]:
    """15.3: the Red zones a Cossack Raid may strike now (at most `reach` zones from a
    White-controlled zone, not raided yet), the richest first."""
    b = board(data)
    spec = b.game.get("cossack_raid") or {"markers": 2, "reach": 2}
    white = {z for z, owner in state["control"].items() if owner in ("siberian", "south", "north")}
    near = set(white)
    for _step in range(int(spec["reach"])):
        near |= {n for z in near for n in b.routes.get(z, {}) if n in b.zones}
    return sorted((z for z in near if state["control"].get(z) == "red"
                   and z not in (state.get("raids") or {})),
                  key=lambda z: (-int(b.zones[z]["money"]), z))


def _battle_card(data: GameData, state: State, play: dict[str, Any], effect: dict[str, Any],
                 why: str) -> list[Event]:
    """A battle card (armoured trains, stubborn defence, Storming of Perekop) on the zone the
    play names, for this action phase: extra dice in a battle there (only where a railway
    hub is, 2.1), one retreat after combat cancelled, or no defensive fire in a siege (9.3)."""
    zone = play.get("zone")
    b = board(data)
    modifier = dict(effect["modifier"])
    modifier.pop("side", None)
    if zone not in b.zones:
        return [{"type": "note", "zone": "", "text": f"{why}: no zone named: no effect"}]
    if no_hub(data, zone, effect):
        return [{"type": "note", "zone": zone, "text": f"{why}: no railway hub in {zone} (2.1): no effect"}]
    return [{"type": "battle_card", "zone": zone, "faction": play["faction"], "card": play["card"],
             "modifier": modifier}]


def no_hub(data: GameData, zone: str, effect: dict[str, Any]) -> bool:
    """2.1: a battle card that adds dice only in a zone with a railway hub, on one without."""
    return "extra_dice" in effect["modifier"] and not int(board(data).zones[zone].get("rail", 0))


def defend_with(data: GameData, state: State, zone: str, attacker: str, secrets: Secrets,
                rng: Rng) -> list[Event]:
    """14.2 by mail: a defender plays the battle cards its standing `battle_cards` lists, when
    a battle it defends begins (the one trigger point pbem checks outside the player's own
    phase), if it holds them and may play them now."""
    from .fold import apply

    events: list[Event] = []
    work = state
    for faction in sorted(defenders_of(state, zone, attacker)):
        wanted = (state["standing"].get(faction) or {}).get("battle_cards") or []
        if faction not in MAJORS or not wanted:
            continue
        who = holder(work, faction)
        hand = work["cards"]["hands"].get(who, [])
        for node, value in secrets.reveal_where(
                hand, lambda v, w=work, f=faction, want=tuple(wanted): str(v) in want
                and playable(data, w, f, str(v)) is None
                and deck(data)[str(v)]["phase"] == "action"):
            found = _carry_out(data, work, {"holder": who, "faction": faction, "card": str(value),
                                            "target": None, "zone": zone}, node, rng, forced=False)
            events += found
            for e in found:
                work = apply(data, work, e)
    from .common import allegiance

    # a minor's controller defends with it (12.12)
    defenders = sorted({allegiance(work, f) for f in defenders_of(work, zone, attacker)} & set(MAJORS))
    return events + triggered(data, work, "defending", attacker, secrets, rng, zone=zone, factions=defenders)


# 14.2 by mail: the moments of another player's action phase (and of the player's own, after
# its battles) at which pbem plays the cards a player listed in its standing `play_when`
WHEN = {
    "phase_start": "at the start of another faction's action phase, before its moves",
    "after_moves": "after another faction's moves, before its battles",
    "after_battles": "after the battles of an action phase (your own included), before the sieges",
    "defending": "when a battle you defend begins",
}
# effects whose "no effect" is known before the card is played: a conditional play waits
CONDITIONAL = {"coup_de_main": _coup_de_main, "cossack_raid": _cossack_raid}


def check_play_when(data: GameData, standing: dict[str, Any]) -> list[Problem]:
    """The standing `play_when: [{card, when, of, zone, target}]` (14.2)."""
    from pbem.kit.orders import check_keys

    value = standing.get("play_when")
    path: tuple[str | int, ...] = ("standing", "play_when")
    if value is None:
        return []
    if not isinstance(value, list):
        return [Problem(path, "play_when is a list of {card, when, of, zone, target}")]
    problems: list[Problem] = []
    b = board(data)
    cards = deck(data)
    for i, item in enumerate(value):
        where = (*path, i)
        if not check_keys(item, where, ("card", "when"), ("of", "zone", "target"), problems):
            continue
        card = cards.get(str(item["card"]))
        if card is None:
            problems.append(Problem((*where, "card"), f"unknown card {item['card']!r}"
                                    f"{suggest(str(item['card']), list(cards))}"))
        elif card["phase"] != "action":
            problems.append(Problem((*where, "card"), f"{item['card']} is a card of the {card['phase']} "
                                    "phase: only action-phase cards are played at any moment (14.2)"))
        if not isinstance(item["when"], str) or item["when"] not in WHEN:
            problems.append(Problem((*where, "when"), f"when is one of {', '.join(WHEN)}"))
        for key, known in (("of", MAJORS), ("target", MAJORS)):
            if key in item and item[key] not in known:
                problems.append(Problem((*where, key), f"{key} is one of {', '.join(known)}"))
        if "zone" in item and b.places.get(item["zone"]) is None:
            problems.append(Problem((*where, "zone"), f"unknown zone {item['zone']!r}"
                                    f"{b.places.suggest(item['zone'])}"))
        elif card is not None and "zone" in _needs(card) and "zone" not in item and item["when"] != "defending":
            problems.append(Problem(where, f"{item['card']} needs a zone"))
    return problems


def triggered(data: GameData, state: State, when: str, actor: str, secrets: Secrets, rng: Rng,
              zone: str | None = None, factions: list[str] | None = None) -> list[Event]:
    """14.2 "at any moment of the action phase, regardless of which player is active", by
    mail: at the trigger point `when` of `actor`'s action phase, each faction (in initiative
    order; only `factions` when given) plays the cards its standing `play_when` lists for
    it, if it holds them, may play them now, and (for Coup de main and Cossack raids) the
    card would take effect. A battle card for `defending` is played on the battle's zone."""
    from .fold import apply

    b = board(data)
    events: list[Event] = []
    work = state
    order = [f for f in (state.get("initiative") or MAJORS) if f in MAJORS and f not in state["defeated"]]
    for faction in order:
        if factions is not None and faction not in factions:
            continue
        if faction == actor and when in ("phase_start", "after_moves"):
            continue  # the active player plays these from its orders
        for entry in (work["standing"].get(faction) or {}).get("play_when") or []:
            named = b.places.get(entry.get("zone")) if entry.get("zone") else None
            if entry["when"] != when or entry.get("of") not in (None, actor) \
                    or when == "defending" and named not in (None, zone):
                continue
            card_id = str(entry["card"])
            if playable(data, work, faction, card_id) is not None:
                continue
            who = holder(work, faction)
            play = {"holder": who, "faction": faction, "card": card_id,
                    "target": entry.get("target") or default_target(work, faction),
                    "zone": zone if when == "defending" else named}
            if any(e["do"] in CONDITIONAL and all(x["type"] == "note" for x in CONDITIONAL[e["do"]](
                    data, work, play, "")) for e in deck(data)[card_id]["effect"]):
                continue  # it would have no effect now: kept for a later moment
            found = secrets.reveal_where(work["cards"]["hands"].get(who, []),
                                         lambda v, n=card_id: v == n, first=True)
            if not found:
                continue
            played = _carry_out(data, work, play, found[0][0], rng, forced=False)
            events += played
            for e in played:
                work = apply(data, work, e)
    return events


def _partisans(data: GameData, state: State, play: dict[str, Any], effect: dict[str, Any],
               why: str) -> list[Event]:
    """15.2: a partisan in a zone of the other side (white_zone: one a White faction
    controls; red_zone: one the Reds control): the zone the play names if it may take one,
    else the richest such zone without a partisan. With every partisan counter in play
    (game.yaml partisans.markers), one already on the map moves there: the first by name."""
    b = board(data)
    white = effect["where"] == "white_zone"
    placed = dict(state.get("partisans") or {})
    eligible = sorted((z for z, owner in state["control"].items()
                       if z in b.zones and z not in placed and owner is not None
                       and (owner in ("siberian", "south", "north")) == white and owner in MAJORS),
                      key=lambda z: (-int(b.zones[z]["money"]), z))
    if not eligible:
        return [{"type": "note", "zone": "", "text": f"{why}: no zone may take a partisan (15.2)"}]
    zone = play.get("zone") if play.get("zone") in eligible else eligible[0]
    event: Event = {"type": "partisans_placed", "zone": zone, "faction": play["faction"], "why": why}
    if len(placed) >= int((b.game.get("partisans") or {}).get("markers", 4)):
        event["from"] = sorted(placed)[0]  # 15.2 the exchange
    return [event]


def _matching(state: State, faction: str, spec: dict[str, Any], statuses: tuple[str, ...],
              b: Any) -> list[str]:
    out = []
    for uid, unit in sorted(state["units"].items()):
        if unit["faction"] != faction or unit["type"] == "leader" or unit["status"] not in statuses:
            continue
        if spec.get("type") and unit["type"] != spec["type"]:
            continue
        if spec.get("full") and list(b.counters[uid]["full"]) != list(spec["full"]):
            continue
        out.append(uid)
    return out


def waiting_tanks(data: GameData, state: State, faction: str) -> list[str]:
    """15.4: the faction's tanks that only the Tank card brings into its pool."""
    return _matching(state, faction, {"type": "tank"}, ("card",), board(data))


def set_aside(data: GameData, state: State, faction: str, spec: dict[str, Any]) -> list[str]:
    """20.4, 19.3: the faction's counters set aside at set-up for a card, as `spec` names them
    (status removed; card for those a reconstructed card brings, README ruling 62)."""
    return _matching(state, faction, spec, ("removed", "card"), board(data))


def _weakest(b: Any, state: State, uid: str) -> tuple[bool, list[int], str]:
    """README ruling 38: reduced counters first, then the weakest (attack, then defence)."""
    reduced = bool(state["units"][uid]["reduced"])
    return not reduced, list(b.counters[uid]["reduced" if reduced else "full"]), uid


def _units_effect(data: GameData, state: State, play: dict[str, Any], effect: dict[str, Any],
                  why: str) -> list[Event]:
    """add_units: counters set aside for a card at set-up (20.4, 19.3) join the faction's
    pool; tank: the faction's tanks (15.4); remove_units: those on the map at the places
    the card names first (FIRST_FROM), then counters never or no longer in play (set
    aside, eliminated, in the pool), then the weakest on the map, reduced first (the
    rulebook leaves the choice to the owner; by mail pbem makes it, see the game's
    README); Czech Legion quits without its rule takes any two infantry (19.3). Counters
    removed by a card are out of the game (status gone)."""
    b = board(data)
    faction = faction_of(effect, play)
    spec = effect.get("units") or {}
    count = int(spec.get("count", 1))
    events: list[Event] = []
    if effect["do"] == "tank":
        tanks = waiting_tanks(data, state, faction)
        return [{"type": "units_in", "faction": faction, "units": tanks, "why": why}] if tanks else \
            [{"type": "note", "zone": "", "text": f"{faction} has no tank waiting for the card"}]
    if effect["do"] == "add_units":
        found = set_aside(data, state, faction, spec)[:count]
        if found:
            events.append({"type": "units_in", "faction": faction, "units": found, "why": why})
        if len(found) < count:
            events.append({"type": "note", "zone": "", "text": f"{why}: only {len(found)} of {count} "
                           f"counters of {faction} were set aside for a card"})
    else:
        if play["card"] == CZECH_QUITS and not state["options"].get("czech_legion"):
            spec = {k: v for k, v in spec.items() if k != "full"}  # 19.3: any two infantry
        first = FIRST_FROM.get(play["card"], ())
        off = [u for status in ("removed", "eliminated", "pool", "bought")
               for u in _matching(state, faction, spec, (status,), b)]
        on = sorted(_matching(state, faction, spec, ("map",), b), key=lambda u: _weakest(b, state, u))
        there = [u for u in on if state["units"][u]["zone"] in first]  # the effect's note
        chosen = (there + off + [u for u in on if u not in there])[:count]
        if chosen:
            events.append({"type": "units_out", "faction": faction, "units": chosen, "why": why})
        if len(chosen) < count:
            events.append({"type": "note", "zone": "", "text": f"{why}: only {len(chosen)} of {count} "
                           f"counters of {faction} were left to remove"})
    if effect.get("money"):
        sign = 1 if effect["do"] == "add_units" else -1
        events.append({"type": "card_resources", "faction": faction, "money": sign * int(effect["money"]),
                       "dice": [], "why": why})
    return events


def _leader_effect(data: GameData, state: State, play: dict[str, Any], effect: dict[str, Any],
                   rng: Rng, label: str, why: str) -> list[Event]:
    """10.6: a leader from the unused leaders, placed in a zone the faction controls."""
    faction = faction_of(effect, play)
    if effect["leader"] == "random_unused":
        unused = unused_leaders(data, state, faction)
        if not unused:
            return [{"type": "note", "zone": "", "text": f"{why}: {faction} has no unused leader (10.6)"}]
        leader = rng.choice(f"{label}:leader", unused)
    else:
        leader = effect["leader"]
        if state["units"][leader]["status"] != "unused":
            return [{"type": "note", "zone": "", "text": f"{why}: {leader} is not among the unused "
                     "leaders (10.6): no effect"}]
    return [_arrive(state, leader, play.get("zone"), faction, why)]


def unused_leaders(data: GameData, state: State, faction: str) -> list[str]:
    """10.6: the faction's unused leaders a new-leader card may draw (not those a card brings
    in by name: Wrangel, Yudenich, Miller, 20.3)."""
    named = reserved(data)
    return sorted(u for u, p in state["units"].items()
                  if p["type"] == "leader" and p["faction"] == faction and p["status"] == "unused"
                  and u not in named)


def reserved(data: GameData) -> set[str]:
    """The leaders a card brings in by name."""
    return {str(e.get("leader") if e["do"] == "leader" else e.get("add"))
            for c in deck(data).values() for e in c["effect"]
            if (e["do"] == "leader" and e.get("leader") != "random_unused") or e["do"] == "replace_leader"}


def _arrive(state: State, leader: str, zone: Any, faction: str, why: str) -> Event:
    """The zone named, if the faction controls it, else its first home zone it controls."""
    if zone is None or state["control"].get(zone) != faction:
        held = sorted(z for z, owner in state["control"].items() if owner == faction)
        zone = held[0] if held else None
    return {"type": "leader_in", "leader": leader, "zone": zone, "faction": faction, "why": why}


# ---------------------------------------------------------------------------------------
# folding


def _played(_b: Any, s: State, e: Event) -> None:
    c = s["cards"]
    hand = c["hands"].get(e["holder"], [])
    if not any(n["id"] == e["slot"] for n in hand):
        raise ValueError(f"{e['holder']} holds no card {e['slot']}")
    c["hands"][e["holder"]] = [n for n in hand if n["id"] != e["slot"]]
    key = "removed" if e["removed"] else "discard"
    c[key] = [*c[key], e["card"]]


def _resources(_b: Any, s: State, e: Event) -> None:
    faction = e["faction"]
    if faction not in MAJORS:
        raise ValueError(f"no major faction {faction!r}")
    for key in ("money", "manpower"):
        if key in e:
            s[key][faction] = max(0, int(s[key][faction]) + int(e[key]))  # 6.4 never below 0


def _flag(_b: Any, s: State, e: Event) -> None:
    # the faction that played it, read by Greater Poland (13.52); True in older logs
    s.setdefault("flags", {})[str(e["flag"])] = e.get("faction") or True


def _units_in(_b: Any, s: State, e: Event) -> None:
    for uid in e["units"]:
        if s["units"][uid]["status"] not in ("card", "removed"):
            raise ValueError(f"{uid} is not waiting for a card")
        s["units"][uid].update(status="pool", zone=None)


def _units_out(_b: Any, s: State, e: Event) -> None:
    for uid in e["units"]:
        s["units"][uid].update(status="gone", zone=None)


def _leader_in(b: Any, s: State, e: Event) -> None:
    if e["zone"] is None:
        s["units"][e["leader"]].update(status="unused", zone=None)
        return
    if e["zone"] not in b.zones:
        raise ValueError(f"no zone {e['zone']!r}")
    s["units"][e["leader"]].update(status="map", zone=e["zone"])


def _raids(b: Any, s: State, e: Event) -> None:
    for zone in e["zones"]:
        if zone not in b.zones:
            raise ValueError(f"no zone {zone!r}")
        s.setdefault("raids", {})[zone] = e["faction"]


def _raids_over(_b: Any, s: State, e: Event) -> None:
    s.pop("raids", None)


def _battle(_b: Any, s: State, e: Event) -> None:
    s.setdefault("battle_cards", {}).setdefault(e["zone"], []).append(
        {"faction": e["faction"], "card": e["card"], "modifier": dict(e["modifier"])})


def _battle_used(_b: Any, s: State, e: Event) -> None:
    for card in (s.get("battle_cards") or {}).get(e["zone"], []):
        if card["card"] == e["card"] and card["faction"] == e["faction"]:
            card["used"] = True


def _partisans_placed(b: Any, s: State, e: Event) -> None:
    if e["zone"] not in b.zones:
        raise ValueError(f"no zone {e['zone']!r}")
    partisans = s.setdefault("partisans", {})
    if e.get("from"):
        partisans.pop(e["from"], None)
    partisans[e["zone"]] = e["faction"]


def _partisans_gone(_b: Any, s: State, e: Event) -> None:
    (s.get("partisans") or {}).pop(e["zone"], None)


def _wounded(_b: Any, s: State, e: Event) -> None:
    s["units"][e["leader"]].update(status="unused", zone=None)


def _rail(_b: Any, s: State, e: Event) -> None:
    bonus = s.setdefault("rail_bonus", {})
    bonus[e["faction"]] = int(bonus.get(e["faction"], 0)) + int(e["amount"])


APPLY = {"card_played": _played, "card_resources": _resources, "flag_set": _flag,
         "units_in": _units_in, "units_out": _units_out, "leader_in": _leader_in,
         "rail_bonus": _rail, "raids": _raids, "raids_over": _raids_over, "battle_card": _battle,
         "battle_card_used": _battle_used, "leader_wounded": _wounded,
         "partisans_placed": _partisans_placed, "partisans_gone": _partisans_gone}


def _told_card_played(b: Board, e: Event) -> str:
    how = "must play" if e.get("immediate") else "plays"
    at = f" on {e['target']}" if e.get("target") else ""
    fate = "out of the game (14.72)" if e["removed"] else "to the discards"
    return f"{e['faction']} {how} {e['card']}{at} ({e['slot']} opened, {fate})"


def _told_card_resources(b: Board, e: Event) -> str:
    parts = [f"{k} {int(e[k]):+d}" for k in ("money", "manpower") if k in e]
    dice = f" (dice {' '.join(map(str, e['dice']))})" if e.get("dice") else ""
    return f"{e['faction']}: {', '.join(parts)}{dice}, by {e['why']}"


def _told_leader_in(b: Board, e: Event) -> str:
    where = e["zone"] or "the unused leaders (no zone under control)"
    return f"{e['faction']}: leader {e['leader']} arrives in {where}, by {e['why']} (10.6)"


def _told_infighting(b: Board, e: Event) -> str:
    mod = f" {e['modifier']:+d}" if e["modifier"] else ""
    return f"Infighting: {e['faction']} rolled {e['roll']}{mod}: {e['result']} (10.8.1)"


def _told_partisans_placed(b: Board, e: Event) -> str:
    moved = f" (moved from {e['from']})" if e.get("from") else ""
    return f"{e['faction']} raises partisans in {e['zone']}{moved}, by {e['why']} (15.2)"


DESCRIBE: dict[str, Describe[Board]] = {
    "card_played": Ruled(_told_card_played, "14.72"),
    "card_resources": _told_card_resources,
    "flag_set": Told("{flag} is now in force, by {why}"),
    "units_in": Told("{faction}: {units} join the force pool, by {why}"),
    "units_out": Told("{faction}: {units} leave the game, by {why}"),
    "leader_in": Ruled(_told_leader_in, "10.6"),
    "infighting": Ruled(_told_infighting, "10.8.1"),
    "raids": Told("Cossack raid on {zones}: they count for nobody until the victory phase", "15.3"),
    "raids_over": Told("the Cossack raiders go home with their plunder", "15.3"),
    "partisans_placed": Ruled(_told_partisans_placed, "15.2"),
    "partisans_gone": Told("the partisans in {zone} are gone: {why}", "15.2"),
    "leader_wounded": Told("{leader} is wounded in {zone} and leaves the map, by {why}", "10.4"),
    "battle_card": Told("{faction}: {card} on the fighting in {zone} this phase"),
    "battle_card_used": Told("{card}: {unit} stands its ground in {zone}; the loss stands"),
    "rail_bonus": Told("{faction}: {amount} more rail movement(s) this turn, by {why}"),
    "referee_decides": Told("REFEREE TO DECIDE for {card} played by {faction}: {decide}; record "
                            "it with pbem adjust"),
}

