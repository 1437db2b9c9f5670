"""`pbem judge`: one referee address for the campaigns of a folder (pbem/mail/judge.py does
the work). The judge's folder is the one -C names (default: here)."""

from __future__ import annotations

from pathlib import Path
from typing import Annotated, Any

import typer

from pbem.cli import shared
from pbem.cli.shared import OPTS, JsonOpt, NowOpt, app
from pbem.cli.shared import print_json as _out

judge_app = typer.Typer(help="Serve many campaigns from one address: the campaigns are the "
                        "folders of the judge's folder (pbem new JUDGE/ID ...).",
                        no_args_is_help=True)
app.add_typer(judge_app, name="judge")

SendOpt = Annotated[
    bool, typer.Option("--send", help="Deliver what is queued: each campaign's outbox by its "
                       "own settings, the judge's by judge.yaml's mail: smtp.")
]


def _broken(result: dict[str, Any]) -> None:
    for b in result["broken"]:
        typer.echo(f"not served: {b['folder']}: {b['error']}")


def _each(result: dict[str, Any], ok: Any) -> None:
    """Each campaign's line: what `ok` says of its result, or its error."""
    for cid, one in result["campaigns"].items():
        if one["ok"]:
            for line in ok(one["result"]):
                typer.echo(f"[{cid}] {line}")
        else:
            typer.echo(f"[{cid}] FAILED: {one['error']}")
    _broken(result)


@judge_app.command("init")
def init(
    address: Annotated[str, typer.Option("--address", help="The judge's e-mail address: players "
                                         "write to it.", metavar="ADDRESS")],
    name: Annotated[str, typer.Option("--name", help="The judge's name in its mail.",
                                      metavar="NAME")] = "pbem judge",
    as_json: JsonOpt = False,
) -> None:
    """Make the folder a judge: its judge.yaml. Then make its campaigns with
    pbem new JUDGE/ID ..."""
    from pbem.mail import judge

    result = judge.init(OPTS.directory, name, address)
    if as_json:
        _out(result)
        return
    typer.echo(f"{result['judge']} is the judge {name} <{address}>; make a campaign in it with "
               f"'pbem new {Path(result['judge']) / 'ID'} --game GAME ...'")


@judge_app.command("list")
def listing(as_json: JsonOpt = False) -> None:
    """The campaigns the judge serves: each one's game, turn and phase, and who it awaits."""
    from pbem.mail import judge

    result = judge.listing(OPTS.directory)
    if as_json:
        _out(result)
        return
    typer.echo(f"{result['judge']} <{result['address']}>: {len(result['campaigns'])} campaign(s)")
    for c in result["campaigns"]:
        where = "game over" if c["over"] else f"turn {c['turn']} {c['phase']}"
        awaiting = f", awaiting {', '.join(c['awaiting'])}" if c["awaiting"] else ""
        typer.echo(f"  [{c['campaign']}] {c['game']}: {where}{awaiting}")
    _broken(result)


@judge_app.command("inbox")
def inbox(
    maildir: shared.MaildirOpt = None,
    mbox: shared.MboxOpt = None,
    imap: shared.ImapOpt = None,
    now: NowOpt = None,
    as_json: JsonOpt = False,
) -> None:
    """Route each mail of the judge's mailbox to its campaign (by its orders files'
    campaign:, else [ID] in its subject), where it is taken as pbem inbox takes it; answer
    the commands players mail (list, status [ID], history [ID], help as the subject) and a
    mail for no campaign, with why and the campaigns served."""
    from pbem.mail import judge

    result = judge.inbox(OPTS.directory, maildir, mbox, imap, now=shared.when_given(now))
    if as_json:
        _out(result)
        return
    _each(result, lambda r: [f"{x['outcome']}: {shared.shown(x['message_id'])} from {shared.shown(x['from'])}"
                             for x in r["messages"]]
          + [f"left alone: {shared.shown(x['message_id'])}: {x['why']}" for x in r["left_alone"]])
    for x in result["commands"]:
        typer.echo(f"answered {x['command']}: {shared.shown(x['message_id'])} from "
                   f"{shared.shown(x['from'])}")
    for x in result["misrouted"]:
        answered = "answered" if x["reply"] else "not answered (no sender)"
        typer.echo(f"not routed, {answered}: {shared.shown(x['message_id'])} from "
                   f"{shared.shown(x['from']) or '(no sender)'}: {x['why']}")


@judge_app.command("tick")
def tick(send: SendOpt = False, now: NowOpt = None, as_json: JsonOpt = False) -> None:
    """pbem tick for every campaign: deadlines, reminders, the reports of a new phase."""
    from pbem.mail import judge

    result = judge.tick(OPTS.directory, shared.when_given(now), send=send)
    if as_json:
        _out(result)
        return
    _each(result, lambda r: r["actions"] or ["nothing to do"])
    shared.print_sent(result["sent"], 0)


@judge_app.command("mail")
def mail(send: SendOpt = False, now: NowOpt = None, as_json: JsonOpt = False) -> None:
    """pbem mail for every campaign: each phase's reports queued once; with --send, every
    outbox delivered."""
    from pbem.mail import judge

    result = judge.mail(OPTS.directory, send=send, now=shared.when_given(now))
    if as_json:
        _out(result)
        return
    _each(result, lambda r: [f"queued {x['file']} to {x['to']}" for x in r["queued"]]
          + [f"{len(r['sent'])} sent, {r['pending']} still queued"])
    shared.print_sent(result["sent"], result["pending"])


@judge_app.command("publish")
def publish(as_json: JsonOpt = False) -> None:
    """pbem publish for every campaign: its history and turn tags pushed to its own remote
    (never .pbem/, never forced)."""
    from pbem.mail import judge

    result = judge.publish(OPTS.directory)
    if as_json:
        _out(result)
        return
    _each(result, lambda r: [f"pushed {r['head'][:12]} and {len(r['tags'])} tag(s) to {r['remote']}",
                             *(f"note: {n}" for n in r.get("notes", []))])


@judge_app.command("requests")
def requests(as_json: JsonOpt = False) -> None:
    """The players who asked by mail for an open seat of a campaign whose join: is approve."""
    from pbem.mail import judge

    result = judge.requests(OPTS.directory)
    if as_json:
        _out(result)
        return
    for r in result["requests"] or []:
        typer.echo(f"{r['message_id']}: {r['player']} asks for {r['faction']} of "
                   f"[{r['campaign']}] ({r['asked']})")
    if not result["requests"]:
        typer.echo("no request waits")


@judge_app.command("approve")
def approve(
    message_id: Annotated[str, typer.Argument(help="The Message-ID of the mail that asked "
                                              "(pbem judge requests lists them).",
                                              metavar="MESSAGE-ID")],
    as_json: JsonOpt = False,
) -> None:
    """Seat the player who asked (a recorded pbem seat step in that campaign) and tell them."""
    from pbem.mail import judge

    result = judge.approve(OPTS.directory, message_id)
    if as_json:
        _out(result)
        return
    typer.echo(f"[{result['campaign']}] {result['player']} plays {result['faction']} "
               f"(step {result['seq']}); the answer is in the judge's outbox")
