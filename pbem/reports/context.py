"""What a turn report says: what one reader may know, gathered from views and the log.

`build_context` collects, for one reader (a faction, "public" or "referee"):

- the steps of the report's window (by default the latest complete turn and the current
  one so far; with `turn` that turn alone), each with its events as the game describes
  them and every die (label, sides, value), and how anyone can verify those dice;
- what only the game knows, from `game.view` of the state after the window and of the
  state before it: its position tables, what changed, and, for the HTML report, its map
  as SVG (the game's `report`, pbem/game.py); a game without `report`, or a part it leaves
  out, gets the neutral default: the view as tables, the view's changed values, no map;
- the reader's own sealed values (opened only with the reader's key), what is awaited from
  the reader and by when, and a pre-filled orders template (`pbem.api.bot`).

Nothing here reads the game state except through `game.view`, so a report cannot show what
the view hides; sealed values are shown only when the reader's own key opens them.
The context is plain data; pbem/reports/render.py renders it with Jinja2 (the neutral
partials `position.*.j2` and `changes.*.j2` of `templates/` show `view_tables` and
`view_changes`).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any

from pbem import yamlio
from pbem.contributions import PHASE as ROUND_PHASE
from pbem.contributions import TEMPLATE_NOTE
from pbem.errors import CryptoError, DataError, UsageError

if TYPE_CHECKING:
    from pbem.campaign import Campaign

READERS = ("public", "referee")
VERIFY = (
    "Every die above is drawn from the referee's seed committed at the start of the campaign, "
    "under a label named by the game state. List them all with 'pbem dice'; after 'pbem unseal' "
    "'pbem audit --final' recomputes each one, and docs/fairness.md tells how to check them "
    "without pbem."
)
REPRODUCIBLE = (
    "WARNING: this campaign is reproducible (created with --seed): every die and every secret "
    "in it can be computed by anyone who knows the seed. It is for tests and demonstrations, "
    "not for a real game."
)
# shown in place of a value the reader may not open
SEALED = "sealed"


# ---------------------------------------------------------------------------------------
# the game's report style: its templates/report.yaml, handed to the game as it is


def _style(game_folder: Path) -> dict[str, Any]:
    path = game_folder / "templates" / "report.yaml"
    loaded: dict[str, Any] = yamlio.read_trusted(path) if path.exists() else {}
    return loaded or {}


# ---------------------------------------------------------------------------------------
# the log: which steps a report covers, what was sealed


@dataclass
class Window:
    """The steps of a report and the engine snapshots around them."""

    turns: list[int]
    entries: list[dict[str, Any]] = field(default_factory=list)
    before: dict[str, Any] | None = None
    after: dict[str, Any] | None = None
    undone: dict[int, int] = field(default_factory=dict)  # seq -> seq of the undo


def _window(campaign: Any, entries: list[dict[str, Any]], current_turn: int,
            turn: int | None) -> Window:
    """The entries of the report's turns, and the snapshots just before and after them."""
    if turn is None:
        known = {int(e["turn"]) for e in entries}
        turns = sorted({current_turn - 1, current_turn} & known)
        if not turns:  # an adjustment moved the game on past turns no step was recorded in
            turns = [max(t for t in known if t <= current_turn)] if any(
                t <= current_turn for t in known) else [max(known)]
    else:
        listed = sorted({e["turn"] for e in entries})
        if turn not in listed:
            raise UsageError(f"--turn {turn}: no such turn in this campaign "
                             f"(turns so far: {', '.join(map(str, listed))})")
        turns = [turn]
    from pbem.log import undone_steps

    win = Window(turns=turns, entries=[e for e in entries if e["turn"] in turns])
    win.undone = undone_steps(entries)[1]
    first, last = win.entries[0]["seq"], win.entries[-1]["seq"]
    win.after = _snapshot(campaign, entries, last)
    win.before = _snapshot(campaign, entries, first - 1) if first > 1 else None
    return win


def _snapshot(campaign: Any, entries: list[dict[str, Any]], seq: int) -> dict[str, Any]:
    """The engine state after step `seq`: state.yaml as committed with that step (git), so a
    report costs O(state); folding the log is the fallback (a clone without that history)."""
    from pbem.campaign import STATE
    from pbem.log import Folder, entry_name

    current: dict[str, Any] = campaign.state()
    if current["seq"] == seq:
        return current
    try:
        store = campaign.store()
        sha = store.commit_of(entry_name(seq))
        raw = store.read_at(sha, STATE) if sha else None
    except Exception:  # noqa: BLE001 - any git trouble: fold the log instead
        raw = None
    if raw is not None:
        loaded: dict[str, Any] = yamlio.load_trusted(raw.decode("utf-8"))
        if loaded.get("seq") == seq:
            return loaded
    folder = Folder(campaign.game, campaign.data)
    for entry in entries:
        if entry["seq"] > seq:
            break
        folder.fold(entry)
    return folder.state


