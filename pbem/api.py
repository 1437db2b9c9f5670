"""What each command does, as functions usable from Python and tests.

Functions here never print or exit: they return data or raise PbemError.
"""

from __future__ import annotations

import hashlib
import itertools
import re
import secrets
import shutil
from dataclasses import dataclass, field
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from cryptography.hazmat.primitives import serialization

from pbem import randomness, yamlio
from pbem.campaign import (
    CONFIG,
    DORMANT_SEAT,
    FORMAT,
    PRIVATE,
    STATE,
    Campaign,
    protected,
)
from pbem.contributions import PHASE, hidden_draws, is_pre_game, pre_game
from pbem.crypto import sealed, sshsig
from pbem.crypto.keys import keygen_files, load_identity_file, load_ssh_private_file, read_key_card
from pbem.dice import KeyedRng
from pbem.errors import CampaignError, CryptoError, InputFileError, PbemError, Rejected, UsageError
from pbem.game import (
    clone,
    corrected,
    dormant,
    game_ids,
    get_game,
    load_data,
    sees_sealed,
    todo,
)
from pbem.log import (
    GENESIS,
    after_undo,
    after_unseal,
    entry_hash,
    entry_name,
    make_entry,
    normal,
    recorded,
    sealed_files,
    sealed_phase,
    undone_steps,
)
from pbem.names import suggest
from pbem.orders import SIGNATURE_NAMESPACE, Checked, Signing, check_orders, signature_path
from pbem.schedule import deadline_of
from pbem.step import (
    advance,
    config_text,
    entered,
    entered_summary,
    finish,
    open_orders,
    published_files,
    referee_secret,
    referee_secrets,
    reveal_files,
    sealed_to,
    seated,
)
from pbem.store import Store

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


def seed_secret(seed: str) -> bytes:
    """The referee secret of a reproducible campaign (`new --seed`)."""
    return hashlib.sha256(b"pbem-seed-v1\0" + seed.encode("utf-8")).digest()


# ---------------------------------------------------------------------------------------
# new

_ID = re.compile(r"^[A-Za-z0-9][A-Za-z0-9._-]{0,63}$")
_PLAYER = re.compile(r"^\s*(?P<faction>[^=\s]+)\s*=\s*(?P<name>[^<>]*?)\s*<(?P<email>[^<>\s@]+@[^<>\s@]+)>\s*$")


def parse_player(text: str) -> tuple[list[str], str, str]:
    """FACTION[,FACTION...]=NAME <EMAIL>: one player may command several factions."""
    m = _PLAYER.match(text)
    if not m or not m.group("name"):
        raise UsageError(f"--player {text!r}: expected FACTION=NAME <EMAIL>, the address in "
                         "angle brackets (red=Ann <ann@example.org>; FACTION,FACTION=NAME <EMAIL> "
                         "for a player of several factions)")
    factions = [f.strip() for f in m.group("faction").split(",") if f.strip()]
    return factions, m.group("name"), (m.group("email") or "").strip()


def _check_seating(desc: dict[str, Any], players: dict[str, list[str]]) -> None:
    """A game may list the seatings its rules allow (Red Russia 1.0: 2, 3 or 4 players)."""
    seatings = desc.get("seatings")
    if not seatings or not any(len(fs) > 1 for fs in players.values()):
        return
    groups = sorted(sorted(fs) for fs in players.values())
    allowed = [sorted(sorted(g) for g in seating) for seating in seatings.values()]
    shared = [g for g in groups if len(g) > 1]
    if not any(all(g in seating for g in shared) for seating in allowed):
        text = "; ".join(f"{n} players: " + " / ".join("+".join(g) for g in s)
                         for n, s in seatings.items())
        raise UsageError(f"--player: {', '.join('+'.join(g) for g in shared)} is not a seating the "
                         f"rules allow ({text})")


def parse_option(text: str) -> tuple[str, Any]:
    if "=" not in text:
        raise UsageError(f"--option {text!r}: expected KEY=VALUE")
    key, value = text.split("=", 1)
    loaded = yamlio.load_untrusted(value, f"--option {key}").data if value.strip() else ""
    return key.strip(), loaded


def parse_key(text: str) -> tuple[list[str], Path]:
    """FACTION[,FACTION...]=FILE: the public key card of the player of those factions."""
    if "=" not in text:
        raise UsageError(f"--key {text!r}: expected FACTION=FILE (a public key card from pbem keygen)")
    factions, file = text.split("=", 1)
    return [f.strip() for f in factions.split(",") if f.strip()], Path(file.strip())


def _known_faction(faction: str, known: list[str], flag: str, text: str, game_id: str) -> None:
    if faction not in known:

        raise UsageError(f"{flag} {text!r}: unknown faction {faction!r}{suggest(faction, known)}; "
                         f"factions of {game_id}: {', '.join(known)}")


def _not_dormant(faction: str, later: list[str], flag: str, text: str) -> None:
    if faction in later:
        raise UsageError(f"{flag} {text!r}: {faction} enters later in the game; it is seated "
                         "when it enters (by the rules, or with pbem seat)")


def _check_requires(specs: list[dict[str, Any]], chosen: dict[str, Any]) -> None:
    """An option turned on that needs others (its `requires`) without them is refused."""
    for spec in specs:
        missing = [r for r in spec.get("requires") or [] if not chosen.get(r)]
        if chosen.get(spec["id"]) and missing:
            raise UsageError(f"--option {spec['id']}: requires "
                             + " and ".join(f"--option {r}=true" for r in missing)
                             + f" ({spec['help']})")


