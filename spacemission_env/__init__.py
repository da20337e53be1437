"""Space Mission RL environment."""
