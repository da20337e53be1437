"""Gymnasium single-agent environment of every game (``"SpaceMission-v3"``,
``"RedPlanet-v2"``): one learner seat, opponents inside ``step()``.

    import gymnasium, spacemission_env
    env = gymnasium.make("SpaceMission-v3", num_players=3, opponents=None, seat="random")
    obs, info = env.reset(seed=0)
    obs, reward, terminated, truncated, info = env.step(action)   # info["action_mask"]
    env.unwrapped.action_masks()                                    # bool [num_actions], for MaskablePPO

The class is :class:`GameEnv` (``SpaceMissionEnv`` is the same class); ``game=`` picks
the game (games.py), and every game's id is registered with its game set (entry point
``registered_env_<game>``, which refuses a ``game`` argument: the id names the game). Space
Mission's behaviour is described below; Red Planet's differs only where its rules do
(ten fixed rounds, no round limit, Discrete(243)).

The learner plays seat ``seat`` (``"random"``: drawn per episode from the env's
``np_random``; or a fixed int; ``reset(options={"seat": s})`` overrides it for one
episode). After each learner action the opponents (policies.py; None -> RandomPolicy)
act until it is the learner's turn again or the game is over, so every transition
carries the learner's own reward (rewards.py), including a loss caused by an
opponent's move. The observation is ``engine.observe`` for the learner's seat, int8
``[D]`` (``observation_dtype="float32"``: the same values as float32).

Every end of the game is ``terminated=True, truncated=False``: R-E1 and also the round
limit (R-E3), which scores the game like any other end, with nothing after it (the
rounds left are in the observation). Reporting it as a truncation would make
bootstrapping learners add a value estimate on top of the final reward and learn to
stall towards the limit. ``info["round_limit"]`` tells the two apart. At the end
``info`` also holds ``"scores"`` (every seat's breakdown) and ``"is_success"`` (the
learner's rank reward strictly beats every other seat's: a shared first place is not
a success).

``info["action_mask"]`` (bool [100], also ``action_masks()``) is never empty: the
legal actions while the learner is to act, all True once the episode is over (no
decision pending; the next action is ignored by vector wrappers, which reset, and
``step`` refuses it otherwise), so a masked sampler works on every step, including
Gymnasium's ``make_vec`` with next-step autoreset.

Opponents: each may ask for its own observation type (``policy.observation_type``),
receives the engine's int8 observation of that type, and is bound to the game with
``policy.bind(GameConfig(...))`` when the env is built (policies.py). An opponent that
returns a bad or illegal action raises an error naming it and the action; the game
then needs ``reset()``.

Bad learner input: an action of the wrong type (bool, float, str, float array) raises
``TypeError``, an id outside 0..99 ``ValueError`` (a caller bug, not a move), both
naming the value, with the game unchanged. A legal-range but illegal action
(``illegal_action``): ``"lose"`` (default, the PettingZoo classic convention) ends the
episode with ``illegal_reward`` (-1.0; less the seat's potential under shaping) and
``info["illegal_action"] = True``;
``"raise"`` raises ValueError. Seeding: ``reset(seed=s)`` seeds the env's
``np_random``, which draws the seat (``seat="random"``), then the game seed, and
reseeds every opponent that has a ``seed`` method (a child of ``SeedSequence(s)``
each); ``reset()`` continues them. A policy object given to several envs is shared
by them, its draws too (docs/interfaces.md, "Seeding").
"""
from __future__ import annotations

import functools
from collections.abc import Callable

import gymnasium
import numpy as np

from .checks import check_memory, count_text, shown
from .env_base import EnvBase
from .env_common import (
    Info,
    MaskArray,
    ObsArray,
    RENDER_MODES,
    action_id,
    check_num_envs,
    check_render_mode,
    check_seat,
    check_seed,
    legal_list,
    strictly_best,
)
from .games import GAMES, get_game
from .policies import note_opponent_failure, seed_policies

_NO_OBSERVATION = np.zeros(0, dtype=np.int8)  # what an opponent with uses_observation=False receives
_NO_OBSERVATION.flags.writeable = False
ENV_ID = get_game("spacemission").description.env_id  # "SpaceMission-v3", the first game's (docs/versioning.md)


