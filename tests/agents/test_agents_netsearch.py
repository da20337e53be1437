"""NetSearchAgent (agents/spacemission_agents/netsearch.py): bad parameters, legal
decisions, determinism with an iterations budget, forced moves, the time budget, the
policy/value pairing and player counts without a value net."""
import re
import time

import numpy as np
import pytest

from tests.helpers.bots import first_searched_decision, machine_slowness

from spacemission_agents.netsearch import NetSearchAgent
from spacemission_agents.ppo import PPOAgent
from spacemission_agents.registry import make_agent
from spacemission_agents.value import ValueNet
from spacemission_env.games import GameConfig
from spacemission_env.space_mission import engine


def _bot(**kw):
    bot = NetSearchAgent(**{"iterations": 24, "worlds": 8, "depth": 4, "seed": 1, **kw})
    bot.bind(GameConfig(2))
    return bot


def _states(games=4, steps=40, seed=0):
    st = engine.init(games, 2, seeds=seed)
    rng = np.random.default_rng(seed)
    for _ in range(steps):
        engine.step(st, engine.sample_actions(engine.legal_action_mask(st), rng, by_kind=True))
    return st


@pytest.mark.parametrize("kw, name", [
    ({"budget": 0}, "budget"), ({"budget": -1.0}, "budget"), ({"iterations": 0}, "iterations"),
    ({"worlds": 0}, "worlds"), ({"candidates": 0}, "candidates"), ({"c_puct": -1}, "c_puct"),
    ({"temperature": 0}, "temperature"), ({"depth": -1}, "depth"), ({"wave": 0}, "wave"),
    ({"until": "never"}, "until"), ({"margin": 1.5}, "margin"), ({"margin": -0.1}, "margin"), ({"clock": "sun"}, "clock"), ({"seed": -2}, "seed"),
    ({"iterations": 2.5}, "iterations"), ({"worlds": True}, "worlds"), ({"value": "v.npz"}, "policy"),
    ({"policy": 3, "value": "v.npz"}, "policy"),
])
def test_bad_parameters(kw, name):
    with pytest.raises(ValueError, match=name):
        NetSearchAgent(**kw)


def test_registry_spec_and_errors():
    bot = make_agent("netsearch:budget=0.05:worlds=8")
    assert isinstance(bot, NetSearchAgent) and bot.budget == 0.05 and bot.worlds == 8
    with pytest.raises(ValueError, match="c_puct"):
        make_agent("netsearch:c_puct=-2")


def test_every_shipped_player_count_binds_and_a_missing_policy_is_named():
    """3-5 players have a shipped policy but no value net: the bot binds and plays legal
    moves (unfinished leaves valued by a greedy rollout); a game no policy fits is named."""
    for n in (3, 4, 5):
        bot = NetSearchAgent(iterations=12, worlds=4, depth=6)
        bot.bind(GameConfig(n))
        st = engine.init(1, n, seeds=n)
        for _ in range(6):
            engine.step(st, engine.sample_actions(engine.legal_action_mask(st), np.random.default_rng(n), by_kind=True))
        obs, mask = engine.observe(st, observation_type="recall"), engine.legal_action_mask(st)
        a = bot.act_batch(obs, mask)
        assert mask[0, a[0]]
        assert bot._networks(bot.config)[1] is None
    with pytest.raises(ValueError, match="no policy for 2 players, rules 'schmidt'"):
        NetSearchAgent().bind(GameConfig(2, "schmidt"))
    with pytest.raises(ValueError, match="value path needs the policy"):
        NetSearchAgent(value=str(ValueNet.shipped_path(2)))


def test_policy_without_value_net_uses_greedy_leaves():
    """A policy alone (no value net) values unfinished leaves by the greedy rollout: the
    same decisions as mix=1 with the value net (which then goes unused)."""
    st = _states(games=3, steps=30, seed=6)
    obs, mask = engine.observe(st, observation_type="recall"), engine.legal_action_mask(st)
    alone = _bot(policy=str(PPOAgent.shipped_path(2)), until="turn", mix=0.0)
    mixed = _bot(until="turn", mix=1.0)
    for i in range(len(obs)):
        a = alone.act_batch(obs[i:i + 1], mask[i:i + 1])
        b = mixed.act_batch(obs[i:i + 1], mask[i:i + 1])
        if alone.last_search is not None:
            assert alone.last_search["q"] == pytest.approx(mixed.last_search["q"], nan_ok=True)
            assert a[0] == b[0]


