"""``spacemission bench --game NAME`` for every game of the protocol other than Space Mission
(whose figures keep their own loops in ``bench.py``), in one run: the fast engine's
agent-steps per second (random legal play over a batch, the acting seat's observation and
the mask every step, finished games restarted), the reference engine's on the same loop
one game at a time and their ratio, the VectorEnv and PettingZoo AEC loops, and each
bot's decisions per second (one ``act`` at a time and ``act_batch``) on positions from
random games. Everything reaches the game through ``get_game``."""
from __future__ import annotations

import random
import time

import numpy as np

from spacemission_env.games import GameConfig, get_game

from ._args import config_error


def check_sizes(args, ap, game, batch_parts=("engine", "env")) -> None:
    """A usage error (through ``ap``) for ``--batch`` or ``--agent-batch`` games, where their
    part is measured (``batch_parts`` for ``--batch``), whose states, observations and masks
    could not fit this machine's memory (before: a traceback from the engine, or batches
    silently cut to the positions played)."""
    from spacemission_env.checks import check_memory
    from spacemission_env.env_common import MIN_ENV_BYTES

    d = game.description
    per_game = MIN_ENV_BYTES + d.observation_size("info") + d.num_actions  # a lower bound: state + observation + mask
    for option, n, parts in (("--batch", args.batch, batch_parts), ("--agent-batch", args.agent_batch, ("agents",))):
        if any(p in args.only for p in parts):
            try:
                check_memory(f"{n:,} games need", n * per_game, f"use a smaller {option}",
                             " for their states, observations and masks")
            except ValueError as exc:
                ap.error(f"argument {option}: {exc}")


def _random_play(game, config: GameConfig, batch: int, seed: int):
    """One step of random play over a new batch of ``batch`` games, as a function returning
    (games running before it, games it finished); finished games are restarted."""
    eng = game.engine
    st = game.new_batch(batch, config, seeds=seed)
    mask = np.empty((batch, game.num_actions), dtype=bool)
    obs = np.empty((batch, eng.observation_size()), dtype=np.int8)
    rng = np.random.default_rng(seed)
    next_seed = seed + batch

    def one_step() -> tuple[int, int]:
        nonlocal next_seed
        eng.legal_action_mask(st, out=mask)
        eng.observe(st, out=obs)
        actions = eng.sample_actions(mask, rng)
        running = int((~st.terminated).sum())
        eng.step(st, actions)
        done = int(st.terminated.sum())
        if done:
            eng.reset_finished(st, np.arange(next_seed, next_seed + batch, dtype=np.uint64))
            next_seed += batch
        return running, done

    return one_step


def engine_speed(game, config: GameConfig, batch: int, seconds: float, seed: int = 0) -> dict:
    # Warm-up: two games played until one ends and restarts, so that every kernel the timed
    # loop calls (the scoring and the restart too) is compiled or loaded before it starts;
    # three steps left those to the timed loop, which on an empty numba cache timed their compile.
    warm = _random_play(game, config, 2, seed)
    while warm()[1] == 0:
        pass
    one_step = _random_play(game, config, batch, seed)
    steps = games = 0
    t0 = time.perf_counter()
    while time.perf_counter() - t0 < seconds:
        s, g = one_step()
        steps, games = steps + s, games + g
    el = time.perf_counter() - t0
    return {"batch": batch, "agent_steps_per_s": steps / el, "games_per_s": games / el, "seconds": el}


def reference_speed(game, config: GameConfig, seconds: float, seed: int = 0) -> dict:
    """The same loop's work (legal moves, observation, apply) on the reference engine."""
    rules, rnd = game.rules, random.Random(seed)
    s = game.new_reference_game(config, seed)
    steps = games = 0
    t0 = time.perf_counter()
    while time.perf_counter() - t0 < seconds:
        for _ in range(20):
            legal = rules.legal_actions(s)
            game.encoding.observe(s, rules.current_player(s))
            rules.apply(s, rnd.choice(legal))
            steps += 1
            if rules.is_over(s):
                games, seed = games + 1, seed + 1
                s = game.new_reference_game(config, seed)
    el = time.perf_counter() - t0
    return {"agent_steps_per_s": steps / el, "games_per_s": games / el, "seconds": el}


