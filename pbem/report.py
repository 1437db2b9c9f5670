"""Turn reports: what one reader may know, gathered from views and the log, rendered by Jinja2.

`build_context` collects, for one reader (a faction, "public" or "referee"):

- the steps of the report's window (by default the latest complete turn and the current
  one so far; with `turn` that turn alone), each with its events as the game describes
  them and every die (label, sides, value), and how anyone can verify those dice;
- the position (from `game.view` of the state after the window, and of the state before
  it, for control and resource changes), as tables per zone and per faction, and, for the
  HTML report, an SVG map drawn from the game's map data;
- the reader's own sealed values (opened only with the reader's key), what is awaited from
  the reader and by when, and a pre-filled orders template (`pbem.api.bot`).

Nothing here reads the game state except through `game.view`, so a report cannot show what
the view hides; sealed values are shown only when the reader's own key opens them.
Templates live in `templates/` (the shared layout) and `games/<id>/templates/` (the game's
partials, searched first). jinja2 is imported only when rendering (start-up speed).
"""

from __future__ import annotations

import html
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from pbem import yamlio
from pbem.contributions import PHASE as ROUND_PHASE
from pbem.contributions import TEMPLATE_NOTE
from pbem.errors import CryptoError, UsageError

FORMATS = {"text": "txt", "html": "html", "md": "md", "bbcode": "bbcode"}
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
# the game's report style (colours, where seas and boxes are drawn)


def _style(game_folder: Path) -> dict[str, Any]:
    path = game_folder / "templates" / "report.yaml"
    loaded: dict[str, Any] = yamlio.read_trusted(path) if path.exists() else {}
    return loaded or {}


def _colour(style: dict[str, Any], owner: str | None) -> str:
    colours: dict[str, str] = style.get("colours", {})
    return str(colours.get(owner or "neutral", colours.get("neutral", "#ffffff")))


def _ink(fill: str) -> str:
    """Black or white text, whichever reads better on `fill` (#rrggbb)."""
    r, g, b = (int(fill[i:i + 2], 16) for i in (1, 3, 5))
    return "#000000" if 0.299 * r + 0.587 * g + 0.114 * b > 150 else "#ffffff"


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
        turns = sorted({current_turn - 1, current_turn} & {e["turn"] for e in entries})
    else:
        known = sorted({e["turn"] for e in entries})
        if turn not in known:
            raise UsageError(f"--turn {turn}: no such turn in this campaign "
                             f"(turns so far: {', '.join(map(str, known))})")
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
    from pbem import sealed

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
                  identities: list[str] | None) -> list[dict[str, Any]]:
    """Every sealed value in the log that `who` may know of: its own (everything, for the
    referee; only that something is sealed, for the public), opened when the key allows."""
    from pbem import sealed

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


def _hand(data: Any, own: list[dict[str, Any]], who: str) -> list[dict[str, Any]]:
    """The reader's cards still in hand (sealed `card` nodes not yet opened in the log),
    with their titles and texts from the game's deck."""
    deck = {c["id"]: c for c in (data.files.get("cards") or {}).get("cards", [])}
    out = []
    for s in own:
        if s["kind"] != "card" or s["revealed_at"] is not None or s["owner"] != who:
            continue
        card = deck.get(str(s.get("raw")), {})
        out.append({"slot": s["id"], "id": s.get("raw"), "title": card.get("title", s.get("raw")),
                    "text": card.get("text", ""), "known": "raw" in s,
                    "playable": {k: card[k] for k in ("phase", "years", "playable_by", "immediate",
                                                     "remove") if k in card}})
    return out


def _value_text(value: Any) -> str:
    """A sealed value as a player wrote it: an orders file's own text when it has one."""
    if isinstance(value, dict) and isinstance(value.get("file"), str):
        return str(value["file"]).rstrip("\n")
    return str(yamlio.dump(value)).rstrip("\n")


# ---------------------------------------------------------------------------------------
# the position, from views shaped like a board game's: units, control, resources

LEGEND = 44  # pixels under the map for the legend
RESOURCES = (("money", "Money"), ("manpower", "Manpower"), ("ori", "ORI"), ("vp", "VP"))