def new_campaign(
    root: Path,
    game_id: str,
    *,
    players: list[str] | None = None,
    options: list[str] | None = None,
    seed: str | None = None,
    name: str | None = None,
    keys_dir: Path | None = None,
    keys: list[str] | None = None,
    hot_seat: bool = False,
    contributions: bool = True,
    override: Path | None = None,
) -> dict[str, Any]:
    """Create a campaign folder: git repository, settings, referee keys, and step 1: the
    contribution round (pbem.contributions), or with `contributions=False` the set-up drawn
    at once with the hidden key alone.

    `override`: a YAML file `overrides: {FILE: {KEY: VALUE, ...}}` of corrections to the
    game's data (its printed charts, a reconstructed value), checked against the game's
    schemas and rules, recorded by step 1 and shown by status and every report.

    `keys_dir` makes one key pair for each player, for those of their factions that have no
    key (`keys`), and one for each faction that has no player: `_key_pairs` names them. Their
    orders must be signed unless `hot_seat` (one person at one machine plays them: unsigned
    orders allowed, which `status` shows). Everything given is checked before anything is
    written.
    """

    game = get_game(game_id)
    overrides = read_overrides(override) if override is not None else {}
    data = load_data(game_id, overrides or None, source=override)
    desc = game.describe(data)
    campaign_id = name or root.resolve().name
    if not _ID.match(campaign_id):
        raise UsageError(f"campaign id {campaign_id!r}: use letters, digits, '.', '_' or '-'")
    if root.exists() and (not root.is_dir() or any(root.iterdir())):
        raise UsageError(f"{root}: exists and is not empty; choose a new folder")
    known = [f["id"] for f in desc["factions"]]
    later = dormant(game, data)  # powers that enter mid-game: seated by the step that does it
    factions: dict[str, dict[str, Any]] = {}
    seated: dict[str, list[str]] = {}
    for text in players or []:
        names, pname, email = parse_player(text)
        for faction in names:
            _known_faction(faction, known, "--player", text, game_id)
            _not_dormant(faction, later, "--player", text)
            if faction in factions:
                raise UsageError(f"--player {text!r}: {faction} has a player already")
            factions[faction] = {"player": pname, "email": email, "hotseat": False}
        seated[f"{pname} <{email}>"] = seated.get(f"{pname} <{email}>", []) + names
    _check_seating(desc, seated)
    for faction in known:
        factions.setdefault(faction, dict(DORMANT_SEAT) if faction in later
                            else {"player": "hot-seat", "email": "", "hotseat": True})
    for text in keys or []:
        names, file = parse_key(text)
        recipient, ssh = read_key_card(file)
        for faction in names:
            _known_faction(faction, known, "--key", text, game_id)
            _not_dormant(faction, later, "--key", text)
            factions[faction].update(age=recipient, ssh=ssh, unsigned_ok=False)
    pairs = _key_pairs(known, factions, seated, later) if keys_dir is not None else {}
    if keys_dir is not None:
        clash = [keys_dir / f"{stem}{s}" for stem in pairs for s in KEY_SUFFIXES
                 if (keys_dir / f"{stem}{s}").exists()]
        if clash:
            raise UsageError(f"--keys-dir {keys_dir}: {clash[0]} exists; pbem will not overwrite keys")
    chosen: dict[str, Any] = {o["id"]: o["default"] for o in desc["options"]}
    for text in options or []:
        key, value = parse_option(text)
        if key not in chosen:

            raise UsageError(f"--option {key!r}: unknown option{suggest(key, list(chosen))}; "
                             f"options: {', '.join(chosen) or 'none'}")
        choices = next(o.get("choices") for o in desc["options"] if o["id"] == key)
        if choices is not None and value not in choices:
            raise UsageError(f"--option {key}={value}: expected one of "
                             f"{', '.join(map(str, choices))}")
        chosen[key] = value
    _check_requires(desc["options"], chosen)
    if desc.get("seatings") and any(len(fs) > 1 for fs in seated.values()):
        # 1.0, 16.0, 16.1: the game needs to know who plays several factions
        chosen["seating"] = sorted([sorted(fs) for fs in seated.values()]
                                   + [[f] for f in known if not any(f in fs for fs in seated.values())])
    secret = seed_secret(seed) if seed is not None else secrets.token_bytes(32)

    existed = root.exists()
    try:
        root.mkdir(parents=True, exist_ok=True)
        private = root / PRIVATE
        private.mkdir(mode=0o700)  # keys, outbox, inbox record: the referee's alone
        private.chmod(0o700)  # whatever the umask
        (private / "secret").write_text(secret.hex() + "\n")
        (private / "secret").chmod(0o600)
        card = keygen_files(private / "referee", material=secret if seed is not None else None)
        referee_age, referee_ssh = card.split()[0], " ".join(card.splitlines()[1].split()[:2])
        key_files: list[dict[str, Any]] = []
        if keys_dir is not None:  # keys made here: unsigned orders only if hot-seat
            keys_dir.mkdir(parents=True, exist_ok=True)
            for stem, (holder, group) in pairs.items():
                lines = keygen_files(keys_dir / stem).splitlines()  # its SSH comment: the stem
                for faction in group:
                    factions[faction].update(age=lines[0], ssh=lines[1], unsigned_ok=hot_seat)
                key_files.append({"player": holder, "factions": group,
                                  "files": [str(keys_dir / f"{stem}{s}") for s in KEY_SUFFIXES]})
        config: dict[str, Any] = {
            "pbem": FORMAT,
            "campaign": campaign_id,
            "game": game_id,
            "options": chosen,
            "factions": factions,
            "referee": {"name": "pbem referee", "email": "referee@pbem.invalid",
                        "age": referee_age, "ssh": referee_ssh},
            "reproducible": seed is not None,
            "dice": randomness.published(secret),
            "overrides": overrides,
        }
        if seed is not None:
            config["seed"] = seed
        Store.init(root)
        # set-up draws: hidden until unseal (randomness.dice_key: `new`'s key is the hidden one)
        rng = KeyedRng(randomness.referee_hidden_key(secret))
        campaign = Campaign(root, config)
        playing = [f for f in known if f not in later]  # those seated now contribute
        if contributions:  # nothing hidden is drawn before the players' salts are in
            game_state = pre_game(chosen, playing)
        else:
            game_state = game.setup(data, chosen, rng)
        phase = campaign.game.phase(data, game_state)
        entry = make_entry(
            seq=1, prev=GENESIS, kind="new", turn=phase.turn, phase=phase.name,
            summary=f"new {desc['name']} campaign {campaign_id}"
                    + (" (reproducible from --seed: NOT secret)" if seed is not None else ""),
            options=chosen, randomness=randomness.published(secret),
            contribute=playing if contributions else None,
            dice=[r._asdict() for r in rng.rolls] or None, settings=protected(config),
        )
        campaign.write_step(
            entry, {"game": game_state, "pending": {}, "settings": protected(config)},
            f"new: {desc['name']} campaign {campaign_id}",
            extra={CONFIG: config_text(config), ".gitignore": f"{PRIVATE}/\n"},
        )
    except BaseException:
        # a campaign is created whole or not at all: remove what this call made
        if existed:
            for child in root.iterdir():
                shutil.rmtree(child) if child.is_dir() else child.unlink()
        else:
            shutil.rmtree(root, ignore_errors=True)
        raise
    return {"campaign": campaign_id, "dir": str(root), "game": game_id, **status(root),
            "key_files": key_files}


KEY_SUFFIXES = (".key", "_ed25519", "_ed25519.pub")  # what keygen_files writes for one stem


