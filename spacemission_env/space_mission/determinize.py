"""Determinizer: full game states consistent with what one player knows (R-I1..R-I5).

For search bots (ISMCTS, determinized Monte Carlo): ``sample_world(state, player, rng)``
returns one ``GameState``; ``sample_worlds_from_observation(recall_obs, ...)`` returns
K worlds at once as a ``BatchState`` for the fast engine. Both start from the player's
``"recall"`` observation (the perfect-recall information state, encoding.py), so a
world can only use what the player knows; the player's ``"recall"`` (and ``"info"``)
observation of every world equals its observation of the true state (tested).

Constraints respected (everything below is read from the recall observation):

1. Public facts are copied: ring, ships, supplies, jump-gate probes, stations, probes
   per planet and seat, scanned flags, pile sizes, revealed piles, hand sizes,
   collection sizes, draw-pile size, the discard pile's cards, visit records (who
   looked through which pile, in which round), every seat's last turn, round, phase,
   pending action, end flags (R-I1). Own hand, own collection, own reservation types
   and own last-visit table are copied (R-I2, R-I5).
2. Cards: the unseen cards (not in own hand, not in the discard pile) are shuffled;
   other hands keep their sizes; the rest is the draw pile, in random order (R-I4).
3. Tiles: all 64 by type (R-C3). Space tiles lie only in piles, point tiles in piles,
   reservations (others': the public count per planet and seat) and collections
   (others': the public count per seat).
4. Piles:
   a. a revealed pile holds exactly its face-up space tiles (R-V1);
   b. the pile the player looks through in its own tile decision is exact (R-I3);
   c. a pile the player visited keeps the space count it had then (space tiles never
      leave a pile); its point tiles are a sub-multiset of those the player saw after
      its last visit; exact if nobody visited it since;
   d. the tiles that left a visited pile since the player's last visit lie with the
      seats that visited it afterwards (visit rounds are public; within a round, turn
      order decides): in their reservations on that planet first, the rest in their
      collections (a small max-flow keeps this feasible for every pile at once). A later
      visitor holds at least one of them if the pile is not revealed now and the visit's
      order is known (not both ages clipped): the pile then held a point tile at every
      visit (R-V1; tiles only leave a pile), so each scan, develop or discover took one
      (R-A4, R-A5 step 3, R-A6; only a pile without one gives nothing, R-A4b), and a
      visit is recorded after its tile decision. Only a seat's last visit is recorded,
      so the bound is one tile. That tile goes to the seat's reservation on the planet
      if it has one, else to its collection; the rest as above;
   e. any other pile is drawn from the tiles the player cannot have identified; one
      that lost a tile, that anyone looked through, that has a station, or on which a
      tile decision is pending holds at least one point tile (else R-V1 would have
      revealed it). Space tiles: a pile of the deal holds s of them with weight
      C(PILE_SIZE, s), as many as its places allow (a touched pile keeps a point tile;
      the tiles that left it were point tiles), drawn pile by pile from the exact
      conditional weights. (Spreading them uniformly over the places left gave a pile that
      had lost tiles too few spaces: taking point tiles leaves it rich in spaces.)
5. The world's generator state (``rng``) is fresh random: future shuffles are unknown.

History-based inferences a perfect-recall player could make that are NOT used (the
recall observation does not carry them; the worlds are consistent, not posterior
samples):

- card counting across reshuffles: cards discarded before the last reshuffle are in
  the draw pile or in hands that drew since; who drew which of them is partly
  inferable from the order of top-ups. Every unseen card is treated alike. (When the
  reshuffled pile is drawn to its last card, a rival's hand can be known exactly; the
  worlds then still deal it unseen cards. The recall observation keeps only the current
  discard pile, so this R-I5 memory is not in it either);
- which later visitors of a pile revealed since took its tiles: a visit after the
  reveal takes none (R-A4b), and the earlier visits of a seat are not recorded, so 4d
  bounds no single visitor of such a pile from below;
- earlier visits: only the last visit per pile is kept (it dominates earlier ones for
  the pile itself), so what successive own visits reveal about the tiles others took in
  between is lost;
- when counts changed: the history of probes and collection sizes, and the kinds of
  others' actions (scan vs develop/discover) that would route a taken tile to a
  reservation or a collection (4d fills reservations first);
- opponent modelling: other hands and tiles are uniform over consistent deals, not
  weighted by the choices opponents made;
- other seats' memories: their visit rounds are public and exact; the piles they saw
  are set to the world's current pile (exact when that seat is the pile's last
  visitor, otherwise a lower bound of what it saw);
- visits more than 127 rounds ago: ages are clipped, so when both the player's and
  another seat's visit age are clipped, that seat counts as a later visitor, without 4d's
  lower bound (this only loosens 4d); likewise ``round`` when both it and ``rounds_left``
  are clipped;
- the order of the discard pile (the observation holds its set; the worlds list it by
  card id): irrelevant to play, as a reshuffle uses the fresh generator.
"""
from __future__ import annotations

