"""The random players of the reference engine (spacemission_env/space_mission/random_play.py)."""
import random
from collections import Counter

import pytest

from spacemission_env.space_mission import actions as A
from spacemission_env.space_mission.random_play import PLAYERS, kind_uniform_action, play, uniform_action
from spacemission_env.space_mission.rules import apply, legal_actions, new_game


@pytest.mark.parametrize("choose", [uniform_action, kind_uniform_action])
@pytest.mark.parametrize("players, rules", [(2, "schmidt"), (4, "yucata")])
def test_random_players_pick_only_legal_actions(choose, players, rules):
    state, rng = new_game(players, seed=5, rules=rules, max_rounds=8), random.Random(5)
    decisions = 0
    while not state.is_over:
        legal = legal_actions(state)
        action = choose(state, rng)
        assert action in legal, f"{choose.__name__} chose {action}, legal: {legal}"
        apply(state, action)
        decisions += 1
    assert decisions > 20  # eight rounds of play (R-E3), a few actions per turn


def test_kind_uniform_spreads_over_kinds_where_uniform_mostly_tops_up():
    state = new_game(2, seed=1)
    legal_kinds = {A.decode(a)[0] for a in legal_actions(state)}
    rng_u, rng_k = random.Random(0), random.Random(0)
    uniform = Counter(A.decode(uniform_action(state, rng_u))[0] for _ in range(600))
    kind = Counter(A.decode(kind_uniform_action(state, rng_k))[0] for _ in range(600))
    assert set(kind) == legal_kinds and min(kind.values()) > 600 / len(legal_kinds) / 2
    assert uniform["top_up"] > kind["top_up"]


def test_play_is_seeded_and_ends():
    a, n = play(2, 5, rules="schmidt", player="kind")
    b, m = play(2, 5, rules="schmidt", player="kind")
    assert a.is_over and n == m > 0 and a == b
    # the seed deals the game and seeds the player: the same loop by hand gives the same game ...
    s, rng, k = new_game(2, seed=5, rules="schmidt"), random.Random(5), 0
    while not s.is_over:
        apply(s, kind_uniform_action(s, rng))
        k += 1
    assert s == a and k == n
    # ... and another seed another game
    c, _ = play(2, 6, rules="schmidt", player="kind")
    assert c != a and c.to_json() != a.to_json()
    state, _ = play(2, 5, player="uniform", max_rounds=3)
    assert state.is_over and state.round_limit and state.round == 3


def test_play_rejects_an_unknown_player():
    with pytest.raises(ValueError, match="unknown random player 'smart'"):
        play(2, 0, player="smart")
    assert sorted(PLAYERS) == ["kind", "uniform"]
