"""Self-play VectorEnv: shapes, same-step auto-reset, rewards per seat, the round limit as a
termination, seeding, errors (more bad-input cases: tests/env/test_bad_input.py)."""
import numpy as np
import pytest
from tests.helpers.env_play import pick, progress_masks

from spacemission_env.space_mission import engine
from spacemission_env.space_mission.scoring import rank_rewards
from spacemission_env.vector import VectorEnv
from tests.helpers.paths import ROOT
from tests.helpers.versions import AUTORESET_MODE


def test_reset_and_step_shapes():
    venv = VectorEnv(6, num_players=3, rules="schmidt", seed=0)
    obs, mask, player, infos = venv.reset()
    d = engine.observation_size()
    assert obs.shape == (6, d) and obs.dtype == np.int8
    assert mask.shape == (6, 100) and mask.dtype == np.bool_ and mask.any(axis=1).all()
    assert player.shape == (6,) and ((player >= 0) & (player < 3)).all()
    assert infos["seeds"].shape == (6,)
    out = venv.step(engine.sample_actions(mask, np.random.default_rng(0)))
    obs, mask, player, rewards, terminated, truncated, infos = out
    assert rewards.shape == (6, 3) and rewards.dtype == np.float32
    assert terminated.shape == truncated.shape == (6,) and terminated.dtype == np.bool_
    # obs are the acting seat's views
    assert (obs == engine.observe(venv.state)).all()


