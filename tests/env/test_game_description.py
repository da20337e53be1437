"""The game description (config.SPACE_MISSION, a game_description.GameDescription) against
the real engine, components and spaces, and the version it declares against the registries.
A failure here after a change of the game means: update the description, and bump the
version when the same seed and actions now give a different game or observation
(docs/versioning.md)."""
import dataclasses
import importlib
import importlib.machinery
import json
import re

import gymnasium
import numpy as np
import pettingzoo
import pytest

import spacemission_env
from spacemission_env import RED_PLANET, SPACE_MISSION, GameConfig, GameDescription, RewardScheme
from spacemission_env.space_mission import engine
from spacemission_env.space_mission.actions import NUM_ACTIONS
from spacemission_env.space_mission.components import (
    GATE_RANK_POINTS,
    MAX_PLAYERS,
    MIN_PLAYERS,
    NUM_POINT_TYPES,
    RING_SIZE,
    STATION_POINTS,
    TILE_COUNTS,
)
from spacemission_env.space_mission.encoding import OBSERVATION_TYPES
from spacemission_env.gym_env import SpaceMissionEnv
from spacemission_env.pettingzoo_env import raw_env
from spacemission_env.rewards import SCORE_SCALE, RewardFunction
from spacemission_env.space_mission.scoring import tile_points
from spacemission_env.vector import VectorEnv
from tests.helpers.paths import ROOT
from tests.helpers.versions import PETTINGZOO_REGISTRY

D = SPACE_MISSION


# --- against the engine and the components ---------------------------------------------------
def test_actions_players_and_observation_sizes_are_the_engines():
    assert D.num_actions == NUM_ACTIONS
    assert (D.min_players, D.max_players) == (MIN_PLAYERS, MAX_PLAYERS)
    assert D.observation_types == OBSERVATION_TYPES
    for t in OBSERVATION_TYPES:
        assert D.observation_size(t) == engine.observation_size(t), f"{t}: the observation changed (a new version?)"
    st = engine.init(4, 3, seeds=0)
    assert engine.legal_action_mask(st).shape == (4, D.num_actions)
    assert engine.observe(st).dtype == np.dtype(D.observation_dtype)


def test_player_range_is_what_a_game_config_accepts():
    for n in range(D.min_players, D.max_players + 1):
        GameConfig(num_players=n)
    for n in (D.min_players - 1, D.max_players + 1):
        with pytest.raises(ValueError, match="num_players"):
            GameConfig(num_players=n)


def test_score_bound_is_the_most_points_one_seat_can_hold():
    """R-P1 rank 1, a station on every ring planet (R-A5), every point tile (the scoring
    of each category grows with the tiles held)."""
    most = int(GATE_RANK_POINTS[0]) + STATION_POINTS * RING_SIZE + tile_points(
        [int(c) for c in TILE_COUNTS[:NUM_POINT_TYPES]])["total"]
    assert D.reward_range("score") == (-most / SCORE_SCALE, most / SCORE_SCALE)
    assert D.reward_range("win") == (-1.0, 1.0)


@pytest.mark.parametrize("num_players", [2, 3, 5])
def test_random_games_stay_inside_the_declared_ranges_and_lengths(num_players):
    """Observations in [low, high] for every type, terminal rewards in each scheme's range
    summing to 0 (zero-sum), no turn longer than max_steps_per_turn agent steps (and
    some turn that long, so the bound is not loose), no game past max_game_length."""
    max_rounds = 4
    venv = VectorEnv(48, num_players=num_players, max_rounds=max_rounds, seed=num_players)
    rng = np.random.default_rng(0)
    schemes = {name: RewardFunction(name) for name in D.reward_names}
    obs, mask, player, _ = venv.reset()
    run = np.zeros(venv.num_envs, dtype=np.int64)
    longest_turn = longest_game = ended = 0
    for _ in range(600):
        st = venv.batch_state
        for t in D.observation_types:
            o = engine.observe(st, observation_type=t)
            assert o.min() >= D.observation_low and o.max() <= D.observation_high
        before = player.copy()
        obs, mask, player, _, terminated, _, infos = venv.step(engine.sample_actions(mask, rng, by_kind=True))
        run += 1
        turn_over = terminated | (player != before)
        longest_turn = max(longest_turn, int(run[turn_over].max(initial=0)))
        run[turn_over] = 0
        if terminated.any():
            ended += int(terminated.sum())
            longest_game = max(longest_game, int(infos["episode_length"].max()))
    assert ended > 20
    assert longest_turn == D.max_steps_per_turn
    assert longest_game <= D.max_game_length(num_players, max_rounds)
    # terminal rewards of finished games, scheme by scheme
    st = engine.init(64, num_players, seeds=1, max_rounds=3)
    while not st.terminated.all():
        engine.step(st, engine.sample_actions(engine.legal_action_mask(st), rng, by_kind=True))
    for name, rf in schemes.items():
        low, high = D.reward_range(name)
        r = rf.terminal(st)
        assert r.min() >= low and r.max() <= high
        assert D.reward_schemes[name].utility == "zero_sum"
        assert np.allclose(r.sum(axis=1), 0.0, atol=1e-5)


