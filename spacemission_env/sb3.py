"""Stable-Baselines3 ``VecEnv`` over the batched engine, for (Maskable)PPO against fixed opponents.

    from sb3_contrib import MaskablePPO
    from spacemission_env.sb3 import SpaceMissionVecEnv
    venv = SpaceMissionVecEnv(256, num_players=2, opponents=None, seed=0)   # RandomPolicy opponents
    model = MaskablePPO("MlpPolicy", venv).learn(100_000)

One learner seat per game (``seat="random"``: drawn per game and episode, or a fixed
int); the other seats are played by ``opponents`` (policies.py: None -> RandomPolicy,
one policy for every opponent seat, or a list of ``num_players - 1`` in seat order
after the learner). No subprocesses and no per-game Python objects: one
``step_wait`` plays the learner's action in every game, then lets the opponents act,
batched with ``act_batch`` per distinct policy, until it is a learner's turn again in
every game. A transition's reward is the learner's reward from its action up to its
next decision, including what the opponents' moves caused (the terminal reward of a
game an opponent ended, shaping).

SB3 conventions: ``reset()`` returns the observations only (int8 ``[N, D]``); games
that end are reset automatically inside ``step_wait``, which then returns the new
game's first observation, ``done=True`` and ``infos[i]["terminal_observation"]`` (the
learner's last observation of the ended game) plus ``"TimeLimit.truncated"`` (True
when the game was cut at ``max_rounds``), ``"scores"`` (final breakdown of every seat),
``"seat"`` and ``"is_success"`` (the learner won, ties included).
``action_masks()`` returns bool ``[N, 100]``, also through ``env_method("action_masks")``
(what sb3_contrib's ``get_action_masks`` calls). Seeding: ``seed(s)`` (SB3) or the
``seed`` argument, applied at the next ``reset()``; it seeds the game seeds, the seat
draws and every opponent that has a ``seed`` method. Illegal learner actions raise
ValueError (use MaskablePPO or the masks).
"""
from __future__ import annotations

from typing import Any

import numpy as np
from gymnasium import spaces
from stable_baselines3.common.vec_env import VecEnv

from . import engine
from .actions import NUM_ACTIONS
from .pettingzoo_env import SCORE_NAMES, check_config, observation_box
from .policies import resolve_opponents, seed_policies
from .rewards import RewardFunction, score_view
from .vector import SEED_HIGH, check_num_envs, check_seat, check_seed


