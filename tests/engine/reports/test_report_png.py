"""The report's map as a PNG picture: `pbem report --format png` (a forum's [img]) and the
picture attached to each report mail (webmail often strips an inline SVG)."""

from __future__ import annotations

import struct
import sys
from collections.abc import Callable
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))
from conftest import Result  # noqa: E402
from screenshots import png_colours  # noqa: E402

from pbem import yamlio  # noqa: E402
from pbem.mail import loop as mailloop  # noqa: E402
from tests.engine.mail.test_mail import camp as camp  # noqa: E402 - the fixture
from tests.engine.mail.test_mail import parse  # noqa: E402

COLOURS = yamlio.read_trusted(Path(__file__).resolve().parents[3] / "games" / "red_russia"
                              / "templates" / "report.yaml")["colours"]


def rgb(hex_colour: str) -> bytes:
    return bytes.fromhex(hex_colour.lstrip("#"))


def size(png: bytes) -> tuple[int, int]:
    assert png[:8] == b"\x89PNG\r\n\x1a\n" and png[12:16] == b"IHDR"
    width, height = struct.unpack(">II", png[16:24])
    return width, height


def test_the_map_as_a_picture(camp: Path, tmp_path: Path, pbem: Callable[..., Result]) -> None:
    r = pbem("-C", camp, "report", "--format", "png", "--for", "public", "--out", tmp_path / "out")
    assert r.code == 0, r.err
    path = Path(r.out.strip())
    assert path == tmp_path / "out" / "camp-t0-public.png"
    assert size(path.read_bytes()) == (1000, 724)  # the SVG's own canvas
    colours = png_colours(path)
    # every major faction's zones, the neutral ones, the minors in the legend
    for faction in ("red", "siberian", "south", "north", "poland", "finland", "neutral"):
        assert rgb(COLOURS[faction]) in colours, faction


def test_a_picture_needs_a_folder(camp: Path, tmp_path: Path, pbem: Callable[..., Result]) -> None:
    r = pbem("-C", camp, "report", "--format", "png")
    assert r.code == 2 and "--format png writes a picture: give --out DIR" in r.err
    (tmp_path / "file").write_text("x")
    r = pbem("-C", camp, "report", "--format", "png", "--out", tmp_path / "file")
    assert r.code == 2 and "not a folder" in r.err
    r = pbem("-C", camp, "report", "--format", "gif")
    assert r.code == 2 and "choose one of text, html, md, bbcode, png" in r.err


def test_each_report_mail_shows_the_map_as_a_picture_in_place(camp: Path) -> None:
    """The picture is inline beside the HTML (multipart/related), which shows it by its
    Content-ID instead of the SVG (which no mail program shows and which doubled the mail);
    a palette PNG, every colour of the legend in it."""
    sent = mailloop.mail(camp)
    for record in sent["queued"]:
        msg = parse(camp / ".pbem" / "outbox" / record["file"])
        pictures = [p for p in msg.walk() if p.get_content_type() == "image/png"]
        assert [p.get_filename() for p in pictures] == ["map-t0-step1.png"], record["to"]
        assert pictures[0].get_content_disposition() == "inline"
        assert not [p for p in msg.iter_attachments() if p.get_content_type() == "image/png"]
        related = msg.get_body(("related",))
        assert related is not None and pictures[0] in list(related.iter_parts())
        html = msg.get_body(("html",))
        assert html is not None
        page = html.get_content()
        cid = str(pictures[0]["Content-ID"]).strip("<>")
        assert f'<img src="cid:{cid}"' in page and "<svg" not in page
        data = pictures[0].get_payload(decode=True)
        assert isinstance(data, bytes) and size(data) == (1000, 724)
        assert data[25] == 3, "a palette PNG (colour type 3)"
        path = camp / ".pbem" / "map.png"
        path.write_bytes(data)
        colours = png_colours(path)
        assert len(colours) <= 64
        for faction in ("red", "siberian", "south", "north", "poland", "finland", "neutral"):
            assert rgb(COLOURS[faction]) in colours, faction


def test_a_map_larger_than_a_mail_takes_is_drawn_smaller_in_the_mail(tmp_path: Path) -> None:
    """A&A 1914's map (2090 x 1690) is drawn within MAIL_PIXELS in a mail (every mail under
    300 KB), at its own size by `pbem report --format png`; Red Russia's, within, is drawn the
    same in both."""
    from pbem import api
    from pbem.reports.context import build_context
    from pbem.reports.render import MAIL_PIXELS, map_png

    root = tmp_path / "aa"
    api.new_campaign(root, "aa1914", hot_seat=True, contributions=False, seed="png", name="aa")
    context = build_context(root, "usa")
    full, mailed = map_png(context), map_png(context, MAIL_PIXELS)
    assert full is not None and mailed is not None
    (w, h), (mw, mh) = size(full), size(mailed)
    assert w * h > MAIL_PIXELS >= mw * mh > 0.97 * MAIL_PIXELS
    assert abs(mw / mh - w / h) < 0.01  # the same map, smaller
    assert len(mailed) < len(full)
    red = tmp_path / "rr"
    api.new_campaign(red, "red_russia", hot_seat=True, contributions=False, seed="png", name="rr")
    play_context = build_context(red, "red")
    assert map_png(play_context) == map_png(play_context, MAIL_PIXELS)