class GameEnv(EnvBase, gymnasium.Env):
    """A game for one learner against fixed opponents (module doc)."""

    metadata = {"render_modes": list(RENDER_MODES), "render_fps": 1}

    def __init__(self, num_players: int | None = None, opponents=None, seat="random", rules: str | None = None,
                 max_rounds: int | None = None, observation_type: str = "info", observation_dtype: str = "int8",
                 reward: str = "win", shaping: bool = False, gamma: float = 1.0, illegal_action: str = "lose",
                 illegal_reward: float = -1.0, render_mode: str | None = None, game: str = "spacemission"):
        self._init_game(num_players, rules, max_rounds, observation_type, observation_dtype, reward, shaping, gamma,
                        game)
        self._init_illegal_action(illegal_action, illegal_reward)
        self.render_mode = check_render_mode(render_mode, self.metadata["render_modes"])
        self.seat_option = check_seat(seat, self.num_players)
        self._init_opponents(opponents)
        self._opponent_uses_observation = [getattr(p, "uses_observation", True) for p in self.opponents]
        self.observation_space = self._observation_box()
        self.action_space = self._action_discrete()
        self._mask = np.zeros((1, self.action_space.n), dtype=np.bool_)
        self._action = np.zeros(1, dtype=np.int64)
        self._running = np.ones(1, dtype=np.bool_)
        self._episode_over = True
        self._stopped_by: str | None = None  # what stopped the episode on an opponent's turn (step's error names it)
        # what the last step already made (_play): the legal mask in _mask, and the type of the
        # acting seat's observation in _obs_bufs; _fused_types: _plan_fused_steps
        self._mask_ready = False
        self._obs_ready: str | None = None
        self._step_observe: Callable[..., None] | None = None  # the engine's, where it has one (_plan_fused_steps)
        self._fused_types: list[str | None] = []
        self._obs_bufs: dict[str, np.ndarray] = {}
        self.seat = 0

    # --- helpers ------------------------------------------------------------------------
    def _over(self) -> bool:
        return bool(self._st.terminated[0])

    def _play(self, action: int) -> float:
        """Apply one (checked) action of the acting seat; the learner's reward of that step.
        Where the engine has ``step_observe``, the new legal mask comes with the step in one
        kernel call, and the acting seat's observation too when whoever likely acts next
        reads it (``_fused_types``): one call where three cost as much in dispatch as in work."""
        st = self._st
        rf = self.reward_fn
        actor = np.array([st.current_player[0]], dtype=np.intp) if rf.shaping else None  # read by shaping only
        phi = rf.before(st) if rf.shaping else None
        self._action[0] = action
        if self._step_observe is not None:
            t = self._fused_types[st.current_player[0]]
            self._step_observe(st, self._action, self._mask, None if t is None else self._obs_bufs[t], t)
            self._mask_ready, self._obs_ready = True, t
        else:
            self.engine.step(st, self._action)
            self._mask_ready, self._obs_ready = False, None
        if not (rf.shaping or st.terminated[0]):
            return 0.0
        return float(rf.after(st, self._running, actor, phi)[0, self.seat])

    def _acting_observation(self, observation_type: str) -> np.ndarray:
        """int8 [D], a new array: the acting seat's observation, the fused step's if it made that type."""
        if self._obs_ready == observation_type:
            return self._obs_bufs[observation_type][0].copy()
        return self.engine.observe(self._st, observation_type=observation_type)[0]

    def _run_opponents(self) -> float:
        """Opponents act until the learner is to act or the game is over. A bad opponent
        action raises (naming the opponent) before it is played; the episode then needs reset()."""
        st = self._st
        seat, mask = self.seat, self._mask
        reward = 0.0
        while not st.terminated[0] and st.current_player[0] != seat:
            cp = int(st.current_player[0])
            k = (cp - seat - 1) % self.num_players
            policy = self.opponents[k]
            if not self._mask_ready:
                self.engine.legal_action_mask(st, out=mask)
            if self._opponent_uses_observation[k]:
                obs = self._acting_observation(self.opponent_observation_types[k])
            else:  # the policy reads only the mask (policies.py)
                obs = _NO_OBSERVATION
            try:
                action = policy.act(obs, mask[0].copy())
            except BaseException as exc:
                self._stop_on_opponent(f"opponent {shown(policy)} in seat {cp} raised {type(exc).__name__}")
                note_opponent_failure(exc, f"opponent {shown(policy)} in seat {cp}")
                raise
            if not (type(action) is int and 0 <= action < mask.shape[1] and mask[0, action]):
                action = self._check_opponent_action(action, policy, cp)  # or raises naming the opponent
            reward += self._play(action)
        return reward

    def _plan_fused_steps(self) -> None:
        """``_step_observe``: the engine's, None where it has none (optional in the engine
        protocol, docs/games.md). ``_fused_types``: per acting seat, the observation type the
        fused step makes (None: the mask only). A guess at who acts next, which costs speed
        only when wrong (``_acting_observation`` then observes): the actor again (a turn has
        several actions), else the next seat, whichever of the two reads one."""
        self._step_observe = getattr(self.engine, "step_observe", None)
        if self._step_observe is None:
            return
        wants = [self.observation_type if s == self.seat else None for s in range(self.num_players)]
        for k, uses in enumerate(self._opponent_uses_observation):
            if uses:
                wants[(self.seat + 1 + k) % self.num_players] = self.opponent_observation_types[k]
        n = self.num_players
        self._fused_types = [wants[s] if wants[s] is not None else wants[(s + 1) % n] for s in range(n)]
        self._obs_bufs = {t: np.zeros((1, self.engine.observation_size(t)), np.int8)
                          for t in {f for f in self._fused_types if f is not None}}

    def _check_opponent_action(self, action, policy, cp: int) -> int:
        """The opponent's action as an int id if it is legal; else an error naming the
        opponent and the action (the episode then needs reset())."""
        who = f"opponent {shown(policy)} in seat {cp}"
        try:
            a = action_id(action, who=who, num_actions=self.num_actions)
            if not self._mask[0, a]:
                raise ValueError(f"{who}: action {a} ({self.game.action_label(a)}) is not legal now; "
                                 f"legal: {legal_list(self._mask[0])}")
        except (TypeError, ValueError):
            self._stop_on_opponent(f"{who} returned a bad action")
            raise
        return a

    def _stop_on_opponent(self, why: str) -> None:
        """An opponent failed on its turn: the game waits on it, so the learner cannot act
        until reset(); no decision is pending for it (the mask held the opponent's), and
        step's error says ``why``."""
        self._episode_over = True
        self._mask[:] = True
        self._stopped_by = why

    def _result(self, illegal: bool = False):
        st = self._st
        ended = illegal or self._over()
        if ended:
            obs = self._typed(self.engine.observe(st, player=self._seat_arr, observation_type=self.observation_type)[0])
            self._mask[:] = True  # no decision pending (module doc)
        else:  # the learner is to act: the acting seat's view
            obs = self._typed(self._acting_observation(self.observation_type))
            if not self._mask_ready:
                self.engine.legal_action_mask(st, out=self._mask)
        round_limit = bool(self.game.round_limit(st)[0]) and not illegal
        info = {"action_mask": self._mask[0].copy(), "seat": self.seat, "round_limit": round_limit}
        if ended:
            info["scores"] = [self._score_dict(s) for s in self.engine.scores(st)[0]]
            info["illegal_action"] = illegal
            info["is_success"] = (not illegal) and bool(strictly_best(self.engine.rewards(st),
                                                                      np.array([self.seat]))[0])
        return obs, info

    # --- Gymnasium API --------------------------------------------------------------------
    def reset(self, *, seed: int | None = None, options: dict | None = None) -> tuple[ObsArray, Info]:
        """Start a new game: ``(observation, info)`` at the learner's first decision (the
        opponents seated before it have moved). ``seed`` (int or None) seeds the env's
        ``np_random`` (the seat drawn, the game's seed) and every opponent with a ``seed``
        method; ``options={"seat": s}`` plays seat ``s`` (an int or ``"random"``) this
        episode. ``info["action_mask"]``: bool [num_actions]. TypeError / ValueError for a
        bad seed or option, the env unchanged (module doc)."""
        seed = check_seed(seed)
        if options is not None and not isinstance(options, dict):
            raise TypeError(f"options must be a dict (e.g. {{'seat': 0}}) or None, got {shown(options)}")
        unknown = sorted(map(shown, set(options or {}) - {"seat"}))
        if unknown:
            raise ValueError(f"unknown reset option {unknown[0]}; the only option is 'seat'")
        seat = check_seat((options or {}).get("seat", self.seat_option), self.num_players)  # before any reseeding
        if seed is not None:  # first: an opponent's seed() that raises leaves the env's generator as it was
            seed_policies(self.opponents, np.random.SeedSequence(seed))
        super().reset(seed=seed)
        self.seat = int(self.np_random.integers(self.num_players)) if seat == "random" else seat
        self._seat_arr = np.array([self.seat], dtype=np.int64)
        game_seed = int(self.np_random.integers(0, 2**63))
        self._st = self._new_games(1, game_seed)
        self._episode_over, self._stopped_by = False, None
        self._mask_ready, self._obs_ready = False, None  # nothing made for the new game yet
        self._plan_fused_steps()
        self._run_opponents()  # opponents seated before the learner open the game
        self._episode_over = self._over()
        self._render_if_human()
        return self._result()

    def step(self, action) -> tuple[ObsArray, float, bool, bool, Info]:
        """Play the learner's ``action`` (an int id, ``0..num_actions-1``), then the opponents
        until it is the learner's turn again or the game ends: ``(observation, reward,
        terminated, truncated, info)``, the reward the learner's own over the whole
        transition, ``truncated`` always False (the round limit ends the game:
        ``terminated``, ``info["round_limit"]``). An illegal action ends the episode with
        ``illegal_reward`` (``illegal_action="lose"``) or raises ValueError (``"raise"``);
        TypeError / ValueError for an action that is no id; ValueError after the episode
        ended or before ``reset()`` (module doc)."""
        if self._st is None or self._episode_over:
            if self._closed:
                raise ValueError(self._no_game_message("step()"))
            if self._stopped_by is not None:
                raise ValueError(f"the episode stopped when {self._stopped_by}: call reset()")
            raise ValueError("the episode is over (or never started): call reset()")
        a = action_id(action, num_actions=self.num_actions)
        if not self._mask[0, a]:
            if self.illegal_action == "raise":
                raise ValueError(f"action {a} ({self.game.action_label(a)}) is not legal now; legal: {legal_list(self._mask[0])}")
            self._episode_over = True
            reward = self.reward_fn.forfeit(self._st, self.seat, self.illegal_reward)  # before _result: scores as they stand
            obs, info = self._result(illegal=True)
            self._render_if_human()
            return obs, reward, True, False, info
        reward = self._play(a)
        reward += self._run_opponents()
        self._episode_over = self._over()
        obs, info = self._result()
        self._render_if_human()
        return obs, reward, self._episode_over, False, info

    def action_masks(self) -> MaskArray:
        """bool [num_actions]: the learner's legal actions now; all True once the episode is over
        (MaskablePPO's hook). ValueError before ``reset()`` and after ``close()``: there is no
        game, and an all-False mask would give NaN probabilities."""
        self._require_reset("action_masks()")
        return self._mask[0].copy()

    def render(self):
        """The game in ``render_mode``, fixed at construction: ``"ansi"`` returns the whole table
        as text (every hand shown, and said so), ``"human"`` prints that text and returns None,
        ``"rgb_array"`` returns a uint8 picture (H, W, 3). Without a render mode: a warning and
        None. Before the first ``reset`` or after ``close``: an error naming the call."""
        if self.render_mode is None:
            gymnasium.logger.warn("You are calling render method without specifying any render mode.")
            return None
        self._require_reset("render()")
        return self._render_game(0, self.render_mode)

    def close(self) -> None:
        """Drop the game (idempotent): ``step`` and ``render`` then raise, naming it, until
        ``reset()`` starts a new one (gymnasium.Env's own ``close`` does nothing, and the
        game went on after it)."""
        self._close()
        self._episode_over = True
        self._mask[:] = True  # no decision pending