class SpaceMissionVecEnv(VecEnv):
    """N games, one learner seat each, opponents stepped in batch (module doc)."""

    def __init__(self, num_envs: int, num_players: int = 2, opponents=None, seat="random", rules: str = "yucata",
                 max_rounds: int = 100, observation_type: str = "info", reward: str = "win", shaping: bool = False,
                 gamma: float = 1.0, seed: int | None = None, render_mode: str | None = None):
        num_envs = check_num_envs(num_envs)
        check_config(num_players, rules, max_rounds, observation_type)
        if render_mode not in (None, "rgb_array", "ansi"):
            raise ValueError(f"unknown render_mode {render_mode!r}; expected None, 'ansi' or 'rgb_array'")
        self.num_players = int(num_players)
        self.rules = rules
        self.max_rounds = int(max_rounds)
        self.observation_type = observation_type
        self.seat = check_seat(seat, self.num_players)
        self.opponents = resolve_opponents(opponents, self.num_players)
        self.reward_fn = RewardFunction(reward, shaping, gamma)
        self.render_mode = render_mode
        super().__init__(num_envs, observation_box(observation_type), spaces.Discrete(NUM_ACTIONS))
        self._seeds[0] = check_seed(seed)
        self._rng = np.random.default_rng(self._seeds[0])
        self._st = None
        self._actions = None
        self._mask = np.zeros((num_envs, NUM_ACTIONS), dtype=np.bool_)  # the learners' masks
        self._opp_mask = np.zeros((num_envs, NUM_ACTIONS), dtype=np.bool_)
        self.seats = np.zeros(num_envs, dtype=np.int64)
        distinct = {id(p): p for p in self.opponents}
        self._policies = list(distinct.values())
        # _opp_table[k] = index into _policies of the opponent k seats after the learner
        # (the last entry, k = num_players - 1, is the learner's own seat: no policy)
        self._opp_table = np.array([list(distinct).index(id(p)) for p in self.opponents] + [-1], dtype=np.int64)

    # --- core -----------------------------------------------------------------------------
    def _draw_seats(self, rows: np.ndarray) -> None:
        if self.seat == "random":
            self.seats[rows] = self._rng.integers(0, self.num_players, size=len(rows))
        else:
            self.seats[rows] = self.seat

    def reset(self):
        if self._seeds[0] is not None:
            self._rng = np.random.default_rng(self._seeds[0])
            seed_policies(self.opponents, np.random.SeedSequence(self._seeds[0]))
        self._reset_seeds()
        self._reset_options()
        seeds = self._rng.integers(0, SEED_HIGH, size=self.num_envs, dtype=np.int64)
        self._st = engine.init(self.num_envs, self.num_players, seeds=seeds, rules=self.rules, max_rounds=self.max_rounds)
        self._draw_seats(np.arange(self.num_envs))
        self._run_opponents(np.zeros(self.num_envs, dtype=np.float32))
        engine.legal_action_mask(self._st, out=self._mask)
        self.reset_infos = [{"seat": int(s)} for s in self.seats]
        return engine.observe(self._st, observation_type=self.observation_type)

    def _run_opponents(self, rewards: np.ndarray) -> None:
        """Opponents act until every running game waits for its learner; adds the
        learner's rewards to ``rewards``. Each round of moves masks and steps only the
        games whose opponent is to act (the engine's ``select``)."""
        st = self._st
        rf = self.reward_fn
        actions = np.zeros(self.num_envs, dtype=np.int64)
        rows_all = np.arange(self.num_envs)
        mask = self._opp_mask
        while True:
            cp = st.current_player.astype(np.int64)
            need = (cp != self.seats) & ~st.terminated
            if not need.any():
                return
            which = self._opp_table[(cp - self.seats - 1) % self.num_players]
            obs = None
            phi = rf.before(st)
            engine.legal_action_mask(st, out=mask, select=need)
            for k, policy in enumerate(self._policies):
                rows = np.flatnonzero(need & (which == k))
                if rows.size == 0:
                    continue
                if getattr(policy, "uses_observation", True):
                    if obs is None:
                        obs = engine.observe(st, observation_type=self.observation_type)
                    o = obs[rows]
                else:
                    o = np.zeros((rows.size, 0), dtype=np.int8)
                chosen = np.asarray(policy.act_batch(o, mask[rows])).reshape(-1)
                if chosen.shape != rows.shape or not mask[rows, chosen].all():
                    bad = rows[0] if chosen.shape != rows.shape else rows[np.flatnonzero(~mask[rows, chosen])[0]]
                    raise ValueError(f"opponent {policy!r} returned an illegal action in game {int(bad)}")
                actions[rows] = chosen
            engine.step(st, actions, select=need)  # checked against the mask above
            r = rf.after(st, need, cp, phi)
            rewards += r[rows_all, self.seats]

    def step_async(self, actions: np.ndarray) -> None:
        self._actions = actions

    def step_wait(self):
        st = self._st
        if st is None:
            raise ValueError("call reset() before step()")
        actions = np.asarray(self._actions).reshape(-1)
        if actions.shape != (self.num_envs,):
            raise ValueError(f"actions must have shape ({self.num_envs},), got {actions.shape}")
        rf = self.reward_fn
        rows_all = np.arange(self.num_envs)
        running = np.ones(self.num_envs, dtype=np.bool_)  # every game is at its learner's decision
        phi = rf.before(st)
        actions = actions.astype(np.int64)
        legal = (actions >= 0) & (actions < NUM_ACTIONS)
        legal[legal] = self._mask[rows_all[legal], actions[legal]]
        if not legal.all():
            bad = int(np.flatnonzero(~legal)[0])
            raise ValueError(f"game {bad}: learner action {int(actions[bad])} is not legal now "
                             f"(legal: {np.flatnonzero(self._mask[bad]).tolist()})")
        engine.step(st, actions)  # checked against the learners' masks above
        rewards = rf.after(st, running, self.seats, phi)[rows_all, self.seats]
        self._run_opponents(rewards)
        dones = st.terminated.copy()
        infos: list[dict[str, Any]] = [{} for _ in range(self.num_envs)]
        if dones.any():
            rows = np.flatnonzero(dones)
            seats = self.seats[rows]
            final_obs = engine.observe(st, player=self.seats, observation_type=self.observation_type)[rows]
            view = score_view(st, rows)
            sc = engine.scores(view)
            rank = engine.rewards(view)
            won = rank[np.arange(rows.size), seats] >= rank.max(axis=1)
            truncated = st.round_limit[rows]
            for j, i in enumerate(rows.tolist()):  # info dicts are per game by SB3's convention
                infos[i] = {
                    "terminal_observation": final_obs[j],
                    "TimeLimit.truncated": bool(truncated[j]),
                    "scores": [dict(zip(SCORE_NAMES, map(int, s))) for s in sc[j]],
                    "seat": int(seats[j]),
                    "is_success": bool(won[j]),
                }
            engine.reset_finished(st, self._rng.integers(0, SEED_HIGH, size=self.num_envs, dtype=np.int64))
            self._draw_seats(rows)
            self._run_opponents(np.zeros(self.num_envs, dtype=np.float32))  # new games' openings: reward 0
        engine.legal_action_mask(st, out=self._mask)
        obs = engine.observe(st, observation_type=self.observation_type)
        return obs, rewards.astype(np.float32), dones, infos

    def action_masks(self) -> np.ndarray:
        """bool [N, 100]: the learners' legal actions."""
        return self._mask.copy()

    # --- VecEnv plumbing -------------------------------------------------------------------
    def close(self) -> None:
        self._st = None

    def get_images(self):
        if self.render_mode != "rgb_array":
            return [None] * self.num_envs
        from .render import render_rgb

        return [render_rgb(engine.to_reference(self._st, i)) for i in range(self.num_envs)]

    def render(self, mode: str | None = None):
        mode = mode or self.render_mode
        if mode == "ansi":
            from .render import render_ansi

            return render_ansi(engine.to_reference(self._st, 0))
        return super().render(mode)

    def get_attr(self, attr_name: str, indices=None) -> list[Any]:
        """Attributes are shared by all games, except ``seats`` (per game)."""
        idx = list(self._get_indices(indices))
        if attr_name == "seats":
            return [int(self.seats[i]) for i in idx]
        value = getattr(self, attr_name)
        return [value for _ in idx]

    def set_attr(self, attr_name: str, value: Any, indices=None) -> None:
        setattr(self, attr_name, value)

    def env_method(self, method_name: str, *method_args, indices=None, **method_kwargs) -> list[Any]:
        """``action_masks`` gives one row per game; other methods run once for all games."""
        idx = list(self._get_indices(indices))
        if method_name == "action_masks":
            masks = self.action_masks()
            return [masks[i] for i in idx]
        result = getattr(self, method_name)(*method_args, **method_kwargs)
        return [result for _ in idx]

    def env_is_wrapped(self, wrapper_class, indices=None) -> list[bool]:
        return [False for _ in self._get_indices(indices)]