def _openings(campaign_id: str, entries: list[dict[str, Any]]) -> dict[str, int]:
    """Commitment -> seq of the step that published its opening (reveal or unseal)."""
    from pbem.crypto import sealed

    nodes = [(e["seq"], n) for e in entries for n in sealed.find_sealed(e)]
    out: dict[str, int] = {}
    for entry in entries:
        for opening in entry.get("opened") or []:  # what the rules opened, and unseal
            out.setdefault(opening["node"]["commitment"], entry["seq"])
        for faction, opening in (entry.get("revealed") or {}).items():
            for seq, node in nodes:
                if (seq < entry["seq"] and node["owner"] == faction
                        and node["commitment"] not in out
                        and sealed.check_opening(campaign_id, node, opening.get("nonce", ""),
                                                 opening.get("value"))):
                    out[node["commitment"]] = entry["seq"]
    return out


def _sealed_items(campaign_id: str, entries: list[dict[str, Any]], who: str,
                  identities: list[str] | None,
                  revealed: dict[str, int] | None = None) -> list[dict[str, Any]]:
    """Every sealed value in the log that `who` may know of: its own (everything, for the
    referee; only that something is sealed, for the public), opened when the key allows.
    `revealed` is `_openings` of the same entries, when the caller has it (it is public)."""
    from pbem.crypto import sealed

    if revealed is None:
        revealed = _openings(campaign_id, entries)
    out: list[dict[str, Any]] = []
    seen: set[str] = set()  # a node the rules carry on (a battle waiting for an answer) once
    for entry in entries:
        for node in sealed.find_sealed(entry):
            if node["commitment"] in seen:
                continue
            seen.add(node["commitment"])
            mine = who == "referee" or node["owner"] == who
            item: dict[str, Any] = {
                "seq": entry["seq"], "kind": node["kind"], "id": node["id"],
                "owner": node["owner"], "turn": node["turn"],
                "commitment": node["commitment"], "revealed_at": revealed.get(node["commitment"]),
                "value": None, "verified": None, "mine": mine,
            }
            if mine and identities:
                try:
                    opened = sealed.open_node(campaign_id, node, identities)
                except CryptoError:
                    pass  # not sealed to this key
                else:
                    item["value"] = _value_text(opened.value)
                    item["raw"] = opened.value
                    item["verified"] = opened.verified
            out.append(item)
    return out


def own_secrets(root: Path, identities: list[str]) -> dict[str, Any]:
    """What `pbem reveal` shows a player: each faction's hand the game's way (Game.report's
    "hand"), the other values sealed to the key and not public yet (its "secrets"), and
    those a later step published; every one opened with `identities` and checked against
    its commitment ("verified")."""
    from pbem.campaign import Campaign
    from pbem.step import finish

    campaign = Campaign.settled(root, finish)
    game, data = campaign.game, campaign.data
    items = [i for i in _sealed_items(campaign.id, list(campaign.entries()), "referee", identities)
             if i["verified"] is not None]
    state = campaign.state()["game"]
    hands: dict[str, list[dict[str, Any]]] = {}
    sealed_now: list[dict[str, Any]] = []
    for owner in sorted({i["owner"] for i in items}):
        pending = [i for i in items if i["owner"] == owner and i["revealed_at"] is None]
        parts = _game_parts(game, data, game.view(data, state, owner), None, owner,
                            _style(data.folder), pending)
        if parts["hand"]:
            hands[owner] = parts["hand"]
        sealed_now += parts["secrets"]
    return {"hands": hands, "sealed": sealed_now, "game_folder": data.folder,
            "public": [i for i in items if i["revealed_at"] is not None],
            "failed": [i for i in items if not i["verified"]], "count": len(items)}


def _value_text(value: Any) -> str:
    """A sealed value as a player wrote it: an orders file's own text when it has one."""
    if isinstance(value, dict) and isinstance(value.get("file"), str):
        return str(value["file"]).rstrip("\n")
    return str(yamlio.dump(value)).rstrip("\n")


# ---------------------------------------------------------------------------------------
# what only the game knows (Game.report), or the neutral default for a game without it

