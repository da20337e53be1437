"""Information sets: what each observation type hides and shows.

Over thousands of states (kind-random and "progress" play, both rule sets, 2-5 players,
tile decisions included): resampling what the observer cannot know (the determinizer,
spacemission_env/space_mission/determinize.py) leaves its "recall" and "info" observations unchanged
(R-I1..R-I5); under schmidt "info" also hides its own reservation types and last-visit
piles (R-A4c, R-I3); "seer" hides nothing; perturbing what the observer knows changes
its observation. Determinized worlds pass check_invariants and the engines' conversion,
respect the visit constraints, and differ where the observer is uncertain.
"""
import json

import numpy as np
import pytest
from tests.helpers.env_play import pick, progress_masks

from spacemission_env import decode
from spacemission_env.space_mission import engine
from spacemission_env.space_mission import encoding as E
from spacemission_env.space_mission.components import NUM_POINT_TYPES, RING_SIZE, SPACE, TILE_INDEX
from spacemission_env.space_mission.determinize import sample_world, sample_worlds_from_observation
from spacemission_env.space_mission.rules import GameState, check_invariants

CONFIGS = [(n, r) for n in (2, 3, 4, 5) for r in ("yucata", "schmidt")]


def snapshots(n, rules, games, checkpoints, seed, player="kind", max_rounds=100):
    """BatchState copies taken after ``checkpoints`` steps of batched play ("kind": kind-uniform
    random, "progress": the progress player of tests/helpers/env_play.py, which ends games by R-E1)."""
    st = engine.init(games, n, seeds=seed, rules=rules, max_rounds=max_rounds)
    rng = np.random.default_rng(seed)
    out, step = [], 0
    for cp in checkpoints:
        while step < cp:
            mask = engine.legal_action_mask(st)
            if player == "kind":
                a = engine.sample_actions(mask, rng, by_kind=True)
            else:
                a = pick(progress_masks(mask, rng), rng)
            engine.step(st, a)
            step += 1
        out.append(st.copy())
    return out


def took_a_tile_since(v, n, p):
    """Seats whose last visit to pile p surely took one of the tiles that left it since the
    observer's last visit (4d): the pile is not revealed, so it held a point tile then
    (R-V1, R-A4..R-A6), and the visit is after the observer's (age, then turn order)."""
    if not v["visited"][0, p] or v["revealed"][p]:
        return []
    age, start = v["visit_age"][:, p], int(np.argmax(v["start_seat"]))
    order = lambda r: (-int(age[r]), (r - start) % n)  # noqa: E731
    return [r for r in range(1, n) if v["visited"][r, p] and not age[r] == age[0] == E.CLIP and order(r) > order(0)]


def each_holds_a_tile_that_left(gone, held):
    """Hall's condition: every subset S of the seats holds >= |S| of the ``gone`` tiles
    (types counted per seat: its reservation on the planet and its collection)."""
    for mask in range(1, 1 << len(held)):
        s = [h for i, h in enumerate(held) if mask >> i & 1]
        if np.minimum(gone, np.sum(s, axis=0)).sum() < len(s):
            return False
    return True


def check_world_constraints(obs, world_obs_seer, n):
    """Constraints 4c/4d of determinize.py read off the observation and the world's seer view."""
    v, w = decode(obs, "recall"), decode(world_obs_seer, "seer")
    for p in range(RING_SIZE):
        if not v["visited"][0, p]:
            continue
        seen, now = v["last_visit_pile"][p], w["seer_piles"][p]
        assert now[SPACE] == seen[SPACE] and (now <= seen).all()  # 4c
        gone = seen[:NUM_POINT_TYPES] - now[:NUM_POINT_TYPES]
        later = [r for r in range(1, n) if v["visited"][r, p] and (
            v["visit_age"][r, p] < v["visit_age"][0, p] or v["visit_age"][r, p] == v["visit_age"][0, p])]
        held = sum((w["seer_reservations"][p, r] + w["seer_collections"][r] for r in later),
                   np.zeros(NUM_POINT_TYPES, np.int64))
        assert (gone <= held).all()  # 4d, per type (later visitors by age; same round: either order)
        must = [w["seer_reservations"][p, r] + w["seer_collections"][r] for r in took_a_tile_since(v, n, p)]
        assert each_holds_a_tile_that_left(gone, must)  # 4d's lower bound


