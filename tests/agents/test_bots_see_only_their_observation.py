"""Every bot sees only what its seat may see (R-I1..R-I5, M-I1..M-I5).

Pairs of positions that are *identical in the acting seat's observation* (``info`` and
``recall`` checked equal) but differ in what the seat cannot see: other hands, the draw
pile's order and the engine's generator (the seed of future reshuffles), the piles under
the table and rivals' reservations (Space Mission); rivals' unrevealed commits, bonus cards
and setup hands, the event pile, ship deck and mineral pool orders (Red Planet). The second
position of a pair is a world of the determinizer (``sample_world``) or, in Space Mission,
a hand-made swap of an opponent's hand with the draw pile. Each registered bot, seeded
identically (search bots with ``iterations``, so deterministic), must choose the same action
in both positions, through both ways a bot meets a game:

- the arena's: ``engine.observe`` of a batch state, of the type the bot asks for, and the
  engine's legal mask, into ``act_batch`` (arena_play.play_chunk);
- ``play`` / ``serve``'s: the seat's wrapper (``spacemission_cli.play.Opponent``,
  ``_protocol_play.Bot``), which is handed the whole reference state.

Any difference is a leak. The determinizers must be functions of the observation alone: for
the same generator seed, the true state and a world of it give the same worlds.
"""
from __future__ import annotations

import functools
import json
import random

import numpy as np
import pytest

from spacemission_agents.registry import AGENTS, RED_PLANET_AGENTS, make_agent
from spacemission_env.games import GameConfig, get_game
from spacemission_env.red_planet import determinize as RD
from spacemission_env.red_planet import encoding as RE
from spacemission_env.red_planet import engine as rengine
from spacemission_env.red_planet import rules as RR
from spacemission_env.space_mission import determinize as SD
from spacemission_env.space_mission import encoding as SE
from spacemission_env.space_mission import engine as sengine
from spacemission_env.space_mission.engine.convert import to_reference
from tests.helpers.positions import swap_hidden_cards

# --- Space Mission positions ---------------------------------------------------------------------
# (players, rules, seed, kind-random steps before the position); shipped PPO / netsearch fit yucata
SM_CONFIGS = [(2, "yucata", 1, 9), (2, "yucata", 2, 40), (2, "yucata", 3, 75), (3, "yucata", 4, 33),
              (3, "schmidt", 5, 50), (4, "yucata", 6, 61)]
SM_BOTS = {  # spec -> the configurations it plays (the shipped networks fit yucata, 100 rounds)
    "random": None, "kind-random": None, "greedy": None, "heuristic": None,
    "search:iterations=8:heuristic_steps=2": None,
    "ppo": ("yucata",), "netsearch:iterations=6": ("yucata",),
}




@functools.lru_cache(maxsize=None)
def sm_pairs():
    """[(config, seat, state, other state)]: two pairs per configuration."""
    out = []
    for n, rules, seed, steps in SM_CONFIGS:
        st = sengine.init(1, n, seeds=seed, rules=rules, max_rounds=100)
        rng = np.random.default_rng(seed)
        for _ in range(steps):
            sengine.step(st, sengine.sample_actions(sengine.legal_action_mask(st), rng, by_kind=True))
        assert not st.terminated[0]
        s = to_reference(st, 0)
        p = int(st.current_player[0])
        config = GameConfig(n, rules, 100)
        out.append((config, p, s, SD.sample_world(s, p, np.random.default_rng(seed + 100))))
        out.append((config, p, s, swap_hidden_cards(s, p)))
    return out


def test_space_mission_pairs_look_the_same_to_the_seat_and_differ_in_what_it_cannot_see():
    tiles = False
    for config, p, s, t in sm_pairs():
        for otype in ("info", "recall"):
            assert (SE.observe(s, p, otype) == SE.observe(t, p, otype)).all()
        a, b = (SE.decode(SE.observe(x, p, "seer"), "seer") for x in (s, t))
        assert (a["seer_hands"] != b["seer_hands"]).any()  # another seat's hand differs
        assert s.draw_pile != t.draw_pile and s.rng != t.rng  # the draw order and the seed
        tiles |= bool((a["seer_piles"] != b["seer_piles"]).any() or
                      (a["seer_reservations"] != b["seer_reservations"]).any())
    assert tiles  # some pair moves tiles under the table


# --- Red Planet positions ------------------------------------------------------------------------
RP_PLAYERS = (3, 4, 5)
RP_PHASES = ("keep", "commit", "place", "ability", "destination")


@functools.lru_cache(maxsize=None)
def rp_pairs():
    """[(config, seat, state, world)]: positions of random games in every phase a bot decides
    in, each with a world of the determinizer for the acting seat."""
    out = []
    for n in RP_PLAYERS:
        for seed in range(2):
            s, rnd = RR.new_game(n, seed=seed), random.Random(seed)
            phases = set()
            step = 0
            while not RR.is_over(s):
                acts = RR.legal_actions(s)
                if len(acts) > 1 and s.phase not in phases and (s.phase != "commit" or s.round > 1
                                                                 or step % 3 == 2):
                    phases.add(s.phase)
                    p = s.current_player
                    w = RD.sample_world(s, p, np.random.default_rng(1000 * n + step))
                    out.append((GameConfig(n, game="red_planet"), p, s.copy(), w))
                RR.apply(s, rnd.choice(acts))
                step += 1
    return out


