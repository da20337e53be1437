"""# Space Mission (PettingZoo AEC)

Turn-based board game for 2-5 players (docs/rules.md), as a PettingZoo AEC environment in
the style of the classic environments, over the fast batched engine (a batch of one).

    from spacemission_env.spacemission_v3 import env
    e = env(num_players=3, rules="yucata", max_rounds=100, reward="win")
    e.reset(seed=0)
    for agent in e.agent_iter():
        obs, reward, terminated, truncated, info = e.last()
        action = None if terminated or truncated else policy(obs["observation"], obs["action_mask"])
        e.step(action)

| | |
|---|---|
| Import | `from spacemission_env import spacemission_v3` |
| Registry id | `pettingzoo.make("aec", "SpaceMission-v3")` |
| Actions | Discrete |
| Parallel API | No |
| Agents | `player_0` .. `player_{n-1}`, n = `num_players` in 2..5 |
| Action Shape | () |
| Action Values | Discrete(100): 0-31 top_up, 32-71 jump, 72-73 fly, 74-78 scan, 79-88 develop, 89 discover, 90-99 tile |
| Observation Shape | `observation`: (1491,), `action_mask`: (100,) |
| Observation Values | `observation`: int8 [0, 127], `action_mask`: int8 [0, 1] |
| Rewards | `win`: rank reward in [-1, 1] at the end; `score`: (own - mean others) / 50 at the end, in [-4.42, 4.42]; optional shaping |

* A turn is two actions (R-T2); scan, develop and discover are followed by a tile
  decision (actions 90-99). The acting agent keeps ``agent_selection`` for all of
  them, so the same agent may be selected several times in a row.
* ``observation`` is ``engine.observe`` for that agent's seat (docs/observation.md),
  the same for acting and waiting agents; ``observation_dtype="float32"`` gives the
  same values as float32 (for networks that take floats). ``state()`` is the global
  state for centralised critics: seat 0's ``"seer"`` observation, in ``state_space``.
* Masks: ``action_mask`` (int8 [100], in the observation dict and in
  ``infos[agent]["action_mask"]``) is the acting agent's legal actions, never empty
  (top up is always legal). An agent with **no decision pending** (another agent
  acts, or the game is over) gets an all-ones mask: "no choice to make here", never a
  list of legal moves; it must not step (waiting) or steps ``None`` (game over). So a
  masked sampler run on any observation never meets an empty row.
* Rewards (rewards.py): ``reward="win"`` rank rewards at the end (2 players +1/-1,
  0 on a shared win; 3-5 players zero-sum by rank in [-1, 1], ties averaged);
  ``reward="score"``: (own - mean of others) / 50 at the end; ``shaping=True`` adds
  potential-based shaping with the provisional score / 50 as potential. Every agent
  gets its reward (a float) in ``rewards`` on the step that caused it and collects
  the sum through ``last()`` when next selected (PettingZoo's ``_cumulative_rewards``).
* The game ends by R-E1 or at ``max_rounds`` (R-E3); both are real ends of the game
  (R-E3 scores the game and nothing follows; the rounds left are in the observation),
  so every agent is **terminated**, never truncated: a learner that bootstrapped a
  value after the round limit would learn to stall towards it. ``infos[agent]``
  then holds ``"scores"`` (its final score breakdown), ``"round_limit"`` (True when
  R-E3 ended it) and ``"illegal_action"``; every agent is selected once more to
  receive its final reward and must step ``None``. Once every agent has left
  (``agents == []``), ``raw_env``'s ``step`` and ``last`` raise ValueError saying to call
  ``reset()``, the game unchanged; ``env()``'s wrapper answers ``step`` as PettingZoo's
  wrapper does, with its warning ("step() called after all agents are terminated or
  truncated") and nothing played.
* Illegal actions: ``raw_env`` raises ``ValueError`` naming the action and the legal
  ones (``illegal_action="raise"``); ``env()`` passes ``illegal_action="lose"``, the
  classic convention: the game ends, ``illegal_reward`` (-1.0; less its potential under
  shaping, docs/interfaces.md "Rewards") for the offender, 0.0
  for the others, ``infos[offender]["illegal_action"] = True``, scores as they stand.
  Either way an action of the wrong type (bool, float, str, None for the acting agent)
  raises ``TypeError`` and an id outside 0..99 ``ValueError``, naming the value, with
  the game unchanged.
* Copies: ``copy.copy``, ``copy.deepcopy`` and ``pickle`` give the same game at the
  same point (engine state and seeding generator included), wrapped or not, independent
  of the original. ``close()`` drops the game: later calls raise until ``reset()``.
* Seeding: ``reset(seed=s)`` seeds a generator that draws each game's engine seed,
  so ``reset(seed=s)`` followed by plain ``reset()`` calls replays the same games. A
  rejected seed changes nothing, ``env()``'s wrapper included (it stays un-reset).
* ``render_mode``: ``"ansi"`` (text), ``"human"`` (prints the text, also after every
  ``reset`` and ``step``), ``"rgb_array"``.

Registration: ``import spacemission_env`` registers ``"SpaceMission-v3"`` with
PettingZoo's registry (PettingZoo >= 1.27): ``pettingzoo.make("aec", "SpaceMission-v3")``
(see ``gym_env.register_envs``); ``spacemission_env.spacemission_v3`` is the versioned
module in PettingZoo's style (``env``, ``raw_env``). Versions: docs/versioning.md.
"""
from __future__ import annotations

