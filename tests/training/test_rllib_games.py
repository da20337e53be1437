"""The RLlib trainer on every game of the package (training/spacemission_training/rllib.py):
``--game`` brings that game's defaults, env, bots, feature sample and export, and a bad game
or a player count outside the game's range is refused by name.

Needs ray[rllib] (``make test-ray``); skipped where Ray is not importable."""
from __future__ import annotations

import numpy as np
import pytest

pytest.importorskip("ray.rllib")

import torch  # noqa: E402
from gymnasium import spaces  # noqa: E402
from ray.rllib.core.columns import Columns  # noqa: E402

from spacemission_agents.registry import make_agent  # noqa: E402
from spacemission_env.checks import shown_path  # noqa: E402
from spacemission_env.games import get_game  # noqa: E402
from spacemission_env.pettingzoo_env import env as make_aec  # noqa: E402
from spacemission_training.config import GAME_DEFAULTS  # noqa: E402
from spacemission_training.policy import feature_stats  # noqa: E402
from spacemission_training.rllib import RLlibConfig, architecture, default_run_dir, export_agent, make_env, parse_args  # noqa: E402
from spacemission_training.rllib_module import BotModule, MaskedPPOModule  # noqa: E402
from tests.helpers.env_play import aec_decisions  # noqa: E402

pytestmark = pytest.mark.ray
RP = get_game("red_planet")


def test_game_flag_brings_the_games_defaults_under_the_flags(tmp_path):
    cfg, resume = parse_args(["--game", "red_planet"])
    want = GAME_DEFAULTS["red_planet"]
    assert resume is None and cfg.game == "red_planet"
    assert (cfg.players, cfg.rules, cfg.max_rounds, cfg.observation_type, cfg.opponents) == (
        want["players"], want["rules"], want["max_rounds"], want["observation_type"], want["opponents"])
    assert parse_args(["--game", "red_planet", "--players", "3"])[0].players == 3  # a flag wins
    conf = tmp_path / "c.json"
    conf.write_text('{"game": "red_planet", "players": 5}')  # the game named in the file counts too
    cfg = parse_args(["--config", str(conf)])[0]
    assert (cfg.game, cfg.players, cfg.rules) == ("red_planet", 5, want["rules"])
    assert default_run_dir(cfg).name == "rllib-red_planet-5p-s0"
    assert default_run_dir(RLlibConfig()).name == "rllib-2p-s0"  # Space Mission's runs keep their name


@pytest.mark.parametrize("bad, message", [
    (dict(game="chess"), "unknown game 'chess'"),
    (dict(game="red_planet", players=2, rules="first_edition", max_rounds=10, observation_type="info"),
     "num_players must be an integer in 3..5"),
    (dict(game="red_planet", players=4, rules="yucata", max_rounds=10, observation_type="info"), "rules"),
    (dict(observation_type="seer2"), "observation_type must be one of"),
])
def test_config_names_what_the_game_refuses(bad, message):
    with pytest.raises(ValueError, match=message):
        RLlibConfig(**bad)


def test_env_is_the_games_pettingzoo_env():
    e = make_env(dict(game="red_planet", num_players=3, observation_type="info", rules="first_edition",
                      max_rounds=10))
    obs, _ = e.reset(seed=0)
    (agent, o), = obs.items()
    assert o["observation"].shape == (RP.encoding.observation_size("info"),)
    assert o["action_mask"].shape == (RP.num_actions,)
    assert sorted(e.possible_agents) == ["player_0", "player_1", "player_2"] and agent in e.possible_agents


def test_red_planet_bot_module_and_export_play_the_game(tmp_path):
    space = make_aec(game="red_planet", num_players=4, observation_type="info").observation_space("player_0")
    obs, masks = aec_decisions(40, 2, game="red_planet", num_players=4, observation_type="info")
    batch = {Columns.OBS: {"observation": torch.as_tensor(obs), "action_mask": torch.as_tensor(masks)}}
    config = dict(spec="heuristic", seed=0, observation_type="info", game="red_planet", num_players=4,
                  rules="first_edition", max_rounds=10)
    bot = BotModule(observation_space=space, action_space=spaces.Discrete(RP.num_actions), model_config=config)
    expected = make_agent("heuristic", seed=0, game="red_planet").act_batch(obs, masks.astype(bool))
    assert np.array_equal(bot.forward_exploration(batch)[Columns.ACTIONS], expected)

    cfg = parse_args(["--game", "red_planet", "--trunk", "32", "--pi", "16", "--vf", "8"])[0]
    active, scale = feature_stats(4, "first_edition", 10, "info", games=4, game="red_planet")
    torch.manual_seed(0)
    m = MaskedPPOModule(observation_space=space, action_space=spaces.Discrete(RP.num_actions),
                        model_config=architecture(cfg, active, scale))
    logits = m.forward_inference(batch)[Columns.ACTION_DIST_INPUTS].detach().numpy()
    agent = export_agent(m, cfg)
    assert agent.game == "red_planet" and agent.metadata["num_players"] == 4
    legal = masks.astype(bool)
    np.testing.assert_allclose(agent.logits(obs)[legal], logits[legal], rtol=1e-4, atol=1e-4)
    loaded = make_agent(f"ppo:{agent.save(tmp_path / 'final.npz')}", game="red_planet")
    assert np.array_equal(loaded.act_batch(obs, masks), logits.argmax(axis=1))


@pytest.mark.parametrize("text, phrase", [
    ("[1, 2]", "expected an object of options"),
    ('{"config": 5}', '"config" must be an object of options'),
    ('{"stepz": 1}', "unknown keys ['stepz']"),
    ("{not json", "not valid JSON"),
    ("[" * 100_000 + "]" * 100_000, "nested too deeply"),
])
def test_config_file_must_be_an_object_of_known_options(tmp_path, capsys, text, phrase):
    """The SB3 trainer's reader (config.read_options_file): a usage error naming the file,
    not a traceback."""
    f = tmp_path / "c.json"
    f.write_text(text)
    with pytest.raises(SystemExit):
        parse_args(["--config", str(f)])
    err = capsys.readouterr().err
    assert phrase in err and shown_path(f) in err  # the path cut to 80 characters (checks.shown)
