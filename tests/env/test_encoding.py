"""Observation encoding: information sets R-I1..R-I4, R-A4c, layout docs."""
import json
import random
import re

import numpy as np
import pytest

from tests.helpers import positions as P
from tests.helpers.paths import ROOT, load_tool
from spacemission_env.space_mission import actions as A
from spacemission_env import decode
from spacemission_env.space_mission import encoding as E
from spacemission_env.space_mission import engine
from spacemission_env.space_mission.actions import SCAN, TILE
from spacemission_env.space_mission.components import CARD_SCAN, JOKER, PLANET_SCAN
from spacemission_env.space_mission.rules import GameState
from spacemission_env.space_mission.rules import game as G

DOC = ROOT / "docs" / "observation.md"


def played(n_players=3, rules="yucata", seed=0, steps=80):
    s = G.new_game(n_players, seed=seed, rules=rules)
    rnd = random.Random(seed)
    for _ in range(steps):
        if s.is_over:
            break
        G.apply(s, rnd.choice(G.legal_actions(s)))
    return s


def with_reservation(rules):
    """A state where seat q holds a reservation (scan + tile decision done)."""
    for seed in range(200):
        s = G.new_game(2, seed=seed, rules=rules)
        q = s.current_player
        for p in range(8):
            for slot, c in enumerate(s.players[q].hand):
                if CARD_SCAN[c] in (PLANET_SCAN[s.ring[p]], JOKER):
                    s.players[q].ship = p
                    if G.is_legal(s, SCAN + slot):
                        G.apply(s, SCAN + slot)
                        t = next(t for t in range(10) if s.piles[p][t])
                        G.apply(s, TILE + t)
                        return s, q, p, t
    raise AssertionError("no scan found")


def blocks(state, player, kind="info"):
    return E.decode(E.observe(state, player, kind), kind)


def test_layout_contiguous_and_sizes():
    for kind in E.OBSERVATION_TYPES:
        rows = E.observation_layout(kind)
        assert rows[0][1] == 0
        assert all(a[2] == b[1] for a, b in zip(rows, rows[1:]))
        assert rows[-1][2] == E.observation_size(kind) == engine.observation_size(kind)
    info = E.observation_layout("info")
    assert E.observation_layout("seer")[:len(info)] == info


def test_docs_table_matches_code():
    """docs/observation.md holds the table generated from observation_layout(); regenerate with
    `python tools/make_observation_doc.py > docs/observation.md` when the layout changes."""
    with open(DOC) as f:
        assert f.read() == load_tool("make_observation_doc").layout_markdown()


@pytest.mark.parametrize("rules", ["yucata", "schmidt"])
def test_I4_other_hands_and_draw_order_invisible(rules):
    """R-I4: swapping another player's hand with draw-pile cards, or reordering the draw
    pile, leaves the info observation unchanged (the seer observation does change)."""
    s = played(3, rules, seed=4, steps=40)
    me = s.current_player
    other = (me + 1) % 3
    base = E.observe(s, me)
    t = s.copy()
    t.draw_pile.reverse()
    assert np.array_equal(E.observe(t, me), base)
    u = s.copy()
    k = len(u.players[other].hand)
    u.players[other].hand, u.draw_pile[:k] = sorted(u.draw_pile[:k]), u.players[other].hand
    assert np.array_equal(E.observe(u, me), base)
    assert not np.array_equal(E.observe(u, me, "seer"), E.observe(s, me, "seer"))
    assert not np.array_equal(E.observe(u, other), E.observe(s, other))  # R-I2: they see their own hand


def test_I4_other_collections_types_invisible_counts_public():
    s = played(3, "yucata", seed=2, steps=60)
    me, other = 0, 1
    t = s.copy()
    t.players[other].collection[0] += 1  # a type change that keeps nothing else equal...
    t.players[other].collection[9] += 0
    b0, b1 = blocks(s, me), blocks(t, me)
    assert b1["collected"][1] == b0["collected"][1] + 1  # R-I1: the count is public
    u = s.copy()  # same count, different type: invisible
    u.players[other].collection[0] += 1
    v = s.copy()
    v.players[other].collection[1] += 1
    assert np.array_equal(E.observe(u, me), E.observe(v, me))
    assert not np.array_equal(E.observe(u, other), E.observe(v, other))  # R-I2: own types


def test_A4c_own_reservation_types_yucata_shown_schmidt_hidden():
    for rules in ("yucata", "schmidt"):
        s, q, p, t = with_reservation(rules)
        b = blocks(s, q)
        assert b["probes"][p, 0] == 1  # R-I1: probe count is public
        if rules == "yucata":
            assert b["own_reservations"][p, t] == 1
        else:
            assert not b["own_reservations"].any()
        # other players never see the type (R-I4)
        other = 1 - q
        alt = s.copy()
        alt.reservations[p][q][t] -= 1
        t2 = (t + 1) % 10
        alt.reservations[p][q][t2] += 1
        assert np.array_equal(E.observe(alt, other), E.observe(s, other))
        assert np.array_equal(E.observe(alt, q), E.observe(s, q)) == (rules == "schmidt")
        assert blocks(s, q, "seer")["seer_reservations"][p, 0, t] == 1