def test_value_net_for_another_policy_refused():
    with pytest.raises(ValueError, match="sha256"):
        NetSearchAgent(policy=str(PPOAgent.shipped_path(3)), value=str(ValueNet.shipped_path(2))).bind(GameConfig(3))


def test_an_unbound_bot_names_a_round_limit_it_does_not_play():
    # the shipped models play 100 rounds (R-E3); an unbound bot reads the game's limit from the
    # observation's round + rounds_left and says so, instead of the determinizer's inconsistency
    for max_rounds, text in ((50, "round limit of 50 (round 1 + 49 rounds left), not 100"),
                             (300, "round limit of at least 128 (round 1 + 127 rounds left), not 100")):
        st = engine.init(1, 2, seeds=0, max_rounds=max_rounds)
        bot = NetSearchAgent(iterations=4, worlds=4, depth=4)
        with pytest.raises(ValueError, match=r"NetSearchAgent is not bound to a game.*" + re.escape(text)):
            bot.act_batch(engine.observe(st, observation_type="recall"), engine.legal_action_mask(st))
    st = _states(games=2)
    obs, mask = engine.observe(st, observation_type="recall"), engine.legal_action_mask(st)
    np.testing.assert_array_equal(NetSearchAgent(iterations=24, worlds=8, depth=4, seed=1).act_batch(obs, mask),
                                  _bot().act_batch(obs, mask))  # 100 rounds: as bound to GameConfig(2)


def test_no_simulation_replays_another():
    # found by a search audit: with 64 worlds a candidate's 65th simulation replayed its first
    # game exactly (greedy policy, the world's own generator): a third or more of the work
    st = _states(games=1, steps=30, seed=3)
    obs, mask = engine.observe(st, observation_type="recall"), engine.legal_action_mask(st)
    bot = NetSearchAgent(iterations=300, candidates=2, depth=2, until="turn", seed=1)
    bot.bind(GameConfig(2))
    bot.act_batch(obs, mask)
    s = bot.last_search
    assert s is not None and s["simulations"] == 300 and max(s["visits"]) > 64
    assert s["worlds"] >= max(s["visits"])  # every visit of a candidate in a world of its own
    small = NetSearchAgent(iterations=300, candidates=2, depth=2, until="turn", seed=1, worlds=64)
    small.bind(GameConfig(2))
    small.act_batch(obs, mask)
    assert small.last_search["worlds"] == 64  # the cap, when asked for


def test_legal_and_deterministic():
    st = _states()
    obs, mask = engine.observe(st, observation_type="recall"), engine.legal_action_mask(st)
    a, b = _bot(), _bot()
    first = a.act_batch(obs, mask)
    assert mask[np.arange(len(first)), first].all()
    np.testing.assert_array_equal(b.act_batch(obs, mask), first)
    np.testing.assert_array_equal(a.act_batch(obs, mask), first)  # the same bot again: same choices
    assert a.stats["searched"] >= 1 and a.last_search is not None


def test_plays_legal_moves_along_a_game():
    bot = _bot(iterations=12, worlds=4, depth=2)
    st = engine.init(2, 2, seeds=7)
    ppo = PPOAgent.load_shipped(2)
    for _ in range(40):
        if st.terminated.all():
            break
        mask, obs = engine.legal_action_mask(st), engine.observe(st, observation_type="recall")
        act = ppo.act_batch(obs, mask)
        mine = np.flatnonzero(~st.terminated & (st.current_player == 0))
        if mine.size:
            act[mine] = bot.act_batch(obs[mine], mask[mine])
            assert mask[mine, act[mine]].all()
        engine.step(st, act, select=~st.terminated)
    assert bot.stats["searched"] >= 10


def test_forced_move_played_at_once():
    st = _states(games=1, steps=0)
    obs = engine.observe(st, observation_type="recall")
    mask = np.zeros((1, 100), np.bool_)
    mask[0, 5] = True
    bot = _bot()
    assert bot.act_batch(obs, mask)[0] == 5 and bot.last_search is None and bot.stats["searched"] == 0


@pytest.mark.parametrize("steps", [0, 40])
def test_time_budget_honoured_in_each_decision(steps):
    """The budget holds per decision, in the opening too, whose simulations (played to the end
    of the game) are the dearest: a wave the deadline overtakes is dropped, uncounted, and the
    cost of the stage learnt from it. The search used to overrun there (a first wave of 12
    simulations from the opening costs about 0.06 s; openings took up to 0.137 s at 0.1 s)."""
    st = _states(games=1, steps=steps)
    obs, mask = engine.observe(st, observation_type="recall"), engine.legal_action_mask(st)
    slow = machine_slowness()  # 0.05 s holds about two simulations from the opening, where set
    bot = NetSearchAgent(budget=0.05 * slow, worlds=16)
    bot.bind(GameConfig(2))
    searched = 0
    for _ in range(4):
        t0 = time.thread_time()
        bot.act_batch(obs, mask)
        assert time.thread_time() - t0 < (0.05 + 0.008) * slow  # the deadline is checked at every ply
        s = bot.last_search
        assert sum(s["visits"]) == s["simulations"]  # a dropped wave counts no visit
        searched += s["simulations"]
    assert searched >= 1 and bot.stats["simulations"] == searched


