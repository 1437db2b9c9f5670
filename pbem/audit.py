"""`pbem audit`: replay the whole history from git objects and verify everything.

What is checked, per commit on the first-parent line from the root:
- log entries are never changed or removed once committed, and numbered without gaps;
- each entry's `prev` is the hash of the entry before it (the chain) and its `signature`
  is the referee's, by the key in campaign.yaml as first committed;
- recorded orders are legal in the position they were given in; revealed sealed orders
  open their commitments, and their signatures verify;
- every resolution is what the rules produce from the orders and the recorded dice;
- folding the entries gives exactly the committed state.yaml;
- every file the log names (orders files as received and their `.sig`) is in the commit
  of its step, holds what the log says, and stays the same in every later commit;
- each batch of dice mixes exactly the salts the players sent (each opening the
  commitment its faction made the turn before);
- each `turn-NNNN` tag marks the commit of the step that began that turn.

The audit changes nothing: it waits for a step in progress to finish, then reads git
objects only, and reports (never puts right) uncommitted changes in the files pbem manages.
"""

from __future__ import annotations

import contextlib
import functools
import hashlib
import json
import re
from pathlib import Path
from typing import Any

from pbem import cache, step, yamlio
from pbem import dice as dice_
from pbem.campaign import CONFIG, MANAGED, PRIVATE, STATE, Campaign, entered_seats
from pbem.crypto import sealed as sealed_
from pbem.errors import PbemError
from pbem.game import corrected, dormant, sees_sealed
from pbem.log import (
    GENESIS,
    SKELETON,
    Folder,
    corrections,
    entry_hash,
    entry_name,
    normal,
    recorded,
    sealed_files,
    sealed_phase,
    undone_steps,
)
from pbem.orders import SIGNATURE_NAMESPACE

TURN_TAG = re.compile(r"^turn-\d{4}$")


