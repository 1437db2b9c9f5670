"""Random playouts of the Chechen War, in-process, without git: each side sends, in every
segment, random orders of every kind a player may send (moves, helicopters, gunships,
ambushes and free ambushes, attacks with markers and leaders, supports, arrivals, leaders
taken underground, ceasefires, reinforcements, strikes, kidnappings), cut down to what the
referee's check lets through (an item the rules refuse is dropped, as a player would fix
it). Each game must end in a result of 3.1 or 3.2 within its turns, with no crash and no
segment that awaits a side forever; every state along the way satisfies 11.0 (no leader
alone in a hex). The default run plays a few seeds; the rest are marked `playout` and run on
demand: `python -m pytest -m playout`."""

from __future__ import annotations

import importlib
import random
from typing import Any

import pytest
from fixed_rng import KeyedSecrets

from pbem.crypto import sealed
from pbem.dice import KeyedRng
from pbem.game import GameData, State, get_game, load_data

GAME = get_game("chechen_war")
combat = importlib.import_module("pbem_game_chechen_war.combat")
board_ = importlib.import_module("pbem_game_chechen_war.board")
B = board_.board(load_data("chechen_war"))
RUSSIAN, CHECHEN = "russian", "chechen"
LONG = pytest.mark.playout


def data() -> GameData:
    return load_data("chechen_war")


def opened(state: State) -> State:
    """The position as the referee's check sees it: every sealed value open."""
    return sealed.substitute(state, lambda node: node["value"])  # type: ignore[no-any-return]


def neighbours(hex_id: str) -> list[str]:
    return [h for h in B.grid.neighbours(hex_id) if h in B.terrain]


def walk(r: random.Random, start: str, steps: int) -> list[str]:
    path = [start]
    for _ in range(steps):
        ahead = [h for h in neighbours(path[-1]) if h not in path]
        if not ahead:
            break
        path.append(r.choice(ahead))
    return path


def _stacks(pieces: dict[str, dict[str, Any]]) -> dict[str, list[str]]:
    out: dict[str, list[str]] = {}
    for piece, where in sorted(pieces.items()):
        out.setdefault(where["hex"], []).append(piece)
    return out


def _kinds(side: str, use: str) -> list[str]:
    return sorted(k for k, m in combat.marker_kinds(data(), side).items() if use in m["use"])


def candidates(r: random.Random, state: State, side: str, bot: dict[str, Any]) -> dict[str, Any]:
    """Random orders of every kind the segment takes, on top of the bot's (its arrivals)."""
    phase = state["phase"]
    items: list[Any] = [i for i in bot.get("orders") or [] if isinstance(i, dict) and "arrive" in i]
    secret: dict[str, Any] = {}
    mine = state["russians"] if side == RUSSIAN else state["tokens"]
    theirs = _stacks(state["tokens"] if side == RUSSIAN else state["russians"])
    leaders_on = [x for x, w in sorted(state["leaders"].items()) if w in B.terrain]
    leaders_free = [x for x, w in sorted(state["leaders"].items()) if w == "underground"]
    if phase in ("russian-movement", "chechen-movement"):
        for hex_id, pieces in _stacks(mine).items():
            if r.random() < 0.5:
                items.append({"move": {"units": r.sample(pieces, r.randint(1, len(pieces))),
                                       "path": walk(r, hex_id, r.randint(1, 4))}})
        if side == RUSSIAN:
            if mine and r.random() < 0.4:
                items.append({"helicopter": {"unit": r.choice(sorted(mine)),
                                             "to": r.choice(sorted(B.terrain))}})
            if mine and r.random() < 0.4:
                items.append({"gunship": r.choice(sorted({v["hex"] for v in mine.values()}))})
        elif leaders_on and r.random() < 0.5:
            items.append({"underground": r.sample(leaders_on, r.randint(1, len(leaders_on)))})
    elif phase == "chechen-ambush":
        for hex_id in _stacks(mine):
            targets = [h for h in neighbours(hex_id) if h in theirs]
            if targets and r.random() < 0.5:
                body: dict[str, Any] = {"from": hex_id, "target": r.choice(targets)}
                if r.random() < 0.3:
                    body["support"] = r.choice(sorted(_stacks(mine)))
                if leaders_free and r.random() < 0.3:
                    body["leader"] = r.choice(leaders_free)
                items.append({"ambush": body})
            elif r.random() < 0.2:
                items.append({"free": {"from": hex_id}})
    elif phase in ("russian-combat", "chechen-combat"):
        kinds = _kinds(RUSSIAN, "attack")
        for hex_id, pieces in _stacks(mine).items():
            targets = [h for h in neighbours(hex_id) if h in theirs]
            if not targets or r.random() < 0.4:
                continue
            target = r.choice(targets)
            units = r.sample(pieces, r.randint(1, len(pieces)))
            attack: dict[str, Any] = {"target": target, "units": units}
            if r.random() < 0.3:
                attack["advance"] = units[:1]
            if side == RUSSIAN:
                n = r.choice([0, 0, 1, 2])
                if n:
                    attack["supports"] = n
                    secret.setdefault("supports", {})[target] = [r.choice(kinds) for _ in range(n)]
            elif r.random() < 0.5:
                secret.setdefault("supports", {})[target] = {
                    "markers": r.choice([0, 1]),
                    "leaders": r.sample(leaders_free, min(len(leaders_free), r.choice([0, 1])))}
            items.append({"attack": attack})
    elif phase in ("chechen-supports", "russian-supports"):
        kinds = _kinds(RUSSIAN, "defence")
        for attack in state.get("attacks") or []:
            if r.random() < 0.5:
                continue
            n = r.choice([0, 1, 2])
            support: dict[str, Any] = {"target": attack["target"], "markers": n}
            if side == CHECHEN:
                support["leaders"] = r.sample(leaders_free, min(len(leaders_free), r.choice([0, 1])))
            elif n:
                secret.setdefault("supports", {})[attack["target"]] = [r.choice(kinds) for _ in range(n)]
            items.append({"support": support})
    elif phase == "end-of-turn":
        items = list(bot.get("orders") or [])
        if side == RUSSIAN:
            if r.random() < 0.1:
                items.append({"ceasefire": True})
            if leaders_on and r.random() < 0.3:
                items.append({"strike": r.sample(leaders_on, 1)})
        elif r.random() < 0.1:
            items.append({"kidnap": True})
    else:  # the set-up: the bot's placement is random already
        return bot
    return {"orders": items, **({"secret": secret} if secret else {})}


