"""The parts of pbem.mail.transport that take a hostile mail apart, in-process: the depth
of multiparts, attachment names, and the headers of an answer."""

from __future__ import annotations

from email.message import EmailMessage

import pytest

from pbem.mail import transport as m


def nested(depth: int) -> bytes:
    """A mail of `depth` multiparts, each inside the last, with an orders file at the bottom."""
    head = b"From: Cy <cy@example.org>\nSubject: deep\nMessage-ID: <deep@example.org>\n"
    opening = b"".join(b'Content-Type: multipart/mixed; boundary="b%d"\n\n--b%d\n' % (i, i)
                       for i in range(depth))
    bottom = (b'Content-Type: application/yaml\nContent-Disposition: attachment; '
              b'filename="orders-south.yaml"\n\ncampaign: camp\nfaction: south\n')
    return head + opening + bottom + b"".join(b"\n--b%d--\n" % i for i in reversed(range(depth)))


def test_multiparts_nested_to_the_limit_are_read() -> None:
    msg = m.parse(nested(m.MAX_DEPTH - 1))  # the message and nine multiparts: ten levels
    assert m._depth(msg) == m.MAX_DEPTH and not msg.defects
    found = m.extract(msg)
    assert found is not None and not found.unreadable and found.problems == []
    assert found.files == [("orders-south.yaml", b"campaign: camp\nfaction: south\n")]


@pytest.mark.parametrize("depth", [m.MAX_DEPTH, 3000])
def test_multiparts_nested_past_the_limit_keep_only_the_headers(depth: int) -> None:
    msg = m.parse(nested(depth))
    assert [type(d) for d in msg.defects] == [m.TooDeep]
    assert msg["From"] == "Cy <cy@example.org>" and msg.get_payload() == ""
    found = m.extract(msg)
    assert found is not None and found.unreadable and found.sender == "cy@example.org"
    assert found.problems == ["the mail nests multiparts more than 10 deep; pbem reads no deeper "
                              "(send the orders file as a plain attachment)"]


def test_a_long_attachment_name_is_cut_keeping_its_suffix_and_its_signature() -> None:
    msg = EmailMessage()
    msg["From"], msg["Message-ID"] = "Cy <cy@example.org>", "<long@example.org>"
    msg.set_content("orders attached")
    for name in ("a" * 295 + ".yaml", "a" * 290 + "b.yaml"):
        msg.add_attachment(b"campaign: camp\n", maintype="application", subtype="yaml", filename=name)
        msg.add_attachment(b"sig of " + name[-6:].encode(), maintype="application",
                           subtype="octet-stream", filename=name + ".sig")
    found = m.extract(m.parse(msg.as_bytes()))
    assert found is not None and found.problems == []
    first, second = (name for name, _ in found.files)
    assert first == "a" * (m.MAX_NAME - 5) + ".yaml" and len(first) == m.MAX_NAME
    assert second == "a" * (m.MAX_NAME - 5) + "-2.yaml"  # the same when cut: told apart
    assert found.signatures == {first: b"sig of a.yaml", second: b"sig of b.yaml"}


def test_a_name_at_the_limit_is_kept_whole() -> None:
    name = "o" * (m.MAX_NAME - 5) + ".yaml"
    assert m._safe_name(name, set()) == name
    assert m._safe_name("o" + name, set()) == name


@pytest.mark.parametrize("value", ["orders\r\nBcc: all@example.org", "orders\nBcc: all@example.org",
                                   "orders\rBcc: all@example.org", "orders\x00\x0bBcc: all@example.org"])
def test_every_header_of_an_answer_is_one_line(value: str) -> None:
    assert m.one_line(value) == "orders Bcc: all@example.org"
    msg = m.build(sender=("Referee", "ref@example.org"), to=(value, "cy@example.org"),
                  subject=f"Re: {value}", text="hello", in_reply_to=f"<{value}>",
                  references=[f"<{value}>", "\r\n"], headers={"X-Pbem-Campaign": value})
    raw = msg.as_bytes()
    assert b"\nBcc:" not in raw and b"\rBcc:" not in raw
    reread = m.parse(raw)
    assert not reread.defects and reread["Bcc"] is None
    assert reread["Subject"] == "Re: orders Bcc: all@example.org"
    assert reread["In-Reply-To"] == "<orders Bcc: all@example.org>"
    assert reread["References"] == "<orders Bcc: all@example.org>"
    assert reread["X-Pbem-Campaign"] == "orders Bcc: all@example.org"


