"""NetSearchAgent: PUCT search over determinized worlds, guided by the shipped network.

Each decision (docs/agents_netsearch.md has the measurements):

1. **Forced moves** (one legal action) are played at once.
2. **Prior.** One call of the PPO model (``PPOAgent.logits``) on the bot's own "recall"
   observation and mask: P = softmax of its logits / ``temperature`` over the legal
   actions (the shipped model's softmax is nearly one-hot: a temperature flattens it);
   the ``candidates`` most probable actions are searched (P renormalised over them).
3. **Worlds.** ``sample_worlds_from_observation`` draws ``worlds`` full states
   consistent with the observation (R-I1..R-I5); the bot is seat 0 in them. Candidate
   ``a``'s ``k``-th simulation runs in world ``k mod worlds``, so every candidate meets
   the same worlds in the same order (common random numbers); the worlds are sampled in
   chunks of 16 as the visits reach them. The default (2**20) is never reached in
   practice: a second simulation of a candidate in the same world would replay the same
   game (the policy is greedy and the world holds its generator).
4. **Simulations**, in waves (one batched engine call per ply for the whole wave): apply
   the candidate in a copy of its world; then the policy plays every seat (one
   ``act_batch`` per ply for all rows) to the end of the game (``until="end"``, the
   default; ``"turn"``: until the bot starts its next turn; ``"decision"``: its next
   decision) or for at most ``depth`` plies. A finished game is worth seat 0's R-P8 rank
   reward mixed with weight ``margin`` with ``tanh(lead / 10 points)`` (its lead over the
   best rival: far less noisy than a win/loss bit, so fewer simulations tell candidates
   apart); an unfinished leaf is valued by the value net on the bot's observation, mixed
   with weight ``mix`` with the outcome of a greedy rollout from the leaf to the end
   (``_search_rollout.simulate``, GreedyAgent's kernel at every seat). Played to the end,
   the simulations are the network's own continuation of each candidate: the search is a
   policy-improvement step over the network (one-step lookahead with it as the rollout
   policy), which gains most against the network itself.
5. **Selection** (PUCT at the root): each simulation of a wave goes to the candidate
   maximising ``Q + c_puct * P * sqrt(N_total) / (1 + N)`` (an unvisited candidate's Q
   is the root's own value estimate); visits already given out in the wave count, so a
   wave spreads. The first wave gives every candidate ``first`` simulations (round robin
   in the prior's order, cut like any wave to what the budget allows). The action
   played is the most visited; a tie in visits (no evidence either way) goes to the
   prior's favourite.

``seer_value`` (a path; default None: unused) names a *perfect-information* value net
(``value_fit --observation-type seer``, fitted for the same policy): an unfinished leaf
is then valued by it on the leaf world's "seer" observation from the bot's seat (the
sampled world's full state), in place of the recall value net on the bot's observation
(``mix`` still weighs a greedy rollout against it). Meant for short simulations
(``until="turn"``): the net averages over the future draws a rollout would sample once.

Budget: ``budget`` CPU seconds of the thread per decision (``time.thread_time``), kept in
each decision: a wave is sized to the time left at the cost of a simulation measured at
this stage of the game (``round // STAGE_ROUNDS``, apart once the end is triggered; a
simulation to the end from the opening costs tens of times one from the last rounds; at a
stage not met yet, a wave of one first measures it) plus a wave's fixed part
(``WAVE_FIXED``), and
the clock is read at every ply: a wave the deadline overtakes is dropped, its visits
uncounted (``last_search["dropped"]``). A decision's first wave holds at least one
simulation, so a stale estimate is measured anew. Or ``iterations`` simulations per decision (then
the action is a deterministic function of the seed and the observation). The world
sampling is seeded from a hash of the seed and the observation.

Memory: a wave holds all of its simulations at once (at least 8 KiB each; 13 KB were
measured); a wave that could not fit this machine's memory (a huge ``wave`` or ``first``
that ``iterations`` or the budget leaves uncut) is refused, ValueError naming the
parameter, before anything of it is allocated or chosen. ``worlds`` is at most 2**63 - 1
(world numbers are int64).
"""
from __future__ import annotations

import functools
import math
import time
from pathlib import Path

import numpy as np

from spacemission_env import decode
from spacemission_env.checks import INDEX_LIMIT, check_memory, count_text, cut_long_words, is_int, shown, shown_path
from spacemission_env.games import BindConfig, GameConfig, bind_config
from spacemission_env.policies import BasePolicy
from spacemission_env.space_mission import engine
from spacemission_env.space_mission.config import check_game_config
from spacemission_env.space_mission.determinize import sample_worlds_from_observation

