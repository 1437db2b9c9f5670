"""Axis & Allies 1914's event table (pbem.kit.events): each rules module's `APPLY`, registered
by the composition root (rules/__init__.py)."""

from __future__ import annotations

from pbem.game import GameData
from pbem.kit.events import EventTable

EVENTS: EventTable[GameData] = EventTable("Axis & Allies 1914")
