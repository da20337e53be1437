"""Edge positions built as explicit reference states and loaded with from_reference:
both engines must agree action by action, plus the batch API contract."""
import numpy as np
import pytest
from tests.helpers.lockstep import lockstep

from spacemission_env.space_mission import encoding as E
from spacemission_env.space_mission import engine
from spacemission_env.space_mission.actions import DEVELOP, DEVELOP_PAIRS, DISCOVER, SCAN, TILE, TOPUP
from spacemission_env.space_mission.components import (
    CARD_LANDING,
    CARD_SCAN,
    END_THRESHOLD,
    JOKER,
    NUM_POINT_TYPES,
    PLANET_LANDING,
    PLANET_SCAN,
    SPACE,
)
from spacemission_env.space_mission.rules import game as G
from spacemission_env.space_mission.rules.state import check_invariants


def arrange(s, spec, sink):
    """Rebuild the piles: spec {position: (point-tile counts, space count)}; the other piles
    are filled (up to 8) from the remaining tiles, leftover point tiles go to seat ``sink``'s
    collection, so every component stays conserved."""
    bank = [sum(s.piles[p][t] for p in range(8)) for t in range(11)]
    piles = [[0] * 11 for _ in range(8)]
    for p, (points, space) in spec.items():
        for t, n in enumerate(points):
            piles[p][t] = n
            bank[t] -= n
        piles[p][SPACE] = space
        bank[SPACE] -= space
    assert min(bank) >= 0
    for p in range(8):
        if p in spec:
            continue
        for t in [SPACE] + list(range(NUM_POINT_TYPES)):
            k = min(bank[t], 8 - sum(piles[p]))
            piles[p][t] += k
            bank[t] -= k
    assert bank[SPACE] == 0
    for t in range(NUM_POINT_TYPES):
        s.players[sink].collection[t] += bank[t]
    s.piles = piles


def test_reshuffle_on_empty_draw_pile_R_A1a():
    s = G.new_game(3, seed=11, rules="yucata")
    q = s.current_player
    s.discard_pile, s.draw_pile = s.draw_pile[:-2], s.draw_pile[-2:]  # two cards left to draw
    check_invariants(s)
    before = s.rng
    ref, st = lockstep(s, [TOPUP + 0b00111])  # discard 3, draw 2, reshuffle, draw 1
    assert ref.rng != before and len(ref.players[q].hand) == 5
    assert ref.discard_pile == [] and len(ref.draw_pile) == 60 - 15  # all 45 reshuffled, hands full again


def test_both_piles_empty_draw_stops_short_R_A1a():
    """Unreachable under conservation (60 cards, at most 25 in hands), so built as a
    synthetic state without check_invariants: both engines must stop drawing."""
    s = G.new_game(2, seed=5, rules="schmidt")
    q = s.current_player
    s.draw_pile, s.discard_pile = [], []
    s.players[q].hand = s.players[q].hand[:3]
    with pytest.raises(ValueError, match=r"states\[0\] is not a valid Space Mission state: game state: 8 cards"):
        engine.from_reference([s.copy()])  # checked as a JSON state is, unless asked not to
    st = engine.from_reference([s.copy()], check=False)
    G.apply(s, TOPUP)
    engine.step(st, np.array([TOPUP]))
    assert engine.to_reference(st, 0) == s
    assert len(s.players[q].hand) == 3 and s.draw_pile == [] and s.discard_pile == []
    G.apply(s, TOPUP + 0b1)  # discard one: the discard pile is reshuffled and drawn back
    engine.step(st, np.array([TOPUP + 0b1]))
    assert engine.to_reference(st, 0) == s and len(s.players[q].hand) == 3


def _on_planet(s, q, p):
    s.players[q].ship = p


