"""The welcome: what the first mail a player gets from a campaign says above the report, so
that the player can act on it alone: what pbem is, their key (and how to make their own),
how to answer with nothing but OpenSSH and how with pbem, where to clone the campaign.

campaign.yaml may say where to clone the campaign and how to install pbem::

    mail:
      welcome:
        clone: https://git.example.org/rr-2026.git   # default: the URL of the publish remote
        install: pipx install pbem                    # default: none said (ask the moderator)
"""

from __future__ import annotations

from typing import Any

from pbem.campaign import CONFIG, Campaign
from pbem.errors import CampaignError

NAMESPACE = "pbem-orders-v1"  # the SSHSIG namespace of orders (pbem/crypto/sshsig.py)
KEYS = ("clone", "install")


def _settings(campaign: Campaign, mail: dict[str, Any]) -> dict[str, str]:
    given = mail.get("welcome") or {}
    where = f"{campaign.root / CONFIG}: mail: welcome"
    if not isinstance(given, dict):
        raise CampaignError(f"{where}: expected a mapping of {', '.join(KEYS)}")
    for key, value in given.items():
        if key not in KEYS:
            raise CampaignError(f"{where}: {key!r} is not a setting; choose among {', '.join(KEYS)}")
        if not isinstance(value, str) or not value.strip():
            raise CampaignError(f"{where}: {key}: expected text, not {value!r}")
    return {k: str(v).strip() for k, v in given.items()}


def clone_url(campaign: Campaign, mail: dict[str, Any]) -> str | None:
    """Where players clone the campaign: the setting, or where `pbem publish` pushes."""
    given = _settings(campaign, mail).get("clone")
    if given:
        return given
    found: str | None = campaign.store().remote_url(str(mail.get("remote") or "origin"))
    return found


def facts(campaign: Campaign, mail: dict[str, Any], factions: list[str], name: str,
          referee: str, contribution: bool) -> dict[str, Any]:
    """What the welcome templates (templates/welcome.*.j2) say to one player."""
    described = {f["id"]: f["name"] for f in campaign.game.describe(campaign.data)["factions"]}
    seats = campaign.factions()
    keys = sorted({" ".join(str(seats[f].get("ssh") or "").split()[:2]) for f in factions} - {""})
    return {
        "player": name,
        "factions": [described.get(f, f) for f in factions],
        "game": campaign.game.describe(campaign.data)["name"],
        "campaign": campaign.id,
        "referee": referee,
        "seat_keys": keys,
        "unsigned": all(seats[f].get("unsigned_ok") for f in factions),
        "clone": clone_url(campaign, mail),
        "install": _settings(campaign, mail).get("install"),
        "namespace": NAMESPACE,
        "contribution": contribution,
    }
