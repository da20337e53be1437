"""Random-play properties of the reference engine for 3-5 players: a legal action exists
until the end, every component is conserved after every action, a JSON round trip at any
point continues the same game, seeded games are identical, and every game ends after
round 10 (M-X1). More games under ``-m slow``."""
import random

import pytest

from spacemission_env.red_planet.random_play import play
from spacemission_env.red_planet.rules import (
    apply,
    check_invariants,
    from_json,
    is_over,
    legal_actions,
    new_game,
    scores,
    to_json,
    winners,
)

PLAYERS = [3, 4, 5]


def check_game(n: int, seed: int) -> None:
    def on_step(state, _action):
        check_invariants(state)
        legal = legal_actions(state)
        assert is_over(state) or legal, f"no legal action in phase {state.phase}"
        assert legal == sorted(set(legal))  # ascending, once each

    state, kinds = play(n, seed, on_step)
    assert state.phase == "over" and state.round == 10
    assert kinds["commit"] == 10 * n and kinds["keep"] == n
    assert set(winners(state)) <= set(range(n)) and winners(state)
    assert all(row["total"] >= 0 for row in scores(state))


@pytest.mark.parametrize("n", PLAYERS)
def test_random_games_conserve_components_and_end_after_round_10(n):
    for seed in range(5):
        check_game(n, seed)


@pytest.mark.slow
@pytest.mark.parametrize("n", PLAYERS)
def test_many_random_games(n):
    for seed in range(100, 400):
        check_game(n, seed)


def continue_randomly(state, rand):
    while not is_over(state):
        apply(state, rand.choice(legal_actions(state)))
    return state


@pytest.mark.parametrize("n", PLAYERS)
def test_json_round_trip_at_random_points_continues_the_same_game(n):
    for seed in range(4):
        pick = random.Random(1000 + seed)
        s = new_game(n, seed=seed)
        cut = pick.randrange(50, 400)
        rand = random.Random(seed)
        for _ in range(cut):
            if is_over(s):
                break
            apply(s, rand.choice(legal_actions(s)))
        loaded = from_json(to_json(s))
        assert loaded == s
        state_rand = rand.getstate()
        a = continue_randomly(s, rand)
        rand.setstate(state_rand)
        b = continue_randomly(loaded, rand)
        assert a == b and scores(a) == scores(b)


@pytest.mark.parametrize("n", PLAYERS)
def test_seeded_games_are_identical(n):
    a, ka = play(n, 77)
    b, kb = play(n, 77)
    assert a == b and ka == kb
    c, _ = play(n, 78)
    assert c != a


def test_new_game_seed_none_draws_fresh_entropy():
    assert new_game(3, seed=None).rng != new_game(3, seed=None).rng