def test_scan_pile_without_point_tiles_R_A4b():
    s = G.new_game(3, seed=21, rules="yucata")
    q = s.current_player
    p = 2
    # pile p: 8 space tiles (16 exist); its point tiles go elsewhere
    for t in range(NUM_POINT_TYPES):
        while s.piles[p][t]:
            r = next(r for r in range(8) if r != p and s.piles[r][SPACE] > 0)
            s.piles[p][t] -= 1
            s.piles[r][t] += 1
            s.piles[r][SPACE] -= 1
            s.piles[p][SPACE] += 1
    assert s.piles[p][SPACE] == 8
    _on_planet(s, q, p)
    planet = s.ring[p]
    card = next(c for c in range(60) if CARD_SCAN[c] in (PLANET_SCAN[planet], JOKER)
                and all(c not in pl.hand for pl in s.players) and c in s.draw_pile)
    s.draw_pile.remove(card)
    s.draw_pile.append(s.players[q].hand.pop(0))
    s.players[q].hand = sorted(s.players[q].hand + [card])
    slot = s.players[q].hand.index(card)
    supply = s.players[q].supply
    ref, st = lockstep(s, [SCAN + slot])
    assert ref.revealed[p] and ref.players[q].supply == supply and ref.players[q].scanned[p]
    assert ref.revealed_count == 8 and ref.phase == "main"
    # R-A4b: the revealed pile can still be scanned, with any matching card left in the hand
    hand = ref.players[q].hand
    want = [CARD_SCAN[c] in (PLANET_SCAN[planet], JOKER) for c in hand] + [False] * (5 - len(hand))
    assert engine.legal_action_mask(st)[0, SCAN:SCAN + 5].tolist() == want


def test_develop_collects_every_players_reservations_R_A5():
    s = G.new_game(4, seed=3, rules="yucata")
    q = s.current_player
    p = 5
    planet = s.ring[p]
    l1, l2 = PLANET_LANDING[planet]
    # reservations of three players on p (tiles taken out of the pile, probes from supplies)
    for owner in ((q + 1) % 4, (q + 2) % 4, q):
        t = next(t for t in range(NUM_POINT_TYPES) if s.piles[p][t] > 0 or any(s.piles[r][t] for r in range(8)))
        r = p if s.piles[p][t] > 0 else next(r for r in range(8) if s.piles[r][t] > 0)
        s.piles[r][t] -= 1
        s.reservations[p][owner][t] += 1
        s.players[owner].supply -= 1
    for owner in ((q + 1) % 4, (q + 2) % 4, q):  # each reserved by a scan, which yucata records as a visit (R-I3)
        s.players[owner].scanned[p] = True
        s.players[owner].last_seen[p], s.players[owner].last_seen_round[p] = list(s.piles[p]), 1
    _on_planet(s, q, p)
    # give q two landing cards for the planet
    free = [c for c in s.draw_pile]
    c1 = next(c for c in free if CARD_LANDING[c] == l1)
    c2 = next(c for c in free if CARD_LANDING[c] in (l2, JOKER) and c != c1)
    old = s.players[q].hand[:2]
    s.players[q].hand = sorted(s.players[q].hand[2:] + [c1, c2])
    for c in (c1, c2):
        s.draw_pile.remove(c)
    s.draw_pile += old
    check_invariants(s)
    h = s.players[q].hand
    pair = tuple(sorted((h.index(c1), h.index(c2))))
    action = DEVELOP + DEVELOP_PAIRS.index(pair)
    ref, st = lockstep(s, [action])
    assert ref.stations[p] == q
    assert all(sum(ref.reservations[p][o]) == 0 for o in range(4))
    assert sum(sum(ref.players[o].collection) for o in range(4)) == 3
    if ref.phase == "tile":  # take the first available tile; reveal check follows
        t = next(t for t in range(NUM_POINT_TYPES) if ref.piles[p][t])
        lockstep(ref, [TILE + t])


