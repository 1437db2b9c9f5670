"""`python -m pbem`: the same as the `pbem` command."""

from __future__ import annotations

from pbem.cli import main

main()