def run_determinizer(configs, games, checkpoints, worlds, player, seed=0):
    """For each snapshot state and one observer: K worlds from its recall observation;
    every world's recall and info observations equal the true state's. Returns counts."""
    stats = {"states": 0, "tile": 0, "worlds": 0, "uncertain_hands": 0, "hands_vary": 0, "piles_vary": 0}
    rng = np.random.default_rng(seed)
    for n, rules in configs:
        for st in snapshots(n, rules, games, checkpoints, seed + 7 * n, player):
            seats = rng.integers(0, n, st.batch_size)
            recall = engine.observe(st, seats, "recall")
            info = engine.observe(st, seats, "info")
            for i in range(st.batch_size):
                q = int(seats[i])
                wb = sample_worlds_from_observation(recall[i], n, rules, st.max_rounds, worlds, rng, player=q)
                assert np.array_equal(engine.observe(wb, q, "recall"), np.broadcast_to(recall[i], (worlds, recall.shape[1])))
                assert (engine.observe(wb, q, "info") == info[i]).all()
                check_world_constraints(recall[i], engine.observe(wb, q, "seer")[0], n)
                stats["states"] += 1
                stats["tile"] += int(st.phase[i] == 1)
                stats["worlds"] += worlds
                others = [r for r in range(n) if r != q]
                held = st.hand_len[i, others]
                if held.sum() and (st.draw_len[i] or (held > 0).sum() > 1):  # more than one way to deal them
                    stats["uncertain_hands"] += 1
                    stats["hands_vary"] += len({wb.hand[j, others].tobytes() for j in range(worlds)}) > 1
                stats["piles_vary"] += len({wb.piles[j].tobytes() for j in range(worlds)}) > 1
    return stats


@pytest.mark.parametrize("player", ["kind", "progress"])
def test_worlds_give_the_observer_the_same_recall_and_info_observation(player):
    stats = run_determinizer(CONFIGS, games=24, checkpoints=(3, 40, 120, 260), worlds=4, player=player)
    assert stats["states"] == 8 * 24 * 4 and stats["tile"] > 20
    assert stats["hands_vary"] > 0.95 * stats["uncertain_hands"] > 0.5 * stats["states"]  # R-I4: other hands resampled
    assert stats["piles_vary"] > 0.8 * stats["states"], stats


@pytest.mark.slow
def test_worlds_many_states():
    for player in ("kind", "progress"):
        stats = run_determinizer(CONFIGS, games=200, checkpoints=(1, 2, 20, 60, 120, 200, 300, 450), worlds=8,
                                 player=player, seed=11)
        assert stats["states"] == 8 * 200 * 8


def reference_states(count_per_config, seed=1, player="progress"):
    out = []
    for n, rules in CONFIGS:
        for st in snapshots(n, rules, count_per_config, (2, 30, 90, 200), seed + n, player):
            out += [engine.to_reference(st, i) for i in range(st.batch_size)]
    return out


@pytest.fixture(scope="module")
def REF():
    return reference_states(8)  # 8 configurations x 8 games x 4 checkpoints = 256 reference states


def test_sample_world_is_a_valid_state_equal_in_view_and_fresh_in_rng(REF):
    rng = np.random.default_rng(5)
    for s in REF:
        for q in range(s.num_players):
            before = s.to_json()
            w = sample_world(s, q, rng)
            assert s.to_json() == before  # the true state is not touched
            check_invariants(w)
            assert GameState.from_json(w.to_json()) == w
            assert engine.to_reference(engine.from_reference([w]), 0) == w
            for kind in ("recall", "info"):
                assert np.array_equal(E.observe(w, q, kind), E.observe(s, q, kind))
            assert w.rng != s.rng  # R-I4: future shuffles are unknown
            assert w.players[q].hand == s.players[q].hand and w.players[q].collection == s.players[q].collection
            assert all(w.players[r].last_turn == s.players[r].last_turn for r in range(s.num_players))


