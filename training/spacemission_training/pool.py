"""The opponent pool: bots and frozen snapshots of the learner, drawn per game.

    pool = OpponentPool({"heuristic": 0.3, "greedy": 0.2, "self": 0.4, "kind-random": 0.1}, num_players=2)
    venv = SpaceMissionVecEnv(N, opponents=pool.policies, opponent_sampler=pool.sample, ...)
    pool.add_snapshot(agent, step, venv.opponent_assignment)   # then venv.set_opponent_pool(pool.policies)
    pool.record(infos, dones)                # per-opponent results of the games that ended

Weights name *groups*: an agent spec (``heuristic``, ``greedy``, ``kind-random``,
``random``, ``ppo:PATH``, ``module:Class``; one pool entry each) or ``self`` (every
snapshot of the learner, sharing the group's weight). Each opponent seat of a new game
draws its entry independently with these probabilities (``sample``, called by the env
with its own generator, so a seeded run is reproducible). A group without entries
(``self`` before the first snapshot) gives its weight to the others pro rata.

Prioritized self-play (``priority > 0``; AlphaStar's PFSP): entry e's probability is
multiplied by ``(1 - w_e) ** priority``, ``w_e`` the learner's recent score against it
(win 1, tie 0.5, loss 0; an exponential average over its last ~``window`` games,
starting at 0.5), so opponents the learner still loses to are met more often; a share
``min_share`` of the mass stays on the plain weights, so every opponent keeps at least
``min_share`` times its plain probability.

Snapshots are :class:`~spacemission_agents.ppo.PPOAgent` copies (numpy, cheap); at most
``max_snapshots`` are kept: a new one then replaces the oldest in its slot (games in
progress against that slot finish against the new snapshot).
"""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

import numpy as np

from spacemission_agents.registry import make_agent
from spacemission_env.checks import shown
from spacemission_env.games import get_game

__all__ = ["OpponentPool", "parse_weights", "pairwise_scores"]

SELF = "self"


def _is_number(text: str) -> bool:
    try:
        float(text)
    except ValueError:
        return False
    return True


def _is_ppo(item: str) -> bool:
    return item.split(":", 1)[0].strip() == "ppo"


def _begins_no_item(part: str) -> bool:
    """Whether the text ``part`` (up to the next ',') cannot begin a NAME=WEIGHT item: its
    name (without a final ``=NUMBER``), before its first ':', holds '/', '\\' or '=', which
    no agent name, module or 'self' holds: only a path does (``b/final.npz=1``,
    ``bs=64/final.npz=1``)."""
    name, eq, value = part.rpartition("=")
    name = name if eq and _is_number(value) else part
    head = name.split(":", 1)[0]
    return any(c in head for c in "/\\=")


def _split_items(text: str) -> list[str]:
    """The NAME=WEIGHT items of ``text`` (blank ones left out): a ',' ends an item
    only right after ``=WEIGHT``, WEIGHT a number (what float() reads); any other ',' is
    part of the item, so a ``ppo:PATH`` may hold ','. Where that would join items of another
    group (only a path may hold ','), every ',' splits, as it always did, so the messages
    name the item at fault (``heuristic,greedy=1``: 'heuristic' is not NAME=WEIGHT).
    After a ``ppo:PATH`` item that ended so, text that cannot begin an item
    (:func:`_begins_no_item`) goes on with its path (``ppo:runs/lr=3e-4,b/final.npz=1`` is
    one item); such text after another item, with a ``ppo:PATH`` item before it, is refused
    (ValueError): its path cannot be told from several items."""
    parts = text.split(",")
    items: list[str] = []
    current = None
    blanks = ""  # the ','s of blank parts since the last item ended (a path that goes on holds them)
    joined = None  # (the ppo item that goes on in current, where its rest starts): undone if it never ends
    for part in parts:
        if current is None:
            if not part.strip():
                blanks += ","
                continue
            if items and _begins_no_item(part):
                if _is_ppo(items[-1]):
                    before = items.pop()
                    joined, current = (before, len(before) + 1 + len(blanks)), before + "," + blanks + part
                elif any(_is_ppo(item) for item in items):
                    raise ValueError(f"opponent weights: {shown(part)} cannot begin an item (only a path holds '/', "
                                     f"'\\' or '=' in its name), and the ppo:PATH it may belong to ended before "
                                     f"{shown(items[-1])}: a ',' right after =NUMBER ends an item, so a path holding "
                                     f"'=NUMBER,NAME=NUMBER,' reads as several items; rename or link that folder so "
                                     f"that no ',' follows '=NUMBER' in its path")
            if current is None:
                current = part
            blanks = ""
        else:
            current += "," + part
        name, eq, value = current.rpartition("=")
        if eq and _is_number(value):
            items.append(current)
            current, joined = None, None
    if current is not None:
        if joined is not None:  # no weight after the text that went on with the path: the items as they were
            items.append(joined[0])
            current = current[joined[1]:]
        items.append(current)
    if any("," in item and not _is_ppo(item) for item in items):
        items = [part for part in parts if part.strip()]
    return items


