"""Parity sweep: what docs/interfaces.md and docs/games.md promise for Space Mission through
the shared interfaces, checked for Mission: Red Planet (3-5 players) where the other Red
Planet tests (test_interfaces.py, test_encoding.py, tests/env/test_seeding_sweep.py, ...)
do not already: the game description against random play, observation types and dtypes
in the AEC env, shaping, copies that continue identically, final observations through
every interface, the VectorEnv's same-step autoreset, the Gymnasium env's seats and
opponents, the SB3 VecEnv's opponent pools, and the information sets of waiting seats."""
from __future__ import annotations

import copy
import pickle
import random
import warnings

import numpy as np
import pytest

import spacemission_env  # noqa: F401  (registers the ids)
from spacemission_env import red_planet_v2
from spacemission_env.games import GameConfig, get_game
from spacemission_env.gym_env import GameEnv
from spacemission_env.policies import RandomPolicy
from spacemission_env.red_planet import components as C
from spacemission_env.red_planet import encoding as E
from spacemission_env.red_planet.config import MAX_TOTAL_POINTS, RED_PLANET
from spacemission_env.red_planet.determinize import sample_world
from spacemission_env.red_planet.rules import apply, is_over, legal_actions, new_game
from spacemission_env.red_planet.rules.state import PHASES
from spacemission_env.rewards import RewardFunction
from spacemission_env.vector import VectorEnv
from tests.helpers.sb3 import GameVecEnv, needs_sb3

GAME = get_game("red_planet")
ENGINE = GAME.engine
D = RED_PLANET
SETUP_PHASES = [PHASES.index("setup_zone"), PHASES.index("keep")]


# --- the game description against random play ---------------------------------------------------
@pytest.mark.parametrize("n", [3, 4, 5])
def test_random_games_stay_inside_the_declared_ranges_and_lengths(n):
    """100 random games per player count in the batched engine: every observation type in
    [low, high] for every seat at every step, no empty mask, terminal rewards of both schemes
    in their ranges and zero-sum, totals within the score bound, every game within
    max_game_length; a player's decisions in one round at most 7 <= max_steps_per_turn
    (config.py) and before the first round setup_steps_per_player."""
    batch = 100
    st = GAME.new_batch(batch, GameConfig(n, game="red_planet"), seeds=7919 * n)
    rng = np.random.default_rng(n)
    per_round = np.zeros((batch, GAME.default_max_rounds + 1, n), dtype=np.int64)  # [game, round, seat]
    setup = np.zeros((batch, n), dtype=np.int64)
    length = np.zeros(batch, dtype=np.int64)
    seats = np.arange(n)
    while not st.terminated.all():
        for t in D.observation_types:
            for q in seats:
                o = ENGINE.observe(st, player=q, observation_type=t)
                assert o.shape == (batch, D.observation_size(t))
                assert o.min() >= D.observation_low and o.max() <= D.observation_high, (t, q)
        mask = ENGINE.legal_action_mask(st)
        assert mask.any(axis=1).all()
        live = np.flatnonzero(~st.terminated)
        cp = st.current_player.astype(np.int64)[live]
        in_setup = np.isin(st.phase[live], SETUP_PHASES)
        np.add.at(setup, (live[in_setup], cp[in_setup]), 1)
        np.add.at(per_round, (live[~in_setup], st.round[live][~in_setup], cp[~in_setup]), 1)
        length[live] += 1
        ENGINE.step(st, ENGINE.sample_actions(mask, rng))
    assert length.max() <= D.max_game_length(n, GAME.default_max_rounds)
    assert setup.max() == D.setup_steps_per_player  # M-S4 zone (at most one) and M-S6 keep
    # the longest round asks 7 (the Scientist's, config.py; about 2 seat-rounds in 30,000 of random play)
    assert per_round.max() <= 7 <= D.max_steps_per_turn
    totals = ENGINE.scores(st)[..., -1]
    assert totals.min() >= 0 and totals.max() <= MAX_TOTAL_POINTS
    for name in D.reward_names:
        low, high = D.reward_range(name)
        r = RewardFunction(name, game="red_planet").terminal(st)
        assert r.min() >= low and r.max() <= high, name
        assert D.reward_schemes[name].utility == "zero_sum"
        assert np.allclose(r.sum(axis=1), 0.0, atol=1e-5), name


