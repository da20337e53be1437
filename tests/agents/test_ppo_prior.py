"""The heuristic prior of PPO policies (agents/spacemission_agents/ppo_prior.py, training/spacemission_training/prior.py): the codes
follow the heuristic's plan values, the numpy agent's forward pass with a prior equals the
torch policy's, an untrained prior policy plays the heuristic's moves, the wrapper appends
the codes and survives pickling, and inconsistent model files are refused."""
import json
import pickle

import numpy as np
import pytest

from spacemission_agents.heuristic import HeuristicAgent
from spacemission_agents.ppo import PPOAgent
from spacemission_agents.ppo_prior import FLOOR_CODE, STEP_POINTS, HeuristicPrior
from spacemission_env.space_mission import engine

from tests.helpers.bots import sample_positions, torch_prior_logits


def test_codes_follow_the_heuristic_plan_values():
    obs, masks = sample_positions(n=96)
    prior = HeuristicPrior()
    codes = prior(obs, masks)
    assert codes.dtype == np.int8 and codes.shape == masks.shape
    assert (codes >= FLOOR_CODE).all() and (codes <= 0).all()
    assert (codes[~masks] == FLOOR_CODE).all()  # illegal actions sit at the floor
    bot = HeuristicAgent(seed=0)
    chosen = bot.act_batch(obs, masks)
    values = np.where(masks, bot.last_values, -np.inf)
    rows = np.arange(len(obs))
    assert (codes[rows, chosen] == 0).all()  # the heuristic's choice is its best plan: code 0
    for i in range(len(obs)):
        finite = np.isfinite(values[i])
        if not finite.any():  # a forced move: every legal action at 0
            assert (codes[i][masks[i]] == 0).all()
            continue
        expected = np.rint(np.clip(values[i][finite] - values[i][finite].max(), FLOOR_CODE * STEP_POINTS, 0)
                           / STEP_POINTS)
        assert np.array_equal(codes[i][finite], expected.astype(np.int8))
        assert (codes[i][masks[i] & ~finite] == FLOOR_CODE).all()  # legal, never evaluated
    assert (codes[masks] > FLOOR_CODE).sum() > len(obs)  # more than one considered action on average


def test_prior_description_round_trips_and_foreign_codings_are_refused():
    prior = HeuristicPrior({"end_bonus": 20.0})
    again = HeuristicPrior.from_description(json.loads(json.dumps(prior.describe())))
    assert again.params == prior.params and again.params["end_bonus"] == 20.0
    obs, masks = sample_positions(n=16)
    assert np.array_equal(again(obs, masks), prior(obs, masks))
    for bad, match in (({**prior.describe(), "kind": "oracle"}, "unknown policy prior"),
                       ({**prior.describe(), "step_points": 0.5}, "coded with step"),
                       ("heuristic", "unknown policy prior")):
        with pytest.raises(ValueError, match=match):
            HeuristicPrior.from_description(bad)


@pytest.fixture(scope="module")
def prior_policy_and_agent():
    torch = pytest.importorskip("torch")
    pytest.importorskip("sb3_contrib")
    from gymnasium import spaces

    from spacemission_env.env_common import observation_box
    from spacemission_training.policy import Architecture, feature_stats, policy_kwargs, to_agent
    from spacemission_training.prior import PriorMaskablePolicy, augmented_box

    torch.manual_seed(0)
    arch = Architecture(trunk=[48], pi=[32], vf=[8])
    active, scale = feature_stats(2, "yucata", 100, "recall", games=32)
    box = augmented_box(observation_box("recall", np.int8))
    policy = PriorMaskablePolicy(box, spaces.Discrete(100), lambda _: 1e-3,
                                 **policy_kwargs(arch, active, scale, prior_beta=2.5))
    with torch.no_grad():  # trained-size weights, so that the network's part of the logits matters
        for p in policy.parameters():
            p.copy_(torch.randn_like(p) * 0.3)
    prior = HeuristicPrior()
    agent = to_agent(policy, observation_type="recall", num_players=2, rules="yucata", max_rounds=100, arch=arch,
                     training={"command": "test"}, prior=prior)
    return policy, agent, prior


def test_numpy_forward_with_prior_equals_torch(prior_policy_and_agent, tmp_path):
    policy, agent, prior = prior_policy_and_agent
    obs, masks = sample_positions(n=64)
    codes = prior(obs, masks)
    expected = torch_prior_logits(policy, obs, codes)
    got = agent.logits(obs, masks)
    assert np.abs(expected).max() > 1.0
    np.testing.assert_allclose(got, expected, rtol=1e-4, atol=1e-4)
    assert float(agent.params["prior_beta"][0]) == pytest.approx(float(policy.action_net.beta.detach()))
    with pytest.raises(ValueError, match="needs the masks"):
        agent.logits(obs)
    # the file and a pickle (snapshots in checkpoints) keep the prior
    again = PPOAgent.load(agent.save(tmp_path / "p.npz"))
    assert again.prior is not None and again.metadata["prior"] == prior.describe()
    assert np.array_equal(again.logits(obs, masks), got)
    assert np.array_equal(pickle.loads(pickle.dumps(agent)).logits(obs, masks), got)


