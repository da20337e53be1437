"""Mission: Red Planet as data: the game description every interface declares
(game_description.py). Every value is checked against the engines, the spaces and the
components by tests/env/red_planet/test_parity_sweep.py (and tests/env/test_games.py);
any change of one of them bumps ``version`` (docs/versioning.md: the reward ranges and
the longest game are part of what a version fixes)."""
from __future__ import annotations

from ..game_description import GameDescription, RewardScheme
from .actions import NUM_ACTIONS
from .components import DATA, MAX_PLAYERS, MIN_PLAYERS, NUM_ROUNDS, NUM_ZONES

RULE_SETS = ("first_edition",)  # the only rule set: the spec's rulings (RED_PLANET.md)
SCORE_SCALE = 50.0  # the "score" reward: (own total - mean of the others) / 50


def _max_total_points() -> int:
    """The bound on one player's final total that versions 0 to 2 declare (449 points; the
    ``"score"`` range is +-449 / 50), from the data file: per zone at most 1 counter after
    round 5, a pot of 2 + 1 after round 8 and of the largest base + 1 + 2 at the end, each
    worth the dearest counter; the ice bonus; every event card's ``points`` once; the
    counters of every ice-blocks card.

    Counting each card's points once undercounts the cards that pay per astronaut or per
    zone (M-E9, M-E12, M-E16, M-E17: up to 22, 50, 22 and 10 points) and leaves out the
    Sylvanit-Ader counter (M-E10), so this sum alone is no proof. It is still a bound, with
    room to spare, because it prices all ten zones' counters as celerium while only four
    celerium tokens exist (M-C4): pricing each distribution's zones by the tokens (at most
    4 celerium, 5 sylvanite, the rest ice, at any time) and every card at its most gives
    423 points (tests/env/red_planet/test_parity_sweep.py derives it and checks that it
    stays within this value). The value is kept: changing it would change the
    reward range, and with it the version (docs/versioning.md)."""
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
    version=2,
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
    # a bound on a player's decisions in one round (versions 0 to 2). The longest
    # round asks 7: commit (M-R3), the Scientist's two astronauts each with a destination
    # (M-L1, M-L2; no stop is asked once both are placed), his draw and the discovery card
    # laid (M-O3, M-E1); every other role asks fewer. The bound is one step loose;
    # tightening it would change the longest game, and the version (docs/versioning.md).
    # tests/env/red_planet/test_parity_sweep.py checks both numbers.
    max_steps_per_turn=8,
    setup_steps_per_player=2,  # M-S4 setup zone, M-S6 bonus keep
    dynamics="sequential",  # hidden commits are asked in seat order, later ones see nothing (M-R3, M-I4)
    chance_mode="sampled_stochastic",
    information="imperfect",  # M-I3
    rank_keys=("total",),  # M-P4: most points; tied players share the place
)
NUM_ROUNDS_FIXED = NUM_ROUNDS  # M-X1: the game always lasts ten rounds
