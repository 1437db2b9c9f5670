"""An independent verifier of a pbem campaign, written from docs/verifying.md and
docs/fairness.md alone: the Python standard library and the `cryptography` package, never
`import pbem`.

`verify(root)` reads the campaign's history through `git`, parses every log entry with the
small YAML reader below (exactly the block-style subset pbem writes) and checks every
signature, the `prev` chain, the seed chain and its batch counter, every die, the salts of
every batch, every published commitment opening and, after `pbem unseal`, the hidden secret,
the set-up draws and every shuffled pile. `chechen_units(root, ...)` recomputes every
face-down unit of a Chechen War campaign after `pbem unseal` (its set-up, each draw from the
cup, each arrival).
"""

from __future__ import annotations

import base64
import hashlib
import hmac
import json
import re
import subprocess
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from cryptography.exceptions import InvalidSignature
from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PublicKey

GENESIS = "0" * 64

# --------------------------------------------------------------------------------------
# YAML: the block-style subset pbem's dumper writes (docs/verifying.md, section 1)


class YamlError(ValueError):
    pass


_NULL = {"", "~", "null", "Null", "NULL"}
_BOOL = {"true": True, "false": False}
_BOOL11 = {"yes", "Yes", "YES", "no", "No", "NO", "True", "TRUE", "False", "FALSE",
           "on", "On", "ON", "off", "Off", "OFF"}
_INT = re.compile(r"-?(?:0|[1-9][0-9]*)")
# PyYAML's YAML 1.1 resolvers, as they are
_INT11 = re.compile(r"[-+]?0b[0-1_]+|[-+]?0[0-7_]+|[-+]?(?:0|[1-9][0-9_]*)|[-+]?0x[0-9a-fA-F_]+"
                    r"|[-+]?[1-9][0-9_]*(?::[0-5]?[0-9])+")
_FLOAT11 = re.compile(r"[-+]?(?:[0-9][0-9_]*)\.[0-9_]*(?:[eE][-+][0-9]+)?|\.[0-9_]+(?:[eE][-+][0-9]+)?"
                      r"|[-+]?[0-9][0-9_]*(?::[0-5]?[0-9])+\.[0-9_]*|[-+]?\.(?:inf|Inf|INF)|\.(?:nan|NaN|NAN)")
_TIME11 = re.compile(r"[0-9]{4}-[0-9]{2}-[0-9]{2}|[0-9]{4}-[0-9]{1,2}-[0-9]{1,2}(?:[Tt]|[ \t]+)[0-9]{1,2}"
                     r":[0-9]{2}:[0-9]{2}(?:\.[0-9]*)?(?:[ \t]*(?:Z|[-+][0-9]{1,2}(?::[0-9]{2})?))?")
_ESC = {"0": "\0", "a": "\a", "b": "\b", "t": "\t", "\t": "\t", "n": "\n", "v": "\v", "f": "\f",
        "r": "\r", "e": "\x1b", " ": " ", '"': '"', "/": "/", "\\": "\\", "N": "\x85",
        "_": "\xa0", "L": "\u2028", "P": "\u2029"}


def plain_value(text: str) -> Any:
    """A plain scalar as YAML 1.1 safe loading reads it; the forms pbem never writes plain
    (yes/no, 012, 0x1f, 1_000, 1:30, floats, timestamps) are refused, not guessed."""
    if text in _NULL:
        return None
    if text in _BOOL:
        return _BOOL[text]
    if _INT.fullmatch(text):
        return int(text)
    if text in _BOOL11 or text in ("<<", "=") or any(
            r.fullmatch(text) for r in (_INT11, _FLOAT11, _TIME11)):
        raise YamlError(f"plain scalar {text!r}: YAML 1.1 reads it as a non-string that pbem never writes")
    return text


def _fold(lines: list[str]) -> str:
    """YAML line folding: a single break is a space, n+1 breaks are n newlines."""
    out, blanks = "", 0
    for i, line in enumerate(lines):
        if i and line == "":
            blanks += 1
            continue
        if i:
            out += "\n" * blanks if blanks else " "
        out, blanks = out + line, 0
    return out + "\n" * blanks


