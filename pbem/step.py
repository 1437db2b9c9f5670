"""One step of a campaign: a phase resolved, its stages in the order they run.

`apply` and `resolve` (pbem.api) record what the players sent, then call `advance`, which
resolves each phase whose orders are all in (`resolve_phase`): it opens what is pending
(`open_orders`), gives the missing their default orders (`default_orders`), takes the step's
dice (`dice_of`: the hidden key for the set-up after the contribution round, else the next
element of the seed chain, by randomness.dice_key, the one place the audit's replay asks
too), runs the rules, seals what the step makes secret (`draw_keys`, `reveal_files` at a
turn's end) and records the step. `finish` completes a step a killed pbem left half-done:
the commands that may write hand it to `Campaign.locked` (no module patches another).
"""

from __future__ import annotations

from typing import Any

from pbem import randomness, yamlio
from pbem.campaign import CONFIG, SEAT_KEYS, Campaign, entered_seats, protected
from pbem.contributions import is_pre_game
from pbem.crypto import sealed
from pbem.dice import KeyedRng
from pbem.errors import CampaignError
from pbem.game import Event, Game, GameData, Phase, Rng, apply_all, clone
from pbem.log import after_resolve, make_entry, normal, sealed_files
from pbem.schedule import nmr_orders

# ---------------------------------------------------------------------------------------
# whose keys: the referee's secret, and who a sealed value is sealed to


def referee_secret(campaign: Campaign) -> bytes:
    path = campaign.private / "secret"
    if not path.exists():
        raise CampaignError(
            f"{path}: the referee's secret is missing; dice can only be rolled in the "
            "referee's own copy of the campaign"
        )
    return bytes.fromhex(path.read_text().strip())


def sealed_to(campaign: Campaign, faction: str) -> list[str]:
    owner = campaign.factions().get(faction, {}).get("age")
    referee = campaign.config["referee"]["age"]
    return [referee] + ([owner] if owner else [])


def referee_secrets(campaign: Campaign, secret: bytes,
                    contributions: dict[str, str] | None) -> Any:
    """The referee's opener: reads the referee's key only if a secret is opened, seals new
    nodes to their owner and the referee, and shuffles with the hidden key (mixed with the
    players' contributions when the campaign held the round)."""
    def recipients(owner: str) -> list[str]:
        if owner == "referee":
            return [campaign.config["referee"]["age"]]
        return sealed_to(campaign, owner)

    return sealed.RefereeSecrets(campaign.id, campaign.referee_identities, recipients,
                                 randomness.hidden_draw_key(secret, contributions))


# ---------------------------------------------------------------------------------------
# the stages of a resolution, in order


def advance(campaign: Campaign, state: dict[str, Any], nmr: bool = False) -> list[dict[str, Any]]:
    """Resolve phases while every awaited faction has orders (or the phase needs nobody);
    with `nmr`, the first phase resolves with default orders for the factions missing."""
    resolved: list[dict[str, Any]] = []
    first = True
    while True:
        phase = campaign.phase(state)
        if phase.over:
            break
        missing = [f for f in phase.awaiting if f not in state.get("pending", {})]
        if missing and not (nmr and first):
            break
        resolved.append(resolve_phase(campaign, state, phase, missing))
        state = campaign.state()
        first = False
    return resolved


