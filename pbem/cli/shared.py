"""The command line's one Typer app and what every command shares: the global options
(`-C DIR`, `--debug`), `--json`, and printing. The commands are in the modules beside this
one (commands, reports, mail, judge), which add themselves to `app`; `pbem.cli` loads them all.
"""

from __future__ import annotations

import json
from datetime import datetime
from pathlib import Path
from typing import Annotated, Any

import typer

app = typer.Typer(
    name="pbem",
    help="A play-by-email referee for hobby wargames: orders checked against the rules, dice "
    "anyone can re-check, secrets sealed to their owners, and a git log every player may audit.",
    no_args_is_help=True,
    add_completion=True,  # pbem --install-completion: bash, zsh, fish, PowerShell
    context_settings={"help_option_names": ["-h", "--help"]},
    pretty_exceptions_enable=False,
    # plain help: rich's help formatter alone costs ~100 ms of start-up on every call
    rich_markup_mode=None,
)


class Options:
    directory: Path = Path(".")
    debug: bool = False


OPTS = Options()

JsonOpt = Annotated[bool, typer.Option("--json", help="Print the result as JSON.")]

# the mailbox a command reads (pbem inbox, pbem judge inbox): one of the three
MaildirOpt = Annotated[
    Path | None, typer.Option("--maildir", help="Read a Maildir folder.", metavar="DIR")
]
MboxOpt = Annotated[Path | None, typer.Option("--mbox", help="Read an mbox file.", metavar="FILE")]
ImapOpt = Annotated[
    str | None,
    typer.Option("--imap", help="Read an IMAP folder: imap://USER@HOST:PORT/INBOX or imaps://... "
                 "(password from PBEM_IMAP_PASSWORD).", metavar="URL"),
]


@app.callback()
def _root(
    directory: Annotated[
        Path, typer.Option("-C", help="Run in campaign folder DIR, like git -C.", metavar="DIR")
    ] = Path("."),
    debug: Annotated[
        bool, typer.Option("--debug", help="Show the full traceback of an unexpected error.")
    ] = False,
) -> None:
    """A play-by-email referee for hobby wargames."""
    OPTS.directory = directory
    OPTS.debug = debug


def print_json(data: Any) -> None:
    typer.echo(json.dumps(data, indent=2, ensure_ascii=False, default=str))


def say(text: str) -> None:
    typer.echo(text)


NowOpt = Annotated[
    str | None,
    typer.Option("--now", help="Act as if it were this time (ISO 8601; default: now).",
                 metavar="TIME"),
]


def print_sent(sent: list[dict[str, Any]], pending: int) -> None:
    for r in sent:
        typer.echo(f"sent {r['file']} to {r['to']}"
                   + (" again: a killed run had begun to send it, so it may arrive twice, "
                      f"as one Message-ID {r['message_id']}" if r.get("again") else ""))
    if pending:
        typer.echo(f"{pending} message(s) queued, not sent yet")


def when_given(text: str | None) -> datetime | None:
    from datetime import UTC

    from pbem.errors import UsageError

    if text is None:
        return None
    try:
        when = datetime.fromisoformat(text.replace("Z", "+00:00"))
    except ValueError:
        raise UsageError(f"--now {text!r}: expected a date and time like 2026-05-01T18:00:00Z") from None
    return when if when.tzinfo else when.replace(tzinfo=UTC)


def shown(text: str, limit: int = 100) -> str:
    """A header as the terminal shows it: control characters (escape sequences a hostile
    mail may carry) as '?', long text cut."""
    clean = "".join(c if c.isprintable() else "?" for c in str(text))
    return clean if len(clean) <= limit else clean[: limit - 3] + "..."
