"""Take-off of PPO training over seeds: trains one run per seed with the
defaults of ``spacemission train`` (behaviour-cloning warm start from the heuristic bot,
the opponent pool, shaping with the learner's gamma) on a short budget, evaluates in the
arena against random and greedy players along the way, prints each seed's curve and the
first step at which it won >= 95% against random, and draws the curves.

    python benchmarks/takeoff.py --seeds 0,1,2,3,4 --steps 400000 --out runs/takeoff \
        --png docs/images/takeoff.png

Figures and the command that produced them: docs/training.md.
"""
from __future__ import annotations

import json
import time
from pathlib import Path

import torch

from spacemission_env.checks import UsageParser  # every command's parser: echoed values cut


def main(argv=None) -> None:
    ap = UsageParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--seeds", default="0,1,2,3,4")
    ap.add_argument("--steps", type=int, default=400_000, help="PPO steps per seed (the default budget is 3,000,000)")
    ap.add_argument("--evals", type=int, default=4, help="evaluations along the run (plus one before PPO)")
    ap.add_argument("--eval-games", type=int, default=100)
    ap.add_argument("--out", default="runs/takeoff")
    ap.add_argument("--png", default="docs/images/takeoff.png")
    args = ap.parse_args(argv)
    try:
        seeds = [int(s) for s in args.seeds.split(",")]
    except ValueError:
        ap.error(f"--seeds takes comma-separated integers, got {args.seeds!r}")
    if args.steps <= 0 or args.evals <= 0 or args.eval_games <= 0:
        ap.error("--steps, --evals and --eval-games must be > 0")
    if args.evals > args.steps:
        ap.error(f"--evals {args.evals} exceeds --steps {args.steps} (an evaluation every steps // evals steps)")

    from spacemission_training.config import TrainConfig
    from spacemission_training.run_paths import refuse_existing_run
    from spacemission_training.train_ppo import train

    def config(seed):
        return TrainConfig(steps=args.steps, seed=seed, run_dir=f"{args.out}/seed{seed}",
                           eval_every=args.steps // args.evals, eval_games=args.eval_games,
                           eval_opponents="random,greedy", final_eval_games=0, progress="lines",
                           tensorboard=False)

    for seed in seeds:  # every seed's configuration checked before the first run
        try:
            refuse_existing_run(config(seed).run_dir)  # an earlier takeoff's runs: another --out
        except ValueError as e:
            ap.error(f"--seeds {seed}: {e}")
    torch.set_num_threads(1)
    curves = {}
    for seed in seeds:
        t0 = time.perf_counter()
        cfg = config(seed)
        summary = train(cfg, argv=["--steps", str(args.steps), "--seed", str(seed)])
        points = [(e["step"], e["eval/random/win_rate"], e["eval/greedy/win_rate"]) for e in summary["evals"]]
        curves[seed] = points
        first = next((s for s, r, _ in points if r >= 0.95), None)
        print(f"seed {seed}: " + "  ".join(f"{s:,}: random {r:.0%} greedy {g:.0%}" for s, r, g in points)
              + f" | first >= 95% vs random at step {first if first is not None else 'never'}"
              f" | {time.perf_counter() - t0:.0f} s", flush=True)
    reached = sum(any(r >= 0.95 for _, r, _ in pts) for pts in curves.values())
    print(f"{reached} of {len(seeds)} seeds reached >= 95% against random within {args.steps:,} steps")
    Path(args.out).mkdir(parents=True, exist_ok=True)
    (Path(args.out) / "takeoff.json").write_text(json.dumps({"steps": args.steps, "curves": curves}, indent=1))

    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    fig, axes = plt.subplots(1, 2, figsize=(10, 3.8), sharey=True)
    for seed, pts in curves.items():
        steps = [p[0] for p in pts]
        for ax, k in zip(axes, (1, 2)):
            ax.plot(steps, [p[k] for p in pts], marker="o", label=f"seed {seed}")
    for ax, name in zip(axes, ("random", "greedy")):
        ax.set_title(f"win rate vs {name} ({args.eval_games} arena games per point)")
        ax.set_xlabel("PPO steps (step 0: after behaviour cloning)")
        ax.grid(alpha=0.3)
    axes[0].axhline(0.95, color="grey", ls="--", lw=1)
    axes[0].set_ylabel("win rate")
    axes[0].set_ylim(0, 1.02)
    axes[1].legend(fontsize=8)
    fig.tight_layout()
    Path(args.png).parent.mkdir(parents=True, exist_ok=True)
    fig.savefig(args.png, dpi=110)
    print(f"curves: {args.png}")


if __name__ == "__main__":
    main()