def _key_pairs(known: list[str], factions: dict[str, dict[str, Any]], seated: dict[str, list[str]],
               later: list[str] | set[str]) -> dict[str, tuple[str | None, list[str]]]:
    """The key pairs `--keys-dir` makes, by file stem: one for each player (NAME <EMAIL> of
    `seated`), for those of their factions without a key of their own, and one for each
    faction that has no player; the stem, and the SSH comment of the key, is the factions
    joined with '+' ("south+north"; a player of one faction: that faction's name), so that
    the player and the moderator can tell whose key it is. {stem: (player, factions)}"""
    pairs: dict[str, tuple[str | None, list[str]]] = {}
    done: set[str] = set()
    for faction in known:
        if "age" in factions[faction] or faction in later or faction in done:
            continue
        holder = next((p for p, fs in seated.items() if faction in fs), None)
        group = [f for f in (seated[holder] if holder is not None else [faction])
                 if "age" not in factions[f] and f not in later]
        done.update(group)
        pairs["+".join(group)] = (holder, group)
    return pairs


OVERRIDES_FILE = "an overrides file (YAML: overrides: {FILE: {KEY: VALUE, ...}})"


def read_overrides(path: Path) -> dict[str, Any]:
    """A campaign's corrections to the game's data, from `path`: `overrides: {FILE: {...}}`,
    FILE a data file of the game (tables, units, map...). Checked by load_data."""
    doc = yamlio.load_untrusted(yamlio.read_input(path, what=OVERRIDES_FILE), str(path))
    data = doc.data
    if not isinstance(data, dict) or set(data) != {"overrides"} or not isinstance(data["overrides"], dict) \
            or not data["overrides"]:
        raise InputFileError(f"{doc.where(())}: expected 'overrides:' alone at the top, a mapping of "
                             "the game's data files to their corrections (overrides: {tables: "
                             "{...}}); see the game's README, 'Campaign overrides'")
    return dict(data["overrides"])


def overridden(overrides: dict[str, Any]) -> list[str]:
    """What a campaign's overrides correct, as FILE.KEY (tables.crt, game.revolution)."""
    return [f"{name}.{key}" if isinstance(patch, dict) and patch else str(name)
            for name, patch in sorted(overrides.items())
            for key in (sorted(patch) if isinstance(patch, dict) and patch else [""])]


# ---------------------------------------------------------------------------------------
# status


def status(root: Path, campaign: Campaign | None = None) -> dict[str, Any]:
    """Where the campaign stands. A command that has just held the lock passes its own
    `campaign`: opened, checked and put right once for the whole command."""
    campaign = campaign if campaign is not None else Campaign.settled(root, finish)
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
        # factions whose orders need no signature: hot-seat, or no key registered
        "unsigned_ok": sorted(f for f, v in campaign.factions().items()
                              if v.get("unsigned_ok", "ssh" not in v) and not v.get("dormant")),
        # powers that enter mid-game and have no player yet
        "unseated": sorted(campaign.unseated()),
        # how the set-up and the shuffles are keyed
        "hidden_draws": hidden_draws(state, contributors(campaign, state)),
        # the game's data this campaign corrects (campaign.yaml overrides, recorded at new)
        "overrides": overridden(campaign.config.get("overrides") or {}),
        # what each awaited faction's file must still cover (pieces to place, arrivals)
        "todo": _todo(campaign, state, [f for f in phase.awaiting if f not in pending]),
    }
    if phase.over:
        out["result"] = phase.result
    if campaign.config.get("deadlines") and not phase.over:

        due = deadline_of(campaign, state, phase)
        if due:
            out["deadline"] = due["deadline"]
            out["remind_at"] = due["remind_at"]
            if due["grace_until"] != due["deadline"]:
                out["grace_until"] = due["grace_until"]
            if due["absent"]:
                out["absent"] = due["absent"]
    return out


# ---------------------------------------------------------------------------------------
# check / apply / resolve


def _todo(campaign: Campaign, state: dict[str, Any], awaiting: list[str]) -> dict[str, list[str]]:

    found = {f: todo(campaign.game, campaign.data, state["game"], f) for f in awaiting}
    return {f: lines for f, lines in found.items() if lines}


def signing(campaign: Campaign, state: dict[str, Any]) -> Signing:
    """What check_orders needs to verify signatures in this campaign, now."""
    factions = campaign.factions()
    return Signing(
        keys={f: v.get("ssh") for f, v in factions.items()},
        unsigned_ok={f: bool(v.get("unsigned_ok", "ssh" not in v)) for f, v in factions.items()},
        heads=list(state.get("heads", [state["head"]])),
        pending=dict(state.get("pending", {})),
        salt_commits=dict(state.get("salt_commits", {})),
    )


def _check(campaign: Campaign, state: dict[str, Any], paths: list[Path], *,
           draft: bool = False, on_behalf: bool = False, key: Path | None = None) -> list[Checked]:

    phase = campaign.phase(state)
    sees = None
    if sees_sealed(campaign.game):  # rules that check against sealed values
        if key is not None:

            sees = sealed.opener(campaign.id, load_identity_file(key))
        elif not draft:  # the referee's apply: every sealed value
            sees = sealed.opener(campaign.id, campaign.referee_identities())
    factions = list(campaign.factions())
    sig = signing(campaign, state)
    sig.draft = draft
    must_sign = {f for f, ok in sig.unsigned_ok.items() if not ok}
    if on_behalf:  # the referee enters orders a player gave otherwise: no signature to ask
        sig.unsigned_ok = {f: True for f in sig.unsigned_ok}
    checked = [
        check_orders(
            p, campaign_id=campaign.id, phase=phase, game=campaign.game, data=campaign.data,
            game_state=state["game"], factions=factions, signing=sig, players=campaign.players(),
            unseated=campaign.unseated(), sees=sees,
        )
        for p in paths
    ]
    if is_pre_game(state["game"]):
        for c in checked:
            _contributes(c, must_sign, draft)
    return checked


def _contributes(c: Checked, must_sign: set[str], draft: bool) -> None:
    """A contribution of a faction that signs its orders carries a salt: without one it would
    be taken and add nothing to the key of the hidden draws (docs/fairness.md). `pbem sign`
    adds it; a file signed with ssh-keygen alone has none. Before signing (`check`), nothing
    is missing yet."""
    if c.doc is None or (draft and not signature_path(c.path).exists()):
        return
    saltless = [p.faction for p in c.parts if p.salt is None and p.faction in must_sign]
    if not saltless:
        return
    c.problems.append(
        f"{c.doc.where(())}: the contribution of {' and '.join(saltless)} has no salt, so it "
        "would add nothing to the key of the hidden draws: sign the file in your clone with "
        "'pbem sign FILE --key YOUR_ed25519', which adds it, or add a line 'salt: ' with 64 "
        "random hex digits (openssl rand -hex 32) before signing with ssh-keygen")
    c.notes = [n for n in c.notes if "no dice salt of" not in n]


