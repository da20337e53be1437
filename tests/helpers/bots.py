"""Helpers for the scripted-bot tests (tests/agents/test_agents_*.py).

- ``check_random_states``: the bot decides in every live game of a batch at every step
  (its answer must be legal, and ``act`` must agree with ``act_batch``), while the games
  advance by a mix of its actions and kind-random ones, so it meets many kinds of states.
- ``duel``: duplicate-format games of one agent against copies of another.
- ``decide``: the bot's action in an explicit position (tests/helpers/positions.py).
- ``sample_positions``: observations and masks of kind-random games at various depths.
- ``first_searched_decision``: a search bot's first searched decision along a game another
  bot plays, where a condition on the state first holds.
- ``machine_slowness``: how much slower than where the search bots' timed tests were set
  this machine decides (a netsearch decision measures it), to scale their budgets by.
"""
import functools
import time

import numpy as np

from spacemission_env.space_mission import engine


def check_random_states(agent, players: int, rules: str, games: int = 32, seed: int = 0, mix: float = 0.5,
                        act_rows: int = 2) -> dict:
    rng = np.random.default_rng(seed)
    st = engine.init(games, players, seeds=seed, rules=rules)
    checked = tiles = 0
    while not st.terminated.all():
        live = ~st.terminated
        mask = engine.legal_action_mask(st)
        obs = engine.observe(st, observation_type=agent.observation_type)
        mine = agent.act_batch(obs[live], mask[live])
        assert mask[live][np.arange(len(mine)), mine].all(), "illegal action"
        checked += len(mine)
        tiles += int(st.phase[live].sum())
        for r in rng.choice(len(mine), size=min(act_rows, len(mine)), replace=False):
            assert agent.act(obs[live][r], mask[live][r]) == mine[r], "act differs from act_batch"
        actions = engine.sample_actions(mask, rng, by_kind=True)
        use_bot = live.copy()
        use_bot[live] = rng.random(len(mine)) >= mix
        actions[use_bot] = mine[use_bot[live]]
        engine.step(st, actions)
    return {"checked": checked, "tiles": tiles}


def duel(agent_a, agent_b, players: int = 2, deals: int = 50, rules: str = "yucata", seed: int = 0) -> dict:
    """A in every seat of every deal, B in the others; A's win share (ties shared) and mean rank."""
    n = deals * players
    idx = np.arange(n)
    seat_a = idx % players
    st = engine.init(n, players, seeds=(seed + idx // players).astype(np.uint64), rules=rules)
    actions = np.zeros(n, np.int64)
    while not st.terminated.all():
        mask = engine.legal_action_mask(st)
        live = ~st.terminated
        is_a = (st.current_player == seat_a) & live
        for agent, rows in ((agent_a, is_a), (agent_b, live & ~is_a)):
            if rows.any():
                if getattr(agent, "uses_observation", True):
                    obs = engine.observe(st, observation_type=getattr(agent, "observation_type", None) or "info")[rows]
                else:
                    obs = np.zeros((int(rows.sum()), 0), np.int8)
                actions[rows] = agent.act_batch(obs, mask[rows])
        engine.step(st, actions)
    sc = engine.scores(st)[:, :, 7].astype(np.int64)
    stations = (st.stations[:, :, None] == np.arange(players)[None, None, :]).sum(axis=1)
    key = sc * 64 + stations  # R-P8
    ka = key[idx, seat_a]
    better = (key > ka[:, None]).sum(axis=1)
    tied = (key == ka[:, None]).sum(axis=1)
    return {"win": float(np.where(better == 0, 1.0 / tied, 0.0).mean()),
            "rank": float((1 + better + (tied - 1) / 2).mean())}


def observe(state, agent):
    """(observation [1, D], mask [1, 100]) of the acting player in a reference state."""
    st = engine.from_reference([state])
    return engine.observe(st, observation_type=agent.observation_type), engine.legal_action_mask(st)


def decide(agent, state, mask=None) -> int:
    obs, legal = observe(state, agent)
    return int(agent.act_batch(obs, legal if mask is None else (legal & mask))[0])


def sample_positions(n=64, players=2, seed=3, otype="recall"):
    """Observations and masks from kind-random games at various depths."""
    st = engine.init(n, players, seeds=seed)
    rng = np.random.default_rng(seed)
    obs, masks = [], []
    for t in range(90):
        if t % 15 == 0:
            obs.append(engine.observe(st, observation_type=otype)[~st.terminated])
            masks.append(engine.legal_action_mask(st)[~st.terminated])
        engine.step(st, engine.sample_actions(engine.legal_action_mask(st), rng, by_kind=True), select=~st.terminated)
    return np.concatenate(obs), np.concatenate(masks)


def torch_prior_logits(policy, obs: np.ndarray, codes: np.ndarray) -> np.ndarray:
    """The logits of a torch PriorMaskablePolicy for observations with their prior codes appended."""
    import torch

    with torch.no_grad():
        t_obs = torch.as_tensor(np.concatenate([obs, codes], axis=1))
        return policy.action_net(policy.mlp_extractor.forward_actor(policy.extract_features(t_obs))).numpy()


def first_searched_decision(bot, player, deal: int, stop, players: int = 2) -> np.ndarray:
    """Plays deal ``deal`` with ``player`` at every seat until a state where ``stop(state)`` holds
    and ``bot`` searches its decision (not a forced move; the bot's action is not played);
    returns the observation it searched (raises when the game ends first)."""
    st = engine.init(1, players, seeds=deal)
    while not st.terminated[0]:
        mask = engine.legal_action_mask(st)
        obs = engine.observe(st, observation_type="recall")
        if stop(st):
            bot.act_batch(obs, mask)
            if bot.last_search is not None:
                return obs[0]
        engine.step(st, player.act_batch(obs, mask))
    raise AssertionError("no searched decision")


# CPU seconds of NetSearchAgent(iterations=1) deciding a 2-player opening (one simulation played
# to the end, and the prior) on the quiet machine the netsearch tests' budgets were set on
# (the waves benchmark there: 21.5 ms for a wave of one at ply 0)
OPENING_DECISION_S = 0.025


@functools.lru_cache(maxsize=None)
def machine_slowness() -> float:
    """How many times slower than ``OPENING_DECISION_S`` this machine decides that opening
    (best of three), at least 1. The search bots' timed tests scale their budgets and
    tolerances by it, so that they check the search's bookkeeping (waves cut to the time left,
    dropped waves uncounted, no warm-up in a decision's clock) rather than the machine: on one
    2.2-2.4 times slower, a 0.03 s budget held no netsearch simulation from the opening, and
    those tests failed."""
    from spacemission_agents.netsearch import NetSearchAgent
    from spacemission_env.games import GameConfig

    bot = NetSearchAgent(iterations=1, worlds=1)
    bot.bind(GameConfig(2))
    st = engine.init(1, 2, seeds=0)
    obs, mask = engine.observe(st, observation_type="recall"), engine.legal_action_mask(st)
    best = float("inf")
    for _ in range(3):
        t0 = time.thread_time()
        bot.act_batch(obs, mask)
        best = min(best, time.thread_time() - t0)
    return max(1.0, best / OPENING_DECISION_S)