class _Audit:
    def __init__(self, root: Path, final: bool = False, own: list[str] | None = None) -> None:
        self.campaign = Campaign.open(root)  # never Campaign.settled: that puts things right
        self.final = final
        self.everything: dict[str, Any] = {}  # final: commitment -> value, every opening
        # a player's own audit (`audit --key`): his identities, what they open (commitment ->
        # value, with every published opening), and the own draw keys they open, by owner
        self.own = own
        self.mine: dict[str, Any] = {}
        self.owner_keys: dict[str, bytes] = {}
        self.owners: set[str] = set()  # own audit: whose sealed values the player's key opens
        self.hidden_key: bytes | None = None
        self.store = self.campaign.store()
        self.game = self.campaign.game
        self.data = self.campaign.data
        self.problems: list[str] = []
        self.checked = {"entries": 0, "snapshots": 0, "rolls": 0, "signatures": 0,
                        "commitments": 0}
        self.folder = Folder(self.game, self.data)
        self.referee_ssh: str | None = None
        self.factions: dict[str, Any] = {}
        self.baseline: dict[str, Any] | None = None  # the settings of a campaign's first commit
        self.recorded_settings: dict[str, Any] | None = None  # as the log stands at HEAD
        self.entries: list[dict[str, Any]] = []  # each step's SKELETON
        self.contributors: list[str] | None = None  # the factions the contribution round awaited
        # signed files naming a head their phase did not have: (the first: step, file), count
        self.foreign_heads: tuple[str, str, int] | None = None
        self.blob_of: dict[int, str] = {}  # seq -> the blob id of its entry
        self.hashes: dict[int, str] = {}  # seq -> the hash of its entry (log.entry_hash)
        self.last_seed: bytes | None = None  # the anchor, then each published batch seed
        self.batches = 0
        self.labels: dict[str, int] = {}  # die label -> step that rolled it (steps in force)
        self.opened: dict[str, Any] = {}  # commitment -> value, for every published opening
        self.sealed: dict[str, str] = {}  # commitment -> what it seals, for every sealed node
        # every file the log names: path -> (the entry naming it, its blob id once committed)
        self.kept: dict[str, tuple[str, str | None]] = {}
        self.undone: set[str] = set()  # the entries (log/NNNNNN.yaml) an undo took back
        self.turn_tags: dict[str, tuple[str, str]] = {}  # tag -> (entry, commit) that began the turn
        self.parses = Path(self.store.git_dir) / PARSED  # pbem.cache.by_blob
        self.sha = ""  # the commit being checked, and its tree: path -> blob id
        self.tree: dict[str, str] = {}
        self.naming: list[str] = []  # files named by this commit's steps, to keep from here on
        # campaign.yaml's blob id where it was last read, and what it protects
        self.config_blob: tuple[str | None, dict[str, Any]] = (None, {})

    def problem(self, text: str) -> None:
        self.problems.append(text)

    def run(self) -> dict[str, Any]:
        with self.campaign.held(exclusive=False):  # wait for a step in progress; fix nothing
            return self._run()

    def _run(self) -> dict[str, Any]:
        seen: dict[str, str] = {}  # entry path -> blob id as first committed
        head = GENESIS
        seq = 0
        last = ""
        # each commit's tree, folded from what each commit changed (linear in the history)
        for sha, changed in self.store.changes():
            self.sha = sha
            for path, blob in changed.items():
                if blob is None:
                    self.tree.pop(path, None)
                else:
                    self.tree[path] = blob
            if self.referee_ssh is None:
                self._settings()
            added = []
            for name in sorted(p for p in changed if p.startswith("log/")):
                if name in seen:
                    if changed[name] != seen[name]:
                        self.problem(f"{name}: changed or removed in commit {sha[:10]}")
                elif changed[name] is not None:
                    added.append(name)
            for name in added:
                seen[name] = self.tree[name]
                seq += 1
                entry = self._entry(name, seen[name], seq, head)
                if entry is None:
                    return self.result()
                head = entry_hash(entry)
                if not self._replay(name, entry, sha):
                    return self.result()
                self.entries.append({k: entry[k] for k in SKELETON if k in entry})
                self.blob_of[seq] = seen[name]
                self.hashes[seq] = head
                last = name
            self._kept_files(sha, changed)
            self._settings_kept(sha)
            snapshot = self.tree.get(STATE)
            if snapshot is None and self.folder.state:
                self.problem(f"{STATE} is missing from commit {sha[:10]} (after {last})")
            elif snapshot is not None and self.folder.state:
                self.checked["snapshots"] += 1
                if normal(self._parsed(snapshot)) != self.folder.state:
                    self.problem(f"{STATE} in commit {sha[:10]} is not the replay of the "
                                 f"log up to step {seq} ({last})")
                else:  # an undo of the next step reads this state again from git
                    self.folder.recall = functools.partial(self._snapshot, self.tree[STATE])
        if seq == 0:
            self.problem("no log entries in the history")
        self._tags()
        self._work_tree()
        return self.result()

    def _work_tree(self) -> None:
        """Report what differs from HEAD in the files pbem manages; change nothing (no
        optional index refresh either, and a stale git lock file stays where it is)."""
        dirty = self.store._git("--no-optional-locks", "status", "--porcelain",
                                "--untracked-files=all", "--", *MANAGED)
        changed = [line[3:] for line in dirty.splitlines() if line[3:] and line[:2] != "??"]
        extra = [line[3:] for line in dirty.splitlines() if line[:2] == "??"]
        extra += [p for p in yamlio.stale_temps(self.campaign.root, skip=(".git", PRIVATE))
                  if p not in extra]  # a write killed half-way, outside the managed paths
        found = ([f"uncommitted changes in {', '.join(changed)}"] if changed else []) + (
            [f"files not committed: {', '.join(extra)}"] if extra else [])
        if found:
            self.problem("the work tree differs from the last commit: " + "; ".join(found)
                         + " (audit checked the committed history and changed nothing)")
        from pbem.campaign import differences, protected

        try:  # the settings the commands use now, committed or not
            now = protected(yamlio.read_trusted(self.campaign.root / CONFIG))
        except Exception as exc:  # noqa: BLE001 - any damage is a finding
            self.problem(f"{CONFIG} in the work tree cannot be read: {exc}")
            return
        if self.recorded_settings is not None:
            changed = differences(now, self.recorded_settings)
            if changed:
                self.problem(f"{CONFIG} in the work tree changes {', '.join(changed)} without a "
                             "recorded step: pbem refuses to work with it")

    def _kept_files(self, sha: str, changed: dict[str, str | None]) -> None:
        """Every file the log names stays in every later commit exactly as first committed:
        a file named in this commit is taken as it is here; one named before is checked
        where this commit changed it."""
        for path in self.naming:  # read and checked by the step that named it
            self.kept[path] = (self.kept[path][0], self.tree.get(path))
        self.naming.clear()
        for path in [p for p in changed if p in self.kept]:
            name, blob_id = self.kept[path]
            if blob_id is None:
                continue
            now = changed[path]
            if now is None:
                self.problem(f"{path} (named by {name}) is removed in commit {sha[:10]}")
            elif now != blob_id:
                self.problem(f"{path} (named by {name}) is changed in commit {sha[:10]}")

    def _at(self, sha: str, path: str) -> bytes | None:
        """A file as commit `sha` holds it: from the folded tree for the commit being
        checked, from git's tree for any other."""
        if sha != self.sha:
            other: bytes | None = self.store.read_at(sha, path)
            return other
        blob = self.tree.get(path)
        return None if blob is None else self._blob(blob)

    def _blob(self, blob_id: str) -> bytes:
        return bytes(self.store.blob(blob_id))

    def _snapshot(self, blob_id: str) -> dict[str, Any]:
        """A committed state.yaml the audit found to be the replay of the log, read again."""
        state: dict[str, Any] = normal(self._parsed(blob_id))
        return state

    def _parsed(self, blob_id: str) -> Any:
        """A log entry or snapshot as committed, parsed (pbem.cache keeps each parse in the
        clone's .git by blob id: an audit after the next turn parses only what is new)."""
        return cache.by_blob(self.parses, blob_id,
                             lambda: yamlio.load_trusted(self._blob(blob_id).decode("utf-8")))

    def _keep(self, name: str, path: str, sha: str, want: bytes | None = None) -> bytes | None:
        """A file the log names: it must be in the commit of the step `name` (holding `want`,
        when the log itself gives its content) and it is kept from then on."""
        if path in self.kept:
            first, blob_id = self.kept[path]
            # a file an undone step published stays (an undo erases nothing); the step that
            # takes its place may name it again, holding the very same bytes
            if first in self.undone and blob_id is not None and want is not None \
                    and self._blob(blob_id) == want:
                self.kept[path] = (name, blob_id)
                return want
            self.problem(f"{name}: names {path}, which {first} named already")
            return None
        raw: bytes | None = self._at(sha, path) if path.startswith("orders/") else None
        if raw is None:
            self.problem(f"{name}: {path} is not in the commit of this step ({sha[:10]})")
            return None
        self.kept[path] = (name, None)
        self.naming.append(path)
        if want is not None and raw != want:
            self.problem(f"{name}: {path} as committed is not the file the log reveals")
        return raw

    def _tags(self) -> None:
        """turn-NNNN marks the commit of the step that began turn NNNN (the last such step,
        since an undo and a new resolution move the tag)."""
        tags = self.store.tags()
        for tag, (name, sha) in sorted(self.turn_tags.items()):
            if tag not in tags:
                self.problem(f"tag {tag} is missing (it marks {name}, commit {sha[:10]})")
            elif tags[tag] != sha:
                self.problem(f"tag {tag} points at commit {tags[tag][:10]}, not at the commit of "
                             f"{name} ({sha[:10]}), the step that began that turn")
        for tag in sorted(set(tags) - set(self.turn_tags)):
            if TURN_TAG.match(tag):
                self.problem(f"tag {tag} names a turn that no step of the log began")

    def result(self) -> dict[str, Any]:
        from pbem.contributions import hidden_draws

        if self.foreign_heads is not None:  # said once: after a rewrite every later one fails
            name, file, count = self.foreign_heads
            self.foreign_heads = None
            more = f" (and {count - 1} signed file(s) after it)" if count > 1 else ""
            self.problem(f"{name}: {file} names a log head its phase never had{more}: a signed "
                         "file of another phase, or the history before it was rewritten")
        unopened = [what for c, what in self.sealed.items() if c not in self.opened]
        return {"ok": not self.problems, "problems": self.problems, "checked": self.checked,
                "unopened": unopened, "recovered": self.campaign.recovered,
                "corrections": corrections(self._corrected()),
                # how the hidden draws were keyed: every player should know it
                "hidden_draws": (hidden_draws(self.folder.state, self.contributors)
                                 if self.folder.state.get("game") is not None else None)}

    def _corrected(self) -> list[dict[str, Any]]:
        """The entries as `corrections` reads them. The audit keeps each entry's skeleton
        alone (SKELETON: memory stays flat in a long history); an adjustment and a step
        taken back, whose events and dice the corrections tell, are read again from git."""
        _, undone = undone_steps(self.entries)
        whole = set(undone) | {e["seq"] for e in self.entries if e["type"] == "adjust"}
        return [yamlio.load_trusted(self._blob(self.blob_of[e["seq"]]).decode("utf-8"))
                if e["seq"] in whole else e for e in self.entries]

    def _settings_kept(self, sha: str) -> None:
        """campaign.yaml says, in every commit, the game, options, keys and seats the log
        records (the `new` step, then each `seat` step); the moderator's other settings
        (deadlines, mail, absences) are free."""
        from pbem.campaign import differences, format_problem, protected

        blob = self.tree.get(CONFIG)
        if blob is None:
            self.problem(f"{CONFIG} is missing from commit {sha[:10]}")
            return
        if blob != self.config_blob[0]:  # parsed again only where a commit changed it
            config = yamlio.load_trusted(self._blob(blob).decode("utf-8"))
            wrong = (format_problem(config) if isinstance(config, dict)
                     else "not a mapping of settings")
            if wrong is not None:
                self.problem(f"{CONFIG} in commit {sha[:10]}: {wrong}")
            self.config_blob = (blob, protected(config if isinstance(config, dict) else {}))
        now = self.config_blob[1]
        if self.baseline is None:  # a campaign made before the log recorded its settings
            self.baseline = self.folder.state.get("settings") or now
        recorded = self.folder.state.get("settings") or self.baseline
        changed = differences(now, recorded)
        if changed:
            self.problem(f"{CONFIG} in commit {sha[:10]} changes {', '.join(changed)} without a "
                         "recorded step (a change of the game, options, keys or seats is a "
                         "'pbem seat' step, with its reason)")
        self.recorded_settings = recorded

    def _settings(self) -> None:
        raw = self._at(self.sha, CONFIG)
        if raw is None:
            return
        config = yamlio.load_trusted(raw.decode("utf-8"))
        self.referee_ssh = config.get("referee", {}).get("ssh")
        self.factions = config.get("factions", {})
        if self.referee_ssh is None:
            self.problem(f"{CONFIG} as first committed names no referee key; signatures cannot "
                         "be checked")

    def _entry(self, name: str, blob_id: str, seq: int, head: str) -> dict[str, Any] | None:
        from pbem.crypto.keys import verify_entry

        try:
            entry: dict[str, Any] = self._parsed(blob_id)
        except Exception as exc:  # noqa: BLE001 - any damage is a finding
            self.problem(f"{name}: cannot be read: {exc}")
            return None
        if not isinstance(entry, dict):
            self.problem(f"{name}: not a log entry")
            return None
        self.checked["entries"] += 1
        if name != entry_name(seq) or entry.get("seq") != seq:
            self.problem(f"{name}: expected step {seq} here (entries missing or out of order)")
        if entry.get("prev") != head:
            self.problem(f"{name}: 'prev' is not the hash of the step before it")
        if self.referee_ssh:
            body = {k: v for k, v in entry.items() if k != "signature"}
            if verify_entry(self.referee_ssh, body, str(entry.get("signature", ""))):
                self.checked["signatures"] += 1
            else:
                self.problem(f"{name}: the referee's signature does not verify (changed entry?)")
        return entry

    def _replay(self, name: str, entry: dict[str, Any], sha: str) -> bool:
        from pbem.dice import DiceMismatch, ReplayRng, Roll

        before = self.folder.state
        try:
            kind = entry["type"]
            if kind == "orders":
                self._orders(name, entry, before, sha)
            elif kind == "unseal":
                self._revealed(name, entry, before, sha)
                self._files(name, entry, before, sha)
                for opening in entry.get("opened") or []:
                    self.checked["commitments"] += 1
                    if not sealed_.check_opening(self.campaign.id, opening["node"],
                                                 opening["nonce"], opening["value"]):
                        self.problem(f"{name}: the published opening of {opening['node']['kind']} "
                                     f"{opening['node']['id']} does not match its commitment")
                    self.opened[opening["node"]["commitment"]] = opening["value"]
            elif kind == "new":
                self.contributors = entry.get("contribute")  # the factions of the round
                self.checked["rolls"] += len(entry.get("dice", []))  # replayed by the fold
                self.last_seed = bytes.fromhex(entry.get("randomness", {}).get("anchor", "00"))
                self._round(name, entry)
            elif kind == "undo":
                for label in [k for k, v in self.labels.items() if v == entry["undoes"]]:
                    del self.labels[label]  # a step taken back may roll its labels again
                self.undone.add(entry_name(int(entry["undoes"])))
            elif kind == "resolve":
                if step.draws_hidden(before["game"]) != bool(entry.get("hidden_draws")):
                    self.problem(f"{name}: " + (
                        "marks its dice hidden (hidden_draws), but only the set-up after the "
                        "contribution round is drawn with the hidden key"
                        if entry.get("hidden_draws") else
                        "resolves the contribution round without marking its dice hidden"))
                if not entry.get("hidden_draws"):
                    self._chain(name, entry)
                self._salts(name, entry, before)
                orders = self._revealed(name, entry, before, sha)
                orders.update(entry.get("nmr_orders", {}))
                rolls = [Roll(d["label"], d["sides"], d["value"]) for d in entry.get("dice", [])]
                replay = ReplayRng(rolls)
                secrets, key = self._secrets(entry, before)
                events = step.run_rules(self.game, self.data, before["game"], orders, replay, secrets)
                self._openings(name, entry, secrets)
                self._draw_keys(name, entry, before, secrets.owners, key)
                self._files(name, entry, before, sha)
                self.checked["rolls"] += len(rolls)
                if not replay.finished():
                    self.problem(f"{name}: recorded dice that the rules never asked for")
                self._events(name, entry, events, "the rules produce from the orders and dice")
            elif kind == "adjust":
                self._corrections(name, entry, before)
            self.folder.fold(entry)
            self.data = self.folder.data  # the overrides in force from this step on (new, override)
            if kind in ("resolve", "adjust"):
                self._seats(name, entry, before)
            if kind == "resolve":
                turn = self.game.phase(self.data, self.folder.state["game"]).turn
                if turn != entry["turn"]:  # this step began a turn: its commit is tagged
                    self.turn_tags[f"turn-{turn:04d}"] = (name, sha)
        except (DiceMismatch, ValueError, KeyError, TypeError) as exc:
            self.problem(f"{name}: cannot be replayed: {exc}")
            return False
        return True

    def _secrets(self, entry: dict[str, Any],
                 before: dict[str, Any]) -> tuple[sealed_.PublishedSecrets, bytes | None]:
        """The sealed values a step is replayed with: what it published, and with `--final`
        or `--key` what unseal or the player's key opens (and the draw key, with `--final`)."""
        if self.final and self.hidden_key is not None:
            key = dice_.draw_key(self.hidden_key, before.get("contributions"))
            return sealed_.FinalSecrets(self.campaign.id, entry.get("opened") or [],
                                        self.everything, key), key
        if self.own is not None:
            return sealed_.OwnSecrets(self.campaign.id, entry.get("opened") or [], self.mine,
                                      self.owner_keys), None
        return sealed_.PublishedSecrets(self.campaign.id, entry.get("opened") or []), None

    def _events(self, name: str, entry: dict[str, Any], events: list[Any], what: str) -> None:
        """A step's recorded events are the replayed ones (sealed values masked), and with
        `--final` or `--key` each sealed value is the one recomputed."""
        recorded = entry.get("events", [])
        if sealed_.masked(events) != sealed_.masked(recorded):
            self.problem(f"{name}: the recorded events are not what {what}")
        elif self.final:
            found, count = sealed_.sealed_values(recorded, events, self.everything)
            self.checked["sealed_recomputed"] = self.checked.get("sealed_recomputed", 0) + count
            for text in found:
                self.problem(f"{name}: {text}")
        elif self.own is not None:  # what the player's own draw key recomputes
            found, count = sealed_.sealed_values(recorded, events, self.mine, self.owners)
            self.checked["own_recomputed"] = self.checked.get("own_recomputed", 0) + count
            for text in found:
                self.problem(f"{name}: {text.replace(', not even by unseal', '')}")

    def _corrections(self, name: str, entry: dict[str, Any], before: dict[str, Any]) -> None:
        """An adjustment's events are what the game makes of them, one by one in the state
        each leaves: a value it opens is the sealed one (its published opening matches the
        commitment), and it publishes no opening it did not make."""
        secrets, _key = self._secrets(entry, before)
        state, events = before["game"], []
        for event in entry.get("events", []):
            made = normal(corrected(self.game, self.data, state, event, secrets))
            events.extend(made)
            for one in made:
                state = self.game.apply(self.data, state, one)
        self._openings(name, entry, secrets)
        self._events(name, entry, events, "the game makes of the corrections")

    def _seats_of(self, state: dict[str, Any]) -> dict[str, Any]:
        """The seats in force in `state`: its settings, or for a log from before the first
        step recorded them, campaign.yaml as first committed."""
        found: dict[str, Any] = state.get("settings", {}).get("factions") or self.factions
        return found

    def _seats(self, name: str, entry: dict[str, Any], before: dict[str, Any]) -> None:
        """A step whose events make a power enter seats it as the rules say (the seat of the
        player who takes it on), and no step seats a faction otherwise but `pbem seat`."""
        seats = self._seats_of(before)
        want = entered_seats(self.game, self.data, before["game"], self.folder.state["game"],
                             seats)
        got = entry.get("seats") or {}
        for faction in sorted(set(want) | set(got)):
            if faction not in want:
                self.problem(f"{name}: seats {faction}, which the rules do not make enter here")
            elif faction not in got:
                self.problem(f"{name}: {faction} enters the game here, but the step does not "
                             "seat it")
            elif normal(got[faction]) != normal(want[faction]):
                self.problem(f"{name}: seats {faction} otherwise than the rules give (the seat "
                             "of the player who takes it on)")

    def _round(self, name: str, entry: dict[str, Any]) -> None:
        """A contribution round asks every faction of the game that is seated at the start
        (not the powers that enter later): one left out could not contribute, and the
        referee's choice of who may would itself steer the key."""
        asked = entry.get("contribute")
        if asked is None:
            return
        later = dormant(self.game, self.data)
        known = sorted(f["id"] for f in self.game.describe(self.data)["factions"]
                       if f["id"] not in later)
        if sorted(asked) != known:
            left = sorted(set(known) - set(asked)) or sorted(set(asked) - set(known))
            self.problem(f"{name}: the contribution round asks {', '.join(sorted(asked)) or 'nobody'}, "
                         f"not every faction of the game (differs for {', '.join(left)})")

    def _chain(self, name: str, entry: dict[str, Any]) -> None:
        """The batch is the next element of the published seed chain, used once; its dice
        are what the seed and the salts give; no label is used twice."""
        from pbem import dice

        self.batches += 1  # undone steps keep their batch: chain elements are never reused
        if entry.get("batch") != self.batches:
            self.problem(f"{name}: uses batch {entry.get('batch')} of the seed chain; the next "
                         f"unused one is {self.batches} (a reused or skipped chain element)")
        try:
            seed = bytes.fromhex(entry["seed"])
        except (KeyError, ValueError):
            self.problem(f"{name}: no seed published for its dice")
            return
        if self.last_seed is None or not dice.verify_link(self.last_seed, seed):
            self.problem(f"{name}: its seed is not the next element of the seed chain "
                         "(SHA-256 of it must be the seed before it, or the anchor)")
        self.last_seed = seed
        key = dice.batch_key(seed, entry.get("salts", {}))
        for d in entry.get("dice", []):
            if dice.die(key, d["label"], d["sides"]) != d["value"]:
                self.problem(f"{name}: die {d['label']} = {d['value']} is not what the seed and "
                             "salts give")
            if d["label"] in self.labels:
                self.problem(f"{name}: die label {d['label']} was used already at step "
                             f"{self.labels[d['label']]}")
            self.labels[d["label"]] = entry["seq"]

    def _salts(self, name: str, entry: dict[str, Any], before: dict[str, Any]) -> None:
        """The batch mixes the salts sent with the orders of the phase (revealed with them
        when they were sealed), or for a phase that takes no orders those of the last phase
        that did; each salt opens the commitment (salt_next) of its faction's orders before."""
        from pbem.randomness import salt_commitment

        revealed = entry.get("revealed") or {}
        sent: dict[str, str] = {}
        for faction, record in before.get("pending", {}).items():
            if "sealed" in record:
                salt = ((revealed.get(faction) or {}).get("value") or {}).get("salt")
            else:
                salt = record.get("salt")
            if salt:
                sent[faction] = salt
        commits = before.get("salt_commits", {})
        for faction, salt in sorted(sent.items()):
            if commits.get(faction) and salt_commitment(salt) != commits[faction]:
                self.problem(f"{name}: the salt of {faction}'s orders does not open the salt_next "
                             "its orders before committed to")
        want = sent or before.get("last_salts", {})
        have = entry.get("salts", {})
        if have != want:
            differ = sorted(f for f in set(have) | set(want) if have.get(f) != want.get(f))
            what = "the set-up" if entry.get("hidden_draws") else f"batch {entry.get('batch')}"
            self.problem(f"{name}: {what} mixes salts other than those sent "
                         f"with the orders (they differ for {', '.join(differ)}), so its dice "
                         "are not the players' dice")

    def _draw_keys(self, name: str, entry: dict[str, Any], before: dict[str, Any],
                   owners: set[str], key: bytes | None) -> None:
        """A resolution seals the own draw key of each faction the rules first drew for with
        it (docs/fairness.md, "Draws you can check at once"), and no other; a final audit
        checks each opening against the hidden secret (a player's own audit opens his before
        the replay, `_mine`)."""
        given = entry.get("draw_keys") or {}
        want = owners - set(before.get("draw_keys", []))
        if set(given) != want:
            self.problem(f"{name}: seals the own draw keys of {', '.join(sorted(given)) or 'nobody'}, "
                         f"but the rules drew for {', '.join(sorted(want)) or 'nobody'} with "
                         "theirs for the first time here")
        for owner, node in sorted(given.items()):
            if not sealed_.is_sealed(node) or (node.get("kind"), node.get("id"),
                                               node.get("owner")) != ("draw-key", owner, owner):
                self.problem(f"{name}: the own draw key of {owner} is not sealed as draw-key "
                             f"{owner} of {owner}")
                continue
            value = self.everything.get(node["commitment"])
            if key is not None and value is not None and value != dice_.owner_key(key, owner).hex():
                self.problem(f"{name}: the own draw key of {owner} is not the one the hidden "
                             "secret gives")

    def _openings(self, name: str, entry: dict[str, Any], secrets: Any) -> None:
        for opening in entry.get("opened", []):
            commitment = opening["node"]["commitment"]
            self.checked["commitments"] += 1
            if commitment not in secrets.used:
                self.problem(f"{name}: publishes the opening of {opening['node']['kind']} "
                             f"{opening['node']['id']}, which the rules did not open")
            self.opened[commitment] = opening["value"]

    def _files(self, name: str, entry: dict[str, Any], before: dict[str, Any], sha: str) -> None:
        """Orders files kept sealed for their secret part, published at the end of a turn."""
        from pbem.orders import body_of, secret_of

        final = entry["type"] == "unseal"
        waiting = {item["file"]: item for item in sealed_files(before)
                   if final or not item.get("keep")}
        kept = {item["file"] for item in sealed_files(before) if item.get("keep")}
        for out in entry.get("files_revealed", []):
            item = waiting.pop(out["file"], None)
            if item is None:
                self.problem(f"{name}: reveals {out['file']}, which "
                             + ("is kept sealed until unseal (face-down units)" if out["file"] in kept
                                else "was not sealed"))
                continue
            if not self._opens(item["node"], out):
                self.problem(f"{name}: the revealed {out['file']} does not open its commitment")
                continue
            value = out["value"]
            self._keep_revealed(name, out["file"], sha, value)
            doc = self._read(name, out["file"], value["file"])
            if doc is None:
                continue
            if body_of(doc.data, item["faction"]) != item["body"]:
                self.problem(f"{name}: {out['file']} is not the orders that were recorded")
            if (item["secret"] in self.opened
                    and secret_of(doc.data, item["faction"]) != self.opened[item["secret"]]):
                self.problem(f"{name}: the secret part of {out['file']} is not the one opened")
            if value.get("signature"):
                self._signature(name, item["faction"], value["file"].encode("utf-8"),
                                value["signature"])
        if entry.get("files_revealed") and waiting:
            self.problem(f"{name}: leaves {', '.join(sorted(waiting))} sealed at the end of the turn")

    def _orders(self, name: str, entry: dict[str, Any], before: dict[str, Any], sha: str) -> None:
        """Each faction's record (one, or several from one file of one player)."""
        from pbem.orders import body_of

        phase = self.game.phase(self.data, before["game"])
        if (entry.get("turn"), entry.get("phase")) != (phase.turn, phase.name):
            self.problem(f"{name}: records orders for turn {entry.get('turn')} "
                         f"{entry.get('phase')}, but the game is at turn {phase.turn} {phase.name}")
        for faction, record in recorded(entry).items():
            if faction not in phase.awaiting:
                self.problem(f"{name}: records orders of {faction}, which the phase does not "
                             f"await (it awaits {', '.join(phase.awaiting) or 'nobody'})")
            elif sealed_phase(phase) and "sealed" not in record:
                # several factions act at once: orders in the open would show one player's
                # to the others before they send theirs
                self.problem(f"{name}: the orders of {faction} are recorded in the open in a "
                             "phase where several factions act at once (they stay sealed until "
                             "it resolves)")
            if not record.get("sig_digest"):
                self._unsigned(name, faction, entry)
            for key in ("sealed", "secret", "file_sealed"):
                if key in record:
                    node = record[key]
                    self.sealed[node["commitment"]] = f"{node['kind']} {node['id']} of {node['owner']}"
            if "sealed" in record:
                continue  # checked when it is revealed
            body = dict(record["body"])
            if "secret" in record:
                body["secret"] = record["secret"]  # the sealed part is checked when it is opened
            self._legal(name, faction, body, before)
            if "file_sealed" in record:
                if bool(record.get("keep_sealed")) != phase.keep_secret:
                    self.problem(f"{name}: the file of {faction} is kept sealed "
                                 + ("until unseal, but its phase publishes it at the end of the turn"
                                    if record.get("keep_sealed") else
                                    "only to the end of the turn, but its phase keeps it until unseal"))
                continue  # the file holds the secret: checked when it is revealed
            # (a file for several factions is for a phase where they act at once: sealed)
            raw = self._keep(name, record["file"], sha)
            if raw is None:
                continue
            doc = self._read(name, record["file"], raw)
            if doc is None:
                continue
            if normal(body_of(doc.data, faction)) != record["body"]:
                self.problem(f"{name}: {record['file']} is not the orders of {faction} that "
                             "were recorded")
            self._header(name, faction, record["file"], doc.data, entry)
            self._head(name, record, doc.data, before)
            sig_path = f"{record['file']}.sig"
            if not record.get("sig_digest") and self._at(sha, sig_path) is None:
                continue  # unsigned (allowed for this faction when it was recorded)
            signature = self._keep(name, sig_path, sha)
            if signature is None:
                continue
            text = signature.decode("ascii", "replace")
            if record.get("sig_digest") != hashlib.sha256(text.encode("utf-8")).hexdigest():
                self.problem(f"{name}: {sig_path} is not the signature that was recorded")
            self._signature(name, faction, raw, text)

    def _opens(self, node: dict[str, Any], opening: dict[str, Any]) -> bool:
        """Count the commitment checked, note the value published for it, and say whether
        the opening (its nonce and value) opens the node's commitment."""
        self.checked["commitments"] += 1
        self.opened[node["commitment"]] = opening["value"]
        return sealed_.check_opening(self.campaign.id, node, opening["nonce"], opening["value"])

    def _keep_revealed(self, name: str, file: str, sha: str, value: dict[str, Any]) -> None:
        """A revealed orders file (and its signature, if it had one) is published as it
        was received."""
        self._keep(name, file, sha, value["file"].encode("utf-8"))
        if value.get("signature"):
            self._keep(name, f"{file}.sig", sha, value["signature"].encode("utf-8"))

    def _read(self, name: str, path: str, text: str | bytes) -> yamlio.Doc | None:
        """An orders file as recorded or revealed, parsed as untrusted input; one that does
        not parse is a problem of the step (the referee recorded it as orders), not the end
        of the audit."""
        try:
            return yamlio.load_untrusted(text, path)
        except PbemError as exc:
            self.problem(f"{name}: {path} cannot be read: {exc.message}")
            return None

    def _revealed(self, name: str, entry: dict[str, Any], before: dict[str, Any],
                  sha: str) -> dict[str, Any]:
        bodies: dict[str, Any] = {}
        revealed = entry.get("revealed", {})
        for faction, record in before["pending"].items():
            if "sealed" not in record:
                bodies[faction] = dict(record["body"])
                if "secret" in record:
                    bodies[faction]["secret"] = record["secret"]
                continue
            opening = revealed.get(faction)
            if opening is None:
                self.problem(f"{name}: the sealed orders of {faction} were resolved but not revealed")
                continue
            if not self._opens(record["sealed"], opening):
                self.problem(f"{name}: the revealed orders of {faction} do not open their commitment")
            value = opening["value"]
            self._legal(name, faction, value["body"], before)
            # the file as received is published with the resolution (once for one file of
            # several factions)
            if record["file"] not in self.kept:
                self._keep_revealed(name, record["file"], sha, value)
            if value.get("signature"):
                self._signature(name, faction, value["file"].encode("utf-8"), value["signature"])
                if record.get("sig_digest") != hashlib.sha256(
                        value["signature"].encode("utf-8")).hexdigest():
                    self.problem(f"{name}: the revealed signature of {faction}'s orders is not "
                                 "the one recorded with them")
                from pbem.orders import body_of

                doc = self._read(name, record["file"], value["file"])
                if doc is not None:
                    if body_of(doc.data, faction) != value["body"]:
                        self.problem(f"{name}: the revealed orders of {faction} are not the "
                                     "signed file")
                    self._header(name, faction, record["file"], doc.data, entry)
                    self._head(name, record, doc.data, before)
            bodies[faction] = dict(value["body"])
            if value.get("secret") is not None:
                bodies[faction]["secret"] = value["secret"]
        return bodies

    def _unsigned(self, name: str, faction: str, entry: dict[str, Any]) -> None:
        """Orders recorded without a signature: only for a faction whose seat allows it
        (hot-seat, or no key) or entered by the referee on a player's behalf, with the
        reason in the entry; otherwise they may be the referee's own invention."""
        if entry.get("on_behalf"):
            return
        seats = self._seats_of(self.folder.state)
        seat = seats.get(faction, {})
        if seat.get("ssh") and not seat.get("unsigned_ok", False):
            self.problem(f"{name}: the orders of {faction} were recorded without a signature, "
                         "but its seat requires one (a key, not hot-seat) and the referee did "
                         "not enter them on the player's behalf")

    def _header(self, name: str, faction: str, file: str, data: Any, entry: dict[str, Any]) -> None:
        """A file's own header names this campaign, the step's turn and phase and the
        faction: a signed file of another phase or game cannot stand in for this one."""
        if not isinstance(data, dict):
            return
        named = data.get("faction")
        factions = named if isinstance(named, list) else [named]
        wrong = [k for k, want in (("campaign", self.campaign.id), ("turn", entry["turn"]),
                                   ("phase", entry["phase"])) if data.get(k) != want]
        if faction not in factions:
            wrong.append("faction")
        if wrong:
            self.problem(f"{name}: {file} is headed for another {', '.join(wrong)} than the "
                         f"step that records it (turn {entry['turn']}, {entry['phase']}, {faction})")

    def _head(self, name: str, record: dict[str, Any], data: Any, before: dict[str, Any]) -> None:
        """A signed file names the log head its player saw in its phase (`head:`), as
        `apply` checked: one of the phase's heads, at the place the record says
        (`head_index`). The players' signatures over their heads pin the history: one
        rewritten under them, even with every entry signed again, leaves their heads out."""
        if not record.get("sig_digest") or not isinstance(data, dict):
            return  # unsigned orders name no head anything checked
        heads = list(before.get("heads") or [])
        head = data.get("head")
        if head not in heads:
            first = self.foreign_heads or (name, record["file"], 0)
            self.foreign_heads = (first[0], first[1], first[2] + 1)
        elif record.get("head_index") != heads.index(head):
            self.problem(f"{name}: records head_index {record.get('head_index')!r} for "
                         f"{record['file']}, whose head is number {heads.index(head)} of its "
                         "phase")

    def _legal(self, name: str, faction: str, body: dict[str, Any], before: dict[str, Any]) -> None:
        state = before["game"]
        if self.final and sees_sealed(self.game):
            # rules whose checks read sealed values (a face-down unit's type): after unseal,
            # the final audit checks them as the referee's apply did, every value open
            from pbem.crypto import sealed as sealed_

            state = sealed_.substitute(state, self._opened_value)
        found = self.game.validate(self.data, state, faction, body)
        if found:
            self.problem(f"{name}: the orders of {faction} are not legal: {found[0].message}")

    def _opened_value(self, node: dict[str, Any]) -> Any:
        """A sealed node's value as unseal published it (LookupError if it did not)."""
        if node.get("commitment") not in self.everything:
            raise LookupError(f"sealed {node.get('kind')} {node.get('id')} was never opened")
        return self.everything[node["commitment"]]

    def _signature(self, name: str, faction: str, raw: bytes, signature: str) -> None:
        from pbem.crypto import sshsig
        from pbem.errors import KeyFileError, SignatureError

        seats = self._seats_of(self.folder.state)
        key = seats.get(faction, {}).get("ssh")
        if key is None:
            self.problem(f"{name}: orders of {faction} are signed but campaign.yaml has no key for it")
            return
        try:
            sshsig.verify(key, raw, signature, SIGNATURE_NAMESPACE)
            self.checked["signatures"] += 1
        except (SignatureError, KeyFileError) as exc:
            self.problem(f"{name}: the signature of {faction}'s orders does not verify: {exc.message}")