def test_worlds_differ_where_the_observer_is_uncertain(REF):
    rng = np.random.default_rng(6)
    s = next(s for s in REF if s.num_players == 3 and s.round > 8 and not s.is_over)
    ws = [sample_world(s, 0, rng) for _ in range(20)]
    assert len({tuple(w.players[1].hand) for w in ws}) > 5
    assert len({tuple(w.draw_pile) for w in ws}) == 20
    assert len({json.dumps(w.piles) for w in ws}) > 5
    assert len({w.rng for w in ws}) == 20
    assert all(w.players[0].hand == s.players[0].hand for w in ws)


def _swap_tiles(s, a, b):
    """Swap one tile between two locations (getter -> counts list), keeping conservation."""
    (la, ta), (lb, tb) = a, b
    la[ta] -= 1
    la[tb] += 1
    lb[tb] -= 1
    lb[ta] += 1


def _hidden_point_location(s, q, avoid_type, avoid_pile=-1):
    """A point tile the observer q cannot identify: another seat's collection or an unvisited pile."""
    for r in range(s.num_players):
        if r != q:
            for t in range(NUM_POINT_TYPES):
                if s.players[r].collection[t] and t != avoid_type:
                    return s.players[r].collection, t
    for p in range(RING_SIZE):
        if not s.players[q].last_seen_round[p] and not s.revealed[p] and p != avoid_pile:
            for t in range(NUM_POINT_TYPES):
                if s.piles[p][t] and t != avoid_type:
                    return s.piles[p], t
    return None


def test_schmidt_info_hides_own_reservation_types_and_last_visits_recall_shows_them(REF):
    """R-A4c, R-I3, R-I5: under schmidt the table view hides them; recall and seer show them."""
    checked = 0
    for s in REF:
        for q in range(s.num_players):
            t = s.copy()
            mine = [(p, k) for p in range(RING_SIZE) for k in range(NUM_POINT_TYPES) if t.reservations[p][q][k]]
            if mine:
                p, k = mine[0]
                loc = _hidden_point_location(t, q, k)
                if loc is None:
                    continue
                _swap_tiles(t, (t.reservations[p][q], k), loc)
            visits = [p for p in range(RING_SIZE) if t.players[q].last_seen_round[p]]
            if not mine and not visits:
                continue
            for p in visits:
                t.players[q].last_seen[p][SPACE] += 1  # memory only
            check_invariants(t)
            same_info = np.array_equal(E.observe(t, q, "info"), E.observe(s, q, "info"))
            assert same_info == (s.rules == "schmidt")
            assert not np.array_equal(E.observe(t, q, "recall"), E.observe(s, q, "recall"))
            assert not np.array_equal(E.observe(t, q, "seer"), E.observe(s, q, "seer"))
            checked += 1
    assert checked > 200


def test_what_the_observer_knows_changes_its_observation(REF):
    """Own hand (R-I2), own collection (R-I2), the pile looked through now (R-I3), and
    public facts (R-I1: pile sizes, last turns) show in every observation type."""
    kinds = E.OBSERVATION_TYPES
    counts = {"hand": 0, "collection": 0, "pile_seen": 0, "last_turn": 0}

    def changes(s, t, q):
        return all(not np.array_equal(E.observe(t, q, k), E.observe(s, q, k)) for k in kinds)

    for s in REF:
        q = s.current_player
        if s.draw_pile and s.players[q].hand:  # swap a hand card with a draw-pile card
            t = s.copy()
            t.players[q].hand[0], t.draw_pile[0] = t.draw_pile[0], t.players[q].hand[0]
            t.players[q].hand.sort()
            assert changes(s, t, q)
            counts["hand"] += 1
        own = [k for k in range(NUM_POINT_TYPES) if s.players[q].collection[k]]
        loc = _hidden_point_location(s, q, own[0]) if own else None
        if loc is not None:
            t = s.copy()
            _swap_tiles(t, (t.players[q].collection, own[0]), _hidden_point_location(t, q, own[0]))
            assert changes(s, t, q)
            counts["collection"] += 1
        if s.phase == "tile":
            p = s.players[q].ship
            k = next(k for k in range(NUM_POINT_TYPES) if s.piles[p][k])
            loc = _hidden_point_location(s, q, k, p)
            if loc is not None:
                t = s.copy()
                _swap_tiles(t, (t.piles[p], k), _hidden_point_location(t, q, k, p))
                assert changes(s, t, q)
                counts["pile_seen"] += 1
        other = (q + 1) % s.num_players
        if s.players[other].last_turn:
            t = s.copy()
            t.players[other].last_turn[0].tile = not t.players[other].last_turn[0].tile
            for r in range(s.num_players):
                assert all(not np.array_equal(E.observe(t, r, k), E.observe(s, r, k)) for k in kinds)
            counts["last_turn"] += 1
    assert min(counts.values()) > 10, counts


