"""Both games through the surrounding libraries the way a researcher uses them: defects found
by trying Gymnasium's registry, PettingZoo's AEC loop and SB3's VecEnv API, each test
failing on the code before its fix."""
from __future__ import annotations

import re

import gymnasium
import numpy as np
import pettingzoo
import pytest

import spacemission_env  # noqa: F401  (registers the ids)
from spacemission_env import red_planet_v2, spacemission_v3
from spacemission_env.gym_env import GameEnv
from spacemission_env.pettingzoo_env import raw_env as shared_raw_env
from tests.helpers.sb3 import GameVecEnv, needs_sb3
from tests.helpers.versions import PETTINGZOO_REGISTRY

IDS = {"spacemission": "SpaceMission-v3", "red_planet": "RedPlanet-v2"}
OTHER = {"spacemission": "red_planet", "red_planet": "spacemission"}


# --- the registered ids name their game -------------------------------------------------------
def _made_and_vectorised_refuse(env_id: str, text: str, **kwargs) -> None:
    """gymnasium.make and make_vec of ``env_id`` with ``kwargs`` raise TypeError saying ``text``."""
    with pytest.raises(TypeError, match=re.escape(text)):
        gymnasium.make(env_id, **kwargs)
    with pytest.raises(TypeError, match=re.escape(text)):
        gymnasium.make_vec(env_id, num_envs=2, vectorization_mode="sync", **kwargs)


@pytest.mark.parametrize("game", ["spacemission", "red_planet"])
def test_registered_ids_refuse_a_game_argument(game):
    """Before: ``gymnasium.make("RedPlanet-v2", game="spacemission")`` built a Space Mission env
    under the Red Planet id (the registry's ``game`` kwarg was silently overridden), and
    ``pettingzoo.make("aec", "SpaceMission-v3", game="red_planet")`` / ``spacemission_v3.env(
    game="red_planet")`` played Red Planet, while ``red_planet_v2`` already refused a game."""
    env_id, other = IDS[game], OTHER[game]
    text = f"{env_id} plays {game!r}; it takes no game argument (got game={other!r}); make the id of the game you want"
    _made_and_vectorised_refuse(env_id, text, game=other)
    module = spacemission_v3 if game == "spacemission" else red_planet_v2
    pz_text = f"{module.__name__.rsplit('.', 1)[1]} plays {game!r}; it takes no game argument (got game={other!r})"
    makers = [lambda: module.env(game=other), lambda: module.raw_env(game=other)]
    if PETTINGZOO_REGISTRY:
        makers.append(lambda: pettingzoo.make("aec", env_id, game=other))
    for make in makers:
        with pytest.raises(TypeError, match=re.escape(pz_text)):
            make()
    # without it, each id builds its own game, and the spec rebuilds the same env
    env = gymnasium.make(env_id, num_players=4)
    assert env.unwrapped.game.name == game and env.unwrapped.num_players == 4
    assert isinstance(env.unwrapped, GameEnv)
    again = gymnasium.make(env.spec)
    assert again.unwrapped.game.name == game and again.unwrapped.num_players == 4
    assert env.reset(seed=3)[0].tobytes() == again.reset(seed=3)[0].tobytes()
    assert spacemission_v3.raw_env().metadata["name"] == "spacemission_v3"
    if not PETTINGZOO_REGISTRY:
        return
    aec = pettingzoo.make("aec", env_id, num_players=4)
    assert isinstance(aec.unwrapped, module.raw_env) and isinstance(aec.unwrapped, shared_raw_env)
    assert aec.unwrapped.game.name == game and aec.unwrapped.illegal_action == "lose"


