"""PettingZoo AEC env: PettingZoo's own api/seed/render/state tests, an own conformance run
of many full episodes (api_test stops after one), illegal actions, copies, registry, docs table.
Bad-input cases: tests/env/test_bad_input.py."""
import copy
import pickle
import re
import warnings

import numpy as np
import pytest
from pettingzoo.test import api_test, render_test, seed_test
from pettingzoo.test.state_test import test_state as pz_state_test
from pettingzoo.test.state_test import test_state_space as pz_state_space_test

from spacemission_env.space_mission import engine
from spacemission_env import pettingzoo_env as pz
from spacemission_env.env_common import SCORE_NAMES
from spacemission_env.pettingzoo_env import env, raw_env, spaces_table
from spacemission_env.space_mission.rules import scores as reference_scores
from spacemission_env.space_mission.scoring import rank_rewards

from tests.helpers.env_play import progress_action
from tests.helpers.paths import ROOT
from tests.helpers.versions import needs_pettingzoo_registry

CONFIGS = [(2, "yucata"), (3, "schmidt"), (4, "yucata"), (5, "schmidt")]


def _quiet(fn, *args, **kwargs):
    with warnings.catch_warnings():
        # api_test warns that dict observations are "not a NumPy array" for envs outside its own list
        warnings.simplefilter("ignore")
        return fn(*args, **kwargs)


@pytest.mark.parametrize("num_players, rules", CONFIGS)
def test_pettingzoo_api_test(num_players, rules):
    _quiet(api_test, env(num_players=num_players, rules=rules), num_cycles=1000)


@pytest.mark.parametrize("reward, shaping", [("score", False), ("win", True)])
def test_pettingzoo_api_test_other_options(reward, shaping):
    _quiet(api_test, env(num_players=3, observation_type="seer", reward=reward, shaping=shaping), num_cycles=1000)


@pytest.mark.parametrize("num_players, rules", [(2, "schmidt"), (3, "yucata"), (5, "yucata")])
def test_pettingzoo_seed_test(num_players, rules):
    _quiet(seed_test, lambda render_mode=None: env(num_players=num_players, rules=rules), num_cycles=300)


@pytest.mark.parametrize("num_players, rules", [(2, "yucata"), (4, "schmidt")])
def test_pettingzoo_render_test(num_players, rules, capsys):
    def make(render_mode=None):
        return env(num_players=num_players, rules=rules, render_mode=render_mode)

    render_test(make)  # every mode in metadata, "human" included (returns None, prints)
    assert "jump gate" in capsys.readouterr().out


def test_render_human_prints_the_board(capsys):
    e = env(num_players=3, render_mode="human")
    e.reset(seed=1)
    assert e.render() is None
    out = capsys.readouterr().out
    assert out.startswith("Space Mission [yucata] 3 players") and "player_2 (yellow): score" in out


@pytest.mark.parametrize("observation_dtype", ["int8", "float32"])
def test_state_is_the_seer_view_and_passes_pettingzoo_state_tests(observation_dtype):
    e = env(num_players=3, observation_dtype=observation_dtype)
    pz_state_space_test(e)
    _quiet(pz_state_test, e, num_cycles=200)
    e.reset(seed=4)
    for _ in range(20):
        e.step(int(np.flatnonzero(e.last()[0]["action_mask"])[0]))
    raw = e.unwrapped
    state = e.state()
    assert state.dtype == np.dtype(observation_dtype) and raw.state_space.contains(state)
    assert raw.state_space.shape == (engine.observation_size("seer"),)
    # seat 0's seer view, whoever acts
    assert (state == engine.observe(raw.batch_state, player=0, observation_type="seer")[0]).all()