def test_seer_hides_nothing_but_the_draw_order(REF):
    rng = np.random.default_rng(8)
    for s in REF[::4]:
        q = s.current_player
        w = sample_world(s, q, rng)
        hidden_same = (w.piles == s.piles and w.reservations == s.reservations
                       and [p.hand for p in w.players] == [p.hand for p in s.players]
                       and [p.collection for p in w.players] == [p.collection for p in s.players])
        assert np.array_equal(E.observe(w, q, "seer"), E.observe(s, q, "seer")) == (
            hidden_same and all(pw.last_seen == ps.last_seen for pw, ps in zip(w.players, s.players)))


def test_later_visitors_hold_the_tiles_that_left_a_visited_pile():
    """4d: seat 0 saw piles 0 and 1 in round 2; since then both were emptied of point tiles
    (revealed, R-V1); seat 1 looked through pile 0 and seat 2 through piles 0 and 1 in
    round 3. Pile 1's mineral_red can only be seat 2's one collected tile, so pile 0's
    water and medal are seat 1's two (an augmenting path moves them when a random first
    choice puts one with seat 2)."""
    from tests.helpers import positions as P
    s = P.position(3, round=5, piles={0: {"space": 2}, 1: {"space": 2}}, revealed=[0, 1],
                   collections={0: {"alien_brown": 5, "alien_blue": 4}, 1: {"water": 1, "medal": 1},
                                2: {"mineral_red": 1}})
    s.players[0].last_seen[0] = P.tiles({"water": 1, "medal": 1, "space": 2})
    s.players[0].last_seen[1] = P.tiles({"mineral_red": 1, "space": 2})
    s.players[0].last_seen_round[:2] = [2, 2]
    s.players[1].last_seen_round[0] = 3
    s.players[2].last_seen_round[:2] = [3, 3]
    for p in (0, 1):
        s.players[1].last_seen[p] = s.players[2].last_seen[p] = list(s.piles[p])
    check_invariants(s)
    st = sample_worlds_from_observation(E.observe(s, 0, "recall"), 3, "yucata", 100, 400, np.random.default_rng(0))
    assert (st.collection[:, 2, TILE_INDEX["mineral_red"]] == 1).all()
    assert (st.collection[:, 1, TILE_INDEX["water"]] == 1).all() and (st.collection[:, 1, TILE_INDEX["medal"]] == 1).all()
    assert (st.piles[:, :2] == np.array(s.piles[:2])).all()
    # without seat 2's visit to pile 1 the observation is impossible: nobody could hold the mineral_red
    s.players[2].last_seen_round[1] = 0
    with pytest.raises(ValueError, match="nobody visited it"):
        sample_worlds_from_observation(E.observe(s, 0, "recall"), 3, "yucata", 100, 1)
    s.players[2].last_seen_round[1] = 1  # before the observer's visit: same
    with pytest.raises(ValueError, match="nobody visited it"):
        sample_worlds_from_observation(E.observe(s, 0, "recall"), 3, "yucata", 100, 1)
    s.players[2].last_seen_round[1] = 3  # seat 2 visited it, but holds no tile: seat 1 cannot hold its tile
    s.players[2].collection[TILE_INDEX["mineral_red"]] = 0
    s.players[1].collection[TILE_INDEX["mineral_red"]] = 1
    with pytest.raises(ValueError, match="do not fit the later visitors"):
        sample_worlds_from_observation(E.observe(s, 0, "recall"), 3, "yucata", 100, 1)


