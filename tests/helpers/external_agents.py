"""Third-party agents written as a user would from docs/arena.md and docs/interfaces.md
("Opponent protocol"), importable by spec (``tests.helpers.external_agents:First``), for
both games: they read only the mask's width, so every one plays Space Mission (100 ids)
and Red Planet (243 ids). ``tests/agents/test_external_agents_sweep.py`` runs them through
the arena, ``spacemission play``, ``spacemission serve`` and the Gymnasium env."""
from __future__ import annotations

import json
import os
import sys
import threading

import numpy as np

from spacemission_env.policies import BasePolicy


def _first(masks) -> np.ndarray:
    return np.argmax(np.asarray(masks, dtype=bool), axis=1).astype(np.int64)


class First:
    """The minimal agent: only what the protocol requires (``act`` and ``act_batch``), the
    first legal id, no bind, no seed."""

    def act(self, observation, action_mask):
        return int(np.flatnonzero(action_mask)[0])

    def act_batch(self, observations, action_masks):
        return _first(action_masks)


class Last(BasePolicy):
    """``BasePolicy`` with only ``act``; keyword arguments from the spec (``:offset=1``)."""

    def __init__(self, offset: int = 0, label: str = "last"):
        if not isinstance(offset, int) or offset < 0:
            raise ValueError(f"offset must be a non-negative int, got {offset!r}")
        self.offset, self.label = offset, label

    def act(self, observation, action_mask):
        legal = np.flatnonzero(action_mask)
        return int(legal[max(0, len(legal) - 1 - self.offset)])


class FirstBatched(BasePolicy):
    """``BasePolicy`` with only ``act_batch``, returning numpy int32."""

    def act_batch(self, observations, action_masks):
        return _first(action_masks).astype(np.int32)


class ActOnly:
    """Not a BasePolicy, only ``act``: not the protocol."""

    def act(self, observation, action_mask):
        return int(np.flatnonzero(action_mask)[0])


class BatchOnly:
    """Not a BasePolicy, only ``act_batch``: not the protocol."""

    def act_batch(self, observations, action_masks):
        return _first(action_masks)


class Returns(BasePolicy):
    """Returns a bad answer of ``kind`` (in ``act`` and ``act_batch``) from decision ``after`` on."""

    def __init__(self, kind: str = "illegal", after: int = 0):
        self.kind, self.after, self.calls = kind, after, 0

    def seed(self, seed=None):
        """Its only state, the count of calls, starts again with every chunk of the arena (the
        docs: no state between chunks other than what seed() resets), so any number of workers
        gives the same games."""
        self.calls = 0

    def _bad(self, masks: np.ndarray):
        n, width = masks.shape
        good = _first(masks)
        illegal = np.argmin(masks, axis=1)  # a 0 of the mask (every mask here has one)
        return {
            "illegal": illegal, "out_of_range": np.full(n, width), "negative": np.full(n, -1),
            "nan": np.full(n, np.nan), "none": None, "float": good.astype(np.float64) + 0.5,
            "whole_float": good.astype(np.float64),
            "wrong_shape": np.stack([good, good], axis=1), "short": good[:-1] if n > 1 else np.zeros(0, np.int64),
            "string": [str(a) for a in good], "bool": np.ones(n, dtype=bool),
        }[self.kind]

    def act_batch(self, observations, action_masks):
        masks = np.asarray(action_masks, dtype=bool)
        self.calls += 1
        if self.calls <= self.after:
            return _first(masks)
        return self._bad(masks)

    def act(self, observation, action_mask):
        masks = np.asarray(action_mask, dtype=bool)[None]
        self.calls += 1
        if self.calls <= self.after:
            return int(_first(masks)[0])
        bad = self._bad(masks)
        if bad is None or isinstance(bad, list):
            return None if bad is None else bad[0]
        return bad[0] if bad.ndim == 1 and len(bad) else bad


class MaskWriter(BasePolicy):
    """Writes True over its whole mask, then returns an id that was illegal in it."""

    def act_batch(self, observations, action_masks):
        illegal = np.argmin(action_masks, axis=1)  # a 0 of the mask (every mask here has one)
        action_masks[:] = True
        return illegal


class ActAnswers(BasePolicy):
    """``BasePolicy`` with only ``act``, returning the first legal id as ``kind``: "float"
    (id + 0.5), "whole_float" (id as a float), "bool" (True) or "string" (the id as a str)."""

    def __init__(self, kind: str = "float"):
        self.kind = kind

    def act(self, observation, action_mask):
        a = int(np.flatnonzero(action_mask)[0])
        return {"float": a + 0.5, "whole_float": float(a), "bool": True, "string": str(a)}[self.kind]


class BatchFloats(BasePolicy):
    """``BasePolicy`` with only ``act_batch``, returning the first legal ids + 0.5 (floats)."""

    def act_batch(self, observations, action_masks):
        return _first(action_masks) + 0.5


