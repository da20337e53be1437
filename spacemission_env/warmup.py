"""Compile the environments' numba kernels now, into numba's on-disk cache.

    python -m spacemission_env.warmup [--game spacemission|red_planet] [--quiet]

The kernels compile at their first call and are cached on disk (spacemission_env/jit.py),
so the first ``reset``/``step`` of a fresh installation takes seconds to tens of seconds
(docs/engine.md, "First call (compile)"). This module makes those first calls up front,
for every game (``games.GAMES``): through each interface (the self-play VectorEnv with
every observation type and dtype, PettingZoo's AEC env, the Gymnasium env against
random opponents), with batches of one game and of several (numba compiles a kernel
again for an argument of another type or memory layout, and a batch of one can give
one), playing games to their end so that scoring and the automatic reset compile too.
Afterwards a fresh process loads every kernel from the cache, whatever the layout of the
arrays a user passes: the engines and the bots convert actions, masks and observations of
another integer dtype, a slice, Fortran order or a read-only array to the one type the
kernels are compiled for (``engine_common.kernel_input``), which the warm-up's own calls
compile. ``tests/helpers/user_paths.py`` lists the calls checked to compile nothing after it
(docs/engine.md, "First call (compile)").
``make install`` runs ``spacemission warmup`` (spacemission_cli/warmup.py), which also
compiles the bots' kernels.

It does not hide the compile: it says what it compiles, and each step's CPU and wall
seconds and how many functions numba compiled in it (0: all loaded from the cache), and at
the end where the cache is (jit.cache_folders: beside the sources, NUMBA_CACHE_DIR, or the
user's cache folder when the installation is read-only).
Nothing here changes a kernel or its results; the cache entries are the ones a first
call would write. Safe to run again: with a warm cache it only loads.
"""
from __future__ import annotations

import argparse
import sys
import time
from contextlib import contextmanager

import numpy as np
from numba.core import event

from .checks import UsageParser
from .games import GAMES, get_game
from .jit import is_project_module

_LONG_GAME = 20_000  # steps at most to play one game to its end (random play)


class CompileLog(event.Listener):
    """numba's "numba:compile" events (fired on a cache miss only) of project functions:
    ``compiled``, one ``"module.function(argument types)"`` each, in order. ``with
    CompileLog() as log:`` listens for the block only (the tests' check that a path
    compiles nothing after the warm-up names what it compiled)."""

    def __init__(self):
        self.compiled: list[str] = []

    @property
    def count(self) -> int:
        return len(self.compiled)

    def on_start(self, ev: event.Event) -> None:
        func = getattr(ev.data.get("dispatcher"), "py_func", None)
        if func is not None and is_project_module(getattr(func, "__module__", "") or ""):
            args = ", ".join(str(a) for a in ev.data.get("args", ()))
            self.compiled.append(f"{func.__module__}.{func.__qualname__}({args})")

    def on_end(self, ev: event.Event) -> None:
        pass

    def __enter__(self) -> "CompileLog":
        event.register("numba:compile", self)
        return self

    def __exit__(self, *exc) -> None:
        event.unregister("numba:compile", self)


class Report:
    """The steps of a warm-up: (label, CPU s, wall s, functions compiled), printed as they end."""

    def __init__(self, stream=None):
        self.stream = stream
        self.rows: list[tuple[str, float, float, int]] = []

    @contextmanager
    def step(self, label: str):
        counter = CompileLog()
        c0, w0 = time.process_time(), time.perf_counter()
        if self.stream is not None:
            print(f"  {label} ...", end="", file=self.stream, flush=True)
        with counter:
            yield
        row = (label, time.process_time() - c0, time.perf_counter() - w0, counter.count)
        self.rows.append(row)
        if self.stream is not None:
            print(f" {row[1]:.1f} s CPU, {row[2]:.1f} s wall, {row[3]} compiled", file=self.stream, flush=True)

    @property
    def compiled(self) -> int:
        return sum(r[3] for r in self.rows)

    def summary(self) -> str:
        from .jit import cache_folders

        cpu, wall = sum(r[1] for r in self.rows), sum(r[2] for r in self.rows)
        return (f"warm-up: {len(self.rows)} steps, {self.compiled} functions compiled "
                f"({cpu:.1f} s CPU, {wall:.1f} s wall); numba cache: {', '.join(cache_folders()) or 'none'}")


def _random_actions(mask: np.ndarray, rng: np.random.Generator) -> np.ndarray:
    """A uniformly random legal id per row (plain numpy: no kernel of its own)."""
    u = rng.random(mask.shape) * mask
    return u.argmax(axis=1).astype(np.int64)


