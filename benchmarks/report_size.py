"""The public report of every turn in BBCode, in characters: does a turn fit one forum post
(the goal: under 20,000 characters)? Plays each bundled game's demo campaign (or uses the
campaigns given) and prints a row per game, a column per turn.

    python benchmarks/report_size.py                 # every bundled game's demo, played here
    python benchmarks/report_size.py --campaign DIR  # a campaign already played
"""

from __future__ import annotations

import argparse
import sys
import tempfile
from pathlib import Path

GOAL = 20_000


def sizes(root: Path) -> list[int]:
    """The public BBCode report's length of each turn played in the campaign at `root`."""
    from pbem.campaign import Campaign
    from pbem.reports.render import render

    campaign = Campaign.open(root)
    turns = sorted({int(campaign.entry(seq)["turn"])
                    for seq in range(1, int(campaign.state()["seq"]) + 1)} - {0})
    return [len(render(root, "public", "bbcode", turn)) for turn in turns]


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--campaign", type=Path, action="append", default=[],
                        help="a campaign folder to measure (repeatable); default: every demo")
    args = parser.parse_args(argv)
    roots = list(args.campaign)
    if not roots:
        from pbem.demo import run
        from pbem.game import game_ids

        work = Path(tempfile.mkdtemp(prefix="pbem-report-size-"))
        for game in game_ids():
            print(f"playing the {game} demo in {work / game} ...", file=sys.stderr, flush=True)
            run(work / game, game_id=game)
            roots.append(work / game)
    over = 0
    for root in roots:
        found = sizes(root)
        over += sum(1 for n in found if n >= GOAL)
        print(f"{root.name}: " + " ".join(f"t{k}={n}" for k, n in enumerate(found, start=1))
              + f"  (largest {max(found, default=0)}, goal < {GOAL})")
    return 1 if over else 0


if __name__ == "__main__":
    sys.exit(main())
