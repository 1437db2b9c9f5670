"""The Game protocol and the registry of game definitions in games/.

A game definition is a folder `games/<id>/` holding `game.yaml` (and whatever other data
files it names), and `rules/__init__.py` whose module attribute `GAME` satisfies `Game`.
The registry finds the folder in the source tree or, in an installed wheel, inside the
package (`pbem/games`), and loads the rules by file path.
"""

from __future__ import annotations

import copy
import functools
import importlib.util
import os
import sys
from collections.abc import Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Protocol, TypeVar, runtime_checkable

from pbem.dice import Rng as Rng  # the games take their dice from here
from pbem.errors import DataError, UsageError

State = dict[str, Any]
Event = dict[str, Any]
Orders = dict[str, Any]
T = TypeVar("T")


class Secrets(Protocol):
    """Sealed values during adjudication (pbem.crypto.sealed). The referee's copy decrypts, seals
    and records what it publishes; a public audit knows only what the log published (every
    other value is `pbem.crypto.sealed.HIDDEN`); `audit --final` knows everything after unseal.
    Rules pass hidden values on (into `seal`) and never branch on them."""

    def open(self, node: dict[str, Any]) -> Any:
        """Publish a node's value (an attack's spending at 8.4, a card played)."""
        ...

    def reveal_where(self, nodes: list[dict[str, Any]], test: Any,
                     first: bool = False) -> list[tuple[dict[str, Any], Any]]:
        """Publish the values among `nodes` that pass `test` (the card named in a discard)."""
        ...

    def compute(self, fn: Any, *args: Any) -> Any:
        """fn of args, sealed nodes among them read but not published (the referee's eyes only)."""
        ...

    def shuffle(self, label: str, items: Any, owner: str | None = None) -> Any:
        """A hidden order, keyed by the hidden secret (published by unseal); with `owner`, a
        draw that concerns that faction alone, keyed by its own key (sealed to it, so that
        its player can check the draw at once: `pbem audit --key`)."""
        ...

    def seal(self, kind: str, id_: str, owner: str, turn: int, value: Any) -> dict[str, Any]:
        """A new sealed node for `owner` (a faction, or "referee") and the referee."""
        ...


@dataclass(frozen=True)
class Problem:
    """One thing wrong with an orders file; `path` points into the file's data."""

    path: tuple[str | int, ...]
    message: str


@dataclass(frozen=True)
class Phase:
    """What the game waits for now."""

    name: str
    turn: int
    awaiting: tuple[str, ...]  # factions whose orders are needed; empty: resolves by itself
    title: str = ""
    prompt: str = ""  # what the awaited players must decide, for reports and templates
    over: bool = False
    result: dict[str, Any] | None = None
    # the secret parts of this phase's orders stay sealed until `pbem unseal`, not only to
    # the end of the turn (which units are which among face-down counters)
    keep_secret: bool = False
    # the JSON Schema of the secret part of this phase's orders (pbem/orders.py checks a file
    # against it before the rules see it); None: the phase takes no secret part
    secret: Mapping[str, Any] | None = field(default=None, compare=False)


@dataclass
class GameData:
    """A game's data files, after overrides, with where each top-level part came from."""

    game_id: str
    folder: Path
    files: dict[str, Any] = field(default_factory=dict)
    overrides: dict[str, Any] | None = None  # the campaign's corrections merged into `files`

    def __getitem__(self, name: str) -> Any:
        return self.files[name]


