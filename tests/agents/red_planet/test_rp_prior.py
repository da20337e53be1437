"""Red Planet's heuristic prior (agents/spacemission_agents/ppo_prior.py with ``game="red_planet"``):
the codes follow HeuristicBot's action values, the description names the game (an old one
without it is Space Mission's), an untrained prior policy plays the heuristic's moves, the
numpy agent equals the torch policy, and a prior of the wrong game is refused."""
import json

import numpy as np
import pytest

from spacemission_agents.ppo import PPOAgent
from spacemission_agents.ppo_prior import FLOOR_CODE, STEP_POINTS, HeuristicPrior, prior_observation_type
from spacemission_agents.red_planet.heuristic import HeuristicBot
from spacemission_env.red_planet.actions import NUM_ACTIONS

from tests.agents.red_planet.test_bots import random_positions
from tests.helpers.bots import torch_prior_logits


@pytest.fixture(scope="module")
def positions():
    obs, masks, _ = random_positions(4, games=2, seed=41)
    return obs, masks


def test_codes_follow_the_heuristic_action_values(positions):
    obs, masks = positions
    prior = HeuristicPrior(game="red_planet")
    codes = prior(obs, masks)
    assert codes.dtype == np.int8 and codes.shape == (len(obs), NUM_ACTIONS) == masks.shape
    assert (codes[~masks] == FLOOR_CODE).all() and (codes <= 0).all()
    bot = HeuristicBot(seed=0)
    chosen = bot.act_batch(obs, masks)
    rows = np.arange(len(obs))
    assert (codes[rows, chosen] == 0).all()  # the bot's choice is its best value: code 0
    values = bot.last_values
    assert np.isneginf(values[~masks]).all() and np.isfinite(values[masks]).all()
    best = values.max(axis=1, keepdims=True)
    expected = np.rint(np.clip(values - best, FLOOR_CODE * STEP_POINTS, 0) / STEP_POINTS)
    assert np.array_equal(codes[masks], expected[masks].astype(np.int8))
    several = masks.sum(axis=1) > 1
    assert ((codes > FLOOR_CODE).sum(axis=1)[several] > 1).mean() > 0.5  # alternatives are graded, not floored


def test_description_names_the_game_and_old_descriptions_are_space_missions(positions):
    obs, masks = positions
    prior = HeuristicPrior({"rival_weight": 0.5}, game="red_planet")
    desc = json.loads(json.dumps(prior.describe()))
    assert desc["game"] == "red_planet"
    again = HeuristicPrior.from_description(desc)
    assert again.game == "red_planet" and again.params["rival_weight"] == 0.5
    assert np.array_equal(again(obs, masks), prior(obs, masks))
    old = {k: v for k, v in HeuristicPrior().describe().items() if k != "game"}
    assert HeuristicPrior.from_description(old).game == "spacemission"
    with pytest.raises(ValueError, match="no heuristic prior for game 'tom_tube'"):
        HeuristicPrior(game="tom_tube")
    with pytest.raises(TypeError, match="unknown parameters"):
        HeuristicPrior({"end_bonus": 1.0}, game="red_planet")  # a Space Mission parameter
    assert prior_observation_type("red_planet") == "info" and prior_observation_type("spacemission") == "recall"


def _prior_policy(beta: float, perturb: bool):
    """An untrained (or randomly perturbed) Red Planet prior policy and its numpy export."""
    torch = pytest.importorskip("torch")
    pytest.importorskip("sb3_contrib")
    from gymnasium import spaces

    from spacemission_env.env_common import observation_box
    from spacemission_env.games import get_game
    from spacemission_training.policy import Architecture, feature_stats, policy_kwargs, to_agent
    from spacemission_training.prior import PriorMaskablePolicy, augmented_box

    torch.manual_seed(0)
    arch = Architecture(trunk=[32], pi=[16], vf=[8])
    active, scale = feature_stats(4, "first_edition", 10, "info", games=8, game="red_planet")
    box = augmented_box(observation_box("info", np.int8, get_game("red_planet").description), NUM_ACTIONS)
    policy = PriorMaskablePolicy(box, spaces.Discrete(NUM_ACTIONS), lambda _: 1e-3,
                                 **policy_kwargs(arch, active, scale, prior_beta=beta, num_actions=NUM_ACTIONS))
    if perturb:  # trained-size weights, so that the network's part of the logits matters
        with torch.no_grad():
            for p in policy.parameters():
                p.copy_(torch.randn_like(p) * 0.3)
    prior = HeuristicPrior(game="red_planet")
    agent = to_agent(policy, game="red_planet", observation_type="info", num_players=4, rules="first_edition",
                     max_rounds=10, arch=arch, training={"command": "test"}, prior=prior)
    return policy, agent, prior


def test_an_untrained_prior_policy_plays_the_heuristic_moves(positions):
    _, agent, _ = _prior_policy(beta=200.0, perturb=False)
    obs, masks = positions
    bot = HeuristicBot(seed=0)
    chosen = bot.act_batch(obs, masks)
    top2 = -np.sort(-bot.last_values, axis=1)[:, :2]
    clear = np.isfinite(top2).all(axis=1) & (top2[:, 0] - top2[:, 1] >= 0.15)  # one action at code 0
    assert clear.sum() > 20
    assert np.array_equal(agent.act_batch(obs, masks)[clear], chosen[clear])


def test_numpy_forward_equals_torch_and_survives_saving(positions, tmp_path):
    policy, agent, prior = _prior_policy(beta=2.5, perturb=True)
    obs, masks = positions
    codes = prior(obs, masks)
    expected = torch_prior_logits(policy, obs, codes)
    got = agent.logits(obs, masks)
    assert np.abs(expected).max() > 1.0
    np.testing.assert_allclose(got, expected, rtol=1e-4, atol=1e-4)
    again = PPOAgent.load(agent.save(tmp_path / "rp.npz"))
    assert again.prior is not None and again.prior.game == "red_planet"
    assert np.array_equal(again.logits(obs, masks), got)
    with pytest.raises(ValueError, match="names the heuristic prior of 'spacemission'"):
        PPOAgent(agent.params, {**agent.metadata, "prior": HeuristicPrior().describe()})


def test_prior_vec_env_refuses_a_prior_of_another_game():
    pytest.importorskip("stable_baselines3")
    from spacemission_env.sb3 import GameVecEnv
    from spacemission_training.prior import PriorVecEnv

    venv = PriorVecEnv(GameVecEnv(4, game="red_planet", num_players=3, observation_type="info", seed=1),
                       HeuristicPrior(game="red_planet"))
    obs = venv.reset()
    d = obs.shape[1] - NUM_ACTIONS
    assert np.array_equal(obs[:, d:], venv.prior(obs[:, :d], venv.action_masks()))
    with pytest.raises(ValueError, match="codes 100 actions; the env has 243"):
        PriorVecEnv(GameVecEnv(2, game="red_planet", num_players=3, observation_type="recall", seed=1),
                    HeuristicPrior())