def _places(data: Any) -> list[tuple[str, str, dict[str, Any]]]:
    """(name, kind, spec) of every place on the map: zones, seas, boxes."""
    m = data["map"]
    out = [(n, "zone", dict(z)) for n, z in (m.get("zones") or {}).items()]
    out += [(n, "sea", dict(s or {})) for n, s in (m.get("seas") or {}).items()]
    out += [(n, "box", dict(b or {})) for n, b in (m.get("boxes") or {}).items()]
    return out


def _faction_names(data: Any) -> dict[str, str]:
    g = data["game"]
    names = {f["id"]: f["name"] for f in g.get("factions", [])}
    names.update({k: v.get("name", k) for k, v in (g.get("minors") or {}).items()})
    names.setdefault("allies", "Allied intervention")
    return names


def _on_map(view: dict[str, Any]) -> dict[str, list[tuple[str, dict[str, Any]]]]:
    """place -> [(unit id, unit)] of the units on the map, by id."""
    out: dict[str, list[tuple[str, dict[str, Any]]]] = {}
    for uid, unit in sorted((view.get("units") or {}).items()):
        if unit.get("status") == "map" and unit.get("zone"):
            out.setdefault(unit["zone"], []).append((uid, unit))
    return out


def _position(data: Any, view: dict[str, Any], style: dict[str, Any]) -> dict[str, Any]:
    names = _faction_names(data)
    control: dict[str, Any] = view.get("control") or {}
    on_map = _on_map(view)
    majors = [f["id"] for f in data["game"].get("factions", [])]
    factions = []
    for fid in majors:
        row: dict[str, Any] = {"id": fid, "name": names[fid], "colour": _colour(style, fid)}
        for key, _title in RESOURCES:
            row[key] = (view.get(key) or {}).get(fid)
        row["zones"] = sum(1 for owner in control.values() if owner == fid)
        row["zone_money"] = sum(int((data["map"]["zones"].get(z) or {}).get("money", 0))
                                for z, owner in control.items() if owner == fid)
        units = [u for us in on_map.values() for _i, u in us if u.get("faction") == fid]
        row["units"] = sum(1 for u in units if u.get("type") != "leader")
        row["leaders"] = sum(1 for u in units if u.get("type") == "leader")
        row["reduced"] = sum(1 for u in units if u.get("reduced"))
        row["eliminated"] = sum(1 for u in (view.get("units") or {}).values()
                                if u.get("faction") == fid and u.get("status") == "eliminated")
        factions.append(row)
    territories = {k: (v or {}).get("name", k)
                   for k, v in (data["map"].get("territories") or {}).items()}
    groups: dict[str, list[dict[str, Any]]] = {}
    for name, kind, spec in _places(data):
        owner = control.get(name) if kind == "zone" else None
        pieces = on_map.get(name, [])
        if kind != "zone" and not pieces:
            continue
        stacks = []
        for fid in sorted({u["faction"] for _i, u in pieces}, key=lambda f: (f not in majors, f)):
            ids = [uid + ("(r)" if u.get("reduced") else "") for uid, u in pieces
                   if u["faction"] == fid]
            stacks.append({"faction": fid, "name": names.get(fid, fid), "units": ids,
                           "count": sum(1 for _i, u in pieces
                                        if u["faction"] == fid and u.get("type") != "leader"),
                           "colour": _colour(style, fid)})
        group = territories.get(spec.get("territory", ""), "Seas and boxes")
        groups.setdefault(group, []).append({
            "name": name, "kind": kind, "owner": owner, "owner_name": names.get(owner or "", "neutral"),
            "colour": _colour(style, owner), "money": spec.get("money"),
            "manpower": spec.get("manpower"), "fort": spec.get("fort"), "home": spec.get("home"),
            "stacks": stacks,
        })
    zones: list[dict[str, Any]] = [
        {"territory": t, "rows": sorted(rows, key=lambda r: str(r["name"]))}
        for t, rows in groups.items()]
    shown = dict(view)
    if isinstance(shown.get("minors"), dict):  # only the minors in play or conquered
        shown["minors"] = {m: s for m, s in shown["minors"].items()
                           if isinstance(s, dict) and (s.get("status") != "neutral" or s.get("conquered"))}
    extra = {k: v for k, v in shown.items()
             if k in ("initiative", "treasure", "defeated", "cards", "partisans", "raids", "famine",
                      "minors", "allied_control") and v}
    return {"factions": factions, "zones": zones, "extra": extra,
            "has_ori": any(r["ori"] is not None for r in factions),
            "has_vp": any(r["vp"] is not None for r in factions)}


