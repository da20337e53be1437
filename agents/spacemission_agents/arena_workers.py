"""The arena's play (arena.py): its chunks played here, or by a pool of worker processes
(arena_ray.py plays them as Ray tasks with :func:`run_chunk`).

Each chunk is played batched on the fast engine (arena_play.py) with every agent reseeded
from (arena seed, chunk id, agent index), so the results do not depend on which process
played which chunk.
"""
from __future__ import annotations

import contextlib
import json
import multiprocessing as mp
import os
import pickle
import signal
import threading
import time

import numpy as np

from spacemission_env.checks import cut_long_words, shown
from spacemission_env.games import GameConfig, get_game

from . import arena_play
from .arena_files import ArenaStopped
from .arena_play import play_chunk
from .registry import make_agent


def game_config_of(num_players: int, rules: str, max_rounds: int, game: str = "spacemission") -> GameConfig:
    """What every agent's ``bind(config)`` receives."""
    return GameConfig(num_players, rules, max_rounds, game)


def agent_seed(seed: int, chunk: int, k: int) -> int:
    """The seed agent ``k`` gets before chunk ``chunk`` of a run seeded ``seed``: the same
    whichever worker plays the chunk, so results do not depend on the number of workers."""
    return int(np.random.SeedSequence([seed, chunk, k]).generate_state(1, np.uint64)[0] >> np.uint64(1))


# what an agent may raise where a KeyboardInterrupt is only ever an agent's (a worker's AGENT_FAILURES)
AGENT_INTERRUPTS = (Exception, SystemExit, KeyboardInterrupt)


def _stop_on_sigint(signum, frame):
    raise ArenaStopped


@contextlib.contextmanager
def agent_interrupts():
    """While run_arena builds its agents and plays in this process: a real Ctrl-C raises
    ArenaStopped (this handler in place of Python's default, which raised a plain
    KeyboardInterrupt), so a KeyboardInterrupt that an agent raises forfeits its game as in a
    worker, instead of stopping the arena as the user's Ctrl-C (status 130). Where SIGINT is
    ignored only an agent raises one. Where another handler is in place (a caller's own, or
    not the main thread) the two cannot be told apart: a KeyboardInterrupt stops the arena,
    as before."""
    if threading.current_thread() is not threading.main_thread():
        yield
        return
    handler = signal.getsignal(signal.SIGINT)
    if handler is not signal.default_int_handler and handler != signal.SIG_IGN:
        yield
        return
    failures = arena_play.AGENT_FAILURES
    if handler is signal.default_int_handler:
        signal.signal(signal.SIGINT, _stop_on_sigint)
    arena_play.AGENT_FAILURES = AGENT_INTERRUPTS
    try:
        yield
    finally:
        arena_play.AGENT_FAILURES = failures
        if handler is signal.default_int_handler:
            signal.signal(signal.SIGINT, handler)


def make_spec_agent(spec: str, game: str, seed: int | None = None, failures: tuple | None = None):
    """``make_agent(spec, seed=seed, game=game)``, where a SystemExit or KeyboardInterrupt of the
    agent's constructor (or its module's, as it loads; ``failures``, by default the arena's
    ``AGENT_FAILURES`` of the moment) is a ValueError naming the spec, as make_agent's for an
    exception; a real Ctrl-C (ArenaStopped) passes. Before, either ended the command (status 3,
    or 130 as Ctrl-C) or a spawned worker. play and serve build their bots with it too."""
    try:
        return make_agent(spec, seed=seed, game=game)
    except (ValueError, ArenaStopped):
        raise
    # make_agent names an Exception already; these are the BaseExceptions an agent may raise
    except (arena_play.AGENT_FAILURES if failures is None else failures) as exc:  # noqa: BLE001
        raise ValueError(f"agent spec {shown(spec)} failed as it was built: {type(exc).__name__}"
                         f"{': ' if str(exc) else ''}{cut_long_words(str(exc))}") from exc


# --- worker side -------------------------------------------------------------------
_WORKER: dict = {}


