"""Orders files: load safely, check the header, hand the body to the game's validation.

Every problem is collected and reported at once as FILE:LINE: message.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from pbem import yamlio
from pbem.errors import InputFileError
from pbem.game import Game, GameData, Phase
from pbem.names import suggest

HEADER_KEYS = ("campaign", "turn", "phase", "faction", "head", "orders", "standing")
REQUIRED = ("campaign", "turn", "phase", "faction", "orders")


@dataclass
class Checked:
    """An orders file after checking: its data, and every problem as FILE:LINE: message."""

    path: Path
    doc: yamlio.Doc | None
    problems: list[str] = field(default_factory=list)

    @property
    def ok(self) -> bool:
        return not self.problems

    @property
    def faction(self) -> str:
        return str(self.doc.data["faction"]) if self.doc else ""

    def body(self) -> dict[str, Any]:
        """What the game sees: the orders and standing instructions."""
        assert self.doc is not None
        data = self.doc.data
        return {"orders": data.get("orders") or [], "standing": data.get("standing") or {}}


def read_orders(path: Path) -> yamlio.Doc:
    try:
        raw = path.read_bytes()
    except FileNotFoundError:
        raise InputFileError(f"{path}: no such file") from None
    except OSError as exc:
        raise InputFileError(f"{path}: cannot be read: {exc.strerror}") from None
    return yamlio.load_untrusted(raw, str(path))


def check_orders(
    path: Path,
    *,
    campaign_id: str,
    phase: Phase,
    game: Game,
    data: GameData,
    game_state: dict[str, Any],
    factions: list[str],
) -> Checked:
    """Header checks, then the game's own validation; every problem at once."""
    try:
        doc = read_orders(path)
    except InputFileError as exc:
        return Checked(path, None, [exc.message])
    checked = Checked(path, doc)
    problems = checked.problems
    data_ = doc.data
    if not isinstance(data_, dict):
        problems.append(f"{doc.where(())}: expected a mapping with keys {', '.join(REQUIRED)}")
        return checked
    for key in data_:
        if key not in HEADER_KEYS:
            hint = suggest(str(key), HEADER_KEYS)
            problems.append(
                f"{doc.where((key,))}: unknown key {key!r}{hint} "
                f"(expected: {', '.join(HEADER_KEYS)})"
            )
    for key in REQUIRED:
        if key not in data_:
            problems.append(f"{doc.where(())}: missing key {key!r}")
    if "campaign" in data_ and str(data_["campaign"]) != campaign_id:
        problems.append(
            f"{doc.where(('campaign',))}: these orders are for campaign {data_['campaign']!r}, "
            f"this campaign is {campaign_id!r}"
        )
    if "turn" in data_ and data_["turn"] != phase.turn:
        problems.append(
            f"{doc.where(('turn',))}: orders for turn {data_['turn']!r}, but it is turn {phase.turn}"
        )
    if "phase" in data_ and data_["phase"] != phase.name:
        problems.append(
            f"{doc.where(('phase',))}: orders for phase {data_['phase']!r}, "
            f"but the phase is {phase.name!r}"
        )
    faction = data_.get("faction")
    if "faction" in data_:
        if faction not in factions:
            hint = suggest(str(faction), factions)
            problems.append(
                f"{doc.where(('faction',))}: unknown faction {faction!r}{hint} "
                f"(factions: {', '.join(factions)})"
            )
        elif faction not in phase.awaiting:
            awaited = ", ".join(phase.awaiting) or "nobody"
            problems.append(
                f"{doc.where(('faction',))}: {faction} is not awaited in phase {phase.name} "
                f"(awaiting: {awaited})"
            )
    if "orders" in data_ and data_["orders"] is not None and not isinstance(data_["orders"], list):
        problems.append(f"{doc.where(('orders',))}: 'orders' must be a list (use [] for none)")
    if "standing" in data_ and data_["standing"] is not None and not isinstance(
        data_["standing"], dict
    ):
        problems.append(f"{doc.where(('standing',))}: 'standing' must be a mapping")
    if problems:
        return checked
    for problem in game.validate(data, game_state, str(faction), checked.body()):
        problems.append(f"{doc.where(problem.path)}: {problem.message}")
    return checked