def _changes(data: Any, before: dict[str, Any] | None, after: dict[str, Any]) -> dict[str, Any]:
    """Control changes and resource changes (income, spending) over the window."""
    names = _faction_names(data)
    if before is None:
        return {"control": [], "resources": []}
    b_control, a_control = before.get("control") or {}, after.get("control") or {}
    control = [{"zone": z, "before": names.get(b_control.get(z) or "", "neutral"),
                "after": names.get(a_control.get(z) or "", "neutral")}
               for z in sorted(set(b_control) | set(a_control))
               if b_control.get(z) != a_control.get(z)]
    resources = []
    for key, title in RESOURCES:
        b, a = before.get(key) or {}, after.get(key) or {}
        for fid in sorted(set(a) | set(b)):
            if b.get(fid) != a.get(fid):
                resources.append({"faction": names.get(fid, fid), "what": title,
                                  "before": b.get(fid), "after": a.get(fid),
                                  "change": (a.get(fid) or 0) - (b.get(fid) or 0)})
    return {"control": control, "resources": resources}


# ---------------------------------------------------------------------------------------
# the map


def map_svg(data: Any, view: dict[str, Any], style: dict[str, Any]) -> str:
    """An SVG map of the game's zones (from map.yaml `xy`), seas and boxes (positions in
    the game's templates/report.yaml), routes by kind, control colours and unit counts."""
    m = data["map"]
    zones: dict[str, dict[str, Any]] = m.get("zones") or {}
    layout = style.get("layout", {})
    width, height = layout.get("size", [1000, 724])
    control: dict[str, Any] = view.get("control") or {}
    on_map = _on_map(view)
    names = _faction_names(data)
    majors = [f["id"] for f in data["game"].get("factions", [])]
    esc = html.escape
    out: list[str] = [
        f'<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 {width} {height}" '
        f'width="{width}" height="{height}" class="map" role="img" '
        f'aria-label="Map of {esc(data["game"]["name"])}" '
        'font-family="DejaVu Sans, Arial, Helvetica, sans-serif">',
        f'<rect x="0" y="0" width="{width}" height="{height}" fill="#f3efe2"/>',
    ]
    # territory names, faint, behind everything
    terr: dict[str, list[list[int]]] = {}
    for z in zones.values():
        terr.setdefault(z.get("territory", ""), []).append(z["xy"])
    for tid, spec in (m.get("territories") or {}).items():
        at = (layout.get("territories") or {}).get(tid)
        if at is None and terr.get(tid):
            pts = terr[tid]
            at = [sum(p[0] for p in pts) / len(pts), sum(p[1] for p in pts) / len(pts)]
        if at is not None:
            out.append(f'<text x="{at[0]:.0f}" y="{at[1]:.0f}" font-size="26" font-weight="bold" '
                       f'fill="#d9d1b8" text-anchor="middle">{esc((spec or {}).get("name", tid))}'
                       '</text>')
    # seas and boxes: areas with their name
    areas = {**{n: ("sea", s) for n, s in (layout.get("seas") or {}).items()},
             **{n: ("box", s) for n, s in (layout.get("boxes") or {}).items()}}
    for name, (kind, spec) in areas.items():
        x, y = spec["xy"]
        w, h = spec.get("size", [90, 34])
        if kind == "sea":
            out.append(f'<g class="sea" data-place="{esc(name)}"><ellipse cx="{x}" cy="{y}" '
                       f'rx="{w / 2}" ry="{h / 2}" fill="#bcd8ee" stroke="#7fa9cc"/>'
                       f'<text x="{x}" y="{y + 4}" font-size="11" font-style="italic" '
                       f'fill="#1f4e79" text-anchor="middle">{esc(name)}</text></g>')
        else:
            out.append(f'<g class="box" data-place="{esc(name)}"><rect x="{x - w / 2}" '
                       f'y="{y - h / 2}" width="{w}" height="{h}" rx="6" fill="#fbfaf5" '
                       f'stroke="#777" stroke-dasharray="4 2"/><text x="{x}" y="{y - h / 2 + 12}" '
                       f'font-size="10" fill="#333" text-anchor="middle">{esc(name)}</text></g>')
    # routes
    for a, b, kind in m.get("routes") or []:
        if a not in zones or b not in zones:
            continue
        (x1, y1), (x2, y2) = zones[a]["xy"], zones[b]["xy"]
        out.append(_route(x1, y1, x2, y2, kind))
    # zones: a circle in the controller's colour, the name, unit counts per faction
    for name, z in zones.items():
        x, y = z["xy"]
        owner = control.get(name)
        fill = _colour(style, owner)
        title = f"{name}: {names.get(owner or '', 'neutral')}"
        out.append(f'<g class="zone" id="zone-{_slug(name)}" data-zone="{esc(name)}">'
                   f'<title>{esc(title)}</title>'
                   f'<circle cx="{x}" cy="{y}" r="9" fill="{fill}" stroke="#222" '
                   'stroke-width="1.2"/>'
                   f'<text x="{x}" y="{y + 19}" font-size="9" fill="#111" text-anchor="middle" '
                   'stroke="#f3efe2" stroke-width="2.5" paint-order="stroke">'
                   f'{esc(name)}</text></g>')
    # unit counts, drawn last so no zone covers them
    for place, pieces in on_map.items():
        if place in zones:
            x, y = zones[place]["xy"]
            bx, by = x + 10, y - 15
        elif place in areas:
            x, y = areas[place][1]["xy"]
            bx, by = x - 20, y + 2
        else:
            continue
        for fid in sorted({u["faction"] for _i, u in pieces}, key=lambda f: (f not in majors, f)):
            mine = [(i, u) for i, u in pieces if u["faction"] == fid]
            count = sum(1 for _i, u in mine if u.get("type") != "leader")
            leaders = len(mine) - count
            text = (str(count) if count else "") + ("L" if leaders else "")
            fill = _colour(style, fid)
            w = 7 + 6 * len(text)
            tip = f"{names.get(fid, fid)} in {place}: " + ", ".join(i for i, _u in mine)
            out.append(f'<g class="units"><title>{esc(tip)}</title><rect x="{bx}" y="{by}" '
                       f'width="{w}" height="12" rx="3" fill="{fill}" stroke="#222" '
                       f'stroke-width="0.6"/><text x="{bx + w / 2}" y="{by + 9.5}" font-size="9" '
                       f'font-weight="bold" fill="{_ink(fill)}" text-anchor="middle">{text}</text></g>')
            bx += w + 1
    out.append(_legend(style, names, majors, width, height))
    out.append("</svg>")
    return "\n".join(out)


