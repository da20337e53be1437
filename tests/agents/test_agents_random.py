"""agents/spacemission_agents/random_agents.py: RandomAgent (uniform over legal ids) and KindRandomAgent
(uniform over legal action kinds first), and their registry names."""
import numpy as np
import pytest

from spacemission_agents.random_agents import KindRandomAgent, RandomAgent
from spacemission_agents.registry import make_agent
from spacemission_env.space_mission import actions as A
from spacemission_env.space_mission import engine


def _mask(ids) -> np.ndarray:
    m = np.zeros(A.NUM_ACTIONS, dtype=bool)
    m[list(ids)] = True
    return m


# 31 top-ups and one discover: ids uniformly -> discover 1/32; kinds uniformly -> 1/2
TOPUPS_AND_DISCOVER = _mask(list(range(1, 32)) + [A.DISCOVER])


@pytest.mark.parametrize("cls, share", [(RandomAgent, 1 / 32), (KindRandomAgent, 1 / 2)])
def test_strategy_shares_single_and_batched(cls, share):
    agent = cls(seed=0)
    n = 4000
    batch = agent.act_batch(np.zeros((n, 0), np.int8), np.tile(TOPUPS_AND_DISCOVER, (n, 1)))
    single = np.array([agent.act(np.zeros(0, np.int8), TOPUPS_AND_DISCOVER) for _ in range(n // 4)])
    for picks, count in ((batch, n), (single, n // 4)):
        assert TOPUPS_AND_DISCOVER[picks].all()
        got = (picks == A.DISCOVER).mean()
        assert abs(got - share) < 4 * np.sqrt(share * (1 - share) / count)


def test_legal_on_real_positions_and_seeded():
    st = engine.init(64, 3, seeds=11)
    masks = engine.legal_action_mask(st)
    for cls in (RandomAgent, KindRandomAgent):
        a, b = cls(seed=5), cls(seed=5)
        first = a.act_batch(None, masks)
        assert masks[np.arange(64), first].all()
        assert (first == b.act_batch(None, masks)).all()
        a.seed(5)
        assert (a.act_batch(None, masks.astype(np.int8)) == first).all()
        assert a.uses_observation is False and isinstance(a.name, str)
        with pytest.raises(ValueError, match="no legal"):
            a.act(None, np.zeros(A.NUM_ACTIONS, bool))
        with pytest.raises(ValueError, match="seed"):
            cls(seed=-1)


def test_registry_names_build_the_random_agents():
    masks = engine.legal_action_mask(engine.init(32, 2, seeds=3))
    for spec, cls in (("random", RandomAgent), ("kind-random", KindRandomAgent)):
        made = make_agent(spec, seed=9)
        assert type(made) is cls and made.name == spec
        assert (made.act_batch(None, masks) == cls(seed=9).act_batch(None, masks)).all()
        assert (make_agent(f"{spec}:seed=9").act_batch(None, masks) == cls(seed=9).act_batch(None, masks)).all()