def _quoted(text: str, pos: int) -> tuple[str, int]:
    """A quoted scalar starting at text[pos] (' or "); returns (value, position after it)."""
    quote, i, parts, cur = text[pos], pos + 1, [], ""
    while True:
        if i >= len(text):
            raise YamlError("unterminated quoted scalar")
        ch = text[i]
        if quote == "'" and ch == "'":
            if text[i + 1:i + 2] == "'":
                cur, i = cur + "'", i + 2
                continue
            break
        if quote == '"' and ch == '"':
            break
        if quote == '"' and ch == "\\":
            nxt = text[i + 1]
            if nxt == "\n":  # an escaped line break: joined with nothing, indentation dropped
                i += 2
                while text[i] == " ":
                    i += 1
                continue
            width = {"x": 2, "u": 4, "U": 8}.get(nxt)
            if width:
                cur += chr(int(text[i + 2:i + 2 + width], 16))
                i += 2 + width
            elif nxt in _ESC:
                cur, i = cur + _ESC[nxt], i + 2
            else:
                raise YamlError(f"unknown escape \\{nxt}")
            continue
        if ch == "\n":
            parts.append(cur.rstrip(" "))
            cur, i = "", i + 1
            while text[i] == " ":
                i += 1
            continue
        cur, i = cur + ch, i + 1
    parts.append(cur)
    return (_fold(parts) if len(parts) > 1 else cur), i + 1


class _Flow:
    """A flow collection or scalar ({a: 1}, [x, 'y'], "z"), possibly over several lines."""

    def __init__(self, text: str) -> None:
        self.t, self.i = text, 0

    def ws(self) -> None:
        while self.i < len(self.t) and self.t[self.i] in " \n":
            self.i += 1

    def node(self) -> Any:
        self.ws()
        ch = self.t[self.i]
        if ch in "{[":
            close = "}" if ch == "{" else "]"
            out: Any = {} if ch == "{" else []
            self.i += 1
            while True:
                self.ws()
                if self.t[self.i] == close:
                    self.i += 1
                    return out
                if self.t.startswith("? ", self.i):
                    raise YamlError("a '? ' key is beyond this subset")
                value = self.node()
                if close == "}":
                    self.ws()
                    if self.t[self.i] != ":":
                        raise YamlError("expected ':' in a flow mapping")
                    self.i += 1
                    if not isinstance(value, str) or value in out:
                        raise YamlError(f"bad or duplicate key {value!r}")
                    out[value] = self.node()
                else:
                    out.append(value)
                self.ws()
                if self.t[self.i] == ",":
                    self.i += 1
                elif self.t[self.i] != close:
                    raise YamlError(f"expected ',' or {close!r}")
        if ch in "'\"":
            value, self.i = _quoted(self.t, self.i)
            return value
        start = self.i  # plain: pbem quotes every string with , [ ] { } or : in flow
        while self.i < len(self.t) and self.t[self.i] not in ",[]{}:":
            self.i += 1
        return plain_value(_fold([s.strip(" ") for s in self.t[start:self.i].split("\n")]))


def _indent(line: str) -> int:
    return len(line) - len(line.lstrip(" "))


_KEY = re.compile(r"([^ '\"\[\]{},#&*!|>%@`?:-][^\n]*?|[?:-][^ ][^\n]*?):(?: |$)")


