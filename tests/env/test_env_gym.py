"""Gymnasium single-agent env SpaceMission-v3: checkers, learner rewards (also when an
opponent's move ends the game), opponents per seat, illegal actions, seeding, the round
limit as a termination, masks through make_vec, float32 observations.
Bad-input cases: tests/env/test_bad_input.py; opponent hooks: tests/env/test_env_opponents.py."""
import warnings

import gymnasium
import numpy as np
import pytest
from tests.helpers.env_play import ProgressPolicy, progress_action

from spacemission_env.gym_env import SpaceMissionEnv, register_envs
from spacemission_env.policies import BasePolicy, RandomPolicy
from spacemission_env.space_mission.scoring import rank_rewards
from tests.helpers.paths import ROOT
from tests.helpers.versions import AUTORESET_MODE, PETTINGZOO_REGISTRY

register_envs()


@pytest.mark.parametrize("num_players, rules", [(2, "yucata"), (3, "schmidt"), (5, "yucata")])
def test_gymnasium_and_sb3_checkers(num_players, rules):
    pytest.importorskip("stable_baselines3")  # the sb3 extra
    from gymnasium.utils.env_checker import check_env
    from stable_baselines3.common.env_checker import check_env as sb3_check_env

    with warnings.catch_warnings():
        warnings.simplefilter("error")  # the checkers must pass without complaints
        env = gymnasium.make("SpaceMission-v3", num_players=num_players, rules=rules)
        check_env(env.unwrapped)
        sb3_check_env(SpaceMissionEnv(num_players=num_players, rules=rules))
    assert isinstance(env.unwrapped, SpaceMissionEnv)
    assert env.unwrapped.num_players == num_players


def test_make_kwargs_and_spaces():
    env = gymnasium.make("SpaceMission-v3", num_players=4, opponents=[RandomPolicy(seed=1)] * 3, seat=2, max_rounds=10)
    obs, info = env.reset(seed=0)
    u = env.unwrapped
    assert u.seat == 2 and info["seat"] == 2
    assert env.observation_space.contains(obs)
    assert info["action_mask"].dtype == np.bool_ and (info["action_mask"] == u.action_masks()).all()
    assert info["action_mask"].any()


def _episode(env, rng, seed=None):
    obs, info = env.reset(seed=seed)
    rewards = []
    while True:
        a = progress_action(env.unwrapped.action_masks(), rng)
        opp_calls = [p.calls for p in env.unwrapped.opponents]
        obs, r, term, trunc, info = env.step(a)
        rewards.append(r)
        if term or trunc:
            ended_by_opponent = [p.calls for p in env.unwrapped.opponents] != opp_calls
            return rewards, info, term, ended_by_opponent