# the parts a game's `report` may give; each one it leaves out gets the default below
PARTS = ("position", "changes", "map_svg", "map_focus", "hand", "secrets", "orders_note", "own")
# pbem's own keys of a view (the reader; the contribution round), not the game's position
OWN_KEYS = ("who", "contribute")
EXAMPLE_NOTE = [
    "These orders are only a legal EXAMPLE written by pbem's bot: replace them",
    "with your own, check with 'pbem check FILE', sign with 'pbem sign FILE'",
    "and send the file to the referee.",
]


def _game_parts(game: Any, data: Any, view: dict[str, Any], before: dict[str, Any] | None,
                who: str, style: dict[str, Any], pending: list[dict[str, Any]]) -> dict[str, Any]:
    """The game's parts of a report (`pbem.game.Reports`), each part it leaves
    out (or all, for a game without `report`) replaced by the neutral default: the view as
    tables, its changed values, no map (nor its focus), no hand, every pending sealed value listed, pbem's
    note on the orders template."""
    from pbem.game import Reports

    given: dict[str, Any] = (dict(game.report(data, view, before, who, style, pending))
                             if isinstance(game, Reports) else {})
    unknown = sorted(set(given) - set(PARTS))
    if unknown:
        raise DataError(f"game {data.game_id}: report() gave {', '.join(map(repr, unknown))}; "
                        f"it may give {', '.join(PARTS)}")
    defaults: dict[str, Any] = {
        "position": lambda: view_tables(view),
        "changes": lambda: view_changes(before, view),
        "map_svg": lambda: None,
        "map_focus": lambda: None,
        "hand": lambda: [],
        "secrets": lambda: pending,
        "orders_note": lambda: EXAMPLE_NOTE,
        "own": lambda: None,
    }
    return {part: given[part] if part in given else defaults[part]() for part in PARTS}


def _cell(value: Any) -> Any:
    """A value of a view as one table cell: numbers stay numbers, a sealed value is only
    said to be sealed, lists and small mappings become text."""
    from pbem.crypto.sealed import is_sealed

    if is_sealed(value):
        return SEALED
    if isinstance(value, bool):
        return "yes" if value else "no"
    if isinstance(value, list):
        return ", ".join(str(_cell(v)) for v in value)
    if isinstance(value, dict):
        return ", ".join(f"{k} {_cell(v)}" for k, v in value.items())
    return value


def _title(key: Any) -> str:
    return str(key).replace("_", " ").capitalize()


def view_tables(view: dict[str, Any]) -> dict[str, Any]:
    """The neutral position (templates/position.*.j2): each part of the view in its order,
    a mapping of records as a table (a row per key, a column per field), any other value
    as one line (`Turn: 3`, `Score: blue 2, gold 1`)."""
    from pbem.crypto.sealed import is_sealed

    tables: list[dict[str, Any]] = []
    lines: list[str] = []
    for key, value in view.items():
        if key in OWN_KEYS or value is None or value == {} or value == []:
            continue
        records = (isinstance(value, dict) and not is_sealed(value)
                   and all(isinstance(v, dict) and not is_sealed(v) for v in value.values()))
        if records:
            columns = list(dict.fromkeys(c for v in value.values() for c in v))
            tables.append({"title": _title(key), "headers": ["", *map(str, columns)],
                           "rows": [[str(k), *(_cell(v.get(c)) for c in columns)]
                                    for k, v in value.items()]})
        else:
            lines.append(f"{_title(key)}: {_cell(value)}")
    return {"lines": lines, "tables": tables}


def _flat(value: Any, path: str, out: dict[str, Any]) -> dict[str, Any]:
    from pbem.crypto.sealed import is_sealed

    if isinstance(value, dict) and value and not is_sealed(value):
        for k, v in value.items():
            _flat(v, f"{path}.{k}" if path else str(k), out)
    else:
        out[path] = _cell(value)
    return out


def view_changes(before: dict[str, Any] | None, after: dict[str, Any]) -> dict[str, Any]:
    """The neutral changes (templates/changes.*.j2): every value of the reader's view that
    differs from the same reader's view before the report's steps, by its path
    (`score.blue`), with the difference of numbers."""
    if before is None:
        return {"rows": []}
    old = _flat({k: v for k, v in before.items() if k not in OWN_KEYS}, "", {})
    new = _flat({k: v for k, v in after.items() if k not in OWN_KEYS}, "", {})
    rows = []
    for path in dict.fromkeys([*new, *old]):
        b, a = old.get(path), new.get(path)
        if a == b:
            continue
        change = None
        if (isinstance(a, int) and isinstance(b, int)
                and not isinstance(a, bool) and not isinstance(b, bool)):
            change = a - b
        rows.append({"what": path, "before": b, "after": a, "change": change})
    return {"rows": rows}