def check(root: Path, paths: list[Path], key: Path | None = None) -> list[Checked]:
    """What `apply` would say, but for a file not signed yet: a player checks, then signs.
    With `key` (the player's identity file), the rules also check what only the player's
    sealed values decide (which of his face-down units may go where). A file without
    problems may still have warnings (`Checked.warnings`): orders that will do nothing."""
    campaign = Campaign.settled(root, finish)
    state = campaign.state()
    checked = _check(campaign, state, paths, draft=True, key=key)
    _behind(campaign, state, checked)
    if key is None and sees_sealed(campaign.game):

        owners = {n.get("owner") for n in sealed.find_sealed(state["game"])}
        for c in checked:  # the rules that read sealed values were left out: say so, to those
            if not set(c.factions) & owners:  # who have some (the Chechen, not the Russian)
                continue
            c.notes.append(f"{c.path}: the rules also check what only your sealed values decide "
                           "(which of your face-down units may go where): add --key YOUR.key to "
                           "check those as the referee will")
    return checked


def _behind(campaign: Campaign, state: dict[str, Any], checked: list[Checked]) -> None:
    """A file refused whose `head:` this clone has never had: the clone is behind the
    referee's (the file came with a later report), so its check is not the referee's. Said
    once per file, with the way forward."""

    known: set[str] | None = None
    for c in checked:
        if c.ok:
            continue
        try:
            head = yamlio.load_untrusted(c.raw_bytes, str(c.path)).data.get("head")
        except (PbemError, AttributeError):
            continue
        if not isinstance(head, str) or not head or head in state.get("heads", []):
            continue
        if known is None:
            known = {entry_hash(e) for e in campaign.entries()}
        if not any(k.startswith(head) for k in known):
            c.notes.append(f"{c.path}: the log head it names ({head[:16]}...) is not in this "
                           f"clone, which is at step {state['seq']}: the file was written after "
                           "it. Bring the clone up to date (git pull) and check again; the "
                           "referee checks against the latest step")


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
    # the orders recorded, yet legal ones that will have no effect or waste something
    # (FILE:LINE: WARNING: ..., from the game's `warnings`)
    warnings: list[str] = field(default_factory=list)


def apply(root: Path, paths: list[Path], *, on_behalf: str | None = None) -> Applied:
    """Validate every file; if all are good record them, then resolve complete phases.

    `on_behalf` (a reason) records orders a player gave by another channel (phone, forum)
    as the referee entered them, unsigned: the step says so, with the reason, to everyone."""
    if on_behalf is not None and not on_behalf.strip():
        raise UsageError("--on-behalf must say how the player gave these orders, and why")
    campaign = Campaign.open(root)
    with campaign.locked(finish=finish) as recovered:
        state = campaign.state()
        checked = _check(campaign, state, paths, on_behalf=on_behalf is not None)
        if not all(c.ok for c in checked):
            raise _rejected(checked)
        seen: dict[str, Path] = {}
        for c in checked:
            for faction in c.factions:
                if faction in seen:
                    where = c.doc.where(("faction",)) if c.doc else str(c.path)
                    raise Rejected(f"{where}: a second orders file for {faction} "
                                   f"(the first is {seen[faction]}); send one per faction, or "
                                   "one for all of a player's factions")
                seen[faction] = c.path
        result = Applied(recovered=recovered, warnings=[w for c in checked for w in c.warnings])
        with campaign.intending({"advance": True, "nmr": False}):
            for c in checked:
                state = _record_orders(campaign, state, c,
                                       on_behalf.strip() if on_behalf is not None else None)
                result.recorded += [{"faction": f, "file": str(c.path), "seq": state["seq"]}
                                    for f in c.factions]
            result.resolved = advance(campaign, state)
    result.status = status(root, campaign)
    return result


def _record_orders(campaign: Campaign, state: dict[str, Any], c: Checked,
                   on_behalf: str | None = None) -> dict[str, Any]:
    """One step for one orders file: a record in `pending` for each faction it is for.

    A file for several factions of one player is one step too: each faction's record holds
    its own part (body, salts, secret) and names the same file, stored as received, so that
    its signature can be checked again by anyone (audit)."""

    phase = campaign.phase(state)
    seq = state["seq"] + 1
    names = [p.faction for p in c.parts]
    replaced = [f for f in names if f in state.get("pending", {})]
    stem = f"orders/t{phase.turn:02d}-{phase.name}-{'+'.join(names)}-{seq:06d}"
    extra: dict[str, str] = {}
    records: dict[str, dict[str, Any]] = {}
    whats: list[str] = []
    for part in c.parts:
        body, faction = part.body, part.faction
        count = len(body["orders"])
        record: dict[str, Any] = {
            "head_index": c.head_index,
            "signed": c.doc.data.get("signed") if c.signature and c.doc else None,
            "sig_digest": hashlib.sha256(c.signature.encode()).hexdigest() if c.signature else None,
            "salt_next": part.salt_next,
            "file": f"{stem}.yaml",
        }
        if sealed_phase(phase):
            # the file itself joins orders/ when the phase resolves and its opening is published
            ctx = sealed.context(campaign.id, "orders", f"t{phase.turn}:{phase.name}", phase.turn,
                                 faction)
            value = {"body": body, "file": c.raw, "signature": c.signature, "salt": part.salt,
                     "secret": part.secret}
            record["sealed"] = sealed.seal(ctx, value, sealed_to(campaign, faction))
            what = "sealed until the phase resolves"
        elif part.secret is not None:
            # public orders with a secret part: the secret is sealed until the rules reveal
            # it, and the file as sent (which holds it) until the turn ends. (A file for
            # several factions is always for a phase that awaits several, so sealed above.)
            record["body"] = body
            record["salt"] = part.salt
            recipients = sealed_to(campaign, faction)
            ident = f"t{phase.turn}:{phase.name}:{faction}:{seq}"
            record["secret"] = sealed.seal(
                sealed.context(campaign.id, "orders-secret", ident, phase.turn, faction),
                part.secret, recipients)
            record["file_sealed"] = sealed.seal(
                sealed.context(campaign.id, "orders-file", ident, phase.turn, faction),
                {"file": c.raw, "signature": c.signature}, recipients)
            if phase.keep_secret:  # face-down units: the file waits for unseal
                record["keep_sealed"] = True
            what = f"{count} order{'s' if count != 1 else ''}, a sealed part"
        else:
            record["body"] = body
            record["salt"] = part.salt
            extra[f"{stem}.yaml"] = c.raw
            if c.signature:
                extra[f"{stem}.yaml.sig"] = c.signature
            what = f"{count} order{'s' if count != 1 else ''}"
        records[faction] = {k: v for k, v in record.items() if v is not None}
        whats.append(what)
    if len(names) == 1:
        summary = (f"{names[0]} orders for {phase.name} ({whats[0]}"
                   + (", signed" if c.signature else "") + ")"
                   + (", replacing the earlier file" if replaced else ""))
        fields: dict[str, Any] = {"faction": names[0], "pending": records[names[0]]}
    else:
        summary = (f"orders of {' and '.join(names)} for {phase.name} in one file "
                   f"({'; '.join(dict.fromkeys(whats))}" + (", signed" if c.signature else "") + ")"
                   + (f", replacing the earlier orders of {' and '.join(replaced)}"
                      if replaced else ""))
        fields = {"factions": names, "pending": records}
    if on_behalf is not None:
        summary += f", entered by the referee: {on_behalf}"
    entry = make_entry(seq=seq, prev=state["head"], kind="orders", turn=phase.turn,
                       phase=phase.name, summary=summary, on_behalf=on_behalf, **fields)
    new_state = clone(state)
    new_state["pending"].update(recorded(entry))
    campaign.write_step(entry, new_state, f"step {seq}: {summary}", extra=extra)
    return campaign.state()



