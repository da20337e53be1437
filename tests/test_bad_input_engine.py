"""Bad input to the engines and the JSON state (issue 8 item 3), one section per entry
point: each case raises ValueError (TypeError for a wrong Python type) whose message
names the value, and leaves the state as it was."""
import io
import json
import os
import random
import subprocess
import sys

import numpy as np
import pytest
from lockstep import same
from positions import position
from positions import scan as pos_scan
from numba import config as numba_config

from spacemission_env import engine
from spacemission_env.actions import DISCOVER, NUM_ACTIONS, TOPUP
from spacemission_env.demo import play
from spacemission_env.engine import kernels as K
from spacemission_env.engine.compile_notice import MESSAGE, CompileNotice
from spacemission_env.engine.state import FIELD_NAMES, TABLES
from spacemission_env.rules import GameState, game as G, new_game
from spacemission_env.rules.state import state_to_dict


RING = ["Freezer", "Hazard", "Caldera", "Green Heggar", "Ruby Red", "Aurora", "Basalt", "Cinder"]


def unchanged(st, before) -> bool:
    return all(np.array_equal(getattr(st, f), getattr(before, f)) for f in FIELD_NAMES)


def random_batch(n=3, B=16, steps=60, seed=0, rules="yucata", max_rounds=100):
    """A batch after kind-uniform random play (some games in a tile decision)."""
    st = engine.init(B, n, seeds=seed, rules=rules, max_rounds=max_rounds)
    rng = np.random.default_rng(seed)
    for _ in range(steps):
        engine.step(st, engine.sample_actions(engine.legal_action_mask(st), rng, by_kind=True))
    return st


# --- engine.step -----------------------------------------------------------------------
@pytest.mark.parametrize("bad", [-1, 100, 2**40, np.iinfo(np.int64).min])
def test_step_rejects_out_of_range_ids_and_changes_nothing(bad):
    st = random_batch()
    before = st.copy()
    acts = engine.sample_actions(engine.legal_action_mask(st), np.random.default_rng(1))
    acts[5] = bad
    with pytest.raises(ValueError, match=rf"game 5: action {bad} is not legal"):
        engine.step(st, acts)
    assert unchanged(st, before)


def test_step_rejects_an_illegal_in_range_id_naming_the_first_game():
    st = engine.init(3, 2, seeds=0)
    before = st.copy()
    with pytest.raises(ValueError, match=rf"game 1: action {DISCOVER} is not legal now \(legal: \["):
        engine.step(st, np.array([TOPUP, DISCOVER, DISCOVER]))  # discover from the jump gate
    assert unchanged(st, before)


@pytest.mark.parametrize("bad", [[3.7, 0], ["3", "0"], [True, False], [[0], [0]], [0, 0, 0]])
def test_step_rejects_non_integer_or_misshapen_actions(bad):
    st = engine.init(2, 2, seeds=0)
    before = st.copy()
    with pytest.raises(ValueError, match="actions must"):
        engine.step(st, bad)
    assert unchanged(st, before)


def test_step_rejects_a_bad_select():
    st = engine.init(2, 2, seeds=0)
    with pytest.raises(ValueError, match=r"select must be .*\[1, 0\]"):
        engine.step(st, np.zeros(2, np.int64), select=[1, 0])


def test_step_ignores_any_id_of_finished_and_unselected_games():
    st = engine.init(3, 2, seeds=[5, 6, 7], max_rounds=1)
    for _ in range(4):
        engine.step(st, np.zeros(3, np.int64))
    st.terminated[2] = st.round_limit[2] = False  # game 2 runs on (unselected below)
    st.actions_left[2] = 2
    before = st.copy()
    engine.step(st, np.array([-1, 100, 555]), select=np.array([True, True, False]))
    assert unchanged(st, before)