def _init_worker(payloads: list, names: list[str], config: tuple, queue) -> None:
    # Ctrl-C reaches the terminal's whole process group: the parent stops the pool (play_tasks's finally),
    # each worker began to print a KeyboardInterrupt traceback of its own besides
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    signal.signal(signal.SIGTERM, signal.SIG_DFL)  # pool.terminate's: not a handler the parent set (the command's)
    arena_play.AGENT_FAILURES = AGENT_INTERRUPTS  # here only an agent raises it
    enable_faulthandler()  # an agent's crash: its traceback on the arena's stderr, before the parent names the chunk
    # an exception here would make the pool respawn workers forever: keep it for the first task
    try:
        agents = []
        game_config = game_config_of(*config)
        for kind, value in payloads:
            if kind == "spec":
                agent = make_spec_agent(value, game_config.game)
                if callable(getattr(agent, "bind", None)):
                    agent.bind(game_config)
            elif kind == "pickle":
                agent = pickle.loads(value)  # bound in the parent already
            else:
                agent = value  # inherited through fork, bound in the parent already
            agents.append(agent)
        _WORKER.update(agents=agents, names=names, config=config, queue=queue, error=None)
    except AGENT_INTERRUPTS as exc:  # noqa: BLE001 - a SystemExit of bind too: it ended the worker
        _WORKER.update(error=f"worker start failed: {type(exc).__name__}: {cut_long_words(str(exc))}")


def run_chunk(agents: list, names: list[str], config: tuple[int, str, int, str], task: dict,
              on_finished=None) -> dict:
    """One chunk of the schedule (``task``) played by ``agents``, each reseeded for it
    (:func:`agent_seed`): play_chunk's result with the chunk's number, its wall time and, when
    recorded, its games as JSON lines. A local worker, the parent (one worker) and a Ray task
    all play a chunk through this function."""
    for k, agent in enumerate(agents):
        fn = getattr(agent, "seed", None)
        if callable(fn):
            try:
                fn(agent_seed(task["seed"], task["chunk"], k))
            except ArenaStopped:
                raise
            except arena_play.AGENT_FAILURES as exc:  # noqa: BLE001 - named, so a worker's traceback says whose seed() it was
                raise RuntimeError(f"agent {shown(names[k])} failed in seed(): {type(exc).__name__}: {cut_long_words(str(exc))}") from exc
    t0 = time.perf_counter()
    out = play_chunk(agents, names, *config[:3], task["games"], task["seeds"], task["seats"], task["record"], on_finished,
                     game=config[3])
    out["chunk"], out["elapsed"] = task["chunk"], time.perf_counter() - t0
    if task["record"]:  # encoded here, in parallel, so the parent only writes
        out["lines"] = _record_lines(task, out, names, config)
    out["records"] = None
    return out


class _Reporter:
    """Sends (pid, chunk, games ended) to the parent: once as the chunk starts (so the parent
    knows which chunk a worker that ends was playing), then for the progress bar at most
    every half second. The queue is a SimpleQueue: a put is in the pipe when it returns,
    even if the process ends right after (a Queue's feeder thread would die with it)."""

    def __init__(self, queue, chunk: int):
        self.queue, self.chunk, self.pending, self.last = queue, chunk, 0, time.perf_counter()
        self.pid = os.getpid()
        queue.put((self.pid, chunk, 0))

    def __call__(self, n: int) -> None:
        self.pending += n
        if time.perf_counter() - self.last > 0.5:
            self.queue.put((self.pid, self.chunk, self.pending))
            self.pending, self.last = 0, time.perf_counter()


def _worker_chunk(task: dict) -> dict:
    if _WORKER.get("error"):
        raise RuntimeError(_WORKER["error"])
    try:
        return run_chunk(_WORKER["agents"], _WORKER["names"], _WORKER["config"], task,
                         _Reporter(_WORKER["queue"], task["chunk"]))
    except Exception:
        raise
    except BaseException as exc:  # the pool passes on Exceptions only: a SystemExit (an agent's seed() or
        # bind calling sys.exit) ended this worker, its chunk was lost and the arena waited for it forever
        raise RuntimeError(f"chunk {task['chunk']}: {type(exc).__name__}: {cut_long_words(str(exc))}") from None


def chunk_text(task: dict, names: list[str]) -> str:
    """The chunk ``task`` as an error names it: its games, deals and lineups."""
    games, deals = task["games"], task["deal"]
    ups = []
    for u in dict.fromkeys(task["lineup"].tolist()):
        row = int(np.flatnonzero(task["lineup"] == u)[0])
        ups.append(" vs ".join(names[k] for k in sorted(task["seats"][row].tolist())))
    shown_ups = ", ".join(ups[:3]) + (f" and {len(ups) - 3} more lineups" if len(ups) > 3 else "")
    return (f"chunk {task['chunk']} (games {int(games[0])}..{int(games[-1])}, deals {int(deals.min())}..{int(deals.max())}"
            f" of {cut_long_words(shown_ups)})")


