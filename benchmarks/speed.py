"""pbem's speed goals, each printed as a ratio against its baseline measured in the same run.

Run: python benchmarks/speed.py [--runs N] [--work DIR] [--long-turns T] [--rows ROW ...]

| row | pbem | baseline | goal |
|---|---|---|---|
| help | `pbem --help` | a bare two-command Typer app's `--help`, same (plain) help formatter | <= 1.2 |
| status | `pbem -C CAMP status` | a bare two-command Typer app, same (plain) help formatter | <= 1.5 |
| apply | `pbem apply` of one orders file (one step) | the bare app + 3 x (`git add` + `git commit` of files like a step's) + 50 ms | <= 1.0 |
| audit | `pbem audit` of the whole 12-turn demo game | a Python process that reads every entry and snapshot the audit checks with one `git cat-file --batch` and parses each with CSafeLoader | <= 2.0 |
| linear | audit of a campaign with ~10x the entries / audit of the 12-turn game | (entries ratio) | <= 1.1 x the entries ratio |
| memory | audit's peak RSS on the long campaign / on the 12-turn game | | <= 1.2 (flat) |

Every figure is a median of paired runs: each run of pbem is followed by one of its
baseline, so that the machine's load falls on both alike. CPU is the user + system time of
the child processes (`resource.getrusage(RUSAGE_CHILDREN)`), peak memory its `ru_maxrss`,
each measured in a child of its own.

The long campaign is generated honestly, by playing: the bot plays Red Russia through
`pbem demo` with the turn track lengthened to `--long-turns` turns (default 136, the
seasons repeating and the years counting on) and the automatic victory levels (16.0) put
out of reach, so that the game runs to its end, in a copy of the game folder found first
by PBEM_GAMES_PATH; nothing else of the rules changes. Both campaigns are kept in --work (by
default a folder under the temp folder, reused by later runs with the same --work).
"""

from __future__ import annotations

import argparse
import json
import os
import re
import resource
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
PY = sys.executable
ROWS = ("help", "status", "apply", "audit", "linear", "memory")

BARE_APP = '''
import typer

app = typer.Typer(add_completion=False, rich_markup_mode=None)


@app.command()
def hello(name: str = "world") -> None:
    """Say hello."""
    typer.echo(f"hello {name}")


@app.command()
def bye() -> None:
    """Say goodbye."""
    typer.echo("bye")


if __name__ == "__main__":
    app()
'''

# The audit's baseline: every log entry as its commit adds it and every commit's snapshot,
# read through one `git cat-file --batch` and parsed with PyYAML's C loader.
PARSE_ALL = '''
import subprocess, sys
import yaml

root = sys.argv[1]
log = subprocess.run(["git", "-C", root, "log", "--first-parent", "--reverse", "--root",
                      "--format=commit %H", "--raw", "--no-abbrev", "--no-renames", "--",
                      "log", "state.yaml"], capture_output=True, text=True, check=True).stdout
blobs = [line.split()[3] for line in log.splitlines()
         if line.startswith(":") and line.split()[4] in ("A", "M")]
cat = subprocess.Popen(["git", "-C", root, "cat-file", "--batch"], stdin=subprocess.PIPE,
                       stdout=subprocess.PIPE)
cat.stdin.write("".join(b + "\\n" for b in blobs).encode())
cat.stdin.close()
parsed = 0
for _ in blobs:
    header = cat.stdout.readline().split()
    body = cat.stdout.read(int(header[2]))
    cat.stdout.read(1)
    yaml.load(body, Loader=yaml.CSafeLoader)
    parsed += 1
cat.wait()
print(parsed)
'''


def env() -> dict[str, str]:
    # as a user runs pbem: with its bytecode cached (an installed package is compiled by pip;
    # a checkout's __pycache__ is written on the first run), whatever this shell says
    out = {k: v for k, v in os.environ.items() if k != "PYTHONDONTWRITEBYTECODE"}
    for role in ("AUTHOR", "COMMITTER"):
        out.setdefault(f"GIT_{role}_NAME", "bench")
        out.setdefault(f"GIT_{role}_EMAIL", "bench@pbem.invalid")
    return out


