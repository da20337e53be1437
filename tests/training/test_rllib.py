"""The RLlib trainer's parts without a cluster: the masked module and its export to the
numpy agent, the bot module, the seat mapping, the configuration.

Needs ray[rllib] (``make test-ray``); skipped where Ray is not importable."""
from __future__ import annotations

import numpy as np
import pytest

pytest.importorskip("ray.rllib")

import torch  # noqa: E402
from gymnasium import spaces  # noqa: E402
from ray.rllib.core.columns import Columns  # noqa: E402

from spacemission_agents.registry import make_agent  # noqa: E402
from spacemission_env.space_mission import encoding  # noqa: E402
from spacemission_env.space_mission.actions import NUM_ACTIONS  # noqa: E402
from spacemission_env.pettingzoo_env import env as make_aec  # noqa: E402
from spacemission_training.policy import feature_stats  # noqa: E402
from spacemission_training.rllib import LEARNER, RLlibConfig, SeatMapper, architecture, export_agent, make_env  # noqa: E402
from spacemission_training.rllib_module import BotModule, MaskedPPOModule  # noqa: E402
from tests.helpers.env_play import aec_decisions  # noqa: E402

pytestmark = pytest.mark.ray


def _observations(n: int, seed: int = 0) -> tuple[np.ndarray, np.ndarray]:
    """Observations and masks of the acting agent along a random 2-player game."""
    return aec_decisions(n, seed, num_players=2, observation_type="recall")


@pytest.fixture(scope="module")
def module():
    cfg = RLlibConfig(trunk="32", pi="16", vf="8")
    active, scale = feature_stats(2, "yucata", 100, "recall", games=16)
    space = make_aec(num_players=2, observation_type="recall").observation_space("player_0")
    torch.manual_seed(0)
    m = MaskedPPOModule(observation_space=space, action_space=spaces.Discrete(NUM_ACTIONS),
                        model_config=architecture(cfg, active, scale))
    return cfg, m


def test_masked_module_gives_illegal_actions_no_probability(module):
    _, m = module
    obs, masks = _observations(40)
    batch = {Columns.OBS: {"observation": torch.as_tensor(obs), "action_mask": torch.as_tensor(masks)}}
    logits = m.forward_exploration(batch)[Columns.ACTION_DIST_INPUTS]
    probs = torch.softmax(logits, dim=-1).detach().numpy()
    assert probs.shape == (40, NUM_ACTIONS)
    assert np.all(probs[masks == 0] == 0.0)
    assert np.allclose(probs.sum(axis=1), 1.0)
    values = m.compute_values(batch)
    assert values.shape == (40,)


def test_export_plays_like_the_module(module):
    cfg, m = module
    agent = export_agent(m, cfg)
    obs, masks = _observations(60, seed=3)
    batch = {Columns.OBS: {"observation": torch.as_tensor(obs), "action_mask": torch.as_tensor(masks)}}
    logits = m.forward_inference(batch)[Columns.ACTION_DIST_INPUTS].detach().numpy()
    legal = masks.astype(bool)
    np.testing.assert_allclose(agent.logits(obs)[legal], logits[legal], rtol=1e-4, atol=1e-4)
    assert np.array_equal(agent.act_batch(obs, masks), logits.argmax(axis=1))
    assert agent.metadata["observation_size"] == encoding.observation_size("recall")
    assert agent.metadata["architecture"]["trunk"] == [32] and agent.metadata["prior"] is None


def test_saved_export_loads_and_plays(module, tmp_path):
    cfg, m = module
    path = export_agent(m, cfg).save(tmp_path / "final.npz")
    agent = make_agent(f"ppo:{path}")
    obs, masks = _observations(5)
    assert np.array_equal(agent.act_batch(obs, masks), export_agent(m, cfg).act_batch(obs, masks))


def test_bot_module_returns_the_bots_actions():
    space = make_aec(num_players=2, observation_type="recall").observation_space("player_0")
    config = dict(spec="heuristic", seed=0, observation_type="recall", num_players=2, rules="yucata", max_rounds=100)
    bot = BotModule(observation_space=space, action_space=spaces.Discrete(NUM_ACTIONS), model_config=config)
    obs, masks = _observations(30, seed=1)
    out = bot.forward_exploration({Columns.OBS: {"observation": torch.as_tensor(obs),
                                                "action_mask": torch.as_tensor(masks)}})
    expected = make_agent("heuristic", seed=0).act_batch(obs, masks.astype(bool))
    assert np.array_equal(out[Columns.ACTIONS], expected)
    assert np.all(masks[np.arange(30), out[Columns.ACTIONS]] == 1)


