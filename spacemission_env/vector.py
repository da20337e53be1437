"""Batched self-play: ``VectorEnv`` plays N games at once, every seat chosen by the caller,
for every game (``game="spacemission"`` by default, ``"red_planet"``; games.py).

    from spacemission_env.vector import VectorEnv
    venv = VectorEnv(1024, num_players=3, reward="win", seed=0)
    obs, mask, player, infos = venv.reset()
    while training:
        actions = policy(obs, mask, player)           # one action per game, for its acting seat
        obs, mask, player, rewards, terminated, truncated, infos = venv.step(actions)

Every call acts once in every game: ``obs[i]`` (int8 ``[N, D]``; float32 with
``observation_dtype="float32"``) and ``mask[i]`` (bool ``[N, A]``, A the game's action
count: 100 in Space Mission, 243 in Red Planet; never an empty row) belong to the seat ``player[i]`` that acts next in game i.
``rewards`` is float32 ``[N, P]``: what each seat earned by this step (rewards.py), so
a seat's return is the sum of its column over the game, whoever acted.

Auto-reset, **same-step** mode (Gymnasium's ``AutoresetMode.SAME_STEP``): when game
i ends in a step, that step returns ``terminated[i] = True`` and the final rewards,
and already the first ``obs``/``mask``/``player`` of a new game in slot i; the ended
game is reported in ``infos``. Every end is a termination, the round limit included
(R-E3 ends and scores the game; nothing follows it, so no value may be bootstrapped
after it): ``truncated`` is always all False, kept for Gymnasium's tuple shape, and
``infos["round_limit"]`` tells which ended games reached the limit:

* ``infos["final_scores"]``: int16 ``[N, P, S]`` score breakdown, the game's
  ``score_names`` (Space Mission's 8: jump_gate, stations, minerals, aliens, matter,
  water, medals, total; Red Planet's 7), set for ended games, 0 elsewhere;
  ``infos["_final_scores"]``: bool ``[N]``, which games ended (Gymnasium's mask key).
* ``infos["round_limit"]``: bool ``[N]``, the ended games that reached ``max_rounds``
  (R-E3); ``infos["_round_limit"]`` = which games ended.
* ``infos["episode_length"]``: int ``[N]`` actions played in the ended games.
* ``infos["final_observation"]``: ``[N, P, D]`` every seat's last observation of
  the ended games, only with ``final_observation=True`` (costs P extra observations
  of the batch on steps where a game ends; the constructor's memory check counts them).
* ``infos["seeds"]``: int64 ``[N]`` the engine seed of the new game that the auto-reset
  started in each slot whose game ended (0 elsewhere; ``infos["_seeds"]`` = which), as
  ``reset()`` reports the first ones: the engine's ``init`` or the reference
  ``new_game`` with that seed and the env's configuration rebuilds the game.

These keys are present on the steps where some game ended.

So no step is spent on finished games and every returned row needs an action. Bad
actions (a non-integer array: TypeError; an id outside 0..A-1 or an illegal one:
ValueError naming the game) are rejected before any game changes.
Seeding: ``seed`` (constructor) or ``reset(seed=...)`` seeds one generator that draws
the seeds of all games, the first ones and the auto-reset ones: same seed, same games.
Nothing here loops over games in Python: each call is a few engine kernels over the batch.
"""
from __future__ import annotations

import numpy as np
import numpy.typing as npt

from .checks import check_memory, count_text, shown
from .env_base import EnvBase
from .games import check_render_mode
from .env_common import (
    Info,
    MIN_ENV_BYTES,
    MaskArray,
    ObsArray,
    RENDER_MODES,
    SEED_HIGH,
    action_batch,
    check_num_envs,
    check_seed,
)
from .rewards import score_view