def _legend(style: dict[str, Any], names: dict[str, str], majors: list[str],
            width: int, height: int) -> str:
    """Two rows under the map: the major factions, then the others and the route kinds."""
    others = [f for f in style.get("colours", {}) if f not in majors and f != "neutral"]
    parts = [f'<g class="legend"><rect x="0" y="{height - LEGEND}" width="{width}" '
             f'height="{LEGEND}" fill="#ffffff"/>']
    for row, fids in enumerate(([*majors, "neutral"], others)):
        x, y = 8.0, height - LEGEND + 16 + 18 * row
        for fid in fids:
            label = names.get(fid, fid) if fid != "neutral" else "neutral"
            fill = _colour(style, fid)
            parts.append(f'<circle cx="{x + 6}" cy="{y - 4}" r="6" fill="{fill}" stroke="#222"/>'
                         f'<text x="{x + 15}" y="{y}" font-size="10" fill="#111">'
                         f'{html.escape(label)}</text>')
            x += 28 + 6.2 * len(label)
    x, y = width - 370, height - LEGEND + 12
    for kind, label in (("easy", "easy"), ("difficult", "difficult"),
                        ("very_difficult", "very difficult")):
        parts.append(_route(x, y, x + 26, y, kind) + f'<text x="{x + 31}" y="{y + 4}" '
                     f'font-size="10" fill="#111">{label}</text>')
        x += 36 + 6.2 * len(label)
    parts.append(f'<text x="{width - 370}" y="{height - LEGEND + 34}" font-size="10" fill="#111">'
                 "badge: units of a faction in a zone (L: with leaders)</text></g>")
    return "".join(parts)


