"""The Red Planet fast engine against the reference engine: random legal play in
lock-step, everything compared after every action (engine/differential.py)."""
import pytest

from spacemission_env.red_planet.engine import differential as D


@pytest.mark.parametrize("num_players", [3, 4, 5])
def test_state_mask_scores_rewards_identical_over_random_games(num_players):
    rep = D.run(num_players, range(500 + 100 * num_players, 550 + 100 * num_players), action_seed=num_players,
                observations="none")
    assert rep.divergences == [] and rep.games == 50 and rep.steps > 50 * 60


@pytest.mark.parametrize("num_players", [3, 4, 5])
def test_every_observation_of_every_seat_identical(num_players):
    rep = D.run(num_players, range(50 + 10 * num_players, 54 + 10 * num_players), action_seed=7, observations="all")
    assert rep.divergences == [] and rep.steps > 4 * 60


@pytest.mark.slow
@pytest.mark.parametrize("num_players", [3, 4, 5])
def test_many_games_identical(num_players):
    rep = D.run_many(1500, (num_players,), observations="acting", seed_base=7 * 10**8)
    assert rep.divergences == [] and rep.games == 1500
    rep = D.run(num_players, range(9000, 9050), observations="all")
    assert rep.divergences == []
