"""Log entries: their form, their hash chain, and the fold of entries into state.

Entry types:
- ``new``: the set-up; folding it runs the game's `setup` with the recorded draws.
- ``orders``: a faction's orders for the phase, held in `pending` until it resolves (or,
  from one file for several factions of one player, theirs: `factions`, `pending` by faction).
- ``resolve``: the events of adjudicating a phase, folded through the game's `apply`.
- ``adjust``: referee corrections as events, with a reason.
- ``undo``: takes back the last step still in force; the state becomes what it was before.
- ``seat``: a faction's player, address or keys change (a player leaves, a power enters
  play, a key is replaced), with the referee's reason; campaign.yaml says the same.

The engine's state (what state.yaml holds) is ``{seq, head, game, pending}``: `game` is
the game's own state, `pending` the orders received for the current phase.
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from pbem.canonical import canonical_json
from pbem.contributions import pre_game
from pbem.game import Game, GameData, Phase, apply_all, clone

ENTRY_TYPES = ("new", "orders", "resolve", "adjust", "undo", "unseal", "seat", "override")
# the steps an undo may take back; set-up and the final unseal (its openings are public
# once committed) cannot be
UNDOABLE = ("orders", "resolve", "adjust")
GENESIS = "0" * 64


def entry_hash(entry: dict[str, Any]) -> str:
    body = {k: v for k, v in entry.items() if k != "signature"}
    return hashlib.sha256(canonical_json(body)).hexdigest()


def entry_name(seq: int) -> str:
    return f"log/{seq:06d}.yaml"


def normal(obj: Any) -> Any:
    """Plain JSON data (tuples become lists), so folded and loaded states compare equal."""
    return json.loads(canonical_json(obj))


Recall = Callable[[], dict[str, Any]]


@dataclass
class Folder:
    """Folds entries one by one, keeping the states needed to undo.

    A reader that can fetch the state again (the audit: a committed snapshot it has checked
    is this state) sets `recall` before the next fold; the stack then keeps that function
    instead of a copy of the state, so that folding a long history takes memory for one
    state, not one per step."""

    game: Game
    data: GameData
    state: dict[str, Any] = field(default_factory=dict)
    # before each step still in force (seq, the state then, or how to fetch it), for undo
    stack: list[tuple[int, dict[str, Any] | Recall]] = field(default_factory=list)
    recall: Recall | None = None  # the current state, fetched again; used by the next fold

    def _data_for(self, overrides: dict[str, Any] | None) -> None:
        """From this step on, the game's data with these overrides (`new`, `override`)."""
        from pbem.game import load_data

        if overrides != (self.data.overrides or None):
            self.data = load_data(self.data.game_id, overrides)

    def fold(self, entry: dict[str, Any]) -> dict[str, Any]:
        from pbem.dice import ReplayRng, Roll

        kind = entry["type"]
        before = self.state
        if kind == "new":
            rng = ReplayRng([Roll(d["label"], d["sides"], d["value"]) for d in entry.get("dice", [])])
            after: dict[str, Any] = {"pending": {}, "game": (
                pre_game(entry.get("options", {}), entry["contribute"]) if entry.get("contribute")
                else self.game.setup(self.data, entry.get("options", {}), rng))}
            if "settings" in entry:  # what campaign.yaml must keep saying (campaign.protected)
                after["settings"] = entry["settings"]
                self._data_for(entry["settings"].get("overrides") or None)
        elif kind == "orders":
            after = clone(before)
            after["pending"].update(recorded(entry))
        elif kind in ("resolve", "adjust"):
            after = clone({k: v for k, v in before.items() if k != "game"})
            after["game"] = apply_all(self.game, self.data, before["game"], entry.get("events", []))
            if kind == "resolve":
                after.update(after_resolve(before, entry))
        elif kind == "unseal":
            after = after_unseal(before, entry)
        elif kind == "seat":  # a faction's player or keys changed, with a reason
            after = clone(before)
        elif kind == "override":  # the campaign's corrections to the game's data, with a reason
            after = clone(before)
            after.setdefault("settings", {})["overrides"] = dict(entry["overrides"])
            self._data_for(entry["overrides"] or None)
        elif kind == "undo":
            if not self.stack:
                raise ValueError("nothing to undo")
            undone, kept = self.stack.pop()
            if undone != entry["undoes"]:
                raise ValueError(f"undo names step {entry['undoes']} but the last step in force is {undone}")
            after = after_undo(kept() if callable(kept) else kept, before)
        else:
            raise ValueError(f"unknown entry type {kind!r} (known: {', '.join(ENTRY_TYPES)})")
        if "seats" in entry and kind in ("seat", "resolve", "adjust"):
            # `pbem seat`, or a step whose events made a power enter
            after.setdefault("settings", {}).setdefault("factions", {}).update(entry["seats"])
        if kind in UNDOABLE:
            self.stack.append((entry["seq"], self.recall or before))
        self.recall = None
        self.state = finish(after, entry)
        return self.state


