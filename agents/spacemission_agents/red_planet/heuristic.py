"""HeuristicBot: a hand-made evaluation of Mission: Red Planet majorities, played one ply.

The bot values a *projected* Mars (the astronauts on Mars plus every crew at its ship's
destination, M-L4; ships on the pad weigh ``pad_weight``, they may still be sabotaged,
seduced or redirected, or ``safe_pad_weight`` when no opponent has the Saboteur left:
remaining role cards are public, M-I1) relative to the opponents, and picks the legal action that raises
that value most:

- **Majorities** (M-P1..M-P3): each zone pays, at each distribution still to come, its
  counters (1 after round 5; 2 + leftover after round 8; the final base + leftover, with
  the base of a discovery card the bot laid or looked at, M-E4..M-E6, and nothing where it
  knows of a Grubenunglück or Radioaktive Strahlen) times one counter's value (the revealed
  mineral, else the pool's mean; ice worth ``ice_bonus_value`` more for the ice bonus,
  sylvanite and celerium ``card_bonus_value`` more with the matching bonus card in hand).
  A seat's share of a pot is a logistic of its margin over the best other seat, flatter
  the further away the distribution (``tau0 + tau1`` x rounds to go). The value is the
  own share minus ``rival_weight`` times the opponents' mean share, so taking a majority
  from a leader counts about as much as winning one.
- **Bonus cards in hand** (M-E11..M-E19): Gute Planung (presence per zone), Supergeheime
  Mission (sole presence), Geheime Mission (``mission_chance`` per red zone still
  missing), Kolonisation and Strategische Zonen (a logistic of the lead in astronauts on
  Mars / in the central zones), Lost-in-Space-Memorial (own killed astronauts); known
  discovery cards Moose und Flechten, Meteoritenfeld and Sylvanit-Ader (M-E7, M-E9, M-E10).
- **Roles** (M-R3): each role's best placement now (two different ships for the Secret
  Agent, one ship for the Travel Agent and the Soldier, M-O4, M-O7, M-O8) plus its best
  ability now (Explorer: ``explorer_steps`` x its best step; Scientist: ``draw_value``;
  Recruiter: ``recruit_value`` per used card it takes back, M-O1), minus ``card_cost``
  for a card other than the Recruiter (it is gone until the Recruiter, M-R6); a placement costs
  ``supply_cost`` per astronaut, scaled by the rounds left.
- **Bonus card to keep** (M-S6): an expected value per card kind for the player count.
- **Discovery card** (M-E1): laid where its effect helps the bot's final shares most
  relative to the opponents' (huge deposit where it leads, mine disaster where a rival
  leads, mosses where it is present and few are, ...).

Parameters are keyword arguments (``DEFAULTS``). Vectorised with numpy over the batch;
ties break by a hash of the seed and the observation, so the bot is deterministic given
its seed and ``act`` equals ``act_batch`` row by row.
After each batch ``last_values`` [N, 243] holds every legal action's value in points
(-inf on illegal ones): the heuristic prior of a PPO policy codes them (ppo_prior.py).
"""
from __future__ import annotations

import numpy as np

from spacemission_env.checks import shown
from spacemission_env.red_planet.components import (
    BONUS_CARDS,
    CARD_KIND,
    MISSION_OF,
    MISSION_ZONES,
    NUM_ROUNDS,
)

from ._common import (
    IS_CENTRAL,
    MINERAL_VALUES,
    PHASE,
    RedPlanetBot,
    View,
    Z,
    block,
    finite,
    tie_noise,
)
from ._effects import action_values, effects, evaluate, needed, role_values
from ._scoring import (
    discovery_values,
    holds,
    keep_values,
    known_kind,
    remaining_counters,
    rounds_until,
)