SpaceMissionEnv = GameEnv  # the name of the first game's env, kept


def registered_env(registered_game: str, /, **kwargs) -> GameEnv:
    """The registered ids' env (``gymnasium.make("RedPlanet-v2", ...)``): the id names the
    game, so a ``game`` argument is refused (TypeError), as the versioned PettingZoo
    modules refuse it, and so is ``registered_game`` (each id's entry point,
    ``registered_env_<game>``, binds its game: a keyword in the spec's kwargs could be
    overridden by ``gymnasium.make``'s and silently play another game)."""
    for key in ("game", "registered_game"):
        if key in kwargs:
            d = get_game(registered_game).description
            raise TypeError(f"{d.env_id} plays {d.name!r}; it takes no {key} argument (got {key}={shown(kwargs[key])}); "
                            f"make the id of the game you want")
    return GameEnv(game=registered_game, **kwargs)


_ENTRY_PREFIX = "registered_env_"


def __getattr__(name: str):
    """``registered_env_<game>``: the entry point of that game's registered id, which is
    :func:`registered_env` with the game bound (any game of games.GAMES, registered
    later ones included)."""
    game = name[len(_ENTRY_PREFIX):] if name.startswith(_ENTRY_PREFIX) else None
    if game in GAMES:
        return functools.partial(registered_env, game)
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


