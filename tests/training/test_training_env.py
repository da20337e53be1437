"""Per-game opponents in the SB3 VecEnv (``opponent_sampler``, ``set_opponent_assignment``,
``set_opponent_pool``) and the training opponent pool (weights, snapshots, prioritized
sampling, results)."""
import numpy as np
import pytest

pytest.importorskip("stable_baselines3")

from spacemission_env.space_mission import engine  # noqa: E402
from spacemission_env.games import GameConfig  # noqa: E402
from spacemission_env.policies import BasePolicy, RandomPolicy  # noqa: E402
from spacemission_env.sb3 import SpaceMissionVecEnv  # noqa: E402
from spacemission_training.pool import OpponentPool, pairwise_scores, parse_weights  # noqa: E402


class Tagged(BasePolicy):
    """Random legal moves; checks that it is only asked for the games assigned to it."""

    def __init__(self, env_ref: list, tag: int, observation_type=None):
        self.env_ref, self.tag, self.observation_type = env_ref, tag, observation_type
        self.rng = np.random.default_rng(tag)
        self.calls, self.rows, self.bound = 0, 0, []

    def bind(self, config):
        self.bound.append(config)

    def act_batch(self, observations, action_masks):
        env = self.env_ref[0]
        st = env.batch_state
        cp = st.current_player.astype(np.int64)
        need = (cp != env.seats) & ~st.terminated
        k = (cp - env.seats - 1) % env.num_players
        assign = env.opponent_assignment
        mine = need & (assign[np.arange(env.num_envs), np.minimum(k, env.num_players - 2)] == self.tag)
        assert len(action_masks) == mine.sum(), "called for exactly the rows assigned to it"
        kind = self.observation_type or env.observation_type
        assert (observations == engine.observe(st, observation_type=kind)[mine]).all()
        self.calls += 1
        self.rows += len(action_masks)
        return engine.sample_actions(np.asarray(action_masks, dtype=bool), self.rng)


class CountingSampler:
    def __init__(self, num_players, k):
        self.sizes, self.P, self.k = [], num_players, k

    def __call__(self, rng, n):
        self.sizes.append(n)
        return rng.integers(0, self.k, size=(n, self.P - 1))


def _env(num_players=3, n=24, seed=0, k=3, sampler=None, **kwargs):
    ref = []
    pool = [Tagged(ref, t, observation_type=("recall" if t == 1 else None)) for t in range(k)]
    sampler = sampler or CountingSampler(num_players, k)
    env = SpaceMissionVecEnv(n, num_players=num_players, opponents=pool, opponent_sampler=sampler, seed=seed,
                             max_rounds=30, **kwargs)
    ref.append(env)
    return env, pool, sampler


def test_each_pool_policy_plays_exactly_its_assigned_rows_and_ended_games_report_them():
    env, pool, sampler = _env()
    assert all(p.bound == [GameConfig(3, "yucata", 30)] for p in pool)
    env.reset()
    assert sampler.sizes == [24]
    starts = env.opponent_assignment
    assert starts.shape == (24, 2) and len(np.unique(starts)) == 3
    rng = np.random.default_rng(1)
    ended = 0
    for _ in range(400):
        before = env.opponent_assignment
        obs, rew, dones, infos = env.step(engine.sample_actions(env.action_masks(), rng, by_kind=True))
        for i in np.flatnonzero(dones):
            assert infos[i]["opponents"] == before[i].tolist()
        if dones.any():
            assert sampler.sizes[-1] == dones.sum()  # the ended games' successors draw theirs
        ended += int(dones.sum())
        assert not any("opponents" in infos[i] for i in np.flatnonzero(~dones))
    assert ended > 24 and sum(sampler.sizes) == 24 + ended
    assert all(p.rows > 0 for p in pool)


def test_seeded_pool_env_is_reproducible():
    def run(seed):
        env, _, _ = _env(num_players=2, seed=seed)
        obs = [env.reset()]
        assigns = [env.opponent_assignment]
        rng = np.random.default_rng(0)
        for _ in range(120):
            obs.append(env.step(engine.sample_actions(env.action_masks(), rng, by_kind=True))[0])
            assigns.append(env.opponent_assignment)
        return np.stack(obs), np.stack(assigns)

    a, b, c = run(3), run(3), run(4)
    assert all(np.array_equal(x, y) for x, y in zip(a, b))
    assert not np.array_equal(a[1], c[1])


