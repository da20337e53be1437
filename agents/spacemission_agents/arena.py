"""The arena: duplicate-format round robins between agents (docs/arena.md).

    from spacemission_agents.arena import run_arena
    result = run_arena(["random", "kind-random"], num_players=2, games=200, out="results/")
    print(result.pair("kind-random", "random").win_rate)

Schedule: every lineup (see :func:`lineups`) plays the same deals (game seeds
``seed * 2**32 + d``), each deal once per seating of the lineup (its P cyclic rotations,
or all distinct permutations), so seat and deal luck cancel. Games are cut into fixed
chunks in that canonical order; each chunk is played batched on the fast engine
(arena_play.py, by arena_workers.py) with every agent reseeded from (arena seed, chunk id, agent index),
so the results do not depend on the number of worker processes.
"""
from __future__ import annotations

import importlib.util
import itertools
import math
import multiprocessing as mp
import os
import pickle
import sys
import time
from pathlib import Path
from typing import Any

import numpy as np

from spacemission_env.checks import check_memory, cut_long_words, is_int, shown, shown_path
from spacemission_env.games import GAMES, get_game

from . import arena_play
from .arena_files import OUT_FILES, ArenaArgumentError, ArenaStopped, check_out, earlier_run_message
from .arena_play import observation_type_of
from .arena_result import ArenaResult
from .arena_stats import Games, agent_stats, fit_ratings, pair_stats
from .arena_workers import agent_interrupts, agent_seed, game_config_of, make_spec_agent, play_tasks, pool_size
from .registry import agent_display_name, available_agents, protocol_problem

__all__ = ["DEFAULT_CHUNK_SIZE", "SEATINGS", "ArenaArgumentError", "ArenaResult", "ArenaStopped", "auto_chunk_size", "lineups", "run_arena",
           "seatings"]

DEFAULT_CHUNK_SIZE = 128  # the largest automatic chunk: batches well; more games only delay progress
SEATINGS = ("rotations", "permutations")
DEAL_STRIDE = 2**32
# deal seeds are seed * 2**32 + deal (deal < 2**32): distinct for every arena seed, and below 2**64 as the
# engines take them, for every seed below 2**32 (it was 2**31, a margin for int64 seeds the engines no longer use)
SEED_LIMIT = DEAL_STRIDE
MAX_SCHEDULED_GAMES = 10**8  # the schedule is held in memory (about 60 bytes a game): refused before any agent is built
# a lower bound of one worker process's own memory: 9 MiB were measured for a forked worker of the
# smallest agents (random), more for others; a spawned one re-imports everything (100+ MiB)
WORKER_BYTES = 8 * 2**20


def lineups(num_agents: int, num_players: int) -> list[tuple[int, ...]]:
    """The agent lineups (sorted agent indices, one per seat before seating) of a round
    robin: every set of ``num_players`` distinct agents when there are at least that many
    agents; otherwise every multiset of that size holding each agent at least once
    (2 agents, 3 players: AAB and ABB), so every agent meets every other in every lineup."""
    if num_agents >= num_players:
        return list(itertools.combinations(range(num_agents), num_players))
    return [c for c in itertools.combinations_with_replacement(range(num_agents), num_players)
            if len(set(c)) == num_agents]


def seatings(lineup: tuple[int, ...], mode: str = "rotations") -> list[tuple[int, ...]]:
    """The seat orders a deal is played with: ``rotations`` shifts the lineup by 0..P-1
    seats (every agent plays every seat once per deal); ``permutations`` every distinct
    order (P! at most)."""
    P = len(lineup)
    if mode == "rotations":
        return [tuple(lineup[(s + r) % P] for s in range(P)) for r in range(P)]
    if mode == "permutations":
        return list(dict.fromkeys(tuple(lineup[i] for i in perm) for perm in itertools.permutations(range(P))))
    raise ValueError(f"unknown seatings {shown(mode)}; expected one of {SEATINGS}")


