"""GreedyAgent (agents/spacemission_agents/greedy.py): legal everywhere, deterministic, act == act_batch, the
one-ply choices of explicit positions, and its strength against random play."""
import numpy as np
import pytest
from tests.helpers.bots import check_random_states, decide, duel
from tests.helpers.positions import position, take

from spacemission_agents.greedy import GreedyAgent
from spacemission_agents.random_agents import RandomAgent
from spacemission_env.space_mission import actions as A
from spacemission_env.space_mission import engine, rules

RING = ["Freezer", "Hazard", "Caldera", "Green Heggar", "Ruby Red", "Aurora", "Basalt", "Cinder"]


@pytest.mark.parametrize("rule_set", ["yucata", "schmidt"])
@pytest.mark.parametrize("players", [2, 3, 4, 5])
def test_legal_over_random_states(players, rule_set):
    out = check_random_states(GreedyAgent(seed=players), players, rule_set, games=16, seed=players)
    assert out["checked"] > 600 and out["tiles"] > 30


def test_deterministic_given_seed_and_protocol():
    st = engine.init(64, 3, seeds=5)
    for _ in range(40):  # some mid-game states
        engine.step(st, engine.sample_actions(engine.legal_action_mask(st), np.random.default_rng(1), by_kind=True))
    a, b = GreedyAgent(seed=7), GreedyAgent(seed=7)
    obs, mask = engine.observe(st, observation_type=a.observation_type), engine.legal_action_mask(st)
    first = a.act_batch(obs, mask)
    assert (first == b.act_batch(obs, mask)).all() and (first == a.act_batch(obs, mask)).all()
    b.seed(7)
    assert (b.act_batch(obs, mask) == first).all()
    assert [a.act(o, m) for o, m in zip(obs, mask)] == first.tolist()
    assert a.name == "greedy" and a.observation_type in ("info", "recall")
    a.bind({"num_players": 3, "rules": "yucata", "max_rounds": 100})
    assert a.config["num_players"] == 3


def test_bad_input():
    a = GreedyAgent()
    st = engine.init(2, 2, seeds=0)
    obs, mask = engine.observe(st, observation_type=a.observation_type), engine.legal_action_mask(st)
    with pytest.raises(ValueError, match="shape"):
        a.act_batch(obs[:, :-1], mask)
    with pytest.raises(ValueError, match="int8"):
        a.act_batch(obs.astype(np.int16), mask)
    with pytest.raises(ValueError, match="row 1"):
        a.act_batch(obs, np.vstack([mask[0], np.zeros(100, bool)]))
    with pytest.raises(ValueError):
        a.act(obs, mask)
    with pytest.raises(ValueError, match="seed"):
        GreedyAgent(seed=-1)
    assert a.act_batch(obs[:0], mask[:0]).shape == (0,)


def test_takes_the_tile_that_completes_a_water_step():
    """R-P6: a 4th water scores +5 (9 -> 14), more than a medal (+3, R-P7) or a first mineral."""
    s = position(2, ring=RING, ships={0: 0, 1: 3}, stations={0: 1}, collections={0: {"water": 3}},
                 piles={0: {"water": 1, "medal": 1, "mineral_red": 1, "space": 2}})
    rules.apply(s, A.DISCOVER)  # R-A6, then the tile decision
    assert decide(GreedyAgent(), s) == take("water")


def test_develops_where_it_holds_reservations():
    """R-A5: station +3 and its reservations collected beat discovering one tile elsewhere."""
    s = position(2, ring=RING, ships={0: 2, 1: 5}, scanned={0: [2]}, hands={0: ["J3/L3", "S4/L4", "J2/S2"]},
                 reservations={(2, 0): {"alien_brown": 2}}, piles={2: {"alien_brown": 1, "water": 2, "space": 1}})
    a = decide(GreedyAgent(), s)
    assert A.DEVELOP <= a < A.DISCOVER


def test_first_action_is_a_jump_for_the_gate():
    """R-P1: the first probe on the jump gate is worth 9; from the gate only a jump moves (R-A3)."""
    s = position(2, ring=RING, hands={0: ["J1/S2", "J2/L3", "S1/L1", "S2/L2", "S3/L4"]})
    a = decide(GreedyAgent(), s)
    assert A.JUMP <= a < A.FLY


def test_beats_random():
    out = duel(GreedyAgent(seed=1), RandomAgent(seed=2), players=2, deals=50, seed=100)
    assert out["win"] > 0.85


@pytest.mark.slow
def test_strength_target_vs_random():
    """The ladder's floor for this bot: >= 95% against uniformly random legal play (2,000 duplicate games)."""
    out = duel(GreedyAgent(seed=1), RandomAgent(seed=2), players=2, deals=1000, seed=10_000)
    assert out["win"] >= 0.95


@pytest.mark.slow
@pytest.mark.parametrize("rule_set", ["yucata", "schmidt"])
@pytest.mark.parametrize("players", [2, 3, 4, 5])
def test_legal_over_many_random_states(players, rule_set):
    out = check_random_states(GreedyAgent(seed=players), players, rule_set, games=200, seed=1000 + players,
                              act_rows=1)
    assert out["checked"] > 10_000
