"""The mail loop against real servers started by the tests on 127.0.0.1: Debian's dovecot
(package dovecot-imapd) for `pbem inbox --imap`, and `git daemon` for `pbem publish`.

Each server gets a private configuration in the test's temporary folder and a free port,
and is stopped after the test. Where dovecot is not installed the IMAP tests skip, saying
so, unless PBEM_REQUIRE_TOOLS=1 (CI), where they fail.
"""

from __future__ import annotations

import imaplib
import json
import os
import pwd
import shutil
import socket
import ssl
import subprocess
import sys
import time
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))
from conftest import Result, git, missing, play  # noqa: E402
from test_mail import (  # noqa: E402
    PLAYERS,
    _check_mailbag_result,
    free_port,
    mailbag,
    self_signed,
)

from pbem import api  # noqa: E402
from pbem.mail import loop as mailloop  # noqa: E402
from pbem.mail.transport import MailError  # noqa: E402

USER, PASSWORD = "referee", "dove-pass-9Qz"


@pytest.fixture
def cli(pbem: Callable[..., Result]) -> Callable[..., Result]:
    return pbem


@pytest.fixture
def camp(tmp_path: Path) -> Path:
    root = tmp_path / "camp"
    api.new_campaign(root, "red_russia", contributions=False, hot_seat=True, seed="mail", name="camp", keys_dir=tmp_path / "keys",
                     players=PLAYERS)
    return root


def wait_for_port(port: int, proc: subprocess.Popen[bytes], what: str, log: Path) -> None:
    """Until the server accepts connections (it starts in well under a second; the limit
    only stops a broken start from hanging the suite)."""
    limit = time.monotonic() + 30
    while True:
        try:
            socket.create_connection(("127.0.0.1", port), timeout=1).close()
            return
        except OSError:
            if proc.poll() is not None or time.monotonic() > limit:
                text = log.read_text(errors="replace") if log.exists() else ""
                raise AssertionError(f"{what} did not start (exit {proc.poll()}):\n{text}") from None
            time.sleep(0.05)


def stop(proc: subprocess.Popen[bytes]) -> None:
    proc.terminate()
    try:
        proc.wait(timeout=20)
    except subprocess.TimeoutExpired:
        proc.kill()
        proc.wait()


# ---------------------------------------------------------------------------------------
# dovecot


def dovecot_binary() -> str:
    found = shutil.which("dovecot") or next(
        (p for p in ("/usr/sbin/dovecot", "/usr/local/sbin/dovecot") if Path(p).exists()), None)
    if found is None:
        missing("dovecot is not installed: the IMAP tests against dovecot need Debian's "
                "dovecot-imapd (apt-get install dovecot-imapd; .ci/run installs it)")
    assert found is not None
    return found


def dovecot_users() -> tuple[str, str, str, str]:
    """(internal user, its group, login user, mail user). As root, dovecot's login processes
    must not run as root and mail must not be read as uid 0: Debian's dovecot and dovenull
    users. Otherwise the current user runs everything."""
    import grp

    if os.geteuid() != 0:
        me = pwd.getpwuid(os.geteuid())
        return me.pw_name, grp.getgrgid(me.pw_gid).gr_name, me.pw_name, me.pw_name
    for user in ("dovecot", "dovenull"):
        try:
            pwd.getpwnam(user)
        except KeyError:
            missing(f"dovecot runs as root here but the system user {user!r} is missing "
                    "(Debian's dovecot-core creates it)")
    group = grp.getgrgid(pwd.getpwnam("dovecot").pw_gid).gr_name
    return "dovecot", group, "dovenull", "dovecot"


@dataclass
class Dovecot:
    port: int
    user: str
    password: str
    tls: bool

    def url(self, folder: str = "INBOX") -> str:
        return f"imap://{self.user}@127.0.0.1:{self.port}/{folder}"

    def login(self) -> imaplib.IMAP4:
        client = imaplib.IMAP4("127.0.0.1", self.port)
        if self.tls:
            client.starttls(ssl_context=ssl.create_default_context())
        client.login(self.user, self.password)
        return client


