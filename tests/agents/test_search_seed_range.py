"""The seeds SearchAgent and NetSearchAgent take: any non-negative integer, as the other bots
(HeuristicAgent and the greedy/kind-random bots through ``spacemission_env.rng.salt64``, the
Red Planet bots' ``check_seed``); a 5000-digit seed is in that range and plays
deterministically; a negative seed, a float or a bool is refused with a ValueError naming the
bot and the value, cut."""
from __future__ import annotations

import pytest

from spacemission_agents.heuristic import HeuristicAgent
from spacemission_agents.netsearch import NetSearchAgent
from spacemission_agents.search import SearchAgent
from spacemission_env.pettingzoo_env import env as make_env

BIG = 10**5000


def _first_observation():
    e = make_env(num_players=2)
    e.reset(seed=1)
    o = e.observe(e.agent_selection)
    return o["observation"], o["action_mask"]


@pytest.mark.parametrize("cls", [SearchAgent, NetSearchAgent])
def test_a_huge_seed_is_in_range_and_plays_deterministically(cls):
    HeuristicAgent(seed=BIG)  # the other bots' range: any non-negative integer
    obs, mask = _first_observation()
    a, b = cls(seed=BIG, iterations=2), cls(seed=BIG, iterations=2)
    assert mask[int(a.act(obs, mask))] and a.act(obs, mask) == b.act(obs, mask)


@pytest.mark.parametrize("cls", [SearchAgent, NetSearchAgent])
@pytest.mark.parametrize("bad", [-1, -BIG, 1.5, True], ids=["-1", "-10**5000", "1.5", "True"])
def test_a_seed_out_of_range_is_refused_naming_it(cls, bad):
    with pytest.raises(ValueError, match=f"{cls.__name__}: seed must be a non-negative integer or None") as info:
        cls(seed=bad)
    assert len(str(info.value)) < 200
