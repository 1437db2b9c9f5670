"""What each command does, as functions usable from Python and tests.

Functions here never print or exit: they return data or raise PbemError.
"""

from __future__ import annotations

import hashlib
import hmac
import re
import secrets
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from pbem import yamlio
from pbem.campaign import CONFIG, MANAGED, STATE, Campaign
from pbem.errors import AuditFailed, CampaignError, InputFileError, Rejected, UsageError
from pbem.game import Phase, clone, game_ids, get_game, load_data
from pbem.log import Folder, entry_hash, entry_name, make_entry, normal
from pbem.orders import Checked, check_orders

# ---------------------------------------------------------------------------------------
# games


def list_games() -> list[dict[str, Any]]:
    out = []
    for gid in game_ids():
        game = get_game(gid)
        out.append(game.describe(load_data(gid)))
    return out


# ---------------------------------------------------------------------------------------
# randomness (until the seed chain lands every referee secret derives from one key)


def _secret(campaign: Campaign) -> bytes:
    path = campaign.private / "secret"
    if not path.exists():
        raise CampaignError(
            f"{path}: the referee's secret is missing; dice can only be rolled in the "
            "referee's own copy of the campaign"
        )
    return bytes.fromhex(path.read_text().strip())


def _rng_key(secret: bytes, purpose: str) -> bytes:
    return hmac.new(secret, f"pbem-step-v1\0{purpose}".encode(), hashlib.sha256).digest()


def seed_secret(seed: str) -> bytes:
    """The referee secret of a reproducible campaign (`new --seed`)."""
    return hashlib.sha256(b"pbem-seed-v1\0" + seed.encode("utf-8")).digest()


# ---------------------------------------------------------------------------------------
# new

_ID = re.compile(r"^[A-Za-z0-9][A-Za-z0-9._-]{0,63}$")
_PLAYER = re.compile(r"^\s*(?P<faction>[^=\s]+)\s*=\s*(?P<name>[^<]*?)\s*(?:<(?P<email>[^>]+)>)?\s*$")


def parse_player(text: str) -> tuple[str, str, str]:
    m = _PLAYER.match(text)
    if not m or not m.group("name"):
        raise UsageError(f"--player {text!r}: expected FACTION=NAME <EMAIL>")
    return m.group("faction"), m.group("name"), (m.group("email") or "").strip()


def parse_option(text: str) -> tuple[str, Any]:
    if "=" not in text:
        raise UsageError(f"--option {text!r}: expected KEY=VALUE")
    key, value = text.split("=", 1)
    loaded = yamlio.load_untrusted(value, f"--option {key}").data if value.strip() else ""
    return key.strip(), loaded


def new_campaign(
    root: Path,
    game_id: str,
    *,
    players: list[str] | None = None,
    options: list[str] | None = None,
    seed: str | None = None,
    name: str | None = None,
    keys_dir: Path | None = None,
) -> dict[str, Any]:
    game = get_game(game_id)
    data = load_data(game_id)
    desc = game.describe(data)
    campaign_id = name or root.resolve().name
    if not _ID.match(campaign_id):
        raise UsageError(f"campaign id {campaign_id!r}: use letters, digits, '.', '_' or '-'")
    if root.exists() and any(root.iterdir()):
        raise UsageError(f"{root}: exists and is not empty; choose a new folder")
    factions: dict[str, dict[str, Any]] = {}
    known = [f["id"] for f in desc["factions"]]
    for text in players or []:
        faction, pname, email = parse_player(text)
        if faction not in known:
            from pbem.names import suggest

            raise UsageError(f"--player {text!r}: unknown faction {faction!r}{suggest(faction, known)}; "
                             f"factions of {game_id}: {', '.join(known)}")
        factions[faction] = {"player": pname, "email": email, "hotseat": False}
    chosen: dict[str, Any] = {o["id"]: o["default"] for o in desc["options"]}
    for text in options or []:
        key, value = parse_option(text)
        if key not in chosen:
            from pbem.names import suggest

            raise UsageError(f"--option {key!r}: unknown option{suggest(key, list(chosen))}; "
                             f"options: {', '.join(chosen) or 'none'}")
        chosen[key] = value
    for faction in known:
        factions.setdefault(faction, {"player": "hot-seat", "email": "", "hotseat": True})
    secret = seed_secret(seed) if seed is not None else secrets.token_bytes(32)
    config: dict[str, Any] = {
        "pbem": 1,
        "campaign": campaign_id,
        "game": game_id,
        "options": chosen,
        "factions": factions,
        "referee": {"name": "pbem referee", "email": "referee@pbem.invalid"},
        "reproducible": seed is not None,
        "overrides": {},
    }
    if seed is not None:
        config["seed"] = seed
    root.mkdir(parents=True, exist_ok=True)
    from pbem.dice import KeyedRng
    from pbem.store import Store

    store = Store.init(root)
    (root / ".pbem").mkdir(exist_ok=True)
    (root / ".pbem" / "secret").write_text(secret.hex() + "\n")
    (root / ".pbem" / "secret").chmod(0o600)
    yamlio.write_atomic(root / ".gitignore", ".pbem/\n")
    yamlio.write_atomic(root / CONFIG, _config_text(config))
    rng = KeyedRng(_rng_key(secret, "setup"))
    game_state = game.setup(data, chosen, rng)
    campaign = Campaign(root, config)
    phase = game.phase(data, game_state)
    entry = make_entry(
        seq=1, prev="0" * 64, kind="new", turn=phase.turn, phase=phase.name,
        summary=f"new {desc['name']} campaign {campaign_id}",
        options=chosen, dice=[r._asdict() for r in rng.rolls],
    )
    state = {"game": game_state, "pending": {}}
    campaign.write_step(
        entry, state, f"new: {desc['name']} campaign {campaign_id}",
        extra={}, tag=None,
    )
    store.commit([CONFIG, ".gitignore"], "campaign settings", campaign.referee())
    if keys_dir is not None:
        _write_keys(keys_dir, known)
    return {"campaign": campaign_id, "dir": str(root), "game": game_id, **status(root)}


