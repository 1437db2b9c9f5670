"""A game's data files checked against its JSON Schemas, problems reported as FILE:LINE.

A game may give one schema per data file, `<game folder>/schemas/NAME.schema.json` (JSON
Schema, Draft 2020-12), for the shape of NAME.yaml: keys, types and ranges. A file without
a schema is not checked here; what a schema cannot say (a route joins two known zones, each
pair once) the game's own `check_data` says. The data is checked after a campaign's
overrides are merged, and a problem in a value an override set is reported at its line in
campaign.yaml.

Checking takes a few hundred milliseconds (jsonschema is thorough, not fast), and most
commands load the data, so a file found valid is remembered by a digest of its schema and
its content in the user's cache folder ($XDG_CACHE_HOME/pbem or ~/.cache/pbem, as
pre-commit keeps its own): the same data is not checked twice, and jsonschema is not even
imported then. Data that changes in any way is checked again.
"""

from __future__ import annotations

import hashlib
import json
import os
import re
from collections.abc import Iterator, Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any

from pbem import yamlio
from pbem.errors import DataError, InputFileError

if TYPE_CHECKING:
    from jsonschema.exceptions import ValidationError
    from jsonschema.protocols import Validator

SCHEMAS = "schemas"
LIMIT = 20  # problems listed; the rest are counted
Key = str | int

# the schemas by path and content; and what a valid file's digest is made of, changed when
# what "valid" means here changes (the strict integers of _validator)
_VALIDATORS: dict[tuple[str, str], Validator] = {}
_DIGEST_VERSION = b"pbem datacheck 1"
_MISSING = object()


def schema_path(folder: Path, name: str) -> Path:
    return folder / SCHEMAS / f"{name}.schema.json"


@dataclass(frozen=True, order=True)
class _Problem:
    order: int  # the file's place: game.yaml, the data files in game.yaml's order, campaign.yaml
    line: int
    where: tuple[tuple[int, Key], ...]  # the keys: list indices in their order, not as text
    text: str  # the whole line as shown


def problems(folder: Path, files: Mapping[str, Any], *, base: Mapping[str, Any] | None = None,
             overrides: Mapping[str, Any] | None = None, source: Path | None = None,
             limit: int = LIMIT) -> list[str]:
    """Every way `files` (file name -> data, overrides merged) breaks the game's schemas, as
    "FILE:LINE: KEY: what was expected", sorted by file and line, at most `limit` of them.

    `base` is the data before `overrides` (campaign.yaml's, read from `source`) were merged:
    a value the overrides set is reported at its line in campaign.yaml."""
    overrides = overrides or {}
    found: set[_Problem] = set()
    lines = _Lines()
    campaign = str(source) if source is not None else "campaign.yaml"
    for order, (name, value) in enumerate(files.items()):
        path = schema_path(folder, name)
        if not path.is_file():
            continue
        schema = path.read_bytes()
        instance = _jsonable(value)
        digest = _digest(schema, instance)
        if _known_valid(digest):
            continue
        explained = list(_explain_all(_validator(path, schema).iter_errors(instance)))
        if not explained:
            _remember(digest)
            continue
        data_file = folder / f"{name}.yaml"
        for shown, located, message in explained:
            keys = _original(value, located)
            patch = overrides.get(name, _MISSING)
            if patch is not _MISSING and _overridden((base or {}).get(name), patch, keys):
                file, place, where = campaign, ("overrides", name, *keys), ["overrides", name, *shown]
                at, rank = lines.of(source, place), len(files)
            else:
                file, place, where = str(data_file), tuple(keys), list(shown)
                at, rank = lines.of(data_file, place), order
            dotted = _dotted(where)
            head = f"{file}:{at}" if at is not None else file
            text = f"{head}: {dotted}: {message}" if dotted else f"{head}: {message}"
            found.add(_Problem(rank, at or 0, tuple((isinstance(k, str), k) for k in where), text))
    ordered = [p.text for p in sorted(found)]
    if len(ordered) > limit:
        return [*ordered[:limit], f"... and {len(ordered) - limit} more"]
    return ordered


# ---------------------------------------------------------------------------------------
# the schemas


