"""RandomBot: a legal action id of Mission: Red Planet uniformly at random, the bottom of
the ladder (docs/red_planet/agents.md).

It reads only the legal-action mask (``uses_observation = False``: an environment may pass
an empty observation). Seeded: the same seed gives the same sequence of choices;
``seed(s)`` reseeds. ``spacemission_env.policies.RandomPolicy`` does the same for Space
Mission but checks its masks against Space Mission's ``Discrete(100)``.
"""
from __future__ import annotations

import numpy as np

from ._common import RedPlanetBot, check_seed


class RandomBot(RedPlanetBot):
    """Uniform over the legal action ids. ``RandomBot(seed=None)``: None draws fresh entropy."""

    name = "random"
    uses_observation = False

    def __init__(self, seed: int | None = None):
        super().__init__(seed)

    def seed(self, seed: int | None = None) -> None:
        check_seed(seed)  # numpy's generator takes the whole seed (2**64 is not 0)
        self._rng = np.random.default_rng(None if seed is None else int(seed))

    def _decide(self, obs: np.ndarray, masks: np.ndarray) -> np.ndarray:
        # the k-th legal id, k uniform in 0..count-1: one draw per row
        counts = masks.sum(axis=1)
        k = (self._rng.random(len(masks)) * counts).astype(np.int64)
        return (np.cumsum(masks, axis=1) > k[:, None]).argmax(axis=1)

    def __repr__(self) -> str:
        return "RandomBot()"