from ._search_common import (ROLLOUT_BYTES, check_budget, check_recall_rows, number_setting, observation_rng, stage_key,
                             unbound_game)
from ._search_rollout import GreedyRollout, simulate
from .model_files import one_blas_thread
from .ppo import PPOAgent
from .value import SHIPPED_VALUES, ValueNet

__all__ = ["NetSearchAgent"]

CHUNK = 16  # worlds are sampled in chunks of this many, as the visits need them
# more than any candidate's visits at a practical budget: the policy plays greedily and each
# world holds its own generator, so a candidate's simulation in a world it met before replays
# the same game (with 64 worlds, 35-70% of the simulations past 0.3 s were such repeats)
WORLDS = 2**20
UNTIL = ("turn", "decision", "end")  # where the policy's plies stop (module doc, step 4)
MARGIN_POINTS = 10.0  # a lead of this many points is worth tanh(1) of a win (``margin``)
CLOCKS = {"cpu": time.thread_time, "wall": time.perf_counter}
# A wave's cost is about (size + WAVE_FIXED) x a simulation's: each ply has a fixed part (the
# engine's and the network's calls) worth 5-7 simulations of it at every stage of a game
# (measured with 1-64 simulations a wave at plies 0, 30 and 60; docs/agents_netsearch.md).
WAVE_FIXED = 6.0


_number = functools.partial(number_setting, owner="NetSearchAgent")


def _fraction(name: str, value) -> float:
    """A weight in [0, 1] (ValueError naming it otherwise)."""
    out = _number(name, value, 0.0)
    if out > 1:
        raise ValueError(f"NetSearchAgent: {name} must be in [0, 1], got {shown(value)}")
    return out