def test_limits_set_lower_are_the_ones_applied() -> None:
    limits = m.Limits(parts=2, depth=3, name=20, size=1024)
    assert [type(d) for d in m.parse(nested(3), limits).defects] == [m.TooDeep]  # four levels
    found = m.extract(m.parse(nested(2), limits), limits)  # three levels: read
    assert found is not None and not found.unreadable
    msg = EmailMessage()
    msg["From"], msg["Message-ID"] = "Cy <cy@example.org>", "<limits@example.org>"
    msg.set_content("orders attached")
    for name, data in (("a" * 40 + ".yaml", b"campaign: camp\n"), ("big.yaml", b"#" * 1025),
                       ("third.yaml", b"campaign: camp\n"), ("fourth.yaml", b"campaign: camp\n")):
        msg.add_attachment(data, maintype="application", subtype="yaml", filename=name)
    found = m.extract(m.parse(msg.as_bytes(), limits), limits)
    assert found is not None
    assert [name for name, _ in found.files] == ["a" * 15 + ".yaml", "third.yaml"]
    assert found.refused == ["big.yaml"]
    assert found.problems == ["big.yaml:1: file is 1025 bytes; at most 1024 are accepted",
                              "more than 2 attachments; the rest were ignored"]


def test_the_defaults_are_the_documented_ones() -> None:
    assert m.Limits() == m.Limits(parts=20, depth=10, name=100, size=1024 * 1024)
    for key, (low, high) in m.BOUNDS.items():
        assert low <= getattr(m.Limits(), key) <= high, key


@pytest.mark.parametrize(("sent", "kept"), [
    ("orders red.yaml", "orders_red.yaml"),              # odd characters, once each run
    ("../../etc/passwd", "passwd"),                      # no folder
    ("..\\..\\win\\orders.yaml", "orders.yaml"),          # nor a Windows one
    ("...hidden.yaml", "hidden.yaml"),                   # no leading dot
    ("orders.yaml.", "orders.yaml."),                    # a trailing one is harmless
    ("", "orders"), ("..", "orders"), ("%%%", "_"), ("Xorders.yaml", "Xorders.yaml"),
])
def test_a_name_is_made_safe(sent: str, kept: str) -> None:
    assert m._safe_name(sent, set()) == kept


def test_a_name_cut_keeps_its_last_suffix_and_names_stay_apart() -> None:
    long = "a" * 60 + ".b" * 30 + ".yaml"  # dots inside: the suffix is the last one
    cut = m._safe_name(long, set())
    assert len(cut) == m.MAX_NAME and cut.endswith(".yaml") and cut.startswith("a" * 60 + ".b")
    plain = "".join(chr(97 + i % 26) for i in range(150))
    assert m._safe_name(plain, set()) == plain[:m.MAX_NAME]  # no suffix at all: its start
    assert m._safe_name("ab." + "z" * 150, set()) == "ab." + "z" * 10  # a short stem, whole
    odd = m._safe_name("y" * 150 + "." + "z" * 20, set())  # a suffix of 20: its first 10 kept
    assert odd == "y" * (m.MAX_NAME - 11) + "." + "z" * 10
    taken: set[str] = set()
    assert [m._safe_name(n, taken) for n in ("o.yaml", "O.yaml", "o.yaml", "t.1.yaml", "t.1.yaml")] == [
        "o.yaml", "O-2.yaml", "o-3.yaml", "t.1.yaml", "t-2.1.yaml"]  # numbered before the first dot


# ---------------------------------------------------------------------------------------
# orders written in the body of a mail, and the signature pasted after them

ORDERS = "# Orders template for south: turn 1, action.\n# An EXAMPLE.\ncampaign: camp\nfaction: south\norders: []\n"
ARMOUR = "-----BEGIN SSH SIGNATURE-----\nU1NIU0lHAAAAAQ\nAAAAMwAAAAtzc2g=\n-----END SSH SIGNATURE-----\n"


