"""Bots' seeds at the edges (docs/agents_bots.md, docs/red_planet/agents.md: a bot's seed is
any non-negative integer; the same seed gives the same actions): seeds from 2**64 on are
seeds of their own, and those below keep the play of before."""
import numpy as np
import pytest

from spacemission_agents.registry import make_agent
from spacemission_env.games import GameConfig, get_game
from spacemission_env.rng import salt64

BOTS = [("spacemission", 2, "greedy"), ("spacemission", 2, "heuristic"),
        ("red_planet", 3, "random"), ("red_planet", 3, "greedy"), ("red_planet", 3, "heuristic")]


def _positions(game: str, players: int):
    g = get_game(game)
    st = g.engine.init(64, players, seeds=3)
    rng = np.random.default_rng(0)
    for _ in range(30):
        g.engine.step(st, g.engine.sample_actions(g.engine.legal_action_mask(st), rng))
    return g, st


@pytest.mark.parametrize("game, players, spec", BOTS)
def test_a_seed_from_2_64_on_is_not_a_smaller_seed(game, players, spec):
    """Regression: the bots took their seed modulo 2**64, so seed 2**64 played as seed 0
    and 2**64 + 1 as 1 (Space Mission's RandomPolicy, numpy's generator, kept them apart)."""
    g, st = _positions(game, players)

    def actions(seed):
        bot = make_agent(spec, seed=seed, game=game)
        bot.bind(GameConfig(players, game=game))
        obs = g.engine.observe(st, None, bot.observation_type or "info")
        return bot.act_batch(obs, g.engine.legal_action_mask(st)).tolist()

    assert actions(0) != actions(2**64)
    assert actions(1) != actions(2**64 + 1)
    assert actions(2**64) == actions(2**64)  # the same seed, the same play


def test_seeds_below_2_64_salt_as_before():
    assert [salt64(s) for s in (0, 1, 2**63, 2**64 - 1)] == [0, 1, 2**63, 2**64 - 1]
    assert len({salt64(s) for s in (0, 1, 2**64, 2**64 + 1, 2**100)}) == 5
    bot = make_agent("greedy", seed=np.uint64(2**64 - 1))
    assert int(bot._salt) == 2**64 - 1