def legal(state: State, side: str, body: dict[str, Any], bot: dict[str, Any]) -> dict[str, Any]:
    """`body` with every item the referee's check refuses dropped, one at a time; the bot's
    orders if what is left is still refused (a secret part that no longer fits, say)."""
    seen = opened(state) if side == CHECHEN else state  # the Russian's are checked on the public
    for _ in range(40):
        found = GAME.validate(data(), seen, side, body)
        if not found:
            return body
        items = [p.path[1] for p in found if p.path[:1] == ("orders",) and len(p.path) > 1]
        if not items or not body["orders"]:
            break
        gone = int(items[0])
        body = {**body, "orders": [x for k, x in enumerate(body["orders"]) if k != gone]}
        if not any("attack" in x or "support" in x for x in body["orders"]):
            body.pop("secret", None)
    assert GAME.validate(data(), seen, side, bot) == [], (state["phase"], side)
    return bot


def play(seed: int, options: dict[str, Any]) -> tuple[State, dict[str, int]]:
    r = random.Random(seed)
    key = seed.to_bytes(32, "big")
    state = GAME.setup(data(), dict(options), KeyedRng(key))
    sent: dict[str, int] = {}
    for step in range(1000):
        phase = GAME.phase(data(), state)
        if phase.over:
            return state, sent
        rng = KeyedRng(key + step.to_bytes(4, "big"))
        orders = {}
        for side in phase.awaiting:
            bot = GAME.bot(data(), opened(state) if side == CHECHEN else state, side, rng)
            orders[side] = legal(state, side, candidates(r, state, side, bot), bot)
            for item in orders[side]["orders"]:
                kind = next(iter(item)) if isinstance(item, dict) else str(item)
                sent[kind] = sent.get(kind, 0) + 1
        events = GAME.resolve(data(), state, orders, rng, KeyedSecrets(key))
        # a segment awaits nobody only when each side it would ask can do nothing (asked.py)
        assert phase.awaiting or any(e["type"] == "not_asked" for e in events), phase.name
        for event in events:
            state = GAME.apply(data(), state, event)
        held = {t["hex"] for t in state["tokens"].values()}
        alone = [x for x, w in state["leaders"].items() if w in B.terrain and w not in held]
        assert alone == [], (state["turn"], state["phase"], alone)  # 11.0
    raise AssertionError(f"seed {seed}: no result after 1000 steps (turn {state['turn']})")


@pytest.mark.parametrize("seed", [1, 2, *(pytest.param(s, marks=LONG) for s in range(3, 13))])
@pytest.mark.parametrize("setup", ["variable", "historical"])
def test_random_games_end_in_a_result(seed: int, setup: str) -> None:
    state, sent = play(seed, {"setup": setup})
    reason = state["result"]["reason"]
    assert reason.endswith("(3.1)") or reason.endswith("(3.2)"), reason
    assert state["turn"] <= int(data()["game"]["turns"]) + 1
    # the random players sent orders of many kinds, not only the bot's (measured over the 24
    # games of -m playout: every kind of the module's docstring)
    assert {"place", "move"} <= set(sent) and len(sent) >= 4, sent
