"""Fast batched engine: B games of one configuration as numpy arrays, stepped by
numba kernels, bit-identical to the reference engine (rules/game.py). See docs/engine.md.

    from spacemission_env.space_mission import engine
    st = engine.init(1024, 3, seeds=0, rules="yucata")
    mask = engine.legal_action_mask(st)
    obs = engine.observe(st)                        # int8 [B, D], acting player's view
    engine.step(st, actions)                        # in place
"""
from ... import compile_notice  # noqa: F401  (registers the first-compile notice before any kernel runs)
from .api import (
    collection_points,
    init,
    legal_action_mask,
    observation_size,
    observe,
    reset_finished,
    rewards,
    sample_actions,
    scores,
    step,
    step_observe,
)
from .convert import from_reference, to_reference
from .state import BatchState

__all__ = [
    "BatchState", "collection_points", "from_reference", "init", "legal_action_mask", "observation_size", "observe", "reset_finished",
    "rewards", "sample_actions", "scores", "step", "step_observe", "to_reference",
]
