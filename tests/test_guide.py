"""docs/writing-a-game.md names every optional hook pbem looks for on a game (each
`getattr(game, "name")` in pbem/), so a contributor who writes a game from the guide alone
misses none of them."""

from __future__ import annotations

import re
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]


def test_the_guide_names_every_hook_pbem_looks_for() -> None:
    hooks = {m for path in (ROOT / "pbem").rglob("*.py")
             for m in re.findall(r'getattr\((?:campaign\.)?game, "([a-z_]+)"', path.read_text())}
    assert {"headlines", "boxes", "todo", "correct"} <= hooks  # the search itself works
    guide = (ROOT / "docs" / "writing-a-game.md").read_text()
    missing = sorted(h for h in hooks if f"`{h}(" not in guide and f"`{h} " not in guide
                     and f"`{h}`" not in guide)
    assert missing == []
    for name in ("PhaseTable", "TableGame", "PhaseRules", "idle"):
        assert name in guide, name