class _Block:
    def __init__(self, text: str) -> None:
        if any(c in text for c in "\x85\u2028\u2029\r\t"):  # pbem escapes all but LS and PS
            raise YamlError("a raw NEL, LS, PS, CR or TAB: beyond this reader's subset")
        self.lines = text.split("\n")
        if self.lines and self.lines[-1] == "":
            self.lines.pop()

    def skip(self, i: int) -> int:
        while i < len(self.lines) and (not self.lines[i].strip(" ") or self.lines[i].lstrip(" ").startswith("#")):
            i += 1
        return i

    def more(self, i: int, indent: int) -> int:
        """The end of the lines after i that are more indented than `indent` (or blank)."""
        j = i
        while j < len(self.lines) and (not self.lines[j].strip(" ") or _indent(self.lines[j]) > indent):
            j += 1
        return j

    def document(self) -> Any:
        i = self.skip(0)
        if i == len(self.lines):
            return None
        value, i = self.node(i, 0, self.lines[i], -1)
        i = self.skip(i)
        if i < len(self.lines) and self.lines[i] == "...":  # the end of the document
            i = self.skip(i + 1)
        if i != len(self.lines):
            raise YamlError(f"line {i + 1}: unexpected text")
        return value

    def node(self, i: int, col: int, rest: str, parent: int) -> tuple[Any, int]:
        """The node whose text starts at column `col` of line i with `rest`; its
        continuation lines are those more indented than `parent`."""
        if rest == "" or rest.startswith("#"):
            j = self.skip(i + 1)
            if j < len(self.lines) and _indent(self.lines[j]) > parent:
                n = _indent(self.lines[j])
                return self.node(j, n, self.lines[j][n:], parent)
            return None, i + 1
        if rest == "-" or rest.startswith("- "):
            return self.sequence(i, col)
        if rest[0] == "|":
            return self.literal(i, rest, parent)
        if rest[0] in ">&*!%@`" or rest == "?" or rest.startswith("? "):
            raise YamlError(f"line {i + 1}: {rest[0]!r} is beyond pbem's subset")
        if rest[0] not in "[{" and (self.key(rest) is not None):
            return self.mapping(i, col)
        end = self.more(i + 1, parent)
        while end > i + 1 and not self.lines[end - 1].strip(" "):
            end -= 1
        text = "\n".join([rest, *self.lines[i + 1:end]])
        if rest[0] not in "[{'\"":  # a plain scalar, folded over its lines
            return plain_value(_fold([x.strip(" ") for x in text.split("\n")])), end
        flow = _Flow(text)
        value = flow.node()
        flow.ws()
        if flow.i != len(text):
            raise YamlError(f"line {i + 1}: text after a scalar: {text[flow.i:][:30]!r}")
        return value, end

    @staticmethod
    def key(rest: str) -> tuple[str, str] | None:
        if rest[0] in "'\"":
            try:
                value, at = _quoted(rest, 0)
            except (YamlError, IndexError):
                return None
            if rest[at:at + 1] == ":" and rest[at + 1:at + 2] in ("", " "):
                return value, rest[at + 1:].lstrip(" ")
            return None
        m = _KEY.match(rest)
        if m is None:
            return None
        key = plain_value(m.group(1))
        if not isinstance(key, str):
            raise YamlError(f"key {m.group(1)!r} is not a string")
        return key, rest[m.end():].lstrip(" ")

    def mapping(self, i: int, col: int) -> tuple[dict[str, Any], int]:
        out: dict[str, Any] = {}
        first = True
        while True:
            line = self.lines[i]
            rest = line[col:] if first else line.lstrip(" ")
            found = self.key(rest)
            if found is None and rest.startswith("?"):
                raise YamlError(f"line {i + 1}: a '? ' key (longer than 128 characters) is beyond this subset")
            if found is None:
                raise YamlError(f"line {i + 1}: expected 'key: value'")
            key, value_text = found
            if key in out:
                raise YamlError(f"line {i + 1}: duplicate key {key!r}")
            j = self.skip(i + 1)
            if value_text == "" and j < len(self.lines) and _indent(self.lines[j]) == col \
                    and (self.lines[j].strip(" ") == "-" or self.lines[j][col:].startswith("- ")):
                out[key], i = self.sequence(j, col)  # an indentless sequence
            else:
                vcol = len(line) - len(value_text)
                out[key], i = self.node(i, vcol, value_text, col)
            i, first = self.skip(i), False
            if i >= len(self.lines) or _indent(self.lines[i]) != col or self.lines[i] == "..." \
                    or self.lines[i][col:].startswith("- "):
                return out, i

    def sequence(self, i: int, col: int) -> tuple[list[Any], int]:
        out: list[Any] = []
        first = True  # the first item may follow a "- " on its line ("- - x")
        while i < len(self.lines) and (first or _indent(self.lines[i]) == col) and (
                self.lines[i][col:] == "-" or self.lines[i][col:].startswith("- ")):
            first, rest = False, self.lines[i][col + 2:]
            pad = len(rest) - len(rest.lstrip(" "))
            value, i = self.node(i, col + 2 + pad, rest.lstrip(" "), col)
            out.append(value)
            i = self.skip(i)
        return out, i

    def literal(self, i: int, header: str, parent: int) -> tuple[str, int]:
        m = re.fullmatch(r"\|([1-9]?)([-+]?)|\|([-+])([1-9])", header.rstrip(" "))
        if m is None:
            raise YamlError(f"line {i + 1}: block scalar header {header!r}")
        digit = m.group(1) or m.group(4)
        chomp = m.group(2) or m.group(3) or ""
        end = self.more(i + 1, parent)
        body = self.lines[i + 1:end]
        if digit:
            indent = max(parent, 0) + int(digit) if parent >= 0 else int(digit)
        else:
            indent = min((_indent(x) for x in body if x.strip(" ")), default=parent + 1)
        lines = [x[indent:] for x in body]
        text = "".join(x + "\n" for x in lines)
        stripped = text.rstrip("\n")
        if chomp == "-":
            text = stripped
        elif chomp == "" and stripped:
            text = stripped + "\n"
        elif chomp == "" and not stripped:
            text = ""
        return text, end