def _write_keys(keys_dir: Path, factions: list[str]) -> None:
    from pbem.crypto import keygen_files

    keys_dir.mkdir(parents=True, exist_ok=True)
    for faction in factions:
        keygen_files(keys_dir / faction)


def _config_text(config: dict[str, Any]) -> str:
    head = (
        "# pbem campaign settings. You may edit players, e-mail addresses, deadlines and\n"
        "# overrides (corrections to the game's data, e.g. overrides: {map: {zones: {Orel:\n"
        "# {money: 3}}}}). Do not change 'game', 'campaign' or 'options' once play has begun.\n"
    )
    return head + yamlio.dump(config)


# ---------------------------------------------------------------------------------------
# status


def status(root: Path) -> dict[str, Any]:
    campaign = Campaign.open(root)
    state = campaign.state()
    phase = campaign.phase(state)
    pending = sorted(state.get("pending", {}))
    out: dict[str, Any] = {
        "campaign": campaign.id,
        "game": campaign.config["game"],
        "turn": phase.turn,
        "phase": phase.name,
        "phase_title": phase.title,
        "awaiting": [f for f in phase.awaiting if f not in pending],
        "received": pending,
        "prompt": phase.prompt,
        "head": state["head"],
        "seq": state["seq"],
        "over": phase.over,
        "reproducible": bool(campaign.config.get("reproducible")),
    }
    if phase.over:
        out["result"] = phase.result
    deadline = campaign.config.get("deadlines", {}).get(f"{phase.turn}:{phase.name}")
    if deadline:
        out["deadline"] = deadline
    return out


# ---------------------------------------------------------------------------------------
# check / apply / resolve


def _check(campaign: Campaign, state: dict[str, Any], paths: list[Path]) -> list[Checked]:
    phase = campaign.phase(state)
    factions = list(campaign.factions())
    return [
        check_orders(
            p, campaign_id=campaign.id, phase=phase, game=campaign.game, data=campaign.data,
            game_state=state["game"], factions=factions,
        )
        for p in paths
    ]


def check(root: Path, paths: list[Path]) -> list[Checked]:
    campaign = Campaign.open(root)
    return _check(campaign, campaign.state(), paths)


def _rejected(checked: list[Checked]) -> Rejected:
    lines = [p for c in checked for p in c.problems]
    count = len(lines)
    return Rejected(
        f"rejected: {count} problem{'s' if count != 1 else ''}; nothing was recorded",
        details=lines,
    )


@dataclass
class Applied:
    recorded: list[dict[str, Any]] = field(default_factory=list)
    resolved: list[dict[str, Any]] = field(default_factory=list)
    recovered: list[str] = field(default_factory=list)
    status: dict[str, Any] = field(default_factory=dict)


