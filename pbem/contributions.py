"""The contribution round: players' salts in the key of every hidden draw.

Hidden draws (a game's set-up draws, every shuffle of a deck) cannot use the public seed
chain: their results must stay unknown to players until `pbem unseal`. Keyed only by the
referee's hidden secret, they could be ground: before `pbem new` publishes the secret's
commitment, a referee could try millions of secrets, simulate the set-up and the deck, and
keep the one they like. So nothing hidden is drawn at `new`. The campaign opens with one
extra phase, `contribute` (turn 0), in which every faction sends one signed file whose
salt (filled in by `pbem sign`, from the player's own key) is its contribution; when all
are in, the hidden key becomes

    HMAC-SHA-256(key=hidden_key(hidden), msg=b"pbem-hidden-mix-v1" + salts_digest(contributions))

(`dice.mixed_key`), the game's set-up is drawn with it, and every later hidden draw uses it
too. The referee fixed the hidden secret before any contribution existed; a player cannot
compute a draw without the hidden secret. The cost is one mail round trip, at the start of
a campaign (docs/fairness.md, "Hidden draws").

`pbem new --no-contributions` skips the round (a hot-seat game, where one person plays every
side anyway): the set-up is drawn at `new` with the hidden key alone, and `status` and the
reports say so.

`Contributing` wraps a game: in the round it answers for the game (the phase, the orders'
check, the bot and the template, the one event `set_up`); from the set-up on, every call is
the game's own.
"""

from __future__ import annotations

from typing import Any

from pbem.game import (
    Event,
    Game,
    GameData,
    Orders,
    Phase,
    Problem,
    Rng,
    Secrets,
    State,
    apply_all,
    clone,
    seating,
)

PHASE = "contribute"
MARK = "pbem_contribute"  # the key of the game state before the set-up
TITLE = "Contributions to the hidden draws"
PROMPT = ("sign this file and send it back unchanged: 'pbem sign' adds your salt, which is "
          "mixed into the key of the set-up draws and of every shuffle; the referee fixed "
          "the hidden secret before any salt existed (docs/fairness.md, \"Hidden draws\")")


# what an orders template of the round says instead of "replace the example with your own"
TEMPLATE_NOTE = ["# Your contribution to the hidden draws: nothing to fill in. Sign this file",
                 "# as it is ('pbem sign FILE' adds your salt) and send it to the referee with",
                 "# its .sig."]


def pre_game(options: dict[str, Any], factions: list[str]) -> State:
    """The game state at `new` when the round is asked for: nothing drawn yet."""
    return {MARK: {"factions": sorted(factions)}, "turn": 0, "phase": PHASE,
            "options": dict(options)}


def is_pre_game(state: Any) -> bool:
    return isinstance(state, dict) and MARK in state


def without(campaign_state: dict[str, Any]) -> bool:
    """True when the campaign's hidden draws were made without the players' contributions:
    its set-up is drawn (no round pending) and no round was held."""
    return not is_pre_game(campaign_state.get("game")) and "contributions" not in campaign_state


WITHOUT = ("keyed by the referee's hidden secret alone: this campaign was made without the "
           "contribution round (pbem new --no-contributions)")


# what is said of a campaign whose round the moderator resolved without some salts
SHORT = "the set-up was drawn with no salt of theirs, so the referee's secret stood in for theirs"


def short_of(campaign_state: dict[str, Any], contributors: list[str] | None) -> list[str]:
    """The factions of the round (`contributors`, as the `new` step named them) whose salt is
    not in the key of the hidden draws: the round was resolved without them."""
    if "contributions" not in campaign_state or not contributors:
        return []
    return sorted(set(contributors) - set(campaign_state["contributions"]))


def hidden_draws(campaign_state: dict[str, Any], contributors: list[str] | None = None) -> str:
    """How the campaign's hidden draws are keyed, in a line for status, the reports and the
    audit."""
    if is_pre_game(campaign_state.get("game")):
        return "the contribution round: nothing hidden is drawn until every salt is in"
    if without(campaign_state):
        return WITHOUT
    given = sorted(campaign_state["contributions"])
    text = ("keyed by the referee's hidden secret and the salts of "
            + (", ".join(given) if given else "nobody (no faction sent one)"))
    missing = short_of(campaign_state, contributors)
    return text + (f"; without the salts of {', '.join(missing)}: {SHORT}" if missing else "")


