"""A third game plugs into every interface without changing them (docs/games.md, "Adding
a game"): the toy game of tests/helpers/toy_game.py, written only against the protocol, is
registered under a name and then played through the PettingZoo AEC env (PettingZoo's
api_test), the Gymnasium env (Gymnasium's checker), the self-play VectorEnv, the SB3 VecEnv
and the arena."""
from __future__ import annotations

import warnings

import numpy as np
import pytest
from pettingzoo.test import api_test

from spacemission_env import games
from spacemission_env.gym_env import GameEnv
from spacemission_env.pettingzoo_env import env as aec_env
from spacemission_env.policies import RandomPolicy
from spacemission_env.vector import VectorEnv
from tests.helpers import toy_game


@pytest.fixture(autouse=True)
def third_game(monkeypatch):
    monkeypatch.setitem(games.GAMES, "last_token", "tests.helpers.toy_game")
    yield
    games._LOADED.pop("last_token", None)


def test_the_protocol_finds_the_game():
    g = games.get_game("last_token")
    assert g is toy_game.GAME and games.GameConfig(3, game="last_token").max_rounds == 15


def test_pettingzoo_api_test():
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        api_test(aec_env(game="last_token", num_players=3), num_cycles=200)


def test_gymnasium_checker_and_a_whole_episode():
    from gymnasium.utils.env_checker import check_env

    e = GameEnv(game="last_token", num_players=2, seat=0)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        check_env(e)
    obs, info = e.reset(seed=4)
    assert 10 <= obs[0] <= 14 and obs[1] == 0  # a full pile, and the learner (seat 0) acts first
    done, reward = False, 0.0
    while not done:
        obs, reward, done, _, info = e.step(int(np.flatnonzero(info["action_mask"])[-1]))
    assert reward in (-1.0, 1.0) and [s["total"] for s in info["scores"]].count(1) == 1


def test_vector_env_and_sb3_vecenv():
    venv = VectorEnv(16, num_players=3, game="last_token", seed=0)
    obs, mask, player, _ = venv.reset()
    rng = np.random.default_rng(0)
    ended = 0
    for _ in range(60):
        obs, mask, player, rewards, terminated, _, infos = venv.step(toy_game.sample_actions(mask, rng))
        if terminated.any():
            assert np.allclose(rewards[terminated].sum(axis=1), 0.0)
            assert (infos["final_scores"][terminated].sum(axis=(1, 2)) == 1).all()  # one winner
            ended += int(terminated.sum())
    assert ended >= 16
    pytest.importorskip("stable_baselines3")
    from spacemission_env.sb3 import GameVecEnv

    sb3 = GameVecEnv(4, num_players=2, game="last_token", seed=0)
    sb3.reset()
    _, rew, done, infos = sb3.step(sb3.action_masks().argmax(axis=1))
    assert sb3.action_masks().shape == (4, 3) and rew.shape == (4,)


def test_the_arena_rates_agents_of_the_third_game():
    from spacemission_agents.arena import run_arena

    result = run_arena([RandomPolicy(seed=0), RandomPolicy(by_kind=False, seed=1)], num_players=2, games=20,
                       game="last_token", progress=False)
    assert result.config["game"] == "last_token" and result.num_games == 20
    assert abs(sum(a.mean_rank for a in result.agents) / 2 - 1.5) < 1e-9
