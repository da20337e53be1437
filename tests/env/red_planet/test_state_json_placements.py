"""The turn's placements in a loaded Red Planet state (rules/state.py, check_placements):
``turn.placed_slots`` lists the slot of each astronaut the acting player placed this turn
(M-L1), so each listed slot's ship carries at least that many of his astronauts; a
destination is chosen right after the placement onto its ship (M-L2); the Travel Agent's
and the Soldier's group boards at once (M-O7, M-O8). Before, a Pilot's ``[2]`` could be
edited to ``[1]`` (a ship without his astronaut) and loaded. Every state random play
reaches still loads. Each test of a new check failed before it."""
import json
import random
import re

import pytest

from spacemission_env.red_planet import rules as G
from spacemission_env.red_planet.components import ROLE_NAMES
from tests.helpers.red_planet_positions import position


def load(d: dict):
    return G.from_json(json.dumps(d))


def random_states(n: int, seed: int):
    """Every state of one uniformly random game, the first one included."""
    s, r = G.new_game(n, seed=seed), random.Random(seed)
    yield s
    while not G.is_over(s):
        G.apply(s, r.choice(G.legal_actions(s)))
        yield s


def first_state(predicate, players=(3, 4, 5), seeds=range(60)) -> dict:
    """The JSON of the first state of random play (seed by seed) that ``predicate`` accepts."""
    for seed in seeds:
        for n in players:
            for s in random_states(n, seed):
                if predicate(s):
                    return json.loads(G.to_json(s))
    raise AssertionError("no such state in random play")


def role(s) -> str | None:
    return ROLE_NAMES[s.role] if s.role >= 0 else None


def empty_slot_for(d: dict) -> int:
    """A pad slot whose ship carries none of the acting player's astronauts."""
    q = d["current_player"]
    return next(k for k, ship in enumerate(d["slots"]) if ship is not None and d["ships"][str(ship)]["crew"][q] == 0)


# --- random play: every reachable state loads -------------------------------------------------
@pytest.mark.parametrize("games", [30, pytest.param(60, marks=pytest.mark.slow)])
@pytest.mark.parametrize("n", [3, 4, 5])
def test_every_state_of_random_play_round_trips(n, games):
    """``games`` random games per player count (about 130 states each; 30 in the default
    suite, 60 in the slow set): every state, the turns in progress included, writes and loads
    back equal; no reachable state is refused by the placement checks."""
    states = placing = 0
    phases = set()
    for seed in range(games):
        for s in random_states(n, 1000 * n + seed):
            assert G.from_json(G.to_json(s)) == s, (n, seed, s.phase)
            states += 1
            placing += bool(s.placed_slots)
            phases.add(s.phase)
    assert states > 50 * games and placing > 5 * games
    assert phases == {"setup_zone", "keep", "commit", "place", "destination", "ability", "discovery", "over"}


# --- each placed astronaut is aboard (M-L1) ----------------------------------------------------
def test_a_placed_slot_whose_ship_carries_none_of_the_players_astronauts_is_refused():
    """The review's case: a Pilot mid-placement with one astronaut placed; his placed slot
    moved to a ship that carries none of his astronauts."""
    d = first_state(lambda s: role(s) == "Pilot" and s.phase == "place" and len(s.placed_slots) == 1)
    load(d)
    k = empty_slot_for(d)
    d["turn"]["placed_slots"] = [k]
    q = d["current_player"]
    with pytest.raises(ValueError, match=re.escape(f"placed_slots [{k}]: player {q} placed 1 astronaut(s) into slot "
                                                   f"{k} this turn, but slot {k} holds ship") + r".*\(M-L1"):
        load(d)


def test_a_slot_placed_twice_needs_two_of_the_players_astronauts_aboard():
    d = first_state(lambda s: role(s) in ("Pilot", "Scientist") and s.phase == "place" and len(s.placed_slots) == 1
                    and s.crew[s.slots[s.placed_slots[0]]][s.current_player] == 1)
    load(d)
    k = d["turn"]["placed_slots"][0]
    d["turn"]["placed_slots"] = [k, k]
    with pytest.raises(ValueError, match=re.escape(f"placed 2 astronaut(s) into slot {k} this turn, but slot {k} "
                                                   f"holds ship {d['slots'][k]}, which carries 1 of them")):
        load(d)


def test_a_placed_slot_without_a_ship_is_refused():
    """A slot emptied by a Saboteur earlier in the round holds no ship until the refill."""
    s = position(3, phase="place", role="Pilot", current=0, pad={0: None}, crew={5: {0: 1}}, placed_slots=[1])
    d = json.loads(G.to_json(s))
    d["turn"]["placed_slots"] = [1, 0]
    with pytest.raises(ValueError, match=re.escape("slot 0 holds no ship (M-L1")):
        load(d)


def test_a_pilot_who_has_not_placed_yet_may_have_astronauts_aboard():
    """``[]`` with the player's astronauts aboard is the start of his turn after earlier
    placements (unfilled ships stay on the pad, M-R2): reachable, so it loads. The state
    keeps no other record of this turn's placements, so a ``[2]`` edited to ``[]`` cannot be
    told from it."""
    d = first_state(lambda s: role(s) == "Pilot" and s.phase == "place" and not s.placed_slots
                    and any(s.crew[ship][s.current_player] for ship in s.slots if ship >= 0))
    assert load(d).placed_slots == []


# --- a destination follows its placement (M-L2) -------------------------------------------------
@pytest.mark.parametrize("change", ["none", "other slot"])
def test_a_destination_without_the_placement_onto_its_ship_is_refused(change):
    d = first_state(lambda s: s.phase == "destination" and s.placed_slots)
    load(d)
    k = d["turn"]["pending_slot"]
    if change == "none":
        d["turn"]["placed_slots"] = []
    else:
        other = [j for j in range(d["num_players"]) if j != k and d["slots"][j] is not None
                 and d["ships"][str(d["slots"][j])]["crew"][d["current_player"]] > 0]
        if not other:
            pytest.skip("no other ship carries the chooser's astronaut")
        d["turn"]["placed_slots"] = [other[0]]
    with pytest.raises(ValueError, match=r"pending_slot \d: a destination is chosen right after the placement onto "
                                         r"its ship \(M-L2\)"):
        load(d)


# --- the Travel Agent's and the Soldier's group (M-O7, M-O8) ------------------------------------
def test_a_soldier_with_part_of_his_group_placed_is_refused():
    d = first_state(lambda s: role(s) == "Soldier" and s.phase == "ability" and len(s.placed_slots) == 2)
    load(d)
    d["turn"]["placed_slots"] = d["turn"]["placed_slots"][:1]
    with pytest.raises(ValueError, match=r"the Soldier places his group of 2 at once, or none \(M-O7, M-O8\)"):
        load(d)


def test_a_travel_agent_waiting_for_a_destination_has_placed_one():
    s = position(3, phase="destination", role="Travel Agent", current=0, pad={0: 30}, crew={30: {0: 1}},
                 placed_slots=[0], pending_slot=0)
    d = json.loads(G.to_json(s))
    assert load(d) == s
    s = position(3, phase="destination", role="Travel Agent", current=0, pad={0: 30}, crew={30: {0: 2}},
                 placed_slots=[0], pending_slot=0)
    d = json.loads(G.to_json(s))
    d["turn"]["placed_slots"] = [0, 0]
    with pytest.raises(ValueError, match=r"the Travel Agent places his group of 3 at once, or none \(M-O7, M-O8\) "
                                         r"and only the first waits for a destination \(M-L2\)"):
        load(d)
