"""A PettingZoo user who drives both games only through the public API (task h30): the
masked ``action_space(agent).sample(mask)`` plays every game to its end with each
observation inside ``observation_space(agent)``, ``agent_iter(max_iter)`` yields exactly
``max_iter`` turns, and ``last()`` rewards sum to zero over the players (win reward)."""
import numpy as np
import pytest

from spacemission_env import red_planet_v2, spacemission_v3

CASES = [(spacemission_v3, 2), (spacemission_v3, 4), (red_planet_v2, 3), (red_planet_v2, 5)]


def _mask(obs, info):
    return obs["action_mask"] if isinstance(obs, dict) else info["action_mask"]


@pytest.mark.parametrize("module,num_players", CASES)
def test_masked_sample_plays_to_the_end_inside_the_spaces(module, num_players):
    e = module.env(num_players=num_players)
    e.reset(seed=3)
    for i, agent in enumerate(e.possible_agents):  # every seat's space: the same game on every run
        e.action_space(agent).seed(3 + i)
    totals = dict.fromkeys(e.possible_agents, 0.0)
    done = set()
    for agent in e.agent_iter():
        obs, reward, term, trunc, info = e.last()
        assert e.observation_space(agent).contains(obs), agent
        totals[agent] += reward
        if term or trunc:
            done.add(agent)
            e.step(None)
            continue
        action = e.action_space(agent).sample(_mask(obs, info).astype(np.int8))
        assert _mask(obs, info)[action]
        e.step(action)
    assert done == set(e.possible_agents) and e.agents == []
    assert abs(sum(totals.values())) < 1e-5
    e.close()
    e.close()


@pytest.mark.parametrize("module,num_players", CASES[:1] + CASES[2:3])
def test_agent_iter_max_iter_stops_after_that_many_turns(module, num_players):
    e = module.env(num_players=num_players)
    e.reset(seed=1)
    turns = 0
    for _agent in e.agent_iter(7):
        obs, _r, _t, _tr, info = e.last()
        e.step(int(np.flatnonzero(_mask(obs, info))[0]))
        turns += 1
    assert turns == 7 and e.agents