# ---------------------------------------------------------------------------------------
# the context


def _check_who(who: str, factions: list[str]) -> None:
    if who in READERS or who in factions:
        return
    from pbem.names import suggest

    known = [*READERS, *factions]
    raise UsageError(f"--for {who!r}: not a reader of this campaign{suggest(who, known)}; "
                     f"choose one of {', '.join(known)}")


def _turn_name(data: Any, turn: int) -> str:
    """A turn as the game names it: game.yaml `turns`, when it is a list of names (a
    season, a year); otherwise "turn N"."""
    names = data["game"].get("turns")
    if not isinstance(names, list):
        names = []
    if turn == 0:
        return "Set-up"
    if 1 <= turn <= len(names):
        return str(names[turn - 1])
    return f"turn {turn}"


def _title_turn(data: Any, turn: int) -> str:
    """"Spring 1919 (turn 3)", "Set-up (turn 0)", and "turn 3" alone where the game gives
    its turns no names."""
    name = _turn_name(data, turn)
    return name if name == f"turn {turn}" else f"{name} (turn {turn})"


def _salt_note(steps: list[dict[str, Any]]) -> str:
    """Which batches of dice in the report mix no player's own salt (docs/fairness.md)."""
    bare = [str(s["batch"]) for s in steps if s["dice"] and s["batch"] and not s["player_salts"]]
    if not bare:
        return ""
    return (f"Batch{'es' if len(bare) > 1 else ''} {', '.join(bare)} had no player's own salt: "
            "their dice are keyed by the referee's seed chain, fixed at the start, and by the "
            "bot's predictable salts only.")


def _hidden_note(campaign: Campaign) -> str:
    """A campaign made without the contribution round, or whose round was resolved without
    some salts, says so in every report."""
    from pbem import api
    from pbem.contributions import note

    state = campaign.state()
    return note(state, api.contributors(campaign, state))


def _orders_templates(root: Path, who: str, awaiting: list[str], status: dict[str, Any],
                      seed: str | None,
                      players: dict[str, str | None] | None = None,
                      note: list[str] | None = None,
                      standing: dict[str, list[str]] | None = None) -> list[dict[str, Any]]:
    """The orders file each reader may fill in: the bot's legal example when awaited, under
    `note` (the game's, or pbem's EXAMPLE_NOTE) and the standing instructions offered
    (`standing`: comment lines by faction). A player of several factions awaited at once is
    also offered one file for all of them, in the report of the first of them."""
    from pbem import api
    from pbem.errors import Rejected

    wanted = awaiting if who == "referee" else [who] if who != "public" else []
    out = []
    for faction in wanted:
        head = [f"# Orders template for {faction}: turn {status['turn']}, {status['phase']}."]
        body: dict[str, Any] | None = None
        if faction in awaiting:
            try:
                # no dice salts: the player's own `pbem sign` adds them (docs/fairness.md)
                body = api.bot(root, faction, seed=seed, template=True)
            except Rejected as exc:
                head += [f"# pbem could not write example orders: {exc.message}"]
        if body is not None:
            head += TEMPLATE_NOTE if status["phase"] == ROUND_PHASE else [
                f"# {line}" for line in (EXAMPLE_NOTE if note is None else note)]
            head += [f"# {line}" for line in (standing or {}).get(faction, [])]
            text = "\n".join(head) + "\n" + str(yamlio.dump(body))
        else:
            if faction not in awaiting:
                head += [f"# Nothing is awaited from {faction} now; this is only the header of an",
                         "# orders file, for when you are."]
            bare = {"campaign": status["campaign"], "turn": status["turn"], "phase": status["phase"],
                    "faction": faction, "head": status["head"], "orders": []}
            text = "\n".join(head) + "\n" + str(yamlio.dump(bare))
        out.append({"faction": faction, "awaited": faction in awaiting, "text": text})
    seat = [f for f, p in (players or {}).items() if p is not None and p == (players or {}).get(who)
            and f in awaiting]
    if len(seat) > 1 and seat[0] == who:
        out.append(_several_template(root, seat, status, seed, standing))
    return out


