"""The campaign commands: games, new, keygen, sign, reveal, status, check, apply, resolve,
bot, log, undo, adjust, seat, unseal, audit, dice and demo (pbem/api.py does the work).

Heavy modules (git, cryptography, jinja2) are imported inside the commands that need
them, so `pbem --help` starts quickly.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Annotated, Any

import typer

from pbem.cli.shared import OPTS, JsonOpt, app
from pbem.cli.shared import print_json as _print_json
from pbem.cli.shared import say as _say

# ---------------------------------------------------------------------------------------


@app.command()
def games(as_json: JsonOpt = False) -> None:
    """List the game definitions: id, name, factions and options."""
    from pbem import api

    found = api.list_games()
    if as_json:
        _print_json(found)
        return
    for g in found:
        _say(f"{g['id']}: {g['name']}")
        _say("  factions: " + ", ".join(
            f"{f['id']} ({f['name']}{', enters later' if f.get('dormant') else ''})"
            for f in g["factions"]))
        for o in g["options"]:
            needs = f", requires {', '.join(o['requires'])}" if o.get("requires") else ""
            value = "|".join(map(str, o["choices"])) if o.get("choices") else "..."
            _say(f"  --option {o['id']}={value} (default {o['default']}{needs}): {o['help']}")


@app.command()
def new(
    directory: Annotated[Path, typer.Argument(help="Folder for the new campaign (must not exist or be empty).")],
    game: Annotated[str, typer.Option("--game", help="Game id (see 'pbem games').")],
    player: Annotated[
        list[str] | None,
        typer.Option("--player", metavar="'FACTION=NAME <EMAIL>'",
                     help="A faction's player; a faction without one is played hot-seat."),
    ] = None,
    option: Annotated[
        list[str] | None, typer.Option("--option", metavar="KEY=VALUE", help="Game option KEY=VALUE (see 'pbem games').")
    ] = None,
    seed: Annotated[
        str | None,
        typer.Option("--seed", metavar="TEXT", help="Derive every referee secret from TEXT: reproducible, NOT secret."),
    ] = None,
    name: Annotated[
        str | None, typer.Option("--name", help="Campaign id (default: the folder's name).")
    ] = None,
    keys_dir: Annotated[
        Path | None,
        typer.Option("--keys-dir", metavar="DIR",
                     help="Make a key pair for each player (and each faction with no player), "
                          "for the factions without --key, in DIR, named after them (red.key, "
                          "red_ed25519; south+north.key... for a player of both); their orders "
                          "must then be signed with it, unless --hot-seat."),
    ] = None,
    key: Annotated[
        list[str] | None,
        typer.Option("--key", metavar="FACTION=FILE", help="The player's public key: their id_ed25519.pub (an ssh-ed25519 line) "
                     "or the card 'pbem keygen' made."),
    ] = None,
    hot_seat: Annotated[
        bool, typer.Option("--hot-seat", help="The factions whose keys --keys-dir makes may "
                           "send unsigned orders (one person plays them at one machine); "
                           "'pbem status' says so.")] = False,
    no_contributions: Annotated[
        bool, typer.Option("--no-contributions",
                           help="Draw the set-up at once, keyed by the referee's hidden secret "
                                "alone, without the round in which every player contributes a "
                                "salt (one mail round trip; see docs/fairness.md). Reports say so.")
    ] = False,
    override: Annotated[
        Path | None,
        typer.Option("--override", metavar="FILE",
                     help="Corrections to the game's data for this campaign (a printed chart, "
                          "a reconstructed value): a YAML file whose 'overrides:' maps the "
                          "game's data files to new values, as in each game's examples folder; "
                          "checked and recorded by step 1.")
    ] = None,
    as_json: JsonOpt = False,
) -> None:
    """Start a campaign: a new git repository, and as step 1 the contribution round (each
    player signs and sends one file whose salt keys the hidden set-up draws and shuffles),
    or with --no-contributions the set-up itself."""
    from pbem import api

    result = api.new_campaign(directory, game, players=player, options=option, seed=seed,
                              name=name, keys_dir=keys_dir, keys=key, hot_seat=hot_seat,
                              contributions=not no_contributions, override=override)
    if as_json:
        _print_json(result)
        return
    _say(f"Created campaign {result['campaign']} ({game}) in {directory}")
    if seed is not None:
        _say("Note: --seed makes every secret and die of this campaign reproducible: it is NOT secret.")
    for made in result.get("key_files") or []:  # whose key pair is which (--keys-dir)
        key, signing, public = made["files"]
        _say(f"Keys of {made['player'] or 'the hot seat'} ({', '.join(made['factions'])}): {key} "
             f"and {signing} (secret: for that player alone), {public} (public)")
    _print_status(result)
    _say(f"Next: set your address as referee (referee: email: in {directory / 'campaign.yaml'}, "
         "referee@pbem.invalid until you do);")
    _say("  then 'pbem mail' writes each player their first mail ('pbem bot FACTION' writes a "
         "legal orders file to start from).")


def _print_step(result: dict[str, Any], as_json: bool, *lines: str) -> None:
    """What a command leaves the campaign at: the result as JSON, or `lines` (templates
    filled from the result, as str.format_map does) and then the status."""
    if as_json:
        _print_json(result)
        return
    for line in lines:
        _say(line.format_map(result))
    _print_status(result)


def _print_status(s: dict[str, Any]) -> None:
    if s["over"]:
        result = s.get("result") or {}
        _say(f"Game over: {', '.join(result.get('winners', [])) or 'nobody'} won ({result.get('reason', '')}).")
        return
    _say(f"Turn {s['turn']}, {s['phase_title'] or s['phase']}")
    if s["awaiting"]:
        _say(f"  awaiting orders from: {', '.join(s['awaiting'])}" +
             (f" (by {s['deadline']})" if s.get("deadline") else ""))
        if s.get("prompt"):
            _say(f"  to decide: {s['prompt']}")
        for faction, lines in (s.get("todo") or {}).items():
            _say(f"  {faction} must still:")
            for line in lines:
                _say(f"    {line}")
        for faction, away in (s.get("absent") or {}).items():
            _say(f"  {faction} is away from {away['from']} to {away['to']}: its deadline is {away['until']}")
        if s.get("grace_until"):
            _say(f"  grace period until {s['grace_until']}")
    if s["received"]:
        _say(f"  orders received from: {', '.join(s['received'])}")
    if s.get("unsigned_ok"):
        _say(f"  unsigned orders accepted from: {', '.join(s['unsigned_ok'])} (hot-seat or no key)")
    for faction in s.get("unseated") or []:
        if faction in s["awaiting"]:
            _say(f"  {faction} has entered the game and has no player yet: seat it with "
                 f"'pbem seat {faction} --player \"NAME <EMAIL>\" --key CARD --reason ...'")
        else:
            _say(f"  {faction} enters later in the game: it is seated when it does")
    if s.get("hidden_draws"):
        _say(f"  hidden draws: {s['hidden_draws']}")
    if s.get("overrides"):
        _say(f"  this campaign corrects the game's data: {', '.join(s['overrides'])} "
             "(campaign.yaml overrides)")


@app.command()
def keygen(
    out: Annotated[
        Path, typer.Option("--out", help="Write FILE.key (age), FILE_ed25519 and FILE_ed25519.pub.")
    ] = Path("pbem"),
) -> None:
    """Make a player's key pair and print the public card to send to the referee."""
    from pbem import yamlio
    from pbem.crypto.keys import keygen_files

    card = keygen_files(out)
    card_file = out.with_name(out.name + ".card")
    yamlio.write_atomic(card_file, card)
    _say(f"# secret keys: {out}.key (age) and {out}_ed25519 (signing); keep them to yourself")
    _say(f"# public card, also in {card_file}: send it to the referee (pbem new --key FACTION=FILE)")
    typer.echo(card, nl=False)