# --- the interfaces read it --------------------------------------------------------------------
@pytest.mark.parametrize("observation_type", ["info", "seer"])
def test_every_interface_declares_the_description(observation_type):
    size = D.observation_size(observation_type)
    aec = raw_env(num_players=3, observation_type=observation_type)
    a = aec.possible_agents[0]
    assert aec.observation_space(a)["observation"].shape == (size,)
    assert aec.observation_space(a)["action_mask"].shape == (D.num_actions,)
    assert aec.action_space(a).n == D.num_actions
    assert aec.metadata["name"] == D.versioned_name == f"spacemission_v{D.version}"
    assert aec.state_space.shape == (D.observation_size("seer"),)
    gym = SpaceMissionEnv(num_players=3, observation_type=observation_type)
    assert gym.observation_space.shape == (size,) and gym.action_space.n == D.num_actions
    box = gym.observation_space
    assert box.low.min() == D.observation_low and box.high.max() == D.observation_high
    vec = VectorEnv(2, observation_type=observation_type)
    assert vec.single_observation_space.shape == (size,) and vec.num_actions == D.num_actions
    for e in (aec, gym, vec):
        assert e.description is D and e.observation_size == size


def test_sb3_vecenv_declares_the_description():
    pytest.importorskip("stable_baselines3")  # spacemission_env.sb3 raises ImportError, which pytest 9 does not skip
    sb3 = pytest.importorskip("spacemission_env.sb3")
    venv = sb3.SpaceMissionVecEnv(2, observation_type="seer")
    assert venv.observation_space.shape == (D.observation_size("seer"),) and venv.action_space.n == D.num_actions
    assert venv.description is D


# --- the version ---------------------------------------------------------------------------------
BOTH_GAMES = pytest.mark.parametrize("d", [SPACE_MISSION, RED_PLANET], ids=["spacemission", "red_planet"])


@BOTH_GAMES
def test_registries_know_the_current_version_only(d):
    """Each game's old id is answered by both registries with an error naming the current
    one (docs/versioning.md); Red Planet's was not checked before."""
    assert d.env_id == f"{d.registry_name}-v{d.version}"
    assert d.env_id in gymnasium.registry
    old = f"{d.registry_name}-v{d.version - 1}"
    with pytest.warns(DeprecationWarning), pytest.raises(gymnasium.error.DeprecatedEnv,
                                                          match=f"Please use `{d.env_id}`"):
        gymnasium.make(old)
    if not PETTINGZOO_REGISTRY:  # PettingZoo < 1.27
        return
    assert d.env_id in pettingzoo.aec_registry
    with pytest.raises(Exception, match=f"Available version: v{d.version}"):
        pettingzoo.make("aec", old)


def test_the_current_versions():
    """SpaceMission-v3 and RedPlanet-v2: the rank rewards' closed form changed 4-player rewards
    of both games (docs/changelog.md)."""
    assert (SPACE_MISSION.env_id, SPACE_MISSION.versioned_name) == ("SpaceMission-v3", "spacemission_v3")
    assert (RED_PLANET.env_id, RED_PLANET.versioned_name) == ("RedPlanet-v2", "red_planet_v2")