def dovecot_conf(folder: Path, port: int, tls: tuple[Path, Path] | None, run: Path) -> Path:
    """`run` is dovecot's base_dir, where its unix sockets are: a folder with a short path
    (a socket's path has at most 107 bytes, and a test's own folder may be longer)."""
    internal, group, login, mail_user = dovecot_users()
    for sub in ("state", "home"):
        (folder / sub).mkdir(parents=True, exist_ok=True)
    home = folder / "home" / USER
    home.mkdir()
    passwd = folder / "passwd"
    passwd.write_text(f"{USER}:{{PLAIN}}{PASSWORD}::::::\n")
    root = os.geteuid() == 0
    if root:
        # the mail process chroots into the user's home (done as root, so the private,
        # root-only temporary folders above it need not be opened to the dovecot user)
        shutil.chown(home, mail_user, group)
        mail_home = f"{home}/./"
    else:
        mail_home = str(home)
    ssl_lines = (["ssl = yes", f"ssl_cert = <{tls[0]}", f"ssl_key = <{tls[1]}"] if tls
                 else ["ssl = no"])
    lines = [
        "protocols = imap",
        "listen = 127.0.0.1",
        f"base_dir = {run}",
        f"state_dir = {folder / 'state'}",
        f"log_path = {folder / 'dovecot.log'}",
        *ssl_lines,
        "disable_plaintext_auth = no",
        "auth_mechanisms = plain login",
        f"default_internal_user = {internal}",
        f"default_internal_group = {group}",
        f"default_login_user = {login}",
        "first_valid_uid = 1",
        f"valid_chroot_dirs = {folder / 'home'}",
        "mail_location = maildir:~/Maildir",
        "passdb {",
        "  driver = passwd-file",
        f"  args = scheme=PLAIN username_format=%u {passwd}",
        "}",
        "userdb {",
        "  driver = static",
        f"  args = uid={mail_user} gid={group} home={mail_home}",
        "}",
        # the auth process reads the passwd-file in the test's private folder
        "service auth {",
        f"  user = {'root' if root else internal}",
        "}",
        "service imap-login {",
        "  inet_listener imap {",
        "    address = 127.0.0.1",
        f"    port = {port}",
        "  }",
        "  inet_listener imaps {",
        "    port = 0",
        "  }",
        *([] if root else ["  chroot ="]),
        "}",
        # without root, no process can chroot
        *([] if root else ["service anvil {", "  chroot =", "}"]),
        "",
    ]
    conf = folder / "dovecot.conf"
    conf.write_text("\n".join(lines))
    return conf


@pytest.fixture(params=["plain", "starttls"])
def dovecot(request: pytest.FixtureRequest, tmp_path: Path, short_tmp: Path,
            monkeypatch: pytest.MonkeyPatch) -> Iterator[Dovecot]:
    """A private dovecot on 127.0.0.1 (a free port): one user with a plain password, mail
    in a Maildir under the test's folder; without TLS, or offering STARTTLS with a
    self-signed certificate (made with `cryptography`) that the client trusts."""
    binary = dovecot_binary()
    folder = tmp_path / "dovecot"
    tls = None
    if request.param == "starttls":
        (tmp_path / "tls").mkdir()
        tls = self_signed(tmp_path / "tls")
        monkeypatch.setenv("SSL_CERT_FILE", str(tls[0]))
    port = free_port()
    conf = dovecot_conf(folder, port, tls, short_tmp)
    out = (folder / "stdout.log").open("wb")
    proc = subprocess.Popen([binary, "-F", "-c", str(conf)], stdout=out, stderr=subprocess.STDOUT)
    try:
        wait_for_port(port, proc, "dovecot", folder / "dovecot.log")
        yield Dovecot(port, USER, PASSWORD, tls is not None)
    finally:
        stop(proc)
        out.close()


def test_inbox_from_dovecot(camp: Path, tmp_path: Path, dovecot: Dovecot,
                            cli: Callable[..., Result], monkeypatch: pytest.MonkeyPatch) -> None:
    client = dovecot.login()
    for msg in mailbag(camp, tmp_path / "drafts"):
        status, _ = client.append("INBOX", None, None, msg.as_bytes())
        assert status == "OK"
    client.logout()
    monkeypatch.setenv("PBEM_IMAP_PASSWORD", PASSWORD)
    upgraded: list[bool] = []
    original = imaplib.IMAP4.starttls

    def starttls(self: imaplib.IMAP4, ssl_context: ssl.SSLContext | None = None) -> object:
        upgraded.append(True)
        return original(self, ssl_context=ssl_context)

    monkeypatch.setattr(imaplib.IMAP4, "starttls", starttls)
    before = git(camp, "rev-parse", "HEAD")
    r = cli("-C", camp, "inbox", "--imap", dovecot.url(), "--json")
    assert r.code == 0, r.err
    assert upgraded == ([True] if dovecot.tls else [])  # the password went encrypted if it could
    _check_mailbag_result(camp, json.loads(r.out), before)
    # nothing in the mailbox changed: all five still there, none marked as read
    client = dovecot.login()
    client.select("INBOX", readonly=True)
    _, data = client.search(None, "ALL")
    assert len(data[0].split()) == 5
    _, data = client.search(None, "SEEN")
    assert data[0].split() == []
    client.logout()
    # a second run applies nothing again
    head = git(camp, "rev-parse", "HEAD")
    again = mailloop.inbox(camp, imap=dovecot.url())
    assert (again["accepted"], again["rejected"], again["duplicates"]) == (0, 0, 3)
    assert git(camp, "rev-parse", "HEAD") == head