@pytest.mark.parametrize("game", ["spacemission", "red_planet"])
def test_registered_ids_refuse_the_entry_points_game_keyword(game):
    """Before: the ids were registered with ``kwargs={"registered_game": game}``, which
    ``gymnasium.make``'s own kwargs override, so ``gymnasium.make("RedPlanet-v2",
    registered_game="spacemission")`` (or a Space Mission spec's kwargs passed on) built a Space
    Mission env under the Red Planet id. Each id's entry point now binds its game."""
    env_id, other = IDS[game], OTHER[game]
    text = f"{env_id} plays {game!r}; it takes no registered_game argument (got registered_game={other!r})"
    _made_and_vectorised_refuse(env_id, text, registered_game=other)
    spec = gymnasium.spec(env_id)
    assert "registered_game" not in spec.kwargs
    env = gymnasium.make(env_id, **spec.kwargs)
    assert env.unwrapped.game.name == game

# --- PettingZoo: last() once the game is over -------------------------------------------------
@pytest.mark.parametrize("module", [spacemission_v3, red_planet_v2])
def test_last_after_every_agent_left_names_reset(module):
    """Before: once every agent had stepped None at the end, ``last()`` raised a bare
    ``KeyError: 'player_1'`` (the agent's entries were gone); now a ValueError saying to reset,
    like ``step()``'s, and reset() starts a new game."""
    e = module.raw_env(num_players=3, max_rounds=1) if module is spacemission_v3 else module.raw_env()
    e.reset(seed=0)
    rng = np.random.default_rng(0)
    for agent in e.agent_iter():
        obs, _, term, trunc, _ = e.last()
        e.step(None if term or trunc else int(rng.choice(np.flatnonzero(obs["action_mask"]))))
    assert e.agents == [] and e.agent_selection in e.possible_agents
    text = (f"every agent has left the finished game (the last selected was {e.agent_selection}): "
            f"call reset() before last()")
    for observe in (True, False):
        with pytest.raises(ValueError, match=re.escape(text)):
            e.last(observe)
    wrapped = module.env(num_players=3, max_rounds=1) if module is spacemission_v3 else module.env()
    wrapped.reset(seed=0)
    for agent in wrapped.agent_iter():
        obs, _, term, trunc, _ = wrapped.last()
        wrapped.step(None if term or trunc else int(rng.choice(np.flatnonzero(obs["action_mask"]))))
    with pytest.raises(ValueError, match="every agent has left the finished game"):
        wrapped.last()
    e.reset(seed=1)
    obs, reward, term, trunc, info = e.last()
    assert reward == 0.0 and not term and not trunc and obs["action_mask"].any()


# --- SB3 VecEnv: set_attr ----------------------------------------------------------------------
@needs_sb3
def test_sb3_set_attr_checks_indices_values_and_fixed_attributes():
    """Before: ``set_attr`` ignored ``indices`` (``indices=[0]`` changed every game, ``[5]``
    answered for a game that does not exist), set ``seat=7`` unchecked (the games then had no
    learner), and accepted ``opponents``, ``seats``, ``gamma`` and the like, which changed
    nothing (the env reads its bound policy table and reward function) or broke the games."""
    v = GameVecEnv(3, game="red_planet", seed=0)
    obs = v.reset()
    seats = v.seats.copy()
    masks = v.action_masks()
    with pytest.raises(ValueError, match=re.escape("set_attr('seat'): attributes are shared by all 3 games, set them "
                                                   "for every game (indices=None), got indices=[0]")):
        v.set_attr("seat", 1, indices=[0])
    with pytest.raises(IndexError, match=re.escape("indices: game index 5 is out of range for 3 games (0..2)")):
        v.set_attr("seat", 1, indices=[0, 1, 2, 5])
    with pytest.raises(ValueError, match=re.escape("seat must be 'random' or a seat in 0..2, got 7")):
        v.set_attr("seat", 7)
    with pytest.raises(TypeError, match=re.escape("seat must be 'random' or a seat in 0..2, got True")):
        v.set_attr("seat", True)
    with pytest.raises(ValueError, match=re.escape("unknown render_mode 'video'; expected None or one of "
                                                   "['ansi', 'human', 'rgb_array']")):
        v.set_attr("render_mode", "video")
    for name, value, hint in [("opponents", [], " (a pool's policies: set_opponent_pool)"),
                              ("seats", 0, " (per game, drawn at each game's start: set 'seat')"),
                              ("gamma", 0.9, ""), ("num_players", 4, ""), ("reward_fn", None, ""),
                              ("_rng", None, ""), ("step_wait", None, "")]:
        with pytest.raises(ValueError, match=re.escape(f"set_attr({name!r}): {name} is fixed when the env is built"
                                                       f"{hint}; build a new GameVecEnv to change it")):
            v.set_attr(name, value)
    assert v.seat == "random" and v.render_mode is None and (v.seats == seats).all() and v.num_players == 3
    assert (v.action_masks() == masks).all() and not hasattr(v, "gamma")
    # what can be set: the seat of the games drawn from now on (every game: indices None or all of them)
    v.set_attr("seat", 2, indices=[2, 0, 1])
    v.set_attr("tag", "run-1")
    assert v.get_attr("seat") == [2, 2, 2] and v.get_attr("tag") == ["run-1"] * 3
    assert obs.shape == (3, 957) and (v.seats == seats).all()  # the games in progress keep their seats
    assert (v.reset() is not None) and v.seats.tolist() == [2, 2, 2]