class Game(Protocol):
    """What every game definition provides (docs/design.md "The Game protocol"). A game may
    offer more, each an optional hook below (HOOKS names them all); pbem asks for one only
    through the function beside it, which gives the neutral default when the game has none.
    """

    id: str
    name: str

    def describe(self, data: GameData) -> dict[str, Any]:
        """id, name, factions, options (id, default, help, and `requires`: the options it
        needs, which `pbem new` checks), what is implemented."""
        ...

    def check_data(self, data: GameData) -> list[str]:
        """Problems with the data, each naming its file and key."""
        ...

    def setup(self, data: GameData, options: dict[str, Any], rng: Rng) -> State: ...

    def phase(self, data: GameData, state: State) -> Phase: ...

    def validate(
        self, data: GameData, state: State, faction: str, orders: Orders
    ) -> list[Problem]: ...

    def resolve(
        self, data: GameData, state: State, orders: dict[str, Orders], rng: Rng,
        secrets: Secrets | None = None,
    ) -> list[Event]:
        """Adjudicate. Secret parts of orders arrive as sealed nodes; `secrets.open` gives
        their values when the rules reveal them."""
        ...

    def apply(self, data: GameData, state: State, event: Event) -> State:
        """The state after one event, as a new state (`state` is left as it is). A game may
        also offer `apply_all(data, state, events) -> State`, the state after a whole step's
        events under the same contract, copying the state once instead of once per event;
        pbem uses it when it is there (`pbem.game.apply_all`)."""
        ...

    def view(self, data: GameData, state: State, who: str) -> dict[str, Any]: ...

    def bot(self, data: GameData, state: State, faction: str, rng: Rng) -> Orders: ...

    def template(self, data: GameData, state: State, faction: str, rng: Rng) -> Orders:
        """The orders a player is mailed to start from: legal, the faction's own standing
        instructions as they are in force (or none), and no choice that the player did not
        make (no card played, nothing that cannot be taken back), so that a template sent
        back unchanged changes nothing the player had set."""
        ...

    def default_orders(self, data: GameData, state: State, faction: str, rng: Rng) -> Orders:
        """What a faction that sent nothing does (resolve --nmr)."""
        ...

    def summary(self, data: GameData, event: Event) -> str:
        """One line describing an event, for the log."""
        ...


# ---- the optional hooks: each a protocol of its own, found by isinstance ----


@runtime_checkable
class Reports(Protocol):
    def report(self, data: GameData, view: dict[str, Any], before: dict[str, Any] | None,
               who: str, style: dict[str, Any], secrets: list[dict[str, Any]]) -> dict[str, Any]:
        """What only the game knows of a turn report (pbem.reports.context), from `view`
        (`view(data, state, who)` after the report's steps), `before` (the same reader's view
        before them, None at the start), `style` (the game's templates/report.yaml as read, {}
        without one) and `secrets` (the reader's own sealed values not yet revealed: kind, id,
        owner, commitment, and `raw`, the value, when the reader's key opened it). Pure: no
        I/O, no templates. Any of these parts; each one left out gets pbem's neutral default:

        - "position": the context of the game's templates/position.<ext>.j2 (default: the
          view as tables, rendered by the shared templates/position.<ext>.j2);
        - "changes": a mapping of lists for templates/changes.<ext>.j2, shown when any list
          has an entry (default: every value of the view that changed, by its path);
        - "map_svg": the map as SVG text, escaped, for the HTML report, or None (default);
        - "map_focus": the part of the map the reader sees first, `{"x", "y", "width",
          "height"}` in the SVG's units, for a map drawn at one unit a CSS pixel (wider than
          the page): the HTML report's map box opens on it (CSS scroll-initial-target, no
          script) and scrolls both ways; None for a map that fits the page (default: None);
        - "hand": what the reader holds, sealed, shown the game's way by
          templates/hand.<ext>.j2 (default: []);
        - "secrets": the sealed values to list as such, a part of `secrets` (default: all);
        - "orders_note": the lines (no "# ") under the header of the orders template the
          report offers (default: pbem's note on the bot's example);
        - "own": the reader's order of battle, `{"lines": [text], "tables": [{"title",
          "columns", "rows"}]}`, or None (default: None)."""
        ...


@runtime_checkable
class Seats(Protocol):
    def seating(self, data: GameData, state: State) -> Mapping[str, str | None]:
        """A power that enters mid-game is a faction `describe` marks `dormant: true`: no
        seat at `pbem new` (no player, key or mail; not asked to contribute) until a recorded
        step seats it. Each dormant faction that has entered by `state`, to the faction whose
        player takes it on (its seat, keys and mail are copied to it by the step that made it
        enter), or to None when the moderator chooses its player (`pbem seat`)."""
        ...


@runtime_checkable
class OffersStanding(Protocol):
    def standing_offer(self, data: GameData, state: State, faction: str) -> list[dict[str, Any]]:
        """The standing instructions (questions answered in advance, kept until changed)
        offered in every orders template of a phase that takes them, each a dict: `key`,
        `value` (in force, or None when not set), `values` (what it may be, as text),
        `default` (what applies when not set), `rule` and `saves` (what setting it saves: a
        mail round trip, a loss where you do not want it); [] in a phase that takes none."""
        ...


