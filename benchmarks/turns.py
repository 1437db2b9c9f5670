"""A whole Red Russia game by the bot: orders files per faction per turn, time per turn.

The mail-tempo goal (issue: "standing orders"): with standing orders set, each faction sends
at most 2 orders files in an ordinary turn and 3 in a winter turn.

    python benchmarks/turns.py [SEED]
"""

from __future__ import annotations

import sys
import tempfile
import time
from collections import Counter
from pathlib import Path

from pbem import api, yamlio

WINTER = {3, 7, 11}


def main() -> None:
    seed = sys.argv[1] if len(sys.argv) > 1 else "bench"
    root = Path(tempfile.mkdtemp(prefix="pbem-turns-")) / "camp"
    api.new_campaign(root, "red_russia", seed=seed, name="bench")
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
            yamlio.write_atomic(path, yamlio.dump(api.bot(root, faction, seed=seed)))
            paths.append(path)
            files[(s["turn"], faction)] += 1
        if paths:
            api.apply(root, paths)
        else:
            api.resolve(root)
    ended = time.perf_counter()
    turns = sorted(started)
    print(f"{'turn':>4}  {'season':<7} " + " ".join(f"{f:>8}" for f in ("red", "siberian", "south", "north"))
          + "  seconds")
    worst = {"ordinary": 0, "winter": 0}
    for i, turn in enumerate(turns):
        until = started[turns[i + 1]] if i + 1 < len(turns) else ended
        counts = [files[(turn, f)] for f in ("red", "siberian", "south", "north")]
        kind = "set-up" if turn == 0 else ("winter" if turn in WINTER else "ordinary")
        if turn:
            worst[kind] = max(worst[kind], *counts)
        print(f"{turn:>4}  {kind:<7} " + " ".join(f"{n:>8}" for n in counts) + f"  {until - started[turn]:7.2f}")
    print(f"most orders files per faction: ordinary turn {worst['ordinary']} (goal <= 2), "
          f"winter turn {worst['winter']} (goal <= 3)")
    t0 = time.perf_counter()
    report = api.audit(root)
    print(f"audit of {report['checked']['entries']} entries: {time.perf_counter() - t0:.2f} s, "
          f"{'OK' if report['ok'] else 'FAILED'}")


if __name__ == "__main__":
    main()
