"""Space Mission as data: its description (what every interface declares,
game_description.py), its rule sets and the validation of a configuration that both
engines share. The configuration an interface plays is ``games.GameConfig``."""
from __future__ import annotations

from ..checks import SettingTypeError, is_int, shown, wrong_type_text
from ..game_description import GameDescription, RewardScheme
from .components import MAX_PLAYERS, MIN_PLAYERS

# Space Mission as data. Every value is checked against the engine, the spaces and the
# components by tests/env/test_game_description.py; a change that alters one of them
# changes what a seed and actions produce, so it bumps ``version`` (docs/versioning.md).
SPACE_MISSION = GameDescription(
    name="spacemission",
    title="Space Mission",
    registry_name="SpaceMission",
    version=3,
    min_players=2,
    max_players=5,
    num_actions=100,  # actions.py
    observation_sizes={"info": 1491, "recall": 1491, "seer": 2904},  # encoding.observation_size
    observation_low=0,
    observation_high=127,  # every feature is a count, flag or clipped number
    observation_dtype="int8",
    reward_schemes={
        "win": RewardScheme(-1.0, 1.0, "zero_sum"),  # rank rewards (scoring.rank_rewards)
        # (own total - mean of the others) / 50; 4.42 = 221 / 50, 221 the most points one
        # seat can hold (R-P1 rank 1, a station on each of the 8 ring planets, every point tile)
        "score": RewardScheme(-4.42, 4.42, "zero_sum"),
    },
    max_steps_per_turn=4,  # R-T2: two actions, each may be followed by its tile decision
    dynamics="sequential",
    chance_mode="sampled_stochastic",  # shuffles drawn from the game's seed inside the engine
    information="imperfect",  # hands, piles and the draw order are hidden (R-I4)
    rank_keys=("total", "stations"),  # R-P8: most points; tie -> most stations; still tied -> shared
)

RULE_SETS = ("yucata", "schmidt")  # default first; index = the fast engine's rules_id
MAX_ROUNDS_LIMIT = 2**31 - 1  # the fast engine keeps the round in int32


def check_game_config(num_players, rules, max_rounds) -> tuple[int, str, int]:
    """(num_players, rules, max_rounds) as plain values; ValueError naming the first bad one
    (the value cut, checks.shown); for one of the wrong type (``num_players`` or
    ``max_rounds`` not an integer, a bool included; ``rules`` not a str)
    checks.SettingTypeError, a ValueError that is also a TypeError, naming the type."""
    players = f"an integer in {MIN_PLAYERS}..{MAX_PLAYERS}"
    if not is_int(num_players):
        raise SettingTypeError(wrong_type_text("num_players", players, num_players))
    if not MIN_PLAYERS <= num_players <= MAX_PLAYERS:
        raise ValueError(f"num_players must be {players}, got {shown(num_players)}")
    if not isinstance(rules, str):  # before `in`: an array's `in` was numpy's "truth value" error
        raise SettingTypeError(wrong_type_text("rules", f"one of {RULE_SETS} (a str)", rules))
    if rules not in RULE_SETS:
        raise ValueError(f"unknown rules {shown(rules)}; expected one of {RULE_SETS}")
    if not is_int(max_rounds):
        raise SettingTypeError(wrong_type_text("max_rounds", f"an integer in 1..{MAX_ROUNDS_LIMIT}", max_rounds))
    if not 1 <= max_rounds <= MAX_ROUNDS_LIMIT:
        raise ValueError(f"max_rounds must be an integer in 1..{MAX_ROUNDS_LIMIT}, got {shown(max_rounds)}")
    return int(num_players), rules, int(max_rounds)