@pytest.mark.parametrize("num_players, shaping", [(2, False), (3, False), (4, False), (3, True)])
def test_learner_gets_its_own_reward_including_opponent_endings(num_players, shaping):
    opponents = [ProgressPolicy(seed=k) for k in range(num_players - 1)]
    env = gymnasium.make("SpaceMission-v3", num_players=num_players, opponents=opponents, max_rounds=80, shaping=shaping)
    rng = np.random.default_rng(num_players)
    seats, by_opponent = set(), 0
    for ep in range(12):
        rewards, info, term, ended_by_opponent = _episode(env, rng, seed=100 + ep)
        seat = info["seat"]
        seats.add(seat)
        totals = [s["total"] for s in info["scores"]]
        stations = [s["stations"] // 3 for s in info["scores"]]
        expected = rank_rewards(totals, stations)[seat]
        if shaping:  # gamma 1: the shaping terms telescope, the return is the rank reward
            assert sum(rewards) == pytest.approx(expected, abs=1e-5) and any(rewards[:-1])
        else:
            assert rewards[-1] == pytest.approx(expected)
            assert not any(rewards[:-1]), "win rewards are terminal only"
        assert env.unwrapped.action_masks().all(), "no decision pending: all True, never empty"
        assert term and info["round_limit"] == bool(env.unwrapped.batch_state.round_limit[0])
        assert info["is_success"] == (expected > max(rank_rewards(totals, stations)[q] for q in range(num_players)
                                                     if q != seat))
        by_opponent += ended_by_opponent
    assert len(seats) > 1, "seat='random' should vary the learner's seat"
    assert by_opponent > 0, "some games must end on an opponent's move (reward still the learner's)"


def test_each_opponent_plays_its_seat():
    seen = {}

    class Recorder(BasePolicy):
        def __init__(self, name, env_ref):
            self.name, self.env_ref = name, env_ref

        def act(self, observation, action_mask):
            seat = int(self.env_ref[0].batch_state.current_player[0])
            seen.setdefault(self.name, set()).add(seat)
            return int(np.flatnonzero(action_mask)[-1])

    ref = []
    env = SpaceMissionEnv(num_players=3, seat=1, opponents=[Recorder("a", ref), Recorder("b", ref)])
    ref.append(env)
    env.reset(seed=0)
    for _ in range(30):
        env.step(int(np.flatnonzero(env.action_masks())[0]))
    assert seen == {"a": {2}, "b": {0}}  # opponents[k] plays seat (learner + 1 + k) % 3


def test_illegal_actions():
    env = SpaceMissionEnv(num_players=2)
    obs, info = env.reset(seed=1)
    bad = int(np.flatnonzero(~info["action_mask"])[0])
    obs, r, term, trunc, info = env.step(bad)
    assert (r, term, trunc, info["illegal_action"]) == (-1.0, True, False, True)
    assert info["action_mask"].all() and env.action_masks().all() and "scores" in info
    assert info["is_success"] is False
    with pytest.raises(ValueError, match="reset"):
        env.step(0)
    strict = SpaceMissionEnv(num_players=2, illegal_action="raise")
    obs, info = strict.reset(seed=1)
    with pytest.raises(ValueError, match="not legal"):
        strict.step(bad)
    for kwargs in ({"seat": 2}, {"seat": "first"}, {"opponents": [RandomPolicy()] * 2}, {"illegal_action": "ignore"},
                   {"render_mode": "video"}, {"opponents": object()}, {"observation_dtype": "float16"}):
        with pytest.raises(ValueError):
            SpaceMissionEnv(num_players=2, **kwargs)


def test_seeding_reaches_game_seat_and_opponents():
    def trace(seed):
        env = gymnasium.make("SpaceMission-v3", num_players=3, opponents=RandomPolicy())
        obs, info = env.reset(seed=seed)
        out = [info["seat"], obs.tobytes()]
        for _ in range(40):
            obs, r, term, trunc, info = env.step(int(np.flatnonzero(info["action_mask"])[0]))
            out.append(obs.tobytes())
            if term or trunc:
                break
        return out

    assert trace(3) == trace(3)
    assert trace(3) != trace(4)


def test_options_seat_and_render(capsys):
    env = SpaceMissionEnv(num_players=3, render_mode="ansi")
    _, info = env.reset(seed=0, options={"seat": 2})
    assert info["seat"] == 2 and "player_2" in env.render()
    env = SpaceMissionEnv(num_players=2, render_mode="rgb_array")
    env.reset(seed=0)
    assert env.render().shape == (800, 1200, 3)
    env = SpaceMissionEnv(num_players=2, render_mode="human")
    env.reset(seed=0)
    assert env.render() is None and "player_1 (blue): score" in capsys.readouterr().out
    assert SpaceMissionEnv.metadata["render_modes"] == ["ansi", "human", "rgb_array"]


class TopUp(BasePolicy):
    """Always tops up without discarding (action 0, always legal): scores stay 0."""

    uses_observation = False

    def act(self, observation, action_mask):
        return 0


def test_round_limit_is_a_termination_and_a_tie_is_no_success():
    """R-E3: the game ends at max_rounds, scored: terminated=True, truncated=False,
    info["round_limit"]. Everyone only tops up, so every score is 0: a shared first
    place, which is not a success."""
    env = gymnasium.make("SpaceMission-v3", num_players=3, opponents=TopUp(), max_rounds=2)
    obs, info = env.reset(seed=0)
    assert info["round_limit"] is False
    steps = 0
    while True:
        obs, reward, term, trunc, info = env.step(0)
        steps += 1
        if term or trunc:
            break
        assert info["round_limit"] is False and "scores" not in info
    assert (term, trunc, info["round_limit"]) == (True, False, True)
    assert all(s["total"] == 0 for s in info["scores"]) and reward == 0.0
    assert info["is_success"] is False
    assert obs[0] >= 0 and steps == 4  # two actions per turn (R-T2), two rounds


def _masked_sample(mask: np.ndarray, generator) -> np.ndarray:
    """A masked torch Categorical: raises on an all-False row (NaN logits)."""
    import torch

    m = torch.as_tensor(mask, dtype=torch.bool)
    logits = torch.zeros(m.shape).masked_fill(~m, float("-inf"))
    return torch.distributions.Categorical(logits=logits, validate_args=True).sample().numpy()


@pytest.mark.parametrize("mode", ["sync", "async"])
def test_masked_sampler_through_make_vec_over_episode_ends(mode):
    """gymnasium.make_vec with next-step autoreset: the info["action_mask"] returned with
    a terminal step (and the action_masks() hook) is all True, never empty, so a masked
    Categorical survives every episode end; the action sent with the autoreset step is ignored."""
    torch = pytest.importorskip("torch")

    # Gymnasium 1.0 has next-step autoreset only (and no AutoresetMode to ask for it)
    vector_kwargs = {"autoreset_mode": AUTORESET_MODE.NEXT_STEP} if AUTORESET_MODE else {}
    gen = torch.Generator().manual_seed(0)
    envs = gymnasium.make_vec("SpaceMission-v3", num_envs=3, vectorization_mode=mode,
                              vector_kwargs=vector_kwargs, max_rounds=3)
    try:
        obs, info = envs.reset(seed=0)
        ends = 0
        for _ in range(200):
            mask = info["action_mask"]
            assert mask.shape == (3, 100) and mask.any(axis=1).all()
            obs, reward, term, trunc, info = envs.step(_masked_sample(mask, gen))
            assert not trunc.any()
            if term.any():
                assert info["action_mask"][term].all() and info["round_limit"][term].all()
            ends += int(term.sum())
            if ends >= 6:
                break
        assert ends >= 6
    finally:
        envs.close()


def test_float32_observations_for_the_learner():
    pytest.importorskip("stable_baselines3")  # the sb3 extra
    from gymnasium.utils.env_checker import check_env
    from stable_baselines3.common.env_checker import check_env as sb3_check_env

    env = gymnasium.make("SpaceMission-v3", num_players=2, observation_dtype="float32").unwrapped
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        check_env(env)
        sb3_check_env(SpaceMissionEnv(num_players=2, observation_dtype="float32"))
    obs, info = env.reset(seed=0)
    assert obs.dtype == np.float32 and env.observation_space.dtype == np.float32
    assert env.observation_space.contains(obs)
    assert (obs == SpaceMissionEnv(num_players=2).reset(seed=0)[0].astype(np.float32)).all()


def test_import_registers_with_gymnasium_and_pettingzoo():
    """`import spacemission_env` alone must make both registries find SpaceMission-v3
    (fresh interpreter, so the explicit register_envs() calls of other tests don't count)."""
    import subprocess
    import sys

    code = "import spacemission_env, gymnasium, pettingzoo; gymnasium.make('SpaceMission-v3', num_players=3)"
    if PETTINGZOO_REGISTRY:  # PettingZoo >= 1.27
        code += "; pettingzoo.make('aec', 'SpaceMission-v3', num_players=3)"
    result = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=120)
    assert result.returncode == 0, result.stderr


