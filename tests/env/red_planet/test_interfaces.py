"""Mission: Red Planet through every interface of the game protocol: PettingZoo's own
api / seed / render / state tests at 3, 4 and 5 players (M-X2), the Gymnasium id and
checker, the self-play VectorEnv, the SB3 VecEnv for MaskablePPO, rendering, and the
hidden role commit (M-R3, M-I4) seen from the AEC env."""
from __future__ import annotations

import pickle
import warnings

import gymnasium
import numpy as np
import pytest
from pettingzoo.test import api_test, render_test, seed_test
from pettingzoo.test.state_test import test_state as pz_state_test
from pettingzoo.test.state_test import test_state_space as pz_state_space_test

import spacemission_env  # noqa: F401  (registers the ids)
from spacemission_env import red_planet_v2
from spacemission_env.games import get_game
from spacemission_env.pettingzoo_env import spaces_table
from spacemission_env.red_planet import actions as A
from spacemission_env.red_planet.config import RED_PLANET
from spacemission_env.vector import VectorEnv

GAME = get_game("red_planet")


def _quiet(fn, *args, **kwargs):
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # api_test warns about dict observations
        return fn(*args, **kwargs)


@pytest.mark.parametrize("num_players", [3, 4, 5])
def test_pettingzoo_api_test(num_players):
    """M-X2: every player count passes PettingZoo's api_test."""
    _quiet(api_test, red_planet_v2.env(num_players=num_players), num_cycles=400)


@pytest.mark.parametrize("num_players", [3, 5])
def test_pettingzoo_seed_and_state_tests(num_players):
    _quiet(seed_test, lambda render_mode=None: red_planet_v2.env(num_players=num_players), num_cycles=200)
    e = red_planet_v2.env(num_players=num_players)  # the wrapped env: state_test steps random actions
    pz_state_space_test(e)
    _quiet(pz_state_test, e, num_cycles=50)


def test_pettingzoo_render_test(capsys):
    render_test(lambda render_mode=None: red_planet_v2.env(num_players=4, render_mode=render_mode))
    assert "Rim" in capsys.readouterr().out  # "human" prints the text board


def test_spaces_and_metadata_come_from_the_description():
    e = red_planet_v2.raw_env(num_players=4)
    assert e.metadata["name"] == "red_planet_v2" == RED_PLANET.versioned_name
    space = e.observation_space("player_0")
    assert space["observation"].shape == (RED_PLANET.observation_size("info"),)
    assert space["action_mask"].shape == (A.NUM_ACTIONS,) == (e.action_space("player_3").n,)
    assert e.state_space.shape == (RED_PLANET.observation_size("seer"),)
    assert spaces_table(4, game="red_planet") in red_planet_v2.__doc__  # the docs table is the real spaces
    with pytest.raises(TypeError, match="takes no game argument"):
        red_planet_v2.env(game="spacemission")
    with pytest.raises(ValueError, match="num_players must be an integer in 3..5"):
        red_planet_v2.env(num_players=2)


def test_hidden_commits_are_not_seen_by_later_seats():
    """M-R3 / M-I4: while roles are chosen in seat order, a later seat's observation and
    mask are the same whichever role an earlier seat committed."""
    def first_commit_state(role_choice):
        e = red_planet_v2.raw_env(num_players=3)
        e.reset(seed=11)
        first = None
        for agent in e.agent_iter():
            obs, _, term, trunc, _ = e.last()
            mask = obs["action_mask"]
            commits = [a for a in np.flatnonzero(mask) if A.decode(int(a))[0] == "commit"]
            if commits:
                if first is None:
                    first = agent
                    e.step(int(commits[role_choice % len(commits)]))
                    continue
                return agent, e.observe(agent)
            e.step(int(np.flatnonzero(mask)[0]))
        raise AssertionError("no second commit")

    agent_a, seen_a = first_commit_state(0)
    agent_b, seen_b = first_commit_state(1)
    assert agent_a == agent_b
    assert np.array_equal(seen_a["observation"], seen_b["observation"])
    assert np.array_equal(seen_a["action_mask"], seen_b["action_mask"])


def test_copies_pickle_to_the_same_game():
    e = red_planet_v2.env(num_players=4)
    e.reset(seed=3)
    for _ in range(10):
        e.step(int(np.flatnonzero(e.last()[0]["action_mask"])[0]))
    clone = pickle.loads(pickle.dumps(e))
    assert np.array_equal(clone.observe(clone.agent_selection)["observation"],
                          e.observe(e.agent_selection)["observation"])


