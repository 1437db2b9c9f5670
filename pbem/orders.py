"""Orders files: load safely, check the header, hand the body to the game's validation.

Every problem is collected and reported at once as FILE:LINE: message.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from pbem import yamlio
from pbem.errors import InputFileError
from pbem.game import Game, GameData, Phase
from pbem.names import suggest

HEADER_KEYS = ("campaign", "turn", "phase", "faction", "head", "salt", "salt_next", "orders",
               "standing", "secret")
REQUIRED = ("campaign", "turn", "phase", "faction", "orders")


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


@dataclass
class Checked:
    """An orders file after checking: its data, and every problem as FILE:LINE: message."""

    path: Path
    doc: yamlio.Doc | None
    problems: list[str] = field(default_factory=list)
    raw: str = ""
    signature: str | None = None
    head_index: int | None = None
    salt: str | None = None
    salt_next: str | None = None

    @property
    def ok(self) -> bool:
        return not self.problems

    @property
    def faction(self) -> str:
        return str(self.doc.data["faction"]) if self.doc else ""

    def body(self) -> dict[str, Any]:
        """The public part: the orders and standing instructions."""
        assert self.doc is not None
        return body_of(self.doc.data)

    @property
    def secret(self) -> Any:
        """The part sealed to the owner and the referee until the rules reveal it (such as
        Red Russia's attack spending, 8.3), or None."""
        assert self.doc is not None
        return self.doc.data.get("secret")


def body_of(data: dict[str, Any]) -> dict[str, Any]:
    return {"orders": data.get("orders") or [], "standing": data.get("standing") or {}}


def read_orders(path: Path) -> yamlio.Doc:
    try:
        raw = path.read_bytes()
    except FileNotFoundError:
        raise InputFileError(f"{path}: no such file") from None
    except OSError as exc:
        raise InputFileError(f"{path}: cannot be read: {exc.strerror}") from None
    return yamlio.load_untrusted(raw, str(path))


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
) -> Checked:
    """Header checks, the signature, then the game's own validation; every problem at once."""
    try:
        doc = read_orders(path)
    except InputFileError as exc:
        return Checked(path, None, [exc.message])
    checked = Checked(path, doc, raw=path.read_bytes().decode("utf-8"))
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
    if "campaign" in data_ and str(data_["campaign"]) != campaign_id:
        problems.append(
            f"{doc.where(('campaign',))}: these orders are for campaign {data_['campaign']!r}, "
            f"this campaign is {campaign_id!r}"
        )
    if "turn" in data_ and data_["turn"] != phase.turn:
        problems.append(
            f"{doc.where(('turn',))}: orders for turn {data_['turn']!r}, but it is turn {phase.turn}"
        )
    if "phase" in data_ and data_["phase"] != phase.name:
        problems.append(
            f"{doc.where(('phase',))}: orders for phase {data_['phase']!r}, "
            f"but the phase is {phase.name!r}"
        )
    faction = data_.get("faction")
    if "faction" in data_:
        if faction not in factions:
            hint = suggest(str(faction), factions)
            problems.append(
                f"{doc.where(('faction',))}: unknown faction {faction!r}{hint} "
                f"(factions: {', '.join(factions)})"
            )
        elif faction not in phase.awaiting:
            awaited = ", ".join(phase.awaiting) or "nobody"
            problems.append(
                f"{doc.where(('faction',))}: {faction} is not awaited in phase {phase.name} "
                f"(awaiting: {awaited})"
            )
    if "orders" in data_ and data_["orders"] is not None and not isinstance(data_["orders"], list):
        problems.append(f"{doc.where(('orders',))}: 'orders' must be a list (use [] for none)")
    for key in ("standing", "secret"):
        if key in data_ and data_[key] is not None and not isinstance(data_[key], dict):
            problems.append(f"{doc.where((key,))}: '{key}' must be a mapping")
    _check_salt(checked, str(faction), signing)
    if problems:
        return checked
    if signing is not None:
        _check_signature(checked, str(faction), signing)
    full = checked.body()
    if checked.secret is not None:
        full["secret"] = checked.secret
    for problem in game.validate(data, game_state, str(faction), full):
        problems.append(f"{doc.where(problem.path)}: {problem.message}")
    return checked


