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
from .state import GATE, NO_STATION, GameState, PlayerState, check_invariants

__all__ = [
    "GATE", "NO_STATION", "GameState", "PlayerState", "action_label", "apply", "check_invariants",
    "is_legal", "legal_action_mask", "legal_actions", "new_game", "scores", "winners",
]
