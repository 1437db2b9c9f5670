"""The pbem command line: parse options, call one api function, print, set the exit code.

`app` (pbem/cli/shared.py) is the one Typer app, with the options every command shares; the
commands add themselves to it from pbem/cli/commands.py (the campaign), reports.py and
mail.py. `main` maps errors to one line and the exit codes of docs/design.md ("Exit codes").
"""

from __future__ import annotations

import os
import sys
from typing import Any

import typer

from pbem.cli import commands, reports  # noqa: F401 - each adds its commands to the app
from pbem.cli import judge as judge_commands  # noqa: F401 - pbem judge ..., after mail
from pbem.cli import mail as mail_commands  # noqa: F401 - the mail commands, after report
from pbem.cli.shared import OPTS, app
from pbem.errors import PbemError

__all__ = ["app", "main"]


# ---------------------------------------------------------------------------------------


def _click_exit(exc: Exception) -> int | None:
    """Exit code for click's own exceptions (typer may carry its own copy of click, so
    they are recognised by what they are, not by which module defined them)."""
    name = type(exc).__name__
    if name == "Exit" or isinstance(exc, typer.Exit):
        return int(getattr(exc, "exit_code", 0))
    if name == "Abort":
        typer.echo("interrupted", err=True)
        return 130
    show = getattr(exc, "show", None)
    if callable(show) and hasattr(exc, "exit_code"):
        show()
        return 2
    return None


class _Argument(typer.core.TyperArgument):
    """An argument shown as the help text names it: `ORDERS...` and `[DIRECTORY]` in the
    usage line and the list, not Typer's `{ORDERS}...` and `ORDERS <list[Path]>`."""

    def _shown(self) -> str:
        return self.display_name_raw + ("..." if self.nargs != 1 else "")

    def _usage_display_name(self) -> str:
        return self._shown() if self.required else f"[{self._shown()}]"

    def _rich_display_name(self) -> str:
        return self._shown()

    def display_type_rich(self, ctx: Any) -> str | None:
        return None  # the type is the metavar's to say (FILE, DIRECTORY), not `<path>`


def _metavars(command: Any) -> Any:
    """Every argument and value option named in capitals by what it is (`--reason REASON`,
    `ORDERS...`), not by its Python type (`<str>`, `<list[Path]>`, `{orders}`)."""
    for param in getattr(command, "params", []):
        if isinstance(param, typer.core.TyperArgument) and not isinstance(param, _Argument):
            param.__class__ = _Argument  # same fields; only how it is shown differs
        if getattr(param, "is_flag", False) or param.metavar or param.name in ("help",):
            continue
        param.metavar = (param.name or "value").upper()
    for sub in (getattr(command, "commands", None) or {}).values():
        _metavars(sub)
    return command


def main(argv: list[str] | None = None) -> None:
    """Entry point: map errors to one line and an exit code (docs/design.md "Exit codes")."""
    command = _metavars(typer.main.get_command(app))
    try:
        code = command.main(args=argv, prog_name="pbem", standalone_mode=False)
    except KeyboardInterrupt:
        typer.echo("interrupted", err=True)
        code = 130
    except PbemError as exc:
        typer.echo(f"Error: {exc.message}", err=True)
        for line in exc.details:
            typer.echo(f"  {line}", err=True)
        code = exc.exit_code
    except Exception as exc:  # noqa: BLE001 - the last resort: one line and a report file
        handled = _click_exit(exc)
        if handled is not None:
            sys.exit(handled)
        import tempfile
        import traceback

        if OPTS.debug:
            traceback.print_exc()
        else:
            fd, crash = tempfile.mkstemp(prefix="pbem-crash-", suffix=".txt")
            with os.fdopen(fd, "w") as handle:
                traceback.print_exc(file=handle)
            kind = sys.exc_info()[0]
            typer.echo(f"Error: unexpected {kind.__name__ if kind else 'error'}; details written to "
                       f"{crash} (run with --debug to see them)", err=True)
        code = 70
    sys.exit(code if isinstance(code, int) else 0)


if __name__ == "__main__":
    main()
