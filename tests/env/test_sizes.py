"""Batch sizes past the machine's memory are refused before anything is allocated, naming
the argument (``num_envs``, ``batch_size``), what the games need and what the machine has.
Before: numpy reserved the zeroed arrays and the first reset filled them page by page until
the system killed the process; under a memory limit, a bare MemoryError from deep inside."""
import numpy as np
import pytest

from spacemission_env import checks
from spacemission_env.red_planet.engine import api as rp_engine
from spacemission_env.space_mission.engine import api as sm_engine
from spacemission_env.space_mission.engine.state import game_bytes
from spacemission_env.vector import VectorEnv
from tests.helpers.sb3 import vec_env

MiB = 2**20

BUILDERS = {
    "sm engine": (lambda n: sm_engine.init(n, 2), "batch_size"),
    "rp engine": (lambda n: rp_engine.init(n, 3), "batch_size"),
    "sm VecEnv": (lambda n: vec_env(n, num_players=2), "num_envs"),
    "rp VecEnv": (lambda n: vec_env(n, game="red_planet", num_players=3), "num_envs"),
    "sm VectorEnv": (lambda n: VectorEnv(n, num_players=2), "num_envs"),
    "rp VectorEnv": (lambda n: VectorEnv(n, game="red_planet", num_players=3), "num_envs"),
}


@pytest.mark.parametrize("name", BUILDERS)
@pytest.mark.parametrize("n", [2**40, 2**63, np.int64(2**62)])
def test_a_batch_past_this_machines_memory_is_named(name, n):
    build, arg = BUILDERS[name]
    with pytest.raises(ValueError, match=rf"^{arg}={int(n):,}: that many games need at least [0-9,.]+ GiB .* more "
                                         r"than this machine's [0-9,.]+ GiB of memory; play fewer at once$"):
        build(n)


@pytest.mark.parametrize("name", BUILDERS)
def test_the_limit_is_the_machines_memory(name, monkeypatch):
    """With 1 MiB of memory (monkeypatched), 2,000 games are refused and 16 are built."""
    monkeypatch.setattr(checks, "physical_memory", lambda: 1 * MiB)
    build, arg = BUILDERS[name]
    with pytest.raises(ValueError, match=rf"{arg}=2,000: .* more than this machine's 0.0 GiB"):
        build(2000)
    built = build(16)
    assert getattr(built, "batch_size", getattr(built, "num_envs", None)) == 16


def test_no_limit_where_the_system_does_not_say(monkeypatch):
    monkeypatch.setattr(checks, "physical_memory", lambda: None)
    checks.check_batch_memory(2**62, 1024, "num_envs")  # nothing to compare with: no refusal


def test_the_engines_count_their_state_bytes():
    """The Space Mission check uses the state's real size per game (the batch's arrays)."""
    for p in range(2, 6):
        st = sm_engine.init(3, p)
        assert sum(getattr(st, f).nbytes for f in st.__dict__ if isinstance(getattr(st, f), np.ndarray)
                   and getattr(st, f).shape[:1] == (3,) and f != "all_games") == 3 * game_bytes(p)


def test_physical_memory_is_this_machines():
    have = checks.physical_memory()
    assert have is None or 2**26 < have < 2**50