def apply(root: Path, paths: list[Path]) -> Applied:
    """Validate every file; if all are good record them, then resolve complete phases."""
    campaign = Campaign.open(root)
    with campaign.locked() as recovered:
        state = campaign.state()
        checked = _check(campaign, state, paths)
        if not all(c.ok for c in checked):
            raise _rejected(checked)
        seen: dict[str, Path] = {}
        for c in checked:
            if c.faction in seen:
                raise Rejected(f"{c.path}: a second orders file for {c.faction} "
                               f"(the first is {seen[c.faction]}); send one per faction")
            seen[c.faction] = c.path
        result = Applied(recovered=recovered)
        for c in checked:
            state = _record_orders(campaign, state, c)
            result.recorded.append({"faction": c.faction, "file": str(c.path), "seq": state["seq"]})
        result.resolved = _advance(campaign, state)
    result.status = status(root)
    return result


def _record_orders(campaign: Campaign, state: dict[str, Any], c: Checked) -> dict[str, Any]:
    phase = campaign.phase(state)
    seq = state["seq"] + 1
    replaced = c.faction in state.get("pending", {})
    body = c.body()
    count = len(body["orders"])
    summary = (f"{c.faction} orders for {phase.name} ({count} order{'s' if count != 1 else ''})"
               + (", replacing the earlier file" if replaced else ""))
    entry = make_entry(
        seq=seq, prev=state["head"], kind="orders", turn=phase.turn, phase=phase.name,
        summary=summary, faction=c.faction, orders=body,
    )
    new_state = clone(state)
    new_state["pending"][c.faction] = body
    stored = f"orders/t{phase.turn:02d}-{phase.name}-{c.faction}-{seq:06d}.yaml"
    campaign.write_step(entry, new_state, f"step {seq}: {summary}",
                        extra={stored: c.path.read_text(encoding="utf-8")})
    return campaign.state()


def _advance(campaign: Campaign, state: dict[str, Any], nmr: bool = False) -> list[dict[str, Any]]:
    """Resolve phases while every awaited faction has orders (or the phase needs nobody)."""
    resolved: list[dict[str, Any]] = []
    game, data = campaign.game, campaign.data
    first = True
    while True:
        phase = campaign.phase(state)
        if phase.over:
            break
        pending: dict[str, Any] = state.get("pending", {})
        missing = [f for f in phase.awaiting if f not in pending]
        if missing and not (nmr and first):
            break
        secret = _secret(campaign)
        seq = state["seq"] + 1
        from pbem.dice import KeyedRng

        orders = dict(pending)
        defaults = []
        for faction in missing:
            bot_rng = KeyedRng(_rng_key(secret, f"nmr:{seq}:{faction}"))
            orders[faction] = game.default_orders(data, state["game"], faction, bot_rng)
            defaults.append(faction)
        rng = KeyedRng(_rng_key(secret, f"step:{seq}"))
        events = game.resolve(data, state["game"], orders, rng)
        new_game = state["game"]
        for event in events:
            new_game = game.apply(data, new_game, event)
        after = campaign.game.phase(data, new_game)
        summary = f"{phase.title or phase.name} resolved"
        if defaults:
            summary += f" (no orders from {', '.join(defaults)}: defaults used)"
        entry = make_entry(
            seq=seq, prev=state["head"], kind="resolve", turn=phase.turn, phase=phase.name,
            summary=summary, nmr_orders={f: orders[f] for f in defaults} or None,
            events=events, dice=[r._asdict() for r in rng.rolls],
        )
        tag = f"turn-{after.turn:04d}" if after.turn != phase.turn else None
        campaign.write_step(entry, {"game": new_game, "pending": {}},
                            f"step {seq}: {summary}", tag=tag)
        state = campaign.state()
        resolved.append({"seq": seq, "phase": phase.name, "turn": phase.turn,
                         "events": len(events), "dice": len(rng.rolls), "nmr": defaults})
        first = False
    return resolved


def resolve(root: Path, *, nmr: bool = False) -> Applied:
    campaign = Campaign.open(root)
    with campaign.locked() as recovered:
        state = campaign.state()
        phase = campaign.phase(state)
        if phase.over:
            raise Rejected("the game is over; nothing to resolve")
        missing = [f for f in phase.awaiting if f not in state.get("pending", {})]
        if missing and not nmr:
            raise Rejected(
                f"phase {phase.name} still awaits {', '.join(missing)}; "
                "wait for their orders or use --nmr to resolve with their default orders"
            )
        result = Applied(recovered=recovered, resolved=_advance(campaign, state, nmr=True))
    result.status = status(root)
    return result


# ---------------------------------------------------------------------------------------
# bot