def audit(root: Path, *, final: bool = False, witnesses: list[Path] | None = None,
          own: list[str] | None = None) -> dict[str, Any]:
    """Replay and check the whole history. `final`: after unseal, every hidden value too.
    `own`: a player's identities (`audit --key`): every draw that concerns him alone is
    recomputed at once with his own draw key, and checked against what his key opens."""
    auditor = _Audit(root, final, own)
    if final:
        _everything(auditor)
    if own is not None:
        _mine(auditor, own)
    report = auditor.run()
    if final:
        _final(root, report)
    hashes = auditor.hashes
    for text in _rewritten(auditor, hashes) + _witnessed(witnesses or [], auditor.campaign.id, hashes):
        report["problems"].append(text)
    report["ok"] = not report["problems"]
    if report["ok"] and hashes:  # this clone has now verified up to here
        _remember(auditor, max(hashes), hashes[max(hashes)])
    return report


VERIFIED = "pbem-verified.json"  # in the clone's .git: never committed, never pushed
PARSED = "pbem-parsed"  # in the clone's .git: the parsed entries and snapshots, by blob id


def _rewritten(auditor: _Audit, hashes: dict[int, str]) -> list[str]:
    """A history rewritten since this clone last verified it (a truncation force-pushed,
    say): the step it verified must still be there, the same. Each entry names the hash of
    the one before it, so one remembered step vouches for all before it."""
    path = Path(auditor.store.git_dir) / VERIFIED
    try:
        seen = json.loads(path.read_text(encoding="utf-8"))
        seq, head = int(seen["seq"]), str(seen["head"])
    except (OSError, ValueError, KeyError, TypeError):
        return []
    if seq not in hashes:
        return [f"the history was rewritten: step {seq} ({entry_name(seq)}), which this clone "
                f"verified on {seen.get('when', '?')}, is gone (the log ends at step "
                f"{max(hashes, default=0)})"]
    if hashes[seq] != head:
        return [f"the history was rewritten: step {seq} ({entry_name(seq)}) is not the one this "
                f"clone verified on {seen.get('when', '?')} (hash {head[:16]}, now "
                f"{hashes[seq][:16]})"]
    return []


