"""Sealed secrets in the shared log: a commitment anyone sees, an envelope only the
owner and the referee can open, and a later reveal anyone can check (docs/design.md
"Sealed nodes").

A sealed node, as it is written to the log or the snapshot::

    {kind: orders, id: t1:setup-place, owner: south, turn: 0,
     commitment: <hex>, sealed: "-----BEGIN AGE ENCRYPTED FILE-----..."}

The envelope holds ``{"ctx": ..., "nonce": <hex>, "value": ...}``, padded, so the owner
can check the commitment alone (`pbem reveal`). A reveal publishes ``{nonce, value}``;
`check_opening` recomputes the commitment from it. Orders of simultaneous phases use this
today; card hands and face-down units will use the same functions.
"""

from __future__ import annotations

from abc import ABC, abstractmethod
from dataclasses import dataclass
from typing import Any

from pbem.crypto import keys as crypto
from pbem.errors import CryptoError


def context(campaign: str, kind: str, id_: str, turn: int, owner: str) -> dict[str, Any]:
    """The commitment context: names campaign, kind, id, turn and owner
    (docs/design.md "Commitments")."""
    return {"campaign": campaign, "kind": kind, "id": id_, "turn": turn, "owner": owner}


# kinds whose values are whole orders files: one envelope size for all (crypto.ORDERS_PAD_SIZE)
ORDERS_KINDS = frozenset({"orders", "orders-file"})


def seal(ctx: dict[str, Any], value: Any, recipients: list[str]) -> dict[str, Any]:
    """Commit to `value` and seal the opening to `recipients` (owner and referee)."""
    commitment, nonce = crypto.commit(ctx, value)
    size = crypto.ORDERS_PAD_SIZE if ctx["kind"] in ORDERS_KINDS else crypto.PAD_SIZE
    envelope = crypto.seal({"ctx": ctx, "nonce": nonce.hex(), "value": value}, recipients, size)
    return {"kind": ctx["kind"], "id": ctx["id"], "owner": ctx["owner"], "turn": ctx["turn"],
            "commitment": commitment, "sealed": envelope}


def node_context(campaign: str, node: dict[str, Any]) -> dict[str, Any]:
    return context(campaign, node["kind"], node["id"], node["turn"], node["owner"])


@dataclass(frozen=True)
class Opened:
    kind: str
    id: str
    owner: str
    value: Any
    nonce: str
    commitment: str
    verified: bool


def open_node(campaign: str, node: dict[str, Any], identities: list[str]) -> Opened:
    """Decrypt a sealed node and check its commitment; CryptoError if it is not ours."""
    inner = crypto.unseal(node["sealed"], identities)
    if not isinstance(inner, dict) or not {"ctx", "nonce", "value"} <= set(inner):
        raise CryptoError(f"sealed {node.get('kind')} {node.get('id')}: not a pbem envelope")
    ctx = node_context(campaign, node)
    verified = inner["ctx"] == ctx and check_opening(campaign, node, inner["nonce"], inner["value"])
    return Opened(node["kind"], node["id"], node["owner"], inner["value"], inner["nonce"],
                  node["commitment"], verified)


def check_opening(campaign: str, node: dict[str, Any], nonce: str, value: Any) -> bool:
    """Does a published (nonce, value) open this node's commitment?"""
    try:
        raw = bytes.fromhex(nonce)
    except (TypeError, ValueError):
        return False
    return crypto.check_commitment(node["commitment"], node_context(campaign, node), raw, value)


def is_sealed(node: Any) -> bool:
    return isinstance(node, dict) and "sealed" in node and "commitment" in node


def substitute(data: Any, value_of: Any) -> Any:
    """`data` with each sealed node that `value_of(node)` opens replaced by its value; a node
    it cannot open (LookupError) stays as it is. What a reader holding a key sees of a state:
    a player his own face-down units, the referee every one."""
    if is_sealed(data):
        try:
            return value_of(data)
        except LookupError:
            return data
    if isinstance(data, dict):
        return {k: substitute(v, value_of) for k, v in data.items()}
    if isinstance(data, list):
        return [substitute(v, value_of) for v in data]
    return data


