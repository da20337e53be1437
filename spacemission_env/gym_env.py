"""Gymnasium single-agent environment ``"SpaceMission-v0"``: one learner seat, opponents inside ``step()``.

    import gymnasium, spacemission_env
    env = gymnasium.make("SpaceMission-v0", num_players=3, opponents=None, seat="random")
    obs, info = env.reset(seed=0)
    obs, reward, terminated, truncated, info = env.step(action)   # info["action_mask"]
    env.unwrapped.action_masks()                                    # bool [100], for MaskablePPO

The learner plays seat ``seat`` (``"random"``: drawn per episode from the env's
``np_random``; or a fixed int; ``reset(options={"seat": s})`` overrides it for one
episode). After each learner action the opponents (policies.py; None -> RandomPolicy)
act until it is the learner's turn again or the game is over, so every transition
carries the learner's own reward (rewards.py), including a loss caused by an
opponent's move. The observation is int8 ``[D]`` (engine.observe for the learner's
seat); ``terminated`` means the game ended by R-E1, ``truncated`` at ``max_rounds``.

An illegal learner action (``illegal_action``): ``"lose"`` (default, the PettingZoo
classic convention) ends the episode with ``illegal_reward`` (-1) and
``info["illegal_action"] = True``; ``"raise"`` raises ValueError. Seeding:
``reset(seed=s)`` seeds the env's ``np_random``, which draws the game seed and the
seat, and reseeds every opponent that has a ``seed`` method.
"""
from __future__ import annotations

import gymnasium
import numpy as np
from gymnasium import spaces

from . import engine
from .actions import NUM_ACTIONS
from .pettingzoo_env import SCORE_NAMES, check_config, observation_box
from .policies import resolve_opponents, seed_policies
from .rewards import RewardFunction
from .vector import check_seat

ENV_ID = "SpaceMission-v0"
PETTINGZOO_ID = "SpaceMission-v0"
ILLEGAL_ACTIONS = ("lose", "raise")