def _validator(path: Path, text: bytes) -> Validator:
    """The schema at `path` (its bytes: `text`), checked against Draft 2020-12 once."""
    key = (str(path), hashlib.sha256(text).hexdigest())
    if key not in _VALIDATORS:
        from jsonschema import Draft202012Validator, validators
        from jsonschema.exceptions import SchemaError

        try:
            schema = json.loads(text.decode("utf-8"))
        except (UnicodeDecodeError, json.JSONDecodeError) as exc:
            where = f"{path}:{exc.lineno}" if isinstance(exc, json.JSONDecodeError) else str(path)
            raise DataError(f"{where}: not a JSON file: {exc}") from None
        try:
            Draft202012Validator.check_schema(schema)
        except SchemaError as exc:
            where = _dotted(list(exc.absolute_path)) or "(top)"
            raise DataError(f"{path}: not a JSON Schema (Draft 2020-12): {where}: "
                            f"{exc.message}") from None
        # YAML's 3.0 is a float: a whole number of the game is written 3 (JSON Schema
        # would take 3.0 as an integer, the rules would not)
        checker = Draft202012Validator.TYPE_CHECKER.redefine(
            "integer", lambda _checker, value: isinstance(value, int) and not isinstance(value, bool))
        strict = validators.extend(  # type: ignore[no-untyped-call]
            Draft202012Validator, type_checker=checker)
        _VALIDATORS[key] = strict(schema)
    return _VALIDATORS[key]


def _cache() -> Path:
    return Path(os.environ.get("XDG_CACHE_HOME") or Path.home() / ".cache") / "pbem" / "valid-data"


def _digest(schema: bytes, instance: Any) -> str:
    content = json.dumps(instance, sort_keys=True, separators=(",", ":"), default=repr)
    return hashlib.sha256(b"\0".join((_DIGEST_VERSION, schema, content.encode()))).hexdigest()


def _known_valid(digest: str) -> bool:
    return (_cache() / digest).is_file()


def _remember(digest: str) -> None:
    try:
        (_cache()).mkdir(parents=True, exist_ok=True)
        (_cache() / digest).touch()
    except OSError:  # a read-only home: the data is checked again next time, that is all
        pass


def _jsonable(value: Any) -> Any:
    """The data as JSON sees it: mapping keys are text (YAML's `0: 0` has a number as key)."""
    if isinstance(value, dict):
        return {str(k): _jsonable(v) for k, v in value.items()}
    if isinstance(value, list):
        return [_jsonable(v) for v in value]
    return value


# ---------------------------------------------------------------------------------------
# where a problem is: the original keys, the file that set the value, its line


def _key_in(node: Any, key: Key) -> Key:
    """`key` (a JSON path step: text for a mapping) as the mapping `node` spells it."""
    if isinstance(node, dict) and key not in node:
        return next((k for k in node if str(k) == key), key)
    return key


def _original(value: Any, path: list[Key]) -> list[Key]:
    out: list[Key] = []
    node = value
    for step in path:
        key = _key_in(node, step)
        out.append(key)
        if isinstance(node, dict):
            node = node.get(key)
        elif isinstance(node, list) and isinstance(key, int) and 0 <= key < len(node):
            node = node[key]
        else:
            node = None
    return out


def _overridden(base: Any, patch: Any, keys: list[Key]) -> bool:
    """Whether the value at `keys` came from `patch` as pbem.game.deep_merge merges it:
    mappings key by key, anything else (a list, a value, null to delete) replaced whole."""
    for key in keys:
        if not (isinstance(base, dict) and isinstance(patch, dict)):
            return True
        if key not in patch:
            return False
        if key not in base:
            return True
        base, patch = base[key], patch[key]
    return True


class _Lines:
    """The line of each key in a YAML file, read once, only when there is a problem."""

    def __init__(self) -> None:
        self.docs: dict[Path, yamlio.Doc | None] = {}

    def of(self, path: Path | None, keys: tuple[Key, ...]) -> int | None:
        if path is None:
            return None
        if path not in self.docs:
            try:
                self.docs[path] = yamlio.load_untrusted(yamlio.read_regular(path, yamlio.MAX_BYTES),
                                                        str(path))
            except (OSError, InputFileError):
                self.docs[path] = None  # no lines, but the problem is still reported
        doc = self.docs[path]
        return doc.line(keys) if doc is not None else None


def _dotted(path: list[Any]) -> str:
    out = ""
    for step in path:
        out += f"[{step}]" if isinstance(step, int) else f".{step}" if out else str(step)
    return out


# ---------------------------------------------------------------------------------------
# what was expected, in words


_KINDS = {"integer": "a whole number", "number": "a number", "string": "text",
          "boolean": "true or false", "array": "a list", "object": "a mapping", "null": "nothing"}


def _show(value: Any) -> str:
    if isinstance(value, dict):
        return "a mapping"
    if isinstance(value, list):
        return "a list"
    if value is None:
        return "nothing (null)"
    text = repr(value)
    return text if len(text) <= 40 else text[:37] + "..."


