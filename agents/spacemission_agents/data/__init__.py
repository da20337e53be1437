"""Pretrained models shipped with the package (PPOAgent.load_shipped; docs/training.md)."""