def signature_path(path: Path) -> Path:
    """Where `ssh-keygen -Y sign` writes the signature of a file: FILE.sig."""
    return path.with_name(path.name + ".sig")


def _check_signature(checked: Checked, faction: str, signing: Signing) -> None:
    """DESIGN.md "Orders signatures": SSHSIG by the faction's key over the file's bytes.

    A signed file must name the log head its player saw, one of this phase's heads, and
    not older than the orders of that faction already recorded (no replays).
    """
    assert checked.doc is not None
    problems, doc = checked.problems, checked.doc
    sig_file = signature_path(checked.path)
    key = signing.keys.get(faction)
    if not sig_file.exists():
        if not signing.unsigned_ok.get(faction, True):
            problems.append(f"{checked.path}:1: orders of {faction} must be signed: no {sig_file.name} "
                            f"beside the file (pbem sign {checked.path.name} --key YOUR_ed25519, or "
                            f"ssh-keygen -Y sign -n {SIGNATURE_NAMESPACE} -f YOUR_ed25519 "
                            f"{checked.path.name})")
        return
    if key is None:
        problems.append(f"{sig_file}:1: {faction} has no public key in campaign.yaml, so its "
                        "signature cannot be checked (register it with pbem new --key)")
        return
    from pbem import sshsig
    from pbem.errors import KeyFileError, SignatureError

    try:
        checked.signature = sig_file.read_text(encoding="ascii")
        sshsig.verify(key, checked.path.read_bytes(), checked.signature, SIGNATURE_NAMESPACE)
    except (SignatureError, KeyFileError) as exc:
        problems.append(f"{sig_file}:1: {exc.message} (the signature must be by {faction}'s key "
                        "over this exact file)")
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
    earlier = signing.pending.get(faction) or {}
    digest = _digest(checked.signature)
    if earlier.get("sig_digest") == digest:
        problems.append(f"{checked.path}:1: these signed orders were recorded already")
    elif earlier.get("head_index", -1) > checked.head_index:
        problems.append(f"{doc.where(('head',))}: newer orders of {faction} are recorded already; "
                        "an older signed file cannot replace them")


def _digest(text: str) -> str:
    import hashlib

    return hashlib.sha256(text.encode("utf-8")).hexdigest()


_HEX = re.compile(r"^(?:[0-9a-f]{2}){16,64}$")


def _check_salt(checked: Checked, faction: str, signing: Signing | None) -> None:
    """docs/fairness.md: the salt mixed into the dice, committed to in the file before."""
    assert checked.doc is not None
    data, doc, problems = checked.doc.data, checked.doc, checked.problems
    for key in ("salt", "salt_next"):
        value = data.get(key)
        if value is None:
            continue
        if not isinstance(value, str) or not _HEX.match(value):
            problems.append(f"{doc.where((key,))}: {key} is 16 to 64 bytes in lower-case hex")
            return
    checked.salt, checked.salt_next = data.get("salt"), data.get("salt_next")
    if checked.salt_next is not None and len(checked.salt_next) != 64:
        problems.append(f"{doc.where(('salt_next',))}: salt_next is the SHA-256 (64 hex digits) "
                        "of the salt of your next orders file")
    committed = (signing.salt_commits if signing else {}).get(faction)
    if committed is None:
        return
    from pbem.randomness import salt_commitment

    if checked.salt is None:
        problems.append(f"{doc.where(())}: {faction} committed to the salt of this file last "
                        "time (salt_next); give it as 'salt:'")
    elif salt_commitment(checked.salt) != committed:
        problems.append(f"{doc.where(('salt',))}: this salt is not the one {faction} committed "
                        "to last time (its SHA-256 must equal that salt_next)")