def _two_rivals_visited_after_the_observer():
    """Seat 0 scanned piles 0 and 1 in round 2 (pile 0: 2 matter_green, 2 matter_blue;
    pile 1: 2 mineral_purple, 2 mineral_blue; it holds the other two of each type).
    Since then seat 1 developed pile 0 and seat 2 discovered there (round 3), and both
    scanned pile 1 (round 4; seat 1 also reserved an alien_brown there in round 1). Each
    took one tile of each pile; neither pile is revealed."""
    from tests.helpers import positions as P
    cur0 = {"matter_green": 1, "matter_blue": 1, "space": 2}
    cur1 = {"mineral_purple": 1, "mineral_blue": 1, "space": 2}
    s = P.position(3, round=5, ships={0: 1, 1: 1, 2: 1}, stations={0: 1}, piles={0: cur0, 1: cur1},
                   reservations={(1, 0): {"alien_blue": 1}, (1, 1): {"mineral_blue": 1, "alien_brown": 1},
                                 (1, 2): {"mineral_purple": 1}},
                   collections={0: {"matter_green": 2, "matter_blue": 2, "mineral_purple": 2, "mineral_blue": 2,
                                    "alien_blue": 1}, 1: {"matter_green": 1, "water": 1}, 2: {"matter_blue": 1, "medal": 1}},
                   scanned={0: [0, 1], 1: [0, 1], 2: [1]})
    views = {(0, 0): (2, {**cur0, "matter_green": 2, "matter_blue": 2}), (1, 0): (3, {**cur0, "matter_blue": 2}),
             (2, 0): (3, cur0), (0, 1): (2, {**cur1, "mineral_purple": 2, "mineral_blue": 2}),
             (1, 1): (4, {**cur1, "mineral_purple": 2}), (2, 1): (4, cur1)}
    for (q, p), (rd, pile) in views.items():
        s.players[q].last_seen[p], s.players[q].last_seen_round[p] = P.tiles(pile), rd
    return GameState.from_json(s.to_json())  # validated


def test_R_A4_R_A6_each_later_visitor_of_an_unrevealed_pile_holds_a_tile_that_left_it():
    """4d's lower bound: a pile not revealed held a point tile at every visit (R-V1), so
    each later visit took one (R-A4 scan, R-A5 develop, R-A6 discover). The observer holds
    every other tile of the four types, so a rival's tiles of a pile's types are exactly
    the ones it took there: one each. Found by a hidden-information review: the sampler
    gave the departed tiles to later visitors at random (about 0.65 of these worlds left a
    rival with none: pile 0 about 1/2, pile 1 about 1/3)."""
    s = _two_rivals_visited_after_the_observer()
    obs = E.observe(s, 0, "recall")
    k = 2000
    st = sample_worlds_from_observation(obs, 3, "yucata", 100, k, np.random.default_rng(0))
    types = {0: [TILE_INDEX["matter_green"], TILE_INDEX["matter_blue"]],
             1: [TILE_INDEX["mineral_purple"], TILE_INDEX["mineral_blue"]]}
    for p, ts in types.items():
        for r in (1, 2):
            held = st.reservations[:, p, r][:, ts].sum(axis=1) + st.collection[:, r][:, ts].sum(axis=1)
            assert (held == 1).all(), (p, r, np.bincount(held))
    # random which tile, which reservation holds it (pile 1: seat 1 has two)
    assert 0.4 < (st.collection[:, 1, TILE_INDEX["matter_green"]] == 1).mean() < 0.6
    assert 0.4 < (st.reservations[:, 1, 1, TILE_INDEX["mineral_blue"]] == 1).mean() < 0.6
    assert (st.reservations[:, 1, 1].sum(axis=1) == 2).all()
    assert np.array_equal(engine.observe(st, 0, "recall"), np.broadcast_to(obs, (k, obs.shape[0])))
    assert (engine.observe(st, 0, "info") == E.observe(s, 0, "info")).all()
    seer = engine.observe(st, 0, "seer")
    for i in range(0, k, 50):
        check_world_constraints(obs, seer[i], 3)


