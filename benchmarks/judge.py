"""How much a judge serves on this machine: campaigns and mails an hour.

Makes a judge folder with N campaigns (the bundled games in turn, hot-seat, without the
contribution round), puts one orders mail for each campaign's first awaited faction (the
bot's orders) and a `list` and a stray mail into one Maildir, and times what a judge does
with them: `judge inbox` (each mail routed to its campaign, its orders checked and
recorded, the phases they complete resolved, every answer queued), then `judge tick` and
`judge mail` (every campaign's reports queued). Prints each stage's time, the mails an hour
and the campaigns an hour that `judge inbox` then serves, and the time to make the
campaigns (not part of the judge's work).

    python benchmarks/judge.py                    # 100 campaigns
    python benchmarks/judge.py --campaigns 12     # fewer, quicker
    python benchmarks/judge.py --keep DIR         # keep the judge folder in DIR
"""

from __future__ import annotations

import argparse
import email.utils
import mailbox
import sys
import tempfile
import time
from email.message import EmailMessage
from pathlib import Path
from typing import Any

GAMES = ("red_russia", "chechen_war", "aa1914")


def _mail(sender: str, subject: str, mid: str, files: list[Path]) -> bytes:
    msg = EmailMessage()
    msg["From"], msg["To"], msg["Subject"] = sender, "judge@bench.invalid", subject
    msg["Message-ID"], msg["Date"] = mid, email.utils.formatdate()
    msg.set_content("My orders are attached.\n")
    for path in files:
        msg.add_attachment(path.read_bytes(), maintype="application", subtype="yaml",
                           filename=path.name)
    return msg.as_bytes()


def build(root: Path, count: int) -> tuple[Path, float]:
    """The judge folder with `count` campaigns and its Maildir; the seconds it took."""
    from pbem import api, yamlio
    from pbem.demo import demo_players
    from pbem.mail import judge

    start = time.perf_counter()
    judge.init(root, "Bench judge", "judge@bench.invalid")
    box = mailbox.Maildir(root.parent / "Maildir", create=True)
    drafts = root.parent / "drafts"
    drafts.mkdir(exist_ok=True)
    for n in range(count):
        game = GAMES[n % len(GAMES)]
        cid = f"c{n:03d}"
        api.new_campaign(root / cid, game, seed=cid, name=cid, players=demo_players(game),
                         hot_seat=True, contributions=False)
        faction = api.status(root / cid)["awaiting"][0]
        path = drafts / f"{cid}-{faction}.yaml"
        yamlio.write_atomic(path, yamlio.dump(api.bot(root / cid, faction, seed="bench")))
        player = next(p for p in demo_players(game) if faction in p.split("=")[0].split(","))
        box.add(_mail(player.split("=", 1)[1], f"orders {faction}", f"<{cid}@bench.invalid>", [path]))
        print(f"  made {n + 1}/{count} campaigns", end="\r", file=sys.stderr, flush=True)
    print(file=sys.stderr)
    box.add(_mail("Zed <zed@bench.invalid>", "list", "<list@bench.invalid>", []))
    box.add(_mail("Zed <zed@bench.invalid>", "hello", "<stray@bench.invalid>", []))
    return root.parent / "Maildir", time.perf_counter() - start


def run(root: Path, count: int) -> dict[str, Any]:
    from pbem.mail import judge

    maildir, made = build(root, count)
    times: dict[str, float] = {}
    start = time.perf_counter()
    inbox = judge.inbox(root, maildir=maildir)
    times["inbox"] = time.perf_counter() - start
    start = time.perf_counter()
    judge.tick(root)
    times["tick"] = time.perf_counter() - start
    start = time.perf_counter()
    judge.mail(root)
    times["mail"] = time.perf_counter() - start
    failed = [cid for cid, one in inbox["campaigns"].items() if not one["ok"]]
    accepted = sum(x["outcome"] == "accepted" for one in inbox["campaigns"].values() if one["ok"]
                   for x in one["result"]["messages"])
    return {"campaigns": count, "made_seconds": made, "times": times, "failed": failed,
            "accepted": accepted, "mails": count + 2}


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--campaigns", type=int, default=100, metavar="N",
                        help="how many campaigns the judge serves (default: 100)")
    parser.add_argument("--keep", type=Path, metavar="DIR", help="make the judge in DIR and keep it")
    args = parser.parse_args()
    if args.campaigns < 1:
        parser.error("--campaigns: at least 1")
    with tempfile.TemporaryDirectory(prefix="pbem-judge-bench-") as tmp:
        base = args.keep or Path(tmp)
        base.mkdir(parents=True, exist_ok=True)
        result = run(base / "judge", args.campaigns)
    t = result["times"]
    print(f"a judge of {result['campaigns']} campaigns ({', '.join(GAMES)} in turn), "
          f"made in {result['made_seconds']:.1f} s")
    print(f"judge inbox: {result['mails']} mails in {t['inbox']:.1f} s "
          f"({result['accepted']} orders accepted): "
          f"{result['mails'] / t['inbox'] * 3600:,.0f} mails an hour")
    print(f"judge tick: {t['tick']:.1f} s; judge mail: {t['mail']:.1f} s")
    every = t["inbox"] + t["tick"] + t["mail"]
    print(f"a whole round (inbox, tick, mail) over every campaign: {every:.1f} s, "
          f"{result['campaigns'] / every * 3600:,.0f} campaigns an hour")
    if result["failed"]:
        print(f"FAILED: {', '.join(result['failed'])}")
        return 1
    return 0 if result["accepted"] == result["campaigns"] else 1


if __name__ == "__main__":
    sys.exit(main())