import copy
from collections.abc import Callable
from typing import Any, Literal, TypeAlias, overload

import numpy as np
from gymnasium import logger, spaces
from pettingzoo import AECEnv
from pettingzoo.utils import wrappers

from .checks import shown
from .env_base import EnvBase
from .env_common import (
    Info,
    ObsArray,
    RENDER_MODES,
    action_id,
    check_render_mode,
    check_seed,
    legal_list,
    mask_box,
    no_decision_mask,
)
from .games import get_game


def spaces_table(num_players: int | None = None, observation_type: str = "info", game: str = "spacemission") -> str:
    """The markdown table of agents, spaces and rewards of a game, generated from the real
    spaces (the module docstrings and docs/interfaces.md are tested against it)."""
    e = raw_env(num_players=num_players, observation_type=observation_type, game=game)
    agent = e.possible_agents[0]
    obs_space = e.observation_space(agent)
    box, mask = obs_space["observation"], obs_space["action_mask"]
    d = e.description
    win, score = d.reward_range("win"), d.reward_range("score")
    scale = e.game.score_scale
    rows = [
        ("Import", f"`from spacemission_env import {d.versioned_name}`"),
        ("Registry id", f"`pettingzoo.make(\"aec\", \"{d.env_id}\")`"),
        ("Actions", "Discrete"),
        ("Parallel API", "No"),
        ("Agents", f"`player_0` .. `player_{{n-1}}`, n = `num_players` in {d.min_players}..{d.max_players}"),
        ("Action Shape", "()"),
        ("Action Values", f"Discrete({e.action_space(agent).n}): " + ", ".join(f"{row[0]} {row[1]}" for row in e.game.action_table())),
        ("Observation Shape", f"`observation`: {box.shape}, `action_mask`: {mask.shape}"),
        ("Observation Values", f"`observation`: {box.dtype} [{int(box.low.min())}, {int(box.high.max())}], `action_mask`: {mask.dtype} [0, 1]"),
        ("Rewards", f"`win`: rank reward in [{win[0]:g}, {win[1]:g}] at the end; `score`: (own - mean others) / {scale:g} "
                    f"at the end, in [{score[0]:g}, {score[1]:g}]; optional shaping"),
    ]
    lines = ["| | |", "|---|---|"] + [f"| {k} | {v} |" for k, v in rows]
    return "\n".join(lines)


class UnknownAgentError(KeyError):
    """An agent name that is not one of the env's ``possible_agents``: a KeyError, as
    PettingZoo's own dict lookups raise, whose message names the agent and the valid ones."""

    def __str__(self) -> str:  # KeyError's own would print the message in quotes
        return str(self.args[0]) if self.args else ""