import math

import numpy as np

from . import encoding as E
from .components import HAND_SIZE, NUM_CARDS, NUM_POINT_TYPES, NUM_TILE_TYPES, PILE_SIZE, RING_SIZE, SPACE, TILE_COUNTS
from .config import check_game_config
from ..checks import check_memory, count_text, is_int, shown
from ..engine_common import quiet, uniform
from ..jit import njit
from .engine import kernels as K
from .engine.convert import to_reference
from .engine.state import PENDING_NONE, PHASE_TILE, BatchState, game_bytes

R, NPT, NTT, CLIP = RING_SIZE, NUM_POINT_TYPES, NUM_TILE_TYPES, E.CLIP
_FEATURE_TO_CARD = {E.CARD_FEATURE_TABLE[c].tobytes(): c for c in range(NUM_CARDS)}
assert len(_FEATURE_TO_CARD) == NUM_CARDS, "card features must identify the card"

__all__ = ["sample_world", "sample_worlds_from_observation"]


def sample_world(state, player: int, rng: np.random.Generator | None = None):
    """One ``GameState`` consistent with everything ``player`` knows (module docstring);
    ``state`` itself is not changed."""
    n = state.num_players
    if not is_int(player) or not 0 <= player < n:
        raise ValueError(f"player must be a seat in 0..{n - 1}, got {shown(player)}")
    obs = E.observe(state, int(player), "recall")
    st = sample_worlds_from_observation(obs, n, state.rules, state.max_rounds, 1, rng, player=int(player))
    return to_reference(st, 0)


def sample_worlds_from_observation(recall_obs, num_players: int, rules: str = "yucata", max_rounds: int = 100,
                                   k: int = 1, rng: np.random.Generator | None = None, player: int = 0) -> BatchState:
    """K worlds consistent with one ``"recall"`` observation [D] of the seat ``player``
    (the observation is egocentric; ``player`` only numbers the seats of the worlds).
    ``num_players``, ``rules`` and ``max_rounds`` are the game's configuration. ValueError
    for a wrong shape or configuration, or an observation no game state can produce
    (for instance an ``"info"`` observation under ``schmidt``, which hides the player's
    own reservation types). ``k`` worlds whose states alone could not fit this machine's
    memory are refused (ValueError) before anything is drawn."""
    num_players, rules, max_rounds = check_game_config(num_players, rules, max_rounds)
    if not is_int(k) or k < 1:
        raise ValueError(f"k must be a positive integer, got {k!r}")
    check_memory(f"k={count_text(int(k))}: that many worlds need", int(k) * game_bytes(num_players), "sample fewer at once",
                 " for their states alone")
    if not is_int(player) or not 0 <= player < num_players:
        raise ValueError(f"player must be a seat in 0..{num_players - 1}, got {shown(player)}")
    arr = np.asarray(recall_obs)
    if arr.ndim != 1:
        raise ValueError(f"recall_obs must be one observation of shape [{E.observation_size('recall')}], got {list(arr.shape)}")
    if rng is None:
        rng = np.random.default_rng()
    elif not isinstance(rng, np.random.Generator):  # as Red Planet's determinizer
        raise TypeError(f"rng must be a numpy.random.Generator or None, got {shown(rng)}")
    kn = _knowledge(arr, num_players, max_rounds)
    seeds = rng.integers(0, 2**64, size=int(k), dtype=np.uint64, endpoint=False)
    out = _sample(kn, int(k), seeds)
    return _assemble(kn, out, num_players, rules, max_rounds, int(player), rng)