def test_score_bound_is_a_bound():
    """The declared "score" range, MAX_TOTAL_POINTS / 50, bounds one player's final total:
    a derivation that counts every card at its most (config.py explains why v0's own sum
    alone is no proof) stays within it."""
    value = dict(zip(C.MINERAL_NAMES, C.MINERAL_VALUE))
    tokens = dict(zip(C.MINERAL_NAMES, C.MINERAL_TOKENS))
    # zones by type at any distribution: the dearest types first, as many as their tokens (M-C4, M-L5)
    zone_values = []
    for m in sorted(value, key=value.get, reverse=True):
        zone_values += [value[m]] * tokens[m]
    zone_values = zone_values[:C.NUM_ZONES]
    ev = {e["kind"]: e for e in C.DATA["events"]}
    sc = C.DATA["scoring"]
    leftover_r5, leftover_r8 = 1, 3  # a tie after round 5 leaves 1; pot 2 + 1 split 4-5 ways leaves 3
    r5 = sum(zone_values)  # M-P1: one counter per zone
    r8 = sum(v * (sc["second_distribution_base"] + leftover_r5) for v in zone_values)  # M-P2
    bases = sorted([ev["huge_deposit"]["final_base"]] + [sc["final_base"]] * (C.NUM_ZONES - 1), reverse=True)
    final = sum(v * (b + leftover_r8) for v, b in zip(zone_values, bases))  # M-P3 step 2, M-E6 on the dearest
    counters = r5 + r8 + final
    counters += ev["sylvanite_vein"]["count"] * value["sylvanite"]  # M-E10
    counters += ev["ice_blocks"]["count"] * ev["ice_blocks"]["counters"] * value["ice"]  # M-E13
    cards = {  # every event card at its most, alone (M-E7..M-E19)
        "mosses": 6, "meteorites": C.ASTRONAUTS, "secret_mission": 8 * 4, "top_secret_mission": 5 * C.NUM_ZONES,
        "celerium": 8, "sylvanite": 8, "memorial": C.ASTRONAUTS, "good_planning": C.NUM_ZONES,
        "colonisation": 8, "strategic_zones": 6,
    }
    for kind, most in cards.items():
        unit = ev[kind]["points"]
        assert most % unit == 0 and most >= unit * ev[kind]["count"]
    bound = counters + sc["ice_bonus"] + sum(cards.values())
    assert bound == 423
    assert bound <= MAX_TOTAL_POINTS == 449
    assert D.reward_range("score") == (-MAX_TOTAL_POINTS / GAME.score_scale, MAX_TOTAL_POINTS / GAME.score_scale)
    assert D.reward_range("win") == (-1.0, 1.0)


def test_readme_and_games_page_state_the_description():
    from tests.helpers.paths import ROOT

    readme = (ROOT / "README.md").read_text()
    sizes = " / ".join(str(D.observation_size(t)) for t in D.observation_types)
    row = f"| {D.min_players}-{D.max_players} | `{D.env_id}` | Discrete({D.num_actions}) | {sizes} |"
    assert row in readme
    games = (ROOT / "docs" / "games.md").read_text()
    assert f"bool [1024, {D.num_actions}]" in games and f"int8 [1024, {D.observation_size('info')}]" in games
    assert ", ".join(f"{t} {D.observation_size(t)}" for t in D.observation_types) in games


# --- PettingZoo AEC ---------------------------------------------------------------------------------
def random_agent_loop(e, rng, limit=None):
    """Play ``e`` with random legal actions; returns [(agent, action, reward, terminated, obs, info)]."""
    log = []
    for agent in e.agent_iter():
        obs, reward, term, trunc, info = e.last()
        assert not trunc
        action = None if term else int(rng.choice(np.flatnonzero(obs["action_mask"])))
        log.append((agent, action, reward, term, obs, dict(info)))
        e.step(action)
        if limit is not None and len(log) >= limit:
            break
    return log


@pytest.mark.parametrize("observation_type", ["info", "recall", "seer"])
def test_aec_observation_types_and_float32_hold_the_same_values_in_their_spaces(observation_type):
    a = red_planet_v2.raw_env(num_players=4, observation_type=observation_type)
    f = red_planet_v2.raw_env(num_players=4, observation_type=observation_type, observation_dtype="float32")
    a.reset(seed=3)
    f.reset(seed=3)
    rng = np.random.default_rng(0)
    space = f.observation_space("player_0")["observation"]
    assert space.dtype == np.float32 and space.shape == (D.observation_size(observation_type),)
    assert f.state_space.dtype == np.float32
    for k in range(120):
        if k % 10 == 0:
            for q in a.possible_agents:
                oa, of = a.observe(q), f.observe(q)
                assert a.observation_space(q).contains(oa) and f.observation_space(q).contains(of)
                assert np.array_equal(oa["observation"].astype(np.float32), of["observation"])
                assert np.array_equal(oa["action_mask"], of["action_mask"])
            assert f.state_space.contains(f.state()) and np.array_equal(a.state().astype(np.float32), f.state())
        action = int(rng.choice(np.flatnonzero(a.observe(a.agent_selection)["action_mask"])))
        a.step(action)
        f.step(action)