def resolve_phase(campaign: Campaign, state: dict[str, Any], phase: Phase,
                  missing: list[str]) -> dict[str, Any]:
    """One phase resolved and recorded as one step: what it did, for the command to say."""
    game, data = campaign.game, campaign.data
    secret = referee_secret(campaign)
    seq = state["seq"] + 1
    pending: dict[str, Any] = state.get("pending", {})
    orders, revealed = open_orders(campaign, pending)
    # a phase that takes no orders mixes in the salts of the last phase that did
    salts = pending_salts(pending, revealed) or state.get("last_salts", {})
    used = default_orders(campaign, state, phase, missing, secret, seq, orders)
    hidden_draws, batch, seed, rng = dice_of(state, secret, salts)
    secrets = referee_secrets(campaign, secret, state.get("contributions"))
    events = run_rules(game, data, state["game"], orders, rng, secrets)
    keys = draw_keys(campaign, state, secrets, phase.turn)
    new_game = apply_all(game, data, state["game"], events)
    after = game.phase(data, new_game)
    # orders files that held a secret are published when the turn ends
    turn_ends = after.turn != phase.turn or after.over
    files_out = (reveal_files(campaign, [f for f in sealed_files(state) if not f.get("keep")])
                 if turn_ends else [])
    summary = f"{phase.title or phase.name} resolved"
    if revealed:
        summary += f"; sealed orders of {', '.join(revealed)} revealed"
    if used:
        summary += " (no orders from " + ", ".join(f"{f}: {how}" for f, how in used.items()) + ")"
    seats, seated_files, seated_state = entered(campaign, state, new_game)
    if seats:
        summary += "; " + entered_summary(seats)
    entry = make_entry(
        seq=seq, prev=state["head"], kind="resolve", turn=phase.turn, phase=phase.name,
        summary=summary, revealed=revealed or None, seats=seats or None,
        nmr_orders={f: orders[f] for f in used} or None,
        nmr_policy=used or None,
        hidden_draws=hidden_draws or None, draw_keys=keys or None,
        batch=batch, seed=seed, salts=salts, opened=secrets.openings or None,
        files_revealed=files_out or None,
        events=events, dice=[r._asdict() for r in rng.rolls],
    )
    tag = f"turn-{after.turn:04d}" if after.turn != phase.turn else None
    files = {**seated_files, **published_files(pending, revealed, files_out)}
    campaign.write_step(entry, {**seated_state, "game": new_game, **after_resolve(state, entry)},
                        f"step {seq}: {summary}", extra=files, tag=tag)
    return {"seq": seq, "phase": phase.name, "turn": phase.turn, "events": len(events),
            "dice": len(rng.rolls), "nmr": list(used), "nmr_policy": used}


def open_orders(campaign: Campaign, pending: dict[str, Any]) -> tuple[dict[str, Any], dict[str, Any]]:
    """The orders bodies to resolve with, and the openings to publish for sealed ones."""
    bodies: dict[str, Any] = {}
    revealed: dict[str, Any] = {}
    identities: list[str] | None = None
    for faction, record in sorted(pending.items()):
        if "sealed" not in record:
            bodies[faction] = dict(record["body"])
            if "secret" in record:
                bodies[faction]["secret"] = record["secret"]  # opened by the rules, if ever
            continue
        if identities is None:
            identities = campaign.referee_identities()
        opened = sealed.open_node(campaign.id, record["sealed"], identities)
        if not opened.verified:
            raise CampaignError(f"the sealed orders of {faction} do not match their commitment")
        bodies[faction] = dict(opened.value["body"])
        if opened.value.get("secret") is not None:
            bodies[faction]["secret"] = opened.value["secret"]
        revealed[faction] = {"nonce": opened.nonce, "value": opened.value}
    return bodies, revealed


def pending_salts(pending: dict[str, Any], revealed: dict[str, Any]) -> dict[str, str]:
    """The salts the players sent with the orders of the phase being resolved."""
    salts = {}
    for faction, record in pending.items():
        salt = revealed[faction]["value"].get("salt") if faction in revealed else record.get("salt")
        if salt:
            salts[faction] = salt
    return salts


def default_orders(campaign: Campaign, state: dict[str, Any], phase: Phase, missing: list[str],
                   secret: bytes, seq: int, orders: dict[str, Any]) -> dict[str, str]:
    """The orders of each faction missing, by its campaign.yaml nmr policy (hold | bot |
    disorder; wait holds when forced), added to `orders`; each faction's policy used."""
    used: dict[str, str] = {}
    for faction in missing:
        bot_rng = KeyedRng(randomness.bot_key(secret, f"nmr:{seq}:{faction}"))
        used[faction], orders[faction] = nmr_orders(campaign, state["game"], faction, bot_rng)
        orders[faction] = seal_default_secret(campaign, phase, faction, seq, orders[faction])
    return used