def undone_steps(entries: list[dict[str, Any]]) -> tuple[list[int], dict[int, int]]:
    """The steps still in force (oldest first) and, for each step taken back, the undo that
    took it back: the one reading of the log that undo, audit and the reports share."""
    in_force: list[int] = []
    undone: dict[int, int] = {}
    for entry in entries:
        if entry["type"] == "undo":
            undone[in_force.pop()] = entry["seq"]
        elif entry["type"] in UNDOABLE:
            in_force.append(entry["seq"])
    return in_force, undone


# what `corrections` reads of every entry; an adjust's events and a resolution's dice it
# reads only of an adjust and of a step taken back
SKELETON = ("seq", "type", "turn", "phase", "summary", "reason", "on_behalf", "faction",
            "factions", "undoes", "batch")


def corrections(entries: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """Every referee correction, for players to see (docs/fairness.md "Re-rolls"): each
    undo, with its reason, and when it took back a resolution, the dice it replaced and the
    resolution that rolled again (a re-roll: a new batch of the seed chain); each adjust."""
    by_seq = {e["seq"]: e for e in entries}
    _, undone = undone_steps(entries)
    out: list[dict[str, Any]] = []
    for entry in entries:
        if entry.get("on_behalf"):
            out.append({"kind": "on_behalf", "seq": entry["seq"], "turn": entry["turn"],
                        "phase": entry["phase"], "reason": entry["on_behalf"],
                        "factions": entry.get("factions") or [entry.get("faction")]})
        if entry["type"] == "adjust":
            out.append({"kind": "adjust", "seq": entry["seq"], "turn": entry["turn"],
                        "phase": entry["phase"], "reason": entry.get("reason", ""),
                        "events": len(entry.get("events") or [])})
        elif entry["type"] == "undo":
            target = by_seq[entry["undoes"]]
            item: dict[str, Any] = {
                "kind": "undo", "seq": entry["seq"], "turn": entry["turn"],
                "phase": entry["phase"], "reason": entry.get("reason", ""),
                "undoes": target["seq"], "undone_type": target["type"],
                "undone_summary": target["summary"]}
            if target["type"] == "resolve":
                again = next((e for e in entries if e["seq"] > entry["seq"]
                              and e["type"] == "resolve" and e["phase"] == target["phase"]
                              and e["turn"] == target["turn"] and e["seq"] not in undone), None)
                item.update(batch=target.get("batch"),
                            dice=[{k: d[k] for k in ("label", "sides", "value")}
                                  for d in target.get("dice") or []],
                            rolled_again=again["seq"] if again else None,
                            new_batch=again.get("batch") if again else None)
            out.append(item)
    return out


def describe_correction(c: dict[str, Any]) -> str:
    """One line a player reads: what was corrected, why, and what it replaced."""
    if c["kind"] == "on_behalf":
        return (f"step {c['seq']}: the referee entered the orders of {' and '.join(c['factions'])}, "
                f"given by another channel and not signed: {c['reason']}")
    if c["kind"] == "adjust":
        return (f"step {c['seq']}: the referee adjusted the position ({c['events']} "
                f"event{'s' if c['events'] != 1 else ''}): {c['reason']}")
    text = (f"step {c['seq']}: the referee took back step {c['undoes']} "
            f"({c['undone_summary']}): {c['reason']}")
    if c["undone_type"] == "resolve" and c.get("dice"):
        shown = ", ".join(f"{d['label']}={d['value']}" for d in c["dice"][:12])
        more = f" and {len(c['dice']) - 12} more" if len(c["dice"]) > 12 else ""
        text += f"; a RE-ROLL: the {len(c['dice'])} dice of batch {c['batch']} ({shown}{more})"
        text += (f" were replaced by batch {c['new_batch']} in step {c['rolled_again']}"
                 if c.get("rolled_again") else " are to be rolled again")
    return text


def recorded(entry: dict[str, Any]) -> dict[str, dict[str, Any]]:
    """The orders an `orders` entry records, by faction: `faction` and its `pending` record,
    or for a file for several factions of one player `factions` and `pending` by faction."""
    if "factions" in entry:
        return {f: entry["pending"][f] for f in entry["factions"]}
    return {entry["faction"]: entry["pending"]}


def after_resolve(before: dict[str, Any], entry: dict[str, Any]) -> dict[str, Any]:
    """The engine's fields after a phase resolves: no orders pending, the seed-chain batch
    used, and each faction's commitment to the salt of its next orders file."""
    commits = dict(before.get("salt_commits", {}))
    for faction, record in before.get("pending", {}).items():
        if record.get("salt_next"):
            commits[faction] = record["salt_next"]
    waiting = sealed_files(before)
    files = [f for f in waiting if f.get("keep")] if entry.get("files_revealed") else waiting
    out = {"pending": {}, "batch": entry.get("batch", before.get("batch", 0)),
           "salt_commits": commits, "last_salts": entry.get("salts", {}), "sealed_files": files}
    if entry.get("hidden_draws"):  # the contribution round: the salts key every hidden draw
        out["contributions"] = dict(entry.get("salts", {}))
    if entry.get("draw_keys"):  # the factions whose own draw key is sealed to them already
        out["draw_keys"] = sorted({*before.get("draw_keys", []), *entry["draw_keys"]})
    return out


def after_unseal(before: dict[str, Any], entry: dict[str, Any]) -> dict[str, Any]:
    """The state after `unseal`: as it was, but the orders files it published (kept sealed
    until the turn's end, unsealed early) are no longer waiting to be."""
    after: dict[str, Any] = clone(before)
    if entry.get("files_revealed"):
        after["sealed_files"] = []
    return after


def after_undo(previous: dict[str, Any], current: dict[str, Any]) -> dict[str, Any]:
    """The state an undo leaves: the one before the step taken back, except that the seed
    chain never goes back (the batch that step used was published with its dice, so a
    resolution after the undo takes the next unused element, a visible re-roll) and the
    seats stay as they are: a `seat` step, which an undo does not take back, may have come
    after the step undone, and campaign.yaml says what it made them."""
    after: dict[str, Any] = clone({k: v for k, v in previous.items() if k not in ("seq", "head")})
    after["batch"] = current.get("batch", 0)
    if "settings" in current:
        after["settings"] = clone(current["settings"])
    return after


def sealed_phase(phase: Phase) -> bool:
    """Orders of a phase where several factions act at once stay sealed to the referee
    until it resolves, so a late player cannot read an early player's orders
    (docs/design.md "What stays secret"); the audit holds a log to it."""
    return len(phase.awaiting) > 1


def sealed_files(before: dict[str, Any]) -> list[dict[str, Any]]:
    """Orders files that hold a secret, kept sealed until the turn ends (or, with `keep`,
    until unseal: a phase whose secrets are face-down units): those of earlier phases and
    those of the phase resolving now."""
    return [*before.get("sealed_files", []),
            *({"file": r["file"], "node": r["file_sealed"], "body": r["body"],
               "secret": r["secret"]["commitment"], "faction": f,
               **({"keep": True} if r.get("keep_sealed") else {})}
              for f, r in sorted(before.get("pending", {}).items()) if "file_sealed" in r)]


def finish(state: dict[str, Any], entry: dict[str, Any]) -> dict[str, Any]:
    """The engine's fields of a snapshot after `entry`: seq, head, and the heads of the
    current phase (the log heads a player may name in signed orders)."""
    out: dict[str, Any] = normal(state)
    digest = entry_hash(entry)
    out["seq"] = entry["seq"]
    out["head"] = digest
    if entry["type"] in ("new", "resolve"):
        out["heads"] = [digest]
    else:
        out["heads"] = [*out.get("heads", []), digest]
    return out


def make_entry(
    *,
    seq: int,
    prev: str,
    kind: str,
    turn: int,
    phase: str,
    summary: str,
    **extra: Any,
) -> dict[str, Any]:
    entry: dict[str, Any] = {
        "seq": seq,
        "prev": prev,
        "type": kind,
        "turn": turn,
        "phase": phase,
        "summary": summary,
    }
    entry.update({k: v for k, v in extra.items() if v is not None})
    out: dict[str, Any] = normal(entry)
    return out