def contributors(campaign: Campaign, state: dict[str, Any]) -> list[str] | None:
    """The factions the contribution round awaited (the `new` step names them), once it is
    resolved; None for a campaign without the round or still in it."""
    if "contributions" not in state:
        return None
    return [str(f) for f in campaign.entry(1).get("contribute") or []]


def resolve(root: Path, *, nmr: bool = False, without_salts: bool = False) -> Applied:
    """Resolve the awaited phase; with `nmr`, factions without orders get their defaults.
    The contribution round is never resolved without a salt unless the moderator says so
    (`without_salts`): without every salt, the set-up would be keyed by the referee's
    secret, which the referee could have chosen (docs/fairness.md, "Hidden draws")."""
    campaign = Campaign.open(root)
    with campaign.locked(finish=finish) as recovered:
        state = campaign.state()
        phase = campaign.phase(state)
        if phase.over:
            raise Rejected("the game is over; nothing to resolve")
        missing = [f for f in phase.awaiting if f not in state.get("pending", {})]
        in_round = is_pre_game(state["game"])
        if without_salts and not in_round:
            raise UsageError(f"--without-salts is for the contribution round only; this is "
                             f"phase {phase.name}")
        if in_round and missing and not without_salts:
            raise Rejected(
                f"the contribution round still awaits the salts of {', '.join(missing)}: "
                "nothing hidden is drawn until every salt is in. To draw the set-up without "
                "them, say so: pbem resolve --without-salts (status, every report and the "
                "audit will name them)")
        nmr = nmr or without_salts
        if missing and not nmr:
            raise Rejected(
                f"phase {phase.name} still awaits {', '.join(missing)}; "
                "wait for their orders or use --nmr to resolve with their default orders"
            )
        with campaign.intending({"advance": True, "nmr": True}):
            result = Applied(recovered=recovered, resolved=advance(campaign, state, nmr=True))
    result.status = status(root, campaign)
    return result


# ---------------------------------------------------------------------------------------
# bot


def bot_salt(campaign_id: str, faction: str, committed: str | None, seq: int) -> str:
    """The bot's salt for a file: the one that opens what the faction committed to last
    (it finds it again on its own public chain), or the first of that chain. Predictable:
    used only where the bot or an NMR policy writes the orders (docs/fairness.md)."""

    chain = randomness.bot_salts(campaign_id, faction)
    if committed is None:
        return next(chain)
    for salt in itertools.islice(chain, seq + 3):  # one salt per orders file at most
        if randomness.salt_commitment(salt) == committed:
            return salt
    raise Rejected(f"{faction} committed to a salt of its own last time (salt_next): the bot "
                   "cannot know it; sign the file with 'pbem sign', which finds it")


def bot(root: Path, faction: str, seed: str | None = None, *, salts: bool = True,
        template: bool = False) -> dict[str, Any]:
    """Legal orders for the awaited decision, as a complete orders file (data). With `salts`
    the bot's own (predictable) dice salts, for orders the bot itself sends (the demo, NMR,
    tests); without, for a player to fill in and sign (`pbem sign` adds the player's).
    A `template` is what a player is mailed to start from (the game's `template`: their
    own standing instructions, no choice they did not make), with no salts."""

    campaign = Campaign.settled(root, finish)
    state = campaign.state()
    phase = campaign.phase(state)
    factions = list(campaign.factions())
    if faction not in factions:

        raise UsageError(f"unknown faction {faction!r}{suggest(faction, factions)}; "
                         f"factions: {', '.join(factions)}")
    if faction not in phase.awaiting:
        raise Rejected(f"{faction} is not awaited in phase {phase.name} "
                       f"(awaiting: {', '.join(phase.awaiting) or 'nobody'})")
    # the bot's choices depend on the step, not on hashes, so a seeded demo replays the same
    key = hashlib.sha256(f"pbem-bot-v1\0{seed or ''}\0{state['seq']}\0{faction}".encode()).digest()
    make = campaign.game.template if template else campaign.game.bot
    body = make(campaign.data, state["game"], faction, KeyedRng(key))
    salts = salts and not template
    # a salt for the dice, and the commitment to the next one (docs/fairness.md); the bot
    # finds both on its public chain so that it can reveal next time what it commits to now
    if salts:
        salt = bot_salt(campaign.id, faction, state.get("salt_commits", {}).get(faction),
                        state["seq"])
        body["salt"] = salt
        body["salt_next"] = randomness.salt_commitment(randomness.bot_salt_after(salt))
    return {
        "campaign": campaign.id,
        "turn": phase.turn,
        "phase": phase.name,
        "faction": faction,
        "head": state["head"],
        **body,
    }


def bot_several(root: Path, factions: list[str], seed: str | None = None, *,
                salts: bool = True, template: bool = False) -> dict[str, Any]:
    """One orders file for several factions of one player: the bot's orders of each under
    its name, and each faction's own salts (mappings by faction, docs/fairness.md)."""
    campaign = Campaign.settled(root, finish)
    players = campaign.players()
    names = list(dict.fromkeys(factions))
    files = {f: bot(root, f, seed=seed, salts=salts and not template, template=template)
             for f in names}  # each known and awaited
    seats = {players.get(f) for f in names}
    if len(seats) > 1 or None in seats:
        who = ", ".join(f"{f}: {players.get(f) or 'hot-seat, no player'}" for f in names)
        raise Rejected(f"{' and '.join(names)} are not all played by one player ({who}); "
                       "one orders file may name several factions only if one player plays them")
    first = files[names[0]]
    out: dict[str, Any] = {k: first[k] for k in ("campaign", "turn", "phase")}
    out["faction"] = names
    out["head"] = first["head"]
    out["orders"] = {f: d.get("orders") or [] for f, d in files.items()}
    for key in ("standing", "secret"):
        parts = {f: d[key] for f, d in files.items() if d.get(key)}
        if parts:
            out[key] = parts
    if salts and not template:
        out["salt"] = {f: d["salt"] for f, d in files.items()}
        out["salt_next"] = {f: d["salt_next"] for f, d in files.items()}
    return out


# ---------------------------------------------------------------------------------------
# log / undo / adjust


