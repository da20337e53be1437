"""agents/spacemission_agents/arena_speed.py: the decision-speed and throughput measurements run (figures: docs/arena.md)."""
import numpy as np

from spacemission_agents.arena_speed import arena_throughput, decision_speed, positions
from spacemission_env.space_mission import engine


def test_positions_are_running_and_legal():
    obs, masks = positions(64, num_players=3, seed=1)
    assert len(obs) == len(masks) > 0 and obs.shape[1] == engine.observation_size() and masks.any(axis=1).all()


def test_measurements_run():
    r = decision_speed("kind-random", seconds=0.05, n=64, batch=16)
    assert r["agent"] == "kind-random" and r["single_per_s"] > 0 and r["batched_per_s"] > 0
    t = arena_throughput(("random", "kind-random"), games=4, workers=1)
    assert t["games"] == 4 and t["play_games_per_s"] > 0 and t["games_per_cpu_s"] > 0 and np.isfinite(t["mean_actions"])
