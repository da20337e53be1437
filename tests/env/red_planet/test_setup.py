"""Components (M-C1..M-C8), setup (M-S1..M-S6) and the player count (M-X2)."""
from collections import deque
from pathlib import Path

import pytest

from spacemission_env import rng
from spacemission_env.red_planet import actions as A
from spacemission_env.red_planet import components as C
from spacemission_env.red_planet.rules import (
    GameState,
    apply,
    check_invariants,
    legal_actions,
    new_game,
)
from tests.helpers.red_planet_positions import act, kinds, position

PACKAGE = Path(C.__file__).resolve().parent


def setup_draws(num_players: int, seed: int):
    """M-S1..M-S3 drawn by hand in the documented order."""
    g = rng.seed_state(seed)
    pool = [t for t in range(3) for _ in range(C.MINERAL_TOKENS[t])]
    g = rng.shuffle(g, pool)
    deck = list(range(C.NUM_SHIPS))
    g = rng.shuffle(g, deck)
    slots = [deck.pop() for _ in range(num_players)]
    order = list(range(num_players))
    g = rng.shuffle(g, order)
    return g, pool, deck, slots, order


def finish_setup_zones(s):
    while s.phase == "setup_zone":
        apply(s, legal_actions(s)[0])
    return s


# --- components -------------------------------------------------------------------------
def test_M_C1_inventory_counts():
    s = new_game(5, seed=1)
    check_invariants(s)
    assert C.NUM_SHIPS == 34 and C.NUM_EVENTS == 24 and C.NUM_MINERAL_TOKENS == 14 and C.NUM_DEST_TOKENS == 20
    assert len(C.DISCOVERY_CARDS) == 11 and len(C.BONUS_CARDS) == 13
    assert C.ASTRONAUTS == 22 and C.NUM_ROLES == 9 and C.NUM_ZONES == 10
    assert all(pl.supply + sum(s.crew[x][q] for x in range(34)) == 22 for q, pl in enumerate(s.players))


def test_M_C2_zones_and_borders():
    assert C.CENTRAL_ZONES == (0, 1, 2) and len(C.OUTER_ZONES) == 7
    assert len(C.EDGES) == 38  # 19 symmetric borders
    assert all((b, a) in C.EDGES for a, b in C.EDGES)
    for z in C.CENTRAL_ZONES:
        assert set(C.CENTRAL_ZONES) - {z} <= set(C.NEIGHBOURS[z])
        assert sum(1 for y in C.NEIGHBOURS[z] if y in C.OUTER_ZONES) == 3
    for z in C.OUTER_ZONES:
        assert sum(1 for y in C.NEIGHBOURS[z] if y in C.OUTER_ZONES) == 2
        assert 1 <= sum(1 for y in C.NEIGHBOURS[z] if y in C.CENTRAL_ZONES) <= 2

    def eccentricity(z):
        dist, todo = {z: 0}, deque([z])
        while todo:
            a = todo.popleft()
            for b in C.NEIGHBOURS[a]:
                if b not in dist:
                    dist[b] = dist[a] + 1
                    todo.append(b)
        return max(dist.values()), len(dist)

    assert max(eccentricity(z)[0] for z in range(10)) == 3  # one Explorer turn links any two zones
    assert all(eccentricity(z)[1] == 10 for z in range(10))


def test_M_C3_ships():  # M-C3
    for z in range(10):
        assert [C.SHIP_CAPACITY[x] for x in range(34) if C.SHIP_DEST[x] == z] == [3, 4, 5]
    hand = [x for x in range(34) if C.SHIP_DEST[x] == C.NO_ZONE]
    assert hand == [30, 31, 32, 33] and [C.SHIP_CAPACITY[x] for x in hand] == [3, 4, 4, 5]


def test_M_C4_mineral_tokens():  # M-C4
    assert C.MINERAL_NAMES == ("ice", "sylvanite", "celerium")
    assert C.MINERAL_TOKENS == (5, 5, 4) and C.MINERAL_VALUE == (1, 2, 3)
    assert sorted(new_game(3, seed=0).mineral_pool) == [0] * 5 + [1] * 5 + [2] * 4


