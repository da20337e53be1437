"""PPO training (installed as ``spacemission_training``; the folder is ``training/``).
Needs the ``train`` extra: ``pip install 'spacemission_env[train]'``."""
from spacemission_env.extras import require

require("torch", "train", "spacemission_training")
