"""The search bots read their own observation once per decision (search.py, netsearch.py).

Found with cProfile: a SearchAgent decision decoded its observation about four times (the
bound game's seat count or the unbound game, the heuristic prior's features, the stage of the
running cost estimate, and the determinizer), NetSearchAgent's twice before the determinizer.
Now the bot decodes it once and passes the view down. Not counted: the determinizer's own
int64 read (determinize._knowledge, kept for the decision's later batches) and the one of a
PPO network's heuristic prior (ppo_prior.HeuristicPrior, inside the shipped model's choice of
prior="auto" and NetSearchAgent's policy), both another component's reading. The actions stay
the same (tests/agents/test_search_actions_fixed.py pins them)."""
import numpy as np
import pytest

import spacemission_env
from spacemission_agents import _bot_features, netsearch, search
from spacemission_agents.netsearch import NetSearchAgent
from spacemission_agents.ppo_prior import HeuristicPrior
from spacemission_agents.search import SearchAgent
from spacemission_env.games import GameConfig
from spacemission_env.space_mission import engine


def _position(players: int, plies: int):
    """A position ``plies`` random legal moves into a game, with several legal actions."""
    st, rng = engine.init(1, players, seeds=11), np.random.default_rng(3)
    for _ in range(plies):
        engine.step(st, np.array([rng.choice(np.flatnonzero(engine.legal_action_mask(st)[0]))]))
    return engine.observe(st, observation_type="recall"), engine.legal_action_mask(st)


def _count_own_decodes(monkeypatch, obs: np.ndarray) -> list:
    """Every decode, by the bots' modules, of ``obs`` itself (alone or as a batch of one),
    not of the rollouts' positions nor inside a PPO network's prior."""
    seen, in_network = [], []
    real, real_prior = spacemission_env.decode, HeuristicPrior.__call__

    def counting(x, observation_type="info"):
        a = np.asarray(x)
        if not in_network and a.size == obs.size and np.array_equal(a.reshape(-1), obs.reshape(-1)):
            seen.append(a.shape)
        return real(x, observation_type)

    def network_prior(self, *args):
        in_network.append(1)
        try:
            return real_prior(self, *args)
        finally:
            in_network.pop()

    monkeypatch.setattr(HeuristicPrior, "__call__", network_prior)

    monkeypatch.setattr(spacemission_env, "decode", counting)  # netsearch's import inside _game
    for module in (search, netsearch, _bot_features):
        monkeypatch.setattr(module, "decode", counting, raising=False)
    return seen


@pytest.mark.parametrize("bound", [True, False])
@pytest.mark.parametrize("kw", [{}, {"prior": None}, {"select": "halving", "prior": "heuristic"}],
                         ids=["auto-prior", "no-prior", "halving"])
def test_search_agent_decodes_its_observation_once_per_decision(monkeypatch, bound, kw):
    obs, mask = _position(3, 9)
    bot = SearchAgent(iterations=12, seed=2, **kw)
    if bound:
        bot.bind(GameConfig(3))
    seen = _count_own_decodes(monkeypatch, obs[0])
    bot.act_batch(obs, mask)
    assert bot.last_search is not None  # a searched decision, not a single candidate
    assert len(seen) == 1, seen


@pytest.mark.parametrize("bound", [True, False])
def test_netsearch_agent_decodes_its_observation_once_per_decision(monkeypatch, bound):
    obs, mask = _position(2, 9)
    bot = NetSearchAgent(iterations=8, seed=2)
    if bound:
        bot.bind(GameConfig(2))
    seen = _count_own_decodes(monkeypatch, obs[0])
    bot.act_batch(obs, mask)
    assert bot.last_search is not None
    assert len(seen) == 1, seen