@app.command()
def sign(
    orders: Annotated[Path, typer.Argument(help="The orders file to sign.")],
    key: Annotated[Path, typer.Option(
        "--key", help="Your OpenSSH ed25519 private key (~/.ssh/id_ed25519, or FILE_ed25519).")],
    force: Annotated[bool, typer.Option(
        "--force", help="Sign with a key that is not the key of every faction the file orders "
                        "(a key one player shares between factions).")] = False,
) -> None:
    """Sign an orders file: writes ORDERS.sig, as 'ssh-keygen -Y sign -n pbem-orders-v1' does.
    In your clone of the campaign (or with -C DIR) it first adds your dice salts to the file
    and says which faction's key it is."""
    from pbem import api

    signed = api.sign(orders, key, OPTS.directory, force=force)
    if signed.key_of is not None:
        _say(f"signed with the key of {', '.join(signed.key_of)}" if signed.key_of
             else "signed with a key of no faction of this campaign")
    if signed.salts:
        _say(f"added the dice salts of {', '.join(signed.salts)} to {orders}")
    if signed.no_salts:
        typer.echo(f"WARNING: {signed.no_salts}", err=True)
    for note in signed.notes:
        typer.echo(f"note: {note}", err=True)
    _say(f"wrote {signed.signature}")