def test_end_trigger_mid_round_finishes_the_round_R_E1():
    s = G.new_game(3, seed=8, rules="schmidt")  # start player 0: a round is seats 0, 1, 2
    thr = int(END_THRESHOLD[3])
    p, a = 4, 6  # pile a is already revealed; revealing p reaches the threshold
    t0 = 9  # medal
    one = [0] * NUM_POINT_TYPES
    one[t0] = 1
    arrange(s, {a: ([0] * NUM_POINT_TYPES, 3), p: (one, thr - 3)}, sink=2)
    s.revealed[a] = True
    s.stations[p] = 0
    s.players[0].supply -= 1
    s.players[0].scanned[p] = True  # a station needs its owner's scan (R-A5)
    q = 1
    s.current_player = q
    s.players[q].ship = p
    check_invariants(s)
    assert s.revealed_count == 3
    ref, st = lockstep(s, [DISCOVER, TILE + t0])
    assert ref.revealed_count == thr and ref.revealed[p]
    assert ref.end_triggered and not ref.is_over and ref.current_player == q and ref.actions_left == 1
    ref, st = lockstep(ref, [TOPUP])  # seat 1 completes the turn
    assert not ref.is_over and ref.current_player == 2
    ref, st = lockstep(ref, [TOPUP, TOPUP])  # seat 2 ends the round: game over
    assert ref.is_over and not ref.round_limit and ref.round == 1
    assert st.terminated[0] and not st.round_limit[0]
    assert engine.rewards(st).sum() == pytest.approx(0, abs=1e-6)


def test_round_limit_ends_the_game_R_E3():
    st = engine.init(3, 2, seeds=[1, 2, 3], rules="yucata", max_rounds=2)
    refs = [G.new_game(2, seed=s, rules="yucata", max_rounds=2) for s in (1, 2, 3)]
    for _ in range(8):  # 2 rounds x 2 players x 2 top-ups
        engine.step(st, np.zeros(3, dtype=np.int64))
        for r in refs:
            if not r.is_over:
                G.apply(r, TOPUP)
    assert st.round_limit.all() and st.terminated.all()  # R-E3 is a real end
    assert all(engine.to_reference(st, i) == refs[i] for i in range(3))
    assert engine.legal_action_mask(st).all()  # documented: all-True rows for finished games


# --- API contract ------------------------------------------------------------------------
def test_init_matches_new_game_and_seed_forms():
    for n in (2, 3, 4, 5):
        for rules in ("yucata", "schmidt"):
            st = engine.init(4, n, seeds=100, rules=rules, max_rounds=7)
            st2 = engine.init(4, n, seeds=np.array([100, 101, 102, 103]), rules=rules, max_rounds=7)
            for i in range(4):
                ref = G.new_game(n, seed=100 + i, rules=rules, max_rounds=7)
                assert engine.to_reference(st, i) == ref == engine.to_reference(st2, i)
    assert engine.to_reference(engine.init(1, 2, seeds=2**64 - 1), 0) == G.new_game(2, seed=2**64 - 1)


def test_step_checks_and_names_the_first_illegal_game():
    st = engine.init(3, 2, seeds=0)
    before = st.copy()
    acts = np.array([TOPUP, DISCOVER, DISCOVER])  # discover from the gate is never legal
    with pytest.raises(ValueError, match="game 1"):
        engine.step(st, acts)
    assert all(np.array_equal(getattr(st, f), getattr(before, f)) for f in engine.state.FIELD_NAMES)
    with pytest.raises(ValueError):
        engine.step(st, np.array([0, 0]))
    with pytest.raises(ValueError):
        engine.step(st, np.array([0.0, 0.0, 0.0]))
    with pytest.raises(ValueError, match="game 0"):
        engine.step(st, np.array([100, 0, 0]))


def test_finished_games_are_noops_and_reset_finished():
    st = engine.init(2, 2, seeds=[5, 6], max_rounds=1)
    for _ in range(4):
        engine.step(st, np.array([TOPUP, TOPUP]))
    assert st.round_limit.all() and st.terminated.all()
    snap = st.copy()
    engine.step(st, np.array([DISCOVER, 99]))  # anything goes for finished games
    assert all(np.array_equal(getattr(st, f), getattr(snap, f)) for f in engine.state.FIELD_NAMES)
    r = engine.rewards(st)
    assert r.dtype == np.float32 and r.shape == (2, 2)
    st.terminated[1] = st.round_limit[1] = False  # pretend game 1 still runs
    reset = engine.reset_finished(st, np.array([42, 43]))
    assert reset.tolist() == [True, False]
    assert engine.to_reference(st, 0) == G.new_game(2, seed=42, max_rounds=1)
    assert engine.rewards(st)[0].tolist() == [0.0, 0.0]


