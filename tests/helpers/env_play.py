"""Helpers for the interface tests (tests/test_env_*.py): a cheap "progress" player, and
the decisions of a random AEC game (``aec_decisions``).

The progress player: uniformly random play almost never ends a game by R-E1 (it truncates), so the tests
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


def aec_decisions(n: int, seed: int = 0, **env_kwargs) -> tuple[np.ndarray, np.ndarray]:
    """Observations and masks of the acting agent along a random game of the AEC env
    (``pettingzoo_env.env(**env_kwargs)``, any game), up to ``n`` decisions."""
    from spacemission_env.pettingzoo_env import env

    e = env(**env_kwargs)
    e.reset(seed=seed)
    rng = np.random.default_rng(seed)
    obs, masks = [], []
    for _ in e.agent_iter():
        o, _, term, trunc, _ = e.last()
        if term or trunc:
            e.step(None)
            continue
        obs.append(o["observation"])
        masks.append(o["action_mask"])
        if len(obs) == n:
            break
        e.step(int(rng.choice(np.flatnonzero(o["action_mask"]))))
    return np.array(obs), np.array(masks)