def load_yaml(text: str) -> Any:
    """One document of the YAML subset pbem writes (docs/verifying.md, section 1)."""
    try:
        return _Block(text).document()
    except IndexError:
        raise YamlError("the YAML ends in the middle of a node") from None


# --------------------------------------------------------------------------------------
# the byte forms (docs/verifying.md, sections 2 to 6)


def canonical_json(value: Any) -> bytes:
    def check(v: Any) -> None:
        if isinstance(v, float):
            raise ValueError("a float has no canonical form")
        if isinstance(v, dict):
            for k, x in v.items():
                if not isinstance(k, str):
                    raise ValueError(f"a non-string key {k!r}")
                check(x)
        elif isinstance(v, list):
            for x in v:
                check(x)
    check(value)
    return json.dumps(value, sort_keys=True, separators=(",", ":"), ensure_ascii=False).encode("utf-8")


def body(entry: dict[str, Any]) -> dict[str, Any]:
    return {k: v for k, v in entry.items() if k != "signature"}


def entry_hash(entry: dict[str, Any]) -> str:
    return hashlib.sha256(canonical_json(body(entry))).hexdigest()


def ssh_ed25519(line: str) -> Ed25519PublicKey:
    """The key of an OpenSSH public line: string "ssh-ed25519", string 32-byte key."""
    blob = base64.b64decode(line.split()[1])
    n = int.from_bytes(blob[:4], "big")
    if blob[4:4 + n] != b"ssh-ed25519":
        raise ValueError("not an ssh-ed25519 key")
    m = int.from_bytes(blob[4 + n:8 + n], "big")
    return Ed25519PublicKey.from_public_bytes(blob[8 + n:8 + n + m])


def signature_ok(key: Ed25519PublicKey, entry: dict[str, Any]) -> bool:
    try:
        key.verify(base64.b64decode(entry["signature"], validate=True), canonical_json(body(entry)))
    except (InvalidSignature, ValueError, KeyError, TypeError):
        return False
    return True


def commitment(ctx: dict[str, Any], nonce: bytes, value: Any) -> str:
    c = canonical_json(ctx)
    return hashlib.sha256(b"pbem-commit-v1\0" + len(c).to_bytes(4, "big") + c + nonce
                          + canonical_json(value)).hexdigest()


def node_ctx(campaign: str, node: dict[str, Any]) -> dict[str, Any]:
    return {"campaign": campaign, "kind": node["kind"], "id": node["id"], "turn": node["turn"],
            "owner": node["owner"]}


def opens(campaign: str, node: dict[str, Any], nonce: str, value: Any) -> bool:
    raw = bytes.fromhex(nonce)
    return len(raw) == 32 and commitment(node_ctx(campaign, node), raw, value) == node["commitment"]


def batch_key(seed: bytes, salts: dict[str, str]) -> bytes:
    return hmac.digest(seed, b"pbem-dice-v1" + hashlib.sha256(canonical_json(salts)).digest(), "sha256")


def die(key: bytes, label: str, sides: int) -> int:
    limit, counter = 2**32 - 2**32 % sides, 0
    while True:
        w = int.from_bytes(hmac.digest(key, label.encode() + b"\0" + counter.to_bytes(4, "big"),
                                       "sha256")[:4], "big")
        if w < limit:
            return w % sides + 1
        counter += 1


def shuffle(key: bytes, label: str, items: list[Any]) -> list[Any]:
    items = list(items)
    for i in range(len(items) - 1, 0, -1):
        j = die(key, f"{label}:{i}", i + 1) - 1
        items[i], items[j] = items[j], items[i]
    return items


def salt_commitment(salt: str) -> str:
    return hashlib.sha256(bytes.fromhex(salt)).hexdigest()


def sealed_nodes(data: Any) -> list[dict[str, Any]]:
    if isinstance(data, dict):
        if "sealed" in data and "commitment" in data:
            return [data]
        return [n for v in data.values() for n in sealed_nodes(v)]
    if isinstance(data, list):
        return [n for v in data for n in sealed_nodes(v)]
    return []


# --------------------------------------------------------------------------------------
# reading the campaign through git


def git(root: Path, *args: str) -> bytes:
    return subprocess.run(["git", "-C", str(root), *args], capture_output=True, check=True).stdout


@dataclass
class History:
    config: dict[str, Any]  # campaign.yaml as first committed
    entries: list[dict[str, Any]]
    commit_of: dict[int, str]  # seq -> the commit that added its entry
    problems: list[str] = field(default_factory=list)