_LAST_KNOWLEDGE: tuple | None = None  # (key, _Knowledge) of the last observation read


def _knowledge(arr: np.ndarray, num_players: int, max_rounds: int) -> "_Knowledge":
    """The observation's _Knowledge; the last one is kept, since a search samples its worlds
    in chunks from one observation (reading it was two thirds of sampling 16 worlds)."""
    global _LAST_KNOWLEDGE
    key = (arr.dtype.str, arr.tobytes(), num_players, max_rounds)
    last = _LAST_KNOWLEDGE  # one read: another thread may replace it meanwhile
    if last is not None and last[0] == key:
        return last[1]
    kn = _Knowledge(E.decode(arr.astype(np.int64), "recall"), num_players, max_rounds)
    _LAST_KNOWLEDGE = (key, kn)
    return kn


class _Knowledge:
    """What the recall observation says, in relative seats (observer = 0), checked for
    consistency, and the fixed inputs of the sampling kernel."""

    def __init__(self, v: dict, n: int, max_rounds: int):
        self.v, self.n = v, n
        bad = lambda why: ValueError(f"recall_obs is not a consistent recall observation: {why}")  # noqa: E731
        if v["seat_present"].tolist() != [1] * n + [0] * (E.S - n):
            raise bad(f"its seats do not fit num_players={n}")
        self.round = self._round(int(v["round"][0]), int(v["rounds_left"][0]), max_rounds, bad)
        probes, own_res = v["probes"][:, :n], v["own_reservations"]
        if (own_res.sum(axis=1) != probes[:, 0]).any():
            raise bad("own reservation types do not match own probes (an 'info' observation under schmidt?)")
        self.hand = [_FEATURE_TO_CARD.get(np.asarray(f, np.int8).tobytes()) for f in v["own_hand"][:v["hand_size"][0]]]
        if None in self.hand or v["own_hand"][len(self.hand):].any():
            raise bad("own hand features do not name cards")
        self.discard = np.flatnonzero(v["discard_cards"]).tolist()
        unseen = sorted(set(range(NUM_CARDS)) - set(self.hand) - set(self.discard))
        if len(self.discard) != v["discard_pile_size"][0] or len(unseen) != v["draw_pile_size"][0] + v["hand_size"][1:n].sum():
            raise bad("card counts do not add up to 60")
        self.unseen = np.array(unseen, np.int8)
        self.acting, self.start = int(np.argmax(v["acting_seat"])), int(np.argmax(v["start_seat"]))
        self.ships = [int(np.argmax(row)) if row.any() else -1 for row in v["ship"][:n]]
        visited = v["visited"][:n].astype(bool)
        self.visit_round = np.where(visited, np.maximum(self.round - v["visit_age"][:n], 1), 0)
        self._piles(v, n, visited, bad)

    @staticmethod
    def _round(obs_round, rounds_left, max_rounds, bad):
        if obs_round < CLIP:
            rd = obs_round
        elif rounds_left < CLIP:
            rd = max_rounds - rounds_left
        else:  # both clipped: any round in [127, max_rounds - 127] fits
            rd = max_rounds - CLIP
        if not 1 <= rd <= max_rounds or min(max(max_rounds - rd, 0), CLIP) != rounds_left or min(rd, CLIP) != obs_round:
            raise bad(f"round {obs_round} / rounds_left {rounds_left} do not fit max_rounds={max_rounds}")
        return rd

    def _later(self, r: int, p: int, loose: bool = True) -> bool:
        """Did seat r look through pile p after the observer's last visit there (4d)?
        When both ages are clipped the order is unknown: ``loose`` answers it."""
        age, n = self.v["visit_age"], self.n
        if age[r, p] == CLIP and age[0, p] == CLIP:
            return loose
        key = lambda q: self.visit_round[q, p] * n + (q - self.start) % n  # noqa: E731
        return key(r) > key(0)

    def _piles(self, v, n, visited, bad):
        size = v["pile_size"].astype(np.int64)
        last_seen = v["last_visit_pile"]
        tile_phase = bool(v["tile_decision"][0])
        pending_at = self.ships[self.acting] if tile_phase else -1
        self.after = np.zeros((R, n), np.bool_)
        self.must = np.zeros((R, n), np.bool_)  # later visitors that took a tile that left (4d)
        self.res = np.zeros((R, n), np.int64)
        self.res[:, 1:] = v["probes"][:, 1:n]
        self.coll = np.zeros(n, np.int64)
        self.coll[1:] = v["collected"][1:n]
        self.ls = np.zeros((R, PILE_SIZE), np.int8)  # the player's last view of a pile, point tiles, taken ones first
        self.m = np.zeros(R, np.int64)  # point tiles in that view
        self.kk = np.zeros(R, np.int64)  # of which have left since
        self.ls_space = np.zeros(R, np.int64)
        self.vis_me = visited[0].copy()
        self.partial = np.zeros(R, np.bool_)  # the current pile is an unknown part of the last view
        self.exact = np.zeros(R, np.bool_)  # not visited by the player, but known now
        self.exact_cur = np.zeros((R, NTT), np.int8)
        self.unknown = np.zeros(R, np.bool_)
        self.cap = np.zeros(R, np.int64)  # places for space tiles in an unknown pile
        self.size = size
        pool = TILE_COUNTS.astype(np.int64)  # the tiles the player cannot have identified
        pool[:NPT] -= v["own_collection"] + v["own_reservations"].sum(axis=0)
        for p in range(R):
            current = None
            if v["revealed"][p]:
                if v["revealed_space"][p] != size[p]:
                    raise bad(f"revealed pile {p} holds {size[p]} tiles, {v['revealed_space'][p]} face-up")
                current = np.zeros(NTT, np.int64)
                current[SPACE] = size[p]
            elif tile_phase and self.acting == 0 and pending_at == p:
                current = v["pile_seen"].astype(np.int64)
            if self.vis_me[p]:
                seen = last_seen[p].astype(np.int64)
                later = [r for r in range(1, n) if visited[r, p] and self._later(r, p)]
                self.after[p, later] = True
                if not v["revealed"][p]:  # it held a point tile at each of their visits (4d)
                    self.must[p, [r for r in later if self._later(r, p, loose=False)]] = True
                if current is None and not later:
                    current = seen
                kept_pts = size[p] - seen[SPACE]
                if current is not None:
                    gone = seen - current
                    if gone.min() < 0 or gone[SPACE] != 0 or current.sum() != size[p]:
                        raise bad(f"pile {p} does not fit the player's last view of it")
                    tiles = [t for t in range(NPT) for _ in range(gone[t])] + [t for t in range(NPT) for _ in range(current[t])]
                else:
                    if not 0 <= kept_pts <= seen[:NPT].sum():
                        raise bad(f"pile {p} does not fit the player's last view of it")
                    self.partial[p] = True
                    tiles = [t for t in range(NPT) for _ in range(seen[t])]
                self.m[p], self.kk[p], self.ls_space[p] = len(tiles), seen[:NPT].sum() - kept_pts, seen[SPACE]
                self.ls[p, :len(tiles)] = tiles
                if self.kk[p] and not later:
                    raise bad(f"pile {p} lost tiles since the player's last visit, but nobody visited it")
                if self.must[p].sum() > self.kk[p]:
                    raise bad(f"pile {p} lost fewer tiles since the player's last visit than it had visitors")
                pool -= seen  # what is left of it, and what left it since (4c, 4d)
            elif current is not None:
                self.exact[p] = True
                self.exact_cur[p] = current
                pool -= current
            else:
                self.unknown[p] = True
                touched = size[p] < PILE_SIZE or visited[:, p].any() or v["station"][p].any() or pending_at == p
                self.cap[p] = size[p] - int(touched)
                if self.cap[p] < 0:
                    raise bad(f"pile {p} is empty but not revealed")
        forced = (self.must & (self.res == 0)).sum(axis=0)  # 4d's tiles that must go to a collection
        if (forced > self.coll).any():
            raise bad("later visitors of piles the player visited hold too few tiles")
        slots = size[self.unknown].sum() + self.res.sum() + self.coll.sum() - self.kk.sum()
        if pool.min() < 0 or pool.sum() != slots or pool[SPACE] > self.cap.sum():
            raise bad("its tile counts cannot be dealt")
        self.pool_space = int(pool[SPACE])
        self.pool_pts = np.array([t for t in range(NPT) for _ in range(pool[t])], np.int8)