def test_values_can_overrule_the_prior():
    """With no prior weight (c_puct=0) the visits follow the leaf values alone, and over a
    few positions the most visited (played) action is not always the prior's favourite:
    the search can pick a move the network ranks low."""
    st = _states(games=6, steps=30, seed=3)
    obs, mask = engine.observe(st, observation_type="recall"), engine.legal_action_mask(st)
    bot = _bot(c_puct=0.0, iterations=48, worlds=8, mix=0.0)
    overruled = 0
    for i in range(len(obs)):
        a = int(bot.act_batch(obs[i:i + 1], mask[i:i + 1])[0])
        s = bot.last_search
        if s is None:
            continue
        assert mask[i, a] and s["visits"][s["candidates"].index(a)] == max(s["visits"])
        overruled += a != s["candidates"][0]
    assert overruled >= 1


def _finished(games=6, seed=5):
    st = engine.init(games, 2, seeds=seed)
    rng = np.random.default_rng(seed)
    while not st.terminated.all():
        engine.step(st, engine.sample_actions(engine.legal_action_mask(st), rng, by_kind=True), select=~st.terminated)
    return st


def test_final_value_is_the_rank_reward_mixed_with_the_lead():
    """R-P8: margin=0 gives the rank reward; margin=1 a value of the lead alone, in (-1, 1),
    of the lead's sign and growing with it."""
    st = _finished()
    over = st.terminated.copy()
    rank = engine.rewards(st)[:, 0]
    np.testing.assert_allclose(_bot(margin=0.0)._final_value(st, over), rank)
    points = engine.scores(st)[..., 7].astype(float)
    lead = points[:, 0] - points[:, 1]
    v = _bot(margin=1.0)._final_value(st, over)
    assert (np.abs(v) < 1).all() and (np.sign(v) == np.sign(lead)).all()
    order = np.argsort(lead, kind="stable")
    assert (np.diff(v[order]) >= 0).all()
    half = _bot(margin=0.5)._final_value(st, over)
    np.testing.assert_allclose(half, 0.5 * rank + 0.5 * v)


def test_until_end_values_finished_games_only():
    """With until="end" the policy plays every leaf to the end of the game, so each
    simulation is worth a rank reward (2 players: -1, 0 or 1) and visits x Q is a whole
    number; until="turn" leaves are valued by the value net (fractions)."""
    st = _states(games=3, steps=30, seed=2)
    obs, mask = engine.observe(st, observation_type="recall"), engine.legal_action_mask(st)
    ends, turns = _bot(until="end", depth=400, mix=0.0, margin=0.0), _bot(until="turn", mix=0.0)
    fractions = 0
    for i in range(len(obs)):
        ends.act_batch(obs[i:i + 1], mask[i:i + 1])
        turns.act_batch(obs[i:i + 1], mask[i:i + 1])
        for bot in (ends, turns):
            s = bot.last_search
            if s is None:
                continue
            w = np.array(s["visits"]) * np.nan_to_num(np.array(s["q"]))
            if bot is ends:
                np.testing.assert_allclose(w, np.rint(w), atol=1e-9)
            else:
                fractions += int(np.abs(w - np.rint(w)).max() > 1e-6)
    assert fractions >= 1


def test_visit_ties_go_to_the_prior():
    """A search that only ran its first wave (every candidate the same visits) has no
    evidence against the network: it plays the prior's favourite, whatever the noisy Qs."""
    st = _states(games=4, steps=30, seed=4)
    obs, mask = engine.observe(st, observation_type="recall"), engine.legal_action_mask(st)
    searched = 0
    for i in range(len(obs)):
        bot = _bot(candidates=3, first=2, iterations=6)
        a = int(bot.act_batch(obs[i:i + 1], mask[i:i + 1])[0])
        s = bot.last_search
        if s is None or len(s["candidates"]) < 3:
            continue
        searched += 1
        assert s["visits"] == [2, 2, 2] and a == s["candidates"][0]
    assert searched >= 1