def worker_ended_message(how: str, where: str, traceback_shown: bool = False) -> str:
    """The error of a chunk whose worker process ended: ``how`` it ended, ``where`` (a chunk_text);
    ``traceback_shown``: a crash whose Python traceback the worker printed (:func:`enable_faulthandler`).
    (It said workers=1 'shows which agent and game': there the agent ends the arena's own
    process, with no word for os._exit; docs/arena.md.)"""
    shown_where = "its Python traceback (faulthandler) is printed above, the agent's code in it; " if traceback_shown else ""
    return (f"a worker process ended ({how}) in the middle of {where}: an agent ended it (os._exit, a crash in native "
            f"code, the system killing it for memory); {shown_where}chunk_size=1 (--chunk-size 1) narrows it down to "
            f"one game and its lineup")


# the signals after which a worker's faulthandler has printed its traceback (enable_faulthandler)
FAULT_SIGNALS = tuple(getattr(signal, name) for name in ("SIGSEGV", "SIGFPE", "SIGABRT", "SIGBUS", "SIGILL")
                      if hasattr(signal, name))


def enable_faulthandler() -> bool:
    """Python's faulthandler on this process's stderr (file descriptor 2), so that a crash in
    native code (SIGSEGV, SIGFPE, SIGABRT, SIGBUS, SIGILL) prints the Python traceback of
    every thread, the agent's code in it, before the process ends (os._exit and SIGKILL end
    it with no word: nothing can run then). True where this call turned it on."""
    import faulthandler
    import sys

    if faulthandler.is_enabled() or sys.__stderr__ is None:
        return False
    try:
        faulthandler.enable(file=sys.__stderr__)
    except (ValueError, OSError, AttributeError, RuntimeError):  # a stderr without a file descriptor
        return False
    return True


def _ended_how(code: int) -> str:
    if code < 0:
        try:
            return f"killed by signal {signal.Signals(-code).name}"
        except ValueError:
            return f"killed by signal {-code}"
    return f"exit code {code}"


def _collect(results, queue, report, processes=(), tasks=(), names=()):
    """The chunk results in order, relaying the workers' progress while waiting. RuntimeError
    when one of the pool's worker ``processes`` has ended, naming the chunk it played (from
    its start message): the pool would start another, but that chunk was lost and the arena
    waited for it forever."""
    playing: dict = {}  # pid -> the chunk it started last
    while True:
        try:
            part = results.next(timeout=0.25)
        except mp.TimeoutError:
            part = None
            ended = [p for p in processes if p.exitcode is not None]
            if ended:
                _drain(queue, report, playing)  # its start message may have come since the last look
                chunk = playing.get(ended[0].pid)
                where = "a chunk" if chunk is None else chunk_text(tasks[chunk], names)
                code = ended[0].exitcode
                raise RuntimeError(worker_ended_message(_ended_how(code), where, -code in FAULT_SIGNALS)) from None
        except StopIteration:
            return
        _drain(queue, report, playing)
        if part is not None:
            yield part


def _drain(queue, report, playing: dict) -> None:
    while not queue.empty():
        pid, chunk, n = queue.get()
        playing[pid] = chunk
        if n:
            report(chunk, n)


def _warm_numba(num_players: int, rules: str, max_rounds: int, game: str = "spacemission") -> None:
    """Compile (or load from the cache) every kernel once in this process, so that forked
    workers inherit them and spawned ones find the numba cache on disk instead of each compiling."""
    g = get_game(game)
    engine = g.engine
    st = g.new_batch(2, GameConfig(num_players, rules, max_rounds, game), seeds=0)
    mask = engine.legal_action_mask(st)
    for t in g.observation_types:
        engine.observe(st, observation_type=t)
    engine.scores(st)
    engine.step(st, engine.sample_actions(mask, np.random.default_rng(0)))


def pool_size(workers: int, chunks: int, ray: str | None) -> int:
    """Worker processes the arena starts: one per chunk, at most ``workers``; none where the
    chunks are played here (one worker or one chunk) or as Ray tasks."""
    return min(workers, chunks) if ray is None and workers > 1 and chunks > 1 else 0


