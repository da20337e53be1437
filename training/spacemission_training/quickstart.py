"""``make run``: train a PPO agent on a short budget, then rate it in the arena against the
shipped pretrained agent and the bots.

    python -m spacemission_training.quickstart                   # what make run does (a few minutes)
    python -m spacemission_training.quickstart --steps 3000000   # longer: stronger (make run STEPS=3000000)

Writes ``OUT/train`` (the training run: learning_curve.png, final.npz, metrics.csv,
TensorBoard files) and ``OUT/arena`` (arena.png, results.json, CSV), prints the arena
tables and says where the pictures are. The training uses the defaults of
``spacemission train`` (train_ppo.py) except the budget: fewer steps, less teacher
data, fewer and shorter evaluations.
"""
from __future__ import annotations

import argparse
import shutil
import sys
import time
from pathlib import Path

from spacemission_env.checks import UsageParser, shown_path

__all__ = ["main"]


def main(argv: list[str] | None = None) -> int:
    ap = UsageParser(prog="python -m spacemission_training.quickstart", description=__doc__.split("\n\n")[0],
                     formatter_class=argparse.ArgumentDefaultsHelpFormatter)
    from .config import TrainConfig

    base = TrainConfig()  # the run's num_envs and n_steps: quickstart changes only the budget
    ap.add_argument("--steps", type=int, default=500_000,
                    help=f"PPO steps (learner decisions), rounded up to whole rollouts of "
                         f"{base.num_envs * base.n_steps:,} ({base.num_envs} games x {base.n_steps} steps)")
    ap.add_argument("--bc-samples", type=int, default=60_000, help="teacher decisions cloned before PPO")
    ap.add_argument("--games", type=int, default=200, help="arena games per pair")
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--out", default="runs/quickstart", help="output directory")
    ap.add_argument("--opponents", default="random,greedy,heuristic", help="bots in the arena table")
    args = ap.parse_args(argv)

    from rich.console import Console

    from spacemission_agents.arena import run_arena
    from spacemission_agents.arena_output import tables
    from spacemission_agents.ppo import PPOAgent

    from .run_paths import RUN_FILES, folder_write_problem, path_lookup_problem
    from .train_ppo import planned_end, train

    from spacemission_agents.registry import make_agent

    out = Path(args.out)
    if args.games < 1:  # checked with everything else before the training, not after it
        ap.error(f"--games must be >= 1, got {args.games}")
    for spec in [s.strip() for s in args.opponents.split(",") if s.strip()]:
        try:
            make_agent(spec)
        except ValueError as exc:
            ap.error(f"--opponents: {exc}")
    problem = path_lookup_problem(out)
    if problem:
        ap.error(f"--out {shown_path(out)} is not a usable path ({problem})")
    if out.exists() and not out.is_dir():
        ap.error(f"--out {shown_path(out)} is a file, not a directory")
    try:
        cfg = TrainConfig(steps=args.steps, bc_samples=args.bc_samples, bc_epochs=4, seed=args.seed,
                          run_dir=str(out / "train"), eval_every=max(args.steps // 4, 1), eval_games=100,
                          eval_opponents="random,greedy", final_eval_games=0,
                          checkpoint_every=max(args.steps // 2, 1), snapshot_every=max(args.steps // 8, 1))
    except ValueError as exc:
        ap.error(str(exc))
    run_dir = out / "train"
    problem = folder_write_problem(run_dir)  # before the training, not a traceback from its first write
    if problem:
        ap.error(f"--out {shown_path(out)}: cannot write the run's files in {shown_path(run_dir)} ({problem})")
    found = [name for name in RUN_FILES if (run_dir / name).exists()]
    if found and not (run_dir / "config.json").is_file():  # not a run that quickstart can tell as its own
        ap.error(f"--out {shown_path(out)}: {shown_path(run_dir)} holds a run's files ({', '.join(found)}) but no "
                 f"config.json; give another --out, or delete that folder")
    console = Console() if sys.stdout.isatty() else Console(width=160)
    if (run_dir / "config.json").is_file():  # the previous quickstart's run: replaced, as make run always did
        shutil.rmtree(run_dir)
    rollout = cfg.num_envs * cfg.n_steps
    steps = planned_end(0, args.steps, rollout)  # what train() runs: whole rollouts
    rounded = f" (--steps {args.steps:,} rounded up to whole rollouts of {rollout:,})" if steps != args.steps else ""
    console.rule(f"1/2 training a PPO agent: {steps:,} steps{rounded} after cloning {args.bc_samples:,} "
                 f"heuristic decisions")
    t0 = time.perf_counter()
    summary = train(cfg, argv=["--steps", str(args.steps), "--seed", str(args.seed)])
    train_s = time.perf_counter() - t0
    console.print(f"trained in {train_s:.0f} s ({summary['process_cpu_s']:.0f} s CPU): {summary['model']}")

    console.rule("2/2 arena: the new agent, the shipped pretrained agent and the bots")
    mine = PPOAgent.load(summary["model"], name="ppo-quickstart")
    agents = [mine, "ppo", *[s.strip() for s in args.opponents.split(",") if s.strip()]]
    result = run_arena(agents, num_players=2, games=args.games, seed=args.seed, out=out / "arena", record=False,
                       progress=True, overwrite=True)  # the previous quickstart's results, as its run above
    for table in tables(result):
        console.print(table)
    console.print(f"learning curve: {summary['learning_curve']}")
    console.print(f"arena picture:  {out / 'arena' / 'arena.png'}")
    console.print(f"total {time.perf_counter() - t0:.0f} s. A longer run: make run STEPS=3000000 "
                  f"(or spacemission train --help for every option)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
