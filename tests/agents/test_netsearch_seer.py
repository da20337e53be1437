"""NetSearchAgent's ``seer_value`` option (agents/spacemission_agents/netsearch.py): an
unfinished leaf is valued by a perfect-information value net on the leaf world's "seer"
observation from the bot's seat; foreign nets are refused."""
import numpy as np
import pytest

from spacemission_agents.netsearch import NetSearchAgent
from spacemission_agents.ppo import PPOAgent
from spacemission_agents.value import ValueNet, file_sha256, make_value_metadata
from spacemission_env import decode
from spacemission_env.games import GameConfig
from spacemission_env.space_mission import engine
from spacemission_env.space_mission.determinize import sample_worlds_from_observation

RECALL = engine.observation_size("recall")  # the seer observation opens with the recall blocks


def _seer_net(tmp_path, policy_path=None, otype="seer", name="seer.npz", players=2, sha_of=None):
    """A small random value net reading seer (or recall) features, saved under tmp_path
    (fitted for the policy at ``sha_of``, default ``policy_path``)."""
    policy_path = policy_path or PPOAgent.shipped_path(players)
    policy = PPOAgent.load(policy_path)
    rng = np.random.default_rng(0)
    size = engine.observation_size(otype)
    active = np.arange(0, size, 3, dtype=np.int64)
    params = {"active": active, "scale": np.full(active.size, 0.2, np.float32),
              "w0": rng.normal(0, 0.3, (8, active.size)).astype(np.float32), "b0": np.zeros(8, np.float32),
              "w1": rng.normal(0, 0.5, (1, 8)).astype(np.float32), "b1": np.zeros(1, np.float32)}
    meta = make_value_metadata(policy_metadata={**policy.metadata, "observation_type": otype},
                               policy_sha256=file_sha256(sha_of or policy_path), architecture={"hidden": [8]},
                               fitting={"command": "test"})
    return str(ValueNet(params, meta).save(tmp_path / name))


def _position(seed=2, steps=30):
    st = engine.init(1, 2, seeds=seed)
    rng = np.random.default_rng(seed)
    for _ in range(steps):
        engine.step(st, engine.sample_actions(engine.legal_action_mask(st), rng, by_kind=True))
    return engine.observe(st, observation_type="recall")[0], engine.legal_action_mask(st)[0]


def _recording(net, seen, monkeypatch):
    values = net.values

    def record(obs):
        out = values(obs)
        seen.append((np.array(obs), out))
        return out
    monkeypatch.setattr(net, "values", record)


def test_seer_leaves_are_the_worlds_full_state_from_the_bots_seat(tmp_path, monkeypatch):
    """The same leaves (bot to start its next turn) as the default's recall value net reads,
    seen whole: the seer observation's recall blocks are the default's observation, the
    rival's hand is in it, and the leaf values are the seer net's."""
    obs, mask = _position()
    seer_bot = NetSearchAgent(iterations=8, until="turn", mix=0.0, seer_value=_seer_net(tmp_path))
    plain = NetSearchAgent(iterations=8, until="turn", mix=0.0)
    for b in (seer_bot, plain):
        b.bind(GameConfig(2))
    policy, value = seer_bot._networks(seer_bot.config)
    cands = seer_bot._candidates(obs, mask, policy)[0]
    worlds = sample_worlds_from_observation(obs, 2, "yucata", 100, 4, np.random.default_rng(3), player=0)
    idx, acts = np.array([0, 1, 2, 3, 0, 1]), np.resize(cands[:2], 6)
    seer_seen, unused, recall_seen = [], [], []
    _recording(seer_bot._seer, seer_seen, monkeypatch)
    _recording(value, unused, monkeypatch)  # the recall net: unused by the seer bot
    plain_policy, plain_value = plain._networks(plain.config)
    _recording(plain_value, recall_seen, monkeypatch)
    v = seer_bot._simulate(worlds, idx, acts, policy, value)
    assert len(seer_seen) == 1 and not unused
    leaves, out = seer_seen[0]
    assert leaves.shape == (6, 2904) and len(out) == 6  # no game ends within a turn here
    np.testing.assert_allclose(v, out)
    d = decode(leaves, "seer")
    assert (d["acting_seat"][:, 0] == 1).all() and (d["actions_left"][:, 0] == 2).all()  # the bot's turn starts
    assert (d["seer_hands"][:, 1].sum(axis=(1, 2)) > 0).all()  # the rival's hand: the sampled world's
    plain._simulate(worlds, idx, acts, plain_policy, plain_value)
    assert len(recall_seen) == 1
    np.testing.assert_array_equal(leaves[:, :RECALL], recall_seen[0][0])  # the same leaves, seat 0


def test_seer_bot_plays_legal_deterministic_moves(tmp_path):
    obs, mask = _position(seed=4)
    path = _seer_net(tmp_path)
    a, b = (NetSearchAgent(iterations=24, worlds=8, until="turn", seed=1, seer_value=path) for _ in range(2))
    for bot in (a, b):
        bot.bind(GameConfig(2))
    x = a.act_batch(obs[None], mask[None])
    assert mask[x[0]] and a.last_search is not None and a.last_search["simulations"] == 24
    np.testing.assert_array_equal(b.act_batch(obs[None], mask[None]), x)


def test_foreign_seer_nets_refused(tmp_path):
    with pytest.raises(ValueError, match="seer_value"):
        NetSearchAgent(seer_value=str(tmp_path / "none.npz"))
    with pytest.raises(ValueError, match="not 'seer' ones"):  # a recall value net
        NetSearchAgent(seer_value=str(ValueNet.shipped_path(2))).bind(GameConfig(2))
    other = _seer_net(tmp_path, policy_path=PPOAgent.shipped_path(3), name="seer3.npz", players=3)
    with pytest.raises(ValueError, match="fitted for 3 players"):
        NetSearchAgent(seer_value=other).bind(GameConfig(2))
    foreign = _seer_net(tmp_path, name="foreign.npz", sha_of=PPOAgent.shipped_path(3))  # another policy's
    with pytest.raises(ValueError, match="sha256"):
        NetSearchAgent(seer_value=foreign).bind(GameConfig(2))
    assert NetSearchAgent().seer_value is None