@BOTH_GAMES
def test_versioned_module_in_pettingzoo_style(d):
    module = importlib.import_module(f"spacemission_env.{d.versioned_name}")
    assert module is getattr(spacemission_env, d.versioned_name)
    e = module.env(num_players=d.min_players)
    e.reset(seed=0)
    assert str(e) == d.versioned_name and isinstance(e.unwrapped, module.raw_env)
    # the old version's module is gone from the package (an editable install's finder may
    # still reach another checkout's copy by name, so the package folder is searched itself)
    old = f"{d.name}_v{d.version - 1}"
    assert importlib.machinery.PathFinder.find_spec(old, spacemission_env.__path__) is None
    assert not hasattr(spacemission_env, old)


@BOTH_GAMES
def test_changelog_records_the_current_version(d):
    """A heading of docs/changelog.md names each game's current id (one entry may name both:
    "## SpaceMission-v2 and RedPlanet-v1 (...)")."""
    changelog = (ROOT / "docs" / "changelog.md").read_text()
    headings = [line for line in changelog.splitlines() if line.startswith("## ")]
    assert any(re.search(rf"\b{re.escape(d.env_id)}\b", h) for h in headings), d.env_id
    assert "docs/versioning.md" in changelog or "versioning.md" in changelog
    assert (ROOT / "docs" / "versioning.md").is_file()


# --- the dataclass itself (game-agnostic) -------------------------------------------------------
def _another_game(**overrides) -> GameDescription:
    fields = dict(name="redplanet", title="Mission: Red Planet", registry_name="RedPlanet", version=1,
                  min_players=3, max_players=5, num_actions=40, observation_sizes={"info": 300},
                  observation_low=0, observation_high=60, observation_dtype="int8",
                  reward_schemes={"win": RewardScheme(-1.0, 1.0, "zero_sum")}, max_steps_per_turn=2,
                  dynamics="sequential", chance_mode="sampled_stochastic", information="imperfect")
    return GameDescription(**{**fields, **overrides})


def test_a_second_game_describes_itself_with_the_same_dataclass():
    g = _another_game()
    assert g.env_id == "RedPlanet-v1" and g.versioned_name == "redplanet_v1"
    assert g.max_game_length(4, 10) == 4 * 10 * 2
    with pytest.raises(ValueError, match="num_players must be in 3..5, got 2"):
        g.max_game_length(2, 10)
    with pytest.raises(ValueError, match="unknown observation_type 'seer'"):
        g.observation_size("seer")
    with pytest.raises(ValueError, match="unknown reward 'score'"):
        g.reward_range("score")


@pytest.mark.parametrize("overrides, text", [
    ({"version": -1}, "version must be a non-negative integer, got -1"),
    ({"min_players": 6}, "min_players 6 exceeds max_players 5"),
    ({"dynamics": "parallel"}, "dynamics must be one of"),
    ({"chance_mode": "random"}, "chance_mode must be one of"),
    ({"information": "partial"}, "information must be one of"),
    ({"observation_sizes": {"info": 0}}, "observation_sizes['info'] must be a positive integer"),
    ({"reward_schemes": {"win": (-1, 1)}}, "reward_schemes['win'] must be a RewardScheme"),
    ({"name": ""}, "name must be a non-empty str"),
])
def test_bad_descriptions_are_refused(overrides, text):
    with pytest.raises(ValueError, match=text.replace("[", r"\[").replace("]", r"\]")):
        _another_game(**overrides)


def test_bad_reward_schemes_are_refused():
    with pytest.raises(ValueError, match="low < high"):
        RewardScheme(1.0, -1.0, "zero_sum")
    with pytest.raises(ValueError, match="utility must be one of"):
        RewardScheme(-1.0, 1.0, "fair")


def test_description_is_frozen_and_machine_readable():
    with pytest.raises(dataclasses.FrozenInstanceError):
        D.version = 2
    with pytest.raises(TypeError):
        D.observation_sizes["info"] = 1
    data = json.loads(json.dumps(D.as_dict()))
    assert data["env_id"] == D.env_id and data["observation_sizes"]["info"] == D.observation_size("info")
    assert data["reward_schemes"]["score"]["high"] == D.reward_range("score")[1]
    assert (data["information"], data["dynamics"], data["chance_mode"]) == ("imperfect", "sequential",
                                                                            "sampled_stochastic")
