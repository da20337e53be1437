"""benchmarks/netsearch_decision_time.py: NetSearchAgent's time per decision by stage, on the
network's own games (docs/agents_netsearch.md, "Budget")."""
import pytest

from spacemission_agents.ppo import PPOAgent
from spacemission_env.games import GameConfig
from spacemission_env.space_mission import engine
from tests.helpers.paths import load_tool


@pytest.fixture(scope="module")
def bench():
    return load_tool("netsearch_decision_time", folder="benchmarks")


def _seat0_choices(seed: int) -> list[int]:
    """Plies where seat 0 has more than one legal action in the policy's self-play game."""
    policy = PPOAgent.load_shipped(2)
    policy.bind(GameConfig(2))
    st = engine.init(1, 2, seeds=seed)
    plies, ply = [], 0
    while not st.terminated[0]:
        obs, mask = engine.observe(st, observation_type="recall"), engine.legal_action_mask(st)
        if st.current_player[0] == 0 and mask.sum() > 1:
            plies.append(ply)
        engine.step(st, policy.act_batch(obs, mask))
        ply += 1
    return plies


def test_every_searched_decision_is_a_position_of_the_networks_game(bench):
    """The searcher's moves are not played: its decisions are seat 0's choices of the policy's
    own game, each within the budget and the deadline's one ply."""
    rows = bench.decision_rows(0.004, games=1, seed=11)
    assert rows[:, 0].astype(int).tolist() == _seat0_choices(11)
    assert (rows[:, 1] < 0.004 + 0.02).all() and (rows[:, 2] >= 0).all() and (rows[:, 3] >= 0).all()
    table = bench.decision_table(rows)
    assert table[-1].startswith(f"| all | {len(rows)} |")


def test_fixed_part_of_a_wave(bench):
    marginal, fixed = bench.fixed_part({4: 0.010, 32: 0.038})
    assert marginal == pytest.approx(0.001) and fixed == pytest.approx(6.0)
