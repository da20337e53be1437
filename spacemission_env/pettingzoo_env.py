"""# Space Mission (PettingZoo AEC)

Turn-based board game for 2-5 players (docs/rules.md), as a PettingZoo AEC environment in
the style of the classic environments, over the fast batched engine (a batch of one).

    from spacemission_env.pettingzoo_env import env
    e = env(num_players=3, rules="yucata", max_rounds=100, reward="win")
    e.reset(seed=0)
    for agent in e.agent_iter():
        obs, reward, terminated, truncated, info = e.last()
        action = None if terminated or truncated else policy(obs["observation"], obs["action_mask"])
        e.step(action)

| | |
|---|---|
| Import | `from spacemission_env.pettingzoo_env import env` |
| Registry id | `pettingzoo.make("aec", "SpaceMission-v0")` |
| Actions | Discrete |
| Parallel API | No |
| Agents | `player_0` .. `player_{n-1}`, n = `num_players` in 2..5 |
| Action Shape | () |
| Action Values | Discrete(100): 0-31 top_up, 32-71 jump, 72-73 fly, 74-78 scan, 79-88 develop, 89 discover, 90-99 tile |
| Observation Shape | `observation`: (677,), `action_mask`: (100,) |
| Observation Values | `observation`: int8 [0, 127], `action_mask`: int8 [0, 1] |
| Rewards | `win`: rank reward in [-1, 1] at the end; `score`: (own - mean others) / 50 at the end; optional shaping |

* A turn is two actions (R-T2); scan, develop and discover are followed by a tile
  decision (actions 90-99). The acting agent keeps ``agent_selection`` for all of
  them, so the same agent may be selected several times in a row.
* ``observation`` is ``engine.observe`` for that agent's seat (docs/observation.md),
  the same for acting and waiting agents; ``action_mask`` is the acting agent's legal
  actions and all zeros for every other agent.
* Rewards (rewards.py): ``reward="win"`` rank rewards at the end (2 players +1/-1,
  0 on a shared win; 3-5 players zero-sum by rank in [-1, 1], ties averaged);
  ``reward="score"``: (own - mean of others) / 50 at the end; ``shaping=True`` adds
  potential-based shaping with the provisional score / 50 as potential. Every agent
  gets its reward in ``rewards`` on the step that caused it and collects the sum
  through ``last()`` when next selected (PettingZoo's ``_cumulative_rewards``).
* The game ends by R-E1 (terminations) or at ``max_rounds`` (R-E3, truncations);
  then every agent is selected once more to receive its final reward and must
  step ``None``. ``infos[agent]["scores"]`` then holds its final score breakdown.
* ``env()`` adds PettingZoo's classic wrappers: an illegal action ends the game with
  -1 for the offender and 0 for the others (TerminateIllegalWrapper), out-of-range
  actions assert, and call order is enforced. ``raw_env`` raises ``ValueError`` on
  an illegal action instead.
* Seeding: ``reset(seed=s)`` seeds a generator that draws each game's engine seed,
  so ``reset(seed=s)`` followed by plain ``reset()`` calls replays the same games.

Registration: ``import spacemission_env`` registers ``"SpaceMission-v0"`` with
PettingZoo's registry (PettingZoo >= 1.27): ``pettingzoo.make("aec", "SpaceMission-v0")``
(see ``gym_env.register_envs``).
"""
from __future__ import annotations

import operator

import gymnasium
import numpy as np
from gymnasium import spaces
from gymnasium.utils import EzPickle
from pettingzoo import AECEnv
from pettingzoo.utils import wrappers

from . import engine
from .actions import NUM_ACTIONS, action_table
from .config import check_game_config
from .encoding import OBSERVATION_TYPES
from .rewards import RewardFunction
from .scoring import SCORE_KEYS

OBS_LOW, OBS_HIGH = 0, 127  # every observation feature is a count, flag or clipped number (encoding.py)
SCORE_NAMES = SCORE_KEYS  # keys of infos[agent]["scores"]