def run(cmd: list[str], cwd: Path | None = None, extra: dict[str, str] | None = None) -> tuple[float, float]:
    """Wall and CPU seconds of one command (and its children)."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    start = time.perf_counter()
    proc = subprocess.run(cmd, cwd=cwd, capture_output=True, text=True, env={**env(), **(extra or {})})
    wall = time.perf_counter() - start
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    if proc.returncode != 0:
        raise SystemExit(f"{' '.join(cmd)} failed ({proc.returncode}):\n{proc.stdout}{proc.stderr}")
    cpu = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
    return wall, cpu


def peak_rss_mib(cmd: list[str]) -> float:
    """The peak resident memory of `cmd`, measured in a child of a fresh Python (so that no
    earlier child's peak counts)."""
    probe = ("import resource, subprocess, sys; subprocess.run(sys.argv[1:], check=True, "
             "capture_output=True); print(resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss)")
    out = subprocess.run([PY, "-c", probe, *cmd], capture_output=True, text=True, env=env(), check=True)
    return int(out.stdout.split()[-1]) / 1024


def paired(runs: int, pbem: Callable[[], tuple[float, float]],
           base: Callable[[], tuple[float, float]]) -> tuple[tuple[float, float], tuple[float, float]]:
    """Medians (wall, cpu) of pbem and of its baseline, run alternately."""
    pbem(), base()  # warm the file cache
    ours: list[tuple[float, float]] = []
    theirs: list[tuple[float, float]] = []
    for _ in range(runs):
        ours.append(pbem())
        theirs.append(base())
    med = lambda xs, i: statistics.median(x[i] for x in xs)  # noqa: E731
    return (med(ours, 0), med(ours, 1)), (med(theirs, 0), med(theirs, 1))


def row(name: str, ours: tuple[float, float], base: tuple[float, float], goal: float, what: str) -> None:
    wall, cpu = ours[0] / base[0], ours[1] / base[1]
    verdict = "met" if max(wall, cpu) <= goal else "NOT met"
    print(f"{name:<8} pbem {ours[0] * 1000:8.0f} ms wall {ours[1] * 1000:8.0f} ms CPU | baseline "
          f"{base[0] * 1000:8.0f} ms wall {base[1] * 1000:8.0f} ms CPU | ratio {wall:5.2f} wall "
          f"{cpu:5.2f} CPU (goal <= {goal:g}: {verdict}) - {what}")


# ------------------------------------------------------------------------ the campaigns


def demo_campaign(work: Path) -> Path:
    camp = work / "demo"
    if not (camp / "campaign.yaml").is_file():
        shutil.rmtree(camp, ignore_errors=True)
        print(f"playing the demo campaign into {camp} ...", flush=True)
        run([PY, "-m", "pbem", "demo", str(camp)])
    return camp


def long_campaign(work: Path, turns: int) -> Path:
    """Red Russia played by the bot over a turn track of `turns` turns."""
    camp = work / f"long-{turns}"
    if (camp / "campaign.yaml").is_file():
        return camp
    games = work / f"games-{turns}"
    shutil.rmtree(games, ignore_errors=True)
    shutil.copytree(ROOT / "games" / "red_russia", games / "red_russia")
    game_yaml = games / "red_russia" / "game.yaml"
    track, year = [], 1918
    for i in range(turns):
        season = ("Summer", "Autumn", "Winter", "Spring")[i % 4]
        year += season == "Spring"
        track.append(f"  - {season} {year}")
    text = re.sub(r"turns:[^\n]*\n(  - [^\n]*\n)+", "turns:\n" + "\n".join(track) + "\n",
                  game_yaml.read_text(encoding="utf-8"), count=1)
    # out of reach, so that no faction wins early (16.0); 16.2 and 16.1 still end the game
    text = re.sub(r"automatic: \{[^}]*\}", "automatic: {red: 999, siberian: 999, south: 999, north: 999}",
                  text, count=1)
    game_yaml.write_text(text, encoding="utf-8")
    shutil.rmtree(camp, ignore_errors=True)
    print(f"playing a {turns}-turn campaign into {camp} (some minutes) ...", flush=True)
    run([PY, "-m", "pbem", "demo", str(camp), "--game", "red_russia"],
        extra={"PBEM_GAMES_PATH": str(games)})
    return camp


def audit_env(camp: Path) -> dict[str, str]:
    games = camp.parent / f"games-{camp.name.removeprefix('long-')}"
    return {"PBEM_GAMES_PATH": str(games)} if games.is_dir() else {}


def apply_campaign(work: Path) -> tuple[Path, list[Path]]:
    """A campaign at its first set-up phase where every faction is awaited, and one orders
    file per faction but the last: applying them in turn never completes the phase, so
    every apply is exactly one step (each file replaces that faction's earlier one)."""
    sys.path.insert(0, str(ROOT))
    os.environ.update(env())
    from pbem import api, yamlio

    base = work / "apply"
    shutil.rmtree(base, ignore_errors=True)
    camp = base / "camp"
    api.new_campaign(camp, "red_russia", seed="bench", name="bench")
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
    orders = []
    for faction in factions[:-1]:
        path = drafts / f"reduce-{faction}.yaml"
        yamlio.write_atomic(path, yamlio.dump(api.bot(camp, faction)))
        orders.append(path)
    return camp, orders


# ---------------------------------------------------------------------------- the rows


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=11, help="paired runs per row (default 11)")
    parser.add_argument("--work", type=Path, default=Path(tempfile.gettempdir()) / "pbem-speed",
                        help="folder for the campaigns, kept between runs")
    parser.add_argument("--long-turns", type=int, default=136,
                        help="turns of the long campaign (default 136: about 10x the entries)")
    parser.add_argument("--rows", nargs="+", choices=ROWS, default=list(ROWS), help="which rows")
    args = parser.parse_args()
    work: Path = args.work
    work.mkdir(parents=True, exist_ok=True)
    bare = work / "bare_app.py"
    bare.write_text(BARE_APP, encoding="utf-8")
    parse_all = work / "parse_all.py"
    parse_all.write_text(PARSE_ALL, encoding="utf-8")
    pbem = [PY, "-m", "pbem"]
    demo = demo_campaign(work)

    def cold(camp: Path, extra: dict[str, str] | None = None) -> tuple[float, float]:
        """An audit with nothing parsed before (a new clone's first audit)."""
        shutil.rmtree(camp / ".git" / "pbem-parsed", ignore_errors=True)
        return run([*pbem, "-C", str(camp), "audit"], extra=extra)


    if "help" in args.rows:
        ours, base = paired(args.runs, lambda: run([*pbem, "--help"]),
                            lambda: run([PY, str(bare), "--help"]))
        row("help", ours, base, 1.2, "pbem --help / the bare app's --help")

    if "status" in args.rows:
        ours, base = paired(args.runs, lambda: run([*pbem, "-C", str(demo), "status"]),
                            lambda: run([PY, str(bare), "hello"]))
        row("status", ours, base, 1.5, "pbem status / a bare two-command Typer app")

    if "apply" in args.rows:
        camp, orders = apply_campaign(work)
        scratch = work / "scratch-git"
        shutil.rmtree(scratch, ignore_errors=True)
        subprocess.run(["git", "init", "-q", str(scratch)], check=True)
        entry = (camp / "log").glob("*.yaml").__next__().read_text(encoding="utf-8")
        state = (camp / "state.yaml").read_text(encoding="utf-8")
        turn = iter(range(10**6))
        cycle = iter(range(10**6))

        def one_apply() -> tuple[float, float]:
            return run([*pbem, "-C", str(camp), "apply", str(orders[next(cycle) % len(orders)])])

        def baseline() -> tuple[float, float]:
            wall, cpu = run([PY, str(bare), "hello"])
            for _ in range(3):
                n = next(turn)
                (scratch / f"entry-{n}.yaml").write_text(entry + f"# {n}\n", encoding="utf-8")
                (scratch / "state.yaml").write_text(state + f"# {n}\n", encoding="utf-8")
                w1, c1 = run(["git", "-C", str(scratch), "add", "--", f"entry-{n}.yaml", "state.yaml"])
                w2, c2 = run(["git", "-C", str(scratch), "commit", "-q", "--no-verify",
                              "--no-gpg-sign", "-m", f"step {n}"])
                wall, cpu = wall + w1 + w2, cpu + c1 + c2
            return wall + 0.05, cpu + 0.05

        ours, base = paired(args.runs, one_apply, baseline)
        row("apply", ours, base, 1.0, "pbem apply (one step) / bare app + 3 x (git add + git commit) + 50 ms")

    entries = len(list((demo / "log").glob("*.yaml")))
    if "audit" in args.rows:
        ours, base = paired(max(3, args.runs // 3), lambda: cold(demo),
                            lambda: run([PY, str(parse_all), str(demo)]))
        row("audit", ours, base, 2.0, f"pbem audit of the 12-turn game ({entries} entries), "
            "its first / CSafeLoader parse of every entry and snapshot")
        ours, base = paired(max(3, args.runs // 3), lambda: run([*pbem, "-C", str(demo), "audit"]),
                            lambda: run([PY, str(parse_all), str(demo)]))
        row("audit", ours, base, 2.0, "the same audit again (the parses kept in .git by blob id) / "
            "the same parse")

    if "linear" in args.rows or "memory" in args.rows:
        long = long_campaign(work, args.long_turns)
        long_entries = len(list((long / "log").glob("*.yaml")))
        factor = long_entries / entries
        if "linear" in args.rows:
            extra = audit_env(long)
            ours, base = paired(3, lambda: cold(long, extra), lambda: cold(demo))
            ratio = ours[1] / base[1]
            verdict = "met" if ratio <= 1.1 * factor else "NOT met"
            print(f"linear   audit of {long_entries} entries {ours[0]:.2f} s wall {ours[1]:.2f} s CPU | "
                  f"of {entries} entries {base[0]:.2f} s wall {base[1]:.2f} s CPU | {factor:.1f}x the "
                  f"entries cost {ours[0] / base[0]:.1f}x wall {ratio:.1f}x CPU (goal <= "
                  f"{1.1 * factor:.1f}x: {verdict})")
        if "memory" in args.rows:
            games = audit_env(long).get("PBEM_GAMES_PATH")
            prefix = ["env", f"PBEM_GAMES_PATH={games}"] if games else []
            small = peak_rss_mib([*pbem, "-C", str(demo), "audit"])
            big = peak_rss_mib([*prefix, *pbem, "-C", str(long), "audit"])
            verdict = "met" if big <= 1.2 * small else "NOT met"
            print(f"memory   audit's peak RSS: {big:.1f} MiB for {long_entries} entries, {small:.1f} MiB "
                  f"for {entries} | ratio {big / small:.2f} (goal <= 1.2, flat: {verdict})")
    print(json.dumps({"python": sys.version.split()[0], "cores": os.cpu_count()}))


if __name__ == "__main__":
    main()