def _remember(auditor: _Audit, seq: int, head: str) -> None:
    from datetime import UTC, datetime

    path = Path(auditor.store.git_dir) / VERIFIED
    when = datetime.now(UTC).strftime("%Y-%m-%dT%H:%M:%SZ")
    with contextlib.suppress(OSError):  # a read-only clone still audits; it only cannot remember
        yamlio.write_atomic(path, json.dumps({"seq": seq, "head": head, "when": when}) + "\n")


def _witnessed(paths: list[Path], campaign_id: str, hashes: dict[int, str]) -> list[str]:
    """Mails pbem sent (reports, reminders, answers) each carry the step and the log head they
    were made at (X-Pbem-Step, X-Pbem-Head): a player's mailbox is a witness of the history."""
    import mailbox
    from email import message_from_binary_file, policy
    from email.message import Message

    messages: list[tuple[str, Message]] = []
    for path in paths:
        if path.is_dir():
            box: Any = mailbox.Maildir(path, create=False)
            messages += [(f"{path}/{key}", msg) for key, msg in box.items()]
        elif path.suffix == ".eml":
            with path.open("rb") as handle:
                messages.append((str(path), message_from_binary_file(handle, policy=policy.default)))
        else:
            messages += [(f"{path}#{i + 1}", msg) for i, msg in enumerate(mailbox.mbox(path))]
    out = []
    for where, msg in messages:
        if msg.get("X-Pbem-Campaign") != campaign_id or not msg.get("X-Pbem-Head"):
            continue
        try:
            seq = int(str(msg.get("X-Pbem-Step", "")))
        except ValueError:
            continue
        head = str(msg["X-Pbem-Head"]).strip()
        subject = str(msg.get("Subject") or "").strip()
        mail = f"{where} ({subject})" if subject else where
        if seq not in hashes:
            out.append(f"{mail} was made at step {seq}, which the log no longer has: "
                       "the history was rewritten")
        elif hashes[seq] != head:
            out.append(f"{mail} was made at step {seq} with head {head[:16]}, but the "
                       f"log's step {seq} is {hashes[seq][:16]}: the history was rewritten")
    return out


