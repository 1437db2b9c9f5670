"""Tempo: players who send back the templates pbem mails them, unchanged, with no standing
instruction of their own, need two orders files a faction in an ordinary turn (purchase,
action): no battle stops to ask a defender by mail (README ruling 31)."""

from __future__ import annotations

from collections import Counter
from pathlib import Path

import pytest

from pbem import api, yamlio
from pbem.campaign import Campaign

TURNS = 6  # the seed gives turn 5 battles whose defenders could retreat (asked before)


@pytest.mark.slow
def test_an_ordinary_turn_takes_two_files_a_faction_with_the_defaults(tmp_path: Path) -> None:
    root = tmp_path / "camp"
    api.new_campaign(root, "red_russia", contributions=False, hot_seat=True, seed="tempo",
                     name="camp", keys_dir=tmp_path / "keys")
    files: Counter[tuple[int, str]] = Counter()
    for step in range(300):
        status = api.status(root)
        if status["over"] or status["turn"] > TURNS:
            break
        paths = []
        for faction in status["awaiting"]:
            path = tmp_path / "orders" / f"{step:03d}-{faction}.yaml"
            body = api.bot(root, faction, template=True)  # what the mail attaches
            assert "standing" not in body or status["phase"] in ("purchase", "action")
            yamlio.write_atomic(path, yamlio.dump(body))
            paths.append(path)
            files[(status["turn"], faction)] += 1
        if paths:
            api.apply(root, paths)
        else:
            api.resolve(root)
    assert api.status(root)["turn"] > TURNS
    ordinary = {k: n for k, n in files.items() if k[0] >= 1}
    assert ordinary and max(ordinary.values()) == 2, ordinary
    # the battles were there to ask about: defenders with no instruction stood and fought
    events = [e for entry in Campaign.open(root).entries() for e in entry.get("events") or []]
    attacks = [e for e in events if e.get("type") == "attack"]
    assert attacks, "no battle was fought: the measure proves nothing"
    assert not any(e.get("type") == "asked" for e in events)
    standing = yamlio.read_trusted(root / "state.yaml")["game"]["standing"]
    assert not any(s.get("retreat_before_combat") for s in standing.values())