def _play_episode(e, rng, num_players):
    """One full episode through the wrapped AEC API, checking api_test's properties at
    every step; returns (rewards collected per agent, final scores, round_limit, raw env)."""
    raw = e.unwrapped
    collected = dict.fromkeys(e.possible_agents, 0.0)
    pending = dict.fromkeys(e.possible_agents, 0.0)  # rewards handed out since the agent's last last()
    finished, run_lengths, run, prev_run = set(), [], 0, 0
    previous = None
    for agent in e.agent_iter():
        assert agent not in finished, "agents cannot come back"
        obs, reward, term, trunc, info = e.last()
        assert isinstance(info, dict) and info is e.infos[agent]
        assert isinstance(term, bool) and isinstance(trunc, bool)
        assert isinstance(reward, float) and reward == pytest.approx(pending[agent])
        pending[agent] = 0.0
        collected[agent] += reward
        space = e.observation_space(agent)
        assert space is e.observation_space(agent)
        assert space.contains(obs), "observation out of its space"
        assert obs["observation"].dtype == np.int8 and obs["action_mask"].dtype == np.int8
        assert (info["action_mask"] == obs["action_mask"]).all()  # AgileRL & co. read infos
        for other in e.agents:  # no decision pending for the others: all-ones masks
            if other != agent:
                assert e.observe(other)["action_mask"].all() and e.infos[other]["action_mask"].all()
        if term or trunc:
            assert term and not trunc, "every end is a termination (R-E3 included)"
            assert obs["action_mask"].all(), "no decision pending: all ones, never an empty mask"
            assert term == e.terminations[agent] and trunc == e.truncations[agent]
            assert set(info["scores"]) == set(SCORE_NAMES)
            assert info["round_limit"] == bool(raw.batch_state.round_limit[0]) and info["illegal_action"] is False
            finished.add(agent)
            action = None
        else:
            st = raw.batch_state
            assert agent == f"player_{int(st.current_player[0])}", "agent_selection must be the acting seat"
            mask = obs["action_mask"].astype(bool)
            assert mask.any(), "the acting agent must have a legal action"
            assert (mask == engine.legal_action_mask(st)[0]).all()
            action = progress_action(mask, rng)
            run = run + 1 if agent == previous else 1
            if agent != previous and previous is not None:
                run_lengths.append(prev_run)
            prev_run, previous = run, agent
        assert e.step(action) is None
        for a, r in e.rewards.items():
            assert isinstance(r, float)
            pending[a] += r
        assert set(e.rewards) == set(e.terminations) == set(e.truncations) == set(e.infos) == set(e.agents)
        assert e.num_agents == len(e.agents)
    assert finished == set(e.possible_agents) and not e.agents
    # a turn is two actions (plus tile decisions): the acting agent keeps agent_selection
    assert run_lengths and min(run_lengths) >= 2
    st = raw.batch_state
    return collected, engine.scores(st)[0], bool(st.round_limit[0]), raw