DEFAULTS = {
    "pad_weight": 0.8,  # weight of a crew on a pad ship in the projection
    "tau0": 0.5,  # logistic scale of a majority margin at the distribution ...
    "tau1": 0.3,  # ... plus this per round still to go
    "rival_weight": 1.2,  # weight of the opponents' mean share against the own share
    "supply_cost": 0.6,  # an astronaut placed, at the start of the game (x rounds left / 10)
    "card_cost": 1.0,  # a role card other than the Recruiter played
    "recruit_value": 0.8,  # per used role card the Recruiter takes back
    "draw_value": 2.5,  # the Scientist's draw (M-O3(a))
    "look_value": 0.2,  # the Scientist's look (M-O3(b))
    "explorer_steps": 1.8,  # an Explorer turn as a multiple of its best single step
    "ice_bonus_value": 0.7,  # added to an ice counter's value (M-P3 step 5)
    "card_bonus_value": 1.5,  # added per counter of the type of a held Celerium / Sylvanit card
    "mission_chance": 0.35,  # chance per missing red zone of a Geheime Mission
    "sole_chance": 0.6,  # chance a zone where the bot is alone stays so (Supergeheime Mission)
    "lead_tau": 2.5,  # logistic scale of the Kolonisation / Strategische Zonen lead
    "safe_pad_weight": 0.95,  # pad_weight when no opponent has the Saboteur left (M-O6, M-I1)
}


def margins(counts: np.ndarray, axis: int = -1) -> np.ndarray:
    """Each seat's count minus the best other seat's, seats along ``axis`` of ``counts``."""
    top1 = counts.max(axis=axis, keepdims=True)
    is_top = counts >= top1
    second = np.where(is_top, -1.0, counts).max(axis=axis, keepdims=True)
    top2 = np.where(is_top.sum(axis=axis, keepdims=True) >= 2, top1, second)
    return counts - np.where(is_top, top2, top1)


def soft_shares(counts: np.ndarray, tau: np.ndarray) -> np.ndarray:
    """[..., S, D] each seat's chance to lead a zone at a distribution: logistic(margin /
    tau), the margin over the best other seat (an empty seat too: the zone can still be
    reached). ``counts`` [..., S]; ``tau`` broadcastable to [..., 1, D]."""
    return 1.0 / (1.0 + np.exp(-margins(counts)[..., None] / tau))


