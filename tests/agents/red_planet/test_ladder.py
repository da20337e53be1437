"""The Red Planet ladder (agents/spacemission_agents/red_planet/ladder.py): duplicate deals with
rotated seats, ranks and win rates that add up, its errors; and (slow) the ladder order."""
import numpy as np
import pytest
from spacemission_agents.arena_stats import mean_ci
from spacemission_agents.red_planet.ladder import average_ranks, make_bot, play_ladder


def test_average_ranks_share_tied_places():
    assert average_ranks(np.array([10, 20, 20])).tolist() == [3.0, 1.5, 1.5]
    assert average_ranks(np.array([7, 3, 5, 9])).tolist() == [2.0, 4.0, 3.0, 1.0]


def test_ladder_pools_copies_and_its_figures_add_up():
    res = play_ladder(["greedy", "random", "random"], 6, seed=3)
    by = {s.name: s for s in res.stats}
    assert list(by) == ["greedy", "random"] and by["greedy"].seats == 6 and by["random"].seats == 12
    # every game hands out ranks 1 + 2 + 3 and one win (shared wins split)
    assert by["greedy"].mean_rank[0] * 6 + by["random"].mean_rank[0] * 12 == pytest.approx(6 * 6)
    assert by["greedy"].win_rate[0] * 6 + by["random"].win_rate[0] * 12 == pytest.approx(6)
    for s in res.stats:
        assert 1 <= s.mean_rank[1] <= s.mean_rank[0] <= s.mean_rank[2] <= 3  # the places 1..3
        assert 0 <= s.win_rate[1] <= s.win_rate[0] <= s.win_rate[2] <= 1
    assert res.decisions > 6 * 80 and "| greedy | 6 |" in res.markdown()
    again = play_ladder(["greedy", "random", "random"], 6, seed=3)
    assert [(s.mean_rank, s.win_rate) for s in again.stats] == [(s.mean_rank, s.win_rate) for s in res.stats]


def test_mean_rank_intervals_stay_within_the_places():
    """A bot first in every game but one: the normal interval reached below place 1."""
    ranks = np.array([1.0] * 11 + [2.0])
    deals = np.arange(12)
    _, low, high = mean_ci(ranks, deals)
    assert low < 1  # the plain normal interval
    # with the places: a Wilson interval on q = (3 - rank) / 2, inside 1..3 and not touching 1
    mean, blow, bhigh = mean_ci(ranks, deals, bounds=(1.0, 3.0))
    assert mean == ranks.mean() and 1.0 < blow < mean < bhigh < 3.0
    res = play_ladder(["heuristic", "random", "random"], 6, seed=1)
    assert all(1 <= s.mean_rank[1] and s.mean_rank[2] <= 3 for s in res.stats)


def test_ladder_errors():
    with pytest.raises(ValueError, match="unknown Red Planet bot"):
        play_ladder(["greedy", "random", "nobody"], 3)
    with pytest.raises(ValueError, match=r"num_players must be an integer in 3\.\.5"):
        play_ladder(["greedy", "random"], 2)
    with pytest.raises(ValueError, match="num_games"):
        play_ladder(["greedy", "random", "random"], 0)
    with pytest.raises(ValueError, match="unknown"):
        make_bot("search")


@pytest.mark.slow
@pytest.mark.parametrize("players", [3, 4, 5])
def test_heuristic_beats_random_and_greedy(players):
    """The ladder order random < greedy < heuristic with a margin: the heuristic against
    copies of the random bot, then against copies of the greedy bot (duplicate deals)."""
    games = 10 * players
    res = play_ladder(["heuristic"] + ["random"] * (players - 1), games, seed=77)
    h, r = res.stats
    assert h.win_rate[1] > 0.7 and h.mean_rank[2] < r.mean_rank[1]
    res = play_ladder(["heuristic"] + ["greedy"] * (players - 1), games, seed=77)
    h, g = res.stats
    assert h.win_rate[0] > 1.5 / players and h.mean_rank[2] < g.mean_rank[1]


def test_the_ladder_binds_its_bots_before_any_game():
    """A bot object is bound to the game before the first deal, as the arena does: the shipped
    4-player PPO model's file at 3 players is refused at once by name. Before, it failed at its
    first decision with 'bind the agent to the game'."""
    from spacemission_agents.ppo import PPOAgent
    from spacemission_agents.registry import make_agent

    four = make_agent(f"ppo:{PPOAgent.shipped_path(4, game='red_planet')}", game="red_planet")
    with pytest.raises(ValueError, match="trained for 4 players"):
        play_ladder([four, "random", "random"], 3)
