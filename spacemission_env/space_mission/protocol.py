"""Space Mission through the game protocol (spacemission_env/games.py): the one object
every interface, bot, arena and trainer reaches the game by."""
from __future__ import annotations

import numpy as np

from ..games import Game
from . import actions, encoding, engine, rules
from .config import MAX_ROUNDS_LIMIT, RULE_SETS, SPACE_MISSION
from .rules.game import action_label
from .scoring import SCORE_KEYS


def station_counts(st) -> np.ndarray:
    """int64 [B, P]: each seat's stations, the tie-break of equal totals (R-P8)."""
    return (st.stations[:, :, None] == np.arange(st.num_players)[None, None, :]).sum(axis=1)


GAME = Game(
    description=SPACE_MISSION,
    engine=engine,
    encoding=encoding,
    rules=rules,
    score_names=SCORE_KEYS,
    score_scale=50.0,  # rewards.py: (own - mean of the others) / 50
    rule_sets=RULE_SETS,
    default_max_rounds=100,
    max_rounds_limit=MAX_ROUNDS_LIMIT,
    action_label=action_label,  # (action, state=None)
    action_table=actions.action_table,
    render_module="spacemission_env.space_mission.render",
    env_class_prefix="SpaceMission",
    tiebreak=station_counts,
)