@needs_sb3
def test_sb3_set_attr_and_env_method_name_a_bad_name():
    """Before: ``set_attr(5, ...)`` and ``set_attr(None, ...)`` failed inside with
    "'int' object has no attribute 'startswith'", ``set_attr(["x"], ...)`` with "unhashable
    type: 'list'", and ``env_method("num_envs")`` with "'int' object is not callable"."""
    v = GameVecEnv(2, seed=0)
    v.reset()
    masks = v.action_masks()
    for name in (5, None, ["x"]):
        with pytest.raises(TypeError, match=re.escape(f"set_attr: attr_name must be a str, got {name!r}")):
            v.set_attr(name, 1)
    with pytest.raises(TypeError, match=re.escape("env_method('num_envs'): num_envs is not a method of GameVecEnv "
                                                  "(it is int); read it with get_attr")):
        v.env_method("num_envs")
    assert (v.action_masks() == masks).all() and v.get_attr("num_envs") == [2, 2]


# --- Gymnasium's masked sampler, as docs/interfaces.md says to call it ------------------------
@pytest.mark.parametrize("game", ["spacemission", "red_planet"])
def test_gymnasium_masked_sample_plays_legal_moves_to_the_end(game):
    """``info["action_mask"]`` is bool (documented); Gymnasium's ``Discrete.sample(mask=)``
    asks for int8, so the documented call converts it, and every draw is then legal (an
    illegal one would raise with ``illegal_action="raise"``) until the game ends."""
    env = gymnasium.make(IDS[game], illegal_action="raise")
    obs, info = env.reset(seed=5)
    env.action_space.seed(5)
    assert info["action_mask"].dtype == np.bool_
    with pytest.raises(AssertionError, match="int8"):
        env.action_space.sample(mask=info["action_mask"])
    for steps in range(20_000):
        obs, _, terminated, truncated, info = env.step(env.action_space.sample(mask=info["action_mask"].astype(np.int8)))
        if terminated or truncated:
            break
    assert terminated and not truncated and info["scores"] and "is_success" in info and steps > 10


def test_the_versioned_modules_classes_carry_their_own_name():
    """Found by a new-user review: the Red Planet module's raw_env.metadata["name"] read
    Space Mission's name until an instance set its own (PettingZoo's classic envs set it on
    the class)."""
    from spacemission_env import red_planet_v2

    for module in (spacemission_v3, red_planet_v2):
        name = module.__name__.rsplit(".", 1)[-1]
        assert module.raw_env.metadata["name"] == name == module.raw_env().metadata["name"]
        assert module.raw_env.metadata["render_modes"] == module.raw_env().metadata["render_modes"]