def test_R_A4b_R_V1_no_bound_after_a_reveal_or_for_unordered_visits():
    """The bound's limits, in the position above. Seat 1 took all four tiles that left
    pile 1 (scans in rounds 3 and 4, R-V1 revealed it) and seat 2 scanned it after,
    taking nothing (R-A4b): sampled with seat 2 holding none. Visits 127+ rounds ago have
    clipped ages: seat 2's visit is then unordered against the observer's and not bound."""
    s = _two_rivals_visited_after_the_observer()
    mins = [TILE_INDEX["mineral_purple"], TILE_INDEX["mineral_blue"]]
    s.piles[1][mins[0]] = s.piles[1][mins[1]] = 0
    s.reservations[1][1][mins[0]], s.reservations[1][1][mins[1]] = 2, 2
    s.reservations[1][2][mins[0]] = 0
    s.players[1].supply -= 3
    s.players[2].supply += 1
    s.revealed[1] = True
    s.players[1].last_seen[1] = s.players[2].last_seen[1] = list(s.piles[1])
    check_invariants(s)
    st = sample_worlds_from_observation(E.observe(s, 0, "recall"), 3, "yucata", 100, 200, np.random.default_rng(1))
    assert (st.reservations[:, 1, 1][:, mins].sum(axis=1) == 4).all()
    assert (st.collection[:, 2][:, mins].sum(axis=1) == 0).all()
    s = _two_rivals_visited_after_the_observer()
    s.round, s.max_rounds = 300, 400
    for q, p, rd in ((0, 0, 2), (0, 1, 2), (2, 1, 2), (1, 1, 299)):
        s.players[q].last_seen_round[p] = rd
    st = sample_worlds_from_observation(E.observe(s, 0, "recall"), 3, "yucata", 400, 400, np.random.default_rng(2))
    held = {r: st.reservations[:, 1, r][:, mins].sum(axis=1) for r in (1, 2)}
    assert (held[1] >= 1).all() and (held[2] == 0).any() and (held[2] == 1).any()


def test_bad_observations_are_rejected(REF):
    s = next(s for s in REF if s.rules == "schmidt" and s.num_players == 2
             and any(s.reservations[p][s.current_player][k] for p in range(8) for k in range(10)))
    q = s.current_player
    obs = E.observe(s, q, "recall")
    with pytest.raises(ValueError, match="an 'info' observation under schmidt"):
        sample_worlds_from_observation(E.observe(s, q, "info"), 2, "schmidt", s.max_rounds, 1)
    with pytest.raises(ValueError, match="seats do not fit num_players=3"):
        sample_worlds_from_observation(obs, 3, "schmidt", s.max_rounds, 1)
    with pytest.raises(ValueError, match="do not fit max_rounds"):
        sample_worlds_from_observation(obs, 2, "schmidt", s.round + 1000, 1)
    with pytest.raises(ValueError, match="one observation of shape"):
        sample_worlds_from_observation(obs[None], 2, "schmidt", s.max_rounds, 1)
    with pytest.raises(ValueError, match="observation has shape"):
        sample_worlds_from_observation(obs[:-1], 2, "schmidt", s.max_rounds, 1)
    with pytest.raises(ValueError, match="k must be a positive integer"):
        sample_worlds_from_observation(obs, 2, "schmidt", s.max_rounds, 0)
    with pytest.raises(ValueError, match="player must be a seat"):
        sample_world(s, 2, np.random.default_rng())
    bad = obs.copy()
    bad[{name: a for name, a, _, _ in E.observation_layout()}["pile_size"]] += 1
    with pytest.raises(ValueError, match="not a consistent recall observation"):
        sample_worlds_from_observation(bad, 2, "schmidt", s.max_rounds, 1)


