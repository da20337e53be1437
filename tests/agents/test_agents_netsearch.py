"""NetSearchAgent (agents/spacemission_agents/netsearch.py): bad parameters, legal
decisions, determinism with an iterations budget, forced moves, the time budget, the
policy/value pairing and player counts without a value net."""
import time

import numpy as np
import pytest

from spacemission_agents.netsearch import NetSearchAgent
from spacemission_agents.ppo import PPOAgent
from spacemission_agents.registry import make_agent
from spacemission_agents.value import ValueNet
from spacemission_env.games import GameConfig
from spacemission_env.space_mission import engine


def _bot(**kw):
    bot = NetSearchAgent(**{"iterations": 24, "worlds": 8, "depth": 4, "seed": 1, **kw})
    bot.bind(GameConfig(2))
    return bot


def _states(games=4, steps=40, seed=0):
    st = engine.init(games, 2, seeds=seed)
    rng = np.random.default_rng(seed)
    for _ in range(steps):
        engine.step(st, engine.sample_actions(engine.legal_action_mask(st), rng, by_kind=True))
    return st


@pytest.mark.parametrize("kw, name", [
    ({"budget": 0}, "budget"), ({"budget": -1.0}, "budget"), ({"iterations": 0}, "iterations"),
    ({"worlds": 0}, "worlds"), ({"candidates": 0}, "candidates"), ({"c_puct": -1}, "c_puct"),
    ({"temperature": 0}, "temperature"), ({"depth": -1}, "depth"), ({"wave": 0}, "wave"),
    ({"until": "end"}, "until"), ({"clock": "sun"}, "clock"), ({"seed": -2}, "seed"),
    ({"iterations": 2.5}, "iterations"), ({"worlds": True}, "worlds"), ({"policy": "x.npz"}, "policy"),
    ({"policy": 3, "value": "v.npz"}, "policy"),
])
def test_bad_parameters(kw, name):
    with pytest.raises(ValueError, match=name):
        NetSearchAgent(**kw)


def test_registry_spec_and_errors():
    bot = make_agent("netsearch:budget=0.05:worlds=8")
    assert isinstance(bot, NetSearchAgent) and bot.budget == 0.05 and bot.worlds == 8
    with pytest.raises(ValueError, match="c_puct"):
        make_agent("netsearch:c_puct=-2")


def test_player_count_without_value_net():
    with pytest.raises(ValueError, match="no policy and value net for 3 players"):
        NetSearchAgent().bind(GameConfig(3))
    with pytest.raises(ValueError, match="no policy and value net for 2 players, rules 'schmidt'"):
        NetSearchAgent().bind(GameConfig(2, "schmidt"))


def test_value_net_for_another_policy_refused():
    with pytest.raises(ValueError, match="sha256"):
        NetSearchAgent(policy=str(PPOAgent.shipped_path(3)), value=str(ValueNet.shipped_path(2))).bind(GameConfig(3))


def test_legal_and_deterministic():
    st = _states()
    obs, mask = engine.observe(st, observation_type="recall"), engine.legal_action_mask(st)
    a, b = _bot(), _bot()
    first = a.act_batch(obs, mask)
    assert mask[np.arange(len(first)), first].all()
    np.testing.assert_array_equal(b.act_batch(obs, mask), first)
    np.testing.assert_array_equal(a.act_batch(obs, mask), first)  # the same bot again: same choices
    assert a.stats["searched"] >= 1 and a.last_search is not None


def test_plays_legal_moves_along_a_game():
    bot = _bot(iterations=12, worlds=4, depth=2)
    st = engine.init(2, 2, seeds=7)
    ppo = PPOAgent.load_shipped(2)
    for _ in range(40):
        if st.terminated.all():
            break
        mask, obs = engine.legal_action_mask(st), engine.observe(st, observation_type="recall")
        act = ppo.act_batch(obs, mask)
        mine = np.flatnonzero(~st.terminated & (st.current_player == 0))
        if mine.size:
            act[mine] = bot.act_batch(obs[mine], mask[mine])
            assert mask[mine, act[mine]].all()
        engine.step(st, act, select=~st.terminated)
    assert bot.stats["searched"] >= 10


def test_forced_move_played_at_once():
    st = _states(games=1, steps=0)
    obs = engine.observe(st, observation_type="recall")
    mask = np.zeros((1, 100), np.bool_)
    mask[0, 5] = True
    bot = _bot()
    assert bot.act_batch(obs, mask)[0] == 5 and bot.last_search is None and bot.stats["searched"] == 0


def test_time_budget_honoured():
    st = _states(games=1)
    obs, mask = engine.observe(st, observation_type="recall"), engine.legal_action_mask(st)
    bot = NetSearchAgent(budget=0.05, worlds=16)
    bot.bind(GameConfig(2))
    bot.act_batch(obs, mask)  # warm up
    t0 = time.thread_time()
    bot.act_batch(obs, mask)
    assert time.thread_time() - t0 < 0.2
    assert bot.last_search["simulations"] >= 6


def test_values_can_overrule_the_prior():
    """With no prior weight (c_puct=0) the visits follow the leaf values alone, and over a
    few positions the most visited (played) action is not always the prior's favourite:
    the search can pick a move the network ranks low."""
    st = _states(games=6, steps=30, seed=3)
    obs, mask = engine.observe(st, observation_type="recall"), engine.legal_action_mask(st)
    bot = _bot(c_puct=0.0, iterations=48, worlds=8, mix=0.0)
    overruled = 0
    for i in range(len(obs)):
        a = int(bot.act_batch(obs[i:i + 1], mask[i:i + 1])[0])
        s = bot.last_search
        if s is None:
            continue
        assert mask[i, a] and s["visits"][s["candidates"].index(a)] == max(s["visits"])
        overruled += a != s["candidates"][0]
    assert overruled >= 1
