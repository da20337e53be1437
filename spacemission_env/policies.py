"""The opponent protocol shared by every interface, and the default random opponent.

A policy maps observations and legal-action masks to action ids (docs/actions.md):

* ``act(observation, action_mask) -> int`` for one decision: ``observation`` is the
  int8 vector ``[D]`` of ``engine.observe`` for the acting seat, ``action_mask`` a
  0/1 (bool or int8) vector ``[num_actions]`` (100 in Space Mission, 243 in Red Planet).
* ``act_batch(observations, action_masks) -> int[N]`` for ``N`` decisions at once
  (``[N, D]`` and ``[N, 100]``); the batched interfaces (``sb3.SpaceMissionVecEnv``)
  call only this one.

Both must return a legal action (mask 1); the environments reject anything else with
an error naming the policy and the action. The package's policies refuse masks with
values other than 0 and 1 (``check_masks``: a NaN or a 2 is an error, not a legal id).
Optional members, all read by the single-learner environments
(``gym_env.SpaceMissionEnv``, ``sb3.SpaceMissionVecEnv``):

* ``seed(seed)``: called from the environments' seeded ``reset`` so that seeding
  reaches the opponents too.
* ``bind(config)``: called once per distinct policy object when an environment is
  built, with a :class:`~spacemission_env.games.GameConfig` (``num_players``,
  ``rules``, ``max_rounds``), so that an agent can check that it fits the game (a
  trained model refuses a mismatching env by raising; the exception propagates
  unchanged out of the environment's constructor) or learn the configuration (a
  search bot). Called before ``observation_type`` is read, so ``bind`` may set it.
* ``observation_type``: which observation the policy is given, one of
  the game's observation types (e.g. ``"seer"`` for a teacher that sees everything);
  None or absent means the environment's own ``observation_type``. Checked when the
  environment is built (ValueError naming the policy and the value). Opponents always
  receive the engine's **int8** observation of their type, whatever the learner's
  ``observation_dtype``: a policy's input does not change with the learner's options.
* ``uses_observation = False`` for policies that look only at the mask, which lets
  the environments skip computing observations for them (they then pass an empty
  array: ``[0]`` to ``act``, ``[N, 0]`` to ``act_batch``).

Subclass :class:`BasePolicy` to write only one of ``act`` / ``act_batch``.
"""
from __future__ import annotations

from typing import Protocol, runtime_checkable

import numpy as np

import inspect

from .checks import SettingTypeError, is_int, shown
from .engine_common import check_masks  # noqa: F401  (re-exported: agents import it from here)
from .env_common import check_seed
from .games import DEFAULT_GAME, GameConfig, bind_players, get_game, not_a_config
from .space_mission import engine


@runtime_checkable
class Policy(Protocol):
    """Anything with ``act`` and ``act_batch`` is a policy (structural typing)."""

    # np.ndarray, not "| None": that would refuse a user's agent typed np.ndarray (test_typing.py); envs never pass None
    def act(self, observation: np.ndarray, action_mask: np.ndarray) -> int:
        """One decision: ``observation`` [D] (int8, of the policy's ``observation_type``)
        and ``action_mask`` bool [num_actions] in, a legal action id out."""
        ...

    def act_batch(self, observations: np.ndarray, action_masks: np.ndarray) -> np.ndarray:
        """Many decisions at once: ``observations`` [N, D] and ``action_masks`` bool
        [N, num_actions] in, int action ids [N] out (a legal one per row)."""
        ...