def test_observe_player_forms_and_size():
    st = engine.init(3, 4, seeds=9, rules="schmidt")
    D = engine.observation_size()
    assert D == E.observation_size() and engine.observation_size("seer") == E.observation_size("seer")
    o_none = engine.observe(st)
    o_arr = engine.observe(st, player=st.current_player.astype(np.int64))
    assert o_none.dtype == np.int8 and o_none.shape == (3, D)
    assert np.array_equal(o_none, o_arr)
    assert np.array_equal(engine.observe(st, 2)[1], E.observe(engine.to_reference(st, 1), 2))
    with pytest.raises(ValueError):
        engine.observe(st, 4)
    with pytest.raises(ValueError):
        engine.observe(st, observation_type="god")
    for n in (2, 5):  # D independent of player count and rules
        assert engine.observe(engine.init(1, n, 0, rules="yucata")).shape == (1, D)


def test_scores_match_reference():
    st = engine.init(2, 5, seeds=3)
    rng = np.random.default_rng(1)
    for _ in range(400):
        engine.step(st, engine.sample_actions(engine.legal_action_mask(st), rng))
    sc = engine.scores(st)
    assert sc.dtype == np.int16 and sc.shape == (2, 5, 8)
    keys = ("jump_gate", "stations", "minerals", "aliens", "matter", "water", "medals", "total")
    for i in range(2):
        ref = G.scores(engine.to_reference(st, i))
        assert sc[i].tolist() == [[d[k] for k in keys] for d in ref]


def test_sample_actions_uniform_over_legal():
    mask = np.zeros((2, 100), dtype=bool)
    mask[0, [3, 50, 99]] = True
    mask[1, 7] = True
    rng = np.random.default_rng(0)
    seen = np.stack([engine.sample_actions(mask, rng) for _ in range(3000)])
    assert set(seen[:, 0]) == {3, 50, 99} and set(seen[:, 1]) == {7}
    counts = np.bincount(seen[:, 0], minlength=100)[[3, 50, 99]]
    assert counts.min() > 850


def test_take_copies_rows_that_then_evolve_as_in_place():
    """BatchState.take: the chosen games (repeats allowed) as a new batch, independent of the
    original; a taken game steps exactly as the same game stepped in place."""
    from spacemission_env.space_mission.engine.state import FIELD_NAMES
    st = engine.init(4, 3, seeds=11)
    rng = np.random.default_rng(0)
    for _ in range(15):
        engine.step(st, engine.sample_actions(engine.legal_action_mask(st), rng))
    sub = st.take([2, 0, 2])
    assert sub.batch_size == 3 and sub.all_games.shape == (3,) and not sub.all_games.flags.writeable
    for name in FIELD_NAMES:
        assert np.array_equal(getattr(sub, name), getattr(st, name)[[2, 0, 2]]), name
    actions = engine.sample_actions(engine.legal_action_mask(st), rng)
    engine.step(sub, actions[[2, 0, 2]])
    engine.step(st, actions)
    for name in FIELD_NAMES:
        assert np.array_equal(getattr(sub, name)[:2], getattr(st, name)[[2, 0]]), name
        assert np.array_equal(getattr(sub, name)[2], getattr(sub, name)[0]), name  # the copies agree


def test_concat_appends_games_that_step_as_in_place():
    """BatchState.concat: this batch's games then the other's, in a new batch that steps
    exactly as the two batches stepped apart."""
    from spacemission_env.space_mission.engine.state import FIELD_NAMES
    a, b = engine.init(3, 2, seeds=5), engine.init(2, 2, seeds=9)
    both = a.concat(b)
    assert both.batch_size == 5 and both.all_games.shape == (5,) and not both.all_games.flags.writeable
    for name in FIELD_NAMES:
        assert np.array_equal(getattr(both, name), np.concatenate([getattr(a, name), getattr(b, name)])), name
    rng = np.random.default_rng(1)
    actions = engine.sample_actions(engine.legal_action_mask(both), rng)
    engine.step(both, actions)
    engine.step(a, actions[:3])
    engine.step(b, actions[3:])
    for name in FIELD_NAMES:
        assert np.array_equal(getattr(both, name), np.concatenate([getattr(a, name), getattr(b, name)])), name