def note(campaign_state: dict[str, Any], contributors: list[str] | None) -> str:
    """What every report says of hidden draws not keyed by every player's salt ("" when
    they are)."""
    if without(campaign_state):
        return f"Hidden draws (the set-up, every shuffle) are {WITHOUT}."
    missing = short_of(campaign_state, contributors)
    if missing:
        return (f"Hidden draws (the set-up, every shuffle) are keyed without the salts of "
                f"{', '.join(missing)}: {SHORT}.")
    return ""


class Contributing:
    """A game with the contribution round in front of its set-up."""

    def __init__(self, game: Game) -> None:
        self.game = game
        self.id = game.id
        self.name = game.name

    def __getattr__(self, name: str) -> Any:  # anything else a game offers
        return getattr(self.game, name)

    def describe(self, data: GameData) -> dict[str, Any]:
        return self.game.describe(data)

    def check_data(self, data: GameData) -> list[str]:
        return self.game.check_data(data)

    def setup(self, data: GameData, options: dict[str, Any], rng: Rng) -> State:
        return self.game.setup(data, options, rng)

    def phase(self, data: GameData, state: State) -> Phase:
        if is_pre_game(state):
            return Phase(name=PHASE, turn=0, awaiting=tuple(state[MARK]["factions"]),
                         title=TITLE, prompt=PROMPT)
        return self.game.phase(data, state)

    def validate(self, data: GameData, state: State, faction: str, orders: Orders) -> list[Problem]:
        if not is_pre_game(state):
            return self.game.validate(data, state, faction, orders)
        problems = []
        for key in sorted(orders):
            if orders[key] in (None, [], {}):
                continue
            problems.append(Problem((key,), f"the contribution round takes no {key}: send the "
                                    "file as it came, with 'orders: []' (pbem sign adds the salt)"))
        return problems

    def resolve(self, data: GameData, state: State, orders: dict[str, Orders], rng: Rng,
                secrets: Secrets | None = None) -> list[Event]:
        if not is_pre_game(state):
            return self.game.resolve(data, state, orders, rng, secrets)
        # the rng is keyed by the mixed hidden key (pbem.step.dice_of), never the seed chain
        return [{"type": "set_up", "state": self.game.setup(data, state["options"], rng)}]

    def apply(self, data: GameData, state: State, event: Event) -> State:
        if event.get("type") == "set_up" and is_pre_game(state):
            return clone(event["state"])  # type: ignore[no-any-return]
        return self.game.apply(data, state, event)

    def apply_all(self, data: GameData, state: State, events: list[Event]) -> State:
        if is_pre_game(state):
            for event in events:
                state = self.apply(data, state, event)
            return state
        return apply_all(self.game, data, state, events)

    def seating(self, data: GameData, state: State) -> dict[str, str | None]:
        return {} if is_pre_game(state) else seating(self.game, data, state)

    def view(self, data: GameData, state: State, who: str) -> dict[str, Any]:
        if is_pre_game(state):
            return {"who": who, "turn": 0, "phase": PHASE, "contribute": True,
                    "factions": list(state[MARK]["factions"])}
        return self.game.view(data, state, who)

    def bot(self, data: GameData, state: State, faction: str, rng: Rng) -> Orders:
        return {"orders": []} if is_pre_game(state) else self.game.bot(data, state, faction, rng)

    def template(self, data: GameData, state: State, faction: str, rng: Rng) -> Orders:
        if is_pre_game(state):
            return {"orders": []}
        return self.game.template(data, state, faction, rng)

    def default_orders(self, data: GameData, state: State, faction: str, rng: Rng) -> Orders:
        if is_pre_game(state):
            return {"orders": []}  # a faction that sends nothing contributes nothing
        return self.game.default_orders(data, state, faction, rng)

    def summary(self, data: GameData, event: Event) -> str:
        if event.get("type") == "set_up":
            return ("the set-up is drawn with the hidden key and the players' contributions "
                    "(checkable by everyone after pbem unseal)")
        return self.game.summary(data, event)
