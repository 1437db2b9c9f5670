"""The mail commands: `mail`, `inbox`, `remind`, `tick` and `publish` (pbem/mail/loop.py
does the work)."""

from __future__ import annotations

from pathlib import Path
from typing import Annotated

import typer

from pbem.cli.shared import (
    OPTS,
    ImapOpt,
    JsonOpt,
    MaildirOpt,
    MboxOpt,
    NowOpt,
    app,
    print_sent,
    shown,
    when_given,
)
from pbem.cli.shared import print_json as _out

OutboxOpt = Annotated[
    Path | None,
    typer.Option("--outbox", help="The outbox folder (default: mail.outbox in campaign.yaml, "
                 "else .pbem/outbox).", metavar="DIR"),
]

@app.command("mail")
def mail(
    outbox: OutboxOpt = None,
    send: Annotated[
        bool, typer.Option("--send", help="Deliver every queued message by SMTP and record it.")
    ] = False,
    smtp: Annotated[
        str | None,
        typer.Option("--smtp", help="The SMTP server (default: mail.smtp in campaign.yaml).",
                     metavar="HOST:PORT"),
    ] = None,
    starttls: Annotated[
        bool | None,
        typer.Option("--starttls/--no-starttls", help="Encrypt the connection with STARTTLS "
                     "(default: mail.starttls in campaign.yaml)."),
    ] = None,
    user: Annotated[
        str | None,
        typer.Option("--user", help="Log in as U (password from PBEM_SMTP_PASSWORD, never stored).",
                     metavar="U"),
    ] = None,
    again: Annotated[
        bool, typer.Option("--again", help="Queue reports even if this phase's went out already.")
    ] = False,
    as_json: JsonOpt = False,
) -> None:
    """Write each player's report (text + HTML, orders template attached) to the outbox;
    with --send, deliver what is queued."""
    from pbem.mail import loop as mailloop

    result = mailloop.mail(OPTS.directory, outbox, send, smtp, starttls, user, again=again)
    if as_json:
        _out(result)
        return
    for r in result["queued"]:
        typer.echo(f"queued {r['file']} to {r['to']}: {r['subject']}")
    for r in result["skipped"]:
        typer.echo(f"skipped {r['to']}: {r['reason']} (--again to queue it anyway)")
    if not result["queued"] and not result["skipped"]:
        typer.echo("no player has an e-mail address in campaign.yaml: nothing to mail")
    elif result["this_turn"]:
        counts = ", ".join(f"{to} {n}" for to, n in sorted(result["this_turn"].items()))
        typer.echo(f"mails of turn {result['turn']} so far, per player: {counts}")
    typer.echo(f"outbox: {result['outbox']}")
    if result.get("superseded"):
        typer.echo(f"{result['superseded']} older message(s) superseded by newer ones to the same "
                   "player: kept in the outbox, never sent")
    print_sent(result["sent"], result["pending"])


@app.command("inbox")
def inbox(
    maildir: MaildirOpt = None,
    mbox: MboxOpt = None,
    imap: ImapOpt = None,
    outbox: OutboxOpt = None,
    now: NowOpt = None,
    as_json: JsonOpt = False,
) -> None:
    """Apply the orders files found in mail (attachments with their .sig, or inline YAML),
    once per Message-ID, and queue an answer to each player. Orders dated after their
    deadline are accepted, flagged or rejected by the campaign's late: policy. Bad orders
    are recorded and answered, not an error: the exit code is 0 unless the mail could not
    be read."""
    from pbem.mail import loop as mailloop

    result = mailloop.inbox(OPTS.directory, maildir, mbox, imap, outbox=outbox, now=when_given(now))
    if as_json:
        _out(result)
        return
    for r in result["messages"]:
        typer.echo(f"{r['outcome']}{' LATE' if r.get('late') else ''}: {shown(r['message_id'])} "
                   f"from {shown(r['from'])}")
        for x in r.get("late", []):
            typer.echo(f"  {x['file']}: sent {x['dated']}, deadline of {x['faction']} {x['deadline']}")
        for p in r.get("problems", []):
            typer.echo(f"  {p}")
        for s in r.get("resolved", []):
            typer.echo(f"  resolved turn {s['turn']} {s['phase']} (step {s['seq']})")
    for x in result["left_alone"]:
        typer.echo(f"left alone: {shown(x['message_id'])} from {shown(x['from']) or '(no sender)'}, "
                   f"subject {shown(x['subject'])!r}: {x['why']}")
    typer.echo(f"{result['accepted']} accepted ({result['late']} late), {result['rejected']} "
               f"rejected, {result['duplicates']} already seen, {result['ignored']} not orders "
               "(left alone)")


@app.command("remind")
def remind(outbox: OutboxOpt = None, as_json: JsonOpt = False) -> None:
    """Queue a reminder to every player whose orders are still awaited."""
    from pbem.mail import loop as mailloop

    result = mailloop.remind(OPTS.directory, outbox=outbox)
    if as_json:
        _out(result)
        return
    for r in result["queued"]:
        typer.echo(f"queued {r['file']} to {r['to']}")
    if not result["queued"]:
        typer.echo("nobody with an e-mail address is awaited: no reminder")


@app.command("tick")
def tick(
    send: Annotated[
        bool, typer.Option("--send", help="Deliver what is queued (SMTP settings of campaign.yaml).")
    ] = False,
    now: NowOpt = None,
    outbox: OutboxOpt = None,
    as_json: JsonOpt = False,
) -> None:
    """For a cron job: resolve a phase whose deadline passed (by the campaign's nmr policy),
    remind late players before it, and queue the reports of a new phase."""
    from pbem.mail import loop as mailloop

    result = mailloop.tick(OPTS.directory, when_given(now), send=send, outbox=outbox)
    if as_json:
        _out(result)
        return
    for line in result["actions"] or ["nothing to do"]:
        typer.echo(line)
    if result["deadline"]:
        grace = result.get("grace_until")
        typer.echo(f"deadline: {result['deadline']}"
                   + (f" (grace until {grace})" if grace and grace != result["deadline"] else ""))
    elif not result["status"]["over"]:
        typer.echo("no deadline for this phase (set one with deadlines: in campaign.yaml)")
    print_sent(result["sent"], result["pending"])


@app.command("publish")
def publish(
    remote: Annotated[
        str | None,
        typer.Option("--remote", help="The git remote (default: mail.remote in campaign.yaml, "
                     "else origin).", metavar="NAME"),
    ] = None,
    as_json: JsonOpt = False,
) -> None:
    """Push the campaign and its turn tags to the shared remote (never .pbem/)."""
    from pbem.mail import loop as mailloop

    result = mailloop.publish(OPTS.directory, remote)
    if as_json:
        _out(result)
        return
    if result.get("settings_committed"):
        typer.echo("committed the edits of campaign.yaml first (deadlines, mail, absences)")
    typer.echo(f"pushed {result['head'][:12]} and {len(result['tags'])} tag(s) to {result['remote']}")
    for note in result.get("notes", []):
        typer.echo(f"note: {note}")