@app.command()
def reveal(
    key: Annotated[Path, typer.Option(
        "--key", help="Your key: your OpenSSH ed25519 private key (~/.ssh/id_ed25519) or "
                      "your age identity file (FILE.key).")],
    as_json: JsonOpt = False,
) -> None:
    """Decrypt your own secrets from the campaign (a clone is enough) and check each one:
    your hand, what is sealed to you and not yet public, and what a later step published."""
    if as_json:
        from pbem import api

        found = api.reveal(OPTS.directory, key)
        _print_json(found)
        if not all(s["verified"] for s in found):
            raise typer.Exit(3)
        return
    from pbem.crypto.keys import load_identity_file
    from pbem.reports.context import own_secrets

    shown = own_secrets(OPTS.directory, load_identity_file(key))
    if not shown["count"]:
        _say("no sealed value in this campaign opens with that key")
        return
    for line in _secrets_lines(shown):
        _say(line)
    if shown["failed"]:
        raise typer.Exit(3)


def _mark(item: dict[str, Any]) -> str:
    return "verified" if item["verified"] else "DOES NOT MATCH ITS COMMITMENT"


def _secrets_lines(shown: dict[str, Any]) -> list[str]:
    """`pbem reveal` as text: the hand card by card, the other sealed values as written,
    then one line for each value already public."""
    import textwrap

    from pbem.reports.render import render_hand

    folder = shown["game_folder"]
    lines: list[str] = []
    for owner, held in shown["hands"].items():
        drawn = render_hand(folder, held)
        if drawn is not None:  # the game's own way, as in its reports
            if len(shown["hands"]) > 1:
                lines.append(f"{owner}:")
            lines += drawn.strip("\n").splitlines()
            continue
        lines.append(f"Your hand ({owner}): {len(held)} card{'' if len(held) == 1 else 's'}")
        for card in held:
            playable = card.get("playable") or {}
            when = ", ".join(f"{k.replace('_', ' ')}: {', '.join(map(str, v)) if isinstance(v, list) else v}"
                             for k, v in playable.items())
            title = card.get("title") or card.get("id")
            lines.append(f"  {title} ({card.get('id')})" + (f" [{when}]" if when else ""))
            lines += textwrap.wrap(str(card.get("text") or ""), 88, initial_indent="      ",
                                   subsequent_indent="      ")
    if shown["sealed"]:
        lines.append("Sealed to you and the referee, not public yet:")
        for item in shown["sealed"]:
            lines.append(f"  {item['kind']} {item['id']} (step {item['seq']}): {_mark(item)}")
            lines += [f"      {row}" for row in str(item.get("value") or "").splitlines()]
    if shown["public"]:
        lines.append("Published since by a later step (anyone may check them):")
        for item in shown["public"]:
            lines.append(f"  {item['kind']} {item['id']} (step {item['seq']}, public at step "
                         f"{item['revealed_at']}): {_mark(item)}")
    for item in shown["failed"]:  # named again at the end, whichever list it is in
        lines.append(f"{item['kind']} {item['id']} (step {item['seq']}): {_mark(item)}")
    return lines


@app.command()
def status(as_json: JsonOpt = False) -> None:
    """Show the turn, the phase, who is awaited and the deadline."""
    from pbem import api

    _print_step(api.status(OPTS.directory), as_json, "Campaign {campaign} ({game}), step {seq}",
                "  head: {head} (the head: line an orders file names)")


