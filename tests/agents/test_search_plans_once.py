"""With ``prior="auto"`` (or "ppo") the search bot asks the shipped PPO model for its choice,
and that model's heuristic prior planned the decision again: the search's own prior had
just computed the same plan values with the same bot (HeuristicAgent, defaults, seed 0),
about 1 ms a decision twice over. The model now takes the search's plan values
(PPOAgent._act_planned) where its prior plans as the search's does
(HeuristicPrior.shares_plans_with), with the same action (the search bots' pinned actions:
tests/agents/test_search_actions_fixed.py), and plans itself otherwise."""
from __future__ import annotations

import numpy as np
import pytest

from spacemission_agents.heuristic import HeuristicAgent
from spacemission_agents.ppo import PPOAgent
from spacemission_agents.ppo_prior import HeuristicPrior
from spacemission_agents.search import SearchAgent
from spacemission_env.games import GameConfig
from spacemission_env.space_mission import engine


def _positions(players: int, deal: int, plies: int):
    """(obs, mask) of the positions of HeuristicAgent self-play, the first ``plies`` moves."""
    st, bot, out = engine.init(1, players, seeds=deal), HeuristicAgent(seed=0), []
    for _ in range(plies):
        obs, mask = engine.observe(st, observation_type="recall"), engine.legal_action_mask(st)
        out.append((obs[0], mask[0]))
        engine.step(st, bot.act_batch(obs, mask))
    return out


@pytest.fixture
def prior_plans(monkeypatch):
    """How many rows the PPO models' heuristic priors planned."""
    count = [0]
    call = HeuristicPrior.__call__

    def counted(self, observations, action_masks):
        count[0] += len(action_masks)
        return call(self, observations, action_masks)

    monkeypatch.setattr(HeuristicPrior, "__call__", counted)
    return count


@pytest.mark.parametrize("prior", ["auto", "ppo"])
def test_the_search_bot_plans_a_decision_once(prior_plans, prior):
    bot = SearchAgent(iterations=8, seed=1, prior=prior, heuristic_steps=0)
    bot.bind(GameConfig(2))
    positions = _positions(2, 7, 6)
    for obs, mask in positions:
        bot.act_batch(obs[None], mask[None])
    assert bot.stats["decisions"] == len(positions)
    assert prior_plans[0] == 0  # the model took the search's plan values: none planned again


def test_the_planned_path_gives_act_batchs_logits_and_actions():
    agent = PPOAgent.load_shipped(3)
    bot = HeuristicAgent(seed=0)
    assert agent.prior.shares_plans_with(bot)
    for obs, mask in _positions(3, 4, 12):
        bot.act_batch(obs[None], mask[None])
        legal = mask[None].astype(bool)
        assert np.array_equal(agent._forward(obs[None], agent.prior._code(bot.last_values, legal)),
                              agent.logits(obs[None], legal))  # bit for bit
        assert agent._act_planned(obs[None], legal, bot.last_values) == agent.act_batch(obs[None], mask[None])


def test_a_bot_that_plans_otherwise_is_not_shared(prior_plans):
    agent = PPOAgent.load_shipped(2)
    assert not agent.prior.shares_plans_with(HeuristicAgent(seed=1))  # another tie-break salt
    assert not agent.prior.shares_plans_with(HeuristicAgent(seed=0, end_bonus=20.0))
    assert not agent.prior.shares_plans_with(object())
    # a model at a temperature samples: the search asks it as any caller would, and it plans itself
    bot = SearchAgent(iterations=8, seed=1, heuristic_steps=0)
    bot.bind(GameConfig(2))
    bot._ppo[(2, "yucata", 100)] = (PPOAgent.load_shipped(2, temperature=1.0, seed=0), False)
    obs, mask = _positions(2, 7, 1)[0]
    bot.act_batch(obs[None], mask[None])
    assert prior_plans[0] == 1
