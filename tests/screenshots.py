"""Pictures as a player sees them: a page rendered by headless Chromium, and the colours of
the PNG it makes (standard library only). Used by the report tests of pbem and the games."""

from __future__ import annotations

import struct
import subprocess
import zlib
from pathlib import Path


def screenshot(page: Path, png: Path, size: str, profile: Path, *extra: str) -> subprocess.CompletedProcess[str]:
    """`page` rendered by headless Chromium into `png` at `size` ("W,H"), with a fresh
    profile and nothing fetched from the network."""
    return subprocess.run(
        ["chromium", "--headless", "--no-sandbox", "--disable-gpu", "--disable-quic",
         "--no-first-run", "--disable-background-networking", "--disable-component-update",
         "--disable-sync", f"--user-data-dir={profile}", f"--screenshot={png}",
         f"--window-size={size}", *extra, page.as_uri()],
        capture_output=True, text=True, timeout=120,
    )


def png_colours(path: Path) -> set[bytes]:
    """The distinct RGB colours of an 8-bit, non-interlaced RGB(A) PNG, or the palette of a
    palette PNG (every entry of a palette pbem writes is used; standard library only)."""
    data = path.read_bytes()
    assert data[:8] == b"\x89PNG\r\n\x1a\n", "not a PNG"
    pos, idat = 8, []
    width = height = ctype = 0
    while pos < len(data):
        length, kind = struct.unpack(">I4s", data[pos:pos + 8])
        body = data[pos + 8:pos + 8 + length]
        if kind == b"IHDR":
            width, height, depth, ctype, _c, _f, interlace = struct.unpack(">IIBBBBB", body)
            assert depth == 8 and interlace == 0 and ctype in (2, 3, 6), (depth, interlace, ctype)
        elif kind == b"PLTE" and ctype == 3:
            return {body[i:i + 3] for i in range(0, len(body), 3)}
        elif kind == b"IDAT":
            idat.append(body)
        pos += 12 + length
    bpp = 3 if ctype == 2 else 4
    raw = zlib.decompress(b"".join(idat))
    stride = width * bpp
    prev = bytearray(stride)
    seen: set[bytes] = set()
    for y in range(height):
        start = y * (stride + 1)
        kind_, line = raw[start], bytearray(raw[start + 1:start + 1 + stride])
        if kind_ == 1:  # Sub
            for i in range(bpp, stride):
                line[i] = (line[i] + line[i - bpp]) & 255
        elif kind_ == 2:  # Up
            line = bytearray((a + b) & 255 for a, b in zip(line, prev, strict=True))
        elif kind_ == 3:  # Average
            for i in range(stride):
                left = line[i - bpp] if i >= bpp else 0
                line[i] = (line[i] + (left + prev[i]) // 2) & 255
        elif kind_ == 4:  # Paeth
            for i in range(stride):
                a = line[i - bpp] if i >= bpp else 0
                b, c = prev[i], (prev[i - bpp] if i >= bpp else 0)
                p = a + b - c
                pa, pb, pc = abs(p - a), abs(p - b), abs(p - c)
                line[i] = (line[i] + (a if pa <= pb and pa <= pc else b if pb <= pc else c)) & 255
        seen.update(bytes(line[i:i + 3]) for i in range(0, stride, bpp))
        prev = line
    return seen
