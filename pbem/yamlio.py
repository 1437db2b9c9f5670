"""The one YAML module: safe, bounded loading with line numbers, and dumping.

Untrusted files (orders, adjustments, key cards) go through `load_untrusted`: a size
limit, a depth limit, no aliases or anchors, no tags beyond the plain JSON-like ones,
duplicate keys rejected, and the line of every node kept so problems can be reported
as FILE:LINE. Files pbem wrote itself (state.yaml, log entries) use `load_trusted`.
"""

from __future__ import annotations

import errno
import os
import re
import stat
import tempfile
import unicodedata
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, cast

import yaml

from pbem.errors import InputFileError

try:  # the C loader is ten times faster; fall back to the pure-Python one
    from yaml import CSafeDumper as _Dumper
    from yaml import CSafeLoader as _Loader
except ImportError:  # pragma: no cover - depends on how PyYAML was built
    from yaml import SafeDumper as _Dumper  # type: ignore[assignment]
    from yaml import SafeLoader as _Loader  # type: ignore[assignment]

MAX_BYTES = 1024 * 1024
MAX_DEPTH = 40

Path_ = tuple[str | int, ...]

_PLAIN_TAGS = {
    "tag:yaml.org,2002:str",
    "tag:yaml.org,2002:int",
    "tag:yaml.org,2002:bool",
    "tag:yaml.org,2002:null",
    "tag:yaml.org,2002:float",
    "tag:yaml.org,2002:seq",
    "tag:yaml.org,2002:map",
}
# Timestamps would arrive as datetime objects; orders have no use for them, so they stay text.
_AS_TEXT_TAGS = {"tag:yaml.org,2002:timestamp"}


@dataclass
class Doc:
    """A loaded document: plain data plus the line of every node in the file."""

    data: Any
    source: str
    lines: dict[Path_, int] = field(default_factory=dict)

    def line(self, path: Path_) -> int:
        """The line of the node at `path`, or of its nearest ancestor that exists."""
        p = tuple(path)
        while p:
            if p in self.lines:
                return self.lines[p]
            p = p[:-1]
        return self.lines.get((), 1)

    def where(self, path: Path_) -> str:
        return f"{self.source}:{self.line(path)}"


def _fail(source: str, line: int, message: str) -> InputFileError:
    return InputFileError(f"{source}:{line}: {message}")


def load_untrusted(text: str | bytes, source: str) -> Doc:
    """Parse one YAML document from outside, strictly; raise InputFileError with FILE:LINE."""
    raw = text.encode("utf-8") if isinstance(text, str) else text
    if len(raw) > MAX_BYTES:
        raise _fail(source, 1, f"file is {len(raw)} bytes; at most {MAX_BYTES} are accepted")
    try:
        decoded = raw.decode("utf-8")
    except UnicodeDecodeError as exc:
        line = raw[: exc.start].count(b"\n") + 1
        raise _fail(source, line, "not UTF-8 text") from None
    _scan_characters(decoded, source)
    _scan_events(decoded, source)
    try:
        node = yaml.compose(decoded, Loader=_Loader)
    except yaml.MarkedYAMLError as exc:
        raise _syntax(exc, source, decoded) from None
    except yaml.YAMLError as exc:
        raise _fail(source, 1, f"YAML syntax error: {exc}") from None
    doc = Doc(data=None, source=source)
    if node is None:
        return doc
    doc.data = _construct(node, (), doc, 0)
    return doc


# What YAML accepts in a stream (YAML 1.1, 5.1): tab, line breaks and printable characters.
_NOT_PRINTABLE = re.compile("[^\x09\x0A\x0D\x20-\x7E\x85\xA0-\uD7FF\uE000-\uFFFD"
                            "\U00010000-\U0010FFFF]")


_C0 = ("NUL SOH STX ETX EOT ENQ ACK BEL BS HT LF VT FF CR SO SI DLE DC1 DC2 DC3 DC4 NAK SYN "
       "ETB CAN EM SUB ESC FS GS RS US").split()