def vector_speed(game, config: GameConfig, num_envs: int, seconds: float, seed: int = 0) -> dict:
    """Self-play random moves through the VectorEnv (observation, mask, rewards each step)."""
    from spacemission_env.vector import VectorEnv

    rng = np.random.default_rng(seed)
    warm = VectorEnv(2, num_players=config.num_players, game=game.name, seed=seed)  # to a game's end, as above
    _, mask, _, _ = warm.reset()
    terminated = np.zeros(2, dtype=bool)
    while not terminated.any():
        _, mask, _, _, terminated, _, _ = warm.step(game.engine.sample_actions(mask, rng))
    env = VectorEnv(num_envs, num_players=config.num_players, game=game.name, seed=seed)
    obs, mask, _, _ = env.reset()
    steps, t0 = 0, time.perf_counter()
    while time.perf_counter() - t0 < seconds:
        _, mask, *_ = env.step(game.engine.sample_actions(mask, rng))
        steps += num_envs
    el = time.perf_counter() - t0
    return {"env": "VectorEnv", "num_envs": num_envs, "agent_steps_per_s": steps / el, "seconds": el}


def aec_speed(game, config: GameConfig, seconds: float, seed: int = 0) -> dict:
    """Random play through the wrapped PettingZoo AEC env, one game at a time."""
    from spacemission_env import env as make_env

    e = make_env(num_players=config.num_players, game=game.name)
    rng = np.random.default_rng(seed)
    e.reset(seed=seed)
    steps = games = 0
    warm = True
    t0 = time.perf_counter()
    while True:
        for _ in e.agent_iter():
            obs, _, terminated, truncated, _ = e.last()
            if terminated or truncated:
                e.step(None)
            else:
                legal = np.flatnonzero(obs["action_mask"])
                e.step(int(legal[int(rng.random() * legal.size)]))
            steps += 1
            if not warm and steps % 256 == 0 and time.perf_counter() - t0 >= seconds:
                break
        else:
            if warm:  # the first game, played to its end, compiled (or loaded) every kernel the loop calls
                warm, steps, t0 = False, 0, time.perf_counter()
            else:
                games += 1
            e.reset()
            continue
        break
    el = time.perf_counter() - t0
    return {"env": "pettingzoo AEC env()", "agent_steps_per_s": steps / el, "games_per_s": games / el, "seconds": el}


def decision_speed(game, config: GameConfig, spec: str, agent, batch: int, seconds: float, seed: int = 0) -> dict:
    """A bot's decisions per second (``agent``, made from ``spec`` and bound to ``config``):
    one ``act`` at a time and ``act_batch`` on ``batch`` rows (arena_speed.decision_speed,
    as for Space Mission), ``seconds`` in all."""
    from spacemission_agents.arena_speed import decision_speed as timed

    r = timed(agent, config.num_players, config.rules, batch, seconds / 2, n=512, seed=seed, game=game.name, bind=False)
    return {"spec": spec, **{k: r[k] for k in ("single_per_s", "batched_per_s", "single_per_cpu_s", "batched_per_cpu_s")}}


def given_specs(text: str) -> list[str]:
    """The specs of ``--agents``, every comma-separated entry kept: an empty one ("random,,",
    or "") is refused by made_agents as ``spacemission arena`` refuses it (it was skipped)."""
    return [s.strip() for s in text.split(",")]


def made_agents(specs: list, config: GameConfig, ap) -> list:
    """(spec, agent made and bound to ``config``) for every spec, each checked before any
    timing: a spec that cannot be made, or an agent that refuses the game (a PPO model of
    another player count, say), is a usage error naming --agents. An agent whose constructor
    calls sys.exit() or raises KeyboardInterrupt is one too, as in play, serve and the arena
    (``_bots.make_bot`` under ``bot_interrupts``: a real Ctrl-C still stops bench); before,
    bench ended with the agent's status and no word."""
    from ._bots import bind_bot, bot_interrupts, make_bot

    agents = []
    with bot_interrupts():  # a bot's KeyboardInterrupt as it is built is its failure, not Ctrl-C
        for spec in specs:
            try:
                agent = make_bot(spec, 0, config.game)
                bind_bot(agent, spec, config, get_game(config.game).observation_types,
                         allow_seer=True)  # timed, no person
            except ValueError as exc:
                ap.error(f"argument --agents: {exc}")
            agents.append((spec, agent))
    return agents