# what last() returns, named once for raw_env's and the wrapper's overloads: with observe=True
# (the default) the observation, so a checker lets obs["action_mask"] through; with False None
LastWithObs: TypeAlias = tuple[dict[str, ObsArray], float, bool, bool, Info]
LastWithoutObs: TypeAlias = tuple[None, float, bool, bool, Info]
Last: TypeAlias = tuple[dict[str, ObsArray] | None, float, bool, bool, Info]


def env(**kwargs: Any) -> FastOrderEnforcingWrapper:
    """The AEC environment as PettingZoo's classic environments ship it: an illegal action
    ends the game with -1 for the offender (``illegal_action="lose"``; pass
    ``illegal_action="raise"`` to keep raw_env's ValueError) and PettingZoo's
    ``OrderEnforcingWrapper`` checks the call order (:class:`FastOrderEnforcingWrapper`)."""
    return wrap_env(raw_env, **kwargs)


def wrap_env(raw_class: Callable[..., raw_env], **kwargs: Any) -> FastOrderEnforcingWrapper:
    """``raw_class(**kwargs)`` wrapped as :func:`env` wraps raw_env (``illegal_action="lose"``
    unless given): the versioned modules build their own raw_env this way."""
    kwargs.setdefault("illegal_action", "lose")
    return FastOrderEnforcingWrapper(raw_class(**kwargs))


_HOT = ("agent_selection", "agents", "terminations", "truncations", "rewards", "infos", "_cumulative_rewards")


def _hot_property(name):
    def get(self):
        if not self._has_reset:
            raise AttributeError(f"{name} cannot be accessed before reset")
        return getattr(self._raw, name)
    return property(get)


class FastOrderEnforcingWrapper(wrappers.OrderEnforcingWrapper):
    """PettingZoo's ``OrderEnforcingWrapper`` with the same checks, reading the per-step
    attributes directly. ``BaseWrapper`` reaches the wrapped env's attributes through
    ``__getattr__``, a chain of failed lookups per access (half the time of a
    random-play step); here they are properties that read the unwrapped env
    (AttributeError before reset, as PettingZoo's own), and once reset, ``last`` and
    ``step`` of a directly wrapped ``raw_env`` call it without the generic detour
    (``AECEnv.last`` through five of those properties, ``BaseWrapper.step``)."""

    _has_reset: bool  # PettingZoo's BaseWrapper's flags (set by its reset and step)
    _has_updated: bool

    def __init__(self, env):
        self._raw = env.unwrapped
        self._direct = env is self._raw  # no other wrapper in between
        super().__init__(env)

    def reset(self, seed: int | None = None, options: dict | None = None) -> None:
        # PettingZoo's wrapper marks itself reset before the env resets: a rejected reset
        # (a bad seed) would leave a never-reset env looking reset, and later calls would
        # fail with raw AttributeErrors. Bad input changes nothing, the wrapper included.
        flags = self._has_reset, self._has_updated
        try:
            super().reset(seed=seed, options=options)
        except BaseException:
            self._has_reset, self._has_updated = flags
            raise

    # overloads (as raw_env's): last() has the observation, last(observe=False) None
    @overload
    def last(self, observe: Literal[True] = True) -> LastWithObs: ...
    @overload
    def last(self, observe: Literal[False]) -> LastWithoutObs: ...
    @overload
    def last(self, observe: bool = True) -> Last: ...
    def last(self, observe: bool = True) -> Last:
        if self._direct and self._has_reset:
            return self._raw.last(observe)
        return super().last(observe)

    def step(self, action) -> None:
        if self._direct and self._has_reset and self._raw.agents:
            self._has_updated = True
            self._raw.step(action)
        else:
            super().step(action)  # PettingZoo's errors and warnings

    def action_space(self, agent):
        return self._raw.action_space(agent)

    def observation_space(self, agent):
        return self._raw.observation_space(agent)

    def __str__(self):
        return str(self.env)

    def __copy__(self):
        """A full, independent copy of the wrapper and its env, as ``copy.deepcopy`` (raw_env's
        ``copy.copy`` is one too: env_base.EnvBase.__copy__)."""
        return copy.deepcopy(self)