def bot(root: Path, faction: str, seed: str | None = None) -> dict[str, Any]:
    """Legal orders for the awaited decision, as a complete orders file (data)."""
    from pbem.dice import KeyedRng

    campaign = Campaign.open(root)
    state = campaign.state()
    phase = campaign.phase(state)
    factions = list(campaign.factions())
    if faction not in factions:
        from pbem.names import suggest

        raise UsageError(f"unknown faction {faction!r}{suggest(faction, factions)}; "
                         f"factions: {', '.join(factions)}")
    if faction not in phase.awaiting:
        raise Rejected(f"{faction} is not awaited in phase {phase.name} "
                       f"(awaiting: {', '.join(phase.awaiting) or 'nobody'})")
    key = hashlib.sha256(f"pbem-bot-v1\0{seed or ''}\0{state['head']}\0{faction}".encode()).digest()
    body = campaign.game.bot(campaign.data, state["game"], faction, KeyedRng(key))
    return {
        "campaign": campaign.id,
        "turn": phase.turn,
        "phase": phase.name,
        "faction": faction,
        "head": state["head"],
        **body,
    }


# ---------------------------------------------------------------------------------------
# log / undo / adjust


def log(root: Path) -> list[dict[str, Any]]:
    campaign = Campaign.open(root)
    out = []
    for entry in campaign.entries():
        out.append({
            "seq": entry["seq"],
            "turn": entry["turn"],
            "phase": entry["phase"],
            "type": entry["type"],
            "faction": entry.get("faction"),
            "summary": entry["summary"],
            "events": [campaign.game.summary(campaign.data, e) for e in entry.get("events", [])],
        })
    return out


def _in_force(campaign: Campaign) -> list[int]:
    """Steps that an undo may still take back, oldest first."""
    stack: list[int] = []
    for entry in campaign.entries():
        if entry["type"] == "undo":
            stack.pop()
        elif entry["type"] != "new":
            stack.append(entry["seq"])
    return stack


def undo(root: Path, reason: str) -> dict[str, Any]:
    if not reason.strip():
        raise UsageError("--reason must say why the step is taken back")
    campaign = Campaign.open(root)
    with campaign.locked():
        state = campaign.state()
        stack = _in_force(campaign)
        if not stack:
            raise Rejected("nothing to undo: no step since the campaign was created is in force")
        target = stack[-1]
        store = campaign.store()
        added = store.commit_of(entry_name(target))
        parent = store.parent(added) if added else None
        raw = store.read_at(parent, STATE) if parent else None
        if raw is None:
            raise CampaignError(f"cannot find the snapshot before step {target} in git history")
        before = yamlio.load_trusted(raw.decode("utf-8"))
        undone = campaign.entry(target)
        seq = state["seq"] + 1
        phase = campaign.phase(before)
        summary = f"undo step {target} ({undone['summary']}): {reason.strip()}"
        entry = make_entry(seq=seq, prev=state["head"], kind="undo", turn=phase.turn,
                           phase=phase.name, summary=summary, undoes=target, reason=reason.strip())
        campaign.write_step(entry, {"game": before["game"], "pending": before["pending"]},
                            f"step {seq}: {summary}")
    return {"undone": target, "seq": seq, **status(root)}


def adjust(root: Path, path: Path, reason: str) -> dict[str, Any]:
    """A referee correction: a YAML list of events (or {events: [...]}) applied as they are."""
    if not reason.strip():
        raise UsageError("--reason must say why the adjustment is made")
    campaign = Campaign.open(root)
    try:
        raw = path.read_bytes()
    except OSError as exc:
        raise InputFileError(f"{path}: cannot be read: {exc.strerror}") from None
    doc = yamlio.load_untrusted(raw, str(path))
    events = doc.data.get("events") if isinstance(doc.data, dict) else doc.data
    base = ("events",) if isinstance(doc.data, dict) else ()
    if not isinstance(events, list) or not events:
        raise InputFileError(f"{doc.where(base)}: expected a list of events (or events: [...])")
    with campaign.locked():
        state = campaign.state()
        game_state = state["game"]
        for i, event in enumerate(events):
            if not isinstance(event, dict) or "type" not in event:
                raise InputFileError(f"{doc.where((*base, i))}: an event is a mapping with a 'type'")
            try:
                game_state = campaign.game.apply(campaign.data, game_state, event)
            except (KeyError, ValueError, TypeError) as exc:
                raise InputFileError(f"{doc.where((*base, i))}: cannot apply this event: {exc}") from None
        phase = campaign.phase(state)
        seq = state["seq"] + 1
        summary = f"adjustment ({len(events)} event{'s' if len(events) != 1 else ''}): {reason.strip()}"
        entry = make_entry(seq=seq, prev=state["head"], kind="adjust", turn=phase.turn,
                           phase=phase.name, summary=summary, reason=reason.strip(),
                           events=normal(events))
        campaign.write_step(entry, {"game": game_state, "pending": state["pending"]},
                            f"step {seq}: {summary}")
    return {"seq": seq, **status(root)}