@runtime_checkable
class NamesOrderSections(Protocol):
    def orders_sections(self, data: GameData, state: State,
                        faction: str) -> list[tuple[str, list[int] | None]]:
        """The sections of the game's ORDERS.md whose examples every orders template shows
        above the standing instructions, for what the faction's file takes now: each the
        start of a section heading and which of its yaml blocks (None: all)."""
        ...


@runtime_checkable
class GivesTodo(Protocol):
    def todo(self, data: GameData, state: State, faction: str) -> list[str]:
        """What an awaited faction's orders file must still cover this phase (the units it
        drew and must place, and where each may go; the units arriving now), shown by
        `pbem status` and in the faction's report: short lines from the public state alone."""
        ...


@runtime_checkable
class Warns(Protocol):
    def warnings(self, data: GameData, state: State, faction: str,
                 orders: Orders) -> list[Problem]:
        """Orders that are legal but will have no effect or waste something (a card whose
        condition cannot hold, a move that ends where it began), each a `Problem` pointing
        into the orders as `validate`'s do; only what is certain now. pbem asks only for a
        file with no problems; `pbem check` and `pbem apply` print each as
        `FILE:LINE: WARNING: message` and still accept the file (exit 0)."""
        ...


@runtime_checkable
class Headlines(Protocol):
    def headlines(self, data: GameData, events: list[Event]) -> list[str]:
        """The short phrases that open a report's summary of the turn (who attacked where
        and who won, what was taken, a leader lost), from events every reader may see."""
        ...


@runtime_checkable
class Boxes(Protocol):
    def boxes(self, data: GameData, state: State, events: list[Event]) -> list[dict[str, Any]]:
        """Runs of a step's events told as boxes (a battle: who fought, each round's dice and
        why they hit), `state` the state before the step: each box `first` and `last` (the
        indexes of the events it covers), `title`, `columns`, `rows` (a table of text) and
        `told` (the indexes of the events the table tells: the others of the run are listed
        under it as the log tells them). Public events only."""
        ...


@runtime_checkable
class Corrects(Protocol):
    def correct(self, data: GameData, state: State, event: Event,
                secrets: Secrets | None) -> list[Event]:
        """The events to record for a correction (`pbem adjust`) that opens or seals a hidden
        value (a face-down unit turned face up, or face down again): the value opened with
        `secrets.open` (its opening is published with the step) or sealed anew with
        `secrets.seal`; any other correction comes back as it is. `pbem audit` replays it
        with what the step published, as it replays a resolution."""
        ...


@runtime_checkable
class AppliesAll(Protocol):
    def apply_all(self, data: GameData, state: State, events: list[Event]) -> State:
        """The state after a whole step's events under `apply`'s contract (neither `state`
        nor `events` changed), copying the state once instead of once per event."""
        ...


@runtime_checkable
class SeesSealed(Protocol):
    """`sees_sealed = True`: `validate` sees, in the state, each sealed value the checker's
    key opens in place of its node (every one at the referee's apply, the player's own at
    `pbem check --key`, none in the public audit, every one in `audit --final`): for rules
    that depend on hidden identities, such as which face-down units may go where."""

    sees_sealed: bool


# every optional hook by its name in a game, with the protocol that types it
HOOKS: dict[str, type] = {
    "report": Reports, "seating": Seats, "standing_offer": OffersStanding,
    "orders_sections": NamesOrderSections, "todo": GivesTodo, "warnings": Warns,
    "headlines": Headlines, "boxes": Boxes, "correct": Corrects, "apply_all": AppliesAll,
    "sees_sealed": SeesSealed,
}


def sees_sealed(game: Game) -> bool:
    """Whether the game's validate sees the sealed values the checker's key opens."""
    return isinstance(game, SeesSealed) and bool(game.sees_sealed)


def clone(data: Any) -> Any:
    """A copy of plain data (dicts, lists, scalars): several times faster than deepcopy,
    which matters because every event is folded into a fresh copy of the state."""
    if isinstance(data, dict):
        return {k: clone(v) for k, v in data.items()}
    if isinstance(data, list):
        return [clone(v) for v in data]
    return data