@pytest.mark.parametrize("gamma", [1.0, 0.9])
def test_aec_shaping_moves_credit_and_leaves_each_return_unchanged(gamma):
    """docs/interfaces.md "Rewards": the return discounted by gamma per own decision is the
    unshaped one (Phi(s_0) = 0 at a seat's first decision, Phi(terminal) = 0)."""
    shaped = red_planet_v2.raw_env(num_players=3, reward="score", shaping=True, gamma=gamma)
    plain = red_planet_v2.raw_env(num_players=3, reward="score")
    shaped.reset(seed=8)
    plain.reset(seed=8)
    rng = np.random.default_rng(8)
    k = dict.fromkeys(shaped.possible_agents, 0)
    ret_shaped = dict.fromkeys(k, 0.0)
    ret_plain = dict.fromkeys(k, 0.0)
    nonzero = 0
    for agent in shaped.agent_iter():
        obs, r, term, _, _ = shaped.last()
        _, rp, _, _, _ = plain.last()
        if k[agent] == 0:
            assert r == 0.0
        else:
            ret_shaped[agent] += gamma ** (k[agent] - 1) * r
            ret_plain[agent] += gamma ** (k[agent] - 1) * rp
        nonzero += r != rp
        k[agent] += 1
        action = None if term else int(rng.choice(np.flatnonzero(obs["action_mask"])))
        shaped.step(action)
        plain.step(action)
    assert nonzero > 0  # shaping did pay something along the way
    for q in k:
        assert ret_shaped[q] == pytest.approx(ret_plain[q], abs=1e-5)


@pytest.mark.parametrize("how", ["deepcopy", "pickle"])
def test_aec_copies_continue_and_reset_exactly_like_the_original(how):
    clone = copy.deepcopy if how == "deepcopy" else (lambda e: pickle.loads(pickle.dumps(e)))
    e = red_planet_v2.env(num_players=5, reward="score", shaping=True)
    e.reset(seed=21)
    random_agent_loop(e, np.random.default_rng(1), limit=77)
    c = clone(e)
    rest_e = random_agent_loop(e, np.random.default_rng(2))
    rest_c = random_agent_loop(c, np.random.default_rng(2))
    assert len(rest_e) == len(rest_c)
    for x, y in zip(rest_e, rest_c):
        assert x[:4] == y[:4]
        assert np.array_equal(x[4]["observation"], y[4]["observation"])
        assert np.array_equal(x[4]["action_mask"], y[4]["action_mask"])
    e.reset()
    c.reset()  # the seeding generator was copied too
    assert e.unwrapped.game_seed == c.unwrapped.game_seed
    assert np.array_equal(e.last()[0]["observation"], c.last()[0]["observation"])


def test_final_observations_rewards_and_infos_agree_across_interfaces():
    """A game played through the AEC env ends with, for every agent, its observation of the
    final state, its terminal reward and the info keys of docs/interfaces.md; the batched
    engine replaying the same seed and actions, and the VectorEnv's final_observation,
    give the same."""
    n = 4
    e = red_planet_v2.env(num_players=n, reward="score")
    e.reset(seed=5)
    log = random_agent_loop(e, np.random.default_rng(5))
    actions = [a for _, a, _, term, _, _ in log if not term]
    final = {agent: (obs, info, reward) for agent, _, reward, term, obs, info in log if term}
    assert sorted(final) == [f"player_{q}" for q in range(n)]
    st = ENGINE.init(1, n, seeds=e.unwrapped.game_seed)
    for a in actions:
        ENGINE.step(st, np.array([a]))
    assert st.terminated[0]
    rewards = RewardFunction("score", game="red_planet").terminal(st)[0]
    scores = ENGINE.scores(st)[0]
    for q in range(n):
        obs, info, reward = final[f"player_{q}"]
        assert np.array_equal(obs["observation"], ENGINE.observe(st, player=q)[0])
        assert obs["action_mask"].all()  # no decision pending
        assert set(info) == {"action_mask", "scores", "round_limit", "illegal_action"}
        assert info["scores"] == dict(zip(GAME.score_names, map(int, scores[q])))
        assert info["round_limit"] is False and info["illegal_action"] is False
        assert reward == pytest.approx(float(rewards[q]), abs=1e-6)
    # the VectorEnv of one game seeded alike draws the same engine seed (docs/interfaces.md "Seeding")
    venv = VectorEnv(1, num_players=n, game="red_planet", final_observation=True, reward="score", seed=5)
    assert venv.reset()[3]["seeds"][0] == e.unwrapped.game_seed
    for k, a in enumerate(actions):
        _, _, _, r, terminated, _, infos = venv.step(np.array([a]))
        assert terminated[0] == (k == len(actions) - 1)
    assert infos["episode_length"][0] == len(actions)
    assert np.array_equal(infos["final_scores"][0], scores)
    assert np.allclose(r[0], rewards)
    for q in range(n):
        assert np.array_equal(infos["final_observation"][0, q], final[f"player_{q}"][0]["observation"])


