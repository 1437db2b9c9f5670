"""A campaign's schedule: deadlines, absences, late orders and the NMR policy.

Campaign rules, not mail: `pbem status` shows the deadline and a resolution with factions
missing takes their NMR policy, whether or not any mail is ever sent; the mail loop
(pbem.mail.loop) reminds, resolves by the clock and answers late orders with them. The
settings (`deadlines:`, `absences:`, `nmr:`, `late:` in campaign.yaml) are described in
pbem/mail/loop.py. A phase's deadline counts from the commit time of the step that opened
it, so every clone computes the same deadline.
"""

from __future__ import annotations

import re
from datetime import UTC, datetime, timedelta
from typing import Any

from pbem.campaign import Campaign
from pbem.errors import CampaignError
from pbem.game import Phase
from pbem.log import entry_name

NMR_POLICIES = ("hold", "bot", "wait", "disorder")
LATE_POLICIES = ("accept", "flag", "reject")
DEFAULT_REMIND_HOURS = 24.0
# steps that do not open a phase: the phase awaiting orders goes on after them
_NOT_OPENING = ("orders", "adjust")


def nmr_policies(campaign: Campaign) -> dict[str, str]:
    """The NMR policy of every faction: `nmr: POLICY` for all, or a mapping of factions
    (and `default:`) to policies. Checked whole, so a typo is reported before any deadline."""
    where = campaign.root / "campaign.yaml"
    conf = campaign.config.get("nmr")
    factions = list(campaign.factions())
    found: dict[str, Any]
    if isinstance(conf, dict):
        unknown = [k for k in conf if k != "default" and k not in factions]
        if unknown:
            raise CampaignError(f"{where}: nmr: {unknown[0]!r} is not a faction of this campaign "
                                f"(factions: {', '.join(factions)}; or 'default')")
        found = {f: conf.get(f, conf.get("default", "hold")) for f in factions}
    else:
        found = {f: conf or "hold" for f in factions}
    for faction, policy in found.items():
        if policy not in NMR_POLICIES:
            text = f"nmr: {policy!r}" if not isinstance(conf, dict) else f"nmr: {faction}: {policy!r}"
            raise CampaignError(f"{where}: {text}; choose one of {', '.join(NMR_POLICIES)}")
    return {f: str(p) for f, p in found.items()}


def nmr_policy(campaign: Campaign, faction: str | None = None) -> str:
    """One faction's NMR policy; without a faction, the policy of them all when they share
    one, else "mixed"."""
    policies = nmr_policies(campaign)
    if faction is not None:
        return policies.get(faction, "hold")
    distinct = set(policies.values())
    return distinct.pop() if len(distinct) == 1 else "mixed"


def nmr_orders(campaign: Campaign, state: dict[str, Any], faction: str,
               rng: Any) -> tuple[str, dict[str, Any]]:
    """(policy used, orders body) for a faction that sent nothing by the deadline, where
    `state` is the game state. What pbem/api.py resolves with when it resolves with --nmr:

    - hold: the game's default orders (its units hold; its standing instructions apply;
      set-up choices, which cannot be skipped, are made for it);
    - bot: legal orders made by the game's bot;
    - disorder: civil disorder: no orders and no standing instructions for the phase, where
      the phase allows that (else, in a set-up phase say, as hold);
    - wait: `tick` keeps waiting; a referee who resolves anyway gets hold.
    """
    game, data = campaign.game, campaign.data
    policy = nmr_policy(campaign, faction)
    if policy == "bot":
        return "bot", game.bot(data, state, faction, rng)
    if policy == "disorder":
        body: dict[str, Any] = {"orders": [], "standing": {}}
        if not game.validate(data, state, faction, body):
            return "disorder", body
    return "hold", game.default_orders(data, state, faction, rng)


def late_policy(campaign: Campaign) -> str:
    policy = str(campaign.config.get("late") or "flag")
    if policy not in LATE_POLICIES:
        raise CampaignError(f"{campaign.root / 'campaign.yaml'}: late: {policy!r}; choose one of "
                            f"{', '.join(LATE_POLICIES)}")
    return policy


# ---------------------------------------------------------------------------------------
# deadlines


def _hours(value: Any, where: str) -> float | None:
    if value is None:
        return None
    if isinstance(value, dict):
        if "hours" in value or "days" in value:
            return float(value.get("hours") or 0) + 24 * float(value.get("days") or 0)
        return None
    if isinstance(value, bool) or not isinstance(value, int | float):
        raise CampaignError(f"campaign.yaml deadlines: {where}: expected a number of hours or "
                            f"{{hours: N}}, not {value!r}")
    return float(value)


