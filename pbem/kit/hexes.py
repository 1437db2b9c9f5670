"""A hex grid named by a printed map's four-digit offset ids ("CCRR": column, then row).

Players and data use the printed ids ("0731"); the grid converts them to axial coordinates
inside (Red Blob Games, "Hexagonal Grids": columns are flat-topped "q" offset layouts), so
neighbours and distance are plain arithmetic instead of parity-dependent tables.

Columns run left to right and rows top to bottom as printed; the hexes of one column share
flats, so a column is a vertical line of hexes and neighbouring columns sit half a hex apart.
Which columns sit half a hex higher is the map's parity, a rule of the game, not of this
module: `Grid(even_columns_shifted="up")` means even-numbered columns sit half a hex toward
the lower row numbers, so odd (c, r) touches (c±1, r) and (c±1, r+1) and even (c, r) touches
(c±1, r-1) and (c±1, r); "down" is the mirror image. There is no default: a game states its
parity once, where its map is defined, and tests it against its rulebook's examples.

Ids are strings on purpose. YAML 1.1 reads an unquoted 0731 as the octal number 473 (and
0817 as the string "0817"), so an id that is a number is refused with a message that says
to quote it, instead of being guessed back into a string.
"""

from __future__ import annotations

import math
import re
from collections.abc import Iterable
from dataclasses import dataclass
from typing import Literal

Hexside = tuple[str, str]
"""A hexside: the ids of the two hexes it separates, in sorted order (see `Grid.hexside`)."""

_RULE = 'hex ids must be quoted 4-digit strings "CCRR" (column then row), e.g. "0731"'
_ID = re.compile(r"[0-9]{4}")

# The six directions in axial (q, r), in the order `neighbours` returns them: the hex above
# (row - 1), then clockwise as printed: upper right, lower right, below, lower left, upper left.
_DIRECTIONS = ((0, -1), (1, -1), (1, 0), (0, 1), (-1, 1), (-1, 0))