class BasePolicy:
    """Derives each method from the other: override ``act`` or ``act_batch``. The
    optional hooks are no-ops here and ``observation_type = None`` (the env's own)."""

    observation_type: str | None = None

    # None is accepted at run time but not annotated: "| None" would make a subclass's act typed np.ndarray an error
    def act(self, observation: np.ndarray, action_mask: np.ndarray) -> int:
        """``act_batch`` on a batch of one; ValueError unless the observation is one vector
        ``[D]`` (or None) and the mask one vector ``[num_actions]``, TypeError unless
        ``act_batch`` returns integer ids of shape ``(1,)`` (a float is not truncated)."""
        if type(self).act_batch is BasePolicy.act_batch:
            raise NotImplementedError("override act() or act_batch()")
        obs = None if observation is None else np.asarray(observation)
        mask = np.asarray(action_mask)
        if (obs is not None and obs.ndim != 1) or mask.ndim != 1:
            raise ValueError(f"{type(self).__name__}.act takes one observation [D] and one mask [num_actions], "
                             f"got shapes {None if obs is None else obs.shape} and {mask.shape}")
        answer = self.act_batch(None if obs is None else obs[None], mask[None])
        a = None if answer is None else np.asarray(answer)
        if a is None or a.dtype.kind not in "iu" or a.shape != (1,):  # nothing converted: 3.7 is not 3
            raise TypeError(f"{type(self).__name__}.act_batch returned {shown(answer)} for one decision; "
                            f"expected an integer array of shape (1,)")
        return int(a[0])

    def act_batch(self, observations: np.ndarray, action_masks: np.ndarray) -> np.ndarray:
        """``act`` row by row; TypeError unless each answer is an integer (Python or numpy,
        not a bool): nothing is converted."""
        if type(self).act is BasePolicy.act:
            raise NotImplementedError("override act() or act_batch()")
        obs = [None] * len(action_masks) if observations is None else observations
        actions = [self.act(o, m) for o, m in zip(obs, action_masks)]
        for a in actions:  # nothing converted: a float, bool or str is not an action id
            if not is_int(a):
                raise TypeError(f"{type(self).__name__}.act returned {shown(a)} ({type(a).__name__}); "
                                f"expected an integer action id")
        return np.array(actions, dtype=np.int64)

    def seed(self, seed: int | None = None) -> None:  # noqa: B027 - optional hook
        """Reseed the policy's randomness (no-op for deterministic policies)."""

    def bind(self, config: GameConfig) -> None:  # noqa: B027 - optional hook
        """Called by an environment with the game it plays (raise to refuse it)."""


