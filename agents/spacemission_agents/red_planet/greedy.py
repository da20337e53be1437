"""GreedyBot: one-ply greedy play of Mission: Red Planet on the majorities it sees now.

Every legal action gets its immediate gain in the bot's own *majority payoff*: for each
zone, the counters the zone still hands out (M-P1..M-P3: 6 before the distribution after
round 5, then 5 + leftover, then 3 + leftover) times one counter's value (the revealed
mineral, else the pool's mean, M-C4, M-L5), shared among the leaders as a single
leader takes all and k tied leaders 1/k each (an approximation: the rules leave a tied
first distribution's counter in the zone, M-P1, and pay each tied leader floor(pot / k)
later, M-P2, M-P3), counted on the
*projection*: the astronauts on Mars plus every crew aboard a ship at its destination
(M-L4), as if every ship landed now.

- placing (M-L1), choosing a destination (M-S4, M-L2), an Explorer step (M-O2), a
  seduction (M-O5), a sabotage (M-O6), a kill (M-O8), a redirection (M-O9): the change of
  that payoff;
- a role (M-R3): the best placement of the role plus its best ability, as if its turn
  came now; the Scientist's draw counts 1 point (M-O3), the Recruiter's ability nothing;
- a bonus card to keep (M-S6): the points printed on it;
- a drawn discovery card (M-E1): its effect on the zones' payoffs (the same for both
  colours of effect: own shares up, the opponents' mean share down);
- stop, pass, look, launch: nothing.

Ties (most of all the zero-gain actions) break by a hash of the seed and the observation,
so the bot is deterministic given its seed and ``act`` equals ``act_batch`` row by row.
"""
from __future__ import annotations

import numpy as np

from ._common import PHASE, RedPlanetBot, View, block, finite, tie_noise
from ._effects import action_values, effects, evaluate, needed, role_values
from ._scoring import KEEP_FACE, discovery_values, keep_values, remaining_counters

DRAW_VALUE = 1.0  # a drawn event card, in points (M-O3(a))


def exact_shares(counts: np.ndarray) -> np.ndarray:
    """[..., S] each seat's share of a zone's pot: 1/k for the k tied leaders (the module
    doc says how the rules differ, M-P1..M-P3)."""
    top = counts.max(axis=-1, keepdims=True)
    lead = (counts >= top - 1e-9) & (top > 0)
    return lead / np.maximum(lead.sum(axis=-1, keepdims=True), 1)


class ExactModel:
    """The greedy payoff of a zone: remaining counters x counter value x own exact share."""

    def __init__(self, view: View):
        self.points = np.zeros((view.N, view.mars.shape[1] + 1))  # + the sink zone, worth 0
        self.points[:, :-1] = remaining_counters(view, use_known_cards=False).sum(axis=2) * view.zone_value()

    def local(self, counts: np.ndarray, rows: np.ndarray, zones: np.ndarray) -> np.ndarray:
        return self.points[rows, zones] * exact_shares(counts)[:, 0]


class GreedyBot(RedPlanetBot):
    """One-ply greedy bot (module docstring). ``GreedyBot(seed=0)``; ``seed(s)`` reseeds."""

    name = "greedy"

    def _decide(self, obs: np.ndarray, masks: np.ndarray) -> np.ndarray:
        view = View(obs, masks, self.observation_type)
        model = ExactModel(view)
        proj = view.projection(1.0)
        need = needed(view)
        vv = evaluate(view, proj, model, *effects(view, 1.0, need), need)
        values = action_values(view, vv)
        values[:, block("draw")] = DRAW_VALUE
        if (view.phase == PHASE["commit"]).any():
            placement, ability = role_values(view, vv)
            ability[:, 2] += DRAW_VALUE * (view.event_pile > 0)
            values[:, block("commit")] = placement + ability
        if (view.phase == PHASE["keep"]).any():
            values += keep_values(view, KEEP_FACE)
        if (view.phase == PHASE["discovery"]).any():
            values += self._discovery_values(view, model, proj)
        score = np.where(masks, finite(values) + tie_noise(obs, self._salt), -np.inf)
        return score.argmax(axis=1)

    def _discovery_values(self, view: View, model: ExactModel, proj: np.ndarray) -> np.ndarray:
        shares = exact_shares(proj[:, :-1])  # [N, Z, S]
        n_opp = np.maximum(view.n - 1, 1)[:, None]
        opp_mean = lambda x: (x * view.opp[:, None, :]).sum(axis=2) / n_opp
        present = proj[:, :-1] > 0
        return discovery_values(view, shares[:, :, 0], opp_mean(shares), model.points[:, :-1], present[:, :, 0],
                                opp_mean(present), proj[:, :-1, 0] - opp_mean(proj[:, :-1]), view.pool_value(),
                                view.zone_value())

    def __repr__(self) -> str:
        return "GreedyBot()"
