"""Mission: Red Planet as data: the game description every interface declares
(game_description.py). Every value is checked against the engines, the spaces and the
components by tests/env/red_planet/test_red_planet_description.py; a change that alters
one of them changes what a seed and actions produce, so it bumps ``version``
(docs/versioning.md)."""
from __future__ import annotations

from ..game_description import GameDescription, RewardScheme
from .actions import NUM_ACTIONS
from .components import DATA, MAX_PLAYERS, MIN_PLAYERS, NUM_ROUNDS, NUM_ZONES

RULE_SETS = ("first_edition",)  # the only rule set: the spec's rulings (RED_PLANET.md)
SCORE_SCALE = 50.0  # the "score" reward: (own total - mean of the others) / 50


def _max_total_points() -> int:
    """A bound on one player's final total (M-P1..M-P3, M-E7..M-E19), from the data
    file: per zone at most 1 counter after round 5, a pot of 2 + 1 after round 8 and of
    the largest base + 1 + 2 at the end, each worth the dearest counter; the ice bonus;
    every bonus card's points at once; the counters of every ice-blocks card."""
    scoring, events = DATA["scoring"], DATA["events"]
    dearest = max(m["value"] for m in DATA["minerals"])
    largest_base = max([scoring["final_base"]] + [e.get("final_base", 0) for e in events])
    per_zone = 1 + (scoring["second_distribution_base"] + 1) + (largest_base + 1 + 2)
    cards = sum(e.get("points", 0) * e.get("count", 1) for e in events)
    ice = sum(e.get("counters", 0) * e.get("count", 1) for e in events)
    return NUM_ZONES * per_zone * dearest + scoring["ice_bonus"] + cards + ice


MAX_TOTAL_POINTS = _max_total_points()

RED_PLANET = GameDescription(
    name="red_planet",
    title="Mission: Red Planet",
    registry_name="RedPlanet",
    version=0,
    min_players=MIN_PLAYERS,  # M-X2
    max_players=MAX_PLAYERS,
    num_actions=NUM_ACTIONS,  # actions.py: 16 blocks, every decision of the spec
    observation_sizes={"info": 957, "recall": 957, "seer": 1631},  # encoding.observation_size
    observation_low=0,
    observation_high=127,  # counts and flags; counters and leftovers clipped to 127
    observation_dtype="int8",
    reward_schemes={
        "win": RewardScheme(-1.0, 1.0, "zero_sum"),  # rank rewards, tied players share (M-P4)
        "score": RewardScheme(-MAX_TOTAL_POINTS / SCORE_SCALE, MAX_TOTAL_POINTS / SCORE_SCALE, "zero_sum"),
    },
    # a player's round at its longest: commit (M-R3), two astronauts each with a
    # destination (M-L1, M-L2) and a stop, then the Scientist's draw and discovery (M-O3)
    max_steps_per_turn=8,
    setup_steps_per_player=2,  # M-S4 setup zone, M-S6 bonus keep
    dynamics="sequential",  # hidden commits are asked in seat order, later ones see nothing (M-R3, M-I4)
    chance_mode="sampled_stochastic",
    information="imperfect",  # M-I3
)
NUM_ROUNDS_FIXED = NUM_ROUNDS  # M-X1: the game always lasts ten rounds