# a lower bound of one env made by gymnasium.make (a GameEnv with its wrappers, reset: about
# 25 KB measured for either game, traced by tracemalloc); the check of make_vec's num_envs
MAKE_VEC_ENV_BYTES = 16 * 1024


class _SpecKwargs(dict):
    """The registered ids' ``EnvSpec.kwargs`` (empty): a dict that checks ``num_envs``.
    ``gymnasium.make_vec`` (sync and async mode, Gymnasium 1.x) builds a list of
    ``num_envs`` factories before it makes any env, so ``num_envs=10**12`` filled the
    machine's memory before a bare ``MemoryError``; the one step of ``make_vec`` before
    that list that sees the count is ``spec.kwargs.pop("num_envs", num_envs)``, here,
    which now refuses it as the vector envs' constructors do (``check_num_envs``: a
    ValueError naming it and the memory needed, a TypeError for a non-integer) before
    anything is allocated, and also where ``num_envs`` whole envs (``MAKE_VEC_ENV_BYTES``
    each, not the batched envs' 1 KiB a game) would not fit the machine's memory."""

    def pop(self, key, *default):
        if key == "num_envs" and key not in self and default:
            n = check_num_envs(default[0])
            # each sub-env is a whole GameEnv: more than the batched envs' 1 KiB a game
            check_memory(f"num_envs={count_text(n)}: that many envs of gymnasium.make_vec need", n * MAKE_VEC_ENV_BYTES,
                         "make fewer, or play a batch in one env (spacemission_env.sb3.GameVecEnv)", " for the envs alone")
        return super().pop(key, *default)