def test_a_budget_below_one_simulation_plays_the_prior():
    """The first wave is cut to the budget like any other: with time for no simulation
    the bot plays the network's favourite, within its budget (no first-wave overrun)."""
    st = _states(games=1, steps=30, seed=8)
    obs, mask = engine.observe(st, observation_type="recall"), engine.legal_action_mask(st)
    bot = NetSearchAgent(budget=0.05)
    bot.bind(GameConfig(2))
    bot.act_batch(obs, mask)  # warm up, and learn the cost of a simulation
    tiny = NetSearchAgent(budget=0.0005)
    tiny.bind(GameConfig(2))
    tiny._sim_cost = dict(bot._sim_cost)
    t0 = time.thread_time()
    a = int(tiny.act_batch(obs, mask)[0])
    assert time.thread_time() - t0 < 0.02 * machine_slowness()
    s = tiny.last_search
    assert mask.sum() > 1 and s is not None
    assert a == s["candidates"][0] and s["simulations"] <= 1


def test_bind_warms_up_once_outside_any_decision(monkeypatch):
    """bind loads the networks and runs one wave of two simulations (numba's cached kernels
    load then, not in the first decision's budget); a second bind of the same game, and a
    decision, do not repeat it; the warm-up counts in no decision's stats."""
    calls = []
    real = NetSearchAgent._simulate

    def counting(self, worlds, w_idx, actions, policy, value, deadline=None):
        calls.append(len(w_idx))
        return real(self, worlds, w_idx, actions, policy, value, deadline)

    monkeypatch.setattr(NetSearchAgent, "_simulate", counting)
    bot = NetSearchAgent(iterations=6, worlds=4, depth=2, seed=0)
    bot.bind(GameConfig(2))
    assert calls == [2] and bot.stats["decisions"] == 0 and bot.stats["simulations"] == 0
    bot.bind(GameConfig(2))
    assert calls == [2]
    st = _states(games=1, steps=30, seed=3)
    obs, mask = engine.observe(st, observation_type="recall"), engine.legal_action_mask(st)
    bot.act_batch(obs, mask)
    assert bot.last_search is not None  # a position with a choice: the decision searched
    assert calls[0] == 2 and sum(calls[1:]) == 6
    assert bot.stats["simulations"] == sum(calls[1:])


def test_wave_size_from_the_stage_cost():
    """A wave of s simulations is planned to cost (s + WAVE_FIXED) x the cost of one: that of
    this decision's last wave, else of the stage (round // 4); at a stage not met, a wave of
    one measures it (a review found a fresh bot's first wave, sized by nothing, overran a
    0.03 s budget 2.8-fold with first=300, and stages dearer than the opening)."""
    from spacemission_agents.netsearch import WAVE_FIXED

    bot = NetSearchAgent(budget=0.1)
    assert bot._wave_fits(0.1, 0, None) == 1 and bot._wave_fits(-0.001, 0, None) == 0
    bot._sim_cost = {0: 0.005, 5: 0.0005}
    assert bot._wave_fits(0.1, 0, None) == int(0.1 / 0.005 - WAVE_FIXED)  # 14
    assert bot._wave_fits(0.1, 5, None) == int(0.1 / 0.0005 - WAVE_FIXED)  # 194
    assert bot._wave_fits(0.1, 3, None) == 1  # not met: one, to measure it
    assert bot._wave_fits(0.1, 3, 0.002) == int(0.1 / 0.002 - WAVE_FIXED)  # this decision's own
    assert bot._wave_fits(0.02, 0, None) < 1  # less than a wave's fixed part and one simulation


def test_a_fresh_bot_with_a_huge_first_wave_keeps_its_budget():
    """The review's case: budget 0.03, first=300 (1,800 simulations in the first wave of a
    fresh bot) took 0.085 s, one policy ply of 1,800 rows; now the first wave of a stage not
    met is one simulation, and later waves are sized by what it cost."""
    st = _states(games=1, steps=0)
    obs, mask = engine.observe(st, observation_type="recall"), engine.legal_action_mask(st)
    slow = machine_slowness()  # 0.05 s where set: the measuring wave fits with room
    bot = NetSearchAgent(budget=0.05 * slow, first=300, worlds=4096)
    bot.bind(GameConfig(2))
    t0 = time.thread_time()
    bot.act_batch(obs, mask)
    assert time.thread_time() - t0 < (0.05 + 0.008) * slow
    assert bot.last_search["simulations"] >= 1  # the measuring wave finished