@app.command()
def check(
    orders: Annotated[list[Path], typer.Argument(help="Orders file(s) to check.")],
    key: Annotated[Path | None, typer.Option(
        "--key", metavar="FILE",
        help="Your key (~/.ssh/id_ed25519 or an age FILE.key): the rules then also check what your sealed "
             "values decide (which of your face-down units may go where), as the referee will.")] = None,
    as_json: JsonOpt = False,
) -> None:
    """Validate orders files without recording anything (players can run it on a clone)."""
    from pbem import api

    results = api.check(OPTS.directory, orders, key=key)
    if as_json:
        _print_json([{"file": str(c.path), "ok": c.ok, "problems": c.problems, "notes": c.notes,
                      "warnings": c.warnings} for c in results])
    else:
        for c in results:
            if c.ok:
                _say(f"{c.path}: OK ({', '.join(c.factions)})")
            for line in c.warnings:  # legal, accepted, but worth a second look
                _say(line)
            for line in c.notes:
                _say(f"note: {line}")
            for line in c.problems:
                typer.echo(line, err=True)
    if not all(c.ok for c in results):
        raise typer.Exit(1)


@app.command("apply")
def apply_cmd(
    orders: Annotated[list[Path], typer.Argument(help="Orders file(s) to validate and record.")],
    on_behalf: Annotated[str | None, typer.Option(
        "--on-behalf", metavar="REASON",
        help="Orders a player gave by another channel (phone, forum), entered by you unsigned; "
             "the step records REASON for every player to see.")] = None,
    as_json: JsonOpt = False,
) -> None:
    """Validate and record orders; resolve every phase that is then complete."""
    from pbem import api

    result = api.apply(OPTS.directory, orders, on_behalf=on_behalf)
    _print_applied(result, as_json)


def _print_applied(result: Any, as_json: bool) -> None:
    if as_json:
        _print_json({"recorded": result.recorded, "resolved": result.resolved,
                     "recovered": result.recovered, "warnings": result.warnings,
                     "status": result.status})
        return
    for line in result.warnings:  # recorded all the same
        _say(line)
    for r in result.recorded:
        _say(f"recorded orders of {r['faction']} from {r['file']} (step {r['seq']})")
    for r in result.resolved:
        nmr = f", defaults for {', '.join(r['nmr'])}" if r["nmr"] else ""
        _say(f"resolved turn {r['turn']} {r['phase']} (step {r['seq']}: {r['events']} events, "
             f"{r['dice']} dice{nmr})")
    _print_status(result.status)


@app.command()
def resolve(
    nmr: Annotated[
        bool, typer.Option("--nmr", help="Resolve now: factions without orders get their default orders.")
    ] = False,
    without_salts: Annotated[bool, typer.Option(
        "--without-salts",
        help="The contribution round only: draw the set-up without the salts still missing "
             "(status, every report and the audit then name the factions).")] = False,
    as_json: JsonOpt = False,
) -> None:
    """Resolve the awaited phase now (with --nmr, defaults for the missing orders)."""
    from pbem import api

    _print_applied(api.resolve(OPTS.directory, nmr=nmr, without_salts=without_salts), as_json)


@app.command()
def bot(
    faction: Annotated[str, typer.Argument(
        help="The faction to write orders for; FACTION,FACTION for one file for several "
             "factions of one player.")],
    out: Annotated[
        Path | None, typer.Option("--out", help="Write the orders file here instead of printing it.")
    ] = None,
    seed: Annotated[str | None, typer.Option("--seed", help="Vary the bot's choices.")] = None,
    as_json: JsonOpt = False,
) -> None:
    """Write legal orders for the awaited decision of FACTION (or of several factions of one
    player, in one file)."""
    from pbem import api, yamlio

    names = [f.strip() for f in faction.split(",") if f.strip()]
    # no dice salts: a player fills these orders in and `pbem sign` adds their own
    orders = (api.bot_several(OPTS.directory, names, seed=seed, salts=False) if len(names) > 1
              else api.bot(OPTS.directory, faction, seed=seed, salts=False))
    text = json.dumps(orders, indent=2) + "\n" if as_json else yamlio.dump(orders)
    if out is None:
        typer.echo(text, nl=False)
    else:
        yamlio.write_atomic(out, text)
        _say(f"wrote {out}")