def _scan_characters(text: str, source: str) -> None:
    """A NUL byte, an escape sequence or another control character: the line and column of
    the first one (the YAML reader would say only "position 8", or nothing pbem can read)."""
    bad = _NOT_PRINTABLE.search(text)
    if bad is None:
        return
    line = text.count("\n", 0, bad.start()) + 1
    column = bad.start() - (text.rfind("\n", 0, bad.start()) + 1) + 1
    char = bad.group()
    code = ord(char)
    name = (_C0[code] if code < len(_C0) else "DEL" if code == 0x7F
            else unicodedata.name(char, "a control character"))
    raise _fail(source, line, f"column {column}: character U+{ord(char):04X} ({name}) is not "
                "allowed; expected plain text (tabs, line breaks and printable characters)")


class NotRegularFile(OSError):
    """A path that is not a regular file (a device, a FIFO, a socket, a directory)."""


def read_regular(path: Path, limit: int) -> bytes:
    """The bytes of `path` if it is a regular file of at most `limit` bytes, read at once.

    A device (a symlink to /dev/urandom), a FIFO, a socket or a directory is refused before
    any byte is read, so nothing can block or grow without end: OSError (FileNotFoundError,
    IsADirectoryError, NotRegularFile, or EFBIG when the file is too big), with strerror
    saying why."""
    # O_NONBLOCK: opening a FIFO does not wait for a writer; fstat then refuses it
    fd = os.open(path, os.O_RDONLY | os.O_NONBLOCK | getattr(os, "O_CLOEXEC", 0))
    try:
        mode = os.fstat(fd).st_mode
        if stat.S_ISDIR(mode):
            raise IsADirectoryError(errno.EISDIR, os.strerror(errno.EISDIR), str(path))
        if not stat.S_ISREG(mode):
            kind = ("a device" if stat.S_ISCHR(mode) or stat.S_ISBLK(mode)
                    else "a FIFO (named pipe)" if stat.S_ISFIFO(mode)
                    else "a socket" if stat.S_ISSOCK(mode) else "not a regular file")
            raise NotRegularFile(errno.EINVAL, f"not a regular file: {kind}", str(path))
        os.set_blocking(fd, True)
        chunks: list[bytes] = []
        size = 0
        while size <= limit:  # the file may grow while it is read: never more than limit + 1
            chunk = os.read(fd, min(1 << 16, limit + 1 - size))
            if not chunk:
                break
            chunks.append(chunk)
            size += len(chunk)
    finally:
        os.close(fd)
    if size > limit:
        raise OSError(errno.EFBIG, f"more than {limit} bytes; at most {limit} are accepted",
                      str(path))
    return b"".join(chunks)


def read_input(path: Path, *, limit: int = MAX_BYTES, what: str = "a file") -> bytes:
    """A file given on the command line or found beside one (orders, their .sig,
    adjustments): only a regular file, at most `limit` bytes (see read_regular). Raises
    InputFileError as FILE:1: why; expected what."""
    try:
        return read_regular(path, limit)
    except FileNotFoundError:
        why = "no such file"
    except IsADirectoryError:
        why = "is a directory"
    except NotRegularFile as exc:
        why = f"is {(exc.strerror or '').removeprefix('not a regular file: ')}"
    except OSError as exc:
        why = (f"file is {exc.strerror}" if exc.errno == errno.EFBIG
               else f"cannot be read ({exc.strerror})")
    raise _fail(str(path), 1, f"{why}; expected {what}, a regular file")


def _syntax(exc: yaml.MarkedYAMLError, source: str, text: str) -> InputFileError:
    mark = exc.problem_mark or exc.context_mark
    ended = mark is not None and mark.line >= len(text.splitlines())
    if exc.context_mark is not None and (ended or "end of stream" in str(exc.problem)):
        mark = exc.context_mark  # an unclosed quote or bracket: where it was opened
    line = mark.line + 1 if mark is not None else 1
    lines = text.splitlines()
    if line > len(lines):  # the parser ran off the end: point at the last line with text
        line = max((i + 1 for i, t in enumerate(lines) if t.strip()), default=1)
    problem = exc.problem or exc.context or "not valid YAML"
    return _fail(source, line, f"YAML syntax error: {problem}")


