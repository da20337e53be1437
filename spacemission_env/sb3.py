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
game an opponent ended, shaping). Opponents get the int8 observation of their own
``observation_type`` (default: the env's) and are bound to the game with
``bind(GameConfig(...))`` at construction (policies.py).

SB3 conventions: ``reset()`` returns the observations only (int8 ``[N, D]``, or
float32 with ``observation_dtype="float32"``); games that end are reset automatically
inside ``step_wait``, which then returns the new game's first observation,
``done=True`` and ``infos[i]`` with ``"terminal_observation"`` (the learner's last
observation of the ended game), ``"round_limit"`` (the game reached ``max_rounds``),
``"TimeLimit.truncated": False`` (always: R-E3 ends and scores the game, so SB3 must
not bootstrap a value after it, which it does when that flag is True), ``"scores"``
(final breakdown of every seat), ``"seat"`` and ``"is_success"`` (the learner's rank
reward strictly beats every other seat's; a shared first place is not a success).
``action_masks()`` returns bool ``[N, A]`` (A = 100 in Space Mission, 243 in Red Planet; never an empty row: every game waits
for its learner), also through ``env_method("action_masks")`` (what sb3_contrib's
``get_action_masks`` calls). Seeding: ``seed(s)`` (SB3; checked there) or the
``seed`` argument, applied at the next ``reset()``; it seeds one generator that draws
the game seeds, the seats and the pool assignments of every game (auto-resets included),
and every opponent that has a ``seed`` method. ``seed(s)`` returns SB3's ``[s, s + 1,
...]``; only ``s`` is used (docs/interfaces.md, "Seeding"). ``set_options({"seat": s})``
(SB3's reset options) seats the learners of the games the next ``reset()`` starts; other
options are refused when given.

Per-game opponents (an opponent pool, e.g. for self-play against past snapshots):
with ``opponent_sampler``, ``opponents`` is a list of any length, the *pool*, and
``opponent_sampler(rng, n)`` returns int ``[n, num_players - 1]``: for each of ``n``
new games, the pool index of the policy at each opponent seat (column k: the seat k + 1
after the learner). It is called with the env's own generator at ``reset()`` (all games)
and whenever games end (those games' successors), so a seeded env stays reproducible.
``opponent_assignment`` ([N, num_players - 1], a copy) is the assignment of the games in
progress; ``set_opponent_assignment`` replaces it (e.g. to restore a checkpoint);
``set_opponent_pool(policies)`` replaces the pool (new policies are bound; the indices
in use must stay valid), e.g. to add a snapshot. Each ended game's ``infos[i]`` then
also holds ``"opponents"``: the pool indices it was played against. Every pool policy
is called with ``act_batch`` once per round of moves on exactly its own rows. A sampler
that raises or returns a bad assignment (shape, dtype, an index outside the pool) stops
the env as a failed opponent does: ``step`` and ``action_masks`` raise until ``reset()``.

Bad input is rejected before any game changes: learner actions of a non-integer
dtype raise TypeError; a shape other than ``[N]`` or ``[N, 1]`` (SB3's own VecEnvs give
env i ``actions[i]``) raises ValueError naming it; ids outside 0..A-1 and illegal ids
raise ValueError naming the game and the action (use MaskablePPO or the masks). An opponent that returns a bad
action raises an error naming the opponent, the game and the action; the env then
needs ``reset()``. Rendering: ``"ansi"`` / ``"human"`` show game 0 as text,
``"rgb_array"`` tiles every game's picture (SB3's convention; about 2.9 MB per game,
held twice: ValueError after game 0's picture where N of them exceed the machine's memory).
"""
from __future__ import annotations

import inspect
import warnings
from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

import numpy as np
import numpy.typing as npt
from gymnasium import Wrapper

from .checks import SettingTypeError, check_memory, count_text, shown, wrong_type_text
from .env_base import EnvBase
from .env_common import (
    RENDER_MODES,
    SEED_HIGH,
    Info,
    MaskArray,
    ObsArray,
    action_batch,
    as_batch_array,
    check_num_envs,
    check_render_mode,
    check_seat,
    check_seed,
    legal_list,
    shown_values,
    strictly_best,
)
from .extras import require
from .games import check_render_mode as check_game_render_mode
from .policies import Policy, bind_policies, check_policy, note_opponent_failure, policy_observation_type, seed_policies
from .rewards import score_view

_PURPOSE = "spacemission_env.sb3 (the Stable-Baselines3 VecEnv)"
if TYPE_CHECKING:  # the names themselves for type checkers; at run time through require (its error names the extra)
    from stable_baselines3.common.vec_env import VecEnv
    from stable_baselines3.common.vec_env.base_vec_env import VecEnvIndices
else:
    VecEnv = require("stable_baselines3.common.vec_env", "sb3", _PURPOSE).VecEnv
    VecEnvIndices = require("stable_baselines3.common.vec_env.base_vec_env", "sb3", _PURPOSE).VecEnvIndices
tile_images = require("stable_baselines3.common.vec_env.base_vec_env", "sb3", _PURPOSE).tile_images


# what set_attr refuses (GameVecEnv.set_attr): the constructor's arguments (set as attributes
# they would change nothing: reward, shaping, gamma, seed, game) and what is derived from them
_FIXED_ATTRS = frozenset({
    "num_envs", "num_players", "rules", "max_rounds", "config", "observation_type", "observation_dtype",
    "observation_size", "num_actions", "reward", "shaping", "gamma", "reward_fn", "seed", "game", "opponents",
    "opponent_observation_types", "opponent_sampler", "seats", "observation_space", "action_space", "metadata",
    "reset_infos",
})
_SET_ATTR_HINTS = {"opponents": " (a pool's policies: set_opponent_pool)", "seed": " (seeding: seed(s))",
                   "seats": " (per game, drawn at each game's start: set 'seat')"}


class GameVecEnv(EnvBase, VecEnv):
    """N games of a game (``game=``, Space Mission by default), one learner seat each,
    opponents stepped in batch (module doc)."""

    def __init__(self, num_envs: int, num_players: int | None = None, opponents=None, seat="random",
                 rules: str | None = None, max_rounds: int | None = None, observation_type: str = "info",
                 observation_dtype: str = "int8", reward: str = "win", shaping: bool = False, gamma: float = 1.0,
                 seed: int | None = None, render_mode: str | None = None, opponent_sampler=None,
                 game: str = "spacemission"):
        num_envs = check_num_envs(num_envs)
        self._init_game(num_players, rules, max_rounds, observation_type, observation_dtype, reward, shaping, gamma,
                        game)
        self.render_mode = check_render_mode(render_mode)
        self.seat = check_seat(seat, self.num_players)
        seed = check_seed(seed)
        if opponent_sampler is not None and not callable(opponent_sampler):  # a ValueError and a TypeError
            raise SettingTypeError(wrong_type_text(
                "opponent_sampler", f"None or a callable (rng, n) -> int[n, {self.num_players - 1}]", opponent_sampler))
        self.opponent_sampler = opponent_sampler
        if opponent_sampler is not None:  # a pool: any number of policies, assigned per game
            pool = self._check_pool(opponents)
            bind_policies(pool, self.config)
            self.opponents = pool
            self.opponent_observation_types = [policy_observation_type(p, observation_type, self.game.observation_types)
                                               for p in pool]
        else:
            self._init_opponents(opponents)
        VecEnv.__init__(self, num_envs, self._observation_box(), self._action_discrete())
        self.metadata = {"render_modes": list(RENDER_MODES)}  # what render() renders, whatever render_mode
        self._seeds[0] = seed
        self._rng = np.random.default_rng(self._seeds[0])
        self._broken = ""  # what failed mid-step or mid-reset ("an opponent failed"): reset() needed
        self._actions: np.ndarray | None = None  # step_async's, checked, until step_wait plays them
        self._mask = np.zeros((num_envs, self.num_actions), dtype=np.bool_)  # the learners' masks
        self._opp_mask = np.zeros((num_envs, self.num_actions), dtype=np.bool_)
        self.seats = np.zeros(num_envs, dtype=np.int64)
        distinct = {id(p): p for p in self.opponents}
        self._policies = list(distinct.values())
        types = dict(zip(map(id, self.opponents), self.opponent_observation_types))
        self._policy_types = [types[id(p)] for p in self._policies]
        # _opp_table[k] = index into _policies of the opponent k seats after the learner
        # (the last entry, k = num_players - 1, is the learner's own seat: no policy)
        self._opp_table = np.array([list(distinct).index(id(p)) for p in self.opponents[:self.num_players - 1]] + [-1],
                                   dtype=np.int64)
        # _assign[i, k]: the same per game (a pool: drawn by opponent_sampler at each game's start)
        self._assign = np.tile(self._opp_table, (num_envs, 1)) if opponent_sampler is None else \
            np.full((num_envs, self.num_players), -1, dtype=np.int64)

    # --- per-game opponents (module doc) ------------------------------------------------------
    def _check_pool(self, policies) -> list:
        if not isinstance(policies, (list, tuple)):  # a wrong type: a ValueError, as before, and a TypeError
            raise SettingTypeError(wrong_type_text("with opponent_sampler, opponents",
                                                   "a non-empty list of policies (the pool)", policies))
        if not policies:
            raise ValueError(f"with opponent_sampler, opponents must be a non-empty list of policies (the pool), "
                             f"got {shown(policies)}")
        for p in policies:
            check_policy(p)
        if len({id(p) for p in policies}) != len(policies):
            raise ValueError("the opponent pool lists a policy object twice; pass each once (the sampler picks "
                             "how often each plays)")
        return list(policies)

    def set_opponent_pool(self, policies: Sequence[Policy]) -> None:
        """Replace the pool (needs ``opponent_sampler``). Policies not in the old pool are
        bound to the game and their observation type read; the games in progress keep
        their pool indices, so every index in use must still exist."""
        if self.opponent_sampler is None:
            raise ValueError("set_opponent_pool needs an env built with opponent_sampler")
        pool = self._check_pool(policies)
        used = int(self._assign[:, :-1].max())
        if used >= len(pool):
            raise ValueError(f"games in progress play pool index {used}; a pool of {len(pool)} policies drops it")
        old = {id(p) for p in self._policies}
        new = [p for p in pool if id(p) not in old]
        bind_policies(new, self.config)
        types = {id(p): t for p, t in zip(self._policies, self._policy_types)}
        types.update({id(p): policy_observation_type(p, self.observation_type, self.game.observation_types) for p in new})
        self.opponents = self._policies = pool
        self._policy_types = [types[id(p)] for p in pool]
        self.opponent_observation_types = list(self._policy_types)

    @property
    def opponent_assignment(self) -> np.ndarray:
        """int [N, num_players - 1]: pool index of the policy at each opponent seat (column k:
        k + 1 seats after the learner) of the games in progress."""
        return self._assign[:, :-1].copy()

    def set_opponent_assignment(self, assignment: npt.ArrayLike) -> None:
        """Set the opponents of the games in progress (int [N, num_players - 1] pool indices)."""
        self._assign[:, :-1] = self._check_assignment(assignment, self.num_envs, "assignment")

    def _check_assignment(self, assignment, n: int, who: str) -> np.ndarray:
        a = np.asarray(assignment)
        shape = (n, self.num_players - 1)
        if a.dtype.kind not in "iu" or a.shape != shape:
            raise ValueError(f"{who} must be an integer array of shape {list(shape)} (pool indices), "
                             f"got {a.dtype} {list(a.shape)}")
        if a.size and (a.min() < 0 or a.max() >= len(self._policies)):
            raise ValueError(f"{who} holds pool index {int(a.min() if a.min() < 0 else a.max())}; the pool has "
                             f"{len(self._policies)} policies (0..{len(self._policies) - 1})")
        return a.astype(np.int64)

    def _draw_opponents(self, rows: np.ndarray) -> None:
        """The pool assignment of the new games ``rows``. A sampler that raises or returns a bad
        assignment leaves those games without opponents (their first moves are not played), so
        the env then needs reset(), as when an opponent fails."""
        if self.opponent_sampler is not None and rows.size:
            try:
                drawn = self.opponent_sampler(self._rng, int(rows.size))
                self._assign[rows, :-1] = self._check_assignment(drawn, int(rows.size),
                                                                 f"opponent_sampler {shown(self.opponent_sampler)} result")
            except BaseException:
                self._broken = "the opponent sampler failed"
                raise

    # --- core -----------------------------------------------------------------------------
    def _draw_seats(self, rows: np.ndarray) -> None:
        if self.seat == "random":
            self.seats[rows] = self._rng.integers(0, self.num_players, size=len(rows))
        else:
            self.seats[rows] = self.seat

    def seed(self, seed: int | None = None) -> Sequence[int | None]:
        """SB3's seeding (applied at the next ``reset()``); TypeError / ValueError for a
        seed that is not a non-negative integer or None."""
        return super().seed(check_seed(seed))

    def _observe(self) -> np.ndarray:
        return self._typed(self.engine.observe(self._st, observation_type=self.observation_type))

    def set_options(self, options: "dict | list[dict] | None" = None) -> None:
        """SB3's reset options, applied at the next ``reset()`` only (as ``DummyVecEnv`` passes
        them to each env's ``reset``). The one option is ``"seat"`` (``"random"`` or a seat),
        as the Gymnasium env's ``reset(options={"seat": s})``: the learner's seat in the games
        that reset starts (games started later draw theirs from ``seat`` again). A dict
        applies to every game, a list holds one dict per game. Checked here, before anything
        is stored: TypeError / ValueError naming the bad option (SB3's own VecEnv would keep
        it, and this env used to ignore every option silently)."""
        n = self.num_envs
        if options is None:
            options = {}
        if isinstance(options, dict):
            items = [options] * n
        elif isinstance(options, (list, tuple)):
            items = list(options)
            if len(items) != n:
                raise ValueError(f"set_options: a list of options needs one dict per game ({n}), got {len(items)}")
        else:
            raise TypeError(f"set_options takes a dict (e.g. {{'seat': 0}}), a list of {n} dicts or None, "
                            f"got {shown(options)}")
        for i, o in enumerate(items):
            if not isinstance(o, dict):
                raise TypeError(f"set_options: the options of game {i} must be a dict, got {shown(o)}")
            unknown = sorted(map(shown, set(o) - {"seat"}))
            if unknown:
                raise ValueError(f"unknown reset option {unknown[0]} (game {i}); the only option is 'seat'")
            if "seat" in o:
                check_seat(o["seat"], self.num_players)
        super().set_options(options if isinstance(options, dict) else items)

    def _seat_options(self, options: list) -> None:
        """The seats that ``set_options`` asked for, in the games this reset starts."""
        wanted = [(i, o["seat"]) for i, o in enumerate(options) if "seat" in o]
        drawn = []
        for i, seat in wanted:
            if seat == "random":
                drawn.append(i)
            else:
                self.seats[i] = int(seat)
        if drawn and self.seat != "random":  # with seat="random" these were drawn already
            self.seats[drawn] = self._rng.integers(0, self.num_players, size=len(drawn))

    def reset(self) -> ObsArray:  # SB3's VecEnvObs, narrowed: one array
        """New games in every env (the seeds of ``seed()`` and the options of
        ``set_options()``, each used by this reset only): the learners' observations
        [num_envs, D] at their first decisions (opponents seated before them have moved);
        ``reset_infos[i]["seat"]`` is game i's learner seat."""
        if self._seeds[0] is not None:
            seed_policies(self.opponents, np.random.SeedSequence(self._seeds[0]))  # first: one that raises
            self._rng = np.random.default_rng(self._seeds[0])  # leaves the generator as it was
        options = self._options
        self._reset_seeds()
        self._reset_options()
        seeds = self._rng.integers(0, SEED_HIGH, size=self.num_envs, dtype=np.int64)
        self._st = self._new_games(self.num_envs, seeds)
        self._draw_seats(np.arange(self.num_envs))
        self._seat_options(options)
        self._draw_opponents(np.arange(self.num_envs))
        self._broken = ""
        self._actions = None  # a step_async before this reset named actions of the games it replaced
        self._run_opponents(np.zeros(self.num_envs, dtype=np.float32))
        self.engine.legal_action_mask(self._st, out=self._mask)
        self.reset_infos = [{"seat": int(s)} for s in self.seats]
        return self._observe()

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
            which = self._assign[rows_all, (cp - self.seats - 1) % self.num_players]
            obs = {}  # observation type -> this round's observations (computed on demand)
            phi = rf.before(st)
            self.engine.legal_action_mask(st, out=mask, select=need)
            for k in np.unique(which[need]).tolist():
                policy = self._policies[k]
                rows = np.flatnonzero(need & (which == k))
                if getattr(policy, "uses_observation", True):
                    t = self._policy_types[k]
                    if t not in obs:
                        obs[t] = self.engine.observe(st, observation_type=t)
                    o = obs[t][rows]
                else:
                    o = np.zeros((rows.size, 0), dtype=np.int8)
                try:
                    chosen = policy.act_batch(o, mask[rows])
                except BaseException as exc:
                    self._broken = "an opponent failed"  # these games wait on it: no learner step before reset()
                    note_opponent_failure(exc, f"opponent {shown(policy)} in games {rows[:8].tolist()}")
                    raise
                actions[rows] = self._check_opponent(policy, chosen, rows, cp, mask)
            self.engine.step(st, actions, select=need)
            r = rf.after(st, need, cp, phi)
            rewards += r[rows_all, self.seats]

    def _check_opponent(self, policy, chosen, rows: np.ndarray, cp: np.ndarray, mask: np.ndarray) -> np.ndarray:
        """The opponent's actions for ``rows`` as int64, or an error naming the opponent,
        the game and the action (the env then needs reset())."""
        who = f"opponent {shown(policy)}"
        try:
            a = np.asarray(chosen)
            if a.dtype.kind not in "iu":
                raise TypeError(f"{who} returned actions of dtype {a.dtype} for games {rows[:8].tolist()}: "
                                f"{shown_values(a)}; expected integer action ids")
            if a.size != rows.size:
                raise ValueError(f"{who} returned {a.size} actions for {rows.size} games")
            a = a.reshape(-1)
            bad = (a < 0) | (a >= self.num_actions)
            if bad.any():
                j = int(np.flatnonzero(bad)[0])
                raise ValueError(f"{who} returned action {int(a[j])} in game {int(rows[j])} (seat {int(cp[rows[j]])}), "
                                 f"out of range (action ids are 0..{self.num_actions - 1})")
            a = a.astype(np.int64, copy=False)
            illegal = ~mask[rows, a]
            if illegal.any():
                j = int(np.flatnonzero(illegal)[0])
                g = int(rows[j])
                raise ValueError(f"{who} returned action {int(a[j])} in game {g} (seat {int(cp[g])}), which is not "
                                 f"legal there; legal: {legal_list(mask[g])}")
        except (TypeError, ValueError):
            self._broken = "an opponent failed"
            raise
        return a

    def step_async(self, actions: np.ndarray) -> None:
        """Checks the learners' actions now, so that a bad one raises here with no game changed."""
        self._require_ready()
        a = as_batch_array(actions, "learner actions", self.num_actions)
        n = self.num_envs
        if a.ndim > 1 and a.dtype.kind in "iu":
            # SB3's own VecEnvs hand env i actions[i] (the first axis is the game): one id per
            # game in [N] and [N, 1] (a Discrete space's actions as a column). Any other shape
            # holding N ids ([1, N], or [2, 2] for 4 games) was reshaped here, silently
            if a.shape != (n, 1):
                raise ValueError(f"learner actions must have shape ({n},) or ({n}, 1): one action id per game, "
                                 f"the game first (SB3's convention), got shape {a.shape}")
            a = a.reshape(n)
        a = action_batch(a, self.num_envs, who="learner actions", num_actions=self.num_actions)
        illegal = ~self._mask[np.arange(self.num_envs), a]
        if illegal.any():
            g = int(np.flatnonzero(illegal)[0])
            raise ValueError(f"game {g}: learner action {int(a[g])} ({self.game.action_label(int(a[g]))}) is not legal now "
                             f"(legal: {legal_list(self._mask[g])})")
        self._actions = a.copy()  # what was checked: the caller may reuse its array before step_wait

    def _require_ready(self) -> None:
        self._require_reset("step()")
        if self._broken:
            raise ValueError(f"{self._broken} in the last step or reset (see that error): call reset()")

    def step_wait(self) -> tuple[ObsArray, npt.NDArray[np.float32], MaskArray, list[Info]]:  # SB3's VecEnvStepReturn
        """Play the actions given to ``step_async`` (one learner action per game), then the
        opponents: ``(observations, rewards, dones, infos)`` as SB3's VecEnv returns them. A
        game that ended restarts at once; its ``infos[i]`` holds ``"terminal_observation"``
        and the final scores (module doc). ValueError without a ``step_async`` first."""
        self._require_ready()
        if self._actions is None:
            raise ValueError("call step_async(actions) before step_wait()")
        st = self._st
        actions, self._actions = self._actions, None
        rf = self.reward_fn
        rows_all = np.arange(self.num_envs)
        running = np.ones(self.num_envs, dtype=np.bool_)  # every game is at its learner's decision
        phi = rf.before(st)
        self.engine.step(st, actions)  # checked in step_async
        rewards = rf.after(st, running, self.seats, phi)[rows_all, self.seats]
        self._run_opponents(rewards)
        dones = st.terminated.copy()
        infos: list[dict[str, Any]] = [{} for _ in range(self.num_envs)]
        if dones.any():
            rows = np.flatnonzero(dones)
            seats = self.seats[rows]
            final_obs = self._typed(self.engine.observe(st, player=self.seats, observation_type=self.observation_type)[rows])
            view = score_view(st, rows)
            sc = self.engine.scores(view)
            won = strictly_best(self.engine.rewards(view), seats)
            round_limit = self.game.round_limit(st)[rows]
            for j, i in enumerate(rows.tolist()):  # info dicts are per game by SB3's convention
                infos[i] = {
                    "terminal_observation": final_obs[j],
                    "round_limit": bool(round_limit[j]),
                    "TimeLimit.truncated": False,  # R-E3 is a real end: no bootstrapping (module doc)
                    "scores": [self._score_dict(s) for s in sc[j]],
                    "seat": int(seats[j]),
                    "is_success": bool(won[j]),
                }
                if self.opponent_sampler is not None:
                    infos[i]["opponents"] = self._assign[i, :-1].tolist()
            self.engine.reset_finished(st, self._rng.integers(0, SEED_HIGH, size=self.num_envs, dtype=np.int64))
            self._draw_seats(rows)
            for i in rows.tolist():  # SB3's VecEnvs keep the new episode's reset info here
                self.reset_infos[i] = {"seat": int(self.seats[i])}
            self._draw_opponents(rows)
            self._run_opponents(np.zeros(self.num_envs, dtype=np.float32))  # new games' openings: reward 0
        self.engine.legal_action_mask(st, out=self._mask)
        return self._observe(), rewards.astype(np.float32), dones, infos

    def action_masks(self) -> MaskArray:
        """bool [N, num_actions]: the learners' legal actions (ValueError before ``reset()``
        and after ``close()``: there are no games, and no mask is an answer; also once an
        opponent failed, until ``reset()``: the masks held are those of the learners' last
        decisions, and the games wait on that opponent)."""
        if self._closed or self._st is None:
            raise ValueError(self._no_game_message("action_masks()"))
        if self._broken:
            raise ValueError(f"{self._broken} in the last step or reset (see that error): call reset() "
                             "before action_masks()")
        return self._mask.copy()

    # --- VecEnv plumbing -------------------------------------------------------------------
    def close(self) -> None:
        """Drop the games (idempotent): ``step`` and ``render`` then raise, naming it, until ``reset()``."""
        self._close()
        self._actions = None

    def get_images(self) -> list[npt.NDArray[np.uint8]]:
        """Every game's picture, a list of uint8 [H, W, 3] (Space Mission 800 x 1200, Red Planet 820 x 1340).
        ValueError, after game 0's picture and before the others, when N pictures of that
        size would need more than the machine's memory (checks.check_memory)."""
        return self._images(copies=1, what="get_images()")

    def _images(self, copies: int, what: str) -> list[npt.NDArray[np.uint8]]:
        """Every game's picture; ``copies``: how many times the caller holds their bytes (the
        tiled picture of ``render`` is a second copy), for the memory check."""
        self._require_reset("rendering")
        first = self._render_game(0, "rgb_array")
        check_memory(f"{what} of {count_text(self.num_envs)} games ({first.shape[1]} x {first.shape[0]} pictures) "
                     f"would need", copies * self.num_envs * first.nbytes,
                     "render fewer games (an env with a smaller num_envs) or one game as text (render('ansi'))")
        return [first] + [self._render_game(i, "rgb_array") for i in range(1, self.num_envs)]

    def render(self, mode: str | None = None):  # unannotated: "ansi" is a str, which SB3's VecEnv.render does not admit
        """``mode`` (default ``render_mode``): ``"ansi"`` game 0 as text, ``"human"`` prints
        it, ``"rgb_array"`` every game's picture tiled (SB3's ``tile_images``)."""
        mode = self.render_mode if mode is None else mode  # not `or`: "" or an array is checked
        if mode is None:
            warnings.warn("You tried to call render() but no `render_mode` was passed to the env constructor.")
            return None
        check_game_render_mode(mode)  # Game.render's check (None is the default above)
        self._require_reset("rendering")
        if mode == "rgb_array":
            return tile_images(self._images(copies=2, what="render('rgb_array')"))
        return self._render_game(0, mode)

    def _get_indices(self, indices: VecEnvIndices) -> list[int]:
        """SB3's ``indices`` (None: every game; an int; a sequence of ints, negative ones
        from the end) as a list; TypeError for what is not an integer, IndexError naming an
        index outside the games (SB3's ``DummyVecEnv`` raises IndexError there too)."""
        n = self.num_envs
        if indices is None:
            return list(range(n))
        items = [indices] if isinstance(indices, (int, np.integer)) else indices
        if isinstance(items, (str, bytes)) or not hasattr(items, "__iter__"):
            raise TypeError(f"indices must be None, a game index or a sequence of them (0..{n - 1}), got {shown(indices)}")
        items = list(items)
        for i in items:
            if isinstance(i, (bool, np.bool_)) or not isinstance(i, (int, np.integer)):
                raise TypeError(f"indices must be None, a game index or a sequence of them (0..{n - 1}), "
                                f"got {shown(indices)}")
            if not -n <= i < n:
                raise IndexError(f"indices: game index {shown(int(i))} is out of range for {n} games (0..{n - 1})")
        return [int(i) for i in items]

    def get_attr(self, attr_name: str, indices: VecEnvIndices = None) -> list[Any]:
        """Attributes are shared by all games, except ``seats`` (per game)."""
        idx = list(self._get_indices(indices))
        if isinstance(attr_name, str) and attr_name == "seats":  # else _look_up's TypeError (an array: no ==)
            return [int(self.seats[i]) for i in idx]
        value = self._look_up("get_attr", attr_name, want_method=False)
        return [value for _ in idx]

    def _look_up(self, caller: str, name: str, want_method: bool) -> Any:
        """``getattr`` for get_attr / env_method, whose errors name the caller, the missing
        name and the public names of that kind (SB3's ``has_attr`` relies on AttributeError)."""
        if not isinstance(name, str):
            raise TypeError(f"{caller}: the name must be a str, got {shown(name)}")
        try:
            return getattr(self, name)
        except AttributeError:
            pass
        kind = "methods" if want_method else "attributes"
        names = [n for n in dir(self)
                 if not n.startswith("_") and callable(inspect.getattr_static(self, n)) == want_method]
        raise AttributeError(f"{caller}({shown(name)}): {type(self).__name__} has no attribute {shown(name)}; "
                             f"its public {kind}: {', '.join(names)}")

    def set_attr(self, attr_name: str, value: Any, indices: VecEnvIndices = None) -> None:
        """Attributes are shared by all games, so ``indices`` must name every game (None does).
        ``seat`` (checked; the seats drawn from the next new game on) and ``render_mode``
        (checked) can be set; what is fixed when the env is built (the configuration,
        rewards, spaces, ``opponents``, the per-game ``seats``, methods) raises ValueError,
        since setting it would change nothing or break the games in progress; other names
        are set as new attributes."""
        if not isinstance(attr_name, str):  # it was looked up in a set and had .startswith called on it
            raise TypeError(f"set_attr: attr_name must be a str, got {shown(attr_name)}")
        idx = self._get_indices(indices)
        n = self.num_envs
        if len({i % n for i in idx}) != n:
            raise ValueError(f"set_attr({shown(attr_name)}): attributes are shared by all {n} games, set them for every "
                             f"game (indices=None), got indices={shown(indices)}")
        if attr_name == "seat":
            value = check_seat(value, self.num_players)
        elif attr_name == "render_mode":
            value = check_render_mode(value)
        elif attr_name in _FIXED_ATTRS or attr_name.startswith("_") or hasattr(type(self), attr_name):
            hint = _SET_ATTR_HINTS.get(attr_name, "")
            raise ValueError(f"set_attr({shown(attr_name)}): {attr_name} is fixed when the env is built{hint}; build a new "
                             f"{type(self).__name__} to change it")
        setattr(self, attr_name, value)

    def env_method(self, method_name: str, *method_args: Any, indices: VecEnvIndices = None,
                   **method_kwargs: Any) -> list[Any]:
        """``action_masks`` gives one row per game; other methods run once for all games.
        The arguments go to the method as given (``action_masks`` takes none: Python's
        TypeError, as SB3's own VecEnvs raise, rather than dropping them)."""
        idx = list(self._get_indices(indices))
        if isinstance(method_name, str) and method_name == "action_masks":  # else _look_up's TypeError
            masks = self.action_masks(*method_args, **method_kwargs)
            return [masks[i] for i in idx]
        method = self._look_up("env_method", method_name, want_method=True)
        if not callable(method):
            raise TypeError(f"env_method({shown(method_name)}): {method_name} is not a method of {type(self).__name__} "
                            f"(it is {type(method).__name__}); read it with get_attr")
        result = method(*method_args, **method_kwargs)
        return [result for _ in idx]

    def env_is_wrapped(self, wrapper_class: type[Wrapper], indices: VecEnvIndices = None) -> list[bool]:
        """False for every env: the games are not Gymnasium envs, so no wrapper wraps them."""
        return [False for _ in self._get_indices(indices)]


SpaceMissionVecEnv = GameVecEnv  # the name of the first game's VecEnv, kept
