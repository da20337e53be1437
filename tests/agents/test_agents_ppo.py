"""PPOAgent: the numpy forward pass equals the torch network it came from, the model
file round-trips, the agent plays legal moves (greedy and sampled), refuses games and
files it does not fit, runs where torch cannot be imported, and the shipped models load
and beat random."""
import json
import pickle
import subprocess
import sys
import textwrap

import numpy as np
import pytest

from spacemission_agents.ppo import SHIPPED, PPOAgent, layout_hash
from spacemission_agents.registry import make_agent
from spacemission_env.games import GameConfig, get_game
from tests.helpers.bots import sample_positions
from tests.helpers.paths import ROOT

DATA = ROOT / "agents" / "spacemission_agents" / "data"


@pytest.fixture(scope="module")
def torch_policy_and_agent():
    torch = pytest.importorskip("torch")
    pytest.importorskip("sb3_contrib")
    from gymnasium import spaces
    from sb3_contrib.common.maskable.policies import MaskableActorCriticPolicy

    from spacemission_env.env_common import observation_box
    from spacemission_training.policy import Architecture, feature_stats, policy_kwargs, to_agent

    torch.manual_seed(0)
    arch = Architecture(trunk=[48], pi=[32, 16], vf=[8])
    active, scale = feature_stats(2, "yucata", 100, "recall", games=32)
    policy = MaskableActorCriticPolicy(observation_box("recall", np.int8), spaces.Discrete(100), lambda _: 1e-3,
                                       **policy_kwargs(arch, active, scale))
    with torch.no_grad():  # weights of a trained size, so that logits differ by whole units
        for p in policy.parameters():
            p.copy_(torch.randn_like(p) * 0.3)
    agent = to_agent(policy, observation_type="recall", num_players=2, rules="yucata", max_rounds=100, arch=arch,
                     training={"command": "test"})
    return policy, agent


def test_numpy_forward_equals_torch(torch_policy_and_agent):
    import torch

    policy, agent = torch_policy_and_agent
    obs, masks = sample_positions()
    with torch.no_grad():
        t_obs = torch.as_tensor(obs)
        latent = policy.mlp_extractor.forward_actor(policy.extract_features(t_obs))
        expected = policy.action_net(latent).numpy()
        dist = policy.get_distribution(t_obs, action_masks=masks)
    got = agent.logits(obs)
    assert np.abs(expected).max() > 1.0  # a meaningful comparison
    np.testing.assert_allclose(got, expected, rtol=1e-5, atol=1e-5)
    greedy = agent.act_batch(obs, masks)
    assert (greedy == dist.distribution.logits.argmax(dim=1).numpy()).all()
    assert masks[np.arange(len(masks)), greedy].all()
    assert agent.act(obs[3], masks[3]) == greedy[3]


def test_save_load_pickle_round_trip(torch_policy_and_agent, tmp_path):
    _, agent = torch_policy_and_agent
    path = agent.save(tmp_path / "m.npz")
    again = PPOAgent.load(path)
    obs, _ = sample_positions(n=8)
    assert np.array_equal(again.logits(obs), agent.logits(obs))
    assert again.metadata == agent.metadata and again.observation_type == "recall"
    assert again.metadata["observation_layout_hash"] == layout_hash("recall")
    # the environment version it was made on (before: not recorded), the game description's id
    assert again.metadata["env_id"] == get_game("spacemission").description.env_id == "SpaceMission-v3"
    assert np.array_equal(pickle.loads(pickle.dumps(agent)).logits(obs), agent.logits(obs))
    by_spec = make_agent(f"ppo:{path}:temperature=0.5", seed=3)
    assert isinstance(by_spec, PPOAgent) and by_spec.temperature == 0.5


def test_sampling_is_legal_seeded_and_follows_the_softmax(torch_policy_and_agent):
    _, agent = torch_policy_and_agent
    obs, masks = sample_positions(n=8)
    row = int(np.argmax(masks.sum(axis=1)))
    sampler = PPOAgent(agent.params, agent.metadata, temperature=2.0, seed=1)
    o, m = np.repeat(obs[row:row + 1], 20000, axis=0), np.repeat(masks[row:row + 1], 20000, axis=0)
    a = sampler.act_batch(o, m)
    assert m[0, a].all()
    z = np.where(masks[row], agent.logits(obs[row:row + 1])[0] / 2.0, -np.inf)
    p = np.exp(z - z.max())
    p /= p.sum()
    freq = np.bincount(a, minlength=100) / len(a)
    assert np.abs(freq - p).max() < 0.02
    sampler.seed(7)
    first = sampler.act_batch(o[:50], m[:50])
    sampler.seed(7)
    assert np.array_equal(first, sampler.act_batch(o[:50], m[:50]))
    with pytest.raises(ValueError, match="temperature"):
        PPOAgent(agent.params, agent.metadata, temperature=-1)