def test_red_planet_pairs_look_the_same_to_the_seat_and_differ_in_what_it_cannot_see():
    differ = set()
    phases = set()
    for config, p, s, w in rp_pairs():
        phases.add(s.phase)
        for otype in ("info", "recall"):
            assert (RE.observe(s, p, otype) == RE.observe(w, p, otype)).all()
        a, b = (RE.decode(RE.observe(x, p, "seer"), "seer") for x in (s, w))
        differ |= {k for k in a if k.startswith("seer_") and (a[k] != b[k]).any()}
    assert set(RP_PHASES) <= phases
    # rivals' commits (this round's, unrevealed), bonus cards, setup hands, the piles' orders
    assert {"seer_commit", "seer_bonus", "seer_setup_hand", "seer_event_pile", "seer_ship_deck",
            "seer_mineral_pool"} <= differ


# --- the two ways a bot is handed a position ----------------------------------------------------
def _engine_choice(agent, engine, state, seed=0):
    """As the arena: the acting seat's observation of the type the agent asks for, from the
    batched engine, and the engine's mask, into act_batch."""
    st = engine.from_reference([state])
    mask = engine.legal_action_mask(st)
    if getattr(agent, "uses_observation", True) is False:
        obs = np.empty((1, 0), np.int8)
    else:
        obs = engine.observe(st, observation_type=getattr(agent, "observation_type", None) or "info")
    agent.seed(seed)
    return int(agent.act_batch(obs, mask)[0])


def _check_bot(spec, game, pairs, engine, seat_bot):
    bots = {}
    for config, p, s, t in pairs:
        key = (config.num_players, config.rules)
        if key not in bots:
            agent = make_agent(spec, seed=0, game=game)
            agent.bind(config)
            assert (getattr(agent, "observation_type", None) or "info") in ("info", "recall")  # never "seer"
            bots[key] = agent
        agent = bots[key]
        for seed in (0, 1):
            a, b = _engine_choice(agent, engine, s, seed), _engine_choice(agent, engine, t, seed)
            assert a == b, f"{spec}: seat {p} chose {a} and {b} in positions it cannot tell apart ({s.phase})"
        seat = seat_bot(spec, p, config)
        a, b = seat.act(s.copy(), 7), seat.act(t.copy(), 7)
        assert a == b, f"{spec} (play/serve seat): seat {p} chose {a} and {b} in positions it cannot tell apart"


def _sm_seat(spec, p, config):
    from spacemission_cli.play import Opponent

    return Opponent(spec, p, 0, config)


def _rp_seat(spec, p, config):
    from spacemission_cli._protocol_play import Bot

    return Bot(get_game("red_planet"), spec, p, 0, config)


def test_every_space_mission_bot_is_tested():
    assert {spec.split(":")[0] for spec in SM_BOTS} == set(AGENTS)


@pytest.mark.parametrize("spec", list(SM_BOTS))
def test_space_mission_bot_chooses_alike_where_its_seat_sees_alike(spec):
    rules = SM_BOTS[spec]
    pairs = [x for x in sm_pairs() if rules is None or x[0].rules in rules]
    _check_bot(spec, "spacemission", pairs, sengine, _sm_seat)


@pytest.mark.parametrize("spec", list(RED_PLANET_AGENTS))
def test_red_planet_bot_chooses_alike_where_its_seat_sees_alike(spec):
    players = (4,) if spec == "ppo" else RP_PLAYERS  # the shipped model plays 4 players
    pairs = [x for x in rp_pairs() if x[0].num_players in players]
    _check_bot(spec, "red_planet", pairs, rengine, _rp_seat)


# --- the determinizers ---------------------------------------------------------------------------
def test_space_mission_determinizer_reads_the_observation_alone():
    for config, p, s, t in sm_pairs():
        for seed in (0, 1):
            a = SD.sample_world(s, p, np.random.default_rng(seed))
            b = SD.sample_world(t, p, np.random.default_rng(seed))
            assert a.to_json() == b.to_json()
        obs = SE.observe(s, p, "recall")
        assert (obs == SE.observe(t, p, "recall")).all()
        a = SD.sample_worlds_from_observation(obs, config.num_players, config.rules, 100, 3, np.random.default_rng(5), p)
        b = SD.sample_worlds_from_observation(SE.observe(t, p, "recall"), config.num_players, config.rules, 100, 3,
                                              np.random.default_rng(5), p)
        assert all(to_reference(a, i).to_json() == to_reference(b, i).to_json() for i in range(3))


def test_red_planet_determinizer_reads_the_observation_alone():
    """Same seed, positions the seat cannot tell apart: the same worlds (the event pile,
    ship deck and mineral pool were permuted from their true order, so the worlds' orders
    followed it, though each order was uniform)."""
    for _, p, s, w in rp_pairs():
        for seed in (0, 1):
            a = RD.sample_world(s, p, np.random.default_rng(seed)).to_json()
            b = RD.sample_world(w, p, np.random.default_rng(seed)).to_json()
            if a != b:
                da, db = json.loads(a), json.loads(b)
                raise AssertionError(f"{s.phase}: worlds differ in {[k for k in da if da[k] != db[k]]}")
