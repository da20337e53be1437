"""The heuristic prior of a PPO policy: a game's heuristic bot's per-action values as an
extra input and as a bias on the policy's logits.

A policy trained from scratch, or cloned from the heuristic bot, has to rediscover in its
weights the plans the heuristic computes every decision (its cloned copy agreed with the
teacher on only 62-64% of decisions in Space Mission, 45% in Red Planet; docs/training.md).
With a prior the network does not imitate the plan, it is handed it:

* ``HeuristicPrior(params, game=...)`` runs the game's heuristic bot (Space Mission:
  ``HeuristicAgent``, numba, its plan values; Red Planet: ``red_planet.HeuristicBot``,
  numpy, its action values; both in points, no torch) on the observations and returns
  int8 codes ``[N, A]`` (``A`` the game's action count): for each legal action the
  heuristic evaluated, ``round(10 * max(value - best, -8))``, its value in tenths of a
  point below the best action's, saturating 8 points down; ``-80`` for every other action
  (legal ones the heuristic does not evaluate, such as Space Mission's equivalent top-up
  masks, and illegal ones). A row where it evaluated nothing (a forced move) is 0 on its
  legal actions.
* The network reads ``obs[active] * scale`` followed by ``1 + codes / 80`` (in [0, 1]:
  1 for the heuristic's choice), and its logits are ``net(x) + beta * codes / 10``: the
  heuristic's values in points times a learned ``beta``. At initialisation (``net``
  near 0) the policy is the heuristic's softmax at inverse temperature ``beta``; PPO then
  learns where to deviate from it.

The codes are int8 so that the augmented observation stays int8 (rollout buffers, cloning
data and checkpoints keep their size). The same function serves the training wrapper
(spacemission_training.prior) and the numpy :class:`~spacemission_agents.ppo.PPOAgent`,
so a saved model sees exactly the codes it was trained on. A description without a
``game`` (files saved before Red Planet had a prior) is Space Mission's.
"""
from __future__ import annotations

from importlib import import_module

import numpy as np

from spacemission_env.checks import shown
from spacemission_env.games import DEFAULT_GAME, get_game

__all__ = ["FLOOR_CODE", "HEURISTICS", "HeuristicPrior", "PRIOR_KINDS", "STEP_POINTS", "make_prior", "prior_observation_type"]

STEP_POINTS = 0.1  # points per code unit
FLOOR_CODE = -80  # 8 points below the best: "not worth considering"
PRIOR_KINDS = ("heuristic",)
# game -> (module, class) of the heuristic bot whose ``last_values`` ([N, A], -inf where
# it evaluated nothing) the prior codes; the module also holds the bot's ``DEFAULTS``
HEURISTICS = {
    "spacemission": ("spacemission_agents.heuristic", "HeuristicAgent"),
    "red_planet": ("spacemission_agents.red_planet.heuristic", "HeuristicBot"),
}


class HeuristicPrior:
    """Per-action prior codes from the game's heuristic bot with ``params`` (module doc)."""

    kind = "heuristic"

    def __init__(self, params: dict | None = None, game: str = DEFAULT_GAME):
        if game not in HEURISTICS:
            raise ValueError(f"no heuristic prior for game {shown(game)}; games with one: {sorted(HEURISTICS)}")
        module = import_module(HEURISTICS[game][0])
        self.game = game
        self.num_actions = get_game(game).num_actions
        self.params = {**module.DEFAULTS, **(params or {})}
        self._agent = getattr(module, HEURISTICS[game][1])(seed=0, **self.params)
        self.observation_type = self._agent.observation_type

    def describe(self) -> dict:
        """What a saved model records to rebuild exactly this prior."""
        return {"kind": self.kind, "game": self.game, "params": dict(self.params), "step_points": STEP_POINTS,
                "floor_code": FLOOR_CODE}

    @classmethod
    def from_description(cls, desc: dict) -> "HeuristicPrior":
        if not isinstance(desc, dict) or desc.get("kind") not in PRIOR_KINDS:
            what = f"kind {shown(desc.get('kind'))}" if isinstance(desc, dict) else shown(desc)
            raise ValueError(f"unknown policy prior {what}; known kinds: {PRIOR_KINDS}")
        if desc.get("step_points") != STEP_POINTS or desc.get("floor_code") != FLOOR_CODE:
            raise ValueError(f"policy prior coded with step {shown(desc.get('step_points'))} and floor "
                             f"{shown(desc.get('floor_code'))}; this package codes step {STEP_POINTS}, floor "
                             f"{FLOOR_CODE}")
        params, game = desc.get("params"), desc.get("game", "spacemission")
        if params is not None and not isinstance(params, dict):
            raise ValueError(f"policy prior params must be an object of heuristic parameters, got {shown(params)}")
        if not isinstance(game, str):
            raise ValueError(f"policy prior game must be a game name, got {shown(game)}")
        return cls(params, game=game)

    def __call__(self, observations: np.ndarray, action_masks: np.ndarray) -> np.ndarray:
        """int8 codes [N, A] for int8 observations [N, D] and bool masks [N, A]."""
        masks = np.asarray(action_masks, dtype=np.bool_)
        if not len(masks):
            return np.full((0, self.num_actions), FLOOR_CODE, dtype=np.int8)
        self._agent.act_batch(observations, masks)
        return self._code(self._agent.last_values, masks)

    def shares_plans_with(self, bot: object) -> bool:
        """Whether ``bot`` (a heuristic bot) plans every decision as this prior's does: of the
        same class, parameters and seed, so that its plan values (``last_values``) for rows
        are the ones this prior would compute (PPOAgent._act_planned takes them)."""
        mine = self._agent
        same_class = type(bot) is type(mine)  # apart: in the condition a checker narrows ``mine`` to ``bot``'s object
        return same_class and getattr(bot, "params", None) == mine.params and getattr(bot, "_salt", None) == mine._salt

    def _code(self, last_values: np.ndarray, masks: np.ndarray) -> np.ndarray:
        """int8 codes [N, A] of the heuristic bot's plan values [N, A] (its ``last_values``:
        -inf where it evaluated nothing) for bool masks [N, A] with rows."""
        codes = np.full((len(masks), self.num_actions), FLOOR_CODE, dtype=np.int8)
        values = np.where(masks, last_values, -np.inf)
        best = values.max(axis=1, keepdims=True)
        evaluated = np.isfinite(best[:, 0])
        diff = np.clip(values - np.where(np.isfinite(best), best, 0.0), FLOOR_CODE * STEP_POINTS, 0.0)
        coded = np.rint(diff / STEP_POINTS)
        codes[evaluated] = np.where(np.isfinite(values[evaluated]), coded[evaluated], FLOOR_CODE).astype(np.int8)
        codes[~evaluated] = np.where(masks[~evaluated], 0, FLOOR_CODE).astype(np.int8)  # forced moves
        return codes


def prior_observation_type(game: str) -> str:
    """The observation type the game's heuristic prior reads (its bot's); ValueError for a game without one."""
    if game not in HEURISTICS:
        raise ValueError(f"no heuristic prior for game {shown(game)}; games with one: {sorted(HEURISTICS)}")
    module, name = HEURISTICS[game]
    return getattr(import_module(module), name).observation_type


def make_prior(kind: str, params: dict | None = None, game: str = DEFAULT_GAME) -> HeuristicPrior:
    if kind != "heuristic":
        raise ValueError(f"unknown policy prior {shown(kind)}; known: {', '.join(PRIOR_KINDS)}")
    return HeuristicPrior(params, game=game)