def test_mismatching_games_and_files_are_refused(torch_policy_and_agent, tmp_path):
    from spacemission_agents.arena import ArenaArgumentError, run_arena
    from spacemission_env.gym_env import SpaceMissionEnv
    from spacemission_env.sb3 import SpaceMissionVecEnv

    _, agent = torch_policy_and_agent
    agent.bind(GameConfig(2, "yucata", 100))
    for config, word in ((GameConfig(3, "yucata", 100), "3 players"), (GameConfig(2, "schmidt", 100), "schmidt"),
                         (GameConfig(2, "yucata", 50), "max_rounds 50")):
        with pytest.raises(ValueError, match=word):
            agent.bind(config)
    with pytest.raises(ValueError, match="trained for 2 players"):
        SpaceMissionVecEnv(2, num_players=3, opponents=agent)
    with pytest.raises(ValueError, match="trained for 2 players"):
        SpaceMissionEnv(num_players=4, opponents=agent)
    with pytest.raises(ArenaArgumentError, match="trained for 2 players"):
        run_arena([agent, "random"], num_players=3, games=3, progress=False)
    # files: another observation layout, another action space, not a model at all
    path = agent.save(tmp_path / "m.npz")
    with np.load(path) as z:
        arrays = {k: z[k] for k in z.files}
    for key, value, match in (("observation_layout_hash", "0" * 16, "different 'recall' observation layout"),
                              ("observation_size", 1000, "different"), ("num_actions", 99, "99 actions"),
                              ("format", "other", "not a Space Mission PPO policy")):
        meta = json.loads(str(arrays["metadata"]))
        meta[key] = value
        bad = tmp_path / f"bad_{key}.npz"
        np.savez(bad, **{**arrays, "metadata": np.array(json.dumps(meta))})
        with pytest.raises(ValueError, match=match):
            PPOAgent.load(bad)
    (tmp_path / "junk.npz").write_bytes(b"not a zip file")
    for p, match in ((tmp_path / "junk.npz", "not a readable"), (tmp_path / "missing.npz", "no PPO model file")):
        with pytest.raises(ValueError, match=match):
            PPOAgent.load(p)
    with pytest.raises(ValueError, match="is not available|no PPO model"):
        make_agent(f"ppo:{tmp_path / 'missing.npz'}")
    wrong = dict(agent.params)
    wrong["w0"] = wrong["w0"][:, :-1]
    with pytest.raises(ValueError, match="layer 0"):
        PPOAgent(wrong, agent.metadata)


def test_the_agent_plays_without_torch(torch_policy_and_agent, tmp_path):
    """A subprocess in which importing torch fails plays arena games with the saved model
    and with the shipped one (which has the heuristic prior)."""
    _, agent = torch_policy_and_agent
    path = agent.save(tmp_path / "m.npz")
    code = textwrap.dedent(f"""
        import sys
        sys.modules["torch"] = None  # any "import torch" now raises ImportError
        from spacemission_agents.arena import run_arena
        from spacemission_agents.ppo import PPOAgent
        agent = PPOAgent.load({str(path)!r})
        result = run_arena([agent, "random"], games=6, progress=False, record=False)
        assert result.num_games == 6, result.num_games
        shipped = PPOAgent.load_shipped()  # with the heuristic prior: numba, no torch
        assert shipped.prior is not None
        assert run_arena([shipped, "random"], games=4, progress=False, record=False).num_games == 4
        assert not any(m.startswith(("torch", "stable_baselines3", "sb3_contrib")) for m in sys.modules
                       if sys.modules[m] is not None)
        print("ok", result.num_games)
    """)
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=600)
    assert out.returncode == 0, out.stderr[-2000:]
    assert "ok 6" in out.stdout


def test_the_shipped_models_load_and_beat_random():
    from spacemission_agents.arena import run_arena

    for players, name in SHIPPED.items():
        path = DATA / name
        assert path.is_file() and path.stat().st_size <= 5 * 1024 * 1024, path
        card = json.loads(path.with_suffix(".json").read_text())
        agent = PPOAgent.load_shipped(players)
        assert agent.metadata["num_players"] == players == card["metadata"]["num_players"]
        assert card["metadata"]["training"]["command"].startswith("spacemission train")
        # made before models recorded their env_id: the optional key is absent, and they load as they did
        assert "env_id" not in card["metadata"] and "env_id" not in agent.metadata
    agent = make_agent("ppo")
    assert agent.metadata["num_players"] == 2
    result = run_arena([agent, "random"], games=40, progress=False, record=False)
    assert result.pair("ppo", "random").win_rate >= 0.9
    agent.bind(GameConfig(3, "yucata", 100))  # the shipped agent follows the game's player count
    assert agent.metadata["num_players"] == 3
    for players in (4, 5):  # every Space Mission player count has one
        agent = make_agent("ppo")
        agent.bind(GameConfig(players, "yucata", 100))
        assert agent.metadata["num_players"] == players
    with pytest.raises(ValueError, match=r"no shipped PPO model for 6-player Space Mission.*shipped: \[2, 3, 4, 5\]"):
        PPOAgent.shipped_path(6)
    with pytest.raises(ValueError, match=r"no shipped PPO model fits this game \(4 players, rules 'schmidt'.*"
                                         r"rules 'yucata' with max_rounds 100"):
        make_agent("ppo").bind(GameConfig(4, "schmidt", 100))
    with pytest.raises(ValueError, match=r"no shipped PPO model fits this game \(2 players, rules 'yucata', "
                                         r"max_rounds 30\)"):
        make_agent("ppo").bind(GameConfig(2, "yucata", 30))