class SoftModel:
    """The heuristic's value of zones (module docstring); ``local`` and ``global_delta``
    as ``_effects.evaluate`` expects them."""

    def __init__(self, view: View, p: dict):
        N = view.N
        self.p = p
        self.n_opp = np.maximum(view.n - 1, 1).astype(np.float64)
        self.opp = view.opp.astype(np.float64)
        values = MINERAL_VALUES[None, :] + np.zeros((N, 1))
        values[:, 0] += p["ice_bonus_value"]
        values[:, 1] += p["card_bonus_value"] * (holds(view, "sylvanite") > 0)
        values[:, 2] += p["card_bonus_value"] * (holds(view, "celerium") > 0)
        total = np.maximum(view.pool.sum(axis=1, keepdims=True), 1)
        pool_mean = (view.pool * values).sum(axis=1) / total[:, 0]
        self.zone_value = np.where(view.revealed, (view.mineral * values[:, None, :]).sum(axis=2), pool_mean[:, None])
        self.pool_value = pool_mean
        self.points = np.zeros((N, Z + 1, 3))
        self.points[:, :Z] = remaining_counters(view) * self.zone_value[:, :, None]
        self.tau = (p["tau0"] + p["tau1"] * rounds_until(view)).astype(np.float32)  # [N, 3]
        self.seat_weight = -p["rival_weight"] * self.opp / self.n_opp[:, None]  # [N, S]
        self.seat_weight[:, 0] = 1.0
        # per-zone extras [N, Z + 1]: presence, sole presence, own astronauts (relative)
        self.presence = np.zeros((N, Z + 1))
        self.presence[:, :Z] = holds(view, "good_planning")[:, None] + 2.0 * known_kind(view, "sylvanite_vein") + \
            6.0 * known_kind(view, "mosses")
        self.sole = np.zeros((N, Z + 1))
        self.sole[:, :Z] = (5.0 * p["sole_chance"] * holds(view, "top_secret_mission"))[:, None]
        self.per_astronaut = np.zeros((N, Z + 1))
        self.per_astronaut[:, :Z] = known_kind(view, "meteorites")
        self.colonisation = 8.0 * holds(view, "colonisation")
        self.strategic = 6.0 * holds(view, "strategic_zones")
        missions = [c for c in BONUS_CARDS if CARD_KIND[c] == "secret_mission"]
        self.red = np.zeros((len(missions), Z + 1), dtype=bool)
        for i, c in enumerate(missions):
            self.red[i, list(MISSION_ZONES[MISSION_OF[c]])] = True
        self.missions = view.own_bonus[:, missions].astype(np.float64)  # [N, 4]

    def local(self, counts: np.ndarray, rows: np.ndarray, zones: np.ndarray) -> np.ndarray:
        """[M] value of zones ``zones`` of rows ``rows`` holding ``counts`` [M, S]: the sum over
        seats of weight x share (weight 1 for the bot, -rival_weight / opponents for each
        opponent), plus the presence and per-astronaut terms of cards. Seat-major inside:
        reductions over 5 seats are then elementwise over M."""
        c = np.ascontiguousarray(counts.T, dtype=np.float32)  # [S, M]
        w = self.seat_weight[rows].T  # [S, M]
        m = margins(c, axis=0)
        tau = self.tau[rows].T  # [3, M]
        pts = self.points[rows, zones].T  # [3, M]
        value = np.zeros(len(rows))
        for d in range(3):
            value += pts[d] * (w / (1.0 + np.exp(-m / tau[d]))).sum(axis=0)
        pres = np.minimum(c, 1.0)
        value += self.presence[rows, zones] * (pres * w).sum(axis=0)
        value += self.sole[rows, zones] * pres[0] * np.prod(1.0 - pres[1:], axis=0)
        value += self.per_astronaut[rows, zones] * (c * w).sum(axis=0)
        return value

    def lead_value(self, totals: np.ndarray, opp: np.ndarray) -> np.ndarray:
        """[P]: logistic of the own lead over the best opponent in ``totals`` [P, S]
        (``opp`` [P, S] marks the opponents)."""
        lead = totals[:, 0] - np.where(opp, totals, -1e9).max(axis=-1)
        return 1.0 / (1.0 + np.exp(-lead / self.p["lead_tau"]))

    def global_delta(self, view: View, proj: np.ndarray, r: np.ndarray, ez: np.ndarray, ed: np.ndarray) -> np.ndarray:
        """[P] the bonus cards that depend on all zones at once (Kolonisation, Strategische
        Zonen, Geheime Mission), for the virtual actions of rows ``r`` with effects ``ez``
        [P, 2], ``ed`` [P, 2, S]; computed on the pairs whose row holds the card."""
        out = np.zeros(len(r))
        for weight, zones in ((self.colonisation, np.ones(Z, dtype=bool)), (self.strategic, IS_CENTRAL)):
            sel = np.flatnonzero(weight[r])
            if not len(sel):
                continue
            rs = r[sel]
            counted = np.append(zones, False)[ez[sel]][..., None]  # [P', 2, 1]
            t = proj[rs, :Z][:, zones].sum(axis=1)  # [P', S]
            after = t + (ed[sel] * counted).sum(axis=1)
            opp = view.opp[rs]
            out[sel] += weight[rs] * (self.lead_value(after, opp) - self.lead_value(t, opp))
        chance = self.p["mission_chance"]
        for i in range(len(self.red)):
            sel = np.flatnonzero(self.missions[r, i])
            if not len(sel):
                continue
            rs, zs = r[sel], ez[sel]
            mine = proj[rs, :, 0]  # [P', Z + 1]
            missing = ((mine < 0.5) & self.red[i]).sum(axis=1)
            before = np.take_along_axis(mine, zs, axis=1)  # [P', 2]
            after = before + ed[sel][..., 0]
            d_missing = (self.red[i][zs] * ((before >= 0.5).astype(int) - (after >= 0.5))).sum(axis=1)
            out[sel] += 8.0 * (chance ** (missing + d_missing) - chance ** missing)
        return out


def keep_table(n: np.ndarray) -> np.ndarray:
    """[N, 13] expected points of each bonus card kept at setup (M-S6) for n players."""
    n = n.astype(np.float64)[:, None]
    per_kind = {
        "secret_mission": 3.5 + 0 * n, "top_secret_mission": 4.0 + 0 * n, "ice_blocks": 2.0 + 3.0 / n,
        "celerium": 11.0 / n, "sylvanite": 11.0 / n, "memorial": 2.0 + 0 * n, "good_planning": 5.5 + 0 * n,
        "colonisation": 12.0 / n, "strategic_zones": 9.0 / n,
    }
    return np.concatenate([per_kind[CARD_KIND[c]] for c in BONUS_CARDS], axis=1)


