"""`pbem COMMAND --help` reads like its help text: every argument and value option is named
by what it is (`ORDERS...`, `[DIRECTORY]`, `--seed TEXT`), never by Typer's forms for a
Python type (`{DIRECTORY}`, `ORDERS <list[Path]>`, `<str>`). Every command is found from the
command line itself, so a command added later is checked too.
"""

from __future__ import annotations

import re
from collections.abc import Callable

import click
import typer

from pbem.cli import _metavars, app
from tests.conftest import Result

# what Typer writes for a type or a required argument; help text's own <campaign> is fine
TYPE_FORMS = re.compile(r"[{}]|<(?:str|int|float|bool|path|Path|list\[|tuple\[|dict\[|datetime"
                        r"|choice|text|integer|uuid|file|filename)[^>]*>")


def _commands() -> list[list[str]]:
    """Every command path of `pbem` (groups and their subcommands), the top level first."""
    found: list[list[str]] = [[]]

    def walk(command: click.Command, path: list[str]) -> None:
        for name, sub in sorted((getattr(command, "commands", None) or {}).items()):
            if not sub.hidden:
                found.append([*path, name])
                walk(sub, [*path, name])

    walk(typer.main.get_command(app), [])
    return found


def test_every_command_is_found() -> None:
    names = {" ".join(c) for c in _commands()}
    assert {"", "new", "apply", "check", "sign", "mail", "inbox", "demo", "report"} <= names


def test_no_help_shows_a_python_type_or_typers_braces(pbem: Callable[..., Result]) -> None:
    for path in _commands():
        r = pbem(*path, "--help")
        assert r.code == 0, (path, r.err)
        assert "Usage: pbem" in r.out, (path, r.out)
        for line in r.out.splitlines():
            assert not TYPE_FORMS.search(line), (f"pbem {' '.join(path)} --help", line)


def test_arguments_read_like_their_help(pbem: Callable[..., Result]) -> None:
    usage = {
        "new": "Usage: pbem new [OPTIONS] DIRECTORY",
        "check": "Usage: pbem check [OPTIONS] ORDERS...",
        "apply": "Usage: pbem apply [OPTIONS] ORDERS...",
        "sign": "Usage: pbem sign [OPTIONS] ORDERS",
        "demo": "Usage: pbem demo [OPTIONS] [DIRECTORY]",  # optional: in brackets
        "adjust": "Usage: pbem adjust [OPTIONS] FILE",
    }
    for command, line in usage.items():
        out = pbem(command, "--help").out
        assert line in out.splitlines(), (command, out)
    listed = pbem("check", "--help").out
    assert re.search(r"^  ORDERS\.\.\.\s+Orders file\(s\) to check\.", listed, re.M), listed
    new = pbem("new", "--help").out
    for shown in ("--seed TEXT", "--option KEY=VALUE", "--key FACTION=FILE", "--keys-dir DIR",
                  "--player 'FACTION=NAME <EMAIL>'"):
        assert shown in new, (shown, new)


def test_every_argument_and_value_option_has_a_capital_metavar() -> None:
    command = _metavars(typer.main.get_command(app))

    def params(cmd: click.Command) -> list[tuple[str, click.Parameter]]:
        out = [(cmd.name or "pbem", p) for p in cmd.params]
        for sub in (getattr(cmd, "commands", None) or {}).values():
            out += params(sub)
        return out

    for name, param in params(command):
        if getattr(param, "is_flag", False) or param.name == "help":
            continue
        metavar = param.metavar or ""
        choices = "|" in metavar and re.fullmatch(r"[a-z0-9_-]+(\|[a-z0-9_-]+)+", metavar)
        assert metavar and (metavar == metavar.upper() or choices), (name, param.name, metavar)


def test_usage_errors_name_the_argument_as_the_help_does(pbem: Callable[..., Result]) -> None:
    r = pbem("check")
    assert r.code == 2
    assert "ORDERS" in r.err and "{" not in r.err, r.err