def opener(campaign: str, identities: list[str]) -> Any:
    """`value_of` for `substitute`: a node's value if these identities open it and it
    matches its commitment, else LookupError."""

    def value_of(node: dict[str, Any]) -> Any:
        try:
            opened = open_node(campaign, node, identities)
        except CryptoError as exc:
            raise LookupError(str(exc)) from exc
        if not opened.verified:
            raise LookupError(f"sealed {node.get('kind')} {node.get('id')} does not match its commitment")
        return opened.value

    return value_of


def find_sealed(data: Any) -> list[dict[str, Any]]:
    """Every sealed node inside nested data (log entries, snapshots)."""
    found: list[dict[str, Any]] = []
    if is_sealed(data):
        found.append(data)
    elif isinstance(data, dict):
        for value in data.values():
            found += find_sealed(value)
    elif isinstance(data, list):
        for value in data:
            found += find_sealed(value)
    return found


class Hidden:
    """A value the reader of the log may not know yet: a deck's order, a card in a hand.

    A public audit replays with it in place of every value only the referee sees; the rules
    only pass such values on (into `seal`), so the events come out the same with the
    sealed nodes masked. `audit --final` replays with the real values instead."""

    _instance: Hidden | None = None

    def __new__(cls) -> Hidden:
        if cls._instance is None:
            cls._instance = super().__new__(cls)
        return cls._instance

    def __repr__(self) -> str:
        return "<hidden>"

    def __getitem__(self, _key: Any) -> Hidden:
        return self


HIDDEN = Hidden()
MASK = "(masked)"


def _name(node: dict[str, Any]) -> tuple[Any, ...]:
    return (node.get("kind"), node.get("id"), node.get("owner"), node.get("turn"))


def _meta(node: dict[str, Any]) -> dict[str, Any]:
    return {k: node[k] for k in ("kind", "id", "owner", "turn", "commitment")}


class _Secrets(ABC):
    """What every opener shares: which nodes it may read, and the rules' use of them.

    The rules call `open` to publish a value (an attack's spending at 8.4, a discarded
    card), `reveal_where` to publish the values among some nodes that meet a test,
    `compute` for a value derived from sealed nodes that only the referee may see (the
    cards left to shuffle), `shuffle` for a hidden order, and `seal` to make a new node."""

    def __init__(self, campaign: str) -> None:
        self.campaign = campaign
        self.openings: list[dict[str, Any]] = []
        self.used: set[str] = set()
        self.owners: set[str] = set()  # whose own keys the rules drew with (shuffle's owner)

    # -- what each kind of opener knows
    @abstractmethod
    def _value(self, node: dict[str, Any]) -> Any:
        """The value of a node, without publishing it; HIDDEN when this opener cannot know."""

    def _published(self, node: dict[str, Any]) -> Any:
        """The value to publish for a node the rules open (or HIDDEN)."""
        return self._value(node)

    # -- what the rules call
    def open(self, node: dict[str, Any]) -> Any:
        value = self._published(node)
        if isinstance(value, Hidden):
            raise ValueError(f"the rules open sealed {node.get('kind')} {node.get('id')}, "
                             "but the log publishes no opening for it")
        self.used.add(self._commitment(node))
        return value

    def _commitment(self, node: dict[str, Any]) -> str:
        return str(node["commitment"])

    def reveal_where(self, nodes: list[dict[str, Any]], test: Any,
                     first: bool = False) -> list[tuple[dict[str, Any], Any]]:
        """Open (publish) the nodes whose values pass `test`; a public audit takes the ones
        the log opened, the referee and a final audit look at every value."""
        out = []
        for node in nodes:
            value = self._value(node)
            if isinstance(value, Hidden):
                value = self._published(node)
                if isinstance(value, Hidden):
                    continue
            if test(value):
                out.append((node, self.open(node)))
                if first:
                    break
        return out

    def compute(self, fn: Any, *args: Any) -> Any:
        """fn over the args with sealed nodes read (never published); HIDDEN if unknown."""
        values = [self._value(a) if is_sealed(a) else a for a in args]
        if any(isinstance(v, Hidden) for v in values):
            return HIDDEN
        return fn(*values)

    def shuffle(self, label: str, items: Any, owner: str | None = None) -> Any:
        """A hidden order, keyed by the draw key, or with `owner` by that owner's own key
        (dice.owner_key), which is sealed to him so that he can check it at once."""
        key = self._hidden_key() if owner is None else self._owner_key(owner)
        if owner is not None:
            self.owners.add(owner)
        if key is None or isinstance(items, Hidden):
            return HIDDEN
        from pbem import dice

        return dice.shuffle(key, label, list(items))

    def _hidden_key(self) -> bytes | None:
        return None

    def owner_key(self, owner: str) -> bytes | None:
        """`owner`'s own draw key, where this opener knows it (the referee's, a final audit's,
        the owner's own audit)."""
        return self._owner_key(owner)

    def _owner_key(self, owner: str) -> bytes | None:
        key = self._hidden_key()
        if key is None:
            return None
        from pbem import dice

        return dice.owner_key(key, owner)

    def seal(self, kind: str, id_: str, owner: str, turn: int, value: Any) -> dict[str, Any]:
        """A sealed node for the log: only the referee's copy encrypts."""
        node = {"kind": kind, "id": id_, "owner": owner, "turn": turn, "commitment": MASK,
                "sealed": MASK}
        if not isinstance(value, Hidden):
            node["value"] = value  # a final audit compares it with what the log's node holds
        return node


