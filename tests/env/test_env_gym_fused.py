"""The Gymnasium env's fused step (gym_env.GameEnv._play: ``engine.step_observe`` where the
engine has it) plays exactly as the separate ``step``/``legal_action_mask``/``observe``
calls that an engine without it gets: observations, masks, rewards, infos, the opponents'
observations and draws, forfeits, at every player count of both games."""
import zlib

import numpy as np
import pytest

from spacemission_env.games import get_game
from spacemission_env.gym_env import GameEnv
from spacemission_env.policies import BasePolicy, RandomPolicy


class ReadsObservation(BasePolicy):
    """An opponent whose choice hangs on every byte of its observation (of its own type)."""

    def __init__(self, observation_type=None):
        self.observation_type = observation_type
        self.seen = []

    def act(self, observation, action_mask):
        self.seen.append(observation.tobytes())
        legal = np.flatnonzero(action_mask)
        return int(legal[zlib.crc32(observation.tobytes()) % legal.size])


def _opponents(mix: int, num_players: int) -> list:
    """Opponents that read no observation, the learner's type or another one, in several orders
    (the fused step guesses whose observation to make from who reads which: gym_env._plan_fused_steps)."""
    pool = [[ReadsObservation("seer"), RandomPolicy(seed=7), ReadsObservation(), RandomPolicy(seed=8)],
            [ReadsObservation(), RandomPolicy(seed=9), ReadsObservation("seer"), ReadsObservation("info")],
            [RandomPolicy(seed=3), RandomPolicy(seed=4), RandomPolicy(seed=5), RandomPolicy(seed=6)]][mix]
    return pool[:num_players - 1]


def _trajectory(game: str, num_players: int, seed: int, steps: int = 400) -> tuple:
    """Everything a learner and its opponents see over ``steps`` steps of random learner play
    (now and then an illegal action: a forfeit), with seeded resets and the next ones."""
    opponents = _opponents(seed % 3, num_players)
    kwargs = {"max_rounds": 3} if game == "spacemission" else {}  # so that episodes end
    env = GameEnv(num_players=num_players, opponents=opponents, game=game, shaping=seed == 1,
                  observation_type="recall" if seed == 2 else "info",
                  observation_dtype="float32" if seed == 1 else "int8", **kwargs)
    rng = np.random.default_rng(seed)
    obs, info = env.reset(seed=seed)
    fused = env._step_observe is not None
    out = [(obs.dtype.str, obs.tobytes(), repr(info))]
    for _ in range(steps):
        mask = info["action_mask"]
        pool = np.flatnonzero(~mask) if rng.random() < 0.01 and not mask.all() else np.flatnonzero(mask)
        obs, reward, terminated, truncated, info = env.step(int(pool[int(rng.random() * pool.size)]))
        assert np.array_equal(env.action_masks(), info["action_mask"])
        out.append((obs.tobytes(), reward, terminated, truncated, repr(info)))
        if terminated:
            obs, info = env.reset()
            out.append((obs.tobytes(), repr(info)))
    seen = [p.seen for p in opponents if isinstance(p, ReadsObservation)]
    draws = [p._rng.bit_generator.state for p in opponents if isinstance(p, RandomPolicy)]
    return fused, out, seen, draws


@pytest.mark.parametrize("game, num_players", [("spacemission", 2), ("spacemission", 3), ("spacemission", 4),
                                               ("spacemission", 5), ("red_planet", 3), ("red_planet", 4),
                                               ("red_planet", 5)])
@pytest.mark.parametrize("seed", [0, 1, 2])
def test_fused_and_separate_engine_calls_play_alike(game, num_players, seed, monkeypatch):
    fused, *with_fused = _trajectory(game, num_players, seed)
    monkeypatch.delattr(get_game(game).engine, "step_observe")  # an engine without it: the three calls
    separate, *without = _trajectory(game, num_players, seed)
    assert fused and not separate
    assert with_fused == without
    assert sum(t[2] for t in with_fused[0] if len(t) == 5) >= 2  # several episodes ended
    assert all(with_fused[1]) and bool(with_fused[1]) == (seed % 3 != 2)  # opponents read observations (not mix 2)