def test_docs_state_the_real_gym_and_sb3_spaces():
    pytest.importorskip("stable_baselines3")  # the sb3 extra
    from spacemission_env.sb3 import SpaceMissionVecEnv

    docs = (ROOT / "docs" / "interfaces.md").read_text()
    for space in (SpaceMissionEnv().observation_space, SpaceMissionVecEnv(1).observation_space):
        assert f"`{space}`" in docs
    assert SpaceMissionEnv().action_space == SpaceMissionVecEnv(1).action_space
    assert "`Discrete(100)`" in docs


def test_masks_need_a_game_and_human_mode_prints_every_step(capsys):
    """action_masks() before reset() names the missing game (its all-False row gave NaN
    probabilities); render_mode="human" prints the game after reset and every step, as
    Gymnasium's own environments do (before: only on render())."""
    env = SpaceMissionEnv(num_players=2, render_mode="human")
    with pytest.raises(ValueError, match=r"call reset\(\) before action_masks\(\)"):
        env.action_masks()
    env.reset(seed=0)
    assert capsys.readouterr().out.count("Space Mission [") == 1
    rng = np.random.default_rng(0)
    for _ in range(3):
        env.step(progress_action(env.action_masks(), rng))
    assert capsys.readouterr().out.count("Space Mission [") == 3
    quiet = SpaceMissionEnv(num_players=2, render_mode="ansi")
    quiet.reset(seed=0)
    quiet.step(progress_action(quiet.action_masks(), rng))
    assert capsys.readouterr().out == ""


