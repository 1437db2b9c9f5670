"""`pbem publish` leaves a shared remote that every player can clone, and never forces.

A local bare remote made with a plain `git init --bare` names master as its HEAD while pbem
pushes main, so its first clone would come out empty; a turn tag that an undo moved after
it was published is not forced onto the remote; the moderator's edits of campaign.yaml
(deadlines) go out with the history, so every clone agrees on the deadlines.
"""

from __future__ import annotations

import subprocess
from collections.abc import Callable
from pathlib import Path

from pbem import api, yamlio
from tests.conftest import Result, git, play


def _bare(tmp_path: Path) -> Path:
    bare = tmp_path / "shared.git"
    subprocess.run(["git", "init", "--quiet", "--bare", str(bare)], check=True,
                   env={"GIT_CONFIG_NOSYSTEM": "1", "HOME": str(tmp_path), "PATH": "/usr/bin:/bin"})
    assert (bare / "HEAD").read_text().strip() == "ref: refs/heads/master"
    return bare


def test_a_plain_bare_remote_gets_a_head_its_clones_check_out(
        new_campaign: Callable[..., Path], tmp_path: Path, pbem: Callable[..., Result]) -> None:
    camp = new_campaign()
    play(camp, until_turn=0, phase="setup-reduce")
    bare = _bare(tmp_path)
    git(camp, "remote", "add", "origin", str(bare))
    r = pbem("-C", camp, "publish")
    assert r.code == 0, r.err
    assert "it now names main, so a plain 'git clone' checks the campaign out" in r.out
    clone = tmp_path / "clone"
    subprocess.run(["git", "clone", "--quiet", str(bare), str(clone)], check=True)
    assert (clone / "campaign.yaml").is_file()
    assert api.status(clone)["head"] == api.status(camp)["head"]
    again = pbem("-C", camp, "publish")  # now it names main: nothing to say
    assert again.code == 0 and "note:" not in again.out


def test_only_a_bare_repository_on_this_machine_has_its_head_changed(
        new_campaign: Callable[..., Path], tmp_path: Path) -> None:
    # a remote elsewhere only its host can change: publish then says how (its note)
    camp = new_campaign()
    git(camp, "remote", "add", "far", "git://127.0.0.1:9/camp.git")
    git(camp, "remote", "add", "work", str(camp))  # a folder, but a work tree, not bare
    store = api.Campaign.open(camp).store()
    assert store.point_local_head("far", "main") is False
    assert store.point_local_head("work", "main") is False
    assert (camp / ".git" / "HEAD").read_text().strip() == "ref: refs/heads/main"


def test_a_moved_turn_tag_is_never_forced_onto_the_remote(
        new_campaign: Callable[..., Path], tmp_path: Path, pbem: Callable[..., Result]) -> None:
    camp = new_campaign()
    play(camp, until_turn=1, phase="purchase")
    bare = _bare(tmp_path)
    git(camp, "remote", "add", "origin", str(bare))
    assert pbem("-C", camp, "publish").code == 0
    published = git(bare, "rev-parse", "turn-0001")
    # the step that began turn 1 is taken back and made again: the local tag moves
    assert api.undo(root=camp, reason="a wrong die table")["undone"]
    api.resolve(camp, nmr=True)
    while api.status(camp)["turn"] < 1:
        play(camp, until_turn=1, phase="purchase")
    assert git(camp, "rev-parse", "turn-0001") != published
    r = pbem("-C", camp, "publish")
    assert r.code == 1
    assert "a turn tag differs on the remote" in r.err and "never force-pushes" in r.err
    assert git(bare, "rev-parse", "turn-0001") == published  # not forced
    assert git(bare, "rev-parse", "main") == git(camp, "rev-parse", "HEAD")  # the history went


def test_the_moderators_edits_go_out_with_the_history(
        new_campaign: Callable[..., Path], tmp_path: Path, pbem: Callable[..., Result]) -> None:
    camp = new_campaign()
    config = yamlio.read_trusted(camp / "campaign.yaml")
    config["deadlines"] = {"hours": 36}
    (camp / "campaign.yaml").write_text(yamlio.dump(config))
    bare = _bare(tmp_path)
    git(camp, "remote", "add", "origin", str(bare))
    r = pbem("-C", camp, "publish")
    assert r.code == 0, r.err
    assert "committed the edits of campaign.yaml first" in r.out
    assert git(camp, "status", "--porcelain") == ""
    shared = yamlio.load_trusted(git(bare, "show", "main:campaign.yaml"))
    assert shared["deadlines"] == {"hours": 36}
    assert pbem("-C", camp, "audit").code == 0


def test_the_private_folder_is_the_referees_alone(new_campaign: Callable[..., Path]) -> None:
    import stat

    camp = new_campaign()
    assert stat.S_IMODE((camp / ".pbem").stat().st_mode) == 0o700
    for path in (camp / ".pbem").rglob("*"):
        if path.is_file() and path.suffix != ".pub":  # a public key may be read by all
            assert stat.S_IMODE(path.stat().st_mode) & 0o077 == 0, path
