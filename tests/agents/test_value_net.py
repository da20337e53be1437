"""ValueNet (agents/spacemission_agents/value.py): the numpy forward pass equals the torch
network it is exported from, files round-trip, the shipped file loads and names the
shipped policy it was fitted for, foreign files are refused."""
import json

import numpy as np
import pytest

from spacemission_agents.ppo import PPOAgent
from spacemission_agents.value import FORMAT, ValueNet, file_sha256
from spacemission_env.space_mission import engine


def _obs(n=32, seed=0):
    st = engine.init(n, 2, seeds=seed)
    rng = np.random.default_rng(seed)
    for _ in range(30):
        engine.step(st, engine.sample_actions(engine.legal_action_mask(st), rng, by_kind=True))
    return np.concatenate([engine.observe(st, player=p, observation_type="recall") for p in (0, 1)])


def _torch_net_and_value(tmp_path):
    torch = pytest.importorskip("torch")
    from spacemission_training.value_fit import to_value_net
    from spacemission_agents.value import make_value_metadata

    policy = PPOAgent.load_shipped(2)
    active, scale = policy.params["active"], policy.params["scale"].astype(np.float32)
    torch.manual_seed(0)
    model = torch.nn.Sequential(torch.nn.Linear(active.size, 16), torch.nn.ReLU(), torch.nn.Linear(16, 8),
                                torch.nn.ReLU(), torch.nn.Linear(8, 1))
    meta = make_value_metadata(policy_metadata=policy.metadata, policy_sha256=file_sha256(PPOAgent.shipped_path(2)),
                               architecture={"hidden": [16, 8]}, fitting={"command": "test"})
    return torch, model, to_value_net(model, active, scale, meta), active, scale


def test_numpy_forward_equals_torch_and_round_trip(tmp_path):
    torch, model, net, active, scale = _torch_net_and_value(tmp_path)
    obs = _obs()
    with torch.no_grad():
        want = torch.tanh(model(torch.as_tensor(obs[:, active].astype(np.float32) * scale)))[:, 0].numpy()
    got = net.values(obs)
    assert got.dtype == np.float32 and got.shape == (len(obs),)
    np.testing.assert_allclose(got, want, rtol=1e-5, atol=1e-5)
    path = net.save(tmp_path / "v.npz")
    again = ValueNet.load(path)
    np.testing.assert_array_equal(again.values(obs), got)
    assert again.metadata == net.metadata
    assert again.metadata["env_id"] == "SpaceMission-v3"  # the version its games were played on (before: none)


def test_shipped_value_net():
    net = ValueNet.load_shipped(2)
    m = net.metadata
    assert m["format"] == FORMAT and m["num_players"] == 2 and m["rules"] == "yucata" and m["max_rounds"] == 100
    net.check_policy(PPOAgent.shipped_path(2))  # fitted for the shipped policy
    with pytest.raises(ValueError, match="sha256"):
        net.check_policy(PPOAgent.shipped_path(3))
    v = net.values(_obs(8))
    assert np.all(np.abs(v) <= 1.0)
    card = json.loads(ValueNet.shipped_path(2).with_suffix(".json").read_text())
    assert card["sha256"] == file_sha256(ValueNet.shipped_path(2)) and card["file"] == "value_2p.npz"
    assert "env_id" not in m and "env_id" not in card["metadata"]  # made before the optional key: loads as it did
    with pytest.raises(ValueError, match="no shipped value net for 5-player"):
        ValueNet.load_shipped(5)


def test_foreign_files_refused(tmp_path):
    with pytest.raises(ValueError, match="no value net file"):
        ValueNet.load(tmp_path / "missing.npz")
    with pytest.raises(ValueError, match="not a value net"):
        ValueNet.load(PPOAgent.shipped_path(2))  # a policy file
    net = ValueNet.load_shipped(2)
    meta = {**net.metadata, "observation_layout_hash": "0" * 16}
    with pytest.raises(ValueError, match="different 'recall' observation layout"):
        ValueNet(net.params, meta)
    with pytest.raises(ValueError, match="observations must have shape"):
        net.values(np.zeros((2, 10), np.int8))