def seal_default_secret(campaign: Campaign, phase: Phase, faction: str, seq: int,
                        body: dict[str, Any]) -> dict[str, Any]:
    """Default orders made for a faction (resolve --nmr) are recorded in the log; a secret
    part in them (where the bot hid its face-down units) is sealed to the faction and the
    referee first, as the secret part of a file the player sent would be, and published by
    unseal."""
    if body.get("secret") is None:
        return body
    ctx = sealed.context(campaign.id, "orders-secret", f"t{phase.turn}:{phase.name}:{faction}:{seq}:nmr",
                         phase.turn, faction)
    return {**body, "secret": sealed.seal(ctx, body["secret"], sealed_to(campaign, faction))}


def draws_hidden(game_state: dict[str, Any]) -> bool:
    """Whether a resolution from this position draws with the hidden key (the set-up after
    the contribution round) rather than the next element of the seed chain: decided here
    for the referee's step and the audit's replay alike."""
    return is_pre_game(game_state)


def run_rules(game: Game, data: GameData, game_state: dict[str, Any], orders: dict[str, Any],
              rng: Rng, secrets: Any) -> list[Event]:
    """The rules' events of one resolution, as the log keeps them (plain data): the
    referee's step and the audit's replay both ask the rules through here."""
    events: list[Event] = normal(game.resolve(data, game_state, orders, rng, secrets))
    return events


def dice_of(state: dict[str, Any], secret: bytes,
            salts: dict[str, str]) -> tuple[bool, int | None, str | None, KeyedRng]:
    """The step's dice: the set-up after the contribution round draws with the hidden key of
    the referee and the players; every other resolution takes the next element of the seed
    chain, mixed with the salts. Whether its draws are hidden, its batch and seed, its rng."""
    hidden_draws = draws_hidden(state["game"])
    batch = None if hidden_draws else state.get("batch", 0) + 1
    seed = None if batch is None else randomness.batch_seed(secret, batch).hex()
    key = randomness.dice_key({"type": "resolve", "hidden_draws": hidden_draws, "seed": seed,
                               "salts": salts}, randomness.referee_hidden_key(secret))
    assert key is not None  # the referee knows every key
    return hidden_draws, batch, seed, KeyedRng(key)


def draw_keys(campaign: Campaign, state: dict[str, Any], secrets: Any,
              turn: int) -> dict[str, Any]:
    """The own draw key of each faction the rules drew for with it for the first time in
    this resolution (dice.owner_key), sealed to that faction and the referee: its player
    opens it and checks those draws at once (`pbem audit --key`; docs/fairness.md)."""
    out = {}
    for owner in sorted(secrets.owners - set(state.get("draw_keys", []))):
        key = secrets.owner_key(owner)
        if key is not None:
            out[owner] = sealed.seal(sealed.context(campaign.id, "draw-key", owner, turn, owner),
                                     key.hex(), sealed_to(campaign, owner))
    return out


def reveal_files(campaign: Campaign, files: list[dict[str, Any]]) -> list[dict[str, Any]]:
    out = []
    identities = campaign.referee_identities() if files else []
    for item in files:
        opened = sealed.open_node(campaign.id, item["node"], identities)
        out.append({"file": item["file"], "faction": item["faction"], "nonce": opened.nonce,
                    "value": opened.value})
    return out


def published_files(pending: dict[str, Any], revealed: dict[str, Any],
                    files_out: list[dict[str, Any]]) -> dict[str, str]:
    """The orders files, as received, that a step publishes: those of the sealed orders it
    reveals and those kept sealed until the turn's end (each with its .sig)."""
    files: dict[str, str] = {}
    shown = [(pending[f]["file"], o["value"]) for f, o in revealed.items()]
    for path, value in shown + [(out["file"], out["value"]) for out in files_out]:
        files[path] = value["file"]
        if value.get("signature"):
            files[f"{path}.sig"] = value["signature"]
    return files