def standing_offer(game: Game, data: GameData, state: State, faction: str) -> list[dict[str, Any]]:
    """The standing instructions a faction's orders file may set now ([] when the game
    offers none)."""
    return list(game.standing_offer(data, state, faction)) if isinstance(game, OffersStanding) else []


def todo(game: Game, data: GameData, state: State, faction: str) -> list[str]:
    """What the faction's orders file must still cover this phase ([] without the hook)."""
    if not isinstance(game, GivesTodo):
        return []
    return [str(line) for line in game.todo(data, state, faction)]


def order_warnings(game: Game, data: GameData, state: State, faction: str,
                   orders: Orders) -> list[Problem]:
    """What the game says of legal orders of `faction` that will have no effect or waste
    something ([] without the hook)."""
    return list(game.warnings(data, state, faction, orders)) if isinstance(game, Warns) else []


def headlines(game: Game, data: GameData, events: list[Event]) -> list[str]:
    """The phrases of a step's events for a report's summary ([] without the hook)."""
    return [str(line) for line in game.headlines(data, events)] if isinstance(game, Headlines) else []


def corrected(game: Game, data: GameData, state: State, event: Event,
              secrets: Secrets | None) -> list[Event]:
    """The events a correction as written is recorded as ([event] without the hook)."""
    return list(game.correct(data, state, event, secrets)) if isinstance(game, Corrects) else [event]


def boxes(game: Game, data: GameData, state: State, events: list[Event]) -> list[dict[str, Any]]:
    """The boxes a step's events are told in ([] without the hook)."""
    return list(game.boxes(data, state, events)) if isinstance(game, Boxes) else []


def orders_examples(text: str, heading: str) -> list[str]:
    """The ```yaml blocks of the section of a game's ORDERS.md whose heading starts with
    `heading` ("## Movement"), in their order; [] when there is no such section."""
    import re

    for section in re.split(r"\n(?=## )", text):
        if section.startswith(f"## {heading}"):
            return [block.rstrip("\n") for block in re.findall(r"```yaml\n(.*?)```", section, re.S)]
    return []


def order_forms(game: Game, data: GameData, state: State, faction: str) -> list[str]:
    """The examples of the game's ORDERS.md for what the faction's orders file takes now
    (the sections `NamesOrderSections.orders_sections` names), as the comment lines (no "# ")
    of an orders template, so that a player writes a turn's orders from the report alone;
    [] without the hook or when the faction's file takes nothing now."""
    wanted = list(game.orders_sections(data, state, faction)) if isinstance(game, NamesOrderSections) else []
    doc = data.folder / "ORDERS.md"
    if not wanted or not doc.is_file():
        return []
    text = doc.read_text(encoding="utf-8")
    lines: list[str] = []
    for heading, picks in wanted:
        blocks = orders_examples(text, heading)
        for k in (range(len(blocks)) if picks is None else picks):
            if k < len(blocks):
                lines += [""] if lines else []
                lines += [f"  {line}" for line in blocks[k].splitlines()]
    if not lines:
        return []
    return ["The orders this phase takes, as ORDERS.md shows them (its examples: put your own",
            "units, places and numbers):", *lines]


def standing_lines(offer: list[dict[str, Any]]) -> list[str]:
    """An offer as the comment lines (no "# ") of an orders template."""
    import textwrap

    if not offer:
        return []
    lines = ["Standing instructions: each answers a question in advance and is kept until you",
             "change it. Set them under 'standing:' (standing: {KEY: VALUE}); KEY: null drops one.",
             "In force now:"]
    for item in offer:
        value = item.get("value")
        shown = f"{item['key']}: {_flow(value)}" if value is not None else (
            f"{item['key']} not set ({item['default']})")
        lines += textwrap.wrap(f"  {shown}  [{item['values']}; {item['rule']}]", 148,
                               subsequent_indent="      ", break_long_words=False,
                               break_on_hyphens=False)
        lines += textwrap.wrap(f"      {item['saves']}", 148, subsequent_indent="      ",
                               break_long_words=False, break_on_hyphens=False)
    return lines


def _flow(value: Any) -> str:
    if isinstance(value, list):
        return "[" + ", ".join(_flow(v) for v in value) + "]"
    if isinstance(value, dict):
        return "{" + ", ".join(f"{k}: {_flow(v)}" for k, v in value.items()) + "}"
    if isinstance(value, bool):
        return "true" if value else "false"
    return str(value)