class Raises(BasePolicy):
    """Raises ``LookupError("boom in WHERE")`` (not a ValueError, TypeError or RuntimeError, which
    callers tend to catch) in ``where``: act, bind, seed, seed_later (every seed() call after
    the first), observation_type or init."""

    def __init__(self, where: str = "act"):
        if where == "init":
            raise LookupError("boom in init")
        self.where, self.seeds = where, 0

    @property
    def observation_type(self):
        if self.where == "observation_type":
            raise LookupError("boom in observation_type")
        return None

    def bind(self, config):
        if self.where == "bind":
            raise LookupError("boom in bind")

    def seed(self, seed=None):
        self.seeds += 1
        if self.where == "seed" or (self.where == "seed_later" and self.seeds > 1):
            raise LookupError("boom in seed")

    def act_batch(self, observations, action_masks):
        if self.where == "act":
            raise LookupError("boom in act")
        return _first(action_masks)


class Unpicklable(First):
    """Holds a lock: cannot be pickled."""

    def __init__(self):
        self.lock = threading.Lock()


class Only(First):
    """Binds to one game and some player counts only (ValueError otherwise)."""

    def __init__(self, game: str = "spacemission", players=(2,)):
        self.game, self.players = game, (players,) if isinstance(players, int) else tuple(players)

    def bind(self, config):
        game = getattr(config, "game", "spacemission")
        if game != self.game or config.num_players not in self.players:
            raise ValueError(f"Only plays {self.game} with {self.players} players, not {game} with "
                             f"{config.num_players}")


class Logged(First):
    """Appends every hook call (``bind``, ``seed``, the first ``act_batch`` after each) to the
    JSON-lines file ``log``, with the process id: where and when the hooks really run."""

    def __init__(self, log: str = ""):
        self.log = log

    def _write(self, event: str, **extra) -> None:
        if self.log:
            with open(self.log, "a", encoding="utf-8") as f:
                f.write(json.dumps({"event": event, "pid": os.getpid(), **extra}) + "\n")

    def bind(self, config):
        self._write("bind", players=config.num_players, game=getattr(config, "game", None))

    def seed(self, seed=None):
        self._write("seed", seed=seed)

    def act_batch(self, observations, action_masks):
        self._write("act_batch", rows=len(action_masks), obs=list(np.shape(observations)))
        return _first(action_masks)


class RandomAgent(First):
    """A class named like a built-in (spacemission_agents.random_agents.RandomAgent)."""

    name = "random"


MINIMAL = First()  # an instance named by import path


class Seer(First):
    """Asks for the whole state (``observation_type = "seer"``), as a teacher's or a debugging
    bot may; ``at_bind``: only once bound to a game (as a PPO model of a seer policy sets it)."""

    def __init__(self, at_bind: bool = False):
        self.at_bind = at_bind
        if not at_bind:
            self.observation_type = "seer"

    def bind(self, config):
        self.observation_type = "seer"


class Ends(First):
    """Ends its process in act_batch: ``os._exit(code)``, or the signal ``-code``: SIGKILL (as
    the system's out-of-memory killer does) for ``code=-9``, SIGSEGV (a crash in native code)
    for ``code=-11``. Only for worker processes (a pool's, or a Ray task's) or a child process
    of the test: it would end the test's own process too."""

    def __init__(self, code: int = 7):
        self.code = int(code)

    def act_batch(self, observations, action_masks):
        if self.code < 0:
            os.kill(os.getpid(), -self.code)
        os._exit(self.code)


class Interrupts(First):
    """Raises KeyboardInterrupt itself (no Ctrl-C was pressed) in ``where``: init (its
    constructor), act or seed; ``where=exit`` calls sys.exit(3) in its constructor; or, for
    ``where=signal``, sends its own process a real SIGINT in act, as Ctrl-C on a terminal."""

    def __init__(self, where: str = "act"):
        if where == "init":
            raise KeyboardInterrupt
        if where == "exit":
            sys.exit(3)
        self.where = where

    def seed(self, seed=None):
        if self.where == "seed":
            raise KeyboardInterrupt

    def act_batch(self, observations, action_masks):
        if self.where == "act":
            raise KeyboardInterrupt
        if self.where == "signal":
            import signal

            os.kill(os.getpid(), signal.SIGINT)
        return _first(action_masks)


class InterruptsInWorkers(First):
    """Raises KeyboardInterrupt in its constructor in a worker process only (one with a parent
    process of multiprocessing's): the arena's own process builds it fine."""

    def __init__(self):
        import multiprocessing

        if multiprocessing.parent_process() is not None:
            raise KeyboardInterrupt


class Counts(First):
    """Appends its process id to the file ``path`` when it is built, and to ``path``.played
    when it first plays in a process (how often, and where, an arena builds its agents and
    which processes play)."""

    def __init__(self, path: str):
        self.path, self.played = path, None
        with open(path, "a", encoding="utf-8") as f:
            f.write(f"{os.getpid()}\n")

    def act_batch(self, observations, action_masks):
        if self.played != os.getpid():
            self.played = os.getpid()
            with open(f"{self.path}.played", "a", encoding="utf-8") as f:
                f.write(f"{self.played}\n")
        return _first(action_masks)


class FailsElsewhere(First):
    """Binds in the process ``pid`` only (the arena's own, which builds and binds it first); in
    any other (a Ray task's, which builds the agents from their specs) bind raises ``error``
    (ValueError or KeyError) with a message of one 5000-character word: as an agent whose
    module or model file a node lacks."""

    def __init__(self, pid: str, error: str = "ValueError"):
        self.pid, self.error = int(pid), {"ValueError": ValueError, "KeyError": KeyError}[error]

    def bind(self, config):
        if os.getpid() != self.pid:
            raise self.error("w" * 5000)
