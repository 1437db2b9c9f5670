"""Who gets a report mail in a phase: the mail policy (campaign.yaml `mail: policy:`).

By default (`awaited`) a player is mailed when orders are awaited from one of their
factions, in their first mail, at the game's end, and once as each turn begins (the digest
of what happened since their last report); `every` mails them every phase. `pbem mail`
counts each player's mails of the turn.
"""

from __future__ import annotations

import sys
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))
from conftest import Result, play  # noqa: E402
from test_mail import camp as camp  # noqa: E402 - the fixture
from test_mail import parse, set_config  # noqa: E402

from pbem import api  # noqa: E402
from pbem.errors import CampaignError  # noqa: E402
from pbem.mail import loop as mailloop  # noqa: E402

EMAIL = {"red": "ann@example.org", "siberian": "bob@example.org",
         "south": "cy@example.org", "north": "cy@example.org"}
EVERYONE = sorted(set(EMAIL.values()))


def step(root: Path) -> dict[str, Any]:
    """Play the bots' orders of the phase awaited now; the new status."""
    seq = api.status(root)["seq"]
    return play(root, until=lambda s: s["seq"] > seq)


def mailed(result: dict[str, Any]) -> dict[str, str]:
    return {r["to"]: r["why"] for r in result["queued"]}


def delivered(root: Path) -> None:
    """What is queued counts as sent (what `pbem mail --send` records)."""
    from pbem.campaign import Campaign

    box = mailloop.outbox_of(Campaign.open(root))
    for record in box.pending():
        box.mark(record["message_id"], sent=SENT)


def mail(root: Path, **options: Any) -> dict[str, Any]:
    """`pbem mail --send`, as far as the outbox is concerned."""
    result = mailloop.mail(root, **options)
    delivered(root)
    return result


def awaited_players(status: dict[str, Any]) -> list[str]:
    return sorted({EMAIL[f] for f in status["awaiting"]})


# ---------------------------------------------------------------------------------------
# the decision, clause by clause


NOW = {"turn": 3, "over": False}
SENT = "2026-12-05T00:00:00+00:00"


@pytest.mark.parametrize(("policy", "awaited", "last", "status", "why"), [
    ("awaited", ["red"], {"turn": 3, "sent": SENT}, NOW, "awaited"),  # awaited: always
    ("awaited", ["red"], None, NOW, "awaited"),
    ("awaited", [], {"turn": 3, "sent": SENT}, {"turn": 3, "over": True}, "over"),  # the end
    ("awaited", [], None, NOW, "first"),  # never mailed yet
    ("awaited", [], {"turn": 3, "sent": None}, NOW, "update"),  # the unsent one is stale
    ("awaited", [], {"turn": 3, "superseded": "<x@y>"}, NOW, None),
    ("every", [], {"turn": 3, "sent": SENT}, NOW, "every"),
    ("awaited", [], {"turn": 2, "sent": SENT}, NOW, "digest"),  # a turn began since the last
    ("awaited", [], {"turn": 3, "sent": SENT}, NOW, None),  # nothing for them yet
    ("awaited", [], {"sent": SENT}, NOW, "digest"),  # a report of an older pbem, with no turn
])
def test_why_a_player_is_mailed(policy: str, awaited: list[str], last: dict[str, Any] | None,
                                status: dict[str, Any], why: str | None) -> None:
    assert mailloop._why(policy, awaited, last, status) == why


def test_mail_policy_settings(camp: Path) -> None:
    from pbem.campaign import Campaign

    def policy(value: Any, faction: str = "red") -> str:
        set_config(camp, mail={"policy": value})
        return mailloop.mail_policy(Campaign.open(camp), faction)

    set_config(camp, mail={})
    assert mailloop.mail_policy(Campaign.open(camp), "red") == "awaited"  # the default
    assert policy("every") == "every"
    assert policy({"default": "every", "red": "awaited"}) == "awaited"
    assert policy({"default": "every", "red": "awaited"}, "south") == "every"
    assert policy({"south": "every"}) == "awaited"
    with pytest.raises(CampaignError) as bad:
        policy("weekly")
    assert "campaign.yaml: mail: policy: expected awaited or every" in bad.value.message
    assert "'weekly'" in bad.value.message
    with pytest.raises(CampaignError) as unknown:
        policy({"reds": "every"})
    assert "reds is not a faction of this campaign" in unknown.value.message
    assert "red, siberian, south, north, or default" in unknown.value.message
    with pytest.raises(CampaignError) as two:
        policy({"reds": "every", "whites": "every"})
    assert "mail: policy: reds, whites is not a faction of this campaign" in two.value.message