# ---------------------------------------------------------------------------------------
# audit


def audit(root: Path, *, final: bool = False) -> dict[str, Any]:
    """Replay the whole history from git objects; compare every committed snapshot."""
    from pbem.dice import DiceMismatch, ReplayRng, Roll

    campaign = Campaign.open(root)
    store = campaign.store()
    game, data = campaign.game, campaign.data
    problems: list[str] = []
    checked = {"entries": 0, "snapshots": 0, "rolls": 0, "signatures": 0, "commitments": 0}
    folder = Folder(game, data)
    seen: dict[str, str] = {}  # entry path -> blob id as first committed
    head_hash = "0" * 64
    seq = 0
    for commit in store.history():
        blobs = store.blobs_at(commit.sha, "log")
        for name, blob_id in seen.items():
            if blobs.get(name) != blob_id:
                problems.append(f"{name}: changed or removed in commit {commit.sha[:10]}")
        for name in sorted(blobs):
            if name in seen:
                continue
            seen[name] = blobs[name]
            raw = store.blob(blobs[name])
            try:
                entry = yamlio.load_trusted(raw.decode("utf-8"))
            except Exception as exc:  # noqa: BLE001 - any damage is a finding
                problems.append(f"{name}: cannot be read: {exc}")
                continue
            seq += 1
            checked["entries"] += 1
            if name != entry_name(seq) or entry.get("seq") != seq:
                problems.append(f"{name}: expected step {seq} here (entries missing or out of order)")
            if entry.get("prev") != head_hash:
                problems.append(f"{name}: 'prev' does not match the hash of the step before")
            head_hash = entry_hash(entry)
            before = folder.state
            try:
                if entry["type"] == "orders":
                    faction = entry["faction"]
                    found = game.validate(data, before["game"], faction, entry["orders"])
                    if found:
                        problems.append(f"{name}: the recorded orders of {faction} are not legal: "
                                        f"{found[0].message}")
                if entry["type"] == "resolve":
                    rolls = [Roll(d["label"], d["sides"], d["value"]) for d in entry.get("dice", [])]
                    replay = ReplayRng(rolls)
                    orders = {**before["pending"], **entry.get("nmr_orders", {})}
                    events = normal(game.resolve(data, before["game"], orders, replay))
                    checked["rolls"] += len(rolls)
                    if not replay.finished():
                        problems.append(f"{name}: recorded dice that the rules never asked for")
                    if events != entry.get("events", []):
                        problems.append(f"{name}: the recorded events are not what the rules "
                                        "produce from the orders and dice")
                folder.fold(entry)
            except (DiceMismatch, ValueError, KeyError, TypeError) as exc:
                problems.append(f"{name}: cannot be replayed: {exc}")
                return _audit_result(problems, checked)
        raw_state = store.read_at(commit.sha, STATE)
        if raw_state is not None and folder.state:
            checked["snapshots"] += 1
            if normal(yamlio.load_trusted(raw_state.decode("utf-8"))) != folder.state:
                problems.append(f"{STATE} in commit {commit.sha[:10]} is not the replay of the log "
                                f"up to step {seq}")
    if seq == 0:
        problems.append("no log entries in the history")
    status_lines = store._git("status", "--porcelain", "--", *MANAGED)
    if status_lines.strip():
        problems.append("the work tree differs from the last commit: " +
                        ", ".join(line[3:] for line in status_lines.splitlines()))
    return _audit_result(problems, checked)


def _audit_result(problems: list[str], checked: dict[str, int]) -> dict[str, Any]:
    return {"ok": not problems, "problems": problems, "checked": checked}


def audit_or_raise(root: Path, final: bool = False) -> dict[str, Any]:
    report = audit(root, final=final)
    if not report["ok"]:
        raise AuditFailed(f"audit found {len(report['problems'])} problem(s)", details=report["problems"])
    return report


def phase_of(root: Path) -> Phase:
    campaign = Campaign.open(root)
    return campaign.phase()