def test_step_validation_agrees_with_the_legal_mask():
    """step validates with kernels.first_illegal, one id per game; it must reject exactly
    what mask_row leaves out, for every id (out-of-range ones included) in many positions."""
    for n, rules, steps in [(2, "yucata", 30), (3, "schmidt", 90), (5, "yucata", 160), (4, "schmidt", 400)]:
        st = random_batch(n, B=24, steps=steps, seed=steps, rules=rules)
        mask = engine.legal_action_mask(st)
        args = (st.ring, st.piles, st.hand, st.hand_len, st.supply, st.ship, st.scanned, st.stations,
                st.current_player, st.phase, st.terminated, TABLES[0], TABLES[1])
        for a in range(-3, NUM_ACTIONS + 3):
            actions = np.full(st.batch_size, a, np.int64)
            select = np.ones(st.batch_size, bool)
            rejected = []
            while (b := K.first_illegal(actions, select, *args)) >= 0:
                rejected.append(b)
                select[b] = False
            legal = mask[:, a] if 0 <= a < NUM_ACTIONS else np.zeros(st.batch_size, bool)
            assert rejected == np.flatnonzero(~legal & ~st.terminated).tolist(), a


# --- engine.observe / observation_size ------------------------------------------------------
@pytest.mark.parametrize("bad", [["info"], "god", None, 3])
def test_observe_rejects_unknown_observation_types(bad):
    st = engine.init(1, 2, seeds=0)
    with pytest.raises(ValueError, match=rf"unknown observation_type {bad!r}".replace("[", r"\[").replace("]", r"\]")):
        engine.observe(st, observation_type=bad)
    with pytest.raises(ValueError, match="unknown observation_type"):
        engine.observation_size(bad)


@pytest.mark.parametrize("bad, shown", [(2, "2"), (-1, "-1"), (1.5, "1.5"), (np.array([0, 3]), "3")])
def test_observe_rejects_bad_seats(bad, shown):
    st = engine.init(2, 2, seeds=0)
    with pytest.raises(ValueError, match=rf"player must .*{shown}"):
        engine.observe(st, bad)


# --- engine.sample_actions ----------------------------------------------------------------
def test_sample_actions_rejects_a_non_generator_rng_and_bad_masks():
    mask = np.ones((2, NUM_ACTIONS), bool)
    with pytest.raises(TypeError, match="rng must be a numpy.random.Generator or None, got 5"):
        engine.sample_actions(mask, rng=5)
    with pytest.raises(TypeError, match="rng must be .*RandomState"):
        engine.sample_actions(mask, rng=np.random.RandomState(0))
    with pytest.raises(TypeError, match="by_kind must be a bool, got 'yes'"):
        engine.sample_actions(mask, by_kind="yes")
    with pytest.raises(ValueError, match=r"mask must have shape \[B, 100\], got \(2, 99\)"):
        engine.sample_actions(mask[:, :99])
    empty = mask.copy()
    empty[1] = False
    with pytest.raises(ValueError, match="mask row 1 has no legal action"):
        engine.sample_actions(empty)


# --- engine.init / reset_finished: seeds ------------------------------------------------------
@pytest.mark.parametrize("bad, shown", [
    (-1, "-1"), (2**64, str(2**64)), (2**64 - 1, str(2**64 - 1)), (1.5, "1.5"), (True, "True"), ("7", "'7'"),
    (None, "None"), (np.array([0, -3, 1]), "-3"), (np.array([0.0, 1.0, 2.0]), "float64"), ([1, 2], r"\(2,\)"),
])
def test_init_and_reset_finished_reject_bad_seeds(bad, shown):
    with pytest.raises(ValueError, match=rf"seeds must .*{shown}"):
        engine.init(3, 2, seeds=bad)  # an int s uses s, s+1, s+2: 2**64 - 1 does not fit
    st = engine.init(3, 2, seeds=0, max_rounds=1)
    for _ in range(4):
        engine.step(st, np.zeros(3, np.int64))
    before = st.copy()
    with pytest.raises(ValueError, match=rf"seeds must .*{shown}"):
        engine.reset_finished(st, bad)
    assert unchanged(st, before)


def test_seed_edges_that_are_accepted():
    assert engine.to_reference(engine.init(1, 2, seeds=2**64 - 1), 0) == new_game(2, seed=2**64 - 1)
    st = engine.init(2, 2, seeds=np.array([2**64 - 1, 0], dtype=np.uint64))
    assert engine.to_reference(st, 0) == new_game(2, seed=2**64 - 1)