def test_I3_pile_seen_during_own_tile_decision_only():
    for seed in range(200):
        s = G.new_game(2, seed=seed)
        q = s.current_player
        done = False
        for p in range(8):
            s.players[q].ship = p
            for slot in range(5):
                if G.is_legal(s, SCAN + slot):
                    G.apply(s, SCAN + slot)
                    done = s.phase == "tile"
                    break
            if done:
                break
            s.players[q].ship = -1
        if done:
            break
    b = blocks(s, q)
    assert b["pile_seen"].tolist() == s.piles[p] and b["tile_decision"][0] == 1 and b["pending"][0] == 1
    assert not blocks(s, 1 - q)["pile_seen"].any()  # the other player does not look through it


def test_I3_last_visit_table_yucata_only():
    s, q, p, t = with_reservation("yucata")
    b = blocks(s, q)
    assert b["visited"][0, p] == 1 and b["last_visit_pile"][p].tolist() == s.piles[p]
    s2, q2, p2, _ = with_reservation("schmidt")
    b2 = blocks(s2, q2)
    assert b2["visited"][0, p2] == 1 and not b2["last_visit_pile"].any()  # R-I1 public, R-I3 table yucata only
    assert blocks(s2, q2, "seer")["seer_last_visit_pile"][0, p2].tolist() == s2.piles[p2]


def test_I5_recall_fills_own_reservations_and_last_visits_under_both_rule_sets():
    """R-I5: "recall" always shows what the player remembers; under yucata it equals "info"."""
    for rules in ("yucata", "schmidt"):
        s, q, p, t = with_reservation(rules)
        r = blocks(s, q, "recall")
        assert r["own_reservations"][p, t] == 1 and r["last_visit_pile"][p].tolist() == s.piles[p]
        same = np.array_equal(E.observe(s, q, "recall"), E.observe(s, q, "info"))
        assert same == (rules == "yucata")
        seer = E.observe(s, q, "seer")
        assert np.array_equal(seer[:E.observation_size("recall")], E.observe(s, q, "recall"))


def test_I5_recall_is_the_same_when_schmidt_is_reloaded_as_yucata():
    for seed in range(3):
        s = played(3, "schmidt", seed=seed, steps=70)
        d = json.loads(s.to_json())
        d["rules"] = "yucata"
        y = GameState.from_json(json.dumps(d))
        for q in range(3):
            assert np.array_equal(E.observe(s, q, "recall"), E.observe(y, q, "recall"))
            assert np.array_equal(E.observe(y, q, "info"), E.observe(y, q, "recall"))
        assert any(not np.array_equal(E.observe(s, q, "info"), E.observe(s, q, "recall")) for q in range(3))


def test_I1_visits_and_last_turn_are_public():
    """R-I1: every seat sees who looked through which pile, when, and each seat's last turn."""
    s = P.position(2, ships={0: 3}, hands={0: ["J1/S2", "J2/S1", "S3/L4", "S2/L3", "J3/L1"]}, round=5, scanned={1: [6]})
    s.players[1].last_seen_round[6] = 2
    # the acting seat 0 discards hand slots 0 and 4 (top up, R-A1), then flies clockwise (R-A3)
    discarded = [s.players[0].hand[0], s.players[0].hand[4]]
    G.apply(s, P.top_up(0, 4))
    kept = list(s.players[0].hand)
    rec = s.players[0].last_turn
    assert len(rec) == 1 and (rec[0].kind, rec[0].target, rec[0].cards, rec[0].tile) == ("top_up", -1, discarded, False)
    for seat in (0, 1):
        b = blocks(s, seat)
        r = (0 - seat) % 2
        assert b["last_turn_kind"][r, 0].tolist() == [1, 0, 0, 0, 0, 0] and not b["last_turn_kind"][r, 1].any()
        assert sorted(np.flatnonzero(b["last_turn_cards"][r, 0]).tolist()) == sorted(s.players[0].last_turn[0].cards)
        assert b["visited"][(1 - seat) % 2, 6] == 1 and b["visit_age"][(1 - seat) % 2, 6] == 3
    fly = A.FLY_CW
    G.apply(s, fly)
    b = blocks(s, 1)
    assert b["last_turn_kind"][1, 1, 2] == 1 and b["last_turn_target"][1, 1, 4] == 1  # flew from 3 to 4
    assert kept == s.players[0].hand
    # seat 1's first action starts its own record; seat 0's finished turn stays visible
    G.apply(s, A.TOPUP)
    b = blocks(s, 0)
    assert b["last_turn_kind"][0, :, 0].tolist() == [1, 0] and b["last_turn_kind"][1, 0, 0] == 1
    assert not b["last_turn_kind"][1, 1].any()