def test_dovecot_wrong_password_and_folder(camp: Path, dovecot: Dovecot,
                                           monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("PBEM_IMAP_PASSWORD", "not-the-password")
    with pytest.raises(MailError) as caught:
        mailloop.inbox(camp, imap=dovecot.url())
    assert f"127.0.0.1:{dovecot.port}" in caught.value.message
    monkeypatch.setenv("PBEM_IMAP_PASSWORD", PASSWORD)
    with pytest.raises(MailError) as caught:
        mailloop.inbox(camp, imap=dovecot.url("NoSuchFolder"))
    assert "NoSuchFolder" in caught.value.message


# ---------------------------------------------------------------------------------------
# git daemon


@pytest.fixture
def git_daemon(tmp_path: Path, require_tool: Callable[[str], None]) -> Iterator[tuple[Path, str]]:
    """`git daemon` on 127.0.0.1 (a free port) serving an empty bare repository camp.git
    that accepts pushes; yields (the bare repository, its git:// URL)."""
    require_tool("git")
    base = tmp_path / "served"
    base.mkdir()
    bare = base / "camp.git"
    subprocess.run(["git", "init", "--quiet", "--bare", "--initial-branch=main", str(bare)],
                   check=True)
    port = free_port()
    log = tmp_path / "git-daemon.log"
    out = log.open("wb")
    proc = subprocess.Popen(
        ["git", "daemon", "--reuseaddr", f"--base-path={base}", "--export-all",
         "--enable=receive-pack", "--informative-errors", f"--port={port}",
         "--listen=127.0.0.1", str(base)],
        stdout=out, stderr=subprocess.STDOUT)
    try:
        wait_for_port(port, proc, "git daemon", log)
        yield bare, f"git://127.0.0.1:{port}/camp.git"
    finally:
        stop(proc)
        out.close()


def test_publish_over_git_daemon(camp: Path, tmp_path: Path, git_daemon: tuple[Path, str],
                                 cli: Callable[..., Result]) -> None:
    bare, url = git_daemon
    play(camp, until_turn=1, seed="mail")
    mailloop.mail(camp)  # something in .pbem/ that must not leave
    git(camp, "remote", "add", "shared", url)
    r = cli("-C", camp, "publish", "--remote", "shared")
    assert r.code == 0, r.err
    assert "tag(s) to shared" in r.out
    clone = tmp_path / "clone"
    subprocess.run(["git", "clone", "--quiet", url, str(clone)], check=True)
    assert git(clone, "rev-parse", "HEAD") == git(camp, "rev-parse", "HEAD")
    assert git(clone, "tag").split() == git(camp, "tag").split()
    assert "turn-0001" in git(clone, "tag").split()
    assert not (clone / ".pbem").exists()
    assert api.audit(clone)["ok"]
    # the next steps follow
    play(camp, until_turn=1, phase="action", seed="mail")
    assert mailloop.publish(camp, "shared")["head"] == git(bare, "rev-parse", "main")


def test_rejected_push_fails_loudly(camp: Path, tmp_path: Path, git_daemon: tuple[Path, str],
                                    cli: Callable[..., Result]) -> None:
    bare, url = git_daemon
    git(camp, "remote", "add", "origin", url)
    assert cli("-C", camp, "publish").code == 0
    # someone else pushed to the shared repository: it now has a commit the campaign lacks
    other = tmp_path / "other"
    subprocess.run(["git", "clone", "--quiet", url, str(other)], check=True)
    (other / "NOTE.txt").write_text("pushed by someone else\n")
    git(other, "add", "NOTE.txt")
    git(other, "commit", "--quiet", "-m", "a commit the campaign does not have")
    git(other, "push", "--quiet", "origin", "HEAD:main")
    theirs = git(bare, "rev-parse", "main")
    play(camp, until_turn=0, phase="setup-place-red", seed="mail")
    r = cli("-C", camp, "publish")
    assert r.code == 1, (r.out, r.err)
    assert "publish to origin was rejected" in r.err
    assert "not a fast-forward" in r.err and "never force-pushes" in r.err
    assert "Traceback" not in r.err
    assert git(bare, "rev-parse", "main") == theirs  # nothing was overwritten