# --- rules.new_game: seed ------------------------------------------------------------------
@pytest.mark.parametrize("bad", [2**64, 2**64 + 5, -1, 1.5, True, "3"])
def test_new_game_rejects_seeds_outside_the_generator_range(bad):
    with pytest.raises(ValueError, match=rf"seed must .*{bad!r}" if not isinstance(bad, int) or isinstance(bad, bool)
                       else rf"seed must be in \[0, 2\*\*64\), got {bad}"):
        new_game(2, seed=bad)


def test_new_game_accepts_numpy_integer_seeds():
    assert new_game(3, seed=np.uint64(7)) == new_game(3, seed=7)


# --- engine.to_reference / from_reference ------------------------------------------------------
@pytest.mark.parametrize("bad, exc, shown", [(1.5, TypeError, "1.5"), (True, TypeError, "True"), ("0", TypeError, "'0'"),
                                             (2, ValueError, "2"), (-1, ValueError, "-1")])
def test_to_reference_rejects_bad_indices(bad, exc, shown):
    st = engine.init(2, 2, seeds=0)
    with pytest.raises(exc, match=rf"batch index .*{shown}"):
        engine.to_reference(st, bad)
    assert engine.to_reference(st, np.int64(1)) == new_game(2, seed=1)


def test_from_reference_rejects_mixed_configurations():
    with pytest.raises(ValueError, match="configuration"):
        engine.from_reference([new_game(2, seed=0), new_game(3, seed=0)])
    with pytest.raises(ValueError, match="at least one state"):
        engine.from_reference([])


# --- GameState.from_json: explicit cases --------------------------------------------------------
def played(n=3, seed=4, actions=40):
    from spacemission_env.demo import kind_uniform_action
    s, r = new_game(n, seed=seed), random.Random(seed)
    for _ in range(actions):
        G.apply(s, kind_uniform_action(s, r))
    return s


def rejects(d, match):
    with pytest.raises(ValueError, match=match):
        GameState.from_json(json.dumps(d))


@pytest.mark.parametrize("bad, shown", [(5, "int 5"), (b"{}", "bytes"), (None, "NoneType"), ({}, "dict")])
def test_from_json_rejects_non_str_input(bad, shown):
    with pytest.raises(ValueError, match=f"must be a str, got {shown}"):
        GameState.from_json(bad)


def test_from_json_rejects_deeply_nested_json_and_values():
    with pytest.raises(ValueError, match="nested too deeply"):
        GameState.from_json("[" * 100_000 + "]" * 100_000)
    d = state_to_dict(played())
    d["rng"] = json.loads("[" * 500 + "]" * 500)
    rejects(d, r"rng must be an integer .*got \[\[\[")
    with pytest.raises(ValueError, match="not valid JSON"):
        GameState.from_json('{"version": ' + "9" * 5000 + "}")  # too many digits for an int


@pytest.mark.parametrize("where", ["hand", "draw", "planet"])
@pytest.mark.parametrize("value", [["J1/S2"], {"J1/S2": 1}, 7, None])
def test_from_json_names_given_as_lists_or_objects(where, value):
    d = state_to_dict(played())
    if where == "hand":
        d["players"][0]["hand"][0] = value
    elif where == "draw":
        d["draw_pile"][-1] = value
    else:
        d["ring"][3]["planet"] = value
    rejects(d, "unknown (card|planet) ")


def test_from_json_rejects_contradictory_end_flags():
    over, _ = play(2, seed=3)  # ended by R-E1
    limit, _ = play(2, seed=3, max_rounds=1)  # ended at the round limit (R-E3)
    assert over.is_over and over.end_triggered and limit.round_limit
    d = state_to_dict(played())
    d["round_limit"] = True
    rejects(d, "round_limit is true but is_over is false")
    for actions_left in (1, 2):
        d = state_to_dict(over)
        d["actions_left"] = actions_left
        rejects(d, f"finished game has actions_left 0 .*got {actions_left}")
    d = state_to_dict(over)
    d["end_triggered"] = False
    rejects(d, "ended either by R-E1")
    d = state_to_dict(over)
    d["round_limit"] = True
    rejects(d, "ended either by R-E1")
    d = state_to_dict(over)
    d["current_player"] = (d["current_player"] + 1) % 2
    rejects(d, "last seat")
    d = state_to_dict(limit)
    d["max_rounds"] = 5
    rejects(d, r"round_limit needs round == max_rounds \(5\), got round 1")
    d = state_to_dict(played())
    d["actions_left"] = 0
    rejects(d, r"actions_left must be an integer in \[1, 2\], got 0")


