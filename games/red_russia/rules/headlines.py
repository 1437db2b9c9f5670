"""What a Red Russia report says first (Game.headlines): who attacked where and how each
battle ended (8.0), zones taken (by battle, siege or move: 6.0, 9.2), leaders killed,
wounded or captured (10.4, 10.5), minor factions fully activated (12.12), the cards played
(14.6), and the end of the game (16.0). Public events only: every reader sees them."""

from __future__ import annotations

from typing import Any

from pbem.game import Event, GameData


def names(data: GameData) -> dict[str, str]:
    """Faction and minor faction ids to their names."""
    out = {str(f["id"]): str(f["name"]) for f in data["game"]["factions"]}
    out.update({str(k): str(v["name"]) for k, v in (data["game"].get("minors") or {}).items()})
    out["allies"] = "the Allies"
    return out


def _who(called: dict[str, str], ids: Any) -> str:
    listed = [called.get(str(i), str(i)) for i in (ids if isinstance(ids, list) else [ids])]
    return " and ".join(listed) or "nobody"


def headlines(data: GameData, events: list[Event]) -> list[str]:
    """The phrases of one step's events, in their order; the cards played as one phrase."""
    called = names(data)
    out: list[str] = []
    defenders: dict[str, Any] = {}  # zone -> defenders of the battle fought there
    cards: list[str] = []
    for e in events:
        kind = e.get("type")
        if kind == "attack":
            defenders[str(e.get("zone"))] = e.get("defenders") or []
        elif kind == "battle_over":
            zone = str(e["zone"])
            attacker, held = _who(called, e["attacker"]), _who(called, defenders.get(zone, []))
            if e["attacker_left"] and not e["defender_left"]:
                out.append(f"{attacker} won the battle of {zone} against {held}")
            elif e["defender_left"] and not e["attacker_left"]:
                out.append(f"{held} held {zone} against {attacker}")
            elif e["attacker_left"]:
                out.append(f"{attacker} attacked {held} at {zone}: both sides stay")
            else:
                out.append(f"the battle of {zone} between {attacker} and {held} left nobody there")
        elif kind == "control" and e.get("faction"):
            taken = f"{_who(called, e['faction'])} took {e['zone']}"
            out.append(taken + (f" from {_who(called, e['from'])}" if e.get("from") else ""))
        elif kind == "leader_loss" and e.get("result") in ("wounded", "killed"):
            out.append(f"{e['leader']} {e['result']} at {e['zone']}")
        elif kind == "leader_capture" and e.get("result") == "captured":
            out.append(f"{e['leader']} captured and killed at {e['zone']}")
        elif kind == "minor_status" and e.get("status") == "active" and e.get("controller"):
            out.append(f"{_who(called, e['minor'])} fully active under "
                       f"{_who(called, e['controller'])}")
        elif kind == "card_played":
            cards.append(f"{e['card']} ({_who(called, e['faction'])})")
        elif kind == "game_over":
            out.append("the game is over")
    if cards:
        out.append("cards played: " + ", ".join(cards))
    return out