def _route(x1: float, y1: float, x2: float, y2: float, kind: str) -> str:
    line = f'x1="{x1}" y1="{y1}" x2="{x2}" y2="{y2}"'
    if kind == "very_difficult":  # a double line
        return (f'<line {line} stroke="#5a4a3a" stroke-width="5"/>'
                f'<line {line} stroke="#f3efe2" stroke-width="2"/>')
    if kind == "difficult":
        return f'<line {line} stroke="#6b5d4f" stroke-width="1.5" stroke-dasharray="5 3"/>'
    return f'<line {line} stroke="#6b5d4f" stroke-width="1.8"/>'


def _slug(name: str) -> str:
    return "".join(c if c.isalnum() else "-" for c in name.lower())


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
    names = data["game"].get("turns") or []
    if turn == 0:
        return "Set-up"
    if 1 <= turn <= len(names):
        return str(names[turn - 1])
    return f"turn {turn}"


def _salt_note(steps: list[dict[str, Any]]) -> str:
    """Which batches of dice in the report mix no player's own salt (docs/fairness.md)."""
    bare = [str(s["batch"]) for s in steps if s["dice"] and s["batch"] and not s["player_salts"]]
    if not bare:
        return ""
    return (f"Batch{'es' if len(bare) > 1 else ''} {', '.join(bare)} had no player's own salt: "
            "their dice are keyed by the referee's seed chain, fixed at the start, and by the "
            "bot's predictable salts only.")


def _hidden_note(state: dict[str, Any]) -> str:
    """A campaign made without the contribution round says so in every report."""
    from pbem.contributions import WITHOUT, without

    return f"Hidden draws (the set-up, every shuffle) are {WITHOUT}." if without(state) else ""


def _orders_templates(root: Path, who: str, awaiting: list[str], status: dict[str, Any],
                      seed: str | None,
                      players: dict[str, str | None] | None = None) -> list[dict[str, Any]]:
    """The orders file each reader may fill in: the bot's legal example when awaited. A
    player of several factions awaited at once is also offered one file for all of them,
    in the report of the first of them."""
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
                "# These orders are only a legal EXAMPLE written by pbem's bot: replace them",
                "# with your own, check with 'pbem check FILE', sign with 'pbem sign FILE'",
                "# and send the file to the referee. It plays no card, and its 'standing:'",
                "# are your own instructions in force (none written: none set)."]
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
        out.append(_several_template(root, seat, status, seed))
    return out


def _several_template(root: Path, seat: list[str], status: dict[str, Any],
                      seed: str | None) -> dict[str, Any]:
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
            "# These orders are only a legal EXAMPLE written by pbem's bot: replace them",
            "# with your own, check with 'pbem check FILE', sign with 'pbem sign FILE'",
            "# and send the file to the referee."]
    except Rejected as exc:
        head += [f"# pbem could not write example orders: {exc.message}"]
        body = {"campaign": status["campaign"], "turn": status["turn"], "phase": status["phase"],
                "faction": seat, "head": status["head"], "orders": {f: [] for f in seat}}
    return {"faction": " + ".join(seat), "factions": seat, "awaited": True, "several": True,
            "text": "\n".join(head) + "\n" + str(yamlio.dump(body))}


