"""Start-up time of `pbem --help` against a bare Typer app with two commands.

Run: python benchmarks/startup.py [--runs N]   (goal: ratio <= 1.2)
"""

from __future__ import annotations

import argparse
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

BARE_APP = '''
import typer

app = typer.Typer(add_completion=False)


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


def median_run(cmd: list[str], runs: int, cwd: Path) -> float:
    times = []
    subprocess.run(cmd, cwd=cwd, capture_output=True, check=True)  # warm the file cache
    for _ in range(runs):
        start = time.perf_counter()
        subprocess.run(cmd, cwd=cwd, capture_output=True, check=True)
        times.append(time.perf_counter() - start)
    return statistics.median(times)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--runs", type=int, default=15)
    args = parser.parse_args()
    with tempfile.TemporaryDirectory(prefix="pbem-bench-") as tmp:
        folder = Path(tmp)
        bare = folder / "bare_app.py"
        bare.write_text(BARE_APP)
        t_bare = median_run([sys.executable, str(bare), "--help"], args.runs, folder)
        t_pbem = median_run([sys.executable, "-m", "pbem", "--help"], args.runs, folder)
    ratio = t_pbem / t_bare
    print(f"{'command':<28}{'median (ms)':>12}")
    print(f"{'bare typer app --help':<28}{t_bare * 1000:>12.1f}")
    print(f"{'pbem --help':<28}{t_pbem * 1000:>12.1f}")
    print(f"{'ratio pbem / bare':<28}{ratio:>12.2f}   (goal <= 1.20: "
          f"{'met' if ratio <= 1.2 else 'NOT met'}; {args.runs} runs each)")


if __name__ == "__main__":
    main()