def _when(value: Any, where: str) -> datetime:
    if isinstance(value, datetime):
        return value if value.tzinfo else value.replace(tzinfo=UTC)
    try:
        parsed = datetime.fromisoformat(str(value).replace("Z", "+00:00"))
    except ValueError:
        raise CampaignError(f"campaign.yaml deadlines: {where}: expected a date and time like "
                            f"2026-05-01T18:00:00Z, not {value!r}") from None
    return parsed if parsed.tzinfo else parsed.replace(tzinfo=UTC)


def opening_step(campaign: Campaign, state: dict[str, Any]) -> int:
    """The step that opened the current phase: the last one that was not orders (or an
    adjustment), or an undo that took back more than orders. Reads back from the head only
    as far as needed."""
    seq = int(state["seq"])
    while seq > 1:
        entry = campaign.entry(seq)
        kind = entry["type"]
        if kind == "undo":
            undone = campaign.entry(int(entry["undoes"]))
            if undone["type"] not in _NOT_OPENING:
                return seq
        elif kind not in _NOT_OPENING:
            return seq
        seq -= 1
    return 1


def committed_at(campaign: Campaign, seq: int) -> datetime:
    """When the step's log entry was committed (the commit time, UTC)."""
    stamp = campaign.store().added_at(entry_name(seq))
    if stamp is None:
        raise CampaignError(f"{entry_name(seq)} is not committed; cannot tell when its phase opened")
    return datetime.fromtimestamp(stamp, UTC)


def _day(value: Any, where: str, *, end: bool) -> datetime:
    """A date of `absences:` as a time (UTC): the start of the day, or with `end` the end
    of it (the start of the next); a date and time is taken as it is."""
    text = str(value)
    if re.fullmatch(r"\d{4}-\d{2}-\d{2}", text):
        try:
            day = datetime.fromisoformat(text).replace(tzinfo=UTC)
        except ValueError:
            raise CampaignError(f"campaign.yaml absences: {where}: {text!r} is not a date") from None
        return day + timedelta(days=1) if end else day
    return _when(value, f"absences: {where}")


def absences(campaign: Campaign) -> list[dict[str, Any]]:
    """`absences:` of campaign.yaml, checked: [{factions, start, end}] (end exclusive)."""
    found = campaign.config.get("absences") or []
    if not isinstance(found, list):
        raise CampaignError("campaign.yaml absences: expected a list like "
                            "[{faction: red, from: 2026-12-20, to: 2027-01-03}]")
    known = list(campaign.factions())
    out = []
    for n, item in enumerate(found, 1):
        where = f"#{n}"
        if not isinstance(item, dict) or not {"faction", "from", "to"} <= set(item):
            raise CampaignError(f"campaign.yaml absences: {where}: expected "
                                "{faction: F, from: DATE, to: DATE}")
        named = item["faction"] if isinstance(item["faction"], list) else [item["faction"]]
        for faction in named:
            if faction not in known:
                raise CampaignError(f"campaign.yaml absences: {where}: {faction!r} is not a "
                                    f"faction of this campaign ({', '.join(known)})")
        start, end = _day(item["from"], where, end=False), _day(item["to"], where, end=True)
        if end <= start:
            raise CampaignError(f"campaign.yaml absences: {where}: 'to' is before 'from'")
        out.append({"factions": [str(f) for f in named], "start": start, "end": end,
                    "from": str(item["from"]), "to": str(item["to"])})
    return out


