"""Rewards (rewards.py): formulas, and every reward reaching the right agent, checked
against scores computed independently by the reference engine in 3-5 player games."""
import re

import numpy as np
import pytest
from tests.helpers.env_play import progress_action

from spacemission_env.games import get_game
from spacemission_env.space_mission import engine
from spacemission_env.pettingzoo_env import raw_env
from spacemission_env.rewards import RewardFunction, check_reward_args, potential, score_margin, score_view
from spacemission_env.space_mission.rules import scores as reference_scores
from spacemission_env.space_mission.scoring import rank_rewards


def test_score_margin_and_potential():
    assert score_margin(np.array([10, 20, 30])) == pytest.approx([-0.3, 0.0, 0.3])
    assert np.allclose(score_margin(np.array([[7, 7]])), [[0.0, 0.0]])
    sc = np.zeros((1, 2, 8), dtype=np.int16)
    sc[0, :, 7] = [25, 50]
    assert np.allclose(potential(sc), [[0.5, 1.0]])


def test_reward_arguments_are_checked():
    for args in (("wins", False, 1.0), ("win", 1, 1.0), ("win", False, 0.0), ("win", False, 1.5), ("score", True, "1")):
        with pytest.raises(ValueError):
            check_reward_args(*args)
    check_reward_args("score", True, 0.99)


def test_score_view_matches_full_batch():
    st = engine.init(64, 4, seeds=3, max_rounds=8)
    rng = np.random.default_rng(0)
    while not st.terminated.all():
        engine.step(st, engine.sample_actions(engine.legal_action_mask(st), rng))
    rows = np.array([0, 5, 63])
    assert (engine.scores(score_view(st, rows)) == engine.scores(st)[rows]).all()
    assert np.allclose(engine.rewards(score_view(st, rows)), engine.rewards(st)[rows])
    assert np.allclose(RewardFunction("score").terminal(st, rows), RewardFunction("score").terminal(st)[rows])



@pytest.mark.parametrize("game, players", [("spacemission", 2), ("red_planet", 3)])
@pytest.mark.parametrize("rows, text", [
    ([0, 4], "rows must index the batch of 4 (-4..3), got rows[1] = 4"),
    ([-5], "rows must index the batch of 4 (-4..3), got rows[0] = -5"),
    ([True, False, True, False], "rows must be a 1-d integer array"),
])
def test_score_view_names_a_row_out_of_range(game, players, rows, text):
    """Before the fix Space Mission's score_view (the state's own, not take) let numpy raise
    a bare IndexError ("index 4 is out of bounds for axis 0 with size 4") or read a bool
    mask as a 2-row batch; Red Planet (take) already named the batch."""
    eng = get_game(game).engine
    st = eng.init(4, players, seeds=1)
    with pytest.raises(ValueError, match=re.escape(text)):
        score_view(st, rows)
    with pytest.raises(ValueError, match=re.escape(text)):
        RewardFunction("win", game=game).terminal(st, np.asarray(rows))
    assert score_view(st, []).batch_size == 0 and score_view(st, [-1, 0]).batch_size == 2

def _play(num_players, seed, reward="win", shaping=False, gamma=1.0, max_rounds=60):
    """Play one game through the raw AEC env with the progress player; record for each
    agent the reward handed to it at each of its decisions (via _cumulative_rewards,
    what last() returns) together with the reference state of that decision."""
    e = raw_env(num_players=num_players, reward=reward, shaping=shaping, gamma=gamma, max_rounds=max_rounds)
    e.reset(seed=seed)
    rng = np.random.default_rng(seed)
    log = {a: [] for a in e.possible_agents}  # (reward received, reference state)
    while e.agents:
        agent = e.agent_selection
        received = e._cumulative_rewards[agent]
        log[agent].append((received, engine.to_reference(e.batch_state, 0)))
        if e.terminations[agent] or e.truncations[agent]:
            e.step(None)
        else:
            e.step(progress_action(e.observe(agent)["action_mask"], rng))
    final = engine.to_reference(e.batch_state, 0)
    return log, final


