"""The orders template a player is mailed never overrides the player's own choices.

It carries the faction's standing instructions as they are in force (or none), plays no
card, and has no dice salts (the player's `pbem sign` adds theirs): sent back unchanged, it
changes nothing the player had set and plays nothing they did not write.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from pbem import api, yamlio
from pbem.campaign import Campaign
from pbem.reports.context import build_context
from tests.conftest import play


def _template(root: Path, faction: str) -> dict[str, Any]:
    (found,) = [t for t in build_context(root, faction)["orders_templates"]
                if t["faction"] == faction]
    body: dict[str, Any] = yamlio.load_trusted(found["text"])
    return body


def _events(root: Path, since: int) -> list[dict[str, Any]]:
    return [e for entry in Campaign.open(root).entries() if entry["seq"] > since
            for e in entry.get("events") or []]


def test_a_template_sent_back_unchanged_plays_no_card_and_keeps_no_bot_standing(new_campaign) -> None:
    root = new_campaign()
    play(root, until_turn=1, phase="purchase")
    seq = api.status(root)["seq"]
    files = []
    for faction in api.status(root)["awaiting"]:
        body = _template(root, faction)
        assert not [o for o in body["orders"] if "play" in o]
        assert "salt" not in body and "salt_next" not in body
        # nothing was set before this first purchase phase: the template sets nothing
        assert "standing" not in body
        path = root.parent / f"tmpl-{faction}.yaml"
        yamlio.write_atomic(path, yamlio.dump(body))
        files.append(path)
    api.apply(root, files)
    # a card the rules play at once when drawn (14.x "immediate") is no choice of the player
    played = [e for e in _events(root, seq) if e["type"] == "card_played" and not e.get("immediate")]
    assert played == [], played
    standing = Campaign.open(root).state()["game"]["standing"]
    assert not any(s.get("play_cards") == "auto" for s in standing.values())


def test_a_template_carries_the_players_own_standing_instructions(new_campaign) -> None:
    root = new_campaign()
    play(root, until_turn=1, phase="purchase")
    faction = api.status(root)["awaiting"][0]
    mine = api.bot(root, faction, seed="own")
    mine["standing"] = {"retreat_before_combat": "never", "invasion_rounds": 2}
    path = root.parent / "own.yaml"
    yamlio.write_atomic(path, yamlio.dump(mine))
    api.apply(root, [path])
    play(root, until_turn=1, phase="action")
    while faction not in api.status(root)["awaiting"]:
        status = api.status(root)
        other = status["awaiting"][0]
        p = root.parent / f"other-{status['seq']}.yaml"
        yamlio.write_atomic(p, yamlio.dump(api.bot(root, other, seed="x")))
        api.apply(root, [p])
    body = _template(root, faction)
    in_force = Campaign.open(root).state()["game"]["standing"][faction]
    assert body["standing"] == in_force
    assert body["standing"] == {"retreat_before_combat": "never", "invasion_rounds": 2}
    assert body["standing"].get("play_cards") != "auto"


def test_every_template_of_every_game_is_legal_as_it_is(tmp_path: Path) -> None:
    """Each game's first steps, played by the bot: the template each awaited faction is mailed
    passes `pbem check` unchanged (before, A&A's round-1 template for Austria-Hungary was
    `orders: []`, which the rules refuse: it must attack Serbia)."""
    from pbem.game import game_ids

    for game in game_ids():
        root = tmp_path / game
        api.new_campaign(root, game, hot_seat=True, contributions=False, seed="tmpl", name=game)
        for step in range(12):
            status = api.status(root)
            if status["over"]:
                break
            files = []
            for faction in status["awaiting"]:
                path = tmp_path / f"{game}-{step}-{faction}.yaml"
                yamlio.write_atomic(path, yamlio.dump(api.bot(root, faction, seed="tmpl", template=True)))
                (found,) = api.check(root, [path])
                assert found.problems == [], (game, status["phase"], faction, found.problems)
                bot = tmp_path / f"{game}-{step}-{faction}-bot.yaml"
                yamlio.write_atomic(bot, yamlio.dump(api.bot(root, faction, seed="tmpl")))
                files.append(bot)
            if files:
                api.apply(root, files)
            else:
                api.resolve(root)
