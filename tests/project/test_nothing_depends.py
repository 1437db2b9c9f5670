"""Nothing a player receives depends on what his key cannot open, in every game: two
campaigns alike in everything public (the seed chain, every file, every die) but with every
hidden shuffle in another order give the readers who cannot open those draws byte for byte the
same reports (every format), status, log, dice and answers to their orders, once what is
random in any campaign (commitments, envelopes, keys, signatures, times, paths) is masked.

- Chechen War: the Chechen's face-down units are other units; the Russian and the public
  receive the same, played to the Russian Combat Segment of turn 1 (before any rule reveals
  a unit).
- Red Russia: the deck is in another order, so every hand is another; the public receives
  the same, played to the first purchase phase (the cards dealt, none played yet).
- A&A 1914 draws nothing hidden: a power and the public receive the same through turn 1.
"""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

import pytest
from conftest import play

from pbem import api, yamlio
from pbem.campaign import Campaign
from pbem.crypto import sealed

SEED = "nothing-depends"
# each game: where to stop, whose outputs must not differ, and whose own hidden values do
GAMES = {
    "chechen_war": (lambda s: s["phase"] == "russian-combat", ("russian", "public"), "chechen"),
    "red_russia": (lambda s: s["phase"] == "purchase", ("public",), "red"),
    "aa1914": (lambda s: s["turn"] >= 2, ("germany", "public"), None),
}


def build(tmp_path: Path, game: str, name: str, monkeypatch: pytest.MonkeyPatch,
          other: bool) -> Path:
    root = tmp_path / name / "camp"
    with monkeypatch.context() as m:
        if other:  # every hidden shuffle in another order; the dice and all else the same
            real = sealed._Secrets.shuffle

            def shuffled_otherwise(self: Any, label: str, items: Any, owner: str | None = None) -> Any:
                out = real(self, label, items, owner)
                return out if isinstance(out, sealed.Hidden) else list(reversed(out))

            m.setattr(sealed._Secrets, "shuffle", shuffled_otherwise)
        api.new_campaign(root, game, hot_seat=True, seed=SEED, name="camp")
        play(root, until=GAMES[game][0], seed=SEED, max_steps=200)
    return root


MASKS = [
    (re.compile(r"-----BEGIN AGE ENCRYPTED FILE-----.*?-----END AGE ENCRYPTED FILE-----", re.S), "AGE"),
    (re.compile(r"\d{4}-\d\d-\d\d[T ]\d\d:\d\d(:\d\d(\.\d+)?)?(Z|[+-]\d\d:?\d\d| UTC)?"), "TIME"),
    (re.compile(r"[0-9a-f]{12,}"), "HEX"),
    (re.compile(r"[A-Za-z0-9+/]{32,}={0,2}"), "B64"),
]


def masked(text: str, root: Path) -> str:
    text = text.replace(str(root.parent), "ROOT")
    for pattern, word in MASKS:
        text = pattern.sub(word, text)
    return text


def received(pbem, root: Path, who: str) -> dict[str, str]:  # noqa: ANN001
    def ok(*args: Any) -> str:
        r = pbem("-C", root, *args)
        assert r.code == 0 and r.out, (args, r.err)
        return str(r.out)

    out = {f"report {fmt}": ok("report", "--for", who, "--format", fmt)
           for fmt in ("text", "html", "md", "bbcode")}
    out["status"], out["log"], out["dice"] = ok("status"), ok("log"), ok("dice")
    if who in api.status(root)["awaiting"]:
        orders = root.parent / f"{who}.yaml"
        yamlio.write_atomic(orders, yamlio.dump(api.bot(root, who, seed="probe")))
        checked = pbem("-C", root, "check", orders)
        out["check"] = checked.out + checked.err
    return {k: masked(v, root) for k, v in out.items()}


@pytest.mark.parametrize("game", sorted(GAMES))
def test_what_a_player_receives_never_depends_on_what_he_cannot_open(
        pbem, tmp_path: Path, monkeypatch: pytest.MonkeyPatch, game: str) -> None:  # noqa: ANN001
    one = build(tmp_path, game, "one", monkeypatch, other=False)
    two = build(tmp_path, game, "two", monkeypatch, other=True)
    states = [Campaign.open(r).state() for r in (one, two)]
    assert states[0]["seq"] == states[1]["seq"]  # the same steps, in public
    _stop, readers, owner = GAMES[game]
    # the control: what the hidden draws gave does differ, and shows where the key opens it
    referee = [masked(pbem("-C", r, "report", "--for", "referee", "--format", "text").out, r)
               for r in (one, two)]
    assert (referee[0] != referee[1]) == (owner is not None), game
    if game == "chechen_war":
        assert all(isinstance(t["unit"], dict) for t in states[0]["game"]["tokens"].values())
    for who in readers:
        a, b = received(pbem, one, who), received(pbem, two, who)
        for what in a:
            assert a[what] == b[what], (game, who, what)
