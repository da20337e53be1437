"""Gymnasium single-agent env SpaceMission-v0: checkers, learner rewards (also when an
opponent's move ends the game), opponents per seat, illegal actions, seeding."""
import warnings

import gymnasium
import numpy as np
import pytest
from env_helpers import ProgressPolicy, progress_action

from spacemission_env.gym_env import SpaceMissionEnv, register_envs
from spacemission_env.policies import BasePolicy, RandomPolicy
from spacemission_env.scoring import rank_rewards

register_envs()


@pytest.mark.parametrize("num_players, rules", [(2, "yucata"), (3, "schmidt"), (5, "yucata")])
def test_gymnasium_and_sb3_checkers(num_players, rules):
    from gymnasium.utils.env_checker import check_env
    from stable_baselines3.common.env_checker import check_env as sb3_check_env

    with warnings.catch_warnings():
        warnings.simplefilter("error")  # the checkers must pass without complaints
        env = gymnasium.make("SpaceMission-v0", num_players=num_players, rules=rules)
        check_env(env.unwrapped)
        sb3_check_env(SpaceMissionEnv(num_players=num_players, rules=rules))
    assert isinstance(env.unwrapped, SpaceMissionEnv)
    assert env.unwrapped.num_players == num_players


def test_make_kwargs_and_spaces():
    env = gymnasium.make("SpaceMission-v0", num_players=4, opponents=[RandomPolicy(1)] * 3, seat=2, max_rounds=10)
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
    env = gymnasium.make("SpaceMission-v0", num_players=num_players, opponents=opponents, max_rounds=80, shaping=shaping)
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
        assert not env.unwrapped.action_masks().any()
        by_opponent += ended_by_opponent and term
    assert len(seats) > 1, "seat='random' should vary the learner's seat"
    assert by_opponent > 0, "some games must end on an opponent's move (reward still the learner's)"


def test_each_opponent_plays_its_seat():
    seen = {}

    class Recorder(BasePolicy):
        def __init__(self, name, env_ref):
            self.name, self.env_ref = name, env_ref

        def act(self, observation, action_mask):
            seat = int(self.env_ref[0]._st.current_player[0])
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
    with pytest.raises(ValueError, match="reset"):
        env.step(0)
    strict = SpaceMissionEnv(num_players=2, illegal_action="raise")
    obs, info = strict.reset(seed=1)
    with pytest.raises(ValueError, match="not legal"):
        strict.step(bad)
    for kwargs in ({"seat": 2}, {"seat": "first"}, {"opponents": [RandomPolicy()] * 2}, {"illegal_action": "ignore"},
                   {"render_mode": "human"}, {"opponents": object()}):
        with pytest.raises(ValueError):
            SpaceMissionEnv(num_players=2, **kwargs)


def test_seeding_reaches_game_seat_and_opponents():
    def trace(seed):
        env = gymnasium.make("SpaceMission-v0", num_players=3, opponents=RandomPolicy())
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


def test_options_seat_and_render():
    env = SpaceMissionEnv(num_players=3, render_mode="ansi")
    _, info = env.reset(seed=0, options={"seat": 2})
    assert info["seat"] == 2 and "player_2" in env.render()
    env = SpaceMissionEnv(num_players=2, render_mode="rgb_array")
    env.reset(seed=0)
    assert env.render().shape == (800, 1200, 3)


def test_import_registers_with_gymnasium_and_pettingzoo():
    """`import spacemission_env` alone must make both registries find SpaceMission-v0
    (fresh interpreter, so the explicit register_envs() calls of other tests don't count)."""
    import subprocess
    import sys

    code = ("import spacemission_env, gymnasium, pettingzoo; gymnasium.make('SpaceMission-v0', num_players=3); "
            "pettingzoo.make('aec', 'SpaceMission-v0', num_players=3)")
    result = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=120)
    assert result.returncode == 0, result.stderr


def test_docs_state_the_real_gym_and_sb3_spaces():
    from pathlib import Path

    from spacemission_env.sb3 import SpaceMissionVecEnv

    docs = (Path(__file__).resolve().parents[1] / "docs" / "interfaces.md").read_text()
    for space in (SpaceMissionEnv().observation_space, SpaceMissionVecEnv(1).observation_space):
        assert f"`{space}`" in docs
    assert SpaceMissionEnv().action_space == SpaceMissionVecEnv(1).action_space
    assert "`Discrete(100)`" in docs