def _schedule(num_agents: int, num_players: int, games: int, seed: int, mode: str) -> tuple[dict, int, list]:
    """Canonical game list: lineup-major, then deal, then seating."""
    ups = lineups(num_agents, num_players)
    per_deal = [seatings(u, mode) for u in ups]
    sizes = {len(s) for s in per_deal}
    if len(sizes) != 1:  # permutations of lineups with repeats differ in count: repeat each lineup's
        # orders up to the least common multiple, so every order and every seat comes equally often
        # per deal (cycling up to the largest count put AAAB's B in seats 2 and 3 twice as often as in 0)
        n = math.lcm(*sizes)
        per_deal = [s * (n // len(s)) for s in per_deal]
    R = len(per_deal[0])
    deals = math.ceil(games / R)
    L = len(ups)
    lineup = np.repeat(np.arange(L), deals * R)
    deal = np.tile(np.repeat(np.arange(deals), R), L)
    seating = np.tile(np.arange(R), L * deals)
    seats = np.array([per_deal[u][r] for u, r in zip(lineup, seating)], dtype=np.int64).reshape(-1, num_players)
    seeds = (np.uint64(seed) * np.uint64(DEAL_STRIDE) + deal.astype(np.uint64)).astype(np.uint64)
    return dict(lineup=lineup, deal=deal, seating=seating, seats=seats, seeds=seeds), deals, ups


def _scheduled_games(num_agents: int, num_players: int, games: int, mode: str) -> tuple[int, int]:
    """(deals per lineup, games in all) that :func:`_schedule` would build, counted without building it."""
    if num_agents >= num_players:  # distinct agents in every lineup: P rotations, P! orders
        n_lineups, per_deal = math.comb(num_agents, num_players), (num_players if mode == "rotations"
                                                                   else math.factorial(num_players))
    else:  # a handful of lineups with repeats (at most 6 for 5 players): count them as _schedule pads them
        ups = lineups(num_agents, num_players)
        n_lineups, per_deal = len(ups), math.lcm(*(len(seatings(u, mode)) for u in ups))
    deals = -(-games // per_deal)  # in integers: games may be any size here (its check follows)
    return deals, n_lineups * deals * per_deal


def _check_args(agents, num_players, games, rules, max_rounds, seed, workers, out, chunk_size, seatings_mode,
                game="spacemission", record=True, progress=False, log=None, overwrite=False):
    def bad(argument: str, message: str):
        raise ArenaArgumentError(argument, message)

    if not isinstance(game, str) or game not in GAMES:  # a list: "unhashable type" before
        bad("game", f"unknown game {shown(game)}; expected one of {', '.join(sorted(GAMES))}")
    g = get_game(game)
    MIN_PLAYERS, MAX_PLAYERS = g.description.min_players, g.description.max_players
    if rules is None:
        rules = g.rule_sets[0]
    if max_rounds is None:
        max_rounds = g.default_max_rounds
    if num_players is None:
        num_players = MIN_PLAYERS

    if isinstance(agents, str):
        agents = agents.split(",")
    if not isinstance(agents, (list, tuple)) or len(agents) < 2:
        bad("agents", f"agents must list at least 2 agents (for {g.description.title}: "
                      f"{', '.join(available_agents(game))}, ppo:PATH or module:Class; or agent objects), "
                      f"got {shown(agents)}")
    if not is_int(num_players) or not MIN_PLAYERS <= num_players <= MAX_PLAYERS:
        bad("num_players", f"num_players must be an integer in {MIN_PLAYERS}..{MAX_PLAYERS}, got {shown(num_players)}")
    if rules not in g.rule_sets:
        bad("rules", f"unknown rules {shown(rules)} for {g.description.title}; expected one of {', '.join(g.rule_sets)}")
    lowest = g.default_max_rounds if g.fixed_length else 1
    if not is_int(max_rounds) or not lowest <= max_rounds <= g.max_rounds_limit:
        allowed = f"{lowest}" if g.fixed_length else f"an integer in 1..{g.max_rounds_limit}"
        bad("max_rounds", f"max_rounds must be {allowed} for {g.description.title}, got {shown(max_rounds)}")
    if not is_int(games) or games < 1:
        bad("games", f"games must be a positive integer (games per pair or lineup), got {shown(games)}")
    if seatings_mode in SEATINGS and is_int(num_players) and is_int(games) and games >= 1:
        deals, total = _scheduled_games(len(agents), int(num_players), int(games), seatings_mode)
        if deals >= DEAL_STRIDE or total > MAX_SCHEDULED_GAMES:
            bad("games", f"games={shown(games)} schedules {total:,} games in all ({len(agents)} agents, {num_players} "
                         f"players, {seatings_mode}); at most {MAX_SCHEDULED_GAMES:,} fit one arena: split it "
                         f"into runs with different seeds")
    if not is_int(seed) or not 0 <= seed < SEED_LIMIT:
        bad("seed", f"seed must be an integer in 0..{SEED_LIMIT - 1} (2**32 - 1: the deals' game seeds are seed * 2**32 "
                    f"+ deal, which the engines take below 2**64), got {shown(seed)}")
    if not is_int(workers) or workers < 1:
        bad("workers", f"workers must be a positive integer, got {shown(workers)}")
    if chunk_size is not None and (not is_int(chunk_size) or chunk_size < 1):
        bad("chunk_size", f"chunk_size must be None or a positive integer, got {shown(chunk_size)}")
    if seatings_mode not in SEATINGS:
        bad("seatings", f"unknown seatings {shown(seatings_mode)}; expected one of {', '.join(SEATINGS)}")
    if workers > 1:  # the pool starts one process per chunk, at most ``workers``: each needs memory of its own
        total = _scheduled_games(len(agents), int(num_players), int(games), seatings_mode)[1]
        chunks = -(-total // (auto_chunk_size(total) if chunk_size is None else int(chunk_size)))
        started = min(int(workers), chunks)
        try:
            check_memory(f"workers={workers:,} would start {started:,} worker processes (one per chunk of "
                         f"{total:,} games, at most workers), which need", started * WORKER_BYTES,
                         "use fewer workers", f" ({WORKER_BYTES // 2**20} MiB each at the least)")
        except ValueError as exc:
            bad("workers", str(exc))
    found = check_out(out) if out is not None else []
    for argument, value in (("record", record), ("progress", progress), ("overwrite", overwrite)):
        if not isinstance(value, (bool, np.bool_)):
            bad(argument, f"{argument} must be True or False, got {shown(value)}")
    if log is not None and not callable(log):
        bad("log", f"log must be None or a function of one message, got {shown(log)}")
    if overwrite and out is None:  # --overwrite without --out: the user meant to write results somewhere
        bad("overwrite", "overwrite=True replaces an earlier run's files in out, but no out is given (this run would "
                         "write nothing); give out, or leave overwrite False")
    if found and not overwrite:  # as the trainers refuse a run_dir that holds a run
        bad("out", earlier_run_message(out, found, "a run"))
    return list(agents), int(num_players), rules, int(max_rounds)


# observation types that show a seat more than its own view (the whole state): refused unless allow_seer
WHOLE_STATE_VIEWS = ("seer",)


def _build_agents(agents: list, config, workers: int, start_method: str, seed: int = 0, allow_seer: bool = False
                  ) -> tuple[list, list[str], list[str], list]:
    """(agent objects, names, specs, payloads for the workers); ArenaArgumentError before any
    game. Each agent's ``seed()`` is tried with the seed its first chunk gives it (a 63-bit
    integer): an agent that takes 0 but not that (numpy's legacy ``RandomState``) failed
    in the first chunk."""
    objs, names, specs, payloads = [], [], [], []
    for i, a in enumerate(agents):
        payload: tuple[str, Any] | None  # ("spec", spec), ("object", the agent) or ("pickle", its bytes)
        if isinstance(a, str):
            spec = a.strip()
            try:  # a constructor's SystemExit or KeyboardInterrupt too (it ended the command: status 3, or 130)
                obj = make_spec_agent(spec, config.game)
            except ValueError as exc:
                raise ArenaArgumentError("agents", str(exc)) from exc
            payload, name = ("spec", spec), spec
        else:
            obj, spec = a, f"<{type(a).__module__}.{type(a).__qualname__}>"
            problem = protocol_problem(obj)
            if problem:  # a class's act_batch would be unbound: every game a forfeit by an agent named 'type'
                raise ArenaArgumentError("agents", f"agent {i} ({shown(obj)}): {problem}")
            name, payload = agent_display_name(obj), None
        bind = getattr(obj, "bind", None)
        if callable(bind):  # before observation_type is read: bind may set it (policies.py)
            try:
                bind(config)
            except (ValueError, TypeError) as exc:
                raise ArenaArgumentError("agents", f"agent {shown(name)} rejects the configuration {config}: {cut_long_words(str(exc))}") from exc
            except ArenaStopped:  # the user's Ctrl-C or SIGTERM
                raise
            except arena_play.AGENT_FAILURES as exc:  # noqa: BLE001 - any other failure of bind is the agent's too
                raise ArenaArgumentError("agents", f"agent {shown(name)} failed to bind to the configuration {config}: "
                                                   f"{type(exc).__name__}: {cut_long_words(str(exc))}") from exc
        what = "before its first game"
        try:
            otype = observation_type_of(obj)
            seed_fn = getattr(obj, "seed", None)
            if callable(seed_fn):  # every chunk reseeds it (run_chunk): a failing seed() is found here, not mid-arena
                what = "in seed() (the arena seeds each agent with a 63-bit integer)"
                seed_fn(agent_seed(seed, 0, i))
        except ArenaStopped:
            raise
        except arena_play.AGENT_FAILURES as exc:  # noqa: BLE001 - any failure of the agent's own attributes is the agent's
            raise ArenaArgumentError("agents", f"agent {shown(name)} failed {what}: "
                                               f"{type(exc).__name__}: {cut_long_words(str(exc))}") from exc
        types = get_game(config.game).observation_types
        if otype not in types:
            raise ArenaArgumentError("agents", f"agent {shown(name)} asks for observation_type {shown(otype)}; "
                                               f"expected one of {', '.join(types)}")
        if otype in WHOLE_STATE_VIEWS and not allow_seer:
            raise ArenaArgumentError("agents", f"agent {shown(name)} asks for observation_type {shown(otype)}, the whole state "
                                               f"(every hand, pile and the deck order): a teacher's or a debugging view, "
                                               f"not a seat's, so its ratings would not be comparable; the arena gives "
                                               f"agents 'info' or 'recall' (allow_seer=True, --allow-seer, lets it play)")
        if workers > 1 and start_method == "fork":
            payload = ("object", obj)  # inherited by the workers: built and bound once, here
        elif payload is None and workers > 1:
            try:
                payload = ("pickle", pickle.dumps(obj))
            except Exception as exc:  # noqa: BLE001 - any pickling failure means the same thing
                raise ArenaArgumentError("agents", f"agent {shown(name)} cannot be sent to worker processes "
                                                   f"({type(exc).__name__}: {cut_long_words(str(exc))}); pass it by spec (module:Class) "
                                                   f"or use workers=1") from exc
        objs.append(obj)
        specs.append(spec)
        payloads.append(payload)
        base, k = name, 2
        while name in names:
            name, k = f"{base}#{k}", k + 1
        names.append(name)
    return objs, names, specs, payloads


def auto_chunk_size(num_games: int) -> int:
    """The default chunk size: about 16 chunks (to spread over workers and show progress),
    16..128 games each (to batch well). It depends on the number of games only."""
    return int(min(DEFAULT_CHUNK_SIZE, max(16, math.ceil(num_games / 16))))


def _start_method(method: str | None) -> str:
    methods = mp.get_all_start_methods()
    if method is None:
        return "fork" if "fork" in methods else "spawn"
    if method not in methods:
        raise ArenaArgumentError("start_method", f"unknown start_method {shown(method)}; expected one of {methods}")
    return method


def _summarise(parts: list, sched: dict, names: list, specs: list, config: tuple, ups: list, deals: int,
               settings: dict) -> ArenaResult:
    cat = {k: np.concatenate([p[k] for p in parts]) for k in
           ("start_player", "scores", "tiebreak", "round_limit", "rounds", "num_actions", "forfeit_seat")}
    table = Games(seeds=sched["seeds"], lineup=sched["lineup"], deal=sched["deal"], seating=sched["seating"],
                  seats=sched["seats"], score_names=get_game(config[3]).score_names, **cat)
    stats = agent_stats(table, names, specs)
    for st, (mu, sigma, ordinal) in zip(stats, fit_ratings(table, len(names))):
        st.mu, st.sigma, st.ordinal = mu, sigma, ordinal
    decisions = np.sum([p["decisions"] for p in parts], axis=0)
    seconds = np.sum([p["seconds"] for p in parts], axis=0)
    speed = {n: {"decisions": int(d), "seconds": float(s), "decisions_per_s": float(d / s) if s > 0 else float("nan")}
             for n, d, s in zip(names, decisions, seconds)}
    G = len(table)
    config_out = {"game": config[3], "agents": names, "specs": specs, "num_players": config[0], "rules": config[1],
                  "max_rounds": config[2],
                  "seed": settings["seed"], "games_requested": settings["games_requested"], "seatings": settings["seatings"],
                  "seatings_per_deal": G // (len(ups) * deals), "deals_per_lineup": deals, "games_per_lineup": G // len(ups),
                  "lineups": [[names[k] for k in u] for u in ups], "games": G, "chunk_size": settings["chunk_size"],
                  "seer_agents": settings.get("seer_agents", [])}
    return ArenaResult(config=config_out, agents=stats, pairs=pair_stats(table, names), games=table,
                       forfeits=[f for p in parts for f in p["forfeits"]], timing={"agents": speed})


def run_arena(agents, num_players: int | None = None, games: int = 1000, rules: str | None = None, max_rounds: int | None = None,
              seed: int = 0, workers: int = 1, out=None, record: bool = True, progress: bool = True,
              seatings: str = "rotations", chunk_size: int | None = None, log=None,
              start_method: str | None = None, ray: str | None = None, game: str = "spacemission",
              allow_seer: bool = False, overwrite: bool = False) -> ArenaResult:
    """Play a duplicate-format round robin and return its :class:`ArenaResult`.

    ``game``: the game (spacemission_env.games; Space Mission by default); ``num_players``,
    ``rules`` and ``max_rounds`` None take its defaults (the fewest players: 2 in Space
    Mission, 3 in Red Planet, as the command's ``--players``). ``agents``: specs (``"random"``, ``"search:budget=0.1"``, ``"mypkg:MyBot"``; see
    registry.py) and/or agent objects, at least 2. ``games``: games per lineup (a pair
    for two players), rounded up to whole deals (a multiple of the seatings per deal).
    ``workers``: processes (results identical for any count). ``out``: a directory for
    results.json, pairs.csv, agents.csv, arena.png and (``record``) games.jsonl; one that
    holds any of them already (an earlier run's) is refused unless ``overwrite``, which
    removes them before the first game.
    ``progress``: a progress bar on a terminal. ``log``: called with each forfeit message
    (default: printed to stderr). ``start_method``: how workers start ("fork" where the
    platform has it, else "spawn"; spawn re-imports a script's ``__main__``, so guard it).
    ``seatings``: "rotations" (P per deal) or "permutations" (all distinct seat orders).
    ``chunk_size``: games per chunk, part of what a seed reproduces (default
    :func:`auto_chunk_size` of the number of games).
    ``ray``: play the chunks as Ray tasks on the cluster at this address ("auto",
    HOST:PORT; "" for a local Ray) instead of ``workers`` processes, agents given by
    spec only (arena_ray.py); the results equal the local ones. ``allow_seer``: let an
    agent ask for the ``"seer"`` observation, the whole state (every hand, pile and the deck
    order): a teacher's or a debugging view, refused by default since its ratings would
    not be a seat's (results.json's config lists such agents). Every argument is
    checked, and every agent built and bound, before the first game: ArenaArgumentError
    (a ValueError; ``.argument`` names the parameter) on the first bad one.
    """
    agents, num_players, rules, max_rounds = _check_args(agents, num_players, games, rules, max_rounds, seed, workers, out,
                                            chunk_size, seatings, game, record, progress, log, overwrite)
    if not isinstance(allow_seer, (bool, np.bool_)):
        raise ArenaArgumentError("allow_seer", f"allow_seer must be True or False, got {shown(allow_seer)}")
    config = (int(num_players), rules, int(max_rounds), game)
    given_method, start_method = start_method, _start_method(start_method)
    if ray is not None and not isinstance(ray, str):
        raise ArenaArgumentError("ray", f"ray must be None or a cluster address string ('' for a local Ray), got {shown(ray)}")
    if ray is not None:  # its form now, before out is made; whether a cluster answers, when Ray is joined
        from .arena_ray import check_address

        try:
            check_address(ray)
        except ValueError as exc:
            raise ArenaArgumentError("ray", cut_long_words(str(exc))) from None
    if ray is not None and given_method is not None:  # Ray starts its own worker processes
        raise ArenaArgumentError("start_method", f"start_method={shown(given_method)} does not apply with ray (Ray "
                                                 "starts its own worker processes); leave it None")
    if ray is not None and workers != 1:  # Ray schedules the chunks; a local pool would sit idle
        raise ArenaArgumentError("workers", f"workers={shown(workers)} does not apply with ray (the chunks are Ray tasks, "
                                            "spread over the cluster's CPUs); leave workers at 1")
    if ray is not None and not all(isinstance(a, str) for a in agents):
        raise ArenaArgumentError("agents", "the Ray arena takes agents by spec only (rebuilt on the workers), "
                                           f"got {shown([a for a in agents if not isinstance(a, str)][:1])}")
    if ray is not None and importlib.util.find_spec("ray") is None:  # before: a bare ModuleNotFoundError in the
        # first chunk, after every agent was built and out made
        raise ArenaArgumentError("ray", "Ray is not installed; pip install -e '.[ray]' (or make install-ray)")
    with agent_interrupts():  # an agent's KeyboardInterrupt is its failure, not the user's Ctrl-C
        objs, names, specs, payloads = _build_agents(agents, game_config_of(*config), 1 if ray is not None else int(workers),
                                                     start_method, int(seed), bool(allow_seer))
        sched, deals, ups = _schedule(len(objs), num_players, int(games), int(seed), seatings)
        G = len(sched["seeds"])
        chunk_size = auto_chunk_size(G) if chunk_size is None else int(chunk_size)
        bounds = list(range(0, G, chunk_size)) + [G]
        tasks = [dict(chunk=c, seed=int(seed), games=np.arange(lo, hi), record=bool(record and out is not None),
                      **{k: sched[k][lo:hi] for k in ("seeds", "seats", "lineup", "deal", "seating")})
                 for c, (lo, hi) in enumerate(zip(bounds[:-1], bounds[1:]))]
        out_dir = Path(out) if out is not None else None
        if out_dir is not None:
            try:
                out_dir.mkdir(parents=True, exist_ok=True)
            except (OSError, ValueError) as exc:
                raise ArenaArgumentError("out", f"cannot create the out directory {shown_path(out_dir)}: "
                                                f"{cut_long_words(getattr(exc, 'strerror', None) or str(exc))}") from exc
            # overwrite: an earlier run's files would sit beside this run's as if they were its own (a
            # run that fails keeps the games it finished, and no results)
            for name in OUT_FILES:
                (out_dir / name).unlink(missing_ok=True)
        log = log if log is not None else (lambda msg: print(msg, file=sys.stderr))

        t0 = time.perf_counter()
        parts = play_tasks(tasks, objs, names, config, payloads, int(workers), start_method, progress, log,
                           out_dir / "games.jsonl" if (out_dir is not None and record) else None, ray)
        elapsed = time.perf_counter() - t0
        result = _summarise(parts, sched, names, specs, config, ups, deals,
                            dict(seed=int(seed), games_requested=int(games), seatings=seatings, chunk_size=int(chunk_size),
                                 seer_agents=[n for n, a in zip(names, objs) if observation_type_of(a) in WHOLE_STATE_VIEWS]))
        result.timing.update(elapsed_s=elapsed, games_per_s=len(sched["seeds"]) / elapsed if elapsed > 0 else float("nan"),
                             workers=pool_size(int(workers), len(tasks), ray) or 1, cpu_count=os.cpu_count())
        if out_dir is not None:
            result._write(out_dir)  # its files were removed above (overwrite) or not there
        return result