def read_history(root: Path) -> History:
    commits = git(root, "rev-list", "--first-parent", "--reverse", "HEAD").decode().split()
    config = load_yaml(git(root, "show", f"{commits[0]}:campaign.yaml").decode("utf-8"))
    seen: dict[str, str] = {}  # log file -> its blob as first committed
    current: dict[str, str] = {}
    commit_of: dict[int, str] = {}
    problems: list[str] = []
    for sha in commits:
        blobs = {}
        for line in git(root, "ls-tree", "-r", sha, "--", "log").decode().splitlines():
            meta, path = line.split("\t", 1)
            blobs[path] = meta.split()[2]
        for path, blob in seen.items():
            if blobs.get(path) != blob:
                problems.append(f"{path}: changed or removed in commit {sha[:10]}")
        for path in sorted(set(blobs) - set(seen)):
            seen[path] = blobs[path]
            commit_of[int(path[4:10])] = sha
        current.update(blobs)
    entries = []  # as they are now (HEAD): what a player reads; any change is reported above
    for path, blob in sorted(current.items()):
        entry = load_yaml(git(root, "cat-file", "blob", blob).decode("utf-8"))
        if path != f"log/{entry.get('seq', 0):06d}.yaml":
            problems.append(f"{path}: holds step {entry.get('seq')}")
        entries.append(entry)
    return History(config, entries, commit_of, problems)


# --------------------------------------------------------------------------------------
# the checks


@dataclass
class Report:
    problems: list[str] = field(default_factory=list)
    checked: dict[str, int] = field(default_factory=lambda: dict.fromkeys(
        ("entries", "signatures", "links", "batches", "dice", "salts", "commitments",
         "hidden_dice", "piles"), 0))

    @property
    def ok(self) -> bool:
        return not self.problems


def check_batch(entry: dict[str, Any], report: Report) -> None:
    """Every die of one resolution, recomputed from its seed and salts."""
    key = batch_key(bytes.fromhex(entry["seed"]), entry.get("salts") or {})
    for d in entry.get("dice") or []:
        report.checked["dice"] += 1
        if die(key, d["label"], d["sides"]) != d["value"]:
            report.problems.append(f"step {entry['seq']}: die {d['label']} = {d['value']} is not "
                                   "what the seed and salts give")


@dataclass
class _Engine:
    """The fields of the referee's state a verifier needs: orders pending, each faction's
    salt commitment, the salts of the last batch, the orders files still sealed."""

    pending: dict[str, Any] = field(default_factory=dict)
    commits: dict[str, str] = field(default_factory=dict)
    last_salts: dict[str, str] = field(default_factory=dict)
    files: list[dict[str, Any]] = field(default_factory=list)

    def copy(self) -> _Engine:
        return _Engine(*(json.loads(json.dumps(x)) for x in
                         (self.pending, self.commits, self.last_salts, self.files)))