@pytest.mark.parametrize(("text", "orders", "armour"), [
    # the template's comment header above `campaign:` is part of the file a signature covers
    (f"Hello,\n\n{ORDERS}\n{ARMOUR}\n-- \nCy\n", ORDERS, ARMOUR),
    (f"{ORDERS}{ARMOUR}", ORDERS, ARMOUR),
    # trailing blanks a mail program added, and the armour indented
    ("Hi\n" + ORDERS.replace("\n", "  \n") + "\n" + "".join(f"  {x}\n" for x in ARMOUR.splitlines()),
     ORDERS, ARMOUR),
    # a line of text (not a comment) between the header and the orders ends the header
    ("# mine\nsee below\ncampaign: camp\nfaction: south\norders: []\n",
     "campaign: camp\nfaction: south\norders: []\n", None),
    # no signature, or one cut short: the orders alone
    (f"{ORDERS}\n-- \nCy\n{ARMOUR}", ORDERS, None),
    (ORDERS + "-----BEGIN SSH SIGNATURE-----\nU1NIU0lH\n", ORDERS, None),
    # a reply's quoted text ends the orders
    (f"{ORDERS}> campaign: camp\n> faction: north\n", ORDERS, None),
    # not orders: no faction or orders key
    ("campaign: camp\nnothing: here\n", None, None),
    ("no orders at all\n", None, None),
])
def test_orders_and_their_signature_in_the_body(text: str, orders: str | None,
                                                armour: str | None) -> None:
    assert m.inline_signed(text) == (orders, armour)


def _body_mail(text: str, sig: bytes | None = None) -> EmailMessage:
    msg = EmailMessage()
    msg["From"] = "Cy <cy@example.org>"
    msg["Subject"] = "orders"
    msg["Message-ID"] = "<body@example.org>"
    msg.set_content(text)
    if sig is not None:
        msg.add_attachment(sig, maintype="application", subtype="octet-stream",
                           filename="orders.yaml.sig")
    return msg


def test_a_signature_pasted_in_the_body_goes_with_the_orders_above_it() -> None:
    found = m.extract(_body_mail(f"Hello,\n{ORDERS}{ARMOUR}-- \nCy\n"))
    assert found is not None and found.inline
    assert found.files == [("orders.yaml", ORDERS.encode())]
    assert found.signatures == {"orders.yaml": ARMOUR.encode()}
    unsigned = m.extract(_body_mail(ORDERS))
    assert unsigned is not None and unsigned.signatures == {} and unsigned.files


def test_an_attached_signature_wins_over_one_in_the_body() -> None:
    found = m.extract(_body_mail(f"{ORDERS}{ARMOUR}", sig=b"attached\n"))
    assert found is not None and found.signatures == {"orders.yaml": b"attached\n"}


@pytest.mark.parametrize(("subject", "what", "expected"), [
    ("orders red", "accepted", "Re: orders red [accepted]"),
    ("Re: [cw] turn 1, Russian Combat Segment", "rejected", "Re: [cw] turn 1, Russian Combat Segment [rejected]"),
    ("Re: Re: [cw] turn 1", "accepted", "Re: [cw] turn 1 [accepted]"),
    ("RE: Re: [cw] turn 1 [rejected]", "accepted", "Re: [cw] turn 1 [accepted]"),
    ("AW: Re: [aa] round 1 [rejected] [accepted, late]", "rejected", "Re: [aa] round 1 [rejected]"),
    ("Fwd: x", "accepted, late", "Re: x [accepted, late]"),
    ("", "accepted", "Re: your orders [accepted]"),
    (None, "rejected", "Re: your orders [rejected]"),
])
def test_an_answers_subject_says_re_once_and_its_own_outcome_alone(subject: str | None, what: str,
                                                                   expected: str) -> None:
    """A player answering an answer ("Re: Re: ... [rejected]") is answered "Re: ... [accepted]",
    not "Re: Re: ... [rejected] [accepted]"."""
    from pbem.mail.loop import reply_subject

    assert reply_subject(subject, what) == expected
