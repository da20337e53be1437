"""Every registered bot (registry.AGENTS_BY_GAME) in every game configuration, on unusual
positions: the configuration sweep.

- **Configurations.** Space Mission 2-5 players x both rule sets x max_rounds 1, 2 and the
  default; Red Planet 3-5 players. Each bot binds, or refuses with a ValueError that names
  the configuration (ppo and netsearch where no shipped model fits); the set it accepts is
  pinned. The accepted ones play whole arena games (one run with 2 workers) with no forfeit.
- **Positions.** Explicit Space Mission positions (tests/helpers/positions.py): R-E1 end
  near and triggered, the last round at the round limit, an empty hand, an empty hand with
  an empty draw pile, a full hand with an empty draw pile, a one-card draw pile, an empty
  discard pile, ships on the jump gate, no chips in supply, the tile decision with one and
  with two options, another seat acting, 2-5 players and both rule sets; Red Planet states
  of every phase at 3-5 players. Each bot gets the acting seat's observation of its own
  ``observation_type`` and the legal mask, returns a legal id, ``act`` agrees with
  ``act_batch`` (bots whose decision is a function of seed and observation), and the same
  seed gives the same action.
- **Batches.** B=0, 1 and 17, rows from different positions and acting seats, rows whose
  mask leaves one legal id, masks narrowed by the caller, a row with no legal action
  (ValueError: the arena never passes a finished game; docs/arena.md "What an agent gets").

Two findings were fixed (each test below failed before): SearchAgent crashed (IndexError /
ZeroDivisionError) on a mask whose legal ids were only top-ups its candidate list leaves out,
and with a seed >= 2**64, which ``seed()`` accepts, it crashed (OverflowError) at its
first decision.
"""
from __future__ import annotations

import functools
import random

import numpy as np
import pytest
from tests.helpers.positions import position

from spacemission_agents.arena import run_arena
from spacemission_agents.registry import AGENTS_BY_GAME, make_agent
from spacemission_env.games import GameConfig
from spacemission_env.red_planet import engine as rp_engine
from spacemission_env.space_mission import actions as A
from spacemission_env.space_mission import engine
from spacemission_env.space_mission.components import END_THRESHOLD
from spacemission_env.space_mission.rules import apply, legal_actions

# cheap budgets for the search bots (a deterministic function of seed and observation)
SPECS = {"search": "search:iterations=2", "netsearch": "netsearch:iterations=2"}
SM_BOTS = list(AGENTS_BY_GAME["spacemission"])
RP_BOTS = list(AGENTS_BY_GAME["red_planet"])
SM_CONFIGS = [(n, rules, mr) for n in (2, 3, 4, 5) for rules in ("yucata", "schmidt") for mr in (1, 2, 100)]
RP_CONFIGS = [(n, "first_edition", 10) for n in (3, 4, 5)]
RANDOM = {"random", "kind-random"}  # draw from a stream: rows of one batch are not independent


def spec(game: str, name: str) -> str:
    return SPECS.get(name, name) if game == "spacemission" else name


def accepts(game: str, name: str, cfg: tuple) -> bool:
    """The configurations each registered bot plays (the shipped networks fit only some)."""
    n, rules, mr = cfg
    if game == "red_planet":
        return True  # a shipped ppo model for every count, 3-5
    if name in ("ppo", "netsearch"):
        return rules == "yucata" and mr == 100
    return True


def bound(game: str, name: str, cfg: tuple, seed: int = 3):
    agent = make_agent(spec(game, name), seed=seed, game=game)
    agent.bind(GameConfig(cfg[0], cfg[1], cfg[2], game))
    return agent


def inputs(agent, observations: np.ndarray) -> np.ndarray:
    """What the arena passes for the observations (an empty [N, 0] when not used)."""
    if getattr(agent, "uses_observation", True) is False:
        return np.zeros((len(observations), 0), np.int8)
    return observations


def otype(agent) -> str:
    return getattr(agent, "observation_type", None) or "info"


