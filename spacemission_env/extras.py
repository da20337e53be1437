"""Optional dependencies, and the error that names the extra to install.

The core (``pip install spacemission_env``) is what the environment needs: numpy,
gymnasium, pettingzoo and numba. Everything else lives in an extra of pyproject.toml:

| extra | for | brings |
|---|---|---|
| ``render`` | ``render_mode="rgb_array"``, PNG pictures | pillow |
| ``sb3`` | ``spacemission_env.sb3`` (the SB3 VecEnv) | stable-baselines3, sb3-contrib |
| ``agents`` | the arena's tables, plots and ratings, the PPO agent's thread control | rich, matplotlib, openskill, threadpoolctl |
| ``cli`` | the ``spacemission`` command | ``agents`` + ``render`` |
| ``train`` | PPO training | ``agents`` + ``sb3`` + torch, tensorboard |
| ``all`` | everything above | |

Modules import optional packages where they use them, through :func:`require`, so a
missing one fails with an ``ImportError`` that says which extra installs it.
"""
from __future__ import annotations

import importlib


def require(module: str, extra: str, purpose: str):
    """``importlib.import_module(module)``, or an ImportError naming ``extra``:
    ``pip install 'spacemission_env[extra]'``."""
    try:
        return importlib.import_module(module)
    except ImportError as exc:
        raise ImportError(f"{purpose} needs the package {module.split('.')[0]!r}, which is not installed: "
                          f"pip install 'spacemission_env[{extra}]'") from exc