def build_context(root: Path, who: str, turn: int | None = None,
                  identities: list[str] | None = None) -> dict[str, Any]:
    """Everything one report shows, as plain data (no jinja2 here).

    `identities` are the reader's age identities: a faction's own sealed values are shown
    opened only with them. The referee's report uses `.pbem/referee.key` when it exists.
    """
    from pbem import api, randomness
    from pbem.campaign import Campaign
    from pbem.log import corrections, describe_correction

    campaign = Campaign.settled(root)
    game, data = campaign.game, campaign.data
    factions = list(campaign.factions())
    _check_who(who, factions)
    status = api.status(root)
    style = _style(data.folder)
    if who == "referee" and identities is None:
        key = campaign.private / "referee.key"
        if key.exists():
            identities = campaign.referee_identities()
    all_entries = list(campaign.entries())
    win = _window(campaign, all_entries, status["turn"], turn)
    assert win.after is not None  # every campaign has its set-up step
    view = game.view(data, win.after["game"], who)
    before = game.view(data, win.before["game"], who) if win.before else None
    secrets = _sealed_items(campaign.id, all_entries, who, identities)
    by_seq: dict[int, list[dict[str, Any]]] = {}
    for item in secrets:
        by_seq.setdefault(item["seq"], []).append(item)
    steps = []
    for entry in win.entries:
        events = [{"type": e.get("type"), "text": game.summary(data, e)}
                  for e in entry.get("events") or []]
        steps.append({
            "seq": entry["seq"], "turn": entry["turn"], "turn_name": _turn_name(data, entry["turn"]),
            "phase": entry["phase"], "type": entry["type"], "faction": entry.get("faction"),
            "summary": entry["summary"], "reason": entry.get("reason"),
            "undone_by": win.undone.get(entry["seq"]),
            "events": events,
            "dice": [{"label": d["label"], "sides": d["sides"], "value": d["value"]}
                     for d in entry.get("dice") or []],
            "batch": entry.get("batch"),
            "player_salts": (randomness.player_salted(campaign.id, entry, len(all_entries) + 2)
                             if entry["type"] == "resolve" else []),
            "sealed": [{k: s[k] for k in ("kind", "id", "owner", "commitment")}
                       for s in by_seq.get(entry["seq"], [])],
        })
    names = _faction_names(data)
    awaiting = list(status["awaiting"])
    shown_turn = win.turns[-1]
    current = turn is None or turn == status["turn"]
    own = [s for s in secrets if s["mine"]]
    return {
        "hand": _hand(data, own, who),
        "campaign": campaign.id,
        "game": {"id": campaign.config["game"], "name": data["game"]["name"]},
        "who": who,
        "who_name": names.get(who, who.capitalize()),
        "faction": who if who in factions else None,
        "reproducible": bool(campaign.config.get("reproducible")),
        "reproducible_warning": REPRODUCIBLE,
        "turn": shown_turn,
        "turn_name": _turn_name(data, shown_turn),
        "turns": [{"turn": t, "name": _turn_name(data, t)} for t in win.turns],
        "current": current,
        "status": {**status, "turn_name": _turn_name(data, status["turn"]),
                   "awaiting_names": [names.get(f, f) for f in awaiting],
                   "received_names": [names.get(f, f) for f in status["received"]]},
        "awaited": who in awaiting,
        "head": win.after["head"],
        "seq": win.after["seq"],
        "steps": steps,
        "dice_count": sum(len(s["dice"]) for s in steps),
        "salt_note": " ".join(filter(None, [_salt_note(steps), _hidden_note(campaign.state())])),
        # undos (re-rolls above all) and adjustments stand out, in every reader's report
        "corrections": [describe_correction(c) for c in corrections(all_entries)
                        if c["turn"] in win.turns],
        "verify": VERIFY,
        "position": _position(data, view, style),
        "changes": _changes(data, before, view),
        "secrets": [s for s in own if s["revealed_at"] is None and s["kind"] != "card"],
        "secrets_shown": who != "public",
        "key_given": bool(identities),
        "sealed_word": SEALED,
        "orders_templates": _orders_templates(root, who, awaiting, status, campaign.config.get("seed"),
                                              campaign.players()) if current else [],
        "map_svg": map_svg(data, view, style),
        # before the set-up nothing is on the board: the report says why instead
        "contribution_round": ROUND_TEXT if view.get("contribute") else "",
    }