class HeuristicBot(RedPlanetBot):
    """Majority-reasoning bot (module docstring). ``HeuristicBot(seed=0, **params)`` with
    the parameters of ``DEFAULTS``; unknown names raise TypeError, non-finite values ValueError."""

    name = "heuristic"

    def __init__(self, seed: int | None = 0, **params: float):
        unknown = sorted(set(params) - set(DEFAULTS))
        if unknown:
            raise TypeError(f"HeuristicBot got unknown parameters {shown(unknown)}; known: {sorted(DEFAULTS)}")
        merged = {**DEFAULTS, **params}
        for k, v in merged.items():
            if isinstance(v, bool) or not isinstance(v, (int, float, np.integer, np.floating)) or not np.isfinite(v):
                raise ValueError(f"HeuristicBot parameter {k} must be a finite number, got {shown(v)}")
        for k in ("tau0", "lead_tau"):
            if merged[k] <= 0:
                raise ValueError(f"HeuristicBot parameter {k} must be > 0, got {shown(merged[k])}")
        self.params = {k: float(v) for k, v in merged.items()}
        super().__init__(seed)

    def _decide(self, obs: np.ndarray, masks: np.ndarray) -> np.ndarray:
        p = self.params
        view = View(obs, masks, self.observation_type)
        model = SoftModel(view, p)
        saboteur = (view.roles_left[:, :, 5] & view.opp).any(axis=1)
        pad_weight = np.where(saboteur, p["pad_weight"], p["safe_pad_weight"])
        proj = view.projection(pad_weight)
        need = needed(view)
        vv = evaluate(view, proj, model, *effects(view, pad_weight, need), need)
        values = action_values(view, vv)
        # an astronaut placed is one fewer for later rounds
        per_astronaut = p["supply_cost"] * (NUM_ROUNDS - view.round + 1) / NUM_ROUNDS
        group = np.where(view.role == 6, 3, np.where(view.role == 7, 2, 1))
        values[:, block("place")] -= (per_astronaut * group)[:, None]
        values[:, block("draw")] = p["draw_value"]
        values[:, block("look")] = p["look_value"]
        values[:, block("sabotage")] += pad_weight[:, None] * view.crew[:, :, 0] * holds(view, "memorial")[:, None]
        if (view.phase == PHASE["commit"]).any():
            values += self._commit_values(view, vv, per_astronaut)
        if (view.phase == PHASE["keep"]).any():
            values += keep_values(view, keep_table(view.n))
        if (view.phase == PHASE["discovery"]).any():
            values += self._discovery_values(view, model, proj)
        # the values of the legal actions, in points, before tie-breaking: the PPO prior's input (ppo_prior.py)
        self.last_values = np.where(masks, finite(values), -np.inf)
        score = np.where(masks, self.last_values + tie_noise(obs, self._salt), -np.inf)
        return score.argmax(axis=1)

    def _commit_values(self, view: View, vv: np.ndarray, per_astronaut: np.ndarray) -> np.ndarray:
        p = self.params
        placement, ability = role_values(view, vv, p["explorer_steps"])
        placed = np.array([1, 1, 2, 2, 1, 1, 3, 2, 2], dtype=np.float64)
        placement = placement - per_astronaut[:, None] * placed * (placement > 0)
        ability[:, 2] += p["draw_value"] * (view.event_pile > 0)
        hand = view.roles_left[:, 0].sum(axis=1)
        ability[:, 0] += p["recruit_value"] * (9 - hand)
        cost = np.full(9, p["card_cost"])
        cost[0] = 0.0
        out = np.zeros((view.N, block("pass").stop))
        out[:, block("commit")] = placement + ability - cost[None, :]
        return out

    def _discovery_values(self, view: View, model: SoftModel, proj: np.ndarray) -> np.ndarray:
        counts = proj[:, :Z]
        sh = soft_shares(counts, model.tau[:, None, None, 2:3])[..., 0]  # [N, Z, S]: the final distribution
        opp = view.opp[:, None, :]
        n_opp = model.n_opp[:, None]
        pres = np.minimum(counts, 1.0)
        final_points = model.points[:, :Z, 2]
        return discovery_values(view, sh[:, :, 0], (sh * opp).sum(axis=2) / n_opp, final_points, pres[:, :, 0],
                                (pres * opp).sum(axis=2) / n_opp, counts[:, :, 0] - (counts * opp).sum(axis=2) / n_opp,
                                model.pool_value, model.zone_value)

    def __repr__(self) -> str:
        changed = {k: v for k, v in self.params.items() if v != DEFAULTS[k]}
        return f"HeuristicBot({', '.join(f'{k}={v}' for k, v in changed.items())})"
