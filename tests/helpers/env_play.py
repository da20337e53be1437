"""Helpers for the interface tests (tests/test_env_*.py): a cheap "progress" player.

Uniformly random play almost never ends a game by R-E1 (it truncates), so the tests
that need natural endings use this one: with probability 1 - eps it picks uniformly
among the legal actions of the most advanced kind available (tile > discover >
develop > scan > jump > fly > top up), else uniformly among all legal actions.
Games then end by R-E1 after about 20-30 rounds.
"""
import numpy as np

from spacemission_env.policies import BasePolicy

GROUPS = (slice(90, 100), slice(89, 90), slice(79, 89), slice(74, 79), slice(32, 72), slice(72, 74), slice(0, 32))


def progress_masks(masks: np.ndarray, rng: np.random.Generator, eps: float = 0.2) -> np.ndarray:
    m = np.asarray(masks).astype(bool)
    out = np.zeros_like(m)
    chosen = np.zeros(m.shape[0], dtype=bool)
    for g in GROUPS:
        has = m[:, g].any(axis=1) & ~chosen
        out[has, g] = m[has, g]
        chosen |= has
    explore = rng.random(m.shape[0]) < eps
    return np.where(explore[:, None], m, out)


def pick(masks: np.ndarray, rng: np.random.Generator) -> np.ndarray:
    """One uniformly random True column per row."""
    m = np.asarray(masks).astype(bool)
    u = rng.random(m.shape[0])
    counts = m.sum(axis=1)
    k = np.minimum((u * counts).astype(int), counts - 1)
    return np.argmax(np.cumsum(m, axis=1) > k[:, None], axis=1)


def progress_action(mask: np.ndarray, rng: np.random.Generator, eps: float = 0.2) -> int:
    return int(pick(progress_masks(np.asarray(mask)[None], rng, eps), rng)[0])


class ProgressPolicy(BasePolicy):
    """The progress player as a Policy (for opponents); counts its calls."""

    uses_observation = False

    def __init__(self, seed=0, eps=0.2):
        self.rng = np.random.default_rng(seed)
        self.eps = eps
        self.calls = 0

    def seed(self, seed=None):
        self.rng = np.random.default_rng(seed)

    def act_batch(self, observations, action_masks):
        self.calls += len(action_masks)
        return pick(progress_masks(action_masks, self.rng, self.eps), self.rng)