def test_a_stage_thought_too_dear_is_measured_anew():
    """A stage whose cost looks above the budget still gets a wave of one simulation in each
    decision (the deadline drops it if need be), so a stale or inherited estimate (the
    opening's, doubled by a dropped wave) cannot keep the bot from searching for good. The
    budget (0.2 s, scaled) leaves room for waves of several simulations after the stage's cost
    is measured: at 0.05 s a fresh clone's CI, two test processes on two cores, got [0, 1, 1]
    (a simulation there cost over 1/8 of the budget, so only waves of one fit)."""
    st = _states(games=1, steps=30, seed=8)
    obs, mask = engine.observe(st, observation_type="recall"), engine.legal_action_mask(st)
    budget = 0.2 * machine_slowness()
    bot = NetSearchAgent(budget=budget)
    bot.bind(GameConfig(2))
    stage = bot._stage(obs[0])
    dear = 10.0 * budget
    bot._sim_cost = {0: dear}  # the opening, far too dear (ten budgets); this stage not met
    bot.act_batch(obs, mask)
    s = bot.last_search
    assert s["simulations"] + s["dropped"] >= 1  # a first wave of one, and more once it was measured
    assert bot._sim_cost[stage] < dear  # measured (or bounded by the drop), not inherited
    # now sized to the stage's own cost; a wave planned from a few simulations' cost may be
    # dropped once where a machine's fixed cost per ply is dearer (its cost is then doubled)
    later = []
    for _ in range(3):
        bot.act_batch(obs, mask)
        later.append(bot.last_search["simulations"])
    assert max(later) > 1, later


@pytest.mark.parametrize("budget", [-1, 0, 0.0, float("inf"), float("nan"), "0.1", True, None])
@pytest.mark.parametrize("agent", ["search", "netsearch"])
def test_a_bad_budget_gets_one_message(agent, budget):
    """Both search bots say the same of every bad budget (before, -1 was "a finite number >=
    0.0" and 0 "> 0 seconds")."""
    from spacemission_agents.search import SearchAgent

    cls = {"search": SearchAgent, "netsearch": NetSearchAgent}[agent]
    with pytest.raises(ValueError, match=rf"^{cls.__name__}: budget must be a finite number of seconds > 0, got "):
        cls(budget=budget)


def test_the_warm_up_meets_every_kernel_layout_of_a_decision():
    """Found in a budget audit: the warm-up simulated one row, whose observation blocks are
    C-contiguous, while a wave's are not, so numba compiled (on a fresh install) or loaded
    the feature extraction for the other layout inside the first decision: 2.5 s, every
    simulation dropped. In a fresh process, no numba function gains a signature during the
    first decision after bind."""
    import subprocess
    import sys

    code = """
import numba, numpy as np
from spacemission_env import GameConfig
from spacemission_env.space_mission import engine
from spacemission_agents.netsearch import NetSearchAgent
from numba.core.registry import CPUDispatcher
import gc
def signatures():
    return {id(d): len(d.signatures) for d in gc.get_objects() if isinstance(d, CPUDispatcher)}
bot = NetSearchAgent(iterations=40, worlds=64)
bot.bind(GameConfig(2))
st = engine.init(1, 2, seeds=1000)
before = signatures()
bot.act_batch(engine.observe(st, observation_type="recall"), engine.legal_action_mask(st))
after = signatures()
print(sum(after.get(k, 0) - before.get(k, 0) for k in after))
"""
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=300)
    assert out.returncode == 0, out.stderr[-2000:]
    assert out.stdout.strip().splitlines()[-1] == "0"


def test_simulation_costs_after_the_end_is_triggered_are_kept_apart():
    # found by a search audit: a game whose end was triggered (R-E1) in rounds 8-11 left that
    # stage's cost at its one-round simulations, and the next game's first decision there
    # (0.03 s, 2 players) sized its first wave by it: dropped whole, no simulation counted
    from spacemission_agents.heuristic import HeuristicAgent

    bot = NetSearchAgent(budget=0.02, seed=1)
    bot.bind(GameConfig(2))
    heuristic = HeuristicAgent(seed=0)

    def decide(deal, stop):
        """The bot's stage key at its first searched decision where ``stop(state)``, along a
        game the heuristic plays."""
        return bot._stage(first_searched_decision(bot, heuristic, deal, stop))

    ended = decide(303, lambda st: bool(st.end_triggered[0]))  # triggered in round 12
    end_cost = bot._sim_cost[ended]
    going = decide(302, lambda st: int(st.round[0]) >= 12 and not st.end_triggered[0])  # triggered in 15
    assert ended != going and bot._sim_cost[ended] == end_cost  # one cost each...
    assert ended[:2] == going[:2] == (2, 3)  # ...for the same rounds 12-15