class RefereeSecrets(_Secrets):
    """The referee's copy: decrypts with the referee's identity, records every opening it
    publishes for the log, and seals new nodes to their owners.

    `identities` and `recipients` are called only when needed, so a resolution that opens
    nothing never reads the referee's key."""

    def __init__(self, campaign: str, identities: Any, recipients: Any = None,
                 hidden_key: bytes | None = None) -> None:
        super().__init__(campaign)
        self._identities = identities
        self._loaded: list[str] | None = None
        self._recipients = recipients
        self._key = hidden_key
        self._nonces: dict[str, str] = {}
        self._values: dict[str, Any] = {}

    def _value(self, node: dict[str, Any]) -> Any:
        if node["commitment"] in self._values:
            return self._values[node["commitment"]]
        if self._loaded is None:
            self._loaded = self._identities() if callable(self._identities) else self._identities
        opened = open_node(self.campaign, node, self._loaded)
        if not opened.verified:
            raise CryptoError(f"sealed {node['kind']} {node['id']} does not match its commitment")
        self._nonces[node["commitment"]] = opened.nonce
        self._values[node["commitment"]] = opened.value
        return opened.value

    def open(self, node: dict[str, Any]) -> Any:
        value = self._value(node)
        if not any(o["node"]["commitment"] == node["commitment"] for o in self.openings):
            self.openings.append({"node": _meta(node), "nonce": self._nonces[node["commitment"]],
                                  "value": value})
        self.used.add(node["commitment"])
        return value

    def _hidden_key(self) -> bytes | None:
        return self._key

    def seal(self, kind: str, id_: str, owner: str, turn: int, value: Any) -> dict[str, Any]:
        if isinstance(value, Hidden):
            raise ValueError(f"sealing {kind} {id_}: the referee must know the value")
        recipients = self._recipients(owner) if callable(self._recipients) else self._recipients
        return seal(context(self.campaign, kind, id_, turn, owner), value, list(recipients or []))