def standing_comments(campaign: Campaign, factions: list[str]) -> dict[str, list[str]]:
    """What each faction's orders template says under its header, as comment lines: the
    forms of the orders its file takes now (ORDERS.md's examples: Game.orders_sections),
    then the standing instructions it may set (Game.standing_offer)."""
    from pbem.game import order_forms, standing_lines, standing_offer

    state = campaign.state()["game"]
    return {f: order_forms(campaign.game, campaign.data, state, f)
            + standing_lines(standing_offer(campaign.game, campaign.data, state, f))
            for f in factions}


def _several_template(root: Path, seat: list[str], status: dict[str, Any],
                      seed: str | None, standing: dict[str, list[str]] | None = None,
                      ) -> dict[str, Any]:
    """One orders file for the awaited factions of one player (`faction: [south, north]`)."""
    from pbem import api
    from pbem.errors import Rejected

    both = " and ".join(seat)
    head = [f"# One orders file for {both} (you play them all): turn {status['turn']}, "
            f"{status['phase']}.",
            "# 'orders' (and 'standing', 'secret' when given) are mappings by faction. One",
            "# signature covers the file ('pbem sign' adds each faction's dice salts). Separate",
            "# files per faction are fine too."]
    try:
        body: dict[str, Any] = api.bot_several(root, seat, seed=seed, template=True)
        head += TEMPLATE_NOTE if status["phase"] == ROUND_PHASE else [
            f"# {line}" for line in EXAMPLE_NOTE]
        for faction in seat:
            offered = (standing or {}).get(faction, [])
            head += [f"# For {faction}:", *(f"# {line}" for line in offered)] if offered else []
    except Rejected as exc:
        head += [f"# pbem could not write example orders: {exc.message}"]
        body = {"campaign": status["campaign"], "turn": status["turn"], "phase": status["phase"],
                "faction": seat, "head": status["head"], "orders": {f: [] for f in seat}}
    return {"faction": " + ".join(seat), "factions": seat, "awaited": True, "several": True,
            "text": "\n".join(head) + "\n" + str(yamlio.dump(body))}


def _boxed(campaign: Campaign, entries: list[dict[str, Any]], entry: dict[str, Any],
           told: list[dict[str, Any]], state: dict[str, Any] | None = None) -> list[dict[str, Any]]:
    """A step's events as the report lists them: the runs the game tells as boxes
    (Game.boxes: a battle's forces and dice as a table) replaced by their box, whose notes
    are the run's other events as the log tells them. `state` is the engine state before
    the step when the caller has it (else it is read from git, or folded)."""
    from pbem.game import boxes

    raw = list(entry.get("events") or [])
    if not raw or entry["type"] != "resolve" or getattr(campaign.game, "boxes", None) is None:
        return told
    before = (state if state is not None else _snapshot(campaign, entries, entry["seq"] - 1))["game"]
    found = sorted(boxes(campaign.game, campaign.data, before, raw), key=lambda x: x["first"])
    out: list[dict[str, Any]] = []
    i = 0
    for box in found:
        first, last = int(box["first"]), int(box["last"])
        if first < i or last < first or last >= len(told):
            continue  # a box that overlaps another, or points past the events: left out
        out += told[i:first]
        shown = set(box.get("told") or [])
        out.append({"type": "box", "text": box["title"],
                    "box": {"title": box["title"], "columns": box["columns"], "rows": box["rows"],
                            "notes": [told[k]["text"] for k in range(first, last + 1)
                                      if k not in shown]}})
        i = last + 1
    return out + told[i:]


SUMMARY_MOST = 14  # headlines in a summary; the rest are counted


def _summary(campaign: Campaign, data: Any, entries: list[dict[str, Any]], turn: int, who: str,
             status: dict[str, Any]) -> dict[str, Any]:
    """What a report says first: the game's headlines of the turn shown (Game.headlines),
    and the deadline in the reader's own time zone as well as UTC."""
    from pbem.game import headlines
    from pbem.schedule import local_time, timezone_of

    said: list[str] = []
    for entry in entries:
        if entry["turn"] == turn:
            said += headlines(campaign.game, data, list(entry.get("events") or []))
    zone = timezone_of(campaign, who) if who in campaign.factions() else None
    deadline = status.get("deadline")
    return {"headlines": said[:SUMMARY_MOST], "more": max(0, len(said) - SUMMARY_MOST),
            "deadline": local_time(deadline, zone) if deadline else None, "timezone": zone}