def test_set_opponent_assignment_and_pool():
    env, pool, _ = _env(num_players=3, n=4)
    env.reset()
    env.set_opponent_assignment(np.array([[0, 0], [1, 1], [2, 2], [0, 2]]))
    assert env.opponent_assignment.tolist() == [[0, 0], [1, 1], [2, 2], [0, 2]]
    for bad, match in (([[0, 0]] * 3, "shape"), (np.full((4, 2), 3), "pool index 3"), (np.full((4, 2), -1), "-1"),
                       (np.zeros((4, 2), dtype=float), "integer")):
        with pytest.raises(ValueError, match=match):
            env.set_opponent_assignment(np.asarray(bad))
    assert env.opponent_assignment.tolist() == [[0, 0], [1, 1], [2, 2], [0, 2]], "unchanged after an error"
    extra = Tagged([env], 3)
    env.set_opponent_pool([*pool, extra])
    assert extra.bound == [GameConfig(3, "yucata", 30)] and pool[0].bound == [GameConfig(3, "yucata", 30)]
    with pytest.raises(ValueError, match="drops it"):
        env.set_opponent_pool(pool[:2])
    with pytest.raises(ValueError, match="twice"):
        env.set_opponent_pool([pool[0], pool[0], pool[1]])
    fixed = SpaceMissionVecEnv(2, num_players=2, seed=0)
    with pytest.raises(ValueError, match="opponent_sampler"):
        fixed.set_opponent_pool([RandomPolicy()])
    assert fixed.opponent_assignment.shape == (2, 1)


def test_bad_samplers_are_named():
    with pytest.raises(ValueError, match="callable"):
        SpaceMissionVecEnv(2, opponents=[RandomPolicy()], opponent_sampler=3)
    with pytest.raises(ValueError, match="non-empty list"):
        SpaceMissionVecEnv(2, opponents=RandomPolicy(), opponent_sampler=lambda rng, n: np.zeros((n, 1), int))
    env = SpaceMissionVecEnv(2, opponents=[RandomPolicy()], opponent_sampler=lambda rng, n: np.ones((n, 1), int))
    with pytest.raises(ValueError, match="opponent_sampler .* pool index 1"):
        env.reset()


def test_pool_weights_snapshots_and_priorities():
    assert parse_weights("heuristic=0.3, self=0.7") == {"heuristic": 0.3, "self": 0.7}
    for bad in ("heuristic", "a=-1", "a=x", "a=0", "a=1,a=2"):
        with pytest.raises(ValueError):
            parse_weights(bad)
    pool = OpponentPool("random=1,kind-random=1,self=2", num_players=2, max_snapshots=2, priority=0.0)
    assert pool.names == ["random", "kind-random"] and np.allclose(pool.probabilities, [0.5, 0.5])  # no snapshot yet
    for step in (0, 10, 20):
        pool.add_snapshot(RandomPolicy(), step)
    assert pool.names == ["random", "kind-random", "self@20", "self@10"]  # the oldest replaced in its slot
    assert np.allclose(pool.probabilities, [0.25, 0.25, 0.25, 0.25])
    draws = pool.sample(np.random.default_rng(0), 20000)
    assert draws.shape == (20000, 1) and np.allclose(np.bincount(draws[:, 0]) / 20000, 0.25, atol=0.02)
    with pytest.raises(ValueError, match="self"):
        OpponentPool("random=1", num_players=2).add_snapshot(RandomPolicy(), 0)
    with pytest.raises(ValueError, match="unknown agent"):
        OpponentPool("nobody=1", num_players=2)


def _info(seat, totals, opponents):
    return {"seat": seat, "opponents": opponents, "scores": [{"total": t, "stations": 0} for t in totals]}


def test_prioritized_pool_favours_opponents_the_learner_loses_to():
    pool = OpponentPool("random=1,kind-random=1", num_players=3, priority=2.0, window=50)
    assert pairwise_scores(_info(1, [5, 9, 9], [0, 1]), 3) == [0.5, 1.0]  # seats 2 then 0
    for _ in range(60):  # the learner (seat 0) beats random (seat 1), loses to kind-random (seat 2)
        pool.record([_info(0, [10, 5, 20], [0, 1])], np.array([True]))
    s = {e["name"]: e for e in pool.summary()}
    assert s["random"]["score"] > 0.95 and s["kind-random"]["score"] < 0.05 and s["random"]["games"] == 60
    assert s["kind-random"]["probability"] > 0.75
    assert s["random"]["probability"] == pytest.approx(0.5 * 0.2, abs=0.01)  # never below the floor


def test_a_replaced_snapshot_is_not_credited_with_the_games_begun_against_its_slots_old_one():
    # found by a training audit: a game in progress keeps its pool index when the slot's
    # snapshot is replaced, and its result went to the new snapshot's priority score
    pool = OpponentPool("random=1,self=1", num_players=2, max_snapshots=1, priority=1.0)
    pool.add_snapshot(RandomPolicy(), 0)
    k = pool.names.index("self@0")
    in_progress = np.array([[k], [0], [k]])  # envs 0 and 2 play the snapshot that is about to go
    assert pool.add_snapshot(RandomPolicy(), 10, in_progress=in_progress) == k
    won = _info(0, [20, 5], [k])
    counted = pool.record([won, won, won], np.array([True, False, True]))
    assert counted == [] and pool.entries[k].games == 0 and pool.entries[k].score == 0.5
    counted = pool.record([won, _info(0, [20, 5], [0]), won], np.array([True, True, True]))  # their next games count
    assert counted == [(k, 1.0), (0, 1.0), (k, 1.0)] and pool.entries[k].games == 2
    before = pool.entries[k].games
    pool.add_snapshot(RandomPolicy(), 20)  # without in_progress: every result counts, as before
    pool.record([won], np.array([True]))
    assert pool.entries[k].games == 1 and pool.entries[k].name == "self@20" and before == 2
