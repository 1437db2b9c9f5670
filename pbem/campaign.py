"""A campaign folder: config, lock, the current snapshot, and writing one step atomically.

Each step writes its log entry and the new snapshot with temp file + os.replace and then
commits them; if pbem dies anywhere in between, the next command (holding the lock)
finds the work tree differs from HEAD in the files pbem manages and puts them back, so
the campaign is always at the old commit or the new one.
"""

from __future__ import annotations

import contextlib
import json
import os
import sys
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from pbem import cache, yamlio
from pbem.errors import Busy, CampaignError
from pbem.game import Game, GameData, Phase, clone, get_game, load_data, seating
from pbem.log import entry_name, finish

CONFIG = "campaign.yaml"
FORMAT = 1  # the `pbem:` of campaign.yaml: the campaign format this pbem reads and writes
# how a log entry's keys are written, for readers; hashes and signatures use canonical JSON
ENTRY_ORDER = ("seq", "prev", "type", "turn", "phase", "faction", "factions", "summary", "reason",
               "on_behalf",
               "undoes", "options", "contribute", "randomness", "hidden", "hidden_draws", "pending", "revealed", "opened",
               "files_revealed", "batch", "seed", "salts", "nmr_orders", "nmr_policy",
               "events", "dice")
STATE = "state.yaml"
MANAGED = ["log", STATE, "orders"]  # what a step writes; reset to HEAD after a crash
PRIVATE = ".pbem"
INTENT = "intent.json"  # in PRIVATE: what a command in progress means to finish
COPY = "copy"  # in PRIVATE: the name of a judge's copy of the campaign (Campaign.committer)
LOCK_WAIT = float(os.environ.get("PBEM_LOCK_WAIT", "30"))
# parsed snapshots by path, keyed on (path, mtime, size, inode): commands call state() often
_STATES: dict[str, tuple[tuple[str, int, int, int], Any]] = {}


# What campaign.yaml and the log both record (docs/design.md "campaign.yaml"): the game, its
# options and overrides, the dice anchor, the referee's keys, and each faction's seat (its
# player, address and keys). Only a recorded step changes them (`new`, `seat`); the rest
# (deadlines, mail settings, absences, NMR policies) the moderator edits freely, and pbem
# commits those edits with its next step so that every clone agrees.
SEAT_KEYS = ("player", "email", "age", "ssh", "hotseat", "unsigned_ok", "dormant")
# a dormant faction's seat at `pbem new`: nobody plays it yet
DORMANT_SEAT = {"player": "nobody yet", "email": "", "hotseat": False, "dormant": True}


def format_problem(config: dict[str, Any]) -> str | None:
    """What is wrong with campaign.yaml's `pbem:` (the campaign format), or None. A format
    this pbem does not know is never read as if it were its own: its meaning may differ."""
    version = config.get("pbem")
    if version == FORMAT and type(version) is int:
        return None
    return (f"pbem: {version!r} is not a campaign format this pbem knows (it reads format "
            f"{FORMAT}); open the campaign with the pbem that made it"
            if "pbem" in config else
            f"no 'pbem:' campaign format (this pbem reads 'pbem: {FORMAT}')")


def protected(config: dict[str, Any]) -> dict[str, Any]:
    """The part of campaign.yaml that only a recorded step may change."""
    from pbem.log import normal

    out: dict[str, Any] = {k: config[k] for k in ("campaign", "game", "options", "overrides",
                                                  "dice", "reproducible") if k in config}
    out["referee"] = {k: v for k, v in (config.get("referee") or {}).items() if k in ("age", "ssh")}
    out["factions"] = {f: {k: v for k, v in (seat or {}).items() if k in SEAT_KEYS}
                       for f, seat in (config.get("factions") or {}).items()}
    result: dict[str, Any] = normal(out)
    return result


def entered_seats(game: Game, data: GameData, before: dict[str, Any], after: dict[str, Any],
                  seats: dict[str, dict[str, Any]]) -> dict[str, dict[str, Any]]:
    """The seats a step gives to the dormant factions its events made enter: each takes on
    the seat (player, e-mail, keys) of the faction the game names, as `seats` (the
    settings before the step) hold it. A faction the moderator seats gets none here."""
    was = seating(game, data, before)
    out: dict[str, dict[str, Any]] = {}
    for faction, host in sorted(seating(game, data, after).items()):
        if faction in was or host is None:
            continue
        seat = seats.get(host)
        if seat is None or seat.get("dormant"):
            raise ValueError(f"{faction} enters played by the player of {host}, who has no seat")
        out[faction] = {k: v for k, v in seat.items() if k in SEAT_KEYS}
    return out


