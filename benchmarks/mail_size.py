"""Every mail of each bundled game's demo, in bytes: is each under the goal of 300 KB (what a
player's mailbox takes at once, on a phone, over a slow line)? Plays each demo campaign by
mail: the contribution round first (the demo itself skips it), every phase's reports and
reminders queued to the outbox (`pbem mail`, `pbem remind`), and every orders file sent
back by its player into a Maildir that `pbem inbox` reads (which queues its answer). Then
prints, per game and kind of mail (contribution round, report, digest, game over,
reminder, answer), how many, the smallest, the median and the largest, and the largest
mail with the size of each of its parts.

    python benchmarks/mail_size.py                      # every bundled game, whole demos
    python benchmarks/mail_size.py --game aa1914 --turns 2   # the first 2 turns of one game
    python benchmarks/mail_size.py --campaign DIR       # the outbox of a campaign played

Exit 1 when a mail is not under the goal.
"""

from __future__ import annotations

import argparse
import email
import email.policy
import email.utils
import statistics
import sys
import tempfile
from email.message import EmailMessage
from pathlib import Path
from typing import Any

GOAL = 300 * 1024
MAX_STEPS = 4000


def _orders_mail(sender: str, path: Path, n: int) -> bytes:
    msg = EmailMessage()
    msg["From"] = sender
    msg["To"] = "referee@demo.invalid"
    msg["Subject"] = f"orders {path.stem}"
    msg["Message-ID"] = f"<orders-{n}@demo.invalid>"
    msg["Date"] = email.utils.formatdate()
    msg.set_content("My orders are attached.\n")
    msg.add_attachment(path.read_bytes(), maintype="application", subtype="yaml",
                       filename=path.name)
    return msg.as_bytes()


def play(root: Path, game_id: str, turns: int = 0) -> None:
    """The demo of `game_id` played by mail into `root`, its mails in root/.pbem/outbox: the
    demo's seed and players, with the contribution round, every orders file by the bot (the
    demo's examples fit the set-up drawn without the round)."""
    from pbem import api, yamlio
    from pbem.campaign import Campaign
    from pbem.demo import DEMO_SEED, demo_players
    from pbem.mail import loop

    api.new_campaign(root, game_id, seed=DEMO_SEED, name="demo", keys_dir=root / ".pbem" / "players",
                     players=demo_players(game_id), hot_seat=True, contributions=True)
    drafts, maildir = root / ".pbem" / "demo-orders", root / ".pbem" / "maildir"
    for sub in ("new", "cur", "tmp"):
        (maildir / sub).mkdir(parents=True, exist_ok=True)
    sent = 0
    for _ in range(MAX_STEPS):
        loop.mail(root)  # this phase's reports (or digests)
        s = api.status(root)
        if s["over"] or (turns and s["turn"] > turns):
            break
        loop.remind(root, once=True)  # as `tick` would before the deadline
        by_mail: list[Path] = []
        direct: list[Path] = []
        factions = Campaign.open(root).factions()
        for faction in s["awaiting"]:
            path = drafts / f"t{s['turn']:02d}-{s['phase']}-{faction}.yaml"
            yamlio.write_atomic(path, yamlio.dump(api.bot(root, faction, seed=DEMO_SEED)))
            address = str(factions.get(faction, {}).get("email") or "")
            (by_mail if address else direct).append(path)
            if address:
                sent += 1
                (maildir / "new" / f"{sent:06d}.eml").write_bytes(_orders_mail(address, path, sent))
        if not by_mail and not direct:
            api.resolve(root)
            continue
        if by_mail:
            done = loop.inbox(root, maildir=maildir)
            # a file refused by mail (none should be) is applied by hand, as a referee would
            direct += [p for r in done["messages"] if r.get("outcome") == "rejected"
                       for p in by_mail if p.name in r.get("files", [])]
            for read in (maildir / "new").iterdir():  # read: out of the next run's way
                read.unlink()
        if direct:
            api.apply(root, direct)


def kind_of(record: dict[str, Any]) -> str:
    """A mail's kind as a player sees it."""
    from pbem.contributions import PHASE

    kind = str(record.get("kind"))
    if kind == "reply":
        return "answer"
    if kind == "report":
        if record.get("phase") == PHASE:
            return "contribution round"
        return {"digest": "digest", "over": "game over"}.get(str(record.get("why")), "report")
    return kind


def parts(raw: bytes) -> list[tuple[str, int]]:
    """Each leaf part of a mail: its type (and file name) and its encoded size in bytes."""
    msg = email.message_from_bytes(raw, policy=email.policy.default)
    out = []
    for part in msg.walk():
        if part.is_multipart():
            continue
        name = part.get_filename()
        payload = part.get_payload()
        size = len(payload.encode("ascii", "replace")) if isinstance(payload, str) else 0
        out.append((part.get_content_type() + (f" {name}" if name else ""), size))
    return out


def measure(root: Path) -> dict[str, list[tuple[int, Path]]]:
    """The size of every mail of the campaign's outbox, by kind: [(bytes, file)]."""
    from pbem.campaign import Campaign
    from pbem.mail.loop import outbox_of

    box = outbox_of(Campaign.open(root))
    found: dict[str, list[tuple[int, Path]]] = {}
    for record in box.load()["messages"]:
        path = box.folder / record["file"]
        found.setdefault(kind_of(record), []).append((path.stat().st_size, path))
    return found


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--game", action="append", default=[], help="a bundled game (repeatable); "
                        "default: every one")
    parser.add_argument("--turns", type=int, default=0, help="stop after this turn (0: the whole demo)")
    parser.add_argument("--campaign", type=Path, action="append", default=[],
                        help="a campaign already played: measure its outbox (repeatable)")
    parser.add_argument("--work", type=Path, help="where to play the demos (default: a new temporary folder)")
    args = parser.parse_args(argv)
    roots = list(args.campaign)
    if not roots:
        from pbem.game import game_ids

        work = args.work or Path(tempfile.mkdtemp(prefix="pbem-mail-size-"))
        for game in args.game or game_ids():
            print(f"playing the {game} demo by mail in {work / game} ...", file=sys.stderr, flush=True)
            play(work / game, game, args.turns)
            roots.append(work / game)
    over, largest = 0, (0, "")
    for root in roots:
        found = measure(root)
        print(f"{root.name}:")
        for kind, sizes in found.items():
            values = sorted(n for n, _ in sizes)
            over += sum(1 for n in values if n >= GOAL)
            print(f"  {kind:<20} {len(values):>4} mails  smallest {values[0]:>9,}  median "
                  f"{int(statistics.median(values)):>9,}  largest {values[-1]:>9,}")
        top = max((s for sizes in found.values() for s in sizes), default=None)
        if top is not None:
            print(f"  largest: {top[1].name} {top[0]:,} bytes: "
                  + ", ".join(f"{what} {n:,}" for what, n in parts(top[1].read_bytes())))
            largest = max(largest, (top[0], f"{root.name}/{top[1].name}"))
    verdict = "all under" if not over else f"{over} mail(s) not under"
    print(f"largest mail: {largest[1]} {largest[0]:,} bytes; {verdict} the goal of {GOAL:,} bytes")
    return 1 if over else 0


if __name__ == "__main__":
    sys.exit(main())