def parse_weights(text: str | dict) -> dict[str, float]:
    """``"heuristic=0.3,greedy=0.2,self=0.5"`` (or a dict) -> {group: weight}; ValueError
    on a malformed item or a negative or non-finite weight, when all weights are 0, or
    when their sum is past float's range (the pool divides by it).

    Items are separated by a ``,`` that ends one: right after ``=WEIGHT``, WEIGHT a number;
    each item splits at its last ``=``. So a ``ppo:PATH`` group may hold ``=`` and ``,``
    in its path (``ppo:runs/lr=3e-4/final.npz=1.0``, ``ppo:runs/a,b/final.npz=1.0,self=0.5``),
    also a ``,`` right after ``=NUMBER`` where what follows cannot begin an item (its name
    holds '/', '\\' or '=': ``ppo:runs/lr=3e-4,b/final.npz=1``); a path where what follows
    reads as an item (``ppo:runs/lr=3e-4,bs=64,c/final.npz=1``) is refused, naming the way
    out. No other group holds ``,``: there every ``,`` splits (the messages name the item at
    fault, as before). The values the messages name are cut (checks.shown)."""
    if isinstance(text, dict):
        items = list(text.items())
    else:
        items = []
        for part in _split_items(str(text)):
            name, eq, value = part.strip().rpartition("=")
            if not eq or not name.strip():
                raise ValueError(f"opponent weight {shown(part)} is not NAME=WEIGHT (e.g. heuristic=0.3,self=0.5)")
            items.append((name.strip(), value))
    out: dict[str, float] = {}
    for name, value in items:
        try:
            w = float(value)
        except OverflowError:  # an int past float's range
            w = float("inf")
        except (TypeError, ValueError):
            raise ValueError(f"opponent weight for {shown(name)} must be a number, got {shown(value)}") from None
        if not np.isfinite(w):
            raise ValueError(f"opponent weight for {shown(name)} must be a finite number >= 0, got {shown(value)}")
        if w < 0:
            raise ValueError(f"opponent weight for {shown(name)} must be >= 0, got {shown(value)}")
        if name in out:
            raise ValueError(f"opponent {shown(name)} weighted twice")
        out[name] = w
    if not out or sum(out.values()) <= 0:
        raise ValueError(f"opponent weights must name at least one opponent with a weight > 0, got {shown(text)}")
    if not np.isfinite(sum(out.values())):  # each finite, their sum not: the probabilities would be 0/nan
        raise ValueError(f"opponent weights sum past the largest float (they are relative: divide them all by the "
                         f"same number), got {shown(text)}")
    return out


def pairwise_scores(info: dict, num_players: int, game: str = "spacemission") -> list[float]:
    """The learner's result against each opponent seat k (k + 1 seats after it) of an
    ended game: 1 ahead, 0.5 level, 0 behind, in the game's ranking order (its
    description's ``rank_keys``: Space Mission total then stations, R-P8; Red Planet
    total alone, M-P4)."""
    seat = info["seat"]
    names = get_game(game).description.rank_keys
    key = [tuple(s[n] for n in names) for s in info["scores"]]
    out = []
    for k in range(num_players - 1):
        other = key[(seat + 1 + k) % num_players]
        out.append(1.0 if key[seat] > other else 0.5 if key[seat] == other else 0.0)
    return out


@dataclass
class Entry:
    name: str  # display name: the spec, or "self@STEP"
    group: str  # the weight group: the spec, or "self"
    policy: Any  # a policy (spacemission_env.policies): a bot, a PPOAgent, a snapshot
    score: float = 0.5  # the learner's recent result against it (exponential average)
    games: int = 0
    step: int = -1  # snapshot step (-1 for bots)