def verify(root: Path, *, deck: list[str] | None = None) -> Report:
    """Verify a whole campaign; `deck`: the ids of the cards of the first pile, if known."""
    history = read_history(Path(root))
    report = Report(problems=list(history.problems))
    config, entries = history.config, history.entries
    campaign = config["campaign"]
    key = ssh_ed25519(config["referee"]["ssh"])
    anchor = config["dice"]["anchor"]
    if entries and entries[0].get("randomness", {}).get("anchor") != anchor:
        report.problems.append("step 1: its anchor is not campaign.yaml's")
    prev, last_seed, batches = GENESIS, bytes.fromhex(anchor), 0
    engine, stack = _Engine(), []  # stack: (seq, engine before) of the steps in force
    labels: dict[str, int] = {}
    known: dict[str, dict[str, Any]] = {}  # commitment -> the sealed node, as first published
    opened: dict[str, Any] = {}  # commitment -> published value
    for number, entry in enumerate(entries, 1):
        seq = entry["seq"]
        report.checked["entries"] += 1
        if seq != number:
            report.problems.append(f"step {seq}: expected step {number}")
        report.checked["signatures"] += 1
        if not signature_ok(key, entry):
            report.problems.append(f"step {seq}: the referee's signature does not verify")
        report.checked["links"] += 1
        if entry.get("prev") != prev:
            report.problems.append(f"step {seq}: prev is not the hash of step {seq - 1}")
        prev = entry_hash(entry)
        kind = entry["type"]
        for node in sealed_nodes({k: v for k, v in entry.items() if k not in ("opened", "revealed")}):
            known.setdefault(node["commitment"], node)
        if kind in ("orders", "resolve", "adjust"):
            stack.append((seq, engine.copy()))
        if kind == "orders":
            records = ({f: entry["pending"][f] for f in entry["factions"]} if "factions" in entry
                       else {entry["faction"]: entry["pending"]})
            engine.pending.update(records)
        elif kind == "undo":
            if not stack or stack[-1][0] != entry["undoes"]:
                report.problems.append(f"step {seq}: undoes {entry['undoes']}, not the last step in force")
            if stack:
                undone, engine = stack.pop()
                for label in [k for k, v in labels.items() if v == undone]:
                    del labels[label]
        elif kind == "resolve":
            if not entry.get("hidden_draws"):  # the contribution round's are off the chain
                batches += 1
                report.checked["batches"] += 1
                if entry.get("batch") != batches:
                    report.problems.append(f"step {seq}: batch {entry.get('batch')}, expected {batches}")
                seed = bytes.fromhex(entry["seed"])
                if hashlib.sha256(seed).digest() != last_seed:
                    report.problems.append(f"step {seq}: its seed does not hash to the seed before it")
                last_seed = seed
            _resolve_salts(campaign, entry, engine, report)
            if not entry.get("hidden_draws"):  # hidden until unseal (_unseal checks them)
                check_batch(entry, report)
            for d in entry.get("dice") or []:
                if d["label"] in labels:
                    report.problems.append(f"step {seq}: label {d['label']} used at step {labels[d['label']]}")
                labels[d["label"]] = seq
            _files_revealed(root, campaign, entry, engine, history.commit_of.get(seq), report)
            engine.commits.update({f: r["salt_next"] for f, r in engine.pending.items() if r.get("salt_next")})
            engine.last_salts = dict(entry.get("salts") or {})
            engine.pending = {}
        elif kind == "unseal":
            _revealed(campaign, entry, engine, report)
            _unseal(entries, entry, report, deck)
        for item in entry.get("opened") or []:
            node = item["node"]
            report.checked["commitments"] += 1
            first = known.get(node["commitment"])
            if first is None or node_ctx(campaign, first) != node_ctx(campaign, node):
                report.problems.append(f"step {seq}: opens {node['kind']} {node['id']}, which no "
                                       "earlier step sealed under that name")
            if not opens(campaign, node, item["nonce"], item["value"]):
                report.problems.append(f"step {seq}: the opening of {node['kind']} {node['id']} "
                                       "does not match its commitment")
            opened[node["commitment"]] = item["value"]
    return report


def _revealed(campaign: str, entry: dict[str, Any], engine: _Engine, report: Report) -> dict[str, str]:
    """The sealed orders a resolution (or unseal) reveals: each opens its commitment.
    Returns the salts the orders pending carry, by faction."""
    salts: dict[str, str] = {}
    revealed = entry.get("revealed") or {}
    for faction, record in sorted(engine.pending.items()):
        if "sealed" not in record:
            if record.get("salt"):
                salts[faction] = record["salt"]
            continue
        opening = revealed.get(faction)
        if opening is None:
            report.problems.append(f"step {entry['seq']}: the sealed orders of {faction} are not revealed")
            continue
        report.checked["commitments"] += 1
        if not opens(campaign, record["sealed"], opening["nonce"], opening["value"]):
            report.problems.append(f"step {entry['seq']}: the revealed orders of {faction} do not "
                                   "open their commitment")
        if opening["value"].get("salt"):
            salts[faction] = opening["value"]["salt"]
    return salts


def _resolve_salts(campaign: str, entry: dict[str, Any], engine: _Engine, report: Report) -> None:
    sent = _revealed(campaign, entry, engine, report)
    for faction, salt in sorted(sent.items()):
        report.checked["salts"] += 1
        if not re.fullmatch(r"(?:[0-9a-f]{2})*", salt):
            report.problems.append(f"step {entry['seq']}: the salt of {faction} is not lowercase hex")
        elif engine.commits.get(faction) and salt_commitment(salt) != engine.commits[faction]:
            report.problems.append(f"step {entry['seq']}: the salt of {faction} does not open its "
                                   "salt_next of the orders before")
    want = sent or engine.last_salts
    if (entry.get("salts") or {}) != want:
        report.problems.append(f"step {entry['seq']}: batch {entry.get('batch')} mixes salts other "
                               f"than those sent ({sorted(want)})")


