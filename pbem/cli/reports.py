"""`pbem report`: the command that renders turn reports (pbem/reports/ does the work)."""

from __future__ import annotations

from pathlib import Path
from typing import Annotated, Any

import typer

from pbem.cli.shared import OPTS, app


@app.command("report")
def report(
    turn: Annotated[
        int | None,
        typer.Option("--turn", help="Report on turn N only (default: the latest complete turn "
                     "and the current one so far).", metavar="N"),
    ] = None,
    who: Annotated[
        str,
        typer.Option("--for", help="Whose report: a faction id, 'public' (nothing secret, for "
                     "forums) or 'referee' (everything).", metavar="WHO"),
    ] = "public",
    fmt: Annotated[
        str,
        typer.Option("--format", help="text (mail), html (mail and browser, with a map), md "
                     "(Markdown), bbcode (forum posts), or png (the map alone, as a picture "
                     "for a forum's [img]; needs --out).", metavar="text|html|md|bbcode|png"),
    ] = "text",
    out: Annotated[
        Path | None,
        typer.Option("--out", help="Write DIR/<campaign>-t<turn>-<who>.<ext> and print its path "
                     "(default: print the report).", metavar="DIR"),
    ] = None,
    key: Annotated[
        Path | None,
        typer.Option("--key", help="The faction's key (~/.ssh/id_ed25519 or an age FILE.key), to show its own "
                     "sealed values opened.", metavar="FILE"),
    ] = None,
    as_json: Annotated[
        bool, typer.Option("--json", help="Print the report's data (its template context) as JSON.")
    ] = False,
) -> None:
    """Render a turn report: what happened, the position, and what is awaited."""
    import json

    from pbem import yamlio
    from pbem.errors import UsageError
    from pbem.reports.context import build_context
    from pbem.reports.render import FORMATS, PICTURE, map_png, render_context

    if fmt not in FORMATS and fmt != PICTURE:
        raise UsageError(f"--format {fmt!r}: choose one of {', '.join([*FORMATS, PICTURE])}")
    if fmt == PICTURE and out is None and not as_json:
        raise UsageError("--format png writes a picture: give --out DIR for it")
    if turn is not None and turn < 0:
        raise UsageError(f"--turn {turn}: a turn is 0 (the set-up) or more")
    identities = None
    if key is not None:
        from pbem.crypto.keys import load_identity_file

        identities = load_identity_file(key)
    context = build_context(OPTS.directory, who, turn, identities)
    if as_json:
        typer.echo(json.dumps(context, indent=2, ensure_ascii=False, default=str))
        return
    from pbem.campaign import Campaign

    if fmt == PICTURE:
        assert out is not None
        picture = map_png(context)
        if picture is None:
            raise UsageError(f"--format png: the game {context['game']['id']} draws no map")
        target = _report_file(out, context, fmt)
        target.write_bytes(picture)
        typer.echo(str(target))
        return
    text = render_context(context, Campaign.open(OPTS.directory).data.folder, fmt)
    if out is None:
        typer.echo(text, nl=False)
        return
    target = _report_file(out, context, fmt)
    yamlio.write_atomic(target, text)
    typer.echo(str(target))


def _report_file(out: Path, context: dict[str, Any], fmt: str) -> Path:
    """Where `report --out DIR` writes: DIR/<campaign>-t<turn>-<who>.<ext>, DIR made if
    need be."""
    from pbem.errors import UsageError
    from pbem.reports.render import report_name

    if out.exists() and not out.is_dir():
        raise UsageError(f"--out {out}: not a folder")
    out.mkdir(parents=True, exist_ok=True)
    return out / report_name(context, fmt)