# --- 1. configurations ---------------------------------------------------------------------
@pytest.mark.parametrize("game,name", [("spacemission", b) for b in SM_BOTS] + [("red_planet", b) for b in RP_BOTS])
def test_every_bot_binds_or_refuses_every_config_by_name(game, name):
    configs = SM_CONFIGS if game == "spacemission" else RP_CONFIGS
    agent = make_agent(spec(game, name), seed=1, game=game)
    for cfg in configs:
        n, rules, mr = cfg
        if accepts(game, name, cfg):
            agent.bind(GameConfig(n, rules, mr, game))
            continue
        with pytest.raises(ValueError) as err:
            agent.bind(GameConfig(n, rules, mr, game))
        msg = str(err.value)
        assert f"{n} players" in msg or f"{n}-player" in msg, msg
        if game == "spacemission":
            assert repr(rules) in msg and f"max_rounds {mr}" in msg, msg


@pytest.mark.parametrize("cfg", SM_CONFIGS, ids=[f"{n}p-{r}-{m}" for n, r, m in SM_CONFIGS])
def test_space_mission_scripted_bots_play_whole_games_in_every_config(cfg):
    n, rules, mr = cfg
    specs = ["random", "kind-random", "greedy", "heuristic"]
    if mr < 100 or n == 2:  # search to the end of a long game at 3-5 players: the slow test below
        specs.append(SPECS["search"])
    res = run_arena(specs, num_players=n, games=n, rules=rules, max_rounds=mr, seed=n, progress=False, record=False)
    assert res.forfeits == []
    assert len(res.games.forfeit_seat) > 0 and (res.games.forfeit_seat < 0).all()


@pytest.mark.parametrize("n", [2, 3, 4, 5])
def test_space_mission_networks_play_whole_games_where_they_bind(n):
    specs = ["ppo", "random"] + ([SPECS["netsearch"]] if n == 2 else [])
    res = run_arena(specs, num_players=n, games=n, seed=1, progress=False, record=False)
    assert res.forfeits == []


@pytest.mark.slow
@pytest.mark.parametrize("n", [3, 4, 5])
def test_search_bots_play_whole_default_games_at_every_player_count(n):
    res = run_arena([SPECS["search"], SPECS["netsearch"]], num_players=n, games=n, seed=2, progress=False, record=False)
    assert res.forfeits == []


@pytest.mark.parametrize("n", [3, 4, 5])
def test_red_planet_bots_play_whole_games_at_every_player_count(n):
    specs = ["random", "greedy", "heuristic"] + (["ppo"] if n == 4 else [])
    res = run_arena(specs, num_players=n, games=n, seed=n, progress=False, record=False, game="red_planet")
    assert res.forfeits == []


def test_arena_with_two_workers_both_games():
    sm = run_arena(["random", "kind-random", "greedy", "heuristic", SPECS["search"]], num_players=3, games=3,
                   rules="schmidt", max_rounds=2, workers=2, progress=False, record=False)
    rp = run_arena(["random", "greedy", "heuristic"], num_players=5, games=5, workers=2, progress=False, record=False,
                   game="red_planet")
    assert sm.forfeits == [] and rp.forfeits == []


# --- 2. unusual positions --------------------------------------------------------------------
RING = ["Freezer", "Hazard", "Caldera", "Green Heggar", "Ruby Red", "Aurora", "Basalt", "Cinder"]


def _tile(n: int, rules: str, spec: dict):
    s = position(n, rules=rules, ring=RING, ships={0: 0}, stations={0: 0}, piles={0: spec})
    apply(s, A.DISCOVER)
    return s


