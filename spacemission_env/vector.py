"""Batched self-play: ``VectorEnv`` plays N games at once, every seat chosen by the caller.

    from spacemission_env.vector import VectorEnv
    venv = VectorEnv(1024, num_players=3, reward="win", seed=0)
    obs, mask, player, infos = venv.reset()
    while training:
        actions = policy(obs, mask, player)           # one action per game, for its acting seat
        obs, mask, player, rewards, terminated, truncated, infos = venv.step(actions)

Every call acts once in every game: ``obs[i]`` (int8 ``[N, D]``) and ``mask[i]``
(bool ``[N, 100]``) belong to the seat ``player[i]`` that acts next in game i.
``rewards`` is float32 ``[N, P]``: what each seat earned by this step (rewards.py), so
a seat's return is the sum of its column over the game, whoever acted.

Auto-reset, **same-step** mode (Gymnasium's ``AutoresetMode.SAME_STEP``): when game
i ends in a step, that step returns ``terminated[i]`` / ``truncated[i]`` and the
final rewards, and already the first ``obs``/``mask``/``player`` of a new game in
slot i; the ended game is reported in ``infos``:

* ``infos["final_scores"]``: int16 ``[N, P, 8]`` score breakdown (jump_gate, stations,
  minerals, aliens, matter, water, medals, total), set for ended games, 0 elsewhere;
  ``infos["_final_scores"]``: bool ``[N]``, which games ended (Gymnasium's mask key).
* ``infos["episode_length"]``: int ``[N]`` actions played in the ended games.
* ``infos["final_observation"]``: int8 ``[N, P, D]`` every seat's last observation of
  the ended games, only with ``final_observation=True`` (for bootstrapping after a
  truncation; costs P extra observations of the batch on steps where a game ends).

So no step is spent on finished games and every returned row needs an action.
Seeding: ``seed`` (constructor) or ``reset(seed=...)`` seeds one generator that draws
the seeds of all games, the first ones and the auto-reset ones: same seed, same games.
Nothing here loops over games in Python: each call is a few engine kernels over the batch.
"""
from __future__ import annotations

import numpy as np

from . import engine
from .actions import NUM_ACTIONS
from .pettingzoo_env import check_config
from .rewards import RewardFunction, score_view

SEED_HIGH = 2**63  # game seeds are drawn in [0, 2**63)


def check_num_envs(num_envs) -> int:
    if isinstance(num_envs, bool) or not isinstance(num_envs, (int, np.integer)) or num_envs < 1:
        raise ValueError(f"num_envs must be a positive integer, got {num_envs!r}")
    return int(num_envs)


def check_seed(seed):
    if seed is not None and (isinstance(seed, bool) or not isinstance(seed, (int, np.integer)) or seed < 0):
        raise ValueError(f"seed must be a non-negative integer or None, got {seed!r}")
    return None if seed is None else int(seed)


def check_seat(seat, num_players: int):
    if seat == "random":
        return seat
    if isinstance(seat, bool) or not isinstance(seat, (int, np.integer)) or not 0 <= seat < num_players:
        raise ValueError(f"seat must be 'random' or a seat in 0..{num_players - 1}, got {seat!r}")
    return int(seat)


class VectorEnv:
    """N self-play games of one configuration over the batched engine (see module doc)."""

    autoreset_mode = "same_step"

    def __init__(self, num_envs: int, num_players: int = 2, rules: str = "yucata", max_rounds: int = 100,
                 observation_type: str = "info", reward: str = "win", shaping: bool = False, gamma: float = 1.0,
                 seed: int | None = None, final_observation: bool = False, check_actions: bool = True):
        self.num_envs = check_num_envs(num_envs)
        check_config(num_players, rules, max_rounds, observation_type)
        self.num_players = int(num_players)
        self.rules = rules
        self.max_rounds = int(max_rounds)
        self.observation_type = observation_type
        self.observation_size = engine.observation_size(observation_type)
        self.num_actions = NUM_ACTIONS
        self.reward_fn = RewardFunction(reward, shaping, gamma)
        self.final_observation = bool(final_observation)
        self.check_actions = bool(check_actions)
        self._rng = np.random.default_rng(check_seed(seed))
        self._st = None

    @property
    def state(self):
        """The engine's BatchState (read it, do not step it behind the env's back)."""
        if self._st is None:
            raise ValueError("call reset() first")
        return self._st

    def reset(self, seed: int | None = None):
        """New games in every slot; returns ``(obs, action_mask, current_player, infos)``."""
        if seed is not None:
            self._rng = np.random.default_rng(check_seed(seed))
        seeds = self._rng.integers(0, SEED_HIGH, size=self.num_envs, dtype=np.int64)
        self._st = engine.init(self.num_envs, self.num_players, seeds=seeds, rules=self.rules, max_rounds=self.max_rounds)
        self._lengths = np.zeros(self.num_envs, dtype=np.int64)
        return self._observe() + ({"seeds": seeds},)

    def _observe(self):
        st = self._st
        obs = engine.observe(st, observation_type=self.observation_type)
        return obs, engine.legal_action_mask(st), st.current_player.astype(np.int64)

    def step(self, actions):
        """One action per game for its acting seat; returns ``(obs, action_mask,
        current_player, rewards, terminated, truncated, infos)`` (module doc)."""
        st = self.state
        actions = np.asarray(actions)
        if actions.shape != (self.num_envs,):
            raise ValueError(f"actions must have shape ({self.num_envs},), got {actions.shape}")
        rf = self.reward_fn
        running = ~st.terminated  # all True between calls (same-step reset)
        actor = st.current_player.astype(np.intp)
        phi = rf.before(st)
        engine.step(st, actions)
        self._lengths += 1
        rewards = rf.after(st, running, actor, phi)
        truncated = st.round_limit.copy()
        terminated = st.terminated & ~truncated
        done = terminated | truncated
        infos: dict = {}
        if done.any():
            rows = np.flatnonzero(done)
            final_scores = np.zeros((self.num_envs, self.num_players, 8), dtype=np.int16)
            final_scores[rows] = engine.scores(score_view(st, rows))
            infos["final_scores"] = final_scores
            infos["_final_scores"] = done
            infos["episode_length"] = np.where(done, self._lengths, 0)
            infos["_episode_length"] = done
            if self.final_observation:
                final = np.zeros((self.num_envs, self.num_players, self.observation_size), dtype=np.int8)
                for p in range(self.num_players):  # a loop over seats, not games
                    final[done, p] = engine.observe(st, player=p, observation_type=self.observation_type)[done]
                infos["final_observation"] = final
                infos["_final_observation"] = done
            seeds = self._rng.integers(0, SEED_HIGH, size=self.num_envs, dtype=np.int64)
            engine.reset_finished(st, seeds)
            self._lengths[done] = 0
        obs, mask, player = self._observe()
        return obs, mask, player, rewards, terminated, truncated, infos

    def render(self, index: int = 0, mode: str = "ansi"):
        """Picture (``"rgb_array"``) or text (``"ansi"``) of game ``index``."""
        from .render import render_ansi, render_rgb

        if mode not in ("ansi", "rgb_array"):
            raise ValueError(f"unknown render mode {mode!r}; expected 'ansi' or 'rgb_array'")
        if not 0 <= index < self.num_envs:
            raise ValueError(f"index must be in 0..{self.num_envs - 1}, got {index}")
        state = engine.to_reference(self.state, index)
        return render_ansi(state) if mode == "ansi" else render_rgb(state)

    def close(self) -> None:
        self._st = None