def _everything(auditor: _Audit) -> None:
    """For a final audit: the hidden key and every opening the log publishes (along the way
    and at unseal), each checked against its commitment, so the replay can recompute what
    was hidden (a deck's order, each card dealt) and compare it with what was sealed."""
    from pbem import dice

    entries = list(auditor.campaign.entries())
    published = entries[0].get("randomness", {}) if entries else {}
    for entry in entries:
        if entry["type"] == "unseal" and entry.get("hidden"):
            hidden = bytes.fromhex(entry["hidden"])
            if dice.commit_secret(hidden) == published.get("hidden_commitment"):
                auditor.hidden_key = dice.hidden_key(hidden)
        for opening in entry.get("opened") or []:
            node = opening["node"]
            if sealed_.check_opening(auditor.campaign.id, node, opening["nonce"], opening["value"]):
                auditor.everything[node["commitment"]] = opening["value"]


def _mine(auditor: _Audit, identities: list[str]) -> None:
    """For a player's own audit: every sealed value of the log his key opens (and matches its
    commitment), and every opening the log publishes."""
    entries = list(auditor.campaign.entries())
    for entry in entries:
        for opening in entry.get("opened") or []:
            node = opening["node"]
            if sealed_.check_opening(auditor.campaign.id, node, opening["nonce"], opening["value"]):
                auditor.mine[node["commitment"]] = opening["value"]
    value_of = sealed_.opener(auditor.campaign.id, identities)
    for entry in entries:
        for node in sealed_.find_sealed({k: v for k, v in entry.items() if k != "opened"}):
            if node["commitment"] in auditor.mine:
                continue
            try:
                auditor.mine[node["commitment"]] = value_of(node)
            except LookupError:
                continue
            auditor.owners.add(str(node["owner"]))
    for entry in entries:  # his own draw key, from the step that first drew with it on
        for owner, node in (entry.get("draw_keys") or {}).items():
            value = auditor.mine.get(node.get("commitment", "")) if isinstance(node, dict) else None
            if isinstance(value, str) and re.fullmatch(r"[0-9a-f]{64}", value):
                auditor.owner_keys[str(owner)] = bytes.fromhex(value)