def test_M_C5_counters_are_unlimited():  # M-C5
    s = position(3, counters={0: {"ice": 40, "celerium": 30}})  # more than the 25 / 20 printed
    assert s.players[0].counters == [40, 0, 30]
    assert C.DATA["minerals"][0]["counters"] == 25  # the box's count, recorded but never a limit


def test_M_C6_destination_tokens_limit_the_choice():  # M-C6
    # both zone-3 tokens lie on ships: zone 3 cannot be chosen for a hand-piloted ship (M-L2)
    s = position(3, phase="place", role="Recruiter", pad={0: 30, 1: 9, 2: 10}, crew={9: {1: 1}, 10: {2: 1}},
                 tokens={9: 3, 10: 3})
    assert s.token_supply[3] == 0
    apply(s, act("place", 0))
    assert s.phase == "destination"
    assert act("destination", 3) not in legal_actions(s)
    assert act("destination", 4) in legal_actions(s)


def test_M_C7_role_order():  # M-C7, the roles of M-O
    assert C.ROLE_NAMES == ("Recruiter", "Explorer", "Scientist", "Secret Agent", "Femme Fatale", "Saboteur",
                            "Travel Agent", "Soldier", "Pilot")
    assert C.ROLE_PLACE == (1, 1, 2, 2, 1, 1, 3, 2, 2)


def test_M_C8_secret_missions():
    marked = [0] * 10
    assert len(C.MISSION_ZONES) == 4
    for zones in C.MISSION_ZONES:
        assert sum(1 for z in zones if z in C.CENTRAL_ZONES) == 1 and len(zones) == 3
        assert all(b not in C.NEIGHBOURS[a] for a in zones for b in zones)
        for z in zones:
            marked[z] += 1
    assert all(1 <= m <= 2 for m in marked)


def test_M_C2_M_C3_M_C4_M_C6_M_C8_tables_live_only_in_the_data_file():
    """Reconstructed data is read from data/red_planet.json, never written in code."""
    needles = ["Centre A", "Rim 1", "[0, 6, 8]", "[1, 4, 9]", "[3, 4, 4, 5]", "Fehlanalyse"]
    for path in PACKAGE.rglob("*.py"):
        text = path.read_text(encoding="utf-8")
        for needle in needles:
            assert needle not in text, f"{path.name} hard-codes {needle!r}"
    assert "Centre A" in (PACKAGE / "data" / "red_planet.json").read_text(encoding="utf-8")


# --- setup ------------------------------------------------------------------------------------
@pytest.mark.parametrize("n", [3, 4, 5])
def test_M_S1_M_S2_M_S3_setup_draws_in_order(n):
    for seed in range(6):
        _g, pool, deck, slots, order = setup_draws(n, seed)
        s = new_game(n, seed=seed)
        assert s.round == 1 and s.mineral_pool == pool and s.slots == slots and s.ship_deck == deck
        assert s.start_player == order[0]  # the first astronaut drawn
        for k, q in enumerate(order):
            assert s.crew[slots[k]] == [int(p == q) for p in range(n)]
            assert s.players[q].supply == 21 and s.players[q].hand == list(range(9))
        assert s.token_supply == [2] * 10 and all(m == -1 for m in s.mineral)


def test_M_S4_hand_piloted_setup_ship_gets_its_destination_from_the_astronauts_owner():
    s = new_game(3, seed=0)  # slot 1 holds hand-piloted ship 32
    assert s.phase == "setup_zone" and s.pending_slot == 1 and s.slots[1] == 32
    owner = s.crew[32].index(1)
    assert s.current_player == owner and kinds(s) == {"setup_zone"}
    assert s.event_pile == list(range(24))  # M-S5 comes after M-S4
    apply(s, act("setup_zone", 7))
    assert s.token[32] == 7 and s.token_supply[7] == 1 and s.destination(32) == 7
    assert s.phase == "keep"  # no other hand-piloted ship: the cards are dealt


def test_M_S4_slot_order_when_two_setup_ships_are_hand_piloted():
    seed = next(x for x in range(500) if sum(1 for sl in new_game(4, seed=x).slots if sl >= 30) >= 2)
    s = new_game(4, seed=seed)
    hp = [k for k, sl in enumerate(s.slots) if sl >= 30]
    assert s.pending_slot == hp[0]
    apply(s, act("setup_zone", 0))
    assert s.pending_slot == hp[1] and s.current_player == s.crew[s.slots[hp[1]]].index(1)