def _plain(value: Any) -> str:
    return value if isinstance(value, str) else json.dumps(value)


def _explain_all(errors: Iterator[ValidationError]) -> Iterator[tuple[list[Key], list[Key], str]]:
    for error in errors:
        yield from _explain(error)


def _fields(error: ValidationError) -> tuple[list[Key], Any, Any, Any, dict[str, Any]]:
    """The path, the keyword that failed, its value in the schema, the value found, and the
    schema (Any: jsonschema types them as possibly unset; a reported error has them all)."""
    schema = error.schema if isinstance(error.schema, dict) else {}
    return list(error.absolute_path), error.validator, error.validator_value, error.instance, schema


def _explain(error: ValidationError) -> Iterator[tuple[list[Key], list[Key], str]]:
    """(the key shown, the key whose line is shown, the message) for one jsonschema error."""
    from jsonschema.exceptions import best_match

    path, kind, want, value, schema = _fields(error)
    if "propertyNames" in error.relative_schema_path:  # `value` is the key itself
        inner = next(_explain_value(error), (None, None, error.message))[2]
        yield [*path, value], [*path, value], f"unknown key: {inner}"
        return
    if kind == "required":
        for key in want:
            if key not in value:
                yield path, [*path, key], f"missing key {key!r}"
        return
    if kind == "additionalProperties" and want is False:
        known = sorted(schema.get("properties") or {})
        patterns = list(schema.get("patternProperties") or {})
        for key in value:
            if key not in known and not any(re.search(p, key) for p in patterns):
                yield ([*path, key], [*path, key],
                       f"unknown key; expected one of {', '.join(known)}" if known
                       else "unknown key; expected no keys here")
        return
    if kind == "dependentRequired":
        for key, needed in want.items():
            for other in needed:
                if key in value and other not in value:
                    yield [*path, key], [*path, key], f"goes with key {other!r}, which is missing"
        return
    if kind == "uniqueItems":
        seen: list[Any] = []
        for i, item in enumerate(value):
            if item in seen:
                yield [*path, i], [*path, i], f"{_show(item)} is listed twice"
                return
            seen.append(item)
    if kind in ("oneOf", "anyOf"):
        # [{required: [a]}, {required: [b]}]: one of the keys a and b
        keys = [o["required"][0] for o in want
                if isinstance(o, dict) and set(o) == {"required"} and len(o["required"]) == 1]
        if len(keys) == len(want):
            given = [k for k in keys if k in value]
            if not given:
                yield path, path, f"expected key {' or '.join(map(repr, keys))}"
            else:
                yield path, path, f"expected only one of the keys {', '.join(map(repr, keys))}"
            return
        if error.context:
            yield from _explain(best_match(error.context))
            return
    yield from _explain_value(error)


# a number's bounds, as the message says them
_BOUNDS = {"minimum": "at least", "maximum": "at most", "exclusiveMinimum": "more than",
           "exclusiveMaximum": "less than"}


def _explain_value(error: ValidationError) -> Iterator[tuple[list[Key], list[Key], str]]:
    path, kind, want, value, schema = _fields(error)
    got = f", got {_show(value)}"
    if kind == "type":
        kinds = [want] if isinstance(want, str) else list(want)
        message = f"expected {' or '.join(_KINDS.get(k, k) for k in kinds)}{got}"
    elif kind == "enum":
        message = f"expected one of {', '.join(_plain(v) for v in want)}{got}"
    elif kind == "const":
        message = f"expected {_plain(want)}{got}"
    elif kind in _BOUNDS:
        message = f"expected {_BOUNDS[kind]} {want}{got}"
    elif kind in ("minItems", "maxItems"):
        bound = "at least" if kind == "minItems" else "at most"
        message = f"expected {bound} {want} item{'s' if want != 1 else ''}, got {len(value)}"
    elif kind in ("minProperties", "maxProperties"):
        bound = "at least" if kind == "minProperties" else "at most"
        message = f"expected {bound} {want} key{'s' if want != 1 else ''}, got {len(value)}"
    elif kind == "minLength" or (kind == "pattern" and want == "\\S"):
        message = f"expected some text{got}"
    elif kind == "maxLength":
        message = f"expected at most {want} characters{got}"
    elif kind == "pattern":
        message = f"expected text of the form {want}{got}"
    elif kind == "not" and isinstance(want, dict) and set(want) == {"const"}:
        message = f"expected anything but {_plain(want['const'])}"
    elif kind in ("not", None, "false") or error.schema is False:
        why = schema.get("description")
        message = f"not allowed here ({why})" if why else "not allowed here"
    else:
        message = error.message
    yield path, path, message
