"""A whole game by the bot: orders files per faction per turn, time per turn.

The mail-tempo goals: Red Russia, with standing orders set, at most 2 orders files a
faction in an ordinary turn and 3 in a winter turn; the Chechen War at most 3 files a side
in a turn with the defaults (a side is asked only where it can do something, and the
Chechen's movement file carries his attacks).

    python benchmarks/turns.py [SEED]                       # Red Russia
    python benchmarks/turns.py --game chechen_war [SEED]    # the Chechen War
"""

from __future__ import annotations

import argparse
import tempfile
import time
from collections import Counter
from pathlib import Path

from pbem import api, yamlio

WINTER = {3, 7, 11}  # Red Russia's winter turns
GOALS = {"red_russia": {"ordinary": 2, "winter": 3}, "chechen_war": {"ordinary": 3}}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("seed", nargs="?", default="bench")
    parser.add_argument("--game", choices=sorted(GOALS), default="red_russia")
    args = parser.parse_args()
    root = Path(tempfile.mkdtemp(prefix="pbem-turns-")) / "camp"
    api.new_campaign(root, args.game, seed=args.seed, name="bench", contributions=False)
    factions = campaign_factions(root)
    drafts = root.parent / "orders"
    files: Counter[tuple[int, str]] = Counter()
    started: dict[int, float] = {}
    step = 0
    while True:
        s = api.status(root)
        if s["over"]:
            break
        started.setdefault(s["turn"], time.perf_counter())
        paths = []
        for faction in s["awaiting"]:
            step += 1
            path = drafts / f"{step:05d}-{faction}.yaml"
            yamlio.write_atomic(path, yamlio.dump(api.bot(root, faction, seed=args.seed)))
            paths.append(path)
            files[(s["turn"], faction)] += 1
        if paths:
            api.apply(root, paths)
        else:
            api.resolve(root)
    ended = time.perf_counter()
    turns = sorted(started)
    print(f"{'turn':>4}  {'kind':<8} " + " ".join(f"{f:>8}" for f in factions) + "  seconds")
    goals = GOALS[args.game]
    worst = dict.fromkeys(goals, 0)
    for i, turn in enumerate(turns):
        until = started[turns[i + 1]] if i + 1 < len(turns) else ended
        counts = [files[(turn, f)] for f in factions]
        kind = "set-up" if turn == 0 else (
            "winter" if args.game == "red_russia" and turn in WINTER else "ordinary")
        if turn:
            worst[kind] = max(worst[kind], *counts)
        print(f"{turn:>4}  {kind:<8} " + " ".join(f"{n:>8}" for n in counts)
              + f"  {until - started[turn]:7.2f}")
    print("most orders files per faction: " + ", ".join(
        f"{kind} turn {worst[kind]} (goal <= {goal}{'' if worst[kind] <= goal else ', NOT MET'})"
        for kind, goal in goals.items()))
    t0 = time.perf_counter()
    report = api.audit(root)
    print(f"audit of {report['checked']['entries']} entries: {time.perf_counter() - t0:.2f} s, "
          f"{'OK' if report['ok'] else 'FAILED'}")


def campaign_factions(root: Path) -> list[str]:
    from pbem.campaign import Campaign

    return list(Campaign.open(root).factions())


if __name__ == "__main__":
    main()