def _sample(kn: _Knowledge, k: int, seeds: np.ndarray) -> dict:
    n = kn.n
    out: dict[str, np.ndarray] = {
        "piles": np.zeros((k, R, NTT), np.int8),
        "res": np.zeros((k, R, n, NPT), np.int8),
        "coll": np.zeros((k, n, NPT), np.int8),
        "hands": np.zeros((k, n, HAND_SIZE), np.int8),
        "draw": np.zeros((k, NUM_CARDS), np.int8),
        "status": np.zeros(k, np.int64),
    }
    hand_sizes = np.zeros(n, np.int64)
    hand_sizes[1:] = kn.v["hand_size"][1:n]
    with quiet():  # NUMBA_DISABLE_JIT: SplitMix64's uint64 wrap-around warns in plain Python
        _sample_kernel(seeds.copy(), n, kn.unseen, hand_sizes, kn.ls, kn.m, kn.kk, kn.partial, kn.ls_space, kn.vis_me,
                       kn.exact, kn.exact_cur, kn.after, kn.must, kn.res, kn.coll, kn.unknown, kn.size, kn.cap,
                       kn.pool_pts, kn.pool_space, out["piles"], out["res"], out["coll"], out["hands"], out["draw"],
                       out["status"])
    if out["status"].any():
        raise ValueError("recall_obs is not a consistent recall observation: the tiles that left the piles the player "
                         "visited do not fit the later visitors' reservations and collections")
    out["hand_sizes"] = hand_sizes
    return out


