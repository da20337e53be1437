"""The two random baselines at the bottom of the ladder (docs/arena.md).

* :class:`RandomAgent`: a legal action id uniformly from the flat ``Discrete(100)``
  space. Most legal ids are top-ups (discard subsets), so it tops up most of the time
  and rarely finishes a game before the round limit (R-E3; docs/random_play.md).
* :class:`KindRandomAgent`: first a legal action *kind* uniformly (top up, jump, fly,
  scan, develop, discover, or the tile decision), then a legal id of that kind
  uniformly. It takes actions that score far more often and beats RandomAgent ~80%.

Both look only at the legal-action mask (``uses_observation = False``: the arena and
the batched environments then skip computing observations for them) and are fully
vectorised: ``act_batch`` is one numba kernel over the batch (engine.sample_actions).
Decision speed: docs/arena.md ("Decision speed").
"""
from __future__ import annotations

from spacemission_env.policies import RandomPolicy

__all__ = ["KindRandomAgent", "RandomAgent"]


class RandomAgent(RandomPolicy):
    """Uniform over the legal action ids. ``RandomAgent(seed=None)``; ``seed(s)`` reseeds."""

    name = "random"

    def __init__(self, seed: int | None = None):
        super().__init__(seed=seed, by_kind=False)

    def __repr__(self) -> str:
        return "RandomAgent()"


class KindRandomAgent(RandomPolicy):
    """Uniform over the legal action kinds, then over the ids of the chosen kind.
    ``KindRandomAgent(seed=None)``; ``seed(s)`` reseeds."""

    name = "kind-random"

    def __init__(self, seed: int | None = None):
        super().__init__(seed=seed, by_kind=True)

    def __repr__(self) -> str:
        return "KindRandomAgent()"