def log(root: Path) -> list[dict[str, Any]]:
    campaign = Campaign.settled(root, finish)
    out = []
    for entry in campaign.entries():
        out.append({
            "seq": entry["seq"],
            "turn": entry["turn"],
            "phase": entry["phase"],
            "type": entry["type"],
            "faction": entry.get("faction"),
            "factions": entry.get("factions") or ([entry["faction"]] if entry.get("faction") else []),
            "summary": entry["summary"],
            "events": [campaign.game.summary(campaign.data, e) for e in entry.get("events", [])],
        })
    return out


def _in_force(campaign: Campaign) -> list[int]:
    """Steps that an undo may still take back, oldest first."""
    return undone_steps(list(campaign.entries()))[0]


def undo(root: Path, reason: str) -> dict[str, Any]:
    if not reason.strip():
        raise UsageError("--reason must say why the step is taken back")
    campaign = Campaign.open(root)
    with campaign.locked(finish=finish):
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
        campaign.write_step(entry, after_undo(before, state), f"step {seq}: {summary}")
    return {"undone": target, "seq": seq, **status(root, campaign)}


def seat(root: Path, factions: list[str], reason: str, *, player: str | None = None,
         key: Path | None = None, hot_seat: bool = False) -> dict[str, Any]:
    """A recorded change of who plays factions: a new player (with their key card), a new key
    for the same player, or back to hot-seat. campaign.yaml and the log say the same from
    then on; the step is signed and shown to every player (`pbem log`, audit)."""

    if not reason.strip():
        raise UsageError("--reason must say why the seat changes")
    if hot_seat == (player is not None):
        raise UsageError("give --player \"NAME <EMAIL>\" (with --key CARD for a signing player), "
                         "or --hot-seat")
    campaign = Campaign.open(root)
    known = list(campaign.factions())
    for faction in factions:
        if faction not in known:

            raise UsageError(f"unknown faction {faction!r}{suggest(faction, known)}; "
                             f"factions: {', '.join(known)}")
    new: dict[str, Any]
    if hot_seat:
        new = {"player": "hot-seat", "email": "", "hotseat": True}
    else:
        assert player is not None
        _, pname, email = parse_player(f"{factions[0]}={player}")
        new = {"player": pname, "email": email, "hotseat": False}
    if key is not None:
        recipient, ssh = read_key_card(key)
        new.update(age=recipient, ssh=ssh, unsigned_ok=False)
    with campaign.locked(finish=finish):
        state = campaign.state()
        config = seated(campaign, {f: new for f in factions})
        settings = protected(config)
        seq = state["seq"] + 1
        phase = campaign.phase(state)
        who = "hot-seat" if hot_seat else new["player"]
        summary = (f"seat {', '.join(factions)}: {who}"
                   + (" with a new key" if key is not None else "") + f": {reason.strip()}")
        entry = make_entry(seq=seq, prev=state["head"], kind="seat", turn=phase.turn,
                           phase=phase.name, summary=summary, reason=reason.strip(),
                           seats={f: settings["factions"][f] for f in factions})
        kept_state = {k: v for k, v in state.items() if k not in ("seq", "head")}
        campaign.write_step(entry, {**kept_state, "settings": settings}, f"step {seq}: {summary}",
                            extra={CONFIG: config_text(config)})
    return {"seq": seq, "summary": summary, **status(root)}


def override(root: Path, path: Path, reason: str) -> dict[str, Any]:
    """A recorded change of the campaign's corrections to the game's data (`new --override`):
    the file's `overrides:` replace the ones in force (`overrides: {}` plays the game's own
    data again), checked against the game's schemas and rules; campaign.yaml and the log say
    the same from then on, `audit` replays the steps before with the data they were played
    with, and status and every report name what the campaign corrects."""
    if not reason.strip():
        raise UsageError("--reason must say why the campaign's data changes")
    doc = yamlio.load_untrusted(yamlio.read_input(path, what=OVERRIDES_FILE), str(path))
    if not isinstance(doc.data, dict) or set(doc.data) != {"overrides"} \
            or not isinstance(doc.data["overrides"], dict):
        raise InputFileError(f"{doc.where(())}: expected 'overrides:' alone at the top, a mapping "
                             "of the game's data files to their corrections ({} for none)")
    new = dict(doc.data["overrides"])
    campaign = Campaign.open(root)
    load_data(campaign.config["game"], new or None, source=path)  # checked before anything is written
    with campaign.locked(finish=finish):
        state = campaign.state()
        if new == (campaign.config.get("overrides") or {}):
            raise UsageError(f"{path}: these are the overrides in force already; nothing to record")
        config = {**campaign.config, "overrides": new}
        settings = protected(config)
        seq = state["seq"] + 1
        phase = campaign.phase(state)
        changed = ", ".join(overridden(new)) or "none: the game's own data"
        summary = f"the campaign's corrections to the game's data now: {changed}: {reason.strip()}"
        entry = make_entry(seq=seq, prev=state["head"], kind="override", turn=phase.turn,
                           phase=phase.name, summary=summary, reason=reason.strip(), overrides=new)
        kept_state = {k: v for k, v in state.items() if k not in ("seq", "head")}
        campaign.write_step(entry, {**kept_state, "settings": settings}, f"step {seq}: {summary}",
                            extra={CONFIG: config_text(config)})
    return {"seq": seq, "summary": summary, **status(root)}


def adjust(root: Path, path: Path, reason: str) -> dict[str, Any]:
    """A referee correction: a YAML list of events (or {events: [...]}) applied as they are."""
    if not reason.strip():
        raise UsageError("--reason must say why the adjustment is made")
    campaign = Campaign.open(root)
    raw = yamlio.read_input(path, what="an adjustment file (YAML: a list of events)")
    doc = yamlio.load_untrusted(raw, str(path))
    events = doc.data.get("events") if isinstance(doc.data, dict) else doc.data
    base = ("events",) if isinstance(doc.data, dict) else ()
    if not isinstance(events, list) or not events:
        raise InputFileError(f"{doc.where(base)}: expected a list of events (or events: [...])")
    with campaign.locked(finish=finish):
        state = campaign.state()
        game_state = state["game"]
        # a correction that opens or seals a hidden value is recorded as the game turns it
        # (the value and its opening published with the step; `audit` replays it)
        secrets = referee_secrets(campaign, referee_secret(campaign), state.get("contributions"))
        recorded: list[dict[str, Any]] = []
        for i, event in enumerate(events):
            if not isinstance(event, dict) or "type" not in event:
                raise InputFileError(f"{doc.where((*base, i))}: an event is a mapping with a 'type'")
            try:
                for made in normal(corrected(campaign.game, campaign.data, game_state, event, secrets)):
                    game_state = campaign.game.apply(campaign.data, game_state, made)
                    recorded.append(made)
                # the game must go on from what each correction makes (a phase it knows)
                campaign.game.phase(campaign.data, game_state)
            except (KeyError, ValueError, TypeError, LookupError) as exc:
                raise InputFileError(f"{doc.where((*base, i))}: cannot apply this event: {exc}") from None
        phase = campaign.phase(state)
        seq = state["seq"] + 1
        summary = f"adjustment ({len(events)} event{'s' if len(events) != 1 else ''}): {reason.strip()}"
        seats, files, seated_state = entered(campaign, state, game_state)
        if seats:
            summary += "; " + entered_summary(seats)
        entry = make_entry(seq=seq, prev=state["head"], kind="adjust", turn=phase.turn,
                           phase=phase.name, summary=summary, reason=reason.strip(),
                           events=recorded, opened=secrets.openings or None, seats=seats or None)
        # the engine's other fields (sealed orders, salts, heads) stay as they were: the
        # snapshot is exactly the fold of the log, which `audit` checks
        kept = {k: v for k, v in seated_state.items() if k not in ("seq", "head")}
        campaign.write_step(entry, {**kept, "game": game_state}, f"step {seq}: {summary}",
                            extra=files)
    return {"seq": seq, **status(root)}