class SpaceMissionEnv(gymnasium.Env):
    """Space Mission for one learner against fixed opponents (module doc)."""

    metadata = {"render_modes": ["ansi", "rgb_array"], "render_fps": 1}

    def __init__(self, num_players: int = 2, opponents=None, seat="random", rules: str = "yucata", max_rounds: int = 100,
                 observation_type: str = "info", reward: str = "win", shaping: bool = False, gamma: float = 1.0,
                 illegal_action: str = "lose", illegal_reward: float = -1.0, render_mode: str | None = None):
        check_config(num_players, rules, max_rounds, observation_type)
        if illegal_action not in ILLEGAL_ACTIONS:
            raise ValueError(f"unknown illegal_action {illegal_action!r}; expected one of {ILLEGAL_ACTIONS}")
        if render_mode is not None and render_mode not in self.metadata["render_modes"]:
            raise ValueError(f"unknown render_mode {render_mode!r}; expected None or one of {self.metadata['render_modes']}")
        self.num_players = int(num_players)
        self.rules = rules
        self.max_rounds = int(max_rounds)
        self.observation_type = observation_type
        self.seat_option = check_seat(seat, self.num_players)
        self.opponents = resolve_opponents(opponents, self.num_players)
        self.reward_fn = RewardFunction(reward, shaping, gamma)
        self.illegal_action = illegal_action
        self.illegal_reward = float(illegal_reward)
        self.render_mode = render_mode
        self.observation_space = observation_box(observation_type)
        self.action_space = spaces.Discrete(NUM_ACTIONS)
        self._mask = np.zeros((1, NUM_ACTIONS), dtype=np.bool_)
        self._action = np.zeros(1, dtype=np.int64)
        self._running = np.ones(1, dtype=np.bool_)
        self._st = None
        self._episode_over = True
        self.seat = 0

    # --- helpers ------------------------------------------------------------------------
    def _over(self) -> bool:
        return bool(self._st.terminated[0])

    def _play(self, action: int) -> float:
        """Apply one action of the acting seat; the learner's reward of that step."""
        st = self._st
        actor = np.array([st.current_player[0]], dtype=np.intp)
        phi = self.reward_fn.before(st)
        self._action[0] = action
        engine.step(st, self._action)
        if not (self.reward_fn.shaping or self._over()):
            return 0.0
        return float(self.reward_fn.after(st, self._running, actor, phi)[0, self.seat])

    def _run_opponents(self) -> float:
        st = self._st
        reward = 0.0
        while not self._over() and st.current_player[0] != self.seat:
            cp = int(st.current_player[0])
            policy = self.opponents[(cp - self.seat - 1) % self.num_players]
            engine.legal_action_mask(st, out=self._mask)
            obs = engine.observe(st, observation_type=self.observation_type)[0]
            action = policy.act(obs, self._mask[0].copy())
            try:
                reward += self._play(int(action))
            except ValueError as exc:
                raise ValueError(f"opponent {policy!r} in seat {cp} chose an illegal action: {exc}") from None
        return reward

    def _result(self):
        st = self._st
        obs = engine.observe(st, player=self.seat, observation_type=self.observation_type)[0]
        if self._over():
            self._mask[:] = False
        else:
            engine.legal_action_mask(st, out=self._mask)
        info = {"action_mask": self._mask[0].copy(), "seat": self.seat}
        if self._over():
            scores = engine.scores(st)[0]
            info["scores"] = [dict(zip(SCORE_NAMES, map(int, s))) for s in scores]
        return obs, info

    # --- Gymnasium API --------------------------------------------------------------------
    def reset(self, *, seed: int | None = None, options: dict | None = None):
        super().reset(seed=seed)
        if seed is not None:
            seed_policies(self.opponents, np.random.SeedSequence(seed))
        seat = (options or {}).get("seat", self.seat_option)
        seat = check_seat(seat, self.num_players)
        self.seat = int(self.np_random.integers(self.num_players)) if seat == "random" else seat
        game_seed = int(self.np_random.integers(0, 2**63))
        self._st = engine.init(1, self.num_players, seeds=game_seed, rules=self.rules, max_rounds=self.max_rounds)
        self._episode_over = False
        self._run_opponents()  # opponents seated before the learner open the game
        return self._result()

    def step(self, action):
        if self._st is None or self._episode_over:
            raise ValueError("the episode is over (or never started): call reset()")
        try:
            a = int(action)
        except (TypeError, ValueError):
            raise ValueError(f"action must be an integer id in [0, {NUM_ACTIONS}), got {action!r}") from None
        if not (0 <= a < NUM_ACTIONS and self._mask[0, a]):
            if self.illegal_action == "raise":
                raise ValueError(f"action {a} is not legal now; legal: {np.flatnonzero(self._mask[0]).tolist()}")
            self._episode_over = True
            obs, info = self._result()
            self._mask[:] = False
            info["action_mask"][:] = False
            info["illegal_action"] = True
            return obs, self.illegal_reward, True, False, info
        reward = self._play(a)
        reward += self._run_opponents()
        truncated = bool(self._st.round_limit[0])
        terminated = bool(self._st.terminated[0]) and not truncated
        self._episode_over = terminated or truncated
        obs, info = self._result()
        return obs, reward, terminated, truncated, info

    def action_masks(self) -> np.ndarray:
        """bool [100]: the learner's legal actions now (MaskablePPO's hook)."""
        return self._mask[0].copy()

    def render(self):
        if self.render_mode is None:
            gymnasium.logger.warn("You are calling render method without specifying any render mode.")
            return None
        if self._st is None:
            raise ValueError("call reset() before render()")
        from .render import render_ansi, render_rgb

        state = engine.to_reference(self._st, 0)
        return render_ansi(state) if self.render_mode == "ansi" else render_rgb(state)


def register_envs() -> None:
    """Register ``"SpaceMission-v0"`` with Gymnasium (this single-agent env) and with
    PettingZoo's registry (the AEC env, PettingZoo >= 1.27). Idempotent; called by
    ``import spacemission_env``."""
    if ENV_ID not in gymnasium.registry:
        gymnasium.register(id=ENV_ID, entry_point="spacemission_env.gym_env:SpaceMissionEnv")
    try:
        import pettingzoo
    except ImportError:  # pragma: no cover - pettingzoo is a dependency
        return
    register = getattr(pettingzoo, "register", None)
    if register is not None and PETTINGZOO_ID not in pettingzoo.aec_registry:
        register("aec", PETTINGZOO_ID, entry_point="spacemission_env.pettingzoo_env:env")
