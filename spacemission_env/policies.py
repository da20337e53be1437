"""The opponent protocol shared by every interface, and the default random opponent.

A policy maps observations and legal-action masks to action ids (docs/actions.md):

* ``act(observation, action_mask) -> int`` for one decision: ``observation`` is the
  int8 vector ``[D]`` of ``engine.observe`` for the acting seat, ``action_mask`` a
  0/1 (bool or int8) vector ``[100]``.
* ``act_batch(observations, action_masks) -> int[N]`` for ``N`` decisions at once
  (``[N, D]`` and ``[N, 100]``); the batched interfaces (``sb3.SpaceMissionVecEnv``)
  call only this one.

Both must return a legal action (mask 1). Optional members: ``seed(seed)``, which the
environments call from their ``reset(seed=...)`` so that seeding reaches the
opponents too; ``uses_observation = False`` for policies that look only at the mask,
which lets the batched environments skip computing observations for them (they
then pass an empty ``[N, 0]`` array). Subclass :class:`BasePolicy` to write only one of the two methods.
"""
from __future__ import annotations

from typing import Protocol, runtime_checkable

import numpy as np

from . import engine
from .actions import NUM_ACTIONS


@runtime_checkable
class Policy(Protocol):
    """Anything with ``act`` and ``act_batch`` is a policy (structural typing)."""

    def act(self, observation: np.ndarray, action_mask: np.ndarray) -> int: ...

    def act_batch(self, observations: np.ndarray, action_masks: np.ndarray) -> np.ndarray: ...


class BasePolicy:
    """Derives each method from the other: override ``act`` or ``act_batch``."""

    def act(self, observation: np.ndarray, action_mask: np.ndarray) -> int:
        if type(self).act_batch is BasePolicy.act_batch:
            raise NotImplementedError("override act() or act_batch()")
        return int(self.act_batch(np.asarray(observation)[None], np.asarray(action_mask)[None])[0])

    def act_batch(self, observations: np.ndarray, action_masks: np.ndarray) -> np.ndarray:
        if type(self).act is BasePolicy.act:
            raise NotImplementedError("override act() or act_batch()")
        obs = [None] * len(action_masks) if observations is None else observations
        return np.array([self.act(o, m) for o, m in zip(obs, action_masks)], dtype=np.int64)

    def seed(self, seed: int | None = None) -> None:  # noqa: B027 - optional hook
        """Reseed the policy's randomness (no-op for deterministic policies)."""


def check_masks(action_masks: np.ndarray) -> np.ndarray:
    """The masks as a 2-D bool array ``[N, 100]``; ValueError on a wrong shape."""
    masks = np.asarray(action_masks)
    if masks.ndim != 2 or masks.shape[1] != NUM_ACTIONS:
        raise ValueError(f"action masks must have shape [N, {NUM_ACTIONS}], got {masks.shape}")
    return masks.view(np.bool_) if masks.dtype in (np.int8, np.uint8) else masks.astype(np.bool_, copy=False)


class RandomPolicy(BasePolicy):
    """Random legal actions: the default opponent.

    ``RandomPolicy(seed, by_kind=False)``: ``seed`` (int or None) seeds a ``numpy``
    generator; ``seed(s)`` reseeds it. Uniform over the legal ids by default; with
    ``by_kind=True`` uniform over the legal action kinds first, then over ids within
    the kind (``engine.sample_actions``), which plays games to their end far more often.
    """

    uses_observation = False

    def __init__(self, seed: int | None = None, by_kind: bool = False):
        self.by_kind = bool(by_kind)
        self.seed(seed)

    def seed(self, seed: int | None = None) -> None:
        if seed is not None and (isinstance(seed, bool) or not isinstance(seed, (int, np.integer)) or seed < 0):
            raise ValueError(f"seed must be a non-negative integer or None, got {seed!r}")
        self._rng = np.random.default_rng(seed)

    def act(self, observation: np.ndarray, action_mask: np.ndarray) -> int:
        mask = np.asarray(action_mask)
        if mask.shape != (NUM_ACTIONS,):
            raise ValueError(f"action mask must have shape ({NUM_ACTIONS},), got {mask.shape}")
        if not mask.any():
            raise ValueError("the action mask has no legal action")
        return int(self.act_batch(None, mask[None])[0])

    def act_batch(self, observations: np.ndarray, action_masks: np.ndarray) -> np.ndarray:
        return engine.sample_actions(check_masks(action_masks), self._rng, by_kind=self.by_kind)

    def __repr__(self) -> str:
        return f"RandomPolicy(by_kind={self.by_kind})" if self.by_kind else "RandomPolicy()"


def resolve_opponents(opponents, num_players: int) -> list:
    """The opponents argument of the single-learner interfaces as a list of
    ``num_players - 1`` policies: None -> RandomPolicy for every seat; one policy ->
    shared by every opponent seat; a sequence -> one per opponent seat, in seat order
    after the learner (``opponents[k]`` plays seat ``(learner + 1 + k) % num_players``)."""
    n = num_players - 1
    if opponents is None:
        return [RandomPolicy()] * n
    if isinstance(opponents, (list, tuple)):
        if len(opponents) != n:
            raise ValueError(f"opponents must list {n} policies for {num_players} players, got {len(opponents)}")
        policies = list(opponents)
    else:
        policies = [opponents] * n
    for p in policies:
        if not (callable(getattr(p, "act", None)) and callable(getattr(p, "act_batch", None))):
            raise ValueError(f"opponent {p!r} does not implement the Policy protocol (act and act_batch)")
    return policies


def seed_policies(policies, seed_sequence: np.random.SeedSequence) -> None:
    """Call ``seed`` on every distinct policy that has one, each with its own child seed."""
    distinct = list({id(p): p for p in policies}.values())
    for p, child in zip(distinct, seed_sequence.spawn(len(distinct))):
        fn = getattr(p, "seed", None)
        if callable(fn):
            fn(int(child.generate_state(1, np.uint64)[0] >> np.uint64(1)))
