"""GameState.to_json / from_json: round trip, the documented example, malformed input.

``python tests/env/rules/test_state_json.py`` prints the example of docs/state_json.md.
"""
import copy
import json
import random
import re

import pytest

from spacemission_env.space_mission.rules import GameState, apply, new_game
from spacemission_env.space_mission.rules.state_json import state_to_dict
from tests.helpers.doc_json import compact_json
from tests.helpers.paths import ROOT
from tests.helpers.positions import position

DOC = ROOT / "docs" / "state_json.md"


def example_state() -> GameState:
    """The documented example: 2 players, seed 2, 58 kind-uniform random actions."""
    from spacemission_env.space_mission.random_play import kind_uniform_action

    s, r = new_game(2, seed=2), random.Random(2)
    for _ in range(58):
        apply(s, kind_uniform_action(s, r))
    return s


def doc_example() -> str:
    text = DOC.read_text()
    return re.search(r"```json\n(.*?)```", text, re.S).group(1)


def doc_keys(section: str) -> list[str]:
    """Backticked keys in the first column of the table under ``## section``."""
    text = DOC.read_text()
    body = text[text.index(f"## {section}\n"):]
    body = body[:body.index("\n## ", 1)] if "\n## " in body[1:] else body
    return re.findall(r"^\| `([a-z_]+)` \|", body, re.M)


# --- round trip ---------------------------------------------------------------------
@pytest.mark.parametrize("rules", ["yucata", "schmidt"])
def test_round_trip_new_game_and_played_state(rules):
    for s in (new_game(4, seed=8, rules=rules), example_state()):
        loaded = GameState.from_json(s.to_json())
        assert loaded == s and loaded.to_json() == s.to_json()


def tile_decision_state() -> GameState:
    """3 players, seed 1: kind-uniform random play up to the first tile decision."""
    s, r = new_game(3, seed=1), random.Random(1)
    from spacemission_env.space_mission.random_play import kind_uniform_action
    while s.phase != "tile":
        apply(s, kind_uniform_action(s, r))
    return s


def test_round_trip_in_a_tile_decision():
    s = tile_decision_state()
    loaded = GameState.from_json(s.to_json(indent=2))
    assert loaded == s and loaded.pending in ("scan", "develop", "discover")


@pytest.mark.parametrize("games", [10, pytest.param(38, marks=pytest.mark.slow)])
@pytest.mark.parametrize("n, rules", [(n, rules) for rules in ("yucata", "schmidt") for n in (2, 3, 4, 5)])
def test_every_state_of_random_play_round_trips(n, rules, games):
    """No state that play reaches is refused by the loader's checks (state.py: check_turn,
    check_invariants, check_last_views, check_history): 10 games per configuration, 80 in
    all, by default (``-m slow``: 38, 304 in all, about 100,000 states, 40 s), every state
    from the deal to the end, tile decisions and finished games included; kind-uniform play
    (ends by R-E1) and every fifth game uniform play with a round limit of 6 (ends at R-E3)."""
    from spacemission_env.space_mission.random_play import kind_uniform_action, uniform_action
    from spacemission_env.space_mission.rules.state_json import state_from_dict

    for g in range(games):
        uniform = g % 5 == 4
        s = new_game(n, seed=1000 * n + g, rules=rules, max_rounds=6 if uniform else 100)
        r, choose = random.Random(g), uniform_action if uniform else kind_uniform_action
        while True:
            assert state_from_dict(state_to_dict(s)) == s
            if s.is_over:
                break
            apply(s, choose(s, r))