class RandomPolicy(BasePolicy):
    """Random legal actions: the default opponent.

    ``RandomPolicy(seed=None, by_kind=False)`` (keyword-only, so that a number is never
    mistaken for a seat): ``seed`` (int or None) seeds a ``numpy`` generator;
    ``seed(s)`` reseeds it. Uniform over the legal ids by default; with
    ``by_kind=True`` uniform over the legal action kinds first, then over ids within
    the kind (``engine.sample_actions``), which plays games to their end far more often.
    Uniform sampling reads only the mask: each draw takes the sampler of the game whose
    action space has the mask's width, bound or not, so one object serves every game (one
    policy shared by envs of two games included). ``bind(config)`` checks the config and,
    with ``by_kind``, takes its game's sampler (a game without action kinds is a ValueError).
    """

    uses_observation = False

    def __init__(self, *, seed: int | None = None, by_kind: bool = False):
        if not isinstance(by_kind, (bool, np.bool_)):
            raise TypeError(f"RandomPolicy: by_kind must be True or False, got {shown(by_kind)}")
        self.by_kind = bool(by_kind)
        self._sample = engine.sample_actions
        self.seed(seed)

    def bind(self, config: GameConfig) -> None:
        """Take the sampler of ``config``'s game; TypeError for something that is not a
        configuration, ValueError for a player count the game does not have."""
        if not hasattr(config, "num_players"):
            raise not_a_config("RandomPolicy", config)
        game = get_game(getattr(config, "game", DEFAULT_GAME))
        bind_players(config, game.name, "RandomPolicy")  # a player count the game has
        sample = game.engine.sample_actions
        if self.by_kind and "by_kind" not in inspect.signature(sample).parameters:
            raise ValueError(f"RandomPolicy(by_kind=True): {config.game} has no action kinds to sample by")
        self._sample = sample

    def _draw(self, masks: np.ndarray) -> np.ndarray:
        if self.by_kind:
            return self._sample(masks, self._rng, by_kind=True)
        return _uniform_sampler(masks.shape[-1])(masks, self._rng)

    def seed(self, seed: int | None = None) -> None:
        """Reseed the generator (``None``: fresh entropy); ValueError for a bad seed."""
        self._rng = np.random.default_rng(check_seed(seed))

    def act(self, observation: np.ndarray, action_mask: np.ndarray) -> int:
        """A random legal id of ``action_mask`` (bool or 0/1 [num_actions]; the observation is
        not read). ValueError for a mask that is not one vector or has no legal action."""
        mask = np.asarray(action_mask)
        if mask.ndim != 1:
            raise ValueError(f"action mask must be one vector [num_actions], got shape {mask.shape}")
        if mask.dtype != np.bool_:
            mask = check_masks(mask[None])[0]  # 0/1 values only
        legal = mask.nonzero()[0]  # a 1-D bool array: np.flatnonzero's ravel costs more than the rest
        n = legal.size
        if n == 0:
            raise ValueError("the action mask has no legal action")
        if self.by_kind or mask.shape[0] not in _uniform_widths():  # the sampler's path (and its width error)
            return int(self._draw(mask[None])[0])
        # engine_common.sample_legal's draw on one row, without the batch path's checks and
        # buffers (a third of an opponent's move): the k-th legal id, k = floor(u * #legal),
        # u the generator's next double, as rng.random(1) would draw it
        return int(legal[min(int(self._rng.random() * n), n - 1)])

    def act_batch(self, observations: np.ndarray, action_masks: np.ndarray) -> np.ndarray:
        """A random legal id per row of ``action_masks`` [N, num_actions] (int64 [N]; the
        observations are not read). ValueError for a row without a legal action."""
        return self._draw(check_masks(action_masks))

    def __repr__(self) -> str:
        return f"RandomPolicy(by_kind={self.by_kind})" if self.by_kind else "RandomPolicy()"


_UNIFORM_SAMPLERS: dict = {}  # mask width -> sample_actions, filled as widths are met
_UNIFORM_WIDTHS: frozenset = frozenset()  # the games' action-space widths, filled at first use


def _uniform_widths() -> frozenset:
    """The mask widths that have a uniform sampler (one per game's action space)."""
    global _UNIFORM_WIDTHS
    if not _UNIFORM_WIDTHS:
        from .games import GAMES

        _UNIFORM_WIDTHS = frozenset(get_game(name).num_actions for name in GAMES)
    return _UNIFORM_WIDTHS


def _uniform_sampler(num_actions: int):
    """``sample_actions`` of the game whose action space is ``num_actions`` wide (Space
    Mission's for any other width: its error names the width it expects)."""
    sample = _UNIFORM_SAMPLERS.get(num_actions)
    if sample is None:
        from .games import GAMES

        for name in GAMES:
            game = get_game(name)
            if game.num_actions == num_actions:
                sample = _UNIFORM_SAMPLERS[num_actions] = game.engine.sample_actions
                break
        else:
            return engine.sample_actions
    return sample


def resolve_opponents(opponents, num_players: int) -> list:
    """The opponents argument of the single-learner interfaces as a list of
    ``num_players - 1`` policies: None -> RandomPolicy for every seat; one policy ->
    shared by every opponent seat; a sequence -> one per opponent seat, in seat order
    after the learner (``opponents[k]`` plays seat ``(learner + 1 + k) % num_players``).
    A list or tuple of another length raises ValueError; what is not a policy object
    (check_policy) SettingTypeError, a ValueError and a TypeError."""
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
        check_policy(p)
    return policies


