"""SB3 VecEnv over the batched engine: VecEnv conventions, masks through env_method,
learner rewards per seat, seeding, the round limit as a termination (no bootstrapping in
MaskablePPO's rollout buffer), rendering, and a short MaskablePPO run with maskable
evaluation. Bad-input cases: tests/env/test_bad_input.py."""
import numpy as np
import pytest
from tests.helpers.env_play import ProgressPolicy, pick, progress_masks

from spacemission_env.space_mission import engine
from spacemission_env.policies import RandomPolicy
from spacemission_env.space_mission.scoring import rank_rewards

sb3 = pytest.importorskip("stable_baselines3")
from stable_baselines3.common.vec_env import VecEnv, VecEnvWrapper  # noqa: E402

from spacemission_env.sb3 import SpaceMissionVecEnv  # noqa: E402


def test_vecenv_conventions_and_masks():
    venv = SpaceMissionVecEnv(5, num_players=3, seed=0)
    assert isinstance(venv, VecEnv) and venv.num_envs == 5
    obs = venv.reset()
    assert obs.shape == (5, engine.observation_size()) and obs.dtype == np.int8
    assert venv.observation_space.contains(obs[0]) and venv.action_space.n == 100
    masks = venv.action_masks()
    assert masks.shape == (5, 100) and masks.dtype == np.bool_ and masks.any(axis=1).all()
    from sb3_contrib.common.maskable.utils import get_action_masks

    assert (get_action_masks(venv) == masks).all()
    assert (np.stack(venv.env_method("action_masks", indices=[1, 3])) == masks[[1, 3]]).all()
    # every game waits for its learner: the acting seat is the learner seat
    assert (venv.batch_state.current_player == venv.seats).all()
    assert venv.get_attr("seats") == venv.seats.tolist()
    assert venv.get_attr("num_players", indices=[0, 2]) == [3, 3]
    assert venv.env_is_wrapped(object) == [False] * 5
    assert [i["seat"] for i in venv.reset_infos] == venv.seats.tolist()
    obs, rewards, dones, infos = venv.step(RandomPolicy(seed=0).act_batch(obs, masks))
    assert rewards.shape == (5,) and rewards.dtype == np.float32 and dones.dtype == np.bool_
    assert len(infos) == 5 and all(isinstance(i, dict) for i in infos)


