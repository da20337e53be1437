"""PPO training (installed as ``spacemission_training``; the folder is ``training/``).
Needs the ``train`` extra: ``pip install 'spacemission_env[train]'``."""
from spacemission_env.extras import require

for _module in ("torch", "stable_baselines3", "sb3_contrib"):
    require(_module, "train", "spacemission_training")
