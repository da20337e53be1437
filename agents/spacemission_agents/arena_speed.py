"""Speed measurements: an agent's decisions per second (single and batched) and the
arena's throughput in games per second (docs/arena.md, "Speed").

    .venv/bin/python -m spacemission_agents.arena_speed --agents random,kind-random --games 1024

Decision speed is timed on real positions: a batch of games played by kind-random to
random lengths (0-150 actions), each position seen through the acting seat's own
observation (of the type the agent asks for) and legal mask.
"""
from __future__ import annotations

import argparse
import inspect
import json
import time

import numpy as np

from spacemission_env.games import GameConfig, get_game

from .registry import agent_display_name, make_agent

__all__ = ["arena_throughput", "decision_speed", "positions"]


def positions(n: int = 1024, num_players: int = 2, rules: str | None = None, observation_type: str = "info",
              seed: int = 0, game: str = "spacemission") -> tuple[np.ndarray, np.ndarray]:
    """(observations [m, D], masks [m, A]) of m <= n running positions of ``game`` (``rules``
    None: its default rules)."""
    g = get_game(game)
    eng, rng = g.engine, np.random.default_rng(seed)
    # spread the positions over the action kinds where the engine can (Space Mission's top
    # ups would otherwise be most of a uniform draw)
    by_kind = {"by_kind": True} if "by_kind" in inspect.signature(eng.sample_actions).parameters else {}
    st = g.new_batch(n, GameConfig(num_players, rules, game=game), seeds=seed)
    length = rng.integers(0, 150, n)
    for t in range(int(length.max())):
        sel = (length > t) & ~st.terminated
        if not sel.any():
            break
        mask = eng.legal_action_mask(st, select=sel)
        acts = np.zeros(n, dtype=np.int64)
        acts[sel] = eng.sample_actions(mask[sel], rng, **by_kind)
        eng.step(st, acts, select=sel)
    live = ~st.terminated
    return eng.observe(st, observation_type=observation_type)[live], eng.legal_action_mask(st)[live]


def decision_speed(agent, num_players: int = 2, rules: str | None = None, batch: int = 256, seconds: float = 2.0,
                   n: int = 1024, seed: int = 0, game: str = "spacemission", bind: bool = True) -> dict:
    """Decisions per second of ``agent`` (an object or a spec) in ``game``: one ``act`` at a
    time, and ``act_batch`` on batches of ``batch`` positions; each timed for about
    ``seconds`` of wall time, reported per wall second and per CPU second of this process
    (the latter is robust to a machine shared with other jobs; a multi-threaded agent uses
    more CPU than wall time). ``bind=False``: the agent is already bound to this game."""
    if isinstance(agent, str):
        agent = make_agent(agent, seed=seed, game=game)
    config = GameConfig(num_players, rules, game=game)
    if bind and callable(getattr(agent, "bind", None)):
        agent.bind(config)
    otype = getattr(agent, "observation_type", None) or "info"
    obs, masks = positions(n, num_players, config.rules, otype, seed, game)
    k = 0
    while len(masks) < batch:  # enough for one batch (games end on the way): a larger one was silently cut
        k += 1
        more = positions(max(n, batch - len(masks)), num_players, config.rules, otype, seed + k * 2**20, game)
        obs, masks = np.concatenate([obs, more[0]]), np.concatenate([masks, more[1]])
    if getattr(agent, "uses_observation", True) is False:
        obs = np.zeros((len(masks), 0), dtype=np.int8)
    m = len(masks)
    agent.act_batch(obs[:batch], masks[:batch])  # warm-up (compilation, caches)

    def timed(step) -> tuple[float, float]:
        done, t0, c0 = 0, time.perf_counter(), time.process_time()
        while time.perf_counter() - t0 < seconds:
            done += step(done % m)
        return done / (time.perf_counter() - t0), done / max(time.process_time() - c0, 1e-9)

    def one_batch(i: int) -> int:  # always ``batch`` rows (a batch cut at the end of the positions was shorter)
        lo = i % max(1, m - batch + 1)
        agent.act_batch(obs[lo:lo + batch], masks[lo:lo + batch])
        return batch

    def one(i: int) -> int:
        agent.act(obs[i], masks[i])
        return 1

    batched, batched_cpu = timed(one_batch)
    single, single_cpu = timed(one)
    return {"agent": agent_display_name(agent), "game": game, "players": num_players, "positions": m, "batch": batch,
            "single_per_s": single, "batched_per_s": batched, "single_per_cpu_s": single_cpu, "batched_per_cpu_s": batched_cpu}


def arena_throughput(agents=("random", "random"), games: int = 1024, workers: int = 1, record: bool = False,
                     num_players: int = 2, seed: int = 0, out=None) -> dict:
    """Games per second of a run_arena call: of the play loop, of the whole call, and per
    CPU second (this process and its reaped workers; robust to a machine shared with others)."""
    import os

    from .arena import run_arena

    def cpu() -> float:
        t = os.times()
        return t.user + t.system + t.children_user + t.children_system

    c0, t0 = cpu(), time.perf_counter()
    result = run_arena(list(agents), num_players=num_players, games=games, workers=workers, seed=seed,
                       record=record, out=out, progress=False)
    wall, cpu_s = time.perf_counter() - t0, cpu() - c0
    return {"agents": list(agents), "players": num_players, "games": result.num_games, "workers": workers,
            "record": record, "play_games_per_s": result.timing["games_per_s"], "wall_games_per_s": result.num_games / wall,
            "games_per_cpu_s": result.num_games / cpu_s, "mean_actions": float(result.games.num_actions.mean()),
            "load_average": os.getloadavg()[0]}


def main(argv: list[str] | None = None) -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--agents", default="random,kind-random", help="agents whose decision speed to measure")
    ap.add_argument("--players", type=int, default=2)
    ap.add_argument("--seconds", type=float, default=2.0, help="time per decision-speed measurement")
    ap.add_argument("--games", type=int, default=1024, help="games per arena throughput run (0: skip)")
    ap.add_argument("--json", action="store_true")
    args = ap.parse_args(argv)
    rows = [decision_speed(a, num_players=args.players, seconds=args.seconds) for a in args.agents.split(",")]
    runs = []
    if args.games:
        import tempfile

        for workers in (1, 2):
            for record in (False, True):
                with tempfile.TemporaryDirectory() as tmp:
                    runs.append(arena_throughput(("random", "random"), args.games, workers, record, out=tmp if record else None))
    if args.json:
        print(json.dumps({"decisions": rows, "arena": runs}, indent=1))
        return
    print("| agent | players | single /s | single /CPU s | batched (256) /s | batched (256) /CPU s |\n|---|---|---|---|---|---|")
    for r in rows:
        print(f"| {r['agent']} | {r['players']} | {r['single_per_s']:,.0f} | {r['single_per_cpu_s']:,.0f} | "
              f"{r['batched_per_s']:,.0f} | {r['batched_per_cpu_s']:,.0f} |")
    if runs:
        print("\n| agents | games | workers | games.jsonl | games/s (play) | games/s (whole call) | games per CPU s "
              "| actions/game | load average |\n|---|---|---|---|---|---|---|---|---|")
        for r in runs:
            print(f"| {' vs '.join(r['agents'])} | {r['games']} | {r['workers']} | {'yes' if r['record'] else 'no'} | "
                  f"{r['play_games_per_s']:,.0f} | {r['wall_games_per_s']:,.0f} | {r['games_per_cpu_s']:,.0f} | "
                  f"{r['mean_actions']:.0f} | {r['load_average']:.1f} |")


if __name__ == "__main__":
    main()
