"""HeuristicAgent: a planning bot with a hand-made evaluation (docs/agents_bots.md).

Each decision, the bot plans the rest of its turn (R-T2: one or two actions) on a model of
what it knows, and plays the first action of the best plan:

- **Plans.** Every legal first action (per jump destination and for the scan, the card
  whose other coordinates matter least; every develop pair; discover; both flies; a top
  up that only draws and one that also discards the cards its next-turn plan does not
  need) is applied to the model, then every second action the model allows. Tile choices
  inside a plan take the best tile of the pile as the bot knows it: exactly after its own
  visit (R-I3, R-I5), else estimated from the tiles it cannot place.
- **Evaluation V** at the end of the turn, in points relative to the rivals: own points
  (R-P2..R-P7) plus a *set potential* (``set_potential`` x expected future tiles x the
  expected marginal of one more tile, so tiles that open or extend mineral and alien colour
  sets, matter pairs and water steps are worth more than their immediate points); jump-gate
  standing against the rivals' mean (R-P1); its reservations per planet, valued jointly,
  times the chance they are collected (``reservation_weight``, more where a rival has
  scanned and may develop); minus the rivals' reservations a develop hands over (R-A5
  step 2); chips in supply (``chip_value`` each up to 12, ``chip_reserve`` more for each
  of the last two, a develop needs one); ``potential_discount`` x its best *next turn*
  (stay, fly or jump to a planet, then discover twice, scan and develop, develop and
  discover, or scan); the cards that plan uses count there, other held cards
  ``card_flex_value`` each and cards still to be drawn ``unknown_card_value`` each, so a
  top up discards what the plan does not need and keeps what it does.
- **End condition** (R-E1): the bot estimates each rival's score (gate, stations,
  ``rival_tile_points`` per collected tile). A plan that reveals enough space tiles to end
  the game is worth its points plus ``end_bonus`` x tanh(lead at the end / ``end_scale``),
  the lead reduced by ``rival_turn_points`` per rival still to play in the round, and
  nothing for a future it no longer has; short of that, each space tile it reveals adds
  ``reveal_weight`` x tanh(lead / end_scale). So it hurries the end when ahead and stalls
  it when behind. In its last turn (end triggered or round limit, R-E3) only points count:
  it develops its reservations and cashes in.

Parameters are keyword arguments (defaults in ``DEFAULTS``); the bot is deterministic given
its seed, which only salts exact ties.
"""
from __future__ import annotations

import numpy as np

from spacemission_env.checks import shown

from ._bot_features import CONSTS, DEV_PAIRS, BotBase, Features
from ._heuristic_kernel import heuristic_kernel
from ._heuristic_values import PARAM_NAMES

DEFAULTS = {
    "set_potential": 0.8,  # weight of the expected marginal of future tiles (per future tile)
    "future_tiles": 8.0,  # tiles the bot still expects to collect at the start of a game
    "reservation_weight": 0.45,  # base chance a reservation is collected
    "reservation_rival_scanned": 0.2,  # added where a rival has scanned (it may develop)
    "potential_discount": 0.7,  # weight of the best next-turn plan
    "rival_tile_points": 2.7,  # points per collected tile assumed for rivals
    "gift_weight": 1.0,  # weight of rival reservations a develop hands over
    "rival_weight": 1.0,  # weight of the rivals' (mean) gains against the bot's own
    "unknown_card_value": 0.6,  # a card still to be drawn
    "card_flex_value": 0.5,  # a held card outside the next-turn plan (x1.5 per joker)
    "chip_value": 0.3,  # a chip in supply (up to 12)
    "end_bonus": 25.0,  # ending the game (R-E1): x tanh(lead / end_scale)
    "end_scale": 8.0,  # points of lead that make the end (or a revealed tile) count fully
    "reveal_weight": 1.0,  # a revealed space tile short of the end: x tanh(lead / end_scale)
    "rival_turn_points": 5.0,  # a rival's expected gain in one more turn
    "topup_first_bonus": 1.0,  # a top up as first action leaves an action for the new cards
    "second_tile_factor": 0.8,  # second tile of an unseen pile, relative to the best
    "chip_reserve": 2.0,  # extra for each of the last two chips (a develop needs one)
}
assert tuple(DEFAULTS) == PARAM_NAMES


class HeuristicAgent(BotBase):
    """Planning bot (see the module docstring). ``HeuristicAgent(seed=0, **params)`` with
    the parameters of ``DEFAULTS``; unknown names raise TypeError, non-finite values ValueError."""

    name = "heuristic"

    def __init__(self, seed: int | None = 0, **params: float):
        unknown = sorted(set(params) - set(DEFAULTS))
        if unknown:
            raise TypeError(f"HeuristicAgent got unknown parameters {shown(unknown)}; known: {sorted(DEFAULTS)}")
        merged = {**DEFAULTS, **params}
        for k, v in merged.items():
            if isinstance(v, bool) or not isinstance(v, (int, float, np.integer, np.floating)) or not np.isfinite(v):
                raise ValueError(f"HeuristicAgent parameter {k} must be a finite number, got {shown(v)}")
        if merged["end_scale"] <= 0:
            raise ValueError(f"HeuristicAgent parameter end_scale must be > 0, got {shown(merged['end_scale'])}")
        self.params = merged
        self._params = np.array([merged[k] for k in PARAM_NAMES], dtype=np.float64)
        super().__init__(seed)

    def _decide(self, f: Features, masks: np.ndarray, out: np.ndarray) -> None:
        self.last_values = np.full(masks.shape, -np.inf)  # plan value per evaluated action id (diagnostics)
        heuristic_kernel(f.scal, f.hand, f.ring, f.seat, f.scanned, f.planet, f.col, f.res, f.pres, f.est, f.seen,
                         f.avail, f.probes, masks, DEV_PAIRS, self._params, CONSTS, self._salt, out, self.last_values)

    def __repr__(self) -> str:
        changed = {k: v for k, v in self.params.items() if v != DEFAULTS[k]}
        return f"HeuristicAgent({', '.join(f'{k}={v}' for k, v in changed.items())})"
