"""The registered Gymnasium ids have no ``vector_entry_point`` (docs/interfaces.md, "Gymnasium
single-agent env"). Gymnasium 1.x's ``register`` takes one, which ``gymnasium.make_vec(id,
num_envs=N, vectorization_mode="vector_entry_point")`` would build; neither batched env here
follows ``gymnasium.vector.VectorEnv``'s API, so neither is registered as one:

* ``sb3.GameVecEnv`` (one learner seat per game, batched opponents) is an SB3 ``VecEnv``:
  ``reset()`` takes no seed or options and returns the observations alone, ``step`` returns
  ``(obs, rewards, dones, [info per env])`` with the ended game's last observation in
  ``infos[i]["terminal_observation"]``, and its ``observation_space`` is one game's. The
  names ``reset``, ``step``, ``seed`` and ``render`` are SB3's there, so the class cannot
  also be Gymnasium's ``(obs, infos)`` / five-tuple vector env with batched spaces.
* ``vector.VectorEnv`` is self-play (every seat chosen by the caller): ``reset`` returns
  ``(obs, mask, player, infos)`` and ``step`` a seven-tuple; there is no single learner seat.

``make_vec``'s default is then ``"sync"`` (one ``GameEnv`` per sub-env, tested in
test_env_gym.py), and the ``"vector_entry_point"`` mode raises Gymnasium's own error."""
import gymnasium
import pytest

from spacemission_env.gym_env import register_envs


@pytest.mark.parametrize("env_id", ["SpaceMission-v3", "RedPlanet-v2"])
def test_no_vector_entry_point_is_registered(env_id):
    register_envs()  # idempotent (import spacemission_env did it)
    assert gymnasium.spec(env_id).vector_entry_point is None
    with pytest.raises(gymnasium.error.Error, match="vector entry point"):
        gymnasium.make_vec(env_id, num_envs=2, vectorization_mode="vector_entry_point")