ROUND_TEXT = ("Nothing is on the board yet. This is the contribution round: every player "
              "signs the file attached and sends it back unchanged ('pbem sign' adds a salt). "
              "When every salt is in, the set-up is drawn with a key that mixes them into the "
              "referee's hidden secret, committed to before any salt existed, so that nobody, "
              "the referee included, chose the draws (docs/fairness.md, \"Hidden draws\").")


# ---------------------------------------------------------------------------------------
# rendering


def _text_table(rows: list[list[Any]], headers: list[str]) -> str:
    """Rows as fixed-width columns (numbers right-aligned), for plain-text mail and BBCode."""
    cells = [[str(h) for h in headers]] + [["" if c is None else str(c) for c in r] for r in rows]
    widths = [max(len(r[i]) for r in cells) for i in range(len(headers))]
    numeric = [all(r[i].lstrip("+-").isdigit() or r[i] in ("", "-") for r in cells[1:])
               for i in range(len(headers))]

    def fmt(row: list[str]) -> str:
        parts = [c.rjust(w) if num else c.ljust(w) for c, w, num in zip(row, widths, numeric, strict=True)]
        return "  ".join(parts).rstrip()

    lines = [fmt(cells[0]), "  ".join("-" * w for w in widths)]
    lines += [fmt(r) for r in cells[1:]]
    return "\n".join(lines)


def _md_cell(value: Any) -> str:
    return "" if value is None else str(value).replace("|", "\\|").replace("\n", " ")


_ENVIRONMENTS: dict[tuple[str, str], Any] = {}


def environment(game_folder: Path, fmt: str) -> Any:
    """The Jinja2 environment of one format: the game's partials first, then the shared.

    Kept per process, so `pbem mail` compiles each template once for all its reports."""
    key = (str(game_folder), fmt)
    if key not in _ENVIRONMENTS:
        _ENVIRONMENTS[key] = _environment(game_folder, fmt)
    return _ENVIRONMENTS[key]


def _environment(game_folder: Path, fmt: str) -> Any:
    import jinja2

    from pbem.game import templates_dir

    env = jinja2.Environment(
        loader=jinja2.FileSystemLoader([str(game_folder / "templates"), str(templates_dir())]),
        autoescape=fmt == "html",
        undefined=jinja2.StrictUndefined,
        trim_blocks=True,
        lstrip_blocks=True,
        keep_trailing_newline=True,
    )
    env.filters["texttable"] = _text_table
    env.filters["mdcell"] = _md_cell
    env.filters["signed"] = lambda n: f"{n:+d}" if isinstance(n, int) else str(n)
    env.filters["dash"] = lambda v: "-" if v is None else v
    return env


def render_context(context: dict[str, Any], game_folder: Path, fmt: str) -> str:
    if fmt not in FORMATS:
        raise UsageError(f"--format {fmt!r}: choose one of {', '.join(FORMATS)}")
    from markupsafe import Markup

    env = environment(game_folder, fmt)
    ctx = dict(context)
    if fmt == "html":  # the one value that is markup already (built with html.escape)
        ctx["map_svg"] = Markup(context["map_svg"])
    text: str = env.get_template(f"report.{FORMATS[fmt]}.j2").render(**ctx)
    return text


def render(root: Path, who: str, fmt: str, turn: int | None = None,
           identities: list[str] | None = None) -> str:
    """The report of `who` for `turn` (default: the latest complete turn and the current one)
    in `fmt` (text, html, md or bbcode)."""
    if fmt not in FORMATS:
        raise UsageError(f"--format {fmt!r}: choose one of {', '.join(FORMATS)}")
    from pbem.campaign import Campaign

    context = build_context(root, who, turn, identities)
    return render_context(context, Campaign.open(root).data.folder, fmt)


def report_name(context: dict[str, Any], fmt: str) -> str:
    """`<campaign>-t<turn>-<who>.<ext>`, the file name of `report --out DIR`."""
    return f"{context['campaign']}-t{context['turn']}-{context['who']}.{FORMATS[fmt]}"
