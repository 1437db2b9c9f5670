"""Orders files: load safely, check the header, hand the body to the game's validation.

Every problem is collected and reported at once as FILE:LINE: message.

A player of several factions may send one file for several of them: its header names
them as a list (`faction: [south, north]`) and `orders:`, `standing:` and `secret:` are
mappings by faction. The file is checked and signed as a whole, then split into one
`Part` per faction, so the game's rules see the orders of one faction at a time as they
do for a file of one faction.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from pbem import yamlio
from pbem.errors import InputFileError
from pbem.game import Game, GameData, Phase, order_warnings, sees_sealed
from pbem.names import suggest

HEADER_KEYS = ("campaign", "turn", "phase", "faction", "head", "signed", "salt", "salt_next",
               "orders", "standing", "secret")
REQUIRED = ("campaign", "turn", "phase", "faction", "orders")
# in a file for several factions these are mappings by faction
BODY_KEYS = ("orders", "standing", "secret")


SIGNATURE_NAMESPACE = "pbem-orders-v1"


@dataclass
class Signing:
    """What the campaign knows to check signatures: each faction's ssh key, whether it may
    send unsigned orders, and the log heads a player may have seen in this phase."""

    keys: dict[str, str | None] = field(default_factory=dict)
    unsigned_ok: dict[str, bool] = field(default_factory=dict)
    heads: list[str] = field(default_factory=list)
    pending: dict[str, dict[str, Any]] = field(default_factory=dict)
    salt_commits: dict[str, str] = field(default_factory=dict)
    # `pbem check` before `pbem sign`: a missing signature is said, not a problem
    draft: bool = False


@dataclass
class Part:
    """The orders of one faction in a file: what the rules validate and resolve, and what
    is recorded for that faction. A file for several factions has one part per faction."""

    faction: str
    body: dict[str, Any]
    secret: Any = None  # sealed to the owner and the referee until the rules reveal it
    salt: str | None = None
    salt_next: str | None = None


@dataclass
class Checked:
    """An orders file after checking: its data, and every problem as FILE:LINE: message."""

    path: Path
    doc: yamlio.Doc | None
    problems: list[str] = field(default_factory=list)
    raw: str = ""
    signature: str | None = None
    head_index: int | None = None
    factions: list[str] = field(default_factory=list)  # as the header names them
    parts: list[Part] = field(default_factory=list)  # one per faction, once the header is good
    raw_bytes: bytes = b""  # the file as read, once: what its signature is checked over
    notes: list[str] = field(default_factory=list)  # worth saying, not wrong (FILE:LINE: ...)
    # legal orders that will have no effect or waste something (FILE:LINE: WARNING: ...),
    # from the game's optional `warnings`, asked only of a file without problems
    warnings: list[str] = field(default_factory=list)

    @property
    def ok(self) -> bool:
        return not self.problems

    @property
    def several(self) -> bool:
        """A file for several factions of one player (`faction: [south, north]`)."""
        return self.doc is not None and several(self.doc.data)

    def where(self, faction: str, path: yamlio.Path_) -> str:
        """FILE:LINE of a problem the game found at `path` in the orders of `faction`."""
        assert self.doc is not None
        if self.several:
            if not path:
                path = ("orders", faction)
            elif path[0] in BODY_KEYS:
                path = (path[0], faction, *path[1:])
        return self.doc.where(path)


def several(data: Any) -> bool:
    return isinstance(data, dict) and isinstance(data.get("faction"), list)


def _own(data: dict[str, Any], key: str, faction: str | None) -> Any:
    value = data.get(key)
    if several(data):
        return value.get(faction) if isinstance(value, dict) else None
    return value


def body_of(data: dict[str, Any], faction: str | None = None) -> dict[str, Any]:
    """The public part of the orders of `faction` in a file: its orders and standing
    instructions (the file's own, or its part of a file for several factions)."""
    return {"orders": _own(data, "orders", faction) or [],
            "standing": _own(data, "standing", faction) or {}}


def secret_of(data: dict[str, Any], faction: str | None = None) -> Any:
    """The secret part of the orders of `faction` in a file, or None."""
    return _own(data, "secret", faction)


ORDERS_FILE = "an orders file (YAML text)"
MAX_SIGNATURE_BYTES = 64 * 1024  # an SSHSIG of ed25519 is about 300 bytes


def read_orders(path: Path) -> yamlio.Doc:
    """The orders file at `path`, loaded safely; only a regular file is read (see
    yamlio.read_input). Raises InputFileError with FILE:LINE."""
    return yamlio.load_untrusted(yamlio.read_input(path, what=ORDERS_FILE), str(path))


def check_orders(
    path: Path,
    *,
    campaign_id: str,
    phase: Phase,
    game: Game,
    data: GameData,
    game_state: dict[str, Any],
    factions: list[str],
    signing: Signing | None = None,
    players: dict[str, str | None] | None = None,
    unseated: frozenset[str] = frozenset(),
    sees: Any = None,
) -> Checked:
    """Header checks, the signature, then the game's own validation; every problem at once.

    `players` gives who plays each faction (None: hot-seat): a file may name several
    factions only if one player plays them all. `unseated`: the factions nobody plays yet
    (powers that enter mid-game, not yet seated), whose orders nobody may send. `sees`: what
    opens the sealed values the checker may read (pbem.crypto.sealed.opener: the referee's key
    at apply, a player's at `check --key`), for a game whose rules check orders against them
    (`Game.sees_sealed`): only the values sealed to the file's own factions, and only once its
    signature is found good; before that the rules judge it on what is public."""
    try:
        raw = yamlio.read_input(path, what=ORDERS_FILE)
        doc = yamlio.load_untrusted(raw, str(path))
    except InputFileError as exc:
        return Checked(path, None, [exc.message])
    checked = Checked(path, doc, raw=raw.decode("utf-8"))
    checked.raw_bytes = raw
    problems = checked.problems
    data_ = doc.data
    if not isinstance(data_, dict):
        problems.append(f"{doc.where(())}: expected a mapping with keys {', '.join(REQUIRED)}")
        return checked
    for key in data_:
        if key not in HEADER_KEYS:
            hint = suggest(str(key), HEADER_KEYS)
            problems.append(
                f"{doc.where((key,))}: unknown key {key!r}{hint} "
                f"(expected: {', '.join(HEADER_KEYS)})"
            )
    for key in REQUIRED:
        if key not in data_:
            problems.append(f"{doc.where(())}: missing key {key!r}")
    typed = _check_header_types(checked, campaign_id, phase)
    if "campaign" in typed and data_["campaign"] != campaign_id:
        problems.append(
            f"{doc.where(('campaign',))}: these orders are for campaign {data_['campaign']!r}, "
            f"this campaign is {campaign_id!r}"
        )
    if "turn" in typed and data_["turn"] != phase.turn:
        problems.append(
            f"{doc.where(('turn',))}: orders for turn {data_['turn']!r}, but it is turn {phase.turn}"
        )
    if "phase" in typed and data_["phase"] != phase.name:
        problems.append(
            f"{doc.where(('phase',))}: orders for phase {data_['phase']!r}, "
            f"but the phase is {phase.name!r}"
        )
    names = _check_factions(checked, factions, phase, players, unseated)
    _check_bodies(checked, names)
    _check_own_words(checked, names, phase)
    salts = _check_salt(checked, names, signing)
    if problems:
        return checked
    checked.parts = [Part(f, body_of(data_, f), secret_of(data_, f), *salts[f]) for f in names]
    if signing is not None:
        _check_signature(checked, signing)
    if sees is not None and sees_sealed(game) and not problems:
        # judged against sealed values only once the file is known to be its factions' (its
        # signature theirs, or unsigned where that is allowed), and then only against theirs:
        # what the rules answer must never tell a sender what his key cannot open
        from pbem.crypto import sealed

        game_state = sealed.substitute(game_state, _theirs(sees, set(names)))
    bodies = {part.faction: _full(part) for part in checked.parts}
    for part in checked.parts:
        try:
            found = game.validate(data, game_state, part.faction, bodies[part.faction])
        except (TypeError, KeyError, ValueError, AttributeError, IndexError) as exc:
            # the last resort: hostile input the rules did not expect is a rejection, never a
            # crash (tests/engine/test_hostile_input.py fails when this is ever needed)
            problems.append(f"{checked.where(part.faction, ('orders',))}: {UNCHECKABLE} "
                            f"({type(exc).__name__}: {exc}); check the types of your orders "
                            "and standing instructions against the game's ORDERS.md")
            continue
        for problem in found:
            problems.append(f"{checked.where(part.faction, problem.path)}: {problem.message}")
    if not problems:
        _warn(checked, game, data, game_state, bodies)
    return checked


def _theirs(sees: Any, owners: set[str]) -> Any:
    """`sees` (a `value_of` for pbem.crypto.sealed.substitute) for the sealed values of
    `owners` alone: any other node stays sealed (LookupError), whoever holds the key."""

    def value_of(node: dict[str, Any]) -> Any:
        if node.get("owner") not in owners:
            raise LookupError(f"sealed {node.get('kind')} {node.get('id')} is not theirs")
        return sees(node)

    return value_of


def _full(part: Part) -> dict[str, Any]:
    """What the rules validate of a part: its body, and its secret part if any."""
    full = dict(part.body)
    if part.secret is not None:
        full["secret"] = part.secret
    return full


def _warn(checked: Checked, game: Game, data: GameData, game_state: dict[str, Any],
          bodies: dict[str, dict[str, Any]]) -> None:
    """The game's warnings on a file without problems: legal orders that will have no effect
    or waste something, each at its line. They never refuse the file."""
    for faction, body in bodies.items():
        try:
            found = order_warnings(game, data, game_state, faction, body)
        except (TypeError, KeyError, ValueError, AttributeError, IndexError) as exc:
            # said, not raised: the file is legal, only the look for waste failed
            checked.notes.append(f"{checked.where(faction, ('orders',))}: the rules could not "
                                 f"look for orders that do nothing ({type(exc).__name__}: {exc})")
            continue
        checked.warnings += [f"{checked.where(faction, w.path)}: WARNING: {w.message}"
                             for w in found]


UNCHECKABLE = "the rules could not check these orders"


def _check_header_types(checked: Checked, campaign_id: str, phase: Phase) -> set[str]:
    """Each header value of the right type, before any is compared or used: `turn` a whole
    number (not true/false, not 3.0), `campaign`, `phase` and `head` text (`faction` is
    checked with the factions, `salt` with the salts). Returns the keys that are present
    and well typed."""
    assert checked.doc is not None
    doc, data, problems = checked.doc, checked.doc.data, checked.problems
    good: set[str] = set()
    for key, expected in (("campaign", f"the campaign id as text (campaign: {campaign_id})"),
                          ("phase", f"the phase name as text (phase: {phase.name})"),
                          ("head", "the log head you saw, in hex digits (head: from pbem status)")):
        if key not in data:
            continue
        value = data[key]
        if key == "head" and value is None:
            continue  # no head given (an unsigned file may leave it empty)
        if isinstance(value, str) and value.strip() and (key != "head" or _HEAD.match(value)):
            good.add(key)
        else:
            problems.append(f"{doc.where((key,))}: '{key}' must be {expected}, not {shown(value)}")
    if "turn" in data:
        value = data["turn"]
        if isinstance(value, int) and not isinstance(value, bool):
            good.add("turn")
        else:
            problems.append(f"{doc.where(('turn',))}: 'turn' must be a whole number (turn: "
                            f"{phase.turn}), not {shown(value)}")
    return good


_HEAD = re.compile(r"^[0-9a-f]{6,64}$")
_SIGNED = re.compile(r"^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(?:\.\d{1,6})?Z$")


def shown(value: Any) -> str:
    """A YAML value as a message shows it: its type and (the start of) its value."""
    if value is None:
        return "nothing (null)"
    if isinstance(value, bool):
        return "true" if value else "false"
    kind = ("the whole number" if isinstance(value, int) else "the number" if isinstance(value, float)
            else "the text" if isinstance(value, str) else "a list" if isinstance(value, list)
            else "a mapping" if isinstance(value, dict) else type(value).__name__)
    text = repr(value)
    return f"{kind} {text if len(text) <= 60 else text[:57] + '...'}"


def _check_factions(checked: Checked, factions: list[str], phase: Phase,
                    players: dict[str, str | None] | None,
                    unseated: frozenset[str] = frozenset()) -> list[str]:
    """The factions the header names: one (`faction: south`), or several of one player, all
    awaited now (`faction: [south, north]`). Returns them as written, wrong ones included,
    so that the bodies are checked against what the header says."""
    assert checked.doc is not None
    doc, data, problems = checked.doc, checked.doc.data, checked.problems
    if "faction" not in data:
        return []
    named = data["faction"]
    paths: list[yamlio.Path_]
    if not isinstance(named, list):
        named, paths = [named], [("faction",)]
    elif not named:
        one, two = (factions + ["FACTION", "FACTION"])[:2]
        problems.append(f"{doc.where(('faction',))}: name the factions of these orders "
                        f"(faction: {one}, or faction: [{one}, {two}] for several of yours)")
        return []
    else:
        paths = [("faction", i) for i in range(len(named))]
    names: list[str] = []
    for faction, where in zip(named, paths, strict=True):
        if not isinstance(faction, str):
            problems.append(f"{doc.where(where)}: a faction is named as text (faction: "
                            f"{factions[0] if factions else 'FACTION'}, or faction: [FACTION, "
                            f"FACTION] for several of yours), not {shown(faction)}")
            continue
        if faction not in factions:
            hint = suggest(str(faction), factions)
            problems.append(f"{doc.where(where)}: unknown faction {faction!r}{hint} "
                            f"(factions: {', '.join(factions)})")
        elif faction in names:
            problems.append(f"{doc.where(where)}: {faction} is named twice")
            continue
        elif faction in unseated:
            problems.append(f"{doc.where(where)}: {faction} has no player yet (it enters later "
                            f"in the game): the moderator seats it first, with 'pbem seat "
                            f"{faction} --player \"NAME <EMAIL>\" --reason ...'")
        elif faction not in phase.awaiting:
            awaited = ", ".join(phase.awaiting) or "nobody"
            problems.append(f"{doc.where(where)}: {faction} is not awaited in phase {phase.name} "
                            f"(awaiting: {awaited})"
                            + ("; name only your factions that are awaited" if len(named) > 1 else ""))
        names.append(str(faction))
    known = [f for f in names if f in factions]
    if len(known) > 1 and players is not None:
        seats = {players.get(f) for f in known}
        if len(seats) > 1 or None in seats:
            who = ", ".join(f"{f}: {players.get(f) or 'hot-seat, no player'}" for f in known)
            problems.append(f"{doc.where(('faction',))}: one orders file may name several factions "
                            f"only if one player plays them all ({who}); send one file per player")
    checked.factions = names
    return names


def _check_bodies(checked: Checked, names: list[str]) -> None:
    """`orders` a list, `standing` and `secret` mappings; in a file for several factions
    each is a mapping by faction, with orders for every faction named and no others."""
    assert checked.doc is not None
    doc, data, problems = checked.doc, checked.doc.data, checked.problems
    if not checked.several:
        if "orders" in data and data["orders"] is not None and not isinstance(data["orders"], list):
            problems.append(f"{doc.where(('orders',))}: 'orders' must be a list (use [] for none)")
        for key in ("standing", "secret"):
            if key in data and data[key] is not None and not isinstance(data[key], dict):
                problems.append(f"{doc.where((key,))}: '{key}' must be a mapping")
        return
    header = f"faction: [{', '.join(names)}]"
    for key in BODY_KEYS:
        value = data.get(key)
        if value is None:
            continue
        if not isinstance(value, dict):
            problems.append(f"{doc.where((key,))}: in a file for several factions '{key}' is a "
                            f"mapping by faction ({key}: {{{names[0] if names else 'FACTION'}: "
                            "...})")
            continue
        for faction, part in value.items():
            if faction not in names:
                problems.append(f"{doc.where((key, faction))}: {key} of {faction!r}, which the "
                                f"header does not name ({header}){suggest(str(faction), names)}")
            elif key == "orders" and part is not None and not isinstance(part, list):
                problems.append(f"{doc.where((key, faction))}: the orders of {faction} must be a "
                                "list (use [] for none)")
            elif key != "orders" and part is not None and not isinstance(part, dict):
                problems.append(f"{doc.where((key, faction))}: '{key}' of {faction} must be a mapping")
        if key == "orders":
            for faction in names:
                if faction not in value:
                    problems.append(f"{doc.where(('orders',))}: no orders for {faction}, which the "
                                    f"header names: add '{faction}: [...]' under 'orders' ([] for "
                                    "none)")


# the fields pbem writes when it seals a value (pbem.crypto.sealed.seal): a player's file never
# holds them, since a rule that met one would take the value as sealed by pbem and checked
RESERVED = ("sealed", "commitment")


def _check_own_words(checked: Checked, names: list[str], phase: Phase) -> None:
    """What a player writes is his own: no field of pbem's sealing anywhere in his orders,
    standing instructions or secret part, and a secret part only in a phase that takes one,
    of the shape its schema gives (`Phase.secret`). The rules then see in a secret part only
    what a player may write, checked like the rest of his file."""
    assert checked.doc is not None
    doc, data, problems = checked.doc, checked.doc.data, checked.problems
    several_ = checked.several
    for faction in names if several_ else [""]:
        mine: yamlio.Path_ = (faction,) if several_ else ()  # a file for several: by faction
        for key in BODY_KEYS:
            for path, name in _reserved(_own(data, key, faction), (key, *mine)):
                problems.append(f"{doc.where(path)}: {name!r} is a field pbem writes when it seals "
                                "a value, never one of yours: write the value itself (pbem seals "
                                "your secret part when it records the file)")
        secret = _own(data, "secret", faction)
        if secret is None:
            continue
        where: yamlio.Path_ = ("secret", *mine)
        if phase.secret is None:
            problems.append(f"{doc.where(where)}: phase {phase.name} takes no secret part: leave "
                            "'secret:' out of these orders")
            continue
        if not isinstance(secret, dict):
            continue  # said already: a secret part is a mapping (_check_bodies)
        for path, message in _schema_problems(phase.secret, secret):
            problems.append(f"{doc.where((*where, *path))}: {message}")


def _reserved(value: Any, path: yamlio.Path_) -> list[tuple[yamlio.Path_, str]]:
    """Where pbem's sealing fields stand in a player's data, as (path, field)."""
    found: list[tuple[yamlio.Path_, str]] = []
    if isinstance(value, dict):
        for key, item in value.items():
            if key in RESERVED:
                found.append(((*path, key), str(key)))
            found += _reserved(item, (*path, key))
    elif isinstance(value, list):
        for index, item in enumerate(value):
            found += _reserved(item, (*path, index))
    return found


_TYPES = {"object": "a mapping", "array": "a list", "string": "text", "integer": "a whole number",
          "number": "a number", "boolean": "true or false", "null": "nothing"}


def _schema_problems(schema: Any, value: Any) -> list[tuple[yamlio.Path_, str]]:
    """A secret part against its phase's JSON Schema: (path inside the part, message) for each
    problem, in the file's order. The schema's `description` says the part's whole shape."""
    from jsonschema import Draft202012Validator

    shape = schema.get("description", "")
    out: list[tuple[yamlio.Path_, str]] = []
    errors = sorted(Draft202012Validator(schema).iter_errors(value),
                    key=lambda e: [str(p) for p in e.absolute_path])
    for error in errors:
        path = tuple(error.absolute_path)
        if error.validator == "additionalProperties":
            allowed = sorted(error.schema.get("properties") or {})
            extra = [k for k in error.instance if k not in allowed]
            for key in extra:
                hint = suggest(str(key), allowed)
                known = f"expected: {', '.join(allowed)}" if allowed else "expected none"
                told = f"unknown key {key!r} in the secret part{hint} ({known})"
                out.append(((*path, key), f"{told}; {shape}" if shape else told))
            continue
        if error.validator == "type":
            wanted = error.validator_value
            names = [str(t) for t in (wanted if isinstance(wanted, list) else [wanted])]
            words = " or ".join(_TYPES.get(t, t) for t in names)
            message = f"expected {words}, not {shown(error.instance)}"
        elif error.validator == "required":
            message = f"missing {error.message.split(' ')[0]}"
        else:
            message = error.message
        out.append((path, f"{message}; {shape}" if shape else message))
    return out


def signature_path(path: Path) -> Path:
    """Where `ssh-keygen -Y sign` writes the signature of a file: FILE.sig."""
    return path.with_name(path.name + ".sig")


def _check_signature(checked: Checked, signing: Signing) -> None:
    """docs/design.md "Orders signatures": SSHSIG by the faction's key over the file's bytes.

    A file for several factions is signed once, by the one key of their player. A signed
    file must name the log head its player saw, one of this phase's heads, and not older
    than the orders of those factions already recorded (no replays).
    """
    assert checked.doc is not None
    problems, doc, names = checked.problems, checked.doc, checked.factions
    who = " and ".join(names)
    sig_file = signature_path(checked.path)
    if not sig_file.exists():
        must = [f for f in names if not signing.unsigned_ok.get(f, True)]
        if must:
            needed = (f"orders of {' and '.join(must)} must be signed: no {sig_file.name} beside "
                      f"the file (pbem sign {checked.path.name} --key YOUR_ed25519, or "
                      f"ssh-keygen -Y sign -n {SIGNATURE_NAMESPACE} -f YOUR_ed25519 "
                      f"{checked.path.name})")
            if signing.draft:  # checked before signing, as a player does: say what is left
                checked.notes.append(f"{checked.path}:1: not signed yet: {needed}")
            else:
                problems.append(f"{checked.path}:1: {needed}")
        return
    keys = {f: signing.keys.get(f) for f in names}
    unknown = [f for f, k in keys.items() if k is None]
    if unknown:
        problems.append(f"{sig_file}:1: {' and '.join(unknown)} {'has' if len(unknown) == 1 else 'have'} "
                        "no public key in campaign.yaml, so the signature cannot be checked "
                        "(register it with pbem new --key)")
        return
    if len(set(keys.values())) > 1:
        problems.append(f"{sig_file}:1: {who} have different keys in campaign.yaml, so one "
                        "signature cannot be theirs: a file for several factions is signed by "
                        f"the one key of their player (pbem new --key {','.join(names)}=CARD), "
                        "else send one file per faction")
        return
    key = next(iter(keys.values()))
    assert key is not None
    from pbem.crypto import sshsig
    from pbem.errors import KeyFileError, SignatureError

    try:
        checked.signature = yamlio.read_input(
            sig_file, limit=MAX_SIGNATURE_BYTES,
            what="a signature (what ssh-keygen -Y sign or pbem sign writes)").decode("ascii")
        sshsig.verify(key, checked.raw_bytes, checked.signature, SIGNATURE_NAMESPACE)
    except InputFileError as exc:
        problems.append(exc.message)
        return
    except (SignatureError, KeyFileError) as exc:
        owner = f"{names[0]}'s key" if len(names) == 1 else f"the key of the player of {who}"
        problems.append(f"{sig_file}:1: {exc.message} (the signature must be by {owner} over "
                        "this exact file)")
        return
    except (OSError, UnicodeError) as exc:
        problems.append(f"{sig_file}:1: cannot be read: {exc}")
        return
    head = doc.data.get("head")
    if head not in signing.heads:
        problems.append(f"{doc.where(('head',))}: signed orders must name the log head you saw in "
                        f"this phase ('head:' from pbem status); {str(head)[:16]!r} is not one "
                        "(an orders file from another phase or campaign?)")
        return
    checked.head_index = signing.heads.index(head)
    digest = _digest(checked.signature)
    if any((signing.pending.get(f) or {}).get("sig_digest") == digest for f in names):
        problems.append(f"{checked.path}:1: these signed orders were recorded already")
        return
    # only a newer file replaces orders recorded in this phase (ORDERS.md "Sending a
    # correction"): one naming a later head, or the same head and signed later (`signed:`,
    # which pbem sign writes), so that an older file sent again cannot undo a correction
    signed = doc.data.get("signed")
    if signed is not None and not (isinstance(signed, str) and _SIGNED.match(signed)):
        problems.append(f"{doc.where(('signed',))}: 'signed' is the UTC time pbem sign wrote "
                        f"(2026-12-01T20:15:00.000000Z), not {shown(signed)}")
        return
    for faction in names:
        recorded = signing.pending.get(faction) or {}
        if not recorded:
            continue
        before = recorded.get("head_index", -1)
        if before > checked.head_index:
            problems.append(f"{doc.where(('head',))}: newer orders of {faction} are recorded "
                            "already; an older signed file cannot replace them")
        elif before == checked.head_index and recorded.get("sig_digest"):
            theirs = recorded.get("signed")
            if signed is None or (theirs is not None and signed <= theirs):
                problems.append(
                    f"{doc.where(('signed',) if signed else ('head',))}: orders of {faction} "
                    f"naming the same head are recorded already (signed {theirs or 'at no given time'}); "
                    "only a file signed later replaces them (sign the correction again with "
                    "'pbem sign', which writes 'signed:', or take the new head from pbem status)")


def _digest(text: str) -> str:
    import hashlib

    return hashlib.sha256(text.encode("utf-8")).hexdigest()


_HEX = re.compile(r"^(?:[0-9a-f]{2}){16,64}$")


def _check_salt(checked: Checked, names: list[str],
                signing: Signing | None) -> dict[str, tuple[str | None, str | None]]:
    """docs/fairness.md: the salt mixed into the dice, committed to in the file before.

    Returns (salt, salt_next) by faction. In a file for several factions one `salt:` (and
    one `salt_next:`) counts for each faction named, or each is a mapping by faction.
    """
    assert checked.doc is not None
    data, doc, problems = checked.doc.data, checked.doc, checked.problems
    found: dict[str, list[str | None]] = {f: [None, None] for f in names}
    where: dict[tuple[str, str], yamlio.Path_] = {}
    bad = False
    for index, key in enumerate(("salt", "salt_next")):
        value = data.get(key)
        if value is None:
            continue
        items: list[tuple[yamlio.Path_, str, Any]]
        if checked.several and isinstance(value, dict):
            items = [((key, f), str(f), v) for f, v in value.items()]
            for f in value:
                if f not in names:
                    problems.append(f"{doc.where((key, f))}: {key} of {f!r}, which the header "
                                    f"does not name (faction: [{', '.join(names)}])")
        else:
            items = [((key,), f, value) for f in names]
        for path, faction, text in items:
            if text is None:
                continue
            if not isinstance(text, str) or not _HEX.match(text):
                problems.append(f"{doc.where(path)}: {key} is 16 to 64 bytes in lower-case hex")
                bad = True
                break
            if key == "salt_next" and len(text) != 64:
                problems.append(f"{doc.where(path)}: salt_next is the SHA-256 (64 hex digits) "
                                "of the salt of your next orders file")
                break
            if faction in found:
                found[faction][index] = text
                where[(key, faction)] = path
    out = {f: (v[0], v[1]) for f, v in found.items()}
    commits = signing.salt_commits if signing and not bad else {}
    from pbem.randomness import salt_commitment

    for faction in names:
        committed = commits.get(faction)
        salt = out[faction][0]
        signed = signing is not None and (not signing.draft or signature_path(checked.path).exists())
        if salt is None and signing is not None and not bad and (committed or signed):
            # accepted (a file signed with ssh-keygen alone, or outside a clone, has none),
            # but said: this phase's dice then have no salt of this faction's (`pbem dice`)
            checked.notes.append(
                f"{doc.where(())}: no dice salt of {faction}'s: "
                + (f"{faction} committed to one last time (salt_next); " if committed else
                   f"this phase's dice will mix none of {faction}'s; ")
                + "'pbem sign' in your clone adds it")
        if committed is None or salt is None:
            continue
        if salt_commitment(salt) != committed:
            problems.append(f"{doc.where(where[('salt', faction)])}: this salt is not the one "
                            f"{faction} committed to last time (its SHA-256 must equal that "
                            "salt_next)")
    return out