@pytest.mark.parametrize("num_players", [3, 4, 5])
def test_win_rewards_go_to_the_right_agents(num_players):
    for seed in range(3):
        log, final = _play(num_players, seed)
        ref = reference_scores(final)
        expected = rank_rewards([s["total"] for s in ref], [s["stations"] // 3 for s in ref])
        for q in range(num_players):
            rewards = [r for r, _ in log[f"player_{q}"]]
            assert rewards[-1] == pytest.approx(expected[q]), f"seat {q} got another seat's reward"
            assert all(r == 0 for r in rewards[:-1]), "win rewards are terminal only"
        assert final.is_over and max(expected) > min(expected)


@pytest.mark.parametrize("num_players", [3, 5])
def test_score_rewards_go_to_the_right_agents(num_players):
    log, final = _play(num_players, seed=7, reward="score")
    totals = [s["total"] for s in reference_scores(final)]
    for q in range(num_players):
        others = (sum(totals) - totals[q]) / (num_players - 1)
        assert log[f"player_{q}"][-1][0] == pytest.approx((totals[q] - others) / 50, abs=1e-6)


@pytest.mark.parametrize("gamma", [1.0, 0.9])
def test_shaping_follows_the_documented_formula_per_agent(gamma):
    """At each decision k >= 1 an agent receives gamma * Phi(s_k) - Phi(s_{k-1}) for the
    transition from its previous decision; the last delivery adds the terminal reward
    with Phi(terminal) = 0. Phi = own provisional total / 50, scored by the reference."""
    for num_players in (3, 4):
        log, final = _play(num_players, seed=num_players, shaping=True, gamma=gamma)
        ref = reference_scores(final)
        terminal = rank_rewards([s["total"] for s in ref], [s["stations"] // 3 for s in ref])
        nonzero = 0
        for q in range(num_players):
            entries = log[f"player_{q}"]
            phis = [reference_scores(state)[q]["total"] / 50 for _, state in entries[:-1]]
            assert entries[0][0] == 0 and phis[0] == 0  # Phi(s_0) = 0: nothing before the first decision
            for k in range(1, len(entries) - 1):
                assert entries[k][0] == pytest.approx(gamma * phis[k] - phis[k - 1], abs=1e-6)
                nonzero += entries[k][0] != 0
            assert entries[-1][0] == pytest.approx(terminal[q] - phis[-1], abs=1e-6)
            if gamma == 1.0:  # the shaping telescopes away: the return equals the unshaped one
                assert sum(r for r, _ in entries) == pytest.approx(terminal[q], abs=1e-5)
        assert nonzero > 0, "shaping should pay something during the game"


def test_reward_function_two_part_shaping_on_a_batch():
    rf = RewardFunction("win", shaping=True, gamma=0.5)
    st = engine.init(8, 3, seeds=0)
    rng = np.random.default_rng(1)
    for _ in range(60):
        running = ~st.terminated
        actor = st.current_player.astype(np.intp)
        phi = rf.before(st)
        engine.step(st, engine.sample_actions(engine.legal_action_mask(st), rng))
        r = rf.after(st, running, actor, phi)
        after = potential(engine.scores(st))
        expected = np.zeros_like(r)
        for b in range(8):
            expected[b, actor[b]] -= phi[b, actor[b]]
            expected[b, st.current_player[b]] += 0.5 * after[b, st.current_player[b]]
        assert np.allclose(r, expected)


def test_after_under_shaping_names_a_missing_actor_or_potential():
    """The annotations let ``actor`` and ``phi_before`` be None (before() gives None without
    shaping); under shaping that was a bare TypeError ('NoneType' object is not
    subscriptable) from inside after(): now a ValueError naming the argument."""
    rf = RewardFunction("win", shaping=True)
    st = engine.init(2, 2, seeds=0)
    running, actor, phi = ~st.terminated, st.current_player.astype(np.intp), rf.before(st)
    with pytest.raises(ValueError, match=r"phi_before is None, but shaping needs it"):
        rf.after(st, running, actor, None)
    with pytest.raises(ValueError, match=r"actor is None, but shaping needs it"):
        rf.after(st, running, None, phi)
    assert rf.after(st, running, actor, phi).shape == (2, 2)
    # without shaping neither is read
    assert RewardFunction("win").after(st, running, None, None).shape == (2, 2)


def _illegal_action(mask) -> int:
    return int(np.flatnonzero(~np.asarray(mask).astype(bool))[0])


@pytest.mark.parametrize("game", ["spacemission", "red_planet"])
def test_shaping_leaves_a_gymnasium_forfeits_return_unchanged(game):
    """A forfeit (illegal_action="lose") pays illegal_reward less the offender's potential
    under shaping: the shaped return equals the unshaped one at gamma 1 (found by a new-user
    review; changed in env versions SpaceMission-v2 / RedPlanet-v1, docs/changelog.md)."""
    import gymnasium
    from spacemission_env import get_game

    returns, last = {}, {}
    for shaping in (False, True):
        g = gymnasium.make(get_game(game).description.env_id, num_players=3, seat=0, shaping=shaping, reward="win",
                           illegal_reward=-2.0)
        obs, info = g.reset(seed=3)
        rng, total, held = np.random.default_rng(0), 0.0, 0.0
        while held == 0:  # legal moves until the learner holds points
            obs, r, terminated, truncated, info = g.step(int(rng.choice(np.flatnonzero(info["action_mask"]))))
            total += r
            assert not terminated
            held = g.unwrapped.engine.scores(g.unwrapped.batch_state)[0, 0, -1] / 50.0
        obs, r, terminated, truncated, info = g.step(_illegal_action(info["action_mask"]))
        assert terminated and info["illegal_action"]
        returns[shaping], last[shaping] = total + r, (r, held)
    assert last[False][0] == -2.0
    assert last[True][0] == pytest.approx(-2.0 - last[True][1], abs=1e-6)  # -Phi(s_k): the game ends
    assert returns[True] == pytest.approx(returns[False], abs=1e-5)  # gamma 1: shaping sums to 0


@pytest.mark.parametrize("gamma", [1.0, 0.8])
def test_a_pettingzoo_forfeit_pays_the_offenders_last_potential(gamma):
    """AEC, shaping on: the offender gets illegal_reward - Phi(s_k), the others 0.0; at
    gamma 1 every seat's shaped return equals its unshaped one (illegal_reward, 0, 0)."""
    from spacemission_env.pettingzoo_env import env as aec_env

    totals = {}
    for shaping in (False, True):
        e = aec_env(num_players=3, shaping=shaping, gamma=gamma)
        e.reset(seed=5)
        rng = np.random.default_rng(2)
        total = dict.fromkeys(e.possible_agents, 0.0)
        for _ in range(90):
            e.step(int(rng.choice(np.flatnonzero(e.infos[e.agent_selection]["action_mask"]))))
            for q in e.possible_agents:
                total[q] += e.rewards[q]
        offender = e.agent_selection
        held = e.unwrapped.engine.scores(e.unwrapped.batch_state)[0, e.possible_agents.index(offender), -1] / 50.0
        e.step(_illegal_action(e.infos[offender]["action_mask"]))
        assert e.infos[offender]["illegal_action"]
        for q in e.possible_agents:
            total[q] += e.rewards[q]
        expected = -1.0 - held if shaping else -1.0
        assert e.rewards[offender] == pytest.approx(expected, abs=1e-6)
        assert all(e.rewards[q] == 0.0 for q in e.possible_agents if q != offender)
        totals[shaping] = (total, offender, held)
    assert totals[True][2] > 0, "the test needs the offender to hold points when it forfeits"
    if gamma == 1.0:
        assert totals[True][0] == pytest.approx(totals[False][0], abs=1e-5)
