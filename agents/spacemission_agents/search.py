"""SearchAgent: determinized Monte Carlo search over its own candidate actions.

Each decision (docs/agents_search.md has the measurements):

1. **Forced moves.** One legal action (a tile decision with one option, a lone top up):
   played at once, no search.
2. **Candidates.** HeuristicAgent (``prior="heuristic"``) plans the decision and scores
   the actions it considers (``HeuristicAgent.last_values``): one jump card per
   destination, the scan card that hurts least, two top-ups (draw only; also discard the
   cards its plan does not need), every develop pair, discover, both flies, every tile.
   The best ``candidates`` of them by that plan value are searched; the dozens of
   equivalent top-up masks and jump cards never are. With ``prior=None`` every legal
   action is a candidate except the top-ups, which are cut to three masks (draw only,
   discard everything, discard the highest slot). A mask narrowed by the caller to top-ups
   that neither list holds makes all of its ids candidates. ``prior="auto"`` (default) puts the
   shipped PPO agent's choice first where a shipped model fits the game (2-5 players,
   yucata, 100 rounds), so it is the choice kept unless beaten; elsewhere the heuristic's
   best leads. ``prior="ppo"`` insists on the network (ValueError where none fits).
3. **Worlds.** ``spacemission_env.space_mission.determinize.sample_worlds_from_observation`` draws K
   full game states consistent with the bot's own ``"recall"`` observation (R-I1..R-I5):
   other hands, the draw order, unseen piles and rivals' reservations resampled. The bot
   reads nothing but its observation and mask.
4. **Selection.** Each batch copies K worlds once per candidate (rows of one BatchState,
   numpy fancy indexing), applies each candidate in its copies and plays all rows to the
   end of the game in one batched simulation (``_search_rollout.simulate``): every
   candidate meets the *same* worlds (common random numbers, even the future reshuffles),
   so differences come from the action. ``select="paired"`` (default): batches of worlds
   (the first a quarter of the budget); the prior's choice (the first candidate) is in
   every batch and is kept unless another candidate beats it by more than ``z`` standard
   errors of the paired difference of values; after each batch a candidate worse than it
   by more than ``drop_z`` standard errors leaves the race, so the later batches go to the
   close candidates (and the search stops once only the prior's choice is left).
   ``select="halving"``: sequential halving, ceil(log2 C) rounds, the worse half of
   the candidates dropped after each, the rollouts split evenly over the rounds, the best
   mean wins. Only candidates whose plan value is within ``gap`` of the best are searched.
5. **Rollouts.** The first ``heuristic_steps`` steps of every rollout (default: 4 per
   player, about two rounds' actions with their tile decisions at any player count) are
   played by HeuristicAgent at every seat (on each seat's own observation), the rest by the rollout
   policy: ``rollout="greedy"`` (default): GreedyAgent's compiled kernel plays every seat,
   fed from the world state directly (exact piles; no observation built);
   ``"kind-random"``: engine.sample_actions(by_kind=True); or any agent object, which
   plays on each acting seat's own observation (reseeded before each decision from the
   bot's seed and the observation when it has a ``seed`` method; one without it that draws
   random numbers makes the bot's decisions irreproducible, whatever its ``seed``, as
   opponents without one are in the envs and the arena). ``depth`` caps a rollout at that many of
   the bot's turns (then the leaf is valued by the provisional score margin, reservations
   counted at ``reservation_weight``).
6. **Value** of a rollout for the bot: its R-P8 rank reward (1 win, -1 loss, shared ties;
   ``tanh(margin / 10)`` for a leaf cut by ``depth``) plus ``margin_weight`` x its final
   score margin over the best rival.

Budget: ``budget`` seconds per decision (``clock="cpu"``: the thread's CPU time, so the
budget means one core's time whatever the machine's load; ``"wall"``: elapsed time), or
``iterations`` rollouts per decision (then play is a deterministic function of the seed
and the observation). A time budget splits its time over the rounds with a running
estimate of the cost of one rollout (per stage of the game, and apart once the end is
triggered); a hard deadline inside the simulation guards it.
Before its first timed decision in a game the bot plays one small batch from a start
position off the clock, so that loading (or, on a fresh install, compiling) the numba
kernels neither eats that decision's budget nor inflates the cost estimate of the next ones.
``act_batch`` decides row by row, each row with the full budget.

Memory: a batch holds all of its rollouts at once (about 10 KB each at their peak, 2
players). ``iterations`` whose batches could not fit this machine's memory are refused
when the bot is made (a batch holds at least an eighth of them); a ``budget`` plans its
batches from the measured cost of a rollout, and a batch that could not fit is refused
(ValueError naming the budget) before anything of it is allocated.
"""
from __future__ import annotations