def play_tasks(tasks: list, objs: list, names: list, config: tuple, payloads: list, workers: int, start_method: str,
               progress: bool, log, jsonl_path, ray: str | None = None) -> list[dict]:
    """Every chunk's result, in chunk order (played here, or by a pool of workers)."""
    from .arena_output import progress_bar

    parts: list = []
    pool = queue = None
    processes = pool_size(workers, len(tasks), ray)
    if processes:  # started before the progress bar's thread: fork copies no running thread
        _warm_numba(*config)  # fork: the workers inherit the loaded kernels; spawn: they find the cache
        ctx = mp.get_context(start_method)
        queue = ctx.SimpleQueue()
        before = set(mp.active_children())
        pool = ctx.Pool(processes, initializer=_init_worker, initargs=(payloads, names, config, queue))
        started = set(mp.active_children()) - before  # the pool's workers (none ends before terminate, but for an agent)
    jsonl = open(jsonl_path, "w", encoding="utf-8") if jsonl_path is not None else None
    ended = np.zeros(len(tasks), dtype=np.int64)  # games ended per chunk, for the progress bar
    total = sum(len(t["games"]) for t in tasks)
    try:
        with progress_bar(total, enabled=progress) as show:
            def report(chunk: int, n: int) -> None:
                ended[chunk] = min(ended[chunk] + n, len(tasks[chunk]["games"]))
                show(int(ended.sum()))

            if ray is not None:  # Ray tasks (arena_ray.py), the agents rebuilt there from their specs
                from .arena_ray import ray_results

                results = ray_results(tasks, [p[1] for p in payloads], names, config, ray, report)
            elif pool is None:
                results = (run_chunk(objs, names, config, t, lambda n, c=t["chunk"]: report(c, n)) for t in tasks)
            else:
                results = _collect(pool.imap(_worker_chunk, tasks, chunksize=1), queue, report, started, tasks, names)
            for task, part in zip(tasks, results):
                for f in part["forfeits"]:
                    log(f["message"])
                lines = part.pop("lines", None)
                if jsonl is not None:
                    jsonl.writelines(lines)
                parts.append(part)
                ended[task["chunk"]] = len(task["games"])
                show(int(ended.sum()))
    finally:
        if pool is not None:
            _stop_pool(pool, before)
        if jsonl is not None:
            jsonl.close()
    return parts


# seconds the pool's terminate may take before its workers are killed and reaped here instead
POOL_STOP_TIMEOUT = 5.0


def _stop_pool(pool, others: set, timeout: float = POOL_STOP_TIMEOUT) -> None:
    """``pool.terminate()`` and ``join()``, given at most ``timeout`` seconds. CPython's
    terminate can wait for good (python/cpython#96995): it kills the workers before the pool's
    task thread has put its last sentinel on the result queue, and a worker killed while it
    held that queue's lock (sending its result: after a chunk failed, the other workers still
    send theirs) leaves the lock taken, so the task thread blocks on it and terminate, which
    joins that thread, with it (an arena whose worker failed hung about once in 13 runs on a
    slow machine). Past the timeout the pool's workers (this process's children that are not
    in ``others``, the children it had before the pool) are killed and reaped here, and the
    pool's threads (daemons) are left blocked."""
    def terminate() -> None:
        pool.terminate()
        pool.join()

    stopper = threading.Thread(target=terminate, name="arena-pool-stop", daemon=True)
    stopper.start()
    stopper.join(timeout)
    if stopper.is_alive():
        for p in set(mp.active_children()) - others:  # (active_children reaps those that ended)
            p.kill()
            p.join(timeout=5)


def _record_lines(task: dict, part: dict, names: list[str], config: tuple) -> list[str]:
    """One JSON line per game (format: docs/arena.md, "Recorded games")."""
    P = config[0]
    lines = []
    forfeits = {f["game"]: f for f in part["forfeits"]}
    for j, g in enumerate(task["games"].tolist()):
        sc = part["scores"][j].tolist()
        fs = int(part["forfeit_seat"][j])
        key = [sc[s][-1] * 64 + int(part["tiebreak"][j, s]) for s in range(P)]
        if fs >= 0:
            key[fs] = -1
        ranks = [1 + sum(k > key[s] for k in key) for s in range(P)]
        f = forfeits.get(g)
        rec = {
            "format": "spacemission-arena-game", "version": 1, "game": g, "seed": int(task["seeds"][j]),
            "config": {"game": config[3], "num_players": P, "rules": config[1], "max_rounds": config[2]},
            "lineup": int(task["lineup"][j]), "deal": int(task["deal"][j]), "seating": int(task["seating"][j]),
            "agents": [names[k] for k in task["seats"][j].tolist()], "start_player": int(part["start_player"][j]),
            "actions": part["records"][j],
            "scores": [dict(zip(get_game(config[3]).score_names, sc[s])) for s in range(P)],
            "ranks": ranks, "winners": [s for s in range(P) if ranks[s] == 1],
            "rounds": int(part["rounds"][j]), "round_limit": bool(part["round_limit"][j]),
            "forfeit": None if f is None else {k: f[k] for k in ("seat", "agent", "round", "action", "reason")},
        }
        lines.append(json.dumps(rec, separators=(",", ":")) + "\n")
    return lines
