"""Sealed secrets in the shared log: a commitment anyone sees, an envelope only the
owner and the referee can open, and a later reveal anyone can check (DESIGN.md "Secrets").

A sealed node, as it is written to the log or the snapshot::

    {kind: orders, id: t1:setup-place, owner: south, turn: 0,
     commitment: <hex>, sealed: "-----BEGIN AGE ENCRYPTED FILE-----..."}

The envelope holds ``{"ctx": ..., "nonce": <hex>, "value": ...}``, padded, so the owner
can check the commitment alone (`pbem reveal`). A reveal publishes ``{nonce, value}``;
`check_opening` recomputes the commitment from it. Orders of simultaneous phases use this
today; card hands and face-down units will use the same functions.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from pbem import crypto
from pbem.errors import CryptoError


def context(campaign: str, kind: str, id_: str, turn: int, owner: str) -> dict[str, Any]:
    """The commitment context: names campaign, kind, id, turn and owner (DESIGN.md)."""
    return {"campaign": campaign, "kind": kind, "id": id_, "turn": turn, "owner": owner}


def seal(ctx: dict[str, Any], value: Any, recipients: list[str]) -> dict[str, Any]:
    """Commit to `value` and seal the opening to `recipients` (owner and referee)."""
    commitment, nonce = crypto.commit(ctx, value)
    envelope = crypto.seal({"ctx": ctx, "nonce": nonce.hex(), "value": value}, recipients)
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


class RefereeSecrets:
    """Opens sealed nodes with the referee's identity and keeps each opening to publish."""

    def __init__(self, campaign: str, identities: list[str]) -> None:
        self.campaign = campaign
        self.identities = identities
        self.openings: list[dict[str, Any]] = []

    def open(self, node: dict[str, Any]) -> Any:
        opened = open_node(self.campaign, node, self.identities)
        if not opened.verified:
            raise CryptoError(f"sealed {node['kind']} {node['id']} does not match its commitment")
        meta = {k: node[k] for k in ("kind", "id", "owner", "turn", "commitment")}
        if not any(o["node"]["commitment"] == node["commitment"] for o in self.openings):
            self.openings.append({"node": meta, "nonce": opened.nonce, "value": opened.value})
        return opened.value


class PublishedSecrets:
    """For an audit: the openings a log entry published, each checked against its node."""

    def __init__(self, campaign: str, openings: list[dict[str, Any]]) -> None:
        self.campaign = campaign
        self.by_commitment = {o["node"]["commitment"]: o for o in openings}
        self.used: set[str] = set()

    def open(self, node: dict[str, Any]) -> Any:
        opening = self.by_commitment.get(node.get("commitment", ""))
        if opening is None:
            raise ValueError(f"the rules open sealed {node.get('kind')} {node.get('id')}, "
                             "but the log publishes no opening for it")
        if not check_opening(self.campaign, node, opening["nonce"], opening["value"]):
            raise ValueError(f"the published opening of {node.get('kind')} {node.get('id')} "
                             "does not match its commitment")
        self.used.add(node["commitment"])
        return opening["value"]