def test_one_blas_thread_limits_once_when_nested(monkeypatch):
    """BLAS runs on one thread inside the context and as before outside it; a nested use
    (a search's forward passes inside its decision) sets no second limit."""
    threadpoolctl = pytest.importorskip("threadpoolctl")
    from spacemission_agents import model_files

    def blas_threads():
        return [m["num_threads"] for m in threadpoolctl.threadpool_info() if m["user_api"] == "blas"]

    before = blas_threads()
    with model_files.one_blas_thread():
        pass  # makes the controller
    calls = []
    real = model_files._BLAS[0].limit
    monkeypatch.setattr(model_files._BLAS[0], "limit", lambda **kw: calls.append(kw) or real(**kw))
    with model_files.one_blas_thread():
        assert all(n == 1 for n in blas_threads())
        with model_files.one_blas_thread():
            assert all(n == 1 for n in blas_threads())
        assert all(n == 1 for n in blas_threads())
    assert len(calls) == 1 and blas_threads() == before
    with model_files.one_blas_thread():
        pass
    assert len(calls) == 2


@pytest.mark.parametrize("game, players, bound, other", [
    ("spacemission", 2, None, 3),   # unbound: the 2-player model, a 3-player game's observation
    ("spacemission", 3, 3, 5),      # bound to 3 players, a 5-player observation
    ("red_planet", 3, None, 4),   # unbound: the 3-player model (the fewest players)
    ("red_planet", 4, 4, 5)])
def test_a_model_refuses_observations_of_another_player_count(game, players, bound, other):
    """Observations have one size for every player count, so a model given another count's
    observations used to play on, reading them as its own count's."""
    from spacemission_env.games import get_game

    agent = make_agent("ppo", game=game)
    if bound is not None:
        agent.bind(GameConfig(bound, game=game))
    assert agent.metadata["num_players"] == players
    g = get_game(game)

    def position(n):
        cfg = GameConfig(n, game=game)
        st = g.new_batch(2, cfg, seeds=3)
        return g.engine.observe(st, observation_type=agent.observation_type), g.engine.legal_action_mask(st)

    obs, mask = position(players)
    assert agent.act_batch(obs, mask).shape == (2,)  # its own count plays
    obs, mask = position(other)
    with pytest.raises(ValueError, match=rf"plays {players}-player games, but observation row 0 is of a "
                                         rf"{other}-player game"):
        agent.act_batch(obs, mask)


def test_agents_loaded_from_one_file_share_its_weights(tmp_path):
    """A server with a ``ppo`` seat builds an agent per live game: loading the same file
    again shares its arrays (read-only) instead of holding 3.6 MB more per seat, while
    each agent keeps its own generator, temperature, name and heuristic prior."""
    import tracemalloc

    first = make_agent("ppo", seed=0)
    first.bind(GameConfig(5))
    tracemalloc.start()
    try:
        agents = []
        for k in range(12):
            a = make_agent("ppo", seed=k)
            a.bind(GameConfig(5))
            agents.append(a)
        grown = tracemalloc.get_traced_memory()[0]
    finally:
        tracemalloc.stop()
    assert grown < 6_000_000, f"12 more 5-player ppo agents took {grown:,} bytes (each its own copy of the weights?)"
    a, b = agents[0], agents[1]
    assert all(np.shares_memory(x, y) for x, y in zip(a._w_t, b._w_t)) and a.params["w0"] is b.params["w0"]
    assert not a._w_t[0].flags.writeable and not a.params["w0"].flags.writeable
    assert a._prior is not b._prior and a._rng is not b._rng and a.params is not b.params
    hot = PPOAgent.load(PPOAgent.shipped_path(2), temperature=1.0, name="hot")
    assert (hot.temperature, hot.name, a.temperature, a.name) == (1.0, "hot", 0.0, "ppo")
    # a file written again is read again (its contents, not its name, find the shared arrays)
    path = tmp_path / "m.npz"
    PPOAgent.load_shipped(2).save(path)
    old = PPOAgent.load(path)
    PPOAgent.load_shipped(3).save(path)
    assert PPOAgent.load(path).metadata["num_players"] == 3 and old.metadata["num_players"] == 2