def _final(root: Path, report: dict[str, Any]) -> None:
    """After `pbem unseal`: the hidden secret opens its commitment and gives every hidden draw."""
    problems = report["problems"]
    entries = list(Campaign.open(root).entries())
    if not any(e["type"] == "unseal" for e in entries):
        problems.append("audit --final needs the campaign to be unsealed first (pbem unseal)")
    elif report.get("unopened"):  # unseal publishes every opening: nothing may stay closed
        problems.append("unsealed, yet still sealed: " + ", ".join(report["unopened"]))
    rolls = dice_states(entries)
    wrong = [r for r in rolls if r["state"] != "verified"]
    for r in wrong[:20]:
        problems.append(f"log/{r['seq']:06d}.yaml: die {r['label']} = {r['value']} is {r['state']}")
    report["checked"]["rolls_recomputed"] = len(rolls) - len(wrong)


def dice_states(entries: list[dict[str, Any]], campaign_id: str = "") -> list[dict[str, Any]]:
    """Recompute every recorded die from what the log publishes (docs/fairness.md)."""
    from pbem import dice, randomness

    published = entries[0].get("randomness", {}) if entries else {}
    hidden_hex = next((e["hidden"] for e in entries if e["type"] == "unseal"), None)
    hidden_key = None
    if hidden_hex is not None:
        hidden = bytes.fromhex(hidden_hex)
        if dice.commit_secret(hidden) == published.get("hidden_commitment"):
            hidden_key = dice.hidden_key(hidden)
    out = []
    for entry in entries:
        if not entry.get("dice"):
            continue
        key = randomness.dice_key(entry, hidden_key)
        salted = randomness.player_salted(campaign_id, entry, len(entries) + 2) if entry["type"] != "new" else []
        for d in entry["dice"]:
            if key is None:
                state = "hidden" if entry["type"] == "new" or entry.get("hidden_draws") else "WRONG"
            else:
                state = "verified" if dice.die(key, d["label"], d["sides"]) == d["value"] else "WRONG"
            out.append({"seq": entry["seq"], "turn": entry["turn"], "label": d["label"],
                        "sides": d["sides"], "value": d["value"], "state": state,
                        "batch": entry.get("batch"), "player_salts": salted})
    return out