def _scan_events(text: str, source: str) -> None:
    """Reject aliases, anchors, explicit tags, extra documents and deep nesting before composing.

    libyaml has limits of its own (a nesting depth since PyYAML 6.0.4) and words its errors
    its own way, so when the fast parser refuses a file, the pure-Python parser, which has
    neither, scans it again: what the user reads is pbem's message, whichever PyYAML is
    installed. Only a file that both refuse is reported with the parser's own words."""
    try:
        _scan_with(_Loader, text, source)
    except InputFileError:
        if _Loader is cast(type[Any], yaml.SafeLoader):
            raise
        _scan_with(yaml.SafeLoader, text, source)
        raise


def _scan_with(loader: type[Any], text: str, source: str) -> None:
    depth = 0
    documents = 0
    try:
        for event in yaml.parse(text, Loader=loader):
            line = event.start_mark.line + 1 if event.start_mark else 1
            if isinstance(event, yaml.AliasEvent):
                raise _fail(source, line, "aliases (*name) are not allowed")
            anchor = getattr(event, "anchor", None)
            if anchor is not None:
                raise _fail(source, line, "anchors (&name) are not allowed")
            tag = getattr(event, "tag", None)
            if tag is not None and tag != "!":  # the parser sets a tag only when one is written
                raise _fail(source, line, f"tags ({tag}) are not allowed")
            if isinstance(event, yaml.DocumentStartEvent):
                documents += 1
                if documents > 1:
                    raise _fail(source, line, "only one YAML document is allowed (found '---')")
            if isinstance(event, yaml.MappingStartEvent | yaml.SequenceStartEvent):
                depth += 1
                if depth > MAX_DEPTH:
                    raise _fail(source, line, f"nested deeper than {MAX_DEPTH} levels")
            elif isinstance(event, yaml.MappingEndEvent | yaml.SequenceEndEvent):
                depth -= 1
    except yaml.MarkedYAMLError as exc:
        raise _syntax(exc, source, text) from None
    except yaml.YAMLError as exc:  # the reader's own (characters are scanned before)
        raise _fail(source, 1, f"YAML syntax error: {' '.join(str(exc).split())}") from None


_SCALARS = yaml.constructor.SafeConstructor()


def _construct(node: yaml.Node, path: Path_, doc: Doc, depth: int) -> Any:
    doc.lines[path] = node.start_mark.line + 1
    if node.tag not in _PLAIN_TAGS and node.tag not in _AS_TEXT_TAGS:
        raise _fail(doc.source, node.start_mark.line + 1, f"tag {node.tag} is not allowed")
    if isinstance(node, yaml.ScalarNode):
        if node.tag in _AS_TEXT_TAGS:
            return node.value
        return _SCALARS.construct_object(node, deep=True)
    if isinstance(node, yaml.SequenceNode):
        return [_construct(item, (*path, i), doc, depth + 1) for i, item in enumerate(node.value)]
    assert isinstance(node, yaml.MappingNode)
    out: dict[Any, Any] = {}
    for key_node, value_node in node.value:
        if key_node.tag == "tag:yaml.org,2002:merge":
            raise _fail(doc.source, key_node.start_mark.line + 1, "merge keys (<<) are not allowed")
        if not isinstance(key_node, yaml.ScalarNode):
            raise _fail(doc.source, key_node.start_mark.line + 1, "keys must be plain text")
        key = _construct(key_node, (*path, "\0key"), doc, depth + 1)
        if isinstance(key, bool | None) or not isinstance(key, str | int):
            key = key_node.value
        if key in out:
            raise _fail(doc.source, key_node.start_mark.line + 1, f"duplicate key {key!r}")
        out[key] = _construct(value_node, (*path, key), doc, depth + 1)
    doc.lines.pop((*path, "\0key"), None)
    return out


def load_trusted(text: str) -> Any:
    """Load YAML that pbem wrote itself (state, log entries, campaign.yaml)."""
    return yaml.load(text, Loader=_Loader)  # noqa: S506 - CSafeLoader is the safe loader


def read_trusted(path: Path) -> Any:
    return load_trusted(path.read_text(encoding="utf-8"))


def dump(data: Any) -> str:
    """Block-style YAML with keys in the order given; long strings as block scalars."""
    return yaml.dump(
        data,
        Dumper=_BlockDumper,
        sort_keys=False,
        allow_unicode=True,
        default_flow_style=False,
        width=100,
    )


