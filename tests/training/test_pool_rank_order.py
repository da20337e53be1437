"""The training pool ranks the seats of an ended game in the order its game describes
(``GameDescription.rank_keys``): Space Mission by total, then stations (R-P8); Red Planet by
total alone, tied seats sharing the place (M-P4). Before, pool.py kept its own table keyed
on game names (``RANK_KEYS``), which a game's description could not change."""
import dataclasses

import numpy as np
import pytest

from spacemission_env import games
from spacemission_env.games import get_game
from spacemission_training.pool import OpponentPool, pairwise_scores


def _info(game, seat, rows, opponents):
    """An ended game's learner info: ``rows`` one dict per seat of the game's score columns
    (each 0 but those given)."""
    names = get_game(game).score_names
    return {"seat": seat, "opponents": opponents, "scores": [{**dict.fromkeys(names, 0), **r} for r in rows]}


def test_each_game_describes_its_ranking_order():
    assert get_game("spacemission").description.rank_keys == ("total", "stations")  # R-P8
    assert get_game("red_planet").description.rank_keys == ("total",)  # M-P4
    for name in games.GAMES:
        g = get_game(name)
        assert set(g.description.rank_keys) <= set(g.score_names), name  # keys of the envs' score dicts


def test_space_mission_breaks_a_tie_on_total_by_stations():
    # the learner (seat 0) level on 40 with both: more stations than seat 1, fewer than seat 2
    info = _info("spacemission", 0, [{"total": 40, "stations": 6}, {"total": 40, "stations": 3},
                                     {"total": 40, "stations": 9}], [0, 1])
    assert pairwise_scores(info, 3, "spacemission") == [1.0, 0.0]
    level = _info("spacemission", 0, [{"total": 40, "stations": 6}, {"total": 40, "stations": 6}], [0])
    assert pairwise_scores(level, 2, "spacemission") == [0.5]
    pool = OpponentPool("random=1,kind-random=1", num_players=3, game="spacemission")
    assert pool.record([info], np.array([True])) == [(0, 1.0), (1, 0.0)]


def test_red_planet_shares_a_tie_on_total_whatever_the_other_columns():
    info = _info("red_planet", 1, [{"total": 30, "ice": 9}, {"total": 30, "ice": 2}, {"total": 30, "celerium": 8}],
                 [0, 1])
    assert pairwise_scores(info, 3, "red_planet") == [0.5, 0.5]  # seats 2 then 0
    ahead = _info("red_planet", 1, [{"total": 29}, {"total": 30}, {"total": 31}], [0, 1])
    assert pairwise_scores(ahead, 3, "red_planet") == [0.0, 1.0]
    pool = OpponentPool("random=1", num_players=3, game="red_planet")
    assert pool.record([{**info, "opponents": [0, 0]}], np.array([True])) == [(0, 0.5), (0, 0.5)]


def test_the_pool_follows_a_games_description_not_its_name(monkeypatch):
    """A game (the toy game of tests/helpers/toy_game.py under another name) whose description
    breaks ties of totals by another column: the pool ranks by it (the old table ranked every
    game it did not name by total alone)."""
    from tests.helpers import toy_game

    desc = dataclasses.replace(toy_game.GAME.description, rank_keys=("total", "tokens"))
    monkeypatch.setitem(games._LOADED, "ranked_toy", dataclasses.replace(toy_game.GAME, description=desc))
    info = {"seat": 0, "scores": [{"total": 1, "tokens": 4}, {"total": 1, "tokens": 2}, {"total": 1, "tokens": 4}]}
    assert pairwise_scores(info, 3, "ranked_toy") == [1.0, 0.5]


@pytest.mark.parametrize("bad", [(), ["total"], ("total", ""), ("total", "total"), ("total", 3)])
def test_a_description_with_bad_rank_keys_is_refused(bad):
    with pytest.raises(ValueError, match="rank_keys must be a non-empty tuple"):
        dataclasses.replace(get_game("spacemission").description, rank_keys=bad)
