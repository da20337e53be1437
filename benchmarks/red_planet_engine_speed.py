"""Speed of the Red Planet fast batched engine against its reference engine.

Random legal play (uniform over legal ids), the acting seat's observation (``info``) and
the legal mask produced every step, finished games reset; one process. Prints, per
player count, agent-steps/s and games/s of the fast engine, the reference engine's
agent-steps/s in the same run (the same work per step: legal mask + observation +
apply, plain Python) and the ratio, and the state bytes per game.

Rates are agent steps per second of this process's CPU time (``time.process_time``):
on a machine shared with other jobs, wall-clock rates measure the neighbours as much as
the engine. Each player count is measured ``--repeats`` times, fast and reference
alternating; the medians and the median of the paired ratios are printed.

    .venv/bin/python benchmarks/red_planet_engine_speed.py [--players 3,4,5] [--batch-size 1024] [--seconds 5]
        [--repeats 3] [--profile]

``--profile`` prints instead where the fast engine's time goes: the CPU ns per agent step
of each call of the loop (mask, observation, random action, step, resets).
"""
from __future__ import annotations

import random
import time

import numpy as np

from spacemission_env.checks import UsageParser  # every command's parser: echoed values cut
from spacemission_env.red_planet import encoding, engine, rules


def _loop_state(B: int, players: int, seed: int) -> tuple:
    """A batch of new games and the buffers both loops fill: (state, mask, obs, actions, rng, next seed)."""
    st = engine.init(B, players, seeds=seed)
    mask = np.empty((B, 243), dtype=bool)
    obs = np.empty((B, engine.observation_size()), dtype=np.int8)
    return st, mask, obs, np.empty(B, dtype=np.int64), np.random.default_rng(seed), seed + B


def bench_engine(B: int, players: int, seconds: float, seed: int = 0) -> dict:
    st, mask, obs, actions, rng, next_seed = _loop_state(B, players, seed)
    for _ in range(5):  # warm-up (loads or compiles the kernels)
        engine.legal_action_mask(st, out=mask)
        engine.observe(st, out=obs)
        engine.step(st, engine.sample_actions(mask, rng, out=actions))
    steps = games = 0
    t0 = time.process_time()
    while True:
        for _ in range(20):
            engine.legal_action_mask(st, out=mask)
            engine.observe(st, out=obs)
            engine.sample_actions(mask, rng, out=actions)
            running = int(B - st.terminated.sum())
            engine.step(st, actions)
            steps += running
            n_done = int(st.terminated.sum())
            if n_done:
                games += n_done
                engine.reset_finished(st, next_seed)
                next_seed += B
        el = time.process_time() - t0
        if el >= seconds:
            break
    return {"agent_steps_per_s": steps / el, "games_per_s": games / el, "bytes_per_game": st.nbytes() / B}


def profile_engine(B: int, players: int, seconds: float, seed: int = 0) -> dict:
    """bench_engine's loop with each call timed alone: CPU ns per agent step of the mask,
    the observation, the random action, the step and the resets of finished games."""
    st, mask, obs, actions, rng, next_seed = _loop_state(B, players, seed)
    parts = dict.fromkeys(("mask", "observation", "random action", "step", "reset"), 0.0)
    steps = 0
    for i in range(10**9):
        if i == 5:  # after the warm-up (loads or compiles the kernels)
            parts, steps = dict.fromkeys(parts, 0.0), 0
        elif i > 5 and sum(parts.values()) >= seconds:
            break
        t = [time.process_time()]
        engine.legal_action_mask(st, out=mask)
        t.append(time.process_time())
        engine.observe(st, out=obs)
        t.append(time.process_time())
        engine.sample_actions(mask, rng, out=actions)
        t.append(time.process_time())
        steps += int(B - st.terminated.sum())
        engine.step(st, actions)
        t.append(time.process_time())
        if st.terminated.any():
            engine.reset_finished(st, next_seed)
            next_seed += B
        t.append(time.process_time())
        for k, t0, t1 in zip(parts, t, t[1:]):
            parts[k] += t1 - t0
    return {k: v / steps * 1e9 for k, v in parts.items()}


def bench_reference(players: int, seconds: float, seed: int = 0) -> dict:
    """The reference engine with the same work per step: legal mask, the acting seat's
    observation, one uniformly random legal action."""
    rand = random.Random(seed)
    steps = 0
    game = seed
    t0 = time.process_time()
    while time.process_time() - t0 < seconds:
        s = rules.new_game(players, seed=game)
        game += 1
        while not rules.is_over(s):
            mask = rules.legal_action_mask(s)
            encoding.observe(s)
            rules.apply(s, rand.choice(np.flatnonzero(mask).tolist()))
            steps += 1
    return {"agent_steps_per_s": steps / (time.process_time() - t0)}


def main(argv=None) -> None:
    ap = UsageParser(description=__doc__.splitlines()[0])
    ap.add_argument("--players", default="3,4,5")
    ap.add_argument("--batch-size", type=int, default=1024)
    ap.add_argument("--seconds", type=float, default=5.0)
    ap.add_argument("--repeats", type=int, default=3)
    ap.add_argument("--profile", action="store_true",
                    help="instead: the fast engine's CPU ns per agent step of each call (mask, observation, ...)")
    args = ap.parse_args(argv)
    try:
        players = [int(x) for x in args.players.split(",")]
    except ValueError:
        ap.error(f"--players takes comma-separated integers, got {args.players!r}")
    if not all(3 <= n <= 5 for n in players) or args.batch_size < 1 or not 0 < args.seconds < float("inf") \
            or args.repeats < 1:
        ap.error(f"--players must be in 3..5, --batch-size and --repeats >= 1 and --seconds a finite number > 0, got "
                 f"--players {args.players}, --batch-size {args.batch_size}, --seconds {args.seconds}, "
                 f"--repeats {args.repeats}")
    if args.profile:
        print(f"batch {args.batch_size}, {args.seconds:g} CPU s per player count: CPU ns per agent step")
        for n in players:
            p = profile_engine(args.batch_size, n, args.seconds)
            parts = ", ".join(f"{k} {v:,.0f}" for k, v in p.items())
            print(f"{n} players: {parts}; total {sum(p.values()):,.0f}")
        return
    print(f"batch {args.batch_size}, {args.seconds:g} CPU s per figure, observation 'info' + mask every step, "
          f"medians of {args.repeats} alternating repeats")
    print("players  fast agent-steps/s  games/s  reference agent-steps/s  ratio  bytes/game")
    for n in players:
        fast, ref = [], []
        for r in range(args.repeats):
            fast.append(bench_engine(args.batch_size, n, args.seconds, seed=r * 10**6))
            ref.append(bench_reference(n, args.seconds, seed=r * 10**6))
        f = float(np.median([x["agent_steps_per_s"] for x in fast]))
        g = float(np.median([x["games_per_s"] for x in fast]))
        rr = float(np.median([x["agent_steps_per_s"] for x in ref]))
        ratio = float(np.median([a["agent_steps_per_s"] / b["agent_steps_per_s"] for a, b in zip(fast, ref)]))
        print(f"{n:>7}  {f:>18,.0f}  {g:>7,.0f}  {rr:>23,.0f}  {ratio:>5,.0f}x  {fast[0]['bytes_per_game']:>10,.0f}",
              flush=True)


if __name__ == "__main__":
    main()
