"""The game protocol (spacemission_env/games.py): every game offers the same engine
functions with the same signatures, its description matches its engines, and every
interface plays every game through it."""
from __future__ import annotations

import inspect

import numpy as np
import pytest

from spacemission_env.games import GAMES, Game, GameConfig, get_game, require_game
from spacemission_env.vector import VectorEnv

ENGINE_API = {
    "init": ("batch_size", "num_players", "seeds"),
    "step": ("st", "actions", "select"),
    "legal_action_mask": ("st", "out", "select"),
    "observe": ("st", "player", "observation_type", "out"),
    "scores": ("st",),
    "rewards": ("st",),
    "reset_finished": ("st", "seeds"),
    "sample_actions": ("mask", "rng"),
    "to_reference": ("st", "i"),
    "from_reference": ("states",),
    "observation_size": ("observation_type",),
}


def test_get_game_by_name_and_errors():
    for name in GAMES:
        g = get_game(name)
        assert isinstance(g, Game) and g.name == name and get_game(g) is g
    with pytest.raises(ValueError, match="unknown game 'chess'.*red_planet"):
        get_game("chess")
    with pytest.raises(TypeError, match="game must be a game name"):
        get_game(3)


@pytest.mark.parametrize("name", sorted(GAMES))
def test_every_engine_offers_the_protocol(name):
    engine = get_game(name).engine
    for fn, params in ENGINE_API.items():
        assert callable(getattr(engine, fn, None)), f"{name}: engine.{fn} missing"
        have = tuple(inspect.signature(getattr(engine, fn)).parameters)
        assert have[:len(params)] == params, f"{name}: engine.{fn}{have} does not start with {params}"


@pytest.mark.parametrize("name", sorted(GAMES))
def test_description_matches_the_engines(name):
    g = get_game(name)
    d = g.description
    for n in (d.min_players, d.max_players):
        config = GameConfig(n, game=name)
        st = g.new_batch(3, config, seeds=5)
        assert st.batch_size == 3 and st.num_players == n
        assert g.engine.legal_action_mask(st).shape == (3, d.num_actions)
        for t in g.observation_types:
            obs = g.engine.observe(st, observation_type=t)
            assert obs.shape == (3, d.observation_size(t)) and obs.dtype == np.int8
            assert d.observation_low <= obs.min() and obs.max() <= d.observation_high
        scores = g.engine.scores(st)
        assert scores.shape == (3, n, len(g.score_names)) and g.score_names[-1] == "total"
        # the fast engine's first state is the reference engine's new game of the same seed
        ref = g.new_reference_game(config, seed=6)
        assert g.rules.to_json(g.engine.to_reference(st, 1)) == g.rules.to_json(ref)


def test_config_defaults_and_validation_per_game():
    sm = GameConfig()
    assert (sm.game, sm.num_players, sm.rules, sm.max_rounds) == ("spacemission", 2, "yucata", 100)
    rp = GameConfig(4, game="red_planet")
    assert (rp.rules, rp.max_rounds) == ("first_edition", 10)
    with pytest.raises(ValueError, match=r"num_players must be an integer in 3\.\.5 for Mission: Red Planet"):
        GameConfig(2, game="red_planet")
    with pytest.raises(ValueError, match="max_rounds must be 10 for Mission: Red Planet"):
        GameConfig(3, max_rounds=20, game="red_planet")
    with pytest.raises(ValueError, match="unknown rules 'yucata' for Mission: Red Planet"):
        GameConfig(3, rules="yucata", game="red_planet")
    with pytest.raises(ValueError, match="unknown game"):
        GameConfig(3, game="tom_tube")


def test_require_game_names_both_games():
    require_game(GameConfig(), "spacemission", "bot")
    with pytest.raises(ValueError, match=r"bot plays Space Mission \('spacemission'\), not Mission: Red Planet"):
        require_game(GameConfig(3, game="red_planet"), "spacemission", "bot")


@pytest.mark.parametrize("name,players", [("spacemission", 2), ("red_planet", 3), ("red_planet", 5)])
def test_vector_env_plays_every_game_to_the_end(name, players):
    venv = VectorEnv(8, num_players=players, game=name, seed=1)
    obs, mask, player, _ = venv.reset()
    g = get_game(name)
    assert obs.shape == (8, g.description.observation_size("info")) and mask.shape == (8, g.num_actions)
    rng = np.random.default_rng(0)
    ended = 0
    for _ in range(g.description.max_game_length(players, venv.max_rounds) + 1):
        obs, mask, player, rewards, terminated, truncated, infos = venv.step(g.engine.sample_actions(mask, rng))
        assert (player >= 0).all() and (player < players).all()
        if terminated.any():
            ended += int(terminated.sum())
            assert infos["final_scores"].shape == (8, players, len(g.score_names))
            assert np.allclose(rewards[terminated].sum(axis=1), 0.0, atol=1e-5)  # zero-sum rank rewards
        if ended >= 8:
            break
    assert ended >= 8, "every game ends within the description's longest game"