def _short_rounds(game) -> dict:
    """``max_rounds`` that ends a random game soon, where the game's length can be set
    (Red Planet's cannot: ten rounds)."""
    return {} if game.max_rounds_limit == game.default_max_rounds else {"max_rounds": 2}


def warm_vector(name: str, report: Report) -> None:
    """The batched engine through VectorEnv: every observation type and dtype, batches of
    1 and 4, reward schemes, final observations, until games end and restart."""
    from .vector import VectorEnv

    game = get_game(name)
    rng = np.random.default_rng(0)
    for batch in (1, 4):
        with report.step(f"{name}: VectorEnv({batch}), every observation type, games to their end"):
            for i, obs_type in enumerate(game.encoding.OBSERVATION_TYPES):
                v = VectorEnv(batch, observation_type=obs_type, observation_dtype=("int8", "float32")[i % 2],
                              reward=("win", "score")[i % 2], shaping=i == 0, final_observation=i == 0, seed=i,
                              game=name, **_short_rounds(game))
                _, mask, _, _ = v.reset()
                for _ in range(_LONG_GAME):
                    _, mask, _, _, terminated, _, _ = v.step(_random_actions(mask, rng))
                    if terminated.any():
                        break
                v.close()
            st = game.engine.init(batch, game.description.min_players, seeds=0)
            game.engine.sample_actions(game.engine.legal_action_mask(st), rng)
            game.engine.scores(st)


def warm_aec(name: str, report: Report) -> None:
    """PettingZoo's AEC env, one game to its end."""
    from .pettingzoo_env import env

    game = get_game(name)
    rng = np.random.default_rng(0)
    with report.step(f"{name}: PettingZoo env, one game"):
        e = env(game=name, **_short_rounds(game))
        e.reset(seed=0)
        for _ in e.agent_iter(_LONG_GAME):
            obs, _, terminated, truncated, _ = e.last()
            e.step(None if terminated or truncated else int(_random_actions(obs["action_mask"][None], rng)[0]))
        e.close()


def warm_gym(name: str, report: Report) -> None:
    """The Gymnasium env against random opponents, one game to its end."""
    from .gym_env import GameEnv
    from .policies import RandomPolicy

    game = get_game(name)
    rng = np.random.default_rng(0)
    with report.step(f"{name}: Gymnasium env, one game"):
        players = game.description.min_players
        e = GameEnv(players, opponents=[RandomPolicy(seed=s) for s in range(players - 1)], game=name,
                    **_short_rounds(game))
        _, info = e.reset(seed=0)
        for _ in range(_LONG_GAME):
            _, _, terminated, truncated, info = e.step(int(_random_actions(info["action_mask"][None], rng)[0]))
            if terminated or truncated:
                break
        e.close()


def warm_env(games=None, report: Report | None = None) -> Report:
    """Compile (or load) the kernels of every interface of ``games`` (names; all by default)."""
    report = report or Report()
    for name in games or list(GAMES):
        get_game(name)  # unknown name: ValueError
        warm_vector(name, report)
        warm_aec(name, report)
        warm_gym(name, report)
    return report


def parser(prog: str = "python -m spacemission_env.warmup") -> argparse.ArgumentParser:
    ap = UsageParser(prog=prog, description=__doc__.splitlines()[0])  # cuts echoed values, as every command
    ap.add_argument("--game", action="append", choices=sorted(GAMES),
                    help="only this game (repeat for several; default: every game)")
    ap.add_argument("--quiet", action="store_true", help="print only the summary line")
    return ap


def announce(stream=None, quiet: bool = False) -> None:
    """The warm-up's first line (none with ``quiet``: the summary is the only one); it
    replaces the first-use notice (compile_notice.py), which would otherwise appear in the
    middle of the first step's line."""
    from . import compile_notice

    compile_notice.NOTICE.shown = True
    if quiet:
        return
    print("compiling the numba kernels into numba's cache (each step: CPU s, wall s, functions compiled; "
          "0 = loaded from the cache)...", file=stream or sys.stderr, flush=True)


def jit_disabled(stream=None) -> bool:
    """True (and says so) under NUMBA_DISABLE_JIT: nothing compiles, nothing to warm."""
    from numba import config

    disabled = bool(config.DISABLE_JIT)  # type: ignore[attr-defined]  # numba's config sets its names at run time
    if disabled:
        print("NUMBA_DISABLE_JIT is set: no kernel is compiled, nothing to warm up", file=stream or sys.stderr)
    return disabled


def main(argv: list[str] | None = None) -> int:
    args = parser().parse_args(argv)
    if jit_disabled():
        return 0
    report = Report(None if args.quiet else sys.stderr)
    announce(quiet=args.quiet)
    warm_env(args.game, report)
    print(report.summary(), file=sys.stderr)
    return 0


if __name__ == "__main__":
    sys.exit(main())
