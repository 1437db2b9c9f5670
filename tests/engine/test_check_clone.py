"""`pbem check` on a player's clone says what the referee's `apply` will say: the same
data (pools included), the same problems; and a clone behind the referee's says so and
how to catch up, instead of a bare refusal."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

from conftest import Result, git, play

from pbem import api, yamlio


def cloned(new_campaign: Callable[..., Path], tmp_path: Path) -> tuple[Path, Path]:
    """A campaign at turn 1's purchase phase, and a player's clone of it."""
    root = new_campaign()
    play(root, until_turn=1, phase="purchase")
    clone = tmp_path / "clone"
    git(tmp_path, "clone", "-q", str(root), str(clone))
    return root, clone


def test_check_on_a_clone_is_the_referees_apply(
        new_campaign: Callable[..., Path], tmp_path: Path, pbem: Callable[..., Result]) -> None:
    root, clone = cloned(new_campaign, tmp_path)
    state = yamlio.read_trusted(root / "state.yaml")["game"]
    left = sum(1 for u in state["units"].values()
               if u["faction"] == "red" and u["type"] == "cav" and u["status"] in ("pool", "eliminated"))
    body = api.bot(root, "red", salts=False)
    body["orders"] = [{"buy": {"type": "cav", "count": left + 1}}]  # one more than the pool has
    path = tmp_path / "red.yaml"
    path.write_text(yamlio.dump(body))
    checked = pbem("-C", clone, "check", path)
    applied = pbem("-C", root, "apply", path)
    assert checked.code == applied.code == 1
    problem = f"only {left} cav counter(s) left in red's pool (5.3)"
    assert problem in checked.err and problem in applied.err
    assert [line for line in checked.err.splitlines() if problem in line] == \
        [line.strip() for line in applied.err.splitlines() if problem in line]


def test_a_clone_behind_the_referee_says_so(
        new_campaign: Callable[..., Path], tmp_path: Path, pbem: Callable[..., Result]) -> None:
    root, clone = cloned(new_campaign, tmp_path)
    seq = api.status(root)["seq"]
    status = play(root, until=lambda s: s["seq"] > seq and s["phase"] != "purchase")
    faction = status["awaiting"][0]
    path = tmp_path / "orders.yaml"  # as the referee's latest mail brings it
    path.write_text(yamlio.dump(api.bot(root, faction, salts=False)))
    stale = pbem("-C", clone, "check", path)
    assert stale.code == 1
    assert (f"{path}: the log head it names ({status['head'][:16]}...) is not in this clone, "
            f"which is at step {seq}") in stale.out
    assert "git pull" in stale.out
    git(clone, "pull", "-q")
    fresh = pbem("-C", clone, "check", path)
    assert fresh.code == 0, fresh.err
    assert "not in this clone" not in fresh.out
    # a file naming an old head the clone has is refused, but not told to pull
    from pbem.campaign import Campaign
    from pbem.log import entry_hash

    old = entry_hash(next(Campaign.open(clone).entries()))
    path.write_text(path.read_text().replace(status["head"], old).replace(
        f"phase: {status['phase']}", "phase: purchase"))
    refused = pbem("-C", clone, "check", path)
    assert refused.code == 1 and "not in this clone" not in refused.out
