"""`pbem demo`: a whole sample campaign, offline, played by the bot on the bundled data.

The campaign is seeded (`new --seed`), so the same demo is played every time; the first
orders come from the game's `examples/` folder where they fit the awaited decision, so the
sample orders files documented in ORDERS.md are exercised by every demo run.
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Any

from pbem import api, yamlio
from pbem.game import games_dir

DEMO_GAME = "red_russia"
DEMO_SEED = "pbem-demo"
MAX_STEPS = 2000


def example_orders(game_id: str) -> dict[tuple[int, str, str], Path]:
    """Example orders files by (turn, phase, faction)."""
    found: dict[tuple[int, str, str], Path] = {}
    for path in sorted((games_dir() / game_id / "examples").glob("*.yaml")):
        data = yamlio.read_trusted(path)
        if isinstance(data, dict) and {"turn", "phase", "faction"} <= set(data):
            found[(data["turn"], data["phase"], data["faction"])] = path
    return found


def run(root: Path, *, turns: int = 0, progress: Callable[[str], None] | None = None,
        game_id: str = DEMO_GAME) -> dict[str, Any]:
    say = progress or (lambda _text: None)
    players = root / ".pbem" / "players"
    created = api.new_campaign(root, game_id, seed=DEMO_SEED, name="demo", keys_dir=players)
    say(f"pbem demo: a {created['game']} campaign in {root} (seed {DEMO_SEED!r}: reproducible, "
        "not secret)")
    examples = example_orders(game_id)
    drafts = root / ".pbem" / "demo-orders"
    used_examples = 0
    for _ in range(MAX_STEPS):
        s = api.status(root)
        if s["over"] or (turns and s["turn"] > turns):
            break
        files = []
        for faction in s["awaiting"]:
            example = examples.get((s["turn"], s["phase"], faction))
            orders = api.bot(root, faction, seed=DEMO_SEED)
            path = drafts / f"t{s['turn']:02d}-{s['phase']}-{faction}.yaml"
            if example is None:
                yamlio.write_atomic(path, yamlio.dump(orders))
            else:
                # the example as written, with the dice salts a player's 'pbem bot' gives
                text = example.read_text(encoding="utf-8")
                if "salt:" not in text:
                    text += f"salt: {orders['salt']}\nsalt_next: {orders['salt_next']}\n"
                yamlio.write_atomic(path, text)
                used_examples += 1
            files.append(path)
        if not files:
            api.resolve(root)
            continue
        result = api.apply(root, files)
        for r in result.resolved:
            say(f"  turn {r['turn']:>2}  {r['phase']:<17} resolved: {r['events']} events, "
                f"{r['dice']} dice")
    final = api.status(root)
    report = api.audit(root)
    say(f"audit: {'OK' if report['ok'] else 'FAILED'} ({report['checked']['entries']} entries, "
        f"{report['checked']['rolls']} dice checked)")
    if final["over"]:
        result = final["result"]
        say(f"game over: {', '.join(result['winners']) or 'nobody'} won: {result['reason']}")
    say(f"the campaign is in {root}: try 'pbem -C {root} log' or 'pbem -C {root} status'")
    return {"dir": str(root), "status": final, "audit": report, "examples_used": used_examples}