@pytest.mark.parametrize("shaping", [False, True])
def test_same_step_autoreset_and_rewards_per_seat(shaping):
    """Games end by R-E1 and at the round limit (R-E3), both reported as terminated; the
    ending step returns the final rewards and a new game's first observation; every
    seat's summed column is its rank reward (with shaping at gamma 1 too, the shaping
    terms telescoping to 0)."""
    n, num_players = 16, 4
    venv = VectorEnv(n, num_players=num_players, max_rounds=40, seed=1, shaping=shaping)
    obs, mask, player, _ = venv.reset()
    rng = np.random.default_rng(0)
    returns = np.zeros((n, num_players))
    ended = {"R-E1": 0, "R-E3": 0}
    steps = 0
    while min(ended.values()) < 2 and steps < 20000:
        actions = pick(progress_masks(mask, rng, eps=0.4), rng)
        assert mask[np.arange(n), actions].all()
        obs, mask, player, rewards, terminated, truncated, infos = venv.step(actions)
        steps += 1
        returns += rewards
        assert not truncated.any(), "R-E3 is an end, never a truncation"
        done = terminated
        if done.any():
            assert (infos["_final_scores"] == done).all() and (infos["_round_limit"] == done).all()
            assert not (infos["round_limit"] & ~done).any()
            for i in np.flatnonzero(done):
                sc = infos["final_scores"][i]
                expected = rank_rewards(sc[:, 7].tolist(), (sc[:, 1] // 3).tolist())
                assert returns[i] == pytest.approx(expected, abs=1e-5)
                assert infos["episode_length"][i] > 0
                ended["R-E3" if infos["round_limit"][i] else "R-E1"] += 1
            returns[done] = 0
            # same-step reset: the slot already holds a fresh game
            st = venv.state
            assert (st.round[done] == 1).all() and not st.terminated.any()
            assert (engine.scores(st)[done][..., 7] == 0).all()
        elif not shaping:
            assert not rewards.any(), "win rewards are terminal only"
    assert min(ended.values()) >= 2


def test_final_observation_and_score_reward():
    venv = VectorEnv(4, num_players=2, max_rounds=3, reward="score", final_observation=True, seed=2)
    obs, mask, player, _ = venv.reset()
    rng = np.random.default_rng(1)
    while True:
        before = venv.state.copy()
        obs, mask, player, rewards, terminated, truncated, infos = venv.step(engine.sample_actions(mask, rng))
        if terminated.any():
            break
    done = terminated
    assert infos["round_limit"][done].all() and not truncated.any()
    fo = infos["final_observation"]
    assert fo.shape == (4, 2, engine.observation_size()) and (infos["_final_observation"] == done).all()
    i = int(np.flatnonzero(done)[0])
    assert fo[i, 0].any() and not fo[~done].any()
    sc = infos["final_scores"][i, :, 7].astype(float)
    assert rewards[i] == pytest.approx([(sc[0] - sc[1]) / 50, (sc[1] - sc[0]) / 50])
    assert before.round[i] == 3


def test_seeding_is_reproducible():
    def run(seed):
        venv = VectorEnv(5, num_players=3, seed=seed)
        obs, mask, player, _ = venv.reset()
        rng = np.random.default_rng(0)
        trace = [obs.copy()]
        for _ in range(50):
            obs, mask, player, *_ = venv.step(engine.sample_actions(mask, rng))
            trace.append(obs.copy())
        return np.stack(trace)

    assert (run(4) == run(4)).all()
    assert not (run(4) == run(5)).all()
    venv = VectorEnv(3, seed=9)
    a = venv.reset()[0]
    b = venv.reset(seed=9)[0]
    assert (a == b).all()


def test_illegal_actions_and_bad_arguments():
    venv = VectorEnv(3, seed=0)
    _, mask, _, _ = venv.reset()
    actions = engine.sample_actions(mask, np.random.default_rng(0))
    actions[1] = int(np.flatnonzero(~mask[1])[0])
    with pytest.raises(ValueError, match="game 1"):
        venv.step(actions)
    with pytest.raises(ValueError):
        venv.step(np.zeros(2, dtype=np.int64))
    for kwargs in ({"num_envs": 0}, {"num_envs": 2, "num_players": 7}, {"num_envs": 2, "reward": "x"},
                   {"num_envs": 2, "seed": -3}, {"num_envs": 2, "rules": "x"}):
        with pytest.raises(ValueError):
            VectorEnv(**kwargs)
    with pytest.raises(ValueError):
        VectorEnv(2).step(np.zeros(2, dtype=np.int64))  # before reset


def test_engine_select_steps_and_masks_only_selected_games():
    st = engine.init(4, 2, seeds=0)
    ref = st.copy()
    select = np.array([True, False, True, False])
    actions = engine.sample_actions(engine.legal_action_mask(st), np.random.default_rng(0))
    engine.step(st, actions, select=select)
    full = ref.copy()
    engine.step(full, actions)
    for name in ("hand", "ship", "supply", "actions_left", "current_player", "terminated"):
        a, b, r = getattr(st, name), getattr(full, name), getattr(ref, name)
        assert (a[select] == b[select]).all() and (a[~select] == r[~select]).all()
    out = np.zeros((4, 100), dtype=bool)
    engine.legal_action_mask(st, out=out, select=select)
    assert (out[select] == engine.legal_action_mask(st)[select]).all() and not out[~select].any()
    bad = np.full(4, 99, dtype=np.int64)  # illegal everywhere, but only unselected games get it
    bad[select] = engine.sample_actions(engine.legal_action_mask(st), np.random.default_rng(1))[select]
    engine.step(st, bad, select=select)  # no ValueError: unselected games are not checked
    with pytest.raises(ValueError, match="select"):
        engine.step(st, bad, select=np.array([1, 0, 1, 0]))


def test_render(capsys):
    venv = VectorEnv(2, seed=0)
    venv.reset()
    assert "jump gate" in venv.render(1)
    assert venv.render(0, mode="rgb_array").shape[2] == 3
    assert venv.render(1, mode="human") is None and "jump gate" in capsys.readouterr().out
    assert VectorEnv.metadata["render_modes"] == ["ansi", "human", "rgb_array"]
    with pytest.raises(ValueError):
        venv.render(5)


def test_float32_observations():
    venv = VectorEnv(3, observation_dtype="float32", final_observation=True, max_rounds=2, seed=0)
    ref = VectorEnv(3, max_rounds=2, seed=0)
    obs, mask, *_ = venv.reset()
    obs_i8, *_ = ref.reset()
    assert obs.dtype == np.float32 and (obs == obs_i8).all()
    rng = np.random.default_rng(0)
    for _ in range(100):
        a = engine.sample_actions(mask, rng)
        obs, mask, _, _, terminated, _, infos = venv.step(a)
        obs_i8, *_ = ref.step(a)
        assert obs.dtype == np.float32 and (obs == obs_i8).all()
        if terminated.any():
            assert infos["final_observation"].dtype == np.float32


def test_documented_autoreset_mode():

    assert VectorEnv.autoreset_mode == "same_step"
    docs = (ROOT / "docs" / "interfaces.md").read_text()
    assert "**Auto-reset: same-step**" in docs and "AutoresetMode.SAME_STEP" in docs
    if AUTORESET_MODE is not None:  # Gymnasium >= 1.1 names the modes
        assert AUTORESET_MODE.SAME_STEP.value == "SameStep"


@pytest.mark.parametrize("game, players, kwargs", [("spacemission", 2, {"max_rounds": 6}), ("red_planet", 3, {})])
def test_an_auto_reset_reports_the_new_games_seeds(game, players, kwargs):
    """A step where games ended gives ``infos["seeds"]`` (int64 [N]) and ``infos["_seeds"]``
    (the ended slots): the reference engine's new game with that seed is the new game in the
    slot, as ``reset()``'s seeds rebuild the first games. Before: only ``reset()`` reported
    seeds; an auto-reset game could be rebuilt only by mirroring the env's generator. Steps
    where no game ended carry no seeds."""
    from spacemission_env.games import GameConfig, get_game

    g = get_game(game)
    config = GameConfig(players, game=game, **kwargs)
    n = 6
    venv = VectorEnv(n, num_players=players, game=game, seed=4, **kwargs)
    obs, mask, player, infos = venv.reset()
    for i in range(n):
        assert g.engine.to_reference(venv.batch_state, i) == g.new_reference_game(config, int(infos["seeds"][i]))
    rng, checked, quiet = np.random.default_rng(0), 0, 0
    while checked < n + 2:
        obs, mask, player, rewards, terminated, truncated, infos = venv.step(g.engine.sample_actions(mask, rng))
        if not terminated.any():
            assert "seeds" not in infos and "_seeds" not in infos
            quiet += 1
            continue
        assert infos["seeds"].dtype == np.int64 and (infos["_seeds"] == terminated).all()
        assert (infos["seeds"][~terminated] == 0).all()
        for i in np.flatnonzero(terminated):
            fresh = g.new_reference_game(config, int(infos["seeds"][i]))
            assert g.engine.to_reference(venv.batch_state, int(i)) == fresh, f"slot {i}"
            checked += 1
    assert quiet > 0


@pytest.mark.parametrize("game, dtype", [("spacemission", "int8"), ("red_planet", "float32")])
def test_final_observation_counts_its_buffers_in_the_memory_check(monkeypatch, game, dtype):
    """final_observation=True makes every step where a game ends hold [N, P, D] final
    observations, far more than check_num_envs's 1 KiB a game: with 1 MiB of memory
    (monkeypatched), 300 games fit that bound and were built; now they are refused, naming
    the option, and built without it."""
    from spacemission_env import checks

    monkeypatch.setattr(checks, "physical_memory", lambda: 2**20)
    with pytest.raises(ValueError, match=r"^num_envs=300 with final_observation=True: that many games need at least "
                                         r"[0-9.]+ GiB for their states and final observations, more than this "
                                         r"machine's 0.0 GiB of memory; play fewer at once, or leave "
                                         r"final_observation off$"):
        VectorEnv(300, game=game, observation_dtype=dtype, final_observation=True)
    assert VectorEnv(300, game=game, observation_dtype=dtype).num_envs == 300
    assert VectorEnv(2, game=game, observation_dtype=dtype, final_observation=True).final_observation


@pytest.mark.parametrize("game", ["spacemission", "red_planet"])
def test_num_actions_is_a_plain_int(game):
    """VectorEnv.num_actions is an int, as the other interfaces' (EnvBase sets it from the
    game): it was Discrete's ``n``, a numpy int64, which json.dumps refuses (found by mypy)."""
    import json

    env = VectorEnv(2, num_players=3, game=game)
    assert type(env.num_actions) is int
    assert env.num_actions == env.single_action_space.n == env.game.num_actions
    assert json.loads(json.dumps({"n": env.num_actions})) == {"n": env.num_actions}