class _BlockDumper(_Dumper):
    def ignore_aliases(self, data: Any) -> bool:
        # a value the writer shares between two places (one list as a move's units and its
        # advance) is written out twice: pbem's own reader refuses anchors, and a player must
        # be able to sign what pbem wrote for him
        return True


# text that a YAML 1.2 reader takes for a number (PyYAML, YAML 1.1, leaves 0832 plain, which
# other readers, and a player's eye, take for the number 832): always quoted
_NUMBER_LIKE = re.compile(r"[-+]?(\.?[0-9][0-9_]*(\.[0-9_]*)?([eE][-+]?[0-9]+)?"
                          r"|0[xX][0-9a-fA-F_]+|0[oO][0-7_]+|0[bB][01_]+)")


def _str_representer(dumper: Any, value: str) -> Any:
    # Multi-line text (sealed age files, reasons) is written as a literal block scalar,
    # so an armored envelope can be copied from the file as it is.
    if "\n" in value:
        return dumper.represent_scalar("tag:yaml.org,2002:str", value, style="|")
    if _NUMBER_LIKE.fullmatch(value):  # a hex id "0832" is written as text, as ORDERS.md asks
        return dumper.represent_scalar("tag:yaml.org,2002:str", value, style="'")
    return dumper.represent_scalar("tag:yaml.org,2002:str", value)


def _plain(value: Any) -> bool:
    return value is None or isinstance(value, bool | int | float) or (
        isinstance(value, str) and "\n" not in value and len(value) < 60)


def _dict_representer(dumper: Any, value: dict[Any, Any]) -> Any:
    # A short mapping of plain values goes on one line ({zone: Tver, reduced: false}); big
    # ones stay one key per line so that git diffs of the log and the snapshot stay readable.
    flow = len(value) <= 6 and all(_plain(v) for v in value.values())
    return dumper.represent_mapping("tag:yaml.org,2002:map", value.items(), flow_style=flow)


def _list_representer(dumper: Any, value: list[Any]) -> Any:
    flow = len(value) <= 12 and all(_plain(v) for v in value)
    return dumper.represent_sequence("tag:yaml.org,2002:seq", value, flow_style=flow)


_BlockDumper.add_representer(str, _str_representer)
_BlockDumper.add_representer(dict, _dict_representer)
_BlockDumper.add_representer(list, _list_representer)


# write_atomic's temporary files: ".NAME." + mkstemp's eight characters + ".tmp"
_TEMP_NAME = re.compile(r"\..+\.[a-z0-9_]{8}\.tmp")


def write_atomic(path: Path, text: str) -> None:
    """Write a file so that a crash leaves either the old or the new content (temp + os.replace).

    A process killed between the two leaves its temporary file: `remove_stale_temps` clears
    them, under the campaign lock."""
    path.parent.mkdir(parents=True, exist_ok=True)
    fd, tmp = tempfile.mkstemp(prefix=f".{path.name}.", suffix=".tmp", dir=path.parent)
    try:
        with os.fdopen(fd, "w", encoding="utf-8", newline="\n") as handle:
            handle.write(text)
            handle.flush()
            os.fsync(handle.fileno())
        os.replace(tmp, path)
    except BaseException:
        Path(tmp).unlink(missing_ok=True)
        raise


def stale_temps(root: Path, skip: tuple[str, ...] = (".git",)) -> list[str]:
    """The temporary files `write_atomic` left in ROOT's tree when it was killed, relative
    to ROOT (top-level folders in SKIP not searched)."""
    found: list[str] = []
    for folder, dirs, files in os.walk(root):
        if Path(folder) == root:
            dirs[:] = [d for d in dirs if d not in skip]
        found += [(Path(folder) / name).relative_to(root).as_posix()
                  for name in files if _TEMP_NAME.fullmatch(name)]
    return sorted(found)


def remove_stale_temps(root: Path) -> list[str]:
    """Remove `stale_temps(root)`; return them. Only safe while no other writer can run."""
    stale = stale_temps(root)
    for rel in stale:
        (root / rel).unlink(missing_ok=True)
    return stale