# ---------------------------------------------------------------------------------------
# a campaign


def test_by_default_only_the_awaited_are_mailed_and_a_digest_as_a_turn_begins(camp: Path) -> None:
    status = api.status(camp)
    first = mail(camp)
    # the first mail goes to everyone: the awaited with their templates, the others for news
    assert mailed(first) == {**{p: "first" for p in EVERYONE},
                             **{p: "awaited" for p in awaited_players(status)}}
    assert first["this_turn"] == dict.fromkeys(EVERYONE, 1)
    # a phase of the same turn: the awaited only, the others told why not
    status = step(camp)
    assert status["turn"] == 0 and awaited_players(status) == ["ann@example.org"]
    second = mail(camp)
    assert mailed(second) == {"ann@example.org": "awaited"}
    assert sorted(s["to"] for s in second["skipped"]) == ["bob@example.org", "cy@example.org"]
    assert all("not awaited in this phase" in s["reason"] for s in second["skipped"])
    # --again mails everyone all the same
    assert sorted(mailed(mail(camp, again=True))) == EVERYONE
    # a turn that begins with some players not awaited: they get the digest
    status = play(camp, until_turn=1, phase="action", seed="policy")
    idle = sorted(set(EVERYONE) - set(awaited_players(status)))
    assert idle, status["awaiting"]
    third = mail(camp)
    assert mailed(third) == {**{p: "awaited" for p in awaited_players(status)},
                             **{p: "digest" for p in idle}}
    digest = next(r for r in third["queued"] if r["why"] == "digest")
    assert "digest, turn 1 begins" in digest["subject"]
    msg = parse(camp / ".pbem" / "outbox" / digest["file"])
    # nothing to answer: no file attached, the map's picture alone, shown in place
    assert [p.get_content_type() for p in msg.iter_attachments()] == []
    assert [p.get_content_type() for p in msg.walk() if p.get("Content-ID")] == ["image/png"]
    # ...once: the next phase of that turn mails only those awaited in it
    status = step(camp)
    fourth = mail(camp)
    assert sorted(mailed(fourth)) == awaited_players(status)
    assert set(mailed(fourth).values()) <= {"awaited"}


def test_the_every_policy_mails_a_player_each_phase(camp: Path) -> None:
    set_config(camp, mail={"policy": {"default": "awaited", "north": "every"}})
    mail(camp)
    for _ in range(3):
        status = step(camp)
        got = mailed(mail(camp))
        # Cy plays north (every phase), Bob siberian (when awaited)
        assert "cy@example.org" in got
        assert ("bob@example.org" in got) == ("siberian" in status["awaiting"])


def test_mail_counts_each_players_mails_of_the_turn(camp: Path,
                                                    pbem: Callable[..., Result]) -> None:
    r = pbem("-C", camp, "mail")
    assert r.code == 0, r.err
    assert ("mails of turn 0 so far, per player: ann@example.org 1, bob@example.org 1, "
            "cy@example.org 1") in r.out
    step(camp)
    r = pbem("-C", camp, "mail")
    assert r.code == 0, r.err
    # nothing was sent: every player's report is replaced by the current one
    assert "skipped" not in r.out
    # the first reports were never sent: the new ones supersede them and only one counts
    assert "per player: ann@example.org 1, bob@example.org 1, cy@example.org 1" in r.out
    delivered(camp)
    r = pbem("-C", camp, "mail", "--again")
    assert "per player: ann@example.org 2, bob@example.org 2, cy@example.org 2" in r.out