@app.command("log")
def log_cmd(
    events: Annotated[bool, typer.Option("--events", help="Also list every event of each step.")] = False,
    as_json: JsonOpt = False,
) -> None:
    """Show the history: seq, turn, phase, type, faction, summary."""
    from pbem import api

    entries = api.log(OPTS.directory)
    if as_json:
        _print_json(entries)
        return
    for e in entries:
        who = f" [{','.join(e['factions'])}]" if e["factions"] else ""
        _say(f"{e['seq']:>5}  t{e['turn']:<2} {e['phase']:<17} {e['type']:<7}{who} {e['summary']}")
        if events:
            for line in e["events"]:
                _say(f"{'':>7}- {line}")


@app.command()
def undo(
    reason: Annotated[str, typer.Option("--reason", help="Why the step is taken back (recorded).")],
    as_json: JsonOpt = False,
) -> None:
    """Take back the last step: recorded in the log with its reason, never erased."""
    from pbem import api

    _print_step(api.undo(OPTS.directory, reason), as_json,
                "took back step {undone} (recorded as step {seq})")


@app.command()
def adjust(
    file: Annotated[Path, typer.Argument(help="YAML list of corrections (events) to apply: the game's "
                                         "README lists its forms under 'Corrections'.")],
    reason: Annotated[str, typer.Option("--reason", help="Why the correction is made (recorded, "
                                        "shown to every player).")],
    as_json: JsonOpt = False,
) -> None:
    """Record a referee correction with its reason: each event checked first (a mistake is
    named at its line and nothing is recorded); audit replays it and every report tells it."""
    from pbem import api

    _print_step(api.adjust(OPTS.directory, file, reason), as_json,
                "recorded the adjustment as step {seq}")


@app.command()
def seat(
    faction: Annotated[str, typer.Argument(
        help="The faction whose player or keys change; FACTION,FACTION for one player's.")],
    reason: Annotated[str, typer.Option("--reason", help="Why the seat changes (recorded, shown to every player).")],
    player: Annotated[str | None, typer.Option(
        "--player", metavar="'NAME <EMAIL>'", help="The new player, address in angle brackets.")] = None,
    key: Annotated[Path | None, typer.Option(
        "--key", metavar="CARD",
        help="The player's public key: id_ed25519.pub, or the card pbem keygen writes (FILE.card).")] = None,
    hot_seat: Annotated[bool, typer.Option("--hot-seat", help="Back to hot-seat: no player, no keys.")] = False,
    as_json: JsonOpt = False,
) -> None:
    """Change who plays a faction, or their keys, as a recorded step (never by editing
    campaign.yaml, which pbem then refuses)."""
    from pbem import api

    names = [f.strip() for f in faction.split(",") if f.strip()]
    _print_step(api.seat(OPTS.directory, names, reason, player=player, key=key, hot_seat=hot_seat),
                as_json, "recorded as step {seq}: {summary}")


@app.command()
def override(
    file: Annotated[Path, typer.Argument(
        help="A YAML file whose 'overrides:' are the campaign's corrections to the game's data "
             "from now on (an empty mapping: the game's own data again).")],
    reason: Annotated[str, typer.Option("--reason", help="Why the data changes (recorded, shown to every player).")],
    as_json: JsonOpt = False,
) -> None:
    """Change the campaign's corrections to the game's data as a recorded step (never by
    editing campaign.yaml, which pbem then refuses): checked against the game's schemas and
    rules; the audit replays the steps before with the data they were played with."""
    from pbem import api

    _print_step(api.override(OPTS.directory, file, reason), as_json,
                "recorded as step {seq}: {summary}")