def sm_positions(n: int, rules: str) -> dict:
    """Explicit positions of one configuration (rules, 100 rounds unless named)."""
    t = int(END_THRESHOLD[n]) - 2
    end = dict(ring=RING, start=0, current=1, ships={1: 0}, stations={0: 0})
    return {
        "end_near": position(n, rules=rules, **end, revealed=[1, 2],
                             piles={0: {"water": 1, "space": 2}, 1: {"space": t - t // 2}, 2: {"space": t // 2}}),
        "end_triggered": position(n, rules=rules, **end, revealed=[1, 2], piles={
            0: {"water": 1, "space": 2}, 1: {"space": t + 2 - (t + 2) // 2}, 2: {"space": (t + 2) // 2}}),
        "empty_hand": position(n, rules=rules, hands={0: []}),
        "empty_hand_empty_draw": position(n, rules=rules, hands={0: []}, draw_pile=[]),
        "full_hand_empty_draw": position(n, rules=rules, draw_pile=[]),
        "one_card_draw_pile": position(n, rules=rules, hands={0: ["J1/S2"]}, draw_pile=["J2/S2"]),
        "one_card_hand_empty_draw": position(n, rules=rules, hands={0: ["S1/L1"]}, draw_pile=[], actions_left=1),
        "empty_discard": position(n, rules=rules, discard_pile=[]),
        "all_on_gate": position(n, rules=rules, ring=RING, ships={q: None for q in range(n)}),
        "gate_last_action": position(n, rules=rules, ring=RING, ships={0: None}, current=0, actions_left=1),
        "at_planet": position(n, rules=rules, ring=RING, ships={0: 3, 1: 3},
                              hands={0: ["J1/S2", "S1/L1", "J3/L3", "S?/L1", "J2/S2"]}),
        "no_supply": position(n, rules=rules, supply={0: 0}),
        "tile_one_option": _tile(n, rules, {"water": 1, "space": 5}),
        "tile_two_options": _tile(n, rules, {"water": 1, "medal": 1, "space": 4}),
        "other_seat": position(n, rules=rules, current=n - 1, start=n - 1),
    }


def sm_limit_positions(n: int, rules: str, max_rounds: int) -> dict:
    return {"last_round": position(n, rules=rules, max_rounds=max_rounds, round=max_rounds, start=0, current=n - 1,
                                   actions_left=1),
            "last_round_two_actions": position(n, rules=rules, max_rounds=max_rounds, round=max_rounds, start=0,
                                               current=0)}


def test_the_explicit_positions_are_what_they_say():
    """The sweep's positions hold the situations they are named for (2 and 5 players)."""
    for n in (2, 5):
        p = sm_positions(n, "schmidt")
        assert len(legal_actions(p["tile_one_option"])) == 1 and p["tile_one_option"].phase == "tile"
        assert len(legal_actions(p["tile_two_options"])) == 2
        assert len(legal_actions(p["empty_hand_empty_draw"])) == 1
        assert p["empty_hand_empty_draw"].draw_pile == [] and p["full_hand_empty_draw"].draw_pile == []
        assert len(p["full_hand_empty_draw"].players[0].hand) == 5 and p["empty_discard"].discard_pile == []
        assert p["end_triggered"].end_triggered and not p["end_near"].end_triggered
        assert {A.decode(a)[0] for a in legal_actions(p["at_planet"])} >= {"scan", "fly", "jump", "top_up"}
        assert p["other_seat"].current_player == n - 1
        last = sm_limit_positions(n, "yucata", 1)["last_round"]
        assert last.round == last.max_rounds == 1 and last.actions_left == 1


def check_positions(agent, states: list, label: str, deterministic: bool = True,
                    observe=engine.observe, mask_of=engine.legal_action_mask, from_reference=engine.from_reference):
    """The agent's answers on ``states`` (one batch): legal, act == act_batch row by row
    (``deterministic``), the same after reseeding."""
    st = from_reference(states)
    obs, mask = inputs(agent, observe(st, observation_type=otype(agent))), mask_of(st)
    agent.seed(5)
    x = np.asarray(agent.act_batch(obs, mask))
    assert x.shape == (len(states),) and np.issubdtype(x.dtype, np.integer), (label, x)
    assert mask[np.arange(len(x)), x].all(), (label, np.flatnonzero(~mask[np.arange(len(x)), x]))
    agent.seed(5)
    assert (np.asarray(agent.act_batch(obs, mask)) == x).all(), f"{label}: the same seed, another action"
    for i in range(len(states)):
        agent.seed(5)
        y = agent.act(obs[i], mask[i])
        assert mask[i, y], (label, i, y)
        if deterministic:
            assert int(y) == int(x[i]), f"{label} row {i}: act {y} != act_batch {x[i]}"
    one = mask.sum(axis=1) == 1
    assert (x[one] == mask[one].argmax(axis=1)).all(), label
    return x


@pytest.mark.parametrize("name", SM_BOTS)
def test_space_mission_bots_on_explicit_positions_every_config(name):
    checked = 0
    for n in (2, 3, 4, 5):
        for rules in ("yucata", "schmidt"):
            groups = {100: list(sm_positions(n, rules).values())}
            for mr in (1, 2):
                groups[mr] = list(sm_limit_positions(n, rules, mr).values())
            for mr, states in groups.items():
                if not accepts("spacemission", name, (n, rules, mr)):
                    continue
                agent = bound("spacemission", name, (n, rules, mr))
                check_positions(agent, states, f"{name} {n}p {rules} {mr}", deterministic=name not in RANDOM)
                checked += len(states)
    assert checked == (4 * 15 if name in ("ppo", "netsearch") else 4 * 2 * 19)


def red_planet_states(n: int, seed: int = 0) -> list:
    """States of every phase (the first of each in random play, then a few more)."""
    from spacemission_env.red_planet.rules import apply as rp_apply, is_over, legal_actions as rp_legal, new_game

    r = random.Random(seed)
    out, seen = [], {}
    for g in range(3):
        s = new_game(n, seed=seed * 100 + g)
        while not is_over(s):
            k = seen.get(s.phase, 0)
            if k == 0 or (k < 3 and r.random() < 0.05):
                out.append(s.from_json(s.to_json()))
                seen[s.phase] = k + 1
            rp_apply(s, r.choice(rp_legal(s)))
    return out


@pytest.mark.parametrize("n", [3, 4, 5])
def test_red_planet_bots_in_every_phase(n):
    states = red_planet_states(n, seed=n)
    phases = {s.phase for s in states}
    assert phases >= {"keep", "commit", "place", "destination", "ability", "discovery"}, phases
    for name in RP_BOTS:
        if not accepts("red_planet", name, (n, "first_edition", 10)):
            continue
        agent = bound("red_planet", name, (n, "first_edition", 10))
        check_positions(agent, states, f"red_planet {name} {n}p", deterministic=name != "random",
                        observe=rp_engine.observe, mask_of=rp_engine.legal_action_mask,
                        from_reference=rp_engine.from_reference)


# --- 3. batches ----------------------------------------------------------------------------
def _batch(game: str, agent, n: int, size: int = 17):
    """[size] rows from different positions with different acting seats, every third row's
    mask cut to one of its legal ids."""
    if game == "spacemission":
        states = list(sm_positions(n, "yucata").values())
        st = engine.from_reference([states[i % len(states)] for i in range(size)])
        obs, mask = engine.observe(st, observation_type=otype(agent)), engine.legal_action_mask(st)
    else:
        states = red_planet_states(n, seed=11)
        st = rp_engine.from_reference([states[(5 * i) % len(states)] for i in range(size)])
        obs, mask = rp_engine.observe(st, observation_type=otype(agent)), rp_engine.legal_action_mask(st)
    assert len(set(st.current_player[:size].tolist())) >= 2
    for r in range(1, size, 3):
        ids = np.flatnonzero(mask[r])
        mask[r] = False
        mask[r, ids[len(ids) // 2]] = True
    return inputs(agent, obs), mask


@pytest.mark.parametrize("game,name", [("spacemission", b) for b in SM_BOTS] + [("red_planet", b) for b in RP_BOTS])
def test_act_batch_odd_sizes_mixed_rows_single_legal_and_no_legal(game, name):
    n = 3 if game == "spacemission" else 4
    agent = bound(game, name, (n, "yucata", 100) if game == "spacemission" else (n, "first_edition", 10))
    obs, mask = _batch(game, agent, n)
    agent.seed(7)
    x = np.asarray(agent.act_batch(obs, mask))
    assert x.shape == (17,) and mask[np.arange(17), x].all()
    for r in range(1, 17, 3):
        assert x[r] == np.flatnonzero(mask[r])[0]
    agent.seed(7)
    assert (np.asarray(agent.act_batch(obs, mask)) == x).all()
    agent.seed(7)
    first = np.asarray(agent.act_batch(obs[:1], mask[:1]))
    assert first.shape == (1,) and mask[0, first[0]]
    if name not in RANDOM:  # rows are independent: B=1 is row 0 of B=17
        assert first[0] == x[0]
    assert np.asarray(agent.act_batch(obs[:0], mask[:0])).shape == (0,)
    dead = mask.copy()
    dead[4] = False  # a finished game's row: the arena never passes one
    with pytest.raises(ValueError, match="no legal action"):
        agent.act_batch(obs, dead)
    with pytest.raises(ValueError, match="no legal action"):
        agent.act(obs[4], dead[4])


@pytest.mark.parametrize("name", SM_BOTS)
def test_space_mission_bots_respect_masks_narrowed_by_the_caller(name):
    """Each round takes the bot's last answer out of the mask; the next must still be legal."""
    agent = bound("spacemission", name, (3, "yucata", 100))
    states = list(sm_positions(3, "yucata").values())
    st = engine.from_reference(states)
    obs, mask = inputs(agent, engine.observe(st, observation_type=otype(agent))), engine.legal_action_mask(st)
    for _ in range(3):
        live = mask.sum(axis=1) > 1
        x = np.asarray(agent.act_batch(obs[live], mask[live]))
        assert mask[live][np.arange(len(x)), x].all()
        mask[np.flatnonzero(live), x] = False


# --- 4. the findings -----------------------------------------------------------------------
@pytest.mark.parametrize("kwargs", [{}, {"prior": "heuristic"}, {"prior": "ppo"}, {"prior": None},
                                    {"select": "halving"}], ids=["auto", "heuristic", "ppo", "none", "halving"])
@pytest.mark.parametrize("legal", [[5, 9], [1, 2, 3], [3, 6, 12, 24]])
def test_search_on_a_mask_of_top_ups_it_never_plans(kwargs, legal):
    """Before: IndexError (the heuristic prior scores none of these top-up masks, so the
    candidate list was empty) or ZeroDivisionError (prior=None keeps only three top-ups)."""
    from spacemission_agents.search import SearchAgent

    agent = SearchAgent(iterations=2, seed=0, **kwargs)
    agent.bind(GameConfig(2))
    st = engine.from_reference([position(2)])
    obs, full = engine.observe(st, observation_type="recall"), engine.legal_action_mask(st)
    mask = np.zeros_like(full)
    mask[0, legal] = True
    assert full[0, legal].all()
    x = int(agent.act_batch(obs, mask)[0])
    assert x in legal
    assert agent.act(obs[0], mask[0]) == x


@pytest.mark.parametrize("seed", [2**64, 2**64 + 5, 2**70])
def test_search_decides_with_any_seed_it_accepts(seed):
    """Before: seed() took any non-negative integer, then the first decision raised
    OverflowError (the greedy rollout's salt is a uint64)."""
    agent = make_agent(SPECS["search"], seed=seed)
    agent.bind(GameConfig(3))
    st = engine.from_reference([position(3), position(3, current=2, start=2)])
    obs, mask = engine.observe(st, observation_type="recall"), engine.legal_action_mask(st)
    x = agent.act_batch(obs, mask)
    assert mask[np.arange(2), x].all()
    agent.seed(seed)
    assert (agent.act_batch(obs, mask) == x).all()


@functools.lru_cache(maxsize=None)
def random_play_states(cfg: tuple, seed: int, per: int = 6) -> tuple:
    """Live states of seeded kind-uniform random play in one configuration, taken at spread
    points of two games (tile decisions and the late game included)."""
    from spacemission_env.space_mission.random_play import kind_uniform_action
    from spacemission_env.space_mission.rules import new_game

    def play(g, keep=()):
        r, s, t, kept = random.Random(seed + g), new_game(cfg[0], seed=seed + g, rules=cfg[1], max_rounds=cfg[2]), 0, []
        while not s.is_over:
            if t in keep:
                kept.append(s.from_json(s.to_json()))
            apply(s, kind_uniform_action(s, r))
            t += 1
        return t, kept

    out = []
    for g in range(2):  # once to learn the length, once to keep the states
        length, _ = play(g)
        out += play(g, set(np.linspace(0, length - 1, per // 2).astype(int).tolist()))[1]
    return tuple(out)


@pytest.mark.parametrize("name", SM_BOTS)
def test_space_mission_bots_on_random_play_states_every_config(name):
    """States of seeded random play in every configuration the bot accepts."""
    checked = 0
    for k, cfg in enumerate(SM_CONFIGS):
        if accepts("spacemission", name, cfg):
            states = list(random_play_states(cfg, seed=100 + k))
            check_positions(bound("spacemission", name, cfg), states, f"{name} {cfg}", deterministic=name not in RANDOM)
            checked += len(states)
    assert checked == 6 * (4 if name in ("ppo", "netsearch") else 24)