def test_conformance_many_full_episodes():
    """>= 50 complete episodes through env() (wrappers included), all player counts and
    both rule sets, short max_rounds so that R-E1 and round-limit (R-E3) endings both occur."""
    rng = np.random.default_rng(0)
    endings = {"R-E1": 0, "R-E3": 0}
    episodes = 0
    for i in range(56):
        num_players = 2 + i % 4
        rules = ("yucata", "schmidt")[i // 4 % 2]
        max_rounds = (6, 60)[i % 2]
        e = env(num_players=num_players, rules=rules, max_rounds=max_rounds)
        e.reset(seed=i)
        collected, scores, round_limit, raw = _play_episode(e, rng, num_players)
        endings["R-E3" if round_limit else "R-E1"] += 1
        episodes += 1
        # rank rewards: zero-sum, in [-1, 1], each agent's matches the engine's reward for its seat
        assert sum(collected.values()) == pytest.approx(0.0, abs=1e-5)
        ref = reference_scores(engine.to_reference(raw.batch_state, 0))  # scored independently of the engine
        expected = rank_rewards([s["total"] for s in ref], [s["stations"] // 3 for s in ref])
        assert [s["total"] for s in ref] == scores[:, 7].tolist()
        for q in range(num_players):
            assert collected[f"player_{q}"] == pytest.approx(float(expected[q]))
    assert episodes >= 50
    assert endings["R-E1"] > 0 and endings["R-E3"] > 0


def test_observation_and_action_spaces_are_fixed_objects():
    e = raw_env(num_players=3)
    for a in e.possible_agents:
        assert e.observation_space(a) is e.observation_space(a)
        assert e.action_space(a) is e.action_space(a)
        assert e.action_space(a).n == 100
    assert e.possible_agents == ["player_0", "player_1", "player_2"]
    assert e.metadata["is_parallelizable"] is False
    assert e.metadata["render_modes"] == ["ansi", "human", "rgb_array"]
    assert e.metadata["name"] == "spacemission_v3"


def test_raw_env_raises_on_illegal_action():
    e = raw_env(num_players=2)
    e.reset(seed=3)
    mask = e.observe(e.agent_selection)["action_mask"]
    illegal = int(np.flatnonzero(mask == 0)[0])
    with pytest.raises(ValueError, match="not legal"):
        e.step(illegal)
    e.step(int(np.flatnonzero(mask)[0]))  # the env is still usable


def test_wrapped_env_illegal_action_ends_game_with_minus_one():
    e = env(num_players=3)
    e.reset(seed=5)
    offender = e.agent_selection
    mask = e.last()[0]["action_mask"]
    e.step(int(np.flatnonzero(mask == 0)[0]))
    got = {}
    for agent in e.agent_iter():
        obs, reward, term, trunc, info = e.last()
        assert term and not trunc and obs["action_mask"].all()
        assert set(info["scores"]) == set(SCORE_NAMES) and info["round_limit"] is False
        assert info["illegal_action"] == (agent == offender)
        assert isinstance(reward, float)
        got[agent] = reward
        e.step(None)
    assert got[offender] == -1.0
    assert all(r == 0.0 for a, r in got.items() if a != offender) and len(got) == 3
    assert all(isinstance(r, float) for r in e.unwrapped.rewards.values())


def test_bad_arguments_raise_value_error():
    for kwargs in ({"num_players": 1}, {"num_players": 6}, {"rules": "cosmic"}, {"max_rounds": 0},
                   {"reward": "points"}, {"observation_type": "x"}, {"render_mode": "video"},
                   {"gamma": 0.0}, {"shaping": "yes"}, {"observation_dtype": "float64"},
                   {"illegal_action": "ignore"}):
        with pytest.raises(ValueError):
            raw_env(**kwargs)
    e = raw_env()
    with pytest.raises(ValueError):
        e.reset(seed=-1)


def test_seeding_replays_games_and_reset_without_seed_continues():
    def trajectory(e, steps=80):
        out = []
        for _ in range(steps):
            obs = e.observe(e.agent_selection)
            a = int(np.flatnonzero(obs["action_mask"])[0])
            out.append((e.agent_selection, a, obs["observation"].tobytes()))
            e.step(a)
        return out

    e1, e2 = raw_env(num_players=3), raw_env(num_players=3)
    e1.reset(seed=11)
    e2.reset(seed=11)
    assert trajectory(e1) == trajectory(e2)
    e1.reset()
    e2.reset()
    assert e1.game_seed == e2.game_seed
    e3 = raw_env(num_players=3)
    e3.reset(seed=12)
    assert e3.game_seed != e1.game_seed


def test_observation_matches_engine_for_every_seat():
    e = raw_env(num_players=4, rules="schmidt")
    e.reset(seed=2)
    assert e.infos[e.agent_selection]["action_mask"].any()
    for _ in range(30):
        e.step(int(np.flatnonzero(e.observe(e.agent_selection)["action_mask"])[0]))
    for q, agent in enumerate(e.possible_agents):
        expected = engine.observe(e.batch_state, player=q)[0]
        assert (e.observe(agent)["observation"] == expected).all()
    # observations are copies: changing one does not change the next
    o = e.observe("player_0")["observation"]
    o[:] = 0
    assert e.observe("player_0")["observation"].any()


def test_render_modes_and_pickle():
    e = raw_env(num_players=2, render_mode="ansi")
    e.reset(seed=0)
    text = e.render()
    assert isinstance(text, str) and "jump gate" in text
    e = raw_env(num_players=2, render_mode="rgb_array")
    e.reset(seed=0)
    img = e.render()
    assert img.dtype == np.uint8 and img.ndim == 3 and img.shape[2] == 3
    clone = pickle.loads(pickle.dumps(raw_env(num_players=4, rules="schmidt", reward="score")))
    assert clone.num_players == 4 and clone.rules == "schmidt" and clone.reward_fn.reward == "score"


def _trace(e, rng, steps):
    """(agent, action, observation bytes, rewards) for ``steps`` agent steps, across game ends."""
    out = []
    for _ in range(steps):
        if not e.agents:
            e.reset()
        obs, reward, term, trunc, info = e.last()
        action = None if term or trunc else progress_action(obs["action_mask"], rng)
        out.append((e.agent_selection, action, obs["observation"].tobytes(), reward))
        e.step(action)
    return out


@pytest.mark.parametrize("wrapped", [False, True])
@pytest.mark.parametrize("how", ["deepcopy", "pickle"])
def test_copies_are_the_same_game_at_the_same_point(wrapped, how):
    """A copy mid-game continues exactly like the original (engine state and the seeding
    generator carried over: the next games after reset() match too)."""
    e = (env if wrapped else raw_env)(num_players=3, max_rounds=8)
    e.reset(seed=7)
    _trace(e, np.random.default_rng(0), 25)
    c = copy.deepcopy(e) if how == "deepcopy" else pickle.loads(pickle.dumps(e))
    assert type(c) is type(e) and c.unwrapped is not e.unwrapped
    assert c.agent_selection == e.agent_selection
    assert (c.unwrapped.state() == e.unwrapped.state()).all()
    a = _trace(e, np.random.default_rng(1), 400)  # max_rounds=8: several games, resets included
    b = _trace(c, np.random.default_rng(1), 400)
    assert a == b
    assert e.unwrapped.game_seed == c.unwrapped.game_seed


def test_copy_is_independent_of_the_original():
    e = raw_env(num_players=2)
    e.reset(seed=3)
    c = copy.deepcopy(e)
    before = c.state().copy()
    e.step(int(np.flatnonzero(e.last()[0]["action_mask"])[0]))
    assert (c.state() == before).all() and not (e.state() == before).all()


@pytest.mark.parametrize("observation_dtype", ["float32"])
def test_float32_observations(observation_dtype):
    e = env(num_players=2, observation_dtype=observation_dtype, observation_type="seer")
    _quiet(api_test, e, num_cycles=100)
    e.reset(seed=0)
    obs = e.last()[0]
    space = e.observation_space(e.agent_selection)
    assert obs["observation"].dtype == np.float32 and space["observation"].dtype == np.float32
    assert space.contains(obs)
    ref = engine.observe(e.unwrapped.batch_state, observation_type="seer")[0]
    assert (obs["observation"] == ref.astype(np.float32)).all()
    torch = pytest.importorskip("torch")

    torch.nn.Linear(space["observation"].shape[0], 4)(torch.from_numpy(obs["observation"]))  # no cast needed


@needs_pettingzoo_registry
def test_pettingzoo_registry_make():
    import pettingzoo

    from spacemission_env.gym_env import register_envs

    register_envs()
    e = pettingzoo.make("aec", "SpaceMission-v3", num_players=3, rules="schmidt")
    assert e.unwrapped.num_players == 3 and e.unwrapped.rules == "schmidt"
    _quiet(api_test, e, num_cycles=10)


def test_docstring_table_is_generated_from_the_real_spaces():
    table = spaces_table()
    assert table in pz.__doc__, "regenerate the table in pettingzoo_env's docstring from spaces_table()"
    size = engine.observation_size("info")
    assert f"({size},)" in table and "Discrete(100)" in table
    docs = (ROOT / "docs" / "interfaces.md").read_text()
    assert table in docs, "docs/interfaces.md must contain spaces_table() verbatim"
    seer = spaces_table(observation_type="seer")
    assert f"({engine.observation_size('seer')},)" in seer
    assert re.search(r"player_0", table)


def test_human_mode_prints_every_step_and_versioned_envs_take_positional_arguments(capsys):
    """render_mode="human" prints the game after reset and every step (PettingZoo's classic
    envs do; before: only on render()). The versioned modules' raw_env takes raw_env's
    positional arguments (it took keywords only), but never a game."""
    from spacemission_env import red_planet_v2, spacemission_v3

    e = env(num_players=3, render_mode="human")
    e.reset(seed=1)
    rng = np.random.default_rng(0)
    for _ in range(2):
        e.step(progress_action(e.observe(e.agent_selection)["action_mask"].astype(bool), rng))
    assert capsys.readouterr().out.count("Space Mission [yucata] 3 players") == 3
    assert spacemission_v3.raw_env(4, "yucata", 30).num_players == 4
    assert red_planet_v2.raw_env(5).num_players == 5
    with pytest.raises(TypeError, match="at most 11 positional arguments"):
        spacemission_v3.raw_env(*[None] * 12)


@pytest.mark.parametrize("game", ["spacemission", "red_planet"])
def test_step_after_every_agent_left_changes_nothing(game):
    """Once every agent has stepped None at the end (agents == []), raw_env.step raises a
    ValueError saying to reset, whatever the action, and the game stays as it was (last()
    still says so, the scores still read); env()'s wrapper keeps PettingZoo's convention:
    its warning, nothing played. Pins the behaviour the module doc states."""
    from pettingzoo.utils.env_logger import EnvLogger

    kwargs = {"max_rounds": 1} if game == "spacemission" else {}
    for build in (raw_env, env):
        e = build(game=game, **kwargs)
        e.reset(seed=0)
        for agent in e.agent_iter():
            obs, _, term, trunc, _ = e.last()
            e.step(None if term or trunc else int(np.flatnonzero(obs["action_mask"])[0]))
        assert e.agents == []
        before = e.unwrapped.batch_state.terminated.copy(), e.unwrapped.reference_state().to_json()
        EnvLogger.flush()
        for action in (None, 0, np.int64(0)):
            if build is raw_env:
                with pytest.raises(ValueError, match=re.escape("every agent has left the finished game: call reset()")):
                    e.step(action)
            else:
                e.step(action)
        if build is env:
            assert EnvLogger.mqueue and all("after all agents are terminated or truncated" in m
                                            for m in EnvLogger.mqueue)
            EnvLogger.flush()
        assert e.agents == [] and e.unwrapped.reference_state().to_json() == before[1]
        with pytest.raises(ValueError, match="every agent has left the finished game"):
            e.last()