def run(args, ap) -> dict:
    """Every figure of ``args.only`` for ``args.game``; argument errors through ``ap``."""
    game = get_game(args.game)
    players = game.description.min_players if args.players is None else args.players
    try:
        config = GameConfig(players, args.rules, game=game.name)  # --rules is checked against the game before
    except ValueError as exc:
        config_error(ap, exc)
    if args.agents is not None:
        specs = given_specs(args.agents)
    else:  # the game's own bots that need no model file (random alone where it has none)
        from spacemission_agents.registry import model_free_agents

        specs = model_free_agents(game.name)
    agents = []
    if "agents" in args.only:
        if not specs:  # '--agents ,' named none: refused, as Space Mission's bench does (it timed none silently)
            ap.error("argument --agents: no agent to time")
        agents = made_agents(specs, config, ap)
    check_sizes(args, ap, game)
    out: dict = {"game": game.name, "players": players, "rules": config.rules}
    if "engine" in args.only:
        out["engine"] = engine_speed(game, config, args.batch, args.seconds)
        out["reference"] = reference_speed(game, config, args.seconds)
        out["engine"]["x_reference"] = out["engine"]["agent_steps_per_s"] / out["reference"]["agent_steps_per_s"]
    if "env" in args.only:
        out["vector"] = vector_speed(game, config, args.batch, args.seconds)
        out["env"] = aec_speed(game, config, args.seconds)
    if "agents" in args.only:
        out["agents"] = [decision_speed(game, config, spec, agent, args.agent_batch, args.seconds) for spec, agent in agents]
    return out


def print_tables(out: dict, args, console) -> None:
    from rich.table import Table

    title = (f"{get_game(out['game']).description.title}, {out['players']} players, rules {out['rules']}, "
             f"about {args.seconds:g} s per figure")
    if "engine" in out or "env" in out:
        t = Table(title=f"Random play: {title}")
        for col in ("what", "agent-steps/s", "games/s", "engine / this"):
            t.add_column(col, justify="left" if col == "what" else "right")
        fast = out.get("engine", {}).get("agent_steps_per_s")
        ratio = lambda r: f"{fast / r:,.0f}" if fast else ""
        if "engine" in out:
            e, r = out["engine"], out["reference"]
            t.add_row(f"fast engine, {e['batch']} games (observation + mask each step)", f"{e['agent_steps_per_s']:,.0f}",
                      f"{e['games_per_s']:,.1f}" if e["games_per_s"] else "- (none ended)", "1")
            t.add_row("reference engine (rules), 1 game", f"{r['agent_steps_per_s']:,.0f}", f"{r['games_per_s']:,.2f}",
                      ratio(r["agent_steps_per_s"]))
        if "env" in out:
            v, a = out["vector"], out["env"]
            t.add_row(f"VectorEnv, {v['num_envs']} games", f"{v['agent_steps_per_s']:,.0f}", "",
                      ratio(v["agent_steps_per_s"]))
            t.add_row(f"{a['env']}, 1 game", f"{a['agent_steps_per_s']:,.0f}", f"{a['games_per_s']:,.2f}",
                      ratio(a["agent_steps_per_s"]))
        console.print(t)
    if out.get("agents"):
        t = Table(title=f"Bot decisions per second: {title}, positions from random games")
        for col in ("agent", "act() /s", f"act_batch({args.agent_batch}) /s", "act() /CPU s", "act_batch /CPU s"):
            t.add_column(col, justify="left" if col == "agent" else "right")
        for r in out["agents"]:
            t.add_row(r["spec"], f"{r['single_per_s']:,.0f}", f"{r['batched_per_s']:,.0f}",
                      f"{r['single_per_cpu_s']:,.0f}", f"{r['batched_per_cpu_s']:,.0f}")
        console.print(t)
        console.print("Wall-clock figures depend on what else the machine runs; per-CPU-second figures are steadier.")
