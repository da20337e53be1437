"""NetSearchAgent's CPU time and simulations per decision, by stage of the game, and what a
wave of simulations costs by its size (2 players; docs/agents_netsearch.md, "Budget").

``decisions``: the shipped ``ppo`` agent plays both seats of ``--games`` games (seeds
``--seed``, ``--seed + 1``, ...); at every decision of seat 0 with more than one legal
action NetSearchAgent searches too, but the network's move is played, so every version
and budget meets the same positions. Printed per range of plies: decisions searched,
mean and largest CPU seconds of a decision (thread clock, measured around ``act_batch``),
simulations counted, and the share of decisions that dropped a wave the deadline overtook.

``waves``: CPU milliseconds of one wave of 1, 4, 16, 32 and 64 simulations (the median of
three) from the positions at plies 0, 30 and 60 of a self-play game, and the fit
``time = (size + fixed) x marginal`` from the 4- and 32-simulation waves: ``fixed`` is the
wave's fixed part in simulations (netsearch.WAVE_FIXED).

    .venv/bin/python benchmarks/netsearch_decision_time.py decisions --budget 0.1 --games 4 --seed 1000
    .venv/bin/python benchmarks/netsearch_decision_time.py decisions --budget 0.1 --params wave=32
    .venv/bin/python benchmarks/netsearch_decision_time.py waves --seed 5
"""
from __future__ import annotations

import time

import numpy as np

from spacemission_agents.netsearch import NetSearchAgent
from spacemission_agents.model_files import one_blas_thread
from spacemission_agents.ppo import PPOAgent
from spacemission_env.checks import UsageParser  # every command's parser: echoed values cut
from spacemission_env.games import GameConfig
from spacemission_env.space_mission import engine
from spacemission_env.space_mission.determinize import sample_worlds_from_observation

PLY_RANGES = ((0, 16), (16, 32), (32, 64), (64, 128), (128, 10**6))
WAVE_SIZES = (1, 4, 16, 32, 64)


def _policy() -> PPOAgent:
    policy = PPOAgent.load_shipped(2)
    policy.bind(GameConfig(2))
    return policy


def decision_rows(budget: float, games: int, seed: int, params: dict | None = None) -> np.ndarray:
    """One row per searched decision of seat 0: ply, CPU seconds, simulations, dropped."""
    bot = NetSearchAgent(budget=budget, **(params or {}))
    bot.bind(GameConfig(2))
    policy = _policy()
    rows = []
    for g in range(games):
        st = engine.init(1, 2, seeds=seed + g)
        ply = 0
        while not st.terminated[0]:
            obs, mask = engine.observe(st, observation_type="recall"), engine.legal_action_mask(st)
            if st.current_player[0] == 0:
                t0 = time.thread_time()
                bot.act_batch(obs, mask)
                spent = time.thread_time() - t0
                s = bot.last_search
                if s is not None:
                    rows.append((ply, spent, s["simulations"], s.get("dropped", 0)))  # (no drops before dd398c5)
            engine.step(st, policy.act_batch(obs, mask))
            ply += 1
    return np.array(rows, dtype=np.float64).reshape(-1, 4)


def decision_table(rows: np.ndarray) -> list[str]:
    lines = ["| plies | decisions | mean CPU s | largest CPU s | simulations | decisions that dropped a wave |",
             "|---|---|---|---|---|---|"]
    for lo, hi in PLY_RANGES + ((0, 10**6),):
        k = (rows[:, 0] >= lo) & (rows[:, 0] < hi)
        if not k.any():
            continue
        name = "all" if (lo, hi) == (0, 10**6) else (f"{lo}-{hi - 1}" if hi < 10**6 else f"{lo}+")
        r = rows[k]
        lines.append(f"| {name} | {len(r)} | {r[:, 1].mean():.4f} | {r[:, 1].max():.4f} | {r[:, 2].mean():.0f} | "
                     f"{(r[:, 3] > 0).mean():.0%} |")
    return lines


def wave_costs(seed: int, plies=(0, 30, 60), sizes=WAVE_SIZES) -> dict[int, dict[int, float]]:
    """CPU seconds of a wave by size, per start ply (the median of three waves)."""
    bot = NetSearchAgent(iterations=1)
    bot.bind(GameConfig(2))
    policy, value = bot._networks(bot.config)
    out = {}
    for ply in plies:
        st = engine.init(1, 2, seeds=seed)
        for _ in range(ply):
            if st.terminated[0]:
                break
            engine.step(st, policy.act_batch(engine.observe(st, observation_type="recall"), engine.legal_action_mask(st)))
        obs, mask = engine.observe(st, observation_type="recall")[0], engine.legal_action_mask(st)[0]
        cands, _ = bot._candidates(obs, mask, policy)
        worlds = sample_worlds_from_observation(obs, *bot.config, max(sizes), np.random.default_rng(seed), player=0)
        out[ply] = {}
        for size in sizes:
            times = []
            for rep in range(3):
                idx = (np.arange(size) + 7 * rep) % worlds.batch_size
                t0 = time.thread_time()
                with one_blas_thread():
                    bot._simulate(worlds, idx, cands[idx % cands.size], policy, value)
                times.append(time.thread_time() - t0)
            out[ply][size] = float(np.median(times))
    return out


def fixed_part(costs: dict[int, float]) -> tuple[float, float]:
    """(marginal seconds per simulation, fixed part in simulations) from the 4 and 32 waves."""
    marginal = (costs[32] - costs[4]) / 28
    return marginal, (costs[4] - 4 * marginal) / marginal if marginal > 0 else float("nan")


def main(argv=None) -> None:
    ap = UsageParser(description=__doc__.split("\n\n")[0])
    sub = ap.add_subparsers(dest="cmd", required=True)
    d = sub.add_parser("decisions", help="CPU time and simulations per decision, by stage")
    d.add_argument("--budget", type=float, default=0.1)
    d.add_argument("--games", type=int, default=4)
    d.add_argument("--seed", type=int, default=1000)
    d.add_argument("--params", default="", help="extra NetSearchAgent parameters, k=v,k=v")
    w = sub.add_parser("waves", help="what a wave costs by its size")
    w.add_argument("--seed", type=int, default=5)
    args = ap.parse_args(argv)
    if args.cmd == "decisions":
        from spacemission_agents.registry import _parse_value

        params = {k: _parse_value(v) for k, v in (item.split("=", 1) for item in filter(None, args.params.split(",")))}
        print("\n".join(decision_table(decision_rows(args.budget, args.games, args.seed, params))))
        return
    for ply, costs in wave_costs(args.seed).items():
        marginal, fixed = fixed_part(costs)
        sizes = "  ".join(f"{s}: {t * 1e3:.1f}" for s, t in costs.items())
        print(f"ply {ply}: ms per wave of {sizes}; marginal {marginal * 1e3:.2f} ms a simulation, fixed part "
              f"{fixed:.1f} simulations")


if __name__ == "__main__":
    main()