import functools
import math
import time

import numpy as np

from spacemission_env.checks import check_memory, count_text, is_int, shown
from spacemission_env.games import BindConfig, bind_config
from spacemission_env import decode
from spacemission_env.space_mission import engine
from spacemission_env.space_mission.actions import NUM_ACTIONS
from spacemission_env.space_mission.config import check_game_config
from spacemission_env.space_mission.determinize import sample_worlds_from_observation
from spacemission_env.policies import BasePolicy

from ._search_common import (ROLLOUT_BYTES, check_budget, check_recall_rows, number_setting,
                             observation_rng, rollout_agent_seed, stage_key, unbound_game)
from ._search_rollout import AgentRollout, GreedyRollout, KindRandomRollout, simulate

__all__ = ["SearchAgent"]

ROLLOUTS = ("greedy", "kind-random")
PRIORS = ("auto", "ppo", "heuristic", None)
CLOCKS = {"cpu": time.thread_time, "wall": time.perf_counter}
LEAF_SCALE = 10.0  # points of margin at which a cut leaf counts as about a win (tanh)
HEAD_PER_PLAYER = 4  # default heuristic steps at the head of a rollout, per player
_number = functools.partial(number_setting, owner="SearchAgent")  # its settings checked, naming it
_FIRST_ROW_COST = 1.5e-4  # x players^2: seconds per rollout before any was measured (default head)
# a batch holds at least 1/8 of ``iterations`` where that is much (paired: about a quarter in its first;
# halving: a 1/ceil(log2 C) share, at most 7 rounds for 100 actions, less one rollout per candidate)
MIN_BATCH_SHARE = 8