@dataclass
class OpponentPool:
    weights: dict[str, float]
    num_players: int = 2
    max_snapshots: int = 10
    priority: float = 0.0
    window: int = 500
    min_share: float = 0.2
    seed: int = 0
    game: str = "spacemission"
    entries: list[Entry] = field(default_factory=list)

    def __post_init__(self):
        self.weights = parse_weights(self.weights)
        for name, value in (("max_snapshots", self.max_snapshots), ("window", self.window)):
            if isinstance(value, bool) or not isinstance(value, int) or value < 1:
                raise ValueError(f"{name} must be a positive integer, got {value!r}")
        if not 0 <= self.priority < 100 or not 0 <= self.min_share <= 1:
            raise ValueError(f"priority must be in [0, 100) and min_share in [0, 1], got {self.priority!r}, "
                             f"{self.min_share!r}")
        seeds = np.random.SeedSequence([self.seed, 7]).spawn(len(self.weights))
        for (group, w), ss in zip(self.weights.items(), seeds):
            if group == SELF:
                continue
            agent = make_agent(group, seed=int(ss.generate_state(1, np.uint64)[0] >> np.uint64(1)), game=self.game)
            self.entries.append(Entry(name=group, group=group, policy=agent))
        self._snapshots_added = 0
        self._probs = self._compute_probs()

    # --- the pool -------------------------------------------------------------------------
    @property
    def policies(self) -> list:
        """The policy of each entry, in pool-index order (what the env's pool holds)."""
        return [e.policy for e in self.entries]

    @property
    def names(self) -> list[str]:
        return [e.name for e in self.entries]

    def add_snapshot(self, policy, step: int, in_progress=None) -> int:
        """Add a frozen copy of the learner (needs a ``self`` weight > 0); returns its index.
        Past ``max_snapshots`` it replaces the oldest; ``in_progress`` (the env's
        ``opponent_assignment``: pool indices of the games in progress, a row per env) names
        the games that started against the replaced one: their results are not counted for
        the new snapshot (they keep its index, so record() would credit it)."""
        if self.weights.get(SELF, 0) <= 0:
            raise ValueError("this pool has no 'self' weight: snapshots would never play")
        entry = Entry(name=f"self@{step}", group=SELF, policy=policy, step=int(step))
        snaps = [i for i, e in enumerate(self.entries) if e.group == SELF]
        self._snapshots_added += 1
        if len(snaps) >= self.max_snapshots:
            oldest = min(snaps, key=lambda i: self.entries[i].step)
            self.entries[oldest] = entry
            index = oldest
            if in_progress is not None:
                stale = self.__dict__.setdefault("_stale", {})  # (a pool pickled before this: none)
                for env in np.flatnonzero((np.asarray(in_progress) == index).any(axis=1)):
                    stale.setdefault(int(env), set()).add(index)
        else:
            self.entries.append(entry)
            index = len(self.entries) - 1
        self._probs = self._compute_probs()
        return index

    def _compute_probs(self) -> np.ndarray:
        groups = [e.group for e in self.entries]
        present = {g: w for g, w in self.weights.items() if g in groups and w > 0}
        if not present:
            raise ValueError(f"no opponent has a weight > 0 yet (weights {self.weights}, entries {self.names})")
        total = sum(present.values())
        base = np.array([present.get(e.group, 0.0) / total / groups.count(e.group) for e in self.entries])
        if self.priority > 0:
            f = base * np.array([(1.0 - e.score) ** self.priority for e in self.entries])
            if f.sum() > 0:
                return (1 - self.min_share) * f / f.sum() + self.min_share * base
        return base

    @property
    def probabilities(self) -> np.ndarray:
        return self._probs.copy()

    def sample(self, rng: np.random.Generator, n: int) -> np.ndarray:
        """int [n, num_players - 1]: pool indices for n new games (the env's opponent_sampler)."""
        return rng.choice(len(self.entries), size=(n, self.num_players - 1), p=self._probs).astype(np.int64)

    # --- results --------------------------------------------------------------------------
    def record(self, infos, dones) -> list[tuple[int, float]]:
        """Update each entry's score from the games that ended (``infos[i]["opponents"]``);
        returns the (pool index, learner's result) pairs it counted."""
        out = []
        alpha = 1.0 / self.window
        stale = self.__dict__.get("_stale", {})
        for i in np.flatnonzero(dones):
            info = infos[i]
            replaced = stale.pop(int(i), ())  # the game that ended there began before these entries were replaced
            if "opponents" not in info:
                continue
            for k, r in zip(info["opponents"], pairwise_scores(info, self.num_players, self.game)):
                if k in replaced:
                    continue
                e = self.entries[k]
                e.score += alpha * (r - e.score) if e.games >= 10 else (r - e.score) / (e.games + 1)
                e.games += 1
                out.append((k, r))
        if out and self.priority > 0:
            self._probs = self._compute_probs()
        return out

    def summary(self) -> list[dict]:
        return [dict(name=e.name, group=e.group, probability=float(p), score=e.score, games=e.games)
                for e, p in zip(self.entries, self._probs)]
