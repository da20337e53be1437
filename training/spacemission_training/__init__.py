"""PPO training (installed as ``spacemission_training``; the folder is ``training/``)."""