class SearchAgent(BasePolicy):
    """Determinized Monte Carlo search (module docstring). ``SearchAgent(budget=0.1,
    iterations=None, rollout="greedy", seed=0, *, candidates=6, prior="auto",
    depth=None, margin_weight=0.1, clock="cpu", select="paired", z=1.0, gap=3.0,
    reservation_weight=0.5, heuristic_steps=None, drop_z=1.0)``; bad values raise ValueError
    naming the parameter. docs/agents_search.md has the evidence behind the defaults."""

    name = "search"
    observation_type = "recall"
    uses_observation = True

    def __init__(self, budget: float = 0.1, iterations: int | None = None, rollout="greedy", seed: int | None = 0, *,
                 candidates: int = 6, prior: str | None = "auto", depth: int | None = None,
                 margin_weight: float = 0.1, clock: str = "cpu", select: str = "paired", z: float = 1.0,
                 gap: float = 3.0, reservation_weight: float = 0.5, heuristic_steps: int | None = None,
                 drop_z: float | None = 1.0):
        self.budget = check_budget(budget, "SearchAgent")
        self.iterations = _number("iterations", iterations, 1, integer=True, allow_none=True)
        if self.iterations is not None:  # one batch holds at least an eighth of them
            rows = self.iterations // MIN_BATCH_SHARE
            check_memory(f"SearchAgent: iterations={count_text(self.iterations)} plays at least {count_text(rows)} "
                         f"rollouts in one batch (an eighth of them), which need", rows * ROLLOUT_BYTES,
                         "use fewer iterations")
        self.candidates = _number("candidates", candidates, 1, integer=True)
        self.depth = _number("depth", depth, 1, integer=True, allow_none=True)
        self.margin_weight = _number("margin_weight", margin_weight, 0.0)
        self.z = _number("z", z, 0.0)
        self.drop_z = _number("drop_z", drop_z, 0.0, allow_none=True)
        self.reservation_weight = _number("reservation_weight", reservation_weight, 0.0)
        self.heuristic_steps = _number("heuristic_steps", heuristic_steps, 0, integer=True, allow_none=True)
        self.gap = float(_number("gap", gap, 0.0)) if gap != math.inf else math.inf
        if select not in ("halving", "paired"):
            raise ValueError(f"SearchAgent: select must be 'halving' or 'paired', got {shown(select)}")
        self.select = select
        if prior not in PRIORS:
            raise ValueError(f"SearchAgent: prior must be one of {PRIORS}, got {shown(prior)}")
        if clock not in CLOCKS:
            raise ValueError(f"SearchAgent: clock must be one of {tuple(CLOCKS)}, got {shown(clock)}")
        if isinstance(rollout, str):
            if rollout not in ROLLOUTS:
                raise ValueError(f"SearchAgent: rollout must be one of {ROLLOUTS} or an agent object, got {shown(rollout)}")
        elif not callable(getattr(rollout, "act_batch", None)):
            raise ValueError(f"SearchAgent: rollout {shown(rollout)} is neither one of {ROLLOUTS} nor an agent (act_batch)")
        self.rollout, self.prior, self.clock = rollout, prior, clock
        self._clock = CLOCKS[clock]
        self._prior_agent = None
        if prior is not None:
            from .heuristic import HeuristicAgent
            self._prior_agent = HeuristicAgent(seed=0)
        # game -> (the shipped PPO agent or None where none fits, whether it takes the prior's plan values)
        self._ppo: dict[tuple, tuple] = {}
        self._head = None
        if self.heuristic_steps != 0:
            from .heuristic import HeuristicAgent
            self._head = AgentRollout(HeuristicAgent(seed=1))
        self.config: tuple[int, str, int] | None = None
        # (players, stage of the game, end triggered) -> running estimate of seconds per rollout:
        # a rollout to the end costs ten times more at the start than near it, so one estimate for
        # all stages sized the next game's first batches for the last one's short rollouts and the
        # deadline cut them all after a few plies. Once the end is triggered (R-E1) a rollout plays
        # out the round only: a game that ended early left its stage's estimate some 25 times too
        # low for the next game's decisions at that stage, whose first batch then overran a 0.03 s
        # budget 2.3 times (one ply of the heuristic head over the batch's hundreds of rows)
        self._row_cost: dict[tuple[int, int, int], float] = {}
        self._stage = (0, 0, 0)  # the key of the decision under way
        self._rollouts = self._worlds = 0  # the decision under way's counts
        self._warmed: set[tuple[int, str, int]] = set()  # games whose kernels are loaded (_warm_up)
        self.stats = {"decisions": 0, "searched": 0, "rollouts": 0, "worlds": 0, "seconds": 0.0}
        self.last_search: dict | None = None
        self.seed(seed)

    # --- protocol ----------------------------------------------------------------------
    def seed(self, seed: int | None = None) -> None:
        """Play is a deterministic function of the seed and the observation (with an
        ``iterations`` budget); None means 0."""
        if seed is not None and (not is_int(seed) or seed < 0):
            raise ValueError(f"SearchAgent: seed must be a non-negative integer or None, got {shown(seed)}")
        self._seed = int(seed or 0)

    def bind(self, config: BindConfig) -> None:
        """Keep the game configuration (num_players, rules, max_rounds): the determinizer
        needs it. Without ``bind`` the player count and the round limit are read from the
        observation and the rules default to yucata (:func:`unbound_game`). ValueError for
        another game."""
        config = bind_config(config, "spacemission", "SearchAgent")  # what the game's other bots take
        self.config = check_game_config(config.num_players, config.rules, config.max_rounds)

    def act_batch(self, observations: np.ndarray, action_masks: np.ndarray) -> np.ndarray:
        """One search per row, each with the full budget (rows are independent)."""
        obs, masks = check_recall_rows("SearchAgent", observations, action_masks, NUM_ACTIONS)
        out = np.zeros(masks.shape[0], dtype=np.int64)
        for i in range(masks.shape[0]):
            out[i] = self._decide(obs[i], masks[i])
        return out

    # --- one decision ----------------------------------------------------------------------
    def _game(self, obs: np.ndarray, view: dict) -> tuple[int, str, int]:
        if self.config is None:
            return unbound_game("SearchAgent", obs, view=view)
        n = int(view["seat_present"].sum())
        if n != self.config[0]:
            raise ValueError(f"SearchAgent: the observation has {n} seats but the bot is bound to {self.config[0]} players")
        return self.config

    def _candidates(self, obs: np.ndarray, mask: np.ndarray, game: tuple[int, str, int], rows: dict) -> np.ndarray:
        """The candidates, best first; ``rows``: ``obs[None]`` decoded (the prior reads it)."""
        legal = np.flatnonzero(mask)
        if self._prior_agent is not None:
            self._prior_agent._act_rows(obs[None], mask[None], rows)  # rows checked by act_batch
            plan = values = self._prior_agent.last_values[0]
            scored = legal[np.isfinite(values[legal])]
            if scored.size == 0:
                # a caller's narrowed mask that leaves only top-ups the plan never scores: every
                # legal id is a candidate, in id order (the prior has nothing to say about them)
                scored, values = legal, np.zeros(mask.shape[0])
            order = scored[np.argsort(-values[scored], kind="stable")]
            order = order[values[order] >= values[order[0]] - self.gap]
            first = self._ppo_choice(obs, mask, game, plan) if self.prior in ("auto", "ppo") else None
            if first is not None:  # the network's choice first (the one kept unless beaten)
                order = np.concatenate([[first], order[order != first]]).astype(np.int64)
            return order[:self.candidates]
        hand = int(rows["hand_size"][0, 0])
        keep = {0, (1 << hand) - 1, 1 << (hand - 1)} if hand else {0}
        cands = np.array([a for a in legal if a >= 32 or a in keep], dtype=np.int64)
        return cands if cands.size else legal.astype(np.int64)  # a mask of other top-ups only: all of them

    def _ppo_choice(self, obs: np.ndarray, mask: np.ndarray, game: tuple[int, str, int],
                    plan: np.ndarray) -> int | None:
        """The shipped PPO agent's choice for this game (loaded at first use); None where no
        shipped model fits the game and the prior is "auto" (the heuristic's choice leads).
        ``plan``: the prior's plan values of this decision (its heuristic bot's last_values
        row), which the model's heuristic prior takes instead of planning it again where it
        plans as the search's prior does (the shipped models' do: the bot's defaults)."""
        if game not in self._ppo:
            from spacemission_env.games import GameConfig
            from .ppo import PPOAgent
            try:
                agent = PPOAgent.load_shipped(game[0])
                agent.bind(GameConfig(*game))
            except ValueError as e:
                if self.prior == "ppo":
                    raise ValueError(f"SearchAgent: prior='ppo' needs a shipped PPO model for this game: {e}") from None
                agent = None
            shared = agent is not None and agent.prior is not None and agent.temperature == 0.0 \
                and agent.prior.shares_plans_with(self._prior_agent)
            self._ppo[game] = (agent, shared)
        agent, shared = self._ppo[game]
        if agent is None:
            return None
        if shared:  # obs and mask checked by act_batch (check_recall_rows: int8, bool, a legal action)
            return int(agent._act_planned(obs[None], mask[None], plan[None])[0])
        return int(agent.act(obs, mask))

    def _policy(self, rng: np.random.Generator, obs: np.ndarray):
        if self.rollout == "greedy":
            return GreedyRollout(salt=self._seed)
        if self.rollout == "kind-random":
            return KindRandomRollout(rng)
        reseed = getattr(self.rollout, "seed", None)
        if callable(reseed):  # a stochastic agent: its draws must come from this decision alone
            reseed(rollout_agent_seed(self._seed, obs))
        return AgentRollout(self.rollout)

    def _batch(self, obs, cands, per_world, game, rng, policy, deadline) -> np.ndarray:
        """Values [len(cands), per_world]: each candidate played in the same per_world worlds."""
        n, rules, max_rounds = game
        k = cands.size
        knob = f"iterations={count_text(self.iterations)}" if self.iterations is not None else f"budget={self.budget:g} s"
        check_memory(f"SearchAgent: {knob}: this batch would play {count_text(k * per_world)} rollouts "
                     f"({count_text(per_world)} worlds x {k} candidates) at once, which need", k * per_world * ROLLOUT_BYTES,
                     f"use {'fewer iterations' if self.iterations is not None else 'a smaller budget'}")
        t0 = self._clock()
        w = sample_worlds_from_observation(obs, n, rules, max_rounds, per_world, rng, player=0)
        st = w.take(np.tile(np.arange(per_world), k))
        engine.step(st, np.repeat(cands, per_world))
        outcome, margin, done, _ = simulate(st, policy, self.depth, deadline, self._clock, self.reservation_weight,
                                            self._head, self._head_steps(n))
        outcome = np.where(done, outcome, np.tanh(margin / LEAF_SCALE))
        spent = self._clock() - t0
        old = self._row_cost.get(self._stage, spent / (k * per_world))
        self._row_cost[self._stage] = 0.7 * old + 0.3 * spent / (k * per_world)
        self._rollouts += k * per_world
        self._worlds += per_world
        return (outcome + self.margin_weight * margin).reshape(k, per_world)

    def _head_steps(self, n: int) -> int:
        """Heuristic steps at the head of a rollout: the parameter, or 4 per player (at 4
        players 16 steps were worth more than 8 or 24 at 0.1 s; docs/agents_search.md)."""
        return HEAD_PER_PLAYER * n if self.heuristic_steps is None else self.heuristic_steps

    def _per_world(self, k, rounds_left, deadline, n, planned_rollouts):
        if self.iterations is not None:
            return max(1, planned_rollouts // k)
        left = deadline - self._clock()
        return int(left / rounds_left / (self._rollout_cost(n) * k))

    def _rollout_cost(self, n: int) -> float:
        """The running cost of a rollout at this stage of the game; at a stage not met yet,
        the dearest one measured at this player count (rather too few rollouts than a batch
        that the deadline cuts), else a first guess."""
        if self._stage in self._row_cost:
            return self._row_cost[self._stage]
        known = [c for key, c in self._row_cost.items() if key[0] == n]
        return max(known) if known else _FIRST_ROW_COST * n * n

    def _warm_up(self, game: tuple[int, str, int]) -> None:
        """One batch of a world per candidate from a start position, once per game and
        outside any decision's clock: it loads every kernel a search calls (the prior, world
        sampling, the engine, the rollout policy) from numba's cache, or compiles them on a
        fresh install. In the budget, that took a fresh process's first decision down to one
        world per candidate and inflated the stage's cost estimate, which starved the next
        decisions too (tests/agents/test_search_warm_up.py). The estimate and the counts are
        left as they were, so a warm decision plays as before."""
        if game in self._warmed:
            return
        st = engine.init(1, game[0], seeds=0, rules=game[1], max_rounds=game[2])
        obs = engine.observe(st, observation_type="recall")[0]
        kept = dict(self._row_cost), self._stage, self._rollouts, self._worlds
        cands = self._candidates(obs, engine.legal_action_mask(st)[0], game, decode(obs[None], "recall"))
        rng = np.random.default_rng(0)
        self._batch(obs, cands, 1, game, rng, self._policy(rng, obs), None)
        self._row_cost, self._stage, self._rollouts, self._worlds = kept
        self._warmed.add(game)

    def _decide(self, obs: np.ndarray, mask: np.ndarray) -> int:
        self.stats["decisions"] += 1
        legal = np.flatnonzero(mask)
        self.last_search = None
        if legal.size == 1:
            return int(legal[0])
        # the observation decoded once for the whole decision: as a batch of one (the prior's
        # features) and its row (the game, the stage, the hand); the determinizer reads it
        # once more, as int64 (determinize._knowledge, kept for the decision's later batches)
        rows = decode(obs[None], "recall")
        view = {name: block[0] for name, block in rows.items()}
        game = self._game(obs, view)
        if self.iterations is None:  # a time budget: its clock starts with the kernels loaded
            self._warm_up(game)
        start = self._clock()
        cands = self._candidates(obs, mask, game, rows)
        if cands.size == 1:
            return int(cands[0])
        rng = observation_rng(self._seed, obs)
        policy = self._policy(rng, obs)
        deadline = None if self.iterations is not None else start + self.budget
        self._stage = stage_key(obs, view)
        self._rollouts = self._worlds = 0
        if self.select == "halving":
            best, info = self._halving(obs, cands, game, rng, policy, deadline)
        else:
            best, info = self._paired(obs, cands, game, rng, policy, deadline)
        elapsed = self._clock() - start
        self.stats["searched"] += 1
        self.stats["rollouts"] += self._rollouts
        self.stats["worlds"] += self._worlds
        self.stats["seconds"] += elapsed
        self.last_search = {"candidates": cands.tolist(), **info, "rollouts": self._rollouts, "worlds": self._worlds,
                            "seconds": elapsed, "action": best}
        return best

    def _halving(self, obs, cands, game, rng, policy, deadline):
        """Sequential halving: ceil(log2 C) rounds, the worse half dropped after each."""
        c = cands.size
        rounds = max(1, math.ceil(math.log2(c)))
        total, count = np.zeros(c), np.zeros(c, np.int64)
        alive = np.arange(c)
        for r in range(rounds):
            k = alive.size
            per_world = self._per_world(k, rounds - r, deadline, game[0], (self.iterations or 0) // rounds)
            if per_world < 1:
                if r > 0:
                    break
                per_world = 1
            value = self._batch(obs, cands[alive], per_world, game, rng, policy, deadline)
            total[alive] += value.sum(axis=1)
            count[alive] += per_world
            if r < rounds - 1:
                mean = total[alive] / count[alive]
                alive = alive[np.argsort(-mean, kind="stable")[:max(1, math.ceil(k / 2))]]
                if alive.size == 1:
                    break
        mean = total[alive] / np.maximum(count[alive], 1)
        best = int(cands[alive[int(np.argmax(mean))]])
        return best, {"mean": (total / np.maximum(count, 1)).tolist(), "count": count.tolist()}

    def _paired(self, obs, cands, game, rng, policy, deadline):
        """Every candidate still in the race meets the same worlds in each batch; the prior's
        choice (cands[0]) is kept unless another beats it by more than ``z`` standard errors
        of the paired difference. After each batch, a candidate that is worse than the
        prior's choice by more than ``drop_z`` standard errors leaves the race, so the
        remaining batches are spent on the close ones (each batch holds the prior's choice)."""
        c = cands.size
        alive = np.arange(c)
        total = np.zeros(c)
        s1, s2, count = np.zeros(c), np.zeros(c), np.zeros(c, np.int64)  # paired differences vs cands[0]
        rounds = 4 if self.iterations is not None else 8
        left = self.iterations
        for r in range(rounds):
            k = alive.size
            if self.iterations is not None:
                per_world = max(1, left // (k * (rounds - r)))
                left -= per_world * k
            else:  # batches of a quarter of the remaining time
                per_world = self._per_world(k, max(1, 4 - r), deadline, game[0], 0)
                if per_world < 1:
                    if r > 0:
                        break
                    per_world = 1
            v = self._batch(obs, cands[alive], per_world, game, rng, policy, deadline)
            d = v - v[0]
            total[alive] += v.sum(axis=1)
            s1[alive] += d.sum(axis=1)
            s2[alive] += (d * d).sum(axis=1)
            count[alive] += per_world
            if self.drop_z is not None and k > 1 and count[0] >= 4:  # a few worlds before judging
                mean_d, se = self._paired_stats(s1[alive], s2[alive], count[alive])
                keep = (mean_d + self.drop_z * se >= 0) | (alive == 0)
                alive = alive[keep]
            if alive.size == 1 or (self.iterations is not None and left < alive.size):
                break  # decided (only the prior's choice is left), or the iterations are spent
        mean_d, se = self._paired_stats(s1, s2, count)
        score = np.where((np.arange(c) == 0) | (count < 2), 0.0, mean_d - self.z * se)
        score[np.setdiff1d(np.arange(c), alive)] = -np.inf
        j = int(np.argmax(score)) if score.max() > 0 else 0
        mean = total / np.maximum(count, 1)
        return int(cands[j]), {"mean": mean.tolist(), "count": count.tolist(), "lcb": score.tolist()}

    @staticmethod
    def _paired_stats(s1, s2, m):
        """Mean and standard error of the paired differences from their sums (m rollouts each)."""
        m = np.maximum(m, 1)
        mean = s1 / m
        var = np.maximum(s2 - m * mean * mean, 0.0) / np.maximum(m - 1, 1)
        return mean, np.where(m > 1, np.sqrt(var / m), np.inf)

    def __repr__(self) -> str:
        b = f"iterations={self.iterations}" if self.iterations is not None else f"budget={self.budget}"
        r = self.rollout if isinstance(self.rollout, str) else getattr(self.rollout, "name", type(self.rollout).__name__)
        return f"SearchAgent({b}, rollout={r!r})"