@pytest.mark.parametrize("num_players", [3, 5])
def test_gymnasium_id_passes_the_checker(num_players):
    from gymnasium.utils.env_checker import check_env

    env = gymnasium.make("RedPlanet-v2", num_players=num_players)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        check_env(env.unwrapped)
    obs, info = env.reset(seed=0)
    assert obs.shape == (957,) and info["action_mask"].shape == (243,)
    done, steps = False, 0
    while not done:
        obs, reward, done, truncated, info = env.step(int(np.flatnonzero(info["action_mask"])[0]))
        assert not truncated
        steps += 1
    assert len(info["scores"]) == num_players and "total" in info["scores"][0]
    assert steps <= RED_PLANET.max_game_length(num_players, 10)


def test_vector_env_rewards_and_final_scores():
    venv = VectorEnv(16, num_players=4, game="red_planet", reward="score", seed=2)
    obs, mask, player, _ = venv.reset()
    rng = np.random.default_rng(1)
    returns = np.zeros((16, 4))
    finished = np.zeros(16, dtype=bool)
    while not finished.all():
        obs, mask, player, rewards, terminated, _, infos = venv.step(GAME.engine.sample_actions(mask, rng))
        returns[~finished] += rewards[~finished]
        if terminated.any():
            totals = infos["final_scores"][..., -1].astype(float)
            rows = np.flatnonzero(terminated & ~finished)
            expected = (totals - (totals.sum(axis=1, keepdims=True) - totals) / 3) / GAME.score_scale
            assert np.allclose(returns[rows], expected[rows], atol=1e-5)
            assert not infos["round_limit"].any()  # M-X1: ten rounds, no other end
            finished |= terminated


def test_sb3_vecenv_for_maskable_ppo():
    pytest.importorskip("sb3_contrib")
    from sb3_contrib import MaskablePPO

    from spacemission_env.sb3 import GameVecEnv

    venv = GameVecEnv(4, num_players=3, game="red_planet", seed=0)
    assert venv.action_masks().shape == (4, 243) if venv.reset() is not None else False
    model = MaskablePPO("MlpPolicy", venv, n_steps=32, batch_size=64, n_epochs=1, seed=0, device="cpu")
    model.learn(64)
    obs = venv.reset()
    actions, _ = model.predict(obs, action_masks=venv.action_masks())
    assert venv.action_masks()[np.arange(4), actions].all()


def test_rendering_through_the_interfaces():
    e = red_planet_v2.raw_env(num_players=4, render_mode="ansi")
    e.reset(seed=0)
    text = e.render()
    assert isinstance(text, str) and "Rim" in text
    e = red_planet_v2.raw_env(num_players=3, render_mode="rgb_array")
    e.reset(seed=0)
    img = e.render()
    assert img.dtype == np.uint8 and img.ndim == 3 and img.shape[2] == 3


def test_bad_input_through_the_interfaces_leaves_the_game_as_it_was():
    """Bad actions name the problem and change nothing, in every interface (as for Space Mission)."""
    e = red_planet_v2.raw_env(num_players=3)
    e.reset(seed=5)
    before = e.observe(e.agent_selection)["observation"].copy()
    for bad, error in ((243, ValueError), (-1, ValueError), (1.5, TypeError), ("commit", TypeError), (True, TypeError)):
        with pytest.raises(error, match=str(bad) if error is ValueError else "action"):
            e.step(bad)
    illegal = int(np.flatnonzero(e.observe(e.agent_selection)["action_mask"] == 0)[0])
    with pytest.raises(ValueError, match=f"action {illegal} .* is not legal"):
        e.step(illegal)
    assert np.array_equal(e.observe(e.agent_selection)["observation"], before)
    venv = VectorEnv(4, num_players=4, game="red_planet", seed=0)
    obs, mask, _, _ = venv.reset()
    state = GAME.rules.to_json(GAME.engine.to_reference(venv.batch_state, 2))
    actions = GAME.engine.sample_actions(mask, np.random.default_rng(0))
    actions[2] = int(np.flatnonzero(~mask[2])[0])
    with pytest.raises(ValueError, match="game 2"):
        venv.step(actions)
    actions[2] = 243
    with pytest.raises(ValueError, match="game 2: action 243 is out of range"):
        venv.step(actions)
    assert GAME.rules.to_json(GAME.engine.to_reference(venv.batch_state, 2)) == state
    with pytest.raises(ValueError, match="num_players must be an integer in 3..5"):
        VectorEnv(4, num_players=6, game="red_planet")
    with pytest.raises(ValueError, match="max_rounds must be 10"):
        gymnasium.make("RedPlanet-v2", num_players=3, max_rounds=12)