def test_I1_last_turn_records_a_scan_its_planet_card_and_the_taken_tile():
    for rules in ("yucata", "schmidt"):
        s, q, p, t = with_reservation(rules)
        (rec,) = s.players[q].last_turn
        assert (rec.kind, rec.target, rec.tile) == ("scan", p, True) and rec.cards == [s.discard_pile[-1]]
        b = blocks(s, 1 - q)  # the other seat sees the scan, where, the card and that a tile went (R-I1)
        assert b["last_turn_kind"][1, 0, 3] == 1 and b["last_turn_target"][1, 0, p] == 1
        assert b["last_turn_tile"][1].tolist() == [1, 0] and np.flatnonzero(b["last_turn_cards"][1, 0]).tolist() == rec.cards
        assert b["visited"][1, p] == 1 and b["visit_age"][1, p] == 0


def test_decode_batched_views_and_bad_sizes():
    st = engine.init(6, 3, seeds=0)
    for kind in E.OBSERVATION_TYPES:
        obs = engine.observe(st, None, kind)
        v = decode(obs, kind)
        shapes = E.observation_shapes(kind)
        assert list(v) == [r[0] for r in E.observation_layout(kind)]
        for name, arr in v.items():
            assert arr.shape == (6,) + shapes[name] and np.shares_memory(arr, obs)
        one = decode(obs[2], kind)
        assert all(np.array_equal(one[k], v[k][2]) for k in v)
        f = decode(obs.astype(np.float32), kind)
        assert f["own_hand"].dtype == np.float32 and np.array_equal(f["own_hand"], v["own_hand"])
    obs[0, E.observation_layout()[-1][1]] = 5  # a write through the view is a write to the observation
    assert decode(obs, "seer")["last_visit_pile"][0, 0, 0] == 5
    for bad in (np.zeros(10), np.zeros((2, E.observation_size("info") + 1)), np.zeros((2, 3, E.observation_size())),
                engine.observe(st, None, "seer")):
        with pytest.raises(ValueError, match="observation has shape"):
            decode(bad)
    with pytest.raises(ValueError, match="observation_type"):
        decode(obs, "oracle")


def test_doc_decode_example_runs():
    with open(DOC) as f:
        code = re.search(r"```python\n(.*?)```", f.read(), re.S).group(1)
    exec(compile(code, "observation.md", "exec"), {})


def test_I1_public_blocks_and_egocentric_rotation():
    s = played(4, "yucata", seed=7, steps=90)
    for me in range(4):
        b = blocks(s, me)
        assert b["seat_present"].tolist() == [1, 1, 1, 1, 0]
        assert b["acting_seat"][(s.current_player - me) % 4] == 1
        for q in range(4):
            r = (q - me) % 4
            assert b["hand_size"][r] == len(s.players[q].hand)
            assert b["gate_probes"][r] == s.players[q].gate_probes
            assert b["supply"][r] == s.players[q].supply
        assert b["draw_pile_size"][0] == len(s.draw_pile)
        assert sorted(np.flatnonzero(b["discard_cards"]).tolist()) == sorted(s.discard_pile)
        assert b["own_hand"].sum() == 2 * len(s.players[me].hand)  # two coordinates per card (R-C2)
        assert b["revealed_count"][0] == s.revealed_count
    # the public part is the same for every observer up to rotation
    assert blocks(s, 0)["pile_size"].tolist() == blocks(s, 3)["pile_size"].tolist()


def test_round_is_clipped_never_overflows():
    s = G.new_game(2, seed=1, max_rounds=1000)
    s.round = 500
    b = blocks(s, 0)
    assert b["round"][0] == 127 and b["rounds_left"][0] == 127
    s.round = 990
    assert blocks(s, 0)["rounds_left"][0] == 10
    st = engine.from_reference([s])
    assert np.array_equal(engine.observe(st)[0], E.observe(s))


def test_size_independent_of_players_and_rules():
    sizes = {E.observe(G.new_game(n, seed=0, rules=r)).shape for n in (2, 3, 4, 5) for r in ("yucata", "schmidt")}
    assert sizes == {(E.observation_size(),)}
    assert E.observe(G.new_game(5, seed=0), 4, "seer").shape == (E.observation_size("seer"),)
    with pytest.raises(ValueError):
        E.observe(G.new_game(2, seed=0), 2)


def test_required_block_span_finds_the_block_or_names_it():
    """obs_layout.required_block_span: block_span for a block the bots need (their player
    count, seat_present), typed (start, stop), never None; a layout without it is named."""
    from spacemission_env.obs_layout import block_span, required_block_span

    for t in E.OBSERVATION_TYPES:
        layout = E.observation_layout(t)
        assert required_block_span(layout, "seat_present") == block_span(layout, "seat_present") is not None
    with pytest.raises(ValueError, match="the observation layout has no 'nonesuch' block"):
        required_block_span(E.observation_layout("info"), "nonesuch")