# ---------------------------------------------------------------------------------------
# audit


def audit(root: Path, *, final: bool = False, witnesses: list[Path] | None = None,
          key: Path | None = None) -> dict[str, Any]:
    """`key`: a player's identity file: the draws that concern him alone are recomputed with
    his own draw key and checked against what his key opens, before the game ends."""
    # the audit alone is imported where it is used: it adds about 10 ms to every command
    # that imports api (python -X importtime -c "import pbem.api, pbem.audit")
    from pbem.audit import audit as run_audit

    own = None
    if key is not None:

        own = load_identity_file(key)
    return run_audit(root, final=final, witnesses=witnesses, own=own)


# ---------------------------------------------------------------------------------------
# sign / reveal


@dataclass
class Signed:
    signature: Path
    salts: dict[str, str] = field(default_factory=dict)  # faction -> "added" | a note
    notes: list[str] = field(default_factory=list)
    key_of: list[str] | None = None  # the factions whose key it is (None: no campaign here)
    no_salts: str | None = None  # why no dice salt was added, said loudly


def sign(orders: Path, key: Path, root: Path | None = None, *, force: bool = False) -> Signed:
    """Write ORDERS.sig: an SSHSIG by `key` in the pbem-orders-v1 namespace.

    Run in (or with -C) the player's clone of the campaign, it first adds the dice salts of
    each faction the file names, when the file has none (docs/fairness.md "Salts"): the salt
    that opens what the faction's last orders committed to, and the commitment to the next
    one, both derived from the player's own key, so nothing needs keeping and any machine
    with that key finds the same ones. A salt written in the file is left as it is.

    In a clone it also says whose key it is, and refuses a key that is not the key of every
    faction the file orders (`force`: a key the player shares with another faction)."""

    private = load_ssh_private_file(key)
    raw = yamlio.read_input(orders, what="an orders file (YAML text)")  # a regular file only
    doc = yamlio.load_untrusted(raw, str(orders))
    if not isinstance(doc.data, dict) or not doc.data.get("head"):
        raise InputFileError(f"{doc.where(())}: signed orders name the log head you saw: add "
                             "'head:' with the value 'pbem status' shows (pbem bot writes it)")
    out = Signed(signature_path(orders))
    if root is not None and (root / CONFIG).is_file():
        _whose_key(Campaign.open(root), private, doc, key, force, out)
    raw = _stamped(orders, raw)
    doc = yamlio.load_untrusted(raw, str(orders))
    if "salt" not in doc.data and "salt_next" not in doc.data:
        seed = private.private_bytes(serialization.Encoding.Raw, serialization.PrivateFormat.Raw,
                                     serialization.NoEncryption())
        raw = _with_salts(orders, raw, doc, seed, root, out)
    yamlio.write_atomic(out.signature, sshsig.sign(private, raw, SIGNATURE_NAMESPACE))
    return out


def _whose_key(campaign: Campaign, private: Any, doc: yamlio.Doc, key: Path, force: bool,
               out: Signed) -> None:
    """Which factions `private` is the key of; refused (before anything is written) when a
    faction the file orders has another key in campaign.yaml, unless `force`."""

    mine = sshsig.public_line(private.public_key()).split()[:2]
    seats = campaign.factions()
    out.key_of = sorted(f for f, seat in seats.items() if str(seat.get("ssh", "")).split()[:2] == mine)
    named = doc.data.get("faction")
    ordered = [str(f) for f in named] if isinstance(named, list) else [str(named)]
    others = [f for f in ordered if f in seats and seats[f].get("ssh") and f not in out.key_of]
    for faction in ordered:
        if faction in seats and not seats[faction].get("ssh"):
            out.notes.append(f"{faction} has no key in this campaign: its orders are checked "
                             "by the sender's address, not by this signature")
    if others and not force:
        whose = ("the key of " + ", ".join(out.key_of)) if out.key_of else "the key of no faction"
        raise Rejected(f"{key}: {whose} of this campaign, not of {', '.join(others)}, which "
                       f"{doc.source} orders; sign with {', '.join(others)}'s key (or --force "
                       "for a key that player shares between factions)")


def _stamped(orders: Path, raw: bytes) -> bytes:
    """The file with `signed:` the time of signing (UTC), written back: of two files naming
    the same head, the one signed later is the correction (ORDERS.md)."""

    stamp = datetime.now(UTC).strftime("%Y-%m-%dT%H:%M:%S.%fZ")
    text = raw.decode("utf-8")
    line = f"signed: '{stamp}'"
    if re.search(r"^signed:.*$", text, flags=re.M):
        text = re.sub(r"^signed:.*$", line, text, count=1, flags=re.M)
    else:
        text += ("" if text.endswith("\n") else "\n") + line + "\n"
    try:
        ok = isinstance(yamlio.load_untrusted(text, str(orders)).data, dict)
    except InputFileError:
        ok = False
    if not ok:
        return raw  # not a block mapping: signed as it is (it cannot then replace by time)
    yamlio.write_atomic(orders, text)
    return text.encode("utf-8")


