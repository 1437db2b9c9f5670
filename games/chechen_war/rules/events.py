"""The Chechen War's event table (pbem.kit.events): each rules module's `APPLY`, registered by
the composition root (rules/__init__.py); the rules fold the whole game's events through it
(board.folding) without importing the root."""

from __future__ import annotations

from pbem.game import GameData
from pbem.kit.events import EventTable

EVENTS: EventTable[GameData] = EventTable("Chechen War")