# ---------------------------------------------------------------------------------------
# the powers a step seats, and campaign.yaml as it then reads


def entered(campaign: Campaign, state: dict[str, Any], new_game: dict[str, Any]
            ) -> tuple[dict[str, Any], dict[str, str], dict[str, Any]]:
    """What a step that takes the game to `new_game` seats: the seats of the powers it
    makes enter (pbem.campaign.entered_seats), campaign.yaml as it then reads (to commit
    with the step) and the engine's state with those seats in its settings."""
    factions = campaign.factions()
    try:
        seats = entered_seats(campaign.game, campaign.data, state["game"], new_game,
                              {f: dict(v) for f, v in factions.items()})
    except ValueError as exc:  # the game's own error: nothing is written
        raise CampaignError(f"the rules of {campaign.config['game']} seat a power wrongly: "
                            f"{exc}") from None
    if not seats:
        return {}, {}, state
    config = seated(campaign, seats)
    settings = clone(state.get("settings") or protected(campaign.config))
    settings.setdefault("factions", {}).update(seats)
    return seats, {CONFIG: config_text(config)}, {**state, "settings": settings}


def seated(campaign: Campaign, seats: dict[str, dict[str, Any]]) -> dict[str, Any]:
    """campaign.yaml's settings with these seats given; what is not a seat (a time zone,
    say) stays with its faction."""
    config = dict(campaign.config)
    config["factions"] = {f: dict(v) for f, v in campaign.factions().items()}
    for faction, seat in seats.items():
        kept = {k: v for k, v in config["factions"].get(faction, {}).items() if k not in SEAT_KEYS}
        config["factions"][faction] = {**seat, **kept}
    return config


def entered_summary(seats: dict[str, Any]) -> str:
    return "; ".join(f"{f} enters the game, played by {seat.get('player')}"
                     for f, seat in sorted(seats.items()))


def config_text(config: dict[str, Any]) -> str:
    head = (
        "# pbem campaign settings. You may edit e-mail settings, deadlines, absences and NMR\n"
        "# policies. The game, its options and overrides (corrections to the game's data, given\n"
        "# at 'pbem new --override FILE'), the keys and the seats are recorded by the log: only\n"
        "# a recorded step changes them ('pbem seat'); an edit by hand is refused.\n"
    )
    return head + yamlio.dump(config)


# ---------------------------------------------------------------------------------------
# a step a killed pbem left half-done


def finish(campaign: Campaign, plan: dict[str, Any]) -> list[str]:
    """Finish what an `apply` or `resolve` killed half-way meant to do: its orders that were
    committed are in; the phases they complete resolve now (with the NMR policy for the
    missing when it was `resolve --nmr`). Orders it had not committed are not there: the
    player's file is applied again, or `status` shows the faction still awaited."""
    if not plan.get("advance"):
        return []
    done = retag(campaign)
    resolved = advance(campaign, campaign.state(), nmr=bool(plan.get("nmr")))
    return done + [f"finished the step a killed pbem left: {r['phase']} of turn {r['turn']} "
                   f"resolved (step {r['seq']})" for r in resolved]


def retag(campaign: Campaign) -> list[str]:
    """The turn tag of the last step, when a kill came between its commit and its tag."""
    state = campaign.state()
    last = campaign.entry(state["seq"])
    turn = campaign.phase(state).turn
    if last["type"] != "resolve" or turn == last["turn"]:
        return []
    tag = f"turn-{turn:04d}"
    store = campaign.store()
    if store.tags().get(tag) == store.head():
        return []
    store.tag(tag)
    return [f"made the tag {tag} of step {state['seq']}, which a killed pbem left unmade"]
