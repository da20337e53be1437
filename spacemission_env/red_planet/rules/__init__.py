"""Mission: Red Planet reference rules engine (readable; see docs/red_planet/rules.md)."""
from .game import (
    action_label,
    apply,
    current_player,
    is_legal,
    is_over,
    legal_action_mask,
    legal_actions,
    new_game,
    scores,
    winners,
)
from .state import NONE, GameState, PlayerState, check_invariants, check_state


def to_json(state: GameState, indent: int | None = None) -> str:
    """The state as JSON (docs: red_planet/rules/state_json.py)."""
    check_state(state)
    return state.to_json(indent)


def from_json(text: str) -> GameState:
    """A state from JSON; ValueError naming the field for a malformed or contradictory document."""
    return GameState.from_json(text)


__all__ = [
    "NONE", "GameState", "PlayerState", "action_label", "apply", "check_invariants", "current_player", "from_json",
    "is_legal", "is_over", "legal_action_mask", "legal_actions", "new_game", "scores", "to_json", "winners",
]
