"""Fast batched engine of Mission: Red Planet: B games of one player count as numpy
arrays, stepped by numba kernels, bit-identical to the reference engine
(red_planet/rules). The same functions and signatures as Space Mission's
``spacemission_env.space_mission.engine``; see docs/red_planet/engine.md.

    from spacemission_env.red_planet import engine
    st = engine.init(1024, 4, seeds=0)
    mask = engine.legal_action_mask(st)             # bool [B, 243]
    obs = engine.observe(st)                        # int8 [B, 957], acting seat's view
    engine.step(st, engine.sample_actions(mask))    # in place
"""
from ... import compile_notice  # noqa: F401  (the first-compile notice)
from .api import (
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
from .state import FIELDS, BatchState

__all__ = [
    "FIELDS", "BatchState", "from_reference", "init", "legal_action_mask", "observation_size", "observe",
    "reset_finished", "rewards", "sample_actions", "scores", "step", "step_observe", "to_reference",
]