# --- the self-play VectorEnv -------------------------------------------------------------------------
def test_vector_env_same_step_autoreset_starts_a_new_game_in_the_slot():
    venv = VectorEnv(12, num_players=3, game="red_planet", seed=4, final_observation=True,
                     observation_dtype="float32")
    obs, mask, player, infos = venv.reset()
    assert obs.dtype == np.float32 and set(infos) == {"seeds"}
    first = ENGINE.init(12, 3, seeds=infos["seeds"])  # infos["seeds"] are the engine seeds of the games
    assert np.array_equal(obs, ENGINE.observe(first).astype(np.float32))
    rng = np.random.default_rng(4)
    steps = np.zeros(12, dtype=np.int64)
    ended = 0
    while ended < 24:
        obs, mask, player, rewards, terminated, truncated, infos = venv.step(ENGINE.sample_actions(mask, rng))
        steps += 1
        assert not truncated.any() and mask.any(axis=1).all()
        if not terminated.any():
            assert infos == {}
            continue
        assert set(infos) == {"final_scores", "_final_scores", "round_limit", "_round_limit", "episode_length",
                              "_episode_length", "final_observation", "_final_observation", "seeds", "_seeds"}
        rows = np.flatnonzero(terminated)
        assert np.array_equal(infos["episode_length"][rows], steps[rows]) and not infos["round_limit"].any()
        assert infos["final_observation"].dtype == np.float32
        assert infos["final_observation"].shape == (12, 3, D.observation_size("info"))
        assert np.allclose(rewards[rows].sum(axis=1), 0.0, atol=1e-5)
        st = venv.batch_state  # the new games: round 1, setup, no decision taken
        assert (st.round[rows] == 1).all() and np.isin(st.phase[rows], SETUP_PHASES).all()
        steps[rows] = 0
        ended += len(rows)


# --- the Gymnasium single-seat env --------------------------------------------------------------------
class SeatRecorder(RandomPolicy):
    """A random opponent that records the seat it was asked to play."""

    def __init__(self, env_ref, index, seed):
        super().__init__(seed=seed)
        self.env_ref, self.index, self.seats = env_ref, index, []

    def act(self, observation, action_mask):
        self.seats.append(int(self.env_ref[0].batch_state.current_player[0]))
        return super().act(observation, action_mask)


def test_gym_random_seats_and_a_list_of_opponents_play_their_seats():
    n = 5
    ref = []
    opponents = [SeatRecorder(ref, k, seed=k) for k in range(n - 1)]
    env = GameEnv(num_players=n, game="red_planet", opponents=opponents, seat="random")
    ref.append(env)
    seen_seats = set()
    rng = np.random.default_rng(0)
    for episode in range(25):
        for p in opponents:
            p.seats.clear()
        obs, info = env.reset(seed=episode)
        seat = info["seat"]
        seen_seats.add(seat)
        done = False
        while not done:
            assert env.batch_state.current_player[0] == seat  # the learner acts only at its seat
            obs, reward, done, truncated, info = env.step(int(rng.choice(np.flatnonzero(info["action_mask"]))))
            assert not truncated
        for k, p in enumerate(opponents):
            assert set(p.seats) == {(seat + 1 + k) % n}
        rank = ENGINE.rewards(env.batch_state)[0]
        assert reward == pytest.approx(float(rank[seat]))
        assert info["is_success"] == bool(rank[seat] > np.delete(rank, seat).max())
        assert {"action_mask", "seat", "round_limit", "scores", "illegal_action", "is_success"} <= set(info)
        assert info["action_mask"].all() and len(info["scores"]) == n
    assert len(seen_seats) >= 4