@pytest.mark.parametrize("shaping", [False, True])
def test_terminal_observation_and_learner_rewards(shaping):
    """Episodes end (by R-E1 and at the round limit) inside step_wait; each ending reports the
    learner's terminal observation and a return equal to its rank reward (with shaping
    at gamma 1 too: the shaping terms telescope to 0 over an episode)."""
    n, num_players = 12, 3
    venv = SpaceMissionVecEnv(n, num_players=num_players, opponents=ProgressPolicy(seed=1), max_rounds=40, seed=3,
                              shaping=shaping)
    shaped_steps = 0
    obs = venv.reset()
    rng = np.random.default_rng(0)
    returns = np.zeros(n)
    ended = {"R-E1": 0, "R-E3": 0}
    seats_seen = set()
    for _ in range(3000):
        seats = venv.seats.copy()
        actions = pick(progress_masks(venv.action_masks(), rng, eps=0.3), rng)
        obs, rewards, dones, infos = venv.step(actions)
        returns += rewards
        shaped_steps += int((rewards[~dones] != 0).sum())
        for i in np.flatnonzero(dones):
            info = infos[i]
            assert info["seat"] == seats[i]
            seats_seen.add(info["seat"])
            assert info["terminal_observation"].shape == obs[i].shape
            assert not (info["terminal_observation"] == obs[i]).all(), "obs must be the new game's"
            totals = [s["total"] for s in info["scores"]]
            stations = [s["stations"] // 3 for s in info["scores"]]
            ranks = rank_rewards(totals, stations)
            assert returns[i] == pytest.approx(ranks[info["seat"]], abs=1e-5)
            others = [r for q, r in enumerate(ranks) if q != info["seat"]]
            assert info["is_success"] == (ranks[info["seat"]] > max(others))  # strictly best
            assert info["TimeLimit.truncated"] is False
            ended["R-E3" if info["round_limit"] else "R-E1"] += 1
            returns[i] = 0
        assert (venv.batch_state.current_player == venv.seats).all()
        if min(ended.values()) >= 3 and len(seats_seen) == num_players:
            break
    assert min(ended.values()) >= 3 and len(seats_seen) == num_players
    assert (shaped_steps > 0) == shaping


def test_fixed_seat_opponent_list_and_seeding():
    def run(seed):
        venv = SpaceMissionVecEnv(4, num_players=3, seat=1, opponents=[RandomPolicy(), RandomPolicy()])
        venv.seed(seed)
        obs = venv.reset()
        out = [obs.copy()]
        for _ in range(30):
            obs, *_ = venv.step(RandomPolicy(seed=0).act_batch(obs, venv.action_masks()))
            out.append(obs.copy())
        assert (venv.seats == 1).all()
        return np.stack(out)

    assert (run(7) == run(7)).all()
    assert not (run(7) == run(8)).all()


def test_bad_arguments_and_illegal_actions():
    for kwargs in ({"num_envs": 0}, {"num_envs": 2, "seat": 3}, {"num_envs": 2, "opponents": [RandomPolicy()] * 2},
                   {"num_envs": 2, "render_mode": "video"}, {"num_envs": 2, "seed": -1}):
        with pytest.raises(ValueError):
            SpaceMissionVecEnv(**kwargs)
    venv = SpaceMissionVecEnv(2, seed=0)
    venv.reset()
    masks = venv.action_masks()
    actions = np.array([int(np.flatnonzero(~masks[0])[0]), int(np.flatnonzero(masks[1])[0])])
    with pytest.raises(ValueError, match="not legal"):
        venv.step(actions)


@pytest.fixture
def one_torch_thread():
    """Tiny networks: one thread is ~10x faster than contending for a loaded machine's cores."""
    import torch

    before = torch.get_num_threads()
    torch.set_num_threads(1)
    yield
    torch.set_num_threads(before)


def test_illegal_opponent_action_is_reported():
    from spacemission_env.policies import BasePolicy

    class Cheater(BasePolicy):
        uses_observation = False

        def act_batch(self, observations, action_masks):
            return np.argmin(action_masks, axis=1)  # an illegal action wherever one exists

    venv = SpaceMissionVecEnv(4, num_players=2, opponents=Cheater(), seat=1, rules="schmidt", seed=0)
    with pytest.raises(ValueError, match="opponent"):
        venv.reset()  # schmidt: seat 0, the opponent, opens every game
    assert not venv.batch_state.terminated.any(), "finished-flags used for subset stepping are restored"


def test_maskable_ppo_learns_and_evaluates(one_torch_thread):
    from sb3_contrib import MaskablePPO
    from sb3_contrib.common.maskable.evaluation import evaluate_policy

    from stable_baselines3.common.vec_env import VecMonitor

    venv = VecMonitor(SpaceMissionVecEnv(8, num_players=2, max_rounds=30, seed=0))  # masks reach through wrappers
    model = MaskablePPO("MlpPolicy", venv, n_steps=128, batch_size=256, n_epochs=1, seed=0, verbose=0,
                        policy_kwargs={"net_arch": [64]})
    model.learn(total_timesteps=3072)
    assert model.num_timesteps >= 3072
    mean, std = evaluate_policy(model, venv, n_eval_episodes=8)
    assert -1.0 <= mean <= 1.0 and np.isfinite(std)


def test_maskable_ppo_on_the_gymnasium_env(one_torch_thread):
    """MaskablePPO finds action_masks() through gymnasium.make's wrappers (DummyVecEnv)."""
    import gymnasium
    from sb3_contrib import MaskablePPO
    from stable_baselines3.common.env_util import make_vec_env

    from spacemission_env.gym_env import register_envs

    register_envs()
    venv = make_vec_env(lambda: gymnasium.make("SpaceMission-v3", max_rounds=20), n_envs=2, seed=0)
    model = MaskablePPO("MlpPolicy", venv, n_steps=64, batch_size=64, n_epochs=1, seed=0, policy_kwargs={"net_arch": [32]})
    model.learn(total_timesteps=256)
    assert model.num_timesteps >= 256


class _Recorder(VecEnvWrapper):
    """Keeps what the env returned at every step."""

    def __init__(self, venv):
        super().__init__(venv)
        self.log = []

    def reset(self):
        return self.venv.reset()

    def step_wait(self):
        obs, rewards, dones, infos = self.venv.step_wait()
        self.log.append((rewards.copy(), dones.copy(), [i.get("round_limit", False) for i in infos]))
        return obs, rewards, dones, infos


def test_maskable_ppo_does_not_bootstrap_at_the_round_limit(one_torch_thread):
    """SB3 adds gamma * V(terminal_observation) to the reward of a step whose info says
    TimeLimit.truncated. R-E3 ends the game, so the rollout buffer must hold the plain
    rewards at round-limit ends and mark them as episode ends."""
    from sb3_contrib import MaskablePPO

    n_envs, n_steps = 4, 32
    venv = _Recorder(SpaceMissionVecEnv(n_envs, num_players=2, max_rounds=2, seed=0))
    model = MaskablePPO("MlpPolicy", venv, n_steps=n_steps, batch_size=64, n_epochs=1, gamma=0.9, seed=0,
                        policy_kwargs={"net_arch": [16]})
    model.learn(total_timesteps=n_steps * n_envs)  # exactly one rollout
    rewards = np.stack([r for r, _, _ in venv.log[:n_steps]])
    dones = np.stack([d for _, d, _ in venv.log[:n_steps]])
    round_limit = np.array([rl for _, _, rl in venv.log[:n_steps]])
    assert round_limit.sum() >= 8, "max_rounds=2: most games end at the round limit"
    buf = model.rollout_buffer
    assert np.allclose(buf.rewards, rewards), "a value was bootstrapped into the buffer"
    assert (buf.episode_starts[1:] == dones[:-1]).all()  # the next step starts a new episode
    assert rewards[round_limit].any()  # terminal rank rewards were paid at those ends


def test_round_limit_infos_and_ties_are_not_successes():
    from spacemission_env.policies import BasePolicy

    class TopUp(BasePolicy):
        uses_observation = False

        def act_batch(self, observations, action_masks):
            return np.zeros(len(action_masks), dtype=np.int64)  # always legal; scores stay 0

    venv = SpaceMissionVecEnv(6, num_players=3, opponents=TopUp(), max_rounds=1, seed=0)
    venv.reset()
    for _ in range(10):
        obs, rewards, dones, infos = venv.step(np.zeros(6, dtype=np.int64))
        if dones.any():
            break
    assert dones.all()
    for info in infos:
        assert info["round_limit"] is True and info["TimeLimit.truncated"] is False
        assert all(s["total"] == 0 for s in info["scores"])
        assert info["is_success"] is False, "a shared first place is not a success"


def test_render_modes_match_metadata(capsys):
    venv = SpaceMissionVecEnv(2, seed=0, render_mode="ansi")
    assert venv.metadata["render_modes"] == ["ansi", "human", "rgb_array"]
    venv.reset()
    for mode in venv.metadata["render_modes"]:
        out = venv.render(mode)
        if mode == "ansi":
            assert isinstance(out, str) and "jump gate" in out
        elif mode == "human":
            assert out is None and "jump gate" in capsys.readouterr().out
        else:
            assert out.dtype == np.uint8 and out.ndim == 3 and out.shape[2] == 3
    assert len(venv.get_images()) == 2


@pytest.mark.parametrize("game", ["spacemission", "red_planet"])
def test_pictures_past_this_machines_memory_are_refused_after_the_first(game, monkeypatch):
    """render("rgb_array") and get_images() render every game (about 3 MB a picture) and
    render tiles them into a second copy: a large num_envs filled the machine's memory
    picture by picture. Game 0's picture is drawn, the rest only when N pictures fit
    (with 4 MiB of memory, monkeypatched: 2 pictures and their tiling do not)."""
    from spacemission_env import checks

    venv = SpaceMissionVecEnv(2, seed=0, render_mode="rgb_array", game=game)
    venv.reset()
    drawn = []
    real = venv._render_game
    monkeypatch.setattr(venv, "_render_game", lambda i, mode: drawn.append(i) or real(i, mode))
    monkeypatch.setattr(checks, "physical_memory", lambda: 4 * 2**20)
    for call, what in ((venv.render, r"render\('rgb_array'\)"), (venv.get_images, r"get_images\(\)")):
        with pytest.raises(ValueError, match=rf"^{what} of 2 games \(\d+ x \d+ pictures\) would need at least "
                                             r"[0-9.]+ GiB, more than this machine's 0.0 GiB of memory; render fewer games"):
            call()
    assert drawn == [0, 0]
    monkeypatch.setattr(checks, "physical_memory", lambda: 64 * 2**20)
    assert len(venv.get_images()) == 2 and venv.render().ndim == 3


def test_step_wait_plays_the_actions_step_async_checked():
    """step_async kept the caller's int64 array itself, so changing it before step_wait (a
    buffer reused for the next actions, as SubprocVecEnv's callers may) played, or failed in
    the engine on, actions that were never checked; now step_wait plays what was checked."""
    venv, ref = SpaceMissionVecEnv(2, seed=0), SpaceMissionVecEnv(2, seed=0)
    venv.reset(), ref.reset()
    masks = venv.action_masks()
    actions = np.argmax(masks, axis=1).astype(np.int64)
    expected = ref.step(actions.copy())
    venv.step_async(actions)
    actions[:] = np.flatnonzero(~masks[0])[0]  # not legal in game 0
    got = venv.step_wait()
    assert (got[0] == expected[0]).all() and (got[1] == expected[1]).all() and (got[2] == expected[2]).all()


def test_float32_observations():
    venv = SpaceMissionVecEnv(4, num_players=3, observation_dtype="float32", max_rounds=2, seed=1)
    ref = SpaceMissionVecEnv(4, num_players=3, max_rounds=2, seed=1)
    obs, obs_i8 = venv.reset(), ref.reset()
    assert obs.dtype == np.float32 and venv.observation_space.dtype == np.float32 and (obs == obs_i8).all()
    for _ in range(30):
        a = RandomPolicy(seed=0).act_batch(None, venv.action_masks())
        (obs, _, dones, infos), (obs_i8, *_) = venv.step(a), ref.step(a)
        assert obs.dtype == np.float32 and (obs == obs_i8).all() and venv.observation_space.contains(obs[0])
        for i in np.flatnonzero(dones):
            assert infos[i]["terminal_observation"].dtype == np.float32



def test_masks_need_a_game_and_reset_infos_follow_the_autoreset():
    """Before reset() there is no game: action_masks() names it (its all-False rows gave NaN
    probabilities). SB3's VecEnvs keep each new episode's reset info in ``reset_infos``:
    after an autoreset it names the new game's seat (it kept the first game's)."""
    venv = SpaceMissionVecEnv(6, num_players=3, seed=4, opponents=ProgressPolicy(seed=2))
    with pytest.raises(ValueError, match=r"call reset\(\) before action_masks\(\)"):
        venv.action_masks()
    obs = venv.reset()
    policy, ended, changed = ProgressPolicy(seed=1), 0, 0
    for _ in range(4000):
        before = venv.seats.copy()
        obs, _, dones, _ = venv.step(policy.act_batch(obs, venv.action_masks()))
        assert [i["seat"] for i in venv.reset_infos] == venv.seats.tolist()
        ended += int(dones.sum())
        changed += int((venv.seats != before).sum())
        if changed >= 3:
            break
    assert ended and changed >= 3  # seats were redrawn at autoresets and reset_infos followed


@pytest.mark.parametrize("game", ["spacemission", "red_planet"])
@pytest.mark.parametrize("between", ["reset", "close"])
def test_a_reset_drops_the_actions_of_a_pending_step_async(game, between):
    """step_async(a), then reset() (or close() and reset()), then step_wait(): the actions
    named games that no longer exist. step_wait played them in the new games where they
    happened to be legal (Space Mission's opening top-ups), silently, and raised the
    engine's "not legal" error elsewhere; now it asks for step_async, the games untouched."""
    venv = SpaceMissionVecEnv(3, num_players=3, seed=0, game=game)
    venv.reset()
    masks = venv.action_masks()
    venv.step_async(np.array([np.flatnonzero(row)[0] for row in masks]))
    if between == "close":
        venv.close()
    venv.reset()
    before = [np.array(a).copy() for a in venv.batch_state.arrays()]
    with pytest.raises(ValueError, match=r"call step_async\(actions\) before step_wait\(\)"):
        venv.step_wait()
    assert all(np.array_equal(a, b) for a, b in zip(before, venv.batch_state.arrays()))
    obs, _, _, _ = venv.step(np.array([np.flatnonzero(row)[0] for row in venv.action_masks()]))  # steps on
    assert obs.shape[0] == 3


def test_get_attr_and_env_method_name_what_is_missing():
    """Before: a plain ``'GameVecEnv' object has no attribute 'x'`` (no caller, no choices)
    and, for a non-str name, Python's bare ``attribute name must be string``. Still
    AttributeError, which SB3's ``has_attr`` relies on."""
    venv = SpaceMissionVecEnv(2, seed=0)
    with pytest.raises(AttributeError, match=r"get_attr\('no_such_name'\).*no attribute 'no_such_name'.*num_players"):
        venv.get_attr("no_such_name")
    with pytest.raises(AttributeError, match=r"env_method\('no_such_name'\).*public methods: .*action_masks"):
        venv.env_method("no_such_name")
    if hasattr(venv, "has_attr"):  # SB3 2.5 and later (the sb3 extra allows 2.4, docs/dependencies.md)
        assert venv.has_attr("no_such_name") is False and venv.has_attr("num_players") is True
    with pytest.raises(TypeError, match="get_attr: the name must be a str, got 5"):
        venv.get_attr(5)
    with pytest.raises(TypeError, match="env_method: the name must be a str, got None"):
        venv.env_method(None)


@pytest.mark.parametrize("args, kwargs", [((1,), {}), ((), {"legal": True}), ((np.zeros(2),), {"indices": None})])
def test_env_method_action_masks_refuses_arguments_it_does_not_take(args, kwargs):
    """``env_method("action_masks", ...)`` dropped its arguments and returned the masks, where
    SB3's own VecEnvs (``DummyVecEnv``) pass them on and ``action_masks``, which takes none,
    raises Python's TypeError; now the same TypeError."""
    venv = SpaceMissionVecEnv(2, seed=0)
    venv.reset()
    with pytest.raises(TypeError, match="action_masks"):
        venv.env_method("action_masks", *args, **kwargs)
    assert len(venv.env_method("action_masks", indices=None)) == 2  # indices is env_method's own