# ---------------------------------------------------------------------------------------
# what is built for whom


def test_no_report_is_built_for_a_player_not_mailed(camp: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    from pbem.reports import context

    mail(camp)
    status = step(camp)
    assert awaited_players(status) == ["ann@example.org"]
    built: list[str] = []
    moments: list[int | None] = []
    real_build, real_moment = context.build_context, context.moment

    def counted_build(root: Path, who: str, *args: Any, **kwargs: Any) -> dict[str, Any]:
        built.append(who)
        return real_build(root, who, *args, **kwargs)

    def counted_moment(root: Path, *args: Any, **kwargs: Any) -> context.Moment:
        moments.append(kwargs.get("turn"))
        return real_moment(root, *args, **kwargs)

    monkeypatch.setattr(context, "build_context", counted_build)
    monkeypatch.setattr(context, "moment", counted_moment)
    result = mail(camp)
    assert mailed(result) == {"ann@example.org": "awaited"}
    assert built == ["red"] and len(moments) == 1  # nothing for Bob's siberian, Cy's two
    # nobody to mail: nothing built at all
    built.clear()
    moments.clear()
    again = mail(camp)
    assert again["queued"] == [] and built == [] and moments == []
    # --again: every player's, the moment shared by all of them
    mail(camp, again=True)
    assert sorted(built) == sorted(EMAIL) and len(moments) == 1


def test_a_shared_moment_changes_no_readers_report(camp: Path) -> None:
    """The part of the reports built once for all (`moment`) gives each reader exactly the
    report built for him alone, whatever was built before it: nothing of one reader's
    (his view, his opened hand, his template) reaches another's."""
    from pbem.campaign import Campaign
    from pbem.reports.context import build_context, moment, seat_context

    play(camp, until_turn=1, phase="action", seed="policy")
    identities = Campaign.open(camp).referee_identities()  # opens every faction's own values
    shared = moment(camp)
    readers = [*EMAIL, "public", "referee"]
    together = {who: build_context(camp, who, identities=identities, common=shared) for who in readers}
    assert any(c["hand"] for c in together.values())  # someone holds sealed cards
    for who in readers:
        assert together[who] == build_context(camp, who, identities=identities), who
    assert (seat_context(camp, ["south", "north"], identities=identities, common=shared)
            == seat_context(camp, ["south", "north"], identities=identities))
    with pytest.raises(ValueError, match="a moment of turn None given for a report of turn 0"):
        build_context(camp, "red", turn=0, common=shared)


def test_a_maps_picture_is_drawn_once_for_the_readers_whose_maps_are_the_same(
        monkeypatch: pytest.MonkeyPatch) -> None:
    from pbem.reports import render

    drawn: list[str] = []

    def fake_png(context: dict[str, Any], pixels: int | None = None) -> bytes:
        assert pixels == render.MAIL_PIXELS  # a mail's picture, drawn within its bound
        drawn.append(context["map_svg"])
        return str(context["map_svg"]).encode()

    monkeypatch.setattr(render, "map_png", fake_png)
    base = {"game": {"id": "g"}, "contribution_round": "", "map_focus": None}
    cache: dict[str, bytes | None] = {}
    one, same = {**base, "map_svg": "<svg>A</svg>", "who": "red"}, {**base, "map_svg": "<svg>A</svg>"}
    other = {**base, "map_svg": "<svg>B</svg>"}
    focused = {**base, "map_svg": "<svg>A</svg>", "map_focus": {"x": 1, "y": 2, "width": 3, "height": 4}}
    pictures = [mailloop._map_picture(c, cache) for c in (one, same, other, focused)]
    assert pictures == [b"<svg>A</svg>", b"<svg>A</svg>", b"<svg>B</svg>", b"<svg>A</svg>"]
    assert drawn == ["<svg>A</svg>", "<svg>B</svg>", "<svg>A</svg>"]  # the focus differs: drawn again
    assert mailloop._map_picture({**base, "map_svg": None}, cache) is None
    assert mailloop._map_picture({**one, "contribution_round": "text"}, cache) is None