def seating(game: Game, data: GameData, state: State) -> dict[str, str | None]:
    """The dormant factions that have entered by `state`, each to the faction whose player
    takes it on (None: the moderator seats it); {} for a game without dormant factions."""
    return dict(game.seating(data, state)) if isinstance(game, Seats) else {}


def dormant(game: Game, data: GameData) -> list[str]:
    """The factions that have no seat until they enter the game (describe: dormant)."""
    return [f["id"] for f in game.describe(data)["factions"] if f.get("dormant")]


def apply_all(game: Game, data: GameData, state: State, events: list[Event]) -> State:
    """The state after `events`, one after another; `state` and `events` are left as they
    are. A game that offers `apply_all` itself copies the state once for the whole step;
    otherwise each `apply` returns a new state."""
    if isinstance(game, AppliesAll):
        return game.apply_all(data, state, events)
    for event in events:
        state = game.apply(data, state, event)
    return state


@functools.lru_cache(maxsize=1)
def games_dir() -> Path:
    """games/ in the source tree, or pbem/games in an installed wheel."""
    here = Path(__file__).resolve().parent
    for candidate in (here / "games", here.parent / "games"):
        if (candidate).is_dir() and any(candidate.glob("*/game.yaml")):
            return candidate
    raise DataError(f"no game definitions found (looked in {here / 'games'} and {here.parent / 'games'})")


def templates_dir() -> Path:
    here = Path(__file__).resolve().parent
    for candidate in (here / "templates", here.parent / "templates"):
        if candidate.is_dir():
            return candidate
    raise DataError(f"no templates found (looked in {here / 'templates'} and {here.parent / 'templates'})")


GAMES_PATH = "PBEM_GAMES_PATH"  # more folders of game definitions, searched first


def game_folders() -> list[Path]:
    """Where games are found: each folder of $PBEM_GAMES_PATH (separated as PATH is), then
    the bundled games/. A game found in an earlier folder hides one of the same id later."""
    extra = [Path(p).expanduser() for p in os.environ.get(GAMES_PATH, "").split(os.pathsep) if p]
    return [*extra, games_dir()]


def _found() -> dict[str, Path]:
    """Every game's id and folder (looked up once for each $PBEM_GAMES_PATH and games/)."""
    return dict(_scan(tuple(game_folders())))


@functools.lru_cache(maxsize=16)
def _scan(folders: tuple[Path, ...]) -> tuple[tuple[str, Path], ...]:
    found: dict[str, Path] = {}
    for folder in folders:
        for path in sorted(folder.glob("*/game.yaml")):
            if (path.parent / "rules" / "__init__.py").exists():
                found.setdefault(path.parent.name, path.parent)
    return tuple(found.items())


def game_ids() -> list[str]:
    return sorted(_found())


def game_folder(game_id: str) -> Path:
    """The folder of a game definition (games/<id>/, or one found by $PBEM_GAMES_PATH)."""
    found = _found()
    if game_id not in found:
        from pbem.names import suggest

        known = sorted(found)
        hint = suggest(game_id, known)
        raise UsageError(f"unknown game {game_id!r}{hint}; known games: {', '.join(known)}"
                         f" (more are found in the folders of ${GAMES_PATH})")
    return found[game_id]


_LOADED: dict[str, tuple[Path, Game]] = {}  # by id: the folder it was loaded from, and the game


def get_game(game_id: str) -> Game:
    """The rules module of a game, loaded by file path and cached."""
    folder = game_folder(game_id)
    if _LOADED.get(game_id, (None, None))[0] == folder:
        return _LOADED[game_id][1]
    rules = folder / "rules"
    module_name = f"pbem_game_{game_id}"
    spec = importlib.util.spec_from_file_location(
        module_name, rules / "__init__.py", submodule_search_locations=[str(rules)]
    )
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules[module_name] = module
    spec.loader.exec_module(module)
    game: Game = module.GAME
    _LOADED[game_id] = (folder, game)
    return game


_DATA: dict[str, GameData] = {}