def check_config(num_players, rules, max_rounds, observation_type) -> None:
    """ValueError naming the first bad configuration argument."""
    check_game_config(num_players, rules, max_rounds)
    if observation_type not in OBSERVATION_TYPES:
        raise ValueError(f"unknown observation_type {observation_type!r}; expected one of {OBSERVATION_TYPES}")


def observation_box(observation_type: str = "info") -> spaces.Box:
    return spaces.Box(OBS_LOW, OBS_HIGH, shape=(engine.observation_size(observation_type),), dtype=np.int8)


def spaces_table(num_players: int = 2, observation_type: str = "info") -> str:
    """The markdown table of agents, spaces and rewards, generated from the real spaces
    (the module docstring and docs/interfaces.md are tested against it)."""
    e = raw_env(num_players=num_players, observation_type=observation_type)
    agent = e.possible_agents[0]
    obs_space = e.observation_space(agent)
    box, mask = obs_space["observation"], obs_space["action_mask"]
    rows = [
        ("Import", "`from spacemission_env.pettingzoo_env import env`"),
        ("Registry id", "`pettingzoo.make(\"aec\", \"SpaceMission-v0\")`"),
        ("Actions", "Discrete"),
        ("Parallel API", "No"),
        ("Agents", "`player_0` .. `player_{n-1}`, n = `num_players` in 2..5"),
        ("Action Shape", "()"),
        ("Action Values", f"Discrete({e.action_space(agent).n}): " + ", ".join(f"{ids} {kind}" for ids, kind, _ in action_table())),
        ("Observation Shape", f"`observation`: {box.shape}, `action_mask`: {mask.shape}"),
        ("Observation Values", f"`observation`: {box.dtype} [{int(box.low.min())}, {int(box.high.max())}], `action_mask`: {mask.dtype} [0, 1]"),
        ("Rewards", "`win`: rank reward in [-1, 1] at the end; `score`: (own - mean others) / 50 at the end; optional shaping"),
    ]
    lines = ["| | |", "|---|---|"] + [f"| {k} | {v} |" for k, v in rows]
    return "\n".join(lines)


def env(**kwargs):
    """The AEC environment with PettingZoo's classic wrappers (illegal action: -1, game over)."""
    e = raw_env(**kwargs)
    e = TerminateIllegalWrapper(e, illegal_reward=-1)
    e = AssertOutOfBoundsWrapper(e)
    e = OrderEnforcingWrapper(e)
    return e


# --- PettingZoo's wrappers, with direct forwarding of the hot attributes -----------------
# BaseWrapper reaches the wrapped env's attributes through __getattr__, which costs a
# chain of failed lookups per access and wrapper (half the time of a random-play step).
# These subclasses change nothing but that: the per-step attributes are properties that
# read the unwrapped env directly. Behaviour (illegal-move termination, bounds assertion,
# call-order checks) is PettingZoo's own.
_HOT = ("agent_selection", "agents", "terminations", "truncations", "rewards", "infos", "_cumulative_rewards")


def _forwarding(base, checked: bool):
    def prop(name):
        if checked:  # OrderEnforcingWrapper: AttributeError before reset, via its __getattr__
            def get(self):
                if not self._has_reset:
                    raise AttributeError(name)
                return getattr(self._raw, name)
        else:
            def get(self):
                return getattr(self._raw, name)
        return property(get)

    def __init__(self, env, *args, **kwargs):
        self._raw = env.unwrapped
        base.__init__(self, env, *args, **kwargs)

    def action_space(self, agent):
        return self._raw.action_spaces[agent]

    def observation_space(self, agent):
        return self._raw.observation_spaces[agent]

    def __str__(self):
        return str(self.env)

    ns = {name: prop(name) for name in _HOT}
    ns.update(__init__=__init__, action_space=action_space, observation_space=observation_space, __str__=__str__,
              __doc__=base.__doc__, __module__=__name__)
    return type(base.__name__, (base,), ns)


