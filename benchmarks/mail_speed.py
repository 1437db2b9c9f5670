"""How long `pbem mail` takes, step by step, on an Axis & Allies 1914 campaign (8 powers).

Plays the campaign from its contribution round with the demo's seed, and before every
step runs `pbem -C CAMP mail` in a process of its own (as the moderator does), timed;
what it queued is then marked as sent, as `pbem mail --send` would (so that the mail
policy skips the players not awaited), and the bot's orders of every awaited power are
applied (or the phase resolved). Prints each run (the step, how many mails were queued and
skipped, wall and CPU seconds) and the median, largest and total.

    python benchmarks/mail_speed.py                  # 3 players (2, 3 and 3 powers), 12 steps
    python benchmarks/mail_speed.py --players 8      # one player per power
    python benchmarks/mail_speed.py --steps 20 --work /tmp/mail-speed

To compare with another version of pbem, run it with that version first on PYTHONPATH
(a `git archive` of it, unpacked): the campaign is played and mailed by the same code.
"""

from __future__ import annotations

import argparse
import os
import resource
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

from speed import env  # pbem as a user runs it, git's author set (benchmarks/speed.py)

GAME = "aa1914"
# three players of the 8 powers (the game allows any seating), and one player per power
SEATINGS: dict[int, list[tuple[str, str]]] = {
    3: [("austria_hungary,germany,ottomans", "Central <central@demo.invalid>"),
        ("russia,france,britain", "Entente <entente@demo.invalid>"),
        ("italy,usa", "Neutrals <neutrals@demo.invalid>")],
}


def timed_mail(root: Path) -> tuple[float, float]:
    """Wall and CPU seconds of one `pbem -C ROOT mail --json` in its own process."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    start = time.perf_counter()
    proc = subprocess.run([sys.executable, "-m", "pbem", "-C", str(root), "mail", "--json"],
                          capture_output=True, text=True, env=env())
    wall = time.perf_counter() - start
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    if proc.returncode != 0:
        raise SystemExit(f"pbem mail failed ({proc.returncode}):\n{proc.stdout}{proc.stderr}")
    return wall, (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)


def players(count: int) -> list[str]:
    from pbem.demo import demo_players

    if count == 8:
        return demo_players(GAME)
    return [f"{factions}={who}" for factions, who in SEATINGS[count]]


def play(root: Path, count: int, steps: int) -> list[dict[str, Any]]:
    """The campaign played `steps` steps, `pbem mail` timed before each."""
    from pbem import api, yamlio
    from pbem.campaign import Campaign
    from pbem.demo import DEMO_SEED
    from pbem.mail import loop

    os.environ.update(env())
    api.new_campaign(root, GAME, seed=DEMO_SEED, name="bench", players=players(count),
                     keys_dir=root / ".pbem" / "players", hot_seat=True, contributions=True)
    drafts = root / ".pbem" / "bench-orders"
    runs: list[dict[str, Any]] = []
    for _ in range(steps):
        s = api.status(root)
        if s["over"]:
            break
        box = loop.outbox_of(Campaign.open(root))
        known = {r["message_id"] for r in box.load()["messages"]}
        wall, cpu = timed_mail(root)
        fresh = [r for r in box.load()["messages"] if r["message_id"] not in known]
        for record in fresh:  # as --send would
            box.mark(record["message_id"], sent=record["queued"])
        runs.append({"seq": s["seq"], "turn": s["turn"], "phase": s["phase"],
                     "awaiting": len(s["awaiting"]), "queued": len(fresh), "wall": wall, "cpu": cpu})
        paths = []
        for faction in s["awaiting"]:
            path = drafts / f"t{s['turn']:02d}-{s['phase']}-{faction}.yaml"
            yamlio.write_atomic(path, yamlio.dump(api.bot(root, faction, seed=DEMO_SEED)))
            paths.append(path)
        if paths:
            api.apply(root, paths)
        else:
            api.resolve(root)
    return runs


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--players", type=int, choices=(3, 8), default=3)
    parser.add_argument("--steps", type=int, default=12, help="how many steps to play (default 12)")
    parser.add_argument("--work", type=Path, help="where to play (default: a new temporary folder)")
    args = parser.parse_args(argv)
    work = args.work or Path(tempfile.mkdtemp(prefix="pbem-mail-speed-"))
    root = work / f"{GAME}-{args.players}p"
    if root.exists():
        raise SystemExit(f"{root} exists: give another --work")
    import pbem

    print(f"pbem from {Path(pbem.__file__).parent}; playing into {root}", file=sys.stderr, flush=True)
    runs = play(root, args.players, args.steps)
    print(f"{'step':>4} {'turn':>4} {'phase':<16} {'awaiting':>8} {'queued':>6} {'wall s':>7} {'CPU s':>7}")
    for r in runs:
        print(f"{r['seq']:>4} {r['turn']:>4} {r['phase']:<16} {r['awaiting']:>8} {r['queued']:>6} "
              f"{r['wall']:>7.2f} {r['cpu']:>7.2f}")
    walls, cpus = [r["wall"] for r in runs], [r["cpu"] for r in runs]
    print(f"{len(runs)} runs of pbem mail, {sum(r['queued'] for r in runs)} mails: wall median "
          f"{statistics.median(walls):.2f} s, largest {max(walls):.2f} s, total {sum(walls):.1f} s; "
          f"CPU median {statistics.median(cpus):.2f} s, largest {max(cpus):.2f} s, total {sum(cpus):.1f} s")
    return 0


if __name__ == "__main__":
    sys.exit(main())