def _pile_others_took_from(taken: int) -> GameState:
    """Seat 1 took ``taken`` point tiles from pile 0 (dealt all points), reserving them
    (schmidt); seat 0, to act, never saw the pile (the position of a third-party review)."""
    from spacemission_env.space_mission.components import NUM_POINT_TYPES as NPT
    from spacemission_env.space_mission.rules import new_game

    st = new_game(2, seed=3, rules="schmidt")
    piles = st.piles
    while piles[0][SPACE] > 0:  # pile 0 all point tiles: swap its spaces with pile 7's points
        t = next(t for t in range(NPT) if piles[7][t] > 0)
        piles[0][SPACE] -= 1; piles[7][SPACE] += 1; piles[7][t] -= 1; piles[0][t] += 1  # noqa: E702
    p1 = st.players[1]
    p1.ship = 0
    for _ in range(taken):
        t = next(t for t in range(NPT) if piles[0][t] > 0)
        piles[0][t] -= 1; st.reservations[0][1][t] += 1; p1.supply -= 1  # noqa: E702
    p1.scanned[0] = True
    p1.last_seen[0], p1.last_seen_round[0] = list(piles[0]), 1
    st.current_player, st.round = 0, 2
    return GameState.from_json(st.to_json())  # validated


@pytest.mark.parametrize("left", [3, 7])
def test_R_S2_a_pile_that_lost_tiles_holds_the_dealt_share_of_space_tiles(left):
    """R-S2 deals 8 tiles a pile; only point tiles leave one (R-A4..R-A6), and it keeps one
    (R-V1), so its space tiles are the dealt number given s <= left - 1: weight C(16, s)
    C(48, 8 - s). Found by a hidden-information review: the sampler spread the spaces over
    the places left, which gave 0.52 / 0.41 / 0.08 for 0 / 1 / 2 spaces where the deal
    gives 0.125 / 0.389 / 0.486 (a pile others took from is rich in spaces, not poor)."""
    from math import comb

    st = _pile_others_took_from(8 - left)
    from spacemission_env.space_mission.components import NUM_TILES, TILE_COUNTS

    spaces = int(TILE_COUNTS[SPACE])  # 16 of the 64 tiles
    weights = np.array([comb(spaces, s) * comb(NUM_TILES - spaces, 8 - s) for s in range(left)], np.float64)
    expected = weights / weights.sum()
    k = 20000
    w = sample_worlds_from_observation(E.observe(st, 0, "recall"), 2, "schmidt", st.max_rounds, k,
                                       np.random.default_rng(0), player=0)
    got = np.bincount(w.piles[:, 0, SPACE], minlength=left)[:left] / k
    assert np.abs(got - expected).max() < 0.015, (got.round(3), expected.round(3))
    o = E.observe(st, 0, "recall")
    assert all((E.observe(engine.to_reference(w, i), 0, "recall") == o).all() for i in range(10))


def test_the_observation_read_once_is_reused_only_for_the_same_observation_and_game():
    # the sampler keeps the last observation's reading (a search samples its worlds in chunks);
    # another observation, player count or round limit must be read afresh
    st = engine.init(2, 2, seeds=5, max_rounds=50)
    rng = np.random.default_rng(5)
    for _ in range(40):
        engine.step(st, engine.sample_actions(engine.legal_action_mask(st), rng, by_kind=True))
    obs = engine.observe(st, observation_type="recall")
    a = sample_worlds_from_observation(obs[0], 2, "yucata", 50, 4, np.random.default_rng(1))
    again = sample_worlds_from_observation(obs[0], 2, "yucata", 50, 4, np.random.default_rng(1))
    for name in ("hand", "piles", "collection", "reservations", "round", "current_player"):
        np.testing.assert_array_equal(getattr(a, name), getattr(again, name))
    with pytest.raises(ValueError, match="do not fit max_rounds=100"):  # R-E3: the game's round limit
        sample_worlds_from_observation(obs[0], 2, "yucata", 100, 4, np.random.default_rng(1))
    with pytest.raises(ValueError, match="seats do not fit num_players=3"):
        sample_worlds_from_observation(obs[0], 3, "yucata", 50, 4, np.random.default_rng(1))
    b = sample_worlds_from_observation(obs[1], 2, "yucata", 50, 4, np.random.default_rng(1))
    for i in range(4):  # the second game's observation, not the first's cached reading
        np.testing.assert_array_equal(engine.observe(b.take(np.array([i])), observation_type="recall")[0], obs[1])
