"""``spacemission train``: train a PPO agent (training/spacemission_training/train_ppo.py; docs/training.md).

Needs the training extras (torch, stable-baselines3, sb3-contrib, tensorboard:
``pip install -e '.[train]'``); without them it says so instead of a traceback.
"""
from __future__ import annotations

import sys


def main(argv: list[str] | None = None) -> int:
    try:
        from spacemission_training.train_ppo import main as train_main
    except ImportError as exc:
        print(f"spacemission train needs the training extras (torch, stable-baselines3, sb3-contrib, tensorboard): "
              f"pip install -e '.[train]' ({exc})", file=sys.stderr)
        return 2
    return train_main(argv)


if __name__ == "__main__":
    sys.exit(main())