class VectorEnv(EnvBase):
    """N self-play games of one configuration over the batched engine (see module doc)."""

    autoreset_mode = "same_step"
    metadata = {"render_modes": list(RENDER_MODES)}

    def __init__(self, num_envs: int, num_players: int | None = None, rules: str | None = None,
                 max_rounds: int | None = None, observation_type: str = "info", observation_dtype: str = "int8",
                 reward: str = "win", shaping: bool = False, gamma: float = 1.0, seed: int | None = None,
                 final_observation: bool = False, game: str = "spacemission"):
        self.num_envs = check_num_envs(num_envs)
        self._init_game(num_players, rules, max_rounds, observation_type, observation_dtype, reward, shaping, gamma,
                        game)
        self.single_observation_space = self._observation_box()  # one game's (Gymnasium's VectorEnv names)
        self.single_action_space = self._action_discrete()
        if not isinstance(final_observation, (bool, np.bool_)):
            raise TypeError(f"final_observation must be True or False, got {shown(final_observation)}")
        self.final_observation = bool(final_observation)
        if self.final_observation:  # a step where a game ends fills [N, P, D] of them: not in check_num_envs's 1 KiB
            per_game = MIN_ENV_BYTES + self.num_players * self.observation_size * self.observation_dtype.itemsize
            check_memory(f"num_envs={count_text(self.num_envs)} with final_observation=True: that many games need",
                         self.num_envs * per_game, "play fewer at once, or leave final_observation off",
                         " for their states and final observations")
        self._rng = np.random.default_rng(check_seed(seed))

    @property
    def state(self):
        """The engine's BatchState: the same as ``batch_state`` (the name every interface has)."""
        return self.batch_state

    def reset(self, seed: int | None = None) -> tuple[ObsArray, MaskArray, npt.NDArray[np.int64], Info]:
        """New games in every slot; returns ``(obs, action_mask, current_player, infos)``."""
        if seed is not None:
            self._rng = np.random.default_rng(check_seed(seed))
        seeds = self._rng.integers(0, SEED_HIGH, size=self.num_envs, dtype=np.int64)
        self._st = self._new_games(self.num_envs, seeds)
        self._lengths = np.zeros(self.num_envs, dtype=np.int64)
        return self._observe() + ({"seeds": seeds},)

    def _observe(self):
        st = self._st
        obs = self._typed(self.engine.observe(st, observation_type=self.observation_type))
        return obs, self.engine.legal_action_mask(st), st.current_player.astype(np.int64)

    def step(self, actions) -> tuple[ObsArray, MaskArray, npt.NDArray[np.int64], npt.NDArray[np.float32], MaskArray,
                                     MaskArray, Info]:
        """One action per game for its acting seat; returns ``(obs, action_mask,
        current_player, rewards, terminated, truncated, infos)`` (module doc)."""
        self._require_reset("step()")
        st = self._st
        actions = action_batch(actions, self.num_envs, num_actions=self.num_actions)
        rf = self.reward_fn
        running = ~st.terminated  # all True between calls (same-step reset)
        actor = st.current_player.astype(np.intp)
        phi = rf.before(st)
        self.engine.step(st, actions)  # raises naming the game on an illegal action, before any game changes
        self._lengths += 1
        rewards = rf.after(st, running, actor, phi)
        terminated = st.terminated.copy()
        truncated = np.zeros(self.num_envs, dtype=np.bool_)  # R-E3 is an end, not a time limit
        done = terminated
        infos: dict = {}
        if done.any():
            rows = np.flatnonzero(done)
            final_scores = np.zeros((self.num_envs, self.num_players, len(self.game.score_names)), dtype=np.int16)
            final_scores[rows] = self.engine.scores(score_view(st, rows))
            infos["final_scores"] = final_scores
            infos["_final_scores"] = done
            infos["round_limit"] = self.game.round_limit(st) & done
            infos["_round_limit"] = done
            infos["episode_length"] = np.where(done, self._lengths, 0)
            infos["_episode_length"] = done
            if self.final_observation:
                final = np.zeros((self.num_envs, self.num_players, self.observation_size), dtype=self.observation_dtype)
                for p in range(self.num_players):  # a loop over seats, not games
                    final[done, p] = self.engine.observe(st, player=p, observation_type=self.observation_type)[done]
                infos["final_observation"] = final
                infos["_final_observation"] = done
            seeds = self._rng.integers(0, SEED_HIGH, size=self.num_envs, dtype=np.int64)
            self.engine.reset_finished(st, seeds)
            self._lengths[done] = 0
            infos["seeds"] = np.where(done, seeds, 0)  # the new games' seeds, as reset() reports them
            infos["_seeds"] = done
        obs, mask, player = self._observe()
        return obs, mask, player, rewards, terminated, truncated, infos

    def render(self, index: int = 0, mode: str = "ansi"):
        """Game ``index`` as text (``"ansi"``), printed text (``"human"``, returns None)
        or a picture (``"rgb_array"``)."""
        check_render_mode(mode)  # Game.render's check, before the index (as SB3's render)
        if isinstance(index, (bool, np.bool_)) or not isinstance(index, (int, np.integer)):
            raise TypeError(f"index must be an integer game index in 0..{self.num_envs - 1}, got {shown(index)}")
        if not 0 <= index < self.num_envs:
            raise ValueError(f"index must be a game index in 0..{self.num_envs - 1}, got {shown(index)}")
        self._require_reset("render()")
        return self._render_game(int(index), mode)

    def close(self) -> None:
        """Drop the games (idempotent): ``step`` and ``render`` then raise, naming it, until ``reset()``."""
        self._close()