def differences(a: Any, b: Any, where: str = "") -> list[str]:
    """The dotted paths at which two plain values differ."""
    if isinstance(a, dict) and isinstance(b, dict):
        return [d for k in sorted(set(a) | set(b), key=str)
                for d in differences(a.get(k), b.get(k), f"{where}.{k}" if where else str(k))]
    return [] if a == b else [where or "(all)"]


# finishes what a killed command meant to do (`Campaign.intending`), given its plan; returns
# what it did. Resolving phases is pbem.step's work (`pbem.step.finish`): the commands that
# may finish a step hand it to `locked` and `settled`.
Finish = Callable[["Campaign", dict[str, Any]], list[str]]


@dataclass
class Campaign:
    root: Path
    config: dict[str, Any]
    recovered: list[str] = field(default_factory=list)  # what opening put right, if anything

    # -- opening -------------------------------------------------------------------------
    @classmethod
    def open(cls, root: Path) -> Campaign:
        path = root / CONFIG
        if not path.exists():
            raise CampaignError(
                f"{root.resolve()}: no {CONFIG} here; run pbem in a campaign folder "
                "(or give -C DIR), or create one with 'pbem new DIR --game ID'"
            )
        try:
            config = yamlio.read_trusted(path)
        except Exception as exc:  # a hand edit gone wrong
            raise CampaignError(f"{path}: cannot be read: {exc}") from None
        if not isinstance(config, dict) or "game" not in config:
            raise CampaignError(f"{path}: not a pbem campaign file (no 'game' key)")
        problem = format_problem(config)
        if problem is not None:
            raise CampaignError(f"{path}: {problem}")
        return cls(root, config)

    @classmethod
    def settled(cls, root: Path, finish: Finish | None = None) -> Campaign:
        """Open for reading, after putting right any step a crash left half-written (and,
        given `finish`, finishing a command a kill interrupted: `locked`).

        Reading commands take the lock for a moment too, so they wait for a step in progress
        and never show a snapshot that was not committed.
        """
        campaign = cls.open(root)
        with campaign.locked(finish=finish) as recovered:
            campaign.recovered = recovered
        return campaign

    @property
    def id(self) -> str:
        return str(self.config["campaign"])

    @property
    def game(self) -> Game:
        """The campaign's game, with the contribution round in front of its set-up
        (pbem.contributions; from the set-up on, every call is the game's own)."""
        from pbem.contributions import Contributing

        return Contributing(get_game(self.config["game"]))

    @property
    def data(self) -> GameData:
        cached: GameData | None = getattr(self, "_data", None)
        if cached is None:
            cached = load_data(self.config["game"], self.config.get("overrides"),
                               source=self.root / CONFIG, cache=self._cache())
            self._data = cached
        return cached

    @property
    def private(self) -> Path:
        return self.root / PRIVATE

    def factions(self) -> dict[str, dict[str, Any]]:
        return dict(self.config.get("factions", {}))

    def unseated(self) -> frozenset[str]:
        """The factions nobody plays yet: powers that enter mid-game, not yet seated."""
        return frozenset(f for f, seat in self.factions().items() if (seat or {}).get("dormant"))

    def players(self) -> dict[str, str | None]:
        """Who plays each faction, as 'NAME <EMAIL>', the same for every faction of one
        player (one e-mail address, as pbem mail groups them); None for a hot-seat faction,
        which has no player of its own."""
        out: dict[str, str | None] = {}
        names: dict[str, str] = {}
        for faction, info in self.factions().items():
            email = str(info.get("email") or "").strip()
            name = str(info.get("player") or "").strip()
            if info.get("hotseat") or not (email or name):
                out[faction] = None
                continue
            key = email.lower() or f"name:{name}"
            out[faction] = names.setdefault(key, f"{name} <{email}>" if email else name)
        return out

    def referee(self) -> tuple[str, str]:
        ref = self.config.get("referee", {})
        return (str(ref.get("name", "pbem referee")), str(ref.get("email", "referee@pbem.invalid")))

    def committer(self) -> tuple[str, str]:
        """Who commits the steps: the referee, or for a copy of the campaign that a judge
        serves with other judges, the referee with the copy's own name (.pbem/COPY), so that
        two copies that take the same mail in the same second never make the same commit
        (the second judge's push is then refused, and it takes its mails again)."""
        name, email = self.referee()
        path = self.private / COPY
        copy = path.read_text(encoding="utf-8").strip() if path.is_file() else ""
        return (f"{name} (copy {copy})", email) if copy else (name, email)

    # -- state ---------------------------------------------------------------------------
    def state(self) -> dict[str, Any]:
        """The snapshot after the last step (state.yaml), parsed once per file version."""
        path = self.root / STATE
        try:
            st = path.stat()
        except FileNotFoundError:
            raise CampaignError(f"{path}: missing; the campaign was not created completely") from None
        key = (str(path.resolve()), st.st_mtime_ns, st.st_size, st.st_ino)
        cached = _STATES.get(key[0])
        if cached is None or cached[0] != key:
            raw = path.read_bytes()
            cached = (key, cache.cached(self._cache(), "state", cache.key_of(raw),
                                        lambda: yamlio.load_trusted(raw.decode("utf-8"))))
            _STATES[key[0]] = cached
        return clone(cached[1])  # type: ignore[no-any-return]

    def _cache(self) -> Path | None:
        """Where parsed files are kept (pbem.cache): the referee's private folder, when this
        is the referee's campaign folder, not a player's clone."""
        return self.private / "cache" if self.private.is_dir() else None

    def phase(self, state: dict[str, Any] | None = None) -> Phase:
        state = state if state is not None else self.state()
        return self.game.phase(self.data, state["game"])

    def entry(self, seq: int) -> dict[str, Any]:
        loaded: dict[str, Any] = yamlio.read_trusted(self.root / entry_name(seq))
        return loaded

    def entries(self) -> Iterator[dict[str, Any]]:
        for path in sorted((self.root / "log").glob("*.yaml")):
            yield yamlio.read_trusted(path)

    # -- writing -------------------------------------------------------------------------
    @contextlib.contextmanager
    def locked(self, wait: float | None = None,
               finish: Finish | None = None) -> Iterator[list[str]]:
        """Hold the campaign lock; recover from an interrupted step first, and with
        `finish` (pbem.step.finish) complete what a killed command meant to do.

        Yields the list of recovery actions taken (empty when the campaign was clean).
        """
        self.private.mkdir(mode=0o700, exist_ok=True)  # the referee's alone
        with self.held(exclusive=True, wait=wait):
            done = self.store().recover(MANAGED)
            stale = yamlio.remove_stale_temps(self.root)
            if stale:
                done.append("removed half-written temporary files: " + ", ".join(stale))
            self.check_settings()
            intent = self.private / INTENT
            # a command was killed before it finished: finish it, when the caller can (a
            # command that does not resolve, such as publish, leaves the intent to the next)
            if intent.is_file() and finish is not None:
                plan = json.loads(intent.read_text(encoding="utf-8") or "{}")
                done += finish(self, plan)
                intent.unlink()
            for line in done:  # whichever command found it says so
                sys.stderr.write(f"pbem: recovered: {line}\n")
            yield done

    def check_settings(self) -> None:
        """Refuse to work with a campaign.yaml whose game, options, keys or seats differ from
        what the log records: signatures would be checked, and secrets sealed, against keys
        nobody recorded (a key swapped by hand). `pbem seat` is the recorded way."""
        recorded = self.state().get("settings")
        if recorded is None:  # a campaign made before pbem recorded its settings
            return
        changed = differences(protected(self.config), recorded)
        if changed:
            raise CampaignError(
                f"{self.root / CONFIG}: {', '.join(changed)} differ{'s' if len(changed) == 1 else ''} "
                "from what the log records; the game, its options and overrides, the keys and "
                "the seats change only by a recorded step (pbem seat FACTION ... --reason TEXT). "
                f"Put the file back with 'git -C {self.root} checkout {CONFIG}' or make the "
                "change with pbem seat")

    @contextlib.contextmanager
    def intending(self, plan: dict[str, Any]) -> Iterator[None]:
        """Within `locked`: a command that may write several steps (orders, then the
        resolutions they complete) says first what it will do, so that if it is killed
        half-way the next command that can finishes it (`locked`'s `finish`). A command
        that ends, even by an error, takes its intent back."""
        path = self.private / INTENT
        yamlio.write_atomic(path, json.dumps(plan))
        try:
            yield
        finally:
            path.unlink(missing_ok=True)

    @contextlib.contextmanager
    def held(self, *, exclusive: bool, wait: float | None = None) -> Iterator[None]:
        """Hold the campaign lock, exclusive for a writer, shared for a reader that must
        change nothing (audit: it waits for a step in progress, and puts nothing right). A
        reader on a clone without the referee's private folder has no writer to wait for."""
        lock_path = self.private / "lock"
        if not exclusive and not lock_path.is_file():
            yield
            return
        # shared for readers, exclusive for a writer, dropped by the system when its
        # holder dies (pbem.lock); a second hold in one process waits, as a second pbem would
        from pbem import lock

        if exclusive and not lock_path.exists():
            os.close(os.open(lock_path, os.O_RDWR | os.O_CREAT, 0o600))
        patience = LOCK_WAIT if wait is None else wait

        def waiting() -> None:  # a progress line: the wait may be long (PBEM_LOCK_WAIT)
            sys.stderr.write(f"pbem: waiting up to {patience:.0f} s for another "
                             f"pbem working on {self.root}\n")
            sys.stderr.flush()

        try:
            with lock.hold(lock_path, exclusive=exclusive, wait=patience, on_wait=waiting):
                yield
        except lock.Held:
            raise Busy(f"{self.root}: another pbem is working on this campaign "
                       f"(waited {patience:.0f} s for {lock_path})") from None
        except lock.Unusable as error:
            raise CampaignError(f"{error}; expected the campaign's lock file (empty): remove "
                                "it when no pbem is running and run the command again") from None

    def store(self) -> Any:
        """The campaign's git repository, opened once for this object: one `git.Repo`,
        whose object reader (a `git cat-file --batch` process) serves every read."""
        store = getattr(self, "_store", None)
        if store is None:
            from pbem.store import Store

            store = self._store = Store.open(self.root)
        return store

    def sign(self, entry: dict[str, Any]) -> str:
        """The referee's Ed25519 signature over the entry's canonical JSON
        (docs/design.md "Log entries")."""
        from pbem.crypto.keys import load_ssh_private_file, sign_entry

        key = getattr(self, "_signing_key", None)
        if key is None:
            key = load_ssh_private_file(self.private / "referee_ed25519")
            self._signing_key = key
        body = {k: v for k, v in entry.items() if k != "signature"}
        return sign_entry(key, body)

    def referee_identities(self) -> list[str]:
        from pbem.crypto.keys import load_identity_file

        return load_identity_file(self.private / "referee.key")

    def write_step(
        self,
        entry: dict[str, Any],
        state: dict[str, Any],
        message: str,
        extra: dict[str, str] | None = None,
        tag: str | None = None,
    ) -> str:
        """Write one log entry, the new snapshot and any extra files; commit them."""
        name = entry_name(entry["seq"])
        if (self.root / name).exists():
            raise CampaignError(f"{name} exists already; log entries are never rewritten")
        entry = dict(entry)
        entry["signature"] = self.sign(entry)
        order = {k: i for i, k in enumerate(ENTRY_ORDER)}
        entry = dict(sorted(entry.items(), key=lambda kv: order.get(kv[0], len(order))))
        state = finish(state, entry)
        paths = [name, STATE, CONFIG]  # the moderator's allowed edits go in with the step
        yamlio.write_atomic(self.root / name, yamlio.dump(entry))
        for rel, text in (extra or {}).items():
            yamlio.write_atomic(self.root / rel, text)
            paths.append(rel)
        yamlio.write_atomic(self.root / STATE, yamlio.dump(state))
        path = self.root / STATE
        st = path.stat()
        _STATES[str(path.resolve())] = ((str(path.resolve()), st.st_mtime_ns, st.st_size, st.st_ino),
                                        clone(state))
        store = self.store()
        sha: str = store.commit(paths, message, self.referee(), self.committer())
        if tag:
            store.tag(tag)
        return sha