def test_from_json_rejects_a_last_visit_in_a_future_round():
    s = played()
    d = state_to_dict(s)
    q = next(q for q, p in enumerate(d["players"]) if p["last_visits"])
    d["players"][q]["last_visits"][0]["round"] = s.round + 1
    rejects(d, rf"player {q}'s last visit .* round {s.round + 1}, after the current round {s.round}")


def test_from_json_rejects_impossible_tile_decisions_and_counts():
    s = played(actions=0)
    d = state_to_dict(s)
    d["players"][0]["last_visits"] = [{"position": 0, "round": 1, "pile": {"water": 8, "space": 1}}]
    rejects(d, "holds more than 8 tiles")
    d = state_to_dict(s)
    d["players"][0]["collection"] = {"medal": 7}  # 6 medals exist
    rejects(d, r"collection.medal must be an integer in \[0, 6\], got 7")
    d = state_to_dict(s)
    d["ring"][0]["reservations"] = {"01": {"water": 1}}
    rejects(d, "unknown seat '01'")
    for version in (True, "2", 3.0, 4):
        d = state_to_dict(s)
        d["version"] = version
        rejects(d, f"unsupported version {version!r}")
    # a scan waiting for its tile with no chip left to put on it
    s = position(2, ring=RING, ships={0: 0}, hands={0: ["J1/S2"]}, piles={0: {"medal": 1, "space": 1}})
    G.apply(s, pos_scan(s, "J1/S2"))
    assert s.phase == "tile" and s.pending == "scan"
    d = state_to_dict(s)
    pl = d["players"][s.current_player]
    pl["gate_probes"], pl["supply"] = pl["gate_probes"] + pl["supply"], 0
    rejects(d, "scan's tile decision needs .* a chip in supply")


# --- GameState.from_json: mutation fuzz ----------------------------------------------------------
POOL = [0, 1, -1, 2, 3, 5, 7, 8, 20, 21, 64, 100, 10**6, 10**9, 2**31, 2**64, 1.5, True, False, None, "", "main", "tile",
        "scan", "develop", "J1/S2", "S?/L1", "Freezer", "water", "space", [], {}, [1], {"water": 1}, ["J1/S2"]]


def fuzz_positions(count=240):
    """Reference states from kind-uniform random play of the fast engine: every configuration,
    early to finished games, some in a tile decision, some at the round limit."""
    out = []
    per = count // 16
    k = 0
    for n in (2, 3, 4, 5):
        for rules in ("yucata", "schmidt"):
            for max_rounds, horizon in ((2, 40), (100, 500)):
                st = engine.init(per, n, seeds=1000 * k, rules=rules, max_rounds=max_rounds)
                rng = np.random.default_rng(k)
                stop = rng.integers(0, horizon, per)
                for t in range(horizon):
                    for i in np.flatnonzero(stop == t):
                        out.append(engine.to_reference(st, i))
                    engine.step(st, engine.sample_actions(engine.legal_action_mask(st), rng, by_kind=True))
                k += 1
    return out


def paths(node, prefix=()):
    yield prefix
    items = node.items() if isinstance(node, dict) else enumerate(node) if isinstance(node, list) else ()
    for key, child in items:
        yield from paths(child, prefix + (key,))