@app.command()
def audit(
    final: Annotated[bool, typer.Option("--final", help="After 'unseal': also check every opened secret.")] = False,
    witness: Annotated[list[Path] | None, typer.Option(
        "--witness", metavar="MAILBOX",
        help="Mail pbem sent you (an mbox file, a Maildir or .eml files): each names the log "
             "head it was made at, which the history must still have.")] = None,
    key: Annotated[Path | None, typer.Option(
        "--key", metavar="IDENTITY",
        help="Your key (~/.ssh/id_ed25519 or an age FILE.key): also recompute, now, every hidden draw that concerns you "
             "alone (the Chechen's face-down units) with your own draw key, and check it "
             "against what your key opens.")] = None,
    as_json: JsonOpt = False,
) -> None:
    """Replay the whole history from git and verify it; exit 3 on any problem. A clone
    remembers the last step it verified and reports a history rewritten since."""
    from pbem import api

    report = api.audit(OPTS.directory, final=final, witnesses=witness, key=key)
    if as_json:
        _print_json(report)
    else:
        c = report["checked"]
        _say(f"checked {c['entries']} entries, {c['snapshots']} snapshots, {c['rolls']} dice, "
             f"{c['signatures']} signatures, {c['commitments']} commitments")
        if report.get("unopened"):
            _say("sealed and not yet revealed: " + ", ".join(report["unopened"]))
        if report.get("hidden_draws"):
            _say(f"hidden draws: {report['hidden_draws']}")
        if key is not None:
            _say(f"your own draws: {c.get('own_recomputed', 0)} sealed value(s) recomputed with "
                 "your own draw key")
        from pbem.log import describe_correction

        for c in report.get("corrections", []):  # not problems, but every player should see them
            _say(f"correction: {describe_correction(c)}")
        for p in report["problems"]:
            typer.echo(f"problem: {p}", err=True)
        _say("audit: OK" if report["ok"] else f"audit: {len(report['problems'])} problem(s)")
    if not report["ok"]:
        raise typer.Exit(3)


@app.command()
def unseal(
    force: Annotated[bool, typer.Option("--force", help="Unseal before the game is over.")] = False,
    as_json: JsonOpt = False,
) -> None:
    """End of game: publish the referee's secret and every opening, for 'audit --final'."""
    from pbem import api

    result = api.unseal(OPTS.directory, force=force)
    if as_json:
        _print_json(result)
        return
    _say(f"unsealed (step {result['seq']}); anyone can now run 'pbem audit --final'")


@app.command("dice")
def dice_cmd(as_json: JsonOpt = False) -> None:
    """Every die so far: label, sides, value, and verified (from the published seeds),
    hidden (a hidden draw before unseal) or WRONG."""
    from pbem import api

    rolls = api.dice(OPTS.directory)
    if as_json:
        _print_json(rolls)
        return
    for r in rolls:
        _say(f"{r['seq']:>5}  t{r['turn']:<2} {r['label']:<44} d{r['sides']:<3} {r['value']:>3}  {r['state']}")
    counts = {s: sum(1 for r in rolls if r["state"] == s) for s in ("verified", "hidden", "WRONG")}
    _say(f"{len(rolls)} dice: " + ", ".join(f"{n} {s}" for s, n in counts.items() if n))
    unsalted = sorted({r["batch"] for r in rolls if r["batch"] and not r["player_salts"]})
    if unsalted:
        _say(f"batches with no player's salt (keyed by the referee's seed chain and the bot's "
             f"predictable salts only): {', '.join(map(str, unsalted))}")
    if counts["WRONG"]:
        raise typer.Exit(3)


@app.command()
def demo(
    directory: Annotated[
        Path | None, typer.Argument(help="Folder for the demo campaign (default: a new temporary folder).")
    ] = None,
    turns: Annotated[int, typer.Option("--turns", help="Stop after this many turns (0: play to the end, "
                                       "or to the game's demo length, demo_turns in its game.yaml).")] = 0,
    game: Annotated[str | None, typer.Option("--game", help="The game to play (default: the bundled "
                                             "game whose game.yaml says demo: true).")] = None,
    as_json: JsonOpt = False,
) -> None:
    """Play a whole sample campaign offline with the bot, from set-up to the end, and audit it
    (exit 3 if the audit finds a problem)."""
    import tempfile

    from pbem import demo as demo_

    game = demo_.demo_game(game)  # a wrong --game is refused before any folder is made
    target = directory or Path(tempfile.mkdtemp(prefix="pbem-demo-"))
    result = demo_.run(target, turns=turns, progress=None if as_json else _say, game_id=game)
    if as_json:
        _print_json(result)
    for p in result["audit"]["problems"]:
        typer.echo(f"problem: {p}", err=True)
    if not result["audit"]["ok"]:  # the demo is a check too: a failed audit is exit 3
        raise typer.Exit(3)