class NetSearchAgent(BasePolicy):
    """PUCT over determinized worlds with the PPO prior and a fitted value net (module doc).

    ``NetSearchAgent(budget=0.1, iterations=None, seed=0, *, worlds=1048576, candidates=6,
    c_puct=3.0, temperature=3.0, mix=0.0, margin=0.5, depth=300, until="end", first=2, wave=16,
    policy=None, value=None, clock="cpu", seer_value=None)``;
    ``policy``/``value``: paths of a PPO model and of the value net fitted for it
    (default: the shipped ones for the game's player count); ``seer_value``: a seer value
    net for the policy, which then values the unfinished leaves (module doc). Bad values raise ValueError
    naming the parameter."""

    name = "netsearch"
    observation_type = "recall"
    uses_observation = True

    def __init__(self, budget: float = 0.1, iterations: int | None = None, seed: int | None = 0, *,
                 worlds: int = WORLDS, candidates: int = 6, c_puct: float = 3.0, temperature: float = 3.0,
                 mix: float = 0.0, margin: float = 0.5, depth: int = 300, until: str = "end", first: int = 2,
                 wave: int = 16, policy: str | None = None, value: str | None = None, clock: str = "cpu",
                 seer_value: str | None = None):
        self.budget = check_budget(budget, "NetSearchAgent")
        self.iterations = _number("iterations", iterations, 1, integer=True, allow_none=True)
        self.worlds = _number("worlds", worlds, 1, integer=True)
        if self.worlds > INDEX_LIMIT:  # world numbers (visits mod worlds) are int64
            raise ValueError(f"NetSearchAgent: worlds must be an integer in 1..{INDEX_LIMIT} (2**63 - 1; world "
                             f"numbers are int64), got {shown(worlds)}")
        self.candidates = _number("candidates", candidates, 1, integer=True)
        self.c_puct = _number("c_puct", c_puct, 0.0)
        self.temperature = _number("temperature", temperature, 0.0)
        self.mix, self.margin = _fraction("mix", mix), _fraction("margin", margin)
        if self.temperature <= 0:
            raise ValueError(f"NetSearchAgent: temperature must be > 0, got {shown(temperature)}")
        self.depth = _number("depth", depth, 0, integer=True)
        self.first = _number("first", first, 0, integer=True)
        self.wave = _number("wave", wave, 1, integer=True)
        if until not in UNTIL:
            raise ValueError(f"NetSearchAgent: until must be one of {UNTIL}, got {shown(until)}")
        self.until = until
        if clock not in CLOCKS:
            raise ValueError(f"NetSearchAgent: clock must be one of {tuple(CLOCKS)}, got {shown(clock)}")
        for name, p in (("policy", policy), ("value", value), ("seer_value", seer_value)):
            if p is not None and not isinstance(p, str):
                raise ValueError(f"NetSearchAgent: {name} must be a file path or None, got {shown(p)}")
        if policy is None and value is not None:
            raise ValueError("NetSearchAgent: a value path needs the policy path it was fitted for")
        for name, p in (("policy", policy), ("value", value), ("seer_value", seer_value)):
            if p is not None and not Path(p).is_file():
                what = "a directory" if Path(p).is_dir() else "no file"
                raise ValueError(f"NetSearchAgent: {name} {shown_path(p)} is {what}")
        self.clock, self._clock = clock, CLOCKS[clock]
        self._greedy = GreedyRollout(salt=0)
        self._paths: tuple[str | Path | None, str | Path | None] = (policy, value)
        self._nets: dict[tuple, tuple[PPOAgent, ValueNet | None]] = {}
        self.seer_value = seer_value
        self._seers: dict[tuple, ValueNet | None] = {}
        self._seer: ValueNet | None = None  # the seer value net of the game last looked up (_networks)
        self.config: tuple[int, str, int] | None = None
        # running CPU seconds per simulation (a wave costs that x (size + WAVE_FIXED)), per stage
        # of the game (players, round // STAGE_ROUNDS, end triggered: _stage): a simulation to the
        # end of the game from the opening costs tens of times one from the last rounds
        self._sim_cost: dict[tuple[int, int, int], float] = {}
        self.stats = {"decisions": 0, "searched": 0, "simulations": 0, "dropped": 0, "seconds": 0.0}
        self.last_search: dict | None = None
        self.seed(seed)

    # --- protocol --------------------------------------------------------------------------
    def seed(self, seed: int | None = None) -> None:
        if seed is not None and (not is_int(seed) or seed < 0):
            raise ValueError(f"NetSearchAgent: seed must be a non-negative integer or None, got {shown(seed)}")
        self._seed = int(seed or 0)

    def bind(self, config: BindConfig) -> None:
        """Keep the game configuration and load the policy and value net for it
        (ValueError where none fits)."""
        config = bind_config(config, "spacemission", "NetSearchAgent")  # what the game's other bots take
        game = check_game_config(config.num_players, config.rules, config.max_rounds)
        self._networks(game)  # ValueError where none fits: the last good configuration is kept
        self.config = game

    def _networks(self, game: tuple[int, str, int]) -> tuple[PPOAgent, ValueNet | None]:
        """The policy and its value net for ``game``; the value net is None where no shipped
        one fits (3-5 players): leaves that did not reach the end are then valued by a
        greedy rollout alone."""
        if game not in self._nets:
            self._seers[game] = self._seer_net(game)  # ValueError before anything is kept
            n = game[0]
            pol_path, val_path = self._paths
            try:
                if pol_path is None:
                    pol_path = PPOAgent.shipped_path(n)
                    val_path = ValueNet.shipped_path(n) if n in SHIPPED_VALUES else None
                policy = PPOAgent.load(pol_path)
                policy.bind(GameConfig(*game))
                value = None if val_path is None else ValueNet.load(val_path)
                for what, net in (("policy", policy), ("value net", value)):
                    otype = None if net is None else net.metadata["observation_type"]
                    if otype not in (None, self.observation_type):  # it would misread the bot's observations
                        raise ValueError(f"the {what} {shown_path(val_path if net is value else pol_path)} reads "
                                         f"{shown(otype)} observations; NetSearchAgent feeds it "
                                         f"{shown(self.observation_type)} ones")
            except ValueError as e:
                raise ValueError(f"NetSearchAgent: no policy for {n} players, rules {shown(game[1])}, "
                                 f"max_rounds {game[2]}: {cut_long_words(str(e))}") from None
            if value is not None:
                value.check_policy(pol_path)
                m = value.metadata
                if (m["num_players"], m["rules"], m["max_rounds"]) != game:
                    raise ValueError(f"NetSearchAgent: the value net was fitted for {m['num_players']} players, "
                                     f"rules {shown(m['rules'])}, max_rounds {m['max_rounds']}; the game is {game}")
            self._nets[game] = (policy, value)
            self._seer = self._seers[game]
            self._warm_up(game, policy, value)
        self._seer = self._seers[game]
        return self._nets[game]

    def _seer_net(self, game: tuple[int, str, int]) -> ValueNet | None:
        """The ``seer_value`` net (None without one), checked: a seer observation, the game,
        and the policy it was fitted for (ValueError naming what does not fit)."""
        if self.seer_value is None:
            return None
        try:
            net = ValueNet.load(self.seer_value)
            if net.metadata["observation_type"] != "seer":
                raise ValueError(f"it reads {shown(net.metadata['observation_type'])} observations, not 'seer' ones")
            m = net.metadata
            if (m["num_players"], m["rules"], m["max_rounds"]) != game:
                raise ValueError(f"it was fitted for {m['num_players']} players, rules {shown(m['rules'])}, "
                                 f"max_rounds {m['max_rounds']}; the game is {game}")
            net.check_policy(self._paths[0] if self._paths[0] is not None else PPOAgent.shipped_path(game[0]))
        except ValueError as e:
            raise ValueError(f"NetSearchAgent: seer_value {shown(self.seer_value)}: {cut_long_words(str(e))}") from None
        return net

    def _warm_up(self, game: tuple[int, str, int], policy: PPOAgent, value: ValueNet | None) -> None:
        """One simulation from a start position, once per game, outside any decision's clock:
        it loads every kernel a search calls (world sampling, the engine, the policy's heuristic
        prior, the value net) from numba's cache, which would otherwise eat half of the first
        decision's budget (12 simulations instead of about 25 in a fresh process)."""
        st = engine.init(1, game[0], seeds=0, rules=game[1], max_rounds=game[2])
        obs = engine.observe(st, observation_type="recall")[0]
        mask = engine.legal_action_mask(st)[0]
        cands, _ = self._candidates(obs, mask, policy)
        worlds = sample_worlds_from_observation(obs, *game, 1, np.random.default_rng(0), player=0)
        with one_blas_thread():  # two rows: one row's observation blocks are C-contiguous, a wave's are not,
            # and numba compiles (or loads) the feature extraction once per layout
            self._simulate(worlds, np.zeros(2, np.int64), np.repeat(cands[:1], 2), policy, value)
            if value is not None:
                value.values(obs[None])

    def act_batch(self, observations: np.ndarray, action_masks: np.ndarray) -> np.ndarray:
        """One search per row, each with the full budget."""
        obs, masks = check_recall_rows("NetSearchAgent", observations, action_masks, 100)
        with one_blas_thread():  # once for the thousands of small forward passes of the searches
            return np.array([self._decide(obs[i], masks[i]) for i in range(masks.shape[0])], dtype=np.int64)

    # --- one decision ----------------------------------------------------------------------
    def _game(self, obs: np.ndarray, view: dict) -> tuple[int, str, int]:
        if self.config is None:
            return unbound_game("NetSearchAgent", obs, max_rounds=100, view=view)
        n = int(view["seat_present"].sum())
        if n != self.config[0]:
            raise ValueError(f"NetSearchAgent: the observation has {n} seats but the bot is bound to "
                             f"{self.config[0]} players")
        return self.config

    def _decide(self, obs: np.ndarray, mask: np.ndarray) -> int:
        self.stats["decisions"] += 1
        legal = np.flatnonzero(mask)
        if legal.size == 1:
            self.last_search = None
            return int(legal[0])
        view = decode(obs, "recall")  # once for the decision: the game and the stage read it
        game = self._game(obs, view)
        policy, value = self._networks(game)  # loaded (and warmed up) before the clock starts
        t0 = self._clock()
        deadline = t0 + self.budget
        cands, prior = self._candidates(obs, mask, policy)
        if cands.size == 1:
            self.last_search = None
            return int(cands[0])
        rng = observation_rng(self._seed, obs)
        worlds = sample_worlds_from_observation(obs, *game, min(self.worlds, CHUNK), rng, player=0)
        root_v = 0.0 if value is None else float(value.values(obs[None])[0])  # 0: an even game
        c = cands.size
        n_vis, w_sum = np.zeros(c, np.int64), np.zeros(c)
        left = self.iterations
        measuring = False
        stage = self._stage(obs, view)
        sims = dropped = 0
        own = None  # this decision's last measured cost per simulation
        first = True
        while True:
            if left is not None:
                cut = left
            else:  # the time budget: stop before a wave that would overrun it (none: the prior's choice)
                measuring = own is None and stage not in self._sim_cost  # a wave of one measures the stage
                cut = self._wave_fits(deadline - self._clock(), stage, own)
                if cut < 1 and first and self._clock() < deadline:
                    cut = 1  # one all the same: it measures this stage anew (the deadline drops it if need be)
                if cut < 1:
                    break
            # the wave's size, cut to what the iterations or the time left allow, before any of it is chosen
            size = min(c * max(1, min(self.first, self.worlds)) if first else self.wave, cut)
            self._check_wave(size, first, c)
            if first:  # round robin in the prior's order: a cut wave keeps the likeliest candidates
                pick = np.arange(size, dtype=np.int64) % c
            else:  # the first ``size`` choices of a whole wave (each choice depends only on those before it)
                pick = self._select(prior, n_vis, w_sum, root_v, size)
            if left is not None:
                left -= pick.size
            w_idx = (n_vis[pick] + self._offsets(pick)) % self.worlds
            while w_idx.max() >= worlds.batch_size:  # more worlds, sampled as the visits need them
                more = min(CHUNK, self.worlds - worlds.batch_size)
                worlds = worlds.concat(sample_worlds_from_observation(obs, *game, more, rng, player=0))
            ts = self._clock()
            v = self._simulate(worlds, w_idx, cands[pick], policy, value, None if left is not None else deadline)
            per_sim = (self._clock() - ts) / (pick.size + WAVE_FIXED)
            if v is None:  # the deadline came mid-wave: its unfinished games are dropped, not guessed
                # it would have cost more than that: twice (completed waves bring an overshoot back down)
                self._sim_cost[stage] = max(self._sim_cost.get(stage, 0.0), 2.0 * per_sim)
                dropped += pick.size
                break
            own = per_sim
            old = self._sim_cost.get(stage, per_sim)
            self._sim_cost[stage] = 0.5 * old + 0.5 * per_sim
            np.add.at(n_vis, pick, 1)
            np.add.at(w_sum, pick, v)
            sims += pick.size
            first = first and measuring  # the first wave proper (checked whole, round robin) comes after
            if (left is not None and left <= 0) or (left is None and self._clock() >= deadline):
                break
        q = np.where(n_vis > 0, w_sum / np.maximum(n_vis, 1), -np.inf)
        best = int(np.lexsort((q, prior, n_vis))[-1])  # most visits; a tie (no evidence): the prior's order
        elapsed = self._clock() - t0
        self.stats["searched"] += 1
        self.stats["simulations"] += sims
        self.stats["dropped"] += dropped
        self.stats["seconds"] += elapsed
        self.last_search = {"candidates": cands.tolist(), "prior": prior.tolist(), "visits": n_vis.tolist(),
                            "q": np.where(n_vis > 0, q, np.nan).tolist(), "root_value": root_v,
                            "simulations": sims, "dropped": dropped, "worlds": int(worlds.batch_size),
                            "seconds": elapsed, "action": int(cands[best])}
        return int(cands[best])

    # the key of the running cost of a simulation (_search_common.stage_key: players, round //
    # STAGE_ROUNDS, end triggered, R-E1: after the trigger a simulation plays out the round only)
    _stage = staticmethod(stage_key)

    def _wave_fits(self, seconds: float, stage: tuple[int, int, int], own: float | None) -> int:
        """How many simulations a wave may hold to end within ``seconds``: at the cost of this
        decision's last wave, else the stage's running cost; at a stage not met yet, one (it
        measures the stage: another stage's cost, even the opening's, can be far too low, and a
        first wave of many would be dropped, or overrun the budget by its first ply)."""
        if seconds <= 0:
            return 0
        cost = own if own is not None else self._sim_cost.get(stage)
        if cost is None:
            return 1
        return int(seconds / cost - WAVE_FIXED)

    def _check_wave(self, size: int, first: bool, c: int) -> None:
        """ValueError before a wave of ``size`` simulations that could not fit this machine's memory."""
        what = (f"first={count_text(self.first)} (x {c} candidates, worlds={count_text(self.worlds)})" if first
                else f"wave={count_text(self.wave)}")
        knob = f"iterations={count_text(self.iterations)}" if self.iterations is not None else f"budget={self.budget:g} s"
        check_memory(f"NetSearchAgent: {what} with {knob} makes a wave of {count_text(size)} simulations at once, "
                     f"which need", size * ROLLOUT_BYTES, f"use a smaller {'first' if first else 'wave'}")

    def _candidates(self, obs: np.ndarray, mask: np.ndarray, policy: PPOAgent) -> tuple[np.ndarray, np.ndarray]:
        """The searched actions, the prior's ``candidates`` likeliest legal ones (likeliest
        first), and their prior: softmax(logits / temperature) renormalised over them."""
        legal = np.flatnonzero(mask)
        z = policy.logits(obs[None], mask[None])[0][legal].astype(np.float64) / self.temperature
        p = np.exp(z - z.max())
        p /= p.sum()
        order = np.argsort(-p, kind="stable")[:self.candidates]
        return legal[order], p[order] / p[order].sum()

    @staticmethod
    def _offsets(pick: np.ndarray) -> np.ndarray:
        """Within one wave, the j-th simulation of a candidate goes to the world after the
        (j-1)-th (visits are counted after the wave)."""
        out = np.zeros(pick.size, np.int64)
        seen: dict[int, int] = {}
        for i, a in enumerate(pick.tolist()):
            out[i] = seen.get(a, 0)
            seen[a] = out[i] + 1
        return out

    def _select(self, prior, n_vis, w_sum, root_v, size) -> np.ndarray:
        """``size`` PUCT choices, each counted as a visit (with its current Q) for the next."""
        n = n_vis.astype(np.float64)
        q = np.where(n_vis > 0, w_sum / np.maximum(n_vis, 1), root_v)
        out = []
        for _ in range(size):
            u = q + self.c_puct * prior * math.sqrt(max(n.sum(), 1.0)) / (1.0 + n)
            a = int(np.argmax(u))
            out.append(a)
            n[a] += 1
        return np.array(out, np.int64)

    def _simulate(self, worlds, w_idx, actions, policy: PPOAgent, value: ValueNet | None,
                  deadline: float | None = None) -> np.ndarray | None:
        """Values for seat 0 of ``actions`` applied in the worlds ``w_idx`` (module doc, step 4);
        None when the clock passes ``deadline`` before the wave is done."""
        st = worlds.take(w_idx)
        engine.step(st, actions)
        for _ in range(self.depth):
            if deadline is not None and self._clock() > deadline:
                return None
            live = ~st.terminated
            if self.until == "turn":  # stop where the bot starts its next turn
                live &= ~((st.current_player == 0) & (st.actions_left == 2) & (st.phase == 0))
            elif self.until == "decision":  # stop at the bot's next decision
                live &= st.current_player != 0
            if not live.any():
                break
            mask = engine.legal_action_mask(st)
            obs = engine.observe(st, observation_type="recall")
            act = np.zeros(st.batch_size, np.int64)
            act[live] = policy.act_batch(obs[live], mask[live])
            engine.step(st, act, select=live)
        over = st.terminated
        v = np.zeros(st.batch_size)
        if over.any():
            v[over] = self._final_value(st, over)
        if over.all():
            return v
        seer = self._seer
        mix = 1.0 if value is None and seer is None else self.mix  # no value net: the greedy rollout alone
        if mix < 1 and seer is not None:  # the sampled world's full state, from the bot's seat
            v[~over] = seer.values(engine.observe(st, player=0, observation_type="seer")[~over])
        elif mix < 1 and value is not None:  # (mix < 1 without a seer net: there is a value net)
            v[~over] = value.values(engine.observe(st, player=0, observation_type="recall")[~over])
        if mix > 0:  # and a greedy rollout from the leaf to the end of the game
            outcome, _, _, _ = simulate(st, self._greedy, reservation_weight=0.0)
            v = np.where(over, v, (1 - mix) * v + mix * outcome)
        return v

    def _final_value(self, st, over: np.ndarray) -> np.ndarray:
        """Seat 0's value of finished games: its R-P8 rank reward, mixed with weight
        ``margin`` with ``tanh`` of its lead over the best rival in units of MARGIN_POINTS
        (a lead says more than a win/loss bit: fewer simulations tell candidates apart)."""
        r = engine.rewards(st)[over, 0].astype(np.float64)
        if self.margin > 0:
            points = engine.scores(st)[over][..., 7].astype(np.float64)
            lead = points[:, 0] - points[:, 1:].max(axis=1)
            r = (1 - self.margin) * r + self.margin * np.tanh(lead / MARGIN_POINTS)
        return r

    def __repr__(self) -> str:
        b = f"iterations={self.iterations}" if self.iterations is not None else f"budget={self.budget}"
        return f"NetSearchAgent({b}, worlds={self.worlds}, depth={self.depth}, c_puct={self.c_puct})"