def _random_bot_actions(torch_seed: int, runner_seeded: bool) -> np.ndarray:
    space = make_aec(num_players=2, observation_type="recall").observation_space("player_0")
    config = dict(spec="random", seed=7, runner_seeded=runner_seeded, observation_type="recall",
                  num_players=2, rules="yucata", max_rounds=100)
    with torch.random.fork_rng():
        torch.manual_seed(torch_seed)  # what RLlib does on env runner k: seed + k
        bot = BotModule(observation_space=space, action_space=spaces.Discrete(NUM_ACTIONS), model_config=config)
    obs, masks = _observations(40, seed=2)
    batch = {Columns.OBS: {"observation": torch.as_tensor(obs), "action_mask": torch.as_tensor(masks)}}
    return np.concatenate([bot.forward_exploration(batch)[Columns.ACTIONS] for _ in range(3)])


def test_runner_seeded_bots_draw_one_stream_per_runner():
    """Every env runner builds the bots from one model_config; RLlib seeds torch with
    seed + worker_index first. Runner-seeded bots draw their own stream on each runner,
    the same one again for the same runner."""
    first, again, other = (_random_bot_actions(s, True) for s in (100, 100, 101))
    assert np.array_equal(first, again)
    assert not np.array_equal(first, other)
    assert np.array_equal(_random_bot_actions(100, False), _random_bot_actions(101, False))


def test_bot_module_refuses_another_observation_type():
    space = make_aec(num_players=2, observation_type="info").observation_space("player_0")
    config = dict(spec="greedy", seed=0, observation_type="info", num_players=2, rules="yucata", max_rounds=100)
    with pytest.raises(ValueError, match="reads 'recall' observations"):
        BotModule(observation_space=space, action_space=spaces.Discrete(NUM_ACTIONS), model_config=config)


class _Episode:
    def __init__(self, id_):
        self.id_ = id_


def test_seat_mapper_one_learner_per_game_consistent_and_weighted():
    weights = {"heuristic": 0.5, "self": 0.5}
    mapper = SeatMapper(3, weights, {"heuristic": "bot_0"}, snapshots=2, seed=7)
    counts = {"bot_0": 0, "self_0": 0, "self_1": 0}
    learner_seats = np.zeros(3, dtype=int)
    for i in range(3000):
        ep = _Episode(f"ep{i}")
        backwards = {k: mapper(f"player_{k}", ep) for k in (2, 0, 1)}
        seats = [mapper(f"player_{k}", ep) for k in range(3)]
        assert seats == [backwards[k] for k in range(3)] == mapper.seats(f"ep{i}")  # in any order, any number of times
        assert seats.count(LEARNER) == 1
        learner_seats[seats.index(LEARNER)] += 1
        for s in seats:
            if s != LEARNER:
                counts[s] += 1
    total = sum(counts.values())
    assert total == 6000
    assert abs(counts["bot_0"] / total - 0.5) < 0.03
    assert abs(counts["self_0"] / total - 0.25) < 0.03 and abs(counts["self_1"] / total - 0.25) < 0.03
    assert np.all(np.abs(learner_seats / 3000 - 1 / 3) < 0.04)
    other = SeatMapper(3, weights, {"heuristic": "bot_0"}, 2, seed=8)
    assert [other.seats(f"ep{i}") for i in range(20)] != [mapper.seats(f"ep{i}") for i in range(20)]


def test_env_is_the_pettingzoo_env_unchanged():
    e = make_env(dict(num_players=3, observation_type="recall"))
    obs, _ = e.reset(seed=0)
    (agent, o), = obs.items()
    assert set(o) == {"observation", "action_mask"}
    assert o["observation"].dtype == np.int8 and o["observation"].shape == (encoding.observation_size("recall"),)
    assert agent in e.possible_agents
    assert sorted(e.possible_agents) == ["player_0", "player_1", "player_2"]


@pytest.mark.parametrize("bad, message", [
    (dict(players=6), "num_players must be an integer in 2..5"),
    (dict(minibatch=5000, train_batch=1000), r"minibatch must be in 1\.\.train_batch \(1000\), got 5000"),
    (dict(opponents="heuristic=-1"), "must be >= 0"),
    (dict(trunk="256,x"), "comma-separated layer sizes"),
    (dict(num_env_runners=-1), "num_env_runners must be >= 0, got -1"),
])
def test_config_rejects_bad_values(bad, message):
    with pytest.raises(ValueError, match=message):
        RLlibConfig(**bad)
