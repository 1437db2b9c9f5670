"""Cost of a pbem step against a plain git commit; audit and demo times.

Run: python benchmarks/steps.py [--steps N]
Creates a seeded Red Russia campaign in a temporary folder, applies bot orders with
`pbem apply` (one subprocess per step; the set-up reductions take one orders file per
faction, each file replacing the faction's earlier one, so every apply is one step), and
compares with `git commit` of a small change in a scratch repository.
"""

from __future__ import annotations

import argparse
import os
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))


def timed(cmd: list[str], cwd: Path | None = None) -> float:
    start = time.perf_counter()
    proc = subprocess.run(cmd, cwd=cwd, capture_output=True, text=True)
    elapsed = time.perf_counter() - start
    if proc.returncode != 0:
        raise SystemExit(f"{' '.join(cmd)} failed ({proc.returncode}):\n{proc.stderr}")
    return elapsed


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--steps", type=int, default=10)
    args = parser.parse_args()
    os.environ.setdefault("GIT_AUTHOR_NAME", "bench")
    os.environ.setdefault("GIT_AUTHOR_EMAIL", "bench@pbem.invalid")
    os.environ.setdefault("GIT_COMMITTER_NAME", "bench")
    os.environ.setdefault("GIT_COMMITTER_EMAIL", "bench@pbem.invalid")

    from pbem import api, yamlio

    pbem = [sys.executable, "-m", "pbem"]
    with tempfile.TemporaryDirectory(prefix="pbem-bench-") as tmp:
        base = Path(tmp)
        camp = base / "camp"
        api.new_campaign(camp, "red_russia", seed="bench", name="camp")
        # bring the campaign to a simultaneous phase where every faction is awaited
        drafts = base / "drafts"
        for step in range(50):
            s = api.status(camp)
            if s["phase"] == "setup-reduce":
                break
            files = []
            for faction in s["awaiting"]:
                path = drafts / f"{step}-{faction}.yaml"
                yamlio.write_atomic(path, yamlio.dump(api.bot(camp, faction)))
                files.append(path)
            api.apply(camp, files)
        factions = api.status(camp)["awaiting"]
        orders = {}
        for faction in factions:
            orders[faction] = drafts / f"reduce-{faction}.yaml"
            yamlio.write_atomic(orders[faction], yamlio.dump(api.bot(camp, faction)))
        # keep one faction out so that no apply completes the phase: one step per apply
        rotating = factions[:-1]
        apply_times = []
        for i in range(args.steps):
            faction = rotating[i % len(rotating)]
            apply_times.append(timed([*pbem, "-C", str(camp), "apply", str(orders[faction])]))
        audit_time = timed([*pbem, "-C", str(camp), "audit"])
        entries = len(list((camp / "log").glob("*.yaml")))

        scratch = base / "scratch"
        scratch.mkdir()
        subprocess.run(["git", "init", "-q", str(scratch)], check=True)
        commit_times = []
        for i in range(args.steps):
            (scratch / "note.txt").write_text(f"change {i}\n")
            subprocess.run(["git", "add", "note.txt"], cwd=scratch, check=True)
            commit_times.append(timed(["git", "commit", "-q", "-m", f"change {i}"], cwd=scratch))

        demo_time = timed([*pbem, "demo", str(base / "demo"), "--turns", "2"])

    t_apply = statistics.median(apply_times)
    t_commit = statistics.median(commit_times)
    print(f"{'measure':<40}{'time (ms)':>12}")
    print(f"{'pbem apply, one step (median of ' + str(args.steps) + ')':<40}{t_apply * 1000:>12.1f}")
    print(f"{'git commit, small change (median)':<40}{t_commit * 1000:>12.1f}")
    print(f"{'ratio apply / commit':<40}{t_apply / t_commit:>12.1f}")
    print(f"{'pbem audit (' + str(entries) + ' entries)':<40}{audit_time * 1000:>12.1f}")
    print(f"{'pbem demo --turns 2':<40}{demo_time * 1000:>12.1f}")


if __name__ == "__main__":
    main()