@pytest.mark.parametrize("env_id", ["SpaceMission-v3", "RedPlanet-v2"])
@pytest.mark.parametrize("mode", [None, "sync", "async"])
def test_make_vec_checks_num_envs_before_allocating(monkeypatch, env_id, mode):
    """gymnasium.make_vec built a list of num_envs factories before making any env, so a
    count too large for the machine (num_envs=10**12) filled its memory before a bare
    MemoryError: it now raises check_num_envs's ValueError first, as the vector envs'
    constructors do. The machine is made small here (1 MiB) so that a count of 10**4
    stands for a huge one, and the vector classes raise if they are reached: the test is
    cheap whether or not the check runs."""
    import spacemission_env.checks as checks

    def reached(*args, **kwargs):
        raise AssertionError("make_vec went on to build the vector env")

    monkeypatch.setattr(checks, "physical_memory", lambda: 2**20)
    monkeypatch.setattr(gymnasium.vector, "SyncVectorEnv", reached)
    monkeypatch.setattr(gymnasium.vector, "AsyncVectorEnv", reached)
    with pytest.raises(ValueError, match=r"num_envs=10,000: that many games need .* play fewer at once"):
        gymnasium.make_vec(env_id, num_envs=10**4, vectorization_mode=mode)
    with pytest.raises(TypeError, match=r"num_envs must be a positive integer, got 2\.5"):
        gymnasium.make_vec(env_id, num_envs=2.5, vectorization_mode=mode)
    with pytest.raises(ValueError, match=r"num_envs must be a positive integer, got 0"):
        gymnasium.make_vec(env_id, num_envs=0, vectorization_mode=mode)
    assert gymnasium.spec(env_id).kwargs == {}  # nothing kept in the registered spec


@pytest.mark.parametrize("mode", [None, "sync", "async"])
def test_make_vec_counts_a_whole_env_per_sub_env(monkeypatch, mode):
    """Each of make_vec's sub-envs is a whole GameEnv (about 25 KB), not a batched game's
    1 KiB: with 100 MiB of memory (monkeypatched), 10,000 of them (160 MB at 16 KiB) passed
    the batched envs' check and were built; now they are refused before any is made."""
    import spacemission_env.checks as checks

    def reached(*args, **kwargs):
        raise AssertionError("make_vec went on to build the vector env")

    monkeypatch.setattr(checks, "physical_memory", lambda: 100 * 2**20)
    monkeypatch.setattr(gymnasium.vector, "SyncVectorEnv", reached)
    monkeypatch.setattr(gymnasium.vector, "AsyncVectorEnv", reached)
    with pytest.raises(ValueError, match=r"^num_envs=10,000: that many envs of gymnasium.make_vec need at least "
                                         r"0.2 GiB for the envs alone, more than this machine's 0.1 GiB of memory; "
                                         r"make fewer, or play a batch in one env \(spacemission_env.sb3.GameVecEnv\)$"):
        gymnasium.make_vec("RedPlanet-v2", num_envs=10**4, vectorization_mode=mode)


def test_make_vec_still_makes_sync_envs_and_make_takes_kwargs():
    envs = gymnasium.make_vec("SpaceMission-v3", num_envs=2, vectorization_mode="sync", num_players=3)
    try:
        obs, info = envs.reset(seed=0)
        assert obs.shape == (2, envs.single_observation_space.shape[0]) and info["action_mask"].shape == (2, 100)
        assert envs.spec.kwargs["num_envs"] == 2 and envs.spec.kwargs["num_players"] == 3
    finally:
        envs.close()
    assert gymnasium.make("SpaceMission-v3", num_players=4).unwrapped.num_players == 4