@dataclass(frozen=True)
class Grid:
    """A map's grid: its parity and its extent (first and last column and row, inclusive).

    Hexes outside the extent do not exist: they are no one's neighbours, and naming one is
    refused, so a typo in a game's data is caught where it is read."""

    even_columns_shifted: Literal["up", "down"]
    columns: tuple[int, int] = (1, 99)
    rows: tuple[int, int] = (1, 99)

    def __post_init__(self) -> None:
        # Checked here too: the parity may come from a game's data file, not from typed code.
        if self.even_columns_shifted not in ("up", "down"):
            raise ValueError(f"even_columns_shifted must be 'up' or 'down', not "
                             f"{self.even_columns_shifted!r}")
        for name, (low, high) in (("columns", self.columns), ("rows", self.rows)):
            if not 1 <= low <= high <= 99:
                raise ValueError(f"{name} must run from 1 to at most 99, not {low}-{high}")

    # ids and coordinates

    def offset(self, hex_id: object) -> tuple[int, int]:
        """The (column, row) of an id, after checking it is a 4-digit string on this grid."""
        if not isinstance(hex_id, str):
            raise ValueError(f"hex id {hex_id!r} ({type(hex_id).__name__}) is not a string: "
                             f"{_RULE} (YAML reads an unquoted 0731 as the number 473)")
        if not _ID.fullmatch(hex_id):
            raise ValueError(f"hex id {hex_id!r} is not 4 digits: {_RULE}")
        col, row = int(hex_id[:2]), int(hex_id[2:])
        if not self._on_grid(col, row):
            raise ValueError(f"hex id {hex_id!r} is off the map ({self._extent()})")
        return col, row

    def hex_id(self, col: int, row: int) -> str:
        """The id of the hex at (column, row); ValueError if it is off the map."""
        if not self._on_grid(col, row):
            raise ValueError(f"column {col}, row {row} is off the map ({self._extent()})")
        return f"{col:02d}{row:02d}"

    def axial(self, hex_id: str) -> tuple[int, int]:
        """Axial (q, r) of an id: q is the column; r counts along the column, corrected by
        half the column number so that each of the six directions is one fixed step."""
        col, row = self.offset(hex_id)
        return col, row - self._lift(col)

    def _from_axial(self, q: int, r: int) -> tuple[int, int]:
        return q, r + self._lift(q)

    def _lift(self, col: int) -> int:
        # "up" is odd-q in Red Blob's terms (odd columns pushed down), "down" is even-q.
        odd = col & 1
        return (col - odd) // 2 if self.even_columns_shifted == "up" else (col + odd) // 2

    def _extent(self) -> str:
        (c0, c1), (r0, r1) = self.columns, self.rows
        return f"columns {c0:02d}-{c1:02d}, rows {r0:02d}-{r1:02d}"

    def _on_grid(self, col: int, row: int) -> bool:
        return (self.columns[0] <= col <= self.columns[1]
                and self.rows[0] <= row <= self.rows[1])

    # adjacency and distance

    def neighbours(self, hex_id: str) -> list[str]:
        """The hexes touching `hex_id`, in a fixed order: the one above (row - 1), then
        clockwise as printed. Six, fewer at the map's edges (those off the map are left out)."""
        q, r = self.axial(hex_id)
        found = []
        for dq, dr in _DIRECTIONS:
            col, row = self._from_axial(q + dq, r + dr)
            if self._on_grid(col, row):
                found.append(f"{col:02d}{row:02d}")
        return found

    def distance(self, a: str, b: str) -> int:
        """The number of hex steps from `a` to `b` (cube distance)."""
        (qa, ra), (qb, rb) = self.axial(a), self.axial(b)
        dq, dr = qa - qb, ra - rb
        return (abs(dq) + abs(dr) + abs(dq + dr)) // 2

    def adjacent(self, a: str, b: str) -> bool:
        """Whether `a` and `b` share a hexside (a hex is not adjacent to itself)."""
        return self.distance(a, b) == 1

    def within(self, hex_id: str, n: int) -> list[str]:
        """The hexes at most `n` steps from `hex_id` (itself included), on the map, sorted
        by id: "on or adjacent to" is `within(x, 1)`."""
        if n < 0:
            raise ValueError(f"a range of {n} hexes")
        q, r = self.axial(hex_id)
        found = []
        for dq in range(-n, n + 1):
            for dr in range(max(-n, -dq - n), min(n, -dq + n) + 1):
                col, row = self._from_axial(q + dq, r + dr)
                if self._on_grid(col, row):
                    found.append(f"{col:02d}{row:02d}")
        return sorted(found)

    def ring(self, hex_id: str, n: int) -> list[str]:
        """The hexes exactly `n` steps from `hex_id`, on the map, sorted by id."""
        return [h for h in self.within(hex_id, n) if self.distance(hex_id, h) == n]

    # hexsides and zones of control

    def hexside(self, a: str, b: str) -> Hexside:
        """The hexside between two adjacent hexes, the same key whichever side names it,
        so data can attach a river, road or bridge to it once. ValueError if not adjacent."""
        if not self.adjacent(a, b):
            raise ValueError(f"hexes {a} and {b} are not adjacent: they share no hexside")
        return (a, b) if a < b else (b, a)

    def zoc(self, holders: Iterable[str], blocked: Iterable[Hexside] = ()) -> set[str]:
        """The hexes in the zone of control of units in `holders`: every hex adjacent to one
        of them, except across a hexside in `blocked` (either order of its two hexes). A hex
        in several zones is in the set once; a holder's own hex is in it only if another
        holder is next to it. Who exerts a zone, and what it does, are the game's rules."""
        shut = {self.hexside(a, b) for a, b in blocked}
        return {there for here in holders for there in self.neighbours(here)
                if self.hexside(here, there) not in shut}

    # drawing

    def centre(self, hex_id: str) -> tuple[float, float]:
        """The centre (x, y) of a hex for drawing, with x to the right and y down, for hexes
        1 wide across the flats: rows are 1 apart, columns sqrt(3)/2 apart, and the shifted
        columns half a row up ("up") or down."""
        col, row = self.offset(hex_id)
        half = 0.0 if col % 2 else (-0.5 if self.even_columns_shifted == "up" else 0.5)
        return col * math.sqrt(3) / 2, row + half

    def corners(self, hex_id: str) -> list[tuple[float, float]]:
        """The six corners of a hex for an SVG polygon (same units as `centre`), from the
        right-hand corner clockwise (y down): flat-topped, 1/sqrt(3) from centre to corner."""
        x, y = self.centre(hex_id)
        radius = 1 / math.sqrt(3)
        return [(x + radius * math.cos(math.radians(60 * k)),
                 y + radius * math.sin(math.radians(60 * k))) for k in range(6)]
