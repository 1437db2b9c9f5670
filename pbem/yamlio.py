"""The one YAML module: safe, bounded loading with line numbers, and dumping.

Untrusted files (orders, adjustments, key cards) go through `load_untrusted`: a size
limit, a depth limit, no aliases or anchors, no tags beyond the plain JSON-like ones,
duplicate keys rejected, and the line of every node kept so problems can be reported
as FILE:LINE. Files pbem wrote itself (state.yaml, log entries) use `load_trusted`.
"""

from __future__ import annotations

import os
import tempfile
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
    pass


def _str_representer(dumper: Any, value: str) -> Any:
    # Multi-line text (sealed age files, reasons) is written as a literal block scalar,
    # so an armored envelope can be copied from the file as it is.
    if "\n" in value:
        return dumper.represent_scalar("tag:yaml.org,2002:str", value, style="|")
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


def write_atomic(path: Path, text: str) -> None:
    """Write a file so that a crash leaves either the old or the new content (temp + os.replace)."""
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
