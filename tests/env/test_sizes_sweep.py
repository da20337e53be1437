"""Very large sizes in the package (sizes sweep): a clear ValueError naming the argument,
before anything is allocated, instead of a bare MemoryError or numpy's "Maximum allowed
dimension exceeded" from deep inside; and every round limit a game may have round-trips
through the state JSON. Each test failed before its fix (tests/env/test_sizes.py has the
batch sizes of the engines and envs)."""
import re

import numpy as np
import pytest

from spacemission_env import checks
from spacemission_env.space_mission.config import MAX_ROUNDS_LIMIT
from spacemission_env.space_mission.determinize import sample_worlds_from_observation
from spacemission_env.space_mission.engine import api as engine
from spacemission_env.space_mission.rules import game as G
from spacemission_env.space_mission.rules.state_json import state_from_json, state_to_json

MiB = 2**20


@pytest.fixture(scope="module")
def recall_obs():
    st = engine.init(1, 2, seeds=3)
    return engine.observe(st, observation_type="recall")[0]


@pytest.mark.parametrize("k", [10**18, 2**62, 2**70])
def test_sample_worlds_refuses_k_past_memory_naming_it(recall_obs, k):
    """Before: 10**18 raised numpy's MemoryError ("Unable to allocate 7.1 EiB" for the seeds),
    2**70 a ValueError "Maximum allowed dimension exceeded", neither naming k."""
    text = re.escape(checks.count_text(k))
    with pytest.raises(ValueError, match=rf"^k={text}: that many worlds need at least [0-9,.e+]+ GiB for their states "
                                         r"alone, more than this machine's [0-9,.]+ GiB of memory; sample fewer at once$"):
        sample_worlds_from_observation(recall_obs, 2, k=k, rng=np.random.default_rng(0))


def test_sample_worlds_limit_is_the_machines_memory(recall_obs, monkeypatch):
    monkeypatch.setattr(checks, "physical_memory", lambda: 1 * MiB)
    with pytest.raises(ValueError, match=r"^k=2,000: that many worlds need .* more than this machine's 0.0 GiB"):
        sample_worlds_from_observation(recall_obs, 2, k=2000, rng=np.random.default_rng(0))
    assert sample_worlds_from_observation(recall_obs, 2, k=16, rng=np.random.default_rng(0)).batch_size == 16


@pytest.mark.parametrize("max_rounds", [10**9 + 1, MAX_ROUNDS_LIMIT])
def test_state_json_round_trips_every_round_limit(max_rounds):
    """Before: the JSON reader took max_rounds (and a visit's round) up to 10**9 only, while a
    game may have up to 2**31 - 1 rounds: state_to_json wrote files that state_from_json refused."""
    s = G.new_game(2, seed=1, max_rounds=max_rounds)
    for _ in range(12):
        G.apply(s, G.legal_actions(s)[0])
    back = state_from_json(state_to_json(s))
    assert back == s and back.max_rounds == max_rounds
    assert state_from_json(state_to_json(back)) == s


def test_state_json_round_of_a_visit_up_to_the_limit():
    s = G.new_game(2, seed=1, max_rounds=MAX_ROUNDS_LIMIT)
    s.round = MAX_ROUNDS_LIMIT - 1
    s.players[0].last_seen_round[0] = MAX_ROUNDS_LIMIT - 1
    s.players[0].last_seen[0] = list(s.piles[0])
    assert state_from_json(state_to_json(s)).players[0].last_seen_round[0] == MAX_ROUNDS_LIMIT - 1
    d = state_to_json(s).replace(f'"max_rounds": {MAX_ROUNDS_LIMIT}', f'"max_rounds": {MAX_ROUNDS_LIMIT + 1}')
    with pytest.raises(ValueError, match=rf"max_rounds must be an integer in \[1, {MAX_ROUNDS_LIMIT}\], got {MAX_ROUNDS_LIMIT + 1}"):
        state_from_json(d)


def test_count_text_and_check_memory(monkeypatch):
    assert checks.count_text(1234567) == "1,234,567" and checks.count_text(2**63) == "9,223,372,036,854,775,808"
    assert checks.count_text(10**300) == "1e+300" and checks.count_text(1536.25) == "1,536.2"
    monkeypatch.setattr(checks, "physical_memory", lambda: 4 * 2**30)
    checks.check_memory("x need", 4 * 2**30, "less")  # exactly what the machine has: allowed
    with pytest.raises(ValueError, match=r"^x need at least 4.0 GiB here, more than this machine's 4.0 GiB of memory; "
                                         r"less$"):
        checks.check_memory("x need", 4 * 2**30 + 1, "less", " here")
    with pytest.raises(ValueError, match=r"^x need at least 9.31e\+290 GiB, more"):
        checks.check_memory("x need", 10**300, "less")
    monkeypatch.setattr(checks, "physical_memory", lambda: None)
    checks.check_memory("x need", 10**300, "less")  # the system does not say: nothing to compare with