def _files_revealed(root: Path, campaign: str, entry: dict[str, Any], engine: _Engine,
                    sha: str | None, report: Report) -> None:
    """Orders files with a secret part stay sealed until the turn ends, then are published."""
    files = engine.files + [{"file": r["file"], "node": r["file_sealed"], "faction": f}
                            for f, r in sorted(engine.pending.items()) if "file_sealed" in r]
    out = entry.get("files_revealed") or []
    if not out:
        engine.files = files
        return
    by_file = {x["file"]: x for x in files}
    for item in out:
        report.checked["commitments"] += 1
        sealed = by_file.get(item["file"])
        if sealed is None or not opens(campaign, sealed["node"], item["nonce"], item["value"]):
            report.problems.append(f"step {entry['seq']}: {item['file']} does not open its commitment")
        elif sha is not None and git(root, "show", f"{sha}:{item['file']}") != item["value"]["file"].encode():
            report.problems.append(f"step {entry['seq']}: {item['file']} as committed is not the file revealed")
    engine.files = []


def _unseal(entries: list[dict[str, Any]], entry: dict[str, Any], report: Report,
            deck: list[str] | None) -> None:
    """The hidden secret opens the commitment made at `new`; then the set-up draws and
    every shuffled pile are recomputed from it."""
    hidden = bytes.fromhex(entry["hidden"])
    first = entries[0]
    if hashlib.sha256(b"pbem-hidden-commit-v1\0" + hidden).hexdigest() != first["randomness"]["hidden_commitment"]:
        report.problems.append(f"step {entry['seq']}: the hidden secret does not open the commitment of step 1")
        return
    key = hmac.digest(hidden, b"pbem-hidden-v1", "sha256")
    # the set-up: in step 1 under the hidden key, or after the contribution round under
    # the hidden key mixed with the contributions (fairness.md section 6); the shuffles
    # after it under the same key (an undone round resolves again to the same draws)
    for drawn in [first, *(e for e in entries if e.get("hidden_draws"))]:
        if drawn.get("hidden_draws"):
            canon = json.dumps(drawn.get("salts") or {}, sort_keys=True, separators=(",", ":"),
                               ensure_ascii=False).encode("utf-8")
            key = hmac.digest(hmac.digest(hidden, b"pbem-hidden-v1", "sha256"),
                              b"pbem-hidden-mix-v1" + hashlib.sha256(canon).digest(), "sha256")
        for d in drawn.get("dice") or []:
            report.checked["hidden_dice"] += 1
            if die(key, d["label"], d["sides"]) != d["value"]:
                report.problems.append(f"step {drawn['seq']}: set-up draw {d['label']} = "
                                       f"{d['value']} is not what the hidden secret gives")
    openings = [o for e in entries for o in e.get("opened") or []]
    for item in openings:
        node = item["node"]
        if node["kind"] != "deck":
            continue
        report.checked["piles"] += 1
        n = int(str(node["id"]).removeprefix("pile-"))
        order = list(item["value"])
        if n == 1 and deck is not None and sorted(order) != sorted(deck):
            report.problems.append("pile-1 is not the deck")
        if shuffle(key, f"cards:shuffle:{n}", sorted(order)) != order:
            report.problems.append(f"{node['id']}: its order is not the shuffle the hidden secret gives")


# --------------------------------------------------------------------------------------
# the Chechen War's face-down units (docs/fairness.md section 6, "The Chechen War's face-down
# units are drawn the same way"), recomputed after unseal from the log and the snapshots


def draw_key(entries: list[dict[str, Any]]) -> bytes | None:
    """The key of the hidden draws once `unseal` has published the hidden secret: mixed with
    the contributions where the round was held, the hidden key itself where it was not."""
    hidden_hex = next((e["hidden"] for e in entries if e["type"] == "unseal"), None)
    if hidden_hex is None:
        return None
    key = hmac.digest(bytes.fromhex(hidden_hex), b"pbem-hidden-v1", "sha256")
    drawn = next((e for e in entries if e.get("hidden_draws")), None)
    if drawn is not None:
        key = hmac.digest(key, b"pbem-hidden-mix-v1"
                          + hashlib.sha256(canonical_json(drawn.get("salts") or {})).digest(), "sha256")
    return key


def owner_key(key: bytes, owner: str) -> bytes:
    """The key of the draws that concern `owner` alone (fairness.md, "Draws you can check at
    once")."""
    return hmac.digest(key, b"pbem-owner-draw-v1\0" + owner.encode("utf-8"), "sha256")