def test_an_untrained_prior_policy_plays_the_heuristic_moves():
    """Before training the network's logits are near 0 (SB3's small init of the action
    layer): with a large beta the policy is the heuristic's argmax."""
    pytest.importorskip("sb3_contrib")
    from gymnasium import spaces

    from spacemission_env.env_common import observation_box
    from spacemission_training.policy import Architecture, feature_stats, policy_kwargs, to_agent
    from spacemission_training.prior import PriorMaskablePolicy, augmented_box

    arch = Architecture(trunk=[32], pi=[16], vf=[8])
    active, scale = feature_stats(2, "yucata", 100, "recall", games=16)
    policy = PriorMaskablePolicy(augmented_box(observation_box("recall", np.int8)), spaces.Discrete(100),
                                 lambda _: 1e-3, **policy_kwargs(arch, active, scale, prior_beta=200.0))
    agent = to_agent(policy, observation_type="recall", num_players=2, rules="yucata", max_rounds=100, arch=arch,
                     prior=HeuristicPrior())
    obs, masks = sample_positions(n=64, seed=5)
    bot = HeuristicAgent(seed=0)
    chosen = bot.act_batch(obs, masks)
    values = np.where(masks, bot.last_values, -np.inf)
    got = agent.act_batch(obs, masks)
    # rows whose best two plans are >= 0.1 point apart have one best code: the same move
    top2 = -np.sort(-values, axis=1)[:, :2]
    clear = np.isfinite(top2).all(axis=1) & (top2[:, 0] - top2[:, 1] >= 0.15)
    assert clear.sum() > 20
    assert np.array_equal(got[clear], chosen[clear])


def test_inconsistent_prior_models_are_refused(prior_policy_and_agent):
    _, agent, _ = prior_policy_and_agent
    no_beta = {k: v for k, v in agent.params.items() if k != "prior_beta"}
    with pytest.raises(ValueError, match="prior_beta"):
        PPOAgent(no_beta, agent.metadata)
    with pytest.raises(ValueError, match="names no prior"):
        PPOAgent(agent.params, {**agent.metadata, "prior": None})
    with pytest.raises(ValueError, match="unknown policy prior"):
        PPOAgent(agent.params, {**agent.metadata, "prior": {"kind": "oracle"}})
    with pytest.raises(ValueError, match="layer 0"):  # a prior model's first layer reads 100 more inputs
        PPOAgent(no_beta, {**agent.metadata, "prior": None})


def test_prior_vec_env_appends_the_codes_and_pickles():
    pytest.importorskip("stable_baselines3")
    from spacemission_env.sb3 import SpaceMissionVecEnv
    from spacemission_training.prior import PriorVecEnv

    prior = HeuristicPrior()
    base = SpaceMissionVecEnv(8, observation_type="recall", seed=3, max_rounds=3)  # games end within the steps
    venv = PriorVecEnv(base, prior)
    obs = venv.reset()
    d = base.observation_space.shape[0]
    assert obs.shape == (8, d + 100) and obs.dtype == np.int8 and venv.observation_space.contains(obs[0])
    assert np.array_equal(obs[:, :d], engine.observe(base.batch_state, observation_type="recall"))
    assert np.array_equal(obs[:, d:], prior(obs[:, :d], venv.action_masks()))
    rng = np.random.default_rng(0)
    finished = 0
    for _ in range(60):
        masks = venv.action_masks()
        obs, _, dones, infos = venv.step(np.array([rng.choice(np.flatnonzero(m)) for m in masks]))
        assert np.array_equal(obs[:, d:], prior(obs[:, :d], venv.action_masks()))
        for i in np.flatnonzero(dones):  # the final position: its observation, and floor codes (no decision)
            last = infos[i]["terminal_observation"]
            assert last.shape == (d + 100,) and last.dtype == np.int8 and (last[d:] == FLOOR_CODE).all()
            assert not np.array_equal(last[:d], obs[i, :d])  # not the next game's first observation
            finished += 1
    assert finished >= 8  # the terminal observations above were checked
    copy = pickle.loads(pickle.dumps(venv))
    a = np.array([np.flatnonzero(m)[0] for m in venv.action_masks()])
    o1, o2 = venv.step(a)[0], copy.step(a)[0]
    assert np.array_equal(o1, o2)
    with pytest.raises(ValueError, match="reads 'recall'"):
        PriorVecEnv(SpaceMissionVecEnv(2, observation_type="info"), prior)
