"""The bots read their game's player count from the observation's seat_present block (1 for
each seat in the game, from the observer on, then 0). An int8 row of the right size that no
engine writes (noise, a hand-built or corrupted observation) is refused by name
(engine_common.check_seat_present) instead of reaching their arithmetic. Before: Red Planet's
greedy and heuristic raised a bare numpy IndexError ("index 14 is out of bounds for axis 2
with size 5") and Space Mission's heuristic a ZeroDivisionError from its kernel."""
from __future__ import annotations

import re

import numpy as np
import pytest
from spacemission_agents import make_agent

from spacemission_env.games import GameConfig, get_game

SEAT_BLOCK = "seat_present block"


def _rows(game: str, players: int, observation_type: str):
    """Observations [3, D] and masks of three real games' first decision, and the seat block's columns."""
    g = get_game(game)
    st = g.engine.init(3, players, seeds=1)
    obs = g.engine.observe(st, observation_type=observation_type)
    layout = g.encoding.observation_layout(observation_type)
    start, stop = next((a, b) for name, a, b, _ in layout if name == "seat_present")
    return obs, g.engine.legal_action_mask(st), start, stop


@pytest.mark.parametrize("game, players, spec, block", [
    ("red_planet", 4, "greedy", [1, 2, 3, 4, 5]),  # read as 15 players: an IndexError before
    ("red_planet", 4, "heuristic", [127, 127, 127, 127, 127]),
    ("red_planet", 3, "heuristic", [-128, 1, 1, 0, 0]),
    ("spacemission", 2, "heuristic", [0, 0, 0, 0, 0]),  # read as 0 players: a ZeroDivisionError before
    ("spacemission", 2, "greedy", [1, 0, 1, 0, 0]),
    ("red_planet", 3, "greedy", [1, 1, 0, 0, 0]),  # 2 players: not a Red Planet game (M-X2)
])
def test_a_row_no_engine_writes_is_refused_by_name(game, players, spec, block):
    bot = make_agent(spec, seed=0, game=game)
    bot.bind(GameConfig(players, game=game))
    obs, mask, start, stop = _rows(game, players, bot.observation_type)
    assert bot.act_batch(obs, mask).shape == (3,)  # the engine's rows play
    bad = obs.copy()
    bad[1, start:stop] = block
    lo, hi = get_game(game).description.min_players, get_game(game).description.max_players
    with pytest.raises(ValueError, match=rf"^{spec}: observation row 1 is not an observation of a {lo}-{hi} player "
                                         rf"game: its {SEAT_BLOCK} .* reads {block}".replace("[", r"\[").replace("]", r"\]")):
        bot.act_batch(bad, mask)
    with pytest.raises(ValueError, match="row 0 is not an observation"):
        bot.act(bad[1], mask[1])  # act is a batch of one


@pytest.mark.parametrize("game, players", [("red_planet", 3), ("red_planet", 5), ("spacemission", 2),
                                           ("spacemission", 5)])
def test_every_player_count_of_the_game_still_plays(game, players):
    for spec in ("greedy", "heuristic"):
        bot = make_agent(spec, seed=0, game=game)
        bot.bind(GameConfig(players, game=game))
        obs, mask, start, stop = _rows(game, players, bot.observation_type)
        assert (obs[:, start:stop].sum(axis=1) == players).all()
        legal = bot.act_batch(obs, mask)
        assert mask[np.arange(3), legal].all()


@pytest.mark.parametrize("spec, who", [("search:iterations=8", "SearchAgent"),
                                       ("netsearch:iterations=8", "NetSearchAgent"),
                                       ("ppo", "PPO model 'ppo'")])
@pytest.mark.parametrize("bound", [False, True])
@pytest.mark.parametrize("block", [[2, 0, 0, 0, 0], [0, 0, 0, 0, 0], [1, 0, 1, 0, 0]])
def test_the_search_bots_and_ppo_refuse_such_a_row_by_the_same_check(spec, who, bound, block):
    """The search bots (check_recall_rows) and the PPO models (_check_players) refuse a row no
    engine writes by the same check and message. Before: a [2, 0, 0, 0, 0] block (2 by its
    sum) reached the PPO model's player-count check, which said "plays 2-player games, but
    observation row 0 is of a 2-player game", and [0, 0, 0, 0, 0] "... of a 0-player game"
    (unbound search bots: "num_players must be an integer in 2..5, got 0")."""
    bot = make_agent(spec, seed=0)
    if bound:
        bot.bind(GameConfig(2))
    obs, mask, start, stop = _rows("spacemission", 2, bot.observation_type)
    bad = obs[:2].copy()
    bad[1, start:stop] = block
    with pytest.raises(ValueError, match=rf"^{re.escape(who)}: observation row 1 is not an observation of a 2-5 player "
                                         rf"game: its {SEAT_BLOCK} .* reads {re.escape(str(block))}$"):
        bot.act_batch(bad, mask[:2])


def test_a_real_count_is_still_named_by_the_ppo_model():
    """A real 5-player row given to the 2-player model: the count it names is the real one."""
    bot = make_agent("ppo", seed=0)
    obs, mask, start, stop = _rows("spacemission", 5, bot.observation_type)
    with pytest.raises(ValueError, match=r"plays 2-player games, but observation row 0 is of a 5-player game"):
        bot.act_batch(obs, mask)