def check_policy(p) -> None:
    """checks.SettingTypeError (a ValueError, as before, and a TypeError: a wrong type)
    naming ``p`` unless it is a policy object (act and act_batch): a str (an agent spec),
    a class, anything without those methods. A list of the wrong length, a value of the
    right type, is resolve_opponents' plain ValueError."""
    if isinstance(p, str):  # the env layer takes objects; specs are the agents package's
        raise SettingTypeError(f"opponent {shown(p)} is a string: opponents are policy objects; build one from an "
                               f"agent spec with spacemission_agents.make_agent({shown(p)}, game=...)")
    if inspect.isclass(p):  # its act/act_batch would be unbound: the first call failed far from here
        raise SettingTypeError(f"opponent {p.__qualname__} is a class, not a policy object: pass an instance "
                               f"({p.__qualname__}())")
    if not (callable(getattr(p, "act", None)) and callable(getattr(p, "act_batch", None))):
        raise SettingTypeError(f"opponent {shown(p)} does not implement the Policy protocol (act and act_batch); "
                               f"its type: {type(p).__name__}")


def note_opponent_failure(exc: BaseException, who: str) -> None:
    """Add to an exception raised inside an opponent's ``act``/``act_batch`` which
    opponent raised it, and that the env needs ``reset()`` (Python 3.11+ notes; the
    exception keeps its type). Python 3.10 has no ``add_note``: the note goes into the same
    ``__notes__`` list, which code can read there too (3.10's tracebacks do not print it)."""
    if not isinstance(exc, Exception):
        return
    note = f"raised by {who}; the environment needs reset()"
    add_note = getattr(exc, "add_note", None)
    if callable(add_note):
        add_note(note)
        return
    try:
        setattr(exc, "__notes__", [*getattr(exc, "__notes__", ()), note])  # 3.10's typeshed has no __notes__
    except (AttributeError, TypeError):  # an exception type that takes no attributes: its message alone
        pass


def seed_policies(policies, seed_sequence: np.random.SeedSequence) -> None:
    """Call ``seed`` on every distinct policy that has one, each with its own child seed; an
    exception it raises passes on with a note naming the policy."""
    distinct = list({id(p): p for p in policies}.values())
    for p, child in zip(distinct, seed_sequence.spawn(len(distinct))):
        fn = getattr(p, "seed", None)
        if callable(fn):
            try:
                fn(int(child.generate_state(1, np.uint64)[0] >> np.uint64(1)))
            except Exception as exc:
                note_opponent_failure(exc, f"seed() of opponent {shown(p)}")
                raise


def bind_policies(policies, config: GameConfig) -> None:
    """Call ``bind(config)`` once on every distinct policy that has one (exceptions propagate)."""
    for p in {id(p): p for p in policies}.values():
        fn = getattr(p, "bind", None)
        if callable(fn):
            fn(config)


def policy_observation_type(policy, default: str, observation_types: tuple[str, ...] | None = None) -> str:
    """The observation type ``policy`` asks for (its ``observation_type``), or ``default``;
    one of ``observation_types`` (Space Mission's when None)."""
    types = observation_types if observation_types is not None else get_game("spacemission").observation_types
    wanted = getattr(policy, "observation_type", None)
    if wanted is None:
        return default
    if not isinstance(wanted, str):  # before `in`: an array's `in` is numpy's error
        raise SettingTypeError(f"opponent {shown(policy)} asks for observation_type {shown(wanted)} "
                               f"({type(wanted).__name__}); expected None (the environment's own) or one of {types} "
                               f"(a str)")
    if wanted not in types:
        raise ValueError(f"opponent {shown(policy)} asks for observation_type {shown(wanted)}; "
                         f"expected None (the environment's own) or one of {types}")
    return wanted


def prepare_opponents(opponents, config: GameConfig, default_observation_type: str) -> tuple[list, list[str]]:
    """The single-learner environments' opponents: ``resolve_opponents``, then ``bind``
    every distinct policy to ``config``, then read each one's observation type.
    Returns (one policy per opponent seat, the observation type of each)."""
    policies = resolve_opponents(opponents, config.num_players)
    bind_policies(policies, config)
    types = get_game(config.game).observation_types
    return policies, [policy_observation_type(p, default_observation_type, types) for p in policies]
