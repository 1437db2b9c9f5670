"""pbem: a play-by-email referee for hobby wargames."""

from __future__ import annotations

__version__ = "0.1.0"