@needs_sb3
@pytest.mark.parametrize("observation_type, dtype", [("seer", "int8"), ("recall", "float32")])
def test_gym_env_checkers_pass_for_other_observation_types_and_dtypes(observation_type, dtype):
    import gymnasium
    from gymnasium.utils.env_checker import check_env
    from stable_baselines3.common.env_checker import check_env as sb3_check_env

    env = gymnasium.make("RedPlanet-v2", num_players=3, observation_type=observation_type, observation_dtype=dtype)
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        check_env(env.unwrapped, skip_render_check=True)
        sb3_check_env(env.unwrapped)
    assert env.observation_space.dtype == np.dtype(dtype)
    assert env.observation_space.shape == (D.observation_size(observation_type),)


@pytest.mark.parametrize("illegal_action", ["lose", "raise"])
def test_gym_illegal_action_modes(illegal_action):
    env = GameEnv(num_players=4, game="red_planet", illegal_action=illegal_action, illegal_reward=-2.5)
    obs, info = env.reset(seed=1)
    bad = int(np.flatnonzero(~info["action_mask"])[0])
    if illegal_action == "raise":
        with pytest.raises(ValueError, match=f"action {bad} .* is not legal"):
            env.step(bad)
        return
    obs, reward, terminated, truncated, info = env.step(bad)
    assert (reward, terminated, truncated) == (-2.5, True, False)
    assert info["illegal_action"] is True and info["is_success"] is False and info["action_mask"].all()


# --- the SB3 VecEnv ---------------------------------------------------------------------------------------
class CountingPolicy(RandomPolicy):
    def __init__(self, seed):
        super().__init__(seed=seed)
        self.rows = 0

    def act_batch(self, observations, action_masks):
        self.rows += len(action_masks)
        return super().act_batch(observations, action_masks)


@needs_sb3
def test_sb3_opponent_pool_terminal_observation_and_success():
    pool = [CountingPolicy(seed=k) for k in range(3)]
    n = 4
    venv = GameVecEnv(6, num_players=n, game="red_planet", opponents=pool, seed=3, observation_dtype="float32",
                      opponent_sampler=lambda rng, m: rng.integers(0, len(pool), size=(m, n - 1)))
    obs = venv.reset()
    assert obs.dtype == np.float32 and venv.action_masks().shape == (6, D.num_actions)
    rng = np.random.default_rng(3)
    assignment = venv.opponent_assignment
    ended = 0
    while ended < 12:
        masks = venv.action_masks()
        assert masks.any(axis=1).all()
        obs, rewards, dones, infos = venv.step(ENGINE.sample_actions(masks, rng))
        for i in np.flatnonzero(dones):
            info = infos[i]
            assert info["terminal_observation"].dtype == np.float32
            assert info["terminal_observation"].shape == (D.observation_size("info"),)
            assert info["TimeLimit.truncated"] is False and info["round_limit"] is False
            assert info["opponents"] == assignment[i].tolist()
            assert len(info["scores"]) == n and 0 <= info["seat"] < n
            assert info["is_success"] == (rewards[i] == 1.0)  # rank reward 1 only for a sole winner
            ended += 1
        assignment = venv.opponent_assignment
    assert all(p.rows > 0 for p in pool)


# --- information sets (M-I3): the seats that do not act -------------------------------------------------
@pytest.mark.parametrize("n", [3, 5])
def test_M_I3_a_waiting_seats_observation_does_not_change_with_what_it_cannot_know(n):
    """test_encoding.py's leak test resamples the acting seat's world; the interfaces also
    hand out every waiting seat's observation (AEC observe, final observations) from the
    fast engine. For each seat, a world it cannot tell from the true one gives it the same
    info and recall observations, the finished game included."""
    rng = np.random.default_rng(n)
    checked = 0
    for seed in range(2):
        s = new_game(n, seed=seed)
        pick = random.Random(seed)
        i = 0
        while True:
            if i % 9 == 0 or is_over(s):
                for q in range(n):
                    t = sample_world(s, q, rng)
                    st = ENGINE.from_reference([s, t])
                    for kind in ("info", "recall"):
                        o = ENGINE.observe(st, player=q, observation_type=kind)
                        assert np.array_equal(o[0], o[1]), (kind, s.phase, s.round, q, s.current_player)
                        assert np.array_equal(o[0], E.observe(s, q, kind))
                    checked += 1
            if is_over(s):
                break
            apply(s, pick.choice(legal_actions(s)))
            i += 1
    assert checked > 20 * n
