"""Mission: Red Planet through the game protocol (spacemission_env/games.py): the one
object every interface, bot, arena and trainer reaches the game by."""
from __future__ import annotations

from ..games import Game
from . import actions, encoding, engine, rules
from .config import NUM_ROUNDS_FIXED, RED_PLANET, RULE_SETS, SCORE_SCALE
from .rules.labels import action_label as _label
from .rules.scoring import CATEGORIES


def action_label(action, state=None) -> str:
    """The action in words (the protocol's argument order: action first)."""
    return _label(state, action)


# the action kinds another seat may not see (the actor sees its own) and what they see instead:
# the role commit stays hidden until its role is called (M-R3, M-R4, M-I4); the kept bonus
# card is private (M-S6, M-I2)
HIDDEN_KINDS = {"commit": "commits a role (hidden until it is called, M-R3)",
                "keep": "keeps one bonus card (hidden, M-S6)"}


def hidden_label(action, state=None) -> str | None:
    """What the other seats see of a hidden move (a commit, a keep); None for a public one."""
    return HIDDEN_KINDS.get(actions.decode(action)[0])


GAME = Game(
    description=RED_PLANET,
    engine=engine,
    encoding=encoding,
    rules=rules,
    score_names=CATEGORIES,  # total last
    score_scale=SCORE_SCALE,
    rule_sets=RULE_SETS,
    default_max_rounds=NUM_ROUNDS_FIXED,  # M-X1: ten rounds, no other length
    max_rounds_limit=NUM_ROUNDS_FIXED,
    action_label=action_label,
    action_table=actions.action_table,
    render_module="spacemission_env.red_planet.render",
    env_class_prefix="RedPlanet",
    hidden_label=hidden_label,
)
