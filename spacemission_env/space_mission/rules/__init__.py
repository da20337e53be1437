"""Reference rules engine (readable; see docs/rules.md)."""
from .game import (
    action_label,
    apply,
    is_legal,
    legal_action_mask,
    legal_actions,
    new_game,
    scores,
    winners,
)
from .state import GATE, NO_STATION, GameState, PlayerState, check_invariants, check_state


# The reference-engine functions of the game protocol (spacemission_env/games.py), as
# every game's rules package offers them.
def current_player(state: GameState) -> int:
    """The seat to act."""
    check_state(state)
    return state.current_player


def is_over(state: GameState) -> bool:
    """The game has ended (R-E1 or the round limit, R-E3)."""
    check_state(state)
    return state.is_over


def to_json(state: GameState, indent: int | None = None) -> str:
    """The state as JSON (rules/state_json.py)."""
    check_state(state)
    return state.to_json(indent)


def from_json(text: str) -> GameState:
    """A state from JSON; ValueError naming the field for a malformed or contradictory document."""
    return GameState.from_json(text)


__all__ = [
    "GATE", "NO_STATION", "GameState", "PlayerState", "action_label", "apply", "check_invariants", "current_player",
    "from_json", "is_legal", "is_over", "legal_action_mask", "legal_actions", "new_game", "scores", "to_json",
    "winners",
]