def register_envs() -> None:
    """Register every game's id (``"SpaceMission-v3"``, ``"RedPlanet-v2"``: games.GAMES)
    with Gymnasium (this single-agent env through ``registered_env_<game>``, its game set) and with PettingZoo's
    registry (the AEC env of the game's versioned module, PettingZoo >= 1.27).
    Idempotent; called by ``import spacemission_env``. Only the current version is
    registered: both registries answer an older id (``"SpaceMission-v2"``) with an
    error naming the current one. No ``vector_entry_point``: neither batched env (the SB3
    VecEnv, the self-play VectorEnv) follows ``gymnasium.vector.VectorEnv``'s API, so
    ``make_vec`` runs one env per sub-env (tests/env/test_gym_vector_entry_point.py)."""
    try:
        import pettingzoo
    except ImportError:  # pragma: no cover - pettingzoo is a dependency
        pettingzoo = None
    register = getattr(pettingzoo, "register", None)
    for name in GAMES:
        d = get_game(name).description
        if d.env_id not in gymnasium.registry:
            gymnasium.register(id=d.env_id, entry_point=f"spacemission_env.gym_env:{_ENTRY_PREFIX}{name}",
                               kwargs=_SpecKwargs())  # checks make_vec's num_envs (_SpecKwargs)
        if register is not None and d.env_id not in pettingzoo.aec_registry:
            register("aec", d.env_id, entry_point=f"spacemission_env.{d.versioned_name}:env")