def chechen_units(root: Path, regulars: list[str], militia: list[str]) -> Report:
    """Every unit the Chechen War sealed to the Chechen, recomputed from the draw key: the
    set-up's cups and which tokens are regulars, each draw from the cup, each arrival.
    `regulars` and `militia`: the Chechen units of units.yaml by nationality."""
    history = read_history(Path(root))
    report = Report(problems=list(history.problems))
    report.checked.update(tokens=0, draws=0, arrivals=0)
    entries = history.entries
    drawn_with = draw_key(entries)
    if drawn_with is None:
        report.problems.append("the campaign is not unsealed: no hidden secret to draw with")
        return report
    key = owner_key(drawn_with, "chechen")
    opened = {o["node"]["commitment"]: o["value"] for e in entries for o in e.get("opened") or []}
    for entry in entries:  # the draw key sealed to the Chechen opens to the same key
        node = (entry.get("draw_keys") or {}).get("chechen")
        if node is not None and opened.get(node["commitment"]) != key.hex():
            report.problems.append(f"step {entry['seq']}: the Chechen's own draw key is not the "
                                   "one the hidden secret gives")

    def unit(value: Any) -> Any:
        """A unit id as state.yaml or an event holds it: in plain, or sealed and opened."""
        if isinstance(value, dict) and "commitment" in value:
            return opened.get(value["commitment"], f"(never opened: {value.get('id')})")
        return value

    everyone = sorted([*regulars, *militia])
    secret_parts: dict[str, Any] = {}  # the Chechen's set-up file's secret part, as recorded last
    box_nodes: dict[str, Any] = {}  # node id -> the unit drawn into the recruitment box
    for entry in entries:
        seq = entry["seq"]
        if entry["type"] == "orders" and entry.get("phase") == "setup-chechen" \
                and entry.get("faction") == "chechen":
            secret_parts["chechen"] = unit(entry["pending"].get("secret"))
        if entry["type"] != "resolve":
            continue
        events = entry.get("events") or []
        placed = next((e["tokens"] for e in events if e["type"] == "tokens_placed"), None)
        if placed is not None:
            sealed_ = next(e["tokens"] for e in events if e["type"] == "identities_sealed")
            want = _set_up(key, placed, secret_parts.get("chechen") or {}, regulars, militia)
            for token, node in sealed_.items():
                report.checked["tokens"] += 1
                if unit(node) != want[token]:
                    report.problems.append(f"step {seq}: token {token} holds {unit(node)}, the "
                                           f"draw gives {want[token]}")
        draws = [e for e in events if e["type"] == "drawn"]
        if draws:
            before = load_yaml(git(root, "show", f"{history.commit_of[seq]}~1:state.yaml")
                               .decode("utf-8"))["game"]
            taken = {unit(t["unit"]) for t in before["tokens"].values()}
            taken |= {unit(n) for n in before["recruits"]["chechen"]}
            for event in draws:
                nodes = event["units"]
                label = nodes[0]["id"].rsplit(":", 1)[0]
                order = shuffle(key, label, [u for u in everyone if u not in taken])
                for k, node in enumerate(nodes):
                    report.checked["draws"] += 1
                    if node["id"] != f"{label}:{k + 1}" or unit(node) != order[k]:
                        report.problems.append(f"step {seq}: {node['id']} holds {unit(node)}, "
                                               f"the draw gives {order[k]}")
                    box_nodes[node["id"]] = unit(node)
                    taken.add(unit(node))
        for event in events:
            if event["type"] == "arrived" and event.get("side") == "chechen":
                for (token, node), came in zip(event["tokens"].items(), event["recruits"], strict=True):
                    report.checked["arrivals"] += 1
                    if unit(node) != box_nodes.get(came):
                        report.problems.append(f"step {seq}: token {token} holds {unit(node)}, "
                                               f"not the unit drawn as {came}")
    return report


def _set_up(key: bytes, placed: dict[str, str], secret: dict[str, Any], regulars: list[str],
            militia: list[str]) -> dict[str, str]:
    """The set-up's draw: the cups shuffled, the tokens' hidden order, each hex's regulars
    the first of that order there, then each cup to its tokens in id order."""
    regular_cup = shuffle(key, "setup:regulars", sorted(regulars))
    militia_cup = shuffle(key, "setup:militia", sorted(militia))
    left: dict[str, int] = {}
    for hex_id in secret.get("regulars") or []:
        left[hex_id] = left.get(hex_id, 0) + 1
    chosen = set()
    for token in shuffle(key, "setup:tokens", sorted(placed)):
        if left.get(placed[token], 0) > 0:
            left[placed[token]] -= 1
            chosen.add(token)
    reg, mil = iter(regular_cup), iter(militia_cup)
    return {t: next(reg) if t in chosen else next(mil) for t in sorted(placed)}