_CHOOSE_PILE = np.array([math.comb(PILE_SIZE, s) for s in range(PILE_SIZE + 1)], np.float64)  # C(PILE_SIZE, s)


@njit
def _space_ways(unknown, cap, total):
    """ways[p, r]: the weight of dealing r space tiles over the unknown piles p.. (each pile
    s of them with weight C(PILE_SIZE, s), at most its cap); ways[0, total] > 0."""
    r_piles = unknown.shape[0]
    ways = np.zeros((r_piles + 1, total + 1), np.float64)
    ways[r_piles, 0] = 1.0
    for p in range(r_piles - 1, -1, -1):
        for r in range(total + 1):
            if not unknown[p]:
                ways[p, r] = ways[p + 1, r]
                continue
            acc = 0.0
            for s in range(min(cap[p], r) + 1):
                acc += _CHOOSE_PILE[s] * ways[p + 1, r - s]
            ways[p, r] = acc
    return ways


@njit
def _sample_kernel(rng, n, unseen, hand_sizes, ls, m, kk, partial, ls_space, vis_me, exact, exact_cur, after, must,
                   res, coll, unknown, size, cap, pool_pts, pool_space, piles, res_out, coll_out, hands, draw, status):
    """One world per rng entry (SplitMix64 streams); the steps of the module docstring."""
    nu = unseen.shape[0]
    cards = np.empty(nu, np.int8)
    tiles = np.empty(PILE_SIZE, np.int8)
    units = np.empty(64, np.int64)
    ov_pile = np.empty(64, np.int64)
    ov_tile = np.empty(64, np.int8)
    order = np.empty(64, np.int64)
    assign = np.empty(64, np.int64)
    parent = np.empty(n, np.int64)
    via = np.empty(n, np.int64)
    queue = np.empty(n, np.int64)
    cand = np.empty(n, np.int64)
    spaces = np.zeros(R, np.int64)
    ways = _space_ways(unknown, cap, pool_space)
    pts = np.empty(pool_pts.shape[0], np.int8)
    for w in range(rng.shape[0]):
        # 2. cards: other hands, then the draw pile, from the shuffled unseen cards
        cards[:] = unseen
        K.shuffle(rng, w, cards, nu)
        j = 0
        for r in range(1, n):
            for s in range(hand_sizes[r]):
                hands[w, r, s] = cards[j]
                j += 1
            K.sort_small(hands[w, r], hand_sizes[r])
        for i in range(j, nu):
            draw[w, i - j] = cards[i]
        # 4a-4d: piles the player knows exactly or visited; tiles gone since go to later visitors
        res_left = res.copy()
        coll_left = coll.copy()
        nov = 0
        for p in range(R):
            if vis_me[p]:
                for i in range(m[p]):
                    tiles[i] = ls[p, i]
                if partial[p]:
                    K.shuffle(rng, w, tiles, m[p])
                for i in range(kk[p], m[p]):
                    piles[w, p, tiles[i]] += 1
                piles[w, p, SPACE] = ls_space[p]
                # one departed tile to each visitor that must have taken one (its reservation
                # here first: fills them no less than below, so no feasible world is lost)
                j = 0
                for r in range(1, n):
                    if must[p, r]:
                        if j == 0 and not partial[p]:
                            K.shuffle(rng, w, tiles, kk[p])  # known departures: who got which is random
                        if res_left[p, r] > 0:
                            res_out[w, p, r, tiles[j]] += 1
                            res_left[p, r] -= 1
                        else:  # _Knowledge checked the collections' room
                            coll_out[w, r, tiles[j]] += 1
                            coll_left[r] -= 1
                        j += 1
                nres = 0
                for r in range(1, n):
                    if after[p, r]:
                        for _ in range(res_left[p, r]):
                            units[nres] = r
                            nres += 1
                K.shuffle(rng, w, units, nres)
                use = min(kk[p] - j, nres)
                for i in range(use):
                    res_out[w, p, units[i], tiles[j + i]] += 1
                    res_left[p, units[i]] -= 1
                for i in range(j + use, kk[p]):
                    ov_pile[nov] = p
                    ov_tile[nov] = tiles[i]
                    nov += 1
            elif exact[p]:
                for t in range(NTT):
                    piles[w, p, t] = exact_cur[p, t]
        # 4d: the rest into later visitors' collections: random choice, augmenting paths when full
        for i in range(nov):
            order[i] = i
            assign[i] = -1
        K.shuffle(rng, w, order, nov)
        for i in range(nov):
            u = order[i]
            p = ov_pile[u]
            nc = 0
            for r in range(1, n):
                if after[p, r] and coll_left[r] > 0:
                    cand[nc] = r
                    nc += 1
            if nc > 0:
                r = cand[K.below(rng, w, nc)]
                assign[u] = r
                coll_left[r] -= 1
                continue
            parent[:] = -3
            qh = 0
            qt = 0
            for r in range(1, n):
                if after[p, r]:
                    parent[r] = -2
                    queue[qt] = r
                    qt += 1
            found = -1
            while qh < qt and found < 0:
                r = queue[qh]
                qh += 1
                for v in range(nov):
                    if assign[v] != r:
                        continue
                    for r2 in range(1, n):
                        if after[ov_pile[v], r2] and parent[r2] == -3:
                            parent[r2] = r
                            via[r2] = v
                            if coll_left[r2] > 0:
                                found = r2
                                break
                            queue[qt] = r2
                            qt += 1
                    if found >= 0:
                        break
            if found < 0:
                status[w] = 1
                break
            coll_left[found] -= 1
            x = found
            while parent[x] != -2:
                v = via[x]
                assign[v] = x
                x = parent[x]
            assign[u] = x
        if status[w]:
            continue
        for u in range(nov):
            coll_out[w, assign[u], ov_tile[u]] += 1
        # 4e, 3: space tiles over the unknown piles (weights of the deal), then the point tiles
        left = pool_space
        for p in range(R):
            spaces[p] = 0
            if unknown[p]:
                u = uniform(rng, w) * ways[p, left]  # in [0, total weight)
                pick = -1
                for s in range(min(cap[p], left) + 1):
                    weight = _CHOOSE_PILE[s] * ways[p + 1, left - s]
                    if weight > 0.0:
                        pick = s  # the last feasible count takes what rounding leaves
                        u -= weight
                        if u < 0.0:
                            break
                spaces[p] = pick
                left -= pick
        pts[:] = pool_pts
        K.shuffle(rng, w, pts, pts.shape[0])
        k = 0
        for p in range(R):
            if unknown[p]:
                piles[w, p, SPACE] = spaces[p]
                for _ in range(size[p] - spaces[p]):
                    piles[w, p, pts[k]] += 1
                    k += 1
        for p in range(R):
            for r in range(1, n):
                for _ in range(res_left[p, r]):
                    res_out[w, p, r, pts[k]] += 1
                    k += 1
        for r in range(1, n):
            for _ in range(coll_left[r]):
                coll_out[w, r, pts[k]] += 1
                k += 1