for _name in _HOT:
    setattr(FastOrderEnforcingWrapper, _name, _hot_property(_name))


class raw_env(EnvBase, AECEnv):
    """The AEC environment of a game (``game=``, Space Mission by default) without
    wrappers (module doc). Illegal actions raise ValueError unless
    ``illegal_action="lose"`` (what ``env()`` passes)."""

    metadata = {"name": get_game("spacemission").description.versioned_name, "render_modes": list(RENDER_MODES),
                "is_parallelizable": False, "render_fps": 1}  # an instance's: its game's name

    def __init__(self, num_players: int | None = None, rules: str | None = None, max_rounds: int | None = None,
                 reward: str = "win", shaping: bool = False, gamma: float = 1.0, observation_type: str = "info",
                 observation_dtype: str = "int8", illegal_action: str = "raise", illegal_reward: float = -1.0,
                 render_mode: str | None = None, game: str = "spacemission"):
        super().__init__()
        self._init_game(num_players, rules, max_rounds, observation_type, observation_dtype, reward, shaping, gamma,
                        game)
        self.metadata = {**type(self).metadata, "name": self.description.versioned_name}
        self._no_decision = no_decision_mask(np.int8, self.num_actions)  # copied, never handed out itself
        self._init_illegal_action(illegal_action, illegal_reward)
        self.render_mode = check_render_mode(render_mode)
        self.possible_agents = [f"player_{i}" for i in range(self.num_players)]
        self._seat = {a: i for i, a in enumerate(self.possible_agents)}
        self.observation_spaces = {
            a: spaces.Dict({"observation": self._observation_box(), "action_mask": mask_box(self.num_actions)})
            for a in self.possible_agents
        }
        self.action_spaces = {a: self._action_discrete() for a in self.possible_agents}
        self.state_space = self._observation_box("seer")
        d = self.observation_size
        self._obs_bufs = [np.empty((1, d), dtype=np.int8) for _ in range(self.num_players)]  # one per seat
        self._obs_step = [-1] * self.num_players  # _obs_bufs[seat] holds the view of state number _obs_step[seat]
        self._next_obs = np.empty((1, d), dtype=np.int8)  # the acting seat's view after a fused step (swapped in)
        self._step_count = 0  # numbers the states of the env, for the observation cache
        self._mask_buf = np.zeros((1, self.num_actions), dtype=np.bool_)
        self._action = np.zeros(1, dtype=np.int64)
        self._seat_arr = np.zeros(1, dtype=np.int64)
        self._running = np.ones(1, dtype=np.bool_)
        self._seed_rng: np.random.Generator | None = None
        self._over = True
        self._acting_seat = -1
        self._rewards_zero = True

    # --- copies: the same game at the same point ------------------------------------------
    def __getstate__(self) -> dict:
        """Everything: configuration, engine state, seeding generator, bookkeeping. So
        ``pickle`` and ``copy.deepcopy`` give the same game at the same point (a
        rebuild from the constructor arguments, EzPickle's way, would lose the game)."""
        return self.__dict__.copy()

    def __setstate__(self, state: dict) -> None:
        self.__dict__.update(state)

    # --- spaces ------------------------------------------------------------------------
    def _seat_of(self, agent) -> int:
        """The seat of ``agent``; UnknownAgentError (a KeyError) naming it and the agents."""
        try:
            return self._seat[agent]
        except (KeyError, TypeError):  # TypeError: an unhashable name, e.g. a list
            raise UnknownAgentError(f"unknown agent {shown(agent)}; the agents are {self.possible_agents}") from None

    def observation_space(self, agent):
        """``agent``'s observation space: a Dict of ``observation`` (Box [D]) and
        ``action_mask`` (int8 [num_actions]). UnknownAgentError (a KeyError) for a name that
        is not one of ``possible_agents``."""
        self._seat_of(agent)  # UnknownAgentError for a name that is not an agent
        return self.observation_spaces[agent]

    def action_space(self, agent):
        """``agent``'s action space, Discrete(num_actions); UnknownAgentError for another name."""
        self._seat_of(agent)
        return self.action_spaces[agent]

    # --- reset / observe -----------------------------------------------------------------
    def reset(self, seed: int | None = None, options: dict | None = None) -> None:
        """Start a new game (nothing is returned, as in every AEC env: read ``last()``).
        ``seed`` (int or None) seeds the env's generator, which draws each game's deal;
        ``None`` continues it. ``options`` (a dict or None) is accepted and ignored: this env
        has none. TypeError / ValueError for a bad seed or options, the env unchanged."""
        if options is not None and not isinstance(options, dict):  # checked before any reseeding
            raise TypeError(f"options must be a dict or None, got {shown(options)}")
        # a dict's keys are ignored: this env has no options, and PettingZoo's api_test resets
        # with options={"options": 1}, expecting environments to ignore what they do not use
        if seed is not None:
            self._seed_rng = np.random.default_rng(check_seed(seed))
        elif self._seed_rng is None:
            self._seed_rng = np.random.default_rng()
        game_seed = int(self._seed_rng.integers(0, 2**63))
        self._st = self._new_games(1, game_seed)
        self.game_seed = game_seed
        self.agents = self.possible_agents[:]
        self.rewards = {a: 0.0 for a in self.agents}
        self._rewards_zero = True
        self._cumulative_rewards = {a: 0.0 for a in self.agents}
        self.terminations = {a: False for a in self.agents}
        self.truncations = {a: False for a in self.agents}
        self.infos = {a: {"action_mask": self._no_decision.copy()} for a in self.agents}
        self._skip_agent_selection = None
        self._acting_seat = -1
        self._after_change()
        self._render_if_human()

    def _after_change(self, fused: bool = False) -> None:
        """Refresh the acting agent, its legal mask (also in its info) and the observation
        cache. ``fused``: the engine's ``step_observe`` already wrote the mask into
        ``_mask_buf`` and the acting seat's observation into ``_next_obs``."""
        st = self._st
        self._step_count += 1  # every cached observation is now stale
        self._over = bool(st.terminated[0])
        if self._over:
            self._acting_seat = -1
            return
        cp = int(st.current_player[0])
        if fused:  # the acting seat's view is current: swap it in rather than copy it
            self._obs_bufs[cp], self._next_obs = self._next_obs, self._obs_bufs[cp]
            self._obs_step[cp] = self._step_count
        else:
            self.engine.legal_action_mask(st, out=self._mask_buf)
        agent = self.possible_agents[cp]
        self.agent_selection = agent
        self.infos[agent] = {"action_mask": self._mask_buf[0].view(np.int8).copy()}
        if self._acting_seat != cp and self._acting_seat != -1:  # the previous actor now waits
            self.infos[self.possible_agents[self._acting_seat]] = {"action_mask": self._no_decision.copy()}
        self._acting_seat = cp

    def observe(self, agent) -> dict[str, ObsArray]:
        """``agent``'s observation now: ``{"observation": [D], "action_mask": int8
        [num_actions]}`` (all ones when the agent has no decision pending; module doc).
        ValueError before ``reset()``, UnknownAgentError for a name that is no agent."""
        if self._st is None:
            raise ValueError(self._no_game_message("observe()"))
        seat = self._seat_of(agent)
        buf = self._obs_bufs[seat]
        if self._obs_step[seat] != self._step_count:
            if seat == self._acting_seat:
                player = None  # the acting seat: the engine's cheapest path
            else:
                self._seat_arr[0] = seat
                player = self._seat_arr
            self.engine.observe(self._st, player=player, observation_type=self.observation_type, out=buf)
            self._obs_step[seat] = self._step_count
        obs = buf[0].copy() if self.observation_dtype == np.int8 else buf[0].astype(self.observation_dtype)
        mask = self._mask_buf[0].view(np.int8).copy() if seat == self._acting_seat else self._no_decision.copy()
        return {"observation": obs, "action_mask": mask}

    def action_mask(self, agent) -> np.ndarray:
        """bool [num_actions]: the acting agent's legal actions; all True for an agent with
        no decision pending (another agent acts, or the game is over): see the module doc.
        ValueError before ``reset()`` and after ``close()``, as ``observe``."""
        if self._st is None:
            raise ValueError(self._no_game_message("action_mask()"))
        if self._seat_of(agent) == self._acting_seat:
            return self._mask_buf[0].copy()
        return no_decision_mask(num_actions=self.num_actions)

    # overloads (as raw_env's): last() has the observation, last(observe=False) None
    @overload
    def last(self, observe: Literal[True] = True) -> LastWithObs: ...
    @overload
    def last(self, observe: Literal[False]) -> LastWithoutObs: ...
    @overload
    def last(self, observe: bool = True) -> Last: ...
    def last(self, observe: bool = True) -> Last:
        """PettingZoo's ``AECEnv.last`` (the selected agent's observation, accumulated
        reward, termination, truncation, info), ValueError before reset and once every agent
        has left the finished game (PettingZoo's own raises a bare KeyError there)."""
        if self._st is None:
            raise ValueError(self._no_game_message("last()"))
        agent = self.agent_selection
        try:
            reward = self._cumulative_rewards[agent]
        except KeyError:
            raise ValueError(f"every agent has left the finished game (the last selected was {agent}): "
                             f"call reset() before last()") from None
        return (self.observe(agent) if observe else None, reward, self.terminations[agent],
                self.truncations[agent], self.infos[agent])

    def state(self) -> np.ndarray:
        """The global state for centralised critics: seat 0's ``"seer"`` observation (the
        whole game in a fixed frame, whoever acts), in ``state_space``."""
        self._require_reset("state()")
        seer = self.engine.observe(self._st, player=0, observation_type="seer")[0]
        return seer if self.observation_dtype == np.int8 else seer.astype(self.observation_dtype)

    # --- step ------------------------------------------------------------------------------
    def step(self, action) -> None:
        """Play ``action`` (an int id) for ``agent_selection``; ``None`` for an agent whose
        game is over (it then leaves ``agents``). Rewards land in ``rewards``; the next agent
        to act is ``agent_selection``. An illegal action raises ValueError naming it and the
        legal ones (``illegal_action="raise"``, ``raw_env``'s default) or ends the game with
        ``illegal_reward`` for the offender (``"lose"``, ``env()``'s); TypeError /
        ValueError for an action that is no id, the game unchanged (module doc)."""
        if self._st is None:
            raise ValueError(self._no_game_message("step()"))
        if not self.agents:
            raise ValueError("every agent has left the finished game: call reset()")
        agent = self.agent_selection
        if self.terminations[agent] or self.truncations[agent]:
            if action is not None:
                raise ValueError(f"{agent}'s game is over: the only valid action is None, got {shown(action)}")
            self._was_dead_step(None)
            return
        if action is None:
            raise TypeError(f"{agent} is to act: it must play an action id in 0..{self.num_actions - 1}, got None")
        a = action if type(action) is int and 0 <= action < self.num_actions else action_id(
            action, who=f"{agent}'s action", num_actions=self.num_actions)
        if not self._mask_buf[0, a]:
            if self.illegal_action == "lose":
                self._forfeit(agent)
                self._render_if_human()
                return
            raise ValueError(f"action {a} ({self.game.action_label(a)}) is not legal for {agent} now; "
                             f"legal: {legal_list(self._mask_buf[0])}")
        st = self._st
        rf = self.reward_fn
        phi = rf.before(st) if rf.shaping else None
        self._action[0] = a
        engine = self.engine
        fused = hasattr(engine, "step_observe")  # one kernel call instead of three (optional in the protocol)
        if fused:
            engine.step_observe(st, self._action, self._mask_buf, self._next_obs, self.observation_type)
        else:
            engine.step(st, self._action)
        self._cumulative_rewards[agent] = 0.0
        over = bool(st.terminated[0])
        if over or rf.shaping:
            r = rf.after(st, self._running, np.array([self._seat[agent]]), phi)[0]
            self.rewards = {q: float(r[i]) for i, q in enumerate(self.possible_agents)}
            self._rewards_zero = False
        elif not self._rewards_zero:  # nothing earned: keep (or restore) the all-zero dict
            self.rewards = {q: 0.0 for q in self.possible_agents}
            self._rewards_zero = True
        if over:
            self._finish(round_limit=bool(self.game.round_limit(st)[0]), offender=None)
        if not self._rewards_zero:
            self._accumulate_rewards()
        self._after_change(fused)
        self._render_if_human()

    def _finish(self, round_limit: bool, offender: str | None) -> None:
        """Every agent terminated (never truncated: R-E3 ends the game, see the module
        doc), with the score breakdown and how the game ended in its info."""
        scores = self.engine.scores(self._st)[0]
        for i, q in enumerate(self.possible_agents):
            self.terminations[q] = True
            self.truncations[q] = False
            self.infos[q] = {"action_mask": self._no_decision.copy(), "scores": self._score_dict(scores[i]),
                             "round_limit": round_limit, "illegal_action": q == offender}

    def _forfeit(self, agent: str) -> None:
        """``illegal_action="lose"``: the game ends now, ``illegal_reward`` for the
        offender (less its potential under shaping, rewards.py) and 0.0 for the others
        (PettingZoo's classic convention)."""
        self._cumulative_rewards[agent] = 0.0
        self.rewards = {q: 0.0 for q in self.possible_agents}
        self.rewards[agent] = self.reward_fn.forfeit(self._st, self._seat[agent], self.illegal_reward)
        self._rewards_zero = False
        self._finish(round_limit=False, offender=agent)
        self._accumulate_rewards()
        self._over = True
        self._acting_seat = -1
        self._step_count += 1

    def _clear_rewards(self) -> None:
        # PettingZoo's version writes int 0; rewards here are always floats
        for agent in self.rewards:
            self.rewards[agent] = 0.0

    # --- render ------------------------------------------------------------------------------
    def reference_state(self):
        """The current game as a reference ``GameState`` (a copy)."""
        return self.engine.to_reference(self.batch_state, 0)

    def render(self):
        """The game in ``render_mode``, fixed at construction: ``"ansi"`` returns the whole table
        as text (every hand shown, and said so), ``"human"`` prints that text and returns None,
        ``"rgb_array"`` returns a uint8 picture (H, W, 3). Without a render mode: a warning and
        None. Before the first ``reset`` or after ``close``: an error naming the call."""
        if self.render_mode is None:
            logger.warn("You are calling render method without specifying any render mode.")
            return None
        self._require_reset("render()")
        return self._render_game(0, self.render_mode)

    def close(self) -> None:
        """Drop the game (idempotent): ``step``, ``last``, ``observe``, ``action_mask``,
        ``state`` and ``render`` then raise, naming it, until ``reset()`` starts a new one (AECEnv's own
        ``close`` does nothing, and the game went on after it)."""
        self._close()
        self._over = True
        self._acting_seat = -1


class OneGameRawEnv(raw_env):
    """raw_env of the one game ``GAME``: the base of the versioned modules' raw_env
    (``spacemission_v3``, ``red_planet_v2``). Their module and their registry id name the
    game, so a ``game`` argument is refused (TypeError) rather than silently playing another."""

    GAME = ""

    def __init_subclass__(cls, **kwargs):
        super().__init_subclass__(**kwargs)
        if cls.GAME:  # the class's own name, as PettingZoo's classic envs have it before any instance
            cls.metadata = {**raw_env.metadata, "name": get_game(cls.GAME).description.versioned_name}

    def __init__(self, *args, **kwargs):
        module = type(self).__module__.rsplit(".", 1)[-1]
        if "game" in kwargs:
            raise TypeError(f"{module} plays {self.GAME!r}; it takes no game argument (got game={shown(kwargs['game'])})")
        if len(args) > 11:  # raw_env's twelfth positional parameter is the game
            raise TypeError(f"{module}.raw_env takes at most 11 positional arguments ({len(args)} given)")
        super().__init__(*args, game=self.GAME, **kwargs)  # type: ignore[misc]  # "game" is refused in kwargs above