def mutate(d, r: random.Random):
    """One random edit of the dict form: an integer (half the edits) nudged, redrawn or
    made extreme; or any node replaced, removed, duplicated, or swapped with one of the
    same kind (two hand cards, two piles' flags: often still a valid state). Fields are
    drawn uniformly by kind (the path with list indices wildcarded)."""
    all_paths = [p for p in paths(d) if p]

    def at(path):
        node = d
        for key in path[:-1]:
            node = node[key]
        return node, path[-1]

    def shape(path):
        return tuple("*" if isinstance(k, int) else k for k in path)

    by_shape = {}
    for p in all_paths:
        by_shape.setdefault(shape(p), []).append(p)
    path = r.choice(by_shape[r.choice(sorted(by_shape, key=str))])  # every field equally often
    parent, key = at(path)
    value = parent[key]
    op = r.randrange(5)
    if type(value) is int:
        parent[key] = r.choice([value + r.choice([-2, -1, 1, 2]), r.randrange(0, max(value, 0) + 2),
                                r.choice([-1, 10**6, 10**9, 2**31, 2**64, 1.5, True, None])])
    elif op == 0:
        parent[key] = r.choice(POOL)
    elif op == 1:
        del parent[key]
    elif op == 2 and isinstance(parent, list):
        parent.append(value)
    else:
        other, okey = at(r.choice(by_shape[shape(path)]))
        parent[key], other[okey] = other[okey], value


def test_from_json_fuzz_every_loaded_state_plays_alike_in_both_engines():
    r = random.Random(0)
    loaded = rejected = 0
    for s in fuzz_positions():
        for _ in range(3):
            d = json.loads(s.to_json())
            for _ in range(r.choice([1, 1, 2])):
                try:
                    mutate(d, r)
                except (KeyError, IndexError, TypeError):  # the path moved under an earlier edit
                    pass
            try:
                m = GameState.from_json(json.dumps(d))
            except ValueError:
                rejected += 1
                continue
            loaded += 1
            assert GameState.from_json(m.to_json()) == m
            ref = m.copy()
            st = engine.from_reference([m])
            same(ref, st, observations=True)
            for step in range(3):
                if ref.is_over:
                    break
                a = r.choice(G.legal_actions(ref))
                G.apply(ref, a)
                engine.step(st, np.array([a]))
                same(ref, st, observations=step == 2)
    assert loaded > 150 and rejected > 300, (loaded, rejected)


# --- first compile notice ----------------------------------------------------------------------
needs_jit = pytest.mark.skipif(numba_config.DISABLE_JIT, reason="nothing is compiled under NUMBA_DISABLE_JIT")


@needs_jit
def test_compile_notice_names_this_package_once():
    from numba import njit
    from numba.core import event

    out = io.StringIO()
    notice = CompileNotice(stream=out)
    event.register("numba:compile", notice)
    try:
        def other(x):
            return x + 1

        njit(other)(1)  # not this package's: no notice
        assert out.getvalue() == ""

        def ours(x):
            return x + 2

        ours.__module__ = "spacemission_env.engine.example"
        njit(ours)(1)
        njit(ours)(2.0)  # a second compile: still one line
    finally:
        event.unregister("numba:compile", notice)
    assert out.getvalue() == MESSAGE + "\n"


@needs_jit
def test_compile_notice_only_when_compiling_not_when_loading_from_the_cache(tmp_path):
    code = ("import numpy as np; from spacemission_env.engine import kernels as K; "
            "a = np.zeros(3, np.int8); K.sort_small(a, 3)")
    env = dict(os.environ, NUMBA_CACHE_DIR=str(tmp_path))
    runs = [subprocess.run([sys.executable, "-c", code], env=env, capture_output=True, text=True, check=True)
            for _ in range(2)]
    assert MESSAGE in runs[0].stderr  # empty cache: compiled
    assert MESSAGE not in runs[1].stderr  # loaded from the cache


def test_from_json_rejects_an_acting_record_longer_than_the_turn_so_far_R_I1():
    """The acting seat's last-turn record holds this turn's actions so far (R-T2, R-I1):
    a record of two actions with one action left would make the engines record a third."""
    s = played(actions=0)
    G.apply(s, 0)  # the acting seat tops up: its record holds one action, one action left
    assert s.actions_left == 1 and len(s.players[s.current_player].last_turn) == 1
    d = state_to_dict(s)
    turn = d["players"][s.current_player]["last_turn"]
    d["players"][s.current_player]["last_turn"] = turn + turn
    rejects(d, "records 2 actions, but the seat has played 1 of this turn")
