"""Random-play property tests: both rule sets, 2..5 players, checked after every action.

Conservation (R-C2..R-C4, counted here independently of ``check_invariants``), a legal
action always exists (R-A1 ruling), every game ends, by R-E1 or at the round limit (R-E3, a real end), JSON
round trips at random points and a loaded game continues exactly like the original
(the generator is in the state, R-A1a), and seeding is deterministic (R-S1..R-S5).
"""
import random

import pytest

from spacemission_env.space_mission import actions as A
from spacemission_env.space_mission.components import END_THRESHOLD, TILE_COUNTS
from spacemission_env.space_mission.random_play import kind_uniform_action, uniform_action
from spacemission_env.space_mission.rules import (
    GameState,
    apply,
    check_invariants,
    is_legal,
    legal_action_mask,
    legal_actions,
    new_game,
)

CONFIGS = [(n, rules) for rules in ("yucata", "schmidt") for n in (2, 3, 4, 5)]


def independent_counts(s: GameState) -> None:
    """60 cards, 64 tiles by type, 20 chips per player: counted without check_invariants."""
    cards = s.draw_pile + s.discard_pile + [c for pl in s.players for c in pl.hand]
    assert sorted(cards) == list(range(60))
    tiles = [0] * 11
    for p in range(8):
        for t in range(11):
            tiles[t] += s.piles[p][t]
        for q in range(s.num_players):
            for t in range(10):
                tiles[t] += s.reservations[p][q][t]
    for pl in s.players:
        for t in range(10):
            tiles[t] += pl.collection[t]
    assert tiles == TILE_COUNTS.tolist() and sum(tiles) == 64
    for q, pl in enumerate(s.players):
        probes = sum(sum(s.reservations[p][q]) for p in range(8))
        assert pl.supply + pl.gate_probes + probes + s.stations.count(q) == 20
        assert min(pl.supply, pl.gate_probes) >= 0 and len(pl.hand) <= 5 and pl.hand == sorted(pl.hand)


def check_step(s: GameState) -> None:
    check_invariants(s)
    independent_counts(s)
    legal = legal_actions(s)
    assert legal_action_mask(s).nonzero()[0].tolist() == legal
    if s.is_over:
        assert legal == []
        return
    assert legal, "the acting player has no legal action"
    tile_ids = [a for a in legal if a >= A.TILE]
    assert (tile_ids == legal) if s.phase == "tile" else not tile_ids
    if s.phase == "main":
        assert A.TOPUP in legal  # R-A1 ruling: topping up is always possible


def play_checked(s: GameState, choose, rng: random.Random, limit: int = 5000) -> list[int]:
    """Play to the end, checking after every action; returns the actions."""
    played = []
    check_step(s)
    while not s.is_over:
        a = choose(s, rng)
        apply(s, a)
        played.append(a)
        check_step(s)
        if len(played) % 37 == 0:  # JSON round trip at many points of the game
            assert GameState.from_json(s.to_json()) == s
        if len(played) % 7 == 0:  # the fast enumeration agrees with apply's legality test
            assert legal_actions(s) == [a for a in range(A.NUM_ACTIONS) if is_legal(s, a)]
        assert len(played) < limit, "game did not end"
    assert s.round_limit == (not s.end_triggered)
    if s.round_limit:  # R-E3
        assert s.round == s.max_rounds
    else:  # R-E1
        assert s.revealed_count >= END_THRESHOLD[s.num_players]
    return played


@pytest.mark.parametrize("n, rules", CONFIGS)
def test_random_play_keeps_invariants_and_ends(n, rules):
    for seed in range(2):
        play_checked(new_game(n, seed=seed, rules=rules), kind_uniform_action, random.Random(seed))
    # uniform play nearly always reaches the round limit (R-E3): a small limit keeps it quick
    s = new_game(n, seed=7, rules=rules, max_rounds=8)
    play_checked(s, uniform_action, random.Random(7))
    assert s.is_over and s.round <= 8


@pytest.mark.parametrize("n, rules", CONFIGS)
def test_json_round_trip_and_continuation(n, rules):
    """At a random point: the loaded state equals the original, and playing on from it
    (same player decisions) gives the same game, reshuffles included."""
    reshuffled_after_snapshot = 0
    for seed in range(3):
        s, r = new_game(n, seed=100 + seed, rules=rules), random.Random(seed)
        snapshot_at = random.Random(seed).randrange(1, 150)
        for _ in range(snapshot_at):
            if s.is_over:
                break
            apply(s, kind_uniform_action(s, r))
        text, policy_state, rng_at_snapshot = s.to_json(), r.getstate(), s.rng
        loaded = GameState.from_json(text)
        assert loaded == s and loaded.to_json() == text
        original = play_checked(s, kind_uniform_action, r)
        r2 = random.Random()
        r2.setstate(policy_state)
        replay = play_checked(loaded, kind_uniform_action, r2)
        assert replay == original and loaded.to_json() == s.to_json()
        reshuffled_after_snapshot += s.rng != rng_at_snapshot
    assert reshuffled_after_snapshot > 0, "no reshuffle after a snapshot: the generator went untested"


@pytest.mark.parametrize("rules", ["yucata", "schmidt"])
def test_same_seed_same_game(rules):
    games = []
    for _ in range(2):
        s = new_game(3, seed=42, rules=rules)
        played = play_checked(s, kind_uniform_action, random.Random(1))
        games.append((played, s.to_json()))
    assert games[0] == games[1]


def test_different_seeds_different_setups():
    setups = set()
    for seed in range(200):
        s = new_game(4, seed=seed)
        setups.add((tuple(s.ring), tuple(map(tuple, s.piles)), tuple(s.draw_pile)))
    assert len(setups) == 200
    rings = {tuple(new_game(2, seed=seed).ring) for seed in range(200)}
    assert len(rings) > 190  # 12!/4! rings: collisions are very unlikely


@pytest.mark.slow
@pytest.mark.parametrize("n, rules", CONFIGS)
def test_many_random_games(n, rules):
    for seed in range(30):
        choose = kind_uniform_action if seed % 3 else uniform_action
        play_checked(new_game(n, seed=1000 + seed, rules=rules), choose, random.Random(seed))