def _with_salts(orders: Path, raw: bytes, doc: yamlio.Doc, signing_seed: bytes,
                root: Path | None, out: Signed) -> bytes:
    """The file with `salt:` and `salt_next:` added at its end (written back), or as it was
    with a note saying why not."""

    named = doc.data.get("faction")
    factions = [str(f) for f in named] if isinstance(named, list) else [str(named)]
    salt_key = randomness.player_salt_key(signing_seed)
    salts: dict[str, str] = {}
    nexts: dict[str, str] = {}
    if root is None or not (root / CONFIG).is_file():
        cid = doc.data.get("campaign")
        if doc.data.get("phase") != PHASE or not isinstance(cid, str):
            out.no_salts = (f"no campaign in {root or '.'}: NO DICE SALT of yours was added, so "
                            "this phase's dice mix none of yours; run pbem sign in your clone of "
                            "the campaign (or with -C DIR) to add them")
            return raw
        # a contribution signed outside a clone (a player by mail alone): the first salts of
        # the player's chain (docs/fairness.md section 7), which only his key makes; his next
        # file, signed in a clone, finds the one they commit to
        for faction in factions:
            salts[faction] = randomness.player_salt(salt_key, cid, faction, 0)
            nexts[faction] = randomness.salt_commitment(randomness.player_salt(salt_key, cid, faction, 1))
        return _write_salts(orders, raw, factions, salts, nexts, out)
    campaign = Campaign.settled(root, finish)
    state = campaign.state()
    steps = int(state["seq"])
    for faction in factions:
        committed = state.get("salt_commits", {}).get(faction)
        if committed is None:
            salts[faction] = randomness.player_salt(salt_key, campaign.id, faction, 2 * steps)
        else:
            found = randomness.opening_salt(salt_key, campaign.id, faction, committed, steps)
            if found is None:
                out.notes.append(f"{faction}'s last orders committed to a salt that neither your "
                                 "key nor the bot made (one written by hand): add it as "
                                 "'salt:' yourself, or send the file without; this phase's dice "
                                 f"then have no salt of {faction}'s")
            else:
                salts[faction] = found
        nexts[faction] = randomness.salt_commitment(
            randomness.player_salt(salt_key, campaign.id, faction, 2 * steps + 1))
    return _write_salts(orders, raw, factions, salts, nexts, out)


def _write_salts(orders: Path, raw: bytes, factions: list[str], salts: dict[str, str],
                 nexts: dict[str, str], out: Signed) -> bytes:
    """`salt:` and `salt_next:` added at the end of the file (written back)."""
    def one(values: dict[str, str]) -> str:  # quoted: YAML 1.1 reads 0123 as a number
        if len(factions) == 1:
            return f"'{next(iter(values.values()))}'"
        return "{" + ", ".join(f"{f}: '{v}'" for f, v in values.items()) + "}"
    text = raw.decode("utf-8")
    added = ("" if text.endswith("\n") else "\n") + (f"salt: {one(salts)}\n" if salts else "") \
        + f"salt_next: {one(nexts)}\n"
    new = (text + added).encode("utf-8")
    try:
        again = yamlio.load_untrusted(new, str(orders)).data
    except InputFileError:
        again = None
    if not isinstance(again, dict) or again.get("salt_next") is None:
        out.notes.append(f"{orders}: not a YAML block mapping that lines can be added to, so no "
                         "dice salts were added")
        return raw
    yamlio.write_atomic(orders, new.decode("utf-8"))
    out.salts = {f: "added" for f in salts}
    return new


def reveal(root: Path, key: Path) -> list[dict[str, Any]]:
    """Every sealed value in the log and the snapshot that opens with `key`, checked."""

    campaign = Campaign.settled(root, finish)
    identities = load_identity_file(key)
    found: list[dict[str, Any]] = []
    seen: set[str] = set()
    for entry in campaign.entries():
        for node in sealed.find_sealed(entry):
            if node["commitment"] in seen:
                continue
            seen.add(node["commitment"])
            try:
                opened = sealed.open_node(campaign.id, node, identities)
            except CryptoError:
                continue  # someone else's secret
            found.append({"kind": opened.kind, "id": opened.id, "owner": opened.owner,
                          "seq": entry["seq"], "value": opened.value,
                          "commitment": opened.commitment, "verified": opened.verified})
    return found


# ---------------------------------------------------------------------------------------
# unseal / dice


def unseal(root: Path, *, force: bool = False) -> dict[str, Any]:
    """End of game: publish the hidden secret (set-up draws, decks) and every opening.

    Before the game is over this would show what is still hidden, so it needs `force`.
    """

    campaign = Campaign.open(root)
    with campaign.locked(finish=finish):
        state = campaign.state()
        phase = campaign.phase(state)
        if not phase.over and not force:
            raise Rejected("the game is not over: unsealing now would show every player what is "
                           "still hidden (use --force to do it anyway)")
        if any(e["type"] == "unseal" for e in campaign.entries()):
            raise Rejected("the campaign was unsealed already")
        secret = referee_secret(campaign)
        pending = state.get("pending", {})
        # everything still sealed is published: orders not yet resolved, the files kept
        # sealed until the turn's end, and every value the rules sealed or that orders
        # carried in their secret part and the rules never opened (a battle never fought)
        _, openings = open_orders(campaign, pending)
        files_out = reveal_files(campaign, sealed_files(state))
        opened = _open_the_rest(campaign, list(campaign.entries()))
        files = published_files(pending, openings, files_out)
        seq = state["seq"] + 1
        summary = "unsealed: the hidden secret and every opening are published"
        entry = make_entry(seq=seq, prev=state["head"], kind="unseal", turn=phase.turn,
                           phase=phase.name, summary=summary,
                           hidden=randomness.hidden_secret(secret).hex(), revealed=openings or None,
                           files_revealed=files_out or None, opened=opened or None)
        campaign.write_step(entry, after_unseal(state, entry), f"step {seq}: {summary}", extra=files)
    return {"seq": seq, "revealed": sorted(openings), **status(root, campaign)}


def _open_the_rest(campaign: Campaign, entries: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """The openings of every node the rules or a correction sealed (hands, decks, a unit
    turned face down again) and of every secret part of orders (a battle's spending) not
    yet published."""

    done = {o["node"]["commitment"] for e in entries for o in e.get("opened") or []}
    nodes = {n["commitment"]: n for e in entries if e["type"] in ("resolve", "adjust")
             for n in sealed.find_sealed([e.get("events") or [], e.get("nmr_orders") or {},
                                          e.get("draw_keys") or {}])}
    nodes.update({r["secret"]["commitment"]: r["secret"] for e in entries if e["type"] == "orders"
                  for r in recorded(e).values() if "secret" in r})
    todo = [n for c, n in nodes.items() if c not in done]
    if not todo:
        return []
    opener = sealed.RefereeSecrets(campaign.id, campaign.referee_identities)
    for node in todo:
        opener.open(node)
    return opener.openings


def dice(root: Path) -> list[dict[str, Any]]:
    """Every die so far: label, sides, value and its state: `verified` (recomputed from the
    published seed and salts, or after unseal from the hidden secret), `hidden` (set-up
    draws before unseal) or `WRONG`."""
    from pbem.audit import dice_states  # imported here, as in `audit`

    campaign = Campaign.settled(root, finish)
    return dice_states(list(campaign.entries()), campaign.id)