class PublishedSecrets(_Secrets):
    """For a public audit: the openings a log entry published, each checked against its
    node; every other sealed value is HIDDEN."""

    def __init__(self, campaign: str, openings: list[dict[str, Any]]) -> None:
        super().__init__(campaign)
        self.by_commitment = {o["node"]["commitment"]: o for o in openings}
        # a node sealed and opened in one resolution (a card drawn, then played at once)
        # is masked in the replay: its opening is found by what names it
        self.by_name = {_name(o["node"]): o for o in openings}

    def _value(self, node: dict[str, Any]) -> Any:
        if node.get("commitment") == MASK:  # sealed earlier in this replay
            return node.get("value", HIDDEN)
        return HIDDEN

    def _commitment(self, node: dict[str, Any]) -> str:
        if node.get("commitment") == MASK and _name(node) in self.by_name:
            return str(self.by_name[_name(node)]["node"]["commitment"])
        return str(node["commitment"])

    def _published(self, node: dict[str, Any]) -> Any:
        opening = self.by_commitment.get(node.get("commitment", ""))
        if opening is None and node.get("commitment") == MASK:
            opening = self.by_name.get(_name(node))
            if opening is not None:
                node = opening["node"]  # the masked comparison of the events checks the rest
        if opening is None:
            return HIDDEN
        if not check_opening(self.campaign, node, opening["nonce"], opening["value"]):
            raise ValueError(f"the published opening of {node.get('kind')} {node.get('id')} "
                             "does not match its commitment")
        return opening["value"]


class FinalSecrets(PublishedSecrets):
    """For `audit --final`: every opening of the game (those published along the way and
    those `unseal` published) and the hidden key, so every hidden step is recomputed."""

    def __init__(self, campaign: str, openings: list[dict[str, Any]],
                 everything: dict[str, Any], hidden_key: bytes) -> None:
        super().__init__(campaign, openings)
        self.everything = everything  # commitment -> value, checked when it was collected
        self.key = hidden_key

    def _value(self, node: dict[str, Any]) -> Any:
        commitment = node.get("commitment", "")
        if commitment in self.everything:
            return self.everything[commitment]
        return super()._value(node)

    def _hidden_key(self) -> bytes | None:
        return self.key


class OwnSecrets(FinalSecrets):
    """For a player's own audit (`pbem audit --key`): the values his key opens and every
    published opening, and his own draw key (opened from the log), so that every draw that
    concerns him alone is recomputed as soon as it is made; everything else stays HIDDEN."""

    def __init__(self, campaign: str, openings: list[dict[str, Any]], mine: dict[str, Any],
                 owner_keys: dict[str, bytes]) -> None:
        super().__init__(campaign, openings, mine, b"")
        self.owner_keys = owner_keys

    def _hidden_key(self) -> bytes | None:
        return None

    def _owner_key(self, owner: str) -> bytes | None:
        return self.owner_keys.get(owner)


def masked(data: Any) -> Any:
    """Data with every sealed node reduced to what anyone may compare: its kind, id, owner
    and turn (an envelope is random and a public audit cannot know a commitment)."""
    if is_sealed(data):
        return {"sealed-node": [data["kind"], data["id"], data["owner"], data["turn"]]}
    if isinstance(data, dict):
        return {k: masked(v) for k, v in data.items()}
    if isinstance(data, list):
        return [masked(v) for v in data]
    return data


def sealed_values(recorded: Any, replayed: Any, everything: dict[str, Any],
                  owners: set[str] | None = None) -> tuple[list[str], int]:
    """For a final audit: each node the rules sealed again holds what the log's node holds;
    for a player's own audit, each node of `owners` (those his key opens a value of): one
    sealed to another player is not his to check, even where its value is public. The
    problems, and how many values were recomputed."""
    problems = []
    checked = 0
    for have, want in zip(find_sealed(recorded), find_sealed(replayed), strict=False):
        if "value" not in want or owners is not None and have.get("owner") not in owners:
            continue
        known = everything.get(have["commitment"], HIDDEN)
        checked += 1
        if isinstance(known, Hidden):
            problems.append(f"sealed {have['kind']} {have['id']} was never opened, not even by unseal")
        elif known != want["value"]:
            problems.append(f"sealed {have['kind']} {have['id']} holds something other than "
                            "what the rules give from the hidden secret")
    return problems, checked