def load_data(game_id: str, overrides: dict[str, Any] | None = None, *,
              source: Path | None = None, cache: Path | None = None) -> GameData:
    """Read a game's YAML files, apply a campaign's overrides, check the result: against the
    game's JSON Schemas if it has them (pbem.datacheck), then with its own check_data.

    `source` is the campaign.yaml the overrides come from, so that a problem in one is shown
    at its line. Loaded once per process for each game folder and set of overrides; treat it
    as read-only. With a `cache` folder (a campaign's .pbem/cache) the checked result is
    kept there as JSON (pbem.cache), keyed by the content of every file that made it and
    checked it: the next command that finds them unchanged skips reading and checking.
    """
    import json

    key = json.dumps([str(game_folder(game_id)), game_id, overrides or {}], sort_keys=True, default=str)
    if key not in _DATA:
        if cache is None:
            _DATA[key] = _load_data(game_id, overrides, source)
        else:
            from pbem import cache as cached_json

            folder = game_folder(game_id)
            files = cached_json.cached(cache, "game-data", _data_key(folder, key), lambda: dict(
                _load_data(game_id, overrides, source).files))
            _DATA[key] = GameData(game_id, folder, dict(files), overrides or None)
    return _DATA[key]


def _data_key(folder: Path, key: str) -> str:
    """What a game's checked data depends on: pbem's own version and checks, the game's YAML
    files and schemas, its rules (check_data), and the overrides (`key`)."""
    from pbem import __version__, cache

    paths = sorted([*folder.glob("*.yaml"), *folder.glob("schemas/**/*"), *folder.glob("rules/*.py"),
                    Path(__file__).with_name("datacheck.py")])
    return cache.key_of(__version__.encode(), key.encode(),
                        *(p.as_posix().encode() + b"\0" + p.read_bytes() for p in paths if p.is_file()))


def _load_data(game_id: str, overrides: dict[str, Any] | None,
               source: Path | None = None) -> GameData:
    from pbem import datacheck
    from pbem.names import suggest
    from pbem.yamlio import read_trusted

    folder = game_folder(game_id)
    data = GameData(game_id, folder, overrides=overrides or None)
    data.files["game"] = read_trusted(folder / "game.yaml")
    names = data.files["game"].get("data_files", []) if isinstance(data.files["game"], dict) else None
    if not (isinstance(names, list) and all(isinstance(n, str) for n in names)):
        # game.yaml names the other files: without them, what is wrong with it alone
        _refuse(game_id, datacheck.problems(folder, data.files)
                or [f"{folder / 'game.yaml'}: data_files: expected a list of file names"])
    for name in names or []:
        path = folder / f"{name}.yaml"
        if not path.exists():
            raise DataError(f"{path}: missing (named in game.yaml data_files)")
        data.files[name] = read_trusted(path)
    if overrides is not None and not isinstance(overrides, dict):
        raise DataError(f"{source or 'campaign.yaml'}: overrides: expected a mapping of data "
                        f"file names (known: {', '.join(data.files)}) to corrections")
    base = dict(data.files)
    for name, patch in (overrides or {}).items():
        if name not in data.files:
            raise DataError(
                f"{source or 'campaign.yaml'}: overrides.{name}: no such data file "
                f"(known: {', '.join(sorted(data.files))}){suggest(str(name), sorted(data.files))}"
            )
        data.files[name] = deep_merge(data.files[name], patch, f"overrides.{name}")
    _refuse(game_id, datacheck.problems(folder, data.files, base=base, overrides=overrides,
                                        source=source))
    _refuse(game_id, get_game(game_id).check_data(data))
    return data


def _refuse(game_id: str, problems: list[str]) -> None:
    if problems:
        raise DataError(f"game data for {game_id} is not valid", details=problems)


def deep_merge(base: Any, patch: Any, where: str) -> Any:
    """Overlay `patch` on `base`: mappings merge key by key, anything else replaces.

    A key set to null in the patch removes it, so a house rule can delete a route or zone.
    """
    if isinstance(base, dict) and isinstance(patch, dict):
        out = copy.deepcopy(base)
        for key, value in patch.items():
            if value is None:
                out.pop(key, None)
            elif key in out:
                out[key] = deep_merge(out[key], value, f"{where}.{key}")
            else:
                out[key] = copy.deepcopy(value)
        return out
    return copy.deepcopy(patch)
