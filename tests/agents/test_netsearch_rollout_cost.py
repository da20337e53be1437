"""benchmarks/netsearch_rollout_cost.py: the parts of a simulation ply, timed apart
(docs/agents_netsearch.md, "What a simulation costs")."""
import numpy as np
import pytest

from spacemission_agents.ppo import PPOAgent
from spacemission_env.games import GameConfig
from spacemission_env.space_mission import engine
from tests.helpers.paths import load_tool


@pytest.fixture(scope="module")
def cost():
    return load_tool("netsearch_rollout_cost", folder="benchmarks")


def _self_play_plies(rows: int, seed: int) -> tuple[int, int]:
    """Plies and row-plies of the shipped policy playing both seats of the benchmark's games."""
    policy = PPOAgent.load_shipped(2)
    policy.bind(GameConfig(2))
    st = engine.init(rows, 2, seeds=np.arange(rows) + seed * 1_000_003)
    plies = row_plies = 0
    while not st.terminated.all():
        live = ~st.terminated
        act = np.zeros(rows, np.int64)
        act[live] = policy.act_batch(engine.observe(st, observation_type="recall")[live],
                                     engine.legal_action_mask(st)[live])
        engine.step(st, act, select=live)
        plies, row_plies = plies + 1, row_plies + int(live.sum())
    return plies, row_plies


def test_the_timed_games_are_the_policys_own(cost):
    """Timing the prior apart does not change the moves: the same games as plain self-play,
    every part timed, the prior's kernel and the network non-zero."""
    r = cost.ply_costs(rows=3, waves=1, seed=2)
    assert (r["plies"], r["row_plies"]) == _self_play_plies(3, 2)
    assert set(r["seconds"]) == set(cost.PARTS) and min(r["seconds"].values()) >= 0
    assert r["seconds"]["prior: kernel"] > 0 and r["seconds"]["policy: network"] > 0


def test_bad_arguments_are_refused(cost):
    for argv in (["--rows", "0"], ["--waves", "0"], ["--seed", "-1"]):
        with pytest.raises(SystemExit):
            cost.main(argv)
