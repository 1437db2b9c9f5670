"""The command line's one Typer app and what every command shares: the global options
(`-C DIR`, `--debug`), `--json`, and printing. The commands are in the modules beside this
one (commands, reports, mail), which add themselves to `app`; `pbem.cli` loads them all.
"""

from __future__ import annotations

import json
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