def final(result: dict[str, Any], names: dict[str, str], style: dict[str, Any]) -> dict[str, Any]:
    """The game's end as a report tells it first: the headline (who won and why) and a
    table of each faction's scores, one column for each value of the result given by
    faction (victory points, levels...), titled by the game's templates/report.yaml
    `result:` labels when it has them."""
    winners = [names.get(str(w), str(w)) for w in result.get("winners") or []]
    reason = str(result.get("reason") or "")
    headline = (f"{' and '.join(winners)} won" if winners else "nobody won") + (
        f": {reason}" if reason else "")
    labels = style.get("result") or {}
    columns = [k for k, v in result.items()
               if isinstance(v, dict) and v and set(map(str, v)) <= set(names)]
    order = list(labels)  # the game's labels give the columns' order too
    columns.sort(key=lambda k: order.index(k) if k in order else len(order))
    rows = [[names[f], *(result[k].get(f) for k in columns)] for f in names
            if any(f in result[k] for k in columns)]
    return {"headline": headline, "winners": winners, "reason": reason,
            "columns": ["Faction", *(str(labels.get(k) or k.replace("_", " ").capitalize())
                                     for k in columns)],
            "rows": rows}


SEALED_SUFFIX = " (sealed until the phase resolves)"


def _merged(steps: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """The story's steps, each with its `seq_label`; a run of orders recorded in one phase
    (no events, no reason, none taken back) told as one line: "Steps 91-94: orders received
    from red, siberian, south, north (sealed until the phase resolves)"."""
    out: list[dict[str, Any]] = []
    run: list[dict[str, Any]] = []

    def plain(step: dict[str, Any]) -> bool:
        return (step["type"] == "orders" and not step["events"] and not step["reason"]
                and not step["undone_by"] and not step["dice"])

    def flush() -> None:
        if len(run) == 1:
            out.append({**run[0], "seq_label": str(run[0]["seq"])})
        elif run:
            sealed = all(str(r["summary"]).endswith(SEALED_SUFFIX) for r in run)
            who = ", ".join(str(r["faction"] or "?") for r in run)
            out.append({**run[0], "seq_label": f"{run[0]['seq']}-{run[-1]['seq']}",
                        "summary": f"orders received from {who}" + (SEALED_SUFFIX if sealed else ""),
                        "sealed": [x for r in run for x in r["sealed"]]})
        run.clear()

    for step in steps:
        if plain(step) and (not run or (run[-1]["turn"], run[-1]["phase"]) == (step["turn"], step["phase"])):
            run.append(step)
            continue
        flush()
        if plain(step):
            run.append(step)
        else:
            out.append({**step, "seq_label": str(step["seq"])})
    flush()
    return out


@dataclass
class Moment:
    """What every reader's report of one moment has in common, computed once: `pbem mail`
    builds several players' reports at one step (`moment`). Nothing here depends on the
    reader: no view, no sealed value opened, no orders template; the log it comes from is
    public (the story, its dice and what was revealed), and `standing` is read for each
    faction only by that faction's own template."""

    campaign: Campaign
    turn: int | None  # the report's turn, as build_context's `turn`
    status: dict[str, Any]
    style: dict[str, Any]
    entries: list[dict[str, Any]]
    win: Window
    steps: list[dict[str, Any]]  # the story: each step of the window, without its "sealed"
    revealed: dict[str, int]  # _openings: commitment -> the step that published it
    names: dict[str, str]  # faction -> its name
    corrections: list[str]
    hidden_note: str
    standing: dict[str, list[str]]  # the awaited factions' standing_comments


def moment(root: Path, turn: int | None = None, *, campaign: Campaign | None = None,
           status: dict[str, Any] | None = None) -> Moment:
    """The reader-independent part of every report of `turn` (default: the current one);
    `campaign` (settled) and `status` when the caller has them already."""
    from pbem import api, randomness
    from pbem.campaign import Campaign
    from pbem.log import Folder, corrections, describe_correction
    from pbem.step import finish

    if campaign is None:
        campaign = Campaign.settled(root, finish)
    game, data = campaign.game, campaign.data
    if status is None:
        status = api.status(root)
    all_entries = list(campaign.entries())
    win = _window(campaign, all_entries, status["turn"], turn)
    assert win.after is not None  # every campaign has its set-up step
    steps = []
    # the state before each step of the window, folded from the one before the window (a
    # lookup in git for each step costs a `git log` of the whole history)
    folder: Folder | None = Folder(game, data, state=win.before) if win.before else None
    for entry in win.entries:
        events = _boxed(campaign, all_entries, entry,
                        [{"type": e.get("type"), "text": game.summary(data, e)}
                         for e in entry.get("events") or []],
                        folder.state if folder is not None else None)
        if folder is not None:
            try:
                folder.fold(entry)
            except Exception:  # noqa: BLE001 - an undo of a step before the window: git then
                folder = None
        steps.append({
            "seq": entry["seq"], "turn": entry["turn"], "turn_name": _turn_name(data, entry["turn"]),
            "phase": entry["phase"], "type": entry["type"],
            # a file for several factions of one player names them all (`factions`)
            "faction": entry.get("faction") or ", ".join(entry.get("factions") or []) or None,
            "summary": entry["summary"], "reason": entry.get("reason"),
            "undone_by": win.undone.get(entry["seq"]),
            "events": events,
            "dice": [{"label": d["label"], "sides": d["sides"], "value": d["value"]}
                     for d in entry.get("dice") or []],
            "batch": entry.get("batch"),
            "player_salts": (randomness.player_salted(campaign.id, entry, len(all_entries) + 2)
                             if entry["type"] == "resolve" else []),
        })
    current = turn is None or turn == status["turn"]
    awaiting = list(status["awaiting"])
    return Moment(
        campaign=campaign, turn=turn, status=status, style=_style(data.folder),
        entries=all_entries, win=win, steps=steps,
        revealed=_openings(campaign.id, all_entries),
        names={f["id"]: f["name"] for f in game.describe(data)["factions"]},
        corrections=[describe_correction(c) for c in corrections(all_entries)
                     if c["turn"] in win.turns],
        hidden_note=_hidden_note(campaign),
        standing=(standing_comments(campaign, awaiting)
                  if current and not status.get("over") else {}),
    )


def build_context(root: Path, who: str, turn: int | None = None,
                  identities: list[str] | None = None,
                  common: Moment | None = None) -> dict[str, Any]:
    """Everything one report shows, as plain data (no jinja2 here).

    `identities` are the reader's age identities: a faction's own sealed values are shown
    opened only with them. The referee's report uses `.pbem/referee.key` when it exists.
    `common` is `moment(root, turn)` when the caller builds several readers' reports of
    the same moment; everything of the reader's own is built here, for this reader alone.
    """
    if common is None:
        common = moment(root, turn)
    elif common.turn != turn:
        raise ValueError(f"a moment of turn {common.turn} given for a report of turn {turn}")
    campaign, status, style, win = common.campaign, common.status, common.style, common.win
    all_entries = common.entries
    game, data = campaign.game, campaign.data
    factions = list(campaign.factions())
    _check_who(who, factions)
    if who == "referee" and identities is None:
        key = campaign.private / "referee.key"
        if key.exists():
            identities = campaign.referee_identities()
    assert win.after is not None  # every campaign has its set-up step
    view = game.view(data, win.after["game"], who)
    before = game.view(data, win.before["game"], who) if win.before else None
    secrets = _sealed_items(campaign.id, all_entries, who, identities, common.revealed)
    by_seq: dict[int, list[dict[str, Any]]] = {}
    for item in secrets:
        by_seq.setdefault(item["seq"], []).append(item)
    steps = [{**step, "sealed": [{k: s[k] for k in ("kind", "id", "owner", "commitment")}
                                 for s in by_seq.get(step["seq"], [])]}
             for step in common.steps]
    names = common.names
    awaiting = list(status["awaiting"])
    shown_turn = win.turns[-1]
    current = turn is None or turn == status["turn"]
    pending = [s for s in secrets if s["mine"] and s["revealed_at"] is None]
    parts = _game_parts(game, data, view, before, who, style, pending)
    changes = parts["changes"]
    who_name = names.get(who, who.capitalize())
    summary = _summary(campaign, data, win.entries, shown_turn, who, status)
    return {
        "summary": summary,
        "hand": parts["hand"],
        # the hands the report shows, each with its holder (a player's report of several
        # factions shows each faction's: seat_context)
        "hands": [{"faction": who, "who_name": who_name, "hand": parts["hand"]}] if parts["hand"] else [],
        # the reader's order of battle (Game.report's "own": lines and tables), by faction
        "owns": [{"faction": who, "who_name": who_name, **parts["own"]}] if parts["own"] else [],
        "campaign": campaign.id,
        "game": {"id": campaign.config["game"], "name": data["game"]["name"]},
        "who": who,
        "who_name": who_name,
        "faction": who if who in factions else None,
        "reproducible": bool(campaign.config.get("reproducible")),
        "reproducible_warning": REPRODUCIBLE,
        "overridden": (f"This campaign corrects the game's data: {', '.join(status['overrides'])} "
                       "(campaign.yaml overrides, recorded at its start)."
                       if status.get("overrides") else ""),
        "turn": shown_turn,
        "turn_name": _turn_name(data, shown_turn),
        # the report's title: the turn the game is in now (a report made as a turn begins
        # is of that turn, not of the last one whose steps it tells)
        "title_turn": _title_turn(data, status["turn"] if current and turn is None
                                  and status["turn"] > shown_turn else shown_turn),
        "turns": [{"turn": t, "name": _turn_name(data, t)} for t in win.turns],
        "current": current,
        "status": {**status, "turn_name": _turn_name(data, status["turn"]),
                   "awaiting_names": [names.get(f, f) for f in awaiting],
                   "received_names": [names.get(f, f) for f in status["received"]]},
        "awaited": who in awaiting,
        # what the reader's orders file must still cover (pieces to place, arrivals)
        "todo": list((status.get("todo") or {}).get(who, [])) if current else [],
        "head": win.after["head"],
        "seq": win.after["seq"],
        "steps": _merged(steps),
        "dice_count": sum(len(s["dice"]) for s in steps),
        # commitments and dice, told after the story and the position, not inside them
        "appendix": {"sealed": [{**s, "seq": st["seq"]} for st in steps for s in st["sealed"]],
                     "dice": [st for st in steps if st["dice"]]},
        "salt_note": " ".join(filter(None, [_salt_note(steps), common.hidden_note])),
        # undos (re-rolls above all) and adjustments stand out, in every reader's report
        "corrections": list(common.corrections),
        "verify": VERIFY,
        "position": parts["position"],
        "changes": changes,
        # the changes section shows when any kind of change has an entry
        "changed": any(bool(v) for v in changes.values()),
        "secrets": parts["secrets"],
        "secrets_shown": who != "public",
        "key_given": bool(identities),
        "sealed_word": SEALED,
        "orders_templates": (_orders_templates(root, who, awaiting, status,
                                               campaign.config.get("seed"), campaign.players(),
                                               parts["orders_note"], common.standing)
                             if current and not status.get("over") else []),
        # the game's end: who won, why, and each faction's score as the result gives it
        "over": (final(status.get("result") or {}, names, style)
                 if status.get("over") and current else None),
        "map_svg": parts["map_svg"],
        "map_focus": parts["map_focus"],
        # before the set-up nothing is on the board: the report says why instead
        "contribution_round": ROUND_TEXT if view.get("contribute") else "",
    }


def seat_context(root: Path, factions: list[str], identities: list[str] | None = None,
                 common: Moment | None = None) -> dict[str, Any]:
    """One report for a player of several factions: one story, one position and map (the
    first faction's view), each faction's hand and secrets, and one orders template for all
    the factions awaited (the file for several when more than one is). `common`: the
    moment's shared part (`moment`), built here once for all the factions when not given."""
    if common is None:
        common = moment(root)
    contexts = [build_context(root, f, identities=identities, common=common) for f in factions]
    first = contexts[0]
    if len(contexts) == 1:
        return first
    hands: list[dict[str, Any]] = []
    for c in contexts:
        for h in c["hands"]:
            same = next((x for x in hands if x["hand"] == h["hand"]), None)
            if same is None:
                hands.append(dict(h))
            else:  # a hand the factions share (a seat's hand): shown once, under both names
                same["who_name"] += f" and {h['who_name']}"
    secrets: dict[tuple[Any, ...], dict[str, Any]] = {}
    for c in contexts:
        for item in c["secrets"]:
            secrets.setdefault((item.get("kind"), item.get("id"), item.get("owner")), item)
    templates = [t for c in contexts for t in c["orders_templates"]]
    awaited = [t for t in templates if t["awaited"]]
    several = [t for t in awaited if t.get("several")]
    return {
        **first,
        "who_name": " and ".join(c["who_name"] for c in contexts),
        "seat": list(factions),
        "awaited": any(c["awaited"] for c in contexts),
        "todo": [line for c in contexts for line in c["todo"]],
        "hands": hands,
        "owns": [o for c in contexts for o in c["owns"]],
        "secrets": sorted(secrets.values(), key=lambda s: (s.get("seq", 0), str(s.get("id")))),
        "orders_templates": several or awaited or templates,
    }


ROUND_TEXT = ("Nothing is on the board yet. This is the contribution round: every player "
              "signs the file attached and sends it back unchanged ('pbem sign' adds a salt). "
              "When every salt is in, the set-up is drawn with a key that mixes them into the "
              "referee's hidden secret, committed to before any salt existed, so that nobody, "
              "the referee included, chose the draws (docs/fairness.md, \"Hidden draws\").")