def test_M_S4_a_setup_ship_waiting_for_its_turn_is_a_valid_state():
    s = new_game(3, seed=3009)  # slots 0 and 1 hold hand-piloted ships with setup astronauts
    assert s.slots[:2] == [31, 30] and s.pending_slot == 0 and any(s.crew[30])
    check_invariants(s)  # slot 1 waits for its M-S4 choice: no missing destination yet
    assert GameState.from_json(s.to_json()) == s


@pytest.mark.parametrize("n", [3, 4, 5])
def test_M_S5_deal_three_in_seat_order_and_redeal_all_discovery_hands(n):
    redeals = 0
    for seed in range(40):
        s = finish_setup_zones(new_game(n, seed=seed))
        g, *_rest, order = setup_draws(n, seed)
        cards = list(range(24))
        g = rng.shuffle(g, cards)
        seats = [(order[0] + i) % n for i in range(n)]
        hands = {q: [cards.pop() for _ in range(3)] for q in seats}
        aside, seen = [], {q: list(hands[q]) for q in seats}
        for q in seats:
            while not any(C.IS_BONUS[c] for c in hands[q]):
                aside += hands[q]
                for viewer in seats:  # shown to everyone (M-S5)
                    seen[viewer] += hands[q]
                hands[q] = [cards.pop() for _ in range(3)]
                seen[q] += hands[q]
        assert s.phase == "keep" and s.current_player == seats[0]
        assert [s.players[q].setup_hand for q in seats] == [hands[q] for q in seats]
        assert s.set_aside == aside and s.event_pile == cards
        assert all(not C.IS_BONUS[c] for c in aside)
        assert all(s.players[q].seen == sorted(set(seen[q])) for q in seats)  # M-I2 and the shown hands of M-S5
        redeals += len(aside) // 3
    assert redeals > 0  # the redeal happened in some game


def test_M_S6_keep_one_bonus_card_and_shuffle_the_rest_into_the_pile():
    s = finish_setup_zones(new_game(3, seed=4))  # a game with a redeal (6 cards set aside)
    assert len(s.set_aside) == 6
    order = s.seat_order()
    returned, kept = [], {}
    for q in order:
        assert s.current_player == q and s.phase == "keep"
        bonus = [c for c in s.players[q].setup_hand if C.IS_BONUS[c]]
        assert sorted(legal_actions(s)) == sorted(act("keep", c) for c in bonus)  # only bonus cards
        kept[q] = bonus[-1]
        returned += [c for c in s.players[q].setup_hand if c != bonus[-1]]
        before = list(s.event_pile) + list(s.set_aside) + [c for c in s.players[q].setup_hand if c != bonus[-1]]
        g = s.rng
        apply(s, act("keep", bonus[-1]))
    pile = before
    g = rng.shuffle(g, pile)
    assert s.event_pile == pile and s.rng == g and s.set_aside == []
    assert all(s.players[q].bonus == [kept[q]] and s.players[q].setup_hand == [] for q in order)
    assert s.phase == "commit" and s.round == 1 and s.current_player == s.start_player
    check_invariants(s)


def test_M_S6_only_bonus_cards_can_be_kept():
    s = finish_setup_zones(new_game(3, seed=2))
    hand = s.players[s.current_player].setup_hand
    assert any(not C.IS_BONUS[c] for c in hand)
    assert sorted(A.decode(a)[1][0] for a in legal_actions(s)) == sorted(c for c in hand if C.IS_BONUS[c])
    with pytest.raises(ValueError):
        A.encode("keep", next(c for c in hand if not C.IS_BONUS[c]))  # the keep block has no discovery card


@pytest.mark.parametrize("n", [0, 1, 2, 6, 7])
def test_M_X2_only_three_to_five_players(n):
    with pytest.raises(ValueError, match="M-X2"):
        new_game(n, seed=0)


@pytest.mark.parametrize("bad", ["3", 3.0, True, None])
def test_M_X2_player_count_must_be_an_int(bad):
    with pytest.raises(TypeError):
        new_game(bad, seed=0)