def _assemble(kn: _Knowledge, out: dict, n: int, rules: str, max_rounds: int, player: int,
              rng: np.random.Generator) -> BatchState:
    v, k = kn.v, out["piles"].shape[0]
    rel = [(player + r) % n for r in range(n)]  # absolute seat of relative seat r
    st = BatchState(k, n, rules, max_rounds)
    st.rng[:] = rng.integers(0, 2**64, size=k, dtype=np.uint64, endpoint=False)  # 5: future shuffles unknown
    st.ring[:] = v["ring_planet"]
    st.piles[:] = out["piles"]
    st.revealed[:] = v["revealed"].astype(bool)
    n_draw = len(kn.unseen) - int(out["hand_sizes"].sum())
    st.draw[:, :n_draw] = out["draw"][:, :n_draw]
    st.draw_len[:] = n_draw
    st.discard[:, :len(kn.discard)] = kn.discard
    st.discard_len[:] = len(kn.discard)
    hands = out["hands"]
    hands[:, 0, :len(kn.hand)] = kn.hand
    st.hand[:, rel] = hands
    st.hand_len[:, rel] = v["hand_size"][:n]
    st.supply[:, rel] = v["supply"][:n]
    st.gate_probes[:, rel] = v["gate_probes"][:n]
    st.ship[:, rel] = kn.ships
    coll = out["coll"]
    coll[:, 0] = v["own_collection"]
    st.collection[:, rel] = coll
    st.scanned[:, rel] = v["scanned"][:n].astype(bool)
    visited = kn.visit_round > 0  # [n, R]
    seen = np.where(visited[None, :, :, None], out["piles"][:, None], 0)  # others: the world's pile (see above)
    seen[:, 0] = np.where(visited[0][:, None], v["last_visit_pile"], 0)
    st.last_seen[:, rel] = seen
    st.last_seen_round[:, rel] = kn.visit_round
    res = out["res"]
    res[:, :, 0] = v["own_reservations"]
    st.reservations[:, :, rel] = res
    owner = v["station"][:, :n]
    st.stations[:] = np.where(owner.any(axis=1), np.array(rel)[np.argmax(owner, axis=1)], -1)
    st.start_player[:] = rel[kn.start]
    st.current_player[:] = rel[kn.acting]
    st.round[:] = kn.round
    st.actions_left[:] = v["actions_left"][0]
    st.phase[:] = PHASE_TILE if v["tile_decision"][0] else 0
    st.pending[:] = 1 + int(np.argmax(v["pending"])) if v["pending"].any() else PENDING_NONE
    st.end_triggered[:] = bool(v["end_triggered"][0])
    st.terminated[:] = bool(v["game_over"][0])
    st.round_limit[:] = bool(v["round_limit"][0])
    kinds = v["last_turn_kind"][:n]  # [n, 2, 6]
    st.turn_len[:, rel] = kinds.any(axis=2).sum(axis=1)
    st.turn_kind[:, rel] = np.argmax(kinds, axis=2)
    targets = v["last_turn_target"][:n]
    st.turn_target[:, rel] = np.where(targets.any(axis=2), np.argmax(targets, axis=2), -1) * kinds.any(axis=2)
    st.turn_tile[:, rel] = v["last_turn_tile"][:n].astype(bool)
    cards = v["last_turn_cards"][:n]  # [n, 2, 60]
    st.turn_ncards[:, rel] = cards.sum(axis=2)
    ids = np.zeros((n, 2, HAND_SIZE), np.int8)
    for r, a in zip(*np.nonzero(cards.sum(axis=2))):
        c = np.flatnonzero(cards[r, a])
        ids[r, a, :len(c)] = c
    st.turn_cards[:, rel] = ids
    return st