TerminateIllegalWrapper = _forwarding(wrappers.TerminateIllegalWrapper, checked=False)
AssertOutOfBoundsWrapper = _forwarding(wrappers.AssertOutOfBoundsWrapper, checked=False)
OrderEnforcingWrapper = _forwarding(wrappers.OrderEnforcingWrapper, checked=True)


class raw_env(AECEnv, EzPickle):
    """Space Mission AEC environment without wrappers (illegal actions raise ValueError)."""

    metadata = {"name": "spacemission_v0", "render_modes": ["ansi", "rgb_array"], "is_parallelizable": False, "render_fps": 1}

    def __init__(self, num_players: int = 2, rules: str = "yucata", max_rounds: int = 100, reward: str = "win",
                 shaping: bool = False, gamma: float = 1.0, observation_type: str = "info", render_mode: str | None = None):
        EzPickle.__init__(self, num_players=num_players, rules=rules, max_rounds=max_rounds, reward=reward, shaping=shaping,
                          gamma=gamma, observation_type=observation_type, render_mode=render_mode)
        super().__init__()
        check_config(num_players, rules, max_rounds, observation_type)
        if render_mode is not None and render_mode not in self.metadata["render_modes"]:
            raise ValueError(f"unknown render_mode {render_mode!r}; expected None or one of {self.metadata['render_modes']}")
        self.num_players = int(num_players)
        self.rules = rules
        self.max_rounds = int(max_rounds)
        self.observation_type = observation_type
        self.render_mode = render_mode
        self._reward_fn = RewardFunction(reward, shaping, gamma)
        self.reward_mode = reward
        self.possible_agents = [f"player_{i}" for i in range(self.num_players)]
        self._seat = {a: i for i, a in enumerate(self.possible_agents)}
        self.observation_spaces = {
            a: spaces.Dict({"observation": observation_box(observation_type),
                            "action_mask": spaces.Box(0, 1, shape=(NUM_ACTIONS,), dtype=np.int8)})
            for a in self.possible_agents
        }
        self.action_spaces = {a: spaces.Discrete(NUM_ACTIONS) for a in self.possible_agents}
        d = engine.observation_size(observation_type)
        self._obs_bufs = [np.empty((1, d), dtype=np.int8) for _ in range(self.num_players)]  # one per seat
        self._mask_buf = np.zeros((1, NUM_ACTIONS), dtype=np.bool_)
        self._action = np.zeros(1, dtype=np.int64)
        self._seat_arr = np.zeros(1, dtype=np.int64)
        self._running = np.ones(1, dtype=np.bool_)
        self._seed_rng: np.random.Generator | None = None
        self._st = None
        self._obs_fresh = [False] * self.num_players  # _obs_bufs[seat] holds the current state's view
        self._rewards_zero = True

    # --- spaces ------------------------------------------------------------------------
    def observation_space(self, agent):
        return self.observation_spaces[agent]

    def action_space(self, agent):
        return self.action_spaces[agent]

    # --- reset / observe -----------------------------------------------------------------
    def reset(self, seed: int | None = None, options: dict | None = None) -> None:
        if seed is not None:
            if isinstance(seed, bool) or not isinstance(seed, (int, np.integer)) or seed < 0:
                raise ValueError(f"seed must be a non-negative integer or None, got {seed!r}")
            self._seed_rng = np.random.default_rng(int(seed))
        elif self._seed_rng is None:
            self._seed_rng = np.random.default_rng()
        game_seed = int(self._seed_rng.integers(0, 2**63))
        self._st = engine.init(1, self.num_players, seeds=game_seed, rules=self.rules, max_rounds=self.max_rounds)
        self.game_seed = game_seed
        self.agents = self.possible_agents[:]
        self.rewards = {a: 0.0 for a in self.agents}
        self._rewards_zero = True
        self._cumulative_rewards = {a: 0.0 for a in self.agents}
        self.terminations = {a: False for a in self.agents}
        self.truncations = {a: False for a in self.agents}
        self.infos = {a: {} for a in self.agents}
        self._skip_agent_selection = None
        self._after_change()

    def _after_change(self) -> None:
        """Refresh the acting agent, its legal mask and the observation cache."""
        st = self._st
        self._obs_fresh = [False] * self.num_players
        self._over = bool(st.terminated[0])
        self._acting_seat = -1 if self._over else int(st.current_player[0])
        if not self._over:
            engine.legal_action_mask(st, out=self._mask_buf)
            self.agent_selection = self.possible_agents[st.current_player[0]]

    def observe(self, agent):
        seat = self._seat[agent]
        buf = self._obs_bufs[seat]
        if not self._obs_fresh[seat]:
            if seat == self._acting_seat:
                player = None  # the acting seat: the engine's cheapest path
            else:
                self._seat_arr[0] = seat
                player = self._seat_arr
            engine.observe(self._st, player=player, observation_type=self.observation_type, out=buf)
            self._obs_fresh[seat] = True
        if agent == self.agent_selection and not self._over:
            mask = self._mask_buf[0].view(np.int8).copy()
        else:
            mask = np.zeros(NUM_ACTIONS, dtype=np.int8)
        return {"observation": buf[0].copy(), "action_mask": mask}

    def action_mask(self, agent) -> np.ndarray:
        """The agent's legal-action mask as bool [100] (all False unless it is acting)."""
        if agent == self.agent_selection and not self._over:
            return self._mask_buf[0].copy()
        return np.zeros(NUM_ACTIONS, dtype=np.bool_)

    # --- step ------------------------------------------------------------------------------
    def step(self, action) -> None:
        agent = self.agent_selection
        if self.terminations[agent] or self.truncations[agent]:
            self._was_dead_step(action)
            return
        if action is None or isinstance(action, bool):
            raise ValueError(f"{agent} must play an action id in [0, {NUM_ACTIONS}), got {action!r}")
        try:
            a = operator.index(action)
        except TypeError:
            raise ValueError(f"action must be an integer, got {action!r}") from None
        if not 0 <= a < NUM_ACTIONS:
            raise ValueError(f"action {a} out of range [0, {NUM_ACTIONS})")
        if not self._mask_buf[0, a]:
            from .rules.game import action_label

            raise ValueError(f"action {a} ({action_label(a)}) is not legal for {agent} now; "
                             f"legal: {np.flatnonzero(self._mask_buf[0]).tolist()}")
        st = self._st
        seat = self._seat[agent]
        rf = self._reward_fn
        phi = rf.before(st)
        self._action[0] = a
        engine.step(st, self._action)  # legality checked above against the same mask
        self._cumulative_rewards[agent] = 0.0
        over = bool(st.terminated[0])
        if over or rf.shaping:
            r = rf.after(st, self._running, np.array([seat]), phi)[0]
            self.rewards = {q: float(r[i]) for i, q in enumerate(self.possible_agents)}
            self._rewards_zero = False
        elif not self._rewards_zero:  # nothing earned: keep (or restore) the all-zero dict
            self.rewards = {q: 0.0 for q in self.possible_agents}
            self._rewards_zero = True
        if over:
            truncated = bool(st.round_limit[0])
            scores = engine.scores(st)[0]
            for i, q in enumerate(self.possible_agents):
                self.terminations[q] = not truncated
                self.truncations[q] = truncated
                self.infos[q] = {"scores": dict(zip(SCORE_NAMES, map(int, scores[i])))}
        if not self._rewards_zero:
            self._accumulate_rewards()
        self._after_change()

    # --- render ------------------------------------------------------------------------------
    def reference_state(self):
        """The current game as a reference ``GameState`` (a copy)."""
        if self._st is None:
            raise ValueError("call reset() before reading the state")
        return engine.to_reference(self._st, 0)

    def render(self):
        if self.render_mode is None:
            gymnasium.logger.warn("You are calling render method without specifying any render mode.")
            return None
        from .render import render_ansi, render_rgb

        state = self.reference_state()
        return render_ansi(state) if self.render_mode == "ansi" else render_rgb(state)

    def close(self) -> None:
        pass