def deadline_of(campaign: Campaign, state: dict[str, Any] | None = None,
                phase: Phase | None = None) -> dict[str, Any] | None:
    """The current phase's deadline, or None when campaign.yaml sets none for it or nobody
    is awaited:

    - deadline: when the phase may be resolved: the latest deadline of the factions still
      awaited (the phase's own, unless an absence pushed a faction's further);
    - phase_deadline: the phase's own; factions: each awaited faction's deadline;
    - absent: {faction: {from, to, until}} for factions whose deadline an absence moved;
    - remind_at: reminders, remind_hours before the phase's own deadline;
    - grace_until: `tick` resolves then, grace_hours after `deadline`;
    - opened, opened_by (seq): when and by which step the phase opened.
    """
    deadlines = campaign.config.get("deadlines")
    if not deadlines:
        return None
    if not isinstance(deadlines, dict):
        raise CampaignError("campaign.yaml deadlines: expected a mapping, e.g. {hours: 72}")
    state = state if state is not None else campaign.state()
    phase = phase if phase is not None else campaign.phase(state)
    if phase.over or not phase.awaiting:
        return None
    own = deadlines.get(phase.name)

    def setting(key: str, default: float) -> float:
        value = _hours(deadlines.get(key, default), key)
        if isinstance(own, dict) and key in own:
            value = _hours(own[key], f"{phase.name}.{key}")
        return value or 0.0

    remind = setting("remind_hours", DEFAULT_REMIND_HOURS)
    grace = setting("grace_hours", 0.0)
    opener = opening_step(campaign, state)
    opened = committed_at(campaign, opener)
    fixed = deadlines.get(f"{phase.turn}:{phase.name}")
    if fixed is not None:
        deadline = _when(fixed, f"{phase.turn}:{phase.name}")
    else:
        hours = _hours(own, phase.name) if own is not None else _hours(deadlines.get("hours"), "hours")
        if hours is None:
            return None
        deadline = opened + timedelta(hours=hours)
    by_faction = {f: deadline for f in phase.awaiting}
    absent: dict[str, dict[str, str]] = {}
    for away in sorted(absences(campaign), key=lambda a: a["start"]):
        for faction in away["factions"]:
            if faction in by_faction and away["start"] <= by_faction[faction] < away["end"]:
                by_faction[faction] = away["end"]
                absent[faction] = {"from": away["from"], "to": away["to"],
                                   "until": _iso(away["end"])}
    missing = [f for f in phase.awaiting if f not in state.get("pending", {})]
    latest = max((by_faction[f] for f in missing), default=deadline)
    return {
        "deadline": _iso(latest),
        "phase_deadline": _iso(deadline),
        "factions": {f: _iso(d) for f, d in by_faction.items()},
        "absent": absent,
        "remind_at": _iso(deadline - timedelta(hours=remind)),
        "remind_hours": remind,
        "grace_until": _iso(latest + timedelta(hours=grace)),
        "opened": _iso(opened),
        "opened_by": opener,
    }


def timezone_of(campaign: Campaign, faction: str) -> str | None:
    """The time zone a faction's player reads deadlines in: campaign.yaml
    `mail: {timezones: {FACTION: Area/City}}` (`default:` for the others), or None (UTC)."""
    from zoneinfo import ZoneInfo, ZoneInfoNotFoundError

    mail = campaign.config.get("mail") or {}
    zones = mail.get("timezones") if isinstance(mail, dict) else None
    if not zones:
        return None
    where = "campaign.yaml: mail: timezones"
    if not isinstance(zones, dict):
        raise CampaignError(f"{where}: expected a mapping of factions to time zones, e.g. "
                            "{red: Europe/Berlin, default: UTC}")
    unknown = sorted(set(map(str, zones)) - set(campaign.factions()) - {"default"})
    if unknown:
        raise CampaignError(f"{where}: {', '.join(unknown)} is not a faction of this campaign "
                            f"(factions: {', '.join(campaign.factions())}, or default)")
    name = zones.get(faction, zones.get("default"))
    if name is None:
        return None
    try:
        ZoneInfo(str(name))
    except (ZoneInfoNotFoundError, ValueError):
        raise CampaignError(f"{where}: {faction if faction in zones else 'default'}: "
                            f"{name!r} is not a time zone (e.g. Europe/Berlin, America/New_York)") from None
    return str(name)


def local_time(iso: str, zone: str | None) -> str:
    """A deadline as its reader reads it: 'Tue 8 Dec 2026, 19:00 CET (18:00 UTC)', or in UTC
    alone without a zone."""
    from zoneinfo import ZoneInfo

    when = _parse_iso(iso)
    utc = when.astimezone(UTC)
    if zone is None or zone == "UTC":
        return f"{utc:%a} {utc.day} {utc:%b %Y, %H:%M} UTC"
    there = when.astimezone(ZoneInfo(zone))
    same_day = there.date() == utc.date()
    return (f"{there:%a} {there.day} {there:%b %Y, %H:%M} {there.tzname()} "
            f"({'' if same_day else f'{utc:%a} {utc.day} {utc:%b}, '}{utc:%H:%M} UTC)")


def _iso(when: datetime) -> str:
    return when.astimezone(UTC).isoformat(timespec="seconds")


def _parse_iso(text: str) -> datetime:
    return datetime.fromisoformat(text)


# ---------------------------------------------------------------------------------------
# mail out: reports