def test_version_2_games_played_on_round_trip():
    """A version 2 file loads with empty turn records (R-I1); as play goes on the records fill
    in seat order, and every state of the continued game loads (check_record_order)."""
    from spacemission_env.space_mission.random_play import kind_uniform_action
    from spacemission_env.space_mission.rules.state_json import state_from_dict

    for g in range(24):
        n, rules = 2 + g % 4, ("yucata", "schmidt")[g // 4 % 2]
        s, r = new_game(n, seed=g, rules=rules), random.Random(g)
        for _ in range(random.Random(-g).randrange(0, 150)):
            apply(s, kind_uniform_action(s, r))
        while s.actions_left != 2:  # on to a turn's start (or its first tile decision)
            apply(s, kind_uniform_action(s, r))
        assert not s.is_over
        d = state_to_dict(s)
        d["version"] = 2
        for pl in d["players"]:
            del pl["last_turn"]
        s = state_from_dict(d)
        while not s.is_over:
            apply(s, kind_uniform_action(s, r))
            assert state_from_dict(state_to_dict(s)) == s


@pytest.mark.parametrize("max_rounds", [1, 100])
def test_round_trip_of_a_finished_game(max_rounds):
    """A finished game has no actions left in its turn; its JSON must still load
    (truncated with max_rounds=1, R-E3; ended by R-E1 otherwise)."""
    from spacemission_env.space_mission.random_play import play
    s, _ = play(2, seed=3, max_rounds=max_rounds)
    assert s.is_over and s.actions_left == 0 and s.round_limit == (max_rounds == 1)
    loaded = GameState.from_json(s.to_json())
    assert loaded == s and loaded.is_over


def test_actions_left_zero_is_rejected_while_the_game_runs():
    with pytest.raises(ValueError, match="actions_left"):
        GameState.from_json(new_game(2, seed=1).to_json().replace('"actions_left": 2', '"actions_left": 0'))


# --- the documented example ----------------------------------------------------------
def test_doc_example_loads_and_is_what_the_code_produces():
    text = doc_example()
    loaded = GameState.from_json(text)
    assert state_to_dict(loaded) == json.loads(text)
    assert loaded == example_state(), "regenerate the example: python tests/env/rules/test_state_json.py"


def test_doc_lists_exactly_the_keys_of_state_to_dict():
    d = state_to_dict(example_state())
    assert doc_keys("Top level") == list(d)
    assert doc_keys("Ring entries") == list(d["ring"][0])
    assert doc_keys("Players") == list(d["players"][0])
    assert doc_keys("Last visits") == list(d["players"][0]["last_visits"][0])
    assert doc_keys("Last turn") == list(d["players"][0]["last_turn"][0])


# --- malformed input: ValueError naming the problem ---------------------------------------
def mutated(change) -> str:
    d = copy.deepcopy(BASE)
    change(d)
    return json.dumps(d)


BASE = state_to_dict(new_game(3, seed=5))


def _set(path, value):
    def change(d):
        *head, last = path
        for k in head:
            d = d[k]
        d[last] = value
    return change


def _del(path):
    def change(d):
        *head, last = path
        for k in head:
            d = d[k]
        del d[last]
    return change


BAD = [
    (_del(["rng"]), 'missing key "rng"'),
    (_del(["players"]), 'missing key "players"'),
    (_del(["ring", 3, "pile"]), r'missing key "pile" in ring\[3\]'),
    (_del(["players", 1, "supply"]), r'missing key "supply" in players\[1\]'),
    (lambda d: d["draw_pile"].append(d["draw_pile"][0]), "61 cards"),
    (lambda d: d["draw_pile"].pop(), "59 cards"),
    (lambda d: (d["draw_pile"].pop(), d["draw_pile"].append(d["players"][0]["hand"][0])), "appears twice"),
    (lambda d: d["players"][0].update(gate_probes=1), "player 0 has 21 chips"),
    (_set(["players", 2, "supply"], 21), r"players\[2\].supply must be an integer in \[0, 20\]"),
    (lambda d: d["ring"][0]["pile"].update(gold=1), 'unknown tile name "gold"'),
    (lambda d: d["players"][0]["collection"].update(space=1), 'unknown tile name "space"'),
    (lambda d: d["players"][0]["collection"].update(water=1), "9 'water' tiles"),
    (_set(["ring", 2, "planet"], "Pluto"), 'unknown planet "Pluto"'),
    (_set(["ring", 2, "planet"], None), "unknown planet"),
    (lambda d: d["ring"][1].update(planet=d["ring"][0]["planet"]), "planet appears twice"),
    (lambda d: d["draw_pile"].__setitem__(0, "J9/S9"), 'unknown card "J9/S9"'),
    (_set(["phase"], "bidding"), r'unknown phase "bidding"; expected one of \["main", "tile"\]'),
    (_set(["pending"], "scan"), 'pending "scan" does not fit phase "main"'),
    (_set(["phase"], "tile"), 'pending null does not fit phase "tile"'),
    (_set(["version"], 4), "unsupported version"),
    (_set(["players", 0, "last_turn"], {}), r"players\[0\].last_turn must be a list"),
    (_set(["players", 0, "last_turn"], [{"action": "bid", "target": 1, "cards": [], "tile": False}]), "action must be one of"),
    (_set(["players", 0, "last_turn"], [{"action": "fly", "target": None, "cards": [], "tile": False}]), "only a top up has none"),
    (_set(["players", 0, "last_turn"], [{"action": "top_up", "target": 2, "cards": [], "tile": False}]), "only a top up has none"),
    (_set(["players", 0, "last_turn"], [{"action": "jump", "target": 2, "cards": [], "tile": False}]), "expected 1-1 distinct"),
    (_set(["players", 0, "last_turn"], [{"action": "fly", "target": 2, "cards": [], "tile": True}]), "cannot take a tile"),
    (_set(["players", 0, "last_turn"], [{"action": "fly", "target": 9, "cards": [], "tile": False}]), r"target must be an integer"),
    (_set(["players", 0, "last_turn"], [{"action": "fly", "target": 1, "cards": [], "tile": False}] * 3), "records 3 actions"),
    (_del(["players", 0, "last_turn"]), r'missing key "last_turn" in players\[0\]'),
    (_set(["rules"], "classic"), r'unknown rules "classic"; expected one of \["yucata", "schmidt"\]'),
    (_set(["num_players"], 6), r"num_players must be an integer in \[2, 5\]"),
    (_set(["current_player"], 3), "current_player"),
    (_set(["round"], 101), "round"),
    (_set(["is_over"], "no"), "is_over must be true or false"),
    (_set(["ring", 0, "station"], 7), r"ring\[0\].station"),
    (_set(["ring", 0, "reservations"], {"5": {"water": 1}}), 'unknown seat "5"'),
    (_set(["players", 0, "ship"], 8), r"players\[0\].ship"),
    (lambda d: d["players"].pop(), "players must list 3 players"),
    (lambda d: d["ring"].pop(), "ring must list 8 planets"),
    (lambda d: d["players"][0]["hand"].append(d["draw_pile"].pop()), "holds 6 cards"),
]


@pytest.mark.parametrize("change, message", BAD, ids=[m for _, m in BAD])
def test_malformed_state_raises_value_error_naming_the_problem(change, message):
    with pytest.raises(ValueError, match=message):
        GameState.from_json(mutated(change))


def test_pile_of_more_than_eight_tiles_is_rejected():
    d = copy.deepcopy(BASE)  # move one tile from pile 1 to pile 0: totals stay right
    name = next(iter(d["ring"][1]["pile"]))
    d["ring"][1]["pile"][name] -= 1
    d["ring"][0]["pile"][name] = d["ring"][0]["pile"].get(name, 0) + 1
    with pytest.raises(ValueError, match="ring position 0 holds more than 8 tiles"):
        GameState.from_json(json.dumps(d))


@pytest.mark.parametrize("text", ["", "{", "[]", "null", "42", None])
def test_not_a_json_object(text):
    with pytest.raises(ValueError, match="JSON"):
        GameState.from_json(text)


def test_a_rejected_load_leaves_the_caller_untouched():
    s = new_game(2, seed=3)
    text = s.to_json()
    before = copy.deepcopy(s)
    with pytest.raises(ValueError):
        GameState.from_json(text.replace('"phase": "main"', '"phase": "end"'))
    assert s == before and s.to_json() == text


if __name__ == "__main__":
    print(compact_json(state_to_dict(example_state())))


def _without_turns(s: GameState) -> GameState:
    s = s.copy()
    for pl in s.players:
        pl.last_turn = []
    return s


def test_version_1_files_load_with_truncated_read_as_round_limit_R_E3():
    d = state_to_dict(example_state())
    d["version"] = 1
    d["truncated"] = d.pop("round_limit")
    for pl in d["players"]:
        del pl["last_turn"]
    assert GameState.from_json(json.dumps(d)) == _without_turns(example_state())


def test_version_2_files_load_with_empty_turn_records_R_I1():
    d = state_to_dict(example_state())
    d["version"] = 2
    for pl in d["players"]:
        del pl["last_turn"]
    loaded = GameState.from_json(json.dumps(d))
    assert loaded == _without_turns(example_state()) and all(pl.last_turn == [] for pl in loaded.players)
    apply(loaded, 72)  # play goes on; the turn began before the load (its first action is unknown):
    assert loaded.players[1].last_turn == []  # its record stays empty, not a one-action turn (R-T2, R-I1)
    apply(loaded, 72)  # seat 0's turn is recorded from its start
    assert [a.kind for a in loaded.players[0].last_turn] == ["fly"]


def _as_old_version(s: GameState, version: int) -> dict:
    """The document a version 1 or 2 writer would have made of ``s``: no turn records (R-I1)."""
    d = state_to_dict(s)
    d["version"] = version
    if version == 1:
        d["truncated"] = d.pop("round_limit")
    for pl in d["players"]:
        del pl["last_turn"]
    return d


# (kind-uniform actions of new_game(2, seed=2) with random.Random(2) before the save, actions after the load)
MID_TURN = [
    pytest.param(1, [74], id="scan"),  # seat 0 jumped to Caldera; scan with card 0
    pytest.param(6, [83], id="develop"),  # seat 0 scanned and took its tile; develop
    pytest.param(47, [89], id="discover"),  # seat 1 jumped to Echo; discover
    pytest.param(5, [96, 83], id="tile-then-develop"),  # saved in seat 0's first tile decision
]


@pytest.mark.parametrize("version", [1, 2])
@pytest.mark.parametrize("steps, actions", MID_TURN)
def test_old_version_loaded_mid_turn_then_scan_develop_discover_saves_and_reloads_R_T2_R_I1(steps, actions, version):
    """Regression: a version 1/2 file saved after the acting seat's first action (R-T2) loads with
    every turn record empty; its second action, a scan, develop or discover, then left a record of
    one action in the tile decision, and the saved state was refused on reload ("records 1 actions,
    but the seat has played 2"). The turn's first action is unknown, so the record of that turn
    stays empty (unknown, R-I1) in both engines, and the seat's next turn is recorded as usual."""
    from spacemission_env.space_mission import actions as A
    from spacemission_env.space_mission.random_play import kind_uniform_action
    from spacemission_env.space_mission.rules.state_json import state_from_dict
    from tests.helpers.lockstep import lockstep

    s, r = new_game(2, seed=2), random.Random(2)
    for _ in range(steps):
        apply(s, kind_uniform_action(s, r))
    assert s.actions_left == 1 or s.phase == "tile"  # mid-turn: the first action is played
    q = s.current_player
    loaded = state_from_dict(_as_old_version(s, version))
    ref, st = lockstep(loaded, actions)  # the fast engine plays it alike
    assert ref.phase == "tile" and ref.pending == A.decode(actions[-1])[0] and ref.actions_left == 1
    assert ref.players[q].last_turn == []  # the turn began before the load: unknown
    assert state_from_dict(state_to_dict(ref)) == ref
    rng = random.Random(steps)
    while ref.current_player == q:  # the turn ends, the other seat plays a recorded turn
        ref, st = lockstep(ref, [kind_uniform_action(ref, rng)])
        assert state_from_dict(state_to_dict(ref)) == ref
    while ref.current_player != q or ref.actions_left == 2 and ref.phase == "main":
        ref, st = lockstep(ref, [kind_uniform_action(ref, rng)])
        assert state_from_dict(state_to_dict(ref)) == ref
    assert len(ref.players[q].last_turn) == 1  # seat q's next turn is recorded from its start


def test_a_record_short_of_the_turn_so_far_is_still_refused_R_I1():
    """Only an empty record reads as unknown: a current-version record that holds the second
    action alone in its tile decision contradicts the turn so far (R-T2, R-I1)."""
    from spacemission_env.space_mission.random_play import kind_uniform_action

    s, r = new_game(2, seed=2), random.Random(2)
    for _ in range(6):
        apply(s, kind_uniform_action(s, r))
    apply(s, 83)  # develop, the second action: a tile decision with a record of two
    d = state_to_dict(s)
    del d["players"][0]["last_turn"][0]
    with pytest.raises(ValueError, match=r"players\[0\]\.last_turn records 1 actions, but the seat has played 2 of "
                                         r"this turn \(actions_left 1, phase 'tile'\)"):
        GameState.from_json(json.dumps(d))


def test_old_versions_loaded_anywhere_mid_turn_play_on_and_round_trip_in_both_engines_R_I1():
    """48 seeded games saved as version 1 or 2 at a random point of a turn in progress (after the
    first action or in a tile decision), loaded, and played on a while in both engines: every
    state saves and reloads as itself, and the fast engine stays in lock-step."""
    import numpy as np

    from spacemission_env.space_mission import engine
    from spacemission_env.space_mission.random_play import kind_uniform_action
    from spacemission_env.space_mission.rules.state_json import state_from_dict

    by_config: dict = {}
    for g in range(48):
        n, rules = 2 + g % 4, ("yucata", "schmidt")[g // 4 % 2]
        s, r = new_game(n, seed=100 + g, rules=rules), random.Random(g)
        for _ in range(random.Random(-g).randrange(0, 120)):
            apply(s, kind_uniform_action(s, r))
        while s.actions_left == 2 and s.phase == "main":  # on into a turn
            apply(s, kind_uniform_action(s, r))
        assert not s.is_over
        by_config.setdefault((n, rules), []).append((state_from_dict(_as_old_version(s, 1 + g % 2)), r))
    round_trips = 0
    for games in by_config.values():
        refs, rngs = [s for s, _ in games], [r for _, r in games]
        st = engine.from_reference(refs)
        for _ in range(40):  # a few turns of every seat after the load
            actions = np.zeros(len(refs), dtype=np.int64)
            for i, s in enumerate(refs):
                if not s.is_over:
                    actions[i] = kind_uniform_action(s, rngs[i])
                    apply(s, int(actions[i]))
                    assert state_from_dict(state_to_dict(s)) == s
                    round_trips += 1
            engine.step(st, actions)
            for i, s in enumerate(refs):
                assert engine.to_reference(st, i) == s
    assert round_trips > 1500


def test_R_E1_a_state_past_the_threshold_without_the_end_triggered_is_refused():
    """R-E1: the end is triggered as soon as the revealed space tiles reach the threshold (6 for
    2 players). A state with 8 revealed and end_triggered false loaded, and that game never
    ended by R-E1 (found by the spec audit); end_triggered without the threshold is refused too."""
    s = position(2, piles={1: {"space": 6}, 2: {"space": 2}})
    d = state_to_dict(s)
    d["ring"][1]["revealed"] = d["ring"][2]["revealed"] = True
    with pytest.raises(ValueError, match=r"8 space tiles are revealed and the end is triggered at 6 \(2 players, R-E1\)"):
        GameState.from_json(json.dumps(d))
    d["end_triggered"] = True
    assert GameState.from_json(json.dumps(d)).end_triggered
    d["ring"][2]["revealed"] = False  # 6 revealed: still the threshold
    assert GameState.from_json(json.dumps(d)).revealed_count == 6
    d["ring"][1]["revealed"] = False  # 2 revealed
    with pytest.raises(ValueError, match="but end_triggered is True"):
        GameState.from_json(json.dumps(d))
