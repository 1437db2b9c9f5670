"""`pbem demo`: a whole sample campaign, offline, played by the bot on the bundled data.

The campaign is seeded (`new --seed`), so the same demo is played every time; the first
orders come from the game's `examples/` folder where they fit the awaited decision, so the
sample orders files documented in ORDERS.md are exercised by every demo run. Each faction
has a player at an address of the reserved .invalid domain, so the demo ends as a referee's
turn does: every player's reports rendered (text and HTML) and every player's mail written
to the outbox, in the git-ignored .pbem/ folder (reports hold secrets); nothing is sent.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

from pbem import api, yamlio
from pbem.campaign import PRIVATE
from pbem.errors import UsageError
from pbem.game import game_folder, game_ids, get_game, load_data

DEMO_SEED = "pbem-demo"
MAX_STEPS = 2000
REPORT_FORMATS = ("text", "html")


def demo_game(game_id: str | None = None) -> str:
    """The game the demo plays: `game_id` if given, else the first bundled game whose
    game.yaml says `demo: true` (its examples/ hold orders for the seeded set-up)."""
    known = game_ids()
    if game_id is not None:
        if game_id not in known:
            raise UsageError(f"--game {game_id!r}: no such game (known: {', '.join(known)})")
        return game_id
    for found in known:
        if load_data(found)["game"].get("demo") is True:
            return found
    raise UsageError("no bundled game says demo: true in its game.yaml; name one with --game "
                     f"(known: {', '.join(known) or 'none'})")


def demo_players(game_id: str) -> list[str]:
    """One player per faction seated at the start, at an address that can never receive
    mail (RFC 2606); a power that enters mid-game (dormant) is seated by the rules then."""
    desc = get_game(game_id).describe(load_data(game_id))
    return [f"{f['id']}={f['name']} <{f['id']}@demo.invalid>" for f in desc["factions"]
            if not f.get("dormant")]


def write_reports(root: Path, folder: Path) -> dict[str, Any]:
    """Every faction's report and the public one, in text and HTML, into `folder`; timed
    (building and rendering every report; the clock is read here, for the demo's note)."""
    from pbem.campaign import Campaign
    from pbem.reports.context import build_context
    from pbem.reports.render import render_context, report_name

    campaign = Campaign.open(root)
    readers = [*campaign.factions(), "public"]
    files: list[str] = []
    turn = 0
    folder.mkdir(parents=True, exist_ok=True)
    started = time.perf_counter()
    for who in readers:
        context = build_context(root, who)
        turn = int(context["turn"])
        for fmt in REPORT_FORMATS:
            text = render_context(context, campaign.data.folder, fmt)
            name = report_name(context, fmt)
            yamlio.write_atomic(folder / name, text)
            files.append(name)
    seconds = time.perf_counter() - started
    return {"folder": str(folder), "files": files, "readers": readers, "turn": turn,
            "seconds": seconds}


def example_orders(game_id: str) -> dict[tuple[int, str, str], Path]:
    """Example orders files by (turn, phase, faction)."""
    found: dict[tuple[int, str, str], Path] = {}
    for path in sorted((game_folder(game_id) / "examples").glob("*.yaml")):
        data = yamlio.read_trusted(path)
        if isinstance(data, dict) and {"turn", "phase", "faction"} <= set(data):
            found[(data["turn"], data["phase"], data["faction"])] = path
    return found


def run(root: Path, *, turns: int = 0, progress: Callable[[str], None] | None = None,
        game_id: str | None = None) -> dict[str, Any]:
    """The demo campaign played by the bot in `root`: to the end, or after turn `turns`
    (0: the game's `demo_turns` in its game.yaml, for a game the bots would never end)."""
    game_id = demo_game(game_id)
    say = progress or (lambda _text: None)
    turns = turns or int(load_data(game_id)["game"].get("demo_turns") or 0)
    players = root / ".pbem" / "players"
    # one person plays every side here, from a seed anyone can read: a hot-seat game,
    # with no contribution round (it would mix only the bots' predictable salts), whose
    # reports say so; the examples in games/<id>/examples are orders for its set-up
    created = api.new_campaign(root, game_id, seed=DEMO_SEED, name="demo", keys_dir=players,
                               players=demo_players(game_id), hot_seat=True,
                               contributions=False)
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
    elif turns:
        say(f"the demo stops after turn {turns}; the game goes on (pbem demo --turns N plays "
            "more, and pbem bot and pbem apply in the campaign play on)")
    reports = write_reports(root, root / PRIVATE / "reports")
    say(f"reports: {len(reports['files'])} files ({', '.join(REPORT_FORMATS)} for "
        f"{', '.join(reports['readers'])}) in {reports['folder']}")
    say(f"  all the reports of turn {reports['turn']} rendered in {reports['seconds']:.2f} s")
    from pbem.mail import loop as mailloop

    mailed = mailloop.mail(root)
    say(f"mail: {len(mailed['queued'])} message(s), one per player (report + orders template), "
        f"in {mailed['outbox']} (not sent: 'pbem -C {root} mail --send --smtp HOST:PORT' would)")
    say(f"the campaign is in {root}: try 'pbem -C {root} log' or 'pbem -C {root} status'")
    return {"dir": str(root), "status": final, "audit": report, "examples_used": used_examples,
            "reports": reports, "mail": {"outbox": mailed["outbox"],
                                         "files": [r["file"] for r in mailed["queued"]]}}
